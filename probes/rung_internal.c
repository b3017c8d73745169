/*
** Rung (f), internal precision: -x + x + 2^-j, the big pair cancelling, for
** growing j until the survivor vanishes. Anchored on a product (the pair
** are products, the survivor C or a product), on C (C = -1 against a
** product), and with C's raw exponent above the products' (C = -2.25
** against 1.5 * 1.5, whose raw exponent is one less): comparing the anchors
** says whether C takes part in the anchor. Negative survivors show whether
** terms are cut toward zero or toward -Inf. The sweep goes on past max_j
** while anything survives. Decides the window F, c_anchor, align_round and
** whether C enters the window or is added after it (chain vs sum).
*/
#include "ladder.h"
#include "case.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NSERIES 13

/* Builds case s of the series for j; LAD_NO when not representable. */
/* The base of the tie series: n lanes of m * 2^x, whose sum has its
** leading bit at 2^top; top < -1000 when none was found. */
typedef struct tie {
    int n, x, top;
    uint64_t m;
} tie;

static int build(const lad_datapath *dp, lad_case *cs, int s, int j, int E, const tie *t,
                 int db)
{
    lad_case_base(dp, cs);
    lad_word_t a15, b15;
    switch (s) {
    case 0: /* products cancel, C survives */
    case 1:
        return lad_case_term(dp, cs, 0, 0, 1, E) || lad_case_term(dp, cs, 1, 1, 1, E) ||
               lad_case_c(dp, cs, s == 1, 1, E - j) ? LAD_NO : LAD_OK;
    case 2: /* C = -1 cancels a product, a product survives */
    case 3:
        return lad_case_c(dp, cs, 0 + (s == 2), 1, E) || lad_case_term(dp, cs, 0, s == 3, 1, E) ||
               lad_case_term(dp, cs, 1, 0, 1, E - j) ? LAD_NO : LAD_OK;
    case 4: /* products only */
    case 5:
        return lad_case_term(dp, cs, 0, 0, 1, E) || lad_case_term(dp, cs, 1, 1, 1, E) ||
               lad_case_term(dp, cs, 2, s == 5, 1, E - j) ? LAD_NO : LAD_OK;
    case 6: /* C's raw exponent one above the products' */
    case 7:
        if (E ||lad_word(&dp->a, 0, 3, -1, &a15) || lad_word(&dp->b, s == 7, 3, -1, &b15) ||
            lad_case_c(dp, cs, s == 6, 9, -2))
            return LAD_NO;
        lad_case_words(dp, cs, 0, a15, b15);
        return lad_case_term(dp, cs, 1, 0, 1, -j);
    case 9: /* 2^Et plus half a result ulp (a tie), C = 2^(Et-j) tips it */
    case 10: /* 2^Et and C = -2^(Et-j): one ulp less when C is kept */
        if (E || t->top < -1000)
            return LAD_NO;
        for (int l = 0; l < t->n; l++)
            if (lad_case_term(dp, cs, l, 0, t->m, t->x))
                return LAD_NO;
        return (s == 9 && lad_case_term(dp, cs, t->n, 0, 1, t->top - db - 1)) ||
               lad_case_c(dp, cs, s == 10, 1, t->top - j) ? LAD_NO : LAD_OK;
    case 11: /* products only, other lanes: a pass of lanes 0, 1, 4 or */
    case 12: /* of lanes 0, 2, 4 (lane orders that interleave) */
        if (lad_datapath_kphys(dp) < 5)
            return LAD_NO;
        return lad_case_term(dp, cs, 0, 0, 1, E) || lad_case_term(dp, cs, s == 11 ? 1 : 2, 1, 1, E) ||
               lad_case_term(dp, cs, 4, 0, 1, E - j) ? LAD_NO : LAD_OK;
    default: /* the same with C the survivor (1.5*1.5 - 1.5*1.5 + C) */
        if (E ||!dp->a.sign || lad_word(&dp->a, 0, 3, -1, &a15) ||
            lad_word(&dp->b, 0, 3, -1, &b15))
            return LAD_NO;
        lad_case_words(dp, cs, 0, a15, b15);
        lad_case_words(dp, cs, 1, a15 ^ (dp->a.sign ? (lad_word_t)1 << (dp->a.width - 1) : 0), b15);
        return lad_case_c(dp, cs, 0, 1, -j);
    }
}

static const char *const names[NSERIES] = {
    "p1-p1+c", "p1-p1-c", "-c1+p1+p", "c1-p1+p", "p1-p1+p", "p1-p1-p",
    "-c2.25+p1.5^2+p", "c2.25-p1.5^2+p", "p1.5^2-p1.5^2+c", "tie+c", "p-c", "p1-p1+p lanes 0,1,4",
    "p1-p1+p lanes 0,2,4"};

