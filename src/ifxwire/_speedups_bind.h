/* ifxwire._speedups, part "bind": the SQ_BIND encoder: BindEncoder, make_bind_encoder. Included
 * once, in order, by _speedups.c (one translation unit, so gcc inlines across the parts as it did
 * in one file): not a header of its own. */

/* ------------------------------------------------------------------------------------------ */
/* SQ_BIND encoder                                                                             */
/* ------------------------------------------------------------------------------------------ */

/* make_bind_encoder(types, kinds, fns, encoding, enc_kind, head_code, consts, pure) returns a
 * BindEncoder, callable as encoder(values) -> bytes, producing the whole SQ_BIND message that
 * the generated Python encoder ``pure`` (types/bind.py compile_bind_encoder) produces for rows
 * whose value types are exactly ``types``. consts = (INTEGER head, FLOAT head, CHAR head, NULL
 * item, TRUE item, FALSE item), the 6-byte type/indicator/prec headers and the complete items,
 * built in Python so the wire constants live in one place.
 *
 * It raises (any exception) wherever the Python encoder raises (an int outside INTEGER, a
 * non-finite float, a str longer than 32767 bytes once encoded or not encodable, a callback
 * failing) and also when the row does not have the pattern's length or exact types: the
 * caller (client/binds.py bind_message) then encodes the row generically. */

enum { B_INT = 0, B_FLOAT = 1, B_STR = 2, B_NONE = 3, B_BOOL = 4, B_CALL = 5, B_LAST = 5 };

#define BIND_CHAR_MAX 32767
#define BIND_HEAD_LEN 6
#define BIND_INT_MAX 2147483647LL
#define BIND_STACK_ITEMS 32

typedef struct {
    int kind;
    PyTypeObject *type; /* borrowed from the encoder's types tuple */
    PyObject *fn;       /* B_CALL: fn(value, encoding) -> bytes */
} BindItem;

typedef struct {
    PyObject_VAR_HEAD
    vectorcallfunc vectorcall;
    int enc_kind;
    unsigned int head_code;
    PyObject *encoding; /* str */
    const char *enc_name;
    PyObject *types;    /* tuple of the pattern's types */
    PyObject *pure;
    PyObject *null_item, *true_item, *false_item; /* bytes */
    unsigned char int_head[BIND_HEAD_LEN];
    unsigned char float_head[BIND_HEAD_LEN];
    unsigned char char_head[BIND_HEAD_LEN];
    BindItem items[1];
} BindEncoder;

static PyTypeObject BindEncoder_Type;

/* What the first pass found for one value. */
typedef struct {
    const char *p;   /* B_STR / B_CALL: the bytes to copy */
    Py_ssize_t n;
    PyObject *owner; /* new reference keeping p alive, or NULL */
    long long i;     /* B_INT */
    double d;        /* B_FLOAT */
} BindScratch;

static inline void put16(unsigned char *p, unsigned int v)
{
    p[0] = (unsigned char)(v >> 8);
    p[1] = (unsigned char)v;
}

/* The bytes of str ``v`` in the encoder's code set: a borrowed pointer into the str itself when
 * it is Latin-1/ASCII already, else a new bytes object in s->owner. */
static int bind_encode_str(BindEncoder *self, PyObject *v, BindScratch *s)
{
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(v) < 0)
        return -1;
#endif
    PyObject *raw = NULL;
    switch (self->enc_kind) {
    case E_LATIN1:
        if (PyUnicode_KIND(v) == PyUnicode_1BYTE_KIND) {
            s->p = (const char *)PyUnicode_1BYTE_DATA(v);
            s->n = PyUnicode_GET_LENGTH(v);
            return 0;
        }
        raw = PyUnicode_AsLatin1String(v); /* raises UnicodeEncodeError */
        break;
    case E_ASCII:
    case E_UTF8:
        if (PyUnicode_IS_ASCII(v)) {
            s->p = (const char *)PyUnicode_1BYTE_DATA(v);
            s->n = PyUnicode_GET_LENGTH(v);
            return 0;
        }
        /* A temporary bytes rather than PyUnicode_AsUTF8AndSize, which would cache the UTF-8
         * form inside the caller's str for as long as that str lives. */
        raw = self->enc_kind == E_UTF8 ? PyUnicode_AsUTF8String(v) : PyUnicode_AsASCIIString(v);
        break;
    default:
        raw = PyUnicode_AsEncodedString(v, self->enc_name, "strict");
        break;
    }
    if (raw == NULL)
        return -1;
    if (!PyBytes_Check(raw)) {
        PyErr_SetString(PyExc_TypeError, "the codec did not return bytes");
        Py_DECREF(raw);
        return -1;
    }
    s->owner = raw;
    s->p = PyBytes_AS_STRING(raw);
    s->n = PyBytes_GET_SIZE(raw);
    return 0;
}

