/*
** Rung (k), block scaling, for scaled kinds only. Block scales reach values
** no element can hold (e2m1 has eight magnitudes), so every family below
** builds its large and tiny terms through the scales: block 0 carries the
** largest scale pair S (normal scale words, so that S is also the pair's raw
** exponent) and the terms that set the anchor; the last block, under a lower
** scale, carries the small terms whose fate shows the quantum. The families
** run one after the other, each built from what the ones before measured,
** in the order inference decides them:
**
**   floor:    +1 and -1 under 2^S cancel; a lone product 2^(S-d) in the
**             last block (or C = 2^(S-d) with one block), d = 0.. until it
**             vanishes: the quantum q(S) = S - D when the products' raw
**             exponent is the scale's; three values of S. Decides the
**             smaller of the window and the scale floor, and align_round
**             (negative survivors);
**   window:   the same with the largest products (raw S + P, P the largest
**             raw exponent of an element product): the survivor still
**             vanishes after D when the scale floor sets the quantum, after
**             D - P when the window does;
**   group:    two products of half a quantum each, in lanes g-1 and g of the
**             last block (g = 1, 2, 4, ...), both signs: one quantum when
**             the two lanes are summed exactly before they are cut (the
**             same group), nothing when they are cut one by one;
**   cdom:     C = -2^R cancelling a product 2^R of raw exponent R (C's raw
**             exponent reaches the products' maximum), a lone survivor
**             2^(R-d): the C-dominant quantum R - Dc;
**   cdomg:    the group pairs on the C-dominant path (half of its quantum);
**   pergroup: C = -2^(R-1) below the products' maximum R but above the last
**             block's products, cancelled by a product 2^(R-1) in block 0,
**             and a survivor 2^(R-1-d) in the last block: cut at the global
**             quantum, or at R-1 - Dc when C outranks that block's group;
**   cdom-lone: with one block or no quantum seen, in their place: C =
**             2^(R+d) above a lone largest product +-2^R, d = 0..: where C
**             alone sets the C-dominant quantum, the product's fate shows
**             it through the rounding of the result (the random cases
**             alone told cdom_window by one case in thousands); then
**             cdomg-lone: one d further, two such products in lanes g-1
**             and g, which show when one exact group holds both;
**   sub:      a product 2^S (S <= -136: an f32 subnormal result) minus a
**             product 2^t of a lower scale, t from the quantum up: kept, the
**             result is one ulp less; dropped (a lower-scale group under the
**             subnormal floor), it is 2^S; and -(2^y + 2^(y-4)) beside +2^y
**             in two lower-scale groups: whole groups kept or dropped leave
**             -2^(y-4), one ulp less; a floor that cuts every term (an
**             anchor minimum) leaves nothing.
** Decides scale_floor (with window), group, cdom_window, cdom_group,
** cdom_per_group and group_sub_floor; each family's observation names the
** cases that show it.
*/
#include "ladder.h"
#include "case.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NS 3          /* values of S in the floor family */
#define DMAX 66       /* distances d the floor family sweeps at most */

/* Sets the scales of block blk to a pair of value 2^x, the exponents of A's
** and B's scale as even as the formats allow; with `normal` both words are
** normal, so that the pair's raw exponent is x. LAD_OK or LAD_NO. */
static int pair_scale(const lad_datapath *dp, lad_case *cs, int blk, int x, int normal)
{
    for (int o = 0; o <= 300; o++)
        for (int s = 0; s < 2; s++) {
            int ea = x / 2 + (s ? -o : o), eb = x - ea;
            lad_word_t wa, wb;
            if ((o == 0 && s) || lad_word_pow2(&dp->sa, ea, &wa) ||
                lad_word_pow2(&dp->sb, eb, &wb))
                continue;
            if (normal && (lad_decode(&dp->sa, wa).cls != LAD_NORMAL ||
                           lad_decode(&dp->sb, wb).cls != LAD_NORMAL))
                continue;
            cs->sa[blk] = (uint8_t)wa;
            cs->sb[blk] = (uint8_t)wb;
            return LAD_OK;
        }
    return LAD_NO;
}

