/*
** .npy read and write (npy.h). The header is a Python dict literal,
**
**     {'descr': '<u2', 'fortran_order': False, 'shape': (3, 4), }
**
** padded with spaces and a newline so that the data starts at a multiple of
** 64 bytes. The reader looks for the three keys and reads their values; it
** does not evaluate Python.
*/
#include "npy.h"
#include "../util/outfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAGIC "\x93NUMPY"
#define HEADER_MAX 65536

/* The value text after 'key': in the header, or NULL. */
static const char *value_of(const char *hdr, const char *key)
{
    char quoted[32];
    snprintf(quoted, sizeof quoted, "'%s'", key);
    const char *p = strstr(hdr, quoted);
    if (p == NULL)
        return NULL;
    p += strlen(quoted);
    while (*p == ' ')
        p++;
    if (*p++ != ':')
        return NULL;
    while (*p == ' ')
        p++;
    return p;
}

static int parse_header(const char *path, const char *hdr, lad_npy *a, lad_err *err)
{
    const char *d = value_of(hdr, "descr"), *f = value_of(hdr, "fortran_order"),
               *s = value_of(hdr, "shape");
    if (d == NULL || f == NULL || s == NULL)
        return lad_errf(err, LAD_EDATA, "%s: the header lacks descr, "
                        "fortran_order or shape", path);
    if (strncmp(f, "False", 5) != 0)
        return lad_errf(err, LAD_EDATA, "%s: Fortran order is not read; save "
                        "the array in C order", path);
    char descr[8] = "";
    if (*d == '\'' && strchr(d + 1, '\'') && strchr(d + 1, '\'') - (d + 1) < (long)sizeof descr)
        memcpy(descr, d + 1, (size_t)(strchr(d + 1, '\'') - (d + 1)));
    static const struct { const char *descr; char kind; int size; } types[] = {
        {"|u1", 'u', 1}, {"<u1", 'u', 1}, {"<u2", 'u', 2}, {"<u4", 'u', 4},
        {"<u8", 'u', 8}, {"<f2", 'f', 2}, {"<f4", 'f', 4}, {"<f8", 'f', 8},
        /* numpy saves ml_dtypes' bfloat16 and float8 arrays as opaque
        ** bytes: their bits are the words */
        {"|V1", 'u', 1}, {"<V1", 'u', 1}, {"|V2", 'u', 2}, {"<V2", 'u', 2},
        {"|V4", 'u', 4}, {"<V4", 'u', 4}, {"|V8", 'u', 8}, {"<V8", 'u', 8},
    };
    a->size = 0;
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (strcmp(descr, types[i].descr) == 0) {
            a->kind = types[i].kind;
            a->size = types[i].size;
        }
    if (a->size == 0)
        return lad_errf(err, LAD_EDATA, "%s: dtype '%s' is not uint8, uint16, "
                        "uint32, uint64, float16, float32, float64 (little-endian) "
                        "or 1, 2, 4 or 8 opaque bytes", path, descr);
    if (*s++ != '(')
        return lad_errf(err, LAD_EDATA, "%s: shape is not a tuple", path);
    a->ndim = 0;
    a->shape[0] = a->shape[1] = 1;
    for (;;) {
        while (*s == ' ' || *s == ',')
            s++;
        if (*s == ')')
            break;
        char *end;
        errno = 0;
        unsigned long long n = strtoull(s, &end, 10);
        if (end == s || errno || n > (1ull << 31))
            return lad_errf(err, LAD_EDATA, "%s: bad shape", path);
        if (a->ndim == 2)
            return lad_errf(err, LAD_EDATA, "%s: more than two dimensions", path);
        a->shape[a->ndim++] = (size_t)n;
        s = end;
    }
    if (a->ndim == 1) {
        /* a vector is one row */
        a->shape[1] = a->shape[0];
        a->shape[0] = 1;
    }
    return LAD_OK;
}

