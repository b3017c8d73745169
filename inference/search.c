/*
** The model search (search.h): one set of candidates and one scorer, two
** strategies (the beam and the staged sweep).
**
** A model is a vector of value codes (pvec), one per registry row, applied
** to the base datapath. Rows that cannot change the result of a model (the
** row's `matters` rule: acc with one pass and no double rounding, scale
** parameters of unscaled kinds, ...) are reset to base's value, so that one
** model has one vector and the visited set never evaluates it twice.
**
** Scores: a case a model gets right scores 0; a wrong one scores 1, or for
** the beam 1 plus the bit length of the distance between the two words
** read as ordered integers (capped at 33). Summed over the cases, the
** graded score ranks "almost right" above "wrong", which is what lets a
** one-dimension-at-a-time search walk to the answer. Scoring stops as soon
** as a model passes the limit it must beat; the staged sweep moves the
** cases that fail to the front, so that most wrong candidates are turned
** down after a handful of evaluations.
*/
#include "search.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NP LAD_NPARAMS_MAX
#define MAXV LAD_PARAM_MAXCANDS

typedef struct pvec {
    int64_t v[NP];
} pvec;

typedef struct entry {
    pvec p;
    uint64_t score;   /* on the active set */
    uint64_t miss;    /* mismatches on the active set */
    int cplx;         /* parameters away from their defaults */
} entry;

#define VISIT_SIZE (1u << 17)  /* first size of the visited set; it doubles */
#define MAXBEAM 64
#define MAXITER 12
#define MAXROUNDS 16
#define HOT 64                 /* front of the staged sweep's case order */

typedef struct ctx {
    const lad_datapath *base;
    const lad_case *cs;
    const lad_packed *pk;  /* instead of cs: the cases packed (ladder fit) */
    const lad_word_t *d;
    size_t n;
    int kphys;
    uint64_t fixed;
    uint64_t dims;       /* bit i: registry row i is a dimension */
    int nvals[NP];
    int64_t vals[NP][MAXV];
    pvec basep;
    pvec defp;           /* lad_datapath_init's values for base's instruction */
    lad_word_t nan;        /* the NaN word of the data (or base's) */
    int has_nan;
    /* distance reading of d words */
    int dsignbit;        /* bit of d's sign, -1 when none */
    int dint;            /* d is an integer format */
    lad_word_t dmask;
    /* the beam's active set */
    size_t *active;
    size_t nactive;
    unsigned char *inactive;  /* 1: case i is in the active set */
    uint64_t *visit;     /* hashes of evaluated vectors, 0 = empty */
    size_t nvslot;       /* slots of visit, a power of two */
    size_t nvisit;       /* hashes in it; kept below half of nvslot */
    uint64_t evals;
    entry beam[MAXBEAM];
    int nbeam, beamcap;
} ctx;

static const lad_param *row(int i)
{
    return &lad_params[i];
}

static int row_of(const char *key)
{
    const lad_param *p = lad_param_find(key);
    return p ? lad_param_index(p) : -1;
}

/* ---- candidates ---------------------------------------------------------- */

static void add_val(ctx *x, int i, int64_t v)
{
    for (int j = 0; j < x->nvals[i]; j++)
        if (x->vals[i][j] == v)
            return;
    if (x->nvals[i] < MAXV)
        x->vals[i][x->nvals[i]++] = v;
}

/* The candidates of every row (the registry's), the NaN words the data
** holds for nan, and base's own values. */
static void build_cands(ctx *x)
{
    const lad_datapath *b = x->base;
    for (int i = 0; i < lad_nparams && i < NP; i++) {
        x->nvals[i] = lad_param_cands(row(i), b, x->vals[i], MAXV);
        x->basep.v[i] = lad_param_get(row(i), b, b);
        if (x->nvals[i] > 0)
            add_val(x, i, x->basep.v[i]);
    }
    if (x->nvals[LAD_P_nan] > 0)
        for (size_t c = 0; c < x->n; c++)
            if (lad_decode(&b->d, x->d[c]).cls == LAD_NAN)
                add_val(x, LAD_P_nan, (int64_t)x->d[c]);
}

/* ---- models ------------------------------------------------------------- */

static void apply(const ctx *x, const pvec *p, lad_datapath *dp)
{
    *dp = *x->base;
    /* a row at base's value is base's field already */
    for (int i = 0; i < lad_nparams; i++)
        if ((x->dims >> i & 1) && p->v[i] != x->basep.v[i])
            lad_param_set(row(i), dp, x->base, p->v[i]);
    if (x->has_nan)
        dp->nan = x->nan;
}

/* Whether row i can change what the model p computes. */
static int relevant(const ctx *x, const lad_datapath *dp, int i)
{
    return (x->dims >> i & 1) && x->nvals[i] >= 2 && lad_param_matters(row(i), dp);
}

/* Resets the rows that do not matter to base's values. */
static void canon(const ctx *x, pvec *p)
{
    lad_datapath dp;
    apply(x, p, &dp);
    for (int i = 0; i < lad_nparams; i++)
        if (!relevant(x, &dp, i))
            p->v[i] = x->basep.v[i];
}

/* How many rows of p differ from their defaults: among models that score
** the same, the simpler one ranks first (Occam, inside the search). */
static int complexity(const ctx *x, const pvec *p)
{
    int c = 0;
    for (int i = 0; i < lad_nparams; i++)
        c += (x->dims >> i & 1) && p->v[i] != x->defp.v[i];
    return c;
}

