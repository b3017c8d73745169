/*
** The model against the naive exact reference (rational.c) on random cases:
** for each datapath family, a set of random parameter draws around a
** preset, and cases from the validation generator (half raw bit patterns,
** half finite values built for cancellation and window effects). D words
** are compared as integers, NaN payloads included. The model evaluates each
** case twice, through its plan as lad_eval would and through the same plan
** with the fast path's generic build (where this CPU runs its AVX2 build),
** so that both builds answer for every case.
**
** The values of each row come from the parameter registry: the candidates
** inference tries on the preset (lad_param_cands, model/params.c) and the
** values hardware shows (params.def's LAD_USUAL lines); the families say
** which rows vary together. The family "rows" draws every row the
** reference implements (all but rat_rows_left), so that a row added to
** params.def with candidates is drawn with no line here.
**
** Cases per family: $LADDER_RATIONAL_CASES, default 1,000,000 (about five
** seconds a family on one core). Check names: rational-<family>.
*/
#include "test.h"
#include "rational.h"
#include "model/params.h"
#include "model/presets.h"
#include "probes/gen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VARIANTS 25        /* parameter draws per family */

typedef struct family {
    const char *name;
    const char *presets[7];  /* bases drawn from, NULL-terminated */
    int vary;                /* which parameters are drawn (VARY_*) */
} family;

enum {
    VARY_CORE = 1,     /* window, align_round, pass, chain, c_anchor, roundings, acc,
                          zero_sign */
    VARY_FLOORS = 2,   /* anchor_min, zero_floor */
    VARY_IN = 4,       /* in_round */
    VARY_SCALE = 8,    /* group, scale_floor, cdom_*, group_sub_floor */
    VARY_INT = 16,     /* saturate */
    VARY_FORMATS = 32, /* a and b: random user-defined float formats */
    VARY_TWO = 64,     /* window2, align2_round: a two-level window */
    VARY_LANES8 = 128, /* half the draws within the eight-lane code's reach */
    VARY_ROWS = 256    /* every row the reference implements, half of them each draw */
};

static const family families[] = {
    {"f32-out", {"sm90-mma-bf16-f32", "sm80-mma-f16-f32", "sm70-mma-f16-f32", NULL}, VARY_CORE | VARY_FLOORS},
    {"f16-out", {"sm90-mma-f16-f16", "sm70-mma-f16-f16", "sm100-tcgen05-e4m3-f16",
                 "sm90-mma-e4m3-f16", NULL}, VARY_CORE},
    {"fp8-e8m13", {"sm89-mma-e4m3-f32", "sm89-mma-e5m2-f32", "sm90-wgmma-e4m3-f32",
                   "sm90-mma-e5m2-f32", NULL}, VARY_CORE},
    {"tf32-floor", {"sm100-tcgen05-tf32-f32", "sm100-tcgen05-bf16-f32", "sm80-mma-tf32-f32", NULL},
     VARY_CORE | VARY_FLOORS | VARY_IN},
    {"mxf8f6f4", {"sm100-tcgen05-mxf8f6f4-e4m3-f32", "sm100-tcgen05-mxf8f6f4-e2m1-f32",
                  "sm100-tcgen05-mxf8f6f4-e3m2-f32", NULL}, VARY_CORE | VARY_SCALE},
    {"mxf4", {"sm100-tcgen05-mxf4-e2m1-f32", "sm100-tcgen05-mxf4nvf4-2x-f32",
              "sm100-tcgen05-mxf4nvf4-4x-f32", NULL}, VARY_SCALE},
    {"nvfp4", {"sm100-tcgen05-mxf4nvf4-ue4m3-f32", NULL}, VARY_SCALE},
    {"sparse", {"sm100-tcgen05-sp-bf16-f32", "sm100-tcgen05-sp-tf32-f32", "sm100-tcgen05-sp-e4m3-f32",
                "sm100-tcgen05-sp-mxf4-e2m1-f32", "sm100-tcgen05-sp-mxf4nvf4-ue4m3-f32", NULL},
     VARY_CORE},
    {"user-formats", {"sm90-mma-bf16-f32", "sm89-mma-e5m2-f16", "sm100-tcgen05-e4m3-f32",
                      "sm100-tcgen05-sp-bf16-f32", NULL}, VARY_CORE | VARY_FLOORS | VARY_FORMATS},
    {"two-level", {"sm90-mma-bf16-f32", "sm80-mma-f16-f32", "sm80-mma-tf32-f32",
                   "sm89-mma-e4m3-f32", NULL}, VARY_CORE | VARY_FLOORS | VARY_TWO},
    {"lanes8", {"sm100-tcgen05-bf16-f32", "sm90-mma-f16-f32", "sm100-tcgen05-tf32-f32",
                "sm100-tcgen05-e4m3-f32", "sm90-mma-e5m2-f32", "sm100-tcgen05-sp-bf16-f32", NULL},
     VARY_CORE | VARY_FLOORS | VARY_LANES8},
    {"integer", {"sm100-tcgen05-s8xs8-s32", "sm100-tcgen05-u8xs8-s32-sat", "sm100-tcgen05-u8xu8-s32",
                 NULL}, VARY_INT},
    {"rows", {"sm90-mma-bf16-f32", "sm80-mma-tf32-f32", "sm90-mma-e4m3-f16",
              "sm100-tcgen05-mxf8f6f4-e4m3-f32", "sm100-tcgen05-sp-bf16-f32",
              "sm100-tcgen05-u8xs8-s32-sat", NULL}, VARY_ROWS},
};

