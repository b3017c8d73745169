/*
** The parameter registry (params.h): the rows expanded from params.def,
** the functions they name (candidates, "can it matter"), and the values
** of a row: default, legal set, get, set, print. The rows are in the
** order a model file lists them (the writer walks them in this order).
**
** Candidate ranges, one per parameter, cover every value measured so far
** with room on both sides (docs/datapaths.md):
**   window 8..48 (seen: 13..39); roundings of a pass result and of D rz,
**   rne, ru, rd (ties away, rna, is legal there but seen only where tf32
**   is cut from f32, in_round rz, rne, rna; asking it of both roundings
**   doubles the fp8 fits' sweeps, so it is left out); anchor floors (zero_floor, anchor_min) none or
**   -160..-110 where they can bind (seen: -133); group_sub_floor none or
**   -190..-160 (seen: -174); scale_floor and
**   cdom_window 0..60 (seen: 35); group sizes powers of two within a scale
**   block; accumulators f32 cut to 23..10 fraction bits (seen: 23, 13),
**   f16, bf16 and the declared result format; lane orders physical, even
**   lanes first (stride 1) and lanes k % 4 < 2 first (stride 2, seen: fp8
**   mma.sync on sm_90a).
*/
#include "params.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

const char *const lad_round_names[] = {"rz", "rne", "ru", "rd", "rna", NULL};
const char *const lad_ovf_names[] = {"inf", "sat", "ieee", NULL};
const char *const lad_chain_names[] = {"chain", "sum", NULL};
const char *const lad_sparse_names[] = {"none", "1of2", "2of4", "pairs8", NULL};

/* Here rather than in datapath.c, which calls into this file: the rows k
** and sparse decide it, and the rules below read it. */
int lad_datapath_kphys(const lad_datapath *dp)
{
    return dp->sparse ? dp->k / 2 : dp->k;
}

/* ---- formats and lane orders --------------------------------------------- */

lad_format lad_format_cut(const lad_format *f, int m)
{
    lad_format c = *f;
    if (m == f->mbits)
        return c;
    c.pad = f->pad + f->mbits - m;
    c.mbits = m;
    snprintf(c.name, sizeof c.name, "e%dm%d", f->ebits, m);
    return c;
}

int lad_format_f32_family(const lad_format *f)
{
    return f->kind == LAD_FLOAT && f->width == 32 && f->sign == 1 && f->ebits == 8 &&
           f->bias == 127 && f->pad + f->mbits == 23 && f->sub == LAD_SUB_IEEE &&
           f->inf == LAD_INF_IEEE && f->nan == LAD_NAN_IEEE && f->mbits >= 1;
}

static int same_format(const lad_format *x, const lad_format *y)
{
    return memcmp(x, y, sizeof *x) == 0;
}

void lad_order_set_stride(lad_datapath *dp, int r)
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

/* The stride of dp's lane order, 0 for physical order, LAD_PV_OTHER when no
** stride gives it. */
static int order_stride(const lad_datapath *dp)
{
    if (dp->norder == 0)
        return 0;
    for (int r = 1; r < dp->norder; r *= 2) {
        lad_datapath t = *dp;
        lad_order_set_stride(&t, r);
        if (t.norder == dp->norder && memcmp(t.order, dp->order, (size_t)dp->norder) == 0)
            return r;
    }
    return LAD_PV_OTHER;
}

/* ---- candidates ------------------------------------------------------------ */

typedef struct clist {
    int64_t *v;
    int n, max;
} clist;

static void add(clist *c, int64_t x)
{
    for (int i = 0; i < c->n; i++)
        if (c->v[i] == x)
            return;
    if (c->n < c->max)
        c->v[c->n++] = x;
}

static void add_range(clist *c, int lo, int hi)
{
    for (int x = lo; x <= hi; x++)
        add(c, x);
}

