/*
** The datapath model: evaluates one output element of a tensor-core
** instruction from raw words, with integer arithmetic only. datapath.h lists
** the parameters; docs/model.md gives the algorithm with its evidence.
**
** Shape of one evaluation:
**
**   select lanes (sparsity)  ->  cut and decode A, B, scales, C
**   for each pass of `pass` lanes:
**       specials (NaN, Inf, Inf*0, +Inf-Inf) decide the pass outright;
**       else: exact products, anchor, quantum, groups aligned into the
**       window, exact integer sum, one rounding into acc (or d)
**   the last pass result, rounded into d, is the answer.
**
** Every intermediate value is an integer count of a power of two. Window sums
** stay far below 2^127: at most LAD_KMAX terms of at most window+2 bits,
** window <= 60 (lad_datapath_check).
*/
#include "datapath.h"

#include <string.h>

typedef __int128 i128;

/* x * 2^n for a signed x (n >= 0): a left shift of a negative value is
** undefined in C, a multiplication is not. Callers keep the result in range. */
static i128 shl(i128 x, int n)
{
    return x * ((i128)1 << n);
}

/* A finite value m * 2^e with sign, or a special. raw: see lad_value. */
typedef struct term {
    int cls;        /* enum lad_class */
    int neg;
    lad_u128 mag;
    int exp;
    int raw;
} term;

void lad_datapath_init(lad_datapath *dp)
{
    memset(dp, 0, sizeof *dp);
    const lad_format *f32 = lad_format_find("f32");
    dp->a = dp->b = dp->c = dp->d = dp->acc = *f32;
    dp->sa = dp->sb = *lad_format_find("ue8m0");
    dp->k = 1;
    dp->in_round = LAD_RZ;
    dp->window = 24;
    dp->align_round = LAD_RZ;
    dp->zero_floor = LAD_NOFLOOR;
    dp->anchor_min = LAD_NOFLOOR;
    dp->c_anchor = 1;
    dp->pass = 1;
    dp->chain = LAD_CHAIN;
    dp->acc_round = LAD_RZ;
    dp->d_round = LAD_RZ;
    dp->overflow = LAD_OVF_INF;
    dp->nan = 0x7fffffff;
    dp->group = 1;
    dp->scale_floor = LAD_NOFLOOR;
    dp->cdom_group = 16;
    dp->group_sub_floor = LAD_NOFLOOR;
}

int lad_datapath_kphys(const lad_datapath *dp)
{
    return dp->sparse ? dp->k / 2 : dp->k;
}

int lad_datapath_nscales(const lad_datapath *dp)
{
    if (dp->scale_block <= 0)
        return 0;
    return (lad_datapath_kphys(dp) + dp->scale_block - 1) / dp->scale_block;
}

/* Logical lanes per metadata chunk. */
static int chunk_lanes(int sparse)
{
    return sparse == LAD_SPARSE_1OF2 ? 2 : sparse == LAD_SPARSE_2OF4 ? 4 : 8;
}

int lad_datapath_nmeta(const lad_datapath *dp)
{
    if (!dp->sparse)
        return 0;
    int chunks = dp->k / chunk_lanes(dp->sparse);
    return (chunks + 7) / 8;
}

/* Largest minus smallest raw exponent of a float format's finite values,
** plus its significand bits: the spread of products within a group. */
static int format_span(const lad_format *f)
{
    if (f->kind != LAD_FLOAT)
        return 64;
    return (1 << f->ebits) + f->mbits + 1;
}

