/*
** Exact decimal text for format values: see decimal.h.
**
** The big integers here are little-endian arrays of 32-bit limbs that grow
** on demand. Only the few operations the two conversions need exist:
** multiply or divide by a small number, add a small number, shift left.
*/
#include "decimal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct big {
    uint32_t *d;  /* limbs, least significant first */
    size_t n;     /* limbs in use (no leading zero limbs; 0 for zero) */
    size_t cap;   /* limbs allocated */
} big;

/* Makes room for `need` limbs. Returns 0, or -1 when out of memory. */
static int big_reserve(big *b, size_t need)
{
    if (need <= b->cap)
        return 0;
    size_t cap = b->cap ? b->cap : 8;
    while (cap < need)
        cap *= 2;
    uint32_t *d = realloc(b->d, cap * sizeof *d);
    if (d == NULL)
        return -1;
    b->d = d;
    b->cap = cap;
    return 0;
}

static void big_trim(big *b)
{
    while (b->n > 0 && b->d[b->n - 1] == 0)
        b->n--;
}

/* b = b * m + a. Returns 0 or -1 (out of memory). */
static int big_muladd(big *b, uint32_t m, uint32_t a)
{
    uint64_t carry = a;
    for (size_t i = 0; i < b->n; i++) {
        uint64_t t = (uint64_t)b->d[i] * m + carry;
        b->d[i] = (uint32_t)t;
        carry = t >> 32;
    }
    if (carry) {
        if (big_reserve(b, b->n + 1))
            return -1;
        b->d[b->n++] = (uint32_t)carry;
    }
    return 0;
}

/* b = floor(b / m); returns the remainder. m > 0. */
static uint32_t big_divmod(big *b, uint32_t m)
{
    uint64_t rem = 0;
    for (size_t i = b->n; i-- > 0;) {
        uint64_t t = (rem << 32) | b->d[i];
        b->d[i] = (uint32_t)(t / m);
        rem = t % m;
    }
    big_trim(b);
    return (uint32_t)rem;
}

/* b <<= s. Returns 0 or -1 (out of memory). */
static int big_shl(big *b, size_t s)
{
    if (b->n == 0)
        return 0;
    size_t limbs = s / 32, bits = s % 32;
    if (big_reserve(b, b->n + limbs + 1))
        return -1;
    b->d[b->n + limbs] = 0;
    for (size_t i = b->n; i-- > 0;) {
        uint64_t t = (uint64_t)b->d[i] << bits;
        b->d[i + limbs + 1] |= (uint32_t)(t >> 32);
        b->d[i + limbs] = (uint32_t)t;
    }
    memset(b->d, 0, limbs * sizeof *b->d);
    b->n += limbs + 1;
    big_trim(b);
    return 0;
}

/* Decimal digits of b, most significant first, into a malloc'd string
** ("0" for zero); b is consumed. NULL when out of memory. */
static char *big_to_text(big *b)
{
    /* Each 32-bit limb holds under 10 decimal digits, and every group of 9
    ** digits below comes out whole: 2 groups per limb, plus 2, is room. */
    size_t cap = (b->n * 2 + 2) * 9 + 1, len = 0;
    char *s = malloc(cap);
    if (s == NULL)
        return NULL;
    while (b->n > 0) {
        uint32_t r = big_divmod(b, 1000000000u);
        for (int k = 0; k < 9; k++) {
            s[len++] = (char)('0' + r % 10);
            r /= 10;
        }
    }
    while (len > 1 && s[len - 1] == '0')
        len--;
    if (len == 0)
        s[len++] = '0';
    for (size_t i = 0; i < len / 2; i++) {
        char t = s[i];
        s[i] = s[len - 1 - i];
        s[len - 1 - i] = t;
    }
    s[len] = 0;
    return s;
}

/* Appends c to buf at *pos when it fits; counts it anyway. */
static void put(char *buf, size_t size, size_t *pos, char c)
{
    if (*pos + 1 < size)
        buf[*pos] = c;
    (*pos)++;
}