/* Lowest raw exponent (of the field) a nonzero term of the window can
** have: a product (scales included), the addend C, or a pass result in
** acc (any cut of f32 shares its exponents). An anchor floor at or below it
** never binds: the anchor is the largest exponent of the nonzero terms, and
** when every term is zero the sum is zero whatever the anchor. */
static int lowest_anchor(const lad_datapath *b)
{
    int lo = 0;
    const lad_format *fs[4] = {&b->a, &b->b, &b->sa, &b->sb};
    int nf = b->scale_block > 0 ? 4 : 2;
    for (int i = 0; i < nf; i++)
        lo += fs[i]->sub == LAD_SUB_NONE ? -fs[i]->bias : 1 - fs[i]->bias;
    const lad_format *more[2] = {&b->c, lad_format_find("f32")};
    for (int i = 0; i < 2; i++) {
        int e = more[i]->sub == LAD_SUB_NONE ? -more[i]->bias : 1 - more[i]->bias;
        if (e < lo)
            lo = e;
    }
    return lo;
}

#define CANDS(name) static int name(const lad_param *p, const lad_datapath *b, int64_t *v, int max)
#define BEGIN clist c = {v, 0, max}; (void)p
#define FLOAT_ONLY if (b->integer) return 0
#define SCALED_ONLY if (b->integer || b->scale_block <= 0) return 0

static int list(clist *c, const int *xs, int n)
{
    for (int i = 0; i < n; i++)
        add(c, xs[i]);
    return c->n;
}

CANDS(c_bool) { BEGIN; FLOAT_ONLY; add(&c, 0); add(&c, 1); return c.n; }
CANDS(c_true_first) { BEGIN; FLOAT_ONLY; add(&c, 1); add(&c, 0); return c.n; }
CANDS(c_saturate) { BEGIN; if (!b->integer) return 0; add(&c, 0); add(&c, 1); return c.n; }
CANDS(c_in_round)
{
    BEGIN;
    FLOAT_ONLY;
    if (b->a.pad == 0 && b->b.pad == 0)
        return 0;
    static const int r[] = {LAD_RZ, LAD_RNE, LAD_RNA};
    return list(&c, r, 3);
}
CANDS(c_round)
{
    BEGIN;
    FLOAT_ONLY;
    static const int r[] = {LAD_RZ, LAD_RNE, LAD_RU, LAD_RD};
    return list(&c, r, 4);
}
CANDS(c_align)
{
    BEGIN;
    FLOAT_ONLY;
    static const int r[] = {LAD_RZ, LAD_RD, LAD_RNE};
    return list(&c, r, 3);
}
CANDS(c_enum)
{
    BEGIN;
    FLOAT_ONLY;
    for (int i = 0; p->names[i]; i++)
        add(&c, i);
    return c.n;
}
CANDS(c_window) { BEGIN; FLOAT_ONLY; add_range(&c, 8, 48); return c.n; }
CANDS(c_pass)
{
    BEGIN;
    FLOAT_ONLY;
    int kp = lad_datapath_kphys(b);
    add(&c, kp);
    for (int l = 1; l < kp; l++)
        if (kp % l == 0)
            add(&c, l);
    return c.n;
}
CANDS(c_order)
{
    BEGIN;
    FLOAT_ONLY;
    int kp = lad_datapath_kphys(b);
    add(&c, 0);
    for (int r = 1; r <= 2; r++)
        if (kp % (2 * r) == 0)
            add(&c, r);
    return c.n;
}
CANDS(c_anchor_floor)
{
    BEGIN;
    FLOAT_ONLY;
    add(&c, LAD_NOFLOOR);
    int lo = lowest_anchor(b) + 1;
    add_range(&c, lo > -160 ? lo : -160, -110);
    return c.n;
}
CANDS(c_group_sub_floor) { BEGIN; SCALED_ONLY; add(&c, LAD_NOFLOOR); add_range(&c, -190, -160); return c.n; }
CANDS(c_scale_floor) { BEGIN; SCALED_ONLY; add(&c, LAD_NOFLOOR); add_range(&c, 0, 60); return c.n; }
CANDS(c_cdom_window) { BEGIN; SCALED_ONLY; add_range(&c, 0, 60); return c.n; }
CANDS(c_scaled_bool) { BEGIN; SCALED_ONLY; add(&c, 0); add(&c, 1); return c.n; }
CANDS(c_group)
{
    BEGIN;
    SCALED_ONLY;
    int kp = lad_datapath_kphys(b);
    for (int g = 1; g <= 64 && g <= kp; g *= 2)
        if (b->scale_block % g == 0)
            add(&c, g);
    return c.n;
}
CANDS(c_d)
{
    BEGIN;
    FLOAT_ONLY;
    for (int m = b->d.mbits; m >= 1; m--)
        add(&c, m);
    return c.n;
}
CANDS(c_acc)
{
    BEGIN;
    FLOAT_ONLY;
    if (lad_param_get(p, b, b) == LAD_PV_BASE)
        add(&c, LAD_PV_BASE);
    for (int m = 23; m >= 10; m--)
        add(&c, m);
    add(&c, LAD_PV_F16);
    add(&c, LAD_PV_BF16);
    if (b->d.kind == LAD_FLOAT && strcmp(b->d.name, "f32") && strcmp(b->d.name, "f16") &&
        strcmp(b->d.name, "bf16"))
        add(&c, LAD_PV_DECL_D);
    return c.n;
}
/* The AMD rows (two-level window, exact and tree sums, flushes): unscaled
** float datapaths. window2 0 or 16..40 (seen: 32, MMA-Sim's F2 + 1), norm2
** 0 or 16..40 (seen: 31), prod_inf none or 100..140 (seen: 128, the f32
** range; below 100 no product of the 16-bit formats reaches it). */
#define UNSCALED_ONLY if (b->integer || b->scale_block > 0) return 0
CANDS(c_unscaled_bool) { BEGIN; UNSCALED_ONLY; add(&c, 0); add(&c, 1); return c.n; }
CANDS(c_window2) { BEGIN; UNSCALED_ONLY; add(&c, 0); add_range(&c, 16, 40); return c.n; }
CANDS(c_align2) { BEGIN; UNSCALED_ONLY; static const int r[] = {LAD_RZ, LAD_RD, LAD_RNE}; return list(&c, r, 3); }
CANDS(c_prod_inf)
{
    BEGIN;
    UNSCALED_ONLY;
    add(&c, LAD_NOFLOOR);
    add(&c, 128);
    add_range(&c, 100, 140);
    return c.n;
}
CANDS(c_nan) { BEGIN; FLOAT_ONLY; add(&c, (int64_t)b->nan); return c.n; }

