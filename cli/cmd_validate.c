/*
** ladder validate: proves a model against a device on random cases.
**
**     ladder validate RUN [--device D] [--cases N] [--seed S] [--raw P] [--gen G]
**                     [--shard I/N]
**     ladder validate --model SPEC --device D [--cases N] [--seed S] [--raw P]
**                     [--gen G] [--shard I/N]
**
** Cases come from the seeded generator of probes/gen.h: with --raw 50 (the
** default) half are raw bit patterns (NaN and Inf codes, scales over their
** whole encoding) and half finite values drawn to exercise cancellation and
** the window; sparse kinds get legal random metadata. --gen names another
** generator of finite cases (near-zero, scale-edge: gen.h says what each
** aims at); with one, --raw defaults to 0. The store keeps the generator
** with the validation, and --resume draws from it again. Each case is
** evaluated by the model and by the device and the two D words are compared
** as integers, NaN payloads included.
**
** RUN form: the model is the one `ladder infer` stored with that run, the
** device the run's own (the --device it was climbed with, else its recipe's
** device:) and the cases, seed and finite share those of the recipe's
** random: block, each unless an option says otherwise; the validation is
** stored with that run. --model form: a new run of its own holds it. Either
** way the store keeps the counts and every mismatch (case, model word,
** device word, index in the case stream). A finished run validated on its
** own device (no --device, or the very spec it ran with), unsharded and not
** resumed, also gets the first LAD_STORE_JOIN_MAX mismatches as cases of
** its rung "validation": the device's words, which the next `ladder infer`
** checks its model on (docs/inference.md, "Refinement").
**
** --shard I/N runs only cases [I*S/N, (I+1)*S/N) of the stream of S cases
** (util/shard.h), so that N machines each run one and `ladder merge`
** makes of their stores the validation one machine would have stored.
**
** Output: up to MAXSHOW mismatches, then
**     validate: <mismatches>/<cases> mismatches (<model> vs <device>)
** followed by ", shard I/N" for a shard.
** Each batch of cases is committed with the counts so far: a validation
** that fails ends 'failed' with the cases it compared; SIGINT, SIGTERM or
** SIGHUP ends it 'interrupted' and ladder dies of the signal.
** --threads N evaluates batches of a sim device on N threads (default: one
** per online CPU); the store gets the same rows whatever N.
** --resume VALIDATION goes on with a failed or interrupted validation from
** its last committed chunk, on the same case stream (seed, finite share,
** cases planned), model and device, and ends with the counts an
** uninterrupted one has.
** Exit 0 when nothing mismatched, 1 when something did, 2 usage, 3 data,
** 4 device; 128 + the signal's number after one.
*/
#include "cli.h"
#include "commands.h"
#include "db/store.h"
#include "devices/device.h"
#include "io/modelfile.h"
#include "io/vecline.h"
#include "probes/case.h"
#include "probes/gen.h"
#include "probes/ladder.h"
#include "probes/recipe.h"
#include "probes/validate.h"
#include "json.h"
#include "util/hooks.h"
#include "util/progress.h"
#include "runview.h"
#include "inference/infer.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAXSHOW 3           /* mismatches printed */
#define DEFAULT_CASES 1000000
#define MAX_CASES 1000000000ull /* a few minutes on a GPU; more is a typo */

/* What `validate <run>` takes from the run: the model `ladder infer` stored
** with it, the device spec it ran on and its recipe's random settings. */
typedef struct run_setup {
    lad_datapath dp;
    char name[300];
    char device[600];   /* "" when the run names none */
    int has_random;     /* the run's recipe gave the settings below */
    uint64_t cases, seed;
    int raw;            /* percent: 100 - the recipe's random.finite */
    char sha256[65];    /* the model file's text must hash to this; "" any */
    int finished;       /* the run ended ok: its mismatches may join it */
} run_setup;

