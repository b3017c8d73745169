/*
** The case kernel (cases_kernel.h): dense cases of an evaluation (rows of
** arrays, or lad_case arrays), W at a time (2 * W on AVX-512), one case a
** lane.
**
** The lane-state pass of the GEMM kernel (gemm_kernel.c, chain_pass), with
** each lane's products its own case's: a chunk of eight lanes of the W
** cases' A (and B) words is loaded as W vectors, one a case, and
** transposed, so that vector t holds lane t of every case; decoded and
** multiplied lane-wise (the words as the eight-lane code of plan_lanes.c
** decodes them), the products' raw exponents, magnitudes and signs are then
** what raw_products and aligned_sum read, and the passes run as chain_pass
** runs them, C being each case's running value from the start.
**
** The plan (plan.c) calls it; it calls nothing of the plan's, nor of the
** GEMM kernel's: the lane functions it shares with the latter are static
** inline (gemm_lanes.h, kernel_impl.h).
*/
#include "kernel_impl.h"

#include <string.h>

/* the lanes at eight cases: the names as they are */
#define VW 8
#define vi v8i
#define vu v8u
#define L(name) name
#include "gemm_lanes.h"
#undef VW
#undef vi
#undef vu
#undef L

int lad_cases_ok(const lad_plan *pl)
{
    const lad_datapath *dp = pl->dp;
    /* pl->bias >= 0: a biased exponent is not negative (cases_body) */
    return BLOCK_AVX2_CLONE && pl->avx2 && pl->bias >= 0 &&
           lad_impl_gap(LAD_EV_CASES, dp, pl->off) < 0 && plan_ok(dp, pl, 1) &&
           lanes_fit(dp, pl, &pl->d);
}

#if BLOCK_AVX2_CLONE

/* W words at p as 32-bit lanes: the low half of each (a narrow format's
** word is all in it). */
static inline __attribute__((always_inline)) void words_of(v8u *out, const lad_word_t *p)
{
    typedef uint64_t v4w __attribute__((vector_size(32)));
    v4w lo, hi;
    memcpy(&lo, p, sizeof lo);
    memcpy(&hi, p + 4, sizeof hi);
    *out = __builtin_shufflevector((v8u)lo, (v8u)hi, 0, 2, 4, 6, 8, 10, 12, 14);
}

/* r[i][j] <-> r[j][i]: pairs of lanes, then of pairs, then the halves. */
static inline __attribute__((always_inline)) void transpose(v8u *r)
{
    v8u a[W], b[W];
    for (int i = 0; i < W; i += 2) {
        a[i] = __builtin_shufflevector(r[i], r[i + 1], 0, 8, 1, 9, 4, 12, 5, 13);
        a[i + 1] = __builtin_shufflevector(r[i], r[i + 1], 2, 10, 3, 11, 6, 14, 7, 15);
    }
    for (int i = 0; i < W; i += 4)
        for (int h = 0; h < 2; h++) {
            b[i + 2 * h] = __builtin_shufflevector(a[i + h], a[i + h + 2], 0, 1, 8, 9, 4, 5, 12, 13);
            b[i + 2 * h + 1] =
                __builtin_shufflevector(a[i + h], a[i + h + 2], 2, 3, 10, 11, 6, 7, 14, 15);
        }
    for (int i = 0; i < 4; i++) {
        r[i] = __builtin_shufflevector(b[i], b[i + 4], 0, 1, 2, 3, 8, 9, 10, 11);
        r[i + 4] = __builtin_shufflevector(b[i], b[i + 4], 4, 5, 6, 7, 12, 13, 14, 15);
    }
}

/* The two-level window's pass (plan_lanes.c's lanes8_body) one lane at a time,
** for the lanes of fix: anchors x, the products' sums (sum, or with
** even_odd the even lanes' and the odd ones' at their own anchors xe and
** xo, each cut to units of 2^(x - window) first), the running value *v
** (in acc's terms) in; the value of out's word (decoded by od, mode) into
** *nv. A lane whose word is an Inf joins *inf (its sign *ineg) instead. */
static void
two_level_lanes(const lad_datapath *dp, const lad_format *out, const lad_opfmt *od, int mode,
                unsigned fix, const v8i *nothing, const v8i *x, const v8i *sum,
                const v8i *sum2, const v8i *xe, const v8i *xo, const vterm *v, vterm *nv,
                v8i *inf, v8i *ineg)
{
    for (int col = 0; fix >> col; col++) {
        if (!(fix >> col & 1))
            continue;
        term t = vterm_get(v, col);
        lad_word_t w;
        if ((*nothing)[col]) {
            w = lad_add_round(out, 0, 0, &t, mode, dp->overflow);
        } else {
            int q = (*x)[col] - dp->window;
            int64_t s = (int64_t)(*sum)[col] + (*sum2)[col];
            if (dp->even_odd)
                s = align64((*sum)[col], (*xe)[col] - dp->window, q, dp->align2_round) +
                    align64((*sum2)[col], (*xo)[col] - dp->window, q, dp->align2_round);
            w = two_level64(dp, s, (*x)[col], &t, out, mode);
        }
        t = opfmt_term(od, w);
        if (t.cls == LAD_INFINITE) {
            (*inf)[col] = -1;
            (*ineg)[col] = -t.neg;
        } else {
            vterm_set(nv, col, &t);
        }
    }
}

