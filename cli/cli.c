/*
** Command-line helpers: see cli.h.
*/
#include "cli.h"
#include "devices/device.h"
#include "model/format_spec.h"
#include "model/presets.h"
#include "probes/recipe.h"
#include "util/suggest.h"
#include "util/outfile.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

/* ---- the terminal filter ---------------------------------------------- */

typedef struct safe_out {
    int fd;          /* where the filtered bytes go */
    int allow_cr;    /* 1: carriage return passes (stderr) */
    unsigned char hold[4]; /* a UTF-8 character begun, to see how it ends */
    int nhold;       /* bytes in hold */
    int need;        /* continuation bytes still to come */
} safe_out;

static int write_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

/* Whether c continues the UTF-8 character begun by lead, as its byte at
** pos (1..3): 0x80..0xbf, narrower after e0, ed, f0, f4 (RFC 3629: no
** overlong form, no surrogate, nothing past U+10FFFF). */
static int continues(unsigned char lead, int pos, unsigned char c)
{
    if (c < 0x80 || c > 0xbf)
        return 0;
    if (pos == 1)
        return !((lead == 0xe0 && c < 0xa0) || (lead == 0xed && c > 0x9f) ||
                 (lead == 0xf0 && c < 0x90) || (lead == 0xf4 && c > 0x8f));
    return 1;
}

/* Appends the held bytes to out at *o: a whole character as it is, but
** U+0080..U+009F (C1 controls) as "\u0080".."\u009f"; an unfinished
** one byte by byte, a byte 0x80..0x9f as "\x9b" (which a terminal would
** take as a C1 control itself). */
static void release(safe_out *s, char *out, size_t *o)
{
    if (s->need == 0 && s->nhold == 2 && s->hold[0] == 0xc2 && s->hold[1] <= 0x9f) {
        *o += (size_t)snprintf(out + *o, 16, "\\u%04x", s->hold[1]);
    } else {
        for (int i = 0; i < s->nhold; i++)
            if (s->need && s->hold[i] >= 0x80 && s->hold[i] <= 0x9f)
                *o += (size_t)snprintf(out + *o, 16, "\\x%02x", s->hold[i]);
            else
                out[(*o)++] = (char)s->hold[i];
    }
    s->nhold = s->need = 0;
}

static ssize_t safe_write(void *cookie, const char *buf, size_t n)
{
    safe_out *s = cookie;
    char out[4096 + 32];
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)buf[i];
        if (s->need) {
            if (continues(s->hold[0], s->nhold, c)) {
                s->hold[s->nhold++] = c;
                if (--s->need == 0)
                    release(s, out, &o);
                goto next;
            }
            release(s, out, &o);   /* broken off: c starts afresh */
        }
        if (c >= 0xc2 && c <= 0xf4) {
            s->hold[0] = c;
            s->nhold = 1;
            s->need = c < 0xe0 ? 1 : c < 0xf0 ? 2 : 3;
        } else if ((c < 0x20 && c != '\n' && c != '\t' && !(c == '\r' && s->allow_cr)) ||
                   c == 0x7f || (c >= 0x80 && c <= 0x9f)) {
            o += (size_t)snprintf(out + o, 16, "\\x%02x", c);
        } else {
            out[o++] = (char)c;
        }
    next:
        if (o >= 4096) {
            if (write_all(s->fd, out, o))
                return -1;
            o = 0;
        }
    }
    if (o && write_all(s->fd, out, o))
        return -1;
    return (ssize_t)n;
}

static int safe_close(void *cookie)
{
    safe_out *s = cookie;
    char out[32];
    size_t o = 0;
    if (s->nhold)
        release(s, out, &o);
    return o ? write_all(s->fd, out, o) : 0;
}

void cli_safe_streams(void)
{
    static safe_out out = {.fd = 1}, err = {.fd = 2, .allow_cr = 1};
    cookie_io_functions_t io = {NULL, safe_write, NULL, safe_close};
    FILE *o = fopencookie(&out, "w", io);
    FILE *e = fopencookie(&err, "w", io);
    if (o == NULL || e == NULL) {
        if (o)
            fclose(o);
        if (e)
            fclose(e);
        return;   /* unfiltered, as before */
    }
    setvbuf(o, NULL, isatty(1) ? _IOLBF : _IOFBF, BUFSIZ);
    setvbuf(e, NULL, _IONBF, 0);
    stdout = o;
    stderr = e;
}

