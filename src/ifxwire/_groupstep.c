/* ifxwire._groupstep: a cached query's request group served in one compiled call (issue 26,
 * select_one_row, eleventh round).
 *
 * A driver's statement cache sends the same ``ID n [CURNAME] [BIND] OPEN ID n NFETCH EOT``
 * group for every execution of a prepared query (docs/PROTOCOL.md, *A query's group served
 * in one step*). server/onestep.py's OneStepGroups._query_group serves it in Python once its
 * template is kept; serve(session) below is that method's plain-cursor branch, step for
 * step, with the byte matching, the statement's checks and the reply's assembly in C. What
 * stays Python is the engine (EngineSession.open_cursor: its privileges, -710, row-lock,
 * cancel and timeout checks, the sqlite3 step) and the compiled tuple writer's own call.
 *
 * configure(decode_bind_plain, writer_type, released, after_run, fetch_min, fetch_max,
 *           flush_bytes)
 *   the Python objects and constants serve uses (server/onestep.py calls it at import).
 * serve(session) -> bool
 *   True: the group at session.start was answered (the reply queued in session.pending,
 *   session.start past the group), exactly as _query_group's plain branch answers it.
 *   False: nothing was changed, and _query_group (the pure path) takes the group: no kept
 *   template, bytes that do not match it, a BIND that is not plain, and every statement
 *   that is not a plain cursor already run once (first run, scroll, FOR UPDATE, CURRENT
 *   rowid, BYTE/TEXT handles, values let go (-254), the pure tuple writer...).
 *   An exception of the engine or of the writer goes to session._one_step_error, which
 *   answers it as _query_group's handlers do, or raises it again.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

/* SQ_ID, SQ_CURNAME, SQ_BIND, SQ_OPEN, SQ_EOT (protocol/codes.py Msg; onestep.py checks
 * these against it at import, through message_codes()). */
#define M_ID 4
#define M_CURNAME 3
#define M_BIND 5
#define M_OPEN 6
#define M_EOT 12

static PyObject *decode_bind_plain, *writer_type, *released, *after_run_fn;
static Py_ssize_t fetch_min, fetch_max, flush_bytes;
static PyObject *empty_tuple, *one;

static PyObject *s_buf, *s_start, *s_end, *s_quiet_eot, *s_groups, *s_statements, *s_engine,
    *s_encoding, *s_current, *s_cursor_name, *s_params, *s_upload, *s_current_out, *s_prepared,
    *s_encoder, *s_write, *s_scroll, *s_rows, *s_blob_rows, *s_materialized, *s_for_update,
    *s_is_query, *s_plan, *s_current_rowid, *s_blobs, *s_handles, *s_open_cursor,
    *s_exhausted, *s_fetched, *s_optofc, *s_tails, *s_done_cost, *s_pending, *s_flush,
    *s_server, *s_request_groups, *s_one_step_groups, *s_one_step_error;

static PyObject *configure(PyObject *module, PyObject *args)
{
    PyObject *d, *w, *r, *a;
    Py_ssize_t lo, hi, fl;
    if (!PyArg_ParseTuple(args, "OOOOnnn", &d, &w, &r, &a, &lo, &hi, &fl))
        return NULL;
    if (!PyType_Check(w)) {
        PyErr_SetString(PyExc_TypeError, "writer_type must be a type");
        return NULL;
    }
    Py_INCREF(d);
    Py_XSETREF(decode_bind_plain, d);
    Py_INCREF(w);
    Py_XSETREF(writer_type, w);
    Py_INCREF(r);
    Py_XSETREF(released, r);
    Py_INCREF(a);
    Py_XSETREF(after_run_fn, a);
    fetch_min = lo;
    fetch_max = hi;
    flush_bytes = fl;
    Py_RETURN_NONE;
}

/* A true attribute (1), a false one (0), or an error (-1). */
static int attr_true(PyObject *o, PyObject *name)
{
    PyObject *v = PyObject_GetAttr(o, name);
    if (v == NULL)
        return -1;
    int t = PyObject_IsTrue(v);
    Py_DECREF(v);
    return t;
}

