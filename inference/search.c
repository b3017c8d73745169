/*
** The model search (search.h): a grid, a beam and an active set of cases.
**
** A model is a vector of dimension values (pvec) applied to the base
** datapath. Dimensions that cannot change the result of a model (acc when
** there is one pass and no double rounding, chain with one pass, in_round
** for containers no wider than their format, scale parameters of unscaled
** kinds) are reset to base's value, so that one model has one vector and
** the visited set never evaluates it twice.
**
** Scores: a case a model gets right scores 0; a wrong one scores 1 plus the
** bit length of the distance between the two words read as ordered
** integers (capped at 33). Summed over the active cases, this ranks "almost
** right" above "wrong", which is what lets a one-dimension-at-a-time search
** walk to the answer. Evaluation stops as soon as a model's score passes
** the worst one the beam still keeps.
*/
#include "search.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct pvec {
    int v[LAD_NDIM];
} pvec;

typedef struct entry {
    pvec p;
    uint64_t score;   /* on the active set */
    uint64_t miss;    /* mismatches on the active set */
} entry;

#define VISIT_SIZE (1u << 17)  /* first size of the visited set; it doubles */
#define MAXBEAM 64
#define MAXITER 12
#define MAXROUNDS 16

typedef struct ctx {
    const lad_datapath *base;
    const lad_case *cs;
    const uint32_t *d;
    size_t n;
    int kphys;
    uint32_t fixed;
    int nvals[LAD_NDIM];
    int vals[LAD_NDIM][LAD_DIM_MAXVALS];
    pvec basep;
    uint32_t nan;        /* the NaN word of the data (or base's) */
    int has_nan;
    /* distance reading of d words */
    int dsignbit;        /* bit of d's sign, -1 when none */
    int dint;            /* d is an integer format */
    uint32_t dmask;
    /* the active set */
    size_t *active;
    size_t nactive;
    unsigned char *inactive;  /* 1: case i is in the active set */
    uint64_t *visit;     /* hashes of evaluated vectors, 0 = empty */
    size_t nvslot;       /* slots of visit, a power of two */
    size_t nvisit;       /* hashes in it; kept below half of nvslot */
    uint64_t evals;
    entry beam[MAXBEAM];
    int nbeam, beamcap;
} ctx;

/* ---- dimensions ---------------------------------------------------------- */

static const char *const dim_names[LAD_NDIM] = {
    "window", "pass", "align_round", "d_round", "acc_round", "c_anchor",
    "chain", "acc", "d_via_acc", "anchor_min", "zero_floor", "in_round",
    "overflow", "group", "scale_floor", "cdom_window", "cdom_group",
    "cdom_per_group", "group_sub_floor", "saturate", "c_last", "order",
};

const char *lad_dim_name(int dim)
{
    return dim >= 0 && dim < LAD_NDIM ? dim_names[dim] : "?";
}

/* 1 when f is f32 or f32 with fewer fraction bits (e8mN). */
static int f32_family(const lad_format *f)
{
    return f->kind == LAD_FLOAT && f->width == 32 && f->sign == 1 && f->ebits == 8 &&
           f->bias == 127 && f->pad + f->mbits == 23 && f->sub == LAD_SUB_IEEE &&
           f->inf == LAD_INF_IEEE && f->nan == LAD_NAN_IEEE && f->mbits >= 1;
}

static lad_format e8m(int n)
{
    lad_format f = *lad_format_find("f32");
    if (n != 23)
        snprintf(f.name, sizeof f.name, "e8m%d", n);
    f.mbits = n;
    f.pad = 23 - n;
    return f;
}

/* Fills dp's lane order with pattern `which` (LAD_ORDER_*). */
static void set_order(lad_datapath *dp, const lad_datapath *base, int which)
{
    int kp = lad_datapath_kphys(dp), n = 0;
    if (which == LAD_ORDER_PHYSICAL) {
        dp->norder = 0;
        return;
    }
    if (which == LAD_ORDER_OTHER) {
        dp->norder = base->norder;
        memcpy(dp->order, base->order, sizeof dp->order);
        return;
    }
    for (int first = 1; first >= 0; first--)
        for (int k = 0; k < kp; k++) {
            int in = which == LAD_ORDER_REG4 ? k % 4 < 2 : k % 2 == 0;
            if (in == first)
                dp->order[n++] = (unsigned char)k;
        }
    dp->norder = n;
}

