/* ifxwire._tuplewriter: the server's SQ_TUPLE encoder, compiled (issue 26, Speed).
 *
 * ifxwire-server spent about 3.3 us of Python per row building SQ_TUPLE messages
 * (types/rowcodec.py build_row_encoder: one closure call per cell, a join, then put_tuple's
 * three packs and the pad). This module does the same from SQLite's rows in C, and it can also
 * drive the row iterator itself, so a fetch reply costs no Python call per row beyond the
 * iterator's own (the engine's generator over sqlite3's fetchmany).
 *
 * make_tuple_writer(plan, enc_kind, pure) -> TupleWriter
 *   plan: one (kind, fn, arg, null) per column, computed in Python (ifxwire.server.tuples):
 *     kind  one of the K_* below; K_CALL for every type encoded only in Python;
 *     fn    the column's Python encoder (value -> field bytes), the reference: any value the
 *           inline path does not take exactly as the pure path would (a subclass, an int out
 *           of range, a string that does not fit or does not encode...) goes to fn;
 *     arg   VARCHAR: the byte limit; CHAR: the width; LVARCHAR: the limit or -1; DATE: the
 *           ordinal of the epoch day (1899-12-31); others 0;
 *     null  the field's NULL bytes (fn(None)), or None for K_CALL.
 *   enc_kind: 1 Latin-1, 2 UTF-8, 3 ASCII, 0 any other code set (text goes to fn then).
 *   pure: the pure row encoder (values -> payload). When fn raises, or returns other than
 *     bytes, the row is encoded again by ``pure``, which raises the exact exception, with the
 *     column's name in its message, that the pure path raises (or returns the payload).
 *
 * writer(row) -> bytes: the payload of one row (no SQ_TUPLE header), as ``pure(row)``.
 * writer.write(buf, rows, budget) -> (count, sent, exhausted): appends SQ_TUPLE messages
 *   (u16 14, i16 0, i32 length, payload, a pad byte when the length is odd) to the bytearray
 *   ``buf`` for rows taken from the iterator ``rows`` until ``sent`` (payload + 8 per row, as
 *   server/session.py counts) reaches ``budget`` or the iterator ends (exhausted is True then).
 *   An exception from the iterator or from ``pure`` propagates; the messages of the rows
 *   before it stay in ``buf``, as with the pure loop.
 *
 * load_rows(batch, plan): the engine's value loaders over a batch of SQLite rows (below);
 *   load_planned(plan, batch) the same, for functools.partial.
 * decode_bind_row(buf, pos, end, plan, encoding): one executemany row's SQ_BIND items of known
 *   headers (server/bindrun.py; below).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <datetime.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

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

/* Append the field of one value at self->scratch + *plen. Returns 0, 1 when the row must be
 * encoded by ``pure`` (fn raised or returned other than bytes; no exception set), -1 on a
 * memory error. */
/* ---- DATETIME ------------------------------------------------------------------------------
 * Informix units: YEAR 0, MONTH 2, DAY 4, HOUR 6, MINUTE 8, SECOND 10, FRACTION(n) 10 + n.
 * Field slots 0..6: year, month, day, hour, minute, second, microsecond; -1 where the value
 * has no such field (a time's date). */
static const int DT_MIN[6] = {1, 1, 1, 0, 0, 0};
static const int DT_MAX[6] = {9999, 12, 31, 23, 59, 59};

static int dt_fields_of(PyObject *v, int f[7])
{
    if (PyDateTime_CheckExact(v)) {
        if (PyDateTime_DATE_GET_TZINFO(v) != Py_None)
            return 0;
        f[0] = PyDateTime_GET_YEAR(v);
        f[1] = PyDateTime_GET_MONTH(v);
        f[2] = PyDateTime_GET_DAY(v);
        f[3] = PyDateTime_DATE_GET_HOUR(v);
        f[4] = PyDateTime_DATE_GET_MINUTE(v);
        f[5] = PyDateTime_DATE_GET_SECOND(v);
        f[6] = PyDateTime_DATE_GET_MICROSECOND(v);
        return 1;
    }
    if (PyDate_CheckExact(v)) {
        f[0] = PyDateTime_GET_YEAR(v);
        f[1] = PyDateTime_GET_MONTH(v);
        f[2] = PyDateTime_GET_DAY(v);
        f[3] = f[4] = f[5] = f[6] = 0;
        return 1;
    }
    if (PyTime_CheckExact(v)) {
        if (PyDateTime_TIME_GET_TZINFO(v) != Py_None)
            return 0;
        f[0] = f[1] = f[2] = -1;
        f[3] = PyDateTime_TIME_GET_HOUR(v);
        f[4] = PyDateTime_TIME_GET_MINUTE(v);
        f[5] = PyDateTime_TIME_GET_SECOND(v);
        f[6] = PyDateTime_TIME_GET_MICROSECOND(v);
        return 1;
    }
    return 0;
}

/* The tuple field of DATETIME qualifier q from fields f into out (at least 16 bytes): its
 * length, or 0 when the Python encoder must decide (temporal.encode_datetime, the reference:
 * the named fields' digits, FRACTION(n) the first n digits of the microseconds, as base-100
 * pairs after a head byte 0x80 | (exponent + 64), the exponent counting whole pairs down to
 * SECOND). */
