/*
** The datapath's parameters as data: one row per parameter of
** model/params.def, the single definition that everything which names,
** reads, writes, prints, checks, searches or documents a parameter is
** made from (as SQLite's pragma table is):
**
**   - datapath.h declares lad_datapath's fields from it, and datapath.c
**     takes the defaults and the per-field checks from these rows;
**   - io/modelfile.c reads and writes model files by walking the rows
**     (key, type, legal set, enum names, the comment line);
**   - inference (inference/space.c, beam.c, sweep.c) varies the searchable rows over their
**     candidate values, asks a row whether it can matter to a model, and
**     prints values with the row's printer; its joint groups are the
**     LAD_SWEEP lines of params.def;
**   - `ladder model params` and docs/model-files.md list them.
**
** A searchable parameter has an integer "value code" (lad_param_get/set),
** 64 bits wide: the field itself for integers, booleans, enums and
** floors; for the formats acc and d the fraction bits of a cut format
** (LAD_PV_* for the others); for the lane order the stride r of "lanes j
** with j % 2r < r first" (0: physical order); for nan the word, whatever
** its width. Codes are read and set against a base datapath: the
** instruction as declared (its formats).
*/
#ifndef LADDER_MODEL_PARAMS_H
#define LADDER_MODEL_PARAMS_H

#include <stddef.h>
#include <stdint.h>
#include "datapath.h"

enum lad_ptype {
    LAD_PT_STR,    /* char array; may be "" */
    LAD_PT_FMT,    /* lad_format */
    LAD_PT_INT,    /* int within lo..hi */
    LAD_PT_BOOL,   /* int 0/1, written true/false */
    LAD_PT_ENUM,   /* int indexing names[], one of the legal mask */
    LAD_PT_FLOOR,  /* int within lo..hi, or LAD_NOFLOOR written `none` */
    LAD_PT_HEX,    /* lad_word_t written as lad_word_hex does */
    LAD_PT_ORDER   /* lane order: norder and order[] */
};

/* Row ids: LAD_P_window is the index of window's row in lad_params. */
enum lad_param_id {
#define LAD_STR(key, ...) LAD_P_##key,
#define LAD_FMT(key, ...) LAD_P_##key,
#define LAD_INT(key, ...) LAD_P_##key,
#define LAD_BOOL(key, ...) LAD_P_##key,
#define LAD_ENUM(key, ...) LAD_P_##key,
#define LAD_FLOOR(key, ...) LAD_P_##key,
#define LAD_WORD(key, ...) LAD_P_##key,
#define LAD_ORDER(key, ...) LAD_P_##key,
#include "params.def"
    LAD_NPARAMS    /* rows in the registry */
};

/* Value codes of a format parameter that is not a cut of its reference. */
#define LAD_PV_BASE 0     /* the base datapath's format */
#define LAD_PV_F16 (-1)
#define LAD_PV_BF16 (-2)
#define LAD_PV_DECL_D (-3) /* the declared result format (acc only) */
#define LAD_PV_OTHER (-1000) /* order: a permutation no stride gives */

#define LAD_PF_REQUIRED 1 /* a model file must give it: what the instruction is */
#define LAD_PF_GRID 2     /* the beam's first grid varies it (search.h) */

#define LAD_PARAM_MAXCANDS 160 /* candidate values of one parameter */
#define LAD_NPARAMS_MAX 64     /* rows the registry may have: the search keeps
                                  a set of rows as the bits of a uint64_t */
_Static_assert(LAD_NPARAMS <= LAD_NPARAMS_MAX, "params.def has more rows than LAD_NPARAMS_MAX");
_Static_assert(LAD_NPARAMS_MAX <= 64, "row sets are 64-bit masks");

/* The bit of value v in an enum row's legal mask. */
#define LAD_RM(v) (1u << (v))
#define LAD_RM_ALL (LAD_RM(LAD_RZ) | LAD_RM(LAD_RNE) | LAD_RM(LAD_RU) | LAD_RM(LAD_RD) | \
                    LAD_RM(LAD_RNA))

