/*
** Rung (i), zero terms and the anchor floor, with tiny values: for each
** exponent e from 0 down to min_exp, C (or a product) = 2^e plus one unit
** of the result's last place, and a negative product just inside or just
** outside the window below e; once without and once with a zero product in
** another lane; and a lone product 2^e (1 + 2^-m) with a zero product. A
** floor under the anchor shows as the exponent below which the negative
** term stops being kept; a zero product that takes part in the anchor
** moves that exponent. Below min_exp, lone products 2^e with and without
** a zero product, which only a directed result rounding shows (on
** block-scaled kinds, those beside a zero product also through the
** scales: scale_to), or a C added outside the window beside them.
** Decides zero_floor and anchor_min.
*/
#include "ladder.h"
#include "case.h"

#include <stdio.h>
#include <stdlib.h>

/*
** A block-scaled datapath reaches through its scales exponents its words
** cannot (fp6 and fp4 products stop near 2^-8): every block's scale pair
** set to 2^ea x 2^eb, ea + eb = e, puts a product built as 2^0 at 2^e. C
** is not scaled. LAD_NO where the scale formats cannot hold the halves.
*/
static int scale_to(const lad_datapath *dp, lad_case *cs, int e)
{
    int ea = e / 2, eb = e - ea;
    for (int blk = 0; blk < lad_datapath_nscales(dp); blk++)
        if (lad_case_scale(dp, cs, blk, ea, eb))
            return LAD_NO;
    return LAD_OK;
}

