/*
** Programs of instructions and lad_gemm (program.h).
**
** lad_gemm packs B column by column once (each output element then reads
** two contiguous runs of K words), or decodes it for the block kernel,
** and gives each thread its own plan and case. Each thread has a share of
** the items (outputs, or the block kernel's (row, block) pairs) and takes
** it in chunks from an atomic counter, then chunks of the others' shares
** (take), so that a thread slowed by the rest of the machine does not hold
** up the end; the threads share only what they read, those counters and,
** when progress is asked for, one atomic count of items done, added to
** once per LAD_GEMM_TICK.
*/
#include "program.h"
#include "datapath_int.h"
#include "gemm_kernel.h"
#include "params.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define F32_ONE 0x3f800000u

const char *const lad_program_keys[] = {
    "name", "evidence", "promote", "split", "reduce", "scale_a", "scale_b",
    "out", "out_round", "out_overflow", NULL
};

static const char *const reduce_names[] = {"serial", "tree", NULL};

void lad_program_init(lad_program *prog)
{
    memset(prog, 0, sizeof *prog);
    prog->split = 1;
    prog->reduce = LAD_REDUCE_SERIAL;
    prog->scale_a = prog->scale_b = F32_ONE;
    prog->out_round = LAD_RNE;
    prog->out_overflow = LAD_OVF_INF;
}

static int name_index(const char *const *names, const char *s)
{
    for (int i = 0; names[i]; i++)
        if (strcmp(names[i], s) == 0)
            return i;
    return -1;
}

/* A whole decimal number in lo..hi, or -1. */
static long decimal(const char *s, long lo, long hi)
{
    char *end;
    if (*s < '0' || *s > '9')
        return -1;
    long v = strtol(s, &end, 10);
    return *end || v < lo || v > hi ? -1 : v;
}

int lad_program_set(lad_program *prog, const char *key, const char *value,
                    lad_err *err)
{
    long n;
    int e;
    if (strcmp(key, "name") == 0 || strcmp(key, "evidence") == 0) {
        char *dst = key[0] == 'n' ? prog->name : prog->evidence;
        size_t size = key[0] == 'n' ? sizeof prog->name : sizeof prog->evidence;
        if (strlen(value) >= size)
            return lad_errf_key(err, LAD_EDATA, key, "'%s' is longer than %zu "
                                "characters", key, size - 1);
        memcpy(dst, value, strlen(value) + 1);
    } else if (strcmp(key, "promote") == 0) {
        if ((n = decimal(value, 0, 1 << 20)) < 0)
            return lad_errf_key(err, LAD_EDATA, key, "'promote' must be 0 (never) "
                                "or a number of MMAs, not '%s'", value);
        prog->promote = (int)n;
    } else if (strcmp(key, "split") == 0) {
        if ((n = decimal(value, 1, LAD_SPLITMAX)) < 0)
            return lad_errf_key(err, LAD_EDATA, key, "'split' must be 1..%d, "
                                "not '%s'", LAD_SPLITMAX, value);
        prog->split = (int)n;
    } else if (strcmp(key, "reduce") == 0) {
        if ((e = name_index(reduce_names, value)) < 0)
            return lad_errf_key(err, LAD_EDATA, key, "'reduce' must be serial "
                                "or tree, not '%s'", value);
        prog->reduce = e;
    } else if (strcmp(key, "scale_a") == 0 || strcmp(key, "scale_b") == 0) {
        char *end;
        unsigned long w = strtoul(value, &end, 16);
        if (strncmp(value, "0x", 2) != 0 || *end || end == value + 2 || w > 0xffffffffu)
            return lad_errf_key(err, LAD_EDATA, key, "'%s' must be an f32 word "
                                "in hex (0x3f800000 is 1), not '%s'", key, value);
        *(key[6] == 'a' ? &prog->scale_a : &prog->scale_b) = (uint32_t)w;
    } else if (strcmp(key, "out") == 0) {
        const lad_format *f = lad_format_find(value);
        if (strcmp(value, "acc") == 0)
            memset(&prog->out, 0, sizeof prog->out);
        else if (f == NULL)
            return lad_errf_key(err, LAD_EDATA, key, "'out' must be a built-in "
                                "format or acc, not '%s'", value);
        else
            prog->out = *f;
    } else if (strcmp(key, "out_round") == 0) {
        if ((e = name_index(lad_round_names, value)) < 0)
            return lad_errf_key(err, LAD_EDATA, key, "'out_round' must be rz, "
                                "rne, ru, rd or rna, not '%s'", value);
        prog->out_round = e;
    } else if (strcmp(key, "out_overflow") == 0) {
        if ((e = name_index(lad_ovf_names, value)) < 0)
            return lad_errf_key(err, LAD_EDATA, key, "'out_overflow' must be "
                                "inf, sat or ieee, not '%s'", value);
        prog->out_overflow = e;
    } else {
        return lad_errf(err, LAD_EDATA, "unknown program key '%s'", key);
    }
    return LAD_OK;
}

/* Whether every value of format d is the same word in format c, so that a
** D word can be fed back as C (e8m13 into f32: its low bits are zero). */
static int holds(const lad_format *c, const lad_format *d)
{
    return c->kind == LAD_FLOAT && d->kind == LAD_FLOAT && c->width == d->width &&
           c->sign == d->sign && c->ebits == d->ebits && c->bias == d->bias &&
           c->mbits + c->pad == d->mbits + d->pad && d->pad >= c->pad &&
           c->sub == d->sub && c->inf == d->inf && c->nan == d->nan;
}

