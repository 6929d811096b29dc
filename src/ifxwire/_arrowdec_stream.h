/* ifxwire._arrowdec, part "stream": the Columns object: a reply fed run by run from the receive
 * buffer (feed), pump's receive loop, take's read-only Blocks. Included once, in order, by
 * _arrowdec.c (one translation unit, so gcc inlines across the parts as it did in one file):
 * not a header of its own. */

/* ------------------------------------------------------------------------------------------ */

/* Columns(plan, enc_kind, keep): the columns of one fetch reply, fed run by run as its bytes
   arrive (``feed``), so the runs are decoded from the receive buffer itself and never copied
   (a LIST of 10 INTEGERs is ~1 KB a row, ~20 times its elements). */
typedef struct {
    PyObject_HEAD
    PyObject *plan;
    Col *cols;
    Py_ssize_t ncols;
    Py_ssize_t rows, rcap;
    int enc, keep;
    PyObject *taken; /* take()'s answer once it handed the buffers out: nothing more is fed */
    int busy;        /* a feed or pump is decoding or receiving without the GIL */
} Columns;

static void columns_dealloc(Columns *self)
{
    cols_free(self->cols, self->ncols);
    Py_XDECREF(self->taken);
    Py_XDECREF(self->plan);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *columns_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    PyObject *plan;
    int enc, keep;
    static char *kwlist[] = {"plan", "enc_kind", "keep", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O!ip", kwlist, &PyTuple_Type, &plan, &enc,
                                     &keep))
        return NULL;
    Columns *self = (Columns *)type->tp_alloc(type, 0);
    if (self == NULL)
        return NULL;
    self->plan = Py_NewRef(plan);
    self->ncols = PyTuple_GET_SIZE(plan);
    self->enc = enc;
    self->keep = keep;
    self->cols = PyMem_Calloc((size_t)(self->ncols ? self->ncols : 1), sizeof(Col));
    if (self->cols == NULL) {
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    if (cols_parse(self->cols, plan, self->ncols, 0) < 0) {
        Py_DECREF(self);
        return NULL;
    }
    return (PyObject *)self;
}

/* Put the columns back as they were before rows row0.. were attempted: a refused run leaves
   no trace (nulls, string/list data, validity bits, BOOLEAN bits, fixed-size slots). */
static void cols_rollback(Col *cols, Py_ssize_t ncols, const Py_ssize_t *saved,
                          Py_ssize_t row0, Py_ssize_t count)
{
    for (Py_ssize_t i = 0; i < ncols; i++) {
        Col *c = &cols[i];
        c->nulls = saved[2 * i];
        for (Py_ssize_t r = row0; r < row0 + count; r++) {
            c->validity[r >> 3] |= (unsigned char)(1u << (r & 7));
            if (c->kind == A_BOOL)
                c->data[r >> 3] &= (unsigned char)~(1u << (r & 7));
        }
        if (is_var(c))
            c->data_len = saved[2 * i + 1];
        else if (c->kind != A_BOOL)
            memset(c->data + row_bytes(c) * row0, 0, (size_t)(row_bytes(c) * count));
    }
}

/* 0, or -1 with ValueError once take() has handed the buffers out (feed, pump), or while
   another thread's feed or pump uses them (their pointers are held without the GIL). */
static int columns_live(Columns *self)
{
    if (self->busy) {
        PyErr_SetString(PyExc_ValueError, "ifxwire._arrowdec: the columns are in use");
        return -1;
    }
    if (self->taken == NULL)
        return 0;
    PyErr_SetString(PyExc_ValueError, "ifxwire._arrowdec: the columns were taken");
    return -1;
}

/* take()'s answer again (the same Blocks), or ValueError if take() failed half way. */
static PyObject *columns_taken(Columns *self)
{
    if (self->taken != Py_None)
        return Py_NewRef(self->taken);
    PyErr_SetString(PyExc_ValueError, "ifxwire._arrowdec: the columns were lost by take()");
    return NULL;
}

/* Decode the ``count`` whole tuple messages at ``p[0:len]`` after the rows fed so far (the
   GIL held: the reservation allocates; the decoding itself runs without it). Returns 1 when
   they were kept, 0 when the run is not one this decoder takes (nothing of it kept), -1 with
   an exception. */