static Py_ssize_t put_datetime(unsigned char *out, long long q, const int f[7])
{
    int total = (int)((q >> 8) & 0xFF), start = (int)((q >> 4) & 0x0F), end = (int)(q & 0x0F);
    if (start > 10 || (start & 1) || end < start || (end < 10 && (end & 1)))
        return 0;
    char digits[24];
    int nd = 0;
    for (int u = start; u <= (end < 10 ? end : 10); u += 2) {
        int slot = u / 2, v = f[slot];
        if (v < DT_MIN[slot] || v > DT_MAX[slot])
            return 0;
        if (u == 0) {
            digits[nd++] = (char)('0' + v / 1000);
            digits[nd++] = (char)('0' + v / 100 % 10);
        }
        digits[nd++] = (char)('0' + v / 10 % 10);
        digits[nd++] = (char)('0' + v % 10);
    }
    int frac = end > 10 ? end - 10 : 0;
    if (frac) {
        int v = f[6];
        if (v < 0 || v > 999999)
            return 0;
        for (int k = frac; k < 6; k++)
            v /= 10;
        for (int k = frac - 1; k >= 0; k--) {
            digits[nd + k] = (char)('0' + v % 10);
            v /= 10;
        }
        nd += frac;
    }
    if (nd != total)
        return 0;
    int integer = total - frac + (end < 10 ? 10 - end : 0);
    int lead = integer % 2;
    int ndig = lead + nd;
    int pairs = (ndig + 1) / 2;
    if (1 + pairs != (total + (end & 1) + 3) / 2)
        return 0;
    out[0] = (unsigned char)(0x80 | ((integer + 1) / 2 + 64));
    for (int i = 0; i < pairs; i++) {
        int a = 2 * i - lead, b = a + 1;
        int hi = a >= 0 && a < nd ? digits[a] - '0' : 0;
        int lo = b >= 0 && b < nd ? digits[b] - '0' : 0;
        out[1 + i] = (unsigned char)(hi * 10 + lo);
    }
    return 1 + pairs;
}


/* ---- DECIMAL(p,s) / MONEY(p,s) -----------------------------------------------------------
 * numeric.decimal_encoder's short way, for an exact Decimal whose plain text already has the
 * column's scale (what the server's loader makes of a stored fixed-scale value): the unscaled
 * digits as base-100 pairs after a head byte 0xC0 + exponent (negative values: the head
 * (exponent + 64) ^ 0x7F and the pairs' 100-complement), zero pairs to the column's width.
 * 0 when the value must go to the Python encoder (rounding, exponent notation, too many
 * digits, NaN, another type: it decides, and raises what names the column's type). */
static Py_ssize_t put_decimal(unsigned char *out, long long enclen, PyObject *v)
{
    if (Decimal_Type == NULL || Py_TYPE(v) != (PyTypeObject *)Decimal_Type)
        return 0;
    int p = (int)((enclen >> 8) & 0xFF), sc = (int)(enclen & 0xFF);
    if (p < 1 || p > 32 || sc > p)
        return 0;
    int width = (p + (sc & 1) + 3) / 2;
    PyObject *text = PyObject_Str(v);
    if (text == NULL) {
        PyErr_Clear();
        return 0;
    }
    Py_ssize_t n;
    const char *t = PyUnicode_AsUTF8AndSize(text, &n);
    if (t == NULL) {
        PyErr_Clear();
        Py_DECREF(text);
        return 0;
    }
    char ds[72];
    int nd = 0, negative = 0, fraction = -1;
    Py_ssize_t i = 0;
    if (i < n && t[i] == '-') {
        negative = 1;
        i++;
    }
    int any = 0;
    for (; i < n; i++) {
        char ch = t[i];
        if (ch >= '0' && ch <= '9') {
            any = 1;
            if (fraction >= 0)
                fraction++;
            if (nd == 0 && ch == '0' && fraction < 0)
                continue; /* leading zeros of the integer part */
            if (nd >= 66)
                break;
            ds[nd++] = ch;
        } else if (ch == '.' && fraction < 0) {
            fraction = 0;
        } else {
            break;
        }
    }
    Py_DECREF(text);
    if (i != n || !any || (fraction < 0 ? 0 : fraction) != sc || (sc > 0 && fraction < 0))
        return 0;
    /* ds holds the integer digits (no leading zeros) then exactly sc fraction digits */
    if (nd - sc > p - sc)
        return 0;
    int lead = 0;
    while (lead < nd && ds[lead] == '0')
        lead++;
    if (lead == nd) { /* zero, also -0.00: the positive zero */
        memset(out, 0, (size_t)width);
        out[0] = 0x80;
        return width;
    }
    char *d = ds + lead;
    int m = nd - lead;
    if (sc & 1)
        d[m++] = '0';
    int shift = m & 1; /* a leading '0' to make whole pairs */
    int pairs_all = (m + shift) / 2;
    int exponent = pairs_all - (sc + 1) / 2;
    while (m > 0 && d[m - 1] == '0')
        m--;
    int npairs = (m + shift + 1) / 2;
    if (npairs >= width)
        return 0;
    unsigned char digits[40];
    for (int k = 0; k < npairs; k++) {
        int a = 2 * k - shift, b = a + 1;
        int hi = a >= 0 && a < m ? d[a] - '0' : 0;
        int lo = b >= 0 && b < m ? d[b] - '0' : 0;
        digits[k] = (unsigned char)(hi * 10 + lo);
    }
    memset(out, 0, (size_t)width);
    if (!negative) {
        out[0] = (unsigned char)(0xC0 + exponent);
        memcpy(out + 1, digits, (size_t)npairs);
        return width;
    }
    out[0] = (unsigned char)((exponent + 64) ^ 0x7F);
    int last = npairs - 1;
    while (last >= 0 && digits[last] == 0)
        last--;
    for (int k = 0; k < last; k++)
        out[1 + k] = (unsigned char)(99 - digits[k]);
    out[1 + last] = (unsigned char)(100 - digits[last]);
    if (out[0] == 0 && width > 1 && out[1] == 0)
        return 0; /* would read as NULL: the Python encoder raises */
    return width;
}

