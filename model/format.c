/*
** Number formats: decoding words into exact values and rounding exact values
** into words, for the built-in formats and for user-defined ones.
**
** Rounding works on an integer significand and a power-of-two exponent, so
** it is exact for any value the datapath produces (window sums of up to ~90
** bits) and, through lad_round_big, for significands of any width (decimal
** input of `ladder format encode`). The only arithmetic is on integers.
*/
#include "format.h"
#include "format_decode.h"

#include <string.h>

/* Built-in formats. Fields: name kind width pad sign ebits mbits bias sub inf nan */
static const lad_format builtins[] = {
    {"f32",   LAD_FLOAT, 32, 0,  1, 8, 23, 127, LAD_SUB_IEEE, LAD_INF_IEEE, LAD_NAN_IEEE},
    {"tf32",  LAD_FLOAT, 32, 13, 1, 8, 10, 127, LAD_SUB_IEEE, LAD_INF_IEEE, LAD_NAN_IEEE},
    {"bf16",  LAD_FLOAT, 16, 0,  1, 8, 7,  127, LAD_SUB_IEEE, LAD_INF_IEEE, LAD_NAN_IEEE},
    {"f16",   LAD_FLOAT, 16, 0,  1, 5, 10, 15,  LAD_SUB_IEEE, LAD_INF_IEEE, LAD_NAN_IEEE},
    {"e4m3",  LAD_FLOAT, 8,  0,  1, 4, 3,  7,   LAD_SUB_IEEE, LAD_INF_NONE, LAD_NAN_ONES},
    {"e5m2",  LAD_FLOAT, 8,  0,  1, 5, 2,  15,  LAD_SUB_IEEE, LAD_INF_IEEE, LAD_NAN_IEEE},
    {"e2m3",  LAD_FLOAT, 6,  0,  1, 2, 3,  1,   LAD_SUB_IEEE, LAD_INF_NONE, LAD_NAN_NONE},
    {"e3m2",  LAD_FLOAT, 6,  0,  1, 3, 2,  3,   LAD_SUB_IEEE, LAD_INF_NONE, LAD_NAN_NONE},
    {"e2m1",  LAD_FLOAT, 4,  0,  1, 2, 1,  1,   LAD_SUB_IEEE, LAD_INF_NONE, LAD_NAN_NONE},
    {"ue8m0", LAD_FLOAT, 8,  0,  0, 8, 0,  127, LAD_SUB_NONE, LAD_INF_NONE, LAD_NAN_ONES},
    {"ue4m3", LAD_FLOAT, 8,  0,  0, 4, 3,  7,   LAD_SUB_IEEE, LAD_INF_NONE, LAD_NAN_ONES},
    {"s8",    LAD_INT,   8,  0,  1, 0, 0,  0,   0, 0, 0},
    {"u8",    LAD_INT,   8,  0,  0, 0, 0,  0,   0, 0, 0},
    {"s32",   LAD_INT,   32, 0,  1, 0, 0,  0,   0, 0, 0},
    /* AMD CDNA3 fp8 and bf8 (after the others: their indices are stable) */
    {"e4m3fnuz", LAD_FLOAT, 8, 0, 1, 4, 3,  8,   LAD_SUB_IEEE, LAD_INF_NONE, LAD_NAN_NEGZERO},
    {"e5m2fnuz", LAD_FLOAT, 8, 0, 1, 5, 2,  16,  LAD_SUB_IEEE, LAD_INF_NONE, LAD_NAN_NEGZERO},
    /* IEEE binary64 (f64 mma and MFMA) */
    {"f64",   LAD_FLOAT, 64, 0,  1, 11, 52, 1023, LAD_SUB_IEEE, LAD_INF_IEEE, LAD_NAN_IEEE},
};
#define NBUILTIN ((int)(sizeof builtins / sizeof builtins[0]))

const lad_format *lad_format_find(const char *name)
{
    for (int i = 0; i < NBUILTIN; i++)
        if (strcmp(builtins[i].name, name) == 0)
            return &builtins[i];
    return NULL;
}

const lad_format *lad_format_builtin(int i)
{
    return i >= 0 && i < NBUILTIN ? &builtins[i] : NULL;
}

