/*
** The whole answer of inference: what the stored cases say of every row of
** a model that reproduces them (docs/inference.md, "The answer").
**
** Given the model M inference found and the cases it reproduces, each row
** of the registry is
**
**   fixed          the instruction's own (names, formats, K, scales): the
**                  recipe or the file's header gives it;
**   not in effect  for M's shape (model/params.h, lad_param_in_effect):
**                  it changes no word, M holds its default;
**   decided        every other candidate value, alone or with another row
**                  changed with it, misses some stored case;
**   equivalent     some other values reproduce every stored case too, but
**                  no case of the witness search separates them from M
**                  (probes/diff.h): up to equivalence, decided;
**   open           some other values reproduce every stored case, and a
**                  case the search found separates each from M: the rows'
**                  next cases (lad_answer.next) decide them.
**
** The values tried are the row's candidates (lad_param_cands) of M's
** instruction, one row at a time from M; then each value that alone
** misses a stored case (of a row of more than 16 candidates, only the two
** either side of M's and `none`) with every value of every other row in
** effect (the second row may repair what the first broke), up to
** LAD_ANSWER_PAIRS pairs of values per pair of rows; the values that bound
** left untried are counted (lad_answer.unexamined). Each model the caller
** found apart (lad_answer_cases.others) is one more alternative, with every
** row it changes. A value is consistent
** when its datapath passes lad_datapath_check and gives every stored D
** word; its canonical form equal to M's is M itself and is not listed.
** The separating search runs structured cases, then random ones, a block
** at a time, until every alternative is separated or LAD_ANSWER_EVALS
** model evaluations are spent (shared by the alternatives: fifty of them,
** most equivalent, leave each about 40,000 cases). Where the cases it
** finds will run on a device (lad_answer_cases.device) it goes as deep as
** `ladder diff`, and when those evaluations separate no alternative, it
** looks further, to LAD_ANSWER_FURTHER.
*/
#ifndef LADDER_INFERENCE_ANSWER_H
#define LADDER_INFERENCE_ANSWER_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include "../model/datapath.h"
#include "../model/params.h"
#include "../util/progress.h"
#include "packed.h"

enum { LAD_ROW_FIXED, LAD_ROW_OFF, LAD_ROW_DECIDED, LAD_ROW_EQUIV, LAD_ROW_OPEN };
extern const char *const lad_row_status_names[5]; /* "fixed", "not in effect", ... */

#define LAD_ANSWER_ALTS 512     /* consistent models kept in all */
#define LAD_ANSWER_PAIRS 4096   /* value pairs tried per pair of rows */
#define LAD_ANSWER_RANDOM 16384 /* random cases a separating search runs */
#define LAD_ANSWER_DEEP (1L << 18) /* ... when the cases found run on a device */
#define LAD_ANSWER_EVALS (1L << 21) /* model evaluations it spends at most */
#define LAD_ANSWER_FURTHER (1L << 23) /* ... on a device, when those separate none */
#define LAD_ANSWER_APART_EVALS (1L << 20) /* lad_answer_add's search, never further */

/* A model other than M that reproduces every stored case. */
typedef struct lad_answer_alt {
    lad_datapath dp;
    int row1, row2;         /* the rows changed from M (row2 -1: one); of
                               a model apart, its first two */
    uint64_t rows;          /* every row changed (bit i: lad_params[i]) */
    int apart;              /* one of lad_answer_cases.others: rows away */
    int64_t v1, v2;         /* their value codes (lad_param_get against M) */
    int separated;          /* a case separates it from M */
    int next;               /* that case in lad_answer.next, or -1 */
} lad_answer_alt;

typedef struct lad_answer_row {
    int status;             /* LAD_ROW_* */
    int nalt;               /* alternatives (alts) that change this row */
} lad_answer_row;

typedef struct lad_answer {
    lad_datapath model;     /* M, canonical */
    lad_answer_row rows[LAD_NPARAMS_MAX]; /* lad_params order */
    lad_answer_alt alts[LAD_ANSWER_ALTS];
    int nalt;
    int alts_capped;        /* more consistent models than LAD_ANSWER_ALTS */
    long unexamined;        /* value pairs the bound left untried */
    lad_case next[LAD_ANSWER_ALTS]; /* cases separating an alternative */
    int nnext;
    long searched;          /* cases the separating searches ran */
    int ndecided, nequiv, nopen, noff;
} lad_answer;