static int cols_feed(Columns *self, const unsigned char *p, Py_ssize_t len, Py_ssize_t count)
{
    BufRef part;
    memset(&part, 0, sizeof(part));
    part.p = p;
    part.len = len;
    Py_ssize_t ncols = self->ncols, row0 = self->rows;
    Py_ssize_t *saved = PyMem_Malloc((size_t)(2 * (ncols ? ncols : 1)) * sizeof(Py_ssize_t));
    if (saved == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    if (cols_reserve(self->cols, ncols, &self->rcap, row0 + count, len, self->enc) < 0) {
        PyMem_Free(saved);
        return -1;
    }
    for (Py_ssize_t i = 0; i < ncols; i++) {
        saved[2 * i] = self->cols[i].nulls;
        saved[2 * i + 1] = self->cols[i].data_len;
    }
    int r;
    int was_busy = self->busy;
    self->busy = 1;
    Py_BEGIN_ALLOW_THREADS
    r = decode_rows(self->cols, ncols, &part, 1, row0, count, self->enc, self->keep);
    Py_END_ALLOW_THREADS
    self->busy = was_busy;
    if (r)
        cols_rollback(self->cols, ncols, saved, row0, count);
    else
        self->rows = row0 + count;
    PyMem_Free(saved);
    return !r;
}

/* feed(buffer, pos, end, count) -> bool: decode the ``count`` whole tuple messages of
   ``buffer[pos:end]`` (tuple_run's answer) after the rows fed so far. False: the run is not
   one this decoder takes, and nothing of it was kept. */
static PyObject *columns_feed(Columns *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "feed(buffer, pos, end, count)");
        return NULL;
    }
    Py_ssize_t pos = PyLong_AsSsize_t(args[1]);
    Py_ssize_t end = PyLong_AsSsize_t(args[2]);
    Py_ssize_t count = PyLong_AsSsize_t(args[3]);
    if (PyErr_Occurred())
        return NULL;
    BufRef b;
    if (buf_get(args[0], &b) < 0)
        return NULL;
    if (pos < 0 || end > b.len || pos > end || count < 0) {
        PyBuffer_Release(&b.view);
        PyErr_SetString(PyExc_ValueError, "ifxwire._arrowdec: feed outside the buffer");
        return NULL;
    }
    int r = columns_live(self) < 0 ? -1 : cols_feed(self, b.p + pos, end - pos, count);
    PyBuffer_Release(&b.view);
    return r < 0 ? NULL : PyBool_FromLong(r);
}

#ifndef _WIN32
/* ---------------------------------------------------------------------------------------
   pump: the receive loop of a columnar fetch in C (docs/ARROW.md, "Decoded where it lies").
   Receiving a ~100 MB result in ~430 receives cost ~20 us of Python each (the reply parser's
   frames, the transport's, tuple_run and feed called from Python); here each receive is one
   recv(2) and the runs it completes are decoded where they lie, with no Python frame. */

enum { P_STOP = 0, P_EOF = 1, P_ERROR = 2, P_TIMEOUT = 3 };

/* pump(fd, buffer, start, end, budget, tuple_limit, min_free, timeout_ms)
       -> (status, start, end, rows, tuple_bytes, errno)

   Feeds the whole SQ_TUPLE messages of ``buffer[start:end]`` into the columns, receives more
   from ``fd`` into the buffer's free tail (moving the unparsed bytes to its front when fewer
   than ``min_free`` bytes are free, as Transport.room does), and so on, until the bytes at
   ``start`` are something the reply parser must see: another message, a tuple with a negative
   size or one larger than ``tuple_limit`` or than the buffer, the tuple that would take the
   rows past ``budget`` bytes, a run the decoder refuses (left where it is, unfed). Then
   status P_STOP; P_EOF, P_ERROR (with errno) and P_TIMEOUT (no byte within ``timeout_ms``,
   -1 for none) are the receive's failures, the caller raises them. EINTR returns P_STOP so
   that Python runs its signal handlers. ``rows`` and ``tuple_bytes`` count what was fed.
   The buffer (a bytearray) stays exported throughout: nothing can resize it meanwhile. */
