/*
** .npy read and write (npy.h). The header is a Python dict literal,
**
**     {'descr': '<u2', 'fortran_order': False, 'shape': (3, 4), }
**
** padded with spaces and a newline so that the data starts at a multiple of
** 64 bytes. The reader parses that literal (strings, False/True, a tuple of
** sizes) and nothing else; it does not evaluate Python. Every size is
** checked, against overflow and against the file's length, before anything
** is allocated from it.
*/
#include "npy.h"
#include "../util/outfile.h"

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAGIC "\x93NUMPY"
#define HEADER_MAX 65536
#define NPY_READ_BUF 65536

/* The header dict, as far as it was read: a cursor over its text. */
typedef struct hparse {
    const char *s;        /* the next character */
    const char *path;
    lad_err *err;
} hparse;

static void skip_space(hparse *h)
{
    while (*h->s == ' ' || *h->s == '\t')
        h->s++;
}

static int bad(hparse *h, const char *what)
{
    return lad_errf(h->err, LAD_EDATA, "%s: header: %s", h->path, what);
}

/* A quoted string ('...' or "...", no escapes: the keys and dtypes numpy
** writes have none) into buf. */
static int read_string(hparse *h, char *buf, size_t size)
{
    char q = *h->s;
    if (q != '\'' && q != '"')
        return bad(h, "expected a quoted string");
    const char *end = strchr(h->s + 1, q);
    if (end == NULL)
        return bad(h, "unterminated string");
    size_t n = (size_t)(end - h->s - 1);
    if (n >= size || memchr(h->s + 1, '\\', n))
        return bad(h, "string too long or escaped");
    memcpy(buf, h->s + 1, n);
    buf[n] = 0;
    h->s = end + 1;
    return LAD_OK;
}

/* The shape tuple: "(", up to two decimal sizes separated by commas, an
** optional trailing comma, ")". Each size at most 2^31. */
static int read_shape(hparse *h, lad_npy *a)
{
    if (*h->s++ != '(')
        return bad(h, "shape is not a tuple");
    a->ndim = 0;
    a->shape[0] = a->shape[1] = 1;
    size_t dims[2] = {1, 1};
    for (;;) {
        skip_space(h);
        if (*h->s == ')')
            break;
        if (*h->s < '0' || *h->s > '9')
            return bad(h, "bad shape");
        unsigned long long n = 0;
        while (*h->s >= '0' && *h->s <= '9') {
            n = n * 10 + (unsigned long long)(*h->s++ - '0');
            if (n > (1ull << 31))
                return bad(h, "a dimension larger than 2^31");
        }
        if (a->ndim == 2)
            return lad_errf(h->err, LAD_EDATA, "%s: more than two dimensions", h->path);
        dims[a->ndim++] = (size_t)n;
        skip_space(h);
        if (*h->s == ',')
            h->s++;
        else if (*h->s != ')')
            return bad(h, "bad shape");
    }
    h->s++;
    if (a->ndim == 1) {
        /* a vector is one row */
        a->shape[0] = 1;
        a->shape[1] = dims[0];
    } else if (a->ndim == 2) {
        a->shape[0] = dims[0];
        a->shape[1] = dims[1];
    }
    return LAD_OK;
}

