/* Store migration (db/store.c, lad_store_open writable): any bytes as a
** store file of an older schema, opened as a command that writes opens it,
** which migrates it to the current schema. Either it is refused with a
** message, or what is left is a store of this schema: version and
** application id the current ones, read back read-only; and when the input
** was a sound SQLite file (PRAGMA integrity_check), the migrated one is
** sound too. A store whose tables lack a column (its schema text edited,
** or a version that skips steps) migrates as far as its SQL goes, and is
** then refused: its tables are not as ladder creates them
** (docs/robustness.md). */
#include "fuzz.h"
#include "fuzz_store.h"
#include "db/store.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[600], before[64];
    lad_err err = {0};
    lad_store *st = NULL;
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
