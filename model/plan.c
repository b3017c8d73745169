/*
** The prepared plan of a datapath (lad_plan_*): which code path a datapath
** takes, worked out once (lad_plan_init), and the dispatch of a case, a
** batch of cases or rows of words to that path. The paths themselves are
** in files of their own, each giving the reference's (eval.c) words
** exactly and leaving to it whatever it does not handle:
**
**   plan_unscaled.c  the unscaled path in 64-bit integers (fast_body),
**                    built for any CPU and for AVX2
**   plan_scaled.c    the block-scaled path (lad_scaled_body), fp4 groups
**                    summed as integers
**   plan_lanes.c     the eight-lane (AVX2) variants of both
**   cases_kernel.c   eight or sixteen dense cases side by side
**
** plan_impl.h holds what those files share.
*/
#include "plan_impl.h"
#include "cases_kernel.h"

#include <stddef.h>
#include <string.h>

lad_opfmt lad_opfmt_of(const lad_format *f)
{
    lad_opfmt d;
    /* whether the top exponent holds specials (not in the fnuz formats) */
    int top = f->nan == LAD_NAN_IEEE || f->nan == LAD_NAN_ONES || f->inf != LAD_INF_NONE;
    d.pad = (uint32_t)f->pad;
    d.mb = (uint32_t)f->mbits;
    /* computed in 64 bits, so that a wide format (which no fast decoder
    ** takes: lad_opfmt_usable) gives defined values too */
    d.fmask = (uint32_t)(((uint64_t)1 << f->mbits) - 1);
    d.emax = (uint32_t)(((uint64_t)1 << f->ebits) - 1);
    d.smask = f->sign ? (uint32_t)((uint64_t)1 << (f->mbits + f->ebits)) : 0;
    d.etop = top ? d.emax : 0xffffffffu;  /* never equal: no special */
    d.need = f->nan == LAD_NAN_ONES && f->inf == LAD_INF_NONE ? d.fmask : 0;
    d.bias = f->bias;
    d.spec = f->nan == LAD_NAN_IEEE && f->inf == LAD_INF_IEEE   ? FS_IEEE
             : f->nan == LAD_NAN_ONES && f->inf == LAD_INF_NONE ? FS_ONES
             : f->nan == LAD_NAN_NONE && f->inf == LAD_INF_NONE ? FS_NONE
             : f->nan == LAD_NAN_NEGZERO && f->inf == LAD_INF_NONE ? FS_FNUZ
                                                                : FS_OTHER;
    return d;
}

/* The decoder shape of A x B: a common format (index + 1), else whether
** the products fit 32 bits (decode_lanes4) or not. */
static int shape_of(const lad_opfmt *A, const lad_opfmt *B)
{
    size_t key = offsetof(lad_opfmt, bias);  /* the fields before bias, and spec */
    for (size_t i = 0; i < sizeof SHAPES / sizeof SHAPES[0]; i++)
        if (!memcmp(A, &SHAPES[i], key) && !memcmp(B, &SHAPES[i], key) &&
            A->spec == SHAPES[i].spec && B->spec == SHAPES[i].spec)
            return (int)i + 1;
    return A->mb + B->mb + 2 <= 32 ? SHAPE_NARROW : SHAPE_WIDE;
}

