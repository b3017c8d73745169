/*
** ladder infer: the datapath model's parameters from a run's probe cases.
**
**     ladder infer RUN [--db FILE] [-o model.yaml [--nearest]] [--no-store] [--json]
**
** Prints one line per parameter (value, how it was decided, the cases that
** decided it), stores them in the run (lad_store_add_inference; the whole
** model as parameter "model") unless --no-store, which opens the store
** read-only (so a store in a read-only folder can be inferred from), and
** writes the model file with -o. When some stored cases fit no model in
** reach, that is an answer about the device: it names their rungs and case
** ids, the smallest of them with its words, the device's word and the
** nearest model's, and how many stored cases the nearest model fits, and
** exits 1. -o then writes a file only with --nearest, which says that the
** nearest model is wanted: a model that misses cases is never written as
** if it were the answer. A model that reproduces every case is followed by
** the whole answer (inference/answer.h, as `ladder fit` prints it): the
** rows decided, open, equivalent and not in effect. --json prints the same
** as one JSON object. Exit:
** 0 ok; 1 conflicts; 2 usage; 3 data; 5 internal.
*/
#include "cli.h"
#include "answerview.h"
#include "commands.h"
#include "json.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>

#include "db/store.h"
#include "inference/infer.h"
#include "io/modelfile.h"
#include "util/outfile.h"
#include "util/progress.h"

/* The words of the smallest conflicting case as a JSON object's members. */
static void json_smallest(const lad_infer_result *res)
{
    const lad_case *c = &res->smallest_cs;
    printf("{\"id\": %" PRId64 ", \"rung\": ", res->smallest);
    cli_json_str(stdout, res->smallest_rung);
    for (int w = 0; w < 2; w++) {
        printf(", \"%s\": [", w ? "b" : "a");
        for (int l = 0; l < res->smallest_k; l++)
            printf("%s%" PRIu64, l ? ", " : "", (uint64_t)(w ? c->b[l] : c->a[l]));
        printf("]");
    }
    printf(", \"c\": %" PRIu64 ", \"d\": %" PRIu64 ", \"model\": %" PRIu64 "}",
           (uint64_t)c->c, (uint64_t)res->smallest_d, (uint64_t)res->smallest_got);
}

/* The smallest conflicting case, for people: its lanes that hold a
** product, C, and the two words. */
static void print_smallest(const lad_infer_result *res)
{
    const lad_case *c = &res->smallest_cs;
    printf("smallest case    #%" PRId64 " (%s), no model in reach gives its word:",
           res->smallest, res->smallest_rung);
    int shown = 0;
    for (int l = 0; l < res->smallest_k; l++)
        if (c->a[l] && c->b[l] && shown++ < 8)
            printf(" lane %d a=0x%" PRIx64 " b=0x%" PRIx64 ";", l, (uint64_t)c->a[l],
                   (uint64_t)c->b[l]);
    printf(" c=0x%" PRIx64 "; device 0x%" PRIx64 ", nearest model 0x%" PRIx64 "\n",
           (uint64_t)c->c, (uint64_t)res->smallest_d, (uint64_t)res->smallest_got);
}

/* The result as one JSON object. */
static void print_json(int64_t run, const lad_infer_result *res, const lad_answer *ans)
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
    printf(", \"nearest\": ");
    if (res->nmismatch && res->smallest) {
        printf("{\"reproduces\": %zu, \"smallest\": ", res->ncases - res->nmismatch);
        json_smallest(res);
        printf("}");
    } else {
        printf("null");
    }
    printf(", \"answer\": ");
    if (ans && ans->nalt >= 0)
        cli_answer_json(stdout, ans);
    else
        printf("null");
    printf("}\n");
}

#define TABLE_COLS 100

/* Prints text after what is on the line (at column `at`), its words
** wrapped before TABLE_COLS, each further line indented to col; a word
** longer than the room is put whole on a line of its own. */
static void wrap(const char *text, int col, int at)
{
    while (*text == ' ')
        text++;
    while (*text) {
        int len = (int)strcspn(text, " ");
        if (at + 1 + len > TABLE_COLS && at > col) {
            printf("\n%*s", col, "");
            at = col;
        } else {
            putchar(' ');
            at++;
        }
        at += printf("%.*s", len, text);
        text += len;
        while (*text == ' ')
            text++;
    }
    putchar('\n');
}

