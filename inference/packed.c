/*
** Cases packed at the widths of their formats; see packed.h.
*/
#include "packed.h"

#include <stdlib.h>
#include <string.h>

static int bytes_of(int width)
{
    return width <= 8 ? 1 : width <= 16 ? 2 : width <= 32 ? 4 : 8;
}

static void layout(lad_packed *p)
{
    p->stride = (size_t)p->k * (size_t)(p->wa + p->wb) + (size_t)p->wc +
                2 * (size_t)p->nscale + 4 * (size_t)p->nmeta;
}

void lad_packed_init(lad_packed *p, const lad_datapath *dp)
{
    memset(p, 0, sizeof *p);
    p->k = dp->k;
    p->nscale = lad_datapath_nscales(dp);
    p->nmeta = lad_datapath_nmeta(dp);
    p->wa = bytes_of(dp->a.width);
    p->wb = bytes_of(dp->b.width);
    p->wc = bytes_of(dp->c.width);
    layout(p);
}

/* Little-endian words of w bytes. */
static unsigned char *put(unsigned char *q, lad_word_t v, int w)
{
    for (int i = 0; i < w; i++)
        *q++ = (unsigned char)(v >> 8 * i);
    return q;
}

static const unsigned char *get(const unsigned char *q, lad_word_t *v, int w)
{
    lad_word_t x = 0;
    for (int i = 0; i < w; i++)
        x |= (lad_word_t)*q++ << 8 * i;
    *v = x;
    return q;
}

static void pack(const lad_packed *p, const lad_case *cs, unsigned char *q)
{
    for (int i = 0; i < p->k; i++)
        q = put(q, cs->a[i], p->wa);
    for (int i = 0; i < p->k; i++)
        q = put(q, cs->b[i], p->wb);
    q = put(q, cs->c, p->wc);
    memcpy(q, cs->sa, (size_t)p->nscale);
    memcpy(q + p->nscale, cs->sb, (size_t)p->nscale);
    q += 2 * p->nscale;
    for (int i = 0; i < p->nmeta; i++)
        q = put(q, cs->meta[i], 4);
}

void lad_packed_get(const lad_packed *p, size_t i, lad_case *out)
{
    const unsigned char *q = p->buf + i * p->stride;
    for (int j = 0; j < p->k; j++)
        q = get(q, &out->a[j], p->wa);
    for (int j = 0; j < p->k; j++)
        q = get(q, &out->b[j], p->wb);
    q = get(q, &out->c, p->wc);
    memcpy(out->sa, q, (size_t)p->nscale);
    memcpy(out->sb, q + p->nscale, (size_t)p->nscale);
    q += 2 * p->nscale;
    for (int j = 0; j < p->nmeta; j++) {
        lad_word_t m;
        q = get(q, &m, 4);
        out->meta[j] = (uint32_t)m;
    }
}

/* Every word in 4 bytes from now on: the cases held are repacked. */
static int widen(lad_packed *p, lad_err *err)
{
    lad_packed w = *p;
    w.wa = w.wb = w.wc = 4;
    layout(&w);
    w.cap = p->n ? p->n : 1;
    if ((w.buf = malloc(w.cap * w.stride)) == NULL)
        return lad_errf(err, LAD_EINTERNAL, "out of memory");
    lad_case *c = calloc(1, sizeof *c);
    if (c == NULL) {
        free(w.buf);
        return lad_errf(err, LAD_EINTERNAL, "out of memory");
    }
    for (size_t i = 0; i < p->n; i++) {
        lad_packed_get(p, i, c);
        pack(&w, c, w.buf + i * w.stride);
    }
    free(c);
    free(p->buf);
    *p = w;
    return LAD_OK;
}

int lad_packed_add(lad_packed *p, const lad_case *cs, lad_err *err)
{
    if (p->n == p->cap) {
        size_t cap = p->cap < 4096 ? 4096 : p->cap + p->cap / 2;
        unsigned char *b = realloc(p->buf, cap * p->stride);
        if (b == NULL)
            return lad_errf(err, LAD_EINTERNAL, "out of memory");
        p->buf = b;
        p->cap = cap;
    }
    lad_case back; /* zero past what get writes */
    memset(&back, 0, sizeof back);
    for (int pass = 0; pass < 2; pass++) {
        unsigned char *q = p->buf + p->n * p->stride;
        pack(p, cs, q);
        lad_packed_get(p, p->n, &back);
        if (memcmp(&back, cs, sizeof back) == 0) {
            p->n++;
            return LAD_OK;
        }
        if (pass == 1 || (p->wa == 4 && p->wb == 4 && p->wc == 4))
            break;
        int rc = widen(p, err);
        if (rc != LAD_OK)
            return rc;
        if (p->n == p->cap) /* widen keeps room for exactly n */
            return lad_packed_add(p, cs, err);
    }
    return lad_errf(err, LAD_EDATA, "a case has words past the datapath's lanes, scales "
                    "or metadata");
}

void lad_packed_free(lad_packed *p)
{
    free(p->buf);
    memset(p, 0, sizeof *p);
}
