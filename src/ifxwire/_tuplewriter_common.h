/* ifxwire._tuplewriter, part "common": what every other part uses: the column kinds and code
 * sets, Col and TupleWriter, the output buffer, the big-endian writers, date ordinals and a
 * str's bytes in the code set. Included once, in order, by _tuplewriter.c (one translation
 * unit, so gcc inlines across the parts as it did in one file): not a header of its own. */

enum {
    K_CALL = 0,
    K_SMALLINT = 1,
    K_INTEGER = 2,
    K_BIGINT = 3,
    K_FLOAT = 4,
    K_CHAR = 5,
    K_VARCHAR = 6,
    K_LVARCHAR = 7,
    K_DATE = 8,
    K_DATETIME = 9,
    K_DECIMAL = 10,
    K_LAST = 10
};

static PyObject *Decimal_Type; /* decimal.Decimal, taken at import */

enum { E_OTHER = 0, E_LATIN1 = 1, E_UTF8 = 2, E_ASCII = 3 };

typedef struct {
    int kind;
    long long arg;
    PyObject *fn;
    PyObject *null; /* bytes or NULL */
} Col;

typedef struct {
    PyObject_VAR_HEAD
    vectorcallfunc vectorcall;
    int enc_kind;
    PyObject *pure;
    PyObject *plan;
    unsigned char *scratch;
    size_t cap;
    Col cols[1];
} TupleWriter;

static PyTypeObject TupleWriter_Type;

/* ---- output buffer ----------------------------------------------------------------------- */

static int reserve(TupleWriter *self, size_t need)
{
    if (need <= self->cap)
        return 0;
    size_t cap = self->cap ? self->cap : 256;
    while (cap < need)
        cap *= 2;
    unsigned char *p = PyMem_Realloc(self->scratch, cap);
    if (p == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    self->scratch = p;
    self->cap = cap;
    return 0;
}

#define NEED(n) do { if (reserve(self, len + (size_t)(n)) < 0) return -1; } while (0)

static inline void be16(unsigned char *p, uint16_t v) { p[0] = (unsigned char)(v >> 8); p[1] = (unsigned char)v; }
static inline void be32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)(v >> 24); p[1] = (unsigned char)(v >> 16);
    p[2] = (unsigned char)(v >> 8); p[3] = (unsigned char)v;
}
static inline void be64(unsigned char *p, uint64_t v)
{
    be32(p, (uint32_t)(v >> 32));
    be32(p + 4, (uint32_t)v);
}

/* Days since 0001-01-01 plus one (Python's date.toordinal) of a proleptic Gregorian date. */
static long ordinal_of(int y, int m, int d)
{
    static const int before[] = {0, 0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334};
    long yy = y - 1;
    long days = yy * 365 + yy / 4 - yy / 100 + yy / 400 + before[m] + d;
    if (m > 2 && ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0))
        days += 1;
    return days;
}

/* The bytes of a str in the code set, when they can be had without a codec call:
 * 1 with s and n set, 0 when the value must go to the Python encoder, -1 on error. */
static int text_bytes(int enc_kind, PyObject *v, const char **s, Py_ssize_t *n)
{
    if (!PyUnicode_CheckExact(v) || enc_kind == E_OTHER)
        return 0;
    if (PyUnicode_IS_ASCII(v)) {
        *s = (const char *)PyUnicode_DATA(v);
        *n = PyUnicode_GET_LENGTH(v);
        return 1;
    }
    if (enc_kind == E_LATIN1 && PyUnicode_KIND(v) == PyUnicode_1BYTE_KIND) {
        *s = (const char *)PyUnicode_DATA(v);
        *n = PyUnicode_GET_LENGTH(v);
        return 1;
    }
    if (enc_kind == E_UTF8) {
        const char *u = PyUnicode_AsUTF8AndSize(v, n);
        if (u == NULL) { /* lone surrogates: the codec's own error comes from fn */
            PyErr_Clear();
            return 0;
        }
        *s = u;
        return 1;
    }
    return 0;
}