int lad_datapath_check(const lad_datapath *dp, lad_err *err)
{
    const lad_format *fs[] = {&dp->a, &dp->b, &dp->c, &dp->d, &dp->acc, &dp->sa, &dp->sb};
    const char *fn[] = {"a", "b", "c", "d", "acc", "sa", "sb"};
    for (int i = 0; i < 7; i++) {
        const char *m = lad_format_check(fs[i]);
        if (m)
            return lad_errf(err, LAD_EDATA, "format '%s' (%s): %s", fs[i]->name, fn[i], m);
    }
    if (dp->k < 1 || dp->k > LAD_KMAX)
        return lad_errf(err, LAD_EDATA, "k must be 1..%d, not %d", LAD_KMAX, dp->k);
    if (dp->sparse < LAD_SPARSE_NONE || dp->sparse > LAD_SPARSE_PAIRS8)
        return lad_errf(err, LAD_EDATA, "unknown sparse pattern %d", dp->sparse);
    if (dp->sparse && dp->k % chunk_lanes(dp->sparse))
        return lad_errf(err, LAD_EDATA, "k %d is not a multiple of the sparsity chunk (%d lanes)",
                        dp->k, chunk_lanes(dp->sparse));
    if (dp->in_round < LAD_RZ || dp->in_round > LAD_RNA)
        return lad_errf(err, LAD_EDATA, "in_round must be rz, rne or rna");
    if (dp->integer) {
        if (dp->a.kind != LAD_INT || dp->b.kind != LAD_INT || dp->c.kind != LAD_INT ||
            dp->d.kind != LAD_INT)
            return lad_errf(err, LAD_EDATA, "an integer datapath needs integer formats a, b, c and d");
        if (dp->a.width > 16 || dp->b.width > 16)
            return lad_errf(err, LAD_EDATA, "integer a and b must be 16 bits or narrower");
        return LAD_OK;
    }
    if (dp->a.kind != LAD_FLOAT || dp->b.kind != LAD_FLOAT || dp->c.kind != LAD_FLOAT ||
        dp->d.kind != LAD_FLOAT || dp->acc.kind != LAD_FLOAT)
        return lad_errf(err, LAD_EDATA, "a float datapath needs float formats a, b, c, d and acc");
    if (dp->window < 1 || dp->window > 60)
        return lad_errf(err, LAD_EDATA, "window must be 1..60, not %d", dp->window);
    if (dp->align_round != LAD_RZ && dp->align_round != LAD_RD && dp->align_round != LAD_RNE)
        return lad_errf(err, LAD_EDATA, "align_round must be rz, rd or rne");
    if (dp->pass < 1 || dp->pass > lad_datapath_kphys(dp))
        return lad_errf(err, LAD_EDATA, "pass must be 1..%d, not %d", lad_datapath_kphys(dp), dp->pass);
    if (dp->chain != LAD_CHAIN && dp->chain != LAD_SUM)
        return lad_errf(err, LAD_EDATA, "chain must be chain or sum");
    if (dp->acc_round < LAD_RZ || dp->acc_round > LAD_RNA || dp->d_round < LAD_RZ ||
        dp->d_round > LAD_RNA)
        return lad_errf(err, LAD_EDATA, "unknown rounding mode");
    if (dp->overflow < LAD_OVF_INF || dp->overflow > LAD_OVF_IEEE)
        return lad_errf(err, LAD_EDATA, "overflow must be inf, sat or ieee");
    if (dp->group < 1 || dp->group > 64)
        return lad_errf(err, LAD_EDATA, "group must be 1..64, not %d", dp->group);
    if (dp->cdom_window < 0 || dp->cdom_window > 60)
        return lad_errf(err, LAD_EDATA, "cdom_window must be 0..60");
    if (dp->scale_block < 0)
        return lad_errf(err, LAD_EDATA, "scale_block must not be negative");
    if (dp->scale_block > 0) {
        if (lad_datapath_nscales(dp) > LAD_SCALEMAX)
            return lad_errf(err, LAD_EDATA, "more than %d scale blocks", LAD_SCALEMAX);
        if (dp->sa.kind != LAD_FLOAT || dp->sb.kind != LAD_FLOAT || dp->sa.sign || dp->sb.sign)
            return lad_errf(err, LAD_EDATA, "scale formats must be unsigned floats");
    }
    if (dp->group > 1 || dp->cdom_window > 0) {
        /* Group sums are exact only while a group shares its scales and its
        ** products' exponents span few bits; keep both true. */
        int g = dp->group > dp->cdom_group ? dp->group : dp->cdom_group;
        if (dp->scale_block > 0 && dp->scale_block % g)
            return lad_errf(err, LAD_EDATA, "groups (%d lanes) must not straddle scale blocks (%d)",
                            g, dp->scale_block);
        if (dp->norder)
            return lad_errf(err, LAD_EDATA, "a lane order cannot go with exact group sums");
        if (dp->pass % g && dp->pass != lad_datapath_kphys(dp))
            return lad_errf(err, LAD_EDATA, "groups (%d lanes) must not straddle passes (%d)",
                            g, dp->pass);
        if (format_span(&dp->a) + format_span(&dp->b) > 80)
            return lad_errf(err, LAD_EDATA, "exact group sums need formats of narrow range (a %s, b %s)",
                            dp->a.name, dp->b.name);
        if (dp->cdom_window > 0 && (dp->cdom_group < 1 || dp->cdom_group > 64))
            return lad_errf(err, LAD_EDATA, "cdom_group must be 1..64");
    }
    if (dp->norder) {
        if (dp->norder != lad_datapath_kphys(dp))
            return lad_errf(err, LAD_EDATA, "order has %d lanes, not %d", dp->norder,
                            lad_datapath_kphys(dp));
        unsigned char seen[LAD_KMAX] = {0};
        for (int i = 0; i < dp->norder; i++) {
            if (dp->order[i] >= dp->norder || seen[dp->order[i]]++)
                return lad_errf(err, LAD_EDATA, "order is not a permutation of 0..%d",
                                dp->norder - 1);
        }
    }
    if (dp->c_last != 0 && dp->c_last != 1)
        return lad_errf(err, LAD_EDATA, "c_last must be 0 or 1");
    if (dp->nan & ~(lad_format_mask(&dp->d) | ((1u << dp->d.pad) - 1)))
        return lad_errf(err, LAD_EDATA, "nan word 0x%x does not fit format %s", dp->nan, dp->d.name);
    return LAD_OK;
}

