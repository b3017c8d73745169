/*
** What comes of the command table, cli/commands.def: each command's
** --help, the list of `ladder help`, the check that a command's parser and
** its rows agree, the Markdown of docs/commands/ and the bash completion.
** See cli.h.
*/
#include "cli.h"

#include <stdio.h>
#include <string.h>

enum { ROW_CMD, ROW_ARG, ROW_OPT, ROW_NOTE };

typedef struct row {
    int kind;
    const char *cmd;
    const char *name;  /* OPT: the long name; ARG: "<run>" */
    char short_name;   /* OPT: 'o', or 0 */
    const char *arg;   /* OPT: "<file>", NULL for a flag; CMD: the synopsis */
    const char *text;  /* CMD: the summary; others: the help */
    const char *about; /* CMD: the paragraphs of --help */
} row;

static const row rows[] = {
#define CMD(n, summary, synopsis, about) {ROW_CMD, #n, NULL, 0, synopsis, summary, about},
#define ARG(n, name, help) {ROW_ARG, #n, name, 0, NULL, help, NULL},
#define OPT(n, name, s, arg, help) {ROW_OPT, #n, name, s, arg, help, NULL},
#define NOTE(n, text) {ROW_NOTE, #n, NULL, 0, NULL, text, NULL},
#include "commands.def"
};

#define NROWS ((int)(sizeof rows / sizeof rows[0]))

static const row *command(const char *name)
{
    for (int i = 0; i < NROWS; i++)
        if (rows[i].kind == ROW_CMD && strcmp(rows[i].cmd, name) == 0)
            return &rows[i];
    return NULL;
}

const char *cli_command_summary(const char *name)
{
    const row *c = command(name);
    return c ? c->text : NULL;
}

/* "-o, --output <file>", "--db <file>", "<run>" into buf. */
static const char *label(const row *r, char *buf, size_t size)
{
    const char *sp = r->arg ? " " : "", *arg = r->arg ? r->arg : "";
    if (r->kind == ROW_ARG)
        snprintf(buf, size, "%s", r->name);
    else if (r->short_name)
        snprintf(buf, size, "-%c, --%s%s%s", r->short_name, r->name, sp, arg);
    else
        snprintf(buf, size, "--%s%s%s", r->name, sp, arg);
    return buf;
}

/* Prints text's lines, the first after what is already on the line, the
** others indented by col. */
static void indented(FILE *f, const char *text, int col)
{
    for (const char *p = text; *p;) {
        size_t n = strcspn(p, "\n");
        fprintf(f, "%.*s\n", (int)n, p);
        p += n;
        if (*p == '\n' && *++p)
            fprintf(f, "%*s", col, "");
    }
}

/* One synopsis line, "ladder <cmd> <words>", wrapped before 80 columns
** with the continuation under the first word. */
static void synopsis(FILE *f, const char *lead, const char *cmd, const char *s, size_t n)
{
    int col = fprintf(f, "%sladder %s", lead, cmd);
    int indent = col + 1;
    const char *end = s + n;
    while (s < end) {
        /* a word: up to a space outside [] and <> */
        const char *w = s;
        int depth = 0;
        while (w < end && (*w != ' ' || depth > 0)) {
            depth += *w == '[' || *w == '<';
            depth -= (*w == ']' || *w == '>') && depth > 0;
            w++;
        }
        int len = (int)(w - s);
        if (col + 1 + len > 79 && col > indent) {
            fprintf(f, "\n%*s", indent - 1, "");
            col = indent - 1;
        }
        col += fprintf(f, " %.*s", len, s);
        s = w;
        while (s < end && *s == ' ')
            s++;
    }
    fputc('\n', f);
}