static uint64_t phash(const pvec *p)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (int i = 0; i < lad_nparams; i++) {
        h ^= (uint64_t)p->v[i];
        h *= 0x100000001b3ull;
        h ^= h >> 29;
    }
    return h ? h : 1;
}

/* Puts h into the open-addressed set of size slots (a power of two, not
** full); returns 1 when it was new. */
static int vset_put(uint64_t *set, size_t size, uint64_t h)
{
    for (size_t i = (size_t)(h >> 20) & (size - 1);; i = (i + 1) & (size - 1)) {
        if (set[i] == h)
            return 0;
        if (set[i] == 0) {
            set[i] = h;
            return 1;
        }
    }
}

/* Forgets every visited vector. */
static void visit_clear(ctx *x)
{
    memset(x->visit, 0, sizeof(uint64_t) * x->nvslot);
    x->nvisit = 0;
}

/* Marks p visited; returns 1 when it was new. The set doubles when half
** full, so that a probe stays short however long the search runs. */
static int visit(ctx *x, const pvec *p)
{
    if (2 * (x->nvisit + 1) > x->nvslot) {
        size_t size = 2 * x->nvslot;
        uint64_t *set = calloc(size, sizeof(uint64_t));
        if (set) {
            for (size_t i = 0; i < x->nvslot; i++)
                if (x->visit[i])
                    vset_put(set, size, x->visit[i]);
            free(x->visit);
            x->visit = set;
            x->nvslot = size;
        } else if (x->nvisit + 1 >= x->nvslot) {
            return 1;  /* out of memory and full: evaluate again rather than fail */
        }
    }
    int fresh = vset_put(x->visit, x->nvslot, phash(p));
    x->nvisit += (size_t)fresh;
    return fresh;
}

/* ---- scoring --------------------------------------------------------------- */

static int64_t ordered(const ctx *x, lad_word_t w)
{
    w &= x->dmask;
    if (x->dint) {
        if (x->dsignbit >= 0 && (w >> x->dsignbit) & 1)
            return (int64_t)(w | ~x->dmask);  /* sign-extended */
        return (int64_t)w;
    }
    if (x->dsignbit >= 0 && (w >> x->dsignbit) & 1)
        return -(int64_t)(w & ~((lad_word_t)1 << x->dsignbit));
    return (int64_t)w;
}

static uint64_t case_score(const ctx *x, lad_word_t got, lad_word_t want)
{
    if (got == want)
        return 0;
    int64_t a = ordered(x, got), b = ordered(x, want);
    uint64_t dist = a > b ? (uint64_t)(a - b) : (uint64_t)(b - a);
    int bits = dist ? 64 - __builtin_clzll(dist) : 0;
    return 1 + (uint64_t)(bits > 32 ? 32 : bits);
}

/* How score() weighs and orders. */
enum { COUNT = 0, GRADED = 1, REORDER = 2 };

/*
** The score of dp over the cases idx[0..m-1] that lie below end: a miss
** counts 1 (COUNT) or its case_score (GRADED). Stops as soon as the score
** exceeds limit. With REORDER, a missed case moves one place toward the
** front of idx, or into its first HOT places (*hotnext says which one
** next). *miss, when not NULL, gets the mismatches counted.
*/
/* Case c, from the array or unpacked into *tmp (zeroed by the caller once:
** lad_packed_get writes only the lanes the case has). */
static const lad_case *case_at(const ctx *x, size_t c, lad_case *tmp)
{
    if (!x->pk)
        return &x->cs[c];
    lad_packed_get(x->pk, c, tmp);
    return tmp;
}

static uint64_t score(ctx *x, const lad_datapath *dp, size_t *idx, size_t m, size_t end,
                      uint64_t limit, int how, int *hotnext, uint64_t *miss)
{
    uint64_t s = 0, mm = 0;
    lad_plan pl;
    lad_plan_init(&pl, dp);
    lad_case tmp;
    if (x->pk)
        memset(&tmp, 0, sizeof tmp);
    for (size_t i = 0; i < m; i++) {
        size_t c = idx[i];
        if (c >= end)
            continue;
        lad_word_t got = lad_plan_eval(&pl, case_at(x, c, &tmp));
        x->evals++;
        if (got == x->d[c])
            continue;
        mm++;
        s += how & GRADED ? case_score(x, got, x->d[c]) : 1;
        if (how & REORDER && i > 0) {
            size_t to = i < HOT ? i - 1 : (size_t)(*hotnext)++ % HOT;
            idx[i] = idx[to];
            idx[to] = c;
        }
        if (s > limit)
            break;
    }
    if (miss)
        *miss = mm;
    return s;
}

uint64_t lad_search_count(const lad_datapath *dp, const lad_case *cs,
                          const lad_word_t *d, size_t n)
{
    uint64_t m = 0;
    lad_plan pl;
    lad_plan_init(&pl, dp);
    for (size_t i = 0; i < n; i++)
        if (lad_plan_eval(&pl, &cs[i]) != d[i])
            m++;
    return m;
}

/* ---- the context ------------------------------------------------------------ */

