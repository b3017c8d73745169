/*
** Tests of probes/recipe.c: a recipe read from text has every field and
** place the text gives; parameters default as docs/recipes.md says; the
** datapath handed to a device carries the instruction and nothing
** measured; the shipped recipes all load; sha256 matches FIPS 180-4's
** examples.
*/
#include "test.h"
#include "util/sha256.h"
#include "model/presets.h"
#include "probes/recipe.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

static const char text[] =
    "recipe: 1\n"                                         /* 1 */
    "formats:\n"                                          /* 2 */
    "  - {name: mystery8, width: 8}\n"                    /* 3 */
    "  - {name: e3m4, width: 8, ebits: 3, mbits: 4}\n"    /* 4 */
    "datapath:\n"                                         /* 5 */
    "  name: test-dp\n"                                   /* 6 */
    "  arch: sm_100a\n"                                   /* 7 */
    "  instr: tcgen05.mma\n"                              /* 8 */
    "  a: mystery8\n"                                     /* 9 */
    "  b: e3m4\n"                                         /* 10 */
    "  c: f32\n"                                          /* 11 */
    "  d: f16\n"                                          /* 12 */
    "  k: 32\n"                                           /* 13 */
    "  sparse: 2of4\n"                                    /* 14 */
    "rungs:\n"                                            /* 15 */
    "  - instruction\n"                                   /* 16 */
    "  - {rung: visible, max_j: 33}\n"                    /* 17 */
    "  - {rung: truncation, operand: b}\n"                /* 18 */
    "  - grouping\n"                                      /* 19 */
    "random: {cases: 5, seed: 9}\n";                      /* 20 */

static void fields(void)
{
    lad_recipe r;
    lad_err err = {0};
    int rc = lad_recipe_parse("r.yaml", text, strlen(text), &r, &err);
    TEST_EQ_INT("recipe-parse-ok", LAD_OK, rc);
    if (rc) {
        printf("     %s\n", err.msg);
        return;
    }
    TEST_EQ_INT("recipe-version", 1, r.version);
    test_check(strcmp(r.device, "sim:test-dp") == 0, "recipe-device-default", "'%s'", r.device);
    TEST_EQ_INT("recipe-nformats", 2, r.nformats);
    TEST_EQ_INT("recipe-format-unknown-decode", 0, r.formats[0].known);
    TEST_EQ_INT("recipe-format-known", 1, r.formats[1].known);
    TEST_EQ_INT("recipe-format-bias-default", 3, r.formats[1].f.bias);
    TEST_EQ_INT("recipe-format-mark-line", 4, r.formats[1].mark.line);
    TEST_EQ_INT("recipe-format-mark-col", 5, r.formats[1].mark.col);
    TEST_EQ_INT("recipe-a-unknown", 0, r.dp.a_known);
    TEST_EQ_INT("recipe-a-width", 8, r.dp.a.width);
    TEST_EQ_INT("recipe-b-known", 1, r.dp.b_known);
    TEST_EQ_INT("recipe-k", 32, r.dp.k);
    TEST_EQ_INT("recipe-k-line", 13, r.dp.m_k.line);
    TEST_EQ_INT("recipe-k-col", 6, r.dp.m_k.col);
    TEST_EQ_INT("recipe-sparse", LAD_SPARSE_2OF4, r.dp.sparse);
    TEST_EQ_INT("recipe-nrungs", 4, r.nrungs);
    const lad_rung *v = lad_recipe_rung(&r, LAD_RUNG_VISIBLE);
    test_check(v && lad_rung_param(v, "max_j") == 33, "recipe-visible-max_j", "wrong");
    if (v) {
        lad_mark m = lad_rung_param_mark(v, "max_j");
        test_check(m.line == 17 && m.col == 28, "recipe-param-mark", "%d:%d", m.line, m.col);
        TEST_EQ_INT("recipe-rung-mark-col", 5, v->mark.col);
    }
    const lad_rung *t = lad_recipe_rung(&r, LAD_RUNG_TRUNCATION);
    test_check(t && lad_rung_param(t, "operand") == 2 &&
                   strcmp(lad_rung_param_enum(LAD_RUNG_TRUNCATION, 0, 2), "b") == 0,
               "recipe-truncation-operand", "wrong");
    const lad_rung *g = lad_recipe_rung(&r, LAD_RUNG_GROUPING);
    test_check(g && lad_rung_param(g, "max_pass") == LAD_RECIPE_ALL &&
                   lad_rung_param_mark(g, "max_pass").line == 19,
               "recipe-default-param", "wrong");
    test_check(g && lad_rung_param(g, "nope") == -2, "recipe-param-unknown", "wrong");
    test_check(lad_recipe_rung(&r, LAD_RUNG_LANES) == NULL, "recipe-rung-absent", "found");
    test_check(r.random.cases == 5 && r.random.finite == 50 && r.random.seed == 9,
               "recipe-random", "%lld %d", r.random.cases, r.random.finite);
    TEST_EQ_INT("recipe-random-seed-col", 26, r.random.m_seed.col);
    test_check(r.textlen == strlen(text) && strcmp(r.text, text) == 0, "recipe-text-kept", "differs");

    lad_datapath dp;
    lad_recipe_datapath(&r, &dp);
    TEST_EQ_INT("recipe-dp-k", 32, dp.k);
    TEST_EQ_INT("recipe-dp-pass-physical", 16, dp.pass);
    TEST_EQ_INT("recipe-dp-sparse", LAD_SPARSE_2OF4, dp.sparse);
    TEST_EQ_U32("recipe-dp-nan-of-d", 0x7fff, dp.nan);
    test_check(strcmp(dp.a.name, "mystery8") == 0 && dp.a.width == 8 && dp.a.ebits == 0,
               "recipe-dp-unknown-format", "'%s' %d", dp.a.name, dp.a.width);
    test_check(strcmp(dp.name, "test-dp") == 0 && strcmp(dp.instr, "tcgen05.mma") == 0,
               "recipe-dp-names", "'%s'", dp.name);
    lad_recipe_free(&r);
    lad_recipe_free(&r);
}