/* Which LAD_ORDER_* pattern dp's order is. */
static int get_order(const lad_datapath *dp)
{
    if (dp->norder == 0)
        return LAD_ORDER_PHYSICAL;
    lad_datapath t = *dp;
    for (int w = LAD_ORDER_REG4; w <= LAD_ORDER_EVEN; w++) {
        set_order(&t, dp, w);
        if (t.norder == dp->norder && memcmp(t.order, dp->order, (size_t)t.norder) == 0)
            return w;
    }
    return LAD_ORDER_OTHER;
}

int lad_dim_get(const lad_datapath *dp, int dim)
{
    switch (dim) {
    case LAD_DIM_WINDOW: return dp->window;
    case LAD_DIM_PASS: return dp->pass;
    case LAD_DIM_ALIGN_ROUND: return dp->align_round;
    case LAD_DIM_D_ROUND: return dp->d_round;
    case LAD_DIM_ACC_ROUND: return dp->acc_round;
    case LAD_DIM_C_ANCHOR: return dp->c_anchor;
    case LAD_DIM_CHAIN: return dp->chain;
    case LAD_DIM_ACC: return f32_family(&dp->acc) ? dp->acc.mbits : 0;
    case LAD_DIM_D_VIA_ACC: return dp->d_via_acc;
    case LAD_DIM_ANCHOR_MIN: return dp->anchor_min;
    case LAD_DIM_ZERO_FLOOR: return dp->zero_floor;
    case LAD_DIM_IN_ROUND: return dp->in_round;
    case LAD_DIM_OVERFLOW: return dp->overflow;
    case LAD_DIM_GROUP: return dp->group;
    case LAD_DIM_SCALE_FLOOR: return dp->scale_floor;
    case LAD_DIM_CDOM_WINDOW: return dp->cdom_window;
    case LAD_DIM_CDOM_GROUP: return dp->cdom_group;
    case LAD_DIM_CDOM_PER_GROUP: return dp->cdom_per_group;
    case LAD_DIM_GROUP_SUB_FLOOR: return dp->group_sub_floor;
    case LAD_DIM_SATURATE: return dp->saturate;
    case LAD_DIM_C_LAST: return dp->c_last;
    case LAD_DIM_ORDER: return get_order(dp);
    default: return 0;
    }
}

static void dim_set(lad_datapath *dp, const lad_datapath *base, int dim, int v)
{
    switch (dim) {
    case LAD_DIM_WINDOW: dp->window = v; break;
    case LAD_DIM_PASS: dp->pass = v; break;
    case LAD_DIM_ALIGN_ROUND: dp->align_round = v; break;
    case LAD_DIM_D_ROUND: dp->d_round = v; break;
    case LAD_DIM_ACC_ROUND: dp->acc_round = v; break;
    case LAD_DIM_C_ANCHOR: dp->c_anchor = v; break;
    case LAD_DIM_CHAIN: dp->chain = v; break;
    case LAD_DIM_ACC: dp->acc = v ? e8m(v) : base->acc; break;
    case LAD_DIM_D_VIA_ACC: dp->d_via_acc = v; break;
    case LAD_DIM_ANCHOR_MIN: dp->anchor_min = v; break;
    case LAD_DIM_ZERO_FLOOR: dp->zero_floor = v; break;
    case LAD_DIM_IN_ROUND: dp->in_round = v; break;
    case LAD_DIM_OVERFLOW: dp->overflow = v; break;
    case LAD_DIM_GROUP: dp->group = v; break;
    case LAD_DIM_SCALE_FLOOR: dp->scale_floor = v; break;
    case LAD_DIM_CDOM_WINDOW: dp->cdom_window = v; break;
    case LAD_DIM_CDOM_GROUP: dp->cdom_group = v; break;
    case LAD_DIM_CDOM_PER_GROUP: dp->cdom_per_group = v; break;
    case LAD_DIM_GROUP_SUB_FLOOR: dp->group_sub_floor = v; break;
    case LAD_DIM_SATURATE: dp->saturate = v; break;
    case LAD_DIM_C_LAST: dp->c_last = v; break;
    case LAD_DIM_ORDER: set_order(dp, base, v); break;
    default: break;
    }
}

