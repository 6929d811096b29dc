"""A session's bytes: the receive buffer, the look-ahead that judges a group, the send queue.

Kept apart from what the messages mean (server/handlers.py) and from the message loop
(server/session.py): this is the only code that blocks on the socket, compacts or grows the
receive buffer, and batches replies, so the rules about when a reply may wait (never while
the session itself waits for the client) live in one place.
"""

from __future__ import annotations

import logging
import socket
from typing import TYPE_CHECKING, Any

from ..protocol import messages as m
from ..protocol.codes import Msg
from ..protocol.columns import ColumnDesc
from ..protocol.gather import send_parts
from ..protocol.wire import NeedMore, ProtocolViolation, Reader, Writer, u16_at
from .blobs import BlobStore
from .defences import release_free_memory
from .engine import EngineSession
from .grammar import PURE, START, TRANSITIONS, allowed
from .interrupt import InterruptGate
from .statements import Statement

if TYPE_CHECKING:
    from .listener import Server

log = logging.getLogger("ifxwire.server")



#: Our own error texts use typographic punctuation; a Latin-1 client would see "?" for it.
_PLAIN_PUNCTUATION = str.maketrans({"\u2026": "...", "\u2014": "-", "\u2013": "-",
                                    "\u2018": "'", "\u2019": "'", "\u201c": '"',
                                    "\u201d": '"'})

_RECV_SIZE = 256 * 1024
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
# So are the bare messages of IBM JDBC's and informix-driver's PREPARE and input-describe
# groups (`PREPARE NDESCRIBE WANTDONE EOT`, `ID CIDESCRIBE EOT`): their handlers read no
# fields either.
_NDESCRIBE, _WANTDONE, _CIDESCRIBE = int(Msg.NDESCRIBE), int(Msg.WANTDONE), int(Msg.CIDESCRIBE)
#: Client messages _judge parses and _next_message would parse again (see _judged_msg).
_KEEP_PARSED = frozenset({int(Msg.PREPARE), int(Msg.COMMAND)})
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


class SessionClosed(Exception):
    """The client went away or sent SQ_EXIT."""


def message_name(code: int) -> str:
    """A client message code as log lines and protocol errors name it."""
    if code == START:
        return "the start of a group"
    try:
        return "SQ_" + Msg(code).name
    except ValueError:
        return f"message {code}"


