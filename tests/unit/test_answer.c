/*
** Tests of inference/answer.c through lad_answer_find: on a few random
** cases of a preset, every alternative it lists reproduces every stored D
** word (checked with lad_eval, not with the plans the search used), each
** it calls separated gives another word than the model on its next case,
** its progress goes through the two steps answer.h names, counts never
** past their totals, and a model apart joins as one alternative; and
** inference/search.h's lad_search_apart on an exact sum: the models it
** finds reproduce every case, differ from the model and from each other,
** and lad_answer_add adds them without searching the others again.
*/
#include "test.h"

#include <stdlib.h>
#include <string.h>

#include "inference/answer.h"
#include "inference/search.h"
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

static int fits(const lad_datapath *dp, const lad_case *cs, const lad_word_t *d, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (lad_eval(dp, &cs[i]) != d[i])
            return 0;
    return 1;
}

/* The witness search's random cases of m (the last NCASES of
** lad_diff_ncases), with one product each when one (lane 0's: the other
** lanes' A is zero), and m's words on them. Returns how many. */
static size_t cases_of(const lad_datapath *m, int one, lad_case *cs, lad_word_t *d)
{
    long total = lad_diff_ncases(m, NCASES);
    size_t n = 0;
    for (long i = total - NCASES; i < total && n < NCASES; i++)
        if (lad_diff_case(m, i, &cs[n]))
            n++;
    for (size_t i = 0; i < n; i++) {
        for (int j = 1; one && j < m->k; j++)
            cs[i].a[j] = 0;
        d[i] = lad_eval(m, &cs[i]);
    }
    return n;
}

/* A model apart (lad_answer_cases.others): three rows changed at once,
** each a one-row alternative of a (the first three of different rows
** whose union still fits every case), is recorded as one alternative with
** its three rows, which the answer's rows then count; the model itself,
** or one that misses a case, adds nothing. */
static void apart(const lad_datapath *m, const lad_case *cs, const lad_word_t *d, size_t n,
                  const lad_answer *a)
{
    lad_datapath o = a->model;
    uint64_t rows = 0;
    int got = 0;
    for (int j = 0; j < a->nalt && got < 3; j++) {
        const lad_answer_alt *t = &a->alts[j];
        if (t->row2 >= 0 || rows >> t->row1 & 1)
            continue;
        lad_datapath u = o;
        lad_param_set(&lad_params[t->row1], &u, &a->model, t->v1);
        if (lad_datapath_check(&u, NULL) != LAD_OK || !fits(&u, cs, d, n))
            continue;
        o = u;
        rows |= 1ULL << t->row1;
        got++;
    }
    if (got < 3) {
        test_check(0, "answer-apart-fixture", "only %d rows found to change together", got);
        return;
    }
    static lad_answer b;
    lad_answer_cases ac = {cs, NULL, d, n, 0, NULL, NULL, &o, 1};
    lad_err err = {0};
    int rc = lad_answer_find(m, &ac, &b, &err), found = 0, counted = 1;
    for (int j = 0; j < b.nalt; j++)
        found += b.alts[j].apart && b.alts[j].rows == rows && lad_canon_equal(&b.alts[j].dp, &o);
    for (int r = 0; r < lad_nparams; r++)
        if (rows >> r & 1)
            counted &= b.rows[r].nalt == a->rows[r].nalt + 1;
    test_check(rc == LAD_OK && found == 1 && b.nalt == a->nalt + 1 && counted,
               "answer-apart-recorded", "rc %d, %d found, %d alternatives against %d, rows "
               "counted %d", rc, found, b.nalt, a->nalt, counted);

    /* M itself, and a model that misses a stored case: nothing added */
    lad_datapath miss = a->model;
    miss.d_round = miss.d_round == LAD_RZ ? LAD_RNE : LAD_RZ;
    int missing = !fits(&miss, cs, d, n);
    ac.others = &a->model;
    ac.nothers = 1;
    lad_answer_find(m, &ac, &b, &err);
    int same = b.nalt == a->nalt;
    ac.others = &miss;
    ac.nothers = 1;
    lad_answer_find(m, &ac, &b, &err);
    test_check(same && missing && b.nalt == a->nalt, "answer-apart-only-consistent",
               "M itself: %d alternatives; d_round changed (misses a case: %d): %d; "
               "against %d", same ? a->nalt : -1, missing, b.nalt, a->nalt);
}

/* counts the steps lad_search_apart reports, and the last one's total */
struct steps {
    int n, bad;
    size_t total;
};

