/*
** Fragment layouts and case packing for the tensor-core kernels; see
** layout.h for the conventions. Pure C (no CUDA), so that the packing the
** launcher uses is the packing tests/unit/test_layout.c checks.
**
** Each position function is written from the PTX ISA fragment tables
** (docs/reference/ptx-notes.md): for mma.sync with g = lane/4, t = lane%4
** and e = elements per register,
**
**   A[row][k]:  reg = (row/8)%2 + 2*(k/(4e)),  lane = 4*(row%8) + (k%(4e))/e
**   B[k][col]:  reg = k/(4e),                  lane = 4*col + (k%(4e))/e
**   C[row][col] (32-bit): reg = 2*(row/8) + col%2, lane = 4*(row%8) + col/2
**
** and the element sits at bit (k%e)*bits of its register (lower k in the
** lower bits); fp6 and fp4 under sm_120a's kind::f8f6f4 and mxf8f6f4 take
** a byte each, as 8-bit elements do. The block-scaled mma.sync kinds read
** A's scales from lanes 4*(m%8) + m/8 and B's from lanes 4n (PTX ISA,
** block scaling for mma.sync, thread-id 0), byte = K block (byte-id 0).
*/
#include "layout.h"

#include <string.h>

/* Bit of element kk within a 256-bit row of A or B in shared memory. */
static int row_bit(int kk, int bits, int pack)
{
    if (pack == LAD_PACK_PAD16)
        return (kk / 16) * 128 + (kk % 16) * bits;
    return kk * bits;
}

/* Byte offset of byte kbyte of row r in the K-major, no-swizzle
** core-matrix layout (LBO 128: next 16 bytes of K; SBO 256: next 8 rows). */
static size_t core_byte(int r, int kbyte)
{
    return (size_t)(r % 8) * 16 + (size_t)(r / 8) * 256 +
           (size_t)(kbyte / 16) * 128 + (size_t)(kbyte % 16);
}

static uint32_t mask_of(int bits)
{
    return bits >= 32 ? 0xffffffffu : ((uint32_t)1 << bits) - 1;
}

/* A row of A or B is 256 bits, or 128 for the half-K mma.sync shapes
** (m16n8k8 f16, m16n8k4 tf32, m16n8k16 fp8: two A registers, one B). */
static int row_bits_ok(int family, int k, int bits, int pack)
{
    if (pack == LAD_PACK_PAD16)
        return k == 32 && bits * 16 <= 128;
    if (pack == LAD_PACK_BYTE)
        return family == LAD_FAM_MMA && k == 32 && (bits == 6 || bits == 4);
    return k * bits == 256 || (family == LAD_FAM_MMA && k * bits == 128);
}

/* mma.sync: bits of the register slot an element takes, and where in the
** slot it sits (PTX ISA, mma: e2m1 in the middle 4 bits of its byte under
** kind::f8f6f4 and mxf8f6f4, fp6 in the low 6). */
static int slot_bits(int bits, int pack)
{
    return pack == LAD_PACK_BYTE ? 8 : bits;
}

static int slot_shift(int bits, int pack)
{
    return pack == LAD_PACK_BYTE && bits == 4 ? 2 : 0;
}

