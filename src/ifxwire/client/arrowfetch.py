"""Arrow fetch for the sync and asyncio cursors (the ADBC DB-API extension names).

Kept out of cursor.py on purpose: the cursor only gains thin methods that call in here, so
the row path stays as it is and pyarrow is imported only when one of these is used.

Streaming: a batch generator takes the rows of the cursor's current fetch reply, turns them
into record batches, and only then asks for the next reply, so at most one reply's rows (plus
``rows_per_batch`` pending rows) are alive at a time, whatever the size of the result.

The asyncio cursors (aio/arrow.py) await the same batches (``aiter_batches``, ``atable``).
Their blocking spellings, ``fetch_record_batch()`` and the Arrow PyCapsule stream
``__arrow_c_stream__`` (what ``polars.DataFrame(cur)``, ``duckdb.from_arrow(cur)`` and
``pyarrow.RecordBatchReader.from_stream(cur)`` call), cannot await: their consumer asks for
each batch synchronously, so ``blocking_reader`` fetches each batch on the connection's
event loop. From another thread (``await asyncio.to_thread(polars.DataFrame, cur)``) the
batch is fetched by the loop while that thread waits; with the loop not running (a script
between ``run_until_complete`` calls) the loop is run until the batch is in. Asked for a
batch on the loop's own thread, while it runs, it raises ``InterfaceError`` instead of
blocking the loop forever (``fetch_arrow_table`` or ``fetch_record_batches`` work there).
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Iterator, Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from .. import arrow as _arrow
from .. import arrowcols as _cols
from .. import arrowlists as _lists
from .. import arrowtuples as _tup
from ..errors import InterfaceError
from ..protocol.codes import TypeCode
from ..types.complextype import ComplexType
from ..types.compositetext import TextFormColumn
from ..types.rowcodec import build_row_decoder

if TYPE_CHECKING:
    from ..protocol.columns import ColumnDesc


class _FetchSession(Protocol):
    @property
    def encoding(self) -> str: ...
    @property
    def keep_char_padding(self) -> bool: ...
    @property
    def fetch_buffer_size(self) -> int: ...


class Cursor(Protocol):
    """What the Arrow methods need of the sync ``Cursor`` (both drivers': the asyncio cursor
    drives one): its cursor API for the Arrow fetch (``CursorState.decoded``...), named in a
    Protocol so that this module stays out of the connection/cursor import circle
    (tests/unit/test_driver_core.py)."""

    @property
    def session(self) -> _FetchSession: ...

    blob_stream: bool | None

    def ensure_result(self) -> None: ...
    def result_columns(self) -> Sequence[ColumnDesc]: ...
    def has_user_loaders(self) -> bool: ...
    def decoded(self) -> list[Any]: ...
    def take_decoded(self) -> list[Any]: ...
    def add_received(self, extra: int) -> None: ...
    def raw_fetches(self, decoder: object, fetch_size: int = 0
                    ) -> contextlib.AbstractContextManager[None]: ...
    def fetch_more(self) -> bool: ...


__all__ = ["aiter_batches", "iter_batches", "reader", "table", "to_pandas"]

_LOB_KINDS = frozenset({TypeCode.BYTE, TypeCode.TEXT, TypeCode.BLOB, TypeCode.CLOB})


class _Source:
    """What a batch generator needs: pyarrow, the result's plan, the columnar shape if any."""

    __slots__ = ("c_plan", "enc", "keep", "lobs", "lshape", "pa", "pc", "pending", "plan",
                 "raw", "row_decoder", "shape", "size", "tplan", "whole")

    def __init__(self, cur: Cursor, rows_per_batch: int | None, whole: bool = False) -> None:
        self.size = _check_size(rows_per_batch)
        #: one batch for the whole result where the C decoder feeds columns (a table is
        #: wanted, not a stream): the replies' rows accumulate in one Columns, so a result of
        #: ~100 replies does not pay ~100 record batches and their concatenation
        self.whole = whole
        #: the Columns left open by the last reply (``whole``), not yet made a batch
        self.pending: Any = None
        pa = _arrow.require_pyarrow()
        cur.ensure_result()
        self.pa = pa
        columns = cur.result_columns()
        self.plan = _arrow._Plan(pa, columns)
        conn = cur.session
        self.shape: list[_cols.ColumnSpec] | None = None
        self.tplan: list[_tup.Spec] | None = None
        self.c_plan: tuple[tuple[Any, ...], ...] | None = None
        self.raw: _cols.RawRuns | _tup.TupleRuns | _tup.ColumnRuns | _lists.ListRuns | None = None
        self.enc = _tup.enc_kind(conn.encoding)
        self.keep = conn.keep_char_padding
        #: a stream of ``rows_per_batch`` batches of a result with BYTE/TEXT/BLOB/CLOB
        #: columns: each reply's rows are converted (their values read) a batch at a time,
        #: and BYTE/TEXT are fetched as readers (``blob_stream``), so a batch's values are
        #: the only ones in memory, however many rows a reply holds (``chunks``, ``fetching``)
        self.lobs = bool(self.size is not None and not whole and _lob_columns(cur))
        if cur.has_user_loaders():
            return
        # Which columnar path (docs/ARROW.md, "How it is built"): the C tuple decoder when the
        # accelerator is in use; else the strided gather for fixed-stride layouts of
        # primitives only; else, for integer LIST/MULTISET columns beside primitives, stride
        # runs where the reply has them and the walker for the rest (arrowlists.py); else the
        # pure column walker (a DECIMAL or CHAR the gather would decode value by value costs
        # it more than the walker's whole row); else (BYTE/TEXT, BLOB/CLOB, DISTINCT) the row
        # path.
        tplan = _tup.tuple_plan(columns, conn.encoding, conn.keep_char_padding)
        shape = _cols.columnar_shape(columns, conn.encoding, conn.keep_char_padding)
        cdec = _tup.c_decoder()
        text_form = any(isinstance(c, TextFormColumn) for c in columns)
        if text_form and tplan is None:
            # text-form collections (cursor.collections = "text") go through the C decoder
            # (A_TLIST), the pure column walker (their texts read a batch at a time,
            # arrowtext.py) or else the row decoder
            return
        if text_form:
            shape = None  # (the strided gather and the list strides read the binary form)
        if tplan is not None and cdec is not None:
            self.tplan = tplan
            self.c_plan = _tup.c_plan(tplan, columns, conn.encoding)
            self.raw = _tup.TupleRuns(self.c_plan, self.enc, self.keep)
            self.row_decoder = build_row_decoder(columns, conn.encoding,
                                                 keep_char_padding=conn.keep_char_padding)
        elif shape is not None and (tplan is None or all(s[2] != "decode" for s in shape)):
            import pyarrow.compute

            self.shape = shape
            self.pc = pyarrow.compute
            last = shape[-1]
            self.raw = _cols.RawRuns(last[0] + last[1])
        elif tplan is not None:
            walk = _tup.column_walker(tuple(columns), conn.encoding,
                                      conn.keep_char_padding)
            self.raw = _tup.ColumnRuns(walk, len(columns))
            lshape = None if text_form else _lists.list_shape(columns, conn.encoding)
            if lshape is not None:
                import pyarrow.compute

                self.pc = pyarrow.compute
                self.lshape = lshape
                self.raw = _lists.ListRuns(self.pa, self.pc, lshape, self.raw)

    def chunks(self, items: list[Any]) -> list[list[Any]]:
        """One reply's rows in slices of ``rows_per_batch`` where their LOB values are read
        per batch (``lobs``); else the reply whole. A server sends as many rows a reply as
        its fetch size holds: ours counts BYTE/TEXT bytes against it, IBM's sends only the
        56-byte descriptors, and a BLOB/CLOB locator is 72 bytes: ~400 to ~1000 rows of
        values in one reply (docs/ARROW.md, "BYTE, TEXT, BLOB and CLOB in a stream")."""
        if not self.lobs or not items or not isinstance(items[0], tuple):
            return [items]
        size = self.size
        assert size is not None
        return [items[i:i + size] for i in range(0, len(items), size)]

    def _fallback(self, data: bytes, count: int) -> Any:
        return _arrow.batch_from_rows(self.pa, self.plan, _tup.run_rows(data, count,
                                                                        self.row_decoder))

    def batches(self, items: list[Any]) -> list[Any]:
        """The record batches of one fetch reply's rows (or raw runs), cut to the size."""
        if not items:
            return []
        first = items[0]
        if isinstance(first, (_tup.TupleRun, _tup.FedRun)):
            assert self.tplan is not None and isinstance(self.raw, _tup.TupleRuns)
            open_cols = self.raw.cols
            if not self.whole:  # streaming: this reply's columns end with it
                self.raw.close()
                open_cols = None
            pending, self.pending = self.pending, open_cols
            return self._cut(_tup.fed_batches(self.pa, self.plan.schema, self.tplan,
                                              self.plan.converters, items, open_cols,
                                              self._run_batch, pending))
        elif isinstance(first, (_lists.StrideRun, _tup.ColumnRun)) and isinstance(
                self.raw, _lists.ListRuns):
            return self._cut(_lists.batches(self.pa, self.pc, self.plan.schema,
                                            self.plan.converters, self.raw, items))
        elif isinstance(first, _tup.ColumnRun):
            assert isinstance(self.raw, _tup.ColumnRuns)
            batch = _tup.column_batch(self.pa, self.plan.schema, self.plan.converters, items,
                                      self.raw.walk.raw,  # type: ignore[attr-defined]
                                      getattr(self.raw.walk, "texts", None))
        elif isinstance(first, _cols.RawRun):
            assert isinstance(self.raw, _cols.RawRuns) and self.shape is not None
            batch = _cols.run_batch(self.pa, self.pc, self.plan.schema, self.shape,
                                    self.raw.stride, items, self.plan.converters)
        else:
            batch = _arrow.batch_from_rows(self.pa, self.plan, items)
        return self._cut([batch])

    def _run_batch(self, runs: list[_tup.TupleRun]) -> Any:
        assert self.tplan is not None and self.c_plan is not None
        return _tup.run_batch(self.pa, self.plan.schema, self.tplan, self.plan.converters,
                              runs, self.c_plan, self.enc, self.keep, self._fallback)

    def flush(self) -> list[Any]:
        """After the last reply: the batch of the columns still open (``whole``)."""
        if not isinstance(self.raw, _tup.TupleRuns):
            return []
        cols = self.raw.close()
        self.pending = None
        if cols is None or not cols.rows:
            return []
        assert self.tplan is not None
        return self._cut([_tup.columns_batch(self.pa, self.plan.schema, self.tplan,
                                             self.plan.converters, cols)])

    def _cut(self, batches: list[Any]) -> list[Any]:
        """Each batch in slices of at most ``rows_per_batch`` rows (zero-copy)."""
        size = self.size
        if size is None:
            return batches
        out: list[Any] = []
        for batch in batches:
            if batch.num_rows <= size:
                out.append(batch)
            else:
                out.extend(batch.slice(i, size) for i in range(0, batch.num_rows, size))
        return out

    def fetch_size(self, cur: Cursor) -> int:
        """The reply size of this result's raw fetches (0: the statement's own)."""
        if cur.session.fetch_buffer_size <= 32767:  # (a server without 2 GB fetches)
            return 0
        if self.whole and (isinstance(self.raw, _lists.ListRuns) or (
                isinstance(self.raw, _tup.TupleRuns) and self.raw.new_columns)):
            return TABLE_FETCH_SIZE
        return WALKER_FETCH_SIZE if isinstance(self.raw, _tup.ColumnRuns) else ARROW_FETCH_SIZE

    @contextlib.contextmanager
    def fetching(self, cur: Cursor) -> Iterator[None]:
        """Around one fetch (either driver's): raw runs instead of rows, in larger replies
        (columnar path only); then rows counted, not runs."""
        before = cur.decoded()
        if self.lobs:  # BYTE/TEXT as readers, read when their batch is converted
            saved, cur.blob_stream = cur.blob_stream, True
        try:
            with cur.raw_fetches(self.raw, self.fetch_size(cur) if self.raw is not None else 0):
                yield
        finally:
            if self.lobs:
                cur.blob_stream = saved
        rows = cur.decoded()
        if rows is before or not rows:
            return  # nothing fetched
        if isinstance(rows[0], (_tup.TupleRun, _tup.FedRun, _tup.ColumnRun, _lists.StrideRun)):
            cur.add_received(sum(r.ntuples for r in rows) - len(rows))
        elif isinstance(rows[0], _cols.RawRun):
            assert isinstance(self.raw, _cols.RawRuns)
            cur.add_received(sum(len(r) for r in rows) // self.raw.stride - len(rows))


def _check_size(rows_per_batch: int | None) -> int | None:
    if rows_per_batch is None:
        return None
    if isinstance(rows_per_batch, bool) or not isinstance(rows_per_batch, int) \
            or rows_per_batch < 1:
        from ..errors import ProgrammingError

        raise ProgrammingError(f"rows_per_batch must be a positive int, not {rows_per_batch!r}")
    return rows_per_batch


#: NFETCH size of the columnar path's fetches: a raw run costs no Python object per row, so
#: larger replies only save round trips (and their syscalls), which then dominate its CPU.
#: Never above the connection's own size when that was capped (servers without 2 GB fetch).
ARROW_FETCH_SIZE = 1 << 20
#: The pure column walker's: its columns are Python lists until ``pyarrow.array``, so a 1 MiB
#: reply's worth of them set the 10M-row stream's peak (68.6 MB against issue 25's 64 MB);
#: a quarter of that keeps most of the round trips saved (docs/ARROW.md, "Measured").
WALKER_FETCH_SIZE = 1 << 18
#: ``fetch_arrow_table``'s when the C decoder feeds columns from the receive buffer: no reply
#: is held (only its decoded columns, which the table keeps anyway), so larger replies cost
#: no memory and save round trips (~100 of them for 100k 1 KB LIST rows at 1 MiB, 25 at
#: 4 MiB, 7 at 16 MiB; each ~0.2 ms of the client's CPU, docs/ARROW.md "Composite fetch,
#: arrow10"). The size is an i32 (the 2 GB fetch buffer, docs/PROTOCOL.md "Fetch"); ours caps a
#: reply at 16 MiB (server/handlers.py ``_MAX_FETCH_BYTES``).
TABLE_FETCH_SIZE = 1 << 24


def _batches(cur: Cursor, src: _Source) -> Iterator[Any]:
    """The record batches of the remaining rows, a fetch reply at a time (``aiter_batches``
    awaits each fetch)."""
    while True:
        for chunk in src.chunks(cur.take_decoded()):
            yield from src.batches(chunk)
        with src.fetching(cur):
            more = cur.fetch_more()
        if not more:
            break
    yield from src.flush()


def iter_batches(cur: Cursor, rows_per_batch: int | None = None,
                 whole: bool = False) -> tuple[Any, Iterator[Any]]:
    """(schema, generator of record batches) of the cursor's remaining rows (``whole``: as
    few batches as the decoder allows, for a table)."""
    src = _Source(cur, rows_per_batch, whole)
    return src.plan.schema, _batches(cur, src)


def reader(cur: Cursor, rows_per_batch: int | None = None) -> Any:
    pa = _arrow.require_pyarrow()
    schema, gen = iter_batches(cur, rows_per_batch)
    return pa.RecordBatchReader.from_batches(schema, gen)


def table(cur: Cursor) -> Any:
    pa = _arrow.require_pyarrow()
    schema, gen = iter_batches(cur, whole=True)
    return pa.Table.from_batches(list(gen), schema=schema)


def to_pandas(tbl: Any, kwargs: dict[str, Any]) -> Any:
    return tbl.to_pandas(**kwargs)


# ------------------------------------------------------------------------------------------
# asyncio
# ------------------------------------------------------------------------------------------


def _lob_columns(cur: Cursor) -> list[int]:
    out = []
    for i, col in enumerate(cur.result_columns()):
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


async def aiter_batches(cur: Cursor, fetch_more: Callable[[], Awaitable[bool]],
                        rows_per_batch: int | None = None, whole: bool = False
                        ) -> AsyncIterator[Any]:
    """``_batches`` for an asyncio cursor (``cur``: the sync cursor it drives), each fetch
    awaited (``fetch_more``: the asyncio cursor's), LOB values read out first."""
    src = _Source(cur, rows_per_batch, whole)
    lobs = _lob_columns(cur)
    while True:
        for items in src.chunks(cur.take_decoded()):
            if lobs:
                items = await _materialize(items, lobs)
            for batch in src.batches(items):
                yield batch
        with src.fetching(cur):
            more = await fetch_more()
        if not more:
            break
    for batch in src.flush():
        yield batch


async def atable(cur: Cursor, fetch_more: Callable[[], Awaitable[bool]]) -> Any:
    """``table`` for an asyncio cursor (arguments as ``aiter_batches``)."""
    pa = _arrow.require_pyarrow()
    cur.ensure_result()
    schema = _arrow._Plan(pa, cur.result_columns()).schema
    batches = [b async for b in aiter_batches(cur, fetch_more, whole=True)]
    return pa.Table.from_batches(batches, schema=schema)


_R = TypeVar("_R")

_ON_LOOP = (
    "a blocking Arrow stream of an asyncio cursor cannot be read on its event loop's own "
    "thread (each batch needs the loop): use 'await cur.fetch_arrow_table()' or "
    "'async for batch in cur.fetch_record_batches()', or read the stream in another thread "
    "('await asyncio.to_thread(polars.DataFrame, cur)')"
)


def _on_loop_thread(loop: asyncio.AbstractEventLoop) -> bool:
    try:
        return asyncio.get_running_loop() is loop
    except RuntimeError:
        return False


def _run_on(loop: asyncio.AbstractEventLoop, coro: Coroutine[Any, Any, _R]) -> _R:
    """Run ``coro`` on ``loop`` from synchronous code and wait for its result."""
    if _on_loop_thread(loop):
        coro.close()
        raise InterfaceError(_ON_LOOP)
    if loop.is_running():
        return asyncio.run_coroutine_threadsafe(coro, loop).result()
    if loop.is_closed():
        coro.close()
        raise InterfaceError("the asyncio connection's event loop is closed")
    return loop.run_until_complete(coro)


async def _await(aw: Awaitable[_R]) -> _R:
    """``aw`` as a coroutine (what ``run_coroutine_threadsafe`` takes: an async iterator's
    ``__anext__()`` or ``aclose()`` is only awaitable)."""
    return await aw


def blocking_reader(cur: Cursor, fetch_more: Callable[[], Awaitable[bool]],
                    loop: asyncio.AbstractEventLoop, rows_per_batch: int | None = None) -> Any:
    """A blocking ``pyarrow.RecordBatchReader`` over an asyncio cursor's remaining rows
    (arguments as ``aiter_batches``), each batch fetched on ``loop`` (module docstring: not
    on the loop's own thread)."""
    pa = _arrow.require_pyarrow()
    if _on_loop_thread(loop):
        raise InterfaceError(_ON_LOOP)
    cur.ensure_result()
    schema = _arrow.arrow_schema(cur.result_columns())
    it = aiter_batches(cur, fetch_more, rows_per_batch)

    def batches() -> Iterator[Any]:
        try:
            while True:
                try:
                    batch = _run_on(loop, _await(it.__anext__()))
                except StopAsyncIteration:
                    return
                yield batch
        finally:
            if not loop.is_closed() and not _on_loop_thread(loop):
                _run_on(loop, _await(it.aclose()))  # type: ignore[attr-defined]

    return pa.RecordBatchReader.from_batches(schema, batches())
