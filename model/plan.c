/*
** The prepared plan of a datapath (lad_plan_*): which code path a datapath
** takes, worked out once, and the fast paths themselves: the unscaled one
** (built twice on x86-64, for any CPU and for AVX2) and the block-scaled
** one, both in 64-bit integers, falling back to the reference evaluator
** (eval.c) for whatever they do not handle. Every path gives the
** reference's words exactly.
*/
#include "datapath_int.h"
#include "params.h"
#include "gemm_kernel.h"

#include <stddef.h>
#include <string.h>

/* The fast path has an AVX2 build beside the generic one on x86-64 (GCC
** and clang: the target attribute and __builtin_cpu_supports). */
#if defined(__x86_64__) && defined(__GNUC__)
#define LAD_AVX2_CLONE 1
#else
#define LAD_AVX2_CLONE 0
#endif

/* ---- the fast path ---------------------------------------------------------
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
** common formats. Results of
** formats with IEEE subnormals and infinities round toward zero or to
** nearest without the general rounding code. A single pass with a NaN or
** Inf decides it from the classes alone; anything rarer goes to the general
** code. The rational reference test and `ladder check` prove the two agree
** word for word.
*/

lad_opfmt lad_opfmt_of(const lad_format *f)
{
    lad_opfmt d;
    /* whether the top exponent holds specials (not in the fnuz formats) */
    int top = f->nan == LAD_NAN_IEEE || f->nan == LAD_NAN_ONES || f->inf != LAD_INF_NONE;
    d.pad = (uint32_t)f->pad;
    d.mb = (uint32_t)f->mbits;
    /* computed in 64 bits, so that a wide format (which no fast decoder
    ** takes: lad_opfmt_usable) gives defined values too */
    d.fmask = (uint32_t)(((uint64_t)1 << f->mbits) - 1);
    d.emax = (uint32_t)(((uint64_t)1 << f->ebits) - 1);
    d.smask = f->sign ? (uint32_t)((uint64_t)1 << (f->mbits + f->ebits)) : 0;
    d.etop = top ? d.emax : 0xffffffffu;  /* never equal: no special */
    d.need = f->nan == LAD_NAN_ONES && f->inf == LAD_INF_NONE ? d.fmask : 0;
    d.bias = f->bias;
    d.spec = f->nan == LAD_NAN_IEEE && f->inf == LAD_INF_IEEE   ? FS_IEEE
             : f->nan == LAD_NAN_ONES && f->inf == LAD_INF_NONE ? FS_ONES
             : f->nan == LAD_NAN_NONE && f->inf == LAD_INF_NONE ? FS_NONE
             : f->nan == LAD_NAN_NEGZERO && f->inf == LAD_INF_NONE ? FS_FNUZ
                                                                : FS_OTHER;
    return d;
}

/* Whether opfmt_term decodes words of f (f's opfmt d) as lad_decode does:
** floats of 32 bits or fewer (the decoders work in 32-bit lanes) with IEEE
** subnormals whose specials the fast path can tell. */
int lad_opfmt_usable(const lad_format *f, const lad_opfmt *d)
{
    return f->kind == LAD_FLOAT && f->width <= 32 && f->sub == LAD_SUB_IEEE &&
           d->spec != FS_OTHER;
}

/* Whether dp's sums land in signed formats. The fast paths round a
** negative sum as its magnitude with the sign bit set; an unsigned acc or d
** has no sign bit (the reference gives NaN there), so such a datapath takes
** the general path. */
static int signed_results(const lad_datapath *dp)
{
    return dp->acc.sign && dp->d.sign;
}

/* Whether every word of dp fits the 32-bit lanes and results the fast
** paths work in (round64 builds 32-bit words): a wider format (f64) takes
** the general path rather than being cut. */
static int narrow_words(const lad_datapath *dp)
{
    return dp->a.width <= 32 && dp->b.width <= 32 && dp->c.width <= 32 &&
           dp->acc.width <= 32 && dp->d.width <= 32;
}

/* Whether the unscaled path's sums fit 64 bits (params.def's LAD_IMPL
** lines say which rows and values it computes): one window's sum is below
** 2^(window + 2 + kbits) units. A two-level window's is below 2^(window +
** 2 + kbits) units of the first window, moved up by at most window2 -
** window to the second; C is below 2^(window + 1) units of its own
** quantum, moved up by as much; so the total is below 2^(max(window,
** window2) + 3 + kbits). The words must be ones its decoders read: floats
** of 32 bits or fewer with IEEE subnormals whose specials the lane
** decoders tell, and results in signed formats. */
static int fast_fits(const lad_datapath *dp, const lad_opfmt *a, const lad_opfmt *b)
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
static lad_word_t special_rest(const lad_plan *p, const lad_word_t *pa, const lad_word_t *pb,
                               int from, int n, const term *add)
{
    int pinf, ninf;
    if (specials(p, pa, pb, from, n, add, p->dp->prod_inf != LAD_NOFLOOR, &pinf, &ninf) ||
        (pinf && ninf))
        return p->dp->nan;
    return lad_format_inf(&p->dp->d, ninf);
}

/* One lane: *m = the exact product's integer significand, *rw = its raw
** exponent plus both biases (at least 2), *sg = all ones for a negative
** product, else 0; returns 1 when a word is special. */
static inline __attribute__((always_inline)) uint32_t
decode_one(lad_word_t wa, lad_word_t wb, const lad_opfmt A, const lad_opfmt B, uint64_t *m,
           uint32_t *rw, uint32_t *sg)
{
    /* formats of 32 bits or fewer: the low 32 bits hold every field */
    uint32_t xa = (uint32_t)wa >> A.pad, xb = (uint32_t)wb >> B.pad;
    uint32_t fa = xa & A.fmask, fb = xb & B.fmask;
    uint32_t ea = (xa >> A.mb) & A.emax, eb = (xb >> B.mb) & B.emax;
    uint32_t ma = fa | ((uint32_t)(ea != 0) << A.mb);
    uint32_t mb = fb | ((uint32_t)(eb != 0) << B.mb);
    *m = (uint64_t)ma * mb;
    *rw = ea + eb + (ea == 0) + (eb == 0);
    *sg = 0 - (uint32_t)(((xa & A.smask) != 0) ^ ((xb & B.smask) != 0));
    return ((ea == A.etop) & ((fa & A.need) == A.need)) |
           ((eb == B.etop) & ((fb & B.need) == B.need)) |
           (A.spec == FS_FNUZ && (ea | fa) == 0 && (xa & A.smask)) |
           (B.spec == FS_FNUZ && (eb | fb) == 0 && (xb & B.smask));
}

/*
** Decodes lanes [from, to) of a pass into mag[j], raw[j], sgn[j] (as
** decode_one). *rmax gets the largest raw[j] of a nonzero product (0:
** none), *zeros whether any product is zero; returns nonzero when a word
** is special. One lane at a time, 64-bit products.
*/
static inline __attribute__((always_inline)) uint32_t
decode_lanes(const lad_word_t *pa, const lad_word_t *pb, int from, int to, const lad_opfmt A,
             const lad_opfmt B, uint64_t *mag, uint32_t *raw, uint32_t *sgn, uint32_t *rmax,
             uint32_t *zeros)
{
    uint32_t rm = 0, zs = 0, special = 0;
    for (int j = from; j < to; j++) {
        special |= decode_one(pa[j], pb[j], A, B, &mag[j], &raw[j], &sgn[j]);
        uint32_t rw = mag[j] ? raw[j] : 0;
        rm = rw > rm ? rw : rm;
        zs |= mag[j] == 0;
    }
    *rmax = rm;
    *zeros = zs;
    return special;
}

/*
** The same for formats whose products fit 32 bits (significands of 16 bits
** or fewer), four lanes at a time in GNU C vector types (SSE2 on x86-64,
** NEON on arm64; elsewhere the compiler splits them), the last lanes one by
** one. mag32[j] is the product.
*/
typedef uint32_t v4u __attribute__((vector_size(16)));
typedef uint64_t v4w __attribute__((vector_size(32)));
typedef int32_t v4i __attribute__((vector_size(16)));

static inline __attribute__((always_inline)) uint32_t
decode_lanes4(const lad_word_t *pa, const lad_word_t *pb, int from, int to, const lad_opfmt A,
              const lad_opfmt B, int up, uint32_t *mag32, uint32_t *raw, uint32_t *sgn,
              uint32_t *rmax, uint32_t *zeros)
{
    v4u rm = {0, 0, 0, 0}, zs = rm, sp = rm;
    int j = from;
    for (; j + 4 <= to; j += 4) {
        v4w wa, wb;
        memcpy(&wa, pa + j, sizeof wa);
        memcpy(&wb, pb + j, sizeof wb);
        /* the low 32 bits of each word hold all of a narrow format */
        v4u xa = __builtin_convertvector(wa, v4u), xb = __builtin_convertvector(wb, v4u);
        xa >>= A.pad;
        xb >>= B.pad;
        v4u fa = xa & A.fmask, fb = xb & B.fmask;
        v4u ea = (xa >> A.mb) & A.emax, eb = (xb >> B.mb) & B.emax;
        sp |= (v4u)((ea == A.etop) & ((fa & A.need) == A.need)) |
              (v4u)((eb == B.etop) & ((fb & B.need) == B.need));
        if (A.spec == FS_FNUZ)  /* the word of -0 is the NaN */
            sp |= (v4u)((ea | fa) == 0) & (v4u)((xa & A.smask) != 0);
        if (B.spec == FS_FNUZ)
            sp |= (v4u)((eb | fb) == 0) & (v4u)((xb & B.smask) != 0);
        v4u ma = fa | ((v4u)(ea != 0) & (1u << A.mb));
        v4u mb = fb | ((v4u)(eb != 0) & (1u << B.mb));
        v4u nz = (v4u)((ma != 0) & (mb != 0));            /* all ones or 0 */
        v4u rw = ea + eb - (v4u)(ea == 0) - (v4u)(eb == 0);  /* a mask is -1 */
        v4u m = (ma * mb) << up;
        v4u sg = (v4u)((xa & A.smask) != 0) ^ (v4u)((xb & B.smask) != 0);
        memcpy(mag32 + j, &m, sizeof m);
        memcpy(raw + j, &rw, sizeof rw);
        memcpy(sgn + j, &sg, sizeof sg);
        rw &= nz;
        v4u gt = (v4u)((v4i)rw > (v4i)rm);              /* raw < 2^31 */
        rm = (rw & gt) | (rm & ~gt);
        zs |= ~nz;
    }
    uint32_t r = 0, z = 0, special = 0;
    for (int i = 0; i < 4; i++) {
        r = rm[i] > r ? rm[i] : r;
        z |= zs[i];
        special |= sp[i];
    }
    for (; j < to; j++) {
        uint64_t m;
        special |= decode_one(pa[j], pb[j], A, B, &m, &raw[j], &sgn[j]);
        mag32[j] = (uint32_t)m << up;
        uint32_t rw = m ? raw[j] : 0;
        r = rw > r ? rw : r;
        z |= m == 0;
    }
    *rmax = r;
    *zeros = z != 0;
    return special;
}

