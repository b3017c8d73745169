/*
** The kernel table: every kernel in kernels/mma_sync.cu, wgmma.cu and
** tcgen05.cu, with its PTX instruction, formats, targets and the tensor
** opcode ptxas 13.0 compiles it to on each target.
**
** The expected opcodes were read with cuobjdump from the cubins this build
** produces; tests/t6000-sass-opcodes.sh checks them again on every build,
** and devices/cuda.c records the one of the target that runs. Note the fp8
** mma.sync rows: native QMMA on sm_89 and sm_120a, but two f16 HMMAs on
** sm_90a and sm_100a (ptxas emulates them), so the datapath differs by
** target. kind::f8f6f4 and the block-scaled mma.sync kinds are sm_120a's.
**
** Pure C, compiled on every machine, so `ladder sass` and the tests can
** list kernels where there is no nvcc.
*/
#include "kernels.h"

#include <string.h>

#define T80 (1u << LAD_SM80)
#define T89 (1u << LAD_SM89)
#define T90 (1u << LAD_SM90A)
#define T100 (1u << LAD_SM100A)
#define T120 (1u << LAD_SM120A)

#define D LAD_PACK_DENSE
#define P LAD_PACK_PAD16
#define Y LAD_PACK_BYTE

/* mma.sync: K 8/16/32 with 32/16/8-bit elements, or half that K (m16n8k4
** tf32, m16n8k8 f16/bf16, m16n8k16 fp8). */
#define MMA(NAME, PTX, SHAPE, A, B, DF, K, BITS, CDB, SAT, CC, TG, S80, S89, S90, S100, S120) \
    {NAME, "mma_sync", PTX, "mma.sync", "", SHAPE, A, B, DF, "", K, 0, SAT,  \
     LAD_FAM_MMA, BITS, D, BITS, D, CDB, 0, CC, TG, {S80, S89, S90, S100, S120}}
#define MMA_ALL(NAME, PTX, SHAPE, A, B, DF, K, BITS, CDB, SAT, S)            \
    MMA(NAME, PTX, SHAPE, A, B, DF, K, BITS, CDB, SAT, 80,                  \
        T80 | T89 | T90 | T100 | T120, S, S, S, S, S)
#define MMA_FP8(NAME, PTX, A, B, DF, CDB, Q, H)                              \
    MMA(NAME, PTX, "m16n8k32", A, B, DF, 32, 8, CDB, 0, 89,                 \
        T89 | T90 | T100 | T120, NULL, Q, H, H, Q)

/* mma.sync fp8 m16n8k16, f32 and f16 results (two rows): native on sm_89
** and sm_120a, emulated elsewhere (no preset), so built for those two. */
#define MMA_FP8K16(A, B, OPS)                                                \
    MMA("lad_mma_m16n8k16_f32_" A "_" B,                                     \
        MS "m16n8k16.row.col.f32." A "." B ".f32", "m16n8k16", A, B, "f32",  \
        16, 8, 32, 0, 89, T89 | T120, NULL, "QMMA.16816.F32." OPS, NULL, NULL, \
        "QMMA.16816.F32." OPS),                                              \
    MMA("lad_mma_m16n8k16_f16_" A "_" B,                                     \
        MS "m16n8k16.row.col.f16." A "." B ".f16", "m16n8k16", A, B, "f16",  \
        16, 8, 16, 0, 89, T89 | T120, NULL, "QMMA.16816.F16." OPS, NULL, NULL, \
        "QMMA.16816.F16." OPS)

/* sm_120a mma.sync kinds. Element storage in the registers: 8-bit
** formats as they are, fp6 and fp4 one to a byte under kind::f8f6f4 and
** kind::mxf8f6f4 (LAD_PACK_BYTE), e2m1 two to a byte under mxf4*. */
#define R8_E4M3 "e4m3", "E4M3", 8, D
#define R8_E5M2 "e5m2", "E5M2", 8, D
#define R8_E2M3 "e2m3", "E2M3", 6, Y
#define R8_E3M2 "e3m2", "E3M2", 6, Y
#define R8_E2M1 "e2m1", "E2M1", 4, Y
#define KIND_(NAME, KIND, PTX, SHAPE, AN, AO, AB, AP, BN, BO, BB, BP, DF, SC, K, SB, CDB, S) \
    {NAME, "mma_sync", PTX, "mma.sync", KIND, SHAPE, AN, BN, DF, SC, K, SB,  \
     0, LAD_FAM_MMA, AB, AP, BB, BP, CDB, 0, 120, T120,                      \
     {NULL, NULL, NULL, NULL, S}}
