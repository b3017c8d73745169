/*
** The evidence store, writing what a run adds after it began: its SASS and
** its end, the cases of each rung, observations, inferences, validations
** and their mismatches. Every word is bound with sqlite3_bind_int64 or
** written into a JSON array of decimal integers by put_u32: no word ever
** passes through a double.
*/
#include "store_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


/* Writes a word in decimal at p as the int64 with its bits (what SQLite
** stores it as: a word of 32 bits or fewer is its own value, a word of
** 2^63 or more is negative); returns the end. */
static char *put_word(char *p, uint64_t v)
{
    char tmp[20];
    int n = 0;
    if ((int64_t)v < 0) {
        *p++ = '-';
        v = (uint64_t)0 - v;
    }
    do
        tmp[n++] = (char)('0' + v % 10);
    while ((v /= 10) != 0);
    while (n)
        *p++ = tmp[--n];
    return p;
}

/* JSON array of n words (n <= LAD_STORE_KMAX) into buf (at least 21 * n + 3). */
static const char *json_words(char *buf, const uint64_t *w, int n)
{
    char *p = buf;
    *p++ = '[';
    for (int i = 0; i < n; i++) {
        if (i)
            *p++ = ',';
        p = put_word(p, w[i]);
    }
    *p++ = ']';
    *p = 0;
    return buf;
}

static const char *json_bytes(char *buf, const uint8_t *v, int n)
{
    uint64_t w[LAD_STORE_SCALEMAX] = {0};
    for (int i = 0; i < n; i++)
        w[i] = v[i];
    return json_words(buf, w, n);
}

static const char *json_meta(char *buf, const uint32_t *v, int n)
{
    uint64_t w[LAD_STORE_METAMAX] = {0};
    for (int i = 0; i < n; i++)
        w[i] = v[i];
    return json_words(buf, w, n);
}

#define JSON_WORDS_MAX (21 * LAD_STORE_KMAX + 3)
/* Runs one UPDATE/DELETE with an id and optional text; LAD_EDATA when it
** changed nothing and must_change is set. */
static int update1(lad_store *st, const char *sql, int64_t id,
                   const char *text, int must_change, const char *what,
                   lad_err *err)
{
    int code = st_writable(st, err);
    if (code)
        return code;
    sqlite3_stmt *s = NULL;
    code = st_prepare(st, sql, &s, err);
    if (code == LAD_OK) {
        sqlite3_bind_int64(s, 1, id);
        if (text)
            st_bind_text(s, 2, text);
        code = st_step_done(st, s, "write", err);
    }
    sqlite3_finalize(s);
    if (code == LAD_OK && must_change && sqlite3_changes(st->db) == 0)
        code = lad_errf(err, LAD_EDATA, "no %s %lld in '%s'", what,
                        (long long)id, st->path);
    return code;
}

int lad_store_set_sass(lad_store *st, int64_t run, const char *sass,
                       lad_err *err)
{
    return update1(st, "UPDATE runs SET sass = ?2 WHERE id = ?1", run, sass,
                   1, "run", err);
}

int lad_store_end_run(lad_store *st, int64_t run, int status,
                      const char *message, lad_err *err)
{
    if (status != LAD_RUN_OK && status != LAD_RUN_FAILED &&
        status != LAD_RUN_INTERRUPTED)
        return lad_errf(err, LAD_EINTERNAL, "cannot end run %lld as '%s'",
                        (long long)run, lad_run_status_name(status));
    /* The status is one of three constants, so it can be spliced in. */
    const char *sql =
        status == LAD_RUN_OK ? "UPDATE runs SET status = 'ok', ended = "
                               NOW_SQL ", message = ?2 WHERE id = ?1"
        : status == LAD_RUN_FAILED
            ? "UPDATE runs SET status = 'failed', ended = " NOW_SQL
              ", message = ?2 WHERE id = ?1"
            : "UPDATE runs SET status = 'interrupted', ended = " NOW_SQL
              ", message = ?2 WHERE id = ?1";
    st_point(st, "end-run");
    return update1(st, sql, run, message ? message : "", 1, "run", err);
}

/* ---- cases ---------------------------------------------------------------- */

