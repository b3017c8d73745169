/*
** Programs of instructions and lad_gemm (model/program.h), against the
** naive reference: every MMA by rat_eval (tests/unit/rational.c), chained
** here, and every f32 addition or multiplication of a program done here
** exactly on integers and rounded by rat_round. Nothing of model/program.c
** is used to make an expected word.
*/
#include "test.h"
#include "rational.h"
#include "model/presets.h"
#include "model/program.h"

#include <stdlib.h>
#include <string.h>

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint32_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 16);
}

static uint32_t word_mask(const lad_format *f)
{
    return f->width >= 32 ? 0xffffffffu : (1u << f->width) - 1;
}

/* A finite bf16 word in [2^-4, 2^4) of either sign: sums of products of
** these stay far from f32's range ends, so the sums below fit 128 bits. */
static uint32_t bf16_moderate(void)
{
    uint32_t r = next();
    return (r & 0x8000) | ((123 + (r >> 16) % 8) << 7) | (r & 0x7f);
}

/* ---- an f32 adder and multiplier of the test's own: exact, then rat_round */

typedef struct { int zero, neg; __int128 m; int e; } val;

static val decode_f32ish(uint32_t w)
{
    /* f32 and its cut e8m13: finite normals and zeros only here */
    val v = {0, (int)(w >> 31), 0, 0};
    uint32_t e = (w >> 23) & 255, f = w & 0x7fffff;
    if (e == 0 && f == 0) {
        v.zero = 1;
        return v;
    }
    v.m = (__int128)(f | 0x800000u);
    v.e = (int)e - 127 - 23;
    return v;
}

static uint32_t round_f32(int neg, unsigned __int128 mag, int e)
{
    rat_int r;
    memset(&r, 0, sizeof r);
    for (int i = 0; i < 4 && mag; i++) {
        r.l[i] = (uint32_t)mag;
        mag >>= 32;
        r.n = i + 1;
    }
    r.neg = neg && r.n;
    return rat_round(lad_format_find("f32"), &r, e, LAD_RNE, LAD_OVF_INF);
}

static uint32_t ref_add(uint32_t x, uint32_t y)
{
    val a = decode_f32ish(x), b = decode_f32ish(y);
    if (a.zero && b.zero)
        return a.neg && b.neg ? 0x80000000u : 0;
    if (a.zero)
        return y;
    if (b.zero)
        return x;
    int lo = a.e < b.e ? a.e : b.e;
    __int128 s = (a.neg ? -a.m : a.m) * ((__int128)1 << (a.e - lo)) +
                 (b.neg ? -b.m : b.m) * ((__int128)1 << (b.e - lo));
    return round_f32(s < 0, (unsigned __int128)(s < 0 ? -s : s), lo);
}

static uint32_t ref_mul(uint32_t x, uint32_t y)
{
    val a = decode_f32ish(x), b = decode_f32ish(y);
    if (a.zero || b.zero)
        return (a.neg ^ b.neg) ? 0x80000000u : 0;
    return round_f32(a.neg ^ b.neg, (unsigned __int128)(a.m * b.m), a.e + b.e);
}

/* ---- the reference GEMM element */

/* The MMAs of K lanes [k0, k1) of row a and column b (strides 1 and ldb)
** chained from c, by rat_eval; with promote n, restarted every n MMAs and
** added into an f32 accumulator starting at c. */
static uint64_t ref_slice(const lad_datapath *dp, int promote, const uint64_t *a,
                          const uint64_t *b, int ldb, int k0, int k1, uint64_t c)
{
    lad_case cs;
    memset(&cs, 0, sizeof cs);
    uint64_t acc = c, d = 0;
    int n = 0;
    for (int k = k0; k < k1; k += dp->k) {
        for (int l = 0; l < dp->k; l++) {
            cs.a[l] = a[k + l];
            cs.b[l] = b[(size_t)(k + l) * ldb];
        }
        cs.c = promote == 0 ? acc : n ? d : 0;
        d = rat_eval(dp, &cs);
        if (promote == 0)
            acc = d;
        else if (++n == promote || k + dp->k >= k1) {
            acc = ref_add(acc, d);
            n = 0;
        }
    }
    return acc;
}

