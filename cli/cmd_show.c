/*
** ladder show: one run, rung by rung, or one survey.
**
**     ladder show <run>|survey:<id> [--db FILE] [--json] [--rung NAME]
**
** survey:<id> prints the survey as `ladder survey` did at its end: its
** device, status (interrupted after k of n datapaths, when its process
** died), and each datapath's verdict and validations.
**
** <run> is a run id or `latest`. Prints what the run recorded (command line,
** device, build, recipe, datapath, the SASS executed), then each rung in the
** order the run reached it with the number of cases it stored and what it
** observed, then the parameters inferred from the run and the validations
** made in it. Case ids are those of the cases table: `ladder show` says
** where to look, docs/queries/ how to read the words.
**
** With --rung, the cases that rung stored instead: each case's label and
** structured evidence, and every word with its exact value in the formats
** of the run's instruction (lanes whose A and B words are both zero are
** left out of the text).
*/
#include "cli.h"
#include "model/decimal.h"
#include "commands.h"
#include "json.h"
#include "runview.h"
#include "surveyview.h"

#include "io/vecline.h"
#include "util/buf.h"
#include "util/suggest.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Case ids shown in text before "... (N cases)". */
#define SHOW_IDS 8

/* Prints ids as "12, 13, 14" (text) or [12,13,14] (JSON). */
static void ids_text(const int64_t *ids, size_t n)
{
    for (size_t i = 0; i < n && i < SHOW_IDS; i++)
        printf("%s%" PRId64, i ? ", " : "", ids[i]);
    if (n > SHOW_IDS)
        printf(", ... (%zu cases)", n);
}

static void ids_json(const int64_t *ids, size_t n)
{
    putchar('[');
    for (size_t i = 0; i < n; i++)
        printf("%s%" PRId64, i ? "," : "", ids[i]);
    putchar(']');
}

/* The command line from its JSON array, as the shell would show it
** (arguments with spaces quoted); JSON escapes are printed as they are. */
static void argv_text(const char *json)
{
    const char *p = json;
    int first = 1;
    while (*p && *p != '"')
        p++;
    while (*p == '"') {
        const char *q = p + 1;
        while (*q && *q != '"')
            q += (*q == '\\' && q[1]) ? 2 : 1;
        int len = (int)(q - p - 1);
        int quote = memchr(p + 1, ' ', (size_t)len) != NULL || len == 0;
        printf("%s%s%.*s%s", first ? "" : " ", quote ? "'" : "", len, p + 1,
               quote ? "'" : "");
        first = 0;
        p = *q ? q + 1 : q;
        while (*p && *p != '"')
            p++;
    }
}