/*
** Products wider than any window of the series above reaches (f32 times
** f32: 48 bits): (1 + 2^-i)^2 - (1 + 2^(1-i)) leaves the product's own
** lowest bit, 2^-2i, which only a window of at least 2i bits keeps (AMD's
** f32 MFMA in MMA-Sim is a fused multiply-add: 48), for significands
** whose product passes 24 bits (the narrower ones are seen whole by the
** series above). And products farther apart than any window: 2^t - 2^t +
** 2^(t-j), t the largest power-of-two product, j from 50 to the smallest
** product, which only an exact sum keeps (CDNA1 in MMA-Sim). Stored for
** the fit; nothing is derived here.
*/
static int wide_products(lad_probe *p)
{
    const lad_datapath *dp = &p->dp;
    int m = dp->a.mbits < dp->b.mbits ? dp->a.mbits : dp->b.mbits;
    if (dp->a.mbits + dp->b.mbits + 2 <= 24 || m > 30)
        m = 0;
    /* two series, each naming what it decides: the far-apart products
    ** only whether the sum is exact, the wide ones the window */
    lad_batch b = {0};
    lad_batch_series(&b, "far-products", "exact");
    int rc = LAD_OK, top = 1000;
    for (; top > -1000; top--) {
        lad_case c;
        lad_case_base(dp, &c);
        if (lad_case_term(dp, &c, 0, 0, 1, top) == LAD_OK)
            break;
    }
    for (int j = 50; j < 400 && lad_datapath_kphys(dp) >= 3 && rc == LAD_OK; j += j < 80 ? 6 : 40) {
        lad_case cs;
        lad_case_base(dp, &cs);
        if (lad_case_term(dp, &cs, 0, 0, 1, top) || lad_case_term(dp, &cs, 1, 1, 1, top) ||
            lad_case_term(dp, &cs, 2, 0, 1, top - j))
            continue;
        rc = lad_batch_addv(&b, &cs, j, "p-p+p far j=%d", j);
    }
    lad_batch_series(&b, "wide-product", "window");
    for (int i = 1; i <= m && rc == LAD_OK; i++) {
        lad_case cs;
        lad_word_t wa, wb;
        lad_case_base(dp, &cs);
        if (lad_word(&dp->a, 0, (1ull << i) + 1, -i, &wa) ||
            lad_word(&dp->b, 0, (1ull << i) + 1, -i, &wb))
            continue;
        lad_case_words(dp, &cs, 0, wa, wb);
        if (lad_case_c(dp, &cs, 1, (1ull << (i - 1)) + 1, 1 - i))
            continue;
        rc = lad_batch_addv(&b, &cs, 2 * i, "(1+2^-%d)^2-c j=%d", i, 2 * i);
    }
    if (rc == LAD_OK && b.n > 0)
        rc = lad_probe_eval(p, &b, NULL, NULL);
    lad_batch_free(&b);
    return rc;
}

/*
** Case s of the two-level series for j, with everything scaled by 2^sc: a
** tie of the result's rounding in which a product 2^-j far below decides,
** with C above the products, so that the product sum is cut below C's
** anchor E (window2) and the total below its own leading bit (norm2).
**   s 0, 1 (carry): C = 2 - 2^-db, P1 = 2^(1-db), C + P1 = 2 + 2^-db a tie
**       above 2 (lead 1: norm2 cuts at 1 - norm2), P2 = 2^-j in lane 1 or 2;
**   s 2, 3 (cancel): C = 1, P1 = -2^-12, P2 = 2^(-2-db), 1 - 2^-12 + P2 a
**       tie below 1 (lead -1: norm2 cuts at -1 - norm2, window2 at
**       -window2), P3 = 2^-j in lane 2 or lane 1 (P2 then in lane 2).
** Returns LAD_NO when a term is not representable.
*/
static int build_two_level(const lad_datapath *dp, lad_case *cs, int s, int j,
                           int db, int sc)
{
    lad_case_base(dp, cs);
    if (s < 2)
        return lad_case_c(dp, cs, 0, (2ull << db) - 1, sc - db) ||
               lad_case_term(dp, cs, 0, 0, 1, sc + 1 - db) ||
               lad_case_term(dp, cs, 1 + s, 0, 1, sc - j) ? LAD_NO : LAD_OK;
    return lad_case_c(dp, cs, 0, 1, sc) || lad_case_term(dp, cs, 0, 1, 1, sc - 12) ||
           lad_case_term(dp, cs, s == 2 ? 1 : 2, 0, 1, sc - 2 - db) ||
           lad_case_term(dp, cs, s == 2 ? 2 : 1, 0, 1, sc - j) ? LAD_NO : LAD_OK;
}