static int vreport(int code, const char *fmt, va_list ap)
{
    char msg[600];
    vsnprintf(msg, sizeof msg, fmt, ap);
    for (char *p = msg; *p; p++)
        if (*p == '\n')
            *p = ' ';
    fflush(stdout);
    fprintf(stderr, "ladder: %s\n", msg);
    return code;
}

int cli_report(const lad_err *err)
{
    int code = err && err->code != LAD_OK ? err->code : LAD_EINTERNAL;
    const char *msg = err && err->msg[0] ? err->msg : "unknown error";
    fflush(stdout);
    fprintf(stderr, "ladder: %s\n", msg);
    return code;
}

int cli_error(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(code, fmt, ap);
    va_end(ap);
    return code;
}

int cli_usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(LAD_EUSAGE, fmt, ap);
    va_end(ap);
    return LAD_EUSAGE;
}

int cli_unknown(const char *what, const char *name, const char *near, const char *otherwise)
{
    if (near)
        return cli_usage_error("unknown %s '%s'; did you mean '%s'?", what, name, near);
    if (otherwise)
        return cli_usage_error("unknown %s '%s'; %s", what, name, otherwise);
    return cli_usage_error("unknown %s '%s'", what, name);
}

int cli_unknown_among(const char *what, const char *name, const char *const *names,
                      const char *otherwise)
{
    lad_suggest s;
    lad_suggest_init(&s, name);
    for (; *names; names++)
        lad_suggest_add(&s, *names);
    return cli_unknown(what, name, lad_suggest_best(&s), otherwise);
}

int cli_rung_code(const char *name)
{
    return lad_rung_find(name) >= 0 || strcmp(name, "validation") == 0 ? LAD_EDATA
                                                                         : LAD_EUSAGE;
}

int cli_format(const char *spec, lad_format *f)
{
    lad_err err = {0};
    if (lad_format_parse(spec, f, &err) == LAD_OK)
        return LAD_OK;
    /* a spec's base name (before ':') is what is compared */
    char base[64];
    snprintf(base, sizeof base, "%.*s", (int)strcspn(spec, ":"), spec);
    lad_suggest s;
    lad_suggest_init(&s, base);
    for (int i = 0; lad_format_builtin(i); i++)
        lad_suggest_add(&s, lad_format_builtin(i)->name);
    const char *near = lad_suggest_best(&s);
    if (near)
        return cli_usage_error("%s; did you mean '%s'?", err.msg, near);
    return cli_usage_error("%s", err.msg);
}

const char *cli_arch_nearest(const char *word)
{
    lad_suggest s;
    lad_suggest_init(&s, word);
    static char gen[256][16];   /* "sm_90" of "sm_90a": history matches either */
    for (int i = 0; i < lad_preset_count(); i++) {
        const char *a = lad_preset_get(i)->dp.arch;
        lad_suggest_add(&s, a);
        if (i < 256 && snprintf(gen[i], sizeof gen[i], "%s", a) > 0) {
            size_t n = strlen(gen[i]);
            if (n > 1 && gen[i][n - 1] >= 'a' && gen[i][n - 2] >= '0' && gen[i][n - 2] <= '9')
                gen[i][n - 1] = 0;
            lad_suggest_add(&s, gen[i]);
        }
    }
    return lad_suggest_best(&s);
}

void cli_announce_exec(void *ctx, const char *spec, const char *whose)
{
    (void)ctx;
    const char *cmd = lad_device_command(spec);
    if (cmd == NULL)
        return;
    if (whose)
        fprintf(stderr, "ladder: running the device of %s (--trust-exec): sh -c '%s'\n",
                whose, cmd);
    if (strncmp(spec, "exec-unframed:", 14) == 0)
        fprintf(stderr, "ladder: warning: exec-unframed: answers are matched to cases by "
                "their order alone; an oracle that repeats an answer and drops another, "
                "or swaps two, goes unnoticed and its words are stored as its cases'\n");
    fflush(stderr);
}

