/*
** Vector files: the header reader, the line reader, and the frozen tcgen05
** line format (see vecfile.h). Files are read in blocks into one buffer
** of BLOCK bytes plus one longest line, so a file of any length streams in
** constant memory.
*/
#include "vecfile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- reading lines ---- */

/* Input is read in blocks of this many bytes (plus room for one longest
** line), and lines are cut in place: no copy, no call per byte. */
#define BLOCK 65536

/* Reads more input after the unreturned bytes buf[pos..len), moved to the
** front. Returns LAD_OK (vf->eof set at the end) or LAD_EDATA. */
static int fill(lad_vecfile *vf, lad_err *err)
{
    size_t keep = vf->len - vf->pos;
    memmove(vf->buf, vf->buf + vf->pos, keep);
    vf->pos = 0;
    vf->len = keep;
    size_t room = vf->cap - 1 - vf->len;    /* one byte for a final NUL */
    if (vf->fd < 0) {
        size_t r = fread(vf->buf + vf->len, 1, room, vf->f);
        if (r == 0 && ferror(vf->f))
            return lad_errf(err, LAD_EDATA, "cannot read '%s': %s", vf->path,
                            strerror(EIO));
        vf->len += r;
        vf->eof = r == 0;
        return LAD_OK;
    }
    if (vf->idle)
        vf->idle(vf->idle_arg);
    ssize_t r;
    do
        r = read(vf->fd, vf->buf + vf->len, room);
    while (r < 0 && errno == EINTR);
    if (r < 0)
        return lad_errf(err, LAD_EDATA, "cannot read '%s': %s", vf->path,
                        strerror(errno));
    vf->len += (size_t)r;
    vf->eof = r == 0;
    return LAD_OK;
}

/* Cuts the next raw line out of the block, without its newline, into
** vf->cur. A line longer than LAD_VECFILE_LINEMAX is refused before more of
** it is read, so a file without newlines cannot grow memory.
** Returns LAD_OK, LAD_NO at the end, or LAD_EDATA. */
static int read_raw(lad_vecfile *vf, lad_err *err)
{
    if (vf->buf == NULL) {
        vf->cap = BLOCK + LAD_VECFILE_LINEMAX + 2;
        if ((vf->buf = malloc(vf->cap)) == NULL)
            return lad_errf(err, LAD_EINTERNAL, "out of memory");
    }
    char *s;
    size_t n;
    for (;;) {
        s = vf->buf + vf->pos;
        size_t avail = vf->len - vf->pos;
        size_t look = avail > LAD_VECFILE_LINEMAX ? LAD_VECFILE_LINEMAX + 1
                                                  : avail;
        char *nl = memchr(s, '\n', look);
        if (nl) {
            n = (size_t)(nl - s);
            vf->pos += n + 1;
            break;
        }
        if (avail > LAD_VECFILE_LINEMAX)
            return lad_errf_at(err, LAD_EDATA, vf->path, vf->line + 1, 0,
                               "line longer than %d bytes", LAD_VECFILE_LINEMAX);
        if (vf->eof) {
            if (avail == 0)
                return LAD_NO;
            n = avail;      /* the last line, without a newline */
            vf->pos = vf->len;
            break;
        }
        int rc = fill(vf, err);
        if (rc != LAD_OK)
            return rc;
    }
    vf->line++;
    vf->cur = s;
    const char *nul = memchr(s, 0, n);
    while (n > 0 && s[n - 1] == '\r')
        n--;
    s[n] = 0;
    if (nul && nul < s + n)
        return lad_errf_at(err, LAD_EDATA, vf->path, vf->line,
                           (int)(nul - s) + 1, "NUL byte in line");
    return LAD_OK;
}

static int blank(const char *s)
{
    for (; *s; s++)
        if (*s != ' ' && *s != '\t')
            return 0;
    return 1;
}

static void copy(char *dst, size_t size, const char *s, size_t len)
{
    if (len >= size)
        len = size - 1;
    memcpy(dst, s, len);
    dst[len] = 0;
}

