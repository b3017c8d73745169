/*
** The block kernel of lad_gemm (gemm_kernel.h): the fast path's pass
** (plan.c, fast_body) for LAD_BLOCK_W columns side by side; and at the
** end, the same pass for LAD_BLOCK_W dense cases side by side.
**
** Why it is fast: the per-element plan spends most of a K=16 MMA decoding
** 32 words and copying them into a case; here every word is decoded once
** per GEMM (B) or once per row and thread (A), and what is left per
** multiply-add is integer work in 32-bit vector lanes, one lane a column:
**
**   anchor pass:  rp = rawA + rawB; rmax = max(rmax, rp)          2 ops
**   sum pass:     d = base - rawA - rawB (clamped at 31);
**                 m = magA * magB; a = m >> d; s = signA ^ signB;
**                 sum += (a ^ s) - s                               ~10 ops
**
** for eight columns at once (one AVX2 register), plus per pass the
** anchor's rules and one rounding into acc or d: in the lanes too along a
** chain whose running value stays decoded (chain_body, some 60 vector
** operations per pass for all eight columns, and about 80 more per MMA
** where C is added last: vadd), else round64 per column (a few dozen
** scalar operations per column and pass: lad_block_mma). On a CPU with
** AVX-512 the chain runs sixteen columns at once (one AVX-512 register,
** chain_avx512; B's blocks are then sixteen columns wide): the same
** operations, each on twice the lanes. The lanes' functions are written
** once for either width (gemm_lanes.h, included twice below).
**
** Why it is exact: it is fast_body's arithmetic with the datapath's rules
** restricted to those below (lad_block_ok), in 32-bit lanes only where the
** bounds say it fits. A product of magnitudes below 2^(mbA + 1) and
** 2^(mbB + 1), shifted up by up, is below 2^(max(window, off) + 2) (off =
** mbA + mbB): it fits uint32 when that is at most 32. Aligned to the
** anchor's quantum it is below 2^(window + 2); pass of them sum below
** 2^(window + 2 + log2 pass), which fits int32 when that is at most 31;
** where it is 32 (tcgen05's e4m3: window 25, passes of 32) each half of
** the pass is summed apart and the halves added where they are below 2^29.
** The addend joins in 64 bits, where fast_body adds it. Rounding toward
** zero of a term is the shift of its magnitude, as in sum_lanes.
**
** Block scales (lad_block_ok): with groups of one lane, the scaled pass
** (plan.c, scaled_sum) is the unscaled one on products m * 2^(e + s), s
** the exponent of the lane's scale pair; a pair of powers of two is added
** to the raw exponents of A and B as they are decoded, and the kernel runs
** the datapath without its scales (lad_block's udp).
*/
#include "gemm_kernel.h"
#include "datapath_int.h"
#include "params.h"

#include <stdlib.h>
#include <string.h>

#define W LAD_BLOCK_W

#if defined(__x86_64__) && defined(__GNUC__)
#define BLOCK_AVX2_CLONE 1
#include <immintrin.h>
#else
#define BLOCK_AVX2_CLONE 0
#endif

/* one block is one v8i of columns (datapath_int.h) */
_Static_assert(W == 8, "LAD_BLOCK_W is the eight lanes of v8i");

/* Whether every number of scale format f is a power of two (mag 1). */
static int pow2_format(const lad_format *f)
{
    return f->kind == LAD_FLOAT && f->mbits == 0 && !f->sign;
}

/* Whether the pass sums of dp need the two halves (lad_block's halves). */
static int halves_of(const lad_datapath *dp)
{
    int lanes = dp->pass < dp->k ? dp->pass : dp->k;
    return dp->window + 2 + ceil_log2(lanes) > 31;
}

/* dp without its scales, in *u, for the datapaths lad_block_ok takes. */
static const lad_datapath *unscaled(const lad_datapath *dp, lad_datapath *u)
{
    if (dp->scale_block == 0)
        return dp;
    *u = *dp;
    u->scale_block = 0;
    return u;
}

