/*
** ladder infer: the datapath model's parameters from a run's probe cases.
**
**     ladder infer RUN [--db FILE] [-o model.yaml] [--no-store] [--json]
**
** Prints one line per parameter (value, how it was decided, the cases that
** decided it), stores them in the run (lad_store_add_inference; the whole
** model as parameter "model") unless --no-store, which opens the store
** read-only (so a store in a read-only folder can be inferred from), and
** writes the model file with -o. When some
** stored cases fit no model in reach, names their rungs and case ids and
** exits 1: the model written is the best found, not a guess passed off as
** an answer. --json prints the same as one JSON object. Exit: 0 ok; 1
** conflicts; 2 usage; 3 data; 5 internal.
*/
#include "cli.h"
#include "commands.h"
#include "json.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "db/store.h"
#include "inference/infer.h"
#include "io/modelfile.h"

static const char usage[] =
    "usage: ladder infer <run> [--db <file>] [-o <model.yaml>] [--no-store] [--json]\n"
    "\n"
    "  <run>        a run id or latest (run:<id>, run:latest alike)\n"
    "  --db         the store (default ladder.db)\n"
    "  -o           write the inferred model file\n"
    "  --no-store   do not store the inferences (opens the store read-only)\n"
    "  --json       one JSON object: run, cases, reproduced, parameters\n"
    "               [{name, value, method, cases, decided_by}], sumtree\n"
    "               (the summation tree, or null), conflict\n";

/* The result as one JSON object. */
static void print_json(int64_t run, const lad_infer_result *res)
{
    printf("{\"run\": %" PRId64 ", \"cases\": %zu, \"reproduced\": %zu, \"parameters\": [",
           run, res->ncases, res->ncases - res->nmismatch);
    for (int i = 0; i < res->nparams; i++) {
        const lad_infer_param *p = &res->params[i];
        printf("%s{\"name\": ", i ? ",\n  " : "");
        cli_json_str(stdout, p->name);
        printf(", \"value\": ");
        cli_json_str(stdout, p->value);
        printf(", \"method\": ");
        cli_json_str(stdout, p->method);
        printf(", \"cases\": [");
        for (size_t j = 0; j < p->nids; j++)
            printf("%s%" PRId64, j ? ", " : "", p->ids[j]);
        printf("], \"decided_by\": %zu}", p->ndecide);
    }
    printf("], \"sumtree\": ");
    if (res->sumtree_n)
        cli_json_str(stdout, res->sumtree);
    else
        printf("null");
    printf(", \"conflict\": ");
    if (res->nmismatch)
        cli_json_str(stdout, res->conflict);
    else
        printf("null");
    printf("}\n");
}

int cmd_infer(int argc, char **argv)
{
    const char *db = LAD_STORE_DEFAULT, *outfile = NULL, *no_store = NULL, *json = NULL;
    cli_opt opts[] = {{"db", 0, 1, &db},
                      {"json", 0, 0, &json},
                      {"output", 'o', 1, &outfile},
                      {"no-store", 0, 0, &no_store},
                      {NULL, 0, 0, NULL}};
    char *pos[1];
    int npos = 0;
    int rc = cli_parse(argc, argv, opts, usage, pos, &npos, 1, 1,
                      "infer needs a run; see 'ladder infer --help'");
    if (rc)
        return rc == CLI_HELP ? 0 : rc;
    if ((rc = cli_output_ok(outfile, "the store", db)) != LAD_OK)
        return rc;
    lad_err err = {0};
    lad_store *st = NULL;
    if ((rc = lad_store_open(db, no_store ? LAD_STORE_READONLY : 0, &st, &err)))
        return cli_report(&err);
    int64_t run;
    lad_infer_result *res = calloc(1, sizeof *res);
    if (res == NULL) {
        lad_store_close(st);
        return cli_error(LAD_EINTERNAL, "out of memory");
    }
    if ((rc = lad_store_resolve_run(st, pos[0], &run, &err)))
        goto fail;
    rc = lad_infer(st, run, !no_store, res, &err);
    if (rc != LAD_OK && rc != LAD_NO)
        goto fail;
    if (json)
        print_json(run, res);
    else if (!res->fitted)
        printf("run %" PRId64 ": %zu cases, of the sumtree rung alone: no model\n", run,
               res->ncases);
    else
        printf("run %" PRId64 ": %zu cases, model reproduces %zu\n%-16s %-22s %s\n", run,
               res->ncases, res->ncases - res->nmismatch, "parameter", "value",
               "decided by");
    for (int i = 0; i < res->nparams && !json; i++) {
        const lad_infer_param *p = &res->params[i];
        printf("%-16s %-22s %s", p->name, p->value, p->method);
        if (p->nids) {
            printf(" (cases ");
            for (size_t j = 0; j < p->nids && j < 6; j++)
                printf("%s%" PRId64, j ? ", " : "", p->ids[j]);
            if (p->ndecide > 6)
                printf(", ... %zu in all", p->ndecide);
            if (p->ndecide > p->nids && !no_store)
                printf("; the first %zu stored", p->nids);
            printf(")");
        }
        printf("\n");
    }
    if (res->sumtree_n && !json)
        printf("sumtree          %d lanes: %s\n", res->sumtree_n, res->sumtree);
    if (outfile && !res->fitted) {
        rc = lad_errf(&err, LAD_EUSAGE, "run %" PRId64 " has only sumtree cases: no model "
                      "to write to '%s'", run, outfile);
        goto fail;
    }
    if (outfile) {
        if (lad_model_save(outfile, &res->dp,
                           res->nmismatch ? "inferred with conflicts"
                                          : "inferred from the run's probes",
                           &err) != LAD_OK) {
            rc = err.code;
            goto fail;
        }
    }
    if (res->nmismatch) {
        fprintf(stderr, "ladder: conflict: %s\n", res->conflict);
        rc = LAD_NO;
    }
    free(res);
    lad_store_close(st);
    return rc;
fail:
    free(res);
    lad_store_close(st);
    return cli_report(&err);
}
