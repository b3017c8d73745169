/*
** The prepared plan's internals, shared by its files and by nothing else:
** plan.c (lad_plan_init and the dispatch), plan_unscaled.c,
** plan_scaled.c and plan_lanes.c (the paths). The lane decoders every
** path runs are static inline here, so that each path still inlines them;
** the functions declared at the end are the ones a file calls in another.
*/
#ifndef LADDER_MODEL_PLAN_IMPL_H
#define LADDER_MODEL_PLAN_IMPL_H

#include "datapath_int.h"
#include "params.h"

#include <stddef.h>
#include <string.h>

/* The fast path has an AVX2 build beside the generic one on x86-64 (GCC
** and clang: the target attribute and __builtin_cpu_supports). */
#if defined(__x86_64__) && defined(__GNUC__)
#define LAD_AVX2_CLONE 1
#define AVX2 __attribute__((target("avx2")))
#else
#define LAD_AVX2_CLONE 0
#endif

/* Whether dp's sums land in signed formats. The fast paths round a
** negative sum as its magnitude with the sign bit set; an unsigned acc or d
** has no sign bit (the reference gives NaN there), so such a datapath takes
** the general path. */
static inline int signed_results(const lad_datapath *dp)
{
    return dp->acc.sign && dp->d.sign;
}

/* Whether every word of dp fits the 32-bit lanes and results the fast
** paths work in (round64 builds 32-bit words): a wider format (f64) takes
** the general path rather than being cut. */
static inline int narrow_words(const lad_datapath *dp)
{
    return dp->a.width <= 32 && dp->b.width <= 32 && dp->c.width <= 32 &&
           dp->acc.width <= 32 && dp->d.width <= 32;
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
/* The A and B words that take part, in the order they fill the passes
** (physical lanes, or the datapath's order when every lane takes part),
** cut to their formats: the case's own arrays when every lane takes part
** uncut in order, else copies in wa and wb. Returns how many lanes. */
static inline int lane_words(const lad_datapath *dp, const lad_case *cs, lad_word_t *wa,
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
/* Words of formats whose every field lies in their low 4 bits (above the
** padding) index tables of 16 (lad_plan's fxa, rxa); a zero's raw
** exponent there is FX_ZERO, so that a product's raw exponent, the sum of
** two, is above FX_ZERO / 2 exactly when neither is zero (|bias| <= 20:
** lad_fixed_ok). */
#define FX_MASK 15u
#define FX_ZERO (-100)
/* n bytes as words. */
static inline void widen_bytes(lad_word_t *w, const uint8_t *b, int n)
{
    for (int j = 0; j < n; j++)
        w[j] = b[j];
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

#if LAD_AVX2_CLONE
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

#endif

/* ---- plan_unscaled.c */

/* Whether the unscaled path's sums fit 64 bits and its decoders read dp's
** words (opfmts a and b). */
int lad_fast_fits(const lad_datapath *dp, const lad_opfmt *a, const lad_opfmt *b);

/* The case from the pass at lane `from` on, when that pass meets a NaN or
** an Inf among its words or in its addend add: NaN or an Inf of d. */
lad_word_t lad_special_rest(const lad_plan *p, const lad_word_t *pa, const lad_word_t *pb,
                            int from, int n, const term *add);

/* One case by the unscaled path: the generic build, and the AVX2 one. */
lad_word_t lad_eval_fast(const lad_plan *pl, const lad_case *cs);
#if LAD_AVX2_CLONE
AVX2 lad_word_t lad_eval_fast_avx2(const lad_plan *pl, const lad_case *cs);
#endif

/* ---- plan_scaled.c */

/* Whether the block-scaled path's sums fit 64 bits over dp's words. */
int lad_scaled_fits(const lad_datapath *dp, const lad_opfmt *a, const lad_opfmt *b);

/* Whether the block-scaled path sums dp's groups as integers (lad_plan's
** fixed); off: lad_rows_off(dp). */
int lad_fixed_ok(const lad_datapath *dp, uint64_t off, const lad_opfmt *a, const lad_opfmt *b);

/* Fills the scaled path's tables of plan p (its scales', and with p->fixed
** the fp4 words'). */
void lad_scaled_tables(lad_plan *p);

/* The block-scaled path on n lanes at pa and pb, or as bytes at a8 and b8;
** *general = 1 for a case it leaves to the general code. */
lad_word_t lad_scaled_body(const lad_plan *pl, const lad_word_t *pa, const lad_word_t *pb,
                           const uint8_t *a8, const uint8_t *b8, int n, lad_word_t cw,
                           const uint8_t *csa, const uint8_t *csb, int *general);

/* One case by the block-scaled path, the general code for what it leaves. */
lad_word_t lad_eval_scaled(const lad_plan *pl, const lad_case *cs);

/* ---- plan_lanes.c */

/* Whether the eight-lane code computes dp (opfmts a and b) exactly as
** fast_body does, as evaluator ev (LAD_EV_LANES8 or LAD_EV_SCALED8); off:
** lad_rows_off(dp). */
int lad_lanes8_ok(int ev, const lad_datapath *dp, uint64_t off, const lad_opfmt *a,
                  const lad_opfmt *b);

/* Whether a pass of a dense case sums in 32-bit lanes (lad_plan.sum32). */
int lad_lanes8_sum32(const lad_datapath *dp);

#if LAD_AVX2_CLONE
/* The fixed path's group sums and largest raw exponents, eight lanes at a
** time, on words (pa, pb) or on bytes (a8, b8). */
AVX2 void lad_fixed_groups8(const lad_plan *pl, const lad_word_t *pa, const lad_word_t *pb,
                            const uint8_t *a8, const uint8_t *b8, int n, int32_t *p,
                            int32_t *rm);

/* A block-scaled case that is an unscaled one with every product scaled by
** 2^es; 0 in *done for a case left to the rest of lad_scaled_body. */
AVX2 lad_word_t lad_scaled_lanes8(const lad_plan *pl, const lad_word_t *pa,
                                  const lad_word_t *pb, int n, lad_word_t cw, int es,
                                  int *done);

/* n dense cases of `in` (rows or an array of cases) by the eight-lane code. */
AVX2 void lad_lanes8_rows(const lad_plan *pl, const lanes8_in *pin, size_t n, lad_word_t *d);

/* n cases of an array by the eight-lane code. */
AVX2 void lad_lanes8_batch(const lad_plan *pl, const lad_case *cs, size_t n, lad_word_t *d);
#endif

#endif
