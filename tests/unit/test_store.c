/*
** Tests of the evidence store (db/store.c, util/sha256.c) through its public
** interface and through plain SQL on the file it writes, which is the other
** interface it promises (docs/queries/). The oracle for SHA-256 is the
** examples of FIPS 180-2; the oracle for the words is what was written.
**
** store-sigkill forks a child that writes cases in a loop, kills it with
** SIGKILL in the middle, and checks that the database opens, passes
** integrity_check and shows the run as interrupted.
*/
#include "test.h"
#include "util/sha256.h"
#include "db/store.h"

#include <signal.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char tmpdir[64];

/* A path in the test's scratch folder. */
static const char *tpath(const char *name)
{
    static char buf[4][160];
    static int i;
    i = (i + 1) % 4;
    snprintf(buf[i], sizeof buf[i], "%s/%s", tmpdir, name);
    return buf[i];
}

/* One integer from plain SQL on the file (a second connection), or -999. */
static long long sql_int(const char *path, const char *sql)
{
    sqlite3 *db;
    long long v = -999;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK) {
        sqlite3_stmt *s;
        if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) == SQLITE_OK) {
            if (sqlite3_step(s) == SQLITE_ROW)
                v = sqlite3_column_int64(s, 0);
            sqlite3_finalize(s);
        }
    }
    sqlite3_close(db);
    return v;
}

static uint32_t rng_state = 12345;
static uint32_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 17;
    rng_state ^= rng_state << 5;
    return rng_state;
}

