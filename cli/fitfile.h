/*
** Fitting one captured vector file: the engine of `ladder fit`
** (cli/cmd_fit.c), which prints its answer, and of `ladder survey --device
** vectors:<dir>` (cli/cmd_survey.c), which stores it.
*/
#ifndef LADDER_CLI_FITFILE_H
#define LADDER_CLI_FITFILE_H

#include "inference/packed.h"
#include "inference/search.h"
#include "io/vecfile.h"
#include "util/progress.h"

/* One file being fitted. */
typedef struct cli_fit {
    lad_vecfile *vf;         /* the file, open */
    lad_datapath base;       /* its instruction, arithmetic at the defaults */
    lad_packed pk;           /* its cases, packed (inference/packed.h) */
    lad_word_t *d;           /* their D words, pk.n of them */
    lad_search_result *res;  /* the search's result (cli_fit_search) */
    lad_datapath model;      /* the best model found, canonical */
    uint64_t mismatches;     /* the cases it gets wrong */
} cli_fit;

/* Opens path and reads its cases into f: the instruction from spec (a
** preset or model file; NULL: the preset the header names, else the
** header's formats), K from k when not 0. Returns LAD_OK, LAD_EUSAGE for a
** file that is no .vec file, or the file's LAD_EDATA with its place. f
** must be cli_fit_free'd either way. */
int cli_fit_open(const char *path, const char *spec, int k, cli_fit *f, lad_err *err);

/* Searches for the model that reproduces f's words (beam: models kept per
** round, 0 the default), progress told to pr: f->res, f->model,
** f->mismatches. */
int cli_fit_search(cli_fit *f, int beam, lad_progress *pr, lad_err *err);

void cli_fit_free(cli_fit *f);

#endif
