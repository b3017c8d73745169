/*
** The datapath: one parametric, integer-only model of what a tensor-core
** instruction computes for one output element,
**
**     D = C + sum_k A[k] * B[k]      (times block scales, for scaled kinds)
**
** Every NVIDIA tensor core measured so far fits one algorithm whose
** variations are the parameters below (see docs/model.md for the algorithm
** step by step, and docs/datapaths.md for where each value was seen):
**
**   decode A, B (cut from their container first), C; specials first;
**   exact products; per pass of `pass` products: anchor = max raw exponent
**   of the nonzero terms (and of the addend when c_anchor), quantum =
**   anchor - window, every term rounded to the quantum (align_round), exact
**   integer sum, rounded to the accumulator format; the pass result is the
**   next pass's addend; finally rounded to D.
**
** A datapath that is really a small program of instructions (fp8 mma.sync on
** sm_90a is two f16 HMMAs) is the same thing with pass < k.
**
** The model is the simulated device, the target of inference and the
** reference of validation, so it is written for speed (tens of millions of
** cases per second per core) as well as exactness.
*/
#ifndef LADDER_MODEL_DATAPATH_H
#define LADDER_MODEL_DATAPATH_H

#include "format.h"
#include "../util/err.h"

#define LAD_KMAX 128      /* logical K of the widest instruction (sparse mxf4) */
#define LAD_SCALEMAX 8    /* scale blocks per case */
#define LAD_METAMAX 4     /* sparsity metadata words per case */
#define LAD_NOFLOOR (-100000) /* "no floor" value for exponent floors */

/* One dot product to evaluate. Words are raw, at their container width, in
** the low bits (a tf32 element is the whole f32 word). Lanes past the
** datapath's K are ignored. */
typedef struct lad_case {
    lad_word_t a[LAD_KMAX];        /* A row, logical K order */
    lad_word_t b[LAD_KMAX];        /* B column, logical K order */
    lad_word_t c;                  /* addend */
    uint8_t sa[LAD_SCALEMAX];      /* scale of A per K block (scaled kinds) */
    uint8_t sb[LAD_SCALEMAX];      /* scale of B per K block */
    uint32_t meta[LAD_METAMAX];    /* sparsity selectors, low nibble first */
} lad_case;

/* How results of passes combine (pass < k). */
enum lad_chain {
    LAD_CHAIN = 0,  /* pass p's rounded result is the addend of pass p+1 */
    LAD_SUM = 1     /* every pass starts from +0; C and the pass results are
                       added in order with acc_round into the acc format */
};

/* Sparsity patterns: which logical lanes the metadata can keep. */
enum lad_sparse {
    LAD_SPARSE_NONE = 0,
    LAD_SPARSE_1OF2 = 1,   /* tf32: one lane of each pair (selector 4 or E) */
    LAD_SPARSE_2OF4 = 2,   /* two lanes of each 4 (16-bit and 8-bit kinds) */
    LAD_SPARSE_PAIRS8 = 3  /* two adjacent pairs of each 8 (mxf4 family) */
};

/*
** The parameters: one field per row of model/params.def, which says for
** each its type, default, legal set, model-file key and meaning (what it
** does, its unit and its limits). The fields are in the order of the rows.
*/
typedef struct lad_datapath {
#define LAD_STR(key, len, ...) char key[len];
#define LAD_FMT(key, ...) lad_format key;
#define LAD_INT(key, ...) int key;
#define LAD_BOOL(key, ...) int key;
#define LAD_ENUM(key, ...) int key;
#define LAD_FLOOR(key, ...) int key;
#define LAD_WORD(key, ...) lad_word_t key;
#define LAD_ORDER(key, ...) int n##key; unsigned char key[LAD_KMAX];
#include "params.def"
} lad_datapath;

/* Fills dp with the defaults every field has when a model file omits it
** (params.def: f32 everything, k 1, window 24, RZ, single pass, no
** scaling). */
void lad_datapath_init(lad_datapath *dp);

/* Checks the parameters: each field within its legal set (params.def),
** then the rules that relate several fields (pass within K, formats of
** the right kinds, scale fields together). Returns LAD_OK or LAD_EDATA
** with a message naming the parameter. */
int lad_datapath_check(const lad_datapath *dp, lad_err *err);

/* Physical K: products that take part after sparsity (k or k/2). */
int lad_datapath_kphys(const lad_datapath *dp);
/* Scale blocks a case uses (0 when unscaled). */
int lad_datapath_nscales(const lad_datapath *dp);
/* Sparsity metadata words a case uses (0 when dense). */
int lad_datapath_nmeta(const lad_datapath *dp);

/* Checks that a case's sparsity metadata is legal for dp. Returns 0 when it
** is, or the index of the first bad 4-bit selector plus one. */
int lad_sparse_check(const lad_datapath *dp, const lad_case *cs);

/* Evaluates one case: returns the D word. dp must have passed
** lad_datapath_check; illegal sparsity metadata selects no lanes from the
** chunk it is in. */
lad_word_t lad_eval(const lad_datapath *dp, const lad_case *cs);

/* Evaluates n cases into d[0..n-1]. */
void lad_eval_batch(const lad_datapath *dp, const lad_case *cs, size_t n,
                    lad_word_t *d);

/* One float operand format as the fast evaluator decodes it: a word shifted
** down by pad gives the fraction (& fmask), the exponent field ((>> mb) &
** emax) and the sign (& smask); a code is special when its exponent field
** equals etop and its fraction holds all of need, or (spec FS_FNUZ) when
** it is the sign bit alone, the fnuz formats' NaN. Only formats of 32 bits
** or fewer have one (lad_opfmt_usable); wider words take lad_decode. */
typedef struct lad_opfmt {
    uint32_t pad, mb, fmask, emax, smask, etop, need;
    int bias;
    int spec;            /* how the top exponent decodes (datapath_int.h) */
} lad_opfmt;

