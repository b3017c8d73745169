/*
** Model files: reading and writing a lad_datapath as YAML; see
** modelfile.h and docs/model-files.md.
**
** The reader and the writer both walk the parameter registry
** (model/params.h): its rows give every key with its field, its type, its
** legal range and the comment the writer puts above it, so a parameter is
** read, written and round-trip tested once it has its row there.
*/
#include "modelfile.h"
#include "../util/outfile.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../model/format_spec.h"
#include "../model/params.h"
#include "../model/presets.h"
#include "../util/buf.h"
#include "../util/suggest.h"

static const char *const sub_names[] = {"ieee", "flush", "none", NULL};
static const char *const inf_names[] = {"none", "ieee", NULL};
static const char *const nan_names[] = {"none", "ieee", "ones", "negzero", NULL};
static const char *const kind_names[] = {"float", "int", NULL};

/* ---- formats ---- */

static const char *const format_keys[] = {"name", "kind", "width", "pad",
                                          "sign", "ebits", "mbits", "bias",
                                          "sub", "inf", "nan", NULL};

static int is_zero_format(const lad_format *f)
{
    static const lad_format zero;
    return memcmp(f, &zero, sizeof zero) == 0;
}

/* An int field of a format mapping into *out, when present. */
static int fmt_int(const lad_ydoc *doc, const lad_ynode *map, const char *key,
                   long long lo, long long hi, int *out, lad_err *err)
{
    const lad_ynode *v = lad_ymap_get(map, key);
    if (v == NULL)
        return LAD_OK;
    long long x;
    int rc = lad_yint(doc, v, key, lo, hi, &x, err);
    if (rc == LAD_OK)
        *out = (int)x;
    return rc;
}

static int fmt_enum(const lad_ydoc *doc, const lad_ynode *map, const char *key,
                    const char *const *names, int *out, lad_err *err)
{
    const lad_ynode *v = lad_ymap_get(map, key);
    return v ? lad_yenum(doc, v, key, names, out, err) : LAD_OK;
}

/* A format spec (model/format_spec.h) into *f, named as the spec names it
** (name=, else its base: "e3m4:bias=5" is e3m4, as lad_format_cut names a
** cut f32 e8m13). A built-in's name stays with the built-in: elsewhere a
** built-in name stands for that format, so a spec that changes a built-in
** without a name= is named by its own text ("e4m3:bias=8"), or refused
** when that does not fit. Returns LAD_OK or LAD_EDATA with the message. */
static int read_spec(const char *text, lad_format *f, lad_err *err)
{
    int rc = lad_format_parse(text, f, err);
    if (rc != LAD_OK)
        return rc;
    const lad_format *b = lad_format_find(f->name);
    if (b == NULL || memcmp(b, f, sizeof *f) == 0)
        return LAD_OK;
    if (strstr(text, ":name=") || strstr(text, ",name="))
        return lad_errf(err, LAD_EDATA, "format name '%s' is taken by a "
                        "built-in format", f->name);
    if (strlen(text) >= sizeof f->name)
        return lad_errf(err, LAD_EDATA, "format '%s' changes the built-in "
                        "'%s': give it a name (name=<name>)", text, f->name);
    memset(f->name, 0, sizeof f->name);
    memcpy(f->name, text, strlen(text));
    return LAD_OK;
}

