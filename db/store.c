/*
** The evidence store, its lifetime: opening (creating the schema or
** migrating an older one, marking dead runs interrupted), closing, the
** transaction and statement helpers every other store file uses, and the
** beginning of a run (the device, build and recipe rows it refers to). See
** store.h for what the store keeps and why, db/schema.sql for the tables,
** docs/store.md for the design choices; db/store_write.c writes the rest of
** a run, db/store_read.c reads it back.
**
** Writes go through statements prepared once per store and transactions the
** store opens itself (BEGIN IMMEDIATE ... COMMIT), so callers never nest one.
*/
#include "store_int.h"
#include "../util/buf.h"
#include "../util/hooks.h"
#include "../util/json.h"
#include "../util/sha256.h"

#include <errno.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "version.h" /* made by scripts/version.sh */

/*
** Schema 1 -> 2: the structured evidence of each case (series, target,
** vary). Old rows get what their label tells unambiguously: the decode
** rung's "a code 0x1f" is series a-code, target a, vary 0x1f (the hex is
** read by a recursive CTE: SQLite has no hex-to-integer function); the
** scaling rung's first word is its family, with the parameters that family
** decides. Every other old row keeps NULL.
*/
static const char migrate_1_2[] =
    "ALTER TABLE cases ADD COLUMN series TEXT;\n"
    "ALTER TABLE cases ADD COLUMN target TEXT;\n"
    "ALTER TABLE cases ADD COLUMN vary INTEGER;\n"
    "CREATE INDEX cases_run_series ON cases (run_id, series);\n"
    "UPDATE cases SET series = substr(label, 1, 1) || '-code',\n"
    "    target = substr(label, 1, 1),\n"
    "    vary = (WITH RECURSIVE h(rest, v) AS (\n"
    "        SELECT lower(substr(label, 10)), 0\n"
    "        UNION ALL SELECT substr(rest, 2), v * 16 +\n"
    "            instr('0123456789abcdef', substr(rest, 1, 1)) - 1\n"
    "        FROM h WHERE rest <> '')\n"
    "      SELECT v FROM h WHERE rest = '')\n"
    "  WHERE rung = 'decode' AND substr(label, 1, 9) IN ('a code 0x', 'b code 0x')\n"
    "    AND length(label) BETWEEN 10 AND 17\n"
    "    AND NOT substr(lower(label), 10) GLOB '*[^0-9a-f]*';\n"
    "UPDATE cases SET series = substr(label, 1, instr(label, ' ') - 1)\n"
    "  WHERE rung = 'scaling' AND substr(label, 1, instr(label, ' ') - 1) IN\n"
    "    ('floor', 'window', 'group', 'cdom', 'cdomg', 'pergroup', 'sub');\n"
    "UPDATE cases SET target = CASE series\n"
    "    WHEN 'floor' THEN 'window scale_floor align_round'\n"
    "    WHEN 'window' THEN 'window scale_floor align_round'\n"
    "    WHEN 'group' THEN 'group'\n"
    "    WHEN 'sub' THEN 'group_sub_floor'\n"
    "    ELSE 'cdom_window cdom_group cdom_per_group' END\n"
    "  WHERE rung = 'scaling' AND series IS NOT NULL;\n";

/* Schema 2 -> 3: the surveys and their datapaths (ladder survey). */
static const char migrate_2_3[] =
    "CREATE TABLE surveys (\n"
    "    id INTEGER PRIMARY KEY,\n"
    "    status TEXT NOT NULL CHECK (status IN ('running', 'ok', 'failed')),\n"
    "    started INTEGER NOT NULL,\n"
    "    ended INTEGER,               -- NULL until ended\n"
    "    device TEXT NOT NULL,        -- the --device given: cuda:0, sim:sm_90a\n"
    "    arch TEXT NOT NULL,          -- the generation surveyed: sm_90a\n"
    "    only TEXT NOT NULL,          -- the --only pattern, '' for every datapath\n"
    "    cases INTEGER NOT NULL,      -- random cases per validation\n"
    "    gpu TEXT NOT NULL,           -- GPU name, '' on a simulated device\n"
    "    uuid TEXT NOT NULL,\n"
    "    cc INTEGER NOT NULL,         -- compute capability * 10, 0 simulated\n"
    "    driver TEXT NOT NULL,\n"
    "    toolkit TEXT NOT NULL,\n"
    "    sms INTEGER NOT NULL,        -- multiprocessors, 0 unknown\n"
    "    clock_khz INTEGER NOT NULL,  -- SM clock, 0 unknown\n"
    "    mem_clock_khz INTEGER NOT NULL, -- memory clock, 0 unknown\n"
    "    result TEXT CHECK (result IS NULL OR json_valid(result)) -- the table as JSON, once ended\n"
    ") STRICT;\n"
    "\n"
    "CREATE TABLE survey_datapaths (\n"
    "    survey_id INTEGER NOT NULL REFERENCES surveys(id),\n"
    "    datapath TEXT NOT NULL,      -- preset name\n"
    "    status TEXT NOT NULL CHECK (status IN ('done', 'failed')),\n"
    "    run_id INTEGER REFERENCES runs(id), -- the ladder's run, NULL if none began\n"
    "    probes INTEGER NOT NULL,     -- targeted cases the ladder ran\n"
    "    differ TEXT NOT NULL,        -- parameters inferred unlike the preset,\n"
    "                                 -- space-separated; '' none; '-' not inferred\n"
    "    inferred_cases INTEGER NOT NULL,      -- validation of the inferred model\n"
    "    inferred_mismatches INTEGER NOT NULL, -- (-1: not run)\n"
    "    preset_cases INTEGER NOT NULL,        -- validation of the preset\n"
    "    preset_mismatches INTEGER NOT NULL,\n"
    "    vector_files INTEGER NOT NULL,        -- captured vector files replayed\n"
    "    vector_cases INTEGER NOT NULL,\n"
    "    vector_mismatches INTEGER NOT NULL,\n"
    "    millis INTEGER NOT NULL,     -- wall time of the datapath\n"
    "    message TEXT NOT NULL,       -- what failed, ''\n"
    "    PRIMARY KEY (survey_id, datapath)\n"
    ") STRICT;\n";

