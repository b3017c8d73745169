/*
** The case kernel (cases_kernel.c): dense cases of an evaluation side by
** side, one a 32-bit vector lane, eight on AVX2 (sixteen on AVX-512). The
** GEMM kernel's pass (gemm_kernel.h) with each lane a case of its own:
** lad_plan_eval_batch and lad_plan_eval_rows (plan.c) take it where the
** plan says cases8, for `ladder eval`, validation and the bench's model
** core. It sits below the plan: the plan calls it, it calls nothing of
** the plan's.
*/
#ifndef LADDER_MODEL_CASES_KERNEL_H
#define LADDER_MODEL_CASES_KERNEL_H

#include "datapath.h"

#define LAD_BLOCK_W 8      /* cases (or GEMM columns) a block: one AVX2 register of int32 */
#define LAD_BLOCK_WMAX 16  /* on AVX-512: one register */

/* Whether lad_cases_eval computes plan pl's cases (plan.c sets
** lad_plan.cases8 by it): on CPUs with AVX2, lad_block_ok's datapaths
** whose running values stay in lanes (lad_block_chain's), unscaled, dense,
** k a multiple of LAD_BLOCK_W (its kstep in lad_evaluators), C anchored
** in the window. */
int lad_cases_ok(const lad_plan *pl);

/* How many cases lad_cases_eval takes at once for plan pl (with cases8):
** LAD_BLOCK_WMAX on a CPU with AVX-512 where the plan has no two-level
** window, else LAD_BLOCK_W. plan.c sets lad_plan.cases_w by it. */
int lad_cases_width(const lad_plan *pl);

/* pl->cases_w dense cases of a plan with cases8 side by side, one a lane:
** case l's A and B words (k of them, in order) at a + l * step and b + l *
** step, its C word at c[l * cstep] (+0 without c). Writes each case's D
** word to d[l] and returns the cases it leaves as bits (bit l: case l holds
** a NaN or Inf word, overflows, or its accumulator does), whose d[l] the
** caller then computes another way. */
unsigned lad_cases_eval(const lad_plan *pl, const lad_word_t *a, const lad_word_t *b,
                        size_t step, const lad_word_t *c, size_t cstep, lad_word_t *d);

#endif
