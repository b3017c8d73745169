/*
** The exec device: an external oracle program over two pipes (see exec.h).
**
** The program starts once, in its own process group, and lives as long as
** the device. A batch is pipelined: a window of lines (256, or
** LADDER_EXEC_WINDOW) is written ahead of the answers read, with both pipes
** non-blocking under poll(), so neither side can block the other however
** large the batch and however the program buffers its input. A batching
** oracle (one that answers many lines in one call) gets more lines a call
** with a wider window. In the framed protocol (the default) every answer
** names its case, so a slip is caught at the first answer it moves; in the
** legacy protocol (exec-unframed:) answers are matched by order only. After any failure the device refuses
** further batches.
**
** SIGPIPE (the program closed its input) is blocked around each write and
** consumed, so that a dying oracle is an error message, not a dead ladder.
** The process groups of open devices are registered with the
** SIGINT/SIGTERM/SIGHUP handler of util/hooks.c, which kills them, so that
** no oracle outlives ladder.
*/
#include "exec.h"
#include "../io/vecline.h"
#include "../util/hooks.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define WINDOW 256           /* lines written ahead of the answers read */
#define WINDOW_MAX 65536     /* the most LADDER_EXEC_WINDOW may ask */
#define WBUF (64 * 1024)     /* bytes of lines formatted at a time */
#define ANSWER_MAX 256       /* longest answer line kept (garbage beyond) */
#define DEFAULT_TIMEOUT_MS 10000
#define FRAME_MAX 24         /* "@<case number> ", at most */
#define ERR_HEAD (1 << 20)   /* bytes of the program's stderr kept from its start */
#define ERR_TAIL (64 * 1024) /* and from its end, when it wrote more */

typedef struct exec_state {
    pid_t pid;               /* the shell running the command; -1 reaped */
    pid_t pgid;              /* its process group (the shell's first pid) */
    int wfd;                 /* its stdin; -1 once closed */
    int rfd;                 /* its stdout */
    int failed;              /* 1 after any failure */
    int timeout_ms;          /* longest wait for one answer */
    size_t window;           /* lines written ahead of the answers read */
    unsigned long long sent; /* lines fully written, over the device's life */
    unsigned long long got;  /* answers read, over the device's life */
    char line[ANSWER_MAX];   /* the answer being read */
    size_t len;              /* bytes in line */
    int overlong;            /* the answer being read passed ANSWER_MAX */
    char *wbuf;              /* lines formatted, not yet written (WBUF) */
    size_t wlen, woff;       /* bytes in wbuf, bytes of it written */
    int framed;              /* 1: "@<n> " before every line and answer */
    unsigned long long queued; /* cases formatted, over the device's life */
    char errpath[512];       /* the file the program's stderr is kept in */
    int errfd;               /* errpath, open for writing */
    int epipe;               /* the pipe the program's stderr comes down; -1 at EOF */
    unsigned long long ewritten; /* bytes written to errpath */
    unsigned long long edropped; /* bytes past ERR_HEAD that left the tail */
    char *etail;             /* the last ERR_TAIL bytes past ERR_HEAD (a ring) */
    size_t etail_len, etail_at; /* bytes in etail, where the next one goes */
    int keep_err;            /* 1: leave errpath behind at close */
    int named;               /* 1: errpath is LADDER_EXEC_STDERR's (kept) */
} exec_state;

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Reads LADDER_EXEC_TIMEOUT (seconds, may have a fraction). Returns the
** timeout in milliseconds, or -1 when the variable is malformed. */
static int timeout_from_env(void)
{
    const char *s = getenv("LADDER_EXEC_TIMEOUT");
    if (s == NULL || *s == 0)
        return DEFAULT_TIMEOUT_MS;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || *end != 0 || !(v > 0) || v > 86400)
        return -1;
    int ms = (int)(v * 1000);
    return ms > 0 ? ms : 1;
}

