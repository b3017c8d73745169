/*
** Blackwell tcgen05.mma kernels (sm_100a): one extern "C" kernel per exact
** PTX instruction, one CTA of 128 threads (4 warps) per tile, shape
** m128n8 with the K of the kind (32 bytes of K per row), D in tensor memory.
**
** Build (what kernels/kernels.mk runs):
**
**   nvcc -cubin -O2 -gencode=arch=compute_100a,code=sm_100a \
**        -o build/rel/kernels/tcgen05.sm_100a.cubin kernels/tcgen05.cu
**
** The element types of a kind live in the 32-bit instruction descriptor
** (p.idesc, built by kernels/layout.c), not in the mnemonic, so one kernel
** per kind serves every type pair of that kind; the block-scaled kinds have
** one kernel per scale-vector form.
**
** Per CTA: warp 0 allocates 32 tensor-memory columns (D in columns 0-7,
** SFA in 16-19, SFB in 24) and gives up the allocation permit; thread 0
** initialises the mbarrier. Per tile: A (128 rows x 32 bytes) and B (8 rows
** x 32 bytes) are copied to shared memory in the K-major no-swizzle
** core-matrix layout; each warp stores its 32 lanes of C (and of the
** scales, replicated into every lane quarter) with tcgen05.st; fences;
** thread 0 issues the MMA and tcgen05.commit to the mbarrier; all wait on
** the mbarrier phase; each warp reads its 32 rows of D with
** tcgen05.ld.32x32b.x8. At the end warp 0 frees the columns.
** (docs/reference/ptx-notes.md section 4.6; nothing here has run on a GPU.)
*/
#include <stdint.h>
#include "kparams.h"

#define LAD_SIG                                                              \
    (const uint32_t *__restrict__ a, const uint32_t *__restrict__ b,        \
     const uint32_t *__restrict__ c, const uint32_t *__restrict__ s,        \
     uint32_t *__restrict__ d, lad_kparams p)

#define LAD_A_WORDS 1024   /* 128 rows x 32 bytes */
#define LAD_B_WORDS 64     /* 8 rows x 32 bytes */
#define LAD_TMEM_COLS 32   /* power of two, >= 32 */
#define LAD_COL_SFA 16
#define LAD_COL_SFB 24

#if defined(__CUDA_ARCH_FEAT_SM100_ALL) || !defined(__CUDA_ARCH__)

static __device__ __forceinline__ uint32_t lad_smem(const void *ptr)
{
    return (uint32_t)__cvta_generic_to_shared(ptr);
}

static __device__ __forceinline__ void lad_fenced_sync(void)
{
    asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
    __syncthreads();
    asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
}

