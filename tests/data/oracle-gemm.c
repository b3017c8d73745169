/*
** An exec-device oracle that runs each case as a 1 x 1 x K GEMM through
** libladder's program evaluator (lad_gemm): the K loop of a kernel over
** the MMAs of a preset datapath, as a program says (chaining, promotion,
** split-K and its reduction).
**
**   oracle-gemm <datapath preset> [key=value ...]
**
** The keys are those of a program file (promote, split, reduce, out, ...).
** It reads the vector line format, framed ("@<n> ...") or not, with K
** words of A and B (a multiple of the instruction's K) and answers D in
** the program's output format.
*/
#include "model/ladder.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Reads comma-separated hex words up to the next ';' into w; returns how
** many, and moves *s past the ';'. */
static int words(char **s, lad_word_t *w, int max)
{
    int n = 0;
    char *end;
    while (n < max) {
        w[n++] = (lad_word_t)strtoull(*s, &end, 16);
        *s = end + 1;
        if (*end != ',')
            break;
    }
    return n;
}

int main(int argc, char **argv)
{
    const lad_preset *p = argc > 1 ? lad_preset_find(argv[1]) : NULL;
    if (p == NULL) {
        fprintf(stderr, "usage: oracle-gemm <datapath preset> [key=value ...]\n");
        return 2;
    }
    lad_program prog;
    lad_program_init(&prog);
    for (int i = 2; i < argc; i++) {
        char key[64];
        const char *eq = strchr(argv[i], '=');
        lad_err err = {0};
        if (eq == NULL || eq - argv[i] >= (long)sizeof key)
            return 2;
        memcpy(key, argv[i], (size_t)(eq - argv[i]));
        key[eq - argv[i]] = 0;
        if (lad_program_set(&prog, key, eq + 1, &err) != LAD_OK) {
            fprintf(stderr, "oracle-gemm: %s\n", err.msg);
            return 2;
        }
    }
    int digits = (lad_program_out(&p->dp, &prog)->width + 3) / 4;
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
        lad_word_t a[128], b[128], c, d;
        int k = words(&s, a, 128);
        if (words(&s, b, 128) != k)
            return 1;
        c = (lad_word_t)strtoull(s, NULL, 16);
        lad_err err = {0};
        if (lad_gemm_err(&p->dp, &prog, 1, 1, k, a, k, b, 1, &c, 1, &d, 1, 1, &err) != LAD_OK) {
            fprintf(stderr, "oracle-gemm: %s\n", err.msg);
            return 1;
        }
        printf("%s%0*llx\n", frame, digits, (unsigned long long)d);
        fflush(stdout);
    }
    return 0;
}