int lad_model_read_format(const lad_ydoc *doc, const lad_ynode *node,
                          const char *what, int partial, lad_format *f,
                          int *known, lad_err *err)
{
    int rc;
    memset(f, 0, sizeof *f);
    *known = 1;
    if (node->kind == LAD_YSCALAR) {
        if (node->plain && node->len == 0)
            return lad_yerr(doc, node, err, "missing value for '%s'", what);
        if (node->plain && strcmp(node->str, "none") == 0)
            return LAD_OK;
        lad_err e = {0};
        if (read_spec(node->str, f, &e) != LAD_OK)
            return lad_yerr(doc, node, err, "%s", e.msg);
        return LAD_OK;
    }
    if (node->kind != LAD_YMAP)
        return lad_yerr(doc, node, err,
                        "'%s' must be a format name or mapping, not %s", what,
                        lad_ykind_name(node->kind));
    if ((rc = lad_ymap_check_keys(doc, node, format_keys, err)))
        return rc;
    lad_ynode *v;
    if ((rc = lad_ymap_need(doc, node, "name", &v, err)) ||
        (rc = lad_ystr(doc, v, "name", f->name, sizeof f->name, err)))
        return rc;
    if ((rc = lad_ymap_need(doc, node, "width", &v, err)) ||
        (rc = fmt_int(doc, node, "width", 1, 64, &f->width, err)) ||
        (rc = fmt_enum(doc, node, "kind", kind_names, &f->kind, err)))
        return rc;
    int decode = 0;
    for (int i = 3; format_keys[i]; i++)
        decode |= lad_ymap_get(node, format_keys[i]) != NULL;
    if (partial && !decode) {
        *known = 0;
        return LAD_OK;
    }
    /* A complete decode: defaults are IEEE-style. */
    f->sign = 1;
    f->sub = LAD_SUB_IEEE;
    f->inf = f->kind == LAD_INT ? LAD_INF_NONE : LAD_INF_IEEE;
    f->nan = f->kind == LAD_INT ? LAD_NAN_NONE : LAD_NAN_IEEE;
    if (f->kind == LAD_FLOAT) {
        if ((rc = lad_ymap_need(doc, node, "ebits", &v, err)) ||
            (rc = lad_ymap_need(doc, node, "mbits", &v, err)))
            return rc;
    }
    if ((rc = fmt_int(doc, node, "ebits", 0, 11, &f->ebits, err)) ||
        (rc = fmt_int(doc, node, "mbits", 0, 52, &f->mbits, err)))
        return rc;
    f->bias = f->ebits > 0 ? (1 << (f->ebits - 1)) - 1 : 0;
    if ((rc = fmt_int(doc, node, "pad", 0, 63, &f->pad, err)) ||
        (rc = fmt_int(doc, node, "sign", 0, 1, &f->sign, err)) ||
        (rc = fmt_int(doc, node, "bias", -1000, 1000, &f->bias, err)) ||
        (rc = fmt_enum(doc, node, "sub", sub_names, &f->sub, err)) ||
        (rc = fmt_enum(doc, node, "inf", inf_names, &f->inf, err)) ||
        (rc = fmt_enum(doc, node, "nan", nan_names, &f->nan, err)))
        return rc;
    const char *m = lad_format_check(f);
    if (m)
        return lad_yerr(doc, node, err, "format '%s': %s", f->name, m);
    return LAD_OK;
}

/* ---- reading ---- */

/* A string that may be empty when quoted (""); see T_STR. */
static int read_str(const lad_ydoc *doc, const lad_ynode *v, const char *key,
                    char *buf, size_t size, lad_err *err)
{
    if (v->kind == LAD_YSCALAR && !v->plain && v->len == 0) {
        memset(buf, 0, size);
        return LAD_OK;
    }
    return lad_ystr(doc, v, key, buf, size, err);
}

static int read_field(const lad_ydoc *doc, const lad_ynode *v, const lad_param *fd,
                      lad_datapath *dp, lad_err *err)
{
    char *p = (char *)dp + fd->off;
    int *ip = (int *)p;
    long long x;
    int rc, known;
    switch (fd->type) {
    case LAD_PT_STR:
        return read_str(doc, v, fd->key, p, fd->size, err);
    case LAD_PT_FMT:
        return lad_model_read_format(doc, v, fd->key, 0, (lad_format *)p,
                                     &known, err);
    case LAD_PT_INT:
        rc = lad_yint(doc, v, fd->key, fd->lo, fd->hi, &x, err);
        if (rc == LAD_OK)
            *ip = (int)x;
        return rc;
    case LAD_PT_BOOL:
        return lad_ybool(doc, v, fd->key, ip, err);
    case LAD_PT_ENUM:
        return lad_yenum(doc, v, fd->key, fd->names, ip, err);
    case LAD_PT_FLOOR:
        if (v->kind == LAD_YSCALAR && v->plain && strcmp(v->str, "none") == 0) {
            *ip = LAD_NOFLOOR;
            return LAD_OK;
        }
        if (v->kind == LAD_YSCALAR && v->plain && v->len > 0 &&
            strspn(v->str, "+-0123456789") != v->len)
            return lad_yerr(doc, v, err,
                            "'%s' must be an integer or none, not '%.40s'",
                            fd->key, v->str);
        rc = lad_yint(doc, v, fd->key, fd->lo, fd->hi, &x, err);
        if (rc == LAD_OK)
            *ip = (int)x;
        return rc;
    case LAD_PT_HEX: {
        uint64_t u;
        rc = lad_yhex64(doc, v, fd->key, &u, err);
        if (rc == LAD_OK)
            *(lad_word_t *)p = u;
        return rc;
    }
    case LAD_PT_ORDER:
        if (v->kind == LAD_YSCALAR && v->plain && strcmp(v->str, "none") == 0) {
            dp->norder = 0;
            return LAD_OK;
        }
        if (v->kind != LAD_YSEQ)
            return lad_yerr(doc, v, err, "'%s' must be a sequence of lanes or none",
                            fd->key);
        if (v->n < 1 || v->n > LAD_KMAX)
            return lad_yerr(doc, v, err, "'%s' must list 1..%d lanes, not %d",
                            fd->key, LAD_KMAX, v->n);
        for (int i = 0; i < v->n; i++) {
            rc = lad_yint(doc, v->kids[i], fd->key, 0, LAD_KMAX - 1, &x, err);
            if (rc != LAD_OK)
                return rc;
            dp->order[i] = (unsigned char)x;
        }
        dp->norder = v->n;
        return LAD_OK;
    }
    return lad_errf(err, LAD_EINTERNAL, "bad field type");
}

