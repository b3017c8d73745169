/*
** libladder: the datapath model as a library (docs/library.md).
**
**     #include <ladder.h>
**     cc prog.c $(pkg-config --cflags --libs ladder)
**
** One header for everything public: number formats (format.h), result
** codes (err.h), the datapath and its evaluator (datapath.h), the
** compiled-in presets (presets.h), the parameter registry (params.h) and
** programs of instructions with lad_gemm (program.h). The library needs
** only libc and pthreads; model files (YAML) are read by ladder's io/
** layer, which is not part of it.
**
** Thread safety: nothing in the library is mutable and shared except the
** preset table, built once under pthread_once. A lad_plan is read-only
** after lad_plan_init, so one plan may serve many threads; lad_gemm makes
** one per thread anyway.
*/
#ifndef LADDER_H
#define LADDER_H

#ifdef __cplusplus
extern "C" {
#endif

#include "format.h"
#include "../util/err.h"
#include "datapath.h"
#include "params.h"
#include "presets.h"
#include "program.h"

#ifdef __cplusplus
}
#endif

#endif
