/*
** Reading the tensor opcode out of a cubin without a disassembler.
**
** A cubin is an ELF file whose section ".text.<kernel>" holds the kernel's
** SASS: on sm_70 and later, 128-bit instructions whose opcode is the low 12
** bits of the first 64-bit word. The tensor opcodes and a few modifier bits
** were identified by comparing cuobjdump output with the words of the
** cubins of this build (docs/reference/ptx-notes.md section 5.2):
**
**   0x23c HMMA (2nd word: 0x800 shape 16816, 0x4000 shape 1684 (tf32
**         m16n8k4), neither 1688; 0x1000 F32, 0x40000 BF16, 0x80000 TF32),
**   0x237 IMMA, 0x27a QMMA, 0x47a QMMA.SF and 0x47f OMMA.SF (sm_120a
**         block-scaled), 0x9f0 HGMMA, 0x9f1 IGMMA, 0x9f3 QGMMA,
**   0x5ea/0xdea the tcgen05 MMAs (2nd word 0x300 UTCQMMA, 0x100 UTCIMMA;
**   else top bits of the 1st word set: UTCOMMA, clear: UTCHMMA).
**
** These are fingerprints of ptxas 13.0, not documented facts; cuobjdump
** (`ladder sass`, tests/t6000-sass-opcodes.sh) remains the reference. The
** cuda device uses them so that the opcode it records comes from the bytes
** that run.
*/
#ifndef LADDER_KERNELS_CUBIN_H
#define LADDER_KERNELS_CUBIN_H

#include <stddef.h>
#include "../util/err.h"

/* Names the tensor instructions of kernel `kernel` in the cubin img: writes
** up to `max` names (HMMA with its shape and types, e.g. "HMMA.16816.F32",
** others by their root, e.g. "QGMMA") into names[i] (each 32 bytes), in
** program order. Returns the number found (0 when none), or -1 when img is
** not a cubin or has no such kernel. */
int lad_cubin_tensor_ops(const void *img, size_t size, const char *kernel,
                         char (*names)[32], int max);

/* Checks that kernel's tensor instructions match `expected` (the table's
** opcode): an HMMA must match in full, other opcodes by their root (the
** part before the first '.'). On success copies expected to found and
** returns LAD_OK; otherwise LAD_EDEVICE naming what the cubin holds. */
int lad_cubin_check(const void *img, size_t size, const char *kernel,
                    const char *expected, char *found, size_t found_size,
                    lad_err *err);

#endif
