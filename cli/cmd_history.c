/*
** ladder history: the runs in a store, newest first.
**
**     ladder history [--db FILE] [--gpu NAME] [--format F]
**                    [--instruction I] [--limit N] [--json]
**
** One line per run: id, status, start time (UTC), cases stored, device,
** datapath and command. A run whose process died without ending it reads
** 'interrupted' (opening the store marks it so). --json prints an array of
** run objects (docs/commands/history.md gives the fields).
*/
#include "cli.h"
#include "commands.h"
#include "json.h"
#include "runview.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "usage: ladder history [--db <file>] [--gpu <name>] [--format <f>]\n"
    "                      [--instruction <i>] [--limit <n>] [--json]\n"
    "\n"
    "  --db           the store (default ladder.db)\n"
    "  --gpu          runs on a device whose name contains <name> (any case)\n"
    "  --format       runs whose A, B, C or D format is <f> (e4m3, f16, ...)\n"
    "  --instruction  runs of an instruction (mma.sync, wgmma, tcgen05.mma),\n"
    "                 tcgen05 kind, SASS opcode or datapath name\n"
    "  --limit        the newest <n> runs only, 1..1000000000\n"
    "  --json         a JSON array of runs instead of the table\n";

/* Prints s in a column of width w, cut with '~' when longer. */
static void column(const char *s, int w)
{
    if (*s == 0)
        s = "-";
    int n = (int)strlen(s);
    if (n > w)
        printf("%.*s~ ", w - 1, s);
    else
        printf("%-*s ", w, s);
}

int cmd_history(int argc, char **argv)
{
    const char *db = LAD_STORE_DEFAULT, *gpu = NULL, *format = NULL;
    const char *instruction = NULL, *limit = NULL, *json = NULL;
    cli_opt opts[] = {
        {"db", 0, 1, &db},
        {"gpu", 0, 1, &gpu},
        {"format", 0, 1, &format},
        {"instruction", 0, 1, &instruction},
        {"limit", 0, 1, &limit},
        {"json", 0, 0, &json},
        {NULL, 0, 0, NULL},
    };
    char *pos[1];
    int npos;
    int code = cli_parse(argc, argv, 1, opts, usage, pos, &npos, 0);
    if (code == CLI_HELP)
        return 0;
    if (code)
        return code;
    lad_history_filter f = {gpu, format, instruction, 0};
    uint64_t lim;
    if (limit && (code = cli_number(limit, "--limit", 1, 1000000000, &lim)) != LAD_OK)
        return code;
    if (limit)
        f.limit = (int)lim;

    lad_store *st;
    if ((code = cli_store_open_existing(db, &st)) != LAD_OK)
        return code;
    lad_run_row *rows;
    size_t n;
    lad_err err = {0};
    code = lad_store_history(st, &f, &rows, &n, &err);
    lad_store_close(st);
    if (code)
        return cli_report(&err);

    if (json) {
        putchar('[');
        for (size_t i = 0; i < n; i++) {
            fputs(i ? ",\n " : "", stdout);
            cli_run_json(stdout, &rows[i]);
        }
        puts("]");
    } else if (n > 0) {
        printf("%5s %-11s %-19s %7s %-24s %-26s %s\n", "ID", "STATUS",
               "STARTED (UTC)", "CASES", "DEVICE", "DATAPATH", "COMMAND");
        for (size_t i = 0; i < n; i++) {
            const lad_run_row *r = &rows[i];
            char t[32];
            printf("%5" PRId64 " %-11s %-19s %7" PRId64 " ", r->id,
                   lad_run_status_name(r->status),
                   cli_time(r->started, t, sizeof t), r->ncases);
            column(r->device, 24);
            column(r->datapath, 26);
            printf("%s\n", r->command[0] ? r->command : "-");
        }
    }
    free(rows);
    if (fflush(stdout) != 0)
        return cli_error(LAD_EINTERNAL, "cannot write the history");
    return 0;
}
