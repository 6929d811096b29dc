"""Client cancels: the TCP urgent (out-of-band) byte that stops a running statement.

How a client cancels: IBM JDBC's ``Statement.cancel()`` and query timeouts call
``com.informix.asf.Connection.sOOBSocket()``, which sends the byte 0x42 with
``Socket.sendUrgentData`` on the session's socket and nothing else (javap, docs/PROTOCOL.md
"Cancel"). Without SO_OOBINLINE that byte never enters the normal stream, so the SQLI
messages around it are untouched; the server has to look for it separately, and it must
do so while the session's own thread is busy inside SQLite.

One ``InterruptWatcher`` thread per server waits in ``epoll`` for EPOLLPRI (urgent data) on
every logged-in session's socket while that session works on a request that has run for
a tick or two (``ARM_AFTER``; see below). When the byte arrives the watcher reads it
(``recv(MSG_OOB)``) and asks the session's ``InterruptGate`` what it means:

* the session is working on a request (or the request's bytes have arrived and wait to be
  read): the request is interrupted. ``FunctionState.cancelled`` makes SQLite's progress
  handler stop the statement (sqlite3 raises "interrupted", the engine answers -213) and any
  later step of the same request fail with -213 at once;
* the session is idle with nothing unread: the statement the cancel was meant for has
  already been answered, and the byte is ignored, so a late cancel never hits the next
  statement.

The same watcher notices a client that closes its side (EPOLLRDHUP: killed, its socket
shut, a driver giving up on a read timeout) while a request is under way: nobody can read
that answer, so the request is interrupted the same way and the session then ends, rolling
back its transaction, instead of running the statement to its end with its locks held.

**EPOLLPRI is watched only for a request that has run a while.** Linux wakes every epoll
waiter whose mask holds EPOLLPRI whenever *ordinary* data reaches the socket
(``sock_def_readable`` wakes the socket's wait queue with the key ``EPOLLIN | EPOLLPRI |
EPOLLRDNORM | EPOLLRDBAND``), and epoll polls the socket only after the waiter is woken:
armed all the time, every request woke this thread for nothing (a context switch per
request; issue 26, docs/BENCHMARKS.md). Arming it per request costs two ``epoll_ctl``
instead, as much again for a one-row statement. So ``InterruptGate.busy`` only counts the
request; the watcher, which ticks every ``ARM_AFTER`` seconds, arms EPOLLPRI (one
``epoll_ctl``) for a session found busy with the same request at two ticks in a row, and
``idle`` disarms it only where it was armed. A request shorter than a tick costs no system
call here. Nothing is lost: a byte that arrives before the arming is still pending at it,
and epoll reports a level already there at ``epoll_ctl`` time (the cancel then acts at most
two ticks late); a byte that arrives while the session is idle is a late cancel, and when
the session's ``recv`` reads past its mark the kernel drops it (``tcp_recvmsg`` steps over
an out-of-band byte and clears the urgent state), so it is never reported.

**No ticks while nothing runs.** The watcher ticks only while some session is busy or
requests keep arriving: at a tick that finds every session waiting for its client and no
request begun since the tick before, it sleeps in ``epoll`` with no timeout (an idle
server's thread was woken 50 times a second for nothing), so an idle server's watcher
sleeps within two ticks of the last request. The first ``busy`` after that wakes it
through an eventfd in the same epoll set (one write, only for the first request after the
watcher fell asleep, not per request); its ticks then resume and arm as above. Why not
sleep at the first tick that finds everyone waiting (as before the ninth round of issue
26): under a steady stream of short statements a session waits for its client most of
the time, so most ticks fell asleep and the next request paid an eventfd write and this
thread a second wake-up, about one of each per tick (docs/BENCHMARKS.md).

The handshake needs no lock: the watcher says it sleeps (``_asleep``) before it looks at
the sessions one last time, and ``busy`` marks its session busy before it looks at
``_asleep``, so one of the two always sees the other (a needless wake-up at worst).

The flag is cleared when the session goes back to waiting for a new request with nothing
unread. One race is left open on purpose: a byte read by the watcher in the microseconds
between the session's ``recv`` returning a request and the gate learning of it is taken for
a late cancel and ignored (the statement then runs to its end or statement_timeout).
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import logging
import os
import select
import socket
import struct
import termios
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .engine import FunctionState

log = logging.getLogger("ifxwire.server")

#: The byte IBM JDBC sends (``sOOBSocket``: ``bipush 66``). Any urgent byte counts.
CANCEL_BYTE = 0x42
#: Seconds between the watcher's ticks: a request busy at two ticks in a row has its socket
#: watched for urgent data from then on (see the module docstring).
ARM_AFTER = 0.02

_EPOLLPRI = getattr(select, "EPOLLPRI", 0)
#: The client closed or shut down its side (FIN), or the connection failed.
_EPOLL_GONE = (getattr(select, "EPOLLRDHUP", 0) | getattr(select, "EPOLLHUP", 0)
               | getattr(select, "EPOLLERR", 0))


_POLL_GONE = (getattr(select, "POLLRDHUP", 0) | getattr(select, "POLLHUP", 0)
              | getattr(select, "POLLERR", 0))


def _gone(sock: socket.socket) -> bool:
    """Whether this socket's peer has closed, asked now: epoll names events by fd number, and
    an event gathered for a socket closed since may be handled after a new session's socket
    took the same number."""
    try:
        p = select.poll()
        p.register(sock.fileno(), _POLL_GONE)
        return bool(p.poll(0))
    except (OSError, ValueError):
        return True  # closed meanwhile: gone


def _wake(state: FunctionState) -> None:
    """Wake a request that sleeps instead of running SQL (``FunctionState.on_cancel``),
    outside the gate's lock: the hook takes its own."""
    hook = state.on_cancel
    if hook is not None:
        try:
            hook()
        except Exception:  # the watcher thread must go on
            log.exception("a cancel's wake-up failed")


