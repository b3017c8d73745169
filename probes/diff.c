/*
** How two datapaths differ, and a witness of each difference (probes/diff.h):
** the structured cases, the search, and the table's rows.
*/
#include "diff.h"

#include <stdio.h>
#include <string.h>

#include "../io/vecline.h"
#include "../model/decimal.h"
#include "../model/format.h"
#include "gen.h"

#define NSINGLE 12          /* structured cases that are not a series */
#define NSHIFT 72           /* distances 2^-s of the series, s in 0..NSHIFT-1 */
#define NSERIES 12          /* series of structured cases */
#define NDEEP 320           /* leading exponents 0, -2, ... of the deep series,
                               each with a positive and a negative second term */
/* Structured cases of a datapath of K lanes. */
#define NSTRUCT(k) (NSINGLE + (long)NSERIES * NSHIFT * (k) + (long)NDEEP * NSHIFT)
#define RANDOM_SEED 1
#define RANDOM_RAW 25       /* percent of raw bit-pattern random cases */
#define NBETTER 65536       /* cases searched past a witness on which B differs
                               for one the parameter alone explains */

/* Why a and b cannot share inputs, or NULL when they can: the parameters
** that say what the instruction reads (neither searched nor identity) must
** be equal, K apart for dense unscaled datapaths. */
static const char *no_sharing(const lad_datapath *a, const lad_datapath *b)
{
    if (!lad_inputs_alike(a, b))
        return "the A, B or C formats differ";
    if (a->integer != b->integer)
        return "one is an integer datapath";
    if (a->sparse != b->sparse)
        return "the sparsity differs";
    if (a->scale_block != b->scale_block || !lad_format_same_decode(&a->sa, &b->sa) ||
        !lad_format_same_decode(&a->sb, &b->sb))
        return "the block scales differ";
    if (a->k != b->k && (a->scale_block || a->sparse))
        return "K differs on a scaled or sparse datapath";
    return NULL;
}

/* ---- structured cases ---------------------------------------------------- */

/* The word of +-2^e in f (saturated when e is past its range). */
static lad_word_t pow2(const lad_format *f, int neg, int e)
{
    return lad_round_value(f, neg, (lad_u128)1, e, 0, LAD_RNE, LAD_OVF_SAT, NULL);
}

static int clamp(int x, int lo, int hi)
{
    return x < lo ? lo : x > hi ? hi : x;
}

/* 2^e split into 2^ea * 2^eb, ea within the raw exponents of format fa
** and eb within fb's, half each where both hold it; returns 1 when ea +
** eb is e, else 0 with the split that carries as much of e as the two
** hold. */
static int split(const lad_format *fa, const lad_format *fb, int e, int *ea, int *eb)
{
    int alo, ahi, blo, bhi;
    lad_gen_raw_range(fa, &alo, &ahi);
    lad_gen_raw_range(fb, &blo, &bhi);
    *eb = clamp(e - clamp(e / 2, alo, ahi), blo, bhi);
    *ea = clamp(e - *eb, alo, ahi);
    return *ea + *eb == e;
}

/* Sets lane j to the product +-2^e, split between A and B so that both are
** normal; 0 when no split is. */
static int term(const lad_datapath *dp, lad_case *cs, int j, int neg, int e)
{
    int ea, eb;
    if (!split(&dp->a, &dp->b, e, &ea, &eb))
        return 0;
    cs->a[j] = pow2(&dp->a, neg, ea);
    cs->b[j] = pow2(&dp->b, 0, eb);
    return 1;
}

