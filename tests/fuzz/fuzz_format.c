/* Format specs: a spec that parses prints (lad_format_spec, and the short
** lad_format_spec_short a model file writes) as a spec that parses back to
** the same format, every field but the name. */
#include "fuzz.h"
#include "model/format_spec.h"

static int same(const lad_format *x, const lad_format *y)
{
    return x->kind == y->kind && x->width == y->width && x->pad == y->pad &&
           x->sign == y->sign && x->ebits == y->ebits && x->mbits == y->mbits &&
           x->bias == y->bias && x->sub == y->sub && x->inf == y->inf &&
           x->nan == y->nan;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 256)
        return 0;
    char *spec = fuzz_text(data, size);
    lad_format f, g;
    lad_err err = {0};
    if (lad_format_parse(spec, &f, &err) == LAD_OK) {
        char text[256];
        if (lad_format_spec(&f, text, sizeof text) >= sizeof text)
            fuzz_fail("spec of '%s' too long", spec);
        if (lad_format_parse(text, &g, &err) != LAD_OK)
            fuzz_fail("'%s' prints as '%s', which does not parse: %s", spec,
                      text, err.msg);
        if (!same(&f, &g))
            fuzz_fail("'%s' prints as '%s', another format", spec, text);
        if (lad_format_spec_short(&f, text, sizeof text) >= sizeof text)
            fuzz_fail("short spec of '%s' too long", spec);
        if (lad_format_parse(text, &g, &err) != LAD_OK)
            fuzz_fail("'%s' is short for '%s', which does not parse: %s",
                      spec, text, err.msg);
        if (!same(&f, &g))
            fuzz_fail("'%s' is short for '%s', another format", spec, text);
    } else if (err.msg[0] == 0) {
        fuzz_fail("spec refused without a message");
    }
    free(spec);
    return 0;
}
