/*
** ladder check: does a model reproduce captured hardware words?
**
**     ladder check [--model SPEC] [--device D] FILE...
**
** Each FILE is a .vec file (vectors/README.md) or the frozen
** tcgen05 file. Every case is evaluated with the model and its D word
** compared, as an integer, with the one the hardware gave. Without --model a
** .vec file is checked against the preset its header names (gpu, arch,
** instruction, formats; io/vecfile.h) and each frozen line against the
** preset its kind, formats and options name. With --model, a .vec file is
** checked against that model, and a frozen file only on the lines whose
** preset name is the model's name.
**
** With --device, the words of a .vec file are computed by that device
** instead of the model (the model then only says what the instruction is):
** `--device cuda:0` replays captured vectors on a GPU here.
**
** Output, per file: "<file>: <mismatches>/<cases> mismatches (<model>)",
** then up to MAXSHOW mismatching cases with the expected and computed words.
** With --json, one JSON array of the same per file, printed at the end.
** Exit 0 when nothing mismatched anywhere, 1 when something did, 3 at the
** first malformed file or line (its result line is not printed; with --json
** nothing is).
**
** A file must hold cases, and as many as its `# cases:` header says: a file
** cut short (a copy that stopped, a download cut off) would otherwise pass
** on the cases it kept. --partial accepts fewer than the header says.
*/
#include "cli.h"
#include "commands.h"
#include "json.h"
#include "replay.h"
#include "devices/device.h"
#include "io/modelfile.h"
#include "io/vecfile.h"
#include "model/presets.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXFILES 1024

static int check_count(const lad_vecfile *vf, const tally *t, int partial,
                       lad_err *err)
{
    const lad_vechdr *h = &vf->hdr;
    if (t->cases == 0)
        return lad_errf_at(err, LAD_EDATA, vf->path, vf->line, 0,
                           "no case to check (the file ends here)");
    if (h->cases < 0 || vf->kind != LAD_VECFILE_VEC || t->cases == h->cases ||
        (partial && t->cases < h->cases))
        return LAD_OK;
    return lad_errf_at(err, LAD_EDATA, vf->path, vf->line, 0,
                       "the file ends after %ld case%s, but its header "
                       "(line %d) says %ld%s", t->cases,
                       t->cases == 1 ? "" : "s", h->cases_line, h->cases,
                       t->cases < h->cases ? " (--partial checks a file cut "
                       "short)" : "");
}

static void print_tally(const char *path, const tally *t, int quiet)
{
    printf("%s: %ld/%ld mismatches (%s)\n", path, t->bad, t->cases,
           t->model);
    for (int i = 0; i < t->nshown && !quiet; i++) {
        const shown *s = &t->show[i];
        printf("  line %d: expected %0*" PRIx64 ", got %0*" PRIx64 ": %s\n", s->line,
               s->digits, s->want, s->digits, s->got, s->what);
    }
}

static void json_tally(FILE *f, const char *path, const tally *t)
{
    fprintf(f, "{\"file\": ");
    cli_json_str(f, path);
    fprintf(f, ", \"cases\": %ld, \"mismatches\": %ld, \"model\": ", t->cases, t->bad);
    cli_json_str(f, t->model);
    fprintf(f, ", \"first\": [");
    for (int i = 0; i < t->nshown; i++) {
        const shown *s = &t->show[i];
        fprintf(f, "%s{\"line\": %d, \"expected\": \"%0*" PRIx64 "\", \"got\": \"%0*" PRIx64 "\", \"case\": ",
                i ? ", " : "", s->line, s->digits, s->want, s->digits, s->got);
        cli_json_str(f, s->what);
        fputc('}', f);
    }
    fprintf(f, "]}");
}

int cmd_check(int argc, char **argv)
{
    const char *spec = NULL, *devspec = NULL, *json = NULL, *partial = NULL;
    const char *quiet = NULL;
    const cli_opt opts[] = {{"model", 'm', 1, &spec}, {"device", 'd', 1, &devspec},
                            {"json", 0, 0, &json}, {"partial", 0, 0, &partial},
                            {"quiet", 'q', 0, &quiet}, {NULL, 0, 0, NULL}};
    static char *pos[MAXFILES];
    int npos;
    int rc = cli_parse(argc, argv, opts, pos, &npos, 1, MAXFILES,
                      "check needs at least one vector file");
    if (rc)
        return rc == CLI_HELP ? 0 : rc;
    if (devspec)
        cli_announce_exec(NULL, devspec, NULL);
    int any_bad = 0;
    static tally t;
    /* JSON waits for the last file: a malformed one prints nothing. */
    char *doc = NULL;
    size_t doclen = 0;
    FILE *js = json ? open_memstream(&doc, &doclen) : NULL;
    if (json && js == NULL)
        return cli_error(LAD_EINTERNAL, "out of memory");
    if (js)
        fputc('[', js);
    lad_err err = {0};
    for (int i = 0; i < npos; i++) {
        lad_vecfile *vf;
        rc = lad_vecfile_open(pos[i], &vf, &err);
        if (rc != LAD_OK)
            break;
        memset(&t, 0, sizeof t);
        if (vf->kind == LAD_VECFILE_FROZEN && devspec)
            rc = lad_errf(&err, LAD_EUSAGE, "%s: --device replays .vec files only",
                          pos[i]);
        else if (vf->kind == LAD_VECFILE_FROZEN)
            rc = cli_replay_frozen(vf, spec, &t, &err);
        else
            rc = cli_replay_vec(vf, spec, devspec, &t, &err);
        if (rc == LAD_OK)
            rc = check_count(vf, &t, partial != NULL, &err);
        lad_vecfile_close(vf);
        if (rc != LAD_OK)
            break;
        if (js) {
            fputs(i ? ",\n " : "", js);
            json_tally(js, pos[i], &t);
        } else {
            print_tally(pos[i], &t, quiet != NULL);
        }
        fflush(stdout);
        if (t.bad)
            any_bad = 1;
    }
    if (js) {
        fputs("]\n", js);
        fclose(js);
        if (rc == LAD_OK)
            fwrite(doc, 1, doclen, stdout);
        free(doc);
    }
    if (rc != LAD_OK)
        return cli_report(&err);
    return any_bad ? LAD_NO : LAD_OK;
}
