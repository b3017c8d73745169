/*
** The page of a survey: its verdict, the datapaths, the parameters that
** vary (differences from the presets marked) and a figure of each
** datapath's window and fused products.
*/
#include "render.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "model/params.h"
#include "probes/diff.h"
#include "util/buf.h"

/* ---- surveys ------------------------------------------------------------- */

/* Survey pages are read first for the verdict, then datapath by datapath;
** parameters are shown only where they vary, so that 47 datapaths fit a
** 1400 px page and an A4 landscape sheet. */

#define SURVEY_COLS 8 /* varying parameters per table, beside the name */

/* Whether d is as its preset (= or ≡) with no mismatch (as `ladder survey`
** counts). */
static int sdp_ok(const lad_report_sdp *d)
{
    return d->done && d->have_model && d->have_preset && d->inf_bad == 0 && d->pre_bad == 0 &&
           d->inf_cases > 0 && d->pre_cases > 0 &&
           (d->verdict == LAD_SAME || d->verdict == LAD_EQUIV);
}

/* The value of p in dp as a cell: a lane order by its stride ("j%4<2") or
** its length, everything else as a model file writes it. */
static const char *short_value(const lad_param *p, const lad_datapath *dp, char *buf,
                               size_t size)
{
    if (p->type == LAD_PT_ORDER && dp->norder > 0) {
        int v = lad_param_get(p, dp, dp);
        if (v == LAD_PV_OTHER)
            snprintf(buf, size, "[%d lanes]", dp->norder);
        else
            lad_param_code_text(p, dp, v, buf, size);
        return buf;
    }
    return lad_param_text(p, dp, buf, size);
}

/* The datapath's model, else its preset, for what the page shows. */
static const lad_datapath *sdp_dp(const lad_report_sdp *d)
{
    return d->have_model ? &d->model : d->have_preset ? &d->preset : NULL;
}

static void survey_link(const lad_report *r, const lad_report_sdp *d, char *href, size_t size)
{
    href[0] = 0;
    if (r->run_link[0] && d->run > 0)
        snprintf(href, size, r->run_link, d->run);
}

/* The witnesses of each datapath whose inferred model (A) differs from its
** preset (B), as `ladder diff run:<run> <preset>` prints them: the search
** is the same (probes/diff.h), and so are its words. */
static void survey_witnesses(rep_out *o, const lad_report *r)
{
    lad_diff *d = NULL;
    for (size_t i = 0; i < r->nsdp; i++) {
        const lad_report_sdp *s = &r->sdp[i];
        if (sdp_ok(s) || !s->have_model || !s->have_preset)
            continue;
        lad_err err = {0};
        if (lad_datapath_check(&s->model, &err) != LAD_OK ||
            lad_datapath_check(&s->preset, &err) != LAD_OK) {
            o->ops->subsection(o, s->datapath);
            rep_para(o, "No witnesses: %s.", err.msg);
            lad_err_clear(&err);
            continue;
        }
        if (d == NULL && (d = malloc(sizeof *d)) == NULL) {
            rep_para(o, "No witnesses: out of memory.");
            return;
        }
        lad_diff_run(d, &s->model, &s->preset, 0, 0);
        if (d->nw == 0 && !d->nosh)
            continue; /* no parameter differs: a mismatch or a failure only */
        o->ops->subsection(o, s->datapath);
        rep_para(o, "A is the model inferred from run %" PRId64 ", B the preset "
             "(ladder diff run:%" PRId64 " %s).", s->run, s->run, s->datapath);
        if (d->nosh) {
            rep_para(o, "No witnesses: the instructions cannot share inputs (%s).", d->nosh);
            continue;
        }
        lad_buf t = {0};
        for (int j = 0; j < d->nw; j++)
            lad_witness_text(d, &d->ws[j], &t);
        char *text = lad_buf_take(&t);
        o->ops->pre(o, text ? text : "(out of memory)");
        free(text);
    }
    free(d);
}