static int chained(const lad_program *prog)
{
    return prog->promote == 0 && prog->split == 1 && prog->scale_a == F32_ONE &&
           prog->scale_b == F32_ONE;
}

const lad_format *lad_program_out(const lad_datapath *dp, const lad_program *prog)
{
    if (prog->out.width)
        return &prog->out;
    return chained(prog) ? &dp->d : lad_format_find("f32");
}

const lad_format *lad_program_operand(const lad_datapath *dp, const lad_program *prog,
                                      int which)
{
    switch (which) {
    case 'a': return &dp->a;
    case 'b': return &dp->b;
    case 'c': return &dp->c;
    case 'd': return lad_program_out(dp, prog);
    default: return NULL;
    }
}

size_t lad_program_size(void)
{
    return sizeof(lad_program);
}

/* lad_program_check, for a GEMM given block scales (scaled) or not. */
static int check(const lad_datapath *dp, const lad_program *prog, int k, int scaled,
                 lad_err *err)
{
    if (dp->integer || dp->sparse || (dp->scale_block && !scaled))
        return lad_errf(err, LAD_EDATA, "datapath '%s' is %s: programs run dense "
                        "float datapaths, block-scaled ones with their scales "
                        "(lad_gemm_scaled, ladder gemm --sa --sb)", dp->name,
                        dp->integer ? "integer" : dp->scale_block ? "block-scaled" : "sparse");
    if (scaled && !dp->scale_block)
        return lad_errf(err, LAD_EDATA, "datapath '%s' has no block scales: "
                        "a GEMM on it takes none", dp->name);
    /* between promotions (promote > 1) the MMAs chain too */
    if (prog->promote != 1 && !holds(&dp->c, &dp->d))
        return lad_errf(err, LAD_EDATA, "datapath '%s' cannot chain: its d format "
                        "%s is not its c format %s (promote every MMA instead)",
                        dp->name, dp->d.name, dp->c.name);
    if (prog->split < 1 || prog->split > LAD_SPLITMAX)
        return lad_errf(err, LAD_EDATA, "split %d is not 1..%d", prog->split, LAD_SPLITMAX);
    if (prog->out.width && lad_format_check(&prog->out))
        return lad_errf(err, LAD_EDATA, "output format '%s': %s", prog->out.name,
                        lad_format_check(&prog->out));
    long step = (long)dp->k * prog->split;
    if (k > 0 && k % step)
        return lad_errf(err, LAD_EDATA, "K %d is not a multiple of %ld (the "
                        "instruction's K %d times %d slices)", k, step, dp->k,
                        prog->split);
    return LAD_OK;
}

int lad_program_check(const lad_datapath *dp, const lad_program *prog, int k,
                      lad_err *err)
{
    return check(dp, prog, k, 0, err);
}

/* ---- presets */

static const lad_program presets[] = {
    {"mainloop", "assumption: CUTLASS-style mainloop, every MMA chained "
     "through the accumulator; not confirmed by a GPU run",
     0, 1, LAD_REDUCE_SERIAL, F32_ONE, F32_ONE, {.width = 0},
     LAD_RNE, LAD_OVF_INF},
    {"fp8-promote4", "assumption: DeepSeek-V3 fp8 GEMM, the accumulator "
     "promoted into f32 every 4 MMAs; not confirmed by a GPU run",
     4, 1, LAD_REDUCE_SERIAL, F32_ONE, F32_ONE, {.width = 0},
     LAD_RNE, LAD_OVF_INF},
    {"splitk2-serial", "assumption: CUTLASS serial split-K of 2 slices reduced "
     "in f32 in slice order; not confirmed by a GPU run",
     0, 2, LAD_REDUCE_SERIAL, F32_ONE, F32_ONE, {.width = 0},
     LAD_RNE, LAD_OVF_INF},
};

int lad_program_preset_count(void)
{
    return (int)(sizeof presets / sizeof presets[0]);
}

const lad_program *lad_program_preset_get(int i)
{
    return i >= 0 && i < lad_program_preset_count() ? &presets[i] : NULL;
}

const lad_program *lad_program_preset_find(const char *name)
{
    for (int i = 0; i < lad_program_preset_count(); i++)
        if (strcmp(presets[i].name, name) == 0)
            return &presets[i];
    return NULL;
}

/* ---- f32 arithmetic on CUDA cores: exact, then one rounding to nearest */

static const lad_format *f32(void)
{
    return lad_format_find("f32");
}

/* x + y into f32 (FADD.RN): IEEE signs of zeros, canonical NaN. */
static lad_word_t f32_add(const term *x, const term *y)
{
    const lad_format *f = f32();
    if (x->cls == LAD_NAN || y->cls == LAD_NAN)
        return lad_format_nan(f);
    if (x->cls == LAD_INFINITE || y->cls == LAD_INFINITE) {
        if (x->cls == LAD_INFINITE && y->cls == LAD_INFINITE && x->neg != y->neg)
            return lad_format_nan(f);
        return lad_format_inf(f, x->cls == LAD_INFINITE ? x->neg : y->neg);
    }
    if (x->cls == LAD_ZERO && y->cls == LAD_ZERO)
        return x->neg && y->neg ? 0x80000000u : 0;
    i128 xu = x->cls == LAD_ZERO ? 0 : (x->neg ? -(i128)x->mag : (i128)x->mag);
    return lad_add_round(f, xu, x->exp, y, LAD_RNE, LAD_OVF_INF);
}

