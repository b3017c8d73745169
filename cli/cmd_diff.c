/*
** ladder diff: how two datapaths differ, parameter by parameter, and a
** concrete input on which each difference shows.
**
**     ladder diff A B [--db FILE] [--json] [-o WITNESS.vec]
**
** A and B are presets, model files, or runs (`run:<id>`, or a bare number:
** the model `ladder infer` stored with that run). The table has one row per
** registry parameter (model/params.h) with both values; a differing row is
** marked '*'. Rows that can change the result of neither datapath
** (lad_param_matters) are left out of the table and named on one line.
**
** The rows and the witnesses come from probes/diff.h, which says how a
** witness is searched; when the two cannot share inputs, diff says so and
** lists the parameters only.
**
** -o FILE writes the witnesses on which B differs from A as a .vec file
** whose D words are B's: `ladder check --model B FILE` passes and `ladder
** check --model A FILE` fails on every line.
**
** Exit: 0 when no row of the table differs (names included), 1 when one
** does, 2 usage,
** 3 bad model or run, 5 internal.
*/
#include "cli.h"
#include "util/outfile.h"
#include "model/decimal.h"
#include "commands.h"
#include "json.h"
#include "runview.h"
#include "inference/infer.h"
#include "io/modelfile.h"
#include "io/vecwrite.h"
#include "model/params.h"
#include "probes/diff.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One side of the comparison. */
typedef struct side {
    const char *spec;
    lad_datapath dp;
} side;

/* A run (latest, a bare number, run:<id>, run:latest) or a preset or model
** file into dp. */
static int resolve(const char *spec, const char *db, lad_datapath *dp, lad_err *err)
{
    if (!lad_store_is_run_spec(spec)) {
        if (strncmp(spec, "run:", 4) == 0)
            return lad_errf(err, LAD_EUSAGE, "bad run '%s': expected a run id or 'latest'",
                            spec);
        int rc = lad_model_resolve(spec, dp, err);
        return rc == LAD_OK ? lad_datapath_check(dp, err) : rc;
    }
    lad_store *st;
    int rc = lad_store_open(db, LAD_STORE_READONLY, &st, err);
    int64_t run = 0;
    if (rc == LAD_OK)
        rc = lad_store_resolve_run(st, spec, &run, err);
    if (rc == LAD_OK)
        rc = lad_infer_model(st, run, dp, err);
    lad_store_close(st);
    return rc == LAD_OK ? lad_datapath_check(dp, err) : rc;
}

/* ---- output -------------------------------------------------------------- */

static void json_word(const char *key, const lad_format *f, lad_word_t w)
{
    char hex[17], val[1100];
    lad_vecline_hex(f, w, hex);
    printf(", \"%s\": {\"word\": \"%s\", \"value\": \"%s\"}", key, hex,
           lad_value_text(f, w, val, sizeof val));
}

/* Returns 0, or -1 when memory ran out for the witnesses' text. */
static int print_text(const side *a, const side *b, const lad_diff *d)
{
    const lad_diff_row *rows = d->rows;
    const char *nosh = d->nosh;
    printf("diff %s %s\n", a->spec, b->spec);
    printf("  %-16s %-28s %s\n", "PARAMETER", "A", "B");
    for (int i = 0; i < lad_nparams; i++)
        if (rows[i].matters)
            printf("%c %-16s %-28s %s\n",
                   rows[i].unobservable ? '~' : rows[i].differs ? '*' : ' ', rows[i].p->key,
                   rows[i].va, rows[i].vb);
    int first = 1;
    for (int i = 0; i < lad_nparams; i++)
        if (!rows[i].matters) {
            printf("%s %s", first ? "in effect for neither:" : "", rows[i].p->key);
            first = 0;
        }
    if (!first)
        putchar('\n');
    for (int i = 0; i < lad_nparams; i++)
        if (rows[i].matters && rows[i].same_encoding)
            printf("%s: %s and %s are one encoding under two names\n", rows[i].p->key,
                   rows[i].va, rows[i].vb);
    first = 1;
    for (int i = 0; i < lad_nparams; i++)
        if (rows[i].unobservable) {
            printf("%s %s", first ? "unobservable ('~': differs, but no case searched "
                                    "shows it):" : "", rows[i].p->key);
            first = 0;
        }
    if (!first)
        putchar('\n');
    if (nosh) {
        printf("no witnesses: the instructions cannot share inputs (%s)\n", nosh);
        return 0;
    }
    if (a->dp.k != b->dp.k)
        printf("K differs: cases fill the first %d lanes, the rest are zero\n", d->k);
    lad_buf t = {0};
    for (int i = 0; i < d->nw; i++)
        lad_witness_text(d, &d->ws[i], &t);
    int bad = t.oom;
    if (t.len && !bad)
        fwrite(t.p, 1, t.len, stdout);
    lad_buf_free(&t);
    return bad ? -1 : 0;
}

