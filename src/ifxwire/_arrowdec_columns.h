/* ifxwire._arrowdec, part "columns": the column builders: a kind's buffer sizes, A_LIST's type-
 * table words, the plan read into Cols, room reserved, the buffers freed and handed out.
 * Included once, in order, by _arrowdec.c (one translation unit, so gcc inlines across the
 * parts as it did in one file): not a header of its own. */

static PyObject *take_bytes(const void *p, Py_ssize_t n)
{
    return PyBytes_FromStringAndSize((const char *)p, n);
}

/* Bytes per row of a fixed-size kind's data buffer (0 for strings and lists, whose data grows
   by what each value holds; A_BOOL is bits, counted apart). */
static Py_ssize_t row_bytes(const Col *c)
{
    switch (c->kind) {
    case A_I16: return 2;
    case A_I32: case A_F32: case A_DATE: return 4;
    case A_I64: case A_INT8: case A_F64: case A_DECF: return 8;
    case A_DT: return c->arg >> 8 ? 8 : 4;
    case A_DEC: case A_RAW: return 16;
    default: return 0;
    }
}

static int is_var(const Col *c)
{
    return c->kind == A_CHAR || c->kind == A_VARCHAR || c->kind == A_LVARCHAR || c->kind == A_LIST ||
           c->kind == A_TLIST;
}

/* The data buffer's size for ``rows`` rows: what the result hands out. */
static Py_ssize_t data_size(const Col *c, Py_ssize_t rows)
{
    if (is_var(c))
        return c->data_len;
    if (c->kind == A_BOOL)
        return (rows + 7) / 8;
    return row_bytes(c) * rows;
}

/* The bytes of an A_LIST column's expected type table that the row decoder's general path
   reads, as 8-byte masked words (docs/ARROW.md, "The type-table check").

   A value whose table differs from the expected bytes is not decoded by the row decoder's
   fast path (composite.fast_collection_decoder) but by ComplexDecoder, which parses the
   value's own table with complextype.read_type_table. That reads, of the layout in
   docs/PROTOCOL.md ("Binary value layout"; header 136 bytes, 414-byte entries): the entry
   count (header bytes 134..136); per entry its parent seqno and field-name length (+4..+8)
   and as many name bytes as that length says (at most 128, from +8); the type word, encoded
   length and xid (+138..+146); the extended-name length (+148) and its bytes (from +150);
   the owner's length (+278) and bytes (from +280); the source type (+410..+414). It never
   reads the header's first 134 bytes, an entry's seqno (+0), level (+2, read, unused),
   fieldno (+136), alignment (+408), nor a name's padding past its length. So a value whose
   table equals the expected one at every byte it reads gives read_type_table the very node
   the expected table gives, and the general path decodes its data as the fast path does:
   comparing only those bytes (here with the i16 0 at +146, one word with its neighbours)
   keeps the values exact, and a value that differs in any of them is refused (the row
   decoder then decides). The entry's bytes compared: 34 of 414 for an unnamed element, in
   11 words for a LIST of a scalar, instead of all 964 bytes read by memcmp.

   Any table that does not have that shape (a count that does not match its length) keeps
   the whole-table memcmp (``tw_n`` -1). Words may reach up to 7 bytes past the table, into
   the value's 12-byte trailer, which the decoder checks is there first; those bytes are
   masked off. Returns 0, or -1 with MemoryError. */
static int table_words(Col *c)
{
    const unsigned char *t = c->table;
    Py_ssize_t tl = c->table_len;
    c->tw = NULL;
    c->tw_n = -1;
    if (tl < 136 || (tl - 136) % 414 != 0 || (Py_ssize_t)(int16_t)be16(t + 134) != (tl - 136) / 414)
        return 0;
    unsigned char *m = PyMem_Calloc((size_t)tl, 1);
    if (m == NULL)
        return PyErr_NoMemory(), -1;
    memset(m + 134, 1, 2);
    for (Py_ssize_t e = 136; e < tl; e += 414) {
        Py_ssize_t n;
        memset(m + e + 4, 1, 4); /* parent seqno, field-name length */
        n = (int16_t)be16(t + e + 6);
        n = n < 0 ? 0 : (n > 128 ? 128 : n);
        memset(m + e + 8, 1, (size_t)n);
        memset(m + e + 138, 1, 12); /* type, length, xid, 0, extended-name length */
        n = (int16_t)be16(t + e + 148);
        n = n < 0 ? 0 : (n > 128 ? 128 : n);
        memset(m + e + 150, 1, (size_t)n);
        memset(m + e + 278, 1, 2); /* owner length */
        n = (int16_t)be16(t + e + 278);
        n = n < 0 ? 0 : (n > 128 ? 128 : n);
        memset(m + e + 280, 1, (size_t)n);
        memset(m + e + 410, 1, 4); /* source type */
    }
    struct TableWord *w = PyMem_Malloc((size_t)(tl / 8 + 1) * sizeof(struct TableWord));
    if (w == NULL) {
        PyMem_Free(m);
        return PyErr_NoMemory(), -1;
    }
    Py_ssize_t n = 0;
    for (Py_ssize_t i = 0; i < tl;) {
        if (!m[i]) {
            i++;
            continue;
        }
        unsigned char ex[8] = {0}, mk[8] = {0};
        for (Py_ssize_t j = 0; j < 8 && i + j < tl; j++)
            if (m[i + j]) {
                ex[j] = t[i + j];
                mk[j] = 0xFF;
            }
        memcpy(&w[n].expect, ex, 8);
        memcpy(&w[n].mask, mk, 8);
        w[n].off = i;
        n++;
        i += 8;
    }
    PyMem_Free(m);
    c->tw = w;
    c->tw_n = n;
    return 0;
}

