"""The asyncio connection pool: ``pool = await ifxwire.aio.create_pool(...)``.

The sync pool's semantics (client/pool.py, docs/POOL_AND_ASYNC.md §1) on one event loop:

* sizing: ``min_size`` connections opened by ``create_pool`` within ``timeout``, at most
  ``max_size`` open or being opened; idle connections reused most recently used first;
* a cheap health check on acquire (the driver's ``closed``/``broken`` flags,
  ``max_lifetime``, ``max_idle``), and an SQ_VERSION ping only for a connection idle longer
  than ``ping_after``;
* FIFO waits: a released connection (or the slot of a dropped one) goes to the longest
  waiter; ``acquire(timeout)`` bounds the whole call (the wait, the ping, the connect) and
  raises ``PoolTimeout``;
* release rolls back an open transaction (no round trip when none is open) and restores the
  autocommit setting the connection was created with; a broken, closed or too old
  connection is dropped and its slot freed.

What asyncio changes: no lock (nothing here awaits while counters are inconsistent) and no
helper threads (an asyncio connect can be cancelled, so a connect the acquirer gives up on is
cancelled and its slot freed). Cancellation is safe at every await: a task cancelled while
queued leaves the queue, and if a connection had just been handed to it, that connection
goes to the next waiter; the work of ``release`` is shielded, so a task cancelled while
giving a connection back cannot leak it or its slot.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from ..client.pool import PoolBase, PoolClosed, PoolTimeout
from ..errors import Error, InterfaceError
from ..protocol.requests import PING_GROUP
from .connection import AsyncConnection, connect

__all__ = ["AsyncConnectionPool", "PoolClosed", "PoolTimeout", "create_pool"]

log = logging.getLogger("ifxwire.pool")


class _Entry:
    __slots__ = ("autocommit", "conn", "created", "last_used", "row_factory")

    def __init__(self, conn: AsyncConnection) -> None:
        self.conn = conn
        self.created = time.monotonic()
        self.last_used = self.created
        self.autocommit = conn.autocommit
        self.row_factory = conn.row_factory  # restored when the connection comes back


#: What a waiter receives: an idle connection, or the right to open one in a freed slot.
_SLOT = None


class _Expired(Exception):
    """A queued acquire reached its deadline."""


def _expire(fut: asyncio.Future[_Entry | None]) -> None:
    if not fut.done():
        fut.set_exception(_Expired())


class AsyncConnectionPool(PoolBase):
    """A pool of :class:`ifxwire.aio.AsyncConnection`; create it with ``await create_pool``.

    Arguments as ``ifxwire.ConnectionPool``; ``factory`` and ``configure`` are coroutine
    functions here (``factory()`` returns a new connection, ``configure(conn)`` prepares one).
    """

    def __init__(
        self,
        *connect_args: Any,
        min_size: int = 0,
        max_size: int = 10,
        timeout: float = 30.0,
        max_lifetime: float | None = 3600.0,
        max_idle: float | None = 600.0,
        ping_after: float | None = 30.0,
        factory: Callable[[], Awaitable[AsyncConnection]] | None = None,
        configure: Callable[[AsyncConnection], Awaitable[object]] | None = None,
        **connect_kwargs: Any,
    ) -> None:
        self._settings(min_size, max_size, timeout, max_lifetime, max_idle, ping_after)
        if factory is None:

            async def factory() -> AsyncConnection:
                return await connect(*connect_args, **connect_kwargs)

        self._factory = factory
        self._configure = configure
        self._idle: deque[_Entry] = deque()
        self._in_use: dict[int, _Entry] = {}
        self._waiters: deque[asyncio.Future[_Entry | None]] = deque()
        self._closing: set[asyncio.Task[None]] = set()  # background closes
        self._released = asyncio.Event()  # set whenever a connection comes back

    async def open(self) -> AsyncConnectionPool:
        """Open ``min_size`` connections, all within ``timeout`` (``create_pool`` calls it)."""
        deadline = time.monotonic() + self.timeout
        try:
            for _ in range(self.min_size - self._size):
                self._size += 1
                self._idle.append(await self._open_slot(deadline))
        except BaseException:
            await self.close()
            raise
        return self

    # ------------------------------------------------------------------ acquire

    async def acquire(self, timeout: float | None = None) -> AsyncConnection:
        """A connection for the caller's exclusive use; give it back with ``release``.
        Raises PoolTimeout when none is available within ``timeout`` (default: the pool's)."""
        wait = self.timeout if timeout is None else timeout
        deadline = time.monotonic() + wait
        try:
            entry = await self._claim(deadline, wait)
            if entry is not None and not await self._usable(entry, deadline):
                self._close_later(entry.conn)  # keep its slot and connect anew
                self._stats["dropped"] += 1
                entry = None
            if entry is None:
                entry = await self._open_slot(deadline)
        except PoolTimeout:
            self._stats["timeouts"] += 1
            raise
        if self._closed:
            self._discard(entry)
            raise PoolClosed("the pool is closed")
        self._in_use[id(entry.conn)] = entry
        self._stats["acquired"] += 1
        return entry.conn

    async def _claim(self, deadline: float, wait: float) -> _Entry | None:
        """An idle entry, or None: the caller owns a slot and opens a connection in it."""
        if self._closed:
            raise PoolClosed("the pool is closed")
        self._expire_idle()
        if not self._waiters:
            if self._idle:
                return self._idle.pop()
            if self._size < self.max_size:
                self._size += 1
                return None
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[_Entry | None] = loop.create_future()
        self._waiters.append(fut)
        self._stats["waited"] += 1
        self._stats["max_waiting"] = max(self._stats["max_waiting"], len(self._waiters))
        started = time.monotonic()
        # Awaiting the future itself (not wait_for, which may swallow a cancellation that
        # meets a result): a timer fails it with _Expired at the deadline.
        timer = loop.call_later(max(deadline - started, 0), _expire, fut)
        try:
            return await fut
        except (_Expired, asyncio.CancelledError) as exc:
            if fut.done() and not fut.cancelled() and fut.exception() is None:
                got = fut.result()  # handed over just as the task was cancelled: pass it on
                if got is None:
                    self._free_slot()
                else:
                    self._hand_over(got)
            else:
                with contextlib.suppress(ValueError):
                    self._waiters.remove(fut)
            if isinstance(exc, asyncio.CancelledError):
                raise
            raise PoolTimeout(
                f"no connection available within {wait:.3g} s "
                f"(pool max_size={self.max_size}, all in use)",
                sqlstate="08004",
            ) from None
        finally:
            timer.cancel()
            self._wait_seconds += time.monotonic() - started

    async def _open_slot(self, deadline: float) -> _Entry:
        """Connect (and configure) in a slot already counted in ``_size``; on any failure,
        cancellation included, the slot is given back."""
        try:
            left = deadline - time.monotonic()
            if left <= 0:
                raise asyncio.TimeoutError
            conn = await asyncio.wait_for(self._factory(), left)
            try:
                if self._configure is not None:
                    await asyncio.wait_for(self._configure(conn),
                                           max(deadline - time.monotonic(), 0.001))
            except BaseException:
                self._close_later(conn)
                raise
        except asyncio.TimeoutError:
            self._free_slot()
            raise PoolTimeout(
                "no connection available in time (a new connection was being opened)",
                sqlstate="08004",
            ) from None
        except BaseException:
            self._free_slot()
            raise
        self._stats["opened"] += 1
        return _Entry(conn)

    async def _usable(self, entry: _Entry, deadline: float) -> bool:
        conn = entry.conn
        if conn.closed or conn.broken:
            return False
        now = time.monotonic()
        if self.max_lifetime is not None and now - entry.created > self.max_lifetime:
            return False
        if self.ping_after is not None and now - entry.last_used > self.ping_after:
            self._stats["pings"] += 1
            try:
                return await ping(conn, max(deadline - now, 0.001))
            except BaseException:
                self._close_later(conn)  # cancelled mid-ping: the slot goes back
                self._free_slot()
                raise
        return True

    def _expire_idle(self) -> None:
        """Close idle entries past max_idle (keeping min_size) or max_lifetime."""
        if not self._idle or (self.max_idle is None and self.max_lifetime is None):
            return
        now = time.monotonic()
        keep: deque[_Entry] = deque()
        for e in self._idle:  # oldest first
            idle_too_long = self.max_idle is not None and now - e.last_used > self.max_idle
            too_old = self.max_lifetime is not None and now - e.created > self.max_lifetime
            if too_old or (idle_too_long and self._size > self.min_size):
                self._size -= 1
                self._stats["dropped"] += 1
                self._close_later(e.conn)
            else:
                keep.append(e)
        self._idle = keep

    # ------------------------------------------------------------------ release

    async def release(self, conn: AsyncConnection) -> None:
        """Give a connection back: roll back an open transaction, restore autocommit, keep
        it for reuse (or drop it when broken, closed or too old). Safe to cancel."""
        entry = self._in_use.pop(id(conn), None)
        if entry is None or entry.conn is not conn:
            raise InterfaceError("this connection does not belong to the pool (or was released)")
        self._stats["released"] += 1
        await asyncio.shield(self._give_back(entry))

    async def _give_back(self, entry: _Entry) -> None:
        try:
            ok = await self._reset(entry)
        except BaseException:
            ok = False
        if ok:
            entry.last_used = time.monotonic()
            self._hand_over(entry)
        else:
            self._discard(entry)
        self._released.set()

    async def _reset(self, entry: _Entry) -> bool:
        conn = entry.conn
        if conn.closed or conn.broken:
            return False
        if self.max_lifetime is not None and time.monotonic() - entry.created > self.max_lifetime:
            return False
        try:
            if conn.in_transaction:  # tracked by the driver: no round trip when False
                await conn.rollback()
            if conn.autocommit != entry.autocommit:
                await conn.set_autocommit(entry.autocommit)
            conn.row_factory = entry.row_factory
        except Error:
            log.debug("resetting a returned connection failed; dropping it", exc_info=True)
            return False
        return not conn.broken

    def _hand_over(self, entry: _Entry) -> None:
        """To the longest waiter still waiting, else the idle list (or closed if the pool
        is)."""
        if self._closed:
            self._size -= 1
            self._stats["dropped"] += 1  # released after close: closed, as the sync pool counts
            self._close_later(entry.conn)
            return
        while self._waiters:
            fut = self._waiters.popleft()
            if not fut.done():
                fut.set_result(entry)
                return
        self._idle.append(entry)

    def _discard(self, entry: _Entry) -> None:
        self._stats["dropped"] += 1
        self._close_later(entry.conn)
        self._free_slot()

    def _free_slot(self) -> None:
        """A slot is free: the longest waiter may open a connection in it."""
        if not self._closed:
            while self._waiters:
                fut = self._waiters.popleft()
                if not fut.done():
                    fut.set_result(_SLOT)
                    return
        self._size -= 1

    def _close_later(self, conn: AsyncConnection) -> None:
        task = asyncio.ensure_future(self._close_conn(conn))
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)

    @staticmethod
    async def _close_conn(conn: AsyncConnection) -> None:
        try:
            await conn.close()
        except Exception:
            log.debug("closing a pooled connection failed", exc_info=True)

    # ------------------------------------------------------------------ conveniences

    @contextlib.asynccontextmanager
    async def connection(self, timeout: float | None = None) -> AsyncIterator[AsyncConnection]:
        """``async with pool.connection() as conn:``: acquire, and release on exit (an open
        transaction is rolled back; commit explicitly to keep work)."""
        conn = await self.acquire(timeout)
        try:
            yield conn
        finally:
            await self.release(conn)

    async def close(self) -> None:
        """Close idle connections and fail queued and later acquires with PoolClosed;
        connections in use are closed when released. Idempotent."""
        self._closed = True
        idle = list(self._idle)
        self._idle.clear()
        self._size -= len(idle)
        self._stats["dropped"] += len(idle)
        waiters = list(self._waiters)
        self._waiters.clear()
        for fut in waiters:
            if not fut.done():
                fut.set_exception(PoolClosed("the pool is closed"))
        await asyncio.gather(*(self._close_conn(e.conn) for e in idle))
        if self._closing:
            await asyncio.gather(*list(self._closing), return_exceptions=True)

    async def drain(self, timeout: float | None = None) -> bool:
        """Close the pool, then wait until every connection in use has been released (and
        closed), at most ``timeout`` seconds; True if all came back in time."""
        await self.close()
        deadline = None if timeout is None else time.monotonic() + timeout
        while self._in_use:
            self._released.clear()
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                return False
            try:
                await asyncio.wait_for(self._released.wait(), left)
            except asyncio.TimeoutError:
                return not self._in_use
        if self._closing:
            await asyncio.gather(*list(self._closing), return_exceptions=True)
        return True

    async def __aenter__(self) -> AsyncConnectionPool:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()


async def ping(conn: AsyncConnection, timeout: float) -> bool:
    """One SQ_VERSION round trip within ``timeout``; False (and the connection broken) if it
    fails or takes longer (no cancel is sent: a connection that does not answer a ping is
    given up at once)."""
    core = conn._core
    try:
        async with conn._lock:
            core._check()
            reply = core._reply()
            await asyncio.wait_for(conn._exchange([(PING_GROUP, reply)], drain=False), timeout)
        return reply.error is None
    except (Error, asyncio.TimeoutError):
        return False


async def create_pool(*connect_args: Any, **kwargs: Any) -> AsyncConnectionPool:
    """``await AsyncConnectionPool(*connect_args, **kwargs).open()``: pool options plus
    ``ifxwire.aio.connect`` arguments (host may be a URL)."""
    return await AsyncConnectionPool(*connect_args, **kwargs).open()