static int put_field(TupleWriter *self, const Col *c, PyObject *v, size_t *plen)
{
    size_t len = *plen;
    unsigned char *p;
    if (v == Py_None && c->null != NULL) {
        Py_ssize_t n = PyBytes_GET_SIZE(c->null);
        NEED(n);
        memcpy(self->scratch + len, PyBytes_AS_STRING(c->null), (size_t)n);
        *plen = len + (size_t)n;
        return 0;
    }
    switch (c->kind) {
    case K_SMALLINT:
    case K_INTEGER:
    case K_BIGINT:
        if (PyLong_CheckExact(v)) {
            int overflow = 0;
            long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
            if (x == -1 && PyErr_Occurred())
                PyErr_Clear();
            else if (!overflow && x >= -c->arg && x <= c->arg) {
                NEED(8);
                p = self->scratch + len;
                if (c->kind == K_SMALLINT) {
                    be16(p, (uint16_t)(int16_t)x);
                    *plen = len + 2;
                } else if (c->kind == K_INTEGER) {
                    be32(p, (uint32_t)(int32_t)x);
                    *plen = len + 4;
                } else {
                    be64(p, (uint64_t)x);
                    *plen = len + 8;
                }
                return 0;
            }
        }
        break;
    case K_FLOAT:
        if (PyFloat_CheckExact(v)) {
            double d = PyFloat_AS_DOUBLE(v);
            if (isfinite(d)) {
                uint64_t bits;
                memcpy(&bits, &d, 8);
                NEED(8);
                be64(self->scratch + len, bits);
                *plen = len + 8;
                return 0;
            }
        }
        break;
    case K_CHAR:
    case K_VARCHAR:
    case K_LVARCHAR: {
        const char *s;
        Py_ssize_t n;
        int r = text_bytes(self->enc_kind, v, &s, &n);
        if (r <= 0)
            break;
        if (c->kind == K_VARCHAR) {
            if (n > c->arg || (n == 1 && s[0] == 0))
                break;
            NEED(1 + n);
            p = self->scratch + len;
            p[0] = (unsigned char)n;
            memcpy(p + 1, s, (size_t)n);
            *plen = len + 1 + (size_t)n;
        } else if (c->kind == K_CHAR) {
            if (n > c->arg || (n > 0 && s[0] == 0))
                break;
            NEED(c->arg);
            p = self->scratch + len;
            memcpy(p, s, (size_t)n);
            memset(p + n, ' ', (size_t)(c->arg - n));
            *plen = len + (size_t)c->arg;
        } else {
            if ((c->arg >= 0 && n > c->arg) || (n > 0 && s[n - 1] == 0) || n > 0xFFFFFFFFLL)
                break;
            NEED(5 + n);
            p = self->scratch + len;
            p[0] = 0;
            be32(p + 1, (uint32_t)n);
            memcpy(p + 5, s, (size_t)n);
            *plen = len + 5 + (size_t)n;
        }
        return 0;
    }
    case K_DATE:
        if (PyDate_CheckExact(v)) {
            long days = ordinal_of(PyDateTime_GET_YEAR(v), PyDateTime_GET_MONTH(v),
                                   PyDateTime_GET_DAY(v)) - (long)c->arg;
            NEED(4);
            be32(self->scratch + len, (uint32_t)(int32_t)days);
            *plen = len + 4;
            return 0;
        }
        break;
    case K_DECIMAL:
        NEED(40);
        {
            Py_ssize_t n = put_decimal(self->scratch + len, c->arg, v);
            if (n > 0) {
                *plen = len + (size_t)n;
                return 0;
            }
        }
        break;
    case K_DATETIME: {
        int f[7];
        if (dt_fields_of(v, f)) {
            NEED(24);
            Py_ssize_t n = put_datetime(self->scratch + len, c->arg, f);
            if (n > 0) {
                *plen = len + (size_t)n;
                return 0;
            }
        }
        break;
    }
    default:
        break;
    }
    /* Everything else: the column's Python encoder. */
    PyObject *b = PyObject_CallOneArg(c->fn, v);
    if (b == NULL) {
        PyErr_Clear();
        return 1;
    }
    if (!PyBytes_Check(b)) {
        Py_DECREF(b);
        return 1;
    }
    Py_ssize_t n = PyBytes_GET_SIZE(b);
    if (reserve(self, len + (size_t)n) < 0) {
        Py_DECREF(b);
        return -1;
    }
    memcpy(self->scratch + len, PyBytes_AS_STRING(b), (size_t)n);
    Py_DECREF(b);
    *plen = len + (size_t)n;
    return 0;
}

/* Encode one row into self->scratch from offset ``start``. Returns the payload length, or -1
 * with an exception set; when the row needs ``pure``, *pure_out receives its bytes. */