/* The decoder shape of A x B: a common format (index + 1), else whether
** the products fit 32 bits (decode_lanes4) or not. */
static int shape_of(const lad_opfmt *A, const lad_opfmt *B)
{
    size_t key = offsetof(lad_opfmt, bias);  /* the fields before bias, and spec */
    for (size_t i = 0; i < sizeof SHAPES / sizeof SHAPES[0]; i++)
        if (!memcmp(A, &SHAPES[i], key) && !memcmp(B, &SHAPES[i], key) &&
            A->spec == SHAPES[i].spec && B->spec == SHAPES[i].spec)
            return (int)i + 1;
    return A->mb + B->mb + 2 <= 32 ? SHAPE_NARROW : SHAPE_WIDE;
}

/* Decodes a pass with the plan's decoder; the products land in mag32 (every
** shape but SHAPE_WIDE) or mag. */
static inline __attribute__((always_inline)) uint32_t
decode_pass(const lad_plan *p, const lad_word_t *pa, const lad_word_t *pb, int from, int to,
            uint64_t *mag, uint32_t *mag32, uint32_t *raw, uint32_t *sgn, uint32_t *rmax,
            uint32_t *zeros)
{
    switch (p->shape) {
#define SHAPE(i) \
    case i: \
        return decode_lanes4(pa, pb, from, to, SHAPES[i - 1], SHAPES[i - 1], p->preup, mag32, \
                             raw, sgn, rmax, zeros)
        EACH_SHAPE(SHAPE);
#undef SHAPE
    case SHAPE_NARROW:
        return decode_lanes4(pa, pb, from, to, p->a, p->b, p->preup, mag32, raw, sgn, rmax,
                             zeros);
    default:
        return decode_lanes(pa, pb, from, to, p->a, p->b, mag, raw, sgn, rmax, zeros);
    }
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

/* The A and B words that take part, in the order they fill the passes
** (physical lanes, or the datapath's order when every lane takes part),
** cut to their formats: the case's own arrays when every lane takes part
** uncut in order, else copies in wa and wb. Returns how many lanes. */
static int lane_words(const lad_datapath *dp, const lad_case *cs, lad_word_t *wa,
                      lad_word_t *wb, const lad_word_t **pa, const lad_word_t **pb)
{
    *pa = cs->a;
    *pb = cs->b;
    if (!dp->sparse && dp->in_round == LAD_RZ && !dp->norder)
        return dp->k;
    int lanes[LAD_KMAX], n = lad_select_lanes(dp, cs, lanes);
    int order = dp->norder && n == dp->norder;
    for (int j = 0; j < n; j++) {
        int l = lanes[order ? dp->order[j] : j];
        wa[j] = cut_word(&dp->a, dp->in_round, cs->a[l]);
        wb[j] = cut_word(&dp->b, dp->in_round, cs->b[l]);
    }
    *pa = wa;
    *pb = wb;
    return n;
}

/* ---- the fast path of block-scaled kinds -----------------------------------
**
** pass_eval's block-scaled algorithm for one pass in 64-bit integers, when
** the bounds below hold: the products of a group share their scales, so a
** group's exact sum is the sum of its A x B products times one scale
** product; A and B decode four lanes at a time as on the unscaled path.
** fp4 A and B (fixed_ok) skip the decoding: a word's value is
** a small integer count of its format's smallest subnormal, read from a
** table, and a group's products sum exactly in 32 bits before its scale
** product multiplies the sum. A NaN or Inf anywhere, or any other shape,
** goes to the general code.
*/

/* Whether the block-scaled path's sums fit 64 bits (LAD_IMPL says which
** rows and values it computes): a single pass over block-scaled words its
** decoders read. */
static int scaled_fits(const lad_datapath *dp, const lad_opfmt *a, const lad_opfmt *b)
{
    int kp = lad_datapath_kphys(dp), kbits = ceil_log2(kp + 1);
    int gbits = ceil_log2(dp->group > dp->cdom_group ? dp->group : dp->cdom_group);
    int w = dp->window > dp->cdom_window ? dp->window : dp->cdom_window;
    /* a group's exact sum: exponents spread over both formats' binades,
    ** significands of A, B and the two scales, g terms */
    int span = (1 << dp->a.ebits) + (1 << dp->b.ebits) + dp->a.mbits + dp->b.mbits + 2 +
               dp->sa.mbits + dp->sb.mbits + 2 + gbits;
    return dp->scale_block > 0 && narrow_words(dp) && signed_results(dp) && dp->pass >= kp &&
           lad_opfmt_usable(&dp->a, a) && lad_opfmt_usable(&dp->b, b) &&
           a->mb + b->mb + 2 <= 32 && span <= 62 &&
           w + 4 + kbits <= 62;  /* every term below 2^(w + 4) units, kp + 1 of them */
}

/* Words of formats whose every field lies in their low 4 bits (above the
** padding) index tables of 16 (lad_plan's fxa, rxa); a zero's raw
** exponent there is FX_ZERO, so that a product's raw exponent, the sum of
** two, is above FX_ZERO / 2 exactly when neither is zero (|bias| <= 20:
** fixed_ok). */
#define FX_MASK 15u
#define FX_ZERO (-100)

/* The bits of the largest magnitude of format f as an integer count of its
** smallest subnormal: every code a number (no NaN or Inf), so the top
** exponent field is 2^ebits - 2 binades above the subnormals'. */
static int fixed_bits(const lad_format *f)
{
    return f->mbits + 1 + (1 << f->ebits) - 2;
}

/* Whether eval_scaled sums each group's products as integers of one unit
** (lad_plan's fxa, fxb): groups of more than one lane (alone, a product is
** as quickly aligned as decoded), A and B fp4 formats without NaN or Inf
** (values below 2^7: a group of K products below 2^14 sums in int32), a
** group within one scale block, C-dominant groups made of whole groups,
** (LAD_IMPL's fixed column: no zero floor, which needs to know whether any
** product is zero). */
static int fixed_ok(const lad_datapath *dp, uint64_t off, const lad_opfmt *a,
                    const lad_opfmt *b)
{
    const lad_format *fs[2] = {&dp->a, &dp->b};
    const lad_opfmt *os[2] = {a, b};
    for (int i = 0; i < 2; i++)
        if (os[i]->spec != FS_NONE || fs[i]->width - fs[i]->pad > 4 ||
            fixed_bits(fs[i]) > 7 || fs[i]->bias < -20 || fs[i]->bias > 20)
            return 0;
    return dp->group > 1 && dp->scale_block % dp->group == 0 &&
           dp->cdom_group % dp->group == 0 && lad_impl_gap(LAD_EV_FIXED, dp, off) < 0;
}

/* The tables of fixed_ok's formats: each 4-bit code as a signed count of
** the smallest subnormal, and its raw exponent. */
static void fixed_tables(const lad_format *f, const lad_opfmt *d, int8_t *fx, int8_t *rx)
{
    for (uint32_t i = 0; i <= FX_MASK; i++) {
        term t = opfmt_term(d, (lad_word_t)i << d->pad);
        int v = (int)t.mag << (t.exp - (1 - f->bias - f->mbits));
        fx[i] = (int8_t)(t.neg ? -v : v);
        rx[i] = (int8_t)(t.cls == LAD_ZERO ? FX_ZERO : t.raw);
    }
}

/* The fixed path's groups of n lanes at pa and pb (groups of dp->group
** within scale blocks, fixed_ok, the last of a block cut at its end), in
** order: p[t], group t's exact sum in units (fixed_tables); rm[t], the
** largest sum of two raw exponents among its products, above FX_ZERO / 2
** exactly when one of them is nonzero. */
static void fixed_groups(const lad_plan *pl, const lad_word_t *pa, const lad_word_t *pb,
                         int n, int32_t *p, int32_t *rm)
{
    const lad_datapath *dp = pl->dp;
    int t = 0;
    for (int from = 0; from < n; from += dp->scale_block) {
        int bend = from + dp->scale_block < n ? from + dp->scale_block : n;
        for (int g = from; g < bend; g += dp->group, t++) {
            int to = g + dp->group < bend ? g + dp->group : bend;
            int32_t s = 0, r = 2 * FX_ZERO;
            for (int j = g; j < to; j++) {
                uint32_t ia = ((uint32_t)pa[j] >> pl->a.pad) & FX_MASK;
                uint32_t ib = ((uint32_t)pb[j] >> pl->b.pad) & FX_MASK;
                s += pl->fxa[ia] * pl->fxb[ib];
                int32_t x = pl->rxa[ia] + pl->rxb[ib];
                r = x > r ? x : r;
            }
            p[t] = s;
            rm[t] = r;
        }
    }
}

#if LAD_AVX2_CLONE
static void fixed_groups8(const lad_plan *pl, const lad_word_t *pa, const lad_word_t *pb,
                          const uint8_t *a8, const uint8_t *b8, int n, int32_t *p, int32_t *rm);
static lad_word_t scaled_lanes8(const lad_plan *pl, const lad_word_t *pa, const lad_word_t *pb,
                                int n, lad_word_t cw, int es, int *done);
#endif

/* The exact sum of the nonzero products in [from, to) as units of 2^*e (the
** smallest exponent among them); 0 when all are zero. */
static int64_t group_sum64(const int64_t *m, const int *ex, int from, int to, int *e)
{
    int lo = INT32_MAX;
    for (int j = from; j < to; j++) {
        int x = m[j] ? ex[j] : INT32_MAX;
        lo = x < lo ? x : lo;
    }
    uint64_t s = 0;
    for (int j = from; j < to; j++) {
        int d = m[j] ? ex[j] - lo : 0;  /* a zero shifts by nothing */
        s += (uint64_t)m[j] << d;       /* two's complement: exact below 2^63 */
    }
    *e = lo;
    return (int64_t)s;
}

/*
** The pass from its terms: term t is m[t] * 2^ex[t], a product with its
** scales or the exact sum of a group's; rt[t] is the raw exponent of its
** largest nonzero product (LAD_NOFLOOR: none), sr[t] its block's scale
** pair's raw exponent. gsize terms make a group, csize a C-dominant group.
** rp is the largest rt[t], smax the largest sr[t] of a term with a nonzero
** product; anyzero says whether any product is zero.
*/
static lad_word_t scaled_sum(const lad_plan *pl, const term *c, const int64_t *m,
                             const int *ex, const int *rt, const int *sr, int nt, int gsize,
                             int csize, int rp, int smax, int anyzero)
{
    const lad_datapath *dp = pl->dp;
    int any = rp > LAD_NOFLOOR;
    if (anyzero && dp->zero_floor != LAD_NOFLOOR && dp->zero_floor > rp)
        rp = dp->zero_floor;
    if (!any)  /* no product: the addend alone, rounded (exact zero: +0) */
        return lad_add_round(&dp->d, 0, 0, c, dp->d_round, dp->overflow);

    int cnz = c->cls != LAD_ZERO;
    int64_t cv = cnz ? (c->neg ? -(int64_t)c->mag : (int64_t)c->mag) : 0;
    int r = cnz && c->raw > rp ? c->raw : rp;
    if (r < dp->anchor_min)
        r = dp->anchor_min;
    int mode = dp->align_round, q, e;
    int64_t sum = 0;
    if (dp->cdom_window > 0 && cnz && c->raw >= rp) {
        /* C-dominant merge: C sets a coarser quantum; groups summed exactly */
        q = c->raw - dp->cdom_window;
        for (int g = 0; g < nt; g += csize) {
            int end = g + csize < nt ? g + csize : nt;
            int64_t s = group_sum64(m, ex, g, end, &e);
            sum += align64(s, e, q, mode);
        }
        sum += align64(cv, c->exp, q, mode);
        return round64(&dp->d, sum, q, dp->d_round, dp->overflow);
    }
    q = r - dp->window;
    if (dp->scale_floor != LAD_NOFLOOR && smax - dp->scale_floor > q)
        q = smax - dp->scale_floor;
    int64_t cu = align64(cv, c->exp, q, mode);
    if (gsize == 1 && !dp->cdom_per_group && dp->group_sub_floor == LAD_NOFLOOR) {
        /* every term a group of its own (a lane's product, or the fixed
        ** path's group sum), and nothing asked of a group but its sum */
        for (int t = 0; t < nt; t++)
            sum += align64(m[t], ex[t], q, mode);
        return round64(&dp->d, sum + cu, q, dp->d_round, dp->overflow);
    }
    int64_t gu[LAD_KMAX];
    int gsraw[LAD_KMAX], gnz[LAD_KMAX], ng = 0;
    for (int g = 0; g < nt; g += gsize, ng++) {
        int end = g + gsize < nt ? g + gsize : nt, rg = LAD_NOFLOOR;
        gsraw[ng] = sr[g];  /* a group shares its block */
        for (int j = g; j < end; j++)
            rg = rt[j] > rg ? rt[j] : rg;
        gnz[ng] = rg > LAD_NOFLOOR;
        if (dp->group == 1) {
            gu[ng] = align64(m[g], ex[g], q, mode);
        } else {
            /* a group's sum, exact: one term is its own (the fixed path's) */
            int64_t s = gsize == 1 ? m[g] : group_sum64(m, ex, g, end, &e);
            e = gsize == 1 ? ex[g] : e;
            int qg = q;
            if (dp->cdom_per_group && cnz && gnz[ng] && c->raw >= rg &&
                c->raw - dp->cdom_window > q)
                qg = c->raw - dp->cdom_window;
            gu[ng] = align64(s, e, qg, mode) * ((int64_t)1 << (qg - q));
        }
        sum += gu[ng];
    }
    sum += cu;
    lad_word_t w = round64(&dp->d, sum, q, dp->d_round, dp->overflow);

    /* Lower-scale groups that only reach a subnormal result are dropped. */
    if (dp->group_sub_floor != LAD_NOFLOOR && lad_decode(&dp->d, w).cls == LAD_SUBNORMAL) {
        int t = dp->group_sub_floor - q;  /* threshold 2^t units (1 when t <= 0) */
        int64_t s2 = cu;
        for (int g = 0; g < ng; g++) {
            uint64_t mag = gu[g] < 0 ? 0 - (uint64_t)gu[g] : (uint64_t)gu[g];
            int below = t >= 63 || mag < ((uint64_t)1 << (t > 0 ? t : 0));
            if (gnz[g] && gsraw[g] < smax && below)
                continue;
            s2 += gu[g];
        }
        w = round64(&dp->d, s2, q, dp->d_round, dp->overflow);
    }
    return w;
}

/* The fixed path's pass by scaled_sum: each group's sum gp[t] (fixed_groups)
** times its block's scale pair, a term; n lanes. */
static lad_word_t fixed_terms(const lad_plan *pl, const term *c, const int32_t *gp,
                              const int32_t *grm, const uint64_t *smag, const int *sexp,
                              const int *sraw, int n)
{
    const lad_datapath *dp = pl->dp;
    int64_t m[LAD_KMAX];
    int ex[LAD_KMAX], rt[LAD_KMAX], sr[LAD_KMAX];
    int nt = 0, rp = LAD_NOFLOOR, smax = LAD_NOFLOOR;
    for (int blk = 0, from = 0; from < n; blk++, from += dp->scale_block) {
        int bend = from + dp->scale_block < n ? from + dp->scale_block : n;
        for (int g = from; g < bend; g += dp->group, nt++) {
            int32_t p = gp[nt], rm = grm[nt];
            m[nt] = (int64_t)p * (int64_t)smag[blk];
            ex[nt] = pl->fxunit + sexp[blk];
            rt[nt] = rm > FX_ZERO / 2 && smag[blk] ? rm + sraw[blk] : LAD_NOFLOOR;
            sr[nt] = sraw[blk];
            rp = rt[nt] > rp ? rt[nt] : rp;
            if (rt[nt] > LAD_NOFLOOR && sraw[blk] > smax)
                smax = sraw[blk];
        }
    }
    return scaled_sum(pl, c, m, ex, rt, sr, nt, 1, dp->cdom_group / dp->group, rp, smax, 0);
}

/* A block's terms where C dominates some groups (cdom_per_group): each
** group C is at or above, whose window's quantum is above q, cut to that
** quantum (fixed_sum_body's arguments). */
static int64_t perg_block(const lad_datapath *dp, const term *c, const int32_t *p,
                          const int32_t *pr, int gpb, int64_t mag, int e, int sraw, int q)
{
    int64_t sum = 0;
    for (int g = 0; g < gpb; g++) {
        int qg = q;
        if (pr[g] > FX_ZERO / 2 && mag && c->raw >= pr[g] + sraw &&
            c->raw - dp->cdom_window > q)
            qg = c->raw - dp->cdom_window;
        sum += align64(p[g] * mag, e, qg, LAD_RZ) * ((int64_t)1 << (qg - q));
    }
    return sum;
}

/*
** scaled_sum on the fixed path's terms (lad_plan.fixsum): nb whole blocks
** of gpb = scale_block / group groups, group t's sum gp[t] (fixed_groups)
** times its block's scale pair (smag, 2^(fxunit + sexp), raw exponent
** sraw). As the terms of a block share their exponent, scaled_sum's steps
** are done a block at a time: a block's largest raw exponent and whether
** any product is nonzero; aligned toward zero (every fixsum datapath's
** rounding), a term's shift is the block's, so above the quantum the
** block's sum is shifted once and below it each term is cut alone; a
** C-dominant group (cdom_group lanes, a part of one block) is summed
** exactly, then cut; with cdom_per_group, each group C dominates is cut to
** C's quantum. A subnormal result under a group floor goes to scaled_sum
** (fixed_terms), which drops the groups below the floor. n: the lanes,
** whole blocks.
*/
static inline __attribute__((always_inline)) lad_word_t
fixed_sum_body(const lad_plan *pl, const term *c, const int32_t *gp, const int32_t *grm,
               const uint64_t *smag, const int *sexp, const int *sraw, int n, const int gpb)
{
    const lad_datapath *dp = pl->dp;
    const int nb = n / dp->scale_block;
    int rp = LAD_NOFLOOR, smax = LAD_NOFLOOR;
    for (int blk = 0; blk < nb; blk++) {
        int32_t rm = 2 * FX_ZERO;
        for (int g = blk * gpb; g < (blk + 1) * gpb; g++)
            rm = grm[g] > rm ? grm[g] : rm;
        if (rm > FX_ZERO / 2 && smag[blk]) {
            rp = rm + sraw[blk] > rp ? rm + sraw[blk] : rp;
            smax = sraw[blk] > smax ? sraw[blk] : smax;
        }
    }
    if (rp == LAD_NOFLOOR)  /* no product: the addend alone (exact zero: +0) */
        return lad_add_round(&dp->d, 0, 0, c, dp->d_round, dp->overflow);

    int cnz = c->cls != LAD_ZERO;
    int64_t cv = cnz ? (c->neg ? -(int64_t)c->mag : (int64_t)c->mag) : 0;
    int r = cnz && c->raw > rp ? c->raw : rp, q;
    if (r < dp->anchor_min)
        r = dp->anchor_min;
    int cdom = dp->cdom_window > 0 && cnz && c->raw >= rp;
    if (cdom) {
        q = c->raw - dp->cdom_window;
    } else {
        q = r - dp->window;
        if (dp->scale_floor != LAD_NOFLOOR && smax - dp->scale_floor > q)
            q = smax - dp->scale_floor;
    }
    const int csize = cdom ? dp->cdom_group / dp->group : 1;
    const int perg = dp->cdom_per_group && cnz && !cdom;
    int64_t sum = align64(cv, c->exp, q, LAD_RZ);
    for (int blk = 0; perg && blk < nb; blk++)
        sum += perg_block(dp, c, gp + blk * gpb, grm + blk * gpb, gpb, (int64_t)smag[blk],
                          pl->fxunit + sexp[blk], sraw[blk], q);
    for (int blk = 0; !perg && blk < nb; blk++) {
        int sh = pl->fxunit + sexp[blk] - q;
        int64_t mag = (int64_t)smag[blk];
        const int32_t *p = gp + blk * gpb;
        if (sh >= 0) {
            /* in range: the callers' bounds, as align64; a block whose
            ** term is 0 (no product, ones that cancel, a zero scale) may
            ** lie any distance above q, and adds nothing */
            int64_t s = 0;
            for (int g = 0; g < gpb; g++)
                s += p[g];
            s *= mag;
            if (s != 0)
                sum += s * ((int64_t)1 << sh);
            continue;
        }
        for (int g = 0; g < gpb; g += csize) {
            int64_t s = 0;
            for (int j = g; j < g + csize; j++)
                s += p[j];
            s *= mag;
            uint64_t neg = (uint64_t)(s >> 63), a = ((uint64_t)s ^ neg) - neg;
            a = -sh >= 64 ? 0 : a >> -sh;
            sum += (int64_t)((a ^ neg) - neg);
        }
    }
    lad_word_t w = round64(&dp->d, sum, q, dp->d_round, dp->overflow);
    /* a subnormal result whose lower-scale groups the floor may drop:
    ** scaled_sum's (lad_plan.fixsum: d's opfmt is usable) */
    if (!cdom && dp->group_sub_floor != LAD_NOFLOOR &&
        opfmt_term(&pl->d, w).cls == LAD_SUBNORMAL)
        return fixed_terms(pl, c, gp, grm, smag, sexp, sraw, n);
    return w;
}

/* fixed_sum_body with its loops over a block's groups unrolled for the
** common counts (NVF4: 4; MXF4: 2). */
static lad_word_t fixed_sum(const lad_plan *pl, const term *c, const int32_t *gp,
                            const int32_t *grm, const uint64_t *smag, const int *sexp,
                            const int *sraw, int n)
{
    switch (pl->dp->scale_block / pl->dp->group) {
    case 4:
        return fixed_sum_body(pl, c, gp, grm, smag, sexp, sraw, n, 4);
    case 2:
        return fixed_sum_body(pl, c, gp, grm, smag, sexp, sraw, n, 2);
    default:
        return fixed_sum_body(pl, c, gp, grm, smag, sexp, sraw, n,
                              pl->dp->scale_block / pl->dp->group);
    }
}

/* Every code of the scale format f, decoded: a case's scales are bytes
** (lad_case.sa, sb), whose mag, exp and raw fit the table's fields. */
static void scale_table(const lad_format *f, struct lad_scale *t)
{
    for (int i = 0; i < 256; i++) {
        lad_value v = lad_decode(f, (lad_word_t)i);
        t[i].mag = (uint16_t)v.mag;
        t[i].exp = (int16_t)v.exp;
        t[i].raw = (int16_t)v.raw;
        t[i].nan = v.cls == LAD_NAN;
    }
}

/* n bytes as words. */
static void widen_bytes(lad_word_t *w, const uint8_t *b, int n)
{
    for (int j = 0; j < n; j++)
        w[j] = b[j];
}

/* The block-scaled path on n lanes at pa and pb (lane_words), or as bytes
** at a8 and b8 (lad_rows), C's word cw and the blocks' scale codes sa and
** sb; *general = 1 (and 0 returned) for a case it leaves to the general
** code. */
static lad_word_t scaled_body(const lad_plan *pl, const lad_word_t *pa, const lad_word_t *pb,
                              const uint8_t *a8, const uint8_t *b8, int n, lad_word_t cw,
                              const uint8_t *csa, const uint8_t *csb, int *general)
{
    const lad_datapath *dp = pl->dp;
    uint32_t mag32[LAD_KMAX], raw[LAD_KMAX], sgn[LAD_KMAX];
    uint32_t rmax, zeros;
    *general = 0;
    /* bytes are read as they are by the fp4 groups of eight lanes alone;
    ** any other step has them widened first */
    lad_word_t wa[LAD_KMAX], wb[LAD_KMAX];
    int bytes = a8 && pl->fixed8 && n % 8 == 0 && n % dp->group == 0;
    if (a8 && !bytes) {
        widen_bytes(wa, a8, n);
        widen_bytes(wb, b8, n);
        pa = wa;
        pb = wb;
    }
    uint32_t special = pl->fixed ? 0 : decode_pass(pl, pa, pb, 0, n, NULL, mag32, raw, sgn,
                                                   &rmax, &zeros);
    term c = pl->fast_c ? opfmt_term(&pl->c, cw) : decode_term(&dp->c, cw);

    /* the scales of the blocks that have lanes: a NaN makes its lanes' NaN
    ** products, so the one pass's NaN (pass_eval) */
    int nb = (n + dp->scale_block - 1) / dp->scale_block;
    uint64_t smag[LAD_SCALEMAX];
    int sexp[LAD_SCALEMAX], sraw[LAD_SCALEMAX];
    for (int i = 0; i < nb; i++) {
        const struct lad_scale *sa = &pl->sta[csa[i]], *sb = &pl->stb[csb[i]];
        if (sa->nan | sb->nan)
            return dp->nan;
        smag[i] = (uint64_t)sa->mag * sb->mag;
        sexp[i] = sa->exp + sb->exp;
        sraw[i] = sa->raw + sb->raw;
    }
#if LAD_AVX2_CLONE
    if (pl->scaled8 && !bytes && nb == 1 && smag[0] == 1 && sraw[0] == sexp[0]) {
        /* one block, its scales' product a power of two whose exponent
        ** is its raw one (scaled_sum anchors on sraw, scales by sexp): an
        ** unscaled case of products scaled by 2^sexp */
        int done;
        lad_word_t w = scaled_lanes8(pl, pa, pb, n, cw, sexp[0], &done);
        if (done)
            return w;
    }
#endif
    /* a NaN or Inf word or C: the one pass, straight into d, is decided by
    ** the classes (an Inf product keeps its class whatever its scale) */
    if (special || c.cls >= LAD_INFINITE) {
        *general = !(pl->simple && pl->fast_c);
        if (bytes && !*general) {
            widen_bytes(wa, a8, n);
            widen_bytes(wb, b8, n);
            pa = wa;
            pb = wb;
        }
        return *general ? 0 : special_rest(pl, pa, pb, 0, n, &c);
    }

    if (pl->fixed) {
        /* a group's products as integers of one unit, summed exactly in
        ** 32 bits (fixed_ok), times the scale pair the group shares */
        int32_t gp[LAD_KMAX], grm[LAD_KMAX];
#if LAD_AVX2_CLONE
        if (pl->fixed8 && n % 8 == 0 && n % dp->group == 0)
            fixed_groups8(pl, pa, pb, bytes ? a8 : NULL, b8, n, gp, grm);
        else
#endif
            fixed_groups(pl, pa, pb, n, gp, grm);
        if (pl->fixsum && n % dp->scale_block == 0)
            return fixed_sum(pl, &c, gp, grm, smag, sexp, sraw, n);
        return fixed_terms(pl, &c, gp, grm, smag, sexp, sraw, n);
    }

    int64_t m[LAD_KMAX];
    int ex[LAD_KMAX], rt[LAD_KMAX], sr[LAD_KMAX];
    /* products with their scales: value m[j] * 2^ex[j], raw exponent rt[j] */
    int off = (int)(pl->a.mb + pl->b.mb), rp = LAD_NOFLOOR, smax = LAD_NOFLOOR, anyzero = 0;
    for (int blk = 0, from = 0; from < n; blk++, from += dp->scale_block) {
        int to = from + dp->scale_block < n ? from + dp->scale_block : n, bany = 0;
        for (int j = from; j < to; j++) {
            uint64_t v = (uint64_t)mag32[j] * smag[blk];
            uint64_t sg = (uint64_t)(int64_t)(int32_t)sgn[j];  /* 0 or all ones */
            m[j] = (int64_t)((v ^ sg) - sg);
            ex[j] = (int)raw[j] - pl->bias - off + sexp[blk];
            rt[j] = v ? (int)raw[j] - pl->bias + sraw[blk] : LAD_NOFLOOR;
            sr[j] = sraw[blk];
            rp = rt[j] > rp ? rt[j] : rp;
            bany |= v != 0;
            anyzero |= v == 0;
        }
        if (bany && sraw[blk] > smax)
            smax = sraw[blk];
    }
    return scaled_sum(pl, &c, m, ex, rt, sr, n, dp->group, dp->cdom_group, rp, smax, anyzero);
}

static lad_word_t eval_scaled(const lad_plan *pl, const lad_case *cs)
{
    lad_word_t wa[LAD_KMAX], wb[LAD_KMAX];
    const lad_word_t *pa, *pb;
    int n = lane_words(pl->dp, cs, wa, wb, &pa, &pb), general;
    lad_word_t w = scaled_body(pl, pa, pb, NULL, NULL, n, cs->c, cs->sa, cs->sb, &general);
    return general ? lad_eval_general(pl->dp, cs) : w;
}

static int lanes8_ok(const lad_datapath *dp, uint64_t off, const lad_opfmt *a,
                     const lad_opfmt *b);
static int lanes8_sum32(const lad_datapath *dp);

void lad_plan_init(lad_plan *p, const lad_datapath *dp)
{
    memset(p, 0, sizeof *p);
    p->dp = dp;
    p->cases_w = LAD_BLOCK_W;
    p->a = lad_opfmt_of(&dp->a);
    p->b = lad_opfmt_of(&dp->b);
    p->off = lad_rows_off(dp);
    /* the first path that implements every row dp sets off its default
    ** (params.def's LAD_IMPL) and whose sums fit; else the reference */
    p->path = dp->integer ? LAD_PATH_INTEGER
              : lad_impl_gap(LAD_EV_UNSCALED, dp, p->off) < 0 && fast_fits(dp, &p->a, &p->b)
                  ? LAD_PATH_FAST
              : lad_impl_gap(LAD_EV_SCALED, dp, p->off) < 0 && scaled_fits(dp, &p->a, &p->b)
                  ? LAD_PATH_SCALED
                  : LAD_PATH_GENERAL;
    if (p->path == LAD_PATH_GENERAL || p->path == LAD_PATH_INTEGER)
        return;
    p->c = lad_opfmt_of(&dp->c);
    p->acc = lad_opfmt_of(&dp->acc);
    p->d = lad_opfmt_of(&dp->d);
    p->shape = shape_of(&p->a, &p->b);
    p->simple = p->a.spec != FS_OTHER && p->b.spec != FS_OTHER;
    p->inf_rest = p->simple && dp->chain == LAD_CHAIN && !dp->c_last && !dp->d_via_acc &&
                  dp->acc.inf == LAD_INF_IEEE && dp->acc.nan == LAD_NAN_IEEE;
    p->fast_c = lad_opfmt_usable(&dp->c, &p->c);
    p->fast_acc = lad_opfmt_usable(&dp->acc, &p->acc);
    p->acc_nan = lad_format_nan(&dp->acc);
    /* a product m * 2^(raw - off) in units of 2^(r - window) is
    ** (m << up) >> (r - raw + down): one of up, down is zero */
    int off = (int)(p->a.mb + p->b.mb);
    p->up = dp->window > off ? dp->window - off : 0;
    p->down = dp->window < off ? off - dp->window : 0;
    p->bias = p->a.bias + p->b.bias;
    /* a product (m << up) * 2^(raw - bias - off - up) is 2^prod_inf or
    ** more when m << up >= 2^(bigt - raw) */
    p->bigt = dp->prod_inf == LAD_NOFLOOR ? 0 : dp->prod_inf + p->bias + off + p->up;
    p->npass = (dp->k + dp->pass - 1) / dp->pass;
    if (p->path == LAD_PATH_SCALED) {
        scale_table(&dp->sa, p->sta);
        scale_table(&dp->sb, p->stb);
    }
    if (p->path == LAD_PATH_SCALED && fixed_ok(dp, p->off, &p->a, &p->b)) {
        p->fixed = 1;
        p->fixsum = dp->align_round == LAD_RZ &&
                    (dp->cdom_window == 0 || dp->scale_block % dp->cdom_group == 0) &&
                    (dp->group_sub_floor == LAD_NOFLOOR || lad_opfmt_usable(&dp->d, &p->d));
        p->fxunit = 2 - dp->a.bias - dp->a.mbits - dp->b.bias - dp->b.mbits;
        fixed_tables(&dp->a, &p->a, p->fxa, p->rxa);
        fixed_tables(&dp->b, &p->b, p->fxb, p->rxb);
    }
#if LAD_AVX2_CLONE
    p->avx2 = __builtin_cpu_supports("avx2") != 0;
#endif
    /* groups of four lanes or of whole chunks of eight: fixed_groups8 */
    p->fixed8 = p->fixed && p->avx2 && (dp->group == 4 || dp->group % 8 == 0);
    /* a block-scaled kind whose only scaled step is the scales' product
    ** (LAD_IMPL's lanes8 column: groups of one, no C-dominant window, scale
    ** floor or dropped groups): the eight-lane code with an exponent offset */
    p->scaled8 = p->path == LAD_PATH_SCALED && p->avx2 && p->shape != SHAPE_WIDE &&
                 dp->k % 8 == 0 && lanes8_ok(dp, p->off, &p->a, &p->b);
    /* products < 2^(off + 2) shifted up stay below 2^(window + 2) */
    if (p->path == LAD_PATH_FAST && p->shape != SHAPE_WIDE && dp->window + 2 <= 32)
        p->preup = p->up;
    p->lanes8 = p->path == LAD_PATH_FAST && p->shape != SHAPE_WIDE && p->preup == p->up &&
                lanes8_ok(dp, p->off, &p->a, &p->b);
    p->direct = !dp->sparse && dp->in_round == LAD_RZ && !dp->norder;
    p->full8 = p->direct && dp->k % 8 == 0;
    p->whole8 = p->full8 && (dp->pass >= dp->k || dp->pass % 8 == 0);
    p->sum32 = lanes8_sum32(dp);
    p->cases8 = p->path == LAD_PATH_FAST && lad_cases_ok(p);
    if (p->cases8)
        p->cases_w = lad_cases_width(p);
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
                return special_rest(pl, pa, pb, from, n, add);
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
            return special_rest(pl, pa, pb, to, n, &r);
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

/* A case is 2.1 KB of which a K=16 evaluation reads a few lines far apart;
** fetching the lines of a case some cases ahead keeps a batch larger than
** the caches from stalling on memory: every line of its first kb bytes of
** A and B words (a case is not line aligned), and C. */
static inline __attribute__((always_inline)) void fetch_case(const lad_case *c, int kb)
{
    const char *a = (const char *)c->a, *b = (const char *)c->b;
    for (int off = 0; off < kb + 63; off += 64) {
        int o = off < kb ? off : kb - 1;
        __builtin_prefetch(a + o);
        __builtin_prefetch(b + o);
    }
    __builtin_prefetch(&c->c);
}

/* ---- eight lanes at a time ---------------------------------------------------
**
** The fast path again, for what nearly every preset is: passes chained (C
** first, in the window, or at CDNA3's second level), toward-zero
** alignment, and products and window terms below 2^31 (window + 2 <= 31,
** significands of 29 bits or fewer together). Every lane of a case is
** decoded first, eight at a time, into 32-bit integers (the product
** already shifted up into the window, the raw exponent or 0 for a zero
** product, the sign as 0 or -1); then each pass takes its anchor from the
** largest raw exponent of its lanes and sums its lanes eight at a time, a
** term being m >> min(d, 31) with the sign applied: no branch depends on
** the data. It needs AVX2 (per-lane variable shifts and a 32-bit multiply
** on 8 x 32 bits; SSE2 has neither, and a generic build split lane by lane
** ran 3x slower than fast_body), so it is compiled for AVX2 only and runs
** where lad_plan_init found it. Measured (callgrind, bf16 K=16, half raw
** words): about 450 instructions a case, against some 770 for fast_body
** with the four-lane decoder and the scalar sum. From the pass that meets
** a NaN or an Inf word, a product too large or an Inf addend, the classes
** decide the case (special_rest8, where lad_plan.inf_rest); anything else
** rare (such a case without inf_rest, an accumulator's NaN) goes to
** fast_body. The block-scaled path runs it too, for a block whose scales
** multiply to a power of two (scaled_lanes8).
*/

/* Whether the eight-lane code computes dp (on the fast path, opfmts a and
** b) exactly as fast_body does: the rows LAD_IMPL's lanes8 column covers,
** and 32-bit products and window terms. */
static int lanes8_ok(const lad_datapath *dp, uint64_t off, const lad_opfmt *a,
                     const lad_opfmt *b)
{
    return lad_impl_gap(LAD_EV_LANES8, dp, off) < 0 && dp->window + 2 <= 31 &&
           a->mb + b->mb + 2 <= 31;
}

/* Whether a pass of a dense case (lad_plan.full8), summed lane by lane in
** 32 bits, cannot overflow: each lane gets one term (below 2^(window + 2))
** per chunk of eight the pass touches, pass / 8 of them when passes are
** whole chunks, one more at most when not. */
static int lanes8_sum32(const lad_datapath *dp)
{
    int len = dp->pass < dp->k ? dp->pass : dp->k;
    int chunks = (len + 7) / 8 + (len % 8 != 0);
    return dp->window + 2 + ceil_log2(chunks) <= 31;
}

#if LAD_AVX2_CLONE
#include <immintrin.h>

#define AVX2 __attribute__((target("avx2")))
typedef uint64_t v8w __attribute__((vector_size(64)));
typedef int64_t v4l __attribute__((vector_size(32)));

/* The addend of a pass when its format is one opfmt_term reads: the fields
** of a term in 32 and 64 bits (its magnitude is below 2^25 here). */
typedef struct addend {
    int cls, neg, exp, raw;
    uint64_t mag;
} addend;

static inline __attribute__((always_inline)) addend addend_of(const term *t)
{
    addend a = {t->cls, t->neg, t->exp, t->raw, (uint64_t)t->mag};
    return a;
}

static inline __attribute__((always_inline)) term term_of(const addend *a)
{
    term t = {a->cls, a->neg, a->mag, a->exp, a->raw};
    return t;
}

/* A word of an opfmt_usable format as an addend (opfmt_term in 64 bits). */
static inline __attribute__((always_inline)) addend opfmt_addend(const lad_opfmt *d, lad_word_t w)
{
    uint32_t x = (uint32_t)w >> d->pad;
    uint32_t f = x & d->fmask, e = (x >> d->mb) & d->emax;
    addend a;
    a.neg = (x & d->smask) != 0;
    a.raw = (int)e - d->bias + (e == 0);
    a.exp = a.raw - (int)d->mb;
    a.mag = f | ((uint64_t)(e != 0) << d->mb);
    a.cls = opfmt_class(d, w);
    if (a.cls == LAD_NORMAL && e == 0)
        a.cls = LAD_SUBNORMAL;
    return a;
}

/* A word of f as an addend: by opfmt_addend where fast (f's opfmt d is
** opfmt_usable), else by lad_decode. */
static inline __attribute__((always_inline)) addend word_addend(int fast, const lad_opfmt *d,
                                                                const lad_format *f,
                                                                lad_word_t w)
{
    if (fast)
        return opfmt_addend(d, w);
    term t = decode_term(f, w);
    return addend_of(&t);
}

AVX2 static inline __attribute__((always_inline)) int any_lane(v8u x)
{
    return !_mm256_testz_si256((__m256i)x, (__m256i)x);
}

/* The largest of eight lanes below 2^31 (a signed maximum). */
AVX2 static inline __attribute__((always_inline)) uint32_t max_lane(v8u x)
{
    __m128i m = _mm_max_epi32(_mm256_castsi256_si128((__m256i)x),
                              _mm256_extracti128_si256((__m256i)x, 1));
    m = _mm_max_epi32(m, _mm_shuffle_epi32(m, 0x4e));
    m = _mm_max_epi32(m, _mm_shuffle_epi32(m, 0xb1));
    return (uint32_t)_mm_cvtsi128_si32(m);
}

/* Eight words at p, shifted down by pad: the low 32 bits of a word hold
** all of a narrow format. Two loads of four words; a shuffle takes the
** low halves of words 0, 1, 4, 5 | 2, 3, 6, 7, a permute of the 64-bit
** pairs puts them in order (GCC's own conversion of the 512-bit vector
** took some ten instructions). */
AVX2 static inline __attribute__((always_inline)) v8u words8(const lad_word_t *p, uint32_t pad)
{
    __m256 lo = _mm256_castsi256_ps(_mm256_loadu_si256((const __m256i *)p));
    __m256 hi = _mm256_castsi256_ps(_mm256_loadu_si256((const __m256i *)(p + 4)));
    __m256i x = _mm256_castps_si256(_mm256_shuffle_ps(lo, hi, 0x88));
    return (v8u)_mm256_permute4x64_epi64(x, 0xd8) >> pad;
}

/* Whether any of bits [from, to) is set, bit j being bit j % 8 of
** spc[j / 8]. */
static inline __attribute__((always_inline)) int chunk_bits(const uint8_t *spc, int from,
                                                            int to)
{
    for (int j = from & ~7; j < to; j += 8) {
        int lo = from > j ? from - j : 0, hi = to < j + 8 ? to - j : 8;
        if (spc[j / 8] & ((1u << hi) - (1u << lo)))
            return 1;
    }
    return 0;
}

/* special_rest in the eight-lane code, decoder A x B: the classes of lanes
** [from, n) eight at a time (products too large among the Infs), as masks
** of NaN results and Infs of either sign. Reads whole chunks of eight (the
** arrays are padded: lanes8_row). */
AVX2 static inline __attribute__((always_inline)) lad_word_t
special_rest8(const lad_plan *pl, const lad_word_t *pa, const lad_word_t *pb, int from, int n,
              const addend *add, const lad_opfmt A, const lad_opfmt B)
{
    const v8u idx = {0, 1, 2, 3, 4, 5, 6, 7};
    v8u nan = {0}, pinf = {0}, ninf = {0};
    for (int j = from & ~7; j < n; j += 8) {
        op8 a, b;
        v8u xa = words8(pa + j, A.pad), xb = words8(pb + j, B.pad), rw;
        decode8(&a, &xa, A);
        decode8(&b, &xb, B);
        v8u jj = idx + (uint32_t)j;
        v8u in = (v8u)((jj >= (uint32_t)from) & (jj < (uint32_t)n)), cn, cp, cm;
        class8(&cn, &cp, &cm, &a, &b, A, B);
        nan |= in & cn;
        pinf |= in & cp;
        ninf |= in & cm;
        if (pl->bigt) {  /* finite products too large for the datapath are infinite */
            raw8(&rw, &a, &b);
            v8u m = (a.m * b.m) << pl->up, big;
            big8(&big, pl->bigt, &m, &rw);
            big &= in & ~(a.special | b.special);
            v8u neg = a.neg ^ b.neg;
            pinf |= big & ~neg;
            ninf |= big & neg;
        }
    }
    int p = any_lane(pinf) || (add->cls == LAD_INFINITE && !add->neg);
    int m = any_lane(ninf) || (add->cls == LAD_INFINITE && add->neg);
    if (any_lane(nan) || add->cls == LAD_NAN || (p && m))
        return pl->dp->nan;
    return lad_format_inf(&pl->dp->d, m);
}

/* One case, n lanes at pa and pb and C's word cw, every product scaled by
** 2^es (a block-scaled case of one block whose scales' product is a power
** of two: scaled_lanes8; else 0), decoder A x B. full: every chunk of
** eight lanes is whole (lad_plan.full8 for a dense case), so decoding needs
** no masks; whole (with full only): every chunk lies in one pass
** (lad_plan.whole8), so the passes need none either. sum32 (with full
** only): lanes8_sum32. Returns 0 in *done for a case left to fast_body. */
AVX2 static inline __attribute__((always_inline)) lad_word_t
lanes8_body(const lad_plan *pl, const lad_word_t *pa, const lad_word_t *pb, int n,
            lad_word_t cw, int es, const lad_opfmt A, const lad_opfmt B, const int full,
            const int whole, const int sum32, int *done)
{
    const lad_datapath *dp = pl->dp;
    /* products << up, raw exponents (0: a zero product), signs (0 or -1);
    ** whole chunks of eight, lanes past n zero */
    uint32_t mag[LAD_KMAX], raw[LAD_KMAX], sgn[LAD_KMAX];
    const v8u idx = {0, 1, 2, 3, 4, 5, 6, 7};
    const int up = pl->up;
    /* bit j % 8 of spc[j / 8]: lane j has a NaN or Inf word; spl: any */
    uint8_t spc[LAD_KMAX / 8];
    uint32_t spl = 0;
    for (int j = 0; j < n; j += 8) {
        v8u xa = words8(pa + j, A.pad), xb = words8(pb + j, B.pad);
        if (!full) {
            v8u in = (v8u)(idx + (uint32_t)j < (uint32_t)n);
            xa &= in;
            xb &= in;
        }
        op8 a, b;
        v8u rw;
        decode8(&a, &xa, A);
        decode8(&b, &xb, B);
        raw8(&rw, &a, &b);
        v8u spj = a.special | b.special;
        v8u z = (v8u)((a.m == 0) | (b.m == 0));
        v8u m = (a.m * b.m) << up;
        if (pl->bigt) {  /* a product too large is an Inf: special_rest8 */
            v8u big;
            big8(&big, pl->bigt, &m, &rw);
            spj |= big;
        }
        uint32_t mk = (uint32_t)_mm256_movemask_ps((__m256)spj);
        spc[j / 8] = (uint8_t)mk;
        spl |= mk;
        rw &= ~z;
        v8u sg;
        if (A.smask == B.smask && A.smask)  /* the sign bit to bit 31, spread */
            sg = (v8u)((v8i)((xa ^ xb) << (31 - __builtin_ctz(A.smask))) >> 31);
        else
            sg = a.neg ^ b.neg;
        memcpy(mag + j, &m, sizeof m);
        memcpy(raw + j, &rw, sizeof rw);
        memcpy(sgn + j, &sg, sizeof sg);
    }
    *done = 0;
    if (spl && !pl->inf_rest)
        return 0;
    addend acc = word_addend(pl->fast_c, &pl->c, &dp->c, cw);
    if (acc.cls >= LAD_INFINITE) {
        *done = pl->inf_rest;
        return pl->inf_rest ? special_rest8(pl, pa, pb, 0, n, &acc, A, B) : 0;
    }
    int npass = n == dp->k ? pl->npass : n > 0 ? (n + dp->pass - 1) / dp->pass : 1;
    for (int p = 0; p < npass; p++) {
        int from = p * dp->pass, to = from + dp->pass < n ? from + dp->pass : n;
        int last = p == npass - 1;
        /* a NaN or Inf among the pass's words (then pl->inf_rest) */
        if (spl && chunk_bits(spc, from, to)) {
            *done = 1;
            return special_rest8(pl, pa, pb, from, n, &acc, A, B);
        }
        const lad_format *out = last ? &dp->d : &dp->acc;
        int mode = last ? dp->d_round : dp->acc_round;
        /* the anchor: the largest raw exponent of the pass's nonzero
        ** products (raw < 2^31: signed compares) */
        v8i rm = {0}, zs = {0};
        for (int j = from & ~7; j < to; j += 8) {
            v8i rw;
            memcpy(&rw, raw + j, sizeof rw);
            v8i in = ~(v8i){0};
            if (!whole) {
                v8u jj = idx + (uint32_t)j;
                in = (v8i)((jj >= (uint32_t)from) & (jj < (uint32_t)to));
                rw &= in;
            }
            rm = (v8i)_mm256_max_epi32((__m256i)rm, (__m256i)rw);
            zs |= (v8i)(rw == 0) & in;
        }
        uint32_t rmax = max_lane((v8u)rm);
        lad_word_t w;
        if (rmax == 0) {
            /* no product: the addend alone (exact zero: +0) */
            term t = term_of(&acc);
            w = lad_add_round(out, 0, 0, &t, mode, dp->overflow);
        } else {
            /* the addend in the window, or at the second level */
            int two = dp->window2 > 0;
            int r = (int)rmax - pl->bias + es, inwin = acc.cls != LAD_ZERO && !two;
            if (dp->zero_floor != LAD_NOFLOOR && dp->zero_floor > r && any_lane((v8u)zs))
                r = dp->zero_floor;
            if (inwin && acc.raw > r)
                r = acc.raw;
            if (r < dp->anchor_min)
                r = dp->anchor_min;
            int q = r - dp->window;
            v8u base = (v8u){0} + (uint32_t)(r + pl->bias + pl->down - es);
            /* even_odd: the even lanes (a chunk's even positions: passes
            ** start at even lanes) and the odd ones below their own anchors */
            int rh[2] = {r, r};
            if (dp->even_odd) {
                const v8i odd = {0, -1, 0, -1, 0, -1, 0, -1};
                uint32_t rmh[2] = {max_lane((v8u)(rm & ~odd)), max_lane((v8u)(rm & odd))};
                for (int h = 0; h < 2; h++) {
                    rh[h] = (int)rmh[h] - pl->bias + es;
                    rh[h] = rh[h] < dp->anchor_min ? dp->anchor_min : rh[h];
                    /* a half without a product sums zeros: any base */
                    rh[h] = rmh[h] ? rh[h] : r;
                }
                uint32_t b0 = (uint32_t)(rh[0] + pl->bias + pl->down - es);
                uint32_t b1 = (uint32_t)(rh[1] + pl->bias + pl->down - es);
                base = (v8u){b0, b1, b0, b1, b0, b1, b0, b1};
            }
            /* each term below 2^31; the sum in 32-bit lanes where it cannot
            ** overflow (sum32), else in two halves of four 64-bit lanes */
            v8i s32 = {0};
            v4l slo = {0}, shi = {0};
            for (int j = from & ~7; j < to; j += 8) {
                v8u m, rw, sg;
                memcpy(&m, mag + j, sizeof m);
                memcpy(&rw, raw + j, sizeof rw);
                memcpy(&sg, sgn + j, sizeof sg);
                /* m < 2^31: a shift of 31 leaves 0 */
                v8u d = (v8u)_mm256_min_epu32((__m256i)(base - rw), _mm256_set1_epi32(31));
                v8u a = m >> d;
                if (!whole) {
                    v8u jj = idx + (uint32_t)j;
                    a &= (v8u)((jj >= (uint32_t)from) & (jj < (uint32_t)to));
                }
                v8i t = (v8i)((a ^ sg) - sg);
                if (sum32) {
                    s32 += t;
                } else {
                    slo += __builtin_convertvector(__builtin_shufflevector(t, t, 0, 1, 2, 3), v4l);
                    shi += __builtin_convertvector(__builtin_shufflevector(t, t, 4, 5, 6, 7), v4l);
                }
            }
            if (sum32) {
                slo = __builtin_convertvector(__builtin_shufflevector(s32, s32, 0, 1, 2, 3), v4l);
                shi = __builtin_convertvector(__builtin_shufflevector(s32, s32, 4, 5, 6, 7), v4l);
            }
            slo += shi;
            int64_t sum = slo[0] + slo[1] + slo[2] + slo[3];
            if (dp->even_odd)  /* each half cut to units of 2^q */
                sum = align64(slo[0] + slo[2], rh[0] - dp->window, q, dp->align2_round) +
                      align64(slo[1] + slo[3], rh[1] - dp->window, q, dp->align2_round);
            if (inwin) {
                /* the addend is a term of the window: at most r, so it fits */
                int sh = acc.exp - q;
                uint64_t a = sh >= 0 ? acc.mag << sh : -sh < 64 ? acc.mag >> -sh : 0;
                sum += acc.neg ? -(int64_t)a : (int64_t)a;
            }
            if (two) {
                term t = term_of(&acc);
                w = two_level64(dp, sum, r, &t, out, mode);
            } else {
                w = round64(out, sum, q, mode, dp->overflow);
            }
        }
        if (last) {
            *done = 1;
            return w;
        }
        acc = word_addend(pl->fast_acc, &pl->acc, &dp->acc, w);
        if (pl->inf_rest && acc.cls == LAD_INFINITE) {
            *done = 1;
            return special_rest8(pl, pa, pb, to, n, &acc, A, B);
        }
        if (acc.cls >= LAD_INFINITE || w == pl->acc_nan)
            return 0;
    }
    return 0;  /* not reached: npass >= 1 */
}

/* fast_body in the AVX2 build (per-lane shifts make its sums a vector loop
** too): what the eight-lane code leaves, and the datapaths it does not
** take. */
AVX2 __attribute__((noinline)) static lad_word_t eval_fast_avx2(const lad_plan *pl,
                                                                const lad_case *cs)
{
    return fast_body(pl, cs);
}

/* Dense cases as the eight-lane loops read them (lad_plan.direct): case
** i's A and B words at a + i * step and b + i * step, its C word at c[i *
** cstep] (no c: +0). Rows (lad_rows) are steps of k and 1; an array of
** lad_case is the same with both steps its size in words, so one set of
** loops serves both (cases, else rows: where a case left to fast_body
** is). */
typedef struct lanes8_in {
    const lad_word_t *a, *b, *c;
    size_t step, cstep;
    const lad_case *cases;
    const lad_rows *rows;
} lanes8_in;

/* Case i of `in` by the eight-lane code with decoder A x B; `full` and
** `whole` as the plan says for a dense case (lad_plan.full8, whole8); a
** case it leaves goes to fast_body. */
AVX2 static inline __attribute__((always_inline)) lad_word_t
lanes8_row(const lad_plan *pl, const lanes8_in *in, size_t i, const lad_opfmt A,
           const lad_opfmt B, const int full, const int whole, const int sum32)
{
    int k = pl->dp->k, done;
    const lad_word_t *pa = in->a + i * in->step, *pb = in->b + i * in->step;
    lad_word_t cw = in->c ? in->c[i * in->cstep] : 0, w;
    if (full) {
        w = lanes8_body(pl, pa, pb, k, cw, 0, A, B, 1, whole, sum32, &done);
    } else {
        /* the masked code loads whole chunks of eight: a case of another k
        ** is copied, so that no load passes the arrays' end */
        lad_word_t ta[LAD_KMAX + 8], tb[LAD_KMAX + 8];
        memcpy(ta, pa, (size_t)k * sizeof *ta);
        memcpy(tb, pb, (size_t)k * sizeof *tb);
        memset(ta + k, 0, 8 * sizeof *ta);
        memset(tb + k, 0, 8 * sizeof *tb);
        w = lanes8_body(pl, ta, tb, k, cw, 0, pl->a, pl->b, 0, 0, 0, &done);
    }
    if (done)
        return w;
    if (in->cases)
        return eval_fast_avx2(pl, &in->cases[i]);
    lad_case cs;
    lad_rows_case(pl->dp, in->rows, i, &cs);
    return eval_fast_avx2(pl, &cs);
}

/* A case whose lanes are not all taken in order (sparse, cut or
** reordered: not lad_plan.direct), by the masked eight-lane code on its
** lanes in pass order. */
AVX2 __attribute__((noinline)) static lad_word_t lanes8_indirect(const lad_plan *pl,
                                                                 const lad_case *cs)
{
    lad_word_t wa[LAD_KMAX], wb[LAD_KMAX];  /* whole chunks: LAD_KMAX % 8 == 0 */
    const lad_word_t *pa, *pb;
    int n = lane_words(pl->dp, cs, wa, wb, &pa, &pb), done;
    lad_word_t w = lanes8_body(pl, pa, pb, n, cs->c, 0, pl->a, pl->b, 0, 0, 0, &done);
    return done ? w : eval_fast_avx2(pl, cs);
}

/* The block-scaled path's cases that are an unscaled one with every
** product scaled by 2^es (lad_plan.scaled8): n lanes at pa and pb, C's
** word cw. Returns 0 in *done for a case left to the rest of scaled_body. */
AVX2 __attribute__((noinline)) static lad_word_t
scaled_lanes8(const lad_plan *pl, const lad_word_t *pa, const lad_word_t *pb, int n,
              lad_word_t cw, int es, int *done)
{
    if (n != pl->dp->k || !pl->full8)
        return lanes8_body(pl, pa, pb, n, cw, es, pl->a, pl->b, 0, 0, 0, done);
    switch (pl->shape) {
#define SHAPE(k) \
    case k: \
        return lanes8_body(pl, pa, pb, n, cw, es, SHAPES[k - 1], SHAPES[k - 1], 1, 1, \
                           pl->sum32, done)
        EACH_SHAPE(SHAPE);
#undef SHAPE
    default:
        return lanes8_body(pl, pa, pb, n, cw, es, pl->a, pl->b, 1, 1, pl->sum32, done);
    }
}

/* ONE_CASE(i, A, B, full, whole, sum32), a macro of the caller's, for each
** case i < n, one loop per decoder shape, so that the shape's constants
** stay in registers from case to case. */
#define LANES8_LOOPS() \
    switch (pl->full8 ? pl->shape : SHAPE_NARROW) { \
        EACH_SHAPE(LANES8_SHAPE); \
    default: \
        if (pl->full8) \
            LANES8_LOOP(pl->a, pl->b, 1, pl->whole8, pl->sum32) \
        else \
            LANES8_LOOP(pl->a, pl->b, 0, 0, 0) \
        break; \
    }
#define LANES8_LOOP(A, B, full, whole, sum32) \
    for (size_t i = 0; i < n; i++) \
        d[i] = ONE_CASE(i, A, B, full, whole, sum32);
#define LANES8_SHAPE(k) \
    case k: \
        if (!pl->whole8) \
            LANES8_LOOP(SHAPES[k - 1], SHAPES[k - 1], 1, 0, pl->sum32) \
        else if (pl->sum32) \
            LANES8_LOOP(SHAPES[k - 1], SHAPES[k - 1], 1, 1, 1) \
        else \
            LANES8_LOOP(SHAPES[k - 1], SHAPES[k - 1], 1, 1, 0) \
        break

/*
** fixed_groups eight lanes at a time, where n is whole chunks of eight and
** whole groups and a group is four lanes or whole chunks (lad_plan.fixed8):
** the same tables (fxa, rxa), eight codes looked up by one vpshufb; a
** group's sum and largest raw exponent by horizontal adds and maxima.
*/
/* fixed_groups8 on bytes, 32 lanes at a time, where n is whole chunks of
** 32 and a group is 4, 8 or 16 lanes: the 32 codes' values and raw
** exponents looked up as bytes (vpshufb); the products summed in pairs as
** 16-bit words (vpmaddubsw: |a| times b with a's sign, at most 2 * 127 *
** 128 in magnitude), then in fours as 32-bit ones (vpmaddwd); the raw
** exponents' sums saturate at -128, which keeps a product with a zero at
** or below FX_ZERO / 2 (a nonzero one's sum is at most 2 * 20 in
** magnitude: fixed_ok), and a group's largest is taken by bytes. */
AVX2 static void fixed_groups32(const lad_plan *pl, const uint8_t *a8, const uint8_t *b8, int n,
                                int32_t *p, int32_t *rm)
{
    const int g = pl->dp->group;
    const __m256i low = _mm256_set1_epi8(FX_MASK), one16 = _mm256_set1_epi16(1);
    __m256i tab[4];
    const int8_t *tabs[4] = {pl->fxa, pl->fxb, pl->rxa, pl->rxb};
    for (int i = 0; i < 4; i++)
        tab[i] = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)tabs[i]));
    for (int j = 0; j < n; j += 32) {
        /* a byte shifted by pad within its 16-bit word: what comes in from
        ** the next byte is above the 4 bits kept */
        __m256i ca = _mm256_loadu_si256((const __m256i *)(a8 + j));
        __m256i cb = _mm256_loadu_si256((const __m256i *)(b8 + j));
        ca = _mm256_and_si256(_mm256_srli_epi16(ca, (int)pl->a.pad), low);
        cb = _mm256_and_si256(_mm256_srli_epi16(cb, (int)pl->b.pad), low);
        __m256i va = _mm256_shuffle_epi8(tab[0], ca), vb = _mm256_shuffle_epi8(tab[1], cb);
        __m256i s4 = _mm256_madd_epi16(
            _mm256_maddubs_epi16(_mm256_abs_epi8(va), _mm256_sign_epi8(vb, va)), one16);
        __m256i r = _mm256_adds_epi8(_mm256_shuffle_epi8(tab[2], ca),
                                     _mm256_shuffle_epi8(tab[3], cb));
        r = _mm256_max_epi8(r, _mm256_srli_epi32(r, 8));
        r = _mm256_max_epi8(r, _mm256_srli_epi32(r, 16));
        __m256i r4 = _mm256_srai_epi32(_mm256_slli_epi32(r, 24), 24);
        /* each 32-bit lane: a group of four lanes' sum and largest raw */
        if (g == 4) {
            _mm256_storeu_si256((__m256i *)(p + j / 4), s4);
            _mm256_storeu_si256((__m256i *)(rm + j / 4), r4);
            continue;
        }
        __m256i s8 = _mm256_hadd_epi32(s4, s4);  /* 0, 1 | 4, 5: eights */
        __m256i r8 = _mm256_max_epi32(r4, _mm256_shuffle_epi32(r4, 0xb1));  /* 0, 2 | 4, 6 */
        v8i hs, hr;
        if (g == 8) {
            hs = (v8i)s8;
            hr = (v8i)r8;
            int t = j / 8;
            p[t] = hs[0], p[t + 1] = hs[1], p[t + 2] = hs[4], p[t + 3] = hs[5];
            rm[t] = hr[0], rm[t + 1] = hr[2], rm[t + 2] = hr[4], rm[t + 3] = hr[6];
            continue;
        }
        hs = (v8i)_mm256_hadd_epi32(s8, s8);  /* 0 | 4: sixteens */
        hr = (v8i)_mm256_max_epi32(r8, _mm256_shuffle_epi32(r8, 0x4e));
        p[j / 16] = hs[0], p[j / 16 + 1] = hs[4];
        rm[j / 16] = hr[0], rm[j / 16 + 1] = hr[4];
    }
}

