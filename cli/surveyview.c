/*
** A survey as the commands print it (surveyview.h).
*/
#include "surveyview.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "inference/infer.h"
#include "model/decimal.h"
#include "model/params.h"
#include "probes/diff.h"
#include "util/buf.h"

int cli_utf8_width(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xc0) != 0x80;
    return n;
}

const char *cli_survey_status(const lad_survey_row *s, char *buf, size_t size)
{
    if (s->status == LAD_RUN_INTERRUPTED && s->planned > 0)
        snprintf(buf, size, "interrupted after %d of %d datapaths", s->done, s->planned);
    else
        snprintf(buf, size, "%s", lad_run_status_name(s->status));
    return buf;
}

int cli_survey_verdict(const lad_survey_dp *d)
{
    const char *eq = lad_verdict_names[LAD_EQUIV];
    if (strcmp(d->differ, "-") == 0)
        return -1;
    if (d->differ[0] == 0)
        return LAD_SAME;
    return strncmp(d->differ, eq, strlen(eq)) ? LAD_DIFFERS : LAD_EQUIV;
}

int cli_survey_dp_ok(const lad_survey_dp *d)
{
    int v = cli_survey_verdict(d);
    return d->done && (v == LAD_SAME || v == LAD_EQUIV) && d->inf_bad == 0 &&
           d->pre_bad == 0 && d->inf_cases > 0 && d->pre_cases > 0;
}

const char *cli_survey_dp_verdict(const lad_survey_dp *d, char *buf, size_t size)
{
    int v = cli_survey_verdict(d);
    size_t eq = strlen(lad_verdict_names[LAD_EQUIV]);
    if (!d->done)
        snprintf(buf, size, "failed");
    else if (v == LAD_SAME)
        snprintf(buf, size, "= preset");
    else if (v == LAD_EQUIV)
        snprintf(buf, size, "%s preset: %s", lad_verdict_names[LAD_EQUIV],
                 d->differ + eq + (d->differ[eq] == ' '));
    else if (v < 0)
        snprintf(buf, size, "not inferred");
    else
        snprintf(buf, size, "differs: %s", d->differ);
    return buf;
}

static void counts(char *buf, size_t size, int64_t bad, int64_t cases)
{
    if (cases < 0)
        snprintf(buf, size, "-");
    else
        snprintf(buf, size, "%" PRId64 "/%" PRId64, bad, cases);
}

void cli_survey_table(const lad_survey_row *s, const lad_survey_dp *rows, int n,
                      int unmapped)
{
    char status[80];
    printf("survey %" PRId64 " on %s (%s%s%s): ", s->id, s->device, s->arch,
           s->gpu[0] ? ", " : "", s->gpu);
    if (s->status == LAD_RUN_INTERRUPTED || s->status == LAD_RUN_RUNNING)
        printf("%s", cli_survey_status(s, status, sizeof status));
    else
        printf("%d datapath%s", n, n == 1 ? "" : "s");
    if (unmapped)
        printf("; %d kernel%s without a preset left out", unmapped, unmapped == 1 ? "" : "s");
    printf("\n");
    char (*what)[300] = calloc((size_t)n + 1, sizeof *what);
    if (what == NULL) {
        printf("(out of memory)\n");
        return;
    }
    int w = 34, ww = 26; /* the name and verdict columns: as wide as their longest */
    for (int i = 0; i < n; i++) {
        cli_survey_dp_verdict(&rows[i], what[i], sizeof what[i]);
        if ((int)strlen(rows[i].datapath) > w)
            w = (int)strlen(rows[i].datapath);
        if (cli_utf8_width(what[i]) > ww)
            ww = cli_utf8_width(what[i]);
    }
    printf("%-*s %7s  %-*s %-17s %-17s %-14s %7s\n", w, "datapath", "probes", ww, "inferred",
           "validate inferred", "validate preset", "vectors", "seconds");
    int good = 0;
    for (int i = 0; i < n; i++) {
        const lad_survey_dp *d = &rows[i];
        char inf[32], pre[32], vec[40];
        counts(inf, sizeof inf, d->inf_bad, d->inf_cases);
        counts(pre, sizeof pre, d->pre_bad, d->pre_cases);
        if (d->vec_files)
            snprintf(vec, sizeof vec, "%" PRId64 ": %" PRId64 "/%" PRId64, d->vec_files,
                     d->vec_bad, d->vec_cases);
        else
            snprintf(vec, sizeof vec, "-");
        /* %-*s pads by bytes: widen by the bytes a wide character adds */
        int pad = ww + (int)strlen(what[i]) - cli_utf8_width(what[i]);
        printf("%-*s %7" PRId64 "  %-*s %-17s %-17s %-14s %3" PRId64 ".%01" PRId64 "\n", w,
               d->datapath, d->probes, pad, what[i], inf, pre, vec, d->millis / 1000,
               d->millis % 1000 / 100);
        if (d->message[0])
            printf("    %s\n", d->message);
        good += cli_survey_dp_ok(d);
    }
    free(what);
    printf("survey %" PRId64 ": %d of %d as their preset (= or %s) with 0 mismatches", s->id,
           good, n, lad_verdict_names[LAD_EQUIV]);
    if (s->status == LAD_RUN_INTERRUPTED && s->planned > n)
        printf("; interrupted: %d of %d datapaths not surveyed", s->planned - n, s->planned);
    printf("\n");
}

