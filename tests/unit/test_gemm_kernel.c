/*
** The block kernel of lad_gemm (model/gemm_kernel.h) against the per-element
** code: lad_gemm_with(LAD_GEMM_GENERAL) runs the prepared plan per output
** element and per instruction (itself checked against the exact rational
** reference in test_program.c and test_rational.c), and every word of the
** default kernel must equal its word. Datapaths: the common bf16, f16,
** tf32, e4m3 and e5m2 mma.sync, wgmma and tcgen05 presets, with f32, e8m13
** and f16 accumulators, fp8 mma.sync's lane order and C added last, and
** the mxf8f6f4 kinds with block scales (lad_gemm_scaled_with: scales near
** 1, at either end of ue8m0, NaN); programs:
** chained, promoted, split and scaled; sizes that are not multiples of the
** kernel's 8 or 16 columns; operands finite and moderate, or laced with NaN, Inf,
** zeros of both signs, subnormals, values at the top of the range that
** overflow, sums that cancel, mostly zeros, and largest significands whose
** window sums pass 2^30 (and 2^31: the two halves of tcgen05's e4m3); C near the negated sum, or making a tie of the
** rounding where C is added last; every datapath the kernel takes, once per
** family; 1 and 2 threads. Each GEMM runs four ways:
** general, the kernel (AVX-512 or AVX2 where the CPU has it), the kernel's
** AVX2 build of eight columns (LAD_GEMM_AVX2) and its generic build
** (LAD_GEMM_PORTABLE).
*/
#include "test.h"
#include "model/gemm_kernel.h"
#include "model/presets.h"
#include "model/program.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng = 0x2545f4914f6cdd1dull;

static uint32_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 16);
}

enum family {
    FAM_MODERATE,   /* finite, exponents within 2^+-6 of 1 */
    FAM_SPRINKLED,  /* moderate, one word in 64 of the rare kinds below */
    FAM_LACED,      /* one word in 2 of the rare kinds */
    FAM_HUGE,       /* exponents at the top of the range: sums overflow */
    FAM_CANCEL,     /* moderate; the test pairs lanes so that products cancel */
    FAM_TINY,       /* exponents 2^-67 to 2^-80 (the smallest normals for
                       narrow formats), half the C words +0: products about
                       the anchor floor (-133) and subnormal sums */
    FAM_SPARSE,     /* moderate, 7 words in 8 zeros of either sign: passes
                       with no product, which the lanes leave to the
                       per-column code */
    FAM_FULL,       /* 1.11..1 * 2^e, e 0 or 1, positive: window sums of
                       2^30 and more, which the lanes leave too */
    FAM_NEGSUM,     /* moderate; C the negated D of C = +0, a few units
                       off: sums that C cancels exactly or to a few bits */
    FAM_TIE,        /* moderate; C an odd multiple of half a unit of the
                       last place of the D of C = +0: ties of the rounding
                       into d, where C is added last */
    FAM_TOP,        /* 1.11..1 * 2^0, positive: every product the largest
                       at one exponent, pass sums of 2^31 and more (in two
                       halves, tcgen05's e4m3: a whole that wraps int32) */
    NFAM
};

/* A word of float format f of a rare kind: raw bits, a zero of either sign,
** a subnormal, the top exponent field (NaN or Inf where f has them), the
** largest finite binade, the smallest normal one. */
static uint64_t rare_word(const lad_format *f)
{
    uint32_t r = next(), s = (r & 1) << (f->ebits + f->mbits);
    uint32_t fr = next() & ((1u << f->mbits) - 1), emax = (1u << f->ebits) - 1;
    uint32_t w;
    switch (r >> 1 & 7) {
    case 0: w = next(); break;
    case 1: w = s; break;
    case 2: w = s | fr; break;
    case 3: w = s | emax << f->mbits | fr; break;
    case 4: w = s | emax << f->mbits; break;
    case 5: w = s | (emax - 1) << f->mbits | ((1u << f->mbits) - 1); break;
    case 6: w = s | 1u << f->mbits | fr; break;
    default: w = s | (emax - 1) << f->mbits | fr; break;
    }
    uint64_t x = (uint64_t)w << f->pad | (next() & ((1u << f->pad) - 1));
    return f->width >= 32 ? x & 0xffffffffu : x & ((1u << f->width) - 1);
}