/* A false attribute (1), a true one (0), or an error (-1). */
static int attr_false(PyObject *o, PyObject *name)
{
    int t = attr_true(o, name);
    return t < 0 ? -1 : !t;
}

/* The attribute is None (1), is not (0), or an error (-1). */
static int attr_none(PyObject *o, PyObject *name)
{
    PyObject *v = PyObject_GetAttr(o, name);
    if (v == NULL)
        return -1;
    int t = v == Py_None;
    Py_DECREF(v);
    return t;
}

static Py_ssize_t attr_ssize(PyObject *o, PyObject *name)
{
    PyObject *v = PyObject_GetAttr(o, name);
    if (v == NULL)
        return -1;
    Py_ssize_t n = PyLong_AsSsize_t(v);
    Py_DECREF(v);
    return n;
}

/* ``bytes`` equals buf[at:at+len(bytes)] within end. */
static int matches(const unsigned char *buf, Py_ssize_t at, Py_ssize_t end, PyObject *bytes)
{
    Py_ssize_t n = PyBytes_GET_SIZE(bytes);
    return end - at >= n && memcmp(buf + at, PyBytes_AS_STRING(bytes), (size_t)n) == 0;
}

static int add_one(PyObject *o, PyObject *name)
{
    PyObject *v = PyObject_GetAttr(o, name);
    if (v == NULL)
        return -1;
    PyObject *w = PyNumber_Add(v, one);
    Py_DECREF(v);
    if (w == NULL)
        return -1;
    int rc = PyObject_SetAttr(o, name, w);
    Py_DECREF(w);
    return rc;
}

/* Hand the pending exception to session._one_step_error(st, out, exc, writing): 0 when it
 * was answered (an error reply in out), -1 when it was raised again. */
static int one_step_error(PyObject *s, PyObject *st, PyObject *out, int writing)
{
    PyObject *type, *exc, *tb;
    PyErr_Fetch(&type, &exc, &tb);
    PyErr_NormalizeException(&type, &exc, &tb);
    if (exc == NULL) {
        Py_XDECREF(type);
        Py_XDECREF(tb);
        PyErr_SetString(PyExc_SystemError, "an error without an exception");
        return -1;
    }
    if (tb != NULL)
        PyException_SetTraceback(exc, tb);
    PyObject *r = PyObject_CallMethodObjArgs(s, s_one_step_error, st, out, exc,
                                             writing ? Py_True : Py_False, NULL);
    Py_XDECREF(type);
    Py_DECREF(exc);
    Py_XDECREF(tb);
    if (r == NULL)
        return -1;
    Py_DECREF(r);
    return 0;
}

