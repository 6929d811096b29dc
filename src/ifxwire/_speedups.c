/* ifxwire._speedups: the optional C row decoder and SQ_BIND encoder (see docs/ACCELERATOR.md).
 * The bind encoder (make_bind_encoder, BindEncoder) is described where it is defined, below.
 *
 * make_row_decoder(plan, variable, fixed_total, enc_kind, encoding, keep_char_padding, pure,
 * epoch_ordinal) returns a RowDecoder object, callable as decoder(buf, offset, size) -> tuple,
 * exactly like the generated Python decoder ``pure`` it accelerates.
 *
 * The plan is computed in Python (ifxwire._accel) from the ColumnDesc list: one item per column,
 * (kind, pos, width, fn, arg1, arg2). Fixed-width numbers, DATE, CHAR, VARCHAR, LVARCHAR, BOOLEAN,
 * BYTE/TEXT descriptors and other UDT envelopes are decoded here; DECIMAL/MONEY, DATETIME and
 * INTERVAL call the Python scalar decoder in ``fn``, so their semantics are the Python ones.
 *
 * Errors: whenever anything is off (a read past the tuple, a size that does not reconcile, bytes
 * that do not decode in the code set, a BOOLEAN byte out of range, a DATE out of range, a Python
 * callback raising an Exception), the partial row is dropped and the row is decoded again by
 * ``pure``, which raises the exact exception, with the exact message naming the columns, that
 * the pure-Python path raises. Rows that decode here are exactly the rows ``pure`` accepts.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <datetime.h>
#include <math.h>
#include <stddef.h>
#include <structmember.h>
#include <stdint.h>
#include <string.h>

enum {
    K_SMALLINT = 0,
    K_INTEGER = 1,
    K_BIGINT = 2,
    K_INT8 = 3,
    K_FLOAT = 4,
    K_SMALLFLOAT = 5,
    K_DATE = 6,
    K_CHAR = 7,
    K_VARCHAR = 8,
    K_LVARCHAR = 9,
    K_BOOLEAN = 10,
    K_UDT = 11,
    K_BLOB = 12,
    K_CALL2 = 13,   /* fn(buf, pos) */
    K_CALL4 = 14,   /* fn(buf, pos, arg1, arg2) */
    K_DECIMAL = 15, /* DECIMAL/MONEY: fn is decimal.Decimal, arg1 the scale (255 = floating) */
    K_COMPLEX = 16, /* ROW/collection: i32 length + value; fn(buf, pos, end) decodes it;
                       arg1 (type table bytes, wrapper type) + width 2/4/8 enable the inline
                       path for collections of integers, arg2 their element type text */
    K_LAST = 16
};

enum { E_OTHER = 0, E_LATIN1 = 1, E_UTF8 = 2, E_ASCII = 3 };

/* BYTE/TEXT descriptors are 56 or 68 bytes (c->width); the NULL flag is bit 0 of byte 39. */
#define BLOB_NULL_BYTE 39

typedef struct {
    int kind;
    Py_ssize_t pos;   /* fixed layout: offset from the tuple start */
    Py_ssize_t width; /* fixed-width kinds: bytes on the wire */
    PyObject *fn;     /* K_CALL2 / K_CALL4 */
    PyObject *arg1;
    PyObject *arg2;
    int scale;        /* K_DECIMAL */
} ColPlan;

typedef struct {
    PyObject_VAR_HEAD
    vectorcallfunc vectorcall;
    int variable;
    int enc_kind;
    int keep;
    Py_ssize_t fixed_total;
    long epoch_ordinal;
    PyObject *encoding; /* str */
    const char *enc_name;
    PyObject *pure;
    PyObject *plan;
    PyObject *error_class; /* decode_tuples records these, raises anything else */
    /* decode_dicts' DictMaker of the last call, kept for the next call with the same keys
       tuple (rows.direct_keys gives one per description): a one-row reply would otherwise
       pay the template's making (~1 us) each time. */
    PyObject *dm_keys;
    PyObject *dm_template;
    Py_ssize_t *dm_slot;
    Py_ssize_t dm_unique;
    ColPlan cols[1];
} RowDecoder;

static PyTypeObject RowDecoder_Type;

/* ------------------------------------------------------------------------------------------ */

/* Forced inlining. decode_row_into is inlined into two callers (the tuple and the dict
   paths), so the helpers it calls at one place each (the DATE, CHAR and integer collection
   cells) have two call sites and gcc -O3 stops inlining them: a call per cell, ~19
   instructions a DATE cell (codec decode_date 393 -> 411 a cell against 9a91c27, callgrind).
   They are forced inline as they were when decode_row was their only caller. */
#if defined(__GNUC__) || defined(__clang__)
#define IFX_ALWAYS_INLINE inline __attribute__((always_inline))
#elif defined(_MSC_VER)
#define IFX_ALWAYS_INLINE __forceinline
#else
#define IFX_ALWAYS_INLINE inline
#endif

static inline uint16_t be16(const unsigned char *p) { return (uint16_t)((p[0] << 8) | p[1]); }

