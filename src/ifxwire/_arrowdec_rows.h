/* ifxwire._arrowdec, part "rows": the decoding loop: decode_rows (every kind, no Python object
 * touched) and the module's decode(). Included once, in order, by _arrowdec.c (one translation
 * unit, so gcc inlines across the parts as it did in one file): not a header of its own. */

#define NEED(n)                                                                                \
    do {                                                                                       \
        if ((n) > stop - at)                                                                   \
            goto refuse;                                                                       \
    } while (0)

/* Rows ``row0`` .. ``row0 + count - 1`` from the ``count`` whole tuple messages of the
   buffers ``bs`` (read in turn, as if joined; they must hold exactly those tuples). Touches no
   Python object, so callers run it without the GIL. Returns 0, or 1 when the run is not one
   this decoder takes (the caller leaves it to the row decoder). */
static int decode_rows(Col *cols, Py_ssize_t ncols, const BufRef *bs, Py_ssize_t nb,
                       Py_ssize_t row0, Py_ssize_t count, int enc, int keep)
{
    Py_ssize_t pos = 0, bi = 0;
    BufRef b = {NULL, 0, {0}};
    if (nb)
        b = bs[0];
    for (Py_ssize_t row = row0; row < row0 + count; row++) {
        while (pos == b.len && bi + 1 < nb) {
            b = bs[++bi];
            pos = 0;
        }
        if (b.len - pos < 8 || b.p[pos] != 0 || b.p[pos + 1] != SQ_TUPLE)
            goto refuse;
        int32_t size = (int32_t)be32(b.p + pos + 4);
        if (size < 0 || pos + 8 + (Py_ssize_t)size + (size & 1) > b.len)
            goto refuse;
        Py_ssize_t at = pos + 8;
        const Py_ssize_t stop = at + size;
        const unsigned char *p = b.p;
        for (Py_ssize_t i = 0; i < ncols; i++) {
            Col *c = &cols[i];
            unsigned char *dst = c->data;
            switch (c->kind) {
            case A_I16: {
                NEED(2);
                uint16_t x = be16(p + at);
                if (x == 0x8000u)
                    set_null(c, row), x = 0;
                memcpy(dst + 2 * row, &x, 2);
                at += 2;
                break;
            }
            case A_I32:
            case A_DATE: {
                NEED(4);
                uint32_t x = be32(p + at);
                if (x == 0x80000000u)
                    set_null(c, row), x = 0;
                else if (c->kind == A_DATE)
                    x = (uint32_t)((int32_t)x - EPOCH_SHIFT);
                memcpy(dst + 4 * row, &x, 4);
                at += 4;
                break;
            }
            case A_F32: {
                NEED(4);
                uint32_t x = be32(p + at);
                if (x == UINT32_MAX)
                    set_null(c, row), x = 0;
                memcpy(dst + 4 * row, &x, 4);
                at += 4;
                break;
            }
            case A_I64:
            case A_F64: {
                NEED(8);
                uint64_t x = be64(p + at);
                if ((c->kind == A_I64 && x == 0x8000000000000000ull) ||
                    (c->kind == A_F64 && x == UINT64_MAX))
                    set_null(c, row), x = 0;
                memcpy(dst + 8 * row, &x, 8);
                at += 8;
                break;
            }
            case A_INT8: {
                NEED(10);
                int16_t sign = (int16_t)be16(p + at);
                uint64_t mag = ((uint64_t)be32(p + at + 6) << 32) | be32(p + at + 2);
                int64_t v = 0;
                if (sign == 0)
                    set_null(c, row);
                else if (sign > 0) {
                    if (mag > (uint64_t)INT64_MAX)
                        goto refuse;
                    v = (int64_t)mag;
                }
                else {
                    if (mag > (uint64_t)INT64_MAX + 1)
                        goto refuse;
                    v = (int64_t)(0 - mag);
                }
                memcpy(dst + 8 * row, &v, 8);
                at += 10;
                break;
            }
            case A_CHAR: {
                Py_ssize_t w = c->width;
                NEED(w);
                if (p[at] == 0)
                    set_null(c, row);
                else {
                    Py_ssize_t n = w;
                    if (!keep)
                        while (n > 0 && p[at + n - 1] == 0x20)
                            n--;
                    if (put_text(c, p + at, n, enc) < 0)
                        goto refuse;
                }
                c->offsets[row + 1] = (int32_t)c->data_len;
                at += w;
                break;
            }
            case A_VARCHAR: {
                NEED(1);
                Py_ssize_t n = p[at];
                NEED(1 + n);
                if (n == 1 && p[at + 1] == 0)
                    set_null(c, row);
                else if (put_text(c, p + at + 1, n, enc) < 0)
                    goto refuse;
                c->offsets[row + 1] = (int32_t)c->data_len;
                at += 1 + n;
                break;
            }
            case A_LVARCHAR:
            case A_BOOL: {
                NEED(5);
                Py_ssize_t n = (Py_ssize_t)be32(p + at + 1);
                NEED(5 + n);
                const unsigned char *data = p + at + 5;
                if (c->kind == A_LVARCHAR) {
                    if (p[at] != 0)
                        set_null(c, row);
                    else if (put_text(c, data, (n > 0 && data[n - 1] == 0) ? n - 1 : n, enc) < 0)
                        goto refuse;
                    c->offsets[row + 1] = (int32_t)c->data_len;
                }
                else if (p[at] != 0)
                    set_null(c, row);
                else {
                    if (n != 1)
                        goto refuse;
                    switch (data[0]) {
                    case 0x01: case 0x74: case 0x54: dst[row >> 3] |= (unsigned char)(1u << (row & 7)); break;
                    case 0x00: case 0x66: case 0x46: break;
                    case 0xFF: set_null(c, row); break;
                    default: goto refuse;
                    }
                }
                at += 5 + n;
                break;
            }
            case A_DEC: {
                NEED(c->width);
                int r = dec128(p + at, c->width, (int)(c->arg >> 8), (int)(c->arg & 0xFF),
                               dst + 16 * row);
                if (r < 0)
                    goto refuse;
                if (r == 1)
                    set_null(c, row);
                at += c->width;
                break;
            }
            case A_DECF: {
                NEED(c->width);
                double d = 0;
                int r = decf(p + at, c->width, &d);
                if (r < 0)
                    goto refuse;
                if (r == 1)
                    set_null(c, row);
                memcpy(dst + 8 * row, &d, 8);
                at += c->width;
                break;
            }
            case A_DT: {
                NEED(c->width);
                int64_t v = 0;
                int r = datetime_value(p + at, c->width, c->arg, &v);
                if (r < 0)
                    goto refuse;
                if (r == 1)
                    set_null(c, row), v = 0;
                if (c->arg >> 8)
                    memcpy(dst + 8 * row, &v, 8);
                else {
                    int32_t v32 = (int32_t)v;
                    memcpy(dst + 4 * row, &v32, 4);
                }
                at += c->width;
                break;
            }
            case A_LIST: {
                /* i32 length L, the type table, i32 0, i32 size, i32 flags, the elements:
                   what composite.fast_collection_decoder reads; anything else (another
                   table, a NULL element, a size that is not whole elements) is refused,
                   and the row decoder's general path gives the value or its error. */
                NEED(4);
                int32_t len = (int32_t)be32(p + at);
                Py_ssize_t tl = c->table_len;
                if (len < tl + 12)
                    goto refuse;
                NEED(4 + (Py_ssize_t)len);
                if (c->tw_n < 0) {
                    if (memcmp(p + at + 4, c->table, (size_t)tl) != 0)
                        goto refuse;
                }
                else { /* the bytes the row decoder reads (table_words): 7 past the table
                          at most, inside the trailer the check above found */
                    const unsigned char *q = p + at + 4;
                    const struct TableWord *tw = c->tw;
                    uint64_t diff = 0;
                    for (Py_ssize_t k = 0; k < c->tw_n; k++) {
                        uint64_t v;
                        memcpy(&v, q + tw[k].off, 8);
                        diff |= (v ^ tw[k].expect) & tw[k].mask;
                    }
                    if (diff)
                        goto refuse;
                }
                int32_t dsize = (int32_t)be32(p + at + 8 + tl);
                uint32_t flags = be32(p + at + 12 + tl);
                Py_ssize_t w = c->width;
                if (flags & 0x80000000u)
                    set_null(c, row);
                else {
                    if (dsize < 0 || dsize > len - tl - 12 || dsize % w)
                        goto refuse;
                    /* (restrict: the run and the column's buffer never overlap) */
                    const unsigned char *restrict e = p + at + 16 + tl;
                    unsigned char *restrict out = dst + c->data_len;
                    uint64_t nb = c->null_bits;
                    /* every element swapped and stored, a NULL one only noted (``hit``):
                       no exit inside the loop, so the compiler vectorises it (a byte
                       shuffle and a compare per 4 or 8 elements, docs/ARROW.md "arrow14");
                       what was stored past data_len is scratch when the run is refused */
                    unsigned hit = 0;
                    Py_ssize_t ne = dsize / w;
                    if (w == 4) {
                        uint32_t n32 = (uint32_t)nb;
                        Py_ssize_t k = swap32_block(out, e, ne, n32, &hit);
                        for (; k < ne; k++) {
                            uint32_t x = ld_be32(e + 4 * k);
                            hit |= x == n32;
                            memcpy(out + 4 * k, &x, 4);
                        }
                    } else if (w == 2) {
                        uint16_t n16 = (uint16_t)nb;
                        for (Py_ssize_t k = 0; k < ne; k++) {
                            uint16_t x = ld_be16(e + 2 * k);
                            hit |= x == n16;
                            memcpy(out + 2 * k, &x, 2);
                        }
                    } else {
                        for (Py_ssize_t k = 0; k < ne; k++) {
                            uint64_t x = ld_be64(e + 8 * k);
                            hit |= x == nb;
                            memcpy(out + 8 * k, &x, 8);
                        }
                    }
                    if (hit)
                        goto refuse;
                    if ((c->arg & LK_SET) && set_sort(out, dsize / w, w, (int)(c->arg & 0xF)) < 0)
                        goto refuse;
                    c->data_len += dsize;
                }
                if (c->data_len / w > INT32_MAX)
                    goto refuse;
                c->offsets[row + 1] = (int32_t)(c->data_len / w);
                at += 4 + len;
                break;
            }
            case A_TLIST: {
                NEED(5);
                Py_ssize_t n = (Py_ssize_t)be32(p + at + 1);
                NEED(5 + n);
                Py_ssize_t w = c->width;
                if (p[at] == 1)
                    set_null(c, row);
                else {
                    if (p[at] != 0)
                        goto refuse;
                    const unsigned char *t = p + at + 5, *end = t + n;
                    if (c->table != NULL) { /* the opener the column's type spells */
                        if (n < c->table_len + 1 || memcmp(t, c->table, (size_t)c->table_len))
                            goto refuse;
                        t += c->table_len - 1;
                    }
                    else
                        while (t < end && *t >= 'A' && *t <= 'Z')
                            t++;
                    if (t == p + at + 5 || t == end || *t != '{' || end[-1] != '}')
                        goto refuse;
                    t++;
                    end--; /* the '}' */
                    unsigned char *out = dst + c->data_len;
                    Py_ssize_t k = 0;
                    int ek = (int)(c->arg & 0xF);
                    if (c->arg & LK_NODOT)
                        goto refuse;
                    const uint64_t lim = w == 2 ? 32767u : w == 4 ? 2147483647u : (uint64_t)INT64_MAX;
                    while (t < end) {
                        if (ek == LK_FLOAT) {
                            double d;
                            const unsigned char *after = text_number(t, end, &d);
                            if (after == NULL)
                                goto refuse;
                            t = after;
                            if (w == 4) {
                                float f = (float)d;
                                memcpy(out + k, &f, 4);
                            } else
                                memcpy(out + k, &d, 8);
                        }
                        else if (ek == LK_DEC) {
                            unsigned char v[16];
                            const unsigned char *after = text_decimal(
                                t, end, (int)((c->arg >> 16) & 0xFF), (int)((c->arg >> 8) & 0xFF), v);
                            if (after == NULL)
                                goto refuse;
                            t = after;
                            memcpy(out + k, v, 16);
                        }
                        else {
                            int neg = *t == '-';
                            t += neg;
                            const unsigned char *d0 = t;
                            uint64_t mag = 0;
                            while (t < end && *t >= '0' && *t <= '9') {
                                if (t - d0 >= 19)
                                    goto refuse;
                                mag = mag * 10 + (uint64_t)(*t - '0');
                                t++;
                            }
                            /* no digits, too large, or a NULL sentinel (the row decoder says) */
                            if (t == d0 || mag > lim + (uint64_t)neg || (neg && mag == lim + 1))
                                goto refuse;
                            int64_t v = neg ? (int64_t)(0 - mag) : (int64_t)mag;
                            if (w == 2) {
                                int16_t x = (int16_t)v;
                                memcpy(out + k, &x, 2);
                            } else if (w == 4) {
                                int32_t x = (int32_t)v;
                                memcpy(out + k, &x, 4);
                            } else
                                memcpy(out + k, &v, 8);
                        }
                        if (t < end) {
                            if (*t != ',' || t + 1 == end)
                                goto refuse;
                            t++;
                        }
                        k += w;
                    }
                    if ((c->arg & LK_SET) && set_sort(out, k / w, w, ek) < 0)
                        goto refuse;
                    c->data_len += k;
                }
                if (c->data_len / w > INT32_MAX)
                    goto refuse;
                c->offsets[row + 1] = (int32_t)(c->data_len / w);
                at += 5 + n;
                break;
            }
            case A_RAW: {
                Py_ssize_t n;
                switch (c->arg) {
                case 0: n = c->width; break;
                case 1: NEED(1); n = 1 + p[at]; break;
                case 2: NEED(5); n = 5 + (Py_ssize_t)be32(p + at + 1); break;
                default: NEED(4); n = 4 + (Py_ssize_t)(int32_t)be32(p + at); break;
                }
                if (n < 0)
                    goto refuse;
                NEED(n);
                int64_t pair[2] = {at, n};
                memcpy(dst + 16 * row, pair, 16);
                at += n;
                break;
            }
            }
        }
        if (at != stop)
            goto refuse;
        pos = stop + (size & 1);
    }
    while (pos == b.len && bi + 1 < nb) {
        b = bs[++bi];
        pos = 0;
    }
    if (pos != b.len || bi + 1 < nb)
        goto refuse;
    return 0;
refuse:
    return 1;
}

