/*
** The probe ladder: climbs the rungs of a recipe on a device, one unknown
** at a time, and writes every case it ran, with its raw D word, and what
** each rung observed into the store (docs/probes.md).
**
** Each rung lives in its own file, probes/rung_<name>.c, and exports
**
**     int lad_rung_<name>(lad_probe *p);
**
** A rung builds its cases with the exact encoder (probes/case.h), hands
** them to lad_probe_eval (which runs them on the device and stores them
** with the rung's name and a label per case), records what it saw with
** lad_probe_observe, and leaves facts for the rungs above it in p->facts.
** The device is a black box: nothing here reads the model behind it.
**
** Workload: a few thousand targeted cases per datapath (docs/performance.md),
** plus the random rung; a run is dominated by the device's round trips.
*/
#ifndef LADDER_PROBES_LADDER_H
#define LADDER_PROBES_LADDER_H

#include <stdint.h>
#include <stddef.h>
#include "recipe.h"
#include "../devices/device.h"
#include "../db/store.h"
#include "../util/progress.h"

/* What earlier rungs found out, for the rungs above them. */
typedef struct lad_facts {
    lad_format a, b;     /* A and B element formats: declared, or decoded */
    int a_known, b_known;/* 0 until the decode rung has found a user format */
    int dbits;           /* fraction bits the result shows (visible), -1 unknown */
    int window;          /* fraction bits that survive cancellation below
                            the anchor (internal), -1 unknown */
    int low_exp;         /* lowest exponent the result format can show */
} lad_facts;

/* Progress (util/progress.h): called as cases are answered, with the
** rung's name and its done of total cases. */

/* The cases that decide what a run's cases leave open: into *cases
** (malloc'd, free()) *n of them, and the open rows' keys as a case
** target (each its own group: "window; d_round") into rows; *n 0 when no row is open. LAD_NO when no model reproduces
** every case (a conflict, which no case can settle). progress (may be
** NULL) is told the inference's steps as lad_infer's are. */
typedef int (*lad_next_fn)(lad_store *st, int64_t run, lad_case **cases, int *n, char *rows,
                           size_t size, lad_progress_fn progress, void *pctx, lad_err *err);

typedef struct lad_probe {
    const lad_recipe *recipe;
    lad_datapath dp;         /* what the device is told; a/b gain their
                                decode once the decode rung found it */
    lad_device *dev;
    lad_store *st;
    int64_t run;
    const lad_rung *rung;    /* the recipe item being climbed (parameters);
                                NULL for a rung the ladder adds (decode) */
    const char *rung_name;   /* name cases and observations are stored under */
    size_t targeted;         /* cases of every rung but random, this run */
    size_t rung_cases;       /* cases of the current rung */
    lad_facts facts;
    char summary[256];       /* what the rung saw, one line (set by the rung) */
    lad_progress_fn progress;
    void *progress_ctx;
    lad_err *err;
    /* Resume: a rung the run stored already is climbed again against its
    ** stored cases instead of the device (its words, for the facts it
    ** leaves), and writes nothing. */
    int replayed;            /* the rung under way (or just ended) replays */
    const lad_case_row *replay; /* its stored cases, in id order */
    size_t nreplay;
    lad_next_fn next;        /* lad_ladder_opts.next */
} lad_probe;

/* The structured evidence of one case of a batch (lad_case_tag). */
typedef struct lad_batch_ev {
    char series[32];
    char target[96];
    int has_vary;
    int64_t vary;
} lad_batch_ev;

/*
** A growing list of cases, each with a label for people and the series,
** target and vary that programs select it by (docs/store.md). A rung names
** the series of the cases it adds next with lad_batch_series; the label is
** never read back by inference.
*/
typedef struct lad_batch {
    lad_case *cs;
    char (*label)[64];
    lad_batch_ev *ev;
    size_t n, cap;
    char series[32];         /* of the cases added next; "" none */
    char target[96];         /* model-file keys they decide: space-separated
                                keys decided jointly, groups decided in
                                turn separated by "; " (docs/store.md) */
} lad_batch;

/* Sets the series and target of the cases added next. */
void lad_batch_series(lad_batch *b, const char *series, const char *target);