static void test_sha256(void)
{
    static const struct {
        const char *msg, *hex;
    } v[] = {
        {"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
        {"abc",
         "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
        {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        char hex[65], name[64];
        lad_sha256_hex(v[i].msg, strlen(v[i].msg), hex);
        snprintf(name, sizeof name, "store-sha256-fips-%zu", i + 1);
        test_check(strcmp(hex, v[i].hex) == 0, name, "got %s", hex);
    }
    /* One million 'a' (FIPS 180-2 appendix B.3): many blocks. */
    char *a = malloc(1000000);
    memset(a, 'a', 1000000);
    char hex[65];
    lad_sha256_hex(a, 1000000, hex);
    free(a);
    test_check(strcmp(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e"
                           "046d39ccc7112cd0") == 0,
               "store-sha256-fips-million", "got %s", hex);
}

static void test_schema_embedded(void)
{
    FILE *f = fopen("db/schema.sql", "rb");
    if (f == NULL) {
        test_check(0, "store-schema-embedded", "cannot open 'db/schema.sql'");
        return;
    }
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    size_t i = 0;
    while (buf[i] && buf[i] == lad_schema_sql[i])
        i++;
    int line = 1;
    for (size_t j = 0; j < i; j++)
        line += buf[j] == '\n';
    test_check(buf[i] == lad_schema_sql[i], "store-schema-embedded",
               "db/schema.c differs from db/schema.sql at line %d; run "
               "'sh db/schema.sh > db/schema.c'",
               line);
}

/* A datapath and device described by hand (the store needs only names). */
static lad_run_datapath make_dp(const char *name, const char *instr,
                                const char *ab, const char *d)
{
    return (lad_run_datapath){.name = name, .arch = "sm_90a", .instr = instr,
                              .shape = "m16n8k16", .sass = "HMMA.16816.F32",
                              .fmt_a = ab, .fmt_b = ab, .fmt_c = d, .fmt_d = d};
}

static lad_run_device make_dev(const char *name, int cc)
{
    return (lad_run_device){.kind = "cuda", .name = name, .uuid = "GPU-1234",
                            .cc = cc, .driver = "580.65", .toolkit = "13.0",
                            .sass = "HMMA.16816.F32"};
}

static void test_create(void)
{
    const char *p = tpath("create.db");
    lad_store *st;
    lad_err err = {0};
    int code = lad_store_open(p, 0, &st, &err);
    test_check(code == LAD_EDATA && strstr(err.msg, "cannot open"),
               "store-open-missing", "code %d: %s", code, err.msg);
    lad_err_clear(&err);
    code = lad_store_open(p, LAD_STORE_CREATE, &st, &err);
    TEST_EQ_INT("store-create", LAD_OK, code);
    if (code)
        return;
    lad_store_close(st);
    TEST_EQ_INT("store-create-application-id", LAD_STORE_APP_ID,
                sql_int(p, "PRAGMA application_id"));
    TEST_EQ_INT("store-create-user-version", LAD_STORE_VERSION,
                sql_int(p, "PRAGMA user_version"));
    TEST_EQ_INT("store-create-tables", 12,
                sql_int(p, "SELECT count(*) FROM sqlite_master WHERE type = "
                           "'table' AND name IN ('devices', 'builds', "
                           "'recipes', 'runs', 'rungs', 'cases', "
                           "'observations', 'observation_cases', "
                           "'inferences', 'inference_cases', "
                           "'validations', 'mismatches')"));
    TEST_EQ_INT("store-create-strict", 0,
                sql_int(p, "SELECT count(*) FROM pragma_table_list WHERE "
                           "type = 'table' AND strict = 0 AND name NOT LIKE "
                           "'sqlite_%' AND schema = 'main'"));
    TEST_EQ_INT("store-create-view", 1,
                sql_int(p, "SELECT count(*) FROM sqlite_master WHERE type = "
                           "'view' AND name = 'case_words'"));
    TEST_EQ_INT("store-create-wal", 1,
                sql_int(p, "SELECT journal_mode = 'wal' FROM "
                           "pragma_journal_mode"));
    /* Reopening an existing store changes nothing. */
    code = lad_store_open(p, 0, &st, &err);
    TEST_EQ_INT("store-reopen", LAD_OK, code);
    lad_store_close(st);
    code = lad_store_open(p, LAD_STORE_READONLY, &st, &err);
    TEST_EQ_INT("store-reopen-readonly", LAD_OK, code);
    lad_store_close(st);
}

static void test_not_ladder(void)
{
    lad_store *st;
    lad_err err = {0};
    const char *p = tpath("text.db");
    FILE *f = fopen(p, "w");
    fputs("this is not a database, it is a recipe\nrungs: []\n", f);
    fclose(f);
    int code = lad_store_open(p, LAD_STORE_CREATE, &st, &err);
    char want[256];
    snprintf(want, sizeof want, "'%s' is not a ladder database", p);
    test_check(code == LAD_EDATA && strcmp(err.msg, want) == 0,
               "store-not-ladder-text", "code %d: %s", code, err.msg);

    /* A SQLite database of another program. */
    p = tpath("other.db");
    sqlite3 *db;
    sqlite3_open(p, &db);
    sqlite3_exec(db, "CREATE TABLE t (x); PRAGMA application_id = 7", NULL,
                 NULL, NULL);
    sqlite3_close(db);
    lad_err_clear(&err);
    code = lad_store_open(p, LAD_STORE_CREATE, &st, &err);
    snprintf(want, sizeof want, "'%s' is not a ladder database", p);
    test_check(code == LAD_EDATA && strcmp(err.msg, want) == 0,
               "store-not-ladder-other-app", "code %d: %s", code, err.msg);
    TEST_EQ_INT("store-not-ladder-untouched", 1,
                sql_int(p, "SELECT count(*) FROM sqlite_master"));

    /* Tables but no application id: not ours either. */
    p = tpath("noid.db");
    sqlite3_open(p, &db);
    sqlite3_exec(db, "CREATE TABLE runs (x)", NULL, NULL, NULL);
    sqlite3_close(db);
    lad_err_clear(&err);
    code = lad_store_open(p, 0, &st, &err);
    test_check(code == LAD_EDATA && strstr(err.msg, "is not a ladder"),
               "store-not-ladder-no-id", "code %d: %s", code, err.msg);

    /* A newer schema. */
    p = tpath("newer.db");
    lad_err_clear(&err);
    if (lad_store_open(p, LAD_STORE_CREATE, &st, &err) == LAD_OK)
        lad_store_close(st);
    sqlite3_open(p, &db);
    sqlite3_exec(db, "PRAGMA user_version = 99", NULL, NULL, NULL);
    sqlite3_close(db);
    code = lad_store_open(p, 0, &st, &err);
    test_check(code == LAD_EDATA && strstr(err.msg, "newer"),
               "store-newer-version", "code %d: %s", code, err.msg);
}

/* Fills n random cases of k lanes; the words that matter most for a store
** that must never go through a double are among them. */
static void random_cases(lad_case_data *cs, uint64_t *d, int n, int k)
{
    static const uint32_t edge[] = {0xffffffffu, 0x7fc00000u, 0x7fffffffu,
                                    0x80000000u, 0xff800001u, 0};
    memset(cs, 0, (size_t)n * sizeof *cs);
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < k; j++) {
            cs[i].a[j] = rnd() % 3 ? rnd() : edge[rnd() % 6];
            cs[i].b[j] = rnd() % 3 ? rnd() : edge[rnd() % 6];
        }
        cs[i].c = edge[i % 6];
        for (int j = 0; j < 2; j++) {
            cs[i].sa[j] = (uint8_t)rnd();
            cs[i].sb[j] = (uint8_t)rnd();
        }
        cs[i].meta[0] = rnd();
        d[i] = i % 2 ? 0x7fffffffu : rnd();
    }
}

static void test_words(void)
{
    const char *p = tpath("words.db");
    lad_store *st;
    lad_err err = {0};
    if (lad_store_open(p, LAD_STORE_CREATE, &st, &err)) {
        test_check(0, "store-words-open", "%s", err.msg);
        return;
    }
    lad_run_datapath dp = make_dp("sm90-mma-f16-f32", "mma.sync", "f16", "f32");
    lad_run_device di = make_dev("NVIDIA H100 80GB HBM3", 90);
    char *argv[] = {"ladder", "run", "recipe \"x\".yaml", NULL};
    const char recipe[] = "datapath: sm90-mma-f16-f32\n";
    lad_run_info info = {.command = "run", .argc = 3, .argv = argv,
                         .device = &di, .dp = &dp, .version = "0.1.0",
                         .commit = "abc123", .dirty = 1,
                         .recipe_path = "recipes/x.yaml",
                         .recipe_text = recipe,
                         .recipe_len = sizeof recipe - 1};
    int64_t run = 0;
    int code = lad_store_begin_run(st, &info, &run, &err);
    TEST_EQ_INT("store-begin-run", LAD_OK, code);

    enum { N = 300, K = 32 };
    lad_case_data *cs = malloc(N * sizeof *cs);
    uint64_t d[N];
    int64_t ids[N];
    lad_case_tag tags[N];
    random_cases(cs, d, N, K);
    memset(tags, 0, sizeof tags);
    tags[7].label = "j=7 \"quoted\"";
    /* Evidence of both extremes of vary; case 9 has a series but no vary. */
    tags[8] = (lad_case_tag){"a code 0xff", "a-code", "a", 1, 0xffffffffll};
    tags[9] = (lad_case_tag){"c alone", "c-alone", "c window", 0, 0};
    tags[10] = (lad_case_tag){"j=-3", "j", "d", 1, INT64_MIN};
    code = lad_store_add_cases(st, run, "visible", cs, d, tags, N, K, 2, 1,
                               ids, &err);
    TEST_EQ_INT("store-add-cases", LAD_OK, code);
    int increasing = 1;
    for (int i = 1; i < N; i++)
        increasing &= ids[i] > ids[i - 1];
    test_check(increasing, "store-add-cases-ids", "ids not increasing");

    lad_case_row *rows = NULL;
    size_t nrows = 0;
    code = lad_store_cases(st, run, "visible", &rows, &nrows, &err);
    TEST_EQ_INT("store-cases-read", LAD_OK, code);
    TEST_EQ_INT("store-cases-count", N, nrows);
    int same = nrows == N;
    for (size_t i = 0; same && i < nrows; i++) {
        same &= rows[i].id == ids[i] && rows[i].k == K &&
                rows[i].nscale == 2 && rows[i].nmeta == 1 &&
                rows[i].d == d[i] && rows[i].cs.c == cs[i].c &&
                memcmp(rows[i].cs.a, cs[i].a, sizeof cs[i].a) == 0 &&
                memcmp(rows[i].cs.b, cs[i].b, sizeof cs[i].b) == 0 &&
                memcmp(rows[i].cs.sa, cs[i].sa, 2) == 0 &&
                memcmp(rows[i].cs.sb, cs[i].sb, 2) == 0 &&
                rows[i].cs.meta[0] == cs[i].meta[0];
    }
    test_check(same, "store-words-roundtrip", "words read back differ");
    test_check(nrows > 7 && strcmp(rows[7].label, "j=7 \"quoted\"") == 0,
               "store-label", "label '%s'", nrows > 7 ? rows[7].label : "");
    test_check(nrows > 10 && !strcmp(rows[8].series, "a-code") &&
                   !strcmp(rows[8].target, "a") && rows[8].has_vary &&
                   rows[8].vary == 0xffffffffll && !strcmp(rows[9].target, "c window") &&
                   !rows[9].has_vary && rows[10].has_vary && rows[10].vary == INT64_MIN,
               "store-case-evidence", "series, target or vary read back differ");
    test_check(nrows > 7 && !rows[7].series[0] && !rows[7].target[0] && !rows[7].has_vary,
               "store-case-evidence-none", "an untagged case reads back '%s' '%s'",
               nrows > 7 ? rows[7].series : "", nrows > 7 ? rows[7].target : "");
    free(rows);
    TEST_EQ_INT("store-case-evidence-null", N - 3,
                sql_int(p, "SELECT count(*) FROM cases WHERE series IS NULL AND "
                           "target IS NULL AND vary IS NULL"));

    /* Plain SQL sees the same words, as integers. */
    char sql[256];
    long long bad = 0;
    for (int i = 0; i < N; i += 37) {
        for (int j = 0; j < K; j += 5) {
            snprintf(sql, sizeof sql,
                     "SELECT word FROM case_words WHERE case_id = %lld AND "
                     "operand = 'a' AND k = %d",
                     (long long)ids[i], j);
            bad += sql_int(p, sql) != (long long)cs[i].a[j];
            snprintf(sql, sizeof sql,
                     "SELECT word FROM case_words WHERE case_id = %lld AND "
                     "operand = 'b' AND k = %d",
                     (long long)ids[i], j);
            bad += sql_int(p, sql) != (long long)cs[i].b[j];
        }
        snprintf(sql, sizeof sql, "SELECT d FROM cases WHERE id = %lld",
                 (long long)ids[i]);
        bad += sql_int(p, sql) != (long long)d[i];
    }
    TEST_EQ_INT("store-words-plain-sql", 0, bad);
    TEST_EQ_INT("store-words-integer-type", 0,
                sql_int(p, "SELECT count(*) FROM case_words WHERE "
                           "typeof(word) <> 'integer'"));
    TEST_EQ_INT("store-words-view-rows", 2 * N * K,
                sql_int(p, "SELECT count(*) FROM case_words"));
    TEST_EQ_INT("store-words-nan-d", N / 2,
                sql_int(p, "SELECT count(*) FROM cases WHERE d = 2147483647 "
                           "AND typeof(d) = 'integer'"));

    /* What the run row records. */
    char hex[65];
    lad_sha256_hex(recipe, sizeof recipe - 1, hex);
    lad_run_row r;
    code = lad_store_run(st, run, &r, &err);
    test_check(code == LAD_OK && r.status == LAD_RUN_RUNNING &&
                   strcmp(r.recipe_sha256, hex) == 0 &&
                   strcmp(r.device, di.name) == 0 && r.cc == 90 &&
                   strcmp(r.commit, "abc123") == 0 && r.dirty == 1 &&
                   strcmp(r.fmt_a, "f16") == 0 && strcmp(r.fmt_d, "f32") == 0 &&
                   strcmp(r.sass, "HMMA.16816.F32") == 0 && r.ncases == N &&
                   r.pid == (int64_t)getpid(),
               "store-run-row", "code %d, status %d, sha %s", code, r.status,
               r.recipe_sha256);
    test_check(strcmp(r.argv, "[\"ladder\",\"run\",\"recipe \\\"x\\\".yaml\"]") ==
                   0,
               "store-run-argv-json", "argv %s", r.argv);
    TEST_EQ_INT("store-run-argv-sql", 3,
                sql_int(p, "SELECT json_array_length(argv) FROM runs"));

    code = lad_store_end_run(st, run, LAD_RUN_OK, NULL, &err);
    lad_store_run(st, run, &r, &err);
    test_check(code == LAD_OK && r.status == LAD_RUN_OK && r.ended >= r.started &&
                   r.ended > 0,
               "store-end-run", "code %d status %d", code, r.status);

    /* The same recipe and device in a second run are not stored twice. */
    int64_t run2;
    code = lad_store_begin_run(st, &info, &run2, &err);
    TEST_EQ_INT("store-dedup-recipes", 1,
                sql_int(p, "SELECT count(*) FROM recipes"));
    TEST_EQ_INT("store-dedup-devices", 1,
                sql_int(p, "SELECT count(*) FROM devices"));
    lad_store_end_run(st, run2, LAD_RUN_FAILED, "device lost", &err);
    lad_store_run(st, run2, &r, &err);
    test_check(r.status == LAD_RUN_FAILED &&
                   strcmp(r.message, "device lost") == 0,
               "store-end-run-failed", "status %d message '%s'", r.status,
               r.message);

    /* A command line longer than lad_run_row.argv still reads as a JSON
    ** array, of the arguments that fit and "...". */
    char *many[400];
    char arg[400][24];
    for (int i = 0; i < 400; i++) {
        snprintf(arg[i], sizeof arg[i], "argument-\"%d\"", i);
        many[i] = arg[i];
    }
    lad_run_info longinfo = {.command = "run", .argc = 400, .argv = many};
    int64_t run3;
    lad_store_begin_run(st, &longinfo, &run3, &err);
    lad_store_run(st, run3, &r, &err);
    sqlite3 *mem;
    sqlite3_open(":memory:", &mem);
    sqlite3_stmt *js;
    sqlite3_prepare_v2(mem, "SELECT json_valid(?1), json_array_length(?1), "
                            "?1 ->> '$[#-1]', ?1 ->> '$[2]'",
                       -1, &js, NULL);
    sqlite3_bind_text(js, 1, r.argv, -1, SQLITE_STATIC);
    int valid = sqlite3_step(js) == SQLITE_ROW && sqlite3_column_int(js, 0);
    int len = sqlite3_column_int(js, 1);
    const char *last = (const char *)sqlite3_column_text(js, 2);
    const char *third = (const char *)sqlite3_column_text(js, 3);
    test_check(valid && len > 10 && len < 400 && last &&
                   strcmp(last, "...") == 0 && third &&
                   strcmp(third, "argument-\"2\"") == 0,
               "store-run-argv-long", "valid %d len %d", valid, len);
    sqlite3_finalize(js);
    sqlite3_close(mem);
    TEST_EQ_INT("store-run-argv-long-stored", 400,
                sql_int(p, "SELECT json_array_length(argv) FROM runs "
                           "ORDER BY id DESC LIMIT 1"));
    lad_store_end_run(st, run3, LAD_RUN_OK, NULL, &err);

    /* A bad shape is refused before anything is written. */
    lad_err_clear(&err);
    code = lad_store_add_cases(st, run, "visible", cs, d, NULL, 1,
                               LAD_STORE_KMAX + 1, 0, 0, NULL, &err);
    TEST_EQ_INT("store-add-cases-bad-shape", LAD_EINTERNAL, code);
    free(cs);
    lad_store_close(st);
}

static void test_batches(void)
{
    const char *p = tpath("batch.db");
    lad_store *st;
    lad_err err = {0};
    if (lad_store_open(p, LAD_STORE_CREATE, &st, &err)) {
        test_check(0, "store-batch-open", "%s", err.msg);
        return;
    }
    int64_t run;
    lad_store_begin_run(st, NULL, &run, &err);
    /* A full run's worth at the widest K: more than two transactions. */
    enum { N = 10000 };
    lad_case_data *cs = malloc(N * sizeof *cs);
    uint64_t *d = malloc(N * sizeof *d);
    int64_t *ids = malloc(N * sizeof *ids);
    random_cases(cs, d, N, LAD_STORE_KMAX);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int code = lad_store_add_cases(st, run, "wide", cs, d, NULL, N, LAD_STORE_KMAX,
                                   0, 0, ids, &err);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double s = (double)(t1.tv_sec - t0.tv_sec) +
               (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    test_check(code == LAD_OK, "store-batch-10000", "code %d: %s", code,
               err.msg);
    TEST_EQ_INT("store-batch-consecutive", N - 1, ids[N - 1] - ids[0]);
    printf("     store: %d cases of K=%d in %.2f s (%.0f cases/s)\n", N,
           LAD_STORE_KMAX, s, N / s);
    lad_store_close(st);
    TEST_EQ_INT("store-batch-count", N,
                sql_int(p, "SELECT count(*) FROM cases"));
    free(cs);
    free(d);
    free(ids);
}

static void test_evidence(void)
{
    const char *p = tpath("evidence.db");
    lad_store *st;
    lad_err err = {0};
    if (lad_store_open(p, LAD_STORE_CREATE, &st, &err)) {
        test_check(0, "store-evidence-open", "%s", err.msg);
        return;
    }
    lad_run_datapath dp = make_dp("sm90-mma-f16-f32", "mma.sync", "f16", "f32");
    lad_run_info info = {.command = "run", .dp = &dp, .dirty = -1};
    int64_t run;
    lad_store_begin_run(st, &info, &run, &err);
    lad_case_data cs[4];
    uint64_t d[4];
    int64_t ids[4];
    random_cases(cs, d, 4, 16);
    lad_store_add_cases(st, run, "visible", cs, d, NULL, 3, 16, 0, 0, ids,
                        &err);
    lad_store_add_cases(st, run, "window", cs + 3, d + 3, NULL, 1, 16, 0, 0,
                        ids + 3, &err);
    int code = lad_store_observe(st, run, "visible", "last_j", "23", ids + 1,
                                 2, &err);
    TEST_EQ_INT("store-observe", LAD_OK, code);
    code = lad_store_observe(st, run, "summary", "note", "no cases", NULL, 0,
                             &err);
    TEST_EQ_INT("store-observe-no-cases", LAD_OK, code);
    int64_t inf;
    code = lad_store_add_inference(st, run, "window", "25", "last visible j",
                                   ids, 4, &inf, &err);
    TEST_EQ_INT("store-inference", LAD_OK, code);

    /* A link to a case that does not exist is refused, and nothing of the
    ** inference stays behind. */
    int64_t ghost = ids[3] + 1000;
    code = lad_store_add_inference(st, run, "pass", "16", "x", &ghost, 1,
                                   NULL, &err);
    test_check(code == LAD_EINTERNAL && strstr(err.msg, "FOREIGN KEY"),
               "store-inference-fk", "code %d: %s", code, err.msg);
    lad_err_clear(&err);
    TEST_EQ_INT("store-inference-fk-rollback", 1,
                sql_int(p, "SELECT count(*) FROM inferences"));

    int64_t vid;
    code = lad_store_begin_validation(st, run, "sm90-mma-f16-f32", "random",
                                      0xfedcba9876543210ull, 1000000, 16, 0, 0,
                                      &vid, &err);
    uint64_t exp[2] = {0x3f800000u, 0xffffffffu}, got[2] = {0x3f800001u, 0};
    uint64_t idx[2] = {17, 900001};
    if (code == LAD_OK)
        code = lad_store_add_mismatches(st, vid, cs, exp, got, idx, 2, &err);
    if (code == LAD_OK)
        code = lad_store_end_validation(st, vid, 1000000, 5, 0, NULL, &err);
    TEST_EQ_INT("store-validation", LAD_OK, code);

    lad_show sh;
    code = lad_store_show(st, run, &sh, &err);
    TEST_EQ_INT("store-show", LAD_OK, code);
    test_check(sh.nrungs == 3 && strcmp(sh.rungs[0].name, "visible") == 0 &&
                   sh.rungs[0].ncases == 3 && sh.rungs[0].first_case == ids[0] &&
                   sh.rungs[0].last_case == ids[2] &&
                   strcmp(sh.rungs[1].name, "window") == 0 &&
                   sh.rungs[1].ncases == 1 &&
                   strcmp(sh.rungs[2].name, "summary") == 0 &&
                   sh.rungs[2].ncases == 0,
               "store-show-rungs", "%zu rungs", sh.nrungs);
    test_check(sh.nobs == 2 && strcmp(sh.obs[0].key, "last_j") == 0 &&
                   strcmp(sh.obs[0].value, "23") == 0 &&
                   sh.obs[0].ncases == 2 && sh.obs[0].cases[0] == ids[1] &&
                   sh.obs[0].cases[1] == ids[2] && sh.obs[1].ncases == 0,
               "store-show-observations", "%zu observations", sh.nobs);
    test_check(sh.ninf == 1 && strcmp(sh.inf[0].parameter, "window") == 0 &&
                   sh.inf[0].ncases == 4 && sh.inf[0].cases[3] == ids[3],
               "store-show-inferences", "%zu inferences", sh.ninf);
    test_check(sh.nval == 1 && sh.val[0].cases == 1000000 &&
                   sh.val[0].mismatches == 5 && sh.val[0].stored == 2 &&
                   sh.val[0].seed == 0xfedcba9876543210ull,
               "store-show-validations", "%zu validations", sh.nval);
    lad_show_free(&sh);
    TEST_EQ_INT("store-mismatch-words", 0xffffffffLL,
                sql_int(p, "SELECT expected FROM mismatches WHERE seq = "
                           "900001"));
    TEST_EQ_INT("store-inference-links", 4,
                sql_int(p, "SELECT count(*) FROM inference_cases JOIN cases "
                           "ON cases.id = case_id"));

    code = lad_store_clear_inferences(st, run, &err);
    TEST_EQ_INT("store-clear-inferences", 0,
                sql_int(p, "SELECT count(*) FROM inferences") +
                    sql_int(p, "SELECT count(*) FROM inference_cases"));
    lad_store_end_run(st, run, LAD_RUN_OK, NULL, &err);
    lad_store_close(st);
}

static void test_history(void)
{
    const char *p = tpath("history.db");
    lad_store *st;
    lad_err err = {0};
    if (lad_store_open(p, LAD_STORE_CREATE, &st, &err)) {
        test_check(0, "store-history-open", "%s", err.msg);
        return;
    }
    int64_t id;
    int code = lad_store_resolve_run(st, "latest", &id, &err);
    TEST_EQ_INT("store-resolve-empty", LAD_EUSAGE, code);

    lad_run_datapath d1 = make_dp("sm90-mma-f16-f32", "mma.sync", "f16", "f32");
    lad_run_datapath d2 = make_dp("sm100-tcgen05-e4m3-f32", "tcgen05.mma", "e4m3",
                              "f32");
    lad_run_device g1 = make_dev("NVIDIA H100 80GB HBM3", 90);
    lad_run_device g2 = make_dev("NVIDIA B200", 100);
    lad_run_info i1 = {.command = "run", .dp = &d1, .device = &g1};
    lad_run_info i2 = {.command = "run", .dp = &d2, .device = &g2};
    int64_t r1, r2, r3;
    lad_store_begin_run(st, &i1, &r1, &err);
    lad_store_begin_run(st, &i2, &r2, &err);
    lad_store_begin_run(st, &i1, &r3, &err);
    lad_store_end_run(st, r1, LAD_RUN_OK, NULL, &err);
    lad_store_end_run(st, r2, LAD_RUN_OK, NULL, &err);
    lad_store_end_run(st, r3, LAD_RUN_OK, NULL, &err);

    lad_err_clear(&err);
    code = lad_store_resolve_run(st, "latest", &id, &err);
    test_check(code == LAD_OK && id == r3, "store-resolve-latest",
               "code %d id %lld", code, (long long)id);
    char spec[32];
    snprintf(spec, sizeof spec, "%lld", (long long)r2);
    code = lad_store_resolve_run(st, spec, &id, &err);
    test_check(code == LAD_OK && id == r2, "store-resolve-id", "code %d",
               code);
    code = lad_store_resolve_run(st, "99", &id, &err);
    TEST_EQ_INT("store-resolve-missing", LAD_EUSAGE, code);
    lad_err_clear(&err);
    code = lad_store_resolve_run(st, "last", &id, &err);
    TEST_EQ_INT("store-resolve-bad", LAD_EUSAGE, code);
    lad_err_clear(&err);
    code = lad_store_resolve_run(st, "run:lates", &id, &err);
    test_check(code == LAD_EUSAGE && strstr(err.msg, "did you mean 'run:latest'?") != NULL,
               "store-resolve-near-latest", "code %d, '%s'", code, err.msg);
    lad_err_clear(&err);
    code = lad_store_resolve_run(st, "", &id, &err);
    TEST_EQ_INT("store-resolve-empty-spec", LAD_EUSAGE, code);
    lad_err_clear(&err);

    lad_run_row *rows;
    size_t n;
    code = lad_store_history(st, NULL, &rows, &n, &err);
    test_check(code == LAD_OK && n == 3 && rows[0].id == r3 &&
                   rows[2].id == r1,
               "store-history-all", "code %d n %zu", code, n);
    free(rows);
    lad_history_filter f = {.gpu = "b200"};
    lad_store_history(st, &f, &rows, &n, &err);
    test_check(n == 1 && rows[0].id == r2, "store-history-gpu", "n %zu", n);
    free(rows);
    f = (lad_history_filter){.format = "F16"};
    lad_store_history(st, &f, &rows, &n, &err);
    test_check(n == 2 && rows[0].id == r3 && rows[1].id == r1,
               "store-history-format", "n %zu", n);
    free(rows);
    f = (lad_history_filter){.instruction = "tcgen05.mma"};
    lad_store_history(st, &f, &rows, &n, &err);
    test_check(n == 1 && rows[0].id == r2, "store-history-instruction",
               "n %zu", n);
    free(rows);
    f = (lad_history_filter){.gpu = "H100", .limit = 1};
    lad_store_history(st, &f, &rows, &n, &err);
    test_check(n == 1 && rows[0].id == r3, "store-history-limit", "n %zu",
               n);
    free(rows);
    f = (lad_history_filter){.gpu = "H100", .format = "e4m3"};
    lad_store_history(st, &f, &rows, &n, &err);
    test_check(n == 0 && rows == NULL, "store-history-none", "n %zu", n);
    free(rows);
    lad_store_close(st);
}

/* The child of store-sigkill: writes cases until killed. Says "1" on fd
** once the first batch is committed. Never returns. */
static void writer_child(const char *p, int fd)
{
    lad_store *st;
    lad_err err = {0};
    if (lad_store_open(p, LAD_STORE_CREATE, &st, &err))
        _exit(2);
    int64_t run;
    lad_run_info info = {.command = "run"};
    if (lad_store_begin_run(st, &info, &run, &err))
        _exit(3);
    static lad_case_data cs[512];
    static uint64_t d[512];
    random_cases(cs, d, 512, 64);
    for (int i = 0;; i++) {
        if (lad_store_add_cases(st, run, "loop", cs, d, NULL, 512, 64, 0, 0,
                                NULL, &err))
            _exit(4);
        if (i == 0 && write(fd, "1", 1) != 1)
            _exit(5);
    }
}

static void test_sigkill(void)
{
    const char *p = tpath("killed.db");
    int fds[2];
    if (pipe(fds) != 0) {
        test_check(0, "store-sigkill", "pipe failed");
        return;
    }
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        writer_child(p, fds[1]);
    }
    close(fds[1]);
    char c = 0;
    ssize_t got = read(fds[0], &c, 1);
    close(fds[0]);
    /* Let it get well into later batches, in the middle of one. */
    struct timespec pause = {0, 150 * 1000 * 1000};
    nanosleep(&pause, NULL);
    kill(pid, SIGKILL);
    int status = 0;
    waitpid(pid, &status, 0);
    test_check(got == 1 && WIFSIGNALED(status) &&
                   WTERMSIG(status) == SIGKILL,
               "store-sigkill-child", "child status %d", status);

    /* Before anyone reopens it for writing, the raw row says running but a
    ** reader already sees the run as interrupted. */
    TEST_EQ_INT("store-sigkill-raw-running", 1,
                sql_int(p, "SELECT count(*) FROM runs WHERE status = "
                           "'running'"));
    lad_store *st;
    lad_err err = {0};
    int code = lad_store_open(p, LAD_STORE_READONLY, &st, &err);
    lad_run_row *rows = NULL;
    size_t n = 0;
    if (code == LAD_OK)
        code = lad_store_history(st, NULL, &rows, &n, &err);
    test_check(code == LAD_OK && n == 1 &&
                   rows[0].status == LAD_RUN_INTERRUPTED,
               "store-sigkill-readonly-view", "code %d n %zu: %s", code, n,
               err.msg);
    free(rows);
    lad_store_close(st);

    code = lad_store_open(p, 0, &st, &err);
    test_check(code == LAD_OK && lad_store_marked(st) == 1,
               "store-sigkill-reopen", "code %d: %s", code, err.msg);
    if (code)
        return;
    lad_store_close(st);
    TEST_EQ_INT("store-sigkill-marked", 1,
                sql_int(p, "SELECT count(*) FROM runs WHERE status = "
                           "'interrupted'"));
    long long ncases = sql_int(p, "SELECT count(*) FROM cases");
    test_check(ncases >= 512 && ncases % 512 == 0, "store-sigkill-whole-batches",
               "%lld cases", ncases);
    TEST_EQ_INT("store-sigkill-integrity", 1,
                sql_int(p, "SELECT integrity_check = 'ok' FROM "
                           "pragma_integrity_check"));
    TEST_EQ_INT("store-sigkill-foreign-keys", 0,
                sql_int(p, "SELECT count(*) FROM pragma_foreign_key_check"));
}

/* A run whose process is alive (this one) is never marked. */
static void test_alive(void)
{
    const char *p = tpath("alive.db");
    lad_store *a, *b;
    lad_err err = {0};
    if (lad_store_open(p, LAD_STORE_CREATE, &a, &err))
        return;
    int64_t run;
    lad_store_begin_run(a, NULL, &run, &err);
    int code = lad_store_open(p, 0, &b, &err);
    test_check(code == LAD_OK && lad_store_marked(b) == 0,
               "store-alive-not-marked", "code %d", code);
    lad_run_row r;
    lad_store_run(b, run, &r, &err);
    TEST_EQ_INT("store-alive-running", LAD_RUN_RUNNING, r.status);
    lad_store_close(b);
    lad_store_close(a);
}

/* 64-bit words (f64): stored as the int64 with the same bits, so a word of
** 2^63 or more is a negative integer in SQL and reads back as the same
** 64 bits; the JSON arrays stay valid and the case_words view still reads
** them as integers. */
static void test_words64(void)
{
    const char *p = tpath("words64.db");
    lad_store *st;
    lad_err err = {0};
    if (lad_store_open(p, LAD_STORE_CREATE, &st, &err)) {
        test_check(0, "store-words64-open", "%s", err.msg);
        return;
    }
    lad_run_datapath dp = make_dp("sm80-mma-f64-f64", "mma.sync", "f64", "f64");
    lad_run_info info = {.command = "run", .dp = &dp, .dirty = -1};
    int64_t run = 0, ids[2];
    lad_store_begin_run(st, &info, &run, &err);
    lad_case_data cs[2];
    memset(cs, 0, sizeof cs);
    cs[0].a[0] = 0xbff0000000000000u;  /* -1.0 */
    cs[0].a[1] = 0x8000000000000000u;  /* -0.0, the int64 minimum */
    cs[0].b[0] = 0x3ff0000000000000u;  /* 1.0 */
    cs[0].b[1] = 0xffffffffffffffffu;  /* a NaN, -1 as an int64 */
    cs[0].c = 0x8000000000000001u;
    cs[1].a[0] = 0x7fffffffffffffffu;  /* the int64 maximum */
    cs[1].c = 0xfff8000000000000u;
    uint64_t d[2] = {0xc000000000000000u, 0x7ff8000000000000u};
    int code = lad_store_add_cases(st, run, "random", cs, d, NULL, 2, 4, 0, 0,
                                   ids, &err);
    TEST_EQ_INT("store-words64-add", LAD_OK, code);
    lad_case_row *rows = NULL;
    size_t nrows = 0;
    code = lad_store_cases(st, run, "random", &rows, &nrows, &err);
    int same = code == LAD_OK && nrows == 2;
    for (size_t i = 0; same && i < nrows; i++)
        same &= rows[i].d == d[i] && rows[i].cs.c == cs[i].c &&
                memcmp(rows[i].cs.a, cs[i].a, 4 * sizeof cs[i].a[0]) == 0 &&
                memcmp(rows[i].cs.b, cs[i].b, 4 * sizeof cs[i].b[0]) == 0;
    test_check(same, "store-words64-roundtrip", "code %d, %zu rows: words read back differ",
               code, nrows);
    free(rows);
    char sql[160];
    snprintf(sql, sizeof sql, "SELECT word FROM case_words WHERE case_id = %lld AND "
             "operand = 'a' AND k = 0", (long long)ids[0]);
    TEST_EQ_INT("store-words64-view-negative", (long long)(int64_t)0xbff0000000000000u,
                sql_int(p, sql));
    snprintf(sql, sizeof sql, "SELECT c FROM cases WHERE id = %lld", (long long)ids[0]);
    TEST_EQ_INT("store-words64-c-sql", (long long)(int64_t)0x8000000000000001u,
                sql_int(p, sql));
    TEST_EQ_INT("store-words64-json-valid", 2,
                sql_int(p, "SELECT count(*) FROM cases WHERE json_valid(a) AND json_valid(b)"));
    TEST_EQ_INT("store-words64-view-integer", 0,
                sql_int(p, "SELECT count(*) FROM case_words WHERE typeof(word) <> 'integer'"));
    lad_store_close(st);
}

void test_store(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/ladder-store-XXXXXX");
    if (mkdtemp(tmpdir) == NULL) {
        test_check(0, "store-tmpdir", "cannot create a scratch folder");
        return;
    }
    test_sha256();
    test_schema_embedded();
    test_create();
    test_not_ladder();
    test_words();
    test_words64();
    test_batches();
    test_evidence();
    test_history();
    test_sigkill();
    test_alive();
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd) != 0)
        printf("     store: cannot remove %s\n", tmpdir);
}
