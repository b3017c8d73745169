/*
** ladder validate: proves a model against a device on random cases.
**
**     ladder validate RUN [--device D] [--cases N] [--seed S] [--raw P]
**     ladder validate --model SPEC --device D [--cases N] [--seed S] [--raw P]
**
** Cases come from the seeded generator of probes/gen.h: with --raw 50 (the
** default) half are raw bit patterns (NaN and Inf codes, scales over their
** whole encoding) and half finite values drawn to exercise cancellation and
** the window; sparse kinds get legal random metadata. Each case is
** evaluated by the model and by the device and the two D words are compared
** as integers, NaN payloads included.
**
** RUN form: the model is the one `ladder infer` stored with that run, the
** device the run's own (the --device it was climbed with, else its recipe's
** device:) and the cases, seed and finite share those of the recipe's
** random: block, each unless an option says otherwise; the validation is
** stored with that run. --model form: a new run of its own holds it. Either
** way the store keeps the counts and every mismatch (case, model word,
** device word, index in the case stream).
**
** Output: up to MAXSHOW mismatches, then
**     validate: <mismatches>/<cases> mismatches (<model> vs <device>)
** Exit 0 when nothing mismatched, 1 when something did, 2 usage, 3 data,
** 4 device.
*/
#include "cli.h"
#include "commands.h"
#include "db/origin.h"
#include "db/store.h"
#include "devices/device.h"
#include "io/modelfile.h"
#include "io/vecline.h"
#include "probes/case.h"
#include "probes/gen.h"
#include "probes/ladder.h"
#include "probes/recipe.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BATCH 8192          /* cases generated and evaluated at a time */
#define MAXSHOW 3           /* mismatches printed */
#define DEFAULT_CASES 1000000
#define MAX_CASES 1000000000ull /* a few minutes on a GPU; more is a typo */

static const char usage[] =
    "usage: ladder validate <run> [--device <spec>] [--cases <n>] [--seed <s>]\n"
    "       ladder validate --model <spec> --device <spec> [--cases <n>] [--seed <s>]\n"
    "\n"
    "  Compares a model with a device on random cases, bit for bit, and\n"
    "  prints\n"
    "      validate: <mismatches>/<cases> mismatches (<model> vs <device>)\n"
    "  Counts and every mismatch go into the store. Exit 0 when nothing\n"
    "  mismatched, 1 when something did.\n"
    "\n"
    "  <run>            a run id or 'latest': the model `ladder infer` found\n"
    "                   for it, on the run's device, with its recipe's random\n"
    "                   settings (cases, finite, seed) unless options are given\n"
    "  --model <spec>   a preset name or a model file\n"
    "  --device <spec>  sim:<model>, exec-framed:<command line>,\n"
    "                   exec:<command line> or cuda:<index>\n"
    "  --cases <n>      cases to run, 1..1000000000 (default 1000000)\n"
    "  --seed <s>       seed of the case stream, 0..2^64-1 (default 1)\n"
    "  --raw <p>        percent of raw bit-pattern cases, 0..100 (default 50)\n"
    "  --db <file>      the store (default ladder.db)\n"
    "  -q, --quiet      print only the result line\n";

/* What `validate <run>` takes from the run: the model `ladder infer` stored
** with it, the device spec it ran on and its recipe's random settings. */
typedef struct run_setup {
    lad_datapath dp;
    char name[300];
    char device[600];   /* "" when the run names none */
    int has_random;     /* the run's recipe gave the settings below */
    uint64_t cases, seed;
    int raw;            /* percent: 100 - the recipe's random.finite */
} run_setup;