static int check_shape(int k, int nscale, int nmeta, lad_err *err)
{
    if (k < 0 || k > LAD_STORE_KMAX || nscale < 0 || nscale > LAD_STORE_SCALEMAX ||
        nmeta < 0 || nmeta > LAD_STORE_METAMAX)
        return lad_errf(err, LAD_EINTERNAL,
                        "bad case shape k=%d scales=%d meta=%d", k, nscale,
                        nmeta);
    return LAD_OK;
}

/* Makes sure (run, rung) has its rungs row; inside a transaction. */
/* The JSON texts of a case's words while a statement holds them. */
typedef struct case_json {
    char a[JSON_WORDS_MAX], b[JSON_WORDS_MAX];
    char sa[21 * LAD_STORE_SCALEMAX + 3], sb[21 * LAD_STORE_SCALEMAX + 3];
    char meta[21 * LAD_STORE_METAMAX + 3];
} case_json;

/* Binds c's words, the same way for cases and for mismatches: A, B and C
** at parameters ab, ab+1 and ab+2, the scales and the metadata at sc,
** sc+1 and sc+2. j must live until the statement has run. */
static void bind_words(sqlite3_stmt *s, int ab, int sc, const lad_case_data *c, int k,
                       int nscale, int nmeta, case_json *j)
{
    sqlite3_bind_text(s, ab, json_words(j->a, c->a, k), -1, SQLITE_STATIC);
    sqlite3_bind_text(s, ab + 1, json_words(j->b, c->b, k), -1, SQLITE_STATIC);
    sqlite3_bind_int64(s, ab + 2, (int64_t)c->c);
    sqlite3_bind_text(s, sc, json_bytes(j->sa, c->sa, nscale), -1, SQLITE_STATIC);
    sqlite3_bind_text(s, sc + 1, json_bytes(j->sb, c->sb, nscale), -1, SQLITE_STATIC);
    sqlite3_bind_text(s, sc + 2, json_meta(j->meta, c->meta, nmeta), -1, SQLITE_STATIC);
}

static int ensure_rung(lad_store *st, int64_t run, const char *rung,
                       lad_err *err)
{
    if (st->ins_rung == NULL &&
        st_prepare(st, "INSERT INTO rungs (run_id, name) VALUES (?1, ?2) "
                    "ON CONFLICT DO NOTHING",
                &st->ins_rung, err))
        return LAD_EINTERNAL;
    sqlite3_bind_int64(st->ins_rung, 1, run);
    st_bind_text(st->ins_rung, 2, rung);
    return st_step_done(st, st->ins_rung, "write", err);
}

int lad_store_add_cases(lad_store *st, int64_t run, const char *rung,
                        const lad_case_data *cs, const uint64_t *d,
                        const lad_case_tag *tags, size_t n, int k,
                        int nscale, int nmeta, int64_t *ids, lad_err *err)
{
    int code = st_writable(st, err);
    if (code == LAD_OK)
        code = check_shape(k, nscale, nmeta, err);
    if (code)
        return code;
    if (st->ins_case == NULL &&
        st_prepare(st, "INSERT INTO cases (run_id, rung, label, k, a, b, c, d, "
                    "sa, sb, meta, series, target, vary) VALUES (?1, ?2, ?3, "
                    "?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
                &st->ins_case, err))
        return LAD_EINTERNAL;
    sqlite3_stmt *s = st->ins_case;
    case_json j;
    size_t i = 0;
    do {
        size_t end = n - i > LAD_STORE_BATCH ? i + LAD_STORE_BATCH : n;
        code = st_begin(st, err);
        if (code == LAD_OK)
            code = ensure_rung(st, run, rung, err);
        for (; code == LAD_OK && i < end; i++) {
            const lad_case_data *c = &cs[i];
            sqlite3_bind_int64(s, 1, run);
            sqlite3_bind_text(s, 2, rung ? rung : "", -1, SQLITE_STATIC);
            const lad_case_tag *t = tags ? &tags[i] : NULL;
            sqlite3_bind_text(s, 3, t && t->label ? t->label : "", -1,
                              SQLITE_STATIC);
            sqlite3_bind_int(s, 4, k);
            bind_words(s, 5, 9, c, k, nscale, nmeta, &j);
            sqlite3_bind_int64(s, 8, (int64_t)d[i]);
            /* Unbound parameters are NULL (st_step_done clears them). */
            if (t && t->series)
                sqlite3_bind_text(s, 12, t->series, -1, SQLITE_STATIC);
            if (t && t->target)
                sqlite3_bind_text(s, 13, t->target, -1, SQLITE_STATIC);
            if (t && t->has_vary)
                sqlite3_bind_int64(s, 14, t->vary);
            code = st_step_done(st, s, "write cases to", err);
            if (code == LAD_OK && ids)
                ids[i] = sqlite3_last_insert_rowid(st->db);
        }
        if (code == LAD_OK)
            code = st_commit(st, "cases", err);
    } while (code == LAD_OK && i < n);
    if (code)
        st_rollback(st);
    return code;
}

