/*
** The block kernel of lad_gemm: one MMA of the datapath for eight output
** columns at once (sixteen on AVX-512), on operands decoded once per GEMM.
**
** lad_gemm (program.c) otherwise runs the prepared plan per output element
** and per instruction, decoding every A and B word again for each of the N
** columns and M rows it meets. Here B is decoded once into column blocks of
** LAD_BLOCK_W (LAD_BLOCK_WMAX where the chain runs on AVX-512; raw exponent
** and magnitude with its sign, as 32-bit integers, lanes in the order they
** fill the passes), each A row once per thread, and each pass of an MMA is
** summed for the block's columns side by side in 32-bit vector lanes
** (AVX-512 or AVX2 where the CPU has it): anchor, alignment
** toward zero, sum; then each column's pass sum is rounded by round64's
** rules (and a C added last, exactly, then rounded the same way), in the
** lanes along a chain of MMAs where the datapath allows (lad_block_chain),
** by round64 and lad_add_terms per column otherwise.
**
** The kernel takes only datapaths where that is the whole algorithm
** (lad_block_ok): the plan's fast path, passes that chain, alignment toward
** zero, and window sums that fit 31 bits (32 for a pass summed in two
** halves). A block-scaled datapath is taken when its scale pairs are
** powers of two and its groups single lanes (mxf8f6f4): it is then the
** unscaled datapath with each lane's exponents moved by its block's scales,
** which the kernel folds into the decoded A and B. Words it does not do (a
** NaN or Inf operand or scale, a C that is special, an accumulator that
** overflows) mark the column dead; lad_gemm then computes that output
** element by the general per-element code. The words are those of
** lad_plan_eval.
**
** The same pass runs dense cases side by side in the case kernel
** (cases_kernel.h), which the plan calls.
*/
#ifndef LADDER_MODEL_GEMM_KERNEL_H
#define LADDER_MODEL_GEMM_KERNEL_H

#include "datapath.h"
#include "cases_kernel.h"

/* The builds lad_block_init lets the kernel run. */
enum lad_block_isa {
    LAD_BLOCK_BEST = 0,   /* the best the CPU has: blocks of LAD_BLOCK_WMAX
                             columns on AVX-512 where the chain keeps its
                             lanes, else of LAD_BLOCK_W, AVX2 where present */
    LAD_BLOCK_AVX2 = 1,   /* blocks of LAD_BLOCK_W, AVX2 where present: the
                             AVX2 build's test on AVX-512 CPUs */
    LAD_BLOCK_PORTABLE = 2 /* blocks of LAD_BLOCK_W, the generic build */
};

/* A raw exponent that no nonzero operand has: a zero's. Two of them, or
** one beside any real raw exponent (|raw| < 2^16), stay below
** LAD_BLOCK_NONE, and far from int32's end. */
#define LAD_BLOCK_ZERO (-(1 << 24))
#define LAD_BLOCK_NONE (-(1 << 22))

typedef struct lad_block {
    lad_plan pl;        /* the datapath's plan: formats, alignment, dp */
    int K;              /* the GEMM's K, a multiple of dp->k */
    int N;              /* columns of B */
    int w;              /* columns per block: LAD_BLOCK_W or LAD_BLOCK_WMAX */
    int nblk;           /* column blocks, ceil(N / w) */
    int32_t *braw;      /* [blk][k][col]: raw exponent, unbiased; LAD_BLOCK_ZERO for 0 */
    int32_t *bmag;      /* [blk][k][col]: magnitude, the sign in bit 31 */
    unsigned char *bbad;/* [col]: 1 when the column holds a NaN or Inf */
    int lanes;          /* 1: lad_block_chain keeps the running values in
                           lanes (gemm_kernel.c, lanes_ok); 0: it runs
                           lad_block_mma per MMA */
    int halves;         /* 1: a pass's products are summed in two halves,
                           its whole sum needing 32 bits (lad_block_ok) */
    lad_datapath udp;   /* a block-scaled datapath without its scales: the
                           one pl computes (gemm_kernel.c) */
    int32_t ash[256];   /* the exponent each A scale code adds to its lanes
                           (LAD_BLOCK_ZERO: none, a NaN) */
    int32_t bsh[256];   /* the same for B's scale codes */
    uint64_t *code[2];  /* A's and B's words decoded (code_of), by word: a
                           table of 2^width (lad_block_fill), or NULL */
    size_t ncode[2];    /* the tables' sizes, 0 without */
    int filled;         /* 1: lad_block_init filled them (small ones) */
    const lad_word_t *B;/* B and its scales, as lad_block_init was given */
    int ldb, ldsb;
    const uint8_t *SB;
    int sblock;         /* lanes per scale; 0: no scales */
    int lblk[LAD_KMAX]; /* with scales: the scale block, within its MMA, of
                           position l of its passes (lane_of(l) / sblock) */
} lad_block;

