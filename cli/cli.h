/*
** Small helpers shared by the commands: printing errors the one way every
** command prints them, and a little option parser.
**
** Errors are one line on stderr, "ladder: <what went wrong>" (library errors
** that carry a location read "ladder: file:line:col: ..."), and the command
** returns the code of docs/exit-codes.md. Usage errors add nothing else: no
** usage dump, one line, exit 2; `--help` prints the usage on stdout.
**
** The option parser takes long options anywhere on the line ("--round rne",
** "--round=rne"), single-letter short options written alone ("-o x"), and
** "--" to end options. Anything else is a positional argument, so negative
** numbers ("-0.1", "-inf") are positional, as a format command wants.
*/
#ifndef LADDER_CLI_CLI_H
#define LADDER_CLI_CLI_H

#include "util/err.h"

struct lad_format;

#include <stdint.h>
#include <stdio.h>

#define LADDER_VERSION "0.1.0"

/* Puts a filter in front of stdout and stderr (called first by main):
** every control character but newline and tab (and carriage return on
** stderr, for the progress line), and DEL and the C1 controls as UTF-8
** writes them (U+0080..U+009F), goes out as text, "\x1b", "\u009b", so that
** a string from a recipe or a store cannot drive the terminal
** (docs/security.md). Output is buffered as the stream was. */
void cli_safe_streams(void);

/* Prints "ladder: <err->msg>" on stderr and returns err->code (LAD_EINTERNAL
** when err holds no code). */
int cli_report(const lad_err *err);

/* Prints "ladder: <message>" on stderr and returns code. */
int cli_error(int code, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Same, with LAD_EUSAGE. */
int cli_usage_error(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

/* The usage error for a name given on the command line that names nothing
** (docs/exit-codes.md): "unknown <what> '<name>'; did you mean '<near>'?",
** or with `otherwise` ("see 'ladder presets'") in place of the suggestion
** when near is NULL, or nothing more when both are NULL. Returns LAD_EUSAGE. */
int cli_unknown(const char *what, const char *name, const char *near, const char *otherwise);

/* The same, the suggestion the name of names (NULL-terminated) nearest to
** name: "unknown subcommand 'shwo'; did you mean 'show'?". */
int cli_unknown_among(const char *what, const char *name, const char *const *names,
                      const char *otherwise);

/* The code of "run N stored no cases in rung '<name>'": LAD_EDATA when name
** is a rung of this ladder (probes/recipe.h) or "validation" (the rung
** validate adds a run's mismatches to): the name is right, the run lacks
** it; LAD_EUSAGE otherwise: the name given names nothing. */
int cli_rung_code(const char *name);

/* Reads a format name or spec given on the command line into *f; an
** unknown one is cli_unknown's usage error, with the built-in name nearest
** to it. */
int cli_format(const char *spec, struct lad_format *f);

/* The arch of a compiled-in preset ("sm_90a", "cdna3") a slip away from
** word, or NULL; an exact arch is NULL too (util/suggest.h). */
const char *cli_arch_nearest(const char *word);

/* One option a command accepts. */
typedef struct cli_opt {
    const char *name;   /* long name without "--", e.g. "round" */
    char short_name;    /* 'o' for "-o", or 0 */
    int has_arg;        /* 1: takes a value; 0: a flag */
    const char **value; /* receives the value, or "1" for a flag given;
                           the last occurrence wins */
} cli_opt;

/* cli_parse's answer when --help (or -h) was given: the usage is printed on
** stdout and the command should return 0. */
#define CLI_HELP (-1)

/*
** Parses a command's argv[1..argc-1] against opts (terminated by an entry
** whose name is NULL); argv[0] is the command's name in the command table
** (cli/commands.def). Positional arguments are stored, in order, in
** pos[0..*npos-1]: at least minpos (fewer is the usage error `need`) and at
** most maxpos of them. Returns LAD_OK; CLI_HELP after printing the
** command's usage (cli_usage) on stdout (the command then returns 0);
** LAD_EINTERNAL on --help when opts and the table disagree
** (cli_table_check); or LAD_EUSAGE after printing one line (unknown
** option, missing value, too many or too few arguments).
*/
int cli_parse(int argc, char **argv, const cli_opt *opts,
              char **pos, int *npos, int minpos, int maxpos, const char *need);

/* ---- the command table (cli/commands.def, cli/table.c) ---- */

/* A command's summary line (its line in `ladder help`), NULL for no such
** command. */
const char *cli_command_summary(const char *name);

/* Prints a command's --help: its usage lines, its paragraphs, its
** arguments and options, its notes. */
void cli_usage(FILE *f, const char *cmd);

/* LAD_OK when opts (what cmd parses) and cmd's OPT rows name the same
** options with the same short names and values, and the usage lines name
** each; else prints what differs and returns LAD_EINTERNAL. */
int cli_table_check(const char *cmd, const cli_opt *opts);

/* docs/commands/: the index of every command, and one command's table of
** arguments and options (and its notes), in Markdown. */
void cli_markdown_index(FILE *f);
void cli_markdown_options(FILE *f, const char *cmd);

/* The bash completion script of `ladder completion bash`. */
void cli_completion_bash(FILE *f);

/* Parses an option's value as a whole number in lo..hi (decimal, or hex
** with 0x) into *out. Returns LAD_OK, or LAD_EUSAGE after printing
** "<what> must be lo..hi, not '<s>'". */
int cli_number(const char *s, const char *what, uint64_t lo, uint64_t hi, uint64_t *out);

/* The most shards (--shard I/N) a run can be cut into. */
#define CLI_SHARD_MAX 4096

/* Parses --shard I/N (decimal, 0 <= I < N <= CLI_SHARD_MAX) into *i and
** *n. Returns LAD_OK, or LAD_EUSAGE after printing what is wrong. */
int cli_shard(const char *s, uint64_t *i, uint64_t *n);

/* Before an exec device starts: prints on stderr the command one from a
** file (whose: "recipe 'x.yaml'", "run 3"; NULL when the command line named
** it) is about to run, "ladder: running the device of run 3 (--trust-exec):
** sh -c '<command>'", and for exec-unframed: what that protocol cannot
** detect. Prints nothing for other devices. The signature of
** lad_ladder_opts.announce. */
void cli_announce_exec(void *ctx, const char *spec, const char *whose);

/* Refuses an output that is one of the command's inputs: when out and
** input are the same file (util/outfile.h's lad_same_file), prints "output
** 'x.db' is the store 'x.db'; ..." (what: "the store", "input") and returns
** LAD_EUSAGE; else LAD_OK. A NULL out or input, or out "-", is no file. */
int cli_output_ok(const char *out, const char *what, const char *input);

/* cli_output_ok for the store db, and also refuses its companions, which
** SQLite keeps beside it under its own name ("x.db-wal", "x.db-shm",
** "x.db-journal": writing one would lose or damage committed data) by
** name, whether they exist or not, through links to the store or to them. */
int cli_output_not_store(const char *out, const char *db);
/* What -o writes, chosen by the name's extension (the letters after the
** last '.' of its last component, any case): *kind is the index in exts
** (NULL-terminated, without dots: {"html", "htm", "md", NULL}) of the
** extension, or dflt for a name without one ("-", /dev/stdout, "out").
** Returns LAD_OK, or LAD_EUSAGE after printing "<cmd> -o writes .html,
** .htm or .md, not '.pdf'". A NULL path is dflt; kind may be NULL. */
int cli_output_kind(const char *cmd, const char *path, const char *const *exts, int dflt,
                    int *kind);

/* True when s is exactly one of the help spellings: --help, -h. */
int cli_is_help(const char *s);

#endif