int lad_npy_read(const char *path, lad_npy *a, lad_err *err)
{
    memset(a, 0, sizeof *a);
    FILE *fp = fopen(path, "rb");
    if (fp == NULL)
        return lad_errf(err, LAD_EDATA, "cannot open '%s': %s", path, strerror(errno));
    unsigned char pre[12];
    char *hdr = NULL;
    int rc = LAD_OK;
    size_t hlen = 0, n = fread(pre, 1, 10, fp);
    if (n < 10 || memcmp(pre, MAGIC, 6) != 0 || (pre[6] != 1 && pre[6] != 2))
        rc = lad_errf(err, LAD_EDATA, "%s: not an .npy file of version 1 or 2", path);
    else if (pre[6] == 1)
        hlen = pre[8] | (size_t)pre[9] << 8;
    else if (fread(pre + 10, 1, 2, fp) != 2)
        rc = lad_errf(err, LAD_EDATA, "%s: short header", path);
    else
        hlen = pre[8] | (size_t)pre[9] << 8 | (size_t)pre[10] << 16 | (size_t)pre[11] << 24;
    if (rc == LAD_OK && hlen > HEADER_MAX)
        rc = lad_errf(err, LAD_EDATA, "%s: header of %zu bytes", path, hlen);
    if (rc == LAD_OK && (hdr = calloc(1, hlen + 1)) == NULL)
        rc = lad_errf(err, LAD_EINTERNAL, "out of memory");
    if (rc == LAD_OK && fread(hdr, 1, hlen, fp) != hlen)
        rc = lad_errf(err, LAD_EDATA, "%s: short header", path);
    if (rc == LAD_OK)
        rc = parse_header(path, hdr, a, err);
    free(hdr);
    size_t count = a->shape[0] * a->shape[1];
    unsigned char *raw = NULL;
    if (rc == LAD_OK && ((raw = malloc(count * (size_t)a->size + 1)) == NULL ||
                         (a->w = malloc(count * sizeof *a->w + 1)) == NULL))
        rc = lad_errf(err, LAD_EINTERNAL, "out of memory");
    if (rc == LAD_OK && fread(raw, (size_t)a->size, count, fp) != count)
        rc = lad_errf(err, LAD_EDATA, "%s: data shorter than its shape", path);
    for (size_t i = 0; rc == LAD_OK && i < count; i++) {
        lad_word_t w = 0;
        for (int b = a->size - 1; b >= 0; b--)
            w = w << 8 | raw[i * (size_t)a->size + (size_t)b];
        a->w[i] = w;
    }
    free(raw);
    fclose(fp);
    if (rc != LAD_OK)
        lad_npy_free(a);
    return rc;
}

int lad_npy_write(const char *path, char kind, int size, size_t rows,
                  size_t cols, const lad_word_t *w, lad_err *err)
{
    char hdr[128];
    int len = snprintf(hdr, sizeof hdr, "{'descr': '%c%c%d', 'fortran_order': "
                       "False, 'shape': (%zu, %zu), }", size == 1 ? '|' : '<',
                       kind, size, rows, cols);
    /* magic (6) + version (2) + length (2) + header, padded to 64 with
    ** spaces and ending in a newline */
    int total = (10 + len + 1 + 63) / 64 * 64;
    int pad = total - 10 - len - 1;
    lad_outfile o;
    int rc = lad_outfile_open(&o, path, err);
    if (rc != LAD_OK)
        return rc;
    FILE *fp = o.f;
    unsigned char pre[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0,
                             (unsigned char)((total - 10) & 0xff),
                             (unsigned char)((total - 10) >> 8)};
    fwrite(pre, 1, sizeof pre, fp);
    fprintf(fp, "%s%*s\n", hdr, pad, "");
    for (size_t i = 0; i < rows * cols; i++) {
        unsigned char b[8];
        for (int k = 0; k < size; k++)
            b[k] = (unsigned char)(w[i] >> (8 * k));
        fwrite(b, 1, (size_t)size, fp);
    }
    return lad_outfile_commit(&o, err);
}

void lad_npy_free(lad_npy *a)
{
    free(a->w);
    a->w = NULL;
}
