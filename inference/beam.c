/*
** The beam (search.h: lad_search, `ladder fit`, and the rescue step of the
** staged sweep): a grid over the dimensions that interact most, then a
** beam of the best models improved one dimension at a time on a growing
** active set of cases; then the models as good as the best, explored one
** change at a time, and the undetermined parameters they show.
*/
#include "space.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the beam -------------------------------------------------------------- */

static uint64_t beam_limit(const ctx *x)
{
    return x->nbeam < x->beamcap ? UINT64_MAX : x->beam[x->nbeam - 1].score;
}

/* Equal scores: the simpler model first (fewer rows off their defaults),
** then the smaller values, rows compared in the order of their keys, so
** that the ranking depends on neither params.def's order of rows nor a
** hash. */
static int entry_less(const ctx *x, const entry *a, const entry *b)
{
    if (a->score != b->score)
        return a->score < b->score;
    if (a->cplx != b->cplx)
        return a->cplx < b->cplx;
    for (int k = 0; k < lad_nparams; k++) {
        int i = x->byname[k];
        if (a->p.v[i] != b->p.v[i])
            return a->p.v[i] < b->p.v[i];
    }
    return 0;
}

/* Inserts e when it ranks among the beam's best; returns 1 when inserted. */
static int beam_insert(ctx *x, const entry *e)
{
    if (x->nbeam == x->beamcap && !entry_less(x, e, &x->beam[x->nbeam - 1]))
        return 0;
    int i = x->nbeam < x->beamcap ? x->nbeam++ : x->nbeam - 1;
    while (i > 0 && entry_less(x, e, &x->beam[i - 1])) {
        x->beam[i] = x->beam[i - 1];
        i--;
    }
    x->beam[i] = *e;
    return 1;
}

/* Evaluates candidate p on the active set and offers it to the beam. */
static int try_candidate(ctx *x, pvec p)
{
    sp_canon(x, &p);
    if (!sp_visit(x, &p))
        return 0;
    lad_datapath dp;
    sp_apply(x, &p, &dp);
    if (lad_datapath_check(&dp, NULL) != LAD_OK)
        return 0;
    entry e;
    e.p = p;
    e.cplx = sp_complexity(x, &p);
    uint64_t lim = beam_limit(x);
    e.score = sp_score(x, &dp, x->active, x->nactive, x->n, lim, GRADED, NULL, &e.miss);
    if (e.score > lim)
        return 0;
    return beam_insert(x, &e);
}

/* Number of fraction bits the data shows D keeps: d's mbits less the
** trailing zero bits every normal D word has (0 when no word says). */
static int output_bits(const ctx *x)
{
    const lad_format *f = &x->base->d;
    if (f->kind != LAD_FLOAT || !lad_format_f32_family(f))
        return 0;
    int tz = f->mbits, seen = 0;
    for (size_t i = 0; i < x->n; i++) {
        lad_value v = lad_decode(f, x->d[i]);
        if (v.cls != LAD_NORMAL)
            continue;
        uint64_t frac = v.mag & (((uint64_t)1 << f->mbits) - 1);
        int t = frac ? __builtin_ctzll(frac) : f->mbits;
        if (t < tz)
            tz = t;
        seen++;
    }
    if (seen < 16 || tz == 0 || f->mbits - tz < 1)
        return 0;
    return f->mbits - tz;
}

/* The grid over the dimensions that interact most. */
static void grid(ctx *x)
{
    enum { NG = 16 };
    int gd[NG], cnt[NG], at[NG], ng = 0;
    for (int i = 0; i < lad_nparams && ng < NG; i++)
        if (sp_row(i)->flags & LAD_PF_GRID)
            gd[ng++] = i;
    int acc = LAD_P_acc, via = LAD_P_d_via_acc;
    int cut = output_bits(x);
    if (cut)
        sp_add_val(x, acc, cut);
    int nout = cut && !(x->fixed >> acc & 1) ? 2 : 1;
    for (int g = 0; g < ng; g++) {
        int on = (x->dims >> gd[g] & 1) && !(x->fixed >> gd[g] & 1) && !x->base->integer;
        cnt[g] = on ? x->nvals[gd[g]] : 1;
    }
    for (int out = 0; out < nout; out++) {
        for (int g = 0; g < ng; g++)
            at[g] = 0;
        for (;;) {
            pvec p = x->basep;
            for (int g = 0; g < ng; g++)
                if (cnt[g] > 1)
                    p.v[gd[g]] = x->vals[gd[g]][at[g]];
            if (out) {
                p.v[acc] = cut;
                p.v[via] = 1;
            }
            try_candidate(x, p);
            int g = ng - 1;
            while (g >= 0 && ++at[g] >= cnt[g])
                at[g--] = 0;
            if (g < 0)
                break;
        }
    }
}

