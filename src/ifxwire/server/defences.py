"""The server's limits against hostile or broken clients, and failed-login throttling.

Every limit is a ``Server(...)`` keyword and an ``ifxwire-server`` option (docs/SERVER.md,
"Limits"). Defaults are generous for real applications and tight enough that one client
cannot take the memory or the CPU of the others.
"""

from __future__ import annotations

import logging
import struct
import sys
import threading
import time
from dataclasses import dataclass

log = logging.getLogger("ifxwire.server")


@dataclass(frozen=True)
class Limits:
    #: Seconds a connection may take to complete its login before it is closed. Informix's
    #: LISTEN_TIMEOUT (onconfig) defaults to 60 s for the same purpose.
    login_timeout: float = 60.0
    #: Sessions logged in at once; the next login is refused with -25571, as Informix does
    #: when LIMITNUMSESSIONS is reached.
    max_sessions: int = 1024
    #: Bytes one request message may need in the receive buffer (a BIND's values, say).
    #: Longer: the session is closed with a log line naming the message and offset.
    max_message_bytes: int = 16 * 1024 * 1024
    #: Bytes of SQL text in one PREPARE/COMMAND; longer is answered with -460 without
    #: buffering the text, and the session goes on.
    max_statement_bytes: int = 1024 * 1024
    #: BYTE/TEXT bytes: the most one uploaded value may hold in memory (-208 beyond it; past
    #: 1 MiB a value goes into the database as it arrives, see blobs.py), and the most a
    #: session keeps for SQ_FETCHBLOB (the oldest values are forgotten beyond it).
    max_blob_bytes: int = 64 * 1024 * 1024
    #: Prepared statements one session may hold at once; the next PREPARE is refused with
    #: -257, Informix's "System limit on maximum number of statements exceeded".
    max_statements: int = 4096
    #: Failed logins from one address (within FAILURE_WINDOW) before its logins are slowed.
    #: 0 turns throttling off.
    failed_login_limit: int = 5
    #: Seconds of work one request may take in the engine (compiling, executing, one fetch
    #: batch) before it is interrupted with -213. None: no limit.
    statement_timeout: float | None = 300.0
    #: Seconds a reply may wait for a client that does not read before the session is closed.
    send_timeout: float = 60.0


#: Failures older than this are forgotten.
FAILURE_WINDOW = 60.0
#: The delay before a throttled login is answered grows from FIRST_DELAY, doubling per
#: failure, to MAX_DELAY.
FIRST_DELAY = 0.25
MAX_DELAY = 4.0


class LoginThrottle:
    """Per peer address: after ``limit`` failed logins, answer its logins only after a delay.

    A delay rather than a lockout: a lockout would let anyone lock a real user out by failing
    logins from a shared address, while a delay makes guessing slow and costs the right user
    little. The answer itself does not change (-951 for a wrong password, acceptance for a
    right one), so throttling reveals nothing.
    """

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._lock = threading.Lock()
        self._failures: dict[str, tuple[int, float]] = {}  # host -> (count, last failure)

    def delay(self, host: str) -> float:
        if self.limit <= 0:
            return 0.0
        with self._lock:
            count, last = self._failures.get(host, (0, 0.0))
            if count and time.monotonic() - last > FAILURE_WINDOW:
                del self._failures[host]
                return 0.0
        if count < self.limit:
            return 0.0
        return float(min(FIRST_DELAY * 2 ** (count - self.limit), MAX_DELAY))

    def failed(self, host: str) -> None:
        if self.limit <= 0:
            return
        with self._lock:
            count, last = self._failures.get(host, (0, 0.0))
            if count and time.monotonic() - last > FAILURE_WINDOW:
                count = 0
            count += 1
            self._failures[host] = (count, time.monotonic())
            if len(self._failures) > 10_000:  # many addresses: forget the stalest half
                for old in sorted(self._failures, key=lambda h: self._failures[h][1])[:5000]:
                    del self._failures[old]
        if count == self.limit:
            log.warning("%d failed logins from %s: its logins are now slowed down", count, host)

    def succeeded(self, host: str) -> None:
        if self.limit > 0:
            with self._lock:
                self._failures.pop(host, None)


def _malloc_trim() -> object:
    """glibc's malloc_trim, or None elsewhere."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        import ctypes

        return ctypes.CDLL("libc.so.6").malloc_trim
    except (OSError, AttributeError):
        return None


_TRIM = _malloc_trim()


def release_free_memory() -> None:
    """Hand freed heap memory back to the OS after a large message.

    glibc serves allocations below its (growing) mmap threshold from the heap and keeps what
    is freed there: without a trim, RSS after a burst of large messages stays at its peak."""
    if _TRIM is not None:
        _TRIM(0)  # type: ignore[operator]


def set_send_timeout(sock: object, seconds: float) -> None:
    """SO_SNDTIMEO on a blocking socket: a send that cannot progress for ``seconds`` fails
    (OSError), so a client that never reads cannot hold a session thread forever. The receive
    side stays a plain blocking read (an idle client is no fault)."""
    import socket

    assert isinstance(sock, socket.socket)
    if seconds <= 0 or not sys.platform.startswith("linux"):
        return  # the struct timeval layout below is Linux's
    whole = int(seconds)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDTIMEO,
                    struct.pack("ll", whole, int((seconds - whole) * 1_000_000)))


#: Seconds a rejected login's connection stays half-open for what the client still sends.
REJECT_LINGER = 2.0
#: Bytes read (and dropped) from a rejected client before its connection is closed anyway.
REJECT_DRAIN_BYTES = 64 * 1024


#: Rejected connections lingering at once, server-wide: past this many a rejected login is
#: closed without lingering, so a password-guessing client cannot hold a thread per guess for
#: REJECT_LINGER seconds each (review of the nmap change).
MAX_LINGERING = 16
_lingering = threading.BoundedSemaphore(MAX_LINGERING)


def close_after_reject(sock: object, linger: float = REJECT_LINGER) -> None:
    """Half-close a rejected login's connection, then read what the client still sends
    until it closes (or ``linger`` seconds or REJECT_DRAIN_BYTES pass); the caller closes.

    Why: a client may write after reading its rejection (nmap's informix.lua sends SQ_EXIT
    and reads the answer before it tries the next password). On a socket closed at once the
    kernel answers those bytes with a reset, the client's read fails with ECONNRESET, and a
    reset that arrives early even discards the unread rejection. nmap's brute engine takes
    the reset for a broken connection and retries the same password for ever. After a
    half-close the client reads the rejection and then end-of-file, as from any graceful
    close (docs/PROTOCOL.md §2, "Rejections").
    """
    import socket

    assert isinstance(sock, socket.socket)
    if not _lingering.acquire(blocking=False):
        return  # too many lingering already: the caller closes at once
    try:
        sock.shutdown(socket.SHUT_WR)
        deadline = time.monotonic() + linger
        dropped = 0
        while dropped < REJECT_DRAIN_BYTES:
            left = deadline - time.monotonic()
            if left <= 0:
                break
            sock.settimeout(left)
            data = sock.recv(4096)
            if not data:
                break
            dropped += len(data)
    except OSError:
        pass  # the client is gone already: nothing left to be graceful about
    finally:
        _lingering.release()
