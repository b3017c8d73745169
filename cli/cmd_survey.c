/*
** ladder survey: the whole ladder over every datapath of one device.
**
**     ladder survey [--device cuda:N | sim:ARCH | vectors:DIR[/PREFIX]] [--only GLOB] [--cases N]
**                   [--db FILE] [--resume] [--json] [-o FILE] [--vectors DIR]
**                   [--shard I/N] [-q]
**
** The datapaths: on sim:ARCH the presets of that generation (sm_80 or
** sm80: the presets whose arch has the same number; cdna3 or gfx942: the
** presets of that AMD arch), each on its own
** simulated device sim:<preset>; on cuda:N the rows of the kernel table
** that run on the GPU's compute capability, each mapped to the preset of
** its instruction for the newest generation not above the GPU's. The GPU
** is opened first, so a machine without one exits 4 before the store is
** touched.
**
** For each datapath: a recipe built in memory from the preset (the
** instruction only: names, formats, K, scales, sparsity, every rung the
** kind allows, as tests/data/recipe-gen.sh writes it), the ladder climbed,
** the model inferred from its words, validated on --cases random cases
** against the device, compared with the preset parameter by parameter (the
** parameters the registry says can matter), the preset itself validated
** on as many cases, and the captured vectors whose header names that
** preset replayed on the device. Everything goes into the store: the runs,
** and a survey row with the device's identity and one row per datapath,
** which is what --resume skips.
**
** On vectors:DIR the captured files of DIR (whose names begin with
** PREFIX, and match --only) are the datapaths, each named by the preset
** its words match (as `ladder check` chooses): the file fitted as `ladder
** fit` does (cli/fitfile.h), the fitted model stored as the inferred model
** of a run of its own, its mismatches and the preset's on the file's words
** in place of the validations, and its verdict against the preset.
**
** --shard I/N surveys only the datapaths i (0-based, in preset order) with
** i % N = I: a datapath is the unit, since its ladder, inference and
** validations need all of its cases; `ladder merge` makes of the N stores
** the survey one machine would have stored.
**
** Output: progress on stderr (util/progress.h; -q none): on a terminal the
** rungs and findings of each datapath as lines under a live line; in a log
** the stages that last over 2 s, or every stage and finding with
** LADDER_PROGRESS=1 (scripts/slurm sets it). Then one table
** on stdout, or with --json the same as one JSON document (the text the
** store keeps); -o FILE also writes that JSON to FILE, whole or not at
** all, as `--json` does for the other commands and `-o` their artifact.
** Exit 0 when every datapath's model equals its preset and both validations
** found no mismatch, 1 otherwise; 2 usage; 4 no device.
*/
#include "cli.h"
#include "fitfile.h"
#include "replay.h"
#include "surveyview.h"
#include "util/outfile.h"
#include "commands.h"
#include "json.h"

#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include "db/store.h"
#include "devices/device.h"
#include "inference/infer.h"
#include "io/modelfile.h"
#include "io/vecfile.h"
#include "kernels/kernels.h"
#include "model/params.h"
#include "model/presets.h"
#include "probes/diff.h"
#include "probes/ladder.h"
#include "probes/recipe.h"
#include "probes/validate.h"
#include "util/buf.h"
#include "util/json.h"
#include "util/progress.h"

#define DEFAULT_CASES 1000000
#define MAX_CASES 1000000000ull
#define MAXVEC 256          /* vector files looked at */

/* What the survey covers. */
typedef struct scope {
    char device[128];        /* as given: "cuda:0", "sim:sm_90a", "vectors:v/a100-" */
    int gpu;                 /* 1: cuda:N */
    int index;               /* N */
    int archnum;             /* the generation's number: 90 for sm_90a */
    char arch[16];           /* its spelling in the presets: "sm_90a" */
    lad_gpu_info info;       /* the GPU's identity (cuda) */
    const lad_preset **dps;  /* the datapaths, in preset order */
    int n;
    int unmapped;            /* kernel rows that run here with no preset */
    int decide;              /* the decide rung ends each ladder (not --no-decide) */
    char **files;            /* vectors:DIR: the captured files, by name */
} scope;

/* The number in "sm_90a", "sm90", "sm_100": 90, 90, 100; -1 when s is no
** arch. */
static int arch_number(const char *s)
{
    if (strncmp(s, "sm", 2) != 0)
        return -1;
    s += 2 + (s[2] == '_');
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || v <= 0 || v > 999 || (*end && strcmp(end, "a") != 0))
        return -1;
    return (int)v;
}

/* The AMD generations by name and by arch: cdna1 is gfx908 (MI100), cdna2
** gfx90a (MI200), cdna3 gfx942 (MI300). Returns the arch the presets
** spell, or NULL when s is neither. */
static const char *amd_arch(const char *s)
{
    static const char *const gens[][2] = {
        {"cdna1", "gfx908"}, {"cdna2", "gfx90a"}, {"cdna3", "gfx942"}};
    for (size_t i = 0; i < sizeof gens / sizeof gens[0]; i++)
        if (strcmp(s, gens[i][0]) == 0 || strcmp(s, gens[i][1]) == 0)
            return gens[i][1];
    return NULL;
}

