/*
** JSON output for the commands: see json.h. Strings go through the one escaper
** (util/json.c), the same the store's argv column is written with.
*/
#include "json.h"
#include "util/json.h"

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
