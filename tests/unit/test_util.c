/*
** Tests of util/: the growable text (buf.c) and the JSON string escaper
** (json.c), through their interfaces. Expected texts are written out by
** hand from RFC 8259 and from printf's documented output.
*/
#include "test.h"
#include "util/buf.h"
#include "util/json.h"
#include "util/suggest.h"

#include <stdlib.h>
#include <string.h>

static void test_buf(void)
{
    lad_buf b = {0};
    char *t = lad_buf_take(&b);
    test_check(t != NULL && strcmp(t, "") == 0, "util-buf-empty", "'%s'", t ? t : "(null)");
    free(t);

    /* bytes with a NUL among them, a string, a format */
    lad_buf_add(&b, "ab\0cd", 5);
    lad_buf_puts(&b, "ef");
    lad_buf_printf(&b, "[%d|%5s|%x]", -12, "g", 255u);
    test_check(b.len == 21 && memcmp(b.p, "ab\0cdef[-12|    g|ff]", 22) == 0,
               "util-buf-appends", "len %zu", b.len);
    lad_buf_free(&b);
    test_check(b.p == NULL && b.len == 0 && b.cap == 0, "util-buf-free", "len %zu", b.len);

    /* formats longer than any first guess, and many appends: 3000 'x'
    ** then 1000 times "0123456789" */
    lad_buf_printf(&b, "%3000s", "");
    for (int i = 0; i < 1000; i++)
        lad_buf_printf(&b, "%s", "0123456789");
    int ok = b.len == 13000 && b.p[13000] == 0;
    for (size_t i = 0; ok && i < 3000; i++)
        ok = b.p[i] == ' ';
    for (size_t i = 3000; ok && i < 13000; i++)
        ok = b.p[i] == (char)('0' + (i - 3000) % 10);
    test_check(ok, "util-buf-long", "len %zu", b.len);
    t = lad_buf_take(&b);
    test_check(t != NULL && strlen(t) == 13000 && b.p == NULL && b.len == 0,
               "util-buf-take", "%zu", t ? strlen(t) : 0);
    free(t);

    /* once an allocation has failed, appends stop and take says so */
    lad_buf_puts(&b, "kept");
    b.oom = 1;
    lad_buf_puts(&b, "lost");
    lad_buf_printf(&b, "%d", 7);
    test_check(b.len == 4 && strcmp(b.p, "kept") == 0, "util-buf-oom-sticky", "'%s'", b.p);
    t = lad_buf_take(&b);
    test_check(t == NULL && b.p == NULL && b.oom == 0, "util-buf-oom-take", "%p", (void *)t);
}

static void json_case(const char *name, const char *in, const char *want)
{
    lad_buf b = {0};
    lad_buf_puts(&b, "[");
    lad_json_str(&b, in);
    lad_buf_puts(&b, "]");
    test_check(!b.oom && strcmp(b.p, want) == 0, name, "got %s, expected %s", b.p, want);
    lad_buf_free(&b);
}

static void test_json(void)
{
    json_case("util-json-plain", "ladder run x.yaml", "[\"ladder run x.yaml\"]");
    json_case("util-json-empty", "", "[\"\"]");
    json_case("util-json-null", NULL, "[\"\"]");
    json_case("util-json-quote-backslash", "a\"b\\c", "[\"a\\\"b\\\\c\"]");
    json_case("util-json-newline-tab", "a\nb\tc", "[\"a\\nb\\tc\"]");
    json_case("util-json-controls", "\x01\x1f\r\x7f", "[\"\\u0001\\u001f\\u000d\\u007f\"]");
    /* UTF-8 passes through as bytes */
    json_case("util-json-utf8", "\xc3\xa9\xe2\x82\xac", "[\"\xc3\xa9\xe2\x82\xac\"]");
}

/* The nearest of names to word, as lad_suggest gives it ("" for none). */
static const char *nearest(const char *word, const char *const *names)
{
    lad_suggest s;
    lad_suggest_init(&s, word);
    for (int i = 0; names[i]; i++)
        lad_suggest_add(&s, names[i]);
    const char *b = lad_suggest_best(&s);
    return b ? b : "";
}

static void suggest_case(const char *name, const char *word, const char *const *names,
                         const char *want)
{
    const char *got = nearest(word, names);
    test_check(strcmp(got, want) == 0, name, "'%s': expected '%s', got '%s'", word, want, got);
}

static void test_suggest(void)
{
    static const char *const cmds[] = {"run", "infer", "validate", "show", "history",
                                       "survey", "report", NULL};
    static const char *const rungs[] = {"instruction", "slice", "lanes", "truncation",
                                        "visible", "internal", "ulp", NULL};
    /* distances counted by hand: one deletion, one swap, one insertion */
    suggest_case("util-suggest-deletion", "infr", cmds, "infer");
    suggest_case("util-suggest-swap", "surevy", cmds, "survey");
    suggest_case("util-suggest-insertion", "histtory", cmds, "history");
    suggest_case("util-suggest-two-steps", "intrenl", rungs, "internal");
    /* too far: "bogus" is 5 steps from every rung; "xyz" 3 from "run" */
    suggest_case("util-suggest-none-far", "bogus", rungs, "");
    suggest_case("util-suggest-none-short", "xyz", cmds, "");
    /* an exact name is no suggestion */
    suggest_case("util-suggest-exact", "show", cmds, "");
    /* ties keep the first offered: "lanex" is one from "lanes" only */
    suggest_case("util-suggest-nearest", "lanex", rungs, "lanes");
}

void test_util(void)
{
    test_buf();
    test_json();
    test_suggest();
}
