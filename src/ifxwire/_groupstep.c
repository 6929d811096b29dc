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
 *           flush_bytes, statement_type)
 *   the Python objects and constants serve uses (server/onestep.py calls it at import).
 *   statement_type (server/statements.py Statement, a slots dataclass) and writer_type have
 *   their fields read and written at their slots (see *Fields, not attributes* below).
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
#include <structmember.h>

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

/* ``bytes`` equals buf[at:at+len(bytes)] within end. */
static int matches(const unsigned char *buf, Py_ssize_t at, Py_ssize_t end, PyObject *bytes)
{
    Py_ssize_t n = PyBytes_GET_SIZE(bytes);
    return end - at >= n && memcmp(buf + at, PyBytes_AS_STRING(bytes), (size_t)n) == 0;
}

/* Fields, not attributes (issue 26, twelfth round). PyObject_GetAttr/SetAttr cost 200-1000
 * instructions each here (the type's attribute cache, then the instance dict), ~30 of them a
 * group. So:
 * - a slot of an exact type (Statement, a slots dataclass; Writer) is read and written at its
 *   member's offset, found once by configure();
 * - an attribute of the session, the server, a Prepared, its Plan and the BlobStore (plain
 *   classes) is read from and written to the instance's __dict__ directly, once that type is
 *   seen to have no data descriptor (property, slot) of any name used here: the dict is then
 *   exactly what PyObject_GetAttr would read first. The check is made again whenever the
 *   type's version tag changes (a class attribute set or deleted), and anything else (another
 *   type, a name missing from the dict) takes the generic call, so behaviour is unchanged. */
typedef struct {
    PyTypeObject *type; /* borrowed: kept alive by the instances seen (checked per call) */
    unsigned int tag;
} Verified;

static Verified v_session, v_server, v_prepared, v_plan, v_blobs;
static PyObject **dict_names; /* the NULL-terminated names checked against each type */

/* The instance dict of ``o`` to use in place of its attributes (new reference), or NULL with
 * no error when the generic calls must be used; NULL with an error on failure. */
static PyObject *plain_dict(PyObject *o, Verified *v)
{
    PyTypeObject *t = Py_TYPE(o);
    if (t != v->type || t->tp_version_tag != v->tag || v->tag == 0) {
        v->type = NULL;
        if (t->tp_dictoffset == 0)
            return NULL;
        for (PyObject **n = dict_names; *n != NULL; n++) {
            PyObject *a = _PyType_Lookup(t, *n);
            if (a != NULL && Py_TYPE(a)->tp_descr_set != NULL)
                return NULL;
        }
        /* (the lookups gave the type its version tag, unless it cannot have one) */
        if (!PyType_HasFeature(t, Py_TPFLAGS_VALID_VERSION_TAG) || t->tp_version_tag == 0)
            return NULL;
        v->type = t;
        v->tag = t->tp_version_tag;
    }
    return PyObject_GenericGetDict(o, NULL);
}

/* o.name through its dict when d is not NULL (new reference). */
static PyObject *dget(PyObject *d, PyObject *o, PyObject *name)
{
    if (d != NULL) {
        PyObject *v = PyDict_GetItemWithError(d, name);
        if (v != NULL)
            return Py_NewRef(v);
        if (PyErr_Occurred())
            return NULL;
    }
    return PyObject_GetAttr(o, name);
}

static int dset(PyObject *d, PyObject *o, PyObject *name, PyObject *v)
{
    return d != NULL ? PyDict_SetItem(d, name, v) : PyObject_SetAttr(o, name, v);
}

/* o.name += 1, through o's dict when d is not NULL (the server's counters). */
static int add_one(PyObject *d, PyObject *o, PyObject *name)
{
    PyObject *v = dget(d, o, name);
    if (v == NULL)
        return -1;
    PyObject *w = PyNumber_Add(v, one);
    Py_DECREF(v);
    if (w == NULL)
        return -1;
    int rc = dset(d, o, name, w);
    Py_DECREF(w);
    return rc;
}

/* A true attribute (1), a false one (0), or an error (-1), through the dict. */
static int dtrue(PyObject *d, PyObject *o, PyObject *name)
{
    PyObject *v = dget(d, o, name);
    if (v == NULL)
        return -1;
    int t = PyObject_IsTrue(v);
    Py_DECREF(v);
    return t;
}

