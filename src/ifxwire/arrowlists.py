"""Pure path: LIST/MULTISET of SMALLINT/INTEGER/BIGINT columns gathered by stride.

Without the C decoder, a LIST(INTEGER NOT NULL) column went through the column walker
(arrowtuples.column_walker): one call of the row decoder's collection decoder a row (the
~1 KB type table compared, the elements unpacked into a ``List``), then ``pyarrow.array`` of
those lists. That was ~2.5 us a row, 8.5 times the strided gather of 10 INTEGER columns
(bench/composite_bench.py, docs/ARROW.md "Measured").

A run of tuples whose every message has the same size, and whose collection values carry
the same prefix (i32 length, type table, i32 0, i32 data size, i32 flags) as the run's first
row, has one layout: every column at the same offset in every tuple, every collection
holding the same number of elements at the same place. The run is then a table of fixed
stride, and each column can be taken out of it with whole-run operations, no Python object
per row:

* the headers (``00 0E`` and the size) are checked per byte position with one strided slice
  and ``lstrip`` each, as arrowcols.RawRuns does;
* each collection's prefix is compared with the first row's by ``bytes.startswith`` mapped
  over the row offsets (C iteration, one call a row, no Python frame);
* fixed-width numeric columns are gathered as arrowcols does (strided slices);
* with numpy (importable wherever pandas is; pyarrow does not need it), each column's values
  are viewed in the receive buffer as a k x count array of big-endian integers at the run's
  stride and copied out in the machine's order by one ``astype`` (``ListRuns._cut_np``);
  without it, a collection's elements are cut out of each row with
  ``pyarrow.compute.binary_slice`` over the run viewed as a ``fixed_size_binary(stride)``
  array (no copy of the run), then turned little-endian with ``array.byteswap``; the list
  offsets are ``range(0, n * count + 1, count)``;
* when the first column is a collection, the tuple header and the collection's prefix are
  one stretch, compared by one ``startswith`` a row; a reply's later receives reuse the
  layout of the run before (``ListRuns.last``) when their first tuple has its prefixes.

What the row decoder would decode otherwise is never taken here: a run stops before the first
tuple of another size or another prefix (a NULL collection, another element count, another
type table); where no run of MIN_RUN tuples starts, the next MIN_RUN tuples go to the column
walker, which is fetchall's own decoding. A run holding an element equal to the type's NULL
sentinel (the row decoder's general path decides what that means) is decoded by the walker
too, as a whole.
"""

from __future__ import annotations

import array
import sys
from collections.abc import Sequence
from functools import lru_cache
from itertools import repeat
from typing import Any

from . import arrowtuples as _tup
from .arrowcols import _PRIMITIVES, primitive_array
from .arrowtuples import ColumnRun, ColumnRuns, _list_table
from .protocol.codes import TYPE_DISTINCT, Msg, TypeCode
from .protocol.columns import ColumnDesc

__all__ = ["ListRuns", "StrideRun", "batches", "list_shape", "stride_batch"]

_T = TypeCode
_TUPLE = int(Msg.TUPLE)
_FLAG_NULL = 0x80000000
#: The shortest run taken by stride when another tuple follows it (lists of varying lengths):
#: the walker takes that many tuples instead, so alternating sizes never make a run a row
#: (and cost one look for a run per MIN_RUN tuples). A shorter run that ends where the
#: received data or the tuples end is taken.
MIN_RUN = 8
_ARRAY_CODES = {2: "h", 4: "i", 8: "q"}
_LITTLE = sys.byteorder == "little"
_INTS = {2: "int16", 4: "int32", 8: "int64"}

#: One column: ("prim", width, Arrow type name, NULL test: "min" or "ones", as arrowcols) or
#: ("list", element width, the values' type table, "").
ListSpec = tuple[str, int, Any, str]


def list_shape(columns: Sequence[ColumnDesc], encoding: str) -> list[ListSpec] | None:
    """The columns as this path takes them, or None: every column a fixed-width numeric
    (arrowcols' primitives) or a LIST/MULTISET of SMALLINT/INTEGER/BIGINT (the C decoder's
    A_LIST, arrowtuples._list_table), at least one of the latter, no DISTINCT type."""
    out: list[ListSpec] = []
    lists = 0
    for col in columns:
        if col.type & TYPE_DISTINCT:
            return None
        prim = _PRIMITIVES.get(col.base)
        if prim is not None:
            width, arrow_type, null = prim
            out.append(("prim", width, arrow_type, null))
            continue
        found = _list_table(col, encoding)
        if found is None:
            return None
        out.append(("list", found[1], found[0], ""))
        lists += 1
    return out if lists else None


