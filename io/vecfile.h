/*
** Vector files: captured hardware results, read one case at a time.
**
** Two kinds of file are read (vectors/README.md):
**
**   .vec files: `# key: value` header lines (gpu, arch, instruction, a, b,
**   c, d, k, cases, source), then one vector line per case (io/vecline.h)
**   with its D word. The header names the datapath, so lad_vechdr_preset
**   can pick the preset that should reproduce the file.
**
**   the frozen tcgen05 file (b200-tcgen05-frozen.txt): its `# format:`
**   header announces lines of 13 '|'-separated fields,
**   label|kind|a_format|b_format|d_type|options|a_words|b_words|c_word|
**   scale_a|scale_b|sparse_metadata|expected_d, each naming its own
**   datapath. Words there are at container width: tf32 and bf16 operands
**   are F32 words (bf16 in the high half), f16 4 digits, smaller formats and
**   scales 2 digits; scale lists may hold more entries than the datapath
**   uses. lad_frozen_parse reads a line and names its preset;
**   lad_frozen_case converts it to a case of that datapath.
**
** Blank lines and lines starting with '#' after the header are skipped.
** Lines are at most LAD_VECFILE_LINEMAX bytes.
** Every error is "file:line:col: message" with LAD_EDATA; a file that
** cannot be read is LAD_EDATA too, naming the file.
*/
#ifndef LADDER_IO_VECFILE_H
#define LADDER_IO_VECFILE_H

#include <stdio.h>
#include <stdint.h>
#include "../model/datapath.h"
#include "vecline.h"

/* Longest line read, without its newline: three times the longest vector
** line (LAD_VECLINE_MAX) leaves room for frozen lines at container width and
** for comments. A longer line is an error ("line longer than ..."). */
#define LAD_VECFILE_LINEMAX 8192

enum lad_vecfile_kind {
    LAD_VECFILE_VEC = 0,    /* header + vector lines */
    LAD_VECFILE_FROZEN = 1  /* header + '|'-separated labelled lines */
};

/* The `# key: value` header of a vector file; absent keys are "" (or 0). */
typedef struct lad_vechdr {
    char gpu[32];           /* "H100" */
    char arch[16];          /* "sm_90" */
    char instruction[128];  /* "mma.sync (CUDA WMMA or inline ...)" */
    char a[LAD_NAME_MAX], b[LAD_NAME_MAX]; /* element formats, "e4m3" */
    char c[LAD_NAME_MAX], d[LAD_NAME_MAX]; /* addend and result formats */
    int k;                  /* A and B words per line; 0 when absent */
    long cases;             /* cases the file says it holds; -1: absent */
    int cases_line;         /* the line of `# cases:`; 0: absent */
    char source[256];       /* where the words come from */
    char format[256];       /* the frozen file's line format */
} lad_vechdr;

typedef struct lad_vecfile {
    char *path;             /* as given, for messages (owned) */
    FILE *f;                /* NULL after close */
    int kind;               /* enum lad_vecfile_kind */
    lad_vechdr hdr;
    int fd;                 /* f's descriptor, read with read(2); -1 for a
                               stream without one (fmemopen), read with fread */
    int line;               /* 1-based number of the line last returned */
    char *cur;              /* the line last returned, NUL-terminated, in buf */
    char *buf;              /* input block: lines are cut in place */
    size_t cap;             /* bytes allocated for buf */
    size_t pos, len;        /* buf[pos..len) is read but not yet returned */
    int eof;                /* the end of f was seen */
    int pending;            /* 1: cur is the first data line, read while
                               looking for the end of the header */
    /* Called, when set, before a read that may wait for more input: a filter
    ** (ladder eval) flushes its answers there, so that a peer writing one
    ** line at a time gets each answer, while a file streams in blocks. */
    void (*idle)(void *arg);
    void *idle_arg;
} lad_vecfile;

/* Opens path ("-" is stdin, named "<stdin>") and reads its header. The
** file is read through its descriptor in blocks, so f must not have been
** read through stdio before. Returns
** LAD_OK and a file to read with lad_vecfile_next, or LAD_EDATA. */
int lad_vecfile_open(const char *path, lad_vecfile **out, lad_err *err);

/* Same, from an open stream named `name` in messages; on success the file
** owns f (lad_vecfile_close closes it unless it is stdin), on failure the
** caller still does. */
int lad_vecfile_openf(FILE *f, const char *name, lad_vecfile **out,
                      lad_err *err);

/* The next data line (no newline), skipping blank and '#' lines; *loc
** receives its location. Returns LAD_OK, LAD_NO at the end of the file, or
** LAD_EDATA when it cannot be read. The line lives until the next call. */
int lad_vecfile_next(lad_vecfile *vf, const char **line, lad_vecloc *loc,
                     lad_err *err);

/* Closes the file; NULL is allowed. */
void lad_vecfile_close(lad_vecfile *vf);

/*
** The preset named by a .vec header: sm<arch digits>-<instr>-<a>-<d>, where
** instr is wgmma or tcgen05 when the instruction line says so and mma
** otherwise, and <a> is "<a>x<b>" when the formats differ. Returns LAD_OK,
** or LAD_EDATA naming the missing header line.
*/
int lad_vechdr_preset(const lad_vechdr *h, const char *path, char *name,
                      size_t size, lad_err *err);

/* One line of the frozen tcgen05 file, parsed but not yet fitted to a
** datapath. Words are as written (container width, at most 8 digits). */
typedef struct lad_frozen {
    char label[96];
    char kind[16];          /* tf32 f16 f8f6f4 i8 mxf8f6f4 mxf4 mxf4nvf4 */
    char afmt[16], bfmt[16];  /* element formats: "bf16", "e2m1" */
    char dfmt[16];          /* result format (and C's): "f32", "f16", "s32" */
    char scale_type[8];     /* "ue8m0", "ue4m3" or "" */
    char scale_vec[4];      /* "1X", "2X", "4X" or "" */
    int sparse;             /* options sparse=1 */
    int saturate;           /* options saturate=1 */
    int na, nb, nsa, nsb, nmeta;       /* words in each list */
    uint32_t aw[LAD_KMAX], bw[LAD_KMAX];  /* a_words, b_words */
    uint32_t cw, dw;        /* c_word, expected_d */
    uint32_t sa[16], sb[16];
    uint32_t meta[16];
    int col[13];            /* column of each field, for messages */
    char preset[64];        /* the preset that should reproduce it */
} lad_frozen;

/* Parses a frozen line and names its preset. Returns LAD_OK or LAD_EDATA
** with the location of the bad field. */
int lad_frozen_parse(const char *line, const lad_vecloc *loc, lad_frozen *fz,
                     lad_err *err);

/* Converts a parsed frozen line to a case of dp and its expected D: checks
** the word counts and that every word fits dp's formats (a bf16 F32
** container becomes its high half when dp's bf16 is 16 bits wide). Returns
** LAD_OK or LAD_EDATA naming the field. */
int lad_frozen_case(const lad_frozen *fz, const lad_datapath *dp,
                    const lad_vecloc *loc, lad_case *cs, lad_word_t *d,
                    lad_err *err);

#endif
