/*
** Model files: reading and writing a lad_datapath as YAML; see
** modelfile.h and docs/model-files.md.
**
** One table lists every key with its field, its type and the comment the
** writer puts above it; the reader and the writer both walk that table, so
** a field added to lad_datapath needs one line here to be read, written and
** round-trip tested.
*/
#include "modelfile.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../model/presets.h"

const char *const lad_model_round_names[] = {"rz", "rne", "ru", "rd", "rna",
                                             NULL};
const char *const lad_model_ovf_names[] = {"inf", "sat", "ieee", NULL};
const char *const lad_model_chain_names[] = {"chain", "sum", NULL};
const char *const lad_model_sparse_names[] = {"none", "1of2", "2of4",
                                              "pairs8", NULL};
static const char *const sub_names[] = {"ieee", "flush", "none", NULL};
static const char *const inf_names[] = {"none", "ieee", NULL};
static const char *const nan_names[] = {"none", "ieee", "ones", NULL};
static const char *const kind_names[] = {"float", "int", NULL};

enum ftype {
    T_STR,    /* char array; may be "" (written quoted) */
    T_FMT,    /* lad_format */
    T_INT,    /* int within lo..hi */
    T_BOOL,   /* int 0/1, written true/false */
    T_ROUND,  /* enum lad_round */
    T_OVF,    /* enum lad_ovf */
    T_CHAIN,  /* enum lad_chain */
    T_SPARSE, /* enum lad_sparse */
    T_FLOOR,  /* int, or LAD_NOFLOOR written `none` */
    T_HEX,    /* uint32_t written 0x%08x */
    T_ORDER   /* lane order: a sequence of lanes, or `none` (norder 0) */
};

typedef struct field {
    const char *key;
    int type;        /* enum ftype */
    size_t off;      /* offset in lad_datapath */
    size_t size;     /* T_STR: array size */
    int lo, hi;      /* T_INT, T_FLOOR: range */
    const char *doc; /* the writer's comment line */
} field;

#define OFF(f) offsetof(lad_datapath, f)
#define STR(f, d) {#f, T_STR, OFF(f), sizeof(((lad_datapath *)0)->f), 0, 0, d}
#define FMT(f, d) {#f, T_FMT, OFF(f), 0, 0, 0, d}
#define INT(f, lo, hi, d) {#f, T_INT, OFF(f), 0, lo, hi, d}
#define TYP(f, t, d) {#f, t, OFF(f), 0, 0, 0, d}
#define FLOOR(f, d) {#f, T_FLOOR, OFF(f), 0, -10000, 10000, d}

