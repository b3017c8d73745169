/*
** Saving a text file whole or not at all: the text is written beside the
** file under a temporary name (<path>.tmp<pid>, same folder) and renamed
** over it, so that a failed or interrupted write never leaves part of a
** model, a JSON document or a report under the name. A path that is not a
** regular file (/dev/stdout, a pipe) cannot be replaced and is written as
** it is.
*/
#ifndef LADDER_IO_SAVE_H
#define LADDER_IO_SAVE_H

#include <stddef.h>

#include "../util/err.h"

/* Writes text[0..len-1] to path as above. Returns LAD_OK, or LAD_EDATA
** with "cannot write 'path': <reason>" (the temporary file removed). */
int lad_save_text(const char *path, const char *text, size_t len, lad_err *err);

#endif
