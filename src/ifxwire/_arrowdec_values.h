/* ifxwire._arrowdec, part "values": one column under construction (Col) and its values by
 * Informix type family: text in UTF-8, DECIMAL as decimal128 or float64, DATETIME. Included
 * once, in order, by _arrowdec.c (one translation unit, so gcc inlines across the parts as it
 * did in one file): not a header of its own. */

/* ------------------------------------------------------------------------------------------ */

/* One 8-byte window of an A_LIST type table: a value's bytes at ``off`` (from the table's
   start, loaded unaligned) must equal ``expect`` where ``mask`` is set (table_words). */
struct TableWord {
    uint64_t expect, mask;
    Py_ssize_t off;
};

/* One output column under construction. */
typedef struct {
    int kind;
    Py_ssize_t width;
    long arg;
    unsigned char *validity; /* (count + 7) / 8 bytes, all set at first */
    Py_ssize_t nulls;
    unsigned char *data;
    Py_ssize_t data_len, data_cap;
    int32_t *offsets; /* strings and lists: count + 1 */
    const unsigned char *table; /* A_LIST: the expected type table (header + entries) */
    Py_ssize_t table_len;
    struct TableWord *tw; /* A_LIST: the table's words the row decoder reads (table_words) */
    Py_ssize_t tw_n;      /* how many; -1: compare the whole table (memcmp) */
    uint64_t null_bits; /* A_LIST: an element's NULL form, as a big-endian number */
} Col;

/* A string value appended in UTF-8: copied (UTF-8 checked, ASCII checked) or transcoded from
   Latin-1. Returns 0, or -1 when the bytes do not decode in the code set. */
static int put_text(Col *c, const unsigned char *s, Py_ssize_t n, int enc)
{
    unsigned char *out = c->data + c->data_len;
    if (enc == E_LATIN1) {
        Py_ssize_t k = 0;
        for (Py_ssize_t i = 0; i < n; i++) {
            unsigned char ch = s[i];
            if (ch < 0x80)
                out[k++] = ch;
            else {
                out[k++] = (unsigned char)(0xC0 | (ch >> 6));
                out[k++] = (unsigned char)(0x80 | (ch & 0x3F));
            }
        }
        c->data_len += k;
        return 0;
    }
    Py_ssize_t i = 0;
    while (i < n) {
        unsigned char ch = s[i];
        if (ch < 0x80) {
            i++;
            continue;
        }
        if (enc == E_ASCII)
            return -1;
        /* UTF-8 as Python's strict decoder accepts it: no overlongs, no surrogates, <= U+10FFFF */
        Py_ssize_t need;
        uint32_t cp;
        if (ch >= 0xC2 && ch <= 0xDF) {
            need = 1;
            cp = ch & 0x1F;
        }
        else if (ch >= 0xE0 && ch <= 0xEF) {
            need = 2;
            cp = ch & 0x0F;
        }
        else if (ch >= 0xF0 && ch <= 0xF4) {
            need = 3;
            cp = ch & 0x07;
        }
        else
            return -1;
        if (i + need >= n)
            return -1;
        for (Py_ssize_t j = 1; j <= need; j++) {
            unsigned char cc = s[i + j];
            if ((cc & 0xC0) != 0x80)
                return -1;
            cp = (cp << 6) | (cc & 0x3F);
        }
        if ((need == 2 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) ||
            (need == 3 && (cp < 0x10000 || cp > 0x10FFFF)))
            return -1;
        i += need + 1;
    }
    memcpy(out, s, (size_t)n);
    c->data_len += n;
    return 0;
}

static inline void set_null(Col *c, Py_ssize_t row)
{
    c->validity[row >> 3] &= (unsigned char)~(1u << (row & 7));
    c->nulls++;
}

/* DECIMAL digits: the base-100 digit bytes (100-complemented back when negative) and the
   power of ten of the last one, exactly as the row decoder reads them. Returns 1 for NULL,
   0 for a value, -1 for bytes that are not a DECIMAL. */
static int dec_digits(const unsigned char *raw, Py_ssize_t width, unsigned char *digits,
                      int *negative, long *e10)
{
    unsigned char head = raw[0];
    if (head == 0 && (width == 1 || raw[1] == 0))
        return 1;
    Py_ssize_t nd = width - 1, last = -1;
    for (Py_ssize_t i = 0; i < nd; i++) {
        digits[i] = raw[1 + i];
        if (digits[i] > 99)
            return -1;
        if (digits[i])
            last = i;
    }
    long exp;
    *negative = 0;
    if (head & 0x80)
        exp = (long)(head & 0x7F) - 64;
    else {
        *negative = last >= 0;
        exp = (long)((head ^ 0x7F) & 0x7F) - 64;
        if (last >= 0) {
            for (Py_ssize_t i = 0; i < last; i++)
                digits[i] = (unsigned char)(99 - digits[i]);
            digits[last] = (unsigned char)(100 - digits[last]);
        }
    }
    *e10 = 2 * (exp - (long)nd);
    return 0;
}

