/*
** The reference evaluator of the datapath model: evaluates one output
** element of a tensor-core instruction from raw words, with integer
** arithmetic only, for every datapath lad_datapath_check accepts. The
** plan's fast paths (plan*.c) must give its words exactly. datapath.h
** lists the parameters; docs/model.md gives the algorithm with its
** evidence.
**
** Shape of one evaluation:
**
**   select lanes (sparsity)  ->  cut and decode A, B, scales, C
**   for each pass of `pass` lanes:
**       specials (NaN, Inf, Inf*0, +Inf-Inf) decide the pass outright;
**       else: exact products, anchor, quantum, groups aligned into the
**       window, exact integer sum, one rounding into acc (or d)
**   the last pass result, rounded into d, is the answer.
**
** Every intermediate value is an integer count of a power of two. Window sums
** stay far below 2^127: at most LAD_KMAX terms of at most window+2 bits,
** window <= 60 (lad_datapath_check).
*/
#include "datapath_int.h"

#include <stddef.h>
#include <string.h>

/* x * 2^(e - q) as a signed integer, rounded with align_round when e < q.
** Caller guarantees e - q < 100 (the value fits). */
i128 lad_align(lad_u128 mag, int neg, int e, int q, int mode)
{
    lad_u128 m;
    if (e >= q) {
        m = mag << (e - q);
    } else {
        int sh = q - e;
        if (sh >= 128) {
            m = 0;
            if (mode == LAD_RD && neg && mag)
                m = 1;
        } else {
            m = mag >> sh;
            lad_u128 rem = mag & ((((lad_u128)1) << sh) - 1);
            if (mode == LAD_RD && neg && rem)
                m++;
            else if (mode == LAD_RNE) {
                lad_u128 half = (lad_u128)1 << (sh - 1);
                if (rem > half || (rem == half && (m & 1)))
                    m++;
            }
        }
    }
    return neg ? -(i128)m : (i128)m;
}

/* Rounds the signed integer u * 2^q into format f; an exact zero is +0 and
** so is anything that rounds to zero (the tensor cores drop the sign). */
lad_word_t lad_round_units(const lad_format *f, i128 u, int q, int sticky,
                            int mode, int ovf)
{
    int neg = u < 0;
    lad_u128 mag = neg ? (lad_u128)(-u) : (lad_u128)u;
    if (mag == 0 && !sticky)
        return 0;
    lad_word_t w = lad_round_value(f, neg, mag, q, sticky, mode, ovf, NULL);
    lad_value v = lad_decode(f, w);
    return v.cls == LAD_ZERO ? 0 : w;
}

/*
** Adds two finite values exactly and rounds the sum into f: x + y where y
** may be far from x. When the exponents are too far apart for one integer,
** the smaller value only decides a sticky bit below the larger one's guard
** bits, which rounds exactly the same way.
*/
lad_word_t lad_add_round(const lad_format *f, i128 xu, int xq, const term *y,
                            int mode, int ovf)
{
    i128 yu = y->cls == LAD_ZERO ? 0 : (y->neg ? -(i128)y->mag : (i128)y->mag);
    int yq = y->exp;
    if (yu == 0)
        return lad_round_units(f, xu, xq, 0, mode, ovf);
    if (xu == 0)
        return lad_round_units(f, yu, yq, 0, mode, ovf);
    /* make x the one with the larger leading bit */
    lad_u128 xm = xu < 0 ? (lad_u128)-xu : (lad_u128)xu;
    lad_u128 ym = yu < 0 ? (lad_u128)-yu : (lad_u128)yu;
    int xl = lad_bitlen128(xm) + xq, yl = lad_bitlen128(ym) + yq;
    if (yl > xl) {
        i128 tu = xu; xu = yu; yu = tu;
        int tq = xq; xq = yq; yq = tq;
        lad_u128 tm = xm; xm = ym; ym = tm;
        int tl = xl; xl = yl; yl = tl;
    }
    int lo = xq < yq ? xq : yq;
    if (xl - lo <= 120) {
        i128 s = shl(xu, xq - lo) + shl(yu, yq - lo);
        return lad_round_units(f, s, lo, 0, mode, ovf);
    }
    /* Too wide for one integer: x shifted up to 126 bits sets the unit u;
    ** y is cut to u, the bits cut off a sticky amount of y's sign. y may
    ** reach above u (f64 products have 106 bits); its cut bits then lie
    ** more than 20 bits below x's top, so the sum keeps x's sign and 124
    ** bits above u, far more than any rounding needs. */
    int g = 126 - lad_bitlen128(xm), u = xq - g;
    i128 s = shl(xu, g);
    int sticky = 0;
    if (yq >= u) {
        s += shl(yu, yq - u);
    } else {
        int sh = u - yq;
        lad_u128 t = sh >= 128 ? 0 : ym >> sh;
        sticky = sh >= 128 || (ym & ((((lad_u128)1) << sh) - 1)) != 0;
        s += yu < 0 ? -(i128)t : (i128)t;
        if (sticky && (yu < 0) != (s < 0))
            s += s < 0 ? 1 : -1;  /* x - tiny = (x - 1 unit) + (1 unit - tiny) */
    }
    return lad_round_units(f, s, u, sticky, mode, ovf);
}

