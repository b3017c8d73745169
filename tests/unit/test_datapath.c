/*
** Datapath tests: each mechanism of the model on cases whose answer is
** worked out by hand from the published rules (docs/model.md), plus the
** consistency of every preset. The hardware vectors themselves are replayed
** by tests/t3200-check-vectors.sh, and random cases against an independent
** exact reference by test_rational.c.
*/
#include "test.h"

#include <stdlib.h>
#include <string.h>

#include "model/datapath_int.h"
#include "model/gemm_kernel.h"
#include "model/presets.h"
#include "probes/gen.h"

static lad_datapath preset(const char *name)
{
    const lad_preset *p = lad_preset_find(name);
    lad_datapath dp;
    if (!p) {
        test_check(0, "datapath-preset-exists", "no preset '%s'", name);
        lad_datapath_init(&dp);
        return dp;
    }
    return p->dp;
}

static void zero_case(lad_case *cs)
{
    memset(cs, 0, sizeof *cs);
}

#define ONE32 0x3f800000u

static void test_presets_consistent(void)
{
    int n = lad_preset_count(), bad = 0;
    char first[640] = "";
    for (int i = 0; i < n; i++) {
        lad_err err = {0};
        if (lad_datapath_check(&lad_preset_get(i)->dp, &err) != LAD_OK && !bad++)
            snprintf(first, sizeof first, "%s: %s", lad_preset_get(i)->dp.name, err.msg);
    }
    test_check(bad == 0, "datapath-presets-check", "%d presets fail: %s", bad, first);
    test_check(n >= 46 + 26, "datapath-presets-count", "only %d presets", n);
    /* names are unique */
    int dup = 0;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            if (strcmp(lad_preset_get(i)->dp.name, lad_preset_get(j)->dp.name) == 0)
                dup++;
    TEST_EQ_INT("datapath-presets-unique", 0, dup);
}

static void test_window(void)
{
    lad_datapath dp = preset("sm100-tcgen05-tf32-f32");
    lad_case cs;
    /* eight products of 1*1: 8.0 */
    zero_case(&cs);
    for (int i = 0; i < 8; i++)
        cs.a[i] = cs.b[i] = ONE32;
    TEST_EQ_U32("datapath-tf32-eight-ones", 0x41000000, lad_eval(&dp, &cs));

    /* -1 + 1 + 2^-25: the 25-bit window below the anchor 0 keeps 2^-25 */
    zero_case(&cs);
    cs.a[0] = 0xbf800000; cs.b[0] = ONE32;   /* -1 */
    cs.a[1] = ONE32;      cs.b[1] = ONE32;   /* +1 */
    cs.a[2] = 0x33000000; cs.b[2] = ONE32;   /* 2^-25 */
    TEST_EQ_U32("datapath-tf32-window-keeps-2^-25", 0x33000000, lad_eval(&dp, &cs));
    cs.a[2] = 0x32800000;                     /* 2^-26: below the window */
    TEST_EQ_U32("datapath-tf32-window-drops-2^-26", 0x00000000, lad_eval(&dp, &cs));

    /* C in the anchor: C = 1, product 2^-26 is truncated away, product
    ** 2^-23 survives (visible in f32) */
    zero_case(&cs);
    cs.c = ONE32;
    cs.a[0] = 0x34000000; cs.b[0] = ONE32;   /* 2^-23 */
    TEST_EQ_U32("datapath-tf32-c-plus-ulp", 0x3f800001, lad_eval(&dp, &cs));
    cs.a[0] = 0x32800000;
    TEST_EQ_U32("datapath-tf32-c-plus-tiny", ONE32, lad_eval(&dp, &cs));

    /* input cut: tf32 ignores the low 13 bits of the f32 word */
    zero_case(&cs);
    cs.a[0] = 0x3f801fff; cs.b[0] = ONE32;
    TEST_EQ_U32("datapath-tf32-input-truncated", ONE32, lad_eval(&dp, &cs));
    /* rounding the input instead carries into the kept bits */
    lad_datapath dr = dp;
    dr.in_round = LAD_RNE;
    TEST_EQ_U32("datapath-tf32-input-rounded", 0x3f802000, lad_eval(&dr, &cs));

    /* output toward zero: 1 + 2^-24 + 2^-25 is cut to 1 in f32 */
    zero_case(&cs);
    cs.c = ONE32;
    cs.a[0] = 0x33800000; cs.b[0] = ONE32;   /* 2^-24 */
    cs.a[1] = 0x33000000; cs.b[1] = ONE32;   /* 2^-25 */
    TEST_EQ_U32("datapath-tf32-output-rz", ONE32, lad_eval(&dp, &cs));
    dr = dp;
    dr.d_round = LAD_RNE;                     /* 0.75 ulp rounds up */
    TEST_EQ_U32("datapath-output-rne", 0x3f800001, lad_eval(&dr, &cs));
}

