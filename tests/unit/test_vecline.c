/*
** Tests of the vector line format (io/vecline.c): lines from the captured
** files parse to the words they spell, formatting reads back to the same
** case, and every malformed field is refused with the column of the fault.
*/
#include "test.h"
#include "io/vecline.h"

#include <string.h>

static void dp_plain(lad_datapath *dp, const char *ab, const char *cd, int k)
{
    lad_datapath_init(dp);
    snprintf(dp->name, sizeof dp->name, "test-%s-%s", ab, cd);
    dp->a = *lad_format_find(ab);
    dp->b = dp->a;
    dp->c = *lad_format_find(cd);
    dp->d = dp->c;
    dp->k = k;
    dp->pass = k;
}

/* Parses line for dp; expects a data error at `col` whose message holds
** `what`. */
static void refuse(const char *name, const lad_datapath *dp, int k,
                   const char *line, int col, const char *what)
{
    lad_vecloc loc = {"x.vec", 7};
    lad_case cs;
    uint64_t d;
    int has_d;
    lad_err err = {0};
    int rc = lad_vecline_parse(dp, k, line, &loc, &cs, &d, &has_d, &err);
    char prefix[32];
    snprintf(prefix, sizeof prefix, "x.vec:7:%d: ", col);
    test_check(rc == LAD_EDATA && strncmp(err.msg, prefix, strlen(prefix))
               == 0 && strstr(err.msg, what) != NULL, name,
               "rc %d, message '%s', wanted '%s...%s'", rc, err.msg, prefix,
               what);
}