int lad_model_from_node(const lad_ydoc *doc, const lad_ynode *map,
                        lad_datapath *dp, char *evidence, size_t size,
                        lad_err *err)
{
    const char *allowed[LAD_NPARAMS_MAX + 2];
    int na = 0;
    for (int i = 0; i < lad_nparams && i < LAD_NPARAMS_MAX; i++)
        allowed[na++] = lad_params[i].key;
    allowed[na++] = "evidence";
    allowed[na] = NULL;
    lad_datapath_init(dp);
    if (evidence && size)
        evidence[0] = 0;
    if (map->kind != LAD_YMAP)
        return lad_yerr(doc, map, err, "a model file must be a mapping, not %s",
                        lad_ykind_name(map->kind));
    int rc = lad_ymap_check_keys(doc, map, allowed, err);
    if (rc)
        return rc;
    for (int i = 0; i < lad_nparams; i++) {
        const lad_ynode *v = lad_ymap_get(map, lad_params[i].key);
        if (v && (rc = read_field(doc, v, &lad_params[i], dp, err)))
            return rc;
        /* the row's legal set, the one lad_datapath_check applies */
        char msg[160];
        if (v && lad_param_illegal(&lad_params[i], dp, msg, sizeof msg))
            return lad_yerr(doc, v, err, "%s", msg);
    }
    /* What the instruction is cannot default: without it a file cut short
    ** would read as a K=1 all-f32 model. */
    for (int i = 0; i < lad_nparams; i++) {
        lad_ynode *v;
        if (lad_params[i].flags & LAD_PF_REQUIRED &&
            (rc = lad_ymap_need(doc, map, lad_params[i].key, &v, err)))
            return rc;
    }
    const lad_ynode *ev = lad_ymap_get(map, "evidence");
    if (ev) {
        char buf[LAD_YAML_MAXSCALAR + 1];
        if ((rc = lad_ystr(doc, ev, "evidence", buf, sizeof buf, err)))
            return rc;
        if (evidence && size) {
            /* cut to the caller's buffer at a character boundary: half a
            ** UTF-8 sequence would not be text to write back */
            size_t n = strlen(buf);
            if (n >= size) {
                n = size - 1;
                while (n > 0 && ((unsigned char)buf[n] & 0xc0) == 0x80)
                    n--;
            }
            memcpy(evidence, buf, n);
            evidence[n] = 0;
        }
    }
    return LAD_OK;
}

int lad_model_parse(const char *file, const char *text, size_t len,
                    lad_datapath *dp, char *evidence, size_t size,
                    lad_err *err)
{
    lad_ydoc doc;
    int rc = lad_yaml_parse(file, text, len, &doc, err);
    if (rc)
        return rc;
    rc = lad_model_from_node(&doc, doc.root, dp, evidence, size, err);
    if (rc == LAD_OK) {
        /* reported at the value of the key it names, else at the top */
        lad_err e = {0};
        if (lad_datapath_check(dp, &e) != LAD_OK) {
            const lad_ynode *at = e.key[0] ? lad_ymap_get(doc.root, e.key) : NULL;
            if (at == NULL)
                at = doc.root;
            rc = lad_errf_at(err, LAD_EDATA, file, at->line, at->col, "%s", e.msg);
        }
    }
    lad_yaml_free(&doc);
    return rc;
}

