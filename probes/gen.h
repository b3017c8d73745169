/*
** Case generators: reproducible random dot products for a datapath, the
** cases of the random rung, of `ladder validate` and of the tests.
**
** The random numbers come from xoshiro256** (Blackman and Vigna, 2018)
** seeded through splitmix64, on 64-bit integers only, so a seed gives the
** same cases on every machine and compiler. Case i of a stream is drawn
** from its own generator, seeded from (seed, i): any case can be rebuilt
** from its index alone (a stored mismatch names its index), and streams
** can be cut into batches in any way.
**
** Two kinds of case:
**
**   raw     every word uniform over its container (NaN, Inf and subnormal
**           codes included; tf32's low 13 bits too); scales uniform over
**           their whole encoding; sparsity metadata legal and random.
**   finite  finite words only, drawn so that the interesting arithmetic
**           happens: products of similar magnitude with random signs (so
**           sums cancel), C of comparable magnitude, exact cancelling
**           pairs beside small terms near the window edge, zero lanes,
**           subnormal and near-overflow clusters, some uniform finite
**           codes. Scales are finite, close to each other or spread over
**           their whole finite range.
**
** A mix draws each case raw with probability raw_percent / 100.
*/
#ifndef LADDER_PROBES_GEN_H
#define LADDER_PROBES_GEN_H

#include <stdint.h>
#include <stddef.h>
#include "../model/datapath.h"

/* xoshiro256** state; never all zero once seeded. */
typedef struct lad_rng {
    uint64_t s[4];
} lad_rng;

/* Seeds r from a 64-bit seed (four splitmix64 outputs). */
void lad_rng_seed(lad_rng *r, uint64_t seed);
/* Seeds r for case `index` of the stream `seed`. */
void lad_rng_seed2(lad_rng *r, uint64_t seed, uint64_t index);
/* The next 64 random bits. */
uint64_t lad_rng_next(lad_rng *r);
/* A uniform integer in [0, n) (n >= 1), without modulo bias. */
uint32_t lad_rng_below(lad_rng *r, uint32_t n);
/* A uniform integer in [lo, hi] (lo <= hi). */
int lad_rng_range(lad_rng *r, int lo, int hi);

/* splitmix64: the next output of the sequence whose state is *x. */
uint64_t lad_splitmix64(uint64_t *x);

/* Kinds of case. */
enum lad_gen_mode {
    LAD_GEN_RAW = 0,
    LAD_GEN_FINITE = 1
};

/* Fills cs (all of it: lanes past dp->k, scales and metadata a datapath
** does not use are 0) with one case of `mode` drawn from r. */
void lad_gen_case(const lad_datapath *dp, lad_rng *r, int mode, lad_case *cs);

/* Case `index` of the stream (seed, raw_percent): raw with probability
** raw_percent/100 (0..100), else finite. Returns the mode it drew. */
int lad_gen_case_at(const lad_datapath *dp, uint64_t seed, int raw_percent,
                    uint64_t index, lad_case *cs);

/* Cases first..first+n-1 of the stream into cs[0..n-1]. */
void lad_gen_cases(const lad_datapath *dp, uint64_t seed, int raw_percent,
                   uint64_t first, lad_case *cs, size_t n);

/* A random finite word of format f whose raw exponent is close to `raw`
** (clamped to the format's range), with a random sign when the format has
** one and random bits below the format (pad). Integer formats give a
** random value of about 2^raw in magnitude. */
lad_word_t lad_gen_finite_word(const lad_format *f, lad_rng *r, int raw);

/* Lowest and highest raw exponent of a float format's finite nonzero
** values (see lad_value.raw). */
void lad_gen_raw_range(const lad_format *f, int *lo, int *hi);


/* The generator's name as stored with a validation ("gen1:raw=50"). */
void lad_gen_name(int raw_percent, char *buf, size_t size);

#endif
