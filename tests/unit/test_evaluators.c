/*
** Every fast evaluator against the reference, row by row. params.def's
** LAD_IMPL lines say which values of each row each fast evaluator
** (enum lad_evaluator) implements; lad_plan_init and the GEMM kernel engage
** one only where its column covers the datapath. For every row, every
** legal value (numeric rows: their ends, the candidates inference tries
** and a random one) is set on base datapaths chosen so that every
** evaluator runs on one of them; on each datapath that passes
** lad_datapath_check:
**
**   - each evaluator the plan engages must be covered by its column
**     (evaluators-<ev>-declared);
**   - every word of lad_plan_eval, lad_plan_eval_batch (the eight-lane
**     and case kernels) and lad_plan_eval_rows (dense datapaths, rows
**     exactly as long as the cases: a sanitizer build sees a read past
**     them) and of the GEMM kernel equals the reference's
**     (lad_eval_general, itself checked against the exact rational
**     reference in test_rational.c), as integers, on targeted cases (each
**     generator of probes/gen.h) and random ones (raw bits);
**   - at the end, every value a column claims off a row's default has run
**     on that evaluator at least once (evaluators-claims-<ev>), so that no
**     claim goes untested.
**
** A row with no LAD_IMPL line is claimed by nothing: the plan must then
** leave every datapath that sets it to the reference, which the first
** check sees.
*/
#include "test.h"

#include <stdlib.h>
#include <string.h>

#include "model/datapath_int.h"
#include "model/gemm_kernel.h"
#include "model/params.h"
#include "model/presets.h"
#include "model/program.h"
#include "probes/gen.h"

#define NCASES 40  /* per generator and datapath */
#define MAXVALS (LAD_PARAM_MAXCANDS + 8)

/* runs[row][ev]: off-default values of row on which ev ran */
static long runs[LAD_NPARAMS][LAD_NEVAL];
static long compared, datapaths;

/* Whether plan p (of dp) runs evaluator ev. */
static int engaged(int ev, const lad_plan *p, const lad_datapath *dp)
{
    switch (ev) {
    case LAD_EV_UNSCALED: return p->path == LAD_PATH_FAST;
    case LAD_EV_SCALED: return p->path == LAD_PATH_SCALED;
    case LAD_EV_FIXED: return p->fixed;
    case LAD_EV_FIXSUM: return p->fixsum;
    case LAD_EV_LANES8: return p->lanes8;
    case LAD_EV_SCALED8: return p->scaled8;
    case LAD_EV_GEMM: return lad_block_ok(dp);
    /* the chain kernels run inside the GEMM kernel where their column
    ** covers dp: checked by the GEMM's words */
    case LAD_EV_CHAINS:
        return lad_block_ok(dp) && lad_impl_covers(LAD_EV_CHAINS, dp);
    case LAD_EV_CASES: return p->cases8;
    }
    return 0;
}

/* One GEMM of M x N x K words by kernel (enum lad_gemm_kernel). */
static int gemm_by(const lad_datapath *dp, int M, int N, int K, const lad_word_t *A,
                   const lad_word_t *B, const uint8_t *SA, const uint8_t *SB,
                   const lad_word_t *C, lad_word_t *D, int kernel)
{
    lad_program prog;
    lad_program_init(&prog);
    lad_err err = {0};
    int nkb = dp->scale_block ? K / dp->scale_block : 0;
    if (nkb)
        return lad_gemm_scaled_with(dp, &prog, M, N, K, A, K, B, N, SA, nkb, SB, N, C, N, D, N,
                                    1, kernel, NULL, NULL, &err);
    return lad_gemm_with(dp, &prog, M, N, K, A, K, B, N, C, N, D, N, 1, kernel, NULL, NULL,
                         &err);
}

