/*
** Case builders; see case.h. Placing a term searches the exponent splits of
** a product once per call, over the exponents each format's range allows.
*/
#include "case.h"

#include <string.h>

/* The store sizes its plain copy of a case by its own constants. */
_Static_assert(LAD_STORE_KMAX == LAD_KMAX, "store and model differ in K");
_Static_assert(LAD_STORE_SCALEMAX == LAD_SCALEMAX, "store and model differ in scales");
_Static_assert(LAD_STORE_METAMAX == LAD_METAMAX, "store and model differ in metadata");

void lad_case_to_data(const lad_case *cs, lad_case_data *out)
{
    memcpy(out->a, cs->a, sizeof out->a);
    memcpy(out->b, cs->b, sizeof out->b);
    out->c = cs->c;
    memcpy(out->sa, cs->sa, sizeof out->sa);
    memcpy(out->sb, cs->sb, sizeof out->sb);
    memcpy(out->meta, cs->meta, sizeof out->meta);
}

void lad_case_from_data(const lad_case_data *in, lad_case *cs)
{
    memcpy(cs->a, in->a, sizeof cs->a);
    memcpy(cs->b, in->b, sizeof cs->b);
    cs->c = in->c;
    memcpy(cs->sa, in->sa, sizeof cs->sa);
    memcpy(cs->sb, in->sb, sizeof cs->sb);
    memcpy(cs->meta, in->meta, sizeof cs->meta);
}

int lad_word(const lad_format *f, int neg, uint64_t mag, int exp, lad_word_t *w)
{
    if (neg && !f->sign && mag)
        return LAD_NO;
    if (f->kind == LAD_INT && mag && exp < 0)
        return LAD_NO;
    int flags = 0;
    lad_word_t x = lad_round_value(f, neg, mag, exp, 0, LAD_RNE, LAD_OVF_SAT, &flags);
    if (flags)
        return LAD_NO;
    lad_value v = lad_decode(f, x);
    if (mag == 0) {
        if (v.cls != LAD_ZERO || (f->kind == LAD_FLOAT && v.neg != neg))
            return LAD_NO;
    } else {
        if (v.cls != LAD_NORMAL && v.cls != LAD_SUBNORMAL)
            return LAD_NO;
        /* compare mag*2^exp with v.mag*2^v.exp exactly */
        uint64_t a = mag, b = v.mag;
        int ea = exp, eb = v.exp;
        while (a && !(a & 1)) { a >>= 1; ea++; }
        while (b && !(b & 1)) { b >>= 1; eb++; }
        if (a != b || ea != eb || v.neg != neg)
            return LAD_NO;
    }
    *w = x;
    return LAD_OK;
}

int lad_word_pow2(const lad_format *f, int e, lad_word_t *w)
{
    return lad_word(f, 0, 1, e, w);
}

int lad_case_lane(const lad_datapath *dp, int j)
{
    switch (dp->sparse) {
    case LAD_SPARSE_1OF2: return 2 * j;
    case LAD_SPARSE_2OF4: return 4 * (j / 2) + j % 2;
    case LAD_SPARSE_PAIRS8: return 8 * (j / 4) + j % 4;
    default: return j;
    }
}

void lad_case_base(const lad_datapath *dp, lad_case *cs)
{
    memset(cs, 0, sizeof *cs);
    if (dp->integer)
        return;
    /* zero words: +0 in every float format of the built-ins */
    if (dp->scale_block > 0) {
        lad_word_t sa = 0, sb = 0;
        lad_word_pow2(&dp->sa, 0, &sa);
        lad_word_pow2(&dp->sb, 0, &sb);
        for (int i = 0; i < LAD_SCALEMAX; i++) {
            cs->sa[i] = (uint8_t)sa;
            cs->sb[i] = (uint8_t)sb;
        }
    }
    if (dp->sparse)
        for (int i = 0; i < LAD_METAMAX; i++)
            cs->meta[i] = 0x44444444u;
}

void lad_case_words(const lad_datapath *dp, lad_case *cs, int j, lad_word_t a,
                    lad_word_t b)
{
    int l = lad_case_lane(dp, j);
    cs->a[l] = a;
    cs->b[l] = b;
}

