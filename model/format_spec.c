/*
** Format specs: parsing and printing (see format_spec.h).
*/
#include "format_spec.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Parses a whole decimal integer, optionally signed. Returns 0 on success. */
static int parse_int(const char *s, size_t len, long lo, long hi, int *out)
{
    char buf[32];
    if (len == 0 || len >= sizeof buf)
        return -1;
    memcpy(buf, s, len);
    buf[len] = 0;
    char *end;
    long v = strtol(buf, &end, 10);
    if (*end != 0 || v < lo || v > hi || (buf[0] != '-' && (buf[0] < '0' || buf[0] > '9')))
        return -1;
    *out = (int)v;
    return 0;
}

/* Index of `s` (length len) in names[], or -1. */
static int pick(const char *s, size_t len, const char *const *names, int n)
{
    for (int i = 0; i < n; i++)
        if (strlen(names[i]) == len && strncmp(names[i], s, len) == 0)
            return i;
    return -1;
}

static const char *const sub_names[] = {"ieee", "flush", "none"};
static const char *const inf_names[] = {"none", "ieee"};
static const char *const nan_names[] = {"none", "ieee", "ones", "negzero"};
#define NAMES(a) (sizeof(a) / sizeof(a)[0])

/* A generic base: eXmY, ueXmY, sN, uN. Returns 0 when recognised. */
static int parse_shape(const char *s, size_t len, lad_format *f)
{
    memset(f, 0, sizeof *f);
    int x, y;
    const char *p = s;
    size_t n = len;
    if (n >= 2 && (p[0] == 's' || p[0] == 'u') && p[1] >= '0' && p[1] <= '9') {
        /* u1 is a format (one bit); s1 is refused by lad_format_check */
        if (parse_int(p + 1, n - 1, 1, 32, &x))
            return -1;
        f->kind = LAD_INT;
        f->width = x;
        f->sign = p[0] == 's';
        return 0;
    }
    f->sign = 1;
    if (n >= 2 && p[0] == 'u' && p[1] == 'e') {
        f->sign = 0;
        p++;
        n--;
    }
    if (n < 4 || p[0] != 'e')
        return -1;
    const char *m = memchr(p, 'm', n);
    if (m == NULL || parse_int(p + 1, (size_t)(m - p - 1), 1, 11, &x) ||
        parse_int(m + 1, n - (size_t)(m + 1 - p), 0, 52, &y))
        return -1;
    if (p[1] == '-' || m[1] == '-')
        return -1;
    f->kind = LAD_FLOAT;
    f->ebits = x;
    f->mbits = y;
    f->bias = (1 << (x - 1)) - 1;
    f->sub = LAD_SUB_IEEE;
    f->inf = LAD_INF_IEEE;
    f->nan = y > 0 ? LAD_NAN_IEEE : LAD_NAN_NONE;
    f->width = f->sign + x + y;
    return 0;
}

