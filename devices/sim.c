/*
** The sim device: evaluates the model with lad_eval_batch. The model may be
** a different datapath from the instruction being probed (that is how
** inference is tested blind), but it must have the instruction's shape: the
** same K, word widths, scale blocks and sparsity, so that every case means
** the same thing to both.
*/
#include "sim.h"
#include "../io/modelfile.h"
#include "../model/presets.h"
#include "../util/sha256.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct sim_state {
    lad_datapath model;    /* the datapath evaluated (a copy) */
} sim_state;

static int sim_eval(lad_device *dev, const lad_case *cs, size_t n,
                    lad_word_t *d, size_t *done, lad_err *err)
{
    (void)err;
    sim_state *st = dev->state;
    lad_eval_batch(&st->model, cs, n, d);
    *done = n;
    return LAD_OK;
}

static void sim_close(lad_device *dev)
{
    free(dev->state);
    free(dev);
}

/* Says how the shapes of model m and instruction dp differ; LAD_OK when
** they do not. */
static int same_shape(const lad_datapath *m, const lad_datapath *dp,
                      lad_err *err)
{
    const struct {
        const char *what;
        int model, instr;
    } t[] = {
        {"K", m->k, dp->k},
        {"A width", m->a.width, dp->a.width},
        {"B width", m->b.width, dp->b.width},
        {"C width", m->c.width, dp->c.width},
        {"D width", m->d.width, dp->d.width},
        {"scale blocks", lad_datapath_nscales(m), lad_datapath_nscales(dp)},
        {"sparsity", m->sparse, dp->sparse},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (t[i].model != t[i].instr)
            return lad_errf(err, LAD_EUSAGE, "model '%s' does not fit "
                            "instruction '%s': %s %d, expected %d", m->name,
                            dp->name, t[i].what, t[i].model, t[i].instr);
    return LAD_OK;
}

/* Reads a model file, hashes its text and parses that same text, so that
** the hash is of what is evaluated. */
static int load_file(const char *path, lad_datapath *m, lad_device_info *info,
                     lad_err *err)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return lad_model_unknown(path, err);
    fclose(f);
    char *text, *abs = NULL;
    size_t len;
    int rc = lad_yaml_read_file(path, &text, &len, err);
    if (rc != LAD_OK)
        return rc;
    rc = lad_model_parse(path, text, len, m, NULL, 0, err);
    if (rc == LAD_OK && ((abs = realpath(path, NULL)) == NULL ||
                         strlen(abs) >= sizeof info->model_file))
        rc = lad_errf(err, LAD_EDATA, "model file '%s': cannot name it by an absolute "
                      "path of under %zu bytes", path, sizeof info->model_file);
    if (rc == LAD_OK) {
        lad_sha256_hex(text, len, info->model_sha256);
        snprintf(info->model_file, sizeof info->model_file, "%s", abs);
    }
    free(abs);
    free(text);
    return rc;
}

int lad_sim_open(const char *model, const lad_datapath *dp, lad_device **out,
                 lad_err *err)
{
    *out = NULL;
    lad_datapath m;
    lad_device_info info;
    memset(&info, 0, sizeof info);
    /* A preset name wins over a file of that name, as lad_model_resolve has it. */
    const lad_preset *p = lad_preset_find(model);
    int rc = LAD_OK;
    if (p)
        m = p->dp;
    else
        rc = load_file(model, &m, &info, err);
    if (rc != LAD_OK)
        return rc;
    rc = same_shape(&m, dp, err);
    if (rc != LAD_OK)
        return rc;
    lad_device *dev = calloc(1, sizeof *dev);
    sim_state *st = calloc(1, sizeof *st);
    if (dev == NULL || st == NULL) {
        free(dev);
        free(st);
        return lad_errf(err, LAD_EINTERNAL, "out of memory");
    }
    st->model = m;
    dev->info = info;
    strcpy(dev->info.kind, "sim");
    snprintf(dev->info.name, sizeof dev->info.name, "%s", st->model.name);
    dev->dp = dp;
    dev->eval = sim_eval;
    dev->close = sim_close;
    dev->state = st;
    dev->concurrent = 1;    /* sim_eval reads st alone */
    *out = dev;
    return LAD_OK;
}