/* Decoded operands of one evaluation, physical lane order. */
typedef struct operands {
    int n;                       /* physical lanes */
    term p[LAD_KMAX];            /* products (scales folded in) */
    int sraw[LAD_KMAX];          /* scale-pair raw exponent per lane */
    int snan[LAD_KMAX];          /* a scale of this lane's block is NaN */
} operands;

/* ftz_in: a subnormal or zero input reads as +0. */
static void flush_in(term *t)
{
    if (t->cls == LAD_SUBNORMAL || t->cls == LAD_ZERO) {
        t->cls = LAD_ZERO;
        t->neg = 0;
        t->mag = 0;
    }
}

/* The zero of format f with sign neg (+0 where f has no -0). */
static lad_word_t zero_word(const lad_format *f, int neg)
{
    return lad_round_value(f, neg, 0, 0, 0, LAD_RZ, LAD_OVF_INF, NULL);
}

/* zero_sign: a zero w that rounds u * 2^q + y (y NULL: none), a nonzero
** sum, becomes the zero of the sum's sign. */
static lad_word_t keep_zero_sign(const lad_datapath *dp, const lad_format *f, lad_word_t w,
                                 i128 u, int q, const term *y)
{
    if (!dp->zero_sign || lad_decode(f, w).cls != LAD_ZERO)
        return w;
    int neg;
    i128 yu = y && y->cls != LAD_ZERO ? (y->neg ? -(i128)y->mag : (i128)y->mag) : 0;
    if (yu == 0 || u == 0) {
        neg = u ? u < 0 : yu < 0;
    } else if ((u < 0) == (yu < 0)) {
        neg = u < 0;
    } else {
        /* opposite signs: the larger magnitude's, compared at one unit */
        lad_u128 um = u < 0 ? (lad_u128)-u : (lad_u128)u, ym = y->mag;
        int ul = lad_bitlen128(um) + q, yl = lad_bitlen128(ym) + y->exp;
        if (ul != yl) {
            neg = ul > yl ? u < 0 : yu < 0;
        } else {
            if (q > y->exp)
                um <<= q - y->exp;
            else
                ym <<= y->exp - q;
            if (um == ym)
                return w;  /* an exact cancellation */
            neg = um > ym ? u < 0 : yu < 0;
        }
    }
    if (u == 0 && yu == 0)
        return w;
    return neg ? zero_word(f, 1) : w;
}

/* A result word w of f as ftz_out leaves it: a subnormal becomes zero. */
static lad_word_t flush_out(const lad_datapath *dp, const lad_format *f, lad_word_t w)
{
    if (!dp->ftz_out)
        return w;
    lad_value v = lad_decode(f, w);
    return v.cls == LAD_SUBNORMAL ? zero_word(f, v.neg) : w;
}

