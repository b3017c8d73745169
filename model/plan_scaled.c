/*
** The block-scaled fast path of the prepared plan (plan.c): pass_eval's
** block-scaled algorithm (eval.c) for one pass in 64-bit integers, when
** the bounds below hold: the products of a group share their scales, so a
** group's exact sum is the sum of its A x B products times one scale
** product; A and B decode four lanes at a time as on the unscaled path.
** fp4 A and B (lad_fixed_ok) skip the decoding: a word's value is a small
** integer count of its format's smallest subnormal, read from a table, and
** a group's products sum exactly in 32 bits before its scale product
** multiplies the sum. A NaN or Inf anywhere, or any other shape, goes to
** the general code.
*/
#include "plan_impl.h"

#include <string.h>

/* Whether the block-scaled path's sums fit 64 bits (LAD_IMPL says which
** rows and values it computes): a single pass over block-scaled words its
** decoders read. */
int lad_scaled_fits(const lad_datapath *dp, const lad_opfmt *a, const lad_opfmt *b)
{
    int kp = lad_datapath_kphys(dp), kbits = ceil_log2(kp + 1);
    int gbits = ceil_log2(dp->group > dp->cdom_group ? dp->group : dp->cdom_group);
    int w = dp->window > dp->cdom_window ? dp->window : dp->cdom_window;
    /* a group's exact sum: exponents spread over both formats' binades,
    ** significands of A, B and the two scales, g terms */
    int span = (1 << dp->a.ebits) + (1 << dp->b.ebits) + dp->a.mbits + dp->b.mbits + 2 +
               dp->sa.mbits + dp->sb.mbits + 2 + gbits;
    return dp->scale_block > 0 && narrow_words(dp) && signed_results(dp) && dp->pass >= kp &&
           lad_opfmt_usable(&dp->a, a) && lad_opfmt_usable(&dp->b, b) &&
           a->mb + b->mb + 2 <= 32 && span <= 62 &&
           w + 4 + kbits <= 62;  /* every term below 2^(w + 4) units, kp + 1 of them */
}


/* The bits of the largest magnitude of format f as an integer count of its
** smallest subnormal: every code a number (no NaN or Inf), so the top
** exponent field is 2^ebits - 2 binades above the subnormals'. */
static int fixed_bits(const lad_format *f)
{
    return f->mbits + 1 + (1 << f->ebits) - 2;
}

/* Whether lad_eval_scaled sums each group's products as integers of one unit
** (lad_plan's fxa, fxb): groups of more than one lane (alone, a product is
** as quickly aligned as decoded), A and B fp4 formats without NaN or Inf
** (values below 2^7: a group of K products below 2^14 sums in int32), a
** group within one scale block, C-dominant groups made of whole groups,
** (LAD_IMPL's fixed column: no zero floor, which needs to know whether any
** product is zero). */
int lad_fixed_ok(const lad_datapath *dp, uint64_t off, const lad_opfmt *a, const lad_opfmt *b)
{
    const lad_format *fs[2] = {&dp->a, &dp->b};
    const lad_opfmt *os[2] = {a, b};
    for (int i = 0; i < 2; i++)
        if (os[i]->spec != FS_NONE || fs[i]->width - fs[i]->pad > 4 ||
            fixed_bits(fs[i]) > 7 || fs[i]->bias < -20 || fs[i]->bias > 20)
            return 0;
    return dp->group > 1 && dp->scale_block % dp->group == 0 &&
           dp->cdom_group % dp->group == 0 && lad_impl_gap(LAD_EV_FIXED, dp, off) < 0;
}

/* The tables of lad_fixed_ok's formats: each 4-bit code as a signed count of
** the smallest subnormal, and its raw exponent. */
static void fixed_tables(const lad_format *f, const lad_opfmt *d, int8_t *fx, int8_t *rx)
{
    for (uint32_t i = 0; i <= FX_MASK; i++) {
        term t = opfmt_term(d, (lad_word_t)i << d->pad);
        int v = (int)t.mag << (t.exp - (1 - f->bias - f->mbits));
        fx[i] = (int8_t)(t.neg ? -v : v);
        rx[i] = (int8_t)(t.cls == LAD_ZERO ? FX_ZERO : t.raw);
    }
}