const char *lad_dim_value(int dim, int value, char *buf, size_t size)
{
    static const char *const rounds[] = {"rz", "rne", "ru", "rd", "rna"};
    static const char *const ovfs[] = {"inf", "sat", "ieee"};
    switch (dim) {
    case LAD_DIM_ALIGN_ROUND: case LAD_DIM_D_ROUND: case LAD_DIM_ACC_ROUND:
    case LAD_DIM_IN_ROUND:
        snprintf(buf, size, "%s", value >= 0 && value < 5 ? rounds[value] : "?");
        break;
    case LAD_DIM_OVERFLOW:
        snprintf(buf, size, "%s", value >= 0 && value < 3 ? ovfs[value] : "?");
        break;
    case LAD_DIM_CHAIN:
        snprintf(buf, size, "%s", value ? "sum" : "chain");
        break;
    case LAD_DIM_ORDER: {
        static const char *const orders[] = {"physical", "k%4<2-first", "even-first", "given"};
        snprintf(buf, size, "%s", value >= 0 && value < 4 ? orders[value] : "?");
        break;
    }
    case LAD_DIM_ACC:
        if (value == 0)
            snprintf(buf, size, "base");
        else if (value == 23)
            snprintf(buf, size, "f32");
        else
            snprintf(buf, size, "e8m%d", value);
        break;
    case LAD_DIM_ANCHOR_MIN: case LAD_DIM_ZERO_FLOOR: case LAD_DIM_SCALE_FLOOR:
    case LAD_DIM_GROUP_SUB_FLOOR:
        if (value == LAD_NOFLOOR)
            snprintf(buf, size, "none");
        else
            snprintf(buf, size, "%d", value);
        break;
    default:
        snprintf(buf, size, "%d", value);
        break;
    }
    return buf;
}

/* Whether dimension dim can change what the model computes. */
static int relevant(const ctx *x, const pvec *p, int dim)
{
    const lad_datapath *b = x->base;
    if (x->nvals[dim] < 2)
        return 0;
    if (b->integer)
        return dim == LAD_DIM_SATURATE;
    int multi = p->v[LAD_DIM_PASS] < x->kphys;
    int scaled = b->scale_block > 0;
    switch (dim) {
    case LAD_DIM_SATURATE: return 0;
    case LAD_DIM_CHAIN: return 1;  /* sum adds C after even one pass */
    case LAD_DIM_ORDER: return multi;
    case LAD_DIM_ACC: case LAD_DIM_ACC_ROUND:
        return multi || p->v[LAD_DIM_D_VIA_ACC] || p->v[LAD_DIM_CHAIN] == LAD_SUM ||
               p->v[LAD_DIM_C_LAST];
    case LAD_DIM_IN_ROUND: return b->a.pad > 0 || b->b.pad > 0;
    case LAD_DIM_GROUP: case LAD_DIM_SCALE_FLOOR: case LAD_DIM_CDOM_WINDOW:
    case LAD_DIM_GROUP_SUB_FLOOR:
        return scaled;
    case LAD_DIM_CDOM_GROUP: return scaled && p->v[LAD_DIM_CDOM_WINDOW] > 0;
    case LAD_DIM_CDOM_PER_GROUP:
        return scaled && p->v[LAD_DIM_CDOM_WINDOW] > 0 && p->v[LAD_DIM_GROUP] > 1;
    default: return 1;
    }
}

