/*
** The staged sweep (search.h: lad_search_staged, `ladder infer`): the
** stages' own groups, then params.def's LAD_SWEEP groups in dependency
** order, until a sweep changes nothing; then the restarts from another
** structure of the sum, the beam as a rescue, and Occam.
*/
#include "space.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int row_of(const char *key)
{
    const lad_param *p = lad_param_find(key);
    return p ? lad_param_index(p) : -1;
}

/* ---- the staged sweep ---------------------------------------------------- */

#define MAXGROUP LAD_SWEEP_MAXROWS   /* rows in one joint group */

typedef lad_sweep_group group;

typedef struct sweep {
    ctx *x;
    pvec cur;            /* the current model */
    pvec def;            /* the starting values: what a row no case can see keeps */
    size_t *order;       /* every case, those that failed lately first */
    int hotnext;
    size_t end;          /* cases [0, end) take part */
} sweep;

/* Parses "window align_round c_anchor" into g. */
static int parse_group(const char *s, group *g, lad_err *err)
{
    g->n = 0;
    while (*s) {
        size_t l = strcspn(s, " ");
        char key[40];
        if (l > 0) {
            snprintf(key, sizeof key, "%.*s", (int)l, s);
            int r = row_of(key);
            if (r < 0 || g->n == MAXGROUP)
                return lad_errf(err, LAD_EDATA, "bad parameter group '%s'", s);
            g->rows[g->n++] = r;
        }
        s += l;
        while (*s == ' ')
            s++;
    }
    return LAD_OK;
}

static uint64_t sweep_score(sweep *w, const pvec *p, uint64_t limit)
{
    lad_datapath dp;
    sp_apply(w->x, p, &dp);
    return sp_score(w->x, &dp, w->order, w->x->n, w->end, limit, COUNT | REORDER, &w->hotnext, NULL);
}

static int legal(const sweep *w, const pvec *p)
{
    lad_datapath dp;
    sp_apply(w->x, p, &dp);
    return lad_datapath_check(&dp, NULL) == LAD_OK;
}

/* Searches the rows of g jointly over their candidates; returns 1 when a
** value changed. *best holds the current score on entry and exit. */
static int sweep_group(sweep *w, const group *g, uint64_t *best)
{
    const ctx *x = w->x;
    int idx[MAXGROUP] = {0};
    for (int i = 0; i < g->n; i++)
        if (x->nvals[g->rows[i]] == 0)
            return 0;
    pvec bestp = w->cur;
    int changed = 0;
    for (;;) {
        pvec p = w->cur;
        for (int i = 0; i < g->n; i++)
            p.v[g->rows[i]] = x->vals[g->rows[i]][idx[i]];
        if (legal(w, &p)) {
            uint64_t s = sweep_score(w, &p, *best - 1);
            if (s < *best) {
                *best = s;
                bestp = p;
                changed = 1;
            }
        }
        int i = 0;
        while (i < g->n && ++idx[i] == x->nvals[g->rows[i]])
            idx[i++] = 0;
        if (i == g->n)
            break;
    }
    w->cur = bestp;
    return changed;
}

/* Runs the groups gs[0..ng-1] in turn until a whole sweep changes nothing
** or the cases all fit. */
static void sweep_groups(sweep *w, const group *gs, int ng, uint64_t *best)
{
    for (int round = 0; round < 8 && *best > 0; round++) {
        int changed = 0;
        for (int g = 0; g < ng && *best > 0; g++)
            changed |= sweep_group(w, &gs[g], best);
        if (!changed)
            break;
    }
}

/* Occam: a row whose starting value explains the cases as well as its
** fitted value takes the starting value. The rows are asked in the order
** of their keys, so that the answer does not depend on params.def's. */
static void occam(sweep *w)
{
    uint64_t now = sweep_score(w, &w->cur, UINT64_MAX);
    for (int ii = 0; ii < lad_nparams; ii++) {
        int i = w->x->byname[ii];
        if (w->x->nvals[i] == 0 || w->cur.v[i] == w->def.v[i])
            continue;
        pvec p = w->cur;
        p.v[i] = w->def.v[i];
        if (legal(w, &p) && sweep_score(w, &p, now) <= now)
            w->cur = p;
    }
}

