/*
** ladder fit: finds a model that reproduces captured vectors, with no
** access to the device that made them.
**
**     ladder fit FILE.vec [-o model.yaml] [--model SPEC] [--k K]
**
** The file's header says what the instruction is (formats, K); the words say
** how it computes. The instruction comes from the preset the header names
** when there is one (its formats, K, scales, sparsity; none of its
** arithmetic is used), else from the header's formats alone (K from --k or
** the header); --model gives it explicitly. Lanes the file does not hold
** (a header k below the instruction's K) are zero. inference/beam.c does
** the rest.
**
** Output: the model as YAML (to -o FILE instead of stdout when given), then
** "fit: <mismatches>/<cases> mismatches (<file>)" and "undetermined: ..."
** lines for the parameters the data does not pin down. Exit 0 when the
** model reproduces every case, 1 when the best one found does not, 2 usage,
** 3 for a file that cannot be read or parsed.
*/
#include "cli.h"
#include "answerview.h"
#include "fitfile.h"
#include "commands.h"
#include "inference/answer.h"
#include "json.h"
#include "inference/search.h"
#include "io/modelfile.h"
#include "io/vecfile.h"
#include "io/vecline.h"
#include "io/vecwrite.h"
#include "util/outfile.h"
#include "model/presets.h"
#include "model/params.h"
#include "util/progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

_Static_assert(LAD_KMAX == 128, "the usage says --k 1..128");

/* The cases that separate the open alternatives from the model, as a .vec
** file without D words: what to capture next. */
static int write_next(const char *path, const lad_answer *a, const char *from, lad_err *err)
{
    lad_vechdr h;
    lad_vechdr_of(&a->model, &h);
    h.cases = a->nnext;
    snprintf(h.source, sizeof h.source, "ladder fit --next: cases deciding the open rows "
             "of %.60s; capture D and fit again", from);
    lad_outfile o;
    int rc = lad_outfile_open(&o, path, err);
    if (rc != LAD_OK)
        return rc;
    int bad = lad_vecfile_write_header(o.f, &h);
    for (int j = 0; j < a->nnext && !bad; j++) {
        /* the rows whose values the case separates, then the case */
        char rows[300] = "";
        size_t rl = 0;
        for (int i = 0; i < a->nalt && rl < sizeof rows - 80; i++) {
            const lad_answer_alt *t = &a->alts[i];
            const char *k1 = lad_params[t->row1].key;
            if (t->next != j || strstr(rows, k1))
                continue;
            rl += (size_t)snprintf(rows + rl, sizeof rows - rl, " %s", k1);
        }
        char line[LAD_VECLINE_MAX];
        bad = lad_vecline_format(&a->model, &a->next[j], NULL, line, sizeof line) < 0 ||
              fprintf(o.f, "# separates:%s\n%s\n", rows, line) < 0;
    }
    if (bad) {
        lad_outfile_abort(&o);
        return lad_errf(err, LAD_EDATA, "cannot write '%s'", path);
    }
    return lad_outfile_commit(&o, err);
}