int lad_format_parse(const char *spec, lad_format *out, lad_err *err)
{
    const char *colon = strchr(spec, ':');
    size_t blen = colon ? (size_t)(colon - spec) : strlen(spec);
    char base[LAD_NAME_MAX];
    if (blen == 0 || blen >= sizeof base)
        return lad_errf(err, LAD_EDATA, "unknown format '%s'", spec);
    memcpy(base, spec, blen);
    base[blen] = 0;
    lad_format f;
    const lad_format *b = lad_format_find(base);
    int width_given = 0, builtin = b != NULL;
    if (b)
        f = *b;
    else if (parse_shape(base, blen, &f))
        return lad_errf(err, LAD_EDATA,
                        "unknown format '%s' (not a built-in name, eXmY, "
                        "ueXmY, sN or uN)", spec);
    /* the name of a built-in base is overwritten whole: bytes of it left
    ** behind the new name would make equal formats compare unequal */
    memset(f.name, 0, sizeof f.name);
    snprintf(f.name, sizeof f.name, "%s", base);

    /* each key once: with two, which one holds would be a guess */
    static const char *const keys[] = {"bias", "sub", "inf", "nan", "pad", "width", "sign",
                                       "name"};
    unsigned seen = 0;
    const char *p = colon ? colon + 1 : NULL;
    while (p) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        const char *eq = memchr(p, '=', len);
        if (eq == NULL)
            return lad_errf(err, LAD_EDATA, "expected key=value, not '%.*s', "
                            "in format '%s'", (int)len, p, spec);
        size_t klen = (size_t)(eq - p);
        const char *v = eq + 1;
        size_t vlen = len - klen - 1;
        int bad = 0, x, key = pick(p, klen, keys, NAMES(keys));
        if (key >= 0 && (seen >> key) & 1)
            return lad_errf(err, LAD_EDATA, "key '%.*s' given twice in format '%s'",
                            (int)klen, p, spec);
        if (key >= 0)
            seen |= 1u << key;
#define KEY(k) (klen == strlen(k) && strncmp(p, k, klen) == 0)
        /* an integer has no exponent: these keys would be dropped, and the
        ** spec printed would not say what was asked */
        if (f.kind == LAD_INT &&
            (KEY("bias") || KEY("sub") || KEY("inf") || KEY("nan")))
            return lad_errf(err, LAD_EDATA, "'%.*s' is not a key of integer "
                            "format '%s' (only width, sign and name are)",
                            (int)klen, p, spec);
        if (KEY("bias")) {
            bad = parse_int(v, vlen, -1024, 1024, &f.bias);
        } else if (KEY("sub")) {
            bad = (x = pick(v, vlen, sub_names, 3)) < 0;
            f.sub = x;
        } else if (KEY("inf")) {
            bad = (x = pick(v, vlen, inf_names, 2)) < 0;
            f.inf = x;
        } else if (KEY("nan")) {
            bad = (x = pick(v, vlen, nan_names, 4)) < 0;
            f.nan = x;
        } else if (KEY("pad")) {
            bad = parse_int(v, vlen, 0, 63, &f.pad);
        } else if (KEY("width")) {
            bad = parse_int(v, vlen, 1, 64, &f.width);
            width_given = 1;
        } else if (KEY("sign")) {
            bad = parse_int(v, vlen, 0, 1, &f.sign);
        } else if (KEY("name")) {
            bad = vlen == 0 || vlen >= sizeof f.name;
            if (!bad) {
                memset(f.name, 0, sizeof f.name);
                memcpy(f.name, v, vlen);
                f.name[vlen] = 0;
            }
        } else {
            return lad_errf(err, LAD_EDATA, "unknown key '%.*s' in format "
                            "'%s'", (int)klen, p, spec);
        }
#undef KEY
        if (bad)
            return lad_errf(err, LAD_EDATA, "bad value '%.*s' for '%.*s' in "
                            "format '%s'", (int)vlen, v, (int)klen, p, spec);
        p = end ? end + 1 : NULL;
    }
    /* A float's word grows or shrinks with its fields unless the spec set
    ** the width; a built-in keeps its container (tf32 stays 32 bits). */
    if (f.kind == LAD_FLOAT && !width_given) {
        int need = f.sign + f.ebits + f.mbits + f.pad;
        if (!builtin || need > f.width)
            f.width = need;
    }
    const char *why = lad_format_check(&f);
    if (why)
        return lad_errf(err, LAD_EDATA, "format '%s': %s", spec, why);
    *out = f;
    return LAD_OK;
}

