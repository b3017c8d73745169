/*
** Fuzz targets: one libFuzzer entry point per input the tool reads
** (docs/robustness.md). Each target file defines LLVMFuzzerTestOneInput;
** `make fuzz` links it with libFuzzer, and the replay driver (replay.c)
** links every target, renamed, into one plain program that runs the kept
** corpus and crashers in `make test`.
**
** A target returns 0 for any input the code under test refuses cleanly and
** calls fuzz_fail (abort) when an invariant breaks: a round trip that does
** not come back, or a fast path that disagrees with the reference.
*/
#ifndef LADDER_TESTS_FUZZ_H
#define LADDER_TESTS_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/presets.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Reports a broken invariant and aborts, so that both libFuzzer and the
** replay driver see a crash. */
#define fuzz_fail(...)                                                     \
    do {                                                                   \
        fprintf(stderr, "fuzz: %s:%d: ", __FILE__, __LINE__);              \
        fprintf(stderr, __VA_ARGS__);                                      \
        fputc('\n', stderr);                                               \
        abort();                                                           \
    } while (0)

/* The bytes as a malloc'ed NUL-terminated string (cut at the first NUL,
** as a C string reader would see them). */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (s == NULL)
        abort();
    memcpy(s, data, size);
    s[size] = 0;
    return s;
}

/* The preset a byte picks. */
static inline const lad_preset *fuzz_preset(uint8_t b)
{
    return lad_preset_get(b % lad_preset_count());
}

#endif