/* 2:4 and pairs-of-8 selectors: nibble -> the two positions, -1 when illegal. */
static const signed char sel_pos[16][2] = {
    {-1, -1}, {-1, -1}, {-1, -1}, {-1, -1}, {0, 1}, {-1, -1}, {1, 2}, {-1, -1},
    {0, 2}, {1, 2}, {-1, -1}, {-1, -1}, {0, 3}, {1, 3}, {2, 3}, {-1, -1},
};

static int nibble(const lad_case *cs, int i)
{
    return (int)((cs->meta[i / 8] >> (4 * (i % 8))) & 0xf);
}

int lad_sparse_check(const lad_datapath *dp, const lad_case *cs)
{
    if (!dp->sparse)
        return 0;
    int chunks = dp->k / chunk_lanes(dp->sparse);
    for (int i = 0; i < chunks; i++) {
        int n = nibble(cs, i);
        int ok = dp->sparse == LAD_SPARSE_1OF2 ? (n == 4 || n == 0xe) : sel_pos[n][0] >= 0;
        if (!ok)
            return i + 1;
    }
    return 0;
}

/* Fills lanes[] with the logical lanes that take part, ascending; returns
** how many (kphys, fewer when a selector is illegal: its chunk adds none). */
static int select_lanes(const lad_datapath *dp, const lad_case *cs, int *lanes)
{
    int n = 0;
    if (!dp->sparse) {
        for (int i = 0; i < dp->k; i++)
            lanes[n++] = i;
        return n;
    }
    int cl = chunk_lanes(dp->sparse), chunks = dp->k / cl;
    for (int i = 0; i < chunks; i++) {
        int s = nibble(cs, i);
        if (dp->sparse == LAD_SPARSE_1OF2) {
            if (s == 4)
                lanes[n++] = 2 * i;
            else if (s == 0xe)
                lanes[n++] = 2 * i + 1;
        } else if (sel_pos[s][0] >= 0) {
            int w = dp->sparse == LAD_SPARSE_PAIRS8 ? 2 : 1;
            for (int j = 0; j < 2; j++)
                for (int t = 0; t < w; t++)
                    lanes[n++] = i * cl + sel_pos[s][j] * w + t;
        }
    }
    return n;
}

/* Cuts a container word to its format with in_round (tf32 from an f32
** word). Rounding acts on the integer word: an increment at the cut, which
** carries into the exponent as IEEE rounding does. NaN and Inf stay. */
static uint32_t cut_word(const lad_format *f, int mode, uint32_t w)
{
    if (f->pad == 0 || mode == LAD_RZ || f->kind != LAD_FLOAT)
        return w;
    uint32_t emask = ((1u << f->ebits) - 1) << (f->mbits + f->pad);
    if ((w & emask) == emask)
        return w;
    uint32_t half = 1u << (f->pad - 1), low = w & ((half << 1) - 1);
    uint32_t up = mode == LAD_RNA ? low >= half
                                  : (low > half || (low == half && ((w >> f->pad) & 1)));
    return up ? w + (half << 1) : w;
}

static term to_term(lad_value v)
{
    term t = {v.cls, v.neg, v.mag, v.exp, v.raw};
    return t;
}

/* x * 2^(e - q) as a signed integer, rounded with align_round when e < q.
** Caller guarantees e - q < 100 (the value fits). */
static i128 align(lad_u128 mag, int neg, int e, int q, int mode)
{
    lad_u128 m;
    if (e >= q) {
        m = mag << (e - q);
    } else {
        int sh = q - e;
        if (sh >= 128) {
            m = 0;
            if (mode == LAD_RD && neg && mag)
                m = 1;
        } else {
            m = mag >> sh;
            lad_u128 rem = mag & ((((lad_u128)1) << sh) - 1);
            if (mode == LAD_RD && neg && rem)
                m++;
            else if (mode == LAD_RNE) {
                lad_u128 half = (lad_u128)1 << (sh - 1);
                if (rem > half || (rem == half && (m & 1)))
                    m++;
            }
        }
    }
    return neg ? -(i128)m : (i128)m;
}

/* Rounds the signed integer u * 2^q into format f; an exact zero is +0 and
** so is anything that rounds to zero (the tensor cores drop the sign). */
static uint32_t round_units(const lad_format *f, i128 u, int q, int sticky,
                            int mode, int ovf)
{
    int neg = u < 0;
    lad_u128 mag = neg ? (lad_u128)(-u) : (lad_u128)u;
    if (mag == 0 && !sticky)
        return 0;
    uint32_t w = lad_round_value(f, neg, mag, q, sticky, mode, ovf, NULL);
    lad_value v = lad_decode(f, w);
    return v.cls == LAD_ZERO ? 0 : w;
}

