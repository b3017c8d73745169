/*
** The eight-lane code of the prepared plan (plan.c): the unscaled fast path
** again, for what nearly every preset is: passes chained (C first, in the
** window, or at CDNA3's second level), toward-zero alignment, and products
** and window terms below 2^31 (window + 2 <= 31, significands of 29 bits
** or fewer together). Every lane of a case is decoded first, eight at a
** time, into 32-bit integers (the product already shifted up into the
** window, the raw exponent or 0 for a zero product, the sign as 0 or -1);
** then each pass takes its anchor from the largest raw exponent of its
** lanes and sums its lanes eight at a time, a term being m >> min(d, 31)
** with the sign applied: no branch depends on the data. It needs AVX2
** (per-lane variable shifts and a 32-bit multiply on 8 x 32 bits, which
** SSE2 lacks), so it is compiled for AVX2 only and runs where
** lad_plan_init found it. From the pass that meets a NaN or an Inf word, a
** product too large or an Inf addend, the classes decide the case
** (special_rest8, where lad_plan.inf_rest); anything else rare (such a
** case without inf_rest, an accumulator's NaN) goes to fast_body
** (lad_eval_fast_avx2). The block-scaled path runs it too, for a block
** whose scales multiply to a power of two (lad_scaled_lanes8), and its fp4
** groups eight lanes at a time (lad_fixed_groups8).
*/
#include "plan_impl.h"

#include <string.h>

/* Whether the eight-lane code computes dp (opfmts a and b) exactly as
** fast_body does on the path of evaluator ev (LAD_EV_LANES8 or
** LAD_EV_SCALED8): the rows and shape its LAD_IMPL column and declaration
** cover, and 32-bit products and window terms. */
int lad_lanes8_ok(int ev, const lad_datapath *dp, uint64_t off, const lad_opfmt *a,
                  const lad_opfmt *b)
{
    return lad_impl_gap(ev, dp, off) < 0 && dp->window + 2 <= 31 &&
           a->mb + b->mb + 2 <= 31;
}

/* Whether a pass of a dense case (lad_plan.full8), summed lane by lane in
** 32 bits, cannot overflow: each lane gets one term (below 2^(window + 2))
** per chunk of eight the pass touches, pass / 8 of them when passes are
** whole chunks, one more at most when not. */
int lad_lanes8_sum32(const lad_datapath *dp)
{
    int len = dp->pass < dp->k ? dp->pass : dp->k;
    int chunks = (len + 7) / 8 + (len % 8 != 0);
    return dp->window + 2 + ceil_log2(chunks) <= 31;
}

/* Case i of rows r as a lad_case (its metadata zero): for the dispatch
** (plan.c) and for the cases the eight-lane loops leave. */
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

#if LAD_AVX2_CLONE
#include <immintrin.h>

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

/* lad_special_rest in the eight-lane code, decoder A x B: the classes of lanes
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
** of two: lad_scaled_lanes8; else 0), decoder A x B. full: every chunk of
** eight lanes is whole (lad_plan.full8 for a dense case), so decoding needs
** no masks; whole (with full only): every chunk lies in one pass
** (lad_plan.whole8), so the passes need none either. sum32 (with full
** only): lad_lanes8_sum32. Returns 0 in *done for a case left to fast_body. */
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
        return lad_eval_fast_avx2(pl, &in->cases[i]);
    lad_case cs;
    lad_rows_case(pl->dp, in->rows, i, &cs);
    return lad_eval_fast_avx2(pl, &cs);
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
    return done ? w : lad_eval_fast_avx2(pl, cs);
}

/* The block-scaled path's cases that are an unscaled one with every
** product scaled by 2^es (lad_plan.scaled8): n lanes at pa and pb, C's
** word cw. Returns 0 in *done for a case left to the rest of lad_scaled_body. */
AVX2 __attribute__((noinline)) lad_word_t
lad_scaled_lanes8(const lad_plan *pl, const lad_word_t *pa, const lad_word_t *pb, int n,
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
/* lad_fixed_groups8 on bytes, 32 lanes at a time, where n is whole chunks of
** 32 and a group is 4, 8 or 16 lanes: the 32 codes' values and raw
** exponents looked up as bytes (vpshufb); the products summed in pairs as
** 16-bit words (vpmaddubsw: |a| times b with a's sign, at most 2 * 127 *
** 128 in magnitude), then in fours as 32-bit ones (vpmaddwd); the raw
** exponents' sums saturate at -128, which keeps a product with a zero at
** or below FX_ZERO / 2 (a nonzero one's sum is at most 2 * 20 in
** magnitude: lad_fixed_ok), and a group's largest is taken by bytes. */
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

/* lad_fixed_groups8 on words (pa, pb) or on bytes (a8, b8; then pa and pb
** are not read). */
AVX2 void lad_fixed_groups8(const lad_plan *pl, const lad_word_t *pa, const lad_word_t *pb,
                            const uint8_t *a8, const uint8_t *b8, int n, int32_t *p, int32_t *rm)
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
AVX2 void lad_lanes8_rows(const lad_plan *pl, const lanes8_in *pin, size_t n, lad_word_t *d)
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

/* lad_lanes8_rows on an array of cases. */
AVX2 void lad_lanes8_batch(const lad_plan *pl, const lad_case *cs, size_t n, lad_word_t *d)
{
    if (!pl->direct) {
        for (size_t i = 0; i < n; i++)
            d[i] = lanes8_indirect(pl, &cs[i]);
        return;
    }
    const size_t step = sizeof *cs / sizeof(lad_word_t);
    lanes8_in in = {cs->a, cs->b, &cs->c, step, step, cs, NULL};
    lad_lanes8_rows(pl, &in, n, d);
}
#undef LANES8_LOOPS
#undef LANES8_LOOP
#undef LANES8_SHAPE
#endif