static inline uint32_t be32(const unsigned char *p)
{
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

static inline uint64_t be64(const unsigned char *p)
{
    return ((uint64_t)be32(p) << 32) | (uint64_t)be32(p + 4);
}

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

/* One tuple of ``size`` bytes at ``off`` of ``bufobj``, whose bytes are ``p[0:buflen]``.
   ``reuse``, when not NULL, is a tuple of the row's length whose items are all NULL, held by
   nobody else (decode_dicts' previous row, emptied into its dict): the row is decoded into it
   instead of a new one, and the reference is the callee's either way. Always inlined into
   its two callers below, so that the tuple path (reuse NULL, a constant there) compiles to
   the same code as before reuse existed (IFX_ALWAYS_INLINE: above). */
static IFX_ALWAYS_INLINE PyObject *decode_row_into(RowDecoder *self, PyObject *bufobj,
                                                   const unsigned char *p, Py_ssize_t buflen,
                                                   Py_ssize_t off, Py_ssize_t size,
                                                   PyObject *reuse)
{
    PyObject *row = reuse;
    if (off < 0 || size < 0 || off > buflen || size > buflen - off)
        goto slow;
    if (!self->variable && size != self->fixed_total)
        goto slow;

    Py_ssize_t ncols = Py_SIZE(self);
    if (row == NULL)
        row = PyTuple_New(ncols);
    if (row == NULL)
        goto fail;
    const Py_ssize_t end = off + size;
    Py_ssize_t o = off; /* sequential cursor (variable layout) */
    for (Py_ssize_t i = 0; i < ncols; i++) {
        const ColPlan *c = &self->cols[i];
        Py_ssize_t at = self->variable ? o : off + c->pos;
        Py_ssize_t used;
        PyObject *v;
        switch (c->kind) {
        case K_SMALLINT: {
            NEED(2);
            int16_t x = (int16_t)be16(p + at);
            v = x == INT16_MIN ? Py_NewRef(Py_None) : PyLong_FromLong(x);
            used = 2;
            break;
        }
        case K_INTEGER: {
            NEED(4);
            int32_t x = (int32_t)be32(p + at);
            v = x == INT32_MIN ? Py_NewRef(Py_None) : PyLong_FromLong(x);
            used = 4;
            break;
        }
        case K_BIGINT: {
            NEED(8);
            int64_t x = (int64_t)be64(p + at);
            v = x == INT64_MIN ? Py_NewRef(Py_None) : PyLong_FromLongLong(x);
            used = 8;
            break;
        }
        case K_INT8: {
            NEED(10);
            int16_t sign = (int16_t)be16(p + at);
            uint64_t lo = be32(p + at + 2), hi = be32(p + at + 6);
            uint64_t mag = (hi << 32) | lo;
            if (sign == 0)
                v = Py_NewRef(Py_None);
            else if (sign > 0)
                v = PyLong_FromUnsignedLongLong(mag);
            else if (mag <= (uint64_t)INT64_MAX)
                v = PyLong_FromLongLong(-(int64_t)mag);
            else {
                PyObject *pos = PyLong_FromUnsignedLongLong(mag);
                v = pos == NULL ? NULL : PyNumber_Negative(pos);
                Py_XDECREF(pos);
            }
            used = 10;
            break;
        }
        case K_FLOAT: {
            NEED(8);
            uint64_t bits = be64(p + at);
            if (bits == UINT64_MAX)
                v = Py_NewRef(Py_None);
            else {
                double d;
                memcpy(&d, &bits, 8);
                v = PyFloat_FromDouble(d);
            }
            used = 8;
            break;
        }
        case K_SMALLFLOAT: {
            NEED(4);
            uint32_t bits = be32(p + at);
            if (bits == UINT32_MAX)
                v = Py_NewRef(Py_None);
            else {
                float f;
                memcpy(&f, &bits, 4);
                v = PyFloat_FromDouble((double)f);
            }
            used = 4;
            break;
        }
        case K_DATE: {
            NEED(4);
            int32_t days = (int32_t)be32(p + at);
            if (days == INT32_MIN)
                v = Py_NewRef(Py_None);
            else {
                long ordinal = (long)days + self->epoch_ordinal;
                if (ordinal < 1 || ordinal > 3652059) /* outside date.min..date.max */
                    goto slow;
                int y, m, d;
                civil_from_days(ordinal - 719163, &y, &m, &d);
                v = PyDate_FromDate(y, m, d);
            }
            used = 4;
            break;
        }
        case K_CHAR: {
            NEED(c->width);
            if (p[at] == 0)
                v = Py_NewRef(Py_None);
            else {
                v = decode_char(self, p + at, c->width);
                if (v == NULL)
                    goto callback_error;
            }
            used = c->width;
            break;
        }
        case K_VARCHAR: {
            NEED(1);
            Py_ssize_t n = p[at];
            NEED(1 + n);
            if (n == 1 && p[at + 1] == 0)
                v = Py_NewRef(Py_None);
            else {
                v = decode_text(self, (const char *)p + at + 1, n);
                if (v == NULL)
                    goto callback_error;
            }
            used = 1 + n;
            break;
        }
        case K_LVARCHAR:
        case K_BOOLEAN:
        case K_UDT: {
            NEED(5);
            Py_ssize_t n = (Py_ssize_t)be32(p + at + 1);
            NEED(5 + n);
            const unsigned char *data = p + at + 5;
            used = 5 + n;
            if (p[at] != 0) {
                v = Py_NewRef(Py_None);
            }
            else if (c->kind == K_LVARCHAR) {
                Py_ssize_t stop = (n > 0 && data[n - 1] == 0) ? n - 1 : n;
                v = decode_text(self, (const char *)data, stop);
                if (v == NULL)
                    goto callback_error;
            }
            else if (c->kind == K_BOOLEAN) {
                if (n != 1)
                    goto slow;
                switch (data[0]) {
                case 0x01: case 0x74: case 0x54: v = Py_NewRef(Py_True); break;
                case 0x00: case 0x66: case 0x46: v = Py_NewRef(Py_False); break;
                case 0xFF: v = Py_NewRef(Py_None); break;
                default: goto slow;
                }
            }
            else {
                v = PyBytes_FromStringAndSize((const char *)data, n);
            }
            break;
        }
        case K_BLOB: {
            if (c->width <= BLOB_NULL_BYTE)
                goto slow;
            NEED(c->width);
            if (p[at + BLOB_NULL_BYTE] & 1)
                v = Py_NewRef(Py_None);
            else
                v = PyBytes_FromStringAndSize((const char *)p + at, c->width);
            used = c->width;
            break;
        }
        case K_CALL2:
        case K_CALL4: {
            NEED(c->width);
            PyObject *posobj = PyLong_FromSsize_t(at);
            if (posobj == NULL)
                goto fail;
            PyObject *cargs[4] = {bufobj, posobj, c->arg1, c->arg2};
            v = PyObject_Vectorcall(c->fn, cargs, c->kind == K_CALL2 ? 2 : 4, NULL);
            Py_DECREF(posobj);
            if (v == NULL)
                goto callback_error;
            used = c->width;
            break;
        }
        case K_COMPLEX: {
            NEED(4);
            Py_ssize_t n = (Py_ssize_t)(int32_t)be32(p + at);
            NEED(4 + n);
            used = 4 + n;
            v = complex_fast(c, p + at, n);
            if (v == NULL && PyErr_Occurred())
                goto fail;
            if (v == NULL) {
                PyObject *posobj = PyLong_FromSsize_t(at);
                PyObject *endobj = posobj == NULL ? NULL : PyLong_FromSsize_t(at + 4 + n);
                if (endobj == NULL) {
                    Py_XDECREF(posobj);
                    goto fail;
                }
                PyObject *cargs[3] = {bufobj, posobj, endobj};
                v = PyObject_Vectorcall(c->fn, cargs, 3, NULL);
                Py_DECREF(posobj);
                Py_DECREF(endobj);
                if (v == NULL)
                    goto callback_error;
            }
            break;
        }
        case K_DECIMAL: {
            NEED(c->width);
            int bad;
            v = decode_decimal(c, p + at, &bad);
            if (bad)
                goto slow;
            if (v == NULL)
                goto callback_error;
            used = c->width;
            break;
        }
        default:
            PyErr_SetString(PyExc_SystemError, "ifxwire._speedups: bad column kind");
            goto fail;
        }
        if (v == NULL)
            goto fail;
        PyTuple_SET_ITEM(row, i, v);
        o = at + used;
    }
    if (self->variable && o != end)
        goto slow;
    /* What the cyclic GC does to such tuples at its first pass (_PyTuple_MaybeUntrack), done
       now: a row of atoms (numbers, strings, dates, None) cannot be part of a cycle, and a
       100k-row fetchall should not make every collection walk 100k tuples. */
    for (Py_ssize_t i = 0; i < ncols; i++) {
        PyObject *e = PyTuple_GET_ITEM(row, i);
        if (PyObject_IS_GC(e) && PyObject_GC_IsTracked(e))
            return row;
    }
    PyObject_GC_UnTrack(row);
    return row;

callback_error:
    /* Exceptions (a decode error, a value out of range) are the pure path's to report;
       anything else (KeyboardInterrupt, MemoryError) propagates as is. */
    if (!PyErr_ExceptionMatches(PyExc_Exception) || PyErr_ExceptionMatches(PyExc_MemoryError))
        goto fail;
    PyErr_Clear();
slow:
    Py_XDECREF(row);
    return fallback(self, bufobj, off, size);

fail:
    Py_XDECREF(row);
    return NULL;
}

/* One row as a new tuple (RowDecoder's call, decode_tuples). */
static PyObject *decode_row(RowDecoder *self, PyObject *bufobj, const unsigned char *p,
                            Py_ssize_t buflen, Py_ssize_t off, Py_ssize_t size)
{
    return decode_row_into(self, bufobj, p, buflen, off, size, NULL);
}

/* One row decoded into ``reuse`` when not NULL (decode_dicts). */
static PyObject *decode_row_reusing(RowDecoder *self, PyObject *bufobj, const unsigned char *p,
                                    Py_ssize_t buflen, Py_ssize_t off, Py_ssize_t size,
                                    PyObject *reuse)
{
    return decode_row_into(self, bufobj, p, buflen, off, size, reuse);
}

/* The bytes of a reply buffer: bytes directly, anything else through the buffer protocol
   (which also keeps a bytearray from being resized while we read it). */
typedef struct {
    const unsigned char *p;
    Py_ssize_t len;
    int have_view;
    Py_buffer view;
} BufRef;

static void buf_release(BufRef *b)
{
    if (b->have_view) {
        PyBuffer_Release(&b->view);
        b->have_view = 0;
    }
}

static int buf_get(PyObject *bufobj, BufRef *b)
{
    b->have_view = 0;
    if (PyBytes_CheckExact(bufobj)) {
        b->p = (const unsigned char *)PyBytes_AS_STRING(bufobj);
        b->len = PyBytes_GET_SIZE(bufobj);
        return 0;
    }
    if (PyObject_GetBuffer(bufobj, &b->view, PyBUF_SIMPLE) < 0)
        return -1;
    b->have_view = 1;
    if (b->view.itemsize != 1) { /* e.g. a cast memoryview: its len() is not in bytes */
        buf_release(b);
        PyErr_SetString(PyExc_TypeError, "a row buffer must be made of bytes");
        return -1;
    }
    b->p = (const unsigned char *)b->view.buf;
    b->len = b->view.len;
    return 0;
}

static PyObject *RowDecoder_vectorcall(PyObject *callable, PyObject *const *args, size_t nargsf,
                                       PyObject *kwnames)
{
    RowDecoder *self = (RowDecoder *)callable;
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (nargs != 3 || (kwnames != NULL && PyTuple_GET_SIZE(kwnames) != 0)) {
        PyErr_SetString(PyExc_TypeError, "a row decoder takes (buffer, offset, size)");
        return NULL;
    }
    PyObject *bufobj = args[0];
    Py_ssize_t off = PyLong_AsSsize_t(args[1]);
    if (off == -1 && PyErr_Occurred())
        return NULL;
    Py_ssize_t size = PyLong_AsSsize_t(args[2]);
    if (size == -1 && PyErr_Occurred())
        return NULL;
    BufRef b;
    if (buf_get(bufobj, &b) < 0) {
        /* Not a contiguous buffer: the pure decoder says what it makes of it. */
        PyErr_Clear();
        return PyObject_Vectorcall(self->pure, args, 3, NULL);
    }
    PyObject *row = decode_row(self, bufobj, b.p, b.len, off, size);
    buf_release(&b);
    return row;
}

#define SQ_TUPLE 14

/* dict_row's dicts, made by copying a template (DictMaker).

   The public route, PyDict_New and one PyDict_SetItem per column, costs ~280 instructions a
   column (callgrind, CPython 3.11: a hash lookup, an insert, the first insert allocating the
   keys table, a resize past 5 columns). Copying a template dict {name: None} takes CPython's
   clone path (PyDict_Copy of a dict with no deleted entries: one allocation and a memcpy of
   the keys table, no hashing), but replacing each value through PyDict_SetItem still pays the
   lookup: measured, no cheaper than the public route. So where the dict layout is known
   (CPython 3.11 to 3.13 with the GIL: a combined table of str keys is a PyDictKeysObject
   header, dk_indices of 1 << dk_log2_index_bytes bytes, then {key, value} entries in
   insertion order) the values are written into the copy's entries directly, each column's
   entry index computed once per call. That layout is checked on a real copy of the template
   before it is relied on (dict_maker_check); anything unexpected, another Python, or a key
   that is not a str, and the public route is used. */
#if !defined(PYPY_VERSION) && !defined(Py_LIMITED_API) && !defined(Py_GIL_DISABLED) \
    && PY_VERSION_HEX >= 0x030B0000 && PY_VERSION_HEX < 0x030E0000
#define IFX_DICT_FILL 1
typedef struct { /* CPython 3.11-3.13's struct _dictkeysobject (Include/internal/pycore_dict.h) */
    Py_ssize_t dk_refcnt;
    uint8_t dk_log2_size;
    uint8_t dk_log2_index_bytes;
    uint8_t dk_kind; /* DICT_KEYS_UNICODE = 1: every key a str, entries {key, value} */
    uint32_t dk_version;
    Py_ssize_t dk_usable;
    Py_ssize_t dk_nentries;
    char dk_indices[];
} KeysLayout;

typedef struct {
    PyObject *me_key;
    PyObject *me_value;
} StrEntry;

static inline KeysLayout *dict_keys_of(PyObject *d)
{
    return (KeysLayout *)((PyDictObject *)d)->ma_keys;
}

static inline StrEntry *dict_entries_of(KeysLayout *k)
{
    return (StrEntry *)(k->dk_indices + ((size_t)1 << k->dk_log2_index_bytes));
}
#endif

typedef struct {
    PyObject *keys;     /* the column names (tuple), borrowed */
    PyObject *template; /* {name: None}, NULL when the public route is used */
    Py_ssize_t *slot;   /* column i's value goes to entry slot[i] (a repeated name: the same) */
    Py_ssize_t unique;  /* entries of the template */
} DictMaker;

/* row_to_dict(keys, row) -> a new dict {keys[i]: row[i]} (the shorter of the two deciding
   the length, as dict(zip(keys, row))); NULL with an exception set. The public route. */
static PyObject *row_to_dict(PyObject *keys, PyObject *row)
{
    Py_ssize_t n = PyTuple_GET_SIZE(row), nkeys = PyTuple_GET_SIZE(keys);
    if (n > nkeys)
        n = nkeys;
    PyObject *d = PyDict_New();
    if (d == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (PyDict_SetItem(d, PyTuple_GET_ITEM(keys, i), PyTuple_GET_ITEM(row, i)) < 0) {
            Py_DECREF(d);
            return NULL;
        }
    }
    return d;
}

#ifdef IFX_DICT_FILL
/* 1 when a copy of m->template has the layout dict_maker_make writes into: a fresh combined
   str-keys table, index bytes as CPython sizes them, the entries the template's keys in
   column order, every value None. */
static int dict_maker_check(DictMaker *m)
{
    PyObject *c = PyDict_Copy(m->template);
    if (c == NULL)
        return -1;
    KeysLayout *k = dict_keys_of(c);
    int ok = PyDict_CheckExact(c) && ((PyDictObject *)c)->ma_values == NULL
             && (PyObject *)k != (PyObject *)dict_keys_of(m->template) && k->dk_refcnt == 1
             && k->dk_kind == 1 && k->dk_log2_size >= 3 && k->dk_log2_size < 32
             && ((PyDictObject *)c)->ma_used == m->unique && k->dk_nentries == m->unique
             && k->dk_usable >= 0 && m->unique <= ((Py_ssize_t)1 << k->dk_log2_size);
    if (ok) {
        int sz = k->dk_log2_size;
        ok = k->dk_log2_index_bytes == (sz < 8 ? sz : sz < 16 ? sz + 1 : sz + 2);
    }
    if (ok) {
        StrEntry *e = dict_entries_of(k);
        Py_ssize_t seen = 0;
        for (Py_ssize_t i = 0; ok && i < PyTuple_GET_SIZE(m->keys); i++) {
            if (m->slot[i] == seen) { /* a name's first column: its key object is the entry's */
                ok = e[seen].me_key == PyTuple_GET_ITEM(m->keys, i) && e[seen].me_value == Py_None;
                seen++;
            }
            else
                ok = m->slot[i] >= 0 && m->slot[i] < seen;
        }
        ok = ok && seen == m->unique;
    }
    Py_DECREF(c);
    return ok;
}
#endif

/* Prepares m for the column names ``keys``: the template and each column's entry, when the
   direct route is available; the public route otherwise. -1 with an exception set. */
static int dict_maker_init(DictMaker *m, PyObject *keys)
{
    m->keys = keys;
    m->template = NULL;
    m->slot = NULL;
    m->unique = 0;
#ifdef IFX_DICT_FILL
    Py_ssize_t n = PyTuple_GET_SIZE(keys);
    for (Py_ssize_t i = 0; i < n; i++)
        if (!PyUnicode_CheckExact(PyTuple_GET_ITEM(keys, i)))
            return 0;
    m->slot = PyMem_New(Py_ssize_t, n > 0 ? n : 1);
    PyObject *t = PyDict_New();
    if (m->slot == NULL || t == NULL)
        goto fail;
    /* First {name: its entry index}, which names each column's entry, then every value None. */
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *key = PyTuple_GET_ITEM(keys, i), *at = PyDict_GetItemWithError(t, key);
        if (at == NULL && PyErr_Occurred())
            goto fail;
        if (at == NULL) {
            PyObject *idx = PyLong_FromSsize_t(m->unique);
            if (idx == NULL || PyDict_SetItem(t, key, idx) < 0) {
                Py_XDECREF(idx);
                goto fail;
            }
            Py_DECREF(idx);
            m->slot[i] = m->unique++;
        }
        else
            m->slot[i] = PyLong_AsSsize_t(at);
    }
    for (Py_ssize_t i = 0; i < n; i++)
        if (PyDict_SetItem(t, PyTuple_GET_ITEM(keys, i), Py_None) < 0)
            goto fail;
    m->template = t;
    int ok = dict_maker_check(m);
    if (ok == 1)
        return 0;
    if (ok < 0)
        goto fail;
    Py_CLEAR(m->template);
    PyMem_Free(m->slot);
    m->slot = NULL;
    return 0;
fail:
    if (m->template == NULL)
        Py_XDECREF(t);
    Py_CLEAR(m->template);
    PyMem_Free(m->slot);
    m->slot = NULL;
    return -1;
#else
    return 0;
#endif
}

