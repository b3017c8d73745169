/* failmalloc.so: makes the N-th allocation of a process fail.
**
**     LD_PRELOAD=failmalloc.so FAILMALLOC_AT=N ladder ...
**
** malloc, calloc, realloc and posix_memalign count their calls; the N-th
** returns NULL (ENOMEM), every other goes to glibc's own (__libc_malloc...).
** With FAILMALLOC_COUNT=FILE the number of calls is written to FILE at exit,
** so a test can choose N over the whole run. Built by the tests
** (tests/t4287-store-malloc-faults.sh), never part of ladder. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);

static unsigned long calls, at;
static int armed = -1;

static int fail_now(void)
{
    if (armed < 0) {
        const char *s = getenv("FAILMALLOC_AT");
        at = s ? strtoul(s, NULL, 10) : 0;
        armed = 1;
    }
    if (++calls == at) {
        errno = ENOMEM;
        return 1;
    }
    return 0;
}

void *malloc(size_t n) { return fail_now() ? NULL : __libc_malloc(n); }
void *calloc(size_t m, size_t n) { return fail_now() ? NULL : __libc_calloc(m, n); }
void *realloc(void *p, size_t n) { return fail_now() ? NULL : __libc_realloc(p, n); }
int posix_memalign(void **p, size_t a, size_t n)
{
    if (fail_now())
        return ENOMEM;
    *p = __libc_memalign(a, n);
    return *p ? 0 : ENOMEM;
}

__attribute__((destructor)) static void report(void)
{
    const char *f = getenv("FAILMALLOC_COUNT");
    if (f) {
        FILE *o = fopen(f, "w");
        if (o) {
            fprintf(o, "%lu\n", calls);
            fclose(o);
        }
    }
}
