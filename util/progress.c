/*
** Progress of the slow steps on stderr; see progress.h for what is shown
** where, and docs/progress.md for the user's side.
**
** Every function takes p->mu: the watcher thread prints the timed lines,
** the command's thread the begin, end and note lines, and any thread may
** update the counts. Printing under the lock keeps a line whole and keeps
** the live line and a note from mixing.
*/
#include "progress.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#define LIVE_EVERY 0.1      /* s between redraws: at most ten a second */
#define LIVE_MAX 1000       /* the widest live line, whatever the terminal */

/* The columns of the terminal fd is: COLUMNS when it is a number
** (as ls and others have it), else the terminal's own (TIOCGWINSZ, asked
** at each redraw, so a resized window is followed), else 80. */
static int term_cols(int fd)
{
    const char *env = getenv("COLUMNS");
    char *end;
    long c = env ? strtol(env, &end, 10) : 0;
    if (env && *env && *end == 0 && c >= 20)
        return c > LIVE_MAX + 1 ? LIVE_MAX + 1 : (int)c;
    struct winsize ws;
    if (fd >= 0 && ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20)
        return ws.ws_col > LIVE_MAX + 1 ? LIVE_MAX + 1 : ws.ws_col;
    return 80;
}

static double monotonic(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* The counts as text: "random 2048/4096 (50%), 3.1 s so far, about 3 s
** left", with what is known. */
static void counts(const lad_progress *p, double now, char *out, size_t size)
{
    double el = now - p->t0, sel = now - p->step_t0;
    int n = snprintf(out, size, "%s%s", p->step, p->step[0] ? " " : "");
    if (n < 0 || (size_t)n >= size)
        return;
    if (p->total)
        n += snprintf(out + n, size - (size_t)n, "%zu/%zu (%zu%%), ", p->done, p->total,
                      (size_t)((unsigned long long)p->done * 100 / p->total));
    else if (p->done)
        n += snprintf(out + n, size - (size_t)n, "%zu, ", p->done);
    if ((size_t)n >= size)
        return;
    n += snprintf(out + n, size - (size_t)n, "%.1f s so far", el);
    /* the step's own rate: earlier steps may have gone at another pace */
    if ((size_t)n < size && p->total && p->done && p->done < p->total && sel > 0)
        snprintf(out + n, size - (size_t)n, ", about %.0f s left",
                 (double)(p->total - p->done) * sel / (double)p->done);
}

/* Wipes the live line (the lock held). */
static void wipe(lad_progress *p)
{
    if (p->shown) {
        fprintf(p->out, "\r%*s\r", p->shown, "");
        fflush(p->out);
        p->shown = 0;
    }
}

static void poll_locked(lad_progress *p)
{
    if (!p->open)
        return;
    double now = p->clock();
    char text[256];
    if (p->mode == LAD_PROGRESS_LIVE) {
        if (p->hidden || now - p->t0 < PROGRESS_LIVE_AFTER ||
            (p->shown && now - p->last < LIVE_EVERY))
            return;
        char line[LIVE_MAX + 1], whole[96] = "";
        counts(p, now, text, sizeof text);
        if (p->whole[0] && p->wtotal) {
            int w = snprintf(whole, sizeof whole, "; %s %zu/%zu", p->whole, p->wdone,
                             p->wtotal);
            size_t since = p->wdone - p->wfrom;
            if (w > 0 && since > 0 && p->wdone < p->wtotal)
                snprintf(whole + w, sizeof whole - (size_t)w, ", about %.0f s left",
                         (now - p->wt0) / (double)since * (double)(p->wtotal - p->wdone));
        }
        /* the terminal's width less one: a full line would wrap */
        int cols = term_cols(p->fd) - 1;
        int n = snprintf(line, sizeof line, "%s: %s%s", p->stage, text, whole);
        if (n > cols)
            n = cols;
        line[n] = 0;
        /* spaces over what the last line had beyond this one */
        fprintf(p->out, "\r%s%*s", line, p->shown > n ? p->shown - n : 0, "");
        fflush(p->out);
        p->shown = n > p->shown ? n : p->shown;
        p->last = now;
        return;
    }
    if (!p->begun && now - p->t0 >= PROGRESS_LOG_AFTER) {
        fprintf(p->out, "%s\n", p->stage);
        fflush(p->out);
        p->begun = 1;
        p->last = now;
    } else if (p->begun && now - p->last >= PROGRESS_LOG_EVERY) {
        counts(p, now, text, sizeof text);
        fprintf(p->out, "%s: %s\n", p->stage, text);
        fflush(p->out);
        p->last = now;
    }
}

static void *watch(void *arg)
{
    lad_progress *p = arg;
    pthread_mutex_lock(&p->mu);
    while (!p->stop) {
        struct timespec t;
        clock_gettime(CLOCK_MONOTONIC, &t);
        t.tv_nsec += (long)(LIVE_EVERY * 1e9);
        if (t.tv_nsec >= 1000000000L) {
            t.tv_sec++;
            t.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&p->wake, &p->mu, &t);
        if (!p->stop)
            poll_locked(p);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

void lad_progress_init_with(lad_progress *p, int mode, int eager, FILE *out,
                            double (*clock)(void))
{
    memset(p, 0, sizeof *p);
    p->mode = mode;
    p->eager = eager;
    p->out = out;
    p->fd = fileno(out);
    p->clock = clock ? clock : monotonic;
    pthread_mutex_init(&p->mu, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&p->wake, &ca);
    pthread_condattr_destroy(&ca);
}

void lad_progress_init(lad_progress *p, int quiet)
{
    const char *env = getenv("LADDER_PROGRESS");
    int eager = env && strcmp(env, "1") == 0, off = env && strcmp(env, "0") == 0;
    int mode = quiet || off ? LAD_PROGRESS_OFF
             : isatty(2)    ? LAD_PROGRESS_LIVE
                            : LAD_PROGRESS_LOG;
    lad_progress_init_with(p, mode, eager, stderr, NULL);
    p->fd = 2;   /* stderr may be a filter (cli_safe_streams), with no descriptor */
    /* Without the watcher the stage lines would wait for the next update;
    ** a command that cannot start a thread shows them at begin and end. */
    if (mode != LAD_PROGRESS_OFF)
        p->watching = pthread_create(&p->watcher, NULL, watch, p) == 0;
}

static void end_locked(lad_progress *p, int rc)
{
    if (!p->open)
        return;
    wipe(p);
    double now = p->clock();
    if (p->mode == LAD_PROGRESS_LOG && (p->begun || now - p->t0 >= PROGRESS_LOG_AFTER)) {
        /* a stage without a begin line yet (no watcher, or it had not
        ** woken) still says how long it took */
        fprintf(p->out, "%s: %s %.1f s\n", p->stage, rc ? "stopped after" : "done in",
                now - p->t0);
        fflush(p->out);
    }
    p->open = 0;
}

void lad_progress_free(lad_progress *p)
{
    pthread_mutex_lock(&p->mu);
    end_locked(p, 0);
    p->stop = 1;
    pthread_cond_signal(&p->wake);
    pthread_mutex_unlock(&p->mu);
    if (p->watching)
        pthread_join(p->watcher, NULL);
    p->watching = 0;
    pthread_cond_destroy(&p->wake);
    pthread_mutex_destroy(&p->mu);
}

void lad_progress_begin(lad_progress *p, const char *fmt, ...)
{
    if (p->mode == LAD_PROGRESS_OFF)
        return;
    pthread_mutex_lock(&p->mu);
    end_locked(p, 0);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->stage, sizeof p->stage, fmt, ap);
    va_end(ap);
    p->step[0] = 0;
    p->done = p->total = 0;
    p->t0 = p->step_t0 = p->last = p->clock();
    p->begun = p->hidden = 0;
    p->open = 1;
    if (p->mode == LAD_PROGRESS_LOG && p->eager) {
        fprintf(p->out, "%s\n", p->stage);
        fflush(p->out);
        p->begun = 1;
    }
    pthread_mutex_unlock(&p->mu);
}

void lad_progress_update(lad_progress *p, const char *step, size_t done, size_t total)
{
    if (p->mode == LAD_PROGRESS_OFF)
        return;
    pthread_mutex_lock(&p->mu);
    if ((step && strncmp(step, p->step, sizeof p->step - 1) != 0) || done < p->done) {
        if (step)
            snprintf(p->step, sizeof p->step, "%s", step);
        p->step_t0 = p->clock();
    }
    p->done = done;
    p->total = total;
    p->hidden = 0;
    pthread_mutex_unlock(&p->mu);
}

void lad_progress_step(void *ctx, const char *step, size_t done, size_t total)
{
    lad_progress *p = ctx;
    if (p->mode == LAD_PROGRESS_OFF)
        return;
    pthread_mutex_lock(&p->mu);
    int open = p->open;
    pthread_mutex_unlock(&p->mu);
    if (!open)
        lad_progress_begin(p, "%s", step ? step : "working");
    lad_progress_update(p, step, done, total);
}

void lad_progress_end(lad_progress *p, int rc)
{
    if (p->mode == LAD_PROGRESS_OFF)
        return;
    pthread_mutex_lock(&p->mu);
    end_locked(p, rc);
    pthread_mutex_unlock(&p->mu);
}

void lad_progress_overall(lad_progress *p, const char *what, size_t done, size_t total)
{
    if (p->mode == LAD_PROGRESS_OFF)
        return;
    pthread_mutex_lock(&p->mu);
    if (!p->whole[0]) {
        p->wfrom = done;
        p->wt0 = p->clock();
    }
    snprintf(p->whole, sizeof p->whole, "%s", what);
    p->wdone = done;
    p->wtotal = total;
    pthread_mutex_unlock(&p->mu);
}

void lad_progress_note(lad_progress *p, const char *fmt, ...)
{
    if (p->mode == LAD_PROGRESS_OFF || (p->mode == LAD_PROGRESS_LOG && !p->eager))
        return;
    pthread_mutex_lock(&p->mu);
    wipe(p);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(p->out, fmt, ap);
    va_end(ap);
    fputc('\n', p->out);
    fflush(p->out);
    pthread_mutex_unlock(&p->mu);
}

void lad_progress_hide(lad_progress *p)
{
    if (p->mode != LAD_PROGRESS_LIVE)
        return;
    pthread_mutex_lock(&p->mu);
    wipe(p);
    p->hidden = 1;
    pthread_mutex_unlock(&p->mu);
}

void lad_progress_poll(lad_progress *p)
{
    if (p->mode == LAD_PROGRESS_OFF)
        return;
    pthread_mutex_lock(&p->mu);
    poll_locked(p);
    pthread_mutex_unlock(&p->mu);
}
