/* ifxwire._tuplewriter, part "writer": rows into SQ_TUPLE messages: encode_row, the writer's
 * call and write(), the TupleWriter type and make_tuple_writer. Included once, in order, by
 * _tuplewriter.c (one translation unit, so gcc inlines across the parts as it did in one file):
 * not a header of its own. */

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

