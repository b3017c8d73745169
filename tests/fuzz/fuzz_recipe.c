/* The recipe loader: any bytes either load (and free) or fail with a
** located message. */
#include "fuzz.h"
#include "probes/recipe.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    lad_recipe r;
    lad_err err = {0};
    memset(&r, 0, sizeof r);
    if (lad_recipe_parse("fuzz.yaml", (const char *)data, size, &r, &err) == LAD_OK) {
        lad_datapath dp;
        lad_recipe_datapath(&r, &dp);
    } else if (err.msg[0] == 0) {
        fuzz_fail("recipe refused without a message");
    }
    lad_recipe_free(&r);
    return 0;
}
