/*
** The decode rung, climbed first when the recipe declares A or B only by
** name and width: every code of the format (all of them up to 8 bits; the
** top nine bits' patterns and single-bit words for wider ones) times an
** exact 1.0 of the partner, and the decode that explains every value
** (lad_decode_fit). When both A and B are unknown, the squares of every
** code come first and the lowest code whose square is 1.0 stands for 1.0.
** Decides sign, exponent and fraction bits, bias, subnormals, Inf and NaN.
*/
#include "ladder.h"
#include "case.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Codes of a width-bit format to try, into w (at most 1024); returns n. */
static size_t codes(int width, uint32_t *w)
{
    size_t n = 0;
    if (width <= 8) {
        for (uint32_t c = 0; c < (1u << width); c++)
            w[n++] = c;
        return n;
    }
    for (uint32_t c = 0; c < 512; c++)
        w[n++] = c << (width - 9);
    for (int i = 0; i < width - 9; i++)
        for (uint32_t top = 0; top < 512; top += 37)
            w[n++] = (top << (width - 9)) | (1u << i);
    return n;
}

/* Candidate formats in preference order; returns 1 while more remain. */
static int value_eq(lad_value x, lad_value y)
{
    if (x.cls != y.cls)
        return 0;
    if (x.cls == LAD_NAN || x.cls == LAD_ZERO)
        return 1;
    if (x.neg != y.neg)
        return 0;
    if (x.cls == LAD_INFINITE)
        return 1;
    uint64_t a = x.mag, b = y.mag;
    int ea = x.exp, eb = y.exp;
    while (a && !(a & 1)) { a >>= 1; ea++; }
    while (b && !(b & 1)) { b >>= 1; eb++; }
    return a == b && ea == eb;
}

int lad_decode_fit(lad_format *f, int width, const uint32_t *words,
                   const uint32_t *dwords, size_t n, const lad_format *d,
                   uint32_t nan_word, int square, char *msg, size_t msgsize)
{
    (void)nan_word;
    lad_value *obs = malloc((n + 1) * sizeof *obs);
    if (obs == NULL)
        return LAD_EINTERNAL;
    for (size_t i = 0; i < n; i++) {
        obs[i] = lad_decode(d, dwords[i]);
        if (obs[i].cls == LAD_SUBNORMAL)
            obs[i].cls = LAD_NORMAL;
    }
    int found = 0;
    lad_format best;
    for (int sign = 1; sign >= 0 && !found; sign--)
        for (int eb = 1; eb <= width - sign && eb <= 8 && !found; eb++) {
            int mb = width - sign - eb;
            if (mb > 23)
                continue;
            int bmax = (1 << (eb < 9 ? eb : 9)) + 8;
            for (int bias = -8; bias <= bmax && !found; bias++)
                for (int sub = 0; sub < 3 && !found; sub++)
                    for (int inf = 1; inf >= 0 && !found; inf--)
                        for (int nan = 1; nan < 5 && !found; nan++) {
                            lad_format c = {{0}, LAD_FLOAT, width, 0, sign, eb, mb, bias,
                                            sub, inf, nan % 3};
                            snprintf(c.name, sizeof c.name, "%s", f->name);
                            if (lad_format_check(&c))
                                continue;
                            size_t i;
                            for (i = 0; i < n; i++) {
                                lad_value v = lad_decode(&c, words[i]);
                                if (v.cls == LAD_SUBNORMAL)
                                    v.cls = LAD_NORMAL;
                                if (square && (v.cls == LAD_NORMAL)) {
                                    v.mag *= v.mag;
                                    v.exp *= 2;
                                    v.neg = 0;
                                }
                                if (square && v.cls == LAD_INFINITE)
                                    v.neg = 0;
                                if (!value_eq(v, obs[i]))
                                    break;
                            }
                            if (i == n) {
                                found = 1;
                                best = c;
                            }
                        }
        }
    free(obs);
    if (!found) {
        snprintf(msg, msgsize, "no decode of %d bits explains the %zu codes", width, n);
        return LAD_NO;
    }
    *f = best;
    snprintf(msg, msgsize, "sign %d, ebits %d, mbits %d, bias %d, sub %s, inf %s, nan %s",
             best.sign, best.ebits, best.mbits, best.bias,
             best.sub == LAD_SUB_IEEE ? "ieee" : best.sub == LAD_SUB_FLUSH ? "flush" : "none",
             best.inf ? "ieee" : "none",
             best.nan == LAD_NAN_IEEE ? "ieee" : best.nan == LAD_NAN_ONES ? "ones" : "none");
    return LAD_OK;
}

/* Runs `op` codes (0: A against oneb, 1: B against onea, 2: squares). */
static int enumerate(lad_probe *p, int op, uint32_t one, uint32_t *w, size_t *nw,
                     uint32_t *d, int64_t *ids)
{
    int width = op == 1 ? p->dp.b.width : p->dp.a.width;
    *nw = codes(width, w);
    lad_batch b = {0};
    int rc = LAD_OK;
    for (size_t i = 0; i < *nw; i++) {
        lad_case cs;
        lad_case_base(&p->dp, &cs);
        lad_case_words(&p->dp, &cs, 0, op == 1 ? one : w[i], op == 0 ? one : w[i]);
        if ((rc = lad_batch_add(&b, &cs, "%s code 0x%x", op == 0 ? "a" : op == 1 ? "b" : "square",
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
    uint32_t *w = malloc(2048 * sizeof *w), *d = malloc(2048 * sizeof *d);
    int64_t *ids = malloc(2048 * sizeof *ids);
    char msg[160];
    int rc = LAD_OK;
    size_t nw;
    if (w == NULL || d == NULL || ids == NULL) {
        rc = lad_errf(p->err, LAD_EINTERNAL, "out of memory");
        goto out;
    }
    uint32_t onea = 0, oneb = 0;
    if (p->facts.a_known)
        lad_word(&p->dp.a, 0, 1, 0, &onea);
    if (p->facts.b_known)
        lad_word(&p->dp.b, 0, 1, 0, &oneb);
    if (!p->facts.a_known && !p->facts.b_known) {
        if ((rc = enumerate(p, 2, 0, w, &nw, d, ids)))
            goto out;
        uint32_t one = 0;
        int got = 0;
        lad_word(&p->dp.d, 0, 1, 0, &one);
        for (size_t i = 0; i < nw && !got; i++)
            if (d[i] == one) {
                onea = oneb = w[i];
                got = 1;
                rc = lad_probe_observe(p, "square one", &ids[i], 1, "0x%x", w[i]);
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
        if (lad_decode_fit(f, f->width, w, d, nw, &p->dp.d, p->dp.nan, 0, msg, sizeof msg)) {
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
