/*
** The presets: every datapath whose behaviour is known, compiled in.
**
** Each preset is built by a family function (one per generation or
** instruction kind) so that what differs between generations stands out.
** docs/datapaths.md is generated from this table (`ladder presets
** --markdown`) and says what evidence backs each entry; the tests replay
** that evidence (`ladder check` on vectors/).
**
** The table is built once, on first use, and never changes after. It is
** the library's only mutable state: pthread_once builds it, so that threads
** calling in for the first time at once see one complete table.
*/
#include "presets.h"
#include "params.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static lad_preset table[LAD_PRESETS_MAX];
static int ntable;
static lad_datapath blank;  /* lad_datapath_init's, made once by fill */

static const lad_format *fmt(const char *name)
{
    return lad_format_find(name);
}

/* f32 keeping only its top 13 fraction bits (the fp8 paths of Ada and Hopper). */
static lad_format e8m13(void)
{
    lad_format f = *fmt("f32");
    snprintf(f.name, sizeof f.name, "e8m13");
    f.mbits = 13;
    f.pad = 10;
    return f;
}

/* src into dst of n bytes, cut to fit: snprintf's "%s" without its
** format parsing (the table is built at every start of the program). */
static void copy(char *dst, size_t n, const char *src)
{
    size_t len = strnlen(src, n - 1);
    memcpy(dst, src, len);
    dst[len] = 0;
}

static lad_datapath *add(const char *evidence, const char *namefmt, ...)
    __attribute__((format(printf, 2, 3)));

static lad_datapath *add(const char *evidence, const char *namefmt, ...)
{
    /* The table is filled by loops whose counts change as datapaths are
    ** added: one too many must stop here, not write past the array. */
    if (ntable >= LAD_PRESETS_MAX) {
        fprintf(stderr, "ladder: internal error: more than %d presets; raise "
                "LAD_PRESETS_MAX in model/presets.h\n", LAD_PRESETS_MAX);
        abort();
    }
    lad_preset *p = &table[ntable++];
    p->dp = blank;
    va_list ap;
    va_start(ap, namefmt);
    vsnprintf(p->dp.name, sizeof p->dp.name, namefmt, ap);
    va_end(ap);
    copy(p->evidence, sizeof p->evidence, evidence);
    return &p->dp;
}

static void ident(lad_datapath *dp, const char *arch, const char *instr,
                  const char *kind, const char *shape, const char *sass)
{
    copy(dp->arch, sizeof dp->arch, arch);
    copy(dp->instr, sizeof dp->instr, instr);
    copy(dp->kind, sizeof dp->kind, kind);
    copy(dp->shape, sizeof dp->shape, shape);
    copy(dp->sass, sizeof dp->sass, sass);
}

/* Operand formats; an f16 result is rounded to nearest even and its NaN is
** 0x7fff (seen on Blackwell; see each family for the others). */
static void formats(lad_datapath *dp, const char *a, const char *b,
                    const char *c, const char *d)
{
    dp->a = *fmt(a);
    dp->b = *fmt(b);
    dp->c = *fmt(c);
    dp->d = *fmt(d);
    dp->acc = *fmt("f32");
    if (strcmp(d, "f16") == 0) {
        dp->nan = 0x7fff;
        dp->d_round = LAD_RNE;
    }
}

/* ---- mma.sync and wgmma before Blackwell ----------------------------- */

/* Passes of an f16-result datapath that chain through f16: each pass result
** is rounded to f16, nearest even, before it is the next pass's addend. */
static void f16_between(lad_datapath *dp)
{
    dp->acc = *fmt("f16");
    dp->acc_round = LAD_RNE;
}

/* The K of one instruction for an element format. */
static int mma_k(const char *ab)
{
    if (strcmp(ab, "tf32") == 0)
        return 8;
    if (strcmp(ab, "f16") == 0 || strcmp(ab, "bf16") == 0)
        return 16;
    return 32;
}

static const char *mma_shape(const char *instr, const char *ab)
{
    int k = mma_k(ab);
    if (strcmp(instr, "wgmma") == 0)
        return k == 8 ? "m64n8k8" : k == 16 ? "m64n8k16" : "m64n8k32";
    return k == 8 ? "m16n8k8" : k == 16 ? "m16n8k16" : "m16n8k32";
}

/* The opcode's name for an element format ("E4M3"). */
static void upper(char *out, size_t n, const char *s)
{
    size_t i = 0;
    for (; s[i] && i + 1 < n; i++)
        out[i] = s[i] >= 'a' && s[i] <= 'z' ? (char)(s[i] - 'a' + 'A') : s[i];
    out[i] = '\0';
}

/* The tensor opcode mma.sync/wgmma compiles to (ptx-notes §5). */
static void mma_sass(char *out, size_t n, const char *arch, const char *instr,
                     const char *ab, const char *d)
{
    int f32 = strcmp(d, "f32") == 0;
    const char *acc = f32 ? "F32" : "F16";
    int fp8 = ab[0] == 'e';
    int wg = strcmp(instr, "wgmma") == 0;
    char up[8];
    upper(up, sizeof up, ab);
    if (wg) {
        int k = mma_k(ab);
        snprintf(out, n, "%s.64x8x%d.%s%s%s%s%s", fp8 ? "QGMMA" : "HGMMA", k, acc,
                 strcmp(ab, "f16") ? "." : "", strcmp(ab, "f16") ? up : "",
                 fp8 ? "." : "", fp8 ? up : "");
    } else if (fp8 && (strcmp(arch, "sm_89") == 0 || strcmp(arch, "sm_120") == 0)) {
        snprintf(out, n, "QMMA.16832.%s.%s.%s", acc, up, up);
    } else if (fp8) {
        snprintf(out, n, "HMMA.16816.%s", acc);  /* fp8 unpacked to f16 */
    } else if (strcmp(ab, "tf32") == 0) {
        snprintf(out, n, "HMMA.1688.F32.TF32");
    } else {
        snprintf(out, n, "HMMA.16816.%s%s", acc, strcmp(ab, "bf16") == 0 ? ".BF16" : "");
    }
}

/*
** One pre-Blackwell datapath: window F and products per pass L; f32
** results truncated. gen is "sm80" etc., arch "sm_80".
*/
static lad_datapath *mma(const char *evidence, const char *gen, const char *arch,
                         const char *instr, const char *ab, const char *d,
                         int window, int pass)
{
    lad_datapath *dp = add(evidence, "%s-%s-%s-%s", gen,
                           strcmp(instr, "wgmma") == 0 ? "wgmma" : "mma", ab, d);
    char sass[40];
    mma_sass(sass, sizeof sass, arch, instr, ab, d);
    ident(dp, arch, strcmp(instr, "wgmma") == 0 ? "wgmma" : "mma.sync", "",
          mma_shape(instr, ab), sass);
    formats(dp, ab, ab, d, d);
    dp->k = mma_k(ab);
    dp->window = window;
    dp->pass = pass < dp->k ? pass : dp->k;
    return dp;
}

