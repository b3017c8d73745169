/*
** The ladder's driver: opens the device, begins the run, climbs the rungs
** in dependency order (decode first when a format is declared only by name
** and width, then the order of enum lad_rung_id, whatever the order of the
** recipe's list), and ends the run. See ladder.h and docs/probes.md.
*/
#include "ladder.h"
#include "case.h"
#include "../util/hooks.h"
#include "../model/params.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EVAL_PIECE 256 /* cases per device call: progress granularity */

/* A target names registry rows (docs/store.md): a key that is no row is a
** mistake in the rung's code, which would only surface as inference
** blaming the data; stop at once instead, as presets.c does. */
static void check_target(const char *series, const char *target)
{
    for (const char *t = target; *t;) {
        size_t l = strcspn(t, " ;");
        char key[40];
        snprintf(key, sizeof key, "%.*s", (int)l, t);
        if (l > 0 && lad_param_find(key) == NULL) {
            fprintf(stderr, "ladder: internal error: series '%s' targets '%s', which is no "
                    "parameter (model/params.def)\n", series ? series : "", key);
            abort();
        }
        t += l;
        t += strspn(t, " ;");
    }
}

void lad_batch_series(lad_batch *b, const char *series, const char *target)
{
    if (target)
        check_target(series, target);
    snprintf(b->series, sizeof b->series, "%s", series ? series : "");
    snprintf(b->target, sizeof b->target, "%s", target ? target : "");
}

static int batch_push(lad_batch *b, const lad_case *cs, int has_vary, int64_t vary,
                      const char *fmt, va_list ap)
{
    if (b->n == b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 64;
        lad_case *c2 = realloc(b->cs, cap * sizeof *c2);
        if (c2 == NULL)
            return LAD_EINTERNAL;
        b->cs = c2;
        char(*l2)[64] = realloc(b->label, cap * sizeof *l2);
        if (l2 == NULL)
            return LAD_EINTERNAL;
        b->label = l2;
        lad_batch_ev *e2 = realloc(b->ev, cap * sizeof *e2);
        if (e2 == NULL)
            return LAD_EINTERNAL;
        b->ev = e2;
        b->cap = cap;
    }
    b->cs[b->n] = *cs;
    vsnprintf(b->label[b->n], sizeof b->label[0], fmt, ap);
    lad_batch_ev *e = &b->ev[b->n];
    memcpy(e->series, b->series, sizeof e->series);
    memcpy(e->target, b->target, sizeof e->target);
    e->has_vary = has_vary;
    e->vary = vary;
    b->n++;
    return LAD_OK;
}

int lad_batch_add(lad_batch *b, const lad_case *cs, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = batch_push(b, cs, 0, 0, fmt, ap);
    va_end(ap);
    return rc;
}

int lad_batch_addv(lad_batch *b, const lad_case *cs, int64_t vary, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = batch_push(b, cs, 1, vary, fmt, ap);
    va_end(ap);
    return rc;
}

void lad_batch_free(lad_batch *b)
{
    free(b->cs);
    free(b->label);
    free(b->ev);
    memset(b, 0, sizeof *b);
}

/* Whether stored case r holds the words of cs (the lanes it stored). */
static int same_case(const lad_case_row *r, const lad_case_data *cs)
{
    for (int i = 0; i < r->k; i++)
        if (r->cs.a[i] != cs->a[i] || r->cs.b[i] != cs->b[i])
            return 0;
    for (int i = 0; i < r->nscale; i++)
        if (r->cs.sa[i] != cs->sa[i] || r->cs.sb[i] != cs->sb[i])
            return 0;
    for (int i = 0; i < r->nmeta; i++)
        if (r->cs.meta[i] != cs->meta[i])
            return 0;
    return r->cs.c == cs->c;
}

