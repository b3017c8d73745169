/*
** The model search: finds the parameters of the datapath model that
** reproduce a set of (case, D) pairs, without a device.
**
** The caller fixes what the instruction is (formats, K, scales, sparsity:
** the `base` datapath); the search varies the arithmetic, one dimension per
** searchable row of the parameter registry (model/params.h), over the
** row's candidate values, skipping a dimension while the row says it
** cannot matter to the model at hand. Candidates, the "can it matter"
** rules and the scoring are one machinery with two strategies:
**
**   lad_search, the beam (`ladder fit` after the staged sweep, and the
**   rescue step of the staged sweep): a grid over the dimensions that
**   interact most (window, pass, roundings, c_anchor, chain, c_last, and a
**   narrower output when every D word ends in zero bits), then a beam of
**   the best models improved one dimension at a time, all on a small
**   active set of cases; the survivors run on every case, the cases they
**   miss join the active set, and the loop repeats until a model
**   reproduces everything or nothing new is learned. A seed that already
**   reproduces every case skips all that. Models are ranked by mismatches
**   and, to guide the search, by how far the wrong words are (the bit
**   length of their distance in ulps); equal scores by complexity, then by
**   the values in key order. Finally the models whose mismatch count
**   equals the best's are explored one change at a time; a parameter that
**   takes several values among them is "undetermined" by the data. The
**   beam does not vary d (a narrower result is acc cut with d_via_acc) or
**   nan (the data's most frequent NaN word is taken).
**
**   lad_search_staged, the staged sweep (`ladder infer`, and `ladder fit`
**   first): the cases come in stages (a run's rungs, in the order it
**   climbed them); at each stage the groups of parameters that stage's
**   cases were designed for are searched jointly first, then every group
**   in dependency order, until a sweep changes nothing. A candidate
**   replaces the current value only when it reproduces strictly more
**   cases, so a parameter no case can see keeps its value. A stage whose
**   cases target nothing (the random rung, a vector file) checks the
**   model instead: the cases it misses join a few at a time. Then the
**   stages' groups again, the restarts from another structure of the sum,
**   the beam from the model found, and Occam (a parameter whose default
**   explains as much takes it). docs/inference.md tells it in full.
**
** Cost: a few hundred thousand model evaluations for 5,000 cases (a second
** or two on one core); nothing is allocated per case.
*/
#ifndef LADDER_INFERENCE_SEARCH_H
#define LADDER_INFERENCE_SEARCH_H

#include <stddef.h>
#include <stdint.h>
#include "../model/datapath.h"
#include "../model/params.h"
#include "../util/progress.h"
#include "packed.h"

#define LAD_SEARCH_KEEP 8    /* best models returned */

typedef struct lad_search_opts {
    size_t prefix;           /* cases of the first active set (0: 128) */
    int beam;                /* models kept per round, 1..64 (0: 16) */
    int max_equal;           /* models explored for "undetermined" (0: 200) */
    uint64_t fixed;          /* bit i set: registry row i keeps base's value */
    const lad_datapath *seeds; /* extra starting models (same formats, K) */
    int nseeds;
} lad_search_opts;

typedef struct lad_search_model {
    lad_datapath dp;         /* the model (base with the dimensions set) */
    uint64_t mismatches;     /* over every case */
} lad_search_model;

typedef struct lad_search_result {
    lad_search_model best[LAD_SEARCH_KEEP]; /* fewest mismatches first */
    int nbest;
    /* The candidate value codes of each registry row, and which of them
    ** some model with the best's mismatch count takes (undet[i][j] for
    ** vals[i][j]). A row that matters to none of the explored models, or
    ** takes one value among them, has nundet[i] == 0. */
    int nvals[LAD_NPARAMS_MAX];
    int64_t vals[LAD_NPARAMS_MAX][LAD_PARAM_MAXCANDS];
    unsigned char undet[LAD_NPARAMS_MAX][LAD_PARAM_MAXCANDS];
    int nundet[LAD_NPARAMS_MAX];
    lad_datapath base;       /* the base the codes are read against */
    int nequal;              /* models found with the best's count */
    int equal_capped;        /* 1: exploration stopped at max_equal */
    uint64_t evals;          /* model evaluations spent */
    size_t active;           /* cases in the final active set */
} lad_search_result;

