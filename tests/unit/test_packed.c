/*
** inference/packed.c: cases packed at their formats' widths read back bit
** for bit, against the lad_case they came from (the naive oracle), for a
** 2-byte, a 1-byte scaled and a sparse datapath; a word too wide for its
** format widens the set instead of losing bits; lanes past K are refused.
*/
#include "test.h"
#include "inference/packed.h"
#include "model/presets.h"
#include "probes/gen.h"

#include <stdlib.h>
#include <string.h>

/* Packs `n` raw cases of preset `name` and reads them back in reverse. */
static void roundtrip(const char *name, const char *check, int width_bytes)
{
    const lad_preset *p = lad_preset_find(name);
    char nm[96];
    snprintf(nm, sizeof nm, "packed-%s-preset", check);
    test_check(p != NULL, nm, "no preset %s", name);
    if (!p)
        return;
    enum { N = 3000 };
    lad_case *cs = calloc(N, sizeof *cs), *back = calloc(1, sizeof *back);
    lad_packed pk;
    lad_err err = {0};
    lad_packed_init(&pk, &p->dp);
    lad_gen_cases(&p->dp, 5, 50, 0, cs, N);
    int rc = LAD_OK;
    for (size_t i = 0; i < N && rc == LAD_OK; i++)
        rc = lad_packed_add(&pk, &cs[i], &err);
    snprintf(nm, sizeof nm, "packed-%s-add", check);
    test_check(rc == LAD_OK && pk.n == N, nm, "rc %d, n %zu: %s", rc, pk.n, err.msg);
    size_t bad = 0;
    for (size_t i = pk.n; i-- > 0;) {
        lad_packed_get(&pk, i, back);
        bad += memcmp(back, &cs[i], sizeof *back) != 0;
    }
    snprintf(nm, sizeof nm, "packed-%s-roundtrip", check);
    TEST_EQ_INT(nm, 0, bad);
    snprintf(nm, sizeof nm, "packed-%s-width", check);
    TEST_EQ_INT(nm, width_bytes, pk.wa);
    snprintf(nm, sizeof nm, "packed-%s-smaller", check);
    test_check(pk.stride < sizeof(lad_case) / 4, nm, "stride %zu", pk.stride);
    lad_packed_free(&pk);
    free(cs);
    free(back);
}

void test_packed(void)
{
    roundtrip("sm90-mma-bf16-f32", "bf16", 2);
    roundtrip("sm100-tcgen05-mxf8f6f4-e4m3-f32", "scaled", 1);
    roundtrip("sm100-tcgen05-sp-f16-f32", "sparse", 2);

    const lad_preset *p = lad_preset_find("sm90-mma-bf16-f32");
    lad_packed pk;
    lad_err err = {0};
    lad_packed_init(&pk, &p->dp);
    lad_case a, b, back;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    memset(&back, 0, sizeof back);
    a.a[0] = 0x3f80;
    b.a[3] = 0x12345678; /* bits above bf16's 16 */
    b.c = 0xffffffff;
    int rc = lad_packed_add(&pk, &a, &err);
    if (rc == LAD_OK)
        rc = lad_packed_add(&pk, &b, &err);
    test_check(rc == LAD_OK && pk.wa == 4, "packed-wide-word-widens", "rc %d, wa %d", rc, pk.wa);
    lad_packed_get(&pk, 0, &back);
    test_check(memcmp(&back, &a, sizeof a) == 0, "packed-wide-keeps-earlier", "case 0 changed");
    lad_packed_get(&pk, 1, &back);
    test_check(memcmp(&back, &b, sizeof b) == 0, "packed-wide-roundtrip", "case 1 changed");
    /* the set keeps growing after widening */
    size_t bad = 0;
    for (uint32_t i = 0; i < 5000 && rc == LAD_OK; i++) {
        a.c = i;
        rc = lad_packed_add(&pk, &a, &err);
    }
    for (size_t i = 2; i < pk.n; i++) {
        lad_packed_get(&pk, i, &back);
        bad += back.c != i - 2 || back.a[0] != 0x3f80;
    }
    test_check(rc == LAD_OK && pk.n == 5002 && bad == 0, "packed-wide-grows",
               "rc %d, n %zu, %zu wrong", rc, pk.n, bad);
    b.a[LAD_KMAX - 1] = 1; /* a lane past K = 16 */
    rc = lad_packed_add(&pk, &b, &err);
    TEST_EQ_INT("packed-lane-past-k-refused", LAD_EDATA, rc);
    TEST_EQ_INT("packed-lane-past-k-not-added", 5002, pk.n);
    lad_packed_free(&pk);
}
