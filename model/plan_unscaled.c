/*
** The unscaled fast path of the prepared plan (plan.c): one case's passes
** in 64-bit integers, built twice on x86-64, for any CPU (lad_eval_fast) and
** for AVX2 (lad_eval_fast_avx2, which the eight-lane code of plan_lanes.c
** falls back to).
**
** Most evaluations are unscaled and their window sums fit in 64 bits
** (window + 2 + log2 K <= 62). For those, decoding needs no branches (IEEE
** subnormals: field 0 has no hidden bit and the raw exponent 1 - bias), a
** product's exponent is its raw exponent minus the two fraction widths, and
** alignment is two shifts of the magnitude: up by the window's reach above
** the products' lowest bit, then down by the distance to the anchor, with
** no data-dependent branch (the bits shifted out decide rd and rne). Every
** pass structure (chain or sum, C in the window or not, C last, a lane
** order) follows the reference (lad_eval_general) step by step. Lanes
** decode four at a time, with every shift and mask an immediate for the
** common formats (plan_impl.h, decode_pass). Results of formats with IEEE
** subnormals and infinities round toward zero or to nearest without the
** general rounding code. A single pass with a NaN or Inf decides it from
** the classes alone; anything rarer goes to the general code. The rational
** reference test and `ladder check` prove the two agree word for word.
*/
#include "plan_impl.h"

/* Whether the unscaled path's sums fit 64 bits (params.def's LAD_IMPL
** lines say which rows and values it computes): one window's sum is below
** 2^(window + 2 + kbits) units. A two-level window's is below 2^(window +
** 2 + kbits) units of the first window, moved up by at most window2 -
** window to the second; C is below 2^(window + 1) units of its own
** quantum, moved up by as much; so the total is below 2^(max(window,
** window2) + 3 + kbits). The words must be ones its decoders read: floats
** of 32 bits or fewer with IEEE subnormals whose specials the lane
** decoders tell, and results in signed formats. */
int lad_fast_fits(const lad_datapath *dp, const lad_opfmt *a, const lad_opfmt *b)
{
    int kbits = ceil_log2(lad_datapath_kphys(dp));
    int w = dp->window > dp->window2 ? dp->window : dp->window2;
    return narrow_words(dp) && signed_results(dp) &&
           lad_opfmt_usable(&dp->a, a) && lad_opfmt_usable(&dp->b, b) &&
           dp->window + 2 + kbits <= 62 && (dp->window2 == 0 || w + 4 + kbits <= 62);
}

/*
** The specials of lanes [from, n) (pa, pb: cut, in lane order) and of an
** addend add: returns 1 when a NaN, or a zero times an Inf, is among them;
** else *pinf and *ninf say whether Infs of either sign are (Inf words, and
** with `big`, products of 2^prod_inf or more).
*/
static int specials(const lad_plan *p, const lad_word_t *pa, const lad_word_t *pb, int from,
                    int n, const term *add, int big, int *pinf, int *ninf)
{
    *pinf = add->cls == LAD_INFINITE && !add->neg;
    *ninf = add->cls == LAD_INFINITE && add->neg;
    if (add->cls == LAD_NAN)
        return 1;
    for (int j = from; j < n; j++) {
        int a = opfmt_class(&p->a, pa[j]), b = opfmt_class(&p->b, pb[j]);
        if (a == LAD_NAN || b == LAD_NAN)
            return 1;
        if (a == LAD_INFINITE || b == LAD_INFINITE) {
            if (a == LAD_ZERO || b == LAD_ZERO)
                return 1;
            *(opfmt_term(&p->a, pa[j]).neg ^ opfmt_term(&p->b, pb[j]).neg ? ninf : pinf) = 1;
        } else if (big && a != LAD_ZERO && b != LAD_ZERO) {
            /* a product too large for the datapath is infinite */
            term ta = opfmt_term(&p->a, pa[j]), tb = opfmt_term(&p->b, pb[j]);
            uint64_t m = (uint64_t)ta.mag * (uint64_t)tb.mag;
            if (63 - __builtin_clzll(m) + ta.exp + tb.exp >= p->dp->prod_inf)
                *(ta.neg ^ tb.neg ? ninf : pinf) = 1;
        }
    }
    return 0;
}