static void products(const lad_datapath *dp, const lad_case *cs, operands *op)
{
    int lanes[LAD_KMAX];
    int n = lad_select_lanes(dp, cs, lanes);
    op->n = n;
    lad_value scale_a[LAD_SCALEMAX], scale_b[LAD_SCALEMAX];
    for (int i = 0; i < lad_datapath_nscales(dp); i++) {
        scale_a[i] = lad_decode(&dp->sa, cs->sa[i]);
        scale_b[i] = lad_decode(&dp->sb, cs->sb[i]);
    }
    for (int j = 0; j < n; j++) {
        int l = lanes[j];
        lad_word_t wa = cut_word(&dp->a, dp->in_round, cs->a[l]);
        lad_word_t wb = cut_word(&dp->b, dp->in_round, cs->b[l]);
        /* the reference decodes with lad_decode (format.c), not with the
        ** fast paths' decoder, so that the two check each other */
        term a = decode_term(&dp->a, wa);
        term b = decode_term(&dp->b, wb);
        if (dp->ftz_in) {
            flush_in(&a);
            flush_in(&b);
        }
        term *t = &op->p[j];
        t->neg = a.neg ^ b.neg;
        op->sraw[j] = 0;
        op->snan[j] = 0;
        if (a.cls == LAD_NAN || b.cls == LAD_NAN) {
            t->cls = LAD_NAN;
        } else if (a.cls == LAD_INFINITE || b.cls == LAD_INFINITE) {
            t->cls = (a.cls == LAD_ZERO || b.cls == LAD_ZERO) ? LAD_NAN : LAD_INFINITE;
        } else {
            t->mag = (lad_u128)(uint64_t)a.mag * (uint64_t)b.mag;
            t->exp = a.exp + b.exp;
            t->raw = a.raw + b.raw;
            t->cls = t->mag ? LAD_NORMAL : LAD_ZERO;
            if (t->cls == LAD_NORMAL && dp->prod_inf != LAD_NOFLOOR &&
                lad_bitlen128(t->mag) - 1 + t->exp >= dp->prod_inf)
                t->cls = LAD_INFINITE;
        }
        if (dp->scale_block > 0) {
            int blk = j / dp->scale_block;
            const lad_value sa = scale_a[blk], sb = scale_b[blk];
            if (sa.cls == LAD_NAN || sb.cls == LAD_NAN) {
                op->snan[j] = 1;
                continue;
            }
            op->sraw[j] = sa.raw + sb.raw;
            if (t->cls == LAD_NORMAL) {
                t->mag *= (lad_u128)sa.mag * sb.mag;
                t->exp += sa.exp + sb.exp;
                t->raw += sa.raw + sb.raw;
                if (t->mag == 0)
                    t->cls = LAD_ZERO;
            }
        }
    }
}

/* Exact sum of the nonzero products in lanes [from, to) as units of 2^*e
** (*e is the smallest exponent among them); 0 when all are zero. The span
** is bounded by lad_datapath_check. */
static i128 group_sum(const operands *op, int from, int to, int *e)
{
    int lo = 1 << 30;
    for (int j = from; j < to; j++)
        if (op->p[j].cls == LAD_NORMAL && op->p[j].exp < lo)
            lo = op->p[j].exp;
    i128 s = 0;
    for (int j = from; j < to; j++) {
        const term *t = &op->p[j];
        if (t->cls == LAD_NORMAL) {
            i128 v = (i128)(t->mag << (t->exp - lo));
            s += t->neg ? -v : v;
        }
    }
    *e = lo;
    return s;
}

/* A group sum s * 2^e cut to units of 2^q with `mode`. */
static i128 align_signed(i128 s, int e, int q, int mode)
{
    if (s == 0)
        return 0;
    int neg = s < 0;
    return lad_align(neg ? (lad_u128)-s : (lad_u128)s, neg, e, q, mode);
}

/* The exact sum of the nonzero products of lanes from, from + step, ...
** below to, each cut into units of 2^(R - window) for their own largest raw
** exponent R (floored at anchor_min) with align_round; *q gets that
** quantum. Returns 0 with *q untouched when every product is zero. */
static i128 cut_sum(const lad_datapath *dp, const operands *op, int from, int to, int step,
                    int *q)
{
    int r = LAD_NOFLOOR, any = 0;
    for (int j = from; j < to; j += step)
        if (op->p[j].cls == LAD_NORMAL && (!any || op->p[j].raw > r)) {
            r = op->p[j].raw;
            any = 1;
        }
    if (!any)
        return 0;
    if (r < dp->anchor_min)
        r = dp->anchor_min;
    *q = r - dp->window;
    i128 s = 0;
    for (int j = from; j < to; j += step) {
        const term *t = &op->p[j];
        if (t->cls == LAD_NORMAL)
            s += lad_align(t->mag, t->neg, t->exp, *q, dp->align_round);
    }
    return s;
}

