/*
** The whole answer of inference as fit and infer print it (answerview.h).
*/
#include "answerview.h"

#include "json.h"
#include "model/format_spec.h"

#include <string.h>

/* Row p of dp as a model file writes it: a format by its name when that
** reads back as it, else by its shortest spec ("e8m13:pad=10", where
** lad_param_text says "e8m13"). */
static const char *file_text(const lad_param *p, const lad_datapath *dp, char *buf, size_t size)
{
    if (p->type != LAD_PT_FMT)
        return lad_param_text(p, dp, buf, size);
    const lad_format *fm = (const lad_format *)((const char *)dp + p->off);
    lad_format g;
    lad_err e = {0};
    if (fm->width && (lad_format_parse(fm->name, &g, &e) != LAD_OK || memcmp(&g, fm, sizeof g)))
        lad_format_spec_short(fm, buf, size);
    else
        lad_param_text(p, dp, buf, size);
    return buf;
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
    /* the alternatives that change two rows or more at once: each row's
    ** value as a model file writes it, and whether a case (the next
    ** ones) separates it from M */
    fprintf(f, "}, \"together\": [");
    for (int i = 0, first = 1; i < a->nalt; i++) {
        const lad_answer_alt *t = &a->alts[i];
        if (t->row2 < 0)
            continue;
        fprintf(f, "%s{\"apart\": %s, \"separated\": %s, \"rows\": {", first ? "" : ", ",
                t->apart ? "true" : "false", t->separated ? "true" : "false");
        for (int r = 0, nr = 0; r < lad_nparams; r++) {
            if (!(t->rows >> r & 1))
                continue;
            const lad_param *p = &lad_params[r];
            fprintf(f, "%s\"%s\": ", nr++ ? ", " : "", p->key);
            cli_json_str(f, file_text(p, &t->dp, v, sizeof v));
        }
        fprintf(f, "}}");
        first = 0;
    }
    fprintf(f, "]}");
}
