/*
** ladder model: model files, shown and checked.
**
**     ladder model show [--canonical] <preset|file>
**     ladder model check <file>
**     ladder model params [--json [<preset|file>]]
**
** show prints a preset (or a model file, read and rewritten) as a model file
** (docs/model-files.md), which `--model` reads back exactly; --canonical
** prints its canonical form (lad_canon: every row not in effect at its
** default, docs/model.md "Equivalence"). check reads a
** model file and says whether the model accepts it. A bad model file is a
** data error (exit 3) with its file:line:col, and nothing goes to stdout.
** params lists the parameter registry (model/params.h) as the Markdown
** table of keys in docs/model-files.md, which a test keeps equal to it;
** with --json, a document of the rows with their defaults and usual
** values, and given a base datapath the candidates inference tries for
** it, from which the random draws of the tests take their values
** (tests/data/model-random.sh).
*/
#include "cli.h"
#include "commands.h"
#include "json.h"
#include "io/modelfile.h"
#include "model/params.h"
#include "model/presets.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A row's value of dp into the JSON document, as a model file spells it. */
static void json_value(const lad_param *p, const lad_datapath *dp)
{
    char text[LAD_KMAX * 5 + 128];
    const char *v = lad_model_value(p, dp, text, sizeof text);
    cli_json_str(stdout, v ? v : "?");
}

/* The registry as JSON: each row with its default; with a base, the
** values inference tries for it (lad_param_cands), most plausible first,
** where it searches the row on that base. */
static int params_json(const lad_datapath *base)
{
    lad_datapath dflt;
    lad_param_defaults(&dflt);
    for (int i = 0; i < lad_nparams; i++) {
        const lad_param *p = &lad_params[i];
        char type[160];
        printf("%s{\"key\": ", i ? ",\n " : "[");
        cli_json_str(stdout, p->key);
        printf(", \"type\": ");
        cli_json_str(stdout, lad_param_legal_text(p, 0, type, sizeof type));
        printf(", \"required\": %s, \"searched\": %s, \"default\": ",
               p->flags & LAD_PF_REQUIRED ? "true" : "false", p->cands ? "true" : "false");
        json_value(p, &dflt);
        int64_t lo, hi;
        if (lad_param_usual(p, &lo, &hi))
            printf(", \"usual\": [%lld, %lld]", (long long)lo, (long long)hi);
        if (base && p->cands) {
            int64_t v[LAD_PARAM_MAXCANDS];
            int n = lad_param_cands(p, base, v, LAD_PARAM_MAXCANDS);
            printf(", \"candidates\": [");
            for (int j = 0; j < n; j++) {
                lad_datapath t = *base;
                lad_param_set(p, &t, base, v[j]);
                printf("%s", j ? ", " : "");
                json_value(p, &t);
            }
            printf("]");
        }
        printf(", \"meaning\": ");
        cli_json_str(stdout, p->doc);
        printf("}");
    }
    printf("]\n");
    return 0;
}

static int params(void)
{
    printf("| key | type | required | searched | meaning |\n"
           "|---|---|---|---|---|\n");
    for (int i = 0; i < lad_nparams; i++) {
        const lad_param *p = &lad_params[i];
        char type[160];
        lad_param_legal_text(p, 1, type, sizeof type);
        printf("| `%s` | %s | %s | %s | ", p->key, type,
               p->flags & LAD_PF_REQUIRED ? "yes" : "", p->cands ? "yes" : "");
        for (const char *c = p->doc; *c; c++) /* Markdown would take <x> for HTML */
            fputs(*c == '<' ? "&lt;" : *c == '>' ? "&gt;" : (char[2]){*c, 0}, stdout);
        printf(" |\n");
    }
    return 0;
}

int cmd_model(int argc, char **argv)
{
    char *pos[2];
    int npos = 0;
    const char *quiet = NULL, *json = NULL; /* -q: nothing to quiet (cli/commands.def) */
    const char *canonical = NULL;
    const cli_opt opts[] = {{"quiet", 'q', 0, &quiet}, {"json", 0, 0, &json},
                            {"canonical", 0, 0, &canonical}, {NULL, 0, 0, NULL}};
    int rc = cli_parse(argc, argv, opts, pos, &npos, 1, 2,
                      "model: missing subcommand (show, check or params)");
    if (rc)
        return rc == CLI_HELP ? 0 : rc;
    if (strcmp(pos[0], "params") == 0) {
        if (npos > 1 && !json)
            return cli_usage_error("model params: a base takes --json");
        if (npos == 1)
            return json ? params_json(NULL) : params();
        lad_err err = {0};
        lad_datapath base;
        if (lad_model_resolve(pos[1], &base, &err) != LAD_OK)
            return cli_report(&err);
        return params_json(&base);
    }
    int show = strcmp(pos[0], "show") == 0;
    if (!show && strcmp(pos[0], "check") != 0)
    {
        static const char *const subs[] = {"show", "check", "params", NULL};
        return cli_unknown_among("model subcommand", pos[0], subs, "see 'ladder help model'");
    }
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
        if (f == NULL && show && lad_model_unknown(pos[1], &err))
            return cli_report(&err);
        if (f == NULL)
            return cli_error(LAD_EDATA, "cannot open '%s'", pos[1]);
        fclose(f);
        if (lad_model_load(pos[1], &dp, evidence, sizeof evidence, &err))
            return cli_report(&err);
    }
    if (canonical && !show)
        return cli_usage_error("model %s: --canonical is for show", pos[0]);
    if (!show && json) {
        printf("{\"file\": ");
        cli_json_str(stdout, pos[1]);
        printf(", \"name\": ");
        cli_json_str(stdout, dp.name);
        printf(", \"ok\": true}\n");
        return 0;
    }
    if (!show) {
        printf("ok %s %s\n", pos[1], dp.name);
        return 0;
    }
    if (canonical)
        lad_canon(&dp);
    if (json) {
        cli_json_model(stdout, &dp, evidence);
        putchar('\n');
        return 0;
    }
    char *y = lad_model_write(&dp, evidence[0] ? evidence : NULL);
    if (y == NULL)
        return cli_error(LAD_EINTERNAL, "out of memory");
    fputs(y, stdout);
    free(y);
    return 0;
}