/* Reads one `# key: value` line into the header; other comments are
** ignored. */
static int header_line(lad_vecfile *vf, lad_err *err)
{
    const char *p = vf->cur + 1;
    while (*p == ' ')
        p++;
    const char *key = p;
    while ((*p >= 'a' && *p <= 'z') || *p == '_')
        p++;
    size_t klen = (size_t)(p - key);
    if (klen == 0 || *p != ':')
        return LAD_OK;
    p++;
    while (*p == ' ' || *p == '\t')
        p++;
    size_t vlen = strlen(p);
    while (vlen > 0 && (p[vlen - 1] == ' ' || p[vlen - 1] == '\t'))
        vlen--;
    int col = (int)(p - vf->cur) + 1;
    lad_vechdr *h = &vf->hdr;
    struct {
        const char *key;
        char *dst;
        size_t size;
    } text[] = {
        {"gpu", h->gpu, sizeof h->gpu},
        {"arch", h->arch, sizeof h->arch},
        {"instruction", h->instruction, sizeof h->instruction},
        {"a", h->a, sizeof h->a},
        {"b", h->b, sizeof h->b},
        {"c", h->c, sizeof h->c},
        {"d", h->d, sizeof h->d},
        {"source", h->source, sizeof h->source},
        {"format", h->format, sizeof h->format},
    };
    for (size_t i = 0; i < sizeof text / sizeof text[0]; i++)
        if (strlen(text[i].key) == klen && memcmp(key, text[i].key, klen) == 0) {
            copy(text[i].dst, text[i].size, p, vlen);
            return LAD_OK;
        }
    int is_k = klen == 1 && key[0] == 'k';
    int is_cases = klen == 5 && memcmp(key, "cases", 5) == 0;
    if (!is_k && !is_cases)
        return LAD_OK;
    long v = 0;
    size_t i = 0;
    for (; i < vlen && p[i] >= '0' && p[i] <= '9' && v < 1000000000; i++)
        v = v * 10 + (p[i] - '0');
    if (i == 0 || i != vlen || (is_k && (v < 1 || v > LAD_KMAX)))
        return lad_errf_at(err, LAD_EDATA, vf->path, vf->line, col,
                           "bad %s '%.*s' (expected %s)", is_k ? "k" : "cases",
                           (int)vlen, p, is_k ? "1..128" : "a count");
    if (is_k) {
        h->k = (int)v;
    } else {
        h->cases = v;
        h->cases_line = vf->line;
    }
    return LAD_OK;
}

int lad_vecfile_open(const char *path, lad_vecfile **out, lad_err *err)
{
    *out = NULL;
    int is_stdin = strcmp(path, "-") == 0;
    FILE *f = is_stdin ? stdin : fopen(path, "rb");
    if (f == NULL)
        return lad_errf(err, LAD_EDATA, "cannot open '%s': %s", path,
                        strerror(errno));
    int rc = lad_vecfile_openf(f, is_stdin ? "<stdin>" : path, out, err);
    if (rc != LAD_OK && f != stdin)
        fclose(f);
    return rc;
}

int lad_vecfile_openf(FILE *f, const char *name, lad_vecfile **out,
                      lad_err *err)
{
    *out = NULL;
    lad_vecfile *vf = calloc(1, sizeof *vf);
    if (vf == NULL || (vf->path = strdup(name)) == NULL) {
        free(vf);
        return lad_errf(err, LAD_EINTERNAL, "out of memory");
    }
    vf->hdr.cases = -1;
    vf->f = f;
    vf->fd = fileno(f);
    int rc;
    while ((rc = read_raw(vf, err)) == LAD_OK) {
        if (vf->cur[0] == '#') {
            rc = header_line(vf, err);
            if (rc != LAD_OK)
                break;
        } else if (!blank(vf->cur)) {
            vf->pending = 1;
            break;
        }
    }
    if (rc == LAD_EDATA || rc == LAD_EINTERNAL) {
        vf->f = NULL;    /* the caller's to close */
        lad_vecfile_close(vf);
        return rc;
    }
    if (strstr(vf->hdr.format, "label|kind|"))
        vf->kind = LAD_VECFILE_FROZEN;
    *out = vf;
    return LAD_OK;
}

int lad_vecfile_next(lad_vecfile *vf, const char **line, lad_vecloc *loc,
                     lad_err *err)
{
    if (vf->pending) {
        vf->pending = 0;
    } else {
        int rc;
        while ((rc = read_raw(vf, err)) == LAD_OK)
            if (vf->cur[0] != '#' && !blank(vf->cur))
                break;
        if (rc != LAD_OK)
            return rc;
    }
    *line = vf->cur;
    loc->file = vf->path;
    loc->line = vf->line;
    return LAD_OK;
}

