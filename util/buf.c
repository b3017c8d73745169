/*
** The growable text: see buf.h. Capacity doubles, so n appends cost O(n)
** copies in all.
*/
#include "buf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Makes room for n more bytes and the NUL; 0 when there is none. */
static int reserve(lad_buf *b, size_t n)
{
    if (b->oom)
        return 0;
    if (b->len + n + 1 <= b->cap)
        return 1;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + n + 1) {
        if (cap > (size_t)-1 / 2) {
            b->oom = 1;
            return 0;
        }
        cap *= 2;
    }
    char *p = realloc(b->p, cap);
    if (p == NULL) {
        b->oom = 1;
        return 0;
    }
    b->p = p;
    b->cap = cap;
    return 1;
}

void lad_buf_add(lad_buf *b, const char *s, size_t n)
{
    if (!reserve(b, n))
        return;
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = 0;
}

void lad_buf_puts(lad_buf *b, const char *s)
{
    lad_buf_add(b, s, strlen(s));
}

void lad_buf_vprintf(lad_buf *b, const char *fmt, va_list ap)
{
    va_list again;
    va_copy(again, ap);
    char small[256];
    int n = vsnprintf(small, sizeof small, fmt, ap);
    if (n < 0) {
        b->oom = 1;   /* an encoding error: the text would be incomplete */
    } else if ((size_t)n < sizeof small) {
        lad_buf_add(b, small, (size_t)n);
    } else if (reserve(b, (size_t)n)) {
        vsnprintf(b->p + b->len, (size_t)n + 1, fmt, again);
        b->len += (size_t)n;
    }
    va_end(again);
}

void lad_buf_printf(lad_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    lad_buf_vprintf(b, fmt, ap);
    va_end(ap);
}

char *lad_buf_take(lad_buf *b)
{
    if (!b->oom && b->p == NULL)
        lad_buf_add(b, "", 0);
    char *p = b->oom ? NULL : b->p;
    if (b->oom)
        free(b->p);
    memset(b, 0, sizeof *b);
    return p;
}

void lad_buf_free(lad_buf *b)
{
    free(b->p);
    memset(b, 0, sizeof *b);
}