/*
** Adds two finite values exactly and rounds the sum into f: x + y where y
** may be far from x. When the exponents are too far apart for one integer,
** the smaller value only decides a sticky bit below the larger one's guard
** bits, which rounds exactly the same way.
*/
static uint32_t add_round(const lad_format *f, i128 xu, int xq, const term *y,
                          int mode, int ovf)
{
    i128 yu = y->cls == LAD_ZERO ? 0 : (y->neg ? -(i128)y->mag : (i128)y->mag);
    int yq = y->exp;
    if (yu == 0)
        return round_units(f, xu, xq, 0, mode, ovf);
    if (xu == 0)
        return round_units(f, yu, yq, 0, mode, ovf);
    /* make x the one with the larger leading bit */
    lad_u128 xm = xu < 0 ? (lad_u128)-xu : (lad_u128)xu;
    lad_u128 ym = yu < 0 ? (lad_u128)-yu : (lad_u128)yu;
    int xl = lad_bitlen128(xm) + xq, yl = lad_bitlen128(ym) + yq;
    if (yl > xl) {
        i128 tu = xu; xu = yu; yu = tu;
        int tq = xq; xq = yq; yq = tq;
        lad_u128 tm = xm; xm = ym; ym = tm;
        int tl = xl; xl = yl; yl = tl;
    }
    int lo = xq < yq ? xq : yq;
    int xbits = lad_bitlen128(xm);
    if (xl - lo <= 120) {
        i128 s = shl(xu, xq - lo) + shl(yu, yq - lo);
        return round_units(f, s, lo, 0, mode, ovf);
    }
    /* y lies entirely below x's lowest bit minus a few guard bits: shift x
    ** up by g guard bits, then y is a sticky amount of sign sign(y). */
    int g = 120 - xbits;
    if (g > xq - yl)
        g = xq - yl;  /* keep y below the new lowest bit */
    if (g < 3)
        g = 3;
    i128 s = shl(xu, g);
    int sticky = 1;
    if ((yu < 0) != (xu < 0))
        s += xu < 0 ? 1 : -1;   /* x - tiny = (x - 1 unit) + (1 unit - tiny) */
    (void)ym;
    return round_units(f, s, xq - g, sticky, mode, ovf);
}

/* Decoded operands of one evaluation, physical lane order. */
typedef struct operands {
    int n;                       /* physical lanes */
    term p[LAD_KMAX];            /* products (scales folded in) */
    int sraw[LAD_KMAX];          /* scale-pair raw exponent per lane */
    int snan[LAD_KMAX];          /* a scale of this lane's block is NaN */
} operands;

static void products(const lad_datapath *dp, const lad_case *cs, operands *op)
{
    int lanes[LAD_KMAX];
    int n = select_lanes(dp, cs, lanes);
    op->n = n;
    for (int j = 0; j < n; j++) {
        int l = lanes[j];
        lad_value a = lad_decode(&dp->a, cut_word(&dp->a, dp->in_round, cs->a[l]));
        lad_value b = lad_decode(&dp->b, cut_word(&dp->b, dp->in_round, cs->b[l]));
        term *t = &op->p[j];
        t->neg = a.neg ^ b.neg;
        op->sraw[j] = 0;
        op->snan[j] = 0;
        if (a.cls == LAD_NAN || b.cls == LAD_NAN) {
            t->cls = LAD_NAN;
        } else if (a.cls == LAD_INFINITE || b.cls == LAD_INFINITE) {
            t->cls = (a.cls == LAD_ZERO || b.cls == LAD_ZERO) ? LAD_NAN : LAD_INFINITE;
        } else {
            t->mag = (lad_u128)a.mag * b.mag;
            t->exp = a.exp + b.exp;
            t->raw = a.raw + b.raw;
            t->cls = t->mag ? LAD_NORMAL : LAD_ZERO;
        }
        if (dp->scale_block > 0) {
            int blk = j / dp->scale_block;
            lad_value sa = lad_decode(&dp->sa, cs->sa[blk]);
            lad_value sb = lad_decode(&dp->sb, cs->sb[blk]);
            if (sa.cls == LAD_NAN || sb.cls == LAD_NAN) {
                op->snan[j] = 1;
                continue;
            }
            op->sraw[j] = sa.raw + sb.raw;
            if (t->cls == LAD_NORMAL) {
                t->mag *= (lad_u128)sa.mag * sb.mag;
                t->exp += sa.exp + sb.exp;
                t->raw += sa.raw + sb.raw;
                if (t->mag == 0)
                    t->cls = LAD_ZERO;
            }
        }
    }
}

/* Exact sum of the nonzero products in lanes [from, to) as units of 2^*e
** (*e is the smallest exponent among them); 0 when all are zero. The span
** is bounded by lad_datapath_check. */
static i128 group_sum(const operands *op, int from, int to, int *e)
{
    int lo = 1 << 30;
    for (int j = from; j < to; j++)
        if (op->p[j].cls == LAD_NORMAL && op->p[j].exp < lo)
            lo = op->p[j].exp;
    i128 s = 0;
    for (int j = from; j < to; j++) {
        const term *t = &op->p[j];
        if (t->cls == LAD_NORMAL) {
            i128 v = (i128)(t->mag << (t->exp - lo));
            s += t->neg ? -v : v;
        }
    }
    *e = lo;
    return s;
}