static Py_ssize_t encode_row(TupleWriter *self, PyObject *row, size_t start, PyObject **pure_out)
{
    *pure_out = NULL;
    Py_ssize_t ncols = Py_SIZE(self);
    PyObject *seq = PySequence_Fast(row, "a row must be a sequence");
    if (seq == NULL)
        return -1;
    int r = 0;
    size_t len = start;
    if (PySequence_Fast_GET_SIZE(seq) != ncols) {
        r = 1;
    } else {
        PyObject **items = PySequence_Fast_ITEMS(seq);
        for (Py_ssize_t i = 0; i < ncols && r == 0; i++)
            r = put_field(self, &self->cols[i], items[i], &len);
    }
    Py_DECREF(seq);
    if (r < 0)
        return -1;
    if (r == 0)
        return (Py_ssize_t)(len - start);
    /* The reference encoder decides: the exact exception, or the payload. */
    PyObject *b = PyObject_CallOneArg(self->pure, row);
    if (b == NULL)
        return -1;
    if (!PyBytes_Check(b)) {
        Py_DECREF(b);
        PyErr_SetString(PyExc_TypeError, "the pure tuple encoder returned other than bytes");
        return -1;
    }
    *pure_out = b;
    return PyBytes_GET_SIZE(b);
}

static PyObject *TupleWriter_vectorcall(PyObject *callable, PyObject *const *args, size_t nargsf,
                                        PyObject *kwnames)
{
    TupleWriter *self = (TupleWriter *)callable;
    if (PyVectorcall_NARGS(nargsf) != 1 || kwnames != NULL) {
        PyErr_SetString(PyExc_TypeError, "TupleWriter takes one row");
        return NULL;
    }
    PyObject *pure_bytes;
    Py_ssize_t n = encode_row(self, args[0], 0, &pure_bytes);
    if (n < 0)
        return NULL;
    if (pure_bytes != NULL)
        return pure_bytes;
    return PyBytes_FromStringAndSize((const char *)self->scratch, n);
}

static PyObject *TupleWriter_write(TupleWriter *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3 || !PyByteArray_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "write(buf: bytearray, rows: iterator, budget: int)");
        return NULL;
    }
    PyObject *buf = args[0];
    PyObject *rows = args[1];
    long long budget = PyLong_AsLongLong(args[2]);
    if (budget == -1 && PyErr_Occurred())
        return NULL;
    if (!PyIter_Check(rows)) {
        PyErr_SetString(PyExc_TypeError, "rows must be an iterator");
        return NULL;
    }
    iternextfunc next = Py_TYPE(rows)->tp_iternext;
    Py_ssize_t count = 0;
    long long sent = 0;
    int exhausted = 0;
    for (;;) {
        PyObject *row = next(rows);
        if (row == NULL) {
            if (PyErr_Occurred()) {
                if (!PyErr_ExceptionMatches(PyExc_StopIteration))
                    return NULL;
                PyErr_Clear();
            }
            exhausted = 1;
            break;
        }
        PyObject *pure_bytes;
        /* 8 bytes of header first, the payload after them, the pad last. */
        Py_ssize_t n = encode_row(self, row, 8, &pure_bytes);
        Py_DECREF(row);
        if (n < 0)
            return NULL;
        const unsigned char *payload = pure_bytes != NULL
            ? (const unsigned char *)PyBytes_AS_STRING(pure_bytes) : self->scratch + 8;
        if (n > 0x7FFFFFFF) {
            Py_XDECREF(pure_bytes);
            PyErr_SetString(PyExc_OverflowError, "a tuple of more than 2 GiB");
            return NULL;
        }
        Py_ssize_t old = PyByteArray_GET_SIZE(buf);
        Py_ssize_t total = 8 + n + (n & 1);
        if (PyByteArray_Resize(buf, old + total) < 0) {
            Py_XDECREF(pure_bytes);
            return NULL;
        }
        unsigned char *dst = (unsigned char *)PyByteArray_AS_STRING(buf) + old;
        be16(dst, 14); /* SQ_TUPLE */
        be16(dst + 2, 0);
        be32(dst + 4, (uint32_t)n);
        memcpy(dst + 8, payload, (size_t)n);
        if (n & 1)
            dst[8 + n] = 0;
        Py_XDECREF(pure_bytes);
        count++;
        sent += n + 8;
        if (sent >= budget)
            break;
    }
    return Py_BuildValue("(nLO)", count, sent, exhausted ? Py_True : Py_False);
}

static PyMethodDef TupleWriter_methods[] = {
    {"write", (PyCFunction)(void (*)(void))TupleWriter_write, METH_FASTCALL,
     "write(buf, rows, budget) -> (count, sent, exhausted): SQ_TUPLE messages into buf"},
    {NULL, NULL, 0, NULL}};

static int TupleWriter_traverse(TupleWriter *self, visitproc visit, void *arg)
{
    Py_VISIT(self->pure);
    Py_VISIT(self->plan);
    return 0;
}

static int TupleWriter_clear(TupleWriter *self)
{
    Py_CLEAR(self->pure);
    Py_CLEAR(self->plan);
    return 0;
}

static void TupleWriter_dealloc(TupleWriter *self)
{
    PyObject_GC_UnTrack(self);
    TupleWriter_clear(self);
    PyMem_Free(self->scratch);
    PyObject_GC_Del(self);
}

