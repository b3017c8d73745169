/*
** Fragment packing and unpacking (kernels/layout.c) against a CPU
** emulation of each instruction's documented lane mapping.
**
** The emulator below does what the hardware is documented to do, written
** from the fragment tables of docs/reference/ptx-notes.md (PTX ISA and
** CUTLASS) as literal offset tables, not from layout.c's formulas: it reads
** each lane's registers (mma.sync), decodes the shared-memory descriptor
** and walks the core matrices (wgmma, tcgen05), builds A, B and C, computes
** D = C + sum A*B with integer arithmetic on the raw words (wrapping; any
** misplaced word changes it), and writes D back into the documented result
** registers. layout.c must then read every case's D where it put the case.
** A layout error therefore shows up here, never as an arithmetic finding on
** a GPU.
*/
#include "test.h"
#include "../../kernels/layout.h"
#include "../../kernels/kernels.h"
#include "../../kernels/cubin.h"
#include "../../model/presets.h"

#include <stdlib.h>
#include <string.h>

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 16);
}

static uint32_t mask(int bits)
{
    return bits >= 32 ? 0xffffffffu : (1u << bits) - 1;
}

/* The emulated instruction's operands, m x k, k x n, m x n. */
typedef struct emu {
    uint32_t A[128][64], B[64][8], C[128][8], D[128][8];
    uint32_t SA[128][4], SB[8][4]; /* scale bytes per block */
} emu;

/* ---- mma.sync: documented fragments, as offset tables ------------------ */

/* Row offset of A register i (all element types). */
static const int mma_a_row[4] = {0, 8, 0, 8};
/* K offset of A register i and of B register i, in units of the elements a
** lane holds per K step: tf32 (t, t+4), 16-bit (2t, 2t+8), 8-bit (4t, 4t+16). */
static const int mma_a_k_tf32[4] = {0, 0, 4, 4}, mma_b_k_tf32[2] = {0, 4};
static const int mma_a_k_16[4] = {0, 0, 8, 8}, mma_b_k_16[2] = {0, 8};
static const int mma_a_k_8[4] = {0, 0, 16, 16}, mma_b_k_8[2] = {0, 16};
/* 4-bit elements, m16n8k64 (mxf4, mxf4nvf4): (8t, 8t+32). */
static const int mma_a_k_4[4] = {0, 0, 32, 32}, mma_b_k_4[2] = {0, 32};
/* C/D f32: c0=(g,2t) c1=(g,2t+1) c2=(g+8,2t) c3=(g+8,2t+1). */
static const int mma_c_row[4] = {0, 0, 8, 8}, mma_c_col[4] = {0, 1, 0, 1};

/* Bits of the register slot of one element, and the element's place in
** it: under sm_120a's kind::f8f6f4 and mxf8f6f4 "the matrix element of type
** .e2m1 resides in central 4 bits of the 8-bit container", ".e3m2 or .e2m3
** ... in the lower 6 bits" (PTX ISA, mma). */
static int slot(int bits, int pack)
{
    return pack == LAD_PACK_BYTE ? 8 : bits;
}

static int place(int bits, int pack)
{
    return pack == LAD_PACK_BYTE && bits == 4 ? 2 : 0;
}

static void mma_read(const lad_layout *L, const uint32_t *a, const uint32_t *b,
                     const uint32_t *c, int cd_threads, emu *e)
{
    int sa = slot(L->abits, L->apack), sb = slot(L->bbits, L->bpack);
    int ea = 32 / sa, eb = 32 / sb; /* elements per register */
    int pa = place(L->abits, L->apack), pb = place(L->bbits, L->bpack);
    const int *ak = ea == 1 ? mma_a_k_tf32 : ea == 2 ? mma_a_k_16 : ea == 4 ? mma_a_k_8
                                                                          : mma_a_k_4;
    const int *bk = eb == 1 ? mma_b_k_tf32 : eb == 2 ? mma_b_k_16 : eb == 4 ? mma_b_k_8
                                                                          : mma_b_k_4;
    for (int lane = 0; lane < 32; lane++) {
        int g = lane >> 2, t = lane & 3;
        for (int i = 0; i < 4; i++)
            for (int h = 0; h < ea; h++)
                e->A[g + mma_a_row[i]][ea * t + ak[i] + h] =
                    (a[i * 32 + lane] >> (h * sa + pa)) & mask(L->abits);
        for (int i = 0; i < 2; i++)
            for (int h = 0; h < eb; h++)
                e->B[eb * t + bk[i] + h][g] =
                    (b[i * 32 + lane] >> (h * sb + pb)) & mask(L->bbits);
        if (L->cdbits == 32) {
            for (int i = 0; i < 4; i++)
                e->C[g + mma_c_row[i]][2 * t + mma_c_col[i]] =
                    c[i * cd_threads + lane];
        } else {
            /* reg0 = {(g,2t) low, (g,2t+1) high}, reg1 = rows g+8. */
            for (int i = 0; i < 2; i++)
                for (int h = 0; h < 2; h++)
                    e->C[g + 8 * i][2 * t + h] =
                        (c[i * cd_threads + lane] >> (16 * h)) & 0xffff;
        }
    }
}

