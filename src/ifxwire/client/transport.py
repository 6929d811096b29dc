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

Until ``logged_in`` the transport works against one deadline, ``connect_timeout`` after the
TCP connect began: the TCP connect, the TLS handshake and every send and receive of the login
exchange get only the time that is left, so a server that accepts the connection and then
says nothing (or one byte a second) fails the connect in time (08001). ``close()`` puts its
goodbye under a deadline the same way (``set_deadline``).
"""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Callable, Generator, Sequence
from typing import TYPE_CHECKING, Any

from ..errors import OperationalError, connection_lost
from ..protocol.gather import send_parts
from ..protocol.login import packet_length
from ..protocol.wire import NeedMore, ProtocolViolation
from .cancel import send_interrupt

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
#: Under a deadline, the socket timeout is lowered to the time left when this many seconds
#: went by since it was last set: no wait outlasts the deadline by more.
REARM = 0.01
#: ``Columns.pump``'s statuses (_arrowdec.c): the socket was closed, failed, timed out.
PUMP_EOF, PUMP_ERROR, PUMP_TIMEOUT = 1, 2, 3


class Transport:
    """One connected socket plus the receive buffer (``buf[start:end]`` is unparsed data)."""

    __slots__ = (
        "armed",
        "buf",
        "deadline",
        "end",
        "fd",
        "late",
        "min_free",
        "sock",
        "start",
        "view",
    )

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        #: the descriptor a receive loop in C may read (``pump``): a plain socket's only (a
        #: TLS socket's bytes must go through its SSL object), -1 otherwise
        self.fd = sock.fileno() if type(sock) is socket.socket else -1
        self.buf = bytearray(LOGIN_BUFFER)
        self.view = memoryview(self.buf)
        self.start = 0
        self.end = 0
        self.min_free = 1  # MIN_FREE once logged in
        #: time.monotonic() by which the exchange under way (the login, the goodbye) must be
        #: done, 0 for none; ``late`` is the (message, SQLSTATE) raised when it passes, and
        #: ``armed`` when the socket's timeout was last set to the time left.
        self.deadline = 0.0
        self.late: tuple[str | Callable[[], str], str] = ("", "")
        self.armed = 0.0

    def set_deadline(
        self, deadline: float, message: str | Callable[[], str], sqlstate: str
    ) -> None:
        """Until ``clear_deadline``, every send and receive gets only the time left before
        ``deadline`` (time.monotonic()); OperationalError(message) once it has passed
        (``message`` may be a function making it: only a late exchange pays for the text)."""
        self.deadline = deadline
        self.late = (message, sqlstate)
        self.armed = time.monotonic()
        self.settimeout(max(deadline - self.armed, REARM))

    def clear_deadline(self, timeout: float | None) -> None:
        """Back to a per-receive ``timeout`` (the read timeout)."""
        if self.deadline:
            self.deadline = 0.0
            self.settimeout(timeout)

    def logged_in(self, read_timeout: float | None = None) -> None:
        """The login is done: from now on each receive waits at most ``read_timeout``, and
        MIN_FREE bytes are kept free, so the next read grows the buffer to its working size
        (INITIAL_BUFFER) for result sets."""
        self.min_free = MIN_FREE
        self.clear_deadline(read_timeout)

    def _time_left(self) -> None:
        """Fail if the deadline has passed; else make sure no wait can outlast it by more
        than REARM (the socket timeout is only lowered when that much time went by since it
        was set, so a quick login costs no system call per receive)."""
        now = time.monotonic()
        left = self.deadline - now
        if left <= 0:
            raise self._timed_out()
        if now - self.armed > REARM:
            self.sock.settimeout(left)
            self.armed = now

    def _timed_out(self) -> OperationalError:
        message, sqlstate = self.late
        return OperationalError(message if isinstance(message, str) else message(),
                                sqlstate=sqlstate)

    # ------------------------------------------------------------------ sending

    def send(self, data: bytes | bytearray) -> None:
        """One ``sendall`` per call: callers pass whole request groups (or several)."""
        try:
            if self.deadline:
                self._time_left()
            self.sock.sendall(data)
        except OSError as exc:
            raise self._send_failed(exc) from None

    def send_parts(self, parts: Sequence[Any]) -> None:
        """Send ``parts`` in order, gathered by the kernel (``sendmsg``; protocol/gather.py):
        large data framed in chunks goes out without being joined into one buffer first."""
        try:
            if self.deadline:
                self._time_left()
            send_parts(self.sock, parts)
        except OSError as exc:
            raise self._send_failed(exc) from None

    def _send_failed(self, exc: OSError) -> OperationalError:
        """A failed send as the OperationalError to raise."""
        if isinstance(exc, TimeoutError):
            if self.deadline:
                return self._timed_out()
            return connection_lost("timed out while sending")
        return send_failed(exc)

    # ------------------------------------------------------------------ receiving

    def fill(self, need: int = 0) -> None:
        """Receive more bytes; ``need`` is the size of the message the parser waits for (0 if
        not known yet). Raises OperationalError on EOF, timeout or socket error."""
        start = self.start
        if start == self.end:
            # ``room``'s fast path, inline: every reply's receive (three per connect, one
            # per statement) takes it, and the call was ~1 % of a cold connect's
            # instructions (count24, issue 24's 3 % check).
            size = len(self.buf)
            if need <= INITIAL_BUFFER and need <= size and self.min_free <= size <= (
                    INITIAL_BUFFER * 4):
                if start:
                    self.start = self.end = 0
                self.end = self.recv_direct(self.view)
                return
        view = self.room(need)  # (moves ``end``: read it only afterwards)
        self.end += self.recv_direct(view)

    def room(self, need: int = 0) -> memoryview:
        """Make room for at least ``need`` unparsed bytes (compact, grow or shrink the buffer)
        and return its free tail, which the caller receives into and then advances ``end``
        by what arrived: ``fill`` from the socket, the asyncio loop from its stream."""
        start, end = self.start, self.end
        size = len(self.buf)
        if start == end and need <= INITIAL_BUFFER and size <= INITIAL_BUFFER * 4:
            # Everything parsed, the buffer a working size (the common case: each reply of a
            # login, a statement or a batch is read whole): rewind and offer it all, without
            # the general path's arithmetic (a login buffer is always >= min_free, 1).
            if start:
                self.start = self.end = 0
            if need <= size and self.min_free <= size:
                return self.view
            start = end = 0
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
                # At most double per receive: what a length field claims is only allocated
                # as its bytes arrive, so a lying length costs memory in proportion to what
                # the server really sent (the reply parser bounds the claims themselves).
                self._replace(max(min(wanted, size * 2), INITIAL_BUFFER), start, end)
            elif start:
                self.buf[0:pending] = self.buf[start:end]
            self.start, self.end = 0, pending
            end = pending
        return self.view[end:]

    def recv_direct(self, view: memoryview) -> int:
        """Receive into ``view`` (``fill`` passes its buffer's free part; a caller that knows
        large data is coming passes its own buffer while this one is empty, so the data is
        copied once, not twice). Raises OperationalError on EOF, timeout or socket error."""
        try:
            if self.deadline:
                self._time_left()
            n = self.sock.recv_into(view)
        except TimeoutError:
            if self.deadline:
                raise self._timed_out() from None
            raise receive_failed(self.sock, None, timed_out=True) from None
        except OSError as exc:
            raise receive_failed(self.sock, exc) from None
        if n == 0:
            raise receive_failed(self.sock, None)
        return int(n)

    def pump(self, feed: Callable[[Transport, Any, int, int], tuple[int, int]],
             reply: Any) -> None:
        """Let ``feed`` (``TupleRuns.pump``, a columnar fetch's receive loop in C) receive
        and decode what it can of ``reply`` straight from the socket, with this transport's
        buffer, limits and read timeout; it stops where the reply parser must go on. Only
        on a plain socket outside a deadline (the login's, the goodbye's): a TLS socket's
        bytes come through its SSL object. Its receive failures are raised as ``fill``'s."""
        fd = self.fd
        if fd < 0 or self.deadline:
            return
        timeout = self.sock.gettimeout()
        if timeout is not None and timeout <= 0:
            return
        ms = -1 if timeout is None else max(1, int(timeout * 1000 + 0.999))
        status, err = feed(self, reply, fd, ms)
        if status:
            if status == PUMP_TIMEOUT:
                raise receive_failed(self.sock, None, timed_out=True)
            exc = OSError(err, os.strerror(err)) if status == PUMP_ERROR else None
            raise receive_failed(self.sock, exc)

    def _replace(self, size: int, start: int, end: int) -> None:
        new = bytearray(size)
        new[0 : end - start] = self.view[start:end]
        self.buf = new
        self.view = memoryview(new)
        self.start, self.end = 0, end - start

    def read_login_packet(self) -> bytes:
        """The server's login response (the only length-framed packet of the protocol)."""
        steps = self.login_packet_steps()
        try:
            need = next(steps)
            while True:
                self.fill(need)
                need = steps.send(0)
        except StopIteration as stop:
            packet: bytes = stop.value
            return packet

    def login_packet(self) -> bytes | None:
        """The server's login response, taken from the buffer if it holds the whole packet;
        None if not (yet). The login steps try this before ``login_packet_steps``: the
        response arrives whole in one receive, and a generator for it was one of the
        cold connect's costs (count24, issue 24's 3 % check)."""
        start, end = self.start, self.end
        if end - start < 2:
            return None
        try:
            total = packet_length(self.view[start:end])
        except NeedMore:
            return None
        except ProtocolViolation as exc:
            raise OperationalError(f"invalid login response: {exc}", sqlstate="08S01") from None
        if end - start < total:
            return None
        self.start = start + total
        return bytes(self.view[start : start + total])

    def login_packet_steps(self) -> Generator[int, int, bytes]:
        """``read_login_packet`` without I/O: yields how many unparsed bytes it needs (the
        caller fills the buffer: ``fill`` here, the asyncio connection from its stream)."""
        while self.end - self.start < 2:
            yield 2
        while True:
            try:
                total = packet_length(self.view[self.start : self.end])
            except NeedMore:
                yield 2
                continue
            except ProtocolViolation as exc:
                raise OperationalError(f"invalid login response: {exc}", sqlstate="08S01") from None
            if self.end - self.start >= total:
                packet = bytes(self.view[self.start : self.start + total])
                self.start += total
                return packet
            yield total

    # ------------------------------------------------------------------ lifecycle

    def settimeout(self, timeout: float | None) -> None:
        try:  # noqa: SIM105 (contextlib.suppress costs a microsecond per connect)
            self.sock.settimeout(timeout)
        except OSError:
            pass

    def close(self) -> None:
        try:  # noqa: SIM105 (as in settimeout)
            self.sock.close()
        except OSError:
            pass


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
    """Connect (and wrap in TLS before any SQLI byte: Informix has no STARTTLS).

    ``connect_timeout`` bounds the TCP connect, the TLS handshake and the login that follows
    together (see Transport); ``read_timeout`` applies once ``Transport.logged_in`` is called.
    Host name resolution is not bounded: ``getaddrinfo`` cannot be interrupted.
    """
    deadline = 0.0 if connect_timeout is None else time.monotonic() + connect_timeout
    where = f"{host}:{port}"
    try:
        sock = _connect(host, port, connect_timeout)
    except OSError as exc:
        raise connect_failed(where, exc, connect_timeout) from None
    try:
        tune(sock, keepalive)
        if tls:
            if deadline:
                sock.settimeout(max(deadline - time.monotonic(), 0.001))
            sock = _wrap_tls(sock, tls, server_hostname or host, where, connect_timeout)
        t = Transport(sock)
        if deadline:
            t.set_deadline(deadline, lambda: login_timed_out(where, connect_timeout), "08001")
        else:
            sock.settimeout(read_timeout)
    except OSError as exc:
        sock.close()
        raise OperationalError(f"could not set up {where}: {exc}", sqlstate="08001") from None
    return t


def _wrap_tls(
    sock: socket.socket,
    tls: bool | ssl.SSLContext,
    hostname: str,
    where: str,
    timeout: float | None,
) -> socket.socket:
    import ssl  # only TLS users pay for importing it

    try:
        return tls_context(tls).wrap_socket(sock, server_hostname=hostname)
    except TimeoutError:
        sock.close()
        raise OperationalError(
            f"TLS handshake with {where} did not complete within connect_timeout={timeout} s",
            sqlstate="08001",
        ) from None
    except ssl.SSLError as exc:
        sock.close()
        raise connect_failed(where, exc, timeout) from None


# What both drivers' connects and streams say and do alike (aio/ opens its stream itself).


def receive_failed(sock: Any, exc: BaseException | None,
                   timed_out: bool = False) -> OperationalError:
    """The error of a receive on ``sock`` that failed with ``exc``, timed out, or (neither)
    met the end of the stream. On a timeout the connection is given up, but the statement
    need not run on with its locks: the cancel byte goes out first (docs/DRIVER.md §14)."""
    if timed_out:
        send_interrupt(sock)
        return connection_lost("timed out waiting for the server's reply")
    if exc is not None:
        return connection_lost(f"receive failed: {exc}")
    return connection_lost("the server closed the connection")


def send_failed(exc: BaseException) -> OperationalError:
    """The error of a send that failed with ``exc`` (no deadline of the login's passed)."""
    return connection_lost(f"send failed: {exc}")


def tls_context(tls: bool | ssl.SSLContext) -> ssl.SSLContext:
    """The context of a TLS connect: the caller's, or the default one (certificates
    verified against the system's CAs, host name checked)."""
    import ssl  # only TLS users pay for importing it

    return tls if isinstance(tls, ssl.SSLContext) else ssl.create_default_context()


def connect_failed(where: str, exc: BaseException, timeout: float | None) -> OperationalError:
    """The error of a TCP connect or TLS handshake with ``where`` that failed with ``exc``."""
    import ssl

    if isinstance(exc, ssl.SSLError):
        why = f"TLS handshake with {where} failed: {exc}"
    elif isinstance(exc, TimeoutError):
        why = f"could not connect to {where}: timed out after {timeout} s"
    else:
        why = f"could not connect to {where}: {exc}"
    return OperationalError(why, sqlstate="08001")


def login_timed_out(where: str, timeout: float | None) -> str:
    return (f"the login with {where} did not complete within connect_timeout={timeout} s "
            "(the server accepted the connection but did not answer in time)")


def tune(sock: socket.socket, keepalive: bool) -> None:
    """No Nagle delay (a request group is one send), and TCP keepalive when asked for."""
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    if keepalive:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
