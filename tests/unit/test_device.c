/*
** Tests of the device layer through lad_device_open: spec errors, and the
** exec device against the small oracle scripts in tests/data (a correct one,
** and ones that die, print garbage, answer with the wrong width, hang or
** quit at once). Every failure must name the case and keep the answers
** received before it.
*/
#include "test.h"
#include "devices/device.h"
#include "io/modelfile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

/* f16 x f16 + f32 -> f32, K 4: C and D have the same width, so an oracle
** that echoes C is a correct device for it. */
static void make_dp(lad_datapath *dp)
{
    lad_datapath_init(dp);
    strcpy(dp->name, "test-f16-f32");
    dp->a = *lad_format_find("f16");
    dp->b = dp->a;
    dp->k = 4;
    dp->pass = 4;
}

static void make_cases(lad_case *cs, size_t n)
{
    memset(cs, 0, n * sizeof *cs);
    for (size_t i = 0; i < n; i++) {
        for (int j = 0; j < 4; j++) {
            cs[i].a[j] = (uint32_t)(i * 7 + (size_t)j) & 0xffff;
            cs[i].b[j] = (uint32_t)(i * 13 + (size_t)j) & 0xffff;
        }
        cs[i].c = (uint32_t)(i * 2654435761u);
    }
}

static int has(const lad_err *err, const char *s)
{
    return strstr(err->msg, s) != NULL;
}

/* Opens an exec device (kind "exec", "exec-framed" or "exec-unframed") on a script of
** tests/data and runs n cases. */
static int run_kind(const char *kind, const char *script, size_t n,
                    size_t *done, lad_err *err, uint64_t **dout)
{
    static lad_datapath dp;
    make_dp(&dp);
    char spec[512];
    snprintf(spec, sizeof spec, "%s:sh %s/%s", kind, test_data_dir, script);
    lad_device *dev;
    lad_err_clear(err);
    *done = 0;
    int rc = lad_device_open(spec, &dp, &dev, err);
    if (rc != LAD_OK)
        return rc;
    lad_case *cs = calloc(n, sizeof *cs);
    uint64_t *d = calloc(n, sizeof *d);
    make_cases(cs, n);
    rc = lad_device_eval(dev, cs, n, d, done, err);
    lad_device_close(dev);
    free(cs);
    if (dout)
        *dout = d;
    else
        free(d);
    return rc;
}

static int run_script(const char *script, size_t n, size_t *done,
                      lad_err *err, uint64_t **dout)
{
    return run_kind("exec", script, n, done, err, dout);
}

static void test_specs(void)
{
    lad_datapath dp;
    make_dp(&dp);
    lad_device *dev = NULL;
    lad_err err = {0};
    int rc;
    const char *bad[] = {"gpu:0", "sim:", "exec:", "exec:   ", "cuda:x",
                         "cuda:", "cuda:-1", "", "SIM:x", "cublaslt:",
                         "cublaslt:x:split_k=2", "cublaslt:1234"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char name[64];
        snprintf(name, sizeof name, "device-spec-bad-%zu", i);
        lad_err_clear(&err);
        rc = lad_device_open(bad[i], &dp, &dev, &err);
        test_check(rc == LAD_EUSAGE && dev == NULL &&
                   has(&err, "unknown device") &&
                   has(&err, "expected sim:MODEL, exec:COMMAND, "
                       "exec-unframed:COMMAND, cuda:N or cublaslt:N[:OPTIONS]"),
                   name, "spec '%s': rc %d, '%s'", bad[i], rc, err.msg);
    }
#ifndef LADDER_CUDA
    lad_err_clear(&err);
    rc = lad_device_open("cuda:0", &dp, &dev, &err);
    test_check(rc == LAD_EDEVICE && has(&err, "without CUDA"),
               "device-cuda-not-built", "rc %d, '%s'", rc, err.msg);
#else
    /* dp is no instruction of the kernel table: a usage error, with or
    ** without a GPU, and err records the code that is returned. */
    lad_err_clear(&err);
    rc = lad_device_open("cuda:0", &dp, &dev, &err);
    test_check(rc == LAD_EUSAGE && err.code == rc && dev == NULL &&
                   has(&err, "no CUDA kernel for"),
               "device-cuda-no-kernel", "rc %d, code %d, '%s'", rc, err.code, err.msg);
#endif
    lad_err_clear(&err);
    rc = lad_device_open("sim:no-such-model", &dp, &dev, &err);
    test_check(rc == LAD_EUSAGE && has(&err, "'no-such-model'"),
               "device-sim-unknown-model", "rc %d, '%s'", rc, err.msg);
}

