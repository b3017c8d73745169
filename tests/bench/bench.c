/*
** make bench: throughput of the datapath model on one core, beside the
** naive exact reference (tests/unit/rational.c) in the same run.
**
**     make bench                      # or: build/rel/bench [seconds [gemm|model]]
**
** For each datapath, 4,096 cases from the validation generator (half raw
** bit patterns, half finite values) are evaluated over and over for about
** a CPU second (LADDER_BENCH_SECONDS, or the argument) by
** lad_plan_eval_batch, as the simulated device and `ladder validate`
** evaluate them, and the model's rate is printed in cases per second; then
** the rate of the same plan on the fast path's generic build, where this
** CPU runs its AVX2 build; then the rate of the reference (one case at a
** time) on the same cases, and a check that all gave the same words.
** One row per datapath family (bf16, f16, tf32, fp8, fp6, fp4, the
** block-scaled kinds, CDNA's two-level window, f64, int8), with the CPU
** and wall seconds of the model's measurement and the path the plan took.
** Target (docs/performance.md): 20 million bf16 K=16 cases per CPU second.
**
** Then lad_gemm (model/program.h) on one thread: a 64 x 64 x 1024 bf16
** product, in multiply-adds per CPU second, beside the naive reference
** (one tests/unit/rational.c evaluation per MMA, chained by hand) on the
** first outputs of the same product, and whether their words agree.
** Target: 150 million bf16 multiply-adds per second per core.
**
** Then lad_gemm's block kernel beside its per-element path in the same run
** (lad_gemm_with, LAD_GEMM_GENERAL), 128 x 128 x 2048, on bf16 and f16 into
** f32, e4m3 wgmma, mma.sync and tcgen05, and the block-scaled kinds
** (mxf8f6f4 on the kernel; mxf4 and nvf4, which it leaves to the
** per-element path in both columns): multiply-adds per CPU second of the
** process, CPU and wall seconds of one product (the mean of the runs),
** the wall-time speedup of 2 threads over 1, whether all gave the general
** path's words, and the kernel's generic build (LAD_GEMM_PORTABLE, what
** CPUs without AVX2 run). One thread and two run in turns, in eight rounds
** over all the rows; the speedup is that of the fastest run of each (some
** 100 runs, as timeit takes the best of its repeats: a run's wall time
** moves with what else the machine's cores run, and the fastest is the
** nearest to the code's own), followed by the speedup of the means.
** Targets: 1e9 multiply-adds per CPU second (2e8 for the block-scaled
** kinds), 1.8x on 2 threads.
**
** When the ladder binary is at hand ($LADDER, default build/rel/ladder) and
** its run, infer and validate commands exist, the last lines time a full
** ladder on a simulated device plus a 1,000,000-case validation, and a
** survey of one generation (ladder survey --device sim:sm_80).
*/
#include "model/presets.h"
#include "model/program.h"
#include "probes/gen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

/* The Makefile links only the bench sources with the library; the reference
** is a test helper, compiled into this program directly. */
#include "tests/unit/rational.c"

#define NCASES 4096

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* CPU seconds of this thread: the rate on one core, whatever else the
** machine runs meanwhile. */
static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

typedef uint32_t (*evalfn)(const lad_datapath *, const lad_case *);

/* What one measurement took: cases per CPU second of this thread, and
** the CPU and wall seconds it ran. */
typedef struct measured {
    double rate, cpu, wall;
} measured;

/* fn over cs one case at a time, or lad_plan_eval_batch with plan when fn
** is NULL, again and again for about `secs` CPU seconds. */
static measured rate(evalfn fn, const lad_datapath *dp, const lad_plan *plan,
                     const lad_case *cs, size_t n, double secs, lad_word_t *out)
{
    double t0 = cpu_now(), w0 = now(), t;
    size_t done = 0;
    lad_word_t x = 0;
    do {
        if (fn) {
            for (size_t i = 0; i < n; i++)
                out[i] = fn(dp, &cs[i]);
        } else {
            lad_plan_eval_batch(plan, cs, n, out);
        }
        for (size_t i = 0; i < n; i++)
            x ^= out[i];
        done += n;
        t = cpu_now() - t0;
    } while (t < secs);
    if (x == 0x12345678)  /* keep the loop */
        fputc(' ', stderr);
    measured m = {(double)done / t, t, now() - w0};
    return m;
}

