/*
** Tests of the parameter registry (model/params.def, params.c): that it
** is the one definition the reader, the checks and the defaults share.
**
**   - every value of a row's legal set that the docs print (the ends of a
**     range, each legal name, none) is read by the model-file reader and
**     passes lad_datapath_check for some datapath (a preset, or the
**     defaults at the widest K); the first value past each end, and each
**     name outside the set, is refused by both, naming the row;
**   - lad_datapath_init gives each row its default;
**   - value codes keep 64-bit words (an f64 NaN), and print them whole;
**   - every sweep group names searchable rows.
*/
#include "test.h"
#include "io/modelfile.h"
#include "io/yaml.h"
#include "model/params.h"
#include "model/presets.h"

#include <stdio.h>
#include <string.h>

/* Reads (without lad_datapath_check) a model file of the required keys
** plus "key: text", the last line; LAD_OK or not. */
static int read_value(const lad_param *p, const char *text, lad_err *err)
{
    char yaml[256];
    size_t n = 0;
    static const char *const req[] = {"a: f32", "b: f32", "c: f32", "d: f32", "k: 1"};
    for (int i = 0; i < 5; i++)
        if (strncmp(req[i], p->key, strlen(p->key)) || req[i][strlen(p->key)] != ':')
            n += (size_t)snprintf(yaml + n, sizeof yaml - n, "%s\n", req[i]);
    n += (size_t)snprintf(yaml + n, sizeof yaml - n, "%s: %s\n", p->key, text);
    memset(err, 0, sizeof *err);
    lad_ydoc doc;
    int rc = lad_yaml_parse("m.yaml", yaml, n, &doc, err);
    if (rc)
        return rc;
    lad_datapath dp;
    rc = lad_model_from_node(&doc, doc.root, &dp, NULL, 0, err);
    lad_yaml_free(&doc);
    return rc;
}

/* The bases a legal value is tried on: the defaults at K = LAD_KMAX, then
** every preset. */
static int nbases(void)
{
    return 1 + lad_preset_count();
}

static void base_at(int i, lad_datapath *dp)
{
    if (i == 0) {
        lad_datapath_init(dp);
        dp->k = LAD_KMAX;
    } else {
        *dp = lad_preset_get(i - 1)->dp;
    }
}

/* Whether some base with p's field set to v passes lad_datapath_check. */
static int accepted_somewhere(const lad_param *p, int v)
{
    for (int i = 0; i < nbases(); i++) {
        lad_datapath dp;
        base_at(i, &dp);
        *(int *)((char *)&dp + p->off) = v;
        if (lad_datapath_check(&dp, NULL) == LAD_OK)
            return 1;
    }
    return 0;
}

/* Whether every base refuses v in p's field, naming p. */
static int refused_everywhere(const lad_param *p, int v)
{
    for (int i = 0; i < nbases(); i++) {
        lad_datapath dp;
        base_at(i, &dp);
        *(int *)((char *)&dp + p->off) = v;
        lad_err err = {0};
        if (lad_datapath_check(&dp, &err) == LAD_OK || strcmp(err.key, p->key) != 0)
            return 0;
    }
    return 1;
}

/* One value: the reader and the check agree that it is legal (want 1) or
** not (want 0). text is how a model file writes it. */
static void agree(const lad_param *p, int v, const char *text, int want)
{
    char name[96];
    lad_err err;
    int rd = read_value(p, text, &err) == LAD_OK;
    snprintf(name, sizeof name, "params-legal-read-%s-%s", p->key, text);
    test_check(rd == want, name, "the reader %s '%s: %s'%s%s", rd ? "accepts" : "refuses",
               p->key, text, rd ? "" : ": ", rd ? "" : err.msg);
    if (!want && !rd) {
        snprintf(name, sizeof name, "params-legal-read-place-%s-%s", p->key, text);
        test_check(strstr(err.msg, "m.yaml:") == err.msg && strstr(err.msg, p->key), name, "no place in '%s'", err.msg);
    }
    snprintf(name, sizeof name, "params-legal-check-%s-%s", p->key, text);
    if (want)
        test_check(accepted_somewhere(p, v), name,
                   "no datapath with %s %s passes lad_datapath_check", p->key, text);
    else
        test_check(refused_everywhere(p, v), name,
                   "lad_datapath_check does not always refuse %s %s naming it", p->key, text);
}

static void legal_sets(void)
{
    for (int i = 0; i < lad_nparams; i++) {
        const lad_param *p = &lad_params[i];
        char t[32];
        switch (p->type) {
        case LAD_PT_INT:
        case LAD_PT_FLOOR: {
            int ends[4] = {(int)p->lo, (int)p->hi, (int)p->lo - 1, (int)p->hi + 1};
            for (int e = 0; e < 4; e++) {
                snprintf(t, sizeof t, "%d", ends[e]);
                agree(p, ends[e], t, e < 2);
            }
            if (p->type == LAD_PT_FLOOR)
                agree(p, LAD_NOFLOOR, "none", 1);
            break;
        }
        case LAD_PT_BOOL:
            agree(p, 0, "false", 1);
            agree(p, 1, "true", 1);
            break;
        case LAD_PT_ENUM:
            for (int v = 0; p->names[v]; v++)
                agree(p, v, p->names[v], (p->legal >> v) & 1);
            break;
        }
    }
}