static PyObject *TupleWriter_get_pure(TupleWriter *self, void *closure)
{
    return Py_NewRef(self->pure);
}

static PyGetSetDef TupleWriter_getset[] = {
    {"pure", (getter)TupleWriter_get_pure, NULL, "the pure row encoder (the reference)", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject TupleWriter_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ifxwire._tuplewriter.TupleWriter",
    .tp_basicsize = sizeof(TupleWriter) - sizeof(Col),
    .tp_itemsize = sizeof(Col),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_vectorcall_offset = offsetof(TupleWriter, vectorcall),
    .tp_call = PyVectorcall_Call,
    .tp_traverse = (traverseproc)TupleWriter_traverse,
    .tp_clear = (inquiry)TupleWriter_clear,
    .tp_dealloc = (destructor)TupleWriter_dealloc,
    .tp_methods = TupleWriter_methods,
    .tp_getset = TupleWriter_getset,
    .tp_doc = "A compiled SQ_TUPLE encoder (make_tuple_writer).",
};

static PyObject *make_tuple_writer(PyObject *module, PyObject *args)
{
    PyObject *plan, *pure;
    int enc_kind;
    if (!PyArg_ParseTuple(args, "O!iO", &PyTuple_Type, &plan, &enc_kind, &pure))
        return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(plan);
    if (n < 1) {
        PyErr_SetString(PyExc_ValueError, "a tuple writer needs at least one column");
        return NULL;
    }
    TupleWriter *self = PyObject_GC_NewVar(TupleWriter, &TupleWriter_Type, n);
    if (self == NULL)
        return NULL;
    self->vectorcall = TupleWriter_vectorcall;
    self->enc_kind = enc_kind;
    self->pure = Py_NewRef(pure);
    self->plan = Py_NewRef(plan);
    self->scratch = NULL;
    self->cap = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        Col *c = &self->cols[i];
        c->fn = NULL;
        c->null = NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PyTuple_GET_ITEM(plan, i);
        Col *c = &self->cols[i];
        PyObject *fn, *null;
        if (!PyArg_ParseTuple(item, "iOLO", &c->kind, &fn, &c->arg, &null))
            goto fail;
        if (c->kind < 0 || c->kind > K_LAST || !PyCallable_Check(fn)) {
            PyErr_Format(PyExc_ValueError, "bad plan item %zd", i);
            goto fail;
        }
        if (null != Py_None && !PyBytes_Check(null)) {
            PyErr_Format(PyExc_TypeError, "plan item %zd: null must be bytes or None", i);
            goto fail;
        }
        /* Borrowed from the plan, which the writer keeps. */
        c->fn = fn;
        c->null = null == Py_None ? NULL : null;
    }
    PyObject_GC_Track(self);
    return (PyObject *)self;
fail:
    Py_DECREF(self);
    return NULL;
}

/* ---- load_rows: the engine's per-column loaders over a batch of SQLite rows -------------
 *
 * load_rows(batch, plan) -> list | None
 *   batch: the list sqlite3's fetchmany returned (tuples);
 *   plan: one (index, kind, lo, hi, fn) per column that has a loader (engine/convert.py
 *     ``loader``; fn is the loader itself). The loaders return most SQLite values unchanged;
 *     those cases are checked here and the loader is called only for the others:
 *       L_INT (load_int): an exact int in [lo, hi] is kept;
 *       L_FLOAT (_load_float): an exact float is kept;
 *       L_CHARS (_load_chars): an exact str without NUL is kept;
 *       L_DT (a DATETIME's loader, lo/hi its start and end units): stored text of the
 *         canonical form 'YYYY-MM-DD HH:MM:SS.fffff' (the qualifier's fields, nothing
 *         omitted, at most 5 fraction digits) becomes the datetime, date or time
 *         values.dt_python makes; any other text, and the other qualifiers, go to fn;
 *       L_DATE (a DATE's loader, lo the ordinal of day 0): an exact int whose date is in
 *         years 1..9999 becomes that date (values.date_from_number); others go to fn;
 *       L_CALL: every value goes to fn.
 *     NULL (None) is never given to a loader (engine/session.py _stream).
 *   Returns the rows, each the same tuple when nothing changed. When a row is not a tuple
 *   or is narrower than the plan, or a loader raises an
 *   Exception, returns None with no exception set: the caller then runs its Python loop over
 *   the batch, which yields the rows before the bad one and raises exactly as before. Other
 *   exceptions (KeyboardInterrupt, MemoryError) propagate.
 */
enum { L_CALL = 0, L_INT = 1, L_FLOAT = 2, L_CHARS = 3, L_DT = 4, L_DATE = 5 };

static int has_nul(PyObject *v)
{
    Py_ssize_t n = PyUnicode_GET_LENGTH(v);
    const void *d = PyUnicode_DATA(v);
    switch (PyUnicode_KIND(v)) {
    case PyUnicode_1BYTE_KIND:
        return memchr(d, 0, (size_t)n) != NULL;
    case PyUnicode_2BYTE_KIND:
        for (Py_ssize_t i = 0; i < n; i++)
            if (((const Py_UCS2 *)d)[i] == 0)
                return 1;
        return 0;
    default:
        for (Py_ssize_t i = 0; i < n; i++)
            if (((const Py_UCS4 *)d)[i] == 0)
                return 1;
        return 0;
    }
}