/* Scales block blk so that an element product of 1 * 2^el makes a product
** of 2^t, for the first small el that both the scales and the elements can
** hold (el = 0 first: 1 * 1, the product's raw exponent is then t). *x
** receives the scale pair's exponent. LAD_OK or LAD_NO. */
static int tiny_block(const lad_datapath *dp, lad_case *cs, int blk, int t, int *x)
{
    static const int els[] = {0, -1, -2, 1, 2, -3, 3, -4, 4, -6, 6, -8, 8};
    for (size_t i = 0; i < sizeof els / sizeof els[0]; i++) {
        lad_case scratch;
        lad_case_base(dp, &scratch);
        if (lad_case_term(dp, &scratch, 0, 0, 1, els[i]) == LAD_OK &&
            pair_scale(dp, cs, blk, t - els[i], 0) == LAD_OK) {
            *x = t - els[i];
            return LAD_OK;
        }
    }
    return LAD_NO;
}

/* A case with block 0 under the pair 2^S (normal words). */
static int base_s(const lad_datapath *dp, lad_case *cs, int S)
{
    lad_case_base(dp, cs);
    return pair_scale(dp, cs, 0, S, 1);
}

/* Puts (-1)^neg * 2^e into physical lane j of a block scaled by 2^x. */
static int term(const lad_datapath *dp, lad_case *cs, int j, int neg, int e, int x)
{
    return lad_case_term(dp, cs, j, neg, 1, e - x);
}

/* Puts +-(the largest power-of-two product of normal elements) * 2^S into
** lanes 0 and 1 (cancelling), or only +- into lane j when j >= 0. */
typedef struct big {
    lad_word_t a, na, b;   /* words of 2^ea, -2^ea, 2^eb */
    int p;               /* ea + eb: the product's raw exponent */
    int ok;
} big;

static big find_big(const lad_datapath *dp)
{
    big g = {0, 0, 0, 0, 0};
    int ea = 1000, eb = 1000;
    for (int e = 300; e >= -300 && ea == 1000; e--) {
        lad_word_t w;
        if (lad_word_pow2(&dp->a, e, &w) == LAD_OK && lad_decode(&dp->a, w).cls == LAD_NORMAL &&
            lad_word(&dp->a, 1, 1, e, &g.na) == LAD_OK) {
            ea = e;
            g.a = w;
        }
    }
    for (int e = 300; e >= -300 && eb == 1000; e--) {
        lad_word_t w;
        if (lad_word_pow2(&dp->b, e, &w) == LAD_OK && lad_decode(&dp->b, w).cls == LAD_NORMAL) {
            eb = e;
            g.b = w;
        }
    }
    g.ok = ea != 1000 && eb != 1000;
    g.p = ea + eb;
    return g;
}

/* The floor family's result: the last d whose positive survivor showed, and
** whether the first vanished one was seen too. */
typedef struct edge {
    int d;               /* last surviving d, -1 when none */
    int closed;          /* the next d was run and gave zero */
    int64_t id;          /* the case of the last survivor */
} edge;

/* Reads the survivors of a batch whose labels are "<prefix> ... d=<d>"
** (positive cases only: no " neg"): the last d with a nonzero word. */
static edge read_edge(const lad_batch *b, const lad_word_t *dw, const int64_t *ids,
                      const char *prefix)
{
    edge e = {-1, 0, 0};
    size_t np = strlen(prefix);
    int seen[DMAX + 64] = {0}, zero[DMAX + 64] = {0};
    for (size_t i = 0; i < b->n; i++) {
        const char *l = b->label[i], *dpos = strstr(l, " d=");
        int d;
        if (strncmp(l, prefix, np) || l[np] != ' ' || strstr(l, " neg") || dpos == NULL ||
            sscanf(dpos, " d=%d", &d) != 1 || d < 0 || d >= DMAX + 64)
            continue;
        seen[d] = 1;
        zero[d] = dw[i] == 0;
        if (dw[i] != 0 && d > e.d) {
            e.d = d;
            e.id = ids[i];
        }
    }
    e.closed = e.d >= 0 && e.d + 1 < DMAX + 64 && seen[e.d + 1] && zero[e.d + 1];
    return e;
}