/* A block-scaled datapath's every scale set to carry as much of 2^e as
** the scale formats hold, split between A's and B's (its narrow A and B
** words cannot reach the anchor floors alone); returns the exponent the
** scales carry, 0 on an unscaled datapath. */
static int deep_scales(const lad_datapath *dp, lad_case *cs, int e)
{
    int n = lad_datapath_nscales(dp), ea, eb;
    if (n == 0)
        return 0;
    split(&dp->sa, &dp->sb, e, &ea, &eb);
    for (int j = 0; j < n; j++) {
        cs->sa[j] = (uint8_t)pow2(&dp->sa, 0, ea);
        cs->sb[j] = (uint8_t)pow2(&dp->sb, 0, eb);
    }
    return ea + eb;
}

/* The leading exponent of a series case whose small term 2^-s is held
** by words whose smallest normal exponent is lo (a product's: A's and B's
** added): 0 where lo reaches -s, else just high enough that 2^(e-s) is
** held, as far as 2^e stays within the words, C, the accumulator and D
** with room for a sum (e3m2 x e5m2 products reach 2^-16 from 1, short of
** a window of 29 bits). Cases holding at 0 are those of a leading 1. */
static int lead(const lad_datapath *dp, int lo, int s)
{
    int e = lo + s, l, hi, h;
    if (e <= 0)
        return 0;
    lad_gen_raw_range(&dp->a, &l, &hi);
    lad_gen_raw_range(&dp->b, &l, &h);
    hi += h;
    const lad_format *room[3] = {&dp->c, &dp->acc, &dp->d};
    for (int i = 0; i < 3; i++) {
        lad_gen_raw_range(room[i], &l, &h);
        if (h - 2 < hi)
            hi = h - 2;
    }
    return e < hi ? e : hi > 0 ? hi : 0;
}