int lad_layout_init(lad_layout *L, int family, int k, int abits, int apack,
                    int bbits, int bpack, int cdbits, int scale_block,
                    lad_err *err)
{
    memset(L, 0, sizeof *L);
    L->family = family;
    L->k = k;
    L->n = LAD_TILE_N;
    L->abits = abits;
    L->bbits = bbits;
    L->apack = apack;
    L->bpack = bpack;
    L->cdbits = cdbits;
    L->scale_block = scale_block;
    if (!row_bits_ok(family, k, abits, apack) || !row_bits_ok(family, k, bbits, bpack))
        return lad_errf(err, LAD_EINTERNAL,
                        "layout: k %d with %d/%d-bit elements is not 256 bits "
                        "per row (nor 128 for mma.sync)", k, abits, bbits);
    if (cdbits != 32 && cdbits != 16)
        return lad_errf(err, LAD_EINTERNAL, "layout: %d-bit accumulator",
                        cdbits);
    switch (family) {
    case LAD_FAM_MMA:
        if (apack == LAD_PACK_PAD16 || bpack == LAD_PACK_PAD16 ||
            slot_bits(abits, apack) != slot_bits(bbits, bpack) ||
            (slot_bits(abits, apack) != 32 && slot_bits(abits, apack) != 16 &&
             slot_bits(abits, apack) != 8 && slot_bits(abits, apack) != 4))
            return lad_errf(err, LAD_EINTERNAL,
                            "layout: mma.sync with %d/%d-bit elements",
                            abits, bbits);
        L->m = 16;
        L->threads = 32;
        L->cd_regs = cdbits == 32 ? 4 : 2;
        break;
    case LAD_FAM_WGMMA:
        L->m = 64;
        L->threads = 128;
        L->cd_regs = cdbits == 32 ? 4 : 2;
        break;
    case LAD_FAM_TCGEN05:
        L->m = 128;
        L->threads = 128;
        L->cd_regs = LAD_TILE_N; /* one column per register */
        break;
    default:
        return lad_errf(err, LAD_EINTERNAL, "layout: family %d", family);
    }
    L->a_words = L->m * 256 / 32;
    L->b_words = L->n * 256 / 32;
    if (scale_block) {
        if (family == LAD_FAM_WGMMA || k % scale_block || k / scale_block > 4)
            return lad_errf(err, LAD_EINTERNAL,
                            "layout: scale block %d with k %d", scale_block, k);
        L->nscales = k / scale_block;
        L->s_words = family == LAD_FAM_MMA ? 2 * 32 : (LAD_SFA_COLS + 1) * 32;
    }
    return LAD_OK;
}

size_t lad_layout_a_bit(const lad_layout *L, int row, int kk)
{
    if (L->family == LAD_FAM_MMA) {
        int sb = slot_bits(L->abits, L->apack);
        int e = 32 / sb, per = 4 * e;
        int reg = (row / 8) % 2 + 2 * (kk / per);
        int lane = 4 * (row % 8) + (kk % per) / e;
        return (size_t)(reg * 32 + lane) * 32 + (size_t)((kk % e) * sb) +
               (size_t)slot_shift(L->abits, L->apack);
    }
    int rb = row_bit(kk, L->abits, L->apack);
    return core_byte(row, rb / 8) * 8 + (size_t)(rb % 8);
}

size_t lad_layout_b_bit(const lad_layout *L, int kk, int col)
{
    if (L->family == LAD_FAM_MMA) {
        int sb = slot_bits(L->bbits, L->bpack);
        int e = 32 / sb, per = 4 * e;
        int reg = kk / per;
        int lane = 4 * col + (kk % per) / e;
        return (size_t)(reg * 32 + lane) * 32 + (size_t)((kk % e) * sb) +
               (size_t)slot_shift(L->bbits, L->bpack);
    }
    int rb = row_bit(kk, L->bbits, L->bpack);
    return core_byte(col, rb / 8) * 8 + (size_t)(rb % 8);
}

void lad_layout_cd(const lad_layout *L, int row, int col, int *thread,
                   int *reg, int *shift)
{
    if (L->family == LAD_FAM_TCGEN05) {
        *thread = row;
        *reg = col;
        *shift = 0;
        return;
    }
    /* wgmma: warp w holds rows 16w..16w+15 as an m16n8 mma.sync C tile. */
    int w = L->family == LAD_FAM_WGMMA ? row / 16 : 0;
    int r = row % 16, g = r % 8, v1 = r / 8;
    int j = col / 8, t = (col % 8) / 2, v0 = col % 2;
    *thread = 32 * w + 4 * g + t;
    if (L->cdbits == 32) {
        *reg = v0 + 2 * v1 + 4 * j;
        *shift = 0;
    } else {
        *reg = v1 + 2 * j;
        *shift = 16 * v0;
    }
}

size_t lad_layout_cd_bit(const lad_layout *L, int row, int col,
                         int cd_threads)
{
    int thread, reg, shift;
    lad_layout_cd(L, row, col, &thread, &reg, &shift);
    return ((size_t)reg * (size_t)cd_threads + (size_t)thread) * 32 +
           (size_t)shift;
}