/* x * y into f32 (FMUL.RN). */
static lad_word_t f32_mul(const term *x, const term *y)
{
    const lad_format *f = f32();
    int neg = x->neg ^ y->neg;
    if (x->cls == LAD_NAN || y->cls == LAD_NAN)
        return lad_format_nan(f);
    if (x->cls == LAD_INFINITE || y->cls == LAD_INFINITE) {
        if (x->cls == LAD_ZERO || y->cls == LAD_ZERO)
            return lad_format_nan(f);
        return lad_format_inf(f, neg);
    }
    if (x->cls == LAD_ZERO || y->cls == LAD_ZERO)
        return neg ? 0x80000000u : 0;
    return lad_round_value(f, neg, x->mag * y->mag, x->exp + y->exp, 0, LAD_RNE,
                           LAD_OVF_INF, NULL);
}

/* A word of format `from` rounded into `to` (a cvt). */
static lad_word_t convert(const lad_format *to, const lad_format *from, lad_word_t w,
                        int mode, int ovf)
{
    lad_value v = lad_decode(from, w);
    if (v.cls == LAD_NAN)
        return lad_format_nan(to);
    if (v.cls == LAD_INFINITE)
        return ovf == LAD_OVF_SAT ? lad_format_maxfinite(to, v.neg)
                                  : lad_format_inf(to, v.neg);
    return lad_round_value(to, v.neg, v.mag, v.exp, 0, mode, ovf, NULL);
}

/* ---- the GEMM */

/* One thread's share of a GEMM's items: [next, end) is what no thread has
** taken yet. Alone in its cache line: the threads add to next. */
typedef struct share {
    _Alignas(64) _Atomic size_t next;
    size_t end;
} share;

/* The threads running beside the caller's, counted down as they end: the
** caller, its own work done, waits on done and meanwhile tells progress
** the shared count (else a caller whose share the others took would say
** nothing until the end). */
typedef struct waiter {
    pthread_mutex_t mu;
    pthread_cond_t done;
    int left;                      /* threads beside the caller not ended */
} waiter;

typedef struct gemm {
    const lad_datapath *dp;
    const lad_program *prog;
    int N, K;
    const lad_word_t *A, *Bt, *C;   /* Bt: B packed column by column, N x K */
    int lda, ldc, ldd;
    const lad_word_t *B;          /* B itself, row k at B + k*ldb */
    int ldb, M;
    lad_word_t *D;
    share *shares;                /* every thread's share of the items */
    int self, threads;            /* this thread's share; how many there are */
    int from_share;               /* the share the chunk below was taken from */
    size_t from, to;              /* the chunk being done: outputs by their
                                     row-major index, or the block order of
                                     run_blocks */
    lad_word_t alpha;              /* scale_a * scale_b, f32 */
    const lad_block *bk;          /* the block kernel's B, or NULL: per element */
    int rc;
    _Atomic size_t *written;       /* items every thread did; NULL: no progress */
    lad_gemm_progress_fn progress; /* thread 0's only: the caller's thread */
    void *ctx;
    size_t total;                  /* items in all */
    const uint8_t *SA;            /* A's scales, row i at SA + i*ldsa; NULL: none */
    int ldsa;
    const uint8_t *SBt;           /* B's scales packed column by column, N x K/block */
    waiter *wait;                 /* counts this thread's end (not the caller's) */
} gemm;

/* The operands of the MMA at K lane k into cs: A's and B's words, and
** their block scales when sa and sb are not NULL. */
static void operands(const lad_datapath *dp, lad_case *cs, const lad_word_t *a,
                     const lad_word_t *b, const uint8_t *sa, const uint8_t *sb, int k)
{
    memcpy(cs->a, a + k, (size_t)dp->k * sizeof *a);
    memcpy(cs->b, b + k, (size_t)dp->k * sizeof *b);
    if (sa) {
        int nb = dp->k / dp->scale_block, kb = k / dp->scale_block;
        memcpy(cs->sa, sa + kb, (size_t)nb);
        memcpy(cs->sb, sb + kb, (size_t)nb);
    }
}

/* The MMAs of one slice, K lanes [k0, k1) of row a and column b (with
** their block scales sa and sb, or NULL), starting from c (a word of
** format *cf). Returns the slice's value; *cf is its format. */
static lad_word_t slice(const lad_plan *pl, const lad_program *prog, lad_case *cs,
                      const lad_word_t *a, const lad_word_t *b, const uint8_t *sa,
                      const uint8_t *sb, int k0, int k1, lad_word_t c, const lad_format **cf)
{
    const lad_datapath *dp = pl->dp;
    if (prog->promote == 0) {
        for (int k = k0; k < k1; k += dp->k) {
            operands(dp, cs, a, b, sa, sb, k);
            cs->c = c;
            c = lad_plan_eval(pl, cs);
        }
        *cf = &dp->d;
        return c;
    }
    lad_word_t acc = c, d = 0;
    int n = 0;
    for (int k = k0; k < k1; k += dp->k) {
        operands(dp, cs, a, b, sa, sb, k);
        cs->c = n ? d : 0;
        d = lad_plan_eval(pl, cs);
        if (++n == prog->promote || k + dp->k >= k1) {
            term x = decode_term(*cf, acc), y = decode_term(&dp->d, d);
            acc = f32_add(&x, &y);
            *cf = f32();
            n = 0;
        }
    }
    return acc;
}