/*
** The model is the inference "model" (the YAML text infer stores with every
** inference); the device is the --device of the run's command line, else
** its recipe's `device:`, as stored with the run (the device's name, a
** GPU's or a model's, would not open it again: cuda:3 must stay cuda:3).
*/
static int setup_of_run(lad_store *st, const char *db, int64_t run, run_setup *rs,
                        lad_err *err)
{
    lad_show sh;
    int rc = lad_store_show(st, run, &sh, err);
    if (rc != LAD_OK)
        return rc;
    const lad_inference_row *model = NULL;
    for (size_t i = sh.ninf; i-- > 0 && model == NULL;)
        if (strcmp(sh.inf[i].parameter, "model") == 0)
            model = &sh.inf[i];
    if (model == NULL)
        rc = lad_errf(err, LAD_EDATA, "run %" PRId64 " has no inferred model; run "
                      "'ladder infer %" PRId64 "' first", run, run);
    else
        rc = lad_model_parse("<inferred model>", model->value, strlen(model->value), &rs->dp,
                             NULL, 0, err);
    snprintf(rs->name, sizeof rs->name, "run %" PRId64 " inferred", run);
    lad_show_free(&sh);
    lad_run_origin o;
    if (rc != LAD_OK || (rc = lad_run_origin_read(db, run, &o, err)) != LAD_OK)
        return rc;
    snprintf(rs->device, sizeof rs->device, "%s", o.device);
    if (o.recipe) {
        lad_recipe r;
        char file[64];
        snprintf(file, sizeof file, "<recipe of run %" PRId64 ">", run);
        rc = lad_recipe_parse(file, o.recipe, o.recipe_len, &r, err);
        if (rc == LAD_OK) {
            if (!rs->device[0])
                snprintf(rs->device, sizeof rs->device, "%s", r.device);
            rs->has_random = 1;
            rs->cases = (uint64_t)r.random.cases;
            rs->seed = r.random.seed;
            rs->raw = 100 - r.random.finite;
            lad_recipe_free(&r);
        }
    }
    lad_run_origin_free(&o);
    return rc;
}

typedef struct tally {
    uint64_t cases, bad;
    int shown;
} tally;

static void show(const lad_datapath *dp, const lad_case *cs, uint64_t index,
                 uint32_t want, uint32_t got)
{
    char line[LAD_VECLINE_MAX], w[12], g[12];
    if (lad_vecline_format(dp, cs, NULL, line, sizeof line) < 0)
        line[0] = 0;
    lad_vecline_hex(&dp->d, want, w);
    lad_vecline_hex(&dp->d, got, g);
    printf("  case %" PRIu64 ": model %s, device %s: %s\n", index, w, g, line);
}

/* The model's side of one batch, run beside the device's. */
typedef struct model_job {
    const lad_datapath *dp;
    const lad_case *cs;
    size_t n;
    uint32_t *want;
} model_job;

static void *model_work(void *arg)
{
    model_job *j = arg;
    lad_eval_batch(j->dp, j->cs, j->n, j->want);
    return NULL;
}

/* Runs the validation proper. Each batch is evaluated by the model on a
** second thread while the device evaluates it (both only read the cases):
** on a simulated device that halves the wall time on two cores. */
static int validate(const lad_datapath *dp, lad_device *dev, lad_store *st,
                    int64_t vid, uint64_t ncases, uint64_t seed, int raw,
                    int quiet, tally *t, lad_err *err)
{
    lad_case *cs = malloc(sizeof(lad_case) * BATCH);
    lad_case_data *bad = malloc(sizeof(lad_case_data) * BATCH);
    uint32_t *want = malloc(sizeof(uint32_t) * BATCH * 4);
    uint64_t *index = malloc(sizeof(uint64_t) * BATCH);
    int rc = LAD_OK;
    if (!cs || !bad || !want || !index) {
        rc = lad_errf(err, LAD_EINTERNAL, "out of memory");
        goto done;
    }
    uint32_t *got = want + BATCH, *bw = want + 2 * BATCH, *bg = want + 3 * BATCH;
    for (uint64_t first = 0; first < ncases; first += BATCH) {
        size_t n = ncases - first < BATCH ? (size_t)(ncases - first) : BATCH;
        lad_gen_cases(dp, seed, raw, first, cs, n);
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
            if (!quiet && t->shown < MAXSHOW) {
                show(dp, &cs[i], first + i, want[i], got[i]);
                t->shown++;
            }
            lad_case_to_data(&cs[i], &bad[m]);
            bw[m] = want[i];
            bg[m] = got[i];
            index[m++] = first + i;
        }
        t->cases += n;
        t->bad += m;
        if (m && (rc = lad_store_add_mismatches(st, vid, bad, bw, bg, index, m, err)))
            goto done;
    }
done:
    free(cs);
    free(bad);
    free(want);
    free(index);
    return rc;
}