/* The exponents e outside lo..hi for which m*2^e (m > 0) is certainly not a
** finite word of f: a float's lowest set bit lies at -bias - mbits or above
** (field 0 is normal in ue8m0), its leading bit at 2^ebits - 1 - bias or
** below, and its odd part has mbits + 1 bits at most. Necessary conditions
** only: lad_word decides within the range. lo > hi when no e can do. */
static void exp_range(const lad_format *f, uint64_t m, int *lo, int *hi)
{
    *lo = -400;
    *hi = 400;
    if (f->kind != LAD_FLOAT)
        return;
    int tz = __builtin_ctzll(m), len = 64 - __builtin_clzll(m);
    if (len - tz > f->mbits + 1) {
        *lo = 1;
        *hi = 0;
        return;
    }
    *lo = -f->bias - f->mbits - tz;
    *hi = (1 << f->ebits) - 1 - f->bias - (len - 1);
}

/* Tries m1*2^ea in f and (mag/m1)*2^(exp-ea) in g over the small divisors
** m1 of mag (normal words only when want_normal), ea from -400 up: the
** first pair that encodes. exp_range skips the exponents that cannot. */
static int split(const lad_format *f, const lad_format *g, int neg,
                 uint64_t mag, int exp, int want_normal, lad_word_t *wf,
                 lad_word_t *wg)
{
    for (uint64_t m1 = mag; m1 >= 1; m1 = m1 == mag && mag > 64 ? 64 : m1 - 1) {
        if (mag % m1)
            continue;
        int flo, fhi, glo, ghi;
        exp_range(f, m1, &flo, &fhi);
        exp_range(g, mag / m1, &glo, &ghi);
        int lo = flo > exp - ghi ? flo : exp - ghi, hi = fhi < exp - glo ? fhi : exp - glo;
        lo = lo < -400 ? -400 : lo;
        hi = hi > 400 ? 400 : hi;
        for (int ea = lo; ea <= hi; ea++) {
            lad_word_t x, y;
            if (lad_word(f, neg, m1, ea, &x) || lad_word(g, 0, mag / m1, exp - ea, &y))
                continue;
            if (want_normal && (lad_decode(f, x).cls != LAD_NORMAL ||
                                lad_decode(g, y).cls != LAD_NORMAL))
                continue;
            *wf = x;
            *wg = y;
            return LAD_OK;
        }
    }
    return LAD_NO;
}

int lad_case_term(const lad_datapath *dp, lad_case *cs, int j, int neg,
                  uint64_t mag, int exp)
{
    lad_word_t a, b;
    if (mag == 0) {
        lad_case_words(dp, cs, j, 0, 0);
        return LAD_OK;
    }
    if (dp->integer) {
        if (exp < 0 || exp > 40 || lad_bitlen128(mag) + exp > 40 ||
            lad_word(&dp->a, neg, mag << exp, 0, &a) || lad_word(&dp->b, 0, 1, 0, &b))
            return LAD_NO;
        lad_case_words(dp, cs, j, a, b);
        return LAD_OK;
    }
    for (int normal = 1; normal >= 0; normal--) {
        if (split(&dp->a, &dp->b, neg, mag, exp, normal, &a, &b) == LAD_OK) {
            lad_case_words(dp, cs, j, a, b);
            return LAD_OK;
        }
        if (split(&dp->b, &dp->a, neg, mag, exp, normal, &b, &a) == LAD_OK) {
            lad_case_words(dp, cs, j, a, b);
            return LAD_OK;
        }
    }
    return LAD_NO;
}

int lad_case_c(const lad_datapath *dp, lad_case *cs, int neg, uint64_t mag,
               int exp)
{
    return lad_word(&dp->c, neg, mag, exp, &cs->c);
}

int lad_case_scale(const lad_datapath *dp, lad_case *cs, int blk, int ea,
                   int eb)
{
    lad_word_t x, y;
    if (blk < 0 || blk >= LAD_SCALEMAX || lad_word_pow2(&dp->sa, ea, &x) ||
        lad_word_pow2(&dp->sb, eb, &y))
        return LAD_NO;
    cs->sa[blk] = (uint8_t)x;
    cs->sb[blk] = (uint8_t)y;
    return LAD_OK;
}