/* Inserts (link_sql's ?1 = owner, ?2 = case id) for every case id. */
static int link_cases(lad_store *st, const char *link_sql, int64_t owner,
                      const int64_t *case_ids, size_t ncases, lad_err *err)
{
    if (ncases == 0)
        return LAD_OK;
    sqlite3_stmt *s = NULL;
    int code = st_prepare(st, link_sql, &s, err);
    for (size_t i = 0; code == LAD_OK && i < ncases; i++) {
        sqlite3_bind_int64(s, 1, owner);
        sqlite3_bind_int64(s, 2, case_ids[i]);
        code = st_step_done(st, s, "link cases in", err);
    }
    sqlite3_finalize(s);
    return code;
}

int lad_store_observe(lad_store *st, int64_t run, const char *rung,
                      const char *key, const char *value,
                      const int64_t *case_ids, size_t ncases, lad_err *err)
{
    int code = st_writable(st, err);
    if (code == LAD_OK)
        code = st_begin(st, err);
    if (code == LAD_OK)
        code = ensure_rung(st, run, rung, err);
    sqlite3_stmt *s = NULL;
    if (code == LAD_OK)
        code = st_prepare(st, "INSERT INTO observations (run_id, rung, key, "
                           "value) VALUES (?1, ?2, ?3, ?4)",
                       &s, err);
    if (code == LAD_OK) {
        sqlite3_bind_int64(s, 1, run);
        st_bind_text(s, 2, rung);
        st_bind_text(s, 3, key);
        st_bind_text(s, 4, value);
        code = st_step_done(st, s, "write", err);
    }
    sqlite3_finalize(s);
    if (code == LAD_OK)
        code = link_cases(st,
                          "INSERT OR IGNORE INTO observation_cases "
                          "(observation_id, case_id) VALUES (?1, ?2)",
                          sqlite3_last_insert_rowid(st->db), case_ids, ncases,
                          err);
    if (code == LAD_OK)
        code = st_commit(st, "observe", err);
    if (code)
        st_rollback(st);
    return code;
}

/* ---- inference ------------------------------------------------------------- */

int lad_store_add_inference(lad_store *st, int64_t run,
                            const char *parameter, const char *value,
                            const char *method, const int64_t *case_ids,
                            size_t ncases, int64_t *id, lad_err *err)
{
    int code = st_writable(st, err);
    if (code == LAD_OK)
        code = st_begin(st, err);
    sqlite3_stmt *s = NULL;
    if (code == LAD_OK)
        code = st_prepare(st, "INSERT INTO inferences (run_id, parameter, value, "
                           "method, created) VALUES (?1, ?2, ?3, ?4, "
                           NOW_SQL ")",
                       &s, err);
    if (code == LAD_OK) {
        sqlite3_bind_int64(s, 1, run);
        st_bind_text(s, 2, parameter);
        st_bind_text(s, 3, value);
        st_bind_text(s, 4, method);
        code = st_step_done(st, s, "write", err);
    }
    sqlite3_finalize(s);
    int64_t row = sqlite3_last_insert_rowid(st->db);
    if (code == LAD_OK)
        code = link_cases(st,
                          "INSERT OR IGNORE INTO inference_cases "
                          "(inference_id, case_id) VALUES (?1, ?2)",
                          row, case_ids, ncases, err);
    if (code == LAD_OK)
        code = st_commit(st, "inference", err);
    if (code)
        st_rollback(st);
    else if (id)
        *id = row;
    return code;
}

