/*
** Fitting one captured vector file; see fitfile.h.
*/
#include "fitfile.h"
#include "cli.h"
#include "io/modelfile.h"
#include "io/vecline.h"
#include "model/presets.h"

#include <stdlib.h>
#include <string.h>

/* The instruction the file was captured from, arithmetic reset to the
** defaults of lad_datapath_init. */
static int base_of(lad_vecfile *vf, const char *spec, int kopt, lad_datapath *base,
                   lad_err *err)
{
    lad_datapath src;
    int have = 0, rc;
    if (spec) {
        rc = lad_model_resolve(spec, &src, err);
        if (rc != LAD_OK)
            return rc;
        have = 1;
    } else {
        char name[96];
        lad_err e2 = {0};
        if (lad_vechdr_preset(&vf->hdr, vf->path, name, sizeof name, &e2) == LAD_OK) {
            const lad_preset *p = lad_preset_find(name);
            if (p) {
                src = p->dp;
                have = 1;
            }
        }
    }
    lad_datapath_init(base);
    if (have) {
        memcpy(base->arch, src.arch, sizeof base->arch);
        memcpy(base->instr, src.instr, sizeof base->instr);
        memcpy(base->kind, src.kind, sizeof base->kind);
        memcpy(base->shape, src.shape, sizeof base->shape);
        memcpy(base->sass, src.sass, sizeof base->sass);
        base->a = src.a;
        base->b = src.b;
        base->c = src.c;
        base->d = src.d;
        base->k = src.k;
        base->integer = src.integer;
        base->sa = src.sa;
        base->sb = src.sb;
        base->scale_block = src.scale_block;
        base->sparse = src.sparse;
        /* the header's d (f32) is what the words are, whatever the preset
        ** says about the bits the hardware keeps */
        const lad_format *hd = lad_format_find(vf->hdr.d);
        if (hd)
            base->d = *hd;
    } else {
        const char *names[4] = {vf->hdr.a, vf->hdr.b, vf->hdr.c, vf->hdr.d};
        const char *keys[4] = {"a", "b", "c", "d"};
        lad_format *fs[4] = {&base->a, &base->b, &base->c, &base->d};
        for (int i = 0; i < 4; i++) {
            const lad_format *f = names[i][0] ? lad_format_find(names[i]) : NULL;
            if (!f)
                return lad_errf(err, LAD_EDATA, "%s: header line '%s' %s; give --model",
                                vf->path, keys[i], names[i][0] ? "names an unknown format" : "is missing");
            *fs[i] = *f;
        }
        base->k = vf->hdr.k;
        base->integer = base->a.kind == LAD_INT;
        snprintf(base->arch, sizeof base->arch, "%s", vf->hdr.arch);
    }
    if (kopt)
        base->k = kopt;
    if (base->k < 1)
        return lad_errf(err, LAD_EDATA, "%s: no k in the header; give --k", vf->path);
    if (base->d.kind == LAD_FLOAT) {
        lad_word_t nan = lad_format_nan(&base->d);
        base->nan = nan ? nan : 0;
        if (strcmp(base->d.name, "f32") == 0)
            base->nan = 0x7fffffff;
    }
    base->pass = lad_datapath_kphys(base);
    if (vf->hdr.k > base->k)
        return lad_errf(err, LAD_EDATA, "%s: k %d is more than the instruction's K %d",
                        vf->path, vf->hdr.k, base->k);
    const char *slash = strrchr(vf->path, '/');
    const char *bn = slash ? slash + 1 : vf->path;
    int len = (int)strcspn(bn, ".");
    snprintf(base->name, sizeof base->name, "fit-%.*s", len > 50 ? 50 : len, bn);
    return lad_datapath_check(base, err);
}