/* The fixed path's groups of n lanes at pa and pb (groups of dp->group
** within scale blocks, lad_fixed_ok, the last of a block cut at its end), in
** order: p[t], group t's exact sum in units (fixed_tables); rm[t], the
** largest sum of two raw exponents among its products, above FX_ZERO / 2
** exactly when one of them is nonzero. */
static void fixed_groups(const lad_plan *pl, const lad_word_t *pa, const lad_word_t *pb,
                         int n, int32_t *p, int32_t *rm)
{
    const lad_datapath *dp = pl->dp;
    int t = 0;
    for (int from = 0; from < n; from += dp->scale_block) {
        int bend = from + dp->scale_block < n ? from + dp->scale_block : n;
        for (int g = from; g < bend; g += dp->group, t++) {
            int to = g + dp->group < bend ? g + dp->group : bend;
            int32_t s = 0, r = 2 * FX_ZERO;
            for (int j = g; j < to; j++) {
                uint32_t ia = ((uint32_t)pa[j] >> pl->a.pad) & FX_MASK;
                uint32_t ib = ((uint32_t)pb[j] >> pl->b.pad) & FX_MASK;
                s += pl->fxa[ia] * pl->fxb[ib];
                int32_t x = pl->rxa[ia] + pl->rxb[ib];
                r = x > r ? x : r;
            }
            p[t] = s;
            rm[t] = r;
        }
    }
}

/* The exact sum of the nonzero products in [from, to) as units of 2^*e (the
** smallest exponent among them); 0 when all are zero. */
static int64_t group_sum64(const int64_t *m, const int *ex, int from, int to, int *e)
{
    int lo = INT32_MAX;
    for (int j = from; j < to; j++) {
        int x = m[j] ? ex[j] : INT32_MAX;
        lo = x < lo ? x : lo;
    }
    uint64_t s = 0;
    for (int j = from; j < to; j++) {
        int d = m[j] ? ex[j] - lo : 0;  /* a zero shifts by nothing */
        s += (uint64_t)m[j] << d;       /* two's complement: exact below 2^63 */
    }
    *e = lo;
    return (int64_t)s;
}