size_t lad_decimal_print(char *buf, size_t size, int neg, uint64_t mag,
                         int exp)
{
    size_t pos = 0;
    big b = {0};
    char *digits = NULL;
    int ok = big_reserve(&b, 2) == 0;
    if (ok) {
        b.d[0] = (uint32_t)mag;
        b.d[1] = (uint32_t)(mag >> 32);
        b.n = 2;
        big_trim(&b);
        /* m * 2^-k = m * 5^k / 10^k: scale by 5^k, then place the point. */
        if (exp >= 0)
            ok = big_shl(&b, (size_t)exp) == 0;
        else
            for (int i = 0; ok && i < -exp; i++)
                ok = big_muladd(&b, 5, 0) == 0;
    }
    if (ok)
        digits = big_to_text(&b);
    free(b.d);
    if (digits == NULL) {
        /* Out of memory: say so rather than print a wrong number. */
        const char *oom = "?";
        for (const char *p = oom; *p; p++)
            put(buf, size, &pos, *p);
        if (size)
            buf[pos < size ? pos : size - 1] = 0;
        return pos;
    }
    if (neg)
        put(buf, size, &pos, '-');
    size_t len = strlen(digits);
    size_t point = exp < 0 ? (size_t)-exp : 0; /* digits after the point */
    if (mag == 0)
        point = 0;
    /* Trailing zeros after the point carry no information. */
    while (point > 0 && len > 0 && digits[len - 1] == '0') {
        len--;
        point--;
    }
    if (point >= len) {
        put(buf, size, &pos, '0');
        if (point > 0)
            put(buf, size, &pos, '.');
        for (size_t i = len; i < point; i++)
            put(buf, size, &pos, '0');
        for (size_t i = 0; i < len; i++)
            put(buf, size, &pos, digits[i]);
    } else {
        for (size_t i = 0; i < len; i++) {
            if (point > 0 && i == len - point)
                put(buf, size, &pos, '.');
            put(buf, size, &pos, digits[i]);
        }
    }
    if (size)
        buf[pos < size ? pos : size - 1] = 0;
    free(digits);
    return pos;
}

static int digit_value(int c, int base)
{
    int v = c >= '0' && c <= '9'   ? c - '0'
            : c >= 'a' && c <= 'f' ? c - 'a' + 10
            : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                   : 99;
    return v < base ? v : -1;
}

static int ieq(const char *a, const char *b)
{
    for (; *a && *b; a++, b++) {
        int x = *a >= 'A' && *a <= 'Z' ? *a + 32 : *a;
        if (x != *b)
            return 0;
    }
    return *a == 0 && *b == 0;
}

/* The word an infinite input becomes (see decimal.h). */
static lad_word_t infinity_word(const lad_format *f, int neg, int ovf)
{
    if (neg && !f->sign) /* as lad_round_value does for any negative */
        return f->kind == LAD_FLOAT && f->nan != LAD_NAN_NONE
                   ? lad_format_nan(f) : 0;
    if (f->kind == LAD_FLOAT && f->inf != LAD_INF_NONE)
        return lad_format_inf(f, neg);
    if (ovf == LAD_OVF_SAT || f->kind != LAD_FLOAT || f->nan == LAD_NAN_NONE)
        return lad_format_maxfinite(f, neg);
    lad_word_t w = lad_format_nan(f);
    if (neg && f->sign)
        w |= (lad_word_t)1 << (f->width - 1);
    return w;
}

int lad_decimal_parse(const char *s, const lad_format *f, int mode, int ovf,
                      lad_word_t *word, int *flags, lad_err *err)
{
    const char *text = s;
    int neg = 0, rc = LAD_OK;
    big b = {0};
    if (flags)
        *flags = 0;
    if (strlen(s) > LAD_DECIMAL_MAX)
        return lad_errf(err, LAD_EDATA, "number too long (over %d characters)",
                        LAD_DECIMAL_MAX);
    if (*s == '+' || *s == '-')
        neg = *s++ == '-';
    if (ieq(s, "inf") || ieq(s, "infinity")) {
        *word = infinity_word(f, neg, ovf);
        if (flags && !(f->kind == LAD_FLOAT && f->inf != LAD_INF_NONE))
            *flags = LAD_FLAG_OVERFLOW | LAD_FLAG_INEXACT;
        return LAD_OK;
    }
    if (ieq(s, "nan")) {
        if (f->kind != LAD_FLOAT || f->nan == LAD_NAN_NONE)
            return lad_errf(err, LAD_EDATA, "format '%s' has no NaN", f->name);
        *word = lad_format_nan(f);
        if (neg && f->sign)
            *word |= 1u << (f->width - 1);
        return LAD_OK;
    }

    int base = 10;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s += 2;
    }
    /* Mantissa digits, counting those after the point. */
    long frac = 0;
    int ndig = 0, seen_point = 0;
    for (;; s++) {
        if (*s == '.' && !seen_point) {
            seen_point = 1;
            continue;
        }
        int v = digit_value((unsigned char)*s, base);
        if (v < 0)
            break;
        if (big_muladd(&b, (uint32_t)base, (uint32_t)v)) {
            rc = lad_errf(err, LAD_EINTERNAL, "out of memory");
            goto done;
        }
        ndig++;
        frac += seen_point;
    }
    /* Exponent: e for decimal (power of ten), p for hex (power of two). */
    long e = 0;
    int exp_char = base == 10 ? 'e' : 'p';
    if (ndig > 0 && (*s == exp_char || *s == exp_char - 32)) {
        const char *q = s + 1;
        int eneg = 0;
        if (*q == '+' || *q == '-')
            eneg = *q++ == '-';
        if (*q < '0' || *q > '9')
            goto bad;
        for (; *q >= '0' && *q <= '9'; q++)
            if (e <= LAD_DECIMAL_EXP_MAX * 10L)
                e = e * 10 + (*q - '0');
        e = eneg ? -e : e;
        s = q;
    }
    if (ndig == 0 || *s != 0)
        goto bad;

    int limit_bits = 0; /* guard room below the format's smallest ulp */
    if (base == 16) {
        e -= 4 * frac;
        if (e > LAD_DECIMAL_EXP_MAX * 4L || e < -LAD_DECIMAL_EXP_MAX * 4L) {
            rc = lad_errf(err, LAD_EDATA, "exponent out of range in '%s'", text);
            goto done;
        }
    } else {
        e -= frac;
        if (e > LAD_DECIMAL_EXP_MAX || e < -LAD_DECIMAL_EXP_MAX) {
            rc = lad_errf(err, LAD_EDATA, "exponent out of range in '%s'", text);
            goto done;
        }
    }
    int exp2 = 0, sticky = 0;
    if (base == 16) {
        exp2 = (int)e;
    } else if (e >= 0) {
        for (long i = 0; i < e; i++)
            if (big_muladd(&b, 10, 0)) {
                rc = lad_errf(err, LAD_EINTERNAL, "out of memory");
                goto done;
            }
    } else if (b.n > 0) {
        /*
        ** value = D / 10^k. With s fraction bits, q = floor(D * 2^s / 10^k)
        ** and sticky = (remainder != 0) describe the value exactly enough
        ** when q's last bit lies at least two places below any bit the
        ** format can keep: below its smallest subnormal ulp 2^(1-bias-mbits),
        ** and at least mbits+3 bits below the leading bit (D >= 1 and
        ** 10^k < 2^(4k) make q >= 2^(s - 4k)).
        */
        long k = -e;
        limit_bits = f->bias + f->mbits + 3;
        if (limit_bits < 3)
            limit_bits = 3;
        if (limit_bits < f->mbits + 3)
            limit_bits = f->mbits + 3;
        long sbits = limit_bits + 4 * k;
        if (big_shl(&b, (size_t)sbits)) {
            rc = lad_errf(err, LAD_EINTERNAL, "out of memory");
            goto done;
        }
        /* floor(floor(x / a) / b) == floor(x / (a*b)), and the remainder of
        ** the whole is nonzero exactly when one of the steps' is. */
        for (; k >= 9; k -= 9)
            sticky |= big_divmod(&b, 1000000000u) != 0;
        uint32_t p10 = 1;
        for (; k > 0; k--)
            p10 *= 10;
        if (p10 > 1)
            sticky |= big_divmod(&b, p10) != 0;
        exp2 = (int)-sbits;
    }
    {
        uint32_t zero = 0;
        const uint32_t *limbs = b.n ? b.d : &zero;
        size_t n = b.n ? b.n : 1;
        *word = lad_round_big(f, neg, limbs, n, exp2, sticky, mode, ovf, flags);
    }
    goto done;