static void defaults(void)
{
    lad_datapath dp;
    lad_datapath_init(&dp);
    int bad = 0;
    char first[96] = "";
    for (int i = 0; i < lad_nparams; i++) {
        const lad_param *p = &lad_params[i];
        const char *at = (const char *)&dp + p->off;
        int ok = 1;
        if (p->type == LAD_PT_INT || p->type == LAD_PT_BOOL || p->type == LAD_PT_ENUM ||
            p->type == LAD_PT_FLOOR)
            ok = *(const int *)at == p->dflt;
        else if (p->type == LAD_PT_HEX)
            ok = *(const lad_word_t *)at == (lad_word_t)p->dflt;
        else if (p->type == LAD_PT_FMT)
            ok = strcmp(((const lad_format *)at)->name, p->dflt_fmt) == 0;
        if (!ok && !bad++)
            snprintf(first, sizeof first, "%s", p->key);
    }
    test_check(bad == 0, "params-defaults", "%d rows not at their default, first %s", bad, first);
    test_check(lad_datapath_check(&dp, NULL) == LAD_OK, "params-defaults-legal",
               "the defaults fail lad_datapath_check");
    /* the ids are the rows' indexes */
    test_check(lad_param_find("window") == &lad_params[LAD_P_window] &&
                   lad_param_index(&lad_params[LAD_P_sparse]) == LAD_P_sparse &&
                   lad_nparams == LAD_NPARAMS,
               "params-ids", "LAD_P_ ids do not index lad_params");
}

/* An f64 NaN word is a value code whole: not cut to its low 32 bits. */
static void wide_words(void)
{
    const lad_preset *f64 = lad_preset_find("sm90-mma-f64-f64-k16");
    test_check(f64 != NULL, "params-word-f64-preset", "no preset sm90-mma-f64-f64-k16");
    if (!f64)
        return;
    const lad_param *p = &lad_params[LAD_P_nan];
    lad_datapath dp = f64->dp;
    int64_t v = lad_param_get(p, &dp, &dp);
    test_check((lad_word_t)v == dp.nan && dp.nan > 0xffffffffu, "params-word-get",
               "nan 0x%016" PRIx64 " read as 0x%016" PRIx64, (uint64_t)dp.nan, (uint64_t)v);
    lad_datapath t = dp;
    lad_param_set(p, &t, &dp, (int64_t)0xfff0000000000001ull);
    TEST_EQ_WORD("params-word-set", 0xfff0000000000001ull, t.nan);
    char buf[64];
    lad_param_code_text(p, &dp, (int64_t)0x7ff8000000000123ull, buf, sizeof buf);
    test_check(strcmp(buf, "0x7ff8000000000123") == 0, "params-word-text", "printed '%s'", buf);
    int64_t c[LAD_PARAM_MAXCANDS];
    int n = lad_param_cands(p, &dp, c, LAD_PARAM_MAXCANDS);
    test_check(n >= 1 && (lad_word_t)c[0] == dp.nan, "params-word-cands",
               "the candidate is not the preset's 64-bit word");
}

static void sweep_groups(void)
{
    int bad = 0;
    for (int g = 0; g < lad_nsweep_groups; g++)
        for (int r = 0; r < lad_sweep_groups[g].n; r++) {
            int id = lad_sweep_groups[g].rows[r];
            if (id < 0 || id >= lad_nparams || lad_params[id].cands == NULL)
                bad++;
        }
    test_check(lad_nsweep_groups > 0 && bad == 0, "params-sweep-groups",
               "%d group members are not searchable rows", bad);
}

/* zero_sign: -2^-100 * 2^-100 rounds to zero in f32 (below 2^-149): IEEE
** gives -0 (0x80000000), the tensor cores measured so far +0; an exact
** cancellation is +0 either way. (No anchor floor: -133 would cut the
** product to nothing in the window, an exact zero.) */
static void zero_sign(void)
{
    lad_datapath dp = lad_preset_find("sm90-mma-bf16-f32")->dp;
    dp.anchor_min = LAD_NOFLOOR;
    lad_case cs;
    memset(&cs, 0, sizeof cs);
    cs.a[0] = 0x8d80;  /* bf16 -2^-100 */
    cs.b[0] = 0x0d80;  /* bf16 2^-100 */
    TEST_EQ_WORD("params-zero-sign-off", 0x00000000, lad_eval(&dp, &cs));
    dp.zero_sign = 1;
    TEST_EQ_WORD("params-zero-sign-on", 0x80000000, lad_eval(&dp, &cs));
    lad_plan pl;
    lad_plan_init(&pl, &dp);
    TEST_EQ_WORD("params-zero-sign-plan", 0x80000000, lad_plan_eval(&pl, &cs));
    cs.a[1] = 0x3f80;  /* 1 * 1 - 1 = 0 exactly */
    cs.b[1] = 0x3f80;
    cs.c = 0xbf800000;
    cs.a[0] = cs.b[0] = 0;
    TEST_EQ_WORD("params-zero-sign-cancel", 0x00000000, lad_eval(&dp, &cs));
}

void test_params(void)
{
    zero_sign();
    legal_sets();
    defaults();
    wide_words();
    sweep_groups();
}
