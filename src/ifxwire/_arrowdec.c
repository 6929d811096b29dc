/* ifxwire._arrowdec: SQ_TUPLE payloads straight into Arrow column buffers (docs/ARROW.md).
 *
 * A separate optional extension (setup.py), so that the Arrow decoder neither needs nor touches
 * the row decoder in _speedups.c. Two functions:
 *
 *   tuple_run(buf, pos, end) -> (pos, count)
 *       the run of complete SQ_TUPLE messages (u16 14, u16 0, i32 size, payload, pad to even)
 *       from ``pos``: where it ends and how many tuples it holds. Stops before anything else
 *       (another message, an incomplete tuple, a negative size), which the reply loop handles.
 *
 *   decode(run, count, plan, enc_kind, keep_char_padding) -> list | None
 *       decodes the ``count`` tuples of ``run`` (whole messages, headers included; or a list
 *       of such buffers, read in turn as one: no copy to join them) column by column.
 *       ``plan`` holds one (kind, width, arg) per column (A_LIST: and its type table). The result has one item per
 *       column, (null_count, validity bytes or None, data bytes, offsets bytes or None), the
 *       buffers of an Arrow array of the column's type (little-endian, as Arrow wants); kind
 *       A_RAW gives, instead of values, the (offset, size) of each value in ``run`` as int64
 *       pairs, for Python to decode with the driver's own codec.
 *
 *       None means "not decoded here": a framing that does not reconcile, bytes that do not
 *       decode in the code set, a BOOLEAN byte, DATE, DATETIME or DECIMAL the row decoder
 *       would refuse or that the Arrow type cannot hold. The caller then decodes the run with
 *       the row decoder, which gives the exact values or raises the exact error fetchall
 *       raises: rows decoded here are only rows the row path accepts, with the same values.
 *
 *   Columns(plan, enc_kind, keep): the same decoding fed run by run (``feed``) where the runs
 *       lie in the receive buffer, and ``pump``: the columnar fetch's receive loop (recv(2)
 *       into the connection's buffer, feed, again) until something the reply parser must
 *       read is next. ``take``: the decoded buffers handed over as read-only ``Block``s (no
 *       copy into bytes; the Columns is then spent). In _arrowdec_stream.h, after the column
 *       state and decode_rows it uses (the source layout is below).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <locale.h>
#ifndef _WIN32
#include <errno.h>
#include <poll.h>
#include <sys/socket.h>
#endif

/* Source layout: one translation unit, this file including its parts in order (a part uses
 * what the parts before it define). One job each:
 *   _arrowdec_common.h: column kinds, big-endian readers, the SSE2 swap, the C locale's
 *     strtod, civil dates, BufRef and tuple_run
 *   _arrowdec_values.h: Col, and values by type family (text, DECIMAL, DATETIME)
 *   _arrowdec_columns.h: the column builders (sizes, type-table words, plan, reserve, free,
 *     result)
 *   _arrowdec_elements.h: collections' elements (SET's sort, the text form's numbers)
 *   _arrowdec_rows.h: the decoding loop (decode_rows) and decode()
 *   _arrowdec_stream.h: the Columns object (feed, pump, take and its Blocks)
 *   _arrowdec_textvalue.h: text_value, a numeric collection's text form
 * This file keeps the module's method table and PyInit__arrowdec. */
#include "_arrowdec_common.h"
#include "_arrowdec_values.h"
#include "_arrowdec_columns.h"
#include "_arrowdec_elements.h"
#include "_arrowdec_rows.h"
#include "_arrowdec_stream.h"
#include "_arrowdec_textvalue.h"

static PyMethodDef module_methods[] = {
    {"tuple_run", (PyCFunction)(void (*)(void))tuple_run, METH_FASTCALL,
     "tuple_run(buffer, pos, end) -> (pos, count): the run of complete SQ_TUPLE messages"},
    {"text_value", (PyCFunction)(void (*)(void))text_value, METH_FASTCALL,
     "text_value(buf, off, opener, ek, cls, etext) -> (value, end): a numeric collection's "
     "text form, or (NotImplemented, off)"},
    {"decode", (PyCFunction)(void (*)(void))decode, METH_FASTCALL,
     "decode(run, count, plan, enc_kind, keep) -> [(nulls, validity, data, offsets)] or None"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef arrowdec_module = {
    PyModuleDef_HEAD_INIT, "ifxwire._arrowdec",
    "SQ_TUPLE payloads straight into Arrow column buffers (see docs/ARROW.md).", -1,
    module_methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__arrowdec(void)
{
    if (PyType_Ready(&ColumnsType) < 0 || PyType_Ready(&BlockType) < 0)
        return NULL;
#if defined(__GLIBC__)
    if (c_numeric == (locale_t)0)
        c_numeric = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
#endif
    if (str_element_type == NULL && (str_element_type = PyUnicode_InternFromString("element_type")) == NULL)
        return NULL;
    PyObject *m = PyModule_Create(&arrowdec_module);
    if (m == NULL)
        return NULL;
    if (PyModule_AddObjectRef(m, "Columns", (PyObject *)&ColumnsType) < 0 ||
        PyModule_AddObjectRef(m, "Block", (PyObject *)&BlockType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