static void test_specials(void)
{
    lad_datapath dp = preset("sm100-tcgen05-bf16-f32");
    lad_case cs;
    zero_case(&cs);
    cs.a[0] = 0x7f80; cs.b[0] = 0x0000;      /* Inf * 0 */
    TEST_EQ_U32("datapath-inf-times-zero", 0x7fffffff, lad_eval(&dp, &cs));
    cs.b[0] = 0xbf80;                         /* Inf * -1 */
    TEST_EQ_U32("datapath-inf-times-neg", 0xff800000, lad_eval(&dp, &cs));
    cs.a[1] = 0x7f80; cs.b[1] = 0x3f80;       /* and +Inf: -Inf + Inf */
    TEST_EQ_U32("datapath-inf-minus-inf", 0x7fffffff, lad_eval(&dp, &cs));
    zero_case(&cs);
    cs.a[3] = 0x7fc1; cs.b[3] = 0x3f80;       /* NaN payloads do not propagate */
    TEST_EQ_U32("datapath-nan-canonical", 0x7fffffff, lad_eval(&dp, &cs));
    zero_case(&cs);
    cs.c = 0x80000000;                        /* -0 + nothing is +0 */
    TEST_EQ_U32("datapath-negative-zero", 0x00000000, lad_eval(&dp, &cs));
    zero_case(&cs);
    cs.a[0] = 0x7f7f; cs.b[0] = 0x7f7f;       /* finite overflow is Inf even in RZ */
    TEST_EQ_U32("datapath-overflow-inf", 0x7f800000, lad_eval(&dp, &cs));
    lad_datapath sat = dp;
    sat.overflow = LAD_OVF_SAT;
    TEST_EQ_U32("datapath-overflow-sat", 0x7f7fffff, lad_eval(&sat, &cs));
    /* window floor -133: two bf16 subnormal-ish products 2^-130 * 2^-10 */
    zero_case(&cs);
    cs.a[0] = 0x0001; cs.b[0] = 0x3f80;       /* min bf16 subnormal 2^-133 */
    TEST_EQ_U32("datapath-bf16-min-subnormal", 0x00010000, lad_eval(&dp, &cs));
}

static void test_f16_result(void)
{
    lad_datapath dp = preset("sm100-tcgen05-e4m3-f16");
    lad_case cs;
    /* 1 + 2^-11 is a tie between 1 and 1 + 2^-10 in f16: nearest even is 1 */
    zero_case(&cs);
    cs.c = 0x3c00;
    cs.a[0] = 0x08; cs.b[0] = 0x38;           /* e4m3 2^-6 * 2^-5... see below */
    /* e4m3 0x08 = 2^-6 (field 1), 0x28 = 2^-2: product 2^-8; use two lanes
    ** to build 2^-11 = 2^-6 * 2^-5 with 0x10 = 2^-5 */
    cs.b[0] = 0x10;
    TEST_EQ_U32("datapath-f16-tie-even-down", 0x3c00, lad_eval(&dp, &cs));
    cs.c = 0x3c01;                            /* odd: the tie rounds up */
    TEST_EQ_U32("datapath-f16-tie-even-up", 0x3c02, lad_eval(&dp, &cs));
    zero_case(&cs);
    cs.a[0] = 0x7f; cs.b[0] = 0x38;           /* e4m3 NaN */
    TEST_EQ_U32("datapath-f16-nan", 0x7fff, lad_eval(&dp, &cs));
}

