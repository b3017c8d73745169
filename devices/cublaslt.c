/*
** The cublaslt device: D = A * B + C through cublasLtMatmul, so that a
** library GEMM can be probed like an instruction (its summation tree with
** the sumtree rung, random validation). A batch of n cases is one n x n x K
** GEMM: case i is row i of A and column i of B, C holds each case's C on
** the diagonal and zeros elsewhere (beta = 1), and the diagonal of D is
** read back as raw words. A is given transposed (K x n, column-major, "TN"),
** the layout cuBLASLt requires of fp8.
**
** Options, comma-separated after the GPU index:
**   compute=32f|32f_fast_tf32|32f_fast_16bf|32f_fast_16f|32f_pedantic|16f
**                        the compute type (default 32f)
**   fast_accum=0|1       CUBLASLT_MATMUL_DESC_FAST_ACCUM (fp8; default 0)
**   split_k=N            CUBLASLT_ALGO_CONFIG_SPLITK_NUM set on the first
**                        heuristic algorithm that accepts it (default: the
**                        heuristic's own choice)
**
** libcudart and libcublasLt are loaded with dlopen when the device opens
** (from the library path, then from the toolkit the build found), so the
** ladder binary needs no CUDA library to start, as the cuda device does.
** Every failure is an error naming the call; nothing here touches a word
** with host floating point (alpha and beta are the API's own 1.0f).
*/
#include "cublaslt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef LADDER_CUBLASLT
#include <dlfcn.h>
#include <cublasLt.h>
#include <cuda_runtime_api.h>

#ifndef LADDER_CUDA_LIB
#define LADDER_CUDA_LIB "/usr/local/cuda/lib64"
#endif

#define BATCH 256 /* cases per GEMM: D is BATCH x BATCH */

/* The calls used, resolved by name; the test t6020 checks that
** libcublasLt and libcudart export each one. */
#define RT_CALLS(X)                                                            \
    X(cudaGetDeviceCount) X(cudaSetDevice) X(cudaMalloc) X(cudaFree)           \
    X(cudaMemcpy) X(cudaDeviceSynchronize) X(cudaGetErrorString)               \
    X(cudaDeviceGetAttribute) X(cudaRuntimeGetVersion) X(cudaDriverGetVersion)
#define LT_CALLS(X)                                                            \
    X(cublasLtCreate) X(cublasLtDestroy) X(cublasLtGetVersion)                 \
    X(cublasLtMatmulDescCreate) X(cublasLtMatmulDescDestroy)                   \
    X(cublasLtMatmulDescSetAttribute) X(cublasLtMatrixLayoutCreate)            \
    X(cublasLtMatrixLayoutDestroy) X(cublasLtMatmulPreferenceCreate)           \
    X(cublasLtMatmulPreferenceDestroy) X(cublasLtMatmulPreferenceSetAttribute) \
    X(cublasLtMatmulAlgoGetHeuristic) X(cublasLtMatmulAlgoConfigSetAttribute)  \
    X(cublasLtMatmulAlgoConfigGetAttribute) X(cublasLtMatmulAlgoCheck)          \
    X(cublasLtMatmul)

typedef struct api {
#define FIELD(f) __typeof__(&f) f;
    RT_CALLS(FIELD) LT_CALLS(FIELD)
#undef FIELD
    void *rt, *lt;
} api;

typedef struct lt_state {
    api f;
    cublasLtHandle_t h;
    cublasLtMatmulDesc_t op;
    cublasLtMatrixLayout_t la, lb, lc;
    cublasLtMatmulAlgo_t algo;
    cudaDataType_t ta, tb, tc;
    int k, wa, wb, wc;           /* K, bytes per A, B, C/D word */
    void *da, *db, *dc, *dd;     /* device buffers of one batch */
    unsigned char *ha, *hb, *hc; /* host buffers of one batch */
} lt_state;

static void *open_lib(const char *const *names)
{
    for (const char *const *n = names; *n; n++) {
        void *h = dlopen(*n, RTLD_NOW | RTLD_LOCAL);
        char path[512];
        if (h == NULL && snprintf(path, sizeof path, "%s/%s", LADDER_CUDA_LIB, *n) <
                             (int)sizeof path)
            h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        if (h)
            return h;
    }
    return NULL;
}

