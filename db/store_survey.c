/*
** The store's surveys (`ladder survey`): a row per survey with the device's
** identity, and a row per datapath once it is finished or failed, so that
** an interrupted survey resumes where it stopped. See store.h.
*/
#include "store_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Room in *rows (of n elements of size bytes, cap allocated) for one
** more; 0, or -1 when out of memory (*rows unchanged). */
static int grow(void **rows, size_t n, size_t *cap, size_t size)
{
    if (n < *cap)
        return 0;
    size_t c = *cap ? 2 * *cap : 16;
    void *r = realloc(*rows, c * size);
    if (r == NULL)
        return -1;
    *rows = r;
    *cap = c;
    return 0;
}

int lad_store_begin_survey(lad_store *st, const lad_survey_info *s, int64_t *id,
                           lad_err *err)
{
    int code = st_writable(st, err);
    sqlite3_stmt *q = NULL;
    if (code == LAD_OK)
        code = st_prepare(st,
                          "INSERT INTO surveys (status, started, device, arch, only, cases, "
                          "gpu, uuid, cc, driver, toolkit, sms, clock_khz, mem_clock_khz, "
                          "planned, host, pid, pid_start) "
                          "VALUES ('running', " NOW_SQL ", ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, "
                          "?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)",
                          &q, err);
    if (code == LAD_OK) {
        st_bind_text(q, 1, s->device);
        st_bind_text(q, 2, s->arch);
        st_bind_text(q, 3, s->only);
        sqlite3_bind_int64(q, 4, (sqlite3_int64)s->cases);
        st_bind_text(q, 5, s->gpu);
        st_bind_text(q, 6, s->uuid);
        sqlite3_bind_int(q, 7, s->cc);
        st_bind_text(q, 8, s->driver);
        st_bind_text(q, 9, s->toolkit);
        sqlite3_bind_int(q, 10, s->sms);
        sqlite3_bind_int(q, 11, s->clock_khz);
        sqlite3_bind_int(q, 12, s->mem_clock_khz);
        sqlite3_bind_int(q, 13, s->planned);
        st_bind_text(q, 14, st->host);
        sqlite3_bind_int64(q, 15, (sqlite3_int64)getpid());
        sqlite3_bind_int64(q, 16, st_proc_start((long)getpid()));
        code = st_step_done(st, q, "write", err);
    }
    sqlite3_finalize(q);
    if (code == LAD_OK)
        *id = sqlite3_last_insert_rowid(st->db);
    return code;
}

int lad_store_find_survey(lad_store *st, const lad_survey_info *s, int64_t *id,
                          lad_err *err)
{
    sqlite3_stmt *q = NULL;
    int code = st_prepare(st,
                          "SELECT id FROM surveys WHERE device = ?1 AND arch = ?2 "
                          "AND only = ?3 AND cases = ?4 ORDER BY id DESC LIMIT 1",
                          &q, err);
    if (code != LAD_OK)
        return code;
    st_bind_text(q, 1, s->device);
    st_bind_text(q, 2, s->arch);
    st_bind_text(q, 3, s->only);
    sqlite3_bind_int64(q, 4, (sqlite3_int64)s->cases);
    int rc = sqlite3_step(q);
    if (rc == SQLITE_ROW) {
        *id = sqlite3_column_int64(q, 0);
        code = LAD_OK;
    } else {
        code = rc == SQLITE_DONE ? LAD_NO : st_sqlerr(st, err, "read");
    }
    sqlite3_finalize(q);
    return code;
}

/* Runs an UPDATE of survey id (?1) that must change its row. */
static int update_survey(lad_store *st, int64_t id, const char *sql,
                         const char *text, lad_err *err)
{
    int code = st_writable(st, err);
    sqlite3_stmt *q = NULL;
    if (code == LAD_OK)
        code = st_prepare(st, sql, &q, err);
    if (code == LAD_OK) {
        sqlite3_bind_int64(q, 1, id);
        if (text)
            sqlite3_bind_text(q, 2, text, -1, SQLITE_TRANSIENT);
        code = st_step_done(st, q, "write", err);
    }
    sqlite3_finalize(q);
    if (code == LAD_OK && sqlite3_changes(st->db) == 0)
        code = lad_errf(err, LAD_EDATA, "no survey %lld in '%s'", (long long)id, st->path);
    return code;
}

