/* ifxwire._cdcspeed: the per-event loops of change data capture, compiled (issue 27).
 *
 * Issue 27 asks ifxwire.cdc for twice the throughput of IBM's change-stream client on one
 * stream. With reads ahead, the stream runs at the pace of the slower of two loops: the
 * server rendering each captured change into a CDC record (server/engine/features/cdc/hub.py,
 * a generated Python function per table) and the client turning each record into an Event
 * (ifxwire/cdc.py Decoder._events). Both are here, in C, as optional twins of the Python
 * code, which stays complete and is the reference: whatever the C path does not take exactly
 * as the Python path would, it hands to the Python path, so the bytes and the events (and the
 * exceptions) are the same with and without this module (tests/unit/test_cdc_speed.py).
 *
 * make_renderer(pure, cols, user_data) -> Renderer
 *   pure: the generated Python renderer (recnum, values, seq, txid) -> record bytes.
 *   cols: one (kind, index, a, b, c, fn, variable) per captured column, in record order:
 *     index  the column's place in the stored row (values[index]);
 *     fn     value -> the column's bytes, exactly the pure renderer's step for that column
 *            (its loader then its encoder); used for every value the inline path does not
 *            take (NULL, a subclass, out of range, not encodable inline...);
 *     variable  1 when the column's size goes in the header (variable-length columns);
 *     kind R_CALL (0): fn always;
 *     kind R_INT (1): an exact int in [a, b] packed big-endian in c bytes (2, 4 or 8);
 *     kind R_VARCHAR (2): an exact str without NUL, encoded in code set c (1 Latin-1,
 *            2 UTF-8, 3 ASCII) to at most a bytes: a length byte and the bytes;
 *     kind R_DECIMAL (3): the server's stored text of a DECIMAL(p,s)/MONEY(p,s) that is not
 *            negative (numeric.stored_decimal_encoder's short way): a = s, b = p - s, c =
 *            the field's width.
 *   user_data: the table's label, written in every record's header.
 * renderer(recnum, values, seq, txid) -> bytes, as pure(...). Any argument the inline path
 *   cannot pack (not an int, out of range, a short row, fn returning other than bytes) makes
 *   it return pure(...) itself, which raises what the pure path raises.
 *
 * decode_data(buf, pos, shapes, kinds, event_type, utc) -> (events, ends)
 *   The client's loop over whole data records (CDC_REC_INSERT/DELETE/UPDBEF/UPDAFT, and the
 *   BEGINTX/COMMTX around them) of the
 *   bytearray ``buf`` from ``pos``: headers read here, the row by the table's decoder (the
 *   accelerator's tuple decoder or the Python one), the Row and the Event made here. It stops
 *   at the first record it does not take exactly as Decoder._events would (any other record,
 *   a cut record, a malformed header, an unknown table, a decoder that raises an Exception):
 *   Decoder._events handles that one itself, then calls again. ``shapes``: label -> (whole,
 *   at, row class, table name), ``whole`` the (buf, start, size) tuple decoder or None, then
 *   ``at(buf, start, size, sizes)``; ``kinds``: the EventKinds of records 40..43, then of
 *   BEGINTX and COMMTX, which it takes too (``utc``: seconds -> their datetime, as the Python
 *   loop makes it); ``event_type``: ifxwire.cdc.Event. ``ends[i]``: the offset past
 *   events[i]'s record.
 *
 * parse_changes(body, change_type): the server's change log's JSON bodies (below).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

enum { R_CALL = 0, R_INT = 1, R_VARCHAR = 2, R_DECIMAL = 3 };
enum { E_OTHER = 0, E_LATIN1 = 1, E_UTF8 = 2, E_ASCII = 3 };

#define PKTSCHEME 66
#define COMMON 16
#define DATA_HEAD 36

typedef struct {
    int kind;
    Py_ssize_t index;
    long long a, b, c;
    PyObject *fn;
    int variable;
} RCol;

typedef struct {
    PyObject_VAR_HEAD
    vectorcallfunc vectorcall;
    PyObject *pure;
    int32_t user_data;
    Py_ssize_t nvar;
    Py_ssize_t maxindex;
    unsigned char *scratch;
    size_t cap;
    RCol cols[1];
} Renderer;

static PyTypeObject Renderer_Type;

static void put32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)(v >> 24);
    p[1] = (unsigned char)(v >> 16);
    p[2] = (unsigned char)(v >> 8);
    p[3] = (unsigned char)v;
}

static void put64(unsigned char *p, uint64_t v)
{
    put32(p, (uint32_t)(v >> 32));
    put32(p + 4, (uint32_t)v);
}

static int reserve(Renderer *self, size_t need)
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

/* The pure renderer's answer for these arguments (its bytes or its exception). */
static PyObject *call_pure(Renderer *self, PyObject *const *args)
{
    return PyObject_Vectorcall(self->pure, args, 4, NULL);
}