/*
** fp8 mma.sync on sm_90a and sm_100a is not an fp8 instruction: ptxas
** unpacks the bytes to f16 (exactly) and issues two chained HMMA.16816 from
** zero, then adds C with an FADD (f32 result) or HADD2 (f16 result), both
** nearest even. The first HMMA takes the low two bytes of each 32-bit
** register, so lanes k with k % 4 < 2 form pass 1 and the others pass 2.
*/
static void hmma_fp8_emulation(lad_datapath *dp)
{
    int n = 0;
    for (int half = 0; half < 2; half++)
        for (int k = 0; k < dp->k; k++)
            if ((k % 4 < 2) == (half == 0))
                dp->order[n++] = (unsigned char)k;
    dp->norder = n;
    dp->c_last = 1;
    dp->d_round = LAD_RNE;
}

/*
** Mixed fp8 (A e4m3, B e5m2 and the reverse) for the same-format fp8
** presets among table[from..to): the same datapaths with B decoded in the
** other format, named <gen>-<instr>-<a>x<b>-<d>. The evidence says which
** preset each copies and what backs that one.
*/
static void mixed_fp8(int from, int to)
{
    for (int i = from; i < to; i++) {
        const lad_datapath *src = &table[i].dp;
        if (src->a.name[0] != 'e' || strcmp(src->a.name, src->b.name) != 0)
            continue;
        const char *other = strcmp(src->a.name, "e4m3") == 0 ? "e5m2" : "e4m3";
        char ev[160];
        if (strncmp(table[i].evidence, "derived:", 8) == 0)
            snprintf(ev, sizeof ev, "derived: B in %s, unmeasured; parameters of %.40s", other,
                     src->name);
        else
            snprintf(ev, sizeof ev, "%.40s with B in %s: %s", src->name, other,
                     strncmp(src->arch, "sm_90", 5) == 0 ? "H200 captures (results/h200/captures)"
                                                         : "unverified");
        const char *gen_end = strchr(src->name, '-');
        const char *instr_end = strchr(gen_end + 1, '-');
        lad_datapath *dp = add(ev, "%.*s-%sx%s-%s", (int)(instr_end - src->name), src->name,
                               src->a.name, other, src->d.name[0] == 'e' ? "f32" : src->d.name);
        char name[64];
        memcpy(name, dp->name, sizeof name);
        *dp = *src;
        memcpy(dp->name, name, sizeof name);
        dp->b = *fmt(other);
        if (strchr(dp->sass, 'Q'))  /* QGMMA/QMMA name B's type last */
            memcpy(dp->sass + strlen(dp->sass) - 4, other[1] == '4' ? "E4M3" : "E5M2", 4);
    }
}

