/*
** The unit-test harness: every check prints one line with a stable name,
**
**     ok   format-f16-decode-all
**     FAIL datapath-tf32-window: expected 0x3f800000, got 0x3f800001
**
** and tests/unit/main.c closes with "unit: N passed, N failed". Checks keep
** going after a failure so that one run shows everything that is wrong.
**
** A test file defines `void test_<noun>(void)` and is listed in main.c.
*/
#ifndef LADDER_TESTS_TEST_H
#define LADDER_TESTS_TEST_H

#include <stdio.h>
#include <stdint.h>
#include <inttypes.h>

extern int test_passed, test_failed;
extern const char *test_data_dir;   /* tests/data */

/* Records a check. name is stable across runs; detail explains a failure. */
void test_check(int ok, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Convenience for the common case: two words compared as integers. */
#define TEST_EQ_U32(name, expected, got)                                      \
    do {                                                                      \
        uint32_t e_ = (uint32_t)(expected), g_ = (uint32_t)(got);             \
        test_check(e_ == g_, (name), "expected 0x%08" PRIx32                  \
                   ", got 0x%08" PRIx32, e_, g_);                             \
    } while (0)

/* The same for words of any width (lad_word_t: f64 words too). */
#define TEST_EQ_WORD(name, expected, got)                                     \
    do {                                                                      \
        uint64_t e_ = (uint64_t)(expected), g_ = (uint64_t)(got);             \
        test_check(e_ == g_, (name), "expected 0x%08" PRIx64                  \
                   ", got 0x%08" PRIx64, e_, g_);                             \
    } while (0)

#define TEST_EQ_INT(name, expected, got)                                      \
    do {                                                                      \
        long long e_ = (long long)(expected), g_ = (long long)(got);          \
        test_check(e_ == g_, (name), "expected %lld, got %lld", e_, g_);      \
    } while (0)

#endif