static void chain_vs_rational(const char *preset)
{
    const lad_preset *p = lad_preset_find(preset);
    char name[96];
    snprintf(name, sizeof name, "program-chain-rational-%s", preset);
    if (p == NULL) {
        test_check(0, name, "no preset");
        return;
    }
    const lad_datapath *dp = &p->dp;
    enum { M = 5, N = 7 };
    int K = 4 * dp->k, lda = K + 3, ldb = N + 2, ldc = N + 1, ldd = N + 5;
    uint64_t *A = calloc((size_t)M * lda, sizeof(uint64_t)), *B = calloc((size_t)K * ldb, sizeof(uint64_t));
    uint64_t *C = calloc((size_t)M * ldc, sizeof(uint64_t)), *D = calloc((size_t)M * ldd, sizeof(uint64_t));
    for (int i = 0; i < M * lda; i++)
        A[i] = next() & word_mask(&dp->a);
    for (int i = 0; i < K * ldb; i++)
        B[i] = next() & word_mask(&dp->b);
    for (int i = 0; i < M * ldc; i++)
        C[i] = next() & word_mask(&dp->c);
    int rc = lad_gemm(dp, NULL, M, N, K, A, lda, B, ldb, C, ldc, D, ldd, 3);
    int bad = 0;
    uint64_t want = 0, got = 0;
    for (int i = 0; i < M && rc == LAD_OK; i++)
        for (int j = 0; j < N; j++) {
            uint64_t r = ref_slice(dp, 0, A + (size_t)i * lda, B + j, ldb, 0, K,
                                   C[(size_t)i * ldc + j]);
            if (r != D[(size_t)i * ldd + j] && !bad++) {
                want = r;
                got = D[(size_t)i * ldd + j];
            }
        }
    test_check(rc == LAD_OK && bad == 0, name, "rc %d, %d of %d words differ "
               "(first: expected 0x%08" PRIx64 ", got 0x%08" PRIx64 ")", rc, bad, M * N, want, got);
    free(A);
    free(B);
    free(C);
    free(D);
}

/* A bf16 GEMM of moderate values through prog, against the reference with
** the same promotion, slices, reduction order and scales. */
static void program_vs_rational(const char *name, const lad_program *prog, int K)
{
    const lad_datapath *dp = &lad_preset_find("sm90-mma-bf16-f32")->dp;
    enum { M = 3, N = 4 };
    uint64_t A[3 * 512], B[512 * 4], C[3 * 4], D[3 * 4];
    for (int i = 0; i < M * K; i++)
        A[i] = bf16_moderate();
    for (int i = 0; i < K * N; i++)
        B[i] = bf16_moderate();
    for (int i = 0; i < M * N; i++)
        C[i] = (bf16_moderate() << 16);
    int rc = lad_gemm(dp, prog, M, N, K, A, K, B, N, C, N, D, N, 2);
    int bad = 0;
    int len = K / prog->split;
    for (int i = 0; i < M && rc == LAD_OK; i++)
        for (int j = 0; j < N; j++) {
            uint64_t s[8] = {0};
            for (int t = 0; t < prog->split; t++)
                s[t] = ref_slice(dp, prog->promote, A + i * K, B + j, N, t * len,
                                 (t + 1) * len, t ? 0 : C[i * N + j]);
            uint64_t v = s[0];
            if (prog->reduce == LAD_REDUCE_SERIAL)
                for (int t = 1; t < prog->split; t++)
                    v = ref_add(v, s[t]);
            else if (prog->split == 4)
                v = ref_add(ref_add(s[0], s[1]), ref_add(s[2], s[3]));
            if (prog->scale_a != 0x3f800000u || prog->scale_b != 0x3f800000u)
                v = ref_mul(v, ref_mul(prog->scale_a, prog->scale_b));
            bad += v != D[i * N + j];
        }
    test_check(rc == LAD_OK && bad == 0, name, "rc %d, %d of %d words differ", rc,
               bad, M * N);
}