static void pre_blackwell(void)
{
    /* Volta: mma.m8n8k4, 23 fraction bits, 4 products per pass. */
    lad_datapath *dp;
    dp = mma("vectors v100-f16-f32.vec", "sm70", "sm_70", "mma", "f16", "f32", 23, 4);
    dp->k = 4;
    snprintf(dp->shape, sizeof dp->shape, "m8n8k4");
    snprintf(dp->sass, sizeof dp->sass, "HMMA.884.F32.F32");
    dp = mma("vectors v100-f16-f16.vec", "sm70", "sm_70", "mma", "f16", "f16", 23, 4);
    dp->k = 4;
    snprintf(dp->shape, sizeof dp->shape, "m8n8k4");
    snprintf(dp->sass, sizeof dp->sass, "HMMA.884.F16.F16");

    /* Ampere and Ada: 24 fraction bits, 8 products per pass, tf32 4. An
    ** f16 result rounds the first pass to f16 (nearest even) as well: the
    ** captured k = 8 files cannot see it; Ada fp8 -> f16 (below) and MMA-Sim
    ** do (docs/findings.md, class A). */
    mma("vectors a100-f16-f32.vec", "sm80", "sm_80", "mma", "f16", "f32", 24, 8);
    f16_between(mma("vectors a100-f16-f16.vec (k 8); first pass rounded to f16 as on Ada "
                    "fp8 and in MMA-Sim", "sm80", "sm_80", "mma", "f16", "f16", 24, 8));
    mma("vectors a100-bf16-f32.vec", "sm80", "sm_80", "mma", "bf16", "f32", 24, 8);
    mma("vectors a100-tf32-f32.vec", "sm80", "sm_80", "mma", "tf32", "f32", 24, 4);
    mma("vectors ada-f16-f32.vec", "sm89", "sm_89", "mma", "f16", "f32", 24, 8);
    f16_between(mma("vectors ada-f16-f16.vec (k 8); first pass rounded to f16 as on Ada "
                    "fp8 and in MMA-Sim", "sm89", "sm_89", "mma", "f16", "f16", 24, 8));
    mma("vectors ada-bf16-f32.vec", "sm89", "sm_89", "mma", "bf16", "f32", 24, 8);
    mma("vectors ada-tf32-f32.vec", "sm89", "sm_89", "mma", "tf32", "f32", 24, 4);
    const char *fp8[] = {"e4m3", "e5m2"};
    for (int i = 0; i < 2; i++) {
        char ev[160];
        snprintf(ev, sizeof ev, "vectors ada-%s-f32.vec", fp8[i]);
        /* two chained passes of 16 through a 13-bit window and e8m13 */
        dp = mma(ev, "sm89", "sm_89", "mma", fp8[i], "f32", 13, 16);
        dp->d = e8m13();
        dp->acc = e8m13();
        /* f16 results: the same two passes, the first rounded to f16 (RNE) */
        snprintf(ev, sizeof ev, "vectors ada-%s-f16.vec", fp8[i]);
        f16_between(mma(ev, "sm89", "sm_89", "mma", fp8[i], "f16", 13, 16));
    }

    /* Hopper: 25 fraction bits, 16 products per pass, tf32 4. */
    mma("vectors h100-f16-f32.vec; H200 captures (results/h200/captures)", "sm90", "sm_90a",
        "mma", "f16", "f32", 25, 16);
    mma("vectors h100-f16-f16.vec; H200 captures (results/h200/captures)", "sm90", "sm_90a",
        "mma", "f16", "f16", 25, 16);
    /* bf16 and tf32 on Hopper floor the anchor at -133, as the B200 does:
    ** the H200 ladder's zeros rung (results/h200) */
    dp = mma("vectors h100-bf16-f32.vec; H200 captures (results/h200/captures) and ladder "
             "(results/h200)", "sm90", "sm_90a", "mma", "bf16", "f32", 25, 16);
    dp->anchor_min = -133;
    /* tf32 vectors hold 4 products; MMA-Sim fuses all 8 on Hopper */
    dp = mma("vectors h100-tf32-f32.vec; H200 captures (results/h200/captures) and ladder "
             "(results/h200)", "sm90", "sm_90a", "mma", "tf32", "f32", 25, 8);
    dp->anchor_min = -133;
    for (int i = 0; i < 2; i++) {
        char ev[160];
        snprintf(ev, sizeof ev, "vectors h100-%s-f32.vec; H200 captures (results/h200/captures)",
                 fp8[i]);
        dp = mma(ev, "sm90", "sm_90a", "wgmma", fp8[i], "f32", 13, 32);
        dp->d = e8m13();  /* one pass: no acc between passes */
        /* h100-*-f16.vec say wgmma but are mma.sync's words (docs/findings.md) */
        mma("H200 captures (results/h200/captures)", "sm90", "sm_90a", "wgmma", fp8[i],
            "f16", 13, 32);
        /* fp8 mma.sync on sm_90a: ptxas emits fp8->f16 unpacks and two
        ** HMMA.16816.F32, so it is the f16 datapath in two chained passes. */
        snprintf(ev, sizeof ev, "H200 captures (results/h200/captures); SASS of kernels/mma_sync.cu");
        dp = mma(ev, "sm90", "sm_90a", "mma", fp8[i], "f32", 25, 16);
        hmma_fp8_emulation(dp);
        snprintf(ev, sizeof ev, "vectors h100-%s-f16.vec (its header says wgmma); H200 captures "
                 "(results/h200/captures); SASS of kernels/mma_sync.cu", fp8[i]);
        dp = mma(ev, "sm90", "sm_90a", "mma", fp8[i], "f16", 25, 16);
        hmma_fp8_emulation(dp);
        f16_between(dp);
    }
    mixed_fp8(0, ntable);

    /* Integer mma.sync (sm_80 on) and wgmma: exact sums into s32. */
    const char *ints[] = {"s8", "u8"};
    const char *igens[][4] = {{"sm80", "sm_80", "mma", "unverified: integer sums are exact"},
                              {"sm90", "sm_90a", "mma", "H200 captures (results/h200/captures)"},
                              {"sm90", "sm_90a", "wgmma", "H200 captures (results/h200/captures)"}};
    for (int g = 0; g < 3; g++)
        for (int sat = 0; sat < 2; sat++)
            for (int i = 0; i < 2; i++)
                for (int j = 0; j < 2; j++) {
                    int wg = strcmp(igens[g][2], "wgmma") == 0;
                    dp = add(igens[g][3], "%s-%s-%sx%s-s32%s", igens[g][0], igens[g][2],
                             ints[i], ints[j], sat ? "-sat" : "");
                    char sass[40];
                    snprintf(sass, sizeof sass, "%s.%s.%s.%s%s", wg ? "IGMMA" : "IMMA",
                             wg ? "64x8x32" : "16832", i ? "U8" : "S8", j ? "U8" : "S8",
                             sat ? ".SAT" : "");
                    ident(dp, igens[g][1], wg ? "wgmma" : "mma.sync", "",
                          wg ? "m64n8k32" : "m16n8k32", sass);
                    formats(dp, ints[i], ints[j], "s32", "s32");
                    dp->k = 32;
                    dp->integer = 1;
                    dp->saturate = sat;
                }

    /* wgmma f16/bf16/tf32 on Hopper: assumed to share mma.sync's datapath. */
    mma("H200 captures (results/h200/captures); same datapath as sm90-mma-f16-f32", "sm90", "sm_90a", "wgmma", "f16", "f32", 25, 16);
    dp = mma("H200 captures (results/h200/captures) and ladder (results/h200); same datapath "
             "as sm90-mma-bf16-f32",
             "sm90", "sm_90a", "wgmma", "bf16", "f32", 25, 16);
    dp->anchor_min = -133;
    dp = mma("H200 captures (results/h200/captures) and ladder (results/h200); same datapath "
             "as sm90-mma-tf32-f32",
             "sm90", "sm_90a", "wgmma", "tf32", "f32", 25, 8);
    dp->anchor_min = -133;
    mma("H200 captures (results/h200/captures); same datapath as sm90-mma-f16-f16", "sm90", "sm_90a", "wgmma", "f16", "f16", 25, 16);

    /* Blackwell mma.sync. */
    mma("vectors b200-f16-f32.vec", "sm100", "sm_100a", "mma", "f16", "f32", 25, 16);
    mma("vectors b200-f16-f16.vec", "sm100", "sm_100a", "mma", "f16", "f16", 25, 16);
    /* bf16 and tf32 floor the anchor at -133 like the same chip's tcgen05
    ** (frozen B200 words) and Hopper's mma.sync (H200 ladder); the B200
    ** files cannot see a floor (docs/findings.md, class B) */
    dp = mma("vectors b200-bf16-f32.vec; floor as sm100-tcgen05-bf16-f32", "sm100", "sm_100a",
             "mma", "bf16", "f32", 25, 16);
    dp->anchor_min = -133;
    dp = mma("vectors b200-tf32-f32.vec; floor as sm100-tcgen05-tf32-f32", "sm100", "sm_100a",
             "mma", "tf32", "f32", 25, 8);
    dp->anchor_min = -133;
    /* fp8 mma.sync on sm_100a: the SASS is Hopper's (12 fp8->f16 unpacks,
    ** HMMA.16816 on the low two bytes of each register from zero, a chained
    ** HMMA on the high two, then FADD or HADD2 of C), so these are the
    ** sm90 fp8 mma.sync rule on the B200's HMMA (sm100-mma-f16-f32: F 25,
    ** L 16). No B200 fp8 mma.sync word has been captured: B200 captures of
    ** lad_mma_m16n8k32_* (scripts/gpu-campaign.sh) confirm or refute them. */
    int bw_fp8 = ntable;
    for (int i = 0; i < 2; i++) {
        for (int f16 = 0; f16 < 2; f16++) {
            char ev[160];
            snprintf(ev, sizeof ev, "derived: SASS of kernels/mma_sync.cu on sm_100a, as on "
                     "sm_90a; no B200 word captured; parameters of sm90-mma-%s-%s", fp8[i],
                     f16 ? "f16" : "f32");
            dp = mma(ev, "sm100", "sm_100a", "mma", fp8[i], f16 ? "f16" : "f32", 25, 16);
            hmma_fp8_emulation(dp);
            if (f16)
                f16_between(dp);
        }
    }
    mixed_fp8(bw_fp8, ntable);

    /* Published models without vectors here (MMA-Sim, microsoft/MMA-Sim:
    ** Turing and Ampere 24 fraction bits, Ampere splitting K in two halves;
    ** RTX Blackwell 25 bits, one fused pass, fp8 included). */
    const char *ms = "MMA-Sim model (microsoft/MMA-Sim); unverified here";
    dp = mma(ms, "sm75", "sm_75", "mma", "f16", "f32", 24, 8);
    dp->k = 8;
    snprintf(dp->shape, sizeof dp->shape, "m16n8k8");
    snprintf(dp->sass, sizeof dp->sass, "HMMA.1688.F32");
    dp = mma(ms, "sm75", "sm_75", "mma", "f16", "f16", 24, 8);
    dp->k = 8;
    snprintf(dp->shape, sizeof dp->shape, "m16n8k8");
    snprintf(dp->sass, sizeof dp->sass, "HMMA.1688.F16");
    mma(ms, "sm86", "sm_86", "mma", "f16", "f32", 24, 8);
    f16_between(mma(ms, "sm86", "sm_86", "mma", "f16", "f16", 24, 8));
    mma(ms, "sm86", "sm_86", "mma", "bf16", "f32", 24, 8);
    mma(ms, "sm86", "sm_86", "mma", "tf32", "f32", 24, 4);
    const char *ab120[] = {"f16", "bf16", "tf32", "e4m3", "e5m2"};
    for (int i = 0; i < 5; i++)
        mma(ms, "sm120", "sm_120", "mma", ab120[i], "f32", 25, 32);
    mma(ms, "sm120", "sm_120", "mma", "f16", "f16", 25, 16);
    mma(ms, "sm120", "sm_120", "mma", "e4m3", "f16", 25, 32);
    mma(ms, "sm120", "sm_120", "mma", "e5m2", "f16", 25, 32);
}