static void print_json(const side *a, const side *b, const lad_diff *d)
{
    const lad_diff_row *rows = d->rows;
    const lad_witness *ws = d->ws;
    const char *nosh = d->nosh;
    int k = d->k, nw = d->nw;
    printf("{\"a\": ");
    cli_json_str(stdout, a->spec);
    printf(", \"b\": ");
    cli_json_str(stdout, b->spec);
    printf(", \"shared_inputs\": %s, \"k\": %d,\n \"parameters\": [", nosh ? "false" : "true", k);
    for (int i = 0; i < lad_nparams; i++) {
        printf("%s{\"key\": \"%s\", \"a\": ", i ? ",\n  " : "", rows[i].p->key);
        cli_json_str(stdout, rows[i].va);
        printf(", \"b\": ");
        cli_json_str(stdout, rows[i].vb);
        printf(", \"differs\": %s, \"matters\": %s, \"unobservable\": %s, "
               "\"same_encoding\": %s}", rows[i].differs ? "true" : "false",
               rows[i].matters ? "true" : "false", rows[i].unobservable ? "true" : "false",
               rows[i].same_encoding ? "true" : "false");
    }
    printf("],\n \"witnesses\": [");
    for (int i = 0; i < nw; i++) {
        const lad_witness *w = &ws[i];
        printf("%s{\"parameter\": \"%s\", \"found\": %s", i ? ",\n  " : "", w->p->key,
               w->found ? "true" : "false");
        if (!w->found) {
            printf(", \"unobservable\": %s, \"why\": ", w->searched ? "true" : "false");
            cli_json_str(stdout, w->why);
            putchar('}');
            continue;
        }
        char line[LAD_VECLINE_MAX];
        if (lad_vecline_format(a->dp.k == k ? &a->dp : &b->dp, &w->cs, NULL, line, sizeof line) < 0)
            line[0] = 0;
        char says[300];
        printf(", \"input\": \"%s\", \"b_differs\": %s, \"explains\": %s, \"changed\": "
               "\"%s\", \"says\": ", line, w->b_differs ? "true" : "false",
               w->explains ? "true" : "false", w->swapped ? "b" : "a");
        cli_json_str(stdout, lad_witness_says(w, says, sizeof says));
        json_word("a_result", &a->dp.d, w->da);
        json_word("b_result", &b->dp.d, w->db);
        json_word("changed_result", w->swapped ? &b->dp.d : &a->dp.d, w->dx);
        putchar('}');
    }
    printf("]");
    if (nosh) {
        printf(", \"no_witnesses\": ");
        cli_json_str(stdout, nosh);
    }
    printf("}\n");
}

/* The witnesses on which B differs from A, D = B's word. */
static int write_vec(const char *path, const side *a, const side *b, int k,
                     const lad_witness *ws, int nw, lad_err *err)
{
    const lad_datapath *gen = a->dp.k == k ? &a->dp : &b->dp;
    lad_vechdr h;
    lad_vechdr_of(&b->dp, &h);
    h.k = k;
    h.cases = 0;
    for (int i = 0; i < nw; i++)
        h.cases += ws[i].found && ws[i].b_differs;
    snprintf(h.source, sizeof h.source, "ladder diff: D is %.100s's word; %.100s's differs",
             b->dp.name, a->dp.name);
    lad_outfile o;
    int rc = lad_outfile_open(&o, path, err);
    if (rc != LAD_OK)
        return rc;
    FILE *f = o.f;
    int bad = lad_vecfile_write_header(f, &h);
    for (int i = 0; i < nw && !bad; i++)
        if (ws[i].found && ws[i].b_differs)
            bad = fprintf(f, "# %s\n", ws[i].p->key) < 0 ||
                  lad_vecfile_write_case(f, gen, k, &ws[i].cs, ws[i].db);
    if (bad) {
        lad_outfile_abort(&o);
        return lad_errf(err, LAD_EDATA, "cannot write '%s'", path);
    }
    return lad_outfile_commit(&o, err);
}

int cmd_diff(int argc, char **argv)
{
    const char *db = LAD_STORE_DEFAULT, *json = NULL, *outpath = NULL;
    const char *quiet = NULL; /* -q: nothing to quiet (cli/commands.def) */
    cli_opt opts[] = {
        {"db", 0, 1, &db},
        {"json", 0, 0, &json},
        {"output", 'o', 1, &outpath},
        {"quiet", 'q', 0, &quiet}, {NULL, 0, 0, NULL},
    };
    char *pos[2];
    int npos;
    int rc = cli_parse(argc, argv, opts, pos, &npos, 2, 2,
                      "diff needs two models; see 'ladder diff --help'");
    if (rc)
        return rc == CLI_HELP ? 0 : rc;
    if ((rc = cli_output_ok(outpath, "the store", db)) != LAD_OK ||
        (rc = cli_output_ok(outpath, "the model file", pos[0])) != LAD_OK ||
        (rc = cli_output_ok(outpath, "the model file", pos[1])) != LAD_OK)
        return rc;
    static const char *const exts[] = {"vec", NULL};
    if ((rc = cli_output_kind("diff", outpath, exts, 0, NULL)) != LAD_OK)
        return rc;
    static side a, b;
    lad_err err = {0};
    a.spec = pos[0];
    b.spec = pos[1];
    if ((rc = resolve(a.spec, db, &a.dp, &err)) != LAD_OK ||
        (rc = resolve(b.spec, db, &b.dp, &err)) != LAD_OK)
        return cli_report(&err);
    static lad_diff d;
    lad_diff_run(&d, &a.dp, &b.dp);
    if (json)
        print_json(&a, &b, &d);
    else if (print_text(&a, &b, &d) != 0)
        return cli_error(LAD_EINTERNAL, "out of memory");
    if (outpath && d.nosh)
        return cli_error(LAD_EDATA, "no witnesses to write to '%s': the instructions "
                         "cannot share inputs (%s)", outpath, d.nosh);
    if (outpath && (rc = write_vec(outpath, &a, &b, d.k, d.ws, d.nw, &err)) != LAD_OK)
        return cli_report(&err);
    if (fflush(stdout) != 0)
        return cli_error(LAD_EINTERNAL, "cannot write the diff");
    return d.ndiff ? LAD_NO : LAD_OK;
}