/* Every shipped recipe loads, names a preset, and tells the device what that
** preset's instruction is. */
static void shipped(void)
{
    DIR *d = opendir("recipes");
    int n = 0, bad = 0;
    char first[1000] = "";
    struct dirent *e;
    while (d && (e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len < 6 || strcmp(e->d_name + len - 5, ".yaml") != 0)
            continue;
        char path[300];
        snprintf(path, sizeof path, "recipes/%s", e->d_name);
        lad_recipe r;
        lad_err err = {0};
        n++;
        const char *why = NULL;
        const lad_preset *p = NULL;
        if (lad_recipe_load(path, &r, &err) != LAD_OK) {
            why = err.msg;
        } else {
            lad_datapath dp;
            lad_recipe_datapath(&r, &dp);
            p = lad_preset_find(r.dp.name);
            if (strncmp(e->d_name, r.dp.name, len - 5) != 0 || r.dp.name[len - 5])
                why = "file name differs from datapath name";
            else if (p == NULL)
                why = "no such preset";
            else if (p->dp.k != dp.k || p->dp.sparse != dp.sparse ||
                     p->dp.scale_block != dp.scale_block ||
                     memcmp(&p->dp.a, &dp.a, sizeof dp.a) ||
                     memcmp(&p->dp.b, &dp.b, sizeof dp.b) ||
                     strcmp(p->dp.c.name, dp.c.name) ||
                     strcmp(p->dp.sass, dp.sass) || strcmp(p->dp.arch, dp.arch))
                why = "instruction differs from the preset";
            lad_recipe_free(&r);
        }
        if (why && !bad++)
            snprintf(first, sizeof first, "%s: %s", path, why);
    }
    if (d)
        closedir(d);
    test_check(n >= 30 && bad == 0, "recipe-shipped-load", "%d of %d bad; first %s", bad, n, first);
}

static void sha256(void)
{
    char h[65];
    lad_sha256_hex("abc", 3, h);
    test_check(strcmp(h, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad") == 0,
               "recipe-sha256-abc", "%s", h);
    lad_sha256_hex("", 0, h);
    test_check(strcmp(h, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855") == 0,
               "recipe-sha256-empty", "%s", h);
    const char *m = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    lad_sha256_hex(m, strlen(m), h);
    test_check(strcmp(h, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1") == 0,
               "recipe-sha256-448", "%s", h);
    lad_recipe r;
    lad_err err = {0};
    if (lad_recipe_parse("r.yaml", text, strlen(text), &r, &err) == LAD_OK) {
        lad_sha256_hex(text, strlen(text), h);
        test_check(strcmp(h, r.sha256) == 0, "recipe-sha256-of-text", "%s", r.sha256);
        lad_recipe_free(&r);
    }
}

void test_recipe(void)
{
    fields();
    shipped();
    sha256();
}
