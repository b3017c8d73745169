/* The model-file loader: what loads must write back as a model file that
** loads to the same datapath (the round trip `model show` promises). */
#include "fuzz.h"
#include "io/modelfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static lad_datapath dp, back;
    char ev[256], ev2[256];
    lad_err err = {0};
    if (lad_model_parse("fuzz.yaml", (const char *)data, size, &dp, ev,
                        sizeof ev, &err) != LAD_OK) {
        if (err.msg[0] == 0)
            fuzz_fail("model refused without a message");
        return 0;
    }
    char *text = lad_model_write(&dp, ev);
    if (text == NULL)
        abort();
    if (lad_model_parse("back.yaml", text, strlen(text), &back, ev2,
                        sizeof ev2, &err) != LAD_OK)
        fuzz_fail("written model does not load: %s", err.msg);
    char *again = lad_model_write(&back, ev2);
    if (again == NULL)
        abort();
    if (strcmp(text, again) != 0 || strcmp(ev, ev2) != 0)
        fuzz_fail("model does not round-trip");
    free(text);
    free(again);
    return 0;
}
