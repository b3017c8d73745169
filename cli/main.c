/*
** ladder: the command table.
**
**     ladder <command> [options]
**
** Like git, every command lives in its own file cli/cmd_<name>.c and is
** reached through the table below; this file only finds the command, and
** answers `help`, `--help` and `--version` itself. Exit codes are those of
** docs/exit-codes.md: an unknown command is a usage error (2).
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
    const char *summary; /* one line for `ladder help` */
} commands[] = {
    /* Keep in the order of the workflow; one line per command. */
    {"format", cmd_format, "decode, encode and list the words of a number format"},
    {"presets", cmd_presets, "list the compiled-in datapaths"},
    {"model", cmd_model, "print a preset or model file as YAML; check a model file"},
    {"recipe", cmd_recipe, "check a recipe, or show what it asks for"},
    {"eval", cmd_eval, "evaluate vector lines with a model, one D word per line"},
    {"gemm", cmd_gemm, "multiply matrices of raw words through a model, word for word"},
    {"check", cmd_check, "compare a model with the D words of vector files"},
    {"fit", cmd_fit, "search for a model that reproduces captured vectors"},
    {"validate", cmd_validate, "compare a model with a device on random cases"},
    {"history", cmd_history, "list the runs in a store"},
    {"run", cmd_run, "climb a recipe's probe ladder on a device"},
    {"infer", cmd_infer, "infer the datapath model from a run's probes"},
    {"diff", cmd_diff, "compare two datapaths parameter by parameter, with witnesses"},
    {"show", cmd_show, "print a run's rungs and what each observed"},
    {"survey", cmd_survey, "run, infer and validate every datapath of a device"},
    {"merge", cmd_merge, "combine the stores of sharded validations and surveys"},
    {"export", cmd_export, "write a run's stored cases as a .vec file"},
    {"report", cmd_report, "write a run, model or survey as one HTML or Markdown page"},
    {"sass", cmd_sass, "show the tensor opcodes the CUDA kernels execute (cuobjdump)"},
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
        fprintf(out, "   %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(out, "\nSee 'ladder help <command>' for a command's options.\n");
}

static int version(void)
{
    printf("ladder %s (commit %s%s)\n", LADDER_VERSION, LADDER_GIT_COMMIT,
           LADDER_GIT_DIRTY ? ", dirty" : "");
    return 0;
}

/* `ladder help [command]`; `ladder help help` is the usage itself. */
static int help(int argc, char **argv)
{
    if (argc < 2 || cli_is_help(argv[1]) || strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return 0;
    }
    if (argc > 2)
        return cli_usage_error("unexpected argument '%s'", argv[2]);
    const struct command *c = find(argv[1]);
    if (c == NULL)
        return unknown(argv[1]);
    char *hargv[] = {(char *)c->name, "--help", NULL};
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
    if (name[0] == '-')
        return cli_usage_error("unknown option '%s'; see 'ladder help'", name);
    const struct command *c = find(name);
    if (c == NULL)
        return unknown(name);
    return c->fn(argc - 1, argv + 1);
}