/*
** The model is the inference "model" (the YAML text infer stores with every
** inference); the device is the one stored with the run: a sim model file
** by its absolute path, whose text must still hash as it did (its `name:`
** may be a preset's, so the name would not do), else the spec as given
** (cuda:3 must stay cuda:3). Runs stored before schema 4 have neither: the
** --device of their command line, else their recipe's `device:`.
*/
static int setup_of_run(lad_store *st, int64_t run, run_setup *rs,
                        lad_err *err)
{
    int rc = lad_infer_model(st, run, &rs->dp, err);
    snprintf(rs->name, sizeof rs->name, "run %" PRId64 " inferred", run);
    static lad_run_row row;
    char arg[600];
    if (rc != LAD_OK || (rc = lad_store_run(st, run, &row, err)) != LAD_OK ||
        (rc = lad_store_run_device_arg(st, run, arg, sizeof arg, err)) != LAD_OK)
        return rc;
    if (row.model_file[0])
        snprintf(rs->device, sizeof rs->device, "sim:%s", row.model_file);
    else
        snprintf(rs->device, sizeof rs->device, "%s", row.device_spec[0] ? row.device_spec : arg);
    snprintf(rs->sha256, sizeof rs->sha256, "%s", row.model_sha256);
    rs->finished = row.status == LAD_RUN_OK;
    /* a run without a recipe (validate --model) has no random settings */
    char *text, path[256];
    size_t len;
    lad_err none = {0};
    if (lad_store_recipe(st, run, &text, &len, path, sizeof path, &none) != LAD_OK)
        return none.code == LAD_EDATA ? LAD_OK : lad_errf(err, none.code, "%s", none.msg);
    lad_recipe r;
    char file[64];
    snprintf(file, sizeof file, "<recipe of run %" PRId64 ">", run);
    rc = lad_recipe_parse(file, text, len, &r, err);
    free(text);
    if (rc == LAD_OK) {
        if (!rs->device[0])
            snprintf(rs->device, sizeof rs->device, "%s", r.device);
        rs->has_random = 1;
        rs->cases = (uint64_t)r.random.cases;
        rs->seed = r.random.seed;
        rs->raw = 100 - r.random.finite;
        lad_recipe_free(&r);
    }
    return rc;
}

/*
** What --resume goes on with: validation vid's case stream (into *vo), its
** model and device (into *rs, as the validation began: its own run's for a
** --model validation, setup_of_run's for a run's) and its run. Refuses a
** validation that is completed or still running, or one of a store before
** its counts were kept per chunk.
*/
static int setup_of_validation(lad_store *st, const char *spec, run_setup *rs,
                               lad_validate_opts *vo, int64_t *run, int *own, lad_err *err)
{
    uint64_t vid;
    if (strcmp(spec, "latest") == 0) {
        int64_t latest;
        int lrc = lad_store_latest_validation(st, &latest, err);
        if (lrc)
            return lrc;
        vid = (uint64_t)latest;
    } else if (cli_number(spec, "--resume", 1, INT64_MAX, &vid)) {
        return LAD_EUSAGE;
    }
    lad_validation_row v;
    int raw = 0, gen = 0, rc = lad_store_validation(st, (int64_t)vid, &v, run, err);
    if (rc)
        return rc;
    if (v.status == LAD_RUN_OK || v.status == LAD_RUN_RUNNING)
        rc = lad_errf(err, LAD_EUSAGE, "validation %" PRIu64 " is %s; only a failed or "
                      "interrupted validation can be resumed", vid,
                      v.status == LAD_RUN_OK ? "completed" : "still running");
    else if (v.cases < 0 || v.mismatches < 0 || v.planned < 0)
        rc = lad_errf(err, LAD_EDATA, "validation %" PRIu64 " was stored before its "
                      "counts were kept per chunk; it cannot be resumed", vid);
    else if (v.mismatches > v.cases || v.stored != v.mismatches ||
             (v.cases > (v.shard_count > 1 ? v.stream_cases : v.planned)))
        rc = lad_errf(err, LAD_EDATA, "validation %" PRIu64 " counts %" PRId64 " mismatches "
                      "in %" PRId64 " of %" PRId64 " cases and stores %" PRId64 ": the store "
                      "is damaged", vid, v.mismatches, v.cases,
                      v.shard_count > 1 ? v.stream_cases : v.planned, v.stored);
    else if (lad_gen_parse(v.generator, &gen, &raw) != 0)
        rc = lad_errf(err, LAD_EDATA, "validation %" PRIu64 "'s generator '%s' is not "
                      "one this ladder draws", vid, v.generator);
    static lad_run_row row;
    if (rc == LAD_OK)
        rc = lad_store_run(st, *run, &row, err);
    *own = rc == LAD_OK && strcmp(row.command, "validate") == 0;
    if (rc == LAD_OK && *own) {
        /* a --model validation: the model by its spec, the run's device */
        rc = lad_model_resolve(v.model, &rs->dp, err);
        if (rc == LAD_EUSAGE)   /* the store's name, not the user's */
            rc = err->code = LAD_EDATA;
        snprintf(rs->name, sizeof rs->name, "%s", v.model);
        snprintf(rs->device, sizeof rs->device, "%s", row.device_spec);
        snprintf(rs->sha256, sizeof rs->sha256, "%s", row.model_sha256);
    } else if (rc == LAD_OK) {
        rc = setup_of_run(st, *run, rs, err);
    }
    if (rc == LAD_OK && strcmp(rs->name, v.model) != 0)
        rc = lad_errf(err, LAD_EDATA, "validation %" PRIu64 " checked '%s', not '%s'",
                      vid, v.model, rs->name);
    /* a shard goes on with its part of the whole stream it was cut from */
    int sharded = v.shard_count > 1 && v.stream_cases >= 0;
    *vo = (lad_validate_opts){.cases = (uint64_t)(sharded ? v.stream_cases : v.planned),
                              .seed = v.seed, .raw = raw, .gen = gen,
                              .resume = (int64_t)vid, .done = (uint64_t)v.cases,
                              .done_bad = (uint64_t)v.mismatches,
                              .shard_index = sharded ? (uint64_t)v.shard_index : 0,
                              .shard_count = sharded ? (uint64_t)v.shard_count : 1};
    lad_validation_row_free(&v);
    return rc;
}

