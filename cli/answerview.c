/*
** The whole answer of inference as fit and infer print it (answerview.h).
*/
#include "answerview.h"

#include <string.h>

#include "json.h"

/* The answer's rows: how many of each kind, then the open and equivalent
** rows with their values, the rows not in effect. */
#define WIDTH 100 /* columns a line takes at most, as infer's table */

/* prefix then text, broken after a space or a '|' to lines of at most
** WIDTH columns, those after the first indented by four. */
static void wrapped(FILE *f, const char *prefix, const char *text)
{
    int col = fprintf(f, "%s", prefix);
    while (*text) {
        size_t n = strcspn(text, " |");
        n += text[n] != 0; /* the break character stays on its line */
        if (col + (int)n > WIDTH && col > 4) {
            fputs("\n    ", f);
            col = 4;
        }
        col += fprintf(f, "%.*s", (int)n, text);
        text += n;
    }
    fputc('\n', f);
}

void cli_answer_print(FILE *f, const lad_answer *a)
{
    fprintf(f, "rows: %d decided, %d open, %d equivalent, %d not in effect\n", a->ndecided,
           a->nopen, a->nequiv, a->noff);
    char v[1200], v1[400], v2[400];
    for (int st = LAD_ROW_OPEN; st >= LAD_ROW_EQUIV; st--) {
        for (int i = 0; i < lad_nparams; i++)
            if (a->rows[i].status == st) {
                /* an open row's values a case separates, then those none does */
                lad_answer_values(a, i, st == LAD_ROW_OPEN, v, sizeof v);
                lad_answer_values(a, i, 0, v1, sizeof v1);
                char *eq = strchr(v1, '|');
                char pre[64], line[2600];
                snprintf(pre, sizeof pre, "%s: %s: ", st == LAD_ROW_OPEN ? "open" : "equivalent",
                         lad_params[i].key);
                snprintf(line, sizeof line, "%s%s%s%s", v,
                         strchr(v, '|') ? "" : " (others only together with another row)",
                         st == LAD_ROW_OPEN && eq ? "; equivalent: " : "",
                         st == LAD_ROW_OPEN && eq ? eq + 1 : "");
                wrapped(f, pre, line);
            }
        /* the alternatives that change two rows at once, a few of them */
        int shown = 0, more = 0;
        for (int i = 0; i < a->nalt; i++) {
            const lad_answer_alt *t = &a->alts[i];
            if (t->row2 < 0 || t->separated != (st == LAD_ROW_OPEN))
                continue;
            if (shown == 8) {
                more++;
                continue;
            }
            shown++;
            fprintf(f, "%s together: %s %s, %s %s\n", st == LAD_ROW_OPEN ? "open" : "equivalent",
                   lad_params[t->row1].key,
                   lad_param_code_text(&lad_params[t->row1], &a->model, t->v1, v1, sizeof v1),
                   lad_params[t->row2].key,
                   lad_param_code_text(&lad_params[t->row2], &a->model, t->v2, v2, sizeof v2));
        }
        if (more)
            fprintf(f, "%s together: (%d more)\n", st == LAD_ROW_OPEN ? "open" : "equivalent", more);
    }
    if (a->nequiv)
        fprintf(f, "equivalent: (no case of %ld separates these from the model)\n", a->searched);
    char off[1200] = "";
    size_t ol = 0;
    for (int i = 0; i < lad_nparams && ol < sizeof off - 40; i++)
        if (a->rows[i].status == LAD_ROW_OFF)
            ol += (size_t)snprintf(off + ol, sizeof off - ol, "%s%s", ol ? " " : "",
                                   lad_params[i].key);
    if (ol)
        wrapped(f, "not in effect: ", off);
    if (a->alts_capped || a->unexamined)
        fprintf(f, "open: (the enumeration stopped: %s%ld value pairs not examined)\n",
               a->alts_capped ? "more consistent models than kept; " : "", a->unexamined);
    if (a->nopen)
        fprintf(f, "next: %d case%s separate%s the open values from the model (--next FILE "
               "writes them)\n", a->nnext, a->nnext == 1 ? "" : "s", a->nnext == 1 ? "s" : "");
}

void cli_answer_json(FILE *f, const lad_answer *a)
{
    char v[1200];
    fprintf(f, "{\"decided\": %d, \"open\": %d, \"equivalent\": %d, \"not_in_effect\": %d, "
            "\"searched\": %ld, \"next\": %d, \"unexamined\": %ld, \"capped\": %s, \"rows\": {",
            a->ndecided, a->nopen, a->nequiv, a->noff, a->searched, a->nnext, a->unexamined,
            a->alts_capped ? "true" : "false");
    for (int i = 0, first = 1; i < lad_nparams; i++) {
        int st = a->rows[i].status;
        if (st == LAD_ROW_FIXED)
            continue;
        fprintf(f, "%s\"%s\": {\"status\": \"%s\"", first ? "" : ", ", lad_params[i].key,
                lad_row_status_names[st]);
        if (st == LAD_ROW_OPEN || st == LAD_ROW_EQUIV) {
            fprintf(f, ", \"separated\": ");
            cli_json_str(f, lad_answer_values(a, i, 1, v, sizeof v));
            fprintf(f, ", \"not_separated\": ");
            cli_json_str(f, lad_answer_values(a, i, 0, v, sizeof v));
        }
        fputc('}', f);
        first = 0;
    }
    fprintf(f, "}}");
}