/*
** Schema 3 -> 4: what opens a run's device again, beside the device row
** (whose name for a sim device is the model's `name:`, which a model file
** may set to anything): the spec as given, and for a model file its
** absolute path and the sha256 of its text. Old runs keep ''.
*/
static const char migrate_3_4[] =
    "ALTER TABLE runs ADD COLUMN device_spec TEXT NOT NULL DEFAULT '';\n"
    "ALTER TABLE runs ADD COLUMN model_file TEXT NOT NULL DEFAULT '';\n"
    "ALTER TABLE runs ADD COLUMN model_sha256 TEXT NOT NULL DEFAULT '';\n";

/*
** Schema 4 -> 5: a validation's own status and process, and the cases it
** was asked for, so that one whose process died reads as interrupted and
** can be resumed. Old unfinished ones (cases NULL) are interrupted.
*/
static const char migrate_4_5[] =
    "ALTER TABLE validations ADD COLUMN status TEXT NOT NULL DEFAULT 'ok'\n"
    "    CHECK (status IN ('running', 'ok', 'failed', 'interrupted'));\n"
    "ALTER TABLE validations ADD COLUMN planned INTEGER;\n"
    "ALTER TABLE validations ADD COLUMN host TEXT NOT NULL DEFAULT '';\n"
    "ALTER TABLE validations ADD COLUMN pid INTEGER NOT NULL DEFAULT 0;\n"
    "ALTER TABLE validations ADD COLUMN pid_start INTEGER NOT NULL DEFAULT 0;\n"
    "ALTER TABLE validations ADD COLUMN message TEXT NOT NULL DEFAULT '';\n"
    "UPDATE validations SET status = 'interrupted' WHERE cases IS NULL;\n";

/*
** Schema 5 -> 6: sharded validations and surveys (--shard I/N) and the parts
** `ladder merge` combined. An old validation is shard 0 of 1 of a stream of
** its own cases.
*/
static const char migrate_5_6[] =
    "ALTER TABLE validations ADD COLUMN shard_index INTEGER NOT NULL DEFAULT 0;\n"
    "ALTER TABLE validations ADD COLUMN shard_count INTEGER NOT NULL DEFAULT 1;\n"
    "ALTER TABLE validations ADD COLUMN stream_cases INTEGER;\n"
    "ALTER TABLE surveys ADD COLUMN shard_index INTEGER NOT NULL DEFAULT 0;\n"
    "ALTER TABLE surveys ADD COLUMN shard_count INTEGER NOT NULL DEFAULT 1;\n"
    "CREATE TABLE merge_parts (\n"
    "    id INTEGER PRIMARY KEY,\n"
    "    merge_run INTEGER NOT NULL REFERENCES runs(id),\n"
    "    validation_id INTEGER REFERENCES validations(id),\n"
    "    survey_id INTEGER REFERENCES surveys(id),\n"
    "    source TEXT NOT NULL,\n"
    "    source_id INTEGER NOT NULL,\n"
    "    run_id INTEGER REFERENCES runs(id),\n"
    "    shard_index INTEGER NOT NULL,\n"
    "    shard_count INTEGER NOT NULL,\n"
    "    cases INTEGER NOT NULL,\n"
    "    mismatches INTEGER NOT NULL\n"
    ") STRICT;\n";

/*
** Schema 6 -> 7: a survey's planned datapaths and its process, so that one
** whose process died reads as interrupted, with how far it came.
*/
static const char migrate_6_7[] =
    "ALTER TABLE surveys ADD COLUMN planned INTEGER NOT NULL DEFAULT 0;\n"
    "ALTER TABLE surveys ADD COLUMN host TEXT NOT NULL DEFAULT '';\n"
    "ALTER TABLE surveys ADD COLUMN pid INTEGER NOT NULL DEFAULT 0;\n"
    "ALTER TABLE surveys ADD COLUMN pid_start INTEGER NOT NULL DEFAULT 0;\n";

/* Migrations: migrations[v] takes a database from user_version v to v+1. A
** schema change appends one, bumps LAD_STORE_VERSION and updates schema.sql
** to the full new schema; a fresh database gets schema.sql at once and is
** never migrated. migrations[0] is unused. */
static const char *const migrations[LAD_STORE_VERSION] = {
    NULL,
    migrate_1_2,
    migrate_2_3,
    migrate_3_4,
    migrate_4_5,
    migrate_5_6,
    migrate_6_7,
};

static const char *const status_names[] = {"running", "ok", "failed",
                                           "interrupted"};

const char *lad_run_status_name(int status)
{
    if (status < 0 || status > LAD_RUN_INTERRUPTED)
        return "?";
    return status_names[status];
}

static int status_parse(const char *s)
{
    for (int i = 0; i <= LAD_RUN_INTERRUPTED; i++)
        if (s && strcmp(s, status_names[i]) == 0)
            return i;
    return LAD_RUN_FAILED;
}

/* Records SQLite's current error: LAD_EDATA when the file is at fault (a
** damaged page, SQLITE_CORRUPT, or a file that is no database: a store or
** a shard copied from elsewhere, which the user must replace), else
** LAD_EINTERNAL (a full disk, a lock held too long, out of memory). Returns
** the code. */
int st_sqlerr(lad_store *st, lad_err *err, const char *what)
{
    int rc = sqlite3_errcode(st->db);
    int code = rc == SQLITE_CORRUPT || rc == SQLITE_NOTADB ? LAD_EDATA : LAD_EINTERNAL;
    return lad_errf(err, code, "cannot %s '%s': %s", what, st->path, sqlite3_errmsg(st->db));
}

int st_exec(lad_store *st, const char *sql, const char *what, lad_err *err)
{
    if (sqlite3_exec(st->db, sql, NULL, NULL, NULL) != SQLITE_OK)
        return st_sqlerr(st, err, what);
    return LAD_OK;
}

