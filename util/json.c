/*
** The JSON string escaper: see json.h.
*/
#include "json.h"

#include <stdio.h>

void lad_json_str(lad_buf *b, const char *s)
{
    lad_buf_add(b, "\"", 1);
    const char *run = s;  /* bytes copied as they are, up to s */
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        char esc[8];
        if (c == '"' || c == '\\')
            snprintf(esc, sizeof esc, "\\%c", c);
        else if (c == '\n')
            snprintf(esc, sizeof esc, "\\n");
        else if (c == '\t')
            snprintf(esc, sizeof esc, "\\t");
        else if (c < 0x20 || c == 0x7f)
            snprintf(esc, sizeof esc, "\\u%04x", c);
        else
            continue;
        lad_buf_add(b, run, (size_t)(s - run));
        lad_buf_puts(b, esc);
        run = s + 1;
    }
    if (run)
        lad_buf_add(b, run, (size_t)(s - run));
    lad_buf_add(b, "\"", 1);
}
