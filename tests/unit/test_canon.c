/*
** Tests of the canonical form (model/canon.c, lad_canon in params.h):
**
**   - every preset is stored canonical: lad_canon changes nothing;
**   - for every preset, each row it has not in effect is set to another
**     value that lad_datapath_check accepts and that the canonical form
**     maps back to the preset, all such rows at once; that datapath gives
**     the preset's words on the structured cases of the diff search and
**     LADDER_CANON_CASES random ones (default 4096; make test-long:
**     100000). A wrong "not in effect" rule fails here;
**   - a row in effect is kept: a preset's window (or, for an integer
**     datapath, its saturation) changed is not the preset's canonical
**     form;
**   - lad_canon is idempotent, and the verdict names are the three words.
*/
#include "test.h"
#include "model/params.h"
#include "model/presets.h"
#include "model/format.h"
#include "probes/diff.h"

#include <stdlib.h>
#include <string.h>

/* Values an int-like row is tried at, after its current one changed. */
static const int tries[] = {1, 0, 2, 3, 4, 5, 8, 13, 16, 24, 25, 31, 32, 48, 64, 100,
                            128, 200, -133, -150, -1000, LAD_NOFLOOR};
static const char *const fmts[] = {"f16", "bf16", "e8m13", "f64", "e5m2"};

/* Sets row p of dp to the n-th value tried; 0 when there is none. */
static int set_nth(const lad_param *p, lad_datapath *dp, int n)
{
    char *at = (char *)dp + p->off;
    switch (p->type) {
    case LAD_PT_INT:
    case LAD_PT_BOOL:
    case LAD_PT_ENUM:
    case LAD_PT_FLOOR:
        if (n >= (int)(sizeof tries / sizeof tries[0]))
            return 0;
        *(int *)at = tries[n];
        return 1;
    case LAD_PT_FMT:
        if (n >= (int)(sizeof fmts / sizeof fmts[0]))
            return 0;
        *(lad_format *)at = *lad_format_find(fmts[n]);
        return 1;
    case LAD_PT_HEX:
        if (n > 0)
            return 0;
        *(lad_word_t *)at ^= 1;
        return 1;
    case LAD_PT_ORDER: {
        if (n > 0)
            return 0;
        int k = lad_datapath_kphys(dp);
        dp->norder = k;
        for (int i = 0; i < k; i++)
            dp->order[i] = (unsigned char)(k - 1 - i);
        return 1;
    }
    default:
        return 0;
    }
}

/* The preset with every row not in effect moved off its value where the
** canonical form maps it back; returns how many rows moved. */
static int perturb(const lad_datapath *preset, lad_datapath *out)
{
    *out = *preset;
    int moved = 0;
    for (int i = 0; i < lad_nparams; i++) {
        const lad_param *p = &lad_params[i];
        if (p->type == LAD_PT_STR || (p->flags & LAD_PF_REQUIRED) ||
            lad_param_in_effect(p, preset))
            continue;
        for (int n = 0;; n++) {
            lad_datapath t = *out;
            if (!set_nth(p, &t, n))
                break;
            if (memcmp(&t, out, sizeof t) == 0 || lad_datapath_check(&t, NULL) != LAD_OK)
                continue;
            if (lad_canon_equal(&t, preset)) {
                *out = t;
                moved++;
                break;
            }
        }
    }
    return moved;
}

