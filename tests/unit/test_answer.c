/*
** Tests of inference/answer.c through lad_answer_find: on a few random
** cases of a preset, every alternative it lists reproduces every stored D
** word (checked with lad_eval, not with the plans the search used), each
** it calls separated gives another word than the model on its next case,
** and its progress goes through the two steps answer.h names, counts
** never past their totals.
*/
#include "test.h"

#include <stdlib.h>
#include <string.h>

#include "inference/answer.h"
#include "model/presets.h"
#include "probes/diff.h"

#define NCASES 48

typedef struct seen {
    int calls, rows, search;    /* calls; of each step */
    int bad;                    /* calls with an unknown step or done > total */
    int order;                  /* a row step after the search began */
    size_t last_row;            /* done of the last row step */
    int back;                   /* row steps that went back */
} seen;

static void count(void *ctx, const char *step, size_t done, size_t total)
{
    seen *s = ctx;
    s->calls++;
    if (step && strcmp(step, "the rows the cases leave open") == 0) {
        s->rows++;
        s->order += s->search > 0;
        s->back += done < s->last_row;
        s->last_row = done;
        s->bad += total == 0 || done >= total;
    } else if (step && strcmp(step, "the cases that separate them") == 0) {
        s->search++;
        s->bad += total == 0 || done > total;
    } else {
        s->bad++;
    }
}

void test_answer(void)
{
    const lad_preset *p = lad_preset_find("sm90-mma-bf16-f32");
    if (p == NULL) {
        test_check(0, "answer-preset", "no preset sm90-mma-bf16-f32");
        return;
    }
    const lad_datapath *m = &p->dp;
    /* the witness search's random cases (the last of lad_diff_ncases) */
    static lad_case cs[NCASES];
    static lad_word_t d[NCASES];
    long total = lad_diff_ncases(m, NCASES);
    size_t n = 0;
    for (long i = total - NCASES; i < total && n < NCASES; i++)
        if (lad_diff_case(m, i, &cs[n]))
            n++;
    for (size_t i = 0; i < n; i++)
        d[i] = lad_eval(m, &cs[i]);

    static lad_answer a;
    seen s = {0};
    lad_answer_cases ac = {cs, NULL, d, n, 0, count, &s};
    lad_err err = {0};
    int rc = lad_answer_find(m, &ac, &a, &err);
    TEST_EQ_INT("answer-rc", LAD_OK, rc);
    test_check(n == NCASES && a.nalt > 0 && a.nopen + a.nequiv > 0, "answer-some-open",
               "%zu cases, %d alternatives, %d open, %d equivalent", n, a.nalt, a.nopen,
               a.nequiv);

    int wrong = 0, unsep = 0;
    for (int j = 0; j < a.nalt; j++) {
        const lad_answer_alt *t = &a.alts[j];
        for (size_t i = 0; i < n; i++)
            wrong += lad_eval(&t->dp, &cs[i]) != d[i];
        if (t->separated)
            unsep += t->next < 0 || t->next >= a.nnext ||
                     lad_eval(&t->dp, &a.next[t->next]) == lad_eval(&a.model, &a.next[t->next]);
    }
    TEST_EQ_INT("answer-alternatives-fit-every-case", 0, wrong);
    TEST_EQ_INT("answer-separated-by-their-case", 0, unsep);

    test_check(s.rows > 0 && s.search > 0 && s.bad == 0 && s.order == 0 && s.back == 0,
               "answer-progress", "%d calls: %d rows, %d search, %d bad, %d out of order, "
               "%d back", s.calls, s.rows, s.search, s.bad, s.order, s.back);
}
