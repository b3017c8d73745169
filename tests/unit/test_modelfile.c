/*
** Tests of io/modelfile.c: every preset written and read back is the same
** datapath; hand-written model files read as written; bad ones fail with
** their place.
*/
#include "test.h"
#include "io/modelfile.h"
#include "model/presets.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Bytes after the NUL of a name are not part of the datapath: clear them
** so that two equal datapaths compare equal with memcmp. */
static void tidy_format(lad_format *f)
{
    size_t n = strlen(f->name);
    memset(f->name + n, 0, sizeof f->name - n);
}

static void tidy(lad_datapath *dp)
{
    char *strs[] = {dp->name, dp->arch, dp->instr, dp->kind, dp->shape, dp->sass};
    size_t sizes[] = {sizeof dp->name, sizeof dp->arch, sizeof dp->instr,
                      sizeof dp->kind, sizeof dp->shape, sizeof dp->sass};
    for (int i = 0; i < 6; i++) {
        size_t n = strlen(strs[i]);
        memset(strs[i] + n, 0, sizes[i] - n);
    }
    lad_format *fs[] = {&dp->a, &dp->b, &dp->c, &dp->d, &dp->acc, &dp->sa, &dp->sb};
    for (int i = 0; i < 7; i++)
        tidy_format(fs[i]);
}

static void roundtrip(void)
{
    int n = lad_preset_count(), bad = 0;
    char first[700] = "";
    for (int i = 0; i < n; i++) {
        const lad_preset *p = lad_preset_get(i);
        lad_datapath want = p->dp, got;
        tidy(&want);
        char *y = lad_model_write(&p->dp, p->evidence);
        char ev[512];
        lad_err err = {0};
        int rc = y ? lad_model_parse("preset.yaml", y, strlen(y), &got, ev, sizeof ev, &err)
                   : LAD_EINTERNAL;
        if (rc == LAD_OK)
            tidy(&got);
        if (rc != LAD_OK || memcmp(&want, &got, sizeof got) != 0 ||
            strcmp(ev, p->evidence) != 0) {
            if (!bad++)
                snprintf(first, sizeof first, "%s: rc %d %s", p->dp.name, rc, err.msg);
        }
        free(y);
    }
    test_check(n > 0 && bad == 0, "modelfile-roundtrip-presets",
               "%d of %d presets differ; first %s", bad, n, first);

    /* A user format inline, floors, hex NaN and every enum off default. */
    lad_datapath dp;
    lad_datapath_init(&dp);
    snprintf(dp.name, sizeof dp.name, "odd: \"quoted\"");
    dp.a = *lad_format_find("e4m3");
    dp.b = *lad_format_find("e5m2");
    lad_format u = *lad_format_find("e4m3");
    snprintf(u.name, sizeof u.name, "e4m3b8");
    u.bias = 8;
    dp.acc = u;
    dp.k = 32;
    dp.pass = 16;
    dp.zero_floor = -133;
    dp.anchor_min = LAD_NOFLOOR;
    dp.align_round = LAD_RNE;
    dp.chain = LAD_SUM;
    dp.overflow = LAD_OVF_SAT;
    dp.nan = 0x7fc00000;
    dp.sparse = LAD_SPARSE_2OF4;
    char *y = lad_model_write(&dp, NULL);
    lad_datapath got;
    lad_err err = {0};
    lad_ydoc doc = {0};
    /* A failed write is a failed check, not strlen(NULL). */
    int rc = y ? lad_yaml_parse("u.yaml", y, strlen(y), &doc, &err) : LAD_EINTERNAL;
    if (rc == LAD_OK)
        rc = lad_model_from_node(&doc, doc.root, &got, NULL, 0, &err);
    lad_yaml_free(&doc);
    test_check(rc == LAD_OK && memcmp(&dp, &got, sizeof dp) == 0,
               "modelfile-roundtrip-user-format", "rc %d %s", rc, err.msg);
    test_check(y && strstr(y, "\nacc: \"e4m3:bias=8,name=e4m3b8\"\n"),
               "modelfile-write-format-spec", "acc not written as its spec");
    test_check(y && strstr(y, "\nzero_floor: -133\n") && strstr(y, "\nanchor_min: none\n") &&
                   strstr(y, "\nnan: 0x7fc00000\n") && strstr(y, "\nsparse: 2of4\n") &&
                   strstr(y, "\nname: \"odd: \\\"quoted\\\"\"\n"),
               "modelfile-write-values", "a value is not written as documented");
    free(y);

    /* A model read from a file without evidence has evidence "": written
    ** back, it must load (an `evidence: ""` line would not). */
    char ev[64] = "";
    y = lad_model_write(&dp, ev);
    rc = y ? lad_model_parse("e.yaml", y, strlen(y), &got, ev, sizeof ev, &err)
           : LAD_EINTERNAL;
    test_check(rc == LAD_OK && ev[0] == 0 && y && !strstr(y, "evidence"),
               "modelfile-roundtrip-no-evidence", "rc %d %s", rc, err.msg);
    free(y);

    /* Text that double-quoted YAML would fold (NEL, LS, PS become spaces)
    ** or refuse raw (DEL, C1 controls, U+FFFE) is escaped: it reads back as
    ** written (found by tests/fuzz/fuzz_modelfile.c). */
    static const char odd[] = "a\xc2\x85" "b\xe2\x80\xa8" "c\xe2\x80\xa9" "d\x7f"
                              "e\xc2\x80" "f\xef\xbf\xbe" "g\\\x08h";
    char back[64] = "";
    y = lad_model_write(&dp, odd);
    rc = y ? lad_model_parse("o.yaml", y, strlen(y), &got, back, sizeof back, &err)
           : LAD_EINTERNAL;
    test_check(rc == LAD_OK && strcmp(back, odd) == 0, "modelfile-roundtrip-odd-text",
               "rc %d %s", rc, err.msg);
    free(y);

    /* Evidence longer than the caller's buffer is cut between characters,
    ** never inside one (here a 2-byte e-acute would straddle byte 7). */
    char small[8];
    static const char acute[] = "evidence: \"abcdef\xc3\xa9z\"\n";
    y = lad_model_write(&dp, NULL);
    size_t tl = y ? strlen(y) : 0;
    char *full = malloc(tl + sizeof acute);
    if (full && y) {
        memcpy(full, y, tl);
        memcpy(full + tl, acute, sizeof acute);
    }
    rc = full && y ? lad_model_parse("c.yaml", full, strlen(full), &got, small, sizeof small,
                                     &err)
                   : LAD_EINTERNAL;
    test_check(rc == LAD_OK && strcmp(small, "abcdef") == 0, "modelfile-evidence-cut-whole-char",
               "rc %d %s, got '%s'", rc, err.msg, small);
    free(full);
    free(y);
}