/* Whether a case of several passes gives NaN whatever its passes' sums:
** a NaN among its words or C, a zero times an Inf, or Infs of both signs
** among its products and C (a pass with an Inf term gives acc's Inf, which
** no finite sum undoes, so two of opposite signs meet in some pass, or in
** the add of C). Only where acc has IEEE Inf and NaN words, which the next
** pass reads back as such. Infs of one sign are left to the general code:
** a finite pass that overflows to the other sign would make NaN of them. */
static int nan_case(const lad_plan *p, const lad_word_t *pa, const lad_word_t *pb, int n,
                    const term *c)
{
    if (p->dp->acc.inf != LAD_INF_IEEE || p->dp->acc.nan != LAD_NAN_IEEE)
        return 0;
    int pinf, ninf;
    return specials(p, pa, pb, 0, n, c, 0, &pinf, &ninf) || (pinf && ninf);
}

/*
** A case from the pass at lane `from` on, when that pass meets a NaN or an
** Inf among its words or in its addend add (C, or the running value of an
** earlier pass that overflowed): that pass gives NaN or an Inf. In a
** single pass straight into d that is the result; where acc has IEEE Inf
** and NaN and every pass rounds into the next one's addend (p->inf_rest),
** every later pass starts from that special, so its finite products no
** longer count. So the result is NaN when a NaN, a zero times an Inf or
** Infs of both signs (products of 2^prod_inf or more among them) are among
** the lanes from `from` on and add, else the Inf of their sign, in d
** (pass_eval's specials, pass after pass).
*/
lad_word_t lad_special_rest(const lad_plan *p, const lad_word_t *pa, const lad_word_t *pb,
                            int from, int n, const term *add)
{
    int pinf, ninf;
    if (specials(p, pa, pb, from, n, add, p->dp->prod_inf != LAD_NOFLOOR, &pinf, &ninf) ||
        (pinf && ninf))
        return p->dp->nan;
    return lad_format_inf(&p->dp->d, ninf);
}

/* The exact sum of lanes from, from + step, ... below to, each aligned to
** units of 2^(r - window) with align_round `mode`; base is r + both biases
** + down (lad_plan_init). */
static inline __attribute__((always_inline)) uint64_t
sum_lanes(const uint64_t *mag, const uint32_t *mag32, const uint32_t *raw,
          const uint32_t *sgn, int from, int to, int step, uint32_t base, int up, int mode)
{
    uint64_t sum = 0;
    for (int j = from; j < to; j += step) {
        /* base - raw[j] >= down for a nonzero product; a zero one shifts
        ** 0 by anything. Clamped at 63: the terms are below 2^62, so a
        ** shift of 63 leaves what one of 64 or more would. */
        uint32_t d = base - raw[j];
        d = d > 63 ? 63 : d;
        uint64_t m = (mag32 ? mag32[j] : mag[j]) << up;
        uint64_t a = m >> d;
        uint64_t s = (uint64_t)(int64_t)(int32_t)sgn[j];  /* 0 or all ones */
        if (mode != LAD_RZ) {
            uint64_t rem = m & (((uint64_t)1 << d) - 1);
            if (mode == LAD_RD)  /* a negative term's lost bits take one unit */
                a += s & (rem != 0);
            else {               /* to nearest, ties to even */
                uint64_t half = ((uint64_t)1 << d) >> 1;
                a += rem > half || (rem == half && rem && (a & 1));
            }
        }
        sum += (a ^ s) - s;
    }
    return sum;
}

/* sum_lanes with the plan's products and alignment rounding. */
static inline __attribute__((always_inline)) uint64_t
sum_pass(const lad_plan *pl, const uint64_t *mag, const uint32_t *mag32, const uint32_t *raw,
         const uint32_t *sgn, int from, int to, int step, uint32_t base)
{
    int mode = pl->dp->align_round;
    if (pl->shape == SHAPE_WIDE)
        return sum_lanes(mag, NULL, raw, sgn, from, to, step, base, pl->up, mode);
    if (pl->preup != pl->up)
        return sum_lanes(NULL, mag32, raw, sgn, from, to, step, base, pl->up, mode);
    /* shifted by the decoder, or not at all: the common case, by mode */
    if (mode == LAD_RZ)
        return sum_lanes(NULL, mag32, raw, sgn, from, to, step, base, 0, LAD_RZ);
    if (mode == LAD_RD)
        return sum_lanes(NULL, mag32, raw, sgn, from, to, step, base, 0, LAD_RD);
    return sum_lanes(NULL, mag32, raw, sgn, from, to, step, base, 0, LAD_RNE);
}