/*
** The beam: searches for models of base's instruction reproducing d[i] for
** cs[i], i < n (n >= 1). base must pass lad_datapath_check. Returns LAD_OK
** with res filled (res->best[0] is the answer), LAD_EUSAGE for bad options,
** LAD_EDATA when base is unusable, LAD_EINTERNAL when out of memory.
*/
int lad_search(const lad_datapath *base, const lad_case *cs, const lad_word_t *d,
               size_t n, const lad_search_opts *opts, lad_search_result *res,
               lad_err *err);

/* The same on the cases of pk (d[i] the D word of case i < pk->n), which
** take a fraction of the memory (inference/packed.h). */
int lad_search_packed(const lad_datapath *base, const lad_packed *pk, const lad_word_t *d,
                      const lad_search_opts *opts, lad_search_result *res, lad_err *err);

/* One stage of the staged sweep: the cases [0, end) take part (ends
** increase, the last is n); own lists the joint groups the stage's newest
** cases were designed for, each a string of registry keys separated by
** spaces ("window scale_floor"), NULL-terminated; NULL: none. Every other
** group, in dependency order, is a LAD_SWEEP line of model/params.def. A
** stage with no group of its own (its cases target nothing: the random
** rung, a vector file) checks the model: only the cases it misses are
** fitted (inference/sweep.c). */
typedef struct lad_stage {
    size_t end;
    const char *const *own;
    const char *name;  /* for progress: the rung ("internal") */
} lad_stage;

/*
** The staged sweep from start (the instruction as declared, every
** parameter at its default) over the cases: the best model into *out.
** groups_only (for cases already proven to fit no model): the groups'
** sweeps alone, none of the restarts, the beam or the moves after them,
** which only look for a model that explains every case. Returns LAD_OK (whether or not the model reproduces every case: count
** with lad_search_count), LAD_EDATA for an unusable start or a group that
** names no registry row, LAD_EINTERNAL when out of memory.
*/
int lad_search_staged(const lad_datapath *start, const lad_case *cs,
                      const lad_word_t *d, size_t n, const lad_stage *stages,
                      size_t nstages, int groups_only, lad_progress_fn progress,
                      void *pctx, lad_datapath *out, lad_err *err);

/*
** Models far from dp that also reproduce every case, which the answer's
** pairs of rows around dp do not reach (inference/answer.h): first each
** other structure of the sum as it stands (the other shapes: exact, tree,
** one window; the other pairs of levels: window2, even_odd), the rows of
** the old structure giving way, when it misses no case, up to max / 2;
** then random walks, from dp and from those, through the models that miss
** no case, each move one joint group of params.def's LAD_SWEEP lines set
** at once (random draw 101: a second level that rounds down under a cut
** of 35 bits, where dp sums exactly, is six rows away). Canonical, neither
** dp nor each other; up to max into out (start: the instruction as
** declared). progress, when not NULL, gets step "the models far apart"
** (each structure, then each walk). Returns how many, or -1 (err set) when
** out of memory.
*/
#define LAD_APART_MAX 8  /* models the answer asks for (lad_answer_far) */
int lad_search_apart(const lad_datapath *start, const lad_datapath *dp, const lad_case *cs,
                     const lad_word_t *d, size_t n, lad_datapath *out, int max,
                     lad_progress_fn progress, void *pctx, lad_err *err);

/*
** Which cases decide registry row p of model dp: marks hit[i] = 1 (hit has
** n bytes, zeroed by the caller) for each case some alternative candidate
** value of p gets wrong. Rows with many candidates (more than 16) try only
** the values next to dp's and `none`; *nearest is set to 1 then. base gives
** the declared formats. Returns the number of alternatives tried (0 when p
** has none), or -1 when out of memory.
*/
int lad_search_decide(const lad_datapath *dp, const lad_datapath *base,
                      const lad_param *p, const lad_case *cs,
                      const lad_word_t *d, size_t n, unsigned char *hit,
                      int *nearest);

/* Counts the mismatches of dp on the cases (every one). */
uint64_t lad_search_count(const lad_datapath *dp, const lad_case *cs,
                          const lad_word_t *d, size_t n);

/*
** Writes the undetermined parameters of res as "key: v1|v2|..." (runs of
** consecutive integers as "lo..hi"), one per line, into buf. Returns the
** number of undetermined parameters (0: the data determines every
** parameter that matters).
*/
int lad_search_undetermined(const lad_search_result *res, char *buf,
                            size_t size);

#endif
