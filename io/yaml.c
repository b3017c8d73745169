/*
** The YAML event walker and typed accessors; see yaml.h.
**
** libyaml delivers a stream of events (mapping start, scalar, ...), each
** with 0-based marks. The walker keeps a stack of open collections, checks
** every limit as the events arrive (so a hostile file costs at most its
** size), and attaches each new node to the collection on top of the stack.
*/
#include "yaml.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

int lad_yerr(const lad_ydoc *doc, const lad_ynode *node, lad_err *err,
             const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return lad_errf_at(err, LAD_EDATA, doc->file, node ? node->line : 0,
                       node ? node->col : 0, "%s", msg);
}

const char *lad_ykind_name(int kind)
{
    switch (kind) {
    case LAD_YSCALAR: return "a scalar";
    case LAD_YSEQ: return "a sequence";
    default: return "a mapping";
    }
}

void lad_yaml_free(lad_ydoc *doc)
{
    if (doc == NULL)
        return;
    lad_ynode *n = doc->nodes;
    while (n) {
        lad_ynode *next = n->next_alloc;
        free(n->str);
        free(n->kids);
        free(n);
        n = next;
    }
    doc->nodes = NULL;
    doc->root = NULL;
    doc->count = 0;
}

/* Location of a byte offset, for reader errors (which carry no mark):
** 1-based line, and column in characters like libyaml's marks. */
static void offset_mark(const char *text, size_t len, size_t off, int *line,
                        int *col)
{
    int l = 1, c = 1;
    if (off > len)
        off = len;
    for (size_t i = 0; i < off; i++) {
        unsigned char ch = (unsigned char)text[i];
        if (ch == '\n') {
            l++;
            c = 1;
        } else if ((ch & 0xc0) != 0x80) {
            c++;
        }
    }
    *line = l;
    *col = c;
}

/* Shortens libyaml's full tag names for messages: tag:yaml.org,2002:str
** is written !!str. */
static const char *short_tag(const char *tag, char *buf, size_t size)
{
    const char *pre = "tag:yaml.org,2002:";
    if (strncmp(tag, pre, strlen(pre)) == 0)
        snprintf(buf, size, "!!%s", tag + strlen(pre));
    else
        snprintf(buf, size, "%s", tag);
    return buf;
}

static int parser_error(const char *file, const yaml_parser_t *p,
                        const char *text, size_t len, lad_err *err)
{
    const char *problem = p->problem ? p->problem : "cannot parse";
    int line, col;
    switch (p->error) {
    case YAML_MEMORY_ERROR:
        return lad_errf(err, LAD_EINTERNAL, "out of memory parsing '%s'", file);
    case YAML_READER_ERROR:
        offset_mark(text, len, p->problem_offset, &line, &col);
        if (p->problem_value >= 0)
            return lad_errf_at(err, LAD_EDATA, file, line, col,
                               "invalid text: %s (0x%02x)", problem,
                               (unsigned)p->problem_value);
        return lad_errf_at(err, LAD_EDATA, file, line, col,
                           "invalid text: %s", problem);
    default:
        line = (int)p->problem_mark.line + 1;
        col = (int)p->problem_mark.column + 1;
        if (p->context)
            return lad_errf_at(err, LAD_EDATA, file, line, col,
                               "syntax error: %s (%s at %d:%d)", problem,
                               p->context, (int)p->context_mark.line + 1,
                               (int)p->context_mark.column + 1);
        return lad_errf_at(err, LAD_EDATA, file, line, col,
                           "syntax error: %s", problem);
    }
}

static lad_ynode *new_node(lad_ydoc *doc, int kind, const yaml_mark_t *m)
{
    lad_ynode *n = calloc(1, sizeof *n);
    if (n == NULL)
        return NULL;
    n->kind = kind;
    n->line = (int)m->line + 1;
    n->col = (int)m->column + 1;
    n->next_alloc = doc->nodes;
    doc->nodes = n;
    doc->count++;
    return n;
}

/* Makes room for `need` entries in a collection's kids. */
static int reserve(lad_ynode *parent, int need)
{
    if (need <= parent->cap)
        return 0;
    int cap = parent->cap ? parent->cap * 2 : 8;
    lad_ynode **k = realloc(parent->kids, (size_t)cap * sizeof *k);
    if (k == NULL)
        return -1;
    parent->kids = k;
    parent->cap = cap;
    return 0;
}

