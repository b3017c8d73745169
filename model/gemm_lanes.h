/*
** The block kernel's lanes (gemm_kernel.c), for one width: VW columns of
** int32 side by side in GNU C vectors vi and vu (unsigned), functions
** named L(name). gemm_kernel.c includes this file twice: with VW 8 (v8i,
** one AVX2 register; L(name) is name), which the generic and AVX2 builds
** and the case kernel use, and with VW 16 (v16i, one AVX-512 register;
** L(name) is name16), which the AVX-512 build of the chain uses. Every
** function is inlined into its caller, whose target decides the
** instructions; the arithmetic is the same at either width, lane by lane.
**
** The block's B is laid out VW columns wide ([blk][k][col], lad_block.w).
*/
/* The products' raw exponents of lanes [from, to), one column a lane,
** into rps[j] (a zero product's far below any), and their maximum into
** *rmax (two running maxima: one is a chain of a compare and a blend per
** lane, the latency of the loop); their minimum into *rmin with `floor`. */
static inline __attribute__((always_inline)) void
L(raw_products)(vi *rps, vi *rmax, vi *rmin, const int32_t *braw, const int32_t *araw,
             int from, int to, const int floor)
{
    vi m0 = *rmax, m1 = *rmax, n0 = *rmin, bv;
    int j = from;
#pragma GCC unroll 2
    for (; j + 1 < to; j += 2) {
        vi b1;
        memcpy(&bv, braw + (size_t)j * VW, sizeof bv);
        memcpy(&b1, braw + (size_t)(j + 1) * VW, sizeof b1);
        vi r0 = bv + araw[j], r1 = b1 + araw[j + 1];
        rps[j] = r0;
        rps[j + 1] = r1;
        m0 = VMAX(m0, r0);
        m1 = VMAX(m1, r1);
        if (floor) {
            n0 = VMIN(n0, r0);
            n0 = VMIN(n0, r1);
        }
    }
    if (j < to) {
        memcpy(&bv, braw + (size_t)j * VW, sizeof bv);
        vi r0 = bv + araw[j];
        rps[j] = r0;
        m0 = VMAX(m0, r0);
        if (floor)
            n0 = VMIN(n0, r0);
    }
    *rmax = VMAX(m0, m1);
    *rmin = n0;
}

/* The products of lanes [from, to) aligned toward zero to base (the
** anchor's quantum: base - rps[j] is each one's shift) and summed, one
** column a lane (a zero product's shift is large and its magnitude 0),
** into *out. Pointers, not values: as vshift. */
static inline __attribute__((always_inline)) void
L(aligned_sum)(vi *out, const vi *rps, const int32_t *bmag, const int32_t *asgn,
            const uint32_t *amag, int from, int to, const vi *vbase)
{
    const vi zero = {0};
    vi sum = zero;
#pragma GCC unroll 4
    for (int j = from; j < to; j++) {
        vi mb;
        memcpy(&mb, bmag + (size_t)j * VW, sizeof mb);
        vi d = *vbase - rps[j];
        d = VMIN(d, zero + 31);
        vu m = ((vu)mb & 0x7fffffffu) * amag[j];
        vi s = (mb >> 31) ^ asgn[j];
        vi a = (vi)(m >> (vu)d);
        sum += (a ^ s) - s;
    }
    *out = sum;
}

/* aligned_sum of a pass: its first half into *lo and the rest into *hi
** where the block's sums need the two halves (lad_block's halves), else
** all of it into *lo and 0 into *hi (two loops, not one with two sums: the
** one loop ran a third slower). */
static inline __attribute__((always_inline)) void
L(aligned_sums)(vi *lo, vi *hi, const lad_block *bk, const vi *rps, const int32_t *bmag,
             const int32_t *asgn, const uint32_t *amag, int from, int to, const vi *vbase)
{
    int mid = bk->halves ? from + (to - from + 1) / 2 : to;
    L(aligned_sum)(lo, rps, bmag, asgn, amag, from, mid, vbase);
    L(aligned_sum)(hi, rps, bmag, asgn, amag, mid, to, vbase);
}

/* Each column's value as opfmt_term gives it, one lane a column: sign (0
** or -1), significand, exponent of its last bit, raw exponent, nonzero (0
** or -1). */
typedef struct L(vterm) {
    vi neg, mag, exp, raw, nz;
} L(vterm);