const char *lad_format_check(const lad_format *f)
{
    if (f->width < 1 || f->width > 64)
        return "width must be 1..64";
    if (f->sign != 0 && f->sign != 1)
        return "sign must be 0 or 1";
    if (f->kind == LAD_INT) {
        if (f->pad != 0 || f->ebits != 0 || f->mbits != 0)
            return "an integer format has no pad, ebits or mbits";
        if (f->width < 2 && f->sign)
            return "a signed integer needs 2 bits or more";
        if (f->width > 32)  /* products and sums of s32 words fill an i128 */
            return "an integer format has at most 32 bits";
        return NULL;
    }
    if (f->kind != LAD_FLOAT)
        return "kind must be float or int";
    if (f->ebits < 1 || f->ebits > 11)
        return "ebits must be 1..11";
    if (f->mbits < 0 || f->mbits > 52)
        return "mbits must be 0..52";
    if (f->pad < 0 || f->pad + f->sign + f->ebits + f->mbits > f->width)
        return "pad + sign + ebits + mbits exceeds the width";
    if (f->bias < -1024 || f->bias > 1024)
        return "bias must be -1024..1024";
    if (f->sub < LAD_SUB_IEEE || f->sub > LAD_SUB_NONE)
        return "sub must be ieee, flush or none";
    if (f->inf < LAD_INF_NONE || f->inf > LAD_INF_IEEE)
        return "inf must be none or ieee";
    if (f->nan < LAD_NAN_NONE || f->nan > LAD_NAN_NEGZERO)
        return "nan must be none, ieee, ones or negzero";
    if (f->nan == LAD_NAN_NEGZERO && (!f->sign || f->inf != LAD_INF_NONE))
        return "nan negzero needs a sign bit and no infinities";
    if (f->inf == LAD_INF_IEEE && f->mbits == 0 && f->nan != LAD_NAN_NONE)
        return "with no fraction bits the top exponent cannot be both Inf and NaN";
    if (f->nan == LAD_NAN_IEEE && f->mbits == 0)
        return "nan ieee needs fraction bits (use nan ones)";
    if (f->ebits == 1 && f->sub != LAD_SUB_NONE &&
        (f->inf != LAD_INF_NONE || f->nan != LAD_NAN_NONE))
        return "one exponent bit leaves no normal numbers beside the specials";
    return NULL;
}

lad_word_t lad_format_mask(const lad_format *f)
{
    int n = f->kind == LAD_INT ? f->width : f->sign + f->ebits + f->mbits;
    return ones(n) << f->pad;
}

int lad_format_digits(const lad_format *f)
{
    return (f->width + 3) / 4;
}

lad_value lad_decode(const lad_format *f, lad_word_t word)
{
    return lad_decode_inline(f, word);
}

/* Whether f keeps finite values in its top exponent field beside the
** infinity there: infinities and no NaN (e5m2:nan=none), or a NaN at the
** all-ones fraction only (e5m2:nan=ones) with a fraction between, so that
** the field's fraction 0 is the infinity and the others up to the NaN are
** finite (decode agrees). */
static int inf_inside(const lad_format *f)
{
    return f->inf == LAD_INF_IEEE &&
           ((f->nan == LAD_NAN_NONE && f->mbits > 0) || (f->nan == LAD_NAN_ONES && f->mbits > 1));
}

/* The top usable exponent field, and the largest fraction allowed there. */
static void top_field(const lad_format *f, lad_word_t *field, lad_word_t *frac)
{
    lad_word_t emax = ones(f->ebits), fmask = ones(f->mbits);
    *field = emax;
    *frac = fmask;
    if (inf_inside(f)) {
        /* the top field but its infinity, and its NaN if it has one */
        if (f->nan == LAD_NAN_ONES)
            *frac = fmask - 1;
    } else if (f->inf == LAD_INF_IEEE || f->nan == LAD_NAN_IEEE) {
        *field = emax - 1;
    } else if (f->nan == LAD_NAN_ONES) {
        if (fmask == 0)
            *field = emax - 1;  /* ue8m0: the whole top field is NaN */
        else
            *frac = fmask - 1;
    }
}

static lad_word_t pack(const lad_format *f, int neg, lad_word_t field,
                       lad_word_t frac)
{
    lad_word_t x = (field << f->mbits) | frac;
    /* a zero of a format without -0 is +0: its -0 word is the NaN */
    if (f->sign && neg && (x != 0 || f->nan != LAD_NAN_NEGZERO))
        x |= (lad_word_t)1 << (f->ebits + f->mbits);
    return x << f->pad;
}

lad_word_t lad_format_nan(const lad_format *f)
{
    if (f->kind != LAD_FLOAT || f->nan == LAD_NAN_NONE)
        return 0;
    if (f->nan == LAD_NAN_NEGZERO)
        return ((lad_word_t)1 << (f->ebits + f->mbits)) << f->pad;
    return pack(f, 0, ones(f->ebits), ones(f->mbits));
}

int lad_format_same_decode(const lad_format *x, const lad_format *y)
{
    return x->kind == y->kind && x->width == y->width && x->pad == y->pad &&
           x->sign == y->sign && x->ebits == y->ebits && x->mbits == y->mbits &&
           x->bias == y->bias && x->sub == y->sub && x->inf == y->inf &&
           x->nan == y->nan;
}

