/*
** .vec writer: see vecwrite.h.
*/
#include "vecwrite.h"

#include <string.h>

void lad_vechdr_of(const lad_datapath *dp, lad_vechdr *h)
{
    memset(h, 0, sizeof *h);
    snprintf(h->arch, sizeof h->arch, "%s", dp->arch);
    snprintf(h->instruction, sizeof h->instruction, "%s", dp->instr);
    snprintf(h->a, sizeof h->a, "%s", dp->a.name);
    snprintf(h->b, sizeof h->b, "%s", dp->b.name);
    snprintf(h->c, sizeof h->c, "%s", dp->c.name);
    snprintf(h->d, sizeof h->d, "%s", dp->d.name);
    h->k = dp->k;
    h->cases = -1;
}

int lad_vecfile_write_header(FILE *f, const lad_vechdr *h)
{
    const struct {
        const char *key, *value;
    } text[] = {
        {"gpu", h->gpu}, {"arch", h->arch}, {"instruction", h->instruction},
        {"a", h->a},     {"b", h->b},       {"c", h->c},
        {"d", h->d},
    };
    for (size_t i = 0; i < sizeof text / sizeof text[0]; i++)
        if (text[i].value[0] && fprintf(f, "# %s: %s\n", text[i].key, text[i].value) < 0)
            return -1;
    if (h->k > 0 && fprintf(f, "# k: %d\n", h->k) < 0)
        return -1;
    if (h->cases >= 0 && fprintf(f, "# cases: %ld\n", h->cases) < 0)
        return -1;
    if (h->source[0] && fprintf(f, "# source: %s\n", h->source) < 0)
        return -1;
    return 0;
}

int lad_vecfile_write_case(FILE *f, const lad_datapath *dp, int k,
                           const lad_case *cs, lad_word_t d)
{
    /* The line writer writes dp->k lanes; a copy with K cut writes k. That
    ** keeps the line's meaning only where K decides nothing else: no scale
    ** blocks, no sparsity metadata. */
    if (k < 1 || k > dp->k ||
        (k < dp->k && (lad_datapath_nscales(dp) || lad_datapath_nmeta(dp))))
        return -1;
    lad_datapath cut = *dp;
    cut.k = k;
    char line[LAD_VECLINE_MAX];
    if (lad_vecline_format(k == dp->k ? dp : &cut, cs, &d, line, sizeof line) < 0)
        return -1;
    return fprintf(f, "%s\n", line) < 0 ? -1 : 0;
}
