/*
** The block-scaled fast path (plan_scaled.c, lad_eval_scaled) against the general code
** (lad_eval_general, itself checked against the exact rational reference in
** test_rational.c): every word of lad_plan_eval must equal the general
** word, as integers. Datapaths: every block-scaled preset, and fp4 and fp6
** kinds with groups of several lanes (fp4: the group sums as integers);
** cases: moderate, raw bits, special scales and C (NaN, 0xff ue8m0, zero
** and subnormal ue4m3, the extremes of both), a C that dominates the
** products, tiny scales (subnormal results, groups dropped below the
** floor), cancelling pairs and mostly zero lanes.
*/
#include "test.h"

#include <string.h>

#include "model/datapath_int.h"
#include "model/presets.h"
#include "probes/gen.h"

static lad_rng rng;

static uint32_t next(void)
{
    return (uint32_t)(lad_rng_next(&rng) >> 32);
}

enum family {
    FAM_MODERATE,  /* words of the formats' width, scales near 2^0, C near 1 */
    FAM_RAW,       /* every bit random: NaN scales and C, bits above a width */
    FAM_SPECIAL,   /* scales and C from the extremes and specials */
    FAM_CDOM,      /* C far above the products: the C-dominant merge */
    FAM_TINY,      /* scales near the bottom: subnormal results, small C */
    FAM_CANCEL,    /* lane pairs that cancel, C 0 or tiny */
    FAM_ZEROS,     /* lanes mostly zeros of either sign */
    FAM_FLOOR,     /* scale pairs near 2^-140 in even blocks, 2^-156 to
                      2^-200 in odd ones: subnormal results whose
                      lower-scale groups the group floor drops (MXF4: in
                      about 1% of cases) */
    NFAM
};

static const char *const fam_name[] = {"moderate", "raw", "special", "cdom",
                                       "tiny", "cancel", "zeros", "floor"};

/* A word of format f's width (all bits random). */
static lad_word_t any_word(const lad_format *f)
{
    uint64_t x = (uint64_t)next() << 32 | next();
    return f->width >= 64 ? x : x & (((uint64_t)1 << f->width) - 1);
}

/* A scale word whose value is about 2^e (e from lo to hi), either scale
** format (ue8m0: the exponent field alone; ue4m3: with a random fraction). */
static uint8_t scale_near(const lad_format *f, int lo, int hi)
{
    int e = lo + (int)(next() % (unsigned)(hi - lo + 1)) + f->bias;
    int top = (1 << f->ebits) - 1;
    e = e < 0 ? 0 : e > top - 1 ? top - 1 : e;
    return (uint8_t)((unsigned)e << f->mbits | (next() & ((1u << f->mbits) - 1)));
}

static uint8_t scale_special(void)
{
    static const uint8_t w[] = {0x00, 0x01, 0x02, 0x07, 0x08, 0x7e, 0x7f, 0x80, 0xfe, 0xff};
    if (next() % 3 == 0)
        return (uint8_t)next();
    return w[next() % (sizeof w / sizeof w[0])];
}

/* An f32 C about 2^e. */
static lad_word_t c_near(int e)
{
    return (next() & 1u) << 31 | (uint32_t)(127 + e) << 23 | (next() & 0x7fffffu);
}

static lad_word_t c_special(void)
{
    static const uint32_t w[] = {0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u,
                                 0x7fc00000u, 0x7f7fffffu, 0xff7fffffu, 0x00000001u,
                                 0x80000001u, 0x00800000u, 0x3f800000u, 0xbf800000u};
    if (next() % 3 == 0)
        return next();
    return w[next() % (sizeof w / sizeof w[0])];
}