class WireIO:
    """The per-connection state and the socket I/O every layer of a session uses."""

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
        self.statements: dict[int, Statement] = {}
        self.current: int | None = None
        self.optofc = False
        self.user = ""
        #: The database the login request named (no client we know names one): an explicit
        #: database connection, whose DBOPEN is -759 (docs/PROTOCOL.md §2).
        self.login_database = ""
        self.limits = server.limits
        self.blobs = BlobStore(m.blob_descriptor_size(self.layout), self.limits.max_blob_bytes)
        self._too_long = 0  # bytes of SQL text skipped unread (see _skip_long_statement)
        self._admitted = False  # counted in Server.logged_in
        self._solo = 0  # groups to answer one by one before trying a batch again
        #: What a client's cancel (TCP urgent byte) means right now (server/interrupt.py).
        self.gate = InterruptGate(sock, self._unread)
        self._quiet_eot = False  # swallow the empty group JDBC sends after SQ_CFPDESCRIBE
        #: Send the group's reply as soon as it is whole, not with the replies of the groups
        #: already received behind it (_recv_more): set by a read of a capture session, whose
        #: next read may wait for changes (lobwire.py, LoSession.live).
        self.flush_group = False
        #: How far strict mode has judged the group being served: _UNJUDGED, _JUDGED (to its
        #: end) or _PREFIX (its first messages, all in grammar.PURE; see _judge).
        self._judged = _UNJUDGED
        self._previous = START  # the message before the one _handle is given
        #: A PREPARE or COMMAND _judge parsed ahead: (its offset, its end, the message), taken
        #: by _next_message instead of parsing the SQL text a second time; dropped when the
        #: receive buffer is compacted (the offsets would move).
        self._judged_msg: tuple[int, int, m.ClientMsg] | None = None
        #: A query group's bytes, by statement id, for _query_group: (head, tail, cursor
        #: name, NFETCH size, BIND's parameter count or -1 when the group has no BIND).
        self._groups: dict[int, tuple[bytes, bytes, bytes, int, int]] = {}
        self._tails: dict[int, bytes] = {}  # see _done_cost
        self._encoders: dict[tuple[object, ...], Any] = {}  # see _row_encoder
        #: SQ_DESCRIBE replies (_on_ndescribe): key -> (the column list, the bytes).
        self._describes: dict[tuple[object, ...], tuple[list[ColumnDesc], bytes]] = {}
        self.current_out: Writer | None = None  # the reply being built (SQ_FILE flushes it)

    def _recv_more(self, compact: bool = True, rel: int = 0) -> None:
        # The only place a session blocks: send what is pending first, so replies to pipelined
        # groups that were already buffered go out together, and nothing waits on us.
        # compact=False keeps every byte where it is (SQ_FILE answers read while a message is
        # being handled, whose offsets the loop still holds).
        idle = self.start == self.end
        if idle:
            # A cancel from now on is late unless a request arrives. Said before the reply
            # goes out: the client's next request may follow it within microseconds, and
            # reaching a socket still watched for urgent data it would wake the interrupt
            # watcher for nothing (server/interrupt.py).
            self.gate.idle()
        self._flush()
        if self.start and compact:
            self._judged_msg = None
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
                    f"{message_name(code)} needs more than max_message_bytes="
                    f"{self.limits.max_message_bytes} bytes",
                    at,
                )
            self.view.release()  # a bytearray with an exported view cannot grow
            grow = min(len(self.buf), self.limits.max_message_bytes - len(self.buf))
            self.buf.extend(bytes(grow))
            self.view = memoryview(self.buf)
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

    def _await_request(self) -> None:
        """_recv_more for the session idle between groups (everything received was served,
        the buffer at its normal size): what _recv_more does then, with the calls of each
        step inlined, so waiting for the next request costs one Python call, not six.

        Why (issue 26, select_one_row, eleventh round): a cached one-row statement is one
        wait per group, and ``gate.idle``, ``_flush``, ``rl_leave``, ``rl_enter`` and
        ``gate.busy`` were five frames of it, each with nothing to decide but a flag. The
        steps and their order are theirs (interrupt.py's InterruptGate.idle and busy, the
        engine's rl_leave and rl_enter): keep them in step. Any other case takes
        _recv_more."""
        if self.start != self.end or len(self.buf) != _RECV_SIZE:
            self._recv_more()
            return
        gate = self.gate
        with gate._lock:  # gate.idle(), inlined
            gate._waiting = True
            state = gate.state
            if state is not None:
                state.cancelled = False
            armed = gate._armed
        if armed:
            gate.idle()  # the same, and EPOLLPRI disarmed (rare: a request ran two ticks)
        pending = self.pending  # self._flush(), inlined
        if pending:
            self.sock.sendall(pending)
            pending.clear()
        if self.start:
            self._judged_msg = None  # (compaction: nothing to move)
            self.start = self.end = 0
        es = self.engine
        if es is not None and es._rl_in:  # es.rl_leave(), inlined
            es._rl_in = False
            es._rl_use.release()
            if es._park_stale and es._parked:
                es.park_stale()  # a commit asked for the parked read (session_park.py)
        n = self.sock.recv_into(self.view)
        if es is not None and not es._rl_in:  # es.rl_enter(), inlined
            es._rl_use.acquire()
            es._rl_in = True
        if n == 0:
            raise SessionClosed
        self.end = n
        with gate._lock:  # gate.busy(), inlined
            gate._waiting = False
            gate._requests += 1
        watcher = gate._watcher
        if watcher is not None and watcher._asleep:
            watcher.wake()

    def _unread(self) -> int:
        return self.end - self.start

    def _next_message(self) -> m.ClientMsg:
        judged = self._judged_msg
        if judged is not None and judged[0] <= self.start:
            self._judged_msg = None  # taken now, or passed by
            if judged[0] == self.start:
                self._msg_end = judged[1]
                return judged[2]
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
        log.info("session %s: %s of %d bytes refused with -460", self.peer,
                 message_name(code), size)
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
                    f"message {message_name(code)} may not follow {message_name(state)}"
                    " in a group", at
                )
            if code in _KEEP_PARSED:
                self._judged_msg = (at, r.pos, msg)
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
        data goes out without being copied next to its chunk headers first. The queued bytes
        go in the same ``sendmsg`` (one write, not two: an SQ_LODATA read's reply header and
        its data were two sends, the CDC stream's reads among them)."""
        if self.pending:
            parts = [bytes(self.pending), *parts]
            self.pending.clear()
        send_parts(self.sock, parts)