/* Resets the dimensions that do not matter to base's values. */
static void canon(const ctx *x, pvec *p)
{
    for (int d = 0; d < LAD_NDIM; d++)
        if (!relevant(x, p, d))
            p->v[d] = x->basep.v[d];
}

static void apply(const ctx *x, const pvec *p, lad_datapath *dp)
{
    *dp = *x->base;
    for (int d = 0; d < LAD_NDIM; d++)
        dim_set(dp, x->base, d, p->v[d]);
    if (x->has_nan)
        dp->nan = x->nan;
}

static uint64_t phash(const pvec *p)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (int d = 0; d < LAD_NDIM; d++) {
        h ^= (uint32_t)p->v[d];
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
static void visit_clear(ctx *x)
{
    memset(x->visit, 0, sizeof(uint64_t) * x->nvslot);
    x->nvisit = 0;
}

/* Marks p visited; returns 1 when it was new. The set doubles when half
** full, so that a probe stays short however long the search runs. */
static int visit(ctx *x, const pvec *p)
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
    int fresh = vset_put(x->visit, x->nvslot, phash(p));
    x->nvisit += (size_t)fresh;
    return fresh;
}

static void add_val(ctx *x, int dim, int v)
{
    for (int i = 0; i < x->nvals[dim]; i++)
        if (x->vals[dim][i] == v)
            return;
    if (x->nvals[dim] < LAD_DIM_MAXVALS)
        x->vals[dim][x->nvals[dim]++] = v;
}

/* Lowest raw exponent a nonzero product can have. */
static int product_raw_lo(const lad_datapath *b)
{
    int lo = 0;
    const lad_format *fs[4] = {&b->a, &b->b, &b->sa, &b->sb};
    int nf = b->scale_block > 0 ? 4 : 2;
    for (int i = 0; i < nf; i++) {
        const lad_format *f = fs[i];
        lo += f->sub == LAD_SUB_NONE ? -f->bias : 1 - f->bias;
    }
    return lo;
}