/* Improves the beam one dimension at a time until it stops changing. */
static void descend(ctx *x)
{
    for (int round = 0; round < MAXROUNDS; round++) {
        entry snap[MAXBEAM];
        int ns = x->nbeam;
        memcpy(snap, x->beam, sizeof(entry) * (size_t)ns);
        int changed = 0;
        for (int e = 0; e < ns; e++) {
            lad_datapath dp;
            sp_apply(x, &snap[e].p, &dp);
            for (int i = 0; i < lad_nparams; i++) {
                if ((x->fixed >> i & 1) || !sp_relevant(x, &dp, i))
                    continue;
                for (int j = 0; j < x->nvals[i]; j++) {
                    pvec p = snap[e].p;
                    if (p.v[i] == x->vals[i][j])
                        continue;
                    p.v[i] = x->vals[i][j];
                    changed |= try_candidate(x, p);
                }
            }
        }
        if (!changed)
            break;
    }
}

static void add_active(ctx *x, size_t c)
{
    if (x->inactive[c])
        return;
    x->inactive[c] = 1;
    x->active[x->nactive++] = c;
}

typedef struct scored {
    pvec p;
    uint64_t miss;    /* over every case */
    uint64_t score;
    int cplx;
} scored;

static int scored_less(const scored *a, const scored *b)
{
    if (a->miss != b->miss)
        return a->miss < b->miss;
    return a->score != b->score ? a->score < b->score : a->cplx < b->cplx;
}

/* Keeps the LAD_SEARCH_KEEP best distinct models seen on every case. */
static void keep_best(scored *best, int *nbest, const scored *s)
{
    for (int i = 0; i < *nbest; i++)
        if (memcmp(&best[i].p, &s->p, sizeof s->p) == 0)
            return;
    int i;
    if (*nbest < LAD_SEARCH_KEEP)
        i = (*nbest)++;
    else if (scored_less(s, &best[*nbest - 1]))
        i = *nbest - 1;
    else
        return;
    while (i > 0 && scored_less(s, &best[i - 1])) {
        best[i] = best[i - 1];
        i--;
    }
    best[i] = *s;
}

/* The NaN word of the data: the most frequent D word that is a NaN of d. */
static void data_nan(ctx *x)
{
    lad_word_t words[8];
    size_t counts[8];
    int nw = 0;
    for (size_t i = 0; i < x->n; i++) {
        if (lad_decode(&x->base->d, x->d[i]).cls != LAD_NAN)
            continue;
        int j = 0;
        while (j < nw && words[j] != x->d[i])
            j++;
        if (j == nw) {
            if (nw == 8)
                continue;
            words[nw] = x->d[i];
            counts[nw++] = 0;
        }
        counts[j]++;
    }
    if (nw == 0)
        return;
    int b = 0;
    for (int j = 1; j < nw; j++)
        if (counts[j] > counts[b])
            b = j;
    x->nan = words[b];
    x->has_nan = 1;
}

/* Records the values of p's rows that matter. */
static void mark(const ctx *x, const pvec *p, lad_search_result *res)
{
    lad_datapath dp;
    sp_apply(x, p, &dp);
    for (int i = 0; i < lad_nparams; i++) {
        if (!sp_relevant(x, &dp, i))
            continue;
        for (int j = 0; j < x->nvals[i]; j++)
            if (x->vals[i][j] == p->v[i] && !res->undet[i][j]) {
                res->undet[i][j] = 1;
                res->nundet[i]++;
            }
    }
}

