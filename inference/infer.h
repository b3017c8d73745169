/*
** Inference: the datapath model's parameters from a run's probe cases.
**
** lad_infer reads every case a run stored (rung by rung), re-derives the
** formats the recipe left unknown from the decode rung, and then fits the
** arithmetic parameters in dependency order (decode -> input conversion ->
** result precision and rounding -> window, alignment, where C enters ->
** passes -> floors -> specials -> block scaling), each by asking which of
** its candidate values makes the model reproduce the rung's raw words, the
** others held at their current values, until a sweep changes nothing. It
** never looks at the model behind the device: only at the words.
**
** Every parameter is reported with the case ids that decided it (those
** whose words one of its alternatives would get wrong). A parameter that no
** case can tell apart keeps its default and says so. The finished model is
** checked against EVERY stored case of the run bit for bit; cases it still
** gets wrong are a conflict, named by rung and case id, never papered over.
**
** The sumtree rung's cases are no part of the fit: they give the summation
** tree (inference/sumtree.h), which any reduction has, an instruction or
** not. When other rungs gave a model, the sumtree cases are checked
** against it like all others, so a model whose passes or lane order
** disagree with the tree is a conflict; a run of the sumtree rung alone
** (a library call, an oracle) gives the tree and no model.
*/
#ifndef LADDER_INFERENCE_INFER_H
#define LADDER_INFERENCE_INFER_H

#include <stddef.h>
#include <stdint.h>
#include "../db/store.h"
#include "../model/datapath.h"
#include "../util/progress.h"

struct lad_answer; /* inference/answer.h */

#define LAD_INFER_MAXPARAMS 48
#define LAD_INFER_MAXIDS 32   /* deciding case ids kept per parameter */
#define LAD_SUMTREE_TEXTMAX 2048 /* a summation tree of LAD_KMAX leaves fits */

typedef struct lad_infer_param {
    char name[32];            /* the lad_datapath field ("window") */
    char value[96];           /* as a model file writes it ("25", "rne") */
    char method[256];         /* how it was decided */
    int64_t ids[LAD_INFER_MAXIDS]; /* deciding cases */
    size_t nids;
    size_t ndecide;           /* deciding cases in all (may exceed nids) */
} lad_infer_param;

typedef struct lad_infer_result {
    lad_datapath dp;          /* the inferred model */
    lad_infer_param params[LAD_INFER_MAXPARAMS];
    int nparams;
    size_t ncases;            /* stored cases of the run */
    size_t nmismatch;         /* of those, the model gets wrong */
    int64_t bad[LAD_INFER_MAXIDS];  /* the first of them */
    char bad_rung[LAD_INFER_MAXIDS][64];
    size_t nbad;
    char conflict[512];       /* "" or which rungs and cases disagree */
    /* With a conflict: the smallest case the model gets wrong (fewest
    ** lanes holding a product, then no addend, then the lowest id), its
    ** words, the device's D and the model's. */
    int64_t smallest;         /* its id; 0: no conflict */
    char smallest_rung[64];
    lad_case smallest_cs;
    int smallest_k;           /* lanes its words hold */
    lad_word_t smallest_d, smallest_got;
    int fitted;               /* 0: the run has only sumtree cases, so no
                                 model was fitted (dp is the recipe's) */
    int sumtree_n;            /* leaves of the summation tree; 0: no sumtree
                                 rung or no tree */
    size_t sumtree_cases;     /* cases of the sumtree rung */
    char sumtree[LAD_SUMTREE_TEXTMAX]; /* the tree (inference/sumtree.h), "" */
} lad_infer_result;

/*
** Infers run's datapath. Returns LAD_OK with *out filled when the model
** reproduces every stored case; LAD_NO when some cases conflict (out->dp is
** the best model found, out->conflict and out->bad say which cases);
** LAD_EDATA for a run without cases or recipe; LAD_EINTERNAL otherwise.
** With store_it, the parameters (and the model's YAML as parameter "model")
** replace older ones in one transaction (commit point "inferences").
** progress (may be NULL) is told each step with pctx: the rung being
** fitted, the rounds of checking, the deciding cases (util/progress.h).
*/
int lad_infer(lad_store *st, int64_t run, int store_it, lad_progress_fn progress, void *pctx,
              lad_infer_result *out, lad_err *err);

/* The same, and with a model that reproduces every case it was fitted to,
** the whole answer into *answer (inference/answer.h): each row decided,
** equivalent, open or not in effect, and the cases that separate what is
** open. answer->nalt is -1 when there is no such model. flags: 0, or
** LAD_INFER_DECIDE for the decide rung's inference: the model the run
** stored last, or the sweep over every case from it, is taken without a
** search from the start when it gives every case, and the
** cases that separate what is open are searched as a device's
** (lad_answer_cases.device: as deep as `ladder diff`, and further when
** that finds none), since they will run on one. The answer takes the
** models far from its own (lad_answer_far: with the further look
** lad_search_apart's): a plain infer always, a decide round when it would
** leave no row open, and then also the search from the start's model. */
#define LAD_INFER_DECIDE 1
int lad_infer_answer(lad_store *st, int64_t run, int store_it, lad_progress_fn progress,
                     void *pctx, lad_infer_result *out, struct lad_answer *answer,
                     int flags, lad_err *err);

/* The cases that decide what run's cases leave open (the decide rung's
** inference: lad_ladder_opts.next of probes/ladder.h, whose type it has):
** the whole answer's next cases into *cases (malloc'd) and the open rows'
** keys into rows, each its own group ("window; d_round": a case target,
** docs/store.md); *n 0 when no row is open. LAD_NO when no model
** reproduces every case. The inference is stored as `ladder infer` stores
** it: the model it finds stays while later cases agree with it and no
** simpler model explains them (docs/inference.md, "The answer").
** progress (may be NULL) is told its steps, as lad_infer's. */
int lad_infer_next(lad_store *st, int64_t run, lad_case **cases, int *n, char *rows,
                   size_t size, lad_progress_fn progress, void *pctx, lad_err *err);

/* The model `ladder infer` stored with run (its last "model" inference,
** the model file's text) into dp. LAD_EDATA when there is none. */
int lad_infer_model(lad_store *st, int64_t run, lad_datapath *dp, lad_err *err);

#endif
