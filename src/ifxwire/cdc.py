"""Change data capture: stream an Informix table's committed changes as typed events.

Built on Informix's CDC API as IBM/HCL's "Change Data Capture API Programmer's Guide"
documents it (docs/CDC.md): connected to the ``syscdcv1`` database, the stream runs
``cdc_opensess``, ``cdc_set_fullrowlogging`` and ``cdc_startcapture`` per table, then
``cdc_activatesess`` at the restart position, and reads the session's records with smart large
object reads of the session id (SQ_LODATA, as IBM JDBC's ``CDCEngine`` does with
``IfxSmartBlob.IfxLoRead``). Closing ends the capture of each table and closes the session.

    with ifxwire.cdc.open_stream(conn, tables=["shop:informix.orders"]) as events:
        for ev in events:
            if ev.kind is EventKind.INSERT:
                print(ev.table, ev.row["id"], ev.row[1])
            elif ev.kind is EventKind.COMMIT:
                save(ev.sequence)  # restart here: open_stream(..., from_sequence=saved)

The capture session's statements (``Capture``'s cursor operations) and the decoding
(``Decoder``) are shared with ``ifxwire.aio.cdc``, which awaits them.
"""

from __future__ import annotations

import datetime as _dt
import enum
import struct
import time
from collections import deque
from collections.abc import Iterator, Sequence
from typing import Any, NamedTuple, Protocol

from . import _cdcaccel
from .client import fastpath as _fp
from .client.cancel import TIMER, TimerHandle
from .client.connection import Connection
from .client.cursor import Cursor, CursorOp
from .client.resources import Closing
from .client.steps import Calls, Op, Steps, call_each
from .errors import OperationalError
from .protocol import cdc as rec
from .protocol.columns import ColumnDesc
from .rows import Row, row_class
from .types import cdcrow

__all__ = ["Capture", "ChangeStream", "Decoder", "Event", "EventKind", "StreamCancelled",
           "StreamError", "open_stream"]

CDC_DATABASE = "syscdcv1"
#: Bytes asked for per smart-large-object read of the session.
READ_SIZE = 256 * 1024
#: Reads of the session kept in flight while a full read's events are decoded (docs/CDC.md
#: "Reading ahead"). With one the server waits a round trip for each next request; with
#: two it keeps rendering: on a quiet 2-core machine 214k against 186k events/s (medians of
#: ten runs each) and 2.24x against 1.90x IBM's client (docs/CDC.md); on a busy one the
#: two were within noise. Any depth works (the tests run 1 and 2).
READ_DEPTH = 2
#: Seconds between the cancels a close sends while a read in flight is still unanswered.
CANCEL_RESEND = 0.5
# The statements, in the order a stream runs them (shared with ifxwire.aio.cdc).
SQL_SERVER = "SELECT env_value FROM sysmaster:sysenv WHERE env_name = 'INFORMIXSERVER'"
SQL_OPEN = "EXECUTE FUNCTION informix.cdc_opensess(?, ?, ?, ?, ?, ?)"
SQL_FULLROW = "EXECUTE FUNCTION informix.cdc_set_fullrowlogging(?, ?)"
SQL_DESCRIBE = "SELECT {columns} FROM {table} WHERE 1 = 0"
SQL_START = "EXECUTE FUNCTION informix.cdc_startcapture(?, ?, ?, ?, ?)"
SQL_ACTIVATE = "EXECUTE FUNCTION informix.cdc_activatesess(?, ?)"
SQL_END = "EXECUTE FUNCTION informix.cdc_endcapture(?, 0, ?)"
SQL_CLOSE = "EXECUTE FUNCTION informix.cdc_closesess(?)"
#: An error code's symbolic name and text, as IBM's CDC sample program reads them (the guide,
#: "Handling errors": "reference error numbers by looking up their symbolic names in the
#: syscdcerrcodes table").
SQL_ERRCODE = "SELECT errname, errdesc FROM syscdcerrcodes WHERE errcode = ?"


