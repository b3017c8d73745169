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
**
** Named generators choose what the finite cases aim at (the raw ones are
** the same for all):
**
**   mix         the finite plans above (the default; stored as
**               "gen1:raw=<p>", the name every earlier validation has).
**   near-zero   float datapaths: products whose anchor lies near the
**               anchor floors (raw exponents -142..-126, scales included;
**               one case in four -180..-143, below f32's subnormals),
**               spread over up to 40 binades, random signs, zero lanes in
**               most cases (sometimes 16 in a row), C zero, subnormal or
**               tiny: whether zero
**               terms and the floor take part in the anchor. Datapaths
**               whose products cannot reach that low get their lowest.
**   scale-edge  block-scaled datapaths: one block's scales near the top
**               of their range, the other blocks' at the extremes or 20 to
**               45 binades below, and C the negation of the top block's
**               exact sum (exactly, or a few units of C's last place off):
**               C cancels that block and the result is made of the low
**               blocks' bits, near the quantum floors and the C-dominant
**               cut.
** Stored as "<name>:raw=<p>" (lad_gen_name, lad_gen_parse).
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

/* Named generators (above). */
enum lad_gen_kind {
    LAD_GEN_MIX = 0,
    LAD_GEN_NEAR_ZERO = 1,
    LAD_GEN_SCALE_EDGE = 2,
    LAD_GEN_KINDS = 3
};

/* The generator called `name`, or -1. */
int lad_gen_find(const char *name);
/* The name of generator `kind` ("mix", "near-zero", ...); NULL past the end. */
const char *lad_gen_kind_name(int kind);
/* NULL when generator `kind` draws cases for dp, else why it does not. */
const char *lad_gen_refuses(int kind, const lad_datapath *dp);

/* Kinds of case. */
enum lad_gen_mode {
    LAD_GEN_RAW = 0,
    LAD_GEN_FINITE = 1
};

/* Fills cs (all of it: lanes past dp->k, scales and metadata a datapath
** does not use are 0) with one case of `mode` drawn from r. */
void lad_gen_case(const lad_datapath *dp, lad_rng *r, int mode, lad_case *cs);

/* Case `index` of the stream (seed, raw_percent) of generator mix: raw with
** probability raw_percent/100 (0..100), else finite. Returns the mode it
** drew. */
int lad_gen_case_at(const lad_datapath *dp, uint64_t seed, int raw_percent,
                    uint64_t index, lad_case *cs);

/* Cases first..first+n-1 of the stream of generator mix into cs[0..n-1]. */
void lad_gen_cases(const lad_datapath *dp, uint64_t seed, int raw_percent,
                   uint64_t first, lad_case *cs, size_t n);

/* The same for generator `kind`, whose finite cases are its own (kind
** LAD_GEN_MIX gives exactly the cases above). dp must not be refused by
** lad_gen_refuses. */
int lad_gen_kind_case_at(const lad_datapath *dp, int kind, uint64_t seed, int raw_percent,
                         uint64_t index, lad_case *cs);
void lad_gen_kind_cases(const lad_datapath *dp, int kind, uint64_t seed, int raw_percent,
                        uint64_t first, lad_case *cs, size_t n);

/* A random finite word of format f whose raw exponent is close to `raw`
** (clamped to the format's range), with a random sign when the format has
** one and random bits below the format (pad). Integer formats give a
** random value of about 2^raw in magnitude. */
lad_word_t lad_gen_finite_word(const lad_format *f, lad_rng *r, int raw);

/* Lowest and highest raw exponent of a float format's finite nonzero
** values (see lad_value.raw). */
void lad_gen_raw_range(const lad_format *f, int *lo, int *hi);


/* The generator's name as stored with a validation: "gen1:raw=50" for
** mix, "<name>:raw=<p>" for the others. */
void lad_gen_name(int kind, int raw_percent, char *buf, size_t size);
/* The generator and raw percent of a stored name; -1 when this ladder does
** not draw it. */
int lad_gen_parse(const char *stored, int *kind, int *raw_percent);

#endif