typedef unsigned __int128 u128;

/* One DECIMAL(p,s) as the unscaled decimal128 integer (truncated to the scale, as the row
   decoder's Decimal is). Returns 1 NULL, 0 value, -1 refuse (not a DECIMAL, or more digits
   than the precision, which the row path's pyarrow.array refuses too). */
static int dec128(const unsigned char *raw, Py_ssize_t width, int precision, int scale,
                  unsigned char out[16])
{
    unsigned char digits[40];
    int negative;
    long e10;
    if (width < 1 || width > 18)
        return -1;
    int r = dec_digits(raw, width, digits, &negative, &e10);
    if (r != 0)
        return r;
    Py_ssize_t nd = width - 1;
    long k = e10 + scale;
    u128 acc = 0;
    /* the 2*nd decimal digits, dropping the last -k of them when k < 0 */
    Py_ssize_t ndig = 2 * nd, keep = ndig;
    if (k < 0)
        keep = (-k >= ndig) ? 0 : ndig + k;
    for (Py_ssize_t i = 0; i < keep; i++) {
        unsigned char dd = digits[i / 2];
        acc = acc * 10 + (i & 1 ? dd % 10 : dd / 10);
    }
    u128 limit = 1;
    for (int i = 0; i < precision; i++)
        limit *= 10;
    for (long i = 0; i < k; i++) {
        if (acc >= limit)
            return -1;
        acc *= 10;
    }
    if (acc >= limit)
        return -1;
    u128 v = negative ? (u128)0 - acc : acc;
    for (int i = 0; i < 16; i++)
        out[i] = (unsigned char)(v >> (8 * i));
    return 0;
}

/* A floating DECIMAL as float64: the same digit string and exponent the row decoder hands to
   decimal.Decimal, read by strtod (both round correctly). */
static int decf(const unsigned char *raw, Py_ssize_t width, double *out)
{
    unsigned char digits[160];
    char s[400];
    int negative;
    long e10;
    if (width < 1 || width > 160)
        return -1;
    int r = dec_digits(raw, width, digits, &negative, &e10);
    if (r != 0)
        return r;
    Py_ssize_t n = 0;
    if (negative)
        s[n++] = '-';
    for (Py_ssize_t i = 0; i < width - 1; i++) {
        s[n++] = (char)('0' + digits[i] / 10);
        s[n++] = (char)('0' + digits[i] % 10);
    }
    n += snprintf(s + n, sizeof(s) - (size_t)n, "e%ld", e10);
    s[n] = 0;
    *out = strtod(s, NULL);
    return 0;
}

/* DATETIME YEAR TO x in the canonical form (head 0xC7, one byte per field, fraction pairs);
   anything else (the row decoder's slow path: other heads, NULL) is left to it, except the
   all-zero NULL. Returns 1 NULL, 0 value, -1 not decoded here. */
static int datetime_value(const unsigned char *raw, Py_ssize_t width, long arg, int64_t *out)
{
    int unit = (int)(arg >> 8), whole = (int)((arg >> 4) & 0xF), fd = (int)(arg & 0xF);
    if (raw[0] == 0 && width > 1 && raw[1] == 0) {
        for (Py_ssize_t i = 2; i < width; i++)
            if (raw[i])
                return -1;
        return 1;
    }
    if (raw[0] != 0xC7)
        return -1;
    const unsigned char *d = raw + 1;
    for (Py_ssize_t i = 0; i < width - 1; i++)
        if (d[i] > 99)
            return -1;
    if (width - 1 < whole + 1)
        return -1;
    long y = d[0] * 100 + d[1], mo = d[2], dd = d[3];
    long h = whole >= 4 ? d[4] : 0, mi = whole >= 5 ? d[5] : 0, se = whole >= 6 ? d[6] : 0;
    if (y < 1 || mo < 1 || mo > 12 || dd < 1 || dd > days_in_month(y, mo) || h > 23 || mi > 59 ||
        se > 59)
        return -1;
    long micro = 0;
    if (fd) {
        Py_ssize_t npairs = width - 1 - (whole + 1);
        if (npairs < 0 || npairs > 3)
            return -1;
        for (Py_ssize_t i = 0; i < npairs; i++)
            micro = micro * 100 + d[whole + 1 + i];
        for (Py_ssize_t i = npairs; i < 3; i++)
            micro *= 100;
        long cut = 1;
        for (int i = 0; i < 6 - fd; i++)
            cut *= 10;
        micro -= micro % cut;
    }
    int64_t days = days_from_civil(y, mo, dd);
    int64_t secs = days * 86400 + h * 3600 + mi * 60 + se;
    switch (unit) {
    case 0: *out = days; break;
    case 1: *out = secs; break;
    case 2: *out = secs * 1000 + micro / 1000; break;
    default: *out = secs * 1000000 + micro; break;
    }
    return 0;
}

