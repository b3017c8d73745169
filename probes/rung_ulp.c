/*
** Rung (g), fractional ULP: survivors of +-0.25, +-0.5, +-0.75 and +-1.5
** units (steps: fractions i/steps) of 2^-q added to a value near 1.0, with
** q at the result's precision (visible) and at the window's (internal), the
** value being C or a product and the fraction a product or C, on even and
** odd last bits and both signs; and "half plus a little" (2^-(q+1) +
** 2^-(q+k)) that only a single rounding sees as above half. Alignment
** rounding acts at the window's quantum, final rounding at the result's:
** these cases separate align_round, d_round, acc_round and d_via_acc.
** Two more series reach them where the simple ones cannot: sums grown by
** n lanes of the widest product, so that the result's last place lies
** inside a window narrower than the result; and fractions of the window's
** quantum as products beside the anchor in one pass, at a high anchor
** for narrow results. C with low bits ahead of a product in the last
** lane shows the rounding of pass results into acc; lone products with
** low bits show a window that no other term anchors; a product of a
** subnormal against C with low bits tells C added exactly from C cut by
** the product's window; C cancelled in the last lane leaves the low bits
** of the first pass's result in acc.
*/
#include "ladder.h"
#include "case.h"

#include <stdio.h>
#include <stdlib.h>

static int log2ceil(int x)
{
    int l = 0;
    while ((1 << l) < x)
        l++;
    return l;
}