static void dict_maker_release(DictMaker *m)
{
    Py_CLEAR(m->template);
    PyMem_Free(m->slot);
    m->slot = NULL;
}

/* The dict {keys[i]: row[i]} for the tuple ``row``, as dict(zip(keys, row)). The direct
   route takes the row's values (with ``may_take``, from a tuple nothing else holds: it gives
   them up, its items left NULL) and tracks the dict for the cyclic GC when a value may need
   it, as PyDict_SetItem would. */
static PyObject *dict_maker_make(DictMaker *m, PyObject *row, int may_take)
{
#ifdef IFX_DICT_FILL
    Py_ssize_t n = PyTuple_GET_SIZE(row);
    if (m->template != NULL && n == PyTuple_GET_SIZE(m->keys)) {
        PyObject *d = PyDict_Copy(m->template);
        if (d == NULL)
            return NULL;
        KeysLayout *k = dict_keys_of(d);
        if (((PyDictObject *)d)->ma_values == NULL && k->dk_nentries == m->unique
            && k->dk_refcnt == 1) {
            StrEntry *e = dict_entries_of(k);
            int give = may_take && PyTuple_CheckExact(row) && Py_REFCNT(row) == 1, track = 0;
            for (Py_ssize_t i = 0; i < n; i++) {
                PyObject *v = PyTuple_GET_ITEM(row, i);
                if (give)
                    PyTuple_SET_ITEM(row, i, NULL);
                else
                    Py_INCREF(v);
                PyObject *old = e[m->slot[i]].me_value;
                e[m->slot[i]].me_value = v;
                Py_DECREF(old);
                if (!track && PyType_IS_GC(Py_TYPE(v)) && PyObject_IS_GC(v)
                    && (!PyTuple_CheckExact(v) || PyObject_GC_IsTracked(v)))
                    track = 1;
            }
            if (track && !PyObject_GC_IsTracked(d))
                PyObject_GC_Track(d);
            return d;
        }
        Py_DECREF(d);
    }
#endif
    return row_to_dict(m->keys, row);
}

