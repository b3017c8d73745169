/*
** Inference by elimination over candidate values; see infer.h.
**
** A knob is one parameter with its candidate values, most plausible first.
** Knobs that interact inside one rung's cases (the window, the alignment
** rounding, whether C is a term of the window and where it enters) are
** searched jointly; the groups are visited in dependency order and the
** visit repeats until a whole sweep changes nothing. A candidate replaces
** the current value only when it reproduces strictly more stored words, so
** a parameter no case can see keeps its default. Scoring stops counting a
** candidate as soon as it is no better than the best so far: a wrong value
** usually fails on the first cases of the rung that decides it.
*/
#include "infer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../io/modelfile.h"
#include "../probes/ladder.h"
#include "../probes/recipe.h"
#include "cases.h"
#include "decode.h"
#include "search.h"

enum knob {
    K_IN_ROUND, K_DBITS, K_DROUND, K_ACCBITS, K_ACCROUND, K_DVIAACC,
    K_WINDOW, K_ALIGN, K_CANCHOR, K_CHAIN, K_PASS, K_ZFLOOR, K_AMIN,
    K_OVF, K_NAN, K_SFLOOR, K_GROUP, K_CDOMW, K_CDOMG, K_CDOMPG, K_GSUB,
    K_SAT, K_CLAST, K_ORDER, K_COUNT
};

static const char *const knob_name[K_COUNT] = {
    "in_round", "d", "d_round", "acc", "acc_round", "d_via_acc", "window",
    "align_round", "c_anchor", "chain", "pass", "zero_floor", "anchor_min",
    "overflow", "nan", "scale_floor", "group", "cdom_window", "cdom_group",
    "cdom_per_group", "group_sub_floor", "saturate", "c_last", "order"};

/* Lane orders tried: 0 is physical order; r > 0 takes the lanes with
** j % 2r < r first, then the others (fp8 mma.sync on sm_90a: r = 2). */
static void set_order(lad_datapath *dp, int r)
{
    int n = lad_datapath_kphys(dp), at = 0;
    dp->norder = 0;
    if (r <= 0 || r >= n)
        return;
    for (int half = 0; half < 2; half++)
        for (int j = 0; j < n; j++)
            if ((j % (2 * r) < r) == (half == 0))
                dp->order[at++] = (unsigned char)j;
    dp->norder = n;
}

static int get_order(const lad_datapath *dp)
{
    if (dp->norder == 0)
        return 0;
    for (int r = 1; r < dp->norder; r *= 2) {
        lad_datapath t = *dp;
        set_order(&t, r);
        if (memcmp(t.order, dp->order, (size_t)dp->norder) == 0)
            return r;
    }
    return -1;
}

#define HOT 64

typedef struct fit {
    lad_datapath dp;            /* current model */
    lad_format d0, acc0;        /* declared result format, f32 for acc */
    lad_format accs[40];        /* acc candidates: f32 cut to 23..1 bits,
                                   f16, bf16, the declared d */
    int naccs;
    const lad_infer_case *rows;
    size_t n;
    int cand[K_COUNT][512];     /* candidate values per knob */
    int ncand[K_COUNT];
    int def[K_COUNT];           /* lad_datapath_init's value: what a knob no
                                   case can see keeps */
    uint32_t *scratch;
    size_t hot[HOT];            /* cases that failed lately: scored first */
    int nhot, hotnext;
    unsigned char *ishot;       /* per case: in hot[] */
} fit;

/* A float format with m fraction bits cut from base (the low bits become
** padding): e8m13 from f32. */
static lad_format cut_format(const lad_format *base, int m)
{
    lad_format f = *base;
    if (m == base->mbits)
        return f;
    f.pad = base->pad + base->mbits - m;
    f.mbits = m;
    snprintf(f.name, sizeof f.name, "e%dm%d", base->ebits, m);
    return f;
}

