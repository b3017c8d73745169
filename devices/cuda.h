/*
** The cuda device: the real instruction on a GPU (cuda:<index>). Its host
** side lives in devices/cuda.c and its kernels in kernels/. device.c calls
** lad_cuda_open only when the build defines LADDER_CUDA (nvcc was found);
** otherwise it reports that no CUDA device support is built.
*/
#ifndef LADDER_DEVICES_CUDA_H
#define LADDER_DEVICES_CUDA_H

#include "device.h"

/* Opens GPU number `index` (as CUDA counts them) to run the instruction dp.
** Returns LAD_OK; LAD_EDEVICE when there is no such GPU, no driver, or no
** kernel for dp on that GPU's architecture; LAD_EUSAGE when dp is not an
** instruction the kernels implement, told before any GPU is looked for, so
** on any machine. err->code is always the code returned. */
int lad_cuda_open(int index, const lad_datapath *dp, lad_device **out,
                  lad_err *err);

#endif