/* An output element from its slices' values s[] (format sf): reduction,
** scale and output rounding. */
static lad_word_t finish(const gemm *g, lad_word_t *s, const lad_format *sf)
{
    const lad_program *prog = g->prog;
    const lad_datapath *dp = g->dp;
    const lad_format *vf;
    lad_word_t v = s[0];
    vf = sf;
    if (prog->split > 1 && prog->reduce == LAD_REDUCE_SERIAL) {
        for (int i = 1; i < prog->split; i++) {
            term x = decode_term(vf, v), y = decode_term(sf, s[i]);
            v = f32_add(&x, &y);
            vf = f32();
        }
    } else if (prog->split > 1) {
        /* pairs of neighbours, then pairs of pairs; a slot left without a
        ** partner (split not a power of 2) keeps its slice's format */
        const lad_format *fs[LAD_SPLITMAX];
        for (int i = 0; i < prog->split; i++)
            fs[i] = sf;
        for (int w = 1; w < prog->split; w *= 2)
            for (int i = 0; i + w < prog->split; i += 2 * w) {
                term x = decode_term(fs[i], s[i]), y = decode_term(fs[i + w], s[i + w]);
                s[i] = f32_add(&x, &y);
                fs[i] = f32();
            }
        v = s[0];
        vf = f32();
    }
    if (g->alpha != F32_ONE) {
        term x = decode_term(vf, v), y = decode_term(f32(), g->alpha);
        v = f32_mul(&x, &y);
        vf = f32();
    }
    if (prog->out.width)
        v = convert(&prog->out, vf, v, prog->out_round, prog->out_overflow);
    else if (vf != lad_program_out(dp, prog))
        v = convert(lad_program_out(dp, prog), vf, v, LAD_RNE, LAD_OVF_INF);
    return v;
}

/* One output element, by the plan: row i of A (a), a column of B (b,
** column j) and C's word. */
static lad_word_t element(const gemm *g, const lad_plan *pl, lad_case *cs,
                        const lad_word_t *a, const lad_word_t *b, size_t i, size_t j,
                        lad_word_t c)
{
    const uint8_t *sa = NULL, *sb = NULL;
    if (g->SA) {
        sa = g->SA + i * (size_t)g->ldsa;
        sb = g->SBt + j * (size_t)(g->K / g->dp->scale_block);
    }
    const lad_program *prog = g->prog;
    lad_word_t s[LAD_SPLITMAX];
    const lad_format *sf = &g->dp->c;
    int len = g->K / prog->split;
    s[0] = c;  /* split >= 1 (lad_program_check); the compiler cannot tell */
    for (int x = 0; x < prog->split; x++) {
        sf = &g->dp->c;
        s[x] = slice(pl, prog, cs, a, b, sa, sb, x * len, (x + 1) * len, x ? 0 : c, &sf);
    }
    return finish(g, s, sf);
}

/* slice() for the columns of block blk (lad_block.w) by the block kernel,
** for nr rows (1 or 2) side by side: c[r][] in, the slice's values out
** (format *cf); a column the kernel cannot do gets its bit in dead[r]. */
static void slice_block(const gemm *g, const lad_block_row *const *rows, int nr, int blk,
                        int k0, int k1, lad_word_t *const *c, const lad_format **cf,
                        unsigned *dead)
{
    const lad_datapath *dp = g->dp;
    const lad_program *prog = g->prog;
    if (prog->promote == 0) {
        lad_block_chain(g->bk, rows, nr, blk, k0, k1, c, dead);
        *cf = &dp->d;
        return;
    }
    lad_word_t acc[2][LAD_BLOCK_WMAX], d[2][LAD_BLOCK_WMAX];
    lad_word_t *const dp2[2] = {d[0], d[1]};
    for (int r = 0; r < nr; r++)
        memcpy(acc[r], c[r], sizeof acc[r]);
    /* groups of promote MMAs chained from C = 0, each added into acc */
    for (int k = k0; k < k1; k += prog->promote * dp->k) {
        int end = k + prog->promote * dp->k < k1 ? k + prog->promote * dp->k : k1;
        memset(d, 0, sizeof d);
        lad_block_chain(g->bk, rows, nr, blk, k, end, dp2, dead);
        for (int r = 0; r < nr; r++)
            for (int j = 0; j < g->bk->w; j++) {
                if (dead[r] >> j & 1)
                    continue;
                term x = decode_term(*cf, acc[r][j]), y = decode_term(&dp->d, d[r][j]);
                acc[r][j] = f32_add(&x, &y);
            }
        *cf = f32();
    }
    for (int r = 0; r < nr; r++)
        memcpy(c[r], acc[r], sizeof acc[r]);
}

/* Rows per group of the block order: their decoded A rows are kept while
** the group sweeps the column blocks of its stripe, so that each block of
** B is read once per ROWS rows and each row decoded once per group. */
#define ROWS 16

/* Column block blk0 of stripe s of n: the threads' stripes of B's nblk
** column blocks (stripe s: blocks [stripe0(nblk, s, n), stripe0(nblk, s
** + 1, n)), decoded by thread s and its share of the items). */
static int stripe0(int nblk, int s, int n)
{
    return (int)((long)nblk * s / n);
}

/* Items a thread takes at a time (take): two column blocks of a row group,
** even so that the pairs of rows the kernel runs side by side stay in one
** chunk */
#define CHUNK (2 * ROWS)