/*
** The pass from its terms: term t is m[t] * 2^ex[t], a product with its
** scales or the exact sum of a group's; rt[t] is the raw exponent of its
** largest nonzero product (LAD_NOFLOOR: none), sr[t] its block's scale
** pair's raw exponent. gsize terms make a group, csize a C-dominant group.
** rp is the largest rt[t], smax the largest sr[t] of a term with a nonzero
** product; anyzero says whether any product is zero.
*/
static lad_word_t scaled_sum(const lad_plan *pl, const term *c, const int64_t *m,
                             const int *ex, const int *rt, const int *sr, int nt, int gsize,
                             int csize, int rp, int smax, int anyzero)
{
    const lad_datapath *dp = pl->dp;
    int any = rp > LAD_NOFLOOR;
    if (anyzero && dp->zero_floor != LAD_NOFLOOR && dp->zero_floor > rp)
        rp = dp->zero_floor;
    if (!any)  /* no product: the addend alone, rounded (exact zero: +0) */
        return lad_add_round(&dp->d, 0, 0, c, dp->d_round, dp->overflow);

    int cnz = c->cls != LAD_ZERO;
    int64_t cv = cnz ? (c->neg ? -(int64_t)c->mag : (int64_t)c->mag) : 0;
    int r = cnz && c->raw > rp ? c->raw : rp;
    if (r < dp->anchor_min)
        r = dp->anchor_min;
    int mode = dp->align_round, q, e;
    int64_t sum = 0;
    if (dp->cdom_window > 0 && cnz && c->raw >= rp) {
        /* C-dominant merge: C sets a coarser quantum; groups summed exactly */
        q = c->raw - dp->cdom_window;
        for (int g = 0; g < nt; g += csize) {
            int end = g + csize < nt ? g + csize : nt;
            int64_t s = group_sum64(m, ex, g, end, &e);
            sum += align64(s, e, q, mode);
        }
        sum += align64(cv, c->exp, q, mode);
        return round64(&dp->d, sum, q, dp->d_round, dp->overflow);
    }
    q = r - dp->window;
    if (dp->scale_floor != LAD_NOFLOOR && smax - dp->scale_floor > q)
        q = smax - dp->scale_floor;
    int64_t cu = align64(cv, c->exp, q, mode);
    if (gsize == 1 && !dp->cdom_per_group && dp->group_sub_floor == LAD_NOFLOOR) {
        /* every term a group of its own (a lane's product, or the fixed
        ** path's group sum), and nothing asked of a group but its sum */
        for (int t = 0; t < nt; t++)
            sum += align64(m[t], ex[t], q, mode);
        return round64(&dp->d, sum + cu, q, dp->d_round, dp->overflow);
    }
    int64_t gu[LAD_KMAX];
    int gsraw[LAD_KMAX], gnz[LAD_KMAX], ng = 0;
    for (int g = 0; g < nt; g += gsize, ng++) {
        int end = g + gsize < nt ? g + gsize : nt, rg = LAD_NOFLOOR;
        gsraw[ng] = sr[g];  /* a group shares its block */
        for (int j = g; j < end; j++)
            rg = rt[j] > rg ? rt[j] : rg;
        gnz[ng] = rg > LAD_NOFLOOR;
        if (dp->group == 1) {
            gu[ng] = align64(m[g], ex[g], q, mode);
        } else {
            /* a group's sum, exact: one term is its own (the fixed path's) */
            int64_t s = gsize == 1 ? m[g] : group_sum64(m, ex, g, end, &e);
            e = gsize == 1 ? ex[g] : e;
            int qg = q;
            if (dp->cdom_per_group && cnz && gnz[ng] && c->raw >= rg &&
                c->raw - dp->cdom_window > q)
                qg = c->raw - dp->cdom_window;
            gu[ng] = align64(s, e, qg, mode) * ((int64_t)1 << (qg - q));
        }
        sum += gu[ng];
    }
    sum += cu;
    lad_word_t w = round64(&dp->d, sum, q, dp->d_round, dp->overflow);

    /* Lower-scale groups that only reach a subnormal result are dropped. */
    if (dp->group_sub_floor != LAD_NOFLOOR && lad_decode(&dp->d, w).cls == LAD_SUBNORMAL) {
        int t = dp->group_sub_floor - q;  /* threshold 2^t units (1 when t <= 0) */
        int64_t s2 = cu;
        for (int g = 0; g < ng; g++) {
            uint64_t mag = gu[g] < 0 ? 0 - (uint64_t)gu[g] : (uint64_t)gu[g];
            int below = t >= 63 || mag < ((uint64_t)1 << (t > 0 ? t : 0));
            if (gnz[g] && gsraw[g] < smax && below)
                continue;
            s2 += gu[g];
        }
        w = round64(&dp->d, s2, q, dp->d_round, dp->overflow);
    }
    return w;
}

/* The fixed path's pass by scaled_sum: each group's sum gp[t] (fixed_groups)
** times its block's scale pair, a term; n lanes. */
static lad_word_t fixed_terms(const lad_plan *pl, const term *c, const int32_t *gp,
                              const int32_t *grm, const uint64_t *smag, const int *sexp,
                              const int *sraw, int n)
{
    const lad_datapath *dp = pl->dp;
    int64_t m[LAD_KMAX];
    int ex[LAD_KMAX], rt[LAD_KMAX], sr[LAD_KMAX];
    int nt = 0, rp = LAD_NOFLOOR, smax = LAD_NOFLOOR;
    for (int blk = 0, from = 0; from < n; blk++, from += dp->scale_block) {
        int bend = from + dp->scale_block < n ? from + dp->scale_block : n;
        for (int g = from; g < bend; g += dp->group, nt++) {
            int32_t p = gp[nt], rm = grm[nt];
            m[nt] = (int64_t)p * (int64_t)smag[blk];
            ex[nt] = pl->fxunit + sexp[blk];
            rt[nt] = rm > FX_ZERO / 2 && smag[blk] ? rm + sraw[blk] : LAD_NOFLOOR;
            sr[nt] = sraw[blk];
            rp = rt[nt] > rp ? rt[nt] : rp;
            if (rt[nt] > LAD_NOFLOOR && sraw[blk] > smax)
                smax = sraw[blk];
        }
    }
    return scaled_sum(pl, c, m, ex, rt, sr, nt, 1, dp->cdom_group / dp->group, rp, smax, 0);
}

