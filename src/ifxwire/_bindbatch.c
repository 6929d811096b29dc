/* ifxwire._bindbatch: a pipelined executemany's INSERT rows, from the receive buffer to the
 * tuples sqlite3 binds, in one call (issue 26 part 2 and issue 25's ingest wall; the server's
 * side: server/bindbatch.py, which holds the pure twin this module is tested against).
 *
 * insert_run(buf, pos, end, head, tail, steps, encoding, max_rows) -> (rows, pos, last)
 *
 * Reads, from ``pos``, up to ``max_rows`` request groups ``head items tail`` (head: the 8
 * bytes ``ID n BIND nparams``; tail: ``EXECUTE EOT``), each item starting with its step's
 * 6-byte header, and returns the list of one tuple per group of the *converted* values (what
 * the statement's ``row_tuple_binder`` gives for the decoded values), the position after
 * the last group taken and the start of that last group (``pos`` when none was taken). It
 * stops, without taking it, at the first group that is not complete before ``end``, whose bytes differ from the plan (another header: a NULL indicator, another
 * type or precision), whose text does not decode, or whose value a converter refuses (any
 * Exception, cleared): the caller serves that group, and the rest, by the general path, which
 * raises the row's error exactly. Nothing is written anywhere: a stop changes nothing.
 *
 * steps: one (header, kind, width, null, fn, check, lo, hi, conv) per item.
 *   kind, width, null, fn: the item's decoding, as decode_bind_row (_tuplewriter.c): 0 text
 *     (u16 length, bytes, a pad byte when odd), 1 FLOAT (8 bytes, all 0xFF NULL), 2 a
 *     big-endian signed integer of width 2/4/8 bytes (NULL when equal to null), 3 fn(buf, at)
 *     over width bytes, 4 a u16 length then fn(buf, at, length) and a pad byte.
 *   check, lo, hi, conv: the conversion. The value is passed as it is when ``check`` says the
 *     converter would return it unchanged (the converter's own first test, declared by it in
 *     engine/core/convert.py: 1 an int in [lo, hi]; 2 a finite float; 3 a str of at most lo
 *     code points or, when hi >= 0, of at most hi bytes in UTF-8; 4 None), else conv(value) is called; check 0 always calls conv. NULL is
 *     None, which check 1-5 pass unchanged (each such converter returns None for None).
 *     5 (a DECIMAL/MONEY item, kind 4, into a DECIMAL(lo, hi) column of fixed scale): the
 *     column's text is written here from the base-100 bytes when the value needs no rounding
 *     to hi fraction digits and fits lo - hi integer digits (decimal_text); any other value
 *     is decoded by fn and converted by conv, as check 4.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

typedef struct {
    unsigned char header[6];
    int kind, width;
    long long null;
    PyObject *fn; /* borrowed from the steps tuple */
    int check;
    long long lo, hi;
    PyObject *conv; /* borrowed */
} Step;

/* One item's value at b[*p], or NULL with *stop set (the group is not taken) or an error
 * set (raised to the caller). */