/* Whether a product of lanes [from, to) (decoded by decode_pass) is of
** 2^prod_inf or more: its bit length, less the decoder's shift, plus its
** unit's exponent. */
static int big_product(const lad_plan *pl, const uint64_t *mag, const uint32_t *mag32,
                       const uint32_t *raw, int from, int to)
{
    const lad_datapath *dp = pl->dp;
    int off = (int)(pl->a.mb + pl->b.mb);
    int pre = pl->shape == SHAPE_WIDE ? 0 : pl->preup;
    for (int j = from; j < to; j++) {
        uint64_t m = pl->shape == SHAPE_WIDE ? mag[j] : mag32[j];
        if (m && 63 - __builtin_clzll(m) - pre + (int)raw[j] - pl->bias - off >= dp->prod_inf)
            return 1;
    }
    return 0;
}

/*
** The lanes' sum of an even_odd pass (eval.c's two_level) in units of 2^(r -
** window), r the pass's products' anchor: the even and the odd lanes of
** [from, to) (decoded by decode_pass) each summed below their own anchor,
** their largest raw exponent floored at anchor_min, each sum cut to those
** units with align2_round.
*/
static int64_t halves64(const lad_plan *pl, const uint64_t *mag, const uint32_t *mag32,
                        const uint32_t *raw, const uint32_t *sgn, int from, int to, int r)
{
    const lad_datapath *dp = pl->dp;
    int64_t sum = 0;
    for (int h = 0; h < 2; h++) {
        uint32_t rm = 0;  /* raw >= 2 for a nonzero product */
        for (int j = from + h; j < to; j += 2) {
            uint64_t m = pl->shape == SHAPE_WIDE ? mag[j] : mag32[j];
            rm = m && raw[j] > rm ? raw[j] : rm;
        }
        if (rm == 0)
            continue;
        int rh = (int)rm - pl->bias;
        rh = rh < dp->anchor_min ? dp->anchor_min : rh;
        uint32_t base = (uint32_t)(rh + pl->bias + pl->down);
        int64_t s = (int64_t)sum_pass(pl, mag, mag32, raw, sgn, from + h, to, 2, base);
        sum += align64(s, rh - dp->window, r - dp->window, dp->align2_round);
    }
    return sum;
}

