/*
** The naive exact reference (rational.h). Deliberately simple: every value
** is a big integer times a power of two, every step is done on those, and
** nothing is optimised. Where the rules leave a choice, the comment quotes
** the rule from docs/model.md or the tcgen05 notes.
*/
#include "rational.h"

#include <string.h>

const char *const rat_rows_left[] = {
    "even_odd", "norm2", "c2_drop", "exact", "ieee_zero", "tree", "prod_inf", "ftz_in", "ftz_out",
    NULL,
};

/* ---- big integers ---------------------------------------------------------- */

static void ri_zero(rat_int *r)
{
    r->neg = 0;
    r->n = 0;
}

static void ri_norm(rat_int *r)
{
    while (r->n > 0 && r->l[r->n - 1] == 0)
        r->n--;
    if (r->n == 0)
        r->neg = 0;
}

static void ri_u64(rat_int *r, uint64_t v, int neg)
{
    r->l[0] = (uint32_t)v;
    r->l[1] = (uint32_t)(v >> 32);
    r->n = 2;
    r->neg = neg;
    ri_norm(r);
}

static int ri_bitlen(const rat_int *r)
{
    if (r->n == 0)
        return 0;
    return 32 * (r->n - 1) + (32 - __builtin_clz(r->l[r->n - 1]));
}

static int ri_bit(const rat_int *r, int i)
{
    if (i < 0 || i / 32 >= r->n)
        return 0;
    return (int)((r->l[i / 32] >> (i % 32)) & 1);
}

/* Any bit below position i set? */
static int ri_any_below(const rat_int *r, int i)
{
    for (int b = 0; b < i && b < 32 * r->n; b++)
        if (ri_bit(r, b))
            return 1;
    return 0;
}

/* r <<= k (k >= 0). */
static void ri_shl(rat_int *r, int k)
{
    if (r->n == 0 || k == 0)
        return;
    int limbs = k / 32, bits = k % 32;
    int n = r->n + limbs + 1;
    uint32_t out[RAT_LIMBS] = {0};
    for (int i = 0; i < r->n; i++) {
        uint64_t v = (uint64_t)r->l[i] << bits;
        out[i + limbs] |= (uint32_t)v;
        if (i + limbs + 1 < RAT_LIMBS)
            out[i + limbs + 1] |= (uint32_t)(v >> 32);
    }
    if (n > RAT_LIMBS)
        n = RAT_LIMBS;
    memcpy(r->l, out, sizeof(uint32_t) * (size_t)n);
    r->n = n;
    ri_norm(r);
}

/* |r| >>= k, truncating (k >= 0); the sign stays. */
static void ri_shr(rat_int *r, int k)
{
    if (k <= 0 || r->n == 0)
        return;
    int limbs = k / 32, bits = k % 32;
    if (limbs >= r->n) {
        ri_zero(r);
        return;
    }
    int n = r->n - limbs;
    for (int i = 0; i < n; i++) {
        uint64_t v = r->l[i + limbs];
        if (i + limbs + 1 < r->n)
            v |= (uint64_t)r->l[i + limbs + 1] << 32;
        r->l[i] = (uint32_t)(v >> bits);
    }
    r->n = n;
    ri_norm(r);
}

static int ri_cmp_mag(const rat_int *a, const rat_int *b)
{
    if (a->n != b->n)
        return a->n < b->n ? -1 : 1;
    for (int i = a->n; i-- > 0;)
        if (a->l[i] != b->l[i])
            return a->l[i] < b->l[i] ? -1 : 1;
    return 0;
}

/* |a| + |b| into r (r may be a). */
static void mag_add(rat_int *r, const rat_int *a, const rat_int *b)
{
    int n = a->n > b->n ? a->n : b->n;
    uint64_t carry = 0;
    for (int i = 0; i < n; i++) {
        uint64_t s = carry + (i < a->n ? a->l[i] : 0) + (i < b->n ? b->l[i] : 0);
        r->l[i] = (uint32_t)s;
        carry = s >> 32;
    }
    r->n = n;
    if (carry && n < RAT_LIMBS)
        r->l[r->n++] = (uint32_t)carry;
}