static void test_exec_good(void)
{
    lad_datapath dp;
    make_dp(&dp);
    lad_device *dev;
    lad_err err = {0};
    char spec[512];
    snprintf(spec, sizeof spec, "exec:sh %s/oracle-c.sh", test_data_dir);
    int rc = lad_device_open(spec, &dp, &dev, &err);
    TEST_EQ_INT("device-exec-open", LAD_OK, rc);
    if (rc != LAD_OK)
        return;
    test_check(strcmp(dev->info.kind, "exec") == 0 &&
               strstr(dev->info.name, "oracle-c.sh") != NULL,
               "device-exec-info", "kind '%s', name '%s'", dev->info.kind,
               dev->info.name);
    /* Large enough to fill both pipes many times over. */
    size_t n = 5000, done = 0;
    lad_case *cs = calloc(n, sizeof *cs);
    uint64_t *d = calloc(n, sizeof *d);
    make_cases(cs, n);
    rc = lad_device_eval(dev, cs, n, d, &done, &err);
    size_t bad = n;
    for (size_t i = 0; i < n && bad == n; i++)
        if (d[i] != cs[i].c)
            bad = i;
    test_check(rc == LAD_OK && done == n && bad == n,
               "device-exec-large-batch", "rc %d (%s), done %zu, first bad "
               "%zu", rc, err.msg, done, bad);
    /* A second batch on the same program. */
    memset(d, 0, n * sizeof *d);
    rc = lad_device_eval(dev, cs + 100, 3, d, &done, &err);
    test_check(rc == LAD_OK && done == 3 && d[0] == cs[100].c &&
               d[2] == cs[102].c, "device-exec-second-batch",
               "rc %d (%s), done %zu", rc, err.msg, done);
    lad_device_close(dev);
    free(cs);
    free(d);
}