bad:
    rc = lad_errf(err, LAD_EDATA, "'%s' is not a number", text);
done:
    free(b.d);
    return rc;
}

const char *lad_value_text(const lad_format *f, lad_word_t w, char *buf,
                           size_t size)
{
    lad_value v = lad_decode(f, w);
    if (f->kind == LAD_FLOAT && f->ebits == 0)
        snprintf(buf, size, "?");
    else if (v.cls == LAD_NAN)
        snprintf(buf, size, "nan");
    else if (v.cls == LAD_INFINITE)
        snprintf(buf, size, "%sinf", v.neg ? "-" : "");
    else
        lad_decimal_print(buf, size, v.neg, v.mag, v.exp);
    return buf;
}

/* Writes v's exact binary form, " (m*2^e)" in brackets or "m*2^e" alone,
** at buf + len. */
static void pow2_form(const lad_value *v, char *buf, size_t len, size_t size, int bracket)
{
    uint64_t m = v->mag;
    int e = v->exp;
    while ((m & 1) == 0) {
        m >>= 1;
        e++;
    }
    const char *open = bracket ? " (" : "", *close = bracket ? ")" : "";
    if (m == 1)
        snprintf(buf + len, size - len, "%s%s2^%d%s", open, v->neg ? "-" : "", e, close);
    else
        snprintf(buf + len, size - len, "%s%s%" PRIu64 "*2^%d%s", open, v->neg ? "-" : "", m,
                 e, close);
}

const char *lad_value_text_brief(const lad_format *f, lad_word_t w, char *buf,
                                 size_t size)
{
    lad_value_text(f, w, buf, size);
    lad_value v = lad_decode(f, w);
    if (strlen(buf) <= LAD_VALUE_LONG || v.mag == 0 || v.cls == LAD_NAN ||
        v.cls == LAD_INFINITE)
        return lad_value_text_pow2(f, w, buf, size);
    pow2_form(&v, buf, 0, size, 0);
    return buf;
}

const char *lad_value_text_pow2(const lad_format *f, lad_word_t w, char *buf,
                                size_t size)
{
    lad_value_text(f, w, buf, size);
    lad_value v = lad_decode(f, w);
    size_t len = strlen(buf);
    if (len <= LAD_VALUE_SHORT || v.mag == 0 || v.cls == LAD_NAN || v.cls == LAD_INFINITE)
        return buf;
    pow2_form(&v, buf, len, size, 1);
    return buf;
}