/* values.dt_python of stored DATETIME text for start TO end, when the text has the canonical
 * form and the qualifier makes a datetime (YEAR TO HOUR..FRACTION), a date (YEAR TO DAY) or
 * a time (HOUR.. TO ..); NULL without an exception otherwise (fn then decides, and raises
 * what the engine raises for a bad value). */
static PyObject *dt_load(PyObject *v, int start, int end)
{
    if (!PyUnicode_CheckExact(v) || PyUnicode_KIND(v) != PyUnicode_1BYTE_KIND || start > 10
            || (start & 1) || end < start || (end < 10 && (end & 1)))
        return NULL;
    int shape = start == 0 && end >= 6 ? 1 : start == 0 && end == 4 ? 2 : start >= 6 ? 3 : 0;
    if (shape == 0)
        return NULL;
    const unsigned char *s = (const unsigned char *)PyUnicode_DATA(v);
    Py_ssize_t n = PyUnicode_GET_LENGTH(v), pos = 0;
    static const char seps[6] = {0, '-', '-', ' ', ':', ':'};
    int f[7] = {0, 1, 1, 0, 0, 0, 0};
    for (int u = start; u <= (end < 10 ? end : 10); u += 2) {
        int slot = u / 2, width = u == 0 ? 4 : 2, x = 0;
        if (u != start) {
            if (pos >= n || (s[pos] != seps[slot] && !(slot == 3 && s[pos] == 'T')))
                return NULL;
            pos++;
        }
        if (pos + width > n)
            return NULL;
        for (int k = 0; k < width; k++) {
            unsigned char ch = s[pos + k];
            if (ch < '0' || ch > '9')
                return NULL;
            x = x * 10 + (ch - '0');
        }
        pos += width;
        if (pos < n && s[pos] >= '0' && s[pos] <= '9')
            return NULL;
        f[slot] = x;
    }
    if (end > 10) {
        if (pos >= n || s[pos] != '.')
            return NULL;
        pos++;
        int k = 0, x = 0;
        while (pos < n && s[pos] >= '0' && s[pos] <= '9' && k < 6) {
            x = x * 10 + (s[pos] - '0');
            pos++;
            k++;
        }
        if (k == 0 || k > 5)
            return NULL;
        for (; k < 5; k++)
            x *= 10;
        f[6] = x * 10; /* five stored digits: tens of microseconds */
    }
    if (pos != n || (shape != 3 && f[0] < 1))
        return NULL;
    PyObject *r;
    if (shape == 1)
        r = PyDateTime_FromDateAndTime(f[0], f[1], f[2], f[3], f[4], f[5], f[6]);
    else if (shape == 2)
        r = PyDate_FromDate(f[0], f[1], f[2]);
    else
        r = PyTime_FromTime(f[3], f[4], f[5], f[6]);
    if (r == NULL && PyErr_ExceptionMatches(PyExc_ValueError))
        PyErr_Clear(); /* out of range: fn raises the engine's error */
    return r;
}

/* values.date_from_number of a stored DATE (days after day 0, whose ordinal is ``epoch``),
 * or NULL without an exception when fn must decide (not an exact int, out of years 1..9999). */
static PyObject *date_load(PyObject *v, long long epoch)
{
    if (!PyLong_CheckExact(v))
        return NULL;
    int overflow = 0;
    long long n = PyLong_AsLongLongAndOverflow(v, &overflow);
    if (n == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        return NULL;
    }
    if (overflow || n < 1 - epoch || n > 3652059 - epoch)
        return NULL;
    /* days since 1970-01-01 to the civil date (proleptic Gregorian) */
    long long z = n + epoch - 719163 + 719468;
    long long era = (z >= 0 ? z : z - 146096) / 146097;
    long long doe = z - era * 146097;
    long long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    long long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    long long mp = (5 * doy + 2) / 153;
    int d = (int)(doy - (153 * mp + 2) / 5 + 1);
    int m = (int)(mp < 10 ? mp + 3 : mp - 9);
    int y = (int)(yoe + era * 400 + (m <= 2));
    return PyDate_FromDate(y, m, d);
}

typedef struct {
    Py_ssize_t index;
    int kind;
    long long lo, hi;
    PyObject *fn;
} LoadCol;

/* 1: v is kept as it is; 0: the loader must see it. */
static int keeps(const LoadCol *c, PyObject *v)
{
    switch (c->kind) {
    case L_INT:
        if (PyLong_CheckExact(v)) {
            int overflow = 0;
            long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
            if (x == -1 && PyErr_Occurred()) {
                PyErr_Clear();
                return 0;
            }
            return !overflow && x >= c->lo && x <= c->hi;
        }
        return 0;
    case L_FLOAT:
        return PyFloat_CheckExact(v);
    case L_CHARS:
        return PyUnicode_CheckExact(v) && !has_nul(v);
    default:
        return 0;
    }
}