static void fill(const lad_datapath *dp, int fam, lad_case *cs)
{
    const lad_format *a = &dp->a, *b = &dp->b;
    int ns = lad_datapath_nscales(dp);
    memset(cs, 0, sizeof *cs);
    for (int j = 0; j < dp->k; j++) {
        cs->a[j] = any_word(a);
        cs->b[j] = any_word(b);
        if (fam == FAM_RAW && next() % 16 == 0)
            cs->a[j] |= (lad_word_t)(next() & 0xff) << a->width;  /* bits above */
        if (fam == FAM_ZEROS && next() % 8) {
            cs->a[j] = (lad_word_t)(next() & 1) << (a->width - 1);
            if (next() % 2)
                cs->b[j] = (lad_word_t)(next() & 1) << (b->width - 1);
        }
    }
    if (fam == FAM_CANCEL)
        for (int j = 0; j + 1 < dp->k; j += 2) {
            cs->a[j + 1] = cs->a[j];
            cs->b[j + 1] = cs->b[j] ^ (next() % 4 ? (lad_word_t)1 << (b->width - 1) : 1);
        }
    for (int i = 0; i < ns; i++) {
        switch (fam) {
        case FAM_RAW:
            cs->sa[i] = (uint8_t)next();
            cs->sb[i] = (uint8_t)next();
            break;
        case FAM_SPECIAL:
            cs->sa[i] = next() % 2 ? scale_special() : scale_near(&dp->sa, -3, 3);
            cs->sb[i] = next() % 2 ? scale_special() : scale_near(&dp->sb, -3, 3);
            break;
        case FAM_TINY:
            cs->sa[i] = scale_near(&dp->sa, -130, -40);
            cs->sb[i] = scale_near(&dp->sb, -130, -40);
            break;
        case FAM_FLOOR:
            cs->sa[i] = i % 2 ? scale_near(&dp->sa, -100, -78) : scale_near(&dp->sa, -71, -69);
            cs->sb[i] = i % 2 ? scale_near(&dp->sb, -100, -78) : scale_near(&dp->sb, -71, -69);
            break;
        default:
            cs->sa[i] = scale_near(&dp->sa, -6, 6);
            cs->sb[i] = scale_near(&dp->sb, -6, 6);
        }
    }
    switch (fam) {
    case FAM_RAW:
        cs->c = next();
        break;
    case FAM_SPECIAL:
        cs->c = c_special();
        break;
    case FAM_CDOM:
        cs->c = c_near(20 + (int)(next() % 40));
        break;
    case FAM_TINY:  /* a subnormal or a small normal */
        cs->c = next() % 2 ? next() & 0x807fffffu : c_near(-126 + (int)(next() % 30));
        break;
    case FAM_FLOOR:  /* zero or a small subnormal */
        cs->c = next() % 2 ? 0 : next() & 0x800000ffu;
        break;
    case FAM_CANCEL:
        cs->c = next() % 2 ? 0 : c_near(-30 + (int)(next() % 20));
        break;
    default:
        cs->c = c_near((int)(next() % 17) - 8);
    }
    for (int i = 0; i < LAD_METAMAX; i++)
        cs->meta[i] = next();
}

/* n cases of each family through the plan and the general code; where A
** and B are of a byte or less, each also as a row of bytes (lad_rows.a8:
** how ladder eval gives them), its words cut to their low byte. */
static void compare(const char *label, const lad_datapath *dp, int n)
{
    lad_plan pl;
    lad_plan_init(&pl, dp);
    char name[160];
    snprintf(name, sizeof name, "scaled-path-%s", label);
    test_check(pl.path == LAD_PATH_SCALED, name, "%s takes path %d", dp->name, pl.path);
    int bytes = dp->a.width <= 8 && dp->b.width <= 8 && pl.direct;
    for (int fam = 0; fam < NFAM; fam++) {
        lad_case cs;
        int bad = -1;
        lad_word_t got = 0, want = 0;
        const char *how = "plan";
        for (int i = 0; i < n && bad < 0; i++) {
            fill(dp, fam, &cs);
            got = lad_plan_eval(&pl, &cs);
            want = lad_eval_general(dp, &cs);
            if (got != want) {
                bad = i;
                break;
            }
            if (!bytes)
                continue;
            uint8_t a8[LAD_KMAX], b8[LAD_KMAX];
            for (int j = 0; j < dp->k; j++) {
                a8[j] = (uint8_t)cs.a[j];
                b8[j] = (uint8_t)cs.b[j];
                cs.a[j] = a8[j];
                cs.b[j] = b8[j];
            }
            memset(cs.meta, 0, sizeof cs.meta);
            lad_rows row = {NULL, NULL, &cs.c, cs.sa, cs.sb, a8, b8};
            lad_plan_eval_rows(&pl, &row, 1, &got);
            want = lad_eval_general(dp, &cs);
            if (got != want) {
                bad = i;
                how = "row of bytes";
            }
        }
        snprintf(name, sizeof name, "scaled-%s-%s", label, fam_name[fam]);
        test_check(bad < 0, name, "case %d: %s 0x%08llx, general 0x%08llx", bad, how,
                   (unsigned long long)got, (unsigned long long)want);
    }
}

/* fixed_sum's block whose sum is 0 far above the quantum: MXF4, block 0
** all zero products under the largest scales (2^127 each), block 1 ones
** under 2^-10 each; its shift (about 2^300 units) is never taken (the
** sanitizer build saw it taken once: a shift of 63). */
static void test_zero_block_above(void)
{
    const lad_preset *p = lad_preset_find("sm100-tcgen05-mxf4-e2m1-f32");
    lad_case cs;
    memset(&cs, 0, sizeof cs);
    for (int j = 32; j < 64; j++)
        cs.a[j] = cs.b[j] = 0x2;  /* 1.0 */
    cs.sa[0] = cs.sb[0] = 0xfe;
    cs.sa[1] = cs.sb[1] = 127 - 10;
    lad_plan pl;
    if (p)
        lad_plan_init(&pl, &p->dp);
    lad_word_t got = p ? lad_plan_eval(&pl, &cs) : 0, want = p ? lad_eval_general(&p->dp, &cs) : 1;
    test_check(p && pl.fixsum && got == want && want == 0x38000000, "scaled-fixed-zero-block-above",
               "plan 0x%08llx, general 0x%08llx (32 x 2^-20 = 2^-15: 0x38000000)",
               (unsigned long long)got, (unsigned long long)want);
}