static void set_cases(void)
{
    lad_program p;
    lad_err err = {0};
    lad_program_init(&p);
    TEST_EQ_INT("program-init-split", 1, p.split);
    TEST_EQ_U32("program-init-scale", 0x3f800000u, p.scale_a);
    TEST_EQ_INT("program-set-promote", LAD_OK, lad_program_set(&p, "promote", "4", &err));
    TEST_EQ_INT("program-set-promote-value", 4, p.promote);
    TEST_EQ_INT("program-set-reduce", LAD_OK, lad_program_set(&p, "reduce", "tree", &err));
    TEST_EQ_INT("program-set-reduce-value", LAD_REDUCE_TREE, p.reduce);
    TEST_EQ_INT("program-set-out", LAD_OK, lad_program_set(&p, "out", "bf16", &err));
    TEST_EQ_INT("program-set-out-width", 16, p.out.width);
    TEST_EQ_INT("program-set-out-acc", LAD_OK, lad_program_set(&p, "out", "acc", &err));
    TEST_EQ_INT("program-set-out-acc-width", 0, p.out.width);
    TEST_EQ_INT("program-set-scale", LAD_OK, lad_program_set(&p, "scale_b", "0x40000000", &err));
    TEST_EQ_U32("program-set-scale-value", 0x40000000u, p.scale_b);

    static const char *const bad[][2] = {
        {"promote", "x"}, {"promote", "-1"}, {"split", "0"}, {"split", "65"},
        {"reduce", "up"}, {"scale_a", "1.0"}, {"scale_a", "0x"}, {"scale_a", "0x100000000"},
        {"out", "f128"}, {"out_round", "up"}, {"out_overflow", "wrap"}, {"spilt", "2"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char name[64];
        lad_err e = {0};
        snprintf(name, sizeof name, "program-set-bad-%s-%zu", bad[i][0], i);
        int rc = lad_program_set(&p, bad[i][0], bad[i][1], &e);
        /* the message names the key, and the value when the key is known */
        int last = i == sizeof bad / sizeof bad[0] - 1;
        test_check(rc == LAD_EDATA && strstr(e.msg, bad[i][0]) &&
                   (last || strstr(e.msg, bad[i][1])), name,
                   "rc %d, message '%s'", rc, e.msg);
    }
}

static void check_cases(void)
{
    lad_program p;
    lad_err err = {0};
    lad_program_init(&p);
    const char *refused[] = {"sm100-tcgen05-mxf8f6f4-e4m3-f32", "sm80-mma-s8xs8-s32",
                             "sm100-tcgen05-sp-bf16-f32"};
    for (int i = 0; i < 3; i++) {
        char name[80];
        lad_err e = {0};
        snprintf(name, sizeof name, "program-check-refuses-%s", refused[i]);
        int rc = lad_program_check(&lad_preset_find(refused[i])->dp, &p, 0, &e);
        test_check(rc == LAD_EDATA && strstr(e.msg, refused[i]), name, "rc %d '%s'", rc, e.msg);
    }
    const lad_datapath *bf = &lad_preset_find("sm90-mma-bf16-f32")->dp;
    TEST_EQ_INT("program-check-k-multiple", LAD_EDATA, lad_program_check(bf, &p, 24, &err));
    p.split = 2;
    TEST_EQ_INT("program-check-k-split", LAD_EDATA, lad_program_check(bf, &p, 48, &err));
    TEST_EQ_INT("program-check-k-split-ok", LAD_OK, lad_program_check(bf, &p, 64, &err));

    /* a datapath whose d (bf16) cannot be fed back as its c (f32) */
    lad_datapath dp = *bf;
    dp.d = *lad_format_find("bf16");
    dp.nan = lad_format_nan(&dp.d);
    lad_program_init(&p);
    TEST_EQ_INT("program-check-nochain-dp", LAD_OK, lad_datapath_check(&dp, &err));
    TEST_EQ_INT("program-check-nochain", LAD_EDATA, lad_program_check(&dp, &p, 16, &err));
    p.promote = 2;
    TEST_EQ_INT("program-check-nochain-promote2", LAD_EDATA, lad_program_check(&dp, &p, 16, &err));
    p.promote = 1;
    TEST_EQ_INT("program-check-promote1", LAD_OK, lad_program_check(&dp, &p, 16, &err));

    uint64_t w[64] = {0};
    TEST_EQ_INT("program-gemm-bad-lda", LAD_EDATA,
                lad_gemm(bf, NULL, 1, 1, 16, w, 8, w, 1, NULL, 0, w, 1, 1));
    TEST_EQ_INT("program-gemm-empty", LAD_OK,
                lad_gemm(bf, NULL, 0, 4, 16, w, 16, w, 4, NULL, 0, w, 4, 1));
}

static void threads_cases(void)
{
    const lad_datapath *dp = &lad_preset_find("sm90-wgmma-e4m3-f32")->dp;
    enum { M = 33, N = 17, K = 128 };
    static uint64_t A[M * K], B[K * N], D1[M * N], D8[M * N], Z[M * N], DZ[M * N];
    for (int i = 0; i < M * K; i++)
        A[i] = next() & 0xff;
    for (int i = 0; i < K * N; i++)
        B[i] = next() & 0xff;
    const lad_program *p4 = lad_program_preset_find("fp8-promote4");
    int rc = lad_gemm(dp, p4, M, N, K, A, K, B, N, NULL, 0, D1, N, 1);
    rc |= lad_gemm(dp, p4, M, N, K, A, K, B, N, NULL, 0, D8, N, 8);
    test_check(rc == LAD_OK && !memcmp(D1, D8, sizeof D1), "program-threads-same",
               "rc %d; one thread and eight differ", rc);
    rc = lad_gemm(dp, p4, M, N, K, A, K, B, N, Z, N, DZ, N, 0);
    test_check(rc == LAD_OK && !memcmp(D1, DZ, sizeof D1), "program-null-c-is-zero",
               "rc %d; C NULL and C = +0 differ", rc);
}

void test_program(void)
{
    set_cases();
    check_cases();
    static const char *chained[] = {
        "sm90-mma-bf16-f32", "sm90-mma-f16-f16", "sm90-mma-tf32-f32",
        "sm90-wgmma-e4m3-f32", "sm90-wgmma-e5m2-f16", "sm100-tcgen05-f16-f32",
        "sm89-mma-e4m3-f32", "sm70-mma-f16-f16",
    };
    for (size_t i = 0; i < sizeof chained / sizeof chained[0]; i++)
        chain_vs_rational(chained[i]);

    lad_program p;
    lad_program_init(&p);
    p.promote = 3;    /* K 7 MMAs: groups of 3, 3 and 1 */
    program_vs_rational("program-promote3-rational", &p, 7 * 16);
    lad_program_init(&p);
    p.split = 4;
    program_vs_rational("program-split4-serial-rational", &p, 8 * 16);
    p.reduce = LAD_REDUCE_TREE;
    program_vs_rational("program-split4-tree-rational", &p, 8 * 16);
    p.promote = 2;
    p.scale_a = 0x3f400000u;  /* 0.75 */
    p.scale_b = 0x40a00000u;  /* 5 */
    program_vs_rational("program-split4-promote2-scaled-rational", &p, 16 * 16);
    threads_cases();
}
