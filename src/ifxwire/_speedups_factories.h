/* ifxwire._speedups, part "factories": row factories' batch makers: make_dicts, make_tuples.
 * Included once, in order, by _speedups.c (one translation unit, so gcc inlines across the parts
 * as it did in one file): not a header of its own. */

/* ------------------------------------------------------------------ row factories */

/* make_dicts(keys, rows) -> [dict(zip(keys, row)) for row in rows]
 *
 * ifxwire.rows.dict_row's batch maker (docs/DRIVER.md, "Row factories"): one C loop per
 * fetched batch instead of a zip object and a dict() call per row. Same result as
 * dict(zip(keys, row)): the shorter of the two decides the length, a repeated key keeps its
 * last value. The keys are the column names (str), whose hashes are cached. A tuple of one
 * value per key is made the way decode_dicts makes its dicts (DictMaker: a copy of a
 * template, the values written in), anything else with PyDict_SetItem. */
static PyObject *make_dicts(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2 || !PyTuple_Check(args[0]) || !PyList_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "make_dicts(keys: tuple, rows: list)");
        return NULL;
    }
    PyObject *keys = args[0], *rows = args[1];
    Py_ssize_t nkeys = PyTuple_GET_SIZE(keys), count = PyList_GET_SIZE(rows);
    DictMaker maker = {NULL, NULL, NULL, 0};
    if (dict_maker_init(&maker, keys) < 0)
        return NULL;
    PyObject *out = PyList_New(count);
    if (out == NULL)
        goto fail;
    for (Py_ssize_t r = 0; r < count; r++) {
        PyObject *item = PyList_GET_ITEM(rows, r);
        if (maker.template != NULL && PyTuple_CheckExact(item)
            && PyTuple_GET_SIZE(item) == nkeys) {
            /* The template's copy (decode_dicts' route); the rows stay the caller's. */
            PyObject *d = dict_maker_make(&maker, item, 0);
            if (d == NULL)
                goto fail;
            PyList_SET_ITEM(out, r, d);
            continue;
        }
        PyObject *row = PySequence_Fast(item, "a row must be a sequence");
        if (row == NULL)
            goto fail;
        Py_ssize_t n = PySequence_Fast_GET_SIZE(row);
        if (n > nkeys)
            n = nkeys;
        PyObject **values = PySequence_Fast_ITEMS(row);
#if PY_VERSION_HEX < 0x030D0000
        PyObject *d = _PyDict_NewPresized(n);
#else
        PyObject *d = PyDict_New();
#endif
        if (d == NULL) {
            Py_DECREF(row);
            goto fail;
        }
        for (Py_ssize_t i = 0; i < n; i++) {
            if (PyDict_SetItem(d, PyTuple_GET_ITEM(keys, i), values[i]) < 0) {
                Py_DECREF(d);
                Py_DECREF(row);
                goto fail;
            }
        }
        Py_DECREF(row);
        PyList_SET_ITEM(out, r, d);
    }
    dict_maker_release(&maker);
    return out;
fail:
    dict_maker_release(&maker);
    Py_XDECREF(out);
    return NULL;
}

/* make_tuples(cls, rows) -> [tuple.__new__(cls, row) for row in rows]
 *
 * The batch maker of ifxwire.rows.Row and namedtuple_row: ``cls`` is a tuple subclass with
 * empty __slots__ (no __dict__), made by ifxwire.rows. One allocation per row (tuple.__new__
 * on a subclass copies through an exact tuple first). Instances of a tuple subclass stay
 * tracked by the cyclic GC, where CPython untracks exact tuples of atomic values on their
 * first collection; a row none of whose values is tracked cannot be part of a cycle (its
 * items are fixed), so it is untracked here, as the collector would untrack an exact tuple:
 * without that, 100k such rows cost the collector more than making them. */
static PyObject *make_tuples(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2 || !PyType_Check(args[0]) || !PyList_Check(args[1]) ||
        !PyType_IsSubtype((PyTypeObject *)args[0], &PyTuple_Type) ||
        ((PyTypeObject *)args[0])->tp_dictoffset != 0) {
        PyErr_SetString(PyExc_TypeError,
                        "make_tuples(cls: tuple subclass without __dict__, rows: list)");
        return NULL;
    }
    PyTypeObject *cls = (PyTypeObject *)args[0];
    PyObject *rows = args[1];
    Py_ssize_t count = PyList_GET_SIZE(rows);
    PyObject *out = PyList_New(count);
    if (out == NULL)
        return NULL;
    for (Py_ssize_t r = 0; r < count; r++) {
        PyObject *row = PySequence_Fast(PyList_GET_ITEM(rows, r), "a row must be a sequence");
        if (row == NULL)
            goto fail;
        Py_ssize_t n = PySequence_Fast_GET_SIZE(row);
        PyObject **values = PySequence_Fast_ITEMS(row);
        PyObject *t = cls->tp_alloc(cls, n);
        if (t == NULL) {
            Py_DECREF(row);
            goto fail;
        }
#if PY_VERSION_HEX >= 0x030E0000
        /* 3.14 caches a tuple's hash in ob_hash, -1 meaning "not computed yet"; tp_alloc
         * zero-fills, which would read as a computed hash of 0 (CPython's own
         * tuple_subtype_new resets it the same way). */
        ((PyTupleObject *)t)->ob_hash = -1;
#endif
        int atomic = 1;
        for (Py_ssize_t i = 0; i < n; i++) {
            PyObject *v = values[i];
            if (atomic && PyObject_IS_GC(v) && PyObject_GC_IsTracked(v))
                atomic = 0;
            Py_INCREF(v);
            PyTuple_SET_ITEM(t, i, v);
        }
        Py_DECREF(row);
        if (atomic && PyObject_GC_IsTracked(t))
            PyObject_GC_UnTrack(t);
        PyList_SET_ITEM(out, r, t);
    }
    return out;
fail:
    Py_DECREF(out);
    return NULL;
}