/* Counts item e of the chunk being done, and tells the caller's progress
** every LAD_GEMM_TICK items (thread 0 only) and at the chunk's end. */
static void tick(gemm *g, size_t e)
{
    if (g->written && ((e - g->from + 1) % LAD_GEMM_TICK == 0 || e + 1 == g->to)) {
        size_t n = (e - g->from) % LAD_GEMM_TICK + 1;
        size_t all = atomic_fetch_add_explicit(g->written, n, memory_order_relaxed) + n;
        if (g->progress)
            g->progress(g->ctx, "gemm", all, g->total);
    }
}

/* Takes the next chunk of items into g->from, g->to; returns 0 when none
** is left. Each thread has a share of the items, contiguous (on the block
** kernel its stripe of column blocks, which it decoded itself: another
** core's cache holds none of the B it reads), and takes CHUNK of them at
** a time from its front; when its own is done it takes chunks from the
** fronts of the others' shares in the same way, so that a thread slowed
** by the rest of the machine does not hold up the end. A chunk lies in
** one share. */
static int take(gemm *g)
{
    for (int u = 0; u < g->threads; u++) {
        share *sh = &g->shares[(g->self + u) % g->threads];
        size_t from = atomic_fetch_add_explicit(&sh->next, CHUNK, memory_order_relaxed);
        if (from < sh->end) {
            g->from_share = (g->self + u) % g->threads;
            g->from = from;
            g->to = sh->end - from < CHUNK ? sh->end : from + CHUNK;
            return 1;
        }
    }
    return 0;
}

/* The items [g->from, g->to) of the block order, by the block kernel; an
** output it cannot do by element(). The block order: stripe by stripe
** (stripe0; stripe s is items [M * b0, M * b1) for its blocks [b0, b1)),
** in a stripe rows in groups of ROWS, in a group column block by column
** block, in a block row by row. rows holds the thread's decoded A rows,
** row i at i % ROWS if tag says so; col is room for a column of B. */
static void block_chunk(gemm *g, const lad_plan *pl, lad_case *cs, lad_block_row *rows,
                        int *tag, lad_word_t *col)
{
    int M = g->M, nblk = g->bk->nblk, st = g->from_share;
    const lad_block *bk = g->bk;
    const lad_program *prog = g->prog;
    int len = g->K / prog->split;
    /* the chunk's stripe (its share's): blocks [b0, b0 + nb) */
    int b0 = stripe0(nblk, st, g->threads), nb = stripe0(nblk, st + 1, g->threads) - b0;
    for (size_t e = g->from; e < g->to;) {
        /* item e, and e + 1 beside it when that is the next row of the same
        ** column block */
        size_t off = e - (size_t)M * b0;
        size_t grp = off / ((size_t)ROWS * nb), at = off - grp * ROWS * nb;
        int r0 = (int)grp * ROWS, nr = M - r0 < ROWS ? M - r0 : ROWS;
        int blk = b0 + (int)(at / (size_t)nr);
        int j0 = blk * bk->w, w = g->N - j0 < bk->w ? g->N - j0 : bk->w;
        unsigned full = (1u << bk->w) - 1;
        int n2 = e + 1 < g->to && (int)(at % (size_t)nr) + 1 < nr ? 2 : 1;
        int ii[2];
        const lad_block_row *rp[2];
        unsigned dead[2];
        lad_word_t c0[2][LAD_BLOCK_WMAX], s[LAD_SPLITMAX][2][LAD_BLOCK_WMAX];
        for (int r = 0; r < n2; r++) {
            int i = ii[r] = r0 + (int)(at % (size_t)nr) + r;
            lad_block_row *rowp = &rows[i % ROWS];
            if (tag[i % ROWS] != i) {
                lad_block_row_decode(bk, g->A + (size_t)i * g->lda,
                                     g->SA ? g->SA + (size_t)i * g->ldsa : NULL, rowp);
                tag[i % ROWS] = i;
            }
            rp[r] = rowp;
            dead[r] = rowp->bad ? full : 0;
            memset(c0[r], 0, sizeof c0[r]);
            for (int j = 0; j < w; j++) {
                dead[r] |= (unsigned)bk->bbad[j0 + j] << j;
                c0[r][j] = g->C ? g->C[(size_t)i * g->ldc + j0 + j] : 0;
            }
        }
        const lad_format *sf = &g->dp->c;
        for (int x = 0; x < prog->split; x++) {
            int all = 1;
            for (int r = 0; r < n2; r++)
                all &= dead[r] == full;
            if (all)
                break;
            sf = &g->dp->c;
            lad_word_t *const sp[2] = {s[x][0], s[x][1]};
            for (int r = 0; r < n2; r++) {
                if (x == 0)
                    memcpy(s[0][r], c0[r], sizeof c0[r]);
                else
                    memset(s[x][r], 0, sizeof s[x][r]);
            }
            slice_block(g, rp, n2, blk, x * len, (x + 1) * len, sp, &sf, dead);
        }
        for (int r = 0; r < n2; r++, e++) {
            int i = ii[r];
            const lad_word_t *a = g->A + (size_t)i * g->lda;
            for (int j = 0; j < w; j++) {
                lad_word_t v;
                if (dead[r] >> j & 1) {
                    const lad_word_t *b = g->B + j0 + j;
                    for (int k = 0; k < g->K; k++)
                        col[k] = b[(size_t)k * g->ldb];
                    v = element(g, pl, cs, a, col, (size_t)i, (size_t)(j0 + j), c0[r][j]);
                } else {
                    lad_word_t sj[LAD_SPLITMAX];
                    for (int x = 0; x < prog->split; x++)
                        sj[x] = s[x][r][j];
                    v = finish(g, sj, sf);
                }
                g->D[(size_t)i * g->ldd + j0 + j] = v;
            }
            tick(g, e);
        }
    }
}

