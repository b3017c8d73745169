/*
** ladder gemm: a whole matrix multiply through the model.
**
**     ladder gemm --datapath SPEC [--program SPEC] A.npy B.npy [C.npy]
**                 [--sa SA.npy --sb SB.npy] -o D.npy [--threads N]
**
** Reads raw words from .npy files (io/npy.h), runs lad_gemm (the program
** over the datapath, model/program.h; lad_gemm_scaled with a block-scaled
** datapath's scales) and writes D's raw words: float64,
** float32 or float16 when the output format's words are those, else unsigned integers
** of the format's width. Nothing is rounded on the way in or out: every
** word is the model's. The outputs written so far show as progress
** (util/progress.h; -q none).
*/
#include "cli.h"
#include "commands.h"
#include "io/modelfile.h"
#include "io/npy.h"
#include "io/program.h"
#include "model/program.h"
#include "util/progress.h"

#include "devices/cublaslt.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int read_matrix(const char *path, const lad_format *f, const char *what,
                       lad_npy *x, lad_err *err)
{
    int rc = lad_npy_read(path, x, err);
    if (rc == LAD_OK && x->ndim != 2)
        rc = lad_errf(err, LAD_EDATA, "%s: a matrix has two dimensions, not %d",
                      path, x->ndim);
    if (rc == LAD_OK)
        rc = lad_npy_check_dtype(x, f, what, path, err);
    if (rc == LAD_OK)
        rc = lad_npy_check_words(x->w, x->shape[0] * x->shape[1], 0, x->shape[1], f,
                                 path, err);
    if (rc != LAD_OK)
        lad_npy_free(x);
    return rc;
}

/* The cuBLASLt GPU of --device: its index and options; 0, or a usage error. */
static int lt_spec(const char *dev, uint64_t *gpu, const char **options)
{
    if (strncmp(dev, "cublaslt:", 9) != 0)
        return cli_usage_error("--device must be cublaslt:<gpu>[:<options>], not '%s'", dev);
    char idx[24];
    size_t l = strcspn(dev + 9, ":");
    if (l == 0 || l >= sizeof idx)
        return cli_usage_error("--device '%s' needs a GPU index after 'cublaslt:'", dev);
    memcpy(idx, dev + 9, l);
    idx[l] = 0;
    *options = dev[9 + l] == ':' ? dev + 10 + l : "";
    return cli_number(idx, "--device cublaslt:<gpu>", 0, 1023, gpu);
}

