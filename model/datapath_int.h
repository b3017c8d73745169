/*
** The datapath model's internals, shared by its evaluator's files and by nothing
** else (datapath.h is the model's one public header):
**
**   datapath.c  the parameters and their checks, sparsity selection
**   eval.c      the reference evaluator, lad_eval: every datapath, exactly
**   plan.c      the prepared plan: lad_plan_init and the dispatch; its
**               paths in plan_unscaled.c, plan_scaled.c, plan_lanes.c
**               (shared: plan_impl.h)
**   cases_kernel.c  the case kernel: eight dense cases at once
**               (lad_cases_eval), below the plan, which calls it
**   gemm_kernel.c  the GEMM kernel: the fast path's pass for eight output
**               columns of lad_gemm at once (shared with the case
**               kernel: kernel_impl.h); sixteen of either on AVX-512
**   gemm_lanes.h, cases_lanes.h, op_lanes.h  the kernels' lane functions,
**               written once for a width, included at 8 and at 16
**
** The small decoders every evaluation runs lane by lane are static inline
** here, so that the fast paths still inline them; the functions declared
** below are the few each file calls in another.
*/
#ifndef LADDER_MODEL_DATAPATH_INT_H
#define LADDER_MODEL_DATAPATH_INT_H

#include "datapath.h"
#include "format_decode.h"

typedef __int128 i128;

/* An exact pass sum (lad_datapath.exact) is held in this many 32-bit limbs;
** its terms may span LAD_EXACT_BITS (a term's 128 bits above that fit). */
#define LAD_EXACT_LIMBS 40
#define LAD_EXACT_BITS (32 * LAD_EXACT_LIMBS - 128)

/* x * 2^n for a signed x (n >= 0): a left shift of a negative value is
** undefined in C, a multiplication is not. Callers keep the result in range. */
static inline i128 shl(i128 x, int n)
{
    return x * ((i128)1 << n);
}

/* A finite value m * 2^e with sign, or a special. raw: see lad_value. */
typedef struct term {
    int cls;        /* enum lad_class */
    int neg;
    lad_u128 mag;
    int exp;
    int raw;
} term;

static inline term to_term(lad_value v)
{
    term t = {v.cls, v.neg, v.mag, v.exp, v.raw};
    return t;
}

static inline term decode_term(const lad_format *f, lad_word_t w)
{
    return to_term(lad_decode_inline(f, w));
}

/* Cuts a container word to its format with in_round (tf32 from an f32
** word). Rounding acts on the integer word: an increment at the cut, which
** carries into the exponent as IEEE rounding does. NaN and Inf stay. */
static inline lad_word_t cut_word(const lad_format *f, int mode, lad_word_t w)
{
    if (f->pad == 0 || mode == LAD_RZ || f->kind != LAD_FLOAT)
        return w;
    lad_word_t emask = (((lad_word_t)1 << f->ebits) - 1) << (f->mbits + f->pad);
    if ((w & emask) == emask)
        return w;
    lad_word_t half = (lad_word_t)1 << (f->pad - 1), low = w & ((half << 1) - 1);
    lad_word_t up = mode == LAD_RNA ? low >= half
                                  : (low > half || (low == half && ((w >> f->pad) & 1)));
    return up ? w + (half << 1) : w;
}

/* How a format's top exponent decodes, when the fast path can tell. */
enum fspec {
    FS_OTHER = 0,  /* any other mix: every top-exponent code goes general */
    FS_IEEE,       /* zero fraction Inf, any other NaN */
    FS_ONES,       /* NaN only at all-ones fraction, no Inf (e4m3) */
    FS_NONE,       /* every code is a number (e2m1) */
    FS_FNUZ        /* no Inf, and NaN only the word of -0, the sign bit alone
                      (e4m3fnuz): its top exponent holds numbers */
};