/* The pairs of the group families: half a quantum 2^(q-1) in lanes g-1 and
** g of the last block (both signs), besides what base() put in. */
/* The parameters each family is designed to decide, by their model-file
** keys: the target of its cases (inference visits them in this order). */
static const char *family_target(const char *family)
{
    if (strcmp(family, "floor") == 0 || strcmp(family, "window") == 0)
        return "window scale_floor; align_round";
    if (strcmp(family, "group") == 0)
        return "group";
    if (strcmp(family, "sub") == 0)
        return "group_sub_floor";
    return "cdom_window cdom_group cdom_per_group"; /* cdom, cdomg, pergroup */
}

static int group_pairs(const lad_datapath *dp, lad_batch *b, const lad_case *base, int q,
                       const char *name)
{
    int sbk = dp->scale_block, last = lad_datapath_nscales(dp) - 1, rc;
    for (int g = 1; g < sbk; g *= 2)
        for (int v = 0; v < 2; v++) {
            lad_case cs = *base;
            int x;
            if (tiny_block(dp, &cs, last, q - 1, &x) || term(dp, &cs, last * sbk + g - 1, v, q - 1, x) ||
                term(dp, &cs, last * sbk + g, v, q - 1, x))
                continue;
            lad_batch_series(b, name, family_target(name));
            if ((rc = lad_batch_addv(b, &cs, g, "%s lanes %d,%d%s", name, g - 1, g, v ? " neg" : "")))
                return rc;
        }
    return LAD_OK;
}

/* Ends one run of families: counts its cases into *total and frees the
** batch and its words, ready for the next. */
static void batch_done(lad_batch *b, lad_word_t **dw, int64_t **ids, size_t *total)
{
    *total += b->n;
    lad_batch_free(b);
    free(*dw);
    free(*ids);
    *dw = NULL;
    *ids = NULL;
}

