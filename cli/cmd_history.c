/*
** ladder history: the runs in a store, newest first.
**
**     ladder history [--db FILE] [--gpu NAME] [--arch A] [--operand-format F]
**                    [--instruction I] [--status S] [--since DATE]
**                    [--until DATE] [--limit N] [--json]
**     ladder history --surveys [--db FILE] [--arch A] [--status S]
**                    [--since DATE] [--until DATE] [--limit N] [--json]
**
** One line per run: id, status, start time (UTC), cases stored, the
** mismatches and cases of the validations stored with it, device, datapath
** and command. A run whose process died without ending it reads
** 'interrupted' (opening the store marks it so). --json prints an array of
** run objects (docs/commands/history.md gives the fields). --surveys lists
** the surveys instead: id, start, device, arch, datapaths as their preset
** of those surveyed, and the status ("interrupted after 10 of 47
** datapaths" for one whose process died).
*/
#include "cli.h"
#include "commands.h"
#include "json.h"
#include "runview.h"
#include "surveyview.h"
#include "model/format.h"
#include "model/presets.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* The unix time of 00:00 UTC on YYYY-MM-DD (days_from_civil, H. Hinnant:
** integers only, no time zone involved). Returns LAD_OK or a usage error. */
static int parse_date(const char *s, const char *what, int64_t *t)
{
    int y, m, d;
    char end;
    static const int mdays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (strlen(s) != 10 || s[4] != '-' || s[7] != '-' ||
        strspn(s, "0123456789-") != 10 ||
        sscanf(s, "%4d-%2d-%2d%c", &y, &m, &d, &end) != 3 || y < 1970 || m < 1 ||
        m > 12 || d < 1 || d > mdays[m - 1] ||
        (m == 2 && d == 29 && (y % 4 || (y % 100 == 0 && y % 400))))
        return cli_usage_error("%s must be a date YYYY-MM-DD, not '%s'", what, s);
    int yy = m <= 2 ? y - 1 : y;
    int era = yy / 400, yoe = yy - era * 400;
    int doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    int doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    *t = ((int64_t)era * 146097 + doe - 719468) * 86400;
    return LAD_OK;
}

/* history --surveys: every survey, newest first, filtered by --arch,
** --status, --since, --until and --limit. */
static int list_surveys(lad_store *st, const lad_history_filter *f, int json)
{
    lad_survey_row *rows = NULL;
    size_t n = 0;
    lad_err err = {0};
    if (lad_store_surveys(st, 0, &rows, &n, &err) != LAD_OK)
        return cli_report(&err);
    int shown = 0;
    if (json)
        putchar('[');
    for (size_t k = n; k-- > 0;) {
        const lad_survey_row *s = &rows[k];
        if ((f->status && s->status != f->status - 1) || (f->since && s->started < f->since) ||
            (f->until && s->started >= f->until) ||
            (f->arch && strncmp(s->arch, f->arch, strlen(f->arch)) != 0) ||
            (f->limit && shown >= f->limit))
            continue;
        if (json) {
            lad_survey_dp *dps = NULL;
            size_t nd = 0;
            if (lad_store_survey_get(st, s->id, &dps, &nd, &err) != LAD_OK) {
                free(rows);
                return cli_report(&err);
            }
            fputs(shown ? ",\n " : "", stdout);
            cli_survey_json(stdout, s, dps, (int)nd);
            free(dps);
        } else {
            if (shown == 0)
                printf("%5s %-19s %-24s %-10s %-16s %s\n", "ID", "STARTED (UTC)", "DEVICE",
                       "ARCH", "AS PRESET", "STATUS");
            char t[32], as[40], st2[80];
            snprintf(as, sizeof as, "%d of %d", s->good, s->done);
            printf("%5" PRId64 " %-19s ", s->id, cli_time(s->started, t, sizeof t));
            column(s->device, 24);
            column(s->arch, 10);
            column(as, 16);
            printf("%s\n", cli_survey_status(s, st2, sizeof st2));
        }
        shown++;
    }
    if (json)
        puts("]");
    else if (shown == 0)
        printf("%s\n", n ? "no surveys match" : "no surveys in the store");
    free(rows);
    if (fflush(stdout) != 0)
        return cli_error(LAD_EINTERNAL, "cannot write the history");
    return 0;
}

/* The command the run's command line names ("survey" for a survey's runs,
** which are stored as runs): its first word, or its second after a first
** "ladder" or ".../ladder"; else the stored subcommand. Into buf. */
static const char *command_of(const lad_run_row *r, char *buf, size_t size)
{
    const char *p = r->argv;
    for (int word = 0; word < 2 && strncmp(p, word ? ",\"" : "[\"", 2) == 0; word++) {
        p += 2;
        size_t n = strcspn(p, "\"\\");
        if (p[n] != '"' || n == 0 || n >= size)
            break;
        snprintf(buf, size, "%.*s", (int)n, p);
        const char *slash = strrchr(buf, '/');
        if (strcmp(slash ? slash + 1 : buf, "ladder") != 0)
            return buf;
        p += n + 1;
        while (*p == ' ')
            p++;
    }
    snprintf(buf, size, "%s", r->command[0] ? r->command : "-");
    return buf;
}

