/*
** The whole answer of inference (answer.h): every row decided, equivalent,
** open or not in effect, and the cases that separate what is open.
*/
#include "answer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../io/modelfile.h"
#include "../probes/diff.h"
#include "search.h"
#include "../util/hooks.h"

const char *const lad_row_status_names[5] = {"fixed", "not in effect", "decided", "equivalent",
                                             "open"};

#define BLOCK 256 /* cases of the separating search made and run at once */

/* The work of one lad_answer_find or lad_answer_add. */
typedef struct work {
    const lad_answer_cases *c;
    lad_case tmp;
    size_t *order;          /* cases in the order tried: killers first */
    lad_answer *a;
    lad_datapath canon;     /* M's canonical form */
} work;

static const lad_case *case_at(work *w, size_t i)
{
    if (w->c->cs)
        return &w->c->cs[i];
    lad_packed_get(w->c->pk, i, &w->tmp);
    return &w->tmp;
}

/* Whether dp gives every stored D word. A case that refutes is moved to
** the front, so that the next candidate meets it first. */
static int consistent(work *w, const lad_datapath *dp)
{
    if (lad_datapath_check(dp, NULL) != LAD_OK)
        return 0;
    lad_plan pl;
    lad_plan_init(&pl, dp);
    for (size_t k = 0; k < w->c->n; k++) {
        size_t i = w->order[k];
        if (lad_plan_eval(&pl, case_at(w, i)) != w->c->d[i]) {
            if (k > 0) {
                memmove(w->order + 1, w->order, k * sizeof *w->order);
                w->order[0] = i;
            }
            return 0;
        }
    }
    return 1;
}

/* Appends dp as an alternative changing rows (row1 and row2 its first
** two, -1 for none), unless the list is full (then it says so). */
static void append(lad_answer *a, const lad_datapath *dp, int r1, int r2, uint64_t rows,
                   int apart)
{
    if (a->nalt == LAD_ANSWER_ALTS) {
        a->alts_capped = 1;
        return;
    }
    lad_answer_alt *t = &a->alts[a->nalt++];
    memset(t, 0, sizeof *t);
    t->dp = *dp;
    t->row1 = r1;
    t->row2 = r2;
    t->v1 = lad_param_get(&lad_params[r1], dp, &a->model);
    t->v2 = r2 >= 0 ? lad_param_get(&lad_params[r2], dp, &a->model) : 0;
    t->rows = rows;
    t->apart = apart;
    t->next = -1;
}

/* Records dp, consistent, as an alternative of rows r1 (and r2), unless it
** is M itself (the same canonical form) or already recorded. */
static void record(work *w, const lad_datapath *dp, int r1, int r2)
{
    lad_answer *a = w->a;
    if (r2 >= 0 && r2 < r1) { /* a pair in one order */
        int r = r1;
        r1 = r2;
        r2 = r;
    }
    int64_t v1 = lad_param_get(&lad_params[r1], dp, &w->canon);
    int64_t v2 = r2 >= 0 ? lad_param_get(&lad_params[r2], dp, &w->canon) : 0;
    for (int i = 0; i < a->nalt; i++) {
        const lad_answer_alt *t = &a->alts[i];
        if (t->row1 == r1 && t->row2 == r2 && t->v1 == v1 && t->v2 == v2)
            return;
    }
    if (lad_canon_equal(dp, &w->canon))
        return;
    append(a, dp, r1, r2, 1ULL << r1 | (r2 >= 0 ? 1ULL << r2 : 0), 0);
}

/* A model found apart (lad_answer_cases.others), when it gives every
** stored case and is not M: recorded by the rows it changes, one or two
** as any other, more as a model apart. */
static void record_apart(work *w, const lad_datapath *other)
{
    lad_datapath o = *other;
    lad_canon(&o);
    if (lad_canon_equal(&o, &w->canon) || !consistent(w, &o))
        return;
    for (int i = 0; i < w->a->nalt; i++)
        if (w->a->alts[i].apart && lad_canon_equal(&o, &w->a->alts[i].dp))
            return;  /* found by another search (lad_answer_add) */
    const lad_datapath *m = &w->canon;
    uint64_t rows = 0;
    int first = -1, second = -1, n = 0;
    for (int r = 0; r < lad_nparams; r++) {
        const lad_param *p = &lad_params[r];
        if (p->type == LAD_PT_STR || lad_param_get(p, &o, m) == lad_param_get(p, m, m))
            continue;
        rows |= 1ULL << r;
        n++;
        if (first < 0)
            first = r;
        else if (second < 0)
            second = r;
    }
    if (n > 2)
        append(w->a, &o, first, second, rows, 1);
    else if (n > 0)
        record(w, &o, first, second);
}

