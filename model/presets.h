/*
** Presets: the datapaths of every tensor core whose behaviour is known,
** compiled in. A preset is exactly what a model file holds (`ladder model
** show NAME` prints one as YAML), plus a line saying what evidence backs it.
**
** Names: <arch>-<instruction>-<ab format>-<d format>, e.g. sm90-mma-f16-f32,
** sm100-tcgen05-mxf4nvf4-ue4m3-f32. Lowercase, '-' separated.
*/
#ifndef LADDER_MODEL_PRESETS_H
#define LADDER_MODEL_PRESETS_H

#include "datapath.h"

typedef struct lad_preset {
    lad_datapath dp;       /* dp.name is the preset name */
    char evidence[160];    /* what backs it: "vectors h100-f16-f32.vec",
                              a paper, or "unverified" */
} lad_preset;

/* Room in the compiled-in table; filling it past this aborts (a bug of
** model/presets.c, caught by the first test that lists the presets). */
#define LAD_PRESETS_MAX 640

/* Number of presets, and the i-th (0 <= i < count), in listing order. */
int lad_preset_count(void);
const lad_preset *lad_preset_get(int i);
/* The preset named `name`, or NULL. */
const lad_preset *lad_preset_find(const char *name);

/* One line on preset p into buf: "mma.sync m16n8k16 bf16 x bf16 + f32 ->
** f32, K 16 (vectors h100-bf16-f32.vec)" (the instruction with its kind,
** the shape, the formats, scales and sparsity, K, the evidence). Returns
** buf. */
const char *lad_preset_summary(const lad_preset *p, char *buf, size_t size);

#endif