/* ---- what can matter --------------------------------------------------------- */

static int multi(const lad_datapath *dp)
{
    return dp->pass < lad_datapath_kphys(dp);
}
static int m_float(const lad_datapath *dp) { return !dp->integer; }
static int m_int(const lad_datapath *dp) { return dp->integer; }
static int m_windowed(const lad_datapath *dp) { return !dp->integer && !dp->exact && !dp->tree; }
static int m_c_anchor(const lad_datapath *dp) { return m_windowed(dp) && dp->window2 == 0; }
static int m_two_level(const lad_datapath *dp) { return m_windowed(dp) && dp->window2 > 0; }
static int m_exact(const lad_datapath *dp) { return !dp->integer && dp->window2 == 0 && !dp->tree; }
static int m_exact_only(const lad_datapath *dp) { return m_exact(dp) && dp->exact; }
static int m_tree(const lad_datapath *dp) { return !dp->integer && dp->chain == LAD_SUM && !dp->exact; }
static int m_order(const lad_datapath *dp) { return !dp->integer && multi(dp); }
static int m_acc(const lad_datapath *dp)
{
    return !dp->integer && (multi(dp) || dp->d_via_acc || dp->chain == LAD_SUM || dp->c_last);
}
static int m_in_round(const lad_datapath *dp) { return !dp->integer && (dp->a.pad || dp->b.pad); }
static int m_scaled(const lad_datapath *dp) { return !dp->integer && dp->scale_block > 0; }
static int m_cdom(const lad_datapath *dp) { return m_scaled(dp) && dp->cdom_window > 0; }
static int m_cdom_pg(const lad_datapath *dp) { return m_cdom(dp) && dp->group > 1; }

/* ---- values equal to the default for the shape (LAD_CANON lines) ---------- */

