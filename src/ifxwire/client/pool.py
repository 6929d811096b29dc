"""A thread-safe connection pool for the sync driver.

What it does differently from informix-driver's pool (peer-informix-driver.md 1.1, 8):

* **No health-check SELECT on every acquire.** A connection handed out is checked for free:
  its ``closed`` / ``broken`` flags (set by the driver the moment the wire fails), its age
  (``max_lifetime``) and its idle time (``max_idle``). Only a connection idle for longer than
  ``ping_after`` seconds costs a round trip, an ``SQ_VERSION`` ping (no SQL, no statement, no
  transaction), and that ping runs outside the pool lock.
* **Nothing slow happens under the pool lock.** Connecting, pinging, rolling back and closing
  all happen after the lock is released; the lock only guards counters and queues.
* **FIFO waits.** When the pool is exhausted, acquirers queue; a released connection (or the
  slot of a discarded one) goes to the longest waiter, never to a thread that arrived later.
  A wait that exceeds its timeout raises :class:`PoolTimeout` (an ``OperationalError``).
* **Clean hand-back.** ``release()`` rolls back an open transaction (no round trip when none
  is open, because the driver tracks transactions) and restores the connection's original
  autocommit setting; a broken or closed connection is dropped and its slot freed.

Idle connections are reused most-recently-used first, so surplus connections stay idle and
age out through ``max_idle`` (never below ``min_size``). There is no maintenance thread:
expiry is checked when connections are acquired and released.

**Timeouts hold while servers hang.** ``acquire(timeout)`` never blocks longer than its
timeout, whatever the server does: a new connection is opened by a short-lived helper thread
that the acquirer waits for until its deadline (a sync connect cannot be interrupted). If the
deadline passes first the acquirer gets PoolTimeout and the helper, when its connect ends,
hands the connection to the next waiter or the idle list (or frees the slot if it failed).
A ping of a long-idle connection gets only the time left too. The constructor's ``min_size``
connects share one deadline, ``timeout`` from the start.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import logging
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from typing import Any

from ..errors import Error, InterfaceError, OperationalError
from ..protocol.requests import ROLLBACK_GROUP
from . import fastpath as _fastpath
from .connection import Connection
from .resources import Closing
from .steps import Calls, Op, call_each

__all__ = ["ConnectionPool", "PoolClosed", "PoolTimeout", "create_pool"]

log = logging.getLogger("ifxwire.pool")


class PoolTimeout(OperationalError):
    """No connection became available within the acquire timeout."""


class PoolClosed(InterfaceError):
    """The pool was closed."""


class _Entry:
    """A pooled connection (sync or asyncio) with its clocks and what release restores."""

    __slots__ = ("autocommit", "conn", "created", "last_used", "row_factory")

    def __init__(self, conn: Any) -> None:
        self.conn = conn
        self.created = time.monotonic()
        self.last_used = self.created
        self.autocommit = conn.autocommit
        self.row_factory = conn.row_factory  # restored when the connection comes back


class _Opening:
    """A connect run by a helper thread for an acquirer that may stop waiting for it."""

    __slots__ = ("abandoned", "done", "entry", "error")

    def __init__(self) -> None:
        self.done = threading.Event()
        self.entry: _Entry | None = None
        self.error: BaseException | None = None
        self.abandoned = False


class _Waiter:
    """One thread queued in ``acquire``: it receives an entry, or the right to connect."""

    __slots__ = ("entry", "event", "slot")

    def __init__(self) -> None:
        self.event = threading.Event()
        self.entry: _Entry | None = None
        self.slot = False


#: The counters of ``stats()``, both pools.
_COUNTERS = ("acquired", "released", "opened", "dropped", "timeouts", "waited", "pings",
             "max_waiting")


#: ``PoolBase._claim_now``: nothing idle and no free slot; the caller queues.
WAIT = object()
#: ``PoolBase._guarded`` of a pool without a guard.
_UNGUARDED = contextlib.nullcontext()


class PoolBase:
    """What the sync pool and ``ifxwire.aio``'s pool share: their settings, checked alike;
    the pool's state (idle entries MRU last, entries in use, FIFO waiters, the slot count)
    and every decision on it, without I/O or waiting; the reset of a returned connection as
    one operation (``_reset_op``, run blocking or awaited); and what they tell about
    themselves. Each driver adds only how it waits (events or futures), connects and closes
    (the sync pool calls these under its lock)."""

    _idle: deque[_Entry]
    _in_use: dict[int, _Entry]
    _waiters: deque[Any]

    def __init__(
        self,
        *connect_args: Any,
        min_size: int = 0,
        max_size: int = 10,
        timeout: float = 30.0,
        max_lifetime: float | None = 3600.0,
        max_idle: float | None = 600.0,
        ping_after: float | None = 30.0,
        factory: Callable[[], Any] | None = None,
        configure: Callable[[Any], Any] | None = None,
        **connect_kwargs: Any,
    ) -> None:
        """Both pools' arguments (``ConnectionPool`` says what each means; for the asyncio
        pool ``factory`` and ``configure`` are coroutine functions and the rest goes to
        ``ifxwire.aio.connect``); each pool then ``_start``s."""
        if max_size < 1:
            raise ValueError("max_size must be at least 1")
        if min_size < 0 or min_size > max_size:
            raise ValueError("min_size must be between 0 and max_size")
        self.min_size = min_size
        self.max_size = max_size
        self.timeout = timeout
        self.max_lifetime = max_lifetime
        self.max_idle = max_idle
        self.ping_after = ping_after
        self._size = 0  # open connections plus those being opened
        self._closed = False
        self._stats = dict.fromkeys(_COUNTERS, 0)
        self._wait_seconds = 0.0  # the total time acquires spent queued
        self._idle = deque()
        self._in_use = {}
        self._waiters = deque()
        self._factory = factory or functools.partial(self._connect, *connect_args,
                                                     **connect_kwargs)
        self._configure = configure
        self._start()

    @staticmethod
    def _connect(*args: Any, **kwargs: Any) -> Any:
        """A new connection (the driver's ``connect``) when no ``factory`` is given."""
        raise NotImplementedError

    def _start(self) -> None:
        """The pool's own state, after the shared one (the sync pool opens ``min_size``)."""

    # ---- decisions (no I/O) ---------------------------------------------------------------
    def _fresh(self, entry: _Entry, now: float) -> bool:
        """The free health check: the driver's flags and ``max_lifetime``."""
        conn = entry.conn
        if conn.closed or conn.broken:
            return False
        return self.max_lifetime is None or now - entry.created <= self.max_lifetime

    def _needs_ping(self, entry: _Entry, now: float) -> bool:
        return self.ping_after is not None and now - entry.last_used > self.ping_after

    def _health(self, entry: _Entry) -> bool | None:
        """Before an idle entry is handed out: True (use it), False (drop it, connect anew
        in its slot) or None (ping it first: idle longer than ``ping_after``; counted)."""
        now = time.monotonic()
        if not self._fresh(entry, now):
            return False
        if self._needs_ping(entry, now):
            self._stats["pings"] += 1
            return None
        return True

    def _claim_healthy(self) -> tuple[_Entry | None, list[_Entry]]:
        """(Under the guard.) An acquire decided at once, without waiting or I/O: the most
        recently used idle entry when nobody is queued (``_claim_now``'s rule: nobody
        overtakes the queue), it is usable (``_fresh``) and no ping is due
        (``_needs_ping``), checked out (``_checked_out``); with the idle entries that
        expired (``_expire_idle``; the caller closes them outside the guard). None (and
        nothing claimed) when the acquire sequence (``_acquire_calls``) must decide. The
        pools' acquire tries this first: a pool round with a healthy idle connection so
        costs no ``Calls`` generator and no ``call_each`` (issue 24's 3 % check)."""
        if self._closed or self._waiters or not self._idle:
            return None, []
        expired = self._expire_idle()
        idle = self._idle
        if not idle:
            return None, expired
        entry = idle[-1]
        now = time.monotonic()
        if not self._fresh(entry, now) or self._needs_ping(entry, now):
            return None, expired
        idle.pop()
        self._checked_out(entry)
        return entry, expired

    def _untouched(self, entry: _Entry, core: Any) -> bool:
        """Whether ``_reset_op`` would only restore the row factory: the entry is usable
        (``_fresh``), no transaction is open and autocommit is as it was. The pools'
        release then skips the operation (no generator, no ``fastpath.run``)."""
        return (not core.in_transaction and core.autocommit == entry.autocommit
                and self._fresh(entry, time.monotonic()))

    def _checked_out(self, entry: _Entry) -> bool:
        """Record an acquired entry as in use; False when the pool closed meanwhile (the
        caller discards it and raises PoolClosed)."""
        if self._closed:
            return False
        self._in_use[id(entry.conn)] = entry
        self._stats["acquired"] += 1
        return True

    def _take_back(self, conn: Any) -> _Entry:
        """The entry of a connection given back; InterfaceError for one not in use here."""
        entry = self._in_use.pop(id(conn), None)
        if entry is None or entry.conn is not conn:
            raise InterfaceError("this connection does not belong to the pool (or was released)")
        self._stats["released"] += 1
        return entry

    def _open_calls(self) -> Calls[None]:
        """Open ``min_size`` connections, all within one ``timeout`` (the sync pool's
        constructor, ``AsyncConnectionPool.open``); on a failure the pool is closed."""
        deadline = time.monotonic() + min(self.timeout, _MAX_WAIT)
        try:
            while self._size < self.min_size:
                with self._guarded():
                    self._size += 1
                entry = yield ("_open_slot", deadline, self.timeout)
                with self._guarded():
                    self._idle.append(entry)
        except BaseException:
            yield ("close",)
            raise

    def _acquire_calls(self, wait: float) -> Calls[Any]:
        """The acquire sequence, both pools': claim an idle entry or a slot, or queue and
        wait for one (``_wait``), check an idle entry's health (``_ping`` after a long idle
        time), drop an unusable one and connect anew in its slot (``_open_slot``), record the
        entry as in use; returns its connection. Each step names the pool's method that
        waits (``call_each`` runs them blocking, ``await_each`` awaits them); an idle
        connection in good health is handed out without one."""
        deadline = time.monotonic() + min(wait, _MAX_WAIT)
        guard = self._guard  # (no ``with`` without one: the asyncio pool's hot path)
        try:
            if guard is None:
                entry, waiter, expired = self._claim_or_queue()
            else:
                with guard:
                    entry, waiter, expired = self._claim_or_queue()
            for e in expired:
                self._close_soon(e.conn)
            if waiter is not None:
                entry = yield ("_wait", waiter, deadline, wait)
            if entry is not None:
                if guard is None:
                    verdict = self._health(entry)
                else:
                    with guard:
                        verdict = self._health(entry)
                if verdict is None:
                    try:
                        verdict = yield ("_ping", entry.conn, deadline)
                    except BaseException:  # (a cancelled ping: the slot goes back)
                        self._close_soon(entry.conn)
                        self._free_slot()
                        raise
                if not verdict:
                    self._drop(entry)  # keep its slot and connect anew
                    entry = None
            if entry is None:
                entry = yield ("_open_slot", deadline, wait)
        except PoolTimeout:
            self._count("timeouts")
            raise
        if guard is None:
            kept = self._checked_out(entry)
        else:
            with guard:
                kept = self._checked_out(entry)
        if not kept:
            self._discard(entry)
            raise PoolClosed("the pool is closed")
        return entry.conn

    def _reset_failed(self, entry: _Entry, exc: BaseException) -> bool:
        """A release's reset raised ``exc``: the connection is dropped (False, for
        ``_returned``); an interruption (a Ctrl-C, a cancellation: not an ``Error``) drops
        it here, freeing its slot, and is raised again. Both pools' release is: take back,
        reset, ``_returned`` (no generator: it is half of every pool round)."""
        if isinstance(exc, Error):
            log.debug("resetting a returned connection failed; dropping it", exc_info=exc)
            return False
        self._returned(entry, False)
        raise exc

    def _timed_out(self, wait: float, opening: bool = False) -> PoolTimeout:
        """The PoolTimeout of an acquire that waited ``wait`` s (``opening``: while a new
        connection was still being opened)."""
        why = ("a new connection was still being opened; the pool keeps it" if opening
               else f"pool max_size={self.max_size}, all in use")
        return PoolTimeout(f"no connection available within {wait:.3g} s ({why})",
                           sqlstate="08004")

    def _claim_now(self) -> _Entry | object | None:
        """An idle entry (most recently used), None (a slot taken: the caller connects), or
        ``WAIT``. Earlier waiters go first: nobody overtakes the queue."""
        if self._closed:
            raise PoolClosed("the pool is closed")
        if not self._waiters:
            if self._idle:
                return self._idle.pop()
            if self._size < self.max_size:
                self._size += 1
                return None
        return WAIT

    def _claim_or_queue(self) -> tuple[_Entry | None, Any, list[_Entry]]:
        """Take out expired idle entries, then ``_claim_now``; when it says ``WAIT``, queue a
        new waiter (the pool's ``_waiter()``). Returns (an idle entry or None, the waiter or
        None, the expired entries for the caller to close outside the guard): with no
        waiter and no entry, the caller owns a new slot."""
        expired = self._expire_idle() if not self._closed else []
        got = self._claim_now()
        if got is not WAIT:
            return got, None, expired  # type: ignore[return-value]
        waiter = self._waiter()
        self._queue(waiter)
        return None, waiter, expired

    def _waiter(self) -> Any:
        """A new queued waiter (an event, a future) for ``_deliver`` to hand an entry to."""
        raise NotImplementedError

    def _queue(self, waiter: Any) -> None:
        self._waiters.append(waiter)
        stats = self._stats
        stats["waited"] += 1
        stats["max_waiting"] = max(stats["max_waiting"], len(self._waiters))

    def _deliver(self, waiter: Any, entry: _Entry | None) -> bool:
        """Give a queued waiter an entry (None: a free slot); False if it stopped waiting."""
        raise NotImplementedError

    def _give(self, entry: _Entry) -> bool:
        """A usable entry to the longest waiter, else to the idle list; False when the pool
        is closed (its slot is uncounted: the caller closes the connection)."""
        if self._closed:
            self._size -= 1
            self._stats["dropped"] += 1
            return False
        while self._waiters:
            if self._deliver(self._waiters.popleft(), entry):
                return True
        self._idle.append(entry)
        return True

    def _slot_freed(self) -> None:
        """A slot is free: the longest waiter may connect in it, else it is uncounted."""
        if not self._closed:
            while self._waiters:
                if self._deliver(self._waiters.popleft(), None):
                    return
        self._size -= 1

    def _expire_idle(self) -> list[_Entry]:
        """Take out idle entries past ``max_lifetime``, or past ``max_idle`` beyond
        ``min_size``; their slots are uncounted (the caller closes them)."""
        out: list[_Entry] = []
        max_idle, max_lifetime = self.max_idle, self.max_lifetime
        if not self._idle or (max_idle is None and max_lifetime is None):
            return out
        now = time.monotonic()
        for e in self._idle:  # oldest first
            idle_too_long = max_idle is not None and now - e.last_used > max_idle
            too_old = max_lifetime is not None and now - e.created > max_lifetime
            if too_old or (idle_too_long and self._size - len(out) > self.min_size):
                out.append(e)
        if out:
            # (the kept ones rebuilt only when some expired: not on every acquire)
            self._idle = deque(e for e in self._idle if all(e is not o for o in out))
            self._size -= len(out)
            self._stats["dropped"] += len(out)
        return out

    def _shut(self) -> tuple[list[_Entry], list[Any]]:
        """Close the pool: the idle entries to close and the waiters to fail."""
        self._closed = True
        idle = list(self._idle)
        self._idle.clear()
        self._size -= len(idle)
        self._stats["dropped"] += len(idle)
        waiters = list(self._waiters)
        self._waiters.clear()
        return idle, waiters

    # ---- what follows a decision (both pools; each closes connections its own way) --------
    #: Held around each change of the state made here: the sync pool's lock; None for the
    #: asyncio pool (one event loop), which so pays for no ``with`` on its hot paths.
    _guard: contextlib.AbstractContextManager[Any] | None = None

    #: Set whenever a connection comes back (``_returned``): the asyncio pool's (an
    #: ``asyncio.Event``, which its ``drain`` waits for); None for the sync pool.
    _released: Any = None

    def _acquire_now(self) -> Any:
        """The acquire decided at once (``_claim_healthy``; the expired idle connections
        closed): the connection, or None when the acquire sequence must decide."""
        with self._guarded():
            entry, expired = self._claim_healthy()
        for e in expired:
            self._close_soon(e.conn)
        return None if entry is None else entry.conn

    def _release_now(self, entry: _Entry, conn: Any) -> bool:
        """A release with nothing to reset but the row factory (``_untouched``), done now
        (True); False: the caller runs ``_reset_op``."""
        if not self._untouched(entry, conn):
            return False
        conn.row_factory = entry.row_factory  # all ``_reset_op`` would do
        self._returned(entry, True)
        return True

    def _guarded(self) -> contextlib.AbstractContextManager[Any]:
        return _UNGUARDED if self._guard is None else self._guard

    def _close_soon(self, conn: Any) -> None:
        """Close ``conn``, outside the guard (sync: now; asyncio: in a task of its own)."""
        raise NotImplementedError

    def _count(self, counter: str) -> None:
        with self._guarded():
            self._stats[counter] += 1

    def _drop(self, entry: _Entry) -> None:
        """Close ``entry`` and count it dropped; its slot stays taken (the acquirer that
        found it unusable connects anew in it)."""
        self._close_soon(entry.conn)
        self._count("dropped")

    def _discard(self, entry: _Entry) -> None:
        """Close ``entry``; its slot goes to the first waiter, or is freed."""
        self._drop(entry)
        self._free_slot()

    def _free_slot(self) -> None:
        with self._guarded():
            self._slot_freed()

    def _hand_over(self, entry: _Entry) -> None:
        """A usable connection goes to the longest waiter, else to the idle list (or is closed
        when the pool is)."""
        with self._guarded():
            kept = self._give(entry)
        if not kept:
            self._close_soon(entry.conn)

    def _pass_on(self, got: _Entry | None) -> None:
        """What an acquirer that stopped waiting was given goes on: an entry to the longest
        waiter or the idle list (``_hand_over``), a slot (None) to the longest waiter or
        freed (``_free_slot``). The sync pool's abandoned connect, the asyncio pool's
        acquirer cancelled just as it was served."""
        if got is None:
            self._free_slot()
        else:
            self._hand_over(got)

    def _returned(self, entry: _Entry, ok: bool) -> None:
        """A connection given back, after ``_reset_op`` (``ok``: its answer): kept for the
        next acquire, or dropped."""
        if not ok:
            self._discard(entry)
        else:
            entry.last_used = time.monotonic()
            # (``_hand_over`` inline, and no ``with`` without a guard: a release costs what
            # it did when each pool wrote this itself)
            guard = self._guard
            if guard is None:
                kept = self._give(entry)
            else:
                with guard:
                    kept = self._give(entry)
            if not kept:
                self._close_soon(entry.conn)
        if self._released is not None:
            self._released.set()

    def _reset_op(self, entry: _Entry, core: Connection) -> Op[bool]:
        """Make a returned connection fit for the next user (``core``: its session): roll
        back an open transaction (no round trip when none is open: the driver tracks it),
        restore autocommit and the row factory. False: drop it."""
        if not self._fresh(entry, time.monotonic()):
            return False
        try:
            core.ensure_usable()
            if core.in_transaction:
                yield from core.end_transaction_op(ROLLBACK_GROUP, "rollback")
            if core.autocommit != entry.autocommit:
                yield from core.autocommit_op(entry.autocommit)
            core.row_factory = entry.row_factory
        except Error:
            log.debug("resetting a returned connection failed; dropping it", exc_info=True)
            return False
        return not core.broken

    def stats(self) -> dict[str, float]:
        """Counters since the pool was made: ``acquired``, ``released``, ``opened`` (new
        connections), ``dropped`` (closed as broken, expired or on close), ``timeouts``,
        ``waited`` (acquires that queued), ``wait_seconds`` (their total wait), ``pings``,
        ``max_waiting``; and now: ``size``, ``idle``, ``in_use``, ``waiting``."""
        return {**self._stats, "wait_seconds": self._wait_seconds, "size": self._size,
                "idle": len(self._idle), "in_use": len(self._in_use),
                "waiting": len(self._waiters)}

    @property
    def size(self) -> int:
        """Connections open or being opened (idle + in use)."""
        return self._size

    @property
    def idle_count(self) -> int:
        return len(self._idle)

    @property
    def in_use_count(self) -> int:
        return len(self._in_use)

    @property
    def waiting(self) -> int:
        """Callers queued in ``acquire``."""
        return len(self._waiters)

    @property
    def closed(self) -> bool:
        return self._closed

    def __repr__(self) -> str:
        return (
            f"<ifxwire {type(self).__name__} size={self._size} idle={len(self._idle)} "
            f"in_use={len(self._in_use)} max_size={self.max_size}"
            f"{' closed' if self._closed else ''}>"
        )


class ConnectionPool(PoolBase, Closing):
    """A pool of :class:`ifxwire.Connection` objects.

    ``connect_args`` / ``connect_kwargs`` are passed to ``ifxwire.connect`` (or to ``factory``
    when given, which must return a new connection). ``min_size`` connections are opened by
    the constructor; at most ``max_size`` exist at once. ``timeout`` is the default acquire
    timeout in seconds. ``max_lifetime`` (seconds, None = unlimited) retires old connections,
    ``max_idle`` closes connections idle longer than that (keeping ``min_size``), and
    ``ping_after`` is the idle time after which an acquired connection is pinged first
    (None = never ping). ``configure(conn)`` runs once on each new connection (outside the
    pool lock), e.g. to ``SET LOCK MODE TO WAIT``; if it raises, the connection is dropped.
    """

    @staticmethod
    def _connect(*args: Any, **kwargs: Any) -> Connection:
        from .. import connect  # (ifxwire/__init__.py imports this module)

        return connect(*args, **kwargs)

    def _start(self) -> None:
        self._lock = self._guard = threading.Lock()
        call_each(self._open_calls(), self)

    # ------------------------------------------------------------------ acquire

    def acquire(self, timeout: float | None = None) -> Connection:
        """A connection for the caller's exclusive use; give it back with ``release``.

        Waits (FIFO) up to ``timeout`` seconds (default: the pool's ``timeout``) when
        ``max_size`` connections are in use, then raises PoolTimeout.
        """
        conn: Connection | None = self._acquire_now()
        if conn is None:
            conn = call_each(
                self._acquire_calls(self.timeout if timeout is None else timeout), self)
        return conn

    _waiter = _Waiter

    def _wait(self, waiter: _Waiter, deadline: float, wait: float) -> _Entry | None:
        """Wait in the queue until ``deadline``: an entry, or None (a slot to connect in)."""
        started = time.monotonic()
        remaining = deadline - started
        done = waiter.event.wait(min(remaining, _MAX_WAIT)) if remaining > 0 else False
        with self._lock:
            self._wait_seconds += time.monotonic() - started
            if not done and not waiter.event.is_set():
                with contextlib.suppress(ValueError):
                    self._waiters.remove(waiter)
                raise self._timed_out(wait)
        if waiter.entry is not None:
            return waiter.entry
        if waiter.slot:
            return None
        raise PoolClosed("the pool is closed")

    def _deliver(self, waiter: Any, entry: _Entry | None) -> bool:
        if entry is None:
            waiter.slot = True
        else:
            waiter.entry = entry
        waiter.event.set()
        return True

    def _open_slot(self, deadline: float, wait: float) -> _Entry:
        """Connect in a slot already counted in ``_size`` before ``deadline``.

        The connect runs in a helper thread, so a server that accepts and never answers cannot
        hold the caller past its deadline. On failure the slot is given back; on timeout the
        helper keeps it and hands the connection over when (if) it is made.
        """
        opening = _Opening()
        # In the caller's context (contextvars), so what the caller's context carries, e.g.
        # the current OpenTelemetry span of ifxwire.otel's acquire, holds in the connect too.
        threading.Thread(
            target=contextvars.copy_context().run, args=(self._open_into, opening),
            name="ifxwire-pool-connect", daemon=True,
        ).start()
        left = deadline - time.monotonic()
        if left > 0:
            opening.done.wait(min(left, _MAX_WAIT))
        with self._lock:
            if not opening.done.is_set():
                opening.abandoned = True  # from now on the helper owns the slot
                raise self._timed_out(wait, opening=True)
        if opening.error is not None:
            self._free_slot()
            raise opening.error
        assert opening.entry is not None
        return opening.entry

    def _open_into(self, opening: _Opening) -> None:
        """The helper thread: connect and configure, then give the outcome to the acquirer,
        or to the pool if the acquirer stopped waiting."""
        entry: _Entry | None = None
        error: BaseException | None = None
        try:
            conn = self._factory()
            try:
                if self._configure is not None:
                    self._configure(conn)
            except BaseException:
                self._close_soon(conn)
                raise
            entry = _Entry(conn)
        except BaseException as exc:
            error = exc
        with self._lock:
            opening.entry, opening.error = entry, error
            opening.done.set()
            if entry is not None:
                self._stats["opened"] += 1
            abandoned = opening.abandoned
        if not abandoned:
            return
        if entry is None:
            log.debug("a connect nobody waited for failed: %s", error)
        self._pass_on(entry)

    @staticmethod
    def _ping(conn: Connection, deadline: float) -> bool:
        """The health check's round trip, given no more than the time left."""
        return ping(conn, deadline - time.monotonic())

    # ------------------------------------------------------------------ release

    def release(self, conn: Connection) -> None:
        """Give a connection back: roll back an open transaction, restore autocommit, and
        keep it for reuse (or drop it when it is broken, closed or too old)."""
        with self._lock:
            entry = self._take_back(conn)
        if self._release_now(entry, conn):
            return
        try:
            ok = _fastpath.run(conn, self._reset_op(entry, conn))
        except BaseException as exc:
            ok = self._reset_failed(entry, exc)
        self._returned(entry, ok)

    def stats(self) -> dict[str, float]:
        """``PoolBase.stats``, read under the pool lock: one consistent snapshot."""
        with self._lock:
            return super().stats()

    @staticmethod
    def _close_soon(conn: Connection) -> None:
        try:
            conn.close()
        except Exception:
            log.debug("closing a pooled connection failed", exc_info=True)

    # ------------------------------------------------------------------ conveniences

    @contextlib.contextmanager
    def connection(self, timeout: float | None = None) -> Iterator[Connection]:
        """``with pool.connection() as conn:``: acquire, and release on exit.

        An open transaction is rolled back on release, also after an exception; commit
        explicitly to keep work.
        """
        conn = self.acquire(timeout)
        try:
            yield conn
        finally:
            self.release(conn)

    def close(self) -> None:
        """Close idle connections, fail queued and future acquires with PoolClosed.

        Connections in use are closed when they are released. Idempotent.
        """
        with self._lock:
            idle, waiters = self._shut()
        for w in waiters:
            w.event.set()
        for e in idle:
            self._close_soon(e.conn)



def ping(conn: Connection, timeout: float | None = None) -> bool:
    """One ``SQ_VERSION`` round trip (``Connection.ping_op``), waiting at most ``timeout``
    seconds (or the connection's read timeout) for the answer; False (and the connection
    broken) if it fails."""
    try:
        with conn.reads_within(timeout):
            return _fastpath.run(conn, conn.ping_op())
    except Error:
        return False


#: The longest single wait on an event (``threading`` refuses larger timeouts).
_MAX_WAIT = threading.TIMEOUT_MAX


def create_pool(*connect_args: Any, **kwargs: Any) -> ConnectionPool:
    """``ConnectionPool(*connect_args, **kwargs)``: pool options plus ``ifxwire.connect``
    arguments (host may be a URL)."""
    return ConnectionPool(*connect_args, **kwargs)
