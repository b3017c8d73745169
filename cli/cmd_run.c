/*
** ladder run: climb a recipe's probe ladder on a device.
**
**     ladder run RECIPE [--device D] [--db FILE] [--rungs LIST]
**
** The device defaults to the recipe's (the simulated preset it names); the
** store to ./ladder.db (created when missing). One line per rung as it ends,
** a progress bar with rate and time left on stderr while a rung runs (only
** when stderr is a terminal), and last the line `run <id> <status>`.
** SIGINT, SIGTERM or SIGHUP stops the run at the next piece of cases: the
** rung under way is rolled back, the run ends 'interrupted' and ladder dies
** of the signal. Exit: 0 ok; 2 usage; 3 bad recipe or data; 4 device; 5
** internal; 128 + the signal's number after one.
*/
#include "cli.h"
#include "commands.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "db/store.h"
#include "probes/ladder.h"
#include "probes/recipe.h"
#include "util/hooks.h"

static const char usage[] =
    "usage: ladder run <recipe> [--device <spec>] [--db <file>] [--rungs <list>]\n"
    "\n"
    "  <recipe>   a recipe file (recipes/*.yaml)\n"
    "  --device   sim:<model>, exec-framed:<command line> (the framed\n"
    "             protocol), exec:<command line> (legacy) or cuda:<index>\n"
    "             (default: the recipe's device)\n"
    "  --db       the store (default ladder.db)\n"
    "  --rungs    comma-separated rungs to climb (default: the recipe's);\n"
    "             decode is climbed first whenever a format needs it\n";

typedef struct view {
    int tty;
    struct timespec t0;     /* start of the current rung */
    int shown;              /* a progress line is on screen */
} view;

static double since(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

/* Progress bar: only on a terminal and only for rungs that take a while. */
static void progress(void *ctx, const char *rung, size_t done, size_t total)
{
    view *v = ctx;
    if (!v->tty || total < 512)
        return;
    double s = since(&v->t0), rate = s > 0 ? (double)done / s : 0;
    double left = rate > 0 ? (double)(total - done) / rate : 0;
    int bar = total ? (int)(30 * done / total) : 30;
    fprintf(stderr, "\r%-12s [%.*s%*s] %zu/%zu  %.0f cases/s  %.0fs left ", rung, bar,
            "##############################", 30 - bar, "", done, total, rate, left);
    v->shown = 1;
}

static void rung_done(void *ctx, const lad_probe *p, int rc)
{
    view *v = ctx;
    if (v->shown) {
        fprintf(stderr, "\r%*s\r", 100, "");
        v->shown = 0;
    }
    printf("%-12s %6zu cases  %s%s\n", p->rung_name, p->rung_cases,
           rc ? "failed: " : "", rc ? p->err->msg : p->summary);
    fflush(stdout);
    clock_gettime(CLOCK_MONOTONIC, &v->t0);
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
        if (id < 0 || len >= sizeof name)
            return cli_usage_error("unknown rung '%.*s'", (int)len, s);
        *bits |= 1u << id;
        s += n;
        if (*s == 0)
            break;
    }
    return LAD_OK;
}

int cmd_run(int argc, char **argv)
{
    const char *device = NULL, *db = LAD_STORE_DEFAULT, *rungs = NULL;
    cli_opt opts[] = {{"device", 0, 1, &device},
                      {"db", 0, 1, &db},
                      {"rungs", 0, 1, &rungs},
                      {NULL, 0, 0, NULL}};
    char *pos[1];
    int npos = 0;
    int rc = cli_parse(argc, argv, opts, usage, pos, &npos, 1, 1,
                      "run needs a recipe; see 'ladder run --help'");
    if (rc)
        return rc == CLI_HELP ? 0 : rc;
    lad_ladder_opts lo = {0};
    if (rungs && (rc = parse_rungs(rungs, &lo.rungs)))
        return rc;
    lad_err err = {0};
    lad_recipe r;
    if ((rc = lad_recipe_load(pos[0], &r, &err)))
        return cli_report(&err);
    if ((lo.rungs & LAD_RUNGS_DECODE) && r.dp.a_known && r.dp.b_known) {
        lad_recipe_free(&r);
        return cli_usage_error("rung 'decode' has nothing to find: '%s' gives the decode of "
                               "every format", pos[0]);
    }
    lad_store *st = NULL;
    if ((rc = lad_store_open(db, LAD_STORE_CREATE, &st, &err))) {
        lad_recipe_free(&r);
        return cli_report(&err);
    }
    view v = {isatty(2), {0, 0}, 0};
    clock_gettime(CLOCK_MONOTONIC, &v.t0);
    lo.device = device;
    lo.argc = argc;
    lo.argv = argv;
    lo.progress = progress;
    lo.done = rung_done;
    lo.ctx = &v;
    int64_t run = 0;
    lad_sig_graceful();
    rc = lad_ladder_run(&r, &lo, st, &run, &err);
    if (run)
        printf("run %" PRId64 " %s\n", run,
               rc == LAD_OK ? "ok" : lad_sig_pending() ? "interrupted" : "failed");
    fflush(stdout);
    lad_store_close(st);
    lad_recipe_free(&r);
    rc = rc ? cli_report(&err) : 0;
    lad_sig_reraise();
    return rc;
}
