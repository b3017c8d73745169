/*
** Inference from a run's evidence; see infer.h. This file reads the run
** (its recipe and stored cases), re-derives the formats the recipe left
** unknown, cuts the cases into stages (rungs, and the scaling rung's
** families) and hands them to the staged sweep of the model search
** (search.h), which owns the candidates and the scoring. It then records,
** for every parameter, the cases that decided it, and stores the result.
*/
#include "infer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../io/modelfile.h"
#include "../probes/recipe.h"
#include "cases.h"
#include "../model/format_fit.h"
#include "../model/params.h"
#include "answer.h"
#include "search.h"
#include "sumtree.h"

/* The series of a run's cases: of[i] numbers case i's (rung, series)
** pair in the order first met; first[k] is series k's first case and
** size[k] its cases. */
typedef struct series {
    int *of;
    size_t *first, *size;
    int n;
} series;

static void series_free(series *sr)
{
    free(sr->of);
    free(sr->first);
    free(sr->size);
}

/* Numbers the series of rows[0..n-1] into sr; LAD_OK or LAD_EINTERNAL. */
static int series_of(const lad_infer_case *rows, size_t n, series *sr, lad_err *err)
{
    sr->n = 0;
    sr->of = malloc((n + 1) * sizeof *sr->of);
    sr->first = malloc((n + 1) * sizeof *sr->first);
    sr->size = calloc(n + 1, sizeof *sr->size);
    if (!sr->of || !sr->first || !sr->size)
        return lad_errf(err, LAD_EINTERNAL, "out of memory");
    for (size_t i = 0; i < n; i++) {
        int k = sr->n;
        /* the previous case's series first: cases come in runs of one */
        if (i > 0 && strcmp(rows[i].series, rows[i - 1].series) == 0 &&
            strcmp(rows[i].rung, rows[i - 1].rung) == 0)
            k = sr->of[i - 1];
        for (int j = 0; j < sr->n && k == sr->n; j++)
            if (strcmp(rows[i].series, rows[sr->first[j]].series) == 0 &&
                strcmp(rows[i].rung, rows[sr->first[j]].rung) == 0)
                k = j;
        if (k == sr->n)
            sr->first[sr->n++] = i;
        sr->of[i] = k;
        sr->size[k]++;
    }
    return LAD_OK;
}

/* Whether the target list t ("window c_anchor; k") names key. */
static int targets(const char *t, const char *key)
{
    size_t l = strlen(key);
    for (const char *q = t; (q = strstr(q, key)) != NULL; q += l)
        if ((q == t || q[-1] == ' ' || q[-1] == ';') && (q[l] == 0 || q[l] == ' ' || q[l] == ';'))
            return 1;
    return 0;
}

/* Adds the parameter row for registry row p of the model: which cases its
** alternatives get wrong. Returns LAD_OK, or LAD_EINTERNAL when out of
** memory (never a row that says "unobservable" for want of memory). */
static int decide(const lad_datapath *dp, const lad_datapath *base, const lad_param *p,
                  const lad_infer_case *rows, const series *sr, const lad_case *cs,
                  const lad_word_t *d, size_t n, lad_infer_result *out, lad_err *err)
{
    if (out->nparams >= LAD_INFER_MAXPARAMS)
        return LAD_OK;
    unsigned char *hit = calloc(n + 1, 1);
    if (hit == NULL)
        return lad_errf(err, LAD_EINTERNAL, "out of memory");
    int nearest = 0;
    int nalt = lad_search_decide(dp, base, p, cs, d, n, hit, &nearest);
    if (nalt < 0) {
        free(hit);
        return lad_errf(err, LAD_EINTERNAL, "out of memory");
    }
    lad_infer_param *ip = &out->params[out->nparams++];
    memset(ip, 0, sizeof *ip);
    snprintf(ip->name, sizeof ip->name, "%s", p->key);
    lad_param_text(p, dp, ip->value, sizeof ip->value);
    for (size_t c = 0; c < n; c++)
        if (hit[c]) {
            if (ip->nids < LAD_INFER_MAXIDS)
                ip->ids[ip->nids++] = rows[c].id;
            ip->ndecide++;
        }
    /* the series holding most of the deciding cases, the first in id
    ** order on a tie (so it does not depend on the search) */
    size_t *count = calloc((size_t)sr->n + 1, sizeof *count);
    if (count == NULL) {
        free(hit);
        return lad_errf(err, LAD_EINTERNAL, "out of memory");
    }
    int best = 0, rank = -1;
    for (size_t c = 0; c < n; c++)
        count[sr->of[c]] += hit[c];
    /* first a series that targets the row, then one that targets some
    ** row, then the random cases, each with the most deciding cases */
    for (int k = 0; k < sr->n; k++) {
        const char *t = rows[sr->first[k]].target;
        int r = count[k] == 0 ? -1 : targets(t, p->key) ? 2 : t[0] ? 1 : 0;
        if (r > rank || (r == rank && count[k] > count[best])) {
            best = k;
            rank = r;
        }
    }
    size_t bestn = count[best];
    const lad_infer_case *br = &rows[sr->first[best]];  /* rank 2: it targets the row */
    free(count);
    free(hit);
    if (ip->ndecide)
        snprintf(ip->method, sizeof ip->method,
                 "fit: %zu stored cases rule out its %d %s; %zu of them in %.40s %.40s "
                 "(%zu cases%s)",
                 ip->ndecide, nalt, nearest ? "nearest alternatives" : "alternatives", bestn,
                 br->rung, br->series, sr->size[best], rank == 2 ? ", which targets it" : "");
    else
        snprintf(ip->method, sizeof ip->method,
                 "unobservable: no stored case tells it from its alternatives; default kept");
    return LAD_OK;
}