/* An int argument of the header in [lo, hi], or -1 with *ok = 0 (no exception left). */
static long long header_int(PyObject *o, long long lo, long long hi, int *ok)
{
    if (!PyLong_CheckExact(o)) {
        *ok = 0;
        return 0;
    }
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow || (v == -1 && PyErr_Occurred()) || v < lo || v > hi) {
        PyErr_Clear();
        *ok = 0;
        return 0;
    }
    return v;
}

/* numeric.stored_decimal_encoder's short way: the stored text of a value that is not negative
 * with exactly ``s`` fraction digits. Writes the field into out (width bytes) and returns 1,
 * or 0 when the text is not of that form (the Python encoder takes it then). */
static int stored_decimal(PyObject *v, long long s, long long limit, long long width,
                          unsigned char *out)
{
    if (!PyUnicode_CheckExact(v) || !PyUnicode_IS_ASCII(v))
        return 0;
    Py_ssize_t n = PyUnicode_GET_LENGTH(v);
    const char *t = (const char *)PyUnicode_DATA(v);
    Py_ssize_t dot = -1;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (t[i] == '.') {
            dot = i;
            break;
        }
    }
    Py_ssize_t wlen = dot < 0 ? n : dot;
    Py_ssize_t flen = dot < 0 ? 0 : n - dot - 1;
    if (flen != s || (s && dot < 0) || wlen + flen == 0)
        return 0;
    /* ds = whole + frac, every character a digit */
    char ds[80];
    if (wlen + flen + 2 > (Py_ssize_t)sizeof(ds))
        return 0; /* longer than any fitting value: the encoder's answer */
    Py_ssize_t k = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (i == dot)
            continue;
        if (t[i] < '0' || t[i] > '9')
            return 0;
        ds[k++] = t[i];
    }
    Py_ssize_t lead = 0;
    while (lead < wlen && t[lead] == '0')
        lead++;
    if (wlen - lead > limit)
        return 0; /* too many integer digits: the encoder raises */
    /* lstrip the zeros */
    Py_ssize_t start = 0;
    while (start < k && ds[start] == '0')
        start++;
    if (start == k) { /* zero */
        out[0] = 0x80;
        memset(out + 1, 0, (size_t)(width - 1));
        return 1;
    }
    char d[84];
    Py_ssize_t m = 0;
    Py_ssize_t len = k - start + ((s & 1) ? 1 : 0);
    if (len & 1)
        d[m++] = '0';
    memcpy(d + m, ds + start, (size_t)(k - start));
    m += k - start;
    if (s & 1)
        d[m++] = '0';
    long long pairs = (s + 1) / 2;
    long long exponent = m / 2 - pairs;
    while (m > 0 && d[m - 1] == '0')
        m--;
    if (m & 1)
        d[m++] = '0';
    Py_ssize_t ndig = m / 2;
    if (ndig >= width)
        return 0;
    out[0] = (unsigned char)(0xC0 + exponent);
    for (Py_ssize_t i = 0; i < ndig; i++)
        out[1 + i] = (unsigned char)((d[2 * i] - '0') * 10 + (d[2 * i + 1] - '0'));
    memset(out + 1 + ndig, 0, (size_t)(width - 1 - ndig));
    return 1;
}

