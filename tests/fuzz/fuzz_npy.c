/* The .npy reader of `ladder gemm` (io/npy.c): any bytes as a file. What
** it accepts has the element count of its shape, elements of 1, 2, 4 or 8
** bytes, and words that fit them; the sizes it allocates come from a header
** checked against the input's length, so an input of n bytes never costs
** more than about 8n bytes. */
#include "fuzz.h"
#include "io/npy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    lad_npy a;
    lad_err err = {0};
    if (lad_npy_read_mem(data, size, "fuzz.npy", &a, &err) != LAD_OK) {
        if (err.msg[0] == 0)
            fuzz_fail("a refusal without a message");
        return 0;
    }
    size_t count = a.shape[0] * a.shape[1];
    if (a.size != 1 && a.size != 2 && a.size != 4 && a.size != 8)
        fuzz_fail("element size %d", a.size);
    if (count * (size_t)a.size > size)
        fuzz_fail("%zu elements of %d bytes from %zu bytes", count, a.size, size);
    for (size_t i = 0; i < count; i++)
        if (a.size < 8 && a.w[i] >> (8 * a.size))
            fuzz_fail("word %zu does not fit %d bytes", i, a.size);
    lad_npy_free(&a);
    return 0;
}
