/*
** Fitting a number format from decode cases; see format_fit.h. The candidates
** are tried in preference order (signed first, fewer exponent bits first,
** then bias, subnormals, Inf and NaN encodings), and the first that
** explains every observed value wins: a few thousand candidates of a few
** hundred decodes each, nothing next to the device round trips that made
** the cases.
*/
#include "format_fit.h"

#include <stdio.h>
#include <stdlib.h>

/* Whether two decoded values are equal (zeros and NaNs of either sign alike). */
static int value_eq(lad_value x, lad_value y)
{
    if (x.cls != y.cls)
        return 0;
    if (x.cls == LAD_NAN || x.cls == LAD_ZERO)
        return 1;
    if (x.neg != y.neg)
        return 0;
    if (x.cls == LAD_INFINITE)
        return 1;
    uint64_t a = x.mag, b = y.mag;
    int ea = x.exp, eb = y.exp;
    while (a && !(a & 1)) { a >>= 1; ea++; }
    while (b && !(b & 1)) { b >>= 1; eb++; }
    return a == b && ea == eb;
}

/* Whether finite x is larger in magnitude than finite y. */
static int mag_above(lad_value x, lad_value y)
{
    if (!x.mag || !y.mag)
        return x.mag != 0;
    int lx = 64 - __builtin_clzll(x.mag), ly = 64 - __builtin_clzll(y.mag);
    if (lx + x.exp != ly + y.exp)
        return lx + x.exp > ly + y.exp;
    /* the same leading bit: compare the significands aligned at the top */
    uint64_t a = x.mag << (64 - lx), b = y.mag << (64 - ly);
    return a > b;
}

/* Whether the observed result o is what the result format d makes of v:
** v itself, or, when v is past d's largest finite value, Inf or that
** largest value (rounded toward zero or saturated) of v's sign, or, when v
** is below d's smallest normal dmin (zero magnitude: d has no subnormals
** to flush), a zero: a result that flushes subnormals (ftz_out). */
static int explains(lad_value v, lad_value o, lad_value dmax, lad_value dmin)
{
    if (value_eq(v, o))
        return 1;
    if (o.cls == LAD_ZERO && v.cls == LAD_NORMAL && dmin.mag && mag_above(dmin, v))
        return 1;
    if (v.cls != LAD_NORMAL || !mag_above(v, dmax) || o.neg != v.neg)
        return 0;
    dmax.neg = v.neg;
    return o.cls == LAD_INFINITE || value_eq(o, dmax);
}

int lad_decode_fit(lad_format *f, int width, const lad_word_t *words,
                   const lad_word_t *dwords, size_t n, const lad_format *d,
                   lad_word_t nan_word, int square, int skip, char *msg, size_t msgsize)
{
    (void)nan_word;
    lad_value *obs = malloc((n + 1) * sizeof *obs);
    if (obs == NULL)
        return LAD_EINTERNAL;
    for (size_t i = 0; i < n; i++) {
        obs[i] = lad_decode(d, dwords[i]);
        if (obs[i].cls == LAD_SUBNORMAL)
            obs[i].cls = LAD_NORMAL;
    }
    lad_value dmax = lad_decode(d, lad_format_maxfinite(d, 0));
    if (dmax.cls == LAD_SUBNORMAL)
        dmax.cls = LAD_NORMAL;
    lad_value dmin = {0};
    if (d->sub == LAD_SUB_IEEE && d->ebits > 0)
        dmin = lad_decode(d, (lad_word_t)1 << d->mbits);
    int found = 0, seen = 0;
    lad_format best, prev[LAD_DECODE_ALTS + 1];
    if (skip < 0 || skip > LAD_DECODE_ALTS)
        skip = LAD_DECODE_ALTS;
    for (int sign = 1; sign >= 0 && !found; sign--)
        for (int eb = 1; eb <= width - sign && eb <= 8 && !found; eb++) {
            int mb = width - sign - eb;
            if (mb > 23)
                continue;
            int bmax = (1 << (eb < 9 ? eb : 9)) + 8;
            for (int bias = -8; bias <= bmax && !found; bias++)
                for (int sub = 0; sub < 3 && !found; sub++)
                    for (int inf = 1; inf >= 0 && !found; inf--)
                        for (int nan = 1; nan < 5 && !found; nan++) {
                            lad_format c = {{0}, LAD_FLOAT, width, 0, sign, eb, mb, bias,
                                            sub, inf, nan % 3};
                            snprintf(c.name, sizeof c.name, "%s", f->name);
                            if (lad_format_check(&c))
                                continue;
                            size_t i;
                            for (i = 0; i < n; i++) {
                                lad_value v = lad_decode(&c, words[i]);
                                if (v.cls == LAD_SUBNORMAL)
                                    v.cls = LAD_NORMAL;
                                if (square && (v.cls == LAD_NORMAL)) {
                                    v.mag *= v.mag;
                                    v.exp *= 2;
                                    v.neg = 0;
                                }
                                if (square && v.cls == LAD_INFINITE)
                                    v.neg = 0;
                                if (!explains(v, obs[i], dmax, dmin))
                                    break;
                            }
                            /* the skip-th of the distinct decodes that explain */
                            int dup = 0;
                            for (int j = 0; j < seen && i == n && !dup; j++)
                                dup = lad_format_same_decode(&prev[j], &c);
                            if (i == n && !dup && seen < skip) {
                                prev[seen++] = c;
                            } else if (i == n && !dup) {
                                found = 1;
                                best = c;
                            }
                        }
        }
    free(obs);
    if (!found) {
        if (skip > 0 && seen > 0)
            snprintf(msg, msgsize, "%d decode%s of %d bits explain the %zu codes, no more",
                     seen, seen == 1 ? "" : "s", width, n);
        else
            snprintf(msg, msgsize, "no decode of %d bits explains the %zu codes", width, n);
        return LAD_NO;
    }
    *f = best;
    snprintf(msg, msgsize, "sign %d, ebits %d, mbits %d, bias %d, sub %s, inf %s, nan %s",
             best.sign, best.ebits, best.mbits, best.bias,
             best.sub == LAD_SUB_IEEE ? "ieee" : best.sub == LAD_SUB_FLUSH ? "flush" : "none",
             best.inf ? "ieee" : "none",
             best.nan == LAD_NAN_IEEE ? "ieee" : best.nan == LAD_NAN_ONES ? "ones" : "none");
    return LAD_OK;
}

