"""``adbc_ingest`` for the sync and asyncio cursors: the table made as asked, then every row
of the Arrow input sent through one pipelined executemany (client/batch.py) without a Python
tuple per row: each record batch, a slice of ``SLICE_ROWS`` rows at a time, is encoded column
by column into its ``ID BIND EXECUTE EOT`` groups (client/arrowbind.py). A slice the column
encoder hands back (BYTE data, a value it would not encode as the tuple path does) goes as
tuples through the same pipeline, so every row keeps its index and its own error.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import Any, Protocol

from .. import arrow as _arrow
from ..errors import ProgrammingError
from . import arrowbind
from .batch import (
    CHUNK_ROWS,
    BatchCursor,
    Filler,
    Pipeline,
    pipeline_steps,
    queue_encoded,
    queue_sets,
    raise_batch_errors,
)
from .placeholders import SqlPlan, plan_sql

__all__ = ["EXISTS_SQL", "SLICE_ROWS", "Ingest", "filler", "ingest_op", "plan_ingest"]

#: Rows encoded together: four pipeline chunks (client/batch.py CHUNK_ROWS). Why no more: while
#: the client encodes, the server has only the window's unanswered groups to run (at most
#: MAX_IN_FLIGHT = 1,024, ~3 ms of a mixed row's server work); a 32,768-row slice (~30 ms to
#: encode) left it idle for most of that time, ~1 s per million mixed rows (issue 25,
#: docs/BENCHMARKS.md *adbc_ingest: the encoding overlapped with the server*). Why no fewer: each
#: encoder call costs ~0.3 ms of its own (512-row slices: 1.4 us a mixed row, 2,048: 0.8 us).
SLICE_ROWS = 4 * CHUNK_ROWS
#: Whether the table exists (temp tables are not in systables: they count as absent).
EXISTS_SQL = "SELECT 1 FROM systables WHERE tabname = ?"



class IngestCursor(BatchCursor, Protocol):
    """What ``ingest_op`` needs of the sync ``Cursor`` (a Protocol, so that this module stays
    out of the connection/cursor import circle)."""

    def query_op(self, sql: str, args: Sequence[object] = (),
                 describe: bool = False) -> Generator[Any, Any, Any]: ...
    def execute_args(self, operation: str, parameters: object) -> Any: ...
    def execute_op(self, operation: str, args: Any) -> Generator[Any, Any, Any]: ...


_INGEST_MODES = ("create", "append", "replace", "create_append")


def _sql_type(pa: Any, t: Any) -> str:
    """The Informix column type ``mode="create"`` gives an Arrow type (docs/ARROW.md)."""
    types = pa.types
    if types.is_boolean(t):
        return "BOOLEAN"
    if types.is_int8(t) or types.is_int16(t) or types.is_uint8(t):
        return "SMALLINT"
    if types.is_int32(t) or types.is_uint16(t):
        return "INTEGER"
    if types.is_int64(t) or types.is_uint32(t):
        return "BIGINT"
    if types.is_float16(t) or types.is_float32(t):
        return "SMALLFLOAT"
    if types.is_float64(t):
        return "FLOAT"
    if types.is_decimal(t) and t.precision <= 32:
        return f"DECIMAL({t.precision},{t.scale})"
    if types.is_string(t) or types.is_large_string(t) or types.is_string_view(t):
        return "LVARCHAR(32739)"
    if types.is_binary(t) or types.is_large_binary(t) or types.is_fixed_size_binary(t):
        return "BYTE"
    if types.is_date(t):
        return "DATE"
    if types.is_timestamp(t):
        if t.tz is not None:
            raise _unsupported(t, "Informix DATETIME has no time zone; convert to naive first")
        return {"s": "DATETIME YEAR TO SECOND", "ms": "DATETIME YEAR TO FRACTION(3)"}.get(
            t.unit, "DATETIME YEAR TO FRACTION(5)")
    if types.is_time(t):
        return "DATETIME HOUR TO FRACTION(5)"
    if types.is_duration(t):
        return "INTERVAL DAY(9) TO FRACTION(5)"
    raise _unsupported(t, "no Informix column type is derived for it")


#: Bytes a row of the other column types takes at most (systables.rowsize counting), for
#: sharing Informix's 32,767-byte row among the string columns.
_FIXED_SIZES = {"BOOLEAN": 2, "SMALLINT": 2, "INTEGER": 4, "BIGINT": 8, "SMALLFLOAT": 4,
                "FLOAT": 8, "BYTE": 56, "DATE": 4}
_ROW_LIMIT = 32767


def _sized_strings(types: list[str]) -> list[str]:
    """String columns share what the row limit leaves after the other columns (at most
    LVARCHAR(32739) each): a row over 32,767 bytes is -499 on Informix, as a table of one
    LVARCHAR(32739) and a few numbers would be. A value longer than its column is refused by
    the server on insert (-1279), never cut."""
    strings = [i for i, t in enumerate(types) if t.startswith("LVARCHAR")]
    if not strings:
        return types
    fixed = sum(_FIXED_SIZES.get(t, 17) for t in types if not t.startswith("LVARCHAR"))
    share = min(32739, (_ROW_LIMIT - 256 - fixed) // len(strings) - 4)
    if share < 1:
        raise _unsupported(types, "too many string columns for one Informix row")
    return [f"LVARCHAR({share})" if i in strings else t for i, t in enumerate(types)]


def _unsupported(t: Any, why: str) -> Exception:
    from ..errors import NotSupportedError

    return NotSupportedError(f"adbc_ingest: Arrow type {t}: {why}")


def _as_reader(pa: Any, data: Any) -> Any:
    """Any Arrow-compatible input as a RecordBatchReader (Table, batch, reader, pandas,
    anything with ``__arrow_c_stream__``)."""
    if isinstance(data, pa.RecordBatchReader):
        return data
    if isinstance(data, pa.Table):
        return data.to_reader()
    if isinstance(data, pa.RecordBatch):
        return pa.RecordBatchReader.from_batches(data.schema, [data])
    if hasattr(data, "__arrow_c_stream__"):
        return pa.RecordBatchReader.from_stream(data)
    if type(data).__module__.startswith("pandas"):
        return pa.Table.from_pandas(data, preserve_index=False).to_reader()
    raise ProgrammingError(f"adbc_ingest: {type(data).__name__} is not Arrow-compatible data")


def _quote(name: str) -> str:
    """Table and column names are plain identifiers (no quoting, no SQL from data)."""
    if not name.replace("_", "a").isalnum() or name[:1].isdigit():
        raise ProgrammingError(f"adbc_ingest: {name!r} is not a plain identifier")
    return name


@dataclass
class Ingest:
    """What an ``adbc_ingest`` call does, decided before any I/O but the existence check."""

    pa: Any
    reader: Any
    table: str
    tabname: str
    mode: str
    create_sql: str
    insert_sql: str

    def ddl(self, exists: bool) -> list[str]:
        """The statements to run before inserting, given whether the table exists."""
        mode = self.mode
        if mode == "create" and exists:
            raise ProgrammingError(
                f"adbc_ingest: table {self.tabname!r} already exists (mode='create')")
        if mode == "append" and not exists:
            raise ProgrammingError(
                f"adbc_ingest: table {self.tabname!r} does not exist (mode='append')")
        if mode == "replace" and exists:
            return [f"DROP TABLE {self.table}", self.create_sql]
        return [] if exists else [self.create_sql]

    def batches(self) -> Iterator[Any] | None:
        """The input's non-empty record batches, or None when there is no row at all."""
        it = (b for b in self.reader if b.num_rows)
        first = next(it, None)
        return None if first is None else chain([first], it)


