/*
** Decoding operand words in GNU C vectors of VW 32-bit lanes (vi, vu), for
** one width: the functions are named OPL(name), name and width joined
** (decode8 at 8 lanes, decode16 at 16). datapath_int.h includes this file
** at 8 lanes (plan_lanes.c's eight-lane code and the kernels of
** gemm_kernel.c and cases_kernel.c); cases_kernel.c includes it again at
** 16 for its AVX-512 build.
*/
#ifndef OPL
#define OPL(name) OPL_(name, VW)
#define OPL_(name, w) OPL__(name, w)
#define OPL__(name, w) name##w
#endif

/* VW words of format A (shifted down by its pad), decoded as opfmt_term
** does: the fraction and exponent fields (f, e), the significand with its
** hidden bit (m), and as masks (all ones) a zero exponent field (ez), a
** special word, NaN or Inf (special), and a negative sign (neg). Written
** with == only: AVX2 compares for equality, and x != y is two of them. */
typedef struct OPL(op) {
    vu f, e, m, ez, special, neg;
} OPL(op);

static inline __attribute__((always_inline)) void OPL(decode)(OPL(op) *o, const vu *px,
                                                          const lad_opfmt A)
{
    vu x = *px;
    o->f = x & A.fmask;
    o->e = (x >> A.mb) & A.emax;
    o->ez = (vu)(o->e == 0);
    o->m = o->f | (~o->ez & (1u << A.mb));
    o->special = (vu)(o->e == A.etop) & (vu)((o->f & A.need) == A.need);
    /* the sign bit set (an unsigned format has none: smask 0) */
    o->neg = (vu)((x & A.smask) == A.smask) & (A.smask ? ~0u : 0u);
    if (A.spec == FS_FNUZ)  /* the word of -0 is the NaN */
        o->special |= (vu)((o->e | o->f) == 0) & o->neg;
}

/* The raw exponents of the products of a's and b's lanes, both biases in
** (decode_one's): a subnormal's field counts as 1 (a mask is -1). */
static inline __attribute__((always_inline)) void OPL(raw)(vu *r, const OPL(op) *a, const OPL(op) *b)
{
    *r = a->e + b->e - a->ez - b->ez;
}

/* The lanes (masks) whose products, m = (ma * mb) << up with raw exponent
** rw (both biases in), are of 2^prod_inf or more (lad_plan.bigt;
** big_product): m >= 2^(bigt - rw), m being below 2^31. */
static inline __attribute__((always_inline)) void OPL(big)(vu *big, int bigt, const vu *m,
                                                       const vu *rw)
{
    const vi zero = {0};
    vi t = VMIN(VMAX(bigt - (vi)*rw, zero), zero + 31);
    *big = (vu)((*m >> (vu)t) != 0);
}

/* The class masks of eight products of a's and b's lanes (opfmt_class's
** rules, as masks): a NaN (a NaN word, or an Inf times a zero), and an
** Inf of either sign. */
static inline __attribute__((always_inline)) void
OPL(class)(vu *nan, vu *pinf, vu *ninf, const OPL(op) *a, const OPL(op) *b, const lad_opfmt A,
       const lad_opfmt B)
{
    const vu none = {0};
    vu ia = A.spec == FS_IEEE ? a->special & (vu)(a->f == 0) : none;
    vu ib = B.spec == FS_IEEE ? b->special & (vu)(b->f == 0) : none;
    vu za = (vu)((a->e | a->f) == 0), zb = (vu)((b->e | b->f) == 0);
    vu inf = ia | ib, neg = a->neg ^ b->neg;
    *nan = (a->special & ~ia) | (b->special & ~ib) | (ia & zb) | (ib & za);
    *pinf = inf & ~neg;
    *ninf = inf & neg;
}
