/*
** The datapath's parameters: defaults, the derived counts (physical lanes,
** scale blocks, metadata words), the checks every datapath passes before it
** is evaluated, and sparsity: which lanes a case's metadata selects.
** datapath.h lists the parameters; docs/model.md gives the algorithm with
** its evidence. The evaluator is eval.c (the reference) and plan.c (the
** prepared plan; its fast paths in plan_*.c); datapath_int.h is what they
** share.
*/
#include "datapath_int.h"
#include "params.h"

#include <inttypes.h>
#include <stddef.h>
#include <string.h>

void lad_datapath_init(lad_datapath *dp)
{
    lad_param_defaults(dp);
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

/* Bits from the lowest significand bit to above the largest value of a
** float format: what one term of an exact sum can cover. */
static int top_exp(const lad_format *f) { return (1 << f->ebits) - f->bias; }
static int low_exp(const lad_format *f) { return 1 - f->bias - f->mbits; }

/* The bits an exact pass sum can span: products, the addend (C or a pass
** result in acc), a carry per doubling of the pass. */
static int exact_span(const lad_datapath *dp)
{
    int hi = top_exp(&dp->a) + top_exp(&dp->b), lo = low_exp(&dp->a) + low_exp(&dp->b);
    const lad_format *fs[2] = {&dp->c, &dp->acc};
    for (int i = 0; i < 2; i++) {
        if (top_exp(fs[i]) > hi)
            hi = top_exp(fs[i]);
        if (low_exp(fs[i]) < lo)
            lo = low_exp(fs[i]);
    }
    return hi - lo + 8;
}

int lad_datapath_check(const lad_datapath *dp, lad_err *err)
{
    /* each field alone: its legal set, the same the model-file reader and
    ** the docs use */
    for (int i = 0; i < lad_nparams; i++) {
        char msg[160];
        if (lad_param_illegal(&lad_params[i], dp, msg, sizeof msg))
            return lad_errf_key(err, LAD_EDATA, lad_params[i].key, "%s", msg);
    }
    /* the rules that relate several fields */
    if (dp->sparse && dp->k % chunk_lanes(dp->sparse))
        return lad_errf_key(err, LAD_EDATA, "k", "k %d is not a multiple of the sparsity chunk (%d lanes)",
                        dp->k, chunk_lanes(dp->sparse));
    /* a case holds LAD_METAMAX metadata words (8 chunks each): 1of2 with
    ** k 78 would need 5, read and written past the case */
    if (lad_datapath_nmeta(dp) > LAD_METAMAX)
        return lad_errf_key(err, LAD_EDATA, "k", "k %d with this sparsity needs %d metadata words; "
                            "a case holds %d (k at most %d)", dp->k, lad_datapath_nmeta(dp),
                            LAD_METAMAX, LAD_METAMAX * 8 * chunk_lanes(dp->sparse));
    /* a case holds LAD_SCALEMAX scales of each operand, integer or not */
    if (lad_datapath_nscales(dp) > LAD_SCALEMAX)
        return lad_errf_key(err, LAD_EDATA, "scale_block", "more than %d scale blocks", LAD_SCALEMAX);
    if (dp->integer) {
        if (dp->a.kind != LAD_INT || dp->b.kind != LAD_INT || dp->c.kind != LAD_INT ||
            dp->d.kind != LAD_INT)
            return lad_errf_key(err, LAD_EDATA, "integer", "an integer datapath needs integer formats a, b, c and d");
        if (dp->a.width > 16 || dp->b.width > 16)
            return lad_errf_key(err, LAD_EDATA, "a", "integer a and b must be 16 bits or narrower");
        return LAD_OK;
    }
    if (dp->a.kind != LAD_FLOAT || dp->b.kind != LAD_FLOAT || dp->c.kind != LAD_FLOAT ||
        dp->d.kind != LAD_FLOAT || dp->acc.kind != LAD_FLOAT)
        return lad_errf_key(err, LAD_EDATA, "integer", "a float datapath needs float formats a, b, c, d and acc");
    /* the group rows act on block-scaled datapaths only: the sum of an
    ** unscaled one would read them too, so they are refused there rather
    ** than left to change words the registry says they cannot */
    if (dp->scale_block == 0 && (dp->group != 1 || dp->scale_floor != LAD_NOFLOOR ||
                                 dp->cdom_window > 0 || dp->cdom_per_group ||
                                 dp->group_sub_floor != LAD_NOFLOOR))
        return lad_errf_key(err, LAD_EDATA,
                            dp->group != 1 ? "group" : dp->scale_floor != LAD_NOFLOOR ? "scale_floor"
                            : dp->cdom_window > 0 ? "cdom_window"
                            : dp->cdom_per_group ? "cdom_per_group" : "group_sub_floor",
                            "group, scale_floor, cdom_window, cdom_per_group and group_sub_floor "
                            "are for block-scaled datapaths (scale_block > 0)");
    if (dp->window2 > 0 && (dp->cdom_window > 0 || dp->scale_floor != LAD_NOFLOOR ||
                            dp->group_sub_floor != LAD_NOFLOOR))
        return lad_errf_key(err, LAD_EDATA, "window2",
                            "a two-level window goes with no cdom_window, scale_floor or group_sub_floor");
    if (dp->window2 == 0 && (dp->even_odd || dp->norm2 || dp->c2_drop))
        return lad_errf_key(err, LAD_EDATA, dp->even_odd ? "even_odd" : dp->norm2 ? "norm2" : "c2_drop",
                            "even_odd, norm2 and c2_drop need a two-level window (window2 > 0)");
    if (dp->even_odd && dp->group != 1)
        return lad_errf_key(err, LAD_EDATA, "even_odd", "even_odd goes with group 1");
    if ((dp->exact || dp->tree) && (dp->window2 > 0 || dp->scale_block > 0 || dp->group != 1 ||
                                    dp->cdom_window > 0 || (dp->exact && dp->tree)))
        return lad_errf_key(err, LAD_EDATA, dp->exact ? "exact" : "tree",
                            "exact and tree go with no other summation: no window2, "
                            "scaling, group, cdom_window, nor each other");
    if (dp->tree && (dp->chain != LAD_SUM || dp->c_last))
        return lad_errf_key(err, LAD_EDATA, "tree", "tree needs chain sum and no c_last");
    if (dp->ieee_zero && !dp->exact)
        return lad_errf_key(err, LAD_EDATA, "ieee_zero", "ieee_zero needs exact");
    /* a pass of one product has two terms, added whatever their gap */
    if (dp->exact && dp->pass > 1 && exact_span(dp) > LAD_EXACT_BITS)
        return lad_errf_key(err, LAD_EDATA, "exact",
                            "exact sums of these formats span %d bits; at most %d are held",
                            exact_span(dp), LAD_EXACT_BITS);
    if (dp->pass < 1 || dp->pass > lad_datapath_kphys(dp))
        return lad_errf_key(err, LAD_EDATA, "pass", "pass must be 1..%d, not %d", lad_datapath_kphys(dp), dp->pass);
    if (dp->scale_block > 0) {
        if (dp->sa.kind != LAD_FLOAT || dp->sb.kind != LAD_FLOAT || dp->sa.sign || dp->sb.sign)
            return lad_errf_key(err, LAD_EDATA, "sa", "scale formats must be unsigned floats");
    }
    if (dp->group > 1 || dp->cdom_window > 0) {
        /* Group sums are exact only while a group shares its scales and its
        ** products' exponents span few bits; keep both true, for each group
        ** size in use: group's, and cdom_group's when that path is on. */
        const int gs[2] = {dp->group, dp->cdom_window > 0 ? dp->cdom_group : 1};
        const char *gk[2] = {"group", "cdom_group"};
        for (int i = 0; i < 2; i++) {
            int g = gs[i];
            if (g <= 1)
                continue;
            if (dp->scale_block > 0 && dp->scale_block % g)
                return lad_errf_key(err, LAD_EDATA, gk[i],
                                    "groups (%s %d) must not straddle scale blocks (%d)", gk[i],
                                    g, dp->scale_block);
            if (dp->pass % g && dp->pass != lad_datapath_kphys(dp))
                return lad_errf_key(err, LAD_EDATA, gk[i],
                                    "groups (%s %d) must not straddle passes (%d)", gk[i], g,
                                    dp->pass);
        }
        if (dp->norder)
            return lad_errf_key(err, LAD_EDATA, "order", "a lane order cannot go with exact group sums");
        if (format_span(&dp->a) + format_span(&dp->b) > 80)
            return lad_errf_key(err, LAD_EDATA, "group",
                                "exact group sums need formats of narrow range (a %s, b %s)",
                                dp->a.name, dp->b.name);
    }
    if (dp->norder) {
        if (dp->norder != lad_datapath_kphys(dp))
            return lad_errf_key(err, LAD_EDATA, "order", "order has %d lanes, not %d", dp->norder,
                            lad_datapath_kphys(dp));
        unsigned char seen[LAD_KMAX] = {0};
        for (int i = 0; i < dp->norder; i++) {
            if (dp->order[i] >= dp->norder || seen[dp->order[i]]++)
                return lad_errf_key(err, LAD_EDATA, "order", "order is not a permutation of 0..%d",
                                dp->norder - 1);
        }
    }
    if (dp->nan & ~(lad_format_mask(&dp->d) | (((lad_word_t)1 << dp->d.pad) - 1)))
        return lad_errf_key(err, LAD_EDATA, "nan", "nan word 0x%" PRIx64 " does not fit format %s", dp->nan, dp->d.name);
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
int lad_select_lanes(const lad_datapath *dp, const lad_case *cs, int *lanes)
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
