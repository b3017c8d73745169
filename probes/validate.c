/*
** Validation of a model against a device; see validate.h.
**
** Two ways through the batches of 8192 cases, which store the same thing:
**
**   run_cases   the calling thread generates a batch and evaluates it on the
**               device while the model evaluates it on a second thread (or
**               after it, with one thread): for devices that take one call
**               at a time (exec, cuda);
**   run_pool    for a concurrent device (sim), `threads` workers each take
**               the next batch, generate it from the seed, evaluate device
**               and model and keep the mismatches in the batch's slot; the
**               calling thread takes the slots in batch order and stores
**               them as run_cases does, one chunk per batch.
**
** The pool has 2 * threads slots, so memory is bounded by threads x batch
** whatever the case count: a worker waits for a free slot before it claims
** a batch, and a slot is freed once its batch is stored.
*/
#include "validate.h"
#include "../util/shard.h"
#include "case.h"
#include "gen.h"
#include "../util/hooks.h"

#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#define BATCH 8192          /* cases generated, evaluated and committed at a time */

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

/* Reports batch progress: cases compared of this shard's hi - lo. */
static void tick(const lad_validate_opts *o, uint64_t cases, uint64_t lo, uint64_t hi)
{
    if (o->progress)
        o->progress(o->progress_ctx, "validate", (size_t)cases, (size_t)(hi - lo));
}

static int interrupted(lad_err *err)
{
    return lad_errf(err, LAD_EINTERNAL, "interrupted by signal %d", lad_sig_pending());
}

static int run_cases(const lad_datapath *dp, lad_device *dev, lad_store *st,
                     int64_t vid, const lad_validate_opts *o, int beside_ok,
                     uint64_t lo, uint64_t hi, uint64_t *cases, uint64_t *nbad,
                     lad_err *err)
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
            rc = interrupted(err);
            goto done;
        }
        size_t n = hi - first < BATCH ? (size_t)(hi - first) : BATCH;
        lad_gen_kind_cases(dp, o->gen, o->seed, o->raw, first, cs, n);
        model_job job = {dp, cs, n, want};
        pthread_t th;
        int beside = beside_ok && pthread_create(&th, NULL, model_work, &job) == 0;
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
        tick(o, *cases, lo, hi);
    }
done:
    free(cs);
    free(bad);
    free(want);
    free(index);
    return rc;
}

enum { SLOT_FREE, SLOT_BUSY, SLOT_DONE };

/* One batch on its way from a worker to the store. */
typedef struct slot {
    int state;              /* SLOT_*: BUSY while its worker fills it */
    int rc;                 /* the device's code, LAD_OK */
    lad_err err;            /*   and its error */
    size_t n;               /* cases of the batch */
    size_t m, cap;          /* mismatches, and the room for them */
    lad_case *cs;           /* the mismatching cases, */
    lad_word_t *want, *got; /*   the model's and the device's words */
    uint64_t *index;        /*   and their indexes in the case stream */
} slot;

/* What the workers share; mu guards state, claimed, stored and stop. */
typedef struct pool {
    pthread_mutex_t mu;
    pthread_cond_t done;    /* a slot became SLOT_DONE (the caller waits) */
    pthread_cond_t room;    /* a slot was freed, or stop (workers wait) */
    const lad_datapath *dp;
    lad_device *dev;
    const lad_validate_opts *o;
    uint64_t start, hi;     /* first case of batch 0; end of the shard */
    uint64_t nbatch;        /* batches from start to hi */
    uint64_t claimed;       /* batches taken by workers (0..nbatch) */
    uint64_t stored;        /* batches stored by the caller; batch b may be
                               claimed once b < stored + nslot */
    int stop;               /* the caller stops: claim nothing more */
    size_t nslot;
    slot *slots;            /* batch b in slots[b % nslot] */
} pool;

/* Ensures room for m mismatches in s; LAD_OK or LAD_EINTERNAL. */
static int slot_room(slot *s, size_t m, lad_err *err)
{
    if (m <= s->cap)
        return LAD_OK;
    lad_case *cs = realloc(s->cs, sizeof *cs * m);
    if (cs)
        s->cs = cs;
    lad_word_t *w = cs ? realloc(s->want, sizeof *w * m) : NULL;
    if (w)
        s->want = w;
    lad_word_t *g = w ? realloc(s->got, sizeof *g * m) : NULL;
    if (g)
        s->got = g;
    uint64_t *ix = g ? realloc(s->index, sizeof *ix * m) : NULL;
    if (ix == NULL)
        return lad_errf(err, LAD_EINTERNAL, "out of memory");
    s->index = ix;
    s->cap = m;
    return LAD_OK;
}

