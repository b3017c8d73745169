/* A user of the installed library (tests/t7010-lib-install.sh): one preset
** case through lad_eval, a 2 x 3 x 32 lad_gemm on two threads, and the
** preset table's first use from four threads at once. Expected words are
** worked out by hand: 1.0 * 2.0 + 1.0 = 3.0 is f32 0x40400000; 32 products
** 1.0 * 1.0 are 32.0, f32 0x42000000. */
#include <ladder.h>

#include <pthread.h>
#include <stdio.h>
#include <string.h>

static void *count(void *arg)
{
    *(int *)arg = lad_preset_count();
    return NULL;
}

int main(void)
{
    pthread_t t[4];
    int n[4];
    for (int i = 0; i < 4; i++)
        pthread_create(&t[i], NULL, count, &n[i]);
    for (int i = 0; i < 4; i++)
        pthread_join(t[i], NULL);
    for (int i = 1; i < 4; i++)
        if (n[i] != n[0] || n[0] < 1) {
            printf("preset counts differ: %d %d\n", n[0], n[i]);
            return 1;
        }

    const lad_preset *p = lad_preset_find("sm90-mma-f16-f32");
    if (p == NULL) {
        printf("no preset sm90-mma-f16-f32\n");
        return 1;
    }
    lad_case cs;
    memset(&cs, 0, sizeof cs);
    cs.a[0] = 0x3c00;    /* 1.0 */
    cs.b[0] = 0x4000;    /* 2.0 */
    cs.c = 0x3f800000;   /* 1.0 */
    printf("eval %08x\n", (unsigned)lad_eval(&p->dp, &cs));

    lad_word_t A[2 * 32], B[32 * 3], D[2 * 3];
    for (int i = 0; i < 2 * 32; i++)
        A[i] = 0x3c00;
    for (int i = 0; i < 32 * 3; i++)
        B[i] = 0x3c00;
    int rc = lad_gemm(&p->dp, lad_program_preset_find("mainloop"), 2, 3, 32, A, 32,
                      B, 3, NULL, 0, D, 3, 2);
    printf("gemm %d", rc);
    for (int i = 0; i < 6; i++)
        printf(" %08x", (unsigned)D[i]);
    printf("\n");
    return 0;
}