/* Whether two cases belong to one stage of the fit: the same rung, and for
** the scaling rung the same family (its series: floor, window, group,
** cdom, ...), each of which decides its own parameters in turn. */
static int same_stage(const lad_infer_case *x, const lad_infer_case *y)
{
    if (strcmp(x->rung, y->rung))
        return 0;
    if (strcmp(x->rung, "scaling"))
        return 1;
    return strcmp(x->series, y->series) == 0;
}

/* The recipe text of a run, malloc'd, or NULL. */
static char *recipe_text(lad_store *st, int64_t run, char *path, size_t n)
{
    char *text = NULL;
    size_t len;
    lad_err e = {0};
    if (lad_store_recipe(st, run, &text, &len, path, n, &e) != LAD_OK)
        return NULL;
    if (!path[0])
        snprintf(path, n, "recipe");
    return text;
}

/* Re-derives a user format from the decode rung's cases (series a-code or
** b-code, the code word in vary): the skip-th other of the decodes that
** explain them (lad_decode_fit), into dp and into out's parameter row
** *slot (a new row when *slot < 0). LAD_NO: no further decode. */
static int redecode(const lad_infer_case *rows, size_t n, int op, int skip, lad_datapath *dp,
                    lad_infer_result *out, int *slot, lad_err *err)
{
    lad_format *f = op == 0 ? &dp->a : &dp->b;
    lad_word_t *w = malloc((n + 1) * sizeof *w), *d = malloc((n + 1) * sizeof *d);
    int64_t *ids = malloc((n + 1) * sizeof *ids);
    size_t m = 0;
    int rc = LAD_OK;
    if (!w || !d || !ids) {
        rc = lad_errf(err, LAD_EINTERNAL, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < n; i++) {
        if (strcmp(rows[i].rung, "decode") == 0 && rows[i].has_vary &&
            strcmp(rows[i].series, op == 0 ? "a-code" : "b-code") == 0) {
            w[m] = (lad_word_t)rows[i].vary;
            d[m] = rows[i].d;
            ids[m++] = rows[i].id;
        }
    }
    char msg[160];
    lad_format g = *f;
    int frc = m ? lad_decode_fit(&g, f->width, w, d, m, &dp->d, dp->nan, 0, skip, msg, sizeof msg)
                : LAD_NO;
    if (frc) {
        rc = skip > 0 ? LAD_NO
                      : lad_errf(err, LAD_EDATA, "format '%s': %s", f->name,
                                 m ? msg : "the run has no decode cases for it");
        goto out;
    }
    *f = g;
    if (*slot < 0)
        *slot = out->nparams++;
    lad_infer_param *p = &out->params[*slot];
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "%s", op == 0 ? "a" : "b");
    snprintf(p->value, sizeof p->value, "%s", f->name);
    if (skip > 0)
        snprintf(p->method, sizeof p->method, "decode: %.140s (decode %d of those that "
                 "explain the codes: the first left cases no model gives)", msg, skip + 1);
    else
        snprintf(p->method, sizeof p->method, "decode: %.140s", msg);
    for (size_t i = 0; i < m && p->nids < LAD_INFER_MAXIDS; i++)
        p->ids[p->nids++] = ids[i];
    p->ndecide = m;
out:
    free(w);
    free(d);
    free(ids);
    return rc;
}

#define STAGE_GROUPS 9 /* groups a stage's targets may name */

typedef struct stage_groups {
    const char *groups[STAGE_GROUPS];
    char buf[512];
} stage_groups;

/*
** The groups a stage's cases were designed for: the distinct targets its
** cases carry (each "k1 k2; k3" is the group {k1 k2} then {k3}), in the
** order first met, into own (NULL-terminated, at most max - 1 groups;
** each points into rows or into buf). A stage without targets has none.
*/
static void stage_own(const lad_infer_case *rows, size_t from, size_t to, char *buf,
                      size_t size, const char **own, int max)
{
    int n = 0;
    size_t used = 0;
    for (size_t i = from; i < to && n < max - 1; i++) {
        const char *t = rows[i].target;
        if (!t[0])
            continue;
        int seen = 0;
        for (size_t j = from; j < i && !seen; j++)
            seen = strcmp(rows[j].target, t) == 0;
        if (seen)
            continue;
        while (*t && n < max - 1) {
            size_t l = strcspn(t, ";");
            if (used + l + 1 > size)
                break;
            memcpy(buf + used, t, l);
            buf[used + l] = 0;
            own[n++] = buf + used;
            used += l + 1;
            t += l;
            while (*t == ';' || *t == ' ')
                t++;
        }
    }
    own[n] = NULL;
}