/*
** The header: a dict literal {'descr': '<u2', 'fortran_order': False,
** 'shape': (3, 4), } with exactly those three keys, each once, in any
** order, then spaces and a newline. Nothing in another key's value is read
** as a key.
*/
static int parse_header(const char *path, const char *hdr, lad_npy *a, lad_err *err)
{
    hparse h = {hdr, path, err};
    char descr[16] = "", key[32];
    int seen = 0, rc;   /* bits: descr, fortran_order, shape */
    skip_space(&h);
    if (*h.s++ != '{')
        return bad(&h, "not a dict");
    for (;;) {
        skip_space(&h);
        if (*h.s == '}')
            break;
        if ((rc = read_string(&h, key, sizeof key)))
            return rc;
        skip_space(&h);
        if (*h.s++ != ':')
            return bad(&h, "expected ':' after a key");
        skip_space(&h);
        int bit = strcmp(key, "descr") == 0 ? 1 : strcmp(key, "fortran_order") == 0 ? 2
                : strcmp(key, "shape") == 0 ? 4 : 0;
        if (bit == 0)
            return lad_errf(err, LAD_EDATA, "%s: header: unknown key '%s'", path, key);
        if (seen & bit)
            return lad_errf(err, LAD_EDATA, "%s: header: key '%s' twice", path, key);
        seen |= bit;
        if (bit == 1) {
            if ((rc = read_string(&h, descr, sizeof descr)))
                return rc;
        } else if (bit == 2) {
            if (strncmp(h.s, "False", 5) == 0) {
                h.s += 5;
            } else if (strncmp(h.s, "True", 4) == 0) {
                return lad_errf(err, LAD_EDATA, "%s: Fortran order is not read; save "
                                "the array in C order", path);
            } else {
                return bad(&h, "fortran_order is not True or False");
            }
        } else if ((rc = read_shape(&h, a))) {
            return rc;
        }
        skip_space(&h);
        if (*h.s == ',')
            h.s++;
        else if (*h.s != '}')
            return bad(&h, "expected ',' or '}'");
    }
    h.s++;
    while (*h.s == ' ' || *h.s == '\n')
        h.s++;
    if (*h.s)
        return bad(&h, "text after the dict");
    if (seen != 7)
        return lad_errf(err, LAD_EDATA, "%s: the header lacks descr, "
                        "fortran_order or shape", path);
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
    return LAD_OK;
}

/* Reads the magic, the header and its dict from fp (at its start) into a,
** and checks the data's size: *bytes is what the data takes. avail is the
** bytes fp holds, or -1 when not known (a pipe: the data is then checked as
** it is read). */
static int read_header(FILE *fp, const char *path, long long avail, lad_npy *a,
                       size_t *bytes, lad_err *err)
{
    unsigned char pre[12];
    char *hdr = NULL;
    int rc = LAD_OK;
    size_t hlen = 0, pre_len = 10, n = fread(pre, 1, 10, fp);
    if (n < 10 || memcmp(pre, MAGIC, 6) != 0 || (pre[6] != 1 && pre[6] != 2))
        rc = lad_errf(err, LAD_EDATA, "%s: not an .npy file of version 1 or 2", path);
    else if (pre[6] == 1)
        hlen = pre[8] | (size_t)pre[9] << 8;
    else if (fread(pre + 10, 1, 2, fp) != 2)
        rc = lad_errf(err, LAD_EDATA, "%s: short header", path);
    else {
        hlen = pre[8] | (size_t)pre[9] << 8 | (size_t)pre[10] << 16 | (size_t)pre[11] << 24;
        pre_len = 12;
    }
    if (rc == LAD_OK && hlen > HEADER_MAX)
        rc = lad_errf(err, LAD_EDATA, "%s: header of %zu bytes", path, hlen);
    if (rc == LAD_OK && avail >= 0 && (long long)(pre_len + hlen) > avail)
        rc = lad_errf(err, LAD_EDATA, "%s: short header", path);
    if (rc == LAD_OK && (hdr = calloc(1, hlen + 1)) == NULL)
        rc = lad_errf(err, LAD_EINTERNAL, "out of memory");
    if (rc == LAD_OK && fread(hdr, 1, hlen, fp) != hlen)
        rc = lad_errf(err, LAD_EDATA, "%s: short header", path);
    if (rc == LAD_OK && memchr(hdr, 0, hlen))
        rc = lad_errf(err, LAD_EDATA, "%s: header: NUL byte", path);
    if (rc == LAD_OK)
        rc = parse_header(path, hdr, a, err);
    free(hdr);
    /* Sizes checked before anything is allocated from them: the element
    ** count, its bytes in the file and as words must not wrap, and the
    ** file must hold exactly those bytes. */
    size_t count = 0, wbytes = 0;
    if (rc == LAD_OK && (__builtin_mul_overflow(a->shape[0], a->shape[1], &count) ||
                         __builtin_mul_overflow(count, (size_t)a->size, bytes) ||
                         __builtin_mul_overflow(count, sizeof *a->w, &wbytes) ||
                         wbytes > SIZE_MAX - 1))
        rc = lad_errf(err, LAD_EDATA, "%s: shape (%zu, %zu) is too large", path,
                      a->shape[0], a->shape[1]);
    if (rc == LAD_OK && avail >= 0) {
        long long data = avail - (long long)(pre_len + hlen);
        if ((unsigned long long)data < (unsigned long long)*bytes)
            rc = lad_errf(err, LAD_EDATA, "%s: data shorter than its shape: %lld "
                          "bytes for %zu x %zu elements of %d", path, data,
                          a->shape[0], a->shape[1], a->size);
        else if ((unsigned long long)data > (unsigned long long)*bytes)
            rc = lad_errf(err, LAD_EDATA, "%s: %lld bytes after the data of its "
                          "shape", path, data - (long long)*bytes);
    }
    return rc;
}

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
static inline lad_word_t load16(const unsigned char *p)
{
    uint16_t v;
    memcpy(&v, p, 2);
    return v;
}