void lad_plan_init(lad_plan *p, const lad_datapath *dp)
{
    memset(p, 0, sizeof *p);
    p->dp = dp;
    p->cases_w = LAD_BLOCK_W;
    p->a = lad_opfmt_of(&dp->a);
    p->b = lad_opfmt_of(&dp->b);
    p->off = lad_rows_off(dp);
    /* the first path that implements every row dp sets off its default
    ** (params.def's LAD_IMPL) and whose sums fit; else the reference */
    p->path = dp->integer ? LAD_PATH_INTEGER
              : lad_impl_gap(LAD_EV_UNSCALED, dp, p->off) < 0 && lad_fast_fits(dp, &p->a, &p->b)
                  ? LAD_PATH_FAST
              : lad_impl_gap(LAD_EV_SCALED, dp, p->off) < 0 && lad_scaled_fits(dp, &p->a, &p->b)
                  ? LAD_PATH_SCALED
                  : LAD_PATH_GENERAL;
    if (p->path == LAD_PATH_GENERAL || p->path == LAD_PATH_INTEGER)
        return;
    p->c = lad_opfmt_of(&dp->c);
    p->acc = lad_opfmt_of(&dp->acc);
    p->d = lad_opfmt_of(&dp->d);
    p->shape = shape_of(&p->a, &p->b);
    p->simple = p->a.spec != FS_OTHER && p->b.spec != FS_OTHER;
    p->inf_rest = p->simple && dp->chain == LAD_CHAIN && !dp->c_last && !dp->d_via_acc &&
                  dp->acc.inf == LAD_INF_IEEE && dp->acc.nan == LAD_NAN_IEEE;
    p->fast_c = lad_opfmt_usable(&dp->c, &p->c);
    p->fast_acc = lad_opfmt_usable(&dp->acc, &p->acc);
    p->acc_nan = lad_format_nan(&dp->acc);
    /* a product m * 2^(raw - off) in units of 2^(r - window) is
    ** (m << up) >> (r - raw + down): one of up, down is zero */
    int off = (int)(p->a.mb + p->b.mb);
    p->up = dp->window > off ? dp->window - off : 0;
    p->down = dp->window < off ? off - dp->window : 0;
    p->bias = p->a.bias + p->b.bias;
    /* a product (m << up) * 2^(raw - bias - off - up) is 2^prod_inf or
    ** more when m << up >= 2^(bigt - raw) */
    p->bigt = dp->prod_inf == LAD_NOFLOOR ? 0 : dp->prod_inf + p->bias + off + p->up;
    p->npass = (dp->k + dp->pass - 1) / dp->pass;
    if (p->path == LAD_PATH_SCALED && lad_fixed_ok(dp, p->off, &p->a, &p->b)) {
        p->fixed = 1;
        p->fixsum = lad_impl_gap(LAD_EV_FIXSUM, dp, p->off) < 0 &&
                    (dp->cdom_window == 0 || dp->scale_block % dp->cdom_group == 0) &&
                    (dp->group_sub_floor == LAD_NOFLOOR || lad_opfmt_usable(&dp->d, &p->d));
    }
    if (p->path == LAD_PATH_SCALED)
        lad_scaled_tables(p);
#if LAD_AVX2_CLONE
    p->avx2 = __builtin_cpu_supports("avx2") != 0;
#endif
    /* groups of four lanes or of whole chunks of eight: lad_fixed_groups8 */
    p->fixed8 = p->fixed && p->avx2 && (dp->group == 4 || dp->group % 8 == 0);
    /* a block-scaled kind whose only scaled step is the scales' product
    ** (LAD_IMPL's scaled8 column: groups of one, no C-dominant window, scale
    ** floor or dropped groups): the eight-lane code with an exponent offset */
    p->scaled8 = p->path == LAD_PATH_SCALED && p->avx2 && p->shape != SHAPE_WIDE &&
                 lad_lanes8_ok(LAD_EV_SCALED8, dp, p->off, &p->a, &p->b);
    /* products < 2^(off + 2) shifted up stay below 2^(window + 2) */
    if (p->path == LAD_PATH_FAST && p->shape != SHAPE_WIDE && dp->window + 2 <= 32)
        p->preup = p->up;
    p->lanes8 = p->path == LAD_PATH_FAST && p->shape != SHAPE_WIDE && p->preup == p->up &&
                lad_lanes8_ok(LAD_EV_LANES8, dp, p->off, &p->a, &p->b);
    p->direct = !dp->sparse && dp->in_round == LAD_RZ && !dp->norder;
    p->full8 = p->direct && dp->k % 8 == 0;
    p->whole8 = p->full8 && (dp->pass >= dp->k || dp->pass % 8 == 0);
    p->sum32 = lad_lanes8_sum32(dp);
    p->cases8 = p->path == LAD_PATH_FAST && lad_cases_ok(p);
    if (p->cases8)
        p->cases_w = lad_cases_width(p);
}

lad_word_t lad_plan_eval(const lad_plan *p, const lad_case *cs)
{
    switch (p->path) {
    case LAD_PATH_FAST:
#if LAD_AVX2_CLONE
        if (p->avx2 && p->lanes8) {
            lad_word_t w;
            lad_lanes8_batch(p, cs, 1, &w);
            return w;
        }
        if (p->avx2)
            return lad_eval_fast_avx2(p, cs);
#endif
        return lad_eval_fast(p, cs);
    case LAD_PATH_SCALED:
        return lad_eval_scaled(p, cs);
    case LAD_PATH_INTEGER:
        return lad_eval_integer(p->dp, cs);
    default:
        return lad_eval_general(p->dp, cs);
    }
}

/* lad_plan_eval_batch one case at a time (the AVX2 build's eight-lane
** code, itself a loop). */
static void batch_each(const lad_plan *p, const lad_case *cs, size_t n, lad_word_t *d)
{
#if LAD_AVX2_CLONE
    if (p->path == LAD_PATH_FAST && p->avx2 && p->lanes8) {
        lad_lanes8_batch(p, cs, n, d);
        return;
    }
#endif
    const size_t ahead = 8;
    int kb = p->dp->k * (int)sizeof(lad_word_t);
    for (size_t i = 0; i < n; i++) {
        if (i + ahead < n)
            fetch_case(&cs[i + ahead], kb);
        d[i] = lad_plan_eval(p, &cs[i]);
    }
}

void lad_plan_eval_batch(const lad_plan *p, const lad_case *cs, size_t n, lad_word_t *d)
{
    size_t i = 0;
    if (p->cases8 && p->avx2) {
        /* cases_w cases side by side; the ones that kernel leaves, alone */
        const size_t step = sizeof *cs / sizeof(lad_word_t), w = (size_t)p->cases_w;
        for (; i + w <= n; i += w) {
            unsigned left = lad_cases_eval(p, cs[i].a, cs[i].b, step, &cs[i].c, step, d + i);
            for (int l = 0; left >> l; l++)
                if (left >> l & 1)
                    d[i + l] = lad_plan_eval(p, &cs[i + l]);
        }
    }
    batch_each(p, cs + i, n - i, d + i);
}