int lad_store_resume_survey(lad_store *st, int64_t id, lad_err *err)
{
    char sql[300];
    snprintf(sql, sizeof sql,
             "UPDATE surveys SET status = 'running', ended = NULL, result = NULL, "
             "host = ?2, pid = %lld, pid_start = %lld WHERE id = ?1",
             (long long)getpid(), (long long)st_proc_start((long)getpid()));
    return update_survey(st, id, sql, st->host, err);
}

int lad_store_surveys(lad_store *st, int64_t id, lad_survey_row **rows, size_t *n,
                      lad_err *err)
{
    *rows = NULL;
    *n = 0;
    sqlite3_stmt *q = NULL;
    /* a datapath is good as cli_survey_verdict and the survey count it */
    int code = st_prepare(st,
                          "SELECT s.id, s.status, s.started, ifnull(s.ended, 0), s.device, "
                          "s.arch, s.only, s.gpu, s.cases, s.planned, s.host, s.pid, "
                          "s.pid_start, s.shard_index, s.shard_count, "
                          "(SELECT count(*) FROM survey_datapaths d WHERE d.survey_id = s.id), "
                          "(SELECT count(*) FROM survey_datapaths d WHERE d.survey_id = s.id "
                          " AND d.status = 'done' AND (d.differ = '' OR substr(d.differ, 1, 1) "
                          " = char(8801)) AND d.inferred_mismatches = 0 AND "
                          " d.preset_mismatches = 0 AND d.inferred_cases > 0 AND "
                          " d.preset_cases > 0) "
                          "FROM surveys s WHERE ?1 = 0 OR s.id = ?1 ORDER BY s.id",
                          &q, err);
    if (code != LAD_OK)
        return code;
    sqlite3_bind_int64(q, 1, id);
    size_t cap = 0;
    int rc;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        if (grow((void **)rows, *n, &cap, sizeof **rows) != 0) {
            code = lad_errf(err, LAD_EINTERNAL, "out of memory");
            break;
        }
        lad_survey_row *r = &(*rows)[(*n)++];
        memset(r, 0, sizeof *r);
        char status[16], host[256];
        r->id = sqlite3_column_int64(q, 0);
        st_col_text(q, 1, status, sizeof status);
        r->started = sqlite3_column_int64(q, 2);
        r->ended = sqlite3_column_int64(q, 3);
        st_col_text(q, 4, r->device, sizeof r->device);
        st_col_text(q, 5, r->arch, sizeof r->arch);
        st_col_text(q, 6, r->only, sizeof r->only);
        st_col_text(q, 7, r->gpu, sizeof r->gpu);
        r->cases = sqlite3_column_int64(q, 8);
        r->planned = sqlite3_column_int(q, 9);
        st_col_text(q, 10, host, sizeof host);
        r->status = st_live_status(st, status, host, sqlite3_column_int64(q, 11),
                                   sqlite3_column_int64(q, 12));
        r->shard_index = sqlite3_column_int(q, 13);
        r->shard_count = sqlite3_column_int(q, 14);
        r->done = sqlite3_column_int(q, 15);
        r->good = sqlite3_column_int(q, 16);
    }
    if (code == LAD_OK && rc != SQLITE_DONE)
        code = st_sqlerr(st, err, "read");
    sqlite3_finalize(q);
    if (code == LAD_OK && id > 0 && *n == 0)
        code = lad_errf(err, LAD_EDATA, "no survey %lld in '%s'", (long long)id, st->path);
    if (code != LAD_OK) {
        free(*rows);
        *rows = NULL;
        *n = 0;
    }
    return code;
}