/* Structured case i of dp (K lanes) into cs; 0 when i names no case for
** dp (a lane it does not have, a value its formats cannot hold). */
static int structured(const lad_datapath *dp, int k, long i, lad_case *cs)
{
    memset(cs, 0, sizeof *cs);
    for (int s = 0; s < lad_datapath_nscales(dp); s++) {
        cs->sa[s] = (uint8_t)pow2(&dp->sa, 0, 0);
        cs->sb[s] = (uint8_t)pow2(&dp->sb, 0, 0);
    }
    const lad_format *fa = &dp->a, *fc = &dp->c;
    if (i < NSINGLE) {
        lad_word_t one_a = pow2(fa, 0, 0), one_b = pow2(&dp->b, 0, 0);
        lad_word_t big_a = lad_format_maxfinite(fa, 0), big_b = lad_format_maxfinite(&dp->b, 0);
        /* 2 - ulp: every fraction bit set, so sums carry at once */
        lad_word_t full_a = lad_round_value(fa, 0, ((lad_u128)1 << (fa->mbits + 1)) - 1,
                                          -fa->mbits, 0, LAD_RZ, LAD_OVF_SAT, NULL);
        for (int j = 0; j < k; j++) {
            switch (i) {
            case 0: case 1: case 2: /* ones; C 0, 1, -1 */
                cs->a[j] = one_a, cs->b[j] = one_b;
                break;
            case 3: /* every lane at the top: overflow */
                cs->a[j] = big_a, cs->b[j] = big_b;
                break;
            case 4: /* every fraction bit */
                cs->a[j] = full_a, cs->b[j] = one_b;
                break;
            case 5: /* alternating signs of the largest */
                cs->a[j] = lad_format_maxfinite(fa, j & 1), cs->b[j] = big_b;
                break;
            }
        }
        switch (i) {
        case 1: cs->c = pow2(fc, 0, 0); break;
        case 2: cs->c = pow2(fc, 1, 0); break;
        case 6: /* the smallest subnormal A word times one */
            cs->a[0] = (lad_word_t)1 << fa->pad, cs->b[0] = pow2(&dp->b, 0, 0);
            break;
        case 7: /* two smallest subnormals: far below every format */
            cs->a[0] = (lad_word_t)1 << fa->pad, cs->b[0] = (lad_word_t)1 << dp->b.pad;
            break;
        case 8: /* the smallest subnormal C alone */
            cs->c = (lad_word_t)1 << fc->pad;
            break;
        case 9: /* a NaN lane */
            if (!lad_format_nan(fa))
                return 0;
            cs->a[0] = lad_format_nan(fa), cs->b[0] = pow2(&dp->b, 0, 0);
            break;
        case 10: /* Inf - Inf */
            if (!fa->inf || k < 2)
                return 0;
            cs->a[0] = lad_format_inf(fa, 0), cs->b[0] = pow2(&dp->b, 0, 0);
            cs->a[1] = lad_format_inf(fa, 1), cs->b[1] = pow2(&dp->b, 0, 0);
            break;
        case 11: /* a NaN addend */
            if (!lad_format_nan(fc))
                return 0;
            cs->c = lad_format_nan(fc);
            break;
        }
        return 1;
    }
    /* Series: a leading term (or C) of 2^e, e = 0 where the formats
    ** reach 2^-s (lead), and one of 2^(e-s) in lane j. */
    i -= NSINGLE;
    int series = (int)(i / ((long)NSHIFT * k));
    int s = (int)(i / k % NSHIFT), j = (int)(i % k);
    if (series >= NSERIES) {
        /* Deep: 2^e +- 2^(e-s) for e far below 1, where anchor floors and
        ** subnormal results decide (2^-149 - 2^-170 is 0 or 2^-149 in f32,
        ** as the small term is dropped or not); on a block-scaled datapath the
        ** scales carry most of 2^e. */
        i -= (long)NSERIES * NSHIFT * k;
        int e = -2 * (int)(i / (2 * NSHIFT)), neg = (int)(i / NSHIFT) & 1;
        s = (int)(i % NSHIFT);
        e -= deep_scales(dp, cs, e);
        return k > 1 && term(dp, cs, 0, 0, e) && term(dp, cs, 1, neg, e - s);
    }
    int alo, blo, h, clo;
    lad_gen_raw_range(fa, &alo, &h);
    lad_gen_raw_range(&dp->b, &blo, &h);
    lad_gen_raw_range(fc, &clo, &h);
    int e = lead(dp, alo + blo, s), m = dp->d.mbits;
    switch (series) {
    case 0: /* 1 + 2^-s: the window edge, the rounding of the sum */
    case 1: /* 1 - 2^-s: the same rounding below a negative term */
        return j > 0 && term(dp, cs, 0, 0, e) && term(dp, cs, j, series == 1, e - s);
    case 2: /* C = 1 and a term 2^-s: the addend in the window or beside it */
        cs->c = pow2(fc, 0, e);
        return term(dp, cs, j, 0, e - s);
    case 3: /* a term 1 and C = 2^-s (subnormal C first) */
        e = lead(dp, fc->sub == LAD_SUB_NONE ? clo : clo - fc->mbits, s);
        cs->c = pow2(fc, 0, e - s);
        return term(dp, cs, j, 0, e);
    case 4: /* 1 - 1 + 2^-s: cancellation, then what is left */
        return j > 1 && term(dp, cs, 0, 0, e) && term(dp, cs, 1, 1, e) &&
               term(dp, cs, j, 0, e - s);
    case 5: /* C = -1, a term 1 and a term 2^-s: cancellation against C */
        cs->c = pow2(fc, 1, e);
        return j > 0 && term(dp, cs, 0, 0, e) && term(dp, cs, j, 0, e - s);
    case 6: /* C = 1 + 2^-(m+1), a tie of D's m fraction bits, and a term
            ** 2^-s (the scales carrying it): the tie is broken as the term
            ** is kept (a window, a C-dominant quantum) or dropped */
    case 7: { /* the same at the accumulator's ties, when it is narrower */
        const lad_format *out = series == 6 ? &dp->d : &dp->acc;
        if ((series == 7 && dp->acc.mbits >= dp->d.mbits) || fc->mbits <= out->mbits)
            return 0;  /* no narrower accumulator, or a C that cannot hold the tie */
        cs->c = lad_round_value(fc, 0, ((lad_u128)1 << (out->mbits + 1)) + 1,
                                -(out->mbits + 1), 0, LAD_RZ, LAD_OVF_SAT, NULL);
        return term(dp, cs, j, 0, -s - deep_scales(dp, cs, -s));
    }
    case 8: /* terms 1 + 2^-m + 2^-(m+1), a tie of D's rounding above an odd
            ** last bit, and a term -2^-s (C zero): a rounding of the terms
            ** before D's (an accumulator or C added last) that keeps the tie
            ** rounds up where D's alone rounds down */
    case 9: /* terms 1 + 2^-(m+1), a tie above an even last bit, and a term
            ** 2^-s: a rounding toward zero before D's keeps the tie */
    case 10: case 11: /* the same at the accumulator's ties, when it is
                      ** narrower: the window's edge shows through them */
        if (series >= 10) {
            if (dp->acc.mbits >= m)
                return 0;
            m = dp->acc.mbits;
        }
        if (series & 1)
            return j > 1 && term(dp, cs, 0, 0, e) && term(dp, cs, 1, 0, e - m - 1) &&
                   term(dp, cs, j, 0, e - s);
        return j > 2 && term(dp, cs, 0, 0, e) && term(dp, cs, 1, 0, e - m) &&
               term(dp, cs, 2, 0, e - m - 1) && term(dp, cs, j, 1, e - s);
    }
    return 0;
}