/* ---- what MMA-Sim 2.1.1 models and ladder has not measured ---------- */

/* The preset named `name` among those added so far (the table is still
** being filled, so lad_preset_find, which waits for it, cannot be used). */
static const lad_datapath *added(const char *name)
{
    for (int i = 0; i < ntable; i++)
        if (strcmp(table[i].dp.name, name) == 0)
            return &table[i].dp;
    fprintf(stderr, "ladder: internal error: preset '%s' derived before it exists\n", name);
    abort();
}

/*
** A datapath MMA-Sim 2.1.1 models that no ladder run has measured: a copy
** of the measured preset `src` of the same tensor core (MMA-Sim gives both
** one rule), renamed, with `what` saying which instruction MMA-Sim models.
** The caller changes what differs (K, shape, formats, opcode).
*/
static lad_datapath *derive(const char *src, const char *what, const char *namefmt, ...)
    __attribute__((format(printf, 3, 4)));

static lad_datapath *derive(const char *src, const char *what, const char *namefmt, ...)
{
    char name[64], ev[160];
    va_list ap;
    va_start(ap, namefmt);
    vsnprintf(name, sizeof name, namefmt, ap);
    va_end(ap);
    snprintf(ev, sizeof ev, "derived: MMA-Sim 2.1.1 %s, not measured by ladder; "
             "parameters of %s", what, src);
    lad_datapath copy = *added(src);
    lad_datapath *dp = add(ev, "%s", name);
    memcpy(copy.name, dp->name, sizeof copy.name);
    *dp = copy;
    return dp;
}

/* A shorter K of the same instruction: one pass holds at most the K, and
** rows the shorter K takes out of effect (one pass has no pass result to
** round into acc) are written canonical. */
static void set_k(lad_datapath *dp, int k, const char *sass)
{
    dp->k = k;
    if (dp->pass > k)
        dp->pass = k;
    snprintf(dp->shape, sizeof dp->shape, "m%sn8k%d", dp->shape[1] == '8' ? "8" : "16", k);
    copy(dp->sass, sizeof dp->sass, sass);
    lad_canon(dp);
}

/*
** mma.m8n8k4 with an f16 addend and f32 result on Volta, and the three
** m8n8k4 forms on Turing, which MMA-Sim runs with Volta's parameters
** (F 23, L 4). The opcodes are what ptxas 13.0 emits for sm_75.
*/
static void m8n8k4(void)
{
    lad_datapath *dp = derive("sm70-mma-f16-f32", "mma m8n8k4 f32.f16.f16.f16 (Volta)",
                              "sm70-mma-f16-f32-cf16");
    dp->c = *fmt("f16");
    snprintf(dp->sass, sizeof dp->sass, "HMMA.884.F32.F16");
    const char *src[] = {"sm70-mma-f16-f32", "sm70-mma-f16-f16", "sm70-mma-f16-f32-cf16"};
    for (int i = 0; i < 3; i++) {
        dp = derive(src[i], "mma m8n8k4 (Turing: Volta's rule)", "sm75%s-k4", src[i] + 4);
        snprintf(dp->arch, sizeof dp->arch, "sm_75");
    }
}

