/*
** The commands of `ladder`, one per file cli/cmd_<name>.c. Each takes the
** command line from the command's own name on (argv[0] is "format" for
** `ladder format decode e4m3 7e`), prints its results on stdout and its
** errors on stderr, and returns the process exit code (docs/exit-codes.md).
** Every command answers `--help` by printing its usage on stdout and
** returning 0; `ladder help <name>` calls it that way.
**
** Adding a command: declare it here and add one line to the table in
** cli/main.c.
*/
#ifndef LADDER_CLI_COMMANDS_H
#define LADDER_CLI_COMMANDS_H

int cmd_format(int argc, char **argv);
int cmd_eval(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_fit(int argc, char **argv);
int cmd_validate(int argc, char **argv);
int cmd_model(int argc, char **argv);
int cmd_presets(int argc, char **argv);
int cmd_recipe(int argc, char **argv);
int cmd_history(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_sass(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_infer(int argc, char **argv);
int cmd_survey(int argc, char **argv);
int cmd_gemm(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_merge(int argc, char **argv);

#endif
