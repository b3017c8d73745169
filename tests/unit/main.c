/*
** The unit-test runner: runs every test_<noun>() in the table (or those whose
** name is given on the command line) and closes with
** "unit: N passed, N failed". Exit status 1 when anything failed.
*/
#include "test.h"

#include <stdarg.h>
#include <string.h>

int test_passed, test_failed;
const char *test_data_dir = "tests/data";

void test_check(int ok, const char *name, const char *fmt, ...)
{
    if (ok) {
        test_passed++;
        printf("ok   %s\n", name);
        return;
    }
    test_failed++;
    printf("FAIL %s: ", name);
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
}

/* One line per test file; keep sorted by noun. */
#define TESTS(X)  \
    X(util)       \
    X(progress)   \
    X(format)     \
    X(device)     \
    X(layout)     \
    X(vecline)    \
    X(yaml)       \
    X(modelfile)  \
    X(recipe)     \
    X(probes)     \
    X(packed)     \
    X(decode)     \
    X(store)      \
    X(rational)   \
    X(datapath)   \
    X(scaled)     \
    X(program)    \
    X(gemm_kernel) \
    X(params)      \
    X(canon)       \
    X(evaluators)  \
    X(answer)

#define DECLARE(n) void test_##n(void);
TESTS(DECLARE)

static const struct {
    const char *name;
    void (*fn)(void);
} tests[] = {
#define ENTRY(n) {#n, test_##n},
    TESTS(ENTRY)
};

int main(int argc, char **argv)
{
    for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++) {
        int run = argc < 2;
        for (int j = 1; j < argc; j++)
            if (strcmp(argv[j], tests[i].name) == 0)
                run = 1;
        if (run)
            tests[i].fn();
        fflush(stdout);
    }
    printf("unit: %d passed, %d failed\n", test_passed, test_failed);
    return test_failed ? 1 : 0;
}