/*
** The shorter-K mma.sync shapes: m16n8k8 f16 and bf16, m16n8k4 tf32 on
** every generation with m16n8k16 (MMA-Sim: Ampere on; Turing has only
** k8 f16, its own preset), and m16n8k16 fp8 where fp8 mma.sync is native
** (Ada, RTX Blackwell; MMA-Sim has no fp8 mma.sync on Hopper or B200),
** with RTX Blackwell's mixed-format fp8 m16n8k32 before them.
*/
static void shorter_k(void)
{
    static const char *const fp8[] = {"e4m3", "e5m2"};
    static const char *const ds[] = {"f32", "f16"};
    char what[64], A[8], B[8];
    lad_datapath *dp;
    static const char *const gens[][2] = {{"sm80", "Ampere"}, {"sm86", "Ampere"},
                                          {"sm89", "Ada"},    {"sm90", "Hopper"},
                                          {"sm100", "Blackwell"}, {"sm120", "RTX Blackwell"}};
    static const char *const base[][3] = {{"f16-f32", "8", "HMMA.1688.F32"},
                                          {"f16-f16", "8", "HMMA.1688.F16"},
                                          {"bf16-f32", "8", "HMMA.1688.F32.BF16"},
                                          {"tf32-f32", "4", "HMMA.1684.F32.TF32"}};
    for (int g = 0; g < 6; g++) {
        for (int f = 0; f < 4; f++) {
            int k = base[f][1][0] - '0';
            char src[40];
            snprintf(src, sizeof src, "%s-mma-%s", gens[g][0], base[f][0]);
            snprintf(what, sizeof what, "mma m16n8k%d (%s)", k, gens[g][1]);
            dp = derive(src, what, "%s-k%d", src, k);
            set_k(dp, k, base[f][2]);
        }
        if (g != 2 && g != 5)
            continue;
        if (g == 5)  /* RTX Blackwell's mixed fp8 m16n8k32, the k16 sources */
            for (int i = 0; i < 2; i++)
                for (int o = 0; o < 2; o++) {
                    const char *other = fp8[!i];
                    char src[40];
                    snprintf(src, sizeof src, "sm120-mma-%s-%s", fp8[i], ds[o]);
                    snprintf(what, sizeof what, "mma m16n8k32 %s x %s (RTX Blackwell)",
                             fp8[i], other);
                    dp = derive(src, what, "sm120-mma-%sx%s-%s", fp8[i], other, ds[o]);
                    dp->b = *fmt(other);
                    upper(A, sizeof A, fp8[i]);
                    upper(B, sizeof B, other);
                    snprintf(dp->sass, sizeof dp->sass, "QMMA.16832.%s.%s.%s",
                             o ? "F16" : "F32", A, B);
                }
        for (int i = 0; i < 2; i++)
            for (int j = 0; j < 2; j++)
                for (int o = 0; o < 2; o++) {
                    char src[40];
                    if (i == j)
                        snprintf(src, sizeof src, "%s-mma-%s-%s", gens[g][0], fp8[i], ds[o]);
                    else
                        snprintf(src, sizeof src, "%s-mma-%sx%s-%s", gens[g][0], fp8[i],
                                 fp8[j], ds[o]);
                    snprintf(what, sizeof what, "mma m16n8k16 %s x %s (%s)", fp8[i], fp8[j],
                             gens[g][1]);
                    upper(A, sizeof A, fp8[i]);
                    upper(B, sizeof B, fp8[j]);
                    char sass[40];
                    snprintf(sass, sizeof sass, "QMMA.16816.%s.%s.%s", o ? "F16" : "F32", A, B);
                    dp = derive(src, what, "%s-k16", src);
                    set_k(dp, 16, sass);
                }
    }
}

/* ---- tcgen05.mma (B200), tcgen05-model-notes §4-§8 ------------------- */

static const char *const f8f6f4[] = {"e4m3", "e5m2", "e2m3", "e3m2", "e2m1"};

static lad_datapath *tc(const char *evidence, const char *kind, const char *sass,
                        const char *a, const char *b, const char *d, int k,
                        int sparse, const char *namefmt, ...)
    __attribute__((format(printf, 9, 10)));

static lad_datapath *tc(const char *evidence, const char *kind, const char *sass,
                        const char *a, const char *b, const char *d, int k,
                        int sparse, const char *namefmt, ...)
{
    char name[64];
    va_list ap;
    va_start(ap, namefmt);
    vsnprintf(name, sizeof name, namefmt, ap);
    va_end(ap);
    lad_datapath *dp = add(evidence, "sm100-tcgen05-%s%s", sparse ? "sp-" : "", name);
    char shape[16];
    snprintf(shape, sizeof shape, "m128n8k%d", sparse ? 2 * k : k);
    ident(dp, "sm_100a", "tcgen05.mma", kind, shape, sass);
    formats(dp, a, b, strcmp(d, "s32") == 0 ? "s32" : d, d);
    dp->k = sparse ? 2 * k : k;
    dp->window = 25;
    dp->pass = k;
    dp->sparse = sparse;
    return dp;
}

/* The tcgen05 presets vectors/b200-tcgen05-frozen.txt has lines for: the
** others of the validated paths name the 1M-case validation alone. */
static const char *const frozen_lines[] = {
    "tf32-f32", "bf16-f32", "f16-f32", "e4m3-f32", "e5m2-f32", "e2m1xe4m3-f16",
    "mxf8f6f4-e4m3-f32", "mxf8f6f4-e5m2-f32", "mxf8f6f4-e2m3-f32", "mxf8f6f4-e3m2-f32",
    "mxf8f6f4-e2m1-f32", "mxf4-e2m1-f32", "mxf4nvf4-2x-f32", "mxf4nvf4-4x-f32",
    "mxf4nvf4-ue4m3-f32", "sp-mxf8f6f4-e4m3-f32", "sp-mxf4-e2m1-f32", "sp-mxf4nvf4-2x-f32",
    "sp-mxf4nvf4-4x-f32", "sp-mxf4nvf4-ue4m3-f32"};

