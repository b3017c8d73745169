/*
** Programs of instructions: a GEMM kernel as data over one datapath.
**
** A kernel computes each output element D[i][j] from row i of A (M x K) and
** column j of B (K x N) with many MMAs of the datapath's K. The program says
** how they are combined, in this order:
**
**   1. K slices (split): K is cut into `split` contiguous slices of K/split,
**      each a multiple of the instruction's K. Slice 0 starts from C (or +0
**      when there is no C), the others from +0.
**   2. Main loop, in each slice: the MMAs take the slice's K steps in order.
**      With promote == 0 they chain through the accumulator: the D word of
**      one MMA is the C word of the next (the datapath's d and c formats
**      must hold the same values). With promote == n, the MMA restarts from
**      C = +0 every n MMAs and its D is added into an f32 accumulator kept
**      on CUDA cores (one f32 addition, round to nearest even, as an FADD):
**      DeepSeek-V3's fp8 GEMMs promote every 4 wgmma of K 32.
**   3. Reduction (split > 1): the slice results are added in f32 (round to
**      nearest even), serially in slice order or as a pairwise tree.
**   4. Epilogue: when the per-tensor scales are not both 1, alpha =
**      scale_a * scale_b and the value times alpha, each one f32
**      multiplication rounded to nearest even; then the value is rounded
**      into the output format with out_round and out_overflow.
**
** The value after each step is a word of its own format: dp->d in a plain
** chain, f32 once promoted, reduced or scaled. With out unset (width 0) the
** output is that word as it is, so a plain chain returns the D registers.
**
** Every addition and multiplication is exact and then rounded once, on
** integers: no host floating point. The f32 additions follow IEEE 754
** (-0 + -0 is -0, x - x is +0, NaN results are the canonical 0x7fffffff).
*/
#ifndef LADDER_MODEL_PROGRAM_H
#define LADDER_MODEL_PROGRAM_H

#include "datapath.h"

enum lad_reduce {
    LAD_REDUCE_SERIAL = 0,  /* ((s0 + s1) + s2) + ... */
    LAD_REDUCE_TREE = 1     /* (s0 + s1) + (s2 + s3), pairs of pairs, ... */
};

#define LAD_SPLITMAX 64     /* K slices at most */

typedef struct lad_program {
    char name[64];          /* preset name, or "" */
    char evidence[160];     /* what backs it; presets say "assumption: ..." */
    int promote;            /* 0: chain every MMA; n: promote every n MMAs */
    int split;              /* K slices, 1..LAD_SPLITMAX */
    int reduce;             /* enum lad_reduce */
    uint32_t scale_a;       /* per-tensor scale of A, an f32 word */
    uint32_t scale_b;       /* per-tensor scale of B, an f32 word */
    lad_format out;         /* output format; width 0: the value's own */
    int out_round;          /* enum lad_round, into out */
    int out_overflow;       /* enum lad_ovf, into out */
} lad_program;

/* The plain program: one slice, chained MMAs, scales 1, output = D. */
void lad_program_init(lad_program *prog);

/* Sets one field from its text, as a program file spells it: promote,
** split (decimal), reduce (serial, tree), scale_a, scale_b (an f32 word in
** hex, 0x3f800000 for 1), out (a built-in format name, or `acc` for the
** value's own), out_round (rz rne ru rd rna), out_overflow (inf sat ieee),
** name, evidence. Returns LAD_OK, or LAD_EDATA naming the key. */
int lad_program_set(lad_program *prog, const char *key, const char *value,
                    lad_err *err);

/* The NULL-terminated list of keys lad_program_set takes. */
extern const char *const lad_program_keys[];

/* Checks that prog can run on dp for a K of k (k <= 0: any K): the datapath
** is dense, unscaled and float (block scales and sparsity metadata are not
** GEMM operands here), d holds c's values when MMAs chain, and K splits
** into whole instructions. Returns LAD_OK or LAD_EDATA. */
int lad_program_check(const lad_datapath *dp, const lad_program *prog, int k,
                      lad_err *err);

/* The format of the words lad_gemm writes into D. */
const lad_format *lad_program_out(const lad_datapath *dp, const lad_program *prog);

/* The format of an operand: 'a', 'b', 'c' (dp's) or 'd' (lad_program_out);
** NULL for another letter. For bindings that cannot read the structs. */
const lad_format *lad_program_operand(const lad_datapath *dp, const lad_program *prog,
                                      int which);

/* sizeof(lad_program), for bindings that allocate one without this header. */
size_t lad_program_size(void);

/* Program presets: common kernel shapes, compiled in. None is confirmed by
** a GPU run yet; their evidence says so. */
int lad_program_preset_count(void);
const lad_program *lad_program_preset_get(int i);
const lad_program *lad_program_preset_find(const char *name);

