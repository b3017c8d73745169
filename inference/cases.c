/*
** A run's stored cases for inference; see cases.h.
*/
#include "cases.h"
#include "../probes/case.h"

#include <stdio.h>
#include <stdlib.h>

int lad_infer_cases(lad_store *st, int64_t run, const char *rung,
                    lad_infer_case **rows, size_t *n, lad_err *err)
{
    lad_case_row *in = NULL;
    *rows = NULL;
    *n = 0;
    int rc = lad_store_cases(st, run, rung, &in, n, err);
    if (rc)
        return rc;
    *rows = malloc((*n ? *n : 1) * sizeof **rows);
    if (*rows == NULL) {
        free(in);
        *n = 0;
        return lad_errf(err, LAD_EINTERNAL, "out of memory");
    }
    for (size_t i = 0; i < *n; i++) {
        lad_infer_case *r = &(*rows)[i];
        r->id = in[i].id;
        snprintf(r->rung, sizeof r->rung, "%s", in[i].rung);
        snprintf(r->label, sizeof r->label, "%s", in[i].label);
        snprintf(r->series, sizeof r->series, "%s", in[i].series);
        snprintf(r->target, sizeof r->target, "%s", in[i].target);
        r->has_vary = in[i].has_vary;
        r->vary = in[i].vary;
        r->k = in[i].k;
        r->nscale = in[i].nscale;
        r->nmeta = in[i].nmeta;
        lad_case_from_data(&in[i].cs, &r->cs);
        r->d = in[i].d;
    }
    free(in);
    return LAD_OK;
}