/* The keys of one open mapping, for the duplicate check: an open-addressed
** hash table of pair indices + 1 (0: empty), at most half full. Comparing
** each new key with every earlier one made a mapping of n keys cost n^2/2
** string compares (24 s for a 577 KB recipe). */
typedef struct keyset {
    int *slot;
    unsigned cap; /* 0 or a power of two */
} keyset;

/* The walker's state. A mapping on the stack is waiting for a key when
** `half` is 0 and for the value of its last key when it is 1. */
typedef struct walker {
    lad_ydoc *doc;
    lad_err *err;
    lad_ynode *stack[LAD_YAML_MAXDEPTH];
    int half[LAD_YAML_MAXDEPTH];
    keyset keys[LAD_YAML_MAXDEPTH];
    int depth;
} walker;

static unsigned key_hash(const lad_ynode *k)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (size_t i = 0; i < k->len; i++)
        h = (h ^ (unsigned char)k->str[i]) * 16777619u;
    return h;
}

/* The slot of key k in map's set: the one holding an equal key, or the empty
** one where k belongs. */
static int *key_slot(const keyset *s, const lad_ynode *map, const lad_ynode *k)
{
    unsigned i = key_hash(k) & (s->cap - 1);
    for (;; i = (i + 1) & (s->cap - 1)) {
        int at = s->slot[i];
        if (at == 0)
            return &s->slot[i];
        const lad_ynode *old = map->kids[2 * (at - 1)];
        if (old->len == k->len && memcmp(old->str, k->str, k->len) == 0)
            return &s->slot[i];
    }
}

/* Room for map's next key (the set grows to twice the keys, rehashed). */
static int key_reserve(keyset *s, const lad_ynode *map)
{
    if ((unsigned)map->n + 1 <= s->cap / 2)
        return 0;
    unsigned cap = s->cap ? s->cap * 2 : 16;
    int *slot = calloc(cap, sizeof *slot);
    if (slot == NULL)
        return -1;
    free(s->slot);
    s->slot = slot;
    s->cap = cap;
    for (int i = 0; i < map->n; i++)
        *key_slot(s, map, map->kids[2 * i]) = i + 1;
    return 0;
}

static void key_free(keyset *s)
{
    free(s->slot);
    s->slot = NULL;
    s->cap = 0;
}

/* Attaches a new node to the open collection (or makes it the root). */
static int attach(walker *w, lad_ynode *n)
{
    if (w->depth == 0) {
        w->doc->root = n;
        return LAD_OK;
    }
    lad_ynode *p = w->stack[w->depth - 1];
    if (p->kind == LAD_YSEQ) {
        if (reserve(p, p->n + 1) < 0)
            return lad_errf(w->err, LAD_EINTERNAL, "out of memory");
        p->kids[p->n++] = n;
        return LAD_OK;
    }
    int *half = &w->half[w->depth - 1];
    if (*half == 0) {
        if (n->kind != LAD_YSCALAR)
            return lad_yerr(w->doc, n, w->err, "mapping keys must be scalars");
        keyset *ks = &w->keys[w->depth - 1];
        if (key_reserve(ks, p) < 0)
            return lad_errf(w->err, LAD_EINTERNAL, "out of memory");
        int *slot = key_slot(ks, p, n);
        if (*slot)
            return lad_yerr(w->doc, n, w->err, "duplicate key '%s'",
                            n->str);
        if (reserve(p, 2 * p->n + 2) < 0)
            return lad_errf(w->err, LAD_EINTERNAL, "out of memory");
        *slot = p->n + 1;
        p->kids[2 * p->n] = n;
        p->kids[2 * p->n + 1] = NULL;
        *half = 1;
    } else {
        p->kids[2 * p->n + 1] = n;
        p->n++;
        *half = 0;
    }
    return LAD_OK;
}

/* Refuses anchors and tags on a node event. */
static int check_props(walker *w, const yaml_char_t *anchor,
                       const yaml_char_t *tag, const yaml_mark_t *m)
{
    char buf[128];
    if (anchor)
        return lad_errf_at(w->err, LAD_EDATA, w->doc->file, (int)m->line + 1,
                           (int)m->column + 1,
                           "anchors are not allowed ('&%.60s')",
                           (const char *)anchor);
    if (tag)
        return lad_errf_at(w->err, LAD_EDATA, w->doc->file, (int)m->line + 1,
                           (int)m->column + 1,
                           "tags are not allowed ('%.80s')",
                           short_tag((const char *)tag, buf, sizeof buf));
    return LAD_OK;
}