/* A group sum s * 2^e cut to units of 2^q with `mode`. */
static i128 align_signed(i128 s, int e, int q, int mode)
{
    if (s == 0)
        return 0;
    int neg = s < 0;
    return align(neg ? (lad_u128)-s : (lad_u128)s, neg, e, q, mode);
}

/*
** One pass over physical lanes [from, to) with addend c: returns the pass
** result as a word of format `out` rounded with `mode`; NaN results are the
** word `nan`.
*/
static uint32_t pass_eval(const lad_datapath *dp, const operands *op, int from,
                          int to, const term *c, const lad_format *out,
                          int mode, uint32_t nan)
{
    /* Specials first: NaN anywhere, then infinities. */
    int pinf = 0, ninf = 0;
    for (int j = from; j < to; j++) {
        if (op->snan[j] || op->p[j].cls == LAD_NAN)
            return nan;
        if (op->p[j].cls == LAD_INFINITE)
            *(op->p[j].neg ? &ninf : &pinf) = 1;
    }
    if (c->cls == LAD_NAN)
        return nan;
    if (c->cls == LAD_INFINITE)
        *(c->neg ? &ninf : &pinf) = 1;
    if (pinf && ninf)
        return nan;
    if (pinf || ninf)
        return lad_format_inf(out, ninf);

    /* The anchor: the largest raw exponent of the terms that take part. */
    int rp = LAD_NOFLOOR, smax = LAD_NOFLOOR, any = 0;
    for (int j = from; j < to; j++) {
        const term *t = &op->p[j];
        if (t->cls == LAD_NORMAL) {
            any = 1;
            if (t->raw > rp)
                rp = t->raw;
            if (op->sraw[j] > smax)
                smax = op->sraw[j];
        } else if (dp->zero_floor != LAD_NOFLOOR && dp->zero_floor > rp) {
            rp = dp->zero_floor;
        }
    }
    int cnz = c->cls != LAD_ZERO;
    if (!any)  /* no product: the addend alone, rounded (exact zero: +0) */
        return add_round(out, 0, 0, c, mode, dp->overflow);

    int r = rp;
    if (dp->c_anchor && cnz && c->raw > r)
        r = c->raw;
    if (r < dp->anchor_min)
        r = dp->anchor_min;

    i128 sum = 0;
    int q;
    if (dp->cdom_window > 0 && cnz && c->raw >= rp) {
        /* C-dominant merge: C sets a coarser quantum; groups summed exactly. */
        q = c->raw - dp->cdom_window;
        for (int g = from; g < to; g += dp->cdom_group) {
            int e, end = g + dp->cdom_group < to ? g + dp->cdom_group : to;
            i128 s = group_sum(op, g, end, &e);
            sum += align_signed(s, e, q, dp->align_round);
        }
        sum += align(c->mag, c->neg, c->exp, q, dp->align_round);
        return round_units(out, sum, q, 0, mode, dp->overflow);
    }

    q = r - dp->window;
    if (dp->scale_floor != LAD_NOFLOOR && smax - dp->scale_floor > q)
        q = smax - dp->scale_floor;
    i128 cu = 0;
    if (dp->c_anchor && cnz)
        cu = align(c->mag, c->neg, c->exp, q, dp->align_round);

    /* Groups: exact sums, each cut into the window. */
    i128 gu[LAD_KMAX];
    int gsraw[LAD_KMAX], gnz[LAD_KMAX], ng = 0;
    for (int g = from; g < to; g += dp->group, ng++) {
        int end = g + dp->group < to ? g + dp->group : to;
        int e, rg = LAD_NOFLOOR;
        gsraw[ng] = LAD_NOFLOOR;
        gnz[ng] = 0;
        for (int j = g; j < end; j++)
            if (op->p[j].cls == LAD_NORMAL) {
                gnz[ng] = 1;
                if (op->p[j].raw > rg)
                    rg = op->p[j].raw;
                if (op->sraw[j] > gsraw[ng])
                    gsraw[ng] = op->sraw[j];
            }
        if (dp->group == 1) {
            const term *t = &op->p[g];
            gu[ng] = t->cls == LAD_NORMAL ? align(t->mag, t->neg, t->exp, q, dp->align_round) : 0;
        } else {
            i128 s = group_sum(op, g, end, &e);
            int qg = q;
            if (dp->cdom_per_group && cnz && gnz[ng] && c->raw >= rg &&
                c->raw - dp->cdom_window > q)
                qg = c->raw - dp->cdom_window;
            gu[ng] = shl(align_signed(s, e, qg, dp->align_round), qg - q);
        }
        sum += gu[ng];
    }
    sum += cu;

    uint32_t w;
    if (dp->c_anchor || !cnz)
        w = round_units(out, sum, q, 0, mode, dp->overflow);
    else
        w = add_round(out, sum, q, c, mode, dp->overflow);

    /* Lower-scale groups that only reach a subnormal result are dropped. */
    if (dp->group_sub_floor != LAD_NOFLOOR) {
        lad_value v = lad_decode(out, w);
        if (v.cls == LAD_SUBNORMAL) {
            lad_u128 thr = q < dp->group_sub_floor
                               ? (lad_u128)1 << (dp->group_sub_floor - q) : 1;
            i128 s2 = cu;
            for (int g = 0; g < ng; g++) {
                lad_u128 mag = gu[g] < 0 ? (lad_u128)-gu[g] : (lad_u128)gu[g];
                if (gnz[g] && gsraw[g] < smax && mag < thr)
                    continue;
                s2 += gu[g];
            }
            w = round_units(out, s2, q, 0, mode, dp->overflow);
        }
    }
    return w;
}

