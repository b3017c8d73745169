/*
** The lane kernels' internals, shared by gemm_kernel.c (the GEMM block
** kernel) and cases_kernel.c (the case kernel) and by nothing else: the
** builds they are compiled for (AVX2, and AVX-512 with its target), and
** the few conditions and the one scalar step both kernels take, static
** inline here so that neither file calls the other.
*/
#ifndef LADDER_MODEL_KERNEL_IMPL_H
#define LADDER_MODEL_KERNEL_IMPL_H

#include "gemm_kernel.h"
#include "datapath_int.h"
#include "params.h"

#define W LAD_BLOCK_W

#if defined(__x86_64__) && defined(__GNUC__)
#define BLOCK_AVX2_CLONE 1
#include <immintrin.h>
#else
#define BLOCK_AVX2_CLONE 0
#endif

/* one block is one v8i of columns (datapath_int.h) */
_Static_assert(W == 8, "LAD_BLOCK_W is the eight lanes of v8i");

#if BLOCK_AVX2_CLONE
/* The AVX-512 build's target, and its sixteen lanes (the end of each
** kernel's file). */
#define AVX512 "avx2,avx512f,avx512dq,avx512bw,avx512vl"
#if defined(__clang__)
#define AVX512_BEGIN \
    _Pragma("clang attribute push(__attribute__((target(AVX512))), apply_to = function)")
#define AVX512_END _Pragma("clang attribute pop")
#else
#define AVX512_BEGIN \
    _Pragma("GCC push_options") \
    _Pragma("GCC target(\"avx2,avx512f,avx512dq,avx512bw,avx512vl\")")
#define AVX512_END _Pragma("GCC pop_options")
#endif
typedef int32_t v16i __attribute__((vector_size(64)));
typedef uint32_t v16u __attribute__((vector_size(64)));
#endif

/* Whether the pass sums of dp need the two halves (lad_block's halves). */
static inline int halves_of(const lad_datapath *dp)
{
    int lanes = dp->pass < dp->k ? dp->pass : dp->k;
    return dp->window + 2 + ceil_log2(lanes) > 31;
}

/* lad_block_ok's conditions on an unscaled datapath dp whose plan is pl:
** the plan's fast path does the rest of the datapath (IEEE-subnormal
** operands of 32 bits or fewer); the rows params.def's LAD_IMPL gives to
** this kernel (its gemm column, or with cases the cases column) are the
** kernel's, the others left to the plan. Its products and window terms
** stay below 2^31 (with cases, big8), and a pass of even and odd lanes
** starts at an even one. */
static inline int plan_ok(const lad_datapath *dp, const lad_plan *pl, int cases)
{
    int off = (int)(pl->a.mb + pl->b.mb);
    int lanes = dp->pass < dp->k ? dp->pass : dp->k;
    int top = dp->window > off ? dp->window : off;
    int extra = cases ? top + 2 <= 31 && (!dp->even_odd || lanes % 2 == 0)
                      : lad_impl_gap(LAD_EV_GEMM, dp, pl->off) < 0;
    return pl->path == LAD_PATH_FAST && extra && top + 2 <= 31 &&
           dp->window + 2 + ceil_log2((lanes + 1) / 2) <= 31;
}

/* Whether chain_body computes the chains of lad_block_ok's datapath dp
** whose rows LAD_IMPL's chains column covers (passes and MMAs that round
** toward zero or to nearest even, C anchored in the window or added last,
** no zero floor, overflow to Inf), and the case kernel those its cases
** column covers: formats that round64 does inline (IEEE subnormals, Inf
** and NaN; f32, e8m13, f16), and D words that read as C words give the
** same values (D = C, or D the same exponent range with fewer fraction
** bits, as wgmma's e8m13 in f32), so that a D need not be encoded to be
** fed on as the next C. */
static inline int lanes_fit(const lad_datapath *dp, const lad_plan *pl, const lad_opfmt *od)
{
    const lad_format *c = &dp->c, *d = &dp->d, *fs[2] = {&dp->acc, &dp->d};
    for (int i = 0; i < 2; i++)
        if (fs[i]->kind != LAD_FLOAT || fs[i]->width > 32 || fs[i]->mbits > 23 ||
            fs[i]->sub != LAD_SUB_IEEE || fs[i]->inf != LAD_INF_IEEE ||
            fs[i]->nan != LAD_NAN_IEEE)
            return 0;
    return pl->fast_c && pl->fast_acc && lad_opfmt_usable(d, od) && c->mbits <= 23 &&
           c->ebits == d->ebits && c->bias == d->bias && c->width == d->width &&
           c->mbits + c->pad == d->mbits + d->pad && c->mbits >= d->mbits &&
           dp->window + 1 <= 29;
}

/* Whether the CPU runs the AVX-512 build (chain_avx512, cases_avx512):
** every extension of its target (AVX512, below). */
static inline int avx512(void)
{
#if BLOCK_AVX2_CLONE
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("avx512f") &&
           __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512vl");
#else
    return 0;
#endif
}

/* One column's pass the way mma_body does it (for the lanes chain_pass's
** vector step leaves: no product in the pass, or a product sum at 2^30 or
** beyond): the running value *t in, the word of out rounded from it and
** the pass's sum su at anchor x out. Returns 1 unless the result is NaN
** or Inf. */
static inline int pass_one(const lad_datapath *dp, const lad_format *out, const lad_opfmt *od,
                    int mode, int nothing, int64_t su, int x, term *t)
{
    lad_word_t w;
    if (nothing) {
        w = lad_add_round(out, 0, 0, t, mode, dp->overflow);
    } else {
        int q = x - dp->window;
        int64_t s = su;
        if (t->cls != LAD_ZERO) {
            int sh = t->exp - q;
            uint64_t a = sh >= 0 ? (uint64_t)t->mag << sh
                                 : -sh < 64 ? (uint64_t)t->mag >> -sh : 0;
            s += t->neg ? -(int64_t)a : (int64_t)a;
        }
        w = round64(out, s, q, mode, dp->overflow);
    }
    *t = opfmt_term(od, w);
    return t->cls < LAD_INFINITE;
}

#endif
