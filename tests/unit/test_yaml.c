/*
** Tests of io/yaml.c: node places, the walker's limits and refusals, and
** the typed readers. Every expected place was counted by hand in the text.
*/
#include "test.h"
#include "io/yaml.h"

#include <stdlib.h>
#include <string.h>

/* Parses text; returns the code and leaves the message in err. */
static int parse(const char *text, lad_ydoc *doc, lad_err *err)
{
    lad_err_clear(err);
    return lad_yaml_parse("t.yaml", text, strlen(text), doc, err);
}

/* Parses text expecting failure with message msg. */
static void bad(const char *name, const char *text, const char *msg)
{
    lad_ydoc doc;
    lad_err err = {0};
    int rc = parse(text, &doc, &err);
    test_check(rc == LAD_EDATA && strcmp(err.msg, msg) == 0, name,
               "rc %d, message '%s', expected '%s'", rc, err.msg, msg);
    lad_yaml_free(&doc);
}

static void places(void)
{
    const char *text = "a: 1\nb:\n  - x\n  - {c: \"q\", d: [1, 2]}\n";
    lad_ydoc doc;
    lad_err err = {0};
    int rc = parse(text, &doc, &err);
    TEST_EQ_INT("yaml-parse-ok", LAD_OK, rc);
    if (rc)
        return;
    lad_ynode *root = doc.root;
    TEST_EQ_INT("yaml-root-map", LAD_YMAP, root->kind);
    TEST_EQ_INT("yaml-root-pairs", 2, root->n);
    lad_ynode *a = lad_ymap_get(root, "a");
    TEST_EQ_INT("yaml-a-line", 1, a->line);
    TEST_EQ_INT("yaml-a-col", 4, a->col);
    test_check(a->plain && strcmp(a->str, "1") == 0, "yaml-a-text", "'%s'", a->str);
    lad_ynode *b = lad_ymap_get(root, "b");
    TEST_EQ_INT("yaml-b-seq", LAD_YSEQ, b->kind);
    TEST_EQ_INT("yaml-b-items", 2, b->n);
    TEST_EQ_INT("yaml-b-line", 3, b->line);
    TEST_EQ_INT("yaml-b-col", 3, b->col);
    lad_ynode *m = b->kids[1];
    TEST_EQ_INT("yaml-flow-map-line", 4, m->line);
    TEST_EQ_INT("yaml-flow-map-col", 5, m->col);
    lad_ynode *c = lad_ymap_get(m, "c");
    test_check(!c->plain && strcmp(c->str, "q") == 0, "yaml-quoted", "plain %d", c->plain);
    TEST_EQ_INT("yaml-quoted-col", 9, c->col);
    lad_ynode *d = lad_ymap_get(m, "d");
    TEST_EQ_INT("yaml-flow-seq-col", 17, d->col);
    TEST_EQ_INT("yaml-flow-item-col", 21, d->kids[1]->col);
    TEST_EQ_INT("yaml-key-of-line", 4, lad_ymap_key_of(m, d)->line);
    TEST_EQ_INT("yaml-key-of-col", 14, lad_ymap_key_of(m, d)->col);
    test_check(lad_ymap_get(root, "zz") == NULL, "yaml-get-absent", "found");

    static const char *const allowed[] = {"a", NULL};
    rc = lad_ymap_check_keys(&doc, root, allowed, &err);
    test_check(rc == LAD_EDATA && strcmp(err.msg, "t.yaml:2:1: unknown key 'b'") == 0,
               "yaml-unknown-key", "'%s'", err.msg);
    lad_err_clear(&err);
    lad_ynode *v;
    rc = lad_ymap_need(&doc, m, "e", &v, &err);
    test_check(rc == LAD_EDATA && strcmp(err.msg, "t.yaml:4:5: missing key 'e'") == 0,
               "yaml-missing-key", "'%s'", err.msg);
    lad_yaml_free(&doc);
    lad_yaml_free(&doc); /* twice is harmless */
}