/* Moves the sumtree rung's cases to the end of rows, the others keeping
** their order; *nfit receives how many others there are. */
static int partition(lad_infer_case *rows, size_t n, size_t *nfit, lad_err *err)
{
    lad_infer_case *tmp = malloc((n + 1) * sizeof *tmp);
    if (tmp == NULL)
        return lad_errf(err, LAD_EINTERNAL, "out of memory");
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (strcmp(rows[i].rung, "sumtree") != 0)
            tmp[m++] = rows[i];
    *nfit = m;
    for (size_t i = 0; i < n; i++)
        if (strcmp(rows[i].rung, "sumtree") == 0)
            tmp[m++] = rows[i];
    memcpy(rows, tmp, n * sizeof *rows);
    free(tmp);
    return LAD_OK;
}

/* Replaces the run's inferences by out's in one step of the store (commit
** point "inferences"): the parameters, the conflict, the summation tree and
** the model's YAML (when a model was fitted). A killed infer leaves the old
** set whole, and of two infers at once the later replaces the earlier's set
** wholly. */
static int store_result(lad_store *st, int64_t run, const lad_infer_result *out,
                        const lad_sumtree *tree, const lad_answer *ans, lad_err *err)
{
    char *yaml = NULL, *text = NULL, evidence[500], sum[400];
    size_t len = 0;
    int answered = ans && ans->nalt >= 0;
    snprintf(evidence, sizeof evidence, "%s%s%s",
             out->nmismatch ? "inferred with conflicts" : "inferred from the run's probes",
             answered ? "; " : "", answered ? lad_answer_summary(ans, sum, sizeof sum) : "");
    if (out->fitted && (yaml = lad_answer_model_write(ans, &out->dp, evidence)) == NULL)
        return lad_errf(err, LAD_EINTERNAL, "out of memory");
    if (answered) {  /* the answer's lines, as infer prints them */
        FILE *f = open_memstream(&text, &len);
        if (f == NULL) {
            free(yaml);
            return lad_errf(err, LAD_EINTERNAL, "out of memory");
        }
        lad_answer_print(f, ans);
        fclose(f);
        if (len && text[len - 1] == '\n')
            text[len - 1] = 0;
    }
    int rc = lad_store_step_begin(st, "inferences", err);
    if (rc == LAD_OK)
        rc = lad_store_clear_inferences(st, run, err);
    for (int i = 0; rc == LAD_OK && i < out->nparams; i++) {
        const lad_infer_param *p = &out->params[i];
        rc = lad_store_add_inference(st, run, p->name, p->value, p->method, p->ids,
                                     p->nids, NULL, err);
    }
    if (rc == LAD_OK && out->nmismatch)
        rc = lad_store_add_inference(st, run, "conflict", out->conflict,
                                     "cases the best model found gets wrong", out->bad,
                                     out->nbad, NULL, err);
    if (rc == LAD_OK && out->sumtree_n) {
        char method[160];
        snprintf(method, sizeof method, "fprev: %zu cases of +M and -M among ones over %d lanes%s",
                 tree->ncases, tree->n,
                 out->fitted && !out->nmismatch ? "; the model gives the same words" : "");
        rc = lad_store_add_inference(st, run, "sumtree", out->sumtree, method, tree->ids,
                                     tree->nids, NULL, err);
    }
    if (rc == LAD_OK && text)
        rc = lad_store_add_inference(st, run, "answer", text,
                                     "the whole answer: each row decided, equivalent, open or "
                                     "not in effect (docs/inference.md)",
                                     NULL, 0, NULL, err);
    if (rc == LAD_OK && yaml)
        rc = lad_store_add_inference(st, run, "model", yaml,
                                     out->nmismatch ? "best fit, with conflicts"
                                                    : "reproduces every stored case",
                                     NULL, 0, NULL, err);
    free(yaml);
    free(text);
    int rc2 = lad_store_step_end(st, rc == LAD_OK, err);
    return rc ? rc : rc2;
}

/* The rows of dp, canonical, that the search varies (they have candidates)
** and that differ from the declared instruction start's: the simpler of
** two models that explain every case has fewer. */
static int complexity(const lad_datapath *dp, const lad_datapath *start)
{
    lad_datapath c = *dp;
    lad_canon(&c);
    int n = 0;
    for (int i = 0; i < lad_nparams; i++) {
        const lad_param *p = &lad_params[i];
        n += p->cands && lad_param_get(p, &c, start) != lad_param_get(p, start, start);
    }
    return n;
}