AVX2 static inline __attribute__((always_inline)) void
fixed_groups8_body(const lad_plan *pl, const lad_word_t *pa, const lad_word_t *pb,
                   const uint8_t *a8, const uint8_t *b8, int n, int32_t *p, int32_t *rm)
{
    const int g = pl->dp->group;
    const v8i none = (v8i){0} + 2 * FX_ZERO;
    /* the tables in both halves of a register: vpshufb looks up each
    ** byte of the index (a code in the low byte of each lane, zeros above) */
    __m256i tab[4];
    const int8_t *tabs[4] = {pl->fxa, pl->fxb, pl->rxa, pl->rxb};
    for (int i = 0; i < 4; i++)
        tab[i] = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)tabs[i]));
    v8i gs = {0}, gr = none;
    for (int j = 0; j < n; j += 8) {
        __m256i ia, ib;
        if (a8) {  /* eight bytes to eight lanes */
            ia = (__m256i)(((v8u)_mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(a8 + j)))
                            >> pl->a.pad) & FX_MASK);
            ib = (__m256i)(((v8u)_mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(b8 + j)))
                            >> pl->b.pad) & FX_MASK);
        } else {
            ia = (__m256i)(words8(pa + j, pl->a.pad) & FX_MASK);
            ib = (__m256i)(words8(pb + j, pl->b.pad) & FX_MASK);
        }
        /* each lane's low byte looked up, then spread over the lane */
