/* Store migration (db/store.c, lad_store_open writable): any bytes as a
** store file of an older schema, opened as a command that writes opens it,
** which migrates it to the current schema. Either it is refused with a
** message, or what is left is a store of this schema: version and
** application id the current ones, every table and column of a fresh
** store (no step skipped by a version that lies), read back read-only; and when the input was a sound SQLite file
** (PRAGMA integrity_check), the migrated one is sound too. */
#include "fuzz.h"
#include "fuzz_store.h"
#include "db/store.h"

/* The tables and columns of a store, "table.column ..." in order. */
static const char columns_sql[] =
    "SELECT group_concat(t.name || '.' || c.name, ' ') FROM "
    "(SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name) t, "
    "pragma_table_info(t.name) c";

static char fresh[16384];   /* a fresh store's columns_sql */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[600], got[16384], before[64];
    lad_err err = {0};
    lad_store *st = NULL;
    if (!fresh[0]) {
        fuzz_file("fresh.db", NULL, 0, path, sizeof path);
        unlink(path);
        if (lad_store_open(path, LAD_STORE_CREATE, &st, &err) != LAD_OK)
            fuzz_fail("cannot make a fresh store: %s", err.msg);
        lad_store_close(st);
        st = NULL;
        if (fuzz_sql_text(path, columns_sql, fresh, sizeof fresh) != SQLITE_OK || !fresh[0])
            fuzz_fail("cannot read the fresh store's columns");
        fuzz_dir_clear();
    }
    fuzz_file("old.db", data, size, path, sizeof path);
    /* whether SQLite finds the input sound, before ladder touches it
    ** (a read-only look; what it leaves beside the file is removed) */
    int sound = fuzz_sql_text(path, "PRAGMA integrity_check", before, sizeof before)
                    == SQLITE_OK && strcmp(before, "ok") == 0;
    char side[620];
    snprintf(side, sizeof side, "%s-wal", path);
    unlink(side);
    snprintf(side, sizeof side, "%s-shm", path);
    unlink(side);

    if (lad_store_open(path, 0, &st, &err) != LAD_OK) {
        if (err.msg[0] == 0)
            fuzz_fail("a refusal without a message");
        fuzz_dir_clear();
        return 0;
    }
    lad_store_close(st);
    st = NULL;
    char v[64];
    if (fuzz_sql_text(path, "PRAGMA user_version", v, sizeof v) != SQLITE_OK ||
        atoi(v) != LAD_STORE_VERSION)
        fuzz_fail("opened writable, but at schema version '%s'", v);
    if (fuzz_sql_text(path, "PRAGMA application_id", v, sizeof v) != SQLITE_OK ||
        atoi(v) != LAD_STORE_APP_ID)
        fuzz_fail("opened writable, but with application id '%s'", v);
    if (fuzz_sql_text(path, columns_sql, got, sizeof got) != SQLITE_OK)
        fuzz_fail("cannot read the migrated store's columns");
    /* every column of a fresh store (a table or column of the user's
    ** own beside them is no matter) */
    char have[16400];
    snprintf(have, sizeof have, " %s ", got);
    for (const char *c = fresh; *c;) {
        size_t n = strcspn(c, " ");
        char want[200];
        snprintf(want, sizeof want, " %.*s ", (int)(n < 190 ? n : 190), c);
        if (strstr(have, want) == NULL)
            fuzz_fail("migrated to schema %d without column '%.*s' of a fresh store",
                      LAD_STORE_VERSION, (int)n, c);
        c += n + (c[n] == ' ');
    }
    if (sound) {
        char after[64];
        if (fuzz_sql_text(path, "PRAGMA integrity_check", after, sizeof after) != SQLITE_OK ||
            strcmp(after, "ok") != 0)
            fuzz_fail("a sound store migrated to an unsound one: %s", after);
    }
    if (lad_store_open(path, LAD_STORE_READONLY, &st, &err) != LAD_OK)
        fuzz_fail("migrated, but refused read-only: %s", err.msg);
    lad_store_close(st);
    fuzz_dir_clear();
    return 0;
}
