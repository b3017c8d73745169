/*
** The reference evaluator of the datapath model: evaluates one output
** element of a tensor-core instruction from raw words, with integer
** arithmetic only, for every datapath lad_datapath_check accepts. plan.c's
** fast paths must give its words exactly. datapath.h lists the parameters;
** docs/model.md gives the algorithm with its evidence.
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
uint32_t lad_round_units(const lad_format *f, i128 u, int q, int sticky,
                            int mode, int ovf)
{
    int neg = u < 0;
    lad_u128 mag = neg ? (lad_u128)(-u) : (lad_u128)u;
    if (mag == 0 && !sticky)
        return 0;
    uint32_t w = lad_round_value(f, neg, mag, q, sticky, mode, ovf, NULL);
    lad_value v = lad_decode(f, w);
    return v.cls == LAD_ZERO ? 0 : w;
}

/*
** Adds two finite values exactly and rounds the sum into f: x + y where y
** may be far from x. When the exponents are too far apart for one integer,
** the smaller value only decides a sticky bit below the larger one's guard
** bits, which rounds exactly the same way.
*/
uint32_t lad_add_round(const lad_format *f, i128 xu, int xq, const term *y,
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
    int xbits = lad_bitlen128(xm);
    if (xl - lo <= 120) {
        i128 s = shl(xu, xq - lo) + shl(yu, yq - lo);
        return lad_round_units(f, s, lo, 0, mode, ovf);
    }
    /* y lies entirely below x's lowest bit minus a few guard bits: shift x
    ** up by g guard bits, then y is a sticky amount of sign sign(y). */
    int g = 120 - xbits;
    if (g > xq - yl)
        g = xq - yl;  /* keep y below the new lowest bit */
    if (g < 3)
        g = 3;
    i128 s = shl(xu, g);
    int sticky = 1;
    if ((yu < 0) != (xu < 0))
        s += xu < 0 ? 1 : -1;   /* x - tiny = (x - 1 unit) + (1 unit - tiny) */
    (void)ym;
    return lad_round_units(f, s, xq - g, sticky, mode, ovf);
}

/* Decoded operands of one evaluation, physical lane order. */
typedef struct operands {
    int n;                       /* physical lanes */
    term p[LAD_KMAX];            /* products (scales folded in) */
    int sraw[LAD_KMAX];          /* scale-pair raw exponent per lane */
    int snan[LAD_KMAX];          /* a scale of this lane's block is NaN */
} operands;

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
    lad_opfmt fa = lad_opfmt_of(&dp->a), fb = lad_opfmt_of(&dp->b);
    int qa = lad_opfmt_usable(&dp->a, &fa), qb = lad_opfmt_usable(&dp->b, &fb);
    for (int j = 0; j < n; j++) {
        int l = lanes[j];
        uint32_t wa = cut_word(&dp->a, dp->in_round, cs->a[l]);
        uint32_t wb = cut_word(&dp->b, dp->in_round, cs->b[l]);
        term a = qa ? opfmt_term(&fa, wa) : decode_term(&dp->a, wa);
        term b = qb ? opfmt_term(&fb, wb) : decode_term(&dp->b, wb);
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

/*
** The pass of a two-level window (lad_datapath.window2) once specials are
** out and some product is nonzero: rp is the products' anchor. Groups are
** summed exactly and cut `window` bits below it; their sum is cut window2
** bits below the pass anchor E (rp or the addend's raw exponent), the
** addend `window` bits below E; the two are added exactly and rounded.
*/
static uint32_t two_level(const lad_datapath *dp, const operands *op, int from, int to,
                          const term *c, int rp, const lad_format *out, int mode)
{
    int r = rp < dp->anchor_min ? dp->anchor_min : rp;
    int q1 = r - dp->window;
    i128 sum = 0;
    for (int g = from; g < to; g += dp->group) {
        int e, end = g + dp->group < to ? g + dp->group : to;
        i128 s = group_sum(op, g, end, &e);
        sum += align_signed(s, e, q1, dp->align_round);
    }
    int cnz = c->cls != LAD_ZERO;
    int E = cnz && c->raw > r ? c->raw : r;
    int q2 = E - dp->window2, qc = E - dp->window;
    i128 s2 = q2 > q1 ? align_signed(sum, q1, q2, dp->align2_round) : shl(sum, q1 - q2);
    i128 cu = cnz ? lad_align(c->mag, c->neg, c->exp, qc, dp->align_round) : 0;
    int lo = q2 < qc ? q2 : qc;
    i128 total = shl(s2, q2 - lo) + shl(cu, qc - lo);
    return lad_round_units(out, total, lo, 0, mode, dp->overflow);
}

/*
** One pass over physical lanes [from, to) with addend c: returns the pass
** result as a word of format `out` rounded with `mode`; NaN results are the
** word `nan`.
*/
static uint32_t pass_eval(const lad_datapath *dp, const operands *op, int from,
                          int to, const term *c, const lad_format *out,
                          int mode, uint32_t nan)
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
        return lad_round_units(out, sum, q, 0, mode, dp->overflow);
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

    uint32_t w;
    if (dp->c_anchor || !cnz)
        w = lad_round_units(out, sum, q, 0, mode, dp->overflow);
    else
        w = lad_add_round(out, sum, q, c, mode, dp->overflow);

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
            w = lad_round_units(out, s2, q, 0, mode, dp->overflow);
        }
    }
    return w;
}

