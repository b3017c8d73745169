/*
** The model search: finds the parameters of the datapath model that
** reproduce a set of (case, D) pairs, without a device.
**
** It serves `ladder fit` (captured vectors of a GPU one does not own) and the
** last step of `ladder infer` (the probe answers of a run): the caller fixes
** what the instruction is (formats, K, scales, sparsity: the `base`
** datapath) and the search varies the arithmetic, one dimension per
** parameter of model/datapath.h:
**
**   window 8..40, pass (each divisor of the physical K), align_round
**   (rz rd rne), d_round and acc_round (rz rne ru rd), c_anchor, chain,
**   acc (f32 or f32 cut to e8mN, N 10..23), d_via_acc, anchor_min and
**   zero_floor (none or -126..-160, where they can matter), in_round (rz rne
**   rna, for containers wider than their format), overflow (inf sat ieee);
**   for scaled kinds group, scale_floor, cdom_window, cdom_group,
**   cdom_per_group, group_sub_floor; for integers saturate; c_last, and
**   the lane order of the passes (physical, k%4<2 first, even first). The
**   NaN word comes from the data.
**
** How: a grid over the dimensions that interact most (window, pass,
** roundings, c_anchor, chain, and a narrower output when every D word ends
** in zero bits), then a beam of the best models improved one dimension at a
** time, all on a small active set of cases; the survivors are run on every
** case, the cases they miss join the active set, and the loop repeats until
** a model reproduces everything or nothing new is learned. Models are
** ranked by mismatches and, to guide the search, by how far the wrong words
** are (the bit length of their distance in ulps). Finally the models whose
** mismatch count equals the best's are explored one change at a time from
** the best; a parameter that takes several values among them is
** "undetermined" by the data.
**
** Cost: a few hundred thousand model evaluations for 5,000 cases (a second
** or two on one core); nothing is allocated per case.
*/
#ifndef LADDER_INFERENCE_SEARCH_H
#define LADDER_INFERENCE_SEARCH_H

#include <stddef.h>
#include <stdint.h>
#include "../model/datapath.h"

/* Dimensions of the search, one per model parameter. */
enum lad_dim {
    LAD_DIM_WINDOW = 0,
    LAD_DIM_PASS,
    LAD_DIM_ALIGN_ROUND,
    LAD_DIM_D_ROUND,
    LAD_DIM_ACC_ROUND,
    LAD_DIM_C_ANCHOR,
    LAD_DIM_CHAIN,
    LAD_DIM_ACC,          /* fraction bits N of the accumulator e8mN */
    LAD_DIM_D_VIA_ACC,
    LAD_DIM_ANCHOR_MIN,
    LAD_DIM_ZERO_FLOOR,
    LAD_DIM_IN_ROUND,
    LAD_DIM_OVERFLOW,
    LAD_DIM_GROUP,
    LAD_DIM_SCALE_FLOOR,
    LAD_DIM_CDOM_WINDOW,
    LAD_DIM_CDOM_GROUP,
    LAD_DIM_CDOM_PER_GROUP,
    LAD_DIM_GROUP_SUB_FLOOR,
    LAD_DIM_SATURATE,
    LAD_DIM_C_LAST,
    LAD_DIM_ORDER,        /* lane order of the passes (LAD_ORDER_*) */
    LAD_NDIM
};

/* Lane orders the search knows (lad_datapath.order). */
enum lad_order {
    LAD_ORDER_PHYSICAL = 0, /* lanes fill the passes in physical order */
    LAD_ORDER_REG4 = 1,     /* lanes k % 4 < 2 first (the low halves of
                               32-bit registers: fp8 mma.sync on sm_90a) */
    LAD_ORDER_EVEN = 2,     /* even lanes first */
    LAD_ORDER_OTHER = 3     /* an order none of the above (kept as given) */
};

#define LAD_DIM_MAXVALS 64   /* values one dimension may take */
#define LAD_SEARCH_KEEP 8    /* best models returned */

typedef struct lad_search_opts {
    size_t prefix;           /* cases of the first active set (0: 128) */
    int beam;                /* models kept per round, 1..64 (0: 16) */
    int max_equal;           /* models explored for "undetermined" (0: 200) */
    uint32_t fixed;          /* bit d set: dimension d keeps base's value */
    const lad_datapath *seeds; /* extra starting models (same formats, K) */
    int nseeds;
} lad_search_opts;

typedef struct lad_search_model {
    lad_datapath dp;         /* the model (base with the dimensions set) */
    uint64_t mismatches;     /* over every case */
} lad_search_model;

typedef struct lad_search_result {
    lad_search_model best[LAD_SEARCH_KEEP]; /* fewest mismatches first */
    int nbest;
    /* The values of each dimension, and which of them some model with the
    ** best's mismatch count takes (bit i: vals[d][i]). A dimension that
    ** matters to none of the explored models has undet[d] == 0. */
    int nvals[LAD_NDIM];
    int vals[LAD_NDIM][LAD_DIM_MAXVALS];
    uint64_t undet[LAD_NDIM];
    int nequal;              /* models found with the best's count */
    int equal_capped;        /* 1: exploration stopped at max_equal */
    uint64_t evals;          /* model evaluations spent */
    size_t active;           /* cases in the final active set */
} lad_search_result;

/*
** Searches for models of base's instruction reproducing d[i] for cs[i],
** i < n (n >= 1). base must pass lad_datapath_check. Returns LAD_OK with
** res filled (res->best[0] is the answer), LAD_EUSAGE for bad options, or
** LAD_EDATA when base is unusable.
*/
int lad_search(const lad_datapath *base, const lad_case *cs, const uint32_t *d,
               size_t n, const lad_search_opts *opts, lad_search_result *res,
               lad_err *err);

/* Counts the mismatches of dp on the cases (every one). */
uint64_t lad_search_count(const lad_datapath *dp, const lad_case *cs,
                          const uint32_t *d, size_t n);

/* The model-file key of a dimension ("window", "acc", ...). */
const char *lad_dim_name(int dim);

/* A dimension's value as a model file writes it ("rz", "none", "e8m13",
** "25") into buf (at least 16 bytes); returns buf. */
const char *lad_dim_value(int dim, int value, char *buf, size_t size);

/* The value of dimension dim in dp. */
int lad_dim_get(const lad_datapath *dp, int dim);

/*
** Writes the undetermined dimensions of res as "key: v1|v2|..." (runs of
** consecutive integers as "lo..hi"), one per line, into buf. Returns the
** number of undetermined dimensions (0: the data determines every
** parameter that matters).
*/
int lad_search_undetermined(const lad_search_result *res, char *buf,
                            size_t size);

#endif
