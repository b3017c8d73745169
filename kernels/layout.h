/*
** Fragment layouts: where each element of A, B, C and D sits when one
** tensor-core instruction runs, and the packing of cases into those places.
**
** The CUDA kernels (kernels/mma_sync.cu, wgmma.cu, tcgen05.cu) never decide a layout: they load images
** packed here, run their one instruction and store the result registers.
** Every layout decision is therefore plain C, used by the launcher and
** tested on the CPU against the documented layouts (tests/unit/test_layout.c
** emulates the lanes), so a layout error cannot pass for an arithmetic
** finding. Sources: docs/reference/ptx-notes.md sections 2-4 (PTX ISA
** fragment tables, CUTLASS layouts).
**
** Images. One tile is one instruction. Its images are arrays of 32-bit
** words; an element is addressed by its bit index in the image (element
** bits never cross a word except for 6-bit elements, whose bytes are
** contiguous in shared memory, so bit indices stay exact):
**
**   mma.sync   A, B, C, D: registers, image word = reg * 32 + lane.
**   wgmma      A, B: the shared-memory bytes (K-major, no swizzle, core
**              matrices of 8 rows x 16 bytes; LBO 128, SBO 256), little
**              endian; B stored as N rows of 32 bytes. C, D: registers,
**              image word = reg * cd_threads + thread.
**   tcgen05    A, B as wgmma (128 rows of A); D in tensor memory, read with
**              tcgen05.ld.32x32b.x8: thread = row, reg = column, one element
**              per 32-bit word (16-bit D in the low half). Scales (block-
**              scaled kinds): 4 SFA columns x 32 lanes, then 1 SFB column x
**              32 lanes; row m at lane m%32 of column m/32, byte = K block.
**
** Every row of A and every column of B holds exactly 256 bits of K in all
** the instructions here, whatever the element width.
**
** Cases. With the diagonal mapping, case j of tile t sits in row j of A,
** column j of B and C[j][j]; D[j][j] is its result, for j < min(M, N) = 8.
** All other elements are zero, so every case is independent of the others.
*/
#ifndef LADDER_KERNELS_LAYOUT_H
#define LADDER_KERNELS_LAYOUT_H

#include <stddef.h>
#include <stdint.h>
#include "../model/datapath.h"

enum lad_family {
    LAD_FAM_MMA = 1,      /* mma.sync, one warp, m16n8 */
    LAD_FAM_WGMMA = 2,    /* wgmma.mma_async SS, one warpgroup, m64n8 */
    LAD_FAM_TCGEN05 = 3   /* tcgen05.mma cta_group::1 SS, m128n8, D in TMEM */
};

/* How elements narrower than a byte sit in a row of shared memory. */
enum lad_pack {
    LAD_PACK_DENSE = 0,   /* element k at bit k*bits of the row */
    LAD_PACK_PAD16 = 1,   /* groups of 16 elements packed LSB first into the
                             low bytes of a 16-byte slot, rest padding (fp4 and
                             fp6 under tcgen05 kind::f8f6f4 and mxf8f6f4) */
    LAD_PACK_BYTE = 2     /* mma.sync registers: one element per byte, as an
                             8-bit element would sit; e2m1 in bits 5..2, fp6
                             in bits 5..0 (sm_120a kind::f8f6f4, mxf8f6f4) */
};

#define LAD_TILE_N 8          /* N of every instruction here */
#define LAD_TILE_MMAX 128     /* largest M (tcgen05) */
#define LAD_SFA_COLS 4        /* scale image: SFA tensor-memory columns */

typedef struct lad_layout {
    int family;       /* enum lad_family */
    int m, n, k;      /* instruction shape: rows of A, columns of B, K */
    int abits, bbits; /* bits one A/B element occupies: 32, 16, 8, 6, 4 */
    int apack, bpack; /* enum lad_pack */
    int cdbits;       /* bits of one C/D element: 32 or 16 */
    int threads;      /* threads that execute one instruction: 32 or 128 */
    int a_words;      /* 32-bit words of a full A image */
    int b_words;      /* words of a full B image */
    int cd_regs;      /* C/D registers per thread */
    int scale_block;  /* K elements per scale; 0 when unscaled */
    int nscales;      /* scale blocks per row (k / scale_block), or 0 */
    int s_words;      /* words of a scale image; 0 when unscaled */
} lad_layout;

/* Fills L for one instruction. Returns LAD_OK, or LAD_EINTERNAL with a
** message when the combination is not one this module knows (row bits not
** 256, unknown family, scale block not dividing k). */
int lad_layout_init(lad_layout *L, int family, int k, int abits, int apack,
                    int bbits, int bpack, int cdbits, int scale_block,
                    lad_err *err);