int lad_model_load(const char *path, lad_datapath *dp, char *evidence,
                   size_t size, lad_err *err)
{
    char *text;
    size_t len;
    int rc = lad_yaml_read_file(path, &text, &len, err);
    if (rc)
        return rc;
    rc = lad_model_parse(path, text, len, dp, evidence, size, err);
    free(text);
    return rc;
}

int lad_model_resolve(const char *spec, lad_datapath *dp, lad_err *err)
{
    const lad_preset *p = lad_preset_find(spec);
    if (p) {
        *dp = p->dp;
        return LAD_OK;
    }
    FILE *f = fopen(spec, "rb");
    if (f == NULL)
        return lad_model_unknown(spec, err);
    fclose(f);
    return lad_model_load(spec, dp, NULL, 0, err);
}

size_t lad_model_datapath_size(void)
{
    return sizeof(lad_datapath);
}

int lad_model_unknown(const char *spec, lad_err *err)
{
    lad_suggest s;
    lad_suggest_init(&s, spec);
    for (int i = 0; i < lad_preset_count(); i++)
        lad_suggest_add(&s, lad_preset_get(i)->dp.name);
    const char *near = lad_suggest_best(&s);
    if (near)
        return lad_errf(err, LAD_EUSAGE, "unknown preset or model file '%s'; did you "
                        "mean '%s'?", spec, near);
    return lad_errf(err, LAD_EUSAGE, "unknown preset or model file '%s'", spec);
}

/* ---- writing ---- */

/* The writer appends to a growable text (util/buf.h); put is its printf. */
static void put(lad_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(lad_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    lad_buf_vprintf(b, fmt, ap);
    va_end(ap);
}

/* Writes a string plain when that reads back as the same string in any
** YAML reader, double-quoted otherwise. */
static void put_str(lad_buf *b, const char *s)
{
    int plain = s[0] != 0 && strchr("-.+0123456789", s[0]) == NULL;
    for (const char *p = s; *p && plain; p++)
        plain = strchr("abcdefghijklmnopqrstuvwxyz"
                       "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.+-/",
                       *p) != NULL;
    static const char *const reserved[] = {"true", "false", "none", "null",
                                           "yes", "no", "on", "off", "y",
                                           "n", NULL};
    for (int i = 0; plain && reserved[i]; i++)
        plain = strcasecmp(s, reserved[i]) != 0;
    if (plain) {
        put(b, "%s", s);
        return;
    }
    /* Double-quoted YAML: what is not printable there, or a line break
    ** that would fold into a space (NEL, LS, PS), is escaped, so that the
    ** text reads back as written (the loader took it from valid UTF-8). */
    put(b, "\"");
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') {
            put(b, "\\%c", *p);
        } else if (*p < 0x20 || *p == 0x7f) {
            put(b, "\\x%02x", *p);
        } else if (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f) {
            put(b, "\\x%02x", p[1]);         /* C1 controls, NEL among them */
            p += 1;
        } else if (p[0] == 0xe2 && p[1] == 0x80 && (p[2] == 0xa8 || p[2] == 0xa9)) {
            put(b, "\\u%04x", 0x2000 + (p[2] - 0x80));  /* LS, PS */
            p += 2;
        } else if (p[0] == 0xef && p[1] == 0xbf && (p[2] == 0xbe || p[2] == 0xbf)) {
            put(b, "\\u%04x", 0xffc0 + (p[2] - 0x80));  /* U+FFFE, U+FFFF */
            p += 2;
        } else {
            put(b, "%c", *p);
        }
    }
    put(b, "\"");
}