size_t lad_layout_s_bit(const lad_layout *L, int b, int idx, int blk)
{
    size_t word;
    if (L->family == LAD_FAM_MMA) {
        /* Selectors {0, 0}: row m's scale in lane 4*(m%8) + m/8 (lanes
        ** with lane%4 < 2), column n's in lane 4n of the second register;
        ** byte = block. */
        word = b ? 32 + 4 * (size_t)idx : 4 * (size_t)(idx % 8) + (size_t)(idx / 8);
    } else {
        /* Column idx/32, lane idx%32: word (idx/32)*32 + idx%32 == idx. */
        word = b ? (size_t)LAD_SFA_COLS * 32 + (size_t)idx : (size_t)idx;
    }
    return word * 32 + (size_t)blk * 8;
}

void lad_bits_put(uint32_t *img, size_t bit, int width, uint32_t v)
{
    uint64_t x = (uint64_t)(v & mask_of(width)) << (bit % 32);
    size_t w = bit / 32;
    img[w] |= (uint32_t)x;
    if (bit % 32 + (size_t)width > 32)
        img[w + 1] |= (uint32_t)(x >> 32);
}

uint32_t lad_bits_get(const uint32_t *img, size_t bit, int width)
{
    size_t w = bit / 32;
    uint64_t x = img[w];
    if (bit % 32 + (size_t)width > 32)
        x |= (uint64_t)img[w + 1] << 32;
    return (uint32_t)(x >> (bit % 32)) & mask_of(width);
}

int lad_layout_diag(const lad_layout *L)
{
    return L->m < L->n ? L->m : L->n;
}

void lad_layout_compact(const lad_layout *L, int *a_words, int *b_words,
                        int *cd_threads)
{
    int diag = lad_layout_diag(L);
    size_t amax = 0, bmax = 0;
    int tmax = 0;
    for (int j = 0; j < diag; j++) {
        for (int kk = 0; kk < L->k; kk++) {
            size_t x = lad_layout_a_bit(L, j, kk) + (size_t)L->abits - 1;
            size_t y = lad_layout_b_bit(L, kk, j) + (size_t)L->bbits - 1;
            if (x > amax)
                amax = x;
            if (y > bmax)
                bmax = y;
        }
        int thread, reg, shift;
        lad_layout_cd(L, j, j, &thread, &reg, &shift);
        if (thread > tmax)
            tmax = thread;
    }
    /* mma.sync loads whole register sets; only shared memory is prefixed. */
    *a_words = L->family == LAD_FAM_MMA ? L->a_words : (int)(amax / 32 + 1);
    *b_words = L->family == LAD_FAM_MMA ? L->b_words : (int)(bmax / 32 + 1);
    *cd_threads = (tmax / 32 + 1) * 32;
}

void lad_layout_pack_cases(const lad_layout *L, const lad_case *cs, size_t n,
                           int a_words, int b_words, int cd_threads,
                           uint32_t *a, uint32_t *b, uint32_t *c, uint32_t *s)
{
    size_t diag = (size_t)lad_layout_diag(L);
    size_t tiles = (n + diag - 1) / diag;
    size_t cwords = (size_t)L->cd_regs * (size_t)cd_threads;
    memset(a, 0, tiles * (size_t)a_words * sizeof *a);
    memset(b, 0, tiles * (size_t)b_words * sizeof *b);
    memset(c, 0, tiles * cwords * sizeof *c);
    if (s)
        memset(s, 0, tiles * (size_t)L->s_words * sizeof *s);
    for (size_t i = 0; i < n; i++) {
        size_t t = i / diag;
        int j = (int)(i % diag);
        uint32_t *ta = a + t * (size_t)a_words, *tb = b + t * (size_t)b_words;
        for (int kk = 0; kk < L->k; kk++) {
            lad_bits_put(ta, lad_layout_a_bit(L, j, kk), L->abits, cs[i].a[kk]);
            lad_bits_put(tb, lad_layout_b_bit(L, kk, j), L->bbits, cs[i].b[kk]);
        }
        lad_bits_put(c + t * cwords, lad_layout_cd_bit(L, j, j, cd_threads),
                     L->cdbits, cs[i].c);
        if (s && L->scale_block) {
            uint32_t *ts = s + t * (size_t)L->s_words;
            for (int blk = 0; blk < L->nscales; blk++) {
                lad_bits_put(ts, lad_layout_s_bit(L, 0, j, blk), 8, cs[i].sa[blk]);
                lad_bits_put(ts, lad_layout_s_bit(L, 1, j, blk), 8, cs[i].sb[blk]);
            }
        }
    }
}

