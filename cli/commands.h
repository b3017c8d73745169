/*
** The commands of `ladder`, one per file cli/cmd_<name>.c. Each takes the
** command line from the command's own name on (argv[0] is "format" for
** `ladder format decode e4m3 7e`), prints its results on stdout and its
** errors on stderr, and returns the process exit code (docs/exit-codes.md).
** Every command answers `--help` by printing its usage on stdout and
** returning 0; `ladder help <name>` calls it that way.
**
** Adding a command: its CMD row and the rows of its arguments and options
** in cli/commands.def, and cmd_<name> in cli/cmd_<name>.c; the declaration
** below and the dispatch in cli/main.c come from the row.
*/
#ifndef LADDER_CLI_COMMANDS_H
#define LADDER_CLI_COMMANDS_H

#define CMD(n, summary, usage, about) int cmd_##n(int argc, char **argv);
#include "commands.def"

#endif