/* The code a plan runs (lad_plan.path, and the AVX2 build's eight-lane
** code: "side8" for eight cases side by side, "side16" for sixteen on
** AVX-512, "fast8" for eight lanes of one case): the bench's "path"
** column. */
static const char *path_name(const lad_plan *p)
{
    switch (p->path) {
    case LAD_PATH_FAST:
        return p->avx2 && p->cases8 ? (p->cases_w > 8 ? "side16" : "side8")
               : p->avx2 && p->lanes8 ? "fast8"
                                      : "fast";
    case LAD_PATH_SCALED:
        return "scaled";
    case LAD_PATH_INTEGER:
        return "integer";
    default:
        return "general";
    }
}

/* One row per datapath family: the model (lad_plan_eval_batch), its
** generic build where this CPU runs the AVX2 one, and the naive reference,
** on the same cases; rates per CPU second, and the CPU and wall seconds of
** the model's measurement (wall above CPU: the machine was busy). */
static void model_bench(double secs)
{
    /* naive: 0 where the reference does not model the datapath (the
    ** two-level window's norm2, c2_drop and even/odd lanes; 64-bit words),
    ** so that the row has no independent check here */
    static const struct {
        const char *label, *preset;
        int naive;
    } rows[] = {
        {"bf16 K=16", "sm100-tcgen05-bf16-f32", 1},
        {"bf16 K=16 mma", "sm90-mma-bf16-f32", 1},
        {"f16 K=16", "sm100-tcgen05-f16-f32", 1},
        {"f16->f16 K=16", "sm90-mma-f16-f16", 1},
        {"tf32 K=8", "sm100-tcgen05-tf32-f32", 1},
        {"e4m3 K=32", "sm100-tcgen05-e4m3-f32", 1},
        {"e5m2 K=32", "sm100-tcgen05-e5m2-f32", 1},
        {"e2m3 (fp6) K=32", "sm100-tcgen05-e2m3-f32", 1},
        {"e3m2 (fp6) K=32", "sm100-tcgen05-e3m2-f32", 1},
        {"e2m1 (fp4) K=32", "sm100-tcgen05-e2m1-f32", 1},
        {"mxf8f6f4 e4m3", "sm100-tcgen05-mxf8f6f4-e4m3-f32", 1},
        {"mxf8f6f4 e2m1", "sm100-tcgen05-mxf8f6f4-e2m1-f32", 1},
        {"mxf4 K=64", "sm100-tcgen05-mxf4-e2m1-f32", 1},
        {"mxf4nvf4 K=64", "sm100-tcgen05-mxf4nvf4-4x-f32", 1},
        {"nvf4 K=64", "sm100-tcgen05-mxf4nvf4-ue4m3-f32", 1},
        {"cdna3 f16", "cdna3-mfma-f16-f32", 0},
        {"cdna3 bf16", "cdna3-mfma-bf16-f32", 0},
        {"cdna3 fp8", "cdna3-mfma-e4m3fnuz-f32", 0},
        {"f64 K=4", "sm90-mma-f64-f64", 0},
        {"int8 K=32", "sm100-tcgen05-s8xs8-s32", 1},
    };
    lad_case *cs = malloc(sizeof(lad_case) * NCASES);
    lad_word_t *a = malloc(sizeof(lad_word_t) * NCASES), *b = malloc(sizeof(lad_word_t) * NCASES);
    lad_word_t *g = malloc(sizeof(lad_word_t) * NCASES);
    if (!cs || !a || !b || !g) {
        fprintf(stderr, "bench: out of memory\n");
        exit(1);
    }
    /* "generic": the same plan with the fast path's build for any CPU,
    ** where this CPU runs its AVX2 build ("-" when it does not, or when
    ** the plan's path has one build only) */
    printf("%-16s %-32s %-7s %13s %13s %13s %7s %6s %6s  %s\n", "datapath", "preset", "path",
           "model", "generic", "naive", "speedup", "CPU s", "wall s", "same words");
    printf("%-16s %-32s %-7s %13s %13s %13s %7s %6s %6s\n", "", "", "", "cases/CPU s",
           "cases/CPU s", "cases/CPU s", "", "model", "model");
    int slower = 0;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const lad_preset *p = lad_preset_find(rows[i].preset);
        if (!p) {
            printf("%-16s %-32s missing preset\n", rows[i].label, rows[i].preset);
            continue;
        }
        lad_gen_cases(&p->dp, 2024, 50, 0, cs, NCASES);
        lad_plan plan, generic;
        lad_plan_init(&plan, &p->dp);
        generic = plan;
        generic.avx2 = 0;
        int two = plan.avx2 && plan.path == LAD_PATH_FAST;
        measured m = rate(NULL, &p->dp, &plan, cs, NCASES, secs, a);
        measured gm = {0, 0, 0};
        if (two)
            gm = rate(NULL, &p->dp, &generic, cs, NCASES, secs, g);
        char gs[24] = "-", ns[24] = "-", sp[24] = "-";
        const char *same = "no reference";
        if (rows[i].naive) {
            measured r = rate(rat_eval, &p->dp, NULL, cs, NCASES, secs / 4, b);
            snprintf(ns, sizeof ns, "%.0f", r.rate);
            snprintf(sp, sizeof sp, "%.1fx", m.rate / r.rate);
            same = !memcmp(a, b, sizeof(lad_word_t) * NCASES) &&
                   (!two || !memcmp(g, b, sizeof(lad_word_t) * NCASES)) ? "yes" : "NO";
        }
        if (two)
            snprintf(gs, sizeof gs, "%.0f", gm.rate);
        slower += two && gm.rate > m.rate;
        printf("%-16s %-32s %-7s %13.0f %13s %13s %7s %6.2f %6.2f  %s\n", rows[i].label,
               rows[i].preset, path_name(&plan), m.rate, gs, ns, sp, m.cpu, m.wall, same);
        fflush(stdout);
    }
    if (slower)
        printf("(%d rows with the generic build ahead of the AVX2 one: noise, or a regression)\n",
               slower);
    free(cs);
    free(a);
    free(b);
    free(g);
}