/*
** When the staged sweep leaves cases unexplained: the sweep again as
** `ladder fit` runs it, from start (the declared instruction, or the
** model the run's last infer stored), blind to the rungs (every case in
** one stage that only checks, so that a wrong structure of the sum is left
** by a restart before the cases pile up); its model replaces *dp when it
** explains more of them. The stages' order can lead the sweep into a structure no single
** change leaves (a tree of passes summed apart, taken for passes of 4
** with C added last), which this sweep, given every case at once, does
** not enter. fit's beam after it found nothing more on the draws it was
** tried on, at several times the cost, and is not run. A run whose device
** is outside the family pays this sweep once more.
*/
static int sweep_from(const lad_datapath *start, const lad_case *cs, const lad_word_t *d,
                      size_t n, lad_progress_fn progress, void *pctx, lad_datapath *alt,
                      lad_err *err)
{
    *alt = *start;
    lad_stage one = {n, NULL, "every case at once"};
    return lad_search_staged(start, cs, d, n, &one, 1, 0, progress, pctx, alt, err);
}

/* sweep_from's model replaces *dp when it explains more of the cases. */
static int sweep_every_case(const lad_datapath *start, const lad_case *cs, const lad_word_t *d,
                  size_t n, lad_progress_fn progress, void *pctx, lad_datapath *dp,
                  lad_err *err)
{
    uint64_t miss = lad_search_count(dp, cs, d, n);
    if (miss == 0)
        return LAD_OK;
    lad_datapath alt;
    int rc = sweep_from(start, cs, d, n, progress, pctx, &alt, err);
    if (rc == LAD_OK && lad_search_count(&alt, cs, d, n) < miss)
        *dp = alt;
    return rc;
}

/* Whether stored cases a and b hold the same input words. */
static int same_inputs(const lad_infer_case *a, const lad_infer_case *b)
{
    if (a->k != b->k || a->nscale != b->nscale || a->nmeta != b->nmeta || a->cs.c != b->cs.c)
        return 0;
    for (int l = 0; l < a->k; l++)
        if (a->cs.a[l] != b->cs.a[l] || a->cs.b[l] != b->cs.b[l])
            return 0;
    for (int l = 0; l < a->nscale; l++)
        if (a->cs.sa[l] != b->cs.sa[l] || a->cs.sb[l] != b->cs.sb[l])
            return 0;
    for (int l = 0; l < a->nmeta; l++)
        if (a->cs.meta[l] != b->cs.meta[l])
            return 0;
    return 1;
}

typedef struct keyed {
    uint64_t h;
    size_t i;
} keyed;

static int keyed_cmp(const void *p, const void *q)
{
    const keyed *a = p, *b = q;
    if (a->h != b->h)
        return a->h < b->h ? -1 : 1;
    return a->i < b->i ? -1 : a->i > b->i;
}

/*
** A proof that no model explains rows[0..n-1]: two cases with the same
** input words and different D words. Every model is a function of a case's
** words, so no model of any family gives both; the device is not. Returns
** 1 with *i < *j the first such pair (in case order of the first), 0 when
** there is none or memory runs out (then nothing is proven).
*/
static int contradiction(const lad_infer_case *rows, size_t n, size_t *i, size_t *j)
{
    keyed *k = malloc((n + 1) * sizeof *k);
    if (k == NULL)
        return 0;
    for (size_t c = 0; c < n; c++) {
        const lad_infer_case *r = &rows[c];
        uint64_t h = 1469598103934665603ull ^ (uint64_t)r->k;
#define MIX(v) (h = (h ^ (uint64_t)(v)) * 1099511628211ull)
        MIX(r->cs.c);
        for (int l = 0; l < r->k; l++) {
            MIX(r->cs.a[l]);
            MIX(r->cs.b[l]);
        }
        for (int l = 0; l < r->nscale; l++)
            MIX(r->cs.sa[l] | (unsigned)r->cs.sb[l] << 8);
        for (int l = 0; l < r->nmeta; l++)
            MIX(r->cs.meta[l]);
#undef MIX
        k[c].h = h;
        k[c].i = c;
    }
    qsort(k, n, sizeof *k, keyed_cmp);
    int found = 0;
    for (size_t a = 0; a < n; a++)
        for (size_t b = a + 1; b < n && k[b].h == k[a].h; b++) {
            size_t x = k[a].i, y = k[b].i;
            if (rows[x].d != rows[y].d && same_inputs(&rows[x], &rows[y]) && (!found || x < *i)) {
                *i = x;
                *j = y;
                found = 1;
            }
        }
    free(k);
    return found;
}

/* The significant bits of m, trailing zeros aside (0 for 0). */
static int sigbits(lad_u128 m)
{
    while (m && !(m & 1))
        m >>= 1;
    return lad_bitlen128(m);
}