/* Every candidate of row r from dp, each consistent one recorded. */
static void try_row(work *w, const lad_datapath *from, int r, int r0)
{
    const lad_param *p = &lad_params[r];
    int64_t v[LAD_PARAM_MAXCANDS];
    int nv = lad_param_cands(p, from, v, LAD_PARAM_MAXCANDS);
    int64_t own = lad_param_get(p, from, from);
    for (int j = 0; j < nv; j++) {
        if (v[j] == own)
            continue;
        lad_datapath t = *from;
        lad_param_set(p, &t, from, v[j]);
        if (lad_canon_equal(&t, &w->canon))  /* M itself: a row not in effect */
            continue;
        if (consistent(w, &t))
            record(w, &t, r0 >= 0 ? r0 : r, r0 >= 0 ? r : -1);
    }
}

/* Row r1 changed to each value that alone misses some stored case, then
** every other row in effect changed with it: the second row repairs the
** first. A row of more than WIDE candidates starts from the values next to
** the model's (two either side in candidate order) and `none`. Up to
** LAD_ANSWER_PAIRS value pairs per pair of rows; the rest are counted
** unexamined. */
#define WIDE 16
static void try_pairs(work *w, int r1)
{
    const lad_datapath *m = &w->canon;
    const lad_param *p1 = &lad_params[r1];
    int64_t v[LAD_PARAM_MAXCANDS];
    int nv = lad_param_cands(p1, m, v, LAD_PARAM_MAXCANDS);
    int64_t own = lad_param_get(p1, m, m);
    int at = -1;
    for (int j = 0; j < nv && at < 0; j++)
        if (v[j] == own)
            at = j;
    long tried[LAD_NPARAMS_MAX] = {0};
    for (int j = 0; j < nv; j++) {
        if (v[j] == own ||
            (nv > WIDE && v[j] != LAD_NOFLOOR && (at < 0 || j < at - 2 || j > at + 2)))
            continue;
        lad_datapath t = *m;
        lad_param_set(p1, &t, m, v[j]);
        if (lad_datapath_check(&t, NULL) != LAD_OK || lad_canon_equal(&t, m) ||
            consistent(w, &t))
            continue;
        for (int r2 = 0; r2 < lad_nparams; r2++) {
            if (r2 == r1 || !lad_param_in_effect(&lad_params[r2], &t))
                continue;
            int64_t v2[LAD_PARAM_MAXCANDS];
            int n2 = lad_param_cands(&lad_params[r2], &t, v2, LAD_PARAM_MAXCANDS);
            if (tried[r2] + n2 > LAD_ANSWER_PAIRS) {
                w->a->unexamined += n2;
                continue;
            }
            tried[r2] += n2;
            try_row(w, &t, r2, r1);
        }
    }
}

/* The caller's progress, if it gave one (lad_answer_cases.progress). */
static void report(const lad_answer_cases *c, const char *step, long done, long total)
{
    if (c->progress)
        c->progress(c->pctx, step, (size_t)done, (size_t)total);
}

/* How far a device's search looks when its first LAD_ANSWER_EVALS
** evaluations separate nothing: LAD_ANSWER_FURTHER, or the environment's
** LADDER_ANSWER_FURTHER evaluations (0 or up to LAD_ANSWER_EVALS: no
** further look; malformed: the default). The sanitizer pass of the tests
** sets 0: the further look runs the same code on more cases, at some 6 s
** of a sanitized run each (docs/testing.md). */
static long further_evals(void)
{
    return lad_env_number("LADDER_ANSWER_FURTHER", 0, 1L << 40, LAD_ANSWER_FURTHER,
                          LAD_ANSWER_FURTHER);
}

int lad_answer_further(void)
{
    return further_evals() > LAD_ANSWER_EVALS;
}