typedef struct lad_param lad_param;
struct lad_param {
    const char *key;            /* the model-file key, also the field name */
    int type;                   /* enum lad_ptype */
    size_t off, size;           /* the field in lad_datapath */
    int64_t dflt;               /* INT, BOOL, ENUM, FLOOR, HEX: the default */
    const char *dflt_fmt;       /* FMT: the default format's name */
    int64_t lo, hi;             /* INT, FLOOR: legal values (FLOOR: or none) */
    const char *const *names;   /* ENUM: names by value, NULL-terminated */
    unsigned legal;             /* ENUM: LAD_RM() of each legal value */
    int flags;                  /* LAD_PF_* */
    /* Searchable rows: the candidate values for a datapath of base's
    ** instruction, most plausible first (ties go to the first); 0 when the
    ** parameter can never matter to it. NULL: not searched. */
    int (*cands)(const lad_param *p, const lad_datapath *base, int64_t *v, int max);
    /* Whether the parameter can change what dp computes, given dp's other
    ** parameters; NULL: always. */
    int (*matters)(const lad_datapath *dp);
    const char *doc;            /* one line: the model file's comment */
};

extern const lad_param lad_params[LAD_NPARAMS];
extern const int lad_nparams; /* LAD_NPARAMS */

/* The values of p hardware shows, with some room (params.def's LAD_USUAL
** line): *lo..*hi, which random draws favour. 0 (and 0..0) when p has no
** such line. */
int lad_param_usual(const lad_param *p, int64_t *lo, int64_t *hi);

/* The staged sweep's joint groups (params.def's LAD_SWEEP lines), in
** dependency order: rows[0..n-1] are searched jointly. */
/* The fast evaluators, in params.def's LAD_IMPL columns. */
enum lad_evaluator {
    LAD_EV_UNSCALED, /* plan_unscaled.c (fast_body, any CPU and AVX2) */
    LAD_EV_SCALED,   /* plan_scaled.c (lad_eval_scaled) */
    LAD_EV_FIXED,    /* within it, fp4 groups summed as integers */
    LAD_EV_FIXSUM,   /* within those, the sum a block at a time (fixed_sum) */
    LAD_EV_LANES8,   /* plan_lanes.c on the unscaled path */
    LAD_EV_SCALED8,  /* plan_lanes.c on the scaled path (lad_scaled_lanes8) */
    LAD_EV_GEMM,     /* gemm_kernel.c's block kernel (lad_block_ok) */
    LAD_EV_CHAINS,   /* its AVX2 chain kernels */
    LAD_EV_CASES,    /* cases_kernel.c (lad_cases_ok) */
    LAD_NEVAL
};
#define LAD_IM_DFLT 0u    /* the row's default only */
#define LAD_IM_ANY (~0u)  /* every legal value; else (ENUM, BOOL) LAD_RM() of
                             the values besides the default */
extern const unsigned lad_impl[LAD_NPARAMS][LAD_NEVAL];

/* An evaluator's declaration: its name, and what it asks of a datapath's
** shape besides the values of its rows (LAD_IMPL). */
typedef struct lad_evaluator_decl {
    const char *name;
    int kstep;  /* k a multiple of this (1: any k): the code reads a case's
                   words in whole chunks of kstep, so rows of k words
                   (lad_rows) must be whole chunks */
} lad_evaluator_decl;
extern const lad_evaluator_decl lad_evaluators[LAD_NEVAL];

/* The rows of dp in effect (lad_param_matters) and off their default, as
** bits 1 << LAD_P_<key>, leaving out those every evaluator implements at
** every value. */
uint64_t lad_rows_off(const lad_datapath *dp);
/* The first of those rows (off: lad_rows_off(dp)) at a value evaluator ev
** does not implement (lad_impl), or k where dp's is no multiple of ev's
** kstep (lad_evaluators); -1 when ev covers dp. */
int lad_impl_gap(int ev, const lad_datapath *dp, uint64_t off);
static inline int lad_impl_covers(int ev, const lad_datapath *dp)
{
    return lad_impl_gap(ev, dp, lad_rows_off(dp)) < 0;
}
int lad_param_at_default(const lad_param *p, const lad_datapath *dp);

#define LAD_SWEEP_MAXROWS 8
typedef struct lad_sweep_group {
    int n;
    int rows[LAD_SWEEP_MAXROWS];
} lad_sweep_group;
extern const lad_sweep_group lad_sweep_groups[];
extern const int lad_nsweep_groups;

/* Names by value, NULL-terminated. */
extern const char *const lad_round_names[];    /* rz rne ru rd rna */
extern const char *const lad_ovf_names[];      /* inf sat ieee */
extern const char *const lad_chain_names[];    /* chain sum */
extern const char *const lad_sparse_names[];   /* none 1of2 2of4 pairs8 */