/* The chunks this thread takes, by block_chunk. */
static int run_blocks(gemm *g, const lad_plan *pl, lad_case *cs)
{
    lad_block_row rows[ROWS];
    int tag[ROWS], nrow = 0, rc = LAD_OK;
    lad_word_t *col = malloc((size_t)g->K * sizeof *col);
    for (; nrow < ROWS && col; nrow++) {
        tag[nrow] = -1;
        if (lad_block_row_alloc(g->bk, &rows[nrow]) != LAD_OK)
            break;
    }
    if (col == NULL || nrow < ROWS) {
        rc = LAD_EINTERNAL;
        goto done;
    }
    while (take(g))
        block_chunk(g, pl, cs, rows, tag, col);
done:
    for (int r = 0; r < nrow; r++)
        lad_block_row_free(&rows[r]);
    free(col);
    return rc;
}

static void *run(void *arg)
{
    gemm *g = arg;
    lad_plan pl;
    lad_plan_init(&pl, g->dp);
    lad_case *cs = calloc(1, sizeof *cs);
    if (cs == NULL) {
        g->rc = LAD_EINTERNAL;
        return NULL;
    }
    if (g->bk) {
        g->rc = run_blocks(g, &pl, cs);
        free(cs);
        return NULL;
    }
    while (take(g))
        for (size_t e = g->from; e < g->to; e++) {
            size_t i = e / (size_t)g->N, j = e % (size_t)g->N;
            lad_word_t c = g->C ? g->C[i * (size_t)g->ldc + j] : 0;
            g->D[i * (size_t)g->ldd + j] = element(g, &pl, cs, g->A + i * (size_t)g->lda,
                                                   g->Bt + j * (size_t)g->K, i, j, c);
            tick(g, e);
        }
    free(cs);
    return NULL;
}

/* run, on a thread beside the caller's: says when it ends. */
static void *run_beside(void *arg)
{
    gemm *g = arg;
    run(g);
    pthread_mutex_lock(&g->wait->mu);
    g->wait->left--;
    pthread_cond_signal(&g->wait->done);
    pthread_mutex_unlock(&g->wait->mu);
    return NULL;
}

/* Waits for the threads beside the caller's to end; with progress, tells
** it the count every thread added to written, every 100 ms while it moves. */
static void wait_beside(waiter *w, _Atomic size_t *written, size_t total,
                        lad_gemm_progress_fn progress, void *ctx)
{
    size_t told = 0;
    pthread_mutex_lock(&w->mu);
    while (w->left > 0) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += 100000000;
        if (ts.tv_nsec >= 1000000000) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000;
        }
        pthread_cond_timedwait(&w->done, &w->mu, &ts);
        size_t now = progress ? atomic_load_explicit(written, memory_order_relaxed) : 0;
        if (w->left > 0 && now != told) {
            told = now;
            pthread_mutex_unlock(&w->mu);
            progress(ctx, "gemm", now, total);
            pthread_mutex_lock(&w->mu);
        }
    }
    pthread_mutex_unlock(&w->mu);
}

static int online_cpus(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 256 ? 256 : (int)n;
}

/* What is done to B before the threads multiply: its column blocks
** decoded for the kernel (bk), or B packed column by column (Bt, N x K);
** B's scales packed column by column (SBt, N x nkb) where it has them. */
typedef struct prep {
    lad_block *bk;
    lad_word_t *Bt;
    uint8_t *SBt;
    const lad_word_t *B;
    const uint8_t *SB;
    int ldb, ldsb, K, N, nkb;
} prep;

/* The most threads prepare() divides its work among. */
#define PREP_MAXT 64

/* Share t of n of prep's work: its part of the column blocks, or of the
** columns. */
typedef struct prep_share {
    const prep *p;
    int t, n;
} prep_share;

static void *prep_run(void *arg)
{
    const prep_share *sh = arg;
    const prep *p = sh->p;
    int j0 = (int)((long)p->N * sh->t / sh->n), j1 = (int)((long)p->N * (sh->t + 1) / sh->n);
    if (p->bk)  /* thread t's stripe: the blocks its share reads */
        lad_block_decode(p->bk, stripe0(p->bk->nblk, sh->t, sh->n),
                         stripe0(p->bk->nblk, sh->t + 1, sh->n));
    if (p->Bt)
        for (int k = 0; k < p->K; k++)
            for (int j = j0; j < j1; j++)
                p->Bt[(size_t)j * p->K + k] = p->B[(size_t)k * p->ldb + j];
    if (p->SBt)
        for (int kb = 0; kb < p->nkb; kb++)
            for (int j = j0; j < j1; j++)
                p->SBt[(size_t)j * p->nkb + kb] = p->SB[(size_t)kb * p->ldsb + j];
    return NULL;
}

/* Part t of n of the tables of decoded words (lad_block_fill), which the
** decoding then reads. */
static void *fill_run(void *arg)
{
    const prep_share *sh = arg;
    lad_block_fill(sh->p->bk, sh->t, sh->n);
    return NULL;
}