void lad_vecfile_close(lad_vecfile *vf)
{
    if (vf == NULL)
        return;
    if (vf->f && vf->f != stdin)
        fclose(vf->f);
    free(vf->buf);
    free(vf->path);
    free(vf);
}

/* ---- presets ---- */

int lad_vechdr_preset(const lad_vechdr *h, const char *path, char *name,
                      size_t size, lad_err *err)
{
    const char *need[][2] = {{"arch", h->arch}, {"instruction", h->instruction},
                             {"a", h->a}, {"b", h->b}, {"d", h->d}};
    for (size_t i = 0; i < sizeof need / sizeof need[0]; i++)
        if (need[i][1][0] == 0)
            return lad_errf_at(err, LAD_EDATA, path, 0, 0, "no '# %s:' "
                               "header line to choose a model by; give "
                               "--model", need[i][0]);
    char digits[16];
    size_t n = 0;
    for (const char *p = h->arch; *p && n + 1 < sizeof digits; p++)
        if (*p >= '0' && *p <= '9')
            digits[n++] = *p;
    digits[n] = 0;
    if (n == 0)
        return lad_errf_at(err, LAD_EDATA, path, 0, 0, "arch '%s' has no "
                           "number", h->arch);
    const char *instr = strstr(h->instruction, "wgmma") ? "wgmma"
                        : strstr(h->instruction, "tcgen05") ? "tcgen05"
                        : "mma";
    char ab[2 * LAD_NAME_MAX + 2];
    /* integer presets always name both signednesses (s8xs8) */
    const lad_format *fa = lad_format_find(h->a);
    if (strcmp(h->a, h->b) == 0 && !(fa && fa->kind == LAD_INT))
        snprintf(ab, sizeof ab, "%s", h->a);
    else
        snprintf(ab, sizeof ab, "%sx%s", h->a, h->b);
    /* integer instructions that saturate say so (PTX .satfinite) */
    const char *sat = strstr(h->instruction, "satfinite") ? "-sat" : "";
    if ((size_t)snprintf(name, size, "sm%s-%s-%s-%s%s", digits, instr, ab,
                         h->d, sat) >= size)
        return lad_errf_at(err, LAD_EDATA, path, 0, 0, "model name too long");
    return LAD_OK;
}

/* ---- the frozen tcgen05 format ---- */

enum { F_LABEL, F_KIND, F_A, F_B, F_D, F_OPTIONS, F_AW, F_BW, F_C, F_SA,
       F_SB, F_META, F_EXPECT, NFIELDS };

static const char *const field_names[NFIELDS] = {
    "label", "kind", "a_format", "b_format", "d_type", "options", "a_words",
    "b_words", "c_word", "scale_a", "scale_b", "sparse_metadata",
    "expected_d"};

/* Parses a comma-separated list of at most `max` words of at most `digits`
** hex digits. An empty field is an empty list. */
static int frozen_list(const char *s, size_t len, int col, int f, int max,
                       int digits, uint32_t *out, int *n,
                       const lad_vecloc *loc, lad_err *err)
{
    *n = 0;
    size_t i = 0;
    while (len > 0) {
        size_t start = i;
        uint32_t v = 0;
        while (i < len && s[i] != ',') {
            int h = lad_hexval((unsigned char)s[i]);
            if (h < 0)
                return lad_errf_at(err, LAD_EDATA, loc->file, loc->line,
                                   col + (int)i, "bad hex digit '%c' in %s",
                                   s[i], field_names[f]);
            v = (v << 4) | (uint32_t)h;
            i++;
        }
        if (i == start)
            return lad_errf_at(err, LAD_EDATA, loc->file, loc->line,
                               col + (int)i, "empty word in %s",
                               field_names[f]);
        if (i - start > (size_t)digits)
            return lad_errf_at(err, LAD_EDATA, loc->file, loc->line,
                               col + (int)start, "%s word '%.*s' has more "
                               "than %d hex digits", field_names[f],
                               (int)(i - start), s + start, digits);
        if (*n == max)
            return lad_errf_at(err, LAD_EDATA, loc->file, loc->line,
                               col + (int)start, "%s has more than %d words",
                               field_names[f], max);
        out[(*n)++] = v;
        if (i == len)
            break;
        i++;
        if (i == len)
            return lad_errf_at(err, LAD_EDATA, loc->file, loc->line,
                               col + (int)i, "empty word in %s",
                               field_names[f]);
    }
    return LAD_OK;
}