static void blackwell_tcgen05(void)
{
    const char *hw = "frozen B200 vectors; 1M-case B200 validation (sf-tensor/tcgen05)";
    int first = ntable;
    const char *mixedev = "model family of 1M-case B200 validated paths (sf-tensor/tcgen05)";
    lad_datapath *dp;
    for (int sp = 0; sp < 2; sp++) {
        int sparse2 = sp ? LAD_SPARSE_2OF4 : 0;
        dp = tc(hw, "tf32", "UTCHMMA", "tf32", "tf32", "f32", 8,
                sp ? LAD_SPARSE_1OF2 : 0, "tf32-f32");
        dp->anchor_min = -133;
        dp = tc(hw, "f16", "UTCHMMA", "bf16", "bf16", "f32", 16, sparse2, "bf16-f32");
        dp->anchor_min = -133;
        tc(hw, "f16", "UTCHMMA", "f16", "f16", "f32", 16, sparse2, "f16-f32");
        for (int i = 0; i < 5; i++)
            tc(hw, "f8f6f4", "UTCQMMA", f8f6f4[i], f8f6f4[i], "f32", 32, sparse2,
               "%s-f32", f8f6f4[i]);
    }
    dp = tc("unverified: not among the validated B200 paths", "f16", "UTCHMMA",
            "f16", "f16", "f16", 16, 0, "f16-f16");
    /* Mixed f8f6f4 (and same-format f16 results): 50 combinations. */
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 5; j++)
            for (int o = 0; o < 2; o++) {
                const char *d = o ? "f16" : "f32";
                if (i == j && !o)
                    continue;  /* the dense presets above */
                int validated = (i == 0 && j == 4 && !o) || (i == 4 && j == 0 && o);
                if (i == j)
                    tc(mixedev, "f8f6f4", "UTCQMMA", f8f6f4[i], f8f6f4[j], d, 32, 0,
                       "%s-%s", f8f6f4[i], d);
                else
                    tc(validated ? hw : mixedev, "f8f6f4", "UTCQMMA", f8f6f4[i],
                       f8f6f4[j], d, 32, 0, "%sx%s-%s", f8f6f4[i], f8f6f4[j], d);
            }
    /* Integers: exact, wrap or saturate. */
    const char *ints[] = {"u8", "s8"};
    for (int sat = 0; sat < 2; sat++)
        for (int i = 0; i < 2; i++)
            for (int j = 0; j < 2; j++) {
                dp = tc(hw, "i8", "UTCIMMA", ints[i], ints[j], "s32", 32, 0, "%sx%s-s32%s",
                        ints[i], ints[j], sat ? "-sat" : "");
                dp->integer = 1;
                dp->saturate = sat;
                lad_canon(dp);  /* an integer sum has no window and no passes */
            }
    /* Block-scaled. */
    for (int sp = 0; sp < 2; sp++) {
        for (int i = 0; i < 5; i++) {
            dp = tc(hw, "mxf8f6f4", "UTCQMMA", f8f6f4[i], f8f6f4[i], "f32", 32,
                    sp ? LAD_SPARSE_2OF4 : 0, "mxf8f6f4-%s-f32", f8f6f4[i]);
            dp->scale_block = 32;
        }
        /* Mixed A and B, dense (the kernel table builds them): the
        ** same-format rule above with two formats, as for f8f6f4. */
        for (int i = 0; i < 5 && !sp; i++)
            for (int j = 0; j < 5; j++)
                if (i != j) {
                    dp = tc("derived: the validated same-format mxf8f6f4 rule with mixed A and B; "
                            "unconfirmed on silicon", "mxf8f6f4", "UTCQMMA", f8f6f4[i],
                            f8f6f4[j], "f32", 32, 0, "mxf8f6f4-%sx%s-f32", f8f6f4[i], f8f6f4[j]);
                    dp->scale_block = 32;
                }
        const char *names[] = {"mxf4-e2m1-f32", "mxf4nvf4-2x-f32", "mxf4nvf4-4x-f32",
                               "mxf4nvf4-ue4m3-f32"};
        const char *kinds[] = {"mxf4", "mxf4nvf4", "mxf4nvf4", "mxf4nvf4"};
        for (int v = 0; v < 4; v++) {
            dp = tc(hw, kinds[v], "UTCOMMA", "e2m1", "e2m1", "f32", 64,
                    sp ? LAD_SPARSE_PAIRS8 : 0, "%s", names[v]);
            dp->scale_block = v >= 2 ? 16 : 32;
            if (v >= 2)  /* scale_vec::4X shows in the opcode */
                snprintf(dp->sass, sizeof dp->sass, "UTCOMMA.4X");
            dp->window = 39;
            dp->scale_floor = 35;
            dp->cdom_window = 35;
            dp->cdom_group = 16;
            if (v == 3) {
                dp->sa = dp->sb = *fmt("ue4m3");
                dp->group = 4;
            } else {
                dp->group = 16;
                dp->cdom_per_group = 1;
                dp->group_sub_floor = -174;
            }
        }
    }
    for (int i = first; i < ntable; i++) {
        if (strcmp(table[i].evidence, hw) != 0)
            continue;
        int lines = 0;
        for (size_t j = 0; j < sizeof frozen_lines / sizeof frozen_lines[0]; j++)
            lines |= strcmp(table[i].dp.name + strlen("sm100-tcgen05-"), frozen_lines[j]) == 0;
        if (!lines)
            snprintf(table[i].evidence, sizeof table[i].evidence,
                     "1M-case B200 validation (sf-tensor/tcgen05); no frozen B200 word");
    }
}

/*
** RTX Blackwell's mma.sync kinds (sm_120a): kind::f8f6f4 and the
** block-scaled kinds. MMA-Sim computes each with the rule, F, L and floors
** it gives the same kind of tcgen05.mma on the B200, so each is the
** measured tcgen05 preset of its formats on an m16n8 shape. One tcgen05
** variant has no mma.sync form: ptxas 13.0 refuses mxf4nvf4 with
** scale_vec::4X and ue8m0 scales for mma, though MMA-Sim lists it.
*/
static void rtx_blackwell_kinds(void)
{
    int n = ntable;
    for (int i = 0; i < n; i++) {
        const lad_datapath *src = &table[i].dp;
        if (strcmp(src->instr, "tcgen05.mma") != 0 || src->sparse ||
            (strcmp(src->kind, "f8f6f4") != 0 && strncmp(src->kind, "mx", 2) != 0) ||
            strcmp(src->name, "sm100-tcgen05-mxf4nvf4-4x-f32") == 0)
            continue;
        int f8 = strcmp(src->kind, "f8f6f4") == 0;
        const char *rest = src->name + strlen("sm100-tcgen05-");
        char what[64];
        snprintf(what, sizeof what, "mma kind::%s m16n8k%d (RTX Blackwell)", src->kind, src->k);
        lad_datapath *dp = derive(src->name, what, "sm120-mma-%s%s", f8 ? "f8f6f4-" : "", rest);
        snprintf(dp->arch, sizeof dp->arch, "sm_120a");
        snprintf(dp->instr, sizeof dp->instr, "mma.sync");
        snprintf(dp->shape, sizeof dp->shape, "m16n8k%d", dp->k);
        char A[8], B[8];
        upper(A, sizeof A, dp->a.name);
        upper(B, sizeof B, dp->b.name);
        if (f8)
            snprintf(dp->sass, sizeof dp->sass, "QMMA.16832.%s.%s.%s",
                     strcmp(dp->d.name, "f16") == 0 ? "F16" : "F32", A, B);
        else if (dp->k == 32)
            snprintf(dp->sass, sizeof dp->sass, "QMMA.SF.16832.F32.%s.%s.E8", A, B);
        else
            snprintf(dp->sass, sizeof dp->sass, "OMMA.SF.16864.F32.E2M1.E2M1.%s",
                     strcmp(dp->sa.name, "ue4m3") == 0 ? "UE4M3.4X" : "E8");
    }
}

/* ---- f64: NVIDIA mma (DMMA) and AMD MFMA (MMA-Sim 2.1.1: MMA_FMA) ------ */

/*
** MMA-Sim models every f64 datapath as K chained IEEE fmas,
** c = fma(a[i], b[i], c) for i = 0..K-1, each rounded to nearest even
** (the host's std::fma): one product and the addend summed exactly and
** rounded once per pass, zeros signed as fma signs them. The NaN word is
** ladder's canonical NaN of the format, 0x7fffffffffffffff (the f64 form
** of the f32 0x7fffffff measured on every NVIDIA generation); MMA-Sim
** keeps the host's NaN instead (docs/findings.md, class D). Nothing here
** is measured.
*/
static lad_datapath *f64_fma(const char *evidence, const char *name, const char *arch,
                             const char *instr, const char *shape, const char *sass, int k)
{
    lad_datapath *dp = add(evidence, "%s", name);
    ident(dp, arch, instr, "", shape, sass);
    dp->a = dp->b = dp->c = dp->d = dp->acc = *fmt("f64");
    dp->k = k;
    dp->pass = 1;
    dp->exact = 1;
    dp->ieee_zero = 1;
    dp->chain = LAD_CHAIN;
    dp->acc_round = LAD_RNE;
    dp->d_round = LAD_RNE;
    dp->nan = lad_format_nan(&dp->acc);
    return dp;
}