static PyObject *load_rows(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2 || !PyList_Check(args[0]) || !PyTuple_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "load_rows(batch: list, plan: tuple)");
        return NULL;
    }
    PyObject *batch = args[0], *plan = args[1];
    Py_ssize_t ncols = PyTuple_GET_SIZE(plan);
    LoadCol cols[64];
    LoadCol *lc = ncols <= 64 ? cols : PyMem_Malloc(sizeof(LoadCol) * (size_t)ncols);
    if (lc == NULL)
        return PyErr_NoMemory();
    PyObject *result = NULL;
    for (Py_ssize_t i = 0; i < ncols; i++) {
        if (!PyArg_ParseTuple(PyTuple_GET_ITEM(plan, i), "niLLO", &lc[i].index, &lc[i].kind,
                              &lc[i].lo, &lc[i].hi, &lc[i].fn))
            goto done;
    }
    Py_ssize_t n = PyList_GET_SIZE(batch);
    result = PyList_New(n);
    if (result == NULL)
        goto done;
    for (Py_ssize_t r = 0; r < n; r++) {
        PyObject *row = PyList_GET_ITEM(batch, r);
        if (!PyTuple_CheckExact(row))
            goto fallback;
        PyObject *copy = NULL;
        Py_ssize_t width = PyTuple_GET_SIZE(row);
        for (Py_ssize_t i = 0; i < ncols; i++) {
            const LoadCol *c = &lc[i];
            if (c->index < 0 || c->index >= width) {
                Py_XDECREF(copy);
                goto fallback;
            }
            PyObject *v = PyTuple_GET_ITEM(copy ? copy : row, c->index);
            if (v == Py_None || keeps(c, v))
                continue;
            PyObject *w = c->kind == L_DT ? dt_load(v, (int)c->lo, (int)c->hi)
                : c->kind == L_DATE ? date_load(v, c->lo) : NULL;
            if (w == NULL && PyErr_Occurred()) { /* MemoryError and the like */
                Py_XDECREF(copy);
                Py_CLEAR(result);
                goto done;
            }
            if (w == NULL)
                w = PyObject_CallOneArg(c->fn, v);
            if (w == NULL) {
                Py_XDECREF(copy);
                Py_CLEAR(result);
                if (PyErr_ExceptionMatches(PyExc_Exception)) {
                    PyErr_Clear();
                    result = Py_NewRef(Py_None);
                }
                goto done;
            }
            if (copy == NULL) {
                copy = PyTuple_New(width);
                if (copy == NULL) {
                    Py_DECREF(w);
                    Py_CLEAR(result);
                    goto done;
                }
                for (Py_ssize_t k = 0; k < width; k++)
                    PyTuple_SET_ITEM(copy, k, Py_NewRef(PyTuple_GET_ITEM(row, k)));
            }
            PyObject *old = PyTuple_GET_ITEM(copy, c->index);
            PyTuple_SET_ITEM(copy, c->index, w);
            Py_DECREF(old);
        }
        PyList_SET_ITEM(result, r, copy ? copy : Py_NewRef(row));
    }
    goto done;
fallback: /* not the shape the plan expects: the caller's Python loop decides */
    Py_CLEAR(result);
    result = Py_NewRef(Py_None);
done:
    if (lc != cols)
        PyMem_Free(lc);
    return result;
}

/* load_planned(plan, batch): load_rows with the plan first, so that
 * functools.partial(load_planned, plan) is the batch loader (engine/convert.py): a call
 * without a Python frame per OPEN (issue 26, eleventh round; it was a lambda). */
static PyObject *load_planned(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "load_planned(plan: tuple, batch: list)");
        return NULL;
    }
    PyObject *swapped[2] = {args[1], args[0]};
    return load_rows(module, swapped, 2);
}

/* decode_bind_row(buf, pos, end, plan, encoding) -> (values, end) | None
 *
 * One executemany row of SQ_BIND items whose headers are known (server/bindrun.py, the
 * reference: its pure run_decoder builds the same function in Python). plan: one
 * (header, kind, width, null) per item: header the 6 bytes the item must start with; kind
 * 0 text (u16 length, bytes, pad), 1 FLOAT (8 bytes; all 0xFF is NULL), 2 a big-endian
 * signed integer of ``width`` bytes, NULL when equal to ``null``; 3 and 4 (DATE, DECIMAL:
 * a fifth element ``fn`` makes the value) 3 ``fn(buf, pos + 6)`` over ``width`` bytes, 4 a u16
 * length then ``fn(buf, start, length)`` and a pad byte; an exception from ``fn`` gives None
 * (the general path then raises it). Returns None, as the pure
 * decoder does, when a header differs, the row runs past ``end`` or text does not decode
 * (UnicodeDecodeError, LookupError); the caller then decodes the row the general way. */
