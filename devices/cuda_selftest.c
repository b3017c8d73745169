/*
** The hardware self-test of the cuda device: run every kernel the GPU can
** execute against answers known without any model, then against the
** presets, then the device itself. It lives here, beside devices/cuda.c,
** because it tests both layers: kernels/ stays below devices/ and never
** includes it. A program of its own, not library code (the Makefile keeps
** it out of LIB_SRC; kernels/kernels.mk builds it).
**
**   make kernels-selftest && build/rel/kernels/selftest [GPU] [OUTDIR]
**
** Like llm.c's CUDA files, it checks before it times:
**   1. every row of the kernel table is either refused with a reason or
**      runs the opcode its cubin holds (kernels/cubin.c);
**   2. cases of small integers, whose exact result every datapath must
**      return, come back exactly, one case per row of A and column of B
**      (integer kernels: random full-range bytes, exact s32 sums);
**   3. a whole tile of such integers (every element different) comes back
**      exactly at every one of the M x N places: a layout check on hardware;
**   4. random raw words are compared with the preset of the GPU's
**      architecture (a finding, not a pass/fail: printed as counts), and
**      written as vector lines to OUTDIR/captures.txt when OUTDIR is given;
**   5. 1,000,000 cases are timed through two kernels.
** Then it opens the cuda device (devices/cuda.c) for a preset and runs a
** batch through lad_device's interface. Exit status 0 when 1-3 and the
** device pass, 1 otherwise, 4 when there is no GPU.
*/
#include "cuda.h"
#include "../kernels/kernels.h"
#include "../kernels/cubin.h"
#include "../model/presets.h"

#include <stdarg.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int failures;

static uint64_t rng = 0x2545f4914f6cdd1dull;
static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 11);
}

