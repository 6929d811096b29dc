/* ifxwire._arrowdec: SQ_TUPLE payloads straight into Arrow column buffers (docs/ARROW.md).
 *
 * A separate optional extension (setup.py), so that the Arrow decoder neither needs nor touches
 * the row decoder in _speedups.c. Two functions:
 *
 *   tuple_run(buf, pos, end) -> (pos, count)
 *       the run of complete SQ_TUPLE messages (u16 14, u16 0, i32 size, payload, pad to even)
 *       from ``pos``: where it ends and how many tuples it holds. Stops before anything else
 *       (another message, an incomplete tuple, a negative size), which the reply loop handles.
 *
 *   decode(run, count, plan, enc_kind, keep_char_padding) -> list | None
 *       decodes the ``count`` tuples of ``run`` (whole messages, headers included; or a list
 *       of such buffers, read in turn as one: no copy to join them) column by column.
 *       ``plan`` holds one (kind, width, arg) per column (A_LIST: and its type table). The result has one item per
 *       column, (null_count, validity bytes or None, data bytes, offsets bytes or None), the
 *       buffers of an Arrow array of the column's type (little-endian, as Arrow wants); kind
 *       A_RAW gives, instead of values, the (offset, size) of each value in ``run`` as int64
 *       pairs, for Python to decode with the driver's own codec.
 *
 *       None means "not decoded here": a framing that does not reconcile, bytes that do not
 *       decode in the code set, a BOOLEAN byte, DATE, DATETIME or DECIMAL the row decoder
 *       would refuse or that the Arrow type cannot hold. The caller then decodes the run with
 *       the row decoder, which gives the exact values or raises the exact error fetchall
 *       raises: rows decoded here are only rows the row path accepts, with the same values.
 *
 *   Columns(plan, enc_kind, keep): the same decoding fed run by run (``feed``) where the runs
 *       lie in the receive buffer, and ``pump``: the columnar fetch's receive loop (recv(2)
 *       into the connection's buffer, feed, again) until something the reply parser must
 *       read is next. ``take``: the decoded buffers handed over as read-only ``Block``s (no
 *       copy into bytes; the Columns is then spent). Kept in this file, past its ~800 lines,
 *       because all of it uses the column state and decode_rows, which nothing else needs.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <locale.h>
#ifndef _WIN32
#include <errno.h>
#include <poll.h>
#include <sys/socket.h>
#endif

enum {
    A_I16 = 0,      /* SMALLINT: 2 bytes, INT16_MIN is NULL */
    A_I32 = 1,      /* INTEGER, SERIAL */
    A_I64 = 2,      /* BIGINT, BIGSERIAL */
    A_INT8 = 3,     /* INT8/SERIAL8: i16 sign (0 = NULL), u32 low, u32 high -> int64 */
    A_F32 = 4,      /* SMALLFLOAT: all-ones is NULL */
    A_F64 = 5,      /* FLOAT */
    A_DATE = 6,     /* DATE: i32 days from 1899-12-31 -> date32 */
    A_CHAR = 7,     /* CHAR/NCHAR(width): first byte 0 is NULL; trailing blanks dropped unless kept */
    A_VARCHAR = 8,  /* u8 length + bytes; length 1 holding 0 is NULL */
    A_LVARCHAR = 9, /* u8 indicator (non-zero: NULL), u32 length, bytes, one trailing NUL dropped */
    A_BOOL = 10,    /* envelope of one byte */
    A_DEC = 11,     /* DECIMAL/MONEY(p,s) -> decimal128: arg = (precision << 8) | scale */
    A_DECF = 12,    /* floating DECIMAL(p <= 15) -> float64 */
    A_DT = 13,      /* DATETIME YEAR TO x: arg = (unit << 8) | (whole_units << 4) | fraction digits;
                       unit 0 = date32, 1 = s, 2 = ms, 3 = us */
    A_RAW = 14,     /* any other value: arg = its framing (0 fixed width, 1 u8 length,
                       2 envelope, 3 i32 length); gives (offset, size) pairs */
    A_LIST = 15,    /* SET/MULTISET/LIST of fixed-width numbers in the binary (SENDRECV) form:
                       plan item (15, width, arg, table) where table is the type table's bytes
                       every value must carry (arrowtuples._list_table) and arg the element
                       kind: LK_INT (SMALLINT/INTEGER/BIGINT, width 2/4/8, NULL = only the sign
                       bit) or LK_FLOAT (SMALLFLOAT/FLOAT, width 4/8, NULL = all ones), plus
                       LK_SET for a SET (elements sorted ascending; a NaN or two equal
                       elements refuse the run). Gives list offsets + the elements' buffer */
    A_TLIST = 16    /* the same collections of SMALLINT/INTEGER/BIGINT in the text form
                       (cursor.collections = "text", no SQ_RET_TYPE): the UDT envelope
                       ``u8 flag, u32 len, WORD{n,n,...}`` (flag 1: NULL), plan item
                       (16, width, arg) with arg LK_INT [| LK_SET]. Decimal digits with an
                       optional '-' only: a NULL element, a blank, an exponent, a number out of
                       the width's range refuse the run (the row decoder then gives the value
                       or its typed error). Same output as A_LIST */
};

enum { LK_INT = 0, LK_FLOAT = 1, LK_DEC = 2, LK_SET = 16 };
/* (internal, A_TLIST: no '.' strtod for its floats in this process: every run refused) */
enum { LK_NODOT = 1 << 30 };

enum { E_OTHER = 0, E_LATIN1 = 1, E_UTF8 = 2, E_ASCII = 3 };

#define SQ_TUPLE 14
/* Informix day 0 is 1899-12-31; Arrow's date32 counts from 1970-01-01. */
#define EPOCH_SHIFT 25568

static inline uint16_t be16(const unsigned char *p) { return (uint16_t)((p[0] << 8) | p[1]); }

static inline uint32_t be32(const unsigned char *p)
{
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

static inline uint64_t be64(const unsigned char *p)
{
    return ((uint64_t)be32(p) << 32) | (uint64_t)be32(p + 4);
}

/* The same as one unaligned load and a byte swap where the compiler has the builtin: the
   form its vectoriser turns into a shuffle per 16 bytes (the A_LIST element loop). */
#if defined(__GNUC__) || defined(__clang__)
static inline uint16_t ld_be16(const unsigned char *p)
{
    uint16_t x;
    memcpy(&x, p, 2);
    return __builtin_bswap16(x);
}
static inline uint32_t ld_be32(const unsigned char *p)
{
    uint32_t x;
    memcpy(&x, p, 4);
    return __builtin_bswap32(x);
}
static inline uint64_t ld_be64(const unsigned char *p)
{
    uint64_t x;
    memcpy(&x, p, 8);
    return __builtin_bswap64(x);
}
#else
#define ld_be16 be16
#define ld_be32 be32
#define ld_be64 be64
#endif

#if defined(__SSE2__)
#include <emmintrin.h>
/* The A_LIST INTEGER elements four at a time with SSE2 (x86-64's baseline: the compiler
   vectorises the scalar loop only with SSSE3's byte shuffle): each 32-bit lane byte-swapped
   (bytes within 16-bit halves, then the halves), stored, and compared with the NULL form.
   Returns how many elements it did (a multiple of 4); ``*hit`` set when one was NULL. */
static inline Py_ssize_t swap32_block(unsigned char *restrict out,
                                      const unsigned char *restrict e, Py_ssize_t ne,
                                      uint32_t null32, unsigned *hit)
{
    __m128i nul = _mm_set1_epi32((int)null32), acc = _mm_setzero_si128();
    Py_ssize_t k = 0;
    for (; k + 4 <= ne; k += 4) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(e + 4 * k));
        v = _mm_or_si128(_mm_slli_epi16(v, 8), _mm_srli_epi16(v, 8));
        v = _mm_shufflelo_epi16(v, _MM_SHUFFLE(2, 3, 0, 1));
        v = _mm_shufflehi_epi16(v, _MM_SHUFFLE(2, 3, 0, 1));
        _mm_storeu_si128((__m128i *)(void *)(out + 4 * k), v);
        acc = _mm_or_si128(acc, _mm_cmpeq_epi32(v, nul));
    }
    *hit |= _mm_movemask_epi8(acc) != 0;
    return k;
}
#else
static inline Py_ssize_t swap32_block(unsigned char *out, const unsigned char *e,
                                      Py_ssize_t ne, uint32_t null32, unsigned *hit)
{
    (void)out, (void)e, (void)ne, (void)null32, (void)hit;
    return 0;
}
#endif

/* The "C" locale's numbers for strtod_l (made at import): strtod reads the decimal point of
   the process's LC_NUMERIC, which an application may have set to ','. Without strtod_l
   (not glibc) a float text list is decoded only while LC_NUMERIC's point is '.' (cols_parse). */
#if defined(__GLIBC__)
static locale_t c_numeric = (locale_t)0;
#endif