/* |a| - |b| into r, |a| >= |b|. */
static void mag_sub(rat_int *r, const rat_int *a, const rat_int *b)
{
    int64_t borrow = 0;
    for (int i = 0; i < a->n; i++) {
        int64_t s = (int64_t)a->l[i] - (i < b->n ? b->l[i] : 0) - borrow;
        borrow = s < 0;
        r->l[i] = (uint32_t)(s + (borrow ? ((int64_t)1 << 32) : 0));
    }
    r->n = a->n;
}

/* a += b, signed. */
static void ri_add(rat_int *a, const rat_int *b)
{
    if (b->n == 0)
        return;
    if (a->n == 0) {
        *a = *b;
        return;
    }
    if (a->neg == b->neg) {
        mag_add(a, a, b);
    } else if (ri_cmp_mag(a, b) >= 0) {
        mag_sub(a, a, b);
    } else {
        rat_int t;
        mag_sub(&t, b, a);
        t.neg = b->neg;
        *a = t;
    }
    ri_norm(a);
}

static void ri_inc_mag(rat_int *r)
{
    rat_int one;
    ri_u64(&one, 1, r->neg);
    if (r->n == 0) {
        one.neg = r->neg;
        *r = one;
        return;
    }
    mag_add(r, r, &one);
    ri_norm(r);
}

/* ---- decoding ---------------------------------------------------------------- */

enum { V_ZERO, V_FINITE, V_INF, V_NAN };

typedef struct rval {
    int cls;        /* V_* */
    int neg;
    uint64_t mag;   /* significand with its hidden bit */
    int e;          /* exponent of mag's lowest bit */
    int raw;        /* field - bias; 1 - bias for subnormals and zeros */
} rval;

/* Section 2 of docs/model.md: sign, exponent field, fraction field sitting
** `pad` bits up; field 0 is subnormal (or zero); the top field holds the
** specials the format declares. */
static rval decode(const lad_format *f, uint32_t w)
{
    rval v = {V_ZERO, 0, 0, 0, 0};
    if (f->kind == LAD_INT) {
        uint64_t x = f->width >= 32 ? w : w & ((1u << f->width) - 1);
        if (f->sign && (x >> (f->width - 1)) & 1) {
            v.neg = 1;
            x = ((uint64_t)1 << f->width) - x;
        }
        v.mag = x;
        v.cls = x ? V_FINITE : V_ZERO;
        return v;
    }
    uint32_t x = w >> f->pad;
    uint32_t fr = x & ((1u << f->mbits) - 1);
    uint32_t field = (x >> f->mbits) & ((1u << f->ebits) - 1);
    uint32_t top = (1u << f->ebits) - 1;
    v.neg = f->sign ? (int)((x >> (f->mbits + f->ebits)) & 1) : 0;
    if (field == top) {
        int nan = (f->nan == LAD_NAN_IEEE && fr != 0) ||
                  (f->nan == LAD_NAN_ONES && fr == (1u << f->mbits) - 1);
        if (nan) {
            v.cls = V_NAN;
            return v;
        }
        if (f->inf == LAD_INF_IEEE && fr == 0) {
            v.cls = V_INF;
            return v;
        }
    }
    if (field == 0 && f->sub != LAD_SUB_NONE) {
        v.raw = 1 - f->bias;
        v.e = v.raw - f->mbits;
        if (f->sub == LAD_SUB_FLUSH || fr == 0)
            return v;
        v.cls = V_FINITE;
        v.mag = fr;
        return v;
    }
    v.cls = V_FINITE;
    v.raw = (int)field - f->bias;
    v.e = v.raw - f->mbits;
    v.mag = ((uint64_t)1 << f->mbits) | fr;
    return v;
}

