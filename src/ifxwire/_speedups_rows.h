/* ifxwire._speedups, part "rows": one row: decode_row_into (every column kind), the reply buffer
 * (BufRef) and RowDecoder's call decoder(buf, offset, size) -> tuple. Included once, in order, by
 * _speedups.c (one translation unit, so gcc inlines across the parts as it did in one file): not a
 * header of its own. */

/* One tuple of ``size`` bytes at ``off`` of ``bufobj``, whose bytes are ``p[0:buflen]``.
   ``reuse``, when not NULL, is a tuple of the row's length whose items are all NULL, held by
   nobody else (decode_dicts' previous row, emptied into its dict): the row is decoded into it
   instead of a new one, and the reference is the callee's either way. Always inlined into
   its two callers below, so that the tuple path (reuse NULL, a constant there) compiles to
   the same code as before reuse existed (IFX_ALWAYS_INLINE: above). */
static IFX_ALWAYS_INLINE PyObject *decode_row_into(RowDecoder *self, PyObject *bufobj,
                                                   const unsigned char *p, Py_ssize_t buflen,
                                                   Py_ssize_t off, Py_ssize_t size,
                                                   PyObject *reuse)
{
    PyObject *row = reuse;
    if (off < 0 || size < 0 || off > buflen || size > buflen - off)
        goto slow;
    if (!self->variable && size != self->fixed_total)
        goto slow;

    Py_ssize_t ncols = Py_SIZE(self);
    if (row == NULL)
        row = PyTuple_New(ncols);
    if (row == NULL)
        goto fail;
    const Py_ssize_t end = off + size;
    Py_ssize_t o = off; /* sequential cursor (variable layout) */
    for (Py_ssize_t i = 0; i < ncols; i++) {
        const ColPlan *c = &self->cols[i];
        Py_ssize_t at = self->variable ? o : off + c->pos;
        Py_ssize_t used;
        PyObject *v;
        switch (c->kind) {
        case K_SMALLINT: {
            NEED(2);
            int16_t x = (int16_t)be16(p + at);
            v = x == INT16_MIN ? Py_NewRef(Py_None) : PyLong_FromLong(x);
            used = 2;
            break;
        }
        case K_INTEGER: {
            NEED(4);
            int32_t x = (int32_t)be32(p + at);
            v = x == INT32_MIN ? Py_NewRef(Py_None) : PyLong_FromLong(x);
            used = 4;
            break;
        }
        case K_BIGINT: {
            NEED(8);
            int64_t x = (int64_t)be64(p + at);
            v = x == INT64_MIN ? Py_NewRef(Py_None) : PyLong_FromLongLong(x);
            used = 8;
            break;
        }
        case K_INT8: {
            NEED(10);
            int16_t sign = (int16_t)be16(p + at);
            uint64_t lo = be32(p + at + 2), hi = be32(p + at + 6);
            uint64_t mag = (hi << 32) | lo;
            if (sign == 0)
                v = Py_NewRef(Py_None);
            else if (sign > 0)
                v = PyLong_FromUnsignedLongLong(mag);
            else if (mag <= (uint64_t)INT64_MAX)
                v = PyLong_FromLongLong(-(int64_t)mag);
            else {
                PyObject *pos = PyLong_FromUnsignedLongLong(mag);
                v = pos == NULL ? NULL : PyNumber_Negative(pos);
                Py_XDECREF(pos);
            }
            used = 10;
            break;
        }
        case K_FLOAT: {
            NEED(8);
            uint64_t bits = be64(p + at);
            if (bits == UINT64_MAX)
                v = Py_NewRef(Py_None);
            else {
                double d;
                memcpy(&d, &bits, 8);
                v = PyFloat_FromDouble(d);
            }
            used = 8;
            break;
        }
        case K_SMALLFLOAT: {
            NEED(4);
            uint32_t bits = be32(p + at);
            if (bits == UINT32_MAX)
                v = Py_NewRef(Py_None);
            else {
                float f;
                memcpy(&f, &bits, 4);
                v = PyFloat_FromDouble((double)f);
            }
            used = 4;
            break;
        }
        case K_DATE: {
            NEED(4);
            int32_t days = (int32_t)be32(p + at);
            if (days == INT32_MIN)
                v = Py_NewRef(Py_None);
            else {
                long ordinal = (long)days + self->epoch_ordinal;
                if (ordinal < 1 || ordinal > 3652059) /* outside date.min..date.max */
                    goto slow;
                int y, m, d;
                civil_from_days(ordinal - 719163, &y, &m, &d);
                v = PyDate_FromDate(y, m, d);
            }
            used = 4;
            break;
        }
        case K_CHAR: {
            NEED(c->width);
            if (p[at] == 0)
                v = Py_NewRef(Py_None);
            else {
                v = decode_char(self, p + at, c->width);
                if (v == NULL)
                    goto callback_error;
            }
            used = c->width;
            break;
        }
        case K_VARCHAR: {
            NEED(1);
            Py_ssize_t n = p[at];
            NEED(1 + n);
            if (n == 1 && p[at + 1] == 0)
                v = Py_NewRef(Py_None);
            else {
                v = decode_text(self, (const char *)p + at + 1, n);
                if (v == NULL)
                    goto callback_error;
            }
            used = 1 + n;
            break;
        }
        case K_LVARCHAR:
        case K_BOOLEAN:
        case K_UDT: {
            NEED(5);
            Py_ssize_t n = (Py_ssize_t)be32(p + at + 1);
            NEED(5 + n);
            const unsigned char *data = p + at + 5;
            used = 5 + n;
            if (p[at] != 0) {
                v = Py_NewRef(Py_None);
            }
            else if (c->kind == K_LVARCHAR) {
                Py_ssize_t stop = (n > 0 && data[n - 1] == 0) ? n - 1 : n;
                v = decode_text(self, (const char *)data, stop);
                if (v == NULL)
                    goto callback_error;
            }
            else if (c->kind == K_BOOLEAN) {
                if (n != 1)
                    goto slow;
                switch (data[0]) {
                case 0x01: case 0x74: case 0x54: v = Py_NewRef(Py_True); break;
                case 0x00: case 0x66: case 0x46: v = Py_NewRef(Py_False); break;
                case 0xFF: v = Py_NewRef(Py_None); break;
                default: goto slow;
                }
            }
            else {
                v = PyBytes_FromStringAndSize((const char *)data, n);
            }
            break;
        }
        case K_BLOB: {
            if (c->width <= BLOB_NULL_BYTE)
                goto slow;
            NEED(c->width);
            if (p[at + BLOB_NULL_BYTE] & 1)
                v = Py_NewRef(Py_None);
            else
                v = PyBytes_FromStringAndSize((const char *)p + at, c->width);
            used = c->width;
            break;
        }
        case K_CALL2:
        case K_CALL4: {
            NEED(c->width);
            PyObject *posobj = PyLong_FromSsize_t(at);
            if (posobj == NULL)
                goto fail;
            PyObject *cargs[4] = {bufobj, posobj, c->arg1, c->arg2};
            v = PyObject_Vectorcall(c->fn, cargs, c->kind == K_CALL2 ? 2 : 4, NULL);
            Py_DECREF(posobj);
            if (v == NULL)
                goto callback_error;
            used = c->width;
            break;
        }
        case K_COMPLEX: {
            NEED(4);
            Py_ssize_t n = (Py_ssize_t)(int32_t)be32(p + at);
            NEED(4 + n);
            used = 4 + n;
            v = complex_fast(c, p + at, n);
            if (v == NULL && PyErr_Occurred())
                goto fail;
            if (v == NULL) {
                PyObject *posobj = PyLong_FromSsize_t(at);
                PyObject *endobj = posobj == NULL ? NULL : PyLong_FromSsize_t(at + 4 + n);
                if (endobj == NULL) {
                    Py_XDECREF(posobj);
                    goto fail;
                }
                PyObject *cargs[3] = {bufobj, posobj, endobj};
                v = PyObject_Vectorcall(c->fn, cargs, 3, NULL);
                Py_DECREF(posobj);
                Py_DECREF(endobj);
                if (v == NULL)
                    goto callback_error;
            }
            break;
        }
        case K_DECIMAL: {
            NEED(c->width);
            int bad;
            v = decode_decimal(c, p + at, &bad);
            if (bad)
                goto slow;
            if (v == NULL)
                goto callback_error;
            used = c->width;
            break;
        }
        default:
            PyErr_SetString(PyExc_SystemError, "ifxwire._speedups: bad column kind");
            goto fail;
        }
        if (v == NULL)
            goto fail;
        PyTuple_SET_ITEM(row, i, v);
        o = at + used;
    }
    if (self->variable && o != end)
        goto slow;
    /* What the cyclic GC does to such tuples at its first pass (_PyTuple_MaybeUntrack), done
       now: a row of atoms (numbers, strings, dates, None) cannot be part of a cycle, and a
       100k-row fetchall should not make every collection walk 100k tuples. */
    for (Py_ssize_t i = 0; i < ncols; i++) {
        PyObject *e = PyTuple_GET_ITEM(row, i);
        if (PyObject_IS_GC(e) && PyObject_GC_IsTracked(e))
            return row;
    }
    PyObject_GC_UnTrack(row);
    return row;

callback_error:
    /* Exceptions (a decode error, a value out of range) are the pure path's to report;
       anything else (KeyboardInterrupt, MemoryError) propagates as is. */
    if (!PyErr_ExceptionMatches(PyExc_Exception) || PyErr_ExceptionMatches(PyExc_MemoryError))
        goto fail;
    PyErr_Clear();
slow:
    Py_XDECREF(row);
    return fallback(self, bufobj, off, size);

fail:
    Py_XDECREF(row);
    return NULL;
}

