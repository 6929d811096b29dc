"""The login: the connection request, its response, the session groups (pipelined or
not, PAM first when asked for) and their replies, as I/O-free steps both drivers drive.

The third of the session's layers (client/wire.py says which).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Generator
from functools import lru_cache
from typing import Any

from .. import errors as _e
from ..protocol import messages as m
from ..protocol.codes import CLIENT_PROTOCOLS, capability_set
from ..protocol.login import ConnectResponse, read_connect_response
from ..protocol.wire import ProtocolViolation
from .dsn import ConnectParams
from .handshake import (
    CAP_PAM,
    CAP_TWO_GB_FETCH,
    check_login,
    login_request,
    session_groups,
    version_number,
)
from .lifecycle import StatementSession
from .pamauth import no_callback, pam_steps
from .replies import Reply
from .steps import Steps
from .transport import Transport

__all__ = ["LoginSession"]

log = logging.getLogger("ifxwire.client")


#: Replies to the session groups already parsed in this process, by their exact bytes (and
#: the connection's encoding and number of groups). The same server answers every connect
#: with the same bytes, and parsing them is a pure function of those bytes, so a connect that
#: finds them again reuses the parsed replies (they are only read afterwards). Only replies
#: without an error are kept; at most _KNOWN_SESSION_MAX. Used by the sync connect with
#: pipelined_connect (the default); readers iterate over a snapshot, writers add one entry.
_KNOWN_SESSION: dict[tuple[bytes, str, int], list[Reply]] = {}
_KNOWN_SESSION_MAX = 8



@lru_cache(maxsize=16)
def _negotiate(server_protocols: bytes) -> tuple[frozenset[int], m.Layout, int]:
    """Capabilities, message layout and BYTE/TEXT descriptor width for a server's
    SQ_PROTOCOLS mask; the same server answers every connect with the same mask."""
    layout = m.Layout.negotiate(server_protocols, CLIENT_PROTOCOLS)
    return capability_set(server_protocols), layout, m.blob_descriptor_size(layout)


class LoginSession(StatementSession):
    """``StatementSession`` plus the login steps (module docstring)."""

    def _login(self, t: Transport, params: ConnectParams) -> None:
        self._transport = t
        self._drive(self._login_steps(params), fail=False)

    def _login_steps(self, params: ConnectParams) -> Generator[Any, Any, None]:
        """The login without I/O (steps as ``_read_steps``), for both drivers: the login
        request, its response, the session groups (pipelined or not, PAM first when asked
        for) and their replies. Sends go through the transport (the asyncio one queues
        them). Wire failures do not mark the connection broken: the caller gives the
        address up and may try the next one."""
        t = self._transport
        started = time.perf_counter()
        packet, user = login_request(params, self.encoding)
        tracing = self._tracing()
        if tracing:
            self._trace_line(
                "send login request: %d bytes, user=%r server=%r (password redacted)",
                len(packet),
                user,
                params.server,
            )
        t.send(packet)
        try:
            if t.start == t.end:
                yield 2  # receive (the response cannot be here before its request)
            raw = t.login_packet()
            if raw is None:  # (not whole in one receive)
                raw = yield from t.login_packet_steps()
            resp = read_connect_response(raw, self.encoding)
        except ProtocolViolation as exc:
            raise _e.protocol_error(f"login response: {exc}") from None
        self._accepted(resp)
        groups = session_groups(params.database, self.encoding)
        replies: list[Reply] | None = None
        if params.pam_callback is not None:
            # PROTOCOLS alone: its reply says whether a PAM conversation comes before the
            # other session groups (docs/DRIVER.md §17).
            self._send(groups[0])
            first = self._session_reply(0, (yield from self._read_steps(self._reply())))
            if first.error is None and CAP_PAM in self.server_capabilities:
                yield from pam_steps(self, params.pam_callback)
            self._send(b"".join(groups[1:]))
            replies = [first]
            for i in range(1, len(groups)):
                replies.append(
                    self._session_reply(i, (yield from self._read_steps(self._reply()))))
        elif params.pipelined_connect:
            self._send(b"".join(groups))
            yield 0
            if not tracing:  # a trace shows every message as it is parsed
                replies = self._known_session_replies(len(groups))
        if replies is None:
            buf, start = t.buf, t.start
            replies = []
            for i, group in enumerate(groups):
                if not params.pipelined_connect:
                    self._send(group)
                replies.append(
                    self._session_reply(i, (yield from self._read_steps(self._reply()))))
            if params.pipelined_connect:
                self._remember_session_replies(buf, start, replies)
        self._session_ready(params, replies, user, started)

    def _known_session_replies(self, count: int) -> list[Reply] | None:
        """The session replies, if the buffer starts with bytes parsed before (see
        _KNOWN_SESSION); None sends the caller down the general path, which reads from the
        same position."""
        t = self._transport
        # A snapshot: another thread's connect may add an entry meanwhile.
        for (raw, encoding, n), replies in tuple(_KNOWN_SESSION.items()):
            size = len(raw)
            if (n == count and encoding == self.encoding and t.end - t.start >= size
                    and t.buf.startswith(raw, t.start)):
                t.start += size
                for i, reply in enumerate(replies):
                    self._session_reply(i, reply)
                return replies
        return None

    def _remember_session_replies(self, buf: bytearray, start: int, replies: list[Reply]) -> None:
        t = self._transport
        size = sum(r.consumed for r in replies)
        # Same buffer and no compaction in between: the replies are buf[start:start + size].
        if t.buf is not buf or t.start - start != size or len(_KNOWN_SESSION) >= _KNOWN_SESSION_MAX:
            return
        if any(r.error is not None or r.exit or r.names is not None for r in replies):
            return
        _KNOWN_SESSION[(bytes(buf[start : start + size]), self.encoding, len(replies))] = replies

    # Login steps shared with the asyncio connection, which only reads differently.

    def _accepted(self, resp: ConnectResponse) -> None:
        check_login(resp)
        self.server_version_string = resp.version
        self.server_version_internal = version_number(resp.version)

    def _session_reply(self, index: int, reply: Reply) -> Reply:
        """Take one reply to the session groups; the first (SQ_PROTOCOLS) fixes the layout of
        every later message, so it is parsed before the next reply is read."""
        if index == 0:
            if reply.protocols is None:
                raise _e.protocol_error("the server did not answer SQ_PROTOCOLS")
            self.server_protocols = reply.protocols
            self.server_capabilities, self._layout, self._blob_width = _negotiate(
                reply.protocols
            )
            if CAP_PAM in self.server_capabilities and self._params.pam_callback is None:
                raise no_callback()
            if CAP_TWO_GB_FETCH not in self.server_capabilities:
                # Without bit 63 servers take fetch sizes up to 32767 (FET_BUF_SIZE).
                self.fetch_buffer_size = min(self.fetch_buffer_size, 32767)
        return reply

    def _session_ready(
        self, params: ConnectParams, replies: list[Reply], user: str, started: float
    ) -> None:
        for reply in replies:
            if reply.error is not None:
                raise self._server_error(reply.error)
        self._transport.logged_in(params.read_timeout)
        if params.database:
            done = replies[2].done
            self._set_database(params.database, done.warnings if done else None)
        if log.isEnabledFor(logging.DEBUG):
            log.debug(
                "connected to %s (%s) as %r in %.1f ms",
                params.server,
                self.server_version_string,
                user,
                (time.perf_counter() - started) * 1000,
            )

    def login_steps(self) -> Steps[None]:
        """The login (pipelined session groups, PAM), without I/O."""
        return self._login_steps(self._params)