static PyObject *columns_pump(Columns *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 8) {
        PyErr_SetString(PyExc_TypeError,
                        "pump(fd, buffer, start, end, budget, tuple_limit, min_free, timeout_ms)");
        return NULL;
    }
    int fd = (int)PyLong_AsLong(args[0]);
    Py_ssize_t start = PyLong_AsSsize_t(args[2]);
    Py_ssize_t end = PyLong_AsSsize_t(args[3]);
    Py_ssize_t budget = PyLong_AsSsize_t(args[4]);
    Py_ssize_t limit = PyLong_AsSsize_t(args[5]);
    Py_ssize_t min_free = PyLong_AsSsize_t(args[6]);
    int timeout = (int)PyLong_AsLong(args[7]);
    if (PyErr_Occurred() || columns_live(self) < 0)
        return NULL;
    Py_buffer view;
    if (PyObject_GetBuffer(args[1], &view, PyBUF_WRITABLE) < 0)
        return NULL;
    unsigned char *buf = (unsigned char *)view.buf;
    Py_ssize_t size = view.len;
    if (fd < 0 || start < 0 || end > size || start > end) {
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_ValueError, "ifxwire._arrowdec: pump outside the buffer");
        return NULL;
    }
    Py_ssize_t fed_rows = 0, fed_bytes = 0;
    int status = P_STOP, err = 0;
    self->busy = 1; /* until it returns: take() must not free what the loop writes */
    for (;;) {
        /* the run of whole tuples at start, within the budget */
        Py_ssize_t pos = start, count = 0, need = 0;
        int other = 0;
        while (end - pos >= 2) {
            if (buf[pos] != 0 || buf[pos + 1] != SQ_TUPLE) {
                other = 1;
                break;
            }
            if (end - pos < 8) {
                need = 8;
                break;
            }
            int32_t tsize = (int32_t)be32(buf + pos + 4);
            if (tsize < 0 || tsize > limit) {
                other = 1;
                break;
            }
            Py_ssize_t nxt = pos + 8 + (Py_ssize_t)tsize + (tsize & 1);
            if (nxt - start + fed_bytes > budget) {
                other = 1;
                break;
            }
            if (nxt > end) {
                need = nxt - pos;
                break;
            }
            pos = nxt;
            count++;
        }
        if (count) {
            int r = cols_feed(self, buf + start, pos - start, count);
            if (r < 0)
                goto fail;
            if (r == 0)
                break; /* refused: the reply parser takes the run (to the row decoder) */
            fed_rows += count;
            fed_bytes += pos - start;
            start = pos;
        }
        if (other || need > size)
            break;
        /* room for the rest, then one receive */
        if (start == end)
            start = end = 0;
        else if (size - end < min_free || need > size - start) {
            memmove(buf, buf + start, (size_t)(end - start));
            end -= start;
            start = 0;
        }
        ssize_t got;
        int polled = 0;
        Py_BEGIN_ALLOW_THREADS
        for (;;) {
            got = recv(fd, buf + end, (size_t)(size - end), MSG_DONTWAIT);
            if (got >= 0 || (errno != EAGAIN && errno != EWOULDBLOCK) || polled)
                break;
            struct pollfd pfd = {fd, POLLIN, 0};
            int n = poll(&pfd, 1, timeout);
            if (n <= 0) {
                got = n == 0 ? -2 : -1;
                break;
            }
            polled = 1;
        }
        if (got == -1)
            err = errno;
        Py_END_ALLOW_THREADS
        if (got == -2) {
            status = P_TIMEOUT;
            break;
        }
        if (got < 0) {
            if (err == EINTR || err == EAGAIN || err == EWOULDBLOCK)
                break; /* Python's own receive takes it from here (signals, a spurious wake) */
            status = P_ERROR;
            break;
        }
        if (got == 0) {
            status = P_EOF;
            break;
        }
        end += got;
    }
    self->busy = 0;
    PyBuffer_Release(&view);
    return Py_BuildValue("(innnni)", status, start, end, fed_rows, fed_bytes, err);
fail:
    self->busy = 0;
    PyBuffer_Release(&view);
    return NULL;
}
#endif

/* columns() -> [(null_count, validity or None, data, offsets or None)] of the rows fed so
   far, as decode() gives them. */
static PyObject *columns_columns(Columns *self, PyObject *Py_UNUSED(ignored))
{
    if (self->taken != NULL) /* the buffers are the Blocks now */
        return columns_taken(self);
    return cols_result(self->cols, self->ncols, self->rows);
}

/* ---------------------------------------------------------------------------------------
   Block: a buffer the columns owned, handed over by take() instead of copied into bytes
   (a 100k-row table's ~4 MB were copied into fresh bytes, page faults included, only for
   the Columns to free its own copy right after). Read-only, freed with the Block; pyarrow
   keeps the Block alive (py_buffer holds the exporter) as long as an array uses it. */
typedef struct {
    PyObject_HEAD
    void *p;
    Py_ssize_t len;
} Block;

