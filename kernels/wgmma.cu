/*
** Hopper warpgroup kernels (wgmma.mma_async, sm_90a only): one extern "C"
** kernel per exact PTX instruction, one warpgroup (128 threads, one CTA)
** per tile, shape m64n8 with the K of the element type (32 bytes per row).
**
** Build (what kernels/kernels.mk runs):
**
**   nvcc -cubin -O2 -gencode=arch=compute_90a,code=sm_90a \
**        -o build/rel/kernels/wgmma.sm_90a.cubin kernels/wgmma.cu
**
** (-arch=sm_90a with -c fails under nvcc 13: it also checks a generic
** compute_90 PTX, which rejects wgmma; docs/reference/ptx-notes.md section 1.)
**
** A and B come from shared memory (the "SS" form) in the K-major,
** no-swizzle core-matrix layout of kernels/layout.c: 8 rows x 16 bytes per
** core matrix, LBO 128 bytes (next core matrix in K), SBO 256 bytes (next 8
** rows). The host packs those bytes and builds the descriptor with a zero
** start address (p.desc_a, p.desc_b); the kernel adds the address of its
** own buffer. B is stored as 8 rows (one per column of B) of 32 bytes.
**
** Per tile: copy A (first p.a_words words, the rest zero) and B into shared
** memory; fence.proxy.async so the async proxy sees those writes; barrier;
** load C into the accumulator registers; wgmma.fence; the wgmma; commit;
** wait 0; store D; barrier before the buffers are reused.
**
** C/D images are [tile][register][thread] for the first p.cd_threads
** threads. Registers are raw .b32 bits ("r" constraints).
*/
#include <stdint.h>
#include "kparams.h"

#define LAD_SIG                                                              \
    (const uint32_t *__restrict__ a, const uint32_t *__restrict__ b,        \
     const uint32_t *__restrict__ c, const uint32_t *__restrict__ s,        \
     uint32_t *__restrict__ d, lad_kparams p)

#define LAD_A_WORDS 512 /* 64 rows x 32 bytes */
#define LAD_B_WORDS 64  /* 8 rows x 32 bytes */

#if defined(__CUDA_ARCH_FEAT_SM90_ALL) || !defined(__CUDA_ARCH__)

