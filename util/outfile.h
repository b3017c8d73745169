/*
** An output file written whole or not at all: the bytes go to a new file
** beside the target (same folder, so the same file system), which is
** flushed, synced and renamed over the target only once everything was
** written. A kill, a full disk or an error at any point leaves the earlier
** file, complete, under the name, and no temporary behind (but for a kill,
** which leaves "<name>.tmp-XXXXXX" beside it). Used by every command that
** writes a file (gemm, report, export, diff, infer, fit, model, survey).
**
** A target that is a symbolic link replaces the file the link names (the
** link stays); a file replaced keeps its permissions, a new one gets 0666
** less the umask. A target that exists and is not a regular file (a pipe,
** /dev/null) or that names a descriptor (/dev/stdout, /dev/fd/N: links
** into /proc) can not be replaced: it is written in place. libc only.
**
**     lad_outfile o;
**     if (lad_outfile_open(&o, path, err) == LAD_OK) {
**         fputs(text, o.f);
**         rc = lad_outfile_commit(&o, err);   // or lad_outfile_abort(&o)
**     }
*/
#ifndef LADDER_UTIL_OUTFILE_H
#define LADDER_UTIL_OUTFILE_H

#include <stdio.h>
#include "err.h"

typedef struct lad_outfile {
    FILE *f;            /* write here; NULL once committed or aborted */
    const char *path;   /* the name given (the caller's string), for messages */
    char target[4096];  /* the file replaced: path, its links followed */
    char tmp[4096];     /* the file written; "" when writing path in place */
    char *buf;          /* f's buffer (OUTFILE_BUF bytes), or NULL: libc's */
} lad_outfile;

/* Starts writing path. Returns LAD_OK, or LAD_EDATA ("cannot write 'x':
** ...") when the folder cannot take a new file. */
int lad_outfile_open(lad_outfile *o, const char *path, lad_err *err);

/* Flushes, syncs and closes o->f, then renames it over the target. Returns
** LAD_OK, or LAD_EDATA after removing the temporary file when any write
** failed (ferror), or the flush, the sync, the close or the rename did. */
int lad_outfile_commit(lad_outfile *o, lad_err *err);

/* Closes and removes what was written; the target is left as it was. */
void lad_outfile_abort(lad_outfile *o);

/* Writes the string text to path as one lad_outfile. Returns as commit. */
int lad_outfile_write(const char *path, const char *text, lad_err *err);

/* 1 when a and b both exist and are the same file (same device and inode:
** also through links and other spellings of the path), else 0. */
int lad_same_file(const char *a, const char *b);

#endif
