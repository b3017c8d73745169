/*
** A run's origin: see origin.h. The command line is a JSON array of strings
** (db/schema.sql); SQLite's json_each decodes it, so no JSON parser here.
*/
#include "origin.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The --device of the argument strings of run, as cli/cli.c reads them:
** "--device X" or "--device=X", the last one winning, none after "--". */
static int read_device(sqlite3 *db, int64_t run, char *dev, size_t size)
{
    sqlite3_stmt *s = NULL;
    if (sqlite3_prepare_v2(db,
                           "SELECT j.value FROM runs AS r, json_each(r.argv) AS j "
                           "WHERE r.id = ?1 ORDER BY j.key",
                           -1, &s, NULL) != SQLITE_OK)
        return -1;
    sqlite3_bind_int64(s, 1, run);
    int want = 0, rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        const char *a = (const char *)sqlite3_column_text(s, 0);
        if (a == NULL)
            continue;
        if (want) {
            snprintf(dev, size, "%s", a);
            want = 0;
        } else if (strcmp(a, "--") == 0) {
            break;
        } else if (strcmp(a, "--device") == 0) {
            want = 1;
        } else if (strncmp(a, "--device=", 9) == 0) {
            snprintf(dev, size, "%s", a + 9);
        }
    }
    sqlite3_finalize(s);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : -1;
}

/* The recipe text of run into o; 0 also when it has none, 1 for no such run. */
static int read_recipe(sqlite3 *db, int64_t run, lad_run_origin *o)
{
    sqlite3_stmt *s = NULL;
    if (sqlite3_prepare_v2(db,
                           "SELECT rc.text FROM runs AS r "
                           "LEFT JOIN recipes AS rc ON rc.id = r.recipe_id WHERE r.id = ?1",
                           -1, &s, NULL) != SQLITE_OK)
        return -1;
    sqlite3_bind_int64(s, 1, run);
    int rc = sqlite3_step(s), out = 0;
    if (rc == SQLITE_DONE) {
        out = 1;
    } else if (rc != SQLITE_ROW) {
        out = -1;
    } else if (sqlite3_column_type(s, 0) != SQLITE_NULL) {
        const void *t = sqlite3_column_text(s, 0);
        size_t n = (size_t)sqlite3_column_bytes(s, 0);
        if ((o->recipe = malloc(n + 1)) == NULL) {
            out = -1;
        } else {
            memcpy(o->recipe, t, n);
            o->recipe[n] = 0;
            o->recipe_len = n;
        }
    }
    sqlite3_finalize(s);
    return out;
}

int lad_run_origin_read(const char *path, int64_t run, lad_run_origin *o, lad_err *err)
{
    memset(o, 0, sizeof *o);
    sqlite3 *db = NULL;
    int rc = LAD_OK;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
        rc = lad_errf(err, LAD_EDATA, "cannot read the store '%s': %s", path,
                      db ? sqlite3_errmsg(db) : "out of memory");
        goto done;
    }
    sqlite3_busy_timeout(db, 10000);
    int r = read_recipe(db, run, o);
    if (r == 1)
        rc = lad_errf(err, LAD_EDATA, "%s: no run %lld", path, (long long)run);
    else if (r < 0 || read_device(db, run, o->device, sizeof o->device) < 0)
        rc = lad_errf(err, LAD_EDATA, "cannot read run %lld of the store '%s': %s",
                      (long long)run, path, sqlite3_errmsg(db));
done:
    sqlite3_close(db);
    if (rc != LAD_OK)
        lad_run_origin_free(o);
    return rc;
}

void lad_run_origin_free(lad_run_origin *o)
{
    free(o->recipe);
    o->recipe = NULL;
    o->recipe_len = 0;
}