/* Issues the MMA: MMA is an asm statement using da, db, tmem_d, idesc,
** acc (and for scaled kinds tmem_sfa, tmem_sfb). */
#define LAD_TC_KERNEL(NAME, SCALED, MMA)                                     \
extern "C" __global__ void __launch_bounds__(128) NAME LAD_SIG               \
{                                                                            \
    __shared__ __align__(128) uint32_t sa[LAD_A_WORDS];                      \
    __shared__ __align__(128) uint32_t sb[LAD_B_WORDS];                      \
    __shared__ __align__(8) uint64_t mbar;                                   \
    __shared__ uint32_t slot;                                                \
    const uint32_t tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;      \
    if (warp == 0) {                                                         \
        asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32" \
                     " [%0], %1;" :: "r"(lad_smem(&slot)), "n"(LAD_TMEM_COLS) \
                     : "memory");                                            \
        asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;" \
                     ::: "memory");                                          \
    }                                                                        \
    if (tid == 0) {                                                          \
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;"                \
                     :: "r"(lad_smem(&mbar)) : "memory");                    \
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");   \
    }                                                                        \
    lad_fenced_sync();                                                       \
    const uint32_t tmem = slot;                                              \
    const uint32_t tmem_d = tmem;                                            \
    const uint32_t tmem_sfa = tmem + LAD_COL_SFA;                            \
    const uint32_t tmem_sfb = tmem + LAD_COL_SFB;                            \
    const uint32_t lane_base = (warp * 32) << 16;                            \
    const uint64_t da = p.desc_a | ((uint64_t)((lad_smem(sa) & 0x3FFFF) >> 4)); \
    const uint64_t db = p.desc_b | ((uint64_t)((lad_smem(sb) & 0x3FFFF) >> 4)); \
    const uint32_t idesc = p.idesc, acc = p.accumulate;                      \
    const int mine = tid < p.cd_threads;                                     \
    uint32_t phase = 0;                                                      \
    (void)tmem_sfa; (void)tmem_sfb; (void)s;                                 \
    for (uint32_t t = blockIdx.x; t < p.ntiles; t += gridDim.x) {            \
        for (uint32_t i = tid; i < LAD_A_WORDS; i += 128)                    \
            sa[i] = i < p.a_words ? a[(size_t)t * p.a_words + i] : 0;        \
        for (uint32_t i = tid; i < LAD_B_WORDS; i += 128)                    \
            sb[i] = i < p.b_words ? b[(size_t)t * p.b_words + i] : 0;        \
        uint32_t r[8];                                                       \
        _Pragma("unroll")                                                    \
        for (int j = 0; j < 8; j++)                                          \
            r[j] = (acc && mine) ? c[((size_t)t * 8 + j) * p.cd_threads + tid] : 0; \
        asm volatile("tcgen05.st.sync.aligned.32x32b.x8.b32 [%0],"           \
                     " {%1,%2,%3,%4,%5,%6,%7,%8};"                           \
                     :: "r"(tmem_d + lane_base), "r"(r[0]), "r"(r[1]),       \
                        "r"(r[2]), "r"(r[3]), "r"(r[4]), "r"(r[5]),          \
                        "r"(r[6]), "r"(r[7]) : "memory");                    \
        if (SCALED) {                                                        \
            const uint32_t *ps = s + (size_t)t * p.s_words;                  \
            uint32_t f0 = ps[lane], f1 = ps[32 + lane], f2 = ps[64 + lane],  \
                     f3 = ps[96 + lane], g0 = ps[128 + lane];                \
            asm volatile("tcgen05.st.sync.aligned.32x32b.x4.b32 [%0],"       \
                         " {%1,%2,%3,%4};"                                   \
                         :: "r"(tmem_sfa + lane_base), "r"(f0), "r"(f1),     \
                            "r"(f2), "r"(f3) : "memory");                    \
            asm volatile("tcgen05.st.sync.aligned.32x32b.x1.b32 [%0], {%1};" \
                         :: "r"(tmem_sfb + lane_base), "r"(g0) : "memory");  \
        }                                                                    \
        asm volatile("tcgen05.wait::st.sync.aligned;" ::: "memory");         \
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");        \
        lad_fenced_sync();                                                   \
        if (tid == 0) {                                                      \
            MMA;                                                             \
            asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one" \
                         ".shared::cluster.b64 [%0];"                        \
                         :: "r"(lad_smem(&mbar)) : "memory");                \
        }                                                                    \
        asm volatile("{\n .reg .pred done;\n LAB_WAIT:\n"                    \
                     " mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n" \
                     " @!done bra LAB_WAIT;\n}"                              \
                     :: "r"(lad_smem(&mbar)), "r"(phase) : "memory");        \
        phase ^= 1;                                                          \
        asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");      \
        asm volatile("tcgen05.ld.sync.aligned.32x32b.x8.b32"                 \
                     " {%0,%1,%2,%3,%4,%5,%6,%7}, [%8];"                     \
                     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]),       \
                       "=r"(r[4]), "=r"(r[5]), "=r"(r[6]), "=r"(r[7])        \
                     : "r"(tmem_d + lane_base) : "memory");                  \
        asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");         \
        if (mine) {                                                          \
            _Pragma("unroll")                                                \
            for (int j = 0; j < 8; j++)                                      \
                d[((size_t)t * 8 + j) * p.cd_threads + tid] = r[j];          \
        }                                                                    \
        lad_fenced_sync();                                                   \
    }                                                                        \
    if (warp == 0)                                                           \
        asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;" \
                     :: "r"(tmem), "n"(LAD_TMEM_COLS) : "memory");           \
}

/* Dense kinds: [d], a_desc, b_desc, idesc, enable-input-d. */
#define LAD_TC_DENSE(NAME, KIND)                                             \
    LAD_TC_KERNEL(NAME, 0,                                                   \
        asm volatile("{\n .reg .pred q;\n setp.ne.b32 q, %4, 0;\n"           \
                     " tcgen05.mma.cta_group::1.kind::" KIND                 \
                     " [%0], %1, %2, %3, q;\n}"                              \
                     :: "r"(tmem_d), "l"(da), "l"(db), "r"(idesc), "r"(acc)  \
                     : "memory"))

/* Block-scaled kinds: [d], a_desc, b_desc, idesc, [sfa], [sfb], enable. */
#define LAD_TC_SCALED(NAME, KIND)                                            \
    LAD_TC_KERNEL(NAME, 1,                                                   \
        asm volatile("{\n .reg .pred q;\n setp.ne.b32 q, %6, 0;\n"           \
                     " tcgen05.mma.cta_group::1.kind::" KIND                 \
                     " [%0], %1, %2, %3, [%4], [%5], q;\n}"                  \
                     :: "r"(tmem_d), "l"(da), "l"(db), "r"(idesc),           \
                        "r"(tmem_sfa), "r"(tmem_sfb), "r"(acc) : "memory"))

LAD_TC_DENSE(lad_tcgen05_tf32, "tf32")
LAD_TC_DENSE(lad_tcgen05_f16, "f16")
LAD_TC_DENSE(lad_tcgen05_f8f6f4, "f8f6f4")
LAD_TC_DENSE(lad_tcgen05_i8, "i8")
LAD_TC_SCALED(lad_tcgen05_mxf8f6f4, "mxf8f6f4.block_scale.scale_vec::1X")
LAD_TC_SCALED(lad_tcgen05_mxf4, "mxf4.block_scale.scale_vec::2X")
LAD_TC_SCALED(lad_tcgen05_mxf4nvf4_2x, "mxf4nvf4.block_scale.scale_vec::2X")
LAD_TC_SCALED(lad_tcgen05_mxf4nvf4_4x, "mxf4nvf4.block_scale.scale_vec::4X")

#endif