static term decode_term(const lad_format *f, uint32_t w)
{
    return to_term(lad_decode(f, w));
}

/* x + y rounded into f, specials included (one IEEE addition). */
static uint32_t add_terms(const lad_datapath *dp, const lad_format *f,
                          const term *x, const term *y, int mode, uint32_t nan)
{
    if (x->cls == LAD_NAN || y->cls == LAD_NAN)
        return nan;
    if (x->cls == LAD_INFINITE || y->cls == LAD_INFINITE) {
        if (x->cls == LAD_INFINITE && y->cls == LAD_INFINITE && x->neg != y->neg)
            return nan;
        return lad_format_inf(f, x->cls == LAD_INFINITE ? x->neg : y->neg);
    }
    i128 xu = x->cls == LAD_ZERO ? 0 : (x->neg ? -(i128)x->mag : (i128)x->mag);
    return add_round(f, xu, x->exp, y, mode, dp->overflow);
}

static uint32_t eval_integer(const lad_datapath *dp, const lad_case *cs)
{
    int lanes[LAD_KMAX];
    int n = select_lanes(dp, cs, lanes);
    lad_value c = lad_decode(&dp->c, cs->c);
    i128 t = c.neg ? -(i128)c.mag : (i128)c.mag;
    for (int j = 0; j < n; j++) {
        lad_value a = lad_decode(&dp->a, cs->a[lanes[j]]);
        lad_value b = lad_decode(&dp->b, cs->b[lanes[j]]);
        i128 p = (i128)(a.mag * b.mag);
        t += (a.neg ^ b.neg) ? -p : p;
    }
    int neg = t < 0;
    return lad_round_value(&dp->d, neg, neg ? (lad_u128)-t : (lad_u128)t, 0, 0,
                           LAD_RZ, dp->saturate ? LAD_OVF_SAT : LAD_OVF_INF, NULL);
}

/* ---- the fast path ---------------------------------------------------------
**
** Most evaluations are unscaled, finite, and their window sums fit in 64 bits
** (window + 2 + log2 K <= 62). For those, decoding needs no branches (IEEE
** subnormals: field 0 has no hidden bit and the raw exponent 1 - bias), a
** product's exponent is its raw exponent minus the two fraction widths, and
** the alignment is one 64-bit shift. Results of formats with IEEE subnormals
** and infinities round toward zero without the general rounding code. A case
** with a NaN or Inf anywhere goes to the general code, which decides it; the rational reference test
** and `ladder check` prove the two agree word for word.
*/

/* One operand format, decoded branch-free (IEEE subnormals). */
typedef struct fdec {
    int pad, mb, eb, bias;
    uint32_t fmask, emax, smask; /* fraction and exponent masks; sign bit */
    uint32_t topneed;            /* fraction bits a top-exponent code needs
                                    set to be special: none (IEEE: every
                                    one is Inf or NaN), or all (NaN only
                                    at all-ones, as in e4m3) */
    int topspecial;              /* the top exponent holds any special */
} fdec;

static void fdec_init(fdec *d, const lad_format *f)
{
    d->pad = f->pad;
    d->mb = f->mbits;
    d->eb = f->ebits;
    d->bias = f->bias;
    d->fmask = (1u << f->mbits) - 1;
    d->emax = (1u << f->ebits) - 1;
    d->smask = f->sign ? 1u << (f->mbits + f->ebits) : 0;
    d->topspecial = f->nan != LAD_NAN_NONE || f->inf != LAD_INF_NONE;
    d->topneed = f->nan == LAD_NAN_ONES && f->inf == LAD_INF_NONE ? d->fmask : 0;
}

/* Whether the fast path computes dp exactly as the general code. */
static int fast_ok(const lad_datapath *dp)
{
    int kbits = 0;
    while ((1 << kbits) < lad_datapath_kphys(dp))
        kbits++;
    return !dp->integer && dp->scale_block == 0 && dp->group == 1 && dp->cdom_window == 0 &&
           dp->group_sub_floor == LAD_NOFLOOR && dp->scale_floor == LAD_NOFLOOR &&
           dp->chain == LAD_CHAIN && !dp->norder && !dp->c_last && dp->c_anchor &&
           dp->a.kind == LAD_FLOAT && dp->b.kind == LAD_FLOAT &&
           dp->a.sub == LAD_SUB_IEEE && dp->b.sub == LAD_SUB_IEEE &&
           dp->align_round == LAD_RZ && dp->window + 2 + kbits <= 62;
}