static void mma_write(const lad_layout *L, const emu *e, uint32_t *d,
                      int cd_threads)
{
    for (int lane = 0; lane < cd_threads && lane < 32; lane++) {
        int g = lane >> 2, t = lane & 3;
        if (L->cdbits == 32) {
            for (int i = 0; i < 4; i++)
                d[i * cd_threads + lane] = e->D[g + mma_c_row[i]][2 * t + mma_c_col[i]];
        } else {
            for (int i = 0; i < 2; i++)
                d[i * cd_threads + lane] = (e->D[g + 8 * i][2 * t] & 0xffff) |
                                           (e->D[g + 8 * i][2 * t + 1] << 16);
        }
    }
}

/* ---- shared memory through the descriptor (wgmma, tcgen05) ------------- */

#define SMEM_A 0x400   /* where the emulated kernel puts A */
#define SMEM_B 0x1400  /* and B */

static uint8_t smem[0x2000];

/* Reads element kk of row r of a K-major, no-swizzle operand whose
** descriptor is desc: core matrices of 8 rows x 16 bytes at start +
** (r/8)*SBO + chunk*LBO + (r%8)*16, PTX ISA "shared memory matrix layout". */
static uint32_t smem_elem(uint64_t desc, int r, int kk, int bits, int pack)
{
    uint32_t start = (uint32_t)(desc & 0x3fff) << 4;
    uint32_t lbo = (uint32_t)((desc >> 16) & 0x3fff) << 4;
    uint32_t sbo = (uint32_t)((desc >> 32) & 0x3fff) << 4;
    int chunk, bit; /* 16-byte chunk of the row, bit inside it */
    if (pack == LAD_PACK_PAD16) {
        chunk = kk / 16;          /* 16 elements per padded 16-byte slot */
        bit = (kk % 16) * bits;
    } else {
        chunk = kk * bits / 128;
        bit = kk * bits % 128;
    }
    uint32_t base = start + (uint32_t)(r / 8) * sbo + (uint32_t)chunk * lbo +
                    (uint32_t)(r % 8) * 16;
    uint64_t v = 0;
    for (int i = 0; i < 5 && bit / 8 + i < 16; i++)
        v |= (uint64_t)smem[base + (uint32_t)(bit / 8 + i)] << (8 * i);
    return (uint32_t)(v >> (bit % 8)) & mask(bits);
}

static void smem_read(const lad_layout *L, const uint32_t *a, int a_words,
                      const uint32_t *b, int b_words, emu *e)
{
    uint64_t tmpl = L->family == LAD_FAM_TCGEN05 ? lad_desc_tcgen05()
                                                : lad_desc_wgmma();
    memset(smem, 0, sizeof smem);
    /* The kernel copies the image prefix and zero-fills the rest. */
    memcpy(smem + SMEM_A, a, (size_t)a_words * 4);
    memcpy(smem + SMEM_B, b, (size_t)b_words * 4);
    uint64_t da = tmpl | ((SMEM_A & 0x3FFFF) >> 4);
    uint64_t db = tmpl | ((SMEM_B & 0x3FFFF) >> 4);
    for (int r = 0; r < L->m; r++)
        for (int kk = 0; kk < L->k; kk++)
            e->A[r][kk] = smem_elem(da, r, kk, L->abits, L->apack);
    for (int col = 0; col < L->n; col++)
        for (int kk = 0; kk < L->k; kk++)
            e->B[kk][col] = smem_elem(db, col, kk, L->bbits, L->bpack);
}

/* wgmma accumulators, CUTLASS CLayout_64xN: register i = v0 + 2*v1 + 4*j
** of lane (g, t) in warp w holds row 16w + g + 8*v1, column 8j + 2t + v0;
** f16 packs (d0,d1) and (d2,d3) low half first. */
static void wg_cd(const lad_layout *L, uint32_t *img, int cd_threads, emu *e,
                  int write)
{
    for (int th = 0; th < cd_threads; th++) {
        int w = th / 32, g = (th % 32) >> 2, t = th & 3;
        for (int i = 0; i < 4; i++) {
            int v0 = i & 1, v1 = (i >> 1) & 1;
            int row = 16 * w + g + 8 * v1, col = 2 * t + v0;
            int reg = L->cdbits == 32 ? i : i / 2;
            int sh = L->cdbits == 32 ? 0 : 16 * v0;
            uint32_t *p = &img[reg * cd_threads + th];
            if (write)
                *p |= (e->D[row][col] & mask(L->cdbits)) << sh;
            else
                e->C[row][col] = (*p >> sh) & mask(L->cdbits);
        }
    }
}

/* tcgen05, M=128: thread i of warp w reads lane 32w+i (= row), registers
** r0..r7 = columns 0..7 (32x32b.x8); 16-bit D sits in the low half. */
static void tc_cd(const lad_layout *L, uint32_t *img, int cd_threads, emu *e,
                  int write)
{
    for (int th = 0; th < cd_threads; th++)
        for (int col = 0; col < 8; col++) {
            uint32_t *p = &img[col * cd_threads + th];
            if (write)
                *p = e->D[th][col] & mask(L->cdbits);
            else
                e->C[th][col] = *p & mask(L->cdbits);
        }
}