class EventKind(enum.Enum):
    BEGIN = rec.BEGINTX
    COMMIT = rec.COMMTX
    ROLLBACK = rec.RBTX
    INSERT = rec.INSERT
    DELETE = rec.DELETE
    UPDATE_BEFORE = rec.UPDBEF
    UPDATE_AFTER = rec.UPDAFT
    DISCARD = rec.DISCARD
    TRUNCATE = rec.TRUNCATE
    TABLE_SCHEMA = rec.TABSCHEMA
    TIMEOUT = rec.TIMEOUT
    ERROR = rec.ERROR


class StreamError(Exception):
    """A cdc_* routine returned an error code, or the stream could not be read. For a code,
    ``name`` and ``text`` are its symbolic name and message as the server's
    ``syscdcerrcodes`` table gives them (empty when it has no row for the code)."""

    def __init__(self, message: str, code: int = 0) -> None:
        self.what = message
        self.code = code
        self.name = ""
        self.text = ""
        super().__init__(self._render())

    def _render(self) -> str:
        if not self.code:
            return self.what
        said = f": {self.name}: {self.text}" if self.name else ""
        return f"{self.what}{said} (CDC error {self.code})"

    def describe(self, name: str, text: str) -> None:
        self.name, self.text = name.strip(), text.strip()
        self.args = (self._render(),)


class StreamCancelled(OperationalError):
    """The stream's connection was cancelled (``Connection.cancel()``, from any thread, or the
    asyncio connection's ``cancel()``) while the stream was open: the iteration raises this
    at its next wait for the server, at once when it waits already. It is the error a
    cancelled statement raises (``OperationalError``, sqlcode -213, SQLSTATE HY008), so the
    same handler serves both. Before it is raised the stream is closed as by ``close()``:
    its reads in flight cancelled and read out, the capture ended, the session closed; the
    connection stays usable, and a stream opened again from the last COMMIT's sequence brings
    the rest (docs/CDC.md "Cancelling a stream")."""

    def __init__(self, message: str = "the change stream was cancelled (Connection.cancel)"
                 ) -> None:
        super().__init__(message, sqlcode=-213, sqlstate="HY008")


class Event(NamedTuple):
    """One change-stream event. ``sequence`` is the record's sequence number: pass a COMMIT
    event's to ``open_stream(from_sequence=...)`` to resume after that transaction.

    Immutable, and a named tuple rather than a frozen dataclass: a stream makes one per
    record, and a tuple is built several times faster (issue 27's throughput target)."""

    kind: EventKind
    sequence: int = 0
    transaction_id: int = 0
    table: str | None = None  # the name given in ``tables`` (data, schema, truncate events)
    row: Row | None = None  # INSERT, DELETE, UPDATE_BEFORE, UPDATE_AFTER
    commit_time: _dt.datetime | None = None  # COMMIT
    begin_time: _dt.datetime | None = None  # BEGIN
    error: int = 0  # ERROR: the CDC error code


#: record number -> EventKind, without the enum's call
_KINDS = {k.value: k for k in EventKind}
_COMMON = rec.COMMON.unpack_from
#: a data record's own header (sequence, transaction, user data, flags), after the common one
_DATA_SPEC = struct.Struct(">qiii").unpack_from
_DATA_HEAD_SIZE = rec.COMMON_SIZE + 20
#: a record's header and payload sizes, the first two fields of its common header
_SIZES = struct.Struct(">ii").unpack_from
#: the compiled loop over data records (ifxwire._cdcaccel), None on the pure path
_FAST_DATA = _cdcaccel.decode_data()
#: the EventKinds of records 40..43, BEGINTX and COMMTX, for that loop
_FAST_KINDS = (EventKind.INSERT, EventKind.DELETE, EventKind.UPDATE_BEFORE,
               EventKind.UPDATE_AFTER, EventKind.BEGIN, EventKind.COMMIT)


_now = time.monotonic


def _utc(seconds: int) -> _dt.datetime:
    return _dt.datetime.fromtimestamp(seconds, _dt.timezone.utc)