/* The scale words of x as bytes (read_matrix has bounded them to 8 bits). */
static uint8_t *scale_bytes(const lad_npy *x, lad_err *err)
{
    size_t n = x->shape[0] * x->shape[1];
    uint8_t *s = malloc(n + 1);
    if (s == NULL) {
        lad_errf(err, LAD_EINTERNAL, "out of memory");
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        s[i] = (uint8_t)x->w[i];
    return s;
}

/* A's and B's block scales from --sa and --sb: M x K/block and K/block x N. */
static int read_scales(const lad_datapath *dp, const char *sapath, const char *sbpath,
                       size_t M, size_t N, size_t K, uint8_t **sa, uint8_t **sb,
                       lad_err *err)
{
    lad_npy x = {0}, y = {0};
    size_t nkb = dp->scale_block ? K / (size_t)dp->scale_block : 0;
    int rc = LAD_OK;
    if (!dp->scale_block)
        rc = lad_errf(err, LAD_EDATA, "datapath '%s' has no block scales: "
                      "--sa and --sb are for block-scaled datapaths", dp->name);
    if (rc == LAD_OK)
        rc = read_matrix(sapath, &dp->sa, "SA", &x, err);
    if (rc == LAD_OK && (rc = read_matrix(sbpath, &dp->sb, "SB", &y, err)) != LAD_OK)
        lad_npy_free(&x);
    if (rc != LAD_OK)
        return rc;
    if (K % (size_t)dp->scale_block)
        rc = lad_errf(err, LAD_EDATA, "K %zu is not a multiple of the scale block %d", K,
                      dp->scale_block);
    else if (x.shape[0] != M || x.shape[1] != nkb)
        rc = lad_errf(err, LAD_EDATA, "%s is %zu x %zu, not %zu x %zu (M x K/%d)", sapath,
                      x.shape[0], x.shape[1], M, nkb, dp->scale_block);
    else if (y.shape[0] != nkb || y.shape[1] != N)
        rc = lad_errf(err, LAD_EDATA, "%s is %zu x %zu, not %zu x %zu (K/%d x N)", sbpath,
                      y.shape[0], y.shape[1], nkb, N, dp->scale_block);
    if (rc == LAD_OK && ((*sa = scale_bytes(&x, err)) == NULL ||
                         (*sb = scale_bytes(&y, err)) == NULL))
        rc = LAD_EINTERNAL;
    lad_npy_free(&x);
    lad_npy_free(&y);
    return rc;
}

static int gemm(const lad_datapath *dp, const lad_program *prog, char **pos,
                int npos, const char *sapath, const char *sbpath, const char *out,
                int threads, const char *lt, int gpu, lad_progress *pr, lad_err *err)
{
    lad_npy a, b, c = {0};
    uint8_t *sa = NULL, *sb = NULL;
    int rc = read_matrix(pos[0], &dp->a, "A", &a, err);
    if (rc == LAD_OK && (rc = read_matrix(pos[1], &dp->b, "B", &b, err)) != LAD_OK)
        lad_npy_free(&a);
    if (rc != LAD_OK)
        return rc;
    size_t M = a.shape[0], K = a.shape[1], N = b.shape[1];
    if (npos == 3)
        rc = read_matrix(pos[2], &dp->c, "C", &c, err);
    if (rc == LAD_OK && b.shape[0] != K)
        rc = lad_errf(err, LAD_EDATA, "%s is %zu x %zu but %s is %zu x %zu: B "
                      "needs %zu rows", pos[0], M, K, pos[1], b.shape[0], N, K);
    if (rc == LAD_OK && npos == 3 && (c.shape[0] != M || c.shape[1] != N))
        rc = lad_errf(err, LAD_EDATA, "%s is %zu x %zu, not %zu x %zu", pos[2],
                      c.shape[0], c.shape[1], M, N);
    /* before D's M x N words are allocated: two headers of 128 bytes with
    ** K = 0 would ask for 80 GB and fail as "out of memory" */
    if (rc == LAD_OK && K == 0)
        rc = lad_errf(err, LAD_EDATA, "%s is %zu x 0: K must be at least 1", pos[0], M);
    if (rc == LAD_OK && (M > 1u << 30 || N > 1u << 30 || K > 1u << 30))
        rc = lad_errf(err, LAD_EDATA, "matrices of more than 2^30 rows or columns");
    if (rc == LAD_OK && sapath)
        rc = read_scales(dp, sapath, sbpath, M, N, K, &sa, &sb, err);
    else if (rc == LAD_OK && dp->scale_block)
        rc = lad_errf(err, LAD_EDATA, "datapath '%s' is block-scaled: give its scales "
                      "with --sa <SA.npy> --sb <SB.npy>", dp->name);
    lad_word_t *d = NULL;
    if (rc == LAD_OK && (d = malloc((M * N + 1) * sizeof *d)) == NULL)
        rc = lad_errf(err, LAD_EINTERNAL, "out of memory");
    char info[160] = "";
    if (rc == LAD_OK && lt)
        rc = lad_cublaslt_gemm(gpu, lt, dp, (int)M, (int)N, (int)K, a.w, b.w,
                               npos == 3 ? c.w : NULL, d, info, sizeof info, err);
    else if (rc == LAD_OK) {
        lad_progress_begin(pr, "gemm %zu x %zu x %zu: %zu outputs", M, N, K, M * N);
        int nkb = sa ? (int)K / dp->scale_block : 0;
        rc = sa ? lad_gemm_scaled(dp, prog, (int)M, (int)N, (int)K, a.w, (int)K, b.w, (int)N,
                                  sa, nkb, sb, (int)N, c.w, (int)N, d, (int)N, threads,
                                  lad_progress_step, pr, err)
                : lad_gemm_with(dp, prog, (int)M, (int)N, (int)K, a.w, (int)K, b.w, (int)N,
                                c.w, (int)N, d, (int)N, threads, LAD_GEMM_AUTO,
                                lad_progress_step, pr, err);
        lad_progress_end(pr, rc);
    }
    if (rc == LAD_OK && lt)
        printf("%s\n", info);
    if (rc == LAD_OK) {
        const lad_format *f = lt ? &dp->c : lad_program_out(dp, prog);
        char kind;
        int size;
        lad_npy_dtype(f, &kind, &size);
        rc = lad_npy_write(out, kind, size, M, N, d, err);
    }
    free(d);
    free(sa);
    free(sb);
    lad_npy_free(&a);
    lad_npy_free(&b);
    lad_npy_free(&c);
    return rc;
}

int cmd_gemm(int argc, char **argv)
{
    const char *spec = NULL, *progspec = NULL, *out = NULL, *threads_s = NULL,
               *devspec = NULL, *quiet = NULL, *sapath = NULL, *sbpath = NULL;
    const cli_opt opts[] = {{"datapath", 0, 1, &spec}, {"program", 0, 1, &progspec},
                            {"output", 'o', 1, &out}, {"threads", 0, 1, &threads_s},
                            {"device", 0, 1, &devspec}, {"quiet", 'q', 0, &quiet},
                            {"sa", 0, 1, &sapath}, {"sb", 0, 1, &sbpath},
                            {NULL, 0, 0, NULL}};
    char *pos[4];
    int npos;
    int rc = cli_parse(argc, argv, opts, pos, &npos, 0, 3, NULL);
    if (rc)
        return rc == CLI_HELP ? 0 : rc;
    if (spec == NULL)
        return cli_usage_error("gemm needs --datapath <preset or model file>");
    if (npos < 2)
        return cli_usage_error("gemm needs <A.npy> and <B.npy>");
    if (out == NULL)
        return cli_usage_error("gemm needs -o <D.npy>");
    static const char *const names[] = {"A", "B", "C"};
    for (int i = 0; i < npos; i++)
        if ((rc = cli_output_ok(out, names[i], pos[i])) != LAD_OK)
            return rc;
    if ((rc = cli_output_ok(out, "the datapath's model file", spec)) != LAD_OK ||
        (rc = cli_output_ok(out, "the program's file", progspec)) != LAD_OK ||
        (rc = cli_output_ok(out, "SA", sapath)) != LAD_OK ||
        (rc = cli_output_ok(out, "SB", sbpath)) != LAD_OK)
        return rc;
    static const char *const exts[] = {"npy", NULL};
    if ((rc = cli_output_kind("gemm", out, exts, 0, NULL)) != LAD_OK)
        return rc;
    if (!sapath != !sbpath)
        return cli_usage_error("gemm takes --sa and --sb together");
    if (sapath && devspec)
        return cli_usage_error("gemm takes block scales on the model only, not with --device");
    uint64_t threads = 0;
    if (threads_s && (rc = cli_number(threads_s, "--threads", 0, 1024, &threads)) != LAD_OK)
        return rc;
    uint64_t gpu = 0;
    const char *lt = NULL;
    if (devspec && progspec)
        return cli_usage_error("gemm takes --program or --device, not both (the device "
                               "runs its own kernel)");
    if (devspec && (rc = lt_spec(devspec, &gpu, &lt)) != 0)
        return rc;

    lad_err err = {0};
    lad_datapath dp;
    lad_program prog;
    lad_program_init(&prog);
    rc = lad_model_resolve(spec, &dp, &err);
    if (rc == LAD_OK)
        rc = lad_datapath_check(&dp, &err);
    if (rc == LAD_OK && progspec)
        rc = lad_program_resolve(progspec, &prog, &err);
    lad_progress pr;
    lad_progress_init(&pr, quiet != NULL);
    if (rc == LAD_OK)
        rc = gemm(&dp, &prog, pos, npos, sapath, sbpath, out, (int)threads, lt, (int)gpu,
                  &pr, &err);
    lad_progress_free(&pr);
    return rc == LAD_OK ? 0 : cli_report(&err);
}