/* 1 when dict_maker_make took every value out of ``row`` (the direct route, the tuple held
   by nobody else) and the row is an exact tuple of ``ncols`` (the decoder's length; the pure
   fallback's tuples may differ), all items NULL: decode_row may decode the next row into it.
   Whether the cyclic GC tracks it does not matter: it never reaches Python code, and a
   container the GC does not see only keeps what it holds alive. */
static int dict_maker_emptied(DictMaker *m, PyObject *row, Py_ssize_t ncols)
{
    if (m->template == NULL || !PyTuple_CheckExact(row) || Py_REFCNT(row) != 1
        || PyTuple_GET_SIZE(row) != ncols)
        return 0;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(row); i++)
        if (PyTuple_GET_ITEM(row, i) != NULL)
            return 0;
    return 1;
}

/* decode_dicts' maker for ``keys``: the decoder's kept one when it was made for this very
   tuple, moved out of the decoder while in use (a re-entrant call, from a converter's Python
   code, makes its own), else a new one. ``*owner`` gets a reference to keys. */
static int dict_maker_take(RowDecoder *self, PyObject *keys, DictMaker *m, PyObject **owner)
{
    if (self->dm_keys != NULL && self->dm_keys == keys) {
        m->keys = keys;
        m->template = self->dm_template;
        m->slot = self->dm_slot;
        m->unique = self->dm_unique;
        *owner = self->dm_keys;
        self->dm_keys = self->dm_template = NULL;
        self->dm_slot = NULL;
        return 0;
    }
    if (dict_maker_init(m, keys) < 0)
        return -1;
    *owner = Py_NewRef(keys);
    return 0;
}

