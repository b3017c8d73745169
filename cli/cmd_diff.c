/*
** ladder diff: how two datapaths differ, parameter by parameter, and a
** concrete input on which each difference shows.
**
**     ladder diff A B [--db FILE] [--search] [--cases N] [--json] [-o WITNESS.vec]
**
** A and B are presets, model files, or runs (`run:<id>`, or a bare number:
** the model `ladder infer` stored with that run); or two surveys
** (`survey:<id>`, both in the store): then each datapath's model inferred
** in A against its model in B (matched by name without the generation,
** so that two GPUs' surveys pair up), one line each with the verdict (and the
** case for differs), the datapaths only in one of them, and the counts;
** exit 1 when a datapath differs. The table has one row per
** registry parameter (model/params.h) with both values; a row that differs
** in the canonical forms (or a name) is marked '*', one that differs only as given
** (not in effect for the shape) '-', one no case searched shows '~'. Rows that can change the result of neither datapath
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
** The first line after the title is the verdict (probes/diff.h): `=`
** (the canonical models are identical), `≡` (rows differ, but none is in
** effect for the shape, or no case searched separates A and B: how many
** were searched is said) or `differs` (with the case, A's and B's words).
** --search runs the search of A against B even for `=`: a check that the
** canonical form keeps every word, which says how many cases it ran.
**
** Exit: 0 for = and ≡, 1 for differs, 2 usage, 3 bad model or run, 5
** internal.
*/
#include "cli.h"
#include "util/outfile.h"
#include "model/decimal.h"
#include "commands.h"
#include "json.h"
#include "runview.h"
#include "surveyview.h"
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

/* "    WHO hex  value" for a word of f. */
static void print_word(const char *who, const lad_format *f, lad_word_t w)
{
    char hex[17], val[1200];
    lad_vecline_hex(f, w, hex);
    printf("    %-3s %s  %s\n", who, hex, lad_value_text_pow2(f, w, val, sizeof val));
}

/* The verdict's case as a vector line ("" when it cannot be written). */
static const char *case_line(const lad_diff *d, char *line, size_t size)
{
    if (lad_vecline_format(d->gen, &d->v.cs, NULL, line, size) < 0)
        line[0] = 0;
    return line;
}

/* The verdict line, and its case when it has one. Returns 0, or -1 when
** memory ran out. */
static int print_verdict(const side *a, const side *b, const lad_diff *d)
{
    lad_buf t = {0};
    lad_verdict_text(d, &t);
    if (t.oom) {
        lad_buf_free(&t);
        return -1;
    }
    printf("verdict: %s\n", t.p);
    lad_buf_free(&t);
    if (d->v.found) {
        char line[LAD_VECLINE_MAX];
        printf("    in  %s\n", case_line(d, line, sizeof line));
        print_word("A", &a->dp.d, d->v.da);
        print_word("B", &b->dp.d, d->v.db);
    }
    return 0;
}

