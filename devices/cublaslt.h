/*
** The cublaslt device (cublaslt:<gpu>[:options]): a GEMM through cuBLASLt
** on GPU <gpu>, each case one element of D's diagonal (devices/cublaslt.c).
** Built when the CUDA toolkit's cublasLt.h is found (LADDER_CUBLASLT); the
** libraries are loaded at open, so the binary starts without them.
*/
#ifndef LADDER_DEVICES_CUBLASLT_H
#define LADDER_DEVICES_CUBLASLT_H

#include "device.h"

/* Opens GPU `index` with the options text (comma-separated key=value:
** compute, fast_accum, split_k; "" for none) for datapath dp. Returns
** LAD_OK; LAD_EUSAGE for a bad option or a datapath cuBLASLt does not
** take; LAD_EDEVICE when the libraries, a GPU or an algorithm are missing. */
int lad_cublaslt_open(int index, const char *options, const lad_datapath *dp,
                      lad_device **out, lad_err *err);

#endif