static int get(const fit *F, int k)
{
    const lad_datapath *dp = &F->dp;
    switch (k) {
    case K_IN_ROUND: return dp->in_round;
    case K_DBITS: return dp->d.mbits;
    case K_DROUND: return dp->d_round;
    case K_ACCBITS:
        for (int i = 0; i < F->naccs; i++)
            if (memcmp(&F->accs[i], &dp->acc, sizeof dp->acc) == 0)
                return i;
        return 0;
    case K_ACCROUND: return dp->acc_round;
    case K_DVIAACC: return dp->d_via_acc;
    case K_WINDOW: return dp->window;
    case K_ALIGN: return dp->align_round;
    case K_CANCHOR: return dp->c_anchor;
    case K_CHAIN: return dp->chain;
    case K_PASS: return dp->pass;
    case K_ZFLOOR: return dp->zero_floor;
    case K_AMIN: return dp->anchor_min;
    case K_OVF: return dp->overflow;
    case K_NAN: return (int)dp->nan;
    case K_SFLOOR: return dp->scale_floor;
    case K_GROUP: return dp->group;
    case K_CDOMW: return dp->cdom_window;
    case K_CDOMG: return dp->cdom_group;
    case K_CDOMPG: return dp->cdom_per_group;
    case K_GSUB: return dp->group_sub_floor;
    case K_CLAST: return dp->c_last;
    case K_ORDER: return get_order(dp);
    default: return dp->saturate;
    }
}

static void set(fit *F, int k, int v)
{
    lad_datapath *dp = &F->dp;
    switch (k) {
    case K_IN_ROUND: dp->in_round = v; break;
    case K_DBITS: dp->d = cut_format(&F->d0, v); break;
    case K_DROUND: dp->d_round = v; break;
    case K_ACCBITS: dp->acc = F->accs[v]; break;
    case K_ACCROUND: dp->acc_round = v; break;
    case K_DVIAACC: dp->d_via_acc = v; break;
    case K_WINDOW: dp->window = v; break;
    case K_ALIGN: dp->align_round = v; break;
    case K_CANCHOR: dp->c_anchor = v; break;
    case K_CHAIN: dp->chain = v; break;
    case K_PASS: dp->pass = v; break;
    case K_ZFLOOR: dp->zero_floor = v; break;
    case K_AMIN: dp->anchor_min = v; break;
    case K_OVF: dp->overflow = v; break;
    case K_NAN: dp->nan = (uint32_t)v; break;
    case K_SFLOOR: dp->scale_floor = v; break;
    case K_GROUP: dp->group = v; break;
    case K_CDOMW: dp->cdom_window = v; break;
    case K_CDOMG: dp->cdom_group = v; break;
    case K_CDOMPG: dp->cdom_per_group = v; break;
    case K_GSUB: dp->group_sub_floor = v; break;
    case K_CLAST: dp->c_last = v; break;
    case K_ORDER: set_order(dp, v); break;
    default: dp->saturate = v; break;
    }
}

/* Stored cases [0, F->n) the current model gets wrong, counting no further
** than limit. The cases that failed most recently are tried first (a wrong
** value usually fails the same few cases), so most candidates are turned
** down after a handful of evaluations. */
static size_t score(fit *F, size_t limit)
{
    size_t bad = 0;
    lad_plan pl;
    lad_plan_init(&pl, &F->dp);
    for (int h = 0; h < F->nhot && bad < limit; h++)
        if (F->hot[h] < F->n && lad_plan_eval(&pl, &F->rows[F->hot[h]].cs) != F->rows[F->hot[h]].d) {
            bad++;
            if (h > 0) { /* one step to the front: frequent failures come first */
                size_t t = F->hot[h - 1];
                F->hot[h - 1] = F->hot[h];
                F->hot[h] = t;
            }
        }
    for (size_t i = 0; i < F->n && bad < limit; i++) {
        if (F->ishot[i])
            continue;
        if (lad_plan_eval(&pl, &F->rows[i].cs) != F->rows[i].d) {
            bad++;
            /* remember it in place of the oldest */
            if (F->nhot < HOT) {
                F->hot[F->nhot++] = i;
            } else {
                F->ishot[F->hot[F->hotnext]] = 0;
                F->hot[F->hotnext] = i;
                F->hotnext = (F->hotnext + 1) % HOT;
            }
            F->ishot[i] = 1;
        }
    }
    return bad;
}

static void add_cand(fit *F, int k, int v)
{
    for (int i = 0; i < F->ncand[k]; i++)
        if (F->cand[k][i] == v)
            return;
    if (F->ncand[k] < 512)
        F->cand[k][F->ncand[k]++] = v;
}

