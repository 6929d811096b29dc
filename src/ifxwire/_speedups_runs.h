/* ifxwire._speedups, part "runs": the SQ_TUPLE loop: RowDecoder.decode_tuples and decode_dicts.
 * Included once, in order, by _speedups.c (one translation unit, so gcc inlines across the parts
 * as it did in one file): not a header of its own. */

/* The SQ_TUPLE loop of decode_tuples and decode_dicts: every complete SQ_TUPLE message (u16
   code 14, u16 pad, i32 size, payload, pad to even) from ``pos`` onward, each row appended to
   the list ``rows``: the decoded tuple, or with ``keys`` (a tuple of str) the dict
   {keys[i]: value} made from it at once, the tuple freed. Stops before anything else:
   another message, an incomplete tuple, a negative size; the caller's loop handles those. A
   row that raises the codec error class is skipped; the first such exception is returned. */
static PyObject *decode_run(RowDecoder *self, PyObject *const *args, PyObject *keys)
{
    PyObject *bufobj = args[0], *rows = args[3];
    Py_ssize_t pos = PyLong_AsSsize_t(args[1]);
    if (pos == -1 && PyErr_Occurred())
        return NULL;
    Py_ssize_t end = PyLong_AsSsize_t(args[2]);
    if (end == -1 && PyErr_Occurred())
        return NULL;
    if (!PyList_Check(rows)) {
        PyErr_SetString(PyExc_TypeError, "rows must be a list");
        return NULL;
    }
    BufRef b;
    if (buf_get(bufobj, &b) < 0)
        return NULL;
    if (end > b.len)
        end = b.len;
    PyObject *first_error = NULL;
    DictMaker maker = {NULL, NULL, NULL, 0};
    PyObject *spare = NULL, *maker_owner = NULL;
    if (keys != NULL && dict_maker_take(self, keys, &maker, &maker_owner) < 0)
        goto fail;
    while (pos >= 0 && end - pos >= 8 && b.p[pos] == 0 && b.p[pos + 1] == SQ_TUPLE) {
        int32_t size = (int32_t)be32(b.p + pos + 4);
        if (size < 0)
            break;
        Py_ssize_t nxt = pos + 8 + (Py_ssize_t)size + (size & 1);
        if (nxt > end)
            break;
        PyObject *row = keys == NULL
                            ? decode_row(self, bufobj, b.p, b.len, pos + 8, size)
                            : decode_row_reusing(self, bufobj, b.p, b.len, pos + 8, size, spare);
        spare = NULL;
        if (row != NULL && keys != NULL) {
            /* The dict is made while the row's values are still in the L1 cache, and the
               emptied tuple takes the next row's values (docs/BENCHMARKS.md, "Row
               factories"). The pure fallback makes tuples too. */
            PyObject *d = PyTuple_Check(row) ? dict_maker_make(&maker, row, 1) : NULL;
            if (d == NULL && !PyErr_Occurred())
                PyErr_SetString(PyExc_TypeError, "the row decoder made no tuple");
            if (d != NULL && dict_maker_emptied(&maker, row, Py_SIZE(self)))
                spare = row; /* the next row is decoded into it: no tuple made or freed */
            else
                Py_DECREF(row);
            row = d;
            if (row == NULL)
                goto fail;
        }
        if (row != NULL) {
            int rc = PyList_Append(rows, row);
            Py_DECREF(row);
            if (rc < 0)
                goto fail;
        }
        else if (self->error_class != NULL && PyErr_ExceptionMatches(self->error_class)) {
            if (first_error == NULL) {
                PyObject *type, *value, *tb;
                PyErr_Fetch(&type, &value, &tb);
                PyErr_NormalizeException(&type, &value, &tb);
                if (tb != NULL && value != NULL)
                    PyException_SetTraceback(value, tb);
                Py_XDECREF(type);
                Py_XDECREF(tb);
                first_error = value;
            }
            else
                PyErr_Clear();
        }
        else
            goto fail;
        pos = nxt;
    }
    buf_release(&b);
    dict_maker_keep(self, &maker, maker_owner);
    Py_XDECREF(spare);
    return Py_BuildValue("(nN)", pos, first_error != NULL ? first_error : Py_NewRef(Py_None));

fail:
    buf_release(&b);
    dict_maker_keep(self, &maker, maker_owner);
    Py_XDECREF(spare);
    Py_XDECREF(first_error);
    return NULL;
}

/* decode_tuples(buf, pos, end, rows) -> (pos, first_error)

   The body of the driver's SQ_TUPLE loop (client/replies.py Reply._tuples) in C (decode_run:
   the rows appended to the list ``rows``). */
static PyObject *RowDecoder_decode_tuples(RowDecoder *self, PyObject *const *args,
                                          Py_ssize_t nargs)
{
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "decode_tuples(buffer, pos, end, rows)");
        return NULL;
    }
    return decode_run(self, args, NULL);
}

/* decode_dicts(buf, pos, end, rows, keys) -> (pos, first_error)

   decode_tuples for ifxwire.rows.dict_row (Reply.keys): each row appended as the dict
   {keys[i]: value}, made as the row is decoded. */
static PyObject *RowDecoder_decode_dicts(RowDecoder *self, PyObject *const *args,
                                         Py_ssize_t nargs)
{
    if (nargs != 5 || !PyTuple_Check(args[4])) {
        PyErr_SetString(PyExc_TypeError, "decode_dicts(buffer, pos, end, rows, keys: tuple)");
        return NULL;
    }
    return decode_run(self, args, args[4]);
}

static PyMethodDef RowDecoder_methods[] = {
    {"decode_tuples", (PyCFunction)(void (*)(void))RowDecoder_decode_tuples, METH_FASTCALL,
     "decode_tuples(buffer, pos, end, rows) -> (pos, first_error): decode the run of complete "
     "SQ_TUPLE messages at pos, appending to rows"},
    {"decode_dicts", (PyCFunction)(void (*)(void))RowDecoder_decode_dicts, METH_FASTCALL,
     "decode_dicts(buffer, pos, end, rows, keys) -> (pos, first_error): decode_tuples making "
     "each row the dict {keys[i]: value} as it is decoded"},
    {NULL, NULL, 0, NULL},
};