/* A worker: its own case and word buffers of one batch. */
typedef struct worker {
    pool *p;
    pthread_t th;
    lad_case *cs;
    lad_word_t *want, *got;
} worker;

/* Evaluates batch b into its slot (held by this worker alone). */
static void work_batch(worker *w, uint64_t b)
{
    pool *p = w->p;
    slot *s = &p->slots[b % p->nslot];
    uint64_t first = p->start + b * BATCH;
    size_t n = p->hi - first < BATCH ? (size_t)(p->hi - first) : BATCH;
    lad_gen_kind_cases(p->dp, p->o->gen, p->o->seed, p->o->raw, first, w->cs, n);
    size_t done = 0;
    s->n = n;
    s->m = 0;
    lad_err_clear(&s->err);
    s->rc = lad_device_eval(p->dev, w->cs, n, w->got, &done, &s->err);
    if (s->rc != LAD_OK)
        return;
    lad_eval_batch(p->dp, w->cs, n, w->want);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        m += w->want[i] != w->got[i];
    if ((s->rc = slot_room(s, m, &s->err)) != LAD_OK)
        return;
    for (size_t i = 0; i < n; i++) {
        if (w->want[i] == w->got[i])
            continue;
        s->cs[s->m] = w->cs[i];
        s->want[s->m] = w->want[i];
        s->got[s->m] = w->got[i];
        s->index[s->m++] = first + i;
    }
}