static void test_integer(void)
{
    lad_datapath dp = preset("sm100-tcgen05-s8xs8-s32");
    lad_case cs;
    zero_case(&cs);
    cs.c = 0x7fffffff;
    cs.a[0] = 0x7f; cs.b[0] = 0x7f;           /* 127*127 = 16129 */
    TEST_EQ_U32("datapath-int-wrap", 0x7fffffffu + 16129u, lad_eval(&dp, &cs));
    lad_datapath sat = preset("sm100-tcgen05-s8xs8-s32-sat");
    TEST_EQ_U32("datapath-int-saturate", 0x7fffffff, lad_eval(&sat, &cs));
    zero_case(&cs);
    cs.a[0] = 0x80; cs.b[0] = 0x7f;           /* -128*127 */
    TEST_EQ_U32("datapath-int-signed", (uint32_t)(-128 * 127), lad_eval(&dp, &cs));
    lad_datapath uu = preset("sm100-tcgen05-u8xu8-s32");
    TEST_EQ_U32("datapath-int-unsigned", 128u * 127u, lad_eval(&uu, &cs));
}

static void test_sparse(void)
{
    lad_datapath dp = preset("sm100-tcgen05-sp-tf32-f32");
    lad_case cs;
    zero_case(&cs);
    for (int i = 0; i < 16; i++) {
        cs.a[i] = ONE32;
        cs.b[i] = ONE32;
    }
    cs.a[1] = 0x7fc00000;                     /* NaN in a removed lane */
    cs.meta[0] = 0x44444444;                  /* keep the lower lane of each pair */
    TEST_EQ_U32("datapath-sparse-removed-nan", 0x41000000, lad_eval(&dp, &cs));
    TEST_EQ_INT("datapath-sparse-legal", 0, lad_sparse_check(&dp, &cs));
    cs.meta[0] = 0x4444444e;                  /* chunk 0 keeps lane 1: the NaN */
    TEST_EQ_U32("datapath-sparse-kept-nan", 0x7fffffff, lad_eval(&dp, &cs));
    cs.meta[0] = 0x44444445;                  /* 5 is illegal for tf32 */
    TEST_EQ_INT("datapath-sparse-illegal", 1, lad_sparse_check(&dp, &cs));
}

static void test_passes(void)
{
    /* Ada e4m3: two chained passes of 16, each rounded to e8m13. Pass 1:
    ** 1 + 2^-14 keeps 2^-14 in its window (F=13 is below 2^0... no: q =
    ** 0 - 13, so 2^-14 is truncated away); pass 2 sees only 1. With one
    ** pass of 32 the same happens; the difference shows when the tiny term
    ** sits in pass 2 next to a cancelling pair. */
    lad_datapath dp = preset("sm89-mma-e4m3-f32");
    lad_case cs;
    zero_case(&cs);
    cs.a[0] = 0x38; cs.b[0] = 0x38;           /* pass 1: +1 */
    cs.a[16] = 0xb8; cs.b[16] = 0x38;         /* pass 2: -1 */
    cs.a[17] = 0x08; cs.b[17] = 0x10;         /* pass 2: 2^-11 */
    /* pass 2 anchor is max(raw of -1, raw of the addend 1) = 0, q = -13:
    ** 1 - 1 + 2^-11 = 2^-11 */
    TEST_EQ_U32("datapath-passes-chained", 0x3a000000, lad_eval(&dp, &cs));
    /* the same terms in one pass give the same sum; move +1 next to a
    ** big term in pass 1 instead: 2^8 + 1 keeps 1 (q = 8 - 13) */
    zero_case(&cs);
    cs.a[0] = 0x78; cs.b[0] = 0x38;           /* 256 */
    cs.a[1] = 0x08; cs.b[1] = 0x10;           /* 2^-11: below q = -5 in pass 1 */
    cs.a[16] = 0xf8; cs.b[16] = 0x38;         /* pass 2: -256 */
    TEST_EQ_U32("datapath-passes-lost-in-first", 0x00000000, lad_eval(&dp, &cs));
}

