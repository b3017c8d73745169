/*
** Rung (m), sumtree: the order in which the device adds up its K products,
** found as FPRev does (Xie et al., "FPRev: Revealing the Order of
** Floating-Point Summation", USENIX ATC 2025).
**
** Every product is 1.0 except a pair: +M in lane i and -M in lane j, with
** M = 2^e so large that 1 + M == M wherever the sum is rounded (or
** windowed). Ones summed into the pair's subtree before the pair cancels
** are absorbed by M and lost; ones added after it survive. So the result
** is n - s(i, j), s being the leaves of the smallest subtree holding both
** i and j, and the n(n-1)/2 pairs give the whole tree (inference/sumtree.c
** rebuilds it). One more case, all ones, checks that n ones add up exactly.
**
** The device is a black box here: an instruction (its passes and lane
** order), a program of MMAs (chaining, split-K), or an exec oracle around a
** library call are probed alike. C is +0 throughout, so it takes no part.
** e is the largest exponent that A*B, C and D can all hold, so the rung
** needs no knowledge of the accumulator; the summary warns when e is too
** small for 1 + M == M to be sure.
**
** Cases: series "ones" (vary = n), series "pair" (vary = i * 256 + j).
*/
#include "ladder.h"
#include "case.h"

#include <stdio.h>

/* The largest e for which +2^e and -2^e can sit in lanes of dp and be
** held by C and D; -1 when there is none (or 1.0 cannot be placed). */
static int big_exponent(const lad_datapath *dp)
{
    lad_case cs;
    lad_word_t w;
    lad_case_base(dp, &cs);
    if (lad_case_term(dp, &cs, 0, 0, 1, 0))
        return -1;
    for (int e = 254; e > 0; e--)
        if (lad_word_pow2(&dp->d, e, &w) == LAD_OK && lad_word_pow2(&dp->c, e, &w) == LAD_OK &&
            lad_case_term(dp, &cs, 0, 0, 1, e) == LAD_OK &&
            lad_case_term(dp, &cs, 0, 1, 1, e) == LAD_OK)
            return e;
    return -1;
}

/* A case of ones in lanes 0..n-1, +2^e in lane i and -2^e in lane j (i < 0:
** no pair). */
static int pair_case(const lad_datapath *dp, int n, int i, int j, int e, lad_case *cs)
{
    lad_case_base(dp, cs);
    int rc = LAD_OK;
    for (int l = 0; l < n && rc == LAD_OK; l++)
        rc = lad_case_term(dp, cs, l, l == j, 1, l == i || l == j ? e : 0);
    return rc;
}

int lad_rung_sumtree(lad_probe *p)
{
    const lad_datapath *dp = &p->dp;
    int n = lad_datapath_kphys(dp);
    long long want = p->rung ? lad_rung_param(p->rung, "lanes") : LAD_RECIPE_ALL;
    if (want != LAD_RECIPE_ALL && want < n)
        n = (int)want;
    int e = dp->integer || n < 2 ? -1 : big_exponent(dp);
    if (e < 0) {
        const char *why = dp->integer ? "integer: exact sum" : n < 2 ? "one lane"
                                                                     : "no +-2^e and 1.0 to place";
        snprintf(p->summary, sizeof p->summary, "skipped: %s", why);
        return lad_probe_observe(p, "skipped", NULL, 0, "%s", why);
    }
    lad_batch b = {0};
    lad_case cs;
    int rc = LAD_OK;
    lad_batch_series(&b, "ones", "pass order");
    if (pair_case(dp, n, -1, -1, e, &cs) == LAD_OK &&
        (rc = lad_batch_addv(&b, &cs, n, "%d ones", n)))
        goto out;
    lad_batch_series(&b, "pair", "pass order");
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            if (pair_case(dp, n, i, j, e, &cs) == LAD_OK &&
                (rc = lad_batch_addv(&b, &cs, (int64_t)i * 256 + j, "+2^%d@%d -2^%d@%d", e, i, e,
                                     j)))
                goto out;
    if ((rc = lad_probe_eval(p, &b, NULL, NULL)))
        goto out;
    if ((rc = lad_probe_observe(p, "pairs", NULL, 0, "%zu of %d lanes, M = 2^%d", b.n - 1, n, e)))
        goto out;
    /* 1 + M must round to M in the widest accumulator seen so far (f32,
    ** 24 bits) even after n ones have gathered: e >= 24 + log2(n) + 1. */
    snprintf(p->summary, sizeof p->summary, "%zu pair placements over %d lanes, M = 2^%d%s",
             b.n - 1, n, e, e < 33 ? " (M MAY BE TOO SMALL to absorb the ones)" : "");
out:
    lad_batch_free(&b);
    return rc;
}