size_t lad_format_spec(const lad_format *f, char *buf, size_t size)
{
    int n;
    if (f->kind == LAD_INT)
        n = snprintf(buf, size, "%c%d", f->sign ? 's' : 'u', f->width);
    else
        n = snprintf(buf, size, "%se%dm%d:bias=%d,sub=%s,inf=%s,nan=%s",
                     f->sign ? "" : "u", f->ebits, f->mbits, f->bias,
                     sub_names[(unsigned)f->sub % NAMES(sub_names)],
                     inf_names[(unsigned)f->inf % NAMES(inf_names)],
                     nan_names[(unsigned)f->nan % NAMES(nan_names)]);
    size_t len = n < 0 ? 0 : (size_t)n;
    /* The base parses as the built-in of that name when there is one
    ** (ue4m3 is 8 bits wide, not 7), else as a word of just its fields:
    ** pad and width are printed whenever they differ from what it gives. */
    char base[LAD_NAME_MAX];
    snprintf(base, sizeof base, "%se%dm%d", f->sign ? "" : "u", f->ebits,
             f->mbits);
    const lad_format *b = lad_format_find(base);
    int natural = f->sign + f->ebits + f->mbits;
    if (f->kind == LAD_FLOAT &&
        (b ? b->pad != f->pad || b->width != f->width
           : f->pad != 0 || f->width != natural)) {
        int m = snprintf(len < size ? buf + len : NULL,
                         len < size ? size - len : 0, ",pad=%d,width=%d",
                         f->pad, f->width);
        len += m < 0 ? 0 : (size_t)m;
    }
    return len;
}

/* Appends ":key=value" for the first key (*nkeys 0), ",key=value" after,
** at *len, as snprintf would (len counts what did not fit too). */
static void add_key(char *buf, size_t size, size_t *len, int *nkeys,
                    const char *key, const char *value)
{
    int n = snprintf(*len < size ? buf + *len : NULL,
                     *len < size ? size - *len : 0, "%c%s=%s",
                     (*nkeys)++ ? ',' : ':', key, value);
    *len += n < 0 ? 0 : (size_t)n;
}

size_t lad_format_spec_short(const lad_format *f, char *buf, size_t size)
{
    char base[LAD_NAME_MAX], v[16];
    if (f->kind == LAD_INT)
        snprintf(base, sizeof base, "%c%d", f->sign ? 's' : 'u', f->width);
    else
        snprintf(base, sizeof base, "%se%dm%d", f->sign ? "" : "u", f->ebits,
                 f->mbits);
    /* what the base alone parses to, as lad_format_parse reads it */
    lad_format d;
    const lad_format *b = lad_format_find(base);
    if (b)
        d = *b;
    else if (parse_shape(base, strlen(base), &d))
        return lad_format_spec(f, buf, size);
    int n = snprintf(buf, size, "%s", base);
    size_t len = n < 0 ? 0 : (size_t)n;
    if (f->kind == LAD_INT)
        return len;
    int nkeys = 0;
    if (f->bias != d.bias) {
        snprintf(v, sizeof v, "%d", f->bias);
        add_key(buf, size, &len, &nkeys, "bias", v);
    }
    if (f->sub != d.sub)
        add_key(buf, size, &len, &nkeys, "sub",
                sub_names[(unsigned)f->sub % NAMES(sub_names)]);
    if (f->inf != d.inf)
        add_key(buf, size, &len, &nkeys, "inf",
                inf_names[(unsigned)f->inf % NAMES(inf_names)]);
    if (f->nan != d.nan)
        add_key(buf, size, &len, &nkeys, "nan",
                nan_names[(unsigned)f->nan % NAMES(nan_names)]);
    if (f->pad != d.pad) {
        snprintf(v, sizeof v, "%d", f->pad);
        add_key(buf, size, &len, &nkeys, "pad", v);
    }
    /* the width the parser gives these fields when none is written */
    int need = f->sign + f->ebits + f->mbits + f->pad;
    int width = b == NULL || need > d.width ? need : d.width;
    if (f->width != width) {
        snprintf(v, sizeof v, "%d", f->width);
        add_key(buf, size, &len, &nkeys, "width", v);
    }
    return len;
}