/* The stored cases, as an array or packed (one of cs, pk), with their D
** words. */
typedef struct lad_answer_cases {
    const lad_case *cs;
    const lad_packed *pk;
    const lad_word_t *d;
    size_t n;
    int device;             /* the cases found will run on a device: the
                               search runs LAD_ANSWER_DEEP random cases
                               (else LAD_ANSWER_RANDOM) and may look
                               further (LAD_ANSWER_FURTHER evaluations) */
    lad_progress_fn progress; /* may be NULL: "the rows the cases leave
                               open" (rows tried, of twice the rows), then
                               "the cases that separate them" (model
                               evaluations, of the budget under way) */
    void *pctx;
    const lad_datapath *others; /* nothers models found apart from M (the
                               search from the start, other structures of
                               the sum: lad_search_apart), each an
                               alternative however many rows it changes
                               when it gives every stored case */
    int nothers;
} lad_answer_cases;

/* Fills a for model m, which must pass lad_datapath_check and reproduce
** every case (it is taken canonical); the values tried are the candidates
** of m's instruction. Returns LAD_OK, or LAD_EINTERNAL when out of memory
** (err says so). About a model evaluation per case per consistent value,
** a few per value that misses, then the search's cases, each made once,
** on m and every alternative not yet separated (at most LAD_ANSWER_EVALS
** evaluations, or LAD_ANSWER_FURTHER for a device). */
int lad_answer_find(const lad_datapath *m, const lad_answer_cases *c, lad_answer *a,
                    lad_err *err);

/* Whether a device's answer looks further (LADDER_ANSWER_FURTHER not 0):
** more evaluations where the first separate nothing, and the decide
** rung's models far from M (inference/infer.c, lad_search_apart). */
int lad_answer_further(void);

/* Adds c->others to a, an answer lad_answer_find filled from the same
** cases: each one the answer does not have yet becomes an alternative (as
** lad_answer_find records them), and only those new alternatives are
** searched for a separating case, within LAD_ANSWER_APART_EVALS
** evaluations (the others keep theirs, or stay unseparated); the rows'
** statuses count them all. Returns LAD_OK or LAD_EINTERNAL. */
int lad_answer_add(const lad_answer_cases *c, lad_answer *a, lad_err *err);

/*
** The models far from a->model that give every case of c, each one more
** alternative of a (lad_answer_add), however many rows it changes: the
** nextra models of extra (up to LAD_ANSWER_EXTRA: a search's other
** model), then, with the further look (lad_answer_further), up to
** LAD_APART_MAX from lad_search_apart (inference/search.h; start: the
** instruction as declared), whose pairs of rows around the model do not
** reach (random draw 101; a second level and a cut where the model sums
** exactly, which 5,000 cases of a vector file often leave open). That
** search reads at most LAD_ANSWER_FAR_CASES of c's cases, spread evenly,
** so a packed file stays packed; every model it finds must still give
** every case. c->progress gets "the models far apart", then
** lad_answer_add's steps. Returns LAD_OK or LAD_EINTERNAL.
*/
#define LAD_ANSWER_EXTRA 1
#define LAD_ANSWER_FAR_CASES 65536
int lad_answer_far(const lad_datapath *start, const lad_answer_cases *c,
                   const lad_datapath *extra, int nextra, lad_answer *a, lad_err *err);

/* The values of row i that alternatives of a changing that row alone
** take, those a case separates from the model (separated 1) or those none
** does (0), as a model file writes them: the model's own first, then the
** others in order, runs of consecutive integers as a..b, separated by '|',
** into buf. (Alternatives that change two rows are a->alts with row2 >= 0.) */
const char *lad_answer_values(const lad_answer *a, int i, int separated, char *buf,
                              size_t size);

/* The answer's lines, as fit and infer print them and infer stores them
** (docs/commands/fit.md, "Output"). */
void lad_answer_print(FILE *f, const lad_answer *a);

/* Row i's comment in a model file written from the answer (io/modelfile.h,
** lad_model_write_notes) into buf: "open: ...", "equivalent: ...", "not in
** effect ..."; NULL for a decided or fixed row. */
const char *lad_answer_note(const lad_answer *a, int i, char *buf, size_t size);

/* The model file of the answer's model (canonical), each row that is not
** decided with its note (lad_answer_note), and evidence; a NULL answer, or
** one without a model (nalt -1), gives lad_model_write(dp, evidence).
** malloc'd; NULL when out of memory. */
char *lad_answer_model_write(const lad_answer *a, const lad_datapath *dp, const char *evidence);

/* "rows: 19 decided, 1 open, 2 equivalent, 18 not in effect; open: window"
** into buf. */
const char *lad_answer_summary(const lad_answer *a, char *buf, size_t size);

#endif