/* lad_probe_eval of a replayed rung: the D words and ids of the stored
** cases, which must be the batch's cases in order. */
static int replay_eval(lad_probe *p, const lad_batch *b, lad_word_t *d, int64_t *ids)
{
    for (size_t i = 0; i < b->n; i++, p->rung_cases++) {
        lad_case_data cs;
        lad_case_to_data(&b->cs[i], &cs);
        const lad_case_row *r = p->rung_cases < p->nreplay ? &p->replay[p->rung_cases] : NULL;
        if (r == NULL || !same_case(r, &cs))
            return lad_errf(p->err, LAD_EDATA, "run %lld: rung '%s' stored %zu cases and "
                            "the recipe now generates others (case %zu differs); it cannot "
                            "be resumed", (long long)p->run, p->rung_name, p->nreplay,
                            p->rung_cases + 1);
        if (d)
            d[i] = r->d;
        if (ids)
            ids[i] = r->id;
        if (strcmp(p->rung_name, "random") != 0)
            p->targeted++;
    }
    return LAD_OK;
}

int lad_probe_eval(lad_probe *p, const lad_batch *b, lad_word_t *d, int64_t *ids)
{
    if (p->replayed)
        return replay_eval(p, b, d, ids);
    lad_word_t *dw = d ? d : malloc((b->n ? b->n : 1) * sizeof *dw);
    lad_case_tag tags[EVAL_PIECE];
    lad_case_data *words = malloc(EVAL_PIECE * sizeof *words);
    int rc = LAD_OK;
    if (dw == NULL || words == NULL) {
        rc = lad_errf(p->err, LAD_EINTERNAL, "out of memory");
        goto done;
    }
    int nscale = lad_datapath_nscales(&p->dp), nmeta = lad_datapath_nmeta(&p->dp);
    for (size_t at = 0; at < b->n; at += EVAL_PIECE) {
        size_t n = b->n - at < EVAL_PIECE ? b->n - at : EVAL_PIECE, got = 0;
        if (lad_sig_pending()) {
            rc = lad_errf(p->err, LAD_EINTERNAL, "interrupted by signal %d",
                          lad_sig_pending());
            goto done;
        }
        if ((rc = lad_device_eval(p->dev, b->cs + at, n, dw + at, &got, p->err)))
            goto done;
        for (size_t i = 0; i < n; i++) {
            const lad_batch_ev *e = &b->ev[at + i];
            lad_case_to_data(&b->cs[at + i], &words[i]);
            tags[i] = (lad_case_tag){b->label[at + i], e->series[0] ? e->series : NULL,
                                     e->target[0] ? e->target : NULL, e->has_vary, e->vary};
        }
        if ((rc = lad_store_add_cases(p->st, p->run, p->rung_name, words,
                                      dw + at, tags, n, p->dp.k, nscale,
                                      nmeta, ids ? ids + at : NULL, p->err)))
            goto done;
        p->rung_cases += n;
        if (strcmp(p->rung_name, "random") != 0)
            p->targeted += n;
        if (p->progress)
            p->progress(p->progress_ctx, p->rung_name, at + n, b->n);
    }
done:
    if (dw != d)
        free(dw);
    free(words);
    return rc;
}

int lad_probe_run(lad_probe *p, const lad_batch *b, lad_word_t **d, int64_t **ids)
{
    *d = malloc((b->n + 1) * sizeof **d);
    *ids = malloc((b->n + 1) * sizeof **ids);
    if (*d == NULL || *ids == NULL)
        return lad_errf(p->err, LAD_EINTERNAL, "out of memory");
    return lad_probe_eval(p, b, *d, *ids);
}

