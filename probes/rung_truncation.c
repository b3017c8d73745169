/*
** Rung (d), input truncation: flip each fraction bit of A, B and C near 1.0
** (and -1.0) and see which flips move the result; for a format narrower
** than its container (tf32 in an f32 word) add words just below, at and
** above half of the dropped part, with even and odd kept bits, and the
** all-ones word that carries into the exponent: they tell truncation from
** round-to-nearest-even and round-to-nearest-away. Decides the bits of A
** and B kept and in_round (C's flips also show the result's precision).
*/
#include "ladder.h"
#include "case.h"

#include <stdio.h>
#include <stdlib.h>

/* Cases for operand `op` (0 a, 1 b, 2 c). */
static int operand(lad_probe *p, lad_batch *b, int op)
{
    const lad_datapath *dp = &p->dp;
    const lad_format *f = op == 0 ? &dp->a : op == 1 ? &dp->b : &dp->c;
    const char *nm = op == 0 ? "a" : op == 1 ? "b" : "c";
    lad_word_t onea, oneb, one;
    if (lad_word(&dp->a, 0, 1, 0, &onea) || lad_word(&dp->b, 0, 1, 0, &oneb) ||
        lad_word(f, 0, 1, 0, &one))
        return LAD_OK;
    int fbits = f->mbits + f->pad; /* fraction bits of the container */
    lad_word_t sign = f->sign ? (lad_word_t)1 << (f->width - 1) : 0;
    lad_word_t words[64 + 16];
    char what[64 + 16][24];
    int nw = 0;
    for (int neg = 0; neg < 2 && (neg == 0 || sign); neg++) {
        lad_word_t base = one | (neg ? sign : 0);
        for (int i = 0; i < fbits && i < 32; i++) {
            words[nw] = base ^ ((lad_word_t)1 << i);
            snprintf(what[nw++], sizeof what[0], "%sbit %d", neg ? "-" : "", i);
        }
        if (f->pad > 0 && op < 2) {
            lad_word_t h = (lad_word_t)1 << (f->pad - 1), u = (lad_word_t)1 << f->pad;
            lad_word_t v[] = {base + h, base + u + h, base + h + 1, base + h - 1,
                            base + u + h - 1, base | (u * (((lad_word_t)1 << f->mbits) - 1)) | (u - 1)};
            const char *n[] = {"tie even", "tie odd", "above half", "below half",
                               "odd below half", "all ones"};
            for (int i = 0; i < 6; i++) {
                words[nw] = v[i];
                snprintf(what[nw++], sizeof what[0], "%s%s", neg ? "-" : "", n[i]);
            }
        }
    }
    for (int i = 0; i < nw; i++) {
        lad_case cs;
        lad_case_base(dp, &cs);
        if (op == 0)
            lad_case_words(dp, &cs, 0, words[i], oneb);
        else if (op == 1)
            lad_case_words(dp, &cs, 0, onea, words[i]);
        else
            cs.c = words[i];
        lad_batch_series(b, op == 0 ? "a-bits" : op == 1 ? "b-bits" : "c-bits", op == 0 ? "a in_round" : op == 1 ? "b in_round" : "c d");
        int rc = lad_batch_addv(b, &cs, words[i], "%s %s", nm, what[i]);
        if (rc)
            return rc;
    }
    return LAD_OK;
}

int lad_rung_truncation(lad_probe *p)
{
    if (p->dp.integer) {
        snprintf(p->summary, sizeof p->summary, "integer operands: nothing to cut");
        return lad_probe_observe(p, "integer", NULL, 0, "yes");
    }
    long long which = p->rung ? lad_rung_param(p->rung, "operand") : 0;
    lad_batch b = {0};
    int rc = LAD_OK;
    for (int op = 0; op < 3; op++)
        if ((which == 0 || which == op + 1) && (rc = operand(p, &b, op)))
            goto out;
    lad_word_t *d = NULL;
    int64_t *ids = NULL;
    if ((rc = lad_probe_run(p, &b, &d, &ids)) == LAD_OK) {
        /* the lowest flipped bit of each operand that moved the result */
        const char *nm[3] = {"a", "b", "c"};
        for (int op = 0; op < 3 && rc == LAD_OK; op++) {
            int lowest = -1;
            size_t n = 0;
            int64_t *moved = malloc((b.n + 1) * sizeof *moved);
            if (moved == NULL) {
                rc = LAD_EINTERNAL;
                break;
            }
            lad_word_t one = 0;
            lad_word(&p->dp.d, 0, 1, 0, &one);
            for (size_t i = 0; i < b.n; i++) {
                int bit;
                char o[4];
                if (sscanf(b.label[i], "%3s bit %d", o, &bit) == 2 && o[0] == nm[op][0] &&
                    d[i] != one) {
                    moved[n++] = ids[i];
                    if (lowest < 0 || bit < lowest)
                        lowest = bit;
                }
            }
            if (n)
                rc = lad_probe_observe(p, nm[op], moved, n, "lowest bit that moves the result: %d",
                                       lowest);
            free(moved);
        }
        snprintf(p->summary, sizeof p->summary, "%zu flips of A, B and C near 1.0", b.n);
    }
    free(d);
    free(ids);
out:
    lad_batch_free(&b);
    return rc;
}