/* Scales: the kernel stores image words 0..127 into SFA columns 0..3 (word
** j*32 + lane into column j, lane 32w + lane for every warp w) and words
** 128..159 into the SFB column; the MMA reads row m's scale from lane m%32
** of column m/32 (PTX ISA block scaling, CUTLASS tmem_sf_frg), byte = block,
** and column n's from lane n of the SFB column. */
static void scale_read(const lad_layout *L, const uint32_t *s, emu *e)
{
    static uint32_t tmem[128][5];
    for (int w = 0; w < 4; w++)
        for (int lane = 0; lane < 32; lane++) {
            for (int j = 0; j < 4; j++)
                tmem[32 * w + lane][j] = s[j * 32 + lane];
            tmem[32 * w + lane][4] = s[128 + lane];
        }
    for (int m = 0; m < L->m; m++)
        for (int blk = 0; blk < L->nscales; blk++)
            e->SA[m][blk] = (tmem[m % 32][m / 32] >> (8 * blk)) & 0xff;
    for (int n = 0; n < L->n; n++)
        for (int blk = 0; blk < L->nscales; blk++)
            e->SB[n][blk] = (tmem[n][4] >> (8 * blk)) & 0xff;
}

/* Scales of the block-scaled mma.sync kinds, selectors {0, 0} (PTX ISA,
** block scaling for mma.sync): thread-id-a 0 makes the thread pair with
** %laneid % 4 == 0 or 1 provide SF_A, thread-id-b 0 the threads with
** %laneid % 4 == 0 SF_B; byte-id 0 takes byte 0 (1X), bytes 0-1 (2X) or all
** four (4X), here in K-block order. Which row each of the pair gives is in
** the ISA's figure, not its text: lane 4g gives row g and lane 4g+1 row
** g+8, as a public hardware probe reports (unconfirmed here). */
static void mma_scale_read(const lad_layout *L, const uint32_t *s, emu *e)
{
    static const int pair_row[2] = {0, 8};
    for (int lane = 0; lane < 32; lane++) {
        int g = lane >> 2, t = lane & 3;
        for (int blk = 0; blk < L->nscales; blk++) {
            if (t < 2)
                e->SA[g + pair_row[t]][blk] = (s[lane] >> (8 * blk)) & 0xff;
            if (t == 0)
                e->SB[g][blk] = (s[32 + lane] >> (8 * blk)) & 0xff;
        }
    }
}

/* D = C + sum_k A*B (times the scales of k's block), wrapping. */
static void compute(const lad_layout *L, emu *e)
{
    for (int r = 0; r < L->m; r++)
        for (int col = 0; col < L->n; col++) {
            uint32_t acc = e->C[r][col];
            for (int kk = 0; kk < L->k; kk++) {
                uint32_t p = e->A[r][kk] * e->B[kk][col];
                if (L->scale_block) {
                    int blk = kk / L->scale_block;
                    p *= (e->SA[r][blk] + 1) * (e->SB[col][blk] + 3);
                }
                acc += p;
            }
            e->D[r][col] = acc & mask(L->cdbits);
        }
}

/* Runs the emulated instruction on one tile's images. */
static void emulate(const lad_layout *L, const uint32_t *a, int a_words,
                    const uint32_t *b, int b_words, uint32_t *c,
                    const uint32_t *s, int cd_threads, uint32_t *d, emu *e)
{
    memset(e, 0, sizeof *e);
    size_t dwords = (size_t)L->cd_regs * (size_t)cd_threads;
    memset(d, 0, dwords * 4);
    if (L->family == LAD_FAM_MMA) {
        mma_read(L, a, b, c, cd_threads, e);
    } else {
        smem_read(L, a, a_words, b, b_words, e);
        if (L->family == LAD_FAM_WGMMA)
            wg_cd(L, c, cd_threads, e, 0);
        else
            tc_cd(L, c, cd_threads, e, 0);
    }
    if (L->scale_block && L->family == LAD_FAM_MMA)
        mma_scale_read(L, s, e);
    else if (L->scale_block)
        scale_read(L, s, e);
    compute(L, e);
    if (L->family == LAD_FAM_MMA)
        mma_write(L, e, d, cd_threads);
    else if (L->family == LAD_FAM_WGMMA)
        wg_cd(L, d, cd_threads, e, 1);
    else
        tc_cd(L, d, cd_threads, e, 1);
}

/* The expected D of one case, computed from the case alone. */
static uint32_t case_expect(const lad_layout *L, const lad_case *cs)
{
    uint32_t acc = cs->c & mask(L->cdbits);
    for (int kk = 0; kk < L->k; kk++) {
        uint32_t p = (cs->a[kk] & mask(L->abits)) * (cs->b[kk] & mask(L->bbits));
        if (L->scale_block) {
            int blk = kk / L->scale_block;
            p *= ((uint32_t)cs->sa[blk] + 1) * ((uint32_t)cs->sb[blk] + 3);
        }
        acc += p;
    }
    return acc & mask(L->cdbits);
}

static void layout_name(const lad_layout *L, char *buf, size_t n)
{
    static const char *fam[] = {"", "mma", "wgmma", "tcgen05"};
    static const char *pack[] = {"", "p", "y"};
    char sc[16] = "";
    if (L->scale_block)
        snprintf(sc, sizeof sc, "-scaled%d", L->scale_block);
    snprintf(buf, n, "layout-%s-k%d-a%d%s-b%d%s-d%d%s", fam[L->family], L->k,
             L->abits, pack[L->apack], L->bbits, pack[L->bpack], L->cdbits, sc);
}

