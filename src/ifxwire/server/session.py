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
from collections.abc import Mapping
from typing import TYPE_CHECKING

from ..errors import InterfaceError
from ..locales import DEFAULT_LOCALE, codec_for_locale
from ..protocol import messages as m
from ..protocol.codes import DBFLAG_ANSI, DBFLAG_LOGGED, Msg
from ..protocol.columns import ColumnDesc
from ..protocol.login import (
    MIN_CONNECT_REQUEST,
    ConnectResponse,
    build_connect_response,
    packet_length,
    parse_connect_request,
)
from ..protocol.wire import NeedMore, ProtocolViolation, Writer, i16_at, i32_at, u16_at
from ..types.bind import decode_bind_plain
from . import onestep
from .current import find_current
from .defences import close_after_reject, set_send_timeout
from .engine import EngineError
from .engine import sqlcodes as sc
from .grammar import PURE, START, TRANSITIONS, allowed
from .handlers import HANDLERS
from .lobwire import ClientFiles, FastPath
from .onestep import OneStepGroups
from .pam import pam_login
from .wireio import (
    _BIND,
    _BLOB,
    _CIDESCRIBE,
    _CLOSE,
    _CURNAME,
    _EOT,
    _EXECUTE,
    _FLUSH_BYTES,
    _ID,
    _JUDGED,
    _NDESCRIBE,
    _NFETCH,
    _NONE,
    _OPEN,
    _RELEASE,
    _UNJUDGED,
    _WANTDONE,
    SessionClosed,
    message_name,
)

if TYPE_CHECKING:
    from .listener import Server

log = logging.getLogger("ifxwire.server")


def _blob_incomplete(buf: bytearray, start: int, end: int) -> bool:
    """Whether ``buf[start:end]`` begins with a non-empty SQ_BLOB not all received yet."""
    if end - start < 4:
        return True
    n = (buf[start + 2] << 8) | buf[start + 3]
    return n > 0 and end - start < 4 + n + (n & 1)


class Session(OneStepGroups):
    """One client connection: login, then the message loop (the layers below: onestep.py,
    handlers.py, wireio.py)."""

    def __init__(self, sock: socket.socket, server: Server, peer: str) -> None:
        super().__init__(sock, server, peer)
        self.fastpath = FastPath(self)  # fast-path calls and SQ_LODATA (lobwire.py)

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
        self.login_database = req.database or ""
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
        self.engine.current_row = lambda name, table, updated: find_current(
            self.statements, self.encoding, name, table, updated)
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
        # A cached query's group in one compiled call (onestep.py's serve_compiled), which
        # gives anything else to the Python paths below having changed nothing.
        step = onestep.serve_compiled
        buf = self.buf  # extended in place by _recv_more, never replaced
        transitions = TRANSITIONS
        while True:
            if self._solo:
                self._solo -= 1
            elif fast:
                if self.start == self.end:
                    self._await_request()  # the next group (the general path waits too)
                es = self.engine
                if es is not None:
                    es._park_ok = True  # its OPEN may park the read (engine/session_park.py)
                if (step is not None and step(self)) or self._query_group():
                    continue
                if es is not None and (es._park_ok or es._parked):
                    es._park_ok = False  # any other request: no parked read meets it
                    es.unpark()
                if self._batch_inserts():
                    continue
            es = self.engine
            if es is not None and (es._park_ok or es._parked):
                es._park_ok = False
                es.unpark()
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
                        if code in (_EXECUTE, _EOT, _OPEN, _CLOSE, _RELEASE, _NDESCRIBE,
                                    _WANTDONE, _CIDESCRIBE):
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
                                    f"message {message_name(code)} may not follow"
                                    f" {message_name(previous)} in a group",
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
                                else:  # OPEN, CLOSE, RELEASE, the describes, WANTDONE:
                                    # their handlers read no fields (WANTDONE reads
                                    # _previous, as _handle leaves it)
                                    self._previous = previous
                                    HANDLERS[code](self, _NO_FIELDS, out)
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
                        f"message {message_name(code)} may not follow"
                        f" {message_name(previous)} in a group",
                        msg.offset,
                    )
                if tracing:
                    self.server.trace_in(self, message_name(code), _describe_msg(msg))
                if code == Msg.EXIT:
                    # Roll back, release locks and give the session slot back before
                    # acknowledging: a client that has the ack may start another session at
                    # once and must meet neither this one's locks nor its max_sessions slot.
                    # The goodbye is no request to interrupt: a client that closes as soon as
                    # it has the ack, or before (libsqli's sqli_close), must neither cancel the
                    # rollback below nor be logged as an interrupted request.
                    self.server.interrupts.unregister(self.gate)
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
            if self.flush_group:
                self.flush_group = False
                self._flush()


#: The message handed to the handlers of the inline path's bare messages (OPEN, CLOSE,
#: RELEASE, NDESCRIBE, WANTDONE, CIDESCRIBE), which read nothing from it.
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


__all__ = ["DBFLAG_ANSI", "DBFLAG_LOGGED", "ColumnDesc", "Session", "SessionClosed"]
