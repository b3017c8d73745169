/*
** ladder run: climb a recipe's probe ladder on a device.
**
**     ladder run RECIPE [--device D] [--db FILE] [--rungs LIST]
**     ladder run --resume RUN [RECIPE] [--db FILE]
**
** The device defaults to the recipe's (the simulated preset it names); the
** store to ./ladder.db (created when missing). One line per rung as it ends,
** the progress of the rung under way on stderr (util/progress.h: a live
** line on a terminal, stage lines in a log when the run lasts; -q none),
** and last the line `run <id> <status>`.
** SIGINT, SIGTERM or SIGHUP stops the run at the next piece of cases: the
** rung under way is rolled back, the run ends 'interrupted' and ladder dies
** of the signal. --resume goes on with a failed or interrupted run in its
** own id: its stored rungs are replayed from the store, the rest climbed
** on its device with its --rungs (probes/ladder.h says what is refused).
** Exit: 0 ok; 2 usage; 3 bad recipe or data; 4 device; 5 internal; 128 +
** the signal's number after one.
*/
#include "cli.h"
#include "inference/infer.h"
#include "commands.h"
#include "json.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/store.h"
#include "probes/ladder.h"
#include "probes/recipe.h"
#include "util/hooks.h"
#include "util/progress.h"

/* The callbacks' context: the progress first (lad_progress_step is given
** the same pointer), and with --json the rungs' objects gathered for the
** one document printed at the end. */
typedef struct run_out {
    lad_progress pr;
    FILE *json;     /* NULL: lines on stdout */
    int nrungs;
} run_out;

static void rung_done(void *ctx, const lad_probe *p, int rc)
{
    run_out *o = ctx;
    if (o->json) {
        fprintf(o->json, "%s{\"rung\": ", o->nrungs++ ? ",\n  " : "");
        cli_json_str(o->json, p->rung_name);
        fprintf(o->json, ", \"cases\": %zu, \"failed\": %s, \"stored\": %s, \"summary\": ",
                p->rung_cases, rc ? "true" : "false", p->replayed && !rc ? "true" : "false");
        cli_json_str(o->json, rc ? p->err->msg : p->summary);
        fputc('}', o->json);
        return;
    }
    lad_progress_hide(ctx);
    /* a failure's message is the command's one error line, on stderr */
    printf("%-12s %6zu cases  %s%s\n", p->rung_name, p->rung_cases,
           rc ? "failed" : p->summary, p->replayed && !rc ? " (stored)" : "");
    fflush(stdout);
}

/* Parses "a,b,c" into rung bits; "decode" is LAD_RUNGS_DECODE. An empty
** name ("a,,b", a trailing comma) is refused rather than skipped: it is
** more likely a typo than a wish. */
static int parse_rungs(const char *list, unsigned *bits)
{
    *bits = 0;
    for (const char *s = list;; s++) {
        while (*s == ' ')
            s++;
        size_t n = strcspn(s, ",");
        size_t len = n;
        while (len > 0 && s[len - 1] == ' ')
            len--;
        char name[64];
        if (len == 0)
            return cli_usage_error("--rungs has an empty rung name in '%s'", list);
        snprintf(name, sizeof name, "%.*s", (int)len, s);
        int id = strcmp(name, "decode") == 0 ? LAD_RUNG_COUNT : lad_rung_find(name);
        if (id < 0 && len < sizeof name && lad_rung_nearest(name))
            return cli_usage_error("unknown rung '%s'; did you mean '%s'?", name,
                                   lad_rung_nearest(name));
        if (id < 0 || len >= sizeof name)
            return cli_usage_error("unknown rung '%.*s'", (int)len, s);
        *bits |= 1u << id;
        s += n;
        if (*s == 0)
            break;
    }
    return LAD_OK;
}

/* For --resume: the run's id, its recipe file (unless given) and the
** --rungs it was climbed with. */
static int resume_setup(lad_store *st, const char *spec, char *path, size_t size,
                        lad_ladder_opts *lo, lad_err *err)
{
    char *text = NULL, rungs[256];
    size_t len;
    int rc = lad_store_resolve_run(st, spec, &lo->resume, err);
    if (rc == LAD_OK && !path[0])
        rc = lad_store_recipe(st, lo->resume, &text, &len, path, size, err);
    free(text);
    if (rc == LAD_OK)
        rc = lad_store_run_arg(st, lo->resume, "rungs", rungs, sizeof rungs, err);
    if (rc == LAD_OK && rungs[0] && parse_rungs(rungs, &lo->rungs))
        rc = lad_errf(err, LAD_EDATA, "run %lld's --rungs '%s' is not understood",
                      (long long)lo->resume, rungs);
    return rc;
}