#define LOOKUP(t, i) (((v8i)_mm256_shuffle_epi8(tab[t], i) << 24) >> 24)
        v8i pv = LOOKUP(0, ia) * LOOKUP(1, ib);
        v8i raw = LOOKUP(2, ia) + LOOKUP(3, ib);
#undef LOOKUP
        if (g == 4) {
            /* lanes 0 and 4 get their half's sum and maximum */
            __m256i h = _mm256_hadd_epi32((__m256i)pv, (__m256i)pv);
            h = _mm256_hadd_epi32(h, h);
            __m256i m = _mm256_max_epi32((__m256i)raw,
                                         _mm256_shuffle_epi32((__m256i)raw, 0xb1));
            m = _mm256_max_epi32(m, _mm256_shuffle_epi32(m, 0x4e));
            v8i hs = (v8i)h, ms = (v8i)m;
            p[j / 4] = hs[0];
            p[j / 4 + 1] = hs[4];
            rm[j / 4] = ms[0];
            rm[j / 4 + 1] = ms[4];
            continue;
        }
        gs += pv;
        gr = (v8i)_mm256_max_epi32((__m256i)gr, (__m256i)raw);
        if ((j + 8) % g == 0) {
            int t = j / g;
            v4i s4 = __builtin_shufflevector(gs, gs, 0, 1, 2, 3) +
                     __builtin_shufflevector(gs, gs, 4, 5, 6, 7);
            p[t] = s4[0] + s4[1] + s4[2] + s4[3];
            rm[t] = (int32_t)max_lane((v8u)gr);  /* a signed maximum */
            gs = (v8i){0};
            gr = none;
        }
    }
}