void cli_usage(FILE *f, const char *cmd)
{
    const row *c = command(cmd);
    if (c == NULL)
        return;
    const char *s = c->arg;
    for (int first = 1; *s; first = 0) {
        size_t n = strcspn(s, "\n");
        synopsis(f, first ? "usage: " : "       ", cmd, s, n);
        s += n + (s[n] == '\n');
    }
    if (c->about[0])
        fprintf(f, "\n%s\n", c->about);
    int width = 0, any = 0;
    char buf[128];
    for (const row *r = c + 1; r < rows + NROWS && r->kind != ROW_CMD; r++)
        if (r->kind == ROW_ARG || r->kind == ROW_OPT) {
            int w = (int)strlen(label(r, buf, sizeof buf));
            width = w > width ? w : width;
        }
    if (width > 20)
        width = 20;
    for (const row *r = c + 1; r < rows + NROWS && r->kind != ROW_CMD; r++) {
        if (r->kind != ROW_ARG && r->kind != ROW_OPT)
            continue;
        fputs(any++ ? "" : "\n", f);
        int w = fprintf(f, "  %s", label(r, buf, sizeof buf)) - 2;
        if (w > width)
            fprintf(f, "\n%*s", width + 4, "");
        else
            fprintf(f, "%*s", width - w + 2, "");
        indented(f, r->text, width + 4);
    }
    for (const row *r = c + 1; r < rows + NROWS && r->kind != ROW_CMD; r++)
        if (r->kind == ROW_NOTE) {
            fputc('\n', f);
            fputs("  ", f);
            indented(f, r->text, 2);
        }
}

/* True when the synopsis names the option: "--name" or "-s" as a whole
** word, bracketed or not. */
static int in_synopsis(const char *syn, const char *opt)
{
    size_t n = strlen(opt);
    for (const char *p = strstr(syn, opt); p; p = strstr(p + 1, opt)) {
        int before = p == syn || strchr(" [|\n", p[-1]) != NULL;
        int after = strchr(" ]|\n=", p[n]) != NULL; /* p[n] == 0 is in the set too */
        if (before && after)
            return 1;
    }
    return 0;
}

int cli_table_check(const char *cmd, const cli_opt *opts)
{
    const row *c = command(cmd);
    if (c == NULL)
        return cli_error(LAD_EINTERNAL, "the command table has no command '%s'", cmd);
    for (const cli_opt *o = opts; o && o->name; o++) {
        const row *r = c + 1;
        while (r < rows + NROWS && r->kind != ROW_CMD &&
               !(r->kind == ROW_OPT && strcmp(r->name, o->name) == 0))
            r++;
        if (r >= rows + NROWS || r->kind == ROW_CMD)
            return cli_error(LAD_EINTERNAL, "%s parses --%s, which cli/commands.def "
                             "does not list", cmd, o->name);
        if (r->short_name != o->short_name || !r->arg != !o->has_arg)
            return cli_error(LAD_EINTERNAL, "%s parses --%s otherwise than "
                             "cli/commands.def says (short name or value)", cmd, o->name);
    }
    for (const row *r = c + 1; r < rows + NROWS && r->kind != ROW_CMD; r++) {
        if (r->kind != ROW_OPT)
            continue;
        const cli_opt *o = opts;
        while (o && o->name && strcmp(o->name, r->name) != 0)
            o++;
        if (o == NULL || o->name == NULL)
            return cli_error(LAD_EINTERNAL, "cli/commands.def lists --%s for %s, which "
                             "it does not parse", r->name, cmd);
        char lng[64], shrt[4] = {'-', r->short_name, 0, 0};
        snprintf(lng, sizeof lng, "--%s", r->name);
        if (!in_synopsis(c->arg, lng) && !(r->short_name && in_synopsis(c->arg, shrt)))
            return cli_error(LAD_EINTERNAL, "the usage line of %s leaves out --%s", cmd,
                             r->name);
    }
    return LAD_OK;
}

/* ---- Markdown for docs/commands/ --------------------------------------- */

/* n bytes of text with its lines joined by spaces and '|' escaped, for a
** table cell */
static void celln(FILE *f, const char *text, size_t n)
{
    for (const char *p = text; p < text + n && *p; p++) {
        if (*p == '\n') {
            fputc(' ', f);
            while (p[1] == ' ')
                p++;
        } else if (*p == '|') {
            fputs("\\|", f);
        } else {
            fputc(*p, f);
        }
    }
}

