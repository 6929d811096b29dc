"""Columnar decoding of fixed-width numeric results straight into Arrow buffers.

When every column of a result is SMALLINT, INTEGER, SERIAL, BIGINT, BIGSERIAL, FLOAT,
SMALLFLOAT or DATE (and none is a DISTINCT type), every SQ_TUPLE message has the same size and
every column sits at the same offset in it (jdbc-protocol.md 4.3; rowcodec.fixed_width). A run
of N tuples is then a byte string with a fixed stride, and column c is N fields of w bytes at
``offset + k * stride``. No Python object per value is needed to make an Arrow array of it:

* w strided slice assignments (``out[w-1-j::w] = run[offset+j::stride]``) gather the column
  and turn its big-endian fields little-endian in the same move, each one C-speed over the
  whole run;
* ``pyarrow.Array.from_buffers`` wraps that as the column's data buffer, no copy;
* the in-band NULL sentinels (the most negative integer; all-0xFF floats, docs/PROTOCOL.md
  and types/numeric.py) become the validity bitmap with one ``pyarrow.compute`` comparison.

The Reply feeds raw runs through :class:`RawRuns`, which stands in for the row decoder
(``Reply._tuples`` calls its ``decode_tuples`` on a buffer of tuples). Its checks are the
decoder's: each header must be SQ_TUPLE (``00 0E``) with exactly the row width as size; the
first other message ends the run, and anything else is left to the reply loop to report.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from .protocol.codes import TYPE_DISTINCT, Msg, TypeCode
from .protocol.columns import ColumnDesc
from .types.errors import CodecError
from .types.rowcodec import build_row_decoder, fixed_width, is_variable

__all__ = ["RawRun", "RawRuns", "columnar_shape", "gather_primitive", "primitive_array",
           "run_batch"]

_T = TypeCode
#: type code -> (wire width, Arrow primitive name, NULL test: "min" integer or "ones" float)
_PRIMITIVES: dict[int, tuple[int, str, str]] = {
    _T.SMALLINT: (2, "int16", "min"),
    _T.INTEGER: (4, "int32", "min"),
    _T.SERIAL: (4, "int32", "min"),
    _T.BIGINT: (8, "int64", "min"),
    _T.BIGSERIAL: (8, "int64", "min"),
    _T.FLOAT: (8, "float64", "ones"),
    _T.SMALLFLOAT: (4, "float32", "ones"),
    _T.DATE: (4, "date32", "min"),
}
_TUPLE = int(Msg.TUPLE)
_UNSIGNED = {2: "uint16", 4: "uint32", 8: "uint64"}
_SIGNED = {2: "int16", 4: "int32", 8: "int64"}
#: Informix day 0 is 1899-12-31; Arrow's date32 counts from 1970-01-01.
_EPOCH_SHIFT = 25568


class RawRun(bytes):
    """Whole SQ_TUPLE messages of one fixed stride (headers included), as received."""

    __slots__ = ()


#: One column of a fixed layout: (offset in the payload, width, kind, detail). kind is an
#: Arrow primitive name (detail: its NULL test, "min" or "ones") or "decode" (detail: a
#: one-column row decoder, for CHAR, DECIMAL, MONEY, DATETIME, INTERVAL, INT8).
ColumnSpec = tuple[int, int, str, Any]


def columnar_shape(
    columns: Sequence[ColumnDesc], encoding: str = "iso-8859-1", keep_char_padding: bool = False
) -> list[ColumnSpec] | None:
    """The fixed layout of a result, or None when rows must be decoded one by one (a column
    forces the sequential layout, a BYTE/TEXT descriptor needs its data fetched, or the
    described start positions are not the packed layout)."""
    out: list[ColumnSpec] = []
    offset = 0
    decoded = 0
    for col in columns:
        spec = _PRIMITIVES.get(col.base)
        if col.type & TYPE_DISTINCT:
            return None
        if spec is not None:
            width, arrow_type, null = spec
            out.append((offset, width, arrow_type, null))
        else:
            fixed = fixed_width(col)
            if fixed is None or is_variable(col) or col.base in (_T.BYTE, _T.TEXT):
                return None
            width = fixed
            decoder = build_row_decoder([replace(col, start=0)], encoding,
                                        keep_char_padding=keep_char_padding)
            out.append((offset, width, "decode", decoder))
            decoded += 1
        offset += width
    if any(c.start for c in columns) and any(
        c.start != spec[0] for c, spec in zip(columns, out, strict=True)
    ):
        return None  # described start positions that are not the packed layout: rows instead
    if not out or decoded == len(out):
        return None  # nothing columnar to gain: the row decoder is as fast per value
    return out


class RawRuns:
    """Stands in for a row decoder: keeps runs of whole tuple messages instead of rows."""

    __slots__ = ("header", "size", "stride")

    def __init__(self, size: int) -> None:
        self.size = size
        self.stride = 8 + size + (size & 1)
        self.header = size.to_bytes(4, "big")

    def __call__(self, buf: Any, offset: int, size: int) -> RawRun:
        """One tuple (the reply loop's fallback): its whole message, checked."""
        if size != self.size:
            raise CodecError(f"a fixed-width row of {self.size} bytes came as {size} bytes")
        return RawRun(buf[offset - 8 : offset + size + (size & 1)])

    def decode_tuples(self, buf: Any, pos: int, end: int, rows: list[Any]) -> tuple[int, None]:
        """Take the longest run of well-formed tuples at ``pos`` in one slice."""
        stride = self.stride
        k = (end - pos) // stride
        if k <= 0:
            return pos, None
        run = bytes(buf[pos : pos + k * stride])
        # Leading well-formed headers, counted per header byte with C-speed lstrip: the run
        # ends at the first tuple whose code or size differs (another message, or a bad one
        # the reply loop then reports).
        for j, expected in ((0, 0), (1, _TUPLE), (4, self.header[0]), (5, self.header[1]),
                            (6, self.header[2]), (7, self.header[3])):
            column = run[j::stride][:k]
            good = k - len(column.lstrip(bytes((expected,))))
            if good < k:
                k = good
                if k == 0:
                    return pos, None
        if k * stride != len(run):
            run = run[: k * stride]
        rows.append(RawRun(run))
        return pos + k * stride, None


def run_batch(pa: Any, pc: Any, schema: Any, shape: Sequence[ColumnSpec], stride: int,
              runs: Sequence[bytes], converters: Sequence[Any]) -> Any:
    """One record batch from raw runs: each column gathered, byte-swapped and NULL-masked
    (or, for "decode" columns, its values decoded one by one from their fixed offsets)."""
    data = runs[0] if len(runs) == 1 else b"".join(runs)
    n = len(data) // stride
    arrays = []
    for (offset, width, kind, detail), field, conv in zip(shape, schema, converters,
                                                           strict=True):
        start = 8 + offset
        if kind == "decode":
            values = [detail(data, at, width)[0] for at in range(start, n * stride, stride)]
            if conv is not None:
                values = [None if v is None else conv(v) for v in values]
            arrays.append(pa.array(values, type=field.type))
            continue
        arrays.append(gather_primitive(pa, pc, data, n, stride, start, width, detail, field,
                                       kind == "date32"))
    return pa.RecordBatch.from_arrays(arrays, schema=schema)


def gather_primitive(pa: Any, pc: Any, data: bytes, n: int, stride: int, start: int,
                     width: int, null: str, field: Any, date: bool) -> Any:
    """One fixed-width numeric column of ``n`` tuples of ``stride`` bytes, at ``start`` in
    each (header included): gathered and byte-swapped in one move, then primitive_array.
    ``data`` holds exactly ``n`` tuples."""
    out = bytearray(n * width)
    for j in range(width):
        out[width - 1 - j :: width] = data[start + j :: stride]
    return primitive_array(pa, pc, out, n, width, null, field, date)


def primitive_array(pa: Any, pc: Any, values: Any, n: int, width: int, null: str, field: Any,
                    date: bool) -> Any:
    """``n`` little-endian values of ``width`` bytes as the field's Arrow array, NULL-masked
    (``null``: "min" for an integer's most negative value, "ones" for a float's all-ones
    bits; ``date``: a DATE, whose day numbers are shifted to Arrow's epoch)."""
    buf = pa.py_buffer(values)
    if null == "min":
        t = getattr(pa, _SIGNED[width])()
        raw = pa.Array.from_buffers(t, n, [None, buf])
        mask = pc.equal(raw, pa.scalar(-(1 << (width * 8 - 1)), t))
    else:
        t = getattr(pa, _UNSIGNED[width])()
        raw = pa.Array.from_buffers(t, n, [None, buf])
        mask = pc.equal(raw, pa.scalar((1 << (width * 8)) - 1, t))
    validity = None
    if pc.any(mask).as_py():
        validity = pc.invert(mask).buffers()[1]
    if date:
        days = pa.Array.from_buffers(pa.int32(), n, [validity, buf])
        return pc.subtract(days, pa.scalar(_EPOCH_SHIFT, pa.int32())).cast(pa.date32())
    return pa.Array.from_buffers(field.type, n, [validity, buf])
