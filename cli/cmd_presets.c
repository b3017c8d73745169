/*
** ladder presets: the compiled-in datapaths, one per line,
**
**     <name>  <instruction>  <formats>  <evidence>
**
** where formats reads "a x b + c -> d", with " scale <fmt>/<lanes>" for
** block-scaled kinds and " sparse <pattern>" for sparse ones. `ladder model
** show <name>` prints one in full.
*/
#include "cli.h"
#include "commands.h"
#include "io/modelfile.h"
#include "model/presets.h"

#include <stdio.h>
#include <string.h>

static const char usage[] =
    "usage: ladder presets\n"
    "\n"
    "  list the compiled-in datapaths: name, instruction, formats and the\n"
    "  evidence behind each; `ladder model show <name>` prints one.\n";

int cmd_presets(int argc, char **argv)
{
    char *pos[1];
    int npos = 0;
    static const cli_opt opts[] = {{NULL, 0, 0, NULL}};
    int rc = cli_parse(argc, argv, 1, opts, usage, pos, &npos, 0);
    if (rc == CLI_HELP)
        return 0;
    if (rc)
        return rc;
    for (int i = 0; i < lad_preset_count(); i++) {
        const lad_preset *p = lad_preset_get(i);
        const lad_datapath *dp = &p->dp;
        char instr[48], fmts[96];
        snprintf(instr, sizeof instr, "%s%s%s", dp->instr, dp->kind[0] ? "." : "",
                 dp->kind);
        int n = snprintf(fmts, sizeof fmts, "%s x %s + %s -> %s", dp->a.name,
                         dp->b.name, dp->c.name, dp->d.name);
        if (dp->scale_block > 0 && n > 0 && (size_t)n < sizeof fmts)
            n += snprintf(fmts + n, sizeof fmts - (size_t)n, " scale %s/%d",
                          dp->sa.name, dp->scale_block);
        if (dp->sparse && n > 0 && (size_t)n < sizeof fmts)
            snprintf(fmts + n, sizeof fmts - (size_t)n, " sparse %s",
                     lad_model_sparse_names[dp->sparse]);
        printf("%-38s %-22s %-40s %s\n", dp->name, instr, fmts, p->evidence);
    }
    return 0;
}
