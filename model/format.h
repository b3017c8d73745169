/*
** Number formats: decode a raw word into an exact value, and round an exact
** value back into a word.
**
** A format describes how a word of `width` bits encodes a number. Floating
** formats are sign / exponent / fraction fields sitting `pad` bits above the
** bottom of the word (tf32 is an fp32 container whose low 13 bits are not part
** of the format: width 32, pad 13). Integer formats (s8, u8, s32) are plain
** two's-complement or unsigned words.
**
** Every value is exact: (-1)^neg * mag * 2^exp with an integer significand.
** Nothing here uses host floating point; the tests prove that by comparing
** every code of every small format with an independent implementation.
**
** This module, like all of model/, needs only libc.
*/
#ifndef LADDER_MODEL_FORMAT_H
#define LADDER_MODEL_FORMAT_H

#include <stdint.h>
#include <stddef.h>

typedef unsigned __int128 lad_u128;

/* A raw word of a number format, in the low bits: any width up to 64 bits
** (f64), so one type serves every operand. Scales (uint8_t) and sparsity
** metadata (uint32_t) are not words of a number format and keep their
** types. */
typedef uint64_t lad_word_t;

enum lad_kind { LAD_FLOAT = 0, LAD_INT = 1 };

/* How the all-zero exponent field is read. */
enum lad_sub {
    LAD_SUB_IEEE = 0, /* field 0: subnormal, 0.f * 2^(1-bias); IEEE style */
    LAD_SUB_FLUSH = 1,/* field 0: zero whatever the fraction (decode); results
                         below the normal range become zero (encode) */
    LAD_SUB_NONE = 2  /* field 0 is an ordinary binade with a hidden 1 (ue8m0) */
};

/* Which codes are infinities. */
enum lad_inf {
    LAD_INF_NONE = 0, /* no infinities: the top exponent holds finite values */
    LAD_INF_IEEE = 1  /* top exponent with zero fraction */
};

/* Which codes are NaN. */
enum lad_nan {
    LAD_NAN_NONE = 0,   /* every code is a number (e2m1, e2m3, e3m2) */
    LAD_NAN_IEEE = 1,   /* top exponent with nonzero fraction */
    LAD_NAN_ONES = 2,   /* only top exponent with all-ones fraction (e4m3,
                           ue4m3, and ue8m0 whose fraction is empty) */
    LAD_NAN_NEGZERO = 3 /* only the word of -0 (sign bit alone): the "fnuz"
                           formats of AMD CDNA3, which have no -0 and no
                           Inf; every other top-exponent code is finite */
};

/* Rounding directions, used for inputs, alignment and results. */
enum lad_round {
    LAD_RZ = 0,  /* toward zero (truncate the magnitude) */
    LAD_RNE = 1, /* to nearest, ties to even */
    LAD_RU = 2,  /* toward +Inf */
    LAD_RD = 3,  /* toward -Inf */
    LAD_RNA = 4  /* to nearest, ties away from zero (cvt.rna.tf32.f32) */
};

/* What a finite result too large for the format becomes. */
enum lad_ovf {
    LAD_OVF_INF = 0, /* +-Inf (or NaN in a format without Inf), regardless of
                        the rounding direction: what the tensor cores do */
    LAD_OVF_SAT = 1, /* the largest finite value of the same sign */
    LAD_OVF_IEEE = 2 /* IEEE 754: Inf, except that RZ and the directed mode
                        pointing toward zero give the largest finite value */
};

/* Value classes, in the order `ladder format` prints them. */
enum lad_class { LAD_ZERO = 0, LAD_SUBNORMAL, LAD_NORMAL, LAD_INFINITE, LAD_NAN };

#define LAD_NAME_MAX 24

