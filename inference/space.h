/*
** The search space shared by the model search's strategies (search.h):
** the beam (beam.c) and the staged sweep (sweep.c) search one space,
** defined here and in space.c.
**
** A model is a vector of value codes (pvec), one per registry row, applied
** to the base datapath. Rows that cannot change the result of a model (the
** row's `matters` rule: acc with one pass and no double rounding, scale
** parameters of unscaled kinds, ...) are reset to base's value, so that one
** model has one vector and the visited set never evaluates it twice.
**
** Scores: a case a model gets right scores 0; a wrong one scores 1, or for
** the beam 1 plus the bit length of the distance between the two words
** read as ordered integers (capped at 33). Summed over the cases, the
** graded score ranks "almost right" above "wrong", which is what lets a
** one-dimension-at-a-time search walk to the answer. Scoring stops as soon
** as a model passes the limit it must beat; the staged sweep moves the
** cases that fail to the front, so that most wrong candidates are turned
** down after a handful of evaluations.
*/
#ifndef LADDER_INFERENCE_SPACE_H
#define LADDER_INFERENCE_SPACE_H

#include "search.h"

#define NP LAD_NPARAMS_MAX
#define MAXV LAD_PARAM_MAXCANDS

typedef struct pvec {
    int64_t v[NP];
} pvec;

typedef struct entry {
    pvec p;
    uint64_t score;   /* on the active set */
    uint64_t miss;    /* mismatches on the active set */
    int cplx;         /* parameters away from their defaults */
} entry;

#define VISIT_SIZE (1u << 17)  /* first size of the visited set; it doubles */
#define MAXBEAM 64
#define MAXITER 12
#define MAXROUNDS 16
#define HOT 64                 /* front of the staged sweep's case order */

typedef struct ctx {
    const lad_datapath *base;
    const lad_case *cs;
    const lad_packed *pk;  /* instead of cs: the cases packed (ladder fit) */
    const lad_word_t *d;
    size_t n;
    int kphys;
    uint64_t fixed;
    uint64_t dims;       /* bit i: registry row i is a dimension */
    int nvals[NP];
    int64_t vals[NP][MAXV];
    pvec basep;
    pvec defp;           /* lad_datapath_init's values for base's instruction */
    lad_word_t nan;        /* the NaN word of the data (or base's) */
    int has_nan;
    /* distance reading of d words */
    int dsignbit;        /* bit of d's sign, -1 when none */
    int dint;            /* d is an integer format */
    lad_word_t dmask;
    /* the beam's active set */
    size_t *active;
    size_t nactive;
    unsigned char *inactive;  /* 1: case i is in the active set */
    uint64_t *visit;     /* hashes of evaluated vectors, 0 = empty */
    size_t nvslot;       /* slots of visit, a power of two */
    size_t nvisit;       /* hashes in it; kept below half of nvslot */
    uint64_t evals;
    entry beam[MAXBEAM];
    int nbeam, beamcap;
    int byname[NP];      /* the rows in the order of their keys (strcmp) */
} ctx;

/* How sp_score weighs and orders. */
enum { COUNT = 0, GRADED = 1, REORDER = 2 };

/* Registry row i. */
const lad_param *sp_row(int i);
/* Adds v to row i's candidates (once). */
void sp_add_val(ctx *x, int i, int64_t v);
/* The candidates of every row (the registry's), the NaN words the data
** holds for nan, and base's own values. */
void sp_build_cands(ctx *x);
/* Model p as a datapath: base with p's dimensions set. */
void sp_apply(const ctx *x, const pvec *p, lad_datapath *dp);
/* Whether row i can change what the model dp computes. */
int sp_relevant(const ctx *x, const lad_datapath *dp, int i);
/* Resets the rows that do not matter to base's values. */
void sp_canon(const ctx *x, pvec *p);
/* How many rows of p differ from their defaults. */
int sp_complexity(const ctx *x, const pvec *p);
/* A hash of p, never 0: of the values in row order. It names p in the
** visited set only; no ranking reads it (the beam breaks ties by
** complexity, then by the values in the order of the rows' keys). */
uint64_t sp_phash(const ctx *x, const pvec *p);
/* Forgets every visited vector. */
void sp_visit_clear(ctx *x);
/* Marks p visited; returns 1 when it was new. */
int sp_visit(ctx *x, const pvec *p);
/* The graded score of one wrong word (0 when right). */
uint64_t sp_case_score(const ctx *x, lad_word_t got, lad_word_t want);
/* Case c, from the array or unpacked into *tmp. */
const lad_case *sp_case_at(const ctx *x, size_t c, lad_case *tmp);
/* The score of dp over the cases idx[0..m-1] below end (space.c). */
uint64_t sp_score(ctx *x, const lad_datapath *dp, size_t *idx, size_t m, size_t end,
                  uint64_t limit, int how, int *hotnext, uint64_t *miss);
/* A context over the cases, with the candidates built; NULL when out of
** memory. */
ctx *sp_ctx_new(const lad_datapath *base, const lad_case *cs, const lad_word_t *d, size_t n);
void sp_ctx_free(ctx *x);
/* The vector of dp's values of the dimensions. */
pvec sp_pvec_of(const ctx *x, const lad_datapath *dp);

#endif
