/*
** The Markdown writer: the same sections and tables as the page; figures
** as text where words say it (the bit map as a grid of characters, the
** pass structure as steps, the error as a table), else a line saying the
** figure is in the HTML report only. Case anchors are inline HTML
** (<a id="case-N">), which the usual renderers keep.
*/
#include "render.h"

#include <inttypes.h>
#include <string.h>

/* Table cells: '|' and newlines would end the cell. */
static void cell_escape(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '|')
            fputs("\\|", f);
        else if (*s == '\n')
            fputc(' ', f);
        else
            fputc(*s, f);
    }
}

static void begin(rep_out *o, const char *title)
{
    fprintf(o->f, "# %s\n\n", title);
}

static void end(rep_out *o)
{
    (void)o;
}

static void section(rep_out *o, const char *id, const char *title)
{
    fprintf(o->f, "<a id=\"%s\"></a>\n\n## %s\n\n", id, title);
}

static void subsection(rep_out *o, const char *title)
{
    fprintf(o->f, "### %s\n\n", title);
}

static void para(rep_out *o, const char *text)
{
    fprintf(o->f, "%s\n\n", text);
}

static void pre(rep_out *o, const char *text)
{
    size_t n = strlen(text);
    fprintf(o->f, "```\n%s%s```\n\n", text, n && text[n - 1] == '\n' ? "" : "\n");
}

static int first_cell;

static void table(rep_out *o, int ncols, const char *const *head)
{
    fputc('|', o->f);
    for (int i = 0; i < ncols; i++) {
        fputc(' ', o->f);
        cell_escape(o->f, head[i]);
        fputs(" |", o->f);
    }
    fputs("\n|", o->f);
    for (int i = 0; i < ncols; i++)
        fputs("---|", o->f);
    fputc('\n', o->f);
    first_cell = 1;
}

static void open_cell(rep_out *o)
{
    fputs(first_cell ? "| " : " ", o->f);
    first_cell = 0;
}

static void cell(rep_out *o, const char *text, const char *href, int mark, const char *anchor)
{
    open_cell(o);
    if (anchor)
        fprintf(o->f, "<a id=\"%s\"></a>", anchor);
    fputs(mark ? "**" : "", o->f);
    if (href)
        fputc('[', o->f);
    cell_escape(o->f, text);
    if (href)
        fprintf(o->f, "](%s)", href);
    fputs(mark ? "** |" : " |", o->f);
}

static void case_links(rep_out *o, const int64_t *ids, size_t n, size_t total, int capped)
{
    open_cell(o);
    for (size_t i = 0; i < n; i++)
        fprintf(o->f, "%s[%" PRId64 "](#case-%" PRId64 ")", i ? ", " : "", ids[i], ids[i]);
    if (capped)
        fprintf(o->f, ", ... (%zu stored; the store keeps at most %zu per parameter)",
                total, total);
    else if (total > n)
        fprintf(o->f, ", ... (%zu in all)", total);
    fputs(" |", o->f);
}

static void fold(rep_out *o, const char *summary)
{
    (void)o;
    (void)summary;
}

static void fold_end(rep_out *o)
{
    (void)o;
}

static void row_end(rep_out *o)
{
    fputc('\n', o->f);
    first_cell = 1;
}

static void table_end(rep_out *o)
{
    fputc('\n', o->f);
}

static void figure(rep_out *o, const char *id, const char *caption, const char *svg,
                   const char *text)
{
    (void)id;
    (void)svg;
    fprintf(o->f, "*Figure: %s*\n\n", caption);
    if (text)
        pre(o, text);
    else
        fputs("(The figure is drawn in the HTML report only.)\n\n", o->f);
}

const rep_ops rep_md_ops = {begin, end, section, subsection, para, pre, table,
                            cell, case_links, row_end, table_end, fold, fold_end,
                            figure};