/*
** The pass of a two-level window (lad_datapath.window2) once specials are
** out and some product is nonzero: rp is the products' anchor. Groups are
** summed exactly and cut `window` bits below it (with even_odd: the even and
** the odd lanes are summed so, each below its own anchor, and each sum cut
** again `window` bits below rp with align2_round); their sum is cut window2
** bits below the pass anchor E (rp or the addend's raw exponent), the
** addend `window` bits below E, both with align2_round; the two are added
** exactly, cut to norm2 bits when set, and rounded.
*/
static lad_word_t two_level(const lad_datapath *dp, const operands *op, int from, int to,
                            const term *c, int rp, const lad_format *out, int mode)
{
    int r = rp < dp->anchor_min ? dp->anchor_min : rp;
    int q1 = r - dp->window;
    i128 sum = 0;
    if (dp->even_odd) {
        for (int h = 0; h < 2; h++) {
            int qh = q1;
            i128 s = cut_sum(dp, op, from + h, to, 2, &qh);
            sum += align_signed(s, qh, q1, dp->align2_round);
        }
    } else {
        for (int g = from; g < to; g += dp->group) {
            int e, end = g + dp->group < to ? g + dp->group : to;
            i128 s = group_sum(op, g, end, &e);
            sum += align_signed(s, e, q1, dp->align_round);
        }
    }
    int cnz = c->cls != LAD_ZERO;
    int E = cnz && c->raw > r ? c->raw : r;
    int q2 = E - dp->window2, qc = E - dp->window;
    if (dp->c2_drop && c->raw < E - dp->window - 1)
        cnz = 0;
    i128 s2 = q2 > q1 ? align_signed(sum, q1, q2, dp->align2_round) : shl(sum, q1 - q2);
    i128 cu = cnz ? lad_align(c->mag, c->neg, c->exp, qc, dp->align2_round) : 0;
    int lo = q2 < qc ? q2 : qc;
    i128 total = shl(s2, q2 - lo) + shl(cu, qc - lo);
    if (dp->norm2 > 0 && total != 0) {
        lad_u128 m = total < 0 ? (lad_u128)-total : (lad_u128)total;
        int lead = lad_bitlen128(m) - 1 + lo, emin = 1 - out->bias;
        int qn = (lead > emin ? lead : emin) - dp->norm2;
        if (qn > lo) {
            total = align_signed(total, lo, qn, dp->align2_round);
            lo = qn;
        }
    }
    return keep_zero_sign(dp, out, lad_round_units(out, total, lo, 0, mode, dp->overflow), total,
                          lo, NULL);
}

/* limbs += mag * 2^sh (mag below 2^96, sh >= 0 within the limbs). */
static void limbs_add(uint32_t *l, lad_u128 mag, int sh)
{
    lad_u128 v = mag << (sh % 32);
    uint64_t carry = 0;
    for (int i = sh / 32, k = 0; i < LAD_EXACT_LIMBS; i++, k++) {
        if (k >= 4 && !carry)
            break;
        uint64_t x = (uint64_t)l[i] + carry + (k < 4 ? (uint32_t)(v >> (32 * k)) : 0);
        l[i] = (uint32_t)x;
        carry = x >> 32;
    }
}

/* |x| against |y| for two nonzero finite terms: -1, 0 or 1. */
static int cmp_mag(const term *x, const term *y)
{
    int xl = lad_bitlen128(x->mag) + x->exp, yl = lad_bitlen128(y->mag) + y->exp;
    if (xl != yl)
        return xl < yl ? -1 : 1;
    /* same top bit: the one with the higher unit has fewer bits; shifting
    ** it down to the other's unit keeps it within the other's length */
    lad_u128 xm = x->exp > y->exp ? x->mag << (x->exp - y->exp) : x->mag;
    lad_u128 ym = y->exp > x->exp ? y->mag << (y->exp - x->exp) : y->mag;
    return xm < ym ? -1 : xm > ym;
}

/*
** The zero an ieee_zero pass gives, as an IEEE fma does: a sum of zero
** terms only is -0 when every one is -0 (with rd: when any is); nonzero
** terms that cancel give +0 (rd: -0); a nonzero sum that rounds to zero
** keeps its sign (neg).
*/
static lad_word_t ieee_zero_word(const operands *op, int from, int to, const term *c,
                                 const lad_format *out, int mode, int nterms, int cancel,
                                 int neg)
{
    if (nterms == 0) {
        int all = c->neg, any = c->neg;
        for (int j = from; j < to; j++) {
            all &= op->p[j].neg;
            any |= op->p[j].neg;
        }
        neg = mode == LAD_RD ? any : all;
    } else if (cancel) {
        neg = mode == LAD_RD;
    }
    return zero_word(out, neg);
}

