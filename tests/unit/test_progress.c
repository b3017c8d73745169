/*
** Tests of util/progress.c through its interface, on a clock the test
** moves by hand and a stream read back whole: when each line is due (the
** 2 s deferral, the 30 s count lines, the live line's 0.5 s and its ten
** redraws a second), what it says, and what -q, eager and notes change.
** Expected texts are written out by hand from progress.h's description.
*/
#include "test.h"
#include "util/progress.h"

#include <stdlib.h>
#include <string.h>

static double now_s;        /* the test's clock, seconds */

static double fake_clock(void)
{
    return now_s;
}

/* Everything written to f since the last call, into out. */
static void drain(FILE *f, long *at, char *out, size_t size)
{
    fflush(f);
    long end = ftell(f);
    fseek(f, *at, SEEK_SET);
    size_t n = fread(out, 1, size - 1, f);
    out[n] = 0;
    fseek(f, end, SEEK_SET);
    *at = end;
}

static void expect_text(const char *name, const char *want, const char *got)
{
    test_check(strcmp(want, got) == 0, name, "expected '%s', got '%s'", want, got);
}

/* A progress writing into a temporary file, and what it wrote lately. */
typedef struct fixture {
    FILE *f;
    long at;
    char got[1024];
    lad_progress p;
} fixture;

static void setup(fixture *x, int mode, int eager, double t)
{
    x->f = tmpfile();
    x->at = 0;
    now_s = t;
    lad_progress_init_with(&x->p, mode, eager, x->f, fake_clock);
}

static void teardown(fixture *x)
{
    lad_progress_free(&x->p);
    fclose(x->f);
}

/* What was written since the last call. */
static const char *written(fixture *x)
{
    drain(x->f, &x->at, x->got, sizeof x->got);
    return x->got;
}

/* At time t, a poll writes exactly want. */
static void poll_at(fixture *x, double t, const char *name, const char *want)
{
    now_s = t;
    lad_progress_poll(&x->p);
    expect_text(name, want, written(x));
}

static void test_log(void)
{
    fixture x;
    setup(&x, LAD_PROGRESS_LOG, 0, 100);

    /* a stage shorter than 2 s: nothing at all */
    lad_progress_begin(&x.p, "validate run 1: %d cases", 1000);
    lad_progress_update(&x.p, "validate", 500, 1000);
    now_s = 101.9;
    lad_progress_poll(&x.p);
    lad_progress_end(&x.p, 0);
    expect_text("progress-log-short-silent", "", written(&x));

    /* a long one: the begin line at 2 s, a count line every 30 s after it,
    ** the end line with the seconds */
    now_s = 200;
    lad_progress_begin(&x.p, "run r.yaml");
    lad_progress_update(&x.p, "random", 0, 4000);
    poll_at(&x, 201.5, "progress-log-not-yet", "");
    poll_at(&x, 202, "progress-log-begin-at-2s", "run r.yaml\n");
    /* 1000 of 4000 in the step's first 32 s: 96 s left */
    now_s = 210;
    lad_progress_update(&x.p, "random", 1000, 4000);
    lad_progress_poll(&x.p);
    poll_at(&x, 231.9, "progress-log-quiet-under-30s", "");
    poll_at(&x, 232, "progress-log-count-line",
            "run r.yaml: random 1000/4000 (25%), 32.0 s so far, about 96 s left\n");
    poll_at(&x, 250, "progress-log-count-every-30s", "");
    /* a new step starts its rate afresh */
    lad_progress_update(&x.p, "specials", 0, 10);
    now_s = 252;
    lad_progress_update(&x.p, "specials", 5, 10);
    poll_at(&x, 262, "progress-log-step-rate",
            "run r.yaml: specials 5/10 (50%), 62.0 s so far, about 12 s left\n");
    now_s = 263.3;
    lad_progress_end(&x.p, 0);
    expect_text("progress-log-end", "run r.yaml: done in 63.3 s\n", written(&x));

    /* a failed stage says so; a stage with no begin line yet (the watcher
    ** not woken) still gets its end line once over 2 s */
    now_s = 300;
    lad_progress_begin(&x.p, "infer run 2");
    now_s = 305;
    lad_progress_end(&x.p, 5);
    expect_text("progress-log-stopped", "infer run 2: stopped after 5.0 s\n", written(&x));

    /* notes are not for a plain log */
    lad_progress_note(&x.p, "[1/2] x: inferred = preset");
    expect_text("progress-log-no-note", "", written(&x));
    teardown(&x);
}

static void test_eager(void)
{
    fixture x;
    setup(&x, LAD_PROGRESS_LOG, 1, 10);
    lad_progress_begin(&x.p, "[1/2] x: climbing the ladder on sim:x");
    lad_progress_note(&x.p, "[1/2] x: %s", "zeros 12 cases");
    now_s = 10.5;
    lad_progress_end(&x.p, 0);
    /* a stage begun by the callback alone, with no stage under way */
    lad_progress_step(&x.p, "gemm", 1, 2);
    now_s = 11;
    lad_progress_free(&x.p);
    expect_text("progress-eager-lines",
                "[1/2] x: climbing the ladder on sim:x\n"
                "[1/2] x: zeros 12 cases\n"
                "[1/2] x: climbing the ladder on sim:x: done in 0.5 s\n"
                "gemm\n"
                "gemm: done in 0.5 s\n", written(&x));
    fclose(x.f);
}

