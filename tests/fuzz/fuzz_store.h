/*
** Files for the store targets (fuzz_merge, fuzz_migrate): a store is a
** SQLite file that the code under test opens by name, so each input is
** written to a file in a folder of this process's own, under /dev/shm when
** there is one (no disk writes at thousands of inputs a second), and the
** folder is emptied after every input so that one input's -wal or
** leftover cannot reach the next. The folder is removed at exit.
*/
#ifndef LADDER_TESTS_FUZZ_STORE_H
#define LADDER_TESTS_FUZZ_STORE_H

#include <dirent.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"

static char fuzz_dir[256];   /* the folder, "" until made */

static inline void fuzz_dir_clear(void)
{
    DIR *d = opendir(fuzz_dir);
    if (d == NULL)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        char p[600];
        snprintf(p, sizeof p, "%s/%s", fuzz_dir, e->d_name);
        unlink(p);
    }
    closedir(d);
}

static inline void fuzz_dir_remove(void)
{
    fuzz_dir_clear();
    rmdir(fuzz_dir);
}

/* The folder, made on first use; aborts when it cannot be. */
static inline const char *fuzz_dir_get(void)
{
    if (fuzz_dir[0])
        return fuzz_dir;
    struct stat sb;
    const char *base = stat("/dev/shm", &sb) == 0 && S_ISDIR(sb.st_mode) ? "/dev/shm" : "/tmp";
    snprintf(fuzz_dir, sizeof fuzz_dir, "%s/ladder-fuzz-XXXXXX", base);
    if (mkdtemp(fuzz_dir) == NULL)
        fuzz_fail("cannot make a folder under %s", base);
    atexit(fuzz_dir_remove);
    return fuzz_dir;
}

/* Writes size bytes to <folder>/<name>; path receives the path. */
static inline void fuzz_file(const char *name, const uint8_t *data, size_t size, char *path,
                      size_t cap)
{
    snprintf(path, cap, "%s/%s", fuzz_dir_get(), name);
    FILE *f = fopen(path, "wb");
    if (f == NULL || (size && fwrite(data, 1, size, f) != size) || fclose(f) != 0)
        fuzz_fail("cannot write '%s'", path);
}

/* Whether a file exists. */
static inline int fuzz_exists(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0;
}

/* The first result of one statement on a file opened by SQLite alone
** (read-only), as text into out; returns the SQLite code. */
static inline int fuzz_sql_text(const char *path, const char *sql, char *out, size_t cap)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *q = NULL;
    out[0] = 0;
    int rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_prepare_v2(db, sql, -1, &q, NULL);
    if (rc == SQLITE_OK) {
        rc = sqlite3_step(q);
        if (rc == SQLITE_ROW) {
            const unsigned char *t = sqlite3_column_text(q, 0);
            snprintf(out, cap, "%s", t ? (const char *)t : "");
            rc = SQLITE_OK;
        } else if (rc == SQLITE_DONE) {
            rc = SQLITE_OK;
        }
    }
    sqlite3_finalize(q);
    sqlite3_close_v2(db);
    return rc;
}

#endif