static int on_event(walker *w, const yaml_event_t *ev, int *docs, int *done)
{
    lad_ydoc *doc = w->doc;
    const yaml_mark_t *m = &ev->start_mark;
    int rc;
    switch (ev->type) {
    case YAML_STREAM_START_EVENT:
    case YAML_DOCUMENT_END_EVENT:
    case YAML_NO_EVENT:
        return LAD_OK;
    case YAML_STREAM_END_EVENT:
        *done = 1;
        return LAD_OK;
    case YAML_DOCUMENT_START_EVENT:
        if (++*docs > 1)
            return lad_errf_at(w->err, LAD_EDATA, doc->file, (int)m->line + 1,
                               (int)m->column + 1,
                               "more than one document in the file");
        return LAD_OK;
    case YAML_ALIAS_EVENT:
        return lad_errf_at(w->err, LAD_EDATA, doc->file, (int)m->line + 1,
                           (int)m->column + 1,
                           "aliases are not allowed ('*%.60s')",
                           (const char *)ev->data.alias.anchor);
    case YAML_SCALAR_EVENT: {
        rc = check_props(w, ev->data.scalar.anchor, ev->data.scalar.tag, m);
        if (rc)
            return rc;
        size_t len = ev->data.scalar.length;
        if (len > LAD_YAML_MAXSCALAR)
            return lad_errf_at(w->err, LAD_EDATA, doc->file, (int)m->line + 1,
                               (int)m->column + 1,
                               "scalar longer than %d bytes",
                               LAD_YAML_MAXSCALAR);
        if (memchr(ev->data.scalar.value, 0, len))
            return lad_errf_at(w->err, LAD_EDATA, doc->file, (int)m->line + 1,
                               (int)m->column + 1, "scalar contains a nul byte");
        if (doc->count >= LAD_YAML_MAXNODES)
            return lad_errf_at(w->err, LAD_EDATA, doc->file, (int)m->line + 1,
                               (int)m->column + 1, "more than %d nodes",
                               LAD_YAML_MAXNODES);
        lad_ynode *n = new_node(doc, LAD_YSCALAR, m);
        if (n == NULL || (n->str = malloc(len + 1)) == NULL)
            return lad_errf(w->err, LAD_EINTERNAL, "out of memory");
        memcpy(n->str, ev->data.scalar.value, len);
        n->str[len] = 0;
        n->len = len;
        n->plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
        return attach(w, n);
    }
    case YAML_SEQUENCE_START_EVENT:
    case YAML_MAPPING_START_EVENT: {
        int seq = ev->type == YAML_SEQUENCE_START_EVENT;
        rc = seq ? check_props(w, ev->data.sequence_start.anchor,
                               ev->data.sequence_start.tag, m)
                 : check_props(w, ev->data.mapping_start.anchor,
                               ev->data.mapping_start.tag, m);
        if (rc)
            return rc;
        if (w->depth >= LAD_YAML_MAXDEPTH)
            return lad_errf_at(w->err, LAD_EDATA, doc->file, (int)m->line + 1,
                               (int)m->column + 1,
                               "nesting deeper than %d levels",
                               LAD_YAML_MAXDEPTH);
        if (doc->count >= LAD_YAML_MAXNODES)
            return lad_errf_at(w->err, LAD_EDATA, doc->file, (int)m->line + 1,
                               (int)m->column + 1, "more than %d nodes",
                               LAD_YAML_MAXNODES);
        lad_ynode *n = new_node(doc, seq ? LAD_YSEQ : LAD_YMAP, m);
        if (n == NULL)
            return lad_errf(w->err, LAD_EINTERNAL, "out of memory");
        rc = attach(w, n);
        if (rc)
            return rc;
        w->stack[w->depth] = n;
        w->half[w->depth] = 0;
        w->depth++;
        return LAD_OK;
    }
    case YAML_SEQUENCE_END_EVENT:
    case YAML_MAPPING_END_EVENT:
        if (w->depth > 0)
            key_free(&w->keys[--w->depth]);
        return LAD_OK;
    }
    return LAD_OK;
}