int cmd_infer(int argc, char **argv)
{
    const char *db = LAD_STORE_DEFAULT, *outfile = NULL, *no_store = NULL, *json = NULL;
    const char *no_answer = NULL;
    const char *nearest = NULL, *quiet = NULL;
    cli_opt opts[] = {{"db", 0, 1, &db},
                      {"quiet", 'q', 0, &quiet},
                      {"json", 0, 0, &json},
                      {"nearest", 0, 0, &nearest},
                      {"output", 'o', 1, &outfile},
                      {"no-store", 0, 0, &no_store},
                      {"no-answer", 0, 0, &no_answer},
                      {NULL, 0, 0, NULL}};
    char *pos[1];
    int npos = 0;
    int rc = cli_parse(argc, argv, opts, pos, &npos, 1, 1,
                      "infer needs a run; see 'ladder infer --help'");
    if (rc)
        return rc == CLI_HELP ? 0 : rc;
    if ((rc = cli_output_not_store(outfile, db)) != LAD_OK)
        return rc;
    static const char *const exts[] = {"yaml", "yml", NULL};
    if ((rc = cli_output_kind("infer", outfile, exts, 0, NULL)) != LAD_OK)
        return rc;
    lad_err err = {0};
    lad_store *st = NULL;
    if ((rc = lad_store_open(db, no_store ? LAD_STORE_READONLY : 0, &st, &err)))
        return cli_report(&err);
    int64_t run;
    lad_infer_result *res = calloc(1, sizeof *res);
    lad_answer *ans = malloc(sizeof *ans);
    if (res == NULL || ans == NULL) {
        free(res);
        free(ans);
        lad_store_close(st);
        return cli_error(LAD_EINTERNAL, "out of memory");
    }
    if ((rc = lad_store_resolve_run(st, pos[0], &run, &err)))
        goto fail;
    /* One stage around the whole inference, its steps told by inference/
    ** through lad_progress_step. */
    lad_progress pr;
    lad_progress_init(&pr, quiet != NULL);
    static lad_run_row row;
    lad_err none = {0};
    if (lad_store_run(st, run, &row, &none) == LAD_OK)
        lad_progress_begin(&pr, "infer run %" PRId64 ": %" PRId64 " cases", run, row.ncases);
    else
        lad_progress_begin(&pr, "infer run %" PRId64, run);
    rc = lad_infer_answer(st, run, !no_store, lad_progress_step, &pr, res,
                          no_answer ? NULL : ans, 0, &err);
    if (no_answer)
        ans->nalt = -1;
    lad_progress_end(&pr, rc != LAD_OK && rc != LAD_NO);
    lad_progress_free(&pr);
    if (rc != LAD_OK && rc != LAD_NO)
        goto fail;
    if (json)
        print_json(run, res, ans);
    else if (!res->fitted)
        printf("run %" PRId64 ": %zu cases, of the sumtree rung alone: no model\n", run,
               res->ncases);
    else
        printf("run %" PRId64 ": %zu cases, model reproduces %zu\n%-16s %-22s %s\n", run,
               res->ncases, res->ncases - res->nmismatch, "parameter", "value",
               "decided by");
    /* within TABLE_COLS: how each was decided, up to its first "; ",
    ** wrapped under itself; the rest (which rung's cases, the deciding
    ** cases' ids) is --json's, and the report's */
    for (int i = 0; i < res->nparams && !json; i++) {
        const lad_infer_param *p = &res->params[i];
        int col = printf("%-16s %-22s", p->name, p->value);
        char how[sizeof p->method];
        snprintf(how, sizeof how, "%s", p->method);
        char *semi = strstr(how, "; ");
        if (semi)
            *semi = 0;
        wrap(how, col < 40 ? 40 : col + 1, col);
    }
    if (res->sumtree_n && !json)
        printf("sumtree          %d lanes: %s\n", res->sumtree_n, res->sumtree);
    if (ans->nalt >= 0 && !json)
        lad_answer_print(stdout, ans);
    if (res->nmismatch && res->smallest && !json) {
        printf("nearest model    reproduces %zu of %zu stored cases%s\n",
               res->ncases - res->nmismatch, res->ncases,
               outfile && nearest ? "" : "; --nearest -o <file> writes it");
        print_smallest(res);
    }
    if (outfile && !res->fitted) {
        rc = lad_errf(&err, LAD_EUSAGE, "run %" PRId64 " has only sumtree cases: no model "
                      "to write to '%s'", run, outfile);
        goto fail;
    }
    if (outfile && res->nmismatch && !nearest) {
        fprintf(stderr, "ladder: conflict: %s\n", res->conflict);
        fprintf(stderr, "ladder: no model in reach explains every case: '%s' not written "
                "(--nearest writes the nearest model)\n", outfile);
        free(res);
        free(ans);
        lad_store_close(st);
        return LAD_NO;
    }
    if (outfile) {
        char evidence[500], sum[400];
        snprintf(evidence, sizeof evidence, "%s%s%s",
                 res->nmismatch ? "inferred with conflicts" : "inferred from the run's probes",
                 ans->nalt >= 0 ? "; " : "",
                 ans->nalt >= 0 ? lad_answer_summary(ans, sum, sizeof sum) : "");
        char *yaml = lad_answer_model_write(ans, &res->dp, evidence);
        rc = yaml ? lad_outfile_write(outfile, yaml, &err)
                  : lad_errf(&err, LAD_EINTERNAL, "out of memory");
        free(yaml);
        if (rc != LAD_OK)
            goto fail;
    }
    if (res->nmismatch) {
        fprintf(stderr, "ladder: conflict: %s\n", res->conflict);
        rc = LAD_NO;
    }
    free(res);
    free(ans);
    lad_store_close(st);
    return rc;
fail:
    free(res);
    free(ans);
    lad_store_close(st);
    return cli_report(&err);
}
