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
    int rc = lad_decode_fit(&g, f->width, w, d, (size_t)n, f32, 0x7fffffff, 0, msg, sizeof msg);
    int same = rc == LAD_OK;
    for (int i = 0; i < n && same; i++) {
        lad_value x = lad_decode(f, w[i]), y = lad_decode(&g, w[i]);
        same = x.cls == y.cls && (x.cls == LAD_NAN || (x.neg == y.neg && x.mag == y.mag && x.exp == y.exp));
    }
    snprintf(tname, sizeof tname, "probes-decode-fit-%s", name);
    test_check(same, tname, "rc %d: %s", rc, msg);
}

void test_decode(void)
{
    const char *fmts[] = {"e4m3", "e5m2", "e2m1", "e3m2", "e2m3"};
    for (int i = 0; i < 5; i++)
        fit_one(fmts[i]);
}