#define KRS "mma.sync.aligned.m16n8k32.row.col.kind::"
#define F8K_(DF, DU, CDB, AN, AO, AB, AP, BN, BO, BB, BP)                    \
    KIND_("lad_mma_f8f6f4_m16n8k32_" DF "_" AN "_" BN, "f8f6f4",             \
          KRS "f8f6f4." DF "." AN "." BN "." DF, "m16n8k32", AN, AO, AB, AP,  \
          BN, BO, BB, BP, DF, "", 32, 0, CDB,                                \
          "QMMA.16832." DU "." AO "." BO)
#define MXK_(AN, AO, AB, AP, BN, BO, BB, BP)                                 \
    KIND_("lad_mma_mxf8f6f4_m16n8k32_f32_" AN "_" BN, "mxf8f6f4",            \
          KRS "mxf8f6f4.block_scale.scale_vec::1X.f32." AN "." BN ".f32.ue8m0", \
          "m16n8k32", AN, AO, AB, AP, BN, BO, BB, BP, "f32", "ue8m0", 32, 32, \
          32, "QMMA.SF.16832.F32." AO "." BO ".E8")
#define F8K(...) F8K_(__VA_ARGS__)
#define MXK(...) MXK_(__VA_ARGS__)
#define F8K_B(DF, DU, CDB, A)                                                \
    F8K(DF, DU, CDB, A, R8_E4M3), F8K(DF, DU, CDB, A, R8_E5M2),              \
    F8K(DF, DU, CDB, A, R8_E2M3), F8K(DF, DU, CDB, A, R8_E3M2),              \
    F8K(DF, DU, CDB, A, R8_E2M1)
#define F8K_ROWS(DF, DU, CDB)                                                \
    F8K_B(DF, DU, CDB, R8_E4M3), F8K_B(DF, DU, CDB, R8_E5M2),                \
    F8K_B(DF, DU, CDB, R8_E2M3), F8K_B(DF, DU, CDB, R8_E3M2),                \
    F8K_B(DF, DU, CDB, R8_E2M1)
#define MXK_B(A)                                                             \
    MXK(A, R8_E4M3), MXK(A, R8_E5M2), MXK(A, R8_E2M3), MXK(A, R8_E3M2),      \
    MXK(A, R8_E2M1)
#define MMA_F4(NAME, KIND, VEC, SC, SB, S)                                   \
    KIND_(NAME, KIND, "mma.sync.aligned.m16n8k64.row.col.kind::" KIND        \
          ".block_scale.scale_vec::" VEC ".f32.e2m1.e2m1.f32." SC, "m16n8k64", \
          "e2m1", "E2M1", 4, D, "e2m1", "E2M1", 4, D, "f32", SC, 64, SB, 32, S)

/* wgmma: sm_90a only, m64n8. */
#define WG(NAME, PTX, SHAPE, A, B, DF, K, BITS, CDB, SAT, S)                 \
    {NAME, "wgmma", PTX, "wgmma", "", SHAPE, A, B, DF, "", K, 0, SAT,        \
     LAD_FAM_WGMMA, BITS, D, BITS, D, CDB, 0, 90, T90, {NULL, NULL, S, NULL, NULL}}

/* tcgen05: sm_100a only, m128n8; idesc for M 128, N 8. */
#define ID_DENSE(DC, AC, BC, SAT)                                            \
    ((SAT ? 1u << 3 : 0u) | (uint32_t)(DC) << 4 | (uint32_t)(AC) << 7 |      \
     (uint32_t)(BC) << 10 | (uint32_t)(8 >> 3) << 17 | (uint32_t)(128 >> 4) << 24)
#define ID_SCALED(AC, BC, UE8M0)                                             \
    ((uint32_t)(AC) << 7 | (uint32_t)(BC) << 10 | (uint32_t)(8 >> 3) << 17 | \
     (UE8M0 ? 1u << 23 : 0u) | (uint32_t)(128 >> 4) << 24)
#define TC(NAME, KIND, PTX, SHAPE, A, B, DF, SC, K, SB, SAT, AB, AP, BB, BP, CDB, ID, S) \
    {NAME, "tcgen05", PTX, "tcgen05.mma", KIND, SHAPE, A, B, DF, SC, K, SB,  \
     SAT, LAD_FAM_TCGEN05, AB, AP, BB, BP, CDB, ID, 100, T100,               \
     {NULL, NULL, NULL, S, NULL}}