static void refusals(void)
{
    bad("yaml-anchor", "a: &x 1\n", "t.yaml:1:4: anchors are not allowed ('&x')");
    bad("yaml-alias", "a: 1\nb: *x\n", "t.yaml:2:4: aliases are not allowed ('*x')");
    bad("yaml-tag", "a: !!str 1\n", "t.yaml:1:4: tags are not allowed ('!!str')");
    bad("yaml-tag-local", "a: !x 1\n", "t.yaml:1:4: tags are not allowed ('!x')");
    bad("yaml-dup", "a: 1\nb: 2\na: 3\n", "t.yaml:3:1: duplicate key 'a'");
    bad("yaml-two-docs", "a: 1\n---\nb: 2\n",
        "t.yaml:2:1: more than one document in the file");
    bad("yaml-empty", "", "t.yaml:1:1: empty document");
    bad("yaml-comment-only", "# x\n", "t.yaml:1:1: empty document");
    bad("yaml-key-seq", "? [1]\n: 2\n", "t.yaml:1:3: mapping keys must be scalars");
    bad("yaml-nul", "a: \"x\\0y\"\n", "t.yaml:1:4: scalar contains a nul byte");
    bad("yaml-syntax", "a: [1\n", "t.yaml:2:1: syntax error: did not find "
        "expected ',' or ']' (while parsing a flow sequence at 1:4)");
    bad("yaml-utf8", "a: \xff\n", "t.yaml:1:4: invalid text: invalid leading UTF-8 octet (0xff)");

    /* Depth: 16 levels pass, 17 fail (the top mapping is level 1). */
    char deep[128];
    snprintf(deep, sizeof deep, "a: %s1%s\n", "[[[[[[[[[[[[[[[", "]]]]]]]]]]]]]]]");
    lad_ydoc doc;
    lad_err err = {0};
    TEST_EQ_INT("yaml-depth-16", LAD_OK, parse(deep, &doc, &err));
    lad_yaml_free(&doc);
    snprintf(deep, sizeof deep, "a: %s1%s\n", "[[[[[[[[[[[[[[[[", "]]]]]]]]]]]]]]]]");
    bad("yaml-depth-17", deep, "t.yaml:1:19: nesting deeper than 16 levels");

    /* Scalar length: 4096 bytes pass, 4097 fail. */
    char *big = malloc(5000);
    memcpy(big, "a: ", 3);
    memset(big + 3, 'x', 4096);
    strcpy(big + 3 + 4096, "\n");
    TEST_EQ_INT("yaml-scalar-4096", LAD_OK, parse(big, &doc, &err));
    lad_yaml_free(&doc);
    memset(big + 3, 'x', 4097);
    strcpy(big + 3 + 4097, "\n");
    bad("yaml-scalar-4097", big, "t.yaml:1:4: scalar longer than 4096 bytes");
    free(big);

    /* Nodes: a sequence of n items under one key is n + 3 nodes. */
    size_t n = 100000 - 3;
    char *seq = malloc(2 * n + 16);
    char *p = seq + sprintf(seq, "a: [");
    for (size_t i = 0; i < n; i++)
        p += sprintf(p, i ? ",0" : "0");
    strcpy(p, "]\n");
    TEST_EQ_INT("yaml-nodes-100000", LAD_OK, parse(seq, &doc, &err));
    TEST_EQ_INT("yaml-nodes-count", 100000, doc.count);
    lad_yaml_free(&doc);
    strcpy(p, ",0]\n");
    /* the extra item is at column 4 + 2*n (each "0," is two columns) */
    char msg[80];
    snprintf(msg, sizeof msg, "t.yaml:1:%zu: more than 100000 nodes", 5 + 2 * n);
    bad("yaml-nodes-100001", seq, msg);
    free(seq);

    /* Size: more than 1 MiB is refused before parsing. */
    size_t len = LAD_YAML_MAXSIZE + 1;
    char *huge = malloc(len);
    memset(huge, '#', len);
    lad_err_clear(&err);
    int rc = lad_yaml_parse("h.yaml", huge, len, &doc, &err);
    test_check(rc == LAD_EDATA && strcmp(err.msg, "'h.yaml' is larger than 1048576 bytes") == 0,
               "yaml-size-limit", "rc %d '%s'", rc, err.msg);
    free(huge);
    lad_err_clear(&err);
    rc = lad_yaml_load("/nonexistent/x.yaml", &doc, &err);
    test_check(rc == LAD_EDATA && strncmp(err.msg, "cannot open '/nonexistent/x.yaml'", 33) == 0,
               "yaml-load-missing", "rc %d '%s'", rc, err.msg);
}

