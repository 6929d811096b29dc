"""``ifxwire.arrow.read_partitioned``: one query read over N connections in parallel.

Why threads work here: a connection spends its fetch time in ``socket.recv`` (which releases
the GIL) and, per reply, in the C column decoder (arrowtuples.py), so N connections keep N
server sessions busy while one Python thread assembles what arrives. The server does the
heavy part (the scan), which is what parallel partitions buy.

How: one connection reads ``MIN`` and ``MAX`` of the partition column over the query (as a
derived table), the range is cut into N half-open slices, and each slice runs as
``SELECT * FROM (query) AS ifx_part WHERE col >= ? AND col < ?`` on a connection of its own,
in a thread of its own, streaming record batches (``Cursor.fetch_record_batch``) into one
bounded queue. The first slice has no lower bound and also takes the rows whose column is
NULL; the last has no upper bound: every row of the query is in exactly one slice, even rows
inserted since the MIN/MAX. Batches come out in arrival order (not the query's order).

A failure in any slice (connect, execute, fetch) stops the others: the reader raises
:class:`PartitionError` (which slice, and the original error as ``__cause__``), each thread
closes its connection when it sees the stop, and the reader waits for them. Closing the
reader early does the same.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import itertools
import queue
import threading
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from .errors import DatabaseError, NotSupportedError, ProgrammingError

__all__ = ["PartitionError", "read_partitioned"]

#: Seconds a thread waits for room in the queue before looking at the stop flag again.
_POLL = 0.05
#: Seconds the reader waits for each thread to finish after a stop (a fetch in flight).
_JOIN = 30.0


class PartitionError(DatabaseError):
    """A slice of ``read_partitioned`` failed: ``partition`` is its index (0-based; the message
    counts from 1), ``__cause__`` its own error."""

    def __init__(self, partition: int, partitions: int, where: str, cause: BaseException):
        super().__init__(f"partition {partition + 1} of {partitions} ({where}) failed: "
                         f"{type(cause).__name__}: {cause}")
        self.partition = partition
        self.cause = cause


def _identifier(name: str) -> str:
    if not name.replace("_", "a").isalnum() or name[:1].isdigit():
        raise ProgrammingError(f"read_partitioned: {name!r} is not a plain column name")
    return name


def _bounds(lo: Any, hi: Any, n: int) -> list[Any]:
    """The N - 1 cut points between ``lo`` and ``hi`` (evenly spaced; equal ones make empty
    slices, never wrong ones)."""
    if isinstance(lo, bool) or isinstance(hi, bool):
        raise NotSupportedError("read_partitioned: a BOOLEAN column has no ranges")
    if isinstance(lo, int) and isinstance(hi, int):
        span = hi - lo + 1
        return [lo + span * i // n for i in range(1, n)]
    if isinstance(lo, float) and isinstance(hi, float):
        return [lo + (hi - lo) * i / n for i in range(1, n)]
    if isinstance(lo, dt.datetime) and isinstance(hi, dt.datetime):
        return [lo + (hi - lo) * i / n for i in range(1, n)]
    if isinstance(lo, dt.date) and isinstance(hi, dt.date):
        days = (hi - lo).days + 1
        return [lo + dt.timedelta(days=days * i // n) for i in range(1, n)]
    raise NotSupportedError(
        f"read_partitioned: cannot cut a {type(lo).__name__} column into ranges "
        "(integer, float, DATE and DATETIME YEAR TO ... columns can be)")


def _connect(dsn: str | Mapping[str, Any], kwargs: Mapping[str, Any]) -> Any:
    from . import connect

    if isinstance(dsn, str):
        return connect(dsn, **kwargs)
    return connect(**{**dsn, **kwargs})


class _Slices:
    """The N threads, their queue and the stop flag (one per read_partitioned call)."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.q: queue.Queue[tuple[str, int, Any]] = queue.Queue(maxsize=2 * n)
        self.stop = threading.Event()
        self.threads: list[threading.Thread] = []
        self.wheres: list[str] = []

    def put(self, item: tuple[str, int, Any]) -> bool:
        while not self.stop.is_set():
            try:
                self.q.put(item, timeout=_POLL)
                return True
            except queue.Full:
                continue
        return False

    def run(self, i: int, conn: Any, open_conn: Any, sql: str, params: Sequence[Any],
            rows_per_batch: int | None) -> None:
        try:
            if conn is None:
                conn = open_conn()
            if self.stop.is_set():
                return
            cur = conn.cursor()
            cur.execute(sql, params)
            reader = cur.fetch_record_batch(rows_per_batch)
            if not self.put(("schema", i, reader.schema)):
                return
            for batch in reader:
                if not self.put(("batch", i, batch)):
                    return
            self.put(("done", i, None))
        except BaseException as exc:  # reported to the reader's thread, which raises it
            self.put(("error", i, exc))
        finally:
            if conn is not None:
                with contextlib.suppress(Exception):
                    conn.close()

    def finish(self) -> None:
        """Stop every thread and wait for them (each closes its own connection)."""
        self.stop.set()
        for t in self.threads:
            while t.is_alive():
                with contextlib.suppress(queue.Empty):
                    while True:  # room for a thread blocked on a full queue
                        self.q.get_nowait()
                t.join(_POLL)
                if not t.is_alive():
                    break
        for t in self.threads:
            t.join(_JOIN)

    def failed(self, i: int, exc: BaseException) -> PartitionError:
        err = PartitionError(i, self.n, self.wheres[i], exc)
        err.__cause__ = exc
        return err

    def schema(self, pending: list[Any]) -> Any:
        """The first slice's schema; items of other kinds seen meanwhile go to ``pending``."""
        while True:
            kind, i, value = self.q.get()
            if kind == "schema":
                return value
            if kind == "error":
                raise self.failed(i, value)
            pending.append((kind, i, value))

    def batches(self, pending: list[Any]) -> Iterator[Any]:
        done = 0
        try:
            while done < self.n:
                kind, i, value = pending.pop(0) if pending else self.q.get()
                if kind == "batch":
                    yield value
                elif kind == "done":
                    done += 1
                elif kind == "error":
                    raise self.failed(i, value)
        finally:
            self.finish()


