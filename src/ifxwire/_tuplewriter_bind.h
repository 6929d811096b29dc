/* ifxwire._tuplewriter, part "bind": one executemany row's SQ_BIND items of known headers:
 * decode_bind_row. Included once, in order, by _tuplewriter.c (one translation unit, so gcc
 * inlines across the parts as it did in one file): not a header of its own. */

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