class InterruptGate:
    """What a cancel means for one session right now (see the module docstring)."""

    __slots__ = ("_armed", "_fd", "_lock", "_poller", "_requests", "_seen", "_waiting",
                 "_watcher", "cancels", "sock", "state", "unread")

    def __init__(self, sock: socket.socket, unread: Callable[[], int]) -> None:
        self._lock = threading.Lock()
        self._waiting = False
        #: The watcher's epoll and this socket's fd while registered (see _watch).
        self._poller: select.epoll | None = None
        self._fd = -1
        self._armed = False  # EPOLLPRI in this socket's mask
        self._requests = 0  # requests begun (busy)
        self._seen = -1  # _requests at the watcher's last tick
        #: The watcher this gate is registered with (woken by busy when it sleeps).
        self._watcher: InterruptWatcher | None = None
        self.sock = sock
        #: Callable returning how many received bytes the session has not parsed yet.
        self.unread = unread
        self.state: FunctionState | None = None
        #: Cancels that interrupted something (a statistic for tests and logs).
        self.cancels = 0

    def idle(self) -> None:
        """The session waits for a new request with nothing unread: forget any cancel, and
        stop watching for urgent data (see the module docstring). Inlined in
        WireIO._await_request (as is busy): keep them in step."""
        with self._lock:
            self._waiting = True
            if self.state is not None:
                self.state.cancelled = False
            if self._armed:
                self._armed = False
                if self._poller is not None:
                    self._watch(_EPOLL_GONE)

    def busy(self) -> None:
        """A request has arrived (the watcher arms EPOLLPRI if it runs for a while)."""
        with self._lock:
            self._waiting = False
            self._requests += 1
        watcher = self._watcher
        if watcher is not None and watcher._asleep:  # (after _waiting: see the docstring)
            watcher.wake()

    def tick(self) -> None:
        """The watcher's tick: watch for urgent data if the request seen busy at the last
        tick is still running."""
        with self._lock:
            if self._waiting or self._armed or self._poller is None:
                return
            if self._seen == self._requests:
                self._armed = True
                self._watch(_EPOLLPRI | _EPOLL_GONE)
            else:
                self._seen = self._requests

    def _watch(self, mask: int) -> None:
        # Under self._lock. The fd is this session's own socket, open until the session has
        # unregistered (Session._cleanup), so it cannot meanwhile name another session's.
        poller = self._poller
        assert poller is not None
        try:
            poller.modify(self._fd, mask)
        except (OSError, ValueError):
            # Unregistered by the watcher (the client went away) or the server stopped:
            # nothing to watch any more.
            self._poller = None

    def attach(self, poller: select.epoll | None, fd: int,
               watcher: InterruptWatcher | None = None) -> None:
        """Registered with ``poller`` under ``fd`` (None: unregistered)."""
        with self._lock:
            self._poller = poller
            self._fd = fd
            self._watcher = watcher

    def cancel(self) -> bool:
        """An urgent byte arrived; True if it interrupts the current request."""
        with self._lock:
            state = self.state
            if state is None:
                return False
            if self._waiting and not self._request_arrived():
                return False  # the statement was already answered: a late cancel
            state.cancelled = True
            self.cancels += 1
        _wake(state)
        return True

    def client_gone(self) -> bool:
        """The client closed its side: nobody can read the answer of the request under way,
        so it is interrupted (and rolled back) rather than run on holding its locks. An idle
        session finds the end of its stream by itself."""
        with self._lock:
            state = self.state
            if state is None or (self._waiting and not self._request_arrived()):
                return False
            state.cancelled = True
        _wake(state)
        return True

    def _request_arrived(self) -> bool:
        if self.unread():
            return True
        pending = getattr(self.sock, "pending", None)  # TLS: decrypted, unread
        if pending is not None and pending():
            return True
        try:
            raw = fcntl.ioctl(self.sock.fileno(), termios.FIONREAD, b"\0\0\0\0")
        except (OSError, ValueError):  # ValueError: the session closed it meanwhile (fd -1)
            return False
        return bool(struct.unpack("i", raw)[0] > 0)