/* Evaluates cs on the general code, whatever path lad_eval would take. */
static uint32_t eval_general(const lad_datapath *dp, const lad_case *cs)
{
    lad_plan p;
    lad_plan_init(&p, dp);
    p.path = LAD_PATH_GENERAL;
    return lad_plan_eval(&p, cs);
}

/*
** The subnormal group floor of the B200 mxf4 kinds
** (docs/reference/tcgen05-model-notes.md 7.3), worked by hand. Block 0
** (scales 2^-70 * 2^-70, S = -140) holds 1 * 1 in lane 0; block 1 (2^-88 *
** 2^-87, Sg = -175) holds -1 * 1 in lane 32. Rp = -140, so q = max(-140 -
** 39, -140 - 35) = -175: the sum is 2^35 - 1 units, 2^-140 - 2^-175, a
** subnormal f32 that RZ cuts to 0x1ff (2^-149 units). The lower-scale group
** holds 1 unit, below T = 2^(-174 - q) = 2 units: dropped, the result is
** 2^-140 exactly, 0x200. Without the floor it stays 0x1ff.
*/
static void test_block_scaled(void)
{
    lad_datapath dp = preset("sm100-tcgen05-mxf4-e2m1-f32");
    lad_case cs;
    zero_case(&cs);
    cs.a[0] = 0x2; cs.b[0] = 0x2;             /* e2m1 1.0 * 1.0 */
    cs.a[32] = 0xa; cs.b[32] = 0x2;           /* -1.0 * 1.0 */
    cs.sa[0] = 57; cs.sb[0] = 57;             /* ue8m0 2^-70, 2^-70 */
    cs.sa[1] = 39; cs.sb[1] = 40;             /* 2^-88, 2^-87 */
    TEST_EQ_U32("datapath-mxf4-subnormal-group-dropped", 0x00000200, lad_eval(&dp, &cs));
    TEST_EQ_U32("datapath-mxf4-subnormal-group-dropped-general", 0x00000200, eval_general(&dp, &cs));
    lad_datapath nof = dp;
    nof.group_sub_floor = LAD_NOFLOOR;
    TEST_EQ_U32("datapath-mxf4-subnormal-group-kept", 0x000001ff, lad_eval(&nof, &cs));
    TEST_EQ_U32("datapath-mxf4-subnormal-group-kept-general", 0x000001ff, eval_general(&nof, &cs));
    lad_plan p;
    lad_plan_init(&p, &dp);
    TEST_EQ_U32("datapath-mxf4-scaled-path", LAD_PATH_SCALED, (uint32_t)p.path);
}

/* An fnuz operand: its one NaN is the -0 word, its top exponent finite.
** The fast path once read 0x80 of e5m2fnuz as a finite value (fuzz_plan);
** now its lane decoders tell that word, in every position a decoder of
** eight, four or one lane meets it (K = 64 lanes, the NaN in lane j), and
** read the words beside it (the top exponent, a negative number) as
** numbers, as the general code does. */
static void test_fnuz_path(void)
{
    lad_datapath dp;
    lad_datapath_init(&dp);
    dp.a = *lad_format_find("e2m3");
    dp.b = *lad_format_find("e5m2fnuz");
    dp.k = dp.pass = 64;
    lad_plan p;
    lad_plan_init(&p, &dp);
    TEST_EQ_U32("datapath-fnuz-fast-path", LAD_PATH_FAST, (uint32_t)p.path);
    lad_plan generic = p;
    generic.avx2 = 0;
    int bad = 0, nans = 0;
    for (int j = 0; j < dp.k; j++) {
        lad_case cs;
        memset(&cs, 0, sizeof cs);
        for (int i = 0; i < dp.k; i++) {
            cs.a[i] = 0x08;                    /* e2m3 1.0 */
            cs.b[i] = i % 2 ? 0xfc : 0x81;     /* -57344 (top exponent), -2^-17 */
        }
        cs.b[j] = 0x80;                        /* e5m2fnuz NaN */
        lad_word_t want = lad_eval_general(&dp, &cs);
        nans += want == dp.nan;
        bad += lad_plan_eval(&p, &cs) != want || lad_plan_eval(&generic, &cs) != want;
        cs.b[j] = 0xfc;                        /* no NaN: a finite sum */
        want = lad_eval_general(&dp, &cs);
        nans += want == dp.nan;
        bad += lad_plan_eval(&p, &cs) != want || lad_plan_eval(&generic, &cs) != want;
    }
    test_check(bad == 0 && nans == dp.k, "datapath-fnuz-nan-lanes",
               "%d of %d cases differ from the general code; %d NaN results (want %d)", bad,
               2 * dp.k, nans, dp.k);
}