/* A block's terms where C dominates some groups (cdom_per_group): each
** group C is at or above, whose window's quantum is above q, cut to that
** quantum (fixed_sum_body's arguments). */
static int64_t perg_block(const lad_datapath *dp, const term *c, const int32_t *p,
                          const int32_t *pr, int gpb, int64_t mag, int e, int sraw, int q)
{
    int64_t sum = 0;
    for (int g = 0; g < gpb; g++) {
        int qg = q;
        if (pr[g] > FX_ZERO / 2 && mag && c->raw >= pr[g] + sraw &&
            c->raw - dp->cdom_window > q)
            qg = c->raw - dp->cdom_window;
        sum += align64(p[g] * mag, e, qg, LAD_RZ) * ((int64_t)1 << (qg - q));
    }
    return sum;
}

/*
** scaled_sum on the fixed path's terms (lad_plan.fixsum): nb whole blocks
** of gpb = scale_block / group groups, group t's sum gp[t] (fixed_groups)
** times its block's scale pair (smag, 2^(fxunit + sexp), raw exponent
** sraw). As the terms of a block share their exponent, scaled_sum's steps
** are done a block at a time: a block's largest raw exponent and whether
** any product is nonzero; aligned toward zero (every fixsum datapath's
** rounding), a term's shift is the block's, so above the quantum the
** block's sum is shifted once and below it each term is cut alone; a
** C-dominant group (cdom_group lanes, a part of one block) is summed
** exactly, then cut; with cdom_per_group, each group C dominates is cut to
** C's quantum. A subnormal result under a group floor goes to scaled_sum
** (fixed_terms), which drops the groups below the floor. n: the lanes,
** whole blocks.
*/
static inline __attribute__((always_inline)) lad_word_t
fixed_sum_body(const lad_plan *pl, const term *c, const int32_t *gp, const int32_t *grm,
               const uint64_t *smag, const int *sexp, const int *sraw, int n, const int gpb)
{
    const lad_datapath *dp = pl->dp;
    const int nb = n / dp->scale_block;
    int rp = LAD_NOFLOOR, smax = LAD_NOFLOOR;
    for (int blk = 0; blk < nb; blk++) {
        int32_t rm = 2 * FX_ZERO;
        for (int g = blk * gpb; g < (blk + 1) * gpb; g++)
            rm = grm[g] > rm ? grm[g] : rm;
        if (rm > FX_ZERO / 2 && smag[blk]) {
            rp = rm + sraw[blk] > rp ? rm + sraw[blk] : rp;
            smax = sraw[blk] > smax ? sraw[blk] : smax;
        }
    }
    if (rp == LAD_NOFLOOR)  /* no product: the addend alone (exact zero: +0) */
        return lad_add_round(&dp->d, 0, 0, c, dp->d_round, dp->overflow);

    int cnz = c->cls != LAD_ZERO;
    int64_t cv = cnz ? (c->neg ? -(int64_t)c->mag : (int64_t)c->mag) : 0;
    int r = cnz && c->raw > rp ? c->raw : rp, q;
    if (r < dp->anchor_min)
        r = dp->anchor_min;
    int cdom = dp->cdom_window > 0 && cnz && c->raw >= rp;
    if (cdom) {
        q = c->raw - dp->cdom_window;
    } else {
        q = r - dp->window;
        if (dp->scale_floor != LAD_NOFLOOR && smax - dp->scale_floor > q)
            q = smax - dp->scale_floor;
    }
    const int csize = cdom ? dp->cdom_group / dp->group : 1;
    const int perg = dp->cdom_per_group && cnz && !cdom;
    int64_t sum = align64(cv, c->exp, q, LAD_RZ);
    for (int blk = 0; perg && blk < nb; blk++)
        sum += perg_block(dp, c, gp + blk * gpb, grm + blk * gpb, gpb, (int64_t)smag[blk],
                          pl->fxunit + sexp[blk], sraw[blk], q);
    for (int blk = 0; !perg && blk < nb; blk++) {
        int sh = pl->fxunit + sexp[blk] - q;
        int64_t mag = (int64_t)smag[blk];
        const int32_t *p = gp + blk * gpb;
        if (sh >= 0) {
            /* in range: the callers' bounds, as align64; a block whose
            ** term is 0 (no product, ones that cancel, a zero scale) may
            ** lie any distance above q, and adds nothing */
            int64_t s = 0;
            for (int g = 0; g < gpb; g++)
                s += p[g];
            s *= mag;
            if (s != 0)
                sum += s * ((int64_t)1 << sh);
            continue;
        }
        for (int g = 0; g < gpb; g += csize) {
            int64_t s = 0;
            for (int j = g; j < g + csize; j++)
                s += p[j];
            s *= mag;
            uint64_t neg = (uint64_t)(s >> 63), a = ((uint64_t)s ^ neg) - neg;
            a = -sh >= 64 ? 0 : a >> -sh;
            sum += (int64_t)((a ^ neg) - neg);
        }
    }
    lad_word_t w = round64(&dp->d, sum, q, dp->d_round, dp->overflow);
    /* a subnormal result whose lower-scale groups the floor may drop:
    ** scaled_sum's (lad_plan.fixsum: d's opfmt is usable) */
    if (!cdom && dp->group_sub_floor != LAD_NOFLOOR &&
        opfmt_term(&pl->d, w).cls == LAD_SUBNORMAL)
        return fixed_terms(pl, c, gp, grm, smag, sexp, sraw, n);
    return w;
}