/* The spec that reads back as exactly f, name included, into buf: its
** name when that is such a spec (a built-in, "e3m4:bias=5"), else its
** shortest spec with a name key when the name differs from the one that
** spec gives. Returns 0, or -1 when no spec reads back as f (a name with a
** comma, a bias a spec cannot hold). */
static int spec_of(const lad_format *f, char *buf, size_t size)
{
    lad_format g;
    lad_err e = {0};
    if (read_spec(f->name, &g, &e) == LAD_OK && memcmp(&g, f, sizeof g) == 0) {
        snprintf(buf, size, "%s", f->name);
        return 0;
    }
    size_t n = lad_format_spec_short(f, buf, size);
    if (n >= size || read_spec(buf, &g, &e) != LAD_OK)
        return -1;
    if (strcmp(g.name, f->name) != 0 &&
        (size_t)snprintf(buf + n, size - n, "%cname=%s",
                         strchr(buf, ':') ? ',' : ':', f->name) >= size - n)
        return -1;
    return read_spec(buf, &g, &e) == LAD_OK && memcmp(&g, f, sizeof g) == 0
               ? 0 : -1;
}

/* A format as a model file writes it: none, a spec (a built-in name among
** them), or, when no spec reads back as it, a mapping of every field. */
static void put_format(lad_buf *b, const lad_format *f)
{
    char spec[LAD_NAME_MAX + 96];
    if (is_zero_format(f)) {
        put(b, "none");
        return;
    }
    if (spec_of(f, spec, sizeof spec) == 0) {
        put_str(b, spec);
        return;
    }
    put(b, "{name: ");
    put_str(b, f->name);
    put(b, ", kind: %s, width: %d, pad: %d, sign: %d, ebits: %d, mbits: %d, "
           "bias: %d, sub: %s, inf: %s, nan: %s}",
        f->kind == LAD_INT ? "int" : "float", f->width, f->pad, f->sign,
        f->ebits, f->mbits, f->bias,
        f->sub >= 0 && f->sub <= 2 ? sub_names[f->sub] : "?",
        f->inf >= 0 && f->inf <= 1 ? inf_names[f->inf] : "?",
        f->nan >= 0 && f->nan <= 3 ? nan_names[f->nan] : "?");
}

const char *lad_model_value(const lad_param *p, const lad_datapath *dp, char *buf, size_t size)
{
    if (p->type != LAD_PT_FMT)
        return lad_param_text(p, dp, buf, size);
    const lad_format *f = (const lad_format *)((const char *)dp + p->off);
    if (is_zero_format(f))
        snprintf(buf, size, "none");
    else if (spec_of(f, buf, size) != 0)
        return NULL;
    return buf;
}

char *lad_model_write(const lad_datapath *dp, const char *evidence)
{
    return lad_model_write_notes(dp, evidence, NULL);
}

char *lad_model_write_notes(const lad_datapath *dp, const char *evidence,
                            const char *const *notes)
{
    lad_buf b = {0};
    put(&b, "# ladder model file (docs/model-files.md)\n");
    for (int i = 0; i < lad_nparams; i++) {
        const lad_param *fd = &lad_params[i];
        char text[LAD_KMAX * 5 + 8];
        char legal[160];
        if (fd->type == LAD_PT_ENUM)
            put(&b, "# %s: %s\n", fd->doc, lad_param_legal_text(fd, 0, legal, sizeof legal));
        else
            put(&b, "# %s\n", fd->doc);
        if (notes && notes[i])  /* a comment line: no line break inside */
            put(&b, "# %.*s\n", (int)strcspn(notes[i], "\n"), notes[i]);
        put(&b, "%s: ", fd->key);
        if (fd->type == LAD_PT_STR)
            put_str(&b, lad_param_text(fd, dp, text, sizeof text));
        else if (fd->type == LAD_PT_FMT)
            put_format(&b, (const lad_format *)((const char *)dp + fd->off));
        else
            put(&b, "%s", lad_param_text(fd, dp, text, sizeof text));
        put(&b, "\n");
    }
    /* an empty evidence would not load back ('evidence' must not be
    ** empty): no evidence is no line */
    if (evidence && evidence[0]) {
        put(&b, "# what backs these values\nevidence: ");
        put_str(&b, evidence);
        put(&b, "\n");
    }
    return lad_buf_take(&b);
}

/* ---- saving ------------------------------------------------------------ */

int lad_model_save(const char *path, const lad_datapath *dp, const char *evidence,
                   lad_err *err)
{
    char *text = lad_model_write(dp, evidence);
    if (text == NULL)
        return lad_errf(err, LAD_EINTERNAL, "out of memory");
    /* written beside and renamed over: a failed write never leaves half a
    ** model under the name (util/outfile.h) */
    int rc = lad_outfile_write(path, text, err);
    free(text);
    return rc;
}