static uint64_t word(const lad_format *f, int fam)
{
    if (fam == FAM_LACED && next() % 2 == 0)
        return rare_word(f);
    if (fam == FAM_SPRINKLED && next() % 64 == 0)
        return rare_word(f);
    uint32_t emax = (1u << f->ebits) - 1;
    if (fam == FAM_SPARSE && next() % 8)
        return (uint64_t)(next() & 1) << (f->ebits + f->mbits + f->pad);
    if (fam == FAM_TOP)
        return (uint64_t)((uint32_t)f->bias << f->mbits | ((1u << f->mbits) - 1)) << f->pad;
    if (fam == FAM_FULL)
        return (uint64_t)((uint32_t)(f->bias + (int)(next() % 2)) << f->mbits |
                          ((1u << f->mbits) - 1)) << f->pad;
    int e = f->bias + (int)(next() % 13) - 6;
    if (fam == FAM_HUGE)
        e = (int)emax - 1 - (int)(next() % 3);
    if (fam == FAM_TINY)
        e = f->bias - 67 - (int)(next() % 14);
    e = e < 1 ? 1 : e > (int)emax - 1 ? (int)emax - 1 : e;
    uint32_t w = (next() & 1) << (f->ebits + f->mbits) | (uint32_t)e << f->mbits |
                 (next() & ((1u << f->mbits) - 1));
    return (uint64_t)w << f->pad | (next() & ((1u << f->pad) - 1));
}

/* C for FAM_NEGSUM and FAM_TIE from d0, the D of C = +0 (a word of d, here
** of the width and fields of c: the caller sees to it). */
static uint64_t c_near(const lad_format *c, uint64_t d0, int fam)
{
    uint32_t mb = c->mbits, smask = 1u << (c->ebits + mb), w = (uint32_t)(d0 >> c->pad);
    if (fam == FAM_NEGSUM) {
        w ^= smask;
        if (next() % 2)
            w += next() % 5 - 2;  /* into the next binade or the sign: also a value */
    } else {
        /* m * 2^(raw - mb - 1), m = 1, 3, 5 or 7: exponent field e - mb - 1 + log2(m) */
        static const uint32_t frac[4][2] = {{0, 0}, {1, 1}, {2, 1}, {2, 3}};
        uint32_t e = w >> mb & ((1u << c->ebits) - 1), i = next() % 4;
        int ef = (int)e - (int)mb - 1 + (int)frac[i][0];
        uint32_t top = frac[i][0] ? frac[i][1] << (mb - frac[i][0]) : 0;
        w = ef >= 1 ? (uint32_t)ef << mb | top : 1u << (mb - 1);  /* else a subnormal */
        w |= (next() & 1) ? smask : 0;
    }
    return (uint64_t)(w & ((smask << 1) - 1)) << c->pad;
}

/* A block scale (a code of ue8m0 or another scale format of 8 bits or
** fewer) for family fam: near 1, or rare (the extremes, NaN, any code),
** large (products that overflow) or small (results that underflow). */
static uint8_t scale_word(const lad_format *f, int fam)
{
    int top = (1 << f->width) - 1, b = f->bias;
    int rare = (fam == FAM_LACED && next() % 4 == 0) ||
               (fam == FAM_SPRINKLED && next() % 64 == 0);
    int v = rare ? (int)(next() % 4 == 0 ? next() : (uint32_t)(next() % 2 ? 0 : top - 1))
          : fam == FAM_HUGE ? b + 40 + (int)(next() % 80)
          : fam == FAM_TINY ? b - 40 - (int)(next() % 80)
                            : b + (int)(next() % 9) - 4;
    if (rare && next() % 8 == 0)
        v = top;  /* ue8m0's NaN */
    return (uint8_t)(v < 0 ? 0 : v > top ? top : v);
}

/* A block-scaled GEMM, one of the three ways. */
static int scaled_way(const lad_datapath *dp, const lad_program *prog, int M, int N, int K,
                      const uint64_t *A, const uint64_t *B, const uint8_t *SA,
                      const uint8_t *SB, const uint64_t *C, uint64_t *D, int threads,
                      int kernel, lad_err *err)
{
    int nkb = K / dp->scale_block;
    return lad_gemm_scaled_with(dp, prog, M, N, K, A, K, B, N, SA, nkb, SB, N, C, N, D, N,
                                threads, kernel, NULL, NULL, err);
}

