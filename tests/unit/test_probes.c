/*
** Unit tests of the probe ladder's building blocks: exact case builders
** (checked against values written by hand, and a term's split against the
** whole search written out) and lane placement under sparsity. Decode
** fitting is tested in test_decode.c.
*/
#include "test.h"

#include <string.h>

#include "model/datapath.h"
#include "model/format_spec.h"
#include "model/presets.h"
#include "probes/case.h"
#include "probes/gen.h"
#include "probes/ladder.h"

static void words(void)
{
    const lad_format *f32 = lad_format_find("f32"), *bf16 = lad_format_find("bf16");
    const lad_format *e2m1 = lad_format_find("e2m1"), *tf32 = lad_format_find("tf32");
    uint64_t w = 0;
    test_check(lad_word(f32, 0, 1, 0, &w) == LAD_OK && w == 0x3f800000, "probes-word-f32-one",
               "got 0x%" PRIx64, w);
    test_check(lad_word(f32, 1, 3, -1, &w) == LAD_OK && w == 0xbfc00000, "probes-word-f32-m1.5",
               "got 0x%" PRIx64, w);
    test_check(lad_word(f32, 0, 1, -149, &w) == LAD_OK && w == 1, "probes-word-f32-minsub",
               "got 0x%" PRIx64, w);
    test_check(lad_word(f32, 0, 1, -150, &w) == LAD_NO, "probes-word-f32-below-range", "accepted");
    test_check(lad_word(bf16, 0, 0x101, -8, &w) == LAD_NO, "probes-word-bf16-too-many-bits",
               "accepted 0x%" PRIx64, w);
    test_check(lad_word(bf16, 0, 0x81, -7, &w) == LAD_OK && w == 0x3f81, "probes-word-bf16-1+2^-7",
               "got 0x%" PRIx64, w);
    test_check(lad_word(e2m1, 0, 3, 1, &w) == LAD_OK && w == 0x7, "probes-word-e2m1-6",
               "got 0x%" PRIx64, w);
    test_check(lad_word(e2m1, 0, 5, 0, &w) == LAD_NO, "probes-word-e2m1-5", "accepted");
    test_check(lad_word(tf32, 0, 0x401, -10, &w) == LAD_OK && w == 0x3f802000,
               "probes-word-tf32-1+2^-10", "got 0x%" PRIx64, w);
    test_check(lad_word(tf32, 0, 0x801, -11, &w) == LAD_NO, "probes-word-tf32-2^-11", "accepted");
}

static void terms(void)
{
    const lad_preset *p = lad_preset_find("sm90-mma-bf16-f32");
    if (p == NULL) {
        test_check(0, "probes-term-preset", "no preset sm90-mma-bf16-f32");
        return;
    }
    lad_case cs;
    lad_case_base(&p->dp, &cs);
    /* 2^-40 as a product of two normal bf16 values */
    int rc = lad_case_term(&p->dp, &cs, 3, 1, 1, -40);
    lad_value a = lad_decode(&p->dp.a, cs.a[3]), b = lad_decode(&p->dp.b, cs.b[3]);
    test_check(rc == LAD_OK && a.cls == LAD_NORMAL && b.cls == LAD_NORMAL &&
                   a.neg != b.neg && a.raw + b.raw == -40,
               "probes-term-bf16-2^-40", "rc %d a 0x%" PRIx64 " b 0x%" PRIx64, rc, cs.a[3], cs.b[3]);
    /* 1 - 2^-20 is exact in f32: 0x3f800000 less 16 units of 2^-24 */
    lad_case_base(&p->dp, &cs);
    lad_case_term(&p->dp, &cs, 3, 1, 1, -20);
    lad_case_c(&p->dp, &cs, 0, 1, 0);
    TEST_EQ_U32("probes-term-eval-1-2^-20", 0x3f7ffff0, lad_eval(&p->dp, &cs));

    const lad_preset *sp = lad_preset_find("sm100-tcgen05-sp-bf16-f32");
    if (sp) {
        TEST_EQ_INT("probes-lane-2of4-j3", 5, lad_case_lane(&sp->dp, 3));
        lad_case_base(&sp->dp, &cs);
        TEST_EQ_INT("probes-lane-2of4-legal", 0, lad_sparse_check(&sp->dp, &cs));
    }
    const lad_preset *mx = lad_preset_find("sm100-tcgen05-mxf4-e2m1-f32");
    if (mx) {
        TEST_EQ_INT("probes-lane-mx-j3", 3, lad_case_lane(&mx->dp, 3));
        lad_case_base(&mx->dp, &cs);
        TEST_EQ_U32("probes-base-unit-scale", 0x7f, cs.sa[0]);
    }
}