/* The GEMM kernel (its default, generic and AVX2 builds) against the
** per-element plan on 2 x 16 x K words and scales taken from the cases: 1
** when they agree. */
static int gemm_agrees(const lad_datapath *dp, const lad_case *cs, int n, char *why,
                       size_t size)
{
    enum { M = 2, N = 16 };
    int K = dp->k, nkb = dp->scale_block ? K / dp->scale_block : 1;
    if (n < M + N)
        return 1;
    lad_word_t *A = calloc((size_t)M * K, sizeof *A), *B = calloc((size_t)K * N, sizeof *B);
    uint8_t SA[M * LAD_SCALEMAX], SB[LAD_SCALEMAX * N];
    lad_word_t C[M * N], D0[M * N] = {0}, D1[M * N] = {0};
    for (int i = 0; i < M; i++) {
        for (int l = 0; l < K; l++)
            A[i * K + l] = cs[i].a[l];
        for (int kb = 0; kb < nkb; kb++)
            SA[i * nkb + kb] = cs[i].sa[kb];
    }
    for (int j = 0; j < N; j++) {
        for (int l = 0; l < K; l++)
            B[l * N + j] = cs[M + j].b[l];
        for (int kb = 0; kb < nkb; kb++)
            SB[kb * N + j] = cs[M + j].sb[kb];
    }
    for (int i = 0; i < M * N; i++)
        C[i] = cs[i % n].c;
    static const int kernels[] = {LAD_GEMM_AUTO, LAD_GEMM_PORTABLE, LAD_GEMM_AVX2};
    int r0 = gemm_by(dp, M, N, K, A, B, SA, SB, C, D0, LAD_GEMM_GENERAL), ok = 1;
    for (int k = 0; k < 3 && ok; k++) {
        int r1 = gemm_by(dp, M, N, K, A, B, SA, SB, C, D1, kernels[k]);
        if (r0 != r1) {
            snprintf(why, size, "gemm: status %d, kernel %d: %d", r0, kernels[k], r1);
            ok = 0;
        }
        /* both refused the datapath: no words to compare */
        for (int i = 0; ok && r0 == LAD_OK && i < M * N; i++)
            if (D0[i] != D1[i]) {
                snprintf(why, size, "gemm D[%d]: reference 0x%llx, kernel %d 0x%llx", i,
                         (unsigned long long)D0[i], kernels[k], (unsigned long long)D1[i]);
                ok = 0;
            }
    }
    free(A);
    free(B);
    return ok;
}

/* Cases cs[0..n) by lad_plan_eval_rows on rows of their words, into d:
** 1, or 0 when out of memory (then d is not written). */
static int rows_eval(const lad_datapath *dp, const lad_plan *p, const lad_case *cs, int n,
                     lad_word_t *d)
{
    size_t k = (size_t)dp->k, nkb = (size_t)lad_datapath_nscales(dp);
    lad_word_t *a = malloc((size_t)n * k * sizeof *a), *b = malloc((size_t)n * k * sizeof *b);
    lad_word_t *c = malloc((size_t)n * sizeof *c);
    uint8_t *sa = malloc((size_t)n * nkb + 1), *sb = malloc((size_t)n * nkb + 1);
    int ok = a && b && c && sa && sb;
    for (int i = 0; ok && i < n; i++) {
        memcpy(a + i * k, cs[i].a, k * sizeof *a);
        memcpy(b + i * k, cs[i].b, k * sizeof *b);
        c[i] = cs[i].c;
        memcpy(sa + i * nkb, cs[i].sa, nkb);
        memcpy(sb + i * nkb, cs[i].sb, nkb);
    }
    if (ok) {
        lad_rows r = {a, b, c, sa, sb, NULL, NULL};
        lad_plan_eval_rows(p, &r, (size_t)n, d);
    }
    free(a);
    free(b);
    free(c);
    free(sa);
    free(sb);
    return ok;
}