/* Writes what it can of wbuf without blocking. Returns 0, or -1 when the
** program closed its input (EPIPE), or -2 on another error. */
static int write_some(exec_state *st)
{
    sigset_t set, old;
    sigemptyset(&set);
    sigaddset(&set, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &set, &old);
    ssize_t w = write(st->wfd, st->wbuf + st->woff, st->wlen - st->woff);
    int e = errno;
    if (w < 0 && e == EPIPE) {
        struct timespec zero = {0, 0};
        sigtimedwait(&set, NULL, &zero);
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (w < 0) {
        if (e == EAGAIN || e == EINTR)
            return 0;
        return e == EPIPE ? -1 : -2;
    }
    for (ssize_t i = 0; i < w; i++)
        if (st->wbuf[st->woff + (size_t)i] == '\n')
            st->sent++;
    st->woff += (size_t)w;
    return 0;
}

/* Says how the program ended, for a message: "exited with status 3",
** "was killed by signal 9", or "closed its output" when it still runs. */
static void describe_exit(exec_state *st, char *buf, size_t size)
{
    int status;
    pid_t r = 0;
    for (int i = 0; i < 100; i++) {       /* up to 0.5 s to exit */
        r = waitpid(st->pid, &status, WNOHANG);
        if (r != 0)
            break;
        struct timespec ts = {0, 5000000};
        nanosleep(&ts, NULL);
    }
    if (r == st->pid && WIFEXITED(status)) {
        snprintf(buf, size, "exited with status %d%s", WEXITSTATUS(status),
                 WEXITSTATUS(status) == 127 ? " (command not found?)" : "");
        st->pid = -1;
    } else if (r == st->pid && WIFSIGNALED(status)) {
        snprintf(buf, size, "was killed by signal %d", WTERMSIG(status));
        st->pid = -1;
    } else {
        snprintf(buf, size, "closed its output");
    }
}

/* Checks one answer line; stores it in d. Returns LAD_OK or LAD_EDEVICE. */
static int take_answer(lad_device *dev, exec_state *st, lad_word_t *d,
                       lad_err *err)
{
    const lad_format *f = &dev->dp->d;
    int digits = lad_format_digits(f);
    size_t n = st->len;
    if (n > 0 && st->line[n - 1] == '\r')
        n--;
    unsigned long long c = st->got;
    char shown[40];
    snprintf(shown, sizeof shown, "%.*s%s", (int)(n < 24 ? n : 24), st->line,
             n > 24 || st->overlong ? "..." : "");
    const char *word = st->line;
    if (st->framed) {
        /* "@<n> D": n must be the case due, the first not yet answered */
        size_t i = 1;
        unsigned long long k = 0;
        int digits_ok = n > 1 && st->line[0] == '@';
        for (; digits_ok && i < n && st->line[i] >= '0' && st->line[i] <= '9'; i++) {
            if (k > (UINT64_MAX - 9) / 10)
                digits_ok = 0;
            k = k * 10 + (unsigned long long)(st->line[i] - '0');
        }
        if (st->overlong || !digits_ok || i == 1 || i >= n || st->line[i] != ' ')
            return lad_errf(err, LAD_EDEVICE, "exec device answered '%s' "
                            "for case %llu (input line %llu): expected "
                            "'@%llu <D word>'", shown, c, c + 1, c);
        if (k != c)
            return lad_errf(err, LAD_EDEVICE, "exec device answered case "
                            "%llu ('%s') where case %llu (input line %llu) "
                            "was due", k, shown, c, c + 1);
        word = st->line + i + 1;
        n -= i + 1;
    }
    int hex = !st->overlong && n > 0;
    for (size_t i = 0; i < n && hex; i++) {
        char ch = word[i];
        hex = (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f') ||
              (ch >= 'A' && ch <= 'F');
    }
    if (!hex)
        return lad_errf(err, LAD_EDEVICE, "exec device answered garbage "
                        "'%s' for case %llu (input line %llu): expected %d "
                        "hex digits", shown, c, c + 1, digits);
    lad_word_t w = 0;
    if ((int)n != digits || lad_vecline_word(f, word, n, digits, &w))
        return lad_errf(err, LAD_EDEVICE, "exec device answered '%s' for "
                        "case %llu (input line %llu): expected %d hex digits",
                        shown, c, c + 1, digits);
    *d = w;
    return LAD_OK;
}

/* Reads what the program wrote on stderr, without blocking: its first
** ERR_HEAD bytes go to the file, the rest through a ring that keeps the
** last ERR_TAIL of them (an oracle that prints 400 MB of warnings must not
** fill the disk). */
static void drain_stderr(exec_state *st)
{
    char buf[16384];
    while (st->epipe >= 0) {
        ssize_t got = read(st->epipe, buf, sizeof buf);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0) {
            if (got == 0 || errno != EAGAIN) {
                close(st->epipe);
                st->epipe = -1;
            }
            return;
        }
        size_t n = (size_t)got, head = 0;
        if (st->ewritten < ERR_HEAD) {
            head = ERR_HEAD - st->ewritten < n ? (size_t)(ERR_HEAD - st->ewritten) : n;
            if (write(st->errfd, buf, head) == (ssize_t)head)
                st->ewritten += head;
            else
                head = n;   /* the file takes no more: drop the rest */
        }
        for (size_t i = head; i < n && st->etail; i++) {
            if (st->etail_len == ERR_TAIL)
                st->edropped++;
            else
                st->etail_len++;
            st->etail[st->etail_at] = buf[i];
            st->etail_at = (st->etail_at + 1) % ERR_TAIL;
        }
    }
}

/* Writes the ring's bytes after the file's head, with a line saying how
** many were left out between, and empties the ring. */
static void flush_stderr_tail(exec_state *st)
{
    if (st->etail_len == 0)
        return;
    char note[160];
    int len = snprintf(note, sizeof note, "\n[ladder: %llu bytes of this program's stderr "
                       "left out: the file keeps its first %d and last %d]\n",
                       st->edropped, ERR_HEAD, ERR_TAIL);
    size_t first = (st->etail_at + ERR_TAIL - st->etail_len) % ERR_TAIL;
    size_t a = st->etail_len < ERR_TAIL - first ? st->etail_len : ERR_TAIL - first;
    if (st->edropped == 0)
        len = 0;
    if ((len == 0 || write(st->errfd, note, (size_t)len) == len) &&
        write(st->errfd, st->etail + first, a) == (ssize_t)a)
        (void)!write(st->errfd, st->etail, st->etail_len - a);
    st->etail_len = st->etail_at = 0;
    st->edropped = 0;
}

/* Appends to err's message what the program wrote on stderr: its last
** line, the number of lines and the file, which is then kept. */
static void summarise_stderr(exec_state *st, lad_err *err)
{
    drain_stderr(st);
    flush_stderr_tail(st);
    FILE *f = fopen(st->errpath, "rb");
    if (f == NULL)
        return;
    char line[160] = "", cur[160];
    long lines = 0;
    size_t n = 0;
    int c, any = 0;
    while ((c = getc(f)) != EOF) {
        if (c == '\n') {
            lines++;
            cur[n] = 0;
            if (n > 0)
                memcpy(line, cur, n + 1);
            n = 0;
            continue;
        }
        any = 1;
        if (n + 1 < sizeof cur)
            cur[n++] = (char)(c >= ' ' && c < 127 ? c : '?');
    }
    fclose(f);
    if (n > 0) {              /* a last line without its newline */
        lines++;
        cur[n] = 0;
        memcpy(line, cur, n + 1);
    }
    if (!any)
        return;
    st->keep_err = 1;
    /* the line is what gives way when the message is long: the quote and
    ** the parenthesis after it are always closed */
    char tail[sizeof st->errpath + 48];
    int tn = snprintf(tail, sizeof tail, "' (%ld line%s in %s)", lines, lines == 1 ? "" : "s",
                      st->errpath);
    static const char head[] = "; its stderr: '";
    size_t len = strlen(err->msg), hn = sizeof head - 1;
    if (tn < 0 || len + hn + (size_t)tn + 4 >= sizeof err->msg)
        return;
    size_t room = sizeof err->msg - 1 - len - hn - (size_t)tn, ln = strlen(line);
    char *p = err->msg + len;
    memcpy(p, head, hn);
    p += hn;
    if (ln > room) {
        memcpy(p, line, room - 3);
        memcpy(p + room - 3, "...", 3);
        p += room;
    } else {
        memcpy(p, line, ln);
        p += ln;
    }
    memcpy(p, tail, (size_t)tn + 1);
}

/* Fails the device with the message of err, the program's stderr summed up
** after it; returns its code. */
static int fail(exec_state *st, lad_err *err, int rc)
{
    st->failed = 1;
    summarise_stderr(st, err);
    return rc;
}

/* After a batch every case is answered: anything more the program has
** already written (the rest of a line, or a line) is an answer no case
** asked for. Returns LAD_OK or fails the device. */
static int extra_answer(exec_state *st, lad_err *err)
{
    struct pollfd pf = {st->rfd, POLLIN, 0};
    char buf[256];
    ssize_t got = 0;
    if (st->len == 0 && poll(&pf, 1, 0) == 1 && (pf.revents & POLLIN))
        got = read(st->rfd, buf, sizeof buf);
    if (st->len == 0 && got <= 0)
        return LAD_OK;
    unsigned long long c = st->got;
    return fail(st, err, lad_errf(err, LAD_EDEVICE, "exec device answered "
                                  "more lines than it was asked: a line "
                                  "after case %llu (input line %llu), the "
                                  "last one sent", c - 1, c));
}

static int exec_eval(lad_device *dev, const lad_case *cs, size_t n,
                     lad_word_t *d, size_t *done, lad_err *err)
{
    exec_state *st = dev->state;
    size_t next = 0;      /* next case to format */
    size_t answered = 0;  /* answers stored in d */
    *done = 0;
    if (st->failed)
        return lad_errf(err, LAD_EDEVICE, "exec device '%s' failed earlier",
                        dev->info.name);
    long long deadline = now_ms() + st->timeout_ms;
    while (answered < n) {
        if (st->woff == st->wlen && st->wfd >= 0) {
            st->wlen = st->woff = 0;
            while (next < n && next - answered < st->window &&
                   st->wlen + FRAME_MAX + LAD_VECLINE_MAX + 1 <= WBUF) {
                if (st->framed)
                    st->wlen += (size_t)snprintf(st->wbuf + st->wlen, FRAME_MAX,
                                                 "@%llu ", st->queued);
                int len = lad_vecline_format(dev->dp, &cs[next], NULL,
                                             st->wbuf + st->wlen,
                                             WBUF - st->wlen);
                st->queued++;
                if (len < 0)
                    return fail(st, err, lad_errf(err, LAD_EINTERNAL, "vector "
                                             "line too long"));
                st->wlen += (size_t)len;
                st->wbuf[st->wlen++] = '\n';
                next++;
            }
        }
        struct pollfd pf[3];
        int np = 0;
        pf[np].fd = st->rfd;
        pf[np].events = POLLIN;
        pf[np++].revents = 0;
        int ei = -1;
        if (st->epipe >= 0) {
            ei = np;
            pf[np].fd = st->epipe;
            pf[np].events = POLLIN;
            pf[np++].revents = 0;
        }
        int wi = -1;
        if (st->wfd >= 0 && st->woff < st->wlen) {
            wi = np;
            pf[np].fd = st->wfd;
            pf[np].events = POLLOUT;
            pf[np++].revents = 0;
        }
        long long left = deadline - now_ms();
        if (left <= 0) {
            unsigned long long c = st->got;
            return fail(st, err, lad_errf(err, LAD_EDEVICE, "exec device timed "
                                     "out after %d ms waiting for the answer"
                                     " to case %llu (input line %llu)",
                                     st->timeout_ms, c, c + 1));
        }
        int r = poll(pf, (nfds_t)np, (int)left);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            return fail(st, err, lad_errf(err, LAD_EDEVICE, "exec device: poll: "
                                     "%s", strerror(errno)));
        }
        if (ei >= 0 && pf[ei].revents)
            drain_stderr(st);
        if (wi >= 0 && pf[wi].revents) {
            int w = write_some(st);
            if (w == -1) {
                /* The program closed its input: read what it answered,
                ** then report how it ended. */
                close(st->wfd);
                st->wfd = -1;
            } else if (w < 0) {
                return fail(st, err, lad_errf(err, LAD_EDEVICE, "exec device: "
                                         "write: %s", strerror(errno)));
            }
        }
        if (pf[0].revents == 0)
            continue;
        char buf[4096];
        ssize_t got = read(st->rfd, buf, sizeof buf);
        if (got < 0) {
            if (errno == EAGAIN || errno == EINTR)
                continue;
            return fail(st, err, lad_errf(err, LAD_EDEVICE, "exec device: read: "
                                     "%s", strerror(errno)));
        }
        if (got == 0) {
            char how[80];
            describe_exit(st, how, sizeof how);
            unsigned long long c = st->got;
            if (st->len > 0)
                return fail(st, err, lad_errf(err, LAD_EDEVICE, "exec device %s "
                                         "in the middle of the answer to "
                                         "case %llu (input line %llu)",
                                         how, c, c + 1));
            return fail(st, err, lad_errf(err, LAD_EDEVICE, "exec device %s "
                                     "before answering case %llu (input "
                                     "line %llu)", how, c, c + 1));
        }
        for (ssize_t i = 0; i < got; i++) {
            char ch = buf[i];
            if (ch != '\n') {
                if (st->len < sizeof st->line)
                    st->line[st->len++] = ch;
                else
                    st->overlong = 1;
                continue;
            }
            if (answered == n || st->got >= st->sent) {
                unsigned long long c = st->got;
                return fail(st, err, lad_errf(err, LAD_EDEVICE, "exec device "
                                         "answered case %llu (input line "
                                         "%llu) before it was asked", c,
                                         c + 1));
            }
            int rc = take_answer(dev, st, &d[answered], err);
            if (rc != LAD_OK)
                return fail(st, err, rc);
            st->len = 0;
            st->overlong = 0;
            st->got++;
            *done = ++answered;
            deadline = now_ms() + st->timeout_ms;
        }
    }
    return extra_answer(st, err);
}