/* The class of a word of an IEEE-subnormal format whose specials the fast
** path can tell: LAD_NAN, LAD_INFINITE, LAD_ZERO, or LAD_NORMAL for any
** other number. The format is 32 bits wide or less (lad_opfmt_usable), so
** the low 32 bits of the word hold all of it. */
static inline __attribute__((always_inline)) int opfmt_class(const lad_opfmt *d, lad_word_t w)
{
    uint32_t x = (uint32_t)w >> d->pad;
    uint32_t f = x & d->fmask, e = (x >> d->mb) & d->emax;
    if (e == d->etop && (f & d->need) == d->need)
        return d->spec == FS_IEEE && f == 0 ? LAD_INFINITE : LAD_NAN;
    if (e | f)
        return LAD_NORMAL;
    return d->spec == FS_FNUZ && (x & d->smask) ? LAD_NAN : LAD_ZERO;
}

/* A word of a format opfmt_usable says yes to, as a term: what lad_decode
** gives. */
static inline __attribute__((always_inline)) term opfmt_term(const lad_opfmt *d, lad_word_t w)
{
    uint32_t x = (uint32_t)w >> d->pad;
    uint32_t f = x & d->fmask, e = (x >> d->mb) & d->emax;
    term t;
    t.neg = (x & d->smask) != 0;
    t.raw = (int)e - d->bias + (e == 0);
    t.exp = t.raw - (int)d->mb;
    t.mag = f | ((lad_u128)(e != 0) << d->mb);
    t.cls = opfmt_class(d, w);
    if (t.cls == LAD_NORMAL && e == 0)
        t.cls = LAD_SUBNORMAL;
    return t;
}

/* The least b with 2^b >= n (0 for n <= 1). */
static inline int ceil_log2(int n)
{
    return n <= 1 ? 0 : 32 - __builtin_clz((unsigned)n - 1);
}

/* The common formats, A and B alike (IEEE specials, NaN at all ones, or
** fnuz's NaN at -0): the shapes the lane decoders are built for, their
** fields constants (decode_pass, the eight-lane loops of plan_lanes.c, the case
** kernel of cases_kernel.c). Every field but bias (which the decoders do
** not read) is the format's. */
#define OPFMT(pad, mb, eb, need, spec) \
    {pad, mb, (1u << (mb)) - 1, (1u << (eb)) - 1, 1u << ((mb) + (eb)), (1u << (eb)) - 1, need, \
     0, spec}
static const lad_opfmt SHAPES[] = {
    OPFMT(0, 7, 8, 0, FS_IEEE),     /* 1: bf16 */
    OPFMT(0, 10, 5, 0, FS_IEEE),    /* 2: f16 */
    OPFMT(13, 10, 8, 0, FS_IEEE),   /* 3: tf32 */
    OPFMT(0, 3, 4, 7, FS_ONES),     /* 4: e4m3 */
    OPFMT(0, 2, 5, 0, FS_IEEE),     /* 5: e5m2 */
    /* 6: e4m3fnuz: no top-exponent special (etop never equal) */
    {0, 3, 7, 15, 1u << 7, 0xffffffffu, 0, 0, FS_FNUZ},
};
enum { SHAPE_WIDE = -1, SHAPE_NARROW = 0 };  /* generic decoders */
/* CASE(k); for every common shape k, the cases of a switch on the shape */
#define EACH_SHAPE(CASE) CASE(1); CASE(2); CASE(3); CASE(4); CASE(5); CASE(6)

/* ---- eight lanes at once: plan_lanes.c's eight-lane code (the lanes of
** one case), gemm_kernel.c's (eight columns) and cases_kernel.c's (eight
** cases side by side). GNU C
** vectors of 32-bit lanes, one AVX2 register; passed by pointer, since a
** vector argument's ABI differs between a generic and an AVX2 build. */
typedef uint32_t v8u __attribute__((vector_size(32)));
typedef int32_t v8i __attribute__((vector_size(32)));

/* Lane-wise max and min, of vectors of any width (the block kernel's
** sixteen lanes too). GNU C has no ?: on vectors in C, and its mask
** form, (a & m) | (b & ~m), compiles to a compare and a blend; a loop over
** the lanes is vectorized (-O3) into one vpmaxsd or vpminsd where the
** build has them (AVX2), into compares and masks where it does not. */
#define VMAX(a, b) ({ __typeof__((a) + 0) a_ = (a), b_ = (b), r_; \
                      for (int l_ = 0; l_ < (int)(sizeof a_ / sizeof a_[0]); l_++) \
                          r_[l_] = a_[l_] > b_[l_] ? a_[l_] : b_[l_]; \
                      r_; })