static void add_range(fit *F, int k, int lo, int hi)
{
    for (int v = lo; v <= hi; v++)
        add_cand(F, k, v);
}

static void candidates(fit *F)
{
    const lad_datapath *dp = &F->dp;
    for (int k = 0; k < K_COUNT; k++)
        F->def[k] = get(F, k);
    int kp = lad_datapath_kphys(dp);
    if (dp->integer) {
        add_cand(F, K_SAT, 0);
        add_cand(F, K_SAT, 1);
        return;
    }
    if (dp->a.pad || dp->b.pad) {
        add_cand(F, K_IN_ROUND, LAD_RZ);
        add_cand(F, K_IN_ROUND, LAD_RNE);
        add_cand(F, K_IN_ROUND, LAD_RNA);
    }
    for (int m = F->d0.mbits; m >= 1; m--)
        add_cand(F, K_DBITS, m);
    for (int m = F->acc0.mbits; m >= 1; m--)
        F->accs[F->naccs++] = cut_format(&F->acc0, m);
    const char *more[] = {"f16", "bf16"};
    for (int i = 0; i < 2; i++)
        F->accs[F->naccs++] = *lad_format_find(more[i]);
    if (F->d0.kind == LAD_FLOAT && strcmp(F->d0.name, "f32") && strcmp(F->d0.name, "f16") &&
        strcmp(F->d0.name, "bf16"))
        F->accs[F->naccs++] = F->d0;
    for (int i = 0; i < F->naccs; i++)
        add_cand(F, K_ACCBITS, i);
    static const int rounds[] = {LAD_RZ, LAD_RNE, LAD_RNA, LAD_RU, LAD_RD};
    for (int i = 0; i < 5; i++) {
        add_cand(F, K_DROUND, rounds[i]);
        add_cand(F, K_ACCROUND, rounds[i]);
    }
    add_cand(F, K_DVIAACC, 0);
    add_cand(F, K_DVIAACC, 1);
    add_range(F, K_WINDOW, 1, 60);
    add_cand(F, K_ALIGN, LAD_RZ);
    add_cand(F, K_ALIGN, LAD_RD);
    add_cand(F, K_ALIGN, LAD_RNE);
    add_cand(F, K_CANCHOR, 1);
    add_cand(F, K_CANCHOR, 0);
    add_cand(F, K_CHAIN, LAD_CHAIN);
    add_cand(F, K_CHAIN, LAD_SUM);
    add_cand(F, K_CLAST, 0);
    add_cand(F, K_CLAST, 1);
    add_cand(F, K_ORDER, 0);
    for (int r = 1; r < kp; r *= 2)
        add_cand(F, K_ORDER, r);
    add_cand(F, K_PASS, kp);
    add_range(F, K_PASS, 1, kp);
    add_cand(F, K_ZFLOOR, LAD_NOFLOOR);
    add_range(F, K_ZFLOOR, -300, 100);
    add_cand(F, K_AMIN, LAD_NOFLOOR);
    add_range(F, K_AMIN, -300, 100);
    add_cand(F, K_OVF, LAD_OVF_INF);
    add_cand(F, K_OVF, LAD_OVF_SAT);
    add_cand(F, K_OVF, LAD_OVF_IEEE);
    /* NaN words: the canonical one, then every NaN word a case produced */
    add_cand(F, K_NAN, (int)dp->nan);
    for (size_t i = 0; i < F->n; i++)
        if (lad_decode(&F->d0, F->rows[i].d).cls == LAD_NAN)
            add_cand(F, K_NAN, (int)F->rows[i].d);
    if (dp->scale_block > 0) {
        add_cand(F, K_SFLOOR, LAD_NOFLOOR);
        add_range(F, K_SFLOOR, -20, 100);
        static const int gs[] = {1, 2, 4, 8, 16, 32, 64};
        for (int i = 0; i < 7; i++)
            if (gs[i] <= kp) {
                add_cand(F, K_GROUP, gs[i]);
                add_cand(F, K_CDOMG, gs[i]);
            }
        add_range(F, K_CDOMW, 0, 60);
        add_cand(F, K_CDOMPG, 0);
        add_cand(F, K_CDOMPG, 1);
        add_cand(F, K_GSUB, LAD_NOFLOOR);
        add_range(F, K_GSUB, -300, 0);
    }
}

