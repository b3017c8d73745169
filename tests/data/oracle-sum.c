/*
** An exec-device oracle that stands for a library reduction of f32
** products: D = sum_k A[k]*B[k] + C, each product and each addition one
** IEEE f32 operation (round to nearest even), in the order its mode says:
**
**   oracle-sum seq            ((p0 + p1) + p2) + ...
**   oracle-sum pairwise       (p0 + p1) + (p2 + p3), halves of halves
**   oracle-sum block N        each block of N lanes summed in order, then
**                             the block sums in order (K a multiple of N)
**
** The order is what the sumtree rung must find out blind. C is added last.
** It reads the vector line format (f32 words, "A0,...;B0,...;C"), framed
** ("@<n> ...") or not, and answers one D word per line.
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static float word(uint32_t w)
{
    float f;
    memcpy(&f, &w, sizeof f);
    return f;
}

static uint32_t bits(float f)
{
    uint32_t w;
    memcpy(&w, &f, sizeof w);
    return w;
}

static float pairwise(const float *p, int n)
{
    if (n == 1)
        return p[0];
    int h = n / 2;
    volatile float s = pairwise(p, h) + pairwise(p + h, n - h);
    return s;
}

static float seq(const float *p, int n)
{
    volatile float s = p[0];
    for (int i = 1; i < n; i++)
        s = s + p[i];
    return s;
}

int main(int argc, char **argv)
{
    int block = 0;
    if (argc == 3 && strcmp(argv[1], "block") == 0)
        block = atoi(argv[2]);
    else if (argc != 2 || (strcmp(argv[1], "seq") && strcmp(argv[1], "pairwise"))) {
        fprintf(stderr, "usage: oracle-sum seq|pairwise|block N\n");
        return 2;
    }
    char line[8192];
    while (fgets(line, sizeof line, stdin)) {
        char *s = line, frame[32] = "";
        if (*s == '@') {
            char *sp = strchr(s, ' ');
            if (sp == NULL || sp - s >= (long)sizeof frame)
                return 1;
            memcpy(frame, s, (size_t)(sp - s + 1));
            frame[sp - s + 1] = 0;
            s = sp + 1;
        }
        float a[128], b[128], p[128];
        int na = 0, nb = 0;
        char *end;
        while (na < 128) {
            a[na++] = word((uint32_t)strtoul(s, &end, 16));
            s = end + 1;
            if (*end != ',')
                break;
        }
        while (nb < 128) {
            b[nb++] = word((uint32_t)strtoul(s, &end, 16));
            s = end + 1;
            if (*end != ',')
                break;
        }
        float c = word((uint32_t)strtoul(s, &end, 16));
        if (na != nb)
            return 1;
        for (int i = 0; i < na; i++)
            p[i] = a[i] * b[i];
        volatile float d;
        if (block > 0) {
            float sums[128];
            int nblk = 0;
            for (int i = 0; i < na; i += block)
                sums[nblk++] = seq(p + i, na - i < block ? na - i : block);
            d = seq(sums, nblk);
        } else if (strcmp(argv[1], "seq") == 0)
            d = seq(p, na);
        else
            d = pairwise(p, na);
        d = d + c;
        printf("%s%08x\n", frame, (unsigned)bits(d));
        fflush(stdout);
    }
    return 0;
}