static PyObject *Renderer_vectorcall(PyObject *callable, PyObject *const *args, size_t nargsf,
                                     PyObject *kwnames)
{
    Renderer *self = (Renderer *)callable;
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (nargs != 4 || kwnames != NULL) {
        PyErr_SetString(PyExc_TypeError, "render(recnum, values, seq, txid)");
        return NULL;
    }
    int ok = 1;
    long long recnum = header_int(args[0], INT32_MIN, INT32_MAX, &ok);
    long long seq = header_int(args[2], INT64_MIN, INT64_MAX, &ok);
    long long txid = header_int(args[3], INT32_MIN, INT32_MAX, &ok);
    PyObject *v = args[1];
    if (!ok || !PyTuple_Check(v) || PyTuple_GET_SIZE(v) <= self->maxindex)
        return call_pure(self, args);
    Py_ssize_t ncols = Py_SIZE(self);
    Py_ssize_t hsize = DATA_HEAD + 4 * self->nvar;
    size_t pos = (size_t)hsize; /* the payload is built after room for the header */
    Py_ssize_t var = 0;
    for (Py_ssize_t k = 0; k < ncols; k++) {
        RCol *c = &self->cols[k];
        PyObject *x = PyTuple_GET_ITEM(v, c->index);
        size_t before = pos;
        int done = 0;
        if (c->kind == R_INT && PyLong_CheckExact(x)) {
            int overflow = 0;
            long long i = PyLong_AsLongLongAndOverflow(x, &overflow);
            if (!overflow && !(i == -1 && PyErr_Occurred()) && i >= c->a && i <= c->b) {
                if (reserve(self, pos + 8) < 0)
                    return NULL;
                unsigned char *p = self->scratch + pos;
                if (c->c == 2) {
                    p[0] = (unsigned char)((uint64_t)i >> 8);
                    p[1] = (unsigned char)i;
                }
                else if (c->c == 4)
                    put32(p, (uint32_t)i);
                else
                    put64(p, (uint64_t)i);
                pos += (size_t)c->c;
                done = 1;
            }
            PyErr_Clear();
        }
        else if (c->kind == R_VARCHAR && PyUnicode_CheckExact(x)) {
            const char *raw = NULL;
            Py_ssize_t n = -1;
            Py_ssize_t len = PyUnicode_GET_LENGTH(x);
            if (c->c == E_UTF8) {
                raw = PyUnicode_AsUTF8AndSize(x, &n);
                if (raw == NULL) {
                    PyErr_Clear();
                    n = -1;
                }
            }
            else if (PyUnicode_KIND(x) == PyUnicode_1BYTE_KIND &&
                     (c->c == E_LATIN1 || PyUnicode_IS_ASCII(x))) {
                raw = (const char *)PyUnicode_DATA(x);
                n = len;
            }
            if (n >= 0 && n <= c->a && memchr(raw, 0, (size_t)n) == NULL) {
                if (reserve(self, pos + 1 + (size_t)n) < 0)
                    return NULL;
                self->scratch[pos] = (unsigned char)n;
                memcpy(self->scratch + pos + 1, raw, (size_t)n);
                pos += 1 + (size_t)n;
                done = 1;
            }
        }
        else if (c->kind == R_DECIMAL) {
            if (reserve(self, pos + (size_t)c->c) < 0)
                return NULL;
            if (stored_decimal(x, c->a, c->b, c->c, self->scratch + pos)) {
                pos += (size_t)c->c;
                done = 1;
            }
        }
        if (!done) {
            PyObject *got = PyObject_CallOneArg(c->fn, x);
            if (got == NULL)
                return NULL; /* the pure renderer raises the same, at the same column */
            if (!PyBytes_CheckExact(got)) {
                Py_DECREF(got);
                return call_pure(self, args);
            }
            Py_ssize_t n = PyBytes_GET_SIZE(got);
            if (reserve(self, pos + (size_t)n) < 0) {
                Py_DECREF(got);
                return NULL;
            }
            memcpy(self->scratch + pos, PyBytes_AS_STRING(got), (size_t)n);
            Py_DECREF(got);
            pos += (size_t)n;
        }
        if (c->variable) {
            size_t n = pos - before;
            if (n > INT32_MAX)
                return call_pure(self, args);
            if (reserve(self, pos) < 0)
                return NULL;
            put32(self->scratch + DATA_HEAD + 4 * var, (uint32_t)n);
            var++;
        }
    }
    size_t payload = pos - (size_t)hsize;
    if (payload > INT32_MAX)
        return call_pure(self, args);
    if (reserve(self, (size_t)hsize) < 0)
        return NULL;
    unsigned char *h = self->scratch;
    put32(h, (uint32_t)hsize);
    put32(h + 4, (uint32_t)payload);
    put32(h + 8, PKTSCHEME);
    put32(h + 12, (uint32_t)recnum);
    put64(h + 16, (uint64_t)seq);
    put32(h + 24, (uint32_t)txid);
    put32(h + 28, (uint32_t)self->user_data);
    put32(h + 32, 0);
    return PyBytes_FromStringAndSize((const char *)self->scratch, (Py_ssize_t)pos);
}

