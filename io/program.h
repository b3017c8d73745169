/*
** Program files: a lad_program (model/program.h) as YAML,
**
**     program:
**       promote: 4        # MMAs between promotions into f32; 0: never
**       split: 1          # K slices
**       reduce: serial    # serial or tree
**       scale_a: 0x3f800000
**       scale_b: 0x3f800000
**       out: bf16         # output format, or acc
**       out_round: rne
**       out_overflow: inf
**
** under a top-level key `program:` of its own (docs/commands/gemm.md). Keys
** left out keep lad_program_init's values.
*/
#ifndef LADDER_IO_PROGRAM_H
#define LADDER_IO_PROGRAM_H

#include "../model/program.h"

/* Reads the program file at path into prog. Returns LAD_OK, or LAD_EDATA
** with a "file:line:col: message". */
int lad_program_load(const char *path, lad_program *prog, lad_err *err);

/* A program preset name (lad_program_preset_find) or else a program file.
** LAD_EUSAGE, with the preset a slip away, when neither exists. */
int lad_program_resolve(const char *spec, lad_program *prog, lad_err *err);

#endif