/* lad_block_ok's conditions on an unscaled datapath dp whose plan is pl:
** the plan's fast path does the rest of the datapath (IEEE-subnormal
** operands of 32 bits or fewer); the rows params.def's LAD_IMPL gives to
** this kernel (its gemm column, or with cases the cases column) are the
** kernel's, the others left to the plan. Its products and window terms
** stay below 2^31 (with cases, big8), and a pass of even and odd lanes
** starts at an even one. */
static int plan_ok(const lad_datapath *dp, const lad_plan *pl, int cases)
{
    int off = (int)(pl->a.mb + pl->b.mb);
    int lanes = dp->pass < dp->k ? dp->pass : dp->k;
    int top = dp->window > off ? dp->window : off;
    int extra = cases ? top + 2 <= 31 && (!dp->even_odd || lanes % 2 == 0)
                      : lad_impl_gap(LAD_EV_GEMM, dp, pl->off) < 0;
    return pl->path == LAD_PATH_FAST && extra && top + 2 <= 31 &&
           dp->window + 2 + ceil_log2((lanes + 1) / 2) <= 31;
}

int lad_block_ok(const lad_datapath *dp)
{
    lad_plan pl;
    lad_datapath u;
    /* the scaled rows are the kernel's before they are stripped */
    if (!lad_impl_covers(LAD_EV_GEMM, dp) ||
        (dp->scale_block > 0 && (!pow2_format(&dp->sa) || !pow2_format(&dp->sb) ||
                                 lad_datapath_kphys(dp) % dp->scale_block != 0)))
        return 0;
    dp = unscaled(dp, &u);  /* the plan's fast path then asks for groups of one */
    lad_plan_init(&pl, dp);
    return plan_ok(dp, &pl, 0);
}

/* The exponent by which each code of scale format f moves its lanes, or
** LAD_BLOCK_ZERO for a code that is no power of two (a NaN), which the
** kernel leaves. */
static void scale_table(const lad_format *f, int32_t *tab)
{
    for (int w = 0; w < 256; w++) {
        lad_value v = lad_decode(f, (lad_word_t)w);
        int pow2 = v.cls == LAD_NORMAL && !v.neg && v.mag == 1 && v.raw == v.exp;
        tab[w] = pow2 ? v.exp : LAD_BLOCK_ZERO;
    }
}

/* Word w of format f (opfmt d) as the kernel stores it; returns 1 for a
** NaN or Inf (stored as a zero). */
static int decode_word(const lad_datapath *dp, const lad_format *f, const lad_opfmt *d,
                       lad_word_t w, int32_t *raw, uint32_t *mag, int32_t *neg)
{
    term t = opfmt_term(d, cut_word(f, dp->in_round, w));
    int bad = t.cls >= LAD_INFINITE;
    int zero = bad || t.cls == LAD_ZERO;
    *raw = zero ? LAD_BLOCK_ZERO : t.raw;
    *mag = zero ? 0 : (uint32_t)t.mag;
    *neg = t.neg && !zero;
    return bad;
}

/* Tables of decoded words: a word of a format of up to 8 bits always, of
** up to 16 bits where B alone has 4 times the table's words (a GEMM that
** decodes fewer words than that decodes them faster one by one). An entry
** is what decode_word gives: the raw exponent in the low 32 bits, above it
** the magnitude (below 2^17 at these widths) with the sign in bit 63 and
** the NaN or Inf in bit 62. */
#define CODE_BAD ((uint64_t)1 << 62)
#define CODE_NEG ((uint64_t)1 << 63)

static uint64_t code_word(const lad_datapath *dp, const lad_format *f, const lad_opfmt *d,
                          lad_word_t w)
{
    int32_t raw, neg;
    uint32_t mag;
    int bad = decode_word(dp, f, d, w, &raw, &mag, &neg);
    return (uint32_t)raw | (uint64_t)mag << 32 | (neg ? CODE_NEG : 0) | (bad ? CODE_BAD : 0);
}

/* code_word for operand x (0: A, 1: B), from its table where there is
** one and the word is in it. */
static inline uint64_t code_of(const lad_block *bk, int x, lad_word_t w)
{
    const lad_datapath *dp = bk->pl.dp;
    return w < bk->ncode[x] ? bk->code[x][w]
                            : code_word(dp, x ? &dp->b : &dp->a, x ? &bk->pl.b : &bk->pl.a, w);
}

/* An entry's raw exponent, magnitude. */
static inline int32_t code_raw(uint64_t c)
{
    return (int32_t)(uint32_t)c;
}

static inline uint32_t code_mag(uint64_t c)
{
    return (uint32_t)(c >> 32) & 0x3fffffffu;
}

static size_t code_size(const lad_format *f, int K, int N)
{
    size_t n = (size_t)1 << (f->width <= 16 ? f->width : 0);
    return f->width <= 8 || (f->width <= 16 && (size_t)K * (size_t)N >= 4 * n) ? n : 0;
}