static int Renderer_traverse(Renderer *self, visitproc visit, void *arg)
{
    Py_VISIT(self->pure);
    for (Py_ssize_t k = 0; k < Py_SIZE(self); k++)
        Py_VISIT(self->cols[k].fn);
    return 0;
}

static int Renderer_clear(Renderer *self)
{
    Py_CLEAR(self->pure);
    for (Py_ssize_t k = 0; k < Py_SIZE(self); k++)
        Py_CLEAR(self->cols[k].fn);
    return 0;
}

static void Renderer_dealloc(Renderer *self)
{
    PyObject_GC_UnTrack(self);
    Renderer_clear(self);
    PyMem_Free(self->scratch);
    PyObject_GC_Del(self);
}

static PyTypeObject Renderer_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "ifxwire._cdcspeed.Renderer",
    .tp_basicsize = sizeof(Renderer) - sizeof(RCol),
    .tp_itemsize = sizeof(RCol),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_vectorcall_offset = offsetof(Renderer, vectorcall),
    .tp_call = PyVectorcall_Call,
    .tp_traverse = (traverseproc)Renderer_traverse,
    .tp_clear = (inquiry)Renderer_clear,
    .tp_dealloc = (destructor)Renderer_dealloc,
    .tp_doc = "A CDC record renderer (see make_renderer).",
};