/* Statement's fields, by their slot offsets (configure). */
enum { F_PREPARED, F_PARAMS, F_CURSOR_NAME, F_ROWS, F_ENCODER, F_FETCHED, F_EXHAUSTED,
       F_SCROLL, F_MATERIALIZED, F_BLOB_ROWS, F_UPLOAD, F_CURRENT_ROWID, F_COUNT };
static PyObject *st_names[F_COUNT];
static Py_ssize_t st_offsets[F_COUNT];
static PyObject *statement_type; /* NULL: Statement has no such slots (generic calls) */
static Py_ssize_t writer_buf_offset = -1;

#define SLOT(o, off) ((PyObject **)((char *)(o) + (off)))

/* st.<field> (new reference). */
static PyObject *st_get(PyObject *st, int f)
{
    if ((PyObject *)Py_TYPE(st) == statement_type) {
        PyObject *v = *SLOT(st, st_offsets[f]);
        if (v != NULL)
            return Py_NewRef(v);
    }
    return PyObject_GetAttr(st, st_names[f]);
}

static int st_set(PyObject *st, int f, PyObject *v)
{
    if ((PyObject *)Py_TYPE(st) == statement_type) {
        PyObject **slot = SLOT(st, st_offsets[f]);
        PyObject *old = *slot;
        *slot = Py_NewRef(v);
        Py_XDECREF(old);
        return 0;
    }
    return PyObject_SetAttr(st, st_names[f], v);
}

