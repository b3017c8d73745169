/*
** The block kernel of lad_gemm (gemm_kernel.h): the fast path's pass
** (plan.c, fast_body) for LAD_BLOCK_W columns side by side.
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
** for eight columns at once (one AVX2 register), plus per column and pass
** the anchor's rules and one rounding (round64) into acc or d: a few dozen
** scalar operations per pass of 16 or 32 products.
**
** Why it is exact: it is fast_body's arithmetic with the datapath's rules
** restricted to those below (lad_block_ok), in 32-bit lanes only where the
** bounds say it fits. A product of magnitudes below 2^(mbA + 1) and
** 2^(mbB + 1), shifted up by up, is below 2^(max(window, off) + 2) (off =
** mbA + mbB): it fits uint32 when that is at most 32. Aligned to the
** anchor's quantum it is below 2^(window + 2); pass of them sum below
** 2^(window + 2 + log2 pass), which fits int32 when that is at most 31.
** The addend joins in 64 bits, where fast_body adds it. Rounding toward
** zero of a term is the shift of its magnitude, as in sum_lanes.
*/
#include "gemm_kernel.h"
#include "datapath_int.h"

#include <stdlib.h>
#include <string.h>

#define W LAD_BLOCK_W

#if defined(__x86_64__) && defined(__GNUC__)
#define BLOCK_AVX2_CLONE 1
#else
#define BLOCK_AVX2_CLONE 0
#endif

typedef int32_t v8i __attribute__((vector_size(4 * W)));
typedef uint32_t v8u __attribute__((vector_size(4 * W)));

/* Lane-wise max and min by masks: GNU C has no ?: on vectors in C. */
#define VMAX(a, b) (((a) & ((a) > (b))) | ((b) & ~((a) > (b))))
#define VMIN(a, b) (((a) & ((a) < (b))) | ((b) & ~((a) < (b))))

static int ceil_log2(int n)
{
    int b = 0;
    while ((1 << b) < n)
        b++;
    return b;
}

int lad_block_ok(const lad_datapath *dp)
{
    lad_plan pl;
    lad_plan_init(&pl, dp);
    int off = (int)(pl.a.mb + pl.b.mb);
    int lanes = dp->pass < dp->k ? dp->pass : dp->k;
    int top = dp->window > off ? dp->window : off;
    /* the plan's fast path does the rest of the datapath (one window,
    ** IEEE-subnormal operands of 32 bits or fewer, no scales); of what it
    ** does, passes summed by `chain: sum`, the double rounding of
    ** d_via_acc and the other alignment roundings are left to it */
    return pl.path == LAD_PATH_FAST && !dp->sparse && dp->chain == LAD_CHAIN &&
           !dp->d_via_acc && dp->align_round == LAD_RZ && top + 2 <= 32 &&
           dp->window + 2 + ceil_log2(lanes) <= 31;
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

/* The lane of the MMA at k0 that fills position j of its passes. */
static int lane_of(const lad_datapath *dp, int j)
{
    return dp->norder ? dp->order[j] : j;
}

int lad_block_init(lad_block *bk, const lad_datapath *dp, const lad_word_t *B, int ldb,
                   int K, int N)
{
    memset(bk, 0, sizeof *bk);
    lad_plan_init(&bk->pl, dp);
    bk->K = K;
    bk->N = N;
    bk->nblk = (N + W - 1) / W;
    size_t n = (size_t)bk->nblk * (size_t)K * W;
    bk->braw = malloc(n * sizeof *bk->braw);
    bk->bmag = malloc(n * sizeof *bk->bmag);
    bk->bbad = calloc((size_t)bk->nblk * W, 1);
    if (!bk->braw || !bk->bmag || !bk->bbad) {
        lad_block_free(bk);
        return LAD_EINTERNAL;
    }
    for (int blk = 0; blk < bk->nblk; blk++)
        for (int k = 0; k < K; k++) {
            int src = k - k % dp->k + lane_of(dp, k % dp->k);
            size_t at = ((size_t)blk * K + k) * W;
            for (int col = 0; col < W; col++) {
                int j = blk * W + col;
                int32_t raw = LAD_BLOCK_ZERO, neg = 0;
                uint32_t mag = 0;
                if (j < N)
                    bk->bbad[j] |= decode_word(dp, &dp->b, &bk->pl.b,
                                               B[(size_t)src * ldb + j], &raw, &mag, &neg);
                bk->braw[at + col] = raw;
                bk->bmag[at + col] = (int32_t)(mag | (uint32_t)neg << 31);
            }
        }
    return LAD_OK;
}

void lad_block_free(lad_block *bk)
{
    free(bk->braw);
    free(bk->bmag);
    free(bk->bbad);
    bk->braw = bk->bmag = NULL;
    bk->bbad = NULL;
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

void lad_block_row_decode(const lad_block *bk, const lad_word_t *a, lad_block_row *row)
{
    const lad_datapath *dp = bk->pl.dp;
    row->bad = 0;
    for (int k = 0; k < bk->K; k++) {
        int src = k - k % dp->k + lane_of(dp, k % dp->k);
        int32_t neg;
        row->bad |= decode_word(dp, &dp->a, &bk->pl.a, a[src], &row->raw[k], &row->mag[k], &neg);
        row->mag[k] <<= bk->pl.up;  /* below 2^32: lad_block_ok */
        row->sgn[k] = -neg;
    }
}

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
        v8i rmax = {0}, rmin = {0}, bv;
        rmax -= 1 << 30;
        rmin += 1 << 30;
        for (int j = from; j < to; j++) {
            memcpy(&bv, braw + (size_t)j * W, sizeof bv);
            v8i rp = bv + araw[j];
            rmax = VMAX(rmax, rp);
            if (floor)
                rmin = VMIN(rmin, rp);
        }
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

        /* the products aligned toward zero and summed (a zero product's
        ** shift is large and its magnitude 0) */
        v8i vbase, sum = {0};
        memcpy(&vbase, base, sizeof vbase);
        for (int j = from; j < to; j++) {
            v8i rb, mb;
            memcpy(&rb, braw + (size_t)j * W, sizeof rb);
            memcpy(&mb, bmag + (size_t)j * W, sizeof mb);
            v8i d = vbase - araw[j] - rb;
            d = VMIN(d, d - d + 31);
            v8u m = ((v8u)mb & 0x7fffffffu) * amag[j];
            v8i s = (mb >> 31) ^ asgn[j];
            v8i a = (v8i)(m >> (v8u)d);
            sum += (a ^ s) - s;
        }
        int32_t su[W];
        memcpy(su, &sum, sizeof su);

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
                int64_t s = su[col];
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
