/* The .vec file reader (header, lines) and the frozen line format: every
** data line goes through the parser of its kind, against the preset the
** header or the line names when there is one, else a preset picked by the
** file's length. */
#include "fuzz.h"
#include "io/vecfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    FILE *f = fmemopen((void *)data, size, "rb");
    if (f == NULL)
        return 0;
    lad_vecfile *vf;
    lad_err err = {0};
    if (lad_vecfile_openf(f, "fuzz.vec", &vf, &err) != LAD_OK) {
        fclose(f);
        return 0;
    }
    const lad_datapath *dp = &fuzz_preset((uint8_t)size)->dp;
    char name[96];
    if (vf->kind == LAD_VECFILE_VEC &&
        lad_vechdr_preset(&vf->hdr, vf->path, name, sizeof name, &err) == LAD_OK &&
        lad_preset_find(name))
        dp = &lad_preset_find(name)->dp;
    const char *line;
    lad_vecloc loc;
    static lad_case cs;
    static lad_frozen fz;
    lad_word_t d;
    int has_d, n = 0;
    while (n++ < 10000 && lad_vecfile_next(vf, &line, &loc, &err) == LAD_OK) {
        if (vf->kind == LAD_VECFILE_VEC) {
            lad_vecline_parse(dp, vf->hdr.k, line, &loc, &cs, &d, &has_d, &err);
        } else if (lad_frozen_parse(line, &loc, &fz, &err) == LAD_OK) {
            const lad_preset *p = lad_preset_find(fz.preset);
            lad_frozen_case(&fz, p ? &p->dp : dp, &loc, &cs, &d, &err);
        }
    }
    lad_vecfile_close(vf);
    return 0;
}