/* The table fits its array (filling it past LAD_PRESETS_MAX aborts), with
** room left so that the next datapath added does not hit the bound. */
static void test_presets_bound(void)
{
    int n = lad_preset_count();
    test_check(n > 0 && n < LAD_PRESETS_MAX, "datapath-presets-bound",
               "%d presets, table of %d", n, LAD_PRESETS_MAX);
    test_check(lad_preset_get(n) == NULL && lad_preset_get(-1) == NULL,
               "datapath-presets-get-outside", "an index outside the table gave a preset");
}

/* An unsigned result format (a model file may declare one) cannot hold a
** negative sum: the plan must give the reference's word, not the magnitude
** with a sign bit the format lacks (found by tests/fuzz/fuzz_plan.c). The
** sum here is 1 * -1 = -1, single pass (d) and two passes (acc). */
static void test_unsigned_result(void)
{
    static const char *const name[2] = {"datapath-unsigned-d", "datapath-unsigned-acc"};
    for (int which = 0; which < 2; which++) {
        lad_datapath dp = preset("sm90-mma-f16-f32");
        lad_format u = *lad_format_find("f32");
        u.sign = 0;
        snprintf(u.name, sizeof u.name, "ue8m23");
        if (which == 0) {
            dp.d = u;
        } else {
            dp.acc = u;
            dp.pass = dp.k / 2;
        }
        lad_err err = {0};
        int rc = lad_datapath_check(&dp, &err);
        lad_case cs;
        zero_case(&cs);
        cs.a[0] = 0x3c00;          /* 1 */
        cs.b[0] = 0xbc00;          /* -1 */
        cs.a[dp.k - 1] = 0x3c00;   /* and +0 * 1 in the second pass */
        lad_plan pl;
        lad_plan_init(&pl, &dp);
        uint32_t fast = lad_plan_eval(&pl, &cs), ref = lad_eval_general(&dp, &cs);
        int fits = dp.d.width == 32 || (fast >> dp.d.width) == 0;
        test_check(rc == LAD_OK && fast == ref && fits, name[which],
                   "rc %d (%s), plan %08x (path %d), reference %08x", rc, err.msg, fast,
                   pl.path, ref);
    }
}

/* f64 mma: K chained IEEE fmas, each rounded to nearest even, words from
** the binary64 encoding by hand. Lanes past the first are -0 * +0, which
** an fma adds without changing any value, a zero's sign included. */
static lad_word_t f64_fma1(const lad_datapath *dp, lad_word_t a, lad_word_t b, lad_word_t c)
{
    lad_case cs;
    zero_case(&cs);
    cs.a[0] = a;
    cs.b[0] = b;
    cs.c = c;
    for (int i = 1; i < dp->k; i++)
        cs.a[i] = 0x8000000000000000ull;
    return lad_eval(dp, &cs);
}

