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
 *
 * Source layout: one translation unit, this file including its parts in order (a part
 * uses what the parts before it define). One job each:
 *   _speedups_common.h: the includes, the column kinds and code sets, ColPlan and RowDecoder,
 *     forced inlining and the big-endian readers: what every other part uses
 *   _speedups_cells.h: the cell codecs the row decoder inlines: DATE's civil date, CHAR/VARCHAR
 *     text in the code set, DECIMAL/MONEY, the pure fallback, collections of integers
 *     (complex_fast)
 *   _speedups_rows.h: one row: decode_row_into (every column kind), the reply buffer (BufRef)
 *     and RowDecoder's call decoder(buf, offset, size) -> tuple
 *   _speedups_dictmaker.h: dict_row's dicts made by copying a template (DictMaker), and the
 *     template kept between calls
 *   _speedups_runs.h: the SQ_TUPLE loop: RowDecoder.decode_tuples and decode_dicts
 *   _speedups_rowtype.h: the RowDecoder type (GC, getters, repr) and make_row_decoder, its
 *     constructor from the plan ifxwire._accel computes
 *   _speedups_bind.h: the SQ_BIND encoder: BindEncoder, make_bind_encoder
 *   _speedups_replies.h: executemany's DONE replies: scan_done_replies
 *   _speedups_factories.h: row factories' batch makers: make_dicts, make_tuples
 */

#include "_speedups_common.h"
#include "_speedups_cells.h"
#include "_speedups_rows.h"
#include "_speedups_dictmaker.h"
#include "_speedups_runs.h"
#include "_speedups_rowtype.h"
#include "_speedups_bind.h"
#include "_speedups_replies.h"
#include "_speedups_factories.h"

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