/* A random finite bf16 word in [2^-8, 2^8) of either sign. */
static uint32_t bf16_word(uint64_t *x)
{
    *x = *x * 6364136223846793005ull + 1442695040888963407ull;
    uint32_t r = (uint32_t)(*x >> 33);
    return (r & 0x8000) | ((119 + (r >> 16) % 16) << 7) | (r & 0x7f);
}

static void gemm_bench(double secs)
{
    static const char *presets[] = {"sm90-mma-bf16-f32", "sm100-tcgen05-bf16-f32"};
    enum { M = 64, N = 64, K = 1024 };
    lad_word_t *A = malloc(sizeof(lad_word_t) * M * K), *B = malloc(sizeof(lad_word_t) * K * N);
    lad_word_t *D = malloc(sizeof(lad_word_t) * M * N);
    lad_case *cs = calloc(1, sizeof *cs);
    if (!A || !B || !D || !cs) {
        fprintf(stderr, "bench: out of memory\n");
        exit(1);
    }
    uint64_t x = 2026;
    for (int i = 0; i < M * K; i++)
        A[i] = bf16_word(&x);
    for (int i = 0; i < K * N; i++)
        B[i] = bf16_word(&x);
    printf("\n%-24s %-24s %18s %18s %8s  %s\n", "lad_gemm, one thread", "preset",
           "model madds/s", "naive madds/s", "speedup", "same words");
    for (size_t p = 0; p < sizeof presets / sizeof presets[0]; p++) {
        const lad_preset *pr = lad_preset_find(presets[p]);
        if (!pr)
            continue;
        const lad_datapath *dp = &pr->dp;
        double t0 = cpu_now(), t = 0;
        long runs = 0;
        do {
            if (lad_gemm(dp, NULL, M, N, K, A, K, B, N, NULL, 0, D, N, 1) != LAD_OK) {
                printf("%-24s %-24s lad_gemm failed\n", "bf16", presets[p]);
                break;
            }
            runs++;
            t = cpu_now() - t0;
        } while (t < secs);
        double model = (double)runs * M * N * K / t;
        /* the reference, output by output, for a quarter of the time */
        int done = 0, same = 1;
        t0 = cpu_now();
        do {
            int i = done / N, j = done % N;
            lad_word_t c = 0;
            for (int k = 0; k < K; k += dp->k) {
                for (int l = 0; l < dp->k; l++) {
                    cs->a[l] = A[i * K + k + l];
                    cs->b[l] = B[(k + l) * N + j];
                }
                cs->c = c;
                c = rat_eval(dp, cs);
            }
            same &= c == D[done];
            done++;
            t = cpu_now() - t0;
        } while (t < secs / 4 && done < M * N);
        double naive = (double)done * K / t;
        printf("%-24s %-24s %18.0f %18.0f %7.1fx  %s (%d outputs)\n", "bf16 64x64x1024",
               presets[p], model, naive, model / naive, same ? "yes" : "NO", done);
        fflush(stdout);
    }
    free(A);
    free(B);
    free(D);
    free(cs);
}