class Decoder:
    """Record bytes -> events, with the column types of each captured table.

    ``describe`` maps a table label (the ``user_data`` given to cdc_startcapture) to the
    table's name and its columns as described by the server; the CDC_REC_TABSCHEMA record
    gives their order in the rows (fixed-length columns first)."""

    def __init__(self, tables: dict[int, tuple[str, Sequence[ColumnDesc]]],
                 encoding: str) -> None:
        self.tables = tables
        self.encoding = encoding
        #: label -> (row decoder at an offset, row class, table name)
        self.shapes: dict[int, tuple[Any, type[Row], str | None]] = {}
        #: label -> (tuple decoder or None, row decoder at an offset, row class, table name):
        #: what the compiled loop reads (``fast``)
        self.fast_shapes: dict[int, tuple[Any, Any, type[Row], str | None]] = {}
        #: the compiled loop over data records, or None (the Python loop decodes them)
        self.fast: _cdcaccel.DecodeData | None = _FAST_DATA
        self.buf = bytearray()

    def feed(self, data: bytes | bytearray | memoryview) -> Iterator[Event]:
        """The events of the whole records now buffered; a record cut by the read waits for
        the next. ``data`` is copied at once (before the first event is asked for), so the
        caller may read into its buffer again while the events are handed out (the stream's
        read ahead)."""
        self.buf += data
        return self._events()

    def _events(self) -> Iterator[Event]:
        """``feed``'s events. Data records, nearly all of a stream, are decoded here in
        place (headers with one struct, the row where it lies in the buffer); the others go
        through protocol/cdc.py's ``decode``. With the compiled loops in use (``fast``,
        docs/CDC_SERVER.md "Compiled loops"), runs of data, BEGIN and COMMIT records are decoded in
        C first; this loop then takes the record that stopped it."""
        buf = self.buf
        pos = 0
        shapes = self.shapes
        fast, fast_shapes = self.fast, self.fast_shapes
        try:
            while len(buf) - pos >= rec.COMMON_SIZE:
                if fast is not None:
                    # the data records from here, decoded by the compiled loop, which stops
                    # at the first record it does not take as this loop would: this loop
                    # takes that one (and raises what it raises)
                    evs, ends = fast(buf, pos, fast_shapes, _FAST_KINDS, Event, _utc)
                    if evs:
                        for ev, pos in zip(evs, ends, strict=True):  # noqa: B007 (past ev)
                            yield ev
                        continue
                hsize, psize, scheme, recnum = _COMMON(buf, pos)
                if scheme != rec.PKTSCHEME_LRECBINARY or hsize < rec.COMMON_SIZE or psize < 0:
                    rec.record_size(buf, pos)  # raises RecordError, naming the fields
                size = hsize + psize
                if len(buf) - pos < size:
                    break
                if 40 <= recnum <= 43:
                    seq, tx, label, _ = _DATA_SPEC(buf, pos + rec.COMMON_SIZE)
                    nvar = (hsize - _DATA_HEAD_SIZE) >> 2
                    if nvar < 0 or _DATA_HEAD_SIZE + 4 * nvar != hsize:
                        raise rec.RecordError(f"{rec.NAMES[recnum]} header size {hsize}")
                    shape = shapes.get(label)
                    if shape is None:
                        raise StreamError(f"{rec.NAMES[recnum]} for table {label} before "
                                          "its schema")
                    sizes = (struct.unpack_from(f">{nvar}i", buf, pos + _DATA_HEAD_SIZE)
                             if nvar else ())
                    row = shape[1](shape[0](buf, pos + hsize, psize, sizes))
                    ev = Event(_KINDS[recnum], seq, tx, shape[2], row)
                else:
                    got = rec.decode(buf, pos)
                    assert got is not None
                    ev = self.event(got[0])
                pos += size
                yield ev
        finally:
            del buf[:pos]

    def event(self, r: rec.Record) -> Event:
        kind = _KINDS.get(r.recnum) or EventKind(r.recnum)
        if r.recnum == rec.TABSCHEMA:
            self._schema(r)
            return Event(kind, table=self._name(r.user_data))
        if r.recnum in rec.DATA_RECORDS:
            shape = self.shapes.get(r.user_data)
            if shape is None:
                raise StreamError(f"{r.name} for table {r.user_data} before its schema")
            decode, cls, name = shape
            row = cls(decode(r.payload, 0, len(r.payload), r.var_sizes))
            return Event(kind, r.sequence, r.transaction, name, row)
        if r.recnum == rec.BEGINTX:
            return Event(kind, r.sequence, r.transaction, begin_time=_utc(r.time))
        if r.recnum == rec.COMMTX:
            return Event(kind, r.sequence, r.transaction, commit_time=_utc(r.time))
        if r.recnum == rec.TRUNCATE:
            return Event(kind, r.sequence, r.transaction, self._name(r.user_data))
        if r.recnum == rec.ERROR:
            return Event(kind, error=r.error)
        return Event(kind, r.sequence, r.transaction)

    def _name(self, label: int) -> str | None:
        t = self.tables.get(label)
        return t[0] if t else None

    def _schema(self, r: rec.Record) -> None:
        t = self.tables.get(r.user_data)
        if t is None:
            raise StreamError(f"schema of a table this stream did not ask for ({r.user_data})")
        by_name = {c.name.lower(): c for c in t[1]}
        names = [n for n, _ in rec.split_columns(r.payload.decode("utf-8"))]
        try:
            cols = [by_name[n.lower()] for n in names]
        except KeyError as e:
            raise StreamError(f"column {e} of {t[0]} was not described") from None
        at, whole = cdcrow.row_decoders(cols, self.encoding)
        cls = row_class(tuple(names))
        self.shapes[r.user_data] = (at, cls, t[0])
        self.fast_shapes[r.user_data] = (whole, at, cls, t[0])