static void build_dims(ctx *x, const lad_search_opts *o)
{
    const lad_datapath *b = x->base;
    for (int d = 0; d < LAD_NDIM; d++)
        x->basep.v[d] = lad_dim_get(b, d);
    for (int w = 8; w <= 40; w++)
        add_val(x, LAD_DIM_WINDOW, w);
    for (int l = 1; l <= x->kphys; l++)
        if (x->kphys % l == 0)
            add_val(x, LAD_DIM_PASS, l);
    add_val(x, LAD_DIM_ALIGN_ROUND, LAD_RZ);
    add_val(x, LAD_DIM_ALIGN_ROUND, LAD_RD);
    add_val(x, LAD_DIM_ALIGN_ROUND, LAD_RNE);
    int rounds[] = {LAD_RZ, LAD_RNE, LAD_RU, LAD_RD};
    for (int i = 0; i < 4; i++) {
        add_val(x, LAD_DIM_D_ROUND, rounds[i]);
        add_val(x, LAD_DIM_ACC_ROUND, rounds[i]);
    }
    for (int i = 0; i < 2; i++) {
        add_val(x, LAD_DIM_C_ANCHOR, i);
        add_val(x, LAD_DIM_CHAIN, i);
        add_val(x, LAD_DIM_D_VIA_ACC, i);
        add_val(x, LAD_DIM_SATURATE, i);
        add_val(x, LAD_DIM_C_LAST, i);
    }
    add_val(x, LAD_DIM_ORDER, LAD_ORDER_PHYSICAL);
    if (x->kphys % 4 == 0 && x->kphys >= 4)
        add_val(x, LAD_DIM_ORDER, LAD_ORDER_REG4);
    if (x->kphys % 2 == 0 && x->kphys >= 2)
        add_val(x, LAD_DIM_ORDER, LAD_ORDER_EVEN);
    if (!f32_family(&b->acc))
        add_val(x, LAD_DIM_ACC, 0);
    for (int nb = 23; nb >= 10; nb--)
        add_val(x, LAD_DIM_ACC, nb);
    /* Floors only where they can bind: above the lowest product exponent. */
    int plo = product_raw_lo(b);
    add_val(x, LAD_DIM_ANCHOR_MIN, LAD_NOFLOOR);
    add_val(x, LAD_DIM_ZERO_FLOOR, LAD_NOFLOOR);
    for (int f = -126; f >= -160; f--)
        if (f > plo) {
            add_val(x, LAD_DIM_ANCHOR_MIN, f);
            add_val(x, LAD_DIM_ZERO_FLOOR, f);
        }
    add_val(x, LAD_DIM_IN_ROUND, LAD_RZ);
    add_val(x, LAD_DIM_IN_ROUND, LAD_RNE);
    add_val(x, LAD_DIM_IN_ROUND, LAD_RNA);
    add_val(x, LAD_DIM_OVERFLOW, LAD_OVF_INF);
    add_val(x, LAD_DIM_OVERFLOW, LAD_OVF_SAT);
    add_val(x, LAD_DIM_OVERFLOW, LAD_OVF_IEEE);
    if (b->scale_block > 0) {
        for (int g = 1; g <= 64 && g <= b->scale_block; g *= 2)
            if (b->scale_block % g == 0) {
                add_val(x, LAD_DIM_GROUP, g);
                if (g >= 4)
                    add_val(x, LAD_DIM_CDOM_GROUP, g);
            }
        add_val(x, LAD_DIM_SCALE_FLOOR, LAD_NOFLOOR);
        add_val(x, LAD_DIM_CDOM_WINDOW, 0);
        for (int f = 20; f <= 45; f++) {
            add_val(x, LAD_DIM_SCALE_FLOOR, f);
            add_val(x, LAD_DIM_CDOM_WINDOW, f);
        }
        add_val(x, LAD_DIM_CDOM_PER_GROUP, 0);
        add_val(x, LAD_DIM_CDOM_PER_GROUP, 1);
        add_val(x, LAD_DIM_GROUP_SUB_FLOOR, LAD_NOFLOOR);
        for (int f = -165; f >= -185; f--)
            add_val(x, LAD_DIM_GROUP_SUB_FLOOR, f);
    }
    /* base's and the seeds' own values always belong */
    for (int d = 0; d < LAD_NDIM; d++) {
        add_val(x, d, x->basep.v[d]);
        for (int s = 0; s < o->nseeds; s++)
            add_val(x, d, lad_dim_get(&o->seeds[s], d));
    }
}

/* ---- scoring --------------------------------------------------------------- */

static int64_t ordered(const ctx *x, uint32_t w)
{
    w &= x->dmask;
    if (x->dint) {
        if (x->dsignbit >= 0 && (w >> x->dsignbit) & 1)
            return (int64_t)w - ((int64_t)1 << (x->dsignbit + 1));
        return (int64_t)w;
    }
    if (x->dsignbit >= 0 && (w >> x->dsignbit) & 1)
        return -(int64_t)(w & ~(1u << x->dsignbit));
    return (int64_t)w;
}

static uint64_t case_score(const ctx *x, uint32_t got, uint32_t want)
{
    if (got == want)
        return 0;
    int64_t a = ordered(x, got), b = ordered(x, want);
    uint64_t dist = a > b ? (uint64_t)(a - b) : (uint64_t)(b - a);
    int bits = dist ? 64 - __builtin_clzll(dist) : 0;
    return 1 + (uint64_t)(bits > 32 ? 32 : bits);
}

/* Score of p over idx[0..m-1], stopping once it exceeds limit; *miss gets
** the mismatches counted so far. */
static uint64_t score_on(ctx *x, const lad_datapath *dp, const size_t *idx,
                         size_t m, uint64_t limit, uint64_t *miss)
{
    uint64_t s = 0, mm = 0;
    lad_plan pl;
    lad_plan_init(&pl, dp);
    for (size_t i = 0; i < m; i++) {
        size_t c = idx[i];
        uint32_t got = lad_plan_eval(&pl, &x->cs[c]);
        x->evals++;
        if (got != x->d[c]) {
            mm++;
            s += case_score(x, got, x->d[c]);
            if (s > limit)
                break;
        }
    }
    *miss = mm;
    return s;
}