static void test_exec_failures(void)
{
    lad_err err = {0};
    size_t done;
    uint64_t *d = NULL;

    int rc = run_script("oracle-die.sh", 10, &done, &err, &d);
    lad_case cs[2];
    make_cases(cs, 2);
    test_check(rc == LAD_EDEVICE && done == 2 && d[0] == cs[0].c &&
               d[1] == cs[1].c && has(&err, "exited with status 3") &&
               has(&err, "case 2"), "device-exec-dies",
               "rc %d, done %zu, '%s'", rc, done, err.msg);
    free(d);
    /* Its stderr went to a file, summed up in the message by its last line;
    ** the file is kept for the rest. */
    const char *in = strstr(err.msg, " lines in ");
    char path[512] = "";
    if (in)
        snprintf(path, sizeof path, "%.*s", (int)strcspn(in + 10, ")"), in + 10);
    FILE *ef = path[0] ? fopen(path, "r") : NULL;
    char first[80] = "";
    if (ef) {
        if (fgets(first, sizeof first, ef) == NULL)
            first[0] = 0;
        fclose(ef);
        unlink(path);
    }
    test_check(has(&err, "its stderr: 'oracle-die: no more answers after 2 "
                   "cases' (2 lines in ") &&
                   strcmp(first, "oracle-die: warming up\n") == 0,
               "device-exec-stderr-summary", "'%s', file '%s' begins '%s'",
               err.msg, path, first);

    rc = run_script("oracle-garbage.sh", 10, &done, &err, NULL);
    test_check(rc == LAD_EDEVICE && done == 1 &&
               has(&err, "garbage '@1 hello world'") && has(&err, "case 1"),
               "device-exec-garbage", "rc %d, done %zu, '%s'", rc, done,
               err.msg);

    rc = run_script("oracle-width.sh", 10, &done, &err, NULL);
    test_check(rc == LAD_EDEVICE && done == 0 &&
               has(&err, "answered '@0 7fc0' for case 0") &&
               has(&err, "expected 8 hex digits"), "device-exec-width",
               "rc %d, done %zu, '%s'", rc, done, err.msg);

    rc = run_script("oracle-quit.sh", 3000, &done, &err, NULL);
    test_check(rc == LAD_EDEVICE && done == 0 &&
               has(&err, "exited with status 5") && has(&err, "case 0"),
               "device-exec-quits", "rc %d, done %zu, '%s'", rc, done,
               err.msg);

    {
        lad_datapath mdp;
        make_dp(&mdp);
        lad_device *mdev;
        lad_case mc[3];
        uint64_t md[3];
        make_cases(mc, 3);
        lad_err_clear(&err);
        done = 0;
        rc = lad_device_open("exec:ladder-no-such-program 2>/dev/null", &mdp, &mdev,
                             &err);
        if (rc == LAD_OK) {
            rc = lad_device_eval(mdev, mc, 3, md, &done, &err);
            lad_device_close(mdev);
        }
        test_check(rc == LAD_EDEVICE && done == 0 &&
                   has(&err, "status 127"), "device-exec-missing-program",
                   "rc %d, done %zu, '%s'", rc, done, err.msg);
    }

    /* A hanging program: a timeout naming the case, then refusal. */
    setenv("LADDER_EXEC_TIMEOUT", "0.3", 1);
    lad_datapath dp;
    make_dp(&dp);
    lad_device *dev;
    char spec[512];
    snprintf(spec, sizeof spec, "exec:sh %s/oracle-hang.sh", test_data_dir);
    lad_err_clear(&err);
    rc = lad_device_open(spec, &dp, &dev, &err);
    if (rc == LAD_OK) {
        lad_case hc[5];
        uint64_t hd[5];
        make_cases(hc, 5);
        rc = lad_device_eval(dev, hc, 5, hd, &done, &err);
        test_check(rc == LAD_EDEVICE && done == 1 && hd[0] == hc[0].c &&
                   has(&err, "timed out") && has(&err, "case 1"),
                   "device-exec-timeout", "rc %d, done %zu, '%s'", rc, done,
                   err.msg);
        lad_err_clear(&err);
        rc = lad_device_eval(dev, hc, 5, hd, &done, &err);
        test_check(rc == LAD_EDEVICE && done == 0 &&
                   has(&err, "failed earlier"), "device-exec-stays-failed",
                   "rc %d, done %zu, '%s'", rc, done, err.msg);
        lad_device_close(dev);
    } else {
        test_check(0, "device-exec-timeout", "open: %s", err.msg);
    }

    setenv("LADDER_EXEC_TIMEOUT", "soon", 1);
    lad_err_clear(&err);
    rc = lad_device_open(spec, &dp, &dev, &err);
    test_check(rc == LAD_EUSAGE && has(&err, "LADDER_EXEC_TIMEOUT"),
               "device-exec-bad-timeout", "rc %d, '%s'", rc, err.msg);
    unsetenv("LADDER_EXEC_TIMEOUT");

    /* After a timeout, closing leaves nothing of the program's process
    ** group: the shell and the child it started in the background. */
    setenv("LADDER_EXEC_TIMEOUT", "0.3", 1);
    char pidfile[200];
    snprintf(pidfile, sizeof pidfile, "%s/ladder-test-group.%d", getenv("TMPDIR")
             ? getenv("TMPDIR") : "/tmp", (int)getpid());
    snprintf(spec, sizeof spec, "exec:sh %s/oracle-group.sh %s", test_data_dir,
             pidfile);
    lad_err_clear(&err);
    rc = lad_device_open(spec, &dp, &dev, &err);
    long group = 0;
    if (rc == LAD_OK) {
        lad_case gc[3];
        uint64_t gd[3];
        make_cases(gc, 3);
        rc = lad_device_eval(dev, gc, 3, gd, &done, &err);
        lad_device_close(dev);
        FILE *pf = fopen(pidfile, "r");
        if (pf == NULL || fscanf(pf, "%ld", &group) != 1)
            group = 0;
        if (pf)
            fclose(pf);
        unlink(pidfile);
    }
    errno = 0;
    test_check(rc == LAD_EDEVICE && has(&err, "timed out") && group > 0 &&
                   kill(-(pid_t)group, 0) == -1 && errno == ESRCH,
               "device-exec-timeout-group-gone", "rc %d, group %ld, errno %d, "
               "'%s'", rc, group, errno, err.msg);
    unsetenv("LADDER_EXEC_TIMEOUT");

    /* Every program started above has been reaped. */
    errno = 0;
    pid_t r = waitpid(-1, NULL, WNOHANG);
    test_check(r == -1 && errno == ECHILD, "device-exec-reaped",
               "waitpid returned %d", (int)r);
}

