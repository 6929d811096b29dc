"""The columnar path's framing checks (ifxwire/arrowcols.py) on crafted SQ_TUPLE runs.

The integration tests show the values equal fetchall's; these show what a run refuses: a
tuple of another size, another message in the middle, a partial tuple at the end.
"""

from __future__ import annotations

import datetime as dt
import struct

import pytest

from ifxwire.arrowcols import RawRun, RawRuns, columnar_shape, run_batch
from ifxwire.protocol.codes import TYPE_DISTINCT, TypeCode
from ifxwire.protocol.columns import ColumnDesc
from ifxwire.types.errors import CodecError

pa = pytest.importorskip("pyarrow")
pc = pytest.importorskip("pyarrow.compute")


def _tuple(payload: bytes) -> bytes:
    return struct.pack(">HhI", 14, 0, len(payload)) + payload + b"\x00" * (len(payload) & 1)


def test_run_stops_at_another_size_or_message() -> None:
    raw = RawRuns(6)  # INTEGER + SMALLINT
    good = [_tuple(struct.pack(">ih", i, -i)) for i in range(3)]
    odd = _tuple(b"\x00" * 8)  # a tuple of another size ends the run
    buf = b"".join(good) + odd + b"\x00\x0c"
    rows: list[object] = []
    pos, err = raw.decode_tuples(buf, 0, len(buf), rows)
    assert err is None and pos == 3 * raw.stride and rows == [RawRun(b"".join(good))]
    with pytest.raises(CodecError):
        raw(buf, pos + 8, 8)  # the reply loop's fallback refuses it
    # A message that is not a tuple ends the run too; a partial tuple is left for later.
    buf = good[0] + b"\x00\x0f" + good[1]
    rows = []
    assert raw.decode_tuples(buf, 0, len(buf), rows)[0] == raw.stride
    rows = []
    assert raw.decode_tuples(good[0][:-1], 0, len(good[0]) - 1, rows) == (0, None) and not rows


def test_run_batch_nulls_and_dates() -> None:
    cols = [ColumnDesc("a", TypeCode.INTEGER, 4), ColumnDesc("f", TypeCode.FLOAT, 8),
            ColumnDesc("d", TypeCode.DATE, 4)]
    shape = columnar_shape(cols)
    assert shape is not None
    schema = pa.schema([("a", pa.int32()), ("f", pa.float64()), ("d", pa.date32())])
    payloads = [struct.pack(">idi", 7, 1.5, 25568), b"\x80\x00\x00\x00" + b"\xff" * 8
                + b"\x80\x00\x00\x00"]
    raw = RawRuns(16)
    batch = run_batch(pa, pc, schema, shape, raw.stride, [b"".join(map(_tuple, payloads))],
                      [None] * 3)
    assert batch.to_pylist() == [{"a": 7, "f": 1.5, "d": dt.date(1970, 1, 1)},
                                 {"a": None, "f": None, "d": None}]


def test_shape_refuses_distinct_and_variable_columns() -> None:
    assert columnar_shape([ColumnDesc("a", TypeCode.INTEGER | TYPE_DISTINCT, 4)]) is None
    assert columnar_shape([ColumnDesc("v", TypeCode.VARCHAR, 20)]) is None
    assert columnar_shape([]) is None
    # Described start positions: taken when they are the packed layout, else rows are decoded.
    packed = [ColumnDesc("a", TypeCode.INTEGER, 4, start=0), ColumnDesc("b", TypeCode.FLOAT, 8,
                                                                       start=4)]
    assert columnar_shape(packed) == [(0, 4, "int32", "min"), (4, 8, "float64", "ones")]
    # CHAR/DECIMAL columns are decoded per value inside a fixed layout; alone they gain nothing.
    mixed = columnar_shape([ColumnDesc("a", TypeCode.INTEGER, 4),
                            ColumnDesc("c", TypeCode.CHAR, 3)])
    assert mixed is not None and mixed[1][:3] == (4, 3, "decode")
    assert columnar_shape([ColumnDesc("c", TypeCode.CHAR, 3)]) is None
    gap = [ColumnDesc("a", TypeCode.INTEGER, 4, start=0), ColumnDesc("b", TypeCode.FLOAT, 8,
                                                                    start=8)]
    assert columnar_shape(gap) is None