/*
** The two-level series (build_two_level), j from db + 2 to 48, each case at
** the lowest scale 2^sc (sc from -16 up) where all its terms are
** representable. A one-level window shows here as in anchor-1 (C takes
** part in the anchor or not); MMA-Sim's CDNA3 model keeps the tipping
** product down to E - window2 in the cancelling case but only down to
** 1 - norm2 in the carrying one, which no other series separates. Stored
** for the fit; nothing is derived here.
*/
static int two_level(lad_probe *p, int db)
{
    const lad_datapath *dp = &p->dp;
    static const char *const tl[4] = {"c-tie carry p lane 1", "c-tie carry p lane 2",
                                      "c-tie cancel p lane 2", "c-tie cancel p lane 1"};
    if (lad_datapath_kphys(dp) < 3 || db < 2 || db > 40)
        return LAD_OK;
    lad_batch b = {0};
    lad_batch_series(&b, "two-level", "window2 norm2");
    int rc = LAD_OK;
    for (int s = 0; s < 4 && rc == LAD_OK; s++)
        for (int j = db + 2; j <= 48 && rc == LAD_OK; j++)
            for (int sc = -16; sc <= 40; sc++) {
                lad_case cs;
                if (build_two_level(dp, &cs, s, j, db, sc) == LAD_OK) {
                    rc = lad_batch_addv(&b, &cs, j, "%s j=%d", tl[s], j);
                    break;
                }
            }
    if (rc == LAD_OK && b.n > 0)
        rc = lad_probe_eval(p, &b, NULL, NULL);
    lad_batch_free(&b);
    return rc;
}