static double c_strtod(const char *s)
{
#if defined(__GLIBC__)
    if (c_numeric != (locale_t)0)
        return strtod_l(s, NULL, c_numeric);
#endif
    return strtod(s, NULL);
}

/* Whether c_strtod reads '.' as the decimal point (with the GIL: localeconv). */
static int c_strtod_ok(void)
{
#if defined(__GLIBC__)
    if (c_numeric != (locale_t)0)
        return 1;
#endif
    const char *dp = localeconv()->decimal_point;
    return dp != NULL && dp[0] == '.' && dp[1] == 0;
}

/* Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm). */
static long days_from_civil(long y, long m, long d)
{
    y -= m <= 2;
    long era = (y >= 0 ? y : y - 399) / 400;
    long yoe = y - era * 400;
    long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

static int days_in_month(long y, long m)
{
    static const int dm[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (m == 2 && ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0))
        return 29;
    return dm[m - 1];
}

/* ------------------------------------------------------------------------------------------ */

typedef struct {
    const unsigned char *p;
    Py_ssize_t len;
    Py_buffer view;
} BufRef;

static int buf_get(PyObject *obj, BufRef *b)
{
    if (PyObject_GetBuffer(obj, &b->view, PyBUF_SIMPLE) < 0)
        return -1;
    if (b->view.itemsize != 1) {
        PyBuffer_Release(&b->view);
        PyErr_SetString(PyExc_TypeError, "a tuple buffer must be made of bytes");
        return -1;
    }
    b->p = (const unsigned char *)b->view.buf;
    b->len = b->view.len;
    return 0;
}

static PyObject *tuple_run(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "tuple_run(buffer, pos, end)");
        return NULL;
    }
    Py_ssize_t pos = PyLong_AsSsize_t(args[1]);
    if (pos == -1 && PyErr_Occurred())
        return NULL;
    Py_ssize_t end = PyLong_AsSsize_t(args[2]);
    if (end == -1 && PyErr_Occurred())
        return NULL;
    BufRef b;
    if (buf_get(args[0], &b) < 0)
        return NULL;
    if (end > b.len)
        end = b.len;
    Py_ssize_t count = 0;
    while (pos >= 0 && end - pos >= 8 && b.p[pos] == 0 && b.p[pos + 1] == SQ_TUPLE) {
        int32_t size = (int32_t)be32(b.p + pos + 4);
        if (size < 0)
            break;
        Py_ssize_t nxt = pos + 8 + (Py_ssize_t)size + (size & 1);
        if (nxt > end)
            break;
        pos = nxt;
        count++;
    }
    PyBuffer_Release(&b.view);
    return Py_BuildValue("(nn)", pos, count);
}

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

static PyObject *take_bytes(const void *p, Py_ssize_t n)
{
    return PyBytes_FromStringAndSize((const char *)p, n);
}

/* Bytes per row of a fixed-size kind's data buffer (0 for strings and lists, whose data grows
   by what each value holds; A_BOOL is bits, counted apart). */
static Py_ssize_t row_bytes(const Col *c)
{
    switch (c->kind) {
    case A_I16: return 2;
    case A_I32: case A_F32: case A_DATE: return 4;
    case A_I64: case A_INT8: case A_F64: case A_DECF: return 8;
    case A_DT: return c->arg >> 8 ? 8 : 4;
    case A_DEC: case A_RAW: return 16;
    default: return 0;
    }
}

static int is_var(const Col *c)
{
    return c->kind == A_CHAR || c->kind == A_VARCHAR || c->kind == A_LVARCHAR || c->kind == A_LIST ||
           c->kind == A_TLIST;
}

/* The data buffer's size for ``rows`` rows: what the result hands out. */
static Py_ssize_t data_size(const Col *c, Py_ssize_t rows)
{
    if (is_var(c))
        return c->data_len;
    if (c->kind == A_BOOL)
        return (rows + 7) / 8;
    return row_bytes(c) * rows;
}

/* The bytes of an A_LIST column's expected type table that the row decoder's general path
   reads, as 8-byte masked words (docs/ARROW.md, "The type-table check").

   A value whose table differs from the expected bytes is not decoded by the row decoder's
   fast path (composite.fast_collection_decoder) but by ComplexDecoder, which parses the
   value's own table with complextype.read_type_table. That reads, of the layout in
   docs/PROTOCOL.md ("Binary value layout"; header 136 bytes, 414-byte entries): the entry
   count (header bytes 134..136); per entry its parent seqno and field-name length (+4..+8)
   and as many name bytes as that length says (at most 128, from +8); the type word, encoded
   length and xid (+138..+146); the extended-name length (+148) and its bytes (from +150);
   the owner's length (+278) and bytes (from +280); the source type (+410..+414). It never
   reads the header's first 134 bytes, an entry's seqno (+0), level (+2, read, unused),
   fieldno (+136), alignment (+408), nor a name's padding past its length. So a value whose
   table equals the expected one at every byte it reads gives read_type_table the very node
   the expected table gives, and the general path decodes its data as the fast path does:
   comparing only those bytes (here with the i16 0 at +146, one word with its neighbours)
   keeps the values exact, and a value that differs in any of them is refused (the row
   decoder then decides). The entry's bytes compared: 34 of 414 for an unnamed element, in
   11 words for a LIST of a scalar, instead of all 964 bytes read by memcmp.

   Any table that does not have that shape (a count that does not match its length) keeps
   the whole-table memcmp (``tw_n`` -1). Words may reach up to 7 bytes past the table, into
   the value's 12-byte trailer, which the decoder checks is there first; those bytes are
   masked off. Returns 0, or -1 with MemoryError. */
static int table_words(Col *c)
{
    const unsigned char *t = c->table;
    Py_ssize_t tl = c->table_len;
    c->tw = NULL;
    c->tw_n = -1;
    if (tl < 136 || (tl - 136) % 414 != 0 || (Py_ssize_t)(int16_t)be16(t + 134) != (tl - 136) / 414)
        return 0;
    unsigned char *m = PyMem_Calloc((size_t)tl, 1);
    if (m == NULL)
        return PyErr_NoMemory(), -1;
    memset(m + 134, 1, 2);
    for (Py_ssize_t e = 136; e < tl; e += 414) {
        Py_ssize_t n;
        memset(m + e + 4, 1, 4); /* parent seqno, field-name length */
        n = (int16_t)be16(t + e + 6);
        n = n < 0 ? 0 : (n > 128 ? 128 : n);
        memset(m + e + 8, 1, (size_t)n);
        memset(m + e + 138, 1, 12); /* type, length, xid, 0, extended-name length */
        n = (int16_t)be16(t + e + 148);
        n = n < 0 ? 0 : (n > 128 ? 128 : n);
        memset(m + e + 150, 1, (size_t)n);
        memset(m + e + 278, 1, 2); /* owner length */
        n = (int16_t)be16(t + e + 278);
        n = n < 0 ? 0 : (n > 128 ? 128 : n);
        memset(m + e + 280, 1, (size_t)n);
        memset(m + e + 410, 1, 4); /* source type */
    }
    struct TableWord *w = PyMem_Malloc((size_t)(tl / 8 + 1) * sizeof(struct TableWord));
    if (w == NULL) {
        PyMem_Free(m);
        return PyErr_NoMemory(), -1;
    }
    Py_ssize_t n = 0;
    for (Py_ssize_t i = 0; i < tl;) {
        if (!m[i]) {
            i++;
            continue;
        }
        unsigned char ex[8] = {0}, mk[8] = {0};
        for (Py_ssize_t j = 0; j < 8 && i + j < tl; j++)
            if (m[i + j]) {
                ex[j] = t[i + j];
                mk[j] = 0xFF;
            }
        memcpy(&w[n].expect, ex, 8);
        memcpy(&w[n].mask, mk, 8);
        w[n].off = i;
        n++;
        i += 8;
    }
    PyMem_Free(m);
    c->tw = w;
    c->tw_n = n;
    return 0;
}