/* The exponent of the top bit of the largest product of A and B words:
** products lie below 2^(top + 1). */
static int top_product(const lad_datapath *dp)
{
    lad_value a = lad_decode(&dp->a, lad_format_maxfinite(&dp->a, 0));
    lad_value b = lad_decode(&dp->b, lad_format_maxfinite(&dp->b, 0));
    return lad_bitlen128((lad_u128)a.mag * b.mag) - 1 + a.exp + b.exp;
}
/* a product infinity no product of the A and B formats reaches */
static int s_prod_inf(const lad_datapath *dp)
{
    return dp->prod_inf != LAD_NOFLOOR && dp->prod_inf > top_product(dp);
}
/* an anchor bound at or below every anchor the formats can give (the
** candidates start one above it) */
static int s_below_anchors(const lad_datapath *dp, int v)
{
    return v != LAD_NOFLOOR && v <= lowest_anchor(dp);
}
static int s_anchor_min(const lad_datapath *dp) { return s_below_anchors(dp, dp->anchor_min); }
static int s_zero_floor(const lad_datapath *dp) { return s_below_anchors(dp, dp->zero_floor); }

/* The LAD_CANON rules by row; NULL where a row has none. */
static int (*const same_rules[LAD_NPARAMS])(const lad_datapath *dp) = {
#define LAD_CANON(key, fn) [LAD_P_##key] = fn,
#include "params.def"
};

/* The LAD_USUAL lines by row; set 0 where a row has none. */
static const struct { int set; int64_t lo, hi; } usual[LAD_NPARAMS] = {
#define LAD_USUAL(key, l, h) [LAD_P_##key] = {1, l, h},
#include "params.def"
};

int lad_param_usual(const lad_param *p, int64_t *lo, int64_t *hi)
{
    int i = lad_param_index(p);
    *lo = usual[i].lo;
    *hi = usual[i].hi;
    return usual[i].set;
}

/* ---- the rows -------------------------------------------------------------- */

#define OFF(f) .off = offsetof(lad_datapath, f), .size = sizeof(((lad_datapath *)0)->f)