static PyObject *serve(PyObject *module, PyObject *s)
{
    PyObject *result = NULL;
    PyObject *bufobj = NULL, *tmpl = NULL, *values = NULL, *plain = NULL, *st = NULL,
             *engine = NULL, *encode = NULL, *write = NULL, *p = NULL, *params = NULL,
             *out = NULL, *outbuf = NULL, *rows = NULL, *res = NULL, *pending = NULL;
    Py_ssize_t pos, end, at;
    if (decode_bind_plain == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "_groupstep.configure was not called");
        return NULL;
    }
    bufobj = PyObject_GetAttr(s, s_buf);
    if (bufobj == NULL)
        return NULL;
    if (!PyByteArray_Check(bufobj)) {
        PyErr_SetString(PyExc_TypeError, "session.buf must be a bytearray");
        goto done;
    }
    if ((pos = attr_ssize(s, s_start)) < 0 && PyErr_Occurred())
        goto done;
    if ((end = attr_ssize(s, s_end)) < 0 && PyErr_Occurred())
        goto done;
    {
        const unsigned char *buf = (const unsigned char *)PyByteArray_AS_STRING(bufobj);
        if (end > PyByteArray_GET_SIZE(bufobj) || pos < 0 || end - pos < 10
            || ((buf[pos] << 8) | buf[pos + 1]) != M_ID)
            goto not_ours;
        int quiet = attr_true(s, s_quiet_eot);
        if (quiet < 0)
            goto done;
        if (quiet)
            goto not_ours;
        int after = (buf[pos + 4] << 8) | buf[pos + 5];
        if (after != M_CURNAME && after != M_BIND && after != M_OPEN)
            goto not_ours;
        long number = (buf[pos + 2] << 8) | buf[pos + 3];
        PyObject *key = PyLong_FromLong(number);
        if (key == NULL)
            goto done;
        PyObject *groups = PyObject_GetAttr(s, s_groups);
        if (groups == NULL) {
            Py_DECREF(key);
            goto done;
        }
        tmpl = PyDict_Check(groups) ? PyDict_GetItemWithError(groups, key) : NULL;
        Py_XINCREF(tmpl);
        Py_DECREF(groups);
        if (tmpl == NULL) {
            Py_DECREF(key);
            if (PyErr_Occurred())
                goto done;
            goto not_ours;
        }
        if (!PyTuple_Check(tmpl) || PyTuple_GET_SIZE(tmpl) != 5
            || !PyBytes_Check(PyTuple_GET_ITEM(tmpl, 0))
            || !PyBytes_Check(PyTuple_GET_ITEM(tmpl, 1))) {
            Py_DECREF(key);
            goto not_ours;
        }
        PyObject *head = PyTuple_GET_ITEM(tmpl, 0), *tail = PyTuple_GET_ITEM(tmpl, 1),
                 *name = PyTuple_GET_ITEM(tmpl, 2);
        Py_ssize_t size = PyLong_AsSsize_t(PyTuple_GET_ITEM(tmpl, 3));
        long nparams = PyLong_AsLong(PyTuple_GET_ITEM(tmpl, 4));
        if (PyErr_Occurred()) {
            Py_DECREF(key);
            goto done;
        }
        /* (as _query_group: a group without BIND matches as a whole) */
        if (!matches(buf, pos, end, head)
            || (nparams < 0 && !matches(buf, pos + PyBytes_GET_SIZE(head), end, tail))) {
            Py_DECREF(key);
            goto not_ours;
        }
        at = pos + PyBytes_GET_SIZE(head);
        if (nparams >= 0) {
            PyObject *enc = PyObject_GetAttr(s, s_encoding);
            if (enc == NULL) {
                Py_DECREF(key);
                goto done;
            }
            plain = PyObject_CallFunction(decode_bind_plain, "OnnlO", bufobj, at, end,
                                          nparams, enc);
            Py_DECREF(enc);
            if (plain == NULL) {
                Py_DECREF(key);
                goto done;
            }
            if (plain == Py_None || !PyTuple_Check(plain) || PyTuple_GET_SIZE(plain) != 2) {
                Py_DECREF(key);
                goto not_ours;
            }
            values = PyTuple_GET_ITEM(plain, 0);
            Py_INCREF(values);
            at = PyLong_AsSsize_t(PyTuple_GET_ITEM(plain, 1));
            if (at < 0 && PyErr_Occurred()) {
                Py_DECREF(key);
                goto done;
            }
            /* (the buffer did not move: decode_bind_plain only reads it) */
            buf = (const unsigned char *)PyByteArray_AS_STRING(bufobj);
            if (!matches(buf, at, end, tail)) {
                Py_DECREF(key);
                goto not_ours;
            }
        }
        PyObject *statements = PyObject_GetAttr(s, s_statements);
        if (statements == NULL) {
            Py_DECREF(key);
            goto done;
        }
        st = PyDict_Check(statements) ? PyDict_GetItemWithError(statements, key) : NULL;
        Py_XINCREF(st);
        Py_DECREF(statements);
        if (st == NULL) {
            Py_DECREF(key);
            if (PyErr_Occurred())
                goto done;
            goto not_ours;
        }
        engine = PyObject_GetAttr(s, s_engine);
        if (engine == NULL) {
            Py_DECREF(key);
            goto done;
        }
        if (engine == Py_None) {
            Py_DECREF(key);
            goto not_ours;
        }
        /* The plain cursor's conditions (_query_group's test), before anything changes. */
        encode = PyObject_GetAttr(st, s_encoder);
        if (encode == NULL) {
            Py_DECREF(key);
            goto done;
        }
        if (encode == Py_None || _PyObject_LookupAttr(encode, s_write, &write) <= 0) {
            Py_DECREF(key);
            if (PyErr_Occurred())
                goto done;
            goto not_ours; /* the pure writer: _query_group's own loop */
        }
        p = PyObject_GetAttr(st, s_prepared);
        if (p == NULL) {
            Py_DECREF(key);
            goto done;
        }
        int t;
#define REQUIRE(expr)                                                                          \
    do {                                                                                       \
        t = (expr);                                                                            \
        if (t < 0) {                                                                           \
            Py_DECREF(key);                                                                    \
            goto done;                                                                         \
        }                                                                                      \
        if (!t) {                                                                              \
            Py_DECREF(key);                                                                    \
            goto not_ours;                                                                     \
        }                                                                                      \
    } while (0)
        REQUIRE(attr_false(st, s_scroll));
        REQUIRE(attr_none(st, s_rows));
        REQUIRE(attr_none(st, s_blob_rows));
        if (values == NULL)
            REQUIRE(attr_none(st, s_upload));
        REQUIRE(attr_none(st, s_materialized));
        REQUIRE(attr_false(p, s_for_update));
        REQUIRE(attr_true(p, s_is_query));
        {
            PyObject *plan = PyObject_GetAttr(p, s_plan);
            if (plan == NULL) {
                Py_DECREF(key);
                goto done;
            }
            int cr = attr_true(plan, s_current_rowid);
            Py_DECREF(plan);
            REQUIRE(cr < 0 ? -1 : !cr);
        }
        {
            /* BYTE/TEXT values of this statement to retire: _query_group does that. */
            PyObject *blobs = PyObject_GetAttr(s, s_blobs);
            if (blobs == NULL) {
                Py_DECREF(key);
                goto done;
            }
            PyObject *handles = PyObject_GetAttr(blobs, s_handles);
            Py_DECREF(blobs);
            if (handles == NULL) {
                Py_DECREF(key);
                goto done;
            }
            int has = PySequence_Contains(handles, key);
            Py_DECREF(handles);
            REQUIRE(has < 0 ? -1 : !has);
        }
#undef REQUIRE
        if (values == NULL) {
            params = PyObject_GetAttr(st, s_params);
            if (params == NULL) {
                Py_DECREF(key);
                goto done;
            }
            if (params == released) {
                Py_DECREF(key);
                goto not_ours; /* -254: _query_group's check_bound */
            }
        }
        else {
            params = values;
            Py_INCREF(params);
        }

        /* From here on the group is ours: _query_group's steps, in its order. */
        if (PyObject_SetAttr(s, s_current, key) < 0) {
            Py_DECREF(key);
            goto done;
        }
        Py_DECREF(key);
        if (PyObject_SetAttr(st, s_cursor_name, name) < 0)
            goto done;
        if (values != NULL) {
            if (PyObject_SetAttr(st, s_params, values) < 0
                || PyObject_SetAttr(st, s_upload, Py_None) < 0)
                goto done;
        }
        out = ((PyTypeObject *)writer_type)->tp_new((PyTypeObject *)writer_type, empty_tuple,
                                                    NULL);
        if (out == NULL)
            goto done;
        outbuf = PyByteArray_FromStringAndSize(NULL, 0);
        if (outbuf == NULL || PyObject_SetAttr(out, s_buf, outbuf) < 0)
            goto done;
        if (PyObject_SetAttr(s, s_current_out, out) < 0)
            goto done;
        PyObject *opened = PyObject_CallMethodObjArgs(engine, s_open_cursor, p, params, NULL);
        if (opened != NULL) {
            rows = PyObject_GetIter(opened);
            Py_DECREF(opened);
        }
        int nonempty = 0;
        if (rows != NULL) {
            nonempty = PyObject_IsTrue(params);
            if (nonempty > 0) {
                PyObject *r = PyObject_CallOneArg(after_run_fn, st);
                if (r == NULL)
                    Py_CLEAR(rows);
                Py_XDECREF(r);
            }
            else if (nonempty < 0) {
                Py_CLEAR(rows);
            }
        }
        if (rows == NULL) {
            if (one_step_error(s, st, out, 0) < 0)
                goto done;
        }
        else if (PyObject_SetAttr(st, s_current_rowid, Py_None) < 0
                 || PyObject_SetAttr(st, s_exhausted, Py_False) < 0
                 || PyObject_SetAttr(st, s_rows, rows) < 0) {
            goto done;
        }
        else {
            Py_ssize_t budget = size < fetch_min ? fetch_min : size;
            if (budget > fetch_max)
                budget = fetch_max;
            PyObject *b = PyLong_FromSsize_t(budget);
            if (b == NULL)
                goto done;
            res = PyObject_CallFunctionObjArgs(write, outbuf, rows, b, NULL);
            Py_DECREF(b);
            if (res == NULL) {
                if (one_step_error(s, st, out, 1) < 0)
                    goto done;
            }
            else {
                if (!PyTuple_Check(res) || PyTuple_GET_SIZE(res) != 3) {
                    PyErr_SetString(PyExc_TypeError, "write must return a 3-tuple");
                    goto done;
                }
                PyObject *count = PyTuple_GET_ITEM(res, 0);
                if (PyObject_SetAttr(st, s_fetched, count) < 0)
                    goto done;
                int exhausted = PyObject_IsTrue(PyTuple_GET_ITEM(res, 2));
                if (exhausted < 0)
                    goto done;
                if (exhausted) {
                    if (PyObject_SetAttr(st, s_exhausted, Py_True) < 0
                        || PyObject_SetAttr(st, s_rows, Py_None) < 0)
                        goto done;
                    int optofc = attr_true(s, s_optofc);
                    if (optofc < 0)
                        goto done;
                    PyObject *k = optofc ? PyNumber_Invert(count) : Py_NewRef(count);
                    if (k == NULL)
                        goto done;
                    PyObject *tails = PyObject_GetAttr(s, s_tails);
                    PyObject *done_bytes = NULL;
                    if (tails != NULL && PyDict_Check(tails)) {
                        done_bytes = PyDict_GetItemWithError(tails, k);
                        Py_XINCREF(done_bytes);
                    }
                    Py_XDECREF(tails);
                    Py_DECREF(k);
                    if (done_bytes == NULL) {
                        if (PyErr_Occurred())
                            goto done;
                        done_bytes = PyObject_CallMethodOneArg(s, s_done_cost, count);
                        if (done_bytes == NULL)
                            goto done;
                    }
                    PyObject *joined = PySequence_InPlaceConcat(outbuf, done_bytes);
                    Py_DECREF(done_bytes);
                    if (joined == NULL)
                        goto done;
                    Py_DECREF(joined);
                }
            }
        }
        /* The reply: out.buf (the error path may have put an error in it) + EOT, queued. */
        PyObject *start = PyLong_FromSsize_t(at + PyBytes_GET_SIZE(tail));
        if (start == NULL || PyObject_SetAttr(s, s_start, start) < 0) {
            Py_XDECREF(start);
            goto done;
        }
        Py_DECREF(start);
        PyObject *reply = PyObject_GetAttr(out, s_buf);
        if (reply == NULL)
            goto done;
        if (!PyByteArray_Check(reply)) {
            Py_DECREF(reply);
            PyErr_SetString(PyExc_TypeError, "the reply must be a bytearray");
            goto done;
        }
        static const char eot[2] = {0, M_EOT};
        if (PyByteArray_Resize(reply, PyByteArray_GET_SIZE(reply) + 2) < 0) {
            Py_DECREF(reply);
            goto done;
        }
        memcpy(PyByteArray_AS_STRING(reply) + PyByteArray_GET_SIZE(reply) - 2, eot, 2);
        PyObject *server = PyObject_GetAttr(s, s_server);
        if (server == NULL || add_one(server, s_request_groups) < 0
            || add_one(server, s_one_step_groups) < 0) {
            Py_XDECREF(server);
            Py_DECREF(reply);
            goto done;
        }
        Py_DECREF(server);
        pending = PyObject_GetAttr(s, s_pending);
        if (pending == NULL || !PyByteArray_Check(pending)) {
            Py_DECREF(reply);
            if (pending != NULL)
                PyErr_SetString(PyExc_TypeError, "session.pending must be a bytearray");
            goto done;
        }
        Py_ssize_t had = PyByteArray_GET_SIZE(pending), n = PyByteArray_GET_SIZE(reply);
        if (PyByteArray_Resize(pending, had + n) < 0) {
            Py_DECREF(reply);
            goto done;
        }
        memcpy(PyByteArray_AS_STRING(pending) + had, PyByteArray_AS_STRING(reply), (size_t)n);
        Py_DECREF(reply);
        if (had + n >= flush_bytes) {
            PyObject *r = PyObject_CallMethodNoArgs(s, s_flush);
            if (r == NULL)
                goto done;
            Py_DECREF(r);
        }
        result = Py_NewRef(Py_True);
        goto done;
    }