static void test_plain(void)
{
    lad_datapath dp;
    lad_vecloc loc = {"v100-f16-f16.vec", 11};
    lad_case cs = {0};   /* lanes past K stay as they are (vecline.h) */
    uint64_t d = 0;
    int has_d = 0;
    lad_err err = {0};

    /* The first case of vectors/v100-f16-f16.vec. */
    dp_plain(&dp, "f16", "f16", 4);
    int rc = lad_vecline_parse(&dp, 0, "3bd5,3c3e,b534,3df8;38ca,b935,36bf,"
                               "34ec;3bfa;3cdc", &loc, &cs, &d, &has_d,
                               &err);
    TEST_EQ_INT("vecline-f16-parse", LAD_OK, rc);
    TEST_EQ_U32("vecline-f16-a0", 0x3bd5, cs.a[0]);
    TEST_EQ_U32("vecline-f16-a3", 0x3df8, cs.a[3]);
    TEST_EQ_U32("vecline-f16-b2", 0x36bf, cs.b[2]);
    TEST_EQ_U32("vecline-f16-c", 0x3bfa, cs.c);
    TEST_EQ_INT("vecline-f16-has-d", 1, has_d);
    TEST_EQ_U32("vecline-f16-d", 0x3cdc, d);

    /* Without D, upper case, short words, a CR line end. */
    rc = lad_vecline_parse(&dp, 0, "3BD5,0,1,3df8;38ca,b935,36bf,34ec;3bfa\r",
                           &loc, &cs, &d, &has_d, &err);
    test_check(rc == LAD_OK && has_d == 0 && cs.a[0] == 0x3bd5 &&
               cs.a[1] == 0 && cs.a[2] == 1, "vecline-no-d-lenient",
               "rc %d (%s), has_d %d", rc, err.msg, has_d);

    /* A file holding fewer lanes than the datapath: the rest are zero. */
    lad_datapath dp8;
    dp_plain(&dp8, "tf32", "f32", 8);
    memset(&cs, 0xff, sizeof cs);
    rc = lad_vecline_parse(&dp8, 4, "3f7aa000,3f87c000,bea68000,3fbf0000;"
                           "3f194000,bf26a000,3ed7e000,3e9d8000;3f3ae40b;"
                           "3f729e57", &loc, &cs, &d, &has_d, &err);
    test_check(rc == LAD_OK && cs.a[3] == 0x3fbf0000 && cs.a[4] == 0 &&
               cs.a[7] == 0 && cs.b[7] == 0 && d == 0x3f729e57,
               "vecline-short-k", "rc %d (%s)", rc, err.msg);

    /* Lanes past the datapath's K are left as they were; lanes up to K a
    ** short line does not fill are zeroed. */
    lad_case keep;
    memset(&keep, 0xaa, sizeof keep);
    rc = lad_vecline_parse(&dp, 2, "3c00,3c00;3c00,3c00;0000", &loc, &keep,
                           &d, &has_d, &err);
    test_check(rc == LAD_OK && keep.a[1] == 0x3c00 && keep.a[2] == 0 &&
               keep.b[3] == 0 && keep.a[4] == 0xaaaaaaaaaaaaaaaau &&
               keep.b[4] == 0xaaaaaaaaaaaaaaaau && keep.sa[0] == 0 && keep.meta[0] == 0,
               "vecline-lanes-past-k-untouched", "rc %d a2 %x a4 %x", rc,
               (unsigned)keep.a[2], (unsigned)keep.a[4]);

    /* Formatting: native widths, lowercase, and it reads back. */
    char buf[LAD_VECLINE_MAX];
    lad_case in;
    memset(&in, 0, sizeof in);
    in.a[0] = 0x3bd5, in.a[1] = 0x1, in.a[2] = 0xabcd, in.a[3] = 0;
    in.b[0] = 0xffff, in.c = 0x7c00;
    uint64_t dd = 0x3c;
    int n = lad_vecline_format(&dp, &in, &dd, buf, sizeof buf);
    const char *want = "3bd5,0001,abcd,0000;ffff,0000,0000,0000;7c00;003c";
    test_check(n == (int)strlen(want) && strcmp(buf, want) == 0,
               "vecline-format-f16", "got '%s'", buf);
    n = lad_vecline_format(&dp, &in, NULL, buf, sizeof buf);
    test_check(strcmp(buf, "3bd5,0001,abcd,0000;ffff,0000,0000,0000;7c00")
               == 0, "vecline-format-no-d", "got '%s'", buf);
    n = lad_vecline_format(&dp, &in, NULL, buf, 20);
    TEST_EQ_INT("vecline-format-too-small", -1, n);

    lad_datapath e2;
    dp_plain(&e2, "e2m1", "f32", 8);
    e2.b = *lad_format_find("e3m2");
    memset(&in, 0, sizeof in);
    for (int i = 0; i < 8; i++)
        in.a[i] = (uint64_t)(i * 3) & 15, in.b[i] = (uint64_t)(i * 9) & 63;
    in.c = 0x80000000u;
    lad_vecline_format(&e2, &in, NULL, buf, sizeof buf);
    test_check(strcmp(buf, "0,3,6,9,c,f,2,5;00,09,12,1b,24,2d,36,3f;80000000")
               == 0, "vecline-format-narrow", "got '%s'", buf);
    memset(&cs, 0, sizeof cs);
    rc = lad_vecline_parse(&e2, 0, buf, &loc, &cs, &d, &has_d, &err);
    test_check(rc == LAD_OK && memcmp(&cs, &in, sizeof cs) == 0,
               "vecline-roundtrip-narrow", "rc %d (%s)", rc, err.msg);

    /* Errors, each at its column. */
    refuse("vecline-err-empty", &dp, 0, "", 1, "empty line");
    refuse("vecline-err-2-fields", &dp, 0, "1,2,3,4;1,2,3,4", 16,
           "expected 3 or 4 fields");
    refuse("vecline-err-5-fields", &dp, 0, "1,2,3,4;1,2,3,4;0;0;0", 21,
           "got 5");
    refuse("vecline-err-hex", &dp, 0, "1,2,3x,4;1,2,3,4;0", 6,
           "bad hex digit 'x'");
    refuse("vecline-err-hex-c", &dp, 0, "1,2,3,4;1,2,3,4;-1", 17,
           "bad hex digit '-'");
    refuse("vecline-err-empty-word", &dp, 0, "1,2,,4;1,2,3,4;0", 5,
           "empty word in A");
    refuse("vecline-err-too-many", &dp, 0, "1,2,3,4;1,2,3,4,5;0", 17,
           "B has more than 4 words");
    refuse("vecline-err-too-few", &dp, 0, "1,2,3;1,2,3,4;0", 6,
           "A has 3 words, expected 4");
    refuse("vecline-err-empty-a", &dp, 0, ";1,2,3,4;0", 1, "A is empty");
    refuse("vecline-err-digits", &dp, 0, "1,2,3,4;1,2,3,4;10000", 17,
           "has 5 hex digits; f16 words have at most 4");
    refuse("vecline-err-d-digits", &dp, 0, "1,2,3,4;1,2,3,4;0;123456789",
           19, "D word '123456789' has 9 hex digits");
    refuse("vecline-err-too-wide", &e2, 0,
           "0,1,2,3,4,5,6,7;00,01,02,40,04,05,06,07;0", 26,
           "does not fit e3m2 (6 bits)");
    refuse("vecline-err-short-k", &dp8, 4, "1,2,3,4,5;1,2,3,4;0", 9,
           "A has more than 4 words");
}

