/*
** The fuzz replay driver: runs kept inputs through the fuzz targets without
** libFuzzer, built with the normal compiler (tests/t7100-fuzz-replay.sh).
**
**     fuzz-replay TARGET FILE...
**
** Each FILE is read whole and given to TARGET's entry point, as libFuzzer
** would; a broken invariant aborts (fuzz_fail) with the file named on
** stderr. Prints "TARGET: N inputs" when every file ran; exits 2 for a usage
** error or a file that cannot be read.
*/
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TARGET(name) int fuzz_##name##_one(const uint8_t *data, size_t size);
TARGET(recipe)
TARGET(modelfile)
TARGET(vecline)
TARGET(vecfile)
TARGET(format)
TARGET(plan)
TARGET(npy)
TARGET(merge)
TARGET(migrate)
#undef TARGET

static const struct {
    const char *name;
    int (*one)(const uint8_t *, size_t);
} targets[] = {
    {"recipe", fuzz_recipe_one},   {"modelfile", fuzz_modelfile_one},
    {"vecline", fuzz_vecline_one}, {"vecfile", fuzz_vecfile_one},
    {"format", fuzz_format_one},   {"plan", fuzz_plan_one},
    {"npy", fuzz_npy_one},         {"merge", fuzz_merge_one},
    {"migrate", fuzz_migrate_one},
};

static const char *current = "";   /* the input being run, for a crash */

static void on_crash(int sig)
{
    /* only async-signal-safe calls: say which input, then die of sig */
    const char pre[] = "fuzz-replay: crashed on ";
    ssize_t r = write(2, pre, sizeof pre - 1);
    r = write(2, current, strlen(current));
    r = write(2, "\n", 1);
    (void)r;
    signal(sig, SIG_DFL);
    raise(sig);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: fuzz-replay <target> <file>...\n");
        return 2;
    }
    int t = -1;
    for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++)
        if (strcmp(argv[1], targets[i].name) == 0)
            t = (int)i;
    if (t < 0) {
        fprintf(stderr, "fuzz-replay: unknown target '%s'\n", argv[1]);
        return 2;
    }
    signal(SIGABRT, on_crash);
    signal(SIGSEGV, on_crash);
    signal(SIGBUS, on_crash);
    signal(SIGFPE, on_crash);
    for (int i = 2; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        if (f == NULL) {
            fprintf(stderr, "fuzz-replay: cannot open '%s'\n", argv[i]);
            return 2;
        }
        size_t cap = 4096, n = 0, got;
        uint8_t *buf = malloc(cap);
        while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
            n += got;
            if (n == cap) {
                uint8_t *nb = realloc(buf, cap *= 2);
                if (nb == NULL)
                    free(buf);
                buf = nb;
            }
        }
        int bad = buf == NULL || ferror(f);
        fclose(f);
        if (bad) {
            fprintf(stderr, "fuzz-replay: cannot read '%s'\n", argv[i]);
            free(buf);
            return 2;
        }
        current = argv[i];
        targets[t].one(buf, n);
        free(buf);
    }
    printf("%s: %d inputs\n", argv[1], argc - 2);
    return 0;
}
