/*
** The search space (space.h): candidates, models as vectors, the visited
** set, the scorer and the context the strategies share.
*/
#include "space.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const lad_param *sp_row(int i)
{
    return &lad_params[i];
}

/* ---- candidates ---------------------------------------------------------- */

void sp_add_val(ctx *x, int i, int64_t v)
{
    for (int j = 0; j < x->nvals[i]; j++)
        if (x->vals[i][j] == v)
            return;
    if (x->nvals[i] < MAXV)
        x->vals[i][x->nvals[i]++] = v;
}

/* The candidates of every row (the registry's), the NaN words the data
** holds for nan, and base's own values. */
void sp_build_cands(ctx *x)
{
    const lad_datapath *b = x->base;
    for (int i = 0; i < lad_nparams && i < NP; i++) {
        x->nvals[i] = lad_param_cands(sp_row(i), b, x->vals[i], MAXV);
        x->basep.v[i] = lad_param_get(sp_row(i), b, b);
        if (x->nvals[i] > 0)
            sp_add_val(x, i, x->basep.v[i]);
    }
    if (x->nvals[LAD_P_nan] > 0)
        for (size_t c = 0; c < x->n; c++)
            if (lad_decode(&b->d, x->d[c]).cls == LAD_NAN)
                sp_add_val(x, LAD_P_nan, (int64_t)x->d[c]);
}

/* ---- models ------------------------------------------------------------- */

void sp_apply(const ctx *x, const pvec *p, lad_datapath *dp)
{
    *dp = *x->base;
    /* a row at base's value is base's field already */
    for (int i = 0; i < lad_nparams; i++)
        if ((x->dims >> i & 1) && p->v[i] != x->basep.v[i])
            lad_param_set(sp_row(i), dp, x->base, p->v[i]);
    if (x->has_nan)
        dp->nan = x->nan;
}

/* Whether row i can change what the model p computes. */
int sp_relevant(const ctx *x, const lad_datapath *dp, int i)
{
    return (x->dims >> i & 1) && x->nvals[i] >= 2 && lad_param_matters(sp_row(i), dp);
}

/* Resets the rows that do not matter to base's values. */
void sp_canon(const ctx *x, pvec *p)
{
    lad_datapath dp;
    sp_apply(x, p, &dp);
    for (int i = 0; i < lad_nparams; i++)
        if (!sp_relevant(x, &dp, i))
            p->v[i] = x->basep.v[i];
}

/* How many rows of p differ from their defaults: among models that score
** the same, the simpler one ranks first (Occam, inside the search). */
int sp_complexity(const ctx *x, const pvec *p)
{
    int c = 0;
    for (int i = 0; i < lad_nparams; i++)
        c += (x->dims >> i & 1) && p->v[i] != x->defp.v[i];
    return c;
}

uint64_t sp_phash(const ctx *x, const pvec *p)
{
    (void)x;
    uint64_t h = 0xcbf29ce484222325ull;
    for (int i = 0; i < lad_nparams; i++) {
        h ^= (uint64_t)p->v[i];
        h *= 0x100000001b3ull;
        h ^= h >> 29;
    }
    return h ? h : 1;
}

/* Puts h into the open-addressed set of size slots (a power of two, not
** full); returns 1 when it was new. */
static int vset_put(uint64_t *set, size_t size, uint64_t h)
{
    for (size_t i = (size_t)(h >> 20) & (size - 1);; i = (i + 1) & (size - 1)) {
        if (set[i] == h)
            return 0;
        if (set[i] == 0) {
            set[i] = h;
            return 1;
        }
    }
}

/* Forgets every visited vector. */
void sp_visit_clear(ctx *x)
{
    memset(x->visit, 0, sizeof(uint64_t) * x->nvslot);
    x->nvisit = 0;
}

/* Marks p visited; returns 1 when it was new. The set doubles when half
** full, so that a probe stays short however long the search runs. */
int sp_visit(ctx *x, const pvec *p)
{
    if (2 * (x->nvisit + 1) > x->nvslot) {
        size_t size = 2 * x->nvslot;
        uint64_t *set = calloc(size, sizeof(uint64_t));
        if (set) {
            for (size_t i = 0; i < x->nvslot; i++)
                if (x->visit[i])
                    vset_put(set, size, x->visit[i]);
            free(x->visit);
            x->visit = set;
            x->nvslot = size;
        } else if (x->nvisit + 1 >= x->nvslot) {
            return 1;  /* out of memory and full: evaluate again rather than fail */
        }
    }
    int fresh = vset_put(x->visit, x->nvslot, sp_phash(x, p));
    x->nvisit += (size_t)fresh;
    return fresh;
}

/* ---- scoring --------------------------------------------------------------- */

static int64_t ordered(const ctx *x, lad_word_t w)
{
    w &= x->dmask;
    if (x->dint) {
        if (x->dsignbit >= 0 && (w >> x->dsignbit) & 1)
            return (int64_t)(w | ~x->dmask);  /* sign-extended */
        return (int64_t)w;
    }
    if (x->dsignbit >= 0 && (w >> x->dsignbit) & 1)
        return -(int64_t)(w & ~((lad_word_t)1 << x->dsignbit));
    return (int64_t)w;
}