/*
** A datapath prepared for many evaluations: what lad_eval works out from the
** parameters on every call (which code path applies, the decoding
** constants), worked out once. Like a prepared statement: lad_plan_init,
** then lad_plan_eval for each case; the datapath must not change while a
** plan of it is in use. The fields below dp are the evaluator's own.
*/
enum lad_path {
    LAD_PATH_GENERAL = 0,  /* the reference code: every datapath */
    LAD_PATH_FAST,         /* unscaled float datapaths whose sums fit 64 bits */
    LAD_PATH_SCALED,       /* block-scaled single passes whose sums fit 64 bits */
    LAD_PATH_INTEGER       /* integer MMA */
};

typedef struct lad_plan {
    const lad_datapath *dp;
    int path;            /* enum lad_path */
    uint64_t off;        /* dp's rows in effect and off their default
                            (lad_rows_off): what the evaluators must cover */
    int shape;           /* which lane decoder the fast path runs */
    lad_opfmt a, b, c, acc, d;
    int up, down, bias;  /* alignment of the products into the window */
    int bigt;            /* with prod_inf: the eight-lane code's bound on a
                            product too large (plan_lanes.c, big8); else 0 */
    int npass;           /* passes of a dense case */
    int preup;           /* up, when the lane decoder applies it */
    int lanes8;          /* 1: the fast path's AVX2 build decodes and sums
                            eight lanes at a time (plan_lanes.c, lad_lanes8_ok) */
    int direct;          /* every lane takes part, uncut and in order */
    int full8;           /* direct, and k a multiple of 8: a dense case is
                            whole chunks of eight lanes */
    int whole8;          /* full8, and every pass is whole chunks (or the
                            only pass); else each pass masks its lanes */
    int sum32;           /* the eight-lane sums fit 32-bit lanes */
    int cases8;          /* the AVX2 build evaluates dense cases eight
                            side by side, one a vector lane
                            (gemm_kernel.c, lad_cases_ok) */
    int cases_w;         /* with cases8: the cases side by side, 8, or 16
                            on AVX-512 (lad_cases_width) */
    int avx2;            /* 1: the fast path's AVX2 build (x86-64 CPUs that
                            have it); 0: the generic one */
    int simple;          /* a's and b's NaN and Inf are decided fast */
    int inf_rest;        /* simple, chained passes rounding straight into d,
                            acc with IEEE Inf and NaN: a case is decided by
                            its words' classes from the first pass that
                            meets a NaN or an Inf (plan_unscaled.c, lad_special_rest) */
    int fast_c, fast_acc;/* c and acc words decoded by the fast path */
    lad_word_t acc_nan;  /* the NaN word of acc */
    int fixed;           /* 1: the block-scaled path sums a group's products
                            as integers from the tables below (plan_scaled.c,
                            lad_fixed_ok) */
    int fixsum;          /* fixed, the rows LAD_IMPL's fixsum column covers
                            (aligned toward zero), C-dominant groups within
                            a block: the terms are summed a scale block at
                            a time (plan_scaled.c, fixed_sum) */
    int fixed8;          /* fixed, and its groups summed eight lanes at a
                            time by the AVX2 build (plan_lanes.c,
                            lad_fixed_groups8) */
    int scaled8;         /* the block-scaled path runs a case of one block
                            whose scales multiply to a power of two by the
                            eight-lane code (plan_lanes.c, lad_scaled_lanes8) */
    int fxunit;          /* the exponent of those integers' unit */
    int8_t fxa[16], fxb[16];  /* A and B words by their low 4 bits: the
                            value as a signed count of the smallest subnormal */
    int8_t rxa[16], rxb[16];  /* the raw exponent (a zero: far below any) */
    struct lad_scale {   /* the block-scaled path: each scale code decoded */
        uint16_t mag;    /* lad_decode's mag, exp and raw */
        int16_t exp, raw;
        uint8_t nan;     /* 1: a NaN */
    } sta[256], stb[256];
} lad_plan;

void lad_plan_init(lad_plan *p, const lad_datapath *dp);
/* lad_eval(p->dp, cs), the same word. */
lad_word_t lad_plan_eval(const lad_plan *p, const lad_case *cs);
/* lad_eval_batch with a prepared plan. */
void lad_plan_eval_batch(const lad_plan *p, const lad_case *cs, size_t n, lad_word_t *d);

/* n cases as rows of arrays, as `ladder eval` reads them from .npy files:
** case i's A and B words (logical K order) at a + i * k and b + i * k (k
** the datapath's), its C word c[i] (+0 without c), and for a block-scaled
** datapath its scale codes at sa + i * nkb and sb + i * nkb (nkb =
** lad_datapath_nscales). Metadata is zero. Far smaller than lad_case's 2 KB, so a
** batch of them stays in the caches. A and B of formats of 8 bits or fewer
** may come as bytes instead (a8 and b8, a and b NULL), as a uint8 .npy
** file holds them: the fp4 path reads them so, the others a few cases'
** worth widened at a time. */
typedef struct lad_rows {
    const lad_word_t *a, *b, *c;
    const uint8_t *sa, *sb;
    const uint8_t *a8, *b8;
} lad_rows;

/* lad_plan_eval_batch on rows: d[i] is case i's word. */
void lad_plan_eval_rows(const lad_plan *p, const lad_rows *r, size_t n, lad_word_t *d);
/* Case i of r as a lad_case. */
void lad_rows_case(const lad_datapath *dp, const lad_rows *r, size_t i, lad_case *cs);

#endif