static void test_f64_fma(void)
{
    lad_datapath dp = preset("sm80-mma-f64-f64");
    const lad_word_t one = 0x3ff0000000000000ull, e30 = 0x3ff0000000400000ull; /* 1 + 2^-30 */
    /* (1 + 2^-30)^2 = 1 + 2^-29 + 2^-60 needs 61 bits: + 0 rounds it to
    ** 1 + 2^-29; - 1 leaves 2^-29 + 2^-60 exactly (one rounding only). */
    TEST_EQ_WORD("datapath-f64-fma-wide-product", 0x3ff0000000800000ull, f64_fma1(&dp, e30, e30, 0));
    TEST_EQ_WORD("datapath-f64-fma-one-rounding", 0x3e20000000200000ull,
                 f64_fma1(&dp, e30, e30, one | (1ull << 63)));
    /* c = 1 + 2^-52 plus a product 2^-20 (1 + 2^-52)^2 whose bits reach 124
    ** below c's top: 1 + 2^-20 + 2^-52 (+ 2^-71 + 2^-124 rounded off). */
    TEST_EQ_WORD("datapath-f64-fma-far-overlap", 0x3ff0000100000001ull,
                 f64_fma1(&dp, 0x3f50000000000001ull, 0x3f50000000000001ull, 0x3ff0000000000001ull));
    /* The smallest subnormal squared is 2^-2148: rounds to a zero of its
    ** sign; -0 + -0 * x is -0, +0 + -0 is +0, 1 - 1 is +0. */
    TEST_EQ_WORD("datapath-f64-fma-underflow-neg", 0x8000000000000000ull,
                 f64_fma1(&dp, 0x8000000000000001ull, 1, 0));
    TEST_EQ_WORD("datapath-f64-fma-underflow-pos", 0,
                 f64_fma1(&dp, 1, 1, 0x8000000000000000ull));
    TEST_EQ_WORD("datapath-f64-fma-zeros-neg", 0x8000000000000000ull,
                 f64_fma1(&dp, 0x8000000000000000ull, one, 0x8000000000000000ull));
    lad_case cs;
    zero_case(&cs);
    cs.c = 0x8000000000000000ull;
    for (int i = 0; i < 4; i++)
        cs.a[i] = cs.b[i] = 0x8000000000000000ull;  /* -0 * -0 = +0 */
    TEST_EQ_WORD("datapath-f64-fma-zeros-pos", 0, lad_eval(&dp, &cs));
    TEST_EQ_WORD("datapath-f64-fma-cancel", 0, f64_fma1(&dp, one, one, one | (1ull << 63)));
    /* 2^-1022 * 2^-1 + 2^-1074 = 2^-1023 + 2^-1074: a subnormal, exact. */
    TEST_EQ_WORD("datapath-f64-fma-subnormal", 0x0008000000000001ull,
                 f64_fma1(&dp, 0x0010000000000000ull, 0x3fe0000000000000ull, 1));
    /* Specials: Inf * 0 and Inf - Inf are the preset's NaN. */
    TEST_EQ_WORD("datapath-f64-fma-inf-zero", 0x7fffffffffffffffull,
                 f64_fma1(&dp, 0x7ff0000000000000ull, 0, one));
    TEST_EQ_WORD("datapath-f64-fma-inf-inf", 0x7fffffffffffffffull,
                 f64_fma1(&dp, 0x7ff0000000000000ull, one, 0xfff0000000000000ull));
    /* Chained: each lane's fma rounds. 1 + 2^-53 twice: each is a tie to
    ** even, so 1 stays 1 (one rounding of the sum would give 1 + 2^-52). */
    zero_case(&cs);
    cs.c = one;
    cs.a[0] = cs.a[1] = 0x3ca0000000000000ull;  /* 2^-53 */
    cs.b[0] = cs.b[1] = one;
    TEST_EQ_WORD("datapath-f64-fma-chained", one, lad_eval(&dp, &cs));
}

/*
** Every preset on the fast path (both builds) against the general code, on
** finite cases of the validation generator, and on raw bit patterns where
** some lanes are then made Infs of one sign, C too (LADDER_FAST_CASES of
** each a preset, default 1,500; 40,000 for a two-level window):
** the cases a chain decides by its words' classes from the first pass that
** meets a special or overflows (plan_unscaled.c, lad_special_rest), and the ones it
** leaves to the general code (Infs of both signs, a zero times an Inf).
** Each case one at a time (lad_plan_eval) and in batches of FAST_BATCH
** (lad_plan_eval_batch: eight or, on AVX-512, sixteen side by side where
** the plan has cases8, cases_kernel.c's lad_cases_eval, which decides those
** specials and overflows in its lanes), by the plan, by its generic build
** and with eight side by side (the AVX2 build's width) on any CPU.
*/
enum { FAST_BATCH = 64 };

