"""Fast-path routine calls and SQ_LODATA from the driver: groups to send, replies to read.

The groups are exactly JDBC's (docs/PROTOCOL.md §11): ``SQ_GETROUTINE EOT`` once per routine
and connection (the handle is cached, so a repeated call is one round trip),
``SQ_EXFPROUTINE [SQ_BIND] EOT`` per call; ``SQ_LODATA EOT`` to read, ``SQ_LODATA chunks EOT`` to
write. Like JDBC's ``executeFastPath``, a call made with autocommit off in a logged database
begins the transaction first (a pipelined ``BEGIN EOT``), and in an ANSI database with
autocommit on a ``COMMIT`` follows.

Every operation is an ``Op`` (client/steps.py) run blocking by the sync connection and
awaited by the asyncio one: nothing here is written twice.
"""

from __future__ import annotations

import inspect
import mmap
from collections import deque
from collections.abc import AsyncIterable, Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from .. import errors as _e
from ..errors import Error, ProgrammingError
from ..protocol import fastpath as fp
from ..protocol.gather import add_chunks
from ..protocol.requests import BEGIN_GROUP, COMMIT_GROUP, EOT
from ..protocol.wire import Writer
from ..types import smartlob as slo
from .binds import bind_message
from .lobpieces import Pieces
from .outparams import has_markers
from .replies import Reply
from .steps import Op, Steps

if TYPE_CHECKING:
    # The session as this module needs it; the public Connection adds the PEP 249 surface
    # (and imports this module: naming it here would make an import circle).
    from .lifecycle import StatementSession as Connection

_T = TypeVar("_T")

#: SQ_LODATA write messages (each at most ``lobpieces.WRITE_MESSAGE`` bytes) in flight at
#: once (bounds the memory a large write holds).
WRITE_WINDOW = 4
#: Most bytes one SQ_LODATA read asks for: the reply is read into one buffer.
READ_MESSAGE = 1024 * 1024
#: SQ_LODATA reads in flight at once when a large read streams (``read_pipelined``).
READ_WINDOW = 3
#: Bytes per SQ_LODATA read when a whole object is copied to a file (``Blob.copy_to``), and
#: reads in flight then: a server answers each read with a fixed cost (looking the object up,
#: a reply), so 1 GiB in 4 MiB reads costs ours about 15 % less CPU than in 1 MiB reads
#: (docs/BENCHMARKS.md); the buffers stay bounded: (COPY_WINDOW + 1) × COPY_MESSAGE.
COPY_MESSAGE = 4 * 1024 * 1024
COPY_WINDOW = 2

Group = tuple[bytes, Reply]



def signature_of(name: str, args: Sequence[object]) -> str:
    """A routine signature for GETROUTINE. A full signature (``function owner.name(type, …)``
    or a name with an argument list) is used as given; a bare name gets argument types from
    the Python values — a convenience: a real server resolves overloads by these types, so
    give the signature when they are not obvious. OUT/INOUT markers belong to
    ``Cursor.callproc``: a fast-path call by signature cannot carry SQ_FPARAM (no client
    sends that form), so they are refused here."""
    if has_markers(args):
        raise ProgrammingError(
            "call_function cannot read OUT or INOUT parameters: use cursor.callproc(name, "
            "[..., ifxwire.OutParam(), ...]) (docs/DRIVER.md §18)", sqlstate="07006")
    text = name.strip()
    if "(" in text:
        return text if text.split(None, 1)[0].lower() in ("function", "procedure") else (
            f"function {text}")
    return f"function {text}({','.join(_sql_type(a) for a in args)})"


def _sql_type(value: object) -> str:
    from datetime import date, datetime, timedelta
    from decimal import Decimal

    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer" if -(2**31) < value < 2**31 else "int8"
    if isinstance(value, float):
        return "float"
    if isinstance(value, Decimal):
        return "decimal"
    if isinstance(value, datetime):
        return "datetime year to fraction(5)"
    if isinstance(value, date):
        return "date"
    if isinstance(value, timedelta):
        return "interval day(9) to fraction(5)"
    type_name = getattr(value, "type_name", None)
    if isinstance(type_name, str):
        return type_name  # Blob / Clob
    return "lvarchar"


# --------------------------------------------------------------------------------------------
# Groups
# --------------------------------------------------------------------------------------------