/* Read the plan into ``cols`` (zeroed by the caller). Returns 0, or -1 with an exception. */
static int cols_parse(Col *cols, PyObject *plan, Py_ssize_t ncols, int allow_raw)
{
    for (Py_ssize_t i = 0; i < ncols; i++) {
        PyObject *item = PyTuple_GET_ITEM(plan, i);
        Col *c = &cols[i];
        PyObject *table = NULL;
        if (!PyArg_ParseTuple(item, "inl|S", &c->kind, &c->width, &c->arg, &table))
            return -1;
        if (c->kind < A_I16 || c->kind > A_TLIST) {
            PyErr_SetString(PyExc_ValueError, "ifxwire._arrowdec: bad column kind");
            return -1;
        }
        if (c->kind == A_RAW && !allow_raw) {
            PyErr_SetString(PyExc_ValueError, "ifxwire._arrowdec: A_RAW needs one buffer");
            return -1;
        }
        if (c->kind == A_TLIST) {
            int ek = (int)(c->arg & 0xF);
            long rest = c->arg & ~(long)(0xF | LK_SET);
            if (!(ek == LK_INT ? rest == 0 && (c->width == 2 || c->width == 4 || c->width == 8)
                  : ek == LK_FLOAT ? rest == 0 && (c->width == 4 || c->width == 8)
                  : ek == LK_DEC && c->width == 16 && !(c->arg & LK_SET) && (rest >> 24) == 0 &&
                        ((rest >> 16) & 0xFF) >= 1 && ((rest >> 16) & 0xFF) <= 32 &&
                        ((rest >> 8) & 0xFF) <= ((rest >> 16) & 0xFF))) {
                PyErr_SetString(PyExc_ValueError, "ifxwire._arrowdec: bad text list column");
                return -1;
            }
            if (ek == LK_FLOAT && !c_strtod_ok())
                c->arg |= LK_NODOT;
            if (table != NULL) { /* the opener, e.g. b"LIST{" (held by the plan tuple) */
                c->table = (const unsigned char *)PyBytes_AS_STRING(table);
                c->table_len = PyBytes_GET_SIZE(table);
                if (c->table_len < 2 || c->table[c->table_len - 1] != '{') {
                    PyErr_SetString(PyExc_ValueError, "ifxwire._arrowdec: bad text list opener");
                    return -1;
                }
            }
        }
        if (c->kind == A_LIST) {
            /* the plan tuple (held by the caller) keeps the bytes alive during the call */
            int ek = (int)(c->arg & 0xF);
            if (table == NULL || (c->arg & ~(long)(0xF | LK_SET)) != 0 ||
                !(ek == LK_INT ? (c->width == 2 || c->width == 4 || c->width == 8)
                              : (ek == LK_FLOAT && (c->width == 4 || c->width == 8)))) {
                PyErr_SetString(PyExc_ValueError, "ifxwire._arrowdec: bad list column");
                return -1;
            }
            /* INT16/32/64_MIN (the sign bit alone) or an all-ones float */
            c->null_bits = ek == LK_INT ? (uint64_t)1 << (8 * c->width - 1)
                                       : (c->width == 8 ? ~(uint64_t)0 : 0xFFFFFFFFull);
            c->table = (const unsigned char *)PyBytes_AS_STRING(table);
            c->table_len = PyBytes_GET_SIZE(table);
            if (table_words(c) < 0)
                return -1;
        }
    }
    return 0;
}

