/*
** Rung (c), lane isolation: each physical product lane alone (1.0 * 1.0,
** then 1.0 * 1.0 plus C = 1.0), and C alone, must contribute exactly. On a
** sparse kind a lane that the metadata removes carries a NaN (or the
** largest value) and must change nothing.
*/
#include "ladder.h"
#include "case.h"

#include <stdio.h>
#include <stdlib.h>

int lad_rung_lanes(lad_probe *p)
{
    const lad_datapath *dp = &p->dp;
    int n = lad_datapath_kphys(dp);
    long long want_n = p->rung ? lad_rung_param(p->rung, "lanes") : LAD_RECIPE_ALL;
    if (want_n != LAD_RECIPE_ALL && want_n < n)
        n = (int)want_n;
    lad_batch b = {0};
    lad_case cs;
    lad_word_t one, two, *want = NULL, *d = NULL;
    int64_t *ids = NULL;
    int rc = LAD_OK;
    if (lad_word(&dp->d, 0, 1, 0, &one) || lad_word(&dp->d, 0, 2, 0, &two)) {
        snprintf(p->summary, sizeof p->summary, "skipped: 1.0 is not representable");
        return lad_probe_observe(p, "exact", NULL, 0, "untested");
    }
    want = malloc((size_t)(2 * n + 8) * sizeof *want);
    if (want == NULL)
        return lad_errf(p->err, LAD_EINTERNAL, "out of memory");
    for (int j = 0; j < n; j++)
        for (int withc = 0; withc < 2; withc++) {
            lad_case_base(dp, &cs);
            if (lad_case_term(dp, &cs, j, 0, 1, 0) ||
                (withc && lad_case_c(dp, &cs, 0, 1, 0)))
                continue;
            want[b.n] = withc ? two : one;
            lad_batch_series(&b, withc ? "lane-c" : "lane", "k");
            if ((rc = lad_batch_addv(&b, &cs, j, "lane %d%s", j, withc ? " + c" : "")))
                goto out;
        }
    lad_case_base(dp, &cs);
    if (lad_case_c(dp, &cs, 0, 1, 0) == LAD_OK) {
        want[b.n] = one;
        lad_batch_series(&b, "c-alone", "c");
        if ((rc = lad_batch_add(&b, &cs, "c alone")))
            goto out;
    }
    if (dp->sparse) {
        /* a removed lane (logical lane 2 or 4) holding NaN or the maximum */
        lad_case_base(dp, &cs);
        if (lad_case_term(dp, &cs, 0, 0, 1, 0) == LAD_OK) {
            int l = dp->sparse == LAD_SPARSE_1OF2 ? 1 : dp->sparse == LAD_SPARSE_2OF4 ? 2 : 4;
            lad_word_t x = dp->a.nan ? lad_format_nan(&dp->a) : lad_format_maxfinite(&dp->a, 0);
            cs.a[l] = x;
            cs.b[l] = dp->b.nan ? lad_format_nan(&dp->b) : lad_format_maxfinite(&dp->b, 0);
            want[b.n] = one;
            lad_batch_series(&b, "removed-lane", "sparse");
            if ((rc = lad_batch_addv(&b, &cs, l, "removed lane %d ignored", l)))
                goto out;
        }
    }
    if ((rc = lad_probe_run(p, &b, &d, &ids)))
        goto out;
    size_t bad = 0;
    int64_t *badids = ids; /* compacted in place after use */
    for (size_t i = 0; i < b.n; i++)
        if (d[i] != want[i])
            badids[bad++] = ids[i];
    if (bad)
        rc = lad_probe_observe(p, "inexact", badids, bad, "%zu of %zu cases", bad, b.n);
    else
        rc = lad_probe_observe(p, "exact", ids, b.n, "all %zu cases", b.n);
    snprintf(p->summary, sizeof p->summary, "%d lanes and C alone: %s", n,
             bad ? "SOME LANES DO NOT CONTRIBUTE EXACTLY" : "each contributes exactly");
out:
    free(want);
    free(d);
    free(ids);
    lad_batch_free(&b);
    return rc;
}
