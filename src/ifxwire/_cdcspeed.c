/* ifxwire._cdcspeed: the per-event loops of change data capture, compiled (issue 27).
 *
 * Issue 27 asks ifxwire.cdc for twice the throughput of IBM's change-stream client on one
 * stream. With reads ahead, the stream runs at the pace of the slower of two loops: the
 * server rendering each captured change into a CDC record (server/engine/features/cdc/hub.py,
 * a generated Python function per table) and the client turning each record into an Event
 * (ifxwire/cdc.py Decoder._events). Both are here, in C, as optional twins of the Python
 * code, which stays complete and is the reference: whatever the C path does not take exactly
 * as the Python path would, it hands to the Python path, so the bytes and the events (and the
 * exceptions) are the same with and without this module (tests/unit/test_cdc_speed.py).
 *
 * make_renderer(pure, cols, user_data) -> Renderer
 *   pure: the generated Python renderer (recnum, values, seq, txid) -> record bytes.
 *   cols: one (kind, index, a, b, c, fn, variable) per captured column, in record order:
 *     index  the column's place in the stored row (values[index]);
 *     fn     value -> the column's bytes, exactly the pure renderer's step for that column
 *            (its loader then its encoder); used for every value the inline path does not
 *            take (NULL, a subclass, out of range, not encodable inline...);
 *     variable  1 when the column's size goes in the header (variable-length columns);
 *     kind R_CALL (0): fn always;
 *     kind R_INT (1): an exact int in [a, b] packed big-endian in c bytes (2, 4 or 8);
 *     kind R_VARCHAR (2): an exact str without NUL, encoded in code set c (1 Latin-1,
 *            2 UTF-8, 3 ASCII) to at most a bytes: a length byte and the bytes;
 *     kind R_DECIMAL (3): the server's stored text of a DECIMAL(p,s)/MONEY(p,s) that is not
 *            negative (numeric.stored_decimal_encoder's short way): a = s, b = p - s, c =
 *            the field's width.
 *   user_data: the table's label, written in every record's header.
 * renderer(recnum, values, seq, txid) -> bytes, as pure(...). Any argument the inline path
 *   cannot pack (not an int, out of range, a short row, fn returning other than bytes) makes
 *   it return pure(...) itself, which raises what the pure path raises.
 *
 * decode_data(buf, pos, shapes, kinds, event_type, utc) -> (events, ends)
 *   The client's loop over whole data records (CDC_REC_INSERT/DELETE/UPDBEF/UPDAFT, and the
 *   BEGINTX/COMMTX around them) of the
 *   bytearray ``buf`` from ``pos``: headers read here, the row by the table's decoder (the
 *   accelerator's tuple decoder or the Python one), the Row and the Event made here. It stops
 *   at the first record it does not take exactly as Decoder._events would (any other record,
 *   a cut record, a malformed header, an unknown table, a decoder that raises an Exception):
 *   Decoder._events handles that one itself, then calls again. ``shapes``: label -> (whole,
 *   at, row class, table name), ``whole`` the (buf, start, size) tuple decoder or None, then
 *   ``at(buf, start, size, sizes)``; ``kinds``: the EventKinds of records 40..43, then of
 *   BEGINTX and COMMTX, which it takes too (``utc``: seconds -> their datetime, as the Python
 *   loop makes it); ``event_type``: ifxwire.cdc.Event. ``ends[i]``: the offset past
 *   events[i]'s record.
 *
 * parse_changes(body, change_type): the server's change log's JSON bodies (below).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Source layout: one translation unit, this file including its parts in order (a part uses
 * what the parts before it define). One job each:
 *   _cdcspeed_renderer.h: the server's record renderer (Renderer, make_renderer)
 *   _cdcspeed_records.h: the client's loop over data records (decode_data)
 *   _cdcspeed_changes.h: the change log's JSON bodies (parse_changes)
 * This file keeps the module's method table and PyInit__cdcspeed. */
#include "_cdcspeed_renderer.h"
#include "_cdcspeed_records.h"
#include "_cdcspeed_changes.h"

static PyMethodDef module_methods[] = {
    {"make_renderer", make_renderer, METH_VARARGS,
     "make_renderer(pure, cols, user_data) -> a CDC record renderer (see the source)."},
    {"decode_data", decode_data, METH_VARARGS,
     "decode_data(buf, pos, shapes, kinds, event_type, utc) -> (events, ends) (see the "
     "source)."},
    {"parse_changes", parse_changes, METH_VARARGS,
     "parse_changes(body, change_type) -> changes or None (see the source)."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef cdcspeed_module = {
    PyModuleDef_HEAD_INIT, "ifxwire._cdcspeed",
    "Change data capture's per-event loops, compiled (see the C source's opening comment).",
    -1, module_methods};

PyMODINIT_FUNC PyInit__cdcspeed(void)
{
    if (PyType_Ready(&Renderer_Type) < 0)
        return NULL;
    return PyModule_Create(&cdcspeed_module);
}