#define TCI "tcgen05.mma.cta_group::1.kind::"

/* f8f6f4 element types: name, idesc code, bits, packing. */
#define F8_E4M3 "e4m3", LAD_ID_E4M3, 8, D
#define F8_E5M2 "e5m2", LAD_ID_E5M2, 8, D
#define F8_E2M3 "e2m3", LAD_ID_E2M3, 6, P
#define F8_E3M2 "e3m2", LAD_ID_E3M2, 6, P
#define F8_E2M1 "e2m1", LAD_ID_E2M1, 4, P

#define F8ROW_(DF, DC, CDB, AN, AC, AB, AP, BN, BC, BB, BP)                  \
    TC("lad_tcgen05_f8f6f4", "f8f6f4", TCI "f8f6f4", "m128n8k32", AN, BN, DF, \
       "", 32, 0, 0, AB, AP, BB, BP, CDB, ID_DENSE(DC, AC, BC, 0), "UTCQMMA")
#define F8ROW(...) F8ROW_(__VA_ARGS__)
#define MXROW_(AN, AC, AB, AP, BN, BC, BB, BP)                               \
    TC("lad_tcgen05_mxf8f6f4", "mxf8f6f4",                                   \
       TCI "mxf8f6f4.block_scale.scale_vec::1X", "m128n8k32", AN, BN, "f32", \
       "ue8m0", 32, 32, 0, AB, AP, BB, BP, 32, ID_SCALED(AC, BC, 1), "UTCQMMA")
#define MXROW(...) MXROW_(__VA_ARGS__)

/* Every B type for one A type. */
#define F8ROWS(DF, DC, CDB, A)                                               \
    F8ROW(DF, DC, CDB, A, F8_E4M3), F8ROW(DF, DC, CDB, A, F8_E5M2),          \
    F8ROW(DF, DC, CDB, A, F8_E2M3), F8ROW(DF, DC, CDB, A, F8_E3M2),          \
    F8ROW(DF, DC, CDB, A, F8_E2M1)
#define MXROWS(A)                                                            \
    MXROW(A, F8_E4M3), MXROW(A, F8_E5M2), MXROW(A, F8_E2M3),                 \
    MXROW(A, F8_E3M2), MXROW(A, F8_E2M1)

#define MS "mma.sync.aligned."
#define WGI "wgmma.mma_async.sync.aligned."

