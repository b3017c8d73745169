/*
** ladder eval: the model as a filter, one D word per case.
**
**     ladder eval --model SPEC [FILE]
**     ladder eval --model SPEC --a A.npy --b B.npy [--c C.npy]
**                 [--sa SA.npy --sb SB.npy] -o D.npy [-q]
**
** Reads cases in the vector line format (io/vecline.h; a D field, when
** present, is ignored) from FILE or stdin, and writes each case's D word in
** hex at the D format's native width, one per line, flushed whenever the
** input has no more lines ready: so `exec:ladder eval --model X` is itself
** an exec device, and any oracle can
** be compared with the model line by line. Blank and '#' lines are skipped;
** a `# k: N` header line (as in .vec files) lets lines hold fewer than K
** words. The frozen tcgen05 file is read too, one case per line.
**
** A line framed as the exec device's framed protocol writes it, "@<n> "
** before the case (devices/exec.h), is answered "@<n> <D>": ladder eval is
** an exec: (framed) oracle as well as an exec-unframed: one.
**
** A malformed line stops the command with "ladder: file:line:col: ..." and
** exit 3; nothing is printed for it (the words before it were printed as
** their lines came, and are right).
**
** With --a and --b the cases come from .npy arrays instead, one case a row
** (io/npy.h), read and evaluated a block of EVAL_BLOCK cases at a time, so
** memory stays fixed however many there are; D's words go to an .npy file,
** written whole or not at all.
*/
#include "cli.h"
#include "commands.h"
#include "io/modelfile.h"
#include "io/npy.h"
#include "io/vecfile.h"
#include "util/progress.h"
#include "devices/device.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Answers wait here until the input runs dry (the reader's idle hook) or the
** block is full: a file streams at block speed, and a peer that writes one
** line and waits still gets its answer before ladder waits in turn. */
typedef struct outbuf {
    size_t n;
    char b[65536];
} outbuf;

static void flush(void *arg)
{
    outbuf *o = arg;
    fwrite(o->b, 1, o->n, stdout);
    fflush(stdout);
    o->n = 0;
}

/* Cases a block: their rows (lad_rows: 16 bytes a lane and a case, 2 as bytes) stay
** in the caches between the fill and the model. */
#define EVAL_BLOCK 512

enum { NPY_A, NPY_B, NPY_C, NPY_SA, NPY_SB, NPY_N };
static const char *const npy_what[NPY_N] = {"A", "B", "C", "SA", "SB"};

/* Opens the arrays that were named and checks their dtypes and shapes
** against the model: every one N rows of its columns (C: N, or N x 1). */
static int npy_open(const lad_datapath *dp, const char *const *path, lad_npy_reader *r,
                    size_t *cols, size_t *n, lad_err *err)
{
    const lad_format *f[NPY_N] = {&dp->a, &dp->b, &dp->c, &dp->sa, &dp->sb};
    size_t nkb = (size_t)lad_datapath_nscales(dp);
    const size_t want[NPY_N] = {(size_t)dp->k, (size_t)dp->k, 1, nkb, nkb};
    int rc = LAD_OK;
    for (int i = 0; i < NPY_N && rc == LAD_OK; i++) {
        cols[i] = want[i];
        if (path[i] == NULL)
            continue;
        if ((rc = lad_npy_open(path[i], &r[i], err)) != LAD_OK)
            break;
        lad_npy *a = &r[i].a;
        if (i == NPY_C && a->ndim == 1) {
            /* a vector reads as one row: its elements are the rows here */
            a->shape[0] = a->shape[1];
            a->shape[1] = 1;
        } else if (a->ndim != 2) {
            rc = lad_errf(err, LAD_EDATA, "%s: %s has two dimensions, not %d", path[i],
                          i == NPY_C ? "C has one (N) or" : npy_what[i], a->ndim);
            break;
        }
        if (i == NPY_A)
            *n = a->shape[0];
        rc = lad_npy_check_dtype(a, f[i], npy_what[i], path[i], err);
        if (rc == LAD_OK && (a->shape[0] != *n || a->shape[1] != want[i]))
            rc = lad_errf(err, LAD_EDATA, "%s is %zu x %zu, not %zu x %zu (%s of %s)",
                          path[i], a->shape[0], a->shape[1], *n, want[i],
                          i == NPY_C ? "N addends" : i < NPY_C ? "N cases of K words"
                          : "N cases of a scale per block", dp->name);
    }
    return rc;
}