/*
** Whether every model of the family gives case r one word, and which
** (*want): on an unscaled, dense float datapath whose A and B formats
** were declared, C a zero and one lane with a product, both its inputs
** normal numbers of at most 4 significant bits, every other lane's A or
** B a zero and neither Inf nor NaN, and the product a value of at most 4
** bits between 2^-14 and 2^15 that D holds exactly. Nothing in the
** family touches such a product: no cut of an input (each keeps 4 bits),
** no flush (normal), any window (8 bits or more) and any accumulator
** (bf16, f16 and wider) hold it, the floors and prod_inf lie beyond the
** formats' range, and there is nothing to add or round. As a check on
** that argument, every candidate value of every row, one at a time, must
** give the start model's word too.
*/
static int exact_product(const lad_datapath *s, const lad_infer_case *r, lad_word_t *want)
{
    if (s->integer || s->scale_block || s->sparse != LAD_SPARSE_NONE || s->a.kind != LAD_FLOAT ||
        s->b.kind != LAD_FLOAT || s->d.kind != LAD_FLOAT || r->nscale || r->nmeta)
        return 0;
    if (lad_decode(&s->c, r->cs.c).cls != LAD_ZERO)
        return 0;
    lad_value a = {0}, b = {0};  /* the one product's inputs */
    for (int l = 0; l < s->k; l++) {
        lad_value x = lad_decode(&s->a, r->cs.a[l]), y = lad_decode(&s->b, r->cs.b[l]);
        if (x.cls >= LAD_INFINITE || y.cls >= LAD_INFINITE)
            return 0;
        if (x.cls == LAD_ZERO || y.cls == LAD_ZERO)
            continue;
        if (a.mag || x.cls != LAD_NORMAL || y.cls != LAD_NORMAL || sigbits(x.mag) > 4 ||
            sigbits(y.mag) > 4)
            return 0;
        a = x;
        b = y;
    }
    if (a.mag == 0)
        return 0;
    lad_u128 mag = (lad_u128)a.mag * b.mag;
    int exp = a.exp + b.exp, top = exp + lad_bitlen128(mag) - 1, flags = 0;
    if (top < -14 || top > 15 || lad_bitlen128(mag) > 64 || sigbits(mag) > 4)
        return 0;
    *want = lad_round_value(&s->d, a.neg != b.neg, mag, exp, 0, LAD_RNE, LAD_OVF_INF, &flags);
    if (flags)
        return 0;
    if (lad_eval(s, &r->cs) != *want)
        return 0;
    for (int i = 0; i < lad_nparams; i++) {
        int64_t v[LAD_PARAM_MAXCANDS];
        int nv = lad_param_cands(&lad_params[i], s, v, LAD_PARAM_MAXCANDS);
        for (int j = 0; j < nv; j++) {
            lad_datapath t = *s;
            lad_param_set(&lad_params[i], &t, s, v[j]);
            if (lad_datapath_check(&t, NULL) == LAD_OK && lad_eval(&t, &r->cs) != *want)
                return 0;
        }
    }
    return 1;
}

/* A proof from one case that no model of the family explains the rows:
** the first case of exact_product whose D word is not the one every model
** gives. Returns 1 with *i and *want, 0 when there is none. */
static int outside_family(const lad_datapath *s, const lad_infer_case *rows, size_t n, size_t *i,
                          lad_word_t *want)
{
    for (size_t c = 0; c < n; c++) {
        lad_word_t w;
        if (exact_product(s, &rows[c], &w) && rows[c].d != w) {
            *i = c;
            *want = w;
            return 1;
        }
    }
    return 0;
}

/* The staged sweep from start over the stages, then, unless the cases are
** proven to fit no model, the sweep over every case at once: the model
** into *dp. Proven, the staged sweep runs its groups alone: the verdict
** is known, and the nearest model is what the groups reach. */
static int fit_from(const lad_datapath *start, const lad_case *cs, const lad_word_t *d,
                    size_t nfit, const lad_stage *stages, size_t nstages, int proven,
                    lad_progress_fn progress, void *pctx, lad_datapath *dp, lad_err *err)
{
    int rc = lad_search_staged(start, cs, d, nfit, stages, nstages, proven, progress, pctx, dp,
                               err);
    if (rc == LAD_OK && !proven)
        rc = sweep_every_case(start, cs, d, nfit, progress, pctx, dp, err);
    return rc;
}

int lad_infer_model(lad_store *st, int64_t run, lad_datapath *dp, lad_err *err)
{
    lad_show sh;
    int rc = lad_store_show(st, run, &sh, err);
    if (rc != LAD_OK)
        return rc;
    const lad_inference_row *model = NULL;
    for (size_t i = sh.ninf; i-- > 0 && model == NULL;)
        if (strcmp(sh.inf[i].parameter, "model") == 0)
            model = &sh.inf[i];
    if (model == NULL)
        rc = lad_errf(err, LAD_EDATA, "run %lld has no inferred model; run "
                      "'ladder infer %lld' first", (long long)run, (long long)run);
    else
        rc = lad_model_parse("<inferred model>", model->value, strlen(model->value), dp,
                             NULL, 0, err);
    lad_show_free(&sh);
    return rc;
}

int lad_infer(lad_store *st, int64_t run, int store_it, lad_progress_fn progress, void *pctx,
              lad_infer_result *out, lad_err *err)
{
    return lad_infer_answer(st, run, store_it, progress, pctx, out, NULL, 0, err);
}