/* One row as a new tuple (RowDecoder's call, decode_tuples). */
static PyObject *decode_row(RowDecoder *self, PyObject *bufobj, const unsigned char *p,
                            Py_ssize_t buflen, Py_ssize_t off, Py_ssize_t size)
{
    return decode_row_into(self, bufobj, p, buflen, off, size, NULL);
}

/* One row decoded into ``reuse`` when not NULL (decode_dicts). */
static PyObject *decode_row_reusing(RowDecoder *self, PyObject *bufobj, const unsigned char *p,
                                    Py_ssize_t buflen, Py_ssize_t off, Py_ssize_t size,
                                    PyObject *reuse)
{
    return decode_row_into(self, bufobj, p, buflen, off, size, reuse);
}

/* The bytes of a reply buffer: bytes directly, anything else through the buffer protocol
   (which also keeps a bytearray from being resized while we read it). */
typedef struct {
    const unsigned char *p;
    Py_ssize_t len;
    int have_view;
    Py_buffer view;
} BufRef;

static void buf_release(BufRef *b)
{
    if (b->have_view) {
        PyBuffer_Release(&b->view);
        b->have_view = 0;
    }
}

static int buf_get(PyObject *bufobj, BufRef *b)
{
    b->have_view = 0;
    if (PyBytes_CheckExact(bufobj)) {
        b->p = (const unsigned char *)PyBytes_AS_STRING(bufobj);
        b->len = PyBytes_GET_SIZE(bufobj);
        return 0;
    }
    if (PyObject_GetBuffer(bufobj, &b->view, PyBUF_SIMPLE) < 0)
        return -1;
    b->have_view = 1;
    if (b->view.itemsize != 1) { /* e.g. a cast memoryview: its len() is not in bytes */
        buf_release(b);
        PyErr_SetString(PyExc_TypeError, "a row buffer must be made of bytes");
        return -1;
    }
    b->p = (const unsigned char *)b->view.buf;
    b->len = b->view.len;
    return 0;
}

static PyObject *RowDecoder_vectorcall(PyObject *callable, PyObject *const *args, size_t nargsf,
                                       PyObject *kwnames)
{
    RowDecoder *self = (RowDecoder *)callable;
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (nargs != 3 || (kwnames != NULL && PyTuple_GET_SIZE(kwnames) != 0)) {
        PyErr_SetString(PyExc_TypeError, "a row decoder takes (buffer, offset, size)");
        return NULL;
    }
    PyObject *bufobj = args[0];
    Py_ssize_t off = PyLong_AsSsize_t(args[1]);
    if (off == -1 && PyErr_Occurred())
        return NULL;
    Py_ssize_t size = PyLong_AsSsize_t(args[2]);
    if (size == -1 && PyErr_Occurred())
        return NULL;
    BufRef b;
    if (buf_get(bufobj, &b) < 0) {
        /* Not a contiguous buffer: the pure decoder says what it makes of it. */
        PyErr_Clear();
        return PyObject_Vectorcall(self->pure, args, 3, NULL);
    }
    PyObject *row = decode_row(self, bufobj, b.p, b.len, off, size);
    buf_release(&b);
    return row;
}

#define SQ_TUPLE 14