/* A mismatch kept to be shown. */
typedef struct shown {
    uint64_t index;
    char want[17], got[17];
    char line[LAD_VECLINE_MAX];
} shown;

typedef struct tally {
    lad_progress *pr;   /* wiped before a mismatch is printed */
    int quiet;
    int json;           /* keep the first mismatches for the JSON object */
    int shown;
    shown first[MAXSHOW];
} tally;

/* Keeps the first MAXSHOW mismatches, printing them as they are found
** unless the answer is JSON. */
static void show(void *ctx, const lad_datapath *dp, const lad_case *cs, uint64_t index,
                 lad_word_t want, lad_word_t got)
{
    tally *t = ctx;
    if ((t->quiet && !t->json) || t->shown >= MAXSHOW)
        return;
    shown *s = &t->first[t->shown++];
    s->index = index;
    if (lad_vecline_format(dp, cs, NULL, s->line, sizeof s->line) < 0)
        s->line[0] = 0;
    lad_vecline_hex(&dp->d, want, s->want);
    lad_vecline_hex(&dp->d, got, s->got);
    if (!t->json)
        lad_progress_hide(t->pr);
    if (!t->json)
        printf("  case %" PRIu64 ": model %s, device %s: %s\n", index, s->want, s->got,
               s->line);
}

static void print_json(const char *model, const char *device, int64_t run, uint64_t cases,
                       uint64_t bad, uint64_t joined, const char *decide, const tally *t)
{
    printf("{\"model\": ");
    cli_json_str(stdout, model);
    printf(", \"device\": ");
    cli_json_str(stdout, device);
    printf(", \"run\": %" PRId64 ", \"cases\": %" PRIu64 ", \"mismatches\": %" PRIu64
           ", \"joined\": %" PRIu64 ", \"first\": [",
           run, cases, bad, joined);
    for (int i = 0; i < t->shown; i++)
        printf("%s{\"index\": %" PRIu64 ", \"model\": \"%s\", \"device\": \"%s\", "
               "\"case\": \"%s\"}", i ? ", " : "", t->first[i].index, t->first[i].want,
               t->first[i].got, t->first[i].line);
    printf("], \"decide\": ");
    if (decide[0])
        cli_json_str(stdout, decide);
    else
        printf("null");
    printf("}\n");
}