/*
** An exact pass (lad_datapath.exact): the nonzero products of [from, to)
** and the addend added without loss, then rounded once into out; zero
** (exact or rounded) is +0 unless ieee_zero. Two terms (pass 1: one fma)
** are added by lad_add_round whatever their exponent gap, more in limbs.
*/
static lad_word_t exact_pass(const lad_datapath *dp, const operands *op, int from, int to,
                             const term *c, const lad_format *out, int mode)
{
    const term *ts[LAD_KMAX + 1];
    int n = 0, lo = 1 << 30;
    for (int j = from; j < to; j++)
        if (op->p[j].cls == LAD_NORMAL)
            ts[n++] = &op->p[j];
    if (c->cls != LAD_ZERO)
        ts[n++] = c;
    if (n == 0)
        return dp->ieee_zero ? ieee_zero_word(op, from, to, c, out, mode, 0, 0, 0) : 0;
    if (n <= 2) {
        term zero = {LAD_ZERO, 0, 0, 0, 0};
        const term *x = ts[0], *y = n == 2 ? ts[1] : &zero;
        lad_word_t w = lad_add_round(out, x->neg ? -(i128)x->mag : (i128)x->mag, x->exp, y,
                                     mode, dp->overflow);
        if (w != 0 || !dp->ieee_zero)
            return w;
        int cmp = n == 2 ? cmp_mag(x, y) : 1;
        int cancel = cmp == 0 && x->neg != y->neg;
        return ieee_zero_word(op, from, to, c, out, mode, n, cancel,
                              cmp >= 0 ? x->neg : y->neg);
    }
    for (int i = 0; i < n; i++)
        if (ts[i]->exp < lo)
            lo = ts[i]->exp;
    uint32_t pos[LAD_EXACT_LIMBS] = {0}, neg[LAD_EXACT_LIMBS] = {0};
    for (int i = 0; i < n; i++)
        limbs_add(ts[i]->neg ? neg : pos, ts[i]->mag, ts[i]->exp - lo);
    int sign = 0, k = LAD_EXACT_LIMBS - 1;
    while (k > 0 && pos[k] == neg[k])
        k--;
    if (neg[k] > pos[k]) {
        sign = 1;
        for (int i = 0; i < LAD_EXACT_LIMBS; i++) {
            uint32_t t = pos[i];
            pos[i] = neg[i];
            neg[i] = t;
        }
    }
    uint64_t borrow = 0;
    int nz = 0;
    for (int i = 0; i < LAD_EXACT_LIMBS; i++) {
        uint64_t x = (uint64_t)pos[i] - neg[i] - borrow;
        pos[i] = (uint32_t)x;
        borrow = (x >> 32) & 1;
        nz |= pos[i] != 0;
    }
    if (!nz)
        return dp->ieee_zero ? ieee_zero_word(op, from, to, c, out, mode, n, 1, 0) : 0;
    lad_word_t w = lad_round_big(out, sign, pos, LAD_EXACT_LIMBS, lo, 0, mode, dp->overflow, NULL);
    if (lad_decode(out, w).cls != LAD_ZERO)
        return w;
    return dp->ieee_zero ? ieee_zero_word(op, from, to, c, out, mode, n, 0, sign) : 0;
}

