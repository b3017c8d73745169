/*
** NumPy .npy files of raw words, for `ladder gemm`.
**
** Only what a matrix of words needs: C order, little-endian, at most two
** dimensions, dtypes uint8, uint16, uint32, uint64 (raw words) and float16,
** float32, float64 (their bits are the words). Files are read in format versions 1.0 and
** 2.0 and written in 1.0, as numpy.save writes small arrays.
*/
#ifndef LADDER_IO_NPY_H
#define LADDER_IO_NPY_H

#include <stddef.h>
#include <stdint.h>
#include "../model/format.h"
#include "../util/err.h"

typedef struct lad_npy {
    int ndim;             /* 0, 1 or 2 */
    size_t shape[2];      /* rows, columns (1 for missing dimensions) */
    char kind;            /* 'u' (unsigned) or 'f' (float) */
    int size;             /* bytes per element: 1, 2, 4 or 8 */
    lad_word_t *w;          /* shape[0] * shape[1] words, widened, C order */
} lad_npy;

/* Reads path into a (a->w malloc'ed). Returns LAD_OK, or LAD_EDATA with
** "path: message" (not an .npy file, a header that is not the dict numpy
** writes, Fortran order, big-endian, another dtype, more than two
** dimensions, a shape too large, data shorter or longer than the shape). Opaque elements of 1, 2, 4
** or 8 bytes (numpy's '<V2', what it saves ml_dtypes' bfloat16 and float8
** arrays as) are read as raw words, kind 'u'. */
int lad_npy_read(const char *path, lad_npy *a, lad_err *err);

/* The same from the size bytes at data (name in the messages). */
int lad_npy_read_mem(const void *data, size_t size, const char *name, lad_npy *a,
                     lad_err *err);

/* Writes rows x cols words as a 2-D array of kind and size (as above),
** whole or not at all (util/outfile.h). Returns LAD_OK or LAD_EDATA ("cannot write 'path': reason"). */
int lad_npy_write(const char *path, char kind, int size, size_t rows,
                  size_t cols, const lad_word_t *w, lad_err *err);

void lad_npy_free(lad_npy *a);

#endif