int cmd_validate(int argc, char **argv)
{
    const char *model = NULL, *device = NULL, *cases = NULL, *seeds = NULL;
    const char *raws = NULL, *db = LAD_STORE_DEFAULT, *quiet = NULL;
    cli_opt opts[] = {
        {"model", 0, 1, &model},
        {"device", 0, 1, &device},
        {"cases", 0, 1, &cases},
        {"seed", 0, 1, &seeds},
        {"raw", 0, 1, &raws},
        {"db", 0, 1, &db},
        {"quiet", 'q', 0, &quiet},
        {NULL, 0, 0, NULL},
    };
    char *pos[2];
    int npos = 0;
    int rc = cli_parse(argc, argv, 1, opts, usage, pos, &npos, 1);
    if (rc == CLI_HELP)
        return 0;
    if (rc != LAD_OK)
        return rc;
    if (npos == 0 && !model)
        return cli_usage_error("validate needs a run or --model; see 'ladder validate --help'");
    if (npos == 1 && model)
        return cli_usage_error("give a run or --model, not both");
    if (model && !device)
        return cli_usage_error("--model needs --device");
    uint64_t ncases = DEFAULT_CASES, seed = 1, raw = 50;
    if (cases && (rc = cli_number(cases, "--cases", 1, MAX_CASES, &ncases)))
        return rc;
    if (seeds && (rc = cli_number(seeds, "--seed", 0, UINT64_MAX, &seed)))
        return rc;
    if (raws && (rc = cli_number(raws, "--raw", 0, 100, &raw)))
        return rc;

    lad_err err = {0};
    lad_store *st = NULL;
    lad_device *dev = NULL;
    run_setup rs = {0};
    lad_datapath *dp = &rs.dp;
    char *name = rs.name, *devspec = rs.device;
    int64_t run = 0, vid = 0;
    int own_run = 0;
    tally t = {0, 0, 0};
    if (model) {
        rc = lad_model_resolve(model, dp, &err);
        snprintf(rs.name, sizeof rs.name, "%s", model);
        snprintf(rs.device, sizeof rs.device, "%s", device);
        if (rc == LAD_OK)
            rc = lad_store_open(db, LAD_STORE_CREATE, &st, &err);
    } else {
        rc = lad_store_open(db, 0, &st, &err);
        if (rc == LAD_OK)
            rc = lad_store_resolve_run(st, pos[0], &run, &err);
        if (rc == LAD_OK)
            rc = setup_of_run(st, db, run, &rs, &err);
        if (rc == LAD_OK && device)
            snprintf(rs.device, sizeof rs.device, "%s", device);
        if (rc == LAD_OK && !rs.device[0])
            rc = lad_errf(&err, LAD_EUSAGE, "run %" PRId64 " names no device; give --device", run);
        /* The recipe's random settings, unless an option says otherwise. */
        if (rs.has_random) {
            ncases = cases ? ncases : rs.cases;
            seed = seeds ? seed : rs.seed;
            raw = raws ? raw : (uint64_t)rs.raw;
        }
    }
    if (rc == LAD_OK)
        rc = lad_datapath_check(dp, &err);
    if (rc == LAD_OK && (rc = lad_device_open(devspec, dp, &dev, &err)) != LAD_OK) {
        /* Say which device: a run's own may not be the one the user has in mind. */
        char msg[sizeof err.msg];
        snprintf(msg, sizeof msg, "%s", err.msg);
        lad_err_clear(&err);
        lad_errf(&err, rc, "device '%.100s': %s", devspec, msg);
    }
    if (rc != LAD_OK)
        goto fail;
    if (model) {
        lad_run_info info = {0};
        lad_run_device rd;
        lad_run_datapath rdp;
        lad_run_describe(&dev->info, dp, &rd, &rdp);
        info.command = "validate";
        info.argc = argc;
        info.argv = argv;
        info.device = &rd;
        info.dp = &rdp;
        info.version = LADDER_VERSION;
        info.dirty = -1;
        if ((rc = lad_store_begin_run(st, &info, &run, &err)))
            goto fail;
        own_run = 1;
    }
    char gen[32];
    lad_gen_name((int)raw, gen, sizeof gen);
    rc = lad_store_begin_validation(st, run, name, gen, seed, dp->k, lad_datapath_nscales(dp),
                                    lad_datapath_nmeta(dp), &vid, &err);
    if (rc == LAD_OK)
        rc = validate(dp, dev, st, vid, ncases, seed, (int)raw, quiet != NULL, &t, &err);
    if (rc == LAD_OK)
        rc = lad_store_end_validation(st, vid, t.cases, t.bad, &err);
    if (rc != LAD_OK)
        goto fail;
    if (own_run && (rc = lad_store_end_run(st, run, LAD_RUN_OK, NULL, &err)))
        goto fail;
    printf("validate: %" PRIu64 "/%" PRIu64 " mismatches (%s vs %s)\n", t.bad, t.cases, name,
           devspec);
    lad_device_close(dev);
    lad_store_close(st);
    return t.bad ? LAD_NO : LAD_OK;
fail:
    if (own_run)
        lad_store_end_run(st, run, LAD_RUN_FAILED, err.msg, NULL);
    lad_device_close(dev);
    lad_store_close(st);
    return cli_report(&err);
}