def getroutine_group(conn: Connection, signature: str) -> Group:
    w = Writer()
    fp.put_getroutine(w, conn._encode_sql(signature), conn._layout)
    w.raw(EOT)
    return bytes(w.buf), conn._reply()


def exfp_group(conn: Connection, database: bytes, handle: int, args: Sequence[object]) -> Group:
    w = Writer()
    fp.put_exfproutine(w, database, handle, len(args), conn._layout)
    if args:
        w.raw(bind_message(args, conn.encoding, None, conn._blob_width))
    w.raw(EOT)
    return bytes(w.buf), conn._reply()


def lodata_read_group(conn: Connection, fd: int, n: int, sink: bytearray | memoryview) -> Group:
    """Read up to ``n`` bytes at the descriptor's position into ``sink`` (a bytearray grows; a
    memoryview is filled from its start)."""
    w = Writer()
    fp.put_lodata(w, slo.LO_READ, fd, n, slo.LODATA_BUFFER)
    w.raw(EOT)
    reply = conn._reply()
    reply.lodata = sink
    reply.lodata_limit = n  # a server announcing more is refused (replies.py)
    return bytes(w.buf), reply


def lodata_write_parts(conn: Connection, fd: int, data: bytes | bytearray | memoryview
                       ) -> tuple[list[Any], Reply]:
    """One SQ_LODATA write as buffers to send gathered (protocol/gather.py): the header, the
    data in 32000-byte chunks (JDBC's size), EOT."""
    w = Writer()
    fp.put_lodata(w, slo.LO_WRITE, fd, len(data), slo.LODATA_BUFFER)
    parts: list[Any] = [bytes(w.buf)]
    add_chunks(parts, data, slo.LODATA_BUFFER)
    parts.append(EOT)
    return parts, conn._reply()


def lodata_write_group(conn: Connection, fd: int, data: bytes | bytearray | memoryview) -> Group:
    """``lodata_write_parts`` joined into one group (the asyncio driver's outbox)."""
    parts, reply = lodata_write_parts(conn, fd, data)
    return b"".join(parts), reply


def transaction_groups(conn: Connection, groups: list[Group]) -> Reply | None:
    """Prepend BEGIN when a transaction must be started (JDBC ``executeFastPath``)."""
    if not conn._transaction_needed():
        return None
    reply = conn._reply()
    groups.insert(0, (BEGIN_GROUP, reply))
    return reply


def commit_group(conn: Connection, groups: list[Group]) -> Reply | None:
    if not conn._ansi_autocommit():
        return None
    reply = conn._reply()
    groups.append((COMMIT_GROUP, reply))
    return reply


# --------------------------------------------------------------------------------------------
# Replies
# --------------------------------------------------------------------------------------------


def check(conn: Connection, *replies: Reply | None) -> None:
    """Raise the first server error among ``replies``; note a BEGIN/COMMIT that succeeded."""
    for reply in replies:
        if reply is not None and reply.error is not None:
            raise conn._server_error(reply.error)


def after_transaction(conn: Connection, begin: Reply | None, commit: Reply | None) -> None:
    check(conn, begin)
    if begin is not None:
        conn._in_txn = True
    if commit is not None:
        conn._in_txn = False
        check(conn, commit)


def routine_handle(conn: Connection, reply: Reply) -> tuple[bytes, int]:
    check(conn, reply)
    if reply.routine is None:
        raise ProgrammingError("the server sent no handle for the routine", sqlstate="HY000")
    return reply.routine


def values(conn: Connection, reply: Reply) -> list[Any]:
    check(conn, reply)
    return list(reply.fp_values or [])


def lodata_size(conn: Connection, reply: Reply) -> int:
    check(conn, reply)
    size = reply.lodata_size
    if size is None:
        raise ProgrammingError("the server did not answer SQ_LODATA", sqlstate="HY000")
    if size < 0:
        from ..errors import error_from_server

        raise error_from_server(-9810, size)
    return size


# --------------------------------------------------------------------------------------------
# Operations (run by ``Connection._run`` and ``AsyncConnection._run``)
# --------------------------------------------------------------------------------------------


def routine_op(conn: Connection, signature: str) -> Op[tuple[bytes, int]]:
    """The cached (database, handle) of ``signature`` on this connection (GETROUTINE once).
    """
    key = (conn._database, signature)
    cached = conn._routines.get(key)
    if cached is not None:
        return cached
    group = getroutine_group(conn, signature)
    yield [group]
    found = routine_handle(conn, group[1])
    conn._routines[key] = found
    return found