static inline __attribute__((always_inline)) void L(vterm_set)(L(vterm) *v, int col, const term *t)
{
    int z = t->cls == LAD_ZERO;
    v->neg[col] = z ? 0 : -t->neg;
    v->mag[col] = z ? 0 : (int32_t)t->mag;
    v->exp[col] = t->exp;
    v->raw[col] = t->raw;
    v->nz[col] = -!z;
}

static inline __attribute__((always_inline)) term L(vterm_get)(const L(vterm) *v, int col)
{
    term t = {v->nz[col] ? LAD_NORMAL : LAD_ZERO, v->neg[col] != 0, (uint32_t)v->mag[col],
              v->exp[col], v->raw[col]};
    return t;
}

/* The columns whose lane of m (0 or -1) is set, as bits: at eight lanes,
** each lane's bit ORed across the lanes (in shuffles, which the generic
** and AVX2 builds both have); at sixteen, AVX-512's vpmovd2m. */
static inline __attribute__((always_inline)) unsigned L(vbits)(const vi *m)
{
#if VW == 8
    vi b = *m & (vi){1, 2, 4, 8, 16, 32, 64, 128};
    b |= __builtin_shufflevector(b, b, 4, 5, 6, 7, 0, 1, 2, 3);
    b |= __builtin_shufflevector(b, b, 2, 3, 0, 1, 6, 7, 4, 5);
    b |= __builtin_shufflevector(b, b, 1, 0, 3, 2, 5, 4, 7, 6);
    return (unsigned)b[0];
#else
    /* the AVX-512 build only: the lanes' top bits, as a mask register */
    return _mm512_movepi32_mask((__m512i)*m);
#endif
}

/* The number of significant bits of each lane (0 for 0), AVX2 having no
** count of leading zeros: the exponent of the lane as a float, less one
** where the conversion rounded it up to the next power of two (m >> (e -
** 1) is then 0). Lanes are at most 2^31 (the magnitudes of int32 sums);
** 2^31 converts as -2^31, whose exponent field is its own. */
static inline __attribute__((always_inline)) void L(vbitlen)(vi *out, const vu *in)
{
    typedef float vf __attribute__((vector_size(4 * VW)));
    const vi zero = {0};
    vf f = __builtin_convertvector((vi)*in, vf);
    vi e = (((vi)f >> 23) & 0xff) - 126;
    vi sh = VMAX(e - 1, zero);
    e += (vi)(*in >> (vu)sh) == 0;  /* a mask is -1 */
    *out = e & ~((vi)*in == 0);
}

/* a * 2^sh toward zero lane by lane, as (a << l) >> r with l and r the
** positive and negative parts of sh clamped to 31 (a below 2^31 - |sh|
** where sh > 0). Pointers, not values: a vector argument's ABI differs
** between the generic and the AVX2 build. */
static inline __attribute__((always_inline)) void L(vshift)(vu *out, const vu *a, const vi *sh)
{
    vi zero = {0}, top = zero + 31;
    vi l = VMIN(VMAX(*sh, zero), top), r = VMIN(VMAX(-*sh, zero), top);
    *out = (*a << (vu)l) >> (vu)r;
}

/* The words of format od (its decoder's constants, lanes_ok's kind) of
** each lane's value, one per column of *w: the sign, and the exponent
** field where the significand has its hidden bit (else a subnormal's
** count), shifted up by od's pad; a zero is +0. */
static inline __attribute__((always_inline)) void L(vencode)(vu *w, const L(vterm) *v,
                                                         const lad_opfmt *od)
{
    vu u = (vu)v->mag;
    vu norm = (vu)((u >> od->mb) != 0);
    vu x = ((vu)v->neg & od->smask) |
            ((((vu)(v->raw + od->bias) << od->mb) | (u & od->fmask)) & norm) | (u & ~norm);
    *w = (x & (vu)(u != 0)) << od->pad;
}

