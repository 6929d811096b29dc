"""Pipelined ``executemany``: one PREPARE, then ``ID BIND EXECUTE EOT`` per row, streamed.

Rows are encoded and sent in chunks (up to ``CHUNK_BYTES`` or ``CHUNK_ROWS`` per ``send``) while
at most ``MAX_IN_FLIGHT`` groups wait for their replies. Replies are a few dozen bytes each, so
that window always fits in the socket buffers: the server never blocks writing replies we are
not reading, and we never block writing requests it is not reading. Neither side deadlocks, and
memory stays bounded whatever the batch size: the parameter sets are consumed lazily, so a
generator works and is never materialised. informix-driver sends the same per-row group, one
``sendall`` per row, after building every PDU in memory (peer-informix-driver.md 2.8).

Outcome: every row is attempted. The server answers every group even after a failure, so one
bad row does not stop the others. Afterwards, if any row failed, the first failure is raised
with ``row_index`` and ``errors`` (all failures) attached; ``rowcount`` is the sum over the
successful rows either way. The connection stays usable.
"""

from __future__ import annotations

import contextlib
import logging
import struct
import time
from collections import deque
from collections.abc import Iterable
from typing import TYPE_CHECKING, Protocol

from ..errors import DatabaseError, Error, ProgrammingError
from ..protocol import messages as m
from ..protocol.codes import Msg
from ..protocol.messages import Done
from .binds import bind_message
from .connection import BEGIN_GROUP, COMMIT_GROUP, Connection
from .placeholders import arrange, param_rows, plan_sql
from .replies import Reply

if TYPE_CHECKING:
    from .cursor import Cursor
    from .statements import Prepared

__all__ = ["CHUNK_BYTES", "CHUNK_ROWS", "MAX_IN_FLIGHT", "execute_many"]

log = logging.getLogger("ifxwire.client")

CHUNK_BYTES = 64 * 1024
CHUNK_ROWS = 256
MAX_IN_FLIGHT = 512

_ID = struct.Struct(">Hh")
_EXECUTE_EOT = b"\x00\x07\x00\x0c"
_DEFERRED = -2
_BEGIN = -1
_COMMIT = -3
_END = object()

_DONE = int(Msg.DONE)
_INSERTDONE = int(Msg.INSERTDONE)
_EOT = int(Msg.EOT)


def _fast_replies(layout: m.Layout) -> tuple[struct.Struct, struct.Struct]:
    """The two replies a row usually gets, each as one struct over its whole bytes.

    ``SQ_DONE SQ_EOT`` and ``SQ_DONE SQ_INSERTDONE SQ_EOT``, with the field widths ``layout``
    fixes (messages.read_done / read_insertdone): DONE is i16 warnings, rows and rowid (i32, or
    i64 with long_rowid), i32 serial; INSERTDONE is an INT8 (i16 sign, u32 low, u32 high) and,
    with bigint, an i64 bigserial.
    """
    wide = "q" if layout.long_rowid else "i"
    done = f">Hh{wide}{wide}i"
    insert = "HhII" + ("q" if layout.bigint else "")
    return struct.Struct(done + "H"), struct.Struct(done + insert + "H")


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


