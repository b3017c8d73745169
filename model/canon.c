/*
** The canonical form of a datapath (params.h: lad_canon). Many parameter
** sets compute the same words: a row that cannot change any word for the
** datapath's shape (its `matters` column in params.def says so) may hold
** any value, and a bound that no value of the shape reaches (a product
** infinity above the largest product, say) is the same as no bound. The
** canonical form writes each such row as its default, so that two models
** of one behaviour that differ only there compare equal row by row.
**
** Every rule is a predicate of params.def, beside its row: the row's
** `matters` function (the row is not in effect at all) and, for a few
** rows, a LAD_CANON line naming a function that says the row's value is
** its default's equal for this shape. Nothing here names a row.
**
** Each rewrite keeps the words: a row not in effect, or a value its
** default's equal, by definition changes no word; test_canon checks that
** on every preset, and t0240 on the random draws, with the witness search
** of probes/diff.c and random cases. A rewrite that would leave a datapath
** lad_datapath_check refuses is not made.
*/
#include "params.h"

#include <stddef.h>
#include <string.h>

#include "format.h"

const char *const lad_verdict_names[3] = {"=", "\u2261", "differs"};
const char *const lad_verdict_words[3] = {"same", "equivalent", "differs"};

/* Whether row p of dp holds its default. */
static int is_default(const lad_param *p, const lad_datapath *dp)
{
    lad_datapath t = *dp;
    lad_param_reset(p, &t);
    return memcmp(&t, dp, sizeof t) == 0;
}

int lad_canon(lad_datapath *dp)
{
    int changed = 0;
    /* A reset can take another row out of effect (a single pass leaves
    ** the lane order nothing to order): repeat until nothing changes; each
    ** round resets at least one row to its default, so LAD_NPARAMS rounds
    ** are enough. */
    for (int round = 0; round < LAD_NPARAMS; round++) {
        int n = 0;
        for (int i = 0; i < lad_nparams; i++) {
            const lad_param *p = &lad_params[i];
            if (p->type == LAD_PT_STR || (p->flags & LAD_PF_REQUIRED) || is_default(p, dp))
                continue;
            if (lad_param_in_effect(p, dp))
                continue;
            lad_datapath t = *dp;
            lad_param_reset(p, &t);
            if (lad_datapath_check(&t, NULL) != LAD_OK)
                continue;
            *dp = t;
            n++;
        }
        changed += n;
        if (n == 0)
            break;
    }
    return changed;
}

/* Whether row p is the A, B or C format. */
static int is_input(const lad_param *p)
{
    return p->type == LAD_PT_FMT &&
           (p->off == offsetof(lad_datapath, a) || p->off == offsetof(lad_datapath, b) ||
            p->off == offsetof(lad_datapath, c));
}

int lad_inputs_alike(const lad_datapath *x, const lad_datapath *y)
{
    for (int i = 0; i < lad_nparams; i++)
        if (is_input(&lad_params[i]) && !lad_format_rows_alike(&lad_params[i], x, y))
            return 0;
    return 1;
}

int lad_format_rows_alike(const lad_param *p, const lad_datapath *x, const lad_datapath *y)
{
    const lad_format *fx = (const lad_format *)((const char *)x + p->off);
    const lad_format *fy = (const lad_format *)((const char *)y + p->off);
    if ((fx->width != 0) != (fy->width != 0))
        return 0;
    if (lad_format_same_decode(fx, fy))
        return 1;
    if (!is_input(p) || !x->ftz_in || !y->ftz_in || fx->kind != LAD_FLOAT ||
        fx->sub == LAD_SUB_NONE || fy->sub == LAD_SUB_NONE)
        return 0;
    lad_format t = *fy;
    t.sub = fx->sub;
    return lad_format_same_decode(fx, &t);
}

int lad_canon_equal(const lad_datapath *x, const lad_datapath *y)
{
    lad_datapath a = *x, b = *y;
    lad_canon(&a);
    lad_canon(&b);
    for (int i = 0; i < lad_nparams; i++) {
        const lad_param *p = &lad_params[i];
        if (p->type == LAD_PT_STR)
            continue;
        char va[400], vb[400];
        if (p->type == LAD_PT_FMT) {
            if (lad_format_rows_alike(p, &a, &b))
                continue;
            return 0;
        }
        if (strcmp(lad_param_text(p, &a, va, sizeof va), lad_param_text(p, &b, vb, sizeof vb)))
            return 0;
    }
    return 1;
}
