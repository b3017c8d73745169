/*
** The evidence store: see store.h for what it keeps and why, db/schema.sql
** for the tables, docs/store.md for the design choices.
**
** Writes go through statements prepared once per store and transactions the
** store opens itself (BEGIN IMMEDIATE ... COMMIT), so callers never nest one.
** Every word is bound with sqlite3_bind_int64 and read back with
** sqlite3_column_int64, or written into a JSON array of decimal integers by
** put_u32: no word ever passes through a double.
*/
#include "store.h"
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

/* The time in unix seconds, in SQL (unixepoch() needs SQLite 3.38). */
#define NOW_SQL "CAST(strftime('%s', 'now') AS INTEGER)"

#include "version.h" /* made by scripts/version.sh */

struct lad_store {
    sqlite3 *db;
    char *path;              /* as given to lad_store_open */
    int readonly;            /* opened with LAD_STORE_READONLY */
    int marked;              /* runs marked interrupted by open */
    char host[128];          /* this machine's host name */
    sqlite3_stmt *ins_case;  /* prepared once, reused by every batch */
    sqlite3_stmt *ins_rung;
    sqlite3_stmt *ins_mismatch;
};

/* Migrations: migrations[v] takes a database from user_version v to v+1. A
** schema change appends one and updates schema.sql to the full new schema
** (fresh databases still run every migration in turn). */
static const char *const migrations[LAD_STORE_VERSION] = {
    lad_schema_sql,
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

/* Records SQLite's current error as LAD_EINTERNAL. Returns LAD_EINTERNAL. */
static int sqlerr(lad_store *st, lad_err *err, const char *what)
{
    return lad_errf(err, LAD_EINTERNAL, "cannot %s '%s': %s", what, st->path,
                    sqlite3_errmsg(st->db));
}

static int exec(lad_store *st, const char *sql, const char *what, lad_err *err)
{
    if (sqlite3_exec(st->db, sql, NULL, NULL, NULL) != SQLITE_OK)
        return sqlerr(st, err, what);
    return LAD_OK;
}

static int begin(lad_store *st, lad_err *err)
{
    return exec(st, "BEGIN IMMEDIATE", "write", err);
}

static int commit(lad_store *st, lad_err *err)
{
    return exec(st, "COMMIT", "write", err);
}

/* Rolls back after a failure (the failure is already recorded). */
static void rollback(lad_store *st)
{
    if (!sqlite3_get_autocommit(st->db))
        sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
}

static int prepare(lad_store *st, const char *sql, sqlite3_stmt **out,
                   lad_err *err)
{
    if (sqlite3_prepare_v2(st->db, sql, -1, out, NULL) != SQLITE_OK) {
        *out = NULL;
        return sqlerr(st, err, "query");
    }
    return LAD_OK;
}

/* Steps a statement that returns no row, then resets it. */
static int step_done(lad_store *st, sqlite3_stmt *s, const char *what,
                     lad_err *err)
{
    int rc = sqlite3_step(s);
    int code = rc == SQLITE_DONE ? LAD_OK : sqlerr(st, err, what);
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
    return code;
}

static void bind_text(sqlite3_stmt *s, int i, const char *t)
{
    sqlite3_bind_text(s, i, t ? t : "", -1, SQLITE_TRANSIENT);
}

/* Copies column i as text into buf (truncated; "" for NULL). */
static void col_text(sqlite3_stmt *s, int i, char *buf, size_t size)
{
    const unsigned char *t = sqlite3_column_text(s, i);
    snprintf(buf, size, "%s", t ? (const char *)t : "");
}

static char *col_dup(sqlite3_stmt *s, int i)
{
    const unsigned char *t = sqlite3_column_text(s, i);
    return strdup(t ? (const char *)t : "");
}

/* ---- processes ------------------------------------------------------------ */

/* Start time of process pid in clock ticks since boot (field 22 of
** /proc/pid/stat), or 0 when unknown. Tells a live process from a later one
** that got the same pid. */
static int64_t proc_start(long pid)
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
        int64_t now = proc_start((long)pid);
        if (now != 0 && now != start)
            return 0; /* the pid was reused */
    }
    return 1;
}

/* The status a run row reads as: 'running' on this host with its process
** gone is 'interrupted' even when nothing could mark it (read-only store). */
static int live_status(lad_store *st, const char *status, const char *host,
                       int64_t pid, int64_t pid_start)
{
    int s = status_parse(status);
    if (s == LAD_RUN_RUNNING && strcmp(host, st->host) == 0 &&
        !proc_alive(pid, pid_start))
        s = LAD_RUN_INTERRUPTED;
    return s;
}