lad_word_t lad_format_maxfinite(const lad_format *f, int neg)
{
    if (f->kind == LAD_INT) {
        if (!f->sign)
            return ones(f->width);
        lad_word_t max = ones(f->width - 1);
        return neg ? (max + 1) & ones(f->width) : max;
    }
    lad_word_t field, frac;
    top_field(f, &field, &frac);
    return pack(f, neg, field, frac);
}

lad_word_t lad_format_inf(const lad_format *f, int neg)
{
    if (f->kind == LAD_FLOAT && f->inf == LAD_INF_IEEE)
        return pack(f, neg, ones(f->ebits), 0);
    return lad_format_maxfinite(f, neg);
}

int lad_bitlen128(lad_u128 x)
{
    uint64_t hi = (uint64_t)(x >> 64), lo = (uint64_t)x;
    if (hi)
        return 128 - __builtin_clzll(hi);
    if (lo)
        return 64 - __builtin_clzll(lo);
    return 0;
}

/* Shifts mag right by sh bits, rounding with `mode` (sign neg); sticky adds
** a positive amount below the lowest bit of mag. Sets *inexact. */
static lad_u128 shift_round(lad_u128 mag, int sh, int sticky, int neg,
                            int mode, int *inexact)
{
    lad_u128 m;
    int rb, st;
    if (sh <= 0) {
        m = mag << -sh;
        rb = 0;
        st = sticky;
    } else if (sh > 128) {
        m = 0;
        rb = 0;
        st = mag != 0 || sticky;
    } else if (sh == 128) {
        m = 0;
        rb = (int)(mag >> 127);
        st = (mag & (((lad_u128)1 << 127) - 1)) != 0 || sticky;
    } else {
        m = mag >> sh;
        lad_u128 half = (lad_u128)1 << (sh - 1);
        lad_u128 rem = mag & ((half << 1) - 1);
        rb = rem >= half;
        st = (rem & (half - 1)) != 0 || sticky;
    }
    *inexact = rb || st;
    int inc = 0;
    switch (mode) {
    case LAD_RNE: inc = rb && (st || (m & 1)); break;
    case LAD_RNA: inc = rb; break;
    case LAD_RU: inc = !neg && (rb || st); break;
    case LAD_RD: inc = neg && (rb || st); break;
    default: inc = 0; break;
    }
    return m + (lad_u128)inc;
}

static lad_word_t round_int(const lad_format *f, int neg, lad_u128 mag, int exp,
                            int sticky, int mode, int ovf, int *flags)
{
    int inexact = 0;
    lad_u128 m;
    if (mag != 0 && exp > 0 && lad_bitlen128(mag) + exp > 64)
        m = (lad_u128)1 << 64;  /* far out of any range: one huge value does */
    else
        m = shift_round(mag, -exp, sticky, neg, mode, &inexact);
    if (inexact && flags)
        *flags |= LAD_FLAG_INEXACT;
    lad_u128 half = (lad_u128)1 << (f->width - 1);
    int out = f->sign ? (neg ? m > half : m >= half)
                      : (neg ? m != 0 : m >= half << 1);
    if (out) {
        if (flags)
            *flags |= LAD_FLAG_OVERFLOW;
        if (ovf == LAD_OVF_SAT)
            return neg && !f->sign ? 0 : lad_format_maxfinite(f, neg);
    }
    lad_word_t x = (lad_word_t)m;
    if (neg)
        x = (lad_word_t)0 - x;
    return x & ones(f->width);
}

