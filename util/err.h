/*
** Result codes and error messages shared by every layer.
**
** Library code never prints and never exits: it returns one of the codes
** below and, on failure, fills a lad_err with a one-line message. Only cli/
** prints the message (as "ladder: <msg>") and exits with the code, so the
** codes are also the process exit codes documented in docs/exit-codes.md.
*/
#ifndef LADDER_UTIL_ERR_H
#define LADDER_UTIL_ERR_H

enum lad_code {
    LAD_OK = 0,        /* success */
    LAD_NO = 1,        /* the answer is no: mismatches found, a check failed */
    LAD_EUSAGE = 2,    /* bad command line */
    LAD_EDATA = 3,     /* bad input data: recipe, model file, vector line */
    LAD_EDEVICE = 4,   /* no device, or the device failed */
    LAD_EINTERNAL = 5  /* a bug, out of memory, or a store that cannot be written */
};

typedef struct lad_err {
    int code;          /* enum lad_code of the first error recorded */
    char msg[512];     /* one line, no trailing newline, no "ladder: " */
    char key[32];      /* the model-file key the error is about ("k",
                          "order"), so a reader can point at it; "" */
} lad_err;

/* Records an error unless one is already recorded (the first error is the
** one that explains the others). Returns code, so callers can write
** `return lad_errf(err, LAD_EDATA, "...")`. err may be NULL. */
int lad_errf(lad_err *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Same, prefixed with a location "file:line:col: " (line and col 1-based;
** col 0 leaves the column out, line 0 leaves both out). */
int lad_errf_at(lad_err *err, int code, const char *file, int line, int col,
                const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/* lad_errf that also names the model-file key the error is about. */
int lad_errf_key(lad_err *err, int code, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Forgets a recorded error. */
void lad_err_clear(lad_err *err);

#endif
