/*
** The report of `ladder report`: one run, one model, one survey or two
** surveys compared as a
** self-contained HTML page (inline CSS and SVG, nothing fetched) or as
** Markdown (the same tables; figures as text, or a line saying they are
** left out).
**
** The caller (cli/cmd_report.c) reads what the store holds into a
** lad_report; everything here only renders it, and computes the figures'
** data from the stored cases and the model: the rounding truth table from
** the cases of rung `ulp`, the bit-contribution map from the cases of rung
** `internal`, the error against K by evaluating the model on random cases
** and comparing with the exact sum (integers; the ratio alone becomes a
** double, for plotting), and the pass structure from the datapath's fields.
**
** Writing goes to a FILE; the functions return LAD_OK, or LAD_EINTERNAL when
** the stream reports an error.
*/
#ifndef LADDER_REPORT_REPORT_H
#define LADDER_REPORT_REPORT_H

#include <stdio.h>

#include "db/store.h"
#include "io/vecline.h"
#include "model/datapath.h"

enum lad_report_kind { LAD_REPORT_RUN = 0, LAD_REPORT_MODEL, LAD_REPORT_SURVEY,
                       LAD_REPORT_SURVEYDIFF };
enum lad_report_format { LAD_REPORT_HTML = 0, LAD_REPORT_MD };

#define LAD_REPORT_IDS 12 /* deciding cases shown (and listed) per parameter */

/* One parameter of the model with the cases that decided it. */
typedef struct lad_report_param {
    char key[32];
    char value[600];         /* as a model file writes it */
    char method[160];        /* how inference decided it; "" none */
    int64_t ids[LAD_REPORT_IDS];
    size_t nids;             /* ids shown */
    size_t ndecide;          /* deciding cases in all */
    int capped;              /* ndecide is what the store kept, at its limit:
                                more cases may have decided it */
} lad_report_param;

/* One datapath of a survey. */
typedef struct lad_report_sdp {
    char datapath[64];
    char device[128];        /* the run's device name; "" without a run */
    int64_t run;             /* 0: none */
    int have_model, have_preset;
    lad_datapath model;      /* inferred from the run */
    lad_datapath preset;
    int64_t inf_cases, inf_bad, pre_cases, pre_bad; /* -1: not run */
    int done;                /* the survey finished it (whatever it found) */
    int64_t cases;           /* cases its run stored */
    int64_t probes;          /* the ladder's targeted cases */
    int64_t millis;          /* its wall time in the survey */
    int64_t vec_files, vec_cases, vec_bad; /* captured vectors replayed */
    char message[256];
    int verdict;             /* the inferred model against the preset:
                                LAD_SAME, LAD_EQUIV, LAD_DIFFERS
                                (model/params.h); -1 not inferred */
    char differ[256];        /* the rows, as lad_survey_dp.differ */
} lad_report_sdp;

/* One datapath of two surveys (`ladder diff survey:A survey:B`): A's
** inferred model against B's. */
typedef struct lad_report_pair {
    char name[140];          /* A's name, " / " and B's when they differ */
    int64_t run_a, run_b;    /* the runs; 0 where the survey has none */
    int kind;                /* LAD_SAME, LAD_EQUIV, LAD_DIFFERS (model/params.h);
                                -1 not compared */
    int only;                /* 1 only in A, 2 only in B, 0 in both */
    char text[600];          /* the verdict's line, or why not compared */
    int found;               /* a case separates them: */
    char input[LAD_VECLINE_MAX]; /* the case as a vector line */
    char a_word[20], b_word[20]; /* A's and B's words, hex */
    char a_value[1200], b_value[1200]; /* their values, long ones with 2^k */
    char a_exact[1100], b_exact[1100]; /* their exact decimal values */
} lad_report_pair;

typedef struct lad_report {
    int kind;                /* enum lad_report_kind */
    char subject[600];       /* what it is of: "run 3", "preset x", a path */
    /* Runs and models: a model alone is reported through the run its
    ** probe cases were generated in (on the sim device). */
    lad_show show;           /* the run, rungs, observations, validations */
    lad_datapath dp;         /* the model: given, or inferred from the run */
    int have_dp;
    lad_report_param *params;
    int nparams;
    lad_case_row *cases;     /* every stored case of the run, by id */
    size_t ncases;
    char *recipe;            /* the recipe's text, NULL when none stored */
    char recipe_path[256];
    char model_note[256];    /* where the model comes from */
    char *answer;            /* the whole answer `ladder infer` stored (its
                                lines, inference/answer.h); NULL: none */
    /* Surveys. */
    int64_t survey;
    char survey_status[96];  /* "ok", "interrupted after 10 of 47 datapaths" */
    lad_report_sdp *sdp;
    size_t nsdp;
    /* Two surveys: each described in a line ("survey 3 on vectors:... (sm_80,
    ** A100): ok"), their datapaths paired, and the counts. */
    char side_a[400], side_b[400];
    lad_report_pair *pairs;
    size_t npairs;
    int same, equiv, differs, only_a, only_b, not_compared;
    /* The page of each datapath's run, as a link: a printf format of one
    ** int64_t run id ("s-run%" PRId64 ".html"); "" for no links. */
    char run_link[600];
} lad_report;

/* Writes r to f in format fmt (enum lad_report_format). */
int lad_report_write(FILE *f, const lad_report *r, int fmt);

/* Frees what r holds (not r). */
void lad_report_free(lad_report *r);

#endif