int lad_store_clear_inferences(lad_store *st, int64_t run, lad_err *err)
{
    return update1(st, "DELETE FROM inferences WHERE run_id = ?1", run, NULL,
                   0, "run", err);
}

/* ---- validation ------------------------------------------------------------ */

int lad_store_begin_validation(lad_store *st, int64_t run, const char *model,
                               const char *generator, uint64_t seed,
                               uint64_t planned, int k, int nscale, int nmeta,
                               int64_t *vid, lad_err *err)
{
    int code = st_writable(st, err);
    if (code == LAD_OK)
        code = check_shape(k, nscale, nmeta, err);
    if (code)
        return code;
    sqlite3_stmt *s = NULL;
    code = st_prepare(st, "INSERT INTO validations (run_id, model, generator, "
                       "seed, k, nscale, nmeta, started, cases, mismatches, "
                       "status, planned, host, pid, pid_start) VALUES (?1, "
                       "?2, ?3, ?4, ?5, ?6, ?7, " NOW_SQL ", 0, 0, 'running', "
                       "?8, ?9, ?10, ?11)",
                   &s, err);
    if (code == LAD_OK) {
        sqlite3_bind_int64(s, 1, run);
        st_bind_text(s, 2, model);
        st_bind_text(s, 3, generator);
        sqlite3_bind_int64(s, 4, (sqlite3_int64)seed);
        sqlite3_bind_int(s, 5, k);
        sqlite3_bind_int(s, 6, nscale);
        sqlite3_bind_int(s, 7, nmeta);
        sqlite3_bind_int64(s, 8, (sqlite3_int64)planned);
        st_bind_text(s, 9, st->host);
        sqlite3_bind_int64(s, 10, (sqlite3_int64)getpid());
        sqlite3_bind_int64(s, 11, st_proc_start((long)getpid()));
        st_point(st, "begin-validation");
        code = st_step_done(st, s, "write", err);
    }
    sqlite3_finalize(s);
    if (code == LAD_OK)
        *vid = sqlite3_last_insert_rowid(st->db);
    return code;
}

/* The shape begin_validation fixed for vid's mismatches. */
static int validation_shape(lad_store *st, int64_t vid, int *k, int *nscale,
                            int *nmeta, lad_err *err)
{
    sqlite3_stmt *q = NULL;
    int code = st_prepare(st, "SELECT k, nscale, nmeta FROM validations "
                           "WHERE id = ?1",
                       &q, err);
    if (code == LAD_OK) {
        sqlite3_bind_int64(q, 1, vid);
        if (sqlite3_step(q) == SQLITE_ROW) {
            *k = sqlite3_column_int(q, 0);
            *nscale = sqlite3_column_int(q, 1);
            *nmeta = sqlite3_column_int(q, 2);
        } else {
            code = lad_errf(err, LAD_EDATA, "no validation %lld in '%s'",
                            (long long)vid, st->path);
        }
    }
    sqlite3_finalize(q);
    if (code == LAD_OK)
        code = check_shape(*k, *nscale, *nmeta, err);
    return code;
}

/* Inserts n mismatches of vid within the open transaction. */
static int put_mismatches(lad_store *st, int64_t vid, const lad_case_data *cs,
                          const uint64_t *expected, const uint64_t *got,
                          const uint64_t *index, size_t n, int k, int nscale,
                          int nmeta, lad_err *err)
{
    if (st->ins_mismatch == NULL &&
        st_prepare(st, "INSERT INTO mismatches (validation_id, seq, a, b, c, "
                    "sa, sb, meta, expected, got) VALUES (?1, ?2, ?3, ?4, "
                    "?5, ?6, ?7, ?8, ?9, ?10)",
                &st->ins_mismatch, err))
        return LAD_EINTERNAL;
    sqlite3_stmt *s = st->ins_mismatch;
    case_json j;
    int code = LAD_OK;
    for (size_t i = 0; code == LAD_OK && i < n; i++) {
        const lad_case_data *c = &cs[i];
        sqlite3_bind_int64(s, 1, vid);
        sqlite3_bind_int64(s, 2, index ? (sqlite3_int64)index[i] : -1);
        bind_words(s, 3, 6, c, k, nscale, nmeta, &j);
        sqlite3_bind_int64(s, 9, (int64_t)expected[i]);
        sqlite3_bind_int64(s, 10, (int64_t)got[i]);
        code = st_step_done(st, s, "write mismatches to", err);
    }
    return code;
}

