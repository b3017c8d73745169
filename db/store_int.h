/*
** What the store's three files share and nothing outside db/ sees: the
** lad_store object itself and the small SQLite helpers every statement goes
** through. db/store.c opens, migrates and closes a store and begins runs;
** db/store_write.c writes everything a run adds after that; db/store_read.c
** reads it back.
*/
#ifndef LADDER_DB_STORE_INT_H
#define LADDER_DB_STORE_INT_H

#include <sqlite3.h>
#include "store.h"

/* The time in unix seconds, in SQL (unixepoch() needs SQLite 3.38). */
#define NOW_SQL "CAST(strftime('%s', 'now') AS INTEGER)"

struct lad_store {
    sqlite3 *db;
    char *path;              /* as given to lad_store_open */
    int readonly;            /* opened with LAD_STORE_READONLY */
    int marked;              /* runs marked interrupted by open */
    char host[128];          /* this machine's host name */
    sqlite3_stmt *ins_case;  /* prepared once, reused by every batch */
    sqlite3_stmt *ins_rung;
    sqlite3_stmt *ins_mismatch;
    const char *step;        /* the open step's commit point, NULL: none */
    int depth;               /* steps begun inside it (savepoints) */
    int busy_ms;             /* longest wait for another writer's lock, ms;
                                -2: no limit (the default) */
    long long busy_since;    /* when the current wait began, ms (monotonic) */
};

/* Records SQLite's current error ("cannot <what> 'path': message"):
** LAD_EDATA for a damaged file (SQLITE_CORRUPT, SQLITE_NOTADB), else
** LAD_EINTERNAL. Returns the code. */
int st_sqlerr(lad_store *st, lad_err *err, const char *what);

/* Runs sql (no rows); st_sqlerr on failure. */
int st_exec(lad_store *st, const char *sql, const char *what, lad_err *err);

/* BEGIN IMMEDIATE and COMMIT; the store opens every transaction itself.
** Within a step (lad_store_step_begin) both do nothing: the step's end
** commits. point names the commit point (util/hooks.h, docs/store.md). */
int st_begin(lad_store *st, lad_err *err);
int st_commit(lad_store *st, const char *point, lad_err *err);

/* The crash point of a write that commits by itself (one statement in
** autocommit mode); nothing within a step. */
void st_point(lad_store *st, const char *point);

/* Rolls back after a failure (the failure is already recorded); within a
** step, the whole step, which ends. */
void st_rollback(lad_store *st);

/* Prepares sql into *out (NULL on failure). */
int st_prepare(lad_store *st, const char *sql, sqlite3_stmt **out,
               lad_err *err);

/* Steps a statement that returns no row, then resets it. */
int st_step_done(lad_store *st, sqlite3_stmt *s, const char *what,
                 lad_err *err);

/* Binds t as text (NULL as ""). */
void st_bind_text(sqlite3_stmt *s, int i, const char *t);

/* Copies column i as text into buf (truncated; "" for NULL). */
void st_col_text(sqlite3_stmt *s, int i, char *buf, size_t size);

/* Column i as malloc'd text ("" for NULL); NULL when out of memory. */
char *st_col_dup(sqlite3_stmt *s, int i);

/* The status a run row reads as (enum lad_run_status): 'running' on this
** host with its process gone is 'interrupted'. */
int st_live_status(lad_store *st, const char *status, const char *host,
                   int64_t pid, int64_t pid_start);

/* Start time of process pid in clock ticks since boot, 0 unknown: tells a
** live process from a later one that got the same pid. */
int64_t st_proc_start(long pid);

/* LAD_EINTERNAL unless the store was opened for writing. */
int st_writable(lad_store *st, lad_err *err);

#endif