/* fixed_groups8 on words (pa, pb) or on bytes (a8, b8; then pa and pb
** are not read). */
AVX2 static void fixed_groups8(const lad_plan *pl, const lad_word_t *pa, const lad_word_t *pb,
                               const uint8_t *a8, const uint8_t *b8, int n, int32_t *p,
                               int32_t *rm)
{
    int g = pl->dp->group;
    if (a8 && n % 32 == 0 && (g == 4 || g == 8 || g == 16))
        fixed_groups32(pl, a8, b8, n, p, rm);
    else if (a8)
        fixed_groups8_body(pl, NULL, NULL, a8, b8, n, p, rm);
    else
        fixed_groups8_body(pl, pa, pb, NULL, NULL, n, p, rm);
}

/* lanes8_row over n cases. An array of lad_case is fetched some cases
** ahead (fetch_case); rows lie in order, so the CPU's own prefetch fetches
** them. */
AVX2 static void lanes8_rows(const lad_plan *pl, const lanes8_in *pin, size_t n, lad_word_t *d)
{
    const lanes8_in v = *pin, *in = &v;  /* its fields in registers */
    const size_t ahead = 8;
    int kb = pl->dp->k * (int)sizeof(lad_word_t);
#define ONE_CASE(i, A, B, full, whole, sum32) \
    (in->cases && i + ahead < n ? fetch_case(&in->cases[i + ahead], kb) : (void)0, \
     lanes8_row(pl, in, i, A, B, full, whole, sum32))
    LANES8_LOOPS()
#undef ONE_CASE
}

