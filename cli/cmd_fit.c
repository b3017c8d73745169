/*
** ladder fit: finds a model that reproduces captured vectors, with no
** access to the device that made them.
**
**     ladder fit FILE.vec [-o model.yaml] [--model SPEC] [--k K]
**
** The file's header says what the instruction is (formats, K); the words say
** how it computes. The instruction comes from the preset the header names
** when there is one (its formats, K, scales, sparsity; none of its
** arithmetic is used), else from the header's formats alone (K from --k or
** the header); --model gives it explicitly. Lanes the file does not hold
** (a header k below the instruction's K) are zero. inference/beam.c does
** the rest.
**
** Output: the model as YAML (to -o FILE instead of stdout when given), then
** "fit: <mismatches>/<cases> mismatches (<file>)" and "undetermined: ..."
** lines for the parameters the data does not pin down. Exit 0 when the
** model reproduces every case, 1 when the best one found does not, 2 usage,
** 3 for a file that cannot be read or parsed.
*/
#include "cli.h"
#include "answerview.h"
#include "commands.h"
#include "inference/answer.h"
#include "json.h"
#include "inference/search.h"
#include "io/modelfile.h"
#include "io/vecfile.h"
#include "io/vecline.h"
#include "io/vecwrite.h"
#include "util/outfile.h"
#include "model/presets.h"
#include "model/params.h"
#include "util/progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

_Static_assert(LAD_KMAX == 128, "the usage says --k 1..128");

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

/* The cases that separate the open alternatives from the model, as a .vec
** file without D words: what to capture next. */
static int write_next(const char *path, const lad_answer *a, const char *from, lad_err *err)
{
    lad_vechdr h;
    lad_vechdr_of(&a->model, &h);
    h.cases = a->nnext;
    snprintf(h.source, sizeof h.source, "ladder fit --next: cases deciding the open rows "
             "of %.60s; capture D and fit again", from);
    lad_outfile o;
    int rc = lad_outfile_open(&o, path, err);
    if (rc != LAD_OK)
        return rc;
    int bad = lad_vecfile_write_header(o.f, &h);
    for (int j = 0; j < a->nnext && !bad; j++) {
        /* the rows whose values the case separates, then the case */
        char rows[300] = "";
        size_t rl = 0;
        for (int i = 0; i < a->nalt && rl < sizeof rows - 80; i++) {
            const lad_answer_alt *t = &a->alts[i];
            const char *k1 = lad_params[t->row1].key;
            if (t->next != j || strstr(rows, k1))
                continue;
            rl += (size_t)snprintf(rows + rl, sizeof rows - rl, " %s", k1);
        }
        char line[LAD_VECLINE_MAX];
        bad = lad_vecline_format(&a->model, &a->next[j], NULL, line, sizeof line) < 0 ||
              fprintf(o.f, "# separates:%s\n%s\n", rows, line) < 0;
    }
    if (bad) {
        lad_outfile_abort(&o);
        return lad_errf(err, LAD_EDATA, "cannot write '%s'", path);
    }
    return lad_outfile_commit(&o, err);
}

