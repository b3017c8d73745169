/*
** Recipes: what to probe and how (docs/recipes.md).
**
** A recipe is a YAML file, recipes/<preset name>.yaml, that names one
** instruction (what an experimenter knows before measuring: formats, K,
** scales, sparsity, the SASS opcode it should compile to), the rungs of the
** probe ladder to climb with their few parameters, and the settings of the
** random validation. The loader checks everything it reads and keeps the
** place of every field, so that any later stage (a rung, inference,
** validation) can point at the line it is about:
**
**     recipes/sm90-mma-bf16-f32.yaml:12:5: rung 'scaling' needs ...
**
** The recipe's full text and its sha256 travel with it into the store, so a
** run records exactly what was asked.
*/
#ifndef LADDER_PROBES_RECIPE_H
#define LADDER_PROBES_RECIPE_H

#include <stdint.h>
#include "../model/datapath.h"
#include "../util/err.h"

#define LAD_RECIPE_VERSION 1    /* the only `recipe:` value understood */
#define LAD_RECIPE_MAXFORMATS 16 /* user-defined formats per recipe */
#define LAD_RECIPE_MAXRUNGS 32   /* items in `rungs:` */
#define LAD_RUNG_MAXPARAMS 4     /* parameters per rung */
#define LAD_RECIPE_ALL (-1)      /* value of an `all`-or-count parameter set
                                    to `all` */
#define LAD_RECIPE_MAXCASES 100000000LL /* random.cases */

/* A place in the recipe file: 1-based line and column; line 0 when the
** value was not in the file (a default). */
typedef struct lad_mark {
    int line, col;
} lad_mark;

/* The rungs of the ladder, in the order they are usually climbed. */
enum lad_rung_id {
    LAD_RUNG_INSTRUCTION = 0, /* the SASS opcode is the expected one */
    LAD_RUNG_SLICE,           /* which output words carry the result */
    LAD_RUNG_LANES,           /* each product lane counts once, anywhere */
    LAD_RUNG_TRUNCATION,      /* input bits cut before use */
    LAD_RUNG_VISIBLE,         /* 1 + 2^-j: output precision */
    LAD_RUNG_INTERNAL,        /* -1 + 1 + 2^-j: window width */
    LAD_RUNG_ULP,             /* 1 + fractions of an ULP: rounding */
    LAD_RUNG_GROUPING,        /* products fused per pass */
    LAD_RUNG_ZEROS,           /* zero terms and the anchor floor */
    LAD_RUNG_SPECIALS,        /* NaN, Inf, signed zeros */
    LAD_RUNG_SCALING,         /* block scales and the scale floor */
    LAD_RUNG_SUMTREE,         /* the order of the K-long reduction (FPRev) */
    LAD_RUNG_RANDOM,          /* random cases against the fitted model */
    LAD_RUNG_DECIDE,          /* the cases that decide what is still open */
    LAD_RUNG_COUNT
};

/* One item of `rungs:`. Parameters are stored in the order of the rung's
** parameter table (lad_rung_param_name); absent ones hold their default. */
typedef struct lad_rung {
    int id;                                  /* enum lad_rung_id */
    lad_mark mark;                           /* the item */
    long long param[LAD_RUNG_MAXPARAMS];     /* values; enums as their index,
                                                `all` as LAD_RECIPE_ALL */
    lad_mark pmark[LAD_RUNG_MAXPARAMS];      /* where each was set */
} lad_rung;

/* A user-defined format. A format whose decode is to be inferred gives
** only name and width; its other lad_format fields are 0. */
typedef struct lad_recipe_format {
    lad_format f;      /* name, width, and the decode when known */
    int known;         /* 1 when the decode is given (lad_format_check passed) */
    lad_mark mark;     /* the mapping */
} lad_recipe_format;

/* The instruction, as the recipe states it. Formats point into
** lad_recipe.formats for user formats, or at built-ins. */
typedef struct lad_recipe_instr {
    char name[64];     /* preset the recipe targets (<arch>-<instr>-<ab>-<d>) */
    char arch[16];     /* "sm_90a" */
    char instr[24];    /* "mma.sync", "wgmma", "tcgen05.mma" */
    char kind[16];     /* tcgen05 kind, "" when absent */
    char shape[16];    /* "m16n8k16", "" when absent */
    char sass[40];     /* expected tensor opcode, "" when absent */
    lad_format a, b, c, d;  /* operand formats (copies) */
    int a_known, b_known, c_known, d_known; /* 0: user format, decode unknown */
    int k;             /* products per instruction, logical */
    lad_format sa, sb; /* scale formats (scale_block > 0) */
    int scale_block;   /* lanes per scale, 0 when unscaled */
    int sparse;        /* enum lad_sparse */
    lad_mark m_name, m_arch, m_instr, m_kind, m_shape, m_sass;
    lad_mark m_a, m_b, m_c, m_d, m_k, m_sa, m_sb, m_scale_block, m_sparse;
    lad_mark mark;     /* the `datapath:` mapping */
} lad_recipe_instr;