/* True when a preset's arch is arch or starts with it (sm_90 of sm_90a). */
static int arch_known(const char *arch)
{
    for (int i = 0; i < lad_preset_count(); i++)
        if (strncmp(lad_preset_get(i)->dp.arch, arch, strlen(arch)) == 0)
            return 1;
    return 0;
}

int cmd_history(int argc, char **argv)
{
    const char *db = LAD_STORE_DEFAULT, *gpu = NULL, *format = NULL;
    const char *instruction = NULL, *limit = NULL, *json = NULL, *arch = NULL;
    const char *status = NULL, *since = NULL, *until = NULL, *surveys = NULL;
    const char *quiet = NULL; /* -q: nothing to quiet (cli/commands.def) */
    cli_opt opts[] = {
        {"db", 0, 1, &db},
        {"surveys", 0, 0, &surveys},
        {"gpu", 0, 1, &gpu},
        {"arch", 0, 1, &arch},
        {"status", 0, 1, &status},
        {"since", 0, 1, &since},
        {"until", 0, 1, &until},
        {"operand-format", 0, 1, &format},
        {"instruction", 0, 1, &instruction},
        {"limit", 0, 1, &limit},
        {"json", 0, 0, &json},
        {"quiet", 'q', 0, &quiet}, {NULL, 0, 0, NULL},
    };
    char *pos[1];
    int npos;
    int code = cli_parse(argc, argv, opts, pos, &npos, 0, 0, NULL);
    if (code)
        return code == CLI_HELP ? 0 : code;
    lad_history_filter f = {gpu, format, instruction, arch, 0, 0, 0, 0};
    lad_format fmt;
    if (format && (code = cli_format(format, &fmt)) != LAD_OK)
        return code;
    if (status) {
        for (int i = 0; i <= LAD_RUN_INTERRUPTED && !f.status; i++)
            if (strcmp(status, lad_run_status_name(i)) == 0)
                f.status = i + 1;
        if (!f.status)
            return cli_usage_error("--status must be running, ok, failed or "
                                   "interrupted, not '%s'", status);
    }
    if (since && (code = parse_date(since, "--since", &f.since)) != LAD_OK)
        return code;
    if (until && (code = parse_date(until, "--until", &f.until)) != LAD_OK)
        return code;
    if (until)
        f.until += 86400; /* the whole day */
    uint64_t lim;
    if (limit && (code = cli_number(limit, "--limit", 1, 1000000000, &lim)) != LAD_OK)
        return code;
    if (limit)
        f.limit = (int)lim;

    lad_store *st;
    if ((code = cli_store_open_existing(db, &st)) != LAD_OK)
        return code;
    if (surveys) {
        if (gpu || format || instruction)
            fprintf(stderr, "ladder: history --surveys: --gpu, --format and --instruction "
                            "filter runs; every survey is listed\n");
        code = list_surveys(st, &f, json != NULL);
        lad_store_close(st);
        return code;
    }
    lad_run_row *rows;
    size_t n;
    lad_err err = {0};
    code = lad_store_history(st, &f, &rows, &n, &err);
    lad_store_close(st);
    if (code)
        return cli_report(&err);
    /* an arch that no run and no preset has is a slip: "sm_9O" */
    if (n == 0 && arch && !arch_known(arch)) {
        free(rows);
        return cli_unknown("arch", arch, cli_arch_nearest(arch), "see 'ladder presets'");
    }

    if (json) {
        putchar('[');
        for (size_t i = 0; i < n; i++) {
            fputs(i ? ",\n " : "", stdout);
            cli_run_json(stdout, &rows[i]);
        }
        puts("]");
    } else if (n == 0) {
        int filtered = gpu || format || instruction || arch || status || since || until;
        printf("%s\n", filtered ? "no runs match" : "no runs in the store");
    } else {
        printf("%5s %-11s %-19s %7s %-19s %-24s %-26s %s\n", "ID", "STATUS",
               "STARTED (UTC)", "CASES", "VALIDATED", "DEVICE", "DATAPATH", "COMMAND");
        for (size_t i = 0; i < n; i++) {
            const lad_run_row *r = &rows[i];
            char t[32];
            printf("%5" PRId64 " %-11s %-19s %7" PRId64 " ", r->id,
                   lad_run_status_name(r->status),
                   cli_time(r->started, t, sizeof t), r->ncases);
            /* each validation's mismatches/cases: a survey's run has two */
            column(r->vals, 19);
            /* a simulated device by its spec: its name is the model's */
            column(strcmp(r->device_kind, "sim") == 0 && r->device_spec[0] ? r->device_spec
                                                                          : r->device,
                   24);
            column(r->datapath, 26);
            char cmd[32];
            printf("%s\n", command_of(r, cmd, sizeof cmd));
        }
    }
    free(rows);
    if (fflush(stdout) != 0)
        return cli_error(LAD_EINTERNAL, "cannot write the history");
    return 0;
}