void lad_block_fill(lad_block *bk, int t, int n)
{
    const lad_datapath *dp = bk->pl.dp;
    for (int x = 0; x < 2; x++) {
        if (x == 1 && bk->code[1] == bk->code[0])
            break;
        size_t w0 = bk->ncode[x] * (size_t)t / (size_t)n;
        size_t w1 = bk->ncode[x] * (size_t)(t + 1) / (size_t)n;
        for (size_t w = w0; w < w1; w++)
            bk->code[x][w] = code_word(dp, x ? &dp->b : &dp->a, x ? &bk->pl.b : &bk->pl.a, w);
    }
}

static int lanes_fit(const lad_datapath *dp, const lad_plan *pl, const lad_opfmt *od);

/* The lane of the MMA at k0 that fills position j of its passes. */
static int lane_of(const lad_datapath *dp, int j)
{
    return dp->norder ? dp->order[j] : j;
}

/* Whether the CPU runs the AVX-512 build (chain_avx512, cases_avx512):
** every extension of its target (AVX512, below). */
static int avx512(void)
{
#if BLOCK_AVX2_CLONE
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("avx512f") &&
           __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512vl");
#else
    return 0;
#endif
}

int lad_block_init(lad_block *bk, const lad_datapath *dp, const lad_word_t *B, int ldb,
                   const uint8_t *SB, int ldsb, int K, int N, int isa)
{
    memset(bk, 0, sizeof *bk);
    if (SB) {
        scale_table(&dp->sa, bk->ash);
        scale_table(&dp->sb, bk->bsh);
    }
    int sblock = dp->scale_block;
    dp = unscaled(dp, &bk->udp);
    lad_plan_init(&bk->pl, dp);
    if (isa == LAD_BLOCK_PORTABLE)
        bk->pl.avx2 = 0;
    bk->lanes = lad_impl_covers(LAD_EV_CHAINS, dp) && lanes_fit(dp, &bk->pl, &bk->pl.d);
    bk->halves = halves_of(dp);
    bk->w = isa == LAD_BLOCK_BEST && bk->lanes && bk->pl.avx2 && avx512() ? 2 * W : W;
    bk->sblock = SB ? sblock : 0;
    for (int l = 0; l < dp->k && bk->sblock; l++)
        bk->lblk[l] = lane_of(dp, l) / bk->sblock;
    bk->K = K;
    bk->N = N;
    bk->nblk = (N + bk->w - 1) / bk->w;
    bk->B = B;
    bk->ldb = ldb;
    bk->SB = SB;
    bk->ldsb = ldsb;
    size_t n = (size_t)bk->nblk * (size_t)K * (size_t)bk->w;
    bk->braw = malloc(n * sizeof *bk->braw);
    bk->bmag = malloc(n * sizeof *bk->bmag);
    bk->bbad = calloc((size_t)bk->nblk * (size_t)bk->w, 1);
    /* one table for both where A's words decode as B's */
    int same = !memcmp(&dp->a, &dp->b, sizeof dp->a) &&
               !memcmp(&bk->pl.a, &bk->pl.b, sizeof bk->pl.a);
    int ok = 1;
    for (int x = 0; x < 2; x++) {
        bk->ncode[x] = code_size(x ? &dp->b : &dp->a, K, N);
        if (x == 1 && same)
            bk->code[1] = bk->code[0];
        else if (bk->ncode[x])
            ok &= (bk->code[x] = malloc(bk->ncode[x] * sizeof *bk->code[x])) != NULL;
    }
    if (!bk->braw || !bk->bmag || !bk->bbad || !ok) {
        lad_block_free(bk);
        return LAD_EINTERNAL;
    }
    if (bk->ncode[0] + bk->ncode[1] <= 512) {
        /* the tables of formats of 8 bits or fewer: here, not worth the
        ** threads of lad_block_fill */
        lad_block_fill(bk, 0, 1);
        bk->filled = 1;
    }
    return LAD_OK;
}