/* The row of key, or NULL. */
const lad_param *lad_param_find(const char *key);
/* The row's index in lad_params (its LAD_P_ id). */
int lad_param_index(const lad_param *p);

/* Sets every field of dp to its row's default. */
void lad_param_defaults(lad_datapath *dp);
/* NULL when p's field in dp lies in p's legal set; else a message into
** buf ("window must be 1..60, not 62") and buf. The legal set is the one
** docs/model-files.md prints, the model-file reader and
** lad_datapath_check both refuse what lies outside it. */
const char *lad_param_illegal(const lad_param *p, const lad_datapath *dp, char *buf,
                              size_t size);
/* The legal set of p as docs print it ("integer 1..60", "`rz`, `rd`,
** `rne`"; with plain 0, the names without backquotes, space-separated).
** Returns buf. */
const char *lad_param_legal_text(const lad_param *p, int markdown, char *buf, size_t size);

/* The value code of p in dp (see above); base gives the declared formats. */
int64_t lad_param_get(const lad_param *p, const lad_datapath *dp, const lad_datapath *base);
/* Sets p in dp to value code v. */
void lad_param_set(const lad_param *p, lad_datapath *dp, const lad_datapath *base, int64_t v);
/* p's candidate values for base's instruction into v[0..max-1]; returns
** how many (0 for rows that are not searched or cannot matter). */
int lad_param_cands(const lad_param *p, const lad_datapath *base, int64_t *v, int max);
/* Whether p can change what dp computes (its `matters` column): the
** search varies only such rows. */
int lad_param_matters(const lad_param *p, const lad_datapath *dp);
/* Whether p's value in dp can give other words than p's default: p
** matters, and no LAD_CANON rule of params.def says the value is the
** default's equal for dp's shape. */
int lad_param_in_effect(const lad_param *p, const lad_datapath *dp);
/* Sets p in dp to its default (a lane order: physical). */
void lad_param_reset(const lad_param *p, lad_datapath *dp);
/* Rewrites dp into its canonical form (model/canon.c): every row that is
** not in effect takes its default, until none is left; each rewrite keeps
** every word dp computes. Returns the number of rows rewritten. dp must
** have passed lad_datapath_check. */
int lad_canon(lad_datapath *dp);
/* 1 when the canonical forms of x and y are identical, row by row (names
** and formats that read alike aside: lad_format_rows_alike). */
int lad_canon_equal(const lad_datapath *x, const lad_datapath *y);
/* 1 when format row p (LAD_PT_FMT) reads the same words alike in x and y:
** the formats decode alike under two names, or p is A, B or C, both flush
** subnormal inputs (ftz_in) and the formats differ only in whether field
** 0 holds subnormals or zero (either way the input reads +0). */
int lad_format_rows_alike(const lad_param *p, const lad_datapath *x, const lad_datapath *y);
/* 1 when x and y read A, B and C alike (lad_format_rows_alike). */
int lad_inputs_alike(const lad_datapath *x, const lad_datapath *y);
/* What two models compute, compared (probes/diff.h decides it): = the
** canonical forms are identical, ≡ no case searched separates them,
** differs a case does. */
enum { LAD_SAME, LAD_EQUIV, LAD_DIFFERS };
extern const char *const lad_verdict_names[3]; /* "=", "≡", "differs" */
extern const char *const lad_verdict_words[3]; /* "same", "equivalent", "differs" */

/* p's value in dp as a model file writes a scalar ("25", "rne", "none",
** "0x7fffffff", "e8m13", "true"); a format by its name, a lane order as
** "[0, 1, ...]" or "none". Returns buf. */
const char *lad_param_text(const lad_param *p, const lad_datapath *dp,
                           char *buf, size_t size);
/* Value code v of p, said briefly ("25", "rne", "e8m13", "j%4<2"). */
const char *lad_param_code_text(const lad_param *p, const lad_datapath *base,
                                int64_t v, char *buf, size_t size);

/* A float format with m fraction bits cut from f (the low bits become
** padding): e8m13 from f32. */
lad_format lad_format_cut(const lad_format *f, int m);
/* 1 when f is f32 or f32 with fewer fraction bits (e8mN). */
int lad_format_f32_family(const lad_format *f);
/* Sets dp's lane order to stride r (0: physical order; see above). */
void lad_order_set_stride(lad_datapath *dp, int r);

#endif
