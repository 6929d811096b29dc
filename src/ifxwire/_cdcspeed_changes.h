/* ifxwire._cdcspeed, part "changes": the change log's JSON bodies: parse_changes, a scanner for
 * the bodies the hub writes. Included once, in order, by _cdcspeed.c (one translation unit, so
 * gcc inlines across the parts as it did in one file): not a header of its own. */

/* ---- the change log's JSON bodies --------------------------------------------------------- */

/* parse_changes(body, change_type) -> [change_type(recnum, table, values)] or None.
 *
 * hub._changes' ``[Change(c[0], c[1], tuple(c[2])) for c in json.loads(body)]`` for the bodies
 * the hub writes (json.dumps of [[recnum, "db:table", [values...]], ...]) when every value is
 * an integer of at most 18 digits, a string without escapes or control characters, or null.
 * Anything else (a float, a bytes value's object, true/false, an escape, non-ASCII text, a
 * shape other than that) returns None and hub._changes parses the body with json itself. */

typedef struct {
    const char *p;
    const char *end;
} Cur;

static void skip_ws(Cur *c)
{
    while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r'))
        c->p++;
}

/* One value; NULL with no exception set: not taken (the caller returns None). */
static PyObject *scalar(Cur *c)
{
    const char *p = c->p;
    if (p >= c->end)
        return NULL;
    if (*p == '"') {
        const char *q = p + 1;
        while (q < c->end && *q != '"') {
            if (*q == '\\' || (unsigned char)*q < 0x20)
                return NULL;
            q++;
        }
        if (q >= c->end)
            return NULL;
        c->p = q + 1;
        return PyUnicode_FromStringAndSize(p + 1, q - p - 1);
    }
    if (*p == 'n') {
        if (c->end - p >= 4 && memcmp(p, "null", 4) == 0) {
            c->p = p + 4;
            return Py_NewRef(Py_None);
        }
        return NULL;
    }
    int neg = 0;
    if (*p == '-') {
        neg = 1;
        p++;
    }
    const char *d = p;
    long long v = 0;
    while (p < c->end && *p >= '0' && *p <= '9') {
        v = v * 10 + (*p - '0');
        p++;
        if (p - d > 18)
            return NULL;
    }
    if (p == d || (*d == '0' && p - d > 1))
        return NULL;
    if (p < c->end && (*p == '.' || *p == 'e' || *p == 'E'))
        return NULL; /* a float: json's own parse */
    c->p = p;
    return PyLong_FromLongLong(neg ? -v : v);
}

static int expect(Cur *c, char ch)
{
    skip_ws(c);
    if (c->p < c->end && *c->p == ch) {
        c->p++;
        return 1;
    }
    return 0;
}

static PyObject *parse_changes(PyObject *module, PyObject *args)
{
    PyObject *body, *ctype;
    if (!PyArg_ParseTuple(args, "UO", &body, &ctype))
        return NULL;
    if (!PyUnicode_IS_ASCII(body))
        Py_RETURN_NONE;
    Cur c = {(const char *)PyUnicode_DATA(body),
             (const char *)PyUnicode_DATA(body) + PyUnicode_GET_LENGTH(body)};
    PyObject *out = PyList_New(0);
    PyObject *vals = NULL, *recnum = NULL, *table = NULL;
    if (out == NULL)
        return NULL;
    if (!expect(&c, '['))
        goto not_taken;
    skip_ws(&c);
    if (c.p < c.end && *c.p == ']') {
        c.p++;
        goto done;
    }
    for (;;) {
        if (!expect(&c, '['))
            goto not_taken;
        skip_ws(&c);
        recnum = scalar(&c);
        if (recnum == NULL)
            goto error_or_not;
        if (!expect(&c, ','))
            goto not_taken;
        skip_ws(&c);
        table = scalar(&c);
        if (table == NULL)
            goto error_or_not;
        if (!expect(&c, ',') || !expect(&c, '['))
            goto not_taken;
        vals = PyList_New(0);
        if (vals == NULL)
            goto error;
        skip_ws(&c);
        if (c.p < c.end && *c.p == ']')
            c.p++;
        else {
            for (;;) {
                skip_ws(&c);
                PyObject *v = scalar(&c);
                if (v == NULL)
                    goto error_or_not;
                int bad = PyList_Append(vals, v) < 0;
                Py_DECREF(v);
                if (bad)
                    goto error;
                if (expect(&c, ','))
                    continue;
                if (expect(&c, ']'))
                    break;
                goto not_taken;
            }
        }
        if (!expect(&c, ']'))
            goto not_taken;
        PyObject *tup = PyList_AsTuple(vals);
        Py_CLEAR(vals);
        if (tup == NULL)
            goto error;
        PyObject *a[3] = {recnum, table, tup};
        PyObject *change = PyObject_Vectorcall(ctype, a, 3, NULL);
        Py_DECREF(tup);
        Py_CLEAR(recnum);
        Py_CLEAR(table);
        if (change == NULL)
            goto error;
        int bad = PyList_Append(out, change) < 0;
        Py_DECREF(change);
        if (bad)
            goto error;
        if (expect(&c, ','))
            continue;
        if (expect(&c, ']'))
            break;
        goto not_taken;
    }
done:
    skip_ws(&c);
    if (c.p != c.end)
        goto not_taken;
    return out;
error_or_not:
    if (PyErr_Occurred())
        goto error;
not_taken:
    Py_XDECREF(vals);
    Py_XDECREF(recnum);
    Py_XDECREF(table);
    Py_DECREF(out);
    Py_RETURN_NONE;
error:
    Py_XDECREF(vals);
    Py_XDECREF(recnum);
    Py_XDECREF(table);
    Py_DECREF(out);
    return NULL;
}