/* ---- the search ---------------------------------------------------------- */

/* x with p's value taken from from into out; not LAD_OK when that is no
** valid datapath (the check's message in err). */
static int with_param(const lad_param *p, const lad_datapath *x, const lad_datapath *from,
                      lad_datapath *out, lad_err *err)
{
    *out = *x;
    if (p->type == LAD_PT_ORDER) {
        out->norder = from->norder;
        memcpy(out->order, from->order, sizeof out->order);
    } else {
        memcpy((char *)out + p->off, (const char *)from + p->off, p->size);
    }
    return lad_datapath_check(out, err);
}

/* Looks for a case where x and x2 differ, preferring one where y differs
** from x too. gen is the datapath cases are drawn for (the smaller K). */
static int search(const lad_plan *x, const lad_plan *x2, const lad_plan *y,
                  const lad_datapath *gen, long nrandom, lad_witness *w)
{
    long nstruct = NSTRUCT(gen->k);
    int structured_ok = !gen->integer && !gen->sparse;
    lad_case cs;
    long stop = nstruct + nrandom;
    for (long i = 0; i < stop; i++) {
        if (i < nstruct) {
            if (!structured_ok || !structured(gen, gen->k, i, &cs))
                continue;
        } else {
            lad_gen_case_at(gen, RANDOM_SEED, RANDOM_RAW, (uint64_t)(i - nstruct), &cs);
        }
        lad_word_t dx = lad_plan_eval(x, &cs), dx2 = lad_plan_eval(x2, &cs);
        if (dx == dx2)
            continue;
        lad_word_t dy = lad_plan_eval(y, &cs);
        /* better: y differs from x; best: x2 gives y's word */
        int score = (dy != dx) + (dx2 == dy);
        if (w->found && score <= w->b_differs + w->explains)
            continue;
        if (!w->b_differs && dy != dx && stop - i > NBETTER)
            stop = i + NBETTER;
        w->found = 1;
        w->cs = cs;
        w->da = dx;
        w->db = dy;
        w->dx = dx2;
        w->b_differs = dy != dx;
        w->explains = dx2 == dy;
        if (w->explains)
            return 1;
    }
    return w->found;
}