int lad_yaml_parse(const char *file, const char *text, size_t len,
                   lad_ydoc *doc, lad_err *err)
{
    memset(doc, 0, sizeof *doc);
    snprintf(doc->file, sizeof doc->file, "%s", file);
    if (len > LAD_YAML_MAXSIZE)
        return lad_errf(err, LAD_EDATA, "'%s' is larger than %d bytes", file,
                        LAD_YAML_MAXSIZE);
    yaml_parser_t p;
    if (!yaml_parser_initialize(&p))
        return lad_errf(err, LAD_EINTERNAL, "out of memory");
    yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
    walker w = {.doc = doc, .err = err};
    int docs = 0, done = 0, rc = LAD_OK;
    while (!done) {
        yaml_event_t ev;
        if (!yaml_parser_parse(&p, &ev)) {
            rc = parser_error(file, &p, text, len, err);
            break;
        }
        rc = on_event(&w, &ev, &docs, &done);
        yaml_event_delete(&ev);
        if (rc)
            break;
    }
    yaml_parser_delete(&p);
    for (int i = 0; i < LAD_YAML_MAXDEPTH; i++)
        key_free(&w.keys[i]);
    if (rc == LAD_OK && doc->root == NULL)
        rc = lad_errf_at(err, LAD_EDATA, file, 1, 1, "empty document");
    if (rc != LAD_OK)
        lad_yaml_free(doc);
    return rc;
}

int lad_yaml_read_file(const char *path, char **text, size_t *len,
                       lad_err *err)
{
    *text = NULL;
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return lad_errf(err, LAD_EDATA, "cannot open '%s': %s", path,
                        strerror(errno));
    char *buf = malloc(LAD_YAML_MAXSIZE + 2);
    if (buf == NULL) {
        fclose(f);
        return lad_errf(err, LAD_EINTERNAL, "out of memory");
    }
    size_t n = fread(buf, 1, LAD_YAML_MAXSIZE + 1, f);
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        return lad_errf(err, LAD_EDATA, "cannot read '%s'", path);
    }
    if (n > LAD_YAML_MAXSIZE) {
        free(buf);
        return lad_errf(err, LAD_EDATA, "'%s' is larger than %d bytes", path,
                        LAD_YAML_MAXSIZE);
    }
    buf[n] = 0;
    char *shrunk = realloc(buf, n + 1);
    *text = shrunk ? shrunk : buf;
    *len = n;
    return LAD_OK;
}

int lad_yaml_load(const char *path, lad_ydoc *doc, lad_err *err)
{
    char *text;
    size_t len;
    memset(doc, 0, sizeof *doc);
    int rc = lad_yaml_read_file(path, &text, &len, err);
    if (rc)
        return rc;
    rc = lad_yaml_parse(path, text, len, doc, err);
    free(text);
    return rc;
}

/* ---- typed access ---- */

lad_ynode *lad_ymap_get(const lad_ynode *map, const char *key)
{
    if (map == NULL || map->kind != LAD_YMAP)
        return NULL;
    for (int i = 0; i < map->n; i++)
        if (strcmp(map->kids[2 * i]->str, key) == 0)
            return map->kids[2 * i + 1];
    return NULL;
}

lad_ynode *lad_ymap_key_of(const lad_ynode *map, const lad_ynode *v)
{
    if (map == NULL || map->kind != LAD_YMAP)
        return NULL;
    for (int i = 0; i < map->n; i++)
        if (map->kids[2 * i + 1] == v)
            return map->kids[2 * i];
    return NULL;
}

int lad_ymap_check_keys(const lad_ydoc *doc, const lad_ynode *map,
                        const char *const *allowed, lad_err *err)
{
    for (int i = 0; i < map->n; i++) {
        const lad_ynode *k = map->kids[2 * i];
        int ok = 0;
        for (const char *const *a = allowed; *a && !ok; a++)
            ok = strcmp(*a, k->str) == 0;
        if (!ok)
            return lad_yerr(doc, k, err, "unknown key '%.100s'", k->str);
    }
    return LAD_OK;
}

int lad_ymap_need(const lad_ydoc *doc, const lad_ynode *map, const char *key,
                  lad_ynode **out, lad_err *err)
{
    *out = lad_ymap_get(map, key);
    if (*out == NULL)
        return lad_yerr(doc, map, err, "missing key '%s'", key);
    return LAD_OK;
}

int lad_ynode_expect(const lad_ydoc *doc, const lad_ynode *node, int kind,
                     const char *what, lad_err *err)
{
    if (node->kind == kind)
        return LAD_OK;
    if (node->kind == LAD_YSCALAR && node->plain && node->len == 0)
        return lad_yerr(doc, node, err, "missing value for '%s'", what);
    return lad_yerr(doc, node, err, "'%s' must be %s, not %s", what,
                    lad_ykind_name(kind), lad_ykind_name(node->kind));
}

/* Common front of the scalar readers: a scalar with some text. Describes a
** wrong node as "not a mapping", and an empty plain scalar as missing. */
static int need_scalar(const lad_ydoc *doc, const lad_ynode *node,
                       const char *what, const char *type, lad_err *err)
{
    if (node->kind != LAD_YSCALAR)
        return lad_yerr(doc, node, err, "'%s' must be %s, not %s", what, type,
                        lad_ykind_name(node->kind));
    if (node->plain && node->len == 0)
        return lad_yerr(doc, node, err, "missing value for '%s'", what);
    return LAD_OK;
}