/* CPU seconds of the whole process, every thread: what a multi-threaded
** lad_gemm costs. */
static double proc_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* A random finite word of float format f, of either sign, exponent within
** 2^+-4 of 1 (and within the format's normal binades). */
static lad_word_t moderate_word(const lad_format *f, uint64_t *x)
{
    *x = *x * 6364136223846793005ull + 1442695040888963407ull;
    uint32_t r = (uint32_t)(*x >> 32);
    int ef = f->bias - 4 + (int)((r >> 24) % 8), top = (1 << f->ebits) - 2;
    uint32_t e = (uint32_t)(ef < 1 ? 1 : ef > top ? top : ef);
    uint32_t w = (r & 1) << (f->ebits + f->mbits) | e << f->mbits | (r >> 1 & ((1u << f->mbits) - 1));
    return (lad_word_t)w << f->pad;
}

/* A random scale word of format f (8 bits or fewer, unsigned), within
** 2^+-7 of 1. */
static uint8_t scale_word(const lad_format *f, uint64_t *x)
{
    *x = *x * 6364136223846793005ull + 1442695040888963407ull;
    uint32_t r = (uint32_t)(*x >> 32);
    int ef = f->bias - 7 + (int)((r >> 24) % 15), top = (1 << f->ebits) - 2;
    uint32_t e = (uint32_t)(ef < 1 ? 1 : ef > top ? top : ef);
    return (uint8_t)(e << f->mbits | (r & ((1u << f->mbits) - 1)));
}

/* The runs of one way of a GEMM so far: their count, CPU seconds of the
** process and wall seconds in all, and the wall seconds of the fastest. */
typedef struct timing {
    long runs;
    double cpu, wall, best;
} timing;

/* Runs lad_gemm_with (lad_gemm_scaled_with where SA and SB are given)
** for about secs CPU seconds of the process, adding the runs to *tm (zero
** it first); returns 0 if a run failed. */
static int gemm_time(const lad_datapath *dp, int M, int N, int K, const lad_word_t *A,
                     const lad_word_t *B, const uint8_t *SA, const uint8_t *SB, lad_word_t *D,
                     int threads, int kernel, double secs, timing *tm)
{
    double c0 = proc_now(), w0 = now(), t = 0;
    int nkb = SA ? K / dp->scale_block : 0;
    if (tm->runs == 0)
        tm->best = 1e30;
    do {
        double w = now();
        int rc = SA ? lad_gemm_scaled_with(dp, NULL, M, N, K, A, K, B, N, SA, nkb, SB, N, NULL,
                                           0, D, N, threads, kernel, NULL, NULL, NULL)
                    : lad_gemm_with(dp, NULL, M, N, K, A, K, B, N, NULL, 0, D, N, threads,
                                    kernel, NULL, NULL, NULL);
        if (rc != LAD_OK)
            return 0;
        w = now() - w;
        tm->best = w < tm->best ? w : tm->best;
        tm->runs++;
        t = proc_now() - c0;
    } while (t < secs);
    tm->cpu += t;
    tm->wall += now() - w0;
    return 1;
}

/* One row of kernel_bench: its operands, the general path's words, and
** the timings of its four ways. */
typedef struct kernel_row {
    const char *what, *preset;
    const lad_datapath *dp;
    lad_word_t *A, *B, *D0;
    uint8_t *SA, *SB;          /* NULL: not block-scaled */
    timing gen, one, two, port;
    int ok, same;
} kernel_row;

/* lad_gemm's block kernel (model/gemm_kernel.h) against its per-element
** path in the same run; then the kernel on 2 threads. The block-scaled
** kinds take scales within 2^+-7; the kernel leaves mxf4's and nvf4's
** groups to the per-element path, whose rate both columns then give.
** Each row's general path and generic build are timed first; then the
** kernel on one thread and on two, in turns, in ROUNDS rounds over all
** the rows: a slow spell of the machine (they last seconds here) then
** falls on some rounds of every row, not on all of one row's. */
static void kernel_bench(double secs)
{
    static const struct { const char *what, *preset; } names[] = {
        {"bf16 -> f32", "sm90-mma-bf16-f32"},
        {"f16 -> f32", "sm90-mma-f16-f32"},
        {"e4m3 -> f32 wgmma", "sm90-wgmma-e4m3-f32"},
        {"e4m3 -> f32 mma.sync", "sm90-mma-e4m3-f32"},
        {"e4m3 -> f32 tcgen05", "sm100-tcgen05-e4m3-f32"},
        {"mxf8f6f4 e4m3", "sm100-tcgen05-mxf8f6f4-e4m3-f32"},
        {"mxf8f6f4 e2m1", "sm100-tcgen05-mxf8f6f4-e2m1-f32"},
        {"mxf4 e2m1", "sm100-tcgen05-mxf4-e2m1-f32"},
        {"nvf4 (ue4m3 scales)", "sm100-tcgen05-mxf4nvf4-ue4m3-f32"},
    };
    enum { M = 128, N = 128, K = 2048, NROW = sizeof names / sizeof names[0], ROUNDS = 8 };
    kernel_row rows[NROW];
    int n = 0;
    lad_word_t *D1 = malloc(sizeof *D1 * M * N);
    for (size_t p = 0; p < NROW; p++) {
        const lad_preset *pr = lad_preset_find(names[p].preset);
        if (!pr)
            continue;
        kernel_row *r = &rows[n++];
        memset(r, 0, sizeof *r);
        r->what = names[p].what;
        r->preset = names[p].preset;
        const lad_datapath *dp = r->dp = &pr->dp;
        r->A = malloc(sizeof *r->A * M * K);
        r->B = malloc(sizeof *r->B * K * N);
        r->D0 = malloc(sizeof *r->D0 * M * N);
        int nkb = dp->scale_block ? K / dp->scale_block : 0;
        if (nkb) {
            r->SA = malloc((size_t)M * nkb);
            r->SB = malloc((size_t)nkb * N);
        }
        if (!r->A || !r->B || !r->D0 || !D1 || (nkb && (!r->SA || !r->SB))) {
            fprintf(stderr, "bench: out of memory\n");
            exit(1);
        }
        uint64_t x = 2026 + p;
        for (int i = 0; i < M * K; i++)
            r->A[i] = moderate_word(&dp->a, &x);
        for (int i = 0; i < K * N; i++)
            r->B[i] = moderate_word(&dp->b, &x);
        for (int i = 0; i < M * nkb; i++)
            r->SA[i] = scale_word(&dp->sa, &x);
        for (int i = 0; i < nkb * N; i++)
            r->SB[i] = scale_word(&dp->sb, &x);
        r->ok = gemm_time(dp, M, N, K, r->A, r->B, r->SA, r->SB, r->D0, 1, LAD_GEMM_GENERAL,
                          secs / 2, &r->gen);
        r->ok &= gemm_time(dp, M, N, K, r->A, r->B, r->SA, r->SB, D1, 1, LAD_GEMM_PORTABLE,
                           secs / 2, &r->port);
        r->same = !memcmp(r->D0, D1, sizeof *D1 * M * N);
    }
    for (int round = 0; round < ROUNDS; round++)
        for (int i = 0; i < n; i++) {
            kernel_row *r = &rows[i];
            for (int threads = 1; threads <= 2 && r->ok; threads++) {
                r->ok &= gemm_time(r->dp, M, N, K, r->A, r->B, r->SA, r->SB, D1, threads,
                                   LAD_GEMM_AUTO, secs / ROUNDS,
                                   threads == 1 ? &r->one : &r->two);
                r->same &= !memcmp(r->D0, D1, sizeof *D1 * M * N);
            }
        }

    printf("\n%-22s %-32s %12s %12s %7s %11s %9s %8s  %s\n",
           "lad_gemm 128x128x2048", "preset", "general", "kernel", "speedup", "2 threads",
           "CPU s", "wall s", "same words");
    printf("%-22s %-32s %12s %12s %7s %11s %9s %8s\n", "", "", "MAC/CPU s", "MAC/CPU s", "",
           "wall x", "1 run", "1 run");
    printf("%-22s %-32s %12s %12s %7s %11s %9s %8s\n", "", "", "", "", "",
           "best mean", "mean", "mean");
    double macs = (double)M * N * K;
    for (int i = 0; i < n; i++) {
        kernel_row *r = &rows[i];
        if (!r->ok) {
            printf("%-22s %-32s failed\n", r->what, r->preset);
            continue;
        }
        const timing *one = &r->one, *two = &r->two;
        double rg = r->gen.runs * macs / r->gen.cpu, r1 = one->runs * macs / one->cpu;
        printf("%-22s %-32s %12.3g %12.3g %6.1fx %4.2fx %4.2fx %9.4f %8.4f  %s  generic build "
               "%.3g\n",
               r->what, r->preset, rg, r1, r1 / rg, one->best / two->best,
               (one->wall / one->runs) / (two->wall / two->runs), one->cpu / one->runs,
               one->wall / one->runs, r->same ? "yes" : "NO", r->port.runs * macs / r->port.cpu);
        printf("%-22s %-32s %12s %12s %7s %11s %9.4f %8.4f  (2 threads)\n", "", "", "", "", "",
               "", two->cpu / two->runs, two->wall / two->runs);
    }
    fflush(stdout);
    for (int i = 0; i < n; i++) {
        free(rows[i].A);
        free(rows[i].B);
        free(rows[i].D0);
        free(rows[i].SA);
        free(rows[i].SB);
    }
    free(D1);
}

/* Runs a shell command, returns its wall time in seconds or -1. */
static double timed(const char *cmd)
{
    double t0 = now();
    int rc = system(cmd);
    if (rc != 0 && !(WIFEXITED(rc) && WEXITSTATUS(rc) == 1))
        return -1;
    return now() - t0;
}

/* A survey of one generation on simulated devices: every sm_80 preset
** climbed, inferred, both models validated on 100,000 cases, the A100
** vectors replayed (docs/performance.md: target under 60 s). */
static void survey_bench(const char *ladder, const char *dir)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s help 2>/dev/null | grep -q '^ *survey '", ladder);
    if (system(cmd) != 0)
        return;
    snprintf(cmd, sizeof cmd, "%s survey --device sim:sm_80 --cases 100000 --db %s/s.db "
             ">/dev/null 2>&1", ladder, dir);
    double t = timed(cmd);
    printf("\n%-34s ", "survey --device sim:sm_80");
    if (t < 0)
        printf("failed (%s)\n", cmd);
    else
        printf("%10.2f s (12 datapaths, --cases 100000)\n", t);
    snprintf(cmd, sizeof cmd, "rm -f %s/s.db %s/s.db-wal %s/s.db-shm", dir, dir, dir);
    if (system(cmd) != 0)
        printf("cannot remove %s/s.db\n", dir);
}

