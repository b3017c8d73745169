/*
** Crash points and the signal handler; see hooks.h.
*/
#include "hooks.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- crash points ---------------------------------------------------- */

static int crash_read;          /* LADDER_CRASH_AT was read */
static char crash_name[64];     /* "" when unset or malformed */
static long crash_at, crash_seen;

/* Reads "<name>:<n>" with n >= 1; anything else names no point. */
static void crash_parse(void)
{
    crash_read = 1;
    const char *v = getenv("LADDER_CRASH_AT");
    const char *colon = v ? strrchr(v, ':') : NULL;
    if (colon == NULL || colon == v || (size_t)(colon - v) >= sizeof crash_name)
        return;
    char *end;
    long n = strtol(colon + 1, &end, 10);
    if (*end || end == colon + 1 || n < 1)
        return;
    memcpy(crash_name, v, (size_t)(colon - v));
    crash_name[colon - v] = 0;
    crash_at = n;
}

void lad_crash_point(const char *name)
{
    if (!crash_read)
        crash_parse();
    if (crash_name[0] == 0 || strcmp(name, crash_name) != 0)
        return;
    if (++crash_seen == crash_at)
        raise(SIGKILL);
}

/* ---- signals ------------------------------------------------------------- */

#define MAXGROUPS 64

static volatile pid_t groups[MAXGROUPS];          /* 0: a free slot */
static const char *volatile errpaths[MAXGROUPS];  /* NULL: keep it */
static struct sigaction old_action[3];
static const int caught[3] = {SIGINT, SIGTERM, SIGHUP};
static int handlers_set;
static volatile sig_atomic_t graceful, pending;

static void die_of(int sig)
{
    for (int i = 0; i < 3; i++)
        if (caught[i] == sig)
            sigaction(sig, &old_action[i], NULL);
    raise(sig);
}

/* Kills every registered group and removes its stderr file when nothing
** was written there; then records the signal or dies of it. Only
** async-signal-safe calls. */
static void on_signal(int sig)
{
    for (int i = 0; i < MAXGROUPS; i++) {
        if (groups[i] <= 0)
            continue;
        kill(-groups[i], SIGKILL);
        struct stat sb;
        if (errpaths[i] && stat(errpaths[i], &sb) == 0 && sb.st_size == 0)
            unlink(errpaths[i]);
    }
    if (graceful && !pending) {
        pending = sig;
        return;
    }
    die_of(sig);
}

static void install(void)
{
    if (handlers_set)
        return;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (int i = 0; i < 3; i++) {
        sigaction(caught[i], NULL, &old_action[i]);
        /* a signal ignored by whoever started ladder stays ignored */
        if (old_action[i].sa_handler != SIG_IGN)
            sigaction(caught[i], &sa, NULL);
    }
    handlers_set = 1;
}

void lad_sig_track(pid_t pgid, const char *errpath, int on)
{
    for (int i = 0; i < MAXGROUPS; i++) {
        if (on && groups[i] == 0) {
            errpaths[i] = errpath;
            groups[i] = pgid;
            break;
        }
        if (!on && groups[i] == pgid) {
            groups[i] = 0;
            errpaths[i] = NULL;
            break;
        }
    }
    if (on)
        install();
}

void lad_sig_graceful(void)
{
    graceful = 1;
    install();
}

int lad_sig_pending(void) { return pending; }

void lad_sig_reraise(void)
{
    if (pending)
        die_of(pending);
}

long lad_env_number(const char *name, long lo, long hi, long dflt, long bad)
{
    const char *v = getenv(name);
    if (v == NULL || *v == 0)
        return dflt;
    char *end;
    long n = strtol(v, &end, 10);
    return *end == 0 && n >= lo && n <= hi ? n : bad;
}

long lad_max_pages(void)
{
    return lad_env_number("LADDER_MAX_PAGES", 1, 2147483647L, 0, -1);
}

int lad_busy_timeout_ms(void)
{
    return (int)lad_env_number("LADDER_BUSY_TIMEOUT_MS", 0, 3600000, -2, -1);
}
