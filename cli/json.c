/*
** JSON output for the commands: see json.h. Strings go through the one escaper
** (util/json.c), the same the store's argv column is written with.
*/
#include "json.h"
#include "util/json.h"
#include "model/params.h"

void cli_json_str(FILE *f, const char *s)
{
    lad_buf b = {0};
    lad_json_str(&b, s);
    /* out of memory for one string: an empty string keeps the output JSON */
    fputs(b.oom ? "\"\"" : b.p, f);
    lad_buf_free(&b);
}

void cli_json_key(FILE *f, const char *key, int first)
{
    fprintf(f, "%s\"%s\": ", first ? "" : ", ", key);
}

void cli_json_model(FILE *f, const lad_datapath *dp, const char *evidence)
{
    char text[512];
    for (int i = 0; i < lad_nparams; i++) {
        fputs(i ? ", " : "{", f);
        cli_json_str(f, lad_params[i].key);
        fputs(": ", f);
        cli_json_str(f, lad_param_text(&lad_params[i], dp, text, sizeof text));
    }
    fputs(", \"evidence\": ", f);
    cli_json_str(f, evidence ? evidence : "");
    fputc('}', f);
}