static void ladder_bench(void)
{
    const char *ladder = getenv("LADDER");
    if (!ladder || !*ladder)
        ladder = "build/rel/ladder";
    char cmd[1024], dir[] = "/tmp/ladder-bench.XXXXXX";
    if (access(ladder, X_OK) != 0 || !mkdtemp(dir))
        return;
    snprintf(cmd, sizeof cmd, "%s help 2>/dev/null | grep -q '^ *infer ' && "
             "%s help 2>/dev/null | grep -q '^ *run '", ladder, ladder);
    if (system(cmd) != 0) {
        printf("\nladder: run/infer not built yet; no ladder timing\n");
        rmdir(dir);
        return;
    }
    static const char *presets[] = {"sm90-mma-bf16-f32", "sm100-tcgen05-mxf4nvf4-ue4m3-f32"};
    printf("\n%-34s %10s %10s %12s %10s\n", "full ladder on sim:<preset>", "run s", "infer s",
           "validate 1M s", "total s");
    for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++) {
        snprintf(cmd, sizeof cmd, "%s run recipes/%s.yaml --device sim:%s --db %s/b.db >/dev/null",
                 ladder, presets[i], presets[i], dir);
        double tr = timed(cmd);
        snprintf(cmd, sizeof cmd, "%s infer latest --db %s/b.db >/dev/null", ladder, dir);
        double ti = tr < 0 ? -1 : timed(cmd);
        snprintf(cmd, sizeof cmd, "%s validate latest --cases 1000000 -q --db %s/b.db >/dev/null",
                 ladder, dir);
        double tv = ti < 0 ? -1 : timed(cmd);
        if (tv < 0)
            printf("%-34s failed (%s)\n", presets[i], cmd);
        else
            printf("%-34s %10.2f %10.2f %12.2f %10.2f\n", presets[i], tr, ti, tv, tr + ti + tv);
        snprintf(cmd, sizeof cmd, "rm -f %s/b.db %s/b.db-wal %s/b.db-shm", dir, dir, dir);
        if (system(cmd) != 0)
            break;
    }
    survey_bench(ladder, dir);
    rmdir(dir);
}

int main(int argc, char **argv)
{
    double secs = 1.0;
    const char *s = argc > 1 ? argv[1] : getenv("LADDER_BENCH_SECONDS");
    if (s && atof(s) > 0)
        secs = atof(s);
    printf("one core, %.1f CPU s per measurement, %d cases from the validation generator "
           "(50%% raw)\n\n", secs, NCASES);
    /* a second argument `gemm`: only the lad_gemm lines; `model`: only
    ** the model's rates */
    int gemm_only = argc > 2 && strcmp(argv[2], "gemm") == 0;
    if (!gemm_only)
        model_bench(secs);
    if (argc > 2 && strcmp(argv[2], "model") == 0)
        return 0;
    gemm_bench(secs);
    kernel_bench(secs);
    if (!gemm_only)
        ladder_bench();
    return 0;
}
