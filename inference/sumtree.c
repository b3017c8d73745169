/*
** The summation tree of a run's sumtree cases; see sumtree.h.
**
** The build is bottom-up over the subtree sizes, with a union-find over the
** leaves: at size v, the subtrees (current roots) that some pair of size v
** connects become the children of one new node, which must hold exactly v
** leaves. Afterwards every pair is checked against the tree built (the
** size of its lowest common node), so that words from no tree at all
** (M too small, a device that is not a sum) are told, never shaped into one.
*/
#include "sumtree.h"
#include "../probes/case.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct node {
    int size;      /* leaves below */
    int low;       /* lowest leaf below: the order children are printed in */
    int first, nchild; /* children: kids[first .. first+nchild-1] */
} node;

typedef struct tree {
    int n, nnodes;
    node *nodes;   /* 0..n-1 leaves, then internal nodes */
    int *kids;
    int nkids;
    int *up;       /* union-find over leaves */
    int *top;      /* node at the root of each union-find set (by root leaf) */
} tree;

static int find(int *up, int x)
{
    while (up[x] != x)
        x = up[x] = up[up[x]];
    return x;
}

static int by_low(const void *x, const void *y, void *ctx)
{
    const node *nodes = ctx;
    return nodes[*(const int *)x].low - nodes[*(const int *)y].low;
}

/* Writes node x into text at *at; returns 0, or -1 when it does not fit. */
static int print(const tree *t, int x, char *text, size_t size, size_t *at)
{
    const node *nd = &t->nodes[x];
    int w;
    if (nd->nchild == 0) {
        w = snprintf(text + *at, size - *at, "%d", x);
        if (w < 0 || (size_t)w >= size - *at)
            return -1;
        *at += (size_t)w;
        return 0;
    }
    for (int c = -1; c <= nd->nchild; c++) {
        if (c >= 0 && c < nd->nchild) {
            if (c > 0 && *at + 1 < size)
                text[(*at)++] = '+';
            if (print(t, t->kids[nd->first + c], text, size, at))
                return -1;
            continue;
        }
        if (*at + 1 >= size)
            return -1;
        text[(*at)++] = c < 0 ? '(' : ')';
    }
    text[*at] = 0;
    return 0;
}

/* Joins, at size v, the subtrees that pairs of size v connect. Returns 0 or
** -1 with why filled. */
static int join(tree *t, const int *s, int v, int *old, char *why, size_t whysize)
{
    int n = t->n;
    for (int x = 0; x < n; x++)
        old[x] = find(t->up, x);
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            if (s[i * n + j] == v) {
                int a = find(t->up, i), b = find(t->up, j);
                if (a != b)
                    t->up[a > b ? a : b] = a < b ? a : b;
            }
    for (int r = 0; r < n; r++) {
        if (find(t->up, r) != r)
            continue;
        /* the old roots now under r: the new node's children */
        int first = t->nkids, size = 0;
        for (int x = 0; x < n; x++)
            if (old[x] == x && find(t->up, x) == r) {
                t->kids[t->nkids++] = t->top[x];
                size += t->nodes[t->top[x]].size;
            }
        int nchild = t->nkids - first;
        if (nchild < 2) {
            t->nkids = first;
            continue;
        }
        if (size != v) {
            snprintf(why, whysize, "pairs of subtree size %d join %d leaves (lane %d among them)",
                     v, size, r);
            return -1;
        }
        qsort_r(t->kids + first, (size_t)nchild, sizeof *t->kids, by_low, t->nodes);
        node *nd = &t->nodes[t->nnodes];
        *nd = (node){v, t->nodes[t->kids[first]].low, first, nchild};
        t->top[r] = t->nnodes++;
    }
    return 0;
}

/* Checks every pair against the tree: the size of the lowest node holding
** both. Returns 0 or -1 with why filled. */
static int verify(const tree *t, const int *s, char *why, size_t whysize)
{
    int n = t->n;
    int *parent = malloc((size_t)t->nnodes * sizeof *parent);
    if (parent == NULL) {
        snprintf(why, whysize, "out of memory");
        return -1;
    }
    for (int x = 0; x < t->nnodes; x++)
        parent[x] = -1;
    for (int x = n; x < t->nnodes; x++)
        for (int c = 0; c < t->nodes[x].nchild; c++)
            parent[t->kids[t->nodes[x].first + c]] = x;
    int rc = 0;
    for (int i = 0; i < n && rc == 0; i++)
        for (int j = i + 1; j < n && rc == 0; j++) {
            /* nodes are numbered bottom-up, so climb the lower one */
            int a = i, b = j;
            while (a != b && a >= 0 && b >= 0) {
                if (a < b)
                    a = parent[a];
                else
                    b = parent[b];
            }
            int got = a >= 0 && a == b ? t->nodes[a].size : -1;
            if (got != s[i * n + j]) {
                snprintf(why, whysize, "lanes %d and %d: subtree of %d leaves, the tree built "
                         "from the other pairs has %d", i, j, s[i * n + j], got);
                rc = -1;
            }
        }
    free(parent);
    return rc;
}