uint64_t sp_case_score(const ctx *x, lad_word_t got, lad_word_t want)
{
    if (got == want)
        return 0;
    int64_t a = ordered(x, got), b = ordered(x, want);
    uint64_t dist = a > b ? (uint64_t)(a - b) : (uint64_t)(b - a);
    int bits = dist ? 64 - __builtin_clzll(dist) : 0;
    return 1 + (uint64_t)(bits > 32 ? 32 : bits);
}


/*
** The score of dp over the cases idx[0..m-1] that lie below end: a miss
** counts 1 (COUNT) or its case_score (GRADED). Stops as soon as the score
** exceeds limit. With REORDER, a missed case moves one place toward the
** front of idx, or into its first HOT places (*hotnext says which one
** next). *miss, when not NULL, gets the mismatches counted.
*/
/* Case c, from the array or unpacked into *tmp (zeroed by the caller once:
** lad_packed_get writes only the lanes the case has). */
const lad_case *sp_case_at(const ctx *x, size_t c, lad_case *tmp)
{
    if (!x->pk)
        return &x->cs[c];
    lad_packed_get(x->pk, c, tmp);
    return tmp;
}

uint64_t sp_score(ctx *x, const lad_datapath *dp, size_t *idx, size_t m, size_t end,
                      uint64_t limit, int how, int *hotnext, uint64_t *miss)
{
    uint64_t s = 0, mm = 0;
    lad_plan pl;
    lad_plan_init(&pl, dp);
    lad_case tmp;
    if (x->pk)
        memset(&tmp, 0, sizeof tmp);
    for (size_t i = 0; i < m; i++) {
        size_t c = idx[i];
        if (c >= end)
            continue;
        lad_word_t got = lad_plan_eval(&pl, sp_case_at(x, c, &tmp));
        x->evals++;
        if (got == x->d[c])
            continue;
        mm++;
        s += how & GRADED ? sp_case_score(x, got, x->d[c]) : 1;
        if (how & REORDER && i > 0) {
            size_t to = i < HOT ? i - 1 : (size_t)(*hotnext)++ % HOT;
            idx[i] = idx[to];
            idx[to] = c;
        }
        if (s > limit)
            break;
    }
    if (miss)
        *miss = mm;
    return s;
}

uint64_t lad_search_count(const lad_datapath *dp, const lad_case *cs,
                          const lad_word_t *d, size_t n)
{
    uint64_t m = 0;
    lad_plan pl;
    lad_plan_init(&pl, dp);
    for (size_t i = 0; i < n; i++)
        if (lad_plan_eval(&pl, &cs[i]) != d[i])
            m++;
    return m;
}

/* ---- the context ------------------------------------------------------------ */

ctx *sp_ctx_new(const lad_datapath *base, const lad_case *cs, const lad_word_t *d, size_t n)
{
    ctx *x = calloc(1, sizeof *x);
    if (!x)
        return NULL;
    x->base = base;
    x->cs = cs;
    x->d = d;
    x->n = n;
    x->kphys = lad_datapath_kphys(base);
    x->active = malloc(sizeof(size_t) * (n + 1));
    x->inactive = calloc(n + 1, 1);
    x->visit = calloc(VISIT_SIZE, sizeof(uint64_t));
    x->nvslot = VISIT_SIZE;
    if (!x->active || !x->inactive || !x->visit) {
        free(x->active);
        free(x->inactive);
        free(x->visit);
        free(x);
        return NULL;
    }
    const lad_format *df = &base->d;
    x->dint = df->kind == LAD_INT;
    x->dmask = df->width >= 64 ? ~(lad_word_t)0 : ((lad_word_t)1 << df->width) - 1;
    x->dsignbit = !df->sign ? -1 : x->dint ? df->width - 1 : df->pad + df->ebits + df->mbits;
    sp_build_cands(x);
    lad_datapath def;
    lad_datapath_init(&def);
    for (int i = 0; i < lad_nparams; i++) {
        const lad_param *p = sp_row(i);
        /* the instruction's own fields are base's; the arithmetic defaults */
        x->defp.v[i] = p->cands ? lad_param_get(p, &def, base) : x->basep.v[i];
        if (x->nvals[i] > 0)
            x->dims |= 1ull << i;
        /* insertion into the rows sorted by key */
        int at = i;
        while (at > 0 && strcmp(sp_row(x->byname[at - 1])->key, p->key) > 0) {
            x->byname[at] = x->byname[at - 1];
            at--;
        }
        x->byname[at] = i;
    }
    return x;
}

void sp_ctx_free(ctx *x)
{
    if (!x)
        return;
    free(x->active);
    free(x->inactive);
    free(x->visit);
    free(x);
}

pvec sp_pvec_of(const ctx *x, const lad_datapath *dp)
{
    pvec p = x->basep;
    for (int i = 0; i < lad_nparams; i++)
        if (x->dims >> i & 1)
            p.v[i] = lad_param_get(sp_row(i), dp, x->base);
    return p;
}