static void readers(void)
{
    const char *text = "i: -42\nbig: 9223372036854775807\nover: 9223372036854775808\n"
                       "neg: -9223372036854775808\nq: \"7\"\nf: 1.5\nt: true\ny: yes\n"
                       "e: rne\nh: 0x7FC00000\nh2: 7fff\nh3: 0x12345678123456789\ns: hello\n"
                       "m: {x: 1}\nn:\n";
    lad_ydoc doc;
    lad_err err = {0};
    if (parse(text, &doc, &err) != LAD_OK) {
        test_check(0, "yaml-readers-parse", "%s", err.msg);
        return;
    }
    lad_ynode *r = doc.root;
    long long x = 0;
    int b = -1, e = -1;
    uint64_t h = 0;
    char s[8];
#define RD(name, call, want)                                                    \
    do {                                                                       \
        lad_err_clear(&err);                                                   \
        int rc_ = (call);                                                      \
        const char *m_ = (want);                                                \
        test_check(m_ ? rc_ == LAD_EDATA && strcmp(err.msg, m_) == 0 : rc_ == LAD_OK, \
                   name, "rc %d '%s'", rc_, err.msg);                          \
    } while (0)
    RD("yaml-int", lad_yint(&doc, lad_ymap_get(r, "i"), "i", -100, 100, &x, &err), NULL);
    TEST_EQ_INT("yaml-int-value", -42, x);
    RD("yaml-int-range", lad_yint(&doc, lad_ymap_get(r, "i"), "i", 0, 10, &x, &err),
       "t.yaml:1:4: 'i' must be in 0..10, not -42");
    RD("yaml-int-max", lad_yint(&doc, lad_ymap_get(r, "big"), "big", 0,
                                9223372036854775807LL, &x, &err), NULL);
    TEST_EQ_INT("yaml-int-max-value", 9223372036854775807LL, x);
    RD("yaml-int-overflow", lad_yint(&doc, lad_ymap_get(r, "over"), "over", 0,
                                     9223372036854775807LL, &x, &err),
       "t.yaml:3:7: 'over' must be in 0..9223372036854775807, not 9223372036854775808");
    RD("yaml-int-min", lad_yint(&doc, lad_ymap_get(r, "neg"), "neg",
                                -9223372036854775807LL - 1, 0, &x, &err), NULL);
    test_check(x == -9223372036854775807LL - 1, "yaml-int-min-value", "%lld", x);
    RD("yaml-int-quoted", lad_yint(&doc, lad_ymap_get(r, "q"), "q", 0, 10, &x, &err),
       "t.yaml:5:4: 'q' must be an integer, not a quoted string");
    RD("yaml-int-float", lad_yint(&doc, lad_ymap_get(r, "f"), "f", 0, 10, &x, &err),
       "t.yaml:6:4: 'f' must be an integer, not '1.5'");
    RD("yaml-int-map", lad_yint(&doc, lad_ymap_get(r, "m"), "m", 0, 10, &x, &err),
       "t.yaml:14:4: 'm' must be an integer, not a mapping");
    RD("yaml-int-null", lad_yint(&doc, lad_ymap_get(r, "n"), "n", 0, 10, &x, &err),
       "t.yaml:15:3: missing value for 'n'");
    RD("yaml-bool", lad_ybool(&doc, lad_ymap_get(r, "t"), "t", &b, &err), NULL);
    TEST_EQ_INT("yaml-bool-value", 1, b);
    RD("yaml-bool-yes", lad_ybool(&doc, lad_ymap_get(r, "y"), "y", &b, &err),
       "t.yaml:8:4: 'y' must be true or false, not 'yes'");
    static const char *const modes[] = {"rz", "rne", "ru", NULL};
    RD("yaml-enum", lad_yenum(&doc, lad_ymap_get(r, "e"), "e", modes, &e, &err), NULL);
    TEST_EQ_INT("yaml-enum-value", 1, e);
    RD("yaml-enum-bad", lad_yenum(&doc, lad_ymap_get(r, "t"), "t", modes, &e, &err),
       "t.yaml:7:4: 't' must be one of rz, rne, ru, not 'true'");
    RD("yaml-hex", lad_yhex64(&doc, lad_ymap_get(r, "h"), "h", &h, &err), NULL);
    TEST_EQ_U32("yaml-hex-value", 0x7fc00000, h);
    RD("yaml-hex-bare", lad_yhex64(&doc, lad_ymap_get(r, "h2"), "h2", &h, &err), NULL);
    TEST_EQ_U32("yaml-hex-bare-value", 0x7fff, h);
    RD("yaml-hex-long", lad_yhex64(&doc, lad_ymap_get(r, "h3"), "h3", &h, &err),
       "t.yaml:12:5: 'h3' must be a hex word of at most 16 digits, not '0x12345678123456789'");
    RD("yaml-str", lad_ystr(&doc, lad_ymap_get(r, "s"), "s", s, sizeof s, &err), NULL);
    test_check(strcmp(s, "hello") == 0, "yaml-str-value", "'%s'", s);
    RD("yaml-str-long", lad_ystr(&doc, lad_ymap_get(r, "s"), "s", s, 5, &err),
       "t.yaml:13:4: 's' must be at most 4 bytes long");
    RD("yaml-expect", lad_ynode_expect(&doc, lad_ymap_get(r, "s"), LAD_YSEQ, "s", &err),
       "t.yaml:13:4: 's' must be a sequence, not a scalar");
#undef RD
    lad_yaml_free(&doc);
}