/* in_round: a word wider than its format is rounded at the cut as an
** integer (the carry runs into the exponent); the top exponent (Inf, NaN)
** is left alone. */
static uint32_t cut(const lad_format *f, int mode, uint32_t w)
{
    if (f->kind != LAD_FLOAT || f->pad == 0 || mode == LAD_RZ)
        return w;
    uint32_t top = (1u << f->ebits) - 1;
    if (((w >> (f->pad + f->mbits)) & top) == top)
        return w;
    uint32_t unit = 1u << f->pad, low = w & (unit - 1), half = unit / 2;
    int up = mode == LAD_RNA ? low >= half
                             : (low > half || (low == half && (w & unit)));
    return up ? w + unit : w;
}

/* ---- words ------------------------------------------------------------------- */

static uint32_t pack(const lad_format *f, int neg, uint32_t field, uint32_t fr)
{
    uint32_t x = (field << f->mbits) | fr;
    if (neg && f->sign)
        x |= 1u << (f->ebits + f->mbits);
    return x << f->pad;
}

static uint32_t inf_word(const lad_format *f, int neg)
{
    return pack(f, neg, (1u << f->ebits) - 1, 0);
}

static uint32_t max_word(const lad_format *f, int neg)
{
    return pack(f, neg, (1u << f->ebits) - 2, (1u << f->mbits) - 1);
}

static uint32_t nan_word(const lad_format *f)
{
    return pack(f, 0, (1u << f->ebits) - 1, (1u << f->mbits) - 1);
}

uint32_t rat_round(const lad_format *f, const rat_int *m, int e, int mode, int ovf)
{
    if (m->n == 0)
        return 0;
    int neg = m->neg;
    rat_int t = *m;
    t.neg = 0;
    int emin = 1 - f->bias;
    int lead = ri_bitlen(&t) - 1 + e;
    int q = (lead > emin ? lead : emin) - f->mbits;
    int rb = 0, st = 0;
    if (q <= e) {
        ri_shl(&t, e - q);
    } else {
        int sh = q - e;
        rb = ri_bit(&t, sh - 1);
        st = ri_any_below(&t, sh - 1);
        ri_shr(&t, sh);
    }
    uint64_t u = t.n == 0 ? 0 : t.l[0] | (t.n > 1 ? (uint64_t)t.l[1] << 32 : 0);
    int inc = 0;
    switch (mode) {
    case LAD_RNE: inc = rb && (st || (u & 1)); break;
    case LAD_RNA: inc = rb; break;
    case LAD_RU: inc = !neg && (rb || st); break;
    case LAD_RD: inc = neg && (rb || st); break;
    default: break;
    }
    u += (uint64_t)inc;
    if (u == 0)
        return 0;  /* rounds to zero: +0 */
    if (u >> (f->mbits + 1)) {
        u >>= 1;
        q++;
    }
    uint32_t field = 0;
    if (u >> f->mbits)
        field = (uint32_t)(q + f->mbits - emin + 1);
    uint32_t topfield = (1u << f->ebits) - 2;
    if (field > topfield) {
        int sat = ovf == LAD_OVF_SAT ||
                  (ovf == LAD_OVF_IEEE && (mode == LAD_RZ || (mode == LAD_RU && neg) ||
                                           (mode == LAD_RD && !neg)));
        return sat ? max_word(f, neg) : inf_word(f, neg);
    }
    return pack(f, neg, field, (uint32_t)(u & ((1u << f->mbits) - 1)));
}

/* ---- the datapath ------------------------------------------------------------ */

typedef struct rterm {
    int cls;        /* V_ZERO, V_FINITE, V_INF or V_NAN */
    int neg;
    uint64_t mag;
    int e, raw;
    int sraw;       /* scale-pair raw exponent */
    int snan;       /* a scale of the lane's block is NaN */
} rterm;

/* Legal 2:4 selectors and the two positions each keeps (docs/model.md 1). */
static int selector(int nib, int *p0, int *p1)
{
    static const int legal[7][3] = {{0x4, 0, 1}, {0x8, 0, 2}, {0xc, 0, 3}, {0x9, 1, 2},
                                    {0xd, 1, 3}, {0x6, 1, 2}, {0xe, 2, 3}};
    for (int i = 0; i < 7; i++)
        if (legal[i][0] == nib) {
            *p0 = legal[i][1];
            *p1 = legal[i][2];
            return 1;
        }
    return 0;
}