/* ---- the beam -------------------------------------------------------------- */

static uint64_t beam_limit(const ctx *x)
{
    return x->nbeam < x->beamcap ? UINT64_MAX : x->beam[x->nbeam - 1].score;
}

static int entry_less(const entry *a, const entry *b)
{
    if (a->score != b->score)
        return a->score < b->score;
    return phash(&a->p) < phash(&b->p);
}

/* Inserts e when it ranks among the beam's best; returns 1 when inserted. */
static int beam_insert(ctx *x, const entry *e)
{
    if (x->nbeam == x->beamcap && !entry_less(e, &x->beam[x->nbeam - 1]))
        return 0;
    int i = x->nbeam < x->beamcap ? x->nbeam++ : x->nbeam - 1;
    while (i > 0 && entry_less(e, &x->beam[i - 1])) {
        x->beam[i] = x->beam[i - 1];
        i--;
    }
    x->beam[i] = *e;
    return 1;
}

/* Evaluates candidate p on the active set and offers it to the beam. */
static int try_candidate(ctx *x, pvec p)
{
    canon(x, &p);
    if (!visit(x, &p))
        return 0;
    lad_datapath dp;
    apply(x, &p, &dp);
    if (lad_datapath_check(&dp, NULL) != LAD_OK)
        return 0;
    entry e;
    e.p = p;
    uint64_t lim = beam_limit(x);
    e.score = score_on(x, &dp, x->active, x->nactive, lim, &e.miss);
    if (e.score > lim)
        return 0;
    return beam_insert(x, &e);
}