static void dict_maker_drop_kept(RowDecoder *self)
{
    Py_CLEAR(self->dm_keys);
    Py_CLEAR(self->dm_template);
    PyMem_Free(self->dm_slot);
    self->dm_slot = NULL;
}

/* Gives the maker back to the decoder for the next call (replacing what it kept). */
static void dict_maker_keep(RowDecoder *self, DictMaker *m, PyObject *owner)
{
    if (owner == NULL)
        return;
    dict_maker_drop_kept(self);
    self->dm_keys = owner;
    self->dm_template = m->template;
    self->dm_slot = m->slot;
    self->dm_unique = m->unique;
    m->template = NULL;
    m->slot = NULL;
}

/* The SQ_TUPLE loop of decode_tuples and decode_dicts: every complete SQ_TUPLE message (u16
   code 14, u16 pad, i32 size, payload, pad to even) from ``pos`` onward, each row appended to
   the list ``rows``: the decoded tuple, or with ``keys`` (a tuple of str) the dict
   {keys[i]: value} made from it at once, the tuple freed. Stops before anything else:
   another message, an incomplete tuple, a negative size; the caller's loop handles those. A
   row that raises the codec error class is skipped; the first such exception is returned. */
static PyObject *decode_run(RowDecoder *self, PyObject *const *args, PyObject *keys)
{
    PyObject *bufobj = args[0], *rows = args[3];
    Py_ssize_t pos = PyLong_AsSsize_t(args[1]);
    if (pos == -1 && PyErr_Occurred())
        return NULL;
    Py_ssize_t end = PyLong_AsSsize_t(args[2]);
    if (end == -1 && PyErr_Occurred())
        return NULL;
    if (!PyList_Check(rows)) {
        PyErr_SetString(PyExc_TypeError, "rows must be a list");
        return NULL;
    }
    BufRef b;
    if (buf_get(bufobj, &b) < 0)
        return NULL;
    if (end > b.len)
        end = b.len;
    PyObject *first_error = NULL;
    DictMaker maker = {NULL, NULL, NULL, 0};
    PyObject *spare = NULL, *maker_owner = NULL;
    if (keys != NULL && dict_maker_take(self, keys, &maker, &maker_owner) < 0)
        goto fail;
    while (pos >= 0 && end - pos >= 8 && b.p[pos] == 0 && b.p[pos + 1] == SQ_TUPLE) {
        int32_t size = (int32_t)be32(b.p + pos + 4);
        if (size < 0)
            break;
        Py_ssize_t nxt = pos + 8 + (Py_ssize_t)size + (size & 1);
        if (nxt > end)
            break;
        PyObject *row = keys == NULL
                            ? decode_row(self, bufobj, b.p, b.len, pos + 8, size)
                            : decode_row_reusing(self, bufobj, b.p, b.len, pos + 8, size, spare);
        spare = NULL;
        if (row != NULL && keys != NULL) {
            /* The dict is made while the row's values are still in the L1 cache, and the
               emptied tuple takes the next row's values (docs/BENCHMARKS.md, "Row
               factories"). The pure fallback makes tuples too. */
            PyObject *d = PyTuple_Check(row) ? dict_maker_make(&maker, row, 1) : NULL;
            if (d == NULL && !PyErr_Occurred())
                PyErr_SetString(PyExc_TypeError, "the row decoder made no tuple");
            if (d != NULL && dict_maker_emptied(&maker, row, Py_SIZE(self)))
                spare = row; /* the next row is decoded into it: no tuple made or freed */
            else
                Py_DECREF(row);
            row = d;
            if (row == NULL)
                goto fail;
        }
        if (row != NULL) {
            int rc = PyList_Append(rows, row);
            Py_DECREF(row);
            if (rc < 0)
                goto fail;
        }
        else if (self->error_class != NULL && PyErr_ExceptionMatches(self->error_class)) {
            if (first_error == NULL) {
                PyObject *type, *value, *tb;
                PyErr_Fetch(&type, &value, &tb);
                PyErr_NormalizeException(&type, &value, &tb);
                if (tb != NULL && value != NULL)
                    PyException_SetTraceback(value, tb);
                Py_XDECREF(type);
                Py_XDECREF(tb);
                first_error = value;
            }
            else
                PyErr_Clear();
        }
        else
            goto fail;
        pos = nxt;
    }
    buf_release(&b);
    dict_maker_keep(self, &maker, maker_owner);
    Py_XDECREF(spare);
    return Py_BuildValue("(nN)", pos, first_error != NULL ? first_error : Py_NewRef(Py_None));

fail:
    buf_release(&b);
    dict_maker_keep(self, &maker, maker_owner);
    Py_XDECREF(spare);
    Py_XDECREF(first_error);
    return NULL;
}