static void survey_verdict(rep_out *o, const lad_report *r)
{
    size_t good = 0;
    for (size_t i = 0; i < r->nsdp; i++)
        good += sdp_ok(&r->sdp[i]);
    o->ops->section(o, "verdict", "Verdict");
    size_t equiv = 0;
    for (size_t i = 0; i < r->nsdp; i++)
        equiv += sdp_ok(&r->sdp[i]) && r->sdp[i].verdict == LAD_EQUIV;
    rep_para(o, "%zu of %zu datapaths as their preset (%zu of them \u2261: rows differ, no case "
         "separates the two), with no mismatch in either validation.", good, r->nsdp, equiv);
    if (good == r->nsdp)
        return;
    rep_para(o, "The differences, then the witness of each differing parameter: an input on "
            "which it changes the word, as ladder diff run:<run> <preset> prints it.");
    const char *head[] = {"datapath", "run", "what differs"};
    o->ops->table(o, 3, head);
    for (size_t i = 0; i < r->nsdp; i++) {
        const lad_report_sdp *d = &r->sdp[i];
        if (sdp_ok(d))
            continue;
        lad_buf b = {0};
        if (!d->done)
            lad_buf_printf(&b, "failed: %s", d->message);
        else if (!d->have_model)
            lad_buf_puts(&b, "no inferred model");
        if (d->done && d->inf_bad)
            lad_buf_printf(&b, "%sinferred model: %" PRId64 "/%" PRId64 " mismatches",
                           b.len ? "; " : "", d->inf_bad, d->inf_cases);
        if (d->done && d->pre_bad)
            lad_buf_printf(&b, "%spreset: %" PRId64 "/%" PRId64 " mismatches", b.len ? "; " : "",
                           d->pre_bad, d->pre_cases);
        for (int k = 0; d->have_model && d->have_preset && k < lad_nparams; k++) {
            const lad_param *p = &lad_params[k];
            if ((p->flags & LAD_PF_REQUIRED) || p->type == LAD_PT_STR ||
                (!lad_param_matters(p, &d->model) && !lad_param_matters(p, &d->preset)))
                continue;
            char a[600], c[600];
            short_value(p, &d->model, a, sizeof a);
            short_value(p, &d->preset, c, sizeof c);
            if (strcmp(a, c) != 0)
                lad_buf_printf(&b, "%s%s %.60s (preset %.60s)", b.len ? "; " : "", p->key, a, c);
        }
        char *t = lad_buf_take(&b);
        char href[700];
        survey_link(r, d, href, sizeof href);
        rep_cell(o, href[0] ? href : NULL, 0, "%s", d->datapath);
        rep_cell(o, NULL, 0, "%" PRId64, d->run);
        rep_cell(o, NULL, 1, "%s", t ? t : "?");
        free(t);
        o->ops->row_end(o);
    }
    o->ops->table_end(o);
    survey_witnesses(o, r);
}

static void survey_datapaths(rep_out *o, const lad_report *r)
{
    o->ops->section(o, "datapaths", "Datapaths");
    rep_para(o, "Each datapath's run (linked to its own report), the cases it stored (the "
            "ladder's targeted probes among them), the wall time, both validations and the "
            "captured vectors replayed on the device (files: mismatches/cases).");
    const char *head[] = {"datapath", "run", "cases", "probes", "seconds", "inferred",
                          "preset", "vectors", "verdict"};
    o->ops->table(o, 9, head);
    for (size_t i = 0; i < r->nsdp; i++) {
        const lad_report_sdp *d = &r->sdp[i];
        char href[700];
        survey_link(r, d, href, sizeof href);
        rep_cell(o, href[0] ? href : NULL, 0, "%s", d->datapath);
        rep_cell(o, NULL, 0, "%" PRId64, d->run);
        rep_cell(o, NULL, 0, "%" PRId64, d->cases);
        rep_cell(o, NULL, 0, "%" PRId64, d->probes);
        rep_cell(o, NULL, 0, "%" PRId64 ".%01" PRId64, d->millis / 1000, d->millis % 1000 / 100);
        if (d->inf_cases >= 0)
            rep_cell(o, NULL, d->inf_bad != 0, "%" PRId64 "/%" PRId64, d->inf_bad, d->inf_cases);
        else
            rep_cell(o, NULL, 1, "-");
        if (d->pre_cases >= 0)
            rep_cell(o, NULL, d->pre_bad != 0, "%" PRId64 "/%" PRId64, d->pre_bad, d->pre_cases);
        else
            rep_cell(o, NULL, 1, "-");
        if (d->vec_files)
            rep_cell(o, NULL, 0, "%" PRId64 ": %" PRId64 "/%" PRId64, d->vec_files, d->vec_bad,
                 d->vec_cases);
        else
            rep_cell(o, NULL, 0, "-");
        int good = sdp_ok(d);
        rep_cell(o, NULL, !good, "%s", !d->done ? "failed" : d->verdict < 0 ? "not inferred" :
             good ? (d->verdict == LAD_SAME ? "= preset" : "\u2261 preset") :
             d->verdict == LAD_DIFFERS ? "differs" : "mismatches");
        o->ops->row_end(o);
    }
    o->ops->table_end(o);
}