void lad_block_decode(lad_block *bk, int blk0, int blk1)
{
    const lad_datapath *dp = bk->pl.dp;
    const lad_word_t *B = bk->B;
    int K = bk->K, N = bk->N, ldb = bk->ldb, w = bk->w;
    for (int blk = blk0; blk < blk1; blk++) {
        int j0 = blk * w, ncol = N - j0 < w ? N - j0 : w;
        for (int k = 0; k < K; k++) {
            int src = k - k % dp->k + lane_of(dp, k % dp->k);  /* once per w words */
            size_t at = ((size_t)blk * K + k) * (size_t)w;
            const lad_word_t *b = B + (size_t)src * ldb + j0;
            const uint8_t *sb = bk->SB ? bk->SB + (size_t)(src / bk->sblock) * bk->ldsb + j0
                                       : NULL;
            for (int col = 0; col < w; col++) {
                int32_t raw = LAD_BLOCK_ZERO;
                uint32_t mag = 0;
                if (col < ncol) {
                    uint64_t c = code_of(bk, 1, b[col]);
                    int32_t sh = sb ? bk->bsh[sb[col]] : 0;
                    bk->bbad[j0 + col] |= (c & CODE_BAD) != 0 || sh == LAD_BLOCK_ZERO;
                    raw = code_raw(c);
                    raw += raw == LAD_BLOCK_ZERO ? 0 : sh;
                    mag = code_mag(c) | (uint32_t)(c >> 63) << 31;
                }
                bk->braw[at + col] = raw;
                bk->bmag[at + col] = (int32_t)mag;
            }
        }
    }
}

void lad_block_free(lad_block *bk)
{
    free(bk->braw);
    free(bk->bmag);
    free(bk->bbad);
    if (bk->code[1] != bk->code[0])
        free(bk->code[1]);
    free(bk->code[0]);
    bk->braw = bk->bmag = NULL;
    bk->bbad = NULL;
    bk->code[0] = bk->code[1] = NULL;
}

int lad_block_row_alloc(const lad_block *bk, lad_block_row *row)
{
    row->raw = malloc((size_t)bk->K * sizeof *row->raw);
    row->mag = malloc((size_t)bk->K * sizeof *row->mag);
    row->sgn = malloc((size_t)bk->K * sizeof *row->sgn);
    row->bad = 0;
    if (!row->raw || !row->mag || !row->sgn) {
        lad_block_row_free(row);
        return LAD_EINTERNAL;
    }
    return LAD_OK;
}

void lad_block_row_free(lad_block_row *row)
{
    free(row->raw);
    free(row->mag);
    free(row->sgn);
    row->raw = NULL;
    row->mag = NULL;
    row->sgn = NULL;
}

void lad_block_row_decode(const lad_block *bk, const lad_word_t *a, const uint8_t *sa,
                          lad_block_row *row)
{
    const lad_datapath *dp = bk->pl.dp;
    int scaled = sa && bk->sblock;
    uint64_t bad = 0;
    /* MMA by MMA, its lanes in pass order: no division per word */
    for (int k0 = 0; k0 < bk->K; k0 += dp->k) {
        const uint8_t *s0 = scaled ? sa + k0 / bk->sblock : NULL;
        for (int l = 0; l < dp->k; l++) {
            int k = k0 + l;
            uint64_t c = code_of(bk, 0, a[k0 + lane_of(dp, l)]);
            int32_t raw = code_raw(c), sh = s0 ? bk->ash[s0[bk->lblk[l]]] : 0;
            bad |= c | (sh == LAD_BLOCK_ZERO ? CODE_BAD : 0);
            row->raw[k] = raw + (raw == LAD_BLOCK_ZERO ? 0 : sh);
            row->mag[k] = code_mag(c) << bk->pl.up;  /* below 2^32: lad_block_ok */
            row->sgn[k] = -(int32_t)(c >> 63);
        }
    }
    row->bad = (bad & CODE_BAD) != 0;
}

/* One column's pass the way mma_body does it (for the lanes chain_pass's
** vector step leaves: no product in the pass, or a product sum at 2^30 or
** beyond): the running value *t in, the word of out rounded from it and
** the pass's sum su at anchor x out. Returns 1 unless the result is NaN
** or Inf. */
static int pass_one(const lad_datapath *dp, const lad_format *out, const lad_opfmt *od,
                    int mode, int nothing, int64_t su, int x, term *t)
{
    lad_word_t w;
    if (nothing) {
        w = lad_add_round(out, 0, 0, t, mode, dp->overflow);
    } else {
        int q = x - dp->window;
        int64_t s = su;
        if (t->cls != LAD_ZERO) {
            int sh = t->exp - q;
            uint64_t a = sh >= 0 ? (uint64_t)t->mag << sh
                                 : -sh < 64 ? (uint64_t)t->mag >> -sh : 0;
            s += t->neg ? -(int64_t)a : (int64_t)a;
        }
        w = round64(out, s, q, mode, dp->overflow);
    }
    *t = opfmt_term(od, w);
    return t->cls < LAD_INFINITE;
}

