/*
** Case generators (gen.h): xoshiro256** random numbers and the raw and
** finite case distributions.
**
** The finite distribution is a small set of plans, one drawn per case, each
** aimed at an effect a datapath parameter controls: clustered products with
** random signs (cancellation, the window width and its rounding), exactly
** cancelling pairs beside small terms (terms that only the window can lose),
** zero lanes (whether zeros take part in the anchor), clusters at the bottom
** of the product range (anchor floors, subnormal results) and at the top
** (overflow), and plain uniform finite codes. Everything is integer
** arithmetic; the same seed gives the same words everywhere.
*/
#include "gen.h"

#include <stdio.h>
#include <string.h>

/* ---- random numbers ----------------------------------------------------- */

uint64_t lad_splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

void lad_rng_seed(lad_rng *r, uint64_t seed)
{
    uint64_t x = seed;
    for (int i = 0; i < 4; i++)
        r->s[i] = lad_splitmix64(&x);
    if (!(r->s[0] | r->s[1] | r->s[2] | r->s[3]))
        r->s[0] = 1;
}

void lad_rng_seed2(lad_rng *r, uint64_t seed, uint64_t index)
{
    uint64_t x = seed;
    uint64_t a = lad_splitmix64(&x);
    lad_rng_seed(r, a ^ (index * 0xd1342543de82ef95ull + 0x2545f4914f6cdd1dull));
}

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