static ctx *ctx_new(const lad_datapath *base, const lad_case *cs, const lad_word_t *d, size_t n)
{
    ctx *x = calloc(1, sizeof *x);
    if (!x)
        return NULL;
    x->base = base;
    x->cs = cs;
    x->d = d;
    x->n = n;
    x->kphys = lad_datapath_kphys(base);
    x->active = malloc(sizeof(size_t) * (n + 1));
    x->inactive = calloc(n + 1, 1);
    x->visit = calloc(VISIT_SIZE, sizeof(uint64_t));
    x->nvslot = VISIT_SIZE;
    if (!x->active || !x->inactive || !x->visit) {
        free(x->active);
        free(x->inactive);
        free(x->visit);
        free(x);
        return NULL;
    }
    const lad_format *df = &base->d;
    x->dint = df->kind == LAD_INT;
    x->dmask = df->width >= 64 ? ~(lad_word_t)0 : ((lad_word_t)1 << df->width) - 1;
    x->dsignbit = !df->sign ? -1 : x->dint ? df->width - 1 : df->pad + df->ebits + df->mbits;
    build_cands(x);
    lad_datapath def;
    lad_datapath_init(&def);
    for (int i = 0; i < lad_nparams; i++) {
        const lad_param *p = row(i);
        /* the instruction's own fields are base's; the arithmetic defaults */
        x->defp.v[i] = p->cands ? lad_param_get(p, &def, base) : x->basep.v[i];
        if (x->nvals[i] > 0)
            x->dims |= 1ull << i;
    }
    return x;
}

static void ctx_free(ctx *x)
{
    if (!x)
        return;
    free(x->active);
    free(x->inactive);
    free(x->visit);
    free(x);
}

/* ---- the beam -------------------------------------------------------------- */

static uint64_t beam_limit(const ctx *x)
{
    return x->nbeam < x->beamcap ? UINT64_MAX : x->beam[x->nbeam - 1].score;
}

static int entry_less(const entry *a, const entry *b)
{
    if (a->score != b->score)
        return a->score < b->score;
    return phash(&a->p) < phash(&b->p);
}

/* Inserts e when it ranks among the beam's best; returns 1 when inserted. */
static int beam_insert(ctx *x, const entry *e)
{
    if (x->nbeam == x->beamcap && !entry_less(e, &x->beam[x->nbeam - 1]))
        return 0;
    int i = x->nbeam < x->beamcap ? x->nbeam++ : x->nbeam - 1;
    while (i > 0 && entry_less(e, &x->beam[i - 1])) {
        x->beam[i] = x->beam[i - 1];
        i--;
    }
    x->beam[i] = *e;
    return 1;
}

/* Evaluates candidate p on the active set and offers it to the beam. */
static int try_candidate(ctx *x, pvec p)
{
    canon(x, &p);
    if (!visit(x, &p))
        return 0;
    lad_datapath dp;
    apply(x, &p, &dp);
    if (lad_datapath_check(&dp, NULL) != LAD_OK)
        return 0;
    entry e;
    e.p = p;
    e.cplx = complexity(x, &p);
    uint64_t lim = beam_limit(x);
    e.score = score(x, &dp, x->active, x->nactive, x->n, lim, GRADED, NULL, &e.miss);
    if (e.score > lim)
        return 0;
    return beam_insert(x, &e);
}

/* Number of fraction bits the data shows D keeps: d's mbits less the
** trailing zero bits every normal D word has (0 when no word says). */
static int output_bits(const ctx *x)
{
    const lad_format *f = &x->base->d;
    if (f->kind != LAD_FLOAT || !lad_format_f32_family(f))
        return 0;
    int tz = f->mbits, seen = 0;
    for (size_t i = 0; i < x->n; i++) {
        lad_value v = lad_decode(f, x->d[i]);
        if (v.cls != LAD_NORMAL)
            continue;
        uint64_t frac = v.mag & (((uint64_t)1 << f->mbits) - 1);
        int t = frac ? __builtin_ctzll(frac) : f->mbits;
        if (t < tz)
            tz = t;
        seen++;
    }
    if (seen < 16 || tz == 0 || f->mbits - tz < 1)
        return 0;
    return f->mbits - tz;
}

/* The grid over the dimensions that interact most. */
static void grid(ctx *x)
{
    enum { NG = 16 };
    int gd[NG], cnt[NG], at[NG], ng = 0;
    for (int i = 0; i < lad_nparams && ng < NG; i++)
        if (row(i)->flags & LAD_PF_GRID)
            gd[ng++] = i;
    int acc = LAD_P_acc, via = LAD_P_d_via_acc;
    int cut = output_bits(x);
    if (cut)
        add_val(x, acc, cut);
    int nout = cut && !(x->fixed >> acc & 1) ? 2 : 1;
    for (int g = 0; g < ng; g++) {
        int on = (x->dims >> gd[g] & 1) && !(x->fixed >> gd[g] & 1) && !x->base->integer;
        cnt[g] = on ? x->nvals[gd[g]] : 1;
    }
    for (int out = 0; out < nout; out++) {
        for (int g = 0; g < ng; g++)
            at[g] = 0;
        for (;;) {
            pvec p = x->basep;
            for (int g = 0; g < ng; g++)
                if (cnt[g] > 1)
                    p.v[gd[g]] = x->vals[gd[g]][at[g]];
            if (out) {
                p.v[acc] = cut;
                p.v[via] = 1;
            }
            try_candidate(x, p);
            int g = ng - 1;
            while (g >= 0 && ++at[g] >= cnt[g])
                at[g--] = 0;
            if (g < 0)
                break;
        }
    }
}