/* Copies a name field: nonempty, lowercase letters, digits. */
static int frozen_name(const char *s, size_t len, int col, int f, char *dst,
                       size_t size, const lad_vecloc *loc, lad_err *err)
{
    if (len == 0 || len >= size)
        return lad_errf_at(err, LAD_EDATA, loc->file, loc->line, col,
                           "%s '%.*s' is %s", field_names[f], (int)len, s,
                           len ? "too long" : "empty");
    for (size_t i = 0; i < len; i++)
        if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9')))
            return lad_errf_at(err, LAD_EDATA, loc->file, loc->line,
                               col + (int)i, "bad character '%c' in %s",
                               s[i], field_names[f]);
    copy(dst, size, s, len);
    return LAD_OK;
}

/* Reads options: comma-separated key=value. */
static int frozen_options(const char *s, size_t len, int col, lad_frozen *fz,
                          const lad_vecloc *loc, lad_err *err)
{
    size_t i = 0;
    while (i < len) {
        size_t start = i;
        while (i < len && s[i] != ',')
            i++;
        const char *o = s + start;
        size_t olen = i - start;
        const char *eq = memchr(o, '=', olen);
        int ocol = col + (int)start;
        if (eq == NULL)
            return lad_errf_at(err, LAD_EDATA, loc->file, loc->line, ocol,
                               "option '%.*s' is not key=value", (int)olen,
                               o);
        size_t klen = (size_t)(eq - o), vlen = olen - klen - 1;
        const char *v = eq + 1;
#define IS(str, s_, n_) (strlen(str) == (n_) && memcmp((s_), (str), (n_)) == 0)
        if (IS("scale_type", o, klen) && (IS("ue8m0", v, vlen) ||
                                          IS("ue4m3", v, vlen)))
            copy(fz->scale_type, sizeof fz->scale_type, v, vlen);
        else if (IS("scale_vec", o, klen) &&
                 (IS("1X", v, vlen) || IS("2X", v, vlen) || IS("4X", v, vlen)))
            copy(fz->scale_vec, sizeof fz->scale_vec, v, vlen);
        else if (IS("sparse", o, klen) && (IS("0", v, vlen) || IS("1", v, vlen)))
            fz->sparse = v[0] == '1';
        else if (IS("saturate", o, klen) &&
                 (IS("0", v, vlen) || IS("1", v, vlen)))
            fz->saturate = v[0] == '1';
        else
            return lad_errf_at(err, LAD_EDATA, loc->file, loc->line, ocol,
                               "unknown option '%.*s' (expected scale_type="
                               "ue8m0|ue4m3, scale_vec=1X|2X|4X, sparse=0|1, "
                               "saturate=0|1)", (int)olen, o);
#undef IS
        if (i < len)
            i++;
    }
    return LAD_OK;
}

/* The preset name of a parsed line, or a message saying why there is none. */
static const char *frozen_preset(lad_frozen *fz)
{
    char rest[128], full[160];
    const char *k = fz->kind;
    int same = strcmp(fz->afmt, fz->bfmt) == 0;
    char ab[40];
    snprintf(ab, sizeof ab, same ? "%s" : "%sx%s", fz->afmt, fz->bfmt);
    if (strcmp(k, "tf32") == 0 || strcmp(k, "f16") == 0 ||
        strcmp(k, "f8f6f4") == 0) {
        snprintf(rest, sizeof rest, "%s-%s", ab, fz->dfmt);
    } else if (strcmp(k, "i8") == 0) {
        snprintf(rest, sizeof rest, "%sx%s-%s%s", fz->afmt, fz->bfmt, fz->dfmt,
                 fz->saturate ? "-sat" : "");
    } else if (strcmp(k, "mxf8f6f4") == 0 || strcmp(k, "mxf4") == 0) {
        snprintf(rest, sizeof rest, "%s-%s-%s", k, ab, fz->dfmt);
    } else if (strcmp(k, "mxf4nvf4") == 0) {
        if (strcmp(fz->scale_type, "ue4m3") == 0)
            snprintf(rest, sizeof rest, "mxf4nvf4-ue4m3-%s", fz->dfmt);
        else if (strcmp(fz->scale_vec, "2X") == 0)
            snprintf(rest, sizeof rest, "mxf4nvf4-2x-%s", fz->dfmt);
        else if (strcmp(fz->scale_vec, "4X") == 0)
            snprintf(rest, sizeof rest, "mxf4nvf4-4x-%s", fz->dfmt);
        else
            return "kind mxf4nvf4 needs scale_type=ue4m3 or scale_vec=2X|4X";
    } else {
        return "unknown kind (expected tf32, f16, f8f6f4, i8, mxf8f6f4, "
               "mxf4 or mxf4nvf4)";
    }
    snprintf(full, sizeof full, "sm100-tcgen05-%s%s",
             fz->sparse ? "sp-" : "", rest);
    copy(fz->preset, sizeof fz->preset, full, strlen(full));
    return NULL;
}