/* Read the plan into ``cols`` (zeroed by the caller). Returns 0, or -1 with an exception. */
static int cols_parse(Col *cols, PyObject *plan, Py_ssize_t ncols, int allow_raw)
{
    for (Py_ssize_t i = 0; i < ncols; i++) {
        PyObject *item = PyTuple_GET_ITEM(plan, i);
        Col *c = &cols[i];
        PyObject *table = NULL;
        if (!PyArg_ParseTuple(item, "inl|S", &c->kind, &c->width, &c->arg, &table))
            return -1;
        if (c->kind < A_I16 || c->kind > A_TLIST) {
            PyErr_SetString(PyExc_ValueError, "ifxwire._arrowdec: bad column kind");
            return -1;
        }
        if (c->kind == A_RAW && !allow_raw) {
            PyErr_SetString(PyExc_ValueError, "ifxwire._arrowdec: A_RAW needs one buffer");
            return -1;
        }
        if (c->kind == A_TLIST) {
            int ek = (int)(c->arg & 0xF);
            long rest = c->arg & ~(long)(0xF | LK_SET);
            if (!(ek == LK_INT ? rest == 0 && (c->width == 2 || c->width == 4 || c->width == 8)
                  : ek == LK_FLOAT ? rest == 0 && (c->width == 4 || c->width == 8)
                  : ek == LK_DEC && c->width == 16 && !(c->arg & LK_SET) && (rest >> 24) == 0 &&
                        ((rest >> 16) & 0xFF) >= 1 && ((rest >> 16) & 0xFF) <= 32 &&
                        ((rest >> 8) & 0xFF) <= ((rest >> 16) & 0xFF))) {
                PyErr_SetString(PyExc_ValueError, "ifxwire._arrowdec: bad text list column");
                return -1;
            }
            if (ek == LK_FLOAT && !c_strtod_ok())
                c->arg |= LK_NODOT;
            if (table != NULL) { /* the opener, e.g. b"LIST{" (held by the plan tuple) */
                c->table = (const unsigned char *)PyBytes_AS_STRING(table);
                c->table_len = PyBytes_GET_SIZE(table);
                if (c->table_len < 2 || c->table[c->table_len - 1] != '{') {
                    PyErr_SetString(PyExc_ValueError, "ifxwire._arrowdec: bad text list opener");
                    return -1;
                }
            }
        }
        if (c->kind == A_LIST) {
            /* the plan tuple (held by the caller) keeps the bytes alive during the call */
            int ek = (int)(c->arg & 0xF);
            if (table == NULL || (c->arg & ~(long)(0xF | LK_SET)) != 0 ||
                !(ek == LK_INT ? (c->width == 2 || c->width == 4 || c->width == 8)
                              : (ek == LK_FLOAT && (c->width == 4 || c->width == 8)))) {
                PyErr_SetString(PyExc_ValueError, "ifxwire._arrowdec: bad list column");
                return -1;
            }
            /* INT16/32/64_MIN (the sign bit alone) or an all-ones float */
            c->null_bits = ek == LK_INT ? (uint64_t)1 << (8 * c->width - 1)
                                       : (c->width == 8 ? ~(uint64_t)0 : 0xFFFFFFFFull);
            c->table = (const unsigned char *)PyBytes_AS_STRING(table);
            c->table_len = PyBytes_GET_SIZE(table);
            if (table_words(c) < 0)
                return -1;
        }
    }
    return 0;
}

/* Room for ``rows`` rows in all, plus ``run_bytes`` more bytes of input for the string and
   list columns (every string byte is in the run; Latin-1 may double it in UTF-8; a list's
   elements are in the run too, as many bytes). ``*rcap`` is the row capacity so far; new
   validity bytes read as all valid, new fixed-size data as zero (NULL slots, BOOLEAN bits).
   Returns 0, or -1 with MemoryError. */
static int cols_reserve(Col *cols, Py_ssize_t ncols, Py_ssize_t *rcap, Py_ssize_t rows,
                        Py_ssize_t run_bytes, int enc)
{
    Py_ssize_t old = *rcap, cap = old;
    if (rows > old) {
        cap = old ? old : 64;
        while (cap < rows)
            cap *= 2;
    }
    Py_ssize_t ovb = (old + 7) / 8, vb = (cap + 7) / 8;
    for (Py_ssize_t i = 0; i < ncols; i++) {
        Col *c = &cols[i];
        if (cap != old || c->validity == NULL) {
            unsigned char *v = PyMem_Realloc(c->validity, (size_t)(vb ? vb : 1));
            if (v == NULL)
                return PyErr_NoMemory(), -1;
            memset(v + ovb, 0xFF, (size_t)(vb - ovb));
            c->validity = v;
        }
        if (is_var(c)) {
            if (c->offsets == NULL || cap != old) {
                int32_t *o = PyMem_Realloc(c->offsets, (size_t)(cap + 1) * sizeof(int32_t));
                if (o == NULL)
                    return PyErr_NoMemory(), -1;
                if (c->offsets == NULL)
                    o[0] = 0;
                c->offsets = o;
            }
            /* (A_TLIST: an element of w <= 16 bytes takes at least 2 bytes of text, a digit
               and its ',' or '}') */
            Py_ssize_t need = c->data_len +
                              (c->kind == A_TLIST ? (c->width + 1) / 2 : enc == E_LATIN1 && c->kind != A_LIST ? 2 : 1) *
                                  run_bytes;
            if (need > c->data_cap || c->data == NULL) {
                Py_ssize_t dc = c->data_cap ? c->data_cap : 256;
                while (dc < need)
                    dc *= 2;
                unsigned char *d = PyMem_Realloc(c->data, (size_t)dc);
                if (d == NULL)
                    return PyErr_NoMemory(), -1;
                c->data = d;
                c->data_cap = dc;
            }
        }
        else if (cap != old || c->data == NULL) {
            Py_ssize_t o = data_size(c, old), n = data_size(c, cap);
            unsigned char *d = PyMem_Realloc(c->data, (size_t)(n ? n : 1));
            if (d == NULL)
                return PyErr_NoMemory(), -1;
            memset(d + o, 0, (size_t)(n - o));
            c->data = d;
            c->data_cap = n;
        }
    }
    *rcap = cap;
    return 0;
}

static void cols_free(Col *cols, Py_ssize_t ncols)
{
    if (cols == NULL)
        return;
    for (Py_ssize_t i = 0; i < ncols; i++) {
        PyMem_Free(cols[i].validity);
        PyMem_Free(cols[i].data);
        PyMem_Free(cols[i].offsets);
        PyMem_Free(cols[i].tw);
    }
    PyMem_Free(cols);
}

/* [(null_count, validity or None, data, offsets or None)] of the first ``rows`` rows. */
static PyObject *cols_result(Col *cols, Py_ssize_t ncols, Py_ssize_t rows)
{
    PyObject *result = PyList_New(ncols);
    if (result == NULL)
        return NULL;
    Py_ssize_t vbytes = (rows + 7) / 8;
    for (Py_ssize_t i = 0; i < ncols; i++) {
        Col *c = &cols[i];
        PyObject *validity = c->nulls ? take_bytes(c->validity, vbytes) : Py_NewRef(Py_None);
        PyObject *data = take_bytes(c->data, data_size(c, rows));
        PyObject *offsets = c->offsets != NULL
                                ? take_bytes(c->offsets, (rows + 1) * (Py_ssize_t)sizeof(int32_t))
                                : Py_NewRef(Py_None);
        if (validity == NULL || data == NULL || offsets == NULL) {
            Py_XDECREF(validity);
            Py_XDECREF(data);
            Py_XDECREF(offsets);
            Py_DECREF(result);
            return NULL;
        }
        PyObject *t = Py_BuildValue("(nNNN)", c->nulls, validity, data, offsets);
        if (t == NULL) {
            Py_DECREF(result);
            return NULL;
        }
        PyList_SET_ITEM(result, i, t);
    }
    return result;
}

/* A SET's elements (machine order, in place) sorted ascending: a SET has no order, and the
   row path's Set (a frozenset) keeps none, so every Arrow path gives them sorted
   (arrow.py _list_converter). Returns -1 where the row decoder's Set would differ from the
   wire's elements (two equal elements, which it would make one; 0.0 and -0.0 are equal)
   or where no order holds (a NaN): the run then goes to the row decoder. Insertion sort:
   a SET value holds few elements. */
#define SORT_BODY(T)                                                                           \
    do {                                                                                       \
        T *a = (T *)(void *)out;                                                               \
        for (Py_ssize_t i = 0; i < n; i++) {                                                   \
            T v;                                                                               \
            memcpy(&v, &a[i], sizeof(T));                                                      \
            if (v != v)                                                                        \
                return -1;                                                                     \
            Py_ssize_t j = i;                                                                  \
            while (j > 0) {                                                                    \
                T u;                                                                           \
                memcpy(&u, &a[j - 1], sizeof(T));                                              \
                if (!(u > v))                                                                  \
                    break;                                                                     \
                memcpy(&a[j], &u, sizeof(T));                                                  \
                j--;                                                                           \
            }                                                                                  \
            memcpy(&a[j], &v, sizeof(T));                                                      \
        }                                                                                      \
        for (Py_ssize_t i = 1; i < n; i++) {                                                   \
            T x, y;                                                                            \
            memcpy(&x, &a[i - 1], sizeof(T));                                                  \
            memcpy(&y, &a[i], sizeof(T));                                                      \
            if (x == y)                                                                        \
                return -1;                                                                     \
        }                                                                                      \
    } while (0)