int lad_probe_observe(lad_probe *p, const char *key, const int64_t *ids,
                      size_t n, const char *fmt, ...)
{
    char value[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(value, sizeof value, fmt, ap);
    va_end(ap);
    if (p->replayed)
        return LAD_OK; /* stored with the rung */
    return lad_store_observe(p->st, p->run, p->rung_name, key, value, ids, n,
                             p->err);
}

void lad_run_describe(const lad_device_info *d, const lad_datapath *dp,
                      lad_run_device *rd, lad_run_datapath *rdp)
{
    *rd = (lad_run_device){d->kind, d->name, d->uuid, d->cc, d->driver, d->toolkit, d->sass,
                           NULL, d->model_file, d->model_sha256};
    *rdp = (lad_run_datapath){dp->name, dp->arch, dp->instr, dp->kind, dp->shape, dp->sass,
                              dp->a.name, dp->b.name, dp->c.name, dp->d.name};
}

typedef int (*rung_fn)(lad_probe *p);

static const rung_fn rung_fns[LAD_RUNG_COUNT] = {
    [LAD_RUNG_INSTRUCTION] = lad_rung_instruction,
    [LAD_RUNG_SLICE] = lad_rung_slice,
    [LAD_RUNG_LANES] = lad_rung_lanes,
    [LAD_RUNG_TRUNCATION] = lad_rung_truncation,
    [LAD_RUNG_VISIBLE] = lad_rung_visible,
    [LAD_RUNG_INTERNAL] = lad_rung_internal,
    [LAD_RUNG_ULP] = lad_rung_ulp,
    [LAD_RUNG_GROUPING] = lad_rung_grouping,
    [LAD_RUNG_ZEROS] = lad_rung_zeros,
    [LAD_RUNG_SPECIALS] = lad_rung_specials,
    [LAD_RUNG_SCALING] = lad_rung_scaling,
    [LAD_RUNG_SUMTREE] = lad_rung_sumtree,
    [LAD_RUNG_RANDOM] = lad_rung_random,
    [LAD_RUNG_DECIDE] = lad_rung_decide,
};

/* Runs one rung with its bookkeeping, its cases and observations one step
** of the store (commit point "rung"): a rung is stored whole or not at
** all. The rung's own code is returned. */
static int climb(lad_probe *p, const char *name, const lad_rung *item,
                 rung_fn fn, const lad_ladder_opts *opts, const lad_show *stored)
{
    p->rung = item;
    p->rung_name = name;
    p->rung_cases = 0;
    p->summary[0] = 0;
    p->replayed = 0;
    int rc = LAD_OK;
    for (size_t i = 0; stored && i < stored->nrungs; i++)
        if (strcmp(stored->rungs[i].name, name) == 0)
            p->replayed = 1;
    if (p->replayed) {
        lad_case_row *rows = NULL;
        size_t n = 0;
        if ((rc = lad_store_cases(p->st, p->run, name, &rows, &n, p->err)) == LAD_OK) {
            p->replay = rows;
            p->nreplay = n;
            rc = fn(p);
            if (rc == LAD_OK && p->rung_cases != n)
                rc = lad_errf(p->err, LAD_EDATA, "run %lld: rung '%s' stored %zu cases and "
                              "the recipe now generates %zu; it cannot be resumed",
                              (long long)p->run, name, n, p->rung_cases);
        }
        p->replay = NULL;
        free(rows);
    } else if ((rc = lad_store_step_begin(p->st, "rung", p->err)) == LAD_OK) {
        rc = fn(p);
        int rc2 = lad_store_step_end(p->st, rc == LAD_OK, p->err);
        rc = rc ? rc : rc2;
    }
    if (opts->done)
        opts->done(opts->ctx, p, rc);
    return rc;
}

/*
** What `run --resume` checks before it writes: the run is failed or
** interrupted, the recipe's text is the stored one, the device is the run's
** (the spec it was given, the model file's text unchanged, the same GPU or
** model behind it). Opens the device into *dev and reads the stored rungs
** into *stored (malloc'd). *spec becomes the run's.
*/
static int resume_check(const lad_recipe *r, const lad_ladder_opts *opts, lad_store *st,
                        const char **spec, const lad_datapath *dp, lad_device **dev,
                        lad_show **stored, lad_err *err)
{
    int64_t id = opts->resume;
    *stored = calloc(1, sizeof **stored);
    if (*stored == NULL)
        return lad_errf(err, LAD_EINTERNAL, "out of memory");
    int rc = lad_store_show(st, id, *stored, err);
    if (rc)
        return rc;
    const lad_run_row *row = &(*stored)->run;
    if (strcmp(row->command, "run") != 0)
        return lad_errf(err, LAD_EUSAGE, "run %lld was written by 'ladder %s', not by "
                        "'ladder run'; only a run of a recipe can be resumed",
                        (long long)id, row->command);
    if (row->status == LAD_RUN_OK || row->status == LAD_RUN_RUNNING)
        return lad_errf(err, LAD_EUSAGE, "run %lld is %s; only a failed or interrupted "
                        "run can be resumed", (long long)id,
                        row->status == LAD_RUN_OK ? "completed" : "still running");
    char *text = NULL, path[256];
    size_t len = 0;
    if ((rc = lad_store_recipe(st, id, &text, &len, path, sizeof path, err)))
        return rc;
    int same = len == r->textlen && memcmp(text, r->text, len) == 0;
    free(text);
    if (!same)
        return lad_errf(err, LAD_EDATA, "%s: the recipe changed since run %lld "
                        "(sha256 %.12s... then); resume it with the recipe it began with",
                        r->path, (long long)id, row->recipe_sha256);
    /* The spec the run was given; runs before schema 4 kept it only in argv. */
    char arg[600] = "";
    if (!row->device_spec[0] &&
        (rc = lad_store_run_device_arg(st, id, arg, sizeof arg, err)))
        return rc;
    const char *was = row->device_spec[0] ? row->device_spec : arg[0] ? arg : r->device;
    if (opts->device && *opts->device && strcmp(opts->device, was) != 0)
        return lad_errf(err, LAD_EUSAGE, "run %lld ran on '%s', not '%s'; a run goes on "
                        "on its own device", (long long)id, was, opts->device);
    *spec = was;
    char whose[64];
    snprintf(whose, sizeof whose, "run %lld", (long long)id);
    int named = opts->device && *opts->device;
    if ((rc = lad_device_trust(was, whose, named || opts->trust_exec, 0, err)))
        return rc;
    if (lad_device_command(was) && opts->announce)
        opts->announce(opts->ctx, was, named ? NULL : whose);
    if ((rc = lad_device_open(was, dp, dev, err)))
        return rc;
    const lad_device_info *d = &(*dev)->info;
    if (row->model_sha256[0] && strcmp(row->model_sha256, d->model_sha256) != 0)
        return lad_errf(err, LAD_EDATA, "model file '%s' of run %lld's device changed "
                        "since the run (sha256 %.12s... then, %.12s... now)",
                        d->model_file, (long long)id, row->model_sha256, d->model_sha256);
    if (strcmp(row->device_kind, d->kind) != 0 || strcmp(row->device, d->name) != 0 ||
        strcmp(row->uuid, d->uuid) != 0)
        return lad_errf(err, LAD_EDEVICE, "device '%s' is now '%s' %s, run %lld ran on "
                        "'%s' %s", was, d->name, d->uuid, (long long)id, row->device,
                        row->uuid);
    return LAD_OK;
}

int lad_ladder_run(const lad_recipe *r, const lad_ladder_opts *opts,
                   lad_store *st, int64_t *run, lad_err *err)
{
    lad_probe *p = calloc(1, sizeof *p);
    if (p == NULL)
        return lad_errf(err, LAD_EINTERNAL, "out of memory");
    p->recipe = r;
    p->st = st;
    p->err = err;
    p->progress = opts->progress;
    p->progress_ctx = opts->ctx;
    p->next = opts->next;
    lad_recipe_datapath(r, &p->dp);
    p->facts.a = p->dp.a;
    p->facts.b = p->dp.b;
    p->facts.a_known = r->dp.a_known;
    p->facts.b_known = r->dp.b_known;
    p->facts.dbits = p->facts.window = -1;
    *run = 0;
    lad_show *stored = NULL;
    int rc;
    if (!r->dp.c_known || !r->dp.d_known) {
        rc = lad_errf(err, LAD_EDATA, "%s: the decode of C and D must be given "
                      "(only A and B may be declared by name and width)", r->path);
        goto out;
    }
    const char *spec = opts->device && *opts->device ? opts->device : r->device;
    if (opts->resume) {
        rc = resume_check(r, opts, st, &spec, &p->dp, &p->dev, &stored, err);
        if (rc == LAD_OK)
            rc = lad_store_resume_run(st, opts->resume, err);
        if (rc)
            goto out;
        *run = p->run = opts->resume;
        goto climb;
    }
    int named = opts->device && *opts->device;
    char whose[300];
    snprintf(whose, sizeof whose, "recipe '%.280s'", r->path);
    if (!named && (rc = lad_device_trust(spec, whose, opts->trust_exec, 1, err)))
        goto out;
    if (lad_device_command(spec) && opts->announce)
        opts->announce(opts->ctx, spec, named ? NULL : whose);
    if ((rc = lad_device_open(spec, &p->dp, &p->dev, err)))
        goto out;
    lad_run_info info = {0};
    lad_run_device rd;
    lad_run_datapath rdp;
    lad_run_describe(&p->dev->info, &p->dp, &rd, &rdp);
    rd.spec = spec;
    info.command = "run";
    info.argc = opts->argc;
    info.argv = opts->argv;
    info.device = &rd;
    info.dp = &rdp;
    info.version = "0.1.0";
    info.dirty = -1;
    info.recipe_path = r->path;
    info.recipe_text = r->text;
    info.recipe_len = r->textlen;
    if ((rc = lad_store_begin_run(st, &info, &p->run, err)))
        goto out;
    *run = p->run;

climb:
    if (!p->facts.a_known || !p->facts.b_known)
        if ((rc = climb(p, "decode", NULL, lad_rung_decode, opts, stored)))
            goto fail;
    for (int id = 0; id < LAD_RUNG_COUNT; id++) {
        const lad_rung *item = lad_recipe_rung(r, id);
        int want = opts->rungs ? (opts->rungs >> id) & 1
                               : item != NULL || (id == LAD_RUNG_DECIDE && opts->decide);
        if (!want)
            continue;
        if ((rc = climb(p, lad_rung_name(id), item, rung_fns[id], opts, stored)))
            goto fail;
    }
    rc = lad_store_end_run(st, p->run, LAD_RUN_OK, NULL, err);
    goto out;
fail: {
        /* After a signal the error is what the signal caused (the oracle
        ** killed with its group): the message says what happened. */
        lad_err e2 = {0};
        char why[32];
        snprintf(why, sizeof why, "interrupted by signal %d", lad_sig_pending());
        lad_store_end_run(st, p->run,
                          lad_sig_pending() ? LAD_RUN_INTERRUPTED : LAD_RUN_FAILED,
                          lad_sig_pending() ? why : err->msg, &e2);
    }
out:
    if (stored)
        lad_show_free(stored);
    free(stored);
    lad_device_close(p->dev);
    free(p);
    return rc;
}

int lad_ladder_decide(lad_store *st, int64_t run, lad_device *dev, const lad_datapath *dp,
                      lad_next_fn next, lad_progress_fn progress, void *pctx, char *summary,
                      size_t size, lad_err *err)
{
    lad_probe *p = calloc(1, sizeof *p);
    if (p == NULL)
        return lad_errf(err, LAD_EINTERNAL, "out of memory");
    *p = (lad_probe){.dp = *dp, .dev = dev, .st = st, .run = run, .rung_name = "decide",
                     .progress = progress, .progress_ctx = pctx, .err = err, .next = next};
    int rc = lad_store_step_begin(st, "rung", err);
    if (rc == LAD_OK) {
        rc = lad_rung_decide(p);
        int rc2 = lad_store_step_end(st, rc == LAD_OK, err);
        rc = rc ? rc : rc2;
    }
    snprintf(summary, size, "%s", p->summary);
    free(p);
    return rc;
}
