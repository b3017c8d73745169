/*
** The datapath: one parametric, integer-only model of what a tensor-core
** instruction computes for one output element,
**
**     D = C + sum_k A[k] * B[k]      (times block scales, for scaled kinds)
**
** Every NVIDIA tensor core measured so far fits one algorithm whose
** variations are the parameters below (see docs/model.md for the algorithm
** step by step, and ../shared/docs/DESIGN.md for where each value was seen):
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

typedef struct lad_datapath {
    /* What it is; none of these change the arithmetic. */
    char name[64];       /* preset name: <arch>-<instr>-<ab>-<d> */
    char arch[16];       /* "sm_90a" */
    char instr[24];      /* "mma.sync", "wgmma", "tcgen05.mma" */
    char kind[16];       /* tcgen05 kind ("f16", "mxf4nvf4"), else "" */
    char shape[16];      /* "m16n8k16" */
    char sass[40];       /* tensor opcode the instruction compiles to */

    /* Operands. */
    lad_format a, b;     /* element formats (may differ) */
    lad_format c, d;     /* addend and result formats */
    int k;               /* products per instruction, logical (before sparsity) */
    int in_round;        /* how an A/B word is cut to its format when the
                            container is wider (tf32): LAD_RZ masks the low
                            bits; LAD_RNE/LAD_RNA round first */

    /* Integer datapaths (s8/u8 into s32): exact, then wrap or saturate. */
    int integer;         /* 1 for integer MMA; the float fields are unused */
    int saturate;        /* 1: clamp to the s32 range once, at the end */

    /* The window. */
    int window;          /* F: fraction bits kept below the anchor (13..60) */
    int align_round;     /* LAD_RZ, LAD_RD or LAD_RNE: each term into the window */
    int zero_floor;      /* LAD_NOFLOOR: zero terms take no part in the anchor;
                            else the raw exponent a zero term contributes */
    int anchor_min;      /* LAD_NOFLOOR or the lowest anchor (B200 tf32/bf16: -133) */
    int c_anchor;        /* 1: the addend is a term of the window (anchor and
                            alignment); 0: it is added to the window sum exactly,
                            before the pass result is rounded */
    int window2;         /* 0: one window. Else a two-level window (AMD CDNA3
                            in MMA-Sim: F = 24, F2 = 31): the products are
                            aligned `window` bits below their own anchor and
                            summed exactly; that sum is then aligned window2
                            bits (1..60) below the pass anchor, the larger of
                            the products' anchor and the addend's raw
                            exponent, with align2_round, and the addend
                            `window` bits below it with align_round; both
                            are summed exactly and rounded. c_anchor has no
                            part then. */
    int align2_round;    /* LAD_RZ, LAD_RD or LAD_RNE: the second level
                            (the product sum and the addend) */
    int even_odd;        /* two-level: 1: the even and the odd lanes of a
                            pass are two sums, each cut `window` bits below
                            its own anchor (align_round), then each cut
                            `window` bits below the larger (align2_round):
                            MMA-Sim's CDNA3 fp8 */
    int norm2;           /* two-level: 0, or the exact sum is first cut to
                            this many fraction bits below its leading bit
                            (not below the result format's lowest normal
                            exponent) with align2_round, then rounded (31) */
    int c2_drop;         /* two-level: 1: an addend whose raw exponent is
                            below E - window - 1 counts as zero (not cut) */

    /* Other ways a pass is summed (MMA-Sim's AMD CDNA1 and CDNA2). */
    int exact;           /* 1: no window: products and addend summed exactly,
                            then rounded once (E_FDPA) */
    int ieee_zero;       /* exact: 1: zero results signed as an IEEE fma
                            signs them (f64 mma and MFMA: chained fmas):
                            zero terms only give -0 when all are -0, a
                            cancellation +0 (rd: -0), a sum that rounds to
                            zero keeps its sign; 0: every zero is +0 */
    int tree;            /* 1: each product is rounded into acc (acc_round),
                            then pairs are added by IEEE additions into acc,
                            pair sums paired again (lanes 0+1, 2+3, then the
                            two): CDNA2's multiply-add chain; needs
                            chain sum */
    int prod_inf;        /* LAD_NOFLOOR, or a product of magnitude at least
                            2^prod_inf is an infinity of its sign (128: the
                            f32 range of CDNA3's multipliers in MMA-Sim) */
    int ftz_in;          /* 1: subnormal (and zero) A, B and C read as +0 */
    int ftz_out;         /* 1: a result rounded into acc or d (a product in
                            a tree too) that is subnormal becomes a zero of
                            its sign */

    /* Passes. */
    int pass;            /* L: products fused per pass; k for a single pass */
    int chain;           /* enum lad_chain */
    lad_format acc;      /* format of each pass result (usually f32) */
    int acc_round;       /* rounding of a pass result into acc */
    int d_round;         /* rounding of the last pass result into d */
    int d_via_acc;       /* 1: the last pass result is rounded into acc first
                            (acc_round), then into d: a double rounding */
    int c_last;          /* 1: the passes start from +0 and C is added to the
                            last pass result (rounded into acc) by one
                            rounded addition into d (d_round): fp8 mma.sync
                            on sm_90a is two HMMAs then an FADD/HADD2 of C */
    int norder;          /* 0: lanes fill the passes in physical order; else
                            the number of entries of order[] (== kphys) */
    unsigned char order[LAD_KMAX]; /* physical lane taken at each position:
                            the lanes of pass p are order[p*pass..] */
    int overflow;        /* enum lad_ovf, for acc and d */
    lad_word_t nan;      /* the NaN word every NaN result gets */

    /* Block scaling (scale_block > 0). */
    lad_format sa, sb;   /* scale formats: ue8m0 or ue4m3 */
    int scale_block;     /* physical lanes per scale (32 or 16); 0: unscaled */
    int group;           /* lanes summed exactly before windowing (1 = each
                            product alone; 4 or 16 on Blackwell) */
    int scale_floor;     /* the quantum is at least max scale-pair raw exponent
                            minus this (35); LAD_NOFLOOR: no scale floor */
    int cdom_window;     /* C-dominant merge: when C's raw exponent reaches the
                            product maximum, the quantum is rC - cdom_window (35);
                            0: off */
    int cdom_group;      /* lanes per exact group sum on that path (16) */
    int cdom_per_group;  /* 1: groups C outranks are cut at rC - cdom_window */
    int group_sub_floor; /* LAD_NOFLOOR, or the exponent below which lower-scale
                            groups are dropped from a subnormal result (-174) */

    /* Sparsity: the metadata removes lanes before anything else. */
    int sparse;          /* enum lad_sparse */
} lad_datapath;