/*
** D = the program over A (M x K, row i at A + i*lda), B (K x N, row k at
** B + k*ldb) and C (M x N, may be NULL: +0), into D (M x N, row i at
** D + i*ldd). Words are raw, in the low bits (A and B in dp's a and b
** formats, C in c's, D in lad_program_out's). prog NULL is the plain
** program. threads <= 0 uses every online CPU. Each thread has its own plan
** (lad_plan_init); nothing mutable is shared, so calls may run at once.
** Returns LAD_OK, LAD_EDATA when lad_program_check fails or a size is bad,
** LAD_EINTERNAL when out of memory or a thread cannot start; err, when not
** NULL, receives the message.
*/
int lad_gemm_err(const lad_datapath *dp, const lad_program *prog, int M, int N,
                 int K, const lad_word_t *A, int lda, const lad_word_t *B, int ldb,
                 const lad_word_t *C, int ldc, lad_word_t *D, int ldd, int threads,
                 lad_err *err);

/*
** Progress of a GEMM: done of total pieces of work (outputs of D, or on
** the block kernel a row's block of outputs) so far, step "gemm". The shape of util/progress.h's lad_progress_fn, so that ladder's
** progress line takes it as it is.
*/
typedef void (*lad_gemm_progress_fn)(void *ctx, const char *step, size_t done,
                                     size_t total);
#define LAD_GEMM_TICK 256   /* pieces between two calls of progress */

/* Which code lad_gemm_with runs. */
enum lad_gemm_kernel {
    LAD_GEMM_AUTO = 0,    /* the block kernel (model/gemm_kernel.h) where its
                             gate allows, per element elsewhere; the
                             environment may choose another: below */
    LAD_GEMM_GENERAL = 1, /* the plan per output element and instruction: the
                             reference the block kernel is tested against */
    LAD_GEMM_PORTABLE = 2,/* as AUTO, with the block kernel's generic build
                             even where the CPU has AVX2: its test */
    LAD_GEMM_AVX2 = 3     /* as AUTO, with the block kernel's AVX2 build of
                             eight columns even where the CPU has AVX-512:
                             its test */
};

/*
** lad_gemm_err with a choice of kernel (enum lad_gemm_kernel; the words
** are the same either way) and progress. LAD_GEMM_AUTO follows the
** environment when it says otherwise: LADDER_GEMM_GENERAL=1 (the
** per-element path), LADDER_GEMM_PORTABLE=1 or LADDER_GEMM_AVX2=1, read
** on every call, in that order.
** progress (may be NULL) is called with ctx from the calling thread only,
** after each LAD_GEMM_TICK pieces it does and at the end of each chunk of
** work it takes (the count is every thread's, kept with one atomic add per
** tick), every 100 ms while it waits for the other threads (when the
** count moved), and once more with done == total at the end; the counts
** never go down. lad_gemm_err is
** this with LAD_GEMM_AUTO and no progress.
*/
int lad_gemm_with(const lad_datapath *dp, const lad_program *prog, int M, int N,
                  int K, const lad_word_t *A, int lda, const lad_word_t *B, int ldb,
                  const lad_word_t *C, int ldc, lad_word_t *D, int ldd, int threads,
                  int kernel, lad_gemm_progress_fn progress, void *ctx, lad_err *err);

/*
** lad_gemm_with (LAD_GEMM_AUTO) on a block-scaled datapath, with its
** scales: SA holds M rows of K / scale_block scale words (row i at SA +
** i*ldsa, the scales of A's row i block by block along K), SB holds K /
** scale_block rows of N (row kb at SB + kb*ldsb, the scales of block kb
** of B's columns). Each MMA takes the scales of its K lanes' blocks. Only
** for block-scaled datapaths, which lad_gemm_with refuses.
*/
int lad_gemm_scaled(const lad_datapath *dp, const lad_program *prog, int M, int N, int K,
                    const lad_word_t *A, int lda, const lad_word_t *B, int ldb,
                    const uint8_t *SA, int ldsa, const uint8_t *SB, int ldsb,
                    const lad_word_t *C, int ldc, lad_word_t *D, int ldd, int threads,
                    lad_gemm_progress_fn progress, void *ctx, lad_err *err);

/* lad_gemm_scaled with a choice of kernel, as lad_gemm_with. */
int lad_gemm_scaled_with(const lad_datapath *dp, const lad_program *prog, int M, int N,
                         int K, const lad_word_t *A, int lda, const lad_word_t *B, int ldb,
                         const uint8_t *SA, int ldsa, const uint8_t *SB, int ldsb,
                         const lad_word_t *C, int ldc, lad_word_t *D, int ldd, int threads,
                         int kernel, lad_gemm_progress_fn progress, void *ctx,
                         lad_err *err);

/* lad_gemm_err without a message. */
int lad_gemm(const lad_datapath *dp, const lad_program *prog, int M, int N,
             int K, const lad_word_t *A, int lda, const lad_word_t *B, int ldb,
             const lad_word_t *C, int ldc, lad_word_t *D, int ldd, int threads);

#endif