/* Improves the beam one dimension at a time until it stops changing. */
static void descend(ctx *x)
{
    for (int round = 0; round < MAXROUNDS; round++) {
        entry snap[MAXBEAM];
        int ns = x->nbeam;
        memcpy(snap, x->beam, sizeof(entry) * (size_t)ns);
        int changed = 0;
        for (int e = 0; e < ns; e++) {
            lad_datapath dp;
            apply(x, &snap[e].p, &dp);
            for (int i = 0; i < lad_nparams; i++) {
                if ((x->fixed >> i & 1) || !relevant(x, &dp, i))
                    continue;
                for (int j = 0; j < x->nvals[i]; j++) {
                    pvec p = snap[e].p;
                    if (p.v[i] == x->vals[i][j])
                        continue;
                    p.v[i] = x->vals[i][j];
                    changed |= try_candidate(x, p);
                }
            }
        }
        if (!changed)
            break;
    }
}

static void add_active(ctx *x, size_t c)
{
    if (x->inactive[c])
        return;
    x->inactive[c] = 1;
    x->active[x->nactive++] = c;
}

typedef struct scored {
    pvec p;
    uint64_t miss;    /* over every case */
    uint64_t score;
    int cplx;
} scored;

static int scored_less(const scored *a, const scored *b)
{
    if (a->miss != b->miss)
        return a->miss < b->miss;
    return a->score != b->score ? a->score < b->score : a->cplx < b->cplx;
}

/* Keeps the LAD_SEARCH_KEEP best distinct models seen on every case. */
static void keep_best(scored *best, int *nbest, const scored *s)
{
    for (int i = 0; i < *nbest; i++)
        if (memcmp(&best[i].p, &s->p, sizeof s->p) == 0)
            return;
    int i;
    if (*nbest < LAD_SEARCH_KEEP)
        i = (*nbest)++;
    else if (scored_less(s, &best[*nbest - 1]))
        i = *nbest - 1;
    else
        return;
    while (i > 0 && scored_less(s, &best[i - 1])) {
        best[i] = best[i - 1];
        i--;
    }
    best[i] = *s;
}

/* The NaN word of the data: the most frequent D word that is a NaN of d. */
static void data_nan(ctx *x)
{
    lad_word_t words[8];
    size_t counts[8];
    int nw = 0;
    for (size_t i = 0; i < x->n; i++) {
        if (lad_decode(&x->base->d, x->d[i]).cls != LAD_NAN)
            continue;
        int j = 0;
        while (j < nw && words[j] != x->d[i])
            j++;
        if (j == nw) {
            if (nw == 8)
                continue;
            words[nw] = x->d[i];
            counts[nw++] = 0;
        }
        counts[j]++;
    }
    if (nw == 0)
        return;
    int b = 0;
    for (int j = 1; j < nw; j++)
        if (counts[j] > counts[b])
            b = j;
    x->nan = words[b];
    x->has_nan = 1;
}

/* Records the values of p's rows that matter. */
static void mark(const ctx *x, const pvec *p, lad_search_result *res)
{
    lad_datapath dp;
    apply(x, p, &dp);
    for (int i = 0; i < lad_nparams; i++) {
        if (!relevant(x, &dp, i))
            continue;
        for (int j = 0; j < x->nvals[i]; j++)
            if (x->vals[i][j] == p->v[i] && !res->undet[i][j]) {
                res->undet[i][j] = 1;
                res->nundet[i]++;
            }
    }
}

/* Explores the models that do as well as the best, one change at a time. */
static void explore_equal(ctx *x, const pvec *best, uint64_t target, int cap,
                          lad_search_result *res)
{
    size_t *order = malloc(sizeof(size_t) * x->n);
    pvec *queue = malloc(sizeof(pvec) * (size_t)cap);
    if (!order || !queue) {
        free(order);
        free(queue);
        return;
    }
    size_t no = 0;
    for (size_t i = 0; i < x->nactive; i++)
        order[no++] = x->active[i];
    for (size_t i = 0; i < x->n; i++)
        if (!x->inactive[i])
            order[no++] = i;
    visit_clear(x);
    int nq = 0;
    pvec b = *best;
    canon(x, &b);
    queue[nq++] = b;
    visit(x, &b);
    mark(x, &b, res);
    for (int qi = 0; qi < nq; qi++) {
        pvec cur = queue[qi];
        lad_datapath cdp;
        apply(x, &cur, &cdp);
        for (int i = 0; i < lad_nparams; i++) {
            if ((x->fixed >> i & 1) || !relevant(x, &cdp, i))
                continue;
            for (int j = 0; j < x->nvals[i]; j++) {
                pvec p = cur;
                if (p.v[i] == x->vals[i][j])
                    continue;
                p.v[i] = x->vals[i][j];
                canon(x, &p);
                if (!visit(x, &p))
                    continue;
                lad_datapath dp;
                apply(x, &p, &dp);
                if (lad_datapath_check(&dp, NULL) != LAD_OK)
                    continue;
                uint64_t miss;
                score(x, &dp, order, no, x->n, target, COUNT, NULL, &miss);
                if (miss > target)
                    continue;
                queue[nq++] = p;
                mark(x, &p, res);
                if (nq == cap) {
                    /* enough: the first layer (one change from the best)
                    ** is complete unless the cap is below it */
                    res->equal_capped = 1;
                    goto out;
                }
            }
        }
    }
out:
    /* a row with one value among them is determined */
    for (int i = 0; i < lad_nparams; i++)
        if (res->nundet[i] < 2) {
            res->nundet[i] = 0;
            memset(res->undet[i], 0, sizeof res->undet[i]);
        }
    res->nequal = nq;
    free(order);
    free(queue);
}