/* Fills dp with the defaults every field has when a model file omits it
** (f32 everything, k 1, window 24, RZ, single pass, no scaling). */
void lad_datapath_init(lad_datapath *dp);

/* Checks the parameters for consistency (K within limits, window range,
** formats usable, scale fields together). Returns LAD_OK or LAD_EDATA with a
** message naming the parameter. */
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
** equals etop and its fraction holds all of need. Only formats of 32 bits
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
    int shape;           /* which lane decoder the fast path runs */
    lad_opfmt a, b, c, acc;
    int up, down, bias;  /* alignment of the products into the window */
    int npass;           /* passes of a dense case */
    int preup;           /* up, when the lane decoder applies it */
    int avx2;            /* 1: the fast path's AVX2 build (x86-64 CPUs that
                            have it); 0: the generic one */
    int simple;          /* a's and b's NaN and Inf are decided fast */
    int fast_c, fast_acc;/* c and acc words decoded by the fast path */
    lad_word_t acc_nan;  /* the NaN word of acc */
} lad_plan;

void lad_plan_init(lad_plan *p, const lad_datapath *dp);
/* lad_eval(p->dp, cs), the same word. */
lad_word_t lad_plan_eval(const lad_plan *p, const lad_case *cs);
/* lad_eval_batch with a prepared plan. */
void lad_plan_eval_batch(const lad_plan *p, const lad_case *cs, size_t n, lad_word_t *d);

#endif