int cli_output_ok(const char *out, const char *what, const char *input)
{
    if (out == NULL || input == NULL || strcmp(out, "-") == 0 || !lad_same_file(out, input))
        return LAD_OK;
    return cli_usage_error("output '%s' is %s '%s'; writing it would destroy it, "
                           "give another output file", out, what, input);
}

/* The name path reaches, in full: the file its links end at when it exists
** (realpath), else its folder's real path and its own last name. "" when
** neither can be had. */
static void full_name(const char *path, char *out, size_t n)
{
    char buf[PATH_MAX];
    out[0] = 0;
    if (realpath(path, buf) != NULL) {
        snprintf(out, n, "%s", buf);
        return;
    }
    const char *slash = strrchr(path, '/');
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) + (slash == path) : 1,
             slash ? path : ".");
    if (realpath(dir, buf) != NULL)
        snprintf(out, n, "%s/%s", strcmp(buf, "/") == 0 ? "" : buf, slash ? slash + 1 : path);
}

int cli_output_not_store(const char *out, const char *db)
{
    int rc = cli_output_ok(out, "the store", db);
    if (rc != LAD_OK || out == NULL || db == NULL || strcmp(out, "-") == 0)
        return rc;
    static const char *const side[] = {"-wal", "-shm", "-journal"};
    char o[PATH_MAX + 64], d[PATH_MAX + 64];
    full_name(out, o, sizeof o);
    full_name(db, d, sizeof d);
    size_t nd = strlen(d);
    for (int i = 0; d[0] && i < 3; i++)
        if (strncmp(o, d, nd) == 0 && strcmp(o + nd, side[i]) == 0)
            return cli_usage_error("output '%s' is the store '%s''s %s file; writing it "
                                   "would damage the store, give another output file", out,
                                   db, side[i] + 1);
    return LAD_OK;
}