lad_word_t lad_round_value(const lad_format *f, int neg, lad_u128 mag, int exp,
                           int sticky, int mode, int ovf, int *flags)
{
    if (f->kind == LAD_INT)
        return round_int(f, neg, mag, exp, sticky, mode, ovf, flags);
    if (!f->sign && neg && (mag != 0 || sticky)) {
        if (flags)
            *flags |= LAD_FLAG_INEXACT;
        return f->nan != LAD_NAN_NONE ? lad_format_nan(f) : 0;
    }
    if (mag == 0 && !sticky)
        return pack(f, neg, 0, 0);

    int fb = f->mbits;
    int emin = f->sub == LAD_SUB_NONE ? -f->bias : 1 - f->bias;
    /* Exponent of the leading bit; a bare sticky sits just below 2^exp. */
    int e = mag ? lad_bitlen128(mag) - 1 + exp : exp - 1;
    int q = (e > emin ? e : emin) - fb;   /* quantum of the result */
    int inexact = 0;
    lad_u128 m = shift_round(mag, q - exp, sticky, neg, mode, &inexact);
    if (m >> (fb + 1)) {                  /* rounding carried a bit out */
        m >>= 1;
        q++;
    }
    if (inexact && flags)
        *flags |= LAD_FLAG_INEXACT;

    lad_word_t topf, topfrac;
    top_field(f, &topf, &topfrac);
    lad_word_t field, frac = (lad_word_t)m & ones(fb);
    if (m >> fb) {
        /* biased field of exponent q + fb: E + bias in either case */
        long long fl = (long long)q + fb - emin + (f->sub == LAD_SUB_NONE ? 0 : 1);
        if (fl > (long long)topf || (fl == (long long)topf && frac > topfrac)) {
            if (flags)
                *flags |= LAD_FLAG_OVERFLOW | LAD_FLAG_INEXACT;
            int sat = ovf == LAD_OVF_SAT ||
                      (ovf == LAD_OVF_IEEE && (mode == LAD_RZ ||
                                               (mode == LAD_RU && neg) ||
                                               (mode == LAD_RD && !neg)));
            if (sat || (f->inf == LAD_INF_NONE && f->nan == LAD_NAN_NONE))
                return lad_format_maxfinite(f, neg);
            if (f->inf == LAD_INF_IEEE)
                return lad_format_inf(f, neg);
            lad_word_t nan = lad_format_nan(f);
            return f->sign && neg
                       ? nan | ((lad_word_t)1 << (f->ebits + fb + f->pad))
                       : nan;
        }
        field = (lad_word_t)fl;
        if (inf_inside(f) && field == topf && frac == 0) {
            /* Rounded onto the infinity's code, which holds no finite
            ** value: to a neighbour, A (the top of the field below, at
            ** H - u) or B (H + 2u, the top field's first finite value),
            ** by the value v against them, in units u/2 of 2^(q-2). */
            int in2 = 0;
            lad_u128 t = shift_round(mag, q - 2 - exp, sticky, neg, LAD_RZ, &in2);
            lad_u128 h = (lad_u128)1 << (fb + 2);
            int away;
            if (mode == LAD_RZ || (mode == LAD_RU && neg) || (mode == LAD_RD && !neg))
                away = 0;
            else if (mode == LAD_RU || mode == LAD_RD)
                away = 1;
            else  /* nearest: the midpoint of A and B is H + u/2; a tie
                  ** (both odd) goes to A, or away from zero for RNA */
                away = t > h + 1 || (t == h + 1 && (in2 || mode == LAD_RNA));
            if (flags)
                *flags |= LAD_FLAG_INEXACT;
            return away ? pack(f, neg, topf, 1) : pack(f, neg, topf - 1, ones(fb));
        }
    } else {
        field = 0;                         /* subnormal, or zero */
        if (f->sub == LAD_SUB_NONE) {
            /* no zero and no subnormals: the smallest value stands in */
            if (flags)
                *flags |= LAD_FLAG_UNDERFLOW | LAD_FLAG_INEXACT;
            return pack(f, neg, 0, 0);
        }
        if (inexact && flags)
            *flags |= LAD_FLAG_UNDERFLOW;
        if (f->sub == LAD_SUB_FLUSH && frac != 0) {
            if (flags)
                *flags |= LAD_FLAG_UNDERFLOW | LAD_FLAG_INEXACT;
            frac = 0;
        }
    }
    return pack(f, neg, field, frac);
}

lad_word_t lad_round_big(const lad_format *f, int neg, const uint32_t *limbs,
                         size_t n, int exp, int sticky, int mode, int ovf,
                         int *flags)
{
    while (n > 0 && limbs[n - 1] == 0)
        n--;
    if (n <= 3) {
        lad_u128 m = 0;
        for (size_t i = n; i-- > 0;)
            m = (m << 32) | limbs[i];
        return lad_round_value(f, neg, m, exp, sticky, mode, ovf, flags);
    }
    /* Keep the top 96..127 bits; everything below becomes the sticky bit.
    ** The result keeps at most 65 significant bits (an s64), so the quantum stays far
    ** above the new exponent, as lad_round_value requires of a sticky bit. */
    size_t drop = n - 3;
    for (size_t i = 0; i < drop; i++)
        if (limbs[i])
            sticky = 1;
    lad_u128 m = 0;
    for (size_t i = n; i-- > drop;)
        m = (m << 32) | limbs[i];
    return lad_round_value(f, neg, m, exp + (int)(32 * drop), sticky, mode,
                           ovf, flags);
}

static const char *const round_names[] = {"rz", "rne", "ru", "rd", "rna"};

int lad_round_parse(const char *s)
{
    for (int i = 0; i < 5; i++)
        if (strcmp(s, round_names[i]) == 0)
            return i;
    return -1;
}

const char *lad_round_name(int mode)
{
    return mode >= 0 && mode < 5 ? round_names[mode] : "?";
}

const char *lad_class_name(int cls)
{
    static const char *const names[] = {"zero", "subnormal", "normal", "inf", "nan"};
    return cls >= 0 && cls < 5 ? names[cls] : "?";
}