static void survey_parameters(rep_out *o, const lad_report *r)
{
    /* Each parameter that can matter to some datapath is constant (one
    ** text in every model and preset) or varies. */
    int vary[LAD_NPARAMS_MAX], nv = 0;
    lad_buf same = {0};
    for (int i = 0; i < lad_nparams; i++) {
        const lad_param *p = &lad_params[i];
        if (p->type == LAD_PT_STR)
            continue;
        int m = 0, differs = 0;
        char first[600] = "", t[600];
        for (size_t d = 0; d < r->nsdp; d++) {
            const lad_report_sdp *s = &r->sdp[d];
            const lad_datapath *dps[2] = {s->have_model ? &s->model : NULL,
                                          s->have_preset ? &s->preset : NULL};
            for (int j = 0; j < 2; j++) {
                if (dps[j] == NULL)
                    continue;
                m |= lad_param_matters(p, dps[j]);
                short_value(p, dps[j], t, sizeof t);
                if (!first[0])
                    snprintf(first, sizeof first, "%s", t);
                else if (strcmp(first, t) != 0)
                    differs = 1;
            }
        }
        if (!m)
            continue;
        if (differs)
            vary[nv++] = i;
        else
            lad_buf_printf(&same, "%s%s %s", same.len ? ", " : "", p->key, first);
    }
    o->ops->section(o, "parameters", "Parameters");
    char *t = lad_buf_take(&same);
    if (t)
        rep_para(o, "The same in every datapath: %s.", t);
    free(t);
    if (nv == 0)
        return;
    rep_para(o, "The parameters that vary, of the model inferred from each run; a marked cell "
            "differs from the preset, whose value follows in brackets. A lane order is "
            "written by its stride (j%%4<2: lanes j with j mod 4 < 2 first).");
    for (int c0 = 0; c0 < nv; c0 += SURVEY_COLS) {
        int nc = nv - c0 < SURVEY_COLS ? nv - c0 : SURVEY_COLS;
        const char *head[SURVEY_COLS + 1] = {"datapath"};
        for (int i = 0; i < nc; i++)
            head[1 + i] = lad_params[vary[c0 + i]].key;
        o->ops->table(o, 1 + nc, head);
        for (size_t d = 0; d < r->nsdp; d++) {
            const lad_report_sdp *s = &r->sdp[d];
            char href[700];
            survey_link(r, s, href, sizeof href);
            rep_cell(o, href[0] ? href : NULL, 0, "%s", s->datapath);
            for (int i = 0; i < nc; i++) {
                const lad_param *p = &lad_params[vary[c0 + i]];
                char m[600] = "-", pv[600] = "-";
                if (s->have_model)
                    short_value(p, &s->model, m, sizeof m);
                if (s->have_preset)
                    short_value(p, &s->preset, pv, sizeof pv);
                int diff = s->have_model && s->have_preset && strcmp(m, pv) != 0 &&
                           (lad_param_matters(p, &s->model) || lad_param_matters(p, &s->preset));
                if (diff)
                    rep_cell(o, NULL, 1, "%.280s (%.280s)", m, pv);
                else
                    rep_cell(o, NULL, 0, "%s", s->have_model ? m : pv);
            }
            o->ops->row_end(o);
        }
        o->ops->table_end(o);
    }
}

static void survey_figure(rep_out *o, const lad_report *r)
{
    rep_bars bars = {0};
    bars.n = (int)r->nsdp;
    bars.name = calloc(r->nsdp + 1, sizeof *bars.name);
    bars.window = calloc(r->nsdp + 1, sizeof *bars.window);
    bars.pass = calloc(r->nsdp + 1, sizeof *bars.pass);
    lad_buf text = {0};
    if (bars.name && bars.window && bars.pass) {
        lad_buf_printf(&text, "%-40s %6s %6s\n", "datapath", "window", "fused");
        for (size_t i = 0; i < r->nsdp; i++) {
            const lad_datapath *dp = sdp_dp(&r->sdp[i]);
            snprintf(bars.name[i], sizeof bars.name[i], "%s", r->sdp[i].datapath);
            bars.window[i] = dp ? (dp->exact ? -1 : dp->window) : 0;
            bars.pass[i] = dp ? dp->pass : 0;
            char w[16];
            snprintf(w, sizeof w, "%s", !dp ? "-" : dp->exact ? "exact" : "");
            if (dp && !dp->exact)
                snprintf(w, sizeof w, "%d", dp->window);
            lad_buf_printf(&text, "%-40s %6s %6d\n", bars.name[i], w, bars.pass[i]);
        }
    }
    char *svg = rep_svg_bars(&bars);
    char *tx = lad_buf_take(&text);
    o->ops->section(o, "figures", "Window and fused products");
    o->ops->figure(o, "window",
                   "Fraction bits kept below the anchor (window F, blue; exact sums to the "
                   "end) and products fused per pass (L, orange), per datapath, as inferred "
                   "(the preset where no model was inferred).",
                   svg, tx);
    free(svg);
    free(tx);
    free(bars.name);
    free(bars.window);
    free(bars.pass);
}

void rep_survey_page(rep_out *o, const lad_report *r)
{
    const char *gpu = r->nsdp ? r->sdp[0].device : "";
    if (strncmp(r->survey_status, "interrupted", 11) == 0 ||
        strcmp(r->survey_status, "running") == 0)
        rep_para(o, "Survey %" PRId64 " on %s: %s; what follows covers those %zu only.",
                 r->survey, gpu[0] ? gpu : "no device recorded", r->survey_status, r->nsdp);
    else
        rep_para(o, "Survey %" PRId64 " on %s: %zu datapaths, %s.", r->survey,
                 gpu[0] ? gpu : "no device recorded", r->nsdp, r->survey_status);
    survey_verdict(o, r);
    survey_datapaths(o, r);
    survey_parameters(o, r);
    survey_figure(o, r);
}