int lad_frozen_parse(const char *line, const lad_vecloc *loc, lad_frozen *fz,
                     lad_err *err)
{
    memset(fz, 0, sizeof *fz);
    const char *s[NFIELDS];
    size_t len[NFIELDS];
    const char *p = line;
    int nf = 0;
    for (;;) {
        const char *q = strchr(p, '|');
        if (q == NULL)
            q = p + strlen(p);
        if (nf == NFIELDS)
            return lad_errf_at(err, LAD_EDATA, loc->file, loc->line,
                               (int)(p - line) + 1, "more than %d "
                               "'|'-separated fields", NFIELDS);
        s[nf] = p;
        len[nf] = (size_t)(q - p);
        fz->col[nf] = (int)(p - line) + 1;
        nf++;
        if (*q == 0)
            break;
        p = q + 1;
    }
    if (nf < NFIELDS)
        return lad_errf_at(err, LAD_EDATA, loc->file, loc->line,
                           (int)strlen(line) + 1, "%d '|'-separated fields, "
                           "expected %d (label|kind|...|expected_d)", nf,
                           NFIELDS);
    int rc = LAD_OK;
    if (len[F_LABEL] == 0)
        return lad_errf_at(err, LAD_EDATA, loc->file, loc->line, 1,
                           "empty label");
    copy(fz->label, sizeof fz->label, s[F_LABEL], len[F_LABEL]);
    rc = frozen_name(s[F_KIND], len[F_KIND], fz->col[F_KIND], F_KIND,
                     fz->kind, sizeof fz->kind, loc, err);
    if (rc == LAD_OK)
        rc = frozen_name(s[F_A], len[F_A], fz->col[F_A], F_A, fz->afmt,
                         sizeof fz->afmt, loc, err);
    if (rc == LAD_OK)
        rc = frozen_name(s[F_B], len[F_B], fz->col[F_B], F_B, fz->bfmt,
                         sizeof fz->bfmt, loc, err);
    if (rc == LAD_OK)
        rc = frozen_name(s[F_D], len[F_D], fz->col[F_D], F_D, fz->dfmt,
                         sizeof fz->dfmt, loc, err);
    if (rc == LAD_OK)
        rc = frozen_options(s[F_OPTIONS], len[F_OPTIONS], fz->col[F_OPTIONS],
                            fz, loc, err);
    struct {
        int f, max, digits;
        uint32_t *out;
        int *n;
    } lists[] = {
        {F_AW, LAD_KMAX, 8, fz->aw, &fz->na},
        {F_BW, LAD_KMAX, 8, fz->bw, &fz->nb},
        {F_SA, 16, 2, fz->sa, &fz->nsa},
        {F_SB, 16, 2, fz->sb, &fz->nsb},
        {F_META, 16, 8, fz->meta, &fz->nmeta},
    };
    for (size_t i = 0; rc == LAD_OK && i < sizeof lists / sizeof lists[0]; i++)
        rc = frozen_list(s[lists[i].f], len[lists[i].f], fz->col[lists[i].f],
                         lists[i].f, lists[i].max, lists[i].digits,
                         lists[i].out, lists[i].n, loc, err);
    int one[] = {F_C, F_EXPECT};
    for (size_t i = 0; rc == LAD_OK && i < 2; i++) {
        int n = 0, f = one[i];
        rc = frozen_list(s[f], len[f], fz->col[f], f, 1, 8,
                         f == F_C ? &fz->cw : &fz->dw, &n, loc, err);
        if (rc == LAD_OK && n != 1)
            rc = lad_errf_at(err, LAD_EDATA, loc->file, loc->line, fz->col[f],
                             "%s is empty", field_names[f]);
    }
    if (rc != LAD_OK)
        return rc;
    const char *why = frozen_preset(fz);
    if (why)
        return lad_errf_at(err, LAD_EDATA, loc->file, loc->line,
                           fz->col[F_KIND], "%s", why);
    return LAD_OK;
}

