/*
** The staged sweep (search.h: lad_search_staged, `ladder infer`): the
** stages' own groups, then params.def's LAD_SWEEP groups in dependency
** order, until a sweep changes nothing; then the restarts from another
** structure of the sum, the beam as a rescue, and Occam.
**
** The sweep fits a set of cases, not all of them: the targeted stages'
** cases, and of the check stages' (the random rung's, which target
** nothing) only those the model got wrong, a few at a time. A candidate
** that is nearly right must be scored on every case of the fit set, so
** its size is the sweep's cost; thousands of random cases that the model
** reproduces tell the search nothing. Each round checks the model on
** every case and adds up to ADD of the cases it misses, spread over them,
** until it misses none or MAXCHECK rounds have passed.
*/
#include "space.h"
#include "../probes/gen.h"

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

#define MAXOWN 64     /* joint groups of all stages */
#define STAGEMAX 8    /* joint groups of one stage */
#define ADD 64        /* missed check cases joining the fit set per round */
#define MAXCHECK 24   /* rounds of checking */
#define PAIRS_FIRST 1000000 /* evaluations of the pairs before the beam */
#define WALK_MOVES 8  /* moves of a walk (lad_search_apart) */
#define WALK_TRIES 400 /* tries of a walk */

typedef struct sweep {
    ctx *x;
    pvec cur;            /* the current model */
    pvec def;            /* the starting values: what a row no case can see keeps */
    size_t *order;       /* the fit set's case indices, those that failed lately first */
    size_t nfit;         /* cases in order */
    unsigned char *in;   /* in[i]: case i is in the fit set */
    unsigned char *missed; /* add_misses' marks, all 0 between calls */
    size_t *fail;        /* the fit-set cases cur gets wrong (find_fails) */
    size_t nfail;
    size_t *pass;        /* and those it gets right */
    size_t npass;
    int hotnext;
    int groups_only;     /* finish sweeps the groups and stops there */
    lad_progress_fn progress; /* and its pctx: the steps of finish */
    void *pctx;
} sweep;

/* Adds case i to the fit set (once). */
static void fit_add(sweep *w, size_t i)
{
    if (w->in[i])
        return;
    w->in[i] = 1;
    w->order[w->nfit++] = i;
}

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

/* A model ready to evaluate: the datapath of a pvec and its plan, which
** points into it (so a built stays where it was made). */
typedef struct built {
    lad_datapath dp;
    lad_plan pl;
} built;

static void build(const ctx *x, const pvec *p, built *b)
{
    sp_apply(x, p, &b->dp);
    lad_plan_init(&b->pl, &b->dp);
}

static uint64_t sweep_score(sweep *w, const pvec *p, uint64_t limit)
{
    lad_datapath dp;
    sp_apply(w->x, p, &dp);
    return sp_score(w->x, &dp, w->order, w->nfit, w->x->n, limit, COUNT | REORDER, &w->hotnext,
                    NULL);
}

static int legal(const sweep *w, const pvec *p)
{
    lad_datapath dp;
    sp_apply(w->x, p, &dp);
    return lad_datapath_check(&dp, NULL) == LAD_OK;
}

/*
** The score of p (its misses on the fit set) when it is below best, else
** best or more, from the current model's split of the fit set: p misses
** the failing cases it does not fix and the passing ones it breaks. To
** beat best it must fix f > nfail - best of the nfail failing cases, which
** is settled on those few first, and then break fewer than
** best - (nfail - f) of the passing ones, so the passing cases are scored
** with that limit: a candidate that fixes one case and breaks one is
** dropped at the first break, not after best breaks.
*/
static uint64_t split_score(sweep *w, const pvec *p, uint64_t best)
{
    ctx *x = w->x;
    built m;
    build(x, p, &m);
    size_t need = w->nfail - best + 1, got = 0;
    for (size_t i = 0; i < w->nfail && got + (w->nfail - i) >= need; i++) {
        size_t c = w->fail[i];
        x->evals++;
        got += lad_plan_eval(&m.pl, &x->cs[c]) == x->d[c];
    }
    if (got < need)
        return best;
    uint64_t missed = w->nfail - got;
    return missed + sp_score(x, &m.dp, w->pass, w->npass, x->n, best - 1 - missed,
                             COUNT | REORDER, &w->hotnext, NULL);
}

/* w->fail and w->pass: the fit-set cases the current model gets wrong and
** right, each in the fit set's order. */
static void find_fails(sweep *w)
{
    built m;
    build(w->x, &w->cur, &m);
    w->nfail = w->npass = 0;
    for (size_t i = 0; i < w->nfit; i++) {
        size_t c = w->order[i];
        if (lad_plan_eval(&m.pl, &w->x->cs[c]) != w->x->d[c])
            w->fail[w->nfail++] = c;
        else
            w->pass[w->npass++] = c;
    }
}

/*
** Searches the rows of g jointly over their candidates; returns 1 when a
** value changed. *best holds the current score on entry and exit, and
** w->fail and w->pass the current model's split of the fit set, by which
** each candidate is scored (split_score): a value of a row that does not
** matter to the failing cases costs a look at those few, not a pass over
** the fit set.
*/
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
            uint64_t s = split_score(w, &p, *best);
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
    if (changed)
        find_fails(w);
    return changed;
}

/* Runs the groups gs[0..ng-1] in turn until a whole sweep changes nothing
** or the cases all fit. */
/* Evaluations a groups-only sweep (cases proven to fit no model) spends
** at most: its model is only the nearest one found, and where most cases
** fail, a sweep's pruning gains little (every group then costs passes over
** thousands of failing cases). */
#define PROVEN_BUDGET 10000000

