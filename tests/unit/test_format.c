/*
** Tests of the number formats (model/format.c) and of the exact decimal text
** and format specs built on them (model/decimal.c, model/format_spec.c).
**
** The oracle is independent: tests/ref/formats.py writes, from ml_dtypes and
** numpy with exact fractions, the meaning of every code of every format of
** 16 bits or fewer and the expected words of rounding ties, subnormal
** boundaries and overflows in every mode (build/ref/formats.txt, or
** $LADDER_REF/formats.txt; tests/run.sh makes it). A missing file is a
** failure, never a skip. Formats wider than 16 bits (f32, tf32, s32) are
** checked against constants derived by hand from the IEEE 754 encodings.
*/
#include "test.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "model/decimal.h"
#include "model/format.h"
#include "model/format_spec.h"

#define NFMT 16
#define NMODE 5
#define NOVF 3

static const char *ovf_names[NOVF] = {"inf", "sat", "ieee"};

/* Tallies of one kind of reference line for one format (and mode, ovf). */
typedef struct tally {
    long lines, bad;
    char first[200]; /* the first mismatch, for the failure line */
} tally;

static void miss(tally *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void miss(tally *t, const char *fmt, ...)
{
    if (t->bad++ == 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(t->first, sizeof t->first, fmt, ap);
        va_end(ap);
    }
}

static int fmt_index(const char *name)
{
    const lad_format *f;
    for (int i = 0; (f = lad_format_builtin(i)) != NULL && i < NFMT; i++)
        if (strcmp(f->name, name) == 0)
            return i;
    return -1;
}

static int ovf_parse(const char *s)
{
    for (int i = 0; i < NOVF; i++)
        if (strcmp(s, ovf_names[i]) == 0)
            return i;
    return -1;
}

/* Bits that carry a code: 7 for ue4m3, 8 for e4m3, 16 for bf16. */
static int code_bits(const lad_format *f)
{
    return f->kind == LAD_INT ? f->width : f->sign + f->ebits + f->mbits;
}

/* Reduces m*2^e to an odd m (or 0 with e 0), as the reference writes it. */
static void normalize(uint64_t *m, int *e)
{
    if (*m == 0) {
        *e = 0;
        return;
    }
    while ((*m & 1) == 0) {
        *m >>= 1;
        (*e)++;
    }
}

static tally dec[NFMT], trip[NFMT], rnd[NFMT][NMODE][NOVF], prs[NFMT];

static void decode_line(const char *fname, unsigned code, const char *cls,
                        int sign, unsigned long long m, int e)
{
    int i = fmt_index(fname);
    if (i < 0)
        return;
    const lad_format *f = lad_format_builtin(i);
    tally *t = &dec[i];
    t->lines++;
    uint64_t word = code << f->pad;
    lad_value v = lad_decode(f, word);
    uint64_t vm = v.mag;
    int ve = v.exp;
    normalize(&vm, &ve);
    if (v.cls == LAD_INFINITE || v.cls == LAD_NAN)
        vm = 0, ve = 0;
    if (strcmp(lad_class_name(v.cls), cls) != 0 || v.neg != sign ||
        vm != m || ve != e)
        miss(t, "code %x: expected %s %d %llu*2^%d, got %s %d %llu*2^%d",
             code, cls, sign, m, e, lad_class_name(v.cls), v.neg,
             (unsigned long long)vm, ve);

    /* Every finite code rounds back to itself in every mode. */
    if (v.cls == LAD_INFINITE || v.cls == LAD_NAN)
        return;
    for (int mode = 0; mode < NMODE; mode++) {
        int flags = 0;
        uint64_t w = lad_round_value(f, v.neg, v.mag, v.exp, 0, mode,
                                     LAD_OVF_INF, &flags);
        trip[i].lines++;
        if (w != word || flags != 0)
            miss(&trip[i], "code %x %s: got %" PRIx64 " flags %d", code,
                 lad_round_name(mode), w, flags);
    }
}

static void round_line(const char *fname, const char *mname, const char *oname,
                       int neg, unsigned long long mag, int exp, int sticky,
                       unsigned want)
{
    int i = fmt_index(fname), mode = lad_round_parse(mname),
        ovf = ovf_parse(oname);
    if (i < 0 || mode < 0 || ovf < 0)
        return;
    tally *t = &rnd[i][mode][ovf];
    t->lines++;
    uint64_t got = lad_round_value(lad_format_builtin(i), neg, mag, exp,
                                   sticky, mode, ovf, NULL);
    if (got != want)
        miss(t, "%s%llu*2^%d%s: expected %x, got %" PRIx64, neg ? "-" : "", mag, exp,
             sticky ? "+sticky" : "", want, got);
}

static void parse_line(const char *fname, const char *mname, const char *oname,
                       const char *text, unsigned want)
{
    int i = fmt_index(fname), mode = lad_round_parse(mname),
        ovf = ovf_parse(oname);
    if (i < 0 || mode < 0 || ovf < 0)
        return;
    tally *t = &prs[i];
    t->lines++;
    uint64_t got = 0;
    lad_err err = {0};
    int rc = lad_decimal_parse(text, lad_format_builtin(i), mode, ovf, &got,
                               NULL, &err);
    if (rc != LAD_OK || got != want)
        miss(t, "'%s' %s %s: expected %x, got %" PRIx64 " (%s)", text, mname, oname,
             want, got, rc ? err.msg : "ok");
}

static void report(const char *name, const tally *t, long want_lines)
{
    if (t->lines == 0 || (want_lines && t->lines != want_lines))
        test_check(0, name, "%ld reference lines, expected %ld", t->lines,
                   want_lines);
    else
        test_check(t->bad == 0, name, "%ld of %ld wrong; first: %s", t->bad,
                   t->lines, t->first);
}

/* Everything compared with tests/ref/formats.py. */
static void test_reference(void)
{
    const char *dir = getenv("LADDER_REF");
    char path[512];
    snprintf(path, sizeof path, "%s/formats.txt", dir && *dir ? dir : "build/ref");
    FILE *fp = fopen(path, "r");
    test_check(fp != NULL, "format-ref-file",
               "cannot open '%s' (made by tests/ref/formats.py; run 'make test')",
               path);
    if (fp == NULL)
        return;
    char line[512];
    while (fgets(line, sizeof line, fp)) {
        char fname[32], a[32], b[32], text[256];
        unsigned code, want;
        int sign, e, sticky;
        unsigned long long m;
        if (line[0] == 'D' &&
            sscanf(line, "D %31s %x %31s %d %llu %d", fname, &code, a, &sign,
                   &m, &e) == 6)
            decode_line(fname, code, a, sign, m, e);
        else if (line[0] == 'R' &&
                 sscanf(line, "R %31s %31s %31s %d %llu %d %d %x", fname, a, b,
                        &sign, &m, &e, &sticky, &want) == 8)
            round_line(fname, a, b, sign, m, e, sticky, want);
        else if (line[0] == 'P' &&
                 sscanf(line, "P %31s %31s %31s %255s %x", fname, a, b, text,
                        &want) == 5)
            parse_line(fname, a, b, text, want);
    }
    fclose(fp);

    /* The formats the reference covers, each in full. */
    static const char *const small[] = {"bf16", "f16", "e4m3", "e5m2", "e2m3",
                                        "e3m2", "e2m1", "ue8m0", "ue4m3",
                                        "s8", "u8"};
    for (size_t k = 0; k < sizeof small / sizeof small[0]; k++) {
        int i = fmt_index(small[k]);
        char name[96];
        snprintf(name, sizeof name, "format-ref-%s-known", small[k]);
        test_check(i >= 0, name, "no built-in format '%s'", small[k]);
        if (i < 0)
            continue;
        const lad_format *f = lad_format_builtin(i);
        long codes = 1L << code_bits(f);
        snprintf(name, sizeof name, "format-decode-%s-all-%ld-codes",
                 small[k], codes);
        report(name, &dec[i], codes);
        snprintf(name, sizeof name, "format-roundtrip-%s-every-mode",
                 small[k]);
        report(name, &trip[i], 0);
        for (int mode = 0; mode < NMODE; mode++)
            for (int ovf = 0; ovf < NOVF; ovf++) {
                snprintf(name, sizeof name, "format-round-%s-%s-ovf-%s",
                         small[k], lad_round_name(mode), ovf_names[ovf]);
                report(name, &rnd[i][mode][ovf], 0);
            }
        snprintf(name, sizeof name, "format-parse-decimal-%s", small[k]);
        report(name, &prs[i], 0);
    }
}

/* A rounding case of a format wider than the reference covers. */
static void hand(const char *name, const char *fmt, int neg,
                 unsigned long long mag, int exp, int sticky, int mode,
                 int ovf, uint64_t want)
{
    const lad_format *f = lad_format_find(fmt);
    if (f == NULL) {
        test_check(0, name, "no format '%s'", fmt);
        return;
    }
    TEST_EQ_WORD(name, want, lad_round_value(f, neg, mag, exp, sticky, mode,
                                             ovf, NULL));
}

/* f64 (IEEE binary64) from its encoding by hand: 1.0 = 3ff0000000000000,
** the smallest subnormal 2^-1074 = 1, the largest finite 7fefffffffffffff. */
static void test_f64(void)
{
    const lad_format *f = lad_format_find("f64");
    test_check(f && f->width == 64 && f->ebits == 11 && f->mbits == 52 && f->bias == 1023,
               "format-f64-builtin", "%s", f ? f->name : "missing");
    if (!f)
        return;
    lad_value v = lad_decode(f, 0x3ff0000000000000ull);
    test_check(v.cls == LAD_NORMAL && !v.neg && v.mag == (1ull << 52) && v.exp == -52,
               "format-f64-decode-one", "got %llu*2^%d", (unsigned long long)v.mag, v.exp);
    v = lad_decode(f, 0x8000000000000001ull);
    test_check(v.cls == LAD_SUBNORMAL && v.neg && v.mag == 1 && v.exp == -1074,
               "format-f64-decode-min-sub", "got %llu*2^%d", (unsigned long long)v.mag, v.exp);
    v = lad_decode(f, 0x7ff0000000000001ull);
    test_check(v.cls == LAD_NAN, "format-f64-decode-nan", "class %d", v.cls);
    v = lad_decode(f, 0xfff0000000000000ull);
    test_check(v.cls == LAD_INFINITE && v.neg, "format-f64-decode-ninf", "class %d", v.cls);
    TEST_EQ_WORD("format-f64-nan", 0x7fffffffffffffffull, lad_format_nan(f));
    TEST_EQ_WORD("format-f64-maxfinite", 0x7fefffffffffffffull, lad_format_maxfinite(f, 0));
    TEST_EQ_WORD("format-f64-mask", 0xffffffffffffffffull, lad_format_mask(f));
    /* 1 + 2^-53 is the tie between 1 and 1 + 2^-52; 1 + 3 * 2^-53 rounds
    ** up to the even 1 + 2^-51. */
    hand("format-f64-one", "f64", 0, 1, 0, 0, LAD_RNE, LAD_OVF_INF, 0x3ff0000000000000ull);
    hand("format-f64-tie-rne", "f64", 0, (1ull << 53) + 1, -53, 0, LAD_RNE, LAD_OVF_INF,
         0x3ff0000000000000ull);
    hand("format-f64-tie-rne-odd", "f64", 0, (1ull << 53) + 3, -53, 0, LAD_RNE, LAD_OVF_INF,
         0x3ff0000000000002ull);
    hand("format-f64-above-tie-rne", "f64", 0, (1ull << 53) + 1, -53, 1, LAD_RNE, LAD_OVF_INF,
         0x3ff0000000000001ull);
    hand("format-f64-tie-ru-neg", "f64", 1, (1ull << 53) + 1, -53, 0, LAD_RU, LAD_OVF_INF,
         0xbff0000000000000ull);
    hand("format-f64-min-sub", "f64", 1, 1, -1074, 0, LAD_RNE, LAD_OVF_INF, 0x8000000000000001ull);
    /* 2^-1075 is half the smallest subnormal: the tie goes to even 0. */
    hand("format-f64-min-sub-half-rne", "f64", 0, 1, -1075, 0, LAD_RNE, LAD_OVF_INF, 0);
    hand("format-f64-min-sub-half-ru", "f64", 0, 1, -1075, 0, LAD_RU, LAD_OVF_INF, 1);
    hand("format-f64-ovf-rne", "f64", 0, 1, 1024, 0, LAD_RNE, LAD_OVF_INF, 0x7ff0000000000000ull);
    hand("format-f64-ovf-rz-ieee", "f64", 0, 1, 1024, 0, LAD_RZ, LAD_OVF_IEEE,
         0x7fefffffffffffffull);
    /* A 106-bit product, (2^53 - 1)^2 * 2^-104: rounds to 1 - 2^-52. */
    lad_u128 m = (lad_u128)((1ull << 53) - 1) * ((1ull << 53) - 1);
    TEST_EQ_WORD("format-f64-wide-product", 0x3feffffffffffffeull,
                 lad_round_value(f, 0, m, -106, 0, LAD_RNE, LAD_OVF_INF, NULL));
}

/* f32, tf32 and s32 rounding, from the IEEE 754 binary32 encoding by hand. */
static void test_wide(void)
{
    /* 1 + 2^-24: the tie between 1 (3f800000) and 1 + 2^-23 (3f800001). */
    hand("format-f32-tie-rne", "f32", 0, (1u << 24) + 1, -24, 0, LAD_RNE, LAD_OVF_INF, 0x3f800000);
    hand("format-f32-tie-rna", "f32", 0, (1u << 24) + 1, -24, 0, LAD_RNA, LAD_OVF_INF, 0x3f800001);
    hand("format-f32-tie-rz", "f32", 0, (1u << 24) + 1, -24, 0, LAD_RZ, LAD_OVF_INF, 0x3f800000);
    hand("format-f32-tie-ru", "f32", 0, (1u << 24) + 1, -24, 0, LAD_RU, LAD_OVF_INF, 0x3f800001);
    hand("format-f32-tie-rd-neg", "f32", 1, (1u << 24) + 1, -24, 0, LAD_RD, LAD_OVF_INF, 0xbf800001);
    hand("format-f32-tie-rne-odd", "f32", 0, (1u << 24) + 3, -24, 0, LAD_RNE, LAD_OVF_INF, 0x3f800002);
    hand("format-f32-above-tie-rne", "f32", 0, (1u << 24) + 1, -24, 1, LAD_RNE, LAD_OVF_INF, 0x3f800001);
    /* Subnormal boundary: 2^-150 is half the smallest subnormal. */
    hand("format-f32-min-sub-half-rne", "f32", 0, 1, -150, 0, LAD_RNE, LAD_OVF_INF, 0x00000000);
    hand("format-f32-min-sub-half-rna", "f32", 0, 1, -150, 0, LAD_RNA, LAD_OVF_INF, 0x00000001);
    hand("format-f32-min-sub-half-ru", "f32", 0, 1, -150, 0, LAD_RU, LAD_OVF_INF, 0x00000001);
    hand("format-f32-min-sub-half-rd-neg", "f32", 1, 1, -150, 0, LAD_RD, LAD_OVF_INF, 0x80000001);
    hand("format-f32-min-sub-half-rz-neg", "f32", 1, 1, -150, 0, LAD_RZ, LAD_OVF_INF, 0x80000000);
    /* 2^-126 - 2^-150: the tie between 007fffff and 00800000. */
    hand("format-f32-sub-normal-tie-rne", "f32", 0, (1u << 24) - 1, -150, 0, LAD_RNE, LAD_OVF_INF, 0x00800000);
    hand("format-f32-sub-normal-tie-rz", "f32", 0, (1u << 24) - 1, -150, 0, LAD_RZ, LAD_OVF_INF, 0x007fffff);
    /* Overflow: 2^128, and max + half an ulp (2^128 - 2^103). */
    hand("format-f32-ovf-rne-inf", "f32", 0, 1, 128, 0, LAD_RNE, LAD_OVF_INF, 0x7f800000);
    hand("format-f32-ovf-rz-inf", "f32", 0, 1, 128, 0, LAD_RZ, LAD_OVF_INF, 0x7f800000);
    hand("format-f32-ovf-rz-ieee", "f32", 0, 1, 128, 0, LAD_RZ, LAD_OVF_IEEE, 0x7f7fffff);
    hand("format-f32-ovf-rd-ieee", "f32", 0, 1, 128, 0, LAD_RD, LAD_OVF_IEEE, 0x7f7fffff);
    hand("format-f32-ovf-rd-ieee-neg", "f32", 1, 1, 128, 0, LAD_RD, LAD_OVF_IEEE, 0xff800000);
    hand("format-f32-ovf-rne-sat-neg", "f32", 1, 1, 128, 0, LAD_RNE, LAD_OVF_SAT, 0xff7fffff);
    hand("format-f32-ovf-tie-rne", "f32", 0, (1ull << 25) - 1, 103, 0, LAD_RNE, LAD_OVF_INF, 0x7f800000);
    hand("format-f32-ovf-tie-rz", "f32", 0, (1ull << 25) - 1, 103, 0, LAD_RZ, LAD_OVF_IEEE, 0x7f7fffff);
    hand("format-f32-ovf-below-tie-rne", "f32", 0, (1ull << 29) - 17, 99, 0, LAD_RNE, LAD_OVF_INF, 0x7f7fffff);
    /* tf32 keeps 10 fraction bits in the top of an f32 word: 1 + 2^-11 is
    ** the tie between 3f800000 and 3f802000 (cvt.rna.tf32.f32 goes up). */
    hand("format-tf32-tie-rna", "tf32", 0, (1u << 11) + 1, -11, 0, LAD_RNA, LAD_OVF_INF, 0x3f802000);
    hand("format-tf32-tie-rne", "tf32", 0, (1u << 11) + 1, -11, 0, LAD_RNE, LAD_OVF_INF, 0x3f800000);
    hand("format-tf32-min-sub", "tf32", 0, 1, -136, 0, LAD_RNE, LAD_OVF_INF, 0x00002000);
    /* s32: two's complement, wraps or saturates. */
    hand("format-s32-max", "s32", 0, 0x7fffffff, 0, 0, LAD_RNE, LAD_OVF_INF, 0x7fffffff);
    hand("format-s32-min", "s32", 1, 1, 31, 0, LAD_RNE, LAD_OVF_SAT, 0x80000000);
    hand("format-s32-ovf-sat", "s32", 0, 1, 31, 0, LAD_RNE, LAD_OVF_SAT, 0x7fffffff);
    hand("format-s32-ovf-wrap", "s32", 0, 1, 31, 0, LAD_RNE, LAD_OVF_INF, 0x80000000);
    hand("format-s32-half-rne", "s32", 0, 5, -1, 0, LAD_RNE, LAD_OVF_INF, 2);
    hand("format-s32-half-rna-neg", "s32", 1, 5, -1, 0, LAD_RNA, LAD_OVF_INF, 0xfffffffd);

    const lad_format *f32 = lad_format_find("f32"), *tf32 = lad_format_find("tf32");
    lad_value v = lad_decode(f32, 0x00000001);
    test_check(v.cls == LAD_SUBNORMAL && v.mag == 1 && v.exp == -149,
               "format-f32-decode-min-sub", "got class %d %llu*2^%d", v.cls,
               (unsigned long long)v.mag, v.exp);
    v = lad_decode(f32, 0x7fc00000);
    test_check(v.cls == LAD_NAN, "format-f32-decode-nan", "class %d", v.cls);
    v = lad_decode(tf32, 0x3f801fff); /* low 13 bits are not tf32's */
    test_check(v.cls == LAD_NORMAL && v.mag == 1024 && v.exp == -10,
               "format-tf32-decode-ignores-low-bits", "got %llu*2^%d",
               (unsigned long long)v.mag, v.exp);
    TEST_EQ_U32("format-tf32-mask", 0xffffe000, lad_format_mask(tf32));
}

static void expect_text(const char *name, const char *want, int neg,
                        uint64_t mag, int exp)
{
    char buf[1200];
    size_t n = lad_decimal_print(buf, sizeof buf, neg, mag, exp);
    test_check(strcmp(buf, want) == 0 && n == strlen(want), name,
               "expected '%s', got '%s'", want, buf);
}

static void expect_parse(const char *name, const char *fmt, const char *text,
                         int mode, uint64_t want)
{
    uint64_t got = 0;
    lad_err err = {0};
    int rc = lad_decimal_parse(text, lad_format_find(fmt), mode, LAD_OVF_IEEE,
                               &got, NULL, &err);
    test_check(rc == LAD_OK && got == want, name,
               "expected %" PRIx64 ", got %" PRIx64 " (%s)", want, got,
               rc ? err.msg : "ok");
}

/* Exact decimal text both ways, against values worked out by hand. */
static void test_decimal(void)
{
    expect_text("decimal-print-448", "448", 0, 14, 5);
    expect_text("decimal-print-neg-half", "-0.5", 1, 1, -1);
    expect_text("decimal-print-neg-zero", "-0", 1, 0, -9);
    expect_text("decimal-print-f16-min-sub", "0.000000059604644775390625", 0, 1, -24);
    expect_text("decimal-print-2p64", "18446744073709551616", 0, 1, 64);
    expect_text("decimal-print-f32-max",
                "340282346638528859811704183484516925440", 0, 0xffffff, 104);
    char buf[1200];
    size_t n = lad_decimal_print(buf, sizeof buf, 0, 1, -149);
    /* 2^-149 = 5^149 / 10^149: 149 digits after the point, ending in 5. */
    test_check(n == 151 && strncmp(buf, "0.000000000000000000000000000000"
                                        "000000000000001401298", 53) == 0 &&
                   buf[150] == '5',
               "decimal-print-f32-min-sub", "got %zu chars: %.60s", n, buf);
    n = lad_decimal_print(buf, 4, 0, 14, 5);
    test_check(n == 3 && strcmp(buf, "448") == 0, "decimal-print-fits-exactly",
               "got %zu '%s'", n, buf);
    n = lad_decimal_print(buf, 3, 0, 14, 5);
    test_check(n == 3 && strcmp(buf, "44") == 0, "decimal-print-truncates",
               "got %zu '%s'", n, buf);

    /* a witness's value: the decimal while short, then only m*2^e (f32
    ** words by hand: 1fff is 8191 units of 2^-149, 2000 is 2^-136,
    ** 3f7fffff is 1 - 2^-24, 80001fff the negative of 1fff) */
    const lad_format *f32 = lad_format_find("f32");
    static const struct { uint32_t w; const char *want; } brief[] = {
        {0x3f800000, "1"},
        {0x3f7fffff, "0.999999940395355224609375 (16777215*2^-24)"},
        {0x00001fff, "8191*2^-149"},
        {0x80001fff, "-8191*2^-149"},
        {0x00002000, "2^-136"},
        {0x7f800000, "inf"},
    };
    for (size_t i = 0; i < sizeof brief / sizeof brief[0]; i++) {
        char name[40];
        snprintf(name, sizeof name, "decimal-value-brief-%08x", (unsigned)brief[i].w);
        lad_value_text_brief(f32, brief[i].w, buf, sizeof buf);
        test_check(strcmp(buf, brief[i].want) == 0, name,
                   "%08x: got '%s', expected '%s'", brief[i].w, buf, brief[i].want);
    }

    /* f32 words of decimal constants, as any IEEE 754 table gives them. */
    expect_parse("decimal-parse-f32-0.1", "f32", "0.1", LAD_RNE, 0x3dcccccd);
    expect_parse("decimal-parse-f32-0.1-rz", "f32", "0.1", LAD_RZ, 0x3dcccccc);
    expect_parse("decimal-parse-f32-neg-0.1-rd", "f32", "-0.1", LAD_RD, 0xbdcccccd);
    expect_parse("decimal-parse-f32-1e-45", "f32", "1e-45", LAD_RNE, 0x00000001);
    expect_parse("decimal-parse-f32-7e-46", "f32", "7e-46", LAD_RNE, 0x00000000);
    expect_parse("decimal-parse-f32-8e-46", "f32", "8e-46", LAD_RNE, 0x00000001);
    expect_parse("decimal-parse-f32-max", "f32", "3.4028234663852886e38", LAD_RNE, 0x7f7fffff);
    expect_parse("decimal-parse-f32-3.5e38", "f32", "3.5e38", LAD_RNE, 0x7f800000);
    expect_parse("decimal-parse-f32-pi", "f32", "3.14159265358979323846", LAD_RNE, 0x40490fdb);
    expect_parse("decimal-parse-f32-1e10", "f32", "1e10", LAD_RNE, 0x501502f9);
    expect_parse("decimal-parse-f32-hex", "f32", "0x1.8p1", LAD_RNE, 0x40400000);
    expect_parse("decimal-parse-f32-hexint", "f32", "0x3f80", LAD_RNE, 0x467e0000);
    expect_parse("decimal-parse-f32-neg-zero", "f32", "-0", LAD_RNE, 0x80000000);
    expect_parse("decimal-parse-f32-inf", "f32", "-Inf", LAD_RNE, 0xff800000);
    expect_parse("decimal-parse-f32-nan", "f32", "nan", LAD_RNE, 0x7fffffff);
    expect_parse("decimal-parse-f32-tiny", "f32", "1e-9999", LAD_RU, 0x00000001);
    expect_parse("decimal-parse-f32-huge", "f32", "1e9999", LAD_RZ, 0x7f7fffff);
    expect_parse("decimal-parse-e4m3-inf-nan", "e4m3", "inf", LAD_RNE, 0x7f);
    expect_parse("decimal-parse-s32-big", "s32", "2147483647.4", LAD_RNE, 0x7fffffff);
    expect_parse("decimal-parse-s32-neg", "s32", "-2.5", LAD_RNE, 0xfffffffe);

    static const char *const bad[] = {"", "-", "1.2.3", "1e", "e5", "0x",
                                      "1x", "0x1p", "++1", "1e+", "nan1", "."};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char name[64];
        uint64_t w;
        lad_err err = {0};
        snprintf(name, sizeof name, "decimal-parse-rejects-%zu", i);
        int rc = lad_decimal_parse(bad[i], lad_format_find("f32"), LAD_RNE,
                                   LAD_OVF_IEEE, &w, NULL, &err);
        test_check(rc == LAD_EDATA && strstr(err.msg, "not a number"), name,
                   "'%s': rc %d, %s", bad[i], rc, err.msg);
    }
    uint64_t w;
    lad_err err = {0};
    int rc = lad_decimal_parse("nan", lad_format_find("e2m1"), LAD_RNE,
                               LAD_OVF_IEEE, &w, NULL, &err);
    test_check(rc == LAD_EDATA, "decimal-parse-e2m1-no-nan", "rc %d", rc);
}