static int set_sort(unsigned char *out, Py_ssize_t n, Py_ssize_t w, int ek)
{
    if (ek == LK_FLOAT) {
        if (w == 4)
            SORT_BODY(float);
        else
            SORT_BODY(double);
    }
    else if (w == 2)
        SORT_BODY(int16_t);
    else if (w == 4)
        SORT_BODY(int32_t);
    else
        SORT_BODY(int64_t);
    return 0;
}

/* One number of a float collection's text at ``t`` (before ``end``), as the server spells
   it: -?[0-9]+(.[0-9]*)?([eE][-+]?[0-9]+)? and at most 80 characters. ``*out`` is strtod's
   double, correctly rounded as Python's float() of the same text is (the row decoder's
   value). Returns the byte after it, or NULL for anything else ("inf", "NULL", a blank, "+1",
   ".5": the row decoder decides). */
static const unsigned char *text_number(const unsigned char *t, const unsigned char *end,
                                        double *out)
{
    const unsigned char *s0 = t, *d0;
    char tmp[81];
    if (t < end && *t == '-')
        t++;
    d0 = t;
    while (t < end && *t >= '0' && *t <= '9')
        t++;
    if (t == d0)
        return NULL;
    if (t < end && *t == '.') {
        t++;
        while (t < end && *t >= '0' && *t <= '9')
            t++;
    }
    if (t < end && (*t == 'e' || *t == 'E')) {
        t++;
        if (t < end && (*t == '+' || *t == '-'))
            t++;
        d0 = t;
        while (t < end && *t >= '0' && *t <= '9')
            t++;
        if (t == d0)
            return NULL;
    }
    if (t - s0 > 80)
        return NULL;
    memcpy(tmp, s0, (size_t)(t - s0));
    tmp[t - s0] = 0;
    *out = c_strtod(tmp);
    return t;
}

/* One DECIMAL(p,s) element of the text form, -?[0-9]+(.[0-9]+)?, as the unscaled decimal128
   integer (little-endian) at scale ``scale``: what pyarrow makes of the row decoder's
   Decimal. More fraction digits than the scale, more digits than the precision, an exponent
   or anything else: NULL (the row decoder, and pyarrow's own check, decide). */
static const unsigned char *text_decimal(const unsigned char *t, const unsigned char *end,
                                         int precision, int scale, unsigned char out[16])
{
    int neg = 0, sig = 0, frac = 0;
    u128 acc = 0;
    if (t < end && *t == '-')
        neg = 1, t++;
    const unsigned char *d0 = t;
    for (; t < end && *t >= '0' && *t <= '9'; t++) {
        if (acc || *t != '0')
            sig++;
        acc = acc * 10 + (u128)(*t - '0');
        if (sig > 38)
            return NULL;
    }
    if (t == d0)
        return NULL;
    if (t < end && *t == '.') {
        t++;
        const unsigned char *f0 = t;
        for (; t < end && *t >= '0' && *t <= '9'; t++) {
            if (++frac > scale)
                return NULL;
            if (acc || *t != '0')
                sig++;
            acc = acc * 10 + (u128)(*t - '0');
            if (sig > 38)
                return NULL;
        }
        if (t == f0)
            return NULL;
    }
    u128 limit = 1;
    for (int i = 0; i < precision; i++)
        limit *= 10;
    for (int i = frac; i < scale; i++) {
        if (acc >= limit)
            return NULL;
        acc *= 10;
    }
    if (acc >= limit)
        return NULL;
    u128 v = neg ? (u128)0 - acc : acc;
    for (int i = 0; i < 16; i++)
        out[i] = (unsigned char)(v >> (8 * i));
    return t;
}

#define NEED(n)                                                                                \
    do {                                                                                       \
        if ((n) > stop - at)                                                                   \
            goto refuse;                                                                       \
    } while (0)

/* Rows ``row0`` .. ``row0 + count - 1`` from the ``count`` whole tuple messages of the
   buffers ``bs`` (read in turn, as if joined; they must hold exactly those tuples). Touches no
   Python object, so callers run it without the GIL. Returns 0, or 1 when the run is not one
   this decoder takes (the caller leaves it to the row decoder). */