/* One A row decoded for the kernel: K lanes, in pass order. */
typedef struct lad_block_row {
    int32_t *raw;       /* raw exponent, unbiased; LAD_BLOCK_ZERO for 0 */
    uint32_t *mag;      /* magnitude shifted up by the plan's up */
    int32_t *sgn;       /* 0 or -1 */
    int bad;            /* 1 when the row holds a NaN or Inf */
} lad_block_row;

/* Whether the kernel computes dp's MMAs exactly as lad_plan_eval. */
int lad_block_ok(const lad_datapath *dp);

/* Prepares the blocks of B (K x N, row k at B + k*ldb; B is kept, not
** copied, until lad_block_decode), for the builds isa allows (enum
** lad_block_isa). dp must pass lad_block_ok and K be a multiple of dp->k. For a block-scaled dp, SB holds B's scales (K /
** dp->scale_block x N, row kb at SB + kb*ldsb), each a power of two that
** moves the exponents of its lanes; NULL otherwise. Returns LAD_OK or
** LAD_EINTERNAL (out of memory). */
int lad_block_init(lad_block *bk, const lad_datapath *dp, const lad_word_t *B, int ldb,
                   const uint8_t *SB, int ldsb, int K, int N, int isa);

/* Fills part t of n of the tables of decoded words (lad_block.code; the
** parts together, before any decoding, where there are tables and
** lad_block_init has not filled them): threads may fill their parts at the
** same time. */
void lad_block_fill(lad_block *bk, int t, int n);

/* Decodes column blocks [blk0, blk1) of B: every block once before the
** kernel runs; threads may decode disjoint ranges at the same time. */
void lad_block_decode(lad_block *bk, int blk0, int blk1);
void lad_block_free(lad_block *bk);

/* Buffers for one A row; returns LAD_OK or LAD_EINTERNAL. */
int lad_block_row_alloc(const lad_block *bk, lad_block_row *row);
void lad_block_row_free(lad_block_row *row);
/* Decodes row a (K words; sa: its K / dp->scale_block scales for a
** block-scaled dp, else NULL) into row. */
void lad_block_row_decode(const lad_block *bk, const lad_word_t *a, const uint8_t *sa,
                          lad_block_row *row);

/* One MMA: lanes [k0, k0 + dp->k) of row and of block blk's columns (a
** block of LAD_BLOCK_W: lad_block_chain calls it where the chain cannot
** keep its lanes, whose blocks are never wider), the addend c[col] (a word
** of dp->c). Leaves the D words in c. A column whose
** bit is set in *dead is skipped; one the kernel cannot do gets its bit set
** (its word in c is then meaningless). */
void lad_block_mma(const lad_block *bk, const lad_block_row *row, int blk, int k0,
                   lad_word_t *c, unsigned *dead);

/* MMAs k0, k0 + dp->k, ... below k1 of block blk, each one's D the next
** one's C, for nr A rows (1 or 2; two run side by side, their chains
** overlapping in the CPU): c[r][] in (words of dp->c), the last D words
** out, dead[r] as lad_block_mma, for rows[r]. The words are those of
** lad_block_mma in a loop; where the datapath allows, the running value
** stays decoded between passes and MMAs and each pass's rounding is done
** in vector lanes. */
void lad_block_chain(const lad_block *bk, const lad_block_row *const *rows, int nr, int blk,
                     int k0, int k1, lad_word_t *const *c, unsigned *dead);

#endif
