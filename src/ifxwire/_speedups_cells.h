/* ifxwire._speedups, part "cells": the cell codecs the row decoder inlines: DATE's civil date,
 * CHAR/VARCHAR text in the code set, DECIMAL/MONEY, the pure fallback, collections of integers
 * (complex_fast). Included once, in order, by _speedups.c (one translation unit, so gcc inlines
 * across the parts as it did in one file): not a header of its own. */

/* Proleptic Gregorian civil date from days since 1970-01-01 (H. Hinnant's algorithm). */
static IFX_ALWAYS_INLINE void civil_from_days(long z, int *y, int *m, int *d)
{
    z += 719468;
    long era = (z >= 0 ? z : z - 146096) / 146097;
    long doe = z - era * 146097;
    long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    long yy = yoe + era * 400;
    long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    long mp = (5 * doy + 2) / 153;
    long dd = doy - (153 * mp + 2) / 5 + 1;
    long mm = mp < 10 ? mp + 3 : mp - 9;
    *y = (int)(yy + (mm <= 2));
    *m = (int)mm;
    *d = (int)dd;
}

static PyObject *decode_text(RowDecoder *self, const char *s, Py_ssize_t n)
{
    switch (self->enc_kind) {
    case E_LATIN1:
        return PyUnicode_DecodeLatin1(s, n, NULL);
    case E_UTF8:
        return PyUnicode_DecodeUTF8(s, n, NULL);
    case E_ASCII:
        return PyUnicode_DecodeASCII(s, n, NULL);
    default:
        return PyUnicode_Decode(s, n, self->enc_name, NULL);
    }
}

static IFX_ALWAYS_INLINE PyObject *decode_char(RowDecoder *self, const unsigned char *s,
                                                Py_ssize_t n)
{
    if (self->keep)
        return decode_text(self, (const char *)s, n);
    if (self->enc_kind != E_OTHER) {
        /* In these code sets a 0x20 byte is always a whole U+0020. */
        while (n > 0 && s[n - 1] == 0x20)
            n--;
        return decode_text(self, (const char *)s, n);
    }
    PyObject *u = decode_text(self, (const char *)s, n);
    if (u == NULL)
        return NULL;
    Py_ssize_t len = PyUnicode_GET_LENGTH(u), stop = len;
    int ukind = PyUnicode_KIND(u);
    const void *data = PyUnicode_DATA(u);
    while (stop > 0 && PyUnicode_READ(ukind, data, stop - 1) == 0x20)
        stop--;
    if (stop == len)
        return u;
    PyObject *r = PyUnicode_Substring(u, 0, stop);
    Py_DECREF(u);
    return r;
}

/* DECIMAL/MONEY exactly as numeric.decode_decimal: the same digit string and exponent, handed
   to decimal.Decimal. Returns a new reference, Py_None for NULL, or NULL with *bad set (the
   bytes are not a DECIMAL: the pure path reports it) or an exception set. */