def check(code: object, what: str) -> int:
    if not isinstance(code, int) or code < 0:
        raise StreamError(f"{what} failed", code if isinstance(code, int) else 0)
    return code


def split_table(name: str) -> tuple[str, str]:
    """``db:owner.table`` -> (database, ``owner.table``); the database is required."""
    db, sep, rest = name.partition(":")
    if not sep or not db or not rest:
        raise ValueError(f"a captured table is named database:owner.table, not {name!r}")
    return db, rest


class _Session(Protocol):
    """What a capture needs of its connection (sync or asyncio)."""

    @property
    def closed(self) -> bool: ...
    @property
    def encoding(self) -> str: ...
    def interrupt(self) -> bool: ...


class Capture:
    """A capture session's state and the statements that open and end it, written once for
    both drivers: ``open_op``, ``close_op`` are cursor operations (``Cursor.query_op`` per
    statement) that ``ChangeStream`` runs blocking and ``ifxwire.aio.cdc.AsyncChangeStream``
    awaits (``Cursor.run`` / ``AsyncCursor.run``); ``read_op`` is the session's SQ_LODATA
    read and ``events`` decodes what it read."""

    def __init__(self, conn: _Session, owned: bool) -> None:
        self.conn = conn
        self._owned = owned
        self.session = -1
        self.closed = False
        self._started: list[str] = []
        self.decoder = Decoder({}, conn.encoding)
        self.timeout = 0
        self.max_records = 1
        #: The reads of the session (docs/CDC.md "Reading ahead"): each has a buffer of its
        #: own, free (``_free``), sent and its reply not read yet (``_pending``: the reply,
        #: the buffer; in the order sent), or read and its events not handed out yet
        #: (``_ready``: the buffer, the size or the read's error).
        self._free = [bytearray(READ_SIZE) for _ in range(READ_DEPTH)]
        self._pending: deque[tuple[Any, bytearray]] = deque()
        self._ready: deque[tuple[bytearray, int | BaseException]] = deque()
        #: the connection the pending reads are on (the sync one, or the asyncio one's core)
        self._wire: Connection | None = None
        #: ``Connection.cancel()`` was called while the stream was open (``on_cancel``)
        self.cancelled = False
        #: the session core whose ``cancel_hooks`` hold ``on_cancel`` (``hook_cancel``)
        self._hooked: Connection | None = None
        #: the cancel's watch (``cancel_reads``), whether its byte went, and since when the
        #: stream waits for replies (``waiting``)
        self._cancel_timer: TimerHandle | None = None
        self._cancel_sent = False
        self._wait_since: float | None = None

    def open_op(self, cur: Cursor, tables: Sequence[str],
                columns: dict[str, Sequence[str]] | Sequence[str] | None,
                from_sequence: int | None, timeout: int, max_records: int) -> CursorOp[None]:
        """cdc_opensess, per table cdc_set_fullrowlogging and cdc_startcapture (each table
        described for the decoder), cdc_activatesess; on a failure the code is explained
        and what was started is ended before the error goes on."""
        q = cur.query_op
        described = self.decoder.tables
        self.timeout, self.max_records = int(timeout), max(1, int(max_records))
        try:
            row = yield from q(SQL_SERVER)
            server = str(row[0]).strip() if row and row[0] else ""
            self.session = check(_code((yield from q(
                SQL_OPEN, open_args(server, timeout, max_records)))), "cdc_opensess")
            for label, name in enumerate(tables, 1):
                cols = columns_for(columns, name)
                check(_code((yield from q(SQL_FULLROW, (name, 1)))),
                      f"cdc_set_fullrowlogging of {name}")
                describe = SQL_DESCRIBE.format(columns=", ".join(cols) if cols else "*",
                                               table=name)
                if cols is None:  # every column: the description names them
                    described[label] = (name, (yield from q(describe, describe=True)))
                names = cols or [c.name for c in described[label][1]]
                check(_code((yield from q(SQL_START, start_args(
                    self.session, name, names, label)))), f"cdc_startcapture of {name}")
                self._started.append(name)
                if cols is not None:  # named: the server has checked them
                    described[label] = (name, (yield from q(describe, describe=True)))
            check(_code((yield from q(SQL_ACTIVATE, (self.session, int(from_sequence or 0))))),
                  "cdc_activatesess")
        except BaseException as e:
            yield from self._explain_op(cur, e)
            yield from self.close_op(cur)
            raise

    def _explain_op(self, cur: Cursor, err: BaseException) -> CursorOp[None]:
        """Give a failed routine's code its name and text from syscdcerrcodes (best effort: a
        server without the table, or a connection that is gone, leaves the bare code)."""
        if not isinstance(err, StreamError) or err.code >= 0 or self.conn.closed:
            return
        try:
            row = yield from cur.query_op(SQL_ERRCODE, (err.code,))
        except Exception:
            return
        if row and row[0]:
            err.describe(str(row[0]), str(row[1] or ""))

    def close_op(self, cur: Cursor) -> CursorOp[None]:
        """End the capture of every table and close the session (once); never raises for a
        connection that is already gone. The driver closes a connection it owns after."""
        if self.closed:
            return
        self.closed = True
        try:
            if not self.conn.closed and self.session >= 0:
                for name in self._started:
                    yield from cur.query_op(SQL_END, (self.session, name))
                yield from cur.query_op(SQL_CLOSE, (self.session,))
        except Exception:
            pass

    # ---- reading, with reads ahead (docs/CDC.md "Reading ahead") ---------------------------
    def close_calls(self) -> Calls[None]:
        """Ending the capture, written once for both streams (``call_each`` /
        ``await_each`` call their ``_cut_short``, ``_end_session``, ``_close_conn``): reads
        in flight cut short, ``close_op``, the owned connection closed; never raises for a
        connection that is already gone."""
        conn = self.conn
        try:
            if not self.closed and not conn.closed:
                if self._pending:
                    yield ("_cut_short",)
                yield ("_end_session",)
        except Exception:
            pass
        finally:
            self.closed = True
            self.unhook_cancel()
            self.discard()
            if self._owned:
                yield ("_close_conn",)

    def worth_reading_ahead(self, sink: bytearray, n: int) -> bool:
        """Whether the read of ``n`` bytes just received into ``sink`` was full
        (``max_records`` records, or the whole buffer): the server had more queued, so the
        next reads are asked for before this one's events are decoded, and the server
        renders them meanwhile. A short read (the stream caught up, a TIMEOUT) asks for
        nothing more: the stream has caught up. Never with a negative timeout (a read that
        finds nothing waits without end, and only the session's close would stop it)."""
        if self.timeout < 0 or self.closed:
            return False
        if n >= len(sink):
            return True
        return holds_records(sink, n, self.decoder.buf, self.max_records)

    @property
    def in_flight(self) -> int:
        """How many reads of the session are sent and their replies not read yet."""
        return len(self._pending)

    def next_read_op(self, wire: Connection) -> Op[Iterator[Event]]:
        """The events of the next read: the first one sent ahead (or read ahead already),
        else a read sent now. After a full read, reads are sent until ``READ_DEPTH`` are in
        flight, before its events are decoded: the server renders the next while the
        consumer handles these, and with two in flight it never waits for the client's next
        request either. Run under the connection's lock by ``ChangeStream`` (blocking) and
        ``AsyncChangeStream`` (awaited): the Steps it yields are driven by either loop."""
        if self.cancelled:
            raise StreamCancelled
        if not self._ready:
            if not self._pending:
                yield self.send_steps(wire, 1)
                if self.cancelled:
                    # on_cancel ran before the read was sent, found nothing in flight and
                    # sent no cancel: the read would wait out the session's timeout
                    raise StreamCancelled
            yield self.waiting(self.drain_steps(1))
            if self.cancelled:  # the read was cut short (a TIMEOUT record, at once)
                raise StreamCancelled
        sink, got = self._ready.popleft()
        try:
            if isinstance(got, BaseException):
                raise got
            if got <= 0:
                raise StreamError("the capture session's read returned nothing")
            more = self.worth_reading_ahead(sink, got)
            # copied into the decoder now: the buffer is free for the reads sent next
            events = self.decoder.feed(memoryview(sink)[:got])
        finally:
            self._free.append(sink)
        if more:
            want = READ_DEPTH - len(self._pending) - len(self._ready)
            if want > 0:
                yield self.send_steps(wire, want)
        return events

    def send_steps(self, wire: Connection, count: int) -> Steps[None]:
        """Send ``count`` reads of the session on ``wire`` (the sync connection, or the
        asyncio one's core) in one write. Their replies are read by ``drain_steps``: by the
        stream when it needs them, or by the connection before any other request (the stream
        is the connection's active stream meanwhile, as a BYTE/TEXT reader part way is)."""
        count = min(count, len(self._free))
        if count <= 0:
            return
        groups = []
        for sink in self._free[-count:]:
            groups.append((_fp.lodata_read_group(wire, self.session, len(sink),
                                                 memoryview(sink)), sink))
        if self._pending:
            # Behind reads of ours in flight: sent alone (the deferred groups' replies would
            # come after those reads' replies, which prefix_steps would take for theirs).
            wire.ensure_usable()
            wire.send_now(b"".join(g[0] for g, _ in groups))
        else:
            yield from wire.prefix_steps([g[0] for g, _ in groups])
        del self._free[-count:]
        self._wire = wire
        self._pending.extend((g[1], sink) for g, sink in groups)
        wire.active_stream = self

    def drain_steps(self, count: int | None = None) -> Steps[None]:
        """Read the replies of ``count`` reads in flight (None: all) into their buffers, in
        the order sent; ``next_read_op`` hands them out. Interrupted part way (a
        cancellation, Ctrl-C), a reply stays pending: reading it is resumable, and the next
        drain goes on with it."""
        wire = self._wire
        pending = self._pending
        while pending and wire is not None and (count is None or count > 0):
            reply, sink = pending[0]
            got: int | BaseException
            try:
                yield from wire.read_steps(reply)
                got = _fp.lodata_size(wire, reply)
            except Exception as exc:  # a server error, or a wire failure (connection broken)
                got = exc
            pending.popleft()
            self._ready.append((sink, got))
            if count is not None:
                count -= 1
        if not pending and wire is not None and wire.active_stream is self:
            wire.active_stream = None

    # ---- cancelling reads in flight: the close, and Connection.cancel() ------------------
    # A read that finds nothing queued waits on the server up to the session's timeout (for
    # ever with a negative one), so both send Informix's cancel, which our server answers
    # with the TIMEOUT record at once (docs/CDC.md "Reading ahead", "Cancelling a stream").
    # One urgent byte per stream, and a resend only while a wait for replies has lasted
    # ``CANCEL_RESEND``: TCP keeps one urgent byte, and a second sent before the server read
    # the first turns the first into ordinary data (Linux ``tcp_check_urg``), which the
    # server would take for a request (an unknown message 0x42..). A byte the server leaves
    # unread is one it got while idle: its replies are then on their way and the wait ends
    # before a resend; a wait that lasts means a read the server holds, whose byte its
    # interrupt watcher has read (and missed, in the instant the read started,
    # server/interrupt.py), so a resend is safe then.

    def cancel_reads(self) -> None:
        """Send the cancel (once per stream) and keep a watch that resends it while a wait
        for replies lasts; the close (``unhook_cancel``) ends the watch."""
        if not self._cancel_sent:
            self._cancel_sent = True
            self.conn.interrupt()  # (thread-safe on both drivers' connections)
        if self._cancel_timer is None:
            self._cancel_timer = TIMER.arm(CANCEL_RESEND / 4, self._resend)

    def _resend(self) -> float | None:
        if self.closed or not self._pending:  # nothing left to cancel: the watch ends
            self._cancel_timer = None
            return None
        since = self._wait_since
        if since is not None and self._pending and _now() - since >= CANCEL_RESEND:
            self._wait_since = _now()
            self.conn.interrupt()
        return CANCEL_RESEND / 4

    def waiting(self, steps: Steps[None]) -> Steps[None]:
        """``steps`` (a drain of replies), with the time its wait began kept for
        ``_resend``."""
        self._wait_since = _now()
        try:
            yield from steps
        finally:
            self._wait_since = None

    def cut_short_steps(self) -> Steps[None]:
        """The close with reads in flight (exit, error, Ctrl-C, asyncio cancellation,
        ``Connection.cancel()``): cancel them, read their replies and drop them
        (``ChangeStream._cut_short``, ``AsyncChangeStream._cut_short``)."""
        self.cancel_reads()
        try:
            yield from self.waiting(self.drain_steps())
        finally:
            self.stop_resending()
        self.discard()

    def stop_resending(self) -> None:
        timer, self._cancel_timer = self._cancel_timer, None
        if timer is not None:
            timer.cancel()

    def hook_cancel(self, core: Connection) -> None:
        """Have ``core.cancel()`` (the sync connection's, or the asyncio connection's through
        its core) call ``on_cancel`` while the stream is open."""
        core.cancel_hooks = (*core.cancel_hooks, self.on_cancel)
        self._hooked = core

    def unhook_cancel(self) -> None:
        core, self._hooked = self._hooked, None
        if core is not None:
            core.cancel_hooks = tuple(h for h in core.cancel_hooks if h != self.on_cancel)
        self.stop_resending()

    def on_cancel(self) -> None:
        """``Connection.cancel()`` with the stream open, from any thread (or the event loop):
        the stream's next wait raises ``StreamCancelled``. With reads in flight the cancel
        goes to the server now (``cancel_reads``), so a wait already under way ends at once;
        ``next_read_op`` checks ``cancelled`` after each send, so a read sent just after
        this ran is cut short by the close that follows."""
        if self.closed or self.cancelled:
            return
        self.cancelled = True
        if self._pending:
            self.cancel_reads()

    def discard(self) -> None:
        """Forget what the reads ahead brought (the close: the session ends, and a restart
        from the last COMMIT's sequence brings those records again)."""
        while self._ready:
            self._free.append(self._ready.popleft()[0])


