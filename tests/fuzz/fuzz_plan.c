/*
** Differential: the plan's fast paths (lad_plan_eval, both builds of the
** unscaled one; lad_plan_eval_rows against lad_plan_eval; eight cases in
** one batch, where the case kernel takes eight side by side, each against
** the reference) against the general reference (lad_eval_general) on any
** datapath the model-file loader and lad_datapath_check accept. The input
** is a model file, a NUL byte, then the case as raw bytes: A and B words,
** C, the scales and the metadata, each word in as many bytes as its
** format's width needs (little-endian, masked to the width; missing bytes
** are 0). An empty model file picks a preset by the first case byte.
*/
#include "fuzz.h"

#include <inttypes.h>

#include "io/modelfile.h"
#include "model/datapath_int.h"

typedef struct reader {
    const uint8_t *p;
    size_t n;
} reader;

static lad_word_t take(reader *r, int width)
{
    lad_word_t w = 0;
    for (int i = 0; i < (width + 7) / 8; i++) {
        if (r->n > 0) {
            w |= (lad_word_t)*r->p << (8 * i);
            r->p++;
            r->n--;
        }
    }
    return width < 64 ? w & (((lad_word_t)1 << width) - 1) : w;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *nul = memchr(data, 0, size);
    if (nul == NULL)
        return 0;
    size_t mlen = (size_t)(nul - data);
    reader r = {nul + 1, size - mlen - 1};
    static lad_datapath dp;
    lad_err err = {0};
    if (mlen == 0) {
        dp = fuzz_preset(r.n ? r.p[0] : 0)->dp;
    } else if (lad_model_parse("fuzz.yaml", (const char *)data, mlen, &dp,
                               NULL, 0, &err) != LAD_OK) {
        return 0;
    }
    static lad_case cs;
    memset(&cs, 0, sizeof cs);
    for (int i = 0; i < dp.k; i++) {
        cs.a[i] = take(&r, dp.a.width);
        cs.b[i] = take(&r, dp.b.width);
    }
    cs.c = take(&r, dp.c.width);
    for (int i = 0; i < lad_datapath_nscales(&dp); i++) {
        cs.sa[i] = (uint8_t)take(&r, 8);
        cs.sb[i] = (uint8_t)take(&r, 8);
    }
    for (int i = 0; i < lad_datapath_nmeta(&dp); i++)
        cs.meta[i] = (uint32_t)take(&r, 32);
    lad_plan pl;
    lad_plan_init(&pl, &dp);
    lad_word_t fast = lad_plan_eval(&pl, &cs);
    lad_word_t ref = dp.integer ? lad_eval_integer(&dp, &cs)
                                : lad_eval_general(&dp, &cs);
    if (fast != ref)
        fuzz_fail("%s: path %d gives %08" PRIx64 ", the reference %08" PRIx64, dp.name,
                  pl.path, fast, ref);
    /* the fast path's generic build too, where the AVX2 one ran */
    int avx2 = pl.avx2;
    if (avx2) {
        pl.avx2 = 0;
        lad_word_t generic = lad_plan_eval(&pl, &cs);
        if (generic != ref)
            fuzz_fail("%s: the generic fast path gives %08" PRIx64 ", the reference "
                      "%08" PRIx64, dp.name, generic, ref);
        pl.avx2 = avx2;
    }
    /* the case as rows (their metadata zero) in arrays of exactly its
    ** size, so that the sanitizer sees a read past them */
    size_t k = (size_t)dp.k, nkb = (size_t)lad_datapath_nscales(&dp);
    lad_word_t *ra = malloc(k * sizeof *ra), *rb = malloc(k * sizeof *rb), rd;
    uint8_t *rsa = malloc(nkb + 1), *rsb = malloc(nkb + 1);
    uint8_t *ra8 = malloc(k), *rb8 = malloc(k);
    if (ra && rb && rsa && rsb && ra8 && rb8) {
        memcpy(ra, cs.a, k * sizeof *ra);
        memcpy(rb, cs.b, k * sizeof *rb);
        memcpy(rsa, cs.sa, nkb);
        memcpy(rsb, cs.sb, nkb);
        memset(cs.meta, 0, sizeof cs.meta);
        lad_word_t want = lad_plan_eval(&pl, &cs);
        /* words, then for formats of a byte or less the bytes themselves */
        int narrow = dp.a.width <= 8 && dp.b.width <= 8;
        for (int as8 = 0; as8 <= narrow; as8++) {
            lad_rows rows = {ra, rb, &cs.c, rsa, rsb, NULL, NULL};
            if (as8) {
                for (size_t j = 0; j < k; j++) {
                    ra8[j] = (uint8_t)cs.a[j];
                    rb8[j] = (uint8_t)cs.b[j];
                }
                rows.a = rows.b = NULL;
                rows.a8 = ra8;
                rows.b8 = rb8;
            }
            lad_plan_eval_rows(&pl, &rows, 1, &rd);
            if (rd != want)
                fuzz_fail("%s: path %d gives %08" PRIx64 " on rows of %s, %08" PRIx64
                          " on the case", dp.name, pl.path, rd, as8 ? "bytes" : "words", want);
        }
    }
    free(ra);
    free(rb);
    free(ra8);
    free(rb8);
    free(rsa);
    free(rsb);
    /* eight cases in one batch (lad_cases_eval where the plan has
    ** cases8): case l the input's with its lanes rotated by l and C's
    ** low bits moved by l, so that the lanes differ */
    static lad_case eight[8];
    lad_word_t d8[8];
    for (int l = 0; l < 8; l++) {
        eight[l] = cs;
        for (int j = 0; j < dp.k; j++) {
            eight[l].a[j] = cs.a[(j + l) % dp.k];
            eight[l].b[j] = cs.b[(j + l) % dp.k];
        }
        eight[l].c ^= (lad_word_t)l;
    }
    lad_plan_eval_batch(&pl, eight, 8, d8);
    for (int l = 0; l < 8 && !dp.integer; l++) {
        lad_word_t want = lad_eval_general(&dp, &eight[l]);
        if (d8[l] != want)
            fuzz_fail("%s: path %d gives %08" PRIx64 " for case %d of a batch, the reference "
                      "%08" PRIx64, dp.name, pl.path, d8[l], l, want);
    }
    return 0;
}