/* The beam's dimensions: every searchable row but d and nan (search.h). */
static void beam_dims(ctx *x)
{
    x->dims &= ~(1ull << LAD_P_d);
    x->dims &= ~(1ull << LAD_P_nan);
}

static pvec pvec_of(const ctx *x, const lad_datapath *dp)
{
    pvec p = x->basep;
    for (int i = 0; i < lad_nparams; i++)
        if (x->dims >> i & 1)
            p.v[i] = lad_param_get(row(i), dp, x->base);
    return p;
}

/* lad_search on the cases cs, or packed in pk when cs is NULL. */
static int search(const lad_datapath *base, const lad_case *cs, const lad_packed *pk,
                  const lad_word_t *d, size_t n, const lad_search_opts *opts,
                  lad_search_result *res, lad_err *err)
{
    lad_search_opts o = {0};
    if (opts)
        o = *opts;
    if (o.prefix == 0)
        o.prefix = 128;
    if (o.beam == 0)
        o.beam = 16;
    if (o.max_equal == 0)
        o.max_equal = 200;
    if (o.beam < 1 || o.beam > MAXBEAM || o.max_equal < 1 || n == 0 || o.nseeds < 0)
        return lad_errf(err, LAD_EUSAGE, "bad search options (beam 1..%d, cases >= 1)", MAXBEAM);
    int rc = lad_datapath_check(base, err);
    if (rc)
        return rc;
    memset(res, 0, sizeof *res);
    ctx *x = ctx_new(base, cs, d, n);
    if (!x)
        return lad_errf(err, LAD_EINTERNAL, "out of memory");
    x->pk = pk;
    x->fixed = o.fixed;
    x->beamcap = o.beam;
    lad_case tmp;
    memset(&tmp, 0, sizeof tmp);
    beam_dims(x);
    /* the seeds' own values always belong */
    for (int s = 0; s < o.nseeds; s++)
        for (int i = 0; i < lad_nparams; i++)
            if (x->dims >> i & 1)
                add_val(x, i, lad_param_get(row(i), &o.seeds[s], base));
    data_nan(x);

    size_t p0 = o.prefix < n ? o.prefix : n;
    for (size_t i = 0; i < p0; i++)
        add_active(x, i);

    scored best[LAD_SEARCH_KEEP];
    int nbest = 0;
    for (int iter = 0; iter < MAXITER; iter++) {
        visit_clear(x);
        /* re-rank the previous beam on the grown active set */
        entry old[MAXBEAM];
        int nold = x->nbeam;
        memcpy(old, x->beam, sizeof(entry) * (size_t)nold);
        x->nbeam = 0;
        for (int i = 0; i < nold; i++)
            try_candidate(x, old[i].p);
        if (iter == 0) {
            try_candidate(x, x->basep);
            for (int s = 0; s < o.nseeds; s++)
                try_candidate(x, pvec_of(x, &o.seeds[s]));
            grid(x);
        }
        descend(x);

        /* the survivors on every case; what they miss becomes active */
        size_t added = 0;
        for (int i = 0; i < x->nbeam; i++) {
            lad_datapath dp;
            apply(x, &x->beam[i].p, &dp);
            scored s = {x->beam[i].p, 0, 0, x->beam[i].cplx};
            size_t mine = 0;
            lad_plan pl;
            lad_plan_init(&pl, &dp);
            for (size_t c = 0; c < n; c++) {
                lad_word_t got = lad_plan_eval(&pl, case_at(x, c, &tmp));
                x->evals++;
                if (got == d[c])
                    continue;
                s.miss++;
                s.score += case_score(x, got, d[c]);
                if (!x->inactive[c] && mine < 8 && added < 256) {
                    add_active(x, c);
                    mine++;
                    added++;
                }
            }
            keep_best(best, &nbest, &s);
        }
        if (nbest > 0 && best[0].miss == 0)
            break;
        if (added == 0)
            break;
    }

    for (int i = 0; i < nbest; i++) {
        apply(x, &best[i].p, &res->best[i].dp);
        res->best[i].mismatches = best[i].miss;
    }
    res->nbest = nbest;
    res->base = *base;
    for (int i = 0; i < lad_nparams; i++)
        if (x->dims >> i & 1) {
            res->nvals[i] = x->nvals[i];
            memcpy(res->vals[i], x->vals[i], sizeof res->vals[i]);
        }
    if (nbest > 0)
        explore_equal(x, &best[0].p, best[0].miss, o.max_equal, res);
    res->evals = x->evals;
    res->active = x->nactive;
    ctx_free(x);
    return LAD_OK;
}