static PyObject *decode_item(PyObject *bufobj, const unsigned char *b, Py_ssize_t *p,
                             Py_ssize_t end, const Step *s, const char *encoding, int *stop)
{
    Py_ssize_t at = *p;
    if (at + 6 > end) {
        *stop = 1;
        return NULL;
    }
    if (memcmp(b + at, s->header, 6) != 0) {
        /* A NULL of the step's type or of CHAR (how our driver sends None): indicator -1
         * or -2, no value bytes, any precision, as decode_bind_plain takes it. */
        int same = b[at] == s->header[0] && b[at + 1] == s->header[1];
        if ((same || (b[at] == 0 && b[at + 1] == 0)) && b[at + 2] == 0xFF &&
            (b[at + 3] == 0xFF || b[at + 3] == 0xFE)) {
            *p = at + 6;
            return Py_NewRef(Py_None);
        }
        *stop = 1;
        return NULL;
    }
    PyObject *v;
    if (s->kind == 0) {
        if (at + 8 > end) {
            *stop = 1;
            return NULL;
        }
        Py_ssize_t len = ((Py_ssize_t)b[at + 6] << 8) | b[at + 7];
        Py_ssize_t q = at + 8 + len;
        if (q > end) {
            *stop = 1;
            return NULL;
        }
        v = PyUnicode_Decode((const char *)b + at + 8, len, encoding, NULL);
        if (v == NULL) {
            if (PyErr_ExceptionMatches(PyExc_UnicodeDecodeError) ||
                PyErr_ExceptionMatches(PyExc_LookupError)) {
                PyErr_Clear();
                *stop = 1;
            }
            return NULL;
        }
        *p = q + (len & 1);
    } else if (s->kind == 1) {
        if (at + 14 > end) {
            *stop = 1;
            return NULL;
        }
        const unsigned char *f = b + at + 6;
        int all_ff = 1;
        uint64_t bits = 0;
        for (int k = 0; k < 8; k++) {
            bits = (bits << 8) | f[k];
            all_ff &= f[k] == 0xFF;
        }
        if (all_ff) {
            v = Py_NewRef(Py_None);
        } else {
            double d;
            memcpy(&d, &bits, 8);
            v = PyFloat_FromDouble(d);
            if (v == NULL)
                return NULL;
        }
        *p = at + 14;
    } else if (s->kind == 2) {
        int width = s->width;
        if (at + 6 + width > end) {
            *stop = 1;
            return NULL;
        }
        const unsigned char *f = b + at + 6;
        uint64_t u = 0;
        for (int k = 0; k < width; k++)
            u = (u << 8) | f[k];
        int64_t x = width == 2 ? (int16_t)u : width == 4 ? (int32_t)u : (int64_t)u;
        if (x == s->null) {
            v = Py_NewRef(Py_None);
        } else {
            v = PyLong_FromLongLong(x);
            if (v == NULL)
                return NULL;
        }
        *p = at + 6 + width;
    } else { /* 3, 4: checked by the plan's parser */
        Py_ssize_t start = at + 6, len = s->width, q;
        if (s->kind == 4) {
            if (at + 8 > end) {
                *stop = 1;
                return NULL;
            }
            len = ((Py_ssize_t)b[at + 6] << 8) | b[at + 7];
            start = at + 8;
        }
        q = start + len;
        if (q > end) {
            *stop = 1;
            return NULL;
        }
        v = s->kind == 3 ? PyObject_CallFunction(s->fn, "On", bufobj, start)
                         : PyObject_CallFunction(s->fn, "Onn", bufobj, start, len);
        if (v == NULL) {
            if (PyErr_ExceptionMatches(PyExc_Exception)) {
                PyErr_Clear();
                *stop = 1;
            }
            return NULL;
        }
        *p = q + (s->kind == 4 ? (len & 1) : 0);
    }
    return v;
}

/* A DECIMAL/MONEY item (u16 length, base-100 bytes, pad) at b[*p] as the text of a
 * DECIMAL(prec, scale) column of fixed scale, exactly what the column's storer gives for the
 * decoded value (``dec_text(fit_decimal(d, prec, scale))``: plain notation, ``scale`` fraction
 * digits, no leading zeros, "0" before the point, no negative zero), or Py_None for the NULL
 * form. Returns NULL without an error when the value is not for this shortcut (rounding
 * needed, too many integer digits, a byte that is no base-100 digit, not complete): the
 * caller then decodes it the general way. The layout is types/numeric.py base100_decode's
 * (docs/PROTOCOL.md, DECIMAL). */