static void print_text(const lad_show *s)
{
    const lad_run_row *r = &s->run;
    char t1[32], t2[32];
    printf("run %" PRId64 ": %s\n", r->id, lad_run_status_name(r->status));
    printf("  command   ");
    argv_text(r->argv);
    printf("\n  started   %s UTC", cli_time(r->started, t1, sizeof t1));
    if (r->ended)
        printf(", ended %s (%" PRId64 " s)", cli_time(r->ended, t2, sizeof t2),
               r->ended - r->started);
    printf("\n  host      %s, pid %" PRId64 "\n", r->host, r->pid);
    if (r->message[0])
        printf("  message   %s\n", r->message);
    if (r->device[0] || r->device_kind[0]) {
        printf("  device    %s (%s", r->device, r->device_kind);
        if (r->cc)
            printf(", sm_%d", r->cc);
        if (r->uuid[0])
            printf(", %s", r->uuid);
        if (r->driver[0])
            printf(", driver %s", r->driver);
        if (r->toolkit[0])
            printf(", CUDA %s", r->toolkit);
        printf(")\n");
    }
    printf("  build     ladder %s, commit %s%s\n",
           r->version[0] ? r->version : "?", r->commit,
           r->dirty ? " (dirty)" : "");
    if (r->recipe[0] || r->recipe_sha256[0])
        printf("  recipe    %s (sha256 %s)\n", r->recipe[0] ? r->recipe : "-",
               r->recipe_sha256[0] ? r->recipe_sha256 : "-");
    if (r->datapath[0] || r->instr[0]) {
        printf("  datapath  %s: %s%s%s %s %s, A %s B %s C %s D %s\n",
               r->datapath[0] ? r->datapath : "-", r->instr,
               r->kind[0] ? " kind::" : "", r->kind, r->shape, r->arch,
               r->fmt_a, r->fmt_b, r->fmt_c, r->fmt_d);
    }
    if (r->sass[0] || r->sass_expected[0])
        printf("  sass      %s (expected %s)\n", r->sass[0] ? r->sass : "?",
               r->sass_expected[0] ? r->sass_expected : "?");
    printf("  cases     %" PRId64 "\n", r->ncases);

    if (s->nrungs)
        printf("\nrungs\n");
    for (size_t g = 0; g < s->nrungs; g++) {
        const lad_rung_row *rg = &s->rungs[g];
        printf("  %-16s %" PRId64 " case%s", rg->name, rg->ncases,
               rg->ncases == 1 ? "" : "s");
        if (rg->ncases)
            printf(" (ids %" PRId64 "..%" PRId64 ")", rg->first_case,
                   rg->last_case);
        putchar('\n');
        for (size_t i = 0; i < s->nobs; i++) {
            const lad_obs_row *o = &s->obs[i];
            if (strcmp(o->rung, rg->name) != 0)
                continue;
            printf("    %s = %s", o->key, o->value);
            if (o->ncases) {
                printf("   [cases ");
                ids_text(o->cases, o->ncases);
                putchar(']');
            }
            putchar('\n');
        }
    }
    if (s->ninf)
        printf("\ninferred\n");
    for (size_t i = 0; i < s->ninf; i++) {
        const lad_inference_row *f = &s->inf[i];
        printf("  %s = %s   (%s", f->parameter, f->value, f->method);
        if (f->ncases) {
            printf("; cases ");
            ids_text(f->cases, f->ncases);
        }
        printf(")\n");
    }
    if (s->nval)
        printf("\nvalidations\n");
    for (size_t i = 0; i < s->nval; i++) {
        const lad_validation_row *v = &s->val[i];
        printf("  %" PRId64 ": %s, %s seed 0x%016" PRIx64 ": ", v->id, v->model,
               v->generator, v->seed);
        if (v->cases < 0)
            printf("unfinished, %" PRId64 " mismatches stored\n", v->stored);
        else if (v->status != LAD_RUN_OK)
            printf("%s after %" PRId64 " of %" PRId64 " cases, %" PRId64
                   " mismatches (%" PRId64 " stored)\n",
                   lad_run_status_name(v->status), v->cases, v->planned,
                   v->mismatches, v->stored);
        else
            printf("%" PRId64 " cases, %" PRId64 " mismatches (%" PRId64
                   " stored)\n",
                   v->cases, v->mismatches, v->stored);
    }
}

static void print_json(const lad_show *s)
{
    printf("{\"run\": ");
    cli_run_json(stdout, &s->run);
    printf(",\n \"rungs\": [");
    for (size_t g = 0; g < s->nrungs; g++) {
        const lad_rung_row *rg = &s->rungs[g];
        printf("%s{\"name\": ", g ? ",\n   " : "");
        cli_json_str(stdout, rg->name);
        printf(", \"cases\": %" PRId64 ", \"first_case\": %" PRId64
               ", \"last_case\": %" PRId64 ", \"observations\": [",
               rg->ncases, rg->first_case, rg->last_case);
        int first = 1;
        for (size_t i = 0; i < s->nobs; i++) {
            const lad_obs_row *o = &s->obs[i];
            if (strcmp(o->rung, rg->name) != 0)
                continue;
            printf("%s{\"key\": ", first ? "" : ", ");
            cli_json_str(stdout, o->key);
            printf(", \"value\": ");
            cli_json_str(stdout, o->value);
            printf(", \"cases\": ");
            ids_json(o->cases, o->ncases);
            putchar('}');
            first = 0;
        }
        printf("]}");
    }
    printf("],\n \"inferences\": [");
    for (size_t i = 0; i < s->ninf; i++) {
        const lad_inference_row *f = &s->inf[i];
        printf("%s{\"id\": %" PRId64 ", \"parameter\": ", i ? ",\n   " : "",
               f->id);
        cli_json_str(stdout, f->parameter);
        printf(", \"value\": ");
        cli_json_str(stdout, f->value);
        printf(", \"method\": ");
        cli_json_str(stdout, f->method);
        printf(", \"cases\": ");
        ids_json(f->cases, f->ncases);
        putchar('}');
    }
    printf("],\n \"validations\": [");
    for (size_t i = 0; i < s->nval; i++) {
        const lad_validation_row *v = &s->val[i];
        printf("%s{\"id\": %" PRId64 ", \"model\": ", i ? ",\n   " : "",
               v->id);
        cli_json_str(stdout, v->model);
        printf(", \"generator\": ");
        cli_json_str(stdout, v->generator);
        /* A string: 64-bit seeds do not survive JSON readers' doubles. */
        printf(", \"seed\": \"0x%016" PRIx64 "\"", v->seed);
        if (v->cases < 0)
            printf(", \"cases\": null, \"mismatches\": null");
        else
            printf(", \"cases\": %" PRId64 ", \"mismatches\": %" PRId64,
                   v->cases, v->mismatches);
        printf(", \"stored\": %" PRId64 ", \"status\": \"%s\"}", v->stored,
               lad_run_status_name(v->status));
    }
    printf("]}\n");
}

