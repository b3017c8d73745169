/*
** Format fitting: which number format a set of words is, from the values
** they showed. Used by inference when it re-derives a format from a run's
** decode cases, and by the decode rung, which needs the format at once to
** build the cases of the rungs above it. It is a question about formats
** alone (libc and model/format.h), so it lives in model/, below both users:
** probes/ may not read inference/ (docs/design.md, the layering).
*/
#ifndef LADDER_MODEL_FORMAT_FIT_H
#define LADDER_MODEL_FORMAT_FIT_H

#include <stddef.h>
#include <stdint.h>
#include "format.h"
#include "../util/err.h"

/*
** Given words of a
** format of `width` bits and, for each, the value it showed (decoded from a
** D word of format d: the product with an exact 1.0, or the square), finds
** the decode (sign, ebits, mbits, bias, sub, inf, nan) that explains every
** one. A value past d's range may show as Inf or d's largest finite value,
** and one below d's smallest normal as zero (a result that flushes its
** subnormals). square: the values are of word*word rather than word*1.
** The candidates are asked in a fixed order of preference (signed first,
** fewer exponent bits, then bias, subnormals, Inf, NaN); skip: how many of
** the distinct decodes that explain every value to pass over (0: the
** first; at most LAD_DECODE_ALTS), for a caller whose first choice left
** cases no model gives (the codes past the result's range show only that
** they overflow, so they may be Inf or large normals). Returns LAD_OK and
** *f (name kept from f), or LAD_NO when no (further) decode fits (msg
** says so).
*/
#define LAD_DECODE_ALTS 3
int lad_decode_fit(lad_format *f, int width, const lad_word_t *words,
                   const lad_word_t *dwords, size_t n, const lad_format *d,
                   lad_word_t nan_word, int square, int skip, char *msg, size_t msgsize);

#endif
