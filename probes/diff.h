/*
** How two datapaths differ: every registry parameter (model/params.h) with
** both values, and for each differing parameter a witness, a concrete
** input on which the two return different words. `ladder diff` prints it;
** the survey page (report/) shows the witnesses of each datapath whose
** inferred model is not its preset.
**
** Witnesses. For each searchable parameter P that differs in the canonical
** forms (lad_canon: a row not in effect changes no word), A' is A with only P
** set to B's value; cases are searched until A and A' return different
** words, preferring a case on which B differs from A as well (then the
** witness shows A against B directly, and P explains it). Structured cases
** come first (ones, powers of two at every distance from a leading term and
** in every lane, ties of the rounding that follows the sum, cancellation,
** subnormals, overflow, NaN and Inf), then random ones from probes/gen.h.
** When P changes nothing given A's other parameters, B against B with A's
** P is searched the same way.
**
** Inputs can only be shared when both datapaths read them alike: the same
** A, B and C formats, scales and sparsity. K may differ for dense unscaled
** datapaths: cases then fill the common lanes, the rest being zero (a lane
** past a datapath's K is not read by it). Otherwise there are no
** witnesses, and lad_diff.nosh says why.
**
** A search evaluates up to NSTRUCT(K) + 2^18 cases (about 3 x 10^5 for
** K = 32) per parameter, twice when the first side shows nothing: seconds
** for a parameter no case shows, far less for one that shows at once. The
** verdict (below) searches A against B once more over the same cases when
** no row's witness shows B differing from A.
*/
#ifndef LADDER_PROBES_DIFF_H
#define LADDER_PROBES_DIFF_H

#include <stddef.h>

#include "../model/datapath.h"
#include "../model/params.h"
#include "../util/buf.h"

/* The witness of one parameter. */
typedef struct lad_witness {
    const lad_param *p;
    int found;          /* 0: no case in the search showed the parameter */
    int swapped;        /* 1: searched as B against B with A's value */
    int b_differs;      /* B's word differs from A's on the case */
    int explains;       /* the changed datapath gives the other side's word:
                           the parameter alone explains the difference */
    int searched;       /* the search ran (both changed datapaths valid) */
    char why[600];      /* why there is none */
    lad_case cs;        /* the input: K lanes of lad_diff.gen, the rest 0 */
    lad_word_t da, db, dx; /* A's, B's and the changed datapath's words */
} lad_witness;

/* What a parameter row says of A and B. */
typedef struct lad_diff_row {
    const lad_param *p;
    char va[400], vb[400]; /* the values as a model file writes them */
    int differs, matters;
    int in_effect;      /* differs in the canonical forms too */
    int unobservable;   /* differs, but no case searched showed it */
    int same_encoding;  /* a format under two names: not a difference */
} lad_diff_row;

/*
** The verdict: what A and B compute, compared (docs/model.md,
** "Equivalence").
**
**   =        the canonical forms (lad_canon) are identical, row by row;
**   ≡        they differ in rows, but no case searched separates them: the
**            rows are either not in effect for the shape (they differ as
**            given, not in canonical form) or decided by search (every
**            structured case and nrandom random ones, run on both);
**   differs  a case on which A and B return different words (a witness),
**            or inputs they cannot share (different A, B or C formats,
**            scales, sparsity or K), which no case can compare.
*/

typedef struct lad_verdict {
    int kind;           /* LAD_SAME, LAD_EQUIV or LAD_DIFFERS (params.h) */
    long searched;      /* cases run on both without a difference (≡), or
                           before the witness (differs); 0 for = */
    const char *why;    /* differs without a witness: why; else NULL */
    const lad_witness *w; /* differs: the row witness on which B differs
                           from A, the row explaining it; else NULL */
    int found;          /* differs: a case (the row's, or the direct
                           search's when no single row shows it) */
    lad_case cs;        /* that case, lad_diff.k lanes */
    lad_word_t da, db;  /* A's and B's words on it */
} lad_verdict;

/* The comparison of two datapaths. About 230 KB: allocate it, do not put
** it on a small stack. */
typedef struct lad_diff {
    const lad_datapath *a, *b;  /* the caller's; unchanged while d is used */
    lad_plan pa, pb;
    lad_diff_row rows[LAD_NPARAMS_MAX]; /* lad_params order, lad_nparams of them */
    const char *nosh;   /* why the two cannot share inputs (no witnesses),
                           or NULL */
    int k;              /* lanes a witness fills: the smaller K */
    const lad_datapath *gen; /* the side of k lanes, the cases' datapath */
    lad_witness ws[LAD_NPARAMS_MAX]; /* one per differing searchable row */
    int nw;
    long nrandom;       /* random cases a search runs after the structured */
    int ndiff;          /* rows in effect that differ, matter and are
                           observable */
    lad_verdict v;
} lad_diff;

/* Fills d with the rows of a against b, the witness of every row that
** differs, matters to one of them and is searchable, and the verdict. a
** and b must have passed lad_datapath_check and outlive d. flags: 0, or
** LAD_DIFF_SEARCH to search A against B even when the canonical forms are
** identical (a check of the canonical form: a case found is `differs`).
** nrandom: the random cases each search runs after the structured ones
** (0: LAD_DIFF_RANDOM). */
#define LAD_DIFF_SEARCH 1
#define LAD_DIFF_RANDOM (1L << 18)
void lad_diff_run(lad_diff *d, const lad_datapath *a, const lad_datapath *b, int flags,
                  long nrandom);

/* The cases the searches run for datapaths of gen's inputs, one by one:
** lad_diff_ncases of them, case i into cs by lad_diff_case (0 when i names
** no case for gen: a structured case its formats cannot hold). */
long lad_diff_ncases(const lad_datapath *gen, long nrandom);
int lad_diff_case(const lad_datapath *gen, long i, lad_case *cs);

/* Runs a and b, which must share inputs, on the structured cases of the
** search and nrandom random ones until they return different words;
** returns the cases run, with v->found and v's case, words set when they
** differ (v is cleared first). */
long lad_diff_search(const lad_datapath *a, const lad_datapath *b, long nrandom,
                     lad_verdict *v);

/* The verdict in one line, its symbol and why ("≡ (not in effect for this
** shape: prod_inf; tree: no case of 300012 separates A and B)"), without
** the witness's words, appended to b. */
void lad_verdict_text(const lad_diff *d, lad_buf *b);
/* The same without the symbol and the parentheses. */
void lad_verdict_why(const lad_diff *d, lad_buf *b);

/* The rows d's verdict rests on, space-separated, into b: those that
** differ in canonical form (differs, ≡ by search) or as given only (≡
** not in effect). */
void lad_verdict_rows(const lad_diff *d, lad_buf *b);

/* What the witness w shows, in words, into buf; returns buf. */
const char *lad_witness_says(const lad_witness *w, char *buf, size_t size);

/* Appends w of d to b as `ladder diff` prints it: "witness KEY: what it
** shows", then the input as a .vec line, A's and B's D words (hex and
** exact value) and the changed datapath's word; or one line saying why
** there is none. */
void lad_witness_text(const lad_diff *d, const lad_witness *w, lad_buf *b);

#endif