/* A mapping "m" of n keys k00000.. (one per line from line 2, column 3),
** key `dup` (when >= 0) written again at index `at`. */
static char *many_keys(int n, int dup, int at)
{
    char *text = malloc((size_t)n * 16 + 16);
    if (text == NULL)
        return NULL;
    size_t len = (size_t)sprintf(text, "m:\n");
    for (int i = 0; i < n; i++)
        len += (size_t)sprintf(text + len, "  k%05d: %d\n", i == at ? dup : i, i % 10);
    return text;
}

/* Big mappings: the duplicate check must not compare every key with every
** other (49,000 keys took minutes so), and still names the second
** occurrence of a repeated key, deep in the file. */
static void big_mappings(void)
{
    enum { N = 49000 }; /* 98,002 nodes: under LAD_YAML_MAXNODES */
    char *text = many_keys(N, -1, -1);
    lad_ydoc doc;
    lad_err err = {0};
    int rc = text ? parse(text, &doc, &err) : LAD_EINTERNAL;
    TEST_EQ_INT("yaml-many-keys-ok", LAD_OK, rc);
    if (rc == LAD_OK) {
        const lad_ynode *m = lad_ymap_get(doc.root, "m");
        TEST_EQ_INT("yaml-many-keys-pairs", N, m ? m->n : -1);
        const lad_ynode *last = lad_ymap_get(m, "k48999");
        TEST_EQ_INT("yaml-many-keys-last-line", N + 1, last ? last->line : -1);
        lad_yaml_free(&doc);
    }
    free(text);
    text = many_keys(N, 17, 40000);
    if (text)
        bad("yaml-many-keys-duplicate", text, "t.yaml:40002:3: duplicate key 'k00017'");
    free(text);
    text = many_keys(N, 48998, N - 1);
    if (text)
        bad("yaml-many-keys-duplicate-last", text, "t.yaml:49001:3: duplicate key 'k48998'");
    free(text);
    bad("yaml-duplicate-prefix-differs", "ab: 1\na: 2\nabc: 3\na: 4\n", "t.yaml:4:1: duplicate key 'a'");
    bad("yaml-duplicate-nested", "x: {a: 1, b: {a: 2, a: 3}}\n", "t.yaml:1:21: duplicate key 'a'");
}

void test_yaml(void)
{
    places();
    refusals();
    readers();
    big_mappings();
}