/*
** When the groups end with cases they cannot explain, the sweep is stuck
** where no one group can move alone (the window and the alignment together
** with the pass and final roundings, say): the beam, seeded with the model
** found, varies every parameter at once. Its answer replaces the current
** model when it explains strictly more cases. Unscaled datapaths only.
** Returns 1 when it did.
*/
static int rescue(sweep *w)
{
    ctx *x = w->x;
    uint64_t now = sweep_score(w, &w->cur, UINT64_MAX);
    if (now == 0 || x->base->scale_block > 0 || x->base->integer)
        return 0;
    lad_search_result *res = malloc(sizeof *res);
    int took = 0;
    lad_datapath seed;
    sp_apply(x, &w->cur, &seed);
    if (res) {
        lad_search_opts so = {0};
        so.seeds = &seed;
        so.nseeds = 1;
        if (lad_search(&seed, x->cs, x->d, x->n, &so, res, NULL) == LAD_OK && res->nbest > 0 &&
            res->best[0].mismatches < now) {
            pvec p = sp_pvec_of(x, &res->best[0].dp);
            /* the beam's values may lie outside the sweep's candidates
            ** (its NaN word from the data): take them as they are */
            for (int i = 0; i < lad_nparams; i++)
                sp_add_val(x, i, p.v[i]);
            w->cur = p;
            took = 1;
        }
    }
    free(res);
    return took;
}

/*
** Stuck with cases unexplained, the sweep may sit in the wrong structure of
** the sum (exact where the datapath adds in a tree, AMD CDNA2 in MMA-Sim;
** exact where fp8 products in passes of 2 fit a narrow window), which no
** one group leaves, since the right structure alone, with the rows tuned to
** the wrong one, explains less. Each other structure (one window, exact,
** tree) restarts the sweep with exact and tree held at it; the first that
** ends explaining strictly more cases is kept. Only sweeps: it runs before
** the beam, which it often spares, and again after it. Returns 1 when a
** structure was kept.
*/
static int restructure(sweep *w, const group *gs, int ng)
{
    ctx *x = w->x;
    int re = LAD_P_exact, rt = LAD_P_tree;
    uint64_t now = sweep_score(w, &w->cur, UINT64_MAX);
    if (now == 0 || x->nvals[re] == 0 || x->nvals[rt] == 0)
        return 0;
    static const int shapes[3][2] = {{0, 0}, {1, 0}, {0, 1}};
    pvec was = w->cur;
    /* what holding overwrites: the counts and the first candidates */
    int nre = x->nvals[re], nrt = x->nvals[rt];
    int64_t vre = x->vals[re][0], vrt = x->vals[rt][0];
    int took = 0;
    for (int i = 0; i < 3 && !took; i++) {
        if (was.v[re] == shapes[i][0] && was.v[rt] == shapes[i][1])
            continue;
        pvec p = was;
        p.v[re] = shapes[i][0];
        p.v[rt] = shapes[i][1];
        if (!legal(w, &p))
            continue;
        /* the structure held while the other rows follow it: the groups
        ** that hold exact or tree would take the old one straight back */
        x->nvals[re] = x->nvals[rt] = 1;
        x->vals[re][0] = shapes[i][0];
        x->vals[rt][0] = shapes[i][1];
        w->cur = p;
        uint64_t best = sweep_score(w, &p, UINT64_MAX);
        sweep_groups(w, gs, ng, &best);
        took = best < now;
        x->nvals[re] = nre;
        x->nvals[rt] = nrt;
        x->vals[re][0] = vre;
        x->vals[rt][0] = vrt;
    }
    if (!took)
        w->cur = was;
    return took;
}