/* decode_tuples(buf, pos, end, rows) -> (pos, first_error)

   The body of the driver's SQ_TUPLE loop (client/replies.py Reply._tuples) in C (decode_run:
   the rows appended to the list ``rows``). */
static PyObject *RowDecoder_decode_tuples(RowDecoder *self, PyObject *const *args,
                                          Py_ssize_t nargs)
{
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "decode_tuples(buffer, pos, end, rows)");
        return NULL;
    }
    return decode_run(self, args, NULL);
}

/* decode_dicts(buf, pos, end, rows, keys) -> (pos, first_error)

   decode_tuples for ifxwire.rows.dict_row (Reply.keys): each row appended as the dict
   {keys[i]: value}, made as the row is decoded. */
static PyObject *RowDecoder_decode_dicts(RowDecoder *self, PyObject *const *args,
                                         Py_ssize_t nargs)
{
    if (nargs != 5 || !PyTuple_Check(args[4])) {
        PyErr_SetString(PyExc_TypeError, "decode_dicts(buffer, pos, end, rows, keys: tuple)");
        return NULL;
    }
    return decode_run(self, args, args[4]);
}

static PyMethodDef RowDecoder_methods[] = {
    {"decode_tuples", (PyCFunction)(void (*)(void))RowDecoder_decode_tuples, METH_FASTCALL,
     "decode_tuples(buffer, pos, end, rows) -> (pos, first_error): decode the run of complete "
     "SQ_TUPLE messages at pos, appending to rows"},
    {"decode_dicts", (PyCFunction)(void (*)(void))RowDecoder_decode_dicts, METH_FASTCALL,
     "decode_dicts(buffer, pos, end, rows, keys) -> (pos, first_error): decode_tuples making "
     "each row the dict {keys[i]: value} as it is decoded"},
    {NULL, NULL, 0, NULL},
};

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