static int decode_rows(Col *cols, Py_ssize_t ncols, const BufRef *bs, Py_ssize_t nb,
                       Py_ssize_t row0, Py_ssize_t count, int enc, int keep)
{
    Py_ssize_t pos = 0, bi = 0;
    BufRef b = {NULL, 0, {0}};
    if (nb)
        b = bs[0];
    for (Py_ssize_t row = row0; row < row0 + count; row++) {
        while (pos == b.len && bi + 1 < nb) {
            b = bs[++bi];
            pos = 0;
        }
        if (b.len - pos < 8 || b.p[pos] != 0 || b.p[pos + 1] != SQ_TUPLE)
            goto refuse;
        int32_t size = (int32_t)be32(b.p + pos + 4);
        if (size < 0 || pos + 8 + (Py_ssize_t)size + (size & 1) > b.len)
            goto refuse;
        Py_ssize_t at = pos + 8;
        const Py_ssize_t stop = at + size;
        const unsigned char *p = b.p;
        for (Py_ssize_t i = 0; i < ncols; i++) {
            Col *c = &cols[i];
            unsigned char *dst = c->data;
            switch (c->kind) {
            case A_I16: {
                NEED(2);
                uint16_t x = be16(p + at);
                if (x == 0x8000u)
                    set_null(c, row), x = 0;
                memcpy(dst + 2 * row, &x, 2);
                at += 2;
                break;
            }
            case A_I32:
            case A_DATE: {
                NEED(4);
                uint32_t x = be32(p + at);
                if (x == 0x80000000u)
                    set_null(c, row), x = 0;
                else if (c->kind == A_DATE)
                    x = (uint32_t)((int32_t)x - EPOCH_SHIFT);
                memcpy(dst + 4 * row, &x, 4);
                at += 4;
                break;
            }
            case A_F32: {
                NEED(4);
                uint32_t x = be32(p + at);
                if (x == UINT32_MAX)
                    set_null(c, row), x = 0;
                memcpy(dst + 4 * row, &x, 4);
                at += 4;
                break;
            }
            case A_I64:
            case A_F64: {
                NEED(8);
                uint64_t x = be64(p + at);
                if ((c->kind == A_I64 && x == 0x8000000000000000ull) ||
                    (c->kind == A_F64 && x == UINT64_MAX))
                    set_null(c, row), x = 0;
                memcpy(dst + 8 * row, &x, 8);
                at += 8;
                break;
            }
            case A_INT8: {
                NEED(10);
                int16_t sign = (int16_t)be16(p + at);
                uint64_t mag = ((uint64_t)be32(p + at + 6) << 32) | be32(p + at + 2);
                int64_t v = 0;
                if (sign == 0)
                    set_null(c, row);
                else if (sign > 0) {
                    if (mag > (uint64_t)INT64_MAX)
                        goto refuse;
                    v = (int64_t)mag;
                }
                else {
                    if (mag > (uint64_t)INT64_MAX + 1)
                        goto refuse;
                    v = (int64_t)(0 - mag);
                }
                memcpy(dst + 8 * row, &v, 8);
                at += 10;
                break;
            }
            case A_CHAR: {
                Py_ssize_t w = c->width;
                NEED(w);
                if (p[at] == 0)
                    set_null(c, row);
                else {
                    Py_ssize_t n = w;
                    if (!keep)
                        while (n > 0 && p[at + n - 1] == 0x20)
                            n--;
                    if (put_text(c, p + at, n, enc) < 0)
                        goto refuse;
                }
                c->offsets[row + 1] = (int32_t)c->data_len;
                at += w;
                break;
            }
            case A_VARCHAR: {
                NEED(1);
                Py_ssize_t n = p[at];
                NEED(1 + n);
                if (n == 1 && p[at + 1] == 0)
                    set_null(c, row);
                else if (put_text(c, p + at + 1, n, enc) < 0)
                    goto refuse;
                c->offsets[row + 1] = (int32_t)c->data_len;
                at += 1 + n;
                break;
            }
            case A_LVARCHAR:
            case A_BOOL: {
                NEED(5);
                Py_ssize_t n = (Py_ssize_t)be32(p + at + 1);
                NEED(5 + n);
                const unsigned char *data = p + at + 5;
                if (c->kind == A_LVARCHAR) {
                    if (p[at] != 0)
                        set_null(c, row);
                    else if (put_text(c, data, (n > 0 && data[n - 1] == 0) ? n - 1 : n, enc) < 0)
                        goto refuse;
                    c->offsets[row + 1] = (int32_t)c->data_len;
                }
                else if (p[at] != 0)
                    set_null(c, row);
                else {
                    if (n != 1)
                        goto refuse;
                    switch (data[0]) {
                    case 0x01: case 0x74: case 0x54: dst[row >> 3] |= (unsigned char)(1u << (row & 7)); break;
                    case 0x00: case 0x66: case 0x46: break;
                    case 0xFF: set_null(c, row); break;
                    default: goto refuse;
                    }
                }
                at += 5 + n;
                break;
            }
            case A_DEC: {
                NEED(c->width);
                int r = dec128(p + at, c->width, (int)(c->arg >> 8), (int)(c->arg & 0xFF),
                               dst + 16 * row);
                if (r < 0)
                    goto refuse;
                if (r == 1)
                    set_null(c, row);
                at += c->width;
                break;
            }
            case A_DECF: {
                NEED(c->width);
                double d = 0;
                int r = decf(p + at, c->width, &d);
                if (r < 0)
                    goto refuse;
                if (r == 1)
                    set_null(c, row);
                memcpy(dst + 8 * row, &d, 8);
                at += c->width;
                break;
            }
            case A_DT: {
                NEED(c->width);
                int64_t v = 0;
                int r = datetime_value(p + at, c->width, c->arg, &v);
                if (r < 0)
                    goto refuse;
                if (r == 1)
                    set_null(c, row), v = 0;
                if (c->arg >> 8)
                    memcpy(dst + 8 * row, &v, 8);
                else {
                    int32_t v32 = (int32_t)v;
                    memcpy(dst + 4 * row, &v32, 4);
                }
                at += c->width;
                break;
            }
            case A_LIST: {
                /* i32 length L, the type table, i32 0, i32 size, i32 flags, the elements:
                   what composite.fast_collection_decoder reads; anything else (another
                   table, a NULL element, a size that is not whole elements) is refused,
                   and the row decoder's general path gives the value or its error. */
                NEED(4);
                int32_t len = (int32_t)be32(p + at);
                Py_ssize_t tl = c->table_len;
                if (len < tl + 12)
                    goto refuse;
                NEED(4 + (Py_ssize_t)len);
                if (c->tw_n < 0) {
                    if (memcmp(p + at + 4, c->table, (size_t)tl) != 0)
                        goto refuse;
                }
                else { /* the bytes the row decoder reads (table_words): 7 past the table
                          at most, inside the trailer the check above found */
                    const unsigned char *q = p + at + 4;
                    const struct TableWord *tw = c->tw;
                    uint64_t diff = 0;
                    for (Py_ssize_t k = 0; k < c->tw_n; k++) {
                        uint64_t v;
                        memcpy(&v, q + tw[k].off, 8);
                        diff |= (v ^ tw[k].expect) & tw[k].mask;
                    }
                    if (diff)
                        goto refuse;
                }
                int32_t dsize = (int32_t)be32(p + at + 8 + tl);
                uint32_t flags = be32(p + at + 12 + tl);
                Py_ssize_t w = c->width;
                if (flags & 0x80000000u)
                    set_null(c, row);
                else {
                    if (dsize < 0 || dsize > len - tl - 12 || dsize % w)
                        goto refuse;
                    /* (restrict: the run and the column's buffer never overlap) */
                    const unsigned char *restrict e = p + at + 16 + tl;
                    unsigned char *restrict out = dst + c->data_len;
                    uint64_t nb = c->null_bits;
                    /* every element swapped and stored, a NULL one only noted (``hit``):
                       no exit inside the loop, so the compiler vectorises it (a byte
                       shuffle and a compare per 4 or 8 elements, docs/ARROW.md "arrow14");
                       what was stored past data_len is scratch when the run is refused */
                    unsigned hit = 0;
                    Py_ssize_t ne = dsize / w;
                    if (w == 4) {
                        uint32_t n32 = (uint32_t)nb;
                        Py_ssize_t k = swap32_block(out, e, ne, n32, &hit);
                        for (; k < ne; k++) {
                            uint32_t x = ld_be32(e + 4 * k);
                            hit |= x == n32;
                            memcpy(out + 4 * k, &x, 4);
                        }
                    } else if (w == 2) {
                        uint16_t n16 = (uint16_t)nb;
                        for (Py_ssize_t k = 0; k < ne; k++) {
                            uint16_t x = ld_be16(e + 2 * k);
                            hit |= x == n16;
                            memcpy(out + 2 * k, &x, 2);
                        }
                    } else {
                        for (Py_ssize_t k = 0; k < ne; k++) {
                            uint64_t x = ld_be64(e + 8 * k);
                            hit |= x == nb;
                            memcpy(out + 8 * k, &x, 8);
                        }
                    }
                    if (hit)
                        goto refuse;
                    if ((c->arg & LK_SET) && set_sort(out, dsize / w, w, (int)(c->arg & 0xF)) < 0)
                        goto refuse;
                    c->data_len += dsize;
                }
                if (c->data_len / w > INT32_MAX)
                    goto refuse;
                c->offsets[row + 1] = (int32_t)(c->data_len / w);
                at += 4 + len;
                break;
            }
            case A_TLIST: {
                NEED(5);
                Py_ssize_t n = (Py_ssize_t)be32(p + at + 1);
                NEED(5 + n);
                Py_ssize_t w = c->width;
                if (p[at] == 1)
                    set_null(c, row);
                else {
                    if (p[at] != 0)
                        goto refuse;
                    const unsigned char *t = p + at + 5, *end = t + n;
                    if (c->table != NULL) { /* the opener the column's type spells */
                        if (n < c->table_len + 1 || memcmp(t, c->table, (size_t)c->table_len))
                            goto refuse;
                        t += c->table_len - 1;
                    }
                    else
                        while (t < end && *t >= 'A' && *t <= 'Z')
                            t++;
                    if (t == p + at + 5 || t == end || *t != '{' || end[-1] != '}')
                        goto refuse;
                    t++;
                    end--; /* the '}' */
                    unsigned char *out = dst + c->data_len;
                    Py_ssize_t k = 0;
                    int ek = (int)(c->arg & 0xF);
                    if (c->arg & LK_NODOT)
                        goto refuse;
                    const uint64_t lim = w == 2 ? 32767u : w == 4 ? 2147483647u : (uint64_t)INT64_MAX;
                    while (t < end) {
                        if (ek == LK_FLOAT) {
                            double d;
                            const unsigned char *after = text_number(t, end, &d);
                            if (after == NULL)
                                goto refuse;
                            t = after;
                            if (w == 4) {
                                float f = (float)d;
                                memcpy(out + k, &f, 4);
                            } else
                                memcpy(out + k, &d, 8);
                        }
                        else if (ek == LK_DEC) {
                            unsigned char v[16];
                            const unsigned char *after = text_decimal(
                                t, end, (int)((c->arg >> 16) & 0xFF), (int)((c->arg >> 8) & 0xFF), v);
                            if (after == NULL)
                                goto refuse;
                            t = after;
                            memcpy(out + k, v, 16);
                        }
                        else {
                            int neg = *t == '-';
                            t += neg;
                            const unsigned char *d0 = t;
                            uint64_t mag = 0;
                            while (t < end && *t >= '0' && *t <= '9') {
                                if (t - d0 >= 19)
                                    goto refuse;
                                mag = mag * 10 + (uint64_t)(*t - '0');
                                t++;
                            }
                            /* no digits, too large, or a NULL sentinel (the row decoder says) */
                            if (t == d0 || mag > lim + (uint64_t)neg || (neg && mag == lim + 1))
                                goto refuse;
                            int64_t v = neg ? (int64_t)(0 - mag) : (int64_t)mag;
                            if (w == 2) {
                                int16_t x = (int16_t)v;
                                memcpy(out + k, &x, 2);
                            } else if (w == 4) {
                                int32_t x = (int32_t)v;
                                memcpy(out + k, &x, 4);
                            } else
                                memcpy(out + k, &v, 8);
                        }
                        if (t < end) {
                            if (*t != ',' || t + 1 == end)
                                goto refuse;
                            t++;
                        }
                        k += w;
                    }
                    if ((c->arg & LK_SET) && set_sort(out, k / w, w, ek) < 0)
                        goto refuse;
                    c->data_len += k;
                }
                if (c->data_len / w > INT32_MAX)
                    goto refuse;
                c->offsets[row + 1] = (int32_t)(c->data_len / w);
                at += 5 + n;
                break;
            }
            case A_RAW: {
                Py_ssize_t n;
                switch (c->arg) {
                case 0: n = c->width; break;
                case 1: NEED(1); n = 1 + p[at]; break;
                case 2: NEED(5); n = 5 + (Py_ssize_t)be32(p + at + 1); break;
                default: NEED(4); n = 4 + (Py_ssize_t)(int32_t)be32(p + at); break;
                }
                if (n < 0)
                    goto refuse;
                NEED(n);
                int64_t pair[2] = {at, n};
                memcpy(dst + 16 * row, pair, 16);
                at += n;
                break;
            }
            }
        }
        if (at != stop)
            goto refuse;
        pos = stop + (size & 1);
    }
    while (pos == b.len && bi + 1 < nb) {
        b = bs[++bi];
        pos = 0;
    }
    if (pos != b.len || bi + 1 < nb)
        goto refuse;
    return 0;
refuse:
    return 1;
}

