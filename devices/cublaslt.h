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

/* One whole GEMM through cuBLASLt on GPU `index` (options as above):
** D (m x n, row-major) = A (m x k) * B (k x n) + C (m x n, NULL: +0), words
** of dp's formats, with the algorithm the heuristic picks for that size
** (a workspace of 64 MiB allowed, so split-K with a reduction can be
** chosen), or the split_k forced. info gets what was chosen ("cublasLt
** 130000: algo 21, split-K 4, reduction scheme 1"). Returns LAD_OK,
** LAD_EUSAGE (a bad option, or formats with no cuBLASLt GEMM), LAD_EDEVICE. */
int lad_cublaslt_gemm(int index, const char *options, const lad_datapath *dp, int m, int n,
                      int k, const lad_word_t *A, const lad_word_t *B, const lad_word_t *C,
                      lad_word_t *D, char *info, size_t infosize, lad_err *err);

#endif
