/* ifxwire._tuplewriter: the server's SQ_TUPLE encoder, compiled (issue 26, Speed).
 *
 * ifxwire-server spent about 3.3 us of Python per row building SQ_TUPLE messages
 * (types/rowcodec.py build_row_encoder: one closure call per cell, a join, then put_tuple's
 * three packs and the pad). This module does the same from SQLite's rows in C, and it can also
 * drive the row iterator itself, so a fetch reply costs no Python call per row beyond the
 * iterator's own (the engine's generator over sqlite3's fetchmany).
 *
 * make_tuple_writer(plan, enc_kind, pure) -> TupleWriter
 *   plan: one (kind, fn, arg, null) per column, computed in Python (ifxwire.server.tuples):
 *     kind  one of the K_* below; K_CALL for every type encoded only in Python;
 *     fn    the column's Python encoder (value -> field bytes), the reference: any value the
 *           inline path does not take exactly as the pure path would (a subclass, an int out
 *           of range, a string that does not fit or does not encode...) goes to fn;
 *     arg   VARCHAR: the byte limit; CHAR: the width; LVARCHAR: the limit or -1; DATE: the
 *           ordinal of the epoch day (1899-12-31); others 0;
 *     null  the field's NULL bytes (fn(None)), or None for K_CALL.
 *   enc_kind: 1 Latin-1, 2 UTF-8, 3 ASCII, 0 any other code set (text goes to fn then).
 *   pure: the pure row encoder (values -> payload). When fn raises, or returns other than
 *     bytes, the row is encoded again by ``pure``, which raises the exact exception, with the
 *     column's name in its message, that the pure path raises (or returns the payload).
 *
 * writer(row) -> bytes: the payload of one row (no SQ_TUPLE header), as ``pure(row)``.
 * writer.write(buf, rows, budget) -> (count, sent, exhausted): appends SQ_TUPLE messages
 *   (u16 14, i16 0, i32 length, payload, a pad byte when the length is odd) to the bytearray
 *   ``buf`` for rows taken from the iterator ``rows`` until ``sent`` (payload + 8 per row, as
 *   server/session.py counts) reaches ``budget`` or the iterator ends (exhausted is True then).
 *   An exception from the iterator or from ``pure`` propagates; the messages of the rows
 *   before it stay in ``buf``, as with the pure loop.
 *
 * load_rows(batch, plan): the engine's value loaders over a batch of SQLite rows (below);
 *   load_planned(plan, batch) the same, for functools.partial.
 * decode_bind_row(buf, pos, end, plan, encoding): one executemany row's SQ_BIND items of known
 *   headers (server/bindrun.py; below).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <datetime.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Source layout: one translation unit, this file including its parts in order (a part uses
 * what the parts before it define). One job each:
 *   _tuplewriter_common.h: column kinds, Col and TupleWriter, the output buffer, big-endian
 *     writers, date ordinals, a str's bytes in the code set
 *   _tuplewriter_fields.h: one value's field (DATETIME, DECIMAL/MONEY, put_field)
 *   _tuplewriter_writer.h: rows into SQ_TUPLE messages (encode_row, write, TupleWriter,
 *     make_tuple_writer)
 *   _tuplewriter_loaders.h: the engine's loaders over SQLite rows (load_rows, load_planned)
 *   _tuplewriter_bind.h: one executemany row's SQ_BIND items (decode_bind_row)
 * This file keeps the module's method table and PyInit__tuplewriter. */
#include "_tuplewriter_common.h"
#include "_tuplewriter_fields.h"
#include "_tuplewriter_writer.h"
#include "_tuplewriter_loaders.h"
#include "_tuplewriter_bind.h"

static PyMethodDef module_methods[] = {
    {"make_tuple_writer", make_tuple_writer, METH_VARARGS,
     "make_tuple_writer(plan, enc_kind, pure) -> TupleWriter"},
    {"load_rows", (PyCFunction)(void (*)(void))load_rows, METH_FASTCALL,
     "load_rows(batch, plan) -> list | None: the engine's loaders over SQLite rows"},
    {"load_planned", (PyCFunction)(void (*)(void))load_planned, METH_FASTCALL,
     "load_planned(plan, batch): load_rows(batch, plan), for functools.partial(plan)"},
    {"decode_bind_row", (PyCFunction)(void (*)(void))decode_bind_row, METH_FASTCALL,
     "decode_bind_row(buf, pos, end, plan, encoding) -> (values, end) | None: one row"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef tuplewriter_module = {
    PyModuleDef_HEAD_INIT, "ifxwire._tuplewriter",
    "The server's compiled SQ_TUPLE encoder (see the C source's opening comment).", -1,
    module_methods};

PyMODINIT_FUNC PyInit__tuplewriter(void)
{
    PyDateTime_IMPORT;
    if (PyDateTimeAPI == NULL)
        return NULL;
    if (Decimal_Type == NULL) {
        PyObject *decimal = PyImport_ImportModule("decimal");
        if (decimal == NULL)
            return NULL;
        Decimal_Type = PyObject_GetAttrString(decimal, "Decimal");
        Py_DECREF(decimal);
        if (Decimal_Type == NULL)
            return NULL;
    }
    if (PyType_Ready(&TupleWriter_Type) < 0)
        return NULL;
    return PyModule_Create(&tuplewriter_module);
}
