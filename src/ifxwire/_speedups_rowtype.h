/* ifxwire._speedups, part "rowtype": the RowDecoder type (GC, getters, repr) and make_row_decoder,
 * its constructor from the plan ifxwire._accel computes. Included once, in order, by _speedups.c
 * (one translation unit, so gcc inlines across the parts as it did in one file): not a header of
 * its own. */

/* ------------------------------------------------------------------------------------------ */

static int RowDecoder_traverse(RowDecoder *self, visitproc visit, void *arg)
{
    Py_VISIT(self->encoding);
    Py_VISIT(self->pure);
    Py_VISIT(self->plan);
    Py_VISIT(self->error_class);
    Py_VISIT(self->dm_keys);
    Py_VISIT(self->dm_template);
    for (Py_ssize_t i = 0; i < Py_SIZE(self); i++) {
        Py_VISIT(self->cols[i].fn);
        Py_VISIT(self->cols[i].arg1);
        Py_VISIT(self->cols[i].arg2);
    }
    return 0;
}

static int RowDecoder_clear(RowDecoder *self)
{
    Py_CLEAR(self->encoding);
    Py_CLEAR(self->pure);
    Py_CLEAR(self->plan);
    Py_CLEAR(self->error_class);
    dict_maker_drop_kept(self);
    self->enc_name = NULL;
    for (Py_ssize_t i = 0; i < Py_SIZE(self); i++) {
        Py_CLEAR(self->cols[i].fn);
        Py_CLEAR(self->cols[i].arg1);
        Py_CLEAR(self->cols[i].arg2);
    }
    return 0;
}

static void RowDecoder_dealloc(RowDecoder *self)
{
    PyObject_GC_UnTrack(self);
    RowDecoder_clear(self);
    PyObject_GC_Del(self);
}

static PyObject *RowDecoder_call(PyObject *self, PyObject *args, PyObject *kwargs)
{
    return PyVectorcall_Call(self, args, kwargs);
}

static PyObject *RowDecoder_get_pure(RowDecoder *self, void *closure)
{
    (void)closure;
    if (self->pure == NULL)
        Py_RETURN_NONE;
    return Py_NewRef(self->pure);
}

static PyObject *RowDecoder_get_plan(RowDecoder *self, void *closure)
{
    (void)closure;
    if (self->plan == NULL)
        Py_RETURN_NONE;
    return Py_NewRef(self->plan);
}

static PyObject *RowDecoder_get_doc(RowDecoder *self, void *closure)
{
    (void)closure;
    if (self->pure == NULL)
        Py_RETURN_NONE;
    return PyObject_GetAttrString(self->pure, "__doc__");
}

static PyObject *RowDecoder_repr(RowDecoder *self)
{
    return PyUnicode_FromFormat("<ifxwire C row decoder, %zd columns, %s>", Py_SIZE(self),
                                self->variable ? "sequential layout" : "fixed layout");
}