static void exec_close(lad_device *dev)
{
    exec_state *st = dev->state;
    if (st->wfd >= 0)
        close(st->wfd);
    close(st->rfd);
    pid_t group = st->pgid;
    if (st->pid > 0) {
        int status;
        pid_t r = 0;
        for (int i = 0; i < 40; i++) {    /* up to 0.2 s to exit on EOF */
            drain_stderr(st);   /* which it may be writing as it ends */
            r = waitpid(st->pid, &status, WNOHANG);
            if (r != 0)
                break;
            struct timespec ts = {0, 5000000};
            nanosleep(&ts, NULL);
        }
        if (r == 0) {
            kill(-group, SIGKILL);
            kill(st->pid, SIGKILL);
            waitpid(st->pid, &status, 0);
        }
    }
    /* What the shell started may outlive it (a pipeline, a background
    ** job): nothing of the group stays behind the device. */
    kill(-group, SIGKILL);
    lad_sig_track(group, NULL, 0);
    drain_stderr(st);
    flush_stderr_tail(st);
    if (st->epipe >= 0)
        close(st->epipe);
    close(st->errfd);
    if (!st->keep_err && !st->named)
        unlink(st->errpath);
    free(st->etail);
    free(st->wbuf);
    free(st);
    free(dev);
}