static const field fields[] = {
    STR(name, "preset name: <arch>-<instr>-<ab>-<d>"),
    STR(arch, "target architecture"),
    STR(instr, "PTX instruction"),
    STR(kind, "tcgen05 kind, \"\" otherwise"),
    STR(shape, "instruction shape"),
    STR(sass, "tensor opcode the instruction compiles to"),
    FMT(a, "format of A elements"),
    FMT(b, "format of B elements"),
    FMT(c, "format of the addend C"),
    FMT(d, "format of the result D"),
    INT(k, 1, LAD_KMAX, "products per instruction, logical (before sparsity)"),
    TYP(in_round, T_ROUND, "how A/B words are cut to their format: rz rne rna"),
    TYP(integer, T_BOOL, "integer MMA: exact sum, wrap or saturate"),
    TYP(saturate, T_BOOL, "integer: clamp to the s32 range at the end"),
    INT(window, 0, 64, "fraction bits kept below the anchor"),
    TYP(align_round, T_ROUND, "rounding of each term into the window: rz rd rne"),
    FLOOR(zero_floor, "raw exponent a zero term gives the anchor, or none"),
    FLOOR(anchor_min, "lowest anchor exponent, or none"),
    TYP(c_anchor, T_BOOL, "the addend takes part in the anchor and alignment"),
    INT(pass, 1, LAD_KMAX, "products fused per pass"),
    TYP(chain, T_CHAIN, "how passes combine: chain or sum"),
    FMT(acc, "format of each pass result"),
    TYP(acc_round, T_ROUND, "rounding of a pass result into acc"),
    TYP(d_round, T_ROUND, "rounding of the last result into d"),
    TYP(d_via_acc, T_BOOL, "the last result is rounded into acc, then into d"),
    TYP(c_last, T_BOOL, "passes start from +0; C is added last, rounded into d"),
    TYP(order, T_ORDER, "physical lanes in the order they fill the passes, or none"),
    TYP(overflow, T_OVF, "overflow of acc and d: inf sat ieee"),
    TYP(nan, T_HEX, "the NaN word every NaN result gets"),
    FMT(sa, "scale format of A (scaled kinds)"),
    FMT(sb, "scale format of B (scaled kinds)"),
    INT(scale_block, 0, LAD_KMAX, "lanes per scale; 0: unscaled"),
    INT(group, 1, LAD_KMAX, "lanes summed exactly before windowing"),
    FLOOR(scale_floor, "quantum floor below the top scale pair, or none"),
    INT(cdom_window, 0, 1000, "C-dominant merge window; 0: off"),
    INT(cdom_group, 0, LAD_KMAX, "lanes per exact group on the C-dominant path"),
    TYP(cdom_per_group, T_BOOL, "groups C outranks are cut at rC - cdom_window"),
    FLOOR(group_sub_floor, "exponent below which groups leave a subnormal result, or none"),
    TYP(sparse, T_SPARSE, "sparsity pattern: none 1of2 2of4 pairs8"),
};
#define NFIELDS ((int)(sizeof fields / sizeof fields[0]))

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
        const lad_format *b = lad_format_find(node->str);
        if (b == NULL)
            return lad_yerr(doc, node, err, "unknown format '%.40s'",
                            node->str);
        *f = *b;
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
        (rc = fmt_int(doc, node, "width", 1, 32, &f->width, err)) ||
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
    if ((rc = fmt_int(doc, node, "ebits", 0, 10, &f->ebits, err)) ||
        (rc = fmt_int(doc, node, "mbits", 0, 23, &f->mbits, err)))
        return rc;
    f->bias = f->ebits > 0 ? (1 << (f->ebits - 1)) - 1 : 0;
    if ((rc = fmt_int(doc, node, "pad", 0, 31, &f->pad, err)) ||
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

static int read_field(const lad_ydoc *doc, const lad_ynode *v, const field *fd,
                      lad_datapath *dp, lad_err *err)
{
    char *p = (char *)dp + fd->off;
    int *ip = (int *)p;
    long long x;
    int rc, known;
    switch (fd->type) {
    case T_STR:
        return read_str(doc, v, fd->key, p, fd->size, err);
    case T_FMT:
        return lad_model_read_format(doc, v, fd->key, 0, (lad_format *)p,
                                     &known, err);
    case T_INT:
        rc = lad_yint(doc, v, fd->key, fd->lo, fd->hi, &x, err);
        if (rc == LAD_OK)
            *ip = (int)x;
        return rc;
    case T_BOOL:
        return lad_ybool(doc, v, fd->key, ip, err);
    case T_ROUND:
        return lad_yenum(doc, v, fd->key, lad_model_round_names, ip, err);
    case T_OVF:
        return lad_yenum(doc, v, fd->key, lad_model_ovf_names, ip, err);
    case T_CHAIN:
        return lad_yenum(doc, v, fd->key, lad_model_chain_names, ip, err);
    case T_SPARSE:
        return lad_yenum(doc, v, fd->key, lad_model_sparse_names, ip, err);
    case T_FLOOR:
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
    case T_HEX: {
        unsigned u;
        rc = lad_yhex32(doc, v, fd->key, &u, err);
        if (rc == LAD_OK)
            *(uint32_t *)p = u;
        return rc;
    }
    case T_ORDER:
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
    const char *allowed[NFIELDS + 2];
    for (int i = 0; i < NFIELDS; i++)
        allowed[i] = fields[i].key;
    allowed[NFIELDS] = "evidence";
    allowed[NFIELDS + 1] = NULL;
    lad_datapath_init(dp);
    if (evidence && size)
        evidence[0] = 0;
    if (map->kind != LAD_YMAP)
        return lad_yerr(doc, map, err, "a model file must be a mapping, not %s",
                        lad_ykind_name(map->kind));
    int rc = lad_ymap_check_keys(doc, map, allowed, err);
    if (rc)
        return rc;
    for (int i = 0; i < NFIELDS; i++) {
        const lad_ynode *v = lad_ymap_get(map, fields[i].key);
        if (v && (rc = read_field(doc, v, &fields[i], dp, err)))
            return rc;
    }
    const lad_ynode *ev = lad_ymap_get(map, "evidence");
    if (ev) {
        char buf[LAD_YAML_MAXSCALAR + 1];
        if ((rc = lad_ystr(doc, ev, "evidence", buf, sizeof buf, err)))
            return rc;
        if (evidence && size)
            snprintf(evidence, size, "%s", buf);
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
        lad_err e = {0};
        if (lad_datapath_check(dp, &e) != LAD_OK)
            rc = lad_errf_at(err, LAD_EDATA, file, doc.root->line,
                             doc.root->col, "%s", e.msg);
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
        return lad_errf(err, LAD_EDATA, "unknown preset or model file '%s'",
                        spec);
    fclose(f);
    return lad_model_load(spec, dp, NULL, 0, err);
}

/* ---- writing ---- */

typedef struct sbuf {
    char *s;
    size_t len, cap;
    int oom;
} sbuf;

static void put(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(sbuf *b, const char *fmt, ...)
{
    if (b->oom)
        return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
        va_end(ap);
        if (n < 0) {
            b->oom = 1;
            return;
        }
        if ((size_t)n < b->cap - b->len) {
            b->len += (size_t)n;
            return;
        }
        size_t cap = b->cap * 2 + (size_t)n + 64;
        char *s = realloc(b->s, cap);
        if (s == NULL) {
            b->oom = 1;
            return;
        }
        b->s = s;
        b->cap = cap;
    }
}

/* Writes a string plain when that reads back as the same string in any
** YAML reader, double-quoted otherwise. */
static void put_str(sbuf *b, const char *s)
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
    put(b, "\"");
    for (const char *p = s; *p; p++) {
        if (*p == '"' || *p == '\\')
            put(b, "\\%c", *p);
        else if ((unsigned char)*p < 0x20)
            put(b, "\\x%02x", (unsigned char)*p);
        else
            put(b, "%c", *p);
    }
    put(b, "\"");
}

static void put_format(sbuf *b, const lad_format *f)
{
    if (is_zero_format(f)) {
        put(b, "none");
        return;
    }
    const lad_format *bi = lad_format_find(f->name);
    if (bi && memcmp(bi, f, sizeof *f) == 0) {
        put(b, "%s", f->name);
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
        f->nan >= 0 && f->nan <= 2 ? nan_names[f->nan] : "?");
}

static const char *enum_name(const char *const *names, int n, int v)
{
    return v >= 0 && v < n ? names[v] : "?";
}

char *lad_model_write(const lad_datapath *dp, const char *evidence)
{
    sbuf b = {.s = malloc(4096), .cap = 4096};
    b.oom = b.s == NULL;
    put(&b, "# ladder model file (docs/model-files.md)\n");
    for (int i = 0; i < NFIELDS; i++) {
        const field *fd = &fields[i];
        const char *p = (const char *)dp + fd->off;
        int v = fd->type == T_ORDER || fd->type == T_STR || fd->type == T_FMT
                    ? 0 : *(const int *)p;
        put(&b, "# %s\n%s: ", fd->doc, fd->key);
        switch (fd->type) {
        case T_STR: {
            char s[128];
            snprintf(s, sizeof s, "%.*s", (int)fd->size, p);
            put_str(&b, s);
            break;
        }
        case T_FMT: put_format(&b, (const lad_format *)p); break;
        case T_INT: put(&b, "%d", v); break;
        case T_BOOL: put(&b, "%s", v ? "true" : "false"); break;
        case T_ROUND: put(&b, "%s", enum_name(lad_model_round_names, 5, v)); break;
        case T_OVF: put(&b, "%s", enum_name(lad_model_ovf_names, 3, v)); break;
        case T_CHAIN: put(&b, "%s", enum_name(lad_model_chain_names, 2, v)); break;
        case T_SPARSE: put(&b, "%s", enum_name(lad_model_sparse_names, 4, v)); break;
        case T_FLOOR:
            if (v == LAD_NOFLOOR)
                put(&b, "none");
            else
                put(&b, "%d", v);
            break;
        case T_HEX: put(&b, "0x%08x", (unsigned)*(const uint32_t *)p); break;
        case T_ORDER:
            if (dp->norder == 0)
                put(&b, "none");
            for (int j = 0; j < dp->norder; j++)
                put(&b, "%s%d", j ? ", " : "[", dp->order[j]);
            if (dp->norder)
                put(&b, "]");
            break;
        }
        put(&b, "\n");
    }
    if (evidence) {
        put(&b, "# what backs these values\nevidence: ");
        put_str(&b, evidence);
        put(&b, "\n");
    }
    if (b.oom || b.s == NULL) {
        free(b.s);
        return NULL;
    }
    return b.s;
}

/* ---- saving ------------------------------------------------------------ */

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

/* Writes text to f and closes it, whatever happens; 0 or an errno. */
static int write_close(FILE *f, const char *text)
{
    int e = 0;
    if (fputs(text, f) == EOF || fflush(f) != 0)
        e = errno ? errno : EIO;
    if (fclose(f) != 0 && e == 0)
        e = errno ? errno : EIO;
    return e;
}

int lad_model_save(const char *path, const lad_datapath *dp, const char *evidence,
                   lad_err *err)
{
    char *text = lad_model_write(dp, evidence);
    if (text == NULL)
        return lad_errf(err, LAD_EINTERNAL, "out of memory");
    /* A regular file (or a new one) is written beside and renamed over, so
    ** that a failed write never leaves half a model under the name. Anything
    ** else (/dev/stdout, a pipe) cannot be replaced and is written as is. */
    struct stat st;
    int in_place = stat(path, &st) == 0 && !S_ISREG(st.st_mode);
    char tmp[4096];
    int e = 0;
    if (!in_place &&
        snprintf(tmp, sizeof tmp, "%s.tmp%ld", path, (long)getpid()) >= (int)sizeof tmp)
        e = ENAMETOOLONG;
    FILE *f = NULL;
    if (e == 0) {
        int fd = in_place ? open(path, O_WRONLY | O_TRUNC)
                          : open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0666);
        if (fd < 0 || (f = fdopen(fd, "w")) == NULL) {
            e = errno;
            if (fd >= 0)
                close(fd);
        }
    }
    if (f != NULL)
        e = write_close(f, text);
    if (e == 0 && !in_place && rename(tmp, path) != 0)
        e = errno;
    if (e != 0 && f != NULL && !in_place)
        remove(tmp);
    free(text);
    if (e != 0)
        return lad_errf(err, LAD_EDATA, "cannot write '%s': %s", path, strerror(e));
    return LAD_OK;
}