/* round64 lane by lane: s * 2^q (|s| < 2^31) rounded toward zero, or to
** nearest even (rne), into a format of mb fraction bits, IEEE subnormals
** and exponents up to emax; the lanes that overflow set in *over. The
** units kept are the significand of mb + 1 bits or the subnormal grid's
** count; a carry out of either is the next binade's significand 2^mb,
** which is also what the subnormal grid's carry decodes as. */
static inline __attribute__((always_inline)) void
L(vround)(L(vterm) *r, vi *over, const vi *s, const vi *q, int mb, int emin, int emax, int rne)
{
    const vi zero = {0};
    vi sg = *s >> 31;
    vu m = ((vu)*s ^ (vu)sg) - (vu)sg;
    vi bl;
    L(vbitlen)(&bl, &m);
    vi e = bl - 1 + *q;
    vi norm = e >= emin;
    vi sh = (norm & (bl - 1 - mb)) | (~norm & (emin - mb - *q));
    vu u;
    vi nsh = -sh;
    L(vshift)(&u, &m, &nsh);
    if (rne) {
        /* the bit below the units kept, and whether any under it is set
        ** (m is below 2^31: a shift clamped to 31 leaves neither) */
        vi hs = VMIN(VMAX(sh - 1, zero), zero + 31);
        vi half = (vi)(m >> (vu)hs) & 1 & (sh > 0);
        vi rest = (vi)(m & (((vu)(zero + 1) << (vu)hs) - 1)) != 0;
        u += (vu)(half & (rest | (vi)(u & 1)));
        vi carry = (vi)(u >> (unsigned)(mb + 1)) & norm;  /* 0 or 1 */
        u >>= (vu)carry;
        e += carry;
    }
    vi unz = (vi)u != 0;
    *over = norm & (e > emax) & unz;  /* a zero sum is +0, at any q */
    r->neg = sg & unz;
    r->mag = (vi)u;
    r->nz = unz;
    r->exp = (norm & (e - mb)) | (~norm & (emin - mb));
    r->raw = (norm & e) | (~norm & emin);
}

/* x + y exactly, rounded into a format as vround does (C added last: the
** passes' result and C), as an IEEE adder does it: both significands (24
** bits or fewer) shifted up to 27 bits, the one with the lower last bit
** aligned to the other's, the bits the alignment cuts off kept as a sticky
** bit in its lowest place. Exact when at most 3 bits are cut (a gap of 3
** or less); otherwise the smaller is below 2^23, the sum at least 2^25,
** and its rounding, at bit 2 or above for mb <= 23 (or on the subnormal
** grid, then further up), is the same for the sticky sum as for the exact
** one: neither sits on an even count of units, where the ties and the
** grid points of that rounding lie. */
static inline __attribute__((always_inline)) void
L(vadd)(L(vterm) *r, vi *over, const L(vterm) *x, const L(vterm) *y, int mb, int emin, int emax, int rne)
{
    const vi zero = {0}, low = zero - (1 << 28);
    vu mx = (vu)x->mag, my = (vu)y->mag;
    vi bx, by;
    L(vbitlen)(&bx, &mx);
    L(vbitlen)(&by, &my);
    mx <<= (vu)(27 - bx);
    my <<= (vu)(27 - by);
    vi ex = ((x->exp - (27 - bx)) & x->nz) | (low & ~x->nz);
    vi ey = ((y->exp - (27 - by)) & y->nz) | (low & ~y->nz);
    vi xhi = ex >= ey;
    vi hi = ((vi)mx & xhi) | ((vi)my & ~xhi), lo = ((vi)my & xhi) | ((vi)mx & ~xhi);
    vi shi = (x->neg & xhi) | (y->neg & ~xhi), slo = (y->neg & xhi) | (x->neg & ~xhi);
    vi q = VMAX(ex, ey), emn = VMIN(ex, ey), gap = VMIN(q - emn, zero + 31);
    vi cut = (vi)((vu)lo & (((vu)(zero + 1) << (vu)gap) - 1)) != 0;
    lo = (vi)((vu)lo >> (vu)gap) | (cut & 1);
    vi s = ((hi ^ shi) - shi) + ((lo ^ slo) - slo);
    L(vround)(r, over, &s, &q, mb, emin, emax, rne);
}

