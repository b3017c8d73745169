/*
** Writing .vec files (docs/vector-format.md, vectors/README.md): the `# key:
** value` header of a lad_vechdr, then one `A;B;C;D` line per case, so that
** `ladder check` reads back what `ladder diff -o` and `ladder export` write.
** The reader is io/vecfile.h; this is its other half, kept apart so that the
** reader stays what the captured files need.
*/
#ifndef LADDER_IO_VECWRITE_H
#define LADDER_IO_VECWRITE_H

#include <stdio.h>
#include <stdint.h>
#include "vecfile.h"

/* A header for lines of dp: arch, instruction, the four formats and k set,
** everything else empty (cases -1). */
void lad_vechdr_of(const lad_datapath *dp, lad_vechdr *h);

/* Writes the header lines of h: gpu, arch, instruction, a, b, c, d, k,
** cases and source, each only when set (cases when >= 0). Returns 0, or -1
** when the stream fails. */
int lad_vecfile_write_header(FILE *f, const lad_vechdr *h);

/* Writes cs and its D word d as one line of dp with only the first k lanes
** of A and B (k <= dp->k; a header `# k:` must say so when k < dp->k,
** which only a dense, unscaled datapath allows).
** Returns 0, or -1 when the stream fails or k does not fit. */
int lad_vecfile_write_case(FILE *f, const lad_datapath *dp, int k,
                           const lad_case *cs, lad_word_t d);

#endif