static void bad(const char *name, const char *text, const char *want)
{
    lad_datapath dp;
    lad_err err = {0};
    int rc = lad_model_parse("m.yaml", text, strlen(text), &dp, NULL, 0, &err);
    test_check(rc == LAD_EDATA && strcmp(err.msg, want) == 0, name,
               "rc %d '%s', expected '%s'", rc, err.msg, want);
}

static void reading(void)
{
    const char *text = "name: x\na: bf16\nb: bf16\nk: 16\nwindow: 25\npass: 16\n"
                       "zero_floor: -131\nnan: 7fff\nd: f16\nc: f16\n"
                       "acc_round: rne\nevidence: by hand\n";
    lad_datapath dp;
    char ev[64];
    lad_err err = {0};
    int rc = lad_model_parse("m.yaml", text, strlen(text), &dp, ev, sizeof ev, &err);
    TEST_EQ_INT("modelfile-read-ok", LAD_OK, rc);
    TEST_EQ_INT("modelfile-read-k", 16, dp.k);
    TEST_EQ_INT("modelfile-read-window", 25, dp.window);
    TEST_EQ_INT("modelfile-read-floor", -131, dp.zero_floor);
    TEST_EQ_INT("modelfile-read-default-anchor-min", LAD_NOFLOOR, dp.anchor_min);
    TEST_EQ_U32("modelfile-read-nan", 0x7fff, dp.nan);
    TEST_EQ_INT("modelfile-read-acc-round", LAD_RNE, dp.acc_round);
    TEST_EQ_INT("modelfile-read-d-width", 16, dp.d.width);
    test_check(strcmp(dp.a.name, "bf16") == 0 && strcmp(ev, "by hand") == 0,
               "modelfile-read-strings", "a '%s' evidence '%s'", dp.a.name, ev);

    bad("modelfile-unknown-key", "name: x\nwidht: 3\n", "m.yaml:2:1: unknown key 'widht'");
    bad("modelfile-bad-round", "in_round: rn\n",
        "m.yaml:1:11: 'in_round' must be one of rz, rne, ru, rd, rna, not 'rn'");
    bad("modelfile-bad-floor", "zero_floor: never\n",
        "m.yaml:1:13: 'zero_floor' must be an integer or none, not 'never'");
    bad("modelfile-bad-k", "k: 0\n", "m.yaml:1:4: 'k' must be in 1..128, not 0");
    bad("modelfile-bad-format", "a: e12m24\n", "m.yaml:1:4: unknown format 'e12m24' (not a "
        "built-in name, eXmY, ueXmY, sN or uN)");
    bad("modelfile-bad-bool", "integer: 1\n",
        "m.yaml:1:10: 'integer' must be true or false, not '1'");
    bad("modelfile-bad-nan", "nan: 0xfffffffffffffffff\n",
        "m.yaml:1:6: 'nan' must be a hex word of at most 16 digits, not '0xfffffffffffffffff'");
    bad("modelfile-partial-format", "a: {name: x, width: 8}\n", "m.yaml:1:4: missing key 'ebits'");
    bad("modelfile-not-map", "- k: 1\n", "m.yaml:1:1: a model file must be a mapping, not a sequence");
    /* What the instruction is must be given: a file cut short is no model. */
    bad("modelfile-required-a", "k: 6\nsparse: 2of4\n", "m.yaml:1:1: missing key 'a'");
    bad("modelfile-required-truncated", "name: x\na: bf16\nb: bf16\nc: f32\n",
        "m.yaml:1:1: missing key 'd'");
    /* Consistency is lad_datapath_check's, reported at the value of the key
    ** it names. */
#define ABCD "a: f16\nb: f16\nc: f32\nd: f32\n"
    bad("modelfile-check-at-key", ABCD "sparse: 2of4\nk: 6\n",
        "m.yaml:6:4: k 6 is not a multiple of the sparsity chunk (4 lanes)");
    bad("modelfile-check-order-at-key", ABCD "k: 8\npass: 4\norder: [0, 1, 2]\n",
        "m.yaml:7:8: order has 3 lanes, not 8");
    /* A case holds 4 metadata words: 1of2 sparsity over 78 lanes needs 5,
    ** which the vector line reader would write past the case (found by
    ** tests/fuzz/fuzz_plan.c). */
    /* ... and 8 scales of each operand: an integer datapath too (the check
    ** returned before it looked at scale_block; found by fuzz_plan). */
    bad("modelfile-check-int-scales",
        "a: s8\nb: s8\nc: s32\nd: s32\ninteger: true\nk: 32\nscale_block: 1\n",
        "m.yaml:7:14: more than 8 scale blocks");
    bad("modelfile-check-meta-words", ABCD "sparse: 1of2\nk: 78\npass: 1\n",
        "m.yaml:6:4: k 78 with this sparsity needs 5 metadata words; a case holds 4 "
        "(k at most 64)");
    /* Both group sizes are checked against the scale block, not only the
    ** larger (group 15 straddles the blocks of 32 lanes; cdom_group 16 not). */
    bad("modelfile-check-both-groups",
        "a: e2m1\nb: e2m1\nc: f32\nd: f32\nk: 64\npass: 64\nsa: ue8m0\nsb: ue8m0\n"
        "scale_block: 32\ngroup: 15\ncdom_window: 35\ncdom_group: 16\n",
        "m.yaml:10:8: groups (group 15) must not straddle scale blocks (32)");
#undef ABCD

    lad_err_clear(&err);
    rc = lad_model_resolve("sm90-mma-bf16-f32", &dp, &err);
    test_check(rc == LAD_OK && dp.k == 16 && strcmp(dp.b.name, "bf16") == 0,
               "modelfile-resolve-preset", "rc %d %s", rc, err.msg);
    lad_err_clear(&err);
    rc = lad_model_resolve("sm99-nothing", &dp, &err);
    test_check(rc == LAD_EUSAGE && strcmp(err.msg, "unknown preset or model file 'sm99-nothing'") == 0,
               "modelfile-resolve-unknown", "rc %d %s", rc, err.msg);
}