static const char mmasim_ev[] = "MMA-Sim 2.1.1 (microsoft/MMA-Sim), not measured by ladder";

/* mma.m8n8k4.f64 from Ampere on (MMA-Sim: Ampere, Ada, Hopper, Blackwell,
** RTX Blackwell), m16n8k8 and m16n8k16 on Hopper. m16n8k4 on Hopper is
** m8n8k4's datapath (one element's dot product of K 4; M and N do not
** change it), so it has no preset of its own. */
static void f64_presets(void)
{
    static const char *const gen[][2] = {{"sm80", "sm_80"}, {"sm86", "sm_86"},
                                         {"sm89", "sm_89"}, {"sm90", "sm_90a"},
                                         {"sm100", "sm_100a"}, {"sm120", "sm_120"}};
    char name[64];
    for (size_t i = 0; i < sizeof gen / sizeof gen[0]; i++) {
        snprintf(name, sizeof name, "%s-mma-f64-f64", gen[i][0]);
        f64_fma(mmasim_ev, name, gen[i][1], "mma.sync", "m8n8k4", "DMMA.884", 4);
    }
    f64_fma(mmasim_ev, "sm90-mma-f64-f64-k8", "sm_90a", "mma.sync", "m16n8k8", "", 8);
    f64_fma(mmasim_ev, "sm90-mma-f64-f64-k16", "sm_90a", "mma.sync", "m16n8k16", "", 16);
    /* MFMA f64: 16x16x4 and 4x4x4 (CDNA2 f64_4x4x4f64, CDNA3
    ** f64_4x4x4_4b_f64) are one datapath of K 4. */
    f64_fma(mmasim_ev, "cdna2-mfma-f64-f64", "gfx90a", "mfma", "16x16x4", "v_mfma_f64_16x16x4f64", 4);
    f64_fma(mmasim_ev, "cdna3-mfma-f64-f64", "gfx942", "mfma", "16x16x4", "v_mfma_f64_16x16x4_f64", 4);
}

/* ---- AMD MFMA, CDNA1-3 (MMA-Sim 2.1.1: amd/sim.py) ------------------- */

/*
** MMA-Sim's arithmetic per generation and element format; nothing here is
** measured. f64 MFMA is with the f64 presets above; int8 is left out:
** MMA-Sim's instruction lists (amd/isa_mfma.py) have none.
*/

/* One MFMA instruction of K products per output element. */
typedef struct amd_instr {
    const char *ab;      /* name part: "f16", "e4m3fnuzxe5m2fnuz", "1k-bf16" */
    const char *a, *b;   /* element formats */
    const char *shape;   /* M x N x K of the first instruction with this K */
    const char *suffix;  /* the mnemonic after v_mfma_ */
    int k;
} amd_instr;

/* f32 FMA per product (MMA_FMA): every generation's f32 MFMA, one exact
** product added to the running f32 value and rounded to nearest even. */
static void amd_fma(lad_datapath *dp)
{
    dp->pass = 1;
    dp->window = 48;    /* a 24 x 24-bit product kept whole */
    dp->c_anchor = 0;   /* the addend outside the window: one exact sum */
}

/* CDNA1 f16/bf16 (MMA_E_FDPA): L products and the addend summed exactly,
** rounded once. */
static void amd_cdna1(lad_datapath *dp, int lmax)
{
    dp->exact = 1;
    dp->pass = dp->k < lmax ? dp->k : lmax;
}

/* CDNA2 f16/bf16 (MMA_FTZ_MUL_ADD): subnormal inputs +0, f32 products,
** P of them added in a tree of flushing f32 additions, the sum added to
** the running value. */
static void amd_cdna2(lad_datapath *dp, int p)
{
    dp->tree = 1;
    dp->pass = p;
    dp->chain = LAD_SUM;
    dp->ftz_in = 1;
    dp->ftz_out = 1;
}

/* CDNA3 f16/bf16/xf32 (MMA_TR_FDPA, F 24, F2 31) and fp8 (MMA_GTR_FDPA,
** L 16): products truncated 24 bits below their anchor, the sum floored
** 32 bits below the pass anchor, the addend 24; the total floored to 31
** fraction bits, then rounded to nearest even into f32. */
static void amd_cdna3(lad_datapath *dp, int lmax, int fp8)
{
    dp->pass = dp->k < lmax ? dp->k : lmax;
    dp->window = 24;
    dp->window2 = 32;
    dp->align2_round = LAD_RD;
    dp->norm2 = 31;
    if (fp8) {
        dp->even_odd = 1;
        dp->c2_drop = 1;
    } else {
        dp->prod_inf = 128;  /* f32 products past the range are Inf */
    }
}

/* The instructions of one generation and format, largest K first: the
** first keeps the plain name, the others get -k<K>. */
static void amd_family(const char *gen, const char *arch, const amd_instr *in, int n,
                       void (*arith)(lad_datapath *dp, int param), int param)
{
    for (int i = 0; i < n; i++) {
        lad_datapath *dp = i == 0 ? add(mmasim_ev, "%s-mfma-%s-f32", gen, in[i].ab)
                                  : add(mmasim_ev, "%s-mfma-%s-f32-k%d", gen, in[i].ab, in[i].k);
        char sass[40];
        snprintf(sass, sizeof sass, "v_mfma_%s", in[i].suffix);
        ident(dp, arch, "mfma", "", in[i].shape, sass);
        formats(dp, in[i].a, in[i].b, "f32", "f32");
        dp->in_round = LAD_RZ;  /* xf32: the low 13 bits of f32 dropped */
        dp->k = in[i].k;
        dp->acc_round = LAD_RNE;
        dp->d_round = LAD_RNE;
        arith(dp, param);
        /* the rows are the family's; a K of one pass, or a format whose
        ** products stay below prod_inf, takes some out of effect */
        lad_canon(dp);
    }
}

static void fma_arith(lad_datapath *dp, int unused) { (void)unused; amd_fma(dp); }
static void cdna3_arith(lad_datapath *dp, int lmax) { amd_cdna3(dp, lmax, 0); }
static void cdna3_fp8_arith(lad_datapath *dp, int lmax) { amd_cdna3(dp, lmax, 1); }