void lad_layout_unpack_cases(const lad_layout *L, const uint32_t *d, size_t n,
                             int cd_threads, lad_word_t *out)
{
    size_t diag = (size_t)lad_layout_diag(L);
    size_t cwords = (size_t)L->cd_regs * (size_t)cd_threads;
    for (size_t i = 0; i < n; i++) {
        size_t t = i / diag;
        int j = (int)(i % diag);
        out[i] = lad_bits_get(d + t * cwords,
                              lad_layout_cd_bit(L, j, j, cd_threads), L->cdbits);
    }
}

void lad_layout_pack_tile(const lad_layout *L, const uint32_t *A,
                          const uint32_t *B, const uint32_t *C,
                          const uint8_t *sa, const uint8_t *sb,
                          uint32_t *a, uint32_t *b, uint32_t *c, uint32_t *s)
{
    memset(a, 0, (size_t)L->a_words * sizeof *a);
    memset(b, 0, (size_t)L->b_words * sizeof *b);
    memset(c, 0, (size_t)L->cd_regs * (size_t)L->threads * sizeof *c);
    for (int row = 0; row < L->m; row++)
        for (int kk = 0; kk < L->k; kk++)
            lad_bits_put(a, lad_layout_a_bit(L, row, kk), L->abits,
                         A[(size_t)row * (size_t)L->k + (size_t)kk]);
    for (int kk = 0; kk < L->k; kk++)
        for (int col = 0; col < L->n; col++)
            lad_bits_put(b, lad_layout_b_bit(L, kk, col), L->bbits,
                         B[(size_t)kk * (size_t)L->n + (size_t)col]);
    for (int row = 0; row < L->m; row++)
        for (int col = 0; col < L->n; col++)
            lad_bits_put(c, lad_layout_cd_bit(L, row, col, L->threads),
                         L->cdbits, C[(size_t)row * (size_t)L->n + (size_t)col]);
    if (s && L->scale_block) {
        memset(s, 0, (size_t)L->s_words * sizeof *s);
        for (int blk = 0; blk < L->nscales; blk++) {
            for (int row = 0; row < L->m; row++)
                lad_bits_put(s, lad_layout_s_bit(L, 0, row, blk), 8,
                             sa ? sa[row * L->nscales + blk] : 0);
            for (int col = 0; col < L->n; col++)
                lad_bits_put(s, lad_layout_s_bit(L, 1, col, blk), 8,
                             sb ? sb[col * L->nscales + blk] : 0);
        }
    }
}

void lad_layout_unpack_tile(const lad_layout *L, const uint32_t *d,
                            uint32_t *D)
{
    for (int row = 0; row < L->m; row++)
        for (int col = 0; col < L->n; col++)
            D[(size_t)row * (size_t)L->n + (size_t)col] = lad_bits_get(
                d, lad_layout_cd_bit(L, row, col, L->threads), L->cdbits);
}

uint64_t lad_desc_wgmma(void)
{
    return ((uint64_t)(128 >> 4) << 16) | ((uint64_t)(256 >> 4) << 32);
}

uint64_t lad_desc_tcgen05(void)
{
    return lad_desc_wgmma() | ((uint64_t)1 << 46);
}

uint32_t lad_idesc_dense(int dcode, int acode, int bcode, int m, int n,
                         int saturate)
{
    return (saturate ? 1u << 3 : 0u) | (uint32_t)dcode << 4 |
           (uint32_t)acode << 7 | (uint32_t)bcode << 10 |
           (uint32_t)(n >> 3) << 17 | (uint32_t)(m >> 4) << 24;
}

uint32_t lad_idesc_scaled(int acode, int bcode, int m, int n, int ue8m0)
{
    return (uint32_t)acode << 7 | (uint32_t)bcode << 10 |
           (uint32_t)(n >> 3) << 17 | (ue8m0 ? 1u << 23 : 0u) |
           (uint32_t)(m >> 4) << 24;
}