class _Pipeline:
    """Sends groups in chunks and matches replies to what was sent, in order."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self.expect: deque[int] = deque()  # row index, or a _DEFERRED/_BEGIN/_COMMIT marker
        self.chunk: list[bytes] = []
        self.chunk_bytes = 0
        self.chunk_rows = 0
        self.errors: list[tuple[int, DatabaseError]] = []
        self.begin_error: DatabaseError | None = None
        self.commit_error: DatabaseError | None = None
        self.rows = 0
        self.lastrowid: int | None = None
        self._last_done: Done | None = None
        #: The fields of the last SQ_DONE read by the fast path (a Done is built only if asked).
        self._last_fields: tuple[int, int, int, int] | None = None
        self.sent = 0
        self._done_eot, self._done_insert_eot = _fast_replies(conn._layout)

    @property
    def last_done(self) -> Done | None:
        fields = self._last_fields
        if fields is not None:
            return Done(*fields)
        return self._last_done

    def add(self, group: bytes, tag: int) -> None:
        self.chunk.append(group)
        self.expect.append(tag)
        self.chunk_bytes += len(group)
        if tag >= 0:
            self.chunk_rows += 1
        if self.chunk_bytes >= CHUNK_BYTES or self.chunk_rows >= CHUNK_ROWS:
            self.flush()

    def add_row(self, head: bytes, bind: bytes, tag: int) -> None:
        """``add(head + bind + EXECUTE EOT, tag)`` without building the group's bytes."""
        chunk = self.chunk
        chunk.append(head)
        chunk.append(bind)
        chunk.append(_EXECUTE_EOT)
        self.expect.append(tag)
        self.chunk_bytes += len(head) + len(bind) + 4
        self.chunk_rows += 1
        if self.chunk_bytes >= CHUNK_BYTES or self.chunk_rows >= CHUNK_ROWS:
            self.flush()

    def flush(self) -> None:
        if not self.chunk:
            return
        conn = self.conn
        conn._send(b"".join(self.chunk))
        self.chunk = []
        self.chunk_bytes = 0
        self.chunk_rows = 0
        # Keep the number of unanswered groups bounded before producing more.
        expect = self.expect
        while len(expect) > MAX_IN_FLIGHT - CHUNK_ROWS:
            if expect[0] >= 0 and self._read_fast(conn):
                expect.popleft()  # read_one's fast path, one call less per row
                continue
            self.read_one()

    def read_one(self) -> None:
        conn = self.conn
        tag = self.expect.popleft()
        if tag >= 0 and self._read_fast(conn):
            return
        reply = conn._read(Reply(conn._layout, conn.encoding))
        err = None if reply.error is None else conn._server_error(reply.error)
        if tag >= 0:
            if err is not None:
                self.errors.append((tag, err))
                return
            done = reply.done
            if done is not None:
                self.rows += max(done.rows, 0)
                self._last_done = done
                self._last_fields = None
            ins = reply.insertdone
            serial = (ins.bigserial or ins.serial8) if ins is not None else 0
            serial = serial or (done.serial if done is not None else 0)
            if serial:
                self.lastrowid = serial
        elif tag == _BEGIN:
            self.begin_error = err
        elif tag == _COMMIT:
            self.commit_error = err
        elif err is not None:
            log.debug("deferred group failed (ignored): %s", err)

    def _read_fast(self, conn: Connection) -> bool:
        """Consume a row's reply if it is exactly DONE EOT or DONE INSERTDONE EOT, already
        complete in the receive buffer. False (nothing consumed) sends it to the Reply path."""
        t = conn._transport
        buf = t.buf
        pos = t.start
        avail = t.end - pos
        st = self._done_eot
        size = st.size
        if avail < size or buf[pos + 1] != _DONE or buf[pos]:
            return False
        at = pos + size - 2
        if buf[at] == 0 and buf[at + 1] == _EOT:
            _code, warnings, rows, rowid, serial, _eot = st.unpack_from(buf, pos)
            serial8 = 0
        else:
            st = self._done_insert_eot
            size = st.size
            if avail < size or buf[at] or buf[at + 1] != _INSERTDONE:
                return False
            fields = st.unpack_from(buf, pos)
            if fields[-1] != _EOT:
                return False
            _code, warnings, rows, rowid, serial, _ins, sign, low, high = fields[:9]
            mag = (high << 32) | low
            serial8 = (-mag if sign < 0 else mag) if sign else 0
            if len(fields) == 11:
                serial8 = fields[9] or serial8  # ins.bigserial or ins.serial8
        t.start = pos + size
        self.rows += max(rows, 0)
        self._last_fields = (warnings, rows, rowid, serial)
        serial = serial8 or serial
        if serial:
            self.lastrowid = serial
        return True

    def drain(self) -> None:
        self.flush()
        expect = self.expect
        conn = self.conn
        while expect:
            if expect[0] >= 0 and self._read_fast(conn):
                expect.popleft()
                continue
            self.read_one()


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
    conn: Connection, cursor: Cursor, p: Prepared, pipe: BatchOutcome, began: bool
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


def execute_many(cursor: Cursor, operation: str, seq_of_parameters: Iterable[object]) -> None:
    conn = cursor.connection
    plan = plan_sql(operation)
    it = param_rows(seq_of_parameters)
    started = time.perf_counter()
    with conn._lock:
        conn._check()
        cursor._reset()
        first = next(it, _END)
        if first is _END:
            cursor.rowcount = 0
            return
        p, _ = conn._statement(operation, plan)
        if p.is_query:
            conn._retire(p)
            raise ProgrammingError(
                "executemany() cannot run a statement that returns rows; use execute()",
                sqlstate="07000",
            )
        pipe = _Pipeline(conn)
        began = conn._needs_begin(p)
        p.busy = True
        try:
            deferred = conn._deferred
            conn._deferred = []
            for group in deferred:
                pipe.add(group, _DEFERRED)
            if began:
                pipe.add(BEGIN_GROUP, _BEGIN)
            head = _ID.pack(Msg.ID, p.stmt_id)
            encoding = conn.encoding
            blob_width = conn._blob_width
            adapters = cursor._active_adapters()
            nparams = plan.nparams
            index = 0
            params: object = first
            while True:
                try:
                    values = arrange(plan, params)
                    bind = bind_message(values, encoding, adapters, blob_width) if nparams else b""
                except DatabaseError as exc:
                    pipe.errors.append((index, exc))
                else:
                    pipe.add_row(head, bind, index)
                index += 1
                params = next(it, _END)
                if params is _END:
                    break
            if conn._ansi_autocommit():
                pipe.add(COMMIT_GROUP, _COMMIT)
            pipe.drain()
        except Error:
            # A wire failure (the connection is broken now) or an exception from the
            # parameter iterable: the replies already sent for must still be read.
            if not conn.broken:
                with contextlib.suppress(Error):
                    pipe.drain()
            raise
        except BaseException:
            if not conn.broken:
                pipe.drain()
            raise
        finally:
            p.busy = False
            if not p.cached:
                conn._retire(p)
        finish_batch(conn, cursor, p, pipe, began)
        log.debug(
            "executemany %d rows, %d failed, %.3f ms: %s",
            index,
            len(pipe.errors),
            (time.perf_counter() - started) * 1000,
            operation,
        )
        raise_batch_errors(pipe)