/* lad_case_term against the search it stands for, written out whole: the
** divisors m1 of mag (mag, then 64 down to 1), every exponent from -400 to
** 400, A's word before B's, normal words first. */
static int brute_split(const lad_format *f, const lad_format *g, int neg, uint64_t mag,
                       int exp, int normal, lad_word_t *wf, lad_word_t *wg)
{
    for (uint64_t m1 = mag; m1 >= 1; m1 = m1 == mag && mag > 64 ? 64 : m1 - 1) {
        if (mag % m1)
            continue;
        for (int ea = -400; ea <= 400; ea++) {
            lad_word_t x, y;
            if (lad_word(f, neg, m1, ea, &x) || lad_word(g, 0, mag / m1, exp - ea, &y))
                continue;
            if (normal && (lad_decode(f, x).cls != LAD_NORMAL ||
                           lad_decode(g, y).cls != LAD_NORMAL))
                continue;
            *wf = x;
            *wg = y;
            return LAD_OK;
        }
    }
    return LAD_NO;
}

static int brute_term(const lad_format *fa, const lad_format *fb, int neg, uint64_t mag,
                      int exp, lad_word_t *a, lad_word_t *b)
{
    for (int normal = 1; normal >= 0; normal--)
        if (brute_split(fa, fb, neg, mag, exp, normal, a, b) == LAD_OK ||
            brute_split(fb, fa, neg, mag, exp, normal, b, a) == LAD_OK)
            return LAD_OK;
    return LAD_NO;
}

/* Random terms on random pairs of float formats, built-in and user-defined,
** exponents drawn around the ends of what the two formats' products reach. */
static void splits(void)
{
    const lad_preset *p = lad_preset_find("sm90-mma-bf16-f32");
    if (p == NULL) {
        test_check(0, "probes-split-preset", "no preset sm90-mma-bf16-f32");
        return;
    }
    /* the built-in float formats and user-defined ones as the random
    ** draws declare them (tests/data/model-random.sh) */
    static const char *const specs[] = {
        "e3m2:bias=4,name=e3m2b4", "e2m3:bias=2,sub=flush,name=e2m3ftz",
        "e3m4:bias=3,inf=none,nan=none", "e2m5:bias=1,inf=none,nan=none",
        "e5m2:bias=16,name=e5m2b16", "e4m3:sub=flush,name=e4m3ftz",
        "e5m2:inf=none,nan=ones,name=e5m2fn"};
    enum { NSPEC = sizeof specs / sizeof *specs };
    lad_format fl[32 + NSPEC];
    int nf = 0;
    for (int i = 0; lad_format_builtin(i) && nf < 32; i++)
        if (lad_format_builtin(i)->kind == LAD_FLOAT)
            fl[nf++] = *lad_format_builtin(i);
    int parsed = 0;
    for (int i = 0; i < NSPEC; i++) {
        lad_err err = {0};
        if (lad_format_parse(specs[i], &fl[nf], &err) == LAD_OK)
            nf++, parsed++;
        else
            fprintf(stderr, "probes: %s: %s\n", specs[i], err.msg);
    }
    TEST_EQ_INT("probes-split-specs", NSPEC, parsed);
    lad_datapath dp = p->dp;
    lad_rng r;
    lad_rng_seed(&r, 0x243f6a8885a308d3ull);
    int bad = 0, found = 0, n = 2000;
    char first[200] = "";
    for (int t = 0; t < n; t++) {
        dp.a = fl[lad_rng_below(&r, (uint32_t)nf)];
        dp.b = fl[lad_rng_below(&r, (uint32_t)nf)];
        int lo = 2 - dp.a.bias - dp.a.mbits + 1 - dp.b.bias - dp.b.mbits - 4;
        int hi = (1 << dp.a.ebits) - dp.a.bias + (1 << dp.b.ebits) - dp.b.bias + 4;
        int neg = lad_rng_range(&r, 0, 1), bits = lad_rng_range(&r, 1, 24);
        uint64_t mag = (lad_rng_next(&r) & ((1ull << bits) - 1)) | 1ull << (bits - 1);
        /* near the low end, near the high end, or anywhere between */
        int where = lad_rng_range(&r, 0, 3);
        int exp = where == 0   ? lo + lad_rng_range(&r, 0, 11)
                  : where == 1 ? hi - bits - lad_rng_range(&r, 0, 11)
                               : lad_rng_range(&r, lo, hi);
        lad_word_t a = 0, b = 0;
        lad_case cs;
        lad_case_base(&dp, &cs);
        int rc = lad_case_term(&dp, &cs, 0, neg, mag, exp);
        int want = brute_term(&dp.a, &dp.b, neg, mag, exp, &a, &b);
        found += want == LAD_OK;
        if (rc != want || (rc == LAD_OK && (cs.a[0] != a || cs.b[0] != b))) {
            if (!bad++)
                snprintf(first, sizeof first, "%s x %s, %s%" PRIu64 " * 2^%d: rc %d, "
                         "words 0x%" PRIx64 " 0x%" PRIx64 ", the search's rc %d, 0x%" PRIx64
                         " 0x%" PRIx64, dp.a.name, dp.b.name, neg ? "-" : "", mag, exp, rc,
                         cs.a[0], cs.b[0], want, a, b);
        }
    }
    test_check(bad == 0, "probes-split-as-search", "%d of %d differ; first: %s", bad, n, first);
    /* the draws reach both outcomes */
    test_check(found > n / 10 && found < n - n / 10, "probes-split-both-outcomes",
               "%d of %d terms placed", found, n);
}

void test_probes(void)
{
    words();
    terms();
    splits();
}