/*
** One pass over physical lanes [from, to) with addend c: returns the pass
** result as a word of format `out` rounded with `mode`; NaN results are the
** word `nan`.
*/
static lad_word_t pass_eval(const lad_datapath *dp, const operands *op, int from,
                            int to, const term *c, const lad_format *out,
                            int mode, lad_word_t nan)
{
    /* Specials first: NaN anywhere, then infinities. */
    int pinf = 0, ninf = 0;
    for (int j = from; j < to; j++) {
        if (op->snan[j] || op->p[j].cls == LAD_NAN)
            return nan;
        if (op->p[j].cls == LAD_INFINITE)
            *(op->p[j].neg ? &ninf : &pinf) = 1;
    }
    if (c->cls == LAD_NAN)
        return nan;
    if (c->cls == LAD_INFINITE)
        *(c->neg ? &ninf : &pinf) = 1;
    if (pinf && ninf)
        return nan;
    if (pinf || ninf)
        return lad_format_inf(out, ninf);

    /* The anchor: the largest raw exponent of the terms that take part. */
    int rp = LAD_NOFLOOR, smax = LAD_NOFLOOR, any = 0;
    for (int j = from; j < to; j++) {
        const term *t = &op->p[j];
        if (t->cls == LAD_NORMAL) {
            any = 1;
            if (t->raw > rp)
                rp = t->raw;
            if (op->sraw[j] > smax)
                smax = op->sraw[j];
        } else if (dp->zero_floor != LAD_NOFLOOR && dp->zero_floor > rp) {
            rp = dp->zero_floor;
        }
    }
    if (dp->exact)  /* its own zeros (ieee_zero); no anchor */
        return exact_pass(dp, op, from, to, c, out, mode);
    int cnz = c->cls != LAD_ZERO;
    if (!any)  /* no product: the addend alone, rounded (exact zero: +0) */
        return lad_add_round(out, 0, 0, c, mode, dp->overflow);

    int r = rp;
    if (dp->c_anchor && cnz && c->raw > r)
        r = c->raw;
    if (r < dp->anchor_min)
        r = dp->anchor_min;

    i128 sum = 0;
    int q;
    if (dp->cdom_window > 0 && cnz && c->raw >= rp) {
        /* C-dominant merge: C sets a coarser quantum; groups summed exactly. */
        q = c->raw - dp->cdom_window;
        for (int g = from; g < to; g += dp->cdom_group) {
            int e, end = g + dp->cdom_group < to ? g + dp->cdom_group : to;
            i128 s = group_sum(op, g, end, &e);
            sum += align_signed(s, e, q, dp->align_round);
        }
        sum += lad_align(c->mag, c->neg, c->exp, q, dp->align_round);
        return keep_zero_sign(dp, out, lad_round_units(out, sum, q, 0, mode, dp->overflow),
                              sum, q, NULL);
    }

    if (dp->window2 > 0)
        return two_level(dp, op, from, to, c, rp, out, mode);

    q = r - dp->window;
    if (dp->scale_floor != LAD_NOFLOOR && smax - dp->scale_floor > q)
        q = smax - dp->scale_floor;
    i128 cu = 0;
    if (dp->c_anchor && cnz)
        cu = lad_align(c->mag, c->neg, c->exp, q, dp->align_round);

    /* Groups: exact sums, each cut into the window. */
    i128 gu[LAD_KMAX];
    int gsraw[LAD_KMAX], gnz[LAD_KMAX], ng = 0;
    for (int g = from; g < to; g += dp->group, ng++) {
        int end = g + dp->group < to ? g + dp->group : to;
        int e, rg = LAD_NOFLOOR;
        gsraw[ng] = LAD_NOFLOOR;
        gnz[ng] = 0;
        for (int j = g; j < end; j++)
            if (op->p[j].cls == LAD_NORMAL) {
                gnz[ng] = 1;
                if (op->p[j].raw > rg)
                    rg = op->p[j].raw;
                if (op->sraw[j] > gsraw[ng])
                    gsraw[ng] = op->sraw[j];
            }
        if (dp->group == 1) {
            const term *t = &op->p[g];
            gu[ng] = t->cls == LAD_NORMAL ? lad_align(t->mag, t->neg, t->exp, q, dp->align_round) : 0;
        } else {
            i128 s = group_sum(op, g, end, &e);
            int qg = q;
            if (dp->cdom_per_group && cnz && gnz[ng] && c->raw >= rg &&
                c->raw - dp->cdom_window > q)
                qg = c->raw - dp->cdom_window;
            gu[ng] = shl(align_signed(s, e, qg, dp->align_round), qg - q);
        }
        sum += gu[ng];
    }
    sum += cu;

    lad_word_t w;
    if (dp->c_anchor || !cnz)
        w = keep_zero_sign(dp, out, lad_round_units(out, sum, q, 0, mode, dp->overflow), sum,
                           q, NULL);
    else
        w = keep_zero_sign(dp, out, lad_add_round(out, sum, q, c, mode, dp->overflow), sum, q,
                           c);

    /* Lower-scale groups that only reach a subnormal result are dropped. */
    if (dp->group_sub_floor != LAD_NOFLOOR) {
        lad_value v = lad_decode(out, w);
        if (v.cls == LAD_SUBNORMAL) {
            /* threshold 2^t units; past 2^127 every group is below it (a
            ** floor far above q: the shift would be undefined) */
            int t = dp->group_sub_floor - q;
            lad_u128 thr = t >= 127 ? (lad_u128)1 << 127 : t > 0 ? (lad_u128)1 << t : 1;
            i128 s2 = cu;
            for (int g = 0; g < ng; g++) {
                lad_u128 mag = gu[g] < 0 ? (lad_u128)-gu[g] : (lad_u128)gu[g];
                if (gnz[g] && gsraw[g] < smax && mag < thr)
                    continue;
                s2 += gu[g];
            }
            w = keep_zero_sign(dp, out, lad_round_units(out, s2, q, 0, mode, dp->overflow), s2,
                               q, NULL);
        }
    }
    return w;
}