/* the lanes at eight columns: the names as they are */
#define VW 8
#define vi v8i
#define vu v8u
#define L(name) name
#include "gemm_lanes.h"
#undef VW
#undef vi
#undef vu
#undef L

/* fast_body's pass loop for the block's columns (its comments say why
** each step is as it is). */
static inline __attribute__((always_inline)) void
mma_body(const lad_block *bk, const lad_block_row *row, int blk, int k0, lad_word_t *cw,
         unsigned *dead)
{
    const lad_plan *pl = &bk->pl;
    const lad_datapath *dp = pl->dp;
    const term zero = {LAD_ZERO, 0, 0, 0, 0};
    term c[W], acc[W];
    unsigned live = ~*dead & ((1u << W) - 1);
    for (int col = 0; col < W; col++) {
        if (!(live >> col & 1))
            continue;
        c[col] = pl->fast_c ? opfmt_term(&pl->c, cw[col]) : decode_term(&dp->c, cw[col]);
        if (c[col].cls >= LAD_INFINITE)
            live &= ~(1u << col);
        acc[col] = dp->c_last ? zero : c[col];
    }
    *dead |= ~live & ((1u << W) - 1);
    if (!live)
        return;

    size_t at = ((size_t)blk * bk->K + k0) * W;
    const int32_t *braw = bk->braw + at, *bmag = bk->bmag + at;
    const int32_t *araw = row->raw + k0, *asgn = row->sgn + k0;
    const uint32_t *amag = row->mag + k0;
    int direct = !dp->c_last;  /* chain, no d_via_acc: lad_block_ok */
    int floor = dp->zero_floor != LAD_NOFLOOR;
    for (int p = 0; p < pl->npass; p++) {
        int from = p * dp->pass, to = from + dp->pass < dp->k ? from + dp->pass : dp->k;
        int last = p == pl->npass - 1 && direct;
        const lad_format *out = last ? &dp->d : &dp->acc;
        int mode = last ? dp->d_round : dp->acc_round;

        /* the products' anchor and whether any is zero, per column */
        v8i rmax = {0}, rmin = {0}, rps[LAD_KMAX];
        rmax -= 1 << 30;
        rmin += 1 << 30;
        raw_products(rps, &rmax, &rmin, braw, araw, from, to, floor);
        int32_t rm[W], rn[W], r[W], base[W];
        memcpy(rm, &rmax, sizeof rm);
        memcpy(rn, &rmin, sizeof rn);
        for (int col = 0; col < W; col++) {
            int x = rm[col];
            if (x < LAD_BLOCK_NONE) {
                x = 0;  /* no product: every shift below is then large */
            } else if (live >> col & 1) {
                int inwin = dp->c_anchor && acc[col].cls != LAD_ZERO;
                if (floor && rn[col] < LAD_BLOCK_NONE && dp->zero_floor > x)
                    x = dp->zero_floor;
                if (inwin && acc[col].raw > x)
                    x = acc[col].raw;
                if (x < dp->anchor_min)
                    x = dp->anchor_min;
            }
            r[col] = x;
            base[col] = x + pl->down;
        }

        /* the products aligned toward zero and summed, in two halves
        ** where the whole needs 32 bits */
        v8i vbase;
        memcpy(&vbase, base, sizeof vbase);
        v8i sum, sum2;
        aligned_sums(&sum, &sum2, bk, rps, bmag, asgn, amag, from, to, &vbase);
        int32_t su[W], su2[W];
        memcpy(su, &sum, sizeof su);
        memcpy(su2, &sum2, sizeof su2);

        /* each column's pass result: the addend, one rounding */
        for (int col = 0; col < W; col++) {
            if (!(live >> col & 1))
                continue;
            const term *add = &acc[col];
            lad_word_t w;
            if (rm[col] < LAD_BLOCK_NONE) {
                w = lad_add_round(out, 0, 0, add, mode, dp->overflow);
            } else {
                int q = r[col] - dp->window;
                int64_t s = (int64_t)su[col] + su2[col];
                if (dp->c_anchor && add->cls != LAD_ZERO) {
                    int sh = add->exp - q;
                    uint64_t a = sh >= 0 ? (uint64_t)add->mag << sh
                                         : -sh < 64 ? (uint64_t)add->mag >> -sh : 0;
                    s += add->neg ? -(int64_t)a : (int64_t)a;
                    w = round64(out, s, q, mode, dp->overflow);
                } else if (add->cls != LAD_ZERO) {
                    w = lad_add_round(out, (i128)s, q, add, mode, dp->overflow);
                } else {
                    w = round64(out, s, q, mode, dp->overflow);
                }
            }
            if (last) {
                cw[col] = w;
                continue;
            }
            term t = pl->fast_acc ? opfmt_term(&pl->acc, w) : decode_term(&dp->acc, w);
            if (t.cls >= LAD_INFINITE || w == pl->acc_nan) {
                live &= ~(1u << col);
                continue;
            }
            acc[col] = t;
        }
    }
    if (!direct)
        for (int col = 0; col < W; col++)
            if (live >> col & 1)
                cw[col] = lad_add_terms(dp, &dp->d, &acc[col], dp->c_last ? &c[col] : &zero,
                                        dp->d_round, dp->nan);
    *dead |= ~live & ((1u << W) - 1);
}