/* Random validation: `cases` random cases, `finite` percent of them drawn
** from finite values only, the rest from raw words. */
typedef struct lad_recipe_random {
    long long cases;   /* 0..LAD_RECIPE_MAXCASES; default 1000000 */
    int finite;        /* percent, 0..100; default 50 */
    uint64_t seed;     /* 0..2^63-1; default 1 */
    lad_mark m_cases, m_finite, m_seed, mark;
} lad_recipe_random;

typedef struct lad_recipe {
    char *path;        /* file the recipe was read from (owned) */
    char *text;        /* its full text, NUL-terminated (owned) */
    size_t textlen;    /* bytes in text */
    char sha256[65];   /* lowercase hex sha256 of text */

    int version;       /* `recipe:` (LAD_RECIPE_VERSION) */
    char description[256]; /* `description:`, "" when absent */
    char device[256];  /* `device:`; default "sim:<datapath name>" */
    lad_mark m_version, m_description, m_device;

    lad_recipe_instr dp;          /* `datapath:` */

    int nformats;                                  /* user formats */
    lad_recipe_format formats[LAD_RECIPE_MAXFORMATS];
    lad_mark m_formats;

    int nrungs;                                    /* 1..LAD_RECIPE_MAXRUNGS */
    lad_rung rungs[LAD_RECIPE_MAXRUNGS];           /* in file order, no
                                                      rung twice */
    lad_mark m_rungs;

    lad_recipe_random random;
} lad_recipe;

/* Reads and checks the recipe at path. Returns LAD_OK, LAD_EDATA with a
** "file:line:col: message" for anything wrong in the file (or "cannot open
** 'x'"), LAD_EINTERNAL when out of memory. On failure r holds nothing to
** free (lad_recipe_free is still safe). */
int lad_recipe_load(const char *path, lad_recipe *r, lad_err *err);

/* Same, from text in memory named `file` in messages. */
int lad_recipe_parse(const char *file, const char *text, size_t len,
                     lad_recipe *r, lad_err *err);

/* Frees what a load allocated and zeroes r. */
void lad_recipe_free(lad_recipe *r);

/* The recipe that climbs datapath dp on device: the instruction only
** (name, formats by the containers they arrive in, K, scales, sparsity)
** and every rung its kind allows, the random rung with random_cases, and
** the decide rung last when decide is 1; as text (malloc'd; NULL when out
** of memory). What `ladder survey` and the report of a preset climb;
** tests/data/recipe-gen.sh writes the same. */
char *lad_recipe_of(const lad_datapath *dp, const char *device, int random_cases, int decide);
#define LAD_RECIPE_OF_RANDOM 1024 /* random_cases of survey's and report's recipes */

/* Fills dp with what the device is told about the instruction: starts from
** lad_datapath_init() and sets name, arch, instr, kind, shape, sass, a, b,
** c, d, k, sa, sb, scale_block and sparse. The arithmetic parameters stay at
** their defaults: they are what the probes find out. A user format whose
** decode is unknown is passed with its name and width only. */
void lad_recipe_datapath(const lad_recipe *r, lad_datapath *dp);

/* The rung of id in r, or NULL when the recipe does not climb it. */
const lad_rung *lad_recipe_rung(const lad_recipe *r, int id);

/* Rung names ("instruction", "slice", ...); lad_rung_find returns the id or
** -1. */
const char *lad_rung_name(int id);
int lad_rung_find(const char *name);
/* The rung name one slip away from name (util/suggest.h), or NULL. */
const char *lad_rung_nearest(const char *name);

/* The name of parameter i of rung id, or NULL past the last. */
const char *lad_rung_param_name(int id, int i);
/* For parameter i of rung id taking names (an enum), the name of value v;
** NULL for numeric parameters or a value out of range. */
const char *lad_rung_param_enum(int id, int i, long long v);
/* Value of the named parameter (its default when the recipe did not set
** it); -2 when the rung has no such parameter (a bug in the caller). */
long long lad_rung_param(const lad_rung *r, const char *name);
/* Where the named parameter was set, or the rung's own mark when it was
** not (so messages about a default still point at the rung). */
lad_mark lad_rung_param_mark(const lad_rung *r, const char *name);

#endif