/* A pass's anchor per lane, from its products' largest raw exponent rmax:
** the running value's when that is larger and v nonzero (v NULL: the
** two-level window, whose first level is the products'), the anchor's
** floor; *nothing: the lanes without a product, whose anchor is then 0
** (every shift of the sum is large). */
static inline __attribute__((always_inline)) void
L(lane_anchor)(const lad_plan *pl, const vi *rmax, const L(vterm) *v, vi *x, vi *nothing)
{
    const vi zero = {0};
    *nothing = *rmax < zero + LAD_BLOCK_NONE;
    vi r = *rmax;
    if (v)
        r = VMAX(r, (v->raw & v->nz) | ((zero - (1 << 30)) & ~v->nz));
    r = VMAX(r, zero + pl->dp->anchor_min);
    *x = r & ~*nothing;
}

/* The sum of a pass's halves (wrapping), and the lanes its vector step
** leaves (edge): those without a product, and those whose sum reaches
** 2^30 or, where the sums need the halves, a half 2^29. */
static inline __attribute__((always_inline)) void
L(sum_edge)(vi *sum, vi *edge, const vi *nothing, const vi *half, const vi *half2,
         int halves)
{
    *sum = (vi)((vu)*half + (vu)*half2);
    *edge = *nothing | (*sum >= (1 << 30)) | (*sum <= -(1 << 30));
    if (halves)  /* each half below 2^29: no wrap, the sum below 2^30 */
        *edge |= (*half >= (1 << 29)) | (*half <= -(1 << 29)) | (*half2 >= (1 << 29)) |
                 (*half2 <= -(1 << 29));
}

/* The lanes of over (a rounding's overflow) that the vector step keeps
** join *inf, their signs (of neg) *ineg; the lanes already there leave
** *edge. */
static inline __attribute__((always_inline)) void
L(join_inf)(vi *inf, vi *ineg, vi *edge, const vi *over, const vi *neg)
{
    *edge &= ~*inf;
    vi o = *over & ~*edge & ~*inf;
    *inf |= o;
    *ineg |= o & *neg;
}

/* The rest of a pass at anchors x, its products aligned and summed (half
** and half2, the second 0 unless the sums need halves): the running value
** *v (a term of the window, in acc's terms) in, its rounding into out
** (decoded by od, mode) out. Lanes whose rounding overflows leave *live;
** with inf, the ones the vector step finds join the mask *inf instead,
** their signs *ineg (the lane's value is then that Inf: passes that follow
** add finite sums to it), and the lanes already there are left as they
** are. */
static inline __attribute__((always_inline)) void
L(lane_round)(const lad_plan *pl, int halves, const lad_format *out, const lad_opfmt *od,
           int mode, const vi *nothing, const vi *x, const vi *half, const vi *half2,
           L(vterm) *v, unsigned *live, vi *inf, vi *ineg)
{
    const lad_datapath *dp = pl->dp;
    vi sum, edge;  /* the sum may wrap in the lanes edge takes */
    L(sum_edge)(&sum, &edge, nothing, half, half2, halves);

    /* the running value aligned toward zero to the pass's quantum q (below
    ** 2^(window + 1): x is at least its raw exponent), the sum below 2^31
    ** where the products' sum is below 2^30 (in unsigned lanes: the lanes
    ** left to pass_one may wrap) */
    vi q = *x - dp->window;
    vu al;
    vu um = (vu)v->mag;
    vi ash = v->exp - q;
    L(vshift)(&al, &um, &ash);
    vi s = (vi)((vu)sum + ((al ^ (vu)v->neg) - (vu)v->neg));
    L(vterm) nv;
    vi over;
    L(vround)(&nv, &over, &s, &q, out->mbits, 1 - out->bias,
           (int)((1u << out->ebits) - 2) - out->bias, mode == LAD_RNE);

    if (inf)
        L(join_inf)(inf, ineg, &edge, &over, &nv.neg);
    unsigned fix = L(vbits)(&edge) & *live;
    if (!inf)
        *live &= ~(L(vbits)(&over) & ~fix);
    /* the lanes the vector step leaves, from the running value before it */
    for (int col = 0; fix >> col; col++) {
        if (!(fix >> col & 1))
            continue;
        term t = L(vterm_get)(v, col);
        if (!pass_one(dp, out, od, mode, (*nothing)[col] != 0,
                      (int64_t)(*half)[col] + (*half2)[col], (*x)[col], &t))
            *live &= ~(1u << col);
        else
            L(vterm_set)(&nv, col, &t);
    }
    *v = nv;
}