/* s * 2^q rounded into f; toward zero inline for formats with IEEE
** subnormals and infinities (f32, e8m13), anything else by the general code.
** Like round_units, a result of zero is +0. */
static uint32_t round64(const lad_format *f, int64_t s, int q, int mode, int ovf)
{
    if (s == 0)
        return 0;
    if (mode != LAD_RZ || f->sub != LAD_SUB_IEEE || f->inf != LAD_INF_IEEE ||
        ovf != LAD_OVF_INF)
        return round_units(f, s, q, 0, mode, ovf);
    uint32_t sign = s < 0 ? 1u << (f->ebits + f->mbits) : 0;
    uint64_t m = s < 0 ? 0 - (uint64_t)s : (uint64_t)s;
    int bl = 64 - __builtin_clzll(m);
    int e = bl - 1 + q, emin = 1 - f->bias;
    int emax = (int)((1u << f->ebits) - 2) - f->bias;
    if (e > emax)
        return (sign | (((1u << f->ebits) - 1) << f->mbits)) << f->pad;
    if (e >= emin) {
        int sh = bl - 1 - f->mbits;
        uint64_t mant = sh >= 0 ? m >> sh : m << -sh;
        return (sign | ((uint32_t)(e + f->bias) << f->mbits) |
                ((uint32_t)mant & ((1u << f->mbits) - 1))) << f->pad;
    }
    int sh = emin - f->mbits - q;  /* units of the subnormal grid */
    uint64_t u = sh >= 64 ? 0 : sh >= 0 ? m >> sh : m << -sh;
    return u ? (sign | (uint32_t)u) << f->pad : 0;
}

static uint32_t eval_general(const lad_datapath *dp, const lad_case *cs);

static uint32_t eval_fast(const lad_datapath *dp, const lad_case *cs)
{
    fdec da, db;
    fdec_init(&da, &dp->a);
    fdec_init(&db, &dp->b);
    uint64_t mag[LAD_KMAX];
    int raw[LAD_KMAX];
    int lanes[LAD_KMAX], n = dp->k;
    const int *ln = NULL;
    if (dp->sparse) {
        n = select_lanes(dp, cs, lanes);
        ln = lanes;
    }
    int cut = dp->in_round != LAD_RZ;
    uint32_t special = 0;
    for (int j = 0; j < n; j++) {
        int l = ln ? ln[j] : j;
        uint32_t wa = cs->a[l], wb = cs->b[l];
        if (cut) {
            wa = cut_word(&dp->a, dp->in_round, wa);
            wb = cut_word(&dp->b, dp->in_round, wb);
        }
        uint32_t xa = wa >> da.pad, xb = wb >> db.pad;
        uint32_t fa = xa & da.fmask, fb = xb & db.fmask;
        uint32_t ea = (xa >> da.mb) & da.emax, eb = (xb >> db.mb) & db.emax;
        special |= (uint32_t)(ea == da.emax && da.topspecial && (fa & da.topneed) == da.topneed) |
                   (uint32_t)(eb == db.emax && db.topspecial && (fb & db.topneed) == db.topneed);
        uint64_t ma = fa | ((uint64_t)(ea != 0) << da.mb);
        uint64_t mb = fb | ((uint64_t)(eb != 0) << db.mb);
        int neg = ((xa & da.smask) != 0) ^ ((xb & db.smask) != 0);
        uint64_t m = ma * mb;
        mag[j] = neg ? 0 - m : m;  /* two's complement; 0 stays 0 */
        raw[j] = (int)ea - da.bias + (ea == 0) + (int)eb - db.bias + (eb == 0);
    }
    if (special)
        return eval_general(dp, cs);
    term acc = decode_term(&dp->c, cs->c);
    if (acc.cls >= LAD_INFINITE)
        return eval_general(dp, cs);
    int off = da.mb + db.mb;  /* product exponent = raw - off */
    uint32_t acc_nan = lad_format_nan(&dp->acc);
    int npass = n > 0 ? (n + dp->pass - 1) / dp->pass : 1;
    for (int p = 0; p < npass; p++) {
        int from = p * dp->pass, to = from + dp->pass < n ? from + dp->pass : n;
        int last = p == npass - 1 && !dp->d_via_acc;
        const lad_format *out = last ? &dp->d : &dp->acc;
        int mode = last ? dp->d_round : dp->acc_round;
        int r = INT32_MIN, zeros = 0;
        for (int j = from; j < to; j++) {
            int rj = mag[j] ? raw[j] : INT32_MIN;
            r = rj > r ? rj : r;
            zeros |= mag[j] == 0;
        }
        uint32_t w;
        if (r == INT32_MIN) {
            /* no product: the addend alone (exact zero: +0) */
            w = add_round(out, 0, 0, &acc, mode, dp->overflow);
        } else {
            if (zeros && dp->zero_floor != LAD_NOFLOOR && dp->zero_floor > r)
                r = dp->zero_floor;
            if (acc.cls != LAD_ZERO && acc.raw > r)
                r = acc.raw;
            if (r < dp->anchor_min)
                r = dp->anchor_min;
            int q = r - dp->window;
            int64_t sum = 0;
            for (int j = from; j < to; j++) {
                int64_t v = (int64_t)mag[j];
                if (v == 0)
                    continue;  /* a zero product's raw exponent means nothing */
                uint64_t a = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
                int sh = raw[j] - off - q;
                a = sh >= 0 ? a << sh : -sh < 64 ? a >> -sh : 0;
                sum += v < 0 ? -(int64_t)a : (int64_t)a;
            }
            if (acc.cls != LAD_ZERO) {
                int sh = acc.exp - q;
                uint64_t a = sh >= 0 ? (uint64_t)acc.mag << sh
                                     : -sh < 64 ? (uint64_t)acc.mag >> -sh : 0;
                sum += acc.neg ? -(int64_t)a : (int64_t)a;
            }
            w = round64(out, sum, q, mode, dp->overflow);
        }
        if (p == npass - 1 && !dp->d_via_acc)
            return w;
        /* a pass result that overflowed to Inf is decided by the general code */
        acc = decode_term(&dp->acc, w);
        if (acc.cls >= LAD_INFINITE || w == acc_nan)
            return eval_general(dp, cs);
    }
    term zero = {LAD_ZERO, 0, 0, 0, 0};
    return add_terms(dp, &dp->d, &acc, &zero, dp->d_round, dp->nan);
}

