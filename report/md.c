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

/* Text from the store or a recipe, as Markdown text: HTML's specials as
** entities (a renderer would otherwise keep `<script>` or `<img onerror>`
** as markup: Markdown passes inline HTML through), and in a table cell
** '|' and newlines, which would end the cell. */
static void text_escape(FILE *f, const char *s, int in_cell)
{
    for (; *s; s++) {
        if (*s == '&')
            fputs("&amp;", f);
        else if (*s == '<')
            fputs("&lt;", f);
        else if (*s == '>')
            fputs("&gt;", f);
        else if (in_cell && *s == '|')
            fputs("\\|", f);
        else if (in_cell && *s == '\n')
            fputc(' ', f);
        else
            fputc(*s, f);
    }
}

static void cell_escape(FILE *f, const char *s)
{
    text_escape(f, s, 1);
}

static void begin(rep_out *o, const char *title)
{
    fputs("# ", o->f);
    text_escape(o->f, title, 1);
    fputs("\n\n", o->f);
}

static void end(rep_out *o)
{
    (void)o;
}

static void section(rep_out *o, const char *id, const char *title)
{
    fprintf(o->f, "<a id=\"%s\"></a>\n\n## ", id);
    text_escape(o->f, title, 1);
    fputs("\n\n", o->f);
}

static void subsection(rep_out *o, const char *title)
{
    fputs("### ", o->f);
    text_escape(o->f, title, 1);
    fputs("\n\n", o->f);
}

static void para(rep_out *o, const char *text)
{
    text_escape(o->f, text, 0);
    fputs("\n\n", o->f);
}

/* A fenced block: nothing in it is markup, so the text goes as it is,
** under a fence longer than any run of backticks in it (a recipe's text
** cannot close the block early). */
static void pre(rep_out *o, const char *text)
{
    size_t n = strlen(text), run = 0, longest = 0;
    for (size_t i = 0; i < n; i++) {
        run = text[i] == '`' ? run + 1 : 0;
        longest = run > longest ? run : longest;
    }
    size_t fence = longest >= 3 ? longest + 1 : 3;
    for (size_t i = 0; i < fence; i++)
        fputc('`', o->f);
    fprintf(o->f, "\n%s%s", text, n && text[n - 1] == '\n' ? "" : "\n");
    for (size_t i = 0; i < fence; i++)
        fputc('`', o->f);
    fputs("\n\n", o->f);
}


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
    o->first_cell = 1;
}

static void open_cell(rep_out *o)
{
    fputs(o->first_cell ? "| " : " ", o->f);
    o->first_cell = 0;
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
    o->first_cell = 1;
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
    fputs("*Figure: ", o->f);
    text_escape(o->f, caption, 1);
    fputs("*\n\n", o->f);
    if (text)
        pre(o, text);
    else
        fputs("(The figure is drawn in the HTML report only.)\n\n", o->f);
}

const rep_ops rep_md_ops = {begin, end, section, subsection, para, pre, table,
                            cell, case_links, row_end, table_end, fold, fold_end,
                            figure};
