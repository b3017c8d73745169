/*
** The one JSON string escaper (RFC 8259): the store's argv column and the
** commands' --json output both write strings through it, so a string reads
** back the same whichever wrote it. Output only: ladder never reads JSON.
*/
#ifndef LADDER_UTIL_JSON_H
#define LADDER_UTIL_JSON_H

#include "buf.h"

/* Appends s as a JSON string, quotes included ("" for NULL): '"' and '\'
** get a backslash, newline and tab their short escapes, every other
** control character and DEL a \u00XX escape; other bytes (UTF-8 included)
** are copied. */
void lad_json_str(lad_buf *b, const char *s);

#endif