int lad_rung_zeros(lad_probe *p)
{
    const lad_datapath *dp = &p->dp;
    if (dp->integer) {
        snprintf(p->summary, sizeof p->summary, "integer: exact sum");
        return lad_probe_observe(p, "skipped", NULL, 0, "integer");
    }
    int minexp = p->rung ? (int)lad_rung_param(p->rung, "min_exp") : -160;
    int w = p->facts.window > 0 ? p->facts.window : 25;
    int db = p->facts.dbits > 0 ? p->facts.dbits : dp->d.mbits;
    int dlow = 1 - dp->d.bias - dp->d.mbits; /* the result's smallest ulp */
    int n = lad_datapath_kphys(dp);
    /* the smallest positive product: fills lanes that must not be zero
    ** products, far below every quantum, so it never counts */
    int tiny = -400;
    lad_case probe;
    lad_case_base(dp, &probe);
    while (tiny < 0 && lad_case_term(dp, &probe, 0, 0, 1, tiny) != LAD_OK)
        tiny++;
    lad_batch b = {0};
    int rc = LAD_OK;
    for (int e = 0; e >= minexp; e -= (e > -100 ? 4 : 1)) {
        int ue = e - db > dlow ? e - db : dlow; /* one ulp of the result at 2^e */
        for (int zero = 0; zero < 2 && (zero == 0 || n >= 3); zero++)
            for (int t = -1; t <= 1; t += 2) {
                for (int big = 0; big < 2; big++) {
                    lad_case cs;
                    lad_case_base(dp, &cs);
                    int ok;
                    /* C = (2^(e-ue) + 1) ulps needs 0 < e - ue <= 60 */
                    if (big == 0 && (ue >= e || e - ue > 60))
                        continue;
                    uint64_t m = big ? 0 : ((uint64_t)1 << (e - ue)) + 1;
                    /* C with a last bit, or a product 2^e (C = 0: the
                    ** anchor is the products' alone, and a kept negative
                    ** term shows as one unit less under truncation) */
                    ok = big == 0 ? !lad_case_c(dp, &cs, 0, m, ue)
                                  : !lad_case_term(dp, &cs, 0, 0, 1, e);
                    ok = ok && !lad_case_term(dp, &cs, 1, 1, 1, e - w + t);
                    if (zero && ok) {
                        lad_word_t zb;
                        ok = !lad_word(&dp->b, 0, 1, 0, &zb);
                        lad_case_words(dp, &cs, 2, 0, zb);
                    } else if (ok && tiny < e - w - 8) {
                        for (int j = big ? 2 : (n > 1 ? 2 : 1); j < n; j++)
                            lad_case_term(dp, &cs, j, 0, 1, tiny);
                        if (!big)
                            lad_case_term(dp, &cs, 0, 0, 1, tiny);
                    }
                    lad_batch_series(&b, "cancel-ulp", "zero_floor");
                    if (ok && (rc = lad_batch_add(&b, &cs, "%s2^%d+ulp -2^%d%s", big ? "p" : "c",
                                                  e, e - w + t, zero ? " zero" : "")))
                        goto out;
                }
            }
        /* a lone product with low bits, and a zero product beside it */
        for (int zero = 0; zero < 2; zero++) {
            lad_case cs;
            lad_case_base(dp, &cs);
            int mb = dp->a.mbits > 0 ? dp->a.mbits : 1;
            int ok = !lad_case_term(dp, &cs, 0, 0, ((uint64_t)1 << mb) + 1, e - mb);
            if (zero && ok && n >= 2) {
                lad_word_t zb;
                ok = !lad_word(&dp->b, 0, 1, 0, &zb);
                lad_case_words(dp, &cs, 1, 0, zb);
            }
            lad_batch_series(&b, "zero-lane", "zero_floor");
            if (ok && (rc = lad_batch_addv(&b, &cs, e, "p 2^%d(1+2^-%d)%s", e, mb, zero ? " zero" : "")))
                goto out;
        }
    }
    /* below the result's range a kept term shows only as a nonzero result
    ** under directed rounding (ru: the smallest subnormal, rd: its
    ** negation, else +0): a lone product 2^e, beside the smallest product
    ** (no zero product) or a zero product, and negated both ways, for e
    ** down to the lowest quantum a floor at min_exp can set (windows up to
    ** 60 and a few bits more) */
    for (int e = minexp - 1; e >= minexp - 64 && (e >= tiny || dp->scale_block > 0); e--)
        for (int v = 0; v < 4; v++) {
            lad_case cs;
            lad_case_base(dp, &cs);
            int ok = e >= tiny && !lad_case_term(dp, &cs, 0, v >= 2, 1, e), scaled = 0;
            if (!ok && (v == 1 || v == 2) && dp->scale_block > 0) {
                /* beside a zero product, through the scales */
                lad_case_base(dp, &cs);
                ok = !lad_case_term(dp, &cs, 0, v >= 2, 1, 0) && !scale_to(dp, &cs, e);
                scaled = 1;
            }
            if (v == 3) {
                /* negated, the smallest product in every other lane */
                if (n > 1 && tiny >= e)
                    ok = 0;
                for (int j = 1; j < n && ok; j++)
                    lad_case_term(dp, &cs, j, 0, 1, tiny);
            } else if (v > 0 && ok && n >= 2) {
                lad_word_t zb;
                ok = !lad_word(&dp->b, 0, 1, 0, &zb);
                lad_case_words(dp, &cs, 1, 0, zb);
            } else if (v > 0 || (n > 1 && tiny >= e)) {
                ok = 0;
            } else {
                /* no zero product: the smallest product in every other lane */
                for (int j = 1; j < n; j++)
                    lad_case_term(dp, &cs, j, 0, 1, tiny);
            }
            lad_batch_series(&b, "low-p", "anchor_min");
            if (ok && (rc = lad_batch_addv(&b, &cs, e, "%sp 2^%d%s%s", v >= 2 ? "-" : "", e,
                                          v == 1 || v == 2 ? " zero" : "", scaled ? " scaled" : "")))
                goto out;
        }
    /* C = +-2^(1-bias), the result's smallest normal, and a lone product
    ** 2^e of the other sign, beside a zero product or the smallest
    ** products: when C is added to the window sum exactly (c_anchor 0), a
    ** kept product takes one unit off a result rounded toward zero (or
    ** toward the product's sign), so the floor shows under rz too */
    int cmin = 1 - dp->d.bias;
    for (int e = minexp - 1; e >= minexp - 64 && e >= tiny && n >= 2; e--)
        for (int v = 0; v < 4; v++) {
            int neg = v & 1, zero = v >> 1;
            lad_case cs;
            lad_case_base(dp, &cs);
            int ok = !lad_case_c(dp, &cs, neg, 1, cmin) &&
                     !lad_case_term(dp, &cs, 0, !neg, 1, e);
            if (ok && zero) {
                lad_word_t zb;
                ok = !lad_word(&dp->b, 0, 1, 0, &zb);
                lad_case_words(dp, &cs, 1, 0, zb);
            } else if (ok) {
                ok = tiny < e - w - 8;
                for (int j = 1; j < n && ok; j++)
                    lad_case_term(dp, &cs, j, 0, 1, tiny);
            }
            lad_batch_series(&b, "c-low-p", "anchor_min");
            if (ok && (rc = lad_batch_add(&b, &cs, "c%s2^%d %sp 2^%d%s", neg ? "-" : "+", cmin,
                                          neg ? "+" : "-", e, zero ? " zero" : "")))
                goto out;
        }
    if ((rc = lad_probe_eval(p, &b, NULL, NULL)))
        goto out;
    rc = lad_probe_observe(p, "cases", NULL, 0, "%zu", b.n);
    snprintf(p->summary, sizeof p->summary, "%zu tiny-term cases down to 2^%d", b.n, minexp);
out:
    lad_batch_free(&b);
    return rc;
}