/* First pass over one row: checks every value (exact type, range, length) and fills ``sc``
 * (zeroed by the caller). Returns the SQ_BIND message's size, or -1 with an exception set; the
 * caller releases sc[i].owner either way. */
static Py_ssize_t bind_scan(BindEncoder *self, PyObject *const *vals, Py_ssize_t n,
                            BindScratch *sc)
{
    Py_ssize_t total = 4;
    for (Py_ssize_t i = 0; i < n; i++) {
        const BindItem *it = &self->items[i];
        PyObject *v = vals[i];
        BindScratch *s = &sc[i];
        if (Py_TYPE(v) != it->type) {
            PyErr_Format(PyExc_TypeError, "value %zd is a %.100s, the encoder expects %.100s", i,
                         Py_TYPE(v)->tp_name, it->type->tp_name);
            return -1;
        }
        switch (it->kind) {
        case B_INT: {
            int overflow;
            long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
            if (x == -1 && PyErr_Occurred())
                return -1;
            if (overflow || x < -BIND_INT_MAX || x > BIND_INT_MAX) {
                PyErr_Format(PyExc_OverflowError, "value %zd does not fit INTEGER", i);
                return -1;
            }
            s->i = x;
            total += BIND_HEAD_LEN + 4;
            break;
        }
        case B_FLOAT: {
            double d = PyFloat_AS_DOUBLE(v);
            if (!isfinite(d)) {
                PyErr_Format(PyExc_ValueError, "value %zd is not finite", i);
                return -1;
            }
            s->d = d;
            total += BIND_HEAD_LEN + 8;
            break;
        }
        case B_STR:
            if (bind_encode_str(self, v, s) < 0)
                return -1;
            if (s->n > BIND_CHAR_MAX) {
                PyErr_Format(PyExc_ValueError, "value %zd is longer than a CHAR bind", i);
                return -1;
            }
            if (s->n > 0 && memchr(s->p, 0, (size_t)s->n) != NULL) {
                /* A NUL: the generic path refuses it with the DataError naming the parameter
                 * (types/bind.py _bind_str; Informix would store the value cut there). */
                PyErr_Format(PyExc_ValueError, "value %zd holds a NUL character", i);
                return -1;
            }
            total += BIND_HEAD_LEN + 2 + s->n + (s->n & 1);
            break;
        case B_NONE:
            total += PyBytes_GET_SIZE(self->null_item);
            break;
        case B_BOOL:
            total += PyBytes_GET_SIZE(v == Py_True ? self->true_item : self->false_item);
            break;
        default: { /* B_CALL */
            PyObject *args[2] = {v, self->encoding};
            PyObject *r = PyObject_Vectorcall(it->fn, args, 2, NULL);
            if (r == NULL)
                return -1;
            s->owner = r;
            if (!PyBytes_Check(r)) {
                PyErr_Format(PyExc_TypeError, "the encoder of value %zd did not return bytes", i);
                return -1;
            }
            s->p = PyBytes_AS_STRING(r);
            s->n = PyBytes_GET_SIZE(r);
            total += s->n;
            break;
        }
        }
    }
    return total;
}