static const lad_kernel table[] = {
    /* mma.sync, sm_80 and later */
    MMA_ALL("lad_mma_m16n8k8_f32_tf32", MS "m16n8k8.row.col.f32.tf32.tf32.f32",
            "m16n8k8", "tf32", "tf32", "f32", 8, 32, 32, 0, "HMMA.1688.F32.TF32"),
    MMA_ALL("lad_mma_m16n8k16_f32_f16", MS "m16n8k16.row.col.f32.f16.f16.f32",
            "m16n8k16", "f16", "f16", "f32", 16, 16, 32, 0, "HMMA.16816.F32"),
    MMA_ALL("lad_mma_m16n8k16_f32_bf16", MS "m16n8k16.row.col.f32.bf16.bf16.f32",
            "m16n8k16", "bf16", "bf16", "f32", 16, 16, 32, 0, "HMMA.16816.F32.BF16"),
    MMA_ALL("lad_mma_m16n8k16_f16_f16", MS "m16n8k16.row.col.f16.f16.f16.f16",
            "m16n8k16", "f16", "f16", "f16", 16, 16, 16, 0, "HMMA.16816.F16"),
    /* the half-K shapes: m16n8k4 tf32, m16n8k8 f16/bf16 */
    MMA_ALL("lad_mma_m16n8k4_f32_tf32", MS "m16n8k4.row.col.f32.tf32.tf32.f32",
            "m16n8k4", "tf32", "tf32", "f32", 4, 32, 32, 0, "HMMA.1684.F32.TF32"),
    MMA_ALL("lad_mma_m16n8k8_f32_f16", MS "m16n8k8.row.col.f32.f16.f16.f32",
            "m16n8k8", "f16", "f16", "f32", 8, 16, 32, 0, "HMMA.1688.F32"),
    MMA_ALL("lad_mma_m16n8k8_f32_bf16", MS "m16n8k8.row.col.f32.bf16.bf16.f32",
            "m16n8k8", "bf16", "bf16", "f32", 8, 16, 32, 0, "HMMA.1688.F32.BF16"),
    MMA_ALL("lad_mma_m16n8k8_f16_f16", MS "m16n8k8.row.col.f16.f16.f16.f16",
            "m16n8k8", "f16", "f16", "f16", 8, 16, 16, 0, "HMMA.1688.F16"),
    MMA_ALL("lad_mma_m16n8k32_s32_s8_s8", MS "m16n8k32.row.col.s32.s8.s8.s32",
            "m16n8k32", "s8", "s8", "s32", 32, 8, 32, 0, "IMMA.16832.S8.S8"),
    MMA_ALL("lad_mma_m16n8k32_s32_s8_u8", MS "m16n8k32.row.col.s32.s8.u8.s32",
            "m16n8k32", "s8", "u8", "s32", 32, 8, 32, 0, "IMMA.16832.S8.U8"),
    MMA_ALL("lad_mma_m16n8k32_s32_u8_s8", MS "m16n8k32.row.col.s32.u8.s8.s32",
            "m16n8k32", "u8", "s8", "s32", 32, 8, 32, 0, "IMMA.16832.U8.S8"),
    MMA_ALL("lad_mma_m16n8k32_s32_u8_u8", MS "m16n8k32.row.col.s32.u8.u8.s32",
            "m16n8k32", "u8", "u8", "s32", 32, 8, 32, 0, "IMMA.16832.U8.U8"),
    MMA_ALL("lad_mma_m16n8k32_s32_s8_s8_sat",
            MS "m16n8k32.row.col.satfinite.s32.s8.s8.s32",
            "m16n8k32", "s8", "s8", "s32", 32, 8, 32, 1, "IMMA.16832.S8.S8.SAT"),
    MMA_ALL("lad_mma_m16n8k32_s32_s8_u8_sat",
            MS "m16n8k32.row.col.satfinite.s32.s8.u8.s32",
            "m16n8k32", "s8", "u8", "s32", 32, 8, 32, 1, "IMMA.16832.S8.U8.SAT"),
    MMA_ALL("lad_mma_m16n8k32_s32_u8_s8_sat",
            MS "m16n8k32.row.col.satfinite.s32.u8.s8.s32",
            "m16n8k32", "u8", "s8", "s32", 32, 8, 32, 1, "IMMA.16832.U8.S8.SAT"),
    MMA_ALL("lad_mma_m16n8k32_s32_u8_u8_sat",
            MS "m16n8k32.row.col.satfinite.s32.u8.u8.s32",
            "m16n8k32", "u8", "u8", "s32", 32, 8, 32, 1, "IMMA.16832.U8.U8.SAT"),
    /* mma.sync fp8, sm_89 and later; emulated with f16 HMMAs on 90a/100a */
    MMA_FP8("lad_mma_m16n8k32_f32_e4m3_e4m3", MS "m16n8k32.row.col.f32.e4m3.e4m3.f32",
            "e4m3", "e4m3", "f32", 32, "QMMA.16832.F32.E4M3.E4M3", "HMMA.16816.F32"),
    MMA_FP8("lad_mma_m16n8k32_f32_e4m3_e5m2", MS "m16n8k32.row.col.f32.e4m3.e5m2.f32",
            "e4m3", "e5m2", "f32", 32, "QMMA.16832.F32.E4M3.E5M2", "HMMA.16816.F32"),
    MMA_FP8("lad_mma_m16n8k32_f32_e5m2_e4m3", MS "m16n8k32.row.col.f32.e5m2.e4m3.f32",
            "e5m2", "e4m3", "f32", 32, "QMMA.16832.F32.E5M2.E4M3", "HMMA.16816.F32"),
    MMA_FP8("lad_mma_m16n8k32_f32_e5m2_e5m2", MS "m16n8k32.row.col.f32.e5m2.e5m2.f32",
            "e5m2", "e5m2", "f32", 32, "QMMA.16832.F32.E5M2.E5M2", "HMMA.16816.F32"),
    MMA_FP8("lad_mma_m16n8k32_f16_e4m3_e4m3", MS "m16n8k32.row.col.f16.e4m3.e4m3.f16",
            "e4m3", "e4m3", "f16", 16, "QMMA.16832.F16.E4M3.E4M3", "HMMA.16816.F16"),
    MMA_FP8("lad_mma_m16n8k32_f16_e4m3_e5m2", MS "m16n8k32.row.col.f16.e4m3.e5m2.f16",
            "e4m3", "e5m2", "f16", 16, "QMMA.16832.F16.E4M3.E5M2", "HMMA.16816.F16"),
    MMA_FP8("lad_mma_m16n8k32_f16_e5m2_e4m3", MS "m16n8k32.row.col.f16.e5m2.e4m3.f16",
            "e5m2", "e4m3", "f16", 16, "QMMA.16832.F16.E5M2.E4M3", "HMMA.16816.F16"),
    MMA_FP8("lad_mma_m16n8k32_f16_e5m2_e5m2", MS "m16n8k32.row.col.f16.e5m2.e5m2.f16",
            "e5m2", "e5m2", "f16", 16, "QMMA.16832.F16.E5M2.E5M2", "HMMA.16816.F16"),
    /* mma.sync fp8 m16n8k16: native on sm_89; on sm_90a and sm_100a ptxas
    ** emulates it (two HMMA.1688) and no preset says how, so sm_89 only */
    MMA_FP8K16("e4m3", "e4m3", "E4M3.E4M3"), MMA_FP8K16("e4m3", "e5m2", "E4M3.E5M2"),
    MMA_FP8K16("e5m2", "e4m3", "E5M2.E4M3"), MMA_FP8K16("e5m2", "e5m2", "E5M2.E5M2"),
    /* mma.sync kind::f8f6f4 (25 type pairs, f32 or f16 D) and the
    ** block-scaled kinds, sm_120a */
    F8K_ROWS("f32", "F32", 32), F8K_ROWS("f16", "F16", 16),
    MXK_B(R8_E4M3), MXK_B(R8_E5M2), MXK_B(R8_E2M3), MXK_B(R8_E3M2), MXK_B(R8_E2M1),
    MMA_F4("lad_mma_mxf4_m16n8k64_f32", "mxf4", "2X", "ue8m0", 32,
           "OMMA.SF.16864.F32.E2M1.E2M1.E8"),
    MMA_F4("lad_mma_mxf4nvf4_2x_m16n8k64_f32", "mxf4nvf4", "2X", "ue8m0", 32,
           "OMMA.SF.16864.F32.E2M1.E2M1.E8"),
    MMA_F4("lad_mma_mxf4nvf4_4x_m16n8k64_f32", "mxf4nvf4", "4X", "ue4m3", 16,
           "OMMA.SF.16864.F32.E2M1.E2M1.UE4M3.4X"),

    /* wgmma, sm_90a */
    WG("lad_wgmma_m64n8k16_f32_f16", WGI "m64n8k16.f32.f16.f16", "m64n8k16",
       "f16", "f16", "f32", 16, 16, 32, 0, "HGMMA.64x8x16.F32"),
    WG("lad_wgmma_m64n8k16_f32_bf16", WGI "m64n8k16.f32.bf16.bf16", "m64n8k16",
       "bf16", "bf16", "f32", 16, 16, 32, 0, "HGMMA.64x8x16.F32.BF16"),
    WG("lad_wgmma_m64n8k16_f16_f16", WGI "m64n8k16.f16.f16.f16", "m64n8k16",
       "f16", "f16", "f16", 16, 16, 16, 0, "HGMMA.64x8x16.F16"),
    WG("lad_wgmma_m64n8k8_f32_tf32", WGI "m64n8k8.f32.tf32.tf32", "m64n8k8",
       "tf32", "tf32", "f32", 8, 32, 32, 0, "HGMMA.64x8x8.F32.TF32"),
    WG("lad_wgmma_m64n8k32_f32_e4m3_e4m3", WGI "m64n8k32.f32.e4m3.e4m3", "m64n8k32",
       "e4m3", "e4m3", "f32", 32, 8, 32, 0, "QGMMA.64x8x32.F32.E4M3.E4M3"),
    WG("lad_wgmma_m64n8k32_f32_e4m3_e5m2", WGI "m64n8k32.f32.e4m3.e5m2", "m64n8k32",
       "e4m3", "e5m2", "f32", 32, 8, 32, 0, "QGMMA.64x8x32.F32.E4M3.E5M2"),
    WG("lad_wgmma_m64n8k32_f32_e5m2_e4m3", WGI "m64n8k32.f32.e5m2.e4m3", "m64n8k32",
       "e5m2", "e4m3", "f32", 32, 8, 32, 0, "QGMMA.64x8x32.F32.E5M2.E4M3"),
    WG("lad_wgmma_m64n8k32_f32_e5m2_e5m2", WGI "m64n8k32.f32.e5m2.e5m2", "m64n8k32",
       "e5m2", "e5m2", "f32", 32, 8, 32, 0, "QGMMA.64x8x32.F32.E5M2.E5M2"),
    WG("lad_wgmma_m64n8k32_f16_e4m3_e4m3", WGI "m64n8k32.f16.e4m3.e4m3", "m64n8k32",
       "e4m3", "e4m3", "f16", 32, 8, 16, 0, "QGMMA.64x8x32.F16.E4M3.E4M3"),
    WG("lad_wgmma_m64n8k32_f16_e4m3_e5m2", WGI "m64n8k32.f16.e4m3.e5m2", "m64n8k32",
       "e4m3", "e5m2", "f16", 32, 8, 16, 0, "QGMMA.64x8x32.F16.E4M3.E5M2"),
    WG("lad_wgmma_m64n8k32_f16_e5m2_e4m3", WGI "m64n8k32.f16.e5m2.e4m3", "m64n8k32",
       "e5m2", "e4m3", "f16", 32, 8, 16, 0, "QGMMA.64x8x32.F16.E5M2.E4M3"),
    WG("lad_wgmma_m64n8k32_f16_e5m2_e5m2", WGI "m64n8k32.f16.e5m2.e5m2", "m64n8k32",
       "e5m2", "e5m2", "f16", 32, 8, 16, 0, "QGMMA.64x8x32.F16.E5M2.E5M2"),
    WG("lad_wgmma_m64n8k32_s32_s8_s8", WGI "m64n8k32.s32.s8.s8", "m64n8k32",
       "s8", "s8", "s32", 32, 8, 32, 0, "IGMMA.64x8x32.S8.S8"),
    WG("lad_wgmma_m64n8k32_s32_s8_u8", WGI "m64n8k32.s32.s8.u8", "m64n8k32",
       "s8", "u8", "s32", 32, 8, 32, 0, "IGMMA.64x8x32.S8.U8"),
    WG("lad_wgmma_m64n8k32_s32_u8_s8", WGI "m64n8k32.s32.u8.s8", "m64n8k32",
       "u8", "s8", "s32", 32, 8, 32, 0, "IGMMA.64x8x32.U8.S8"),
    WG("lad_wgmma_m64n8k32_s32_u8_u8", WGI "m64n8k32.s32.u8.u8", "m64n8k32",
       "u8", "u8", "s32", 32, 8, 32, 0, "IGMMA.64x8x32.U8.U8"),
    WG("lad_wgmma_m64n8k32_s32_s8_s8_sat", WGI "m64n8k32.satfinite.s32.s8.s8",
       "m64n8k32", "s8", "s8", "s32", 32, 8, 32, 1, "IGMMA.64x8x32.S8.S8.SAT"),
    WG("lad_wgmma_m64n8k32_s32_s8_u8_sat", WGI "m64n8k32.satfinite.s32.s8.u8",
       "m64n8k32", "s8", "u8", "s32", 32, 8, 32, 1, "IGMMA.64x8x32.S8.U8.SAT"),
    WG("lad_wgmma_m64n8k32_s32_u8_s8_sat", WGI "m64n8k32.satfinite.s32.u8.s8",
       "m64n8k32", "u8", "s8", "s32", 32, 8, 32, 1, "IGMMA.64x8x32.U8.S8.SAT"),
    WG("lad_wgmma_m64n8k32_s32_u8_u8_sat", WGI "m64n8k32.satfinite.s32.u8.u8",
       "m64n8k32", "u8", "u8", "s32", 32, 8, 32, 1, "IGMMA.64x8x32.U8.U8.SAT"),

    /* tcgen05.mma, sm_100a */
    TC("lad_tcgen05_tf32", "tf32", TCI "tf32", "m128n8k8", "tf32", "tf32", "f32",
       "", 8, 0, 0, 32, D, 32, D, 32,
       ID_DENSE(LAD_ID_D_F32, LAD_ID_TF32, LAD_ID_TF32, 0), "UTCHMMA"),
    TC("lad_tcgen05_f16", "f16", TCI "f16", "m128n8k16", "f16", "f16", "f32",
       "", 16, 0, 0, 16, D, 16, D, 32,
       ID_DENSE(LAD_ID_D_F32, LAD_ID_F16, LAD_ID_F16, 0), "UTCHMMA"),
    TC("lad_tcgen05_f16", "f16", TCI "f16", "m128n8k16", "bf16", "bf16", "f32",
       "", 16, 0, 0, 16, D, 16, D, 32,
       ID_DENSE(LAD_ID_D_F32, LAD_ID_BF16, LAD_ID_BF16, 0), "UTCHMMA"),
    TC("lad_tcgen05_f16", "f16", TCI "f16", "m128n8k16", "f16", "f16", "f16",
       "", 16, 0, 0, 16, D, 16, D, 16,
       ID_DENSE(LAD_ID_D_F16, LAD_ID_F16, LAD_ID_F16, 0), "UTCHMMA"),
    F8ROWS("f32", LAD_ID_D_F32, 32, F8_E4M3),
    F8ROWS("f32", LAD_ID_D_F32, 32, F8_E5M2),
    F8ROWS("f32", LAD_ID_D_F32, 32, F8_E2M3),
    F8ROWS("f32", LAD_ID_D_F32, 32, F8_E3M2),
    F8ROWS("f32", LAD_ID_D_F32, 32, F8_E2M1),
    F8ROWS("f16", LAD_ID_D_F16, 16, F8_E4M3),
    F8ROWS("f16", LAD_ID_D_F16, 16, F8_E5M2),
    F8ROWS("f16", LAD_ID_D_F16, 16, F8_E2M3),
    F8ROWS("f16", LAD_ID_D_F16, 16, F8_E3M2),
    F8ROWS("f16", LAD_ID_D_F16, 16, F8_E2M1),
#define I8ROW(AN, AC, BN, BC, SAT)                                           \
    TC("lad_tcgen05_i8", "i8", TCI "i8", "m128n8k32", AN, BN, "s32", "", 32, \
       0, SAT, 8, D, 8, D, 32, ID_DENSE(LAD_ID_D_S32, AC, BC, SAT), "UTCIMMA")
    I8ROW("s8", LAD_ID_S8, "s8", LAD_ID_S8, 0),
    I8ROW("s8", LAD_ID_S8, "u8", LAD_ID_U8, 0),
    I8ROW("u8", LAD_ID_U8, "s8", LAD_ID_S8, 0),
    I8ROW("u8", LAD_ID_U8, "u8", LAD_ID_U8, 0),
    I8ROW("s8", LAD_ID_S8, "s8", LAD_ID_S8, 1),
    I8ROW("s8", LAD_ID_S8, "u8", LAD_ID_U8, 1),
    I8ROW("u8", LAD_ID_U8, "s8", LAD_ID_S8, 1),
    I8ROW("u8", LAD_ID_U8, "u8", LAD_ID_U8, 1),
    MXROWS(F8_E4M3), MXROWS(F8_E5M2), MXROWS(F8_E2M3), MXROWS(F8_E3M2),
    MXROWS(F8_E2M1),
    TC("lad_tcgen05_mxf4", "mxf4", TCI "mxf4.block_scale.scale_vec::2X",
       "m128n8k64", "e2m1", "e2m1", "f32", "ue8m0", 64, 32, 0, 4, D, 4, D, 32,
       ID_SCALED(LAD_ID_MXF4_E2M1, LAD_ID_MXF4_E2M1, 1), "UTCOMMA"),
    TC("lad_tcgen05_mxf4nvf4_2x", "mxf4nvf4",
       TCI "mxf4nvf4.block_scale.scale_vec::2X", "m128n8k64", "e2m1", "e2m1",
       "f32", "ue8m0", 64, 32, 0, 4, D, 4, D, 32,
       ID_SCALED(LAD_ID_MXF4_E2M1, LAD_ID_MXF4_E2M1, 1), "UTCOMMA"),
    TC("lad_tcgen05_mxf4nvf4_4x", "mxf4nvf4",
       TCI "mxf4nvf4.block_scale.scale_vec::4X", "m128n8k64", "e2m1", "e2m1",
       "f32", "ue4m3", 64, 16, 0, 4, D, 4, D, 32,
       ID_SCALED(LAD_ID_MXF4_E2M1, LAD_ID_MXF4_E2M1, 0), "UTCOMMA.4X"),
    TC("lad_tcgen05_mxf4nvf4_4x", "mxf4nvf4",
       TCI "mxf4nvf4.block_scale.scale_vec::4X", "m128n8k64", "e2m1", "e2m1",
       "f32", "ue8m0", 64, 16, 0, 4, D, 4, D, 32,
       ID_SCALED(LAD_ID_MXF4_E2M1, LAD_ID_MXF4_E2M1, 1), "UTCOMMA.4X"),
};