void test_canon(void)
{
    long random = 4096;
    const char *env = getenv("LADDER_CANON_CASES");
    if (env && atol(env) > 0)
        random = atol(env);
    int n = lad_preset_count(), noncanon = 0, moved_presets = 0, bad = 0, idem = 0;
    long rows = 0, cases = 0;
    char first[300] = "";
    for (int i = 0; i < n; i++) {
        const lad_datapath *p = &lad_preset_get(i)->dp;
        lad_datapath c = *p;
        if (lad_canon(&c) != 0 || memcmp(&c, p, sizeof c) != 0) {
            if (!noncanon++)
                snprintf(first, sizeof first, "%s", p->name);
        }
        lad_datapath t;
        int moved = perturb(p, &t);
        if (moved == 0)
            continue;
        moved_presets++;
        rows += moved;
        lad_datapath again = t;
        lad_canon(&again);
        lad_datapath twice = again;
        idem += lad_canon(&twice) != 0;
        lad_verdict v;
        cases += lad_diff_search(&t, p, random, &v);
        if (v.found && !bad++)
            test_check(0, "canon-keeps-words", "%s with its rows not in effect moved gives "
                       "0x%llx, the preset 0x%llx", p->name, (unsigned long long)v.da,
                       (unsigned long long)v.db);
        if (v.found && getenv("LADDER_CANON_DEBUG")) {
            fprintf(stderr, "differs: %s:", p->name);
            for (int r = 0; r < lad_nparams; r++) {
                char a[400], b[400];
                if (strcmp(lad_param_text(&lad_params[r], &t, a, sizeof a),
                           lad_param_text(&lad_params[r], p, b, sizeof b)))
                    fprintf(stderr, " %s %s(%s)", lad_params[r].key, a, b);
            }
            fprintf(stderr, "\n  alone:");
            for (int r = 0; r < lad_nparams; r++) {
                lad_datapath one = *p;
                const lad_param *q = &lad_params[r];
                memcpy((char *)&one + q->off, (char *)&t + q->off, q->size);
                if (q->type == LAD_PT_ORDER) {
                    one.norder = t.norder;
                    memcpy(one.order, t.order, sizeof one.order);
                }
                lad_verdict v1;
                if (memcmp(&one, p, sizeof one) && lad_datapath_check(&one, NULL) == LAD_OK &&
                    (lad_diff_search(&one, p, random, &v1), v1.found))
                    fprintf(stderr, " %s", q->key);
            }
            fprintf(stderr, "\n");
        }
    }
    test_check(noncanon == 0, "canon-presets", "%d presets are not canonical, first %s",
               noncanon, first);
    test_check(moved_presets > n / 2 && rows > n, "canon-moved-rows",
               "only %d presets had rows not in effect to move (%ld rows)", moved_presets, rows);
    if (!bad)
        test_check(1, "canon-keeps-words", "%s", "");
    test_check(idem == 0, "canon-idempotent", "%d canonical forms changed when canonicalized "
               "again", idem);
    fprintf(stderr, "canon: %d presets, %ld rows not in effect moved, %ld cases each side\n",
            moved_presets, rows, cases);

    /* rows in effect are kept */
    const lad_datapath *w = &lad_preset_find("sm90-mma-bf16-f32")->dp;
    lad_datapath x = *w;
    x.window = 22;
    test_check(!lad_canon_equal(&x, w), "canon-keeps-window", "window 22 taken for 25");
    const lad_datapath *s = &lad_preset_find("sm80-mma-s8xs8-s32")->dp;
    x = *s;
    x.saturate = !x.saturate;
    test_check(!lad_canon_equal(&x, s), "canon-keeps-saturate", "saturation taken for none");
    /* the rule of a bound no product reaches: cdna3 f16 prod_inf */
    const lad_datapath *f16 = &lad_preset_find("cdna3-mfma-f16-f32")->dp;
    x = *f16;
    x.prod_inf = 128;
    test_check(lad_canon_equal(&x, f16) && !lad_param_in_effect(lad_param_find("prod_inf"), &x),
               "canon-prod-inf-f16", "prod_inf 128 in effect for f16 products");
    const lad_datapath *bf16 = &lad_preset_find("cdna3-mfma-bf16-f32")->dp;
    test_check(bf16->prod_inf == 128, "canon-prod-inf-bf16",
               "bf16 products reach 2^128: prod_inf is %d", bf16->prod_inf);
    test_check(strcmp(lad_verdict_names[LAD_SAME], "=") == 0 &&
               strcmp(lad_verdict_names[LAD_EQUIV], "\u2261") == 0 &&
               strcmp(lad_verdict_names[LAD_DIFFERS], "differs") == 0,
               "canon-verdict-names", "the verdict names changed");
}