static int pick(lad_rng *r, int n)
{
    return (int)lad_rng_below(r, (uint32_t)n);
}

/* How a row's value is drawn from its candidates on the base (lad_param_cands). */
enum {
    ANY,    /* any candidate */
    FIRST,  /* the first (the most plausible) two times in three, else another */
    OFF,    /* any but the row's default */
    USUAL   /* one of the values hardware shows (LAD_USUAL), else OFF */
};

/* Sets row key of dp to a value drawn `how` from its candidates on base;
** leaves it where the row has none there. */
static void row(lad_rng *r, const char *key, int how, const lad_datapath *base, lad_datapath *dp)
{
    const lad_param *p = lad_param_find(key);
    int64_t v[LAD_PARAM_MAXCANDS], keep[LAD_PARAM_MAXCANDS], lo, hi;
    int n = p ? lad_param_cands(p, base, v, LAD_PARAM_MAXCANDS) : 0, nk = 0;
    if (n == 0)
        return;
    if (how == FIRST && (n == 1 || pick(r, 3) != 0)) {
        lad_param_set(p, dp, base, v[0]);
        return;
    }
    int usual = how == USUAL && lad_param_usual(p, &lo, &hi);
    for (int i = 0; i < n; i++) {
        lad_datapath t = *base;
        lad_param_set(p, &t, base, v[i]);
        if (usual ? v[i] >= lo && v[i] <= hi
                  : how == ANY || (how == FIRST ? i > 0 : !lad_param_at_default(p, &t)))
            keep[nk++] = v[i];
    }
    if (nk > 0)
        lad_param_set(p, dp, base, keep[pick(r, nk)]);
}

/* Whether the reference implements row i (rat_rows_left). */
static int implemented(int i)
{
    for (int j = 0; rat_rows_left[j]; j++)
        if (strcmp(rat_rows_left[j], lad_params[i].key) == 0)
            return 0;
    return 1;
}

/* A random float format of 32 bits or fewer, as a user may define one:
** any sign, exponent and fraction width, bias, padding below, subnormal,
** Inf and NaN rule (significands past 16 bits now and then). */
static lad_format random_format(lad_rng *r, const char *name)
{
    for (;;) {
        lad_format f;
        memset(&f, 0, sizeof f);
        snprintf(f.name, sizeof f.name, "%s", name);
        f.kind = LAD_FLOAT;
        f.sign = pick(r, 5) != 0;
        f.ebits = lad_rng_range(r, 2, 8);
        f.mbits = pick(r, 4) == 0 ? lad_rng_range(r, 11, 20) : lad_rng_range(r, 0, 10);
        f.pad = pick(r, 4) == 0 ? lad_rng_range(r, 1, 8) : 0;
        f.width = f.pad + f.sign + f.ebits + f.mbits;
        f.bias = (1 << (f.ebits - 1)) - 1 + lad_rng_range(r, -2, 2);
        f.sub = pick(r, 4) == 0 ? pick(r, 3) : LAD_SUB_IEEE;
        f.inf = pick(r, 2);
        f.nan = pick(r, 3);
        if (f.width <= 32 && !lad_format_check(&f))
            return f;
    }
}