static void count_step(void *pctx, const char *step, size_t i, size_t total)
{
    struct steps *s = pctx;
    s->n++;
    s->bad += strcmp(step, "the models far apart") != 0 || i >= total;
    s->total = total;
}

/* lad_search_apart from an exact sum (an AMD CDNA1 preset) on NCASES of
** its cases with one product each (lane 0's; the others' A is zero), which
** many a sum of another structure gives too, then lad_answer_add with what
** it found. */
static void far(void)
{
    const lad_preset *p = lad_preset_find("cdna1-mfma-bf16-f32");
    if (p == NULL || !p->dp.exact) {
        test_check(0, "apart-preset", "no exact-sum preset cdna1-mfma-bf16-f32");
        return;
    }
    const lad_datapath *m = &p->dp;
    static lad_case cs[NCASES];
    static lad_word_t d[NCASES];
    size_t n = cases_of(m, 1, cs, d);

    lad_datapath out[LAD_APART_MAX];
    lad_err err = {0};
    struct steps st = {0};
    int k = lad_search_apart(m, m, cs, d, n, out, LAD_APART_MAX, count_step, &st, &err);
    int bad = 0, same = 0, other = 0;
    for (int j = 0; j < k; j++) {
        bad += lad_datapath_check(&out[j], NULL) != LAD_OK || !fits(&out[j], cs, d, n);
        same += lad_canon_equal(&out[j], m);
        for (int i = 0; i < j; i++)
            same += lad_canon_equal(&out[j], &out[i]);
        other += !out[j].exact;
    }
    test_check(k > 0 && k <= LAD_APART_MAX && bad == 0 && same == 0 && other > 0, "apart-found",
               "%d models: %d miss a case or are illegal, %d repeat the model or another, "
               "%d not an exact sum", k, bad, same, other);
    test_check(st.n > 0 && st.bad == 0 && (size_t)st.n <= st.total, "apart-progress",
               "%d steps of %zu, %d not \"the models far apart\" or past the total", st.n,
               st.total, st.bad);

    static lad_answer a, b;
    lad_answer_cases ac = {cs, NULL, d, n, 0, NULL, NULL, NULL, 0};
    int rc = lad_answer_find(m, &ac, &a, &err);
    b = a;
    ac.others = out;
    ac.nothers = k > 0 ? k : 0;
    rc |= lad_answer_add(&ac, &b, &err);
    int kept = 1, counted = 0, sep = 0;
    for (int j = 0; j < a.nalt; j++)
        kept &= b.alts[j].separated == a.alts[j].separated && b.alts[j].next == a.alts[j].next;
    for (int j = a.nalt; j < b.nalt; j++) {
        bad += !fits(&b.alts[j].dp, cs, d, n);
        if (b.alts[j].separated)
            sep += lad_eval(&b.alts[j].dp, &b.next[b.alts[j].next]) !=
                   lad_eval(&b.model, &b.next[b.alts[j].next]);
        else
            sep++;
    }
    for (int r = 0; r < lad_nparams; r++)
        counted += b.rows[r].status != LAD_ROW_FIXED;
    int far_rows = 0; /* new alternatives of more than two rows */
    for (int j = a.nalt; j < b.nalt; j++)
        far_rows += b.alts[j].apart > 0;
    test_check(rc == LAD_OK && far_rows > 0 && b.nalt <= a.nalt + k && kept && bad == 0 &&
                   sep == b.nalt - a.nalt &&
                   b.ndecided + b.nequiv + b.nopen + b.noff == counted,
               "apart-added", "rc %d, %d alternatives then %d (%d found, %d far), earlier ones "
               "kept %d, "
               "%d new ones miss a case, %d of them separated by their case or not at all, "
               "rows %d+%d+%d+%d of %d", rc, a.nalt, b.nalt, k, far_rows, kept, bad, sep,
               b.ndecided, b.nequiv, b.nopen, b.noff, counted);
}

void test_answer(void)
{
    const lad_preset *p = lad_preset_find("sm90-mma-bf16-f32");
    if (p == NULL) {
        test_check(0, "answer-preset", "no preset sm90-mma-bf16-f32");
        return;
    }
    const lad_datapath *m = &p->dp;
    static lad_case cs[NCASES];
    static lad_word_t d[NCASES];
    size_t n = cases_of(m, 0, cs, d);

    static lad_answer a;
    seen s = {0};
    lad_answer_cases ac = {cs, NULL, d, n, 0, count, &s, NULL, 0};
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
    apart(m, cs, d, n, &a);
    far();
}