/* The sim device evaluates its model; a model of another shape is refused. */
static void test_sim(void)
{
    lad_datapath dp;
    lad_err err = {0};
    if (lad_model_resolve("sm70-mma-f16-f32", &dp, &err) != LAD_OK) {
        test_check(0, "device-sim-open", "%s", err.msg);
        return;
    }
    lad_device *dev = NULL;
    int rc = lad_device_open("sim:sm80-mma-f16-f32", &dp, &dev, &err);
    test_check(rc == LAD_EUSAGE && dev == NULL && has(&err, "does not fit"),
               "device-sim-shape", "rc %d, '%s'", rc, err.msg);
    lad_err_clear(&err);
    /* Same shape, other arithmetic (f16 result): allowed. */
    rc = lad_device_open("sim:sm70-mma-f16-f32", &dp, &dev, &err);
    TEST_EQ_INT("device-sim-open", LAD_OK, rc);
    if (rc != LAD_OK)
        return;
    test_check(strcmp(dev->info.kind, "sim") == 0 &&
               strcmp(dev->info.name, "sm70-mma-f16-f32") == 0,
               "device-sim-info", "kind '%s', name '%s'", dev->info.kind,
               dev->info.name);
    lad_case cs[64];
    uint64_t d[64];
    size_t done = 0;
    make_cases(cs, 64);
    rc = lad_device_eval(dev, cs, 64, d, &done, &err);
    size_t bad = 64;
    for (size_t i = 0; i < 64 && bad == 64; i++)
        if (d[i] != lad_eval(&dp, &cs[i]))
            bad = i;
    test_check(rc == LAD_OK && done == 64 && bad == 64, "device-sim-eval",
               "rc %d, done %zu, first difference %zu", rc, done, bad);
    lad_device_close(dev);
}

/* `ladder eval` as an exec device must agree with the sim device on the
** same preset: the two ends of the vector line format meet. Needs $LADDER
** (set by tests/run.sh) and the sm100-tcgen05-mxf8f6f4-e4m3-f32 preset. */
static void test_exec_ladder(void)
{
    const char *ladder = getenv("LADDER");
    const char *preset = "sm100-tcgen05-mxf8f6f4-e4m3-f32";
    if (ladder == NULL || *ladder == 0)
        return;
    lad_err err = {0};
    lad_device *sim = NULL, *ex = NULL;
    char spec[600];
    snprintf(spec, sizeof spec, "sim:%s", preset);
    lad_datapath dp;
    /* The instruction is the preset itself. */
    int rc = lad_model_resolve(preset, &dp, &err);
    if (rc != LAD_OK) {
        test_check(0, "device-exec-ladder-eval", "%s", err.msg);
        return;
    }
    rc = lad_device_open(spec, &dp, &sim, &err);
    snprintf(spec, sizeof spec, "exec:%s eval --model %s", ladder, preset);
    if (rc == LAD_OK)
        rc = lad_device_open(spec, &dp, &ex, &err);
    if (rc != LAD_OK) {
        test_check(0, "device-exec-ladder-eval", "%s", err.msg);
        lad_device_close(sim);
        return;
    }
    size_t n = 2000, done1 = 0, done2 = 0;
    lad_case *cs = calloc(n, sizeof *cs);
    uint64_t *d1 = calloc(n, sizeof *d1), *d2 = calloc(n, sizeof *d2);
    uint64_t x = 0x9e3779b97f4a7c15u;
    for (size_t i = 0; i < n; i++) {
        for (int j = 0; j < dp.k; j++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            cs[i].a[j] = (uint32_t)x & 0xff;
            cs[i].b[j] = (uint32_t)(x >> 8) & 0xff;
        }
        cs[i].c = (uint32_t)(x >> 16);
        cs[i].sa[0] = (uint8_t)(x >> 48);
        cs[i].sb[0] = (uint8_t)(x >> 56);
    }
    int r1 = lad_device_eval(sim, cs, n, d1, &done1, &err);
    int r2 = lad_device_eval(ex, cs, n, d2, &done2, &err);
    size_t bad = n;
    for (size_t i = 0; i < n && bad == n; i++)
        if (d1[i] != d2[i])
            bad = i;
    test_check(r1 == LAD_OK && r2 == LAD_OK && done2 == n && bad == n,
               "device-exec-ladder-eval", "rc %d/%d (%s), done %zu, first "
               "difference at %zu", r1, r2, err.msg, done2, bad);
    lad_device_close(sim);
    lad_device_close(ex);
    free(cs);
    free(d1);
    free(d2);
}