/* One GEMM both ways; returns whether the words agree. */
static int compare(const char *name, const lad_datapath *dp, const lad_program *prog, int M,
                   int N, int K, int fam, int with_c, int threads)
{
    uint64_t *A = malloc(sizeof *A * (size_t)M * K), *B = malloc(sizeof *B * (size_t)K * N);
    uint64_t *C = malloc(sizeof *C * (size_t)M * N), *D0 = calloc((size_t)M * N, 8);
    uint64_t *D1 = calloc((size_t)M * N, 8), *D2 = calloc((size_t)M * N, 8);
    uint64_t *D3 = calloc((size_t)M * N, 8);
    int nkb = dp->scale_block ? K / dp->scale_block : 0;
    uint8_t *SA = malloc((size_t)M * nkb + 1), *SB = malloc((size_t)nkb * N + 1);
    for (int i = 0; i < M * nkb; i++)
        SA[i] = scale_word(&dp->sa, fam);
    for (int i = 0; i < nkb * N; i++)
        SB[i] = scale_word(&dp->sb, fam);
    for (int i = 0; i < M * K; i++)
        A[i] = word(&dp->a, fam);
    for (int i = 0; i < K * N; i++)
        B[i] = word(&dp->b, fam);
    if (fam == FAM_CANCEL) {
        /* lanes k and k+1 of a row equal, B's lanes k+1 the negated k, in
        ** most columns: the pairs cancel exactly or to the last bits */
        uint64_t sb = (uint64_t)1 << (dp->b.ebits + dp->b.mbits + dp->b.pad);
        for (int i = 0; i < M; i++)
            for (int k = 0; k + 1 < K; k += 2)
                A[i * K + k + 1] = A[i * K + k];
        for (int k = 0; k + 1 < K; k += 2)
            for (int j = 0; j < N; j++)
                if (j % 5)
                    B[(k + 1) * N + j] = B[k * N + j] ^ sb ^ (j % 3 == 0 ? 1u << dp->b.pad : 0);
    }
    int near = (fam == FAM_NEGSUM || fam == FAM_TIE) && !prog && dp->c.width == dp->d.width &&
               !nkb;
    int cfam = fam == FAM_CANCEL || fam >= FAM_NEGSUM ? FAM_MODERATE : fam;
    for (int i = 0; i < M * N; i++)
        C[i] = fam == FAM_TINY && next() % 2 ? 0 : word(&dp->c, cfam);
    const uint64_t *Cp = with_c || near ? C : NULL;
    lad_err err;
    if (near) {
        /* D0 by the general code: C follows from it */
        if (lad_gemm_with(dp, prog, M, N, K, A, K, B, N, NULL, N, D0, N, 1, LAD_GEMM_GENERAL,
                          NULL, NULL, &err) != LAD_OK)
            memset(D0, 0, sizeof *D0 * (size_t)M * N);
        for (int i = 0; i < M * N; i++)
            C[i] = c_near(&dp->c, D0[i], fam);
    }
    int r0, r1, r2, r3;
    if (nkb) {
        r0 = scaled_way(dp, prog, M, N, K, A, B, SA, SB, Cp, D0, 1, LAD_GEMM_GENERAL, &err);
        r1 = scaled_way(dp, prog, M, N, K, A, B, SA, SB, Cp, D1, threads, LAD_GEMM_AUTO, &err);
        r2 = scaled_way(dp, prog, M, N, K, A, B, SA, SB, Cp, D2, threads, LAD_GEMM_PORTABLE,
                        &err);
        r3 = scaled_way(dp, prog, M, N, K, A, B, SA, SB, Cp, D3, threads, LAD_GEMM_AVX2, &err);
    } else {
        r0 = lad_gemm_with(dp, prog, M, N, K, A, K, B, N, Cp, N, D0, N, 1, LAD_GEMM_GENERAL,
                           NULL, NULL, &err);
        r1 = lad_gemm_with(dp, prog, M, N, K, A, K, B, N, Cp, N, D1, N, threads,
                           LAD_GEMM_AUTO, NULL, NULL, &err);
        /* the kernel's generic build, which CPUs without AVX2 run */
        r2 = lad_gemm_with(dp, prog, M, N, K, A, K, B, N, Cp, N, D2, N, threads,
                           LAD_GEMM_PORTABLE, NULL, NULL, &err);
        /* the AVX2 build where the CPU has AVX-512 (the same as r1 elsewhere) */
        r3 = lad_gemm_with(dp, prog, M, N, K, A, K, B, N, Cp, N, D3, N, threads,
                           LAD_GEMM_AVX2, NULL, NULL, &err);
    }
    int bad = -1;
    for (int i = 0; i < M * N && bad < 0; i++)
        if (D0[i] != D1[i] || D0[i] != D2[i] || D0[i] != D3[i])
            bad = i;
    test_check(r0 == LAD_OK && r1 == LAD_OK && r2 == LAD_OK && r3 == LAD_OK && bad < 0, name,
               "%s: rc %d %d %d %d; output %d (row %d col %d): general 0x%08llx, kernel "
               "0x%08llx, generic build 0x%08llx, AVX2 build 0x%08llx",
               dp->name, r0, r1, r2, r3, bad, bad < 0 ? 0 : bad / N, bad < 0 ? 0 : bad % N,
               bad < 0 ? 0ull : (unsigned long long)D0[bad],
               bad < 0 ? 0ull : (unsigned long long)D1[bad],
               bad < 0 ? 0ull : (unsigned long long)D2[bad],
               bad < 0 ? 0ull : (unsigned long long)D3[bad]);
    free(A);
    free(B);
    free(SA);
    free(SB);
    free(C);
    free(D0);
    free(D1);
    free(D2);
    free(D3);
    return bad < 0;
}