static void mma_generic(const lad_block *bk, const lad_block_row *row, int blk, int k0,
                        lad_word_t *c, unsigned *dead)
{
    mma_body(bk, row, blk, k0, c, dead);
}

#if BLOCK_AVX2_CLONE
__attribute__((target("avx2"))) static void mma_avx2(const lad_block *bk,
                                                     const lad_block_row *row, int blk,
                                                     int k0, lad_word_t *c, unsigned *dead)
{
    mma_body(bk, row, blk, k0, c, dead);
}
#endif

void lad_block_mma(const lad_block *bk, const lad_block_row *row, int blk, int k0,
                   lad_word_t *c, unsigned *dead)
{
#if BLOCK_AVX2_CLONE
    if (bk->pl.avx2) {
        mma_avx2(bk, row, blk, k0, c, dead);
        return;
    }
#endif
    mma_generic(bk, row, blk, k0, c, dead);
}

/* ---- the lane-state chain: MMAs [k0, k1) of one block with each column's
** running value kept as a decoded term in 32-bit lanes */

/* Whether chain_body computes the chains of lad_block_ok's datapath dp
** whose rows LAD_IMPL's chains column covers (passes and MMAs that round
** toward zero or to nearest even, C anchored in the window or added last,
** no zero floor, overflow to Inf), and the case kernel those its cases
** column covers: formats that round64 does inline (IEEE subnormals, Inf
** and NaN; f32, e8m13, f16), and D words that read as C words give the
** same values (D = C, or D the same exponent range with fewer fraction
** bits, as wgmma's e8m13 in f32), so that a D need not be encoded to be
** fed on as the next C. */
static int lanes_fit(const lad_datapath *dp, const lad_plan *pl, const lad_opfmt *od)
{
    const lad_format *c = &dp->c, *d = &dp->d, *fs[2] = {&dp->acc, &dp->d};
    for (int i = 0; i < 2; i++)
        if (fs[i]->kind != LAD_FLOAT || fs[i]->width > 32 || fs[i]->mbits > 23 ||
            fs[i]->sub != LAD_SUB_IEEE || fs[i]->inf != LAD_INF_IEEE ||
            fs[i]->nan != LAD_NAN_IEEE)
            return 0;
    return pl->fast_c && pl->fast_acc && lad_opfmt_usable(d, od) && c->mbits <= 23 &&
           c->ebits == d->ebits && c->bias == d->bias && c->width == d->width &&
           c->mbits + c->pad == d->mbits + d->pad && c->mbits >= d->mbits &&
           dp->window + 1 <= 29;
}

static void chain_generic(const lad_block *bk, const lad_block_row *const *rows, int nr,
                          int blk, int k0, int k1, lad_word_t *const *c, unsigned *dead)
{
    if (nr == 2)
        chain_body(bk, rows, 2, blk, k0, k1, c, dead);
    else
        chain_body(bk, rows, 1, blk, k0, k1, c, dead);
}

#if BLOCK_AVX2_CLONE
__attribute__((target("avx2"))) static void chain_avx2(const lad_block *bk,
                                                       const lad_block_row *const *rows,
                                                       int nr, int blk, int k0, int k1,
                                                       lad_word_t *const *c, unsigned *dead)
{
    if (nr == 2)
        chain_body(bk, rows, 2, blk, k0, k1, c, dead);
    else
        chain_body(bk, rows, 1, blk, k0, k1, c, dead);
}

