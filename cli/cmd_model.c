/*
** ladder model: model files, shown and checked.
**
**     ladder model show <preset|file>
**     ladder model check <file>
**
** show prints a preset (or a model file, read and rewritten) as a model file
** (docs/model-files.md), which `--model` reads back exactly. check reads a
** model file and says whether the model accepts it. A bad model file is a
** data error (exit 3) with its file:line:col, and nothing goes to stdout.
*/
#include "cli.h"
#include "commands.h"
#include "io/modelfile.h"
#include "model/presets.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "usage: ladder model show <preset|file>\n"
    "       ladder model check <file>\n"
    "\n"
    "  show    print a preset or a model file as YAML (every parameter)\n"
    "  check   read a model file and check its parameters\n"
    "\n"
    "  `ladder presets` lists the preset names; docs/model-files.md describes\n"
    "  the keys.\n";

int cmd_model(int argc, char **argv)
{
    char *pos[2];
    int npos = 0;
    static const cli_opt opts[] = {{NULL, 0, 0, NULL}};
    int rc = cli_parse(argc, argv, 1, opts, usage, pos, &npos, 2);
    if (rc == CLI_HELP)
        return 0;
    if (rc)
        return rc;
    if (npos < 1)
        return cli_usage_error("model: missing subcommand (show or check)");
    int show = strcmp(pos[0], "show") == 0;
    if (!show && strcmp(pos[0], "check") != 0)
        return cli_usage_error("model: unknown subcommand '%s'", pos[0]);
    if (npos < 2)
        return cli_usage_error("model %s: missing %s", pos[0],
                               show ? "preset or file" : "file");
    lad_err err = {0};
    lad_datapath dp;
    char evidence[512];
    const lad_preset *p = show ? lad_preset_find(pos[1]) : NULL;
    if (p) {
        dp = p->dp;
        snprintf(evidence, sizeof evidence, "%s", p->evidence);
    } else {
        FILE *f = fopen(pos[1], "rb");
        if (f == NULL)
            return cli_error(LAD_EDATA, "%s '%s'",
                             show ? "unknown preset or model file"
                                  : "cannot open",
                             pos[1]);
        fclose(f);
        if (lad_model_load(pos[1], &dp, evidence, sizeof evidence, &err))
            return cli_report(&err);
    }
    if (!show) {
        printf("ok %s %s\n", pos[1], dp.name);
        return 0;
    }
    char *y = lad_model_write(&dp, evidence[0] ? evidence : NULL);
    if (y == NULL)
        return cli_error(LAD_EINTERNAL, "out of memory");
    fputs(y, stdout);
    free(y);
    return 0;
}