static int is_digit(char c, int base)
{
    return (c >= '0' && c <= '9') ||
           (base == 16 && ((c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')));
}

int cli_number(const char *s, const char *what, uint64_t lo, uint64_t hi, uint64_t *out)
{
    char *end;
    unsigned long long v = 0;
    /* Decimal unless "0x" says hex: base 0 would read "010" as eight and
    ** refuse "08". strtoull's own leniency (spaces, signs) is kept out by
    ** asking for a digit first. */
    int base = s && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') ? 16 : 10;
    const char *digits = s ? s + (base == 16 ? 2 : 0) : NULL;
    int ok = digits && is_digit(*digits, base);
    if (ok) {
        errno = 0;
        v = strtoull(digits, &end, base);
        ok = !*end && errno == 0 && v >= lo && v <= hi;
    }
    if (!ok)
        return cli_usage_error("%s must be %llu..%llu, not '%s'", what, (unsigned long long)lo,
                               (unsigned long long)hi, s ? s : "");
    *out = v;
    return LAD_OK;
}

int cli_shard(const char *s, uint64_t *i, uint64_t *n)
{
    const char *slash = strchr(s, '/');
    char idx[24];
    size_t len = slash ? (size_t)(slash - s) : 0;
    int ok = slash && len > 0 && len < sizeof idx && is_digit(s[0], 10) &&
             is_digit(slash[1], 10);
    if (ok) {
        memcpy(idx, s, len);
        idx[len] = 0;
        char *end1, *end2;
        errno = 0;
        *i = strtoull(idx, &end1, 10);
        *n = strtoull(slash + 1, &end2, 10);
        ok = !*end1 && !*end2 && errno == 0 && *n >= 1 && *n <= CLI_SHARD_MAX && *i < *n;
    }
    if (!ok)
        return cli_usage_error("--shard must be I/N with 0 <= I < N <= %d, not '%s'",
                               CLI_SHARD_MAX, s);
    return LAD_OK;
}

int cli_output_kind(const char *cmd, const char *path, const char *const *exts, int dflt,
                    int *kind)
{
    if (kind)
        *kind = dflt;
    const char *base = path ? strrchr(path, '/') : NULL;
    base = base ? base + 1 : path;
    const char *dot = base ? strrchr(base, '.') : NULL;
    if (dot == NULL || dot == base || dot[1] == 0)
        return LAD_OK;
    for (int i = 0; exts[i]; i++)
        if (strcasecmp(dot + 1, exts[i]) == 0) {
            if (kind)
                *kind = i;
            return LAD_OK;
        }
    char list[128] = "";
    for (int i = 0; exts[i]; i++) {
        size_t n = strlen(list);
        snprintf(list + n, sizeof list - n, "%s.%s", i == 0 ? "" : exts[i + 1] ? ", " : " or ",
                 exts[i]);
    }
    return cli_usage_error("%s -o writes %s, not '%s'", cmd, list, dot);
}

int cli_is_help(const char *s)
{
    return strcmp(s, "--help") == 0 || strcmp(s, "-h") == 0;
}

/* An argument is an option when it starts with "--" (and is not "--"
** itself) or is a dash and one letter: "-0.1" and "-inf" are not. */
static int is_option(const char *s)
{
    if (s[0] != '-')
        return 0;
    if (s[1] == '-')
        return s[2] != 0;
    return ((s[1] >= 'a' && s[1] <= 'z') || (s[1] >= 'A' && s[1] <= 'Z')) &&
           s[2] == 0;
}

int cli_parse(int argc, char **argv, const cli_opt *opts,
              char **pos, int *npos, int minpos, int maxpos, const char *need)
{
    int only_pos = 0;
    *npos = 0;
    for (int i = 1; i < argc; i++) {
        char *a = argv[i];
        if (!only_pos && strcmp(a, "--") == 0) {
            only_pos = 1;
            continue;
        }
        if (only_pos || !is_option(a)) {
            if (*npos >= maxpos)
                return cli_usage_error("unexpected argument '%s'", a);
            pos[(*npos)++] = a;
            continue;
        }
        if (cli_is_help(a)) {
            if (cli_table_check(argv[0], opts) != LAD_OK)
                return LAD_EINTERNAL;
            cli_usage(stdout, argv[0]);
            return CLI_HELP;
        }
        const cli_opt *o = NULL;
        const char *inline_val = NULL;
        if (a[1] == '-') {
            const char *name = a + 2;
            const char *eq = strchr(name, '=');
            size_t len = eq ? (size_t)(eq - name) : strlen(name);
            for (const cli_opt *p = opts; p && p->name; p++)
                if (strlen(p->name) == len && strncmp(p->name, name, len) == 0)
                    o = p;
            if (o == NULL) {
                char typed[64];
                snprintf(typed, sizeof typed, "%.*s", (int)len, name);
                lad_suggest s;
                lad_suggest_init(&s, typed);
                for (const cli_opt *p = opts; p && p->name; p++)
                    lad_suggest_add(&s, p->name);
                lad_suggest_add(&s, "help");
                const char *near = lad_suggest_best(&s);
                if (near)
                    return cli_usage_error("unknown option '--%s'; did you mean '--%s'?",
                                           typed, near);
                return cli_usage_error("unknown option '--%s'", typed);
            }
            if (eq)
                inline_val = eq + 1;
        } else {
            for (const cli_opt *p = opts; p && p->name; p++)
                if (p->short_name == a[1])
                    o = p;
            if (o == NULL)
                return cli_usage_error("unknown option '%s'", a);
        }
        if (!o->has_arg) {
            if (inline_val)
                return cli_usage_error("option '--%s' takes no value",
                                       o->name);
            *o->value = "1";
        } else if (inline_val) {
            *o->value = inline_val;
        } else if (i + 1 < argc) {
            *o->value = argv[++i];
        } else {
            return cli_usage_error("option '--%s' needs a value", o->name);
        }
    }
    if (*npos < minpos)
        return cli_usage_error("%s", need ? need : "missing argument");
    return LAD_OK;
}
