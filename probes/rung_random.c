/*
** Rung (l), random: N cases (the recipe's random.cases, at most
** LAD_LADDER_RANDOM: every case is stored, and random.cases is sized for
** `ladder validate <run>`, which runs them all), half raw bit patterns, half
** finite values (words redrawn until they decode as finite), from the
** recipe's seed. The finite share of validation (random.finite) is not
** this rung's: its even split is what inference was tuned on. They are
** not targeted probes: inference checks its model against them, and so
** catches what no rung was designed to see. Half as many again come from
** validation's generator (probes/gen.h), finite only, under another seed:
** uniform words rarely cancel, and a model that only cancellation tells
** apart once passed every stored case and failed 2% of validation. Sparse kinds get random legal
** metadata; scaled kinds random scales.
*/
#include "ladder.h"
#include "gen.h"
#include "case.h"

#include <stdio.h>

static uint64_t next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static lad_word_t draw(uint64_t *s, const lad_format *f, int finite)
{
    lad_word_t mask = f->width >= 64 ? ~(lad_word_t)0 : ((lad_word_t)1 << f->width) - 1;
    for (int tries = 0; tries < 64; tries++) {
        lad_word_t w = (lad_word_t)next(s) & mask;
        if (!finite || f->kind == LAD_INT)
            return w;
        int cls = lad_decode(f, w).cls;
        if (cls != LAD_NAN && cls != LAD_INFINITE)
            return w;
    }
    return 0;
}

int lad_rung_random(lad_probe *p)
{
    const lad_datapath *dp = &p->dp;
    long long n = p->recipe->random.cases;
    if (n > LAD_LADDER_RANDOM)
        n = LAD_LADDER_RANDOM;
    uint64_t s = p->recipe->random.seed ^ 0x6c61646465722dull;
    static const unsigned char legal24[] = {4, 6, 8, 9, 12, 13, 14};
    lad_batch b = {0};
    int rc = LAD_OK;
    for (long long i = 0; i < n; i++) {
        int finite = i & 1;
        lad_case cs;
        lad_case_base(dp, &cs);
        for (int l = 0; l < dp->k; l++) {
            cs.a[l] = draw(&s, &dp->a, finite);
            cs.b[l] = draw(&s, &dp->b, finite);
        }
        cs.c = draw(&s, &dp->c, finite);
        for (int j = 0; j < lad_datapath_nscales(dp); j++) {
            cs.sa[j] = (uint8_t)draw(&s, &dp->sa, finite);
            cs.sb[j] = (uint8_t)draw(&s, &dp->sb, finite);
        }
        if (dp->sparse) {
            int cl = dp->sparse == LAD_SPARSE_1OF2 ? 2 : dp->sparse == LAD_SPARSE_2OF4 ? 4 : 8;
            for (int c = 0; c < dp->k / cl; c++) {
                unsigned x = dp->sparse == LAD_SPARSE_1OF2 ? (next(&s) & 1 ? 0xe : 4)
                                                           : legal24[next(&s) % 7];
                cs.meta[c / 8] = (cs.meta[c / 8] & ~(0xfu << (4 * (c % 8)))) | x << (4 * (c % 8));
            }
        }
        lad_batch_series(&b, finite ? "finite" : "raw", NULL);
        if ((rc = lad_batch_addv(&b, &cs, i, "%s %lld", finite ? "finite" : "raw", i)))
            goto out;
    }
    /* and half as many again from validation's own finite stream (probes/
    ** gen.h: cancellation, values near the window's edge), under another
    ** seed: what validation will ask, inference has then seen its like */
    long long m = n / 2;
    for (long long i = 0; i < m; i++) {
        lad_case cs;
        lad_gen_case_at(dp, p->recipe->random.seed ^ 0x67656e2d66696eull, 0, (uint64_t)i, &cs);
        lad_batch_series(&b, "gen-finite", NULL);
        if ((rc = lad_batch_addv(&b, &cs, i, "gen-finite %lld", i)))
            goto out;
    }
    if ((rc = lad_probe_eval(p, &b, NULL, NULL)))
        goto out;
    rc = lad_probe_observe(p, "cases", NULL, 0, "%lld", n + m);
    if (n < p->recipe->random.cases)
        snprintf(p->summary, sizeof p->summary,
                 "%lld random cases (half raw, half finite; validate runs all %lld), "
                 "%lld of validation's finite kind",
                 n, p->recipe->random.cases, m);
    else
        snprintf(p->summary, sizeof p->summary,
                 "%lld random cases (half raw, half finite), %lld of validation's finite kind", n, m);
out:
    lad_batch_free(&b);
    return rc;
}