int lad_store_end_survey(lad_store *st, int64_t id, int ok, const char *json,
                         lad_err *err)
{
    return update_survey(st, id,
                         ok ? "UPDATE surveys SET status = 'ok', ended = " NOW_SQL
                              ", result = ?2 WHERE id = ?1"
                            : "UPDATE surveys SET status = 'failed', ended = " NOW_SQL
                              ", result = ?2 WHERE id = ?1",
                         json, err);
}

int lad_store_survey_put(lad_store *st, int64_t id, const lad_survey_dp *d,
                         lad_err *err)
{
    int code = st_writable(st, err);
    sqlite3_stmt *q = NULL;
    if (code == LAD_OK)
        code = st_prepare(st,
                          "INSERT OR REPLACE INTO survey_datapaths (survey_id, datapath, "
                          "status, run_id, probes, differ, inferred_cases, "
                          "inferred_mismatches, preset_cases, preset_mismatches, "
                          "vector_files, vector_cases, vector_mismatches, millis, message) "
                          "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, "
                          "?14, ?15)",
                          &q, err);
    if (code == LAD_OK) {
        sqlite3_bind_int64(q, 1, id);
        st_bind_text(q, 2, d->datapath);
        st_bind_text(q, 3, d->done ? "done" : "failed");
        if (d->run)
            sqlite3_bind_int64(q, 4, d->run);
        sqlite3_bind_int64(q, 5, d->probes);
        st_bind_text(q, 6, d->differ);
        const int64_t v[] = {d->inf_cases, d->inf_bad, d->pre_cases, d->pre_bad,
                             d->vec_files, d->vec_cases, d->vec_bad, d->millis};
        for (int i = 0; i < 8; i++)
            sqlite3_bind_int64(q, 7 + i, v[i]);
        st_bind_text(q, 15, d->message);
        code = st_step_done(st, q, "write", err);
    }
    sqlite3_finalize(q);
    return code;
}

int lad_store_survey_get(lad_store *st, int64_t id, lad_survey_dp **rows,
                         size_t *n, lad_err *err)
{
    *rows = NULL;
    *n = 0;
    sqlite3_stmt *q = NULL;
    int code = st_prepare(st,
                          "SELECT datapath, status, ifnull(run_id, 0), probes, differ, "
                          "inferred_cases, inferred_mismatches, preset_cases, "
                          "preset_mismatches, vector_files, vector_cases, "
                          "vector_mismatches, millis, message FROM survey_datapaths "
                          "WHERE survey_id = ?1 ORDER BY rowid",
                          &q, err);
    if (code != LAD_OK)
        return code;
    sqlite3_bind_int64(q, 1, id);
    size_t cap = 0;
    int rc;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        if (grow((void **)rows, *n, &cap, sizeof **rows) != 0) {
            code = lad_errf(err, LAD_EINTERNAL, "out of memory");
            break;
        }
        lad_survey_dp *d = &(*rows)[(*n)++];
        memset(d, 0, sizeof *d);
        char status[16];
        st_col_text(q, 0, d->datapath, sizeof d->datapath);
        st_col_text(q, 1, status, sizeof status);
        d->done = strcmp(status, "done") == 0;
        d->run = sqlite3_column_int64(q, 2);
        d->probes = sqlite3_column_int64(q, 3);
        st_col_text(q, 4, d->differ, sizeof d->differ);
        int64_t *v[] = {&d->inf_cases, &d->inf_bad, &d->pre_cases, &d->pre_bad,
                        &d->vec_files, &d->vec_cases, &d->vec_bad, &d->millis};
        for (int i = 0; i < 8; i++)
            *v[i] = sqlite3_column_int64(q, 5 + i);
        st_col_text(q, 13, d->message, sizeof d->message);
    }
    if (code == LAD_OK && rc != SQLITE_DONE)
        code = st_sqlerr(st, err, "read");
    sqlite3_finalize(q);
    if (code != LAD_OK) {
        free(*rows);
        *rows = NULL;
        *n = 0;
    }
    return code;
}