/* One random draw of the family's parameters around preset p. */
static void draw(const family *fm, const lad_datapath *p, lad_rng *r, lad_datapath *dp)
{
    for (int tries = 0; tries < 1000; tries++) {
        *dp = *p;
        if (fm->vary & VARY_CORE) {
            row(r, "window", ANY, p, dp);
            row(r, "align_round", ANY, p, dp);
            row(r, "pass", FIRST, p, dp);
            row(r, "chain", FIRST, p, dp);
            row(r, "c_anchor", FIRST, p, dp);
            row(r, "acc_round", ANY, p, dp);
            row(r, "d_round", ANY, p, dp);
            row(r, "d_via_acc", FIRST, p, dp);
            if (pick(r, 3) == 0)
                row(r, "acc", ANY, p, dp);
            row(r, "overflow", ANY, p, dp);
            if (!(fm->vary & VARY_SCALE) && pick(r, 10) == 0) /* the scaled fast path stays common */
                row(r, "zero_sign", OFF, p, dp);
        }
        if (fm->vary & VARY_FLOORS) {
            if (pick(r, 2) == 0)
                row(r, "anchor_min", OFF, p, dp);
            if (pick(r, 3) == 0)
                row(r, "zero_floor", OFF, p, dp);
        }
        if (fm->vary & VARY_IN)
            row(r, "in_round", ANY, p, dp);
        if ((fm->vary & VARY_SCALE) && pick(r, 4) != 0) {
            row(r, "window", USUAL, p, dp);
            row(r, "align_round", ANY, p, dp);
            row(r, "group", ANY, p, dp);
            if (pick(r, 3) != 0)
                row(r, "scale_floor", USUAL, p, dp);
            if (pick(r, 3) != 0)
                row(r, "cdom_window", USUAL, p, dp);
            row(r, "cdom_group", ANY, p, dp);
            row(r, "cdom_per_group", ANY, p, dp);
            dp->c_anchor = 1;
            if (pick(r, 2) != 0)
                row(r, "group_sub_floor", USUAL, p, dp);
        }
        if (fm->vary & VARY_INT)
            row(r, "saturate", ANY, p, dp);
        if (fm->vary & VARY_TWO) {
            row(r, "window2", OFF, p, dp);
            row(r, "align2_round", ANY, p, dp);
        }
        if (fm->vary & VARY_ROWS)
            for (int i = 0; i < lad_nparams; i++)
                if (lad_params[i].cands && implemented(i) && pick(r, 2) == 0)
                    row(r, lad_params[i].key, OFF, p, dp);
        if (fm->vary & VARY_FORMATS) {
            dp->a = random_format(r, "ua");
            dp->b = pick(r, 2) ? dp->a : random_format(r, "ub");
            if (pick(r, 2)) {
                /* half the draws within the model's fast path */
                dp->a.sub = dp->b.sub = LAD_SUB_IEEE;
                dp->align_round = LAD_RZ;
                dp->chain = LAD_CHAIN;
                dp->c_anchor = 1;
            }
        }
        if ((fm->vary & VARY_LANES8) && pick(r, 2)) {
            /* plan_lanes.c's lad_lanes8_ok: chained, toward zero, C first in the window */
            dp->window = lad_rng_range(r, 8, 29);
            dp->align_round = LAD_RZ;
            dp->chain = LAD_CHAIN;
            dp->c_anchor = 1;
            dp->c_last = 0;
            dp->d_via_acc = 0;
        }
        if (lad_datapath_check(dp, NULL) == LAD_OK)
            return;
    }
    *dp = *p;
}

static long cases_per_family(void)
{
    const char *s = getenv("LADDER_RATIONAL_CASES");
    long n = s && *s ? atol(s) : 1000000;
    return n > 0 ? n : 1000000;
}

static void run_family(const family *fm, long ncases)
{
    lad_rng r;
    lad_rng_seed(&r, 0x5241544e + (uint64_t)(fm - families));
    int npre = 0;
    while (fm->presets[npre])
        npre++;
    long per = (ncases + VARIANTS - 1) / VARIANTS, done = 0, bad = 0, illegal = 0;
    /* variants the model evaluates on the fast path the family is there
    ** to check (user formats: the unscaled one; scaled kinds: theirs) */
    int path = fm->vary & VARY_FORMATS ? LAD_PATH_FAST
               : fm->vary & VARY_SCALE ? LAD_PATH_SCALED : -1;
    int fast = 0, lanes8 = 0, avx2 = 0;
    char first[600] = "";
    for (int v = 0; v < VARIANTS; v++) {
        const lad_preset *p = lad_preset_find(fm->presets[v % npre]);
        if (!p) {
            snprintf(first, sizeof first, "no preset '%s'", fm->presets[v % npre]);
            bad++;
            continue;
        }
        lad_datapath dp;
        draw(fm, &p->dp, &r, &dp);
        uint64_t seed = lad_rng_next(&r);
        lad_plan plan;
        lad_plan_init(&plan, &dp);
        fast += plan.path == path;
        lanes8 += plan.path == LAD_PATH_FAST && plan.lanes8;
        avx2 = plan.avx2;
        lad_plan generic = plan;  /* the fast path's build for any CPU */
        generic.avx2 = 0;
        for (long i = 0; i < per; i++) {
            lad_case cs;
            lad_gen_case_at(&dp, seed, 50, (uint64_t)i, &cs);
            if (lad_sparse_check(&dp, &cs))
                illegal++;
            uint32_t want = rat_eval(&dp, &cs), got = lad_plan_eval(&plan, &cs);
            if (got == want)
                got = lad_plan_eval(&generic, &cs);
            done++;
            if (want == got)
                continue;
            if (bad++ == 0)
                snprintf(first, sizeof first,
                         "%s variant %d (window %d pass %d align %d c_anchor %d chain %d "
                         "acc m%d accr %d dr %d via %d amin %d zf %d in %d grp %d sf %d cdom %d) "
                         "case %ld: reference 0x%08x, model 0x%08x",
                         dp.name, v, dp.window, dp.pass, dp.align_round, dp.c_anchor, dp.chain,
                         dp.acc.mbits, dp.acc_round, dp.d_round, dp.d_via_acc, dp.anchor_min,
                         dp.zero_floor, dp.in_round, dp.group, dp.scale_floor, dp.cdom_window, i,
                         want, got);
        }
    }
    char name[64];
    snprintf(name, sizeof name, "rational-%s", fm->name);
    test_check(bad == 0, name, "%ld of %ld cases differ; first: %s", bad, done, first);
    if (path >= 0) {
        snprintf(name, sizeof name, "rational-%s-fast-path", fm->name);
        test_check(fast >= VARIANTS / 4, name, "only %d of %d variants ran the fast path", fast,
                   VARIANTS);
    }
    if ((fm->vary & VARY_LANES8) && avx2) {
        /* the eight-lane code runs only in the AVX2 build */
        snprintf(name, sizeof name, "rational-%s-eight-lanes", fm->name);
        test_check(lanes8 >= VARIANTS / 4, name, "only %d of %d variants ran the eight-lane code",
                   lanes8, VARIANTS);
    }
    snprintf(name, sizeof name, "rational-%s-legal-metadata", fm->name);
    test_check(illegal == 0, name, "%ld generated cases carry illegal sparsity metadata", illegal);
}