int lad_search(const lad_datapath *base, const lad_case *cs, const lad_word_t *d,
               size_t n, const lad_search_opts *opts, lad_search_result *res,
               lad_err *err)
{
    return search(base, cs, NULL, d, n, opts, res, err);
}

int lad_search_packed(const lad_datapath *base, const lad_packed *pk, const lad_word_t *d,
                      const lad_search_opts *opts, lad_search_result *res, lad_err *err)
{
    return search(base, NULL, pk, d, pk->n, opts, res, err);
}

/* ---- the staged sweep ---------------------------------------------------- */

#define MAXGROUP LAD_SWEEP_MAXROWS   /* rows in one joint group */

typedef lad_sweep_group group;

typedef struct sweep {
    ctx *x;
    pvec cur;            /* the current model */
    pvec def;            /* the starting values: what a row no case can see keeps */
    size_t *order;       /* every case, those that failed lately first */
    int hotnext;
    size_t end;          /* cases [0, end) take part */
} sweep;

/* Parses "window align_round c_anchor" into g. */
static int parse_group(const char *s, group *g, lad_err *err)
{
    g->n = 0;
    while (*s) {
        size_t l = strcspn(s, " ");
        char key[40];
        if (l > 0) {
            snprintf(key, sizeof key, "%.*s", (int)l, s);
            int r = row_of(key);
            if (r < 0 || g->n == MAXGROUP)
                return lad_errf(err, LAD_EDATA, "bad parameter group '%s'", s);
            g->rows[g->n++] = r;
        }
        s += l;
        while (*s == ' ')
            s++;
    }
    return LAD_OK;
}

static uint64_t sweep_score(sweep *w, const pvec *p, uint64_t limit)
{
    lad_datapath dp;
    apply(w->x, p, &dp);
    return score(w->x, &dp, w->order, w->x->n, w->end, limit, COUNT | REORDER, &w->hotnext, NULL);
}

static int legal(const sweep *w, const pvec *p)
{
    lad_datapath dp;
    apply(w->x, p, &dp);
    return lad_datapath_check(&dp, NULL) == LAD_OK;
}

/* Searches the rows of g jointly over their candidates; returns 1 when a
** value changed. *best holds the current score on entry and exit. */
static int sweep_group(sweep *w, const group *g, uint64_t *best)
{
    const ctx *x = w->x;
    int idx[MAXGROUP] = {0};
    for (int i = 0; i < g->n; i++)
        if (x->nvals[g->rows[i]] == 0)
            return 0;
    pvec bestp = w->cur;
    int changed = 0;
    for (;;) {
        pvec p = w->cur;
        for (int i = 0; i < g->n; i++)
            p.v[g->rows[i]] = x->vals[g->rows[i]][idx[i]];
        if (legal(w, &p)) {
            uint64_t s = sweep_score(w, &p, *best - 1);
            if (s < *best) {
                *best = s;
                bestp = p;
                changed = 1;
            }
        }
        int i = 0;
        while (i < g->n && ++idx[i] == x->nvals[g->rows[i]])
            idx[i++] = 0;
        if (i == g->n)
            break;
    }
    w->cur = bestp;
    return changed;
}

/* Runs the groups gs[0..ng-1] in turn until a whole sweep changes nothing
** or the cases all fit. */
static void sweep_groups(sweep *w, const group *gs, int ng, uint64_t *best)
{
    for (int round = 0; round < 8 && *best > 0; round++) {
        int changed = 0;
        for (int g = 0; g < ng && *best > 0; g++)
            changed |= sweep_group(w, &gs[g], best);
        if (!changed)
            break;
    }
}

/* Occam: a row whose starting value explains the cases as well as its
** fitted value takes the starting value. */
static void occam(sweep *w)
{
    uint64_t now = sweep_score(w, &w->cur, UINT64_MAX);
    for (int i = 0; i < lad_nparams; i++) {
        if (w->x->nvals[i] == 0 || w->cur.v[i] == w->def.v[i])
            continue;
        pvec p = w->cur;
        p.v[i] = w->def.v[i];
        if (legal(w, &p) && sweep_score(w, &p, now) <= now)
            w->cur = p;
    }
}

/*
** When the groups end with cases they cannot explain, the sweep is stuck
** where no one group can move alone (the window and the alignment together
** with the pass and final roundings, say): the beam, seeded with the model
** found, varies every parameter at once. Its answer replaces the current
** model when it explains strictly more cases. Unscaled datapaths only.
** Returns 1 when it did.
*/
static int rescue(sweep *w)
{
    ctx *x = w->x;
    uint64_t now = sweep_score(w, &w->cur, UINT64_MAX);
    if (now == 0 || x->base->scale_block > 0 || x->base->integer)
        return 0;
    lad_search_result *res = malloc(sizeof *res);
    int took = 0;
    lad_datapath seed;
    apply(x, &w->cur, &seed);
    if (res) {
        lad_search_opts so = {0};
        so.seeds = &seed;
        so.nseeds = 1;
        if (lad_search(&seed, x->cs, x->d, x->n, &so, res, NULL) == LAD_OK && res->nbest > 0 &&
            res->best[0].mismatches < now) {
            pvec p = pvec_of(x, &res->best[0].dp);
            /* the beam's values may lie outside the sweep's candidates
            ** (its NaN word from the data): take them as they are */
            for (int i = 0; i < lad_nparams; i++)
                add_val(x, i, p.v[i]);
            w->cur = p;
            took = 1;
        }
    }
    free(res);
    return took;
}