static int lanes_of(const lad_datapath *dp, const lad_case *cs, int *lanes)
{
    int n = 0;
    if (dp->sparse == LAD_SPARSE_NONE) {
        for (int i = 0; i < dp->k; i++)
            lanes[n++] = i;
        return n;
    }
    int width = dp->sparse == LAD_SPARSE_1OF2 ? 2 : dp->sparse == LAD_SPARSE_2OF4 ? 4 : 8;
    for (int c = 0; c < dp->k / width; c++) {
        int nib = (int)((cs->meta[c / 8] >> (4 * (c % 8))) & 15);
        if (dp->sparse == LAD_SPARSE_1OF2) {
            if (nib == 0x4)
                lanes[n++] = 2 * c;
            else if (nib == 0xe)
                lanes[n++] = 2 * c + 1;
            continue;
        }
        int p0, p1;
        if (!selector(nib, &p0, &p1))
            continue;
        if (dp->sparse == LAD_SPARSE_2OF4) {
            lanes[n++] = 4 * c + p0;
            lanes[n++] = 4 * c + p1;
        } else {  /* pairs of 8: positions count pairs */
            lanes[n++] = 8 * c + 2 * p0;
            lanes[n++] = 8 * c + 2 * p0 + 1;
            lanes[n++] = 8 * c + 2 * p1;
            lanes[n++] = 8 * c + 2 * p1 + 1;
        }
    }
    return n;
}

/* v (a finite value or zero) as a big dyadic. */
static void big_of(const rval *v, rat_int *m, int *e)
{
    ri_u64(m, v->cls == V_FINITE ? v->mag : 0, v->neg);
    *e = v->e;
}

/* m * 2^e as a count of 2^q, rounded with the alignment mode (toward zero,
** toward -Inf, or to nearest even). */
static void align(const rat_int *m, int e, int q, int mode, rat_int *out)
{
    *out = *m;
    if (m->n == 0)
        return;
    if (e >= q) {
        ri_shl(out, e - q);
        return;
    }
    int sh = q - e;
    int rb = ri_bit(m, sh - 1), st = ri_any_below(m, sh - 1);
    ri_shr(out, sh);
    int up = 0;
    if (mode == LAD_RD)
        up = m->neg && (rb || st);
    else if (mode == LAD_RNE)
        up = rb && (st || ri_bit(out, 0));
    if (up)
        ri_inc_mag(out);
    out->neg = out->n ? m->neg : 0;
}

/* The exact sum of the nonzero products of lanes [a, b): *m * 2^*e. */
static void exact_sum(const rterm *t, int a, int b, rat_int *m, int *e)
{
    int lo = 1 << 30;
    for (int j = a; j < b; j++)
        if (t[j].cls == V_FINITE && t[j].e < lo)
            lo = t[j].e;
    ri_zero(m);
    *e = lo == 1 << 30 ? 0 : lo;
    for (int j = a; j < b; j++) {
        if (t[j].cls != V_FINITE)
            continue;
        rat_int x;
        ri_u64(&x, t[j].mag, t[j].neg);
        ri_shl(&x, t[j].e - lo);
        ri_add(m, &x);
    }
}

static int is_sub(const lad_format *f, uint32_t w)
{
    rval v = decode(f, w);
    return v.cls == V_FINITE && (v.mag >> f->mbits) == 0;
}

/* One pass over products [a, b) with addend c into format out. */
/* "zero_sign: a nonzero window sum that rounds to zero gives the zero of
** its sign" (formats without -0 keep +0). */
static uint32_t zsign(const lad_datapath *dp, const lad_format *out, uint32_t w,
                      const rat_int *sum)
{
    if (dp->zero_sign && w == 0 && sum->neg && out->sign && out->nan != LAD_NAN_NEGZERO)
        return pack(out, 1, 0, 0);
    return w;
}