static inline __attribute__((always_inline)) lad_word_t
fast_body(const lad_plan *pl, const lad_case *cs)
{
    const lad_datapath *dp = pl->dp;
    uint64_t mag[LAD_KMAX];
    uint32_t mag32[LAD_KMAX], raw[LAD_KMAX], sgn[LAD_KMAX];
    lad_word_t wa[LAD_KMAX], wb[LAD_KMAX];
    const lad_word_t *pa, *pb;
    int n = lane_words(dp, cs, wa, wb, &pa, &pb);
    term c = pl->fast_c ? opfmt_term(&pl->c, cs->c) : decode_term(&dp->c, cs->c);
    term zero = {LAD_ZERO, 0, 0, 0, 0};
    int chain = dp->chain == LAD_CHAIN;
    /* the running value, in acc format between passes (lad_eval_general) */
    term acc = chain && !dp->c_last ? c : zero;
    int npass = n == dp->k ? pl->npass : n > 0 ? (n + dp->pass - 1) / dp->pass : 1;
    /* the last pass rounds into d itself */
    int direct = chain && !dp->d_via_acc && !dp->c_last;
    for (int p = 0; p < npass; p++) {
        int from = p * dp->pass, to = from + dp->pass < n ? from + dp->pass : n;
        int last = p == npass - 1 && direct;
        const lad_format *out = last ? &dp->d : &dp->acc;
        int mode = last ? dp->d_round : dp->acc_round;
        const term *add = chain ? &acc : &zero;  /* the pass's addend */
        uint32_t rmax, zeros;
        uint32_t special = decode_pass(pl, pa, pb, from, to, mag, mag32, raw, sgn, &rmax, &zeros);
        int big = dp->prod_inf != LAD_NOFLOOR && !special &&
                  big_product(pl, mag, mag32, raw, from, to);
        if (special || big || add->cls >= LAD_INFINITE) {
            if (pl->inf_rest || (npass == 1 && direct && pl->simple))
                return lad_special_rest(pl, pa, pb, from, n, add);
            if (pl->simple && nan_case(pl, pa, pb, n, &c))
                return dp->nan;
            return lad_eval_general(dp, cs);
        }
        lad_word_t w;
        if (rmax == 0) {
            /* no product: the addend alone (exact zero: +0) */
            w = lad_add_round(out, 0, 0, add, mode, dp->overflow);
        } else {
            int r = (int)rmax - pl->bias, inwin = dp->c_anchor && add->cls != LAD_ZERO;
            if (zeros && dp->zero_floor != LAD_NOFLOOR && dp->zero_floor > r)
                r = dp->zero_floor;
            if (dp->window2 > 0) {
                /* the products' own anchor; C joins at the second level */
                r = r < dp->anchor_min ? dp->anchor_min : r;
                uint32_t base = (uint32_t)(r + pl->bias + pl->down);
                int64_t sum = dp->even_odd
                                  ? halves64(pl, mag, mag32, raw, sgn, from, to, r)
                                  : (int64_t)sum_pass(pl, mag, mag32, raw, sgn, from, to, 1,
                                                      base);
                w = two_level64(dp, sum, r, add, out, mode);
                goto rounded;
            }
            if (inwin && add->raw > r)
                r = add->raw;
            if (r < dp->anchor_min)
                r = dp->anchor_min;
            int q = r - dp->window;
            uint32_t base = (uint32_t)(r + pl->bias + pl->down);
            uint64_t sum = sum_pass(pl, mag, mag32, raw, sgn, from, to, 1, base);
            if (inwin) {
                /* the addend is a term of the window: at most r, so it fits */
                int sh = add->exp - q;
                if (dp->align_round == LAD_RZ || sh >= 0) {
                    uint64_t a = sh >= 0 ? (uint64_t)add->mag << sh
                                         : -sh < 64 ? (uint64_t)add->mag >> -sh : 0;
                    sum += add->neg ? 0 - a : a;
                } else {
                    sum += (uint64_t)(int64_t)lad_align(add->mag, add->neg, add->exp, q,
                                                     dp->align_round);
                }
                w = round64(out, (int64_t)sum, q, mode, dp->overflow);
            } else if (add->cls != LAD_ZERO) {
                /* added exactly to the window sum before the rounding */
                w = lad_add_round(out, (i128)(int64_t)sum, q, add, mode, dp->overflow);
            } else {
                w = round64(out, (int64_t)sum, q, mode, dp->overflow);
            }
        }
    rounded:
        if (last)
            return w;
        /* a result that overflowed to Inf: as a special addend, or by the
        ** general code */
        term r = pl->fast_acc ? opfmt_term(&pl->acc, w) : decode_term(&dp->acc, w);
        if (pl->inf_rest && r.cls == LAD_INFINITE)
            return lad_special_rest(pl, pa, pb, to, n, &r);
        if (r.cls >= LAD_INFINITE || w == pl->acc_nan)
            return lad_eval_general(dp, cs);
        if (chain || (p == 0 && dp->c_last)) {
            acc = r;
        } else {
            /* chain: sum: C (first) or the running sum, plus this pass */
            w = lad_add_terms(dp, &dp->acc, p == 0 ? &c : &acc, &r, dp->acc_round, pl->acc_nan);
            acc = decode_term(&dp->acc, w);
            if (acc.cls >= LAD_INFINITE || w == pl->acc_nan)
                return lad_eval_general(dp, cs);
        }
    }
    /* acc holds the result in acc format: one more rounding into d, which
    ** adds C when it comes last (specials of C included) */
    return lad_add_terms(dp, &dp->d, &acc, dp->c_last ? &c : &zero, dp->d_round, dp->nan);
}


/* The unscaled fast path for any CPU of the target (and the one CPUs
** without AVX2 run); lad_plan_init picks it or the AVX2 build. */
lad_word_t lad_eval_fast(const lad_plan *pl, const lad_case *cs)
{
    return fast_body(pl, cs);
}

#if LAD_AVX2_CLONE

/* fast_body in the AVX2 build (per-lane shifts make its sums a vector loop
** too): what the eight-lane code leaves, and the datapaths it does not
** take. */
AVX2 __attribute__((noinline)) lad_word_t lad_eval_fast_avx2(const lad_plan *pl,
                                                            const lad_case *cs)
{
    return fast_body(pl, cs);
}
#endif