/* Looks for a case where x and y differ, over the structured cases and
** nrandom random ones; returns the number of cases run, and sets v's case
** when one is found. */
static long search_direct(const lad_plan *x, const lad_plan *y, const lad_datapath *gen,
                          long nrandom, lad_verdict *v)
{
    long nstruct = NSTRUCT(gen->k), n = 0;
    int structured_ok = !gen->integer && !gen->sparse;
    lad_case cs;
    for (long i = 0; i < nstruct + nrandom; i++) {
        if (i < nstruct) {
            if (!structured_ok || !structured(gen, gen->k, i, &cs))
                continue;
        } else {
            lad_gen_case_at(gen, RANDOM_SEED, RANDOM_RAW, (uint64_t)(i - nstruct), &cs);
        }
        n++;
        lad_word_t dx = lad_plan_eval(x, &cs), dy = lad_plan_eval(y, &cs);
        if (dx != dy) {
            v->found = 1;
            v->cs = cs;
            v->da = dx;
            v->db = dy;
            break;
        }
    }
    return n;
}

long lad_diff_ncases(const lad_datapath *gen, long nrandom)
{
    return NSTRUCT(gen->k) + nrandom;
}

int lad_diff_case(const lad_datapath *gen, long i, lad_case *cs)
{
    long nstruct = NSTRUCT(gen->k);
    if (i < nstruct)
        return !gen->integer && !gen->sparse && structured(gen, gen->k, i, cs);
    lad_gen_case_at(gen, RANDOM_SEED, RANDOM_RAW, (uint64_t)(i - nstruct), cs);
    return 1;
}

long lad_diff_search(const lad_datapath *a, const lad_datapath *b, long nrandom,
                     lad_verdict *v)
{
    lad_plan pa, pb;
    lad_plan_init(&pa, a);
    lad_plan_init(&pb, b);
    memset(v, 0, sizeof *v);
    return search_direct(&pa, &pb, a->k <= b->k ? a : b, nrandom, v);
}

/* The witness of p: A against A with B's p, else B against B with A's. */
static void find_witness(const lad_param *p, const lad_diff *d, lad_witness *w)
{
    memset(w, 0, sizeof *w);
    w->p = p;
    lad_datapath x2;
    lad_err err = {0};
    lad_plan px2;
    if (with_param(p, d->a, d->b, &x2, &err) == LAD_OK) {
        lad_plan_init(&px2, &x2);
        if (search(&d->pa, &px2, &d->pb, d->gen, d->nrandom, w))
            return;
    } else {
        snprintf(w->why, sizeof w->why, "%s", err.msg);
        lad_err_clear(&err);
    }
    if (with_param(p, d->b, d->a, &x2, &err) != LAD_OK) {
        if (!w->why[0])
            snprintf(w->why, sizeof w->why, "%s", err.msg);
        return;
    }
    lad_plan_init(&px2, &x2);
    w->searched = 1;
    w->why[0] = 0;
    if (search(&d->pb, &px2, &d->pa, d->gen, d->nrandom, w)) {
        /* found as B's side: put the words back in A, B order */
        lad_word_t t = w->da;
        w->da = w->db;
        w->db = t;
        w->swapped = 1;
        return;
    }
    if (!w->why[0])
        snprintf(w->why, sizeof w->why, "no case of %ld showed it%s",
                 NSTRUCT(d->gen->k) + d->nrandom, d->a->k != d->b->k ? " on the common lanes" : "");
}


void lad_verdict_rows(const lad_diff *d, lad_buf *b)
{
    size_t at = b->len;
    for (int i = 0; i < lad_nparams; i++) {
        const lad_diff_row *r = &d->rows[i];
        if (r->differs && r->p->type != LAD_PT_STR)
            lad_buf_printf(b, "%s%s", b->len > at ? " " : "", r->p->key);
    }
}

void lad_verdict_text(const lad_diff *d, lad_buf *b)
{
    lad_buf_printf(b, "%s (", lad_verdict_names[d->v.kind]);
    lad_verdict_why(d, b);
    lad_buf_printf(b, ")");
}

