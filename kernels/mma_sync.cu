/*
** Warp-level mma.sync kernels: one extern "C" kernel per exact PTX
** instruction, each one warp per tile.
**
** Build (what kernels/kernels.mk runs, once per target):
**
**   nvcc -cubin -O2 -gencode=arch=compute_80,code=sm_80 \
**        -o build/rel/kernels/mma_sync.sm_80.cubin kernels/mma_sync.cu
**
** with targets sm_80, sm_89, sm_90a and sm_100a. The fp8 kernels need
** sm_89 or later and are left out of the sm_80 cubin (__CUDA_ARCH__ guard).
** On sm_90a and sm_100a ptxas lowers fp8 mma.sync to fp8->f16 unpacks plus
** two HMMA.16816: the kernel is the same, the datapath is not
** (docs/kernels.md, docs/reference/ptx-notes.md section 5).
**
** Data (packed by kernels/layout.c, image order [tile][register][lane]):
**   a: 4 words per lane, b: 2 words per lane, c and d: 4 (f32, s32) or
**   2 (f16x2) words per lane. Registers are raw .b32 bits throughout ("r"
**   constraints), so no float conversion can touch a word.
**
** mma.sync is synchronous within the warp: no fence is needed.
*/
#include <stdint.h>
#include "kparams.h"

/* One warp per tile, tiles strided over the whole grid. */
#define LAD_WARP_LOOP                                                        \
    const uint32_t lane = threadIdx.x & 31;                                  \
    const uint32_t nwarps = (gridDim.x * blockDim.x) >> 5;                   \
    for (uint32_t t = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;          \
         t < p.ntiles; t += nwarps)

#define LAD_SIG                                                              \
    (const uint32_t *__restrict__ a, const uint32_t *__restrict__ b,        \
     const uint32_t *__restrict__ c, const uint32_t *__restrict__ s,        \
     uint32_t *__restrict__ d, lad_kparams p)

/* This lane's words of tile t: A and B always in their full-K slots (4 and
** 2 registers), C and D in CD registers. */
#define LAD_TILE_PTRS(CD)                                                    \
    const uint32_t *pa = a + (size_t)t * 4 * 32 + lane;                      \
    const uint32_t *pb = b + (size_t)t * 2 * 32 + lane;                      \
    const uint32_t *pc = c + (size_t)t * (CD) * 32 + lane;                   \
    uint32_t *pd = d + (size_t)t * (CD) * 32 + lane

/* A in 4 registers, B in 2, C/D in 4 (f32 or s32 accumulators). */
#define LAD_MMA_C4(NAME, INSTR)                                              \
extern "C" __global__ void NAME LAD_SIG                                      \
{                                                                            \
    (void)s;                                                                 \
    LAD_WARP_LOOP {                                                          \
        LAD_TILE_PTRS(4);                                                    \
        uint32_t a0 = pa[0], a1 = pa[32], a2 = pa[64], a3 = pa[96];          \
        uint32_t b0 = pb[0], b1 = pb[32];                                    \
        uint32_t c0 = 0, c1 = 0, c2 = 0, c3 = 0, d0, d1, d2, d3;             \
        if (p.accumulate) {                                                  \
            c0 = pc[0]; c1 = pc[32]; c2 = pc[64]; c3 = pc[96];               \
        }                                                                    \
        asm volatile(INSTR " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9},"         \
                     " {%10,%11,%12,%13};"                                   \
                     : "=r"(d0), "=r"(d1), "=r"(d2), "=r"(d3)                \
                     : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1), \
                       "r"(c0), "r"(c1), "r"(c2), "r"(c3));                  \
        pd[0] = d0; pd[32] = d1; pd[64] = d2; pd[96] = d3;                   \
    }                                                                        \
}

/* A in 4 registers, B in 2, C/D in 2 f16x2 registers. */
#define LAD_MMA_C2(NAME, INSTR)                                              \
extern "C" __global__ void NAME LAD_SIG                                      \
{                                                                            \
    (void)s;                                                                 \
    LAD_WARP_LOOP {                                                          \
        LAD_TILE_PTRS(2);                                                    \
        uint32_t a0 = pa[0], a1 = pa[32], a2 = pa[64], a3 = pa[96];          \
        uint32_t b0 = pb[0], b1 = pb[32];                                    \
        uint32_t c0 = 0, c1 = 0, d0, d1;                                     \
        if (p.accumulate) {                                                  \
            c0 = pc[0]; c1 = pc[32];                                         \
        }                                                                    \
        asm volatile(INSTR " {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%8,%9};"      \
                     : "=r"(d0), "=r"(d1)                                    \
                     : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1), \
                       "r"(c0), "r"(c1));                                    \
        pd[0] = d0; pd[32] = d1;                                             \
    }                                                                        \
}

