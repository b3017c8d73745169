/*
** Unit tests of decode fitting (model/format_fit.c), checked against the
** built-in formats' own decodes: every code of e4m3, e5m2, e2m1, e3m2 and
** e2m3, recovered from what a product with 1.0 shows. The test names keep
** the prefix they had when the fit lived with the decode rung.
*/
#include "test.h"

#include <stdio.h>
#include <string.h>

#include "model/format_fit.h"
#include "model/format_spec.h"
#include "model/datapath.h"

/* Every code of a built-in format times 1.0, decoded back. */
static void fit_one(const char *name)
{
    const lad_format *f = lad_format_find(name), *f32 = lad_format_find("f32");
    uint64_t w[256], d[256];
    int n = 1 << f->width;
    for (int i = 0; i < n; i++) {
        w[i] = (uint64_t)i;
        lad_value v = lad_decode(f, w[i]);
        if (v.cls == LAD_NAN)
            d[i] = 0x7fffffff;
        else if (v.cls == LAD_INFINITE)
            d[i] = v.neg ? 0xff800000 : 0x7f800000;
        else
            d[i] = lad_round_value(f32, v.neg, v.mag, v.exp, 0, LAD_RZ, LAD_OVF_INF, NULL);
    }
    lad_format g;
    memset(&g, 0, sizeof g);
    snprintf(g.name, sizeof g.name, "x");
    char msg[160], tname[64];
    int rc = lad_decode_fit(&g, f->width, w, d, (size_t)n, f32, 0x7fffffff, 0, 0, msg, sizeof msg);
    int same = rc == LAD_OK;
    for (int i = 0; i < n && same; i++) {
        lad_value x = lad_decode(f, w[i]), y = lad_decode(&g, w[i]);
        same = x.cls == y.cls && (x.cls == LAD_NAN || (x.neg == y.neg && x.mag == y.mag && x.exp == y.exp));
    }
    snprintf(tname, sizeof tname, "probes-decode-fit-%s", name);
    test_check(same, tname, "rc %d: %s", rc, msg);
}

/* The word a result format d makes of code w of format f times 1.0; with
** flush, a subnormal result is a zero of its sign (ftz_out). */
static uint64_t through(const lad_format *f, const lad_format *d, uint64_t w, int flush)
{
    lad_value v = lad_decode(f, w);
    if (v.cls == LAD_NAN)
        return lad_format_nan(d);
    if (v.cls == LAD_INFINITE)
        return lad_format_inf(d, v.neg);
    uint64_t r = lad_round_value(d, v.neg, v.mag, v.exp, 0, LAD_RNE, LAD_OVF_INF, NULL);
    uint64_t efield = (r >> d->mbits) & ((1u << d->ebits) - 1);
    if (flush && efield == 0)
        r &= (uint64_t)1 << (d->width - 1);
    return r;
}

/* Every code of the 8-bit format spec times 1.0 into f16, whose range its
** top codes pass: the fit finds a format that gives the same f16 words
** (the codes past the range tell only that they overflow). flush: the
** results flush subnormals, so the codes below f16's normals show zero. */
static void fit_through_f16(const char *spec, int flush)
{
    lad_format f, g;
    const lad_format *f16 = lad_format_find("f16");
    int ok = lad_format_parse(spec, &f, NULL) == LAD_OK;
    uint64_t w[256], d[256];
    for (int i = 0; i < 256 && ok; i++)
        d[i] = through(&f, f16, w[i] = (uint64_t)i, flush);
    memset(&g, 0, sizeof g);
    snprintf(g.name, sizeof g.name, "x");
    char msg[160], tname[96];
    int rc = ok ? lad_decode_fit(&g, 8, w, d, 256, f16, lad_format_nan(f16), 0, 0, msg, sizeof msg)
                : LAD_EDATA;
    int same = rc == LAD_OK;
    for (int i = 0; i < 256 && same; i++)
        same = through(&g, f16, w[i], flush) == d[i];
    snprintf(tname, sizeof tname, "probes-decode-fit-f16-%s%s", spec, flush ? "-ftz" : "");
    test_check(same, tname, "rc %d: %s", rc, ok ? msg : "bad spec");
}

/* e5m2 without Inf into f16: its top binade (2^16 and up) overflows f16
** like Inf would, so two decodes explain every code, the IEEE one first;
** skip 1 gives the other, skip 2 none. */
static void fit_alternatives(void)
{
    lad_format f, g0, g1, g2;
    const lad_format *f16 = lad_format_find("f16");
    int ok = lad_format_parse("e5m2:inf=none,nan=ones", &f, NULL) == LAD_OK;
    uint64_t w[256], d[256];
    for (int i = 0; i < 256 && ok; i++)
        d[i] = through(&f, f16, w[i] = (uint64_t)i, 0);
    char msg[160];
    memset(&g0, 0, sizeof g0);
    g2 = g1 = g0;
    int r0 = lad_decode_fit(&g0, 8, w, d, 256, f16, lad_format_nan(f16), 0, 0, msg, sizeof msg);
    int r1 = lad_decode_fit(&g1, 8, w, d, 256, f16, lad_format_nan(f16), 0, 1, msg, sizeof msg);
    int r2 = lad_decode_fit(&g2, 8, w, d, 256, f16, lad_format_nan(f16), 0, 2, msg, sizeof msg);
    test_check(ok && r0 == LAD_OK && r1 == LAD_OK && r2 == LAD_NO, "probes-decode-fit-alternatives",
               "rc %d %d %d: %s", r0, r1, r2, msg);
    /* 0x7c: Inf in the first, 2^16 in the second, as in e5m2 without Inf */
    const lad_format *f32 = lad_format_find("f32");
    uint64_t y0 = through(&g0, f32, 0x7c, 0), y1 = through(&g1, f32, 0x7c, 0);
    test_check(y0 == 0x7f800000 && y1 == 0x47800000 && y1 == through(&f, f32, 0x7c, 0),
               "probes-decode-fit-alternative-second", "0x7c: 0x%llx, then 0x%llx",
               (unsigned long long)y0, (unsigned long long)y1);
    for (int i = 0; i < 256 && r1 == LAD_OK; i++)
        ok &= through(&g0, f16, w[i], 0) == d[i] && through(&g1, f16, w[i], 0) == d[i];
    test_check(ok, "probes-decode-fit-alternatives-explain", "a decode gives another f16 word");
}

void test_decode(void)
{
    fit_alternatives();
    fit_through_f16("e5m2:inf=none,nan=ones", 0);
    fit_through_f16("e5m2", 0);
    fit_through_f16("e4m3", 0);
    /* codes down to 2^-17, the f16 normals to 2^-14 */
    fit_through_f16("e5m2:bias=16", 1);
    fit_through_f16("e5m2", 1);
    const char *fmts[] = {"e4m3", "e5m2", "e2m1", "e3m2", "e2m3"};
    for (int i = 0; i < 5; i++)
        fit_one(fmts[i]);
}