/* x + y rounded into f, specials included (one IEEE addition). */
lad_word_t lad_add_terms(const lad_datapath *dp, const lad_format *f,
                          const term *x, const term *y, int mode, lad_word_t nan)
{
    if (x->cls == LAD_NAN || y->cls == LAD_NAN)
        return nan;
    if (x->cls == LAD_INFINITE || y->cls == LAD_INFINITE) {
        if (x->cls == LAD_INFINITE && y->cls == LAD_INFINITE && x->neg != y->neg)
            return nan;
        return lad_format_inf(f, x->cls == LAD_INFINITE ? x->neg : y->neg);
    }
    i128 xu = x->cls == LAD_ZERO ? 0 : (x->neg ? -(i128)x->mag : (i128)x->mag);
    return lad_add_round(f, xu, x->exp, y, mode, dp->overflow);
}

/* x + y rounded into f as an IEEE addition does it, zeros with their
** signs (-0 + -0 is -0; an exact cancellation +0, -0 toward -Inf), then
** ftz_out: the additions of a tree (host f32 arithmetic in MMA-Sim). */
static lad_word_t ieee_add(const lad_datapath *dp, const lad_format *f, const term *x,
                           const term *y, int mode, lad_word_t nan)
{
    lad_word_t w;
    if (x->cls == LAD_ZERO && y->cls == LAD_ZERO)
        w = zero_word(f, mode == LAD_RD ? (x->neg | y->neg) : (x->neg & y->neg));
    else if (y->cls == LAD_ZERO)
        w = lad_add_terms(dp, f, y, x, mode, nan);
    else
        w = lad_add_terms(dp, f, x, y, mode, nan);
    if (w == 0 && mode == LAD_RD && x->cls != LAD_ZERO && y->cls != LAD_ZERO &&
        x->cls != LAD_INFINITE && y->cls != LAD_INFINITE && x->neg != y->neg)
        w = zero_word(f, 1);  /* x - x toward -Inf */
    return flush_out(dp, f, w);
}

/*
** A tree pass (lad_datapath.tree) over physical lanes [from, to): each
** product rounded into acc (with ftz_out), then added in pairs, lanes 0+1,
** 2+3, ..., the pair sums in pairs again, an odd one passing up unchanged.
** Returns the word of acc.
*/
static lad_word_t tree_pass(const lad_datapath *dp, const operands *op, int from, int to,
                            lad_word_t nan)
{
    const lad_format *f = &dp->acc;
    term v[LAD_KMAX];
    int n = 0;
    for (int j = from; j < to; j++, n++) {
        const term *t = &op->p[j];
        if (t->cls == LAD_NORMAL)
            v[n] = decode_term(f, flush_out(dp, f, lad_round_value(f, t->neg, t->mag, t->exp, 0,
                                                                   dp->acc_round, dp->overflow, NULL)));
        else
            v[n] = *t;
    }
    if (n == 0)
        return 0;
    while (n > 1) {
        int m = 0;
        for (int i = 0; i + 1 < n; i += 2)
            v[m++] = decode_term(f, ieee_add(dp, f, &v[i], &v[i + 1], dp->acc_round, nan));
        if (n % 2)
            v[m++] = v[n - 1];
        n = m;
    }
    if (v[0].cls == LAD_NAN)
        return nan;
    if (v[0].cls == LAD_INFINITE)
        return lad_format_inf(f, v[0].neg);
    if (v[0].cls == LAD_ZERO)
        return zero_word(f, v[0].neg);
    return lad_round_value(f, v[0].neg, v[0].mag, v[0].exp, 0, dp->acc_round, dp->overflow, NULL);
}