def plan_ingest(table_name: str, data: Any, mode: str) -> Ingest:
    pa = _arrow.require_pyarrow()
    if mode not in _INGEST_MODES:
        raise ProgrammingError(f"adbc_ingest mode must be one of {_INGEST_MODES}, not {mode!r}")
    reader = _as_reader(pa, data)
    schema = reader.schema
    table = _quote(table_name)
    names = [_quote(f.name) for f in schema]
    create = ""
    if mode != "append":
        types = _sized_strings([_sql_type(pa, f.type) for f in schema])
        cols = ", ".join(
            f"{n} {ty}" + ("" if f.nullable else " NOT NULL")
            for n, ty, f in zip(names, types, schema, strict=True))
        create = f"CREATE TABLE {table} ({cols})"
    insert = f"INSERT INTO {table} ({', '.join(names)}) VALUES ({', '.join('?' * len(names))})"
    return Ingest(pa, reader, table, table_name.lower(), mode, create, insert)


def filler(cur: BatchCursor, pa: Any, plan: SqlPlan, batches: Iterator[Any]) -> Filler:
    """The pipeline's rows: each batch's slices encoded column-wise, or as tuples when the
    column encoder declines one (or the cursor has user dumpers, which take Python values)."""
    encoding = cur.session.encoding
    columns = arrowbind.available() and not cur._active_adapters().has_user_dumpers

    def fill(pipe: Pipeline, head: bytes) -> Any:
        index = 0
        for batch in batches:
            for start in range(0, batch.num_rows, SLICE_ROWS):
                part = batch.slice(start, SLICE_ROWS)
                got = arrowbind.encode_batch(pa, part, head, encoding) if columns else None
                if got is not None:
                    index = yield from queue_encoded(pipe, got[0], got[1], index)
                    continue
                rows = list(zip(*[c.to_pylist() for c in part.columns], strict=True))
                index = yield from queue_sets(cur, pipe, plan, head, iter(rows[1:]), rows[0],
                                              index)
        return index

    return fill


def ingest_op(cur: IngestCursor, ing: Ingest) -> Generator[Any, Any, int]:
    """``adbc_ingest`` as one cursor operation, run by ``Cursor.run`` or awaited by
    ``AsyncCursor.run``: the existence check, the DDL ``ing`` asks for, then one pipelined
    batch of every row; the rows inserted."""
    exists = (yield from cur.query_op(EXISTS_SQL, (ing.tabname,))) is not None
    for sql in ing.ddl(exists):
        yield from cur.execute_op(sql, cur.execute_args(sql, None))
    batches = ing.batches()
    if batches is None:
        cur.rowcount = 0
        return 0
    plan = plan_sql(ing.insert_sql)
    cur._reset()
    p, _ = yield from cur.session._statement_op(ing.insert_sql, plan)
    pipe, index = yield pipeline_steps(cur, p, filler(cur, ing.pa, plan, batches))
    raise_batch_errors(pipe)
    return int(index)