def holds_records(sink: bytes | bytearray, n: int, carried: bytes | bytearray,
                  want: int) -> bool:
    """Whether the ``n`` bytes read into ``sink`` complete ``want`` records, counting by the
    records' sizes only (common header: hsize, psize). ``carried``: the start of a record
    the previous read cut (the decoder keeps it), which these bytes finish: the first
    record boundary of ``sink`` lies where that record ends, not at byte 0."""
    pos = count = 0
    if carried:
        have = len(carried)
        head = bytes(carried[:8]) + bytes(sink[:max(0, min(n, 8 - have))])
        if len(head) < 8:
            return False
        hsize, psize = _SIZES(head, 0)
        if hsize <= 0 or psize < 0 or hsize + psize < have:
            return False
        pos = hsize + psize - have  # the rest of the cut record
        if pos > n:
            return False
        count = 1
        if count >= want:
            return True
    while pos + 8 <= n:
        hsize, psize = _SIZES(sink, pos)
        if hsize <= 0 or psize < 0:
            return False
        pos += hsize + psize
        if pos > n:
            return False  # the last record is cut: not whole
        count += 1
        if count >= want:
            return True
    return False


def _code(row: Any) -> int:
    return int(row[0]) if row else -1


class ChangeStream(Capture, Closing):
    """An open capture session; iterate it for events, close it (or leave its ``with``) to end
    the capture. Iteration stops after the close."""

    def __init__(self, conn: Connection, owned: bool, tables: Sequence[str],
                 columns: dict[str, Sequence[str]] | Sequence[str] | None,
                 from_sequence: int | None, timeout: int, max_records: int) -> None:
        super().__init__(conn, owned)
        self.conn: Connection = conn
        with conn.cursor() as cur:
            cur.run(lambda c: self.open_op(c, tables, columns, from_sequence, timeout,
                                           max_records))
        self.hook_cancel(conn)

    def __iter__(self) -> Iterator[Event]:
        conn = self.conn
        while not self.closed:
            try:
                events = conn.run(self.next_read_op)
            except StreamCancelled:
                self.close()  # Connection.cancel(): the stream ends as a close ends it
                raise
            yield from events

    def _drain(self) -> None:
        """The connection's next request reads the replies of the reads sent ahead first
        (the sync connection calls this; ``prefix_steps`` and the asyncio one
        ``drain_steps``)."""
        self.conn.drive(self.drain_steps())

    def close(self) -> None:
        """End the capture of every table and close the session (``close_calls``)."""
        call_each(self.close_calls(), self)

    def _cut_short(self) -> None:
        self.conn.drive(self.cut_short_steps())

    def _end_session(self) -> None:
        with self.conn.cursor() as cur:
            cur.run(self.close_op)

    def _close_conn(self) -> None:
        self.conn.close()