/*
** Searches the knobs of group g[0..ng-1] jointly; returns 1 when a value
** changed. *best holds the current score on entry and exit.
*/
static int search(fit *F, const int *g, int ng, size_t *best)
{
    int idx[8] = {0}, cur[8], bestv[8];
    for (int i = 0; i < ng; i++) {
        if (F->ncand[g[i]] == 0)
            return 0;
        cur[i] = bestv[i] = get(F, g[i]);
    }
    int changed = 0;
    for (;;) {
        for (int i = 0; i < ng; i++)
            set(F, g[i], F->cand[g[i]][idx[i]]);
        if (lad_datapath_check(&F->dp, NULL) == LAD_OK) {
            size_t s = score(F, *best);
            if (s < *best) {
                *best = s;
                for (int i = 0; i < ng; i++)
                    bestv[i] = F->cand[g[i]][idx[i]];
                changed = 1;
            }
        }
        int i = 0;
        while (i < ng && ++idx[i] == F->ncand[g[i]])
            idx[i++] = 0;
        if (i == ng)
            break;
    }
    for (int i = 0; i < ng; i++)
        set(F, g[i], changed ? bestv[i] : cur[i]);
    return changed;
}

/* The value of knob k as a model file spells it. */
static void value_text(const fit *F, int k, char *buf, size_t n)
{
    int v = get(F, k);
    switch (k) {
    case K_IN_ROUND: case K_DROUND: case K_ACCROUND: case K_ALIGN:
        snprintf(buf, n, "%s", lad_model_round_names[v]);
        break;
    case K_DBITS:
        snprintf(buf, n, "%s (fraction bits %d)", F->dp.d.name, v);
        break;
    case K_ACCBITS:
        snprintf(buf, n, "%s", F->dp.acc.name);
        break;
    case K_CHAIN:
        snprintf(buf, n, "%s", lad_model_chain_names[v]);
        break;
    case K_ORDER:
        if (v == 0)
            snprintf(buf, n, "physical");
        else
            snprintf(buf, n, "lanes j %% %d < %d first", 2 * v, v);
        break;
    case K_OVF:
        snprintf(buf, n, "%s", lad_model_ovf_names[v]);
        break;
    case K_NAN:
        snprintf(buf, n, "0x%x", (unsigned)v);
        break;
    case K_ZFLOOR: case K_AMIN: case K_SFLOOR: case K_GSUB:
        if (v == LAD_NOFLOOR)
            snprintf(buf, n, "none");
        else
            snprintf(buf, n, "%d", v);
        break;
    default:
        snprintf(buf, n, "%d", v);
    }
}

/* Adds the parameter row for knob k: which cases its alternatives miss. */
static void decide(fit *F, int k, lad_infer_result *out)
{
    if (F->ncand[k] == 0 || out->nparams >= LAD_INFER_MAXPARAMS)
        return;
    lad_infer_param *p = &out->params[out->nparams++];
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "%s", knob_name[k]);
    value_text(F, k, p->value, sizeof p->value);
    int v0 = get(F, k), nalt = 0, range = F->ncand[k] > 16;
    char *hit = calloc(F->n + 1, 1);
    for (int i = 0; i < F->ncand[k] && hit; i++) {
        int v = F->cand[k][i];
        if (v == v0)
            continue;
        /* wide ranges: only the neighbours and "none" */
        if (range && v != LAD_NOFLOOR && (v < v0 - 2 || v > v0 + 2) && v0 != LAD_NOFLOOR)
            continue;
        if (range && v0 == LAD_NOFLOOR && i > 12)
            continue;
        set(F, k, v);
        if (lad_datapath_check(&F->dp, NULL) == LAD_OK) {
            nalt++;
            lad_plan pl;
            lad_plan_init(&pl, &F->dp);
            for (size_t c = 0; c < F->n; c++)
                if (!hit[c] && lad_plan_eval(&pl, &F->rows[c].cs) != F->rows[c].d)
                    hit[c] = 1;
        }
        set(F, k, v0);
    }
    for (size_t c = 0; c < F->n && hit; c++)
        if (hit[c]) {
            if (p->nids < LAD_INFER_MAXIDS)
                p->ids[p->nids++] = F->rows[c].id;
            p->ndecide++;
        }
    free(hit);
    if (p->ndecide)
        snprintf(p->method, sizeof p->method,
                 "fit: %zu stored cases rule out its %d %s", p->ndecide, nalt,
                 range ? "nearest alternatives" : "alternatives");
    else
        snprintf(p->method, sizeof p->method,
                 "unobservable: no stored case tells it from its alternatives; default kept");
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