/*
** A case that separates each alternative a->alts[from..] from M: the
** witness search's cases (probes/diff.h), made once, a block at a time,
** and run on M and on every such alternative not yet separated; each
** alternative takes the first case that separates it. Then each row's
** status, over every alternative. Returns LAD_OK or LAD_EINTERNAL.
*/
static int separate(const lad_answer_cases *c, lad_answer *a, int from, long budget,
                    long further, lad_err *err)
{
    lad_plan pm, *pa = malloc((size_t)(a->nalt + 1) * sizeof *pa);
    lad_case *blk = malloc(BLOCK * sizeof *blk);
    lad_word_t *dm = malloc(BLOCK * sizeof *dm), *dx = malloc(BLOCK * sizeof *dx);
    int *first = malloc((size_t)(a->nalt + 1) * sizeof *first);
    if (pa == NULL || blk == NULL || dm == NULL || dx == NULL || first == NULL) {
        free(pa), free(blk), free(dm), free(dx), free(first);
        return lad_errf(err, LAD_EINTERNAL, "out of memory");
    }
    lad_plan_init(&pm, &a->model);
    for (int i = from; i < a->nalt; i++)
        lad_plan_init(&pa[i], &a->alts[i].dp);
    int left = a->nalt - from;
    long total = lad_diff_ncases(&a->model, c->device ? LAD_ANSWER_DEEP : LAD_ANSWER_RANDOM);
    long evals = 0;
    for (long i = 0; i < total && left > 0;) {
        report(c, "the cases that separate them", evals < budget ? evals : budget, budget);
        if (evals >= budget) {
            /* for a device, a search that separated none looks further */
            if (left < a->nalt - from || budget >= further)
                break;
            budget = further;
        }
        size_t nb = 0;
        for (; i < total && nb < BLOCK; i++)
            nb += (size_t)lad_diff_case(&a->model, i, &blk[nb]);
        lad_plan_eval_batch(&pm, blk, nb, dm);
        evals += (long)nb;
        int last = -1;
        for (int j = from; j < a->nalt; j++) {
            first[j] = -1;
            if (a->alts[j].separated)
                continue;
            lad_plan_eval_batch(&pa[j], blk, nb, dx);
            evals += (long)nb;
            for (size_t l = 0; l < nb && first[j] < 0; l++)
                if (dx[l] != dm[l])
                    first[j] = (int)l;
            if (first[j] > last)
                last = first[j];
        }
        for (int l = 0; l <= last; l++) /* the block's separating cases, in order */
            for (int j = from, added = 0; j < a->nalt; j++) {
                if (first[j] != l)
                    continue;
                if (!added)
                    a->next[a->nnext++] = blk[l];
                added = 1;
                a->alts[j].separated = 1;
                a->alts[j].next = a->nnext - 1;
                left--;
            }
        a->searched += left > 0 ? (long)nb : last + 1;
    }
    free(pa), free(blk), free(dm), free(dx), free(first);

    /* each row's status */
    a->ndecided = a->nequiv = a->nopen = a->noff = 0;
    for (int r = 0; r < lad_nparams; r++) {
        const lad_param *p = &lad_params[r];
        lad_answer_row *row = &a->rows[r];
        int sep = 0;
        row->nalt = 0;
        for (int i = 0; i < a->nalt; i++)
            if (a->alts[i].rows >> r & 1) {
                row->nalt++;
                sep |= a->alts[i].separated;
            }
        if (p->type == LAD_PT_STR || (p->flags & LAD_PF_REQUIRED))
            row->status = LAD_ROW_FIXED;
        else if (!lad_param_in_effect(p, &a->model) && row->nalt == 0)
            row->status = LAD_ROW_OFF, a->noff++;
        else if (row->nalt == 0)
            row->status = LAD_ROW_DECIDED, a->ndecided++;
        else if (!sep)
            row->status = LAD_ROW_EQUIV, a->nequiv++;
        else
            row->status = LAD_ROW_OPEN, a->nopen++;
    }
    return LAD_OK;
}

