/* The vector line parser: byte 0 picks the datapath (a preset), byte 1 the
** lanes the line fills, the rest is the line. A line that parses must
** format back to a line that parses to the same case and D word. */
#include "fuzz.h"
#include "io/vecline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    const lad_datapath *dp = &fuzz_preset(data[0])->dp;
    int k = data[1] % (LAD_KMAX + 2);
    char *line = fuzz_text(data + 2, size - 2);
    lad_vecloc loc = {"fuzz.vec", 1};
    static lad_case cs, back;
    lad_word_t d, d2;
    int has_d, has_d2;
    lad_err err = {0};
    if (lad_vecline_parse(dp, k, line, &loc, &cs, &d, &has_d, &err) == LAD_OK) {
        char text[LAD_VECLINE_MAX];
        if (lad_vecline_format(dp, &cs, has_d ? &d : NULL, text, sizeof text) < 0)
            fuzz_fail("a parsed case does not format");
        if (lad_vecline_parse(dp, 0, text, &loc, &back, &d2, &has_d2, &err) != LAD_OK)
            fuzz_fail("formatted line does not parse: %s", err.msg);
        /* lanes past dp->k are not the parser's (vecline.h) */
        size_t lanes = (size_t)dp->k * sizeof cs.a[0];
        if (memcmp(cs.a, back.a, lanes) != 0 ||
            memcmp(cs.b, back.b, lanes) != 0 || cs.c != back.c ||
            memcmp(cs.sa, back.sa, sizeof cs.sa) != 0 ||
            memcmp(cs.sb, back.sb, sizeof cs.sb) != 0 ||
            memcmp(cs.meta, back.meta, sizeof cs.meta) != 0 || has_d != has_d2 ||
            (has_d && d != d2))
            fuzz_fail("vector line does not round-trip: '%s'", text);
    } else if (err.msg[0] == 0) {
        fuzz_fail("line refused without a message");
    }
    free(line);
    return 0;
}