int st_begin(lad_store *st, lad_err *err)
{
    if (st->step)
        return LAD_OK;
    return st_exec(st, "BEGIN IMMEDIATE", "write", err);
}

void st_point(lad_store *st, const char *point)
{
    if (st->step == NULL)
        lad_crash_point(point);
}

int st_commit(lad_store *st, const char *point, lad_err *err)
{
    if (st->step)
        return LAD_OK;
    lad_crash_point(point);
    return st_exec(st, "COMMIT", "write", err);
}

/* Rolls back after a failure (the failure is already recorded). */
void st_rollback(lad_store *st)
{
    st->step = NULL;
    st->depth = 0;
    if (!sqlite3_get_autocommit(st->db))
        sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
}

int lad_store_step_begin(lad_store *st, const char *point, lad_err *err)
{
    /* Inside a step (a survey's datapath holds a run's rungs, its infer and
    ** its validations): a savepoint, which the outer step commits. */
    if (st->step) {
        int code = st_exec(st, "SAVEPOINT step", "write", err);
        if (code == LAD_OK)
            st->depth++;
        return code;
    }
    int code = st_writable(st, err);
    if (code == LAD_OK)
        code = st_begin(st, err);
    if (code == LAD_OK)
        st->step = point;
    return code;
}

int lad_store_step_end(lad_store *st, int ok, lad_err *err)
{
    const char *point = st->step;
    if (point == NULL)
        return LAD_OK; /* a failed write in it rolled it back */
    if (st->depth > 0) {
        st->depth--;
        int code = ok ? LAD_OK : st_exec(st, "ROLLBACK TO step", "write", err);
        if (code == LAD_OK)
            code = st_exec(st, "RELEASE step", "write", err);
        if (code)
            st_rollback(st);
        return code;
    }
    if (!ok) {
        st_rollback(st);
        return LAD_OK;
    }
    st->step = NULL;
    int code = st_commit(st, point, err);
    if (code)
        st_rollback(st);
    return code;
}

int st_prepare(lad_store *st, const char *sql, sqlite3_stmt **out,
                   lad_err *err)
{
    if (sqlite3_prepare_v2(st->db, sql, -1, out, NULL) != SQLITE_OK) {
        *out = NULL;
        return st_sqlerr(st, err, "query");
    }
    return LAD_OK;
}

/* Steps a statement that returns no row, then resets it. */
int st_step_done(lad_store *st, sqlite3_stmt *s, const char *what,
                     lad_err *err)
{
    int rc = sqlite3_step(s);
    int code = rc == SQLITE_DONE ? LAD_OK : st_sqlerr(st, err, what);
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
    return code;
}

void st_bind_text(sqlite3_stmt *s, int i, const char *t)
{
    sqlite3_bind_text(s, i, t ? t : "", -1, SQLITE_TRANSIENT);
}

/* Copies column i as text into buf (truncated; "" for NULL). */
void st_col_text(sqlite3_stmt *s, int i, char *buf, size_t size)
{
    const unsigned char *t = sqlite3_column_text(s, i);
    snprintf(buf, size, "%s", t ? (const char *)t : "");
}

char *st_col_dup(sqlite3_stmt *s, int i)
{
    const unsigned char *t = sqlite3_column_text(s, i);
    return strdup(t ? (const char *)t : "");
}

/* ---- processes ------------------------------------------------------------ */

/* Start time of process pid in clock ticks since boot (field 22 of
** /proc/pid/stat), or 0 when unknown. Tells a live process from a later one
** that got the same pid. */
int64_t st_proc_start(long pid)
{
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return 0;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    char *p = strrchr(buf, ')'); /* the command name may hold spaces */
    if (p == NULL)
        return 0;
    /* Fields after the name start at 3 (state); starttime is 22. */
    int field = 2;
    long long v = 0;
    for (char *tok = strtok(p + 1, " "); tok; tok = strtok(NULL, " ")) {
        if (++field == 22) {
            v = strtoll(tok, NULL, 10);
            break;
        }
    }
    return v;
}

/* True when process pid (started at start, 0 unknown) still runs here. */
static int proc_alive(int64_t pid, int64_t start)
{
    if (pid <= 0)
        return 0;
    if (kill((pid_t)pid, 0) != 0 && errno != EPERM)
        return 0;
    if (start != 0) {
        int64_t now = st_proc_start((long)pid);
        if (now != 0 && now != start)
            return 0; /* the pid was reused */
    }
    return 1;
}

/* The status a run row reads as: 'running' on this host with its process
** gone is 'interrupted' even when nothing could mark it (read-only store). */
int st_live_status(lad_store *st, const char *status, const char *host,
                       int64_t pid, int64_t pid_start)
{
    int s = status_parse(status);
    if (s == LAD_RUN_RUNNING && strcmp(host, st->host) == 0 &&
        !proc_alive(pid, pid_start))
        s = LAD_RUN_INTERRUPTED;
    return s;
}

/* Collects the ids (at most 64) of this host's 'running' rows of table
** whose process is gone. */
static int find_dead(lad_store *st, const char *sql, int64_t *dead, int *ndead,
                     lad_err *err)
{
    sqlite3_stmt *q = NULL;
    int code = st_prepare(st, sql, &q, err), rc;
    if (code)
        return code;
    st_bind_text(q, 1, st->host);
    while ((rc = sqlite3_step(q)) == SQLITE_ROW && *ndead < 64)
        if (!proc_alive(sqlite3_column_int64(q, 1),
                        sqlite3_column_int64(q, 2)))
            dead[(*ndead)++] = sqlite3_column_int64(q, 0);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        code = st_sqlerr(st, err, "read");
    sqlite3_finalize(q);
    return code;
}

/* Runs update (?1 = id) for every id; counts the rows changed. */
static int update_ids(lad_store *st, const char *update, const int64_t *ids,
                      int n, int *changed, lad_err *err)
{
    sqlite3_stmt *u = NULL;
    int code = n ? st_prepare(st, update, &u, err) : LAD_OK;
    for (int i = 0; code == LAD_OK && i < n; i++) {
        sqlite3_bind_int64(u, 1, ids[i]);
        code = st_step_done(st, u, "write", err);
        if (code == LAD_OK)
            *changed += sqlite3_changes(st->db);
    }
    sqlite3_finalize(u);
    return code;
}

