"""One database's writer latch in row-lock mode, which a session may leave *parked*.

Why: SQLite has one writer per file, so row-lock sessions take their SQLite write
transactions one at a time under this latch (docs/SERVER.md, "Locks and isolation", "The
latch"). Committing SQLite at every statement cost most of row-lock mode's CPU, so a session
inside an Informix transaction that writes while nobody waits keeps its SQLite transaction
open after the statement and parks the latch with a ``flush`` callback that commits it
(session_lock_latch.RowLockLatch._rl_flush_hold). The next statement of the same session takes the
latch back at no cost and runs in the same SQLite transaction; a second session that needs
the latch (a write, or a read that must see what the first wrote) calls the callback itself,
from its own thread, and takes the latch.

It does so only while the parked session's ``use`` lock is free: the server holds that lock
while the session handles a request, and lets it go while the session waits for its client
(server/wireio.py ``_recv_more``) or for a lock. So no SQLite call of the parked session's
own thread runs meanwhile (a routine it runs might otherwise wait for this latch while its
statement holds the connection). While the parked session is busy the other one waits, as
SET LOCK MODE allows. Without a server (the engine used directly, one thread) nobody holds
``use``.

A release wakes one waiter, not all of them: with 8 writers back to back a ``notify_all``
woke every waiter at every release, each to find the latch taken again by whichever ran
first (about six waits per acquire, each a thread switch and a GIL hand-over: the server's
CPU per transaction grew with the number of writers; docs/BENCHMARKS.md "Row locks: 8
writers of one table"). The woken waiter takes the latch if it is still free; a session
that is running when the latch is free may take it first (no hand-over to a sleeping
thread, which would make every running session that arrives meanwhile sleep as well), and
then wakes the next waiter at its own release, so no wake-up is lost. Only ``acquire``
waits on the condition, so the one woken is always a session that wants the latch.
"""

from __future__ import annotations

import contextlib
import os
import select
import threading
import time
from collections import deque
from collections.abc import Callable

#: How often a session waiting for a busy parked session looks again (seconds).
_POLL = 0.005


class _Waiter:
    """A thread's doorbell while it waits for a latch: an eventfd (a pipe where there is
    none) that the releasing thread writes to. Why not the condition's notify: it wakes the
    waiter (a futex) while the releasing thread holds the GIL, and on a busy machine the
    kernel runs the woken thread, which blocks on the GIL at once, while the releaser waits
    preempted with the GIL held (py-spy --gil with 8 writers: 60% of the samples holding
    the GIL were in notify). os.write and os.eventfd_write drop the GIL around the syscall."""

    def __init__(self) -> None:
        self._efd = hasattr(os, "eventfd")
        if self._efd:
            self.rfd = self.wfd = os.eventfd(0, os.EFD_CLOEXEC | os.EFD_NONBLOCK)
        else:
            self.rfd, self.wfd = os.pipe()
            os.set_blocking(self.rfd, False)
        # (poll, not select: select fails for a descriptor past 1024, a busy server's)
        self._poll = select.poll()
        self._poll.register(self.rfd, select.POLLIN)

    def wait(self, timeout: float | None) -> None:
        """Until rung or ``timeout`` seconds (a ring before the wait is kept)."""
        self._poll.poll(None if timeout is None else max(timeout * 1000.0, 0.0))
        try:
            if self._efd:
                os.eventfd_read(self.rfd)
            else:
                os.read(self.rfd, 64)
        except BlockingIOError:
            pass

    def ring(self) -> None:
        if self._efd:
            os.eventfd_write(self.wfd, 1)
        else:
            os.write(self.wfd, b"x")

    def __del__(self) -> None:
        os.close(self.rfd)
        if self.wfd != self.rfd:
            os.close(self.wfd)


_local = threading.local()


def _waiter() -> _Waiter:
    """The calling thread's doorbell (made at its first wait, closed with the thread)."""
    w: _Waiter | None = getattr(_local, "waiter", None)
    if w is None:
        w = _local.waiter = _Waiter()
    return w