/* One word and its value: text "3c00 = 1", or JSON {"word", "value"}. */
static void word(const lad_format *f, lad_word_t w, int json)
{
    char hex[17], val[1200];
    lad_vecline_hex(f, w, hex);
    if (json)
        lad_value_text(f, w, val, sizeof val);
    else
        lad_value_text_pow2(f, w, val, sizeof val);
    if (json)
        printf("{\"word\": \"%s\", \"value\": \"%s\"}", hex, val);
    else
        printf("%s = %s", hex, val);
}

static void words_json(const char *key, const lad_format *f, const lad_word_t *w, int n)
{
    printf(", \"%s\": [", key);
    for (int i = 0; i < n; i++) {
        fputs(i ? ", " : "", stdout);
        word(f, w[i], 1);
    }
    putchar(']');
}

static void case_text(const lad_datapath *dp, const lad_case_row *c)
{
    printf("case %" PRId64 ": %s", c->id, c->label[0] ? c->label : "-");
    if (c->series[0])
        printf(" [series %s", c->series);
    if (c->series[0] && c->target[0])
        printf(", target %s", c->target);
    if (c->series[0] && c->has_vary)
        printf(", vary %" PRId64, c->vary);
    printf("%s\n", c->series[0] ? "]" : "");
    int zero = 0;
    for (int j = 0; j < c->k; j++) {
        if (c->cs.a[j] == 0 && c->cs.b[j] == 0) {
            zero++;
            continue;
        }
        printf("    lane %d: a ", j);
        word(&dp->a, c->cs.a[j], 0);
        printf(", b ");
        word(&dp->b, c->cs.b[j], 0);
        putchar('\n');
    }
    if (zero)
        printf("    %d lane%s with zero A and B words\n", zero, zero == 1 ? "" : "s");
    for (int j = 0; j < c->nscale; j++) {
        printf("    scale %d: a ", j);
        word(&dp->sa, c->cs.sa[j], 0);
        printf(", b ");
        word(&dp->sb, c->cs.sb[j], 0);
        putchar('\n');
    }
    for (int j = 0; j < c->nmeta; j++)
        printf("    meta %d: %08x\n", j, c->cs.meta[j]);
    printf("    c ");
    word(&dp->c, c->cs.c, 0);
    printf("\n    d ");
    word(&dp->d, c->d, 0);
    putchar('\n');
}

static void case_json(const lad_datapath *dp, const lad_case_row *c)
{
    printf("{\"id\": %" PRId64 ", \"label\": ", c->id);
    cli_json_str(stdout, c->label);
    printf(", \"series\": ");
    if (c->series[0])
        cli_json_str(stdout, c->series);
    else
        printf("null");
    printf(", \"target\": ");
    if (c->target[0])
        cli_json_str(stdout, c->target);
    else
        printf("null");
    if (c->has_vary)
        printf(", \"vary\": %" PRId64, c->vary);
    else
        printf(", \"vary\": null");
    words_json("a", &dp->a, c->cs.a, c->k);
    words_json("b", &dp->b, c->cs.b, c->k);
    lad_word_t sa[LAD_STORE_SCALEMAX], sb[LAD_STORE_SCALEMAX];
    for (int j = 0; j < c->nscale; j++)
        sa[j] = c->cs.sa[j], sb[j] = c->cs.sb[j];
    words_json("sa", &dp->sa, sa, c->nscale);
    words_json("sb", &dp->sb, sb, c->nscale);
    printf(", \"meta\": [");
    for (int j = 0; j < c->nmeta; j++)
        printf("%s\"%08x\"", j ? ", " : "", c->cs.meta[j]);
    printf("], \"c\": ");
    word(&dp->c, c->cs.c, 1);
    printf(", \"d\": ");
    word(&dp->d, c->d, 1);
    putchar('}');
}

