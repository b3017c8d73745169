/*
** ladder diff: how two datapaths differ, parameter by parameter, and a
** concrete input on which each difference shows.
**
**     ladder diff A B [--db FILE] [--json] [-o WITNESS.vec]
**
** A and B are presets, model files, or runs (`run:<id>`, or a bare number:
** the model `ladder infer` stored with that run). The table has one row per
** registry parameter (model/params.h) with both values; a differing row is
** marked '*'. Rows that can change the result of neither datapath
** (lad_param_matters) are left out of the table and named on one line.
**
** Witnesses. For each differing searchable parameter P, A' is A with only P
** set to B's value; cases are searched until A and A' return different
** words, preferring a case on which B differs from A as well (then the
** witness shows A against B directly, and P explains it). Structured cases
** come first (ones, powers of two at every distance from a leading term and
** in every lane, cancellation, subnormals, overflow, NaN and Inf), then
** random ones from probes/gen.h. When P changes nothing given A's other
** parameters, B against B with A's P is searched the same way.
**
** Inputs can only be shared when both datapaths read them alike: the same
** A, B and C formats, scales and sparsity. K may differ for dense unscaled
** datapaths: cases then fill the common lanes, the rest being zero (a lane
** past a datapath's K is not read by it). Otherwise diff says so and lists
** the parameters only.
**
** -o FILE writes the witnesses on which B differs from A as a .vec file
** whose D words are B's: `ladder check --model B FILE` passes and `ladder
** check --model A FILE` fails on every line.
**
** Exit: 0 when no row of the table differs (names included), 1 when one
** does, 2 usage,
** 3 bad model or run, 5 internal.
*/
#include "cli.h"
#include "util/outfile.h"
#include "model/decimal.h"
#include "commands.h"
#include "json.h"
#include "runview.h"
#include "io/modelfile.h"
#include "io/vecwrite.h"
#include "model/params.h"
#include "probes/gen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NSINGLE 12          /* structured cases that are not a series */
#define NSHIFT 72           /* distances 2^-s of the series, s in 0..NSHIFT-1 */
#define NSERIES 6           /* series of structured cases */
#define NDEEP 320           /* leading exponents 0, -2, ... of the deep series,
                               each with a positive and a negative second term */
/* Structured cases of a datapath of K lanes. */
#define NSTRUCT(k) (NSINGLE + (long)NSERIES * NSHIFT * (k) + (long)NDEEP * NSHIFT)
#define NRANDOM (1 << 18)   /* random cases searched after the structured */
#define RANDOM_SEED 1
#define RANDOM_RAW 25       /* percent of raw bit-pattern random cases */
#define NBETTER 65536       /* cases searched past a witness on which B differs
                               for one the parameter alone explains */

static const char usage[] =
    "usage: ladder diff <a> <b> [--db <file>] [--json] [-o <file.vec>]\n"
    "\n"
    "  Prints every datapath parameter of <a> and <b>, marking those that\n"
    "  differ with '*', and for each differing parameter a witness: an\n"
    "  input on which the two datapaths return different words, with the\n"
    "  parameter that explains it. Exit 0 when no row of the table differs,\n"
    "  1 when one does.\n"
    "\n"
    "  <a>, <b>      a preset name, a model file, or a run: run:<id> or a\n"
    "                bare number (the model `ladder infer` stored with it)\n"
    "  --db <file>   the store runs are read from (default ladder.db)\n"
    "  --json        one JSON document instead of the text\n"
    "  -o <file>     write the witnesses on which <b> differs from <a> as a\n"
    "                .vec file whose D words are <b>'s\n";

/* One side of the comparison. */
typedef struct side {
    const char *spec;
    lad_datapath dp;
    lad_plan plan;
} side;

/* A witness of one parameter. */
typedef struct witness {
    const lad_param *p;
    int found;          /* 0: no case in the search showed the parameter */
    int swapped;        /* 1: searched as B against B with A's value */
    int b_differs;      /* B's word differs from A's on the case */
    int explains;       /* the changed datapath gives the other side's word:
                           the parameter alone explains the difference */
    int searched;       /* the search ran (both changed datapaths valid) */
    const char *invalid;/* the datapath with P changed fails its check */
    char why[600];      /* why there is none */
    lad_case cs;
    lad_word_t da, db, dx; /* A's, B's and the changed datapath's words */
} witness;

