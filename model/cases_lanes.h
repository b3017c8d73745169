/*
** The case kernel of cases_kernel.c (lad_cases_eval) for one width: VW
** dense cases side by side, one a lane, in GNU C vectors vi and vu,
** functions named L(name) as in gemm_lanes.h (name at 8 lanes, name16 at
** 16), the operand decoders OPL(name) (op_lanes.h). cases_kernel.c
** includes it twice, after both widths of gemm_lanes.h and op_lanes.h: at
** 8 for the AVX2 build, at 16 for the AVX-512 one, which takes no
** two-level window (its second level in the lanes is written for eight:
** vtwo_level). Either way the words are loaded CH lanes of the MMA at a
** time (eight: one AVX2 load of each case's words) and transposed.
*/

/* bit l in lane l */
static inline __attribute__((always_inline)) void L(lane_bits)(vi *out)
{
#if VW == 8
    *out = (vi){1, 2, 4, 8, 16, 32, 64, 128};
#else
    *out = (vi){1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768};
#endif
}

/* Lanes [0, CH) of the VW cases at p, p + step, ... (words), as CH vectors:
** out[t] holds lane t of every case (at sixteen cases, two transposes of
** eight joined). */
static inline __attribute__((always_inline)) void L(chunk_of)(vu *out, const lad_word_t *p,
                                                             size_t step)
{
    v8u r[CH];
    for (int l = 0; l < CH; l++)
        words_of(&r[l], p + l * step);
    transpose(r);
#if VW == 8
    for (int t = 0; t < CH; t++)
        out[t] = r[t];
#else
    v8u s[CH];
    for (int l = 0; l < CH; l++)
        words_of(&s[l], p + (CH + l) * step);
    transpose(s);
    for (int t = 0; t < CH; t++)
        out[t] = __builtin_shufflevector(r[t], s[t], 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
                                         13, 14, 15);
#endif
}

/* aligned_sum with each lane's products its own: lanes from, from + step,
** ... below to of rps, pmag and psg aligned to vbase and summed into
** *out. */
static inline __attribute__((always_inline)) void
L(case_sum)(vi *out, const vi *rps, const vu *pmag, const vi *psg, int from, int to,
         int step, const vi *vbase)
{
    const vi zero = {0};
    vi sum = zero;
    for (int j = from; j < to; j += step) {
        vi sh = VMIN(*vbase - rps[j], zero + 31);
        vi t = (vi)(pmag[j] >> (vu)sh);
        sum += (t ^ psg[j]) - psg[j];
    }
    *out = sum;
}