/*
** When the elimination ends with cases it cannot explain, it is stuck
** where no one group of knobs can move alone (the window and the
** alignment together with the pass and final roundings, say): the model
** search (search.h), seeded with the model found, varies every parameter
** at once. Its answer replaces the current model when it explains
** strictly more cases. Unscaled datapaths only. Returns 1 when it did.
*/
static int rescue(fit *F)
{
    size_t now = score(F, (size_t)-1);
    if (now == 0 || F->dp.scale_block > 0 || F->dp.integer)
        return 0;
    lad_case *cs = malloc(F->n * sizeof *cs);
    uint32_t *d = malloc(F->n * sizeof *d);
    lad_search_result *res = malloc(sizeof *res);
    int took = 0;
    if (cs && d && res) {
        for (size_t i = 0; i < F->n; i++) {
            cs[i] = F->rows[i].cs;
            d[i] = F->rows[i].d;
        }
        lad_search_opts so = {0};
        so.seeds = &F->dp;
        so.nseeds = 1;
        if (lad_search(&F->dp, cs, d, F->n, &so, res, NULL) == LAD_OK && res->nbest > 0 &&
            res->best[0].mismatches < now) {
            F->dp = res->best[0].dp;
            took = 1;
        }
    }
    free(cs);
    free(d);
    free(res);
    return took;
}

/* Occam: a knob whose first (default) candidate explains the cases as well
** as its fitted value takes the default. */
static void occam(fit *F)
{
    size_t now = score(F, (size_t)-1);
    for (int k = 0; k < K_COUNT; k++) {
        if (F->ncand[k] == 0 || get(F, k) == F->def[k])
            continue;
        int keep = get(F, k);
        set(F, k, F->def[k]);
        if (lad_datapath_check(&F->dp, NULL) != LAD_OK || score(F, now + 1) > now)
            set(F, k, keep);
    }
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
** b-code, the code word in vary). */
static int redecode(const lad_infer_case *rows, size_t n, int op, lad_datapath *dp,
                    lad_infer_result *out, lad_err *err)
{
    lad_format *f = op == 0 ? &dp->a : &dp->b;
    uint32_t *w = malloc((n + 1) * sizeof *w), *d = malloc((n + 1) * sizeof *d);
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
            w[m] = (uint32_t)rows[i].vary;
            d[m] = rows[i].d;
            ids[m++] = rows[i].id;
        }
    }
    char msg[160];
    if (m == 0 || lad_decode_fit(f, f->width, w, d, m, &dp->d, dp->nan, 0, msg, sizeof msg)) {
        rc = lad_errf(err, LAD_EDATA, "format '%s': %s", f->name,
                      m ? msg : "the run has no decode cases for it");
        goto out;
    }
    lad_infer_param *p = &out->params[out->nparams++];
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "%s", op == 0 ? "a" : "b");
    snprintf(p->value, sizeof p->value, "%s", f->name);
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

