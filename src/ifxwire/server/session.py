"""One client connection: login, then request groups answered one reply each.

The session owns the socket I/O and the per-connection protocol state (negotiated layout,
statement ids, cursors); all SQL work is delegated to an ``EngineSession`` and every byte is
built or parsed by ``ifxwire.protocol`` and ``ifxwire.types``.  A malformed message ends this
session only, with a log line naming the message and the byte offset.
"""

from __future__ import annotations

import contextlib
import logging
import socket
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..errors import InterfaceError
from ..locales import DEFAULT_LOCALE, codec_for_locale
from ..protocol import messages as m
from ..protocol.codes import DBFLAG_ANSI, DBFLAG_EXTENSION, DBFLAG_LOGGED, Msg, StmtType
from ..protocol.columns import ColumnDesc
from ..protocol.gather import send_parts
from ..protocol.login import (
    MIN_CONNECT_REQUEST,
    ConnectResponse,
    build_connect_response,
    packet_length,
    parse_connect_request,
)
from ..protocol.wire import NeedMore, ProtocolViolation, Reader, Writer, i16_at, i32_at, u16_at
from ..types.bind import decode_bind_plain, decode_bind_values
from ..types.blobs import widen_blob_columns
from ..types.complextype import COMPLEX_CODES
from ..types.errors import CodecError
from ..types.rowcodec import row_width
from .bindrun import RunDecoder, cached_run_decoder
from .blobs import BlobStore, BlobUpload
from .chunked import ChunkedSender
from .current import find_current, track_current
from .defences import close_after_reject, release_free_memory, set_send_timeout
from .engine import EngineError, EngineSession, Prepared, text_encoder, with_start_offsets
from .engine import sqlcodes as sc
from .grammar import PURE, START, TRANSITIONS, allowed
from .interrupt import InterruptGate
from .lobwire import ClientFiles, FastPath, locator_encoder, wants_binary
from .pam import pam_login
from .scroll import scroll_fetch
from .statements import after_run, check_bound, new_statement_id
from .tuples import pure_write_tuples, row_encoder, write_tuples

if TYPE_CHECKING:
    from .listener import Server

log = logging.getLogger("ifxwire.server")

#: Our own error texts use typographic punctuation; a Latin-1 client would see "?" for it.
_PLAIN_PUNCTUATION = str.maketrans({"\u2026": "...", "\u2014": "-", "\u2013": "-",
                                    "\u2018": "'", "\u2019": "'", "\u201c": '"',
                                    "\u201d": '"'})

_RECV_SIZE = 256 * 1024
# Tuples per reply are bounded by the client's fetch size, but never fewer than this many
# bytes: JDBC asks for 4096 and a reply that small would cost a round trip per few rows.
_MIN_FETCH_BYTES = 4096
_MAX_FETCH_BYTES = 4 * 1024 * 1024
# Replies to buffered pipelined groups are sent together up to this size.
_FLUSH_BYTES = 256 * 1024
# Blob data pieces at least this large are sent gathered (protocol/gather.py), not copied.
_GATHER_MIN = 16 * 1024
_BLOB_PREFIX = bytes([0, Msg.BLOB])
# Message codes of the inline path in Session._serve, as plain ints; _NONE is no message.
_ID, _BIND, _EXECUTE, _EOT = int(Msg.ID), int(Msg.BIND), int(Msg.EXECUTE), int(Msg.EOT)
_BLOB = int(Msg.BLOB)
# A query's group (`ID [CURNAME] [BIND] OPEN NFETCH EOT`, then `ID CLOSE [RELEASE] EOT`) is
# served inline too (issue 26, select_one_row): these parse in a few byte reads.
_CURNAME, _OPEN, _NFETCH = int(Msg.CURNAME), int(Msg.OPEN), int(Msg.NFETCH)
_CLOSE, _RELEASE = int(Msg.CLOSE), int(Msg.RELEASE)
_NONE = -2
_EXECUTE_EOT = bytes([0, _EXECUTE, 0, _EOT])
_EOT_BYTES = bytes([0, _EOT])
_UNJUDGED, _PREFIX, _JUDGED = 0, 1, 2
_EXIT = int(Msg.EXIT)
#: Client messages of a fixed size (code included), which _judge steps over unparsed.
_FIXED_SIZE: dict[int, int] = {int(c): 2 for c in m.BARE_CODES} | {_ID: 4, int(Msg.RBWORK): 4}
# SQ_NFETCH: 8 bytes, 6 without capability bit 63 (an i16 buffer size; nmap).
_FIXED_LONG_FETCH = _FIXED_SIZE | {int(Msg.NFETCH): 8}
_FIXED_SHORT_FETCH = _FIXED_SIZE | {int(Msg.NFETCH): 6}
# A run of buffered `ID n BIND EXECUTE EOT` groups of one INSERT shorter than this is not worth
# batching; longer runs are cut at _BATCH_MAX groups (a client's pipelined chunk is 256 rows).
_BATCH_MIN = 4
_BATCH_MAX = 512


def _blob_incomplete(buf: bytearray, start: int, end: int) -> bool:
    """Whether ``buf[start:end]`` begins with a non-empty SQ_BLOB not all received yet."""
    if end - start < 4:
        return True
    n = (buf[start + 2] << 8) | buf[start + 3]
    return n > 0 and end - start < 4 + n + (n & 1)


class SessionClosed(Exception):
    """The client went away or sent SQ_EXIT."""


@dataclass
class _Statement:
    prepared: Prepared
    params: list[object] = field(default_factory=list)
    cursor_name: bytes = b""
    rows: Iterator[tuple[object, ...]] | None = None
    encoder: Any = None
    #: SQ_RET_TYPE seen: ROW/collection columns go out in the binary form.
    complex_binary: bool = False
    fetched: int = 0
    exhausted: bool = False
    scroll: bool = False
    materialized: list[tuple[object, ...]] | None = None
    position: int = 0  # scroll cursors: 1-based number of the current row, 0 = before first
    columns: list[ColumnDesc] = field(default_factory=list)  # as described on this connection
    blob_rows: Any = None  # row -> (row with BYTE/TEXT descriptors, blob bytes), if any
    upload: BlobUpload | None = None  # BYTE/TEXT parameters whose data is still to come
    current_rowid: object = None  # FOR UPDATE cursors: the rowid of the row sent last
    lob_binary: bool = False  # SQ_RET_TYPE asked for BLOB/CLOB locators in binary form


#: The widest output row a query may describe (-528 beyond it).
OUTPUT_ROW_LIMIT = 32767