/* Room for ``rows`` rows in all, plus ``run_bytes`` more bytes of input for the string and
   list columns (every string byte is in the run; Latin-1 may double it in UTF-8; a list's
   elements are in the run too, as many bytes). ``*rcap`` is the row capacity so far; new
   validity bytes read as all valid, new fixed-size data as zero (NULL slots, BOOLEAN bits).
   Returns 0, or -1 with MemoryError. */
static int cols_reserve(Col *cols, Py_ssize_t ncols, Py_ssize_t *rcap, Py_ssize_t rows,
                        Py_ssize_t run_bytes, int enc)
{
    Py_ssize_t old = *rcap, cap = old;
    if (rows > old) {
        cap = old ? old : 64;
        while (cap < rows)
            cap *= 2;
    }
    Py_ssize_t ovb = (old + 7) / 8, vb = (cap + 7) / 8;
    for (Py_ssize_t i = 0; i < ncols; i++) {
        Col *c = &cols[i];
        if (cap != old || c->validity == NULL) {
            unsigned char *v = PyMem_Realloc(c->validity, (size_t)(vb ? vb : 1));
            if (v == NULL)
                return PyErr_NoMemory(), -1;
            memset(v + ovb, 0xFF, (size_t)(vb - ovb));
            c->validity = v;
        }
        if (is_var(c)) {
            if (c->offsets == NULL || cap != old) {
                int32_t *o = PyMem_Realloc(c->offsets, (size_t)(cap + 1) * sizeof(int32_t));
                if (o == NULL)
                    return PyErr_NoMemory(), -1;
                if (c->offsets == NULL)
                    o[0] = 0;
                c->offsets = o;
            }
            /* (A_TLIST: an element of w <= 16 bytes takes at least 2 bytes of text, a digit
               and its ',' or '}') */
            Py_ssize_t need = c->data_len +
                              (c->kind == A_TLIST ? (c->width + 1) / 2 : enc == E_LATIN1 && c->kind != A_LIST ? 2 : 1) *
                                  run_bytes;
            if (need > c->data_cap || c->data == NULL) {
                Py_ssize_t dc = c->data_cap ? c->data_cap : 256;
                while (dc < need)
                    dc *= 2;
                unsigned char *d = PyMem_Realloc(c->data, (size_t)dc);
                if (d == NULL)
                    return PyErr_NoMemory(), -1;
                c->data = d;
                c->data_cap = dc;
            }
        }
        else if (cap != old || c->data == NULL) {
            Py_ssize_t o = data_size(c, old), n = data_size(c, cap);
            unsigned char *d = PyMem_Realloc(c->data, (size_t)(n ? n : 1));
            if (d == NULL)
                return PyErr_NoMemory(), -1;
            memset(d + o, 0, (size_t)(n - o));
            c->data = d;
            c->data_cap = n;
        }
    }
    *rcap = cap;
    return 0;
}

static void cols_free(Col *cols, Py_ssize_t ncols)
{
    if (cols == NULL)
        return;
    for (Py_ssize_t i = 0; i < ncols; i++) {
        PyMem_Free(cols[i].validity);
        PyMem_Free(cols[i].data);
        PyMem_Free(cols[i].offsets);
        PyMem_Free(cols[i].tw);
    }
    PyMem_Free(cols);
}

/* [(null_count, validity or None, data, offsets or None)] of the first ``rows`` rows. */
static PyObject *cols_result(Col *cols, Py_ssize_t ncols, Py_ssize_t rows)
{
    PyObject *result = PyList_New(ncols);
    if (result == NULL)
        return NULL;
    Py_ssize_t vbytes = (rows + 7) / 8;
    for (Py_ssize_t i = 0; i < ncols; i++) {
        Col *c = &cols[i];
        PyObject *validity = c->nulls ? take_bytes(c->validity, vbytes) : Py_NewRef(Py_None);
        PyObject *data = take_bytes(c->data, data_size(c, rows));
        PyObject *offsets = c->offsets != NULL
                                ? take_bytes(c->offsets, (rows + 1) * (Py_ssize_t)sizeof(int32_t))
                                : Py_NewRef(Py_None);
        if (validity == NULL || data == NULL || offsets == NULL) {
            Py_XDECREF(validity);
            Py_XDECREF(data);
            Py_XDECREF(offsets);
            Py_DECREF(result);
            return NULL;
        }
        PyObject *t = Py_BuildValue("(nNNN)", c->nulls, validity, data, offsets);
        if (t == NULL) {
            Py_DECREF(result);
            return NULL;
        }
        PyList_SET_ITEM(result, i, t);
    }
    return result;
}