/* A run (latest, a bare number, run:<id>, run:latest) or a preset or model
** file into dp. */
static int resolve(const char *spec, const char *db, lad_datapath *dp, lad_err *err)
{
    if (!lad_store_is_run_spec(spec)) {
        if (strncmp(spec, "run:", 4) == 0)
            return lad_errf(err, LAD_EUSAGE, "bad run '%s': expected a run id or 'latest'",
                            spec);
        int rc = lad_model_resolve(spec, dp, err);
        return rc == LAD_OK ? lad_datapath_check(dp, err) : rc;
    }
    lad_store *st;
    int rc = lad_store_open(db, LAD_STORE_READONLY, &st, err);
    int64_t run = 0;
    if (rc == LAD_OK)
        rc = lad_store_resolve_run(st, spec, &run, err);
    if (rc == LAD_OK)
        rc = cli_run_model(st, run, dp, err);
    lad_store_close(st);
    return rc == LAD_OK ? lad_datapath_check(dp, err) : rc;
}

static int same_format(const lad_format *x, const lad_format *y)
{
    return x->kind == y->kind && x->width == y->width && x->pad == y->pad &&
           x->sign == y->sign && x->ebits == y->ebits && x->mbits == y->mbits &&
           x->bias == y->bias && x->sub == y->sub && x->inf == y->inf &&
           x->nan == y->nan;
}