static PyObject *decode(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "decode(run, count, plan, enc_kind, keep)");
        return NULL;
    }
    Py_ssize_t count = PyLong_AsSsize_t(args[1]);
    if (count == -1 && PyErr_Occurred())
        return NULL;
    if (count < 0) {
        PyErr_SetString(PyExc_ValueError, "ifxwire._arrowdec: negative count");
        return NULL;
    }
    PyObject *plan = args[2];
    if (!PyTuple_Check(plan)) {
        PyErr_SetString(PyExc_TypeError, "plan must be a tuple");
        return NULL;
    }
    int enc = (int)PyLong_AsLong(args[3]);
    int keep = PyObject_IsTrue(args[4]);
    if (PyErr_Occurred())
        return NULL;
    Py_ssize_t ncols = PyTuple_GET_SIZE(plan);
    /* run: one buffer, or a list of them read as if joined (no copy to join them; A_RAW's
       offsets would then not be into one buffer, so the caller joins when it has one) */
    PyObject *src = args[0];
    int many = PyList_Check(src);
    Py_ssize_t nb = many ? PyList_GET_SIZE(src) : 1, got = 0;
    BufRef *bs = PyMem_Calloc((size_t)(nb ? nb : 1), sizeof(BufRef));
    if (bs == NULL)
        return PyErr_NoMemory();
    Py_ssize_t total = 0;
    for (; got < nb; got++) {
        if (buf_get(many ? PyList_GET_ITEM(src, got) : src, &bs[got]) < 0)
            break;
        total += bs[got].len;
    }
    PyObject *result = NULL;
    Col *cols = got < nb ? NULL : PyMem_Calloc((size_t)(ncols ? ncols : 1), sizeof(Col));
    if (got < nb)
        goto done;
    if (cols == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    Py_ssize_t rcap = 0;
    if (cols_parse(cols, plan, ncols, nb == 1) < 0 ||
        cols_reserve(cols, ncols, &rcap, count, total, enc) < 0)
        goto done;
    int r;
    /* the buffers stay exported (PyObject_GetBuffer) until released below: nothing can
       resize them while other threads run */
    Py_BEGIN_ALLOW_THREADS
    r = decode_rows(cols, ncols, bs, nb, 0, count, enc, keep);
    Py_END_ALLOW_THREADS
    result = r ? Py_NewRef(Py_None) : cols_result(cols, ncols, count);
done:
    cols_free(cols, ncols);
    for (Py_ssize_t i = 0; i < got; i++)
        PyBuffer_Release(&bs[i].view);
    PyMem_Free(bs);
    return result;
}

/* ------------------------------------------------------------------------------------------ */

/* Columns(plan, enc_kind, keep): the columns of one fetch reply, fed run by run as its bytes
   arrive (``feed``), so the runs are decoded from the receive buffer itself and never copied
   (a LIST of 10 INTEGERs is ~1 KB a row, ~20 times its elements). */
typedef struct {
    PyObject_HEAD
    PyObject *plan;
    Col *cols;
    Py_ssize_t ncols;
    Py_ssize_t rows, rcap;
    int enc, keep;
    PyObject *taken; /* take()'s answer once it handed the buffers out: nothing more is fed */
    int busy;        /* a feed or pump is decoding or receiving without the GIL */
} Columns;

static void columns_dealloc(Columns *self)
{
    cols_free(self->cols, self->ncols);
    Py_XDECREF(self->taken);
    Py_XDECREF(self->plan);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *columns_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    PyObject *plan;
    int enc, keep;
    static char *kwlist[] = {"plan", "enc_kind", "keep", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O!ip", kwlist, &PyTuple_Type, &plan, &enc,
                                     &keep))
        return NULL;
    Columns *self = (Columns *)type->tp_alloc(type, 0);
    if (self == NULL)
        return NULL;
    self->plan = Py_NewRef(plan);
    self->ncols = PyTuple_GET_SIZE(plan);
    self->enc = enc;
    self->keep = keep;
    self->cols = PyMem_Calloc((size_t)(self->ncols ? self->ncols : 1), sizeof(Col));
    if (self->cols == NULL) {
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    if (cols_parse(self->cols, plan, self->ncols, 0) < 0) {
        Py_DECREF(self);
        return NULL;
    }
    return (PyObject *)self;
}

/* Put the columns back as they were before rows row0.. were attempted: a refused run leaves
   no trace (nulls, string/list data, validity bits, BOOLEAN bits, fixed-size slots). */
static void cols_rollback(Col *cols, Py_ssize_t ncols, const Py_ssize_t *saved,
                          Py_ssize_t row0, Py_ssize_t count)
{
    for (Py_ssize_t i = 0; i < ncols; i++) {
        Col *c = &cols[i];
        c->nulls = saved[2 * i];
        for (Py_ssize_t r = row0; r < row0 + count; r++) {
            c->validity[r >> 3] |= (unsigned char)(1u << (r & 7));
            if (c->kind == A_BOOL)
                c->data[r >> 3] &= (unsigned char)~(1u << (r & 7));
        }
        if (is_var(c))
            c->data_len = saved[2 * i + 1];
        else if (c->kind != A_BOOL)
            memset(c->data + row_bytes(c) * row0, 0, (size_t)(row_bytes(c) * count));
    }
}

/* 0, or -1 with ValueError once take() has handed the buffers out (feed, pump), or while
   another thread's feed or pump uses them (their pointers are held without the GIL). */
static int columns_live(Columns *self)
{
    if (self->busy) {
        PyErr_SetString(PyExc_ValueError, "ifxwire._arrowdec: the columns are in use");
        return -1;
    }
    if (self->taken == NULL)
        return 0;
    PyErr_SetString(PyExc_ValueError, "ifxwire._arrowdec: the columns were taken");
    return -1;
}

/* take()'s answer again (the same Blocks), or ValueError if take() failed half way. */
static PyObject *columns_taken(Columns *self)
{
    if (self->taken != Py_None)
        return Py_NewRef(self->taken);
    PyErr_SetString(PyExc_ValueError, "ifxwire._arrowdec: the columns were lost by take()");
    return NULL;
}

/* Decode the ``count`` whole tuple messages at ``p[0:len]`` after the rows fed so far (the
   GIL held: the reservation allocates; the decoding itself runs without it). Returns 1 when
   they were kept, 0 when the run is not one this decoder takes (nothing of it kept), -1 with
   an exception. */
static int cols_feed(Columns *self, const unsigned char *p, Py_ssize_t len, Py_ssize_t count)
{
    BufRef part;
    memset(&part, 0, sizeof(part));
    part.p = p;
    part.len = len;
    Py_ssize_t ncols = self->ncols, row0 = self->rows;
    Py_ssize_t *saved = PyMem_Malloc((size_t)(2 * (ncols ? ncols : 1)) * sizeof(Py_ssize_t));
    if (saved == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    if (cols_reserve(self->cols, ncols, &self->rcap, row0 + count, len, self->enc) < 0) {
        PyMem_Free(saved);
        return -1;
    }
    for (Py_ssize_t i = 0; i < ncols; i++) {
        saved[2 * i] = self->cols[i].nulls;
        saved[2 * i + 1] = self->cols[i].data_len;
    }
    int r;
    int was_busy = self->busy;
    self->busy = 1;
    Py_BEGIN_ALLOW_THREADS
    r = decode_rows(self->cols, ncols, &part, 1, row0, count, self->enc, self->keep);
    Py_END_ALLOW_THREADS
    self->busy = was_busy;
    if (r)
        cols_rollback(self->cols, ncols, saved, row0, count);
    else
        self->rows = row0 + count;
    PyMem_Free(saved);
    return !r;
}

/* feed(buffer, pos, end, count) -> bool: decode the ``count`` whole tuple messages of
   ``buffer[pos:end]`` (tuple_run's answer) after the rows fed so far. False: the run is not
   one this decoder takes, and nothing of it was kept. */
static PyObject *columns_feed(Columns *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "feed(buffer, pos, end, count)");
        return NULL;
    }
    Py_ssize_t pos = PyLong_AsSsize_t(args[1]);
    Py_ssize_t end = PyLong_AsSsize_t(args[2]);
    Py_ssize_t count = PyLong_AsSsize_t(args[3]);
    if (PyErr_Occurred())
        return NULL;
    BufRef b;
    if (buf_get(args[0], &b) < 0)
        return NULL;
    if (pos < 0 || end > b.len || pos > end || count < 0) {
        PyBuffer_Release(&b.view);
        PyErr_SetString(PyExc_ValueError, "ifxwire._arrowdec: feed outside the buffer");
        return NULL;
    }
    int r = columns_live(self) < 0 ? -1 : cols_feed(self, b.p + pos, end - pos, count);
    PyBuffer_Release(&b.view);
    return r < 0 ? NULL : PyBool_FromLong(r);
}