static inline lad_word_t load32(const unsigned char *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

static inline lad_word_t load64(const unsigned char *p)
{
    lad_word_t v;
    memcpy(&v, p, 8);
    return v;
}
#endif

/* An element of size bytes at p, little-endian, on any host. */
static inline lad_word_t loadn(const unsigned char *p, int size)
{
    lad_word_t x = 0;
    for (int b = size - 1; b >= 0; b--)
        x = x << 8 | p[b];
    return x;
}

static inline lad_word_t load8(const unsigned char *p)
{
    return p[0];
}

/* rows x cols little-endian elements of size bytes at raw, widened into
** w, row i at w + i * stride; returns the OR of every word. One loop per
** size (memcpy loads on little-endian hosts). On x86-64 (GCC and clang),
** CPUs with AVX2 widen four elements an instruction (vpmovzx). */
static lad_word_t widen_any(const unsigned char *raw, int size, size_t rows, size_t cols,
                            lad_word_t *w, size_t stride)
{
    lad_word_t all = 0;
#define ROWS(LOAD) \
    for (size_t i = 0; i < rows; i++) { \
        const unsigned char *q = raw + i * cols * (size_t)size; \
        lad_word_t *o = w + i * stride; \
        for (size_t j = 0; j < cols; j++) { \
            lad_word_t v = LOAD(q + j * (size_t)size); \
            o[j] = v; \
            all |= v; \
        } \
    }
#define LOADN(p) loadn(p, size)
    switch (size) {
    case 1:
        ROWS(load8)
        break;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    case 2:
        ROWS(load16)
        break;
    case 4:
        ROWS(load32)
        break;
    case 8:
        ROWS(load64)
        break;
#endif
    default:
        ROWS(LOADN)
    }
#undef LOADN
#undef ROWS
    return all;
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define WIDEN_AVX2 1

/* widen_any for sizes 1, 2 and 4, four words a step. */
__attribute__((target("avx2"))) static lad_word_t
widen_avx2(const unsigned char *raw, int size, size_t rows, size_t cols, lad_word_t *w,
           size_t stride)
{
    __m256i or4 = _mm256_setzero_si256();
    lad_word_t all = 0;
    if (stride == cols) {
        /* rows in a row: one loop */
        cols *= rows;
        rows = 1;
    }
#define ROWS(LOAD, EXTEND) \
    for (size_t i = 0; i < rows; i++) { \
        const unsigned char *q = raw + i * cols * (size_t)size; \
        lad_word_t *o = w + i * stride; \
        size_t j = 0; \
        for (; j + 4 <= cols; j += 4) { \
            __m256i v = EXTEND(q + j * (size_t)size); \
            _mm256_storeu_si256((__m256i *)(o + j), v); \
            or4 = _mm256_or_si256(or4, v); \
        } \
        for (; j < cols; j++) { \
            lad_word_t v = LOAD(q + j * (size_t)size); \
            o[j] = v; \
            all |= v; \
        } \
    }
#define EXT8(p) _mm256_cvtepu8_epi64(_mm_cvtsi32_si128((int)(uint32_t)load32(p)))
#define EXT16(p) _mm256_cvtepu16_epi64(_mm_loadl_epi64((const __m128i *)(p)))
#define EXT32(p) _mm256_cvtepu32_epi64(_mm_loadu_si128((const __m128i *)(p)))
    switch (size) {
    case 1:
        ROWS(load8, EXT8)
        break;
    case 2:
        ROWS(load16, EXT16)
        break;
    default:
        ROWS(load32, EXT32)
        break;
    }
#undef EXT8
#undef EXT16
#undef EXT32
#undef ROWS
    uint64_t t[4];
    _mm256_storeu_si256((__m256i *)t, or4);
    return all | t[0] | t[1] | t[2] | t[3];
}
#else
#define WIDEN_AVX2 0
#endif

static lad_word_t widen(const unsigned char *raw, int size, size_t rows, size_t cols,
                        lad_word_t *w, size_t stride)
{
#if WIDEN_AVX2
    if ((size == 1 || size == 2 || size == 4) && __builtin_cpu_supports("avx2"))
        return widen_avx2(raw, size, rows, cols, w, stride);
#endif
    return widen_any(raw, size, rows, cols, w, stride);
}

/* Reads the array from fp (at its start); avail as for read_header. */
static int read_stream(FILE *fp, const char *path, long long avail, lad_npy *a,
                       lad_err *err)
{
    size_t bytes = 0;
    int rc = read_header(fp, path, avail, a, &bytes, err);
    size_t count = a->shape[0] * a->shape[1];
    unsigned char *raw = NULL;
    if (rc == LAD_OK && ((raw = malloc(bytes + 1)) == NULL ||
                         (a->w = malloc(count * sizeof *a->w + 1)) == NULL))
        rc = lad_errf(err, LAD_EINTERNAL, "out of memory");
    if (rc == LAD_OK && fread(raw, 1, bytes, fp) != bytes)
        rc = lad_errf(err, LAD_EDATA, "%s: data shorter than its shape", path);
    if (rc == LAD_OK)
        widen(raw, a->size, 1, count, a->w, 0);
    free(raw);
    if (rc != LAD_OK)
        lad_npy_free(a);
    return rc;
}

int lad_npy_read(const char *path, lad_npy *a, lad_err *err)
{
    memset(a, 0, sizeof *a);
    FILE *fp = fopen(path, "rb");
    if (fp == NULL)
        return lad_errf(err, LAD_EDATA, "cannot open '%s': %s", path, strerror(errno));
    struct stat sb;
    long long avail = fstat(fileno(fp), &sb) == 0 && S_ISREG(sb.st_mode)
                          ? (long long)sb.st_size : -1;
    int rc = read_stream(fp, path, avail, a, err);
    fclose(fp);
    return rc;
}

int lad_npy_read_mem(const void *data, size_t size, const char *name, lad_npy *a,
                     lad_err *err)
{
    memset(a, 0, sizeof *a);
    if (size == 0)
        return lad_errf(err, LAD_EDATA, "%s: not an .npy file of version 1 or 2", name);
    FILE *fp = fmemopen((void *)data, size, "rb");
    if (fp == NULL)
        return lad_errf(err, LAD_EINTERNAL, "out of memory");
    int rc = read_stream(fp, name, (long long)size, a, err);
    fclose(fp);
    return rc;
}

int lad_npy_create(lad_npy_writer *o, const char *path, char kind, int size, int ndim,
                   size_t rows, size_t cols, lad_err *err)
{
    char hdr[128];
    int len = ndim == 1 ? snprintf(hdr, sizeof hdr, "{'descr': '%c%c%d', 'fortran_order': "
                                   "False, 'shape': (%zu,), }", size == 1 ? '|' : '<',
                                   kind, size, rows * cols)
                        : snprintf(hdr, sizeof hdr, "{'descr': '%c%c%d', 'fortran_order': "
                                   "False, 'shape': (%zu, %zu), }", size == 1 ? '|' : '<',
                                   kind, size, rows, cols);
    /* magic (6) + version (2) + length (2) + header, padded to 64 with
    ** spaces and ending in a newline */
    int total = (10 + len + 1 + 63) / 64 * 64;
    int pad = total - 10 - len - 1;
    o->size = size;
    int rc = lad_outfile_open(&o->o, path, err);
    if (rc != LAD_OK)
        return rc;
    unsigned char pre[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0,
                             (unsigned char)((total - 10) & 0xff),
                             (unsigned char)((total - 10) >> 8)};
    fwrite(pre, 1, sizeof pre, o->o.f);
    fprintf(o->o.f, "%s%*s\n", hdr, pad, "");
    return LAD_OK;
}

void lad_npy_put(lad_npy_writer *o, size_t n, const lad_word_t *w)
{
    unsigned char b[8192];
    size_t per = sizeof b / (size_t)o->size;
    for (size_t i = 0; i < n; i += per) {
        size_t m = n - i < per ? n - i : per;
        /* little-endian: a word's low bytes, one copy of constant size */
#define NARROW(T) \
    for (size_t j = 0; j < m; j++) { \
        T v = (T)w[i + j]; \
        memcpy(b + j * sizeof v, &v, sizeof v); \
    }
        switch (o->size) {
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        case 2:
            NARROW(uint16_t)
            break;
        case 4:
            NARROW(uint32_t)
            break;
        case 8:
            NARROW(uint64_t)
            break;
#endif
        default:
            for (size_t j = 0; j < m; j++)
                for (int k = 0; k < o->size; k++)
                    b[j * (size_t)o->size + (size_t)k] = (unsigned char)(w[i + j] >> (8 * k));
        }
#undef NARROW
        fwrite(b, (size_t)o->size, m, o->o.f);
    }
}

int lad_npy_commit(lad_npy_writer *o, lad_err *err)
{
    return lad_outfile_commit(&o->o, err);
}

void lad_npy_abort(lad_npy_writer *o)
{
    lad_outfile_abort(&o->o);
}

int lad_npy_write(const char *path, char kind, int size, size_t rows,
                  size_t cols, const lad_word_t *w, lad_err *err)
{
    lad_npy_writer o;
    int rc = lad_npy_create(&o, path, kind, size, 2, rows, cols, err);
    if (rc != LAD_OK)
        return rc;
    lad_npy_put(&o, rows * cols, w);
    return lad_npy_commit(&o, err);
}

int lad_npy_open(const char *path, lad_npy_reader *r, lad_err *err)
{
    memset(r, 0, sizeof *r);
    r->path = path;
    r->fp = fopen(path, "rb");
    if (r->fp == NULL)
        return lad_errf(err, LAD_EDATA, "cannot open '%s': %s", path, strerror(errno));
    struct stat sb;
    long long avail = fstat(fileno(r->fp), &sb) == 0 && S_ISREG(sb.st_mode)
                          ? (long long)sb.st_size : -1;
    /* read(2)s of NPY_READ_BUF bytes, not libc's 4 KB: ladder eval's blocks
    ** are then a copy from this buffer, and 7% of its time on tf32 goes */
    if ((r->buf = malloc(NPY_READ_BUF)) != NULL && setvbuf(r->fp, r->buf, _IOFBF, NPY_READ_BUF)) {
        free(r->buf);
        r->buf = NULL;
    }
    size_t bytes;
    int rc = read_header(r->fp, path, avail, &r->a, &bytes, err);
    if (rc != LAD_OK)
        lad_npy_close(r);
    return rc;
}

int lad_npy_next(lad_npy_reader *r, size_t rows, lad_word_t *w, size_t stride,
                 const lad_format *f, lad_err *err)
{
    if (rows > r->a.shape[0] - r->row)
        return lad_errf(err, LAD_EINTERNAL, "%s: rows %zu to %zu of %zu", r->path,
                        r->row, r->row + rows, r->a.shape[0]);
    size_t n = rows * r->a.shape[1], bytes = n * (size_t)r->a.size;
    if (bytes > r->cap) {
        unsigned char *raw = realloc(r->raw, bytes);
        if (raw == NULL)
            return lad_errf(err, LAD_EINTERNAL, "out of memory");
        r->raw = raw;
        r->cap = bytes;
    }
    if (fread(r->raw, 1, bytes, r->fp) != bytes)
        return lad_errf(err, LAD_EDATA, "%s: data shorter than its shape", r->path);
    size_t cols = r->a.shape[1];
    lad_word_t all = widen(r->raw, r->a.size, rows, cols, w, stride);
    lad_word_t mask = f == NULL || f->width >= 64 ? ~(lad_word_t)0
                                                  : ((lad_word_t)1 << f->width) - 1;
    /* a word wider than f: the first, by its place in the file */
    for (size_t i = 0; (all & ~mask) && i < rows; i++) {
        int rc = lad_npy_check_words(w + i * stride, cols, (r->row + i) * cols, cols, f,
                                     r->path, err);
        if (rc != LAD_OK)
            return rc;
    }
    r->row += rows;
    return LAD_OK;
}

int lad_npy_next_bytes(lad_npy_reader *r, size_t rows, uint8_t *b, const lad_format *f,
                       lad_err *err)
{
    if (rows > r->a.shape[0] - r->row || r->a.size != 1)
        return lad_errf(err, LAD_EINTERNAL, "%s: rows %zu to %zu of %zu, elements of %d bytes",
                        r->path, r->row, r->row + rows, r->a.shape[0], r->a.size);
    size_t cols = r->a.shape[1], n = rows * cols;
    if (fread(b, 1, n, r->fp) != n)
        return lad_errf(err, LAD_EDATA, "%s: data shorter than its shape", r->path);
    uint8_t mask = f == NULL || f->width >= 8 ? 0xff : (uint8_t)((1u << f->width) - 1);
    uint64_t all = 0, x;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {  /* eight at a time: -O2 does not vectorize it */
        memcpy(&x, b + i, 8);
        all |= x;
    }
    for (; i < n; i++)
        all |= b[i];
    /* a word wider than f: the first, by its place in the file */
    for (i = 0; (all & ~(mask * 0x0101010101010101u)) && i < n; i++) {
        lad_word_t w = b[i];
        int rc = lad_npy_check_words(&w, 1, r->row * cols + i, cols, f, r->path, err);
        if (rc != LAD_OK)
            return rc;
    }
    r->row += rows;
    return LAD_OK;
}

void lad_npy_close(lad_npy_reader *r)
{
    if (r->fp)
        fclose(r->fp);
    free(r->buf);
    r->buf = NULL;
    free(r->raw);
    r->fp = NULL;
    r->raw = NULL;
}

/* Whether words of f are IEEE binary64, binary32 or binary16 words (bits
** 64, 32, 16): f32, tf32 and e8m13 are f32 containers. */
static int container_of(const lad_format *f, int bits)
{
    if (f->kind != LAD_FLOAT || f->width != bits || !f->sign)
        return 0;
    return bits == 64   ? f->ebits == 11 && f->bias == 1023 && f->mbits + f->pad == 52
           : bits == 32 ? f->ebits == 8 && f->bias == 127 && f->mbits + f->pad == 23
                        : f->ebits == 5 && f->bias == 15 && f->mbits + f->pad == 10;
}

void lad_npy_dtype(const lad_format *f, char *kind, int *size)
{
    *size = f->width <= 8 ? 1 : f->width <= 16 ? 2 : f->width <= 32 ? 4 : 8;
    *kind = *size > 1 && container_of(f, 8 * *size) ? 'f' : 'u';
}

int lad_npy_check_dtype(const lad_npy *x, const lad_format *f, const char *what,
                        const char *path, lad_err *err)
{
    char kind;
    int bytes;
    lad_npy_dtype(f, &kind, &bytes);
    if (x->size != bytes)
        return lad_errf(err, LAD_EDATA, "%s: elements of %d byte%s, but %s is %s, "
                        "whose words need %d-byte elements (uint%d%s)", path, x->size,
                        x->size == 1 ? "" : "s", what, f->name, bytes, 8 * bytes,
                        kind == 'f' ? bytes == 8 ? " or float64"
                            : bytes == 4 ? " or float32" : " or float16" : "");
    if (x->kind == 'f' && kind != 'f')
        return lad_errf(err, LAD_EDATA, "%s: a float%d array does not hold %s "
                        "words (use uint%d)", path, 8 * x->size, f->name, 8 * bytes);
    return LAD_OK;
}

int lad_npy_check_words(const lad_word_t *w, size_t n, size_t first, size_t cols,
                        const lad_format *f, const char *path, lad_err *err)
{
    lad_word_t mask = f->width >= 64 ? ~(lad_word_t)0 : ((lad_word_t)1 << f->width) - 1;
    for (size_t i = 0; i < n; i++)
        if (w[i] & ~mask)
            return lad_errf(err, LAD_EDATA, "%s: element [%zu][%zu] = 0x%" PRIx64 " is "
                            "wider than %s (%d bits)", path, (first + i) / cols,
                            (first + i) % cols, w[i], f->name, f->width);
    return LAD_OK;
}

void lad_npy_free(lad_npy *a)
{
    free(a->w);
    a->w = NULL;
}
