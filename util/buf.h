/*
** A growable text: appends of bytes, strings and printf-style formats, for
** whatever builds a string of unknown length (a model file, a JSON array).
** Out of memory is sticky instead of checked at every append: the first
** failed allocation sets oom, every later append does nothing, and the
** caller checks once at the end. libc only.
**
**     lad_buf b = {0};
**     lad_buf_printf(&b, "k: %d\n", k);
**     char *text = lad_buf_take(&b);   // NULL when an append failed
*/
#ifndef LADDER_UTIL_BUF_H
#define LADDER_UTIL_BUF_H

#include <stdarg.h>
#include <stddef.h>

typedef struct lad_buf {
    char *p;      /* the text, NUL-terminated; NULL until the first append */
    size_t len;   /* bytes of text, the NUL not counted */
    size_t cap;   /* bytes allocated at p */
    int oom;      /* 1 once an allocation failed: the text is incomplete */
} lad_buf;

/* Appends n bytes of s (which need hold no NUL). */
void lad_buf_add(lad_buf *b, const char *s, size_t n);

/* Appends the string s. */
void lad_buf_puts(lad_buf *b, const char *s);

/* Appends what printf would print. */
void lad_buf_printf(lad_buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void lad_buf_vprintf(lad_buf *b, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));

/* Returns the text, now the caller's to free, and leaves b empty; returns
** NULL (and frees the text) when an append failed. Nothing appended yet
** gives "". */
char *lad_buf_take(lad_buf *b);

/* Frees the text and leaves b empty. */
void lad_buf_free(lad_buf *b);

#endif