int lad_rung_internal(lad_probe *p)
{
    if (p->dp.integer) {
        snprintf(p->summary, sizeof p->summary, "integer result: exact");
        return lad_probe_observe(p, "integer", NULL, 0, "yes");
    }
    const lad_datapath *dp = &p->dp;
    int maxj = p->rung ? (int)lad_rung_param(p->rung, "max_j") : 40;
    int rc = LAD_OK, last[NSERIES] = {0}, lasthigh[NSERIES] = {0};
    int64_t lastid[NSERIES] = {0};
    lad_word_t zero = 0;
    /* a second anchor for narrow results, so that survivors far below
    ** 1.0 stay normal results (f16: 2^16 shows 2^-j down to j = 30) */
    int E1 = 1 - dp->d.bias + 30;
    /* and for narrow products under a wide result, whose survivors below
    ** 1.0 stop at the smallest product (e4m3 times itself: 2^-18) */
    int pmin = -400;
    for (; pmin < 0; pmin++) {
        lad_case c;
        lad_case_base(dp, &c);
        if (lad_case_term(dp, &c, 0, 0, 1, pmin) == LAD_OK)
            break;
    }
    if (E1 <= 0 && pmin > -maxj)
        E1 = 30;
    /* narrow products cannot reach it: the highest power of two below it
    ** that is a product (e4m3fn times itself: 2^14) */
    for (; E1 > 0; E1--) {
        lad_case c;
        lad_case_base(dp, &c);
        if (lad_case_term(dp, &c, 0, 0, 1, E1) == LAD_OK)
            break;
    }
    /* for the tie series: the largest 2^Et whose half result ulp is also a
    ** product, so that narrow products and a narrow C still show F */
    int db = p->facts.dbits > 0 ? p->facts.dbits : dp->d.mbits, kp = lad_datapath_kphys(dp);
    tie t = {1, 0, -100000, 1}, big = {1, 0, -100000, 1};
    static const uint64_t mags[] = {1, 3, 9, 5, 15, 25, 7, 49};
    for (int e = 40; e >= -40 && t.top < -1000; e--)
        for (int i = 0; i < 8 && t.top < -1000; i++) {
            /* the value mags[i] * 2^x whose leading bit is 2^e */
            int x = e - (lad_bitlen128(mags[i]) - 1);
            lad_case c;
            lad_case_base(dp, &c);
            if (lad_case_term(dp, &c, 0, 0, mags[i], x) != LAD_OK)
                continue;
            if (big.top < -1000) {
                big.m = mags[i];
                big.x = x;
                big.top = e;
            }
            if (e >= 0 && lad_case_term(dp, &c, 1, 0, 1, e - db - 1) == LAD_OK) {
                t.m = mags[i];
                t.x = x;
                t.top = e;
            }
        }
    /* narrow products: several lanes of the largest product reach a sum
    ** whose half ulp is itself a product (e2m1: 16 * 36 and 0.25) */
    for (int n = 2; n < kp && t.top < -1000 && big.top > -1000; n++) {
        int top = lad_bitlen128((uint64_t)n * big.m) - 1 + big.x;
        lad_case c;
        lad_case_base(dp, &c);
        if (lad_case_term(dp, &c, 0, 0, 1, top - db - 1) == LAD_OK) {
            t = big;
            t.n = n;
            t.top = top;
        }
    }
    for (int j0 = 1; j0 <= maxj; j0 += 8) {
        lad_batch b = {0};
        for (int j = j0; j < j0 + 8 && j <= maxj; j++)
            for (int s = 0; s < 2 * NSERIES; s++) {
                lad_case cs;
                int E = s < NSERIES ? 0 : E1;
                /* the series names the family and, after ':', the
                ** arrangement of the terms (report/render.c's map rows) */
                char series[32];
                snprintf(series, sizeof series, "%s:%s", s < NSERIES ? "anchor-1" : "anchor-e",
                         names[s % NSERIES]);
                lad_batch_series(&b, series, "window c_anchor align_round chain");
                if ((s < NSERIES || E1 > 0) && build(dp, &cs, s % NSERIES, j, E, &t, db) == LAD_OK &&
                    (rc = lad_batch_addv(&b, &cs, j, "%s j=%d%s", names[s % NSERIES], j,
                                        E ? " high" : ""))) {
                    lad_batch_free(&b);
                    return rc;
                }
            }
        lad_word_t d[16 * NSERIES + 1];
        int64_t ids[16 * NSERIES + 1];
        if ((rc = lad_probe_eval(p, &b, d, ids))) {
            lad_batch_free(&b);
            return rc;
        }
        int any = 0;
        for (size_t i = 0; i < b.n; i++) {
            int j = 0;
            const char *sp = strchr(b.label[i], ' ');
            sscanf(sp ? sp : "", " j=%d", &j);
            for (int s = 0; s < NSERIES; s++)
                if (strncmp(b.label[i], names[s], strlen(names[s])) == 0 &&
                    b.label[i][strlen(names[s])] == ' ' && d[i] != zero) {
                    if (strstr(b.label[i], "high") != NULL) {
                        if (j > lasthigh[s])
                            lasthigh[s] = j;
                        continue;
                    }
                    any = 1;
                    if (j > last[s]) {
                        last[s] = j;
                        lastid[s] = ids[i];
                    }
                }
        }
        lad_batch_free(&b);
        /* keep going past max_j while survivors remain (windows up to 60) */
        if (j0 + 8 > maxj && any && maxj < 64)
            maxj = j0 + 15 < 64 ? j0 + 15 : 64;
    }
    int w = -1;
    for (int s = 0; s < NSERIES; s++) {
        if (last[s] && (rc = lad_probe_observe(p, names[s], &lastid[s], 1,
                                               "last surviving j: %d", last[s])))
            return rc;
        if ((s == 4 || s == 2 || s == 0) && last[s] && w < 0)
            w = last[s];
    }
    if (last[4])
        w = last[4];
    /* survivors of 2^-j below 1.0 that reach the result's smallest ulp
    ** (f16 results: j = 24) or the smallest product stop there, not at
    ** the window: the high anchor shows the window then */
    int dlow = 1 - dp->d.bias - dp->d.mbits, wh = lasthigh[4] ? lasthigh[4]
                                                 : lasthigh[2] ? lasthigh[2] : lasthigh[0];
    if (E1 > 0 && w > 0 && (-w <= dlow || -w <= pmin) && wh > w && wh < maxj)
        w = wh;
    /* a series still surviving at the end of the sweep crossed a pass
    ** boundary (pass < 3, or C added outside the window): the window is
    ** then the longest of the series with the anchor and the survivor in
    ** one pass that did stop */
    if (w >= maxj) {
        static const int inpass[] = {2, 3, 6, 7, 11, 12};
        w = -1;
        for (int i = 0; i < 6; i++)
            if (last[inpass[i]] > w && last[inpass[i]] < maxj)
                w = last[inpass[i]];
    }
    p->facts.window = w;
    if ((rc = wide_products(p)) || (rc = two_level(p, db)))
        return rc;
    snprintf(p->summary, sizeof p->summary,
             "survivors of -x + x + 2^-j: products %d, C %d, C anchor %d, C above %d", last[4],
             last[0], last[2], last[6]);
    return LAD_OK;
}
