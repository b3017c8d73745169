/*
** NumPy .npy files of raw words, for `ladder gemm` and `ladder eval`.
**
** Only what a matrix of words needs: C order, little-endian, at most two
** dimensions, dtypes uint8, uint16, uint32, uint64 (raw words) and float16,
** float32, float64 (their bits are the words). Files are read in format versions 1.0 and
** 2.0 and written in 1.0, as numpy.save writes small arrays. A file is read
** whole (lad_npy_read) or a block of rows at a time (lad_npy_open), and
** written whole or a block at a time (lad_npy_create), always atomically.
*/
#ifndef LADDER_IO_NPY_H
#define LADDER_IO_NPY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "../model/format.h"
#include "../util/err.h"
#include "../util/outfile.h"

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

/* An .npy file read a block of rows at a time: the header is read and the
** data's length checked by lad_npy_open, the rows by lad_npy_next. */
typedef struct lad_npy_reader {
    FILE *fp;
    const char *path;     /* the caller's string */
    lad_npy a;            /* ndim, shape, kind, size; a.w is not used */
    size_t row;           /* rows read so far */
    unsigned char *raw;   /* the last block's bytes */
    size_t cap;
    char *buf;            /* fp's buffer, or NULL (libc's) */
} lad_npy_reader;

/* Opens path and reads its header (the errors of lad_npy_read). */
int lad_npy_open(const char *path, lad_npy_reader *r, lad_err *err);

/* The next rows rows (at most those left), widened into w: row i's
** columns at w + i * stride (stride >= columns; a stride of a struct's
** size in words fills one field of an array of structs). With f, every
** word is checked as lad_npy_check_words does. LAD_EDATA when a word is
** wider than f, or a pipe's data ends early. */
int lad_npy_next(lad_npy_reader *r, size_t rows, lad_word_t *w, size_t stride,
                 const lad_format *f, lad_err *err);

/* lad_npy_next for an array of one-byte elements, as they are: the next
** rows rows into b (columns each, no stride). */
int lad_npy_next_bytes(lad_npy_reader *r, size_t rows, uint8_t *b, const lad_format *f,
                       lad_err *err);

void lad_npy_close(lad_npy_reader *r);

/* An .npy file written a block at a time, whole or not at all. */
typedef struct lad_npy_writer {
    lad_outfile o;
    int size;
} lad_npy_writer;

/* Starts path: ndim 1 (rows * cols elements) or 2 (rows x cols), of kind
** and size. Then lad_npy_put exactly that many words, and commit (or
** abort). */
int lad_npy_create(lad_npy_writer *o, const char *path, char kind, int size, int ndim,
                   size_t rows, size_t cols, lad_err *err);
void lad_npy_put(lad_npy_writer *o, size_t n, const lad_word_t *w);
int lad_npy_commit(lad_npy_writer *o, lad_err *err);
void lad_npy_abort(lad_npy_writer *o);

/* The dtype that holds f's words: uint of the width they take (8, 16, 32
** or 64 bits), or float16, float32, float64 where they are IEEE words of
** that width (*kind 'f'). */
void lad_npy_dtype(const lad_format *f, char *kind, int *size);

/* Whether x's elements can hold f's words (operand what, from path): the
** size lad_npy_dtype gives, and kind 'f' only where it gives 'f' (an fp8
** array is no bf16 array, even though its bytes would fit). */
int lad_npy_check_dtype(const lad_npy *x, const lad_format *f, const char *what,
                        const char *path, lad_err *err);

/* Whether the n words at w, elements first.. of a file of cols columns, are
** all words of f (no bit above its width): else LAD_EDATA naming the first
** that is not, "path: element [i][j] = 0x... is wider than f (n bits)". */
int lad_npy_check_words(const lad_word_t *w, size_t n, size_t first, size_t cols,
                        const lad_format *f, const char *path, lad_err *err);

#endif