/* Marks this host's dead 'running' runs and validations interrupted. A
** store another writer keeps busy is left alone: readers still see those
** rows as interrupted. */
static int mark_interrupted(lad_store *st, lad_err *err)
{
    int64_t runs[64], vals[64];
    int nruns = 0, nvals = 0, nval_marked = 0;
    int code = find_dead(st, "SELECT id, pid, pid_start FROM runs "
                              "WHERE status = 'running' AND host = ?1",
                         runs, &nruns, err);
    if (code == LAD_OK)
        code = find_dead(st, "SELECT id, pid, pid_start FROM validations "
                              "WHERE status = 'running' AND host = ?1",
                         vals, &nvals, err);
    if (code || nruns + nvals == 0)
        return code;
    if (sqlite3_exec(st->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
        return LAD_OK; /* busy: leave it to the next open */
    code = update_ids(st, "UPDATE runs SET status = 'interrupted', message = "
                          "'process ' || pid || ' on ' || host || "
                          "' ended before the run did' "
                          "WHERE id = ?1 AND status = 'running'",
                      runs, nruns, &st->marked, err);
    if (code == LAD_OK)
        code = update_ids(st, "UPDATE validations SET status = 'interrupted', "
                              "message = 'process ' || pid || ' on ' || host "
                              "|| ' ended before the validation did' "
                              "WHERE id = ?1 AND status = 'running'",
                          vals, nvals, &nval_marked, err);
    if (code == LAD_OK)
        code = st_commit(st, "mark-interrupted", err);
    if (code) {
        st_rollback(st);
        st->marked = 0;
    }
    return code;
}

/* ---- opening ---------------------------------------------------------------- */

static int pragma_int(lad_store *st, const char *sql, int64_t *v)
{
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(st->db, sql, -1, &s, NULL) != SQLITE_OK)
        return sqlite3_errcode(st->db);
    int rc = sqlite3_step(s);
    *v = rc == SQLITE_ROW ? sqlite3_column_int64(s, 0) : 0;
    sqlite3_finalize(s);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? SQLITE_OK : rc;
}

static int not_ladder(lad_store *st, lad_err *err)
{
    return lad_errf(err, LAD_EDATA, "'%s' is not a ladder database",
                    st->path);
}

/* The SQL of a schema entry as compared: comments dropped, each run of
** white space one space and none beside ( ) , ; (quoted text is kept as
** it is). What ALTER TABLE ADD COLUMN leaves in a migrated store differs
** from db/schema.sql's text only in these. malloc'd; NULL when out of
** memory. */
static char *schema_norm(const char *sql)
{
    char *out = malloc(strlen(sql) + 1), *q = out;
    if (out == NULL)
        return NULL;
    for (const char *p = sql; *p;) {
        if (*p == '\'' || *p == '"') {
            char quote = *p;
            do {
                *q++ = *p++;
                if (*p == quote && p[1] == quote)
                    *q++ = *p++, *q++ = *p++;
            } while (*p && *p != quote);
            if (*p)
                *q++ = *p++;
        } else if (p[0] == '-' && p[1] == '-') {
            while (*p && *p != '\n')
                p++;
        } else if (p[0] == '/' && p[1] == '*') {
            const char *end = strstr(p + 2, "*/");
            p = end ? end + 2 : p + strlen(p);
        } else if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') {
            while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
                p++;
            /* a space only between two words */
            if (q > out && !strchr("(),;", q[-1]) && *p && !strchr("(),;", *p) &&
                !(p[0] == '-' && p[1] == '-'))
                *q++ = ' ';
        } else {
            *q++ = *p++;
        }
    }
    *q = 0;
    return out;
}

