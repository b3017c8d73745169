/*
** Validation of a model against a device; see validate.h.
*/
#include "validate.h"
#include "../util/shard.h"
#include "case.h"
#include "gen.h"
#include "../util/hooks.h"

#include <pthread.h>
#include <stdlib.h>

#define BATCH 8192          /* cases generated and evaluated at a time */

/* The model's side of one batch, run beside the device's. */
typedef struct model_job {
    const lad_datapath *dp;
    const lad_case *cs;
    size_t n;
    lad_word_t *want;
} model_job;

static void *model_work(void *arg)
{
    model_job *j = arg;
    lad_eval_batch(j->dp, j->cs, j->n, j->want);
    return NULL;
}

static int run_cases(const lad_datapath *dp, lad_device *dev, lad_store *st,
                     int64_t vid, const lad_validate_opts *o, uint64_t lo,
                     uint64_t hi, uint64_t *cases, uint64_t *nbad, lad_err *err)
{
    lad_case *cs = malloc(sizeof(lad_case) * BATCH);
    lad_case_data *bad = malloc(sizeof(lad_case_data) * BATCH);
    lad_word_t *want = malloc(sizeof(lad_word_t) * BATCH * 4);
    uint64_t *index = malloc(sizeof(uint64_t) * BATCH);
    int rc = LAD_OK;
    if (!cs || !bad || !want || !index) {
        rc = lad_errf(err, LAD_EINTERNAL, "out of memory");
        goto done;
    }
    lad_word_t *got = want + BATCH, *bw = want + 2 * BATCH, *bg = want + 3 * BATCH;
    for (uint64_t first = lo + *cases; first < hi; first += BATCH) {
        if (lad_sig_pending()) {
            rc = lad_errf(err, LAD_EINTERNAL, "interrupted by signal %d",
                          lad_sig_pending());
            goto done;
        }
        size_t n = hi - first < BATCH ? (size_t)(hi - first) : BATCH;
        lad_gen_cases(dp, o->seed, o->raw, first, cs, n);
        model_job job = {dp, cs, n, want};
        pthread_t th;
        int beside = pthread_create(&th, NULL, model_work, &job) == 0;
        if (!beside)
            model_work(&job);
        size_t done = 0;
        rc = lad_device_eval(dev, cs, n, got, &done, err);
        if (beside)
            pthread_join(th, NULL);
        if (rc != LAD_OK)
            goto done;
        size_t m = 0;
        for (size_t i = 0; i < n; i++) {
            if (want[i] == got[i])
                continue;
            if (o->mismatch)
                o->mismatch(o->ctx, dp, &cs[i], first + i, want[i], got[i]);
            lad_case_to_data(&cs[i], &bad[m]);
            bw[m] = want[i];
            bg[m] = got[i];
            index[m++] = first + i;
        }
        if ((rc = lad_store_validation_chunk(st, vid, bad, bw, bg, index, m,
                                             *cases + n, *nbad + m, err)))
            goto done;
        *cases += n;
        *nbad += m;
        if (o->progress)
            o->progress(o->progress_ctx, "validate", (size_t)*cases, (size_t)(hi - lo));
    }
done:
    free(cs);
    free(bad);
    free(want);
    free(index);
    return rc;
}

int lad_validate(lad_store *st, int64_t run, const char *name,
                 const lad_datapath *dp, lad_device *dev,
                 const lad_validate_opts *o, uint64_t *cases, uint64_t *bad,
                 lad_err *err)
{
    char gen[32];
    int64_t vid = o->resume;
    *cases = o->resume ? o->done : 0;
    *bad = o->resume ? o->done_bad : 0;
    lad_gen_name(o->raw, gen, sizeof gen);
    /* a shard plans its own part of the stream; it is shard 0 of 1 alone */
    uint64_t count = o->shard_count > 1 ? o->shard_count : 1, lo, n;
    lad_shard_range(o->cases, count > 1 ? o->shard_index : 0, count, &lo, &n);
    int rc = LAD_OK;
    if (!o->resume)
        rc = lad_store_begin_validation(st, run, name, gen, o->seed, n,
                                        dp->k, lad_datapath_nscales(dp),
                                        lad_datapath_nmeta(dp), &vid, err);
    if (rc)
        return rc;
    if (!o->resume && count > 1)
        rc = lad_store_set_validation_shard(st, vid, o->shard_index, count, o->cases, err);
    if (rc == LAD_OK)
        rc = run_cases(dp, dev, st, vid, o, lo, lo + n, cases, bad, err);
    if (rc == LAD_OK)
        return lad_store_end_validation(st, vid, *cases, *bad, err);
    /* The chunks compared stay stored; the validation says why it ended. */
    lad_err e2 = {0};
    lad_store_stop_validation(st, vid, lad_sig_pending() ? LAD_RUN_INTERRUPTED
                                                         : LAD_RUN_FAILED,
                              err->msg, &e2);
    return rc;
}