/* Explores the models that do as well as the best, one change at a time. */
static void explore_equal(ctx *x, const pvec *best, uint64_t target, int cap,
                          lad_search_result *res)
{
    size_t *order = malloc(sizeof(size_t) * x->n);
    pvec *queue = malloc(sizeof(pvec) * (size_t)cap);
    if (!order || !queue) {
        free(order);
        free(queue);
        return;
    }
    size_t no = 0;
    for (size_t i = 0; i < x->nactive; i++)
        order[no++] = x->active[i];
    for (size_t i = 0; i < x->n; i++)
        if (!x->inactive[i])
            order[no++] = i;
    sp_visit_clear(x);
    int nq = 0, hot = 0;
    pvec b = *best;
    sp_canon(x, &b);
    queue[nq++] = b;
    sp_visit(x, &b);
    mark(x, &b, res);
    for (int qi = 0; qi < nq; qi++) {
        pvec cur = queue[qi];
        lad_datapath cdp;
        sp_apply(x, &cur, &cdp);
        for (int i = 0; i < lad_nparams; i++) {
            if ((x->fixed >> i & 1) || !sp_relevant(x, &cdp, i))
                continue;
            /* a wide numeric row steps to its neighbours only (and to and
            ** from `none`): the values equal models take are a range, which
            ** the walk covers one step at a time, at a fraction of the
            ** models tried */
            int wide = x->nvals[i] > 16;
            for (int j = 0; j < x->nvals[i]; j++) {
                pvec p = cur;
                int64_t v = x->vals[i][j], v0 = p.v[i];
                if (v0 == v)
                    continue;
                if (wide && v != LAD_NOFLOOR && v0 != LAD_NOFLOOR && (v < v0 - 1 || v > v0 + 1))
                    continue;
                p.v[i] = v;
                sp_canon(x, &p);
                if (!sp_visit(x, &p))
                    continue;
                lad_datapath dp;
                sp_apply(x, &p, &dp);
                if (lad_datapath_check(&dp, NULL) != LAD_OK)
                    continue;
                uint64_t miss;
                sp_score(x, &dp, order, no, x->n, target, COUNT | REORDER, &hot, &miss);
                if (miss > target)
                    continue;
                queue[nq++] = p;
                mark(x, &p, res);
                if (nq == cap) {
                    /* enough: the first layer (one change from the best)
                    ** is complete unless the cap is below it */
                    res->equal_capped = 1;
                    goto out;
                }
            }
        }
    }
out:
    /* a row with one value among them is determined */
    for (int i = 0; i < lad_nparams; i++)
        if (res->nundet[i] < 2) {
            res->nundet[i] = 0;
            memset(res->undet[i], 0, sizeof res->undet[i]);
        }
    res->nequal = nq;
    free(order);
    free(queue);
}

/* The beam's dimensions: every searchable row but d and nan (search.h). */
static void beam_dims(ctx *x)
{
    x->dims &= ~(1ull << LAD_P_d);
    x->dims &= ~(1ull << LAD_P_nan);
}

/* lad_search on the cases cs, or packed in pk when cs is NULL. */
static int search(const lad_datapath *base, const lad_case *cs, const lad_packed *pk,
                  const lad_word_t *d, size_t n, const lad_search_opts *opts,
                  lad_search_result *res, lad_err *err)
{
    lad_search_opts o = {0};
    if (opts)
        o = *opts;
    if (o.prefix == 0)
        o.prefix = 128;
    if (o.beam == 0)
        o.beam = 16;
    if (o.max_equal == 0)
        o.max_equal = 200;
    if (o.beam < 1 || o.beam > MAXBEAM || o.max_equal < 1 || n == 0 || o.nseeds < 0)
        return lad_errf(err, LAD_EUSAGE, "bad search options (beam 1..%d, cases >= 1)", MAXBEAM);
    int rc = lad_datapath_check(base, err);
    if (rc)
        return rc;
    memset(res, 0, sizeof *res);
    ctx *x = sp_ctx_new(base, cs, d, n);
    if (!x)
        return lad_errf(err, LAD_EINTERNAL, "out of memory");
    x->pk = pk;
    x->fixed = o.fixed;
    x->beamcap = o.beam;
    lad_case tmp;
    memset(&tmp, 0, sizeof tmp);
    beam_dims(x);
    /* the seeds' own values always belong */
    for (int s = 0; s < o.nseeds; s++)
        for (int i = 0; i < lad_nparams; i++)
            if (x->dims >> i & 1)
                sp_add_val(x, i, lad_param_get(sp_row(i), &o.seeds[s], base));
    data_nan(x);

    size_t p0 = o.prefix < n ? o.prefix : n;
    for (size_t i = 0; i < p0; i++)
        add_active(x, i);

    scored best[LAD_SEARCH_KEEP];
    int nbest = 0;
    /* A seed that reproduces every case is the answer (the staged sweep's,
    ** say): only the exploration of the models as good as it remains. */
    for (int s = 0; s < o.nseeds; s++) {
        scored sc = {sp_pvec_of(x, &o.seeds[s]), 0, 0, 0};
        sp_canon(x, &sc.p);
        lad_datapath dp;
        sp_apply(x, &sc.p, &dp);
        if (lad_datapath_check(&dp, NULL) != LAD_OK)
            continue;
        lad_plan pl;
        lad_plan_init(&pl, &dp);
        for (size_t c = 0; c < n && sc.miss == 0; c++)
            sc.miss += lad_plan_eval(&pl, sp_case_at(x, c, &tmp)) != d[c];
        if (sc.miss == 0) {
            sc.cplx = sp_complexity(x, &sc.p);
            keep_best(best, &nbest, &sc);
        }
    }
    for (int iter = 0; iter < MAXITER && nbest == 0; iter++) {
        sp_visit_clear(x);
        /* re-rank the previous beam on the grown active set */
        entry old[MAXBEAM];
        int nold = x->nbeam;
        memcpy(old, x->beam, sizeof(entry) * (size_t)nold);
        x->nbeam = 0;
        for (int i = 0; i < nold; i++)
            try_candidate(x, old[i].p);
        if (iter == 0) {
            try_candidate(x, x->basep);
            for (int s = 0; s < o.nseeds; s++)
                try_candidate(x, sp_pvec_of(x, &o.seeds[s]));
            grid(x);
        }
        descend(x);

        /* the survivors on every case; what they miss becomes active */
        size_t added = 0;
        for (int i = 0; i < x->nbeam; i++) {
            lad_datapath dp;
            sp_apply(x, &x->beam[i].p, &dp);
            scored s = {x->beam[i].p, 0, 0, x->beam[i].cplx};
            size_t mine = 0;
            lad_plan pl;
            lad_plan_init(&pl, &dp);
            for (size_t c = 0; c < n; c++) {
                lad_word_t got = lad_plan_eval(&pl, sp_case_at(x, c, &tmp));
                x->evals++;
                if (got == d[c])
                    continue;
                s.miss++;
                s.score += sp_case_score(x, got, d[c]);
                if (!x->inactive[c] && mine < 8 && added < 256) {
                    add_active(x, c);
                    mine++;
                    added++;
                }
            }
            keep_best(best, &nbest, &s);
        }
        if (nbest > 0 && best[0].miss == 0)
            break;
        if (added == 0)
            break;
    }

    for (int i = 0; i < nbest; i++) {
        sp_apply(x, &best[i].p, &res->best[i].dp);
        res->best[i].mismatches = best[i].miss;
    }
    res->nbest = nbest;
    res->base = *base;
    for (int i = 0; i < lad_nparams; i++)
        if (x->dims >> i & 1) {
            res->nvals[i] = x->nvals[i];
            memcpy(res->vals[i], x->vals[i], sizeof res->vals[i]);
        }
    if (nbest > 0)
        explore_equal(x, &best[0].p, best[0].miss, o.max_equal, res);
    res->evals = x->evals;
    res->active = x->nactive;
    sp_ctx_free(x);
    return LAD_OK;
}