void lad_verdict_why(const lad_diff *d, lad_buf *b)
{
    const lad_verdict *v = &d->v;
    if (v->kind == LAD_SAME && v->searched)
        lad_buf_printf(b, "the canonical models are identical; no case of %ld separates A "
                       "and B", v->searched);
    else if (v->kind == LAD_SAME)
        lad_buf_printf(b, "the canonical models are identical");
    else if (v->kind == LAD_DIFFERS && v->why)
        lad_buf_printf(b, "%s", v->why);
    else if (v->kind == LAD_DIFFERS && v->w)
        lad_buf_printf(b, "%s: A and B return other words on the case below", v->w->p->key);
    else if (v->kind == LAD_DIFFERS)
        lad_buf_printf(b, "rows acting together: A and B return other words on the case "
                       "below, no single row gives B's");
    if (v->kind != LAD_EQUIV)
        return;
    /* ≡: the rows not in effect, then those the search decided */
    for (int pass = 0, n = 0; pass < 2; pass++) {
        int first = 1;
        for (int i = 0; i < lad_nparams; i++) {
            const lad_diff_row *r = &d->rows[i];
            if (!r->differs || r->p->type == LAD_PT_STR || r->same_encoding ||
                r->in_effect != pass)
                continue;
            if (first)
                lad_buf_printf(b, "%s%s", n++ ? "; " : "",
                               pass ? "" : "not in effect for this shape: ");
            lad_buf_printf(b, "%s%s", first ? "" : " ", r->p->key);
            first = 0;
        }
        if (pass && !first)
            lad_buf_printf(b, ": no case of %ld separates A and B", v->searched);
    }
}

/* X is the side changed, Y the other. */
const char *lad_witness_says(const lad_witness *w, char *buf, size_t size)
{
    const char *x = w->swapped ? "B" : "A", *y = w->swapped ? "A" : "B";
    if (w->explains)
        snprintf(buf, size, "A and B differ; %s with %s's %s gives %s's word: the "
                 "parameter alone explains it", x, y, w->p->key, y);
    else if (w->b_differs)
        snprintf(buf, size, "A and B differ; %s with %s's %s gives a third word: the "
                 "parameter is one cause, others act too", x, y, w->p->key);
    else
        snprintf(buf, size, "%s's other parameters hide it here; %s and %s with %s's %s "
                 "differ", y, x, x, y, w->p->key);
    return buf;
}

/* "    WHO hex  value" for a word of f. */
static void word_text(lad_buf *b, const char *who, const lad_format *f, lad_word_t w)
{
    char hex[17], val[1200];
    lad_vecline_hex(f, w, hex);
    lad_buf_printf(b, "    %-3s %s  %s\n", who, hex, lad_value_text_brief(f, w, val, sizeof val));
}

void lad_witness_text(const lad_diff *d, const lad_witness *w, lad_buf *b)
{
    if (!w->found) {
        lad_buf_printf(b, "witness %s: none%s (%s)\n", w->p->key,
                       w->searched ? ", unobservable" : "", w->why);
        return;
    }
    char line[LAD_VECLINE_MAX], says[300], v[400];
    if (lad_vecline_format(d->gen, &w->cs, NULL, line, sizeof line) < 0)
        line[0] = 0;
    lad_buf_printf(b, "witness %s: %s\n", w->p->key, lad_witness_says(w, says, sizeof says));
    lad_buf_printf(b, "    in  %s\n", line);
    word_text(b, "A", &d->a->d, w->da);
    word_text(b, "B", &d->b->d, w->db);
    lad_buf_printf(b, "    %s with %s %s:\n", w->swapped ? "B" : "A", w->p->key,
                   lad_param_text(w->p, w->swapped ? d->a : d->b, v, sizeof v));
    word_text(b, "", w->swapped ? &d->b->d : &d->a->d, w->dx);
}