static uint32_t pass(const lad_datapath *dp, const rterm *t, int a, int b,
                     const rval *c, const lad_format *out, int mode, uint32_t nan)
{
    /* Specials: NaN anywhere (a NaN scale of a lane's block too), then the
    ** infinities, the addend's included; both signs give NaN. */
    int pinf = 0, ninf = 0;
    for (int j = a; j < b; j++) {
        if (t[j].snan || t[j].cls == V_NAN)
            return nan;
        if (t[j].cls == V_INF)
            t[j].neg ? (ninf = 1) : (pinf = 1);
    }
    if (c->cls == V_NAN)
        return nan;
    if (c->cls == V_INF)
        c->neg ? (ninf = 1) : (pinf = 1);
    if (pinf && ninf)
        return nan;
    if (pinf || ninf)
        return out->inf == LAD_INF_IEEE ? inf_word(out, ninf) : max_word(out, ninf);

    rat_int cm, sum, u;
    int ce;
    big_of(c, &cm, &ce);
    int cnz = c->cls == V_FINITE;
    int any = 0, rp = -(1 << 30), smax = -(1 << 30);
    for (int j = a; j < b; j++) {
        if (t[j].cls == V_FINITE) {
            any = 1;
            if (t[j].raw > rp)
                rp = t[j].raw;
            if (t[j].sraw > smax)
                smax = t[j].sraw;
        } else if (dp->zero_floor != LAD_NOFLOOR && dp->zero_floor > rp) {
            rp = dp->zero_floor;
        }
    }
    /* "If no product is nonzero, the result is the addend itself, rounded
    ** (and +0 for a zero addend)." */
    if (!any)
        return rat_round(out, &cm, ce, mode, dp->overflow);

    ri_zero(&sum);
    int q;
    if (dp->cdom_window > 0 && cnz && c->raw >= rp) {
        q = c->raw - dp->cdom_window;
        for (int g = a; g < b; g += dp->cdom_group) {
            int end = g + dp->cdom_group < b ? g + dp->cdom_group : b, ge;
            rat_int gs;
            exact_sum(t, g, end, &gs, &ge);
            align(&gs, ge, q, dp->align_round, &u);
            ri_add(&sum, &u);
        }
        align(&cm, ce, q, dp->align_round, &u);
        ri_add(&sum, &u);
        return zsign(dp, out, rat_round(out, &sum, q, mode, dp->overflow), &sum);
    }
    if (dp->window2 > 0) {
        /* "Two-level window: the groups cut window bits below the products'
        ** anchor and summed; that sum cut window2 bits below the larger of
        ** that anchor and the addend's raw exponent (align2_round), the
        ** addend window bits below it (align2_round); added exactly." */
        int r1 = rp;
        if (dp->anchor_min != LAD_NOFLOOR && r1 < dp->anchor_min)
            r1 = dp->anchor_min;
        int q1 = r1 - dp->window;
        for (int g = a; g < b; g += dp->group) {
            int end = g + dp->group < b ? g + dp->group : b, ge;
            rat_int gs;
            exact_sum(t, g, end, &gs, &ge);
            align(&gs, ge, q1, dp->align_round, &u);
            ri_add(&sum, &u);
        }
        int E = cnz && c->raw > r1 ? c->raw : r1;
        int q2 = E - dp->window2, qc = E - dp->window;
        rat_int s2, cu2;
        align(&sum, q1, q2, dp->align2_round, &s2);
        ri_zero(&cu2);
        if (cnz)
            align(&cm, ce, qc, dp->align2_round, &cu2);
        int lo = q2 < qc ? q2 : qc;
        ri_shl(&s2, q2 - lo);
        ri_shl(&cu2, qc - lo);
        ri_add(&s2, &cu2);
        return zsign(dp, out, rat_round(out, &s2, lo, mode, dp->overflow), &s2);
    }
    int r = rp;
    if (dp->c_anchor && cnz && c->raw > r)
        r = c->raw;
    if (dp->anchor_min != LAD_NOFLOOR && r < dp->anchor_min)
        r = dp->anchor_min;
    q = r - dp->window;
    if (dp->scale_floor != LAD_NOFLOOR && smax - dp->scale_floor > q)
        q = smax - dp->scale_floor;

    rat_int cu;
    ri_zero(&cu);
    if (dp->c_anchor && cnz)
        align(&cm, ce, q, dp->align_round, &cu);
    rat_int gu[LAD_KMAX];
    int gnz[LAD_KMAX], gs_raw[LAD_KMAX], ng = 0;
    for (int g = a; g < b; g += dp->group, ng++) {
        int end = g + dp->group < b ? g + dp->group : b, ge;
        int rg = -(1 << 30);
        gnz[ng] = 0;
        gs_raw[ng] = -(1 << 30);
        for (int j = g; j < end; j++)
            if (t[j].cls == V_FINITE) {
                gnz[ng] = 1;
                if (t[j].raw > rg)
                    rg = t[j].raw;
                if (t[j].sraw > gs_raw[ng])
                    gs_raw[ng] = t[j].sraw;
            }
        rat_int gs;
        exact_sum(t, g, end, &gs, &ge);
        int qg = q;
        if (dp->group > 1 && dp->cdom_per_group && cnz && gnz[ng] && c->raw >= rg &&
            c->raw - dp->cdom_window > q)
            qg = c->raw - dp->cdom_window;
        align(&gs, ge, qg, dp->align_round, &gu[ng]);
        ri_shl(&gu[ng], qg - q);
        ri_add(&sum, &gu[ng]);
    }
    ri_add(&sum, &cu);
    uint32_t w;
    if (dp->c_anchor || !cnz) {
        w = zsign(dp, out, rat_round(out, &sum, q, mode, dp->overflow), &sum);
    } else {
        /* the addend joins the exact sum, outside the window */
        int lo = q < ce ? q : ce;
        rat_int s2 = sum, c2 = cm;
        ri_shl(&s2, q - lo);
        ri_shl(&c2, ce - lo);
        ri_add(&s2, &c2);
        w = zsign(dp, out, rat_round(out, &s2, lo, mode, dp->overflow), &s2);
    }
    /* Subnormal result: lower-scale groups under 2^(floor - q) drop out. */
    if (dp->group_sub_floor != LAD_NOFLOOR && is_sub(out, w)) {
        rat_int thr, s2 = cu;
        ri_u64(&thr, 1, 0);
        if (q < dp->group_sub_floor)
            ri_shl(&thr, dp->group_sub_floor - q);
        for (int g = 0; g < ng; g++) {
            if (gnz[g] && gs_raw[g] < smax && ri_cmp_mag(&gu[g], &thr) < 0)
                continue;
            ri_add(&s2, &gu[g]);
        }
        w = zsign(dp, out, rat_round(out, &s2, q, mode, dp->overflow), &s2);
    }
    return w;
}

