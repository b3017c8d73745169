/*
** Opening a device by its name: "sim:MODEL", "exec:COMMAND" (the framed
** protocol; "exec-framed:COMMAND" is the same), "exec-unframed:COMMAND"
** (answers matched by order only: opted into, never the default), "cuda:N"
** or "cublaslt:N[:OPTIONS]".
** The kinds themselves live in sim.c, exec.c, cuda.c and cublaslt.c; this file only
** reads the spec and dispatches, and holds the two calls every kind shares.
*/
#include "device.h"
#include "../model/presets.h"
#include "sim.h"
#include "exec.h"
#include "cuda.h"
#include "cublaslt.h"

#include <stdio.h>
#include <string.h>

#include "../util/suggest.h"

static int unknown(const char *spec, lad_err *err)
{
    /* a slip in the kind: "simm:x", "cdua:0" */
    static const char *const kinds[] = {"sim", "exec", "exec-unframed", "cuda", "cublaslt"};
    char kind[32];
    snprintf(kind, sizeof kind, "%.*s", (int)strcspn(spec, ":"), spec);
    lad_suggest s;
    lad_suggest_init(&s, kind);
    for (int i = 0; i < 5; i++)
        lad_suggest_add(&s, kinds[i]);
    const char *near = lad_suggest_best(&s);
    if (near && spec[strlen(kind)] == ':')
        return lad_errf(err, LAD_EUSAGE, "unknown device '%s'; did you mean '%s%s'?", spec,
                        near, spec + strlen(kind));
    return lad_errf(err, LAD_EUSAGE, "unknown device '%s' (expected "
                    "sim:MODEL, exec:COMMAND, exec-unframed:COMMAND, "
                    "cuda:N or cublaslt:N[:OPTIONS])", spec);
}

/* Parses a GPU index: decimal digits only, 0..999. Returns -1 otherwise. */
static int parse_index(const char *s)
{
    int v = 0;
    if (*s == 0 || strlen(s) > 3)
        return -1;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return -1;
        v = v * 10 + (*s - '0');
    }
    return v;
}

const char *lad_device_command(const char *spec)
{
    const char *cmd = NULL;
    if (spec == NULL)
        return NULL;
    if (strncmp(spec, "exec-framed:", 12) == 0)
        cmd = spec + 12;
    else if (strncmp(spec, "exec-unframed:", 14) == 0)
        cmd = spec + 14;
    else if (strncmp(spec, "exec:", 5) == 0)
        cmd = spec + 5;
    else
        return NULL;
    while (*cmd == ' ' || *cmd == '\t')
        cmd++;
    return cmd;
}

const char *lad_device_model_file(const char *spec)
{
    if (spec == NULL || strncmp(spec, "sim:", 4) != 0 || spec[4] == 0 ||
        lad_preset_find(spec + 4) != NULL)
        return NULL;
    return spec + 4;
}

int lad_device_trust(const char *spec, const char *whose, int trusted, int recipe,
                     lad_err *err)
{
    if (trusted)
        return LAD_OK;
    if (lad_device_command(spec))
        return lad_errf(err, LAD_EUSAGE, "%s names device '%.200s', which runs a "
                        "command; ladder runs a command from a file only when it is "
                        "named with --device '%.200s' or --trust-exec is given "
                        "(docs/security.md)", whose, spec, spec);
    if (recipe && lad_device_model_file(spec))
        return lad_errf(err, LAD_EUSAGE, "%s names device '%.200s', which reads the "
                        "model file '%.200s'; ladder reads a model file a recipe names "
                        "only when it is named with --device '%.200s' or --trust-exec is "
                        "given (docs/security.md)", whose, spec, spec + 4, spec);
    return LAD_OK;
}

int lad_device_open(const char *spec, const lad_datapath *dp,
                    lad_device **out, lad_err *err)
{
    *out = NULL;
    if (spec == NULL)
        return lad_errf(err, LAD_EUSAGE, "no device given");
    if (strncmp(spec, "sim:", 4) == 0) {
        if (spec[4] == 0)
            return unknown(spec, err);
        return lad_sim_open(spec + 4, dp, out, err);
    }
    const char *cmd = lad_device_command(spec);
    if (cmd) {
        if (*cmd == 0)
            return unknown(spec, err);
        /* framed unless the spec opts out by its name */
        int framed = strncmp(spec, "exec-unframed:", 14) != 0;
        return lad_exec_open(cmd, dp, framed, out, err);
    }
    if (strncmp(spec, "cuda:", 5) == 0) {
        int index = parse_index(spec + 5);
        if (index < 0)
            return unknown(spec, err);
#ifdef LADDER_CUDA
        return lad_cuda_open(index, dp, out, err);
#else
        return lad_errf(err, LAD_EDEVICE, "cannot open '%s': this ladder "
                        "was built without CUDA device support (no nvcc at "
                        "build time)", spec);
#endif
    }
    if (strncmp(spec, "cublaslt:", 9) == 0) {
        char idx[8];
        const char *colon = strchr(spec + 9, ':');
        size_t l = colon ? (size_t)(colon - spec - 9) : strlen(spec + 9);
        if (l >= sizeof idx)
            return unknown(spec, err);
        memcpy(idx, spec + 9, l);
        idx[l] = 0;
        int index = parse_index(idx);
        if (index < 0)
            return unknown(spec, err);
        return lad_cublaslt_open(index, colon ? colon + 1 : "", dp, out, err);
    }
    return unknown(spec, err);
}

int lad_device_eval(lad_device *dev, const lad_case *cs, size_t n,
                    lad_word_t *d, size_t *done, lad_err *err)
{
    size_t dummy;
    if (done == NULL)
        done = &dummy;
    *done = 0;
    if (n == 0)
        return LAD_OK;
    return dev->eval(dev, cs, n, d, done, err);
}

void lad_device_close(lad_device *dev)
{
    if (dev)
        dev->close(dev);
}