def read_partitioned(
    dsn: str | Mapping[str, Any] | Sequence[str | Mapping[str, Any]],
    sql: str,
    partition_on: str,
    partitions: int = 4,
    *,
    parameters: Sequence[Any] = (),
    rows_per_batch: int | None = None,
    **connect_kwargs: Any,
) -> Any:
    """The rows of ``sql`` as one ``pyarrow.RecordBatchReader``, read as ``partitions`` ranges
    of column ``partition_on`` over as many connections in parallel.

    ``dsn`` is what :func:`ifxwire.connect` takes first (an ``informix://`` URL) or a mapping of
    its keyword arguments; ``connect_kwargs`` are added to either. A list of them names
    servers holding the same data (replicas): slice i connects to ``dsn[i % len(dsn)]``, the
    MIN/MAX is read on the first. ``sql`` must be usable as a
    derived table (no ORDER BY, as Informix requires there); ``parameters`` are its own
    placeholders' values. Batches arrive in no particular order.
    """
    from .arrow import require_pyarrow

    pa = require_pyarrow()
    if isinstance(partitions, bool) or not isinstance(partitions, int) or partitions < 1:
        raise ProgrammingError(f"partitions must be a positive int, not {partitions!r}")
    col = f"ifx_part.{_identifier(partition_on)}"
    params = tuple(parameters)
    dsns: list[str | Mapping[str, Any]] = (
        list(dsn) if isinstance(dsn, (list, tuple)) else [dsn])  # type: ignore[list-item]
    if not dsns:
        raise ProgrammingError("read_partitioned: an empty list of DSNs")
    first = _connect(dsns[0], connect_kwargs)
    try:
        cur = first.cursor()
        cur.execute(f"SELECT MIN({col}), MAX({col}) FROM ({sql}) AS ifx_part", params)
        row = cur.fetchone()
        cur.close()
        lo, hi = (None, None) if row is None else row
        base = f"SELECT * FROM ({sql}) AS ifx_part"
        if lo is None or partitions == 1:
            slices = [(base, params, "all rows")]
        else:
            cuts = _bounds(lo, hi, partitions)
            slices = [(f"{base} WHERE {col} < ? OR {col} IS NULL", (*params, cuts[0]),
                       f"{partition_on} < {cuts[0]!r} or NULL")]
            for a, b in itertools.pairwise(cuts):
                slices.append((f"{base} WHERE {col} >= ? AND {col} < ?", (*params, a, b),
                               f"{a!r} <= {partition_on} < {b!r}"))
            slices.append((f"{base} WHERE {col} >= ?", (*params, cuts[-1]),
                           f"{partition_on} >= {cuts[-1]!r}"))
    except BaseException:
        first.close()
        raise
    run = _Slices(len(slices))
    run.wheres = [w for _, _, w in slices]
    for i, (query, args, _) in enumerate(slices):
        target = dsns[i % len(dsns)]
        t = threading.Thread(
            target=run.run, name=f"ifxwire-partition-{i + 1}", daemon=True,
            args=(i, first if i == 0 else None,
                  lambda d=target: _connect(d, connect_kwargs), query, args,
                  rows_per_batch))
        run.threads.append(t)
        t.start()
    pending: list[Any] = []
    try:
        schema = run.schema(pending)
    except BaseException:
        run.finish()
        raise
    return pa.RecordBatchReader.from_batches(schema, run.batches(pending))