/* Marks this host's dead 'running' runs interrupted. A store another writer
** keeps busy is left alone: readers still see those runs as interrupted. */
static int mark_interrupted(lad_store *st, lad_err *err)
{
    sqlite3_stmt *q = NULL, *u = NULL;
    int code = prepare(st, "SELECT id, pid, pid_start FROM runs "
                           "WHERE status = 'running' AND host = ?1",
                       &q, err);
    if (code)
        return code;
    bind_text(q, 1, st->host);
    int64_t dead[64];
    int ndead = 0, rc;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW && ndead < 64)
        if (!proc_alive(sqlite3_column_int64(q, 1),
                        sqlite3_column_int64(q, 2)))
            dead[ndead++] = sqlite3_column_int64(q, 0);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        code = sqlerr(st, err, "read");
    sqlite3_finalize(q);
    if (code || ndead == 0)
        return code;
    if (sqlite3_exec(st->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
        return LAD_OK; /* busy: leave it to the next open */
    code = prepare(st, "UPDATE runs SET status = 'interrupted', message = "
                       "'process ' || pid || ' on ' || host || "
                       "' ended before the run did' "
                       "WHERE id = ?1 AND status = 'running'",
                   &u, err);
    for (int i = 0; code == LAD_OK && i < ndead; i++) {
        sqlite3_bind_int64(u, 1, dead[i]);
        code = step_done(st, u, "write", err);
        if (code == LAD_OK)
            st->marked += sqlite3_changes(st->db);
    }
    sqlite3_finalize(u);
    if (code == LAD_OK)
        code = commit(st, err);
    if (code) {
        rollback(st);
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

/* Reads application_id and user_version; a file SQLite cannot read as a
** database, or with another application's id, is not a ladder database. An
** empty database (no tables) reads as version 0 with id 0. */
static int read_ids(lad_store *st, int64_t *app, int64_t *ver,
                    int64_t *tables, lad_err *err)
{
    int rc = pragma_int(st, "PRAGMA application_id", app);
    if (rc == SQLITE_OK)
        rc = pragma_int(st, "PRAGMA user_version", ver);
    if (rc == SQLITE_OK)
        rc = pragma_int(st, "SELECT count(*) FROM sqlite_master", tables);
    if (rc == SQLITE_NOTADB)
        return not_ladder(st, err);
    if (rc != SQLITE_OK)
        return sqlerr(st, err, "read");
    if (*app != LAD_STORE_APP_ID && (*app != 0 || *tables != 0))
        return not_ladder(st, err);
    if (*ver > LAD_STORE_VERSION)
        return lad_errf(err, LAD_EDATA,
                        "'%s' has schema version %lld, newer than this "
                        "ladder's %d; use a newer ladder",
                        st->path, (long long)*ver, LAD_STORE_VERSION);
    return LAD_OK;
}

/* Brings the schema to LAD_STORE_VERSION, one migration per transaction. */
static int migrate(lad_store *st, lad_err *err)
{
    for (;;) {
        int64_t app, ver, tables;
        int code = begin(st, err);
        if (code)
            return code;
        code = read_ids(st, &app, &ver, &tables, err); /* under the lock */
        if (code == LAD_OK && ver == LAD_STORE_VERSION) {
            rollback(st);
            return LAD_OK;
        }
        if (code == LAD_OK && ver == 0 && tables != 0)
            code = not_ladder(st, err);
        if (code == LAD_OK)
            code = exec(st, migrations[ver], "create the schema in", err);
        if (code == LAD_OK) {
            char sql[128];
            snprintf(sql, sizeof sql,
                     "PRAGMA application_id = %d; PRAGMA user_version = %lld",
                     LAD_STORE_APP_ID, (long long)ver + 1);
            code = exec(st, sql, "write", err);
        }
        if (code == LAD_OK)
            code = commit(st, err);
        if (code) {
            rollback(st);
            return code;
        }
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
    sqlite3_extended_result_codes(st->db, 0);
    sqlite3_busy_timeout(st->db, 10000);

    int64_t app, ver, tables;
    code = read_ids(st, &app, &ver, &tables, err);
    if (code)
        goto fail;
    if (st->readonly) {
        if (ver != LAD_STORE_VERSION) {
            code = not_ladder(st, err);
            goto fail;
        }
    } else {
        if (ver == 0 && tables != 0) {
            code = not_ladder(st, err);
            goto fail;
        }
        code = exec(st, "PRAGMA journal_mode = WAL", "open", err);
        if (code == LAD_OK && ver != LAD_STORE_VERSION)
            code = migrate(st, err);
        if (code)
            goto fail;
    }
    code = exec(st, "PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL",
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
struct sqlite3 *lad_store_sqlite(lad_store *st) { return st->db; }

static int writable(lad_store *st, lad_err *err)
{
    if (st->readonly)
        return lad_errf(err, LAD_EINTERNAL,
                        "cannot write '%s': opened read-only", st->path);
    return LAD_OK;
}

/* ---- text helpers ------------------------------------------------------------ */

/* Writes v in decimal at p; returns the end. */
static char *put_u32(char *p, uint32_t v)
{
    char tmp[10];
    int n = 0;
    do
        tmp[n++] = (char)('0' + v % 10);
    while ((v /= 10) != 0);
    while (n)
        *p++ = tmp[--n];
    return p;
}

/* JSON array of n words (n <= LAD_KMAX) into buf (at least 11 * n + 3). */
static const char *json_words(char *buf, const uint32_t *w, int n)
{
    char *p = buf;
    *p++ = '[';
    for (int i = 0; i < n; i++) {
        if (i)
            *p++ = ',';
        p = put_u32(p, w[i]);
    }
    *p++ = ']';
    *p = 0;
    return buf;
}

static const char *json_bytes(char *buf, const uint8_t *v, int n)
{
    uint32_t w[LAD_SCALEMAX];
    for (int i = 0; i < n; i++)
        w[i] = v[i];
    return json_words(buf, w, n);
}

#define JSON_WORDS_MAX (11 * LAD_KMAX + 3)

/*
** Parses a JSON array of at most max integers in 0..2^32-1 into w (the rest
** of w untouched). Returns the count, or -1 when text is not such an array.
*/
static int parse_words(const char *t, uint32_t *w, int max)
{
    int n = 0;
    if (t == NULL)
        return -1;
    while (*t == ' ')
        t++;
    if (*t++ != '[')
        return -1;
    while (*t == ' ')
        t++;
    if (*t == ']')
        return 0;
    for (;;) {
        while (*t == ' ')
            t++;
        if (*t < '0' || *t > '9' || n >= max)
            return -1;
        uint64_t v = 0;
        while (*t >= '0' && *t <= '9') {
            v = v * 10 + (uint64_t)(*t++ - '0');
            if (v > 0xffffffffu)
                return -1;
        }
        w[n++] = (uint32_t)v;
        while (*t == ' ')
            t++;
        if (*t == ']')
            return n;
        if (*t++ != ',')
            return -1;
    }
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
    int code = prepare(st, ins, &s, err);
    if (code == LAD_OK) {
        bind(s, arg);
        code = step_done(st, s, "write", err);
    }
    sqlite3_finalize(s);
    s = NULL;
    if (code == LAD_OK)
        code = prepare(st, sel, &s, err);
    if (code == LAD_OK) {
        bind(s, arg);
        if (sqlite3_step(s) == SQLITE_ROW)
            *id = sqlite3_column_int64(s, 0);
        else
            code = sqlerr(st, err, "read");
    }
    sqlite3_finalize(s);
    return code;
}

static void bind_device(sqlite3_stmt *s, const void *arg)
{
    const lad_device_info *d = arg;
    bind_text(s, 1, d->kind);
    bind_text(s, 2, d->name);
    bind_text(s, 3, d->uuid);
    sqlite3_bind_int(s, 4, d->cc);
    bind_text(s, 5, d->driver);
    bind_text(s, 6, d->toolkit);
}

struct build_arg {
    const char *version, *commit;
    int dirty;
};

static void bind_build(sqlite3_stmt *s, const void *arg)
{
    const struct build_arg *b = arg;
    bind_text(s, 1, b->version);
    bind_text(s, 2, b->commit);
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
    int code = writable(st, err);
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

    code = begin(st, err);
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
        code = prepare(st,
                       "INSERT INTO runs (status, started, command, argv, "
                       "host, pid, pid_start, device_id, build_id, "
                       "recipe_id, recipe_path, datapath, arch, instr, kind, "
                       "shape, sass, sass_expected, fmt_a, fmt_b, fmt_c, "
                       "fmt_d) VALUES ('running', ?1, ?2, ?3, ?4, ?5, ?6, "
                       "?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, "
                       "?18, ?19, ?20, ?21)",
                       &s, err);
    if (code == LAD_OK) {
        const lad_datapath *dp = info->dp;
        sqlite3_bind_int64(s, 1, (sqlite3_int64)time(NULL));
        bind_text(s, 2, info->command);
        bind_text(s, 3, argv.p);
        bind_text(s, 4, st->host);
        sqlite3_bind_int64(s, 5, (sqlite3_int64)getpid());
        sqlite3_bind_int64(s, 6, proc_start((long)getpid()));
        if (device_id)
            sqlite3_bind_int64(s, 7, device_id);
        sqlite3_bind_int64(s, 8, build_id);
        if (recipe_id)
            sqlite3_bind_int64(s, 9, recipe_id);
        bind_text(s, 10, info->recipe_path);
        bind_text(s, 11, dp ? dp->name : "");
        bind_text(s, 12, dp ? dp->arch : "");
        bind_text(s, 13, dp ? dp->instr : "");
        bind_text(s, 14, dp ? dp->kind : "");
        bind_text(s, 15, dp ? dp->shape : "");
        bind_text(s, 16, info->device ? info->device->sass : "");
        bind_text(s, 17, dp ? dp->sass : "");
        bind_text(s, 18, dp ? dp->a.name : "");
        bind_text(s, 19, dp ? dp->b.name : "");
        bind_text(s, 20, dp ? dp->c.name : "");
        bind_text(s, 21, dp ? dp->d.name : "");
        code = step_done(st, s, "write", err);
    }
    sqlite3_finalize(s);
    if (code == LAD_OK) {
        *run = sqlite3_last_insert_rowid(st->db);
        code = commit(st, err);
    }
    if (code)
        rollback(st);
    free(argv.p);
    return code;
}

/* Runs one UPDATE/DELETE with an id and optional text; LAD_EDATA when it
** changed nothing and must_change is set. */
static int update1(lad_store *st, const char *sql, int64_t id,
                   const char *text, int must_change, const char *what,
                   lad_err *err)
{
    int code = writable(st, err);
    if (code)
        return code;
    sqlite3_stmt *s = NULL;
    code = prepare(st, sql, &s, err);
    if (code == LAD_OK) {
        sqlite3_bind_int64(s, 1, id);
        if (text)
            bind_text(s, 2, text);
        code = step_done(st, s, "write", err);
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
    return update1(st, sql, run, message ? message : "", 1, "run", err);
}

/* ---- cases ---------------------------------------------------------------- */

static int check_shape(int k, int nscale, int nmeta, lad_err *err)
{
    if (k < 0 || k > LAD_KMAX || nscale < 0 || nscale > LAD_SCALEMAX ||
        nmeta < 0 || nmeta > LAD_METAMAX)
        return lad_errf(err, LAD_EINTERNAL,
                        "bad case shape k=%d scales=%d meta=%d", k, nscale,
                        nmeta);
    return LAD_OK;
}

/* Makes sure (run, rung) has its rungs row; inside a transaction. */
static int ensure_rung(lad_store *st, int64_t run, const char *rung,
                       lad_err *err)
{
    if (st->ins_rung == NULL &&
        prepare(st, "INSERT INTO rungs (run_id, name) VALUES (?1, ?2) "
                    "ON CONFLICT DO NOTHING",
                &st->ins_rung, err))
        return LAD_EINTERNAL;
    sqlite3_bind_int64(st->ins_rung, 1, run);
    bind_text(st->ins_rung, 2, rung);
    return step_done(st, st->ins_rung, "write", err);
}

int lad_store_add_cases(lad_store *st, int64_t run, const char *rung,
                        const lad_case *cs, const uint32_t *d,
                        const char *const *labels, size_t n, int k,
                        int nscale, int nmeta, int64_t *ids, lad_err *err)
{
    int code = writable(st, err);
    if (code == LAD_OK)
        code = check_shape(k, nscale, nmeta, err);
    if (code)
        return code;
    if (st->ins_case == NULL &&
        prepare(st, "INSERT INTO cases (run_id, rung, label, k, a, b, c, d, "
                    "sa, sb, meta) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, "
                    "?9, ?10, ?11)",
                &st->ins_case, err))
        return LAD_EINTERNAL;
    sqlite3_stmt *s = st->ins_case;
    char ja[JSON_WORDS_MAX], jb[JSON_WORDS_MAX];
    char jsa[11 * LAD_SCALEMAX + 3], jsb[11 * LAD_SCALEMAX + 3];
    char jm[11 * LAD_METAMAX + 3];
    size_t i = 0;
    do {
        size_t end = n - i > LAD_STORE_BATCH ? i + LAD_STORE_BATCH : n;
        code = begin(st, err);
        if (code == LAD_OK)
            code = ensure_rung(st, run, rung, err);
        for (; code == LAD_OK && i < end; i++) {
            const lad_case *c = &cs[i];
            sqlite3_bind_int64(s, 1, run);
            sqlite3_bind_text(s, 2, rung ? rung : "", -1, SQLITE_STATIC);
            sqlite3_bind_text(s, 3, labels && labels[i] ? labels[i] : "", -1,
                              SQLITE_STATIC);
            sqlite3_bind_int(s, 4, k);
            sqlite3_bind_text(s, 5, json_words(ja, c->a, k), -1,
                              SQLITE_STATIC);
            sqlite3_bind_text(s, 6, json_words(jb, c->b, k), -1,
                              SQLITE_STATIC);
            sqlite3_bind_int64(s, 7, c->c);
            sqlite3_bind_int64(s, 8, d[i]);
            sqlite3_bind_text(s, 9, json_bytes(jsa, c->sa, nscale), -1,
                              SQLITE_STATIC);
            sqlite3_bind_text(s, 10, json_bytes(jsb, c->sb, nscale), -1,
                              SQLITE_STATIC);
            sqlite3_bind_text(s, 11, json_words(jm, c->meta, nmeta), -1,
                              SQLITE_STATIC);
            code = step_done(st, s, "write cases to", err);
            if (code == LAD_OK && ids)
                ids[i] = sqlite3_last_insert_rowid(st->db);
        }
        if (code == LAD_OK)
            code = commit(st, err);
    } while (code == LAD_OK && i < n);
    if (code)
        rollback(st);
    return code;
}

/* Inserts (link_sql's ?1 = owner, ?2 = case id) for every case id. */
static int link_cases(lad_store *st, const char *link_sql, int64_t owner,
                      const int64_t *case_ids, size_t ncases, lad_err *err)
{
    if (ncases == 0)
        return LAD_OK;
    sqlite3_stmt *s = NULL;
    int code = prepare(st, link_sql, &s, err);
    for (size_t i = 0; code == LAD_OK && i < ncases; i++) {
        sqlite3_bind_int64(s, 1, owner);
        sqlite3_bind_int64(s, 2, case_ids[i]);
        code = step_done(st, s, "link cases in", err);
    }
    sqlite3_finalize(s);
    return code;
}

int lad_store_observe(lad_store *st, int64_t run, const char *rung,
                      const char *key, const char *value,
                      const int64_t *case_ids, size_t ncases, lad_err *err)
{
    int code = writable(st, err);
    if (code == LAD_OK)
        code = begin(st, err);
    if (code == LAD_OK)
        code = ensure_rung(st, run, rung, err);
    sqlite3_stmt *s = NULL;
    if (code == LAD_OK)
        code = prepare(st, "INSERT INTO observations (run_id, rung, key, "
                           "value) VALUES (?1, ?2, ?3, ?4)",
                       &s, err);
    if (code == LAD_OK) {
        sqlite3_bind_int64(s, 1, run);
        bind_text(s, 2, rung);
        bind_text(s, 3, key);
        bind_text(s, 4, value);
        code = step_done(st, s, "write", err);
    }
    sqlite3_finalize(s);
    if (code == LAD_OK)
        code = link_cases(st,
                          "INSERT OR IGNORE INTO observation_cases "
                          "(observation_id, case_id) VALUES (?1, ?2)",
                          sqlite3_last_insert_rowid(st->db), case_ids, ncases,
                          err);
    if (code == LAD_OK)
        code = commit(st, err);
    if (code)
        rollback(st);
    return code;
}

/* ---- inference ------------------------------------------------------------- */

int lad_store_add_inference(lad_store *st, int64_t run,
                            const char *parameter, const char *value,
                            const char *method, const int64_t *case_ids,
                            size_t ncases, int64_t *id, lad_err *err)
{
    int code = writable(st, err);
    if (code == LAD_OK)
        code = begin(st, err);
    sqlite3_stmt *s = NULL;
    if (code == LAD_OK)
        code = prepare(st, "INSERT INTO inferences (run_id, parameter, value, "
                           "method, created) VALUES (?1, ?2, ?3, ?4, "
                           NOW_SQL ")",
                       &s, err);
    if (code == LAD_OK) {
        sqlite3_bind_int64(s, 1, run);
        bind_text(s, 2, parameter);
        bind_text(s, 3, value);
        bind_text(s, 4, method);
        code = step_done(st, s, "write", err);
    }
    sqlite3_finalize(s);
    int64_t row = sqlite3_last_insert_rowid(st->db);
    if (code == LAD_OK)
        code = link_cases(st,
                          "INSERT OR IGNORE INTO inference_cases "
                          "(inference_id, case_id) VALUES (?1, ?2)",
                          row, case_ids, ncases, err);
    if (code == LAD_OK)
        code = commit(st, err);
    if (code)
        rollback(st);
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
                               const char *generator, uint64_t seed, int k,
                               int nscale, int nmeta, int64_t *vid,
                               lad_err *err)
{
    int code = writable(st, err);
    if (code == LAD_OK)
        code = check_shape(k, nscale, nmeta, err);
    if (code)
        return code;
    sqlite3_stmt *s = NULL;
    code = prepare(st, "INSERT INTO validations (run_id, model, generator, "
                       "seed, k, nscale, nmeta, started) VALUES (?1, ?2, ?3, "
                       "?4, ?5, ?6, ?7, " NOW_SQL ")",
                   &s, err);
    if (code == LAD_OK) {
        sqlite3_bind_int64(s, 1, run);
        bind_text(s, 2, model);
        bind_text(s, 3, generator);
        sqlite3_bind_int64(s, 4, (sqlite3_int64)seed);
        sqlite3_bind_int(s, 5, k);
        sqlite3_bind_int(s, 6, nscale);
        sqlite3_bind_int(s, 7, nmeta);
        code = step_done(st, s, "write", err);
    }
    sqlite3_finalize(s);
    if (code == LAD_OK)
        *vid = sqlite3_last_insert_rowid(st->db);
    return code;
}

int lad_store_add_mismatches(lad_store *st, int64_t vid, const lad_case *cs,
                             const uint32_t *expected, const uint32_t *got,
                             const uint64_t *index, size_t n, lad_err *err)
{
    int code = writable(st, err);
    if (code)
        return code;
    /* The shape was fixed by begin_validation. */
    int k = 0, nscale = 0, nmeta = 0;
    sqlite3_stmt *q = NULL;
    code = prepare(st, "SELECT k, nscale, nmeta FROM validations "
                       "WHERE id = ?1",
                   &q, err);
    if (code == LAD_OK) {
        sqlite3_bind_int64(q, 1, vid);
        if (sqlite3_step(q) == SQLITE_ROW) {
            k = sqlite3_column_int(q, 0);
            nscale = sqlite3_column_int(q, 1);
            nmeta = sqlite3_column_int(q, 2);
        } else {
            code = lad_errf(err, LAD_EDATA, "no validation %lld in '%s'",
                            (long long)vid, st->path);
        }
    }
    sqlite3_finalize(q);
    if (code == LAD_OK)
        code = check_shape(k, nscale, nmeta, err);
    if (code)
        return code;
    if (st->ins_mismatch == NULL &&
        prepare(st, "INSERT INTO mismatches (validation_id, seq, a, b, c, "
                    "sa, sb, meta, expected, got) VALUES (?1, ?2, ?3, ?4, "
                    "?5, ?6, ?7, ?8, ?9, ?10)",
                &st->ins_mismatch, err))
        return LAD_EINTERNAL;
    sqlite3_stmt *s = st->ins_mismatch;
    char ja[JSON_WORDS_MAX], jb[JSON_WORDS_MAX];
    char jsa[11 * LAD_SCALEMAX + 3], jsb[11 * LAD_SCALEMAX + 3];
    char jm[11 * LAD_METAMAX + 3];
    size_t i = 0;
    while (code == LAD_OK && i < n) {
        size_t end = n - i > LAD_STORE_BATCH ? i + LAD_STORE_BATCH : n;
        code = begin(st, err);
        for (; code == LAD_OK && i < end; i++) {
            const lad_case *c = &cs[i];
            sqlite3_bind_int64(s, 1, vid);
            sqlite3_bind_int64(s, 2, index ? (sqlite3_int64)index[i] : -1);
            sqlite3_bind_text(s, 3, json_words(ja, c->a, k), -1,
                              SQLITE_STATIC);
            sqlite3_bind_text(s, 4, json_words(jb, c->b, k), -1,
                              SQLITE_STATIC);
            sqlite3_bind_int64(s, 5, c->c);
            sqlite3_bind_text(s, 6, json_bytes(jsa, c->sa, nscale), -1,
                              SQLITE_STATIC);
            sqlite3_bind_text(s, 7, json_bytes(jsb, c->sb, nscale), -1,
                              SQLITE_STATIC);
            sqlite3_bind_text(s, 8, json_words(jm, c->meta, nmeta), -1,
                              SQLITE_STATIC);
            sqlite3_bind_int64(s, 9, expected[i]);
            sqlite3_bind_int64(s, 10, got[i]);
            code = step_done(st, s, "write mismatches to", err);
        }
        if (code == LAD_OK)
            code = commit(st, err);
    }
    if (code)
        rollback(st);
    return code;
}

int lad_store_end_validation(lad_store *st, int64_t vid, uint64_t cases,
                             uint64_t mismatches, lad_err *err)
{
    int code = writable(st, err);
    if (code)
        return code;
    sqlite3_stmt *s = NULL;
    code = prepare(st, "UPDATE validations SET cases = ?2, mismatches = ?3, "
                       "ended = " NOW_SQL " WHERE id = ?1",
                   &s, err);
    if (code == LAD_OK) {
        sqlite3_bind_int64(s, 1, vid);
        sqlite3_bind_int64(s, 2, (sqlite3_int64)cases);
        sqlite3_bind_int64(s, 3, (sqlite3_int64)mismatches);
        code = step_done(st, s, "write", err);
    }
    sqlite3_finalize(s);
    if (code == LAD_OK && sqlite3_changes(st->db) == 0)
        code = lad_errf(err, LAD_EDATA, "no validation %lld in '%s'",
                        (long long)vid, st->path);
    return code;
}

/* ---- reading ---------------------------------------------------------------- */

int lad_store_resolve_run(lad_store *st, const char *spec, int64_t *run,
                          lad_err *err)
{
    sqlite3_stmt *s = NULL;
    int code;
    if (strcmp(spec, "latest") == 0) {
        code = prepare(st, "SELECT max(id) FROM runs", &s, err);
        if (code == LAD_OK) {
            if (sqlite3_step(s) == SQLITE_ROW &&
                sqlite3_column_type(s, 0) == SQLITE_INTEGER)
                *run = sqlite3_column_int64(s, 0);
            else
                code = lad_errf(err, LAD_EDATA, "no runs in '%s'", st->path);
        }
        sqlite3_finalize(s);
        return code;
    }
    const char *p = spec;
    int64_t v = 0;
    if (*p == 0)
        return lad_errf(err, LAD_EUSAGE,
                        "bad run '%s': expected a run id or 'latest'", spec);
    for (; *p; p++) {
        if (*p < '0' || *p > '9' || v > (INT64_MAX - 9) / 10)
            return lad_errf(err, LAD_EUSAGE,
                            "bad run '%s': expected a run id or 'latest'",
                            spec);
        v = v * 10 + (*p - '0');
    }
    code = prepare(st, "SELECT id FROM runs WHERE id = ?1", &s, err);
    if (code == LAD_OK) {
        sqlite3_bind_int64(s, 1, v);
        if (sqlite3_step(s) == SQLITE_ROW)
            *run = v;
        else
            code = lad_errf(err, LAD_EDATA, "no run %lld in '%s'",
                            (long long)v, st->path);
    }
    sqlite3_finalize(s);
    return code;
}

#define RUN_COLUMNS                                                           \
    "SELECT r.id, r.status, r.started, coalesce(r.ended, 0), r.command, "     \
    "r.argv, r.host, r.pid, r.pid_start, r.message, coalesce(d.name, ''), "   \
    "coalesce(d.kind, ''), coalesce(d.uuid, ''), coalesce(d.cc, 0), "         \
    "coalesce(d.driver, ''), coalesce(d.toolkit, ''), b.version, "            \
    "b.git_commit, b.dirty, r.recipe_path, coalesce(rc.sha256, ''), "         \
    "r.datapath, r.arch, r.instr, r.kind, r.shape, r.sass, r.sass_expected, " \
    "r.fmt_a, r.fmt_b, r.fmt_c, r.fmt_d, "                                    \
    "(SELECT count(*) FROM cases WHERE cases.run_id = r.id) "                 \
    "FROM runs AS r LEFT JOIN devices AS d ON d.id = r.device_id "            \
    "JOIN builds AS b ON b.id = r.build_id "                                  \
    "LEFT JOIN recipes AS rc ON rc.id = r.recipe_id "

/*
** Copies the JSON array of strings t into buf; when it does not fit, keeps
** the leading elements that do and ends the array with "...", so that the
** copy is still a JSON array. Strings are as lad_json_str writes them.
*/
static void copy_argv(const char *t, char *buf, size_t size)
{
    size_t len = t ? strlen(t) : 0;
    if (len < size) {
        snprintf(buf, size, "%s", t ? t : "[]");
        return;
    }
    size_t keep = 1; /* "[" */
    const char *p = t + 1;
    while (*p == '"' || *p == ',') {
        const char *q = p + (*p == ',');
        if (*q != '"')
            break;
        for (q++; *q && *q != '"'; q++)
            if (*q == '\\' && q[1])
                q++;
        if (*q != '"')
            break;
        size_t end = (size_t)(q + 1 - t);
        if (end + 8 > size) /* room for ,"..."] and the NUL */
            break;
        keep = end;
        p = q + 1;
    }
    snprintf(buf, size, "%.*s%s\"...\"]", (int)keep, t,
             keep > 1 ? "," : "");
}

static void read_run(lad_store *st, sqlite3_stmt *s, lad_run_row *r)
{
    char status[16];
    memset(r, 0, sizeof *r);
    r->id = sqlite3_column_int64(s, 0);
    col_text(s, 1, status, sizeof status);
    r->started = sqlite3_column_int64(s, 2);
    r->ended = sqlite3_column_int64(s, 3);
    col_text(s, 4, r->command, sizeof r->command);
    copy_argv((const char *)sqlite3_column_text(s, 5), r->argv,
              sizeof r->argv);
    col_text(s, 6, r->host, sizeof r->host);
    r->pid = sqlite3_column_int64(s, 7);
    r->status = live_status(st, status, r->host, r->pid,
                            sqlite3_column_int64(s, 8));
    col_text(s, 9, r->message, sizeof r->message);
    col_text(s, 10, r->device, sizeof r->device);
    col_text(s, 11, r->device_kind, sizeof r->device_kind);
    col_text(s, 12, r->uuid, sizeof r->uuid);
    r->cc = sqlite3_column_int(s, 13);
    col_text(s, 14, r->driver, sizeof r->driver);
    col_text(s, 15, r->toolkit, sizeof r->toolkit);
    col_text(s, 16, r->version, sizeof r->version);
    col_text(s, 17, r->commit, sizeof r->commit);
    r->dirty = sqlite3_column_int(s, 18);
    col_text(s, 19, r->recipe, sizeof r->recipe);
    col_text(s, 20, r->recipe_sha256, sizeof r->recipe_sha256);
    col_text(s, 21, r->datapath, sizeof r->datapath);
    col_text(s, 22, r->arch, sizeof r->arch);
    col_text(s, 23, r->instr, sizeof r->instr);
    col_text(s, 24, r->kind, sizeof r->kind);
    col_text(s, 25, r->shape, sizeof r->shape);
    col_text(s, 26, r->sass, sizeof r->sass);
    col_text(s, 27, r->sass_expected, sizeof r->sass_expected);
    col_text(s, 28, r->fmt_a, sizeof r->fmt_a);
    col_text(s, 29, r->fmt_b, sizeof r->fmt_b);
    col_text(s, 30, r->fmt_c, sizeof r->fmt_c);
    col_text(s, 31, r->fmt_d, sizeof r->fmt_d);
    r->ncases = sqlite3_column_int64(s, 32);
}

/* Grows *arr (of elements of size el) to hold at least need; returns 0 or
** -1 when out of memory. */
static int grow(void **arr, size_t *cap, size_t need, size_t el)
{
    if (need <= *cap)
        return 0;
    size_t c = *cap ? *cap * 2 : 16;
    while (c < need)
        c *= 2;
    void *p = realloc(*arr, c * el);
    if (p == NULL)
        return -1;
    *arr = p;
    *cap = c;
    return 0;
}

/* Reads the current row of s into row (zeroed); returns LAD_OK, or an error
** code with err filled. */
typedef int (*row_reader)(lad_store *st, sqlite3_stmt *s, void *row, lad_err *err);

/*
** Every list the store hands out is read the same way: step the bound
** statement s to its end, append one element of size el to *arr per row
** (zeroed, counted in *n, then filled by read), finalize s. On an error the
** elements read so far stay in *arr for the caller's free function.
*/
static int read_rows(lad_store *st, sqlite3_stmt *s, void **arr, size_t *n, size_t el,
                     row_reader read, lad_err *err)
{
    size_t cap = 0;
    int code = LAD_OK, rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        if (grow(arr, &cap, *n + 1, el)) {
            code = lad_errf(err, LAD_EINTERNAL, "out of memory");
            break;
        }
        void *row = (char *)*arr + *n * el;
        memset(row, 0, el);
        (*n)++;
        if ((code = read(st, s, row, err)) != LAD_OK)
            break;
    }
    if (code == LAD_OK && rc != SQLITE_DONE)
        code = sqlerr(st, err, "read");
    sqlite3_finalize(s);
    return code;
}

/* prepare() with ?1 bound to id. */
static int query(lad_store *st, const char *sql, int64_t id, sqlite3_stmt **s, lad_err *err)
{
    int code = prepare(st, sql, s, err);
    if (code == LAD_OK)
        sqlite3_bind_int64(*s, 1, id);
    return code;
}

static int read_run_row(lad_store *st, sqlite3_stmt *s, void *row, lad_err *err)
{
    (void)err;
    read_run(st, s, row);
    return LAD_OK;
}

static int read_id(lad_store *st, sqlite3_stmt *s, void *row, lad_err *err)
{
    (void)st;
    (void)err;
    *(int64_t *)row = sqlite3_column_int64(s, 0);
    return LAD_OK;
}

static int oom_if(int missing, lad_err *err)
{
    return missing ? lad_errf(err, LAD_EINTERNAL, "out of memory") : LAD_OK;
}

static int read_rung(lad_store *st, sqlite3_stmt *s, void *row, lad_err *err)
{
    (void)st;
    (void)err;
    lad_rung_row *g = row;
    col_text(s, 0, g->name, sizeof g->name);
    g->ncases = sqlite3_column_int64(s, 1);
    g->first_case = sqlite3_column_int64(s, 2);
    g->last_case = sqlite3_column_int64(s, 3);
    return LAD_OK;
}

static int read_obs(lad_store *st, sqlite3_stmt *s, void *row, lad_err *err)
{
    (void)st;
    lad_obs_row *o = row;
    o->id = sqlite3_column_int64(s, 0);
    col_text(s, 1, o->rung, sizeof o->rung);
    o->key = col_dup(s, 2);
    o->value = col_dup(s, 3);
    return oom_if(!o->key || !o->value, err);
}

static int read_inference(lad_store *st, sqlite3_stmt *s, void *row, lad_err *err)
{
    (void)st;
    lad_inference_row *f = row;
    f->id = sqlite3_column_int64(s, 0);
    f->parameter = col_dup(s, 1);
    f->value = col_dup(s, 2);
    f->method = col_dup(s, 3);
    return oom_if(!f->parameter || !f->value || !f->method, err);
}

static int read_validation(lad_store *st, sqlite3_stmt *s, void *row, lad_err *err)
{
    (void)st;
    lad_validation_row *v = row;
    v->id = sqlite3_column_int64(s, 0);
    v->model = col_dup(s, 1);
    v->generator = col_dup(s, 2);
    v->seed = (uint64_t)sqlite3_column_int64(s, 3);
    v->cases = sqlite3_column_int64(s, 4);
    v->mismatches = sqlite3_column_int64(s, 5);
    v->stored = sqlite3_column_int64(s, 6);
    return oom_if(!v->model || !v->generator, err);
}

static int read_case(lad_store *st, sqlite3_stmt *s, void *row, lad_err *err)
{
    lad_case_row *r = row;
    r->id = sqlite3_column_int64(s, 0);
    col_text(s, 1, r->rung, sizeof r->rung);
    col_text(s, 2, r->label, sizeof r->label);
    r->cs.c = (uint32_t)sqlite3_column_int64(s, 6);
    r->d = (uint32_t)sqlite3_column_int64(s, 7);
    uint32_t sa[LAD_SCALEMAX], sb[LAD_SCALEMAX];
    int ka = parse_words((const char *)sqlite3_column_text(s, 4), r->cs.a, LAD_KMAX);
    int kb = parse_words((const char *)sqlite3_column_text(s, 5), r->cs.b, LAD_KMAX);
    int na = parse_words((const char *)sqlite3_column_text(s, 8), sa, LAD_SCALEMAX);
    int nb = parse_words((const char *)sqlite3_column_text(s, 9), sb, LAD_SCALEMAX);
    int nm = parse_words((const char *)sqlite3_column_text(s, 10), r->cs.meta, LAD_METAMAX);
    if (ka < 0 || kb != ka || na < 0 || nb != na || nm < 0)
        return lad_errf(err, LAD_EDATA, "'%s': case %lld has malformed words", st->path,
                        (long long)r->id);
    for (int i = 0; i < na; i++) {
        if (sa[i] > 255 || sb[i] > 255)
            return lad_errf(err, LAD_EDATA, "'%s': case %lld has a scale above 255",
                            st->path, (long long)r->id);
        r->cs.sa[i] = (uint8_t)sa[i];
        r->cs.sb[i] = (uint8_t)sb[i];
    }
    r->k = ka;
    r->nscale = na;
    r->nmeta = nm;
    return LAD_OK;
}

int lad_store_history(lad_store *st, const lad_history_filter *f,
                      lad_run_row **rows, size_t *n, lad_err *err)
{
    *rows = NULL;
    *n = 0;
    sqlite3_stmt *s = NULL;
    int code = prepare(st,
                       RUN_COLUMNS
                       "WHERE (?1 IS NULL OR instr(lower(d.name), lower(?1)) "
                       "> 0) AND (?2 IS NULL OR lower(?2) IN (r.fmt_a, "
                       "r.fmt_b, r.fmt_c, r.fmt_d)) AND (?3 IS NULL OR ?3 IN "
                       "(r.instr, r.kind, r.sass, r.sass_expected, "
                       "r.datapath)) ORDER BY r.id DESC LIMIT ?4",
                       &s, err);
    if (code)
        return code;
    if (f && f->gpu)
        bind_text(s, 1, f->gpu);
    if (f && f->format)
        bind_text(s, 2, f->format);
    if (f && f->instruction)
        bind_text(s, 3, f->instruction);
    sqlite3_bind_int64(s, 4, f && f->limit > 0 ? f->limit : -1);
    code = read_rows(st, s, (void **)rows, n, sizeof **rows, read_run_row, err);
    if (code) {
        free(*rows);
        *rows = NULL;
        *n = 0;
    }
    return code;
}

int lad_store_run(lad_store *st, int64_t run, lad_run_row *row, lad_err *err)
{
    sqlite3_stmt *s = NULL;
    int code = prepare(st, RUN_COLUMNS "WHERE r.id = ?1", &s, err);
    if (code)
        return code;
    sqlite3_bind_int64(s, 1, run);
    int rc = sqlite3_step(s);
    if (rc == SQLITE_ROW)
        read_run(st, s, row);
    else if (rc == SQLITE_DONE)
        code = lad_errf(err, LAD_EDATA, "no run %lld in '%s'",
                        (long long)run, st->path);
    else
        code = sqlerr(st, err, "read");
    sqlite3_finalize(s);
    return code;
}

/* Reads the case ids linked to owner through sql (?1 = owner). */
static int read_ids_list(lad_store *st, const char *sql, int64_t owner,
                         int64_t **ids, size_t *n, lad_err *err)
{
    *ids = NULL;
    *n = 0;
    sqlite3_stmt *s = NULL;
    int code = query(st, sql, owner, &s, err);
    if (code == LAD_OK)
        code = read_rows(st, s, (void **)ids, n, sizeof **ids, read_id, err);
    return code;
}

void lad_show_free(lad_show *s)
{
    if (s == NULL)
        return;
    for (size_t i = 0; i < s->nobs; i++) {
        free(s->obs[i].key);
        free(s->obs[i].value);
        free(s->obs[i].cases);
    }
    for (size_t i = 0; i < s->ninf; i++) {
        free(s->inf[i].parameter);
        free(s->inf[i].value);
        free(s->inf[i].method);
        free(s->inf[i].cases);
    }
    for (size_t i = 0; i < s->nval; i++) {
        free(s->val[i].model);
        free(s->val[i].generator);
    }
    free(s->rungs);
    free(s->obs);
    free(s->inf);
    free(s->val);
    memset(s, 0, sizeof *s);
}

int lad_store_show(lad_store *st, int64_t run, lad_show *out, lad_err *err)
{
    memset(out, 0, sizeof *out);
    int code = lad_store_run(st, run, &out->run, err);
    sqlite3_stmt *s = NULL;

    /* Rungs with their case counts. */
    if (code == LAD_OK)
        code = query(st,
                     "SELECT g.name, count(c.id), coalesce(min(c.id), 0), "
                     "coalesce(max(c.id), 0) FROM rungs AS g LEFT JOIN "
                     "cases AS c ON c.run_id = g.run_id AND c.rung = "
                     "g.name WHERE g.run_id = ?1 GROUP BY g.id ORDER BY "
                     "g.id",
                     run, &s, err);
    if (code == LAD_OK)
        code = read_rows(st, s, (void **)&out->rungs, &out->nrungs, sizeof *out->rungs,
                         read_rung, err);

    /* Observations, with the cases behind each. */
    if (code == LAD_OK)
        code = query(st, "SELECT id, rung, key, value FROM observations "
                         "WHERE run_id = ?1 ORDER BY id",
                     run, &s, err);
    if (code == LAD_OK)
        code = read_rows(st, s, (void **)&out->obs, &out->nobs, sizeof *out->obs, read_obs,
                         err);
    for (size_t i = 0; code == LAD_OK && i < out->nobs; i++)
        code = read_ids_list(st,
                             "SELECT case_id FROM observation_cases WHERE "
                             "observation_id = ?1 ORDER BY case_id",
                             out->obs[i].id, &out->obs[i].cases,
                             &out->obs[i].ncases, err);

    /* Inferences, with the cases behind each. */
    if (code == LAD_OK)
        code = query(st, "SELECT id, parameter, value, method FROM "
                         "inferences WHERE run_id = ?1 ORDER BY id",
                     run, &s, err);
    if (code == LAD_OK)
        code = read_rows(st, s, (void **)&out->inf, &out->ninf, sizeof *out->inf,
                         read_inference, err);
    for (size_t i = 0; code == LAD_OK && i < out->ninf; i++)
        code = read_ids_list(st,
                             "SELECT case_id FROM inference_cases WHERE "
                             "inference_id = ?1 ORDER BY case_id",
                             out->inf[i].id, &out->inf[i].cases,
                             &out->inf[i].ncases, err);

    /* Validations. */
    if (code == LAD_OK)
        code = query(st,
                     "SELECT v.id, v.model, v.generator, v.seed, "
                     "coalesce(v.cases, -1), coalesce(v.mismatches, -1), "
                     "(SELECT count(*) FROM mismatches AS m WHERE "
                     "m.validation_id = v.id) FROM validations AS v "
                     "WHERE v.run_id = ?1 ORDER BY v.id",
                     run, &s, err);
    if (code == LAD_OK)
        code = read_rows(st, s, (void **)&out->val, &out->nval, sizeof *out->val,
                         read_validation, err);
    if (code)
        lad_show_free(out);
    return code;
}

int lad_store_cases(lad_store *st, int64_t run, const char *rung,
                    lad_case_row **rows, size_t *n, lad_err *err)
{
    *rows = NULL;
    *n = 0;
    sqlite3_stmt *s = NULL;
    int code = prepare(st,
                       "SELECT id, rung, label, k, a, b, c, d, sa, sb, meta "
                       "FROM cases WHERE run_id = ?1 AND (?2 IS NULL OR "
                       "rung = ?2) ORDER BY id",
                       &s, err);
    if (code)
        return code;
    sqlite3_bind_int64(s, 1, run);
    if (rung)
        bind_text(s, 2, rung);
    code = read_rows(st, s, (void **)rows, n, sizeof **rows, read_case, err);
    if (code) {
        free(*rows);
        *rows = NULL;
        *n = 0;
    }
    return code;
}