static void test_extra(void)
{
    /* A block-scaled datapath (MX e4m3, K 64, a scale per 32) and a sparse
    ** one (2 of 4, K 32 logical): the lines carry scale and meta fields. */
    lad_datapath mx;
    dp_plain(&mx, "e4m3", "f32", 64);
    mx.sa = *lad_format_find("ue8m0");
    mx.sb = mx.sa;
    mx.scale_block = 32;
    TEST_EQ_INT("vecline-mx-nscales", 2, lad_datapath_nscales(&mx));
    TEST_EQ_INT("vecline-mx-extra", 1, lad_vecline_extra(&mx));

    lad_case in, cs;
    memset(&in, 0, sizeof in);
    memset(&cs, 0, sizeof cs);
    for (int i = 0; i < 64; i++)
        in.a[i] = (uint64_t)i, in.b[i] = (uint64_t)(255 - i);
    in.c = 0x3f800000;
    in.sa[0] = 0x7f, in.sa[1] = 0x80, in.sb[0] = 0x01, in.sb[1] = 0xff;
    char buf[LAD_VECLINE_MAX];
    uint64_t d = 0x40000000, dout;
    int has_d;
    lad_err err = {0};
    lad_vecloc loc = {"mx.vec", 1};
    int n = lad_vecline_format(&mx, &in, &d, buf, sizeof buf);
    const char *tail = ";3f800000;40000000;7f,80;01,ff;";
    test_check(n > 0 && strlen(buf) > strlen(tail) &&
               strcmp(buf + strlen(buf) - strlen(tail), tail) == 0,
               "vecline-mx-format", "got '...%s'",
               n > 40 ? buf + n - 40 : buf);
    int rc = lad_vecline_parse(&mx, 0, buf, &loc, &cs, &dout, &has_d, &err);
    test_check(rc == LAD_OK && has_d && dout == d &&
               memcmp(&cs, &in, sizeof cs) == 0, "vecline-mx-roundtrip",
               "rc %d (%s)", rc, err.msg);
    n = lad_vecline_format(&mx, &in, NULL, buf, sizeof buf);
    rc = lad_vecline_parse(&mx, 0, buf, &loc, &cs, &dout, &has_d, &err);
    test_check(rc == LAD_OK && !has_d && memcmp(&cs, &in, sizeof cs) == 0,
               "vecline-mx-roundtrip-no-d", "rc %d (%s)", rc, err.msg);

    /* Short scale words and a CRLF end, as the format allows: the values
    ** written by hand, not by the formatter. */
    n = lad_vecline_format(&mx, &in, NULL, buf, sizeof buf);
    strcpy(strstr(buf, ";7f,80;"), ";7,80;1,ff;\r\n");
    rc = lad_vecline_parse(&mx, 0, buf, &loc, &cs, &dout, &has_d, &err);
    test_check(rc == LAD_OK && !has_d && cs.sa[0] == 7 && cs.sa[1] == 0x80 && cs.sb[0] == 1 &&
               cs.sb[1] == 0xff && cs.c == 0x3f800000 && cs.a[63] == 63 && cs.b[0] == 255,
               "vecline-mx-short-scales", "rc %d (%s)", rc, err.msg);

    /* Plain 3-field lines are refused for a scaled datapath. */
    char line[LAD_VECLINE_MAX];
    n = lad_vecline_format(&mx, &in, &d, line, sizeof line);
    char *cut = strstr(line, ";7f,80;");
    *cut = 0;
    refuse("vecline-mx-missing-scales", &mx, 0, line, (int)strlen(line) + 1,
           "expected 6 or 7 fields");
    strcpy(cut, ";7f,80;01;");
    refuse("vecline-mx-few-scales", &mx, 0, line, (int)strlen(line),
           "scale_b has 1 word, expected 2");
    strcpy(cut, ";7f,180;01,02;");
    refuse("vecline-mx-scale-byte", &mx, 0, line, (int)(cut - line) + 5,
           "has 3 hex digits");
    strcpy(cut, ";7f,80;01,02;1");
    refuse("vecline-mx-meta-dense", &mx, 0, line, (int)strlen(line),
           "meta given, but 'test-e4m3-f32' is not sparse");

    lad_datapath sp;
    dp_plain(&sp, "f16", "f32", 32);
    sp.sparse = LAD_SPARSE_2OF4;
    sp.pass = 16;
    TEST_EQ_INT("vecline-sp-nmeta", 1, lad_datapath_nmeta(&sp));
    memset(&in, 0, sizeof in);
    in.a[0] = 0x3c00, in.b[31] = 0xbc00, in.meta[0] = 0x4444e444;
    n = lad_vecline_format(&sp, &in, NULL, buf, sizeof buf);
    const char *sp_tail = ",0000,bc00;00000000;;;4444e444";
    test_check(n > 30 && strcmp(buf + n - strlen(sp_tail), sp_tail) == 0,
               "vecline-sp-format", "got '...%s'",
               n > 30 ? buf + n - 30 : buf);
    memset(&cs, 0, sizeof cs);
    rc = lad_vecline_parse(&sp, 0, buf, &loc, &cs, &dout, &has_d, &err);
    test_check(rc == LAD_OK && memcmp(&cs, &in, sizeof cs) == 0,
               "vecline-sp-roundtrip", "rc %d (%s)", rc, err.msg);
    strcpy(strstr(buf, ";;;"), ";;;4444e44g");
    refuse("vecline-sp-bad-meta", &sp, 0, buf, (int)strlen(buf),
           "bad hex digit 'g' in meta");
    strcpy(strstr(buf, ";;;"), ";7f;;0");
    refuse("vecline-sp-scale-unscaled", &sp, 0, buf,
           (int)(strstr(buf, ";7f") - buf) + 2, "scale_a given");
}