class Session:
    def __init__(self, sock: socket.socket, server: Server, peer: str) -> None:
        self.sock = sock
        self.server = server
        self.peer = peer
        self.buf = bytearray(_RECV_SIZE)
        self.view = memoryview(self.buf)
        self.pending = bytearray()  # replies not yet sent (see _recv_more)
        self.start = 0  # first unparsed byte
        self.end = 0  # end of received bytes
        self.layout = m.Layout()
        self.encoding = "iso-8859-1"
        self.env: dict[str, str] = {}
        self.engine: EngineSession | None = None
        self.statements: dict[int, _Statement] = {}
        self.current: int | None = None
        self.optofc = False
        self.user = ""
        self.limits = server.limits
        self.blobs = BlobStore(m.blob_descriptor_size(self.layout), self.limits.max_blob_bytes)
        self._too_long = 0  # bytes of SQL text skipped unread (see _skip_long_statement)
        self._admitted = False  # counted in Server.logged_in
        self._solo = 0  # groups to answer one by one before trying a batch again
        #: What a client's cancel (TCP urgent byte) means right now (server/interrupt.py).
        self.gate = InterruptGate(sock, self._unread)
        self._quiet_eot = False  # swallow the empty group JDBC sends after SQ_CFPDESCRIBE
        #: How far strict mode has judged the group being served: _UNJUDGED, _JUDGED (to its
        #: end) or _PREFIX (its first messages, all in grammar.PURE; see _judge).
        self._judged = _UNJUDGED
        self._previous = START  # the message before the one _handle is given
        self.fastpath = FastPath(self)  # fast-path calls and SQ_LODATA (lobwire.py)
        #: A query group's bytes, by statement id, for _query_group: (head, tail, cursor
        #: name, NFETCH size, BIND's parameter count or -1 when the group has no BIND).
        self._groups: dict[int, tuple[bytes, bytes, bytes, int, int]] = {}
        self._tails: dict[int, bytes] = {}  # see _done_cost
        self._encoders: dict[tuple[object, ...], Any] = {}  # see _row_encoder
        #: SQ_DESCRIBE replies (_on_ndescribe): key -> (the column list, the bytes).
        self._describes: dict[tuple[object, ...], tuple[list[ColumnDesc], bytes]] = {}
        self.current_out: Writer | None = None  # the reply being built (SQ_FILE flushes it)

    # ------------------------------------------------------------------ I/O

    def _recv_more(self, compact: bool = True, rel: int = 0) -> None:
        # The only place a session blocks: send what is pending first, so replies to pipelined
        # groups that were already buffered go out together, and nothing waits on us.
        # compact=False keeps every byte where it is (SQ_FILE answers read while a message is
        # being handled, whose offsets the loop still holds).
        self._flush()
        if self.start and compact:
            # Compact: move the unparsed tail to the front so the buffer never grows forever.
            tail = self.end - self.start
            if tail:  # (nothing to move after a whole group was served)
                self.buf[:tail] = self.buf[self.start : self.end]
            self.start, self.end = 0, tail
            if len(self.buf) > _RECV_SIZE and tail <= _RECV_SIZE // 2:
                # A large message is done: give its memory back (in place, so the buffer is
                # still the object _serve holds).
                self.view.release()
                del self.buf[_RECV_SIZE:]
                self.view = memoryview(self.buf)
                release_free_memory()
        if self.end == len(self.buf):
            if len(self.buf) >= self.limits.max_message_bytes:
                # rel: where the message being read starts, counted from self.start (_judge
                # reads ahead of it).
                at = self.start + rel
                code = u16_at(self.buf, at)[0] if self.end - at >= 2 else 0
                raise ProtocolViolation(
                    f"{_name(code)} needs more than max_message_bytes="
                    f"{self.limits.max_message_bytes} bytes",
                    at,
                )
            self.view.release()  # a bytearray with an exported view cannot grow
            grow = min(len(self.buf), self.limits.max_message_bytes - len(self.buf))
            self.buf.extend(bytes(grow))
            self.view = memoryview(self.buf)
        idle = self.start == self.end
        if idle:
            self.gate.idle()  # a cancel from now on is late unless a request arrives
        es = self.engine
        if es is not None:
            es.rl_leave()  # waiting for the client: others may commit its parked transaction
        n = self.sock.recv_into(self.view[self.end :])
        if es is not None:
            es.rl_enter()
        if n == 0:
            raise SessionClosed
        self.end += n
        if idle:
            self.gate.busy()

    def _unread(self) -> int:
        return self.end - self.start

    def _next_message(self) -> m.ClientMsg:
        while True:
            r = Reader(self.buf, self.start, self.end)
            try:
                msg = m.read_client_message(r, self.layout)
            except NeedMore:
                long_msg = self._skip_long_statement()
                if long_msg is not None:
                    return long_msg
                self._recv_more()
                continue
            self._msg_end = r.pos
            return msg

    def _skip_long_statement(self) -> m.ClientMsg | None:
        """A PREPARE/COMMAND whose SQL text is over max_statement_bytes: read past its bytes
        without keeping them and hand back an empty PREPARE that _handle answers with -460,
        so the session goes on (Informix refuses the statement, not the connection)."""
        start, end, buf = self.start, self.end, self.buf
        if not self.layout.long_sql or end - start < 8:
            return None
        code = (buf[start] << 8) | buf[start + 1]
        if code != Msg.PREPARE and code != Msg.COMMAND:
            return None
        size = int.from_bytes(buf[start + 4 : start + 8], "big")
        if size <= self.limits.max_statement_bytes:
            return None
        remaining = 8 + size + (size & 1)
        while True:
            have = self.end - self.start
            if have >= remaining:
                self.start += remaining
                break
            remaining -= have
            self.start = self.end
            self._recv_more()
        self._msg_end = self.start
        log.info("session %s: %s of %d bytes refused with -460", self.peer, _name(code), size)
        self._too_long = size
        return m.ClientMsg(code, start)

    def _peek_code(self) -> int:
        """The code of the next message, received if need be (nothing is consumed)."""
        while self.end - self.start < 2:
            self._recv_more()
        return (self.buf[self.start] << 8) | self.buf[self.start + 1]

    def _judge(self, previous: int) -> None:
        """Check the rest of the group against the catalogue before anything of it runs.

        Reads ahead (receiving as needed, consuming nothing) to the group's SQ_EOT (or SQ_EXIT)
        and raises ProtocolViolation for the first message that may not follow its
        predecessor.  Three things cannot be held whole and stop the look-ahead early, if
        only messages of grammar.PURE came before them: BYTE/TEXT data (from SQ_BBIND on),
        an SQ_LODATA write's data, and SQL text over max_statement_bytes (refused with -460,
        which skips the rest of the group).  The group is then judged again from the first
        message outside PURE, and that look-ahead must reach the end."""
        state = previous
        rel = 0  # offset of the next message from self.start (compaction moves both)
        pure = True
        limit = self.limits.max_statement_bytes
        buf = self.buf  # extended in place by _recv_more, never replaced
        sizes = _FIXED_LONG_FETCH if self.layout.long_fetch else _FIXED_SHORT_FETCH
        transitions = TRANSITIONS  # grammar.allowed, inlined on the stepping path
        while True:
            at = self.start + rel
            end = self.end
            # The messages of most groups have a fixed size: step over them without parsing.
            if end - at >= 2:
                code = (buf[at] << 8) | buf[at + 1]
                size = sizes.get(code, 0)
                if code == _CURNAME and end - at >= 4:  # a CHARSTR: as easily stepped over
                    n = (buf[at + 2] << 8) | buf[at + 3]
                    size = 4 + n + (n & 1)
                if size and end - at >= size and code in transitions.get(state, ()):
                    if code in (_EOT, _EXIT):
                        self._judged = _JUDGED
                        return
                    pure = pure and code in PURE
                    state = code
                    rel += size
                    continue
            r = Reader(buf, at, end)
            try:
                msg = m.read_client_message(r, self.layout)
            except NeedMore:
                if pure and self._long_text_at(at, limit):
                    self._judged = _PREFIX
                    return
                self._recv_more(rel=rel)
                continue
            code = msg.code
            if not allowed(state, code):
                raise ProtocolViolation(
                    f"message {_name(code)} may not follow {_name(state)} in a group", at
                )
            if code == Msg.EOT or code == Msg.EXIT or code == Msg.LODATA:
                # LODATA is alone in its group: its data chunks and EOT are checked as they
                # are read (lobwire.py).
                self._judged = _JUDGED
                return
            if pure and code == Msg.BBIND:
                self._judged = _PREFIX
                return
            pure = pure and code in PURE
            state = code
            rel = r.pos - self.start

    def _long_text_at(self, at: int, limit: int) -> bool:
        """A PREPARE/COMMAND whose SQL text is over ``limit`` starts at ``at``."""
        buf = self.buf
        if not self.layout.long_sql or self.end - at < 8:
            return False
        code = (buf[at] << 8) | buf[at + 1]
        return (code == Msg.PREPARE or code == Msg.COMMAND) and int.from_bytes(
            buf[at + 4 : at + 8], "big") > limit

    def _send(self, data: bytes | bytearray) -> None:
        self._flush()
        self.sock.sendall(data)

    def _queue(self, data: bytes | bytearray) -> None:
        self.pending += data
        if len(self.pending) >= _FLUSH_BYTES:
            self._flush()

    def _flush(self) -> None:
        if self.pending:
            self.sock.sendall(self.pending)
            self.pending.clear()

    def _send_parts(self, parts: list[Any]) -> None:
        """What is queued, then ``parts`` gathered by the kernel (protocol/gather.py): large
        data goes out without being copied next to its chunk headers first."""
        self._flush()
        send_parts(self.sock, parts)

    # ------------------------------------------------------------------ main loop

    def run(self) -> None:
        try:
            if not self._login():
                return
            self._serve()
        except SessionClosed:
            pass
        except TimeoutError:
            # Only the login has a receive timeout; a send timeout is a BlockingIOError.
            log.warning("session %s: login not completed within login_timeout=%gs; closing",
                        self.peer, self.limits.login_timeout)
        except ProtocolViolation as exc:
            log.warning("session %s: closing after a protocol violation: %s", self.peer, exc)
        except OSError as exc:
            log.info("session %s: connection lost: %s", self.peer, exc)
        except Exception:  # the server must never die because of one session
            log.exception("session %s: internal error, closing the session", self.peer)
        finally:
            self._cleanup()

    def _release_engine(self) -> None:
        # Close row generators while their SQLite connection is still open; left to the
        # garbage collector they would try to close a cursor on a closed database.
        self._close_all()
        if self.engine is not None:
            try:
                self.engine.rl_enter()  # as a request (features/locks/latch.py)
                self.engine.close()  # rolls back any open transaction
                self.engine.rl_leave()
            except Exception:
                log.exception("session %s: error while closing the engine session", self.peer)
            self.engine = None

    def _cleanup(self) -> None:
        self.server.interrupts.unregister(self.gate)
        with contextlib.suppress(OSError):
            self._flush()  # replies to groups answered before the session ended
        self._release_engine()
        self._leave()
        with contextlib.suppress(OSError):
            self.sock.close()
        log.debug("session %s: closed", self.peer)

    def _leave(self) -> None:
        """Give this session's max_sessions slot back (once)."""
        if self._admitted:
            self._admitted = False
            self.server.leave()

    def _login(self) -> bool:
        limits = self.limits
        if limits.login_timeout > 0:
            self.sock.settimeout(limits.login_timeout)
        while True:
            try:
                total = packet_length(self.view[self.start : self.end])
                if total < MIN_CONNECT_REQUEST:
                    # Not a login (nmap sends a bare SQ_EXIT, 0x0038, on a connection it did
                    # not use): waiting for the bytes the "length" promises would hold the
                    # client until a timeout (docs/PROTOCOL.md §2, "Rejections").
                    raise ProtocolViolation(
                        f"login packet length {total} is shorter than any connection request", 0)
                if self.end - self.start >= total:
                    break
            except NeedMore:
                pass
            self._recv_more()
        packet = bytes(self.buf[self.start : self.start + total])
        self.start += total
        req = parse_connect_request(packet)
        self.server.trace_in(self, "LOGIN", f"user={req.user!r} server={req.server!r}")
        srv = self.server
        host = self.peer.rsplit(":", 1)[0]
        delay = srv.throttle.delay(host)
        if delay:
            time.sleep(delay)  # after repeated failures from this address (defences.py)
        if srv.redirect_to is not None:
            name, where, port = srv.redirect_to
            self._send(build_connect_response(ConnectResponse(
                accepted=False, version=srv.login_version, redirect=f"{name}|{where}|{port}")))
            log.info("session %s: login of %r redirected to %s@%s:%d",
                     self.peer, req.user, name, where, port)
            return False
        reject = 0
        pam = srv.pam
        if req.server and req.server != srv.server_name:
            reject = -761  # INFORMIXSERVER does not match DBSERVERNAME
        elif pam is None and (srv.users.get(req.user) is None
                              or srv.users[req.user] != req.password):
            reject = -951  # incorrect password or unknown user
            srv.throttle.failed(host)
        elif not _known_locale(req.env):
            reject = -23101  # Informix cannot load the locale (docs/SERVER.md, "Locales")
        elif not srv.admit():
            reject = sc.TOO_MANY_SESSIONS  # max_sessions reached (Informix LIMITNUMSESSIONS)
            log.warning("session %s: max_sessions=%d reached; login refused with %d",
                        self.peer, limits.max_sessions, reject)
        else:
            self._admitted = True
            srv.throttle.succeeded(host)
        resp = ConnectResponse(accepted=not reject, version=srv.login_version, svc_error=reject)
        if reject == -761:
            # A real server names itself in the -761 rejection (its DBSERVERNAME in the
            # application-id slot); nmap's informix-brute retries with that name
            # (docs/PROTOCOL.md §2, "Rejections").
            resp.applid = srv.server_name
        self._send(build_connect_response(resp))
        if reject:
            log.info("session %s: login of %r rejected with %d", self.peer, req.user, reject)
            close_after_reject(self.sock)
            return False
        self.user = req.user
        self.env = dict(req.env)
        # Character data travels in the database locale's code set (engine
        # EngineSession.code_set_locale): the client's DB_LOCALE until a database is open.
        self.encoding = codec_for_locale(
            self.env.get("DB_LOCALE") or self.env.get("CLIENT_LOCALE") or DEFAULT_LOCALE)
        if pam is not None and not pam_login(self, req.user, pam):
            srv.throttle.failed(host)
            return False  # under login_timeout, as the rest of the login
        self.sock.settimeout(None)
        set_send_timeout(self.sock, limits.send_timeout)
        self.engine = srv.engine.session(req.user, self.env)
        self.gate.state = self.engine.state
        srv.interrupts.register(self.gate)
        self.engine.current_row = lambda name, table: find_current(
            self.statements, self.encoding, name, table)
        self.engine.lo.client = ClientFiles(self)
        self.blobs.lo = self.engine.lo  # large BYTE/TEXT values are stored objects
        log.debug("session %s: login of %r accepted (client locale %s)", self.peer, req.user,
                  self.env.get("CLIENT_LOCALE", "default"))
        return True

    def _serve(self) -> None:
        strict = self.server.strict
        tracing = self.server.trace
        # The hot messages of a pipelined executemany (ID, BIND of plain values, EXECUTE and
        # EOT) are parsed and handled inline; every other message, an incomplete one, and
        # every message when tracing, takes the general path below with the same checks.
        fast = not tracing
        buf = self.buf  # extended in place by _recv_more, never replaced
        transitions = TRANSITIONS
        while True:
            if self._solo:
                self._solo -= 1
            elif fast:
                if self.start == self.end:
                    self._recv_more()  # the next group (the general path would wait here too)
                if self._query_group() or self._batch_inserts():
                    continue
            out = Writer()
            self.current_out = out
            previous = START
            failed = False
            # JDBC ends its SQ_CFPDESCRIBE group twice (sendCFPDescribe's own sendEOT, then
            # receiveMessage's flip): the empty group that follows gets no reply.
            quiet_eot, self._quiet_eot = self._quiet_eot, False
            while True:
                if strict and self._judged != _JUDGED:
                    # Judge the whole group before any message of it runs (a refusal after an
                    # INSERT ran would leave it committed while the client loses its session).
                    first = self._peek_code()
                    if not (quiet_eot and first == _EOT and previous == START) and (
                        self._judged == _UNJUDGED or first not in PURE
                    ):
                        self._judge(previous)
                if fast:
                    start = self.start
                    end = self.end
                    code = _NONE
                    if end - start >= 2:
                        code = (buf[start] << 8) | buf[start + 1]
                        if code in (_EXECUTE, _EOT, _OPEN, _CLOSE, _RELEASE):
                            stop = start + 2
                        elif code == _NFETCH and end - start >= (
                            fetch_size := 8 if self.layout.long_fetch else 6  # see _FIXED_SIZE
                        ):
                            stop = start + fetch_size
                            number = (i32_at(buf, start + 2)[0] if fetch_size == 8
                                      else i16_at(buf, start + 2)[0])
                        elif code == _CURNAME and end - start >= 4:
                            n = u16_at(buf, start + 2)[0]
                            stop = start + 4 + n + (n & 1)
                            if stop > end:
                                code = _NONE
                        elif code == _ID and end - start >= 4:
                            stop = start + 4
                            number = i16_at(buf, start + 2)[0]
                        elif code == _BIND and end - start >= 4 and self.fastpath.call is None:
                            plain = decode_bind_plain(
                                buf, start + 4, end, u16_at(buf, start + 2)[0], self.encoding
                            )
                            if plain is None:
                                code = _NONE
                            else:
                                values, stop = plain
                        elif code == _BLOB and not failed and (upload := self._upload()):
                            # A run of BYTE/TEXT data chunks, taken in one go (blobs.py).
                            stop, blob_error = upload.take_run(
                                buf, start, end, self.limits.max_blob_bytes)
                            if stop == start:
                                if blob_error is None and _blob_incomplete(buf, start, end):
                                    self._recv_more()  # the rest of the chunk, then go on
                                    continue
                                code = _NONE
                        else:
                            code = _NONE
                    if code != _NONE:
                        if quiet_eot and code == _EOT and previous == START:
                            quiet_eot = False
                            self.start = stop
                            continue
                        # A group _judge has checked to its end needs no second look.
                        if strict and self._judged != _JUDGED:
                            nxt = transitions.get(previous)
                            if nxt is None or code not in nxt:
                                raise ProtocolViolation(
                                    f"message {_name(code)} may not follow {_name(previous)}"
                                    " in a group",
                                    start,
                                )
                        if code == _EOT:
                            self.start = stop
                            self._judged = _UNJUDGED
                            break
                        if not failed:
                            try:
                                if code == _ID:
                                    self.current = number
                                    if number not in self.statements:
                                        raise self._unknown_statement(number, stop)
                                elif code == _BIND:
                                    st = self._stmt()
                                    st.params = values
                                    st.upload = None
                                elif code == _BLOB:
                                    if blob_error is not None:
                                        assert upload is not None
                                        upload.finish(False)
                                        raise blob_error
                                elif code == _EXECUTE:
                                    self._execute(self._stmt(), out)
                                elif code == _NFETCH:
                                    self._fetch(self._stmt(), number, out)
                                elif code == _CURNAME:
                                    self._stmt().cursor_name = bytes(buf[stop - n - (n & 1):
                                                                         stop - (n & 1)])
                                else:  # OPEN, CLOSE, RELEASE: their handlers read no fields
                                    _HANDLERS[code](self, _NO_FIELDS, out)
                            except EngineError as exc:
                                failed = True
                                self._put_error(out, exc)
                        self.start = stop
                        previous = code
                        if len(out.buf) >= _FLUSH_BYTES:
                            self._queue(out.buf)
                            out.buf.clear()
                        continue
                msg = self._next_message()
                code = msg.code
                if quiet_eot and code == Msg.EOT and previous == START:
                    quiet_eot = False
                    self.start = self._msg_end
                    continue
                if strict and not allowed(previous, code):
                    raise ProtocolViolation(
                        f"message {_name(code)} may not follow {_name(previous)} in a group",
                        msg.offset,
                    )
                if tracing:
                    self.server.trace_in(self, _name(code), _describe_msg(msg))
                if code == Msg.EXIT:
                    # Roll back, release locks and give the session slot back before
                    # acknowledging: a client that has the ack may start another session at
                    # once and must meet neither this one's locks nor its max_sessions slot.
                    self._release_engine()
                    self._leave()
                    self._send(Writer().u16(Msg.EXIT).getvalue())
                    raise SessionClosed
                if code == Msg.EOT:
                    self.start = self._msg_end
                    self._judged = _UNJUDGED
                    break
                if not failed:
                    try:
                        self._previous = previous
                        self._handle(msg, out)
                    except EngineError as exc:
                        failed = True
                        self._put_error(out, exc)
                # Bind values are decoded in _handle, so the bytes may be released only now.
                self.start = self._msg_end
                previous = code
                if len(out.buf) >= _FLUSH_BYTES:
                    # A group with many replies (FETCHBLOBs, a long batch) is streamed, so
                    # its reply never has to be held whole.
                    self._queue(out.buf)
                    out.buf.clear()  # in place: current_out is this writer
            self.fastpath.call = None
            out.u16(Msg.EOT)
            self.server.count_group()
            if tracing:
                self.server.trace_out(self, out.buf)
            self._queue(out.buf)

    def _query_group(self) -> bool:
        """Serve a whole ``ID n [CURNAME] [BIND] OPEN ID n NFETCH EOT`` group in one step.

        The group a driver sends for every execution of a prepared query (ifxwire's and
        informix-driver's statement cache; docs/PROTOCOL.md, *A query's group served in one
        step*). Its bytes, but for BIND's values, repeat from one execution to the next, so
        after the first one is parsed they are matched with two ``startswith``: no message
        loop, no look-ahead by _judge (this shape is checked against grammar.TRANSITIONS
        when first met, and bytes equal to a checked group are the same messages). Only a
        whole group already received is taken; anything else (an unknown statement, another
        shape, a BIND that is not plain) returns False and takes the general path, which
        answers exactly as before. The replies are the general path's: the same handlers.
        """
        buf, pos, end = self.buf, self.start, self.end
        if end - pos < 10 or ((buf[pos] << 8) | buf[pos + 1]) != _ID or self._quiet_eot:
            return False
        after = (buf[pos + 4] << 8) | buf[pos + 5]
        if after != _CURNAME and after != _BIND and after != _OPEN:
            return False  # ID then NFETCH, CLOSE, RELEASE, EXECUTE...: not a query's group
        number = (buf[pos + 2] << 8) | buf[pos + 3]
        tmpl = self._groups.get(number)
        if tmpl is None or not buf.startswith(tmpl[0], pos, end):
            tmpl = self._parse_query_group(pos, end, number)
            if tmpl is None:
                return False
        head, tail, name, size, nparams = tmpl
        at = pos + len(head)
        values: list[object] | None = None
        if nparams >= 0:
            plain = decode_bind_plain(buf, at, end, nparams, self.encoding)
            if plain is None:
                return False
            values, at = plain
        if not buf.startswith(tail, at, end):
            return False
        st = self.statements.get(number)
        if st is None or self.engine is None:
            return False  # the general path gives the error (-267 or -208)
        self.current = number
        st.cursor_name = name
        if values is not None:
            st.params = values
            st.upload = None
        out = Writer()
        self.current_out = out
        p = st.prepared
        encode = st.encoder
        write = getattr(encode, "write", None)
        try:
            if (encode is None or st.scroll or st.rows is not None or st.blob_rows is not None
                    or st.upload is not None or st.materialized is not None or p.for_update
                    or not p.is_query or p.plan.current_rowid):
                # Anything but a plain cursor (or its first run, which makes its encoder):
                # the handlers' own steps, one by one.
                try:
                    self._open(st)
                finally:
                    st.scroll = False
                self._fetch(st, size, out)
            else:
                # _open and _fetch for a plain cursor (the checks above are theirs), without
                # the steps that cannot apply to it.
                self.blobs.retire(number)
                check_bound(st.params)
                rows = iter(self.engine.open_cursor(p, st.params))
                after_run(st)
                st.current_rowid = None
                st.exhausted = False
                st.rows = rows  # for _stop_rows, if the writer fails
                budget = min(max(size, _MIN_FETCH_BYTES), _MAX_FETCH_BYTES)
                try:
                    if write is not None:  # the compiled writer
                        count, _sent, exhausted = write(out.buf, rows, budget)
                    else:
                        count, exhausted = pure_write_tuples(encode, out, rows, budget)
                except CodecError as exc:
                    _stop_rows(st)
                    raise _unsendable(exc) from None
                except EngineError:
                    _stop_rows(st)  # interrupted (-213) or failed: the cursor is closed
                    raise
                st.fetched = count
                if exhausted:
                    st.exhausted = True
                    st.rows = None
                    out.buf += self._done_cost(count)
        except EngineError as exc:
            self._put_error(out, exc)
        self.start = at + len(tail)
        out.buf += _EOT_BYTES
        server = self.server
        server.request_groups += 1
        server.one_step_groups += 1
        self._queue(out.buf)
        return True

    def _done_cost(self, count: int) -> bytes:
        """The end of a cursor read through: SQ_DONE with the row count, SQ_COST, and with
        OPTOFC the SQ_CLOSE (as _fetch writes them), kept per count for small counts."""
        key = count if not self.optofc else ~count
        tail = self._tails.get(key)
        if tail is None:
            w = Writer()
            m.put_done(w, count, self.layout)
            m.put_cost(w, 0, 0)
            if self.optofc:
                w.u16(Msg.CLOSE)
            tail = bytes(w.buf)
            if len(self._tails) < 256:
                self._tails[key] = tail
        return tail

    def _parse_query_group(self, pos: int, end: int, number: int,
                           ) -> tuple[bytes, bytes, bytes, int, int] | None:
        """The template of the query group at ``pos`` (see _query_group), remembered for
        statement ``number``, or None when the bytes there are not such a group (yet)."""
        buf = self.buf
        codes = [_ID]
        at = pos + 4
        name = b""
        if end - at >= 4 and ((buf[at] << 8) | buf[at + 1]) == _CURNAME:
            n = (buf[at + 2] << 8) | buf[at + 3]
            name = bytes(buf[at + 4 : at + 4 + n])
            at += 4 + n + (n & 1)
            codes.append(_CURNAME)
        nparams = -1
        head_end = at
        if end - at >= 4 and ((buf[at] << 8) | buf[at + 1]) == _BIND:
            nparams = (buf[at + 2] << 8) | buf[at + 3]
            plain = decode_bind_plain(buf, at + 4, end, nparams, self.encoding)
            if plain is None:
                return None
            head_end = at + 4
            at = plain[1]
            codes.append(_BIND)
        tail_start = at
        long_fetch = self.layout.long_fetch
        size_len = 8 if long_fetch else 6
        if end - at < 8 + size_len or not (
            (buf[at] << 8) | buf[at + 1] == _OPEN
            and (buf[at + 2] << 8) | buf[at + 3] == _ID
            and (buf[at + 4] << 8) | buf[at + 5] == number
            and (buf[at + 6] << 8) | buf[at + 7] == _NFETCH
        ):
            return None
        at += 8
        size = i32_at(buf, at)[0] if long_fetch else i16_at(buf, at)[0]
        at += size_len - 2
        if (buf[at] << 8) | buf[at + 1] != _EOT:
            return None
        at += 2
        codes += [_OPEN, _ID, _NFETCH, _EOT]
        previous = START
        for code in codes:
            if not allowed(previous, code):
                return None
            previous = code
        tmpl = (bytes(buf[pos:head_end]), bytes(buf[tail_start:at]), name, size, nparams)
        if len(self._groups) < 1024:
            self._groups[number] = tmpl
        return tmpl

    def _batch_inserts(self) -> bool:
        """Answer a run of buffered ``ID n BIND EXECUTE EOT`` groups of one INSERT at once.

        A pipelined executemany leaves hundreds of such groups in the receive buffer. When the
        engine can run them as one executemany (EngineSession.can_batch), each group still gets
        its own reply, the same bytes the single-row path writes (SQ_DONE with one row, SQ_COST,
        EOT).
        If the batch does not apply (an error in any row, a changed table), nothing has
        changed, and those groups are answered one by one, so every row's outcome and error is
        exactly the single-row path's. Only complete groups in the buffer are taken: this
        never waits for more bytes.
        """
        buf, pos, end = self.buf, self.start, self.end
        if end - pos < 12 or ((buf[pos] << 8) | buf[pos + 1]) != _ID:
            return False
        number = i16_at(buf, pos + 2)[0]
        st = self.statements.get(number)
        eng = self.engine
        if st is None or eng is None or st.prepared.is_query or not eng.can_batch(st.prepared):
            return False
        if ((buf[pos + 4] << 8) | buf[pos + 5]) != _BIND:
            return False
        head = bytes(buf[pos : pos + 8])  # ID n BIND nparams
        nparams = u16_at(buf, pos + 6)[0]
        rows: list[list[object]] = []
        encoding = self.encoding
        decode_run: RunDecoder | None = None
        # startswith(prefix, start, end) compares in place (no slice per row) and never reads
        # past self.end: bytes there are stale (the buffer is reused), so a group counts only
        # when its EXECUTE and EOT have arrived.
        while len(rows) < _BATCH_MAX and end - pos >= 12 and buf.startswith(head, pos, end):
            at = pos + 8
            plain = decode_run(buf, at, end) if decode_run is not None else None
            if plain is None:  # the first row, or one unlike the first (bindrun.py)
                plain = decode_bind_plain(buf, at, end, nparams, encoding)
                if plain is None:
                    break
                if decode_run is None:
                    decode_run = cached_run_decoder(buf, at, end, nparams, encoding)
            values, at = plain
            if not buf.startswith(_EXECUTE_EOT, at, end):
                break
            rows.append(values)
            pos = at + 4
        # When no batch is made, the groups just decoded are answered one by one, without
        # decoding them again for another attempt (the current one plus _solo more).
        if len(rows) < _BATCH_MIN or not eng.execute_batch(st.prepared, rows):
            self._solo = max(len(rows) - 1, 0)
            return False
        self.current = number
        st.params = rows[-1]
        st.upload = None
        after_run(st)
        reply = Writer()
        m.put_done(reply, 1, self.layout)
        m.put_cost(reply, 0, 0)  # each row's reply is the single-row path's (_execute)
        reply.u16(Msg.EOT)
        self._queue(bytes(reply.buf) * len(rows))
        self.server.request_groups += len(rows)
        self.server.batched_groups += len(rows)
        self.start = pos
        return True

    # ------------------------------------------------------------------ handlers

    def _put_error(self, out: Writer, exc: EngineError) -> None:
        log.debug("session %s: error %d (isam %d) near %r offset %d: %s", self.peer,
                  exc.sqlcode, exc.isamcode, exc.near, exc.offset, exc.message)
        text = (exc.near or "").translate(_PLAIN_PUNCTUATION).encode(self.encoding,
                                                                     errors="replace")
        m.put_err(out, exc.sqlcode, exc.isamcode, exc.offset, text, self.layout)

    def _row_encoder(self, st: _Statement) -> Any:
        """The statement's tuple encoder: LOB locators and ROW/collection values in the form
        the client asked for with SQ_RET_TYPE.

        A driver that prepares a statement for each execution (informix-driver) would build
        the same encoder every time: encoders are kept per session by what they are made
        from (the columns, the code set, the SQ_RET_TYPE forms). Not kept: those with
        ROW/collection columns, whose text form also depends on the session's DBDATE and
        the like at the time (_complex_text)."""
        columns = st.columns
        if any(c.base in COMPLEX_CODES for c in columns):
            return self._make_row_encoder(st)
        key = (tuple(columns), self.encoding, st.complex_binary, st.lob_binary)
        encoder = self._encoders.get(key)
        if encoder is None:
            encoder = self._make_row_encoder(st)
            if len(self._encoders) >= 256:
                self._encoders.clear()
            self._encoders[key] = encoder
        return encoder

    def _make_row_encoder(self, st: _Statement) -> Any:
        inner = row_encoder(st.columns, self.encoding,
                            None if st.complex_binary else self._complex_text)
        return locator_encoder(st.columns, inner, st.lob_binary)

    def _complex_text(self, col: ColumnDesc) -> Callable[[object], str]:
        """Text formatter of a ROW/collection column for clients without SQ_RET_TYPE."""
        assert self.engine is not None
        return text_encoder(col, self.engine.state.ctx)

    def _stmt(self) -> _Statement:
        if self.current is None or self.current not in self.statements:
            raise EngineError(sc.NO_STATEMENT, message="no statement is current")
        return self.statements[self.current]

    def _unknown_statement(self, number: int, end: int) -> EngineError:
        """The error for ``SQ_ID number`` (ending at ``end``) naming no prepared statement.

        Declaring a cursor on a released statement: real servers answer -208, where every
        other use of it is -267 (informix-driver CHANGELOG 2026.09.02, test_statement_slot.py:
        a CLOSE/RELEASE that landed between a PREPARE and its CURNAME/OPEN gave -208, between
        fetches -267). Both the fast path and _handle take SQ_ID, so both ask here; the next
        message is looked at only within the bytes received (``self.end``)."""
        if self.end >= end + 2 and u16_at(self.buf, end)[0] == Msg.CURNAME:
            return EngineError(sc.MEMORY, message=f"statement {number} was released")
        return EngineError(sc.NO_STATEMENT, message=f"statement {number} is not prepared")

    def _handle(self, msg: m.ClientMsg, out: Writer) -> None:
        """One client message: its handler from the table (_HANDLERS, after the class).
        Which messages may follow which is judged before, in server/grammar.py."""
        assert self.engine is not None
        handler = _HANDLERS.get(msg.code)
        if handler is None:
            raise EngineError(sc.NOT_IMPLEMENTED, message=f"{_name(msg.code)} is not supported")
        handler(self, msg, out)

    def _eng(self) -> EngineSession:
        eng = self.engine
        assert eng is not None
        return eng

    # ---- statements: SQ_ID, PREPARE/COMMAND, DESCRIBE, BIND, OPEN/FETCH, EXECUTE, CLOSE

    def _on_id(self, msg: m.ClientMsg, out: Writer) -> None:
        self.current = msg.number
        if msg.number not in self.statements:
            raise self._unknown_statement(msg.number, self._msg_end)

    def _on_prepare(self, msg: m.ClientMsg, out: Writer) -> None:
        """SQ_PREPARE and SQ_COMMAND: both prepare; an EXECUTE or OPEN follows."""
        if self._too_long:
            size, self._too_long = self._too_long, 0
            raise EngineError(sc.STATEMENT_TOO_LONG, message=f"{size} bytes of SQL text")
        text = msg.sql
        if text.endswith(b"\0"):
            # A C string's terminator counted in the length: nmap's informix.lua sends an
            # even-length statement so, and real servers run it (docs/PROTOCOL.md §4).
            text = text.rstrip(b"\0")
        sql = text.decode(self.encoding, errors="replace")
        log.debug("session %s: %s %s", self.peer,
                  "prepare" if msg.code == Msg.PREPARE else "command", sql)
        try:
            prepared = self._eng().prepare(sql)
        except EngineError as exc:
            if exc.sqlcode == sc.OUT_ARGUMENT:
                raise self.fastpath.out_parameters(exc) from None
            raise
        columns = self._wire(prepared.columns)
        if prepared.is_query and columns and row_width(columns) > OUTPUT_ROW_LIMIT:
            # -528 "Maximum output rowsize (32767) exceeded.": a query whose described row
            # passes 32,767 bytes (Hibernate's ImmutableTest on a real Informix; a migration
            # tool's connector meets it with wide LVARCHAR casts; docs/SERVER.md).
            raise EngineError(sc.OUTPUT_ROWSIZE)
        sid = new_statement_id(self.statements, self.limits.max_statements)
        self.statements[sid] = _Statement(prepared, columns=columns)
        self.current = sid

    def _on_ndescribe(self, msg: m.ClientMsg, out: Writer) -> None:
        st = self._stmt()
        p = st.prepared
        # A query's result columns; for an INSERT the target columns of its ``?``s.
        columns = st.columns or self._wire(p.inputs)
        sid = self.current or 0
        # The reply is kept by the column list it describes (the prepared statement's, which
        # the engine's statement cache hands out again for the same text until the schema
        # changes), held with it so the id is never another list's.
        key = (id(columns), p.stmt_type, sid, self.encoding)
        kept = self._describes.get(key)
        if kept is not None and kept[0] is columns:
            out.buf += kept[1]
            return
        reply = Writer()
        width = row_width(columns) if columns else 0
        m.put_describe(reply, p.stmt_type, sid, columns, width, self.layout,
                       encoding=self.encoding)
        if len(self._describes) >= 256:
            self._describes.clear()
        self._describes[key] = (columns, bytes(reply.buf))
        out.buf += reply.buf

    def _on_wantdone(self, msg: m.ClientMsg, out: Writer) -> None:
        """Real servers answer a PREPARE's SQ_WANTDONE with SQ_DONE and SQ_COST after the
        DESCRIBE (docs/PROTOCOL.md §6, "SQ_COST"). After an EXECUTE (libsqli's
        ID EXECUTE WANTDONE EOT) the EXECUTE's own SQ_DONE is the one asked for: libsqli
        keeps the last SQ_DONE's row count (sqli_dispatch.c), so a second one would report 0
        rows where real servers give it the count."""
        if self._previous != Msg.EXECUTE:
            m.put_done(out, 0, self.layout)
            m.put_cost(out, 0, 0)

    def _on_cidescribe(self, msg: m.ClientMsg, out: Writer) -> None:
        m.put_idescribe(out, self._stmt().prepared.params, self.layout, self.encoding)

    def _on_curname(self, msg: m.ClientMsg, out: Writer) -> None:
        self._stmt().cursor_name = msg.name

    def _on_bind(self, msg: m.ClientMsg, out: Writer) -> None:
        """SQ_BIND: a fast-path call's arguments when one waits for them, else the current
        statement's parameters."""
        if self.fastpath.call is not None:
            self.fastpath.bind(msg, out)
            return
        st = self._stmt()
        try:
            values, _ = decode_bind_values(
                self.buf, msg.bind_start, msg.number, self.encoding, self.blobs.width
            )
        except CodecError as exc:
            # A value the codecs refuse (say an INTERVAL qualifier without digits): the
            # message framing was already checked by the reader, so answer with an error
            # and keep the session, as a real server does for bad host variables.
            raise EngineError(sc.NO_CONVERSION, message=str(exc)) from None
        st.params = [v.value for v in values]
        # BYTE/TEXT parameters carry a descriptor; their data follows in SQ_BBIND.
        slots = [
            i for i, v in enumerate(values) if v.type & 0xFF in (11, 12) and v.indicator == 0
        ]
        texts = [values[i].type & 0xFF == 12 for i in slots]
        st.upload = (BlobUpload(st.params, slots, self._eng().lo, texts, self.encoding)
                     if slots else None)

    def _on_scroll(self, msg: m.ClientMsg, out: Writer) -> None:
        self._stmt().scroll = True

    def _on_open(self, msg: m.ClientMsg, out: Writer) -> None:
        st = self._stmt()
        try:
            self._open(st)
        finally:
            st.scroll = False  # SQ_SCROLL applies to the OPEN it precedes only

    def _on_sfetch(self, msg: m.ClientMsg, out: Writer) -> None:
        self._scroll_fetch(self._stmt(), msg.extra, out)

    def _on_nfetch(self, msg: m.ClientMsg, out: Writer) -> None:
        self._fetch(self._stmt(), msg.number, out)

    def _on_ret_type(self, msg: m.ClientMsg, out: Writer) -> None:
        """LOB locators as binary (h11) and ROW/collection columns in their binary form
        (JDBC asks for SENDRECV, docs/PROTOCOL.md §13): remembered for the statement, as JDBC
        sends RET_TYPE once per statement."""
        st = self._stmt()
        rebuild = False
        if not st.lob_binary and wants_binary(msg.extra[1:]):
            st.lob_binary = rebuild = True
        if not st.complex_binary and st.columns and any(
            c.base in COMPLEX_CODES for c in st.columns
        ):
            st.complex_binary = rebuild = True
        if rebuild and st.encoder is not None:
            st.encoder = self._row_encoder(st)

    def _on_execute(self, msg: m.ClientMsg, out: Writer) -> None:
        self._execute(self._stmt(), out)

    def _on_close(self, msg: m.ClientMsg, out: Writer) -> None:
        st = self._stmt()
        _stop_rows(st)
        st.materialized = None
        # A cursor read to its end is still open until here; after CLOSE an NFETCH is -400
        # ("Fetch attempted on unopen cursor"), not another SQ_DONE with the old row count.
        st.exhausted = False

    def _on_release(self, msg: m.ClientMsg, out: Writer) -> None:
        if self.current is not None:
            self.blobs.retire(self.current)
            released = self.statements.pop(self.current, None)
            if released is not None:
                _stop_rows(released)
            self.current = None

    def _on_nothing(self, msg: m.ClientMsg, out: Writer) -> None:
        """Messages that need no action here: SQ_HOLD (this server closes no cursor at a
        transaction's end), SQ_FPARAM (the client's echo of a call's SQ_FPARAM state,
        fastpath.read_fparam), SQ_BATCHSTART/SQ_BATCHEND (every statement of a batch is
        executed as it comes; nothing to bracket)."""

    # ---- BYTE/TEXT data

    def _on_bbind(self, msg: m.ClientMsg, out: Writer) -> None:
        upload = self._stmt().upload
        if upload is None:
            raise EngineError(sc.HOSTVAR_COUNT, message="SQ_BBIND without BYTE/TEXT parameters")
        upload.start(msg.number)

    def _on_blob(self, msg: m.ClientMsg, out: Writer) -> None:
        upload = self._stmt().upload
        if upload is None:
            raise EngineError(sc.HOSTVAR_COUNT, message="SQ_BLOB without BYTE/TEXT parameters")
        try:
            upload.chunk(msg.data, self.limits.max_blob_bytes)
        except EngineError:
            upload.finish(False)
            raise

    def _on_fetchblob(self, msg: m.ClientMsg, out: Writer) -> None:
        self._fetchblob(msg.data, out)

    # ---- fast path (server/lobwire.py)

    def _on_getroutine(self, msg: m.ClientMsg, out: Writer) -> None:
        self.fastpath.getroutine(msg.item, out)  # type: ignore[arg-type]

    def _on_exfproutine(self, msg: m.ClientMsg, out: Writer) -> None:
        self.fastpath.exfproutine(msg.item, out)  # type: ignore[arg-type]

    def _on_lodata(self, msg: m.ClientMsg, out: Writer) -> None:
        self.fastpath.lodata(msg.item, out)  # type: ignore[arg-type]

    def _on_cfpdescribe(self, msg: m.ClientMsg, out: Writer) -> None:
        self._quiet_eot = True
        self.fastpath.describe(msg.item, out)  # type: ignore[arg-type]

    # ---- session: protocols, environment, databases, transactions, version

    def _on_protocols(self, msg: m.ClientMsg, out: Writer) -> None:
        mask = self.server.protocols
        self.layout = m.Layout.negotiate(mask, msg.data)
        self._groups.clear()  # their NFETCH size and SQ_DONE depend on the layout
        self._tails.clear()
        self._describes.clear()
        self.blobs.width = m.blob_descriptor_size(self.layout)
        m.put_protocols(out, mask)

    def _on_info(self, msg: m.ClientMsg, out: Writer) -> None:
        self.env.update(msg.env)
        if msg.env.get("OPTOFC") == "1":
            self.optofc = True

    def _on_dbopen(self, msg: m.ClientMsg, out: Writer) -> None:
        eng = self._eng()
        name = msg.name.decode(self.encoding, errors="replace")
        log.debug("session %s: open database %s", self.peer, name)
        self._close_all()
        flags = eng.open_database(name)
        # the database's code set
        self.encoding = codec_for_locale(eng.code_set_locale or DEFAULT_LOCALE)
        m.put_done(out, 0, self.layout, warnings=flags | DBFLAG_EXTENSION)
        m.put_cost(out, 0, 0)

    def _on_dblist(self, msg: m.ClientMsg, out: Writer) -> None:
        """The server's databases, one CHARSTR each, ended by an empty one (JDBC's
        receiveDBList; nmap's informix-tables reads the same; docs/PROTOCOL.md §5)."""
        names = self._eng().engine.database_names()
        m.put_dblist(out, [n.encode(self.encoding, errors="replace") for n in names])

    def _on_dbclose(self, msg: m.ClientMsg, out: Writer) -> None:
        eng = self._eng()
        self._close_all()
        eng.close_database()
        self.encoding = codec_for_locale(eng.code_set_locale or DEFAULT_LOCALE)

    def _on_begin(self, msg: m.ClientMsg, out: Writer) -> None:
        self._eng().begin()

    def _on_commit(self, msg: m.ClientMsg, out: Writer) -> None:
        self._eng().commit()

    def _on_rollback(self, msg: m.ClientMsg, out: Writer) -> None:
        self._eng().rollback()

    def _on_savepoint(self, msg: m.ClientMsg, out: Writer) -> None:
        self._savepoint(msg.code, msg.name.decode(self.encoding, errors="replace"), msg.number)

    def _on_version(self, msg: m.ClientMsg, out: Writer) -> None:
        m.put_version(out, self.server.version.encode("ascii", errors="replace"))

    def _upload(self) -> BlobUpload | None:
        """The BYTE/TEXT upload the current statement is receiving, if any."""
        st = self.statements.get(self.current) if self.current is not None else None
        return None if st is None else st.upload

    def _fetchblob(self, descriptor: bytes, out: Writer) -> None:
        """SQ_BLOB chunks of one value; a large one streamed in pieces as they are read, sent
        gathered (no copy next to the chunk headers)."""
        sender = ChunkedSender(self._send_parts, m.BLOB_REPLY_CHUNK, _FLUSH_BYTES, _BLOB_PREFIX)
        for piece in self.blobs.pieces(self.current or 0, descriptor):
            if len(piece) < _GATHER_MIN and not sender.parts:
                m.put_blob_chunks(out, piece, m.BLOB_REPLY_CHUNK)
                continue
            if out.buf:
                self._queue(out.buf)
                out.buf.clear()
            sender.add(piece)
        sender.finish()

    def _wire(self, columns: list[ColumnDesc]) -> list[ColumnDesc]:
        """Columns as this connection sees them: with long row ids (bit 70) BYTE and TEXT
        descriptors are 68 bytes, which moves the start of every later column."""
        wide = widen_blob_columns(columns, self.blobs.width)
        return wide if wide is columns else with_start_offsets(wide)

    def _savepoint(self, code: int, name: str, unique: int) -> None:
        """Savepoint messages run as the equivalent SQL statements."""
        eng = self.engine
        assert eng is not None
        if not name.replace("_", "").isalnum():
            raise EngineError(sc.SYNTAX, near=name)
        if code == Msg.SVPT_SET:
            sql = f"SAVEPOINT {name}" + (" UNIQUE" if unique else "")
        elif code == Msg.SVPT_RELEASE:
            sql = f"RELEASE SAVEPOINT {name}"
        else:
            sql = f"ROLLBACK WORK TO SAVEPOINT {name}"
        eng.execute(eng.prepare(sql), [])

    def _close_all(self) -> None:
        for st in self.statements.values():
            _stop_rows(st)
        self.statements.clear()
        self.blobs.clear()
        self.fastpath.reset()
        self.current = None

    def _open(self, st: _Statement) -> None:
        eng = self.engine
        assert eng is not None
        if not st.prepared.is_query:
            raise EngineError(sc.FETCH_UNOPENED, message="the statement is not a SELECT")
        if st.scroll and st.prepared.for_update:
            raise EngineError(sc.SCROLL_FOR_UPDATE)
        if st.rows is not None or st.materialized is not None:
            # A real server refuses to open a cursor that is open (-285; informix-driver
            # 2026.09.02, which sent the OPEN of a second statement to an open scroll cursor's
            # id); a client closes it first (SQ_CLOSE), as JDBC and our driver do.
            raise EngineError(sc.CURSOR_BUSY)
        _check_upload(st)
        _stop_rows(st)
        sid = self.current or 0
        self.blobs.retire(sid)
        check_bound(st.params)
        st.rows = iter(eng.open_cursor(st.prepared, st.params))
        after_run(st)
        st.current_rowid = None
        if st.prepared.plan.current_rowid:
            st.rows = track_current(st, st.rows)  # WHERE CURRENT OF (server/current.py)
        st.fetched = 0
        st.exhausted = False
        st.materialized = None
        if st.scroll:
            # An insensitive scroll cursor: the result is fixed at OPEN.
            st.materialized = list(st.rows)
            st.rows = None
            st.position = 0
        if st.encoder is None:
            st.encoder = self._row_encoder(st)
            st.blob_rows = self.blobs.row_mapper(sid, st.columns, self.encoding)

    def _fetch(self, st: _Statement, size: int, out: Writer) -> None:
        if st.rows is None and not st.exhausted:
            raise EngineError(sc.FETCH_UNOPENED)
        budget = min(max(size, _MIN_FETCH_BYTES), _MAX_FETCH_BYTES)
        if st.prepared.for_update:
            budget = 0  # one row per fetch for update cursors (server/current.py)
        sent = 0
        rows = st.rows
        encode = st.encoder
        blob_rows = st.blob_rows
        if rows is not None and not st.exhausted:
            try:
                if blob_rows is None:
                    # The compiled writer takes the rows and writes the messages itself.
                    done = write_tuples(encode, out, rows, budget)
                    if done is not None:
                        count, _sent, exhausted = done
                        st.fetched += count
                        if not exhausted:
                            return
                        rows = iter(())
                for row in rows:
                    if blob_rows is not None:
                        # Blob data counts against the fetch size, which bounds a batch's memory.
                        row, blob_bytes = blob_rows(row)
                        sent += blob_bytes
                    payload = encode(row)
                    m.put_tuple(out, payload)
                    st.fetched += 1
                    sent += len(payload) + 8
                    if sent >= budget:
                        return
            except CodecError as exc:
                raise _unsendable(exc) from None
            except EngineError:
                _stop_rows(st)  # interrupted (-213) or failed: the cursor is closed
                raise
            st.exhausted = True
            st.rows = None
        # The end of the cursor: SQ_DONE with the total count (jdbc-protocol.md 3.5).
        m.put_done(out, st.fetched, self.layout)
        m.put_cost(out, 0, 0)
        if self.optofc:
            out.u16(Msg.CLOSE)

    def _scroll_fetch(self, st: _Statement, extra: tuple[int, ...], out: Writer) -> None:
        """SQ_SFETCH (server/scroll.py)."""
        rows = st.materialized
        if rows is None:
            # No cursor open at all: -259 "Cursor not open" (informix-driver saw it for an
            # SFETCH to a statement without one, connections.py); a non-scroll cursor: -400.
            raise EngineError(sc.FETCH_UNOPENED if st.rows is not None else sc.CURSOR_NOT_OPEN)
        kind, index, size = extra
        try:
            position = scroll_fetch(rows, st.position, kind, index, size, st.encoder,
                                    st.blob_rows, out, self.layout)
        except CodecError as exc:
            raise _unsendable(exc) from None
        if position is None:
            raise EngineError(sc.SYNTAX, message=f"unknown scroll fetch type {kind}")
        st.position = position

    def _execute(self, st: _Statement, out: Writer) -> None:
        eng = self.engine
        assert eng is not None
        p = st.prepared
        if p.is_query:
            raise EngineError(sc.SELECT_NEEDS_CURSOR)
        _check_upload(st)
        check_bound(st.params)
        try:
            result = eng.execute(p, st.params)
        finally:
            if st.upload is not None:
                st.upload.release_unused()
            after_run(st)
        # DATABASE / CREATE DATABASE / CLOSE DATABASE report the new database's flags in the
        # SQ_DONE warnings field, as the reply to SQ_DBOPEN does (jdbc-protocol.md 2.4).
        warnings = eng.db_flags if result.db_flags_changed else 0
        if result.db_flags_changed:
            # the new database's
            self.encoding = codec_for_locale(eng.code_set_locale or DEFAULT_LOCALE)
        # Real servers answer an EXECUTE, prepared (ID [BIND] EXECUTE) or in one group with
        # its statement (COMMAND NDESCRIBE EXECUTE RELEASE), with SQ_INSERTDONE before the
        # DONE and SQ_COST after it: nmap reads exactly that after a COMMAND (26 bytes after
        # a DONE tag, 46 after an INSERTDONE tag), informix-driver's readers of an EXECUTE's
        # reply read "[INSERTDONE] DONE + COST + EOT" (docs/PROTOCOL.md §6).
        if result.serial8 is not None:
            m.put_insertdone(out, result.serial8, result.serial8, self.layout)
        m.put_done(out, result.rowcount, self.layout, serial=result.serial, warnings=warnings)
        m.put_cost(out, 0, 0)
        if p.stmt_type in (StmtType.DATABASE, StmtType.CREATE_DATABASE, StmtType.CLOSE_DATABASE):
            # Statement ids belong to the database that prepared them.
            keep = self.statements.get(self.current or 0)
            self.statements = {} if keep is None else {self.current or 0: keep}


