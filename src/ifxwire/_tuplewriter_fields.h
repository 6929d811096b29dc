/* ifxwire._tuplewriter, part "fields": one value's field: DATETIME's and DECIMAL/MONEY's
 * encodings, and put_field for every column kind. Included once, in order, by _tuplewriter.c
 * (one translation unit, so gcc inlines across the parts as it did in one file): not a header
 * of its own. */

/* Append the field of one value at self->scratch + *plen. Returns 0, 1 when the row must be
 * encoded by ``pure`` (fn raised or returned other than bytes; no exception set), -1 on a
 * memory error. */
/* ---- DATETIME ------------------------------------------------------------------------------
 * Informix units: YEAR 0, MONTH 2, DAY 4, HOUR 6, MINUTE 8, SECOND 10, FRACTION(n) 10 + n.
 * Field slots 0..6: year, month, day, hour, minute, second, microsecond; -1 where the value
 * has no such field (a time's date). */
static const int DT_MIN[6] = {1, 1, 1, 0, 0, 0};
static const int DT_MAX[6] = {9999, 12, 31, 23, 59, 59};

static int dt_fields_of(PyObject *v, int f[7])
{
    if (PyDateTime_CheckExact(v)) {
        if (PyDateTime_DATE_GET_TZINFO(v) != Py_None)
            return 0;
        f[0] = PyDateTime_GET_YEAR(v);
        f[1] = PyDateTime_GET_MONTH(v);
        f[2] = PyDateTime_GET_DAY(v);
        f[3] = PyDateTime_DATE_GET_HOUR(v);
        f[4] = PyDateTime_DATE_GET_MINUTE(v);
        f[5] = PyDateTime_DATE_GET_SECOND(v);
        f[6] = PyDateTime_DATE_GET_MICROSECOND(v);
        return 1;
    }
    if (PyDate_CheckExact(v)) {
        f[0] = PyDateTime_GET_YEAR(v);
        f[1] = PyDateTime_GET_MONTH(v);
        f[2] = PyDateTime_GET_DAY(v);
        f[3] = f[4] = f[5] = f[6] = 0;
        return 1;
    }
    if (PyTime_CheckExact(v)) {
        if (PyDateTime_TIME_GET_TZINFO(v) != Py_None)
            return 0;
        f[0] = f[1] = f[2] = -1;
        f[3] = PyDateTime_TIME_GET_HOUR(v);
        f[4] = PyDateTime_TIME_GET_MINUTE(v);
        f[5] = PyDateTime_TIME_GET_SECOND(v);
        f[6] = PyDateTime_TIME_GET_MICROSECOND(v);
        return 1;
    }
    return 0;
}

/* The tuple field of DATETIME qualifier q from fields f into out (at least 16 bytes): its
 * length, or 0 when the Python encoder must decide (temporal.encode_datetime, the reference:
 * the named fields' digits, FRACTION(n) the first n digits of the microseconds, as base-100
 * pairs after a head byte 0x80 | (exponent + 64), the exponent counting whole pairs down to
 * SECOND). */
static Py_ssize_t put_datetime(unsigned char *out, long long q, const int f[7])
{
    int total = (int)((q >> 8) & 0xFF), start = (int)((q >> 4) & 0x0F), end = (int)(q & 0x0F);
    if (start > 10 || (start & 1) || end < start || (end < 10 && (end & 1)))
        return 0;
    char digits[24];
    int nd = 0;
    for (int u = start; u <= (end < 10 ? end : 10); u += 2) {
        int slot = u / 2, v = f[slot];
        if (v < DT_MIN[slot] || v > DT_MAX[slot])
            return 0;
        if (u == 0) {
            digits[nd++] = (char)('0' + v / 1000);
            digits[nd++] = (char)('0' + v / 100 % 10);
        }
        digits[nd++] = (char)('0' + v / 10 % 10);
        digits[nd++] = (char)('0' + v % 10);
    }
    int frac = end > 10 ? end - 10 : 0;
    if (frac) {
        int v = f[6];
        if (v < 0 || v > 999999)
            return 0;
        for (int k = frac; k < 6; k++)
            v /= 10;
        for (int k = frac - 1; k >= 0; k--) {
            digits[nd + k] = (char)('0' + v % 10);
            v /= 10;
        }
        nd += frac;
    }
    if (nd != total)
        return 0;
    int integer = total - frac + (end < 10 ? 10 - end : 0);
    int lead = integer % 2;
    int ndig = lead + nd;
    int pairs = (ndig + 1) / 2;
    if (1 + pairs != (total + (end & 1) + 3) / 2)
        return 0;
    out[0] = (unsigned char)(0x80 | ((integer + 1) / 2 + 64));
    for (int i = 0; i < pairs; i++) {
        int a = 2 * i - lead, b = a + 1;
        int hi = a >= 0 && a < nd ? digits[a] - '0' : 0;
        int lo = b >= 0 && b < nd ? digits[b] - '0' : 0;
        out[1 + i] = (unsigned char)(hi * 10 + lo);
    }
    return 1 + pairs;
}