/* x + y rounded into f, specials included (one IEEE addition). */
uint32_t lad_add_terms(const lad_datapath *dp, const lad_format *f,
                          const term *x, const term *y, int mode, uint32_t nan)
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

uint32_t lad_eval_integer(const lad_datapath *dp, const lad_case *cs)
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

uint32_t lad_eval(const lad_datapath *dp, const lad_case *cs)
{
    lad_plan p;
    lad_plan_init(&p, dp);
    return lad_plan_eval(&p, cs);
}

/* Every datapath, every case: lad_eval's reference implementation. */
uint32_t lad_eval_general(const lad_datapath *dp, const lad_case *cs)
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
    term zero = {LAD_ZERO, 0, 0, 0, 0};
    uint32_t acc_nan = lad_format_nan(&dp->acc);
    int npass = op.n > 0 ? (op.n + dp->pass - 1) / dp->pass : 1;

    /* The running value, in acc format between passes. */
    term acc = dp->chain == LAD_CHAIN && !dp->c_last ? c : zero;
    for (int p = 0; p < npass; p++) {
        int from = p * dp->pass, to = from + dp->pass < op.n ? from + dp->pass : op.n;
        int last = p == npass - 1;
        if (dp->chain == LAD_CHAIN) {
            if (last && !dp->d_via_acc && !dp->c_last)
                return pass_eval(dp, &op, from, to, &acc, &dp->d, dp->d_round, dp->nan);
            acc = decode_term(&dp->acc, pass_eval(dp, &op, from, to, &acc, &dp->acc,
                                                  dp->acc_round, acc_nan));
        } else {
            term r = decode_term(&dp->acc, pass_eval(dp, &op, from, to, &zero, &dp->acc,
                                                     dp->acc_round, acc_nan));
            if (p == 0 && !dp->c_last)
                acc = decode_term(&dp->acc, lad_add_terms(dp, &dp->acc, &c, &r, dp->acc_round, acc_nan));
            else if (p == 0)
                acc = r;
            else
                acc = decode_term(&dp->acc, lad_add_terms(dp, &dp->acc, &acc, &r, dp->acc_round, acc_nan));
        }
    }
    /* acc holds the result in acc format: one more rounding into d, which
    ** adds C when it comes last. */
    return lad_add_terms(dp, &dp->d, &acc, dp->c_last ? &c : &zero, dp->d_round, dp->nan);
}

void lad_eval_batch(const lad_datapath *dp, const lad_case *cs, size_t n,
                    uint32_t *d)
{
    lad_plan p;
    lad_plan_init(&p, dp);
    lad_plan_eval_batch(&p, cs, n, d);
}
