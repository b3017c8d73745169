/* `ladder merge` (cli/cmd_merge.c, db/store_merge.c) with shard stores
** made of any bytes. Byte 0: bit 0 gives --partial. The rest is one or more
** shard files: it is cut before every SQLite header ("SQLite format 3" and
** a NUL) after its first byte, at most 8 files, so that a seed of two
** shards of one validation stays two files as it is mutated.
**
** Invariants: the command returns 0 or refuses with exit 3 (never a usage
** error: the command line is always well formed; never 4 or 5); a refusal
** leaves no output store and no temporary store beside it; a merge that
** succeeds leaves an output store that opens read-only and passes
** PRAGMA integrity_check, whose validations count no more mismatches than
** cases and as many as they store; and the shard files are left byte for byte as
** they were (merge only reads them). */
#include "fuzz.h"
#include "fuzz_store.h"
#include "cli/commands.h"
#include "db/store.h"

#include <fcntl.h>

#define MAXSHARDS 8

static const char magic[16] = "SQLite format 3";   /* with its NUL: 16 bytes */

/* Whether the file at path holds exactly size bytes of data. */
static int same_bytes(const char *path, const uint8_t *data, size_t size)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return 0;
    int same = 1;
    size_t i = 0;
    for (int c; (c = getc(f)) != EOF; i++)
        if (i >= size || (uint8_t)c != data[i]) {
            same = 0;
            break;
        }
    fclose(f);
    return same && i == size;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    int partial = data[0] & 1;
    data++, size--;
    const uint8_t *start[MAXSHARDS];
    size_t len[MAXSHARDS];
    int n = 0;
    size_t from = 0;
    for (size_t i = 1; i + sizeof magic <= size && n < MAXSHARDS - 1; i++)
        if (memcmp(data + i, magic, sizeof magic) == 0) {
            start[n] = data + from;
            len[n++] = i - from;
            from = i;
        }
    start[n] = data + from;
    len[n++] = size - from;

    char paths[MAXSHARDS][600], out[600];
    char *argv[3 + MAXSHARDS + 1];
    int argc = 0;
    argv[argc++] = "merge";
    snprintf(out, sizeof out, "%s/out.db", fuzz_dir_get());
    argv[argc++] = out;
    for (int i = 0; i < n; i++) {
        char name[32];
        snprintf(name, sizeof name, "s%d.db", i);
        fuzz_file(name, start[i], len[i], paths[i], sizeof paths[i]);
        argv[argc++] = paths[i];
    }
    if (partial)
        argv[argc++] = "--partial";
    argv[argc] = NULL;

    /* the command's lines on stdout go nowhere, around the call only (the
    ** replay driver prints its count there); its one line of refusal goes
    ** to stderr, which libFuzzer's -close_fd_mask=2 closes */
    fflush(stdout);
    int saved = dup(1), null = open("/dev/null", O_WRONLY);
    if (saved < 0 || null < 0 || dup2(null, 1) < 0)
        fuzz_fail("cannot silence stdout");
    close(null);
    int rc = cmd_merge(argc, argv);
    fflush(stdout);
    if (dup2(saved, 1) < 0)
        fuzz_fail("cannot restore stdout");
    close(saved);
    if (rc != 0 && rc != LAD_EDATA)
        fuzz_fail("merge returned %d", rc);
    for (int i = 0; i < n; i++)
        if (!same_bytes(paths[i], start[i], len[i]))
            fuzz_fail("merge changed its input '%s'", paths[i]);
    DIR *d = opendir(fuzz_dir_get());
    for (struct dirent *e; d && (e = readdir(d)) != NULL;)
        if (strncmp(e->d_name, "out.db.merging-", 15) == 0)
            fuzz_fail("a temporary store is left: '%s'", e->d_name);
    if (d)
        closedir(d);
    if (rc != 0 && fuzz_exists(out))
        fuzz_fail("a refused merge left '%s'", out);
    if (rc == 0) {
        lad_store *st = NULL;
        lad_err err = {0};
        if (lad_store_open(out, LAD_STORE_READONLY, &st, &err) != LAD_OK)
            fuzz_fail("the merged store does not open: %s", err.msg);
        lad_store_close(st);
        char check[64];
        if (fuzz_sql_text(out, "PRAGMA integrity_check", check, sizeof check) != SQLITE_OK ||
            strcmp(check, "ok") != 0)
            fuzz_fail("the merged store is unsound: %s", check);
        /* the counts of what it stores as ok are those it stores */
        if (fuzz_sql_text(out, "SELECT count(*) FROM validations v WHERE v.mismatches < 0 OR "
                               "v.mismatches > v.cases OR v.mismatches != (SELECT count(*) "
                               "FROM mismatches m WHERE m.validation_id = v.id)",
                          check, sizeof check) != SQLITE_OK || strcmp(check, "0") != 0)
            fuzz_fail("the merged store miscounts %s validations", check);
    }
    fuzz_dir_clear();
    return 0;
}