void cli_survey_json(FILE *f, const lad_survey_row *s, const lad_survey_dp *rows, int n)
{
    char status[80];
    fprintf(f, "{\"survey\": %" PRId64 ", \"status\": \"%s\", \"status_text\": ", s->id,
            lad_run_status_name(s->status));
    cli_json_str(f, cli_survey_status(s, status, sizeof status));
    fprintf(f, ", \"device\": ");
    cli_json_str(f, s->device);
    fprintf(f, ", \"arch\": ");
    cli_json_str(f, s->arch);
    fprintf(f, ", \"gpu\": ");
    cli_json_str(f, s->gpu);
    fprintf(f, ", \"only\": ");
    cli_json_str(f, s->only);
    fprintf(f, ", \"cases\": %" PRId64 ", \"planned\": %d, \"done\": %d, \"good\": %d, "
            "\"started\": %" PRId64 ", \"ended\": %" PRId64 ", \"datapaths\": [",
            s->cases, s->planned, s->done, s->good, s->started, s->ended);
    for (int i = 0; i < n; i++) {
        const lad_survey_dp *d = &rows[i];
        int v = cli_survey_verdict(d);
        char what[300];
        fprintf(f, "%s{\"name\": ", i ? ",\n  " : "");
        cli_json_str(f, d->datapath);
        fprintf(f, ", \"run\": %" PRId64 ", \"verdict\": ", d->run);
        if (d->done && v >= 0)
            cli_json_str(f, lad_verdict_words[v]);
        else
            fprintf(f, "null");
        fprintf(f, ", \"text\": ");
        cli_json_str(f, cli_survey_dp_verdict(d, what, sizeof what));
        fprintf(f, ", \"validate_inferred\": {\"cases\": %" PRId64 ", \"mismatches\": %" PRId64
                "}, \"validate_preset\": {\"cases\": %" PRId64 ", \"mismatches\": %" PRId64
                "}, \"ok\": %s}",
                d->inf_cases, d->inf_bad, d->pre_cases, d->pre_bad,
                cli_survey_dp_ok(d) ? "true" : "false");
    }
    fprintf(f, "]}\n");
}

int cli_survey_load(lad_store *st, const char *spec, lad_survey_row *s, lad_survey_dp **rows,
                    size_t *n, lad_err *err)
{
    const char *num = spec + 7;
    char *end;
    long long id = strncmp(spec, "survey:", 7) == 0 && *num >= '0' && *num <= '9'
                       ? strtoll(num, &end, 10) : 0;
    if (id <= 0 || *end)
        return lad_errf(err, LAD_EUSAGE, "a survey is survey:<id>, not '%s'", spec);
    lad_survey_row *sr = NULL;
    size_t nsr = 0;
    int rc = lad_store_surveys(st, id, &sr, &nsr, err);
    if (rc == LAD_OK) {
        *s = sr[0];
        rc = lad_store_survey_get(st, id, rows, n, err);
    }
    free(sr);
    return rc;
}

const char *cli_survey_line(const lad_survey_row *s, char *buf, size_t size)
{
    char st[96];
    snprintf(buf, size, "survey %" PRId64 " on %s (%s%s%s): %s", s->id, s->device, s->arch,
             s->gpu[0] ? ", " : "", s->gpu, cli_survey_status(s, st, sizeof st));
    return buf;
}