#ifndef _WIN32
/* ---------------------------------------------------------------------------------------
   pump: the receive loop of a columnar fetch in C (docs/ARROW.md, "Decoded where it lies").
   Receiving a ~100 MB result in ~430 receives cost ~20 us of Python each (the reply parser's
   frames, the transport's, tuple_run and feed called from Python); here each receive is one
   recv(2) and the runs it completes are decoded where they lie, with no Python frame. */

enum { P_STOP = 0, P_EOF = 1, P_ERROR = 2, P_TIMEOUT = 3 };

/* pump(fd, buffer, start, end, budget, tuple_limit, min_free, timeout_ms)
       -> (status, start, end, rows, tuple_bytes, errno)

   Feeds the whole SQ_TUPLE messages of ``buffer[start:end]`` into the columns, receives more
   from ``fd`` into the buffer's free tail (moving the unparsed bytes to its front when fewer
   than ``min_free`` bytes are free, as Transport.room does), and so on, until the bytes at
   ``start`` are something the reply parser must see: another message, a tuple with a negative
   size or one larger than ``tuple_limit`` or than the buffer, the tuple that would take the
   rows past ``budget`` bytes, a run the decoder refuses (left where it is, unfed). Then
   status P_STOP; P_EOF, P_ERROR (with errno) and P_TIMEOUT (no byte within ``timeout_ms``,
   -1 for none) are the receive's failures, the caller raises them. EINTR returns P_STOP so
   that Python runs its signal handlers. ``rows`` and ``tuple_bytes`` count what was fed.
   The buffer (a bytearray) stays exported throughout: nothing can resize it meanwhile. */
static PyObject *columns_pump(Columns *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 8) {
        PyErr_SetString(PyExc_TypeError,
                        "pump(fd, buffer, start, end, budget, tuple_limit, min_free, timeout_ms)");
        return NULL;
    }
    int fd = (int)PyLong_AsLong(args[0]);
    Py_ssize_t start = PyLong_AsSsize_t(args[2]);
    Py_ssize_t end = PyLong_AsSsize_t(args[3]);
    Py_ssize_t budget = PyLong_AsSsize_t(args[4]);
    Py_ssize_t limit = PyLong_AsSsize_t(args[5]);
    Py_ssize_t min_free = PyLong_AsSsize_t(args[6]);
    int timeout = (int)PyLong_AsLong(args[7]);
    if (PyErr_Occurred() || columns_live(self) < 0)
        return NULL;
    Py_buffer view;
    if (PyObject_GetBuffer(args[1], &view, PyBUF_WRITABLE) < 0)
        return NULL;
    unsigned char *buf = (unsigned char *)view.buf;
    Py_ssize_t size = view.len;
    if (fd < 0 || start < 0 || end > size || start > end) {
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_ValueError, "ifxwire._arrowdec: pump outside the buffer");
        return NULL;
    }
    Py_ssize_t fed_rows = 0, fed_bytes = 0;
    int status = P_STOP, err = 0;
    self->busy = 1; /* until it returns: take() must not free what the loop writes */
    for (;;) {
        /* the run of whole tuples at start, within the budget */
        Py_ssize_t pos = start, count = 0, need = 0;
        int other = 0;
        while (end - pos >= 2) {
            if (buf[pos] != 0 || buf[pos + 1] != SQ_TUPLE) {
                other = 1;
                break;
            }
            if (end - pos < 8) {
                need = 8;
                break;
            }
            int32_t tsize = (int32_t)be32(buf + pos + 4);
            if (tsize < 0 || tsize > limit) {
                other = 1;
                break;
            }
            Py_ssize_t nxt = pos + 8 + (Py_ssize_t)tsize + (tsize & 1);
            if (nxt - start + fed_bytes > budget) {
                other = 1;
                break;
            }
            if (nxt > end) {
                need = nxt - pos;
                break;
            }
            pos = nxt;
            count++;
        }
        if (count) {
            int r = cols_feed(self, buf + start, pos - start, count);
            if (r < 0)
                goto fail;
            if (r == 0)
                break; /* refused: the reply parser takes the run (to the row decoder) */
            fed_rows += count;
            fed_bytes += pos - start;
            start = pos;
        }
        if (other || need > size)
            break;
        /* room for the rest, then one receive */
        if (start == end)
            start = end = 0;
        else if (size - end < min_free || need > size - start) {
            memmove(buf, buf + start, (size_t)(end - start));
            end -= start;
            start = 0;
        }
        ssize_t got;
        int polled = 0;
        Py_BEGIN_ALLOW_THREADS
        for (;;) {
            got = recv(fd, buf + end, (size_t)(size - end), MSG_DONTWAIT);
            if (got >= 0 || (errno != EAGAIN && errno != EWOULDBLOCK) || polled)
                break;
            struct pollfd pfd = {fd, POLLIN, 0};
            int n = poll(&pfd, 1, timeout);
            if (n <= 0) {
                got = n == 0 ? -2 : -1;
                break;
            }
            polled = 1;
        }
        if (got == -1)
            err = errno;
        Py_END_ALLOW_THREADS
        if (got == -2) {
            status = P_TIMEOUT;
            break;
        }
        if (got < 0) {
            if (err == EINTR || err == EAGAIN || err == EWOULDBLOCK)
                break; /* Python's own receive takes it from here (signals, a spurious wake) */
            status = P_ERROR;
            break;
        }
        if (got == 0) {
            status = P_EOF;
            break;
        }
        end += got;
    }
    self->busy = 0;
    PyBuffer_Release(&view);
    return Py_BuildValue("(innnni)", status, start, end, fed_rows, fed_bytes, err);
fail:
    self->busy = 0;
    PyBuffer_Release(&view);
    return NULL;
}
#endif

/* columns() -> [(null_count, validity or None, data, offsets or None)] of the rows fed so
   far, as decode() gives them. */
static PyObject *columns_columns(Columns *self, PyObject *Py_UNUSED(ignored))
{
    if (self->taken != NULL) /* the buffers are the Blocks now */
        return columns_taken(self);
    return cols_result(self->cols, self->ncols, self->rows);
}

/* ---------------------------------------------------------------------------------------
   Block: a buffer the columns owned, handed over by take() instead of copied into bytes
   (a 100k-row table's ~4 MB were copied into fresh bytes, page faults included, only for
   the Columns to free its own copy right after). Read-only, freed with the Block; pyarrow
   keeps the Block alive (py_buffer holds the exporter) as long as an array uses it. */
typedef struct {
    PyObject_HEAD
    void *p;
    Py_ssize_t len;
} Block;

static void block_dealloc(Block *self)
{
    PyMem_Free(self->p);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int block_getbuffer(Block *self, Py_buffer *view, int flags)
{
    return PyBuffer_FillInfo(view, (PyObject *)self, self->p, self->len, 1, flags);
}

static Py_ssize_t block_length(Block *self)
{
    return self->len;
}

static PyBufferProcs block_as_buffer = {(getbufferproc)block_getbuffer, NULL};
static PySequenceMethods block_as_sequence = {.sq_length = (lenfunc)block_length};

static PyTypeObject BlockType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ifxwire._arrowdec.Block",
    .tp_basicsize = sizeof(Block),
    .tp_dealloc = (destructor)block_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "a read-only buffer handed over by Columns.take() (freed with the Block)",
    .tp_as_buffer = &block_as_buffer,
    .tp_as_sequence = &block_as_sequence,
};

/* The first ``n`` bytes at ``*pp`` as a Block that owns them; ``*pp`` is then NULL. Not
   trimmed to ``n`` (the columns grow by doubling): shrinking the ~8 MB block of a 100k-row
   LIST column with realloc gave it back to the system, and the next fetch's columns took
   ~500 page faults more (measured, docs/ARROW.md); a string or list column's unused tail
   was never written, so its pages are not resident. */
static PyObject *block_take(unsigned char **pp, Py_ssize_t n)
{
    Block *b = PyObject_New(Block, &BlockType);
    if (b == NULL)
        return NULL;
    b->p = *pp;
    b->len = n;
    *pp = NULL;
    return (PyObject *)b;
}

/* take() -> [(null_count, validity or None, data, offsets or None)] as columns() gives
   them, each buffer a Block holding the columns' own memory: no copy. The Columns is spent:
   feed and pump raise ValueError afterwards; take and columns give the same Blocks again. */