/* dp's words by every evaluator the plan engages against the reference's:
** 1 when they agree and every engaged evaluator claims dp, else 0 with
** why; runs counts, for each, the rows dp sets off their default. */
static int check_datapath(const lad_datapath *dp, char *why, size_t size)
{
    static lad_case cs[NCASES * (LAD_GEN_KINDS + 1)];
    static lad_word_t batch[NCASES * (LAD_GEN_KINDS + 1)];
    lad_plan p;
    lad_plan_init(&p, dp);
    datapaths++;
    int ok = 1;
    for (int ev = 0; ev < LAD_NEVAL; ev++) {
        if (!engaged(ev, &p, dp))
            continue;
        int gap = lad_impl_gap(ev, dp, lad_rows_off(dp));
        if (gap >= 0 && ok) {
            snprintf(why, size, "%s runs with %s off its default, which it does not claim",
                     lad_evaluators[ev].name, lad_params[gap].key);
            ok = 0;
        }
        for (int i = 0; i < LAD_NPARAMS; i++)
            if (lad_params[i].type != LAD_PT_STR && !lad_param_at_default(&lad_params[i], dp) &&
                lad_param_matters(&lad_params[i], dp))
                runs[i][ev]++;
    }
    /* targeted cases from each generator that takes dp, random raw ones */
    int n = 0;
    for (int kind = 0; kind < LAD_GEN_KINDS; kind++)
        if (lad_gen_refuses(kind, dp) == NULL) {
            lad_gen_kind_cases(dp, kind, 0x5eed + (uint64_t)kind, 20, 0, cs + n, NCASES);
            n += NCASES;
        }
    lad_gen_cases(dp, 0xca5e, 100, 0, cs + n, NCASES);
    n += NCASES;
    lad_plan_eval_batch(&p, cs, (size_t)n, batch);
    /* the same cases as rows (no metadata: dense datapaths), each array
    ** exactly n cases long, so that a read past its end is one past the
    ** heap block (a sanitizer build reports it) */
    static lad_word_t byrow[NCASES * (LAD_GEN_KINDS + 1)];
    int rows = !dp->sparse && !dp->integer && rows_eval(dp, &p, cs, n, byrow);
    int bad = -1;
    lad_word_t want = 0, one = 0;
    for (int i = 0; i < n && bad < 0; i++) {
        want = dp->integer ? lad_eval_integer(dp, &cs[i]) : lad_eval_general(dp, &cs[i]);
        one = lad_plan_eval(&p, &cs[i]);
        if (one != want || batch[i] != want || (rows && byrow[i] != want))
            bad = i;
    }
    compared += n;
    if (!ok)
        return 0;
    if (bad >= 0) {
        snprintf(why, size,
                 "case %d (path %d): reference 0x%llx, plan 0x%llx, batch 0x%llx, rows 0x%llx",
                 bad, p.path, (unsigned long long)want, (unsigned long long)one,
                 (unsigned long long)batch[bad], (unsigned long long)byrow[bad]);
        return 0;
    }
    return !engaged(LAD_EV_GEMM, &p, dp) || gemm_agrees(dp, cs, n, why, size);
}

/* Formats to try in a format row (lad_format_find names). */
static const char *const formats[] = {"f32", "f16", "bf16", "tf32", "e4m3", "e5m2", "e3m2",
                                      "e2m3", "e2m1", "ue8m0", "ue4m3", "f64", "s8"};
#define NFORMATS ((int)(sizeof formats / sizeof formats[0]))

/* The legal values of row p to try on base: every value of a BOOL or
** ENUM; a numeric row's ends, its base value doubled and halved, one drawn
** from its range and its candidates; a NaN word's common ones; an order's
** candidates; for a format row, the index of each of formats[]. */
static int values(const lad_param *p, const lad_datapath *base, lad_rng *r, int64_t *v)
{
    int n = 0;
    switch (p->type) {
    case LAD_PT_BOOL:
        v[n++] = 0;
        v[n++] = 1;
        return n;
    case LAD_PT_ENUM:
        for (int i = 0; i < 32; i++)
            if (p->legal >> i & 1u)
                v[n++] = i;
        return n;
    case LAD_PT_FMT:
        for (int i = 0; i < NFORMATS; i++)
            v[n++] = i;
        return n;
    case LAD_PT_HEX:
        v[n++] = 0x7fc00000;
        v[n++] = 0xffc00000;
        v[n++] = 0x7e00;
        v[n++] = 0x7fff;
        v[n++] = 0xff;
        break;
    case LAD_PT_FLOOR:
        v[n++] = LAD_NOFLOOR;
        /* fall through */
    case LAD_PT_INT: {
        int at = (int)lad_param_get(p, base, base);
        v[n++] = p->lo;
        v[n++] = p->hi;
        v[n++] = at * 2;
        v[n++] = at / 2;
        v[n++] = lad_rng_range(r, (int)p->lo, (int)p->hi);
        break;
    }
    case LAD_PT_STR:
        return 0;
    default:
        break;
    }
    if (p->cands)
        n += lad_param_cands(p, base, v + n, LAD_PARAM_MAXCANDS);
    return n;
}