/* ---- DECIMAL(p,s) / MONEY(p,s) -----------------------------------------------------------
 * numeric.decimal_encoder's short way, for an exact Decimal whose plain text already has the
 * column's scale (what the server's loader makes of a stored fixed-scale value): the unscaled
 * digits as base-100 pairs after a head byte 0xC0 + exponent (negative values: the head
 * (exponent + 64) ^ 0x7F and the pairs' 100-complement), zero pairs to the column's width.
 * 0 when the value must go to the Python encoder (rounding, exponent notation, too many
 * digits, NaN, another type: it decides, and raises what names the column's type). */
static Py_ssize_t put_decimal(unsigned char *out, long long enclen, PyObject *v)
{
    if (Decimal_Type == NULL || Py_TYPE(v) != (PyTypeObject *)Decimal_Type)
        return 0;
    int p = (int)((enclen >> 8) & 0xFF), sc = (int)(enclen & 0xFF);
    if (p < 1 || p > 32 || sc > p)
        return 0;
    int width = (p + (sc & 1) + 3) / 2;
    PyObject *text = PyObject_Str(v);
    if (text == NULL) {
        PyErr_Clear();
        return 0;
    }
    Py_ssize_t n;
    const char *t = PyUnicode_AsUTF8AndSize(text, &n);
    if (t == NULL) {
        PyErr_Clear();
        Py_DECREF(text);
        return 0;
    }
    char ds[72];
    int nd = 0, negative = 0, fraction = -1;
    Py_ssize_t i = 0;
    if (i < n && t[i] == '-') {
        negative = 1;
        i++;
    }
    int any = 0;
    for (; i < n; i++) {
        char ch = t[i];
        if (ch >= '0' && ch <= '9') {
            any = 1;
            if (fraction >= 0)
                fraction++;
            if (nd == 0 && ch == '0' && fraction < 0)
                continue; /* leading zeros of the integer part */
            if (nd >= 66)
                break;
            ds[nd++] = ch;
        } else if (ch == '.' && fraction < 0) {
            fraction = 0;
        } else {
            break;
        }
    }
    Py_DECREF(text);
    if (i != n || !any || (fraction < 0 ? 0 : fraction) != sc || (sc > 0 && fraction < 0))
        return 0;
    /* ds holds the integer digits (no leading zeros) then exactly sc fraction digits */
    if (nd - sc > p - sc)
        return 0;
    int lead = 0;
    while (lead < nd && ds[lead] == '0')
        lead++;
    if (lead == nd) { /* zero, also -0.00: the positive zero */
        memset(out, 0, (size_t)width);
        out[0] = 0x80;
        return width;
    }
    char *d = ds + lead;
    int m = nd - lead;
    if (sc & 1)
        d[m++] = '0';
    int shift = m & 1; /* a leading '0' to make whole pairs */
    int pairs_all = (m + shift) / 2;
    int exponent = pairs_all - (sc + 1) / 2;
    while (m > 0 && d[m - 1] == '0')
        m--;
    int npairs = (m + shift + 1) / 2;
    if (npairs >= width)
        return 0;
    unsigned char digits[40];
    for (int k = 0; k < npairs; k++) {
        int a = 2 * k - shift, b = a + 1;
        int hi = a >= 0 && a < m ? d[a] - '0' : 0;
        int lo = b >= 0 && b < m ? d[b] - '0' : 0;
        digits[k] = (unsigned char)(hi * 10 + lo);
    }
    memset(out, 0, (size_t)width);
    if (!negative) {
        out[0] = (unsigned char)(0xC0 + exponent);
        memcpy(out + 1, digits, (size_t)npairs);
        return width;
    }
    out[0] = (unsigned char)((exponent + 64) ^ 0x7F);
    int last = npairs - 1;
    while (last >= 0 && digits[last] == 0)
        last--;
    for (int k = 0; k < last; k++)
        out[1 + k] = (unsigned char)(99 - digits[k]);
    out[1 + last] = (unsigned char)(100 - digits[last]);
    if (out[0] == 0 && width > 1 && out[1] == 0)
        return 0; /* would read as NULL: the Python encoder raises */
    return width;
}

