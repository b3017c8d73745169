/*
** What every page shares: the paragraph and cell helpers, and
** lad_report_write, which opens the page, hands it to its kind (run.c for
** a run or a model, survey.c for a survey, surveydiff.c for two surveys)
** and closes it. Each kind's page opens with its verdict.
*/
#include "render.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void rep_para(rep_out *o, const char *fmt, ...)
{
    char t[REP_TEXT];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(t, sizeof t, fmt, ap);
    va_end(ap);
    o->ops->para(o, t);
}

void rep_cell(rep_out *o, const char *href, int mark, const char *fmt, ...)
{
    char t[REP_TEXT];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(t, sizeof t, fmt, ap);
    va_end(ap);
    o->ops->cell(o, t, href, mark, NULL);
}

int lad_report_write(FILE *f, const lad_report *r, int fmt)
{
    rep_out o = {.f = f, .ops = fmt == LAD_REPORT_MD ? &rep_md_ops : &rep_html_ops};
    char title[700];
    snprintf(title, sizeof title, "ladder report: %s", r->subject);
    o.ops->begin(&o, title);
    if (r->kind == LAD_REPORT_SURVEY) {
        rep_survey_page(&o, r);
    } else if (r->kind == LAD_REPORT_SURVEYDIFF) {
        rep_surveydiff_page(&o, r);
    } else {
        unsigned char *used = calloc(r->ncases + 1, 1);
        if (used == NULL)
            return LAD_EINTERNAL;
        rep_run_page(&o, r, used);
        free(used);
    }
    o.ops->end(&o);
    return ferror(f) ? LAD_EINTERNAL : LAD_OK;
}

void lad_report_free(lad_report *r)
{
    if (r->kind != LAD_REPORT_SURVEY && r->kind != LAD_REPORT_SURVEYDIFF)
        lad_show_free(&r->show);
    free(r->params);
    free(r->cases);
    free(r->recipe);
    free(r->answer);
    free(r->sdp);
    free(r->pairs);
    memset(r, 0, sizeof *r);
}