/* lanes8_rows on an array of cases. */
AVX2 static void lanes8_batch(const lad_plan *pl, const lad_case *cs, size_t n, lad_word_t *d)
{
    if (!pl->direct) {
        for (size_t i = 0; i < n; i++)
            d[i] = lanes8_indirect(pl, &cs[i]);
        return;
    }
    const size_t step = sizeof *cs / sizeof(lad_word_t);
    lanes8_in in = {cs->a, cs->b, &cs->c, step, step, cs, NULL};
    lanes8_rows(pl, &in, n, d);
}
#undef LANES8_LOOPS
#undef LANES8_LOOP
#undef LANES8_SHAPE
#endif

/* The unscaled fast path for any CPU of the target (and the one CPUs
** without AVX2 run); lad_plan_init picks it or the AVX2 build. */
static lad_word_t eval_fast(const lad_plan *pl, const lad_case *cs)
{
    return fast_body(pl, cs);
}

lad_word_t lad_plan_eval(const lad_plan *p, const lad_case *cs)
{
    switch (p->path) {
    case LAD_PATH_FAST:
#if LAD_AVX2_CLONE
        if (p->avx2 && p->lanes8) {
            lad_word_t w;
            lanes8_batch(p, cs, 1, &w);
            return w;
        }
        if (p->avx2)
            return eval_fast_avx2(p, cs);
#endif
        return eval_fast(p, cs);
    case LAD_PATH_SCALED:
        return eval_scaled(p, cs);
    case LAD_PATH_INTEGER:
        return lad_eval_integer(p->dp, cs);
    default:
        return lad_eval_general(p->dp, cs);
    }
}