static PyObject *columns_take(Columns *self, PyObject *Py_UNUSED(ignored))
{
    if (self->taken != NULL)
        return columns_taken(self);
    if (columns_live(self) < 0) /* another thread's feed or pump writes into them */
        return NULL;
    Py_ssize_t ncols = self->ncols, rows = self->rows;
    if (cols_reserve(self->cols, ncols, &self->rcap, rows, 0, self->enc) < 0)
        return NULL; /* (no rows fed: the buffers were never allocated) */
    PyObject *result = PyList_New(ncols);
    if (result == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < ncols; i++) {
        Col *c = &self->cols[i];
        PyObject *validity = c->nulls ? block_take(&c->validity, (rows + 7) / 8)
                                      : Py_NewRef(Py_None);
        PyObject *data = block_take(&c->data, data_size(c, rows));
        PyObject *offsets = c->offsets != NULL
                                ? block_take((unsigned char **)&c->offsets,
                                             (rows + 1) * (Py_ssize_t)sizeof(int32_t))
                                : Py_NewRef(Py_None);
        PyObject *t = NULL;
        if (validity != NULL && data != NULL && offsets != NULL)
            t = Py_BuildValue("(nOOO)", c->nulls, validity, data, offsets);
        Py_XDECREF(validity);
        Py_XDECREF(data);
        Py_XDECREF(offsets);
        if (t == NULL) { /* some buffers are gone with the Blocks: the Columns is spent */
            self->taken = Py_NewRef(Py_None);
            Py_DECREF(result);
            return NULL;
        }
        PyList_SET_ITEM(result, i, t);
    }
    self->taken = Py_NewRef(result);
    return result;
}

static PyObject *columns_rows(Columns *self, void *Py_UNUSED(closure))
{
    return PyLong_FromSsize_t(self->rows);
}

static PyMethodDef columns_methods[] = {
    {"feed", (PyCFunction)(void (*)(void))columns_feed, METH_FASTCALL,
     "feed(buffer, pos, end, count) -> bool: decode a run of whole tuples after the others"},
#ifndef _WIN32
    {"pump", (PyCFunction)(void (*)(void))columns_pump, METH_FASTCALL,
     "pump(fd, buffer, start, end, budget, tuple_limit, min_free, timeout_ms) -> "
     "(status, start, end, rows, tuple_bytes, errno): receive and feed whole tuples"},
#endif
    {"columns", (PyCFunction)columns_columns, METH_NOARGS,
     "columns() -> [(nulls, validity, data, offsets)] of the rows fed so far"},
    {"take", (PyCFunction)columns_take, METH_NOARGS,
     "take() -> columns() with the buffers handed over (Blocks, no copy); the Columns is spent"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef columns_getset[] = {
    {"rows", (getter)columns_rows, NULL, "rows fed so far", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject ColumnsType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ifxwire._arrowdec.Columns",
    .tp_basicsize = sizeof(Columns),
    .tp_dealloc = (destructor)columns_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Columns(plan, enc_kind, keep): one reply's columns, decoded run by run (feed)",
    .tp_methods = columns_methods,
    .tp_getset = columns_getset,
    .tp_new = columns_new,
};

/* ---------------------------------------------------------------------------------------
   text_value: fetchall's reader of a numeric collection in the text form (arrow14), the
   row decoder's per-value call for a text-form column of SMALLINT/INTEGER/BIGINT or
   SMALLFLOAT/FLOAT elements (types/compositetext.envelope_text_decoder). */

static PyObject *str_element_type;

/* text_value(buf, off, opener, ek, cls, etext) -> (value, end)

   The UDT envelope at ``buf[off:]`` (u8 flag, u32 length, text): flag 1 gives None; text
   ``opener`` n,n,...} (``opener`` e.g. b"LIST{") gives ``cls`` of its elements with
   ``element_type`` ``etext``, ints (``ek`` 0: -?[0-9]{1,18}) or floats (``ek`` 1: the syntax
   of text_number, read by Python's own float parser, so the value is float()'s). A ``cls``
   that is a list subclass (List, Multiset) is filled in place, as its __init__ would;
   another (Set) is called with the list and ``etext``. Anything else (a NULL element, a
   blank, a longer number, another spelling, a value past the buffer) gives
   (NotImplemented, off): the Python reader then gives the value or its typed error. */
static PyObject *text_value(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 6 || !PyBytes_Check(args[2]) || !PyType_Check(args[4])) {
        PyErr_SetString(PyExc_TypeError, "text_value(buf, off, opener, ek, cls, etext)");
        return NULL;
    }
    Py_ssize_t off = PyLong_AsSsize_t(args[1]);
    int ek = (int)PyLong_AsLong(args[3]);
    if (PyErr_Occurred())
        return NULL;
    BufRef b;
    if (buf_get(args[0], &b) < 0)
        return NULL;
    PyObject *result = NULL, *items = NULL, *value = NULL;
    const unsigned char *op = (const unsigned char *)PyBytes_AS_STRING(args[2]);
    Py_ssize_t olen = PyBytes_GET_SIZE(args[2]);
    if (off < 0 || b.len - off < 5)
        goto other;
    Py_ssize_t n = (Py_ssize_t)be32(b.p + off + 1), end = off + 5 + n;
    if (n > b.len - off - 5)
        goto other;
    if (b.p[off] == 1) {
        result = Py_BuildValue("(On)", Py_None, end);
        goto done;
    }
    const unsigned char *t = b.p + off + 5, *stop = b.p + end;
    if (b.p[off] != 0 || n < olen + 1 || memcmp(t, op, (size_t)olen) || stop[-1] != '}')
        goto other;
    t += olen;
    stop--;
    PyTypeObject *cls = (PyTypeObject *)args[4];
    int in_place = PyType_IsSubtype(cls, &PyList_Type);
    if (in_place) {
        PyObject *empty = PyTuple_New(0);
        if (empty == NULL)
            goto done;
        items = PyList_Type.tp_new(cls, empty, NULL);
        Py_DECREF(empty);
    }
    else
        items = PyList_New(0);
    if (items == NULL)
        goto done;
    while (t < stop) {
        PyObject *item;
        const unsigned char *s0 = t;
        if (ek == LK_FLOAT) {
            double unused;
            const unsigned char *after = text_number(t, stop, &unused);
            if (after == NULL)
                goto other;
            char tmp[81];
            memcpy(tmp, s0, (size_t)(after - s0));
            tmp[after - s0] = 0;
            double d = PyOS_string_to_double(tmp, NULL, NULL);
            if (d == -1.0 && PyErr_Occurred())
                goto done;
            item = PyFloat_FromDouble(d);
            t = after;
        }
        else {
            int neg = t < stop && *t == '-';
            t += neg;
            const unsigned char *d0 = t;
            long long mag = 0;
            while (t < stop && *t >= '0' && *t <= '9') {
                if (t - d0 >= 18)
                    goto other;
                mag = mag * 10 + (*t - '0');
                t++;
            }
            if (t == d0)
                goto other;
            item = PyLong_FromLongLong(neg ? -mag : mag);
        }
        if (item == NULL)
            goto done;
        int r = PyList_Append(items, item);
        Py_DECREF(item);
        if (r < 0)
            goto done;
        if (t < stop) {
            if (*t != ',' || t + 1 == stop)
                goto other;
            t++;
        }
    }
    if (in_place) {
        if (PyObject_SetAttr(items, str_element_type, args[5]) < 0)
            goto done;
        value = Py_NewRef(items);
    }
    else {
        value = PyObject_CallFunctionObjArgs(args[4], items, args[5], NULL);
        if (value == NULL)
            goto done;
    }
    result = Py_BuildValue("(On)", value, end);
    goto done;
other:
    result = Py_BuildValue("(On)", Py_NotImplemented, off);
done:
    Py_XDECREF(items);
    Py_XDECREF(value);
    PyBuffer_Release(&b.view);
    return result;
}

static PyMethodDef module_methods[] = {
    {"tuple_run", (PyCFunction)(void (*)(void))tuple_run, METH_FASTCALL,
     "tuple_run(buffer, pos, end) -> (pos, count): the run of complete SQ_TUPLE messages"},
    {"text_value", (PyCFunction)(void (*)(void))text_value, METH_FASTCALL,
     "text_value(buf, off, opener, ek, cls, etext) -> (value, end): a numeric collection's "
     "text form, or (NotImplemented, off)"},
    {"decode", (PyCFunction)(void (*)(void))decode, METH_FASTCALL,
     "decode(run, count, plan, enc_kind, keep) -> [(nulls, validity, data, offsets)] or None"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef arrowdec_module = {
    PyModuleDef_HEAD_INIT, "ifxwire._arrowdec",
    "SQ_TUPLE payloads straight into Arrow column buffers (see docs/ARROW.md).", -1,
    module_methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__arrowdec(void)
{
    if (PyType_Ready(&ColumnsType) < 0 || PyType_Ready(&BlockType) < 0)
        return NULL;
#if defined(__GLIBC__)
    if (c_numeric == (locale_t)0)
        c_numeric = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
#endif
    if (str_element_type == NULL && (str_element_type = PyUnicode_InternFromString("element_type")) == NULL)
        return NULL;
    PyObject *m = PyModule_Create(&arrowdec_module);
    if (m == NULL)
        return NULL;
    if (PyModule_AddObjectRef(m, "Columns", (PyObject *)&ColumnsType) < 0 ||
        PyModule_AddObjectRef(m, "Block", (PyObject *)&BlockType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
