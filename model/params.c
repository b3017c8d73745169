/*
** The parameter registry (params.h): one row per datapath parameter, with
** the functions its rows name. The rows are in the order a model file
** lists them (the writer walks them in this order).
**
** Candidate ranges, one per parameter, cover every value measured so far
** with room on both sides (docs/datapaths.md; DESIGN.md):
**   window 8..48 (seen: 13..39); roundings of a pass result and of D rz,
**   rne, ru, rd (ties away, rna, is seen only where tf32 is cut from f32:
**   in_round rz, rne, rna); anchor floors (zero_floor, anchor_min) none or
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
    int *v, n, max;
} clist;

static void add(clist *c, int x)
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

#define CANDS(name) static int name(const lad_param *p, const lad_datapath *b, int *v, int max)
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
** 0 or 16..40 (seen: 31), prod_inf none or the f32 range (128). */
#define UNSCALED_ONLY if (b->integer || b->scale_block > 0) return 0
CANDS(c_unscaled_bool) { BEGIN; UNSCALED_ONLY; add(&c, 0); add(&c, 1); return c.n; }
CANDS(c_window2) { BEGIN; UNSCALED_ONLY; add(&c, 0); add_range(&c, 16, 40); return c.n; }
CANDS(c_align2) { BEGIN; UNSCALED_ONLY; static const int r[] = {LAD_RZ, LAD_RD, LAD_RNE}; return list(&c, r, 3); }
CANDS(c_prod_inf) { BEGIN; UNSCALED_ONLY; add(&c, LAD_NOFLOOR); add(&c, 128); return c.n; }
/* ieee_zero: an exact pass's zeros, +0 or IEEE-signed (f64 fma chains). */
CANDS(c_ieee_zero) { BEGIN; UNSCALED_ONLY; add(&c, 0); add(&c, 1); return c.n; }
CANDS(c_nan) { BEGIN; FLOAT_ONLY; add(&c, (int)(uint32_t)b->nan); return c.n; }

/* ---- what can matter --------------------------------------------------------- */

static int multi(const lad_datapath *dp)
{
    return dp->pass < lad_datapath_kphys(dp);
}
static int m_float(const lad_datapath *dp) { return !dp->integer; }
static int m_int(const lad_datapath *dp) { return dp->integer; }
static int m_c_anchor(const lad_datapath *dp) { return !dp->integer && dp->window2 == 0; }
static int m_two_level(const lad_datapath *dp) { return !dp->integer && dp->window2 > 0; }
static int m_windowed(const lad_datapath *dp) { return !dp->integer && !dp->exact && !dp->tree; }
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

/* ---- the rows -------------------------------------------------------------- */

#define OFF(f) offsetof(lad_datapath, f), sizeof(((lad_datapath *)0)->f)
#define REQ LAD_PF_REQUIRED
#define STR(f, d) {#f, LAD_PT_STR, OFF(f), 0, 0, NULL, 0, NULL, NULL, d}
#define FMT(f, fl, c, m, d) {#f, LAD_PT_FMT, OFF(f), 0, 0, NULL, fl, c, m, d}
#define INT(f, fl, lo, hi, c, m, d) {#f, LAD_PT_INT, OFF(f), lo, hi, NULL, fl, c, m, d}
#define BOOL(f, c, m, d) {#f, LAD_PT_BOOL, OFF(f), 0, 1, NULL, 0, c, m, d}
#define ENUM(f, n, c, m, d) {#f, LAD_PT_ENUM, OFF(f), 0, 0, n, 0, c, m, d}
#define FLOOR(f, c, m, d) {#f, LAD_PT_FLOOR, OFF(f), -10000, 10000, NULL, 0, c, m, d}