/* Whether preset p is of the generation sim:<gen> names: an NVIDIA one by
** its number (archnum), an AMD one by its arch (amd). */
static int of_generation(const lad_preset *p, int archnum, const char *amd)
{
    return amd ? strcmp(p->dp.arch, amd) == 0 : arch_number(p->dp.arch) == archnum;
}

static int wanted(const char *only, const lad_preset *p)
{
    return only == NULL || fnmatch(only, p->dp.name, 0) == 0;
}

/* The preset for kernel row k on a GPU of compute capability cc: of the
** presets that row runs, the one of the newest generation not above cc. */
static const lad_preset *preset_of_kernel(const lad_kernel *k, int cc)
{
    const lad_preset *best = NULL;
    int bestnum = -1;
    for (int i = 0; i < lad_preset_count(); i++) {
        const lad_preset *p = lad_preset_get(i);
        const lad_kernel *pk;
        lad_err e = {0};
        int num = arch_number(p->dp.arch);
        if (num > cc || num <= bestnum || lad_kernel_for(&p->dp, &pk, &e) != LAD_OK ||
            pk != k)
            continue;
        best = p;
        bestnum = num;
    }
    return best;
}

static int add_dp(scope *s, const lad_preset *p)
{
    for (int i = 0; i < s->n; i++)
        if (s->dps[i] == p)
            return LAD_OK;
    const lad_preset **d2 = realloc(s->dps, (size_t)(s->n + 1) * sizeof *d2);
    if (d2 == NULL)
        return cli_error(LAD_EINTERNAL, "out of memory");
    s->dps = d2;
    s->dps[s->n++] = p;
    return LAD_OK;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* vectors:DIR or vectors:DIR/PREFIX: the .vec files of DIR (whose names
** begin with PREFIX, and match --only), by name, into s->files; the
** survey's arch and GPU are those the first file's header names. Prints
** the error and returns its code on failure. */
static int capture_scope(const char *spec, const char *only, scope *s)
{
    char dir[4096], prefix[4096] = "";
    struct stat st;
    snprintf(dir, sizeof dir, "%s", spec);
    for (size_t len = strlen(dir); len > 1 && dir[len - 1] == '/';)
        dir[--len] = 0;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        char *slash = strrchr(dir, '/');
        snprintf(prefix, sizeof prefix, "%s", slash ? slash + 1 : dir);
        if (slash)
            slash[slash == dir] = 0;  /* "/x" keeps "/" */
        else
            snprintf(dir, sizeof dir, ".");
    }
    DIR *dh = opendir(dir);
    if (dh == NULL)
        return cli_error(LAD_EDATA, "cannot open vectors folder '%s': %s", dir,
                         strerror(errno));
    struct dirent *e;
    int rc = LAD_OK;
    while (rc == LAD_OK && (e = readdir(dh)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len <= 4 || strcmp(e->d_name + len - 4, ".vec") != 0 ||
            strncmp(e->d_name, prefix, strlen(prefix)) != 0 ||
            (only && fnmatch(only, e->d_name, 0) != 0))
            continue;
        char **f2 = realloc(s->files, (size_t)(s->n + 1) * sizeof *f2);
        size_t sz = strlen(dir) + len + 2;
        char *path = malloc(sz);
        if (f2)
            s->files = f2;
        if (f2 == NULL || path == NULL) {
            free(path);
            rc = cli_error(LAD_EINTERNAL, "out of memory");
            break;
        }
        snprintf(path, sz, "%s/%s", dir, e->d_name);
        s->files[s->n++] = path;
    }
    closedir(dh);
    if (rc)
        return rc;
    if (s->n == 0)
        return cli_usage_error("no .vec file in '%s'%s%s%s%s%s", dir, prefix[0] ? " begins with '" : "",
                               prefix, prefix[0] ? "'" : "", only ? " and matches --only " : "",
                               only ? only : "");
    qsort(s->files, (size_t)s->n, sizeof s->files[0], by_name);
    lad_vecfile *vf;
    lad_err err = {0};
    if (lad_vecfile_open(s->files[0], &vf, &err) == LAD_OK) {
        snprintf(s->arch, sizeof s->arch, "%s", vf->hdr.arch);
        snprintf(s->info.name, sizeof s->info.name, "%s", vf->hdr.gpu);
        lad_vecfile_close(vf);
    }
    lad_err_clear(&err);
    return LAD_OK;
}

static void free_scope(scope *s)
{
    for (int i = 0; s->files && i < s->n; i++)
        free(s->files[i]);
    free(s->files);
    free(s->dps);
}

