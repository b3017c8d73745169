/*
** Rung (h), grouping: which lanes are fused before a rounding step.
**
**   - a big cancelling pair (+1 in lane 0, -1 in lane m) with a tiny term
**     far below the window in another lane: the tiny term survives only
**     when it is not fused with the pair's anchor, so m sweeps the lanes and
**     the pattern shows the pass length L;
**   - C = -1 against +1 in lane m and the tiny term: where C enters (the
**     first pass, or added to the pass results afterwards);
**   - C = 2^(p+2), p the visible bits, plus 1.0 in lanes 0..m-1: a pass
**     sum below the result's ulp at C is lost at each rounding, so the
**     count that shows tells how many lanes fuse, for any format with 1.0;
**   - the same with the ones starting at lane m (pass order).
** Decides pass (products per pass), chain/sum and d_via_acc.
*/
#include "ladder.h"
#include "case.h"

#include <stdio.h>
#include <stdlib.h>

int lad_rung_grouping(lad_probe *p)
{
    const lad_datapath *dp = &p->dp;
    int n = lad_datapath_kphys(dp);
    long long mp = p->rung ? lad_rung_param(p->rung, "max_pass") : LAD_RECIPE_ALL;
    if (dp->integer || n < 2) {
        snprintf(p->summary, sizeof p->summary, "%s", dp->integer ? "integer: exact sum" : "one lane");
        return lad_probe_observe(p, "skipped", NULL, 0, "%s", dp->integer ? "integer" : "k=1");
    }
    if (mp != LAD_RECIPE_ALL && mp < n)
        n = mp < 2 ? 2 : (int)mp;
    int w = p->facts.window > 0 ? p->facts.window : 25;
    int db = p->facts.dbits > 0 ? p->facts.dbits : dp->d.mbits;
    /* the pair's exponent: high enough that the tiny term stays a normal
    ** result (f16: 2^-14 at the least), 0 for wide results */
    int big = 1 - dp->d.bias + w + 4;
    if (big < 0)
        big = 0;
    lad_batch b = {0};
    int rc = LAD_OK;
    for (int m = 1; m < n; m++) {
        for (int v = 0; v < 4; v++) {
            int s = v & 1 ? m + 1 : m - 1; /* lane of the tiny term */
            if (s <= 0 || s >= n)
                s = v & 1 ? n - 1 : 1;
            if (s == m || s == 0)
                continue;
            lad_case cs;
            lad_case_base(dp, &cs);
            int ok;
            if (v < 2)
                ok = !lad_case_term(dp, &cs, 0, 0, 1, big) && !lad_case_term(dp, &cs, m, 1, 1, big);
            else
                ok = !lad_case_c(dp, &cs, 1, 1, big) && !lad_case_term(dp, &cs, m, 0, 1, big);
            ok = ok && !lad_case_term(dp, &cs, s, 0, 1, big - (w + 4));
            lad_batch_series(&b, v < 2 ? "pair" : "c-pair", "pass chain");
            if (ok && (rc = lad_batch_addv(&b, &cs, m, "%s m=%d tiny=%d", v < 2 ? "pair" : "c-pair",
                                          m, s)))
                goto out;
        }
    }
    for (int m = 1; m <= n; m++)
        for (int v = 0; v < 4; v++) {
            lad_case cs;
            lad_case_base(dp, &cs);
            int ok = !lad_case_c(dp, &cs, v & 1, 1, db + 2);
            int from = v < 2 ? 0 : m - 1, to = v < 2 ? m : n;
            if (v >= 2 && m == 1)
                continue;
            for (int j = from; j < to && ok; j++)
                ok = !lad_case_term(dp, &cs, j, v & 1, 1, 0);
            lad_batch_series(&b, "c-ones", "pass chain d_via_acc");
            if (ok && (rc = lad_batch_add(&b, &cs, "%sc=2^%d ones %d..%d", v & 1 ? "-" : "",
                                          db + 2, from, to - 1)))
                goto out;
        }
    if ((rc = lad_probe_eval(p, &b, NULL, NULL)))
        goto out;
    rc = lad_probe_observe(p, "cases", NULL, 0, "%zu", b.n);
    snprintf(p->summary, sizeof p->summary, "%zu placements of cancelling pairs, tiny terms and ones",
             b.n);
out:
    lad_batch_free(&b);
    return rc;
}
