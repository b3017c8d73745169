/*
** A survey as the commands print it: survey (at its end), show survey:N,
** history --surveys and diff survey:A survey:B share these words.
*/
#ifndef LADDER_CLI_SURVEYVIEW_H
#define LADDER_CLI_SURVEYVIEW_H

#include <stdio.h>
#include "db/store.h"
#include "report/report.h"

/* A survey's status in words: "ok", "failed", "running", or "interrupted
** after 10 of 47 datapaths" (planned known), into buf; returns buf. */
const char *cli_survey_status(const lad_survey_row *s, char *buf, size_t size);

/* The datapath's verdict against its preset as the table prints it: "= preset",
** "≡ preset: KEYS", "differs: KEYS", "failed", into buf; returns buf. */
const char *cli_survey_dp_verdict(const lad_survey_dp *d, char *buf, size_t size);

/* The verdict d->differ holds: LAD_SAME, LAD_EQUIV or LAD_DIFFERS
** (model/params.h), -1 when no model was inferred. */
int cli_survey_verdict(const lad_survey_dp *d);

/* 1 when d counts as its preset: = or ≡, both validations run with no
** mismatch. */
int cli_survey_dp_ok(const lad_survey_dp *d);

/* Prints survey s with its datapaths: a first line naming the survey, its
** device and status, the table, and the count of datapaths as their
** preset. unmapped: kernels the survey left out for want of a preset. */
void cli_survey_table(const lad_survey_row *s, const lad_survey_dp *rows, int n,
                      int unmapped);

/* Prints survey s and its datapaths as one JSON object and a newline. */
void cli_survey_json(FILE *f, const lad_survey_row *s, const lad_survey_dp *rows, int n);

/* Reads survey:<id> (spec) of st: its row into s, its datapaths into *rows
** (malloc'd, free()). LAD_EUSAGE for a spec that is no survey:<id>,
** LAD_EDATA when the store has no such survey. */
int cli_survey_load(lad_store *st, const char *spec, lad_survey_row *s, lad_survey_dp **rows,
                    size_t *n, lad_err *err);

/* diff survey:A survey:B (cli/cmd_diff.c) and its page (cli/cmd_report.c):
** each datapath of A (rows a[0..na-1]) with the datapath of B whose name
** without the generation is the same ("mma-bf16-f32" of
** "sm80-mma-bf16-f32" and "sm90-mma-bf16-f32"), A's inferred model against
** B's as `ladder diff` judges them (nrandom random cases after the
** structured ones), then B's datapaths that A lacks. Fills r->pairs
** (malloc'd; lad_report_free frees it) and r->npairs, and r's counts.
** LAD_EINTERNAL when memory runs out. */
int cli_survey_pairs(lad_store *st, const lad_survey_dp *a, size_t na, const lad_survey_dp *b,
                     size_t nb, long nrandom, lad_report *r, lad_err *err);

/* "survey 3 on vectors:v/a100- (sm_80, A100): ok" into buf; returns buf. */
const char *cli_survey_line(const lad_survey_row *s, char *buf, size_t size);

/* Columns s takes on a terminal: its UTF-8 characters. */
int cli_utf8_width(const char *s);

#endif