/* The AVX-512 build's target, and its sixteen lanes (the end of this
** file). */
#define AVX512 "avx2,avx512f,avx512dq,avx512bw,avx512vl"
#if defined(__clang__)
#define AVX512_BEGIN \
    _Pragma("clang attribute push(__attribute__((target(AVX512))), apply_to = function)")
#define AVX512_END _Pragma("clang attribute pop")
#else
#define AVX512_BEGIN \
    _Pragma("GCC push_options") \
    _Pragma("GCC target(\"avx2,avx512f,avx512dq,avx512bw,avx512vl\")")
#define AVX512_END _Pragma("GCC pop_options")
#endif
typedef int32_t v16i __attribute__((vector_size(64)));
typedef uint32_t v16u __attribute__((vector_size(64)));
__attribute__((target(AVX512))) static void chain_avx512(const lad_block *bk,
                                                         const lad_block_row *const *rows,
                                                         int nr, int blk, int k0, int k1,
                                                         lad_word_t *const *c, unsigned *dead);
__attribute__((target(AVX512))) static unsigned cases_avx512(const lad_plan *pl,
                                                             const lad_word_t *a,
                                                             const lad_word_t *b, size_t step,
                                                             const lad_word_t *c, size_t cstep,
                                                             lad_word_t *d);
#endif

void lad_block_chain(const lad_block *bk, const lad_block_row *const *rows, int nr, int blk,
                     int k0, int k1, lad_word_t *const *c, unsigned *dead)
{
    if (!bk->lanes) {
        for (int r = 0; r < nr; r++)
            for (int k = k0; k < k1; k += bk->pl.dp->k)
                lad_block_mma(bk, rows[r], blk, k, c[r], &dead[r]);
        return;
    }
#if BLOCK_AVX2_CLONE
    if (bk->w == 2 * W) {  /* lad_block_init: lanes, on AVX-512 */
        chain_avx512(bk, rows, nr, blk, k0, k1, c, dead);
        return;
    }
    if (bk->pl.avx2) {
        chain_avx2(bk, rows, nr, blk, k0, k1, c, dead);
        return;
    }
#endif
    chain_generic(bk, rows, nr, blk, k0, k1, c, dead);
}

/* ---- cases side by side: dense cases of an evaluation (rows of arrays,
** or lad_case arrays), W at a time (2 * W on AVX-512), one case a lane
**
** The lane-state pass above, with each lane's products its own case's: a
** chunk of eight lanes of the W cases' A (and B) words is loaded as W
** vectors, one a case, and transposed, so that vector t holds lane t of
** every case; decoded and multiplied lane-wise (the words as the
** eight-lane code of plan.c decodes them), the products' raw exponents,
** magnitudes and signs are then what raw_products and aligned_sum read,
** and the passes run as chain_pass runs them, C being each case's running
** value from the start.
*/

int lad_cases_ok(const lad_plan *pl)
{
    const lad_datapath *dp = pl->dp;
    /* pl->bias >= 0: a biased exponent is not negative (cases_body) */
    return BLOCK_AVX2_CLONE && pl->avx2 && dp->k % W == 0 && pl->bias >= 0 &&
           lad_impl_gap(LAD_EV_CASES, dp, pl->off) < 0 && plan_ok(dp, pl, 1) && lanes_fit(dp, pl, &pl->d);
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

/* The two-level window's pass (plan.c's lanes8_body) one lane at a time,
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

/* ---- the AVX-512 build: the lanes at sixteen columns (the chain) or
** cases (the case kernel), the names with 16; every function built for
** AVX512 (the vector compares that the lanes' masks come from, and
** vpmovd2m, are AVX512DQ and AVX512BW's at this width; the maxima's loops
** vectorize only where the target is the function's own, not only its
** caller's) */
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

__attribute__((target(AVX512))) static void chain_avx512(const lad_block *bk,
                                                         const lad_block_row *const *rows,
                                                         int nr, int blk, int k0, int k1,
                                                         lad_word_t *const *c, unsigned *dead)
{
    if (nr == 2)
        chain_body16(bk, rows, 2, blk, k0, k1, c, dead);
    else
        chain_body16(bk, rows, 1, blk, k0, k1, c, dead);
}

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
