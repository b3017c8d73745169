/*
** The sim device: evaluates the model with lad_eval_batch. The model may be
** a different datapath from the instruction being probed (that is how
** inference is tested blind), but it must have the instruction's shape: the
** same K, word widths, scale blocks and sparsity, so that every case means
** the same thing to both.
*/
#include "sim.h"
#include "../io/modelfile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct sim_state {
    lad_datapath model;    /* the datapath evaluated (a copy) */
} sim_state;

static int sim_eval(lad_device *dev, const lad_case *cs, size_t n,
                    uint32_t *d, size_t *done, lad_err *err)
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

int lad_sim_open(const char *model, const lad_datapath *dp, lad_device **out,
                 lad_err *err)
{
    *out = NULL;
    lad_datapath m;
    int rc = lad_model_resolve(model, &m, err);
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
    strcpy(dev->info.kind, "sim");
    snprintf(dev->info.name, sizeof dev->info.name, "%s", st->model.name);
    dev->dp = dp;
    dev->eval = sim_eval;
    dev->close = sim_close;
    dev->state = st;
    *out = dev;
    return LAD_OK;
}
