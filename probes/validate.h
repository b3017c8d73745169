/*
** Validation: a model against a device on the seeded random cases of
** probes/gen.h (any of its named generators), D words compared as integers (NaN payloads included).
**
** Cases go in batches of 8192, each committed with the counts so far. On a
** device that can evaluate concurrently (sim) a pool of threads evaluates
** batches side by side, each generating its batch from the seed, and the
** calling thread stores them in batch order; elsewhere the model evaluates
** a batch on a second thread while the device evaluates it. Either way the
** store gets the same rows, in the same order, for any thread count, and
** memory stays within about 2 x threads batches. The store keeps the
** counts and every mismatch (case, model word, device word, index in the
** case stream), as a validation of run `run`.
**
** Used by `ladder validate` and `ladder survey`; nothing here prints: a
** caller that shows mismatches or progress passes a callback.
*/
#ifndef LADDER_PROBES_VALIDATE_H
#define LADDER_PROBES_VALIDATE_H

#include <stdint.h>
#include "../db/store.h"
#include "../devices/device.h"
#include "../util/progress.h"

/* Called for each mismatch as it is found: the case, its index in the case
** stream, the model's word and the device's. */
typedef void (*lad_mismatch_fn)(void *ctx, const lad_datapath *dp,
                                const lad_case *cs, uint64_t index,
                                lad_word_t want, lad_word_t got);

typedef struct lad_validate_opts {
    uint64_t cases;          /* cases of the whole stream */
    uint64_t seed;           /* seed of the case stream */
    int raw;                 /* percent of raw bit-pattern cases, 0..100 */
    int gen;                 /* the named generator (gen.h, enum
                                lad_gen_kind; 0: mix) */
    lad_mismatch_fn mismatch;/* may be NULL; called from the calling thread,
                                in case-stream order */
    void *ctx;
    lad_progress_fn progress;/* may be NULL: called from the calling thread
                                after each batch, step "validate", cases
                                compared of this shard's (resumed ones
                                counted) */
    void *progress_ctx;
    int64_t resume;          /* 0: a new validation; else the id of one to
                                go on with (its seed, raw and planned cases
                                must be the fields above) */
    uint64_t done, done_bad; /* resume: the cases it compared and the
                                mismatches among them */
    int64_t join;            /* 0, or the run whose device this is: the
                                first mismatches join its cases when the
                                validation ends (lad_store_end_validation) */
    uint64_t *joined;        /* may be NULL: receives how many joined */
    uint64_t shard_index;    /* run only shard shard_index of shard_count */
    uint64_t shard_count;    /*   (util/shard.h); count 0 or 1: the whole */
    int threads;             /* threads evaluating at once, 1 to
                                LAD_VALIDATE_MAX_THREADS; 0: one per online
                                CPU. 1: everything on the calling thread. A
                                device that is not concurrent (exec, cuda)
                                gets one thread and the model a second
                                whatever the number above 1 */
} lad_validate_opts;

#define LAD_VALIDATE_MAX_THREADS 1024

/* The threads o->threads == asked means: asked itself (at most
** LAD_VALIDATE_MAX_THREADS), or for 0 the online CPUs (at least 1). */
int lad_validate_threads(int asked);

/*
** Validates dp (named `name` in the store) against dev within run `run`:
** begins a validation (or goes on with o->resume at case o->done), runs the
** cases of o's shard of a stream of o->cases cases (all of them unsharded;
** indexes stay those of the whole stream), storing each batch's mismatches and the counts so far
** in one transaction, and ends it with the counts. *cases and *bad receive
** the cases run and the mismatches found (also on failure: those of the
** batches done, which stay stored; the validation ends 'failed', or
** 'interrupted' after a signal, util/hooks.h). Returns LAD_OK whatever the
** mismatches; the device's or store's code otherwise.
*/
int lad_validate(lad_store *st, int64_t run, const char *name,
                 const lad_datapath *dp, lad_device *dev,
                 const lad_validate_opts *o, uint64_t *cases, uint64_t *bad,
                 lad_err *err);

#endif