int cmd_validate(int argc, char **argv)
{
    const char *model = NULL, *device = NULL, *cases = NULL, *seeds = NULL;
    const char *raws = NULL, *db = LAD_STORE_DEFAULT, *quiet = NULL, *json = NULL;
    const char *gens = NULL;
    const char *shard = NULL, *threads = NULL;
    const char *resume = NULL, *trust = NULL, *no_decide = NULL;
    cli_opt opts[] = {
        {"no-decide", 0, 0, &no_decide},
        {"resume", 0, 1, &resume},
        {"trust-exec", 0, 0, &trust},
        {"model", 0, 1, &model},
        {"device", 0, 1, &device},
        {"cases", 0, 1, &cases},
        {"seed", 0, 1, &seeds},
        {"raw", 0, 1, &raws},
        {"gen", 0, 1, &gens},
        {"shard", 0, 1, &shard},
        {"threads", 0, 1, &threads},
        {"db", 0, 1, &db},
        {"quiet", 'q', 0, &quiet},
        {"json", 0, 0, &json},
        {NULL, 0, 0, NULL},
    };
    char *pos[2];
    int npos = 0;
    int rc = cli_parse(argc, argv, opts, pos, &npos, 0, 1, NULL);
    if (rc)
        return rc == CLI_HELP ? 0 : rc;
    if (resume && (npos || model || cases || seeds || raws || gens || shard))
        return cli_usage_error("--resume goes on with the validation's own run, model and "
                               "cases; give none of them");
    if (npos == 0 && !model && !resume)
        return cli_usage_error("validate needs a run or --model; see 'ladder validate --help'");
    if (npos == 1 && model)
        return cli_usage_error("give a run or --model, not both");
    if (model && !device)
        return cli_usage_error("--model needs --device");
    uint64_t ncases = DEFAULT_CASES, seed = 1, raw = 50;
    int gen = LAD_GEN_MIX;
    if (gens && (gen = lad_gen_find(gens)) < 0) {
        static const char *const names[] = {"mix", "near-zero", "scale-edge", NULL};
        return cli_unknown_among("generator", gens, names,
                                 "--gen takes mix, near-zero or scale-edge");
    }
    if (gen != LAD_GEN_MIX)
        raw = 0;
    if (cases && (rc = cli_number(cases, "--cases", 1, MAX_CASES, &ncases)))
        return rc;
    if (seeds && (rc = cli_number(seeds, "--seed", 0, UINT64_MAX, &seed)))
        return rc;
    if (raws && (rc = cli_number(raws, "--raw", 0, 100, &raw)))
        return rc;
    uint64_t nthread = 0;
    if (threads && (rc = cli_number(threads, "--threads", 1, LAD_VALIDATE_MAX_THREADS,
                                    &nthread)))
        return rc;
    uint64_t shard_i = 0, shard_n = 1;
    if (shard && (rc = cli_shard(shard, &shard_i, &shard_n)))
        return rc;

    lad_err err = {0};
    lad_store *st = NULL;
    lad_device *dev = NULL;
    run_setup rs = {0};
    lad_datapath *dp = &rs.dp;
    char *name = rs.name, *devspec = rs.device;
    int64_t run = 0;
    int own_run = 0, own = 0; /* own: a resumed validation's run is its own */
    int join = 0;             /* the mismatches join run's cases */
    uint64_t joined = 0;      /* how many did */
    static tally t;
    t.quiet = quiet != NULL;
    t.json = json != NULL;
    uint64_t ran = 0, bad = 0;
    lad_validate_opts vo = {0};
    if (resume) {
        rc = lad_store_open(db, 0, &st, &err);
        if (rc == LAD_OK)
            rc = setup_of_validation(st, resume, &rs, &vo, &run, &own, &err);
        if (rc == LAD_OK && device && strcmp(device, rs.device) != 0)
            rc = lad_errf(&err, LAD_EUSAGE, "validation %" PRId64 " ran on '%s', not '%s'; "
                          "it goes on on its own device", vo.resume, rs.device, device);
        ncases = vo.cases;
        seed = vo.seed;
        raw = (uint64_t)vo.raw;
    } else if (model) {
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
            rc = setup_of_run(st, run, &rs, &err);
        /* The run's own device, unsharded: the mismatches join its cases
        ** (another device's words are no evidence of this run). */
        join = rc == LAD_OK && rs.finished && rs.device[0] && shard_n == 1 &&
               (!device || strcmp(device, rs.device) == 0);
        if (rc == LAD_OK && device) {
            snprintf(rs.device, sizeof rs.device, "%s", device);
            rs.sha256[0] = 0;   /* the device asked for, as it is */
        }
        if (rc == LAD_OK && !rs.device[0])
            rc = lad_errf(&err, LAD_EUSAGE, "run %" PRId64 " names no device; give --device", run);
        /* The recipe's random settings, unless an option says otherwise. */
        if (rs.has_random) {
            ncases = cases ? ncases : rs.cases;
            seed = seeds ? seed : rs.seed;
            raw = raws || gens ? raw : (uint64_t)rs.raw;
        }
    }
    if (rc == LAD_OK)
        rc = lad_datapath_check(dp, &err);
    /* A device the store names runs a command only when trusted. */
    char whose[64];
    if (resume)
        snprintf(whose, sizeof whose, "validation %s", resume);
    else
        snprintf(whose, sizeof whose, "run %" PRId64, run);
    if (rc == LAD_OK && !device)
        rc = lad_device_trust(devspec, whose, trust != NULL, 0, &err);
    if (rc == LAD_OK)
        cli_announce_exec(NULL, devspec, device ? NULL : whose);
    if (rc == LAD_OK && (rc = lad_device_open(devspec, dp, &dev, &err)) != LAD_OK) {
        /* Say which device: a run's own may not be the one the user has in mind. */
        char msg[sizeof err.msg];
        snprintf(msg, sizeof msg, "%s", err.msg);
        lad_err_clear(&err);
        if (rc == LAD_EUSAGE && !device)   /* the store's name, not the user's */
            rc = LAD_EDATA;
        lad_errf(&err, rc, "device '%.100s': %s", devspec, msg);
    }
    if (rc == LAD_OK && rs.sha256[0] && strcmp(rs.sha256, dev->info.model_sha256) != 0)
        rc = lad_errf(&err, LAD_EDATA, "model file '%.300s' of run %" PRId64 "'s device "
                      "changed since the run (sha256 %.12s... then, %.12s... now)%s",
                      dev->info.model_file, run, rs.sha256, dev->info.model_sha256,
                      resume ? "; a validation goes on only against the model it began with"
                             : "; give --device to validate against it as it is");
    /* Reopened only now, when everything checked: a refusal leaves it. */
    if (rc == LAD_OK && own && (rc = lad_store_resume_run(st, run, &err)) == LAD_OK)
        own_run = 1;
    if (rc == LAD_OK && resume)
        rc = lad_store_resume_validation(st, vo.resume, &err);
    if (rc != LAD_OK)
        goto fail;
    if (model) {
        lad_run_info info = {0};
        lad_run_device rd;
        lad_run_datapath rdp;
        lad_run_describe(&dev->info, dp, &rd, &rdp);
        rd.spec = devspec;
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
    lad_sig_graceful();
    if (!resume)
        vo = (lad_validate_opts){.cases = ncases, .seed = seed, .raw = (int)raw, .gen = gen,
                                 .shard_index = shard_i, .shard_count = shard_n,
                                 .join = join ? run : 0};
    vo.joined = &joined;
    vo.threads = (int)nthread;
    vo.mismatch = show;
    vo.ctx = &t;
    lad_progress pr;
    lad_progress_init(&pr, quiet != NULL);
    t.pr = &pr;
    vo.progress = lad_progress_step;
    vo.progress_ctx = &pr;
    if (vo.shard_count > 1)
        lad_progress_begin(&pr, "validate %s: shard %" PRIu64 "/%" PRIu64 " of %" PRIu64
                           " cases", name, vo.shard_index, vo.shard_count, ncases);
    else
        lad_progress_begin(&pr, "validate %s: %" PRIu64 " cases", name, ncases);
    rc = lad_validate(st, run, name, dp, dev, &vo, &ran, &bad, &err);
    lad_progress_end(&pr, rc);
    lad_progress_free(&pr);
    if (rc != LAD_OK)
        goto fail;
    if (own_run && (rc = lad_store_end_run(st, run, LAD_RUN_OK, NULL, &err)))
        goto fail;
    /* Refinement: the model the joined mismatches refute gives way to one
    ** that explains them, and the decide rung decides what that one leaves
    ** open, on the same device. */
    char decided[256] = "";
    if (joined && !no_decide) {
        lad_progress_init(&pr, quiet != NULL);
        lad_progress_begin(&pr, "decide run %" PRId64, run);
        rc = lad_ladder_decide(st, run, dev, dp, lad_infer_next, lad_progress_step, &pr,
                               decided, sizeof decided, &err);
        lad_progress_end(&pr, rc);
        lad_progress_free(&pr);
        if (rc != LAD_OK)
            goto fail;
    }
    if (json)
        print_json(name, devspec, run, ran, bad, joined, decided, &t);
    else if (vo.shard_count > 1)
        printf("validate: %" PRIu64 "/%" PRIu64 " mismatches (%s vs %s), shard %" PRIu64
               "/%" PRIu64 "\n", bad, ran, name, devspec, vo.shard_index, vo.shard_count);
    else
        printf("validate: %" PRIu64 "/%" PRIu64 " mismatches (%s vs %s)\n", bad, ran, name,
               devspec);
    if (joined && !quiet && !json)
        fprintf(stderr, "ladder: %" PRIu64 " mismatching case%s joined run %" PRId64
                "'s evidence (rung validation): 'ladder infer %" PRId64 "' fits %s\n",
                joined, joined == 1 ? "" : "s", run, run, joined == 1 ? "it" : "them");
    if (decided[0] && !quiet && !json)
        fprintf(stderr, "ladder: the decide rung on run %" PRId64 ": %s\n", run, decided);
    lad_device_close(dev);
    lad_store_close(st);
    return bad ? LAD_NO : LAD_OK;
fail:
    if (own_run)
        lad_store_end_run(st, run, lad_sig_pending() ? LAD_RUN_INTERRUPTED : LAD_RUN_FAILED,
                          err.msg, NULL);
    lad_device_close(dev);
    lad_store_close(st);
    rc = cli_report(&err);
    lad_sig_reraise();
    return rc;
}