static void cell(FILE *f, const char *text)
{
    celln(f, text, strlen(text));
}

void cli_markdown_options(FILE *f, const char *cmd)
{
    const row *c = command(cmd);
    if (c == NULL)
        return;
    fputs("| argument or option | meaning |\n|---|---|\n", f);
    char buf[128];
    for (const row *r = c + 1; r < rows + NROWS && r->kind != ROW_CMD; r++) {
        if (r->kind != ROW_ARG && r->kind != ROW_OPT)
            continue;
        fputs("| `", f);
        cell(f, label(r, buf, sizeof buf));
        fputs("` | ", f);
        cell(f, r->text);
        fputs(" |\n", f);
    }
    for (const row *r = c + 1; r < rows + NROWS && r->kind != ROW_CMD; r++)
        if (r->kind == ROW_NOTE) {
            fputc('\n', f);
            cell(f, r->text);
            fputc('\n', f);
        }
}

void cli_markdown_index(FILE *f)
{
    fputs("# Commands\n\n"
          "Every command of `ladder`, made by `make docs-commands` from the command\n"
          "table cli/commands.def (as are `ladder help`, each command's `--help` and\n"
          "`ladder completion bash`). Exit codes: [exit-codes.md](../exit-codes.md).\n\n"
          "| command | what it does | usage |\n|---|---|---|\n", f);
    for (const row *c = rows; c < rows + NROWS; c++) {
        if (c->kind != ROW_CMD)
            continue;
        fprintf(f, "| [%s](%s.md) | ", c->cmd, c->cmd);
        cell(f, c->text);
        fputs(" | ", f);
        for (const char *s = c->arg; *s;) {
            size_t n = strcspn(s, "\n");
            fprintf(f, "%s`ladder %s ", s == c->arg ? "" : "<br>", c->cmd);
            celln(f, s, n);
            fputc('`', f);
            s += n + (s[n] == '\n');
        }
        fputs(" |\n", f);
    }
}

/* ---- bash completion ---------------------------------------------------- */

void cli_completion_bash(FILE *f)
{
    fputs("# bash completion for ladder, made by `ladder completion bash` from the\n"
          "# command table. Load it with: source <(ladder completion bash)\n"
          "_ladder()\n{\n"
          "    local cur=${COMP_WORDS[COMP_CWORD]} words\n"
          "    if [ \"$COMP_CWORD\" -eq 1 ]; then\n"
          "        words='help completion --version --help",
          f);
    for (const row *c = rows; c < rows + NROWS; c++)
        if (c->kind == ROW_CMD)
            fprintf(f, " %s", c->cmd);
    fputs("'\n    else\n        case ${COMP_WORDS[1]} in\n", f);
    for (const row *c = rows; c < rows + NROWS; c++) {
        if (c->kind != ROW_CMD)
            continue;
        fprintf(f, "        %s) words='--help", c->cmd);
        for (const row *r = c + 1; r < rows + NROWS && r->kind != ROW_CMD; r++)
            if (r->kind == ROW_OPT)
                fprintf(f, " --%s", r->name);
        fputs("' ;;\n", f);
    }
    fputs("        help) words='", f);
    for (const row *c = rows; c < rows + NROWS; c++)
        if (c->kind == ROW_CMD)
            fprintf(f, "%s%s", c == rows ? "" : " ", c->cmd);
    fputs("' ;;\n        completion) words='bash' ;;\n        *) words='' ;;\n        esac\n"
          "        case $cur in\n"
          "        -*) ;;\n"
          "        *) [ \"$COMP_CWORD\" -eq 2 ] && [ \"${COMP_WORDS[1]}\" = help ] ||\n"
          "               [ \"${COMP_WORDS[1]}\" = completion ] || { COMPREPLY=($(compgen -f -- \"$cur\")); return; } ;;\n"
          "        esac\n"
          "    fi\n"
          "    COMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n"
          "}\n"
          "complete -F _ladder ladder\n",
          f);
}