/* ------------------------------------------------------------------------------------------ */
/* executemany's row replies                                                                  */
/* ------------------------------------------------------------------------------------------ */

/* scan_done_replies(buf, pos, end, limit, long_rowid, bigint, done, insertdone, eot, cost)
 *     -> (pos, count, rows, fields, lastrowid)
 *
 * The loop of client/batch.py ReplyTally._read_fast, which stays its pure twin: consumes up to
 * ``limit`` replies at ``pos`` that are ``[INSERTDONE] DONE [INSERTDONE] [COST] EOT`` (one
 * INSERTDONE at most) and complete before ``end``. Real servers send INSERTDONE before DONE and
 * COST after an EXECUTE's DONE (docs/PROTOCOL.md §17); our server sends DONE [INSERTDONE] EOT.
 * Field widths as the layout fixes them (DONE: i16 warnings, rows and rowid i32 or i64 with
 * long_rowid, i32 serial; INSERTDONE: i16 sign, u32 low, u32 high, and an i64 bigserial with
 * bigint; COST: two i32). Returns the position after them, how many, the sum of their positive
 * row counts, the last one's (warnings, rows, rowid, serial) or None, and the last non-zero
 * serial (bigserial, else the INT8 serial8, else DONE's serial) or None. It stops, leaving the
 * reply to the Reply parser, at anything else, and where a sum would leave int64 (no server
 * sends such counts; the parser then reads that reply). */