/* ---- the two-level window's second level in the lanes: 64-bit values in
** two halves of four lanes (v4q), for align2_round rd, where every cut is
** a floor */
typedef int64_t v4q __attribute__((vector_size(32)));
typedef uint64_t v4p __attribute__((vector_size(32)));

/* Half h of the eight lanes of *a, as 64-bit lanes (sign-extended). */
static inline __attribute__((always_inline)) void half64(v4q *out, const v8i *a, int h)
{
    *out = h ? __builtin_convertvector(__builtin_shufflevector(*a, *a, 4, 5, 6, 7), v4q)
             : __builtin_convertvector(__builtin_shufflevector(*a, *a, 0, 1, 2, 3), v4q);
}

/* The low 32 bits of the lanes of two halves, as eight lanes. */
static inline __attribute__((always_inline)) void low32(v8i *out, const v4q *h0,
                                                        const v4q *h1)
{
    *out = __builtin_shufflevector((v8i)*h0, (v8i)*h1, 0, 2, 4, 6, 8, 10, 12, 14);
}

/* floor(v * 2^-d) lane by lane: an arithmetic shift right by d (at most
** 63: the sign's fill) where d > 0, else v * 2^-d (-d at most 8 here: the
** callers' bounds). */
static inline __attribute__((always_inline)) void qfloor(v4q *out, const v4q *v, const v4q *d)
{
    const v4q zero = {0};
    v4q sg = (v4q)(*v < zero), pos = (v4q)(*d > zero), big = (v4q)(*d > 63);
    v4p r = (v4p)(((*d & ~big) | (63 & big)) & pos), l = (v4p)(-*d & ~pos);
    v4q right = (v4q)((v4p)(*v ^ sg) >> r) ^ sg;
    v4q left = (v4q)((v4p)*v << l);
    *out = (right & pos) | (left & ~pos);
}

/* The bit lengths of the magnitudes of two halves' lanes, as eight lanes:
** from their 32-bit halves, by vbitlen (of 31 bits: a top bit set is 32). */
static inline __attribute__((always_inline)) void vbitlen64(v8i *bl, const v4p *m0,
                                                            const v4p *m1)
{
    const v8i zero = {0};
    v8u hi = __builtin_shufflevector((v8u)*m0, (v8u)*m1, 1, 3, 5, 7, 9, 11, 13, 15);
    v8u lo = __builtin_shufflevector((v8u)*m0, (v8u)*m1, 0, 2, 4, 6, 8, 10, 12, 14);
    v8u h7 = hi & 0x7fffffff, l7 = lo & 0x7fffffff;
    v8i bh, bo;
    vbitlen(&bh, &h7);
    vbitlen(&bo, &l7);
    v8i th = (v8i)hi < zero, tl = (v8i)lo < zero, hz = (v8i)(hi == 0);
    bh = (th & 32) | (~th & bh);
    bo = (tl & 32) | (~tl & bo);
    *bl = (hz & bo) | (~hz & (bh + 32));
}