const lad_param lad_params[LAD_NPARAMS] = {
#define LAD_STR(f, len, d) {.key = #f, .type = LAD_PT_STR, OFF(f), .doc = d},
#define LAD_FMT(f, df, fl, c, m, d) \
    {.key = #f, .type = LAD_PT_FMT, OFF(f), .dflt_fmt = df, .flags = fl, .cands = c, \
     .matters = m, .doc = d},
#define LAD_INT(f, df, l, h, fl, c, m, d) \
    {.key = #f, .type = LAD_PT_INT, OFF(f), .dflt = df, .lo = l, .hi = h, .flags = fl, \
     .cands = c, .matters = m, .doc = d},
#define LAD_BOOL(f, df, fl, c, m, d) \
    {.key = #f, .type = LAD_PT_BOOL, OFF(f), .dflt = df, .lo = 0, .hi = 1, .flags = fl, \
     .cands = c, .matters = m, .doc = d},
#define LAD_ENUM(f, df, n, lg, fl, c, m, d) \
    {.key = #f, .type = LAD_PT_ENUM, OFF(f), .dflt = df, .names = n, .legal = lg, \
     .flags = fl, .cands = c, .matters = m, .doc = d},
#define LAD_FLOOR(f, df, l, h, fl, c, m, d) \
    {.key = #f, .type = LAD_PT_FLOOR, OFF(f), .dflt = df, .lo = l, .hi = h, .flags = fl, \
     .cands = c, .matters = m, .doc = d},
#define LAD_WORD(f, df, fl, c, m, d) \
    {.key = #f, .type = LAD_PT_HEX, OFF(f), .dflt = df, .flags = fl, .cands = c, \
     .matters = m, .doc = d},
#define LAD_ORDER(f, fl, c, m, d) \
    {.key = #f, .type = LAD_PT_ORDER, OFF(f), .flags = fl, .cands = c, .matters = m, .doc = d},
#include "params.def"
};
const int lad_nparams = LAD_NPARAMS;

/* The sweep groups: each LAD_SWEEP(k1, k2, ...) line as its row ids. */
#define ID_(k) LAD_P_##k
#define IDS_1(a) ID_(a)
#define IDS_2(a, ...) ID_(a), IDS_1(__VA_ARGS__)
#define IDS_3(a, ...) ID_(a), IDS_2(__VA_ARGS__)
#define IDS_4(a, ...) ID_(a), IDS_3(__VA_ARGS__)
#define IDS_5(a, ...) ID_(a), IDS_4(__VA_ARGS__)
#define IDS_6(a, ...) ID_(a), IDS_5(__VA_ARGS__)
#define IDS_7(a, ...) ID_(a), IDS_6(__VA_ARGS__)
#define IDS_8(a, ...) ID_(a), IDS_7(__VA_ARGS__)
#define NARG_(a1, a2, a3, a4, a5, a6, a7, a8, n, ...) n
#define NARG(...) NARG_(__VA_ARGS__, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)

const lad_sweep_group lad_sweep_groups[] = {
#define LAD_SWEEP(...) {NARG(__VA_ARGS__), {CAT(IDS_, NARG(__VA_ARGS__))(__VA_ARGS__)}},
#include "params.def"
};
const int lad_nsweep_groups = (int)(sizeof lad_sweep_groups / sizeof lad_sweep_groups[0]);
_Static_assert(LAD_SWEEP_MAXROWS == 8, "IDS_ covers 8 rows a group");

/* The LAD_IMPL lines: a row with none is DFLT (0) in every column. */
#define ANY LAD_IM_ANY
#define DFLT LAD_IM_DFLT
#define RZ_RNE (LAD_RM(LAD_RZ) | LAD_RM(LAD_RNE))
const unsigned lad_impl[LAD_NPARAMS][LAD_NEVAL] = {
#define LAD_IMPL(key, u, s, f, fs, l8, s8, g, ch, cs) \
    [LAD_P_##key] = {u, s, f, fs, l8, s8, g, ch, cs},
#include "params.def"
};
#undef ANY
#undef DFLT
#undef RZ_RNE
_Static_assert(LAD_NEVAL == 9, "LAD_IMPL has a column per evaluator");

/* The eight-lane code on the scaled path reads a case's words as whole
** chunks of eight in place, rows included (lad_plan_eval_rows), where the
** unscaled path's copies a case of another k first; the case kernel loads
** eight lanes of each case at a time. */
const lad_evaluator_decl lad_evaluators[LAD_NEVAL] = {
    [LAD_EV_UNSCALED] = {"unscaled", 1},
    [LAD_EV_SCALED] = {"scaled", 1},
    [LAD_EV_FIXED] = {"fixed", 1},
    [LAD_EV_FIXSUM] = {"fixsum", 1},
    [LAD_EV_LANES8] = {"lanes8", 1},
    [LAD_EV_SCALED8] = {"scaled8", 8},
    [LAD_EV_GEMM] = {"gemm", 1},
    [LAD_EV_CHAINS] = {"chains", 1},
    [LAD_EV_CASES] = {"cases", 8},
};

int lad_param_at_default(const lad_param *p, const lad_datapath *dp)
{
    const char *at = (const char *)dp + p->off;
    switch (p->type) {
    case LAD_PT_INT: case LAD_PT_BOOL: case LAD_PT_ENUM: case LAD_PT_FLOOR:
        return *(const int *)at == p->dflt;
    case LAD_PT_HEX:
        return *(const lad_word_t *)at == (lad_word_t)p->dflt;
    case LAD_PT_ORDER:
        return dp->norder == 0;
    case LAD_PT_FMT:
        return same_format((const lad_format *)at, lad_format_find(p->dflt_fmt));
    }
    return 1;  /* a name: no part of the arithmetic */
}

/* Whether every evaluator implements every value of row i. */
static int any_everywhere(int i)
{
    for (int ev = 0; ev < LAD_NEVAL; ev++)
        if (lad_impl[i][ev] != LAD_IM_ANY)
            return 0;
    return 1;
}

uint64_t lad_rows_off(const lad_datapath *dp)
{
    uint64_t off = 0;
    for (int i = 0; i < LAD_NPARAMS; i++)
        if (lad_params[i].type != LAD_PT_STR && !any_everywhere(i) &&
            !lad_param_at_default(&lad_params[i], dp) && lad_param_matters(&lad_params[i], dp))
            off |= (uint64_t)1 << i;
    return off;
}

int lad_impl_gap(int ev, const lad_datapath *dp, uint64_t off)
{
    if (dp->k % lad_evaluators[ev].kstep != 0)
        return LAD_P_k;
    for (; off; off &= off - 1) {
        int i = __builtin_ctzll(off);
        const lad_param *p = &lad_params[i];
        unsigned m = lad_impl[i][ev];
        if (m == LAD_IM_ANY)
            continue;
        if (m != LAD_IM_DFLT && (p->type == LAD_PT_ENUM || p->type == LAD_PT_BOOL)) {
            int v = *(const int *)((const char *)dp + p->off);
            if (v >= 0 && v < 32 && (m >> v & 1u))
                continue;
        }
        return i;
    }
    return -1;
}

const lad_param *lad_param_find(const char *key)
{
    for (int i = 0; i < lad_nparams; i++)
        if (strcmp(lad_params[i].key, key) == 0)
            return &lad_params[i];
    return NULL;
}

int lad_param_index(const lad_param *p)
{
    return (int)(p - lad_params);
}

/* ---- values -------------------------------------------------------------- */

static int *field_int(const lad_param *p, lad_datapath *dp)
{
    return (int *)((char *)dp + p->off);
}

static int is_int_field(const lad_param *p)
{
    return p->type == LAD_PT_INT || p->type == LAD_PT_BOOL || p->type == LAD_PT_ENUM ||
           p->type == LAD_PT_FLOOR;
}

void lad_param_defaults(lad_datapath *dp)
{
    memset(dp, 0, sizeof *dp);
    for (int i = 0; i < LAD_NPARAMS; i++)
        lad_param_reset(&lad_params[i], dp);
}

static int nnames(const lad_param *p)
{
    int n = 0;
    while (p->names[n])
        n++;
    return n;
}

/* The legal names of an enum row into buf: "rz, rd or rne" (sep ", " and
** last " or "), or with markdown "`rz`, `rd`, `rne`". */
static void enum_legal(const lad_param *p, int markdown, int plain, char *buf, size_t size)
{
    int n = nnames(p), total = 0, at = 0;
    size_t len = 0;
    for (int v = 0; v < n; v++)
        total += (p->legal >> v) & 1;
    buf[0] = 0;
    for (int v = 0; v < n && len + 24 < size; v++) {
        if (!((p->legal >> v) & 1))
            continue;
        const char *sep = at == 0 ? "" : markdown ? ", " : plain ? " "
                          : at == total - 1 ? " or " : ", ";
        len += (size_t)snprintf(buf + len, size - len, markdown ? "%s`%s`" : "%s%s", sep,
                                p->names[v]);
        at++;
    }
}

const char *lad_param_illegal(const lad_param *p, const lad_datapath *dp, char *buf,
                              size_t size)
{
    const char *at = (const char *)dp + p->off;
    int v = is_int_field(p) ? *(const int *)at : 0;
    switch (p->type) {
    case LAD_PT_STR:
        if (memchr(at, 0, p->size) == NULL) {
            snprintf(buf, size, "%s is not a string of at most %zu bytes", p->key, p->size - 1);
            return buf;
        }
        return NULL;
    case LAD_PT_FMT: {
        const lad_format *f = (const lad_format *)at;
        const char *m = lad_format_check(f);
        if (m == NULL)
            return NULL;
        snprintf(buf, size, "format '%.*s' (%s): %s", (int)sizeof f->name, f->name, p->key, m);
        return buf;
    }
    case LAD_PT_INT:
        if (v >= p->lo && v <= p->hi)
            return NULL;
        snprintf(buf, size, "%s must be %" PRId64 "..%" PRId64 ", not %d", p->key, p->lo, p->hi,
                 v);
        return buf;
    case LAD_PT_FLOOR:
        if (v == LAD_NOFLOOR || (v >= p->lo && v <= p->hi))
            return NULL;
        snprintf(buf, size, "%s must be %" PRId64 "..%" PRId64 " or none, not %d", p->key, p->lo,
                 p->hi, v);
        return buf;
    case LAD_PT_BOOL:
        if (v == 0 || v == 1)
            return NULL;
        snprintf(buf, size, "%s must be true or false, not %d", p->key, v);
        return buf;
    case LAD_PT_ENUM: {
        if (v >= 0 && v < nnames(p) && ((p->legal >> v) & 1))
            return NULL;
        char names[128];
        enum_legal(p, 0, 0, names, sizeof names);
        if (v >= 0 && v < nnames(p))
            snprintf(buf, size, "%s must be %s, not %s", p->key, names, p->names[v]);
        else
            snprintf(buf, size, "%s must be %s, not %d", p->key, names, v);
        return buf;
    }
    case LAD_PT_HEX:
        return NULL;  /* whether it fits d relates two fields: datapath.c */
    case LAD_PT_ORDER:
        if (dp->norder >= 0 && dp->norder <= LAD_KMAX)
            return NULL;
        snprintf(buf, size, "%s must list 0..%d lanes, not %d", p->key, LAD_KMAX, dp->norder);
        return buf;
    }
    snprintf(buf, size, "%s has an unknown type", p->key);
    return buf;
}

const char *lad_param_legal_text(const lad_param *p, int markdown, char *buf, size_t size)
{
    switch (p->type) {
    case LAD_PT_STR:
        snprintf(buf, size, "string (≤ %zu bytes)", p->size - 1);
        break;
    case LAD_PT_FMT:
        snprintf(buf, size, "format");
        break;
    case LAD_PT_INT:
        snprintf(buf, size, "integer %" PRId64 "..%" PRId64, p->lo, p->hi);
        break;
    case LAD_PT_FLOOR:
        snprintf(buf, size, markdown ? "integer %" PRId64 "..%" PRId64 ", or `none`"
                                     : "integer %" PRId64 "..%" PRId64 ", or none",
                 p->lo, p->hi);
        break;
    case LAD_PT_BOOL:
        snprintf(buf, size, markdown ? "`true`/`false`" : "true false");
        break;
    case LAD_PT_ENUM:
        enum_legal(p, markdown, 1, buf, size);
        break;
    case LAD_PT_HEX:
        snprintf(buf, size, "hex word (≤ 16 digits)");
        break;
    case LAD_PT_ORDER:
        snprintf(buf, size, markdown ? "sequence of lanes, or `none`"
                                     : "sequence of lanes, or none");
        break;
    default:
        snprintf(buf, size, "?");
    }
    return buf;
}

int64_t lad_param_get(const lad_param *p, const lad_datapath *dp, const lad_datapath *base)
{
    const char *at = (const char *)dp + p->off;
    switch (p->type) {
    case LAD_PT_INT: case LAD_PT_BOOL: case LAD_PT_ENUM: case LAD_PT_FLOOR:
        return *(const int *)at;
    case LAD_PT_HEX:
        return (int64_t)*(const lad_word_t *)at;
    case LAD_PT_ORDER:
        return order_stride(dp);
    case LAD_PT_FMT: {
        const lad_format *f = (const lad_format *)at;
        const lad_format *ref = (const lad_format *)((const char *)base + p->off);
        if (p == &lad_params[LAD_P_acc]) {
            if (lad_format_f32_family(f))
                return f->mbits;
            if (same_format(f, lad_format_find("f16")))
                return LAD_PV_F16;
            if (same_format(f, lad_format_find("bf16")))
                return LAD_PV_BF16;
            if (same_format(f, &base->d))
                return LAD_PV_DECL_D;
            return LAD_PV_BASE;
        }
        lad_format cut = lad_format_cut(ref, f->mbits);
        return f->mbits >= 1 && same_format(f, &cut) ? f->mbits : LAD_PV_BASE;
    }
    }
    return 0;
}

void lad_param_set(const lad_param *p, lad_datapath *dp, const lad_datapath *base, int64_t v)
{
    char *at = (char *)dp + p->off;
    switch (p->type) {
    case LAD_PT_INT: case LAD_PT_BOOL: case LAD_PT_ENUM: case LAD_PT_FLOOR:
        *field_int(p, dp) = (int)v;
        return;
    case LAD_PT_HEX:
        *(lad_word_t *)at = (lad_word_t)v;
        return;
    case LAD_PT_ORDER:
        if (v == LAD_PV_OTHER) {
            dp->norder = base->norder;
            memcpy(dp->order, base->order, sizeof dp->order);
        } else {
            lad_order_set_stride(dp, (int)v);
        }
        return;
    case LAD_PT_FMT: {
        lad_format *f = (lad_format *)at;
        const lad_format *ref = (const lad_format *)((const char *)base + p->off);
        int acc = p == &lad_params[LAD_P_acc];
        if (v == LAD_PV_BASE)
            *f = *ref;
        else if (v == LAD_PV_F16)
            *f = *lad_format_find("f16");
        else if (v == LAD_PV_BF16)
            *f = *lad_format_find("bf16");
        else if (v == LAD_PV_DECL_D)
            *f = base->d;
        else
            *f = lad_format_cut(acc ? lad_format_find("f32") : ref, (int)v);
        return;
    }
    }
}

int lad_param_cands(const lad_param *p, const lad_datapath *base, int64_t *v, int max)
{
    return p->cands ? p->cands(p, base, v, max) : 0;
}

int lad_param_matters(const lad_param *p, const lad_datapath *dp)
{
    return p->matters ? p->matters(dp) : 1;
}

int lad_param_in_effect(const lad_param *p, const lad_datapath *dp)
{
    int (*same)(const lad_datapath *) = same_rules[lad_param_index(p)];
    return lad_param_matters(p, dp) && !(same && same(dp));
}

void lad_param_reset(const lad_param *p, lad_datapath *dp)
{
    char *at = (char *)dp + p->off;
    if (is_int_field(p))
        *field_int(p, dp) = (int)p->dflt;
    else if (p->type == LAD_PT_HEX)
        *(lad_word_t *)at = (lad_word_t)p->dflt;
    else if (p->type == LAD_PT_FMT)
        *(lad_format *)at = *lad_format_find(p->dflt_fmt);
    else if (p->type == LAD_PT_ORDER) {
        dp->norder = 0;
        memset(dp->order, 0, sizeof dp->order);
    } else
        memset(at, 0, p->size);
}

const char *lad_param_text(const lad_param *p, const lad_datapath *dp, char *buf, size_t size)
{
    const char *at = (const char *)dp + p->off;
    int v = is_int_field(p) ? *(const int *)at : 0;
    switch (p->type) {
    case LAD_PT_STR:
        snprintf(buf, size, "%.*s", (int)p->size, at);
        break;
    case LAD_PT_FMT: {
        const lad_format *f = (const lad_format *)at;
        snprintf(buf, size, "%s", f->width ? f->name : "none");
        break;
    }
    case LAD_PT_INT:
        snprintf(buf, size, "%d", v);
        break;
    case LAD_PT_BOOL:
        snprintf(buf, size, "%s", v ? "true" : "false");
        break;
    case LAD_PT_ENUM:
        snprintf(buf, size, "%s", v >= 0 && v < nnames(p) ? p->names[v] : "?");
        break;
    case LAD_PT_FLOOR:
        if (v == LAD_NOFLOOR)
            snprintf(buf, size, "none");
        else
            snprintf(buf, size, "%d", v);
        break;
    case LAD_PT_HEX:
        snprintf(buf, size, "0x%08" PRIx64, *(const lad_word_t *)at);
        break;
    case LAD_PT_ORDER: {
        size_t len = 0;
        if (size)
            buf[0] = 0;
        if (dp->norder == 0) {
            snprintf(buf, size, "none");
            break;
        }
        for (int j = 0; j < dp->norder && len + 8 < size; j++)
            len += (size_t)snprintf(buf + len, size - len, "%s%d", j ? ", " : "[", dp->order[j]);
        if (len + 2 <= size)
            snprintf(buf + len, size - len, "]");
        break;
    }
    }
    return buf;
}

const char *lad_param_code_text(const lad_param *p, const lad_datapath *base, int64_t v,
                                char *buf, size_t size)
{
    if (p->type == LAD_PT_ORDER) {
        if (v == 0)
            snprintf(buf, size, "physical");
        else if (v == LAD_PV_OTHER)
            snprintf(buf, size, "given");
        else
            snprintf(buf, size, "j%%%d<%d", (int)(2 * v), (int)v);
        return buf;
    }
    lad_datapath t = *base;
    lad_param_set(p, &t, base, v);
    return lad_param_text(p, &t, buf, size);
}
