/*
** What the commands that read the store share: opening it for reading (and
** marking dead runs interrupted on the way, as every open does), and
** printing a run as JSON or its times as text. Used by history and show.
*/
#ifndef LADDER_CLI_RUNVIEW_H
#define LADDER_CLI_RUNVIEW_H

#include <stdio.h>
#include "db/store.h"
#include "model/datapath.h"

/* Opens an existing store: read-write so that dead runs get marked
** interrupted, read-only when the file cannot be written. Prints the error
** and returns its code on failure. */
int cli_store_open_existing(const char *path, lad_store **st);

/* "2025-06-01 12:34:56" (UTC) into buf (at least 20 bytes); "-" for 0. */
const char *cli_time(int64_t t, char *buf, size_t size);

/* The instruction a run probed, as its device was told it: its stored
** recipe's datapath (lad_recipe_datapath), else the preset of its datapath
** name (runs without a recipe, validate --model's, or with one this build
** cannot read). The arithmetic
** parameters are those defaults, not what the run found. LAD_EDATA when
** neither is there. */
int cli_run_datapath(lad_store *st, const lad_run_row *row, lad_datapath *dp,
                     lad_err *err);


/* Prints the run as one JSON object (no newline). */
void cli_run_json(FILE *f, const lad_run_row *r);

#endif
