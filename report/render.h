/*
** Inside report/: the two writers (html.c, md.c) behind one set of
** operations, so that the pages (run.c, survey.c, surveydiff.c, with what
** they share in render.c) say once what the report holds and each writer
** only how it looks; and the SVG figures (svg.c).
*/
#ifndef LADDER_REPORT_RENDER_H
#define LADDER_REPORT_RENDER_H

#include <stdio.h>

#include "report.h"
#include "util/buf.h"

typedef struct rep_out rep_out;

typedef struct rep_ops {
    void (*begin)(rep_out *o, const char *title);
    void (*end)(rep_out *o);
    void (*section)(rep_out *o, const char *id, const char *title);
    void (*subsection)(rep_out *o, const char *title);
    void (*para)(rep_out *o, const char *text);
    void (*pre)(rep_out *o, const char *text);
    void (*table)(rep_out *o, int ncols, const char *const *head);
    /* One cell: text (escaped here), linked to href when not NULL, marked
    ** (a difference) when mark; anchor names the cell's row when not NULL. */
    void (*cell)(rep_out *o, const char *text, const char *href, int mark,
                 const char *anchor);
    /* One cell of links to cases: ids[0..n-1], of total in all; capped:
    ** total is only what the store kept (it keeps LAD_INFER_MAXIDS per
    ** parameter), and more cases may have decided it. */
    void (*case_links)(rep_out *o, const int64_t *ids, size_t n, size_t total, int capped);
    void (*row_end)(rep_out *o);
    void (*table_end)(rep_out *o);
    /* What follows, to fold_end, folds away under a line (HTML
    ** <details>); Markdown shows it as it is. */
    void (*fold)(rep_out *o, const char *summary);
    void (*fold_end)(rep_out *o);
    /* A figure: the SVG (HTML) or the text (Markdown; NULL: a line saying
    ** it is left out). */
    void (*figure)(rep_out *o, const char *id, const char *caption, const char *svg,
                   const char *text);
} rep_ops;

struct rep_out {
    FILE *f;
    const rep_ops *ops;
    /* the writer's own state, per page: */
    int row_open;            /* HTML: a table row is open */
    int first_cell;          /* Markdown: the next cell begins a row */
};

extern const rep_ops rep_html_ops, rep_md_ops;

/* HTML-escapes s onto f (also for SVG text). */
void rep_html_escape(FILE *f, const char *s);
void rep_buf_escape(lad_buf *b, const char *s);

/* ---- the pages --------------------------------------------------------- */

#define REP_TEXT 1200 /* the longest paragraph or cell rep_para and rep_cell write */

/* A paragraph, and a cell (linked to href when not NULL, marked when mark),
** from a printf format; longer texts are cut at REP_TEXT bytes. */
void rep_para(rep_out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void rep_cell(rep_out *o, const char *href, int mark, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* The pages, each opening with its verdict: a run's or a model's (run.c;
** used[i] marks the cases the page links to, r->ncases of them), a
** survey's (survey.c), two surveys' (surveydiff.c). */
void rep_run_page(rep_out *o, const lad_report *r, unsigned char *used);
void rep_survey_page(rep_out *o, const lad_report *r);
void rep_surveydiff_page(rep_out *o, const lad_report *r);

/* ---- figures (svg.c) ---------------------------------------------------- */

/* The bit-contribution map: rows x cols cells; cell value -1 no case, 0 the
** bit changes nothing, 1 it changes the result; tip[i] the tooltip. */
typedef struct rep_heat {
    int rows, cols;
    char (*row_name)[64];
    int *col_j;              /* bit offset below the anchor per column */
    int *cell;               /* rows*cols */
    char **tip;              /* rows*cols, NULL where no case */
    int64_t *id;             /* rows*cols, case ids */
} rep_heat;
char *rep_svg_heat(const rep_heat *h);

/* Error against K: per K (1..n) the largest and the mean relative error,
** and the unit u of the bounds K*u and sqrt(K)*u. */
typedef struct rep_err {
    int n;
    double *maxe, *meane;
    int *ncases;
    double u;
} rep_err;
char *rep_svg_err(const rep_err *e);
/* Two series' largest errors against total K (ks[0..n-1], a log axis):
** a, solid red, and b, solid blue, named na and nb. */
char *rep_svg_err2(const rep_err *a, const rep_err *b, const int *ks, const char *na,
                   const char *nb);

/* Bars per datapath: window[i] fraction bits kept (-1: exact, drawn
** full), pass[i] products fused per pass; name[i] the label. */
typedef struct rep_bars {
    int n;
    char (*name)[64];
    int *window, *pass;
} rep_bars;
char *rep_svg_bars(const rep_bars *b);

/* The pass structure of dp. */
char *rep_svg_passes(const lad_datapath *dp);
/* The same in words, one line per step. */
char *rep_text_passes(const lad_datapath *dp);

#endif