static PyGetSetDef RowDecoder_getset[] = {
    {"pure", (getter)RowDecoder_get_pure, NULL, "the generated Python decoder this one mirrors",
     NULL},
    {"plan", (getter)RowDecoder_get_plan, NULL, "the per-column plan", NULL},
    {"__doc__", (getter)RowDecoder_get_doc, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject RowDecoder_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ifxwire._speedups.RowDecoder",
    .tp_basicsize = offsetof(RowDecoder, cols),
    .tp_itemsize = sizeof(ColPlan),
    .tp_dealloc = (destructor)RowDecoder_dealloc,
    .tp_vectorcall_offset = offsetof(RowDecoder, vectorcall),
    .tp_repr = (reprfunc)RowDecoder_repr,
    .tp_call = RowDecoder_call,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_traverse = (traverseproc)RowDecoder_traverse,
    .tp_clear = (inquiry)RowDecoder_clear,
    .tp_getset = RowDecoder_getset,
    .tp_methods = RowDecoder_methods,
};

static PyObject *make_row_decoder(PyObject *module, PyObject *args)
{
    (void)module;
    PyObject *plan, *encoding, *pure, *error_class;
    int variable, enc_kind, keep;
    Py_ssize_t fixed_total;
    long epoch_ordinal;
    if (!PyArg_ParseTuple(args, "O!pniUpOlO:make_row_decoder", &PyTuple_Type, &plan, &variable,
                          &fixed_total, &enc_kind, &encoding, &keep, &pure, &epoch_ordinal,
                          &error_class))
        return NULL;
    if (!PyExceptionClass_Check(error_class)) {
        PyErr_SetString(PyExc_TypeError, "error_class must be an exception class");
        return NULL;
    }
    if (enc_kind < E_OTHER || enc_kind > E_ASCII) {
        PyErr_SetString(PyExc_ValueError, "bad encoding kind");
        return NULL;
    }
    if (!PyCallable_Check(pure)) {
        PyErr_SetString(PyExc_TypeError, "pure must be callable");
        return NULL;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(plan);
    RowDecoder *self = PyObject_GC_NewVar(RowDecoder, &RowDecoder_Type, n);
    if (self == NULL)
        return NULL;
    self->vectorcall = RowDecoder_vectorcall;
    self->variable = variable;
    self->enc_kind = enc_kind;
    self->keep = keep;
    self->fixed_total = fixed_total;
    self->epoch_ordinal = epoch_ordinal;
    self->encoding = Py_NewRef(encoding);
    self->pure = Py_NewRef(pure);
    self->plan = Py_NewRef(plan);
    self->error_class = Py_NewRef(error_class);
    self->dm_keys = self->dm_template = NULL;
    self->dm_slot = NULL;
    self->dm_unique = 0;
    for (Py_ssize_t i = 0; i < n; i++)
        memset(&self->cols[i], 0, sizeof(ColPlan));
    PyObject_GC_Track(self);
    self->enc_name = PyUnicode_AsUTF8(encoding);
    if (self->enc_name == NULL)
        goto error;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PyTuple_GET_ITEM(plan, i);
        int kind;
        Py_ssize_t pos, width;
        PyObject *fn, *a1, *a2;
        if (!PyTuple_Check(item)) {
            PyErr_SetString(PyExc_TypeError, "plan items are tuples");
            goto error;
        }
        if (!PyArg_ParseTuple(item, "innOOO:plan item", &kind, &pos, &width, &fn, &a1, &a2))
            goto error;
        if (kind < 0 || kind > K_LAST || pos < 0 || width < 0) {
            PyErr_Format(PyExc_ValueError, "bad plan item %zd", i);
            goto error;
        }
        if ((kind == K_CALL2 || kind == K_CALL4 || kind == K_DECIMAL || kind == K_COMPLEX) &&
            !PyCallable_Check(fn)) {
            PyErr_Format(PyExc_TypeError, "plan item %zd needs a callable", i);
            goto error;
        }
        if (kind == K_COMPLEX && a1 != Py_None &&
            !(PyTuple_Check(a1) && PyTuple_GET_SIZE(a1) == 2 &&
              PyBytes_Check(PyTuple_GET_ITEM(a1, 0)) && PyType_Check(PyTuple_GET_ITEM(a1, 1)) &&
              (width == 2 || width == 4 || width == 8) && PyUnicode_Check(a2))) {
            PyErr_Format(PyExc_ValueError, "plan item %zd: bad collection fast path", i);
            goto error;
        }
        if (kind == K_DECIMAL) {
            long scale = PyLong_AsLong(a1);
            if (scale == -1 && PyErr_Occurred())
                goto error;
            if (scale < 0 || scale > 255 || width > DEC_MAX_WIDTH) {
                PyErr_Format(PyExc_ValueError, "plan item %zd: bad DECIMAL scale or width", i);
                goto error;
            }
            self->cols[i].scale = (int)scale;
        }
        if ((kind == K_CHAR || kind == K_CALL2 || kind == K_CALL4 || kind == K_DECIMAL) &&
            width == 0) {
            PyErr_Format(PyExc_ValueError, "plan item %zd needs a width", i);
            goto error;
        }
        if (!variable && pos + width > fixed_total) {
            PyErr_Format(PyExc_ValueError, "plan item %zd lies past the tuple", i);
            goto error;
        }
        self->cols[i].kind = kind;
        self->cols[i].pos = pos;
        self->cols[i].width = width;
        self->cols[i].fn = Py_NewRef(fn);
        self->cols[i].arg1 = Py_NewRef(a1);
        self->cols[i].arg2 = Py_NewRef(a2);
    }
    return (PyObject *)self;
error:
    Py_DECREF(self);
    return NULL;
}