/* The body around one wgmma; WGMMA is the asm statement on r[0..NC-1]. */
#define LAD_WGMMA_KERNEL(NAME, NC, WGMMA)                                    \
extern "C" __global__ void __launch_bounds__(128) NAME LAD_SIG               \
{                                                                            \
    __shared__ __align__(128) uint32_t sa[LAD_A_WORDS];                      \
    __shared__ __align__(128) uint32_t sb[LAD_B_WORDS];                      \
    (void)s;                                                                 \
    const uint32_t tid = threadIdx.x;                                        \
    const uint64_t da = p.desc_a |                                           \
        ((uint64_t)(((uint32_t)__cvta_generic_to_shared(sa) & 0x3FFFF) >> 4)); \
    const uint64_t db = p.desc_b |                                           \
        ((uint64_t)(((uint32_t)__cvta_generic_to_shared(sb) & 0x3FFFF) >> 4)); \
    const uint32_t acc = p.accumulate;                                       \
    const int mine = tid < p.cd_threads;                                     \
    for (uint32_t t = blockIdx.x; t < p.ntiles; t += gridDim.x) {            \
        for (uint32_t i = tid; i < LAD_A_WORDS; i += 128)                    \
            sa[i] = i < p.a_words ? a[(size_t)t * p.a_words + i] : 0;        \
        for (uint32_t i = tid; i < LAD_B_WORDS; i += 128)                    \
            sb[i] = i < p.b_words ? b[(size_t)t * p.b_words + i] : 0;        \
        uint32_t r[NC];                                                      \
        _Pragma("unroll")                                                    \
        for (int j = 0; j < NC; j++)                                         \
            r[j] = (acc && mine)                                             \
                ? c[((size_t)t * NC + j) * p.cd_threads + tid] : 0;          \
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");        \
        __syncthreads();                                                     \
        asm volatile("wgmma.fence.sync.aligned;" ::: "memory");             \
        WGMMA;                                                               \
        asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");      \
        asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");      \
        if (mine) {                                                          \
            _Pragma("unroll")                                                \
            for (int j = 0; j < NC; j++)                                     \
                d[((size_t)t * NC + j) * p.cd_threads + tid] = r[j];         \
        }                                                                    \
        __syncthreads();                                                     \
    }                                                                        \
}

/* Four accumulator registers (f32, s32); TAIL is what follows the
** scale-d predicate: ", 1, 1, 0, 0" (scale-a, scale-b, trans-a, trans-b),
** ", 1, 1" or "". */
#define LAD_WG4(NAME, INSTR, TAIL)                                           \
    LAD_WGMMA_KERNEL(NAME, 4,                                                \
        asm volatile("{\n .reg .pred q;\n setp.ne.b32 q, %6, 0;\n "          \
                     INSTR " {%0,%1,%2,%3}, %4, %5, q" TAIL ";\n}"           \
                     : "+r"(r[0]), "+r"(r[1]), "+r"(r[2]), "+r"(r[3])        \
                     : "l"(da), "l"(db), "r"(acc) : "memory"))

/* Two f16x2 accumulator registers. */
#define LAD_WG2(NAME, INSTR, TAIL)                                           \
    LAD_WGMMA_KERNEL(NAME, 2,                                                \
        asm volatile("{\n .reg .pred q;\n setp.ne.b32 q, %4, 0;\n "          \
                     INSTR " {%0,%1}, %2, %3, q" TAIL ";\n}"                 \
                     : "+r"(r[0]), "+r"(r[1])                                \
                     : "l"(da), "l"(db), "r"(acc) : "memory"))

#define LAD_WGI "wgmma.mma_async.sync.aligned."

LAD_WG4(lad_wgmma_m64n8k16_f32_f16,  LAD_WGI "m64n8k16.f32.f16.f16", ", 1, 1, 0, 0")
LAD_WG4(lad_wgmma_m64n8k16_f32_bf16, LAD_WGI "m64n8k16.f32.bf16.bf16", ", 1, 1, 0, 0")
LAD_WG2(lad_wgmma_m64n8k16_f16_f16,  LAD_WGI "m64n8k16.f16.f16.f16", ", 1, 1, 0, 0")
LAD_WG4(lad_wgmma_m64n8k8_f32_tf32,  LAD_WGI "m64n8k8.f32.tf32.tf32", ", 1, 1")

LAD_WG4(lad_wgmma_m64n8k32_f32_e4m3_e4m3, LAD_WGI "m64n8k32.f32.e4m3.e4m3", ", 1, 1")
LAD_WG4(lad_wgmma_m64n8k32_f32_e4m3_e5m2, LAD_WGI "m64n8k32.f32.e4m3.e5m2", ", 1, 1")
LAD_WG4(lad_wgmma_m64n8k32_f32_e5m2_e4m3, LAD_WGI "m64n8k32.f32.e5m2.e4m3", ", 1, 1")
LAD_WG4(lad_wgmma_m64n8k32_f32_e5m2_e5m2, LAD_WGI "m64n8k32.f32.e5m2.e5m2", ", 1, 1")
LAD_WG2(lad_wgmma_m64n8k32_f16_e4m3_e4m3, LAD_WGI "m64n8k32.f16.e4m3.e4m3", ", 1, 1")
LAD_WG2(lad_wgmma_m64n8k32_f16_e4m3_e5m2, LAD_WGI "m64n8k32.f16.e4m3.e5m2", ", 1, 1")
LAD_WG2(lad_wgmma_m64n8k32_f16_e5m2_e4m3, LAD_WGI "m64n8k32.f16.e5m2.e4m3", ", 1, 1")
LAD_WG2(lad_wgmma_m64n8k32_f16_e5m2_e5m2, LAD_WGI "m64n8k32.f16.e5m2.e5m2", ", 1, 1")

LAD_WG4(lad_wgmma_m64n8k32_s32_s8_s8, LAD_WGI "m64n8k32.s32.s8.s8", "")
LAD_WG4(lad_wgmma_m64n8k32_s32_s8_u8, LAD_WGI "m64n8k32.s32.s8.u8", "")
LAD_WG4(lad_wgmma_m64n8k32_s32_u8_s8, LAD_WGI "m64n8k32.s32.u8.s8", "")
LAD_WG4(lad_wgmma_m64n8k32_s32_u8_u8, LAD_WGI "m64n8k32.s32.u8.u8", "")
LAD_WG4(lad_wgmma_m64n8k32_s32_s8_s8_sat, LAD_WGI "m64n8k32.satfinite.s32.s8.s8", "")
LAD_WG4(lad_wgmma_m64n8k32_s32_s8_u8_sat, LAD_WGI "m64n8k32.satfinite.s32.s8.u8", "")
LAD_WG4(lad_wgmma_m64n8k32_s32_u8_s8_sat, LAD_WGI "m64n8k32.satfinite.s32.u8.s8", "")
LAD_WG4(lad_wgmma_m64n8k32_s32_u8_u8_sat, LAD_WGI "m64n8k32.satfinite.s32.u8.u8", "")

#endif