#define DEC_MAX_WIDTH 160
static PyObject *decode_decimal(const ColPlan *c, const unsigned char *raw, int *bad)
{
    Py_ssize_t width = c->width;
    unsigned char digits[DEC_MAX_WIDTH];
    char s[1024];
    *bad = 0;
    if (width < 1 || width > DEC_MAX_WIDTH) {
        *bad = 1;
        return NULL;
    }
    unsigned char head = raw[0];
    if (head == 0 && (width == 1 || raw[1] == 0))
        return Py_NewRef(Py_None);
    Py_ssize_t nd = width - 1, last = -1;
    for (Py_ssize_t i = 0; i < nd; i++) {
        digits[i] = raw[1 + i];
        if (digits[i] > 99) {
            *bad = 1;
            return NULL;
        }
        if (digits[i])
            last = i;
    }
    int negative = 0;
    long exp;
    if (head & 0x80) {
        exp = (long)(head & 0x7F) - 64;
    }
    else {
        negative = last >= 0;
        exp = (long)((head ^ 0x7F) & 0x7F) - 64;
        if (last >= 0) { /* 100-complement: 99 - d before the last non-zero digit, 100 - d at it */
            for (Py_ssize_t i = 0; i < last; i++)
                digits[i] = (unsigned char)(99 - digits[i]);
            digits[last] = (unsigned char)(100 - digits[last]);
        }
    }
    Py_ssize_t n = 0;
    if (negative)
        s[n++] = '-';
    Py_ssize_t start = n;
    for (Py_ssize_t i = 0; i < nd; i++) {
        s[n++] = (char)('0' + digits[i] / 10);
        s[n++] = (char)('0' + digits[i] % 10);
    }
    Py_ssize_t slen = n - start;
    long e10 = 2 * (exp - (long)nd);
    long scale = c->scale;
    if (scale == 255) {
        if (last < 0) { /* zero, whatever its exponent (80 00 ... would read as 0E-128) */
            slen = 0;
            e10 = 0;
        }
        else if (e10 < 0) {
            Py_ssize_t keep = slen;
            while (keep > 0 && s[start + keep - 1] == '0')
                keep--;
            Py_ssize_t drop = slen - keep;
            if (drop > -e10)
                drop = -e10;
            slen -= drop;
            e10 += drop;
        }
        else if (e10 > 0) {
            for (long i = 0; i < e10; i++)
                s[start + slen++] = '0';
            e10 = 0;
        }
    }
    else {
        long k = e10 + scale;
        if (k > 0) {
            for (long i = 0; i < k; i++)
                s[start + slen++] = '0';
        }
        else if (k < 0) {
            slen = (-k >= slen) ? 0 : slen + k;
        }
        e10 = -scale;
    }
    n = start + slen;
    if (slen == 0)
        s[n++] = '0';
    n += snprintf(s + n, sizeof(s) - (size_t)n, "E%ld", e10);
    PyObject *text = PyUnicode_FromStringAndSize(s, n);
    if (text == NULL)
        return NULL;
    PyObject *v = PyObject_CallOneArg(c->fn, text);
    Py_DECREF(text);
    return v;
}

/* The row is not one this decoder accepts as-is: let the pure decoder produce the result or,
   almost always, the exact exception of the pure-Python path. */
static PyObject *fallback(RowDecoder *self, PyObject *bufobj, Py_ssize_t off, Py_ssize_t size)
{
    PyObject *offobj = PyLong_FromSsize_t(off);
    if (offobj == NULL)
        return NULL;
    PyObject *sizeobj = PyLong_FromSsize_t(size);
    if (sizeobj == NULL) {
        Py_DECREF(offobj);
        return NULL;
    }
    PyObject *args[3] = {bufobj, offobj, sizeobj};
    PyObject *r = PyObject_Vectorcall(self->pure, args, 3, NULL);
    Py_DECREF(offobj);
    Py_DECREF(sizeobj);
    return r;
}

#define NEED(n)                                                                                \
    do {                                                                                       \
        if ((Py_ssize_t)(n) < 0 || at + (Py_ssize_t)(n) > end)                                 \
            goto slow;                                                                         \
    } while (0)

/* The offset of ``type``'s writable __slots__ member ``name`` holding an object
   (T_OBJECT_EX), or 0 (then a setattr does it). _PyType_Lookup goes through the type's
   attribute cache, so this costs a few nanoseconds per value. */
static Py_ssize_t member_offset(PyTypeObject *type, PyObject *name)
{
    PyObject *descr = _PyType_Lookup(type, name); /* borrowed */
    if (descr != NULL && Py_IS_TYPE(descr, &PyMemberDescr_Type)) {
        PyMemberDef *m = ((PyMemberDescrObject *)descr)->d_member;
        if (m->type == T_OBJECT_EX && !(m->flags & READONLY))
            return m->offset;
    }
    return 0;
}

