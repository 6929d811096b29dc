"""Pipelined ``executemany``: one PREPARE, then ``ID BIND EXECUTE EOT`` per row, streamed.

Rows are encoded and sent in chunks (up to ``CHUNK_BYTES`` or ``CHUNK_ROWS`` per ``send``) while
at most ``MAX_IN_FLIGHT`` groups wait for their replies; a chunk waits for room before it is
sent, so the next one is encoded while the server has the whole window to run. Replies are a
few dozen bytes each, so that window always fits in the socket buffers: the server never blocks
writing replies we are not reading, and we never block writing requests it is not reading.
Neither side deadlocks, and memory stays bounded whatever the batch size: the parameter sets
are consumed lazily, so a generator works and is never materialised. informix-driver sends the
same per-row group, one ``sendall`` per row, after building every PDU in memory
(peer-informix-driver.md 2.8).

Outcome: every row is attempted. The server answers every group even after a failure, so one
bad row does not stop the others. Afterwards, if any row failed, the first failure is raised
with ``row_index`` and ``errors`` (all failures) attached; ``rowcount`` is the sum over the
successful rows either way. The connection stays usable.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import struct
import time
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from .. import _accel
from ..errors import DatabaseError, Error, ProgrammingError, connection_lost
from ..protocol import messages as m
from ..protocol.codes import Msg
from ..protocol.messages import Done
from ..protocol.requests import BEGIN_GROUP, COMMIT_GROUP, EXECUTE_EOT, id_head
from .binds import bind_message, rows_encoder
from .cancel import timeout_scope
from .lobparams import stores_values
from .placeholders import SqlPlan, arrange, param_rows, plan_sql
from .replies import Reply
from .steps import Op

if TYPE_CHECKING:
    from contextlib import AbstractContextManager

    from ..types.adapters import AdaptersMap
    from .statements import Prepared
    from .transport import Transport

__all__ = [
    "CHUNK_BYTES",
    "CHUNK_ROWS",
    "MAX_IN_FLIGHT",
    "Pipeline",
    "PipelineState",
    "execute_many",
    "execute_many_op",
    "execute_many_steps",
    "pipeline_steps",
    "queue_encoded",
    "queue_sets",
]

log = logging.getLogger("ifxwire.client")

_T = TypeVar("_T")


class BatchSession(Protocol):
    """What a pipelined batch needs of the sync ``Connection`` (the asyncio driver hands
    its core): named here so that this module, and the Arrow ingest built on it, stay out
    of the connection/cursor import circle (tests/unit/test_driver_core.py)."""

    encoding: str
    _in_txn: bool
    _deferred: list[bytes]

    @property
    def broken(self) -> bool: ...
    @property
    def _layout(self) -> m.Layout: ...
    @property
    def _transport(self) -> Transport: ...
    @property
    def _blob_width(self) -> int: ...
    @property
    def _lock(self) -> AbstractContextManager[Any]: ...

    def _check(self) -> None: ...
    def _fail(self, exc: Exception) -> None: ...
    def _send(self, data: bytes | bytearray) -> None: ...
    def _read_steps(self, reply: Reply) -> Generator[int | memoryview, int, Reply]: ...
    def _server_error(self, err: m.ServerError) -> DatabaseError: ...
    def _statement(self, sql: str, plan: SqlPlan) -> tuple[Prepared, bool]: ...
    def _statement_op(self, sql: str, plan: SqlPlan) -> Op[tuple[Prepared, bool]]: ...
    def _run(self, op: Op[_T], hooks: object = None) -> _T: ...
    def _drive(self, steps: Generator[Any, Any, _T], fail: bool = True) -> _T: ...
    def _retire(self, p: Prepared) -> None: ...
    def _needs_begin(self, p: Prepared) -> bool: ...
    def _ansi_autocommit(self) -> bool: ...
    _lob_txn: bool
    def _lob_txn_end_op(self, commit: bool) -> Op[None]: ...
    def _after_statement(self, p: Prepared, done: Done | None) -> None: ...


class BatchCursor(Protocol):
    """What a pipelined batch needs of the sync ``Cursor``."""

    rowcount: int
    lastrowid: int | None
    statement_timeout: float | None

    @property
    def session(self) -> BatchSession: ...

    def _reset(self) -> None: ...
    def _active_adapters(self) -> AdaptersMap: ...
    def lob_sets_op(self, p: Prepared, plan: SqlPlan, first: object, rest: Iterator[object]
                    ) -> Op[list[Sequence[object]] | None]: ...

CHUNK_BYTES = 64 * 1024
# (1,024 groups in flight, 512 a chunk, was 512/256: the server runs what it has received of
# an INSERT's rows as one batch with a fixed cost each, docs/SERVER.md *Bulk inserts*; the
# replies of 1,024 groups, a few dozen bytes each, still fit any socket buffer: module doc.)
CHUNK_ROWS = 512
MAX_IN_FLIGHT = 1024

_DEFERRED = -2
_BEGIN = -1
_COMMIT = -3
_END = object()
_RUN = 128  # [COST] EOT-ended DONE replies per slice in the pure reply loop (ReplyTally._read_fast)

_DONE = int(Msg.DONE)
_INSERTDONE = int(Msg.INSERTDONE)
_EOT = int(Msg.EOT)
_COST = int(Msg.COST)
#: What ``_tags_hold`` compares a slice's tag bytes with (high bytes, low bytes), _RUN long.
_ZEROS = bytes(_RUN)
_DONES, _EOTS, _COSTS = bytes([_DONE]) * _RUN, bytes([_EOT]) * _RUN, bytes([_COST]) * _RUN


def _fast_replies(
    layout: m.Layout,
) -> tuple[struct.Struct, struct.Struct, struct.Struct, struct.Struct]:
    """The structs of a row reply's parts, with the field widths ``layout`` fixes
    (messages.read_done / read_insertdone).

    The first two are whole replies, read in runs: ``SQ_DONE SQ_EOT`` (what our server sent an
    EXECUTE until the nineteenth session) and ``SQ_DONE SQ_COST SQ_EOT`` (what real servers
    send, and ours since: docs/PROTOCOL.md §6/§17); the other two are the bodies after their
    tags: DONE (i16 warnings, rows and rowid as i32 or i64 with long_rowid, i32 serial) and
    INSERTDONE (an INT8: i16 sign, u32 low, u32 high; with bigint an i64 bigserial).
    """
    wide = "q" if layout.long_rowid else "i"
    done = f">h{wide}{wide}i"
    insert = ">hII" + ("q" if layout.bigint else "")
    return (
        struct.Struct(">H" + done[1:] + "H"),
        struct.Struct(">H" + done[1:] + "HiiH"),
        struct.Struct(done),
        struct.Struct(insert),
    )


def _tags_hold(chunk: bytearray, size: int, cost_at: int, k: int) -> bool:
    """Whether each of the ``k`` replies of ``size`` bytes in ``chunk`` starts with SQ_DONE,
    ends with SQ_EOT and, if ``cost_at``, has SQ_COST there: every tag's two bytes taken
    across the replies by one extended slice each (the tags' codes are below 256), so the
    pure reply loop checks a slice, not each reply."""
    zeros = _ZEROS[:k]
    end = size - 2
    if (chunk[0::size] != zeros or chunk[1::size] != _DONES[:k]
            or chunk[end::size] != zeros or chunk[end + 1 :: size] != _EOTS[:k]):
        return False
    return not cost_at or (chunk[cost_at::size] == zeros
                           and chunk[cost_at + 1 :: size] == _COSTS[:k])


def _row_error(index: int, err: DatabaseError) -> DatabaseError:
    """A copy of ``err`` (same class and numbers) whose message names the row."""
    new = type(err)(
        f"executemany row {index}: {err.message}",
        sqlcode=err.sqlcode,
        isamcode=err.isamcode,
        sqlstate=err.sqlstate,
        offset=err.offset,
        near=err.near,
    )
    new._near_in_message = err._near_in_message
    return new


class ReplyTally:
    """What the row replies of a batch added up to, and the fast path that reads them (the
    sync and asyncio pipelines share it)."""

    def __init__(self, layout: m.Layout) -> None:
        self.rows = 0
        self.lastrowid: int | None = None
        self._last_done: Done | None = None
        #: The fields of the last SQ_DONE read by the fast path (a Done is built only if asked).
        self._last_fields: tuple[int, int, int, int] | None = None
        (self._done_eot, self._done_cost_eot, self._done_body,
         self._insert_body) = _fast_replies(layout)
        self._scan = _accel.reply_scanner()
        self._scan_layout = (
            bool(layout.long_rowid), bool(layout.bigint), _DONE, _INSERTDONE, _EOT, _COST)

    @property
    def last_done(self) -> Done | None:
        fields = self._last_fields
        if fields is not None:
            return Done(*fields)
        return self._last_done

    def _count_reply(self, done: Done | None, serial: int) -> None:
        """A row reply read by the Reply parser (not an error)."""
        if done is not None:
            self.rows += max(done.rows, 0)
            self._last_done = done
            self._last_fields = None
        if serial:
            self.lastrowid = serial

    def _other_reply(
        self, buf: bytearray, pos: int, end: int
    ) -> tuple[int, tuple[int, int, int, int], int] | None:
        """One row reply at ``pos`` other than a plain DONE EOT, complete before ``end``:
        (the position after it, its DONE's (warnings, rows, rowid, serial), its serial), or
        None for anything else.

        Accepted: ``[INSERTDONE] DONE [INSERTDONE] [COST] EOT`` with one INSERTDONE at most.
        Real servers put SQ_INSERTDONE before SQ_DONE and follow an EXECUTE's DONE with
        SQ_COST (nmap, informix-driver: docs/PROTOCOL.md §17); our server sends INSERTDONE
        after DONE and no COST. The serial is the bigserial, else the INT8 serial8, else
        DONE's serial, as ``_settle`` takes them from a parsed Reply.
        """
        done_body = self._done_body
        insert_body = self._insert_body
        ins: tuple[int, ...] | None = None
        if end - pos < 2:
            return None
        code = (buf[pos] << 8) | buf[pos + 1]
        if code == _INSERTDONE:
            if end - pos < 4 + insert_body.size:
                return None
            ins = insert_body.unpack_from(buf, pos + 2)
            pos += 2 + insert_body.size
            code = (buf[pos] << 8) | buf[pos + 1]
        if code != _DONE or end - pos < 4 + done_body.size:
            return None
        fields: tuple[int, int, int, int] = done_body.unpack_from(buf, pos + 2)
        pos += 2 + done_body.size
        code = (buf[pos] << 8) | buf[pos + 1]
        if code == _INSERTDONE and ins is None:
            if end - pos < 4 + insert_body.size:
                return None
            ins = insert_body.unpack_from(buf, pos + 2)
            pos += 2 + insert_body.size
            code = (buf[pos] << 8) | buf[pos + 1]
        if code == _COST:
            if end - pos < 12:
                return None
            pos += 10
            code = (buf[pos] << 8) | buf[pos + 1]
        if code != _EOT:
            return None
        serial = 0
        if ins is not None:
            sign, low, high = ins[0], ins[1], ins[2]
            mag = (high << 32) | low
            serial = (-mag if sign < 0 else mag) if sign else 0
            if len(ins) == 4:
                serial = ins[3] or serial  # the bigserial, else the serial8
        return pos + 2, fields, serial or fields[3]

    def _read_fast(self, conn: BatchSession, limit: int) -> int:
        """Consume up to ``limit`` row replies that are ``[INSERTDONE] DONE [INSERTDONE]
        [COST] EOT`` and already complete in the receive buffer; the count consumed (0 sends
        the next reply to the Reply path). One call per buffer's worth of replies, not per
        row."""
        t = conn._transport
        scan = self._scan
        if scan is not None:
            pos, count, rows_sum, fields, lastrowid = scan(
                t.buf, t.start, t.end, limit, *self._scan_layout
            )
            if count:
                t.start = pos
                self.rows += rows_sum
                self._last_fields = fields
                if lastrowid is not None:
                    self.lastrowid = lastrowid
            return count
        buf = t.buf
        pos = t.start
        end = t.end
        done_eot = self._done_eot
        cost_eot = self._done_cost_eot
        after_done = 2 + self._done_body.size  # where the tag after DONE's body starts
        count = rows_sum = 0
        fields = None
        lastrowid = self.lastrowid
        while count < limit and pos < end:
            # A run of DONE EOT or DONE COST EOT replies (our server's and real servers'
            # answer to an INSERT) read by iter_unpack: one struct unpack per reply, not a
            # read of the buffer per field; it stops at the first reply of another form,
            # taken below. The run's shape is the first
            # reply's: the low byte of the tag after DONE's body (EOT and COST are below 256).
            # At most _RUN replies per slice: a slice copies its bytes, and one over the whole
            # rest of the buffer before every reply of another form made a buffer of them
            # cost its size squared.
            run = None
            if end - pos >= after_done + 2 and buf[pos] == 0 and buf[pos + 1] == _DONE:
                tag = buf[pos + after_done + 1]
                if tag == _EOT:
                    run = done_eot
                elif tag == _COST:
                    run = cost_eot
            k = size = 0
            if run is not None:
                size = run.size
                k = min(limit - count, (end - pos) // size, _RUN)
            last = None
            if run is not None and k:
                costed = run is cost_eot
                taken = 0
                chunk = buf[pos : pos + k * size]
                if _tags_hold(chunk, size, after_done if costed else 0, k):
                    # Every reply of the slice has the run's tags (checked per slice, in C):
                    # the loop only adds up (issue 24's 3 % check: 9 bytecodes per row less).
                    for got in run.iter_unpack(chunk):
                        rows = got[2]
                        if rows > 0:
                            rows_sum += rows
                        serial = got[4]
                        if serial:
                            lastrowid = serial
                    taken = k
                    last = got
                else:
                    for got in run.iter_unpack(chunk):
                        if (got[0] != _DONE or got[-1] != _EOT
                                or (costed and got[5] != _COST)):
                            break
                        rows = got[2]
                        if rows > 0:
                            rows_sum += rows
                        serial = got[4]
                        if serial:
                            lastrowid = serial
                        last = got
                        taken += 1
                pos += taken * size
                count += taken
                if last is not None:
                    fields = last[1:5]
                    if count == limit:
                        break
                if taken:
                    continue  # the next reply may start a run of the same or the other shape
            # One reply of another form (docs/PROTOCOL.md §17), or anything else (stop).
            other = self._other_reply(buf, pos, end)
            if other is None:
                break
            pos, fields, serial = other
            if serial:
                lastrowid = serial
            if fields[1] > 0:
                rows_sum += fields[1]
            count += 1
        if count:
            t.start = pos
            self.rows += rows_sum
            self._last_fields = fields
            self.lastrowid = lastrowid
        return count

class PipelineState(ReplyTally):
    """What the sync and asyncio pipelines share: the chunk of groups being built, what the
    unanswered groups expect back, and the reading that needs no I/O. The subclasses send,
    and wait for replies (awaiting or not)."""

    DEFERRED = _DEFERRED
    BEGIN = _BEGIN
    COMMIT = _COMMIT

    def __init__(self, layout: m.Layout) -> None:
        super().__init__(layout)
        #: What the unanswered groups are, in order: a DEFERRED/BEGIN/COMMIT marker, or a
        #: run of consecutive rows [next row index, end index).
        self.expect: deque[int | list[int]] = deque()
        self.in_flight = 0  # groups sent (or queued) and not answered yet
        self.chunk: list[bytes] = []
        self.chunk_bytes = 0
        self.chunk_rows = 0
        self.chunk_groups = 0  # groups in ``chunk`` (rows and markers), not sent yet
        self.errors: list[tuple[int, DatabaseError]] = []
        self.begin_error: DatabaseError | None = None
        self.commit_error: DatabaseError | None = None

    def _queue(self, group: bytes, tag: int) -> bool:
        """A marker's group (DEFERRED, BEGIN, COMMIT); True when the chunk is to be sent."""
        self.chunk.append(group)
        self.expect.append(tag)
        self.in_flight += 1
        self.chunk_groups += 1
        self.chunk_bytes += len(group)
        return self.chunk_bytes >= CHUNK_BYTES or self.chunk_rows >= CHUNK_ROWS

    def _queue_row(self, head: bytes, bind: bytes, index: int) -> bool:
        """Row ``index``'s group, ``head + bind + EXECUTE EOT``, without building its bytes."""
        chunk = self.chunk
        chunk.append(head)
        chunk.append(bind)
        chunk.append(EXECUTE_EOT)
        self._expect_rows(index, 1)
        self.chunk_bytes += len(head) + len(bind) + 4
        self.chunk_rows += 1
        return self.chunk_bytes >= CHUNK_BYTES or self.chunk_rows >= CHUNK_ROWS

    def _queue_rows(self, chunk: bytes, first: int, count: int) -> bool:
        """``count`` row groups encoded together (binds.rows_encoder), rows ``first`` on."""
        self.chunk.append(chunk)
        self._expect_rows(first, count)
        self.chunk_bytes += len(chunk)
        self.chunk_rows += count
        return self.chunk_bytes >= CHUNK_BYTES or self.chunk_rows >= CHUNK_ROWS

    def _expect_rows(self, first: int, count: int) -> None:
        expect = self.expect
        last = expect[-1] if expect else None
        if type(last) is list and last[1] == first:
            last[1] += count
        else:
            expect.append([first, first + count])
        self.in_flight += count
        self.chunk_groups += count

    def room(self) -> tuple[int, int]:
        """How many rows and bytes the current chunk still takes before it is sent."""
        return CHUNK_ROWS - self.chunk_rows, CHUNK_BYTES - self.chunk_bytes

    def _take_chunk(self) -> bytes:
        data = b"".join(self.chunk)
        self.chunk = []
        self.chunk_bytes = 0
        self.chunk_rows = 0
        self.chunk_groups = 0
        return data

    def _read_rows(self, conn: BatchSession) -> int:
        """The fast path over the run of rows at the front of ``expect``: how many it read
        from what is already in the receive buffer (no I/O)."""
        expect = self.expect
        if not expect:
            return 0
        run = expect[0]
        if type(run) is not list:
            return 0
        count = self._read_fast(conn, run[1] - run[0])
        if count:
            run[0] += count
            if run[0] == run[1]:
                expect.popleft()
            self.in_flight -= count
        return count

    def _next_tag(self) -> int:
        """Take the front of ``expect``: the row index or marker the next reply answers."""
        expect = self.expect
        run = expect[0]
        if type(run) is list:
            tag = run[0]
            run[0] += 1
            if run[0] == run[1]:
                expect.popleft()
        else:
            tag = expect.popleft()  # type: ignore[assignment]
        self.in_flight -= 1
        return tag

    def _settle(self, conn: BatchSession, tag: int, reply: Reply) -> None:
        """Account for a reply read by the Reply parser (the one the fast path did not take)."""
        err = None if reply.error is None else conn._server_error(reply.error)
        if tag >= 0:
            if err is not None:
                self.errors.append((tag, err))
                return
            done = reply.done
            ins = reply.insertdone
            serial = (ins.bigserial or ins.serial8) if ins is not None else 0
            self._count_reply(done, serial or (done.serial if done is not None else 0))
        elif tag == _BEGIN:
            self.begin_error = err
        elif tag == _COMMIT:
            self.commit_error = err
        elif err is not None:
            log.debug("deferred group failed (ignored): %s", err)


class Pipeline(PipelineState):
    """Sends groups in chunks and matches replies to what was sent, in order. Without I/O:
    ``flush``, ``read_one`` and ``drain`` are steps (``Connection._read_steps``) that the
    sync and the asyncio connection drive; sends go through ``conn._send`` (the asyncio
    transport queues them until its loop next waits)."""

    def __init__(self, conn: BatchSession) -> None:
        super().__init__(conn._layout)
        self.conn = conn

    def flush(self) -> Generator[Any, Any, None]:
        if not self.chunk:
            return
        conn = self.conn
        # Keep the number of unanswered groups bounded: wait for replies *before* sending
        # (``in_flight`` counts this chunk's groups too), not after, so that the rows encoded
        # next overlap a full window at the server (up to MAX_IN_FLIGHT groups, not half of
        # it): the same bound on what is in flight, so the same socket-buffer argument (module
        # doc), and the server is not left idle while the client encodes (issue 25, ingest15).
        while self.in_flight > MAX_IN_FLIGHT and self.in_flight > self.chunk_groups:
            if not self._read_rows(conn):
                yield from self._wait_or_read_one()
        conn._send(self._take_chunk())

    def read_one(self) -> Generator[Any, Any, None]:
        """The next reply, through the Reply parser: called when the fast path has just
        found nothing it takes in what is buffered (a reply of another form, a marker's,
        or part of one), so it is not tried again here."""
        conn = self.conn
        tag = self._next_tag()
        reply = yield from conn._read_steps(Reply(conn._layout, conn.encoding))
        self._settle(conn, tag, reply)

    def drain(self) -> Generator[Any, Any, None]:
        yield from self.flush()
        expect = self.expect
        conn = self.conn
        while expect:
            if not self._read_rows(conn):
                yield from self._wait_or_read_one()

    def _wait_or_read_one(self) -> Generator[Any, Any, None]:
        """What follows when the fast path took nothing: with the receive buffer empty and
        rows expected, receive (``yield 1``: the buffer must hold a byte more), and the
        fast path reads what arrived; else one reply through the Reply parser. A wait for
        the server so costs no parsed ``Reply`` (issue 24's 3 % check: 2-5 waits per
        1,000 rows, ~150 bytecodes each)."""
        t = self.conn._transport
        if t.start == t.end and type(self.expect[0]) is list:
            yield 1
        else:
            yield from self.read_one()


#: The name the reply-scanner tests (tests/unit/test_bind_fast.py) know it by.
_Pipeline = Pipeline


class BatchOutcome(Protocol):
    """What a pipeline (sync or asyncio) knows once every reply has been read."""

    errors: list[tuple[int, DatabaseError]]
    begin_error: DatabaseError | None
    commit_error: DatabaseError | None
    rows: int
    lastrowid: int | None

    @property
    def last_done(self) -> Done | None: ...


def finish_batch(
    conn: BatchSession, cursor: BatchCursor, p: Prepared, pipe: BatchOutcome, began: bool
) -> None:
    """Transaction and cursor bookkeeping once every reply has been read (sync and asyncio)."""
    if pipe.begin_error is not None:
        raise pipe.begin_error
    if began:
        conn._in_txn = True
    if pipe.rows or not pipe.errors:
        conn._after_statement(p, pipe.last_done)
    if conn._ansi_autocommit():
        conn._in_txn = False
    cursor.rowcount = pipe.rows
    cursor.lastrowid = pipe.lastrowid


def raise_batch_errors(pipe: BatchOutcome) -> None:
    """Raise the first failing row's error, naming its index and carrying every failure."""
    if pipe.errors:
        pipe.errors.sort(key=lambda e: e[0])
        row, err = pipe.errors[0]
        failure = _row_error(row, err)
        failure.row_index = row  # type: ignore[attr-defined]
        failure.errors = list(pipe.errors)  # type: ignore[attr-defined]
        raise failure from err
    if pipe.commit_error is not None:
        raise pipe.commit_error


def execute_many(cursor: BatchCursor, operation: str, seq_of_parameters: Iterable[object]) -> None:
    """The sync ``Cursor.executemany``: ``execute_many_op`` run blocking under the
    connection's lock and the cursor's statement timeout (``AsyncCursor.executemany`` runs
    the same operation awaited)."""
    conn = cursor.session
    with conn._lock, timeout_scope(conn, cursor.statement_timeout):
        conn._check()
        conn._run(execute_many_op(cursor, operation, seq_of_parameters))


def execute_many_op(
    cursor: BatchCursor, operation: str, seq_of_parameters: Iterable[object]
) -> Op[int]:
    """An executemany as an operation both drivers run (holding the connection's lock):
    the statement prepared or taken from the cache, then every parameter set pipelined
    (``execute_many_steps``, yielded for the loop to drive); the first failing row's error
    is raised at the end (``raise_batch_errors``). Returns the number of sets."""
    conn = cursor.session
    plan = plan_sql(operation)
    it = param_rows(seq_of_parameters)
    started = time.perf_counter()
    cursor._reset()
    first = next(it, _END)
    if first is _END:
        cursor.rowcount = 0
        return 0
    p, _ = yield from conn._statement_op(operation, plan)
    pipe: Pipeline
    index: int
    # Objects for large values are made in a transaction of their own (autocommit,
    # Connection._lob_txn_begin): the rows go in inside it, and each row's outcome stands
    # (committed); a failure of the batch itself, or of a set's objects, takes it all back,
    # as execute's does.
    try:
        if plan.nparams and (p.lob_params if p.param_descs is not None else stores_values(p)):
            # values for BLOB/CLOB columns go into new objects first, as execute() stores
            # them; a statement not described yet is described when the first set holds a
            # value a BLOB/CLOB could take (execute's rule: no round trip for numbers alone)
            sets = yield from cursor.lob_sets_op(p, plan, first, it)
            if sets is not None:
                plan = dataclasses.replace(plan, style="qmark",
                                           order=tuple(range(plan.nparams)), nargs=plan.nparams)
                first, it = sets[0], iter(sets[1:])
        pipe, index = yield execute_many_steps(cursor, p, plan, it, first)
    except Exception:
        if conn._lob_txn and not conn.broken:
            yield from conn._lob_txn_end_op(commit=False)
        raise
    if conn._lob_txn:
        yield from conn._lob_txn_end_op(commit=True)
    log.debug(
        "executemany %d rows, %d failed, %.3f ms: %s",
        index,
        len(pipe.errors),
        (time.perf_counter() - started) * 1000,
        operation,
    )
    raise_batch_errors(pipe)
    return index


def execute_many_steps(
    cursor: BatchCursor, p: Prepared, plan: SqlPlan, it: Iterator[object], first: object
) -> Generator[Any, Any, tuple[Pipeline, int]]:
    """Every parameter set of an executemany of ``p`` (prepared), pipelined, without I/O:
    steps as ``Connection._read_steps``, driven by the sync and the asyncio cursor (under
    the connection's lock). Returns the pipeline (its errors are raised by the caller,
    ``raise_batch_errors``) and the number of sets."""

    def fill(pipe: Pipeline, head: bytes) -> Generator[Any, Any, int]:
        return (yield from queue_sets(cursor, pipe, plan, head, it, first, 0))

    return (yield from pipeline_steps(cursor, p, fill))


#: What ``pipeline_steps`` runs to queue the rows: (pipeline, the statement's ``SQ_ID``
#: head) -> steps returning the number of rows queued.
Filler = Callable[[Pipeline, bytes], Generator[Any, Any, int]]


def pipeline_steps(
    cursor: BatchCursor, p: Prepared, fill: Filler
) -> Generator[Any, Any, tuple[Pipeline, int]]:
    """The frame of a pipelined batch of ``p``: deferred groups, BEGIN, the rows ``fill``
    queues (parameter sets: ``queue_sets``; pre-encoded groups: ``queue_encoded``), COMMIT
    in an ANSI autocommit, every reply read, the bookkeeping."""
    conn = cursor.session
    if p.is_query:
        conn._retire(p)
        raise ProgrammingError(
            "executemany() cannot run a statement that returns rows; use execute()",
            sqlstate="07000",
        )
    pipe = Pipeline(conn)
    began = conn._needs_begin(p)
    p.busy = True
    index = 0
    try:
        deferred = conn._deferred
        conn._deferred = []
        for group in deferred:
            if pipe._queue(group, _DEFERRED):
                yield from pipe.flush()
        if began and pipe._queue(BEGIN_GROUP, _BEGIN):
            yield from pipe.flush()
        index = yield from fill(pipe, id_head(p.stmt_id))
        if conn._ansi_autocommit() and pipe._queue(COMMIT_GROUP, _COMMIT):
            yield from pipe.flush()
        yield from pipe.drain()
    except Exception:
        # A wire failure (the connection is broken now) or an exception from the
        # parameter iterable: the replies already sent for must still be read.
        if not conn.broken:
            with contextlib.suppress(Error):
                yield from pipe.drain()
        raise
    except BaseException:
        # Interrupted (KeyboardInterrupt, an asyncio cancellation) with replies pending:
        # their stream can no longer be matched to requests.
        if not conn.broken:
            conn._fail(connection_lost("executemany was interrupted with replies pending"))
        raise
    finally:
        p.busy = False
        if not p.cached:
            conn._retire(p)
    finish_batch(conn, cursor, p, pipe, began)
    return pipe, index


def queue_encoded(
    pipe: Pipeline, data: Any, starts: Sequence[int], index: int
) -> Generator[Any, Any, int]:
    """Queue rows already encoded as groups (``data[starts[i]:starts[i + 1]]`` is row
    ``index + i``'s ``ID BIND EXECUTE EOT``), a chunk's room at a time; returns the next
    row index."""
    view = memoryview(data).cast("B")
    n = len(starts) - 1
    i = 0
    while i < n:
        j = min(n, i + max(pipe.room()[0], 1))
        if pipe._queue_rows(view[starts[i]:starts[j]], index + i, j - i):  # type: ignore[arg-type]
            yield from pipe.flush()
        i = j
    return index + n


def queue_sets(
    cursor: BatchCursor, pipe: Pipeline, plan: SqlPlan, head: bytes, it: Iterator[object],
    first: object, index: int,
) -> Generator[Any, Any, int]:
    """Queue parameter set ``first`` and the rest of ``it`` (rows ``index`` on), encoded by
    the many-rows encoder or row by row; a set that cannot be encoded is that row's error.
    Returns the next row index."""
    conn = cursor.session
    encoding = conn.encoding
    blob_width = conn._blob_width
    adapters = cursor._active_adapters()
    nparams = plan.nparams
    # Many rows per call (binds.rows_encoder) while the sets keep one shape; a set it
    # does not take goes through arrange + bind_message, which encode it or raise its
    # PEP 249 error, exactly as they do for every set when there is no such encoder.
    many = plan.style == "qmark" and nparams and (
        adapters is None or not adapters.has_user_dumpers
    )
    params: object = first
    while True:
        rows = rows_encoder(params, encoding) if many else None
        if rows is not None:
            max_rows, max_bytes = pipe.room()
            chunk, count, params, exc = rows(
                params, it, head, EXECUTE_EOT, _END, max_rows, max_bytes
            )
            if count:
                if pipe._queue_rows(chunk, index, count):
                    yield from pipe.flush()
                index += count
            if exc is not None:
                raise exc
            if params is _END:
                break
            if count:
                continue  # the next set may have another shape, or the chunk was full
        try:
            values = arrange(plan, params)
            bind = (
                bind_message(values, encoding, adapters, blob_width, compiled=not many)
                if nparams
                else b""
            )
        except DatabaseError as exc:
            pipe.errors.append((index, exc))
        else:
            if pipe._queue_row(head, bind, index):
                yield from pipe.flush()
        index += 1
        params = next(it, _END)
        if params is _END:
            break
    return index
