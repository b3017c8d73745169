/*
** The vector line format: parsing with located errors, and formatting. See
** vecline.h for the format. A line is split into fields at ';' and fields
** into words at ','; every error is reported at the column (1-based) of the
** field or word at fault, or of the end of the line when something is missing.
*/
#include "vecline.h"

#include <stdio.h>
#include <string.h>

#define MAXFIELDS 8

int lad_hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Parses 1..maxdigits hex digits. Returns NULL and sets *v, or a message;
** *bad receives the offset of the offending character (0 otherwise). */
static const char *parse_hex(const char *s, size_t len, int maxdigits,
                             lad_word_t *v, size_t *bad)
{
    *bad = 0;
    if (len == 0)
        return "empty word";
    lad_word_t x = 0;
    for (size_t i = 0; i < len; i++) {
        int h = lad_hexval((unsigned char)s[i]);
        if (h < 0) {
            *bad = i;
            return "bad hex digit";
        }
        x = (x << 4) | (lad_word_t)h;
    }
    if (len > (size_t)maxdigits)
        return "too many hex digits";
    *v = x;
    return NULL;
}

const char *lad_vecline_word(const lad_format *f, const char *s, size_t len,
                             int digits, lad_word_t *w)
{
    size_t bad;
    if (digits <= 0)
        digits = lad_format_digits(f);
    if (digits > 16)
        digits = 16;
    lad_word_t v = 0;
    const char *msg = parse_hex(s, len, digits, &v, &bad);
    if (msg)
        return msg;
    if (f->width < 64 && (v >> f->width) != 0)
        return "value does not fit the format's width";
    *w = v;
    return NULL;
}

int lad_vecline_hex(const lad_format *f, lad_word_t w, char *buf)
{
    int n = lad_format_digits(f);
    static const char hex[] = "0123456789abcdef";
    for (int i = 0; i < n; i++)
        buf[i] = hex[(w >> (4 * (n - 1 - i))) & 15];
    buf[n] = 0;
    return n;
}

int lad_vecline_extra(const lad_datapath *dp)
{
    return lad_datapath_nscales(dp) > 0 || lad_datapath_nmeta(dp) > 0;
}

/* One field of a line: its text and the column it starts at. */
typedef struct field {
    const char *s;
    size_t len;
    int col;        /* 1-based column of the first character */
} field;

/* Shows a word in a message: at most 16 characters. */
static void quote(char *out, size_t size, const char *s, size_t len)
{
    size_t n = len < 16 ? len : 16;
    snprintf(out, size, "%.*s%s", (int)n, s, len > n ? "..." : "");
}

