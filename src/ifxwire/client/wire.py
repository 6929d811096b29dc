"""The session's wire layer: request groups out, replies in, both drivers' loops.

Why the exchanges are organised the way they are:

* Every request group gets exactly one reply, and replies come back in order, so several
  groups can go out in one ``send`` and their replies are read one after another. The driver
  uses that only for groupings that are already evidence-backed on their own (see
  docs/PROTOCOL.md): the three post-login groups, an implicit ``BEGIN`` in front of a
  statement, and "deferred" ``ID CLOSE`` / ``ID RELEASE`` / ``CMMTWORK`` groups. Deferred groups
  are queued instead of costing a round trip and ride along with the next request; their
  replies are read first and their errors only logged.
* Replies are always read to their SQ_EOT before any error is raised, so a failed statement
  never leaves unread bytes behind. Only a wire failure (EOF, timeout, unknown message) breaks
  the connection, and then every later call fails fast with InterfaceError.
* One reentrant lock per connection covers each send-and-read, so threads that share a
  connection by accident cannot interleave bytes on the wire.

``WireSession`` is the lowest of the session's layers (wire, then statements and
transactions in lifecycle.py, then the login in login.py, then ``Connection``'s PEP 249
surface): each is a base class of the next, written in its own module with one job, and
none imports the cursor, LOB or fast-path modules (they import it), so the layers stay
out of the driver's import circle (tests/unit/test_driver_core.py).
"""

from __future__ import annotations

import contextlib
import logging
import weakref
from collections.abc import Callable, Generator, Iterator, Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from .. import errors as _e
from ..errors import InterfaceError, OperationalError
from ..protocol import messages as m
from ..protocol.codes import Msg
from ..protocol.requests import PING_GROUP
from ..protocol.wire import ProtocolViolation, Reader
from ..rows import BaseRowFactory
from ..types.adapters import AdaptersMap
from .cancel import RESEND_INTERVAL, RESEND_LIMIT, TIMER, send_interrupt
from .clientfiles import answer_file_request
from .dsn import ConnectParams
from .replies import Reply, UnknownMessage
from .statements import Prepared, StatementCache
from .steps import FLUSH, Op, Steps, blocking_run
from .transport import Transport

__all__ = ["TRACE_HEX_LIMIT", "OpenResult", "WireSession"]

log = logging.getLogger("ifxwire.client")
plog = logging.getLogger("ifxwire.protocol")

_T = TypeVar("_T")


#: Trace lines show at most this many bytes of hex per direction and exchange.
TRACE_HEX_LIMIT = 2048

#: Message layout and BYTE/TEXT descriptor width until SQ_PROTOCOLS is answered (Layout is
#: immutable: one instance serves every connection).
_BASE_LAYOUT = m.Layout()
_BASE_BLOB_WIDTH = m.blob_descriptor_size(_BASE_LAYOUT)


class OpenResult(Protocol):
    """What the session knows of a cursor with an open result (``Cursor``): Informix
    closes it when the transaction ends."""

    def _result_lost(self, what: str, send_close: bool) -> None: ...