/* Fits one container word to format f: the high half of an F32 container
** for a 16-bit bf16, else the word itself, which must fit f's width. */
static int fit(const char *lfmt, const lad_format *f, uint32_t w,
               lad_word_t *out)
{
    if (strcmp(lfmt, "bf16") == 0 && f->width == 16)
        w >>= 16;
    else if (f->width < 32 && (w >> f->width) != 0)
        return 0;
    *out = w;
    return 1;
}

int lad_frozen_case(const lad_frozen *fz, const lad_datapath *dp,
                    const lad_vecloc *loc, lad_case *cs, lad_word_t *d,
                    lad_err *err)
{
    memset(cs, 0, sizeof *cs);
    const struct {
        int f, n;
        const uint32_t *w;
        const char *lfmt;
        const lad_format *fmt;
        lad_word_t *out;
    } ops[] = {
        {F_AW, fz->na, fz->aw, fz->afmt, &dp->a, cs->a},
        {F_BW, fz->nb, fz->bw, fz->bfmt, &dp->b, cs->b},
        {F_C, 1, &fz->cw, fz->dfmt, &dp->c, &cs->c},
        {F_EXPECT, 1, &fz->dw, fz->dfmt, &dp->d, d},
    };
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        if (ops[i].n != (ops[i].f == F_AW || ops[i].f == F_BW ? dp->k : 1))
            return lad_errf_at(err, LAD_EDATA, loc->file, loc->line,
                               fz->col[ops[i].f], "%s has %d words, but "
                               "'%s' has K %d", field_names[ops[i].f],
                               ops[i].n, dp->name, dp->k);
        for (int j = 0; j < ops[i].n; j++)
            if (!fit(ops[i].lfmt, ops[i].fmt, ops[i].w[j], &ops[i].out[j]))
                return lad_errf_at(err, LAD_EDATA, loc->file, loc->line,
                                   fz->col[ops[i].f], "%s word %d (%X) does "
                                   "not fit %s (%d bits) of '%s'",
                                   field_names[ops[i].f], j, ops[i].w[j],
                                   ops[i].fmt->name, ops[i].fmt->width,
                                   dp->name);
    }
    int ns = lad_datapath_nscales(dp);
    const struct {
        int f, n;
        const uint32_t *w;
        uint8_t *out;
    } sc[] = {{F_SA, fz->nsa, fz->sa, cs->sa}, {F_SB, fz->nsb, fz->sb, cs->sb}};
    for (int i = 0; i < 2; i++) {
        if (ns == 0 && sc[i].n > 0)
            return lad_errf_at(err, LAD_EDATA, loc->file, loc->line,
                               fz->col[sc[i].f], "%s given, but '%s' has no "
                               "block scales", field_names[sc[i].f],
                               dp->name);
        if (sc[i].n < ns)
            return lad_errf_at(err, LAD_EDATA, loc->file, loc->line,
                               fz->col[sc[i].f], "%s has %d entries, but "
                               "'%s' uses %d", field_names[sc[i].f],
                               sc[i].n, dp->name, ns);
        for (int j = 0; j < ns; j++)
            sc[i].out[j] = (uint8_t)sc[i].w[j];
    }
    int nm = lad_datapath_nmeta(dp);
    if (nm == 0 && fz->nmeta > 0)
        return lad_errf_at(err, LAD_EDATA, loc->file, loc->line,
                           fz->col[F_META], "sparse_metadata given, but '%s' "
                           "is dense", dp->name);
    if (nm > 0 && fz->nmeta != nm && fz->nmeta != 1)
        return lad_errf_at(err, LAD_EDATA, loc->file, loc->line,
                           fz->col[F_META], "sparse_metadata has %d words, "
                           "'%s' uses %d", fz->nmeta, dp->name, nm);
    for (int j = 0; j < nm; j++)
        cs->meta[j] = fz->meta[fz->nmeta == 1 ? 0 : j];
    return LAD_OK;
}