/* The cases of the arrays through the model, EVAL_BLOCK at a time, into
** out: N words of D's dtype (lad_npy_dtype). A and B are widened into
** rows (lad_rows), or taken as they are where both are arrays of bytes
** (formats of 8 bits or fewer: lad_rows.a8, b8); C is widened, the scale
** codes are bytes. */
static int eval_npy(const lad_datapath *dp, const char *const *path, const char *out,
                    lad_progress *pr, lad_err *err)
{
    lad_npy_reader r[NPY_N] = {{0}};
    size_t cols[NPY_N], n = 0;
    int rc = npy_open(dp, path, r, cols, &n, err);
    const lad_format *f[NPY_N] = {&dp->a, &dp->b, &dp->c, &dp->sa, &dp->sb};
    size_t k = (size_t)dp->k, nkb = (size_t)lad_datapath_nscales(dp);
    int bytes = rc == LAD_OK && r[NPY_A].a.size == 1 && r[NPY_B].a.size == 1;
    size_t wsize = bytes ? 1 : sizeof(lad_word_t);
    lad_word_t *d = malloc(EVAL_BLOCK * sizeof *d), *wc = malloc(EVAL_BLOCK * sizeof *d);
    void *wa = malloc(EVAL_BLOCK * k * wsize), *wb = malloc(EVAL_BLOCK * k * wsize);
    uint8_t *s = malloc(2 * EVAL_BLOCK * (nkb + 1));
    if (rc == LAD_OK && (d == NULL || wc == NULL || wa == NULL || wb == NULL || s == NULL))
        rc = lad_errf(err, LAD_EINTERNAL, "out of memory");
    char kind;
    int size;
    lad_npy_dtype(&dp->d, &kind, &size);
    lad_npy_writer o;
    if (rc == LAD_OK)
        rc = lad_npy_create(&o, out, kind, size, 1, n, 1, err);
    if (rc == LAD_OK) {
        lad_plan pl;
        lad_plan_init(&pl, dp);
        lad_rows rows = {bytes ? NULL : wa, bytes ? NULL : wb, path[NPY_C] ? wc : NULL, s,
                         s + EVAL_BLOCK * nkb, bytes ? wa : NULL, bytes ? wb : NULL};
        void *to[NPY_N] = {wa, wb, wc, s, s + EVAL_BLOCK * nkb};
        lad_progress_begin(pr, "eval %zu cases", n);
        for (size_t at = 0; at < n && rc == LAD_OK; at += EVAL_BLOCK) {
            size_t m = n - at < EVAL_BLOCK ? n - at : EVAL_BLOCK;
            for (int i = 0; i < NPY_N && rc == LAD_OK; i++) {
                if (path[i] == NULL)
                    continue;
                /* the scale codes are at most 8 bits (checked against f) */
                if (i >= NPY_SA || (bytes && i < NPY_C))
                    rc = lad_npy_next_bytes(&r[i], m, to[i], f[i], err);
                else
                    rc = lad_npy_next(&r[i], m, to[i], cols[i], f[i], err);
            }
            if (rc != LAD_OK)
                break;
            lad_plan_eval_rows(&pl, &rows, m, d);
            lad_npy_put(&o, m, d);
            if ((at / EVAL_BLOCK) % 16 == 15)
                lad_progress_step(pr, NULL, at + m, n);
        }
        lad_progress_end(pr, rc);
        if (rc == LAD_OK)
            rc = lad_npy_commit(&o, err);
        else
            lad_npy_abort(&o);
    }
    for (int i = 0; i < NPY_N; i++)
        lad_npy_close(&r[i]);
    free(d);
    free(wc);
    free(wa);
    free(wb);
    free(s);
    return rc;
}