static PyObject *decimal_text(const unsigned char *b, Py_ssize_t *p, Py_ssize_t end,
                              const Step *s)
{
    Py_ssize_t at = *p;
    if (at + 8 > end || memcmp(b + at, s->header, 6) != 0)
        return NULL;
    Py_ssize_t n = ((Py_ssize_t)b[at + 6] << 8) | b[at + 7];
    const unsigned char *r = b + at + 8;
    if (n < 1 || n > 40 || at + 8 + n > end)
        return NULL;
    long long prec = s->lo, scale = s->hi;
    if (prec < 1 || prec > 32 || scale < 0 || scale > prec)
        return NULL;
    Py_ssize_t next = at + 8 + n + (n & 1);
    if (r[0] == 0 && (n == 1 || r[1] == 0)) {
        *p = next;
        return Py_NewRef(Py_None);
    }
    unsigned char dig[40];
    int ndig = (int)n - 1, negative = 0, exp;
    for (int k = 0; k < ndig; k++) {
        if (r[k + 1] > 99)
            return NULL;
        dig[k] = r[k + 1];
    }
    if (r[0] & 0x80) {
        exp = (r[0] & 0x7F) - 64;
    } else {
        exp = ((r[0] ^ 0x7F) & 0x7F) - 64;
        int last = ndig - 1;
        while (last >= 0 && dig[last] == 0)
            last--;
        if (last >= 0) { /* the 100-complement (numeric._complement) */
            negative = 1;
            for (int k = 0; k < last; k++)
                dig[k] = (unsigned char)(99 - dig[k]);
            dig[last] = (unsigned char)(100 - dig[last]);
        }
    }
    /* The decimal digits ds[0..L) with the value ds * 10**e10. */
    char ds[80];
    int L = 2 * ndig;
    for (int k = 0; k < ndig; k++) {
        ds[2 * k] = (char)('0' + dig[k] / 10);
        ds[2 * k + 1] = (char)('0' + dig[k] % 10);
    }
    int e10 = 2 * (exp - ndig);
    int first = 0; /* leading zeros */
    while (first < L && ds[first] == '0')
        first++;
    if (first == L) { /* zero, whatever its exponent or sign */
        negative = 0;
        L = 0;
        e10 = 0;
        first = 0;
    }
    int lastnz = L; /* trailing zeros */
    while (lastnz > first && ds[lastnz - 1] == '0')
        lastnz--;
    /* Fraction digits needed: those after the point down to the last non-zero digit. */
    int frac_needed = e10 < 0 ? (-e10) - (L - lastnz) : 0;
    if (frac_needed > scale)
        return NULL; /* rounding: the storer's own arithmetic */
    int point = L + e10; /* digits of ds before the decimal point (may be <0 or >L) */
    int int_digits = point - first;
    if (int_digits > prec - scale)
        return NULL; /* too large: the storer raises -1226 */
    char out[120];
    int o = 0;
    if (negative)
        out[o++] = '-';
    if (int_digits <= 0) {
        out[o++] = '0';
    } else {
        for (int k = first; k < point; k++)
            out[o++] = k < L ? ds[k] : '0';
    }
    if (scale > 0) {
        out[o++] = '.';
        for (int k = 0; k < scale; k++) {
            int idx = point + k;
            out[o++] = (idx >= 0 && idx < L) ? ds[idx] : '0';
        }
    }
    PyObject *text = PyUnicode_FromStringAndSize(out, o);
    if (text != NULL)
        *p = next;
    return text;
}

/* The converted value (a new reference), taking ``v``'s reference; NULL as decode_item. */
static PyObject *convert(PyObject *v, const Step *s, int *stop)
{
    int keep = 0;
    switch (s->check) {
    case 1:
        if (v == Py_None) {
            keep = 1;
        } else if (PyLong_CheckExact(v)) {
            int overflow = 0;
            long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
            keep = !overflow && !(x == -1 && PyErr_Occurred()) && s->lo <= x && x <= s->hi;
            PyErr_Clear();
        }
        break;
    case 2:
        keep = v == Py_None ||
               (PyFloat_CheckExact(v) && isfinite(PyFloat_AS_DOUBLE(v)));
        break;
    case 3:
        if (v == Py_None) {
            keep = 1;
        } else if (PyUnicode_CheckExact(v)) {
            Py_ssize_t len = PyUnicode_GET_LENGTH(v);
            keep = len <= s->lo;
            if (!keep && s->hi >= 0) { /* a VARCHAR's limit in UTF-8 bytes */
                if (PyUnicode_IS_ASCII(v)) {
                    keep = len <= s->hi;
                } else {
                    Py_ssize_t bytes;
                    if (PyUnicode_AsUTF8AndSize(v, &bytes) == NULL)
                        PyErr_Clear(); /* (a lone surrogate: the storer decides) */
                    else
                        keep = bytes <= s->hi;
                }
            }
        }
        break;
    case 4:
    case 5:
        keep = v == Py_None;
        break;
    default:
        break;
    }
    if (keep)
        return v;
    PyObject *c = PyObject_CallOneArg(s->conv, v);
    Py_DECREF(v);
    if (c == NULL && PyErr_ExceptionMatches(PyExc_Exception)) {
        PyErr_Clear();
        *stop = 1;
    }
    return c;
}

static int parse_steps(PyObject *steps, Step *out, Py_ssize_t n)
{
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *t = PyTuple_GET_ITEM(steps, i);
        const char *header;
        Py_ssize_t hlen;
        Step *s = &out[i];
        if (!PyTuple_Check(t) ||
            !PyArg_ParseTuple(t, "y#iiLOiLLO", &header, &hlen, &s->kind, &s->width, &s->null,
                              &s->fn, &s->check, &s->lo, &s->hi, &s->conv))
            return -1;
        if (hlen != 6 || s->kind < 0 || s->kind > 4 ||
            (s->kind == 2 && s->width != 2 && s->width != 4 && s->width != 8) ||
            ((s->kind == 3 || s->kind == 4) && (s->fn == Py_None || s->width < 0)) ||
            s->check < 0 || s->check > 5 || (s->check == 5 && s->kind != 4) ||
            !PyCallable_Check(s->conv)) {
            PyErr_SetString(PyExc_ValueError, "insert_run: a step that is not understood");
            return -1;
        }
        memcpy(s->header, header, 6);
    }
    return 0;
}

