"""The asyncio connection pool: ``pool = await ifxwire.aio.create_pool(...)``.

The sync pool's semantics (sizing, the free health check and the ping after ``ping_after``,
FIFO waits, ``acquire(timeout)`` bounding the whole call, the reset on release): its state and
every decision are ``PoolBase``'s (client/pool.py, which says what each rule is; docs/
POOL_AND_ASYNC.md §1). What asyncio changes: no lock (``PoolBase._guard`` is None: nothing
here awaits while counters are inconsistent) and no helper threads
(an asyncio connect can be cancelled, so a connect the acquirer gives up on is cancelled and
its slot freed). Cancellation is safe at every await: a task cancelled while queued leaves
the queue, and if a connection had just been handed to it, that connection goes to the next
waiter; the work of ``release`` is shielded, so a task cancelled while giving a connection
back cannot leak it or its slot.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator
from typing import Any

from ..client.awaiting import ping
from ..client.pool import PoolBase, PoolClosed, PoolTimeout, _Entry
from ..client.resources import AsyncClosing
from ..client.steps import await_each
from .connection import AsyncConnection, connect

__all__ = ["AsyncConnectionPool", "PoolClosed", "PoolTimeout", "create_pool"]

log = logging.getLogger("ifxwire.pool")


class _Expired(Exception):
    """A queued acquire reached its deadline."""


def _expire(fut: asyncio.Future[_Entry | None]) -> None:
    if not fut.done():
        fut.set_exception(_Expired())


class AsyncConnectionPool(PoolBase, AsyncClosing):
    """A pool of :class:`ifxwire.aio.AsyncConnection`; create it with ``await create_pool``.

    Arguments as ``ifxwire.ConnectionPool`` (``PoolBase.__init__``; the rest go to
    ``ifxwire.aio.connect``); ``factory`` and ``configure`` are coroutine functions here
    (``factory()`` returns a new connection, ``configure(conn)`` prepares one).
    """

    _connect = staticmethod(connect)

    def _start(self) -> None:
        self._closing: set[asyncio.Task[None]] = set()  # background closes
        self._released = asyncio.Event()  # set whenever a connection comes back

    async def open(self) -> AsyncConnectionPool:
        """Open ``min_size`` connections, all within ``timeout`` (``create_pool`` calls it)."""
        await await_each(self._open_calls(), self)
        return self

    # ------------------------------------------------------------------ acquire

    async def acquire(self, timeout: float | None = None) -> AsyncConnection:
        """A connection for the caller's exclusive use; give it back with ``release``.
        Raises PoolTimeout when none is available within ``timeout`` (default: the pool's)."""
        now: AsyncConnection | None = self._acquire_now()  # (decided at once: no await)
        return now if now is not None else await await_each(
            self._acquire_calls(self.timeout if timeout is None else timeout), self)

    @staticmethod
    def _waiter() -> asyncio.Future[_Entry | None]:
        return asyncio.get_running_loop().create_future()

    async def _wait(self, fut: asyncio.Future[_Entry | None], deadline: float,
                    wait: float) -> _Entry | None:
        """Wait in the queue until ``deadline``: an entry, or None (a slot to connect in)."""
        loop = asyncio.get_running_loop()
        started = time.monotonic()
        # Awaiting the future itself (not wait_for, which may swallow a cancellation that
        # meets a result): a timer fails it with _Expired at the deadline.
        timer = loop.call_later(max(deadline - started, 0), _expire, fut)
        try:
            return await fut
        except (_Expired, asyncio.CancelledError) as exc:
            if fut.done() and not fut.cancelled() and fut.exception() is None:
                got = fut.result()  # handed over just as the task was cancelled: pass it on
                self._pass_on(got)
            else:
                with contextlib.suppress(ValueError):
                    self._waiters.remove(fut)
            if isinstance(exc, asyncio.CancelledError):
                raise
            raise self._timed_out(wait) from None
        finally:
            timer.cancel()
            self._wait_seconds += time.monotonic() - started

    def _deliver(self, waiter: Any, entry: _Entry | None) -> bool:
        if waiter.done():
            return False
        waiter.set_result(entry)
        return True

    async def _open_slot(self, deadline: float, wait: float) -> _Entry:
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
                self._close_soon(conn)
                raise
        except asyncio.TimeoutError:
            self._slot_freed()
            raise PoolTimeout("no connection available in time (a new connection was being "
                              "opened)", sqlstate="08004") from None
        except BaseException:
            self._slot_freed()
            raise
        self._stats["opened"] += 1
        return _Entry(conn)

    @staticmethod
    async def _ping(conn: AsyncConnection, deadline: float) -> bool:
        return await ping(conn, max(deadline - time.monotonic(), 0.001))

    # ------------------------------------------------------------------ release

    async def release(self, conn: AsyncConnection) -> None:
        """Give a connection back: roll back an open transaction, restore autocommit, keep
        it for reuse (or drop it when broken, closed or too old). Safe to cancel."""
        if not self._release_now(entry := self._take_back(conn), conn):  # (no await)
            await asyncio.shield(self._give_back(entry))

    async def _give_back(self, entry: _Entry) -> None:
        try:
            ok = await entry.conn.run(lambda core: self._reset_op(entry, core))
        except BaseException as exc:
            ok = self._reset_failed(entry, exc)
        self._returned(entry, ok)  # (which sets ``_released``, as every path here does)

    def _close_soon(self, conn: AsyncConnection) -> None:
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
        idle, waiters = self._shut()
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


async def create_pool(*connect_args: Any, **kwargs: Any) -> AsyncConnectionPool:
    """``await AsyncConnectionPool(*connect_args, **kwargs).open()``: pool options plus
    ``ifxwire.aio.connect`` arguments (host may be a URL)."""
    return await AsyncConnectionPool(*connect_args, **kwargs).open()
