/* ifxwire._tuplewriter, part "loaders": the engine's per-column loaders over a batch of SQLite
 * rows: load_rows and load_planned. Included once, in order, by _tuplewriter.c (one translation
 * unit, so gcc inlines across the parts as it did in one file): not a header of its own. */

/* ---- load_rows: the engine's per-column loaders over a batch of SQLite rows -------------
 *
 * load_rows(batch, plan) -> list | None
 *   batch: the list sqlite3's fetchmany returned (tuples);
 *   plan: one (index, kind, lo, hi, fn) per column that has a loader (engine/convert.py
 *     ``loader``; fn is the loader itself). The loaders return most SQLite values unchanged;
 *     those cases are checked here and the loader is called only for the others:
 *       L_INT (load_int): an exact int in [lo, hi] is kept;
 *       L_FLOAT (_load_float): an exact float is kept;
 *       L_CHARS (_load_chars): an exact str without NUL is kept;
 *       L_DT (a DATETIME's loader, lo/hi its start and end units): stored text of the
 *         canonical form 'YYYY-MM-DD HH:MM:SS.fffff' (the qualifier's fields, nothing
 *         omitted, at most 5 fraction digits) becomes the datetime, date or time
 *         values.dt_python makes; any other text, and the other qualifiers, go to fn;
 *       L_DATE (a DATE's loader, lo the ordinal of day 0): an exact int whose date is in
 *         years 1..9999 becomes that date (values.date_from_number); others go to fn;
 *       L_CALL: every value goes to fn.
 *     NULL (None) is never given to a loader (engine/session.py _stream).
 *   Returns the rows, each the same tuple when nothing changed. When a row is not a tuple
 *   or is narrower than the plan, or a loader raises an
 *   Exception, returns None with no exception set: the caller then runs its Python loop over
 *   the batch, which yields the rows before the bad one and raises exactly as before. Other
 *   exceptions (KeyboardInterrupt, MemoryError) propagate.
 */
enum { L_CALL = 0, L_INT = 1, L_FLOAT = 2, L_CHARS = 3, L_DT = 4, L_DATE = 5 };

static int has_nul(PyObject *v)
{
    Py_ssize_t n = PyUnicode_GET_LENGTH(v);
    const void *d = PyUnicode_DATA(v);
    switch (PyUnicode_KIND(v)) {
    case PyUnicode_1BYTE_KIND:
        return memchr(d, 0, (size_t)n) != NULL;
    case PyUnicode_2BYTE_KIND:
        for (Py_ssize_t i = 0; i < n; i++)
            if (((const Py_UCS2 *)d)[i] == 0)
                return 1;
        return 0;
    default:
        for (Py_ssize_t i = 0; i < n; i++)
            if (((const Py_UCS4 *)d)[i] == 0)
                return 1;
        return 0;
    }
}

/* values.dt_python of stored DATETIME text for start TO end, when the text has the canonical
 * form and the qualifier makes a datetime (YEAR TO HOUR..FRACTION), a date (YEAR TO DAY) or
 * a time (HOUR.. TO ..); NULL without an exception otherwise (fn then decides, and raises
 * what the engine raises for a bad value). */
static PyObject *dt_load(PyObject *v, int start, int end)
{
    if (!PyUnicode_CheckExact(v) || PyUnicode_KIND(v) != PyUnicode_1BYTE_KIND || start > 10
            || (start & 1) || end < start || (end < 10 && (end & 1)))
        return NULL;
    int shape = start == 0 && end >= 6 ? 1 : start == 0 && end == 4 ? 2 : start >= 6 ? 3 : 0;
    if (shape == 0)
        return NULL;
    const unsigned char *s = (const unsigned char *)PyUnicode_DATA(v);
    Py_ssize_t n = PyUnicode_GET_LENGTH(v), pos = 0;
    static const char seps[6] = {0, '-', '-', ' ', ':', ':'};
    int f[7] = {0, 1, 1, 0, 0, 0, 0};
    for (int u = start; u <= (end < 10 ? end : 10); u += 2) {
        int slot = u / 2, width = u == 0 ? 4 : 2, x = 0;
        if (u != start) {
            if (pos >= n || (s[pos] != seps[slot] && !(slot == 3 && s[pos] == 'T')))
                return NULL;
            pos++;
        }
        if (pos + width > n)
            return NULL;
        for (int k = 0; k < width; k++) {
            unsigned char ch = s[pos + k];
            if (ch < '0' || ch > '9')
                return NULL;
            x = x * 10 + (ch - '0');
        }
        pos += width;
        if (pos < n && s[pos] >= '0' && s[pos] <= '9')
            return NULL;
        f[slot] = x;
    }
    if (end > 10) {
        if (pos >= n || s[pos] != '.')
            return NULL;
        pos++;
        int k = 0, x = 0;
        while (pos < n && s[pos] >= '0' && s[pos] <= '9' && k < 6) {
            x = x * 10 + (s[pos] - '0');
            pos++;
            k++;
        }
        if (k == 0 || k > 5)
            return NULL;
        for (; k < 5; k++)
            x *= 10;
        f[6] = x * 10; /* five stored digits: tens of microseconds */
    }
    if (pos != n || (shape != 3 && f[0] < 1))
        return NULL;
    PyObject *r;
    if (shape == 1)
        r = PyDateTime_FromDateAndTime(f[0], f[1], f[2], f[3], f[4], f[5], f[6]);
    else if (shape == 2)
        r = PyDate_FromDate(f[0], f[1], f[2]);
    else
        r = PyTime_FromTime(f[3], f[4], f[5], f[6]);
    if (r == NULL && PyErr_ExceptionMatches(PyExc_ValueError))
        PyErr_Clear(); /* out of range: fn raises the engine's error */
    return r;
}