int lad_search_staged(const lad_datapath *start, const lad_case *cs, const lad_word_t *d,
                      size_t n, const lad_stage *stages, size_t nstages, lad_datapath *out,
                      lad_err *err)
{
    /* the joint groups in dependency order: params.def's LAD_SWEEP lines */
    const group *order = lad_sweep_groups;
    const int NORDER = lad_nsweep_groups;
    int rc;
    if ((rc = lad_datapath_check(start, err)))
        return rc;
    *out = *start;
    if (n == 0)
        return LAD_OK;
    sweep w = {0};
    w.x = sp_ctx_new(start, cs, d, n);
    w.order = malloc(sizeof(size_t) * n);
    if (!w.x || !w.order) {
        sp_ctx_free(w.x);
        free(w.order);
        return lad_errf(err, LAD_EINTERNAL, "out of memory");
    }
    ctx *x = w.x;
    for (size_t i = 0; i < n; i++)
        w.order[i] = i;
    w.cur = w.def = x->basep;
    w.end = n;
    rc = LAD_OK;
    /* Each stage's cases are explained by the parameters before the next
    ** stage is asked about; a stage whose cases all fit needs no search. A
    ** stage's own groups go first (sweeps over the others can walk into a
    ** value that explains part of it, such as a pass boundary inside the
    ** last block); only what they leave open goes to every group. */
    for (size_t s = 0; s < nstages && rc == LAD_OK; s++) {
        w.end = stages[s].end < n ? stages[s].end : n;
        uint64_t best = sweep_score(&w, &w.cur, UINT64_MAX);
        group own[8];
        int nown = 0;
        for (int i = 0; stages[s].own && stages[s].own[i] && nown < 8 && rc == LAD_OK; i++)
            rc = parse_group(stages[s].own[i], &own[nown++], err);
        if (rc)
            break;
        if (nown)
            sweep_groups(&w, own, nown, &best);
        sweep_groups(&w, order, NORDER, &best);
    }
    if (rc == LAD_OK) {
        w.end = n;
        if (restructure(&w, order, NORDER))
            occam(&w);
        rescue(&w);
        occam(&w);
        /* Still stuck: the beam again from the simpler model Occam left,
        ** while that explains more (it often reaches further: the rows
        ** Occam resets are the ones the stages guessed). */
        for (int round = 0; round < 2; round++) {
            uint64_t before = sweep_score(&w, &w.cur, UINT64_MAX);
            if (before == 0 || !rescue(&w))
                break;
            occam(&w);
            if (sweep_score(&w, &w.cur, UINT64_MAX) >= before)
                break;
        }
        if (restructure(&w, order, NORDER))
            occam(&w);
        /* An accumulator no case can see takes the result's cut format when
        ** the result was cut (the fp8 paths round both to e8m13): equal
        ** words. */
        lad_datapath dp;
        sp_apply(x, &w.cur, &dp);
        if (!dp.integer && dp.d.mbits < start->d.mbits && start->d.width == 32) {
            uint64_t before = sweep_score(&w, &w.cur, UINT64_MAX);
            pvec p = w.cur;
            p.v[LAD_P_acc] = dp.d.mbits;
            if (legal(&w, &p) && sweep_score(&w, &p, before) <= before)
                w.cur = p;
        }
        /* One level over two: a second level that the cases cannot tell
        ** from a single window (fp8 products, exact under any first level)
        ** gives way to that window, the simpler model. */
        int r2 = LAD_P_window2, r1 = LAD_P_window, ra = LAD_P_c_anchor;
        if (w.cur.v[r2] > 0) {
            uint64_t before = sweep_score(&w, &w.cur, UINT64_MAX);
            int done = 0;
            for (int a = 0; a < 2 && !done; a++)
                for (int j = 0; j < x->nvals[r1] && !done; j++) {
                    pvec p = w.cur;
                    p.v[r2] = 0;
                    p.v[r1] = x->vals[r1][j];
                    p.v[ra] = a ? !w.cur.v[ra] : w.cur.v[ra];
                    if (legal(&w, &p) && sweep_score(&w, &p, before) <= before) {
                        w.cur = p;
                        done = 1;
                    }
                }
        }
        sp_apply(x, &w.cur, out);
    }
    sp_ctx_free(x);
    free(w.order);
    return rc;
}