const lad_param lad_params[] = {
    STR(name, "preset name: <arch>-<instr>-<ab>-<d>"),
    STR(arch, "target architecture"),
    STR(instr, "PTX instruction"),
    STR(kind, "tcgen05 kind, \"\" otherwise"),
    STR(shape, "instruction shape"),
    STR(sass, "tensor opcode the instruction compiles to"),
    FMT(a, REQ, NULL, NULL, "format of A elements"),
    FMT(b, REQ, NULL, NULL, "format of B elements"),
    FMT(c, REQ, NULL, NULL, "format of the addend C"),
    FMT(d, REQ, c_d, m_float, "format of the result D"),
    INT(k, REQ, 1, LAD_KMAX, NULL, NULL, "products per instruction, logical (before sparsity)"),
    ENUM(in_round, lad_round_names, c_in_round, m_in_round,
         "how A/B words are cut to their format: rz rne rna"),
    BOOL(integer, NULL, NULL, "integer MMA: exact sum, wrap or saturate"),
    BOOL(saturate, c_saturate, m_int, "integer: clamp to the s32 range at the end"),
    INT(window, 0, 0, 64, c_window, m_windowed, "fraction bits kept below the anchor"),
    ENUM(align_round, lad_round_names, c_align, m_float,
         "rounding of each term into the window: rz rd rne"),
    FLOOR(zero_floor, c_anchor_floor, m_float, "raw exponent a zero term gives the anchor, or none"),
    FLOOR(anchor_min, c_anchor_floor, m_float, "lowest anchor exponent, or none"),
    BOOL(c_anchor, c_true_first, m_c_anchor, "the addend takes part in the anchor and alignment"),
    INT(window2, 0, 0, 60, c_window2, m_float, "two-level window: bits of the product sum below the pass anchor; 0: one level"),
    ENUM(align2_round, lad_round_names, c_align2, m_two_level,
         "rounding of the product sum and the addend at the second level: rz rd rne"),
    BOOL(even_odd, c_unscaled_bool, m_two_level, "two-level: even and odd lanes summed apart, each below its own anchor"),
    INT(norm2, 0, 0, 60, c_window2, m_two_level, "two-level: bits the sum is cut to below its leading bit; 0: none"),
    BOOL(c2_drop, c_unscaled_bool, m_two_level, "two-level: an addend below E - window - 1 counts as zero"),
    BOOL(exact, c_unscaled_bool, m_exact, "no window: each pass sum exact, rounded once"),
    BOOL(ieee_zero, c_ieee_zero, m_exact_only, "exact: zero results signed as an IEEE fma signs them"),
    BOOL(tree, c_unscaled_bool, m_tree, "each pass a tree of IEEE additions of products rounded into acc"),
    FLOOR(prod_inf, c_prod_inf, m_float, "a product of at least 2^prod_inf is infinite, or none"),
    BOOL(ftz_in, c_unscaled_bool, m_float, "subnormal A, B and C read as +0"),
    BOOL(ftz_out, c_unscaled_bool, m_float, "subnormal results (acc, d, tree products) become zero"),
    INT(pass, 0, 1, LAD_KMAX, c_pass, m_float, "products fused per pass"),
    ENUM(chain, lad_chain_names, c_enum, m_float, "how passes combine: chain or sum"),
    FMT(acc, 0, c_acc, m_acc, "format of each pass result"),
    ENUM(acc_round, lad_round_names, c_round, m_acc, "rounding of a pass result into acc"),
    ENUM(d_round, lad_round_names, c_round, m_float, "rounding of the last result into d"),
    BOOL(d_via_acc, c_bool, m_float, "the last result is rounded into acc, then into d"),
    BOOL(c_last, c_bool, m_float, "passes start from +0; C is added last, rounded into d"),
    {"order", LAD_PT_ORDER, OFF(order), 0, 0, NULL, 0, c_order, m_order,
     "physical lanes in the order they fill the passes, or none"},
    ENUM(overflow, lad_ovf_names, c_enum, m_float, "overflow of acc and d: inf sat ieee"),
    {"nan", LAD_PT_HEX, OFF(nan), 0, 0, NULL, 0, c_nan, m_float, "the NaN word every NaN result gets"},
    FMT(sa, 0, NULL, NULL, "scale format of A (scaled kinds)"),
    FMT(sb, 0, NULL, NULL, "scale format of B (scaled kinds)"),
    INT(scale_block, 0, 0, LAD_KMAX, NULL, NULL, "lanes per scale; 0: unscaled"),
    INT(group, 0, 1, LAD_KMAX, c_group, m_scaled, "lanes summed exactly before windowing"),
    FLOOR(scale_floor, c_scale_floor, m_scaled, "quantum floor below the top scale pair, or none"),
    INT(cdom_window, 0, 0, 1000, c_cdom_window, m_scaled, "C-dominant merge window; 0: off"),
    INT(cdom_group, 0, 0, LAD_KMAX, c_group, m_cdom, "lanes per exact group on the C-dominant path"),
    BOOL(cdom_per_group, c_scaled_bool, m_cdom_pg, "groups C outranks are cut at rC - cdom_window"),
    FLOOR(group_sub_floor, c_group_sub_floor, m_scaled,
          "exponent below which groups leave a subnormal result, or none"),
    ENUM(sparse, lad_sparse_names, NULL, NULL, "sparsity pattern: none 1of2 2of4 pairs8"),
};
const int lad_nparams = (int)(sizeof lad_params / sizeof lad_params[0]);

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

