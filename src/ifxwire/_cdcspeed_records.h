/* ifxwire._cdcspeed, part "records": the client's loop over data records: decode_data, which
 * makes ifxwire.cdc's Events from whole records. Included once, in order, by _cdcspeed.c (one
 * translation unit, so gcc inlines across the parts as it did in one file): not a header of its
 * own. */

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