/* lad_plan_eval_batch one case at a time (the AVX2 build's eight-lane
** code, itself a loop). */
static void batch_each(const lad_plan *p, const lad_case *cs, size_t n, lad_word_t *d)
{
#if LAD_AVX2_CLONE
    if (p->path == LAD_PATH_FAST && p->avx2 && p->lanes8) {
        lanes8_batch(p, cs, n, d);
        return;
    }
#endif
    const size_t ahead = 8;
    int kb = p->dp->k * (int)sizeof(lad_word_t);
    for (size_t i = 0; i < n; i++) {
        if (i + ahead < n)
            fetch_case(&cs[i + ahead], kb);
        d[i] = lad_plan_eval(p, &cs[i]);
    }
}

void lad_plan_eval_batch(const lad_plan *p, const lad_case *cs, size_t n, lad_word_t *d)
{
    size_t i = 0;
    if (p->cases8 && p->avx2) {
        /* cases_w cases side by side; the ones that kernel leaves, alone */
        const size_t step = sizeof *cs / sizeof(lad_word_t), w = (size_t)p->cases_w;
        for (; i + w <= n; i += w) {
            unsigned left = lad_cases_eval(p, cs[i].a, cs[i].b, step, &cs[i].c, step, d + i);
            for (int l = 0; left >> l; l++)
                if (left >> l & 1)
                    d[i + l] = lad_plan_eval(p, &cs[i + l]);
        }
    }
    batch_each(p, cs + i, n - i, d + i);
}

