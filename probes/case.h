/*
** Case builders: small helpers that put exact values into format words and
** terms into the lanes of a case, for the rungs of the ladder.
**
** Every value is built with the model's own encoder (lad_round_value) and
** checked by decoding it back, so a rung never relies on host floating
** point and never probes with a value that its format cannot hold: a helper
** that cannot place a value exactly says so (returns LAD_NO) and the rung
** skips that case. A value is always (-1)^neg * mag * 2^exp with an integer
** mag.
**
** Lanes are physical: lane j is the j-th product that takes part after
** sparsity. A case starts from lad_case_base(), which sets every scale to
** 1.0 and every sparsity selector to one legal choice (the first two
** positions of each chunk), so physical lane j is always the same logical
** lane (lad_case_lane).
*/
#ifndef LADDER_PROBES_CASE_H
#define LADDER_PROBES_CASE_H

#include <stdint.h>
#include "../model/datapath.h"
#include "../db/store.h"

/* Exact word of (-1)^neg * mag * 2^exp in f: LAD_OK and *w, or LAD_NO when
** f cannot hold the value exactly (or has no sign for a negative). */
int lad_word(const lad_format *f, int neg, uint64_t mag, int exp, lad_word_t *w);

/* The word of 2^e in f, or LAD_NO. */
int lad_word_pow2(const lad_format *f, int e, lad_word_t *w);

/* Logical lane of physical lane j under lad_case_base's metadata. */
int lad_case_lane(const lad_datapath *dp, int j);

/* A case with every word 0, unit scales and the base metadata. */
void lad_case_base(const lad_datapath *dp, lad_case *cs);

/* Puts the product a * b, given as the two words, into physical lane j. */
void lad_case_words(const lad_datapath *dp, lad_case *cs, int j, lad_word_t a,
                    lad_word_t b);

/*
** Puts a product of value (-1)^neg * mag * 2^exp into physical lane j,
** as a normal A value holding mag (or a power of two) times a power of two
** in B, preferring the split whose raw exponents add up to the value's own
** (both operands normal). Returns LAD_OK or LAD_NO when no split is exact.
*/
int lad_case_term(const lad_datapath *dp, lad_case *cs, int j, int neg,
                  uint64_t mag, int exp);

/* Sets C to (-1)^neg * mag * 2^exp; LAD_OK or LAD_NO. */
int lad_case_c(const lad_datapath *dp, lad_case *cs, int neg, uint64_t mag,
               int exp);

/* Sets the scales of block blk to 2^ea (A) and 2^eb (B); LAD_OK or LAD_NO. */
int lad_case_scale(const lad_datapath *dp, lad_case *cs, int blk, int ea,
                   int eb);

/* A case as the store keeps it (plain words) and back. */
void lad_case_to_data(const lad_case *cs, lad_case_data *out);
void lad_case_from_data(const lad_case_data *in, lad_case *cs);

#endif