typedef struct lad_format {
    char name[LAD_NAME_MAX]; /* lowercase, e.g. "e4m3"; user formats choose */
    int kind;       /* LAD_FLOAT or LAD_INT */
    int width;      /* bits in the word as stored: 1..64 (integers 1..32) */
    int pad;        /* low bits of the word below the format (tf32: 13) */
    int sign;       /* 1 when there is a sign bit (ints: 1 = signed) */
    int ebits;      /* exponent field bits, 1..11 (0 for ints) */
    int mbits;      /* fraction field bits, 0..52 (0 for ints) */
    int bias;       /* exponent bias */
    int sub;        /* enum lad_sub */
    int inf;        /* enum lad_inf */
    int nan;        /* enum lad_nan */
} lad_format;

/* A decoded word. For finite values: value = (-1)^neg * mag * 2^exp. */
typedef struct lad_value {
    int cls;        /* enum lad_class */
    int neg;        /* sign bit (also for zeros, Inf and NaN) */
    uint64_t mag;   /* integer significand, hidden bit included; 0 for zero */
    int exp;        /* exponent of mag's least significant bit */
    int raw;        /* the encoded exponent: field - bias for normals,
                       1 - bias for subnormals and zeros; 0 for ints */
} lad_value;

/* Built-in formats, by name; NULL when unknown. Names are lowercase:
** f32 tf32 bf16 f16 e4m3 e5m2 e2m3 e3m2 e2m1 ue8m0 ue4m3 s8 u8 s32
** e4m3fnuz e5m2fnuz. */
const lad_format *lad_format_find(const char *name);
/* The i-th built-in format, or NULL past the end. */
const lad_format *lad_format_builtin(int i);

/* Checks a (possibly user-defined) format's fields for consistency. Returns
** NULL when usable, or a static message naming the first bad field. */
const char *lad_format_check(const lad_format *f);

/* Mask of the bits of a word that the format reads (tf32: 0xffffe000). */
lad_word_t lad_format_mask(const lad_format *f);
/* Hex digits of the word in the vector line format: ceil(width/4). */
int lad_format_digits(const lad_format *f);

/* Whether x and y decode every word alike: the same fields, names aside. */
int lad_format_same_decode(const lad_format *x, const lad_format *y);

/* Decodes a word. Bits outside lad_format_mask() are ignored, so a tf32
** word is truncated before it is classified. Always succeeds. */
lad_value lad_decode(const lad_format *f, lad_word_t word);

/* The canonical quiet NaN of a float format (sign 0, all-ones exponent,
** all-ones fraction), or 0 when it has none. */
lad_word_t lad_format_nan(const lad_format *f);
/* +Inf (neg=0) or -Inf of a format, or the largest finite magnitude with
** that sign when the format has no infinity. */
lad_word_t lad_format_inf(const lad_format *f, int neg);
lad_word_t lad_format_maxfinite(const lad_format *f, int neg);

/* Flags reported by lad_round_value. */
#define LAD_FLAG_INEXACT   1
#define LAD_FLAG_OVERFLOW  2
#define LAD_FLAG_UNDERFLOW 4 /* tiny and inexact */

/*
** Rounds the exact value (-1)^neg * (mag * 2^exp + s) to a word of format f,
** where s is a positive amount smaller than 2^exp when `sticky` is nonzero
** (bits already lost below mag) and 0 otherwise. Zero results keep `neg`
** (callers that want +0 for exact zeros pass neg=0). Integer formats round
** to an integer and saturate when ovf is LAD_OVF_SAT, else wrap.
** `flags`, when not NULL, receives LAD_FLAG_* bits.
*/
lad_word_t lad_round_value(const lad_format *f, int neg, lad_u128 mag, int exp,
                           int sticky, int mode, int ovf, int *flags);

/* Same for a significand of any width: limbs[0] is the least significant
** 32-bit limb of n limbs. */
lad_word_t lad_round_big(const lad_format *f, int neg, const uint32_t *limbs,
                         size_t n, int exp, int sticky, int mode, int ovf,
                         int *flags);

/* Number of significant bits in x (0 for 0). */
int lad_bitlen128(lad_u128 x);

/* Parse and print names of enums ("rz", "rne", "ru", "rd", "rna"). Parsers
** return -1 for an unknown name. */
int lad_round_parse(const char *s);
const char *lad_round_name(int mode);
const char *lad_class_name(int cls);

#endif
