/*
** The block kernel of lad_gemm (gemm_kernel.h): the fast path's pass
** (plan_unscaled.c, fast_body) for LAD_BLOCK_W columns side by side. The
** same pass for dense cases side by side is the case kernel
** (cases_kernel.c), which shares this file's lanes (gemm_lanes.h).
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
** (plan_scaled.c, scaled_sum) is the unscaled one on products m * 2^(e + s), s
** the exponent of the lane's scale pair; a pair of powers of two is added
** to the raw exponents of A and B as they are decoded, and the kernel runs
** the datapath without its scales (lad_block's udp).
*/
#include "kernel_impl.h"

#include <stdlib.h>
#include <string.h>

/* Whether every number of scale format f is a power of two (mag 1). */
static int pow2_format(const lad_format *f)
{
    return f->kind == LAD_FLOAT && f->mbits == 0 && !f->sign;
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


/* The lane of the MMA at k0 that fills position j of its passes. */
static int lane_of(const lad_datapath *dp, int j)
{
    return dp->norder ? dp->order[j] : j;
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

__attribute__((target(AVX512))) static void chain_avx512(const lad_block *bk,
                                                         const lad_block_row *const *rows,
                                                         int nr, int blk, int k0, int k1,
                                                         lad_word_t *const *c, unsigned *dead);
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

#if BLOCK_AVX2_CLONE
/* ---- the AVX-512 build: the lanes at sixteen columns (the chain), the
** names with 16; every function built for AVX512 (the vector compares
** that the lanes' masks come from, and vpmovd2m, are AVX512DQ and
** AVX512BW's at this width; the maxima's loops vectorize only where the
** target is the function's own, not only its caller's) */
AVX512_BEGIN
#define VW 16
#define vi v16i
#define vu v16u
#define L(name) name##16
#include "gemm_lanes.h"
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
#endif
