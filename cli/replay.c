/*
** Replaying captured vectors; see replay.h.
*/
#include "replay.h"
#include "cli.h"
#include "io/modelfile.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BATCH 4096       /* cases sent to a device at once */

static void note(tally *t, int line, int digits, lad_word_t want,
                 lad_word_t got, const char *what)
{
    t->bad++;
    if (t->nshown == MAXSHOW)
        return;
    shown *s = &t->show[t->nshown++];
    s->line = line;
    s->digits = digits;
    s->want = want;
    s->got = got;
    snprintf(s->what, sizeof s->what, "%s", what);
}

#define MAXCAND 4        /* instructions weighed for one .vec file */

/*
** Models for a .vec file: --model alone, or the preset the header names
** first and then the presets of every other instruction with the same
** arch and formats (sm90-mma-e4m3-f16 beside sm90-wgmma-e4m3-f16). Vector
** headers are written by people and can name the wrong instruction; the
** words say which one made them, and check reports that.
*/
static int vec_models(lad_vecfile *vf, const char *spec, lad_datapath *dp,
                      int *n, lad_err *err)
{
    *n = 0;
    if (spec) {
        int rc = lad_model_resolve(spec, &dp[0], err);
        if (rc == LAD_OK)
            rc = lad_datapath_check(&dp[0], err);
        *n = rc == LAD_OK;
        return rc;
    }
    char name[96];
    int rc = lad_vechdr_preset(&vf->hdr, vf->path, name, sizeof name, err);
    if (rc != LAD_OK)
        return rc;
    const lad_preset *p = lad_preset_find(name);
    if (p == NULL)
        return lad_errf(err, LAD_EDATA, "%s: no preset '%s' for this file "
                        "(gpu %s, arch %s); give --model", vf->path, name,
                        vf->hdr.gpu[0] ? vf->hdr.gpu : "?", vf->hdr.arch);
    dp[(*n)++] = p->dp;
    /* name is sm<NN>-<instr>-<ab>-<d>: swap the instruction */
    const char *instrs[] = {"mma", "wgmma", "tcgen05"};
    const char *rest = strchr(strchr(name, '-') + 1, '-');
    for (int i = 0; i < 3 && *n < MAXCAND; i++) {
        char other[96];
        snprintf(other, sizeof other, "%.*s-%s%s", (int)(strchr(name, '-') - name),
                 name, instrs[i], rest);
        const lad_preset *q = lad_preset_find(other);
        if (q && q != p)
            dp[(*n)++] = q->dp;
    }
    return LAD_OK;
}

/* Compares a batch of computed words with the file's. */
static void compare(const lad_datapath *dp, const lad_case *cs,
                    const lad_word_t *want, const lad_word_t *got,
                    const int *lines, size_t n, tally *t)
{
    for (size_t i = 0; i < n; i++) {
        t->cases++;
        if (got[i] == want[i])
            continue;
        char text[LAD_VECLINE_MAX];
        if (lad_vecline_format(dp, &cs[i], NULL, text, sizeof text) < 0)
            text[0] = 0;
        note(t, lines[i], lad_format_digits(&dp->d), want[i], got[i], text);
    }
}

/* Computes a batch with the model, or with the device when there is one,
** and tallies it. */
static int eval_batch(const lad_datapath *dp, lad_device *dev,
                      const lad_case *cs, const lad_word_t *want,
                      const int *lines, size_t n, tally *t, lad_err *err)
{
    static lad_word_t got[BATCH];
    if (dev == NULL) {
        lad_eval_batch(dp, cs, n, got);
    } else {
        size_t done = 0;
        int rc = lad_device_eval(dev, cs, n, got, &done, err);
        if (rc != LAD_OK)
            return rc;
    }
    compare(dp, cs, want, got, lines, n, t);
    return LAD_OK;
}