int lad_yint(const lad_ydoc *doc, const lad_ynode *node, const char *what,
             long long lo, long long hi, long long *out, lad_err *err)
{
    int rc = need_scalar(doc, node, what, "an integer", err);
    if (rc)
        return rc;
    const char *s = node->str;
    int neg = 0, overflow = 0;
    if (*s == '-' || *s == '+')
        neg = *s++ == '-';
    if (!node->plain || *s < '0' || *s > '9')
        goto notint;
    unsigned long long v = 0;
    for (; *s >= '0' && *s <= '9'; s++) {
        unsigned d = (unsigned)(*s - '0');
        if (v > (9223372036854775808ULL - d) / 10)
            overflow = 1;
        else
            v = v * 10 + d;
    }
    if (*s)
        goto notint;
    if (!overflow && !neg && v > 9223372036854775807ULL)
        overflow = 1;
    long long x = 0;
    if (!overflow)
        x = neg ? (long long)(0 - v) : (long long)v;
    if (overflow || x < lo || x > hi)
        return lad_yerr(doc, node, err, "'%s' must be in %lld..%lld, not %.40s",
                        what, lo, hi, node->str);
    *out = x;
    return LAD_OK;
notint:
    if (!node->plain)
        return lad_yerr(doc, node, err,
                        "'%s' must be an integer, not a quoted string", what);
    return lad_yerr(doc, node, err, "'%s' must be an integer, not '%.40s'",
                    what, node->str);
}

int lad_ybool(const lad_ydoc *doc, const lad_ynode *node, const char *what,
              int *out, lad_err *err)
{
    int rc = need_scalar(doc, node, what, "true or false", err);
    if (rc)
        return rc;
    if (node->plain && strcmp(node->str, "true") == 0) {
        *out = 1;
        return LAD_OK;
    }
    if (node->plain && strcmp(node->str, "false") == 0) {
        *out = 0;
        return LAD_OK;
    }
    return lad_yerr(doc, node, err, "'%s' must be true or false, not '%.40s'",
                    what, node->str);
}

int lad_yenum(const lad_ydoc *doc, const lad_ynode *node, const char *what,
              const char *const *names, int *out, lad_err *err)
{
    int rc = need_scalar(doc, node, what, "a name", err);
    if (rc)
        return rc;
    for (int i = 0; names[i]; i++)
        if (strcmp(names[i], node->str) == 0) {
            *out = i;
            return LAD_OK;
        }
    char list[200];
    size_t used = 0;
    list[0] = 0;
    for (int i = 0; names[i] && used < sizeof list; i++)
        used += (size_t)snprintf(list + used, sizeof list - used, "%s%s",
                                 i ? ", " : "", names[i]);
    return lad_yerr(doc, node, err, "'%s' must be one of %s, not '%.40s'", what,
                    list, node->str);
}

int lad_ystr(const lad_ydoc *doc, const lad_ynode *node, const char *what,
             char *buf, size_t size, lad_err *err)
{
    int rc = need_scalar(doc, node, what, "a string", err);
    if (rc)
        return rc;
    if (node->len == 0)
        return lad_yerr(doc, node, err, "'%s' must not be empty", what);
    if (node->len >= size)
        return lad_yerr(doc, node, err, "'%s' must be at most %zu bytes long",
                        what, size - 1);
    memset(buf, 0, size);
    memcpy(buf, node->str, node->len);
    return LAD_OK;
}

int lad_yhex64(const lad_ydoc *doc, const lad_ynode *node, const char *what,
               uint64_t *out, lad_err *err)
{
    int rc = need_scalar(doc, node, what, "a hex word", err);
    if (rc)
        return rc;
    const char *s = node->str;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        s += 2;
    size_t n = strlen(s);
    uint64_t v = 0;
    int ok = node->plain && n >= 1 && n <= 16;
    for (size_t i = 0; ok && i < n; i++) {
        char c = s[i];
        unsigned d = c >= '0' && c <= '9'   ? (unsigned)(c - '0')
                     : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
                     : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10)
                                            : 16;
        if (d == 16)
            ok = 0;
        v = v << 4 | d;
    }
    if (!ok)
        return lad_yerr(doc, node, err,
                        "'%s' must be a hex word of at most 16 digits, not "
                        "'%.40s'",
                        what, node->str);
    *out = v;
    return LAD_OK;
}