/* Pass [from, to) of the MMA at k of block blk, as lane_round says. */
static inline __attribute__((always_inline)) void
L(chain_pass)(const lad_block *bk, const lad_block_row *row, int blk, int k, int from, int to,
           const lad_format *out, const lad_opfmt *od, int mode, L(vterm) *v, unsigned *live)
{
    const lad_plan *pl = &bk->pl;
    const vi zero = {0};
    size_t at = ((size_t)blk * bk->K + k) * VW;
    const int32_t *braw = bk->braw + at, *bmag = bk->bmag + at;
    const int32_t *araw = row->raw + k, *asgn = row->sgn + k;
    const uint32_t *amag = row->mag + k;

    vi rmax = zero - (1 << 30), rmin = zero, rps[LAD_KMAX], x, nothing;
    L(raw_products)(rps, &rmax, &rmin, braw, araw, from, to, 0);
    L(lane_anchor)(pl, &rmax, v, &x, &nothing);
    vi vbase = x + pl->down;
    vi half, half2;
    L(aligned_sums)(&half, &half2, bk, rps, bmag, asgn, amag, from, to, &vbase);
    L(lane_round)(pl, bk->halves, out, od, mode, &nothing, &x, &half, &half2, v, live, NULL, NULL);
}

/* MMAs k0, k0 + dp->k, ... below k1 of block blk, chained, for nr rows
** (1 or 2) at once: cw[r][col] (words of dp->c) in, the last D words out;
** dead[r] as lad_block_mma. Two rows' chains are independent, so the
** CPU overlaps one's rounding (a long chain of dependent operations)
** with the other's. */
static inline __attribute__((always_inline)) void
L(chain_body)(const lad_block *bk, const lad_block_row *const *rows, const int nr, int blk,
           int k0, int k1, lad_word_t *const *cw, unsigned *dead)
{
    const lad_plan *pl = &bk->pl;
    const lad_datapath *dp = pl->dp;
    const lad_format *d = &dp->d;
    unsigned live[2] = {0, 0};
    /* each column's C, the running value from one MMA to the next */
    L(vterm) c[2];
    for (int r = 0; r < nr; r++) {
        live[r] = ~dead[r] & ((1u << VW) - 1);
        for (int col = 0; col < VW; col++) {
            term t = {LAD_ZERO, 0, 0, 0, 0};
            if (live[r] >> col & 1) {
                t = opfmt_term(&pl->c, cw[r][col]);
                if (t.cls >= LAD_INFINITE) {
                    live[r] &= ~(1u << col);
                    t.cls = LAD_ZERO;
                }
            }
            L(vterm_set)(&c[r], col, &t);
        }
    }
    const L(vterm) zero = {{0}, {0}, {0}, {0}, {0}};
    int emin = 1 - d->bias, emax = (int)((1u << d->ebits) - 2) - d->bias;

    for (int k = k0; k < k1 && (live[0] | live[1]); k += dp->k) {
        /* the passes start from C, or from +0 when C is added last */
        L(vterm) v[2];
        for (int r = 0; r < nr; r++)
            v[r] = dp->c_last ? zero : c[r];
        for (int p = 0; p < pl->npass; p++) {
            int from = p * dp->pass, to = from + dp->pass < dp->k ? from + dp->pass : dp->k;
            int last = p == pl->npass - 1 && !dp->c_last;
            for (int r = 0; r < nr; r++)
                L(chain_pass)(bk, rows[r], blk, k, from, to, last ? d : &dp->acc,
                           last ? &pl->d : &pl->acc, last ? dp->d_round : dp->acc_round,
                           &v[r], &live[r]);
        }
        for (int r = 0; r < nr; r++) {
            if (dp->c_last) {
                vi over;
                L(vadd)(&c[r], &over, &v[r], &c[r], d->mbits, emin, emax, dp->d_round == LAD_RNE);
                live[r] &= ~L(vbits)(&over);
            } else {
                c[r] = v[r];
            }
        }
    }

    /* the last D words, encoded from the running value in d's terms */
    for (int r = 0; r < nr; r++) {
        dead[r] |= ~live[r] & ((1u << VW) - 1);
        vu w;
        L(vencode)(&w, &c[r], &pl->d);
        for (int col = 0; col < VW; col++)
            if (live[r] >> col & 1)
                cw[r][col] = w[col];
    }
}