int cmd_fit(int argc, char **argv)
{
    const char *outpath = NULL, *spec = NULL, *kopt = NULL, *beam = NULL, *verbose = NULL;
    const char *quiet = NULL, *nextpath = NULL, *json = NULL;
    cli_opt opts[] = {
        {"verbose", 'v', 0, &verbose},
        {"json", 0, 0, &json},
        {"quiet", 'q', 0, &quiet},
        {"output", 'o', 1, &outpath},
        {"model", 0, 1, &spec},
        {"k", 0, 1, &kopt},
        {"beam", 0, 1, &beam},
        {"next", 0, 1, &nextpath},
        {NULL, 0, 0, NULL},
    };
    char *pos[2];
    int npos = 0;
    int rc = cli_parse(argc, argv, opts, pos, &npos, 1, 1,
                      "fit needs one vector file; see 'ladder fit --help'");
    if (rc)
        return rc == CLI_HELP ? 0 : rc;
    if ((rc = cli_output_ok(outpath, "the vector file", pos[0])) != LAD_OK ||
        (rc = cli_output_ok(outpath, "the model file", spec)) != LAD_OK ||
        (rc = cli_output_ok(nextpath, "the vector file", pos[0])) != LAD_OK ||
        (rc = cli_output_ok(nextpath, "the model output", outpath)) != LAD_OK)
        return rc;
    static const char *const exts[] = {"yaml", "yml", NULL};
    if ((rc = cli_output_kind("fit", outpath, exts, 0, NULL)) != LAD_OK)
        return rc;
    uint64_t b = 0, k = 0;
    if (beam && (rc = cli_number(beam, "--beam", 1, 64, &b)))
        return rc;
    if (kopt && (rc = cli_number(kopt, "--k", 1, LAD_KMAX, &k)))
        return rc;

    lad_err err = {0};
    static cli_fit f;
    lad_answer *ans = NULL;
    char *yaml = NULL;
    rc = cli_fit_open(pos[0], spec, (int)k, &f, &err);
    if (rc != LAD_OK)
        goto fail;
    clock_t t0 = clock();
    size_t n = f.pk.n;
    /* One stage around the search, its steps reported through
    ** lad_progress_step; a second around the answer (below). */
    lad_progress pr;
    lad_progress_init(&pr, quiet != NULL);
    lad_progress_begin(&pr, "fit %s: %zu cases", pos[0], n);
    rc = cli_fit_search(&f, (int)b, &pr, &err);
    lad_progress_end(&pr, rc);
    if (rc != LAD_OK) {
        lad_progress_free(&pr);
        goto fail;
    }
    double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    const lad_search_result *res = f.res;
    const lad_search_model *best = &res->best[0];
    lad_datapath model = f.model;
    /* The whole answer (inference/answer.h) of a model that reproduces
    ** every case: each row decided, equivalent, open or not in effect. */
    if (best->mismatches == 0) {
        ans = malloc(sizeof *ans);
        lad_answer_cases ac = {NULL, &f.pk, f.d, n, nextpath != NULL, lad_progress_step, &pr,
                               NULL, 0};
        lad_progress_begin(&pr, "fit %s: the rows the cases leave open", pos[0]);
        rc = ans ? lad_answer_find(&model, &ac, ans, &err)
                 : lad_errf(&err, LAD_EINTERNAL, "out of memory");
        if (rc == LAD_OK)  /* and the models far from it */
            rc = lad_answer_far(&f.base, &ac, NULL, 0, ans, &err);
        lad_progress_end(&pr, rc);
        if (rc != LAD_OK)
            goto fail;
    }
    lad_progress_free(&pr);
    char evidence[700], sum[400];
    snprintf(evidence, sizeof evidence, "ladder fit %s: %llu/%zu mismatches%s%s", pos[0],
             (unsigned long long)best->mismatches, n, ans ? "; " : "",
             ans ? lad_answer_summary(ans, sum, sizeof sum) : "");
    if ((outpath || !json) && (yaml = lad_answer_model_write(ans, &model, evidence)) == NULL) {
        rc = lad_errf(&err, LAD_EINTERNAL, "out of memory");
        goto fail;
    }
    if (outpath) {
        if ((rc = lad_outfile_write(outpath, yaml, &err)) != LAD_OK)
            goto fail;
    } else if (!json) {  /* with --json the model is the document's, below */
        fputs(yaml, stdout);
    }
    if (nextpath && !ans) {
        rc = lad_errf(&err, LAD_EDATA, "no cases written to '%s': no model reproduces every "
                      "case of '%s', so there is no answer to decide", nextpath, pos[0]);
        goto fail;
    }
    if (nextpath && (rc = write_next(nextpath, ans, pos[0], &err)) != LAD_OK)
        goto fail;
    char und[2048];
    int nu = ans ? -1 : lad_search_undetermined(res, und, sizeof und);
    if (json) {
        printf("{\"file\": ");
        cli_json_str(stdout, pos[0]);
        printf(", \"cases\": %zu, \"mismatches\": %llu, \"output\": ", n,
               (unsigned long long)best->mismatches);
        if (outpath)
            cli_json_str(stdout, outpath);
        else
            printf("null");
        printf(", \"model\": ");
        cli_json_model(stdout, &model, evidence);
        printf(", \"answer\": ");
        if (ans)
            cli_answer_json(stdout, ans);
        else
            printf("null");
        printf(", \"undetermined\": [");
        for (char *line = nu > 0 ? und : NULL, *next; line && *line; line = next) {
            next = strchr(line, '\n');
            if (next)
                *next++ = 0;
            printf("%s", line == und ? "" : ", ");
            cli_json_str(stdout, line);
        }
        printf("], \"exploration_capped\": %s}\n", res->equal_capped ? "true" : "false");
    } else {
        printf("fit: %llu/%zu mismatches (%s)\n", (unsigned long long)best->mismatches, n,
               pos[0]);
    }
    if (json) {
        /* the JSON above says it all */
    } else if (nu < 0) {
        lad_answer_print(stdout, ans);
    } else if (nu == 0) {
        printf("undetermined: none\n");
    } else {
        for (char *line = und; *line;) {
            char *nl = strchr(line, '\n');
            if (nl)
                *nl = 0;
            printf("undetermined: %s\n", line);
            if (!nl)
                break;
            line = nl + 1;
        }
    }
    if (!ans && res->equal_capped && !json)
        printf("undetermined: (exploration stopped after %d equal models)\n", res->nequal);
    if (verbose)
        fprintf(stderr, "fit: %.2f s, %llu model evaluations, %zu active cases\n", secs,
            (unsigned long long)res->evals, res->active);
    rc = best->mismatches ? LAD_NO : LAD_OK;
    free(ans);
    free(yaml);
    cli_fit_free(&f);
    return rc;
fail:
    free(ans);
    free(yaml);
    cli_fit_free(&f);
    return cli_report(&err);
}