/* Fills s from --device and --only; for a GPU, opens it to learn what it
** is. Prints the error and returns its code on failure. */
static int find_scope(const char *device, const char *only, scope *s)
{
    snprintf(s->device, sizeof s->device, "%s", device);
    if (strncmp(device, "cuda:", 5) == 0) {
        uint64_t idx;
        int rc = cli_number(device + 5, "--device cuda:<index>", 0, 1023, &idx);
        if (rc)
            return rc;
        s->gpu = 1;
        s->index = (int)idx;
        lad_gpu *g = NULL;
        lad_err err = {0};
        if ((rc = lad_gpu_open(s->index, &g, &s->info, &err)) != LAD_OK)
            return cli_error(rc, "device '%s': %s", device, err.msg);
        lad_gpu_close(g);
        s->archnum = s->info.cc;
        int runs = 0;
        for (int i = 0; i < lad_kernel_count(); i++) {
            const lad_kernel *k = lad_kernel_get(i);
            if (s->info.cc < k->min_cc || lad_target_for_cc(k->targets, s->info.cc) < 0)
                continue;
            runs++;
            const lad_preset *p = preset_of_kernel(k, s->info.cc);
            s->unmapped += p == NULL;
            if (p && wanted(only, p) && (rc = add_dp(s, p)))
                return rc;
        }
        snprintf(s->arch, sizeof s->arch, "sm_%d", s->info.cc);
        if (runs == 0)
            return cli_error(LAD_EDEVICE, "device '%s': no kernel of this ladder runs on "
                             "compute capability %d.%d (%s)", device, s->info.cc / 10,
                             s->info.cc % 10, s->info.name);
    } else if (strncmp(device, "sim:", 4) == 0) {
        const char *amd = amd_arch(device + 4);
        s->archnum = amd ? 0 : arch_number(device + 4);
        if (s->archnum < 0)
            return cli_unknown("arch", device + 4, cli_arch_nearest(device + 4),
                               "--device sim:<arch> needs an arch such as sm_90a or cdna3");
        int any = 0;
        for (int i = 0; i < lad_preset_count(); i++) {
            const lad_preset *p = lad_preset_get(i);
            if (!of_generation(p, s->archnum, amd))
                continue;
            if (!any++)
                snprintf(s->arch, sizeof s->arch, "%s", p->dp.arch);
            int rc;
            if (wanted(only, p) && (rc = add_dp(s, p)))
                return rc;
        }
        if (!any)
            return cli_unknown("arch", device + 4, cli_arch_nearest(device + 4),
                               "no preset is of it; see 'ladder presets'");
    } else if (strncmp(device, "vectors:", 8) == 0) {
        int rc = capture_scope(device + 8, only, s);
        if (rc)
            return rc;
    } else {
        return cli_usage_error("--device must be cuda:<index>, sim:<arch> or "
                               "vectors:<dir>, not '%s'", device);
    }
    if (s->n == 0 && !s->files)
        return cli_usage_error("no datapath of %s matches --only '%s'", s->arch,
                               only ? only : "*");
    return LAD_OK;
}

/* ---- one datapath ----------------------------------------------------------- */

/* Progress (util/progress.h): each step of a datapath is a stage, what
** it found a note, both prefixed "[i/n] <datapath>: ". */
typedef struct progress {
    lad_progress *lp;
    int i, n;                /* datapath i of n */
    const char *name;
    size_t targeted;         /* cases of the rungs but random, so far */
} progress;

enum { NOTE, STAGE };