int lad_store_add_mismatches(lad_store *st, int64_t vid,
                             const lad_case_data *cs,
                             const uint64_t *expected, const uint64_t *got,
                             const uint64_t *index, size_t n, lad_err *err)
{
    int k = 0, nscale = 0, nmeta = 0;
    int code = st_writable(st, err);
    if (code == LAD_OK)
        code = validation_shape(st, vid, &k, &nscale, &nmeta, err);
    for (size_t i = 0; code == LAD_OK && i < n; i += LAD_STORE_BATCH) {
        size_t m = n - i > LAD_STORE_BATCH ? LAD_STORE_BATCH : n - i;
        code = st_begin(st, err);
        if (code == LAD_OK)
            code = put_mismatches(st, vid, cs + i, expected + i, got + i,
                                  index ? index + i : NULL, m, k, nscale,
                                  nmeta, err);
        if (code == LAD_OK)
            code = st_commit(st, "mismatches", err);
    }
    if (code)
        st_rollback(st);
    return code;
}

int lad_store_validation_chunk(lad_store *st, int64_t vid,
                               const lad_case_data *cs,
                               const uint64_t *expected, const uint64_t *got,
                               const uint64_t *index, size_t n, uint64_t cases,
                               uint64_t mismatches, lad_err *err)
{
    int k = 0, nscale = 0, nmeta = 0;
    int code = st_writable(st, err);
    if (code == LAD_OK)
        code = validation_shape(st, vid, &k, &nscale, &nmeta, err);
    if (code == LAD_OK)
        code = st_begin(st, err);
    if (code == LAD_OK)
        code = put_mismatches(st, vid, cs, expected, got, index, n, k, nscale,
                              nmeta, err);
    sqlite3_stmt *s = NULL;
    if (code == LAD_OK)
        code = st_prepare(st, "UPDATE validations SET cases = ?2, "
                           "mismatches = ?3 WHERE id = ?1",
                       &s, err);
    if (code == LAD_OK) {
        sqlite3_bind_int64(s, 1, vid);
        sqlite3_bind_int64(s, 2, (sqlite3_int64)cases);
        sqlite3_bind_int64(s, 3, (sqlite3_int64)mismatches);
        code = st_step_done(st, s, "write", err);
    }
    sqlite3_finalize(s);
    if (code == LAD_OK)
        code = st_commit(st, "validation-chunk", err);
    if (code)
        st_rollback(st);
    return code;
}

/* The first LAD_STORE_JOIN_MAX mismatches of vid (in case-stream order)
** as cases of run, rung "validation", series "mismatch", D the device's
** word, but for cases the rung holds already (a validation run again on
** the same seed adds nothing); inside the open transaction. */
static int join_run(lad_store *st, int64_t vid, int64_t run, uint64_t *joined, lad_err *err)
{
    int code = ensure_rung(st, run, "validation", err);
    sqlite3_stmt *s = NULL;
    if (code == LAD_OK)
        code = st_prepare(st, "INSERT INTO cases (run_id, rung, label, k, a, b, c, d, sa, sb, "
                          "meta, series) SELECT ?2, 'validation', 'validation ' || ?1 || "
                          "' case ' || m.seq, v.k, m.a, m.b, m.c, m.got, m.sa, m.sb, m.meta, "
                          "'mismatch' FROM mismatches AS m JOIN validations AS v ON "
                          "v.id = m.validation_id WHERE m.validation_id = ?1 AND NOT EXISTS "
                          "(SELECT 1 FROM cases AS o WHERE o.run_id = ?2 AND o.rung = "
                          "'validation' AND o.c = m.c AND o.a = m.a AND o.b = m.b AND "
                          "o.sa = m.sa AND o.sb = m.sb AND o.meta = m.meta) "
                          "ORDER BY m.seq, m.id LIMIT ?3",
                          &s, err);
    if (code == LAD_OK) {
        sqlite3_bind_int64(s, 1, vid);
        sqlite3_bind_int64(s, 2, run);
        sqlite3_bind_int(s, 3, LAD_STORE_JOIN_MAX);
        code = st_step_done(st, s, "write cases to", err);
        if (code == LAD_OK && joined)
            *joined = (uint64_t)sqlite3_changes(st->db);
    }
    sqlite3_finalize(s);
    return code;
}