#define VMIN(a, b) ({ __typeof__((a) + 0) p_ = (a), q_ = (b), s_; \
                      for (int m_ = 0; m_ < (int)(sizeof p_ / sizeof p_[0]); m_++) \
                          s_[m_] = p_[m_] < q_[m_] ? p_[m_] : q_[m_]; \
                      s_; })

/* the operand decoders at eight lanes: op8, decode8, raw8, big8, class8 */
#define VW 8
#define vi v8i
#define vu v8u
#include "op_lanes.h"
#undef VW
#undef vi
#undef vu

/* ---- datapath.c */

/* Fills lanes[] with the logical lanes that take part, ascending; returns
** how many (kphys, fewer when a selector is illegal: its chunk adds none). */
int lad_select_lanes(const lad_datapath *dp, const lad_case *cs, int *lanes);

/* ---- eval.c: the reference's exact arithmetic, and the reference itself */

/* x * 2^(e - q) as a signed integer, rounded with align_round when e < q.
** Caller guarantees e - q < 100 (the value fits). */
i128 lad_align(lad_u128 mag, int neg, int e, int q, int mode);

/* Rounds the signed integer u * 2^q into format f; an exact zero is +0 and
** so is anything that rounds to zero (the tensor cores drop the sign). */
lad_word_t lad_round_units(const lad_format *f, i128 u, int q, int sticky, int mode, int ovf);

/* xu * 2^xq + y, exactly, rounded into f (y finite). */
lad_word_t lad_add_round(const lad_format *f, i128 xu, int xq, const term *y, int mode, int ovf);

/* x + y rounded into f, specials included (one IEEE addition). */
lad_word_t lad_add_terms(const lad_datapath *dp, const lad_format *f, const term *x,
                         const term *y, int mode, lad_word_t nan);

/* Every datapath, every case: lad_eval's reference implementation. */
lad_word_t lad_eval_general(const lad_datapath *dp, const lad_case *cs);

/* An integer datapath's exact sum, wrapped or saturated into d. */
lad_word_t lad_eval_integer(const lad_datapath *dp, const lad_case *cs);

/* s * 2^q rounded into f, as lad_round_units does (the fast paths of the
** plan and the lane kernels): toward zero or to nearest even
** inline for formats with IEEE subnormals, infinities and NaNs (f32, f16,
** e8m13: the top exponent field all special) under overflow to Inf,
** anything else by lad_round_units itself. A result of zero is +0. f is 32
** bits wide or less (plan_impl.h, narrow_words). */
static inline lad_word_t round64(const lad_format *f, int64_t s, int q, int mode, int ovf)
{
    if (s == 0)
        return 0;
    if ((mode != LAD_RZ && mode != LAD_RNE) || f->sub != LAD_SUB_IEEE ||
        f->inf != LAD_INF_IEEE || f->nan != LAD_NAN_IEEE || ovf != LAD_OVF_INF)
        return lad_round_units(f, s, q, 0, mode, ovf);
    uint32_t sign = s < 0 ? 1u << (f->ebits + f->mbits) : 0;
    uint64_t m = s < 0 ? 0 - (uint64_t)s : (uint64_t)s;
    int bl = 64 - __builtin_clzll(m);
    int e = bl - 1 + q, emin = 1 - f->bias;
    int emax = (int)((1u << f->ebits) - 2) - f->bias;
    /* the units kept: the significand, or the subnormal grid below emin */
    int sh = e >= emin ? bl - 1 - f->mbits : emin - f->mbits - q;
    uint64_t u;
    if (sh <= 0) {
        u = m << -sh;  /* exact: m has at most mbits + 1 bits here */
    } else {
        u = sh >= 64 ? 0 : m >> sh;
        if (mode == LAD_RNE) {
            uint64_t rem = sh >= 64 ? m : m & (((uint64_t)1 << sh) - 1);
            uint64_t half = sh > 64 ? 0 : (uint64_t)1 << (sh - 1);
            if (sh <= 64 && (rem > half || (rem == half && (u & 1))))
                u++;
        }
    }
    /* u is the significand with its hidden bit, or a subnormal count; a
    ** carry out of either moves the value one binade up, which the field
    ** arithmetic below does by itself */
    uint32_t w;
    if (e >= emin) {
        if (u >> (f->mbits + 1)) {
            u >>= 1;
            e++;
        }
        if (e > emax)
            return (sign | (((1u << f->ebits) - 1) << f->mbits)) << f->pad;
        w = ((uint32_t)(e + f->bias) << f->mbits) | ((uint32_t)u & ((1u << f->mbits) - 1));
    } else {
        w = (uint32_t)u;  /* 1 << mbits: the smallest normal, exactly */
    }
    return w ? (sign | w) << f->pad : 0;
}

