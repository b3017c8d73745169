/*
** ladder show: one run, rung by rung.
**
**     ladder show <run> [--db FILE] [--json]
**
** <run> is a run id or `latest`. Prints what the run recorded (command line,
** device, build, recipe, datapath, the SASS executed), then each rung in the
** order the run reached it with the number of cases it stored and what it
** observed, then the parameters inferred from the run and the validations
** made in it. Case ids are those of the cases table: `ladder show` says
** where to look, docs/queries/ how to read the words.
*/
#include "cli.h"
#include "commands.h"
#include "json.h"
#include "runview.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static const char usage[] =
    "usage: ladder show <run> [--db <file>] [--json]\n"
    "\n"
    "  <run>   a run id, or latest\n"
    "  --db    the store (default ladder.db)\n"
    "  --json  one JSON object instead of text\n";

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
        printf(", \"stored\": %" PRId64 "}", v->stored);
    }
    printf("]}\n");
}

int cmd_show(int argc, char **argv)
{
    const char *db = LAD_STORE_DEFAULT, *json = NULL;
    cli_opt opts[] = {
        {"db", 0, 1, &db},
        {"json", 0, 0, &json},
        {NULL, 0, 0, NULL},
    };
    char *pos[1];
    int npos;
    int code = cli_parse(argc, argv, 1, opts, usage, pos, &npos, 1);
    if (code == CLI_HELP)
        return 0;
    if (code)
        return code;
    if (npos != 1)
        return cli_usage_error("show needs a run: an id or 'latest'");

    lad_store *st;
    if ((code = cli_store_open_existing(db, &st)) != LAD_OK)
        return code;
    lad_err err = {0};
    int64_t run;
    lad_show s;
    code = lad_store_resolve_run(st, pos[0], &run, &err);
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