/* base with row p at value v (of values()). */
static void set_value(const lad_param *p, lad_datapath *dp, const lad_datapath *base, int64_t v)
{
    if (p->type == LAD_PT_FMT)
        *(lad_format *)((char *)dp + p->off) = *lad_format_find(formats[v]);
    else
        lad_param_set(p, dp, base, v);
}

/* The base datapaths: the default one, and for each evaluator and each
** row it claims, the first preset it runs on with that row off its
** default and in effect (or, where none sets the row, the first it runs
** on), each preset once. */
static int bases(lad_datapath *out, int max)
{
    int n = 0;
    lad_param_defaults(&out[n++]);
    for (int ev = 0; ev < LAD_NEVAL; ev++)
        for (int row = -1; row < LAD_NPARAMS; row++) {
            if (row >= 0 && lad_impl[row][ev] == LAD_IM_DFLT)
                continue;
            const lad_param *p = row >= 0 ? &lad_params[row] : NULL;
            for (int i = 0; i < lad_preset_count(); i++) {
                const lad_datapath *dp = &lad_preset_get(i)->dp;
                lad_plan pl;
                if (p && (p->type == LAD_PT_STR || lad_param_at_default(p, dp) ||
                          !lad_param_matters(p, dp)))
                    continue;
                lad_plan_init(&pl, dp);
                if (!engaged(ev, &pl, dp))
                    continue;
                int seen = 0;
                for (int j = 0; j < n; j++)
                    seen |= strcmp(out[j].name, dp->name) == 0;
                if (!seen && n < max)
                    out[n++] = *dp;
                break;
            }
        }
    return n;
}

void test_evaluators(void)
{
    static lad_datapath base[64];
    int nbase = bases(base, 64);
    lad_rng r;
    lad_rng_seed(&r, 0xe7a1);
    static int64_t v[MAXVALS];
    char test[200], why[200];
    for (int b = 0; b < nbase; b++) {
        const char *bname = base[b].name[0] ? base[b].name : "default";
        snprintf(test, sizeof test, "evaluators-%.60s", bname);
        test_check(check_datapath(&base[b], why, sizeof why), test, "%s", why);
    }
    /* one check per row: every value on every base */
    for (int row = 0; row < LAD_NPARAMS; row++) {
        const lad_param *p = &lad_params[row];
        if (p->type == LAD_PT_STR)
            continue;
        int ok = 1, tried = 0;
        for (int b = 0; b < nbase && ok; b++) {
            int nv = values(p, &base[b], &r, v);
            for (int j = 0; j < nv && ok; j++) {
                lad_datapath dp = base[b];
                set_value(p, &dp, &base[b], v[j]);
                lad_err err = {0};
                if (lad_datapath_check(&dp, &err) != LAD_OK)
                    continue;
                tried++;
                if (!check_datapath(&dp, why, sizeof why)) {
                    char w2[200];
                    snprintf(w2, sizeof w2, "%s", why);
                    snprintf(why, sizeof why, "%.60s %s=%lld: %.100s",
                             base[b].name[0] ? base[b].name : "default", p->key,
                             (long long)v[j], w2);
                    ok = 0;
                }
            }
        }
        snprintf(test, sizeof test, "evaluators-row-%s", p->key);
        test_check(ok && tried > 0, test, "%s", ok ? "no legal value tried" : why);
    }
    /* every claim ran at least once */
    for (int ev = 0; ev < LAD_NEVAL; ev++) {
        char missing[400] = "";
        size_t at = 0;
        for (int row = 0; row < LAD_NPARAMS; row++)
            if (lad_impl[row][ev] != LAD_IM_DFLT && lad_params[row].type != LAD_PT_STR &&
                runs[row][ev] == 0 && at + 40 < sizeof missing)
                at += (size_t)snprintf(missing + at, sizeof missing - at, " %s",
                                       lad_params[row].key);
        snprintf(test, sizeof test, "evaluators-claims-%s", lad_evaluators[ev].name);
        test_check(at == 0, test, "claimed off the default but never run:%s", missing);
    }
    printf("evaluators: %d bases, %ld datapaths, %ld cases\n", nbase, datapaths, compared);
}