static PyObject *decode(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "decode(run, count, plan, enc_kind, keep)");
        return NULL;
    }
    Py_ssize_t count = PyLong_AsSsize_t(args[1]);
    if (count == -1 && PyErr_Occurred())
        return NULL;
    if (count < 0) {
        PyErr_SetString(PyExc_ValueError, "ifxwire._arrowdec: negative count");
        return NULL;
    }
    PyObject *plan = args[2];
    if (!PyTuple_Check(plan)) {
        PyErr_SetString(PyExc_TypeError, "plan must be a tuple");
        return NULL;
    }
    int enc = (int)PyLong_AsLong(args[3]);
    int keep = PyObject_IsTrue(args[4]);
    if (PyErr_Occurred())
        return NULL;
    Py_ssize_t ncols = PyTuple_GET_SIZE(plan);
    /* run: one buffer, or a list of them read as if joined (no copy to join them; A_RAW's
       offsets would then not be into one buffer, so the caller joins when it has one) */
    PyObject *src = args[0];
    int many = PyList_Check(src);
    Py_ssize_t nb = many ? PyList_GET_SIZE(src) : 1, got = 0;
    BufRef *bs = PyMem_Calloc((size_t)(nb ? nb : 1), sizeof(BufRef));
    if (bs == NULL)
        return PyErr_NoMemory();
    Py_ssize_t total = 0;
    for (; got < nb; got++) {
        if (buf_get(many ? PyList_GET_ITEM(src, got) : src, &bs[got]) < 0)
            break;
        total += bs[got].len;
    }
    PyObject *result = NULL;
    Col *cols = got < nb ? NULL : PyMem_Calloc((size_t)(ncols ? ncols : 1), sizeof(Col));
    if (got < nb)
        goto done;
    if (cols == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    Py_ssize_t rcap = 0;
    if (cols_parse(cols, plan, ncols, nb == 1) < 0 ||
        cols_reserve(cols, ncols, &rcap, count, total, enc) < 0)
        goto done;
    int r;
    /* the buffers stay exported (PyObject_GetBuffer) until released below: nothing can
       resize them while other threads run */
    Py_BEGIN_ALLOW_THREADS
    r = decode_rows(cols, ncols, bs, nb, 0, count, enc, keep);
    Py_END_ALLOW_THREADS
    result = r ? Py_NewRef(Py_None) : cols_result(cols, ncols, count);
done:
    cols_free(cols, ncols);
    for (Py_ssize_t i = 0; i < got; i++)
        PyBuffer_Release(&bs[i].view);
    PyMem_Free(bs);
    return result;
}