/* Format specs: shapes, keys, errors, and printing what parsing reads. */
static void test_spec(void)
{
    lad_format f;
    lad_err err = {0};
    int rc = lad_format_parse("e3m4", &f, &err);
    test_check(rc == LAD_OK && f.kind == LAD_FLOAT && f.width == 8 &&
                   f.sign == 1 && f.ebits == 3 && f.mbits == 4 && f.bias == 3 &&
                   f.sub == LAD_SUB_IEEE && f.inf == LAD_INF_IEEE &&
                   f.nan == LAD_NAN_IEEE,
               "format-spec-e3m4", "rc %d width %d bias %d (%s)", rc, f.width,
               f.bias, err.msg);
    rc = lad_format_parse("e4m3:bias=8,name=mine", &f, &err);
    test_check(rc == LAD_OK && f.bias == 8 && f.nan == LAD_NAN_ONES &&
                   strcmp(f.name, "mine") == 0,
               "format-spec-builtin-override", "rc %d bias %d name %s", rc,
               f.bias, f.name);
    rc = lad_format_parse("ue5m3:inf=none,nan=ones,sub=flush", &f, &err);
    test_check(rc == LAD_OK && f.sign == 0 && f.width == 8 &&
                   f.sub == LAD_SUB_FLUSH && f.inf == LAD_INF_NONE,
               "format-spec-unsigned", "rc %d", rc);
    rc = lad_format_parse("s16", &f, &err);
    test_check(rc == LAD_OK && f.kind == LAD_INT && f.width == 16 && f.sign,
               "format-spec-int", "rc %d", rc);
    /* A user-defined format decodes like any other: e3m4, 0x30 = 1.0. */
    lad_format_parse("e3m4", &f, &err);
    lad_value v = lad_decode(&f, 0x30);
    test_check(v.cls == LAD_NORMAL && v.mag == 16 && v.exp == -4,
               "format-spec-e3m4-decode-one", "got %llu*2^%d",
               (unsigned long long)v.mag, v.exp);

    static const char *const bad[] = {"e9", "x4m3", "e4m3:bias", "e4m3:bais=7",
                                      "e4m3:sub=maybe", "e12m2", "e4m53",
                                      "s1", "e4m3:bias=99999", "",
                                      "e1m2", "e-1m2",
                                      /* integers have no exponent */
                                      "s8:bias=3", "u8:nan=ieee",
                                      "s32:sub=flush", "s16:inf=ieee"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char name[64];
        lad_err e2 = {0};
        snprintf(name, sizeof name, "format-spec-rejects-%zu", i);
        rc = lad_format_parse(bad[i], &f, &e2);
        test_check(rc == LAD_EDATA && e2.msg[0], name, "'%s': rc %d", bad[i],
                   rc);
    }
    /* Every built-in, printed as a spec, parses back to the same fields. */
    const lad_format *b;
    int same = 1;
    char spec[160] = "";
    for (int i = 0; (b = lad_format_builtin(i)) != NULL && same; i++) {
        lad_err e3 = {0};
        lad_format_spec(b, spec, sizeof spec);
        lad_format g;
        same = lad_format_parse(spec, &g, &e3) == LAD_OK &&
               g.kind == b->kind && g.width == b->width && g.pad == b->pad &&
               g.sign == b->sign && g.ebits == b->ebits && g.mbits == b->mbits &&
               g.bias == b->bias && (b->kind == LAD_INT ||
               (g.sub == b->sub && g.inf == b->inf && g.nan == b->nan));
    }
    test_check(same, "format-spec-print-parse-builtins", "'%s' differs", spec);

    /* User formats whose base names a built-in of another width (ue4m3 is
    ** 8 bits), or whose width is not their fields': the printed spec must
    ** say so, or it parses back to another format. */
    static const char *const user[] = {"ue4m3:width=7", "e4m3:sign=0",
                                       "ue4m3:width=12", "e5m2:pad=2",
                                       "u8:width=1", "tf32:width=19,pad=0"};
    for (size_t i = 0; i < sizeof user / sizeof user[0]; i++) {
        char name[64];
        lad_format g;
        lad_err e4 = {0};
        snprintf(name, sizeof name, "format-spec-print-parse-user-%zu", i);
        rc = lad_format_parse(user[i], &f, &e4);
        lad_format_spec(&f, spec, sizeof spec);
        same = rc == LAD_OK && lad_format_parse(spec, &g, &e4) == LAD_OK &&
               g.kind == f.kind && g.width == f.width && g.pad == f.pad &&
               g.sign == f.sign && g.ebits == f.ebits && g.mbits == f.mbits &&
               g.bias == f.bias && g.sub == f.sub && g.inf == f.inf &&
               g.nan == f.nan;
        test_check(same, name, "'%s' printed as '%s' (%s)", user[i], spec,
                   e4.msg);
    }
    rc = lad_format_parse("ue4m3:width=7", &f, &err);
    test_check(rc == LAD_OK && f.width == 7 && f.sign == 0,
               "format-spec-ue4m3-width-7", "rc %d width %d", rc, f.width);

    /* The short spec of a format whose NaN is the -0 word (fnuz) names it:
    ** it once printed nan=none (the name table's last entry was cut off). */
    lad_format g;
    rc = lad_format_parse("e5m2fnuz", &f, &err);
    lad_format_spec_short(&f, spec, sizeof spec);
    int back = lad_format_parse(spec, &g, &err) == LAD_OK;
    test_check(rc == LAD_OK && back && g.nan == LAD_NAN_NEGZERO && g.bias == f.bias &&
               strstr(spec, "nan=negzero") != NULL, "format-spec-short-negzero",
               "'e5m2fnuz' is short for '%s'", spec);
}

void test_format(void)
{
    test_reference();
    test_wide();
    test_f64();
    test_decimal();
    test_spec();
}