#define NI(x) (int)(sizeof x / sizeof x[0])

static void amd_mfma(void)
{
    /* CDNA1 (MI100); CDNA2 has every CDNA1 instruction too. */
    static const amd_instr f32_1[] = {
        {"f32", "f32", "f32", "16x16x4", "f32_16x16x4f32", 4},
        {"f32", "f32", "f32", "32x32x2", "f32_32x32x2f32", 2},
        {"f32", "f32", "f32", "32x32x1", "f32_32x32x1f32", 1}};
    static const amd_instr f16_1[] = {
        {"f16", "f16", "f16", "16x16x16", "f32_16x16x16f16", 16},
        {"f16", "f16", "f16", "32x32x8", "f32_32x32x8f16", 8},
        {"f16", "f16", "f16", "32x32x4", "f32_32x32x4f16", 4}};
    static const amd_instr bf16_1[] = {
        {"bf16", "bf16", "bf16", "16x16x8", "f32_16x16x8bf16", 8},
        {"bf16", "bf16", "bf16", "32x32x4", "f32_32x32x4bf16", 4},
        {"bf16", "bf16", "bf16", "32x32x2", "f32_32x32x2bf16", 2}};
    static const amd_instr bf16_1k[] = {
        {"1k-bf16", "bf16", "bf16", "16x16x16", "f32_16x16x16bf16_1k", 16},
        {"1k-bf16", "bf16", "bf16", "32x32x8", "f32_32x32x8bf16_1k", 8},
        {"1k-bf16", "bf16", "bf16", "32x32x4", "f32_32x32x4bf16_1k", 4}};
    amd_family("cdna1", "gfx908", f32_1, NI(f32_1), fma_arith, 0);
    amd_family("cdna1", "gfx908", f16_1, NI(f16_1), amd_cdna1, 4);
    amd_family("cdna1", "gfx908", bf16_1, NI(bf16_1), amd_cdna1, 2);
    amd_family("cdna2", "gfx90a", f32_1, NI(f32_1), fma_arith, 0);
    amd_family("cdna2", "gfx90a", f16_1, NI(f16_1), amd_cdna2, 4);
    amd_family("cdna2", "gfx90a", bf16_1, NI(bf16_1), amd_cdna2, 2);
    amd_family("cdna2", "gfx90a", bf16_1k, NI(bf16_1k), amd_cdna2, 4);

    /* CDNA3 (MI300). */
    static const amd_instr f32_3[] = {
        {"f32", "f32", "f32", "16x16x4", "f32_16x16x4_f32", 4},
        {"f32", "f32", "f32", "32x32x2", "f32_32x32x2_f32", 2},
        {"f32", "f32", "f32", "32x32x1", "f32_32x32x1_2b_f32", 1}};
    static const amd_instr xf32_3[] = {
        {"xf32", "tf32", "tf32", "16x16x8", "f32_16x16x8_xf32", 8},
        {"xf32", "tf32", "tf32", "32x32x4", "f32_32x32x4_xf32", 4}};
    static const amd_instr f16_3[] = {
        {"f16", "f16", "f16", "16x16x16", "f32_16x16x16_f16", 16},
        {"f16", "f16", "f16", "32x32x8", "f32_32x32x8_f16", 8},
        {"f16", "f16", "f16", "32x32x4", "f32_32x32x4_2b_f16", 4}};
    static const amd_instr bf16_3[] = {
        {"bf16", "bf16", "bf16", "16x16x16", "f32_16x16x16_bf16", 16},
        {"bf16", "bf16", "bf16", "32x32x8", "f32_32x32x8_bf16", 8},
        {"bf16", "bf16", "bf16", "32x32x4", "f32_32x32x4_2b_bf16", 4}};
    amd_family("cdna3", "gfx942", f32_3, NI(f32_3), fma_arith, 0);
    amd_family("cdna3", "gfx942", xf32_3, NI(xf32_3), cdna3_arith, 4);
    amd_family("cdna3", "gfx942", f16_3, NI(f16_3), cdna3_arith, 8);
    amd_family("cdna3", "gfx942", bf16_3, NI(bf16_3), cdna3_arith, 8);
    /* fp8 is e4m3fnuz, bf8 e5m2fnuz; K 32 (16x16x32) and 16 (32x32x16). */
    static const char *const f8[2] = {"fp8", "bf8"};
    static const char *const f8fmt[2] = {"e4m3fnuz", "e5m2fnuz"};
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) {
            char ab[40], s32[40], s16[40];
            if (i == j)
                copy(ab, sizeof ab, f8fmt[i]);
            else
                snprintf(ab, sizeof ab, "%sx%s", f8fmt[i], f8fmt[j]);
            snprintf(s32, sizeof s32, "f32_16x16x32_%s_%s", f8[i], f8[j]);
            snprintf(s16, sizeof s16, "f32_32x32x16_%s_%s", f8[i], f8[j]);
            const amd_instr fp8[] = {{ab, f8fmt[i], f8fmt[j], "16x16x32", s32, 32},
                                     {ab, f8fmt[i], f8fmt[j], "32x32x16", s16, 16}};
            amd_family("cdna3", "gfx942", fp8, NI(fp8), cdna3_fp8_arith, 16);
        }
}

static void fill(void)
{
    lad_datapath_init(&blank);
    pre_blackwell();
    m8n8k4();
    shorter_k();
    blackwell_tcgen05();
    rtx_blackwell_kinds();
    amd_mfma();
    f64_presets();
}

static void build(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, fill);
}

int lad_preset_count(void)
{
    build();
    return ntable;
}

const lad_preset *lad_preset_get(int i)
{
    build();
    return i >= 0 && i < ntable ? &table[i] : NULL;
}

const char *lad_preset_summary(const lad_preset *p, char *buf, size_t size)
{
    const lad_datapath *dp = &p->dp;
    char scale[64] = "", sparse[32] = "";
    if (dp->scale_block > 0)
        snprintf(scale, sizeof scale, " scale %s/%d", dp->sa.name, dp->scale_block);
    if (dp->sparse)
        snprintf(sparse, sizeof sparse, " sparse %s", lad_sparse_names[dp->sparse]);
    snprintf(buf, size, "%s%s%s %s %s x %s + %s -> %s%s%s, K %d (%s)", dp->instr,
             dp->kind[0] ? "." : "", dp->kind, dp->shape, dp->a.name, dp->b.name, dp->c.name,
             dp->d.name, scale, sparse, dp->k, p->evidence);
    return buf;
}

const lad_preset *lad_preset_find(const char *name)
{
    build();
    for (int i = 0; i < ntable; i++)
        if (strcmp(table[i].dp.name, name) == 0)
            return &table[i];
    return NULL;
}