static void result(int ok, const char *what, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void result(int ok, const char *what, const char *name, const char *fmt, ...)
{
    va_list ap;
    printf("%s %s %s", ok ? "ok  " : "FAIL", what, name);
    if (fmt && *fmt) {
        printf(": ");
        va_start(ap, fmt);
        vprintf(fmt, ap);
        va_end(ap);
    }
    printf("\n");
    if (!ok)
        failures++;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The word of integer v in format f (exact for the small values used). */
static uint32_t enc(const lad_format *f, long v)
{
    if (f->kind == LAD_INT)
        return (uint32_t)v & (f->width >= 32 ? 0xffffffffu : (1u << f->width) - 1);
    return lad_round_value(f, v < 0, (lad_u128)(v < 0 ? -v : v), 0, 0, LAD_RNE,
                           LAD_OVF_INF, NULL);
}

static long sval(const lad_format *f, uint32_t w)
{
    if (f->sign && (w >> (f->width - 1)) & 1)
        return (long)w - (1L << f->width);
    return (long)w;
}

/* Small-integer value range of a format (exact products and sums). */
static int small_max(const lad_format *f)
{
    return f->kind == LAD_INT ? 0 : f->mbits >= 2 ? 3 : 2;
}

/* Draws one operand element and its integer value. */
static uint32_t draw(const lad_format *f, long *v)
{
    if (f->kind == LAD_INT) {
        uint32_t w = rnd() & 0xff;
        *v = sval(f, w);
        return w;
    }
    int m = small_max(f);
    *v = (long)(rnd() % (unsigned)(2 * m + 1)) - m;
    return enc(f, *v);
}

static uint32_t expect_int(const lad_kernel *k, long long sum)
{
    if (k->saturate) {
        if (sum > 2147483647LL)
            sum = 2147483647LL;
        if (sum < -2147483648LL)
            sum = -2147483648LL;
    }
    return (uint32_t)(unsigned long long)sum;
}

static void exact_cases(lad_gpu *g, const lad_kernel *k)
{
    const lad_format *fa = lad_format_find(k->a), *fb = lad_format_find(k->b);
    const lad_format *fd = lad_format_find(k->d);
    size_t n = 4093; /* a last tile that is not full */
    lad_case *cs = calloc(n, sizeof *cs);
    lad_word_t *want = calloc(n, sizeof *want), *got = calloc(n, sizeof *got);
    int integer = fd->kind == LAD_INT;
    for (size_t i = 0; i < n; i++) {
        long long sum = 0;
        for (int kk = 0; kk < k->k; kk++) {
            long va, vb;
            cs[i].a[kk] = draw(fa, &va);
            cs[i].b[kk] = draw(fb, &vb);
            sum += (long long)va * vb;
        }
        long c = integer ? (long)(int32_t)rnd() : (long)(rnd() % 129) - 64;
        cs[i].c = integer ? (uint32_t)c : enc(fd, c);
        for (int s = 0; s < LAD_SCALEMAX; s++) /* 1.0 in either scale format */
            cs[i].sa[s] = cs[i].sb[s] = strcmp(k->scale, "ue4m3") == 0 ? 0x38 : 0x7f;
        sum += c;
        want[i] = integer ? expect_int(k, sum) : enc(fd, (long)sum);
    }
    lad_err err = {0};
    int rc = lad_gpu_run_cases(g, k, cs, n, 1, got, &err);
    size_t bad = n, nbad = 0;
    for (size_t i = 0; rc == LAD_OK && i < n; i++)
        if (got[i] != want[i]) {
            if (bad == n)
                bad = i;
            nbad++;
        }
    if (rc != LAD_OK)
        result(0, "exact-cases", k->name, "%s", err.msg);
    else if (nbad)
        result(0, "exact-cases", k->name,
               "%zu of %zu wrong; case %zu: got 0x%08" PRIx64 " want 0x%08" PRIx64, nbad, n,
               bad, got[bad], want[bad]);
    else
        result(1, "exact-cases", k->name, "%zu cases", n);
    free(cs);
    free(want);
    free(got);
}

static void exact_tile(lad_gpu *g, const lad_kernel *k)
{
    const lad_format *fa = lad_format_find(k->a), *fb = lad_format_find(k->b);
    const lad_format *fd = lad_format_find(k->d);
    lad_layout L;
    lad_err err = {0};
    lad_kernel_layout(k, &L, &err);
    int M = L.m, N = L.n, K = L.k, integer = fd->kind == LAD_INT;
    static uint32_t A[128 * 64], B[64 * 8], C[128 * 8], D[128 * 8];
    static long VA[128 * 64], VB[64 * 8], VC[128 * 8];
    static uint8_t SA[128 * 4], SB[8 * 4];
    for (int i = 0; i < M * K; i++)
        A[i] = draw(fa, &VA[i]);
    for (int i = 0; i < K * N; i++)
        B[i] = draw(fb, &VB[i]);
    for (int i = 0; i < M * N; i++) {
        VC[i] = integer ? (long)(int32_t)rnd() : (long)(rnd() % 129) - 64;
        C[i] = integer ? (uint32_t)VC[i] : enc(fd, VC[i]);
    }
    memset(SA, strcmp(k->scale, "ue4m3") == 0 ? 0x38 : 0x7f, sizeof SA);
    memset(SB, strcmp(k->scale, "ue4m3") == 0 ? 0x38 : 0x7f, sizeof SB);
    int rc = lad_gpu_run_tile(g, k, A, B, C, SA, SB, 1, D, &err);
    int nbad = 0, br = -1, bc = -1;
    uint32_t bw = 0, bg = 0;
    for (int r = 0; rc == LAD_OK && r < M; r++)
        for (int col = 0; col < N; col++) {
            long long sum = VC[r * N + col];
            for (int kk = 0; kk < K; kk++)
                sum += (long long)VA[r * K + kk] * VB[kk * N + col];
            uint32_t w = integer ? expect_int(k, sum) : enc(fd, (long)sum);
            if (D[r * N + col] != w) {
                if (nbad++ == 0) {
                    br = r;
                    bc = col;
                    bw = w;
                    bg = D[r * N + col];
                }
            }
        }
    if (rc != LAD_OK)
        result(0, "exact-tile", k->name, "%s", err.msg);
    else if (nbad)
        result(0, "exact-tile", k->name,
               "%d of %d wrong; D[%d][%d] got 0x%08x want 0x%08x", nbad, M * N,
               br, bc, bg, bw);
    else
        result(1, "exact-tile", k->name, "%dx%d", M, N);
}

/* The preset of this architecture whose kernel is k, or NULL. */
static const lad_datapath *preset_for(const lad_kernel *k, const char *arch)
{
    for (int i = 0; i < lad_preset_count(); i++) {
        const lad_datapath *dp = &lad_preset_get(i)->dp;
        const lad_kernel *pk;
        lad_err err = {0};
        if (strcmp(dp->arch, arch) != 0 || dp->sparse)
            continue;
        if (lad_kernel_for(dp, &pk, &err) == LAD_OK && pk == k)
            return dp;
    }
    return NULL;
}

static void hex(FILE *f, uint32_t w, int bits)
{
    fprintf(f, "%0*x", (bits + 3) / 4, w);
}

static void random_vs_preset(lad_gpu *g, const lad_kernel *k, const char *arch,
                             FILE *cap)
{
    const lad_datapath *dp = preset_for(k, arch);
    const lad_format *fa = lad_format_find(k->a), *fb = lad_format_find(k->b);
    const lad_format *fd = lad_format_find(k->d);
    size_t n = 65536;
    lad_case *cs = calloc(n, sizeof *cs);
    lad_word_t *got = calloc(n, sizeof *got);
    for (size_t i = 0; i < n; i++) {
        for (int kk = 0; kk < k->k; kk++) {
            cs[i].a[kk] = rnd() & (fa->width >= 32 ? ~0u : (1u << fa->width) - 1);
            cs[i].b[kk] = rnd() & (fb->width >= 32 ? ~0u : (1u << fb->width) - 1);
        }
        cs[i].c = rnd() & (fd->width >= 32 ? ~0u : (1u << fd->width) - 1);
        for (int s = 0; s < LAD_SCALEMAX; s++) {
            cs[i].sa[s] = (uint8_t)(0x70 + rnd() % 32);
            cs[i].sb[s] = (uint8_t)(0x70 + rnd() % 32);
        }
    }
    lad_err err = {0};
    if (lad_gpu_run_cases(g, k, cs, n, 1, got, &err) != LAD_OK) {
        result(0, "random", k->name, "%s", err.msg);
        goto out;
    }
    if (cap) {
        for (size_t i = 0; i < 1000; i++) {
            fprintf(cap, "%s;", k->name);
            for (int kk = 0; kk < k->k; kk++) {
                fputs(kk ? "," : "", cap);
                hex(cap, cs[i].a[kk], fa->width);
            }
            fputc(';', cap);
            for (int kk = 0; kk < k->k; kk++) {
                fputs(kk ? "," : "", cap);
                hex(cap, cs[i].b[kk], fb->width);
            }
            fputc(';', cap);
            hex(cap, cs[i].c, fd->width);
            fputc(';', cap);
            hex(cap, got[i], fd->width);
            fputc('\n', cap);
        }
    }
    if (!dp) {
        printf("info random %s: no %s preset to compare with\n", k->name, arch);
        goto out;
    }
    size_t bad = 0, first = n;
    for (size_t i = 0; i < n; i++)
        if (lad_eval(dp, &cs[i]) != got[i]) {
            if (first == n)
                first = i;
            bad++;
        }
    printf("info random %s vs preset %s: %zu of %zu differ", k->name, dp->name,
           bad, n);
    if (first < n)
        printf(" (case %zu: gpu 0x%08" PRIx64 " model 0x%08" PRIx64 ")", first, got[first],
               lad_eval(dp, &cs[first]));
    printf("\n");
out:
    free(cs);
    free(got);
}

static void timing(lad_gpu *g, const char *name)
{
    const lad_kernel *k = lad_kernel_find(name);
    int target;
    lad_err err = {0};
    if (!k || lad_gpu_check(g, k, &target, &err) != LAD_OK)
        return;
    size_t n = 1000000;
    lad_case *cs = calloc(n, sizeof *cs);
    lad_word_t *d = calloc(n, sizeof *d);
    for (size_t i = 0; i < n; i++) {
        for (int kk = 0; kk < k->k; kk++) {
            cs[i].a[kk] = rnd() & 0x3fff;
            cs[i].b[kk] = rnd() & 0x3fff;
        }
        cs[i].c = rnd();
    }
    double t0 = now();
    int rc = lad_gpu_run_cases(g, k, cs, n, 1, d, &err);
    double t1 = now();
    result(rc == LAD_OK, "timing", name, "%zu cases in %.3f s (%.2f M cases/s)%s%s",
           n, t1 - t0, (double)n / (t1 - t0) / 1e6, rc ? " " : "", rc ? err.msg : "");
    free(cs);
    free(d);
}

static void device_check(int index, const char *arch)
{
    /* The first preset of this architecture that has a kernel. */
    const lad_datapath *dp = NULL;
    for (int i = 0; i < lad_preset_count() && !dp; i++) {
        const lad_datapath *p = &lad_preset_get(i)->dp;
        const lad_kernel *k;
        lad_err err = {0};
        if (strcmp(p->arch, arch) == 0 && !p->sparse &&
            lad_kernel_for(p, &k, &err) == LAD_OK)
            dp = p;
    }
    if (!dp) {
        printf("info device: no %s preset\n", arch);
        return;
    }
    lad_device *dev = NULL;
    lad_err err = {0};
    int rc = lad_cuda_open(index, dp, &dev, &err);
    if (rc != LAD_OK) {
        result(0, "device-open", dp->name, "%s", err.msg);
        return;
    }
    printf("info device %s: kind=%s name='%s' uuid=%s cc=%d driver='%s' "
           "toolkit='%s' sass=%s (preset says %s)\n", dp->name, dev->info.kind,
           dev->info.name, dev->info.uuid, dev->info.cc, dev->info.driver,
           dev->info.toolkit, dev->info.sass, dp->sass);
    size_t n = 3000, done = 0;
    lad_case *cs = calloc(n, sizeof *cs);
    lad_word_t *d = calloc(n, sizeof *d);
    for (size_t i = 0; i < n; i++) {
        for (int kk = 0; kk < dp->k; kk++) {
            cs[i].a[kk] = rnd() & lad_format_mask(&dp->a) & 0xffff;
            cs[i].b[kk] = rnd() & lad_format_mask(&dp->b) & 0xffff;
        }
        cs[i].c = rnd();
    }
    rc = dev->eval(dev, cs, n, d, &done, &err);
    size_t bad = 0;
    for (size_t i = 0; rc == LAD_OK && i < n; i++)
        bad += lad_eval(dp, &cs[i]) != d[i];
    result(rc == LAD_OK && done == n, "device-eval", dp->name,
           "%zu cases, %zu differ from the preset%s%s", done, bad,
           rc ? "; " : "", rc ? err.msg : "");
    dev->close(dev);
}

int main(int argc, char **argv)
{
    int index = argc > 1 ? atoi(argv[1]) : 0;
    const char *outdir = argc > 2 ? argv[2] : NULL;
    lad_gpu *g = NULL;
    lad_gpu_info info;
    lad_err err = {0};
    setvbuf(stdout, NULL, _IOLBF, 0);
    int rc = lad_gpu_open(index, &g, &info, &err);
    if (rc != LAD_OK) {
        printf("selftest: %s\n", err.msg);
        return rc;
    }
    printf("gpu %d: %s uuid %s cc %d.%d sms %d driver '%s' toolkit '%s'\n",
           index, info.name, info.uuid, info.cc / 10, info.cc % 10, info.sms,
           info.driver, info.toolkit);
    const char *arch = info.cc == 90 ? "sm_90a" : info.cc == 100 ? "sm_100a"
                     : info.cc == 89 ? "sm_89" : "sm_80";
    FILE *cap = NULL;
    if (outdir) {
        char path[512];
        snprintf(path, sizeof path, "%s/captures.txt", outdir);
        cap = fopen(path, "w");
        if (cap)
            fprintf(cap, "# kernel;A;B;C;D raw words from %s (%s), cc %d\n",
                     info.name, info.uuid, info.cc);
    }
    const lad_kernel *prev = NULL;
    for (int i = 0; i < lad_kernel_count(); i++) {
        const lad_kernel *k = lad_kernel_get(i);
        int target;
        lad_err e = {0};
        if (lad_gpu_check(g, k, &target, &e) != LAD_OK) {
            if (!prev || strcmp(prev->name, k->name) != 0)
                printf("refused %s: %s\n", k->name, e.msg);
            prev = k;
            continue;
        }
        prev = k;
        size_t size;
        const void *img = lad_cubin_get(k->file, target, &size);
        char found[64];
        rc = lad_cubin_check(img, size, k->name, k->sass[target], found,
                             sizeof found, &e);
        result(rc == LAD_OK, "opcode", k->name, "%s %s", lad_target_name(target),
               rc == LAD_OK ? found : e.msg);
        exact_cases(g, k);
        exact_tile(g, k);
        random_vs_preset(g, k, arch, cap);
    }
    if (cap)
        fclose(cap);
    timing(g, "lad_mma_m16n8k16_f32_bf16");
    timing(g, "lad_wgmma_m64n8k16_f32_bf16");
    timing(g, "lad_tcgen05_f16");
    lad_gpu_close(g);
    device_check(index, arch);
    printf("selftest: %d failures\n", failures);
    return failures ? 1 : 0;
}