uint64_t lad_rng_next(lad_rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

uint32_t lad_rng_below(lad_rng *r, uint32_t n)
{
    /* Lemire's multiply-shift with rejection of the biased low products. */
    uint64_t m = (lad_rng_next(r) >> 32) * (uint64_t)n;
    uint32_t lo = (uint32_t)m;
    if (lo < n) {
        uint32_t t = (0u - n) % n;
        while (lo < t) {
            m = (lad_rng_next(r) >> 32) * (uint64_t)n;
            lo = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

int lad_rng_range(lad_rng *r, int lo, int hi)
{
    return lo + (int)lad_rng_below(r, (uint32_t)(hi - lo) + 1u);
}

/* ---- words ---------------------------------------------------------------- */

static lad_word_t width_mask(int width)
{
    return width >= 64 ? ~(lad_word_t)0 : ((lad_word_t)1 << width) - 1;
}

static lad_word_t raw_word(const lad_format *f, lad_rng *r)
{
    return (lad_word_t)lad_rng_next(r) & width_mask(f->width);
}

/* Highest exponent field that holds finite values (some of them). */
static lad_word_t top_finite_field(const lad_format *f)
{
    lad_word_t emax = ((lad_word_t)1 << f->ebits) - 1;
    if (f->inf == LAD_INF_IEEE || f->nan == LAD_NAN_IEEE ||
        (f->nan == LAD_NAN_ONES && f->mbits == 0))
        return emax - 1;
    return emax;
}

void lad_gen_raw_range(const lad_format *f, int *lo, int *hi)
{
    if (f->kind != LAD_FLOAT) {
        *lo = 0;
        *hi = f->width - f->sign;
        return;
    }
    *lo = f->sub == LAD_SUB_NONE ? -f->bias : 1 - f->bias;
    *hi = (int)top_finite_field(f) - f->bias;
    if (*hi < *lo)
        *hi = *lo;
}

static int is_finite(const lad_format *f, lad_word_t w)
{
    lad_value v = lad_decode(f, w);
    return v.cls != LAD_NAN && v.cls != LAD_INFINITE;
}

static lad_word_t pack(const lad_format *f, int neg, lad_word_t field, lad_word_t frac)
{
    lad_word_t x = (field << f->mbits) | frac;
    if (f->sign && neg)
        x |= (lad_word_t)1 << (f->ebits + f->mbits);
    return x << f->pad;
}

/* A random integer word of about `bits` significant bits. */
static lad_word_t int_word(const lad_format *f, lad_rng *r, int bits)
{
    int top = f->width - f->sign;
    if (bits > top)
        bits = top;
    if (bits < 0)
        bits = 0;
    uint64_t mag = 0;
    if (bits > 0) {
        mag = lad_rng_next(r) & ((((uint64_t)1) << bits) - 1);
        mag |= (uint64_t)1 << (bits - 1);
    }
    int neg = f->sign && (lad_rng_next(r) & 1);
    uint64_t x = neg ? (uint64_t)0 - mag : mag;  /* two's complement, cut below */
    if (neg && mag == 0)
        x = 0;
    return (lad_word_t)x & width_mask(f->width);
}

lad_word_t lad_gen_finite_word(const lad_format *f, lad_rng *r, int raw)
{
    if (f->kind != LAD_FLOAT)
        return int_word(f, r, raw);
    int lo, hi;
    lad_gen_raw_range(f, &lo, &hi);
    if (raw < lo)
        raw = lo;
    if (raw > hi)
        raw = hi;
    lad_word_t fmask = ((lad_word_t)1 << f->mbits) - 1;
    uint64_t bits = lad_rng_next(r);
    lad_word_t frac = (lad_word_t)bits & fmask;
    if (f->mbits > 24)  /* a wide fraction (f64) takes bits of its own */
        frac = (lad_word_t)lad_rng_next(r) & fmask;
    /* Some all-ones and all-zero fractions: carries and exact powers of 2. */
    switch ((bits >> 32) & 15) {
    case 0: frac = fmask; break;
    case 1: frac = 0; break;
    default: break;
    }
    lad_word_t field = (lad_word_t)(raw + f->bias);
    if (f->sub != LAD_SUB_NONE && raw == lo) {
        /* the bottom binade: subnormal (field 0) or the smallest normal */
        field = (bits >> 36) & 1;
        if (field == 0 && frac == 0)
            frac = fmask ? ((lad_word_t)(bits >> 40) & fmask) | 1 : 0;
    }
    int neg = f->sign && ((bits >> 37) & 1);
    lad_word_t w = pack(f, neg, field, frac);
    if (f->pad > 0)
        w |= (lad_word_t)(bits >> 44) & (((lad_word_t)1 << f->pad) - 1);
    /* the top exponent field holds the specials, if any: step down, or off
    ** all-ones (no other field needs decoding) */
    lad_word_t etop = ((lad_word_t)1 << f->ebits) - 1;
    for (int tries = 0; field == etop && !is_finite(f, w) && tries < 4; tries++) {
        if (frac > 0 && f->nan == LAD_NAN_ONES)
            frac--;
        else if (field > 0)
            field--;
        w = pack(f, neg, field, frac);
    }
    return field != etop || is_finite(f, w) ? w : 0;
}

/* A zero word of f (random sign), or a finite word when f has no zero. */
static lad_word_t zero_word(const lad_format *f, lad_rng *r)
{
    if (f->kind != LAD_FLOAT)
        return 0;
    if (f->sub == LAD_SUB_NONE)
        return lad_gen_finite_word(f, r, -100000);
    int neg = f->sign && (lad_rng_next(r) & 1);
    return pack(f, neg, 0, 0);
}

/* ---- sparsity metadata ---------------------------------------------------- */

/* Legal selectors (lad_sparse_check agrees; a unit test keeps it so). */
static const uint8_t sel2of4[] = {0x4, 0x6, 0x8, 0x9, 0xc, 0xd, 0xe};
static const uint8_t sel1of2[] = {0x4, 0xe};

static void gen_meta(const lad_datapath *dp, lad_rng *r, lad_case *cs)
{
    if (!dp->sparse)
        return;
    int cl = dp->sparse == LAD_SPARSE_1OF2 ? 2 : dp->sparse == LAD_SPARSE_2OF4 ? 4 : 8;
    int chunks = dp->k / cl;
    for (int i = 0; i < chunks; i++) {
        uint32_t n = dp->sparse == LAD_SPARSE_1OF2 ? sel1of2[lad_rng_below(r, 2)]
                                                   : sel2of4[lad_rng_below(r, 7)];
        cs->meta[i / 8] |= n << (4 * (i % 8));
    }
}

/* ---- scales --------------------------------------------------------------- */

static void gen_scales(const lad_datapath *dp, lad_rng *r, int mode, lad_case *cs)
{
    int ns = lad_datapath_nscales(dp);
    if (ns == 0)
        return;
    if (mode == LAD_GEN_RAW) {
        for (int i = 0; i < ns; i++) {
            cs->sa[i] = (uint8_t)raw_word(&dp->sa, r);
            cs->sb[i] = (uint8_t)raw_word(&dp->sb, r);
        }
        return;
    }
    int alo, ahi, blo, bhi;
    lad_gen_raw_range(&dp->sa, &alo, &ahi);
    lad_gen_raw_range(&dp->sb, &blo, &bhi);
    int plan = (int)lad_rng_below(r, 4);
    int spread = plan == 1 ? 12 : 3;
    int base = lad_rng_range(r, -6, 6);
    for (int i = 0; i < ns; i++) {
        int ra, rb;
        if (plan == 0) {  /* uniform over the finite encodings */
            ra = lad_rng_range(r, alo, ahi);
            rb = lad_rng_range(r, blo, bhi);
        } else {
            ra = base + lad_rng_range(r, -spread, spread);
            rb = -base + lad_rng_range(r, -spread, spread);
        }
        cs->sa[i] = (uint8_t)lad_gen_finite_word(&dp->sa, r, ra);
        cs->sb[i] = (uint8_t)lad_gen_finite_word(&dp->sb, r, rb);
    }
}

/* ---- cases ---------------------------------------------------------------- */

static void gen_raw(const lad_datapath *dp, lad_rng *r, lad_case *cs)
{
    for (int i = 0; i < dp->k; i++) {
        cs->a[i] = raw_word(&dp->a, r);
        cs->b[i] = raw_word(&dp->b, r);
    }
    cs->c = raw_word(&dp->c, r);
}

static void gen_integer(const lad_datapath *dp, lad_rng *r, lad_case *cs)
{
    int abits = dp->a.width - dp->a.sign, bbits = dp->b.width - dp->b.sign;
    int small = lad_rng_below(r, 4) == 0;
    for (int i = 0; i < dp->k; i++) {
        int ba = small ? lad_rng_range(r, 0, 3) : lad_rng_range(r, abits - 2, abits);
        int bb = small ? lad_rng_range(r, 0, 3) : lad_rng_range(r, bbits - 2, bbits);
        cs->a[i] = lad_gen_finite_word(&dp->a, r, ba);
        cs->b[i] = lad_gen_finite_word(&dp->b, r, bb);
    }
    int cw = dp->c.width - dp->c.sign;
    switch (lad_rng_below(r, 4)) {
    case 0: /* near the limits: wrap and saturation */
        cs->c = lad_gen_finite_word(&dp->c, r, cw);
        break;
    case 1:
        cs->c = 0;
        break;
    default:
        cs->c = lad_gen_finite_word(&dp->c, r, lad_rng_range(r, 0, cw));
        break;
    }
}

/* Splits a product raw exponent p into raw exponents of A and B in range. */
static void split_raw(lad_rng *r, int p, int alo, int ahi, int blo, int bhi,
                      int *ra, int *rb)
{
    int lo = p - bhi > alo ? p - bhi : alo;
    int hi = p - blo < ahi ? p - blo : ahi;
    if (lo > hi) {  /* out of reach: the nearest corner */
        *ra = p - bhi > ahi ? ahi : alo;
        *rb = p - *ra;
        return;
    }
    *ra = lad_rng_range(r, lo, hi);
    *rb = p - *ra;
}

/* Lane i's product: the negation of lane i-1's, exactly. */
static void negate_previous(const lad_datapath *dp, lad_case *cs, int i)
{
    lad_word_t sbit = dp->a.sign ? (lad_word_t)1 << (dp->a.pad + dp->a.ebits + dp->a.mbits) : 0;
    cs->a[i] = cs->a[i - 1] ^ sbit;
    cs->b[i] = cs->b[i - 1];
    if (!sbit && dp->b.sign)
        cs->b[i] ^= (lad_word_t)1 << (dp->b.pad + dp->b.ebits + dp->b.mbits);
}

static void gen_finite(const lad_datapath *dp, lad_rng *r, lad_case *cs)
{
    if (dp->integer) {
        gen_integer(dp, r, cs);
        return;
    }
    int alo, ahi, blo, bhi, clo, chi, dlo, dhi;
    lad_gen_raw_range(&dp->a, &alo, &ahi);
    lad_gen_raw_range(&dp->b, &blo, &bhi);
    lad_gen_raw_range(&dp->c, &clo, &chi);
    lad_gen_raw_range(&dp->d, &dlo, &dhi);
    int plo = alo + blo, phi = ahi + bhi;
    /* Where the products cluster. */
    int plan = (int)lad_rng_below(r, 16), p;
    if (plan <= 1) {
        p = 0;  /* uniform codes: see below */
    } else if (plan <= 3) {
        p = plo + lad_rng_range(r, 0, 6);
    } else if (plan == 4) {
        p = phi - lad_rng_range(r, 0, 3);
    } else {
        /* mostly where results are representable in d */
        int lo = plo > dlo - 2 ? plo : dlo - 2, hi = phi < dhi - 4 ? phi : dhi - 4;
        if (lo > hi || lad_rng_below(r, 8) == 0) {
            lo = plo;
            hi = phi;
        }
        p = lad_rng_range(r, lo, hi);
    }
    static const int spreads[] = {0, 1, 2, 3, 5, 8, 12, 16, 20, 24, 28, 32, 40, 48, 64};
    int spread = spreads[lad_rng_below(r, sizeof spreads / sizeof spreads[0])];
    static const int zeros[] = {0, 0, 0, 2, 8, 16};  /* zero lanes per 16 */
    int zero = zeros[lad_rng_below(r, 6)];
    int cancel = lad_rng_below(r, 4) == 0;
    for (int i = 0; i < dp->k; i++) {
        if (plan <= 1) {
            cs->a[i] = lad_gen_finite_word(&dp->a, r, lad_rng_range(r, alo, ahi));
            cs->b[i] = lad_gen_finite_word(&dp->b, r, lad_rng_range(r, blo, bhi));
            continue;
        }
        if (cancel && (i & 1) && lad_rng_below(r, 4) != 0) {
            negate_previous(dp, cs, i);
            continue;
        }
        int pi = p - lad_rng_range(r, 0, spread);
        int ra, rb;
        split_raw(r, pi, alo, ahi, blo, bhi, &ra, &rb);
        cs->a[i] = lad_gen_finite_word(&dp->a, r, ra);
        cs->b[i] = lad_gen_finite_word(&dp->b, r, rb);
        if ((int)lad_rng_below(r, 16) < zero) {
            if (lad_rng_next(r) & 1)
                cs->a[i] = zero_word(&dp->a, r);
            else
                cs->b[i] = zero_word(&dp->b, r);
        }
    }
    /* C: comparable to the products, far from them, zero, or anything. */
    int top = plan <= 1 ? lad_rng_range(r, plo, phi) : p;
    switch (lad_rng_below(r, 10)) {
    case 0:
        cs->c = zero_word(&dp->c, r);
        break;
    case 1:
        cs->c = lad_gen_finite_word(&dp->c, r, lad_rng_range(r, clo, chi));
        break;
    case 2:
        cs->c = lad_gen_finite_word(&dp->c, r, top + lad_rng_range(r, -64, 64));
        break;
    case 3:
        cs->c = lad_gen_finite_word(&dp->c, r, top + lad_rng_range(r, 1, 40));
        break;
    default:
        cs->c = lad_gen_finite_word(&dp->c, r, top + lad_rng_range(r, -4, 3));
        break;
    }
}

/* ---- named generators --------------------------------------------------- */

/* The scale block of logical lane j (sparse kinds: of its physical lane). */
static int lane_block(const lad_datapath *dp, int j)
{
    return j * lad_datapath_kphys(dp) / dp->k / dp->scale_block;
}

/* Clamps x into [lo, hi]. */
static int clampi(int x, int lo, int hi)
{
    return x < lo ? lo : x > hi ? hi : x;
}

/* A scale pair of raw exponents summing to about s, each in its format's
** finite range. */
static void scale_pair(const lad_datapath *dp, lad_rng *r, int s, uint8_t *wa, uint8_t *wb)
{
    int salo, sahi, sblo, sbhi, ra, rb;
    lad_gen_raw_range(&dp->sa, &salo, &sahi);
    lad_gen_raw_range(&dp->sb, &sblo, &sbhi);
    split_raw(r, s, salo, sahi, sblo, sbhi, &ra, &rb);
    *wa = (uint8_t)lad_gen_finite_word(&dp->sa, r, ra);
    *wb = (uint8_t)lad_gen_finite_word(&dp->sb, r, rb);
}

/*
** near-zero: the anchor near the floors. Products (scales included) at
** raw t - [0, spread] for t in -142..-126 (three cases in four) or
** -180..-143, clamped to what the formats
** reach; zero lanes in most cases, sometimes 16 in a row; C zero, tiny or
** subnormal.
*/
static void gen_near_zero(const lad_datapath *dp, lad_rng *r, lad_case *cs)
{
    int alo, ahi, blo, bhi, clo, chi;
    lad_gen_raw_range(&dp->a, &alo, &ahi);
    lad_gen_raw_range(&dp->b, &blo, &bhi);
    lad_gen_raw_range(&dp->c, &clo, &chi);
    int ns = lad_datapath_nscales(dp), slo = 0, shi = 0;
    if (ns) {
        int salo, sahi, sblo, sbhi;
        lad_gen_raw_range(&dp->sa, &salo, &sahi);
        lad_gen_raw_range(&dp->sb, &sblo, &sbhi);
        slo = salo + sblo;
        shi = sahi + sbhi;
    }
    int plo = alo + blo + slo, phi = ahi + bhi + shi;
    /* mostly about the -133 and -132 floors, else down past f32's
    ** subnormals to the group floors of the fp4 kinds (-174) */
    int t = lad_rng_below(r, 4) ? lad_rng_range(r, -142, -126) : lad_rng_range(r, -180, -143);
    if (t < plo)
        t = plo + lad_rng_range(r, 0, 4);
    if (t > phi)
        t = phi;
    static const int spreads[] = {0, 2, 8, 16, 20, 24, 26, 28, 30, 34, 40};
    int spread = spreads[lad_rng_below(r, sizeof spreads / sizeof spreads[0])];
    static const int zeros[] = {0, 1, 2, 4, 8, 12};  /* zero lanes per 16 */
    int zero = zeros[lad_rng_below(r, 6)];
    int cancel = lad_rng_below(r, 4) == 0;
    /* one lane (not zeroed) holds the top product, t itself */
    int lead = (int)lad_rng_below(r, (uint32_t)dp->k);
    /* per block: the scale pair that puts its products near t (the lead
    ** lane's block: at t) */
    int sexp[LAD_SCALEMAX], emid = (alo + ahi + blo + bhi) / 2;
    for (int i = 0; i < ns; i++) {
        int d = i == lane_block(dp, lead) ? 0 : lad_rng_range(r, 0, spread);
        int s = clampi(t - d - emid, slo, shi);
        scale_pair(dp, r, s, &cs->sa[i], &cs->sb[i]);
        lad_value va = lad_decode(&dp->sa, cs->sa[i]), vb = lad_decode(&dp->sb, cs->sb[i]);
        sexp[i] = va.raw + vb.raw;
    }
    for (int i = 0; i < dp->k; i++) {
        if (cancel && (i & 1) && i != lead && lad_rng_below(r, 4) != 0 &&
            (!ns || lane_block(dp, i) == lane_block(dp, i - 1))) {
            negate_previous(dp, cs, i);
            continue;
        }
        int pi = t - (i == lead ? 0 : lad_rng_range(r, 0, spread)) -
                 (ns ? sexp[lane_block(dp, i)] : 0);
        int ra, rb;
        split_raw(r, pi, alo, ahi, blo, bhi, &ra, &rb);
        cs->a[i] = lad_gen_finite_word(&dp->a, r, ra);
        cs->b[i] = lad_gen_finite_word(&dp->b, r, rb);
        if (i != lead && (int)lad_rng_below(r, 16) < zero) {
            if (lad_rng_next(r) & 1)
                cs->a[i] = zero_word(&dp->a, r);
            else
                cs->b[i] = zero_word(&dp->b, r);
        }
    }
    /* one case in four (K >= 32): an aligned run of 16 zero lanes, a
    ** whole group of the fp4 kinds */
    if (dp->k >= 32 && lad_rng_below(r, 4) == 0) {
        int g = 16 * (int)lad_rng_below(r, (uint32_t)(dp->k / 16));
        for (int i = g; i < g + 16; i++)
            if (i != lead)
                cs->a[i] = zero_word(&dp->a, r);
    }
    switch (lad_rng_below(r, 8)) {
    case 0: case 1: case 2:
        cs->c = zero_word(&dp->c, r);
        break;
    case 3:  /* the bottom of C's range: subnormal where it has them */
        cs->c = lad_gen_finite_word(&dp->c, r, clo);
        break;
    default:
        cs->c = lad_gen_finite_word(&dp->c, r, t + lad_rng_range(r, -40, 2));
        break;
    }
}

/* The exact sum of lanes [from, to)'s products with their scales, as
** *neg, *mag * 2^*exp; 0 (and 0 returned) when it is zero or out of
** reach of 128 bits. */
static int block_sum(const lad_datapath *dp, const lad_case *cs, int from, int to,
                     int *neg, lad_u128 *mag, int *exp)
{
    lad_value v[LAD_KMAX][2];
    int lo = 0, any = 0;
    lad_u128 m[LAD_KMAX];
    int e[LAD_KMAX], sg[LAD_KMAX];
    for (int j = from; j < to; j++) {
        v[j][0] = lad_decode(&dp->a, cs->a[j]);
        v[j][1] = lad_decode(&dp->b, cs->b[j]);
        int bk = lane_block(dp, j);
        lad_value sa = lad_decode(&dp->sa, cs->sa[bk]), sb = lad_decode(&dp->sb, cs->sb[bk]);
        m[j] = (lad_u128)v[j][0].mag * v[j][1].mag * sa.mag * sb.mag;
        e[j] = v[j][0].exp + v[j][1].exp + sa.exp + sb.exp;
        sg[j] = v[j][0].neg ^ v[j][1].neg;
        if (m[j] && (!any || e[j] < lo)) {
            lo = e[j];
            any = 1;
        }
    }
    if (!any)
        return 0;
    __int128 s = 0;
    for (int j = from; j < to; j++) {
        if (!m[j])
            continue;
        if (e[j] - lo + lad_bitlen128(m[j]) > 120)
            return 0;
        __int128 x = (__int128)(m[j] << (e[j] - lo));
        s += sg[j] ? -x : x;
    }
    if (s == 0)
        return 0;
    *neg = s < 0;
    *mag = (lad_u128)(s < 0 ? -s : s);
    *exp = lo;
    return 1;
}

/*
** scale-edge: block-scaled datapaths. One block (the top) gets scales near
** the top of their range, the others scales 20 to 45 binades lower or at
** the bottom of the range; elements are random finite codes; C is minus
** the top block's exact sum, exactly or a few units off.
*/
static void gen_scale_edge(const lad_datapath *dp, lad_rng *r, lad_case *cs)
{
    int alo, ahi, blo, bhi, salo, sahi, sblo, sbhi;
    lad_gen_raw_range(&dp->a, &alo, &ahi);
    lad_gen_raw_range(&dp->b, &blo, &bhi);
    lad_gen_raw_range(&dp->sa, &salo, &sahi);
    lad_gen_raw_range(&dp->sb, &sblo, &sbhi);
    int ns = lad_datapath_nscales(dp), slo = salo + sblo, shi = sahi + sbhi;
    int top = (int)lad_rng_below(r, (uint32_t)ns);
    /* the top pair: at the top of the range, or anywhere; the others at
    ** least 3 binades lower, so that the top block's scales are the
    ** largest whatever their fractions */
    int st = lad_rng_below(r, 2) ? shi - lad_rng_range(r, 0, 3) : lad_rng_range(r, slo + 3, shi);
    for (int i = 0; i < ns; i++) {
        int s;
        if (i == top)
            s = st;
        else if (lad_rng_below(r, 4) == 0)
            s = slo + lad_rng_range(r, 0, 2);
        else
            s = st - lad_rng_range(r, 20, 45);
        if (i != top && s > st - 3)
            s = st - 3;
        scale_pair(dp, r, clampi(s, slo, shi), &cs->sa[i], &cs->sb[i]);
        /* the top pair normal: a subnormal scale would fall below the rest */
        for (int tries = 0; i == top && tries < 8 &&
             (lad_decode(&dp->sa, cs->sa[i]).cls != LAD_NORMAL ||
              lad_decode(&dp->sb, cs->sb[i]).cls != LAD_NORMAL); tries++)
            scale_pair(dp, r, s, &cs->sa[i], &cs->sb[i]);
    }
    int zero = lad_rng_below(r, 2) ? 0 : 2;  /* zero lanes per 16 */
    for (int i = 0; i < dp->k; i++) {
        cs->a[i] = lad_gen_finite_word(&dp->a, r, lad_rng_range(r, alo, ahi));
        cs->b[i] = lad_gen_finite_word(&dp->b, r, lad_rng_range(r, blo, bhi));
        if ((int)lad_rng_below(r, 16) < zero)
            cs->a[i] = zero_word(&dp->a, r);
    }
    int from = -1, to = -1;
    for (int i = 0; i < dp->k; i++)
        if (lane_block(dp, i) == top) {
            if (from < 0)
                from = i;
            to = i + 1;
        }
    int neg = 0, exp = 0;
    lad_u128 mag = 0;
    if (from < 0 || !block_sum(dp, cs, from, to, &neg, &mag, &exp)) {
        cs->c = lad_gen_finite_word(&dp->c, r, st + lad_rng_range(r, 0, 8));
        return;
    }
    int mode = lad_rng_below(r, 2) ? LAD_RZ : LAD_RNE;
    lad_word_t c = lad_round_value(&dp->c, !neg, mag, exp, 0, mode, LAD_OVF_INF, NULL);
    /* a few units of the last place off, half the time */
    if (lad_rng_below(r, 2)) {
        lad_value v = lad_decode(&dp->c, c);
        int d = lad_rng_range(r, 1, 3);
        lad_word_t w = lad_rng_below(r, 2) ? c + (lad_word_t)d : c - (lad_word_t)d;
        lad_value u = lad_decode(&dp->c, w);
        if (v.cls == LAD_NORMAL && u.cls == LAD_NORMAL && u.neg == v.neg)
            c = w;
    }
    cs->c = c;
}

int lad_gen_find(const char *name)
{
    for (int k = 0; k < LAD_GEN_KINDS; k++)
        if (strcmp(name, lad_gen_kind_name(k)) == 0)
            return k;
    return -1;
}

const char *lad_gen_kind_name(int kind)
{
    static const char *names[LAD_GEN_KINDS] = {"mix", "near-zero", "scale-edge"};
    return kind >= 0 && kind < LAD_GEN_KINDS ? names[kind] : NULL;
}

const char *lad_gen_refuses(int kind, const lad_datapath *dp)
{
    if (kind == LAD_GEN_NEAR_ZERO && dp->integer)
        return "near-zero draws float products; this datapath is integer";
    if (kind == LAD_GEN_SCALE_EDGE && !lad_datapath_nscales(dp))
        return "scale-edge draws scales; this datapath is not block-scaled";
    return NULL;
}

void lad_gen_case(const lad_datapath *dp, lad_rng *r, int mode, lad_case *cs)
{
    memset(cs, 0, sizeof *cs);
    if (mode == LAD_GEN_RAW)
        gen_raw(dp, r, cs);
    else
        gen_finite(dp, r, cs);
    gen_scales(dp, r, mode, cs);
    gen_meta(dp, r, cs);
}

int lad_gen_kind_case_at(const lad_datapath *dp, int kind, uint64_t seed, int raw_percent,
                         uint64_t index, lad_case *cs)
{
    lad_rng r;
    lad_rng_seed2(&r, seed, index);
    int mode = (int)lad_rng_below(&r, 100) < raw_percent ? LAD_GEN_RAW : LAD_GEN_FINITE;
    if (mode == LAD_GEN_RAW || kind == LAD_GEN_MIX) {
        lad_gen_case(dp, &r, mode, cs);
        return mode;
    }
    memset(cs, 0, sizeof *cs);
    if (kind == LAD_GEN_NEAR_ZERO)
        gen_near_zero(dp, &r, cs);
    else
        gen_scale_edge(dp, &r, cs);
    gen_meta(dp, &r, cs);
    return mode;
}

void lad_gen_kind_cases(const lad_datapath *dp, int kind, uint64_t seed, int raw_percent,
                        uint64_t first, lad_case *cs, size_t n)
{
    for (size_t i = 0; i < n; i++)
        lad_gen_kind_case_at(dp, kind, seed, raw_percent, first + i, &cs[i]);
}

int lad_gen_case_at(const lad_datapath *dp, uint64_t seed, int raw_percent,
                    uint64_t index, lad_case *cs)
{
    return lad_gen_kind_case_at(dp, LAD_GEN_MIX, seed, raw_percent, index, cs);
}

void lad_gen_cases(const lad_datapath *dp, uint64_t seed, int raw_percent,
                   uint64_t first, lad_case *cs, size_t n)
{
    lad_gen_kind_cases(dp, LAD_GEN_MIX, seed, raw_percent, first, cs, n);
}

void lad_gen_name(int kind, int raw_percent, char *buf, size_t size)
{
    if (kind == LAD_GEN_MIX)
        snprintf(buf, size, "gen1:raw=%d", raw_percent);
    else
        snprintf(buf, size, "%s:raw=%d", lad_gen_kind_name(kind), raw_percent);
}

int lad_gen_parse(const char *stored, int *kind, int *raw_percent)
{
    const char *colon = strchr(stored, ':');
    if (!colon || colon - stored >= 32)
        return -1;
    char name[32], tail;
    memcpy(name, stored, (size_t)(colon - stored));
    name[colon - stored] = 0;
    int k = strcmp(name, "gen1") == 0 ? LAD_GEN_MIX : lad_gen_find(name);
    if (k < 0 || (k == LAD_GEN_MIX && strcmp(name, "gen1") != 0))
        return -1;
    int raw;
    if (sscanf(colon + 1, "raw=%d%c", &raw, &tail) != 1 || raw < 0 || raw > 100)
        return -1;
    *kind = k;
    *raw_percent = raw;
    return 0;
}
