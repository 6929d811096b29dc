/* ifxwire._cdcspeed, part "renderer": the server's CDC record renderer: the column kinds, the
 * record's header constants, the Renderer type (its growing scratch buffer, DECIMAL's stored
 * text in short) and make_renderer. Included once, in order, by _cdcspeed.c (one translation
 * unit, so gcc inlines across the parts as it did in one file): not a header of its own. */

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