/* The schema entries of db (type, name, table, SQL made by schema_norm),
** but SQLite's own (sqlite_*), one line each in name order, appended to
** out. Returns an SQLite code. */
static int schema_lines(sqlite3 *db, lad_buf *out)
{
    sqlite3_stmt *q = NULL;
    int rc = sqlite3_prepare_v2(db, "SELECT type, name, tbl_name, coalesce(sql, '') "
                                    "FROM sqlite_master WHERE name NOT LIKE 'sqlite\\_%' "
                                    "ESCAPE '\\' ORDER BY name", -1, &q, NULL);
    while (rc == SQLITE_OK && (rc = sqlite3_step(q)) == SQLITE_ROW) {
        char *sql = schema_norm((const char *)sqlite3_column_text(q, 3));
        if (sql == NULL) {
            rc = SQLITE_NOMEM;
            break;
        }
        lad_buf_printf(out, "%s %s %s %s\n", sqlite3_column_text(q, 0),
                       sqlite3_column_text(q, 1), sqlite3_column_text(q, 2), sql);
        free(sql);
        rc = SQLITE_OK;
    }
    sqlite3_finalize(q);
    return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* The line of lines that starts "type name ", or NULL. */
static const char *schema_find(const char *lines, const char *type, const char *name)
{
    size_t nt = strlen(type), nn = strlen(name);
    for (const char *l = lines; *l; l = strchr(l, '\n') + 1)
        if (strncmp(l, type, nt) == 0 && l[nt] == ' ' && strncmp(l + nt + 1, name, nn) == 0 &&
            l[nt + 1 + nn] == ' ')
            return l;
    return NULL;
}

/*
** Checks that every table and index of ladder's schema is in the store as
** ladder creates it (db/schema.sql, or the migrations' ALTERs of an older
** one: the same text but for comments and white space), and that the store
** has no other index on a ladder table. A table's SQL decides what a write
** stores: a conflict clause (UNIQUE ... ON CONFLICT REPLACE deletes the
** rows that an insert collides with), a DEFAULT, a type without STRICT
** (REAL affinity would round a 64-bit word), a foreign key's action, a
** UNIQUE index. Tables and views of the user's own are left alone: no
** write of ladder's reaches them, as the store may hold no trigger.
*/
static int check_schema(lad_store *st, lad_err *err)
{
    sqlite3 *mem = NULL;
    lad_buf want = {0}, have = {0};
    int rc = sqlite3_open_v2(":memory:", &mem, SQLITE_OPEN_READWRITE, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_exec(mem, lad_schema_sql, NULL, NULL, NULL);
    if (rc == SQLITE_OK)
        rc = schema_lines(mem, &want);
    sqlite3_close(mem);
    if (rc != SQLITE_OK) {
        lad_buf_free(&want);
        return lad_errf(err, LAD_EINTERNAL, "cannot make ladder's schema to compare '%s' "
                        "with: %s", st->path, sqlite3_errstr(rc));
    }
    int code = LAD_OK;
    if (schema_lines(st->db, &have) != SQLITE_OK)
        code = st_sqlerr(st, err, "read");
    if (code == LAD_OK && (want.oom || have.oom))
        code = lad_errf(err, LAD_EINTERNAL, "out of memory");
    const char *w = want.p ? want.p : "", *h = have.p ? have.p : "";
    char type[16], name[128], table[128];
    for (const char *l = w; code == LAD_OK && *l; l = strchr(l, '\n') + 1) {
        if (sscanf(l, "%15s %127s", type, name) != 2)
            continue;
        const char *got = schema_find(h, type, name);
        size_t len = (size_t)(strchr(l, '\n') - l);
        if (got == NULL || strncmp(got, l, len + 1) != 0)
            code = lad_errf(err, LAD_EDATA, "'%s': %s '%s' %s; a schema changed by "
                            "hand could change what is written to the store, so it is "
                            "not opened", st->path, type, name,
                            got ? "is not as ladder creates it" : "is missing");
    }
    for (const char *l = h; code == LAD_OK && *l; l = strchr(l, '\n') + 1)
        if (sscanf(l, "%15s %127s %127s", type, name, table) == 3 &&
            strcmp(type, "index") == 0 && !schema_find(w, type, name) &&
            schema_find(w, "table", table))
            code = lad_errf(err, LAD_EDATA, "'%s' holds index '%s' on '%s', which no "
                            "ladder schema has; an index could change what is written "
                            "to the store, so it is not opened", st->path, name, table);
    lad_buf_free(&want);
    lad_buf_free(&have);
    return code;
}

/* read_ids' reads, in the transaction it holds. */
static int read_ids_now(lad_store *st, int64_t *app, int64_t *ver,
                        int64_t *tables, lad_err *err)
{
    int rc = pragma_int(st, "PRAGMA application_id", app);
    if (rc == SQLITE_OK)
        rc = pragma_int(st, "PRAGMA user_version", ver);
    if (rc == SQLITE_OK)
        rc = pragma_int(st, "SELECT count(*) FROM sqlite_master", tables);
    if (rc == SQLITE_NOTADB)
        return not_ladder(st, err);
    if (rc != SQLITE_OK) {
        /* These reads fail with SQLITE_ERROR only on a file SQLite cannot
        ** read as this database ("unsupported file format", a schema it
        ** cannot parse): the file is at fault, as for SQLITE_CORRUPT. A
        ** damaged schema can also make SQLite say "out of memory" (found by
        ** fuzz_merge): when a megabyte can still be had, the file is. */
        int code = st_sqlerr(st, err, "read");
        void *room = rc == SQLITE_NOMEM ? malloc(1 << 20) : NULL;
        free(room);
        if (rc == SQLITE_ERROR || room != NULL) {
            lad_err_clear(err);
            code = lad_errf(err, LAD_EDATA, "cannot read '%s': %s%s", st->path,
                            sqlite3_errmsg(st->db), room ? " (its schema is damaged)" : "");
        }
        return code;
    }
    if (*app != LAD_STORE_APP_ID && (*app != 0 || *tables != 0))
        return not_ladder(st, err);
    if (*ver > LAD_STORE_VERSION)
        return lad_errf(err, LAD_EDATA,
                        "'%s' has schema version %lld, newer than this "
                        "ladder's %d; use a newer ladder",
                        st->path, (long long)*ver, LAD_STORE_VERSION);
    /* No schema of ladder's has a trigger: one in a store from elsewhere
    ** could rewrite every word as it is written (docs/security.md). */
    int64_t triggers = 0;
    if (pragma_int(st, "SELECT count(*) FROM sqlite_master WHERE type = 'trigger'",
                   &triggers) != SQLITE_OK)
        return st_sqlerr(st, err, "read");
    if (triggers > 0)
        return lad_errf(err, LAD_EDATA, "'%s' holds %lld trigger%s, which no "
                        "ladder schema has; a trigger could change what is "
                        "written to the store, so it is not opened",
                        st->path, (long long)triggers, triggers == 1 ? "" : "s");
    /* an older schema is checked once migrated */
    return *ver == LAD_STORE_VERSION ? check_schema(st, err) : LAD_OK;
}

/* Reads application_id and user_version; a file SQLite cannot read as a
** database, or with another application's id, is not a ladder database. An
** empty database (no tables) reads as version 0 with id 0. The reads are
** one transaction (the caller's, or one of their own): read apart, another
** process could create the schema between them, and a new store read as
** "no id, some tables" would be refused as another application's. */
static int read_ids(lad_store *st, int64_t *app, int64_t *ver,
                    int64_t *tables, lad_err *err)
{
    int own = sqlite3_get_autocommit(st->db);
    if (own && sqlite3_exec(st->db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK)
        return st_sqlerr(st, err, "read");
    int code = read_ids_now(st, app, ver, tables, err);
    if (own)   /* it wrote nothing: ending it either way is the same */
        sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
    return code;
}

/* Brings the schema to LAD_STORE_VERSION, one migration per transaction. */
static int migrate(lad_store *st, lad_err *err)
{
    for (;;) {
        int64_t app, ver, tables;
        int code = st_begin(st, err);
        if (code)
            return code;
        code = read_ids(st, &app, &ver, &tables, err); /* under the lock */
        if (code == LAD_OK && ver == LAD_STORE_VERSION) {
            st_rollback(st);
            return LAD_OK;
        }
        if (code == LAD_OK && ver == 0 && tables != 0)
            code = not_ladder(st, err);
        if (code == LAD_OK)
            code = st_exec(st, ver == 0 ? lad_schema_sql : migrations[ver],
                           ver == 0 ? "create the schema in" : "migrate", err);
        if (code == LAD_OK) {
            char sql[128];
            snprintf(sql, sizeof sql,
                     "PRAGMA application_id = %d; PRAGMA user_version = %lld",
                     LAD_STORE_APP_ID,
                     ver == 0 ? (long long)LAD_STORE_VERSION : (long long)ver + 1);
            code = st_exec(st, sql, "write", err);
        }
        if (code == LAD_OK)
            code = st_commit(st, "migrate", err);
        if (code) {
            st_rollback(st);
            if (ver > 0 && ver < LAD_STORE_VERSION) {
                /* Say which step failed and what is left: the steps
                ** before it are committed, this one is rolled back. */
                char why[sizeof err->msg], pre[600];
                snprintf(pre, sizeof pre, "cannot migrate '%s': ", st->path);
                const char *m = err->msg;
                if (strncmp(m, pre, strlen(pre)) == 0)
                    m += strlen(pre);   /* st_exec's own prefix: said below */
                snprintf(why, sizeof why, "%s", m);
                lad_err_clear(err);
                lad_errf(err, code, "cannot migrate '%s' from schema version %lld to "
                         "%lld: %s; the store is left whole at schema version %lld "
                         "(each step is one transaction), which this ladder reads only "
                         "once migrated: remove the cause and open it writable again",
                         st->path, (long long)ver, (long long)ver + 1, why,
                         (long long)ver);
            }
            return code;
        }
    }
}

/* Whether this process may write path and the folder that holds it (SQLite
** writes its -wal and -shm files beside the database). */
static int can_write(const char *path)
{
    char dir[4096];
    const char *slash = strrchr(path, '/');
    if (slash == NULL)
        snprintf(dir, sizeof dir, ".");
    else
        snprintf(dir, sizeof dir, "%.*s", slash == path ? 1 : (int)(slash - path), path);
    return access(path, W_OK) == 0 && access(dir, W_OK) == 0;
}

/* Whether the schema can be read through st->db as it was opened. */
static int readable_now(lad_store *st)
{
    int64_t v;
    return pragma_int(st, "SELECT count(*) FROM sqlite_master", &v) == SQLITE_OK;
}

/* "file:<path>?immutable=1" with the characters a URI path cannot hold
** escaped (malloc'd; NULL when out of memory). */
static char *immutable_uri(const char *path)
{
    size_t n = strlen(path);
    char *u = malloc(3 * n + 32), *q = u;
    if (u == NULL)
        return NULL;
    q += sprintf(q, "file:");
    for (const char *p = path; *p; p++) {
        if (*p == '%' || *p == '?' || *p == '#')
            q += sprintf(q, "%%%02x", (unsigned char)*p);
        else
            *q++ = *p;
    }
    sprintf(q, "?immutable=1");
    return u;
}

/*
** SQLite's busy handler: another writer holds the lock (a rung, a batch of
** a validation, a survey's datapath: docs/store.md). Waits for it, polling
** every 1 to 50 ms, without limit by default, so that concurrent commands
** on one store take turns; up to LADDER_BUSY_TIMEOUT_MS when that is set;
** never past a signal that asks ladder to stop. Returns 1 to try again.
*/
static int busy_wait(void *ctx, int count)
{
    lad_store *st = ctx;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    long long now = (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
    if (count == 0)
        st->busy_since = now;
    if (lad_sig_pending())
        return 0;
    if (st->busy_ms >= 0 && now - st->busy_since >= st->busy_ms)
        return 0;
    long ms = count < 6 ? 1L << count : 50;
    if (st->busy_ms >= 0 && now + ms - st->busy_since > st->busy_ms)
        ms = st->busy_ms - (now - st->busy_since);
    if (ms > 0) {
        struct timespec d = {ms / 1000, (ms % 1000) * 1000000};
        nanosleep(&d, NULL);
    }
    return 1;
}

/* Puts the store in WAL mode. The switch needs the exclusive lock, and
** SQLite calls no busy handler where two connections could deadlock on it
** (both reading a new store, both switching): one would fail at once with
** "database is locked" when processes create a store together. It waits
** here as the busy handler would. */
static int set_wal(lad_store *st, lad_err *err)
{
    for (int count = 0;; count++) {
        int rc = sqlite3_exec(st->db, "PRAGMA journal_mode = WAL", NULL, NULL, NULL);
        if (rc != SQLITE_BUSY || !busy_wait(st, count))
            return rc == SQLITE_OK ? LAD_OK : st_sqlerr(st, err, "open");
    }
}

int lad_store_open(const char *path, int flags, lad_store **out, lad_err *err)
{
    *out = NULL;
    lad_store *st = calloc(1, sizeof *st);
    if (st == NULL || (st->path = strdup(path)) == NULL) {
        free(st);
        return lad_errf(err, LAD_EINTERNAL, "out of memory");
    }
    st->readonly = (flags & LAD_STORE_READONLY) != 0;
    if (gethostname(st->host, sizeof st->host - 1) != 0)
        snprintf(st->host, sizeof st->host, "unknown");

    int code = LAD_OK;
    struct stat sb;
    if (!(flags & LAD_STORE_CREATE) && stat(path, &sb) != 0) {
        code = lad_errf(err, LAD_EDATA, "cannot open '%s': %s", path,
                        errno == ENOENT ? "no such file" : strerror(errno));
        goto fail;
    }
    if (!st->readonly && stat(path, &sb) == 0 && !can_write(path)) {
        /* SQLite would open it read-only behind our back and fail later,
        ** at the first write, with a less helpful message. */
        code = lad_errf(err, LAD_EINTERNAL,
                        "cannot write '%s': the file or its folder is "
                        "read-only", path);
        goto fail;
    }
    int oflags = st->readonly ? SQLITE_OPEN_READONLY
                              : SQLITE_OPEN_READWRITE |
                                    ((flags & LAD_STORE_CREATE)
                                         ? SQLITE_OPEN_CREATE
                                         : 0);
    if (sqlite3_open_v2(path, &st->db, oflags, NULL) != SQLITE_OK) {
        code = lad_errf(err, LAD_EDATA, "cannot open '%s': %s", path,
                        st->db ? sqlite3_errmsg(st->db) : "out of memory");
        goto fail;
    }
    if (st->readonly && !can_write(path) && !readable_now(st)) {
        /* A WAL database needs its -shm index, which a reader cannot
        ** create in a read-only folder. No -wal file can be there either
        ** (only a writer leaves one, and it needs the folder), so the
        ** file alone is the whole database: read it as immutable. */
        sqlite3_close_v2(st->db);
        st->db = NULL;
        char *uri = immutable_uri(path);
        int rc = uri ? sqlite3_open_v2(uri, &st->db,
                                       SQLITE_OPEN_READONLY | SQLITE_OPEN_URI,
                                       NULL)
                     : SQLITE_NOMEM;
        free(uri);
        if (rc != SQLITE_OK) {
            code = lad_errf(err, LAD_EDATA, "cannot open '%s': %s", path,
                            st->db ? sqlite3_errmsg(st->db) : "out of memory");
            goto fail;
        }
    }
    sqlite3_extended_result_codes(st->db, 0);
    int busy = lad_busy_timeout_ms();
    long maxpages = lad_max_pages();
    if (busy == -1 || maxpages < 0) {
        const char *name = busy == -1 ? "LADDER_BUSY_TIMEOUT_MS" : "LADDER_MAX_PAGES";
        code = lad_errf(err, LAD_EUSAGE, "bad %s '%.40s' (expected %s)", name, getenv(name),
                        busy == -1 ? "milliseconds, 0 to 3600000" : "pages, 1 to 2147483647");
        goto fail;
    }
    st->busy_ms = busy;
    sqlite3_busy_handler(st->db, busy_wait, st);
    if (maxpages > 0) {
        char pragma[64];
        snprintf(pragma, sizeof pragma, "PRAGMA max_page_count = %ld", maxpages);
        sqlite3_exec(st->db, pragma, NULL, NULL, NULL);
    }

    int64_t app, ver, tables;
    code = read_ids(st, &app, &ver, &tables, err);
    if (code)
        goto fail;
    if (st->readonly) {
        if (ver == 0) {
            code = not_ladder(st, err);
            goto fail;
        }
        if (ver < LAD_STORE_VERSION) {
            /* Migrating is writing; reading an old schema as new is not
            ** safe (its cases lack columns every reader selects). */
            code = lad_errf(err, LAD_EDATA,
                            "'%s' has schema version %lld, older than this "
                            "ladder's %d, and is opened read-only; open it "
                            "writable once to migrate it (a command that writes, "
                            "such as infer, migrates it first, or says why it "
                            "cannot)",
                            path, (long long)ver, LAD_STORE_VERSION);
            goto fail;
        }
    } else {
        if (ver == 0 && tables != 0) {
            code = not_ladder(st, err);
            goto fail;
        }
        code = set_wal(st, err);
        if (code == LAD_OK && ver != LAD_STORE_VERSION)
            code = migrate(st, err);
        if (code)
            goto fail;
    }
    code = st_exec(st, "PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL",
                "open", err);
    if (code == LAD_OK && !st->readonly)
        code = mark_interrupted(st, err);
    if (code)
        goto fail;
    *out = st;
    return LAD_OK;
fail:
    lad_store_close(st);
    return code;
}

void lad_store_close(lad_store *st)
{
    if (st == NULL)
        return;
    sqlite3_finalize(st->ins_case);
    sqlite3_finalize(st->ins_rung);
    sqlite3_finalize(st->ins_mismatch);
    if (st->db)
        sqlite3_close_v2(st->db);
    free(st->path);
    free(st);
}

int lad_store_marked(const lad_store *st) { return st->marked; }
const char *lad_store_path(const lad_store *st) { return st->path; }

int st_writable(lad_store *st, lad_err *err)
{
    if (st->readonly)
        return lad_errf(err, LAD_EINTERNAL,
                        "cannot write '%s': opened read-only", st->path);
    return LAD_OK;
}

/* ---- runs ------------------------------------------------------------------ */

/* Inserts (or finds) a row and returns its id: ins is an INSERT ... ON
** CONFLICT DO NOTHING, sel the matching SELECT id, both with the same
** bindings made by bind(). */
typedef void (*binder)(sqlite3_stmt *s, const void *arg);

static int upsert(lad_store *st, const char *ins, const char *sel, binder bind,
                  const void *arg, int64_t *id, lad_err *err)
{
    sqlite3_stmt *s = NULL;
    int code = st_prepare(st, ins, &s, err);
    if (code == LAD_OK) {
        bind(s, arg);
        code = st_step_done(st, s, "write", err);
    }
    sqlite3_finalize(s);
    s = NULL;
    if (code == LAD_OK)
        code = st_prepare(st, sel, &s, err);
    if (code == LAD_OK) {
        bind(s, arg);
        if (sqlite3_step(s) == SQLITE_ROW)
            *id = sqlite3_column_int64(s, 0);
        else
            code = st_sqlerr(st, err, "read");
    }
    sqlite3_finalize(s);
    return code;
}

static void bind_device(sqlite3_stmt *s, const void *arg)
{
    const lad_run_device *d = arg;
    st_bind_text(s, 1, d->kind);
    st_bind_text(s, 2, d->name);
    st_bind_text(s, 3, d->uuid);
    sqlite3_bind_int(s, 4, d->cc);
    st_bind_text(s, 5, d->driver);
    st_bind_text(s, 6, d->toolkit);
}

struct build_arg {
    const char *version, *commit;
    int dirty;
};

static void bind_build(sqlite3_stmt *s, const void *arg)
{
    const struct build_arg *b = arg;
    st_bind_text(s, 1, b->version);
    st_bind_text(s, 2, b->commit);
    sqlite3_bind_int(s, 3, b->dirty);
}

struct recipe_arg {
    const char *text;
    size_t len;
    char sha[65];
};

static void bind_recipe(sqlite3_stmt *s, const void *arg)
{
    const struct recipe_arg *r = arg;
    sqlite3_bind_text(s, 1, r->sha, -1, SQLITE_STATIC);
    if (sqlite3_bind_parameter_count(s) >= 2)
        sqlite3_bind_text(s, 2, r->text, (int)r->len, SQLITE_STATIC);
}

int lad_store_begin_run(lad_store *st, const lad_run_info *info,
                        int64_t *run, lad_err *err)
{
    static const lad_run_info none;
    if (info == NULL)
        info = &none;
    int code = st_writable(st, err);
    if (code)
        return code;

    lad_buf argv = {0};
    lad_buf_puts(&argv, "[");
    for (int i = 0; i < info->argc; i++) {
        if (i)
            lad_buf_puts(&argv, ",");
        lad_json_str(&argv, info->argv[i] ? info->argv[i] : "");
    }
    lad_buf_puts(&argv, "]");
    if (argv.oom) {
        free(argv.p);
        return lad_errf(err, LAD_EINTERNAL, "out of memory");
    }

    int64_t device_id = 0, build_id = 0, recipe_id = 0;
    struct build_arg b = {info->version ? info->version : "",
                          info->commit ? info->commit : LADDER_GIT_COMMIT,
                          info->dirty < 0 ? LADDER_GIT_DIRTY : info->dirty != 0};
    struct recipe_arg r = {info->recipe_text, info->recipe_len, {0}};
    if (r.text)
        lad_sha256_hex(r.text, r.len, r.sha);

    code = st_begin(st, err);
    if (code == LAD_OK && info->device)
        code = upsert(st,
                      "INSERT INTO devices (kind, name, uuid, cc, driver, "
                      "toolkit) VALUES (?1, ?2, ?3, ?4, ?5, ?6) "
                      "ON CONFLICT DO NOTHING",
                      "SELECT id FROM devices WHERE kind = ?1 AND name = ?2 "
                      "AND uuid = ?3 AND cc = ?4 AND driver = ?5 AND "
                      "toolkit = ?6",
                      bind_device, info->device, &device_id, err);
    if (code == LAD_OK)
        code = upsert(st,
                      "INSERT INTO builds (version, git_commit, dirty) "
                      "VALUES (?1, ?2, ?3) ON CONFLICT DO NOTHING",
                      "SELECT id FROM builds WHERE version = ?1 AND "
                      "git_commit = ?2 AND dirty = ?3",
                      bind_build, &b, &build_id, err);
    if (code == LAD_OK && r.text)
        code = upsert(st,
                      "INSERT INTO recipes (sha256, text) VALUES (?1, ?2) "
                      "ON CONFLICT DO NOTHING",
                      "SELECT id FROM recipes WHERE sha256 = ?1",
                      bind_recipe, &r, &recipe_id, err);

    sqlite3_stmt *s = NULL;
    if (code == LAD_OK)
        code = st_prepare(st,
                       "INSERT INTO runs (status, started, command, argv, "
                       "host, pid, pid_start, device_id, build_id, "
                       "recipe_id, recipe_path, datapath, arch, instr, kind, "
                       "shape, sass, sass_expected, fmt_a, fmt_b, fmt_c, "
                       "fmt_d, device_spec, model_file, model_sha256) "
                       "VALUES ('running', ?1, ?2, ?3, ?4, ?5, ?6, "
                       "?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, "
                       "?18, ?19, ?20, ?21, ?22, ?23, ?24)",
                       &s, err);
    if (code == LAD_OK) {
        const lad_run_datapath *dp = info->dp;
        sqlite3_bind_int64(s, 1, (sqlite3_int64)time(NULL));
        st_bind_text(s, 2, info->command);
        st_bind_text(s, 3, argv.p);
        st_bind_text(s, 4, st->host);
        sqlite3_bind_int64(s, 5, (sqlite3_int64)getpid());
        sqlite3_bind_int64(s, 6, st_proc_start((long)getpid()));
        if (device_id)
            sqlite3_bind_int64(s, 7, device_id);
        sqlite3_bind_int64(s, 8, build_id);
        if (recipe_id)
            sqlite3_bind_int64(s, 9, recipe_id);
        st_bind_text(s, 10, info->recipe_path);
        st_bind_text(s, 11, dp ? dp->name : "");
        st_bind_text(s, 12, dp ? dp->arch : "");
        st_bind_text(s, 13, dp ? dp->instr : "");
        st_bind_text(s, 14, dp ? dp->kind : "");
        st_bind_text(s, 15, dp ? dp->shape : "");
        st_bind_text(s, 16, info->device ? info->device->sass : "");
        st_bind_text(s, 17, dp ? dp->sass : "");
        st_bind_text(s, 18, dp ? dp->fmt_a : "");
        st_bind_text(s, 19, dp ? dp->fmt_b : "");
        st_bind_text(s, 20, dp ? dp->fmt_c : "");
        st_bind_text(s, 21, dp ? dp->fmt_d : "");
        const lad_run_device *dv = info->device;
        st_bind_text(s, 22, dv ? dv->spec : "");
        st_bind_text(s, 23, dv ? dv->model_file : "");
        st_bind_text(s, 24, dv ? dv->model_sha256 : "");
        code = st_step_done(st, s, "write", err);
    }
    sqlite3_finalize(s);
    if (code == LAD_OK) {
        *run = sqlite3_last_insert_rowid(st->db);
        code = st_commit(st, "begin-run", err);
    }
    if (code)
        st_rollback(st);
    free(argv.p);
    return code;
}

