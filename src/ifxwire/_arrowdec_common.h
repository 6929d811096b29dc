/* ifxwire._arrowdec, part "common": what every other part uses: the column kinds and code sets,
 * the big-endian readers, SSE2's four-at-a-time swap, the C locale's strtod, civil dates, the
 * buffer reference (BufRef) and tuple_run. Included once, in order, by _arrowdec.c (one
 * translation unit, so gcc inlines across the parts as it did in one file): not a header of its
 * own. */

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