static void test_fast_specials(void)
{
    const char *env = getenv("LADDER_FAST_CASES");
    int per = env && atoi(env) > 0 ? atoi(env) : 1500;
    int n = lad_preset_count(), presets = 0, bad = 0, two = 0, side = 0;
    long cases = 0;
    char first[300] = "";
    lad_case *cs = malloc(FAST_BATCH * sizeof *cs);
    lad_word_t want[FAST_BATCH], got[FAST_BATCH], gen[FAST_BATCH];
    for (int i = 0; i < n && cs; i++) {
        const lad_datapath *dp = &lad_preset_get(i)->dp;
        lad_plan pl;
        lad_plan_init(&pl, dp);
        if (pl.path != LAD_PATH_FAST)
            continue;
        lad_plan generic = pl, avx2 = pl;
        generic.avx2 = 0;
        avx2.cases_w = LAD_BLOCK_W;  /* eight side by side, on AVX-512 too */
        presets++;
        two += dp->window2 > 0;
        side += pl.cases8;
        lad_rng r;
        lad_rng_seed(&r, 0x494e4652 + (uint64_t)i);
        /* the two-level window's cut and its products too large for it
        ** change a word in one case in some tens of thousands */
        int np = dp->window2 > 0 ? per * 80 / 3 : per;
        for (int k0 = 0; k0 < 2 * np; k0 += FAST_BATCH) {
            int nb = 2 * np - k0 < FAST_BATCH ? 2 * np - k0 : FAST_BATCH;
            for (int q = 0; q < nb; q++) {
                int k = k0 + q;
                lad_case *c = &cs[q];
                /* finite cases, then raw bit patterns with Infs put in */
                lad_gen_case_at(dp, 0x53504543 + (uint64_t)i, k < np ? 0 : 100, (uint64_t)k, c);
                int neg = 0, infs = 0;
                if (k >= np) {
                    neg = (int)lad_rng_below(&r, 2);
                    infs = (int)lad_rng_below(&r, 4);
                }
                for (int j = 0; j < infs; j++) {
                    int lane = (int)lad_rng_below(&r, (uint32_t)dp->k);
                    lad_word_t *w = lad_rng_below(&r, 2) ? &c->a[lane] : &c->b[lane];
                    const lad_format *f = w == &c->a[lane] ? &dp->a : &dp->b;
                    *w = lad_format_inf(f, 0);
                    /* the other word's sign makes the product's: one sign
                    ** in most cases, both in some */
                    lad_word_t *o = w == &c->a[lane] ? &c->b[lane] : &c->a[lane];
                    const lad_format *g = w == &c->a[lane] ? &dp->b : &dp->a;
                    lad_word_t sbit = (lad_word_t)1 << (g->width - 1);
                    int flip = neg ^ (lad_rng_below(&r, 8) == 0);
                    *o = flip ? *o | sbit : *o & ~sbit;
                }
                if (k >= np && lad_rng_below(&r, 8) == 0)
                    c->c = lad_format_inf(&dp->c, neg);
                want[q] = lad_eval_general(dp, c);
            }
            for (int build = 0; build < 3; build++) {
                const lad_plan *p = build == 2 ? &avx2 : build ? &generic : &pl;
                lad_plan_eval_batch(p, cs, (size_t)nb, gen);
                for (int q = 0; q < nb; q++) {
                    got[q] = lad_plan_eval(p, &cs[q]);
                    cases++;
                    if ((got[q] != want[q] || gen[q] != want[q]) && !bad++)
                        snprintf(first, sizeof first,
                                 "%s %s case %d, %s build: general 0x%llx, plan 0x%llx, "
                                 "batch 0x%llx", dp->name, k0 + q < np ? "finite" : "raw",
                                 k0 + q, build == 2 ? "AVX2" : build ? "generic" : "fast",
                                 (unsigned long long)want[q], (unsigned long long)got[q],
                                 (unsigned long long)gen[q]);
                }
            }
        }
    }
    free(cs);
    test_check(cs && bad == 0 && presets >= 100 && two >= 4 && side >= 50,
               "datapath-fast-specials",
               "%d of %ld cases differ on %d presets (%d of them two-level, %d side by side); "
               "first: %s", bad, cases, presets, two, side, first);
}

