"""Arrow fetch for the sync and asyncio cursors (the ADBC DB-API extension names).

Kept out of cursor.py on purpose: the cursor only gains thin methods that call in here, so
the row path stays as it is and pyarrow is imported only when one of these is used.

Streaming: a batch generator takes the rows of the cursor's current fetch reply, turns them
into record batches, and only then asks for the next reply, so at most one reply's rows (plus
``rows_per_batch`` pending rows) are alive at a time, whatever the size of the result.
"""

from __future__ import annotations

import inspect
from collections.abc import AsyncIterator, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from .. import arrow as _arrow
from ..protocol.codes import TypeCode
from ..types.complextype import ComplexType

if TYPE_CHECKING:
    from ..aio.cursor import AsyncCursor
    from .cursor import Cursor

__all__ = ["aiter_batches", "iter_batches", "reader", "table", "to_pandas"]

_LOB_KINDS = frozenset({TypeCode.BYTE, TypeCode.TEXT, TypeCode.BLOB, TypeCode.CLOB})


def _plan(cur: Cursor) -> tuple[Any, _arrow._Plan]:
    pa = _arrow.require_pyarrow()
    cur._check_result()
    return pa, _arrow._Plan(pa, cur._columns)


def _check_size(rows_per_batch: int | None) -> int | None:
    if rows_per_batch is None:
        return None
    if isinstance(rows_per_batch, bool) or not isinstance(rows_per_batch, int) \
            or rows_per_batch < 1:
        from ..errors import ProgrammingError

        raise ProgrammingError(f"rows_per_batch must be a positive int, not {rows_per_batch!r}")
    return rows_per_batch


def _take(cur: Cursor) -> list[tuple[Any, ...]]:
    """The rows of the current fetch reply not yet delivered (and mark them delivered)."""
    rows = cur._rows
    pos = cur._pos
    cur._pos = len(rows)
    return rows[pos:] if pos else rows


def _cut(
    pa: Any, plan: _arrow._Plan, pending: list[tuple[Any, ...]], size: int | None, final: bool
) -> tuple[list[Any], list[tuple[Any, ...]]]:
    """Record batches of ``size`` rows from ``pending`` (all of it when size is None/final)."""
    if size is None:
        return ([_arrow.batch_from_rows(pa, plan, pending)] if pending else []), []
    out = []
    start = 0
    while len(pending) - start >= size:
        out.append(_arrow.batch_from_rows(pa, plan, pending[start : start + size]))
        start += size
    rest = pending[start:]
    if final and rest:
        out.append(_arrow.batch_from_rows(pa, plan, rest))
        rest = []
    return out, rest


def _batches(cur: Cursor, pa: Any, plan: _arrow._Plan, size: int | None) -> Iterator[Any]:
    pending = _take(cur)
    while True:
        ready, pending = _cut(pa, plan, pending, size, False)
        yield from ready
        if not cur._more():
            break
        pending = pending + _take(cur) if pending else _take(cur)
    ready, _ = _cut(pa, plan, pending, size, True)
    yield from ready


def iter_batches(cur: Cursor, rows_per_batch: int | None = None) -> tuple[Any, Iterator[Any]]:
    """(schema, generator of record batches) of the cursor's remaining rows."""
    size = _check_size(rows_per_batch)
    pa, plan = _plan(cur)
    return plan.schema, _batches(cur, pa, plan, size)


def reader(cur: Cursor, rows_per_batch: int | None = None) -> Any:
    pa = _arrow.require_pyarrow()
    schema, gen = iter_batches(cur, rows_per_batch)
    return pa.RecordBatchReader.from_batches(schema, gen)


def table(cur: Cursor) -> Any:
    pa = _arrow.require_pyarrow()
    schema, gen = iter_batches(cur)
    return pa.Table.from_batches(list(gen), schema=schema)


def to_pandas(tbl: Any, kwargs: dict[str, Any]) -> Any:
    return tbl.to_pandas(**kwargs)


# ------------------------------------------------------------------------------------------
# asyncio
# ------------------------------------------------------------------------------------------


def _lob_columns(cur: Cursor) -> list[int]:
    out = []
    for i, col in enumerate(cur._columns):
        node = ComplexType(code=col.base, length=col.enclen, xid=col.xid, type_name=col.type_name)
        if _arrow._kind(node) in _LOB_KINDS:
            out.append(i)
    return out


async def _materialize(rows: list[tuple[Any, ...]], idxs: Sequence[int]) -> list[tuple[Any, ...]]:
    """asyncio BYTE/TEXT readers and BLOB/CLOB objects read out (their read is a coroutine)."""
    out = []
    for row in rows:
        values = None
        for i in idxs:
            read = getattr(row[i], "read", None)
            if read is not None:
                data = read()
                if inspect.isawaitable(data):
                    data = await data
                if values is None:
                    values = list(row)
                values[i] = data
        out.append(row if values is None else tuple(values))
    return out


async def aiter_batches(acur: AsyncCursor, rows_per_batch: int | None = None) -> AsyncIterator[Any]:
    """Async generator of record batches of the cursor's remaining rows."""
    size = _check_size(rows_per_batch)
    cur = acur._cur
    pa, plan = _plan(cur)
    lobs = _lob_columns(cur)
    pending = _take(cur)
    while True:
        if lobs:
            pending = await _materialize(pending, lobs)
        ready, pending = _cut(pa, plan, pending, size, False)
        for batch in ready:
            yield batch
        if not await acur._more():
            break
        pending = pending + _take(cur) if pending else _take(cur)
    if lobs:
        pending = await _materialize(pending, lobs)
    ready, _ = _cut(pa, plan, pending, size, True)
    for batch in ready:
        yield batch


async def atable(acur: AsyncCursor) -> Any:
    pa, plan = _plan(acur._cur)
    batches = [b async for b in aiter_batches(acur)]
    return pa.Table.from_batches(batches, schema=plan.schema)