class StrideRun:
    """The columns of a run of tuples of one stride and layout (see the module docstring),
    cut out of the receive buffer while it held them: per column, its values in the
    machine's byte order (an ``array.array``: a fixed-width column's ``n`` values, a
    collection's ``n * count`` elements), so the run's type tables are never copied.
    ``counts`` is the collections' element counts (runs with equal ones make one batch)."""

    __slots__ = ("cols", "counts", "ntuples")

    def __init__(self, cols: list[Any], counts: tuple[int, ...], ntuples: int) -> None:
        self.cols = cols
        self.counts = counts
        self.ntuples = ntuples


class ListRuns:
    """Stands in for a row decoder in the pure path: takes stride runs where the reply has
    them, and hands the rest to the column walker (``walker``, arrowtuples.ColumnRuns)."""

    __slots__ = ("last", "np", "pa", "pc", "shape", "walker")

    def __init__(self, pa: Any, pc: Any, shape: list[ListSpec], walker: ColumnRuns) -> None:
        self.pa = pa
        self.pc = pc
        self.shape = shape
        self.walker = walker
        self.np = _numpy()
        #: The last run's (size, layout, prefixes): a reply's receives each start a run of
        #: the same layout, recognised by its prefixes without parsing the first tuple again.
        self.last: tuple[int, list[tuple[int, int, int]], list[tuple[bytes, int]]] | None = None

    def __call__(self, buf: Any, offset: int, size: int) -> ColumnRun:
        """One tuple (the reply loop's fallback): the walker's one-row run."""
        return self.walker(buf, offset, size)

    def decode_tuples(self, buf: Any, pos: int, end: int, rows: list[Any]) -> tuple[int, Any]:
        walker = self.walker
        while True:
            # Tuples with no run at them go to the walker as one stretch (one ColumnRun, not
            # one per MIN_RUN tuples): step over them MIN_RUN at a time until a run starts.
            stop = pos
            while (found := self._stride_run(buf, stop, end)) is None:
                after = _after_tuples(buf, stop, end, MIN_RUN)
                if after == stop:
                    break
                stop = after
            if stop != pos:
                nxt, err = walker.decode_tuples(buf, pos, stop, rows)
                if err is not None or nxt != stop:
                    return nxt, err
                pos = stop
            if found is None:
                break
            taken, run = found
            if run is None:  # a NULL sentinel element: these tuples go to the walker
                nxt, err = walker.decode_tuples(buf, pos, pos + taken, rows)
                if err is not None or nxt != pos + taken:
                    return nxt, err
            else:
                rows.append(run)
            pos += taken
        return walker.decode_tuples(buf, pos, end, rows)

    def _layout(self, buf: Any, pos: int, size: int,
                ) -> tuple[list[tuple[int, int, int]], list[tuple[bytes, int]]] | None:
        """The first tuple's layout (per column: its offset in the message, and for a
        collection the offset of its elements and their count) and its collections'
        prefixes with their offsets, or None if it has none this path takes (a NULL
        collection, another type table, sizes that do not add up)."""
        layout: list[tuple[int, int, int]] = []
        prefixes: list[tuple[bytes, int]] = []
        at, stop = pos + 8, pos + 8 + size
        for kind, width, table, _ in self.shape:
            if kind == "prim":
                layout.append((at - pos, 0, 0))
                at += width
                continue
            tl = len(table)
            if at + 16 + tl > stop:
                return None
            length = int.from_bytes(buf[at : at + 4], "big", signed=True)
            dsize = int.from_bytes(buf[at + 8 + tl : at + 12 + tl], "big", signed=True)
            flags = int.from_bytes(buf[at + 12 + tl : at + 16 + tl], "big")
            if (length < tl + 12 or at + 4 + length > stop or buf[at + 4 : at + 4 + tl] != table
                    or flags & _FLAG_NULL or dsize < 0 or dsize > length - tl - 12
                    or dsize % width):
                return None
            prefixes.append((bytes(buf[at : at + 16 + tl]), at - pos))
            layout.append((at - pos, at - pos + 16 + tl, dsize // width))
            at += 4 + length
        if at != stop:
            return None
        return layout, prefixes

    def _stride_run(self, buf: Any, pos: int, end: int) -> tuple[int, StrideRun | None] | None:
        """(bytes taken, the run's columns) for the longest run of tuples at ``pos`` with the
        first one's size and layout; (bytes, None) when one of its collections holds a NULL
        sentinel element; None when there is no run of MIN_RUN tuples."""
        if end - pos < 8 or buf[pos] != 0 or buf[pos + 1] != _TUPLE:
            return None
        size = int.from_bytes(buf[pos + 4 : pos + 8], "big", signed=True)
        if size <= 0:
            return None
        stride = 8 + size + (size & 1)
        k = (end - pos) // stride
        if k < 1:
            return None
        # A short look first: when one of the next MIN_RUN headers differs and a whole tuple
        # stands there, there is no run (the scan below would say the same), and scanning to
        # the end of the buffer every MIN_RUN tuples would make lists of varying length cost
        # quadratic time in the tuples a reply holds.
        head = bytes(buf[pos : pos + 8])
        for i in range(1, min(k, MIN_RUN)):
            at = pos + i * stride
            if (buf[at] != head[0] or buf[at + 1] != head[1]
                    or not buf.startswith(head[4:], at + 4)):
                if self._tuple_follows(buf, at, end):
                    return None
                break
        last = self.last
        if last is not None and last[0] == size and all(
                buf.startswith(p, pos + off) for p, off in last[2]):
            layout, prefixes = last[1], last[2]
        else:
            found = self._layout(buf, pos, size)
            if found is None:
                return None
            layout, prefixes = found
            if prefixes[0][1] == 8:
                # The first column is a collection: its prefix and the tuple's header are
                # one stretch, compared at once below (the header's ignored i16 with it: a
                # run then also ends where that changes, and the walker decodes the rest).
                prefixes[0] = (head + prefixes[0][0], 0)
            self.last = (size, layout, prefixes)
        if prefixes[0][1] != 0:
            for j in (0, 1, 4, 5, 6, 7):  # the headers: code and size, per byte, C-speed
                column = buf[pos + j : pos + k * stride : stride]
                k = min(k, len(column) - len(column.lstrip(head[j : j + 1])))
        for prefix, off in prefixes:  # every collection's prefix equal to the first row's
            if not all(map(buf.startswith, repeat(prefix),
                           range(pos + off, pos + k * stride, stride))):
                k = list(map(buf.startswith, repeat(prefix),
                             range(pos + off, pos + k * stride, stride))).index(False)
        if k < 1 or (k < MIN_RUN and self._tuple_follows(buf, pos + k * stride, end)):
            return None
        if self.np is not None:
            return k * stride, self._cut_np(buf, pos, k, stride, layout)
        return k * stride, self._cut(buf, pos, k, stride, layout)

    def _cut_np(self, buf: Any, pos: int, k: int, stride: int,
                layout: list[tuple[int, int, int]]) -> StrideRun | None:
        """``_cut`` with numpy: each column (a fixed-width value, or a collection's elements)
        viewed in the receive buffer as a k x count array of big-endian integers at the
        tuples' stride (no copy), then copied out in the machine's order by one ``astype``
        a column, byte swap included; the NULL sentinel test is the collection's ``min``.
        Every view of ``buf`` is gone on return (the transport may then resize it)."""
        np = self.np
        cols: list[Any] = []
        counts: list[int] = []
        for (kind, width, _, _), (off, elems, count) in zip(self.shape, layout, strict=True):
            if kind == "list":
                counts.append(count)
                off = elems
            else:
                count = 1
            if not count:
                cols.append(b"")
                continue
            view = np.ndarray((k, count), f">u{width}", buf, pos + off, (stride, width))
            values = view.astype(f"=u{width}")
            del view
            if kind == "list" and (values == 1 << (8 * width - 1)).any():
                return None  # an element equal to the NULL sentinel (as unsigned: 0x80..0)
            cols.append(values)
        return StrideRun(cols, tuple(counts), k)

    @staticmethod
    def _tuple_follows(buf: Any, pos: int, end: int) -> bool:
        """Is there a whole tuple at ``pos`` (a short run stopped by another tuple, not by
        the end of what has arrived or by another message)?"""
        if end - pos < 8 or buf[pos] != 0 or buf[pos + 1] != _TUPLE:
            return False
        size = int.from_bytes(buf[pos + 4 : pos + 8], "big", signed=True)
        return size >= 0 and pos + 8 + size <= end

    def _cut(self, buf: Any, pos: int, k: int, stride: int,
             layout: list[tuple[int, int, int]]) -> StrideRun | None:
        """Each column's values out of the ``k`` tuples at ``pos``, in the machine's byte
        order (the buffer viewed as a fixed_size_binary array, no copy of it; one
        binary_slice and one byteswap a column); None when a collection holds an element
        equal to its type's NULL sentinel."""
        pa, pc = self.pa, self.pc
        cols: list[Any] = []
        counts: list[int] = []
        with memoryview(buf) as view:
            part = view[pos : pos + k * stride]
            whole = pa.Array.from_buffers(pa.binary(stride), k, [None, pa.py_buffer(part)])
            try:
                for (kind, width, _, _), (off, elems, count) in zip(self.shape, layout,
                                                                     strict=True):
                    if kind == "list":
                        counts.append(count)
                        off, nbytes = elems, count * width
                    else:
                        nbytes = width
                    if not nbytes:
                        cols.append(b"")
                        continue
                    cut = pc.binary_slice(whole, off, off + nbytes)
                    values = _swapped(cut.buffers()[1].slice(0, k * nbytes), width)
                    del cut
                    if kind == "list" and pc.min(pa.Array.from_buffers(
                            getattr(pa, _INTS[width])(), len(values),
                            [None, pa.py_buffer(values)])).as_py() == -(1 << (8 * width - 1)):
                        return None
                    cols.append(values)
            finally:
                del whole, part
        return StrideRun(cols, tuple(counts), k)


def _numpy() -> Any:
    """numpy when it can be imported (pyarrow does not need it), else None: the stride runs
    then cut their columns with pyarrow.compute (``ListRuns._cut``)."""
    try:
        import numpy
    except ImportError:
        return None
    return numpy


def _after_tuples(buf: Any, pos: int, end: int, n: int) -> int:
    """The position after at most ``n`` whole tuples at ``pos`` (``pos`` when none)."""
    for _ in range(n):
        if end - pos < 8 or buf[pos] != 0 or buf[pos + 1] != _TUPLE:
            break
        size = int.from_bytes(buf[pos + 4 : pos + 8], "big", signed=True)
        if size < 0 or pos + 8 + size + (size & 1) > end:
            break
        pos += 8 + size + (size & 1)
    return pos


def stride_batch(pa: Any, pc: Any, schema: Any, shape: Sequence[ListSpec],
                 runs: Sequence[StrideRun]) -> Any:
    """The record batch of stride runs with equal element counts (a column's values of
    several runs are joined: small, a LIST's type tables were never copied)."""
    n = sum(r.ntuples for r in runs)
    counts = iter(runs[0].counts)
    arrays = []
    for k, ((kind, width, detail, null), field) in enumerate(zip(shape, schema, strict=True)):
        parts = [r.cols[k] for r in runs]
        data = parts[0] if len(parts) == 1 else b"".join(parts)
        if kind == "prim":
            arrays.append(primitive_array(pa, pc, data, n, width, null, field,
                                          detail == "date32"))
            continue
        count = next(counts)
        items = pa.Array.from_buffers(field.type.value_type, n * count,
                                      [None, pa.py_buffer(data)], null_count=0)
        arrays.append(pa.Array.from_buffers(field.type, n, [None, _offsets(pa, n, count)],
                                            null_count=0, children=[items]))
    return pa.RecordBatch.from_arrays(arrays, schema=schema)


def _swapped(data: Any, width: int) -> Any:
    """Big-endian values of ``width`` bytes as the machine's order."""
    values = array.array(_ARRAY_CODES[width])
    values.frombytes(data)
    if _LITTLE:
        values.byteswap()
    return values


@lru_cache(maxsize=16)
def _offsets(pa: Any, n: int, count: int) -> Any:
    """The list offsets of ``n`` lists of ``count`` elements each (batches of one reply
    size share them)."""
    return pa.py_buffer(array.array("i", range(0, n * count + 1, count) if count
                                    else bytes(4 * (n + 1))))


def batches(pa: Any, pc: Any, schema: Any, converters: Sequence[Any], runs: ListRuns,
            items: Sequence[Any]) -> list[Any]:
    """The record batches of a reply's stride runs and walker runs, in row order: one per
    stretch of stride runs with equal element counts (a reply arrives in several receives,
    each its own run), one per stretch of walker runs."""
    raw = runs.walker.walk.raw  # type: ignore[attr-defined]
    out: list[Any] = []
    stretch: list[Any] = []
    for item in [*items, None]:
        if stretch and (item is None or type(item) is not type(stretch[0]) or (
                type(item) is StrideRun and item.counts != stretch[0].counts)):
            if type(stretch[0]) is StrideRun:
                out.append(stride_batch(pa, pc, schema, runs.shape, stretch))
            else:
                out.append(_tup.column_batch(pa, schema, converters, stretch, raw))
            stretch = []
        if item is not None:
            stretch.append(item)
    return out