/* A hex digit's value plus one, 0 for every other byte: one load per
** character. */
static const unsigned char hexdigit1[256] = {
    ['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5, ['5'] = 6,
    ['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10,
    ['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
    ['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

/* The common case of a list in one pass over the characters: exactly
** `want` (>= 1) words of 1..digits hex digits each, fitting `width` bits,
** separated by ','. Returns where the list stops (the first character that
** is neither a digit nor a separator between words), or NULL when it is not
** such a list; the general code then walks the line again to say where and
** why, so every message comes from one place. */
static const char *fast_words(const char *p, int width, int digits, int want,
                              lad_word_t *out)
{
    lad_word_t top = width < 64 ? ~(lad_word_t)0 << width : 0;
    if (digits == 1) {
        /* a word of one digit (fp4): the digit, then ',' or the list's end */
        for (int n = 0;; p += 2) {
            unsigned h = hexdigit1[(unsigned char)p[0]];
            if (h == 0 || hexdigit1[(unsigned char)p[1]] != 0 || ((h - 1) & top) != 0)
                return NULL;
            out[n++] = h - 1;
            if (n == want)
                return p + 1;
            if (p[1] != ',')
                return NULL;
        }
    }
    for (int n = 0;;) {
        const char *w = p;
        lad_word_t v = 0;
        unsigned h;
        if (digits == 4 && hexdigit1[(unsigned char)p[0]] &&
            hexdigit1[(unsigned char)p[1]] && hexdigit1[(unsigned char)p[2]] &&
            hexdigit1[(unsigned char)p[3]]) {
            /* a word at its native 4 digits (f16, bf16), the common case:
            ** the four digits do not wait on each other */
            v = (lad_word_t)(hexdigit1[(unsigned char)p[0]] - 1) << 12 |
                (lad_word_t)(hexdigit1[(unsigned char)p[1]] - 1) << 8 |
                (lad_word_t)(hexdigit1[(unsigned char)p[2]] - 1) << 4 |
                (lad_word_t)(hexdigit1[(unsigned char)p[3]] - 1);
            p += 4;
        }
        while ((h = hexdigit1[(unsigned char)*p]) != 0) {
            v = (v << 4) | (h - 1);
            p++;
        }
        if (p == w || p - w > digits || (v & top) != 0)
            return NULL;
        out[n++] = v;
        if (*p != ',' || n == want)
            return n == want ? p : NULL;
        p++;
    }
}

/* The scale or metadata list of a fast line: `want` words of at most
** `digits` digits fitting `width` bits, or nothing when want is 0 (the
** datapath has none). Returns where it stops, or NULL. */
static const char *fast_extra(const char *p, int width, int digits, int want, lad_word_t *out)
{
    return want == 0 ? p : fast_words(p, width, digits, want, out);
}

/* A whole well-formed line in one pass: A;B;C or A;B;C;D, and for a
** datapath with scales or sparsity ;scale_a;scale_b;meta after them (the D
** field told by the number of fields that follow C). Returns 1 when the
** line is well formed, 0 otherwise (the general parser then says why). */
static int fast_line(const lad_datapath *dp, int k, const char *p,
                     lad_case *cs, lad_word_t *d, int *has_d)
{
    if ((p = fast_words(p, dp->a.width, lad_format_digits(&dp->a), k,
                        cs->a)) == NULL || *p++ != ';')
        return 0;
    if ((p = fast_words(p, dp->b.width, lad_format_digits(&dp->b), k,
                        cs->b)) == NULL || *p++ != ';')
        return 0;
    if ((p = fast_words(p, dp->c.width, lad_format_digits(&dp->c), 1,
                        &cs->c)) == NULL)
        return 0;
    int extra = lad_vecline_extra(dp), with_d = *p == ';';
    if (extra) {
        int semis = 0;  /* 3: ;scale_a;scale_b;meta, 4: D before them */
        for (const char *q = p; *q; q++)
            semis += *q == ';';
        if (semis != 3 && semis != 4)
            return 0;
        with_d = semis == 4;
    }
    if (with_d) {
        if ((p = fast_words(p + 1, dp->d.width, lad_format_digits(&dp->d), 1,
                            d)) == NULL)
            return 0;
        *has_d = 1;
    }
    if (extra) {
        int ns = lad_datapath_nscales(dp), nm = lad_datapath_nmeta(dp);
        lad_word_t sa[LAD_SCALEMAX], sb[LAD_SCALEMAX], meta[LAD_METAMAX];
        if (*p++ != ';' || (p = fast_extra(p, 8, 2, ns, sa)) == NULL || *p++ != ';' ||
            (p = fast_extra(p, 8, 2, ns, sb)) == NULL || *p++ != ';' ||
            (p = fast_extra(p, 32, 8, nm, meta)) == NULL)
            return 0;
        for (int j = 0; j < ns; j++) {
            cs->sa[j] = (uint8_t)sa[j];
            cs->sb[j] = (uint8_t)sb[j];
        }
        for (int j = 0; j < nm; j++)
            cs->meta[j] = (uint32_t)meta[j];
    }
    while (*p == '\r' || *p == '\n')
        p++;
    return *p == 0;
}

/*
** Parses a comma-separated list of `want` words into out[], each of at most
** `digits` hex digits and fitting `width` bits. what names the field ("A").
** fmt (may be NULL) names the format in messages.
*/
static int parse_list(const field *fl, const char *what, const char *fmtname,
                      int width, int digits, int want, lad_word_t *out,
                      const lad_vecloc *loc, lad_err *err)
{
    const char *p = fl->s, *end = fl->s + fl->len;
    int n = 0;
    if (fl->len == 0 && want > 0)
        return lad_errf_at(err, LAD_EDATA, loc->file, loc->line, fl->col,
                           "%s is empty, expected %d word%s", what, want,
                           want == 1 ? "" : "s");
    while (fl->len > 0) {
        const char *q = memchr(p, ',', (size_t)(end - p));
        if (q == NULL)
            q = end;
        int col = fl->col + (int)(p - fl->s);
        if (n == want)
            return lad_errf_at(err, LAD_EDATA, loc->file, loc->line, col,
                               "%s has more than %d word%s", what, want,
                               want == 1 ? "" : "s");
        size_t bad;
        lad_word_t v = 0;
        const char *msg = parse_hex(p, (size_t)(q - p), digits, &v, &bad);
        char shown[24];
        if (msg || (width < 64 && (v >> width) != 0))
            quote(shown, sizeof shown, p, (size_t)(q - p));
        if (msg && strcmp(msg, "bad hex digit") == 0)
            return lad_errf_at(err, LAD_EDATA, loc->file, loc->line,
                               col + (int)bad, "bad hex digit '%c' in %s "
                               "word '%s'", p[bad], what, shown);
        if (msg && strcmp(msg, "empty word") == 0)
            return lad_errf_at(err, LAD_EDATA, loc->file, loc->line, col,
                               "empty word in %s", what);
        if (msg)
            return lad_errf_at(err, LAD_EDATA, loc->file, loc->line, col,
                               "%s word '%s' has %d hex digits; %s words "
                               "have at most %d", what, shown, (int)(q - p),
                               fmtname, digits);
        if (width < 64 && (v >> width) != 0)
            return lad_errf_at(err, LAD_EDATA, loc->file, loc->line, col,
                               "%s word '%s' does not fit %s (%d bits)",
                               what, shown, fmtname, width);
        out[n++] = v;
        if (q == end)
            break;
        p = q + 1;
    }
    if (n < want)
        return lad_errf_at(err, LAD_EDATA, loc->file, loc->line,
                           fl->col + (int)fl->len, "%s has %d word%s, "
                           "expected %d", what, n, n == 1 ? "" : "s", want);
    return LAD_OK;
}

/* Zeroes what a case of dp holds: lanes 0..dp->k-1, C, scales, metadata.
** Not the lanes past dp->k, which take no part: clearing all of lad_case
** costs a kilobyte of stores per line, as much as parsing a short one. */
static void clear(const lad_datapath *dp, lad_case *cs)
{
    memset(cs->a, 0, (size_t)dp->k * sizeof cs->a[0]);
    memset(cs->b, 0, (size_t)dp->k * sizeof cs->b[0]);
    cs->c = 0;
    memset(cs->sa, 0, sizeof cs->sa);
    memset(cs->sb, 0, sizeof cs->sb);
    memset(cs->meta, 0, sizeof cs->meta);
}

int lad_vecline_parse(const lad_datapath *dp, int k, const char *line,
                      const lad_vecloc *loc, lad_case *cs, lad_word_t *d,
                      int *has_d, lad_err *err)
{
    clear(dp, cs);
    *has_d = 0;
    *d = 0;
    if (k <= 0 || k > dp->k)
        k = dp->k;
    if (fast_line(dp, k, line, cs, d, has_d))
        return LAD_OK;
    clear(dp, cs);
    *has_d = 0;
    *d = 0;

    size_t len = strlen(line);
    while (len > 0 && (line[len - 1] == '\r' || line[len - 1] == '\n'))
        len--;

    field fl[MAXFIELDS + 1];
    int nf = 0;
    const char *p = line, *end = line + len;
    for (;;) {
        const char *q = memchr(p, ';', (size_t)(end - p));
        if (q == NULL)
            q = end;
        if (nf == MAXFIELDS)
            return lad_errf_at(err, LAD_EDATA, loc->file, loc->line,
                               (int)(p - line) + 1, "too many fields");
        fl[nf].s = p;
        fl[nf].len = (size_t)(q - p);
        fl[nf].col = (int)(p - line) + 1;
        nf++;
        if (q == end)
            break;
        p = q + 1;
    }

    int extra = lad_vecline_extra(dp) ? 3 : 0;
    if (nf != 3 + extra && nf != 4 + extra) {
        int col = nf > 4 + extra ? fl[4 + extra].col : (int)len + 1;
        if (len == 0)
            return lad_errf_at(err, LAD_EDATA, loc->file, loc->line, 1,
                               "empty line, expected a case");
        if (extra)
            return lad_errf_at(err, LAD_EDATA, loc->file, loc->line, col,
                               "expected 6 or 7 fields "
                               "(A;B;C[;D];scale_a;scale_b;meta) for '%s', "
                               "got %d", dp->name, nf);
        return lad_errf_at(err, LAD_EDATA, loc->file, loc->line, col,
                           "expected 3 or 4 fields (A;B;C[;D]) for '%s', "
                           "got %d%s", dp->name, nf,
                           nf == 6 || nf == 7 ? ": scale_a;scale_b;meta fields need a "
                                                "block-scaled or sparse datapath (--model)"
                                              : "");
    }
    int with_d = nf == 4 + extra;

    int rc = parse_list(&fl[0], "A", dp->a.name, dp->a.width,
                        lad_format_digits(&dp->a), k, cs->a, loc, err);
    if (rc == LAD_OK)
        rc = parse_list(&fl[1], "B", dp->b.name, dp->b.width,
                        lad_format_digits(&dp->b), k, cs->b, loc, err);
    if (rc == LAD_OK)
        rc = parse_list(&fl[2], "C", dp->c.name, dp->c.width,
                        lad_format_digits(&dp->c), 1, &cs->c, loc, err);
    if (rc == LAD_OK && with_d)
        rc = parse_list(&fl[3], "D", dp->d.name, dp->d.width,
                        lad_format_digits(&dp->d), 1, d, loc, err);
    if (rc != LAD_OK)
        return rc;
    *has_d = with_d;
    if (!extra)
        return LAD_OK;

    const field *fx = &fl[3 + with_d];
    int ns = lad_datapath_nscales(dp), nm = lad_datapath_nmeta(dp);
    lad_word_t tmp[LAD_SCALEMAX > LAD_METAMAX ? LAD_SCALEMAX : LAD_METAMAX];
    const char *names[2] = {"scale_a", "scale_b"};
    for (int i = 0; i < 2; i++) {
        if (ns == 0) {
            if (fx[i].len != 0)
                return lad_errf_at(err, LAD_EDATA, loc->file, loc->line,
                                   fx[i].col, "%s given, but '%s' has no "
                                   "block scales", names[i], dp->name);
            continue;
        }
        const lad_format *sf = i == 0 ? &dp->sa : &dp->sb;
        rc = parse_list(&fx[i], names[i], sf->name, 8, 2, ns, tmp, loc, err);
        if (rc != LAD_OK)
            return rc;
        for (int j = 0; j < ns; j++) {
            if (i == 0)
                cs->sa[j] = (uint8_t)tmp[j];
            else
                cs->sb[j] = (uint8_t)tmp[j];
        }
    }
    if (nm == 0) {
        if (fx[2].len != 0)
            return lad_errf_at(err, LAD_EDATA, loc->file, loc->line,
                               fx[2].col, "meta given, but '%s' is not "
                               "sparse", dp->name);
        return LAD_OK;
    }
    rc = parse_list(&fx[2], "meta", "metadata", 32, 8, nm, tmp, loc, err);
    for (int j = 0; j < nm && rc == LAD_OK; j++)
        cs->meta[j] = (uint32_t)tmp[j];
    return rc;
}

/* Appends words as hex, comma-separated. Returns the new length or -1. */
static int put_words(char *buf, size_t size, int at, const lad_word_t *w,
                     int n, const lad_format *f, int digits)
{
    static const char hex[] = "0123456789abcdef";
    if (f)
        digits = lad_format_digits(f);
    for (int i = 0; i < n; i++) {
        if ((size_t)at + (size_t)digits + 2 > size)
            return -1;
        if (i > 0)
            buf[at++] = ',';
        if (f) {
            at += lad_vecline_hex(f, w[i], buf + at);
        } else {
            for (int j = 0; j < digits; j++)
                buf[at++] = hex[(w[i] >> (4 * (digits - 1 - j))) & 15];
            buf[at] = 0;
        }
    }
    return at;
}

static int put_char(char *buf, size_t size, int at, char c)
{
    if (at < 0 || (size_t)at + 2 > size)
        return -1;
    buf[at++] = c;
    buf[at] = 0;
    return at;
}

int lad_vecline_format(const lad_datapath *dp, const lad_case *cs,
                       const lad_word_t *d, char *buf, size_t size)
{
    int at = 0;
    if (size == 0)
        return -1;
    buf[0] = 0;
    at = put_words(buf, size, at, cs->a, dp->k, &dp->a, 0);
    at = put_char(buf, size, at, ';');
    if (at >= 0)
        at = put_words(buf, size, at, cs->b, dp->k, &dp->b, 0);
    at = put_char(buf, size, at, ';');
    if (at >= 0)
        at = put_words(buf, size, at, &cs->c, 1, &dp->c, 0);
    if (d) {
        at = put_char(buf, size, at, ';');
        if (at >= 0)
            at = put_words(buf, size, at, d, 1, &dp->d, 0);
    }
    if (at < 0 || !lad_vecline_extra(dp))
        return at;
    int ns = lad_datapath_nscales(dp), nm = lad_datapath_nmeta(dp);
    lad_word_t sa[LAD_SCALEMAX], sb[LAD_SCALEMAX], meta[LAD_METAMAX];
    for (int i = 0; i < ns; i++) {
        sa[i] = cs->sa[i];
        sb[i] = cs->sb[i];
    }
    for (int i = 0; i < nm; i++)
        meta[i] = cs->meta[i];
    at = put_char(buf, size, at, ';');
    if (at >= 0)
        at = put_words(buf, size, at, sa, ns, NULL, 2);
    at = put_char(buf, size, at, ';');
    if (at >= 0)
        at = put_words(buf, size, at, sb, ns, NULL, 2);
    at = put_char(buf, size, at, ';');
    if (at >= 0)
        at = put_words(buf, size, at, meta, nm, NULL, 8);
    return at;
}