/*
** Stuck with cases unexplained, the sweep may sit in the wrong structure of
** the sum (exact where the datapath adds in a tree, AMD CDNA2 in MMA-Sim;
** exact where fp8 products in passes of 2 fit a narrow window), which no
** one group leaves, since the right structure alone, with the rows tuned to
** the wrong one, explains less. Each other structure (one window, exact,
** tree) restarts the sweep with exact and tree held at it; the first that
** ends explaining strictly more cases is kept. Only sweeps: it runs before
** the beam, which it often spares, and again after it. Returns 1 when a
** structure was kept.
*/
static int restructure(sweep *w, const group *gs, int ng)
{
    ctx *x = w->x;
    int re = LAD_P_exact, rt = LAD_P_tree;
    uint64_t now = sweep_score(w, &w->cur, UINT64_MAX);
    if (now == 0 || x->nvals[re] == 0 || x->nvals[rt] == 0)
        return 0;
    static const int shapes[3][2] = {{0, 0}, {1, 0}, {0, 1}};
    pvec was = w->cur;
    /* what holding overwrites: the counts and the first candidates */
    int nre = x->nvals[re], nrt = x->nvals[rt];
    int64_t vre = x->vals[re][0], vrt = x->vals[rt][0];
    int took = 0;
    for (int i = 0; i < 3 && !took; i++) {
        if (was.v[re] == shapes[i][0] && was.v[rt] == shapes[i][1])
            continue;
        pvec p = was;
        p.v[re] = shapes[i][0];
        p.v[rt] = shapes[i][1];
        if (!legal(w, &p))
            continue;
        /* the structure held while the other rows follow it: the groups
        ** that hold exact or tree would take the old one straight back */
        x->nvals[re] = x->nvals[rt] = 1;
        x->vals[re][0] = shapes[i][0];
        x->vals[rt][0] = shapes[i][1];
        w->cur = p;
        uint64_t best = sweep_score(w, &p, UINT64_MAX);
        sweep_groups(w, gs, ng, &best);
        took = best < now;
        x->nvals[re] = nre;
        x->nvals[rt] = nrt;
        x->vals[re][0] = vre;
        x->vals[rt][0] = vrt;
    }
    if (!took)
        w->cur = was;
    return took;
}

int lad_search_staged(const lad_datapath *start, const lad_case *cs, const lad_word_t *d,
                      size_t n, const lad_stage *stages, size_t nstages, lad_datapath *out,
                      lad_err *err)
{
    /* the joint groups in dependency order: params.def's LAD_SWEEP lines */
    const group *order = lad_sweep_groups;
    const int NORDER = lad_nsweep_groups;
    int rc;
    if ((rc = lad_datapath_check(start, err)))
        return rc;
    *out = *start;
    if (n == 0)
        return LAD_OK;
    sweep w = {0};
    w.x = ctx_new(start, cs, d, n);
    w.order = malloc(sizeof(size_t) * n);
    if (!w.x || !w.order) {
        ctx_free(w.x);
        free(w.order);
        return lad_errf(err, LAD_EINTERNAL, "out of memory");
    }
    ctx *x = w.x;
    for (size_t i = 0; i < n; i++)
        w.order[i] = i;
    w.cur = w.def = x->basep;
    w.end = n;
    rc = LAD_OK;
    /* Each stage's cases are explained by the parameters before the next
    ** stage is asked about; a stage whose cases all fit needs no search. A
    ** stage's own groups go first (sweeps over the others can walk into a
    ** value that explains part of it, such as a pass boundary inside the
    ** last block); only what they leave open goes to every group. */
    for (size_t s = 0; s < nstages && rc == LAD_OK; s++) {
        w.end = stages[s].end < n ? stages[s].end : n;
        uint64_t best = sweep_score(&w, &w.cur, UINT64_MAX);
        group own[8];
        int nown = 0;
        for (int i = 0; stages[s].own && stages[s].own[i] && nown < 8 && rc == LAD_OK; i++)
            rc = parse_group(stages[s].own[i], &own[nown++], err);
        if (rc)
            break;
        if (nown)
            sweep_groups(&w, own, nown, &best);
        sweep_groups(&w, order, NORDER, &best);
    }
    if (rc == LAD_OK) {
        w.end = n;
        if (restructure(&w, order, NORDER))
            occam(&w);
        rescue(&w);
        occam(&w);
        /* Still stuck: the beam again from the simpler model Occam left,
        ** while that explains more (it often reaches further: the rows
        ** Occam resets are the ones the stages guessed). */
        for (int round = 0; round < 2; round++) {
            uint64_t before = sweep_score(&w, &w.cur, UINT64_MAX);
            if (before == 0 || !rescue(&w))
                break;
            occam(&w);
            if (sweep_score(&w, &w.cur, UINT64_MAX) >= before)
                break;
        }
        if (restructure(&w, order, NORDER))
            occam(&w);
        /* An accumulator no case can see takes the result's cut format when
        ** the result was cut (the fp8 paths round both to e8m13): equal
        ** words. */
        lad_datapath dp;
        apply(x, &w.cur, &dp);
        if (!dp.integer && dp.d.mbits < start->d.mbits && start->d.width == 32) {
            uint64_t before = sweep_score(&w, &w.cur, UINT64_MAX);
            pvec p = w.cur;
            p.v[LAD_P_acc] = dp.d.mbits;
            if (legal(&w, &p) && sweep_score(&w, &p, before) <= before)
                w.cur = p;
        }
        /* One level over two: a second level that the cases cannot tell
        ** from a single window (fp8 products, exact under any first level)
        ** gives way to that window, the simpler model. */
        int r2 = LAD_P_window2, r1 = LAD_P_window, ra = LAD_P_c_anchor;
        if (w.cur.v[r2] > 0) {
            uint64_t before = sweep_score(&w, &w.cur, UINT64_MAX);
            int done = 0;
            for (int a = 0; a < 2 && !done; a++)
                for (int j = 0; j < x->nvals[r1] && !done; j++) {
                    pvec p = w.cur;
                    p.v[r2] = 0;
                    p.v[r1] = x->vals[r1][j];
                    p.v[ra] = a ? !w.cur.v[ra] : w.cur.v[ra];
                    if (legal(&w, &p) && sweep_score(&w, &p, before) <= before) {
                        w.cur = p;
                        done = 1;
                    }
                }
        }
        apply(x, &w.cur, out);
    }
    ctx_free(x);
    free(w.order);
    return rc;
}

