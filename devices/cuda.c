/*
** The cuda device (cuda:N): the real instruction on GPU N. It picks the
** kernel of the instruction being probed from the kernel table
** (kernels/kernels.h), refuses an instruction the GPU cannot execute, and
** evaluates batches of cases through kernels/launch.c, which packs them one
** per row of A and column of B and reads back D's diagonal as raw words.
**
** lad_device_info gets the GPU's name, UUID, compute capability, driver and
** the nvcc release the kernels were built with, and `sass`: the tensor
** opcode of the cubin that runs on this GPU, as listed in the kernel table
** and checked against the cubin's own instruction words (kernels/cubin.c),
** so that a probe records what actually executed (fp8 mma.sync is an HMMA
** on sm_90a, a QMMA on sm_89).
**
** Without LADDER_CUDA the binary carries no kernels; device.c does not
** call lad_cuda_open then, and if something does it says so.
*/
#include "cuda.h"
#include "../kernels/kernels.h"
#include "../kernels/cubin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CUDA_BATCH ((size_t)1 << 20) /* cases per lad_gpu_run_cases call */

typedef struct cuda_state {
    lad_gpu *gpu;              /* the open GPU */
    const lad_kernel *kernel;  /* the instruction's kernel */
} cuda_state;

static int cuda_eval(lad_device *dev, const lad_case *cs, size_t n,
                     lad_word_t *d, size_t *done, lad_err *err)
{
    cuda_state *st = dev->state;
    *done = 0;
    for (size_t at = 0; at < n; at += CUDA_BATCH) {
        size_t m = n - at < CUDA_BATCH ? n - at : CUDA_BATCH;
        int rc = lad_gpu_run_cases(st->gpu, st->kernel, cs + at, m, 1, d + at,
                                   err);
        if (rc != LAD_OK)
            return lad_errf(err, rc, "cases %zu..%zu", at, at + m - 1);
        *done = at + m;
    }
    return LAD_OK;
}

static void cuda_close(lad_device *dev)
{
    cuda_state *st = dev->state;
    if (st)
        lad_gpu_close(st->gpu);
    free(st);
    free(dev);
}

int lad_cuda_open(int index, const lad_datapath *dp, lad_device **out,
                  lad_err *err)
{
    lad_gpu *gpu = NULL;
    lad_gpu_info gi;
    const lad_kernel *k;
    int rc, target;
    *out = NULL;
    if (!lad_cuda_built())
        return lad_errf(err, LAD_EDEVICE, "no CUDA device support built "
                        "(this ladder was built without nvcc)");
    /* An instruction no kernel implements is the caller's mistake on any
    ** machine, so it is told before a GPU is looked for. The kernel table
    ** calls it bad data; here it is a usage error, code and message alike. */
    lad_err why = {0};
    if (lad_kernel_for(dp, &k, &why) != LAD_OK)
        return lad_errf(err, LAD_EUSAGE, "%s", why.msg);
    rc = lad_gpu_open(index, &gpu, &gi, err);
    if (rc != LAD_OK)
        return rc;
    rc = lad_gpu_check(gpu, k, &target, err);
    if (rc != LAD_OK) {
        lad_gpu_close(gpu);
        return rc;
    }
    /* The opcode the cubin that will run actually contains. */
    size_t size = 0;
    const void *img = lad_cubin_get(k->file, target, &size);
    char found[64];
    rc = lad_cubin_check(img, size, k->name, k->sass[target], found,
                         sizeof found, err);
    if (rc != LAD_OK) {
        lad_gpu_close(gpu);
        return rc;
    }
    lad_device *dev = calloc(1, sizeof *dev);
    cuda_state *st = calloc(1, sizeof *st);
    if (dev == NULL || st == NULL) {
        free(dev);
        free(st);
        lad_gpu_close(gpu);
        return lad_errf(err, LAD_EINTERNAL, "out of memory");
    }
    st->gpu = gpu;
    st->kernel = k;
    strcpy(dev->info.kind, "cuda");
    snprintf(dev->info.name, sizeof dev->info.name, "%s", gi.name);
    snprintf(dev->info.uuid, sizeof dev->info.uuid, "%s", gi.uuid);
    dev->info.cc = gi.cc;
    snprintf(dev->info.driver, sizeof dev->info.driver, "%s", gi.driver);
    snprintf(dev->info.toolkit, sizeof dev->info.toolkit, "%s", gi.toolkit);
    snprintf(dev->info.sass, sizeof dev->info.sass, "%s", found);
    dev->dp = dp;
    dev->eval = cuda_eval;
    dev->close = cuda_close;
    dev->state = st;
    *out = dev;
    return LAD_OK;
}