static void *work(void *arg)
{
    worker *w = arg;
    pool *p = w->p;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (!p->stop && p->claimed < p->nbatch && p->claimed >= p->stored + p->nslot)
            pthread_cond_wait(&p->room, &p->mu);
        if (p->stop || p->claimed >= p->nbatch)
            break;
        uint64_t b = p->claimed++;
        p->slots[b % p->nslot].state = SLOT_BUSY;
        pthread_mutex_unlock(&p->mu);
        work_batch(w, b);
        pthread_mutex_lock(&p->mu);
        p->slots[b % p->nslot].state = SLOT_DONE;
        pthread_cond_signal(&p->done);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

/*
** run_cases on nthread workers (2 or more) for a concurrent device: the
** same chunks, stored in the same order with the same counts. The caller
** alone touches the store, calls o->mismatch and o->progress, and watches
** for signals (the workers block them).
*/
static int run_pool(const lad_datapath *dp, lad_device *dev, lad_store *st,
                    int64_t vid, const lad_validate_opts *o, int nthread,
                    uint64_t lo, uint64_t hi, uint64_t *cases, uint64_t *nbad,
                    lad_err *err)
{
    pool p = {.dp = dp, .dev = dev, .o = o, .start = lo + *cases, .hi = hi,
              .nslot = 2 * (size_t)nthread};
    p.nbatch = (hi - p.start + BATCH - 1) / BATCH;
    pthread_mutex_init(&p.mu, NULL);
    pthread_cond_init(&p.done, NULL);
    pthread_cond_init(&p.room, NULL);
    p.slots = calloc(p.nslot, sizeof *p.slots);
    worker *ws = calloc((size_t)nthread, sizeof *ws);
    lad_case_data *bad = malloc(sizeof *bad * BATCH);
    int rc = LAD_OK, started = 0;
    if (!p.slots || !ws || !bad)
        rc = lad_errf(err, LAD_EINTERNAL, "out of memory");
    for (int i = 0; rc == LAD_OK && i < nthread; i++) {
        ws[i].p = &p;
        ws[i].cs = malloc(sizeof(lad_case) * BATCH);
        ws[i].want = malloc(sizeof(lad_word_t) * BATCH * 2);
        ws[i].got = ws[i].want ? ws[i].want + BATCH : NULL;
        if (!ws[i].cs || !ws[i].want)
            rc = lad_errf(err, LAD_EINTERNAL, "out of memory");
    }
    /* Signals go to this thread, which stops between batches. */
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    sigaddset(&block, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &block, &old);
    for (int i = 0; rc == LAD_OK && i < nthread; i++)
        if (pthread_create(&ws[i].th, NULL, work, &ws[i]) == 0)
            started++;
        else if (started == 0)
            rc = lad_errf(err, LAD_EINTERNAL, "cannot start a validation thread");
        else
            break;  /* fewer workers do the same work */
    pthread_sigmask(SIG_SETMASK, &old, NULL);

    for (uint64_t b = 0; rc == LAD_OK && b < p.nbatch; b++) {
        if (lad_sig_pending()) {
            rc = interrupted(err);
            break;
        }
        slot *s = &p.slots[b % p.nslot];
        pthread_mutex_lock(&p.mu);
        while (b >= p.claimed || s->state != SLOT_DONE)
            pthread_cond_wait(&p.done, &p.mu);
        pthread_mutex_unlock(&p.mu);
        if (s->rc != LAD_OK) {
            *err = s->err;
            rc = s->rc;
            break;
        }
        for (size_t j = 0; j < s->m; j++) {
            if (o->mismatch)
                o->mismatch(o->ctx, dp, &s->cs[j], s->index[j], s->want[j], s->got[j]);
            lad_case_to_data(&s->cs[j], &bad[j]);
        }
        if ((rc = lad_store_validation_chunk(st, vid, bad, s->want, s->got, s->index,
                                             s->m, *cases + s->n, *nbad + s->m, err)))
            break;
        *cases += s->n;
        *nbad += s->m;
        tick(o, *cases, lo, hi);
        pthread_mutex_lock(&p.mu);
        s->state = SLOT_FREE;
        p.stored++;
        pthread_cond_broadcast(&p.room);
        pthread_mutex_unlock(&p.mu);
    }

    pthread_mutex_lock(&p.mu);
    p.stop = 1;
    pthread_cond_broadcast(&p.room);
    pthread_mutex_unlock(&p.mu);
    for (int i = 0; i < started; i++)
        pthread_join(ws[i].th, NULL);
    for (int i = 0; ws && i < nthread; i++) {
        free(ws[i].cs);
        free(ws[i].want);
    }
    for (size_t i = 0; p.slots && i < p.nslot; i++) {
        free(p.slots[i].cs);
        free(p.slots[i].want);
        free(p.slots[i].got);
        free(p.slots[i].index);
    }
    free(p.slots);
    free(ws);
    free(bad);
    pthread_cond_destroy(&p.room);
    pthread_cond_destroy(&p.done);
    pthread_mutex_destroy(&p.mu);
    return rc;
}

int lad_validate_threads(int asked)
{
    if (asked > 0)
        return asked < LAD_VALIDATE_MAX_THREADS ? asked : LAD_VALIDATE_MAX_THREADS;
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > LAD_VALIDATE_MAX_THREADS ? LAD_VALIDATE_MAX_THREADS : (int)n;
}

int lad_validate(lad_store *st, int64_t run, const char *name,
                 const lad_datapath *dp, lad_device *dev,
                 const lad_validate_opts *o, uint64_t *cases, uint64_t *bad,
                 lad_err *err)
{
    char gen[48];
    int64_t vid = o->resume;
    *cases = o->resume ? o->done : 0;
    *bad = o->resume ? o->done_bad : 0;
    lad_gen_name(o->gen, o->raw, gen, sizeof gen);
    const char *why = lad_gen_refuses(o->gen, dp);
    if (why)
        return lad_errf(err, LAD_EUSAGE, "generator %s: %s", lad_gen_kind_name(o->gen), why);
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
    /* A pool only where the device allows it and there are batches to share. */
    int threads = lad_validate_threads(o->threads);
    uint64_t left = n > *cases ? (n - *cases + BATCH - 1) / BATCH : 0;
    if (rc == LAD_OK && dev->concurrent && threads > 1 && left > 1)
        rc = run_pool(dp, dev, st, vid, o, (uint64_t)threads < left ? threads : (int)left,
                      lo, lo + n, cases, bad, err);
    else if (rc == LAD_OK)
        rc = run_cases(dp, dev, st, vid, o, threads > 1, lo, lo + n, cases, bad, err);
    if (rc == LAD_OK)
        return lad_store_end_validation(st, vid, *cases, *bad, o->join, o->joined, err);
    /* The chunks compared stay stored; the validation says why it ended. */
    lad_err e2 = {0};
    lad_store_stop_validation(st, vid, lad_sig_pending() ? LAD_RUN_INTERRUPTED
                                                         : LAD_RUN_FAILED,
                              err->msg, &e2);
    return rc;
}
