/*
** Exact decimal text for format values, both ways.
**
** People write values in decimal ("1.5", "-0.1", "1e-3") or as C hex floats
** ("0x1.8p+0"), and want values printed exactly ("0.000000059604644775390625",
** never "5.96e-08"). Both directions go through big integers: a decimal
** input is turned into enough binary digits plus a sticky bit, computed with
** integer arithmetic only, and handed to lad_round_big, so the word is the
** correctly rounded one in every mode. No host floating point is involved.
**
** Sizes: inputs up to LAD_DECIMAL_MAX characters with decimal exponents up
** to +-LAD_DECIMAL_EXP_MAX; both limits keep the big integers under a few
** thousand limbs.
*/
#ifndef LADDER_MODEL_DECIMAL_H
#define LADDER_MODEL_DECIMAL_H

#include <stddef.h>
#include <stdint.h>

#include "../util/err.h"
#include "format.h"

#define LAD_DECIMAL_MAX 4096     /* characters in a value to parse */
#define LAD_DECIMAL_EXP_MAX 9999 /* |exponent| of a decimal or hex input */

/*
** Writes the exact decimal expansion of (-1)^neg * mag * 2^exp into buf
** ("448", "-0.5", "0.000030517578125", "-0"), with no exponent and no
** trailing zeros after the point. Returns the length the text needs (not
** counting the NUL), like snprintf; the text is cut when size is too small.
** 1100 bytes hold any value of a format up to 64 bits (an f64 value has
** at most 1077 characters: 1074 digits after the point).
*/
size_t lad_decimal_print(char *buf, size_t size, int neg, uint64_t mag,
                         int exp);

/*
** Writes what word w of format f means: "nan", "inf", "-inf", or its exact
** decimal expansion as lad_decimal_print writes it; "?" for a format with
** no exponent field, whose words have no value alone. Returns buf.
*/
const char *lad_value_text(const lad_format *f, lad_word_t w, char *buf,
                           size_t size);

/* Decimal texts longer than this get the binary form beside them. */
#define LAD_VALUE_SHORT 24

/*
** lad_value_text, and after a decimal of more than LAD_VALUE_SHORT
** characters its exact binary form, m odd: "0.00...0140129846432481707
** (2^-149)", "-0.00...03 (-3*2^-149)". Returns buf.
*/
const char *lad_value_text_pow2(const lad_format *f, lad_word_t w, char *buf,
                                size_t size);

/* Decimal texts longer than this are left out by lad_value_text_brief. */
#define LAD_VALUE_LONG 40

/*
** lad_value_text_pow2 while the decimal is at most LAD_VALUE_LONG
** characters; past that the exact binary form alone, m odd: "8191*2^-149",
** "2^-136", "-3*2^-149", for a witness line a reader can take in. Returns
** buf.
*/
const char *lad_value_text_brief(const lad_format *f, lad_word_t w, char *buf,
                                 size_t size);

/*
** Parses a number and rounds it to a word of format f with rounding `mode`
** and overflow rule `ovf` (enum lad_round, enum lad_ovf). Accepted:
**
**     [+-] digits [. digits] [e|E [+-] digits]     decimal, e.g. -0.1, 1e-3
**     [+-] 0x hexdigits [. hexdigits] [p [+-] digits]   C hex, e.g. 0x3f80,
**                                                    0x1.8p-3
**     [+-] inf | infinity | nan                     any case
**
** Infinity becomes the format's Inf; in a format without one it becomes the
** largest finite value when ovf is LAD_OVF_SAT, else NaN, else (no NaN
** either) the largest finite value. NaN becomes the canonical NaN, with the
** sign bit when written "-nan"; a format without NaN is a data error.
** Returns LAD_OK with *word set (and *flags, when not NULL, the LAD_FLAG_*
** bits), or LAD_EDATA with err filled for text that is not a number.
*/
int lad_decimal_parse(const char *s, const lad_format *f, int mode, int ovf,
                      lad_word_t *word, int *flags, lad_err *err);

#endif