/* The framed protocol, exec:'s own: a framed oracle works; one that prints
** an extra line and drops a later one is caught at the extra line, one that
** swaps two answers at the first of them, where the unframed protocol sees
** nothing wrong by count; a bare answer to a framed line is refused; and
** the unframed protocol still catches more answers than cases. */
static void test_exec_framed(void)
{
    lad_err err = {0};
    size_t done;
    uint64_t *d = NULL;
    lad_case cs[10];
    make_cases(cs, 10);

    int rc = run_kind("exec-framed", "oracle-c.sh", 600, &done, &err, &d);
    lad_case *big = calloc(600, sizeof *big);
    make_cases(big, 600);
    size_t bad = 600;
    for (size_t i = 0; d && i < 600 && bad == 600; i++)
        if (d[i] != big[i].c)
            bad = i;
    test_check(rc == LAD_OK && done == 600 && bad == 600, "device-framed-good",
               "rc %d (%s), done %zu, first bad %zu", rc, err.msg, done, bad);
    free(big);
    free(d);

    rc = run_kind("exec-framed", "oracle-extra.sh", 10, &done, &err, &d);
    test_check(rc == LAD_EDEVICE && done == 2 && d[0] == cs[0].c &&
                   d[1] == cs[1].c &&
                   has(&err, "answered case 1 ('@1 ") &&
                   has(&err, "where case 2 (input line 3) was due"),
               "device-framed-extra-line", "rc %d, done %zu, '%s'", rc, done,
               err.msg);
    free(d);

    /* exec: is framed */
    rc = run_kind("exec", "oracle-extra.sh", 10, &done, &err, &d);
    test_check(rc == LAD_EDEVICE && done == 2 &&
                   has(&err, "where case 2 (input line 3) was due"),
               "device-exec-default-framed-extra", "rc %d, done %zu, '%s'", rc, done,
               err.msg);
    free(d);
    rc = run_kind("exec", "oracle-swap.sh", 10, &done, &err, &d);
    test_check(rc == LAD_EDEVICE && done == 1 &&
                   has(&err, "answered case 2 ('@2 ") &&
                   has(&err, "where case 1 (input line 2) was due"),
               "device-exec-default-framed-swap", "rc %d, done %zu, '%s'", rc, done,
               err.msg);
    free(d);
    rc = run_kind("exec-unframed", "oracle-swap.sh", 10, &done, &err, &d);
    test_check(rc == LAD_OK && done == 10 && d[1] == cs[2].c && d[2] == cs[1].c,
               "device-unframed-swap-unseen", "rc %d, done %zu, '%s'", rc, done,
               err.msg);
    free(d);

    /* the same oracle, unframed: in step again by count, the words wrong */
    rc = run_kind("exec-unframed", "oracle-extra.sh", 10, &done, &err, &d);
    test_check(rc == LAD_OK && done == 10 && d[2] == cs[1].c &&
                   d[3] == cs[2].c && d[4] == cs[4].c,
               "device-legacy-extra-line-unseen", "rc %d, done %zu, '%s'", rc,
               done, err.msg);
    free(d);

    /* two cases: the copy of the last answer is one answer too many */
    rc = run_kind("exec-unframed", "oracle-extra.sh", 2, &done, &err, NULL);
    test_check(rc == LAD_EDEVICE && (has(&err, "more lines than it was asked") ||
                                     has(&err, "case 2 (input line 3) before it "
                                             "was asked")),
               "device-legacy-extra-answer", "rc %d, done %zu, '%s'", rc, done,
               err.msg);

    rc = run_kind("exec", "oracle-bare.sh", 3, &done, &err, NULL);
    test_check(rc == LAD_EDEVICE && done == 0 &&
                   has(&err, "answered '00000000' for case 0") &&
                   has(&err, "expected '@0 <D word>'"),
               "device-framed-bare-answer", "rc %d, done %zu, '%s'", rc, done,
               err.msg);
}

void test_device(void)
{
    test_specs();
    test_sim();
    test_exec_good();
    test_exec_failures();
    test_exec_framed();
    test_exec_ladder();
}
