/*
** The whole answer of inference as fit and infer print it (answerview.h).
*/
#include "answerview.h"

#include "json.h"
#include "io/modelfile.h"

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
            const char *val = lad_model_value(p, &t->dp, v, sizeof v);
            cli_json_str(f, val ? val : lad_param_text(p, &t->dp, v, sizeof v));
        }
        fprintf(f, "}}");
        first = 0;
    }
    fprintf(f, "]}");
}