/* A SET/MULTISET/LIST of SMALLINT/INTEGER/BIGINT at q (its i32 length n already checked):
   the wrapper value when the type table equals the expected bytes and no element is NULL,
   NULL without an exception to let the Python decoder (types/composite.py) do it. */
static IFX_ALWAYS_INLINE PyObject *complex_fast(const ColPlan *c, const unsigned char *q,
                                                Py_ssize_t n)
{
    static PyObject *attr = NULL;
    if (c->arg1 == Py_None || c->width == 0)
        return NULL;
    PyObject *table = PyTuple_GET_ITEM(c->arg1, 0);
    PyTypeObject *type = (PyTypeObject *)PyTuple_GET_ITEM(c->arg1, 1);
    Py_ssize_t tl = PyBytes_GET_SIZE(table);
    if (n < tl + 12 || memcmp(q + 4, PyBytes_AS_STRING(table), (size_t)tl) != 0)
        return NULL;
    int32_t size = (int32_t)be32(q + 8 + tl);
    uint32_t flags = be32(q + 12 + tl);
    if (flags & 0x80000000u)
        return Py_NewRef(Py_None);
    Py_ssize_t w = c->width;
    if (size < 0 || size % w != 0 || tl + 12 + size > n)
        return NULL;
    Py_ssize_t count = size / w;
    const unsigned char *d = q + 16 + tl;
    /* A list subclass (List, MultiSet) is filled in place: its item array is allocated and
       set as list_resize would (no temporary list to copy from), and the element type is
       stored through the __slots__ member's offset (found once per type), not a setattr. */
    int direct = PyType_IsSubtype(type, &PyList_Type);
    PyObject *obj = direct ? type->tp_alloc(type, 0) : PyList_New(count);
    if (obj == NULL)
        return NULL;
    PyObject **slots;
    if (direct) {
        if (count) {
            slots = PyMem_New(PyObject *, (size_t)count);
            if (slots == NULL) {
                Py_DECREF(obj);
                return PyErr_NoMemory();
            }
            for (Py_ssize_t k = 0; k < count; k++)
                slots[k] = NULL;
            ((PyListObject *)obj)->ob_item = slots;
            ((PyListObject *)obj)->allocated = count;
        }
    }
    for (Py_ssize_t k = 0; k < count; k++, d += w) {
        PyObject *e;
        if (w == 2) {
            int16_t x = (int16_t)be16(d);
            e = x == INT16_MIN ? NULL : PyLong_FromLong(x);
        }
        else if (w == 4) {
            int32_t x = (int32_t)be32(d);
            e = x == INT32_MIN ? NULL : PyLong_FromLong(x);
        }
        else {
            int64_t x = (int64_t)be64(d);
            e = x == INT64_MIN ? NULL : PyLong_FromLongLong(x);
        }
        if (e == NULL) { /* a NULL sentinel (or no memory): the Python path decides */
            Py_DECREF(obj);
            return NULL;
        }
        PyList_SET_ITEM(obj, k, e);
        if (direct)
            Py_SET_SIZE(obj, k + 1); /* only set items are ever released */
    }
    if (!direct) {
        PyObject *args = PyTuple_Pack(1, obj);
        Py_DECREF(obj);
        obj = args == NULL ? NULL : type->tp_new(type, args, NULL);
        Py_XDECREF(args);
        if (obj == NULL)
            return NULL;
    }
    if (attr == NULL && (attr = PyUnicode_InternFromString("element_type")) == NULL) {
        Py_DECREF(obj);
        return NULL;
    }
    Py_ssize_t off = direct ? member_offset(type, attr) : 0;
    if (off > 0) {
        PyObject **slot = (PyObject **)((char *)obj + off);
        Py_XSETREF(*slot, Py_NewRef(c->arg2));
    }
    else if (PyObject_SetAttr(obj, attr, c->arg2) < 0) {
        Py_DECREF(obj);
        return NULL;
    }
    return obj;
}

