/* ifxwire._arrowdec, part "textvalue": text_value: fetchall's reader of a numeric collection in
 * the text form. Included once, in order, by _arrowdec.c (one translation unit, so gcc inlines
 * across the parts as it did in one file): not a header of its own. */

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