def open_args(server: str, timeout: int, max_records: int) -> tuple[object, ...]:
    """cdc_opensess: server name, 0, timeout, records per read, API version 1.1."""
    return (server, 0, int(timeout), int(max_records), 1, 1)


def start_args(session: int, table: str, names: Sequence[str], label: int
               ) -> tuple[object, ...]:
    """cdc_startcapture: the columns by name, the label as user data."""
    return (session, 0, table, ",".join(names), label)


def columns_for(columns: dict[str, Sequence[str]] | Sequence[str] | None,
                table: str) -> list[str] | None:
    if columns is None:
        return None
    if isinstance(columns, dict):
        cols = columns.get(table)
        return list(cols) if cols else None
    return list(columns)


def open_stream(conn_or_dsn: Connection | str, tables: Sequence[str],
                columns: dict[str, Sequence[str]] | Sequence[str] | None = None,
                from_sequence: int | None = None, timeout: int = 5,
                max_records: int = 64) -> ChangeStream:
    """Open a capture of ``tables`` (``"db:owner.table"``) and return its event stream.

    ``conn_or_dsn``: a connection to the ``syscdcv1`` database (the stream uses it until
    closed), or a URL/DSN the stream connects with (to ``syscdcv1``) and closes. ``columns``:
    the columns to capture, one list for all tables or a dict by table (default: all).
    ``from_sequence``: resume after the transaction whose COMMIT event had this sequence
    (0/None: from now). ``timeout``: seconds a read waits before a TIMEOUT event (0: at once,
    < 0: forever). ``max_records``: most records per read of the session (cdc_opensess
    ``max_recs``)."""
    if isinstance(conn_or_dsn, str):
        from . import connect

        conn: Connection = connect(conn_or_dsn, database=CDC_DATABASE)
        owned = True
    else:
        conn, owned = conn_or_dsn, False
    try:
        return ChangeStream(conn, owned, list(tables), columns, from_sequence, timeout,
                            max_records)
    except BaseException:
        if owned:
            conn.close()
        raise