/* f64 words: 16 hex digits each, a word of 2^63 or more (a negative f64)
** read and written whole, and a 17th digit refused. */
static void test_f64_words(void)
{
    lad_datapath dp;
    dp_plain(&dp, "f64", "f64", 2);
    lad_case in, cs;
    memset(&in, 0, sizeof in);
    memset(&cs, 0, sizeof cs);
    in.a[0] = 0xbff0000000000000ull, in.a[1] = 0x8000000000000001ull;
    in.b[0] = 0x3ff0000000000000ull, in.b[1] = 1;
    in.c = 0xfff8000000000000ull;
    uint64_t dd = 0xc000000000000000ull, d = 0;
    char buf[LAD_VECLINE_MAX];
    lad_vecline_format(&dp, &in, &dd, buf, sizeof buf);
    const char *want = "bff0000000000000,8000000000000001;3ff0000000000000,0000000000000001;"
                       "fff8000000000000;c000000000000000";
    test_check(strcmp(buf, want) == 0, "vecline-format-f64", "got '%s'", buf);
    lad_vecloc loc = {"f64.vec", 1};
    int has_d = 0;
    lad_err err = {0};
    int rc = lad_vecline_parse(&dp, 0, buf, &loc, &cs, &d, &has_d, &err);
    test_check(rc == LAD_OK && memcmp(&cs, &in, sizeof cs) == 0 && has_d && d == dd,
               "vecline-roundtrip-f64-high-bit", "rc %d (%s) d %llx", rc, err.msg,
               (unsigned long long)d);
    refuse("vecline-err-f64-17-digits", &dp, 0,
           "10000000000000000,0;0,0;0", 1, "has 17 hex digits; f64 words have at most 16");
}

void test_vecline(void)
{
    test_f64_words();
    test_plain();
    test_extra();
}
