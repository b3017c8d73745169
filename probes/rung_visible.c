/*
** Rung (e), visible precision: 1 + 2^-j for growing j until the result no
** longer shows it, built four ways: C alone (the result format and any
** rounding between passes, no window), 1.0 as a product plus C = 2^-j, C =
** 1.0 plus a product 2^-j, and negated. The last j that shows is the
** result's fraction bits (an f32 result cut to e8m13 shows 13). Decides d's
** kept fraction bits; with the internal rung, the window.
*/
#include "ladder.h"
#include "case.h"

#include <stdio.h>
#include <stdlib.h>

int lad_rung_visible(lad_probe *p)
{
    if (p->dp.integer) {
        snprintf(p->summary, sizeof p->summary, "integer result: exact");
        return lad_probe_observe(p, "integer", NULL, 0, "yes");
    }
    const lad_datapath *dp = &p->dp;
    int maxj = p->rung ? (int)lad_rung_param(p->rung, "max_j") : 40;
    lad_batch b = {0};
    int rc = LAD_OK;
    for (int j = 1; j <= maxj; j++)
        for (int s = 0; s < 5; s++) {
            lad_case cs;
            lad_case_base(dp, &cs);
            uint64_t m = ((uint64_t)1 << j) + 1;
            int ok;
            switch (s) {
            case 0: ok = j < 60 && !lad_case_c(dp, &cs, 0, m, -j); break;
            case 1: ok = j < 60 && !lad_case_c(dp, &cs, 1, m, -j); break;
            case 2: ok = !lad_case_term(dp, &cs, 0, 0, 1, 0) && !lad_case_c(dp, &cs, 0, 1, -j); break;
            case 3: ok = !lad_case_c(dp, &cs, 0, 1, 0) && !lad_case_term(dp, &cs, 0, 0, 1, -j); break;
            default: ok = !lad_case_term(dp, &cs, 0, 1, 1, 0) && !lad_case_c(dp, &cs, 1, 1, -j); break;
            }
            static const char *nm[] = {"c 1+2^-j", "c -(1+2^-j)", "p 1 + c 2^-j",
                                       "c 1 + p 2^-j", "p -1 - c 2^-j"};
            static const char *vis_series[] = {"c", "c-neg", "p-c", "c-p", "p-c-neg"};
            lad_batch_series(&b, vis_series[s], "d window");
            if (ok && (rc = lad_batch_addv(&b, &cs, j, "%s j=%d", nm[s], j)))
                goto out;
        }
    lad_word_t *d = NULL;
    int64_t *ids = NULL;
    if ((rc = lad_probe_run(p, &b, &d, &ids)) == LAD_OK) {
        lad_word_t one = 0;
        lad_word(&dp->d, 0, 1, 0, &one);
        int last = 0;
        int64_t lastid = 0;
        for (size_t i = 0; i < b.n; i++) {
            int j;
            if (sscanf(b.label[i], "c 1+2^-j j=%d", &j) == 1 && d[i] != one && j > last) {
                last = j;
                lastid = ids[i];
            }
        }
        p->facts.dbits = last;
        rc = lad_probe_observe(p, "last_j", &lastid, lastid ? 1 : 0, "%d", last);
        snprintf(p->summary, sizeof p->summary, "C = 1 + 2^-j shows through j = %d", last);
    }
    free(d);
    free(ids);
out:
    lad_batch_free(&b);
    return rc;
}
