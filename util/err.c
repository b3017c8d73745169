/*
** Error recording: see err.h. Messages are truncated to fit lad_err.msg.
*/
#include "err.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int record(lad_err *err, int code, const char *prefix,
                  const char *fmt, va_list ap)
{
    if (err == NULL || err->code != LAD_OK)
        return code;
    err->code = code;
    size_t n = (size_t)snprintf(err->msg, sizeof err->msg, "%s", prefix);
    if (n >= sizeof err->msg)
        n = sizeof err->msg - 1;
    vsnprintf(err->msg + n, sizeof err->msg - n, fmt, ap);
    for (char *p = err->msg; *p; p++)
        if (*p == '\n')
            *p = ' ';
    return code;
}

int lad_errf(lad_err *err, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    record(err, code, "", fmt, ap);
    va_end(ap);
    return code;
}

int lad_errf_at(lad_err *err, int code, const char *file, int line, int col,
                const char *fmt, ...)
{
    char prefix[300];
    if (line <= 0)
        snprintf(prefix, sizeof prefix, "%s: ", file);
    else if (col <= 0)
        snprintf(prefix, sizeof prefix, "%s:%d: ", file, line);
    else
        snprintf(prefix, sizeof prefix, "%s:%d:%d: ", file, line, col);
    va_list ap;
    va_start(ap, fmt);
    record(err, code, prefix, fmt, ap);
    va_end(ap);
    return code;
}

int lad_errf_key(lad_err *err, int code, const char *key, const char *fmt, ...)
{
    if (err && err->code == LAD_OK)
        snprintf(err->key, sizeof err->key, "%s", key);
    va_list ap;
    va_start(ap, fmt);
    record(err, code, "", fmt, ap);
    va_end(ap);
    return code;
}

void lad_err_clear(lad_err *err)
{
    if (err) {
        err->code = LAD_OK;
        err->msg[0] = 0;
        err->key[0] = 0;
    }
}