/* Bit index, in a tile's A image, of element A[row][kk]. */
size_t lad_layout_a_bit(const lad_layout *L, int row, int kk);
/* Bit index, in a tile's B image, of element B[kk][col]. */
size_t lad_layout_b_bit(const lad_layout *L, int kk, int col);
/* Thread, register and bit shift of C/D element [row][col]. */
void lad_layout_cd(const lad_layout *L, int row, int col, int *thread,
                   int *reg, int *shift);
/* Bit index, in a C/D image of cd_threads threads per register, of
** element [row][col]; cd_threads must exceed the element's thread. */
size_t lad_layout_cd_bit(const lad_layout *L, int row, int col,
                         int cd_threads);
/* Bit index of a scale byte in a tile's scale image: A's scale for row
** `idx` (b == 0) or B's for column `idx` (b == 1), block `blk`. */
size_t lad_layout_s_bit(const lad_layout *L, int b, int idx, int blk);

/* Writes the low `width` bits of v at bit index `bit` of img (the bits
** there must be zero). */
void lad_bits_put(uint32_t *img, size_t bit, int width, uint32_t v);
/* Reads `width` bits at bit index `bit` of img. */
uint32_t lad_bits_get(const uint32_t *img, size_t bit, int width);

/* Cases per tile with the diagonal mapping: min(m, n). */
int lad_layout_diag(const lad_layout *L);

/* The smallest images that carry the diagonal cases: *a_words is a prefix
** of the A image (the kernel zero-fills the rest), *b_words of B, and
** *cd_threads the threads (a multiple of 32) whose C/D registers travel. */
void lad_layout_compact(const lad_layout *L, int *a_words, int *b_words,
                        int *cd_threads);

/* Packs cases cs[0..n) into ceil(n/diag) tiles with the diagonal mapping.
** a, b, c and s (s only for scaled layouts, else NULL) must hold that many
** tiles of a_words, b_words, cd_regs * cd_threads and s_words words; they
** are cleared first. Elements are masked to their width. */
void lad_layout_pack_cases(const lad_layout *L, const lad_case *cs, size_t n,
                           int a_words, int b_words, int cd_threads,
                           uint32_t *a, uint32_t *b, uint32_t *c, uint32_t *s);

/* Reads the D words of cases [0, n) from a D image packed like c above.
** Words are returned at their width (16-bit D in the low bits). */
void lad_layout_unpack_cases(const lad_layout *L, const uint32_t *d, size_t n,
                             int cd_threads, lad_word_t *out);

/* One whole tile: A is m x k row-major, B is k x n row-major (B[kk*n+col]),
** C and D m x n row-major, sa m x nscales and sb n x nscales (NULL when
** unscaled). Images are full size (cd_threads = threads) and cleared first. */
void lad_layout_pack_tile(const lad_layout *L, const uint32_t *A,
                          const uint32_t *B, const uint32_t *C,
                          const uint8_t *sa, const uint8_t *sb,
                          uint32_t *a, uint32_t *b, uint32_t *c, uint32_t *s);
void lad_layout_unpack_tile(const lad_layout *L, const uint32_t *d,
                            uint32_t *D);

/* Shared-memory matrix descriptor with a zero start address, for the
** K-major no-swizzle layout above (LBO 128, SBO 256); the kernel adds
** (address & 0x3FFFF) >> 4. tcgen05 also sets the fixed version bits 46-48
** to 0b001. */
uint64_t lad_desc_wgmma(void);
uint64_t lad_desc_tcgen05(void);

/* tcgen05 instruction-descriptor format codes (PTX ISA table 42). */
enum lad_idesc_code {
    LAD_ID_F16 = 0, LAD_ID_BF16 = 1, LAD_ID_TF32 = 2,             /* f16, tf32 */
    LAD_ID_E4M3 = 0, LAD_ID_E5M2 = 1, LAD_ID_E2M3 = 3, LAD_ID_E3M2 = 4,
    LAD_ID_E2M1 = 5,                                              /* f8f6f4 */
    LAD_ID_U8 = 0, LAD_ID_S8 = 1,                                 /* i8 */
    LAD_ID_MXF4_E2M1 = 1,                                         /* mxf4* */
    LAD_ID_D_F16 = 0, LAD_ID_D_F32 = 1, LAD_ID_D_S32 = 2          /* D */
};

/* Instruction descriptor of a dense kind (tf32, f16, f8f6f4, i8): K-major
** A and B, no negation, no sparsity. m is 64 or 128, n a multiple of 8. */
uint32_t lad_idesc_dense(int dcode, int acode, int bcode, int m, int n,
                         int saturate);
/* Instruction descriptor of a block-scaled kind; ue8m0 selects the UE8M0
** scale type (else UE4M3); scale-factor ids 0. */
uint32_t lad_idesc_scaled(int acode, int bcode, int m, int n, int ue8m0);

#endif