static PyObject *scan_done_replies(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 10) {
        PyErr_SetString(PyExc_TypeError,
                        "scan_done_replies(buf, pos, end, limit, long_rowid, bigint, done, "
                        "insertdone, eot, cost)");
        return NULL;
    }
    Py_ssize_t pos = PyLong_AsSsize_t(args[1]), end = PyLong_AsSsize_t(args[2]);
    Py_ssize_t limit = PyLong_AsSsize_t(args[3]);
    int wide = PyObject_IsTrue(args[4]), big = PyObject_IsTrue(args[5]);
    long done = PyLong_AsLong(args[6]), insertdone = PyLong_AsLong(args[7]);
    long eot = PyLong_AsLong(args[8]), cost = PyLong_AsLong(args[9]);
    if (PyErr_Occurred() || wide < 0 || big < 0)
        return NULL;
    BufRef b;
    if (buf_get(args[0], &b) < 0)
        return NULL;
    if (end > b.len)
        end = b.len;
    const Py_ssize_t w = wide ? 8 : 4;
    const Py_ssize_t done_body = 2 + 2 * w + 4;        /* after the tag */
    const Py_ssize_t ins_body = 2 + 4 + 4 + (big ? 8 : 0);
    Py_ssize_t count = 0;
    int64_t rows_sum = 0;
    const unsigned char *last = NULL; /* the last reply's DONE tag: its fields are read once,
                                       * after the loop (only the rows and serial per reply) */
    int serial_kind = 0; /* 0 none, 1 signed int64 in last_serial, 2 -magnitude (u64) */
    int64_t last_serial = 0;
    uint64_t last_mag = 0;
    const unsigned char *p = b.p;
    while (count < limit && pos >= 0 && end - pos >= 2) {
        Py_ssize_t at = pos;
        const unsigned char *ins = NULL; /* an INSERTDONE's body */
        if (be16(p + at) == insertdone) {
            if (end - at < 2 + ins_body + 2)
                break;
            ins = p + at + 2;
            at += 2 + ins_body;
        }
        if (be16(p + at) != done || end - at < 2 + done_body + 2)
            break;
        const unsigned char *q = p + at; /* the DONE tag */
        at += 2 + done_body;
        if (ins == NULL && be16(p + at) == insertdone) {
            if (end - at < 2 + ins_body + 2)
                break;
            ins = p + at + 2;
            at += 2 + ins_body;
        }
        if (be16(p + at) == cost) {
            if (end - at < 2 + 8 + 2)
                break;
            at += 2 + 8;
        }
        if (be16(p + at) != eot)
            break;
        int64_t rows = wide ? (int64_t)be64(q + 4) : (int32_t)be32(q + 4);
        int64_t serial = (int32_t)be32(q + 4 + 2 * w);
        int s_kind = 0;
        int64_t s_val = 0;
        uint64_t s_mag = 0;
        if (ins != NULL) {
            int sign = (int16_t)be16(ins);
            uint64_t mag = ((uint64_t)be32(ins + 6) << 32) | (uint64_t)be32(ins + 2);
            int64_t bigserial = big ? (int64_t)be64(ins + 10) : 0;
            if (bigserial != 0) {
                s_kind = 1;
                s_val = bigserial;
            } else if (sign != 0 && mag != 0) {
                if (sign > 0 && mag > (uint64_t)INT64_MAX) {
                    s_kind = 3; /* a positive beyond int64: the value itself, unsigned */
                    s_mag = mag;
                } else if (sign > 0) {
                    s_kind = 1;
                    s_val = (int64_t)mag;
                } else {
                    s_kind = 2;
                    s_mag = mag;
                }
            }
        }
        if (s_kind == 0 && serial != 0) {
            s_kind = 1;
            s_val = serial;
        }
        if (rows > 0) {
            if (rows > INT64_MAX - rows_sum)
                break;
            rows_sum += rows;
        }
        if (s_kind != 0) {
            serial_kind = s_kind;
            last_serial = s_val;
            last_mag = s_mag;
        }
        last = q;
        pos = at + 2;
        count++;
    }
    int64_t l_warn = 0, l_rows = 0, l_rowid = 0, l_serial = 0;
    if (last != NULL) { /* read before the buffer is released */
        l_warn = (int16_t)be16(last + 2);
        l_rows = wide ? (int64_t)be64(last + 4) : (int32_t)be32(last + 4);
        l_rowid = wide ? (int64_t)be64(last + 4 + w) : (int32_t)be32(last + 4 + w);
        l_serial = (int32_t)be32(last + 4 + 2 * w);
    }
    buf_release(&b);
    PyObject *fields = NULL, *lastrowid = NULL;
    if (last != NULL)
        fields = Py_BuildValue("(LLLL)", (long long)l_warn, (long long)l_rows, (long long)l_rowid,
                               (long long)l_serial);
    else
        fields = Py_NewRef(Py_None);
    if (fields == NULL)
        return NULL;
    if (serial_kind == 1) {
        lastrowid = PyLong_FromLongLong(last_serial);
    } else if (serial_kind == 3) {
        lastrowid = PyLong_FromUnsignedLongLong(last_mag);
    } else if (serial_kind == 2) {
        PyObject *m = PyLong_FromUnsignedLongLong(last_mag);
        lastrowid = m == NULL ? NULL : PyNumber_Negative(m);
        Py_XDECREF(m);
    } else {
        lastrowid = Py_NewRef(Py_None);
    }
    if (lastrowid == NULL) {
        Py_DECREF(fields);
        return NULL;
    }
    return Py_BuildValue("(nnLNN)", pos, count, (long long)rows_sum, fields, lastrowid);
}

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

static PyMethodDef module_methods[] = {
    {"make_row_decoder", make_row_decoder, METH_VARARGS,
     "make_row_decoder(plan, variable, fixed_total, enc_kind, encoding, keep_char_padding, "
     "pure, epoch_ordinal, error_class) -> RowDecoder"},
    {"make_bind_encoder", make_bind_encoder, METH_VARARGS,
     "make_bind_encoder(types, kinds, fns, encoding, enc_kind, head_code, consts, pure) -> "
     "BindEncoder"},
    {"scan_done_replies", (PyCFunction)(void (*)(void))scan_done_replies, METH_FASTCALL,
     "scan_done_replies(buf, pos, end, limit, long_rowid, bigint, done, insertdone, eot, cost) -> "
     "(pos, count, rows, fields, lastrowid)"},
    {"make_dicts", (PyCFunction)(void (*)(void))make_dicts, METH_FASTCALL,
     "make_dicts(keys, rows) -> [dict(zip(keys, row)) for row in rows]"},
    {"make_tuples", (PyCFunction)(void (*)(void))make_tuples, METH_FASTCALL,
     "make_tuples(cls, rows) -> [tuple.__new__(cls, row) for row in rows]"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef speedups_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "ifxwire._speedups",
    .m_doc = "Optional C row decoder and bind encoder for ifxwire (see docs/ACCELERATOR.md).",
    .m_size = -1,
    .m_methods = module_methods,
};

PyMODINIT_FUNC PyInit__speedups(void)
{
    PyDateTime_IMPORT;
    if (PyDateTimeAPI == NULL)
        return NULL;
    if (PyType_Ready(&RowDecoder_Type) < 0 || PyType_Ready(&BindEncoder_Type) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&speedups_module);
    if (m == NULL)
        return NULL;
    Py_INCREF(&RowDecoder_Type);
    if (PyModule_AddObject(m, "RowDecoder", (PyObject *)&RowDecoder_Type) < 0) {
        Py_DECREF(&RowDecoder_Type);
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(&BindEncoder_Type);
    if (PyModule_AddObject(m, "BindEncoder", (PyObject *)&BindEncoder_Type) < 0) {
        Py_DECREF(&BindEncoder_Type);
        Py_DECREF(m);
        return NULL;
    }
    if (PyModule_AddIntConstant(m, "ABI", 2) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
