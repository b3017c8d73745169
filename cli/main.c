/*
** ladder: the command table.
**
**     ladder <command> [options]
**
** Like git, every command lives in its own file cli/cmd_<name>.c and is
** reached through the command table, cli/commands.def; this file only
** finds the command, and answers `help`, `--help`, `--version` and
** `completion bash` itself. Exit codes are those of docs/exit-codes.md: an
** unknown command is a usage error (2).
*/
#include "cli.h"
#include "commands.h"

#include <stdio.h>
#include <string.h>

#include "version.h" /* made by scripts/version.sh */
#include "util/suggest.h"

static const struct command {
    const char *name;
    int (*fn)(int argc, char **argv);
} commands[] = {
#define CMD(n, summary, usage, about) {#n, cmd_##n},
#include "commands.def"
};

#define NCOMMANDS ((int)(sizeof commands / sizeof commands[0]))

static const struct command *find(const char *name)
{
    for (int i = 0; i < NCOMMANDS; i++)
        if (strcmp(commands[i].name, name) == 0)
            return &commands[i];
    return NULL;
}

/* "unknown command 'x'", with the command one slip away if there is one. */
static int unknown(const char *name)
{
    lad_suggest s;
    lad_suggest_init(&s, name);
    for (int i = 0; i < NCOMMANDS; i++)
        lad_suggest_add(&s, commands[i].name);
    lad_suggest_add(&s, "help");
    lad_suggest_add(&s, "completion");
    const char *near = lad_suggest_best(&s);
    if (near)
        return cli_usage_error("unknown command '%s'; did you mean '%s'?", name, near);
    return cli_usage_error("unknown command '%s'; see 'ladder help'", name);
}

static void usage(FILE *out)
{
    fprintf(out,
            "usage: ladder <command> [options]\n"
            "       ladder help <command>\n"
            "       ladder --version\n"
            "\n"
            "commands:\n");
    for (int i = 0; i < NCOMMANDS; i++)
        fprintf(out, "   %-10s %s\n", commands[i].name, cli_command_summary(commands[i].name));
    fprintf(out, "\n   %-10s %s\n", "completion", "print a shell's completion script: "
            "ladder completion bash");
    fprintf(out, "\nSee 'ladder help <command>' for a command's options.\n");
}

static int version(void)
{
    printf("ladder %s (commit %s%s)\n", LADDER_VERSION, LADDER_GIT_COMMIT,
           LADDER_GIT_DIRTY ? ", dirty" : "");
    return 0;
}

/* `ladder completion bash`: the completion script of the command table. */
static int completion(int argc, char **argv)
{
    if (argc == 2 && cli_is_help(argv[1])) {
        printf("usage: ladder completion bash\n\n  prints the bash completion of every "
               "command and option;\n  load it with: source <(ladder completion bash)\n");
        return 0;
    }
    if (argc != 2 || strcmp(argv[1], "bash") != 0)
        return cli_usage_error("completion takes one shell: bash");
    cli_completion_bash(stdout);
    return 0;
}

/* `ladder help [command]`; `ladder help help` is the usage itself.
** `ladder help --markdown [command]` prints docs/commands/README.md, or a
** command's option table, for `make docs-commands`. */
static int help(int argc, char **argv)
{
    if (argc < 2 || cli_is_help(argv[1]) || strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(argv[1], "--markdown") == 0) {
        if (argc > 3)
            return cli_usage_error("unexpected argument '%s'", argv[3]);
        if (argc == 2)
            cli_markdown_index(stdout);
        else if (find(argv[2]))
            cli_markdown_options(stdout, argv[2]);
        else
            return unknown(argv[2]);
        return 0;
    }
    if (argc > 2)
        return cli_usage_error("unexpected argument '%s'", argv[2]);
    char *hargv[] = {argv[1], "--help", NULL};
    if (strcmp(argv[1], "completion") == 0)
        return completion(2, hargv);
    const struct command *c = find(argv[1]);
    if (c == NULL)
        return unknown(argv[1]);
    return c->fn(2, hargv);
}

int main(int argc, char **argv)
{
    cli_safe_streams();
    if (argc < 2)
        return cli_usage_error("no command given; see 'ladder help'");
    const char *name = argv[1];
    if (strcmp(name, "help") == 0 || cli_is_help(name))
        return help(argc - 1, argv + 1);
    if (strcmp(name, "--version") == 0 || strcmp(name, "version") == 0) {
        if (argc > 2)
            return cli_usage_error("unexpected argument '%s'", argv[2]);
        return version();
    }
    if (strcmp(name, "completion") == 0)
        return completion(argc - 1, argv + 1);
    if (name[0] == '-') {
        static const char *const tops[] = {"--help", "--version", NULL};
        return cli_unknown_among("option", name, tops, "see 'ladder help'");
    }
    const struct command *c = find(name);
    if (c == NULL)
        return unknown(name);
    return c->fn(argc - 1, argv + 1);
}