/* Opens the work on a, whose model is M. */
static int work_open(work *w, const lad_answer_cases *c, lad_answer *a, lad_err *err)
{
    *w = (work){.c = c, .a = a, .canon = a->model};
    w->order = malloc((c->n + 1) * sizeof *w->order);
    if (w->order == NULL)
        return lad_errf(err, LAD_EINTERNAL, "out of memory");
    for (size_t i = 0; i < c->n; i++)
        w->order[i] = i;
    return LAD_OK;
}

int lad_answer_find(const lad_datapath *m, const lad_answer_cases *c, lad_answer *a,
                    lad_err *err)
{
    memset(a, 0, sizeof *a);
    a->model = *m;
    lad_canon(&a->model);
    work w;
    int rc = work_open(&w, c, a, err);
    if (rc)
        return rc;

    /* one row at a time, then the pairs that repair a value missing a case */
    const char *rows = "the rows the cases leave open";
    for (int r = 0; r < lad_nparams; r++) {
        report(c, rows, r, 2L * lad_nparams);
        if (lad_param_in_effect(&lad_params[r], &w.canon))
            try_row(&w, &w.canon, r, -1);
    }
    for (int r = 0; r < lad_nparams; r++) {
        report(c, rows, lad_nparams + r, 2L * lad_nparams);
        if (lad_param_in_effect(&lad_params[r], &w.canon))
            try_pairs(&w, r);
    }
    for (int i = 0; i < c->nothers; i++)
        record_apart(&w, &c->others[i]);
    free(w.order);
    return separate(c, a, 0, LAD_ANSWER_EVALS, c->device ? further_evals() : 0, err);
}

int lad_answer_add(const lad_answer_cases *c, lad_answer *a, lad_err *err)
{
    work w;
    int rc = work_open(&w, c, a, err), from = a->nalt;
    if (rc)
        return rc;
    for (int i = 0; i < c->nothers; i++)
        record_apart(&w, &c->others[i]);
    free(w.order);
    return from < a->nalt ? separate(c, a, from, LAD_ANSWER_APART_EVALS, 0, err) : LAD_OK;
}

int lad_answer_far(const lad_datapath *start, const lad_answer_cases *c,
                   const lad_datapath *extra, int nextra, lad_answer *a, lad_err *err)
{
    lad_datapath apart[LAD_ANSWER_EXTRA + LAD_APART_MAX];
    int na = nextra < LAD_ANSWER_EXTRA ? nextra : LAD_ANSWER_EXTRA, ns = 0;
    for (int i = 0; i < na; i++)
        apart[i] = extra[i];
    if (lad_answer_further() && c->n > 0) {
        /* the search on at most LAD_ANSWER_FAR_CASES cases spread evenly
        ** (a packed file of a million cases unpacked whole would take a
        ** gigabyte); lad_answer_add keeps a model only if it gives every
        ** case */
        size_t m = c->n < LAD_ANSWER_FAR_CASES ? c->n : LAD_ANSWER_FAR_CASES;
        const lad_case *cs = c->cs;
        const lad_word_t *d = c->d;
        lad_case *own = NULL;
        lad_word_t *ownd = NULL;
        if (cs == NULL || m < c->n) {
            own = malloc(m * sizeof *own);
            ownd = malloc(m * sizeof *ownd);
            work tw = {.c = c};
            for (size_t i = 0; own && ownd && i < m; i++) {
                size_t j = i * c->n / m;
                own[i] = *case_at(&tw, j);
                ownd[i] = c->d[j];
            }
            cs = own;
            d = ownd;
        }
        ns = cs && d ? lad_search_apart(start, &a->model, cs, d, m, apart + na, LAD_APART_MAX,
                                        c->progress, c->pctx, err)
                     : -1;
        free(own);
        free(ownd);
        if (ns < 0)
            return lad_errf(err, LAD_EINTERNAL, "out of memory");
    }
    if (na + ns == 0)
        return LAD_OK;
    lad_answer_cases with = *c;
    with.others = apart;
    with.nothers = na + ns;
    return lad_answer_add(&with, a, err);
}

static int cmp64(const void *x, const void *y)
{
    int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
    return (a > b) - (a < b);
}

