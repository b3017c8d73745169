/*
** ladder recipe: recipes, checked and shown.
**
**     ladder recipe check <file>
**     ladder recipe show <file>
**
** check reads a recipe (docs/recipes.md) and prints one line,
**
**     ok <file> <datapath name> <n> rungs sha256 <hash>
**
** show prints what the loader understood: the instruction, user formats,
** every rung with all its parameters (defaults included) and the random
** settings. A bad recipe is a data error (exit 3), one line on stderr,
** "ladder: file:line:col: message", and nothing on stdout.
*/
#include "cli.h"
#include "commands.h"
#include "json.h"
#include "io/modelfile.h"
#include "probes/recipe.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static void show_format(const char *key, const lad_format *f, int known)
{
    if (!known)
        printf("  %-12s %s (width %d, decode unknown)\n", key, f->name, f->width);
    else if (f->kind == LAD_INT)
        printf("  %-12s %s (%s %d-bit integer)\n", key, f->name,
               f->sign ? "signed" : "unsigned", f->width);
    else
        printf("  %-12s %s (width %d pad %d sign %d ebits %d mbits %d bias %d)\n",
               key, f->name, f->width, f->pad, f->sign, f->ebits, f->mbits, f->bias);
}

static void show(const lad_recipe *r)
{
    const lad_recipe_instr *d = &r->dp;
    printf("recipe %s\n", r->path);
    printf("  %-12s %s\n", "sha256", r->sha256);
    if (r->description[0])
        printf("  %-12s %s\n", "description", r->description);
    printf("  %-12s %s\n", "device", r->device);
    printf("datapath\n");
    printf("  %-12s %s\n", "name", d->name);
    printf("  %-12s %s\n", "arch", d->arch);
    printf("  %-12s %s\n", "instr", d->instr);
    if (d->kind[0])
        printf("  %-12s %s\n", "kind", d->kind);
    if (d->shape[0])
        printf("  %-12s %s\n", "shape", d->shape);
    if (d->sass[0])
        printf("  %-12s %s\n", "sass", d->sass);
    show_format("a", &d->a, d->a_known);
    show_format("b", &d->b, d->b_known);
    show_format("c", &d->c, d->c_known);
    show_format("d", &d->d, d->d_known);
    printf("  %-12s %d\n", "k", d->k);
    if (d->scale_block > 0) {
        show_format("sa", &d->sa, 1);
        show_format("sb", &d->sb, 1);
        printf("  %-12s %d\n", "scale_block", d->scale_block);
    }
    printf("  %-12s %s\n", "sparse", lad_sparse_names[d->sparse]);
    for (int i = 0; i < r->nformats; i++) {
        if (i == 0)
            printf("formats\n");
        show_format("format", &r->formats[i].f, r->formats[i].known);
    }
    printf("rungs\n");
    for (int i = 0; i < r->nrungs; i++) {
        const lad_rung *g = &r->rungs[i];
        printf("  %s", lad_rung_name(g->id));
        for (int j = 0; lad_rung_param_name(g->id, j); j++) {
            const char *pn = lad_rung_param_name(g->id, j);
            const char *en = lad_rung_param_enum(g->id, j, g->param[j]);
            if (en)
                printf(" %s=%s", pn, en);
            else if (g->param[j] == LAD_RECIPE_ALL)
                printf(" %s=all", pn);
            else
                printf(" %s=%lld", pn, g->param[j]);
        }
        printf("\n");
    }
    printf("random\n");
    printf("  %-12s %lld\n", "cases", r->random.cases);
    printf("  %-12s %d\n", "finite", r->random.finite);
    printf("  %-12s %" PRIu64 "\n", "seed", r->random.seed);
}

/* "key": "value" after ", " (first: not) */
static void jstr(const char *key, const char *value, int first)
{
    cli_json_key(stdout, key, first);
    cli_json_str(stdout, value);
}

/* --json, for check and show alike: the recipe as the loader understood
** it, formats by name. */
static void show_json(const lad_recipe *r)
{
    const lad_recipe_instr *d = &r->dp;
    putchar('{');
    jstr("file", r->path, 1);
    jstr("sha256", r->sha256, 0);
    jstr("description", r->description, 0);
    jstr("device", r->device, 0);
    cli_json_key(stdout, "datapath", 0);
    putchar('{');
    jstr("name", d->name, 1);
    jstr("arch", d->arch, 0);
    jstr("instr", d->instr, 0);
    jstr("kind", d->kind, 0);
    jstr("shape", d->shape, 0);
    jstr("sass", d->sass, 0);
    jstr("a", d->a.name, 0);
    jstr("b", d->b.name, 0);
    jstr("c", d->c.name, 0);
    jstr("d", d->d.name, 0);
    printf(", \"k\": %d, \"scale_block\": %d", d->k, d->scale_block);
    jstr("sparse", lad_sparse_names[d->sparse], 0);
    printf("}, \"rungs\": [");
    for (int i = 0; i < r->nrungs; i++) {
        const lad_rung *g = &r->rungs[i];
        printf("%s{", i ? ", " : "");
        jstr("rung", lad_rung_name(g->id), 1);
        for (int j = 0; lad_rung_param_name(g->id, j); j++) {
            const char *en = lad_rung_param_enum(g->id, j, g->param[j]);
            cli_json_key(stdout, lad_rung_param_name(g->id, j), 0);
            if (en)
                cli_json_str(stdout, en);
            else if (g->param[j] == LAD_RECIPE_ALL)
                printf("\"all\"");
            else
                printf("%lld", g->param[j]);
        }
        putchar('}');
    }
    printf("], \"random\": {\"cases\": %lld, \"finite\": %d, \"seed\": %" PRIu64 "}}\n",
           r->random.cases, r->random.finite, r->random.seed);
}

int cmd_recipe(int argc, char **argv)
{
    char *pos[2];
    int npos = 0;
    const char *quiet = NULL, *json = NULL; /* -q: nothing to quiet (cli/commands.def) */
    const cli_opt opts[] = {{"quiet", 'q', 0, &quiet}, {"json", 0, 0, &json}, {NULL, 0, 0, NULL}};
    int rc = cli_parse(argc, argv, opts, pos, &npos, 1, 2,
                      "recipe: missing subcommand (check or show)");
    if (rc)
        return rc == CLI_HELP ? 0 : rc;
    int doshow = strcmp(pos[0], "show") == 0;
    if (!doshow && strcmp(pos[0], "check") != 0)
    {
        static const char *const subs[] = {"check", "show", NULL};
        return cli_unknown_among("recipe subcommand", pos[0], subs, "see 'ladder help recipe'");
    }
    if (npos < 2)
        return cli_usage_error("recipe %s: missing file", pos[0]);
    lad_recipe r;
    lad_err err = {0};
    if (lad_recipe_load(pos[1], &r, &err))
        return cli_report(&err);
    if (json)
        show_json(&r);
    else if (doshow)
        show(&r);
    else
        printf("ok %s %s %d rungs sha256 %s\n", pos[1], r.dp.name, r.nrungs,
               r.sha256);
    lad_recipe_free(&r);
    return 0;
}
