/* ifxwire._speedups, part "replies": executemany's DONE replies: scan_done_replies. Included once,
 * in order, by _speedups.c (one translation unit, so gcc inlines across the parts as it did in one
 * file): not a header of its own. */

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