const char *lad_answer_values(const lad_answer *a, int r, int separated, char *buf,
                              size_t size)
{
    const lad_param *p = &lad_params[r];
    int64_t own = lad_param_get(p, &a->model, &a->model), v[LAD_ANSWER_ALTS];
    int nv = 0;
    for (int i = 0; i < a->nalt; i++) {
        const lad_answer_alt *t = &a->alts[i];
        int64_t c = t->rows == 1ULL << r && t->separated == separated ? t->v1 : own;
        int seen = c == own;
        for (int j = 0; j < nv && !seen; j++)
            seen = v[j] == c;
        if (!seen)
            v[nv++] = c;
    }
    qsort(v, (size_t)nv, sizeof v[0], cmp64);
    int numeric = p->type == LAD_PT_INT || p->type == LAD_PT_FLOOR;
    char t[400], u[400];
    size_t len = (size_t)snprintf(buf, size, "%s", lad_param_code_text(p, &a->model, own, t,
                                                                       sizeof t));
    for (int i = 0; i < nv && len < size; i++) {
        int j = i;
        while (numeric && v[i] != LAD_NOFLOOR && j + 1 < nv && v[j + 1] == v[j] + 1)
            j++;
        lad_param_code_text(p, &a->model, v[i], t, sizeof t);
        if (j >= i + 2) {
            lad_param_code_text(p, &a->model, v[j], u, sizeof u);
            len += (size_t)snprintf(buf + len, size - len, "|%s..%s", t, u);
            i = j;
        } else {
            len += (size_t)snprintf(buf + len, size - len, "|%s", t);
        }
    }
    return buf;
}
/* The answer's rows: how many of each kind, then the open and equivalent
** rows with their values, the rows not in effect. */
#define WIDTH 100 /* columns a line takes at most, as infer's table */

/* prefix then text, broken at a space (none left at a line's end) or
** after a '|', to lines of at most WIDTH columns, those after the first
** indented by four. */
static void wrapped(FILE *f, const char *prefix, const char *text)
{
    int col = fprintf(f, "%s", prefix), space = 0; /* space: one is owed before the next word */
    while (*text) {
        size_t n = strcspn(text, " |");
        char brk = text[n];
        size_t w = n + (brk == '|'); /* a '|' stays on its word's line; a space is dropped at a break */
        if (col + space + (int)w > WIDTH && col > 4) {
            fputs("\n    ", f);
            col = 4;
            space = 0;
        }
        if (space)
            col += fprintf(f, " ");
        col += fprintf(f, "%.*s", (int)w, text);
        space = brk == ' ';
        text += n + (brk != 0);
    }
    fputc('\n', f);
}

void lad_answer_print(FILE *f, const lad_answer *a)
{
    fprintf(f, "rows: %d decided, %d open, %d equivalent, %d not in effect\n", a->ndecided,
           a->nopen, a->nequiv, a->noff);
    char v[1200], v1[400];
    for (int st = LAD_ROW_OPEN; st >= LAD_ROW_EQUIV; st--) {
        for (int i = 0; i < lad_nparams; i++)
            if (a->rows[i].status == st) {
                /* an open row's values a case separates, then those none does */
                lad_answer_values(a, i, st == LAD_ROW_OPEN, v, sizeof v);
                lad_answer_values(a, i, 0, v1, sizeof v1);
                char *eq = strchr(v1, '|');
                char pre[64], line[2600];
                snprintf(pre, sizeof pre, "%s: %s: ", st == LAD_ROW_OPEN ? "open" : "equivalent",
                         lad_params[i].key);
                snprintf(line, sizeof line, "%s%s%s%s", v,
                         strchr(v, '|') ? "" : " (others only together with another row)",
                         st == LAD_ROW_OPEN && eq ? "; equivalent: " : "",
                         st == LAD_ROW_OPEN && eq ? eq + 1 : "");
                wrapped(f, pre, line);
            }
        /* the alternatives that change two rows or more at once, a few
        ** of them (a model apart first, each of its rows) */
        int shown = 0, more = 0;
        for (int pass = 1; pass >= 0; pass--)
            for (int i = 0; i < a->nalt; i++) {
                const lad_answer_alt *t = &a->alts[i];
                if (t->row2 < 0 || t->apart != pass || t->separated != (st == LAD_ROW_OPEN))
                    continue;
                if (shown == 8) {
                    more++;
                    continue;
                }
                shown++;
                char line[1600];
                size_t len = (size_t)snprintf(line, sizeof line, "%s %s: ",
                                              st == LAD_ROW_OPEN ? "open" : "equivalent",
                                              t->apart ? "apart" : "together");
                for (int r = 0, nr = 0; r < lad_nparams && len < sizeof line; r++) {
                    if (!(t->rows >> r & 1))
                        continue;
                    const lad_param *p = &lad_params[r];
                    len += (size_t)snprintf(line + len, sizeof line - len, "%s%s %s",
                                            nr++ ? ", " : "", p->key,
                                            lad_param_code_text(p, &a->model,
                                                                lad_param_get(p, &t->dp, &a->model),
                                                                v1, sizeof v1));
                }
                wrapped(f, "", line);
            }
        if (more)
            fprintf(f, "%s together: (%d more)\n", st == LAD_ROW_OPEN ? "open" : "equivalent", more);
    }
    if (a->nequiv)
        fprintf(f, "equivalent: (no case of %ld separates these from the model)\n", a->searched);
    char off[1200] = "";
    size_t ol = 0;
    for (int i = 0; i < lad_nparams && ol < sizeof off - 40; i++)
        if (a->rows[i].status == LAD_ROW_OFF)
            ol += (size_t)snprintf(off + ol, sizeof off - ol, "%s%s", ol ? " " : "",
                                   lad_params[i].key);
    if (ol)
        wrapped(f, "not in effect: ", off);
    if (a->alts_capped || a->unexamined)
        fprintf(f, "open: (the enumeration stopped: %s%ld value pairs not examined)\n",
               a->alts_capped ? "more consistent models than kept; " : "", a->unexamined);
    if (a->nopen)
        fprintf(f, "next: %d case%s separate%s the open values from the model (the decide "
               "rung runs them; fit --next FILE writes them)\n", a->nnext,
               a->nnext == 1 ? "" : "s", a->nnext == 1 ? "s" : "");
}