/* fixed_sum_body with its loops over a block's groups unrolled for the
** common counts (NVF4: 4; MXF4: 2). */
static lad_word_t fixed_sum(const lad_plan *pl, const term *c, const int32_t *gp,
                            const int32_t *grm, const uint64_t *smag, const int *sexp,
                            const int *sraw, int n)
{
    switch (pl->dp->scale_block / pl->dp->group) {
    case 4:
        return fixed_sum_body(pl, c, gp, grm, smag, sexp, sraw, n, 4);
    case 2:
        return fixed_sum_body(pl, c, gp, grm, smag, sexp, sraw, n, 2);
    default:
        return fixed_sum_body(pl, c, gp, grm, smag, sexp, sraw, n,
                              pl->dp->scale_block / pl->dp->group);
    }
}

/* Every code of the scale format f, decoded: a case's scales are bytes
** (lad_case.sa, sb), whose mag, exp and raw fit the table's fields. */
static void scale_table(const lad_format *f, struct lad_scale *t)
{
    for (int i = 0; i < 256; i++) {
        lad_value v = lad_decode(f, (lad_word_t)i);
        t[i].mag = (uint16_t)v.mag;
        t[i].exp = (int16_t)v.exp;
        t[i].raw = (int16_t)v.raw;
        t[i].nan = v.cls == LAD_NAN;
    }
}

void lad_scaled_tables(lad_plan *p)
{
    const lad_datapath *dp = p->dp;
    scale_table(&dp->sa, p->sta);
    scale_table(&dp->sb, p->stb);
    if (p->fixed) {
        p->fxunit = 2 - dp->a.bias - dp->a.mbits - dp->b.bias - dp->b.mbits;
        fixed_tables(&dp->a, &p->a, p->fxa, p->rxa);
        fixed_tables(&dp->b, &p->b, p->fxb, p->rxb);
    }
}