static void check_layout(const lad_layout *L)
{
    char name[96], check[160];
    int aw, bw, ct;
    layout_name(L, name, sizeof name);
    lad_layout_compact(L, &aw, &bw, &ct);
    int diag = lad_layout_diag(L);
    size_t n = (size_t)(3 * diag - 3); /* three tiles, the last one short */
    size_t tiles = (n + (size_t)diag - 1) / (size_t)diag;
    size_t cw = (size_t)L->cd_regs * (size_t)ct;
    lad_case *cs = calloc(n, sizeof *cs);
    uint32_t *a = calloc(tiles * (size_t)aw, 4), *b = calloc(tiles * (size_t)bw, 4);
    uint32_t *c = calloc(tiles * cw, 4), *d = calloc(tiles * cw, 4);
    uint32_t *s = calloc(tiles * (size_t)(L->s_words ? L->s_words : 1), 4);
    uint64_t *out = calloc(n, sizeof *out);
    emu *e = calloc(1, sizeof *e);
    for (size_t i = 0; i < n; i++) {
        for (int kk = 0; kk < L->k; kk++) {
            cs[i].a[kk] = rnd();  /* bits above the width must be ignored */
            cs[i].b[kk] = rnd();
        }
        cs[i].c = rnd();
        for (int blk = 0; blk < LAD_SCALEMAX; blk++) {
            cs[i].sa[blk] = (uint8_t)rnd();
            cs[i].sb[blk] = (uint8_t)rnd();
        }
    }
    lad_layout_pack_cases(L, cs, n, aw, bw, ct, a, b, c, L->scale_block ? s : NULL);
    int placed = 1, zeros = 1;
    for (size_t t = 0; t < tiles; t++) {
        emulate(L, a + t * (size_t)aw, aw, b + t * (size_t)bw, bw, c + t * cw,
                s + t * (size_t)L->s_words, ct, d + t * cw, e);
        /* The operands the instruction sees: case j of this tile in row j,
        ** column j and C[j][j]; zeros everywhere else. */
        for (int r = 0; r < L->m; r++)
            for (int kk = 0; kk < L->k; kk++) {
                size_t i = t * (size_t)diag + (size_t)r;
                uint32_t want = r < diag && i < n ? cs[i].a[kk] & mask(L->abits) : 0;
                if (e->A[r][kk] != want && r < diag)
                    placed = 0;
                else if (e->A[r][kk] != want)
                    zeros = 0;
            }
        for (int col = 0; col < L->n; col++)
            for (int kk = 0; kk < L->k; kk++) {
                size_t i = t * (size_t)diag + (size_t)col;
                uint32_t want = i < n ? cs[i].b[kk] & mask(L->bbits) : 0;
                if (e->B[kk][col] != want)
                    placed = 0;
            }
        for (int r = 0; r < L->m; r++)
            for (int col = 0; col < L->n; col++) {
                size_t i = t * (size_t)diag + (size_t)r;
                uint32_t want = r == col && i < n ? cs[i].c & mask(L->cdbits) : 0;
                if (e->C[r][col] != want && r == col)
                    placed = 0;
                else if (e->C[r][col] != want)
                    zeros = 0;
            }
        if (L->scale_block)
            for (int j = 0; j < diag; j++)
                for (int blk = 0; blk < L->nscales; blk++) {
                    size_t i = t * (size_t)diag + (size_t)j;
                    if (i < n && (e->SA[j][blk] != cs[i].sa[blk] ||
                                  e->SB[j][blk] != cs[i].sb[blk]))
                        placed = 0;
                }
    }
    snprintf(check, sizeof check, "%s-cases-placed", name);
    test_check(placed, check, "a case's A row, B column, C or scales are not "
               "where the documented layout puts them");
    snprintf(check, sizeof check, "%s-cases-others-zero", name);
    test_check(zeros, check, "elements outside the cases are not zero");
    lad_layout_unpack_cases(L, d, n, ct, out);
    size_t bad = n;
    for (size_t i = 0; i < n && bad == n; i++)
        if (out[i] != case_expect(L, &cs[i]))
            bad = i;
    snprintf(check, sizeof check, "%s-cases-d", name);
    test_check(bad == n, check, "case %zu: D read 0x%08" PRIx64 ", expected "
               "0x%08" PRIx32, bad, bad < n ? out[bad] : 0,
               bad < n ? case_expect(L, &cs[bad]) : 0);

    /* A whole tile: every element distinct. */
    static uint32_t A[128 * 64], B[64 * 8], C[128 * 8], D[128 * 8];
    static uint8_t SA[128 * 4], SB[8 * 4];
    for (int i = 0; i < L->m * L->k; i++)
        A[i] = rnd();
    for (int i = 0; i < L->k * L->n; i++)
        B[i] = rnd();
    for (int i = 0; i < L->m * L->n; i++)
        C[i] = rnd();
    for (int i = 0; i < 128 * 4; i++)
        SA[i] = (uint8_t)rnd();
    for (int i = 0; i < 8 * 4; i++)
        SB[i] = (uint8_t)rnd();
    uint32_t *ta = calloc((size_t)L->a_words, 4), *tb = calloc((size_t)L->b_words, 4);
    size_t tw = (size_t)L->cd_regs * (size_t)L->threads;
    uint32_t *tc = calloc(tw, 4), *td = calloc(tw, 4);
    uint32_t *ts = calloc((size_t)(L->s_words ? L->s_words : 1), 4);
    lad_layout_pack_tile(L, A, B, C, SA, SB, ta, tb, tc, L->scale_block ? ts : NULL);
    emulate(L, ta, L->a_words, tb, L->b_words, tc, ts, L->threads, td, e);
    lad_layout_unpack_tile(L, td, D);
    int tile_ok = 1;
    for (int r = 0; r < L->m && tile_ok; r++)
        for (int col = 0; col < L->n; col++) {
            uint32_t acc = C[r * L->n + col] & mask(L->cdbits);
            for (int kk = 0; kk < L->k; kk++) {
                uint32_t p = (A[r * L->k + kk] & mask(L->abits)) *
                             (B[kk * L->n + col] & mask(L->bbits));
                if (L->scale_block) {
                    int blk = kk / L->scale_block;
                    p *= ((uint32_t)SA[r * L->nscales + blk] + 1) *
                         ((uint32_t)SB[col * L->nscales + blk] + 3);
                }
                acc += p;
            }
            if ((acc & mask(L->cdbits)) != D[r * L->n + col])
                tile_ok = 0;
        }
    snprintf(check, sizeof check, "%s-tile", name);
    test_check(tile_ok, check, "a full tile's D differs from C + A*B");
    free(ta); free(tb); free(tc); free(td); free(ts);
    free(cs); free(a); free(b); free(c); free(d); free(s); free(out); free(e);
}

