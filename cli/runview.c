/*
** Shared by the commands that read runs: see runview.h.
*/
#include "runview.h"
#include "cli.h"
#include "json.h"

#include "io/modelfile.h"
#include "model/decimal.h"
#include "model/presets.h"
#include "probes/recipe.h"

#include <stdlib.h>

#include <inttypes.h>
#include <string.h>
#include <time.h>

int cli_store_open_existing(const char *path, lad_store **st)
{
    lad_err err = {0};
    int code = lad_store_open(path, 0, st, &err);
    if (code == LAD_EINTERNAL) {
        /* A file we may read but not write: read it as it is; when that
        ** fails too, its reason (an old schema, say) is the one to give. */
        lad_err err2 = {0};
        code = lad_store_open(path, LAD_STORE_READONLY, st, &err2);
        if (code == LAD_OK)
            return LAD_OK;
        err = err2;
    }
    if (code)
        return cli_report(&err);
    return LAD_OK;
}

int cli_run_datapath(lad_store *st, const lad_run_row *row, lad_datapath *dp,
                     lad_err *err)
{
    char *text, path[256];
    size_t len;
    int rc = lad_store_recipe(st, row->id, &text, &len, path, sizeof path, err);
    if (rc != LAD_OK && rc != LAD_EDATA)
        return rc;
    int stored = rc == LAD_OK;
    if (stored) {
        char file[64];
        snprintf(file, sizeof file, "<recipe of run %" PRId64 ">", row->id);
        static lad_recipe r;
        rc = lad_recipe_parse(file, text, len, &r, err);
        free(text);
        if (rc == LAD_OK)
            lad_recipe_datapath(&r, dp);
        lad_recipe_free(&r);
    }
    /* No recipe, or one this build cannot read: the preset of the name. */
    const lad_preset *p = rc == LAD_OK ? NULL : lad_preset_find(row->datapath);
    if (p) {
        lad_err_clear(err);
        *dp = p->dp;
        return LAD_OK;
    }
    if (!stored) {
        lad_err_clear(err);
        rc = lad_errf(err, LAD_EDATA, "run %" PRId64 " stored no recipe, and its "
                      "datapath '%s' is no preset", row->id, row->datapath);
    }
    return rc;
}

const char *cli_time(int64_t t, char *buf, size_t size)
{
    struct tm tm;
    time_t tt = (time_t)t;
    if (t == 0 || gmtime_r(&tt, &tm) == NULL) {
        snprintf(buf, size, "-");
        return buf;
    }
    strftime(buf, size, "%Y-%m-%d %H:%M:%S", &tm);
    return buf;
}

static void str_field(FILE *f, const char *key, const char *v)
{
    cli_json_key(f, key, 0);
    cli_json_str(f, v);
}

static void int_field(FILE *f, const char *key, int64_t v)
{
    cli_json_key(f, key, 0);
    fprintf(f, "%" PRId64, v);
}

void cli_run_json(FILE *f, const lad_run_row *r)
{
    char t[32];
    fputc('{', f);
    cli_json_key(f, "id", 1);
    fprintf(f, "%" PRId64, r->id);
    str_field(f, "status", lad_run_status_name(r->status));
    int_field(f, "started", r->started);
    str_field(f, "started_utc", cli_time(r->started, t, sizeof t));
    cli_json_key(f, "ended", 0);
    if (r->ended)
        fprintf(f, "%" PRId64, r->ended);
    else
        fputs("null", f);
    str_field(f, "command", r->command);
    /* Stored as a JSON array of strings; the store keeps it one when long. */
    cli_json_key(f, "argv", 0);
    fputs(r->argv[0] ? r->argv : "[]", f);
    str_field(f, "host", r->host);
    int_field(f, "pid", r->pid);
    str_field(f, "message", r->message);
    cli_json_key(f, "device", 0);
    fputc('{', f);
    cli_json_key(f, "kind", 1);
    cli_json_str(f, r->device_kind);
    str_field(f, "name", r->device);
    str_field(f, "uuid", r->uuid);
    int_field(f, "cc", r->cc);
    str_field(f, "driver", r->driver);
    str_field(f, "toolkit", r->toolkit);
    str_field(f, "spec", r->device_spec);
    str_field(f, "model_file", r->model_file);
    str_field(f, "model_sha256", r->model_sha256);
    fputc('}', f);
    cli_json_key(f, "validations", 0);
    fprintf(f, "{\"count\": %" PRId64 ", \"cases\": %" PRId64 ", \"mismatches\": %" PRId64 "}",
            r->nval, r->val_cases, r->val_mismatches);
    cli_json_key(f, "build", 0);
    fputc('{', f);
    cli_json_key(f, "version", 1);
    cli_json_str(f, r->version);
    str_field(f, "commit", r->commit);
    cli_json_key(f, "dirty", 0);
    fputs(r->dirty ? "true" : "false", f);
    fputc('}', f);
    cli_json_key(f, "recipe", 0);
    fputc('{', f);
    cli_json_key(f, "path", 1);
    cli_json_str(f, r->recipe);
    str_field(f, "sha256", r->recipe_sha256);
    fputc('}', f);
    str_field(f, "datapath", r->datapath);
    str_field(f, "arch", r->arch);
    str_field(f, "instr", r->instr);
    str_field(f, "kind", r->kind);
    str_field(f, "shape", r->shape);
    str_field(f, "sass", r->sass);
    str_field(f, "sass_expected", r->sass_expected);
    cli_json_key(f, "formats", 0);
    fputc('{', f);
    cli_json_key(f, "a", 1);
    cli_json_str(f, r->fmt_a);
    str_field(f, "b", r->fmt_b);
    str_field(f, "c", r->fmt_c);
    str_field(f, "d", r->fmt_d);
    fputc('}', f);
    int_field(f, "cases", r->ncases);
    fputc('}', f);
}