/* values.date_from_number of a stored DATE (days after day 0, whose ordinal is ``epoch``),
 * or NULL without an exception when fn must decide (not an exact int, out of years 1..9999). */
static PyObject *date_load(PyObject *v, long long epoch)
{
    if (!PyLong_CheckExact(v))
        return NULL;
    int overflow = 0;
    long long n = PyLong_AsLongLongAndOverflow(v, &overflow);
    if (n == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        return NULL;
    }
    if (overflow || n < 1 - epoch || n > 3652059 - epoch)
        return NULL;
    /* days since 1970-01-01 to the civil date (proleptic Gregorian) */
    long long z = n + epoch - 719163 + 719468;
    long long era = (z >= 0 ? z : z - 146096) / 146097;
    long long doe = z - era * 146097;
    long long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    long long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    long long mp = (5 * doy + 2) / 153;
    int d = (int)(doy - (153 * mp + 2) / 5 + 1);
    int m = (int)(mp < 10 ? mp + 3 : mp - 9);
    int y = (int)(yoe + era * 400 + (m <= 2));
    return PyDate_FromDate(y, m, d);
}

typedef struct {
    Py_ssize_t index;
    int kind;
    long long lo, hi;
    PyObject *fn;
} LoadCol;

/* 1: v is kept as it is; 0: the loader must see it. */
static int keeps(const LoadCol *c, PyObject *v)
{
    switch (c->kind) {
    case L_INT:
        if (PyLong_CheckExact(v)) {
            int overflow = 0;
            long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
            if (x == -1 && PyErr_Occurred()) {
                PyErr_Clear();
                return 0;
            }
            return !overflow && x >= c->lo && x <= c->hi;
        }
        return 0;
    case L_FLOAT:
        return PyFloat_CheckExact(v);
    case L_CHARS:
        return PyUnicode_CheckExact(v) && !has_nul(v);
    default:
        return 0;
    }
}

static PyObject *load_rows(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2 || !PyList_Check(args[0]) || !PyTuple_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "load_rows(batch: list, plan: tuple)");
        return NULL;
    }
    PyObject *batch = args[0], *plan = args[1];
    Py_ssize_t ncols = PyTuple_GET_SIZE(plan);
    LoadCol cols[64];
    LoadCol *lc = ncols <= 64 ? cols : PyMem_Malloc(sizeof(LoadCol) * (size_t)ncols);
    if (lc == NULL)
        return PyErr_NoMemory();
    PyObject *result = NULL;
    for (Py_ssize_t i = 0; i < ncols; i++) {
        if (!PyArg_ParseTuple(PyTuple_GET_ITEM(plan, i), "niLLO", &lc[i].index, &lc[i].kind,
                              &lc[i].lo, &lc[i].hi, &lc[i].fn))
            goto done;
    }
    Py_ssize_t n = PyList_GET_SIZE(batch);
    result = PyList_New(n);
    if (result == NULL)
        goto done;
    for (Py_ssize_t r = 0; r < n; r++) {
        PyObject *row = PyList_GET_ITEM(batch, r);
        if (!PyTuple_CheckExact(row))
            goto fallback;
        PyObject *copy = NULL;
        Py_ssize_t width = PyTuple_GET_SIZE(row);
        for (Py_ssize_t i = 0; i < ncols; i++) {
            const LoadCol *c = &lc[i];
            if (c->index < 0 || c->index >= width) {
                Py_XDECREF(copy);
                goto fallback;
            }
            PyObject *v = PyTuple_GET_ITEM(copy ? copy : row, c->index);
            if (v == Py_None || keeps(c, v))
                continue;
            PyObject *w = c->kind == L_DT ? dt_load(v, (int)c->lo, (int)c->hi)
                : c->kind == L_DATE ? date_load(v, c->lo) : NULL;
            if (w == NULL && PyErr_Occurred()) { /* MemoryError and the like */
                Py_XDECREF(copy);
                Py_CLEAR(result);
                goto done;
            }
            if (w == NULL)
                w = PyObject_CallOneArg(c->fn, v);
            if (w == NULL) {
                Py_XDECREF(copy);
                Py_CLEAR(result);
                if (PyErr_ExceptionMatches(PyExc_Exception)) {
                    PyErr_Clear();
                    result = Py_NewRef(Py_None);
                }
                goto done;
            }
            if (copy == NULL) {
                copy = PyTuple_New(width);
                if (copy == NULL) {
                    Py_DECREF(w);
                    Py_CLEAR(result);
                    goto done;
                }
                for (Py_ssize_t k = 0; k < width; k++)
                    PyTuple_SET_ITEM(copy, k, Py_NewRef(PyTuple_GET_ITEM(row, k)));
            }
            PyObject *old = PyTuple_GET_ITEM(copy, c->index);
            PyTuple_SET_ITEM(copy, c->index, w);
            Py_DECREF(old);
        }
        PyList_SET_ITEM(result, r, copy ? copy : Py_NewRef(row));
    }
    goto done;
fallback: /* not the shape the plan expects: the caller's Python loop decides */
    Py_CLEAR(result);
    result = Py_NewRef(Py_None);
done:
    if (lc != cols)
        PyMem_Free(lc);
    return result;
}

/* load_planned(plan, batch): load_rows with the plan first, so that
 * functools.partial(load_planned, plan) is the batch loader (engine/convert.py): a call
 * without a Python frame per OPEN (issue 26, eleventh round; it was a lambda). */
static PyObject *load_planned(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "load_planned(plan: tuple, batch: list)");
        return NULL;
    }
    PyObject *swapped[2] = {args[1], args[0]};
    return load_rows(module, swapped, 2);
}