int cmd_run(int argc, char **argv)
{
    const char *device = NULL, *db = LAD_STORE_DEFAULT, *rungs = NULL, *resume = NULL;
    const char *trust = NULL, *quiet = NULL, *json = NULL, *no_decide = NULL;
    cli_opt opts[] = {{"device", 0, 1, &device},
                      {"no-decide", 0, 0, &no_decide},
                      {"json", 0, 0, &json},
                      {"quiet", 'q', 0, &quiet},
                      {"trust-exec", 0, 0, &trust},
                      {"db", 0, 1, &db},
                      {"rungs", 0, 1, &rungs},
                      {"resume", 0, 1, &resume},
                      {NULL, 0, 0, NULL}};
    char *pos[1];
    int npos = 0;
    int rc = cli_parse(argc, argv, opts, pos, &npos, 0, 1, NULL);
    if (rc)
        return rc == CLI_HELP ? 0 : rc;
    if (npos == 0 && !resume)
        return cli_usage_error("run needs a recipe; see 'ladder run --help'");
    if (resume && rungs)
        return cli_usage_error("--resume climbs the run's own --rungs; give no --rungs");
    lad_ladder_opts lo = {0};
    lo.next = lad_infer_next;
    lo.decide = no_decide == NULL;
    if (rungs && (rc = parse_rungs(rungs, &lo.rungs)))
        return rc;
    lad_err err = {0};
    lad_store *st = NULL;
    char path[256];
    snprintf(path, sizeof path, "%s", npos ? pos[0] : "");
    /* A resume reads the store first: it names the recipe and the rungs. */
    if (resume && ((rc = lad_store_open(db, 0, &st, &err)) ||
                   (rc = resume_setup(st, resume, path, sizeof path, &lo, &err)))) {
        lad_store_close(st);
        return cli_report(&err);
    }
    lad_recipe r;
    if ((rc = lad_recipe_load(path, &r, &err))) {
        lad_store_close(st);
        return cli_report(&err);
    }
    if ((lo.rungs & LAD_RUNGS_DECODE) && r.dp.a_known && r.dp.b_known) {
        lad_recipe_free(&r);
        lad_store_close(st);
        return cli_usage_error("rung 'decode' has nothing to find: '%s' gives the decode of "
                               "every format", path);
    }
    if (st == NULL && (rc = lad_store_open(db, LAD_STORE_CREATE, &st, &err))) {
        lad_recipe_free(&r);
        return cli_report(&err);
    }
    static run_out o;
    char *doc = NULL;
    size_t doclen = 0;
    if (json && (o.json = open_memstream(&doc, &doclen)) == NULL) {
        lad_recipe_free(&r);
        lad_store_close(st);
        return cli_error(LAD_EINTERNAL, "out of memory");
    }
    lad_progress *pr = &o.pr;
    lad_progress_init(pr, quiet != NULL);
    lo.device = device;
    lo.trust_exec = trust != NULL;
    lo.announce = cli_announce_exec;
    lo.argc = argc;
    lo.argv = argv;
    lo.progress = lad_progress_step;
    lo.done = rung_done;
    lo.ctx = &o;
    int64_t run = 0;
    lad_sig_graceful();
    lad_progress_begin(pr, "run %s", path);
    rc = lad_ladder_run(&r, &lo, st, &run, &err);
    lad_progress_end(pr, rc);
    lad_progress_free(pr);
    const char *status = rc == LAD_OK ? "ok" : lad_sig_pending() ? "interrupted" : "failed";
    if (o.json) {
        fclose(o.json);
        if (run) {
            printf("{\"run\": %" PRId64 ", \"status\": \"%s\", \"recipe\": ", run, status);
            cli_json_str(stdout, path);
            printf(", \"rungs\": [%.*s]}\n", (int)doclen, doc);
        }
        free(doc);
    } else if (run) {
        printf("run %" PRId64 " %s\n", run, status);
    }
    fflush(stdout);
    lad_store_close(st);
    lad_recipe_free(&r);
    rc = rc ? cli_report(&err) : 0;
    lad_sig_reraise();
    return rc;
}