static void check_descriptors(void)
{
    /* Examples computed in ptx-notes sections 3.2, 4.3, 4.4. */
    TEST_EQ_U32("layout-desc-wgmma-lo", 0x00080040u,
                (uint32_t)(lad_desc_wgmma() | (0x400 >> 4)));
    TEST_EQ_U32("layout-desc-wgmma-hi", 0x00000010u,
                (uint32_t)((lad_desc_wgmma() | (0x400 >> 4)) >> 32));
    TEST_EQ_U32("layout-desc-tcgen05-hi", 0x00004010u,
                (uint32_t)((lad_desc_tcgen05() | (0x400 >> 4)) >> 32));
    TEST_EQ_U32("layout-idesc-bf16", 0x08020490u,
                lad_idesc_dense(LAD_ID_D_F32, LAD_ID_BF16, LAD_ID_BF16, 128, 8, 0));
    TEST_EQ_U32("layout-idesc-bf16-m64", 0x04020490u,
                lad_idesc_dense(LAD_ID_D_F32, LAD_ID_BF16, LAD_ID_BF16, 64, 8, 0));
    TEST_EQ_U32("layout-idesc-f16-f32", 0x08020010u,
                lad_idesc_dense(LAD_ID_D_F32, LAD_ID_F16, LAD_ID_F16, 128, 8, 0));
    TEST_EQ_U32("layout-idesc-f16-f16", 0x08020000u,
                lad_idesc_dense(LAD_ID_D_F16, LAD_ID_F16, LAD_ID_F16, 128, 8, 0));
    TEST_EQ_U32("layout-idesc-tf32", 0x08020910u,
                lad_idesc_dense(LAD_ID_D_F32, LAD_ID_TF32, LAD_ID_TF32, 128, 8, 0));
    TEST_EQ_U32("layout-idesc-e4m3xe5m2", 0x08020410u,
                lad_idesc_dense(LAD_ID_D_F32, LAD_ID_E4M3, LAD_ID_E5M2, 128, 8, 0));
    TEST_EQ_U32("layout-idesc-s8", 0x080204A0u,
                lad_idesc_dense(LAD_ID_D_S32, LAD_ID_S8, LAD_ID_S8, 128, 8, 0));
    TEST_EQ_U32("layout-idesc-mxf8f6f4", 0x08820000u,
                lad_idesc_scaled(LAD_ID_E4M3, LAD_ID_E4M3, 128, 8, 1));
    TEST_EQ_U32("layout-idesc-mxf4", 0x08820480u,
                lad_idesc_scaled(LAD_ID_MXF4_E2M1, LAD_ID_MXF4_E2M1, 128, 8, 1));
    TEST_EQ_U32("layout-idesc-nvf4", 0x08020480u,
                lad_idesc_scaled(LAD_ID_MXF4_E2M1, LAD_ID_MXF4_E2M1, 128, 8, 0));
}

/* The descriptor each tcgen05 row carries matches its formats. */
static int f8_code(const char *f)
{
    static const char *n[] = {"e4m3", "e5m2", "", "e2m3", "e3m2", "e2m1"};
    for (int i = 0; i < 6; i++)
        if (strcmp(n[i], f) == 0)
            return i;
    return -1;
}