/* lad_plan_eval_rows against lad_plan_eval_batch on the same cases, every
** preset: finite and raw cases as rows in arrays of exactly their size (so
** that the sanitizer build sees a read past them), metadata zero as rows
** have it, C left out (+0) for every other preset; where A and B are of a
** byte or less, as bytes too (lad_rows.a8, b8). */
static void test_rows(void)
{
    enum { N = 96 };
    int n = lad_preset_count(), bad = 0, bytes = 0;
    long cases = 0;
    char first[300] = "";
    lad_case *cs = malloc(N * sizeof *cs);
    for (int i = 0; i < n && cs; i++) {
        const lad_datapath *dp = &lad_preset_get(i)->dp;
        size_t k = (size_t)dp->k, nkb = (size_t)lad_datapath_nscales(dp);
        lad_word_t *a = malloc(N * k * sizeof *a), *b = malloc(N * k * sizeof *b);
        lad_word_t *c = malloc(N * sizeof *c), want[N], got[N];
        uint8_t *sa = malloc(N * nkb + 1), *sb = malloc(N * nkb + 1);
        int noc = i % 2;
        for (int j = 0; j < N; j++) {
            lad_gen_case_at(dp, 0x524f5753 + (uint64_t)i, j % 2 ? 100 : 0, (uint64_t)j, &cs[j]);
            memset(cs[j].meta, 0, sizeof cs[j].meta);
            if (noc)
                cs[j].c = 0;
            memcpy(a + j * k, cs[j].a, k * sizeof *a);
            memcpy(b + j * k, cs[j].b, k * sizeof *b);
            c[j] = cs[j].c;
            memcpy(sa + j * nkb, cs[j].sa, nkb);
            memcpy(sb + j * nkb, cs[j].sb, nkb);
        }
        lad_plan pl;
        lad_plan_init(&pl, dp);
        lad_rows rows = {a, b, noc ? NULL : c, sa, sb, NULL, NULL};
        lad_plan_eval_batch(&pl, cs, N, want);
        /* words, then for formats of a byte the bytes themselves */
        int narrow = dp->a.width <= 8 && dp->b.width <= 8;
        uint8_t *a8 = malloc(N * k), *b8 = malloc(N * k);
        for (int as8 = 0; as8 <= narrow && a8 && b8; as8++) {
            if (as8) {
                for (size_t j = 0; j < N * k; j++) {
                    a8[j] = (uint8_t)a[j];
                    b8[j] = (uint8_t)b[j];
                }
                rows.a = rows.b = NULL;
                rows.a8 = a8;
                rows.b8 = b8;
                bytes++;
            }
            lad_plan_eval_rows(&pl, &rows, N, got);
            for (int j = 0; j < N; j++, cases++)
                if (got[j] != want[j] && !bad++)
                    snprintf(first, sizeof first, "%s case %d, %s: cases 0x%llx, rows 0x%llx",
                             dp->name, j, as8 ? "bytes" : "words", (unsigned long long)want[j],
                             (unsigned long long)got[j]);
        }
        free(a8);
        free(b8);
        free(a);
        free(b);
        free(c);
        free(sa);
        free(sb);
    }
    free(cs);
    test_check(cs && bad == 0 && cases >= 100L * N && bytes >= 50, "datapath-rows",
               "%d of %ld cases differ (%d presets as bytes too); first: %s", bad, cases, bytes,
               first);
}

void test_datapath(void)
{
    test_rows();
    test_fast_specials();
    test_f64_fma();
    test_presets_bound();
    test_fnuz_path();
    test_presets_consistent();
    test_window();
    test_specials();
    test_f16_result();
    test_integer();
    test_sparse();
    test_passes();
    test_block_scaled();
    test_unsigned_result();
}