/* fn on every share of sh[0..n), share t > 0 on a thread of its own (or
** here, after the others started, where one cannot start). */
static void on_threads(void *(*fn)(void *), prep_share *sh, int n)
{
    pthread_t tid[PREP_MAXT];
    int started[PREP_MAXT] = {0};
    for (int t = 1; t < n; t++)
        started[t] = pthread_create(&tid[t], NULL, fn, &sh[t]) == 0;
    for (int t = 0; t < n; t++)
        if (!started[t])
            fn(&sh[t]);
    for (int t = 1; t < n; t++)
        if (started[t])
            pthread_join(tid[t], NULL);
}

/* Does prep's work, divided among up to `threads` threads (the GEMM's;
** thread t decodes the column blocks of stripe t, whose items are its
** share, where there are 64 threads or fewer): with a short GEMM on
** several threads, this work done on one would be the part that does not
** divide. The tables of decoded words are filled first, on all threads. */
static void prepare(const prep *p, int threads)
{
    if (threads > PREP_MAXT)
        threads = PREP_MAXT;
    prep_share sh[PREP_MAXT];
    for (int t = 0; t < threads; t++)
        sh[t] = (prep_share){p, t, threads};
    if (p->bk && (p->bk->ncode[0] || p->bk->ncode[1]) && !p->bk->filled)
        on_threads(fill_run, sh, threads);
    on_threads(prep_run, sh, threads);
}

/* lad_gemm_with and lad_gemm_scaled: SA and SB NULL, or the block scales. */
static int run_gemm(const lad_datapath *dp, const lad_program *prog, int M, int N, int K,
                    const lad_word_t *A, int lda, const lad_word_t *B, int ldb,
                    const uint8_t *SA, int ldsa, const uint8_t *SB, int ldsb,
                    const lad_word_t *C, int ldc, lad_word_t *D, int ldd, int threads,
                    int kernel, lad_gemm_progress_fn progress, void *ctx, lad_err *err)
{
    lad_program plain;
    if (prog == NULL) {
        lad_program_init(&plain);
        prog = &plain;
    }
    int rc = lad_datapath_check(dp, err);
    if (rc == LAD_OK)
        rc = check(dp, prog, K, SA != NULL, err);
    if (rc != LAD_OK)
        return rc;
    int nkb = SA ? K / dp->scale_block : 0;
    if (M < 0 || N < 0 || K < 1 || lda < K || ldb < N || ldd < N || (C && ldc < N) ||
        (SA && (ldsa < nkb || ldsb < N)))
        return lad_errf(err, LAD_EDATA, "bad sizes: M %d N %d K %d lda %d ldb %d "
                        "ldc %d ldd %d ldsa %d ldsb %d", M, N, K, lda, ldb, ldc, ldd,
                        ldsa, ldsb);
    size_t total = (size_t)M * (size_t)N;
    if (total == 0)
        return LAD_OK;
    if (kernel == LAD_GEMM_AUTO) {
        /* the environment's choice, for tests of the words through programs
        ** that call lad_gemm (ladder gemm, the Python package) */
        const char *general = getenv("LADDER_GEMM_GENERAL");
        const char *portable = getenv("LADDER_GEMM_PORTABLE");
        const char *avx2 = getenv("LADDER_GEMM_AVX2");
        kernel = general && strcmp(general, "1") == 0     ? LAD_GEMM_GENERAL
                 : portable && strcmp(portable, "1") == 0 ? LAD_GEMM_PORTABLE
                 : avx2 && strcmp(avx2, "1") == 0         ? LAD_GEMM_AVX2
                                                         : LAD_GEMM_AUTO;
    }
    lad_block block, *bk = NULL;
    lad_word_t *Bt = NULL;
    size_t items = total;  /* the threads' work: outputs, or (row, block) pairs */
    uint8_t *SBt = NULL;
    if (SA && (SBt = malloc((size_t)N * (size_t)nkb + 1)) == NULL)
        return lad_errf(err, LAD_EINTERNAL, "out of memory for %d x %d scales", nkb, N);
    if (kernel != LAD_GEMM_GENERAL && lad_block_ok(dp)) {
        int isa = kernel == LAD_GEMM_PORTABLE ? LAD_BLOCK_PORTABLE
                  : kernel == LAD_GEMM_AVX2   ? LAD_BLOCK_AVX2
                                              : LAD_BLOCK_BEST;
        if (lad_block_init(&block, dp, B, ldb, SB, ldsb, K, N, isa) != LAD_OK) {
            free(SBt);
            return lad_errf(err, LAD_EINTERNAL, "out of memory for a %d x %d B", K, N);
        }
        bk = &block;
        items = (size_t)M * (size_t)block.nblk;
    } else {
        Bt = malloc((size_t)N * (size_t)K * sizeof *Bt);
        if (Bt == NULL) {
            free(SBt);
            return lad_errf(err, LAD_EINTERNAL, "out of memory for a %d x %d B", K, N);
        }
    }

    if (threads <= 0)
        threads = online_cpus();
    if ((size_t)threads > items)
        threads = (int)items;
    prep pp = {bk, Bt, SBt, B, SB, ldb, ldsb, K, N, nkb};
    prepare(&pp, threads);
    gemm *g = calloc((size_t)threads, sizeof *g);
    pthread_t *tid = calloc((size_t)threads, sizeof *tid);
    share *shares = aligned_alloc(_Alignof(share), (size_t)threads * sizeof *shares);
    if (g == NULL || tid == NULL || shares == NULL) {
        if (bk)
            lad_block_free(bk);
        free(Bt);
        free(SBt);
        free(g);
        free(tid);
        free(shares);
        return lad_errf(err, LAD_EINTERNAL, "out of memory");
    }
    for (int t = 0; t < threads; t++) {
        /* the block kernel's stripes, else equal runs of outputs */
        shares[t].end = bk ? (size_t)M * stripe0(bk->nblk, t + 1, threads)
                           : items * (size_t)(t + 1) / (size_t)threads;
        atomic_init(&shares[t].next, t ? shares[t - 1].end : 0);
    }
    term sa = decode_term(f32(), prog->scale_a), sb = decode_term(f32(), prog->scale_b);
    lad_word_t alpha = prog->scale_a == F32_ONE && prog->scale_b == F32_ONE
                     ? F32_ONE : f32_mul(&sa, &sb);
    _Atomic size_t written = 0;
    waiter w = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0};
    int started = 0;
    for (int t = 0; t < threads; t++) {
        gemm x = {dp, prog, N, K, A, Bt, C, lda, ldc, ldd, B, ldb, M, D, shares, t, threads,
                  0, 0, 0, alpha, bk, LAD_OK,
                  progress ? &written : NULL, t == 0 ? progress : NULL, ctx, items,
                  SA, ldsa, SBt, &w};
        g[t] = x;
        if (t > 0) {
            pthread_mutex_lock(&w.mu);
            w.left++;
            pthread_mutex_unlock(&w.mu);
        }
        if (t > 0 && pthread_create(&tid[t], NULL, run_beside, &g[t]) != 0) {
            pthread_mutex_lock(&w.mu);
            w.left--;
            pthread_mutex_unlock(&w.mu);
            rc = lad_errf(err, LAD_EINTERNAL, "cannot start thread %d of %d", t + 1, threads);
            break;
        }
        started = t + 1;
    }
    if (rc == LAD_OK)
        run(&g[0]);
    wait_beside(&w, &written, items, progress, ctx);
    for (int t = 1; t < started; t++)
        pthread_join(tid[t], NULL);
    for (int t = 0; t < started && rc == LAD_OK; t++)
        if (g[t].rc != LAD_OK)
            rc = lad_errf(err, g[t].rc, "out of memory");
    if (rc == LAD_OK && progress)
        progress(ctx, "gemm", items, items);
    if (bk)
        lad_block_free(bk);
    free(Bt);
    free(SBt);
    free(g);
    free(tid);
    free(shares);
    return rc;
}