int lad_search(const lad_datapath *base, const lad_case *cs, const lad_word_t *d,
               size_t n, const lad_search_opts *opts, lad_search_result *res,
               lad_err *err)
{
    return search(base, cs, NULL, d, n, opts, res, err);
}

int lad_search_packed(const lad_datapath *base, const lad_packed *pk, const lad_word_t *d,
                      const lad_search_opts *opts, lad_search_result *res, lad_err *err)
{
    return search(base, NULL, pk, d, pk->n, opts, res, err);
}

/* ---- reporting ------------------------------------------------------------- */

static int is_numeric(const lad_param *p)
{
    return p->type == LAD_PT_INT || p->type == LAD_PT_FLOOR;
}

static int cmp_int(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

int lad_search_undetermined(const lad_search_result *res, char *buf, size_t size)
{
    size_t len = 0;
    int count = 0;
    if (size)
        buf[0] = 0;
    for (int r = 0; r < lad_nparams; r++) {
        if (!res->nundet[r])
            continue;
        const lad_param *p = sp_row(r);
        count++;
        int64_t v[MAXV];
        int nv = 0;
        for (int i = 0; i < res->nvals[r]; i++)
            if (res->undet[r][i])
                v[nv++] = res->vals[r][i];
        if (is_numeric(p))
            qsort(v, (size_t)nv, sizeof v[0], cmp_int);
        char line[512];
        int ll = snprintf(line, sizeof line, "%s: ", p->key);
        for (int i = 0; i < nv && ll < (int)sizeof line - 40;) {
            int j = i;
            /* runs of consecutive integers (none sorts first, apart) */
            if (is_numeric(p) && v[i] != LAD_NOFLOOR)
                while (j + 1 < nv && v[j + 1] == v[j] + 1)
                    j++;
            char a[40], b[40];
            lad_param_code_text(p, &res->base, v[i], a, sizeof a);
            if (j >= i + 2) {
                lad_param_code_text(p, &res->base, v[j], b, sizeof b);
                ll += snprintf(line + ll, sizeof line - (size_t)ll, "%s%s..%s",
                               i ? "|" : "", a, b);
            } else {
                ll += snprintf(line + ll, sizeof line - (size_t)ll, "%s%s", i ? "|" : "", a);
                j = i;
            }
            i = j + 1;
        }
        if (len + (size_t)ll + 2 < size) {
            memcpy(buf + len, line, (size_t)ll);
            len += (size_t)ll;
            buf[len++] = '\n';
            buf[len] = 0;
        }
    }
    return count;
}
