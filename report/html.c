/*
** The HTML writer: one page, its CSS inline, figures as inline SVG, no
** script and nothing fetched, so that the file alone is the report.
*/
#include "render.h"

#include <inttypes.h>
#include <stdlib.h>

void rep_buf_escape(lad_buf *b, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&': lad_buf_puts(b, "&amp;"); break;
        case '<': lad_buf_puts(b, "&lt;"); break;
        case '>': lad_buf_puts(b, "&gt;"); break;
        case '"': lad_buf_puts(b, "&quot;"); break;
        default: lad_buf_add(b, s, 1);
        }
    }
}

void rep_html_escape(FILE *f, const char *s)
{
    lad_buf b = {0};
    rep_buf_escape(&b, s);
    char *t = lad_buf_take(&b);
    if (t)
        fputs(t, f);
    free(t);
}

static const char css[] =
    "body{font-family:sans-serif;margin:1.5em;color:#222;max-width:1400px}"
    "h1{font-size:1.5em}h2{font-size:1.2em;border-bottom:1px solid #ccc;margin-top:1.6em}"
    "h3{font-size:1em}table{border-collapse:collapse;margin:.5em 0;font-size:.85em}"
    "td,th{border:1px solid #ccc;padding:2px 6px;text-align:left;vertical-align:top;"
    "overflow-wrap:anywhere}"
    "th{background:#eee;overflow-wrap:normal}td:first-child{overflow-wrap:normal}"
    "td.diff{background:#fdd;font-weight:bold}"
    "pre{background:#f6f6f6;padding:.5em;overflow-x:auto;font-size:.85em}"
    "figure{margin:.5em 0}figcaption{font-size:.85em;color:#555}"
    ".wide{overflow-x:auto}a{color:#036}tr:target{background:#ffc}"
    "svg.fig{max-width:100%;height:auto}"
    "@page{size:A4 landscape;margin:12mm}"
    "@media print{body{margin:0;max-width:none;font-size:9pt}.wide{overflow:visible}"
    "h2{break-after:avoid}tr,figure{break-inside:avoid}}";

static void begin(rep_out *o, const char *title)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>", o->f);
    rep_html_escape(o->f, title);
    fprintf(o->f, "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>", css);
    rep_html_escape(o->f, title);
    fputs("</h1>\n", o->f);
}

static void end(rep_out *o)
{
    fputs("</body>\n</html>\n", o->f);
}

static void section(rep_out *o, const char *id, const char *title)
{
    fprintf(o->f, "<h2 id=\"%s\">", id);
    rep_html_escape(o->f, title);
    fputs("</h2>\n", o->f);
}

static void subsection(rep_out *o, const char *title)
{
    fputs("<h3>", o->f);
    rep_html_escape(o->f, title);
    fputs("</h3>\n", o->f);
}

static void para(rep_out *o, const char *text)
{
    fputs("<p>", o->f);
    rep_html_escape(o->f, text);
    fputs("</p>\n", o->f);
}

static void pre(rep_out *o, const char *text)
{
    fputs("<pre>", o->f);
    rep_html_escape(o->f, text);
    fputs("</pre>\n", o->f);
}


static void table(rep_out *o, int ncols, const char *const *head)
{
    fputs("<div class=\"wide\"><table>\n<tr>", o->f);
    for (int i = 0; i < ncols; i++) {
        fputs("<th>", o->f);
        rep_html_escape(o->f, head[i]);
        fputs("</th>", o->f);
    }
    fputs("</tr>\n", o->f);
    o->row_open = 0;
}

static void open_row(rep_out *o, const char *anchor)
{
    if (o->row_open)
        return;
    if (anchor)
        fprintf(o->f, "<tr id=\"%s\">", anchor);
    else
        fputs("<tr>", o->f);
    o->row_open = 1;
}

static void cell(rep_out *o, const char *text, const char *href, int mark, const char *anchor)
{
    open_row(o, anchor);
    fputs(mark ? "<td class=\"diff\">" : "<td>", o->f);
    if (href)
        fprintf(o->f, "<a href=\"%s\">", href);
    rep_html_escape(o->f, text);
    fputs(href ? "</a></td>" : "</td>", o->f);
}

static void case_links(rep_out *o, const int64_t *ids, size_t n, size_t total, int capped)
{
    open_row(o, NULL);
    fputs("<td>", o->f);
    for (size_t i = 0; i < n; i++)
        fprintf(o->f, "%s<a href=\"#case-%" PRId64 "\">%" PRId64 "</a>", i ? ", " : "", ids[i],
                ids[i]);
    if (capped)
        fprintf(o->f, ", ... (%zu stored; the store keeps at most %zu per parameter)",
                total, total);
    else if (total > n)
        fprintf(o->f, ", ... (%zu in all)", total);
    fputs("</td>", o->f);
}

static void fold(rep_out *o, const char *summary)
{
    fputs("<details><summary>", o->f);
    rep_html_escape(o->f, summary);
    fputs("</summary>\n", o->f);
}

static void fold_end(rep_out *o)
{
    fputs("</details>\n", o->f);
}

static void row_end(rep_out *o)
{
    fputs("</tr>\n", o->f);
    o->row_open = 0;
}

static void table_end(rep_out *o)
{
    fputs("</table></div>\n", o->f);
}

static void figure(rep_out *o, const char *id, const char *caption, const char *svg,
                   const char *text)
{
    (void)text;
    fprintf(o->f, "<figure id=\"fig-%s\" class=\"figure\">\n%s\n<figcaption>", id, svg ? svg : "");
    rep_html_escape(o->f, caption);
    fputs("</figcaption>\n</figure>\n", o->f);
}

const rep_ops rep_html_ops = {begin, end, section, subsection, para, pre, table,
                              cell, case_links, row_end, table_end, fold, fold_end,
                              figure};