class WireSession:
    """The session's state and its exchanges with the server: sends, the blocking reply
    loop (``_read``, ``_drive``, ``_run``), the I/O-free read steps the asyncio loop drives,
    and the exchange half of the session API. ``Connection`` (connection.py) is its
    subclass; the state set at connect is declared here for the layers in between."""

    # State that starts the same in every connection lives here, on the class, until a
    # connection changes it: a cold connect then stores only what differs (each attribute set
    # in __init__ costs every connect, and connect-and-close is a benchmarked path).
    _closed = False
    _broken: str | None = None
    _layout = _BASE_LAYOUT
    #: BYTE/TEXT descriptor size: 68 bytes once long row ids (bit 70) are negotiated.
    _blob_width = _BASE_BLOB_WIDTH
    _in_txn = False
    _lob_txn = False  # a transaction begun for a statement's new LOBs (_lob_txn_begin)
    _repeatable_read = False
    _logging_mode: str | None = None
    _database: str | None = None
    _epoch = 0
    _cursor_seq = 0
    _client_file: Any = None  # the client file an SQ_FILE exchange has open (lob.py)
    _file_changed: _e.DataError | None = None  # a client file that shrank (clientfiles)
    #: A BYTE/TEXT reader part way through its value (blobstream.py): read out first.
    _active_stream: Any = None
    #: BYTE/TEXT values come as readers (file-like) instead of bytes/str (cursor default).
    blob_stream = False
    #: The version number of the login reply: the release, or (12.10, 14.10) the internal
    #: protocol version (9.56, 9.59); see server_version.
    server_version_internal = ""
    server_version_string = ""
    _server_release: str | None = None
    server_capabilities: frozenset[int] = frozenset()
    server_protocols = b""
    #: The address the login used (see server_name).
    address: tuple[str, int] | None = None
    _cursor_timeout: float | None = None
    _in_flight = False  # a request is out and its reply not read yet
    _timed_out = 0.0  # the timeout that cancelled the current exchange, if any
    #: What ``cancel`` calls when no request of the connection's own waits: the open change
    #: streams' (ifxwire.cdc), whose reads in flight are not requests it tracks.
    cancel_hooks: tuple[Callable[[], object], ...] = ()

    # Set by Connection.__init__ (connection.py).
    _params: ConnectParams
    _lock: Any  # threading.RLock
    encoding: str
    _deferred: list[bytes]
    _cache: StatementCache
    _autocommit: bool
    _open_results: weakref.WeakSet[OpenResult]
    _routines: dict[tuple[str | None, str], tuple[bytes, int]]
    _out_routines: dict[tuple[str | None, str, int], Any]
    lob_materialize_limit: int
    _trace: bool
    fetch_buffer_size: int
    keep_char_padding: bool
    adapters: AdaptersMap
    server_name: str
    statement_timeout: float | None
    row_factory: BaseRowFactory
    _transport: Transport

    def cancel(self) -> None:
        """Interrupt the statement running on this connection; callable from any thread.

        Sends Informix's out-of-band cancel (docs/PROTOCOL.md, "Cancel"): the waiting call
        then fails with -213 (``OperationalError``), the server has rolled the statement
        back and released its locks, and the connection stays usable. Does nothing when no
        request is waiting for its reply (the statement already finished), but for a
        change stream open on the connection: that one ends (``cancel_hooks``, docs/CDC.md).
        """
        if self._in_flight and not self._closed and self._broken is None:
            send_interrupt(self._transport.sock)
        else:
            self.cancel_streams()

    def cancel_streams(self) -> None:
        """``cancel`` with no request of the connection's own waiting: the change streams
        open on it end (``cancel_hooks``; the asyncio connection calls this on its core)."""
        for hook in self.cancel_hooks:
            hook()

    def interrupt(self) -> bool:
        """Send Informix's out-of-band cancel now, whether or not a request of this
        connection's own waits (a change stream's reads in flight are not requests the
        connection tracks); callable from any thread. False when it could not be sent."""
        return send_interrupt(self._transport.sock)

    def statement_timed_out(self, timeout: float, resends: list[int]) -> float | None:
        """A statement timeout fired (both drivers' timers: ``StatementTimer``, asyncio's
        ``call_later``): cancel, and return when to cancel again while the reply is
        missing (None: not again; ``resends``: the count so far, kept by the caller)."""
        if not self._in_flight or resends[0] >= RESEND_LIMIT:
            return None
        self._timed_out = timeout
        resends[0] += 1
        self.cancel()
        return RESEND_INTERVAL

    # ------------------------------------------------------------------ session API: exchanges
    # (The named surface the asyncio loops, LOB objects and pools use; see connection.py.)

    @property
    def cursor_timeout(self) -> float | None:
        """The statement timeout of the cursor whose request runs now (None: the
        connection's ``statement_timeout`` applies)."""
        return self._cursor_timeout

    @property
    def active_stream(self) -> Any:
        """The BYTE/TEXT reader part way through its value (the next request drains it)."""
        return self._active_stream

    @active_stream.setter
    def active_stream(self, reader: Any) -> None:
        self._active_stream = reader

    def ensure_usable(self) -> None:
        """Raise InterfaceError when the connection is closed or broken."""
        self._check()

    def break_session(self, exc: Exception) -> None:
        """Mark the connection broken (its reply stream can no longer be matched to
        requests) and close the transport."""
        self._fail(exc)

    def exchange_begun(self) -> float | None:
        """A request is out and its replies are awaited (``cancel`` interrupts it): the
        statement timeout that applies, the cursor's or else the connection's (None: no
        limit). The asyncio loop's half of ``_exchange``, which does this inline (a call
        fewer per request); ``exchange_ended`` is the other half."""
        self._timed_out = 0.0
        self._in_flight = True
        return self._cursor_timeout or self.statement_timeout

    def exchange_ended(self) -> None:
        """No reply is awaited any more: ``cancel`` and a late timer send nothing."""
        self._in_flight = False

    def begin_exchange(self, groups: Sequence[bytes]) -> list[tuple[bytes, Reply]]:
        """Queue the deferred groups and ``groups`` as one send; the deferred groups with
        the replies to read for them first (an exchange's first half)."""
        self._check()
        deferred, self._deferred = self._deferred, []
        self._send(b"".join([*deferred, *groups]))
        return [(group, self._reply()) for group in deferred]

    def end_exchange(self, deferred: Sequence[tuple[bytes, Reply]]) -> None:
        """After the deferred groups' replies were read: log those that failed (a CLOSE of
        a statement already gone is harmless)."""
        for group, r in deferred:
            if r.error is not None:
                log.debug("deferred %s failed (ignored): %s", self._names(group),
                          self._server_error(r.error))

    def prefix_steps(self, groups: Sequence[bytes]) -> Steps[None]:
        """Send the deferred groups and ``groups``, read only the deferred replies, without
        I/O (the caller reads the rest as it arrives: a BYTE/TEXT reader's start). A
        reader part way through its value is read out first; an interruption once the
        request is sent breaks the session (its replies can no longer be matched)."""
        self._check()
        if self._active_stream is not None:
            yield from self._active_stream.drain_steps()
        deferred = self.begin_exchange(groups)
        try:
            for _, r in deferred:
                yield from self._read_steps(r)
        except BaseException as exc:
            self.exchange_interrupted(exc)
            raise
        self.end_exchange(deferred)

    def exchange_interrupted(self, exc: BaseException) -> None:
        """An exchange stopped by ``exc`` after its request was sent (a wire failure broke
        the session already): its replies can no longer be matched to requests, so the
        session is broken (``prefix_steps``; the asyncio loop, also for a cancelled task
        whose replies could not be read out)."""
        if self._broken is None:
            self._fail(_e.connection_lost(f"an exchange was interrupted ({type(exc).__name__})"))

    def new_reply(self) -> Reply:
        """A reply to fill, in this session's layout and encoding."""
        return self._reply()

    def ping_op(self) -> Op[bool]:
        """One SQ_VERSION round trip (no SQL, no statement, no transaction: the pools' health
        check); True when the server answered without an error."""
        self._check()
        reply = self._reply()
        yield [(PING_GROUP, reply)]
        return reply.error is None

    @contextlib.contextmanager
    def reads_within(self, timeout: float | None) -> Iterator[None]:
        """Receives wait at most ``timeout`` seconds (never longer than ``read_timeout``)
        inside the block (the sync pool's ping; None: unchanged)."""
        if timeout is None:
            yield
            return
        read_timeout = self._params.read_timeout
        self._transport.settimeout(max(min(timeout, read_timeout or timeout), 0.001))
        try:
            yield
        finally:
            if not self._broken:
                self._transport.settimeout(read_timeout)

    def read_steps(self, reply: Reply) -> Steps[Reply]:
        """``_read_steps``: one reply to its SQ_EOT, without I/O."""
        return self._read_steps(reply)

    def send_now(self, data: bytes | bytearray) -> None:
        """Send bytes at once, outside the deferred groups (a change stream's reads sent
        behind reads of its own in flight, whose replies come first)."""
        self._send(data)

    def run(self, make: Callable[[Any], Op[_T]]) -> _T:
        """Run the operation ``make(self)`` holding the connection's lock: the blocking twin
        of ``AsyncSession.run`` (ifxwire.cdc's reads)."""
        with self._lock:
            return self._run(make(self))

    def drive(self, steps: Steps[_T]) -> _T:
        """Drive I/O-free steps holding the connection's lock (``AsyncSession.drive``'s
        blocking twin: a change stream's read sent ahead, read out)."""
        with self._lock:
            return self._drive(steps)

    # ------------------------------------------------------------------ wire primitives

    def _check(self) -> None:
        if self._closed:
            raise _e.closed_error("connection")
        if self._broken is not None:
            raise InterfaceError(f"the connection is broken ({self._broken}); close it")

    def _fail(self, exc: Exception) -> None:
        """Mark the connection broken after a wire failure; closes the socket."""
        self._broken = str(exc) or type(exc).__name__
        self._transport.close()
        self._cache.drain()
        self._deferred.clear()

    def _tracing(self) -> bool:
        return self._trace or plog.isEnabledFor(logging.DEBUG)

    def _trace_line(self, fmt: str, *args: object) -> None:
        level = logging.DEBUG if plog.isEnabledFor(logging.DEBUG) else logging.INFO
        plog.log(level, fmt, *args)

    def _send(self, data: bytes | bytearray) -> None:
        if self._tracing():
            self._trace_line("send %d bytes: %s | %s", len(data), self._names(data), _hex(data))
        try:
            self._transport.send(data)
        except OperationalError as exc:
            self._fail(exc)
            raise

    def _send_stream(self, messages: Iterator[bytes]) -> None:
        """Send messages made as they are sent (a client file's data, clientfiles.py); the
        asyncio connection sends them between awaits instead."""
        for message in messages:
            self._send(message)

    def _send_parts(self, parts: Sequence[Any]) -> None:
        """Send buffers in order without joining them (large framed data, protocol/gather.py)."""
        if self._tracing():
            self._send(b"".join(parts))
            return
        try:
            self._transport.send_parts(parts)
        except OperationalError as exc:
            self._fail(exc)
            raise

    def _names(self, data: bytes | bytearray) -> str:
        names: list[str] = []
        r = Reader(data)
        try:
            while r.remaining:
                msg = m.read_client_message(r, self._layout)
                names.append(_msg_name(msg.code))
        except Exception:
            names.append("?")
        return " ".join(names)

    def _read(self, reply: Reply) -> Reply:
        """Read one reply to its SQ_EOT from the socket (``_read_steps`` driven by a blocking
        loop: the asyncio connection drives the same steps from its stream). Wire failures
        break the connection."""
        t = self._transport
        try:
            if reply.names is None and not reply.lodata_body:
                # A columnar fetch's tuples received and decoded in C (arrowtuples.TupleRuns
                # .pump) up to the first thing the parser below must see.
                pump = getattr(reply.decoder, "pump", None)
                if pump is not None:
                    t.pump(pump, reply)
                # The common case without a generator (a reply that one receive brings
                # whole); what it leaves undone, the steps go on with. An empty buffer is
                # filled first: a new reply's ``need`` is 0, and feeding it nothing sent
                # every statement's reply through the steps (count24).
                if t.end - t.start < reply.need or t.end == t.start:
                    t.fill(reply.need)
                if t.end - t.start >= reply.need:
                    try:
                        t.start = _feed(reply, t.buf, t.start, t.end)
                    except (UnknownMessage, ProtocolViolation) as exc:
                        raise self._parse_failed(exc) from None
                    if reply.complete and not reply.exit:
                        return reply
                    if reply.file_request is not None:
                        answer_file_request(self, reply)
            steps = self._read_steps(reply)
            step = next(steps)
            while True:
                if step.__class__ is int:
                    t.fill(step)
                    step = steps.send(0)
                else:
                    step = steps.send(t.recv_direct(step))  # type: ignore[arg-type]
        except StopIteration:
            return reply
        except OperationalError as exc:
            if self._broken is None:
                self._fail(exc)
            raise
        except Exception:
            raise
        except BaseException:
            # Interrupted half way through a reply (KeyboardInterrupt, ...): the rest of it
            # would be taken for the next request's reply, so the connection cannot go on.
            self._fail(_e.connection_lost("a reply was interrupted while being read"))
            raise

    def _parse_failed(self, exc: Exception) -> _e.Error:
        """A reply the parser refused: the connection is broken; the error to raise."""
        err: _e.Error
        if isinstance(exc, UnknownMessage):
            err = InterfaceError(
                f"protocol error: {exc}; the connection cannot continue and is now closed"
            )
        else:
            err = _e.protocol_error(str(exc))
        self._fail(err)
        return err

    def _read_steps(self, reply: Reply) -> Generator[int | memoryview, int, Reply]:
        """Parse one reply to its SQ_EOT from the receive buffer, without I/O.

        Yields what it lacks: an ``int``, "the buffer must hold this many unparsed bytes"
        (``Transport.fill``; the loop sends back 0), or a ``memoryview``, "receive SQ_LODATA
        data straight into this" (the loop sends back how many bytes arrived). The blocking
        loop is ``_read``, the awaiting one ``AsyncConnection._drive``. Resumable: a loop
        that gives up (an asyncio cancellation) can start new steps on the same ``Reply``,
        which continue where it stopped. Protocol errors break the connection here.
        """
        t = self._transport
        tracing = reply.names is not None
        chunks: list[bytes] = []
        try:
            while True:
                if t.end - t.start >= reply.need:
                    before = t.start
                    t.start = _feed(reply, t.buf, t.start, t.end)
                    if tracing and sum(map(len, chunks)) < TRACE_HEX_LIMIT:
                        chunks.append(bytes(t.view[before : t.start]))
                    if reply.complete:
                        break
                    if reply.file_request is not None:
                        # LOTOFILE/FILETOBLOB with 'client': answer (a write: a batch of its
                        # data), then read on (client/clientfiles.py).
                        answer_file_request(self, reply)
                        continue
                if reply.lodata_body >= _DIRECT and t.start == t.end:
                    # SQ_LODATA data straight into the reader's buffer: one copy, not two.
                    target = reply.direct_target()
                    if target is not None:
                        reply.direct_received((yield target))
                        continue
                yield reply.need
        except (UnknownMessage, ProtocolViolation) as exc:
            raise self._parse_failed(exc) from None
        if tracing:
            self._trace_line(
                "recv %d bytes: %s | %s",
                reply.consumed,
                " ".join(reply.names or ()),
                b"".join(chunks)[:TRACE_HEX_LIMIT].hex(),
            )
        if reply.exit:
            err3 = _e.connection_lost("the server ended the session (SQ_EXIT)")
            self._fail(err3)
            raise err3
        return reply

    if TYPE_CHECKING:
        def _run(self, op: Op[_T], hooks: object = None) -> _T: ...
    else:
        _run = blocking_run("""Run an operation (``Op``) blocking and return its result: the
        one loop (``steps._LOOP``, also ``call_each``; ``AsyncSession._run`` awaits its other
        build, ``await_each``), this session's I/O being ``_exchange`` (a list of groups) and
        ``_drive`` (a Steps generator); a cursor operation's hook (a tuple, ``(name,
        *args)``) is ``hooks``' method of that name (the cursor's). A failed exchange is
        thrown into the operation, so its own clean-up runs.""")

    def _exchange(self, groups: Sequence[tuple[bytes, Reply]]) -> None:
        """Send the deferred groups and ``groups`` in one send; read every reply in order.

        The caller holds the lock and inspects each Reply for errors afterwards.
        """
        deferred = self._send_groups([g for g, _ in groups])
        timeout = self._cursor_timeout or self.statement_timeout
        self._timed_out = 0.0
        self._in_flight = True
        timer = None
        if timeout is not None:
            timer = TIMER.arm(timeout, lambda: self.statement_timed_out(timeout, [0]))
        try:
            self._read_deferred(deferred)
            for _, reply in groups:
                self._read(reply)
        finally:
            self._in_flight = False
            if timer is not None:
                timer.cancel()

    def _send_groups(self, groups: Sequence[bytes]) -> list[bytes]:
        """Send the deferred groups, then ``groups``, in one send; returns the deferred groups,
        whose replies come first. A BYTE/TEXT reader part way through its value is read out
        before anything is sent."""
        self._check()
        if self._active_stream is not None:
            self._active_stream._drain()
            self._check()  # reading the value out may have found the session broken
        # Swap unconditionally: a cursor finalizer may append from another thread at any time.
        deferred, self._deferred = self._deferred, []
        self._send(b"".join([*deferred, *groups]))
        return deferred

    def _drive(self, steps: Generator[Any, Any, _T], fail: bool = True) -> _T:
        """Run I/O-free steps (``_read_steps`` and the readers built on it) to their result
        with blocking receives; the asyncio connection's ``_drive`` awaits the same steps.
        A wire failure breaks the connection (unless ``fail`` is False: the login)."""
        t = self._transport
        try:
            step = next(steps)
            while True:
                try:
                    if step.__class__ is int:
                        t.fill(step)
                        got = 0
                    elif step.__class__ is memoryview:
                        got = t.recv_direct(step)
                    elif step is FLUSH:
                        got = None
                    else:
                        raise InterfaceError(
                            "an application callback returned an awaitable on a sync connection")
                except BaseException as exc:
                    # Into the steps, so that their clean-up runs (executemany reads what
                    # it still can); a wire failure has broken the connection first.
                    if fail and isinstance(exc, OperationalError) and self._broken is None:
                        self._fail(exc)
                    step = steps.throw(exc)
                else:
                    step = steps.send(got)
        except StopIteration as stop:
            result: _T = stop.value
            return result
        except OperationalError as exc:
            if fail and self._broken is None:
                self._fail(exc)
            raise

    def _read_deferred(self, deferred: list[bytes]) -> None:
        for group in deferred:
            r = self._read(Reply(self._layout, self.encoding, trace=self._tracing()))
            if r.error is not None:
                log.debug(
                    "deferred %s failed (ignored): %s",
                    self._names(group),
                    self._server_error(r.error),
                )

    def _reply(self, decoder: Any = None, p: Prepared | None = None, blob_limit: int = 0) -> Reply:
        """A reply to fill; with ``p``, a result's, bounded by the statement's limits."""
        if p is None:
            return Reply(self._layout, self.encoding, decoder, self._tracing(), 0, 0, blob_limit)
        return Reply(
            self._layout, self.encoding, decoder, self._tracing(), p.tuple_limit, p.tuple_budget
        )

    def _server_error(self, err: m.ServerError) -> _e.DatabaseError:
        text = err.text.decode(self.encoding, errors="replace").rstrip("\x00").strip()
        changed, self._file_changed = self._file_changed, None
        if changed is not None and err.sqlcode == -9815:
            # The server refused a client file that shrank while it was sent (clientfiles.py).
            changed.__cause__ = _e.error_from_server(err.sqlcode, err.isamcode, err.offset, text)
            return changed
        if err.sqlcode == -213 and self._timed_out:
            text = text or f"statement_timeout={self._timed_out:g} s reached"
        if err.sqlcode == -937:
            # User/UDR errors carry a whole message rather than a "near" parameter.
            return _e.error_from_server(err.sqlcode, err.isamcode, err.offset, "", text)
        return _e.error_from_server(err.sqlcode, err.isamcode, err.offset, text)

    def _defer(self, group: bytes) -> None:
        self._deferred.append(group)

#: SQ_LODATA chunk data of at least this many bytes is received straight into its sink.
_DIRECT = 8192


def _feed(reply: Reply, buf: bytearray, start: int, end: int) -> int:
    """``reply.feed``, with anything but a protocol violation from the parsers (a bug, a
    ``MemoryError``) reported as one, so that only PEP 249 errors leave a read."""
    try:
        return reply.feed(buf, start, end)
    except ProtocolViolation:
        raise
    except Exception as exc:
        raise ProtocolViolation(f"{type(exc).__name__} while parsing the reply: {exc}") from exc


def _msg_name(code: int) -> str:
    try:
        return Msg(code).name
    except ValueError:
        return str(code)


def _hex(data: bytes | bytearray) -> str:
    if len(data) <= TRACE_HEX_LIMIT:
        return data.hex()
    return f"{bytes(data[:TRACE_HEX_LIMIT]).hex()}...(+{len(data) - TRACE_HEX_LIMIT} bytes)"