int lad_rung_scaling(lad_probe *p)
{
    const lad_datapath *dp = &p->dp;
    if (dp->scale_block <= 0) {
        snprintf(p->summary, sizeof p->summary, "unscaled kind: nothing to probe");
        return lad_probe_observe(p, "skipped", NULL, 0, "unscaled");
    }
    int maxs = p->rung ? (int)lad_rung_param(p->rung, "max_shift") : 40;
    int nb = lad_datapath_nscales(dp), sbk = dp->scale_block, last = nb - 1;
    int dmax = maxs + 25 < DMAX ? maxs + 25 : DMAX - 1;
    big g = find_big(dp);
    lad_batch b = {0};
    lad_word_t *dw = NULL;
    int64_t *ids = NULL;
    int rc = LAD_OK;
    size_t total = 0;

    /* S: 0, and the largest and smallest normal pairs within +-30 */
    int S[NS] = {0, 0, 0}, ns = 1;
    for (int s = 30; s > 0; s--) {
        lad_case cs;
        if (base_s(dp, &cs, s) == LAD_OK) {
            S[ns++] = s;
            break;
        }
    }
    for (int s = -30; s < 0; s++) {
        lad_case cs;
        if (base_s(dp, &cs, s) == LAD_OK) {
            S[ns++] = s;
            break;
        }
    }

    /* floor */
    for (int si = 0; si < ns; si++)
        for (int d = 0; d <= dmax; d++)
            for (int v = 0; v < 2; v++) {
                lad_case cs;
                int x, ok = base_s(dp, &cs, S[si]) == LAD_OK && term(dp, &cs, 0, 0, S[si], S[si]) == LAD_OK &&
                            term(dp, &cs, 1, 1, S[si], S[si]) == LAD_OK;
                if (last > 0)
                    ok = ok && tiny_block(dp, &cs, last, S[si] - d, &x) == LAD_OK &&
                         term(dp, &cs, last * sbk, v, S[si] - d, x) == LAD_OK;
                else
                    ok = ok && lad_case_c(dp, &cs, v, 1, S[si] - d) == LAD_OK;
                lad_batch_series(&b, "floor", family_target("floor"));
                if (ok && (rc = lad_batch_addv(&b, &cs, d, "floor S=%d d=%d%s", S[si], d, v ? " neg" : "")))
                    goto out;
            }
    if ((rc = lad_probe_run(p, &b, &dw, &ids)))
        goto out;
    int Sx = S[0], D = -1;
    for (int si = 0; si < ns; si++) {
        char pre[32];
        snprintf(pre, sizeof pre, "floor S=%d", S[si]);
        edge e = read_edge(&b, dw, ids, pre);
        if (e.d >= 0 && (rc = lad_probe_observe(p, pre, &e.id, 1, "last surviving d: %d%s", e.d,
                                                e.closed ? "" : " (the next could not be built)")))
            goto out;
        if (e.closed && D < 0) {
            Sx = S[si];
            D = e.d;
        }
    }
    batch_done(&b, &dw, &ids, &total);
    if (D < 0 || last == 0 || !g.ok) {
        /* one block, or no edge seen: the floor cases, and the C-dominant
        ** window from C alone above the lone largest product (the
        ** families below need a second block or the quantum) */
        for (int d = 0; g.ok && d <= dmax; d++)
            for (int v = 0; v < 2; v++) {
                lad_case cs;
                if (base_s(dp, &cs, Sx) || lad_case_c(dp, &cs, 0, 1, Sx + g.p + d))
                    continue;
                lad_case_words(dp, &cs, 0, v ? g.na : g.a, g.b);
                lad_batch_series(&b, "cdom-lone", family_target("cdom"));
                if ((rc = lad_batch_addv(&b, &cs, d, "cdom-lone R=%d d=%d%s", Sx + g.p, d,
                                         v ? " neg" : "")))
                    goto out;
            }
        if (b.n && (rc = lad_probe_run(p, &b, &dw, &ids)))
            goto out;
        /* the last d whose product shows (its two signs give two words) */
        int Dl = -1, closed = 0;
        for (size_t i = 0; i + 1 < b.n; i++) {
            int d = (int)b.ev[i].vary;
            if (b.ev[i + 1].vary != d)
                continue;  /* one sign could not be built */
            if (dw[i] != dw[i + 1])
                Dl = d, closed = 0;
            else if (Dl >= 0 && d == Dl + 1)
                closed = 1;
        }
        batch_done(&b, &dw, &ids, &total);
        /* cdomg-lone: one step further, where a lone product is cut, two
        ** of them in lanes g-1 and g of block 0 (under the one scale pair)
        ** show when one exact group holds both */
        for (int gl = 1; closed && gl < sbk; gl *= 2)
            for (int v = 0; v < 2; v++) {
                lad_case cs;
                if (base_s(dp, &cs, Sx) || lad_case_c(dp, &cs, 0, 1, Sx + g.p + Dl + 1))
                    continue;
                lad_case_words(dp, &cs, gl - 1, v ? g.na : g.a, g.b);
                lad_case_words(dp, &cs, gl, v ? g.na : g.a, g.b);
                lad_batch_series(&b, "cdomg-lone", family_target("cdomg"));
                if ((rc = lad_batch_addv(&b, &cs, gl, "cdomg-lone lanes %d,%d%s", gl - 1, gl,
                                         v ? " neg" : "")))
                    goto out;
            }
        if (b.n && (rc = lad_probe_run(p, &b, &dw, &ids)))
            goto out;
        batch_done(&b, &dw, &ids, &total);
        snprintf(p->summary, sizeof p->summary, "%zu scale cases (%d blocks of %d), quantum %s",
                 total, nb, sbk, D < 0 ? "not seen" : "seen");
        rc = lad_probe_observe(p, "cases", NULL, 0, "%zu", total);
        goto out;
    }
    int q = Sx - D;          /* the quantum under products of raw Sx */
    int G = 0;               /* lanes per exact group sum, once seen */
    int R = Sx + g.p;        /* the largest product's raw exponent */

    /* window: the largest products cancel under 2^Sx */
    for (int d = D - 4; d <= D + g.p + 4; d++)
        for (int v = 0; v < 2; v++) {
            lad_case cs;
            int x;
            if (base_s(dp, &cs, Sx) || tiny_block(dp, &cs, last, R - d, &x) ||
                term(dp, &cs, last * sbk, v, R - d, x))
                continue;
            lad_case_words(dp, &cs, 0, g.a, g.b);
            lad_case_words(dp, &cs, 1, g.na, g.b);
            lad_batch_series(&b, "window", family_target("window"));
            if ((rc = lad_batch_addv(&b, &cs, d, "window S=%d d=%d%s", Sx, d, v ? " neg" : "")))
                goto out;
        }
    /* group: half-quantum pairs beside the cancelling pair of the floor */
    {
        lad_case base;
        if (base_s(dp, &base, Sx) == LAD_OK && term(dp, &base, 0, 0, Sx, Sx) == LAD_OK &&
            term(dp, &base, 1, 1, Sx, Sx) == LAD_OK && (rc = group_pairs(dp, &b, &base, q, "group")))
            goto out;
    }
    /* cdom: C = -2^R against the largest product */
    for (int d = D - 12 > 0 ? D - 12 : 0; d <= D + 12; d++)
        for (int v = 0; v < 2; v++) {
            lad_case cs;
            int x;
            if (base_s(dp, &cs, Sx) || lad_case_c(dp, &cs, 1, 1, R) ||
                tiny_block(dp, &cs, last, R - d, &x) || term(dp, &cs, last * sbk, v, R - d, x))
                continue;
            lad_case_words(dp, &cs, 0, g.a, g.b);
            lad_batch_series(&b, "cdom", family_target("cdom"));
            if ((rc = lad_batch_addv(&b, &cs, d, "cdom R=%d d=%d%s", R, d, v ? " neg" : "")))
                goto out;
        }
    if ((rc = lad_probe_run(p, &b, &dw, &ids)))
        goto out;
    int Dc = -1;
    {
        edge e = read_edge(&b, dw, ids, "window");
        if (e.d >= 0 && (rc = lad_probe_observe(p, "window", &e.id, 1, "last surviving d below the "
                                                "largest products: %d", e.d)))
            goto out;
        e = read_edge(&b, dw, ids, "cdom");
        if (e.d >= 0 && (rc = lad_probe_observe(p, "cdom", &e.id, 1, "last surviving d below C: %d", e.d)))
            goto out;
        if (e.closed)
            Dc = e.d;
        int64_t gid[16];
        size_t ng = 0;
        int joined = 0, seen = 0;
        for (size_t i = 0; i < b.n; i++) {
            int l0, l1;
            if (sscanf(b.label[i], "group lanes %d,%d", &l0, &l1) == 2 && !strstr(b.label[i], "neg")) {
                seen = 1;
                if (dw[i] != 0 && l1 > joined)
                    joined = l1;
                if (dw[i] != 0 && ng < 16)
                    gid[ng++] = ids[i];
            }
        }
        /* lanes g-1 and g share a group exactly when the group is wider than g */
        G = seen ? (joined ? 2 * joined : 1) : 0;
        if (seen && (rc = lad_probe_observe(p, "group", gid, ng, "lanes summed exactly before the "
                                            "cut: %d", G)))
            goto out;
    }
    batch_done(&b, &dw, &ids, &total);

    if (Dc >= 0) {
        /* cdomg: the pairs on the C-dominant path */
        lad_case base;
        if (base_s(dp, &base, Sx) == LAD_OK && lad_case_c(dp, &base, 1, 1, R) == LAD_OK) {
            lad_case_words(dp, &base, 0, g.a, g.b);
            if ((rc = group_pairs(dp, &b, &base, R - Dc, "cdomg")))
                goto out;
        }
        /* pergroup: C = -2^(R-1) under the products' maximum */
        for (int d = Dc - 4; d <= D + 4; d++)
            for (int v = 0; v < 2; v++) {
                lad_case cs;
                int x;
                if (base_s(dp, &cs, Sx) || lad_case_c(dp, &cs, 1, 1, R - 1) ||
                    term(dp, &cs, 2, 0, R - 1, Sx) || tiny_block(dp, &cs, last, R - 1 - d, &x) ||
                    term(dp, &cs, last * sbk, v, R - 1 - d, x))
                    continue;
                lad_case_words(dp, &cs, 0, g.a, g.b);
                lad_case_words(dp, &cs, 1, g.na, g.b);
                lad_batch_series(&b, "pergroup", family_target("pergroup"));
                if ((rc = lad_batch_addv(&b, &cs, d, "pergroup R=%d d=%d%s", R, d, v ? " neg" : "")))
                    goto out;
            }
    }
    /* sub: 2^S - 2^t, S from -148 (2^-149 less is still an f32 subnormal) */
    for (int s = -148; s <= -136; s += 4)
        for (int t = s - D; t < s - D + 16 && t < s; t++) {
            lad_case cs;
            int x;
            if (base_s(dp, &cs, s) || term(dp, &cs, 0, 0, s, s) || tiny_block(dp, &cs, last, t, &x) ||
                x >= s || term(dp, &cs, last * sbk, 1, t, x))
                continue;
            lad_batch_series(&b, "sub", family_target("sub"));
            if ((rc = lad_batch_addv(&b, &cs, t, "sub S=%d t=%d", s, t)))
                goto out;
        }
    /* sub carry: -(2^y + 2^(y-4)) and +2^y in two lower-scale groups, the
    ** net -2^(y-4) visible as one ulp less: kept when whole groups are kept,
    ** lost when each group is cut at a common floor (an anchor minimum) */
    for (int y = -178; y <= -168 && G > 0; y++) {
        lad_case cs;
        int x, x2, s = -148, jb = G < sbk ? last * sbk + G : (last - 1) * sbk;
        int bb = jb / sbk;
        if (bb < 1 || base_s(dp, &cs, s) || term(dp, &cs, 0, 0, s, s) ||
            tiny_block(dp, &cs, last, y - 2, &x) || x >= s || term(dp, &cs, last * sbk, 1, y, x) ||
            term(dp, &cs, last * sbk + 1, 1, y - 4, x) || tiny_block(dp, &cs, bb, y - 2, &x2) ||
            x2 != x || term(dp, &cs, jb, 0, y, x))
            continue;
        lad_batch_series(&b, "sub", family_target("sub"));
        if ((rc = lad_batch_addv(&b, &cs, y, "sub carry S=%d y=%d", s, y)))
            goto out;
    }
    if ((rc = lad_probe_run(p, &b, &dw, &ids)))
        goto out;
    {
        edge e = read_edge(&b, dw, ids, "pergroup");
        if (e.d >= 0 && (rc = lad_probe_observe(p, "pergroup", &e.id, 1, "last surviving d below C "
                                                "under the products' maximum: %d", e.d)))
            goto out;
        /* sub: the lowest t kept (one ulp less than 2^S) at the lowest S */
        int64_t sid = 0;
        int tk = 1;
        lad_word_t w148 = 0;
        int have148 = lad_word(&dp->d, 0, 1, -148, &w148) == LAD_OK;
        for (size_t i = 0; i < b.n && have148; i++) {
            int s, t;
            if (sscanf(b.label[i], "sub S=%d t=%d", &s, &t) == 2 && s == -148 && t < tk &&
                dw[i] != w148) {
                tk = t;
                sid = ids[i];
            }
        }
        if (tk < 1 && (rc = lad_probe_observe(p, "sub", &sid, 1, "lowest lower-scale term kept in "
                                              "a subnormal result 2^-148: 2^%d", tk)))
            goto out;
    }
    total += b.n;
    snprintf(p->summary, sizeof p->summary,
             "%zu scale cases (%d blocks of %d): quantum 2^(S-%d), C-dominant 2^(rC-%d)", total, nb,
             sbk, D, Dc);
    rc = lad_probe_observe(p, "cases", NULL, 0, "%zu", total);
out:
    lad_batch_free(&b);
    free(dw);
    free(ids);
    return rc;
}
