/*
** A naive reference of the datapath model, for the tests only: written from
** the rules (docs/model.md, docs/reference/tcgen05-model-notes.md sections
** 1-8, docs/design.md), not from model/eval.c or plan.c, so that the two can be
** compared on millions of random cases (tests/unit/test_rational.c).
**
** Every value is an exact dyadic rational: a big integer (sign and
** magnitude, 32-bit limbs, any length up to RAT_LIMBS) times a power of two.
** Nothing is shared with model/ but the lad_datapath and lad_case structs
** and the format descriptions (lad_format): decoding, alignment, sums and
** rounding are all done here again, the slow and obvious way.
*/
#ifndef LADDER_TESTS_RATIONAL_H
#define LADDER_TESTS_RATIONAL_H

#include <stdint.h>
#include "model/datapath.h"

#define RAT_LIMBS 40   /* 1280 bits: wider than any sum of the model's terms */

/* A signed big integer. */
typedef struct rat_int {
    int neg;                 /* 1 when negative (never for zero) */
    int n;                   /* limbs in use; 0 for zero */
    uint32_t l[RAT_LIMBS];   /* magnitude, least significant limb first */
} rat_int;

/* Evaluates one case the naive way: returns the D word. dp must pass
** lad_datapath_check; the sparsity metadata must be legal. */
uint32_t rat_eval(const lad_datapath *dp, const lad_case *cs);

/* The rows of the registry (model/params.def) this reference leaves out:
** the AMD ways of summing (the two-level window's even and odd lanes, its
** cut below the leading bit and its addend drop; exact and tree sums;
** flushes; product infinity), which the model is checked on against
** MMA-Sim (tests/peers/). NULL-terminated. A row new to the registry is
** implemented here, or listed. */
extern const char *const rat_rows_left[];

/* Rounds (-1)^neg * m * 2^e (m any size) into format f with `mode`
** (LAD_RZ..LAD_RNA) and overflow rule `ovf`; results that are zero or round
** to zero are +0. Float formats with IEEE-style subnormals only. */
uint32_t rat_round(const lad_format *f, const rat_int *m, int e, int mode, int ovf);

#endif