/* The format that `text` (a model file) gives key a, and how it is written. */
static int spec_a(const char *text, lad_format *f, char *written, size_t size)
{
    lad_datapath dp;
    lad_err err = {0};
    written[0] = 0;
    if (lad_model_parse("s.yaml", text, strlen(text), &dp, NULL, 0, &err) != LAD_OK) {
        snprintf(written, size, "%.150s", err.msg);
        return -1;
    }
    *f = dp.a;
    char *y = lad_model_write(&dp, NULL);
    const char *at = y ? strstr(y, "\na: ") : NULL;
    if (at)
        snprintf(written, size, "%.*s", (int)strcspn(at + 4, "\n"), at + 4);
    free(y);
    return at ? 0 : -1;
}

/* Format specs wherever a format is: read as the spec says, written back
** as the shortest spec that reads as the same format (name included). */
static void specs(void)
{
#define REST "\nb: bf16\nc: f32\nd: f32\nk: 16\n"
    lad_format f;
    char w[160];
    int rc = spec_a("a: e3m4:bias=5" REST, &f, w, sizeof w);
    test_check(rc == 0 && f.ebits == 3 && f.mbits == 4 && f.bias == 5 && f.width == 8 &&
                   f.sub == LAD_SUB_IEEE && f.inf == LAD_INF_IEEE && f.nan == LAD_NAN_IEEE &&
                   strcmp(f.name, "e3m4") == 0 && strcmp(w, "\"e3m4:bias=5\"") == 0,
               "modelfile-spec-read-write", "rc %d bias %d width %d name '%s' written %s", rc,
               f.bias, f.width, f.name, w);
    rc = spec_a("a: \"e5m2:inf=none,nan=ones,name=myfp8\"" REST, &f, w, sizeof w);
    test_check(rc == 0 && f.inf == LAD_INF_NONE && f.nan == LAD_NAN_ONES &&
                   strcmp(f.name, "myfp8") == 0 &&
                   strcmp(w, "\"e5m2:inf=none,nan=ones,name=myfp8\"") == 0,
               "modelfile-spec-named", "rc %d name '%s' written %s", rc, f.name, w);
    /* the f32 cut to 13 fraction bits, as the fp8 paths round pass results */
    rc = spec_a("a: e8m13:pad=10" REST, &f, w, sizeof w);
    test_check(rc == 0 && f.width == 32 && f.pad == 10 && f.bias == 127 &&
                   strcmp(w, "\"e8m13:pad=10\"") == 0,
               "modelfile-spec-pad", "rc %d width %d pad %d written %s", rc, f.width, f.pad, w);
    /* a built-in changed keeps no built-in name: e4m3 stands for e4m3 */
    rc = spec_a("a: e4m3:bias=8" REST, &f, w, sizeof w);
    test_check(rc == 0 && f.bias == 8 && strcmp(f.name, "e4m3:bias=8") == 0 &&
                   strcmp(w, "\"e4m3:bias=8\"") == 0,
               "modelfile-spec-changed-builtin", "rc %d name '%s' written %s", rc, f.name, w);
    rc = spec_a("a: s4\nb: s8\nc: s32\nd: s32\nk: 32\ninteger: true\n", &f, w, sizeof w);
    test_check(rc == 0 && f.kind == LAD_INT && f.width == 4 && strcmp(w, "s4") == 0,
               "modelfile-spec-int", "rc %d written %s", rc, w);
    /* a name no spec can carry is written as a mapping */
    rc = spec_a("a: {name: \"a,b\", width: 8, ebits: 3, mbits: 4, bias: 5}" REST, &f, w,
                sizeof w);
    test_check(rc == 0 && strncmp(w, "{name: \"a,b\", kind: float, width: 8", 35) == 0,
               "modelfile-spec-fallback-mapping", "rc %d written %s", rc, w);

    bad("modelfile-spec-bad-key", "b: bf16\na: e3m4:bais=5\n",
        "m.yaml:2:4: unknown key 'bais' in format 'e3m4:bais=5'");
    bad("modelfile-spec-bad-check", "b: bf16\nacc: \"e1m2\"\n",
        "m.yaml:2:6: format 'e1m2': one exponent bit leaves no normal numbers beside the "
        "specials");
    bad("modelfile-spec-builtin-name", "a: e3m4:name=bf16\n",
        "m.yaml:1:4: format name 'bf16' is taken by a built-in format");
    bad("modelfile-spec-long-builtin", "a: e4m3:bias=8,sub=flush,inf=none\n",
        "m.yaml:1:4: format 'e4m3:bias=8,sub=flush,inf=none' changes the built-in 'e4m3': "
        "give it a name (name=<name>)");
    bad("modelfile-spec-scale", "sa: \"ue8m0:bias=\"\n",
        "m.yaml:1:5: bad value '' for 'bias' in format 'ue8m0:bias='");
#undef REST
}