static PyObject *decode_bind_row(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 5 || !PyTuple_Check(args[3]) || !PyUnicode_Check(args[4])) {
        PyErr_SetString(PyExc_TypeError,
                        "decode_bind_row(buf, pos: int, end: int, plan: tuple, encoding: str)");
        return NULL;
    }
    Py_ssize_t pos = PyLong_AsSsize_t(args[1]);
    if (pos == -1 && PyErr_Occurred())
        return NULL;
    Py_ssize_t end = PyLong_AsSsize_t(args[2]);
    if (end == -1 && PyErr_Occurred())
        return NULL;
    const char *encoding = PyUnicode_AsUTF8(args[4]);
    if (encoding == NULL)
        return NULL;
    Py_buffer view;
    if (PyObject_GetBuffer(args[0], &view, PyBUF_SIMPLE) < 0)
        return NULL;
    const unsigned char *b = (const unsigned char *)view.buf;
    if (end > view.len)
        end = view.len; /* as bytes.startswith clamps its end */
    PyObject *plan = args[3];
    Py_ssize_t n = PyTuple_GET_SIZE(plan);
    PyObject *values = PyList_New(n);
    PyObject *result = NULL;
    if (values == NULL)
        goto out;
    if (pos < 0)
        goto none;
    Py_ssize_t p = pos;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *step = PyTuple_GET_ITEM(plan, i);
        const char *header;
        Py_ssize_t hlen;
        int kind, width;
        long long null;
        PyObject *fn = NULL;
        if (!PyArg_ParseTuple(step, "y#iiL|O", &header, &hlen, &kind, &width, &null, &fn))
            goto fail;
        if (hlen != 6 || p + 6 > end || memcmp(b + p, header, 6) != 0)
            goto none;
        PyObject *v;
        if (kind == 0) {
            if (p + 8 > end)
                goto none;
            Py_ssize_t len = ((Py_ssize_t)b[p + 6] << 8) | b[p + 7];
            Py_ssize_t q = p + 8 + len;
            if (q > end)
                goto none;
            v = PyUnicode_Decode((const char *)b + p + 8, len, encoding, NULL);
            if (v == NULL) {
                if (PyErr_ExceptionMatches(PyExc_UnicodeDecodeError) ||
                    PyErr_ExceptionMatches(PyExc_LookupError)) {
                    PyErr_Clear();
                    goto none;
                }
                goto fail;
            }
            p = q + (len & 1);
        } else if (kind == 1) {
            if (p + 14 > end)
                goto none;
            const unsigned char *f = b + p + 6;
            int all_ff = 1;
            uint64_t bits = 0;
            for (int k = 0; k < 8; k++) {
                bits = (bits << 8) | f[k];
                all_ff &= f[k] == 0xFF;
            }
            if (all_ff) {
                v = Py_NewRef(Py_None);
            } else {
                double d;
                memcpy(&d, &bits, 8);
                v = PyFloat_FromDouble(d);
                if (v == NULL)
                    goto fail;
            }
            p += 14;
        } else if (kind == 2 && (width == 2 || width == 4 || width == 8)) {
            if (p + 6 + width > end)
                goto none;
            const unsigned char *f = b + p + 6;
            uint64_t u = 0;
            for (int k = 0; k < width; k++)
                u = (u << 8) | f[k];
            int64_t x;
            if (width == 2)
                x = (int16_t)u;
            else if (width == 4)
                x = (int32_t)u;
            else
                x = (int64_t)u;
            if (x == null) {
                v = Py_NewRef(Py_None);
            } else {
                v = PyLong_FromLongLong(x);
                if (v == NULL)
                    goto fail;
            }
            p += 6 + width;
        } else if ((kind == 3 || kind == 4) && fn != NULL && width >= 0) {
            Py_ssize_t start = p + 6, len = width, q;
            if (kind == 4) {
                if (p + 8 > end)
                    goto none;
                len = ((Py_ssize_t)b[p + 6] << 8) | b[p + 7];
                start = p + 8;
            }
            q = start + len;
            if (q > end)
                goto none;
            v = kind == 3 ? PyObject_CallFunction(fn, "On", args[0], start)
                          : PyObject_CallFunction(fn, "Onn", args[0], start, len);
            if (v == NULL) {
                if (PyErr_ExceptionMatches(PyExc_Exception)) {
                    PyErr_Clear();
                    goto none;
                }
                goto fail;
            }
            p = q + (kind == 4 ? (len & 1) : 0);
        } else {
            PyErr_SetString(PyExc_ValueError, "decode_bind_row: unknown item kind");
            goto fail;
        }
        PyList_SET_ITEM(values, i, v);
    }
    if (p > end)
        goto none;
    result = Py_BuildValue("(On)", values, p);
    goto out;
none:
    result = Py_NewRef(Py_None);
    goto out;
fail:
    result = NULL;
out:
    Py_XDECREF(values);
    PyBuffer_Release(&view);
    return result;
}

static PyMethodDef module_methods[] = {
    {"make_tuple_writer", make_tuple_writer, METH_VARARGS,
     "make_tuple_writer(plan, enc_kind, pure) -> TupleWriter"},
    {"load_rows", (PyCFunction)(void (*)(void))load_rows, METH_FASTCALL,
     "load_rows(batch, plan) -> list | None: the engine's loaders over SQLite rows"},
    {"load_planned", (PyCFunction)(void (*)(void))load_planned, METH_FASTCALL,
     "load_planned(plan, batch): load_rows(batch, plan), for functools.partial(plan)"},
    {"decode_bind_row", (PyCFunction)(void (*)(void))decode_bind_row, METH_FASTCALL,
     "decode_bind_row(buf, pos, end, plan, encoding) -> (values, end) | None: one row"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef tuplewriter_module = {
    PyModuleDef_HEAD_INIT, "ifxwire._tuplewriter",
    "The server's compiled SQ_TUPLE encoder (see the C source's opening comment).", -1,
    module_methods};

PyMODINIT_FUNC PyInit__tuplewriter(void)
{
    PyDateTime_IMPORT;
    if (PyDateTimeAPI == NULL)
        return NULL;
    if (Decimal_Type == NULL) {
        PyObject *decimal = PyImport_ImportModule("decimal");
        if (decimal == NULL)
            return NULL;
        Decimal_Type = PyObject_GetAttrString(decimal, "Decimal");
        Py_DECREF(decimal);
        if (Decimal_Type == NULL)
            return NULL;
    }
    if (PyType_Ready(&TupleWriter_Type) < 0)
        return NULL;
    return PyModule_Create(&tuplewriter_module);
}