/* Why a and b cannot share inputs, or NULL when they can: the parameters
** that say what the instruction reads (neither searched nor identity) must
** be equal, K apart for dense unscaled datapaths. */
static const char *no_sharing(const lad_datapath *a, const lad_datapath *b)
{
    if (!same_format(&a->a, &b->a) || !same_format(&a->b, &b->b) ||
        !same_format(&a->c, &b->c))
        return "the A, B or C formats differ";
    if (a->integer != b->integer)
        return "one is an integer datapath";
    if (a->sparse != b->sparse)
        return "the sparsity differs";
    if (a->scale_block != b->scale_block || !same_format(&a->sa, &b->sa) ||
        !same_format(&a->sb, &b->sb))
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

/* Sets lane j to the product +-2^e, split between A and B so that both are
** normal; 0 when no split is. */
static int term(const lad_datapath *dp, lad_case *cs, int j, int neg, int e)
{
    int alo, ahi, blo, bhi;
    lad_gen_raw_range(&dp->a, &alo, &ahi);
    lad_gen_raw_range(&dp->b, &blo, &bhi);
    int ea = e / 2 < alo ? alo : e / 2 > ahi ? ahi : e / 2;
    int eb = e - ea;
    if (eb < blo || eb > bhi) {
        eb = eb < blo ? blo : bhi;
        ea = e - eb;
        if (ea < alo || ea > ahi)
            return 0;
    }
    cs->a[j] = pow2(&dp->a, neg, ea);
    cs->b[j] = pow2(&dp->b, 0, eb);
    return 1;
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
    /* Series: a leading term (or C) of 1 and one of 2^-s in lane j. */
    i -= NSINGLE;
    int series = (int)(i / ((long)NSHIFT * k));
    int s = (int)(i / k % NSHIFT), j = (int)(i % k);
    if (series >= NSERIES) {
        /* Deep: 2^e +- 2^(e-s) for e far below 1, where anchor floors and
        ** subnormal results decide (2^-149 - 2^-170 is 0 or 2^-149 in f32,
        ** as the small term is dropped or not). */
        i -= (long)NSERIES * NSHIFT * k;
        int e = -2 * (int)(i / (2 * NSHIFT)), neg = (int)(i / NSHIFT) & 1;
        s = (int)(i % NSHIFT);
        return k > 1 && term(dp, cs, 0, 0, e) && term(dp, cs, 1, neg, e - s);
    }
    switch (series) {
    case 0: /* 1 + 2^-s: the window edge, the rounding of the sum */
    case 1: /* 1 - 2^-s: the same rounding below a negative term */
        return j > 0 && term(dp, cs, 0, 0, 0) && term(dp, cs, j, series == 1, -s);
    case 2: /* C = 1 and a term 2^-s: the addend in the window or beside it */
        cs->c = pow2(fc, 0, 0);
        return term(dp, cs, j, 0, -s);
    case 3: /* a term 1 and C = 2^-s */
        cs->c = pow2(fc, 0, -s);
        return term(dp, cs, j, 0, 0);
    case 4: /* 1 - 1 + 2^-s: cancellation, then what is left */
        return j > 1 && term(dp, cs, 0, 0, 0) && term(dp, cs, 1, 1, 0) &&
               term(dp, cs, j, 0, -s);
    case 5: /* C = -1, a term 1 and a term 2^-s: cancellation against C */
        cs->c = pow2(fc, 1, 0);
        return j > 0 && term(dp, cs, 0, 0, 0) && term(dp, cs, j, 0, -s);
    }
    return 0;
}

/* ---- the search ---------------------------------------------------------- */

/* x with p's value taken from from; NULL when that is no valid datapath
** (the check's message in err). */
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
                  const lad_datapath *gen, witness *w)
{
    long nstruct = NSTRUCT(gen->k);
    int structured_ok = !gen->integer && !gen->sparse;
    lad_case cs;
    long stop = nstruct + NRANDOM;
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

/* The witness of p: A against A with B's p, else B against B with A's. */
static void find_witness(const lad_param *p, const side *a, const side *b,
                         const lad_datapath *gen, witness *w)
{
    memset(w, 0, sizeof *w);
    w->p = p;
    lad_datapath x2;
    lad_err err = {0};
    lad_plan px2;
    if (with_param(p, &a->dp, &b->dp, &x2, &err) == LAD_OK) {
        lad_plan_init(&px2, &x2);
        if (search(&a->plan, &px2, &b->plan, gen, w))
            return;
    } else {
        snprintf(w->why, sizeof w->why, "%s", err.msg);
        lad_err_clear(&err);
    }
    if (with_param(p, &b->dp, &a->dp, &x2, &err) != LAD_OK) {
        if (!w->why[0])
            snprintf(w->why, sizeof w->why, "%s", err.msg);
        return;
    }
    lad_plan_init(&px2, &x2);
    w->searched = 1;
    w->why[0] = 0;
    if (search(&b->plan, &px2, &a->plan, gen, w)) {
        /* found as B's side: put the words back in A, B order */
        lad_word_t t = w->da;
        w->da = w->db;
        w->db = t;
        w->swapped = 1;
        return;
    }
    if (!w->why[0])
        snprintf(w->why, sizeof w->why, "no case of %ld showed it%s",
                 NSTRUCT(gen->k) + NRANDOM, a->dp.k != b->dp.k ? " on the common lanes" : "");
}

/* ---- output -------------------------------------------------------------- */

static void print_word(const char *who, const lad_format *f, lad_word_t w)
{
    char hex[17], val[1200];
    lad_vecline_hex(f, w, hex);
    printf("    %-3s %s  %s\n", who, hex, lad_value_text_pow2(f, w, val, sizeof val));
}

static void json_word(const char *key, const lad_format *f, lad_word_t w)
{
    char hex[17], val[1100];
    lad_vecline_hex(f, w, hex);
    printf(", \"%s\": {\"word\": \"%s\", \"value\": \"%s\"}", key, hex,
           lad_value_text(f, w, val, sizeof val));
}

/* What a parameter row says of a and b. */
typedef struct row {
    const lad_param *p;
    char va[400], vb[400];
    int differs, matters;
    int unobservable;   /* differs, but no case searched showed it */
    int same_encoding;  /* a format under two names: not a difference */
} row;

/* What the witness of w shows, in words. X is the side changed, Y the other. */
static const char *witness_says(const witness *w, char *buf, size_t size)
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

static void print_text(const side *a, const side *b, const row *rows, int k,
                       const char *nosh, const witness *ws, int nw)
{
    printf("diff %s %s\n", a->spec, b->spec);
    printf("  %-16s %-28s %s\n", "PARAMETER", "A", "B");
    for (int i = 0; i < lad_nparams; i++)
        if (rows[i].matters)
            printf("%c %-16s %-28s %s\n",
                   rows[i].unobservable ? '~' : rows[i].differs ? '*' : ' ', rows[i].p->key,
                   rows[i].va, rows[i].vb);
    int first = 1;
    for (int i = 0; i < lad_nparams; i++)
        if (!rows[i].matters) {
            printf("%s %s", first ? "in effect for neither:" : "", rows[i].p->key);
            first = 0;
        }
    if (!first)
        putchar('\n');
    for (int i = 0; i < lad_nparams; i++)
        if (rows[i].matters && rows[i].same_encoding)
            printf("%s: %s and %s are one encoding under two names\n", rows[i].p->key,
                   rows[i].va, rows[i].vb);
    first = 1;
    for (int i = 0; i < lad_nparams; i++)
        if (rows[i].unobservable) {
            printf("%s %s", first ? "unobservable ('~': differs, but no case searched "
                                    "shows it):" : "", rows[i].p->key);
            first = 0;
        }
    if (!first)
        putchar('\n');
    if (nosh) {
        printf("no witnesses: the instructions cannot share inputs (%s)\n", nosh);
        return;
    }
    if (a->dp.k != b->dp.k)
        printf("K differs: cases fill the first %d lanes, the rest are zero\n", k);
    for (int i = 0; i < nw; i++) {
        const witness *w = &ws[i];
        if (!w->found) {
            printf("witness %s: none%s (%s)\n", w->p->key, w->searched ? ", unobservable" : "",
                   w->why);
            continue;
        }
        char line[LAD_VECLINE_MAX];
        if (lad_vecline_format(a->dp.k == k ? &a->dp : &b->dp, &w->cs, NULL, line, sizeof line) < 0)
            line[0] = 0;
        char says[300];
        printf("witness %s: %s\n", w->p->key, witness_says(w, says, sizeof says));
        printf("    in  %s\n", line);
        print_word("A", &a->dp.d, w->da);
        print_word("B", &b->dp.d, w->db);
        char v[400];
        printf("    %s with %s %s:\n", w->swapped ? "B" : "A", w->p->key,
               lad_param_text(w->p, w->swapped ? &a->dp : &b->dp, v, sizeof v));
        print_word("", w->swapped ? &b->dp.d : &a->dp.d, w->dx);
    }
}

static void print_json(const side *a, const side *b, const row *rows, int k,
                       const char *nosh, const witness *ws, int nw)
{
    printf("{\"a\": ");
    cli_json_str(stdout, a->spec);
    printf(", \"b\": ");
    cli_json_str(stdout, b->spec);
    printf(", \"shared_inputs\": %s, \"k\": %d,\n \"parameters\": [", nosh ? "false" : "true", k);
    for (int i = 0; i < lad_nparams; i++) {
        printf("%s{\"key\": \"%s\", \"a\": ", i ? ",\n  " : "", rows[i].p->key);
        cli_json_str(stdout, rows[i].va);
        printf(", \"b\": ");
        cli_json_str(stdout, rows[i].vb);
        printf(", \"differs\": %s, \"matters\": %s, \"unobservable\": %s, "
               "\"same_encoding\": %s}", rows[i].differs ? "true" : "false",
               rows[i].matters ? "true" : "false", rows[i].unobservable ? "true" : "false",
               rows[i].same_encoding ? "true" : "false");
    }
    printf("],\n \"witnesses\": [");
    for (int i = 0; i < nw; i++) {
        const witness *w = &ws[i];
        printf("%s{\"parameter\": \"%s\", \"found\": %s", i ? ",\n  " : "", w->p->key,
               w->found ? "true" : "false");
        if (!w->found) {
            printf(", \"unobservable\": %s, \"why\": ", w->searched ? "true" : "false");
            cli_json_str(stdout, w->why);
            putchar('}');
            continue;
        }
        char line[LAD_VECLINE_MAX];
        if (lad_vecline_format(a->dp.k == k ? &a->dp : &b->dp, &w->cs, NULL, line, sizeof line) < 0)
            line[0] = 0;
        char says[300];
        printf(", \"input\": \"%s\", \"b_differs\": %s, \"explains\": %s, \"changed\": "
               "\"%s\", \"says\": ", line, w->b_differs ? "true" : "false",
               w->explains ? "true" : "false", w->swapped ? "b" : "a");
        cli_json_str(stdout, witness_says(w, says, sizeof says));
        json_word("a_result", &a->dp.d, w->da);
        json_word("b_result", &b->dp.d, w->db);
        json_word("changed_result", w->swapped ? &b->dp.d : &a->dp.d, w->dx);
        putchar('}');
    }
    printf("]");
    if (nosh) {
        printf(", \"no_witnesses\": ");
        cli_json_str(stdout, nosh);
    }
    printf("}\n");
}

/* The witnesses on which B differs from A, D = B's word. */
static int write_vec(const char *path, const side *a, const side *b, int k,
                     const witness *ws, int nw, lad_err *err)
{
    const lad_datapath *gen = a->dp.k == k ? &a->dp : &b->dp;
    lad_vechdr h;
    lad_vechdr_of(&b->dp, &h);
    h.k = k;
    h.cases = 0;
    for (int i = 0; i < nw; i++)
        h.cases += ws[i].found && ws[i].b_differs;
    snprintf(h.source, sizeof h.source, "ladder diff: D is %.100s's word; %.100s's differs",
             b->dp.name, a->dp.name);
    lad_outfile o;
    int rc = lad_outfile_open(&o, path, err);
    if (rc != LAD_OK)
        return rc;
    FILE *f = o.f;
    int bad = lad_vecfile_write_header(f, &h);
    for (int i = 0; i < nw && !bad; i++)
        if (ws[i].found && ws[i].b_differs)
            bad = fprintf(f, "# %s\n", ws[i].p->key) < 0 ||
                  lad_vecfile_write_case(f, gen, k, &ws[i].cs, ws[i].db);
    if (bad) {
        lad_outfile_abort(&o);
        return lad_errf(err, LAD_EDATA, "cannot write '%s'", path);
    }
    return lad_outfile_commit(&o, err);
}

int cmd_diff(int argc, char **argv)
{
    const char *db = LAD_STORE_DEFAULT, *json = NULL, *outpath = NULL;
    cli_opt opts[] = {
        {"db", 0, 1, &db},
        {"json", 0, 0, &json},
        {"output", 'o', 1, &outpath},
        {NULL, 0, 0, NULL},
    };
    char *pos[2];
    int npos;
    int rc = cli_parse(argc, argv, opts, usage, pos, &npos, 2, 2,
                      "diff needs two models; see 'ladder diff --help'");
    if (rc)
        return rc == CLI_HELP ? 0 : rc;
    if ((rc = cli_output_ok(outpath, "the store", db)) != LAD_OK ||
        (rc = cli_output_ok(outpath, "the model file", pos[0])) != LAD_OK ||
        (rc = cli_output_ok(outpath, "the model file", pos[1])) != LAD_OK)
        return rc;
    static side a, b;
    lad_err err = {0};
    a.spec = pos[0];
    b.spec = pos[1];
    if ((rc = resolve(a.spec, db, &a.dp, &err)) != LAD_OK ||
        (rc = resolve(b.spec, db, &b.dp, &err)) != LAD_OK)
        return cli_report(&err);
    lad_plan_init(&a.plan, &a.dp);
    lad_plan_init(&b.plan, &b.dp);

    static row rows[LAD_NPARAMS_MAX];
    for (int i = 0; i < lad_nparams; i++) {
        row *r = &rows[i];
        r->p = &lad_params[i];
        lad_param_text(r->p, &a.dp, r->va, sizeof r->va);
        lad_param_text(r->p, &b.dp, r->vb, sizeof r->vb);
        r->differs = strcmp(r->va, r->vb) != 0;
        if (r->differs && r->p->type == LAD_PT_FMT &&
            same_format((const lad_format *)((const char *)&a.dp + r->p->off),
                        (const lad_format *)((const char *)&b.dp + r->p->off)))
            r->differs = 0, r->same_encoding = 1;
        r->matters = lad_param_matters(r->p, &a.dp) || lad_param_matters(r->p, &b.dp);
    }
    const char *nosh = no_sharing(&a.dp, &b.dp);
    int k = a.dp.k < b.dp.k ? a.dp.k : b.dp.k;
    const lad_datapath *gen = a.dp.k == k ? &a.dp : &b.dp;
    static witness ws[LAD_NPARAMS_MAX];
    int nw = 0;
    for (int i = 0; i < lad_nparams && !nosh; i++)
        if (rows[i].differs && rows[i].matters && rows[i].p->cands)
            find_witness(rows[i].p, &a, &b, gen, &ws[nw++]);
    /* What no case searched can see is no difference of results. */
    for (int i = 0; i < nw; i++)
        if (!ws[i].found && ws[i].searched)
            rows[lad_param_index(ws[i].p)].unobservable = 1;
    int ndiff = 0;
    for (int i = 0; i < lad_nparams; i++)
        ndiff += rows[i].differs && rows[i].matters && !rows[i].unobservable;

    if (json)
        print_json(&a, &b, rows, k, nosh, ws, nw);
    else
        print_text(&a, &b, rows, k, nosh, ws, nw);
    if (outpath && nosh)
        return cli_error(LAD_EDATA, "no witnesses to write to '%s': the instructions "
                         "cannot share inputs (%s)", outpath, nosh);
    if (outpath && (rc = write_vec(outpath, &a, &b, k, ws, nw, &err)) != LAD_OK)
        return cli_report(&err);
    if (fflush(stdout) != 0)
        return cli_error(LAD_EINTERNAL, "cannot write the diff");
    return ndiff ? LAD_NO : LAD_OK;
}
