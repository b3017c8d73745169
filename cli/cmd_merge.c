/*
** ladder merge: the stores of the shards of a validation or survey, made
** one.
**
**     ladder merge OUT.db SHARD.db... [--partial]
**
** Each SHARD.db was written by `ladder validate --shard I/N` or `ladder
** survey --shard I/N` (any number of each, the same in every file: the j-th
** sharded validation of each file are shards of one). OUT.db is a new
** store holding every run of the shards with its device, build and recipe,
** a run of its own (command "merge") and, of each sharded validation or
** survey, one merged row of that run whose counts are the unsharded run's,
** with the shard each part came from in merge_parts (lad_store_merge).
**
** OUT.db is written beside itself under a temporary name,
** OUT.db.merging-<host>-<pid>, and renamed when everything is in: a
** refused or failed merge leaves no OUT.db. A merge that was killed leaves
** its temporary store (and its -wal and -shm); the next merge into OUT.db
** removes those of this host whose process is gone, saying so on stderr.
**
** Output: one line per merged validation or survey, then
**     merge: <runs> runs from <files> files into <out>
** Exit 0; 2 usage; 3 refused (the message names the files).
*/
#include "cli.h"
#include "commands.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "db/store.h"

#define MAXFILES CLI_SHARD_MAX

/* Removes a store file and its WAL companions. */
static void remove_store(const char *path)
{
    char p[4200];
    const char *ext[] = {"", "-wal", "-shm", "-journal"};
    for (int i = 0; i < 4; i++) {
        snprintf(p, sizeof p, "%s%s", path, ext[i]);
        unlink(p);
    }
}

/* The pid in a temporary store's name "<base>.merging-[<host>-]<pid>[-wal|
** -shm|-journal]" (the name without <base>.merging-: tail), when it is of
** this host (or names none, as merges before the host was named did);
** else 0. */
static long leftover_pid(const char *tail, const char *host)
{
    char t[512];
    snprintf(t, sizeof t, "%s", tail);
    const char *ext[] = {"-wal", "-shm", "-journal"};
    size_t n = strlen(t);
    for (int i = 0; i < 3; i++) {
        size_t l = strlen(ext[i]);
        if (n > l && strcmp(t + n - l, ext[i]) == 0) {
            t[n - l] = 0;
            break;
        }
    }
    char *dash = strrchr(t, '-');
    const char *digits = dash ? dash + 1 : t;
    if (dash && (strlen(host) != (size_t)(dash - t) || strncmp(t, host, (size_t)(dash - t)) != 0))
        return 0;
    if (*digits == 0 || strlen(digits) > 9)
        return 0;
    for (const char *c = digits; *c; c++)
        if (*c < '0' || *c > '9')
            return 0;
    return strtol(digits, NULL, 10);
}

/* Removes what killed merges into out left behind: the temporary stores of
** this host whose process no longer exists. */
static void remove_leftovers(const char *out, const char *host)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", out);
    char *slash = strrchr(dir, '/');
    const char *base = slash ? slash + 1 : out;
    if (slash)
        slash[slash == dir ? 1 : 0] = 0;
    else
        snprintf(dir, sizeof dir, ".");
    char prefix[600];
    snprintf(prefix, sizeof prefix, "%s.merging-", base);
    size_t pl = strlen(prefix);
    DIR *d = opendir(dir);
    if (d == NULL)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strncmp(e->d_name, prefix, pl) != 0)
            continue;
        long pid = leftover_pid(e->d_name + pl, host);
        if (pid <= 0 || pid == (long)getpid() || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            continue;
        char path[4400];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (unlink(path) == 0)
            fprintf(stderr, "ladder: removed '%s', left by merge process %ld, which is "
                    "gone\n", path, pid);
    }
    closedir(d);
}

/* Each input opens as a ladder store of this schema, and none is given
** twice (the same file merged twice would be its shards twice over). */
static int check_inputs(char **files, int n, lad_err *err)
{
    struct stat *sts = calloc((size_t)n, sizeof *sts);
    if (sts == NULL)
        return lad_errf(err, LAD_EINTERNAL, "out of memory");
    int rc = LAD_OK;
    for (int i = 0; rc == LAD_OK && i < n; i++) {
        lad_store *st = NULL;
        if (stat(files[i], &sts[i]) != 0)
            rc = lad_errf(err, LAD_EDATA, "cannot open '%s'", files[i]);
        for (int j = 0; rc == LAD_OK && j < i; j++)
            if (sts[i].st_dev == sts[j].st_dev && sts[i].st_ino == sts[j].st_ino)
                rc = lad_errf(err, LAD_EDATA, "'%s' and '%s' are one file", files[j], files[i]);
        if (rc == LAD_OK)
            rc = lad_store_open(files[i], LAD_STORE_READONLY, &st, err);
        lad_store_close(st);
    }
    free(sts);
    return rc;
}

