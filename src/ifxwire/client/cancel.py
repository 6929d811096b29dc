"""Cancelling a running statement, and statement timeouts built on it.

Informix cancels out of band: IBM JDBC's ``Statement.cancel()`` (and its query timeout, a
``java.util.Timer`` task that calls ``cancel()``) sends the single byte 0x42 as TCP urgent
data on the session's socket (``com.informix.asf.Connection.sOOBSocket``; docs/PROTOCOL.md
"Cancel"). Nothing else is sent: the request already on the wire is then answered with
SQ_ERR -213 ("statement interrupted by user") and its SQ_EOT, so the reply stream stays in
step and the connection stays usable. A cancel that arrives after the statement finished
finds the server idle and is ignored.

``send_interrupt`` is safe from any thread and never touches the connection's lock or
buffers: it only sends one urgent byte on the socket underneath (TLS included: the byte
travels outside the TLS records, on the TCP connection, as JDBC's does on a plain socket).

``StatementTimer`` is the one daemon thread that fires statement timeouts for every
connection in the process: arming costs a heap push, not a thread per statement.
"""

from __future__ import annotations

import contextlib
import heapq
import itertools
import os
import socket
import threading
import time
from collections.abc import Callable
from typing import Any

__all__ = [
    "CANCEL_BYTE",
    "TIMER",
    "StatementTimer",
    "TimerHandle",
    "send_interrupt",
    "timeout_scope",
]

#: The urgent byte JDBC sends (``sOOBSocket``: ``bipush 66``).
CANCEL_BYTE = b"\x42"
#: A timeout that fired re-sends its cancel this often while the reply is still missing: the
#: server ignores an urgent byte that arrives in the instant between reading a request and
#: starting it (server/interrupt.py), so one more byte repairs that rare loss.
RESEND_INTERVAL = 1.0
#: ... at most this many times.
RESEND_LIMIT = 5
#: The timer drops its cancelled handles once more than this many (and half) are queued.
COMPACT_AT = 1024


def send_interrupt(sock: object) -> bool:
    """Send the cancel byte as TCP urgent data on ``sock`` (a socket, an SSLSocket, or
    asyncio's transport socket); False when the socket is gone."""
    fileno = getattr(sock, "fileno", None)
    if fileno is None:
        return False
    try:
        fd = fileno()
    except (OSError, ValueError):
        return False
    if fd < 0:
        return False
    # A duplicate of the descriptor: the plain TCP socket under any wrapper, usable from any
    # thread without the wrapper's state (an SSLSocket refuses flags on send).
    try:
        dup = socket.socket(fileno=os.dup(fd))
    except OSError:
        return False
    with dup:
        try:
            dup.send(CANCEL_BYTE, socket.MSG_OOB)
        except OSError:
            return False
    return True


class TimerHandle:
    __slots__ = ("active", "callback", "timer", "when")

    def __init__(self, timer: StatementTimer, when: float,
                 callback: Callable[[], float | None]) -> None:
        self.timer = timer
        self.when = when
        self.callback: Callable[[], float | None] | None = callback
        self.active = True

    def cancel(self) -> None:
        """Disarm (the statement answered in time). The callback, which holds the connection,
        is dropped at once; the timer forgets the handle itself lazily."""
        if self.active:
            self.active = False
            self.callback = None
            self.timer._cancelled += 1


class StatementTimer:
    """One thread for all statement timeouts: ``arm(seconds, callback)`` calls ``callback``
    on that thread once ``seconds`` have passed unless the handle was cancelled first. A
    callback may return a delay to be called again (the cancel re-sends)."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._heap: list[tuple[float, int, TimerHandle]] = []
        self._seq = itertools.count()
        self._thread: threading.Thread | None = None
        #: Handles cancelled since the heap was last compacted (approximate: not locked).
        self._cancelled = 0

    def arm(self, seconds: float, callback: Callable[[], float | None]) -> TimerHandle:
        handle = TimerHandle(self, time.monotonic() + seconds, callback)
        with self._cond:
            if self._cancelled > COMPACT_AT and self._cancelled * 2 > len(self._heap):
                # Most statements finish long before their timeout: without this, a long
                # timeout and a busy process would keep millions of dead handles queued.
                self._heap = [e for e in self._heap if e[2].active]
                heapq.heapify(self._heap)
                self._cancelled = 0
            heapq.heappush(self._heap, (handle.when, next(self._seq), handle))
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(
                    target=self._run, name="ifxwire-statement-timer", daemon=True
                )
                self._thread.start()
            elif self._heap[0][2] is handle:
                self._cond.notify()
        return handle

    def _run(self) -> None:
        while True:
            with self._cond:
                while True:
                    heap = self._heap
                    while heap and not heap[0][2].active:
                        heapq.heappop(heap)  # cancelled: dropped when it reaches the top
                    if not heap:
                        self._cond.wait(60.0)
                        if not self._heap:
                            self._thread = None
                            return
                        continue
                    wait = heap[0][0] - time.monotonic()
                    if wait <= 0:
                        handle = heapq.heappop(heap)[2]
                        break
                    self._cond.wait(wait)
            callback = handle.callback
            if not handle.active or callback is None:
                continue
            again: float | None = None
            with contextlib.suppress(Exception):  # a callback must not kill the timer
                again = callback()
            if again is not None and handle.active:
                handle.when = time.monotonic() + again
                with self._cond:
                    heapq.heappush(self._heap, (handle.when, next(self._seq), handle))


#: The process's statement timer (started on first use).
TIMER = StatementTimer()


class _TimeoutScope:
    """While a cursor's call runs (inside the connection's lock), its ``statement_timeout``
    is the one the connection's exchanges use; afterwards the connection's own again."""

    __slots__ = ("conn", "seconds")

    def __init__(self, conn: Any, seconds: float) -> None:
        self.conn = conn
        self.seconds = seconds

    def __enter__(self) -> None:
        self.conn._cursor_timeout = self.seconds

    def __exit__(self, *exc: object) -> None:
        self.conn._cursor_timeout = None

    async def __aenter__(self) -> None:
        self.__enter__()

    async def __aexit__(self, *exc: object) -> None:
        self.__exit__()


_NO_SCOPE = contextlib.nullcontext()


def timeout_scope(conn: Any, seconds: float | None) -> Any:
    """The context (sync or async) that applies a cursor's timeout to ``conn`` (a sync
    connection or the asyncio core); nothing to do without one."""
    return _NO_SCOPE if seconds is None else _TimeoutScope(conn, seconds)