static void test_live(void)
{
    fixture x;
    unsetenv("COLUMNS");   /* the stream is no terminal: 80 columns */
    setup(&x, LAD_PROGRESS_LIVE, 0, 0);
    lad_progress_begin(&x.p, "gemm 8 x 8 x 16: 64 outputs");
    lad_progress_step(&x.p, "gemm", 16, 64);
    poll_at(&x, 0.4, "progress-live-not-before-0.5s", "");
    poll_at(&x, 0.5, "progress-live-line",
            "\rgemm 8 x 8 x 16: 64 outputs: gemm 16/64 (25%), 0.5 s so far, about 2 s left");
    size_t len = strlen(x.got) - 1;
    /* at most ten redraws a second */
    poll_at(&x, 0.55, "progress-live-throttled", "");
    /* a shorter line covers the longer one's end with spaces */
    lad_progress_update(&x.p, "gemm", 64, 64);
    char want[256];
    const char *body = "\rgemm 8 x 8 x 16: 64 outputs: gemm 64/64 (100%), 0.8 s so far";
    snprintf(want, sizeof want, "%s%*s", body, (int)(len - (strlen(body) - 1)), "");
    poll_at(&x, 0.75, "progress-live-redraw-pads", want);
    /* hidden for stdout: wiped, and not drawn until the next update */
    lad_progress_hide(&x.p);
    snprintf(want, sizeof want, "\r%*s\r", (int)len, "");
    expect_text("progress-live-hide-wipes", want, written(&x));
    poll_at(&x, 1, "progress-live-hidden", "");
    /* the end wipes what is shown and prints no line */
    lad_progress_update(&x.p, NULL, 64, 64);
    lad_progress_poll(&x.p);
    lad_progress_end(&x.p, 0);
    const char *got = written(&x);
    test_check(got[0] == '\r' && strchr(got, '\n') == NULL &&
               strcmp(got + strlen(got) - 2, " \r") == 0,
               "progress-live-end-wipes", "'%s'", got);
    /* the line is cut to 79 columns */
    lad_progress_begin(&x.p, "%s", "a stage label far longer than any terminal line should "
                                   "ever have to carry, as it goes on");
    now_s = 2;
    lad_progress_step(&x.p, "validate", 1, 1000000);
    lad_progress_poll(&x.p);
    got = written(&x);
    test_check(strlen(got) == 80 && got[0] == '\r', "progress-live-79-columns",
               "%zu bytes: '%s'", strlen(got), got);
    /* COLUMNS=200: the whole line, which is longer than 79 */
    setenv("COLUMNS", "200", 1);
    now_s = 2.2;
    lad_progress_step(&x.p, "validate", 2, 1000000);
    lad_progress_poll(&x.p);
    got = written(&x);
    test_check(strlen(got) > 80 && strlen(got) <= 200 && got[0] == '\r' &&
               strcmp(got + strlen(got) - 6, "s left") == 0, "progress-live-columns-200",
               "%zu bytes: '%s'", strlen(got), got);
    /* the whole command's count and time left: one unit in 2 s, 3 to go */
    lad_progress_overall(&x.p, "survey", 0, 4);
    now_s = 4.2;
    lad_progress_overall(&x.p, "survey", 1, 4);
    lad_progress_step(&x.p, "validate", 3, 1000000);
    lad_progress_poll(&x.p);
    got = written(&x);
    test_check(strstr(got, "; survey 1/4, about 6 s left") != NULL && strlen(got) <= 200,
               "progress-live-overall", "'%s'", got);
    /* at 30 columns, 29 */
    setenv("COLUMNS", "30", 1);
    now_s = 4.4;
    lad_progress_step(&x.p, "validate", 4, 1000000);
    lad_progress_poll(&x.p);
    got = written(&x);
    /* 29 characters, then spaces over the rest of the longer line before */
    test_check(got[0] == '\r' && strncmp(got + 1, "a stage label far longer than", 29) == 0 &&
               got[30] == ' ', "progress-live-columns-30", "'%s'", got);
    unsetenv("COLUMNS");
    teardown(&x);
}

static void test_off(void)
{
    fixture x;
    setup(&x, LAD_PROGRESS_OFF, 1, 0);
    lad_progress_begin(&x.p, "validate");
    lad_progress_note(&x.p, "a note");
    now_s = 100;
    lad_progress_step(&x.p, "validate", 1, 2);
    lad_progress_poll(&x.p);
    lad_progress_end(&x.p, 0);
    lad_progress_free(&x.p);
    expect_text("progress-off-silent", "", written(&x));
    fclose(x.f);
}

void test_progress(void)
{
    test_log();
    test_eager();
    test_live();
    test_off();
}
