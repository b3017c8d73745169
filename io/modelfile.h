/*
** Model files: a lad_datapath as YAML (docs/model-files.md).
**
** A model file holds every parameter of the datapath model under the name
** of its lad_datapath field; a key left out keeps lad_datapath_init()'s
** value. Presets are the same content compiled in, so `ladder model show
** NAME` prints a preset with lad_model_write and `--model FILE` reads it
** back with lad_model_load; the two round-trip exactly.
**
** Formats are written by built-in name (`a: bf16`) or as an inline mapping
** for a user-defined format (`a: {name: e3m4, width: 8, ebits: 3, ...}`).
** The same mapping reader serves recipes, which may also declare a format
** by name and width alone when its decode is what the probes look for.
*/
#ifndef LADDER_IO_MODELFILE_H
#define LADDER_IO_MODELFILE_H

#include <stddef.h>
#include "../model/datapath.h"
#include "yaml.h"

/* Reads a model file into dp (lad_datapath_init, then each key), and checks
** it with lad_datapath_check. evidence, when not NULL, receives the
** `evidence:` value or "" (size bytes; a longer value is cut at the last
** whole UTF-8 character that fits). Returns LAD_OK, or LAD_EDATA with a
** "file:line:col: message"; dp is unspecified on failure. */
int lad_model_load(const char *path, lad_datapath *dp, char *evidence,
                   size_t size, lad_err *err);

/* sizeof (lad_datapath), for callers that hold one as bytes (the Python
** package). */
size_t lad_model_datapath_size(void);

/* Same, from text in memory named `file` in messages. */
int lad_model_parse(const char *file, const char *text, size_t len,
                    lad_datapath *dp, char *evidence, size_t size,
                    lad_err *err);

/* Same, from a mapping node of a parsed document (no check). */
int lad_model_from_node(const lad_ydoc *doc, const lad_ynode *map,
                        lad_datapath *dp, char *evidence, size_t size,
                        lad_err *err);

/* A preset name (lad_preset_find) or else a path to a model file, into
** dp. Returns LAD_OK; LAD_EUSAGE when neither exists ("unknown preset or
** model file 'x'", as lad_model_unknown says it: the spec is a name the
** user gave); LAD_EDATA when the file is there but no model. */
int lad_model_resolve(const char *spec, lad_datapath *dp, lad_err *err);

/* Sets err to "unknown preset or model file 'spec'", with "; did you mean
** 'p'?" when a preset's name is one slip away (util/suggest.h), and
** returns LAD_EUSAGE: an unknown name on the command line is a usage error
** (docs/exit-codes.md). A caller whose spec came from a file or a store
** makes it LAD_EDATA. */
int lad_model_unknown(const char *spec, lad_err *err);

/* The YAML text of dp (every field, a comment line before each key), with
** an `evidence:` line when evidence is neither NULL nor "" (the loader gives
** "" for a file without one, and refuses an empty value). Returns a malloc'ed
** NUL-terminated string, or NULL when out of memory. */
char *lad_model_write(const lad_datapath *dp, const char *evidence);

/* The same, with notes[i] (lad_params order; NULL entries: none) written as
** a comment line under row i's (the whole answer's "open: ..." of
** inference/answer.h, lad_answer_note). notes NULL: lad_model_write. */
char *lad_model_write_notes(const lad_datapath *dp, const char *evidence,
                            const char *const *notes);

/* Writes lad_model_write(dp, evidence) to path: through a temporary file
** beside it and a rename when path is (or will be) a regular file, so that
** a failed write leaves no partial model behind; in place otherwise (a
** device, a pipe), as util/outfile.h does. Closes what it opened on every path. Returns LAD_OK,
** LAD_EDATA with "cannot write '<path>': <reason>", or LAD_EINTERNAL. */
int lad_model_save(const char *path, const lad_datapath *dp, const char *evidence,
                   lad_err *err);

/* Reads a format: a built-in name, `none` (an all-zero format: no scale),
** a format spec (model/format_spec.h; named by its name= key, else by its
** base, else by its own text when the base is a built-in it changes), or a
** mapping {name, kind, width, pad, sign, ebits, mbits, bias, sub, inf,
** nan}. With partial set, a mapping of only name and width (and kind) is
** accepted as a format whose decode is unknown: *known is set to 0 and the
** other fields to 0. Otherwise the decode is complete (missing pad, sign,
** bias, sub, inf, nan take IEEE-style defaults), lad_format_check must pass,
** and *known is 1. `what` names the value in messages. */
int lad_model_read_format(const lad_ydoc *doc, const lad_ynode *node,
                          const char *what, int partial, lad_format *f,
                          int *known, lad_err *err);

/* The enums' names as model files spell them are the registry's
** (lad_round_names and others, model/params.h). */
#include "../model/params.h"

/* Row p's value of dp as a model file spells it, unquoted, into buf: a
** format as its spec (`none` for no format), any other row as
** lad_param_text. NULL for a format no spec reads back as (a model file
** writes it as a mapping). */
const char *lad_model_value(const lad_param *p, const lad_datapath *dp, char *buf, size_t size);

#endif