void test_scaled(void)
{
    test_zero_block_above();
    lad_rng_seed(&rng, 2026);
    int found = 0;
    for (int i = 0; i < lad_preset_count(); i++) {
        const lad_datapath *dp = &lad_preset_get(i)->dp;
        if (dp->scale_block == 0)
            continue;
        lad_plan pl;
        lad_plan_init(&pl, dp);
        if (pl.path != LAD_PATH_SCALED)
            continue;
        found++;
        compare(dp->name, dp, 1500);
    }
    test_check(found >= 8, "scaled-presets", "only %d presets on the scaled path", found);

    /* the mxf4 kinds sum their groups as integers */
    static const char *const fixed[] = {
        "sm100-tcgen05-mxf4-e2m1-f32", "sm100-tcgen05-mxf4nvf4-4x-f32",
        "sm100-tcgen05-mxf4nvf4-ue4m3-f32", "sm100-tcgen05-sp-mxf4nvf4-4x-f32",
    };
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) {
        const lad_preset *p = lad_preset_find(fixed[i]);
        lad_plan pl;
        char name[96];
        snprintf(name, sizeof name, "scaled-fixed-%s", fixed[i]);
        if (p)
            lad_plan_init(&pl, &p->dp);
        test_check(p && pl.fixed, name, "not summed as integers");
    }

    /* fp4 and fp6 with groups of several lanes, with and without the
    ** C-dominant merge (per group, or per cdom_group lanes) and the
    ** subnormal group floor; fixsum: the fp4 ones summed a scale block at
    ** a time (plan_scaled.c, fixed_sum) */
    static const struct {
        const char *preset;
        int group, cdom, per_group, sub_floor, fixsum;
    } var[] = {
        {"sm100-tcgen05-mxf8f6f4-e2m1-f32", 16, 35, 1, -174, 1},
        {"sm100-tcgen05-mxf8f6f4-e3m2-f32", 8, 0, 0, LAD_NOFLOOR, 0},
        {"sm100-tcgen05-mxf8f6f4-e3m2-f32", 32, 30, 1, -150, 0},
        {"sm100-tcgen05-mxf8f6f4-e2m3-f32", 4, 35, 1, LAD_NOFLOOR, 0},
        {"sm100-tcgen05-mxf4nvf4-ue4m3-f32", 16, 35, 1, -174, 1},
        {"sm100-tcgen05-mxf4nvf4-ue4m3-f32", 8, 35, 0, LAD_NOFLOOR, 1},
        {"sm100-tcgen05-mxf4nvf4-ue4m3-f32", 2, 0, 0, LAD_NOFLOOR, 1},
        {"sm100-tcgen05-mxf4-e2m1-f32", 16, 0, 0, LAD_NOFLOOR, 1},
        {"sm100-tcgen05-mxf4-e2m1-f32", 4, 35, 0, LAD_NOFLOOR, 1},
    };
    for (size_t i = 0; i < sizeof var / sizeof var[0]; i++) {
        const lad_preset *p = lad_preset_find(var[i].preset);
        if (!p) {
            test_check(0, "scaled-variant", "no preset '%s'", var[i].preset);
            continue;
        }
        lad_datapath dp = p->dp;
        dp.group = var[i].group;
        dp.cdom_window = var[i].cdom;
        dp.cdom_group = 16 % var[i].group ? var[i].group : 16;
        dp.cdom_per_group = var[i].per_group;
        dp.group_sub_floor = var[i].sub_floor;
        dp.scale_floor = 35;
        lad_plan pl;
        lad_plan_init(&pl, &dp);
        char label[128];
        snprintf(label, sizeof label, "%s-group%d-cdom%d%s", var[i].preset, var[i].group,
                 var[i].cdom, var[i].per_group ? "-per-group" : "");
        char name[160];
        snprintf(name, sizeof name, "scaled-fixed-%s", label);
        test_check(pl.fixed == (dp.a.width == 4) && pl.fixsum == var[i].fixsum, name,
                   "summed as integers: %d, by blocks: %d", pl.fixed, pl.fixsum);
        compare(label, &dp, 1500);
    }
}