static void check_table(void)
{
    int rows_ok = 1, idesc_ok = 1, seen = 0;
    const char *bad = "";
    for (int i = 0; i < lad_kernel_count(); i++) {
        const lad_kernel *k = lad_kernel_get(i);
        lad_layout L;
        lad_err err = {0};
        if (lad_kernel_layout(k, &L, &err) != LAD_OK) {
            rows_ok = 0;
            bad = k->name;
            continue;
        }
        for (int t = 0; t < LAD_NTARGETS; t++)
            if (((k->targets >> t) & 1) != (k->sass[t] != NULL)) {
                rows_ok = 0;
                bad = k->name;
            }
        if (k->family == LAD_FAM_TCGEN05 && strcmp(k->kind, "f8f6f4") == 0) {
            uint32_t want = lad_idesc_dense(strcmp(k->d, "f16") == 0
                                                ? LAD_ID_D_F16 : LAD_ID_D_F32,
                                            f8_code(k->a), f8_code(k->b), 128, 8, 0);
            if (want != k->idesc) {
                idesc_ok = 0;
                bad = k->name;
            }
            seen++;
        }
        if (k->family == LAD_FAM_TCGEN05 && strcmp(k->kind, "mxf8f6f4") == 0 &&
            k->idesc != lad_idesc_scaled(f8_code(k->a), f8_code(k->b), 128, 8, 1)) {
            idesc_ok = 0;
            bad = k->name;
        }
    }
    test_check(rows_ok, "kernels-table-rows", "row '%s' is inconsistent", bad);
    test_check(idesc_ok && seen == 50, "kernels-table-f8f6f4-idesc",
               "row '%s' (or %d f8f6f4 rows instead of 50)", bad, seen);

    TEST_EQ_INT("kernels-target-cc86", LAD_SM80, lad_target_for_cc(0xf, 86));
    TEST_EQ_INT("kernels-target-cc89", LAD_SM89, lad_target_for_cc(0xf, 89));
    TEST_EQ_INT("kernels-target-cc89-sm80-only", LAD_SM80, lad_target_for_cc(1, 89));
    TEST_EQ_INT("kernels-target-cc90", LAD_SM90A, lad_target_for_cc(0xf, 90));
    TEST_EQ_INT("kernels-target-cc100", LAD_SM100A, lad_target_for_cc(0xf, 100));
    TEST_EQ_INT("kernels-target-wgmma-cc100", -1,
                lad_target_for_cc(1u << LAD_SM90A, 100));
    TEST_EQ_INT("kernels-target-cc103", -1, lad_target_for_cc(0xf, 103));
    TEST_EQ_INT("kernels-target-cc120-before", -1, lad_target_for_cc(0xf, 120));
    TEST_EQ_INT("kernels-target-cc120", LAD_SM120A, lad_target_for_cc(0x1f, 120));
    TEST_EQ_INT("kernels-target-cc121", -1, lad_target_for_cc(0x1f, 121));
    TEST_EQ_INT("kernels-target-sm120-cc100", LAD_SM100A, lad_target_for_cc(0x1f, 100));
    TEST_EQ_INT("kernels-target-cc75", -1, lad_target_for_cc(0xf, 75));

    /* Every dense preset of an instruction the kernels implement finds its
    ** kernel, with the same opcode on the preset's architecture. The
    ** kernels hold 32-bit words: f64 mma (DMMA) has none. */
    int found = 0, missing = 0, sass_ok = 1;
    char miss[64] = "", sbad[64] = "";
    for (int i = 0; i < lad_preset_count(); i++) {
        const lad_datapath *dp = &lad_preset_get(i)->dp;
        int t = strcmp(dp->arch, "sm_80") == 0 ? LAD_SM80
              : strcmp(dp->arch, "sm_89") == 0 ? LAD_SM89
              : strcmp(dp->arch, "sm_90a") == 0 ? LAD_SM90A
              : strcmp(dp->arch, "sm_100a") == 0 ? LAD_SM100A
              : strcmp(dp->arch, "sm_120") == 0 || strcmp(dp->arch, "sm_120a") == 0
                    ? LAD_SM120A : -1;
        if (t < 0 || dp->sparse || dp->d.width > 32)
            continue;
        const lad_kernel *k;
        lad_err err = {0};
        if (lad_kernel_for(dp, &k, &err) != LAD_OK) {
            missing++;
            snprintf(miss, sizeof miss, "%s", dp->name);
            continue;
        }
        found++;
        if (!k->sass[t] || strncmp(k->sass[t], dp->sass, strlen(dp->sass)) != 0) {
            sass_ok = 0;
            snprintf(sbad, sizeof sbad, "%s", dp->name);
        }
    }
    test_check(missing == 0 && found > 0, "kernels-for-presets",
               "%d presets without a kernel (e.g. '%s'), %d found", missing,
               miss, found);
    /* A kind must match: the kind-less fp8 mma.sync kernel is not the
    ** kind::f8f6f4 instruction of the same formats. */
    const lad_kernel *kk;
    lad_err kerr = {0};
    const lad_preset *f8 = lad_preset_find("sm120-mma-f8f6f4-e4m3-f32");
    const lad_preset *plain = lad_preset_find("sm120-mma-e4m3-f32");
    test_check(f8 && lad_kernel_for(&f8->dp, &kk, &kerr) == LAD_OK &&
                   strcmp(kk->name, "lad_mma_f8f6f4_m16n8k32_f32_e4m3_e4m3") == 0,
               "kernels-for-kind-f8f6f4", "the kind::f8f6f4 preset found %s",
               f8 && lad_kernel_for(&f8->dp, &kk, &kerr) == LAD_OK ? kk->name : kerr.msg);
    test_check(plain && lad_kernel_for(&plain->dp, &kk, &kerr) == LAD_OK &&
                   strcmp(kk->name, "lad_mma_m16n8k32_f32_e4m3_e4m3") == 0,
               "kernels-for-kindless-fp8", "%s", kerr.msg);
    test_check(sass_ok, "kernels-presets-sass",
               "preset '%s' names another opcode than its kernel", sbad);
    /* The other way: every sm_120a row but the integer ones is the kernel
    ** of an sm120 preset, so `ladder survey --device cuda:N` on an RTX
    ** Blackwell GPU climbs each (the integer rows take Hopper's presets). */
    int rows120 = 0, orphans = 0;
    char orphan[64] = "";
    for (int i = 0; i < lad_kernel_count(); i++) {
        const lad_kernel *k = lad_kernel_get(i);
        if (!(k->targets & (1u << LAD_SM120A)) || k->a[0] == 's' || k->a[0] == 'u')
            continue;
        rows120++;
        int hit = 0;
        for (int j = 0; j < lad_preset_count() && !hit; j++) {
            const lad_datapath *dp = &lad_preset_get(j)->dp;
            const lad_kernel *pk;
            lad_err e2 = {0};
            hit = strncmp(dp->arch, "sm_120", 6) == 0 && !dp->sparse &&
                  lad_kernel_for(dp, &pk, &e2) == LAD_OK && pk == k;
        }
        if (!hit) {
            orphans++;
            snprintf(orphan, sizeof orphan, "%s", k->name);
        }
    }
    test_check(orphans == 0 && rows120 >= 100, "kernels-sm120a-rows-have-presets",
               "%d of %d sm_120a rows have no sm120 preset (e.g. '%s')", orphans, rows120,
               orphan);
}