/* Shows "[i/n] <datapath>: <what>" as a note, or as the beginning of a
** stage. */
static void tell(const progress *pr, int how, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void tell(const progress *pr, int how, const char *fmt, ...)
{
    char what[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (how == STAGE)
        lad_progress_begin(pr->lp, "[%d/%d] %s: %s", pr->i + 1, pr->n, pr->name, what);
    else
        lad_progress_note(pr->lp, "[%d/%d] %s: %s", pr->i + 1, pr->n, pr->name, what);
}

static void rung_done(void *ctx, const lad_probe *p, int rc)
{
    progress *pr = ctx;
    pr->targeted = p->targeted;
    tell(pr, NOTE, "%-12s %6zu cases  %s%s", p->rung_name, p->rung_cases, rc ? "failed: " : "",
         rc ? p->err->msg : p->summary);
}

/* The ladder's cases answered, into the stage under way. */
static void rung_tick(void *ctx, const char *rung, size_t done, size_t total)
{
    const progress *pr = ctx;
    lad_progress_step(pr->lp, rung, done, total);
}

/* The verdict of the inferred model (A) against the preset (B), as
** `ladder diff run:<run> <preset>` gives it (probes/diff.h), into d->differ
** (db/store.h says how it is written) and, in words, into text. */
static void judge(const lad_datapath *preset, const lad_datapath *got, lad_survey_dp *d,
                  char *text, size_t size)
{
    lad_diff *df = malloc(sizeof *df);
    lad_err err = {0};
    if (df == NULL || lad_datapath_check(got, &err) != LAD_OK) {
        snprintf(d->differ, sizeof d->differ, "?");
        snprintf(text, size, "differs (%s)", df ? err.msg : "out of memory");
        lad_err_clear(&err);
        free(df);
        return;
    }
    lad_diff_run(df, got, preset, 0, 0);
    lad_buf b = {0};
    if (df->v.kind == LAD_EQUIV)
        lad_buf_printf(&b, "%s ", lad_verdict_names[LAD_EQUIV]);
    if (df->v.kind != LAD_SAME)
        lad_verdict_rows(df, &b);
    snprintf(d->differ, sizeof d->differ, "%s", b.p && !b.oom ? b.p : "");
    if (df->v.kind == LAD_DIFFERS && !d->differ[0])
        snprintf(d->differ, sizeof d->differ, "?");
    lad_buf_free(&b);
    /* "= preset", "≡ preset (why)", "differs (why)" */
    if (df->v.kind == LAD_SAME) {
        lad_buf_printf(&b, "= preset");
    } else {
        lad_buf_printf(&b, "%s%s (", lad_verdict_names[df->v.kind],
                       df->v.kind == LAD_EQUIV ? " preset" : "");
        lad_verdict_why(df, &b);
        lad_buf_printf(&b, ")");
    }
    snprintf(text, size, "%s", b.p && !b.oom ? b.p : "?");
    lad_buf_free(&b);
    free(df);
}

/* Validates dp against a device opened on devspec within run. */
static int validate_on(lad_store *st, int64_t run, const char *name, const lad_datapath *dp,
                       const char *devspec, uint64_t cases, uint64_t seed, int64_t *ran,
                       int64_t *bad, lad_progress *lp, lad_err *err)
{
    lad_device *dev = NULL;
    uint64_t r = 0, m = 0;
    lad_validate_opts o = {.cases = cases, .seed = seed, .raw = 50,
                           .progress = lad_progress_step, .progress_ctx = lp};
    int rc = lad_device_open(devspec, dp, &dev, err);
    if (rc == LAD_OK)
        rc = lad_validate(st, run, name, dp, dev, &o, &r, &m, err);
    lad_device_close(dev);
    *ran = (int64_t)r;
    *bad = (int64_t)m;
    return rc;
}

/* Whether presets a and b (<arch>-<instr>-<ab>-<d>) differ at most in the
** instruction. */
static int same_but_instr(const char *a, const char *b)
{
    const char *ia = strchr(a, '-'), *ib = strchr(b, '-');
    if (!ia || !ib || ia - a != ib - b || strncmp(a, b, (size_t)(ia - a)) != 0)
        return 0;
    ia = strchr(ia + 1, '-');
    ib = strchr(ib + 1, '-');
    return ia && ib && strcmp(ia, ib) == 0;
}

/* Replays on devspec the .vec files of dir whose header names preset
** `name`, or another instruction of its arch and formats: headers are
** written by people and can name the wrong instruction (ladder check
** weighs both), so each is replayed and the words say which made them. A
** file that cannot be read is skipped: the vectors at hand are evidence
** beside the survey, not its input. */
static int replay(const char *dir, const char *name, const char *devspec, lad_survey_dp *d,
                  lad_err *err)
{
    DIR *dh = opendir(dir);
    if (dh == NULL)
        return LAD_OK;
    char *files[MAXVEC];
    int n = 0;
    struct dirent *e;
    while ((e = readdir(dh)) != NULL && n < MAXVEC) {
        size_t len = strlen(e->d_name);
        if (len > 4 && strcmp(e->d_name + len - 4, ".vec") == 0) {
            size_t sz = strlen(dir) + len + 2;
            if ((files[n] = malloc(sz)) == NULL)
                break;
            snprintf(files[n++], sz, "%s/%s", dir, e->d_name);
        }
    }
    closedir(dh);
    qsort(files, (size_t)n, sizeof files[0], by_name);
    int rc = LAD_OK;
    for (int i = 0; i < n; i++) {
        lad_vecfile *vf;
        lad_err e2 = {0};
        char hp[96] = "";
        if (lad_vecfile_open(files[i], &vf, &e2) == LAD_OK) {
            if (vf->kind == LAD_VECFILE_VEC)
                lad_vechdr_preset(&vf->hdr, files[i], hp, sizeof hp, &e2);
            lad_vecfile_close(vf);
        }
        long cases = 0, bad = 0;
        if (rc == LAD_OK && same_but_instr(hp, name)) {
            rc = cli_replay_file(files[i], name, devspec, &cases, &bad, err);
            d->vec_files++;
            d->vec_cases += cases;
            d->vec_bad += bad;
        }
        free(files[i]);
    }
    return rc;
}

static int64_t millis_since(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)(t.tv_sec - t0->tv_sec) * 1000 + (t.tv_nsec - t0->tv_nsec) / 1000000;
}

/* Surveys one datapath into *d. A failure is recorded in d (done 0,
** message) rather than returned: the other datapaths still run. */
static void survey_one(lad_store *st, const scope *s, const lad_preset *p, uint64_t cases,
                       const char *vecdir, int argc, char **argv, progress *pr,
                       lad_survey_dp *d)
{
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    memset(d, 0, sizeof *d);
    snprintf(d->datapath, sizeof d->datapath, "%s", p->dp.name);
    snprintf(d->differ, sizeof d->differ, "-");
    d->inf_cases = d->inf_bad = d->pre_cases = d->pre_bad = -1;
    char devspec[96];
    if (s->gpu)
        snprintf(devspec, sizeof devspec, "cuda:%d", s->index);
    else
        snprintf(devspec, sizeof devspec, "sim:%s", p->dp.name);

    lad_err err = {0};
    lad_recipe r;
    memset(&r, 0, sizeof r);
    static lad_infer_result inf;
    char *text = lad_recipe_of(&p->dp, devspec, LAD_RECIPE_OF_RANDOM, s->decide);
    char file[96];
    snprintf(file, sizeof file, "<survey recipe %s>", p->dp.name);
    int rc = text ? lad_recipe_parse(file, text, strlen(text), &r, &err)
                  : lad_errf(&err, LAD_EINTERNAL, "out of memory");
    free(text);
    if (rc == LAD_OK) {
        lad_ladder_opts lo = {0};
        lo.next = lad_infer_next;
        lo.device = devspec;
        lo.argc = argc;
        lo.argv = argv;
        lo.done = rung_done;
        lo.progress = rung_tick;
        lo.ctx = pr;
        pr->targeted = 0;
        tell(pr, STAGE, "climbing the ladder on %s", devspec);
        rc = lad_ladder_run(&r, &lo, st, &d->run, &err);
        lad_progress_end(pr->lp, rc);
        d->probes = (int64_t)pr->targeted;
    }
    if (rc == LAD_OK) {
        tell(pr, STAGE, "inferring the model from run %" PRId64, d->run);
        rc = lad_infer(st, d->run, 1, lad_progress_step, pr->lp, &inf, &err);
        lad_progress_end(pr->lp, rc != LAD_OK && rc != LAD_NO);
        char said[600] = "";
        if (rc == LAD_OK || rc == LAD_NO)
            judge(&p->dp, &inf.dp, d, said, sizeof said);
        if (rc == LAD_NO) {
            /* The best model found still gets validated; the conflict is
            ** what the table says. */
            snprintf(d->message, sizeof d->message, "conflict: %.200s", inf.conflict);
            rc = LAD_OK;
        }
        tell(pr, NOTE, "inferred %s", said);
    }
    if (rc == LAD_OK) {
        char name[64];
        snprintf(name, sizeof name, "run %" PRId64 " inferred", d->run);
        tell(pr, STAGE, "validating the inferred model on %" PRIu64 " cases", cases);
        rc = validate_on(st, d->run, name, &inf.dp, devspec, cases, 1, &d->inf_cases,
                         &d->inf_bad, pr->lp, &err);
        lad_progress_end(pr->lp, rc);
    }
    if (rc == LAD_OK) {
        tell(pr, STAGE, "validating the preset on %" PRIu64 " cases", cases);
        rc = validate_on(st, d->run, p->dp.name, &p->dp, devspec, cases, 2, &d->pre_cases,
                         &d->pre_bad, pr->lp, &err);
        lad_progress_end(pr->lp, rc);
    }
    if (rc == LAD_OK) {
        tell(pr, STAGE, "replaying the captured vectors");
        rc = replay(vecdir, p->dp.name, devspec, d, &err);
        lad_progress_end(pr->lp, rc);
        tell(pr, NOTE, "replayed %" PRId64 " vector files", d->vec_files);
    }
    d->done = rc == LAD_OK;
    if (rc != LAD_OK) {
        snprintf(d->message, sizeof d->message, "%.255s", err.msg);
        tell(pr, NOTE, "failed: %s", err.msg);
    }
    lad_recipe_free(&r);
    d->millis = millis_since(&t0);
}

/* ---- one captured file ------------------------------------------------------- */

/* The datapath a captured file is named by: of the presets of its arch
** and formats, the one whose words match it best, the instruction its
** header names first (as `ladder check FILE` chooses, cli/replay.c); the
** preset's mismatches and the file's cases into *bad and *cases. "" with
** the reason in err when no preset is for the file. */
static int capture_preset(const char *path, char *name, size_t size, long *cases, long *bad,
                          lad_err *err)
{
    static tally t;
    lad_vecfile *vf;
    name[0] = 0;
    memset(&t, 0, sizeof t);
    int rc = lad_vecfile_open(path, &vf, err);
    if (rc == LAD_OK && vf->kind != LAD_VECFILE_VEC)
        rc = lad_errf(err, LAD_EUSAGE, "'%s' is not a .vec file", path);
    if (rc == LAD_OK)
        rc = cli_replay_vec(vf, NULL, NULL, &t, err);
    lad_vecfile_close(vf);
    if (rc == LAD_OK)
        snprintf(name, size, "%s", t.preset);
    *cases = t.cases;
    *bad = t.bad;
    return rc;
}

/* Surveys one captured file into *d: the file fitted (`ladder fit`), the
** fitted model stored as the inferred model of a run of its own (device
** kind "vectors", the file its name), its mismatches on the file's words
** as the inferred model's validation, the preset's as the preset's, and
** the verdict of the one against the other. A failure is recorded in d,
** as survey_one does. */
static void survey_capture(lad_store *st, const char *path, int argc, char **argv,
                           progress *pr, lad_survey_dp *d)
{
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    char name[64];
    snprintf(name, sizeof name, "%s", d->datapath);
    memset(d, 0, sizeof *d);
    snprintf(d->datapath, sizeof d->datapath, "%s", name);
    snprintf(d->differ, sizeof d->differ, "-");
    d->inf_cases = d->inf_bad = d->pre_cases = d->pre_bad = -1;
    lad_err err = {0};
    long cases = 0, bad = 0;
    const lad_preset *p = NULL;
    char pname[64];
    int rc = capture_preset(path, pname, sizeof pname, &cases, &bad, &err);
    if (rc == LAD_OK) {
        p = lad_preset_find(pname);
        d->pre_cases = cases;
        d->pre_bad = bad;
    }
    static cli_fit f;
    char spec[640];
    snprintf(spec, sizeof spec, "vectors:%s", path);
    if (rc == LAD_OK) {
        tell(pr, STAGE, "fitting %s", path);
        rc = cli_fit_open(path, p->dp.name, 0, &f, &err);
        if (rc == LAD_OK)
            rc = cli_fit_search(&f, 0, pr->lp, &err);
        lad_progress_end(pr->lp, rc);
    }
    if (rc == LAD_OK) {
        lad_run_device dev = {.kind = "vectors", .name = path, .spec = spec};
        lad_run_datapath rd = {f.model.name, f.model.arch, f.model.instr, f.model.kind,
                               f.model.shape, f.model.sass, f.model.a.name, f.model.b.name,
                               f.model.c.name, f.model.d.name};
        lad_run_info ri = {.command = "survey", .argc = argc, .argv = argv, .device = &dev,
                           .dp = &rd, .version = LADDER_VERSION, .dirty = -1};
        rc = lad_store_begin_run(st, &ri, &d->run, &err);
    }
    if (rc == LAD_OK) {
        d->probes = (int64_t)f.pk.n;
        d->inf_cases = (int64_t)f.pk.n;
        d->inf_bad = (int64_t)f.mismatches;
        char evidence[700];
        snprintf(evidence, sizeof evidence, "ladder fit %s: %" PRIu64 "/%zu mismatches", path,
                 f.mismatches, f.pk.n);
        char *yaml = lad_model_write(&f.model, evidence);
        rc = yaml ? lad_store_add_inference(st, d->run, "model", yaml, evidence, NULL, 0, NULL,
                                            &err)
                  : lad_errf(&err, LAD_EINTERNAL, "out of memory");
        free(yaml);
    }
    if (rc == LAD_OK) {
        char said[600];
        judge(&p->dp, &f.model, d, said, sizeof said);
        if (f.mismatches)
            snprintf(d->message, sizeof d->message, "conflict: the best model found misses %"
                     PRIu64 " of %zu captured words", f.mismatches, f.pk.n);
        tell(pr, NOTE, "fitted %" PRIu64 "/%zu mismatches; %s", f.mismatches, f.pk.n, said);
        rc = lad_store_end_run(st, d->run, LAD_RUN_OK, NULL, &err);
    }
    d->done = rc == LAD_OK;
    if (rc != LAD_OK) {
        snprintf(d->message, sizeof d->message, "%.255s", err.msg);
        tell(pr, NOTE, "failed: %s", err.msg);
        lad_err e2 = {0};
        if (d->run > 0)
            lad_store_end_run(st, d->run, LAD_RUN_FAILED, err.msg, &e2);
        lad_err_clear(&e2);
    }
    cli_fit_free(&f);
    d->millis = millis_since(&t0);
}

/* ---- the table ---------------------------------------------------------------- */

static void json_key(lad_buf *b, const char *key, int first)
{
    lad_buf_printf(b, "%s\"%s\": ", first ? "" : ", ", key);
}

static void json_kv(lad_buf *b, const char *key, const char *s)
{
    json_key(b, key, 0);
    lad_json_str(b, s);
}

static char *table_json(const scope *s, int64_t id, uint64_t cases, const char *only,
                        const lad_survey_dp *rows, int n, int ok)
{
    lad_buf b = {0};
    lad_buf_printf(&b, "{\"survey\": %" PRId64, id);
    json_kv(&b, "device", s->device);
    json_kv(&b, "arch", s->arch);
    json_kv(&b, "only", only ? only : "");
    lad_buf_printf(&b, ", \"cases\": %" PRIu64 ", \"gpu\": {", cases);
    json_key(&b, "name", 1);
    lad_json_str(&b, s->info.name);
    json_kv(&b, "uuid", s->info.uuid);
    lad_buf_printf(&b, ", \"cc\": %d", s->info.cc);
    json_kv(&b, "driver", s->info.driver);
    json_kv(&b, "toolkit", s->info.toolkit);
    lad_buf_printf(&b, ", \"sms\": %d, \"clock_khz\": %d, \"mem_clock_khz\": %d}, \"datapaths\": [",
                   s->info.sms, s->info.clock_khz, s->info.mem_clock_khz);
    for (int i = 0; i < n; i++) {
        const lad_survey_dp *d = &rows[i];
        lad_buf_printf(&b, "%s{", i ? ", " : "");
        json_key(&b, "name", 1);
        lad_json_str(&b, d->datapath);
        json_kv(&b, "status", d->done ? "done" : "failed");
        lad_buf_printf(&b, ", \"run\": %" PRId64 ", \"probes\": %" PRId64, d->run, d->probes);
        int v = cli_survey_verdict(d);
        lad_buf_printf(&b, ", \"verdict\": ");
        if (d->done && v >= 0)
            lad_json_str(&b, lad_verdict_words[v]);
        else
            lad_buf_printf(&b, "null");
        lad_buf_printf(&b, ", \"inferred_equals_preset\": %s, \"differ\": [",
                       d->done && v == LAD_SAME ? "true" : "false");
        /* the rows as an array ("-", not inferred: none) */
        const char *k = v < 0 ? "" : v == LAD_EQUIV ? d->differ + strlen(lad_verdict_names[v]) + 1
                                                     : d->differ;
        for (int first = 1; *k;) {
            size_t len = strcspn(k, " ");
            lad_buf_printf(&b, "%s\"%.*s\"", first ? "" : ", ", (int)len, k);
            first = 0;
            k += len + (k[len] == ' ');
        }
        lad_buf_printf(&b, "], \"validate_inferred\": {\"cases\": %" PRId64
                           ", \"mismatches\": %" PRId64 "}",
                       d->inf_cases, d->inf_bad);
        lad_buf_printf(&b, ", \"validate_preset\": {\"cases\": %" PRId64
                           ", \"mismatches\": %" PRId64 "}",
                       d->pre_cases, d->pre_bad);
        lad_buf_printf(&b, ", \"vectors\": {\"files\": %" PRId64 ", \"cases\": %" PRId64
                           ", \"mismatches\": %" PRId64 "}",
                       d->vec_files, d->vec_cases, d->vec_bad);
        lad_buf_printf(&b, ", \"millis\": %" PRId64, d->millis);
        json_kv(&b, "message", d->message);
        lad_buf_printf(&b, ", \"ok\": %s}", cli_survey_dp_ok(d) ? "true" : "false");
    }
    lad_buf_printf(&b, "], \"ok\": %s}\n", ok ? "true" : "false");
    return lad_buf_take(&b);
}

/* ---- the command ------------------------------------------------------------ */

/* The survey to write into: a new one, or with --resume the newest of the
** same scope and shard, whose finished datapaths are read into *old. */
static int open_survey(lad_store *st, const lad_survey_info *si, int resume,
                       uint64_t shard_i, uint64_t shard_n, int64_t *id,
                       lad_survey_dp **old, size_t *nold, lad_err *err)
{
    *old = NULL;
    *nold = 0;
    int rc = resume ? lad_store_find_survey(st, si, id, err) : LAD_NO;
    uint64_t fi = 0, fn = 1;
    if (rc == LAD_OK && (rc = lad_store_survey_shard(st, *id, &fi, &fn, err)) == LAD_OK &&
        (fi != shard_i || fn != shard_n))
        rc = LAD_NO; /* another shard's: begin this one's */
    if (rc == LAD_OK) {
        rc = lad_store_survey_get(st, *id, old, nold, err);
        if (rc == LAD_OK)
            rc = lad_store_resume_survey(st, *id, err);
        return rc;
    }
    if (rc != LAD_NO)
        return rc;
    rc = lad_store_begin_survey(st, si, id, err);
    if (rc == LAD_OK && shard_n > 1)
        rc = lad_store_set_survey_shard(st, *id, shard_i, shard_n, err);
    return rc;
}

int cmd_survey(int argc, char **argv)
{
    const char *device = "cuda:0", *only = NULL, *cases = NULL, *db = LAD_STORE_DEFAULT;
    const char *resume = NULL, *json = NULL, *vecdir = "vectors", *shard = NULL;
    const char *outfile = NULL, *quiet = NULL, *no_decide = NULL;
    cli_opt opts[] = {{"device", 0, 1, &device}, {"only", 0, 1, &only},
                      {"no-decide", 0, 0, &no_decide},
                      {"quiet", 'q', 0, &quiet},
                      {"cases", 0, 1, &cases},   {"db", 0, 1, &db},
                      {"resume", 0, 0, &resume}, {"json", 0, 0, &json},
                      {"output", 'o', 1, &outfile},
                      {"vectors", 0, 1, &vecdir}, {"shard", 0, 1, &shard},
                      {NULL, 0, 0, NULL}};
    char *pos[1];
    int npos = 0;
    int rc = cli_parse(argc, argv, opts, pos, &npos, 0, 1, NULL);
    if (rc)
        return rc == CLI_HELP ? 0 : rc;
    if ((rc = cli_output_not_store(outfile, db)) != LAD_OK)
        return rc;
    static const char *const exts[] = {"json", NULL};
    if ((rc = cli_output_kind("survey", outfile, exts, 0, NULL)) != LAD_OK)
        return rc;
    /* A vectors folder named but not there would replay nothing, silently;
    ** "none" asks for no replay. The default, ./vectors, may be absent. */
    struct stat vst;
    int vec_given = strcmp(vecdir, "vectors") != 0 && strcmp(vecdir, "none") != 0;
    errno = 0;
    if (vec_given && (stat(vecdir, &vst) != 0 || !S_ISDIR(vst.st_mode)))
        return cli_error(LAD_EDATA, "cannot open vectors folder '%s': %s", vecdir,
                         errno == 0 ? "not a folder" : strerror(errno));
    if (npos && json)
        return cli_usage_error("unexpected argument '%s': --json takes no file; write the "
                               "JSON to a file with -o <file>", pos[0]);
    if (npos)
        return cli_usage_error("unexpected argument '%s'", pos[0]);
    uint64_t ncases = DEFAULT_CASES;
    if (cases && (rc = cli_number(cases, "--cases", 1, MAX_CASES, &ncases)))
        return rc;
    uint64_t shard_i = 0, shard_n = 1;
    if (shard && (rc = cli_shard(shard, &shard_i, &shard_n)))
        return rc;
    int capture = strncmp(device, "vectors:", 8) == 0;
    if (capture && (cases || no_decide || vec_given))
        return cli_usage_error("%s is for a device that computes; a capture survey "
                               "(--device vectors:<dir>) fits the words its files hold",
                               cases ? "--cases" : no_decide ? "--no-decide" : "--vectors");
    if (capture)
        ncases = 0;
    scope s;
    memset(&s, 0, sizeof s);
    /* The device first: without it there is nothing to store. */
    if ((rc = find_scope(device, only, &s))) {
        free_scope(&s);
        return rc;
    }
    s.decide = no_decide == NULL;
    /* This shard's datapaths; a shard past the last datapath has none. */
    int kept = 0;
    for (int i = 0; i < s.n; i++) {
        if ((uint64_t)i % shard_n != shard_i) {
            if (capture)
                free(s.files[i]);
            continue;
        }
        if (capture)
            s.files[kept++] = s.files[i];
        else
            s.dps[kept++] = s.dps[i];
    }
    s.n = kept;
    lad_survey_info si = {s.device, s.arch, only ? only : "", ncases, s.info.name,
                          s.info.uuid, s.info.cc, s.info.driver, s.info.toolkit,
                          s.info.sms, s.info.clock_khz, s.info.mem_clock_khz, s.n};
    lad_err err = {0};
    lad_store *st = NULL;
    int64_t id = 0;
    lad_survey_dp *old = NULL, *rows = calloc((size_t)s.n + 1, sizeof *rows);
    size_t nold = 0;
    char *text = NULL;
    if (rows == NULL)
        rc = lad_errf(&err, LAD_EINTERNAL, "out of memory");
    if (rc == LAD_OK)
        rc = lad_store_open(db, LAD_STORE_CREATE, &st, &err);
    if (rc == LAD_OK)
        rc = open_survey(st, &si, resume != NULL, shard_i, shard_n, &id, &old, &nold, &err);
    /* LADDER_PROGRESS=1 (scripts/slurm sets it): every stage line and the
    ** notes also when stderr is a file, a job's output */
    lad_progress lp;
    lad_progress_init(&lp, quiet != NULL);
    progress pr = {&lp, 0, s.n, NULL, 0};
    int all_ok = 1;
    for (int i = 0; rc == LAD_OK && i < s.n; i++) {
        pr.i = i;
        lad_progress_overall(&lp, "survey", (size_t)i, (size_t)s.n);
        char cname[64];
        if (capture) {
            /* named by the preset the file's words match, else by the file */
            long cn, cb;
            lad_err e2 = {0};
            if (capture_preset(s.files[i], cname, sizeof cname, &cn, &cb, &e2) != LAD_OK) {
                const char *slash = strrchr(s.files[i], '/');
                snprintf(cname, sizeof cname, "%s", slash ? slash + 1 : s.files[i]);
            }
            lad_err_clear(&e2);
            /* a second file of the same datapath is told apart by its name */
            for (int j = 0; j < i; j++)
                if (strcmp(rows[j].datapath, cname) == 0) {
                    const char *slash = strrchr(s.files[i], '/');
                    char two[64];
                    snprintf(two, sizeof two, "%.30s:%.32s", cname, slash ? slash + 1 : s.files[i]);
                    memcpy(cname, two, sizeof cname);
                    break;
                }
            pr.name = cname;
        } else {
            pr.name = s.dps[i]->dp.name;
        }
        const lad_survey_dp *done = NULL;
        for (size_t j = 0; j < nold && !done; j++)
            if (old[j].done && strcmp(old[j].datapath, pr.name) == 0)
                done = &old[j];
        if (done) {
            rows[i] = *done;
            tell(&pr, NOTE, "done in survey %" PRId64 " (run %" PRId64 "): skipped", id, done->run);
        } else {
            /* One transaction per datapath (commit point "survey-datapath"):
            ** its run, rungs, inferences, validations and survey row are
            ** stored together or, killed before the commit, not at all, so
            ** that --resume does the whole datapath again. */
            rc = lad_store_step_begin(st, "survey-datapath", &err);
            if (rc == LAD_OK) {
                if (capture) {
                    snprintf(rows[i].datapath, sizeof rows[i].datapath, "%s", pr.name);
                    survey_capture(st, s.files[i], argc, argv, &pr, &rows[i]);
                } else {
                    survey_one(st, &s, s.dps[i], ncases, vecdir, argc, argv, &pr, &rows[i]);
                }
                rc = lad_store_survey_put(st, id, &rows[i], &err);
                int rc2 = lad_store_step_end(st, rc == LAD_OK, &err);
                rc = rc ? rc : rc2;
            }
        }
        all_ok &= cli_survey_dp_ok(&rows[i]);
    }
    if (rc == LAD_OK && (text = table_json(&s, id, ncases, only, rows, s.n, all_ok)) == NULL)
        rc = lad_errf(&err, LAD_EINTERNAL, "out of memory");
    if (rc == LAD_OK)
        rc = lad_store_end_survey(st, id, all_ok, text, &err);
    if (rc == LAD_OK && outfile)
        rc = lad_outfile_write(outfile, text, &err);
    if (rc == LAD_OK && json)
        fputs(text, stdout);
    else if (rc == LAD_OK) {
        lad_survey_row *sr = NULL;
        size_t nsr = 0;
        rc = lad_store_surveys(st, id, &sr, &nsr, &err);
        if (rc == LAD_OK)
            cli_survey_table(&sr[0], rows, s.n, s.unmapped);
        free(sr);
    }
    fflush(stdout);
    lad_progress_free(&lp);
    lad_store_close(st);
    free(text);
    free(old);
    free(rows);
    free_scope(&s);
    if (rc != LAD_OK)
        return cli_report(&err);
    return all_ok ? LAD_OK : LAD_NO;
}