static void sweep_groups(sweep *w, const group *gs, int ng, uint64_t *best)
{
    if (*best > 0)
        find_fails(w);
    uint64_t stop = w->groups_only ? PROVEN_BUDGET : UINT64_MAX;
    for (int round = 0; round < 8 && *best > 0 && w->x->evals < stop; round++) {
        int changed = 0;
        for (int g = 0; g < ng && *best > 0 && w->x->evals < stop; g++)
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
static int beam_seeded(sweep *w)
{
    ctx *x = w->x;
    uint64_t now = sweep_score(w, &w->cur, UINT64_MAX);
    if (now == 0 || x->base->scale_block > 0 || x->base->integer)
        return 0;
    lad_search_result *res = malloc(sizeof *res);
    lad_case *cs = malloc(sizeof *cs * w->nfit);
    lad_word_t *d = malloc(sizeof *d * w->nfit);
    int took = 0;
    lad_datapath seed;
    sp_apply(x, &w->cur, &seed);
    if (res && cs && d) {
        /* the fit set, in case order */
        size_t m = 0;
        for (size_t i = 0; i < x->n; i++)
            if (w->in[i]) {
                cs[m] = x->cs[i];
                d[m++] = x->d[i];
            }
        lad_search_opts so = {0};
        so.seeds = &seed;
        so.nseeds = 1;
        if (lad_search(&seed, cs, d, m, &so, res, NULL) == LAD_OK && res->nbest > 0 &&
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
    free(cs);
    free(d);
    return took;
}

/* A restart: the values of the rows it holds, and its score as it stands. */
typedef struct restart {
    uint64_t score;
    pvec p;
} restart;

/*
** The restarts from st[0..nk): rows[0..nrow) held at a restart's values while
** the other rows follow them (the groups that hold these rows would take
** the old values straight back), best score first when sorted (ties in
** their order: within a budget one restart can cost more than the rest
** together), until one ends explaining strictly more cases than the current
** model (now: its misses) or the evaluations pass stop. Returns 1 with
** w->cur at that model, 0 with w->cur as it was. Frees st.
*/
static int restart_held(sweep *w, const group *gs, int ng, const int *rows, int nrow,
                        restart *st, int nk, int sorted, uint64_t now, uint64_t stop)
{
    ctx *x = w->x;
    pvec was = w->cur;
    /* what holding overwrites: the counts and the first candidates, put
    ** back after each restart, so the candidates stay whole */
    int nv[4];
    int64_t v0[4];
    for (int r = 0; r < nrow; r++) {
        nv[r] = x->nvals[rows[r]];
        v0[r] = x->vals[rows[r]][0];
    }
    for (int i = 1; sorted && i < nk; i++)
        for (int j = i; j > 0 && st[j].score < st[j - 1].score; j--) {
            restart t = st[j];
            st[j] = st[j - 1];
            st[j - 1] = t;
        }
    int took = 0;
    for (int k = 0; k < nk && !took && x->evals < stop; k++) {
        pvec p = st[k].p;
        for (int r = 0; r < nrow; r++) {
            x->nvals[rows[r]] = 1;
            x->vals[rows[r]][0] = p.v[rows[r]];
        }
        w->cur = p;
        uint64_t best = sweep_score(w, &p, UINT64_MAX);
        sweep_groups(w, gs, ng, &best);
        took = best < now;
        for (int r = 0; r < nrow; r++) {
            x->nvals[rows[r]] = nv[r];
            x->vals[rows[r]][0] = v0[r];
        }
    }
    free(st);
    if (!took)
        w->cur = was;
    return took;
}

/*
** The rows of the sum's structure give way to the ones a restart holds:
** exact and tree go with no second level (datapath.c), so holding a second
** level (levels) makes the sum windowed, with no ieee_zero (which needs
** exact), and holding an exact sum or a tree (restructure) leaves one
** level, with none of the second level's rows. Without it every restart
** from the other structure would be illegal and skipped: random draw 101,
** a second level taken for an exact sum, kept its one missed case.
*/
static void give_way(pvec *p, int to_levels)
{
    if (to_levels && p->v[LAD_P_window2] != 0) {
        p->v[LAD_P_exact] = 0;
        p->v[LAD_P_tree] = 0;
        p->v[LAD_P_ieee_zero] = 0;
    } else if (!to_levels && (p->v[LAD_P_exact] || p->v[LAD_P_tree])) {
        p->v[LAD_P_window2] = 0;
        p->v[LAD_P_even_odd] = 0;
    }
    if (p->v[LAD_P_window2] == 0) {
        p->v[LAD_P_norm2] = 0;
        p->v[LAD_P_c2_drop] = 0;
    }
}

/* The shapes of the sum, as exact and tree: one window, exact, tree. */
static const int shapes[3][2] = {{0, 0}, {1, 0}, {0, 1}};

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
**
** wide (not 0): the structure is also the pass length and where C joins
** (c_last), every combination of their candidates held in turn, within
** wide evaluations: a tree of passes of 2 with C in the tree, taken for passes
** of 1 with C added last, moves only with all four at once (where a signed
** zero is the only difference). For the end of a search that is still
** stuck.
*/
static int restructure(sweep *w, const group *gs, int ng, uint64_t wide)
{
    ctx *x = w->x;
    static const int all[4] = {LAD_P_exact, LAD_P_tree, LAD_P_pass, LAD_P_c_last};
    uint64_t now = sweep_score(w, &w->cur, UINT64_MAX);
    if (now == 0)
        return 0;
    /* the rows with candidates: a block-scaled datapath has one shape (no
    ** exact or tree), but its pass and c_last still move (one scale block
    ** taken with C added last where it joins the window) */
    int rows[4], nrow = 0, shaped = x->nvals[all[0]] > 0 && x->nvals[all[1]] > 0;
    for (int r = shaped ? 0 : 2; r < (wide ? 4 : 2); r++)
        if (x->nvals[all[r]] > 0)
            rows[nrow++] = all[r];
    if (nrow == 0)
        return 0;
    /* the shape, then (wide) the candidates of pass and of c_last: every
    ** combination, and (wide) each scored as it stands, best first (in
    ** their order, a tree can wait millions of evaluations behind the one
    ** window) */
    int ns = shaped ? 3 : 1, nk = 0;
    int np = wide && x->nvals[all[2]] ? x->nvals[all[2]] : 1;
    int nc = wide && x->nvals[all[3]] ? x->nvals[all[3]] : 1;
    restart *st = malloc(sizeof *st * (size_t)(ns * np * nc));
    if (!st)
        return 0;
    for (int k = 0; k < ns * np * nc; k++) {
        pvec p = w->cur;
        if (shaped) {
            p.v[all[0]] = shapes[k % 3][0];
            p.v[all[1]] = shapes[k % 3][1];
        }
        if (wide && x->nvals[all[2]])
            p.v[all[2]] = x->vals[all[2]][k / ns % np];
        if (wide && x->nvals[all[3]])
            p.v[all[3]] = x->vals[all[3]][k / ns / np];
        int same = 1;
        for (int r = 0; r < nrow; r++)
            same &= p.v[rows[r]] == w->cur.v[rows[r]];
        give_way(&p, 0);
        if (same || !legal(w, &p))
            continue;
        st[nk].p = p;
        st[nk++].score = wide ? sweep_score(w, &p, UINT64_MAX) : 0;
    }
    return restart_held(w, gs, ng, rows, nrow, st, nk, wide, now,
                        wide ? x->evals + wide : UINT64_MAX);
}

/* The roundings that move one stage up (shift_roundings), or none. */
typedef struct shifted {
    int64_t norm2, align2_round, acc, acc_round;
} shifted;

/*
** The restarts over the levels of the sum: every combination of window2
** and even_odd held in turn, best score first, the other rows following,
** within budget evaluations (restart_held); now is the current model's
** misses. sh NULL: every combination but the current one. sh not NULL:
** only two levels (window2 not 0), each with the roundings of sh moved one
** stage up. Returns 1 when one was kept.
*/
static int levels(sweep *w, const group *gs, int ng, uint64_t now, uint64_t budget, const shifted *sh)
{
    ctx *x = w->x;
    static const int rows[2] = {LAD_P_window2, LAD_P_even_odd};
    int n2 = x->nvals[rows[0]], ne = x->nvals[rows[1]], nk = 0;
    restart *st = malloc(sizeof *st * (size_t)(n2 * ne));
    if (!st)
        return 0;
    for (int k = 0; k < n2 * ne; k++) {
        pvec p = w->cur;
        p.v[rows[0]] = x->vals[rows[0]][k % n2];
        p.v[rows[1]] = x->vals[rows[1]][k / n2];
        if (sh) {
            if (p.v[rows[0]] == 0)
                continue;
            p.v[LAD_P_norm2] = sh->norm2;
            p.v[LAD_P_align2_round] = sh->align2_round;
            p.v[LAD_P_acc] = sh->acc;
            p.v[LAD_P_acc_round] = sh->acc_round;
        } else if (p.v[rows[0]] == w->cur.v[rows[0]] && p.v[rows[1]] == w->cur.v[rows[1]]) {
            continue;
        }
        give_way(&p, 1);
        if (!legal(w, &p))
            continue;
        st[nk].p = p;
        st[nk++].score = sweep_score(w, &p, UINT64_MAX);
    }
    return restart_held(w, gs, ng, rows, 2, st, nk, 1, now, x->evals + budget);
}

/*
** Stuck in one level where the datapath has two (AMD CDNA3: a second window
** under the pass anchor, even and odd lanes summed apart), or the other way
** round: a CDNA3 f16 datapath with a second level of 33 bits, taken for
** one level, sits rows away from its model that no group reaches. Every
** other combination of the levels restarts the search (levels). Returns 1
** when one was kept.
*/
static int relevel(sweep *w, const group *gs, int ng, uint64_t budget)
{
    ctx *x = w->x;
    uint64_t now = sweep_score(w, &w->cur, UINT64_MAX);
    if (now == 0 || x->nvals[LAD_P_window2] < 2 || x->nvals[LAD_P_even_odd] == 0)
        return 0;
    return levels(w, gs, ng, now, budget, NULL);
}

/* The value of the acc row for format f, or 0 when acc has none for it:
** f32 cut to 10..23 fraction bits, f16, bf16. */
static int acc_value_of(const lad_format *f, int64_t *v)
{
    if (f->kind != LAD_FLOAT)
        return 0;
    if (f->width == 32 && f->ebits == 8 && f->mbits >= 10 && f->mbits <= 23)
        *v = f->mbits;
    else if (f->ebits == 8 && f->mbits == 7)
        *v = LAD_PV_BF16;
    else if (f->width == 16 && f->ebits == 5 && f->mbits == 10)
        *v = LAD_PV_F16;
    else
        return 0;
    return 1;
}

/*
** One level whose accumulator does a rounding a second level would do:
** the sum rounded into an f32 accumulator to nearest and then cut to the
** result gives the words of a second level cut to 23 bits to nearest,
** then an accumulator in the result's format, wherever the result is
** rounded from the accumulator. The two differ only where the second
** level's own rows (its window, its cut, its addend) can move, which in
** the first no single row reaches: the accumulator alone moved to the
** result's format loses the rounding, and a second level alone is unseen
** under an accumulator that rounds after it. So each roundings move one
** stage up together: the second level takes the accumulator's (norm2 its
** fraction bits, align2_round its rounding), the accumulator the
** result's (format and d_round), for every two levels (levels). Returns 1
** when one was kept.
*/
static int shift_roundings(sweep *w, const group *gs, int ng, uint64_t budget)
{
    ctx *x = w->x;
    if (w->cur.v[LAD_P_window2] != 0 || x->nvals[LAD_P_window2] < 2 || x->nvals[LAD_P_even_odd] == 0 ||
        x->nvals[LAD_P_norm2] == 0 || x->nvals[LAD_P_acc] == 0)
        return 0;
    lad_datapath dp;
    sp_apply(x, &w->cur, &dp);
    shifted sh = {.norm2 = dp.acc.mbits, .align2_round = dp.acc_round, .acc_round = dp.d_round};
    int r = dp.acc_round;
    if (dp.integer || !dp.d_via_acc || dp.d.mbits >= dp.acc.mbits || !acc_value_of(&dp.d, &sh.acc) ||
        (r != LAD_RZ && r != LAD_RD && r != LAD_RNE))
        return 0;
    uint64_t now = sweep_score(w, &w->cur, UINT64_MAX);
    if (now == 0)
        return 0;
    return levels(w, gs, ng, now, budget, &sh);
}

/* Whether some other value of row r changes the word of one of the cases
** the current model misses (now[i]: its word on w->fail[i]): a pair of
** rows neither of which does can still fix a case together, but rarely,
** and pairs() leaves those out. */
static int sensitive(sweep *w, int r, const lad_word_t *now)
{
    ctx *x = w->x;
    for (int j = 0; j < x->nvals[r]; j++) {
        pvec p = w->cur;
        if ((p.v[r] = x->vals[r][j]) == w->cur.v[r] || !legal(w, &p))
            continue;
        built m;
        build(x, &p, &m);
        for (size_t i = 0; i < w->nfail; i++) {
            x->evals++;
            if (lad_plan_eval(&m.pl, &x->cs[w->fail[i]]) != now[i])
                return 1;
        }
    }
    return 0;
}

/*
** Pairs of rows searched jointly, for the last cases no group and no
** restart explains: two rows that must move together (a window and the
** rounding that reads it, a sum's structure and its pass) cost a look at
** the failing cases per pair of values (split_score). A pair needs a row
** that changes some failing case's word (sensitive). Rounds until one
** changes nothing, or until the evaluations pass stop. Returns 1 when the
** model changed.
*/
static int pairs(sweep *w, uint64_t stop)
{
    ctx *x = w->x;
    uint64_t best = sweep_score(w, &w->cur, UINT64_MAX);
    int changed = 0;
    lad_word_t *now = malloc(sizeof *now * (x->n + 1));
    for (int round = 0; now && round < 4 && best > 0 && x->evals < stop; round++) {
        int moved = 0;
        find_fails(w);
        built m;
        build(x, &w->cur, &m);
        for (size_t i = 0; i < w->nfail; i++)
            now[i] = lad_plan_eval(&m.pl, &x->cs[w->fail[i]]);
        unsigned char sens[NP];
        for (int r = 0; r < lad_nparams; r++)
            sens[r] = x->nvals[r] > 1 && sensitive(w, r, now);
        for (int ii = 0; ii < lad_nparams && best > 0 && x->evals < stop; ii++)
            for (int jj = ii + 1; jj < lad_nparams && best > 0 && x->evals < stop; jj++) {
                group g = {.n = 2, .rows = {x->byname[ii], x->byname[jj]}};
                if (x->nvals[g.rows[0]] > 1 && x->nvals[g.rows[1]] > 1 &&
                    (sens[g.rows[0]] || sens[g.rows[1]]))
                    moved |= sweep_group(w, &g, &best);
            }
        changed |= moved;
        if (!moved)
            break;
    }
    free(now);
    return changed;
}

/* Whether p gives the device's word for some case the current model fails. */
static int fixes_one(sweep *w, const pvec *p)
{
    ctx *x = w->x;
    built m;
    build(x, p, &m);
    for (size_t i = 0; i < w->nfail; i++) {
        x->evals++;
        if (lad_plan_eval(&m.pl, &x->cs[w->fail[i]]) == x->d[w->fail[i]])
            return 1;
    }
    return 0;
}

/* Whether models a and b give the same word on every case of the fit set. */
static int same_words(sweep *w, const pvec *a, const pvec *b)
{
    ctx *x = w->x;
    built ma, mb;
    build(x, a, &ma);
    build(x, b, &mb);
    for (size_t k = 0; k < w->nfit; k++) {
        x->evals += 2;
        if (lad_plan_eval(&ma.pl, &x->cs[w->order[k]]) != lad_plan_eval(&mb.pl, &x->cs[w->order[k]]))
            return 0;
    }
    return 1;
}

/* Whether p, which gives the words of a on the fit set and differs from it
** in row r, changes what some other row's change does to a failing case:
** a value no case sees that still moves what the pairs can reach. */
static int interacts(sweep *w, const pvec *a, const pvec *p, int r)
{
    ctx *x = w->x;
    for (int r2 = 0; r2 < lad_nparams; r2++) {
        if (r2 == r)
            continue;
        for (int j = 0; j < x->nvals[r2]; j++) {
            pvec q1 = *a, q2 = *p;
            if ((q1.v[r2] = q2.v[r2] = x->vals[r2][j]) == a->v[r2] || !legal(w, &q1) || !legal(w, &q2))
                continue;
            built m1, m2;
            build(x, &q1, &m1);
            build(x, &q2, &m2);
            for (size_t i = 0; i < w->nfail; i++) {
                x->evals += 2;
                if (lad_plan_eval(&m1.pl, &x->cs[w->fail[i]]) != lad_plan_eval(&m2.pl, &x->cs[w->fail[i]]))
                    return 1;
            }
        }
    }
    return 0;
}

/*
** Swaps, for the last cases no pair explains: three rows that must move
** at once, where the path crosses a plateau. One row's value fixes a
** failing case and breaks as many others, and from there a pair fixes the
** rest: an mxf8f6f4 datapath of one scale block needs an exact group
** of 4 lanes, the per-group cut of C and the zero floor, and group 4 alone
** swaps one missed case for another. After those, the neutral swaps: a
** value that changes no word of the fit set, but changes what another
** row's value does to a failing case (bf16 in one pass:
** its accumulator rounds to nearest where rz gives the same words on every
** stored case, and only under rne does the pair of floors, the zero floor
** for the anchor's minimum, explain its last two). Every such swap, rows
** in the order of their keys, is taken in turn (at most MAXSWAP) and the
** pairs run from it, within budget evaluations in all; the first that
** ends explaining strictly more cases is kept. Returns 1 when one was.
*/
#define MAXSWAP 16
static int swaps(sweep *w, uint64_t budget)
{
    ctx *x = w->x;
    uint64_t now = sweep_score(w, &w->cur, UINT64_MAX), stop = x->evals + budget;
    if (now == 0)
        return 0;
    find_fails(w);
    pvec was = w->cur, *sw = malloc(sizeof *sw * MAXSWAP);
    int nsw = 0;
    /* first the values that fix a failing case and break as many (kind 0),
    ** then those no case of the fit set tells from the current ones but
    ** which change what another row does to a failing case (kind 1) */
    for (int kind = 0; kind < 2; kind++)
        for (int ii = 0; sw && ii < lad_nparams && nsw < MAXSWAP; ii++) {
            int r = x->byname[ii];
            for (int j = 0; j < x->nvals[r] && nsw < MAXSWAP; j++) {
                pvec p = was;
                if ((p.v[r] = x->vals[r][j]) == was.v[r] || !legal(w, &p))
                    continue;
                if (kind ? same_words(w, &was, &p) && interacts(w, &was, &p, r)
                         : fixes_one(w, &p) && sweep_score(w, &p, now + 1) == now)
                    sw[nsw++] = p;
            }
        }
    int took = 0;
    for (int k = 0; k < nsw && !took && x->evals < stop; k++) {
        w->cur = sw[k];
        took = pairs(w, stop) && sweep_score(w, &w->cur, UINT64_MAX) < now;
    }
    free(sw);
    if (!took) {
        w->cur = was;
        find_fails(w);
    }
    return took;
}

/*
** What the groups leave: the stages' own groups and every group again,
** the restarts from another structure of the sum, and with beam the beam
** as a rescue, Occam, the moves of the table above (the pairs, the wide
** restarts, the levels, the shifted roundings, the swaps), and two
** simplifications that keep the words the same
** (an unseen accumulator takes the result's cut format; a second level the
** cases cannot tell from one window gives way to it). On the fit set.
** Without beam (while checks still add cases), it stops after the
** restarts: the beam's cost is paid once, at the end.
*/
static int same_pvec(const pvec *a, const pvec *b)
{
    return memcmp(a->v, b->v, sizeof a->v[0] * (size_t)lad_nparams) == 0;
}

/* The moves of finish after the beam, each a search of its own for a
** model the groups cannot reach, run in this order while the model misses
** a case of the fit set, each within its budget of evaluations; Occam
** follows each that changed the model. docs/inference.md ("What the
** groups leave") says what each guarantees. */
static int move_pairs(sweep *w, const group *gs, int ng, uint64_t budget)
{
    (void)gs, (void)ng;
    return pairs(w, w->x->evals + budget);
}
static int move_swaps(sweep *w, const group *gs, int ng, uint64_t budget)
{
    (void)gs, (void)ng;
    return swaps(w, budget);
}
typedef struct move {
    const char *name;   /* in the progress line: "what the groups leave: <name>" */
    int (*run)(sweep *w, const group *gs, int ng, uint64_t budget);
    uint64_t budget;    /* evaluations it may spend */
} move;
static const move moves[] = {
    /* any two rows with a value that changes a failing case's word */
    {"the pairs", move_pairs, 10000000},
    /* exact, tree, pass and c_last held together at each combination */
    {"the wide restarts", restructure, 2000000},
    /* window2 and even_odd held together: one level for two, or two for one */
    {"the levels", relevel, 2000000},
    /* one level whose accumulator rounds after it: every rounding one stage
    ** up (norm2, align2_round, acc, acc_round) under each window2, even_odd */
    {"the shifted roundings", shift_roundings, 2000000},
    /* a value that fixes a failing case and breaks as many, or changes no
    ** word but what another row does, then the pairs from it */
    {"the swaps", move_swaps, 10000000},
};
#define NMOVES (int)(sizeof moves / sizeof moves[0])

/* Names the step of finish under way (k of the beam and the moves) in the
** progress line: a search still stuck can spend a minute in them. */
static void finish_step(const sweep *w, const char *step, size_t k)
{
    if (w->progress)
        w->progress(w->pctx, step, k, 1 + NMOVES);
}

static void finish(sweep *w, const group *gs, int ng, const group *own, int nown,
                   const lad_datapath *start, int beam)
{
    ctx *x = w->x;
    /* first the stages' own groups again, then every group: a value a
    ** series decided under a wrong structure (a second-level window chosen
    ** before the even and odd sums were) moves back with the evidence that
    ** came since, at the cost of a sweep */
    uint64_t best = sweep_score(w, &w->cur, UINT64_MAX);
    if (best > 0) {
        sweep_groups(w, own, nown, &best);
        sweep_groups(w, gs, ng, &best);
    }
    if (w->groups_only)
        return;
    /* The restarts and the beam depend only on the model they start from
    ** and the fit set, which is fixed here: from a model they have already
    ** left as it was they would do the same work and end the same, so they
    ** are not run again from it (a conflict's search paid twice for each,
    ** 4.5 of t4220's 10.8 s). */
    pvec kept = w->cur;
    int stayed = !restructure(w, gs, ng, 0);  /* the restarts left kept */
    if (!stayed)
        occam(w);
    if (!beam)
        return;
    /* The pairs first, within PAIRS_FIRST evaluations, kept only when they
    ** explain every case of the fit set: a model that misses a case or two
    ** is often two rows from one that misses none, which the pairs reach in
    ** a fraction of the beam's time (a simulated sm100-mma-e5m2-f16 run:
    ** the beam spent 4.4 s on one missed case, the pairs after it 0.02 s). */
    pvec was = w->cur;  /* pairs() leaves a model that misses no case as it is */
    if (pairs(w, x->evals + PAIRS_FIRST)) {
        if (sweep_score(w, &w->cur, 1) == 0)
            occam(w);
        else
            w->cur = was;
    }
    finish_step(w, "what the groups leave: the beam", 0);
    pvec seeded = w->cur;
    beam_seeded(w);
    occam(w);
    /* Still stuck: the beam again from the simpler model Occam left, while
    ** that explains more (it often reaches further: the rows Occam resets
    ** are the ones the stages guessed). */
    for (int round = 0; round < 2; round++) {
        uint64_t before = sweep_score(w, &w->cur, UINT64_MAX);
        if (before == 0 || same_pvec(&w->cur, &seeded))
            break;
        seeded = w->cur;
        if (!beam_seeded(w))
            break;
        occam(w);
        if (sweep_score(w, &w->cur, UINT64_MAX) >= before)
            break;
    }
    if (!(stayed && same_pvec(&w->cur, &kept)) && restructure(w, gs, ng, 0))
        occam(w);
    for (int i = 0; i < NMOVES; i++) {
        char step[64];
        snprintf(step, sizeof step, "what the groups leave: %s", moves[i].name);
        finish_step(w, step, 1 + (size_t)i);
        if (moves[i].run(w, gs, ng, moves[i].budget))
            occam(w);
    }
    /* An accumulator no case can see takes the result's cut format when the
    ** result was cut (the fp8 paths round both to e8m13): equal words. */
    lad_datapath dp;
    sp_apply(x, &w->cur, &dp);
    if (!dp.integer && dp.d.mbits < start->d.mbits && start->d.width == 32) {
        uint64_t before = sweep_score(w, &w->cur, UINT64_MAX);
        pvec p = w->cur;
        p.v[LAD_P_acc] = dp.d.mbits;
        if (legal(w, &p) && sweep_score(w, &p, before) <= before)
            w->cur = p;
    }
    /* One level over two: a second level that the cases cannot tell from a
    ** single window (fp8 products, exact under any first level) gives way
    ** to that window, the simpler model. */
    int r2 = LAD_P_window2, r1 = LAD_P_window, ra = LAD_P_c_anchor;
    if (w->cur.v[r2] > 0) {
        uint64_t before = sweep_score(w, &w->cur, UINT64_MAX);
        int done = 0;
        for (int a = 0; a < 2 && !done; a++)
            for (int j = 0; j < x->nvals[r1] && !done; j++) {
                pvec p = w->cur;
                p.v[r2] = 0;
                p.v[r1] = x->vals[r1][j];
                p.v[ra] = a ? !w->cur.v[ra] : w->cur.v[ra];
                if (legal(w, &p) && sweep_score(w, &p, before) <= before) {
                    w->cur = p;
                    done = 1;
                }
            }
    }
}

/*
** Checks the current model on every case and adds up to ADD of those it
** misses outside the fit set, spread evenly over them, to the fit set.
** Returns how many it added (0: the model reproduces every case outside
** the fit set).
*/
static size_t add_misses(sweep *w)
{
    ctx *x = w->x;
    built m;
    build(x, &w->cur, &m);
    size_t nmiss = 0;
    for (size_t i = 0; i < x->n; i++)
        if (!w->in[i] && lad_plan_eval(&m.pl, &x->cs[i]) != x->d[i])
            w->missed[i] = 1, nmiss++;
    size_t step = nmiss > ADD ? nmiss / ADD : 1, seen = 0, added = 0;
    for (size_t i = 0; i < x->n && nmiss; i++)
        if (w->missed[i]) {
            w->missed[i] = 0;
            if (seen++ % step == 0 && added < ADD) {
                fit_add(w, i);
                added++;
            }
        }
    return added;
}

static void sweep_close(sweep *w)
{
    sp_ctx_free(w->x);
    free(w->order);
    free(w->in);
    free(w->missed);
    free(w->fail);
    free(w->pass);
}

/* Opens w over the n cases, none in the fit set yet, at start's values.
** Returns LAD_OK or LAD_EINTERNAL (w closed then). */
static int sweep_open(sweep *w, const lad_datapath *start, const lad_case *cs,
                      const lad_word_t *d, size_t n, lad_err *err)
{
    w->x = sp_ctx_new(start, cs, d, n);
    w->order = malloc(sizeof(size_t) * n);
    w->in = calloc(n, 1);
    w->missed = calloc(n, 1);
    w->fail = malloc(sizeof(size_t) * n);
    w->pass = malloc(sizeof(size_t) * n);
    if (!w->x || !w->order || !w->in || !w->missed || !w->fail || !w->pass) {
        sweep_close(w);
        return lad_errf(err, LAD_EINTERNAL, "out of memory");
    }
    w->cur = w->def = w->x->basep;
    return LAD_OK;
}

int lad_search_staged(const lad_datapath *start, const lad_case *cs, const lad_word_t *d,
                      size_t n, const lad_stage *stages, size_t nstages, int groups_only,
                      lad_progress_fn progress, void *pctx, lad_datapath *out, lad_err *err)
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
    w.progress = progress;
    w.pctx = pctx;
    w.groups_only = groups_only;
    if ((rc = sweep_open(&w, start, cs, d, n, err)))
        return rc;
    ctx *x = w.x;
    rc = LAD_OK;
    /* every stage's own groups, in stage order: each stage's are searched
    ** first when its cases join, and all of them again by finish */
    group all[MAXOWN];
    int nall = 0;
    /* Each stage's cases are explained by the parameters before the next
    ** stage is asked about; a stage whose cases all fit needs no search. A
    ** stage's own groups go first (sweeps over the others can walk into a
    ** value that explains part of it, such as a pass boundary inside the
    ** last block); only what they leave open goes to every group. A check
    ** stage's cases join only when missed (below). */
    for (size_t s = 0, from = 0; s < nstages && rc == LAD_OK; s++) {
        size_t end = stages[s].end < n ? stages[s].end : n;
        if (progress && stages[s].name) {
            char step[80];
            snprintf(step, sizeof step, "fitting the %s cases", stages[s].name);
            progress(pctx, step, s, nstages);
        }
        int check = !stages[s].own || !stages[s].own[0];
        for (size_t i = from; i < end && !check; i++)
            fit_add(&w, i);
        from = end;
        if (check)
            continue;
        uint64_t best = sweep_score(&w, &w.cur, UINT64_MAX);
        group own[STAGEMAX];
        int nown = 0;
        for (int i = 0; stages[s].own[i] && nown < STAGEMAX && rc == LAD_OK; i++)
            rc = parse_group(stages[s].own[i], &own[nown++], err);
        if (rc)
            break;
        sweep_groups(&w, own, nown, &best);
        /* into all, once: stages share groups (window: internal, ulp) */
        for (int i = 0; i < nown && nall < MAXOWN; i++) {
            int seen = 0;
            for (int j = 0; j < nall && !seen; j++)
                seen = all[j].n == own[i].n &&
                       memcmp(all[j].rows, own[i].rows, sizeof(int) * (size_t)own[i].n) == 0;
            if (!seen)
                all[nall++] = own[i];
        }
        sweep_groups(&w, order, NORDER, &best);
    }
    for (size_t i = nstages ? stages[nstages - 1].end : 0; i < n; i++)
        fit_add(&w, i);  /* cases after the last stage: fitted */
    /* The check cases the model misses join the fit set, and the groups
    ** follow them, until the model misses none outside the fit set; all of
    ** finish runs at the end, and that model is checked again. With no
    ** targeted stage (ladder fit: the checks are all the evidence, and
    ** nothing has decided the structure of the sum), finish's restarts
    ** also run whenever the groups are stuck, before more cases join: a
    ** wrong structure only gets harder to leave as cases pile up
    ** (ada-e4m3-f16.vec took 18 s of CPU without, 0.9 s with). After
    ** targeted stages they cost more than they save (sm90-mma-e5m2-f32
    ** 5.4 s -> 11.5 s), so they wait for the end there. */
    for (int round = 0; rc == LAD_OK;) {
        while (round < MAXCHECK && add_misses(&w)) {
            if (progress)
                progress(pctx, "the cases it missed", (size_t)round, MAXCHECK);
            uint64_t best = sweep_score(&w, &w.cur, UINT64_MAX);
            sweep_groups(&w, order, NORDER, &best);
            round++;
            if (best > 0 && nall == 0)  /* stuck: rescue before more cases join */
                finish(&w, order, NORDER, all, nall, start, 0);
        }
        finish(&w, order, NORDER, all, nall, start, 1);
        /* Still stuck on the fit set after the whole of finish: a model
        ** that gives every case gives the fit set too, which finish did
        ** not reach, so the rounds stop with the nearest model found (a
        ** device outside the family paid another finish per round). */
        if (round >= MAXCHECK || sweep_score(&w, &w.cur, 1) > 0 || add_misses(&w) == 0)
            break;
        uint64_t best = sweep_score(&w, &w.cur, UINT64_MAX);
        sweep_groups(&w, order, NORDER, &best);
        round++;
    }
    if (rc == LAD_OK)
        sp_apply(x, &w.cur, out);
    sweep_close(&w);
    return rc;
}

/* Each other structure of the sum than p's, as it stands: the other
** shapes (exact, tree, one window) and the other pairs of levels (window2,
** even_odd), the rows of the structure giving way (give_way); those legal
** and missing no case into out (room for 3 and every pair of levels).
** Returns how many. */
static int structures(sweep *w, const pvec *p, pvec *out)
{
    ctx *x = w->x;
    int n2 = x->nvals[LAD_P_window2], ne = x->nvals[LAD_P_even_odd], nk = 0;
    int nshape = x->nvals[LAD_P_exact] > 0 && x->nvals[LAD_P_tree] > 0 ? 3 : 0;
    int nlevel = n2 >= 2 && ne > 0 ? n2 * ne : 0;
    for (int k = 0; k < nshape + nlevel; k++) {
        pvec q = *p;
        if (k < nshape) {
            q.v[LAD_P_exact] = shapes[k][0];
            q.v[LAD_P_tree] = shapes[k][1];
        } else {
            q.v[LAD_P_window2] = x->vals[LAD_P_window2][(k - nshape) % n2];
            q.v[LAD_P_even_odd] = x->vals[LAD_P_even_odd][(k - nshape) / n2];
        }
        give_way(&q, k >= nshape);
        if (!same_pvec(&q, p) && legal(w, &q) && sweep_score(w, &q, 1) == 0)
            out[nk++] = q;
    }
    return nk;
}

/*
** A walk through the models that give every case, from p: up to WALK_MOVES
** moves, each one joint group of params.def's LAD_SWEEP lines set to
** random candidates at once (the rows of the sum's structure giving way,
** give_way), kept when the model stays legal and misses no case, within
** WALK_TRIES tries. The answer's pairs of rows see the set of consistent
** models around M; a walk reaches its far side, four or more rows away
** (random draw 101: a second level rounding down under a second cut,
** where M sums exactly). *rng: the walk's random state. Returns the model
** the walk ends at.
*/
static pvec walk(sweep *w, pvec p, lad_rng *rng)
{
    ctx *x = w->x;
    for (int made = 0, tries = 0; made < WALK_MOVES && tries < WALK_TRIES; tries++) {
        const group *g = &lad_sweep_groups[lad_rng_below(rng, (uint32_t)lad_nsweep_groups)];
        pvec q = p;
        for (int i = 0; i < g->n; i++) {
            int r = g->rows[i];
            if (x->nvals[r] > 0)
                q.v[r] = x->vals[r][lad_rng_below(rng, (uint32_t)x->nvals[r])];
        }
        if (same_pvec(&q, &p))
            continue;
        give_way(&q, q.v[LAD_P_window2] != p.v[LAD_P_window2] ||
                         q.v[LAD_P_even_odd] != p.v[LAD_P_even_odd]);
        if (!legal(w, &q) || sweep_score(w, &q, 1) > 0)
            continue;
        p = q;
        made++;
    }
    return p;
}

/* Adds p's model to out[0..*nout) when it is neither m nor one there. */
static void apart_add(const ctx *x, const pvec *p, const lad_datapath *m, lad_datapath *out,
                      int *nout)
{
    lad_datapath o;
    sp_apply(x, p, &o);
    lad_canon(&o);
    int seen = lad_canon_equal(&o, m);
    for (int j = 0; j < *nout && !seen; j++)
        seen = lad_canon_equal(&o, &out[j]);
    if (!seen)
        out[(*nout)++] = o;
}

int lad_search_apart(const lad_datapath *start, const lad_datapath *dp, const lad_case *cs,
                     const lad_word_t *d, size_t n, lad_datapath *out, int max,
                     lad_progress_fn progress, void *pctx, lad_err *err)
{
    sweep w = {0};
    if (n == 0 || max <= 0)
        return 0;
    if (sweep_open(&w, start, cs, d, n, err))
        return -1;
    ctx *x = w.x;
    for (size_t i = 0; i < n; i++)
        fit_add(&w, i);
    pvec p = sp_pvec_of(x, dp);
    for (int i = 0; i < lad_nparams; i++)
        sp_add_val(x, i, p.v[i]);
    w.cur = w.def = p;
    size_t nst = 3 + (size_t)x->nvals[LAD_P_window2] * (size_t)x->nvals[LAD_P_even_odd];
    pvec *st = malloc(sizeof *st * nst);
    if (!st) {
        sweep_close(&w);
        lad_errf(err, LAD_EINTERNAL, "out of memory");
        return -1;
    }
    lad_datapath m = *dp;
    lad_canon(&m);
    int nout = 0, nk = structures(&w, &p, st);
    size_t steps = (size_t)nk + 2 * (size_t)max;
    for (int k = 0; k < nk && nout < max / 2; k++) {
        if (progress)
            progress(pctx, "the models far apart", (size_t)k, steps);
        apart_add(x, &st[k], &m, out, &nout);
    }
    /* the walks, from M and from each structure found in turn (seeded by
    ** the number of cases: a decide round with more cases walks anew) */
    lad_rng rng;
    lad_rng_seed(&rng, n);
    int nfrom = nout;
    for (int k = 0; nout < max && k < 2 * max; k++) {
        if (progress)
            progress(pctx, "the models far apart", (size_t)(nk + k), steps);
        pvec from = k % (nfrom + 1) == 0 ? p : sp_pvec_of(x, &out[k % (nfrom + 1) - 1]);
        pvec e = walk(&w, from, &rng);
        apart_add(x, &e, &m, out, &nout);
    }
    free(st);
    sweep_close(&w);
    return nout;
}