int lad_rung_ulp(lad_probe *p)
{
    if (p->dp.integer) {
        snprintf(p->summary, sizeof p->summary, "integer result: exact");
        return lad_probe_observe(p, "integer", NULL, 0, "yes");
    }
    const lad_datapath *dp = &p->dp;
    int steps = p->rung ? (int)lad_rung_param(p->rung, "steps") : 4;
    int ls = log2ceil(steps);
    steps = 1 << ls;
    int db = p->facts.dbits > 0 ? p->facts.dbits : dp->d.mbits;
    int w = p->facts.window > 0 ? p->facts.window : 25;
    int qs[5] = {db, db + 1, w - 1, w, w + 1}, nq = 0;
    int uq[5];
    for (int i = 0; i < 5; i++) {
        int dup = 0;
        for (int k = 0; k < nq; k++)
            dup |= uq[k] == qs[i];
        if (!dup && qs[i] > 0 && qs[i] < 62)
            uq[nq++] = qs[i];
    }
    lad_batch b = {0};
    int rc = LAD_OK;
    for (int iq = 0; iq < nq; iq++) {
        int q = uq[iq];
        for (int odd = 0; odd < 2; odd++)
            for (int bneg = 0; bneg < 2; bneg++)
                for (int where = 0; where < 2; where++) {
                    /* base = +-(1 + odd*2^-db); fraction f/steps * 2^-q */
                    uint64_t bm = odd ? ((uint64_t)1 << db) + 1 : 1;
                    int be = odd ? -db : 0;
                    for (int fi = 1; fi <= steps + steps / 2; fi++) {
                        if (fi > steps && fi != steps + steps / 2)
                            continue;
                        if (fi == steps)
                            continue;
                        for (int fneg = 0; fneg < 2; fneg++) {
                            lad_case cs;
                            lad_case_base(dp, &cs);
                            int ok = where == 0
                                         ? !lad_case_c(dp, &cs, bneg, bm, be) &&
                                               !lad_case_term(dp, &cs, 0, fneg, (uint64_t)fi, -q - ls)
                                         : !lad_case_term(dp, &cs, 0, bneg, bm, be) &&
                                               !lad_case_c(dp, &cs, fneg, (uint64_t)fi, -q - ls);
                            lad_batch_series(&b, "fraction", "align_round d_round acc_round d_via_acc");
                            if (ok && (rc = lad_batch_addv(&b, &cs, q, "q=%d %s%s%s %s%d/%d", q,
                                                          bneg ? "-" : "+", odd ? "odd " : "",
                                                          where ? "p" : "c", fneg ? "-" : "+",
                                                          fi, steps)))
                                goto out;
                        }
                    }
                    /* half plus a little: 2^-(q+1) + 2^-(q+k) */
                    for (int k = 2; k <= 40 && q + k < 62; k += (k < 8 ? 1 : 4)) {
                        lad_case cs;
                        lad_case_base(dp, &cs);
                        uint64_t fm = ((uint64_t)1 << (k - 1)) + 1;
                        int ok = where == 0
                                     ? !lad_case_c(dp, &cs, bneg, bm, be) &&
                                           !lad_case_term(dp, &cs, 0, bneg, fm, -q - k)
                                     : !lad_case_term(dp, &cs, 0, bneg, bm, be) &&
                                           !lad_case_c(dp, &cs, bneg, fm, -q - k);
                        lad_batch_series(&b, "half-plus", "align_round d_round acc_round d_via_acc");
                        if (ok && (rc = lad_batch_addv(&b, &cs, q, "q=%d %s%s%s half+2^-%d", q,
                                                      bneg ? "-" : "+", odd ? "odd " : "",
                                                      where ? "p" : "c", q + k)))
                            goto out;
                    }
                }
    }
    /* Sums that grow: n lanes of the widest product near 1.0 carry the
    ** sum's leading bit above the anchor, so that C's fractions of the
    ** result's last place fall inside a window narrower than the result
    ** (the final and the pass rounding show only there). The lanes are the
    ** first n, then the last n: with several chained passes only the last
    ** pass's result is rounded with d_round, the others with acc_round */
    int kp = lad_datapath_kphys(dp), ma = dp->a.mbits > 0 ? dp->a.mbits : 0;
    for (int n = 2; n <= kp; n *= 2)
        for (int end = 0; end < 2 && (end == 0 || n < kp); end++)
            for (int odd = 0; odd < 2; odd++)
                for (int bneg = 0; bneg < 2; bneg++)
                    for (int fi = 1; fi <= steps + steps / 2; fi++) {
                        if (fi == steps || (fi > steps && fi != steps + steps / 2))
                            continue;
                        for (int fneg = 0; fneg < 2; fneg++) {
                            lad_case cs;
                            lad_case_base(dp, &cs);
                            uint64_t mag = ((uint64_t)1 << (ma + 1)) - 1;
                            int x = -ma, ok = 1;
                            if (lad_case_term(dp, &cs, 0, bneg, mag, x)) {
                                mag = 1;
                                x = 0;
                            }
                            if (end)
                                lad_case_base(dp, &cs);
                            for (int j = end ? kp - n : 0; j < (end ? kp : n) && ok; j++)
                                ok = !lad_case_term(dp, &cs, j, bneg, mag, x);
                            int top = lad_bitlen128(mag * (uint64_t)n) - 1 + x;
                            uint64_t fm = (uint64_t)(odd * steps + fi);
                            ok = ok && !lad_case_c(dp, &cs, bneg ^ fneg, fm, top - db - ls);
                            lad_batch_series(&b, "grown", "window align_round d_round");
                            if (ok && (rc = lad_batch_addv(&b, &cs, n, "grown n=%d%s %s%s c%s%d/%d",
                                                          n, end ? " last" : "",
                                                          bneg ? "-" : "+", odd ? "odd " : "",
                                                          fneg ? "-" : "+", fi, steps)))
                                goto out;
                        }
                    }
    /* C with low bits through the passes before the last lane's product:
    ** a pass without a nonzero product rounds C alone into acc, so that
    ** C = +-(2 - 2^-i) (all ones down to bit i) and +-(1 + 2^-i) show
    ** acc's precision and acc_round (a carry from the all-ones C) where
    ** the last pass's window would hide them */
    int mc = dp->c.mbits;
    for (int i = 1; i <= mc && i < 62; i++)
        for (int v = 0; v < 4; v++) {
            int neg = v & 1, ones = v >> 1;
            lad_case cs;
            lad_case_base(dp, &cs);
            uint64_t m = ones ? ((uint64_t)1 << (i + 1)) - 1 : ((uint64_t)1 << i) + 1;
            int ok = !lad_case_c(dp, &cs, neg, m, -i) && !lad_case_term(dp, &cs, kp - 1, 0, 1, -2);
            lad_batch_series(&b, "c-low", "acc_round");
            if (ok && (rc = lad_batch_addv(&b, &cs, i, "c %s%s2^-%d p%d 2^-2", neg ? "-" : "+",
                                          ones ? "2-" : "1+", i, kp - 1)))
                goto out;
        }
    /* Lone products with low bits, (1 + 2^-i)(1 + 2^-mb) near 1.0, in the
    ** first and the last lane, C = 0: a product whose lowest bit falls
    ** below the window is cut even when no other term anchors it (one
    ** lane a pass, C added outside the window) */
    int mb = dp->b.mbits;
    for (int i = 1; i <= ma && ma > 0 && mb > 0; i++)
        for (int v = 0; v < 4; v++) {
            int neg = v & 1, j = v >> 1 ? kp - 1 : 0;
            lad_word_t wa, wb;
            lad_case cs;
            lad_case_base(dp, &cs);
            if ((v >> 1 && kp < 2) ||
                lad_word(&dp->a, neg, ((uint64_t)1 << i) + 1, -i, &wa) ||
                lad_word(&dp->b, 0, ((uint64_t)1 << mb) + 1, -mb, &wb))
                continue;
            lad_case_words(dp, &cs, j, wa, wb);
            lad_batch_series(&b, "lone", "window");
            if ((rc = lad_batch_addv(&b, &cs, j, "lone %sp%d (1+2^-%d)(1+2^-%d)", neg ? "-" : "", j,
                                    i, mb)))
                goto out;
        }
    /* A product of A's smallest subnormal, whose raw exponent lies ma bits
    ** above its leading bit, against C = -p (1 + 2^-i): the exact sum is
    ** -p 2^-i, but a window anchored on the product's raw exponent cuts
    ** C's low bits first (C inside the window or added after it) */
    lad_word_t wsub, wone;
    if (ma > 0 && dp->a.sub == LAD_SUB_IEEE && !lad_word(&dp->b, 0, 1, 0, &wone))
        for (int i = 1; i <= mc && i < 62; i++)
            for (int neg = 0; neg < 2; neg++) {
                lad_case cs;
                lad_case_base(dp, &cs);
                if (lad_word(&dp->a, neg, 1, 1 - dp->a.bias - ma, &wsub))
                    continue;
                lad_case_words(dp, &cs, 0, wsub, wone);
                lad_batch_series(&b, "subnormal-p", "c_anchor");
                if (!lad_case_c(dp, &cs, !neg, ((uint64_t)1 << i) + 1, 1 - dp->a.bias - ma - i) &&
                    (rc = lad_batch_addv(&b, &cs, i, "sub %sp -c(1+2^-%d)", neg ? "-" : "+", i)))
                    goto out;
            }
    /* Fractions of the window's quantum as products in the same pass as
    ** the anchor, at 1.0 and at a high anchor (so that a quantum far below
    ** 1.0 is still a product and a result): 2^E - 2^E + f (lanes 0, 1, 2),
    ** 2^E + f (lanes 0, 1), C = -2^E with 2^E + f */
    int E1 = 1 - dp->d.bias + 30;
    for (; E1 > 0; E1--) {
        lad_case c;
        lad_case_base(dp, &c);
        if (lad_case_term(dp, &c, 0, 0, 1, E1) == LAD_OK)
            break;
    }
    for (int iq = 0; iq < nq; iq++) {
        int q = uq[iq];
        if (q < w - 1 || q > w + 1)
            continue;
        for (int hi = 0; hi < 2 && (hi == 0 || E1 > 0); hi++)
            for (int v = 0; v < 3; v++)
                for (int fi = 1; fi <= steps + steps / 2; fi++) {
                    if (fi == steps || (fi > steps && fi != steps + steps / 2))
                        continue;
                    for (int fneg = 0; fneg < 2; fneg++) {
                        int E = hi ? E1 : 0, fl = v == 0 ? 2 : 1;
                        lad_case cs;
                        lad_case_base(dp, &cs);
                        int ok = !lad_case_term(dp, &cs, 0, 0, 1, E);
                        if (v == 0)
                            ok = ok && !lad_case_term(dp, &cs, 1, 1, 1, E);
                        if (v == 2)
                            ok = ok && !lad_case_c(dp, &cs, 1, 1, E);
                        ok = ok && kp > fl &&
                             !lad_case_term(dp, &cs, fl, fneg, (uint64_t)fi, E - q - ls);
                        lad_batch_series(&b, "fraction-high", "align_round d_round acc_round");
                        if (ok && (rc = lad_batch_addv(&b, &cs, q, "q=%d %s2^%d %s%d/%d", q,
                                                      v == 0 ? "pair " : v == 2 ? "c-pair " : "", E,
                                                      fneg ? "-" : "+", fi, steps)))
                            goto out;
                    }
                }
    }
    /* C = +-1 cancelled by the last lane's product, with 2^-i in the first
    ** lane: when the two sit in different passes, what survives is the bit
    ** i of the first pass's result, so the series reads acc's precision
    ** even when C is added outside the window (one more exact bit than
    ** the window would keep) */
    for (int i = 1; i <= 30 && kp > 1; i++)
        for (int neg = 0; neg < 2; neg++) {
            lad_case cs;
            lad_case_base(dp, &cs);
            int ok = !lad_case_c(dp, &cs, neg, 1, 0) && !lad_case_term(dp, &cs, 0, neg, 1, -i) &&
                     !lad_case_term(dp, &cs, kp - 1, !neg, 1, 0);
            lad_batch_series(&b, "cancel-last", "acc acc_round");
            if (ok && (rc = lad_batch_addv(&b, &cs, i, "cancel %sc p0 2^-%d p%d", neg ? "-" : "+", i,
                                          kp - 1)))
                goto out;
        }
    if ((rc = lad_probe_eval(p, &b, NULL, NULL)))
        goto out;
    rc = lad_probe_observe(p, "cases", NULL, 0, "%zu", b.n);
    snprintf(p->summary, sizeof p->summary, "%zu fractional-ulp cases at q in {%d..%d}", b.n,
             uq[0], uq[nq - 1]);
out:
    lad_batch_free(&b);
    return rc;
}