class Latch:
    """Reentrant for its owner; ``acquire`` flushes a parked owner's transaction."""

    def __init__(self) -> None:
        self._cond = threading.Condition(threading.Lock())
        self._owner: object | None = None
        self._depth = 0
        self._parked: Callable[[], None] | None = None
        self._parked_use: threading.Lock | None = None
        self._flushing = False
        self._waiters = 0
        #: the sleeping waiters' doorbells, first come first; a release rings one
        self._queue: deque[_Waiter] = deque()

    def acquire(self, who: object, timeout: float | None = None) -> bool:
        """Take the latch (False when ``timeout`` seconds passed first)."""
        with self._cond:
            if self._owner is who and not self._flushing:
                self._depth += 1
                self._parked = self._parked_use = None  # its own: taken back as it is
                return True
            deadline = None if timeout is None else time.monotonic() + timeout
            self._waiters += 1
            me: _Waiter | None = None
            try:
                while self._owner is not None:
                    if self._parked is not None and not self._flushing:
                        if self._flush_locked():
                            continue
                        poll = _POLL  # the parked session is busy: look again shortly
                    else:
                        poll = None
                    left = None if deadline is None else deadline - time.monotonic()
                    if left is not None and left <= 0:
                        return False
                    if me is None:
                        me = _waiter()
                    self._queue.append(me)
                    self._cond.release()
                    try:
                        me.wait(poll if left is None else min(left, poll or left))
                    finally:
                        self._cond.acquire()
                        with contextlib.suppress(ValueError):  # (rung: not queued)
                            self._queue.remove(me)  # not rung (a poll, a timeout)
                self._owner, self._depth = who, 1
                return True
            finally:
                self._waiters -= 1
                if self._owner is None and self._queue and self._parked is None:
                    # leaving (a timeout) while the latch is free: a ring this waiter took
                    # goes on to the next one, so none sleeps on with the latch free
                    self._queue.popleft().ring()

    def _flush_locked(self) -> bool:
        """Commit the parked owner's transaction (outside the condition's lock) and free the
        latch, if its session is not busy; called with the condition held."""
        use = self._parked_use
        if use is not None and not use.acquire(blocking=False):
            return False
        flush, self._parked, self._parked_use = self._parked, None, None
        assert flush is not None
        self._flushing = True
        self._cond.release()
        try:
            flush()
        finally:
            if use is not None:
                use.release()
            self._cond.acquire()
            self._flushing = False
            self._owner, self._depth = None, 0
            if self._queue:
                self._queue.popleft().ring()  # one waiter (the module's docstring says why)
        return True

    @property
    def parked(self) -> bool:
        """A session holds its SQLite transaction open under the latch between statements."""
        with self._cond:
            return self._parked is not None

    def release(self, who: object) -> None:
        with self._cond:
            if self._owner is not who or self._depth == 0:
                return
            self._depth -= 1
            if self._depth != 0 or not self._queue:
                if self._depth == 0:
                    self._owner = None
                return
            self._owner = None
            bell = self._queue.popleft()  # one waiter (the module's docstring says why)
        bell.ring()  # outside the lock, the GIL dropped around the syscall (_Waiter)

    def park(self, who: object, flush: Callable[[], None], use: threading.Lock) -> bool:
        """Leave the latch held with the owner's SQLite transaction open, when nobody waits
        and this is the outermost hold; False (nothing changed) otherwise."""
        with self._cond:
            if self._owner is not who or self._depth != 1 or self._waiters:
                return False
            self._depth = 0
            self._parked, self._parked_use = flush, use
            return True

    def flush_parked(self, who: object, patience: float = 0.5) -> None:
        """A reader that must see what another session wrote: commit a parked transaction
        of another session (nothing when the latch is free, running, or ``who``'s own). A
        busy parked session is waited for up to ``patience`` seconds; the reader then reads
        without its held rows."""
        deadline = time.monotonic() + patience
        while True:
            with self._cond:
                if (self._parked is None or self._flushing or self._owner is who
                        or self._flush_locked() or time.monotonic() >= deadline):
                    return
            # (not a wait on the condition: a release's notify must reach a session that
            # wants the latch, never this reader)
            time.sleep(_POLL)