/* The half-K shapes: A in 2 registers, B in 1, C/D in 4 or 2. The image
** keeps the full-K register slots (a: 4 words per lane, b: 2); the upper
** ones are unused. */
#define LAD_MMA_HALF(NAME, INSTR, CD)                                        \
extern "C" __global__ void NAME LAD_SIG                                      \
{                                                                            \
    (void)s;                                                                 \
    LAD_WARP_LOOP {                                                          \
        LAD_TILE_PTRS(CD);                                                   \
        uint32_t a0 = pa[0], a1 = pa[32], b0 = pb[0];                        \
        uint32_t cr[4] = {0, 0, 0, 0}, dr[4];                                \
        if (p.accumulate)                                                    \
            for (int r = 0; r < CD; r++)                                     \
                cr[r] = pc[32 * r];                                          \
        if (CD == 4)                                                         \
            asm volatile(INSTR " {%0,%1,%2,%3}, {%4,%5}, {%6},"              \
                         " {%7,%8,%9,%10};"                                  \
                         : "=r"(dr[0]), "=r"(dr[1]), "=r"(dr[2]), "=r"(dr[3])\
                         : "r"(a0), "r"(a1), "r"(b0),                        \
                           "r"(cr[0]), "r"(cr[1]), "r"(cr[2]), "r"(cr[3]));  \
        else                                                                 \
            asm volatile(INSTR " {%0,%1}, {%2,%3}, {%4}, {%5,%6};"           \
                         : "=r"(dr[0]), "=r"(dr[1])                          \
                         : "r"(a0), "r"(a1), "r"(b0), "r"(cr[0]), "r"(cr[1]));\
        for (int r = 0; r < CD; r++)                                         \
            pd[32 * r] = dr[r];                                              \
    }                                                                        \
}

/* sm_80 and later. */
LAD_MMA_C4(lad_mma_m16n8k8_f32_tf32,
           "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32")
LAD_MMA_C4(lad_mma_m16n8k16_f32_f16,
           "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32")
LAD_MMA_C4(lad_mma_m16n8k16_f32_bf16,
           "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32")
LAD_MMA_C2(lad_mma_m16n8k16_f16_f16,
           "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16")

LAD_MMA_C4(lad_mma_m16n8k32_s32_s8_s8,
           "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32")
LAD_MMA_C4(lad_mma_m16n8k32_s32_s8_u8,
           "mma.sync.aligned.m16n8k32.row.col.s32.s8.u8.s32")
LAD_MMA_C4(lad_mma_m16n8k32_s32_u8_s8,
           "mma.sync.aligned.m16n8k32.row.col.s32.u8.s8.s32")
LAD_MMA_C4(lad_mma_m16n8k32_s32_u8_u8,
           "mma.sync.aligned.m16n8k32.row.col.s32.u8.u8.s32")
LAD_MMA_C4(lad_mma_m16n8k32_s32_s8_s8_sat,
           "mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32")
LAD_MMA_C4(lad_mma_m16n8k32_s32_s8_u8_sat,
           "mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.u8.s32")
LAD_MMA_C4(lad_mma_m16n8k32_s32_u8_s8_sat,
           "mma.sync.aligned.m16n8k32.row.col.satfinite.s32.u8.s8.s32")
LAD_MMA_C4(lad_mma_m16n8k32_s32_u8_u8_sat,
           "mma.sync.aligned.m16n8k32.row.col.satfinite.s32.u8.u8.s32")

LAD_MMA_HALF(lad_mma_m16n8k4_f32_tf32,
             "mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32", 4)
LAD_MMA_HALF(lad_mma_m16n8k8_f32_f16,
             "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32", 4)
LAD_MMA_HALF(lad_mma_m16n8k8_f32_bf16,
             "mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32", 4)
LAD_MMA_HALF(lad_mma_m16n8k8_f16_f16,
             "mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16", 2)

/* fp8: sm_89 and later (native QMMA on sm_89, emulated on sm_90a/sm_100a). */
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 890
LAD_MMA_C4(lad_mma_m16n8k32_f32_e4m3_e4m3,
           "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32")
LAD_MMA_C4(lad_mma_m16n8k32_f32_e4m3_e5m2,
           "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e5m2.f32")
LAD_MMA_C4(lad_mma_m16n8k32_f32_e5m2_e4m3,
           "mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e4m3.f32")
LAD_MMA_C4(lad_mma_m16n8k32_f32_e5m2_e5m2,
           "mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e5m2.f32")
LAD_MMA_C2(lad_mma_m16n8k32_f16_e4m3_e4m3,
           "mma.sync.aligned.m16n8k32.row.col.f16.e4m3.e4m3.f16")
LAD_MMA_C2(lad_mma_m16n8k32_f16_e4m3_e5m2,
           "mma.sync.aligned.m16n8k32.row.col.f16.e4m3.e5m2.f16")
LAD_MMA_C2(lad_mma_m16n8k32_f16_e5m2_e4m3,
           "mma.sync.aligned.m16n8k32.row.col.f16.e5m2.e4m3.f16")
LAD_MMA_C2(lad_mma_m16n8k32_f16_e5m2_e5m2,
           "mma.sync.aligned.m16n8k32.row.col.f16.e5m2.e5m2.f16")