static PyObject *make_renderer(PyObject *module, PyObject *args)
{
    PyObject *pure, *cols;
    long long user_data;
    if (!PyArg_ParseTuple(args, "OO!L", &pure, &PyTuple_Type, &cols, &user_data))
        return NULL;
    if (user_data < INT32_MIN || user_data > INT32_MAX) {
        PyErr_SetString(PyExc_OverflowError, "user data out of range");
        return NULL;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(cols);
    Renderer *self = PyObject_GC_NewVar(Renderer, &Renderer_Type, n > 0 ? n : 1);
    if (self == NULL)
        return NULL;
    Py_SET_SIZE(self, 0);
    self->vectorcall = Renderer_vectorcall;
    self->pure = Py_NewRef(pure);
    self->user_data = (int32_t)user_data;
    self->nvar = 0;
    self->maxindex = -1;
    self->scratch = NULL;
    self->cap = 0;
    for (Py_ssize_t k = 0; k < n; k++) {
        RCol *c = &self->cols[k];
        PyObject *fn;
        if (!PyArg_ParseTuple(PyTuple_GET_ITEM(cols, k), "inLLLOi", &c->kind, &c->index, &c->a,
                              &c->b, &c->c, &fn, &c->variable))
            goto fail;
        c->fn = Py_NewRef(fn);
        Py_SET_SIZE(self, k + 1);
        if (c->kind < R_CALL || c->kind > R_DECIMAL || c->index < 0 ||
            (c->kind == R_INT && c->c != 2 && c->c != 4 && c->c != 8) ||
            (c->kind == R_VARCHAR && (c->a < 0 || c->a > 255)) ||
            (c->kind == R_DECIMAL && (c->a < 0 || c->a > 32 || c->c < 2 || c->c > 40))) {
            PyErr_SetString(PyExc_ValueError, "a renderer column out of range");
            goto fail;
        }
        if (c->index > self->maxindex)
            self->maxindex = c->index;
        if (c->variable)
            self->nvar++;
    }
    PyObject_GC_Track(self);
    return (PyObject *)self;
fail:
    PyObject_GC_Track(self);
    Py_DECREF(self);
    return NULL;
}

/* ---- the client's loop over data records -------------------------------------------------- */

static int32_t get32(const unsigned char *p)
{
    return (int32_t)(((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) |
                     (uint32_t)p[3]);
}

static int64_t get64(const unsigned char *p)
{
    return (int64_t)(((uint64_t)(uint32_t)get32(p) << 32) | (uint64_t)(uint32_t)get32(p + 4));
}

/* An instance of the tuple subclass ``cls`` with the items of ``values`` (tuple.__new__). */
static PyObject *tuple_of(PyTypeObject *cls, PyObject *values)
{
    PyObject *t = PySequence_Tuple(values);
    if (t == NULL)
        return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(t);
    PyObject *out = cls->tp_alloc(cls, n);
    if (out != NULL) {
        for (Py_ssize_t i = 0; i < n; i++)
            PyTuple_SET_ITEM(out, i, Py_NewRef(PyTuple_GET_ITEM(t, i)));
    }
    Py_DECREF(t);
    return out;
}

static PyObject *decode_data(PyObject *module, PyObject *args)
{
    PyObject *buf, *shapes, *kinds, *evtype_o, *utc;
    Py_ssize_t pos;
    if (!PyArg_ParseTuple(args, "OnO!O!O!O", &buf, &pos, &PyDict_Type, &shapes, &PyTuple_Type,
                          &kinds, &PyType_Type, &evtype_o, &utc))
        return NULL;
    PyTypeObject *evtype = (PyTypeObject *)evtype_o;
    if (PyTuple_GET_SIZE(kinds) != 6 || !PyType_IsSubtype(evtype, &PyTuple_Type)) {
        PyErr_SetString(PyExc_ValueError, "decode_data: six kinds and a tuple type");
        return NULL;
    }
    Py_buffer view;
    if (PyObject_GetBuffer(buf, &view, PyBUF_SIMPLE) < 0)
        return NULL;
    PyObject *events = PyList_New(0);
    PyObject *ends = PyList_New(0);
    PyObject *zero = PyLong_FromLong(0);
    if (events == NULL || ends == NULL || zero == NULL)
        goto fail;
    const unsigned char *b = view.buf;
    Py_ssize_t len = view.len;
    while (pos >= 0 && len - pos >= COMMON) {
        const unsigned char *r = b + pos;
        int32_t hsize = get32(r), psize = get32(r + 4), scheme = get32(r + 8);
        int32_t recnum = get32(r + 12);
        if (scheme != PKTSCHEME || hsize < COMMON || psize < 0)
            break;
        long long size = (long long)hsize + psize;
        if (len - pos < size)
            break;
        if (recnum == 1 || recnum == 2) {
            /* BEGINTX (i64 sequence, i32 transaction, i64 time, i32 user) or COMMTX (i64
             * sequence, i32 transaction, i64 time), their fields inside their header */
            if (hsize < (recnum == 1 ? 40 : 36))
                break;
            PyObject *when = PyObject_CallFunction(utc, "L", (long long)get64(r + 28));
            if (when == NULL) {
                if (PyErr_ExceptionMatches(PyExc_Exception)) {
                    PyErr_Clear();
                    break;
                }
                goto fail;
            }
            PyObject *ev = evtype->tp_alloc(evtype, 8);
            PyObject *seq = PyLong_FromLongLong(get64(r + 16));
            PyObject *tx = PyLong_FromLong(get32(r + 24));
            pos += (Py_ssize_t)size;
            PyObject *end = PyLong_FromSsize_t(pos);
            if (ev == NULL || seq == NULL || tx == NULL || end == NULL) {
                Py_XDECREF(ev);
                Py_XDECREF(seq);
                Py_XDECREF(tx);
                Py_XDECREF(end);
                Py_DECREF(when);
                goto fail;
            }
            PyTuple_SET_ITEM(ev, 0, Py_NewRef(PyTuple_GET_ITEM(kinds, 3 + recnum)));
            PyTuple_SET_ITEM(ev, 1, seq);
            PyTuple_SET_ITEM(ev, 2, tx);
            PyTuple_SET_ITEM(ev, 3, Py_NewRef(Py_None));
            PyTuple_SET_ITEM(ev, 4, Py_NewRef(Py_None));
            PyTuple_SET_ITEM(ev, 5, recnum == 2 ? when : Py_NewRef(Py_None));
            PyTuple_SET_ITEM(ev, 6, recnum == 1 ? when : Py_NewRef(Py_None));
            PyTuple_SET_ITEM(ev, 7, Py_NewRef(zero));
            int bad = PyList_Append(events, ev) < 0 || PyList_Append(ends, end) < 0;
            Py_DECREF(ev);
            Py_DECREF(end);
            if (bad)
                goto fail;
            continue;
        }
        if (recnum < 40 || recnum > 43 || hsize < DATA_HEAD || (hsize - DATA_HEAD) % 4 != 0)
            break;
        Py_ssize_t nvar = (hsize - DATA_HEAD) / 4;
        PyObject *label = PyLong_FromLong(get32(r + 28));
        if (label == NULL)
            goto fail;
        PyObject *shape = PyDict_GetItemWithError(shapes, label);
        Py_DECREF(label);
        if (shape == NULL) {
            if (PyErr_Occurred())
                goto fail;
            break;
        }
        if (!PyTuple_Check(shape) || PyTuple_GET_SIZE(shape) != 4 ||
            !PyType_Check(PyTuple_GET_ITEM(shape, 2)) ||
            !PyType_IsSubtype((PyTypeObject *)PyTuple_GET_ITEM(shape, 2), &PyTuple_Type))
            break;
        PyObject *whole = PyTuple_GET_ITEM(shape, 0);
        PyObject *values;
        PyObject *start = PyLong_FromSsize_t(pos + hsize);
        PyObject *psz = PyLong_FromLong(psize);
        if (start == NULL || psz == NULL) {
            Py_XDECREF(start);
            Py_XDECREF(psz);
            goto fail;
        }
        if (whole != Py_None) {
            PyObject *a[3] = {buf, start, psz};
            values = PyObject_Vectorcall(whole, a, 3, NULL);
        }
        else {
            PyObject *sizes = PyTuple_New(nvar);
            if (sizes == NULL) {
                Py_DECREF(start);
                Py_DECREF(psz);
                goto fail;
            }
            for (Py_ssize_t i = 0; i < nvar; i++) {
                PyObject *s = PyLong_FromLong(get32(r + DATA_HEAD + 4 * i));
                if (s == NULL) {
                    Py_DECREF(sizes);
                    Py_DECREF(start);
                    Py_DECREF(psz);
                    goto fail;
                }
                PyTuple_SET_ITEM(sizes, i, s);
            }
            PyObject *a[4] = {buf, start, psz, sizes};
            values = PyObject_Vectorcall(PyTuple_GET_ITEM(shape, 1), a, 4, NULL);
            Py_DECREF(sizes);
        }
        Py_DECREF(start);
        Py_DECREF(psz);
        PyObject *row = NULL, *ev = NULL;
        if (values != NULL) {
            row = tuple_of((PyTypeObject *)PyTuple_GET_ITEM(shape, 2), values);
            Py_DECREF(values);
        }
        if (row != NULL) {
            ev = evtype->tp_alloc(evtype, 8);
            if (ev == NULL)
                Py_DECREF(row);
        }
        if (ev == NULL) {
            /* Decoder._events decodes this record again and raises what it raises; only an
             * exception that is not an Exception (KeyboardInterrupt...) goes on from here. */
            if (PyErr_ExceptionMatches(PyExc_Exception)) {
                PyErr_Clear();
                break;
            }
            goto fail;
        }
        PyObject *seq = PyLong_FromLongLong(get64(r + 16));
        PyObject *tx = PyLong_FromLong(get32(r + 24));
        if (seq == NULL || tx == NULL) {
            Py_XDECREF(seq);
            Py_XDECREF(tx);
            Py_DECREF(row);
            Py_DECREF(ev);
            goto fail;
        }
        PyTuple_SET_ITEM(ev, 0, Py_NewRef(PyTuple_GET_ITEM(kinds, recnum - 40)));
        PyTuple_SET_ITEM(ev, 1, seq);
        PyTuple_SET_ITEM(ev, 2, tx);
        PyTuple_SET_ITEM(ev, 3, Py_NewRef(PyTuple_GET_ITEM(shape, 3)));
        PyTuple_SET_ITEM(ev, 4, row);
        PyTuple_SET_ITEM(ev, 5, Py_NewRef(Py_None));
        PyTuple_SET_ITEM(ev, 6, Py_NewRef(Py_None));
        PyTuple_SET_ITEM(ev, 7, Py_NewRef(zero));
        pos += (Py_ssize_t)size;
        PyObject *end = PyLong_FromSsize_t(pos);
        if (end == NULL || PyList_Append(events, ev) < 0 || PyList_Append(ends, end) < 0) {
            Py_XDECREF(end);
            Py_DECREF(ev);
            goto fail;
        }
        Py_DECREF(end);
        Py_DECREF(ev);
    }
    PyBuffer_Release(&view);
    Py_DECREF(zero);
    return Py_BuildValue("(NN)", events, ends);
fail:
    PyBuffer_Release(&view);
    Py_XDECREF(events);
    Py_XDECREF(ends);
    Py_XDECREF(zero);
    return NULL;
}

/* ---- the change log's JSON bodies --------------------------------------------------------- */

/* parse_changes(body, change_type) -> [change_type(recnum, table, values)] or None.
 *
 * hub._changes' ``[Change(c[0], c[1], tuple(c[2])) for c in json.loads(body)]`` for the bodies
 * the hub writes (json.dumps of [[recnum, "db:table", [values...]], ...]) when every value is
 * an integer of at most 18 digits, a string without escapes or control characters, or null.
 * Anything else (a float, a bytes value's object, true/false, an escape, non-ASCII text, a
 * shape other than that) returns None and hub._changes parses the body with json itself. */

typedef struct {
    const char *p;
    const char *end;
} Cur;

static void skip_ws(Cur *c)
{
    while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r'))
        c->p++;
}

/* One value; NULL with no exception set: not taken (the caller returns None). */
static PyObject *scalar(Cur *c)
{
    const char *p = c->p;
    if (p >= c->end)
        return NULL;
    if (*p == '"') {
        const char *q = p + 1;
        while (q < c->end && *q != '"') {
            if (*q == '\\' || (unsigned char)*q < 0x20)
                return NULL;
            q++;
        }
        if (q >= c->end)
            return NULL;
        c->p = q + 1;
        return PyUnicode_FromStringAndSize(p + 1, q - p - 1);
    }
    if (*p == 'n') {
        if (c->end - p >= 4 && memcmp(p, "null", 4) == 0) {
            c->p = p + 4;
            return Py_NewRef(Py_None);
        }
        return NULL;
    }
    int neg = 0;
    if (*p == '-') {
        neg = 1;
        p++;
    }
    const char *d = p;
    long long v = 0;
    while (p < c->end && *p >= '0' && *p <= '9') {
        v = v * 10 + (*p - '0');
        p++;
        if (p - d > 18)
            return NULL;
    }
    if (p == d || (*d == '0' && p - d > 1))
        return NULL;
    if (p < c->end && (*p == '.' || *p == 'e' || *p == 'E'))
        return NULL; /* a float: json's own parse */
    c->p = p;
    return PyLong_FromLongLong(neg ? -v : v);
}

static int expect(Cur *c, char ch)
{
    skip_ws(c);
    if (c->p < c->end && *c->p == ch) {
        c->p++;
        return 1;
    }
    return 0;
}

static PyObject *parse_changes(PyObject *module, PyObject *args)
{
    PyObject *body, *ctype;
    if (!PyArg_ParseTuple(args, "UO", &body, &ctype))
        return NULL;
    if (!PyUnicode_IS_ASCII(body))
        Py_RETURN_NONE;
    Cur c = {(const char *)PyUnicode_DATA(body),
             (const char *)PyUnicode_DATA(body) + PyUnicode_GET_LENGTH(body)};
    PyObject *out = PyList_New(0);
    PyObject *vals = NULL, *recnum = NULL, *table = NULL;
    if (out == NULL)
        return NULL;
    if (!expect(&c, '['))
        goto not_taken;
    skip_ws(&c);
    if (c.p < c.end && *c.p == ']') {
        c.p++;
        goto done;
    }
    for (;;) {
        if (!expect(&c, '['))
            goto not_taken;
        skip_ws(&c);
        recnum = scalar(&c);
        if (recnum == NULL)
            goto error_or_not;
        if (!expect(&c, ','))
            goto not_taken;
        skip_ws(&c);
        table = scalar(&c);
        if (table == NULL)
            goto error_or_not;
        if (!expect(&c, ',') || !expect(&c, '['))
            goto not_taken;
        vals = PyList_New(0);
        if (vals == NULL)
            goto error;
        skip_ws(&c);
        if (c.p < c.end && *c.p == ']')
            c.p++;
        else {
            for (;;) {
                skip_ws(&c);
                PyObject *v = scalar(&c);
                if (v == NULL)
                    goto error_or_not;
                int bad = PyList_Append(vals, v) < 0;
                Py_DECREF(v);
                if (bad)
                    goto error;
                if (expect(&c, ','))
                    continue;
                if (expect(&c, ']'))
                    break;
                goto not_taken;
            }
        }
        if (!expect(&c, ']'))
            goto not_taken;
        PyObject *tup = PyList_AsTuple(vals);
        Py_CLEAR(vals);
        if (tup == NULL)
            goto error;
        PyObject *a[3] = {recnum, table, tup};
        PyObject *change = PyObject_Vectorcall(ctype, a, 3, NULL);
        Py_DECREF(tup);
        Py_CLEAR(recnum);
        Py_CLEAR(table);
        if (change == NULL)
            goto error;
        int bad = PyList_Append(out, change) < 0;
        Py_DECREF(change);
        if (bad)
            goto error;
        if (expect(&c, ','))
            continue;
        if (expect(&c, ']'))
            break;
        goto not_taken;
    }
done:
    skip_ws(&c);
    if (c.p != c.end)
        goto not_taken;
    return out;
error_or_not:
    if (PyErr_Occurred())
        goto error;
not_taken:
    Py_XDECREF(vals);
    Py_XDECREF(recnum);
    Py_XDECREF(table);
    Py_DECREF(out);
    Py_RETURN_NONE;
error:
    Py_XDECREF(vals);
    Py_XDECREF(recnum);
    Py_XDECREF(table);
    Py_DECREF(out);
    return NULL;
}

static PyMethodDef module_methods[] = {
    {"make_renderer", make_renderer, METH_VARARGS,
     "make_renderer(pure, cols, user_data) -> a CDC record renderer (see the source)."},
    {"decode_data", decode_data, METH_VARARGS,
     "decode_data(buf, pos, shapes, kinds, event_type, utc) -> (events, ends) (see the "
     "source)."},
    {"parse_changes", parse_changes, METH_VARARGS,
     "parse_changes(body, change_type) -> changes or None (see the source)."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef cdcspeed_module = {
    PyModuleDef_HEAD_INIT, "ifxwire._cdcspeed",
    "Change data capture's per-event loops, compiled (see the C source's opening comment).",
    -1, module_methods};

PyMODINIT_FUNC PyInit__cdcspeed(void)
{
    if (PyType_Ready(&Renderer_Type) < 0)
        return NULL;
    return PyModule_Create(&cdcspeed_module);
}