class InterruptWatcher:
    """The server's one thread that notices urgent bytes on session sockets (Linux epoll;
    elsewhere cancels are not noticed and statements run to their end or their timeout)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._gates: dict[int, InterruptGate] = {}
        self._epoll: select.epoll | None = None
        self._thread: threading.Thread | None = None
        self._stopped = False
        #: The eventfd that wakes a sleeping watcher (in the epoll set; -1: none yet).
        self._wake_fd = -1
        #: The watcher sleeps with no timeout: every session was waiting at its last look.
        self._asleep = False
        #: Ticks taken (a statistic for tests: none while the server is idle).
        self.ticks = 0
        #: Times a request woke the sleeping watcher (eventfd writes; a statistic for tests).
        self.wakes = 0
        #: The sum of every gate's request count at the last tick (see _loop: a tick sleeps
        #: only when no request began since the one before).
        self._begun = -1

    @staticmethod
    def available() -> bool:
        return hasattr(select, "epoll") and _EPOLLPRI != 0

    def register(self, gate: InterruptGate) -> None:
        if not self.available():
            return
        with self._lock:
            if self._stopped:
                return
            if self._epoll is None:
                self._epoll = select.epoll()
                self._wake_fd = os.eventfd(0, os.EFD_NONBLOCK | os.EFD_CLOEXEC)
                self._epoll.register(self._wake_fd, select.EPOLLIN)
                self._thread = threading.Thread(
                    target=self._run, args=(self._epoll,), name="ifxwire-interrupt", daemon=True
                )
                self._thread.start()
            fd = gate.sock.fileno()
            self._gates[fd] = gate
            try:
                self._epoll.register(fd, _EPOLL_GONE)  # EPOLLPRI: see InterruptGate.tick
            except OSError:
                self._gates.pop(fd, None)
                return
            gate.attach(self._epoll, fd, self)

    def unregister(self, gate: InterruptGate) -> None:
        gate.attach(None, -1)  # before the fd can be closed and reused
        with self._lock:
            for fd, g in list(self._gates.items()):
                if g is gate:
                    del self._gates[fd]
                    if self._epoll is not None:
                        with contextlib.suppress(OSError, ValueError):
                            self._epoll.unregister(fd)

    def wake(self) -> None:
        """A session became busy while the watcher sleeps: start ticking again."""
        with self._lock:
            if self._asleep and self._wake_fd >= 0:
                self._asleep = False
                self.wakes += 1
                with contextlib.suppress(OSError):
                    os.eventfd_write(self._wake_fd, 1)

    def stop(self) -> None:
        with self._lock:
            self._stopped = True
            ep, self._epoll = self._epoll, None
            self._gates.clear()
            if self._wake_fd >= 0:  # a sleeping thread returns from poll and ends
                with contextlib.suppress(OSError):
                    os.eventfd_write(self._wake_fd, 1)
        if ep is not None:
            ep.close()  # the thread's poll() fails (or finds it closed) and it ends

    def _run(self, ep: select.epoll) -> None:
        wake_fd = self._wake_fd
        try:
            self._loop(ep, wake_fd)
        finally:
            with self._lock:
                self._wake_fd = -1
            os.close(wake_fd)

    def _loop(self, ep: select.epoll, wake_fd: int) -> None:
        next_tick = time.monotonic() + ARM_AFTER
        timeout: float = ARM_AFTER
        while True:
            try:
                events = ep.poll(timeout)
            except (OSError, ValueError):
                return  # closed by stop()
            if ep.closed or self._stopped:
                return
            for fd, mask in events:
                if fd == wake_fd:
                    with contextlib.suppress(OSError):
                        os.eventfd_read(wake_fd)
                    next_tick = time.monotonic() + ARM_AFTER  # ticking again from now
                else:
                    self._dispatch(fd, mask)
            now = time.monotonic()
            if now >= next_tick:
                next_tick = now + ARM_AFTER
                self.ticks += 1
                with self._lock:
                    gates = list(self._gates.values())
                busy = False
                begun = 0
                for gate in gates:
                    begun += gate._requests  # (read unlocked: a count, compared below)
                    if not gate._waiting:  # (read unlocked: tick() looks again under lock)
                        busy = True
                        gate.tick()
                # Requests began since the last tick: clients are at work, and the next one
                # is likely within a tick. Sleeping now would cost that request's busy() an
                # eventfd write and this thread a second wake-up (issue 26, ninth round).
                if begun != self._begun:
                    self._begun = begun
                    busy = True
                if not busy:
                    # Nothing runs: sleep until a session's busy() wakes us. Said before
                    # the last look, so a busy() after that look sees it (module docstring).
                    self._asleep = True
                    if any(not gate._waiting for gate in self._snapshot()):
                        self._asleep = False
                    else:
                        timeout = -1
                        continue
            timeout = max(next_tick - time.monotonic(), 0.0)

    def _snapshot(self) -> list[InterruptGate]:
        with self._lock:
            return list(self._gates.values())

    def _dispatch(self, fd: int, mask: int) -> None:
        """One event of ``ep.poll``."""
        with self._lock:
            gate = self._gates.get(fd)
        if gate is None:
            return
        if mask & _EPOLLPRI:
            self._take_byte(gate)  # a cancel sent just before the close comes first
        if mask & _EPOLL_GONE and _gone(gate.sock):
            self.unregister(gate)
            if gate.client_gone():
                log.info("session: the client closed its connection during a "
                         "request; the request is interrupted")

    def _take_byte(self, gate: InterruptGate) -> None:
        try:
            # The plain socket's recv: an SSLSocket refuses flags, but the urgent byte is
            # outside TLS, on the TCP connection itself.
            data = socket.socket.recv(gate.sock, 1, socket.MSG_OOB)
        except OSError as exc:
            if exc.errno in (errno.EAGAIN, errno.EWOULDBLOCK):
                return  # the urgent pointer arrived before its byte; poll again
            if exc.errno == errno.EINVAL:
                return  # already read, or no urgent data after all
            self.unregister(gate)
            return
        if not data:
            return
        if gate.cancel():
            log.info("session cancel: urgent byte 0x%02x interrupts the running request",
                     data[0])
        else:
            log.debug("session cancel: urgent byte 0x%02x while idle, ignored", data[0])