/* The columns of a block where the kernel keeps the chain in lanes: 16
** where the CPU has AVX-512. */
static int lanes_width(void)
{
#if defined(__x86_64__) && defined(__GNUC__)
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("avx512f") &&
        __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512vl"))
        return LAD_BLOCK_WMAX;
#endif
    return LAD_BLOCK_W;
}

/* What a GEMM's progress calls said. */
typedef struct seen {
    pthread_t caller;
    int calls, other_thread, backward;
    size_t last, total;
} seen;

static void note_progress(void *ctx, const char *step, size_t done, size_t total)
{
    seen *s = ctx;
    s->other_thread |= !pthread_equal(pthread_self(), s->caller) || strcmp(step, "gemm") != 0;
    s->backward |= done < s->last || done > total || (s->calls && total != s->total);
    s->last = done;
    s->total = total;
    s->calls++;
}

/* Progress on several threads, which take chunks of the work from shares
** and from each other's (program.c, take): from the calling thread only,
** never backward, ending at every item (the kernel's items are pairs of a
** row and a column block, the general path's outputs), and the words
** those of one thread. How many calls there are depends on how the
** threads are scheduled (the others may take the caller's whole share,
** and end before it waits): on one thread, which does every chunk, there
** is a call per chunk and one at the end. */
static void progress_case(const char *name1, const char *name, const lad_datapath *dp,
                          int kernel, size_t items)
{
    enum { M = 37, N = 45, K = 16 * 24 };
    uint64_t *A = malloc(sizeof *A * M * K), *B = malloc(sizeof *B * K * N);
    uint64_t *D1 = calloc(M * N, 8), *D3 = calloc(M * N, 8);
    for (int i = 0; i < M * K; i++)
        A[i] = word(&dp->a, FAM_SPRINKLED);
    for (int i = 0; i < K * N; i++)
        B[i] = word(&dp->b, FAM_SPRINKLED);
    seen s = {pthread_self(), 0, 0, 0, 0, 0}, s1 = s;
    lad_err err;
    int r1 = lad_gemm_with(dp, NULL, M, N, K, A, K, B, N, NULL, 0, D1, N, 1, kernel,
                           note_progress, &s1, &err);
    int r3 = lad_gemm_with(dp, NULL, M, N, K, A, K, B, N, NULL, 0, D3, N, 3, kernel,
                           note_progress, &s, &err);
    test_check(r1 == LAD_OK && !s1.other_thread && !s1.backward && s1.calls >= 2 &&
                   s1.last == items && s1.total == items,
               name1, "rc %d, %d calls, other thread %d, backward %d, "
               "last %zu of %zu (items %zu)", r1, s1.calls, s1.other_thread, s1.backward,
               s1.last, s1.total, items);
    test_check(r1 == LAD_OK && r3 == LAD_OK && !s.other_thread && !s.backward &&
                   s.calls >= 1 && s.last == items && s.total == items &&
                   !memcmp(D1, D3, sizeof *D1 * M * N),
               name, "rc %d %d, %d calls, other thread %d, backward %d, last %zu of %zu "
               "(items %zu), words %s", r1, r3, s.calls, s.other_thread, s.backward, s.last,
               s.total, items, memcmp(D1, D3, sizeof *D1 * M * N) ? "differ" : "agree");
    free(A);
    free(B);
    free(D1);
    free(D3);
}