/* Opens the file the program's stderr goes to: LADDER_EXEC_STDERR, or a
** new temporary file. Returns its descriptor or -1 with errno set. */
static int open_stderr(exec_state *st)
{
    const char *path = getenv("LADDER_EXEC_STDERR");
    if (path && *path) {
        st->named = 1;
        snprintf(st->errpath, sizeof st->errpath, "%s", path);
        return open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    }
    const char *tmp = getenv("TMPDIR");
    snprintf(st->errpath, sizeof st->errpath, "%s/ladder-exec-XXXXXX.err",
             tmp && *tmp ? tmp : "/tmp");
    return mkostemps(st->errpath, 4, O_CLOEXEC);
}

int lad_exec_open(const char *command, const lad_datapath *dp, int framed,
                  lad_device **out, lad_err *err)
{
    *out = NULL;
    int timeout = timeout_from_env();
    if (timeout < 0)
        return lad_errf(err, LAD_EUSAGE, "bad LADDER_EXEC_TIMEOUT '%s' "
                        "(expected seconds, e.g. 10 or 0.5)",
                        getenv("LADDER_EXEC_TIMEOUT"));
    /* 0: malformed */
    size_t window = (size_t)lad_env_number("LADDER_EXEC_WINDOW", 1, WINDOW_MAX, WINDOW, 0);
    if (window == 0)
        return lad_errf(err, LAD_EUSAGE, "bad LADDER_EXEC_WINDOW '%s' "
                        "(expected lines ahead, 1 to %d)",
                        getenv("LADDER_EXEC_WINDOW"), WINDOW_MAX);
    lad_device *dev = calloc(1, sizeof *dev);
    exec_state *st = calloc(1, sizeof *st);
    char *wbuf = malloc(WBUF);
    if (dev == NULL || st == NULL || wbuf == NULL) {
        free(dev);
        free(st);
        free(wbuf);
        return lad_errf(err, LAD_EINTERNAL, "out of memory");
    }
    int efd = open_stderr(st);
    int in[2] = {-1, -1}, outp[2] = {-1, -1}, ep[2] = {-1, -1};
    const char *what = efd < 0 ? "stderr file" : NULL;
    if (what == NULL && pipe2(in, O_CLOEXEC) != 0)
        what = "pipe";
    if (what == NULL && pipe2(ep, O_CLOEXEC) != 0)
        what = "pipe";
    if (what == NULL && pipe2(outp, O_CLOEXEC) != 0)
        what = "pipe";
    pid_t pid = -1;
    if (what == NULL) {
        fflush(NULL);
        if ((pid = fork()) < 0)
            what = "fork";
    }
    if (what) {
        int e = errno;
        int fds[7] = {efd, in[0], in[1], outp[0], outp[1], ep[0], ep[1]};
        for (int i = 0; i < 7; i++)
            if (fds[i] >= 0)
                close(fds[i]);
        if (efd >= 0 && !st->named)
            unlink(st->errpath);
        lad_errf(err, LAD_EDEVICE, "cannot start '%s': %s%s%s%s: %s", command,
                 what, efd < 0 ? " '" : "", efd < 0 ? st->errpath : "",
                 efd < 0 ? "'" : "", strerror(e));
        free(dev), free(st), free(wbuf);
        return LAD_EDEVICE;
    }
    if (pid == 0) {
        setpgid(0, 0);
        if (dup2(in[0], 0) < 0 || dup2(outp[1], 1) < 0 || dup2(ep[1], 2) < 0)
            _exit(127);
        execl("/bin/sh", "sh", "-c", command, (char *)NULL);
        _exit(127);
    }
    setpgid(pid, pid);
    close(ep[1]);
    close(in[0]);
    close(outp[1]);
    st->errfd = efd;
    st->epipe = ep[0];
    st->etail = malloc(ERR_TAIL);   /* NULL: only the head is kept */
    fcntl(ep[0], F_SETFL, fcntl(ep[0], F_GETFL) | O_NONBLOCK);
    st->pgid = pid;
    st->framed = framed;
    lad_sig_track(pid, st->named ? NULL : st->errpath, 1);
    fcntl(in[1], F_SETFL, fcntl(in[1], F_GETFL) | O_NONBLOCK);
    fcntl(outp[0], F_SETFL, fcntl(outp[0], F_GETFL) | O_NONBLOCK);
    st->pid = pid;
    st->wfd = in[1];
    st->rfd = outp[0];
    st->timeout_ms = timeout;
    st->window = window;
    st->wbuf = wbuf;
    strcpy(dev->info.kind, "exec");
    snprintf(dev->info.name, sizeof dev->info.name, "%s", command);
    dev->dp = dp;
    dev->eval = exec_eval;
    dev->close = exec_close;
    dev->state = st;
    *out = dev;
    return LAD_OK;
}