int cli_replay_vec(lad_vecfile *vf, const char *spec, const char *devspec,
                     tally *t, lad_err *err)
{
    static lad_datapath dp[MAXCAND];
    static tally cand[MAXCAND];
    int ncand;
    int rc = vec_models(vf, spec, dp, &ncand, err);
    if (rc != LAD_OK)
        return rc;
    if (devspec)
        ncand = 1;  /* the device computes; the model names the instruction */
    if (vf->hdr.k > dp[0].k)
        return lad_errf(err, LAD_EDATA, "%s: k %d is more than model '%s' "
                        "has (K %d)", vf->path, vf->hdr.k, dp[0].name, dp[0].k);
    lad_device *dev = NULL;
    if (devspec && (rc = lad_device_open(devspec, &dp[0], &dev, err)) != LAD_OK)
        return rc;
    memset(cand, 0, sizeof cand);
    static lad_case cs[BATCH];
    static lad_word_t want[BATCH];
    static int lines[BATCH];
    size_t n = 0;
    const char *line;
    lad_vecloc loc;
    for (;;) {
        rc = lad_vecfile_next(vf, &line, &loc, err);
        if (rc == LAD_OK) {
            int has_d;
            rc = lad_vecline_parse(&dp[0], vf->hdr.k, line, &loc, &cs[n],
                                   &want[n], &has_d, err);
            if (rc == LAD_OK && !has_d)
                rc = lad_errf_at(err, LAD_EDATA, loc.file, loc.line,
                                 (int)strlen(line) + 1, "no D word to check");
            if (rc != LAD_OK)
                break;
            lines[n++] = loc.line;
        } else if (rc != LAD_NO) {
            break;
        }
        if (n == BATCH || (rc == LAD_NO && n > 0)) {
            int erc = LAD_OK;
            for (int i = 0; i < ncand && erc == LAD_OK; i++)
                erc = eval_batch(&dp[i], dev, cs, want, lines, n, &cand[i], err);
            n = 0;
            if (erc != LAD_OK) {
                rc = erc;
                break;
            }
        }
        if (rc == LAD_NO)
            break;
    }
    lad_device_close(dev);
    if (rc != LAD_NO)
        return rc;
    /* The header's instruction unless another one explains more words. */
    int best = 0;
    for (int i = 1; i < ncand; i++)
        if (cand[i].bad < cand[best].bad)
            best = i;
    *t = cand[best];
    /* names past the fields' widths are cut (the precisions keep every
    ** build's -Wformat-truncation quiet) */
    snprintf(t->preset, sizeof t->preset, "%.63s", dp[best].name);
    if (devspec)
        snprintf(t->model, sizeof t->model, "%.80s on %.100s", dp[0].name, devspec);
    else if (best != 0)
        snprintf(t->model, sizeof t->model, "%.80s; the header's %.80s gives %ld",
                 dp[best].name, dp[0].name, cand[0].bad);
    else
        snprintf(t->model, sizeof t->model, "%.199s", dp[0].name);
    return LAD_OK;
}

int cli_replay_file(const char *path, const char *spec, const char *devspec,
                     long *cases, long *bad, lad_err *err)
{
    static tally t;
    lad_vecfile *vf;
    *cases = *bad = 0;
    int rc = lad_vecfile_open(path, &vf, err);
    if (rc != LAD_OK)
        return rc;
    memset(&t, 0, sizeof t);
    if (vf->kind == LAD_VECFILE_FROZEN)
        rc = lad_errf(err, LAD_EUSAGE, "%s: a frozen file is not replayed on a device", path);
    else
        rc = cli_replay_vec(vf, spec, devspec, &t, err);
    lad_vecfile_close(vf);
    *cases = t.cases;
    *bad = t.bad;
    return rc;
}

/* Frozen lines: each names its preset; with --model, only the lines that
** name the model are checked. */
int cli_replay_frozen(lad_vecfile *vf, const char *spec, tally *t,
                        lad_err *err)
{
    lad_datapath model;
    int rc;
    if (spec) {
        rc = lad_model_resolve(spec, &model, err);
        if (rc == LAD_OK)
            rc = lad_datapath_check(&model, err);
        if (rc != LAD_OK)
            return rc;
        snprintf(t->model, sizeof t->model, "%s", model.name);
    }
    const lad_preset *last = NULL;
    const char *line;
    lad_vecloc loc;
    static lad_frozen fz;
    while ((rc = lad_vecfile_next(vf, &line, &loc, err)) == LAD_OK) {
        rc = lad_frozen_parse(line, &loc, &fz, err);
        if (rc != LAD_OK)
            return rc;
        const lad_datapath *dp;
        if (spec) {
            if (strcmp(fz.preset, model.name) != 0)
                continue;
            dp = &model;
        } else {
            if (last == NULL || strcmp(last->dp.name, fz.preset) != 0) {
                const lad_preset *p = lad_preset_find(fz.preset);
                if (p == NULL)
                    return lad_errf_at(err, LAD_EDATA, loc.file, loc.line,
                                       fz.col[1], "no preset '%s' for line "
                                       "'%s'", fz.preset, fz.label);
                int seen = 0;
                for (int j = 0; j < t->nmodels && !seen; j++)
                    seen = t->used[j] == &p->dp;
                if (!seen && t->nmodels < 64)
                    t->used[t->nmodels++] = &p->dp;
                last = p;
                snprintf(t->model, sizeof t->model, "%s", p->dp.name);
            }
            dp = &last->dp;
        }
        lad_case cs;
        lad_word_t want;
        rc = lad_frozen_case(&fz, dp, &loc, &cs, &want, err);
        if (rc != LAD_OK)
            return rc;
        lad_word_t got = lad_eval(dp, &cs);
        t->cases++;
        if (got != want) {
            char what[200];
            snprintf(what, sizeof what, "%s (%s)", fz.label, dp->name);
            note(t, loc.line, lad_format_digits(&dp->d), want, got, what);
        }
    }
    if (rc != LAD_NO)
        return rc;
    if (spec && t->cases == 0)
        return lad_errf(err, LAD_EUSAGE, "%s: no line is for model '%s' "
                        "(each line names its preset, e.g. "
                        "sm100-tcgen05-tf32-f32)", vf->path, model.name);
    if (!spec && t->nmodels > 1)
        snprintf(t->model, sizeof t->model, "%d presets named by the lines",
                 t->nmodels);
    return LAD_OK;
}

/* A file with no case, or with another number of cases than its header
** says (fewer is allowed with partial), is a data error. */