/* The opcodes in the embedded cubins (builds with nvcc only). */
static void check_cubins(void)
{
    if (!lad_cuda_built()) {
        test_check(1, "kernels-cubins-skipped", "%s", "");
        printf("     (built without nvcc: no cubins to check)\n");
        return;
    }
    int ok = 1, checked = 0;
    char why[600] = "";
    for (int i = 0; i < lad_kernel_count(); i++) {
        const lad_kernel *k = lad_kernel_get(i);
        for (int t = 0; t < LAD_NTARGETS; t++) {
            size_t size;
            const void *img = lad_cubin_get(k->file, t, &size);
            if (!k->sass[t] || !img)
                continue;
            char found[64];
            lad_err err = {0};
            if (lad_cubin_check(img, size, k->name, k->sass[t], found,
                                sizeof found, &err) != LAD_OK) {
                ok = 0;
                snprintf(why, sizeof why, "%s: %s", lad_target_name(t), err.msg);
            }
            checked++;
        }
    }
    test_check(ok && checked > 0, "kernels-cubins-opcodes", "%s", why);
    /* fp8 mma.sync: native on sm_89, two f16 HMMAs on sm_90a. */
    char names[8][32];
    size_t size;
    const void *img = lad_cubin_get("mma_sync", LAD_SM90A, &size);
    int n = img ? lad_cubin_tensor_ops(img, size, "lad_mma_m16n8k32_f32_e4m3_e4m3",
                                       names, 8) : -1;
    test_check(!img || (n == 2 && strcmp(names[0], "HMMA.16816.F32") == 0 &&
                        strcmp(names[1], "HMMA.16816.F32") == 0),
               "kernels-cubin-fp8-sm90a-hmma", "%d tensor ops, first '%s'", n,
               n > 0 ? names[0] : "");
    /* tf32 m16n8k4 and m16n8k8 differ in one bit of the second word. */
    img = lad_cubin_get("mma_sync", LAD_SM80, &size);
    n = img ? lad_cubin_tensor_ops(img, size, "lad_mma_m16n8k4_f32_tf32", names, 8) : -1;
    int n8 = img ? lad_cubin_tensor_ops(img, size, "lad_mma_m16n8k8_f32_tf32", names + 1, 7)
                 : -1;
    test_check(!img || (n == 1 && n8 == 1 && strcmp(names[0], "HMMA.1684.F32.TF32") == 0 &&
                        strcmp(names[1], "HMMA.1688.F32.TF32") == 0),
               "kernels-cubin-tf32-k4-k8", "%d and %d tensor ops, '%s' and '%s'", n, n8,
               n > 0 ? names[0] : "", n8 > 0 ? names[1] : "");
    img = lad_cubin_get("mma_sync", LAD_SM89, &size);
    n = img ? lad_cubin_tensor_ops(img, size, "lad_mma_m16n8k32_f32_e4m3_e4m3",
                                   names, 8) : -1;
    test_check(!img || (n == 1 && strcmp(names[0], "QMMA") == 0),
               "kernels-cubin-fp8-sm89-qmma", "%d tensor ops, first '%s'", n,
               n > 0 ? names[0] : "");
    /* sm_120a: fp8 native, the block-scaled kinds QMMA.SF and OMMA.SF. */
    static const char *const k120[][2] = {
        {"lad_mma_m16n8k32_f32_e4m3_e4m3", "QMMA"},
        {"lad_mma_f8f6f4_m16n8k32_f32_e2m1_e3m2", "QMMA"},
        {"lad_mma_mxf8f6f4_m16n8k32_f32_e2m3_e4m3", "QMMA.SF"},
        {"lad_mma_mxf4_m16n8k64_f32", "OMMA.SF"},
        {"lad_mma_mxf4nvf4_4x_m16n8k64_f32", "OMMA.SF"}};
    img = lad_cubin_get("mma_sync", LAD_SM120A, &size);
    for (size_t i = 0; i < sizeof k120 / sizeof k120[0]; i++) {
        char check[96];
        n = img ? lad_cubin_tensor_ops(img, size, k120[i][0], names, 8) : -1;
        snprintf(check, sizeof check, "kernels-cubin-sm120a-%s", k120[i][0] + 8);
        test_check(!img || (n == 1 && strcmp(names[0], k120[i][1]) == 0), check,
                   "%d tensor ops, first '%s'", n, n > 0 ? names[0] : "");
    }
    /* a QMMA.SF kernel is not the plain QMMA it would be with the same
    ** formats, nor the other way round */
    char found[64];
    lad_err cerr = {0};
    test_check(!img || lad_cubin_check(img, size, "lad_mma_f8f6f4_m16n8k32_f32_e4m3_e4m3",
                                       "QMMA.SF.16832.F32.E4M3.E4M3.E8", found,
                                       sizeof found, &cerr) != LAD_OK,
               "kernels-cubin-qmma-not-sf", "a plain QMMA passed for QMMA.SF");
    test_check(!img || lad_cubin_check(img, size, "lad_mma_mxf8f6f4_m16n8k32_f32_e4m3_e4m3",
                                       "QMMA.16832.F32.E4M3.E4M3", found,
                                       sizeof found, &cerr) != LAD_OK,
               "kernels-cubin-sf-not-qmma", "QMMA.SF passed for a plain QMMA");
}

