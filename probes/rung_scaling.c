/*
** Rung (k), block scaling, for scaled kinds only:
**
**   floor:  a cancelling pair in block 0 under scale 2^S and a unit product
**           in the last block under 2^(S-d), d = 0..max_shift: the last d
**           that survives is the quantum, max(product anchor - F, scale
**           anchor - scale_floor); three values of S separate the two;
**   group:  n products of 0.75 units (1.5 * 0.5) in the last block under a
**           falling scale, against 1.0 in block 0: cut one by one they
**           vanish sooner than summed in groups, so the pattern over n
**           gives the group size;
**   cdom:   C = -2^S cancelling a product 2^S, with the same fractions:
**           the C-dominant path's window and its group size;
**   sub:    groups that only reach a subnormal result under unequal scales.
** Decides scale_floor, group, cdom_window, cdom_group, cdom_per_group and
** group_sub_floor.
*/
#include "ladder.h"
#include "case.h"

#include <stdio.h>

int lad_rung_scaling(lad_probe *p)
{
    const lad_datapath *dp = &p->dp;
    if (dp->scale_block <= 0) {
        snprintf(p->summary, sizeof p->summary, "unscaled kind: nothing to probe");
        return lad_probe_observe(p, "skipped", NULL, 0, "unscaled");
    }
    int maxs = p->rung ? (int)lad_rung_param(p->rung, "max_shift") : 40;
    int nb = lad_datapath_nscales(dp), sbk = dp->scale_block, last = nb - 1;
    int kp = lad_datapath_kphys(dp);
    uint32_t a15, b05, b1;
    int have = !lad_word(&dp->a, 0, 3, -1, &a15) && !lad_word(&dp->b, 0, 1, -1, &b05) &&
               !lad_word(&dp->b, 0, 1, 0, &b1);
    lad_batch b = {0};
    int rc = LAD_OK;
    static const int S[3] = {0, 30, -30};
    for (int si = 0; si < 3; si++)
        for (int d = 0; d <= maxs + 25; d++) {
            for (int v = 0; v < 2; v++) {
                lad_case cs;
                lad_case_base(dp, &cs);
                int ok = !lad_case_scale(dp, &cs, 0, S[si], 0) &&
                         !lad_case_term(dp, &cs, 0, 0, 1, 0) && !lad_case_term(dp, &cs, 1, 1, 1, 0);
                if (last > 0)
                    ok = ok && !lad_case_scale(dp, &cs, last, S[si] - d, 0) &&
                         !lad_case_term(dp, &cs, last * sbk, v, 1, 0);
                else
                    ok = ok && !lad_case_c(dp, &cs, v, 1, S[si] - d);
                if (ok && (rc = lad_batch_add(&b, &cs, "floor S=%d d=%d%s", S[si], d, v ? " neg" : "")))
                    goto out;
            }
        }
    if (have) {
        static const int ns[] = {1, 2, 3, 4, 8, 16, 32};
        for (int mode = 0; mode < 2; mode++)
            for (int ni = 0; ni < 7; ni++)
                for (int d = 0; d <= maxs + 25; d += 1) {
                    int n = ns[ni], blk = last > 0 ? last : 0, first = blk * sbk + (last > 0 ? 0 : 2);
                    if (first + n > kp || (last > 0 && n > sbk))
                        continue;
                    lad_case cs;
                    lad_case_base(dp, &cs);
                    int ok = !lad_case_scale(dp, &cs, 0, 0, 0);
                    if (mode == 0)
                        ok = ok && !lad_case_term(dp, &cs, 0, 0, 1, 0);
                    else
                        ok = ok && !lad_case_c(dp, &cs, 1, 1, 0) && !lad_case_term(dp, &cs, 0, 0, 1, 0) &&
                             !lad_case_term(dp, &cs, 1, 0, 1, -d);
                    if (last > 0)
                        ok = ok && !lad_case_scale(dp, &cs, blk, -d, 0);
                    for (int j = 0; j < n && ok; j++)
                        lad_case_words(dp, &cs, first + j, a15, b05);
                    if (ok && (rc = lad_batch_add(&b, &cs, "%s n=%d d=%d", mode ? "cdom" : "group", n, d)))
                        goto out;
                }
    }
    /* subnormal results under unequal scales */
    for (int e = -150; e <= -120; e++)
        for (int v = 0; v < 2 && last > 0; v++) {
            lad_case cs;
            lad_case_base(dp, &cs);
            int ok = !lad_case_scale(dp, &cs, 0, e / 2, e - e / 2) && !lad_case_term(dp, &cs, 0, 0, 3, -1) &&
                     !lad_case_scale(dp, &cs, last, (e - 20 - v * 8) / 2, (e - 20 - v * 8) - (e - 20 - v * 8) / 2);
            for (int j = 0; j < 4 && ok; j++)
                ok = !lad_case_term(dp, &cs, last * sbk + j, 0, 7, -1);
            if (ok && (rc = lad_batch_add(&b, &cs, "sub e=%d v=%d", e, v)))
                goto out;
        }
    (void)b1;
    if ((rc = lad_probe_eval(p, &b, NULL, NULL)))
        goto out;
    rc = lad_probe_observe(p, "cases", NULL, 0, "%zu", b.n);
    snprintf(p->summary, sizeof p->summary, "%zu scale cases (%d blocks of %d)", b.n, nb, sbk);
out:
    lad_batch_free(&b);
    return rc;
}