/* x + y rounded into f: one addition, specials first. */
static uint32_t add(const lad_datapath *dp, const lad_format *f, const rval *x,
                    const rval *y, int mode, uint32_t nan)
{
    if (x->cls == V_NAN || y->cls == V_NAN)
        return nan;
    if (x->cls == V_INF || y->cls == V_INF) {
        if (x->cls == V_INF && y->cls == V_INF && x->neg != y->neg)
            return nan;
        int neg = x->cls == V_INF ? x->neg : y->neg;
        return f->inf == LAD_INF_IEEE ? inf_word(f, neg) : max_word(f, neg);
    }
    rat_int xm, ym;
    int xe, ye;
    big_of(x, &xm, &xe);
    big_of(y, &ym, &ye);
    int lo = xe < ye ? xe : ye;
    ri_shl(&xm, xe - lo);
    ri_shl(&ym, ye - lo);
    ri_add(&xm, &ym);
    return rat_round(f, &xm, lo, mode, dp->overflow);
}

static uint32_t eval_int(const lad_datapath *dp, const lad_case *cs)
{
    int lanes[LAD_KMAX];
    int n = lanes_of(dp, cs, lanes);
    rval c = decode(&dp->c, cs->c);
    int64_t s = c.neg ? -(int64_t)c.mag : (int64_t)c.mag;
    for (int j = 0; j < n; j++) {
        rval a = decode(&dp->a, cs->a[lanes[j]]), b = decode(&dp->b, cs->b[lanes[j]]);
        int64_t p = (int64_t)(a.mag * b.mag);
        s += a.neg != b.neg ? -p : p;
    }
    if (dp->saturate) {
        if (s > INT32_MAX)
            s = INT32_MAX;
        if (s < INT32_MIN)
            s = INT32_MIN;
    }
    return (uint32_t)(uint64_t)s;
}