/* Appends a case (a copy of *cs) labelled by fmt, of the current series,
** varying nothing. Returns LAD_OK or LAD_EINTERNAL when out of memory. */
int lad_batch_add(lad_batch *b, const lad_case *cs, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The same for a case in which the series varies vary (the code word, the
** bit index, the exponent). */
int lad_batch_addv(lad_batch *b, const lad_case *cs, int64_t vary, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void lad_batch_free(lad_batch *b);

/*
** Runs b's cases on the device and stores them under the current rung, in
** pieces (reporting progress). d (may be NULL) receives the D words and ids
** (may be NULL) the case ids, b->n each. Returns LAD_OK or the device's or
** store's code with p->err filled.
*/
int lad_probe_eval(lad_probe *p, const lad_batch *b, lad_word_t *d,
                   int64_t *ids);

/* lad_probe_eval into fresh arrays: *d receives the D words and *ids the
** case ids, b->n each. The caller frees both, also when it fails. */
int lad_probe_run(lad_probe *p, const lad_batch *b, lad_word_t **d, int64_t **ids);

/* Records an observation of the current rung: key = printf(fmt, ...), with
** the ids of the cases that show it. */
int lad_probe_observe(lad_probe *p, const char *key, const int64_t *ids,
                      size_t n, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* Cases the random rung runs (the recipe's random.cases, at most this). */
#define LAD_LADDER_RANDOM 4096

/* The rungs; every one returns LAD_OK or an error code with p->err set. */
int lad_rung_decode(lad_probe *p);
int lad_rung_instruction(lad_probe *p);
int lad_rung_slice(lad_probe *p);
int lad_rung_lanes(lad_probe *p);
int lad_rung_truncation(lad_probe *p);
int lad_rung_visible(lad_probe *p);
int lad_rung_internal(lad_probe *p);
int lad_rung_ulp(lad_probe *p);
int lad_rung_grouping(lad_probe *p);
int lad_rung_zeros(lad_probe *p);
int lad_rung_specials(lad_probe *p);
int lad_rung_scaling(lad_probe *p);
int lad_rung_sumtree(lad_probe *p);
int lad_rung_random(lad_probe *p);
int lad_rung_decide(lad_probe *p);

/* The plain description of a device and a datapath that the store records
** when a run begins (lad_run_info); the strings stay d's and dp's. */
void lad_run_describe(const lad_device_info *d, const lad_datapath *dp,
                      lad_run_device *rd, lad_run_datapath *rdp);

/* One rung per line as it ends. */
typedef void (*lad_rung_done_fn)(void *ctx, const lad_probe *p, int rc);

/* What lad_ladder_run needs besides the recipe. */
/* The decode rung in lad_ladder_opts.rungs. It is climbed first whenever a
** format is declared only by name and width, whatever the bits say; alone
** it asks for the decode and no other rung. */
#define LAD_RUNGS_DECODE (1u << LAD_RUNG_COUNT)

typedef struct lad_ladder_opts {
    const char *device;          /* device spec; NULL: the recipe's */
    unsigned rungs;              /* bit per enum lad_rung_id, and
                                    LAD_RUNGS_DECODE; 0: the recipe's */
    int argc;                    /* command line to record */
    char *const *argv;
    lad_progress_fn progress;    /* may be NULL */
    lad_rung_done_fn done;       /* may be NULL */
    void *ctx;
    int64_t resume;              /* 0: a new run; else the failed or
                                    interrupted run to go on with */
    int trust_exec;              /* 1: an exec device the recipe or the
                                    resumed run names may run (otherwise
                                    only opts->device may name one) */
    /* Called (when not NULL) before an exec device starts, with its spec
    ** and whose it is ("recipe 'x.yaml'", "run 3") when it came from the
    ** recipe or the store, NULL when opts->device named it. */
    void (*announce)(void *ctx, const char *spec, const char *whose);
    /* The decide rung's inference (lad_infer_next of inference/infer.h,
    ** which this layer cannot include): the cases that separate the values
    ** the run's cases so far leave open. NULL: the decide rung is refused. */
    lad_next_fn next;
    /* 1: the decide rung ends the ladder though the recipe does not list
    ** it (when rungs is 0: a --rungs list is climbed as given) */
    int decide;
} lad_ladder_opts;

/*
** Climbs the recipe's rungs (those in opts->rungs) on the device, recording
** one run in st. *run receives its id as soon as it is begun (so a caller
** can report it even on failure). Returns LAD_OK; the device's, store's or
** a rung's error code, after ending the run as failed.
**
** With opts->resume the run goes on in that run's id: the rungs it stored
** are replayed from the store (their cases are deterministic: probes/gen.c
** and the rungs draw from the recipe's seed), the others climbed and
** stored. Refused before anything is written: a run that is completed or
** still running (LAD_EUSAGE), a recipe whose text is not the stored one or
** a device model file that changed since (LAD_EDATA), a device that is not
** the run's (LAD_EUSAGE for another spec, LAD_EDEVICE for another GPU or
** model behind it), stored cases that the recipe no longer generates
** (LAD_EDATA). A new run and a resumed one alike refuse an exec device
** that the recipe or the run names but opts->device does not, unless
** opts->trust_exec (LAD_EUSAGE).
*/
int lad_ladder_run(const lad_recipe *r, const lad_ladder_opts *opts,
                   lad_store *st, int64_t *run, lad_err *err);

/*
** The decide rung alone on finished run `run` of dp's instruction, on dev
** (the run's own device), with next as its inference: what `ladder
** validate` runs after its mismatches joined the run, so that the model
** they refute is replaced by a decided one. Its cases join the run under
** rung "decide", like those of the ladder's own decide rung; what it saw
** goes into summary (one line). progress (may be NULL) is told as cases
** are answered.
*/
int lad_ladder_decide(lad_store *st, int64_t run, lad_device *dev, const lad_datapath *dp,
                      lad_next_fn next, lad_progress_fn progress, void *pctx, char *summary,
                      size_t size, lad_err *err);

#endif