int lad_kernel_count(void)
{
    return (int)(sizeof table / sizeof table[0]);
}

const lad_kernel *lad_kernel_get(int i)
{
    return i >= 0 && i < lad_kernel_count() ? &table[i] : NULL;
}

const lad_kernel *lad_kernel_find(const char *name)
{
    for (int i = 0; i < lad_kernel_count(); i++)
        if (strcmp(table[i].name, name) == 0)
            return &table[i];
    return NULL;
}

const char *lad_target_name(int target)
{
    static const char *const names[LAD_NTARGETS] = {"sm_80", "sm_89",
                                                    "sm_90a", "sm_100a",
                                                    "sm_120a"};
    return target >= 0 && target < LAD_NTARGETS ? names[target] : NULL;
}

int lad_target_for_cc(unsigned mask, int cc)
{
    /* Arch-specific ("a") cubins run on exactly their compute capability;
    ** sm_80 and sm_89 SASS run on any later 8.x. */
    if (cc == 120)
        return mask & T120 ? LAD_SM120A : -1;
    if (cc == 100)
        return mask & T100 ? LAD_SM100A : -1;
    if (cc == 90)
        return mask & T90 ? LAD_SM90A : -1;
    if (cc >= 89 && cc < 90 && (mask & T89))
        return LAD_SM89;
    if (cc >= 80 && cc < 90 && (mask & T80))
        return LAD_SM80;
    return -1;
}

