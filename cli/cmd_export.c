/*
** ladder export: a run's stored cases as a .vec file.
**
**     ladder export RUN -o FILE.vec [--rung NAME] [--db FILE]
**
** Every case the run stored (or one rung's), in id order, as an `A;B;C;D`
** line (docs/vector-format.md) whose D is the word the device answered.
** Lines are written for the instruction the run probed (its recipe's
** datapath: formats, K, scale blocks, sparsity), with the scale and
** metadata fields where it has them, under a header naming the device and
** the instruction, so that `ladder check --model <preset> FILE` replays
** the run against a model and `--device` against another device.
**
** What a .vec line cannot hold is refused, naming the case: a case with
** more lanes, scales or metadata words than the instruction has (the line
** has exactly its counts), and a run whose A, B, C or D format has no known
** decode (a header must name formats the reader knows).
*/
#include "cli.h"
#include "util/outfile.h"
#include "commands.h"
#include "runview.h"
#include "io/vecwrite.h"
#include "probes/case.h"
#include "probes/recipe.h"

#include <inttypes.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Why case c cannot be a line of dp, or NULL. */
static const char *unfit(const lad_datapath *dp, const lad_case_row *c)
{
    if (c->k > dp->k)
        return "more lanes than the instruction's K";
    if (c->nscale > lad_datapath_nscales(dp))
        return "more scales than the instruction has scale blocks";
    if (c->nmeta > lad_datapath_nmeta(dp))
        return "more sparsity metadata words than the instruction has";
    return NULL;
}

static int write_file(const char *path, const lad_run_row *run, const lad_datapath *dp,
                      const lad_case_row *rows, size_t n, lad_err *err)
{
    lad_vechdr h;
    lad_vechdr_of(dp, &h);
    if (strcmp(run->device_kind, "cuda") == 0)
        snprintf(h.gpu, sizeof h.gpu, "%.31s", run->device);
    h.cases = (long)n;
    snprintf(h.source, sizeof h.source, "ladder export: run %" PRId64 " on %s %.200s",
             run->id, run->device_kind[0] ? run->device_kind : "?",
             run->device_spec[0] ? run->device_spec : run->device);
    int out = strcmp(path, "-") == 0;
    lad_outfile o = {0};
    int rc = out ? LAD_OK : lad_outfile_open(&o, path, err);
    if (rc != LAD_OK)
        return rc;
    FILE *f = out ? stdout : o.f;
    errno = 0;
    int bad = lad_vecfile_write_header(f, &h);
    static lad_case cs;
    for (size_t i = 0; i < n && !bad; i++) {
        lad_case_from_data(&rows[i].cs, &cs);
        bad = lad_vecfile_write_case(f, dp, dp->k, &cs, rows[i].d);
    }
    if (!out) {
        if (bad) {
            lad_outfile_abort(&o);
            return lad_errf(err, LAD_EDATA, "cannot write '%s': %s", path,
                            strerror(errno ? errno : EIO));
        }
        return lad_outfile_commit(&o, err);
    }
    if (fflush(f) != 0 || bad)
        return lad_errf(err, LAD_EDATA, "cannot write '%s': %s", path,
                        strerror(errno ? errno : EIO));
    return LAD_OK;
}

int cmd_export(int argc, char **argv)
{
    const char *db = LAD_STORE_DEFAULT, *outpath = NULL, *rung = NULL;
    const char *quiet = NULL; /* -q: nothing to quiet (cli/commands.def) */
    cli_opt opts[] = {
        {"db", 0, 1, &db},
        {"output", 'o', 1, &outpath},
        {"rung", 0, 1, &rung},
        {"quiet", 'q', 0, &quiet}, {NULL, 0, 0, NULL},
    };
    char *pos[1];
    int npos;
    int rc = cli_parse(argc, argv, opts, pos, &npos, 1, 1,
                      "export needs a run; see 'ladder export --help'");
    if (rc)
        return rc == CLI_HELP ? 0 : rc;
    if (outpath == NULL)
        return cli_usage_error("export needs -o <file.vec>");
    if ((rc = cli_output_not_store(outpath, db)) != LAD_OK)
        return rc;
    static const char *const exts[] = {"vec", NULL};
    if ((rc = cli_output_kind("export", outpath, exts, 0, NULL)) != LAD_OK)
        return rc;
    lad_store *st;
    if ((rc = cli_store_open_existing(db, &st)) != LAD_OK)
        return rc;
    lad_err err = {0};
    int64_t run = 0;
    static lad_run_row row;
    static lad_datapath dp;
    lad_case_row *rows = NULL;
    size_t n = 0;
    rc = lad_store_resolve_run(st, pos[0], &run, &err);
    if (rc == LAD_OK)
        rc = lad_store_run(st, run, &row, &err);
    if (rc == LAD_OK)
        rc = cli_run_datapath(st, &row, &dp, &err);
    if (rc == LAD_OK)
        rc = lad_store_cases(st, run, rung, &rows, &n, &err);
    lad_store_close(st);
    const lad_format *fmts[] = {&dp.a, &dp.b, &dp.c, &dp.d};
    for (int i = 0; i < 4 && rc == LAD_OK; i++)
        if (fmts[i]->kind == LAD_FLOAT && fmts[i]->ebits == 0)
            rc = lad_errf(&err, LAD_EDATA, "run %" PRId64 ": format '%s' has no known "
                          "decode; a .vec file cannot name it", run, fmts[i]->name);
    const char *near = rung ? lad_rung_nearest(rung) : NULL;
    if (rc == LAD_OK && n == 0)
        rc = lad_errf(&err, rung ? cli_rung_code(rung) : LAD_EDATA,
                      "run %" PRId64 " stored no cases%s%s%s%s%s%s", run,
                      rung ? " in rung '" : "", rung ? rung : "", rung ? "'" : "",
                      near ? "; did you mean '" : "", near ? near : "", near ? "'?" : "");
    for (size_t i = 0; i < n && rc == LAD_OK; i++) {
        const char *why = unfit(&dp, &rows[i]);
        if (why)
            rc = lad_errf(&err, LAD_EDATA, "run %" PRId64 ": case %" PRId64 " cannot be a "
                          "line of '%s': %s", run, rows[i].id, dp.name, why);
    }
    if (rc == LAD_OK)
        rc = write_file(outpath, &row, &dp, rows, n, &err);
    free(rows);
    return rc == LAD_OK ? 0 : cli_report(&err);
}