lad_word_t lad_eval_integer(const lad_datapath *dp, const lad_case *cs)
{
    int lanes[LAD_KMAX];
    int n = lad_select_lanes(dp, cs, lanes);
    lad_value c = lad_decode(&dp->c, cs->c);
    i128 t = c.neg ? -(i128)c.mag : (i128)c.mag;
    for (int j = 0; j < n; j++) {
        lad_value a = lad_decode(&dp->a, cs->a[lanes[j]]);
        lad_value b = lad_decode(&dp->b, cs->b[lanes[j]]);
        i128 p = (i128)(a.mag * b.mag);
        t += (a.neg ^ b.neg) ? -p : p;
    }
    int neg = t < 0;
    return lad_round_value(&dp->d, neg, neg ? (lad_u128)-t : (lad_u128)t, 0, 0,
                           LAD_RZ, dp->saturate ? LAD_OVF_SAT : LAD_OVF_INF, NULL);
}

/* Every datapath, every case: lad_eval's reference implementation. */
lad_word_t lad_eval_general(const lad_datapath *dp, const lad_case *cs)
{
    operands op;
    products(dp, cs, &op);
    if (dp->norder && op.n == dp->norder) {
        /* lanes fill the passes in the datapath's order (scale blocks
        ** were assigned by physical lane already) */
        operands tmp;
        tmp.n = op.n;
        for (int i = 0; i < op.n; i++) {
            tmp.p[i] = op.p[dp->order[i]];
            tmp.sraw[i] = op.sraw[dp->order[i]];
            tmp.snan[i] = op.snan[dp->order[i]];
        }
        op = tmp;
    }
    term c = decode_term(&dp->c, cs->c);
    if (dp->ftz_in)
        flush_in(&c);
    term zero = {LAD_ZERO, 0, 0, 0, 0};
    lad_word_t acc_nan = lad_format_nan(&dp->acc);
    int npass = op.n > 0 ? (op.n + dp->pass - 1) / dp->pass : 1;

    /* The running value, in acc format between passes. */
    term acc = dp->chain == LAD_CHAIN && !dp->c_last ? c : zero;
    for (int p = 0; p < npass; p++) {
        int from = p * dp->pass, to = from + dp->pass < op.n ? from + dp->pass : op.n;
        int last = p == npass - 1;
        if (dp->chain == LAD_CHAIN) {
            if (last && !dp->d_via_acc && !dp->c_last)
                return flush_out(dp, &dp->d, pass_eval(dp, &op, from, to, &acc, &dp->d,
                                                       dp->d_round, dp->nan));
            acc = decode_term(&dp->acc, flush_out(dp, &dp->acc,
                                                  pass_eval(dp, &op, from, to, &acc, &dp->acc,
                                                            dp->acc_round, acc_nan)));
        } else {
            lad_word_t rw = dp->tree ? tree_pass(dp, &op, from, to, acc_nan)
                                   : flush_out(dp, &dp->acc, pass_eval(dp, &op, from, to, &zero,
                                                                      &dp->acc, dp->acc_round, acc_nan));
            term r = decode_term(&dp->acc, rw);
            const term *x = p == 0 && !dp->c_last ? &c : &acc;
            if (p == 0 && dp->c_last)
                acc = r;
            else if (dp->tree)
                acc = decode_term(&dp->acc, ieee_add(dp, &dp->acc, x, &r, dp->acc_round, acc_nan));
            else
                acc = decode_term(&dp->acc, flush_out(dp, &dp->acc,
                                                      lad_add_terms(dp, &dp->acc, x, &r, dp->acc_round,
                                                                    acc_nan)));
        }
    }
    /* acc holds the result in acc format: one more rounding into d, which
    ** adds C when it comes last (a tree keeps the sign of a zero: nothing
    ** is added). */
    if (dp->tree && acc.cls == LAD_ZERO)
        return zero_word(&dp->d, acc.neg);
    return flush_out(dp, &dp->d, lad_add_terms(dp, &dp->d, &acc, dp->c_last ? &c : &zero,
                                               dp->d_round, dp->nan));
}
