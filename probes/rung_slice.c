/*
** Rung (b), output slice: the device reduces a replicated tile to one D word
** per case (every row of A and every column of B the same), so this rung
** checks that the word it returns tracks the scalar D = C + sum A*B: all
** lanes 1.0, all lanes 1.0 plus C = 1.0, and alternating signs whose sum is
** C alone. A device whose slice is wrong returns other words here.
*/
#include "ladder.h"
#include "case.h"

#include <inttypes.h>
#include <stdio.h>

int lad_rung_slice(lad_probe *p)
{
    const lad_datapath *dp = &p->dp;
    int n = lad_datapath_kphys(dp);
    lad_batch b = {0};
    lad_case cs;
    lad_word_t want[3];
    int ok = 1, rc = LAD_OK;
    for (int v = 0; v < 3 && ok; v++) {
        lad_case_base(dp, &cs);
        for (int j = 0; j < n && ok; j++)
            ok = lad_case_term(dp, &cs, j, v == 2 && (j & 1), 1, 0) == LAD_OK;
        if (v > 0)
            ok = ok && lad_case_c(dp, &cs, 0, 1, 0) == LAD_OK;
        long long sum = v == 0 ? n : v == 1 ? n + 1 : 1 - (n & 1);
        ok = ok && lad_word(&dp->d, 0, (uint64_t)sum, 0, &want[v]) == LAD_OK;
        lad_batch_series(&b, "slice", "k");
        if (ok && (rc = lad_batch_addv(&b, &cs, v, "%s", v == 0 ? "ones" : v == 1 ? "ones+c" : "alternating+c")))
            goto out;
    }
    if (!ok) {
        snprintf(p->summary, sizeof p->summary, "skipped: 1.0 or the sums are not representable");
        rc = lad_probe_observe(p, "scalar", NULL, 0, "untested");
        goto out;
    }
    lad_word_t d[3];
    int64_t ids[3];
    if ((rc = lad_probe_eval(p, &b, d, ids)))
        goto out;
    int match = d[0] == want[0] && d[1] == want[1] && d[2] == want[2];
    if ((rc = lad_probe_observe(p, "scalar", ids, 3, "%s", match ? "yes" : "no")))
        goto out;
    snprintf(p->summary, sizeof p->summary, "%d lanes of 1.0 gave 0x%" PRIx64 ": %s", n, d[0],
             match ? "the result tracks the scalar dot product" : "NOT the scalar dot product");
out:
    lad_batch_free(&b);
    return rc;
}
