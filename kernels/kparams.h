/*
** The launch parameters every kernel in kernels/ takes, shared by the
** CUDA sources and the C host side (kernels/launch.c). Plain C, fixed-width
** fields only, so that the struct has the same layout on both sides.
**
** Every kernel has the same signature,
**
**     extern "C" __global__ void lad_<instr>(const uint32_t *a,
**         const uint32_t *b, const uint32_t *c, const uint32_t *s,
**         uint32_t *d, lad_kparams p);
**
** and evaluates p.ntiles independent tiles (one instruction each). The
** images a, b, c, s and d are packed on the host by kernels/layout.c; the
** kernel only loads them, runs the one instruction and stores the result
** registers, so that every layout decision is made (and tested) in C.
*/
#ifndef LADDER_KERNELS_KPARAMS_H
#define LADDER_KERNELS_KPARAMS_H

#include <stdint.h>

typedef struct lad_kparams {
    uint32_t ntiles;     /* tiles (instructions) to evaluate, >= 1 */
    uint32_t a_words;    /* 32-bit words of A per tile in a; the kernel
                            zero-fills the rest of the A operand */
    uint32_t b_words;    /* words of B per tile in b (rest zero-filled) */
    uint32_t cd_threads; /* threads whose C registers come from c and whose
                            D registers go to d (a prefix of the threads of
                            one instruction; the others see C = 0) */
    uint32_t s_words;    /* scale words per tile in s (block-scaled kinds) */
    uint32_t accumulate; /* 1: D = A*B + C; 0: D = A*B (C ignored) */
    uint32_t idesc;      /* tcgen05 instruction descriptor; 0 elsewhere */
    uint32_t pad_;       /* keeps the 64-bit fields aligned */
    uint64_t desc_a;     /* wgmma/tcgen05 smem descriptor of A, start
                            address field zero: the kernel adds its own */
    uint64_t desc_b;     /* same for B */
} lad_kparams;

#endif