void test_gemm_kernel(void)
{
    /* the kernel must take these (else the comparisons below test nothing
    ** new): bf16, f16, tf32, e4m3 and e5m2 on mma.sync and wgmma, tcgen05's
    ** e4m3 (window sums of 32 bits, in two halves) and the mxf8f6f4 kinds
    ** (ue8m0 scales, groups of one lane) */
    static const struct { const char *name; int taken; } gate[] = {
        {"sm90-mma-bf16-f32", 1}, {"sm90-wgmma-bf16-f32", 1}, {"sm90-mma-f16-f32", 1},
        {"sm90-mma-f16-f16", 1}, {"sm90-mma-tf32-f32", 1}, {"sm90-wgmma-e4m3-f32", 1},
        {"sm90-mma-e4m3-f32", 1}, {"sm90-wgmma-e5m2-f16", 1}, {"sm90-mma-e5m2-f32", 1},
        {"sm89-mma-e4m3-f32", 1}, {"sm100-tcgen05-bf16-f32", 1}, {"sm70-mma-f16-f16", 1},
        {"sm80-mma-f16-f32", 1}, {"sm100-tcgen05-e4m3-f32", 1},
        {"sm100-tcgen05-mxf8f6f4-e4m3-f32", 1}, {"sm100-tcgen05-mxf8f6f4-e2m1-f32", 1},
        {"sm100-tcgen05-mxf8f6f4-e3m2-f32", 1},
        /* and leaves these: groups of 16 and 4 lanes (mxf4, nvf4), ue4m3 scales */
        {"sm100-tcgen05-mxf4-e2m1-f32", 0}, {"sm100-tcgen05-mxf4nvf4-4x-f32", 0},
        {"sm100-tcgen05-mxf4nvf4-ue4m3-f32", 0},
    };
    for (size_t i = 0; i < sizeof gate / sizeof gate[0]; i++) {
        const lad_preset *p = lad_preset_find(gate[i].name);
        char name[96];
        snprintf(name, sizeof name, "gemm-kernel-gate-%s", gate[i].name);
        test_check(p && lad_block_ok(&p->dp) == gate[i].taken, name,
                   gate[i].taken ? "the block kernel does not take it"
                                 : "the block kernel takes it");
    }
    /* and these keep the running values in lanes (lad_block_chain): C added
    ** last and rounded to nearest even, passes rounded to nearest into f16 */
    static const char *const lanes[] = {
        "sm90-mma-e4m3-f32", "sm90-mma-e5m2-f32", "sm100-mma-e4m3-f32", "sm90-mma-e4m3-f16",
        "sm90-mma-e5m2-f16", "sm100-mma-e4m3-f16", "sm90-mma-f16-f16", "sm90-wgmma-e4m3-f16",
        "sm90-mma-bf16-f32",
    };
    for (size_t i = 0; i < sizeof lanes / sizeof lanes[0]; i++) {
        const lad_preset *p = lad_preset_find(lanes[i]);
        char name[96];
        lad_word_t zero[LAD_KMAX] = {0};
        lad_block bk;
        snprintf(name, sizeof name, "gemm-kernel-lanes-%s", lanes[i]);
        int ok = p && lad_block_ok(&p->dp) &&
                 lad_block_init(&bk, &p->dp, zero, 1, NULL, 0, p->dp.k, 1, LAD_BLOCK_BEST) ==
                     LAD_OK;
        test_check(ok && bk.lanes, name, "the block kernel does not keep it in lanes");
        /* and on AVX-512, sixteen columns a block (the comparisons below
        ** then test that build) */
        snprintf(name, sizeof name, "gemm-kernel-width-%s", lanes[i]);
        test_check(ok && bk.w == lanes_width(), name, "blocks of %d columns on a CPU %s "
                   "AVX-512", ok ? bk.w : 0, lanes_width() > LAD_BLOCK_W ? "with" : "without");
        if (ok)
            lad_block_free(&bk);
    }

    /* every datapath above, and one the kernel leaves (its words must
    ** come through the same way) */
    static const char *const all[] = {
        "sm90-mma-bf16-f32", "sm90-wgmma-bf16-f32", "sm90-mma-f16-f32", "sm90-mma-f16-f16",
        "sm90-mma-tf32-f32", "sm90-wgmma-e4m3-f32", "sm90-mma-e4m3-f32", "sm90-wgmma-e5m2-f16",
        "sm90-mma-e5m2-f32", "sm89-mma-e4m3-f32", "sm100-tcgen05-bf16-f32",
        "sm100-tcgen05-e4m3-f32", "sm70-mma-f16-f16", "sm80-mma-f16-f32",
        "sm100-tcgen05-tf32-f32", "sm90-wgmma-e4m3-f16", "sm100-mma-e4m3-f32",
        "sm90-mma-e4m3-f16", "sm90-mma-e5m2-f16", "sm100-mma-e4m3-f16", "sm100-mma-e5m2-f16",
        "sm90-mma-e4m3xe5m2-f32", "sm100-tcgen05-mxf8f6f4-e4m3-f32",
        "sm100-tcgen05-mxf8f6f4-e2m1-f32", "sm100-tcgen05-mxf8f6f4-e5m2-f32",
    };
    static const int sizes[][2] = {{5, 1}, {3, 7}, {9, 8}, {4, 17}, {7, 23}};
    static const char *const fams[] = {"moderate", "sprinkled", "laced", "huge", "cancel",
                                       "tiny", "sparse", "full", "negsum", "tie", "top"};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        const lad_preset *pr = lad_preset_find(all[i]);
        if (!pr) {
            test_check(0, "gemm-kernel-preset", "no preset '%s'", all[i]);
            continue;
        }
        const lad_datapath *dp = &pr->dp;
        for (int fam = 0; fam < NFAM; fam++)
            for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
                char name[128];
                int K = dp->k * (1 + (int)s % 3);
                snprintf(name, sizeof name, "gemm-kernel-%s-%s-%dx%dx%d", all[i], fams[fam],
                         sizes[s][0], sizes[s][1], K);
                compare(name, dp, NULL, sizes[s][0], sizes[s][1], K, fam,
                                   (int)s % 2 == 0, 1 + (int)s % 2);
            }
    }

    /* every datapath the kernel takes, once per family; those whose D
    ** cannot be the next C promote every MMA */
    lad_program plain, each;
    lad_program_init(&plain);
    lad_program_init(&each);
    each.promote = 1;
    for (int i = 0; i < lad_preset_count(); i++) {
        const lad_datapath *dp = &lad_preset_get(i)->dp;
        lad_err err;
        if (!lad_block_ok(dp))
            continue;
        const lad_program *prog = lad_program_check(dp, &plain, dp->k, &err) == LAD_OK
                                      ? NULL : &each;
        for (int fam = 0; fam < NFAM; fam++) {
            char name[128];
            snprintf(name, sizeof name, "gemm-kernel-every-%s-%s", dp->name, fams[fam]);
            compare(name, dp, prog, 4, 11, dp->k * (1 + fam % 2), fam, 1, 1);
        }
    }

    /* floors that moderate operands reach: the anchor floor above most
    ** products, a zero product's exponent above most too */
    lad_datapath fl = lad_preset_find("sm90-mma-bf16-f32")->dp;
    fl.anchor_min = 16;
    compare("gemm-kernel-anchor-min-16", &fl, NULL, 9, 21, 16 * 4, FAM_MODERATE, 1, 2);
    compare("gemm-kernel-anchor-min-16-laced", &fl, NULL, 9, 21, 16 * 4, FAM_LACED, 1, 2);
    fl.anchor_min = LAD_NOFLOOR;
    fl.zero_floor = 16;
    test_check(lad_block_ok(&fl), "gemm-kernel-gate-zero-floor", "not taken");
    compare("gemm-kernel-zero-floor-16", &fl, NULL, 9, 21, 16 * 4, FAM_SPRINKLED, 1, 2);
    compare("gemm-kernel-zero-floor-16-laced", &fl, NULL, 9, 21, 16 * 4, FAM_LACED, 0, 2);

    /* the programs over the block kernel: promoted, split, scaled, another
    ** output format */
    const lad_datapath *e4 = &lad_preset_find("sm90-wgmma-e4m3-f32")->dp;
    const lad_datapath *bf = &lad_preset_find("sm90-mma-bf16-f32")->dp;
    const lad_datapath *m4 = &lad_preset_find("sm90-mma-e4m3-f32")->dp;
    lad_program p;
    for (int fam = 0; fam < 8; fam++) {
        char name[96];
        snprintf(name, sizeof name, "gemm-kernel-promote4-%s", fams[fam]);
        compare(name, e4, lad_program_preset_find("fp8-promote4"), 11, 19, 32 * 9, fam, 1, 2);
        snprintf(name, sizeof name, "gemm-kernel-promote3-mma-e4m3-%s", fams[fam]);
        lad_program_init(&p);
        p.promote = 3;
        compare(name, m4, &p, 6, 13, 32 * 7, fam, 1, 2);
        lad_program_init(&p);
        p.split = 4;
        p.reduce = LAD_REDUCE_TREE;
        p.scale_a = 0x3f400000u;  /* 0.75 */
        p.scale_b = 0x40a00000u;  /* 5 */
        p.out = *lad_format_find("bf16");
        snprintf(name, sizeof name, "gemm-kernel-split4-tree-scaled-bf16-%s", fams[fam]);
        compare(name, bf, &p, 10, 9, 16 * 8, fam, 1, 2);
        p.reduce = LAD_REDUCE_SERIAL;
        p.promote = 2;
        snprintf(name, sizeof name, "gemm-kernel-split4-serial-promote2-%s", fams[fam]);
        compare(name, bf, &p, 3, 33, 16 * 8, fam, fam % 2, 2);
    }

    /* long chains: many MMAs with the running value kept in lanes */
    compare("gemm-kernel-bf16-chain-full", bf, NULL, 5, 17, 16 * 40, FAM_FULL, 1, 1);
    compare("gemm-kernel-bf16-chain-sparse", bf, NULL, 5, 17, 16 * 40, FAM_SPARSE, 1, 1);
    compare("gemm-kernel-e4m3-chain-huge", e4, NULL, 5, 17, 32 * 40, FAM_HUGE, 1, 1);
    compare("gemm-kernel-e4m3-chain-tiny", e4, NULL, 5, 17, 32 * 40, FAM_TINY, 1, 1);

    /* B with 4 times 2^16 words: bf16's words decoded from a table
    ** (gemm_kernel.c, code_size); moderate words, as over K 2048 a word in
    ** 64 of the rare kinds would put a NaN or Inf in every column */
    compare("gemm-kernel-bf16-table", bf, NULL, 3, 130, 16 * 128, FAM_MODERATE, 1, 2);

    /* a larger product, many threads asked for */
    compare("gemm-kernel-bf16-large", bf, NULL, 37, 45, 16 * 24, FAM_SPRINKLED, 1, 3);
    compare("gemm-kernel-e4m3-large", e4, NULL, 29, 51, 32 * 12, FAM_SPRINKLED, 1, 0);

    progress_case("gemm-progress-kernel-1-thread", "gemm-progress-kernel-3-threads", bf,
                  LAD_GEMM_AUTO,
                  37 * ((45 + lanes_width() - 1) / lanes_width()));
    progress_case("gemm-progress-general-1-thread", "gemm-progress-general-3-threads", bf,
                  LAD_GEMM_GENERAL, 37 * 45);
}