int lad_gemm_with(const lad_datapath *dp, const lad_program *prog, int M, int N,
                  int K, const lad_word_t *A, int lda, const lad_word_t *B, int ldb,
                  const lad_word_t *C, int ldc, lad_word_t *D, int ldd, int threads,
                  int kernel, lad_gemm_progress_fn progress, void *ctx, lad_err *err)
{
    return run_gemm(dp, prog, M, N, K, A, lda, B, ldb, NULL, 0, NULL, 0, C, ldc, D, ldd,
                    threads, kernel, progress, ctx, err);
}

int lad_gemm_scaled_with(const lad_datapath *dp, const lad_program *prog, int M, int N,
                         int K, const lad_word_t *A, int lda, const lad_word_t *B, int ldb,
                         const uint8_t *SA, int ldsa, const uint8_t *SB, int ldsb,
                         const lad_word_t *C, int ldc, lad_word_t *D, int ldd, int threads,
                         int kernel, lad_gemm_progress_fn progress, void *ctx, lad_err *err)
{
    if (SA == NULL || SB == NULL)
        return lad_errf(err, LAD_EDATA, "lad_gemm_scaled needs both scale arrays");
    return run_gemm(dp, prog, M, N, K, A, lda, B, ldb, SA, ldsa, SB, ldsb, C, ldc, D, ldd,
                    threads, kernel, progress, ctx, err);
}

int lad_gemm_scaled(const lad_datapath *dp, const lad_program *prog, int M, int N, int K,
                    const lad_word_t *A, int lda, const lad_word_t *B, int ldb,
                    const uint8_t *SA, int ldsa, const uint8_t *SB, int ldsb,
                    const lad_word_t *C, int ldc, lad_word_t *D, int ldd, int threads,
                    lad_gemm_progress_fn progress, void *ctx, lad_err *err)
{
    return lad_gemm_scaled_with(dp, prog, M, N, K, A, lda, B, ldb, SA, ldsa, SB, ldsb, C, ldc,
                                D, ldd, threads, LAD_GEMM_AUTO, progress, ctx, err);
}

int lad_gemm_err(const lad_datapath *dp, const lad_program *prog, int M, int N,
                 int K, const lad_word_t *A, int lda, const lad_word_t *B, int ldb,
                 const lad_word_t *C, int ldc, lad_word_t *D, int ldd, int threads,
                 lad_err *err)
{
    return lad_gemm_with(dp, prog, M, N, K, A, lda, B, ldb, C, ldc, D, ldd, threads,
                         LAD_GEMM_AUTO, NULL, NULL, err);
}

int lad_gemm(const lad_datapath *dp, const lad_program *prog, int M, int N,
             int K, const lad_word_t *A, int lda, const lad_word_t *B, int ldb,
             const lad_word_t *C, int ldc, lad_word_t *D, int ldd, int threads)
{
    return lad_gemm_err(dp, prog, M, N, K, A, lda, B, ldb, C, ldc, D, ldd, threads, NULL);
}