static void block_dealloc(Block *self)
{
    PyMem_Free(self->p);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int block_getbuffer(Block *self, Py_buffer *view, int flags)
{
    return PyBuffer_FillInfo(view, (PyObject *)self, self->p, self->len, 1, flags);
}

static Py_ssize_t block_length(Block *self)
{
    return self->len;
}

static PyBufferProcs block_as_buffer = {(getbufferproc)block_getbuffer, NULL};
static PySequenceMethods block_as_sequence = {.sq_length = (lenfunc)block_length};

static PyTypeObject BlockType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ifxwire._arrowdec.Block",
    .tp_basicsize = sizeof(Block),
    .tp_dealloc = (destructor)block_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "a read-only buffer handed over by Columns.take() (freed with the Block)",
    .tp_as_buffer = &block_as_buffer,
    .tp_as_sequence = &block_as_sequence,
};

/* The first ``n`` bytes at ``*pp`` as a Block that owns them; ``*pp`` is then NULL. Not
   trimmed to ``n`` (the columns grow by doubling): shrinking the ~8 MB block of a 100k-row
   LIST column with realloc gave it back to the system, and the next fetch's columns took
   ~500 page faults more (measured, docs/ARROW.md); a string or list column's unused tail
   was never written, so its pages are not resident. */
static PyObject *block_take(unsigned char **pp, Py_ssize_t n)
{
    Block *b = PyObject_New(Block, &BlockType);
    if (b == NULL)
        return NULL;
    b->p = *pp;
    b->len = n;
    *pp = NULL;
    return (PyObject *)b;
}

/* take() -> [(null_count, validity or None, data, offsets or None)] as columns() gives
   them, each buffer a Block holding the columns' own memory: no copy. The Columns is spent:
   feed and pump raise ValueError afterwards; take and columns give the same Blocks again. */
static PyObject *columns_take(Columns *self, PyObject *Py_UNUSED(ignored))
{
    if (self->taken != NULL)
        return columns_taken(self);
    if (columns_live(self) < 0) /* another thread's feed or pump writes into them */
        return NULL;
    Py_ssize_t ncols = self->ncols, rows = self->rows;
    if (cols_reserve(self->cols, ncols, &self->rcap, rows, 0, self->enc) < 0)
        return NULL; /* (no rows fed: the buffers were never allocated) */
    PyObject *result = PyList_New(ncols);
    if (result == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < ncols; i++) {
        Col *c = &self->cols[i];
        PyObject *validity = c->nulls ? block_take(&c->validity, (rows + 7) / 8)
                                      : Py_NewRef(Py_None);
        PyObject *data = block_take(&c->data, data_size(c, rows));
        PyObject *offsets = c->offsets != NULL
                                ? block_take((unsigned char **)&c->offsets,
                                             (rows + 1) * (Py_ssize_t)sizeof(int32_t))
                                : Py_NewRef(Py_None);
        PyObject *t = NULL;
        if (validity != NULL && data != NULL && offsets != NULL)
            t = Py_BuildValue("(nOOO)", c->nulls, validity, data, offsets);
        Py_XDECREF(validity);
        Py_XDECREF(data);
        Py_XDECREF(offsets);
        if (t == NULL) { /* some buffers are gone with the Blocks: the Columns is spent */
            self->taken = Py_NewRef(Py_None);
            Py_DECREF(result);
            return NULL;
        }
        PyList_SET_ITEM(result, i, t);
    }
    self->taken = Py_NewRef(result);
    return result;
}

static PyObject *columns_rows(Columns *self, void *Py_UNUSED(closure))
{
    return PyLong_FromSsize_t(self->rows);
}

static PyMethodDef columns_methods[] = {
    {"feed", (PyCFunction)(void (*)(void))columns_feed, METH_FASTCALL,
     "feed(buffer, pos, end, count) -> bool: decode a run of whole tuples after the others"},
#ifndef _WIN32
    {"pump", (PyCFunction)(void (*)(void))columns_pump, METH_FASTCALL,
     "pump(fd, buffer, start, end, budget, tuple_limit, min_free, timeout_ms) -> "
     "(status, start, end, rows, tuple_bytes, errno): receive and feed whole tuples"},
#endif
    {"columns", (PyCFunction)columns_columns, METH_NOARGS,
     "columns() -> [(nulls, validity, data, offsets)] of the rows fed so far"},
    {"take", (PyCFunction)columns_take, METH_NOARGS,
     "take() -> columns() with the buffers handed over (Blocks, no copy); the Columns is spent"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef columns_getset[] = {
    {"rows", (getter)columns_rows, NULL, "rows fed so far", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject ColumnsType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ifxwire._arrowdec.Columns",
    .tp_basicsize = sizeof(Columns),
    .tp_dealloc = (destructor)columns_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Columns(plan, enc_kind, keep): one reply's columns, decoded run by run (feed)",
    .tp_methods = columns_methods,
    .tp_getset = columns_getset,
    .tp_new = columns_new,
};