/* The error of --rung NAME when the run stored no case in it: the rungs it
** did store, and the one a slip away from NAME if there is one. */
static int no_rung(lad_store *st, int64_t run, const char *rung, lad_err *err)
{
    lad_show s;
    int rc = lad_store_show(st, run, &s, err);
    if (rc != LAD_OK)
        return rc;
    lad_suggest sg;
    lad_suggest_init(&sg, rung);
    lad_buf names = {0};
    for (size_t g = 0; g < s.nrungs; g++)
        if (s.rungs[g].ncases > 0) {
            lad_buf_printf(&names, "%s%s", names.len ? ", " : "", s.rungs[g].name);
            lad_suggest_add(&sg, s.rungs[g].name);
        }
    const char *near = lad_suggest_best(&sg);
    char *list = lad_buf_take(&names);
    if (near)
        rc = lad_errf(err, cli_rung_code(rung), "run %" PRId64 " stored no cases in rung '%s'; did "
                      "you mean '%s'? (its rungs: %s)", run, rung, near, list);
    else if (list)
        rc = lad_errf(err, cli_rung_code(rung), "run %" PRId64 " stored no cases in rung '%s'; its "
                      "rungs: %s", run, rung, list);
    else
        rc = lad_errf(err, cli_rung_code(rung), "run %" PRId64 " stored no cases in any rung", run);
    free(list);
    lad_show_free(&s);
    return rc;
}

/* `show RUN --rung NAME`: the rung's cases, decoded. */
static int show_rung(lad_store *st, int64_t run, const char *rung, int json, lad_err *err)
{
    static lad_run_row row;
    static lad_datapath dp;
    lad_case_row *rows = NULL;
    size_t n = 0;
    int rc = lad_store_run(st, run, &row, err);
    if (rc == LAD_OK)
        rc = cli_run_datapath(st, &row, &dp, err);
    if (rc == LAD_OK)
        rc = lad_store_cases(st, run, rung, &rows, &n, err);
    if (rc == LAD_OK && n == 0)
        rc = no_rung(st, run, rung, err);
    if (rc != LAD_OK)
        return rc;
    if (json) {
        printf("{\"run\": %" PRId64 ", \"rung\": ", run);
        cli_json_str(stdout, rung);
        printf(", \"cases\": [");
    } else {
        printf("run %" PRId64 " rung %s: %zu case%s (%s)\n", run, rung, n, n == 1 ? "" : "s",
               dp.name);
    }
    for (size_t i = 0; i < n; i++) {
        if (json) {
            fputs(i ? ",\n  " : "", stdout);
            case_json(&dp, &rows[i]);
        } else {
            case_text(&dp, &rows[i]);
        }
    }
    if (json)
        printf("]}\n");
    free(rows);
    return LAD_OK;
}

int cmd_show(int argc, char **argv)
{
    const char *db = LAD_STORE_DEFAULT, *json = NULL, *rung = NULL;
    const char *quiet = NULL; /* -q: nothing to quiet (cli/commands.def) */
    cli_opt opts[] = {
        {"db", 0, 1, &db},
        {"json", 0, 0, &json},
        {"rung", 0, 1, &rung},
        {"quiet", 'q', 0, &quiet}, {NULL, 0, 0, NULL},
    };
    char *pos[1];
    int npos;
    int code = cli_parse(argc, argv, opts, pos, &npos, 1, 1,
                      "show needs a run: an id or 'latest'");
    if (code)
        return code == CLI_HELP ? 0 : code;

    lad_store *st;
    if ((code = cli_store_open_existing(db, &st)) != LAD_OK)
        return code;
    lad_err err = {0};
    if (strncmp(pos[0], "survey:", 7) == 0) {
        if (rung) {
            lad_store_close(st);
            return cli_usage_error("--rung is for a run, not '%s'", pos[0]);
        }
        lad_survey_row sr;
        lad_survey_dp *rows = NULL;
        size_t n = 0;
        code = cli_survey_load(st, pos[0], &sr, &rows, &n, &err);
        lad_store_close(st);
        if (code)
            return cli_report(&err);
        if (json)
            cli_survey_json(stdout, &sr, rows, (int)n);
        else
            cli_survey_table(&sr, rows, (int)n, 0);
        free(rows);
        return fflush(stdout) != 0 ? cli_error(LAD_EINTERNAL, "cannot write the survey") : 0;
    }
    int64_t run;
    lad_show s;
    code = lad_store_resolve_run(st, pos[0], &run, &err);
    if (code == LAD_OK && rung) {
        code = show_rung(st, run, rung, json != NULL, &err);
        lad_store_close(st);
        if (code)
            return cli_report(&err);
        return fflush(stdout) != 0 ? cli_error(LAD_EINTERNAL, "cannot write the run") : 0;
    }
    if (code == LAD_OK)
        code = lad_store_show(st, run, &s, &err);
    lad_store_close(st);
    if (code)
        return cli_report(&err);
    if (json)
        print_json(&s);
    else
        print_text(&s);
    lad_show_free(&s);
    if (fflush(stdout) != 0)
        return cli_error(LAD_EINTERNAL, "cannot write the run");
    return 0;
}