def call_op(conn: Connection, signature: str, args: Sequence[object]) -> Op[list[Any]]:
    """Run a routine by fast path (the caller holds the lock); every return value."""
    conn._check()
    database, handle = yield from routine_op(conn, signature)
    groups = [exfp_group(conn, database, handle, args)]
    reply = groups[0][1]
    begin = transaction_groups(conn, groups)
    commit = commit_group(conn, groups)
    yield groups
    after_transaction(conn, begin, commit)
    return values(conn, reply)


def read_into_op(conn: Connection, fd: int, sink: bytearray | memoryview, n: int) -> Op[int]:
    """One SQ_LODATA read of up to ``n`` bytes into ``sink`` (the caller holds the lock)."""
    conn._check()
    group = lodata_read_group(conn, fd, n, sink)
    yield [group]
    return lodata_size(conn, group[1])


def run(conn: Connection, op: Op[_T]) -> _T:
    """Run ``op`` blocking, holding the connection's lock (fast-path calls, ifxwire.cdc's
    reads); ``AsyncConnection.run`` awaits the same operations."""
    with conn._lock:
        return conn._run(op)


def read_into(conn: Connection, fd: int, sink: bytearray | memoryview, n: int) -> int:
    """One SQ_LODATA read of up to ``n`` bytes into ``sink``, blocking; returns the bytes
    read."""
    return run(conn, read_into_op(conn, fd, sink, n))


def call(conn: Connection, signature: str, args: Sequence[object]) -> list[Any]:
    """Run a routine by fast path; every return value, in order."""
    return run(conn, call_op(conn, signature, args))


class ReadPlan:
    """The bookkeeping of pipelined SQ_LODATA reads, shared by the sync and asyncio drivers:
    which destination each request fills, when to stop asking, what came back."""

    def __init__(self, sinks: Iterable[memoryview], window: int = READ_WINDOW) -> None:
        self.sinks = iter(sinks)
        self.window = window
        self.pending: deque[tuple[Reply, memoryview]] = deque()
        self.total = 0
        self.ended = False  # a short answer came: the object's end

    def next_request(self, conn: Connection, fd: int) -> Group | None:
        """The next read to send, or None (window full, at the end, or no more sinks)."""
        if self.ended or len(self.pending) >= self.window:
            return None
        sink = next(self.sinks, None)
        if sink is None or not len(sink):
            self.ended = True
            return None
        group = lodata_read_group(conn, fd, len(sink), sink)
        self.pending.append((group[1], sink))
        return group

    def answered(self, conn: Connection, reply: Reply, sink: memoryview) -> memoryview:
        """The data a read's reply put in its sink (a short one ends the stream)."""
        got = lodata_size(conn, reply)
        if got < len(sink):
            self.ended = True
        self.total += got
        return sink[:got]


def read_pipelined_op(
    conn: Connection,
    fd: int,
    sinks: Iterable[memoryview],
    on_data: Callable[[memoryview], object] | None = None,
    window: int = READ_WINDOW,
) -> Op[int]:
    """Stream from the descriptor's position with ``window`` SQ_LODATA reads in flight: each
    request fills the next view ``sinks`` gives (as many bytes as it is long), and ``on_data``
    gets the filled part, in order (it may return an awaitable on an asyncio connection: an
    async file's ``write``). Stops at the object's end (a short answer) or when the sinks run
    out; returns the bytes read. A sink may be reused once ``on_data`` had it, so ``window``
    rotating buffers are enough. The caller holds the lock."""
    conn._check()
    if conn._deferred:
        yield []
    got: int = yield _read_pipelined_steps(conn, fd, ReadPlan(sinks, window), on_data)
    return got


