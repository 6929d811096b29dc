"""The socket and the connection's single receive buffer.

Everything the server sends lands in one bytearray that parsers read in place
(``struct.unpack_from`` at offsets), so a reply is never copied message by message. The buffer
is refilled with large ``recv_into`` calls, compacted when its free tail gets short, grown only
for a message larger than itself, and shrunk back once such a message has been consumed, so a
long-lived connection does not keep a huge buffer because of one big row. During the login the
buffer is small (the replies are a few hundred bytes): the working size is allocated at the
first read after it, so a connection that only connects and closes never zeroes 256 KiB.

Every failure here is reported as a PEP 249 ``OperationalError`` (SQLSTATE 08006): the caller
only has to mark the connection broken.
"""

from __future__ import annotations

import contextlib
import socket
from typing import TYPE_CHECKING

from ..errors import OperationalError, connection_lost
from ..protocol.login import packet_length
from ..protocol.wire import NeedMore, ProtocolViolation

if TYPE_CHECKING:
    import ssl

__all__ = ["Transport", "open_transport"]

#: Start size of the receive buffer: a default 64 KiB fetch reply plus headroom, so the
#: common case never grows it.
INITIAL_BUFFER = 256 * 1024
#: Refill when fewer than this many bytes are free at the end (after compacting).
MIN_FREE = 32 * 1024
#: The buffer of the login exchange, before ``Transport.logged_in``.
LOGIN_BUFFER = 4096


class Transport:
    """One connected socket plus the receive buffer (``buf[start:end]`` is unparsed data)."""

    __slots__ = ("buf", "end", "min_free", "sock", "start", "view")

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.buf = bytearray(LOGIN_BUFFER)
        self.view = memoryview(self.buf)
        self.start = 0
        self.end = 0
        self.min_free = 1  # MIN_FREE once logged in

    def logged_in(self) -> None:
        """From now on keep MIN_FREE bytes free: the next read grows the buffer to its
        working size (INITIAL_BUFFER) for result sets."""
        self.min_free = MIN_FREE

    # ------------------------------------------------------------------ sending

    def send(self, data: bytes | bytearray) -> None:
        """One ``sendall`` per call: callers pass whole request groups (or several)."""
        try:
            self.sock.sendall(data)
        except TimeoutError:
            raise connection_lost("timed out while sending") from None
        except OSError as exc:
            raise connection_lost(f"send failed: {exc}") from None

    # ------------------------------------------------------------------ receiving

    def fill(self, need: int = 0) -> None:
        """Receive more bytes; ``need`` is the size of the message the parser waits for (0 if
        not known yet). Raises OperationalError on EOF, timeout or socket error."""
        start, end = self.start, self.end
        size = len(self.buf)
        if start == end:
            self.start = self.end = start = end = 0
            if size > INITIAL_BUFFER * 4 and need <= INITIAL_BUFFER:
                self._replace(INITIAL_BUFFER, 0, 0)
                size = INITIAL_BUFFER
        min_free = self.min_free
        if need > size - start or size - end < min_free:
            pending = end - start
            wanted = max(need, pending + min_free)
            if wanted > size:
                self._replace(max(wanted, size * 2, INITIAL_BUFFER), start, end)
            elif start:
                self.buf[0:pending] = self.buf[start:end]
            self.start, self.end = 0, pending
            end = pending
        try:
            n = self.sock.recv_into(self.view[end:])
        except TimeoutError:
            raise connection_lost("timed out waiting for the server's reply") from None
        except OSError as exc:
            raise connection_lost(f"receive failed: {exc}") from None
        if n == 0:
            raise connection_lost("the server closed the connection")
        self.end = end + n

    def _replace(self, size: int, start: int, end: int) -> None:
        new = bytearray(size)
        new[0 : end - start] = self.view[start:end]
        self.buf = new
        self.view = memoryview(new)
        self.start, self.end = 0, end - start

    def read_login_packet(self) -> bytes:
        """The server's login response (the only length-framed packet of the protocol)."""
        while True:
            try:
                total = packet_length(self.view[self.start : self.end])
            except NeedMore:
                self.fill(2)
                continue
            except ProtocolViolation as exc:
                raise OperationalError(f"invalid login response: {exc}", sqlstate="08S01") from None
            if self.end - self.start >= total:
                packet = bytes(self.view[self.start : self.start + total])
                self.start += total
                return packet
            self.fill(total)

    # ------------------------------------------------------------------ lifecycle

    def settimeout(self, timeout: float | None) -> None:
        with contextlib.suppress(OSError):
            self.sock.settimeout(timeout)

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.close()


def _connect(host: str, port: int, timeout: float | None) -> socket.socket:
    """``socket.create_connection``, minus the ``getaddrinfo`` call for an IPv4 literal."""
    try:
        socket.inet_pton(socket.AF_INET, host)
    except (OSError, ValueError, TypeError):
        return socket.create_connection((host, port), timeout=timeout)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.settimeout(timeout)
        sock.connect((host, port))
    except BaseException:
        sock.close()
        raise
    return sock


def open_transport(
    host: str,
    port: int,
    *,
    connect_timeout: float | None,
    read_timeout: float | None,
    keepalive: bool,
    tls: bool | ssl.SSLContext,
    server_hostname: str | None = None,
) -> Transport:
    """Connect (and wrap in TLS before any SQLI byte: Informix has no STARTTLS)."""
    try:
        sock = _connect(host, port, connect_timeout)
    except TimeoutError:
        raise OperationalError(
            f"could not connect to {host}:{port}: timed out after {connect_timeout} s",
            sqlstate="08001",
        ) from None
    except OSError as exc:
        raise OperationalError(
            f"could not connect to {host}:{port}: {exc}", sqlstate="08001"
        ) from None
    try:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        if keepalive:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
        if tls:
            sock = _wrap_tls(sock, tls, server_hostname or host, f"{host}:{port}")
        sock.settimeout(read_timeout)
    except OSError as exc:
        sock.close()
        raise OperationalError(f"could not set up {host}:{port}: {exc}", sqlstate="08001") from None
    return Transport(sock)


def _wrap_tls(
    sock: socket.socket, tls: bool | ssl.SSLContext, hostname: str, where: str
) -> socket.socket:
    import ssl  # only TLS users pay for importing it

    ctx = tls if isinstance(tls, ssl.SSLContext) else ssl.create_default_context()
    try:
        return ctx.wrap_socket(sock, server_hostname=hostname)
    except ssl.SSLError as exc:
        sock.close()
        raise OperationalError(
            f"TLS handshake with {where} failed: {exc}", sqlstate="08001"
        ) from None