int lad_search_decide(const lad_datapath *dp, const lad_datapath *base, const lad_param *p,
                      const lad_case *cs, const lad_word_t *d, size_t n, unsigned char *hit,
                      int *nearest)
{
    /* the row's candidates, base's own value and, for nan, the data's NaN
    ** words: what the search could have taken (build_cands), without its
    ** context */
    int64_t *vals = malloc(sizeof(int64_t) * MAXV);
    if (!vals)
        return -1;
    int nv = lad_param_cands(p, base, vals, MAXV);
    for (size_t c = 0; nv > 0 && c <= n; c++) {
        int64_t v;
        if (c == n)
            v = lad_param_get(p, base, base);
        else if (p == &lad_params[LAD_P_nan] && lad_decode(&base->d, d[c]).cls == LAD_NAN)
            v = (int64_t)d[c];
        else
            continue;
        int seen = 0;
        for (int j = 0; j < nv && !seen; j++)
            seen = vals[j] == v;
        if (!seen && nv < MAXV)
            vals[nv++] = v;
    }
    int nalt = 0;
    int64_t v0 = lad_param_get(p, dp, base);
    int range = nv > 16;
    *nearest = range;
    for (int j = 0; j < nv; j++) {
        int64_t v = vals[j];
        if (v == v0)
            continue;
        /* wide ranges: only the neighbours and "none" */
        if (range && v != LAD_NOFLOOR && v0 != LAD_NOFLOOR && (v < v0 - 2 || v > v0 + 2))
            continue;
        if (range && v0 == LAD_NOFLOOR && j > 12)
            continue;
        lad_datapath t = *dp;
        lad_param_set(p, &t, base, v);
        if (lad_datapath_check(&t, NULL) != LAD_OK)
            continue;
        nalt++;
        lad_plan pl;
        lad_plan_init(&pl, &t);
        for (size_t c = 0; c < n; c++)
            if (!hit[c] && lad_plan_eval(&pl, &cs[c]) != d[c])
                hit[c] = 1;
    }
    free(vals);
    return nalt;
}

/* ---- reporting ------------------------------------------------------------- */

static int is_numeric(const lad_param *p)
{
    return p->type == LAD_PT_INT || p->type == LAD_PT_FLOOR;
}

static int cmp_int(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

int lad_search_undetermined(const lad_search_result *res, char *buf, size_t size)
{
    size_t len = 0;
    int count = 0;
    if (size)
        buf[0] = 0;
    for (int r = 0; r < lad_nparams; r++) {
        if (!res->nundet[r])
            continue;
        const lad_param *p = row(r);
        count++;
        int64_t v[MAXV];
        int nv = 0;
        for (int i = 0; i < res->nvals[r]; i++)
            if (res->undet[r][i])
                v[nv++] = res->vals[r][i];
        if (is_numeric(p))
            qsort(v, (size_t)nv, sizeof v[0], cmp_int);
        char line[512];
        int ll = snprintf(line, sizeof line, "%s: ", p->key);
        for (int i = 0; i < nv && ll < (int)sizeof line - 40;) {
            int j = i;
            /* runs of consecutive integers (none sorts first, apart) */
            if (is_numeric(p) && v[i] != LAD_NOFLOOR)
                while (j + 1 < nv && v[j + 1] == v[j] + 1)
                    j++;
            char a[40], b[40];
            lad_param_code_text(p, &res->base, v[i], a, sizeof a);
            if (j >= i + 2) {
                lad_param_code_text(p, &res->base, v[j], b, sizeof b);
                ll += snprintf(line + ll, sizeof line - (size_t)ll, "%s%s..%s",
                               i ? "|" : "", a, b);
            } else {
                ll += snprintf(line + ll, sizeof line - (size_t)ll, "%s%s", i ? "|" : "", a);
                j = i;
            }
            i = j + 1;
        }
        if (len + (size_t)ll + 2 < size) {
            memcpy(buf + len, line, (size_t)ll);
            len += (size_t)ll;
            buf[len++] = '\n';
            buf[len] = 0;
        }
    }
    return count;
}