/* Second pass: writes the SQ_BIND message bind_scan sized at ``p``; returns the end. */
static unsigned char *bind_write(BindEncoder *self, PyObject *const *vals, Py_ssize_t n,
                                 const BindScratch *sc, unsigned char *p)
{
    put16(p, self->head_code);
    put16(p + 2, (unsigned int)n);
    p += 4;
    for (Py_ssize_t i = 0; i < n; i++) {
        const BindScratch *s = &sc[i];
        switch (self->items[i].kind) {
        case B_INT: {
            uint32_t u = (uint32_t)(int32_t)s->i;
            memcpy(p, self->int_head, BIND_HEAD_LEN);
            p[6] = (unsigned char)(u >> 24);
            p[7] = (unsigned char)(u >> 16);
            p[8] = (unsigned char)(u >> 8);
            p[9] = (unsigned char)u;
            p += BIND_HEAD_LEN + 4;
            break;
        }
        case B_FLOAT: {
            uint64_t u;
            memcpy(&u, &s->d, 8); /* IEEE 754 binary64, as struct's '>d' assumes too */
            memcpy(p, self->float_head, BIND_HEAD_LEN);
            for (int k = 0; k < 8; k++)
                p[BIND_HEAD_LEN + k] = (unsigned char)(u >> (56 - 8 * k));
            p += BIND_HEAD_LEN + 8;
            break;
        }
        case B_STR:
            memcpy(p, self->char_head, BIND_HEAD_LEN);
            put16(p + BIND_HEAD_LEN, (unsigned int)s->n);
            p += BIND_HEAD_LEN + 2;
            if (s->n)
                memcpy(p, s->p, (size_t)s->n);
            p += s->n;
            if (s->n & 1)
                *p++ = 0;
            break;
        case B_NONE:
        case B_BOOL: {
            PyObject *item = self->items[i].kind == B_NONE ? self->null_item
                             : vals[i] == Py_True          ? self->true_item
                                                           : self->false_item;
            Py_ssize_t len = PyBytes_GET_SIZE(item);
            memcpy(p, PyBytes_AS_STRING(item), (size_t)len);
            p += len;
            break;
        }
        default:
            memcpy(p, s->p, (size_t)s->n);
            p += s->n;
            break;
        }
    }
    return p;
}

static void scratch_release(BindScratch *sc, Py_ssize_t n)
{
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_CLEAR(sc[i].owner);
        sc[i].p = NULL;
        sc[i].n = 0;
    }
}

static PyObject *bind_encode(BindEncoder *self, PyObject *const *vals, Py_ssize_t n)
{
    BindScratch stack[BIND_STACK_ITEMS];
    BindScratch *sc = stack;
    PyObject *out = NULL;
    if (n > BIND_STACK_ITEMS) {
        sc = PyMem_Calloc((size_t)n, sizeof(BindScratch));
        if (sc == NULL)
            return PyErr_NoMemory();
    } else {
        memset(stack, 0, sizeof(BindScratch) * (size_t)n);
    }
    Py_ssize_t total = bind_scan(self, vals, n, sc);
    if (total < 0)
        goto done;
    out = PyBytes_FromStringAndSize(NULL, total);
    if (out == NULL)
        goto done;
    unsigned char *end = bind_write(self, vals, n, sc, (unsigned char *)PyBytes_AS_STRING(out));
    assert(end == (unsigned char *)PyBytes_AS_STRING(out) + total);
    (void)end;
done:
    scratch_release(sc, n);
    if (sc != stack)
        PyMem_Free(sc);
    return out;
}

static PyObject *BindEncoder_vectorcall(PyObject *callable, PyObject *const *args, size_t nargsf,
                                        PyObject *kwnames)
{
    BindEncoder *self = (BindEncoder *)callable;
    if (PyVectorcall_NARGS(nargsf) != 1 || (kwnames != NULL && PyTuple_GET_SIZE(kwnames) != 0)) {
        PyErr_SetString(PyExc_TypeError, "a bind encoder takes (values)");
        return NULL;
    }
    /* A tuple as is; anything else copied into one. The encoder keeps borrowed pointers to
     * the values (and into str data) across calls to Python encoders, during which another
     * thread could change a list: a tuple cannot change. */
    PyObject *seq = PyTuple_CheckExact(args[0]) ? Py_NewRef(args[0]) : PySequence_Tuple(args[0]);
    if (seq == NULL)
        return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(seq);
    PyObject *out = NULL;
    if (n != Py_SIZE(self))
        PyErr_Format(PyExc_ValueError, "%zd values for a %zd-value bind encoder", n,
                     Py_SIZE(self));
    else
        out = bind_encode(self, ((PyTupleObject *)seq)->ob_item, n);
    Py_DECREF(seq);
    return out;
}

/* The exception being raised, taken out of the thread state (normalised, traceback attached). */
static PyObject *take_exception(void)
{
#if PY_VERSION_HEX >= 0x030C0000
    return PyErr_GetRaisedException();
#else
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    PyErr_NormalizeException(&type, &value, &tb);
    if (value != NULL && tb != NULL)
        PyException_SetTraceback(value, tb);
    Py_XDECREF(type);
    Py_XDECREF(tb);
    return value;
#endif
}