int lad_store_end_validation(lad_store *st, int64_t vid, uint64_t cases,
                             uint64_t mismatches, int64_t join, uint64_t *joined,
                             lad_err *err)
{
    if (joined)
        *joined = 0;
    int code = st_writable(st, err);
    if (code == LAD_OK)
        code = st_begin(st, err);
    if (code)
        return code;
    sqlite3_stmt *s = NULL;
    code = st_prepare(st, "UPDATE validations SET cases = ?2, mismatches = ?3, "
                       "status = 'ok', message = '', ended = " NOW_SQL
                       " WHERE id = ?1",
                   &s, err);
    if (code == LAD_OK) {
        sqlite3_bind_int64(s, 1, vid);
        sqlite3_bind_int64(s, 2, (sqlite3_int64)cases);
        sqlite3_bind_int64(s, 3, (sqlite3_int64)mismatches);
        code = st_step_done(st, s, "write", err);
    }
    sqlite3_finalize(s);
    if (code == LAD_OK && sqlite3_changes(st->db) == 0)
        code = lad_errf(err, LAD_EDATA, "no validation %lld in '%s'",
                        (long long)vid, st->path);
    if (code == LAD_OK && join > 0 && mismatches > 0)
        code = join_run(st, vid, join, joined, err);
    if (code == LAD_OK)
        code = st_commit(st, "end-validation", err);
    if (code)
        st_rollback(st);
    return code;
}

int lad_store_stop_validation(lad_store *st, int64_t vid, int status,
                              const char *message, lad_err *err)
{
    if (status != LAD_RUN_FAILED && status != LAD_RUN_INTERRUPTED)
        return lad_errf(err, LAD_EINTERNAL, "cannot stop validation %lld as '%s'",
                        (long long)vid, lad_run_status_name(status));
    st_point(st, "stop-validation");
    return update1(st, status == LAD_RUN_FAILED
                           ? "UPDATE validations SET status = 'failed', ended = "
                             NOW_SQL ", message = ?2 WHERE id = ?1"
                           : "UPDATE validations SET status = 'interrupted', "
                             "ended = " NOW_SQL ", message = ?2 WHERE id = ?1",
                   vid, message ? message : "", 1, "validation", err);
}

/* ---- resume ---------------------------------------------------------------- */

/* The UPDATE of lad_store_resume_run/validation: table is a constant. */
static int reopen(lad_store *st, const char *sql, const char *point, int64_t id,
                  const char *what, lad_err *err)
{
    int code = st_writable(st, err);
    if (code)
        return code;
    sqlite3_stmt *s = NULL;
    code = st_prepare(st, sql, &s, err);
    if (code == LAD_OK) {
        sqlite3_bind_int64(s, 1, id);
        st_bind_text(s, 2, st->host);
        sqlite3_bind_int64(s, 3, (sqlite3_int64)getpid());
        sqlite3_bind_int64(s, 4, st_proc_start((long)getpid()));
        st_point(st, point);
        code = st_step_done(st, s, "write", err);
    }
    sqlite3_finalize(s);
    if (code == LAD_OK && sqlite3_changes(st->db) == 0)
        code = lad_errf(err, LAD_EDATA, "%s %lld in '%s' is not failed or interrupted",
                        what, (long long)id, st->path);
    return code;
}

#define REOPEN_SET                                                             \
    " SET status = 'running', ended = NULL, message = '', host = ?2, "         \
    "pid = ?3, pid_start = ?4 WHERE id = ?1 AND status IN ('failed', "        \
    "'interrupted')"

int lad_store_resume_run(lad_store *st, int64_t run, lad_err *err)
{
    return reopen(st, "UPDATE runs" REOPEN_SET, "resume-run", run, "run", err);
}

int lad_store_resume_validation(lad_store *st, int64_t vid, lad_err *err)
{
    return reopen(st, "UPDATE validations" REOPEN_SET, "resume-validation", vid,
                  "validation", err);
}
