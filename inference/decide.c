/*
** Which cases decide a parameter (search.h: lad_search_decide): the cases
** some alternative value of the row gets wrong, the others held.
*/
#include "search.h"

#include <stdlib.h>

#define MAXV LAD_PARAM_MAXCANDS

int lad_search_decide(const lad_datapath *dp, const lad_datapath *base, const lad_param *p,
                      const lad_case *cs, const lad_word_t *d, size_t n, unsigned char *hit,
                      int *nearest)
{
    /* the row's candidates, base's own value and, for nan, the data's NaN
    ** words: what the search could have taken (build_cands), without its
    ** context */
    int64_t *vals = malloc(sizeof(int64_t) * MAXV);
    if (!vals)
        return -1;
    int nv = lad_param_cands(p, base, vals, MAXV);
    for (size_t c = 0; nv > 0 && c <= n; c++) {
        int64_t v;
        if (c == n)
            v = lad_param_get(p, base, base);
        else if (p == &lad_params[LAD_P_nan] && lad_decode(&base->d, d[c]).cls == LAD_NAN)
            v = (int64_t)d[c];
        else
            continue;
        int seen = 0;
        for (int j = 0; j < nv && !seen; j++)
            seen = vals[j] == v;
        if (!seen && nv < MAXV)
            vals[nv++] = v;
    }
    int nalt = 0;
    int64_t v0 = lad_param_get(p, dp, base);
    int range = nv > 16;
    *nearest = range;
    for (int j = 0; j < nv; j++) {
        int64_t v = vals[j];
        if (v == v0)
            continue;
        /* wide ranges: only the neighbours and "none" */
        if (range && v != LAD_NOFLOOR && v0 != LAD_NOFLOOR && (v < v0 - 2 || v > v0 + 2))
            continue;
        if (range && v0 == LAD_NOFLOOR && j > 12)
            continue;
        lad_datapath t = *dp;
        lad_param_set(p, &t, base, v);
        if (lad_datapath_check(&t, NULL) != LAD_OK)
            continue;
        nalt++;
        lad_plan pl;
        lad_plan_init(&pl, &t);
        for (size_t c = 0; c < n; c++)
            if (!hit[c] && lad_plan_eval(&pl, &cs[c]) != d[c])
                hit[c] = 1;
    }
    free(vals);
    return nalt;
}