/* lad_plan_eval_rows one case at a time. */
static void rows_each(const lad_plan *p, const lad_rows *r, size_t n, lad_word_t *d)
{
#if LAD_AVX2_CLONE
    if (p->path == LAD_PATH_FAST && p->avx2 && p->lanes8 && p->direct) {
        lanes8_in in = {r->a, r->b, r->c, (size_t)p->dp->k, 1, NULL, r};
        lad_lanes8_rows(p, &in, n, d);
        return;
    }
#endif
    lad_case cs;
    size_t k = (size_t)p->dp->k, nkb = (size_t)lad_datapath_nscales(p->dp);
    for (size_t i = 0; i < n; i++) {
        if (p->path != LAD_PATH_SCALED || !p->direct) {
            lad_rows_case(p->dp, r, i, &cs);
            d[i] = lad_plan_eval(p, &cs);
            continue;
        }
        /* the scaled path on the row itself; what it leaves, to the
        ** general code (as lad_eval_scaled does) */
        int general;
        if (r->a8)
            d[i] = lad_scaled_body(p, NULL, NULL, r->a8 + i * k, r->b8 + i * k, (int)k,
                               r->c ? r->c[i] : 0, r->sa + i * nkb, r->sb + i * nkb, &general);
        else
            d[i] = lad_scaled_body(p, r->a + i * k, r->b + i * k, NULL, NULL, (int)k,
                               r->c ? r->c[i] : 0, r->sa + i * nkb, r->sb + i * nkb, &general);
        if (general) {
            lad_rows_case(p->dp, r, i, &cs);
            d[i] = lad_eval_general(p->dp, &cs);
        }
    }
}

/* Rows r from case i on. */
static lad_rows rows_from(const lad_datapath *dp, const lad_rows *r, size_t i)
{
    size_t k = (size_t)dp->k, nkb = (size_t)lad_datapath_nscales(dp);
    lad_rows s = *r;
    if (r->a8) {
        s.a8 = r->a8 + i * k;
        s.b8 = r->b8 + i * k;
    } else {
        s.a = r->a + i * k;
        s.b = r->b + i * k;
    }
    if (r->c)
        s.c = r->c + i;
    if (nkb) {
        s.sa = r->sa + i * nkb;
        s.sb = r->sb + i * nkb;
    }
    return s;
}

/* lad_plan_eval_rows on rows of words, or of bytes on the scaled path. */
static void rows_eval(const lad_plan *p, const lad_rows *r, size_t n, lad_word_t *d)
{
    size_t i = 0, k = (size_t)p->dp->k, w = (size_t)p->cases_w;
    if (p->cases8 && p->avx2) {
        /* cases_w cases side by side; the ones that kernel leaves, alone */
        for (; i + w <= n; i += w) {
            unsigned left = lad_cases_eval(p, r->a + i * k, r->b + i * k, k,
                                           r->c ? r->c + i : NULL, 1, d + i);
            for (int l = 0; left >> l; l++)
                if (left >> l & 1) {
                    lad_rows one = rows_from(p->dp, r, i + l);
                    rows_each(p, &one, 1, d + i + l);
                }
        }
    }
    lad_rows rest = rows_from(p->dp, r, i);
    rows_each(p, &rest, n - i, d + i);
}

void lad_plan_eval_rows(const lad_plan *p, const lad_rows *r, size_t n, lad_word_t *d)
{
    if (!r->a8 || (p->path == LAD_PATH_SCALED && p->direct)) {
        rows_eval(p, r, n, d);
        return;
    }
    /* bytes where the path reads words: a block of the case kernel's
    ** widened at a time, in the caches */
    size_t k = (size_t)p->dp->k;
    lad_word_t wa[LAD_BLOCK_WMAX * LAD_KMAX], wb[LAD_BLOCK_WMAX * LAD_KMAX];
    size_t w = (size_t)p->cases_w;
    for (size_t i = 0; i < n; i += w) {
        size_t m = n - i < w ? n - i : w;
        lad_rows s = rows_from(p->dp, r, i);
        widen_bytes(wa, s.a8, (int)(m * k));
        widen_bytes(wb, s.b8, (int)(m * k));
        s.a = wa;
        s.b = wb;
        s.a8 = s.b8 = NULL;
        rows_eval(p, &s, m, d + i);
    }
}

/* One case, or n, through a plan made for the call: every datapath. */
lad_word_t lad_eval(const lad_datapath *dp, const lad_case *cs)
{
    lad_plan p;
    lad_plan_init(&p, dp);
    return lad_plan_eval(&p, cs);
}

void lad_eval_batch(const lad_datapath *dp, const lad_case *cs, size_t n,
                    lad_word_t *d)
{
    lad_plan p;
    lad_plan_init(&p, dp);
    lad_plan_eval_batch(&p, cs, n, d);
}