/* Reads every case of the file, packed (inference/packed.h): a lad_case
** per case would take 1,060 bytes each, six times the text of a bf16 line. */
static int read_cases(lad_vecfile *vf, const lad_datapath *dp, lad_packed *pk,
                      lad_word_t **d, lad_err *err)
{
    size_t cap = 0;
    const char *line;
    lad_vecloc loc;
    int rc;
    static lad_case cs;
    lad_packed_init(pk, dp);
    *d = NULL;
    while ((rc = lad_vecfile_next(vf, &line, &loc, err)) == LAD_OK) {
        if (pk->n == cap) {
            cap = cap ? cap + cap / 2 : 4096;
            lad_word_t *nd = realloc(*d, cap * sizeof **d);
            if (!nd)
                return lad_errf(err, LAD_EINTERNAL, "out of memory");
            *d = nd;
        }
        int has_d;
        rc = lad_vecline_parse(dp, vf->hdr.k, line, &loc, &cs, &(*d)[pk->n], &has_d, err);
        if (rc != LAD_OK)
            return rc;
        if (!has_d)
            return lad_errf_at(err, LAD_EDATA, loc.file, loc.line, (int)strlen(line) + 1,
                               "no D word to fit");
        if ((rc = lad_packed_add(pk, &cs, err)) != LAD_OK) {
            char msg[sizeof err->msg];
            snprintf(msg, sizeof msg, "%s", err->msg);
            lad_err_clear(err);
            return lad_errf_at(err, rc, loc.file, loc.line, 1, "%s", msg);
        }
    }
    if (rc != LAD_NO)
        return rc;
    if (pk->n == 0)
        return lad_errf(err, LAD_EDATA, "%s: no cases", vf->path);
    return LAD_OK;
}

#define FIT_UNPACK 200000  /* cases unpacked for the staged sweep (about 2 KiB each) */

int cli_fit_open(const char *path, const char *spec, int k, cli_fit *f, lad_err *err)
{
    memset(f, 0, sizeof *f);
    int rc = lad_vecfile_open(path, &f->vf, err);
    if (rc == LAD_OK && f->vf->kind != LAD_VECFILE_VEC)
        rc = lad_errf(err, LAD_EUSAGE, "'%s' is not a .vec file (fit reads one datapath "
                      "per file)", path);
    if (rc == LAD_OK)
        rc = base_of(f->vf, spec, k, &f->base, err);
    if (rc == LAD_OK)
        rc = read_cases(f->vf, &f->base, &f->pk, &f->d, err);
    return rc;
}

int cli_fit_search(cli_fit *f, int beam, lad_progress *pr, lad_err *err)
{
    lad_search_opts so = {0};
    so.beam = beam;
    if ((f->res = malloc(sizeof *f->res)) == NULL)
        return lad_errf(err, LAD_EINTERNAL, "out of memory");
    size_t n = f->pk.n;
    int rc = LAD_OK;
    /* The staged sweep first, the file's cases one check stage (only those
    ** a model misses are fitted: inference/sweep.c); its model seeds the
    ** beam, which then explores the models as good as it for what the data
    ** leaves open. A file too large to unpack goes to the beam alone. */
    lad_datapath seed = f->base;
    const lad_datapath *from = &f->base;
    lad_case *cs = n <= FIT_UNPACK ? calloc(n, sizeof *cs) : NULL;
    if (cs) {
        for (size_t i = 0; i < n; i++)
            lad_packed_get(&f->pk, i, &cs[i]);
        lad_stage st = {n, NULL, "vector"};  /* no group of its own: checks */
        rc = lad_search_staged(&f->base, cs, f->d, n, &st, 1, 0, lad_progress_step, pr, &seed,
                               err);
        /* a model that explains every case is the beam's base: the beam
        ** keeps its result format (it varies neither d nor nan) and only
        ** explores the models as good as it */
        if (rc == LAD_OK && lad_search_count(&seed, cs, f->d, n) == 0)
            from = &seed;
        free(cs);
        so.seeds = &seed;
        so.nseeds = 1;
    }
    if (rc == LAD_OK)
        rc = lad_search_packed(from, &f->pk, f->d, &so, f->res, err);
    if (rc != LAD_OK)
        return rc;
    f->model = f->res->best[0].dp;
    f->mismatches = f->res->best[0].mismatches;
    lad_canon(&f->model);  /* canonical (docs/model.md, "Equivalence") */
    return LAD_OK;
}

void cli_fit_free(cli_fit *f)
{
    free(f->res);
    lad_packed_free(&f->pk);
    free(f->d);
    lad_vecfile_close(f->vf);
    memset(f, 0, sizeof *f);
}