/* The verdict (diff.h): = by the canonical forms, differs by a witness,
** else ≡ by the search of A against B. */
static void verdict(lad_diff *d, int flags)
{
    lad_verdict *v = &d->v;
    if (d->nosh) {
        v->kind = LAD_DIFFERS;
        v->why = d->nosh;
        return;
    }
    if (lad_canon_equal(d->a, d->b) && !(flags & LAD_DIFF_SEARCH)) {
        v->kind = LAD_SAME;
        return;
    }
    /* a row's witness on which B differs, one the row explains first */
    for (int pass = 0; pass < 2 && !v->w; pass++)
        for (int i = 0; i < d->nw && !v->w; i++)
            if (d->ws[i].found && d->ws[i].b_differs && (pass || d->ws[i].explains))
                v->w = &d->ws[i];
    if (v->w) {
        v->kind = LAD_DIFFERS;
        v->found = 1;
        v->cs = v->w->cs;
        v->da = v->w->da;
        v->db = v->w->db;
        return;
    }
    v->searched = search_direct(&d->pa, &d->pb, d->gen, d->nrandom, v);
    if (v->found) {
        v->kind = LAD_DIFFERS;
        return;
    }
    if (d->a->k != d->b->k) {
        v->kind = LAD_DIFFERS;
        v->why = "K differs: the instructions read different lanes";
        return;
    }
    v->kind = lad_canon_equal(d->a, d->b) ? LAD_SAME : LAD_EQUIV;
}

void lad_diff_run(lad_diff *d, const lad_datapath *a, const lad_datapath *b, int flags,
                  long nrandom)
{
    memset(d, 0, sizeof *d);
    d->nrandom = nrandom > 0 ? nrandom : LAD_DIFF_RANDOM;
    d->a = a;
    d->b = b;
    lad_plan_init(&d->pa, a);
    lad_plan_init(&d->pb, b);
    for (int i = 0; i < lad_nparams; i++) {
        lad_diff_row *r = &d->rows[i];
        r->p = &lad_params[i];
        lad_param_text(r->p, a, r->va, sizeof r->va);
        lad_param_text(r->p, b, r->vb, sizeof r->vb);
        r->differs = strcmp(r->va, r->vb) != 0;
        if (r->differs && r->p->type == LAD_PT_FMT && lad_format_rows_alike(r->p, a, b))
            r->differs = 0, r->same_encoding = 1;
        r->matters = lad_param_matters(r->p, a) || lad_param_matters(r->p, b);
    }
    /* rows that differ in the canonical forms too: only they can change
    ** a word, so only they get a witness search */
    lad_datapath ca = *a, cb = *b;
    lad_canon(&ca);
    lad_canon(&cb);
    for (int i = 0; i < lad_nparams; i++) {
        lad_diff_row *r = &d->rows[i];
        char va[400], vb[400];
        r->in_effect = r->differs && r->p->type != LAD_PT_STR && !r->same_encoding &&
                       strcmp(lad_param_text(r->p, &ca, va, sizeof va),
                              lad_param_text(r->p, &cb, vb, sizeof vb)) != 0;
    }
    d->nosh = no_sharing(a, b);
    d->k = a->k < b->k ? a->k : b->k;
    d->gen = a->k == d->k ? a : b;
    for (int i = 0; i < lad_nparams && !d->nosh; i++)
        if (d->rows[i].in_effect && d->rows[i].matters && d->rows[i].p->cands)
            find_witness(d->rows[i].p, d, &d->ws[d->nw++]);
    /* What no case searched can see is no difference of results. */
    for (int i = 0; i < d->nw; i++)
        if (!d->ws[i].found && d->ws[i].searched)
            d->rows[lad_param_index(d->ws[i].p)].unobservable = 1;
    for (int i = 0; i < lad_nparams; i++)
        d->ndiff += d->rows[i].in_effect && d->rows[i].matters && !d->rows[i].unobservable;
    verdict(d, flags);
}