static int grow(unsigned char **buf, size_t *cap, size_t need)
{
    if (need <= *cap)
        return 0;
    size_t cap2 = *cap * 2 > need ? *cap * 2 : need;
    unsigned char *b2 = PyMem_Realloc(*buf, cap2);
    if (b2 == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    *buf = b2;
    *cap = cap2;
    return 0;
}

/* encoder.encode_rows(params, it, head, tail, end, max_rows, max_bytes)
 *     -> (chunk, count, pending, exc)
 *
 * executemany's row loop (client/batch.py), mirrored by binds.py's pure ``encode_rows``: from
 * ``params`` on, then each next(it), every parameter set that is a tuple or list of exactly this
 * pattern and that the encoder takes becomes ``head + SQ_BIND + tail`` in ``chunk``. It stops
 * at the first set it does not take (``pending`` is that set, for the generic path, which
 * encodes it or raises its PEP 249 error), when the iterator ends (pending is ``end``), when it
 * raises (pending is ``end``, ``exc`` the exception: the rows before it are in chunk, to be
 * sent as the per-row loop would) or once ``max_rows`` sets or ``max_bytes`` bytes are in
 * chunk (pending is the next set). */
static PyObject *BindEncoder_encode_rows(BindEncoder *self, PyObject *const *args,
                                         Py_ssize_t nargs)
{
    if (nargs != 7 || !PyBytes_Check(args[2]) || !PyBytes_Check(args[3])) {
        PyErr_SetString(PyExc_TypeError,
                        "encode_rows(params, it, head: bytes, tail: bytes, end, max_rows, "
                        "max_bytes)");
        return NULL;
    }
    PyObject *it = args[1], *head = args[2], *tail = args[3], *end = args[4];
    Py_ssize_t max_rows = PyLong_AsSsize_t(args[5]);
    if (max_rows == -1 && PyErr_Occurred())
        return NULL;
    Py_ssize_t max_bytes = PyLong_AsSsize_t(args[6]);
    if (max_bytes == -1 && PyErr_Occurred())
        return NULL;
    if (!PyIter_Check(it)) {
        PyErr_SetString(PyExc_TypeError, "encode_rows needs an iterator");
        return NULL;
    }
    const Py_ssize_t n = Py_SIZE(self);
    const Py_ssize_t head_len = PyBytes_GET_SIZE(head), tail_len = PyBytes_GET_SIZE(tail);
    BindScratch stack[BIND_STACK_ITEMS];
    BindScratch *sc = stack;
    if (n > BIND_STACK_ITEMS) {
        sc = PyMem_Calloc((size_t)n, sizeof(BindScratch));
        if (sc == NULL)
            return PyErr_NoMemory();
    } else {
        memset(stack, 0, sizeof(stack));
    }
    size_t cap = (size_t)(max_bytes > 0 ? max_bytes : 0) + 4096, len = 0;
    unsigned char *buf = PyMem_Malloc(cap);
    PyObject *row = Py_NewRef(args[0]), *exc = NULL, *result = NULL;
    Py_ssize_t count = 0;
    if (buf == NULL) {
        PyErr_NoMemory();
        goto fail;
    }
    for (;;) {
        PyObject *vals;
        if (PyTuple_CheckExact(row))
            vals = Py_NewRef(row);
        else if (PyList_CheckExact(row))
            vals = PyList_AsTuple(row); /* a callback could change a list under us */
        else
            break;
        if (vals == NULL)
            goto fail;
        if (PyTuple_GET_SIZE(vals) != n) {
            Py_DECREF(vals);
            break;
        }
        PyObject *const *items = ((PyTupleObject *)vals)->ob_item;
        Py_ssize_t size = bind_scan(self, items, n, sc);
        if (size < 0) {
            scratch_release(sc, n);
            Py_DECREF(vals);
            if (!PyErr_ExceptionMatches(PyExc_Exception)) {
                exc = take_exception(); /* KeyboardInterrupt and the like: stop the batch */
                Py_SETREF(row, Py_NewRef(end));
            } else {
                PyErr_Clear(); /* the generic path encodes this row or raises its error */
            }
            break;
        }
        if (grow(&buf, &cap, len + (size_t)(head_len + size + tail_len)) < 0) {
            scratch_release(sc, n);
            Py_DECREF(vals);
            goto fail;
        }
        memcpy(buf + len, PyBytes_AS_STRING(head), (size_t)head_len);
        len += (size_t)head_len;
        len = (size_t)(bind_write(self, items, n, sc, buf + len) - buf);
        memcpy(buf + len, PyBytes_AS_STRING(tail), (size_t)tail_len);
        len += (size_t)tail_len;
        scratch_release(sc, n);
        Py_DECREF(vals);
        count++;
        PyObject *next = PyIter_Next(it);
        if (next == NULL) {
            if (PyErr_Occurred())
                exc = take_exception();
            Py_SETREF(row, Py_NewRef(end));
            break;
        }
        Py_SETREF(row, next);
        if (count >= max_rows || (Py_ssize_t)len >= max_bytes)
            break;
    }
    {
        PyObject *chunk = PyBytes_FromStringAndSize((const char *)buf, (Py_ssize_t)len);
        if (chunk == NULL)
            goto fail;
        result = Py_BuildValue("(NnOO)", chunk, count, row, exc != NULL ? exc : Py_None);
    }
fail:
    Py_XDECREF(exc);
    Py_DECREF(row);
    PyMem_Free(buf);
    if (sc != stack)
        PyMem_Free(sc);
    return result;
}

static PyMethodDef BindEncoder_methods[] = {
    {"encode_rows", (PyCFunction)(void (*)(void))BindEncoder_encode_rows, METH_FASTCALL,
     "encode_rows(params, it, head, tail, end, max_rows, max_bytes) -> (chunk, count, pending, "
     "exc)"},
    {NULL, NULL, 0, NULL},
};

static int BindEncoder_traverse(BindEncoder *self, visitproc visit, void *arg)
{
    Py_VISIT(self->encoding);
    Py_VISIT(self->types);
    Py_VISIT(self->pure);
    Py_VISIT(self->null_item);
    Py_VISIT(self->true_item);
    Py_VISIT(self->false_item);
    for (Py_ssize_t i = 0; i < Py_SIZE(self); i++)
        Py_VISIT(self->items[i].fn);
    return 0;
}

static int BindEncoder_clear(BindEncoder *self)
{
    /* The item types are borrowed from self->types: a cleared encoder is never called again
     * (tp_clear only runs on unreachable objects). */
    for (Py_ssize_t i = 0; i < Py_SIZE(self); i++)
        Py_CLEAR(self->items[i].fn);
    Py_CLEAR(self->encoding);
    Py_CLEAR(self->types);
    Py_CLEAR(self->pure);
    Py_CLEAR(self->null_item);
    Py_CLEAR(self->true_item);
    Py_CLEAR(self->false_item);
    self->enc_name = NULL;
    return 0;
}

static void BindEncoder_dealloc(BindEncoder *self)
{
    PyObject_GC_UnTrack(self);
    BindEncoder_clear(self);
    PyObject_GC_Del(self);
}

static PyObject *BindEncoder_get_pure(BindEncoder *self, void *closure)
{
    (void)closure;
    if (self->pure == NULL)
        Py_RETURN_NONE;
    return Py_NewRef(self->pure);
}

static PyObject *BindEncoder_get_types(BindEncoder *self, void *closure)
{
    (void)closure;
    if (self->types == NULL)
        Py_RETURN_NONE;
    return Py_NewRef(self->types);
}

static PyObject *BindEncoder_repr(BindEncoder *self)
{
    return PyUnicode_FromFormat("<ifxwire C bind encoder, %zd values, %U>", Py_SIZE(self),
                                self->encoding);
}

static PyGetSetDef BindEncoder_getset[] = {
    {"pure", (getter)BindEncoder_get_pure, NULL, "the generated Python encoder this one mirrors",
     NULL},
    {"types", (getter)BindEncoder_get_types, NULL, "the value types of the pattern", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject BindEncoder_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ifxwire._speedups.BindEncoder",
    .tp_basicsize = offsetof(BindEncoder, items),
    .tp_itemsize = sizeof(BindItem),
    .tp_dealloc = (destructor)BindEncoder_dealloc,
    .tp_vectorcall_offset = offsetof(BindEncoder, vectorcall),
    .tp_repr = (reprfunc)BindEncoder_repr,
    .tp_call = PyVectorcall_Call,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_traverse = (traverseproc)BindEncoder_traverse,
    .tp_clear = (inquiry)BindEncoder_clear,
    .tp_getset = BindEncoder_getset,
    .tp_methods = BindEncoder_methods,
};

static int bind_head(PyObject *consts, Py_ssize_t i, unsigned char *dst)
{
    PyObject *b = PyTuple_GET_ITEM(consts, i);
    if (!PyBytes_Check(b) || PyBytes_GET_SIZE(b) != BIND_HEAD_LEN) {
        PyErr_Format(PyExc_ValueError, "consts[%zd] must be %d bytes", i, BIND_HEAD_LEN);
        return -1;
    }
    memcpy(dst, PyBytes_AS_STRING(b), BIND_HEAD_LEN);
    return 0;
}

static PyObject *make_bind_encoder(PyObject *module, PyObject *args)
{
    (void)module;
    PyObject *types, *kinds, *fns, *encoding, *consts, *pure;
    int enc_kind, head_code;
    if (!PyArg_ParseTuple(args, "O!O!O!UiiO!O:make_bind_encoder", &PyTuple_Type, &types,
                          &PyTuple_Type, &kinds, &PyTuple_Type, &fns, &encoding, &enc_kind,
                          &head_code, &PyTuple_Type, &consts, &pure))
        return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(types);
    if (PyTuple_GET_SIZE(kinds) != n || PyTuple_GET_SIZE(fns) != n) {
        PyErr_SetString(PyExc_ValueError, "types, kinds and fns must have the same length");
        return NULL;
    }
    if (n > 0xFFFF || head_code < 0 || head_code > 0xFFFF) {
        PyErr_SetString(PyExc_ValueError, "count and head code are 16-bit");
        return NULL;
    }
    if (enc_kind < E_OTHER || enc_kind > E_ASCII) {
        PyErr_SetString(PyExc_ValueError, "bad encoding kind");
        return NULL;
    }
    if (PyTuple_GET_SIZE(consts) != 6) {
        PyErr_SetString(PyExc_ValueError, "consts: 3 headers and 3 items");
        return NULL;
    }
    for (Py_ssize_t i = 3; i < 6; i++) {
        if (!PyBytes_CheckExact(PyTuple_GET_ITEM(consts, i))) {
            PyErr_Format(PyExc_TypeError, "consts[%zd] must be bytes", i);
            return NULL;
        }
    }
    BindEncoder *self = PyObject_GC_NewVar(BindEncoder, &BindEncoder_Type, n);
    if (self == NULL)
        return NULL;
    self->vectorcall = BindEncoder_vectorcall;
    self->enc_kind = enc_kind;
    self->head_code = (unsigned int)head_code;
    self->encoding = Py_NewRef(encoding);
    self->types = Py_NewRef(types);
    self->pure = Py_NewRef(pure);
    self->null_item = Py_NewRef(PyTuple_GET_ITEM(consts, 3));
    self->true_item = Py_NewRef(PyTuple_GET_ITEM(consts, 4));
    self->false_item = Py_NewRef(PyTuple_GET_ITEM(consts, 5));
    for (Py_ssize_t i = 0; i < n; i++)
        memset(&self->items[i], 0, sizeof(BindItem));
    PyObject_GC_Track(self);
    self->enc_name = PyUnicode_AsUTF8(encoding);
    if (self->enc_name == NULL)
        goto error;
    if (bind_head(consts, 0, self->int_head) < 0 || bind_head(consts, 1, self->float_head) < 0 ||
        bind_head(consts, 2, self->char_head) < 0)
        goto error;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *t = PyTuple_GET_ITEM(types, i);
        long kind = PyLong_AsLong(PyTuple_GET_ITEM(kinds, i));
        if (kind == -1 && PyErr_Occurred())
            goto error;
        if (!PyType_Check(t) || kind < 0 || kind > B_LAST) {
            PyErr_Format(PyExc_ValueError, "bad pattern item %zd", i);
            goto error;
        }
        PyTypeObject *tp = (PyTypeObject *)t;
        /* The encoder reads values with the macros of their exact type: each kind is bound to
         * its one type, whatever the caller passes. */
        PyTypeObject *want = kind == B_INT     ? &PyLong_Type
                             : kind == B_FLOAT ? &PyFloat_Type
                             : kind == B_STR   ? &PyUnicode_Type
                             : kind == B_NONE  ? Py_TYPE(Py_None)
                             : kind == B_BOOL  ? &PyBool_Type
                                               : NULL;
        if (want != NULL && tp != want) {
            PyErr_Format(PyExc_ValueError, "pattern item %zd: kind %ld is not for %.100s", i,
                         kind, tp->tp_name);
            goto error;
        }
        PyObject *fn = PyTuple_GET_ITEM(fns, i);
        if (kind == B_CALL) {
            if (!PyCallable_Check(fn)) {
                PyErr_Format(PyExc_TypeError, "pattern item %zd needs a callable", i);
                goto error;
            }
            self->items[i].fn = Py_NewRef(fn);
        }
        self->items[i].kind = (int)kind;
        self->items[i].type = tp;
    }
    return (PyObject *)self;
error:
    Py_DECREF(self);
    return NULL;
}