int lad_infer_answer(lad_store *st, int64_t run, int store_it, lad_progress_fn progress,
                     void *pctx, lad_infer_result *out, lad_answer *answer, int flags,
                     lad_err *err)
{
    memset(out, 0, sizeof *out);
    if (answer)
        answer->nalt = -1;  /* none found (yet) */
    char path[256];
    char *text = recipe_text(st, run, path, sizeof path);
    if (text == NULL)
        return lad_errf(err, LAD_EDATA, "run %lld has no recipe", (long long)run);
    lad_recipe r;
    int rc = lad_recipe_parse(path, text, strlen(text), &r, err);
    free(text);
    if (rc)
        return rc;
    lad_infer_case *rows = NULL;
    lad_case *cs = NULL;
    lad_word_t *d = NULL;
    lad_stage *stages = NULL;
    stage_groups *owns = NULL;
    size_t n = 0, nfit = 0, nstages = 0;
    lad_datapath start;
    lad_recipe_datapath(&r, &start);
    if ((rc = lad_infer_cases(st, run, NULL, &rows, &n, err)))
        goto done;
    if (n == 0) {
        rc = lad_errf(err, LAD_EDATA, "run %lld stored no cases", (long long)run);
        goto done;
    }
    /* the parameter rows of re-derived formats; B shares A's when it is
    ** the same unknown format */
    int slot[2] = {-1, -1};
    int shared = !r.dp.a_known && !r.dp.b_known && strcmp(start.b.name, start.a.name) == 0;
    if (!r.dp.a_known && (rc = redecode(rows, n, 0, 0, &start, out, &slot[0], err)))
        goto done;
    if (shared)
        start.b = start.a;
    else if (!r.dp.b_known && (rc = redecode(rows, n, 1, 0, &start, out, &slot[1], err)))
        goto done;
    /* The sumtree rung's cases stay out of the fit (see infer.h): rows keeps
    ** them last, after the nfit cases the fit reads. */
    if ((rc = partition(rows, n, &nfit, err)))
        goto done;
    cs = malloc((n + 1) * sizeof *cs);
    d = malloc((n + 1) * sizeof *d);
    stages = malloc((n + 1) * sizeof *stages);
    owns = malloc((n + 1) * sizeof *owns);
    if (!cs || !d || !stages || !owns) {
        rc = lad_errf(err, LAD_EINTERNAL, "out of memory");
        goto done;
    }
    /* Stages: the cases through the end of each rung (and each family of
    ** the scaling rung), in the order the run climbed them, each with the
    ** parameters its cases target. */
    for (size_t i = 0, from = 0; i < n; i++) {
        cs[i] = rows[i].cs;
        d[i] = rows[i].d;
        if (i >= nfit || (i + 1 < nfit && same_stage(&rows[i + 1], &rows[i])))
            continue;
        stage_own(rows, from, i + 1, owns[nstages].buf, sizeof owns[nstages].buf,
                  owns[nstages].groups, STAGE_GROUPS);
        stages[nstages].end = i + 1;
        stages[nstages].own = owns[nstages].groups;
        stages[nstages].name = rows[i].rung;
        nstages++;
        from = i + 1;
    }
    /* Two cases with the same inputs and different words, or one exact
    ** product the device gives otherwise, fit no model: the searches that
    ** look for a model explaining every case cannot succeed, so the
    ** staged sweep runs its groups alone (fit_from) and its model is the
    ** nearest. */
    size_t pi = 0, pj = 0;
    lad_word_t pw = 0;
    int proven = nfit > 0 && contradiction(rows, nfit, &pi, &pj);
    int outside = !proven && nfit > 0 && r.dp.a_known && r.dp.b_known &&
                  outside_family(&start, rows, nfit, &pi, &pw);
    proven |= outside;
    lad_datapath dp = start;
    out->fitted = nfit > 0;
    lad_datapath prev;
    lad_err none = {0};  /* no stored model (or one of another version) */
    int have_prev = nfit && lad_infer_model(st, run, &prev, &none) == LAD_OK &&
                    lad_datapath_check(&prev, NULL) == LAD_OK;
    /* The decide rung's next round: the model the last round stored, or
    ** when it misses a case (the device disagreed with it on the cases
    ** that separated its alternatives) the sweep over every case from it,
    ** is the round's model if it gives every case, with no search from the
    ** start. A model that search could find instead, explaining every case
    ** too, would be one of its alternatives, which the rung's cases
    ** separate or call equivalent. */
    int kept = 0, swept = 0;
    lad_datapath near;  /* the sweep from prev, once run */
    if ((flags & LAD_INFER_DECIDE) && have_prev && !proven) {
        kept = lad_search_count(&prev, cs, d, nfit) == 0;
        if (kept) {
            dp = prev;
        } else {
            if ((rc = sweep_from(&prev, cs, d, nfit, progress, pctx, &near, err)))
                goto done;
            swept = 1;
            kept = lad_search_count(&near, cs, d, nfit) == 0;
            if (kept)
                dp = near;
        }
    }
    if (!kept && nfit && (rc = fit_from(&start, cs, d, nfit, stages, nstages, proven, progress,
                                        pctx, &dp, err)))
        goto done;
    /* Formats re-derived from the decode rung: when the first decode that
    ** explains the codes leaves cases no model gives, the next ones in
    ** turn (the codes past the result's range show only that they
    ** overflow: Inf, or large normals, which sums tell apart). A decode
    ** that explains more cases replaces it. */
    uint64_t miss = nfit && !proven && (slot[0] >= 0 || slot[1] >= 0)
                        ? lad_search_count(&dp, cs, d, nfit) : 0;
    for (int alt = 1; alt <= LAD_DECODE_ALTS && miss > 0; alt++)
        for (int op = 0; op < 2 && miss > 0; op++) {
            if (slot[op] < 0)
                continue;
            lad_infer_param was = out->params[slot[op]];
            lad_datapath s2 = start, dp2;
            int rc2 = redecode(rows, n, op, alt, &s2, out, &slot[op], err);
            if (rc2 == LAD_NO)
                continue;
            if (rc2) {
                rc = rc2;
                goto done;
            }
            if (shared)
                s2.b = s2.a;
            dp2 = s2;
            if ((rc = fit_from(&s2, cs, d, nfit, stages, nstages, 0, progress, pctx, &dp2, err)))
                goto done;
            uint64_t m2 = lad_search_count(&dp2, cs, d, nfit);
            if (m2 < miss) {
                start = s2;
                dp = dp2;
                miss = m2;
            } else {
                out->params[slot[op]] = was;
            }
        }
    /* Still cases no model explains, on a run inferred before: the sweep
    ** from the model that infer found, over every case at once. Between
    ** the two the evidence grew (a validation's mismatches join the run:
    ** docs/inference.md, "Refinement"), and the search from the start can
    ** take another path through the new cases to a structure the old
    ** model's neighbours beat (one row, the anchor's minimum, can lie
    ** between the last model and every case where the search from the
    ** start ends in a second-level window that misses some). The model
    ** that explains more is kept. */
    uint64_t missed = nfit && !proven ? lad_search_count(&dp, cs, d, nfit) : 0;
    if (missed > 0 && have_prev && swept) {
        if (lad_search_count(&near, cs, d, nfit) < missed)
            dp = near;
    } else if (missed > 0 && have_prev &&
               (rc = sweep_every_case(&prev, cs, d, nfit, progress, pctx, &dp, err))) {
        goto done;
    }
    /* Every case explained, and the model stored before (the decide rung's
    ** last round, or an earlier infer) explains every case too and is no
    ** less simple: it stays. Cases that agree with it (the decide rung's
    ** run on a device that computes it) do not move the answer to another
    ** model they also allow, rows away, where the search from the start
    ** can end. */
    if (!proven && missed == 0 && have_prev && lad_search_count(&prev, cs, d, nfit) == 0 &&
        complexity(&prev, &start) <= complexity(&dp, &start))
        dp = prev;
    /* the canonical form: every word the same, rows not in effect at
    ** their defaults (docs/model.md, "Equivalence") */
    if (nfit)
        lad_canon(&dp);
    out->dp = dp;
    out->ncases = n;
    out->nmismatch = 0;
    lad_plan pl;
    lad_plan_init(&pl, &dp);
    int small = 0;
    for (size_t i = 0; i < n && out->fitted; i++) {
        lad_word_t got = lad_plan_eval(&pl, &cs[i]);
        if (got == d[i])
            continue;
        if (out->nbad < LAD_INFER_MAXIDS) {
            out->bad[out->nbad] = rows[i].id;
            snprintf(out->bad_rung[out->nbad++], 64, "%s", rows[i].rung);
        }
        out->nmismatch++;
        /* its size: lanes holding a product, then whether C is there */
        int size = 0;
        for (int l = 0; l < rows[i].k; l++)
            size += 2 * (cs[i].a[l] != 0 && cs[i].b[l] != 0);
        size += cs[i].c != 0;
        if (out->smallest == 0 || size < small) {
            small = size;
            out->smallest = rows[i].id;
            snprintf(out->smallest_rung, sizeof out->smallest_rung, "%s", rows[i].rung);
            out->smallest_cs = cs[i];
            out->smallest_k = rows[i].k;
            out->smallest_d = d[i];
            out->smallest_got = got;
        }
    }
    series sr = {0};
    if (out->fitted && (rc = series_of(rows, nfit, &sr, err))) {
        series_free(&sr);
        goto done;
    }
    for (int i = 0; i < lad_nparams && out->fitted; i++) {
        int64_t v[LAD_PARAM_MAXCANDS];
        if (progress)
            progress(pctx, "the deciding cases", (size_t)i, (size_t)lad_nparams);
        if (lad_param_cands(&lad_params[i], &start, v, LAD_PARAM_MAXCANDS) > 0 &&
            (rc = decide(&dp, &start, &lad_params[i], rows, &sr, cs, d, nfit, out, err))) {
            series_free(&sr);
            goto done;
        }
    }
    series_free(&sr);
    if (out->nmismatch) {
        char *p = out->conflict;
        size_t left = sizeof out->conflict;
        int w = outside ? snprintf(p, left, "fits no model: %s#%lld is one exact product, "
                                   "0x%llx in every model of the family, and the device gave "
                                   "0x%llx; the nearest model found misses %zu of %zu cases:",
                                   rows[pi].rung, (long long)rows[pi].id,
                                   (unsigned long long)pw, (unsigned long long)rows[pi].d,
                                   out->nmismatch, n)
              : proven ? snprintf(p, left, "fits no model: %s#%lld and %s#%lld have the same "
                                  "inputs and different words; the nearest model found "
                                  "misses %zu of %zu cases:", rows[pi].rung,
                                  (long long)rows[pi].id, rows[pj].rung, (long long)rows[pj].id,
                                  out->nmismatch, n)
                       : snprintf(p, left, "no model found within reach explains %zu of %zu cases:",
                                  out->nmismatch, n);
        for (size_t i = 0; i < out->nbad && w > 0 && (size_t)w < left; i++) {
            p += w;
            left -= (size_t)w;
            w = snprintf(p, left, " %s#%lld", out->bad_rung[i], (long long)out->bad[i]);
        }
    }
    lad_sumtree tree;
    int trc = lad_sumtree_infer(rows, n, &dp.d, &tree, err);
    if (trc == LAD_EINTERNAL) {
        rc = trc;
        goto done;
    }
    out->sumtree_cases = tree.ncases;
    if (trc == LAD_OK && tree.n) {
        out->sumtree_n = tree.n;
        memcpy(out->sumtree, tree.text, sizeof out->sumtree);
    } else if (trc == LAD_NO && !out->nmismatch) {
        /* the words give no tree: a conflict of the sumtree rung alone */
        out->nmismatch = tree.nids;
        out->nbad = tree.nids;
        for (size_t i = 0; i < tree.nids; i++) {
            out->bad[i] = tree.ids[i];
            snprintf(out->bad_rung[i], 64, "sumtree");
        }
        snprintf(out->conflict, sizeof out->conflict, "sumtree: %s", tree.why);
    }
    /* the whole answer of a model that reproduces every case it was fitted to */
    if (answer && out->fitted && !out->nmismatch) {
        lad_answer_cases ac = {cs, NULL, d, nfit, (flags & LAD_INFER_DECIDE) != 0, progress,
                               pctx, NULL, 0};
        if ((rc = lad_answer_find(&dp, &ac, answer, err)))
            goto done;
        /* The models far from M, which the pairs of rows around it do
        ** not reach (lad_answer_far): in a plain infer always, in a decide
        ** round once it is about to leave no row open (the rounds before
        ** separate what the pairs found first). For a model kept from the
        ** last round, the search from the start joins them (a plain
        ** `infer` would return it; random draw 427). That search runs the
        ** stages' groups alone (fit_from's cut search, as for a proven
        ** conflict): where they leave a case, their model is no
        ** alternative, and the rescues that might still explain it are not
        ** paid for. */
        if (!(flags & LAD_INFER_DECIDE) || answer->nopen == 0) {
            lad_datapath from = start;
            int na = 0;
            if (kept) {
                if ((rc = fit_from(&start, cs, d, nfit, stages, nstages, 1, progress, pctx,
                                   &from, err)))
                    goto done;
                na = lad_search_count(&from, cs, d, nfit) == 0 && !lad_canon_equal(&from, &dp);
            }
            if ((rc = lad_answer_far(&start, &ac, &from, na, answer, err)))
                goto done;
        }
    }
    if (store_it && (rc = store_result(st, run, out, &tree, answer, err)))
        goto done;
    rc = out->nmismatch ? LAD_NO : LAD_OK;
    if (rc == LAD_NO)
        lad_errf(err, LAD_NO, "%s", out->conflict);
done:
    free(rows);
    free(cs);
    free(d);
    free(stages);
    free(owns);
    lad_recipe_free(&r);
    return rc;
}