/* The model inferred (or fitted) in d's run into dp; 0 when there is none. */
static int survey_model(lad_store *st, const lad_survey_dp *d, lad_datapath *dp)
{
    lad_err e = {0};
    int ok = d->done && d->run > 0 && lad_infer_model(st, d->run, dp, &e) == LAD_OK &&
             lad_datapath_check(dp, &e) == LAD_OK;
    lad_err_clear(&e);
    return ok;
}

/* A datapath's name without its generation ("mfma-f32-f32" of
** "cdna3-mfma-f32-f32"): what two GPUs' surveys are matched by. */
static const char *instr_key(const char *name)
{
    const char *dash = strchr(name, '-');
    return dash ? dash + 1 : name;
}

static const lad_survey_dp *find_dp(const lad_survey_dp *rows, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(instr_key(rows[i].datapath), instr_key(name)) == 0)
            return &rows[i];
    return NULL;
}

/* One pair: x of A and y of B, either NULL when the datapath is only in
** the other. */
static void pair(lad_store *st, const lad_survey_dp *x, const lad_survey_dp *y, long nrandom,
                 lad_diff *d, lad_report_pair *p)
{
    static lad_datapath ma, mb;
    memset(p, 0, sizeof *p);
    const char *na = x ? x->datapath : y->datapath;
    snprintf(p->name, sizeof p->name, "%s%s%s", na, x && y && strcmp(x->datapath, y->datapath)
             ? " / " : "", x && y && strcmp(x->datapath, y->datapath) ? y->datapath : "");
    p->run_a = x ? x->run : 0;
    p->run_b = y ? y->run : 0;
    p->only = !x ? 2 : !y ? 1 : 0;
    p->kind = -1;
    if (p->only) {
        snprintf(p->text, sizeof p->text, "only in %s", x ? "A" : "B");
        return;
    }
    if (!survey_model(st, x, &ma) || !survey_model(st, y, &mb)) {
        snprintf(p->text, sizeof p->text, "no inferred model in one survey");
        return;
    }
    lad_diff_run(d, &ma, &mb, 0, nrandom);
    p->kind = d->v.kind;
    lad_buf t = {0};
    lad_verdict_text(d, &t);
    snprintf(p->text, sizeof p->text, "%s", t.p && !t.oom ? t.p : "?");
    lad_buf_free(&t);
    if (!d->v.found)
        return;
    p->found = 1;
    if (lad_vecline_format(d->gen, &d->v.cs, NULL, p->input, sizeof p->input) < 0)
        p->input[0] = 0;
    lad_vecline_hex(&ma.d, d->v.da, p->a_word);
    lad_vecline_hex(&mb.d, d->v.db, p->b_word);
    lad_value_text_pow2(&ma.d, d->v.da, p->a_value, sizeof p->a_value);
    lad_value_text_pow2(&mb.d, d->v.db, p->b_value, sizeof p->b_value);
    lad_value_text(&ma.d, d->v.da, p->a_exact, sizeof p->a_exact);
    lad_value_text(&mb.d, d->v.db, p->b_exact, sizeof p->b_exact);
}

int cli_survey_pairs(lad_store *st, const lad_survey_dp *a, size_t na, const lad_survey_dp *b,
                     size_t nb, long nrandom, lad_report *r, lad_err *err)
{
    r->pairs = calloc(na + nb + 1, sizeof *r->pairs);
    lad_diff *d = malloc(sizeof *d);
    if (r->pairs == NULL || d == NULL) {
        free(d);
        return lad_errf(err, LAD_EINTERNAL, "out of memory");
    }
    r->npairs = 0;
    for (size_t i = 0; i < na; i++)
        pair(st, &a[i], find_dp(b, nb, a[i].datapath), nrandom, d, &r->pairs[r->npairs++]);
    for (size_t i = 0; i < nb; i++)
        if (!find_dp(a, na, b[i].datapath))
            pair(st, NULL, &b[i], nrandom, d, &r->pairs[r->npairs++]);
    free(d);
    for (size_t i = 0; i < r->npairs; i++) {
        const lad_report_pair *p = &r->pairs[i];
        r->same += p->kind == LAD_SAME;
        r->equiv += p->kind == LAD_EQUIV;
        r->differs += p->kind == LAD_DIFFERS;
        r->only_a += p->only == 1;
        r->only_b += p->only == 2;
        r->not_compared += p->kind < 0 && !p->only;
    }
    return LAD_OK;
}