int lad_sumtree_build(int n, const int *s, char *text, size_t size, char *why,
                      size_t whysize)
{
    why[0] = 0;
    text[0] = 0;
    if (n < 2 || n > LAD_KMAX) {
        snprintf(why, whysize, "%d lanes (expected 2..%d)", n, LAD_KMAX);
        return LAD_NO;
    }
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            if (s[i * n + j] < 2 || s[i * n + j] > n) {
                snprintf(why, whysize, "lanes %d and %d: subtree of %d leaves (expected 2..%d)",
                         i, j, s[i * n + j], n);
                return LAD_NO;
            }
    tree t = {n, n, NULL, NULL, 0, NULL, NULL};
    t.nodes = malloc(2 * (size_t)n * sizeof *t.nodes);
    t.kids = malloc(2 * (size_t)n * sizeof *t.kids);
    t.up = malloc((size_t)n * sizeof *t.up);
    t.top = malloc((size_t)n * sizeof *t.top);
    int *old = malloc((size_t)n * sizeof *old);
    int rc = LAD_NO;
    if (!t.nodes || !t.kids || !t.up || !t.top || !old) {
        snprintf(why, whysize, "out of memory");
        goto out;
    }
    for (int x = 0; x < n; x++) {
        t.nodes[x] = (node){1, x, 0, 0};
        t.up[x] = x;
        t.top[x] = x;
    }
    for (int v = 2; v <= n; v++)
        if (join(&t, s, v, old, why, whysize))
            goto out;
    if (verify(&t, s, why, whysize))
        goto out;
    size_t at = 0;
    if (print(&t, t.top[0], text, size, &at)) {
        snprintf(why, whysize, "the tree does not fit in %zu bytes", size);
        text[0] = 0;
        goto out;
    }
    rc = LAD_OK;
out:
    free(t.nodes);
    free(t.kids);
    free(t.up);
    free(t.top);
    free(old);
    return rc;
}

/* The count that word w of format d says, 0..n, or -1. */
static int count_of(const lad_format *d, lad_word_t w, int n)
{
    lad_word_t x;
    for (int r = 0; r <= n; r++)
        if (lad_word(d, 0, (uint64_t)r, 0, &x) == LAD_OK && x == w)
            return r;
    if (lad_word(d, 1, 0, 0, &x) == LAD_OK && x == w)
        return 0; /* -0: nothing survived */
    return -1;
}

static void blame(lad_sumtree *t, int64_t id)
{
    if (t->nids < LAD_INFER_MAXIDS)
        t->ids[t->nids++] = id;
}

int lad_sumtree_infer(const lad_infer_case *rows, size_t nrows, const lad_format *d,
                      lad_sumtree *t, lad_err *err)
{
    memset(t, 0, sizeof *t);
    size_t first = nrows;
    for (size_t i = 0; i < nrows; i++)
        if (strcmp(rows[i].rung, "sumtree") == 0) {
            if (first == nrows)
                first = i;
            t->ncases++;
            if (strcmp(rows[i].series, "ones") == 0 && rows[i].has_vary)
                t->n = (int)rows[i].vary;
        }
    if (t->ncases == 0)
        return LAD_OK;
    int n = t->n;
    if (n < 2 || n > LAD_KMAX) {
        snprintf(t->why, sizeof t->why, "no all-ones case gives the number of lanes");
        blame(t, rows[first].id);
        return LAD_NO;
    }
    int *s = malloc((size_t)n * (size_t)n * sizeof *s);
    if (s == NULL)
        return lad_errf(err, LAD_EINTERNAL, "out of memory");
    for (int x = 0; x < n * n; x++)
        s[x] = -1;
    int rc = LAD_OK;
    for (size_t i = first; i < nrows && rc == LAD_OK; i++) {
        const lad_infer_case *r = &rows[i];
        if (strcmp(r->rung, "sumtree") || !r->has_vary)
            continue;
        int got = count_of(d, r->d, n);
        if (strcmp(r->series, "ones") == 0) {
            if (got != n) {
                snprintf(t->why, sizeof t->why, "%d ones do not sum to %d exactly (D word 0x%x)",
                         n, n, (unsigned)r->d);
                blame(t, r->id);
                rc = LAD_NO;
            }
            continue;
        }
        int a = (int)(r->vary / 256), b = (int)(r->vary % 256);
        if (strcmp(r->series, "pair") || a < 0 || a >= b || b >= n)
            continue;
        if (got < 0 || got > n - 2) {
            snprintf(t->why, sizeof t->why, "pair %d,%d: D word 0x%x is no count of 0..%d "
                     "ones (is M too small to absorb them?)", a, b, (unsigned)r->d, n - 2);
            blame(t, r->id);
            rc = LAD_NO;
            continue;
        }
        s[a * n + b] = n - got;
    }
    for (int a = 0; a < n && rc == LAD_OK; a++)
        for (int b = a + 1; b < n && rc == LAD_OK; b++)
            if (s[a * n + b] < 0) {
                snprintf(t->why, sizeof t->why, "no case places the pair %d,%d", a, b);
                rc = LAD_NO;
            }
    if (rc == LAD_OK)
        rc = lad_sumtree_build(n, s, t->text, sizeof t->text, t->why, sizeof t->why);
    if (t->nids == 0)
        blame(t, rows[first].id);
    free(s);
    return rc;
}
