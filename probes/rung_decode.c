/*
** The decode rung, climbed first when the recipe declares A or B only by
** name and width: every code of the format (all of them up to 8 bits; the
** top nine bits' patterns and single-bit words for wider ones) times an
** exact 1.0 of the partner, and the decode that explains every value
** (lad_decode_fit, model/format_fit.h). When both A and B are unknown, the squares of every
** code come first and the lowest code whose square is 1.0 stands for 1.0.
** Decides sign, exponent and fraction bits, bias, subnormals, Inf and NaN.
*/
#include "ladder.h"
#include "case.h"
#include "../model/format_fit.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Codes of a width-bit format to try, into w (at most 1024); returns n. */
static size_t codes(int width, lad_word_t *w)
{
    size_t n = 0;
    if (width <= 8) {
        for (lad_word_t c = 0; c < (1u << width); c++)
            w[n++] = c;
        return n;
    }
    for (lad_word_t c = 0; c < 512; c++)
        w[n++] = c << (width - 9);
    for (int i = 0; i < width - 9; i++)
        for (lad_word_t top = 0; top < 512; top += 37)
            w[n++] = (top << (width - 9)) | (1u << i);
    return n;
}

/* Runs `op` codes (0: A against oneb, 1: B against onea, 2: squares). */
static int enumerate(lad_probe *p, int op, lad_word_t one, lad_word_t *w, size_t *nw,
                     lad_word_t *d, int64_t *ids)
{
    int width = op == 1 ? p->dp.b.width : p->dp.a.width;
    *nw = codes(width, w);
    lad_batch b = {0};
    int rc = LAD_OK;
    lad_batch_series(&b, op == 0 ? "a-code" : op == 1 ? "b-code" : "square", op == 0 ? "a" : op == 1 ? "b" : "a b");
    for (size_t i = 0; i < *nw; i++) {
        lad_case cs;
        lad_case_base(&p->dp, &cs);
        lad_case_words(&p->dp, &cs, 0, op == 1 ? one : w[i], op == 0 ? one : w[i]);
        if ((rc = lad_batch_addv(&b, &cs, w[i], "%s code 0x%" PRIx64, op == 0 ? "a" : op == 1 ? "b" : "square",
                                w[i])))
            break;
    }
    if (rc == LAD_OK)
        rc = lad_probe_eval(p, &b, d, ids);
    lad_batch_free(&b);
    return rc;
}

int lad_rung_decode(lad_probe *p)
{
    lad_word_t *w = malloc(2048 * sizeof *w), *d = malloc(2048 * sizeof *d);
    int64_t *ids = malloc(2048 * sizeof *ids);
    char msg[160];
    int rc = LAD_OK;
    size_t nw;
    if (w == NULL || d == NULL || ids == NULL) {
        rc = lad_errf(p->err, LAD_EINTERNAL, "out of memory");
        goto out;
    }
    lad_word_t onea = 0, oneb = 0;
    if (p->facts.a_known)
        lad_word(&p->dp.a, 0, 1, 0, &onea);
    if (p->facts.b_known)
        lad_word(&p->dp.b, 0, 1, 0, &oneb);
    if (!p->facts.a_known && !p->facts.b_known) {
        if ((rc = enumerate(p, 2, 0, w, &nw, d, ids)))
            goto out;
        lad_word_t one = 0;
        int got = 0;
        lad_word(&p->dp.d, 0, 1, 0, &one);
        for (size_t i = 0; i < nw && !got; i++)
            if (d[i] == one) {
                onea = oneb = w[i];
                got = 1;
                rc = lad_probe_observe(p, "square one", &ids[i], 1, "0x%" PRIx64, w[i]);
            }
        if (!got) {
            rc = lad_errf(p->err, LAD_EDATA, "no code of '%s' squares to 1.0", p->dp.a.name);
            goto out;
        }
    }
    for (int op = 0; op < 2; op++) {
        if (op == 0 ? p->facts.a_known : p->facts.b_known)
            continue;
        lad_format *f = op == 0 ? &p->dp.a : &p->dp.b;
        if ((rc = enumerate(p, op, op == 0 ? oneb : onea, w, &nw, d, ids)))
            goto out;
        if (lad_decode_fit(f, f->width, w, d, nw, &p->dp.d, p->dp.nan, 0, 0, msg, sizeof msg)) {
            rc = lad_errf(p->err, LAD_EDATA, "format '%s': %s", f->name, msg);
            goto out;
        }
        if ((rc = lad_probe_observe(p, op == 0 ? "a" : "b", ids, nw, "%s", msg)))
            goto out;
        *(op == 0 ? &p->facts.a : &p->facts.b) = *f;
        *(op == 0 ? &p->facts.a_known : &p->facts.b_known) = 1;
        if (op == 0 && !p->facts.b_known && strcmp(p->dp.b.name, f->name) == 0) {
            p->dp.b = *f;
            p->facts.b = *f;
            p->facts.b_known = 1;
        }
        if (op == 0)
            lad_word(f, 0, 1, 0, &onea);
        snprintf(p->summary, sizeof p->summary, "%s: %s", f->name, msg);
    }
out:
    free(w);
    free(d);
    free(ids);
    return rc;
}