#: Session._handle's table: message code -> handler. A code missing here is answered with
#: -999 "not supported" (which messages may come where is server/grammar.py's business).
_HANDLERS: dict[int, Callable[[Session, m.ClientMsg, Writer], None]] = {
    Msg.ID: Session._on_id,
    Msg.PROTOCOLS: Session._on_protocols,
    Msg.INFO: Session._on_info,
    Msg.PREPARE: Session._on_prepare,
    Msg.COMMAND: Session._on_prepare,
    Msg.NDESCRIBE: Session._on_ndescribe,
    Msg.WANTDONE: Session._on_wantdone,
    Msg.CIDESCRIBE: Session._on_cidescribe,
    Msg.CURNAME: Session._on_curname,
    Msg.BIND: Session._on_bind,
    Msg.BBIND: Session._on_bbind,
    Msg.BLOB: Session._on_blob,
    Msg.FETCHBLOB: Session._on_fetchblob,
    Msg.SCROLL: Session._on_scroll,
    Msg.HOLD: Session._on_nothing,
    Msg.OPEN: Session._on_open,
    Msg.SFETCH: Session._on_sfetch,
    Msg.NFETCH: Session._on_nfetch,
    Msg.RET_TYPE: Session._on_ret_type,
    Msg.GETROUTINE: Session._on_getroutine,
    Msg.EXFPROUTINE: Session._on_exfproutine,
    Msg.LODATA: Session._on_lodata,
    Msg.FPARAM: Session._on_nothing,
    Msg.CFPDESCRIBE: Session._on_cfpdescribe,
    Msg.EXECUTE: Session._on_execute,
    Msg.CLOSE: Session._on_close,
    Msg.RELEASE: Session._on_release,
    Msg.DBOPEN: Session._on_dbopen,
    Msg.DBLIST: Session._on_dblist,
    Msg.DBCLOSE: Session._on_dbclose,
    Msg.BEGIN: Session._on_begin,
    Msg.CMMTWORK: Session._on_commit,
    Msg.RBWORK: Session._on_rollback,
    Msg.BATCHSTART: Session._on_nothing,
    Msg.BATCHEND: Session._on_nothing,
    Msg.SVPT_SET: Session._on_savepoint,
    Msg.SVPT_RELEASE: Session._on_savepoint,
    Msg.SVPT_ROLLBACK: Session._on_savepoint,
    Msg.VERSION: Session._on_version,
}


