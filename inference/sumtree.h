/*
** The summation tree from the sumtree rung's cases (probes/rung_sumtree.c):
** FPRev's reconstruction. Case (i, j) tells s(i, j), the number of leaves
** of the smallest subtree holding lanes i and j; joining, for each size v
** from 2 up, the subtrees that pairs of size v connect gives every node,
** and a node may have more than two children (a fused pass of an MMA adds
** all its products at once). The tree is written as a nested expression:
** a sequential sum of four is (((0+1)+2)+3), a fused pass of four then two
** more lanes chained is ((0+1+2+3)+4+5).
*/
#ifndef LADDER_INFERENCE_SUMTREE_H
#define LADDER_INFERENCE_SUMTREE_H

#include <stddef.h>
#include <stdint.h>
#include "cases.h"
#include "infer.h"

/*
** Builds the tree of n leaves (2..LAD_KMAX) from s (n x n, row-major;
** s[i*n+j] for i < j is read, the rest ignored) into text. Returns LAD_OK;
** LAD_NO with why filled when no tree has exactly these subtree sizes.
*/
int lad_sumtree_build(int n, const int *s, char *text, size_t size, char *why,
                      size_t whysize);

typedef struct lad_sumtree {
    int n;                        /* leaves; 0: the cases hold no sumtree rung */
    size_t ncases;                /* its cases */
    char text[LAD_SUMTREE_TEXTMAX]; /* the tree, or "" */
    char why[256];                /* "" or why the words give no tree */
    int64_t ids[LAD_INFER_MAXIDS]; /* cases that show why, else the first */
    size_t nids;
} lad_sumtree;

/* The tree that the cases of rung "sumtree" among rows show, their D words
** read as counts in format d. Returns LAD_OK (t->n 0 when there are none),
** LAD_NO with t->why when the words give no tree, LAD_EINTERNAL when out
** of memory. */
int lad_sumtree_infer(const lad_infer_case *rows, size_t nrows, const lad_format *d,
                      lad_sumtree *t, lad_err *err);

#endif
