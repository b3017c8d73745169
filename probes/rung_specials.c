/*
** Rung (j), special values: NaN inputs in A, B and C with every payload
** shape (quiet, signalling, negative, payload only in bits a narrower
** format drops), Inf * 0, +Inf + -Inf (two lanes, and a lane against C),
** +-Inf alone and against finite values, -0 (C alone, products of -0,
** exact cancellation), subnormal inputs and results, and overflow of the
** result in both signs. Decides the NaN word, overflow (inf or saturate)
** and confirms what a zero result's sign is.
*/
#include "ladder.h"
#include "case.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int add(lad_batch *b, const lad_datapath *dp, lad_word_t a, lad_word_t bw,
               lad_word_t c, lad_word_t a1, lad_word_t b1, const char *label)
{
    lad_case cs;
    lad_case_base(dp, &cs);
    lad_case_words(dp, &cs, 0, a, bw);
    if (lad_datapath_kphys(dp) > 1)
        lad_case_words(dp, &cs, 1, a1, b1);
    cs.c = c;
    return lad_batch_add(b, &cs, "%s", label);
}

int lad_rung_specials(lad_probe *p)
{
    const lad_datapath *dp = &p->dp;
    lad_batch b = {0};
    int rc = LAD_OK;
    lad_word_t oa = 0, ob = 0, oc = 0, za = 0;
    lad_word(&dp->a, 0, 1, 0, &oa);
    lad_word(&dp->b, 0, 1, 0, &ob);
    lad_word(&dp->c, 0, 1, 0, &oc);
    if (dp->integer) {
        /* wrap or saturate: the largest values in every lane, both signs */
        lad_word_t amax = lad_format_maxfinite(&dp->a, 0), bmax = lad_format_maxfinite(&dp->b, 0);
        lad_word_t amin = lad_format_maxfinite(&dp->a, 1), cmax = lad_format_maxfinite(&dp->c, 0);
        lad_word_t cmin = lad_format_maxfinite(&dp->c, 1);
        lad_batch_series(&b, "int-extreme", "saturate");
        for (int v = 0; v < 4; v++) {
            lad_case cs;
            lad_case_base(dp, &cs);
            for (int j = 0; j < lad_datapath_kphys(dp); j++)
                lad_case_words(dp, &cs, j, v & 1 ? amin : amax, bmax);
            cs.c = v < 2 ? (v & 1 ? cmin : cmax) : 0;
            if ((rc = lad_batch_addv(&b, &cs, v, "int extreme %d", v)))
                goto out;
        }
        lad_word_t m1 = 0;
        lad_word(&dp->c, 1, 1, 0, &m1);
        lad_batch_series(&b, "int-wrap", "saturate");
        if ((rc = add(&b, dp, oa, ob, cmax, 0, 0, "cmax + 1")) ||
            (rc = add(&b, dp, oa, ob, m1, 0, 0, "-1 + 1")))
            goto out;
        goto run;
    }
    const lad_format *fa = &dp->a, *fb = &dp->b, *fc = &dp->c;
    lad_word_t sa = fa->sign ? (lad_word_t)1 << (fa->width - 1) : 0, sb = fb->sign ? (lad_word_t)1 << (fb->width - 1) : 0;
    lad_word_t sc = (lad_word_t)1 << (fc->width - 1);
    /* NaNs of each operand, then infinities and signed zeros */
    lad_batch_series(&b, "nan-inf", "nan overflow");
    const lad_format *fs[3] = {fa, fb, fc};
    for (int op = 0; op < 3; op++) {
        const lad_format *f = fs[op];
        if (f->nan == LAD_NAN_NONE)
            continue;
        lad_word_t q = lad_format_nan(f), top = (((lad_word_t)1 << f->ebits) - 1) << (f->mbits + f->pad);
        lad_word_t sg = f->sign ? (lad_word_t)1 << (f->width - 1) : 0;
        lad_word_t v[6] = {q, q | sg, top | ((lad_word_t)1 << f->pad), top | ((lad_word_t)1 << (f->mbits + f->pad - 1)),
                         top | (f->pad ? 1u : 0), top | sg | (lad_word_t)1 << f->pad};
        for (int i = 0; i < 6; i++) {
            if (lad_decode(f, v[i]).cls != LAD_NAN && !(i == 4 && f->pad))
                continue;
            char l[48];
            snprintf(l, sizeof l, "nan %c 0x%" PRIx64, "abc"[op], v[i]);
            lad_word_t a = op == 0 ? v[i] : oa, bw = op == 1 ? v[i] : ob, c = op == 2 ? v[i] : 0;
            if ((rc = add(&b, dp, a, bw, c, 0, 0, l)))
                goto out;
        }
    }
    /* infinities */
    int ia = fa->inf == LAD_INF_IEEE, ib = fb->inf == LAD_INF_IEEE, ic = fc->inf == LAD_INF_IEEE;
    lad_word_t infa = lad_format_inf(fa, 0), infb = lad_format_inf(fb, 0), infc = lad_format_inf(fc, 0);
    if (ia) {
        if ((rc = add(&b, dp, infa, za, 0, 0, 0, "inf*0")) ||
            (rc = add(&b, dp, infa, ob, 0, 0, 0, "+inf")) ||
            (rc = add(&b, dp, infa | sa, ob, 0, 0, 0, "-inf")) ||
            (rc = add(&b, dp, infa, ob, 0, infa | sa, ob, "+inf-inf lanes")) ||
            (rc = add(&b, dp, infa, ob, 0, oa, ob, "+inf+1")) ||
            (rc = add(&b, dp, infa, ob, oc | sc, 0, 0, "+inf-1c")))
            goto out;
        if (ic && (rc = add(&b, dp, infa, ob, infc | sc, 0, 0, "+inf-inf c")))
            goto out;
    }
    if (ib && (rc = add(&b, dp, za, infb, 0, 0, 0, "0*inf")))
        goto out;
    if (ic && ((rc = add(&b, dp, 0, 0, infc, 0, 0, "c +inf")) ||
               (rc = add(&b, dp, 0, 0, infc | sc, 0, 0, "c -inf")) ||
               (rc = add(&b, dp, oa, ob, infc | sc, 0, 0, "1 + c -inf"))))
        goto out;
    /* signed zeros */
    if ((rc = add(&b, dp, 0, 0, sc, 0, 0, "c -0")) ||
        (rc = add(&b, dp, sa, ob, sc, 0, 0, "-0*1 + c -0")) ||
        (rc = add(&b, dp, oa, ob, 0, oa | sa, ob, "1 - 1")) ||
        (rc = add(&b, dp, oa, ob, oc | sc, 0, 0, "1 + c -1")) ||
        (rc = add(&b, dp, oa | sa, ob, oc, 0, 0, "-1 + c 1")))
        goto out;
    /* subnormal inputs */
    lad_word_t sub = (lad_word_t)1 << fa->pad, subb = (lad_word_t)1 << fb->pad;
    if (fa->sub == LAD_SUB_IEEE || fa->sub == LAD_SUB_FLUSH) {
        lad_word_t maxsub = (((lad_word_t)1 << fa->mbits) - 1) << fa->pad;
        if ((rc = add(&b, dp, sub, ob, 0, 0, 0, "a min subnormal")) ||
            (rc = add(&b, dp, maxsub, ob, 0, 0, 0, "a max subnormal")) ||
            (rc = add(&b, dp, sub | sa, ob, 0, 0, 0, "a -min subnormal")))
            goto out;
    }
    if ((fb->sub == LAD_SUB_IEEE || fb->sub == LAD_SUB_FLUSH) &&
        (rc = add(&b, dp, oa, subb, 0, 0, 0, "b min subnormal")))
        goto out;
    if ((rc = add(&b, dp, 0, 0, 1, 0, 0, "c min subnormal")) ||
        (rc = add(&b, dp, 0, 0, 1 | sc, 0, 0, "c -min subnormal")) ||
        (rc = add(&b, dp, oa, ob, 1, 0, 0, "1 + c min subnormal")))
        goto out;
    /* subnormal and tiny results */
    int dlow = 1 - dp->d.bias - dp->d.mbits;
    for (int e = dlow - 2; e <= dlow + dp->d.mbits + 1; e += 1) {
        lad_case cs;
        lad_case_base(dp, &cs);
        lad_batch_series(&b, "result", "d");
        for (int sg = 0; sg < 2; sg++)
            if (!lad_case_term(dp, &cs, 0, sg, 3, e - 1) &&
                (rc = lad_batch_addv(&b, &cs, e, "result 1.5*2^%d%s", e, sg ? " neg" : "")))
                goto out;
    }
    /* overflow: the largest values everywhere, C the largest too */
    for (int sg = 0; sg < 2; sg++) {
        lad_case cs;
        lad_case_base(dp, &cs);
        lad_word_t am = lad_format_maxfinite(fa, sg), bm = lad_format_maxfinite(fb, 0);
        for (int j = 0; j < lad_datapath_kphys(dp); j++)
            lad_case_words(dp, &cs, j, am, bm);
        cs.c = lad_format_maxfinite(fc, sg);
        lad_batch_series(&b, "overflow", "overflow");
        if ((rc = lad_batch_add(&b, &cs, "overflow %s", sg ? "neg" : "pos")))
            goto out;
        lad_case_base(dp, &cs);
        cs.c = lad_format_maxfinite(fc, sg);
        if ((rc = lad_batch_add(&b, &cs, "c max %s", sg ? "neg" : "pos")))
            goto out;
        lad_case_words(dp, &cs, 0, am, bm);
        if ((rc = lad_batch_add(&b, &cs, "c max + max product %s", sg ? "neg" : "pos")))
            goto out;
    }
    /* products that overflow the result format on their own, brought back
    ** by C: 2^emax + 2^emax - 2^emax. Finite when C joins the sum before
    ** the one rounding; Inf when the products are rounded first (a pass
    ** result, or C added by a second rounded addition) */
    {
        const lad_format *fd = &dp->d;
        int emax = (int)(((lad_word_t)1 << fd->ebits) - 2) - fd->bias;
        lad_case cs;
        lad_case_base(dp, &cs);
        lad_batch_series(&b, "overflow-cancel", "overflow");
        if (lad_datapath_kphys(dp) >= 2 && !lad_case_term(dp, &cs, 0, 0, 1, emax) &&
            !lad_case_term(dp, &cs, 1, 0, 1, emax) && !lad_case_c(dp, &cs, 1, 1, emax) &&
            (rc = lad_batch_add(&b, &cs, "overflow 2^%d + 2^%d - 2^%d", emax, emax, emax)))
            goto out;
    }
    /* overflow between passes: +max*max in lane 0 cancelled by -max*max in
    ** lane m; a pass result that overflows its format does not come back */
    for (int m = 1; m < lad_datapath_kphys(dp); m = m * 2 < lad_datapath_kphys(dp) - 1 || m ==
         lad_datapath_kphys(dp) - 1 ? m * 2 : lad_datapath_kphys(dp) - 1) {
        lad_case cs;
        lad_case_base(dp, &cs);
        lad_word_t am = lad_format_maxfinite(fa, 0), bm = lad_format_maxfinite(fb, 0);
        lad_case_words(dp, &cs, 0, am, bm);
        lad_case_words(dp, &cs, m, lad_format_maxfinite(fa, 1), bm);
        lad_batch_series(&b, "max-cancel", "overflow");
        if ((rc = lad_batch_addv(&b, &cs, m, "max*max - max*max lane %d", m)))
            goto out;
        if (m >= lad_datapath_kphys(dp) - 1)
            break;
    }
run:;
    lad_word_t *d = NULL;
    int64_t *ids = NULL;
    if ((rc = lad_probe_run(p, &b, &d, &ids)) == LAD_OK) {
        for (size_t i = 0; i < b.n && rc == LAD_OK; i++)
            if (strncmp(b.label[i], "nan ", 4) == 0 || strcmp(b.label[i], "inf*0") == 0 ||
                strncmp(b.label[i], "overflow", 8) == 0 || strcmp(b.label[i], "c -0") == 0 ||
                strncmp(b.label[i], "int extreme", 11) == 0)
                rc = lad_probe_observe(p, b.label[i], &ids[i], 1, "0x%" PRIx64, d[i]);
        snprintf(p->summary, sizeof p->summary, "%zu special cases", b.n);
    }
    free(d);
    free(ids);
out:
    lad_batch_free(&b);
    (void)sb;
    return rc;
}