static int load(api *f, lad_err *err)
{
    static const char *const rt[] = {"libcudart.so", "libcudart.so.13", "libcudart.so.12",
                                     NULL};
    static const char *const lt[] = {"libcublasLt.so", "libcublasLt.so.13",
                                     "libcublasLt.so.12", NULL};
    if ((f->rt = open_lib(rt)) == NULL || (f->lt = open_lib(lt)) == NULL)
        return lad_errf(err, LAD_EDEVICE, "cannot load %s (%s)",
                        f->rt ? "libcublasLt.so" : "libcudart.so", dlerror());
#define RESOLVE(name, lib)                                                      \
    if ((*(void **)&f->name = dlsym(f->lib, #name)) == NULL)                    \
        return lad_errf(err, LAD_EDEVICE, "no '%s' in the CUDA libraries", #name);
#define RT(name) RESOLVE(name, rt)
#define LT(name) RESOLVE(name, lt)
    RT_CALLS(RT)
    LT_CALLS(LT)
    return LAD_OK;
}

/* The cuBLASLt type of a format: 0 and *t set, or -1. */
static int type_of(const lad_format *fm, cudaDataType_t *t, int *bytes)
{
    static const struct {
        const char *name;
        cudaDataType_t t;
        int bytes;
    } m[] = {{"f32", CUDA_R_32F, 4},     {"tf32", CUDA_R_32F, 4},      {"f16", CUDA_R_16F, 2},
             {"bf16", CUDA_R_16BF, 2},   {"e4m3", CUDA_R_8F_E4M3, 1},  {"e5m2", CUDA_R_8F_E5M2, 1},
             {"s8", CUDA_R_8I, 1},       {"s32", CUDA_R_32I, 4}};
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++)
        if (strcmp(fm->name, m[i].name) == 0) {
            *t = m[i].t;
            *bytes = m[i].bytes;
            return 0;
        }
    return -1;
}

typedef struct opts {
    cublasComputeType_t compute;
    int fast_accum;
    int split_k; /* 0: the heuristic's */
} opts;

static int parse_opts(const char *s, opts *o, lad_err *err)
{
    static const struct {
        const char *name;
        cublasComputeType_t t;
    } ct[] = {{"32f", CUBLAS_COMPUTE_32F},
              {"32f_fast_tf32", CUBLAS_COMPUTE_32F_FAST_TF32},
              {"32f_fast_16bf", CUBLAS_COMPUTE_32F_FAST_16BF},
              {"32f_fast_16f", CUBLAS_COMPUTE_32F_FAST_16F},
              {"32f_pedantic", CUBLAS_COMPUTE_32F_PEDANTIC},
              {"16f", CUBLAS_COMPUTE_16F},
              {"32i", CUBLAS_COMPUTE_32I}};
    *o = (opts){CUBLAS_COMPUTE_32F, 0, 0};
    while (*s) {
        char item[64];
        size_t l = strcspn(s, ",");
        if (l >= sizeof item)
            return lad_errf(err, LAD_EUSAGE, "cublaslt option '%.40s...' too long", s);
        memcpy(item, s, l);
        item[l] = 0;
        s += l + (s[l] == ',');
        char *v = strchr(item, '=');
        int ok = 0;
        if (v) {
            *v++ = 0;
            char *end;
            long x = strtol(v, &end, 10);
            if (strcmp(item, "compute") == 0) {
                for (size_t i = 0; i < sizeof ct / sizeof ct[0] && !ok; i++)
                    if (strcmp(v, ct[i].name) == 0) {
                        o->compute = ct[i].t;
                        ok = 1;
                    }
            } else if (strcmp(item, "fast_accum") == 0 && *v && !*end && (x == 0 || x == 1)) {
                o->fast_accum = (int)x;
                ok = 1;
            } else if (strcmp(item, "split_k") == 0 && *v && !*end && x >= 1 && x <= 256) {
                o->split_k = (int)x;
                ok = 1;
            }
        }
        if (!ok)
            return lad_errf(err, LAD_EUSAGE, "bad cublaslt option '%s%s%s' (expected compute=..., "
                            "fast_accum=0|1 or split_k=1..256)", item, v ? "=" : "", v ? v : "");
    }
    return LAD_OK;
}

static void lt_close(lad_device *dev)
{
    lt_state *st = dev->state;
    if (st) {
        api *f = &st->f;
        if (f->cudaFree) {
            f->cudaFree(st->da);
            f->cudaFree(st->db);
            f->cudaFree(st->dc);
            f->cudaFree(st->dd);
        }
        if (st->la)
            f->cublasLtMatrixLayoutDestroy(st->la);
        if (st->lb)
            f->cublasLtMatrixLayoutDestroy(st->lb);
        if (st->lc)
            f->cublasLtMatrixLayoutDestroy(st->lc);
        if (st->op)
            f->cublasLtMatmulDescDestroy(st->op);
        if (st->h)
            f->cublasLtDestroy(st->h);
        free(st->ha);
        free(st->hb);
        free(st->hc);
        /* the libraries stay loaded: unloading the CUDA runtime is not safe */
        free(st);
    }
    free(dev);
}

static void put(unsigned char *p, int bytes, lad_word_t w)
{
    for (int i = 0; i < bytes; i++)
        p[i] = (unsigned char)(w >> (8 * i));
}

static lad_word_t get(const unsigned char *p, int bytes)
{
    lad_word_t w = 0;
    for (int i = 0; i < bytes; i++)
        w |= (lad_word_t)p[i] << (8 * i);
    return w;
}

static int lt_eval(lad_device *dev, const lad_case *cs, size_t n, lad_word_t *d,
                   size_t *done, lad_err *err)
{
    lt_state *st = dev->state;
    api *f = &st->f;
    const float one = 1.0f;
    for (size_t at = 0; at < n; at += BATCH) {
        size_t m = n - at < BATCH ? n - at : BATCH;
        memset(st->ha, 0, (size_t)BATCH * st->k * st->wa);
        memset(st->hb, 0, (size_t)BATCH * st->k * st->wb);
        memset(st->hc, 0, (size_t)BATCH * BATCH * st->wc);
        for (size_t i = 0; i < m; i++) {
            for (int k = 0; k < st->k; k++) {
                put(st->ha + ((size_t)i * st->k + k) * st->wa, st->wa, cs[at + i].a[k]);
                put(st->hb + ((size_t)i * st->k + k) * st->wb, st->wb, cs[at + i].b[k]);
            }
            put(st->hc + (i * BATCH + i) * st->wc, st->wc, cs[at + i].c);
        }
        cudaError_t e;
        cublasStatus_t s = CUBLAS_STATUS_SUCCESS;
        if ((e = f->cudaMemcpy(st->da, st->ha, (size_t)BATCH * st->k * st->wa,
                               cudaMemcpyHostToDevice)) ||
            (e = f->cudaMemcpy(st->db, st->hb, (size_t)BATCH * st->k * st->wb,
                               cudaMemcpyHostToDevice)) ||
            (e = f->cudaMemcpy(st->dc, st->hc, (size_t)BATCH * BATCH * st->wc,
                               cudaMemcpyHostToDevice)))
            return lad_errf(err, LAD_EDEVICE, "cudaMemcpy: %s", f->cudaGetErrorString(e));
        if ((s = f->cublasLtMatmul(st->h, st->op, &one, st->da, st->la, st->db, st->lb, &one,
                                   st->dc, st->lc, st->dd, st->lc, &st->algo, NULL, 0, 0)))
            return lad_errf(err, LAD_EDEVICE, "cublasLtMatmul: status %d, cases %zu..%zu",
                            (int)s, at, at + m - 1);
        if ((e = f->cudaDeviceSynchronize()) ||
            (e = f->cudaMemcpy(st->hc, st->dd, (size_t)BATCH * BATCH * st->wc,
                               cudaMemcpyDeviceToHost)))
            return lad_errf(err, LAD_EDEVICE, "cublaslt: %s", f->cudaGetErrorString(e));
        for (size_t i = 0; i < m; i++)
            d[at + i] = get(st->hc + (i * BATCH + i) * st->wc, st->wc);
        *done = at + m;
    }
    return LAD_OK;
}

/* Creates the descriptors of an m x n x K GEMM (K = st->k) and picks the
** algorithm (split_k applied) among those that fit `workspace` bytes. */
static int setup(lt_state *st, const opts *o, int m, int n, size_t workspace,
                 lad_err *err)
{
    api *f = &st->f;
    cublasStatus_t s;
    cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
    int8_t fast = (int8_t)o->fast_accum;
    cudaDataType_t scale = o->compute == CUBLAS_COMPUTE_16F ? CUDA_R_16F : CUDA_R_32F;
    if (scale == CUDA_R_16F || o->compute == CUBLAS_COMPUTE_32I)
        return lad_errf(err, LAD_EUSAGE, "cublaslt: compute type with a non-f32 scale "
                        "is not supported here");
    if ((s = f->cublasLtCreate(&st->h)) ||
        (s = f->cublasLtMatmulDescCreate(&st->op, o->compute, scale)) ||
        (s = f->cublasLtMatmulDescSetAttribute(st->op, CUBLASLT_MATMUL_DESC_TRANSA, &ta,
                                               sizeof ta)) ||
        (s = f->cublasLtMatmulDescSetAttribute(st->op, CUBLASLT_MATMUL_DESC_TRANSB, &tb,
                                               sizeof tb)) ||
        (s = f->cublasLtMatmulDescSetAttribute(st->op, CUBLASLT_MATMUL_DESC_FAST_ACCUM, &fast,
                                               sizeof fast)) ||
        (s = f->cublasLtMatrixLayoutCreate(&st->la, st->ta, st->k, m, st->k)) ||
        (s = f->cublasLtMatrixLayoutCreate(&st->lb, st->tb, st->k, n, st->k)) ||
        (s = f->cublasLtMatrixLayoutCreate(&st->lc, st->tc, m, n, m)))
        return lad_errf(err, LAD_EDEVICE, "cublaslt: descriptors: status %d", (int)s);
    cublasLtMatmulPreference_t pref;
    cublasLtMatmulHeuristicResult_t r[16];
    int nr = 0;
    if ((s = f->cublasLtMatmulPreferenceCreate(&pref)) ||
        (s = f->cublasLtMatmulPreferenceSetAttribute(pref,
                 CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspace, sizeof workspace)))
        return lad_errf(err, LAD_EDEVICE, "cublaslt: preference: status %d", (int)s);
    s = f->cublasLtMatmulAlgoGetHeuristic(st->h, st->op, st->la, st->lb, st->lc, st->lc, pref,
                                          16, r, &nr);
    f->cublasLtMatmulPreferenceDestroy(pref);
    if (s || nr == 0)
        return lad_errf(err, LAD_EDEVICE, "cublaslt: no algorithm for %s x %s, K %d "
                        "(status %d)", "A", "B", st->k, (int)s);
    for (int i = 0; i < nr; i++) {
        cublasLtMatmulAlgo_t a = r[i].algo;
        cublasLtMatmulHeuristicResult_t chk;
        if (o->split_k) {
            uint32_t sk = (uint32_t)o->split_k;
            if (f->cublasLtMatmulAlgoConfigSetAttribute(&a, CUBLASLT_ALGO_CONFIG_SPLITK_NUM,
                                                        &sk, sizeof sk) ||
                f->cublasLtMatmulAlgoCheck(st->h, st->op, st->la, st->lb, st->lc, st->lc, &a,
                                           &chk) ||
                chk.workspaceSize > workspace)
                continue;
        }
        st->algo = a;
        return LAD_OK;
    }
    return lad_errf(err, LAD_EDEVICE, "cublaslt: no algorithm of the %d the heuristic offers "
                    "takes split_k=%d within a workspace of %zu bytes", nr, o->split_k,
                    workspace);
}

/* What opening a device and running one GEMM both do first: options into
** *o, the state and the device that owns it allocated (K lanes, the type of
** each operand), the libraries loaded and GPU index found. On failure
** nothing is left allocated and *stp, *devp are NULL. */
static int lt_begin(int index, const char *options, const lad_datapath *dp, int k, opts *o,
                    lt_state **stp, lad_device **devp, lad_err *err)
{
    *stp = NULL;
    *devp = NULL;
    int rc = parse_opts(options, o, err);
    if (rc)
        return rc;
    lt_state *st = calloc(1, sizeof *st);
    lad_device *dev = calloc(1, sizeof *dev);
    if (st == NULL || dev == NULL) {
        free(st);
        free(dev);
        return lad_errf(err, LAD_EINTERNAL, "out of memory");
    }
    dev->state = st;
    dev->close = lt_close;
    if (type_of(&dp->a, &st->ta, &st->wa) || type_of(&dp->b, &st->tb, &st->wb) ||
        type_of(&dp->c, &st->tc, &st->wc) || dp->c.width != dp->d.width ||
        strcmp(dp->c.name, dp->d.name) || lad_datapath_nscales(dp) || dp->sparse) {
        rc = lad_errf(err, LAD_EUSAGE, "cublaslt: no GEMM of %s x %s + %s -> %s (dense, "
                      "unscaled, C and D of one format)", dp->a.name, dp->b.name, dp->c.name,
                      dp->d.name);
        goto fail;
    }
    st->k = k;
    if ((rc = load(&st->f, err)))
        goto fail;
    int count = 0;
    cudaError_t e = st->f.cudaGetDeviceCount(&count);
    if (e != cudaSuccess || index >= count) {
        rc = lad_errf(err, LAD_EDEVICE, "no CUDA device %d (%s)", index,
                      e != cudaSuccess ? st->f.cudaGetErrorString(e) : "too few GPUs");
        goto fail;
    }
    *stp = st;
    *devp = dev;
    return LAD_OK;
fail:
    lt_close(dev);
    return rc;
}

int lad_cublaslt_open(int index, const char *options, const lad_datapath *dp,
                      lad_device **out, lad_err *err)
{
    *out = NULL;
    opts o;
    lt_state *st;
    lad_device *dev;
    int rc = lt_begin(index, options, dp, dp->k, &o, &st, &dev, err);
    if (rc)
        return rc;
    cudaError_t e;
    if ((e = st->f.cudaSetDevice(index))) {
        rc = lad_errf(err, LAD_EDEVICE, "cudaSetDevice(%d): %s", index,
                      st->f.cudaGetErrorString(e));
        goto fail;
    }
    size_t sa = (size_t)BATCH * st->k * st->wa, sb = (size_t)BATCH * st->k * st->wb,
           sc = (size_t)BATCH * BATCH * st->wc;
    st->ha = malloc(sa);
    st->hb = malloc(sb);
    st->hc = malloc(sc);
    if (!st->ha || !st->hb || !st->hc) {
        rc = lad_errf(err, LAD_EINTERNAL, "out of memory");
        goto fail;
    }
    if ((e = st->f.cudaMalloc(&st->da, sa)) || (e = st->f.cudaMalloc(&st->db, sb)) ||
        (e = st->f.cudaMalloc(&st->dc, sc)) || (e = st->f.cudaMalloc(&st->dd, sc))) {
        rc = lad_errf(err, LAD_EDEVICE, "cudaMalloc: %s", st->f.cudaGetErrorString(e));
        goto fail;
    }
    if ((rc = setup(st, &o, BATCH, BATCH, 0, err)))
        goto fail;
    int major = 0, minor = 0, rt = 0, drv = 0;
    st->f.cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, index);
    st->f.cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, index);
    st->f.cudaRuntimeGetVersion(&rt);
    st->f.cudaDriverGetVersion(&drv);
    strcpy(dev->info.kind, "cublaslt");
    snprintf(dev->info.name, sizeof dev->info.name, "cublasLt %zu on GPU %d%s%s",
             st->f.cublasLtGetVersion(), index, *options ? ": " : "", options);
    dev->info.cc = major * 10 + minor;
    snprintf(dev->info.driver, sizeof dev->info.driver, "%d", drv);
    snprintf(dev->info.toolkit, sizeof dev->info.toolkit, "%d", rt);
    dev->dp = dp;
    dev->eval = lt_eval;
    *out = dev;
    return LAD_OK;
fail:
    lt_close(dev);
    return rc;
}

#define GEMM_WORKSPACE ((size_t)64 << 20) /* what cuBLASLt may use for split-K */

int lad_cublaslt_gemm(int index, const char *options, const lad_datapath *dp, int m, int n,
                      int k, const lad_word_t *A, const lad_word_t *B, const lad_word_t *C,
                      lad_word_t *D, char *info, size_t infosize, lad_err *err)
{
    opts o;
    lt_state *st;
    lad_device *dev; /* only for lt_close */
    void *dw = NULL;
    int rc = lt_begin(index, options, dp, k, &o, &st, &dev, err);
    if (rc)
        return rc;
    api *f = &st->f;
    cudaError_t e;
    /* cuBLASLt is column-major and wants fp8 "TN": A as K x M (the
    ** row-major A as it is), B as K x N (B transposed here), C and D as
    ** M x N (transposed in and out). */
    size_t sa = (size_t)m * k * st->wa, sb = (size_t)k * n * st->wb, sc = (size_t)m * n * st->wc;
    st->ha = malloc(sa ? sa : 1);
    st->hb = malloc(sb ? sb : 1);
    st->hc = calloc(1, sc ? sc : 1);
    if (!st->ha || !st->hb || !st->hc) {
        rc = lad_errf(err, LAD_EINTERNAL, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < (size_t)m * k; i++)
        put(st->ha + i * st->wa, st->wa, A[i]);
    for (int kk = 0; kk < k; kk++)
        for (int j = 0; j < n; j++)
            put(st->hb + ((size_t)j * k + kk) * st->wb, st->wb, B[(size_t)kk * n + j]);
    if (C)
        for (int i = 0; i < m; i++)
            for (int j = 0; j < n; j++)
                put(st->hc + ((size_t)j * m + i) * st->wc, st->wc, C[(size_t)i * n + j]);
    if ((e = f->cudaSetDevice(index)) || (e = f->cudaMalloc(&st->da, sa)) ||
        (e = f->cudaMalloc(&st->db, sb)) || (e = f->cudaMalloc(&st->dc, sc)) ||
        (e = f->cudaMalloc(&st->dd, sc)) || (e = f->cudaMalloc(&dw, GEMM_WORKSPACE)) ||
        (e = f->cudaMemcpy(st->da, st->ha, sa, cudaMemcpyHostToDevice)) ||
        (e = f->cudaMemcpy(st->db, st->hb, sb, cudaMemcpyHostToDevice)) ||
        (e = f->cudaMemcpy(st->dc, st->hc, sc, cudaMemcpyHostToDevice))) {
        rc = lad_errf(err, LAD_EDEVICE, "cublaslt: %s", f->cudaGetErrorString(e));
        goto done;
    }
    if ((rc = setup(st, &o, m, n, GEMM_WORKSPACE, err)))
        goto done;
    const float one = 1.0f;
    cublasStatus_t s = f->cublasLtMatmul(st->h, st->op, &one, st->da, st->la, st->db, st->lb,
                                         &one, st->dc, st->lc, st->dd, st->lc, &st->algo, dw,
                                         GEMM_WORKSPACE, 0);
    if (s) {
        rc = lad_errf(err, LAD_EDEVICE, "cublasLtMatmul: status %d (%d x %d x %d)", (int)s, m,
                      n, k);
        goto done;
    }
    if ((e = f->cudaDeviceSynchronize()) ||
        (e = f->cudaMemcpy(st->hc, st->dd, sc, cudaMemcpyDeviceToHost))) {
        rc = lad_errf(err, LAD_EDEVICE, "cublaslt: %s", f->cudaGetErrorString(e));
        goto done;
    }
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++)
            D[(size_t)i * n + j] = get(st->hc + ((size_t)j * m + i) * st->wc, st->wc);
    /* what the heuristic chose */
    int id = -1;
    uint32_t splitk = 0, red = 0;
    size_t got;
    f->cublasLtMatmulAlgoConfigGetAttribute(&st->algo, CUBLASLT_ALGO_CONFIG_ID, &id, sizeof id,
                                            &got);
    f->cublasLtMatmulAlgoConfigGetAttribute(&st->algo, CUBLASLT_ALGO_CONFIG_SPLITK_NUM, &splitk,
                                            sizeof splitk, &got);
    f->cublasLtMatmulAlgoConfigGetAttribute(&st->algo, CUBLASLT_ALGO_CONFIG_REDUCTION_SCHEME,
                                            &red, sizeof red, &got);
    snprintf(info, infosize, "cublasLt %zu: algo %d, split-K %u, reduction scheme %u",
             f->cublasLtGetVersion(), id, splitk, red);
    rc = LAD_OK;
done:
    if (dw && st->f.cudaFree)
        st->f.cudaFree(dw);
    lt_close(dev);
    return rc;
}

#else

int lad_cublaslt_gemm(int index, const char *options, const lad_datapath *dp, int m, int n,
                      int k, const lad_word_t *A, const lad_word_t *B, const lad_word_t *C,
                      lad_word_t *D, char *info, size_t infosize, lad_err *err)
{
    (void)index; (void)options; (void)dp; (void)m; (void)n; (void)k;
    (void)A; (void)B; (void)C; (void)D; (void)info; (void)infosize;
    return lad_errf(err, LAD_EDEVICE, "no cuBLASLt device support built (the CUDA "
                    "toolkit's cublasLt.h was not found at build time)");
}

int lad_cublaslt_open(int index, const char *options, const lad_datapath *dp,
                      lad_device **out, lad_err *err)
{
    (void)index;
    (void)options;
    (void)dp;
    *out = NULL;
    return lad_errf(err, LAD_EDEVICE, "no cuBLASLt device support built (the CUDA "
                    "toolkit's cublasLt.h was not found at build time)");
}

#endif