int cmd_eval(int argc, char **argv)
{
    const char *spec = NULL, *devspec = NULL, *dpath = NULL, *quiet = NULL;
    const char *path[NPY_N] = {NULL};
    const cli_opt opts[] = {{"model", 'm', 1, &spec}, {"device", 'd', 1, &devspec},
                            {"a", 0, 1, &path[NPY_A]}, {"b", 0, 1, &path[NPY_B]},
                            {"c", 0, 1, &path[NPY_C]}, {"sa", 0, 1, &path[NPY_SA]},
                            {"sb", 0, 1, &path[NPY_SB]}, {"output", 'o', 1, &dpath},
                            {"quiet", 'q', 0, &quiet}, {NULL, 0, 0, NULL}};
    char *pos[1];
    int npos;
    int rc = cli_parse(argc, argv, opts, pos, &npos, 0, 1, NULL);
    if (rc)
        return rc == CLI_HELP ? 0 : rc;
    if (spec == NULL)
        return cli_usage_error("eval needs --model <preset or model file>");
    int arrays = 0;
    for (int i = 0; i < NPY_N; i++)
        arrays |= path[i] != NULL;
    if (arrays || dpath) {
        if (!path[NPY_A] || !path[NPY_B] || !dpath)
            return cli_usage_error("eval on arrays needs --a <A.npy>, --b <B.npy> and "
                                   "-o <D.npy>");
        if (!path[NPY_SA] != !path[NPY_SB])
            return cli_usage_error("eval takes --sa and --sb together");
        if (npos || devspec)
            return cli_usage_error("eval takes vector lines (a file or stdin, and "
                                   "--device) or arrays (--a, --b), not both");
        for (int i = 0; i < NPY_N; i++)
            if ((rc = cli_output_ok(dpath, npy_what[i], path[i])) != LAD_OK)
                return rc;
        if ((rc = cli_output_ok(dpath, "the model file", spec)) != LAD_OK)
            return rc;
        static const char *const exts[] = {"npy", NULL};
        if ((rc = cli_output_kind("eval", dpath, exts, 0, NULL)) != LAD_OK)
            return rc;
    } else if (quiet) {
        return cli_usage_error("-q is for eval on arrays (vector lines show no progress)");
    }

    lad_err err = {0};
    lad_datapath dp;
    rc = lad_model_resolve(spec, &dp, &err);
    if (rc == LAD_OK)
        rc = lad_datapath_check(&dp, &err);
    if (rc == LAD_OK && arrays && dp.sparse)
        rc = lad_errf(&err, LAD_EDATA, "model '%s' is sparse: its cases take metadata, "
                      "which vector lines carry and arrays do not", dp.name);
    if (rc == LAD_OK && arrays && (dp.scale_block != 0) != (path[NPY_SA] != NULL))
        rc = lad_errf(&err, LAD_EDATA, dp.scale_block
                      ? "model '%s' is block-scaled: give its scales with --sa and --sb"
                      : "model '%s' has no block scales: --sa and --sb are for "
                        "block-scaled models", dp.name);
    if (rc != LAD_OK)
        return cli_report(&err);
    if (arrays) {
        lad_progress pr;
        lad_progress_init(&pr, quiet != NULL);
        rc = eval_npy(&dp, path, dpath, &pr, &err);
        lad_progress_free(&pr);
        return rc == LAD_OK ? 0 : cli_report(&err);
    }

    lad_vecfile *vf;
    rc = lad_vecfile_open(npos ? pos[0] : "-", &vf, &err);
    if (rc != LAD_OK)
        return cli_report(&err);
    if (vf->hdr.k > dp.k) {
        lad_errf(&err, LAD_EDATA, "%s: k %d is more than model '%s' has "
                 "(K %d)", vf->path, vf->hdr.k, dp.name, dp.k);
        lad_vecfile_close(vf);
        return cli_report(&err);
    }
    lad_device *dev = NULL;
    if (devspec && (rc = lad_device_open(devspec, &dp, &dev, &err)) != LAD_OK) {
        lad_vecfile_close(vf);
        return cli_report(&err);
    }
    static outbuf out;
    vf->idle = flush;
    vf->idle_arg = &out;
    const char *line;
    lad_vecloc loc;
    static lad_frozen fz;
    lad_plan pl;
    lad_plan_init(&pl, &dp);
    while ((rc = lad_vecfile_next(vf, &line, &loc, &err)) == LAD_OK) {
        lad_case cs;
        lad_word_t d;
        int has_d;
        /* "@<n> ": the frame, echoed before the answer */
        size_t fl = 0;
        if (line[0] == '@') {
            fl = 1;
            while (line[fl] >= '0' && line[fl] <= '9' && fl < 21)
                fl++;
            if (fl == 1 || line[fl] != ' ') {
                rc = lad_errf_at(&err, LAD_EDATA, loc.file, loc.line, 1,
                                 "bad frame, expected '@<case number> ' "
                                 "before the case");
                break;
            }
            fl++;
        }
        if (vf->kind == LAD_VECFILE_FROZEN) {
            rc = lad_frozen_parse(line + fl, &loc, &fz, &err);
            if (rc == LAD_OK)
                rc = lad_frozen_case(&fz, &dp, &loc, &cs, &d, &err);
        } else {
            rc = lad_vecline_parse(&dp, vf->hdr.k, line + fl, &loc, &cs, &d,
                                   &has_d, &err);
        }
        if (rc != LAD_OK)
            break;
        /* no printf per word: the answer is copied into a block */
        if (out.n + fl + 18 > sizeof out.b)
            flush(&out);
        memcpy(out.b + out.n, line, fl);
        out.n += fl;
        lad_word_t w;
        if (dev) {
            size_t done = 0;
            if ((rc = lad_device_eval(dev, &cs, 1, &w, &done, &err)) != LAD_OK)
                break;
        } else {
            w = lad_plan_eval(&pl, &cs);
        }
        out.n += (size_t)lad_vecline_hex(&dp.d, w, out.b + out.n);
        out.b[out.n++] = '\n';
    }
    flush(&out);
    lad_vecfile_close(vf);
    lad_device_close(dev);
    if (rc != LAD_NO)
        return cli_report(&err);
    return LAD_OK;
}