def _read_pipelined_steps(
    conn: Connection, fd: int, plan: ReadPlan, on_data: Callable[[memoryview], object] | None
) -> Steps[int]:
    """``read_pipelined_op``'s sends and reads (``Connection._read_steps``). On a server
    error the replies in flight are still read (the wire stays in step); an interruption
    that is not an error (a cancellation) leaves them unread, so it breaks the connection."""
    try:
        while True:
            while (group := plan.next_request(conn, fd)) is not None:
                conn._send(group[0])
            if not plan.pending:
                return plan.total
            reply, sink = plan.pending.popleft()
            yield from conn._read_steps(reply)
            data = plan.answered(conn, reply, sink)
            if on_data is not None and len(data):
                result = on_data(data)
                if inspect.isawaitable(result):
                    yield result
    except BaseException as exc:
        plan.ended = True
        if not isinstance(exc, Exception):
            if not conn.broken:
                conn._fail(_e.connection_lost("an SQ_LODATA read was interrupted"))
            raise
        for reply, _ in plan.pending:
            if conn.broken:
                break
            yield from conn._read_steps(reply)
        raise


def rotating(size: int, count: int = READ_WINDOW + 1) -> Iterator[memoryview]:
    """Endless views over ``count`` buffers of ``size`` bytes, in turn.

    The buffers are anonymous maps, whose pages stay unallocated until data is written into
    them: a read of a small object touches a few pages. ``bytearray(size)`` zeroed all of
    them, 4 MiB per ``Blob.read()``: ~3 ms of CPU for a 64 KiB BLOB, 12 times its transfer
    (24th session, found by arrow15's Arrow LOB bench)."""
    views = [memoryview(mmap.mmap(-1, size)) for _ in range(count)]
    while True:
        yield from views


def write_pieces_op(
    conn: Connection,
    fd: int,
    pieces: Pieces,
    on_piece: Callable[[int], None] | None = None,
) -> Op[int]:
    """Write every piece (each at most WRITE_MESSAGE bytes) in pipelined SQ_LODATA groups,
    WRITE_WINDOW of them in flight; returns the bytes written. ``pieces`` may be an async
    iterable on an asyncio connection (an async file's data). If the piece source raises,
    the groups already sent are still answered (the wire stays in step) and its exception
    propagates. The caller holds the lock."""
    conn._check()
    begin: list[Group] = []
    started = transaction_groups(conn, begin)
    if begin or conn._deferred:
        yield begin  # BEGIN, and anything deferred, before the data flows
        after_transaction(conn, started, None)
    total: int = yield _write_pieces_steps(conn, fd, pieces, on_piece)
    commit: list[Group] = []
    if commit_group(conn, commit) is not None:
        yield commit
        after_transaction(conn, None, commit[0][1])
    return total


def _write_pieces_steps(
    conn: Connection, fd: int, pieces: Pieces, on_piece: Callable[[int], None] | None
) -> Steps[int]:
    total = 0
    pending: list[Group] = []
    aiter_ = pieces.__aiter__() if isinstance(pieces, AsyncIterable) else None
    it = iter(pieces) if aiter_ is None else None  # type: ignore[arg-type]
    try:
        while True:
            try:
                if aiter_ is not None:
                    piece = yield aiter_.__anext__()
                else:
                    assert it is not None
                    piece = next(it)
            except (StopIteration, StopAsyncIteration):
                break
            except Exception:
                # The source failed: answer what was sent, then let its exception through.
                yield from _drain_steps(conn, pending, None, raise_errors=False)
                raise
            if not len(piece):
                continue
            parts, reply = lodata_write_parts(conn, fd, piece)
            conn._send_parts(parts)
            pending.append((b"", reply))
            if len(pending) >= WRITE_WINDOW:
                total += yield from _drain_steps(conn, pending[:1], on_piece)
                del pending[:1]
        total += yield from _drain_steps(conn, pending, on_piece)
    except Error:
        raise
    except BaseException as exc:
        if not conn.broken and not isinstance(exc, Exception):
            conn._fail(_e.connection_lost(
                "an SQ_LODATA write was interrupted while its replies were pending"))
        raise
    return total


def _drain_steps(
    conn: Connection,
    groups: list[Group],
    on_piece: Callable[[int], None] | None,
    raise_errors: bool = True,
) -> Steps[int]:
    """Read the replies of ``groups`` (already sent); the first server error is raised after
    all of them were read."""
    done = 0
    first_error: Reply | None = None
    for _, reply in groups:
        yield from conn._read_steps(reply)
        if reply.error is not None:
            first_error = first_error or reply
            continue
        size = reply.lodata_size or 0
        done += size
        if on_piece is not None:
            on_piece(size)
    if first_error is not None and raise_errors:
        check(conn, first_error)
    return done
