/*
** The vector line: one dot product as one line of text, the format of the
** captured vector files (vectors/README.md), of `ladder eval` and
** of the pipe an exec device speaks,
**
**     A0,A1,...;B0,B1,...;C                      a case
**     A0,A1,...;B0,B1,...;C;D                    a case and its result
**     A...;B...;C;scale_a;scale_b;meta           scaled or sparse datapaths
**     A...;B...;C;D;scale_a;scale_b;meta
**
** Words are hex without 0x, at the native width of their format
** (lad_format_digits: f32 and tf32 8 digits, f16 and bf16 4, e4m3 2, e2m1 1).
** scale_a and scale_b are comma-separated bytes, one per scale block
** (lad_datapath_nscales), meta comma-separated 32-bit words
** (lad_datapath_nmeta); a field the datapath does not use is empty. The three
** extra fields are present exactly when the datapath is scaled or sparse, so
** the number of fields says whether D is there.
**
** Reading is lenient about case and leading zeros (a word may have 1 up to
** its native number of digits) and strict about everything else: the value
** must fit the format's width, counts must be exact, and every error names
** the column of the field or word at fault. Writing always uses lowercase
** and exactly the native number of digits.
*/
#ifndef LADDER_IO_VECLINE_H
#define LADDER_IO_VECLINE_H

#include <stddef.h>
#include <stdint.h>
#include "../model/datapath.h"

/* Longest line lad_vecline_format writes, with its NUL: 2*128 words of at
** most 16 digits (f64) and a comma, plus C, D, scales and metadata. */
#define LAD_VECLINE_MAX 4608

/* Where a line comes from, for error messages. */
typedef struct lad_vecloc {
    const char *file;   /* "x.vec", or "<stdin>" */
    int line;           /* 1-based line number */
} lad_vecloc;

/*
** Parses one line (without its newline; a trailing '\r' is ignored) into cs
** for datapath dp. k is the number of A and B words the line holds: dp->k, or
** fewer for files that fill only the first k lanes (the rest are set to 0);
** 0 means dp->k. Every field of cs is set (unused ones to 0) except the lanes
** past dp->k, which the model ignores and which are left as they are. When the line
** holds a D word, it goes to *d and *has_d is set to 1, else *has_d is 0.
** Returns LAD_OK, or LAD_EDATA with "file:line:col: message".
*/
int lad_vecline_parse(const lad_datapath *dp, int k, const char *line,
                      const lad_vecloc *loc, lad_case *cs, lad_word_t *d,
                      int *has_d, lad_err *err);

/*
** Parses one hex word of `len` characters for format f: 1 to `digits`
** hex digits (0: the format's native digits), value below 2^width.
** Returns 0 and sets *w, or a static message saying what is wrong.
*/
/* The value of a hex digit character, or -1. */
int lad_hexval(int c);

const char *lad_vecline_word(const lad_format *f, const char *s, size_t len,
                             int digits, lad_word_t *w);

/* Writes w as lowercase hex with f's native number of digits and a NUL into
** buf (at least 17 bytes). Returns the number of digits. */
int lad_vecline_hex(const lad_format *f, lad_word_t w, char *buf);

/*
** Formats cs as a line for dp, without newline: A;B;C, then ;D when d is not
** NULL, then ;scale_a;scale_b;meta when dp is scaled or sparse. Returns the
** length written (a NUL follows), or -1 when size is too small (size
** LAD_VECLINE_MAX always suffices).
*/
int lad_vecline_format(const lad_datapath *dp, const lad_case *cs,
                       const lad_word_t *d, char *buf, size_t size);

/* 1 when lines for dp carry the scale_a;scale_b;meta fields. */
int lad_vecline_extra(const lad_datapath *dp);

#endif