int cmd_fit(int argc, char **argv)
{
    const char *outpath = NULL, *spec = NULL, *kopt = NULL, *beam = NULL, *verbose = NULL;
    const char *quiet = NULL, *nextpath = NULL, *json = NULL;
    cli_opt opts[] = {
        {"verbose", 'v', 0, &verbose},
        {"json", 0, 0, &json},
        {"quiet", 'q', 0, &quiet},
        {"output", 'o', 1, &outpath},
        {"model", 0, 1, &spec},
        {"k", 0, 1, &kopt},
        {"beam", 0, 1, &beam},
        {"next", 0, 1, &nextpath},
        {NULL, 0, 0, NULL},
    };
    char *pos[2];
    int npos = 0;
    int rc = cli_parse(argc, argv, opts, pos, &npos, 1, 1,
                      "fit needs one vector file; see 'ladder fit --help'");
    if (rc)
        return rc == CLI_HELP ? 0 : rc;
    if ((rc = cli_output_ok(outpath, "the vector file", pos[0])) != LAD_OK ||
        (rc = cli_output_ok(outpath, "the model file", spec)) != LAD_OK ||
        (rc = cli_output_ok(nextpath, "the vector file", pos[0])) != LAD_OK ||
        (rc = cli_output_ok(nextpath, "the model output", outpath)) != LAD_OK)
        return rc;
    static const char *const exts[] = {"yaml", "yml", NULL};
    if ((rc = cli_output_kind("fit", outpath, exts, 0, NULL)) != LAD_OK)
        return rc;
    lad_search_opts so = {0};
    uint64_t b = 0, k = 0;
    if (beam && (rc = cli_number(beam, "--beam", 1, 64, &b)))
        return rc;
    if (kopt && (rc = cli_number(kopt, "--k", 1, LAD_KMAX, &k)))
        return rc;
    so.beam = (int)b;

    lad_err err = {0};
    lad_vecfile *vf = NULL;
    lad_packed pk = {0};
    lad_word_t *d = NULL;
    lad_search_result *res = NULL;
    lad_answer *ans = NULL;
    char *yaml = NULL;
    lad_datapath base;
    rc = lad_vecfile_open(pos[0], &vf, &err);
    if (rc == LAD_OK && vf->kind != LAD_VECFILE_VEC)
        rc = lad_errf(&err, LAD_EUSAGE, "'%s' is not a .vec file (fit reads one datapath "
                      "per file)", pos[0]);
    if (rc == LAD_OK)
        rc = base_of(vf, spec, (int)k, &base, &err);
    if (rc == LAD_OK)
        rc = read_cases(vf, &base, &pk, &d, &err);
    if (rc != LAD_OK)
        goto fail;
    res = malloc(sizeof *res);
    if (!res) {
        rc = lad_errf(&err, LAD_EINTERNAL, "out of memory");
        goto fail;
    }
    clock_t t0 = clock();
    size_t n = pk.n;
    /* One stage around the search: inference/ reports nothing finer yet
    ** (it may, through lad_progress_step). */
    lad_progress pr;
    lad_progress_init(&pr, quiet != NULL);
    lad_progress_begin(&pr, "fit %s: %zu cases", pos[0], n);
    /* The staged sweep first, the file's cases one check stage (only those
    ** a model misses are fitted: inference/sweep.c); its model seeds the
    ** beam, which then explores the models as good as it for what the data
    ** leaves open. A file too large to unpack goes to the beam alone. */
    lad_datapath seed = base;
    const lad_datapath *from = &base;
    lad_case *cs = n <= FIT_UNPACK ? calloc(n, sizeof *cs) : NULL;
    if (cs) {
        for (size_t i = 0; i < n; i++)
            lad_packed_get(&pk, i, &cs[i]);
        lad_stage st = {n, NULL, "vector"};  /* no group of its own: checks */
        rc = lad_search_staged(&base, cs, d, n, &st, 1, lad_progress_step, &pr, &seed, &err);
        /* a model that explains every case is the beam's base: the beam
        ** keeps its result format (it varies neither d nor nan) and only
        ** explores the models as good as it */
        if (rc == LAD_OK && lad_search_count(&seed, cs, d, n) == 0)
            from = &seed;
        free(cs);
        so.seeds = &seed;
        so.nseeds = 1;
    }
    if (rc == LAD_OK)
        rc = lad_search_packed(from, &pk, d, &so, res, &err);
    lad_progress_end(&pr, rc);
    if (rc != LAD_OK) {
        lad_progress_free(&pr);
        goto fail;
    }
    double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    const lad_search_model *best = &res->best[0];
    lad_datapath model = best->dp;
    lad_canon(&model);  /* printed canonical (docs/model.md, "Equivalence") */
    /* The whole answer (inference/answer.h) of a model that reproduces
    ** every case: each row decided, equivalent, open or not in effect. */
    if (best->mismatches == 0) {
        ans = malloc(sizeof *ans);
        lad_answer_cases ac = {NULL, &pk, d, n};
        lad_progress_begin(&pr, "fit %s: the rows the cases leave open", pos[0]);
        rc = ans ? lad_answer_find(&model, &ac, ans, &err)
                 : lad_errf(&err, LAD_EINTERNAL, "out of memory");
        lad_progress_end(&pr, rc);
        if (rc != LAD_OK)
            goto fail;
    }
    lad_progress_free(&pr);
    char evidence[700], sum[400];
    snprintf(evidence, sizeof evidence, "ladder fit %s: %llu/%zu mismatches%s%s", pos[0],
             (unsigned long long)best->mismatches, n, ans ? "; " : "",
             ans ? lad_answer_summary(ans, sum, sizeof sum) : "");
    if ((outpath || !json) && (yaml = lad_answer_model_write(ans, &model, evidence)) == NULL) {
        rc = lad_errf(&err, LAD_EINTERNAL, "out of memory");
        goto fail;
    }
    if (outpath) {
        if ((rc = lad_outfile_write(outpath, yaml, &err)) != LAD_OK)
            goto fail;
    } else if (!json) {  /* with --json the model is the document's, below */
        fputs(yaml, stdout);
    }
    if (nextpath && !ans) {
        rc = lad_errf(&err, LAD_EDATA, "no cases written to '%s': no model reproduces every "
                      "case of '%s', so there is no answer to decide", nextpath, pos[0]);
        goto fail;
    }
    if (nextpath && (rc = write_next(nextpath, ans, pos[0], &err)) != LAD_OK)
        goto fail;
    char und[2048];
    int nu = ans ? -1 : lad_search_undetermined(res, und, sizeof und);
    if (json) {
        printf("{\"file\": ");
        cli_json_str(stdout, pos[0]);
        printf(", \"cases\": %zu, \"mismatches\": %llu, \"output\": ", n,
               (unsigned long long)best->mismatches);
        if (outpath)
            cli_json_str(stdout, outpath);
        else
            printf("null");
        printf(", \"model\": ");
        cli_json_model(stdout, &model, evidence);
        printf(", \"answer\": ");
        if (ans)
            cli_answer_json(stdout, ans);
        else
            printf("null");
        printf(", \"undetermined\": [");
        for (char *line = nu > 0 ? und : NULL, *next; line && *line; line = next) {
            next = strchr(line, '\n');
            if (next)
                *next++ = 0;
            printf("%s", line == und ? "" : ", ");
            cli_json_str(stdout, line);
        }
        printf("], \"exploration_capped\": %s}\n", res->equal_capped ? "true" : "false");
    } else {
        printf("fit: %llu/%zu mismatches (%s)\n", (unsigned long long)best->mismatches, n,
               pos[0]);
    }
    if (json) {
        /* the JSON above says it all */
    } else if (nu < 0) {
        lad_answer_print(stdout, ans);
    } else if (nu == 0) {
        printf("undetermined: none\n");
    } else {
        for (char *line = und; *line;) {
            char *nl = strchr(line, '\n');
            if (nl)
                *nl = 0;
            printf("undetermined: %s\n", line);
            if (!nl)
                break;
            line = nl + 1;
        }
    }
    if (!ans && res->equal_capped && !json)
        printf("undetermined: (exploration stopped after %d equal models)\n", res->nequal);
    if (verbose)
        fprintf(stderr, "fit: %.2f s, %llu model evaluations, %zu active cases\n", secs,
            (unsigned long long)res->evals, res->active);
    rc = best->mismatches ? LAD_NO : LAD_OK;
    free(ans);
    free(yaml);
    free(res);
    lad_packed_free(&pk);
    free(d);
    lad_vecfile_close(vf);
    return rc;
fail:
    free(ans);
    free(yaml);
    free(res);
    lad_packed_free(&pk);
    free(d);
    lad_vecfile_close(vf);
    return cli_report(&err);
}