/* The slot offset of a T_OBJECT_EX member ``name`` of ``type``, or -1. */
static Py_ssize_t member_offset(PyObject *type, PyObject *name)
{
    PyObject *d = PyObject_GetAttr(type, name);
    if (d == NULL) {
        PyErr_Clear();
        return -1;
    }
    Py_ssize_t off = -1;
    if (Py_IS_TYPE(d, &PyMemberDescr_Type)) {
        PyMemberDef *m = ((PyMemberDescrObject *)d)->d_member;
        if (m->type == T_OBJECT_EX && !(m->flags & READONLY))
            off = m->offset;
    }
    Py_DECREF(d);
    return off;
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

static PyObject *configure(PyObject *module, PyObject *args)
{
    PyObject *d, *w, *r, *a, *stype;
    Py_ssize_t lo, hi, fl;
    if (!PyArg_ParseTuple(args, "OOOOnnnO", &d, &w, &r, &a, &lo, &hi, &fl, &stype))
        return NULL;
    if (!PyType_Check(w) || !PyType_Check(stype)) {
        PyErr_SetString(PyExc_TypeError, "writer_type and statement_type must be types");
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
    /* Statement's slots: every field read or written here, or none (the generic calls). */
    Py_CLEAR(statement_type);
    int all = 1;
    for (int f = 0; f < F_COUNT; f++) {
        st_offsets[f] = member_offset(stype, st_names[f]);
        all = all && st_offsets[f] >= 0;
    }
    if (all)
        statement_type = Py_NewRef(stype);
    writer_buf_offset = member_offset(w, s_buf);
    v_session.type = v_server.type = v_prepared.type = v_plan.type = v_blobs.type = NULL;
    Py_RETURN_NONE;
}

/* How serve reads the objects it is given (tests/unit/test_groupstep.py): whether
 * Statement's fields are read at their slots and the Writer's buf at its slot. */
static PyObject *fields(PyObject *module, PyObject *unused)
{
    return Py_BuildValue("(OO)", statement_type != NULL ? Py_True : Py_False,
                         writer_buf_offset >= 0 ? Py_True : Py_False);
}

static PyObject *serve(PyObject *module, PyObject *s)
{
    PyObject *result = NULL;
    PyObject *sd = NULL, *bufobj = NULL, *tmpl = NULL, *values = NULL, *plain = NULL,
             *st = NULL, *engine = NULL, *encode = NULL, *write = NULL, *p = NULL,
             *pd = NULL, *params = NULL, *out = NULL, *outbuf = NULL, *rows = NULL,
             *res = NULL, *pending = NULL, *key = NULL;
    Py_ssize_t pos, end, at;
    int t;
    if (decode_bind_plain == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "_groupstep.configure was not called");
        return NULL;
    }
    /* the session's dict (see plain_dict), or NULL: its attributes */
    sd = plain_dict(s, &v_session);
    if (sd == NULL && PyErr_Occurred())
        return NULL;
    bufobj = dget(sd, s, s_buf);
    if (bufobj == NULL)
        goto done;
    if (!PyByteArray_Check(bufobj)) {
        PyErr_SetString(PyExc_TypeError, "session.buf must be a bytearray");
        goto done;
    }
    {
        PyObject *v = dget(sd, s, s_start);
        if (v == NULL)
            goto done;
        pos = PyLong_AsSsize_t(v);
        Py_DECREF(v);
        if (pos < 0 && PyErr_Occurred())
            goto done;
        v = dget(sd, s, s_end);
        if (v == NULL)
            goto done;
        end = PyLong_AsSsize_t(v);
        Py_DECREF(v);
        if (end < 0 && PyErr_Occurred())
            goto done;
    }
    {
        const unsigned char *buf = (const unsigned char *)PyByteArray_AS_STRING(bufobj);
        if (end > PyByteArray_GET_SIZE(bufobj) || pos < 0 || end - pos < 10
            || ((buf[pos] << 8) | buf[pos + 1]) != M_ID)
            goto not_ours;
        int quiet = dtrue(sd, s, s_quiet_eot);
        if (quiet < 0)
            goto done;
        if (quiet)
            goto not_ours;
        int after = (buf[pos + 4] << 8) | buf[pos + 5];
        if (after != M_CURNAME && after != M_BIND && after != M_OPEN)
            goto not_ours;
        long number = (buf[pos + 2] << 8) | buf[pos + 3];
        key = PyLong_FromLong(number);
        if (key == NULL)
            goto done;
        PyObject *groups = dget(sd, s, s_groups);
        if (groups == NULL)
            goto done;
        tmpl = PyDict_Check(groups) ? PyDict_GetItemWithError(groups, key) : NULL;
        Py_XINCREF(tmpl);
        Py_DECREF(groups);
        if (tmpl == NULL) {
            if (PyErr_Occurred())
                goto done;
            goto not_ours;
        }
        if (!PyTuple_Check(tmpl) || PyTuple_GET_SIZE(tmpl) != 5
            || !PyBytes_Check(PyTuple_GET_ITEM(tmpl, 0))
            || !PyBytes_Check(PyTuple_GET_ITEM(tmpl, 1)))
            goto not_ours;
        PyObject *head = PyTuple_GET_ITEM(tmpl, 0), *tail = PyTuple_GET_ITEM(tmpl, 1),
                 *name = PyTuple_GET_ITEM(tmpl, 2);
        Py_ssize_t size = PyLong_AsSsize_t(PyTuple_GET_ITEM(tmpl, 3));
        long nparams = PyLong_AsLong(PyTuple_GET_ITEM(tmpl, 4));
        if (PyErr_Occurred())
            goto done;
        /* (as _query_group: a group without BIND matches as a whole) */
        if (!matches(buf, pos, end, head)
            || (nparams < 0 && !matches(buf, pos + PyBytes_GET_SIZE(head), end, tail)))
            goto not_ours;
        at = pos + PyBytes_GET_SIZE(head);
        if (nparams >= 0) {
            PyObject *enc = dget(sd, s, s_encoding);
            if (enc == NULL)
                goto done;
            plain = PyObject_CallFunction(decode_bind_plain, "OnnlO", bufobj, at, end,
                                          nparams, enc);
            Py_DECREF(enc);
            if (plain == NULL)
                goto done;
            if (plain == Py_None || !PyTuple_Check(plain) || PyTuple_GET_SIZE(plain) != 2)
                goto not_ours;
            values = PyTuple_GET_ITEM(plain, 0);
            Py_INCREF(values);
            at = PyLong_AsSsize_t(PyTuple_GET_ITEM(plain, 1));
            if (at < 0 && PyErr_Occurred())
                goto done;
            /* (the buffer did not move: decode_bind_plain only reads it) */
            buf = (const unsigned char *)PyByteArray_AS_STRING(bufobj);
            if (!matches(buf, at, end, tail))
                goto not_ours;
        }
        PyObject *statements = dget(sd, s, s_statements);
        if (statements == NULL)
            goto done;
        st = PyDict_Check(statements) ? PyDict_GetItemWithError(statements, key) : NULL;
        Py_XINCREF(st);
        Py_DECREF(statements);
        if (st == NULL) {
            if (PyErr_Occurred())
                goto done;
            goto not_ours;
        }
        engine = dget(sd, s, s_engine);
        if (engine == NULL)
            goto done;
        if (engine == Py_None)
            goto not_ours;
        /* The plain cursor's conditions (_query_group's test), before anything changes. */
        encode = st_get(st, F_ENCODER);
        if (encode == NULL)
            goto done;
        if (encode == Py_None || _PyObject_LookupAttr(encode, s_write, &write) <= 0) {
            if (PyErr_Occurred())
                goto done;
            goto not_ours; /* the pure writer: _query_group's own loop */
        }
        p = st_get(st, F_PREPARED);
        if (p == NULL)
            goto done;
        pd = plain_dict(p, &v_prepared);
        if (pd == NULL && PyErr_Occurred())
            goto done;
#define REQUIRE(expr)                                                                          \
    do {                                                                                       \
        t = (expr);                                                                            \
        if (t < 0)                                                                             \
            goto done;                                                                         \
        if (!t)                                                                                \
            goto not_ours;                                                                     \
    } while (0)
#define ST_IS(f, test)                                                                         \
    do {                                                                                       \
        PyObject *v_ = st_get(st, f);                                                          \
        if (v_ == NULL)                                                                        \
            goto done;                                                                         \
        t = (test);                                                                            \
        Py_DECREF(v_);                                                                         \
        REQUIRE(t);                                                                            \
    } while (0)
        ST_IS(F_SCROLL, PyObject_Not(v_));
        ST_IS(F_ROWS, v_ == Py_None);
        ST_IS(F_BLOB_ROWS, v_ == Py_None);
        if (values == NULL)
            ST_IS(F_UPLOAD, v_ == Py_None);
        ST_IS(F_MATERIALIZED, v_ == Py_None);
        {
            int fu = dtrue(pd, p, s_for_update);
            REQUIRE(fu < 0 ? -1 : !fu);
        }
        REQUIRE(dtrue(pd, p, s_is_query));
        {
            PyObject *plan = dget(pd, p, s_plan);
            if (plan == NULL)
                goto done;
            PyObject *plan_d = plain_dict(plan, &v_plan);
            int cr = plan_d == NULL && PyErr_Occurred() ? -1
                                                        : dtrue(plan_d, plan, s_current_rowid);
            Py_XDECREF(plan_d);
            Py_DECREF(plan);
            REQUIRE(cr < 0 ? -1 : !cr);
        }
        {
            /* BYTE/TEXT values of this statement to retire: _query_group does that. */
            PyObject *blobs = dget(sd, s, s_blobs);
            if (blobs == NULL)
                goto done;
            PyObject *blobs_d = plain_dict(blobs, &v_blobs);
            PyObject *handles = blobs_d == NULL && PyErr_Occurred()
                                    ? NULL
                                    : dget(blobs_d, blobs, s_handles);
            Py_XDECREF(blobs_d);
            Py_DECREF(blobs);
            if (handles == NULL)
                goto done;
            int has = PySequence_Contains(handles, key);
            Py_DECREF(handles);
            REQUIRE(has < 0 ? -1 : !has);
        }
#undef ST_IS
#undef REQUIRE
        if (values == NULL) {
            params = st_get(st, F_PARAMS);
            if (params == NULL)
                goto done;
            if (params == released)
                goto not_ours; /* -254: _query_group's check_bound */
        }
        else {
            params = values;
            Py_INCREF(params);
        }

        /* From here on the group is ours: _query_group's steps, in its order. */
        if (dset(sd, s, s_current, key) < 0)
            goto done;
        if (st_set(st, F_CURSOR_NAME, name) < 0)
            goto done;
        if (values != NULL) {
            if (st_set(st, F_PARAMS, values) < 0 || st_set(st, F_UPLOAD, Py_None) < 0)
                goto done;
        }
        out = ((PyTypeObject *)writer_type)->tp_new((PyTypeObject *)writer_type, empty_tuple,
                                                    NULL);
        if (out == NULL)
            goto done;
        outbuf = PyByteArray_FromStringAndSize(NULL, 0);
        if (outbuf == NULL)
            goto done;
        if (writer_buf_offset >= 0 && Py_TYPE(out) == (PyTypeObject *)writer_type) {
            PyObject **slot = SLOT(out, writer_buf_offset);
            Py_XSETREF(*slot, Py_NewRef(outbuf));
        }
        else if (PyObject_SetAttr(out, s_buf, outbuf) < 0)
            goto done;
        if (dset(sd, s, s_current_out, out) < 0)
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
        else if (st_set(st, F_CURRENT_ROWID, Py_None) < 0
                 || st_set(st, F_EXHAUSTED, Py_False) < 0 || st_set(st, F_ROWS, rows) < 0) {
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
                if (st_set(st, F_FETCHED, count) < 0)
                    goto done;
                int exhausted = PyObject_IsTrue(PyTuple_GET_ITEM(res, 2));
                if (exhausted < 0)
                    goto done;
                if (exhausted) {
                    if (st_set(st, F_EXHAUSTED, Py_True) < 0 || st_set(st, F_ROWS, Py_None) < 0)
                        goto done;
                    int optofc = dtrue(sd, s, s_optofc);
                    if (optofc < 0)
                        goto done;
                    PyObject *k = optofc ? PyNumber_Invert(count) : Py_NewRef(count);
                    if (k == NULL)
                        goto done;
                    PyObject *tails = dget(sd, s, s_tails);
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
        if (start == NULL || dset(sd, s, s_start, start) < 0) {
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
        PyObject *server = dget(sd, s, s_server);
        if (server == NULL) {
            Py_DECREF(reply);
            goto done;
        }
        PyObject *server_d = plain_dict(server, &v_server);
        if ((server_d == NULL && PyErr_Occurred())
            || add_one(server_d, server, s_request_groups) < 0
            || add_one(server_d, server, s_one_step_groups) < 0) {
            Py_XDECREF(server_d);
            Py_DECREF(server);
            Py_DECREF(reply);
            goto done;
        }
        Py_XDECREF(server_d);
        Py_DECREF(server);
        pending = dget(sd, s, s_pending);
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
    Py_XDECREF(sd);
    Py_XDECREF(key);
    Py_XDECREF(bufobj);
    Py_XDECREF(tmpl);
    Py_XDECREF(values);
    Py_XDECREF(plain);
    Py_XDECREF(st);
    Py_XDECREF(engine);
    Py_XDECREF(encode);
    Py_XDECREF(write);
    Py_XDECREF(p);
    Py_XDECREF(pd);
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
    {"fields", fields, METH_NOARGS, "(Statement read at its slots, Writer.buf at its slot)."},
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
    st_names[F_PREPARED] = s_prepared;
    st_names[F_PARAMS] = s_params;
    st_names[F_CURSOR_NAME] = s_cursor_name;
    st_names[F_ROWS] = s_rows;
    st_names[F_ENCODER] = s_encoder;
    st_names[F_FETCHED] = s_fetched;
    st_names[F_EXHAUSTED] = s_exhausted;
    st_names[F_SCROLL] = s_scroll;
    st_names[F_MATERIALIZED] = s_materialized;
    st_names[F_BLOB_ROWS] = s_blob_rows;
    st_names[F_UPLOAD] = s_upload;
    st_names[F_CURRENT_ROWID] = s_current_rowid;
    {
        /* every name read or written through an instance dict (plain_dict) */
        PyObject *names[] = {s_buf, s_start, s_end, s_quiet_eot, s_groups, s_statements,
                             s_engine, s_encoding, s_current, s_current_out, s_blobs,
                             s_optofc, s_tails, s_pending, s_server, s_for_update, s_is_query,
                             s_plan, s_current_rowid, s_handles, s_request_groups,
                             s_one_step_groups};
        size_t n = sizeof(names) / sizeof(names[0]);
        dict_names = PyMem_Calloc(n + 1, sizeof(PyObject *));
        if (dict_names == NULL)
            return PyErr_NoMemory();
        memcpy(dict_names, names, n * sizeof(PyObject *));
    }
    if ((one = PyLong_FromLong(1)) == NULL)
        return NULL;
    if ((empty_tuple = PyTuple_New(0)) == NULL)
        return NULL;
    return PyModule_Create(&groupstep_module);
}