/* The register format a result format lives in: a model may name the
** precision it keeps (e8m13 is an f32 word cut to 13 fraction bits), but the
** instruction writes f32, f16 or s32 words. */
static const char *container(const lad_format *f)
{
    if (f->kind == LAD_INT)
        return f->width == 32 ? "s32" : f->name;
    return f->width == 32 ? "f32" : f->width == 16 ? "f16" : f->name;
}

int lad_kernel_for(const lad_datapath *dp, const lad_kernel **out,
                   lad_err *err)
{
    *out = NULL;
    if (dp->sparse)
        return lad_errf(err, LAD_EDATA,
                        "no CUDA kernel for sparse '%s' (dense kernels only)",
                        dp->instr);
    for (int i = 0; i < lad_kernel_count(); i++) {
        const lad_kernel *k = &table[i];
        if (strcmp(k->instr, dp->instr) != 0 || k->k != dp->k)
            continue;
        /* A datapath without a kind (a model file may leave it out) takes
        ** the kernel of its formats; one with a kind only a kernel of that
        ** kind: mma.sync kind::f8f6f4 is not the kind-less fp8 mma.sync. */
        if (dp->kind[0] && strcmp(k->kind, dp->kind) != 0)
            continue;
        if (strcmp(k->a, dp->a.name) != 0 || strcmp(k->b, dp->b.name) != 0 ||
            strcmp(k->d, container(&dp->d)) != 0)
            continue;
        if (dp->integer && k->saturate != (dp->saturate != 0))
            continue;
        if (dp->scale_block > 0) {
            if (k->scale_block != dp->scale_block ||
                strcmp(k->scale, dp->sa.name) != 0 ||
                strcmp(k->scale, dp->sb.name) != 0)
                continue;
        } else if (k->scale_block) {
            continue;
        }
        *out = k;
        return LAD_OK;
    }
    return lad_errf(err, LAD_EDATA,
                    "no CUDA kernel for %s%s%s k%d %s x %s -> %s%s%s",
                    dp->instr, dp->kind[0] ? " kind::" : "", dp->kind, dp->k,
                    dp->a.name, dp->b.name, dp->d.name,
                    dp->scale_block > 0 ? " scaled by " : "",
                    dp->scale_block > 0 ? dp->sa.name : "");
}

int lad_kernel_layout(const lad_kernel *k, lad_layout *L, lad_err *err)
{
    return lad_layout_init(L, k->family, k->k, k->abits, k->apack, k->bbits,
                           k->bpack, k->cdbits, k->scale_block, err);
}
