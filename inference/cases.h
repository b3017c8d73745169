/*
** A run's stored cases as inference reads them: the store's rows with their
** words turned back into the model's lad_case, so that every candidate
** model can evaluate them directly. The store itself keeps plain words
** (db/store.h); this is the one place inference converts them.
*/
#ifndef LADDER_INFERENCE_CASES_H
#define LADDER_INFERENCE_CASES_H

#include <stddef.h>
#include <stdint.h>
#include "../db/store.h"
#include "../model/datapath.h"

typedef struct lad_infer_case {
    int64_t id;
    char rung[64];
    char label[64];          /* the human text; never parsed */
    char series[32];         /* the family of cases within the rung */
    char target[96];         /* model-file keys the series decides */
    int has_vary;            /* 0: no vary */
    int64_t vary;            /* the value the series varies in this case */
    int k, nscale, nmeta;    /* words stored; other lanes of cs are 0 */
    lad_case cs;
    lad_word_t d;              /* the device's D word */
} lad_infer_case;

/* Cases of a run (of one rung when rung is not NULL), in id order, in
** *rows (malloc'd, free()). Returns lad_store_cases's code. */
int lad_infer_cases(lad_store *st, int64_t run, const char *rung,
                    lad_infer_case **rows, size_t *n, lad_err *err);

#endif