/* Row i's note for a model file (io/modelfile.h, lad_model_write_notes):
** open, equivalent or not in effect, with the values; NULL for a row the
** cases decide or the instruction fixes. */
const char *lad_answer_note(const lad_answer *a, int i, char *buf, size_t size)
{
    char v[1200];
    switch (a->rows[i].status) {
    case LAD_ROW_OFF:
        snprintf(buf, size, "not in effect for this shape: any value gives the same words");
        return buf;
    case LAD_ROW_EQUIV:
        lad_answer_values(a, i, 0, v, sizeof v);
        snprintf(buf, size, "equivalent: %s%s give the same words on every case searched", v,
                 strchr(v, '|') ? "" : " (and values together with another row)");
        return buf;
    case LAD_ROW_OPEN:
        lad_answer_values(a, i, 1, v, sizeof v);
        snprintf(buf, size, "open: %s%s fit every stored case, and cases separate them "
                 "(ladder fit --next, or a run's decide rung)", v,
                 strchr(v, '|') ? "" : " (and values together with another row)");
        return buf;
    default:
        return NULL;
    }
}

char *lad_answer_model_write(const lad_answer *a, const lad_datapath *dp, const char *evidence)
{
    if (a == NULL || a->nalt < 0)
        return lad_model_write(dp, evidence);
    char(*buf)[1400] = malloc((size_t)lad_nparams * sizeof *buf);
    const char **notes = calloc((size_t)lad_nparams, sizeof *notes);
    char *y = NULL;
    if (buf && notes) {
        for (int i = 0; i < lad_nparams; i++)
            notes[i] = lad_answer_note(a, i, buf[i], sizeof buf[i]);
        y = lad_model_write_notes(&a->model, evidence, notes);
    }
    free(buf);
    free(notes);
    return y;
}

const char *lad_answer_summary(const lad_answer *a, char *buf, size_t size)
{
    size_t n = (size_t)snprintf(buf, size, "rows: %d decided, %d open, %d equivalent, %d not in "
                                "effect", a->ndecided, a->nopen, a->nequiv, a->noff);
    for (int i = 0, first = 1; i < lad_nparams && n < size; i++)
        if (a->rows[i].status == LAD_ROW_OPEN) {
            n += (size_t)snprintf(buf + n, size - n, "%s%s", first ? "; open: " : " ",
                                  lad_params[i].key);
            first = 0;
        }
    return buf;
}