/* Hand-checked roundings of the reference itself, so that a shared mistake
** in both implementations cannot hide: values from the IEEE 754 rules. */
static void reference_rounding(void)
{
    const lad_format *f32 = lad_format_find("f32"), *f16 = lad_format_find("f16");
    rat_int m;
    memset(&m, 0, sizeof m);
    /* 1 + 2^-24 (a tie) to f32: RNE 1.0, RU 1+2^-23 */
    m.n = 1;
    m.l[0] = (1u << 24) | 1;
    TEST_EQ_U32("rational-round-f32-tie-rne", 0x3f800000, rat_round(f32, &m, -24, LAD_RNE, LAD_OVF_INF));
    TEST_EQ_U32("rational-round-f32-tie-ru", 0x3f800001, rat_round(f32, &m, -24, LAD_RU, LAD_OVF_INF));
    m.neg = 1;
    TEST_EQ_U32("rational-round-f32-neg-rd", 0xbf800001, rat_round(f32, &m, -24, LAD_RD, LAD_OVF_INF));
    TEST_EQ_U32("rational-round-f32-neg-rz", 0xbf800000, rat_round(f32, &m, -24, LAD_RZ, LAD_OVF_INF));
    /* 65520 = 0xfff0 rounds to f16 Inf under RNE, to 65504 under RZ (in
    ** range); 65536 is past the range: Inf even toward zero, unless IEEE */
    m.neg = 0;
    m.l[0] = 0xfff0;
    TEST_EQ_U32("rational-round-f16-overflow-rne", 0x7c00, rat_round(f16, &m, 0, LAD_RNE, LAD_OVF_INF));
    TEST_EQ_U32("rational-round-f16-max-rz", 0x7bff, rat_round(f16, &m, 0, LAD_RZ, LAD_OVF_INF));
    m.l[0] = 0x10000;
    TEST_EQ_U32("rational-round-f16-overflow-ieee-rz", 0x7bff, rat_round(f16, &m, 0, LAD_RZ, LAD_OVF_IEEE));
    TEST_EQ_U32("rational-round-f16-overflow-inf-rz", 0x7c00, rat_round(f16, &m, 0, LAD_RZ, LAD_OVF_INF));
    TEST_EQ_U32("rational-round-f16-overflow-sat-ru", 0x7bff, rat_round(f16, &m, 0, LAD_RU, LAD_OVF_SAT));
    /* 2^-150 to f32: RZ +0, RU the smallest subnormal; -2^-150 RZ is +0 */
    m.l[0] = 1;
    TEST_EQ_U32("rational-round-f32-tiny-ru", 0x00000001, rat_round(f32, &m, -150, LAD_RU, LAD_OVF_INF));
    m.neg = 1;
    TEST_EQ_U32("rational-round-f32-tiny-neg-rz", 0x00000000, rat_round(f32, &m, -150, LAD_RZ, LAD_OVF_INF));
}

void test_rational(void)
{
    reference_rounding();
    long n = cases_per_family();
    for (size_t i = 0; i < sizeof families / sizeof families[0]; i++) {
        run_family(&families[i], n);
        fflush(stdout);
    }
}