uint32_t lad_eval(const lad_datapath *dp, const lad_case *cs)
{
    if (dp->integer)
        return eval_integer(dp, cs);
    if (fast_ok(dp))
        return eval_fast(dp, cs);
    return eval_general(dp, cs);
}

/* Every datapath, every case: lad_eval's reference implementation. */
static uint32_t eval_general(const lad_datapath *dp, const lad_case *cs)
{
    operands op;
    products(dp, cs, &op);
    if (dp->norder && op.n == dp->norder) {
        /* lanes fill the passes in the datapath's order (scale blocks
        ** were assigned by physical lane already) */
        operands tmp;
        tmp.n = op.n;
        for (int i = 0; i < op.n; i++) {
            tmp.p[i] = op.p[dp->order[i]];
            tmp.sraw[i] = op.sraw[dp->order[i]];
            tmp.snan[i] = op.snan[dp->order[i]];
        }
        op = tmp;
    }
    term c = decode_term(&dp->c, cs->c);
    term zero = {LAD_ZERO, 0, 0, 0, 0};
    uint32_t acc_nan = lad_format_nan(&dp->acc);
    int npass = op.n > 0 ? (op.n + dp->pass - 1) / dp->pass : 1;

    /* The running value, in acc format between passes. */
    term acc = dp->chain == LAD_CHAIN && !dp->c_last ? c : zero;
    for (int p = 0; p < npass; p++) {
        int from = p * dp->pass, to = from + dp->pass < op.n ? from + dp->pass : op.n;
        int last = p == npass - 1;
        if (dp->chain == LAD_CHAIN) {
            if (last && !dp->d_via_acc && !dp->c_last)
                return pass_eval(dp, &op, from, to, &acc, &dp->d, dp->d_round, dp->nan);
            acc = decode_term(&dp->acc, pass_eval(dp, &op, from, to, &acc, &dp->acc,
                                                  dp->acc_round, acc_nan));
        } else {
            term r = decode_term(&dp->acc, pass_eval(dp, &op, from, to, &zero, &dp->acc,
                                                     dp->acc_round, acc_nan));
            if (p == 0 && !dp->c_last)
                acc = decode_term(&dp->acc, add_terms(dp, &dp->acc, &c, &r, dp->acc_round, acc_nan));
            else if (p == 0)
                acc = r;
            else
                acc = decode_term(&dp->acc, add_terms(dp, &dp->acc, &acc, &r, dp->acc_round, acc_nan));
        }
    }
    /* acc holds the result in acc format: one more rounding into d, which
    ** adds C when it comes last. */
    return add_terms(dp, &dp->d, &acc, dp->c_last ? &c : &zero, dp->d_round, dp->nan);
}

void lad_eval_batch(const lad_datapath *dp, const lad_case *cs, size_t n,
                    uint32_t *d)
{
    /* A case is 1.1 KB of which a K=16 evaluation reads a few lines far
    ** apart; fetching the next cases' lines ahead keeps a batch larger than
    ** the caches from stalling on memory. */
    const size_t ahead = 4;
    int kb = dp->k * (int)sizeof(uint32_t);
    for (size_t i = 0; i < n; i++) {
        if (i + ahead < n) {
            const lad_case *nx = &cs[i + ahead];
            for (int off = 0; off < kb; off += 64) {
                __builtin_prefetch((const char *)nx->a + off);
                __builtin_prefetch((const char *)nx->b + off);
            }
            __builtin_prefetch(&nx->c);
        }
        d[i] = lad_eval(dp, &cs[i]);
    }
}
