/*
** ladder eval: the model as a filter, one D word per case.
**
**     ladder eval --model SPEC [FILE]
**
** Reads cases in the vector line format (io/vecline.h; a D field, when
** present, is ignored) from FILE or stdin, and writes each case's D word in
** hex at the D format's native width, one per line, flushed whenever the
** input has no more lines ready: so `exec:ladder eval --model X` is itself
** an exec device, and any oracle can
** be compared with the model line by line. Blank and '#' lines are skipped;
** a `# k: N` header line (as in .vec files) lets lines hold fewer than K
** words. The frozen tcgen05 file is read too, one case per line.
**
** A line framed as the exec device's framed protocol writes it, "@<n> "
** before the case (devices/exec.h), is answered "@<n> <D>": ladder eval is
** an exec: (framed) oracle as well as an exec-unframed: one.
**
** A malformed line stops the command with "ladder: file:line:col: ..." and
** exit 3; nothing is printed for it (the words before it were printed as
** their lines came, and are right).
*/
#include "cli.h"
#include "commands.h"
#include "io/modelfile.h"
#include "io/vecfile.h"
#include "devices/device.h"

#include <stdio.h>
#include <string.h>

static const char usage[] =
    "usage: ladder eval --model <spec> [--device <dev>] [<file>]\n"
    "\n"
    "  Reads vector lines (A;B;C, or A;B;C;D whose D is ignored; scaled or\n"
    "  sparse models add ;scale_a;scale_b;meta) from <file> or stdin and\n"
    "  prints the model's D word for each, in hex, one line per case,\n"
    "  flushed at once (usable as exec:ladder eval --model <spec>). A\n"
    "  line '@<n> <case>' is answered '@<n> <D>' (the framed protocol of\n"
    "  exec:), a bare line with the bare word (exec-unframed:).\n"
    "\n"
    "  --model <spec>  a preset name (ladder presets) or a model file\n"
    "  --device <dev>  the words of a device instead (sim:MODEL,\n"
    "                  exec[-framed]:COMMAND, cuda:N or cublaslt:N[:OPTIONS],\n"
    "                  one call per case); the model then names the\n"
    "                  instruction\n";

/* Answers wait here until the input runs dry (the reader's idle hook) or the
** block is full: a file streams at block speed, and a peer that writes one
** line and waits still gets its answer before ladder waits in turn. */
typedef struct outbuf {
    size_t n;
    char b[65536];
} outbuf;

static void flush(void *arg)
{
    outbuf *o = arg;
    fwrite(o->b, 1, o->n, stdout);
    fflush(stdout);
    o->n = 0;
}

int cmd_eval(int argc, char **argv)
{
    const char *spec = NULL, *devspec = NULL;
    const cli_opt opts[] = {{"model", 'm', 1, &spec}, {"device", 'd', 1, &devspec},
                            {NULL, 0, 0, NULL}};
    char *pos[1];
    int npos;
    int rc = cli_parse(argc, argv, opts, usage, pos, &npos, 0, 1, NULL);
    if (rc)
        return rc == CLI_HELP ? 0 : rc;
    if (spec == NULL)
        return cli_usage_error("eval needs --model <preset or model file>");

    lad_err err = {0};
    lad_datapath dp;
    rc = lad_model_resolve(spec, &dp, &err);
    if (rc == LAD_OK)
        rc = lad_datapath_check(&dp, &err);
    if (rc != LAD_OK)
        return cli_report(&err);

    lad_vecfile *vf;
    rc = lad_vecfile_open(npos ? pos[0] : "-", &vf, &err);
    if (rc != LAD_OK)
        return cli_report(&err);
    if (vf->hdr.k > dp.k) {
        lad_errf(&err, LAD_EDATA, "%s: k %d is more than model '%s' has "
                 "(K %d)", vf->path, vf->hdr.k, dp.name, dp.k);
        lad_vecfile_close(vf);
        return cli_report(&err);
    }
    lad_device *dev = NULL;
    if (devspec && (rc = lad_device_open(devspec, &dp, &dev, &err)) != LAD_OK) {
        lad_vecfile_close(vf);
        return cli_report(&err);
    }
    static outbuf out;
    vf->idle = flush;
    vf->idle_arg = &out;
    const char *line;
    lad_vecloc loc;
    static lad_frozen fz;
    lad_plan pl;
    lad_plan_init(&pl, &dp);
    while ((rc = lad_vecfile_next(vf, &line, &loc, &err)) == LAD_OK) {
        lad_case cs;
        lad_word_t d;
        int has_d;
        /* "@<n> ": the frame, echoed before the answer */
        size_t fl = 0;
        if (line[0] == '@') {
            fl = 1;
            while (line[fl] >= '0' && line[fl] <= '9' && fl < 21)
                fl++;
            if (fl == 1 || line[fl] != ' ') {
                rc = lad_errf_at(&err, LAD_EDATA, loc.file, loc.line, 1,
                                 "bad frame, expected '@<case number> ' "
                                 "before the case");
                break;
            }
            fl++;
        }
        if (vf->kind == LAD_VECFILE_FROZEN) {
            rc = lad_frozen_parse(line + fl, &loc, &fz, &err);
            if (rc == LAD_OK)
                rc = lad_frozen_case(&fz, &dp, &loc, &cs, &d, &err);
        } else {
            rc = lad_vecline_parse(&dp, vf->hdr.k, line + fl, &loc, &cs, &d,
                                   &has_d, &err);
        }
        if (rc != LAD_OK)
            break;
        /* no printf per word: the answer is copied into a block */
        if (out.n + fl + 18 > sizeof out.b)
            flush(&out);
        memcpy(out.b + out.n, line, fl);
        out.n += fl;
        lad_word_t w;
        if (dev) {
            size_t done = 0;
            if ((rc = lad_device_eval(dev, &cs, 1, &w, &done, &err)) != LAD_OK)
                break;
        } else {
            w = lad_plan_eval(&pl, &cs);
        }
        out.n += (size_t)lad_vecline_hex(&dp.d, w, out.b + out.n);
        out.b[out.n++] = '\n';
    }
    flush(&out);
    lad_vecfile_close(vf);
    lad_device_close(dev);
    if (rc != LAD_NO)
        return cli_report(&err);
    return LAD_OK;
}
