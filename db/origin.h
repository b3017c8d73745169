/*
** What a stored run was started from: the device its command line named and
** the recipe it climbed, read back so that `ladder validate <run>` can use
** the same device (cuda:3 stays cuda:3) and the recipe's random settings.
**
** The runs table keeps the device's name (a GPU's marketing name, a model's
** name), which is not a spec that opens it again; the command line and the
** recipe text are what hold the spec, so those are read.
*/
#ifndef LADDER_DB_ORIGIN_H
#define LADDER_DB_ORIGIN_H

#include "util/err.h"

#include <stddef.h>
#include <stdint.h>

typedef struct lad_run_origin {
    char device[600];   /* the last --device of the command line; "" when none */
    char *recipe;       /* the recipe's full text (malloc'd), NULL when none */
    size_t recipe_len;
} lad_run_origin;

/* Reads run's origin from the store file at path (its own read-only
** connection). Returns LAD_OK; LAD_EDATA for an unknown run or a store that
** cannot be read. Free with lad_run_origin_free. */
int lad_run_origin_read(const char *path, int64_t run, lad_run_origin *o, lad_err *err);
void lad_run_origin_free(lad_run_origin *o);

#endif