static int put_field(TupleWriter *self, const Col *c, PyObject *v, size_t *plen)
{
    size_t len = *plen;
    unsigned char *p;
    if (v == Py_None && c->null != NULL) {
        Py_ssize_t n = PyBytes_GET_SIZE(c->null);
        NEED(n);
        memcpy(self->scratch + len, PyBytes_AS_STRING(c->null), (size_t)n);
        *plen = len + (size_t)n;
        return 0;
    }
    switch (c->kind) {
    case K_SMALLINT:
    case K_INTEGER:
    case K_BIGINT:
        if (PyLong_CheckExact(v)) {
            int overflow = 0;
            long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
            if (x == -1 && PyErr_Occurred())
                PyErr_Clear();
            else if (!overflow && x >= -c->arg && x <= c->arg) {
                NEED(8);
                p = self->scratch + len;
                if (c->kind == K_SMALLINT) {
                    be16(p, (uint16_t)(int16_t)x);
                    *plen = len + 2;
                } else if (c->kind == K_INTEGER) {
                    be32(p, (uint32_t)(int32_t)x);
                    *plen = len + 4;
                } else {
                    be64(p, (uint64_t)x);
                    *plen = len + 8;
                }
                return 0;
            }
        }
        break;
    case K_FLOAT:
        if (PyFloat_CheckExact(v)) {
            double d = PyFloat_AS_DOUBLE(v);
            if (isfinite(d)) {
                uint64_t bits;
                memcpy(&bits, &d, 8);
                NEED(8);
                be64(self->scratch + len, bits);
                *plen = len + 8;
                return 0;
            }
        }
        break;
    case K_CHAR:
    case K_VARCHAR:
    case K_LVARCHAR: {
        const char *s;
        Py_ssize_t n;
        int r = text_bytes(self->enc_kind, v, &s, &n);
        if (r <= 0)
            break;
        if (c->kind == K_VARCHAR) {
            if (n > c->arg || (n == 1 && s[0] == 0))
                break;
            NEED(1 + n);
            p = self->scratch + len;
            p[0] = (unsigned char)n;
            memcpy(p + 1, s, (size_t)n);
            *plen = len + 1 + (size_t)n;
        } else if (c->kind == K_CHAR) {
            if (n > c->arg || (n > 0 && s[0] == 0))
                break;
            NEED(c->arg);
            p = self->scratch + len;
            memcpy(p, s, (size_t)n);
            memset(p + n, ' ', (size_t)(c->arg - n));
            *plen = len + (size_t)c->arg;
        } else {
            if ((c->arg >= 0 && n > c->arg) || (n > 0 && s[n - 1] == 0) || n > 0xFFFFFFFFLL)
                break;
            NEED(5 + n);
            p = self->scratch + len;
            p[0] = 0;
            be32(p + 1, (uint32_t)n);
            memcpy(p + 5, s, (size_t)n);
            *plen = len + 5 + (size_t)n;
        }
        return 0;
    }
    case K_DATE:
        if (PyDate_CheckExact(v)) {
            long days = ordinal_of(PyDateTime_GET_YEAR(v), PyDateTime_GET_MONTH(v),
                                   PyDateTime_GET_DAY(v)) - (long)c->arg;
            NEED(4);
            be32(self->scratch + len, (uint32_t)(int32_t)days);
            *plen = len + 4;
            return 0;
        }
        break;
    case K_DECIMAL:
        NEED(40);
        {
            Py_ssize_t n = put_decimal(self->scratch + len, c->arg, v);
            if (n > 0) {
                *plen = len + (size_t)n;
                return 0;
            }
        }
        break;
    case K_DATETIME: {
        int f[7];
        if (dt_fields_of(v, f)) {
            NEED(24);
            Py_ssize_t n = put_datetime(self->scratch + len, c->arg, f);
            if (n > 0) {
                *plen = len + (size_t)n;
                return 0;
            }
        }
        break;
    }
    default:
        break;
    }
    /* Everything else: the column's Python encoder. */
    PyObject *b = PyObject_CallOneArg(c->fn, v);
    if (b == NULL) {
        PyErr_Clear();
        return 1;
    }
    if (!PyBytes_Check(b)) {
        Py_DECREF(b);
        return 1;
    }
    Py_ssize_t n = PyBytes_GET_SIZE(b);
    if (reserve(self, len + (size_t)n) < 0) {
        Py_DECREF(b);
        return -1;
    }
    memcpy(self->scratch + len, PyBytes_AS_STRING(b), (size_t)n);
    Py_DECREF(b);
    *plen = len + (size_t)n;
    return 0;
}

