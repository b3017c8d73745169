/*
** Unit tests of the probe ladder's building blocks: exact case builders
** (checked against values written by hand) and lane placement under
** sparsity. Decode fitting is tested in test_decode.c.
*/
#include "test.h"

#include <string.h>

#include "model/datapath.h"
#include "model/presets.h"
#include "probes/case.h"
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

void test_probes(void)
{
    words();
    terms();
}