int lad_infer_next(lad_store *st, int64_t run, lad_case **cases, int *n, char *rows,
                   size_t size, lad_progress_fn progress, void *pctx, lad_err *err)
{
    *cases = NULL;
    *n = 0;
    if (size)
        rows[0] = 0;
    lad_infer_result *res = malloc(sizeof *res);
    lad_answer *ans = malloc(sizeof *ans);
    int rc = res && ans ? lad_infer_answer(st, run, 1, progress, pctx, res, ans,
                                                       LAD_INFER_DECIDE, err)
                        : lad_errf(err, LAD_EINTERNAL, "out of memory");
    if (rc == LAD_OK && ans->nalt < 0)
        rc = LAD_NO;  /* the sumtree rung alone: no model */
    if (rc == LAD_OK && ans->nopen > 0 && ans->nnext > 0) {
        size_t len = 0;
        for (int i = 0; i < lad_nparams; i++)
            if (ans->rows[i].status == LAD_ROW_OPEN && len + strlen(lad_params[i].key) + 3 < size)
                len += (size_t)snprintf(rows + len, size - len, "%s%s", len ? "; " : "",
                                        lad_params[i].key);
        *cases = malloc((size_t)ans->nnext * sizeof **cases);
        if (*cases == NULL) {
            rc = lad_errf(err, LAD_EINTERNAL, "out of memory");
        } else {
            memcpy(*cases, ans->next, (size_t)ans->nnext * sizeof **cases);
            *n = ans->nnext;
        }
    }
    free(res);
    free(ans);
    return rc;
}
