/*
** Replaying captured vectors (vectors/README.md): the words of a .vec file
** or of the frozen tcgen05 file computed again by a model or a device and
** compared, as integers, with the ones the hardware gave. The engine of
** `ladder check` (cli/cmd_check.c), which prints what it finds, and of
** `ladder survey`'s vector replays (cli/cmd_survey.c).
*/
#ifndef LADDER_CLI_REPLAY_H
#define LADDER_CLI_REPLAY_H

#include "devices/device.h"
#include "io/vecfile.h"
#include "model/presets.h"

#define MAXSHOW 3        /* mismatching cases kept per file */

/* A mismatch kept for printing. */
typedef struct shown {
    int line;
    int digits;         /* hex digits of a D word */
    lad_word_t want, got;
    char what[LAD_VECLINE_MAX]; /* the case (vector line) or frozen label */
} shown;

/* Results of one file. */
typedef struct tally {
    long cases, bad;
    int nshown;
    shown show[MAXSHOW];
    char model[200];     /* what the words were compared with */
    char preset[64];     /* .vec: the model's name (of the candidates, the one
                            whose words match best) */
    int nmodels;        /* distinct presets used (frozen file) */
    const lad_datapath *used[64]; /* the first of them */
} tally;

/* Replays the .vec file vf against --model spec (NULL: the preset its
** header names, or the instruction whose words it holds) or, with devspec,
** the words a device computes; into t. Returns LAD_OK whatever the
** mismatches, or the file's, model's or device's code. */
int cli_replay_vec(lad_vecfile *vf, const char *spec, const char *devspec, tally *t,
                   lad_err *err);

/* Replays the frozen file vf against the presets its lines name (or, with
** spec, only its lines of that model); into t. Returns as cli_replay_vec. */
int cli_replay_frozen(lad_vecfile *vf, const char *spec, tally *t, lad_err *err);

/* What `ladder check --model SPEC --device DEV FILE` does for one .vec file,
** without printing: *cases and *bad receive the cases compared and the
** mismatches. Returns LAD_OK whatever the mismatches, or the file's or
** device's code. */
int cli_replay_file(const char *path, const char *spec, const char *devspec, long *cases,
                    long *bad, lad_err *err);

#endif