int cmd_merge(int argc, char **argv)
{
    const char *partial = NULL;
    const char *quiet = NULL; /* -q: nothing to quiet (cli/commands.def) */
    cli_opt opts[] = {{"partial", 0, 0, &partial}, {"quiet", 'q', 0, &quiet}, {NULL, 0, 0, NULL}};
    static char *pos[1 + MAXFILES];
    int npos = 0;
    int rc = cli_parse(argc, argv, opts, pos, &npos, 2, 1 + MAXFILES,
                       "merge needs an output store and at least one shard; see "
                       "'ladder merge --help'");
    if (rc)
        return rc == CLI_HELP ? 0 : rc;
    const char *out = pos[0];
    char **files = pos + 1;
    int nfiles = npos - 1;
    struct stat sb;
    if (lstat(out, &sb) == 0)
        return cli_error(LAD_EDATA, "'%s' exists; merge writes a new store", out);
    for (int i = 0; i < nfiles; i++)
        if ((rc = cli_output_not_store(out, files[i])) != LAD_OK)
            return rc;

    /* --partial merges what there is: a shard file that is not there
    ** (its task never ran, or failed before writing) is skipped. */
    int kept = 0;
    for (int i = 0; i < nfiles; i++) {
        if (partial && stat(files[i], &sb) != 0 && errno == ENOENT) {
            printf("merge: skipped '%s': no such file\n", files[i]);
            continue;
        }
        files[kept++] = files[i];
    }
    nfiles = kept;
    if (nfiles == 0)
        return cli_error(LAD_EDATA, "no shard file is there: nothing to merge");

    lad_err err = {0};
    char host[256] = "";
    if (gethostname(host, sizeof host - 1) != 0 || strchr(host, '/'))
        snprintf(host, sizeof host, "unknown");
    remove_leftovers(out, host);
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.merging-%s-%ld", out, host, (long)getpid());
    lad_store *st = NULL;
    lad_merge_result res = {0};
    int64_t run = 0;
    rc = check_inputs(files, nfiles, &err);
    if (rc == LAD_OK)
        rc = lad_store_open(tmp, LAD_STORE_CREATE, &st, &err);
    if (rc == LAD_OK) {
        lad_run_info info = {0};
        info.command = "merge";
        info.argc = argc;
        info.argv = argv;
        info.version = LADDER_VERSION;
        info.dirty = -1;
        rc = lad_store_begin_run(st, &info, &run, &err);
    }
    if (rc == LAD_OK)
        rc = lad_store_merge(st, run, files, (size_t)nfiles, partial != NULL, &res, &err);
    if (rc == LAD_OK)
        rc = lad_store_end_run(st, run, LAD_RUN_OK, NULL, &err);
    lad_store_close(st);
    if (rc == LAD_OK && rename(tmp, out) != 0)
        rc = lad_errf(&err, LAD_EDATA, "cannot write '%s'", out);
    if (rc != LAD_OK) {
        remove_store(tmp);
        free(res.groups);
        return cli_report(&err);
    }
    if (res.skipped && res.skipped[0]) {
        /* "'x.db': validation 3 (shard 1/4) is unfinished ..." per line */
        for (char *line = res.skipped, *nl; *line; line = nl + 1) {
            nl = strchr(line, '\n');
            printf("merge: skipped %.*s\n", (int)(nl - line), line);
        }
    }
    free(res.skipped);
    for (size_t i = 0; i < res.ngroups; i++) {
        const lad_merge_group *g = &res.groups[i];
        if (g->survey)
            printf("merge: survey %" PRId64 " (%s): %d of %d shards, %" PRId64
                   " datapaths, %" PRId64 " not as their preset\n",
                   g->id, g->what, g->parts, g->count, g->cases, g->bad);
        else
            printf("merge: validation %" PRId64 " (%s): %d of %d shards, %" PRId64 "/%" PRId64
                   " mismatches, stream of %" PRId64 " cases\n",
                   g->id, g->what, g->parts, g->count, g->bad, g->cases, g->stream);
    }
    printf("merge: %" PRId64 " runs from %d files into %s\n", res.runs, nfiles, out);
    free(res.groups);
    return LAD_OK;
}