/* lad_cases_eval's VW cases. Where the plan has inf_rest, a case with a NaN
** or Inf word (or C) is decided here too, as plan_unscaled.c's lad_special_rest: by
** the classes of its products from the first pass that holds one, and of
** the value entering that pass (C, or an Inf an overflow left). */
static inline __attribute__((always_inline)) unsigned
L(cases_body)(const lad_plan *pl, const lad_word_t *a, const lad_word_t *b, size_t step,
           const lad_word_t *c, size_t cstep, lad_word_t *d, const lad_opfmt A,
           const lad_opfmt B)
{
    const lad_datapath *dp = pl->dp;
    const lad_opfmt C = pl->c;
    const vi zero = {0}, low = zero - (1 << 30);
    const int k = dp->k, halves = halves_of(dp);
    /* per lane of the MMA, one case a vector lane: the words (shifted down
    ** by their pads), the product's raw exponent with both biases in (0
    ** for a zero product: a nonzero one's is at least 2), its magnitude
    ** shifted up by up, its sign (0 or -1) */
    vu wa[LAD_KMAX], wb[LAD_KMAX], pmag[LAD_KMAX];
    vi rps[LAD_KMAX], psg[LAD_KMAX];
    /* the chunks of CH lanes with a special word (bit j / CH of spk): their
    ** lanes' special masks and class masks (class8) */
    uint32_t spk = 0;
    _Static_assert(LAD_KMAX / CH <= 32, "a chunk a bit of spk");
    vi ksp[LAD_KMAX];
    vu knan[LAD_KMAX], kpinf[LAD_KMAX], kninf[LAD_KMAX];
    vi bad = {0};
    for (int j = 0; j < k; j += CH) {
        vi cbad = {0};
        L(chunk_of)(wa + j, a + j, step);
        L(chunk_of)(wb + j, b + j, step);
        for (int t = j; t < j + CH; t++) {
            OPL(op) oa, ob;
            vu rw;
            wa[t] >>= A.pad;
            wb[t] >>= B.pad;
            OPL(decode)(&oa, &wa[t], A);
            OPL(decode)(&ob, &wb[t], B);
            OPL(raw)(&rw, &oa, &ob);
            ksp[t] = (vi)(oa.special | ob.special);
            rps[t] = (vi)rw & ~(vi)((oa.m == 0) | (ob.m == 0));
            pmag[t] = (oa.m * ob.m) << pl->up;
            psg[t] = (vi)(oa.neg ^ ob.neg);
            if (pl->bigt) {  /* a product too large is an Inf: a special lane */
                vu big;
                OPL(big)(&big, pl->bigt, &pmag[t], &rw);
                ksp[t] |= (vi)big;
            }
            cbad |= ksp[t];
        }
        if (!L(vbits)(&cbad))
            continue;
        /* a chunk with a special word: its lanes' classes, all of them (a
        ** lane without one has none; a branch a lane was mispredicted
        ** half the time on raw words) */
        bad |= cbad;
        spk |= 1u << j / CH;
        for (int t = j; t < j + CH; t++) {
            OPL(op) oa, ob;
            OPL(decode)(&oa, &wa[t], A);
            OPL(decode)(&ob, &wb[t], B);
            OPL(class)(&knan[t], &kpinf[t], &kninf[t], &oa, &ob, A, B);
            /* the special lanes without a special word: products too large */
            vu big = (vu)ksp[t] & ~(oa.special | ob.special);
            kpinf[t] |= big & ~(vu)psg[t];
            kninf[t] |= big & (vu)psg[t];
        }
    }

    /* C, each case's running value (opfmt_term's fields) */
    vu xc = {0};
    if (c)
        for (int l = 0; l < VW; l++)
            xc[l] = (uint32_t)c[l * cstep];
    xc >>= C.pad;
    OPL(op) oc;
    OPL(decode)(&oc, &xc, C);
    bad |= (vi)oc.special;
    L(vterm) v;
    v.nz = (vi)(oc.m != 0);
    v.neg = (vi)oc.neg & v.nz;
    v.mag = (vi)oc.m;
    v.raw = (vi)(oc.e - (vu)(oc.e == 0)) - C.bias;
    v.exp = v.raw - (int)C.mb;

    /* the cases with a special word: per pass, which have one in it (spp),
    ** and the classes of the products from its first lane on (sfx); C's
    ** join pass 0's */
    vi spp[LAD_KMAX], snan[LAD_KMAX], spinf[LAD_KMAX], sninf[LAD_KMAX];
    unsigned live = ~L(vbits)(&bad) & ((1u << VW) - 1);
    int specials = live != (1u << VW) - 1 && pl->inf_rest;
    if (specials) {
        vi n = zero, pi = zero, ni = zero;
        for (int p = pl->npass - 1; p >= 0; p--) {
            int from = p * dp->pass, to = from + dp->pass < k ? from + dp->pass : k;
            vi sp = zero;
            for (int j = from; j < to; j++) {
                if (!(spk >> j / CH & 1))
                    continue;
                sp |= ksp[j];
                n |= (vi)knan[j];
                pi |= (vi)kpinf[j];
                ni |= (vi)kninf[j];
            }
            spp[p] = sp;
            snan[p] = n;
            spinf[p] = pi;
            sninf[p] = ni;
        }
        vi cinf = C.spec == FS_IEEE ? (vi)(oc.special & (vu)(oc.f == 0)) : zero;
        spp[0] |= (vi)oc.special;
        snan[0] |= (vi)oc.special & ~cinf;
        spinf[0] |= cinf & ~(vi)oc.neg;
        sninf[0] |= cinf & (vi)oc.neg;
        live = (1u << VW) - 1;
    }

    /* dec: the cases decided by their classes, their words dw; two: the
    ** two-level window, its second level in the lanes where vec2 */
    vi inf = zero, ineg = zero, dec = zero;
    vu dw = {0};
    const int two = VW == 8 && dp->window2 > 0;  /* at 16 lanes, lad_cases_width: none */
#if VW == 8
    const int vec2 = two && dp->align2_round == LAD_RD && dp->window2 >= dp->window;
#endif
    const lad_opfmt *od = &pl->d;
    for (int p = 0; p < pl->npass; p++) {
        int from = p * dp->pass, to = from + dp->pass < k ? from + dp->pass : k;
        int last = p == pl->npass - 1;
        if (specials) {
            /* the live cases whose first special word is in this pass (a
            ** case the scalar pass left is not decided here) */
            vi bit;
            L(lane_bits)(&bit);
            vi now = spp[p] & ~dec & ((bit & (int)live) != 0);
            vi pi = spinf[p] | (inf & ~ineg), ni = sninf[p] | (inf & ineg);
            vi nan = snan[p] | (pi & ni);
            vu iw = ((vu)ni & od->smask) | od->emax << od->mb;
            dw |= (vu)now & (((vu)nan & (uint32_t)dp->nan) | (~(vu)nan & (iw << od->pad)));
            dec |= now;
            live &= ~L(vbits)(&now);
        }
        /* the anchor (two running maxima, as raw_products), unbiased; a
        ** lane without a product far below any */
        vi m0 = zero, m1 = m0, x, nothing;
        int j = from;
        for (; j + 1 < to; j += 2) {
            m0 = VMAX(m0, rps[j]);
            m1 = VMAX(m1, rps[j + 1]);
        }
        if (j < to)
            m0 = VMAX(m0, rps[j]);
        vi rmax = VMAX(m0, m1), none = rmax == 0;
        rmax = ((rmax - pl->bias) & ~none) | (low & none);
        L(lane_anchor)(pl, &rmax, two ? NULL : &v, &x, &nothing);
        /* the products aligned toward zero and summed, as aligned_sums,
        ** the biases in the base: a zero product's shift is the anchor's
        ** biased exponent plus down, at least 0 (lad_cases_ok), and moves
        ** a zero */
        vi vbase = x + pl->down + pl->bias, half, half2;
        const lad_format *out = last ? &dp->d : &dp->acc;
        const lad_opfmt *oo = last ? &pl->d : &pl->acc;
        int mode = last ? dp->d_round : dp->acc_round;
#if VW == 8
        if (two) {
            /* the products' sum: with even_odd, the even lanes (m0's) and
            ** the odd ones (m1's) below their own anchors (a half without
            ** a product sums zeros at x), each cut to x's units by a
            ** floor, in the lanes when align2_round is rd */
            vi xh[2] = {x, x}, hm[2] = {m0, m1}, sum, edge = nothing;
            if (dp->even_odd) {
                for (int h = 0; h < 2; h++) {
                    vi hnone = hm[h] == 0;
                    xh[h] = (VMAX(hm[h] - pl->bias, zero + dp->anchor_min) & ~hnone) |
                            (x & hnone);
                    vi hbase = xh[h] + pl->down + pl->bias;
                    L(case_sum)(h ? &half2 : &half, rps, pmag, psg, from + h, to, 2, &hbase);
                }
                sum = (half >> VMIN(x - xh[0], zero + 31)) + (half2 >> VMIN(x - xh[1], zero + 31));
            } else {
                int mid = halves ? from + (to - from + 1) / 2 : to;
                L(case_sum)(&half, rps, pmag, psg, from, mid, 1, &vbase);
                L(case_sum)(&half2, rps, pmag, psg, mid, to, 1, &vbase);
                L(sum_edge)(&sum, &edge, &nothing, &half, &half2, halves);
            }
            L(vterm) nv = v;
            unsigned fix = live & ~L(vbits)(&dec) & ~L(vbits)(&inf);
            /* the lanes' pass costs about what two lanes' alone do (raw
            ** cdna3 bf16, whose cases most often have an Inf product) */
            if (vec2 && __builtin_popcount(fix) > 2) {
                vi over;
                vtwo_level(dp, out, mode, &sum, &x, &v, &nv, &over);
                L(join_inf)(&inf, &ineg, &edge, &over, &nv.neg);
                fix &= L(vbits)(&edge);
            }
            two_level_lanes(dp, out, oo, mode, fix, &nothing, &x, &half, &half2, &xh[0],
                            &xh[1], &v, &nv, &inf, &ineg);
            v = nv;
            continue;
        }
#endif
        int mid = halves ? from + (to - from + 1) / 2 : to;
        L(case_sum)(&half, rps, pmag, psg, from, mid, 1, &vbase);
        L(case_sum)(&half2, rps, pmag, psg, mid, to, 1, &vbase);
        L(lane_round)(pl, halves, out, oo, mode, &nothing, &x, &half, &half2, &v, &live, &inf,
                   &ineg);
    }

    /* the D words, encoded from the running value in d's terms; an
    ** overflow's Inf (lanes_ok: d's is IEEE's); the decided ones */
    vu w;
    L(vencode)(&w, &v, od);
    vu iw = (((vu)ineg & od->smask) | od->emax << od->mb) << od->pad;
    w = (w & ~(vu)inf) | (iw & (vu)inf);
    w = (w & ~(vu)dec) | dw;
    for (int l = 0; l < VW; l++)
        d[l] = w[l];
    return ~live & ~L(vbits)(&dec) & ((1u << VW) - 1);
}