/* The half-K mma.sync shapes: two A registers and one B register, at the
** places the PTX ISA's fragment tables give (g = lane/4, t = lane%4). */
static void check_half_k(void)
{
    lad_layout L;
    lad_err err = {0};
    int rc = lad_layout_init(&L, LAD_FAM_MMA, 8, 16, LAD_PACK_DENSE, 16, LAD_PACK_DENSE,
                             32, 0, &err);
    TEST_EQ_INT("layout-mma-k8-f16-accepted", LAD_OK, rc);
    /* m16n8k8 f16: a1 holds row g+8, cols 2t, 2t+1; b0 rows 2t, 2t+1 of col g */
    TEST_EQ_INT("layout-mma-k8-f16-a", (32 + 7) * 32 + 16, (long)lad_layout_a_bit(&L, 9, 7));
    TEST_EQ_INT("layout-mma-k8-f16-b", 14 * 32 + 16, (long)lad_layout_b_bit(&L, 5, 3));
    rc = lad_layout_init(&L, LAD_FAM_MMA, 4, 32, LAD_PACK_DENSE, 32, LAD_PACK_DENSE, 32, 0,
                         &err);
    TEST_EQ_INT("layout-mma-k4-tf32-accepted", LAD_OK, rc);
    /* m16n8k4 tf32: a1 is row g+8, col t; b0 row t, col g */
    TEST_EQ_INT("layout-mma-k4-tf32-a", (32 + 11) * 32, (long)lad_layout_a_bit(&L, 10, 3));
    TEST_EQ_INT("layout-mma-k4-tf32-b", 22 * 32, (long)lad_layout_b_bit(&L, 2, 5));
    rc = lad_layout_init(&L, LAD_FAM_MMA, 16, 8, LAD_PACK_DENSE, 8, LAD_PACK_DENSE, 16, 0,
                         &err);
    TEST_EQ_INT("layout-mma-k16-fp8-accepted", LAD_OK, rc);
    /* m16n8k16 fp8: a0 is row g, cols 4t..4t+3; b0 rows 4t..4t+3 of col g */
    TEST_EQ_INT("layout-mma-k16-fp8-a", 6 * 32 + 8, (long)lad_layout_a_bit(&L, 1, 9));
    TEST_EQ_INT("layout-mma-k16-fp8-b", 29 * 32 + 24, (long)lad_layout_b_bit(&L, 7, 7));
    rc = lad_layout_init(&L, LAD_FAM_WGMMA, 8, 16, LAD_PACK_DENSE, 16, LAD_PACK_DENSE, 32, 0,
                         &err);
    TEST_EQ_INT("layout-wgmma-k8-f16-refused", LAD_EINTERNAL, rc);
}

void test_layout(void)
{
    check_half_k();
    check_descriptors();
    check_table();
    /* Every distinct layout of the kernel table. */
    char done[128][96];
    int ndone = 0;
    for (int i = 0; i < lad_kernel_count(); i++) {
        lad_layout L;
        lad_err err = {0};
        char name[96];
        if (lad_kernel_layout(lad_kernel_get(i), &L, &err) != LAD_OK)
            continue;
        layout_name(&L, name, sizeof name);
        int seen = 0;
        for (int j = 0; j < ndone; j++)
            if (strcmp(done[j], name) == 0)
                seen = 1;
        if (seen || ndone == 128)
            continue;
        snprintf(done[ndone++], sizeof done[0], "%s", name);
        check_layout(&L);
    }
    check_cubins();
}