/* Returns 0, or -1 when memory ran out for the witnesses' text. */
static int print_text(const side *a, const side *b, const lad_diff *d)
{
    const lad_diff_row *rows = d->rows;
    const char *nosh = d->nosh;
    printf("diff %s %s\n", a->spec, b->spec);
    if (print_verdict(a, b, d) != 0)
        return -1;
    printf("  %-16s %-28s %s\n", "PARAMETER", "A", "B");
    for (int i = 0; i < lad_nparams; i++)
        if (rows[i].matters)
            printf("%c %-16s %-28s %s\n",
                   rows[i].unobservable ? '~' :
                   rows[i].in_effect || (rows[i].differs && rows[i].p->type == LAD_PT_STR) ? '*' :
                   rows[i].differs && !rows[i].same_encoding ? '-' : ' ', rows[i].p->key,
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
        if (rows[i].matters && rows[i].differs && !rows[i].in_effect && !rows[i].same_encoding &&
            rows[i].p->type != LAD_PT_STR) {
            printf("%s %s", first ? "not in effect for this shape ('-': differs as given, not "
                                    "in canonical form):" : "", rows[i].p->key);
            first = 0;
        }
    if (!first)
        putchar('\n');
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
    printf(", \"shared_inputs\": %s, \"k\": %d,\n", nosh ? "false" : "true", k);
    lad_buf t = {0};
    lad_verdict_text(d, &t);
    printf(" \"verdict\": {\"kind\": \"%s\", \"symbol\": \"%s\", \"searched\": %ld, \"text\": ",
           lad_verdict_words[d->v.kind], lad_verdict_names[d->v.kind], d->v.searched);
    cli_json_str(stdout, t.p ? t.p : "");
    lad_buf_free(&t);
    printf(", \"row\": ");
    if (d->v.w)
        cli_json_str(stdout, d->v.w->p->key);
    else
        printf("null");
    if (d->v.found) {
        char line[LAD_VECLINE_MAX];
        printf(", \"input\": \"%s\"", case_line(d, line, sizeof line));
        json_word("a_result", &a->dp.d, d->v.da);
        json_word("b_result", &b->dp.d, d->v.db);
    }
    printf("},\n \"parameters\": [");
    for (int i = 0; i < lad_nparams; i++) {
        printf("%s{\"key\": \"%s\", \"a\": ", i ? ",\n  " : "", rows[i].p->key);
        cli_json_str(stdout, rows[i].va);
        printf(", \"b\": ");
        cli_json_str(stdout, rows[i].vb);
        printf(", \"differs\": %s, \"matters\": %s, \"in_effect\": %s, "
               "\"unobservable\": %s, \"same_encoding\": %s}",
               rows[i].differs ? "true" : "false", rows[i].matters ? "true" : "false",
               rows[i].in_effect ? "true" : "false", rows[i].unobservable ? "true" : "false",
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

/* The witnesses on which B differs from A, D = B's word; the verdict's
** case too when no row's witness holds it. */
static int write_vec(const char *path, const side *a, const side *b, const lad_diff *d,
                     lad_err *err)
{
    const lad_witness *ws = d->ws;
    int nw = d->nw, direct = d->v.found && !d->v.w;
    lad_vechdr h;
    lad_vechdr_of(&b->dp, &h);
    h.k = d->k;
    h.cases = direct;
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
                  lad_vecfile_write_case(f, d->gen, d->k, &ws[i].cs, ws[i].db);
    if (direct && !bad)
        bad = fprintf(f, "# rows acting together\n") < 0 ||
              lad_vecfile_write_case(f, d->gen, d->k, &d->v.cs, d->v.db);
    if (bad) {
        lad_outfile_abort(&o);
        return lad_errf(err, LAD_EDATA, "cannot write '%s'", path);
    }
    return lad_outfile_commit(&o, err);
}

/* ---- two surveys ------------------------------------------------------------ */

/* diff survey:A survey:B: datapath by datapath, A's datapaths first
** (cli_survey_pairs). */
static int diff_surveys(const char *sa, const char *sb, const char *db, long nrandom, int json)
{
    lad_store *st;
    lad_err err = {0};
    int rc = lad_store_open(db, LAD_STORE_READONLY, &st, &err);
    lad_survey_row a, b;
    lad_survey_dp *ra = NULL, *rb = NULL;
    size_t na = 0, nb = 0;
    static lad_report r;
    memset(&r, 0, sizeof r);
    if (rc == LAD_OK)
        rc = cli_survey_load(st, sa, &a, &ra, &na, &err);
    if (rc == LAD_OK)
        rc = cli_survey_load(st, sb, &b, &rb, &nb, &err);
    if (rc == LAD_OK)
        rc = cli_survey_pairs(st, ra, na, rb, nb, nrandom, &r, &err);
    lad_store_close(st);
    free(ra);
    free(rb);
    if (rc != LAD_OK) {
        free(r.pairs);
        return cli_report(&err);
    }
    if (json) {
        printf("{\"a\": ");
        cli_json_str(stdout, sa);
        printf(", \"b\": ");
        cli_json_str(stdout, sb);
        printf(", \"datapaths\": [");
    } else {
        char la[400], lb[400];
        printf("diff %s %s\n", sa, sb);
        printf("A: %s\n", cli_survey_line(&a, la, sizeof la));
        printf("B: %s\n", cli_survey_line(&b, lb, sizeof lb));
    }
    for (size_t i = 0; i < r.npairs; i++) {
        const lad_report_pair *p = &r.pairs[i];
        if (json) {
            printf("%s{\"datapath\": ", i ? ",\n  " : "");
            cli_json_str(stdout, p->name);
            printf(", \"verdict\": ");
            if (p->kind >= 0)
                cli_json_str(stdout, lad_verdict_words[p->kind]);
            else
                printf("null");
            printf(", \"text\": ");
            cli_json_str(stdout, p->text);
            printf(", \"run_a\": %lld, \"run_b\": %lld", (long long)p->run_a,
                   (long long)p->run_b);
            if (p->found)
                printf(", \"input\": \"%s\", \"a_result\": {\"word\": \"%s\", \"value\": \"%s\"}"
                       ", \"b_result\": {\"word\": \"%s\", \"value\": \"%s\"}", p->input,
                       p->a_word, p->a_exact, p->b_word, p->b_exact);
            putchar('}');
        } else {
            printf("%-34s %s\n", p->name, p->text);
            if (p->found)
                printf("    in  %s\n    %-3s %s  %s\n    %-3s %s  %s\n", p->input, "A",
                       p->a_word, p->a_value, "B", p->b_word, p->b_value);
        }
    }
    if (json)
        printf("], \"same\": %d, \"equivalent\": %d, \"differs\": %d, \"only_a\": %d, "
               "\"only_b\": %d, \"not_compared\": %d}\n", r.same, r.equiv, r.differs,
               r.only_a, r.only_b, r.not_compared);
    else
        printf("%zu datapaths: %d =, %d %s, %d differ, %d only in A, %d only in B, %d not "
               "compared\n", r.npairs, r.same, r.equiv, lad_verdict_names[LAD_EQUIV],
               r.differs, r.only_a, r.only_b, r.not_compared);
    free(r.pairs);
    if (fflush(stdout) != 0)
        return cli_error(LAD_EINTERNAL, "cannot write the diff");
    return r.differs ? LAD_NO : LAD_OK;
}

int cmd_diff(int argc, char **argv)
{
    const char *db = LAD_STORE_DEFAULT, *json = NULL, *outpath = NULL, *search = NULL;
    const char *cases = NULL;
    const char *quiet = NULL; /* -q: nothing to quiet (cli/commands.def) */
    cli_opt opts[] = {
        {"db", 0, 1, &db},
        {"search", 0, 0, &search},
        {"cases", 0, 1, &cases},
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
    uint64_t nrandom = LAD_DIFF_RANDOM;
    if (cases && (rc = cli_number(cases, "--cases", 1, 1UL << 40, &nrandom)) != LAD_OK)
        return rc;
    if ((rc = cli_output_not_store(outpath, db)) != LAD_OK ||
        (rc = cli_output_ok(outpath, "the model file", pos[0])) != LAD_OK ||
        (rc = cli_output_ok(outpath, "the model file", pos[1])) != LAD_OK)
        return rc;
    int na = strncmp(pos[0], "survey:", 7) == 0, nb = strncmp(pos[1], "survey:", 7) == 0;
    if (na != nb)
        return cli_usage_error("diff compares two surveys or two models, not a survey with "
                               "a model");
    if (na && (outpath || search))
        return cli_usage_error("-o and --search are for two models, not two surveys");
    if (na)
        return diff_surveys(pos[0], pos[1], db, (long)nrandom, json != NULL);
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
    lad_diff_run(&d, &a.dp, &b.dp, search ? LAD_DIFF_SEARCH : 0, (long)nrandom);
    if (json)
        print_json(&a, &b, &d);
    else if (print_text(&a, &b, &d) != 0)
        return cli_error(LAD_EINTERNAL, "out of memory");
    if (outpath && d.nosh)
        return cli_error(LAD_EDATA, "no witnesses to write to '%s': the instructions "
                         "cannot share inputs (%s)", outpath, d.nosh);
    if (outpath && (rc = write_vec(outpath, &a, &b, &d, &err)) != LAD_OK)
        return cli_report(&err);
    if (fflush(stdout) != 0)
        return cli_error(LAD_EINTERNAL, "cannot write the diff");
    return d.v.kind == LAD_DIFFERS ? LAD_NO : LAD_OK;
}
