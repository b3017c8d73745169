/*
** lad_decode's body, static inline: the reference evaluator (eval.c)
** decodes every operand of every case with it, and the call cost about a
** fifth of an evaluation (make bench's f64 row). format.c's lad_decode is
** the same function for everyone else. Included by format.c and
** datapath_int.h only.
*/
#ifndef LADDER_MODEL_FORMAT_DECODE_H
#define LADDER_MODEL_FORMAT_DECODE_H

#include "format.h"

/* The low n bits set, for n = 0..64. */
static inline lad_word_t ones(int n)
{
    return n >= 64 ? ~(lad_word_t)0 : ((lad_word_t)1 << n) - 1;
}

static inline lad_value lad_decode_inline(const lad_format *f, lad_word_t word)
{
    lad_value v = {0, 0, 0, 0, 0};
    if (f->kind == LAD_INT) {
        lad_word_t x = word & ones(f->width);
        if (f->sign && (x >> (f->width - 1)) & 1) {
            v.neg = 1;
            /* two's complement magnitude; wraps to 2^63 for -2^63 */
            v.mag = (uint64_t)0 - (x | ~ones(f->width));
        } else {
            v.mag = x;
        }
        v.cls = v.mag ? LAD_NORMAL : LAD_ZERO;
        return v;
    }
    int fb = f->mbits, eb = f->ebits;
    lad_word_t x = word >> f->pad;
    lad_word_t fmask = ones(fb), emax = ones(eb);
    lad_word_t frac = x & fmask;
    lad_word_t ef = (x >> fb) & emax;
    v.neg = f->sign ? (int)((x >> (fb + eb)) & 1) : 0;
    if (ef == emax) {
        if ((f->nan == LAD_NAN_IEEE && frac != 0) ||
            (f->nan == LAD_NAN_ONES && frac == fmask)) {
            v.cls = LAD_NAN;
            return v;
        }
        if (f->inf == LAD_INF_IEEE && frac == 0) {
            v.cls = LAD_INFINITE;
            return v;
        }
    }
    if (ef == 0 && f->sub != LAD_SUB_NONE) {
        if (f->nan == LAD_NAN_NEGZERO && v.neg && frac == 0) {
            v.cls = LAD_NAN;
            return v;
        }
        v.raw = 1 - f->bias;
        v.exp = v.raw - fb;
        if (f->sub == LAD_SUB_FLUSH || frac == 0) {
            v.cls = LAD_ZERO;
        } else {
            v.cls = LAD_SUBNORMAL;
            v.mag = frac;
        }
        return v;
    }
    v.cls = LAD_NORMAL;
    v.raw = (int)ef - f->bias;
    v.exp = v.raw - fb;
    v.mag = ((uint64_t)1 << fb) | frac;
    return v;
}

#endif