/* The block-scaled path on n lanes at pa and pb (lane_words), or as bytes
** at a8 and b8 (lad_rows), C's word cw and the blocks' scale codes sa and
** sb; *general = 1 (and 0 returned) for a case it leaves to the general
** code. */
lad_word_t lad_scaled_body(const lad_plan *pl, const lad_word_t *pa, const lad_word_t *pb,
                           const uint8_t *a8, const uint8_t *b8, int n, lad_word_t cw,
                           const uint8_t *csa, const uint8_t *csb, int *general)
{
    const lad_datapath *dp = pl->dp;
    uint32_t mag32[LAD_KMAX], raw[LAD_KMAX], sgn[LAD_KMAX];
    uint32_t rmax, zeros;
    *general = 0;
    /* bytes are read as they are by the fp4 groups of eight lanes alone;
    ** any other step has them widened first */
    lad_word_t wa[LAD_KMAX], wb[LAD_KMAX];
    int bytes = a8 && pl->fixed8 && n % 8 == 0 && n % dp->group == 0;
    if (a8 && !bytes) {
        widen_bytes(wa, a8, n);
        widen_bytes(wb, b8, n);
        pa = wa;
        pb = wb;
    }
    uint32_t special = pl->fixed ? 0 : decode_pass(pl, pa, pb, 0, n, NULL, mag32, raw, sgn,
                                                   &rmax, &zeros);
    term c = pl->fast_c ? opfmt_term(&pl->c, cw) : decode_term(&dp->c, cw);

    /* the scales of the blocks that have lanes: a NaN makes its lanes' NaN
    ** products, so the one pass's NaN (pass_eval) */
    int nb = (n + dp->scale_block - 1) / dp->scale_block;
    uint64_t smag[LAD_SCALEMAX];
    int sexp[LAD_SCALEMAX], sraw[LAD_SCALEMAX];
    for (int i = 0; i < nb; i++) {
        const struct lad_scale *sa = &pl->sta[csa[i]], *sb = &pl->stb[csb[i]];
        if (sa->nan | sb->nan)
            return dp->nan;
        smag[i] = (uint64_t)sa->mag * sb->mag;
        sexp[i] = sa->exp + sb->exp;
        sraw[i] = sa->raw + sb->raw;
    }
#if LAD_AVX2_CLONE
    if (pl->scaled8 && !bytes && nb == 1 && smag[0] == 1 && sraw[0] == sexp[0]) {
        /* one block, its scales' product a power of two whose exponent
        ** is its raw one (scaled_sum anchors on sraw, scales by sexp): an
        ** unscaled case of products scaled by 2^sexp */
        int done;
        lad_word_t w = lad_scaled_lanes8(pl, pa, pb, n, cw, sexp[0], &done);
        if (done)
            return w;
    }
#endif
    /* a NaN or Inf word or C: the one pass, straight into d, is decided by
    ** the classes (an Inf product keeps its class whatever its scale) */
    if (special || c.cls >= LAD_INFINITE) {
        *general = !(pl->simple && pl->fast_c);
        if (bytes && !*general) {
            widen_bytes(wa, a8, n);
            widen_bytes(wb, b8, n);
            pa = wa;
            pb = wb;
        }
        return *general ? 0 : lad_special_rest(pl, pa, pb, 0, n, &c);
    }

    if (pl->fixed) {
        /* a group's products as integers of one unit, summed exactly in
        ** 32 bits (lad_fixed_ok), times the scale pair the group shares */
        int32_t gp[LAD_KMAX], grm[LAD_KMAX];
#if LAD_AVX2_CLONE
        if (pl->fixed8 && n % 8 == 0 && n % dp->group == 0)
            lad_fixed_groups8(pl, pa, pb, bytes ? a8 : NULL, b8, n, gp, grm);
        else
#endif
            fixed_groups(pl, pa, pb, n, gp, grm);
        if (pl->fixsum && n % dp->scale_block == 0)
            return fixed_sum(pl, &c, gp, grm, smag, sexp, sraw, n);
        return fixed_terms(pl, &c, gp, grm, smag, sexp, sraw, n);
    }

    int64_t m[LAD_KMAX];
    int ex[LAD_KMAX], rt[LAD_KMAX], sr[LAD_KMAX];
    /* products with their scales: value m[j] * 2^ex[j], raw exponent rt[j] */
    int off = (int)(pl->a.mb + pl->b.mb), rp = LAD_NOFLOOR, smax = LAD_NOFLOOR, anyzero = 0;
    for (int blk = 0, from = 0; from < n; blk++, from += dp->scale_block) {
        int to = from + dp->scale_block < n ? from + dp->scale_block : n, bany = 0;
        for (int j = from; j < to; j++) {
            uint64_t v = (uint64_t)mag32[j] * smag[blk];
            uint64_t sg = (uint64_t)(int64_t)(int32_t)sgn[j];  /* 0 or all ones */
            m[j] = (int64_t)((v ^ sg) - sg);
            ex[j] = (int)raw[j] - pl->bias - off + sexp[blk];
            rt[j] = v ? (int)raw[j] - pl->bias + sraw[blk] : LAD_NOFLOOR;
            sr[j] = sraw[blk];
            rp = rt[j] > rp ? rt[j] : rp;
            bany |= v != 0;
            anyzero |= v == 0;
        }
        if (bany && sraw[blk] > smax)
            smax = sraw[blk];
    }
    return scaled_sum(pl, &c, m, ex, rt, sr, n, dp->group, dp->cdom_group, rp, smax, anyzero);
}

lad_word_t lad_eval_scaled(const lad_plan *pl, const lad_case *cs)
{
    lad_word_t wa[LAD_KMAX], wb[LAD_KMAX];
    const lad_word_t *pa, *pb;
    int n = lane_words(pl->dp, cs, wa, wb, &pa, &pb), general;
    lad_word_t w = lad_scaled_body(pl, pa, pb, NULL, NULL, n, cs->c, cs->sa, cs->sb, &general);
    return general ? lad_eval_general(pl->dp, cs) : w;
}