uint32_t rat_eval(const lad_datapath *dp, const lad_case *cs)
{
    if (dp->integer)
        return eval_int(dp, cs);
    int lanes[LAD_KMAX];
    int n = lanes_of(dp, cs, lanes);
    rterm t[LAD_KMAX];
    for (int j = 0; j < n; j++) {
        int l = lanes[j];
        rval a = decode(&dp->a, cut(&dp->a, dp->in_round, cs->a[l]));
        rval b = decode(&dp->b, cut(&dp->b, dp->in_round, cs->b[l]));
        rterm *p = &t[j];
        memset(p, 0, sizeof *p);
        p->neg = a.neg ^ b.neg;
        if (a.cls == V_NAN || b.cls == V_NAN)
            p->cls = V_NAN;
        else if (a.cls == V_INF || b.cls == V_INF)
            p->cls = a.cls == V_ZERO || b.cls == V_ZERO ? V_NAN : V_INF;
        else if (a.cls == V_ZERO || b.cls == V_ZERO)
            p->cls = V_ZERO;
        else {
            p->cls = V_FINITE;
            p->mag = a.mag * b.mag;
            p->e = a.e + b.e;
            p->raw = a.raw + b.raw;
        }
        if (dp->scale_block > 0) {
            int blk = j / dp->scale_block;
            rval sa = decode(&dp->sa, cs->sa[blk]), sb = decode(&dp->sb, cs->sb[blk]);
            if (sa.cls == V_NAN || sb.cls == V_NAN) {
                p->snan = 1;
                continue;
            }
            p->sraw = sa.raw + sb.raw;
            if (p->cls == V_FINITE) {
                if (sa.cls == V_ZERO || sb.cls == V_ZERO) {
                    p->cls = V_ZERO;
                } else {
                    p->mag *= sa.mag * sb.mag;
                    p->e += sa.e + sb.e;
                    p->raw += sa.raw + sb.raw;
                }
            }
        }
    }
    if (dp->norder && n == dp->norder) {
        /* the passes take the lanes in the datapath's order */
        rterm u[LAD_KMAX];
        for (int j = 0; j < n; j++)
            u[j] = t[dp->order[j]];
        memcpy(t, u, sizeof(rterm) * (size_t)n);
    }
    rval c = decode(&dp->c, cs->c), zero = {V_ZERO, 0, 0, 0, 0};
    uint32_t accnan = nan_word(&dp->acc);
    int npass = (n + dp->pass - 1) / dp->pass;
    /* c_last: the passes start from +0 and C joins in the last addition */
    rval acc = dp->chain == LAD_CHAIN && !dp->c_last ? c : zero;
    for (int p = 0; p < npass; p++) {
        int a = p * dp->pass, b = a + dp->pass < n ? a + dp->pass : n;
        if (dp->chain == LAD_CHAIN) {
            if (p == npass - 1 && !dp->d_via_acc && !dp->c_last)
                return pass(dp, t, a, b, &acc, &dp->d, dp->d_round, dp->nan);
            acc = decode(&dp->acc, pass(dp, t, a, b, &acc, &dp->acc, dp->acc_round, accnan));
        } else {
            rval r = decode(&dp->acc, pass(dp, t, a, b, &zero, &dp->acc, dp->acc_round, accnan));
            if (p == 0 && dp->c_last) {
                acc = r;
                continue;
            }
            rval prev = p == 0 ? c : acc;
            acc = decode(&dp->acc, add(dp, &dp->acc, &prev, &r, dp->acc_round, accnan));
        }
    }
    return add(dp, &dp->d, &acc, dp->c_last ? &c : &zero, dp->d_round, dp->nan);
}