/* lad_model_save: what it writes reads back; a failed write says why. */
static void saving(void)
{
    const lad_preset *p = lad_preset_get(0);
    char path[] = "/tmp/ladder-unit-save.XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) {
        test_check(0, "modelfile-save-temp", "mkstemp failed");
        return;
    }
    close(fd);
    lad_err err = {0};
    int rc = lad_model_save(path, &p->dp, "saved", &err);
    TEST_EQ_INT("modelfile-save-rc", LAD_OK, rc);
    lad_datapath want = p->dp, got;
    char ev[64];
    rc = lad_model_load(path, &got, ev, sizeof ev, &err);
    tidy(&want);
    if (rc == LAD_OK)
        tidy(&got);
    test_check(rc == LAD_OK && memcmp(&got, &want, sizeof got) == 0 && strcmp(ev, "saved") == 0,
               "modelfile-save-reads-back", "rc %d %s", rc, err.msg);
    remove(path);
    lad_err_clear(&err);
    rc = lad_model_save("/nonexistent-dir/m.yaml", &p->dp, NULL, &err);
    test_check(rc == LAD_EDATA && strcmp(err.msg, "cannot write '/nonexistent-dir/m.yaml': "
                                                  "No such file or directory") == 0,
               "modelfile-save-missing-dir", "rc %d '%s'", rc, err.msg);
}

void test_modelfile(void)
{
    roundtrip();
    reading();
    specs();
    saving();
}