/* Number of fraction bits the data shows D keeps: d's mbits less the
** trailing zero bits every normal D word has (0 when no word says). */
static int output_bits(const ctx *x)
{
    const lad_format *f = &x->base->d;
    if (f->kind != LAD_FLOAT || !f32_family(f))
        return 0;
    int tz = f->mbits, seen = 0;
    for (size_t i = 0; i < x->n; i++) {
        lad_value v = lad_decode(f, x->d[i]);
        if (v.cls != LAD_NORMAL)
            continue;
        uint32_t frac = (uint32_t)v.mag & ((1u << f->mbits) - 1);
        int t = frac ? __builtin_ctz(frac) : f->mbits;
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
    static const int gdims[] = {LAD_DIM_WINDOW, LAD_DIM_PASS, LAD_DIM_ALIGN_ROUND,
                                LAD_DIM_D_ROUND, LAD_DIM_C_ANCHOR, LAD_DIM_CHAIN,
                                LAD_DIM_ACC_ROUND, LAD_DIM_C_LAST};
    enum { NG = sizeof gdims / sizeof gdims[0] };
    int cut = output_bits(x);
    if (cut)
        add_val(x, LAD_DIM_ACC, cut);
    int nout = cut && !(x->fixed & (1u << LAD_DIM_ACC)) ? 2 : 1;
    int cnt[NG], at[NG];
    for (int g = 0; g < NG; g++) {
        int d = gdims[g];
        cnt[g] = (x->fixed & (1u << d)) || x->base->integer ? 1 : x->nvals[d];
        at[g] = 0;
    }
    for (int out = 0; out < nout; out++) {
        for (int g = 0; g < NG; g++)
            at[g] = 0;
        for (;;) {
            pvec p = x->basep;
            for (int g = 0; g < NG; g++)
                if (cnt[g] > 1)
                    p.v[gdims[g]] = x->vals[gdims[g]][at[g]];
            if (out) {
                p.v[LAD_DIM_ACC] = cut;
                p.v[LAD_DIM_D_VIA_ACC] = 1;
            }
            try_candidate(x, p);
            int g = NG - 1;
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
        for (int i = 0; i < ns; i++) {
            for (int d = 0; d < LAD_NDIM; d++) {
                if ((x->fixed & (1u << d)) || !relevant(x, &snap[i].p, d))
                    continue;
                for (int j = 0; j < x->nvals[d]; j++) {
                    pvec p = snap[i].p;
                    if (p.v[d] == x->vals[d][j])
                        continue;
                    p.v[d] = x->vals[d][j];
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

/* ---- the search ------------------------------------------------------------ */

uint64_t lad_search_count(const lad_datapath *dp, const lad_case *cs,
                          const uint32_t *d, size_t n)
{
    uint64_t m = 0;
    lad_plan pl;
    lad_plan_init(&pl, dp);
    for (size_t i = 0; i < n; i++)
        if (lad_plan_eval(&pl, &cs[i]) != d[i])
            m++;
    return m;
}

typedef struct scored {
    pvec p;
    uint64_t miss;    /* over every case */
    uint64_t score;
} scored;

static int scored_less(const scored *a, const scored *b)
{
    return a->miss != b->miss ? a->miss < b->miss : a->score < b->score;
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
    uint32_t words[8];
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

/* Records the values of p's dimensions that matter. */
static void mark(const ctx *x, const pvec *p, lad_search_result *res)
{
    for (int d = 0; d < LAD_NDIM; d++) {
        if (!relevant(x, p, d))
            continue;
        for (int j = 0; j < x->nvals[d]; j++)
            if (x->vals[d][j] == p->v[d])
                res->undet[d] |= 1ull << j;
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
    visit_clear(x);
    int nq = 0;
    pvec b = *best;
    canon(x, &b);
    queue[nq++] = b;
    visit(x, &b);
    mark(x, &b, res);
    for (int qi = 0; qi < nq; qi++) {
        pvec cur = queue[qi];
        for (int d = 0; d < LAD_NDIM; d++) {
            if ((x->fixed & (1u << d)) || !relevant(x, &cur, d))
                continue;
            for (int j = 0; j < x->nvals[d]; j++) {
                pvec p = cur;
                if (p.v[d] == x->vals[d][j])
                    continue;
                p.v[d] = x->vals[d][j];
                canon(x, &p);
                if (!visit(x, &p))
                    continue;
                lad_datapath dp;
                apply(x, &p, &dp);
                if (lad_datapath_check(&dp, NULL) != LAD_OK)
                    continue;
                uint64_t miss = 0;
                lad_plan pl;
                lad_plan_init(&pl, &dp);
                for (size_t i = 0; i < no && miss <= target; i++) {
                    x->evals++;
                    if (lad_plan_eval(&pl, &x->cs[order[i]]) != x->d[order[i]])
                        miss++;
                }
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
    /* a dimension with one value among them is determined */
    for (int d = 0; d < LAD_NDIM; d++)
        if (__builtin_popcountll(res->undet[d]) < 2)
            res->undet[d] = 0;
    res->nequal = nq;
    free(order);
    free(queue);
}

int lad_search(const lad_datapath *base, const lad_case *cs, const uint32_t *d,
               size_t n, const lad_search_opts *opts, lad_search_result *res,
               lad_err *err)
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

    ctx *x = calloc(1, sizeof *x);
    if (!x)
        return lad_errf(err, LAD_EINTERNAL, "out of memory");
    x->base = base;
    x->cs = cs;
    x->d = d;
    x->n = n;
    x->kphys = lad_datapath_kphys(base);
    x->fixed = o.fixed;
    x->beamcap = o.beam;
    x->active = malloc(sizeof(size_t) * n);
    x->inactive = calloc(n, 1);
    x->visit = calloc(VISIT_SIZE, sizeof(uint64_t));
    x->nvslot = VISIT_SIZE;
    if (!x->active || !x->inactive || !x->visit) {
        rc = lad_errf(err, LAD_EINTERNAL, "out of memory");
        goto done;
    }
    const lad_format *df = &base->d;
    x->dint = df->kind == LAD_INT;
    x->dmask = df->width >= 32 ? 0xffffffffu : (1u << df->width) - 1;
    x->dsignbit = !df->sign ? -1 : x->dint ? df->width - 1 : df->pad + df->ebits + df->mbits;
    build_dims(x, &o);
    data_nan(x);

    size_t p0 = o.prefix < n ? o.prefix : n;
    for (size_t i = 0; i < p0; i++)
        add_active(x, i);

    scored best[LAD_SEARCH_KEEP];
    int nbest = 0;
    for (int iter = 0; iter < MAXITER; iter++) {
        visit_clear(x);
        /* re-rank the previous beam on the grown active set */
        entry old[MAXBEAM];
        int nold = x->nbeam;
        memcpy(old, x->beam, sizeof(entry) * (size_t)nold);
        x->nbeam = 0;
        for (int i = 0; i < nold; i++)
            try_candidate(x, old[i].p);
        if (iter == 0) {
            try_candidate(x, x->basep);
            for (int s = 0; s < o.nseeds; s++) {
                pvec p;
                for (int dd = 0; dd < LAD_NDIM; dd++)
                    p.v[dd] = lad_dim_get(&o.seeds[s], dd);
                try_candidate(x, p);
            }
            grid(x);
        }
        descend(x);

        /* the survivors on every case; what they miss becomes active */
        size_t added = 0;
        for (int i = 0; i < x->nbeam; i++) {
            lad_datapath dp;
            apply(x, &x->beam[i].p, &dp);
            scored s = {x->beam[i].p, 0, 0};
            size_t mine = 0;
            lad_plan pl;
            lad_plan_init(&pl, &dp);
            for (size_t c = 0; c < n; c++) {
                uint32_t got = lad_plan_eval(&pl, &cs[c]);
                x->evals++;
                if (got == d[c])
                    continue;
                s.miss++;
                s.score += case_score(x, got, d[c]);
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
        apply(x, &best[i].p, &res->best[i].dp);
        res->best[i].mismatches = best[i].miss;
    }
    res->nbest = nbest;
    memcpy(res->nvals, x->nvals, sizeof res->nvals);
    memcpy(res->vals, x->vals, sizeof res->vals);
    if (nbest > 0)
        explore_equal(x, &best[0].p, best[0].miss, o.max_equal, res);
    res->evals = x->evals;
    res->active = x->nactive;
    rc = LAD_OK;
done:
    free(x->active);
    free(x->inactive);
    free(x->visit);
    free(x);
    return rc;
}

/* ---- reporting ------------------------------------------------------------- */

static int is_numeric_dim(int d)
{
    return d == LAD_DIM_WINDOW || d == LAD_DIM_PASS || d == LAD_DIM_ACC ||
           d == LAD_DIM_ANCHOR_MIN || d == LAD_DIM_ZERO_FLOOR || d == LAD_DIM_GROUP ||
           d == LAD_DIM_SCALE_FLOOR || d == LAD_DIM_CDOM_WINDOW || d == LAD_DIM_CDOM_GROUP ||
           d == LAD_DIM_GROUP_SUB_FLOOR;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

int lad_search_undetermined(const lad_search_result *res, char *buf, size_t size)
{
    size_t len = 0;
    int count = 0;
    if (size)
        buf[0] = 0;
    for (int d = 0; d < LAD_NDIM; d++) {
        if (!res->undet[d])
            continue;
        count++;
        int v[LAD_DIM_MAXVALS], nv = 0;
        for (int i = 0; i < res->nvals[d]; i++)
            if (res->undet[d] >> i & 1)
                v[nv++] = res->vals[d][i];
        if (is_numeric_dim(d))
            qsort(v, (size_t)nv, sizeof v[0], cmp_int);
        char line[512];
        int ll = snprintf(line, sizeof line, "%s: ", lad_dim_name(d));
        for (int i = 0; i < nv && ll < (int)sizeof line - 40;) {
            int j = i;
            /* runs of consecutive integers (none sorts first, apart) */
            if (is_numeric_dim(d) && v[i] != LAD_NOFLOOR)
                while (j + 1 < nv && v[j + 1] == v[j] + 1)
                    j++;
            char a[24], b[24];
            lad_dim_value(d, v[i], a, sizeof a);
            if (j >= i + 2) {
                lad_dim_value(d, v[j], b, sizeof b);
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