not_ours:
    result = Py_NewRef(Py_False);
done:
    Py_XDECREF(bufobj);
    Py_XDECREF(tmpl);
    Py_XDECREF(values);
    Py_XDECREF(plain);
    Py_XDECREF(st);
    Py_XDECREF(engine);
    Py_XDECREF(encode);
    Py_XDECREF(write);
    Py_XDECREF(p);
    Py_XDECREF(params);
    Py_XDECREF(out);
    Py_XDECREF(outbuf);
    Py_XDECREF(rows);
    Py_XDECREF(res);
    Py_XDECREF(pending);
    return result;
}

static PyObject *message_codes(PyObject *module, PyObject *unused)
{
    return Py_BuildValue("(iiiii)", M_ID, M_CURNAME, M_BIND, M_OPEN, M_EOT);
}

static PyMethodDef module_methods[] = {
    {"message_codes", message_codes, METH_NOARGS,
     "The message codes compiled in: (ID, CURNAME, BIND, OPEN, EOT)."},
    {"configure", configure, METH_VARARGS, "The Python objects serve uses (see the source)."},
    {"serve", serve, METH_O, "Serve a cached query's group in one call (see the source)."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef groupstep_module = {
    PyModuleDef_HEAD_INIT, "ifxwire._groupstep",
    "A cached query's request group served in one compiled call (see the C source).", -1,
    module_methods};

#define INTERN(var, text)                                                                      \
    if ((var = PyUnicode_InternFromString(text)) == NULL)                                      \
        return NULL;

PyMODINIT_FUNC PyInit__groupstep(void)
{
    INTERN(s_buf, "buf");
    INTERN(s_start, "start");
    INTERN(s_end, "end");
    INTERN(s_quiet_eot, "_quiet_eot");
    INTERN(s_groups, "_groups");
    INTERN(s_statements, "statements");
    INTERN(s_engine, "engine");
    INTERN(s_encoding, "encoding");
    INTERN(s_current, "current");
    INTERN(s_cursor_name, "cursor_name");
    INTERN(s_params, "params");
    INTERN(s_upload, "upload");
    INTERN(s_current_out, "current_out");
    INTERN(s_prepared, "prepared");
    INTERN(s_encoder, "encoder");
    INTERN(s_write, "write");
    INTERN(s_scroll, "scroll");
    INTERN(s_rows, "rows");
    INTERN(s_blob_rows, "blob_rows");
    INTERN(s_materialized, "materialized");
    INTERN(s_for_update, "for_update");
    INTERN(s_is_query, "is_query");
    INTERN(s_plan, "plan");
    INTERN(s_current_rowid, "current_rowid");
    INTERN(s_blobs, "blobs");
    INTERN(s_handles, "_handles");
    INTERN(s_open_cursor, "open_cursor");
    INTERN(s_exhausted, "exhausted");
    INTERN(s_fetched, "fetched");
    INTERN(s_optofc, "optofc");
    INTERN(s_tails, "_tails");
    INTERN(s_done_cost, "_done_cost");
    INTERN(s_pending, "pending");
    INTERN(s_flush, "_flush");
    INTERN(s_server, "server");
    INTERN(s_request_groups, "request_groups");
    INTERN(s_one_step_groups, "one_step_groups");
    INTERN(s_one_step_error, "_one_step_error");
    if ((one = PyLong_FromLong(1)) == NULL)
        return NULL;
    if ((empty_tuple = PyTuple_New(0)) == NULL)
        return NULL;
    return PyModule_Create(&groupstep_module);
}