int lad_infer(lad_store *st, int64_t run, int store_it, lad_infer_result *out,
              lad_err *err)
{
    memset(out, 0, sizeof *out);
    char path[256];
    char *text = recipe_text(st, run, path, sizeof path);
    if (text == NULL)
        return lad_errf(err, LAD_EDATA, "run %lld has no recipe", (long long)run);
    lad_recipe r;
    int rc = lad_recipe_parse(path, text, strlen(text), &r, err);
    free(text);
    if (rc)
        return rc;
    fit *F = calloc(1, sizeof *F);
    lad_infer_case *rows = NULL;
    size_t n = 0;
    if (F == NULL) {
        lad_recipe_free(&r);
        return lad_errf(err, LAD_EINTERNAL, "out of memory");
    }
    lad_recipe_datapath(&r, &F->dp);
    if ((rc = lad_infer_cases(st, run, NULL, &rows, &n, err)))
        goto done;
    if (n == 0) {
        rc = lad_errf(err, LAD_EDATA, "run %lld stored no cases", (long long)run);
        goto done;
    }
    if (!r.dp.a_known && (rc = redecode(rows, n, 0, &F->dp, out, err)))
        goto done;
    if (!r.dp.b_known) {
        if (strcmp(F->dp.b.name, F->dp.a.name) == 0 && !r.dp.a_known)
            F->dp.b = F->dp.a;
        else if ((rc = redecode(rows, n, 1, &F->dp, out, err)))
            goto done;
    }
    F->d0 = F->dp.d;
    F->acc0 = *lad_format_find("f32");
    F->rows = rows;
    F->n = n;
    F->ishot = calloc(n + 1, 1);
    if (F->ishot == NULL) {
        rc = lad_errf(err, LAD_EINTERNAL, "out of memory");
        goto done;
    }
    candidates(F);

    /* dependency order; each line a group searched jointly */
    static const int groups[][5] = {
        {K_SAT, -1},
        {K_IN_ROUND, -1},
        {K_DBITS, K_DROUND, -1},
        {K_NAN, -1},
        {K_OVF, -1},
        {K_WINDOW, K_ALIGN, K_CANCHOR, K_CHAIN, -1},
        {K_ACCBITS, K_ACCROUND, K_DVIAACC, -1},
        {K_PASS, K_CHAIN, -1},
        {K_ACCBITS, K_ACCROUND, K_PASS, -1},
        {K_PASS, K_CHAIN, K_CLAST, K_ORDER, -1},
        {K_ACCBITS, K_ACCROUND, K_DROUND, K_CLAST, -1},
        {K_GSUB, -1},       /* before the anchor minimum, which cuts every
                               term where it drops only lower-scale groups */
        {K_AMIN, -1},
        {K_ZFLOOR, -1},
        {K_SFLOOR, -1},
        {K_GROUP, -1},
        {K_CDOMW, K_CDOMG, K_CDOMPG, -1},
        {K_WINDOW, K_SFLOOR, -1},
    };
    /* the parameters each family of the scaling rung is designed for
    ** (probes/rung_scaling.c), in the order the rung runs them */
    static const int q_floor[][5] = {{K_WINDOW, K_SFLOOR, -1}, {K_ALIGN, -1}};
    static const int q_group[][5] = {{K_GROUP, -1}};
    static const int q_cdom[][5] = {{K_CDOMW, K_CDOMG, K_CDOMPG, -1}};
    static const int q_sub[][5] = {{K_GSUB, -1}};
    static const struct {
        const char *name;
        const int(*groups)[5];
        size_t n;
    } families[] = {
        {"floor", q_floor, 2}, {"window", q_floor, 2}, {"group", q_group, 1},
        {"cdom", q_cdom, 1}, {"cdomg", q_cdom, 1}, {"pergroup", q_cdom, 1},
        {"sub", q_sub, 1},
    };
    /* Stages: the cases through the end of each rung, in the order the run
    ** climbed them, so that each rung's cases are explained by the
    ** parameters before it is asked about the next; a stage whose cases
    ** all fit needs no search. A family of the scaling rung is first
    ** explained by the parameters it was designed for (sweeps over the
    ** others can walk into a value that explains part of it, such as a pass
    ** boundary inside the last block); only what they leave open goes to
    ** every group. */
    for (size_t end = 1; end <= n; end++) {
        if (end < n && same_stage(&rows[end], &rows[end - 1]))
            continue;
        F->n = end;
        size_t best = score(F, (size_t)-1);
        const int(*own)[5] = NULL;
        size_t nown = 0;
        if (strcmp(rows[end - 1].rung, "scaling") == 0)
            for (size_t f = 0; f < sizeof families / sizeof families[0] && !own; f++) {
                if (strcmp(rows[end - 1].series, families[f].name) == 0) {
                    own = families[f].groups;
                    nown = families[f].n;
                }
            }
        for (int pass = own ? 0 : 1; pass < 2 && best > 0; pass++) {
            const int(*gs)[5] = pass ? groups : own;
            size_t ngs = pass ? sizeof groups / sizeof groups[0] : nown;
            for (int sweep = 0; sweep < 8 && best > 0; sweep++) {
                int changed = 0;
                for (size_t g = 0; g < ngs && best > 0; g++) {
                    int ng = 0;
                    while (gs[g][ng] >= 0)
                        ng++;
                    changed |= search(F, gs[g], ng, &best);
                }
                if (!changed)
                    break;
            }
        }
    }
    F->n = n;
    rescue(F);
    occam(F);
    /* Still stuck: the model search again from the simpler model Occam
    ** left, while that explains more (it often reaches further: the knobs
    ** Occam resets are the ones the stages guessed). */
    for (int round = 0; round < 2; round++) {
        size_t before = score(F, (size_t)-1);
        if (before == 0 || !rescue(F))
            break;
        occam(F);
        if (score(F, (size_t)-1) >= before)
            break;
    }
    /* An accumulator no case can see takes the result's cut format when the
    ** result was cut (the fp8 paths round both to e8m13): equal words. */
    if (!F->dp.integer && F->dp.d.mbits < F->d0.mbits && F->d0.width == 32) {
        size_t before = score(F, (size_t)-1);
        lad_format keep = F->dp.acc;
        F->dp.acc = cut_format(&F->acc0, F->dp.d.mbits);
        if (lad_datapath_check(&F->dp, NULL) != LAD_OK || score(F, before + 1) > before)
            F->dp.acc = keep;
    }
    out->dp = F->dp;
    out->ncases = n;
    out->nmismatch = 0;
    lad_plan pl;
    lad_plan_init(&pl, &F->dp);
    for (size_t i = 0; i < n; i++)
        if (lad_plan_eval(&pl, &rows[i].cs) != rows[i].d) {
            if (out->nbad < LAD_INFER_MAXIDS) {
                out->bad[out->nbad] = rows[i].id;
                snprintf(out->bad_rung[out->nbad++], 64, "%s", rows[i].rung);
            }
            out->nmismatch++;
        }
    for (int k = 0; k < K_COUNT; k++)
        decide(F, k, out);
    if (out->nmismatch) {
        char *p = out->conflict;
        size_t left = sizeof out->conflict;
        int w = snprintf(p, left, "%zu of %zu cases fit no model in reach:", out->nmismatch, n);
        for (size_t i = 0; i < out->nbad && w > 0 && (size_t)w < left; i++) {
            p += w;
            left -= (size_t)w;
            w = snprintf(p, left, " %s#%lld", out->bad_rung[i], (long long)out->bad[i]);
        }
    }
    if (store_it) {
        if ((rc = lad_store_clear_inferences(st, run, err)))
            goto done;
        for (int i = 0; i < out->nparams; i++) {
            lad_infer_param *p = &out->params[i];
            if ((rc = lad_store_add_inference(st, run, p->name, p->value, p->method, p->ids,
                                              p->nids, NULL, err)))
                goto done;
        }
        if (out->nmismatch &&
            (rc = lad_store_add_inference(st, run, "conflict", out->conflict,
                                          "cases the best model found gets wrong", out->bad,
                                          out->nbad, NULL, err)))
            goto done;
        char *yaml = lad_model_write(&out->dp, out->nmismatch ? "inferred with conflicts"
                                                              : "inferred from the run's probes");
        if (yaml == NULL) {
            rc = lad_errf(err, LAD_EINTERNAL, "out of memory");
            goto done;
        }
        rc = lad_store_add_inference(st, run, "model", yaml,
                                     out->nmismatch ? "best fit, with conflicts"
                                                    : "reproduces every stored case",
                                     NULL, 0, NULL, err);
        free(yaml);
        if (rc)
            goto done;
    }
    rc = out->nmismatch ? LAD_NO : LAD_OK;
    if (rc == LAD_NO)
        lad_errf(err, LAD_NO, "%s", out->conflict);
done:
    free(rows);
    free(F->ishot);
    free(F);
    lad_recipe_free(&r);
    return rc;
}