/* v * 2^e (|v| < 2^62) in units of 2^q, rounded with mode when e < q: lad_align()
** in 64 bits. */
static inline int64_t align64(int64_t v, int e, int q, int mode)
{
    if (v == 0)
        return 0;
    if (e >= q)
        return v * ((int64_t)1 << (e - q));  /* in range: the callers' bounds */
    int neg = v < 0, sh = q - e;
    uint64_t m = neg ? 0 - (uint64_t)v : (uint64_t)v, r;
    if (sh >= 64) {
        r = mode == LAD_RD && neg;  /* m < 2^62: below half of one unit */
    } else {
        r = m >> sh;
        uint64_t rem = m & (((uint64_t)1 << sh) - 1), half = (uint64_t)1 << (sh - 1);
        if (mode == LAD_RD && neg && rem)
            r++;
        else if (mode == LAD_RNE && (rem > half || (rem == half && (r & 1))))
            r++;
    }
    return neg ? -(int64_t)r : (int64_t)r;
}

/*
** The two-level window of a pass (eval.c's two_level, in 64 bits: its
** bounds are fast_fits's): sum, the lanes' sum in units of 2^q1 (q1 = r -
** window, r the products' anchor), and the addend c move to the second
** window, below E = the larger of r and C's raw exponent, each by
** align2_round; the total is cut below its leading bit (norm2), then
** rounded into out.
*/
static inline lad_word_t two_level64(const lad_datapath *dp, int64_t sum, int r,
                                     const term *c, const lad_format *out, int mode)
{
    int q1 = r - dp->window, cnz = c->cls != LAD_ZERO;
    int E = cnz && c->raw > r ? c->raw : r;
    int q2 = E - dp->window2, qc = E - dp->window;
    if (dp->c2_drop && c->raw < E - dp->window - 1)
        cnz = 0;
    int64_t s2 = align64(sum, q1, q2, dp->align2_round);
    int64_t cv = c->neg ? -(int64_t)c->mag : (int64_t)c->mag;
    int64_t cu = cnz ? align64(cv, c->exp, qc, dp->align2_round) : 0;
    int lo = q2 < qc ? q2 : qc;
    int64_t total = s2 * ((int64_t)1 << (q2 - lo)) + cu * ((int64_t)1 << (qc - lo));
    if (dp->norm2 > 0 && total != 0) {
        uint64_t m = total < 0 ? 0 - (uint64_t)total : (uint64_t)total;
        int lead = 63 - __builtin_clzll(m) + lo, emin = 1 - out->bias;
        int qn = (lead > emin ? lead : emin) - dp->norm2;
        if (qn > lo) {
            total = align64(total, lo, qn, dp->align2_round);
            lo = qn;
        }
    }
    return round64(out, total, lo, mode, dp->overflow);
}

/* ---- plan.c, and the kernels (lad_opfmt_usable) */

/* The fast decoder's constants of float format f. */
lad_opfmt lad_opfmt_of(const lad_format *f);

/* Whether opfmt_term decodes words of f (f's opfmt d) as lad_decode does:
** floats of 32 bits or fewer (the decoders work in 32-bit lanes) with IEEE
** subnormals whose specials the fast path can tell. */
static inline int lad_opfmt_usable(const lad_format *f, const lad_opfmt *d)
{
    return f->kind == LAD_FLOAT && f->width <= 32 && f->sub == LAD_SUB_IEEE &&
           d->spec != FS_OTHER;
}

#endif
