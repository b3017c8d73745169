/*
** Devices: anything that evaluates a batch of cases of one datapath and
** returns the D words.
**
**   sim:<preset or model file>  the bit-exact model (devices/sim.c)
**   exec:<command line>         an external program over pipes, one case per
**                               line in the vector line format, each framed
**                               with its case's number (devices/exec.c);
**                               exec-unframed: without the frames
**   cuda:<index>                the real instruction on a GPU (devices/cuda.c)
**
** The datapath passed to lad_device_open says what the instruction is
** (formats, K, scales, sparsity): it fixes the line format of an exec device
** and the kernel of a cuda device. A sim device evaluates its own model,
** which may differ from it: that is how inference is tested blind.
*/
#ifndef LADDER_DEVICES_DEVICE_H
#define LADDER_DEVICES_DEVICE_H

#include <stddef.h>
#include "../model/datapath.h"

typedef struct lad_device_info {
    char kind[16];      /* "sim", "exec", "cuda", "cublaslt" */
    char name[128];     /* GPU name, model name, or command line */
    char uuid[64];      /* GPU UUID, "" elsewhere */
    int cc;             /* compute capability * 10 (90 for 9.0), 0 elsewhere */
    char driver[32];    /* driver version, "" elsewhere */
    char toolkit[32];   /* CUDA runtime version the kernels were built with */
    char sass[64];      /* tensor opcode actually executed, "" when unknown */
    /* sim: given a model file (not a preset): the file's absolute path and
    ** the sha256 of the very text the model was read from; "" otherwise.
    ** The model's `name:` may be anything, a preset's name included, so
    ** only these say again which model ran. */
    char model_file[512];
    char model_sha256[65];
} lad_device_info;

typedef struct lad_device lad_device;

struct lad_device {
    lad_device_info info;
    const lad_datapath *dp;      /* the instruction being probed (not owned) */
    /* Evaluates n cases into d. On failure returns a code, sets *done to the
    ** number of leading cases answered (their words are valid) and fills err
    ** naming the case. */
    int (*eval)(lad_device *dev, const lad_case *cs, size_t n, lad_word_t *d,
                size_t *done, lad_err *err);
    void (*close)(lad_device *dev);
    void *state;                 /* the kind's own data */
    int concurrent;              /* 1: eval may run on several threads at
                                    once, each on its own cases and words
                                    (sim: it only reads its state); 0: one
                                    call at a time (a program's pipes, a
                                    GPU's context) */
};

/* Opens the device named by spec for datapath dp (which must outlive the
** device). Returns LAD_OK, LAD_EUSAGE for a malformed spec, LAD_EDATA for a
** bad model file, LAD_EDEVICE when the device cannot be started. */
int lad_device_open(const char *spec, const lad_datapath *dp,
                    lad_device **out, lad_err *err);

/* The command line an exec device spec (exec:, exec-framed:,
** exec-unframed:) would run
** through /bin/sh, or NULL when spec names no program. A spec read from a
** file (a recipe, a store) is data that someone else may have written:
** callers open one that runs a command only when the user trusted it
** (docs/security.md). */
const char *lad_device_command(const char *spec);

/* The model file a sim: spec reads ("sim:m.yaml"), or NULL when spec is
** no sim: spec or names a preset. */
const char *lad_device_model_file(const char *spec);

/* Refuses a spec that runs a command and came from whose ("recipe 'x.yaml'",
** "run 3"), not from the user's command line, unless trusted is set; with
** recipe set, also one that reads a model file: a recipe from elsewhere
** could name any file this user can read (sim:/etc/shadow), and the model
** reader's error would quote its first key. (A store's run names the model
** file that its user allowed, with --device or --trust-exec; resuming or
** validating the run reads it again.) Returns LAD_OK, or
** LAD_EUSAGE naming the command or file and the two ways to allow it
** (--device with the same spec, --trust-exec). */
int lad_device_trust(const char *spec, const char *whose, int trusted, int recipe,
                     lad_err *err);

/* Evaluates n cases; see lad_device.eval. */
int lad_device_eval(lad_device *dev, const lad_case *cs, size_t n,
                    lad_word_t *d, size_t *done, lad_err *err);

/* Closes a device; NULL is allowed. */
void lad_device_close(lad_device *dev);

#endif