static PyObject *insert_run(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 8 || !PyBytes_Check(args[3]) || !PyBytes_Check(args[4]) ||
        !PyTuple_Check(args[5]) || !PyUnicode_Check(args[6])) {
        PyErr_SetString(PyExc_TypeError,
                        "insert_run(buf, pos: int, end: int, head: bytes, tail: bytes, "
                        "steps: tuple, encoding: str, max_rows: int)");
        return NULL;
    }
    Py_ssize_t pos = PyLong_AsSsize_t(args[1]);
    if (pos == -1 && PyErr_Occurred())
        return NULL;
    Py_ssize_t end = PyLong_AsSsize_t(args[2]);
    if (end == -1 && PyErr_Occurred())
        return NULL;
    Py_ssize_t max_rows = PyLong_AsSsize_t(args[7]);
    if (max_rows == -1 && PyErr_Occurred())
        return NULL;
    const char *encoding = PyUnicode_AsUTF8(args[6]);
    if (encoding == NULL)
        return NULL;
    const unsigned char *head = (const unsigned char *)PyBytes_AS_STRING(args[3]);
    Py_ssize_t hlen = PyBytes_GET_SIZE(args[3]);
    const unsigned char *tail = (const unsigned char *)PyBytes_AS_STRING(args[4]);
    Py_ssize_t tlen = PyBytes_GET_SIZE(args[4]);
    PyObject *steps = args[5];
    Py_ssize_t n = PyTuple_GET_SIZE(steps);
    Step *plan = PyMem_Calloc(n ? (size_t)n : 1, sizeof(Step));
    if (plan == NULL)
        return PyErr_NoMemory();
    PyObject *rows = NULL, *result = NULL;
    Py_buffer view;
    view.obj = NULL;
    if (parse_steps(steps, plan, n) < 0)
        goto out;
    if (PyObject_GetBuffer(args[0], &view, PyBUF_SIMPLE) < 0)
        goto out;
    const unsigned char *b = (const unsigned char *)view.buf;
    if (end > view.len)
        end = view.len; /* as bytearray.startswith clamps its end */
    rows = PyList_New(0);
    if (rows == NULL)
        goto out;
    Py_ssize_t last = pos;
    while (pos >= 0 && PyList_GET_SIZE(rows) < max_rows) {
        Py_ssize_t p = pos;
        if (p + hlen > end || memcmp(b + p, head, (size_t)hlen) != 0)
            break;
        p += hlen;
        PyObject *row = PyTuple_New(n);
        if (row == NULL)
            goto out;
        int stop = 0;
        for (Py_ssize_t i = 0; i < n; i++) {
            PyObject *v = NULL;
            if (plan[i].check == 5) {
                v = decimal_text(b, &p, end, &plan[i]);
                if (v == NULL && PyErr_Occurred())
                    goto fail_row;
            }
            if (v == NULL) {
                v = decode_item(args[0], b, &p, end, &plan[i], encoding, &stop);
                if (v != NULL)
                    v = convert(v, &plan[i], &stop);
            }
            if (v == NULL) {
            fail_row:
                Py_DECREF(row);
                if (stop)
                    goto done;
                goto out;
            }
            PyTuple_SET_ITEM(row, i, v);
        }
        if (p + tlen > end || memcmp(b + p, tail, (size_t)tlen) != 0) {
            Py_DECREF(row);
            break;
        }
        if (PyList_Append(rows, row) < 0) {
            Py_DECREF(row);
            goto out;
        }
        Py_DECREF(row);
        last = pos;
        pos = p + tlen;
    }
done:
    result = Py_BuildValue("(Onn)", rows, pos, last);
out:
    Py_XDECREF(rows);
    if (view.obj != NULL)
        PyBuffer_Release(&view);
    PyMem_Free(plan);
    return result;
}

static PyMethodDef methods[] = {
    {"insert_run", (PyCFunction)(void (*)(void))insert_run, METH_FASTCALL,
     "insert_run(buf, pos, end, head, tail, steps, encoding, max_rows) -> (rows, pos, last)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "ifxwire._bindbatch",
    "A pipelined executemany's INSERT rows decoded and converted in one call "
    "(server/bindbatch.py).",
    -1, methods,
};

PyMODINIT_FUNC PyInit__bindbatch(void) { return PyModule_Create(&module_def); }