int lad_param_get(const lad_param *p, const lad_datapath *dp, const lad_datapath *base)
{
    const char *at = (const char *)dp + p->off;
    switch (p->type) {
    case LAD_PT_INT: case LAD_PT_BOOL: case LAD_PT_ENUM: case LAD_PT_FLOOR:
        return *(const int *)at;
    case LAD_PT_HEX:
        /* the search's values are ints: a word's low 32 bits; words
        ** wider than that are never varied (search.c build_cands) */
        return (int)(uint32_t)*(const lad_word_t *)at;
    case LAD_PT_ORDER:
        return order_stride(dp);
    case LAD_PT_FMT: {
        const lad_format *f = (const lad_format *)at;
        const lad_format *ref = (const lad_format *)((const char *)base + p->off);
        if (strcmp(p->key, "acc") == 0) {
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

void lad_param_set(const lad_param *p, lad_datapath *dp, const lad_datapath *base, int v)
{
    char *at = (char *)dp + p->off;
    switch (p->type) {
    case LAD_PT_INT: case LAD_PT_BOOL: case LAD_PT_ENUM: case LAD_PT_FLOOR:
        *field_int(p, dp) = v;
        return;
    case LAD_PT_HEX:
        *(lad_word_t *)at = (uint32_t)v;
        return;
    case LAD_PT_ORDER:
        if (v == LAD_PV_OTHER) {
            dp->norder = base->norder;
            memcpy(dp->order, base->order, sizeof dp->order);
        } else {
            lad_order_set_stride(dp, v);
        }
        return;
    case LAD_PT_FMT: {
        lad_format *f = (lad_format *)at;
        const lad_format *ref = (const lad_format *)((const char *)base + p->off);
        int acc = strcmp(p->key, "acc") == 0;
        if (v == LAD_PV_BASE)
            *f = *ref;
        else if (v == LAD_PV_F16)
            *f = *lad_format_find("f16");
        else if (v == LAD_PV_BF16)
            *f = *lad_format_find("bf16");
        else if (v == LAD_PV_DECL_D)
            *f = base->d;
        else
            *f = lad_format_cut(acc ? lad_format_find("f32") : ref, v);
        return;
    }
    }
}

int lad_param_cands(const lad_param *p, const lad_datapath *base, int *v, int max)
{
    return p->cands ? p->cands(p, base, v, max) : 0;
}

int lad_param_matters(const lad_param *p, const lad_datapath *dp)
{
    return p->matters ? p->matters(dp) : 1;
}

const char *lad_param_text(const lad_param *p, const lad_datapath *dp, char *buf, size_t size)
{
    const char *at = (const char *)dp + p->off;
    int v = p->type == LAD_PT_INT || p->type == LAD_PT_BOOL || p->type == LAD_PT_ENUM ||
                    p->type == LAD_PT_FLOOR
                ? *(const int *)at : 0;
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
    case LAD_PT_ENUM: {
        int n = 0;
        while (p->names[n])
            n++;
        snprintf(buf, size, "%s", v >= 0 && v < n ? p->names[v] : "?");
        break;
    }
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

const char *lad_param_code_text(const lad_param *p, const lad_datapath *base, int v, char *buf,
                                size_t size)
{
    if (p->type == LAD_PT_ORDER) {
        if (v == 0)
            snprintf(buf, size, "physical");
        else if (v == LAD_PV_OTHER)
            snprintf(buf, size, "given");
        else
            snprintf(buf, size, "j%%%d<%d", 2 * v, v);
        return buf;
    }
    lad_datapath t = *base;
    lad_param_set(p, &t, base, v);
    return lad_param_text(p, &t, buf, size);
}