/* two_level64 in the lanes, for align2_round rd and window2 >= window:
** the products' sum s (units of 2^(x - window), below 2^30) and the
** running value *v move to the second window, below E = the larger of x
** and C's raw exponent, each by a floor; the total is cut below its
** leading bit (norm2) and then to 31 bits, the rest a sticky bit (the
** rounding at mb + 1 < 30 bits, or on the subnormal grid below, is the
** same), and rounded as vround into *nv, the lanes that overflow in
** *over. */
static inline __attribute__((always_inline)) void
vtwo_level(const lad_datapath *dp, const lad_format *out, int mode, const v8i *s,
           const v8i *x, const vterm *v, vterm *nv, v8i *over)
{
    const v8i zero = {0};
    const int w1 = dp->window, w2 = dp->window2;
    v8i E = VMAX(*x, (v->raw & v->nz) | ((zero - (1 << 30)) & ~v->nz)), cnz = v->nz;
    if (dp->c2_drop)
        cnz &= ~(v->raw < E - w1 - 1);
    v8i ds = (E - w2) - (*x - w1);   /* s: from units of 2^(x - w1) to 2^(E - w2) */
    v8i dc = (E - w1) - v->exp;      /* C: from 2^exp to 2^(E - w1) */
    v8i cv = ((v->mag ^ v->neg) - v->neg) & cnz;
    v8i q = E - w2;
    v4q t[2];
    v4p m[2];
    for (int h = 0; h < 2; h++) {
        v4q sh, dsh, ch, dch, a, b;
        half64(&sh, s, h);
        half64(&dsh, &ds, h);
        half64(&ch, &cv, h);
        half64(&dch, &dc, h);
        qfloor(&a, &sh, &dsh);
        qfloor(&b, &ch, &dch);
        t[h] = a + b * ((int64_t)1 << (w2 - w1));
        m[h] = (v4p)((t[h] ^ (t[h] >> 63)) - (t[h] >> 63));
    }
    v8i bl;
    vbitlen64(&bl, &m[0], &m[1]);
    if (dp->norm2 > 0) {
        v8i qn = VMAX(bl - 1 + q, zero + (1 - out->bias)) - dp->norm2;
        v8i cut = (qn > q) & (bl != zero), d = (qn - q) & cut;
        for (int h = 0; h < 2; h++) {
            v4q dh;
            half64(&dh, &d, h);
            qfloor(&t[h], &t[h], &dh);
            m[h] = (v4p)((t[h] ^ (t[h] >> 63)) - (t[h] >> 63));
        }
        q = (qn & cut) | (q & ~cut);
        vbitlen64(&bl, &m[0], &m[1]);
    }
    v8i sh = VMAX(bl - 31, zero), neg[2];
    for (int h = 0; h < 2; h++) {
        v4q dq;
        half64(&dq, &sh, h);
        v4p d = (v4p)dq, one = {1, 1, 1, 1};
        v4p sticky = (v4p)((m[h] & ((one << d) - 1)) != 0) & one;
        m[h] = (m[h] >> d) | sticky;
        neg[h] = (v8i)(t[h] >> 63);
    }
    v8i mm, sg, sum;
    low32(&mm, (const v4q *)&m[0], (const v4q *)&m[1]);
    low32(&sg, (const v4q *)&neg[0], (const v4q *)&neg[1]);
    sum = (mm ^ sg) - sg;
    q += sh;
    vround(nv, over, &sum, &q, out->mbits, 1 - out->bias,
           (int)((1u << out->ebits) - 2) - out->bias, mode == LAD_RNE);
}

/* the case kernel at eight cases, CH lanes of the MMA at a time */
#define CH W
#define VW 8
#define vi v8i
#define vu v8u
#define L(name) name
#include "cases_lanes.h"
#undef VW
#undef vi
#undef vu
#undef L

/* cases_avx2's and cases_avx512's body: the case kernel (CASES_BODY) built
** once per common decoder shape (datapath_int.h, SHAPES), whose constants
** are then the instructions' own. */
#define SHAPE_CASE(k) \
    case k: \
        return CASES_BODY(pl, a, b, step, c, cstep, d, SHAPES[k - 1], SHAPES[k - 1])
#define CASES_BY_SHAPE \
    switch (pl->shape) { \
        EACH_SHAPE(SHAPE_CASE); \
    default: \
        return CASES_BODY(pl, a, b, step, c, cstep, d, pl->a, pl->b); \
    }

/* The AVX2 build only: the generic one, without per-lane shifts and
** maxima, ran the kernel at a third of the one-case code's rate. */
__attribute__((target("avx2"))) static unsigned cases_avx2(const lad_plan *pl,
                                                           const lad_word_t *a,
                                                           const lad_word_t *b, size_t step,
                                                           const lad_word_t *c, size_t cstep,
                                                           lad_word_t *d)
{
#define CASES_BODY cases_body
    CASES_BY_SHAPE
#undef CASES_BODY
}

/* ---- the AVX-512 build: the lanes at sixteen cases, the names with
** 16, every function built for AVX512 (why: gemm_kernel.c's chain) */
AVX512_BEGIN
#define VW 16
#define vi v16i
#define vu v16u
#define L(name) name##16
#include "gemm_lanes.h"
#include "op_lanes.h"
#include "cases_lanes.h"
AVX512_END
#undef VW
#undef vi
#undef vu
#undef L

__attribute__((target(AVX512))) static unsigned cases_avx512(const lad_plan *pl,
                                                             const lad_word_t *a,
                                                             const lad_word_t *b, size_t step,
                                                             const lad_word_t *c, size_t cstep,
                                                             lad_word_t *d)
{
#define CASES_BODY cases_body16
    CASES_BY_SHAPE
#undef CASES_BODY
}
#endif

int lad_cases_width(const lad_plan *pl)
{
    return pl->dp->window2 == 0 && avx512() ? 2 * W : W;
}

unsigned lad_cases_eval(const lad_plan *pl, const lad_word_t *a, const lad_word_t *b,
                        size_t step, const lad_word_t *c, size_t cstep, lad_word_t *d)
{
#if BLOCK_AVX2_CLONE
    if (pl->cases_w == 2 * W)
        return cases_avx512(pl, a, b, step, c, cstep, d);
    return cases_avx2(pl, a, b, step, c, cstep, d);
#else
    (void)pl, (void)a, (void)b, (void)step, (void)c, (void)cstep, (void)d;
    return (1u << W) - 1;  /* not reached: lad_cases_ok says no */
#endif
}