/* Case i of rows r as a lad_case (its metadata zero). */
void lad_rows_case(const lad_datapath *dp, const lad_rows *r, size_t i, lad_case *cs)
{
    size_t k = (size_t)dp->k, nkb = (size_t)lad_datapath_nscales(dp);
    memset(cs->meta, 0, sizeof cs->meta);
    if (r->a8) {
        widen_bytes(cs->a, r->a8 + i * k, (int)k);
        widen_bytes(cs->b, r->b8 + i * k, (int)k);
    } else {
        memcpy(cs->a, r->a + i * k, k * sizeof *cs->a);
        memcpy(cs->b, r->b + i * k, k * sizeof *cs->b);
    }
    cs->c = r->c ? r->c[i] : 0;
    if (nkb) {
        memcpy(cs->sa, r->sa + i * nkb, nkb);
        memcpy(cs->sb, r->sb + i * nkb, nkb);
    }
}

/* lad_plan_eval_rows one case at a time. */
static void rows_each(const lad_plan *p, const lad_rows *r, size_t n, lad_word_t *d)
{
#if LAD_AVX2_CLONE
    if (p->path == LAD_PATH_FAST && p->avx2 && p->lanes8 && p->direct) {
        lanes8_in in = {r->a, r->b, r->c, (size_t)p->dp->k, 1, NULL, r};
        lanes8_rows(p, &in, n, d);
        return;
    }
#endif
    lad_case cs;
    size_t k = (size_t)p->dp->k, nkb = (size_t)lad_datapath_nscales(p->dp);
    for (size_t i = 0; i < n; i++) {
        if (p->path != LAD_PATH_SCALED || !p->direct) {
            lad_rows_case(p->dp, r, i, &cs);
            d[i] = lad_plan_eval(p, &cs);
            continue;
        }
        /* the scaled path on the row itself; what it leaves, to the
        ** general code (as eval_scaled does) */
        int general;
        if (r->a8)
            d[i] = scaled_body(p, NULL, NULL, r->a8 + i * k, r->b8 + i * k, (int)k,
                               r->c ? r->c[i] : 0, r->sa + i * nkb, r->sb + i * nkb, &general);
        else
            d[i] = scaled_body(p, r->a + i * k, r->b + i * k, NULL, NULL, (int)k,
                               r->c ? r->c[i] : 0, r->sa + i * nkb, r->sb + i * nkb, &general);
        if (general) {
            lad_rows_case(p->dp, r, i, &cs);
            d[i] = lad_eval_general(p->dp, &cs);
        }
    }
}

/* Rows r from case i on. */
static lad_rows rows_from(const lad_datapath *dp, const lad_rows *r, size_t i)
{
    size_t k = (size_t)dp->k, nkb = (size_t)lad_datapath_nscales(dp);
    lad_rows s = *r;
    if (r->a8) {
        s.a8 = r->a8 + i * k;
        s.b8 = r->b8 + i * k;
    } else {
        s.a = r->a + i * k;
        s.b = r->b + i * k;
    }
    if (r->c)
        s.c = r->c + i;
    if (nkb) {
        s.sa = r->sa + i * nkb;
        s.sb = r->sb + i * nkb;
    }
    return s;
}

/* lad_plan_eval_rows on rows of words, or of bytes on the scaled path. */
static void rows_eval(const lad_plan *p, const lad_rows *r, size_t n, lad_word_t *d)
{
    size_t i = 0, k = (size_t)p->dp->k, w = (size_t)p->cases_w;
    if (p->cases8 && p->avx2) {
        /* cases_w cases side by side; the ones that kernel leaves, alone */
        for (; i + w <= n; i += w) {
            unsigned left = lad_cases_eval(p, r->a + i * k, r->b + i * k, k,
                                           r->c ? r->c + i : NULL, 1, d + i);
            for (int l = 0; left >> l; l++)
                if (left >> l & 1) {
                    lad_rows one = rows_from(p->dp, r, i + l);
                    rows_each(p, &one, 1, d + i + l);
                }
        }
    }
    lad_rows rest = rows_from(p->dp, r, i);
    rows_each(p, &rest, n - i, d + i);
}

void lad_plan_eval_rows(const lad_plan *p, const lad_rows *r, size_t n, lad_word_t *d)
{
    if (!r->a8 || (p->path == LAD_PATH_SCALED && p->direct)) {
        rows_eval(p, r, n, d);
        return;
    }
    /* bytes where the path reads words: a block of the case kernel's
    ** widened at a time, in the caches */
    size_t k = (size_t)p->dp->k;
    lad_word_t wa[LAD_BLOCK_WMAX * LAD_KMAX], wb[LAD_BLOCK_WMAX * LAD_KMAX];
    size_t w = (size_t)p->cases_w;
    for (size_t i = 0; i < n; i += w) {
        size_t m = n - i < w ? n - i : w;
        lad_rows s = rows_from(p->dp, r, i);
        widen_bytes(wa, s.a8, (int)(m * k));
        widen_bytes(wb, s.b8, (int)(m * k));
        s.a = wa;
        s.b = wb;
        s.a8 = s.b8 = NULL;
        rows_eval(p, &s, m, d + i);
    }
}

/* One case, or n, through a plan made for the call: every datapath. */
lad_word_t lad_eval(const lad_datapath *dp, const lad_case *cs)
{
    lad_plan p;
    lad_plan_init(&p, dp);
    return lad_plan_eval(&p, cs);
}

void lad_eval_batch(const lad_datapath *dp, const lad_case *cs, size_t n,
                    lad_word_t *d)
{
    lad_plan p;
    lad_plan_init(&p, dp);
    lad_plan_eval_batch(&p, cs, n, d);
}