/* m16n8k16 fp8: in the table for sm_89 only; ptxas emulates it on sm_90a
** and sm_100a with two HMMA.1688 per instruction, a datapath no preset
** describes (docs/kernels.md). */
#define LAD_FP8_K16(A, B)                                                    \
LAD_MMA_HALF(lad_mma_m16n8k16_f32_##A##_##B,                                 \
             "mma.sync.aligned.m16n8k16.row.col.f32." #A "." #B ".f32", 4)   \
LAD_MMA_HALF(lad_mma_m16n8k16_f16_##A##_##B,                                 \
             "mma.sync.aligned.m16n8k16.row.col.f16." #A "." #B ".f16", 2)
LAD_FP8_K16(e4m3, e4m3)
LAD_FP8_K16(e4m3, e5m2)
LAD_FP8_K16(e5m2, e4m3)
LAD_FP8_K16(e5m2, e5m2)
#endif

/*
** RTX Blackwell (sm_120a only): kind::f8f6f4 and the block-scaled kinds.
** fp6 and fp4 elements of kind::f8f6f4 and kind::mxf8f6f4 sit one to a
** byte (e2m1 in bits 5..2, e2m3/e3m2 in bits 5..0: PTX ISA, mma); those of
** kind::mxf4 and mxf4nvf4 two to a byte. The scaled kernels read this
** lane's scale words s[tile*64 + lane] (A) and s[tile*64 + 32 + lane] (B)
** with selectors {0, 0}: byte 0 (1X), bytes 0-1 (2X) or 0-3 (4X), and for
** A the lanes with lane % 4 < 2, for B those with lane % 4 == 0
** (kernels/layout.c places the bytes there).
*/
#if defined(__CUDA_ARCH_FEAT_SM120_ALL)
#define LAD_MMA_SCALED(NAME, INSTR)                                          \
extern "C" __global__ void NAME LAD_SIG                                      \
{                                                                            \
    LAD_WARP_LOOP {                                                          \
        LAD_TILE_PTRS(4);                                                    \
        uint32_t a0 = pa[0], a1 = pa[32], a2 = pa[64], a3 = pa[96];          \
        uint32_t b0 = pb[0], b1 = pb[32];                                    \
        uint32_t sa = s[(size_t)t * 64 + lane], sb = s[(size_t)t * 64 + 32 + lane]; \
        uint32_t c0 = 0, c1 = 0, c2 = 0, c3 = 0, d0, d1, d2, d3;             \
        if (p.accumulate) {                                                  \
            c0 = pc[0]; c1 = pc[32]; c2 = pc[64]; c3 = pc[96];               \
        }                                                                    \
        asm volatile(INSTR " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9},"         \
                     " {%10,%11,%12,%13}, %14, {0, 0}, %15, {0, 0};"         \
                     : "=r"(d0), "=r"(d1), "=r"(d2), "=r"(d3)                \
                     : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1), \
                       "r"(c0), "r"(c1), "r"(c2), "r"(c3), "r"(sa), "r"(sb)); \
        pd[0] = d0; pd[32] = d1; pd[64] = d2; pd[96] = d3;                   \
    }                                                                        \
}

#define LAD_F8F6F4(A, B)                                                     \
LAD_MMA_C4(lad_mma_f8f6f4_m16n8k32_f32_##A##_##B,                            \
           "mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.f32." #A "." #B ".f32") \
LAD_MMA_C2(lad_mma_f8f6f4_m16n8k32_f16_##A##_##B,                            \
           "mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.f16." #A "." #B ".f16") \
LAD_MMA_SCALED(lad_mma_mxf8f6f4_m16n8k32_f32_##A##_##B,                      \
           "mma.sync.aligned.m16n8k32.row.col.kind::mxf8f6f4.block_scale."   \
           "scale_vec::1X.f32." #A "." #B ".f32.ue8m0")
#define LAD_F8F6F4_ROW(A)                                                    \
LAD_F8F6F4(A, e4m3) LAD_F8F6F4(A, e5m2) LAD_F8F6F4(A, e2m3)                  \
LAD_F8F6F4(A, e3m2) LAD_F8F6F4(A, e2m1)
LAD_F8F6F4_ROW(e4m3)
LAD_F8F6F4_ROW(e5m2)
LAD_F8F6F4_ROW(e2m3)
LAD_F8F6F4_ROW(e3m2)
LAD_F8F6F4_ROW(e2m1)

LAD_MMA_SCALED(lad_mma_mxf4_m16n8k64_f32,
               "mma.sync.aligned.m16n8k64.row.col.kind::mxf4.block_scale."
               "scale_vec::2X.f32.e2m1.e2m1.f32.ue8m0")
LAD_MMA_SCALED(lad_mma_mxf4nvf4_2x_m16n8k64_f32,
               "mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale."
               "scale_vec::2X.f32.e2m1.e2m1.f32.ue8m0")
LAD_MMA_SCALED(lad_mma_mxf4nvf4_4x_m16n8k64_f32,
               "mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale."
               "scale_vec::4X.f32.e2m1.e2m1.f32.ue4m3")
#endif