#: The message handed to the handlers of the inline path's bare messages (OPEN, CLOSE,
#: RELEASE), which read nothing from it.
_NO_FIELDS = m.ClientMsg(0, 0)


def _known_locale(env: Mapping[str, str]) -> bool:
    """Whether the login's DB_LOCALE and CLIENT_LOCALE name code sets this server converts."""
    for key in ("DB_LOCALE", "CLIENT_LOCALE"):
        locale = env.get(key)
        if locale:
            try:
                codec_for_locale(locale)
            except InterfaceError:
                return False
    return True


def _unsendable(exc: CodecError) -> EngineError:
    """A row the wire form cannot carry is that statement's error, never the session's end."""
    log.warning("a row value cannot be sent: %s", exc)
    return EngineError(sc.NO_CONVERSION, message=str(exc))


def _check_upload(st: _Statement) -> None:
    """EXECUTE/OPEN may use BYTE/TEXT parameters only once their data has arrived."""
    if st.upload is not None and not st.upload.complete:
        st.upload.finish(False)
        raise EngineError(
            sc.HOSTVAR_COUNT,
            message=f"{len(st.upload.slots)} BYTE/TEXT parameter(s) without SQ_BBIND data",
        )


def _stop_rows(st: _Statement) -> None:
    """Finish a cursor's row generator now, so its SQLite cursor is closed deterministically."""
    rows, st.rows = st.rows, None
    close = getattr(rows, "close", None)
    if close is not None:
        try:
            close()
        except Exception:  # a generator that cannot clean up must not end the session
            log.debug("closing a row generator failed", exc_info=True)


def _name(code: int) -> str:
    if code == START:
        return "the start of a group"
    try:
        return "SQ_" + Msg(code).name
    except ValueError:
        return f"message {code}"


def _describe_msg(msg: m.ClientMsg) -> str:
    parts = []
    if msg.sql:
        parts.append(f"sql={msg.sql[:200]!r}")
    if msg.name:
        parts.append(f"name={msg.name!r}")
    if msg.code in (Msg.ID, Msg.NFETCH, Msg.PREPARE, Msg.BIND, Msg.DBOPEN, Msg.BBIND):
        parts.append(f"n={msg.number}")
    if msg.data:
        data = msg.data
        more = f"...({len(data)} bytes)" if len(data) > 64 else ""
        parts.append(f"data={data[:64].hex()}{more}")
    if msg.env:
        parts.append(f"env={msg.env}")
    if msg.code == Msg.SFETCH:
        parts.append("type={} index={} size={}".format(*msg.extra))
    if msg.item is not None:
        parts.append(repr(msg.item))
    return " ".join(parts)


__all__ = ["DBFLAG_ANSI", "DBFLAG_LOGGED", "ColumnDesc", "Session"]
