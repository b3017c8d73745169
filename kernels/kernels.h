/*
** The CUDA kernels as seen from C: a table of every kernel (one extern "C"
** kernel per exact PTX instruction, kernels/mma_sync.cu, wgmma.cu,
** tcgen05.cu), and the host side that opens a GPU and runs cases through
** one of them. No CUDA type appears here, so devices/cuda.c, the tests and
** `ladder sass` include it on any machine.
**
** The host side talks to the GPU through the CUDA driver library, loaded
** at run time (dlopen "libcuda.so.1"), and loads the cubin of the target
** that matches the GPU, embedded in the binary at build time. So a binary
** built with nvcc still starts on a machine without driver or GPU, and the
** code that runs is exactly the cubin whose opcodes `ladder sass` shows.
** Without nvcc at build time (no LADDER_CUDA), the table is still there and
** every GPU call fails with "no CUDA device support built".
**
** Every call returns LAD_OK or a code with err filled; a failing CUDA call
** is reported with the CUDA error name and the source file:line of the
** call. Nothing here prints or exits.
*/
#ifndef LADDER_KERNELS_KERNELS_H
#define LADDER_KERNELS_KERNELS_H

#include <stddef.h>
#include <stdint.h>
#include "../model/datapath.h"
#include "layout.h"

/* Targets the kernels are compiled for, in build order. */
enum lad_target {
    LAD_SM80 = 0,   /* sm_80: runs on compute capability 8.0-8.8 */
    LAD_SM89 = 1,   /* sm_89: 8.9 (Ada) */
    LAD_SM90A = 2,  /* sm_90a: exactly 9.0 (Hopper) */
    LAD_SM100A = 3, /* sm_100a: exactly 10.0 (B200/GB200) */
    LAD_SM120A = 4, /* sm_120a: exactly 12.0 (RTX 5090, RTX PRO 6000) */
    LAD_NTARGETS = 5
};

/* "sm_80", "sm_89", "sm_90a", "sm_100a", "sm_120a"; NULL out of range. */
const char *lad_target_name(int target);
/* The target whose cubin runs on compute capability cc (major*10+minor)
** among those in `mask` (bit per enum lad_target), or -1 when none can. */
int lad_target_for_cc(unsigned mask, int cc);

/* One row per instruction variant. Rows of tcgen05 kinds that take their
** element types from the instruction descriptor share one kernel (the PTX
** instruction is the same), so `name` may repeat. */
typedef struct lad_kernel {
    const char *name;     /* extern "C" symbol, e.g. "lad_mma_m16n8k8_f32_tf32" */
    const char *file;     /* source stem: "mma_sync", "wgmma", "tcgen05" */
    const char *ptx;      /* the exact PTX instruction */
    const char *instr;    /* lad_datapath.instr: "mma.sync", "wgmma",
                             "tcgen05.mma" */
    const char *kind;     /* tcgen05 or sm_120a mma.sync kind ("f8f6f4"),
                             "" elsewhere */
    const char *shape;    /* lad_datapath.shape: "m16n8k8", "m64n8k16",
                             "m128n8k32" */
    const char *a, *b;    /* element format names (model/format.h) */
    const char *d;        /* accumulator (C and D) format name */
    const char *scale;    /* scale format ("ue8m0", "ue4m3"), "" unscaled */
    int k;                /* K of one instruction */
    int scale_block;      /* K elements per scale, 0 unscaled */
    int saturate;         /* integer kinds: 1 saturates, 0 wraps */
    int family;           /* enum lad_family */
    int abits, apack;     /* storage of one A element (layout.h) */
    int bbits, bpack;
    int cdbits;           /* 32 or 16 */
    uint32_t idesc;       /* tcgen05 instruction descriptor, 0 elsewhere */
    int min_cc;           /* lowest compute capability that can run it */
    unsigned targets;     /* bit per enum lad_target it is built for */
    const char *sass[LAD_NTARGETS]; /* tensor opcode expected per target
                                       (ptxas 13.0), NULL where not built */
} lad_kernel;

/* Number of rows, and row i. */
int lad_kernel_count(void);
const lad_kernel *lad_kernel_get(int i);
/* The first row whose name is `name`, or NULL. */
const lad_kernel *lad_kernel_find(const char *name);
/* The row that runs datapath dp (instr, kind, formats, k, saturation,
** scales). Returns LAD_OK, or LAD_EDATA naming what has no kernel. */
int lad_kernel_for(const lad_datapath *dp, const lad_kernel **out,
                   lad_err *err);
/* Fills the layout of a row. */
int lad_kernel_layout(const lad_kernel *k, lad_layout *L, lad_err *err);

/* What is known about one GPU. */
typedef struct lad_gpu_info {
    char name[128];      /* "NVIDIA H200" */
    char uuid[64];       /* "GPU-xxxxxxxx-xxxx-..." */
    int cc;              /* compute capability, major*10 + minor */
    char driver[32];     /* CUDA version the driver supports, "12.8" */
    char toolkit[32];    /* nvcc release the kernels were built with */
    int sms;             /* multiprocessors */
    int clock_khz;       /* peak SM clock, 0 unknown */
    int mem_clock_khz;   /* peak memory clock, 0 unknown */
} lad_gpu_info;

typedef struct lad_gpu lad_gpu;

/* 1 when the binary carries CUDA kernels (built with nvcc), else 0. */
int lad_cuda_built(void);
/* Number of GPUs the driver sees. Returns LAD_OK, or LAD_EDEVICE when
** there is no support built, no driver or no device (message says which). */
int lad_gpu_count(int *n, lad_err *err);
/* Opens GPU `index` and fills info. LAD_EDEVICE when it cannot. */
int lad_gpu_open(int index, lad_gpu **out, lad_gpu_info *info, lad_err *err);
/* Releases the GPU; NULL is allowed. */
void lad_gpu_close(lad_gpu *g);

/* Checks that kernel k can run on g: its compute capability and a cubin
** target for it. Returns LAD_OK with *target set, or LAD_EDEVICE saying
** why not. */
int lad_gpu_check(const lad_gpu *g, const lad_kernel *k, int *target,
                  lad_err *err);

/* Runs n cases through kernel k with the diagonal mapping (layout.h),
** case i's D word (at D's width) into d[i]. accumulate 0 drops C (D = A*B;
** wgmma and tcgen05 then clear the accumulator input). Returns LAD_OK or
** LAD_EDEVICE. */
int lad_gpu_run_cases(lad_gpu *g, const lad_kernel *k, const lad_case *cs,
                      size_t n, int accumulate, lad_word_t *d, lad_err *err);

/* Runs one whole tile (one instruction): A m x k, B k x n, C and D m x n,
** row-major, words at their width; sa (m x nscales) and sb (n x nscales)
** for scaled kinds, else NULL. m and n are the layout's. */
int lad_gpu_run_tile(lad_gpu *g, const lad_kernel *k, const uint32_t *A,
                     const uint32_t *B, const uint32_t *C, const uint8_t *sa,
                     const uint8_t *sb, int accumulate, uint32_t *D,
                     lad_err *err);

/* The cubin of a source file for a target embedded in this binary, or NULL
** (no CUDA support built, or not built for that target). */
const void *lad_cubin_get(const char *file, int target, size_t *size);

#endif
