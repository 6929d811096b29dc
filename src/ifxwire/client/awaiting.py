"""The second of the two loops: the asyncio loop that drives the shared sans-I/O core over
asyncio streams (the first, blocking one is ``WireSession``'s ``_read``, ``_drive``,
``_run`` and ``_exchange`` in client/wire.py).

``AsyncSession`` holds the streams, the lock and the sync session core
(``client.outbox.SessionCore``) and awaits what the blocking loop blocks on: ``_drive``
(steps), ``_exchange`` (request groups, with the cancellation drain and the statement timer),
``_run`` (operations), and ``close`` says goodbye and closes the stream; ``open_session``
opens the stream and logs in. ``ifxwire.aio`` adds only the awaitable surface on top
(``AsyncConnection`` is an ``AsyncSession``). Why the loop lives here and not in aio/:
docs/ARCHITECTURE.md, "The two loops in client/". What a cancellation does:
docs/POOL_AND_ASYNC.md, "Concurrency and cancellation".
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Generator, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from .. import errors as _e
from .cancel import timeout_scope
from .connection import Connection
from .dsn import Address, ConnectParams
from .facade import Forward
from .goodbye import CLOSE_TIMEOUT
from .outbox import OutboxTransport, SessionCore
from .replies import Reply
from .steps import FLUSH, Op, await_each, awaiting_run
from .transport import (
    connect_failed,
    login_timed_out,
    receive_failed,
    send_failed,
    tls_context,
    tune,
)

if TYPE_CHECKING:
    import ssl

__all__ = ["CANCEL_DRAIN", "READ_SIZE", "AsyncSession", "open_session", "ping"]

_T = TypeVar("_T")
_S = TypeVar("_S", bound="AsyncSession")

#: Bytes asked of the stream per read (the sync transport's buffer takes them in place).
READ_SIZE = 256 * 1024
#: After a task is cancelled mid-request: how long the replies may take to arrive once the
#: server was told to cancel, before the connection is given up instead.
CANCEL_DRAIN = 2.0


class AsyncSession:
    """The streams, lock, session core and awaiting loops of an asyncio connection."""

    def __init__(
        self,
        core: SessionCore,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        transport: OutboxTransport,
    ) -> None:
        self._core = core
        self._reader = reader
        self._writer = writer
        self._transport = transport
        self._lock = asyncio.Lock()
        #: The event loop this connection's streams belong to (where its I/O must run).
        self.loop = asyncio.get_running_loop()
        self._read_timeout = core.params.read_timeout
        self._timer: asyncio.TimerHandle | None = None  # the statement timeout's

    closed = Forward[bool]("closed")
    #: True once the wire failed or an exchange was cancelled; only close() remains.
    broken = Forward[bool]("broken")
    encoding = Forward[str]("encoding")

    async def close(self) -> None:
        """``Connection.close``: the same goodbye, its waits awaited (CLOSE_TIMEOUT s), then
        the stream closed."""
        core = self._core
        if core.closed:
            return
        try:
            if core.begin_close(not self._lock.locked()):
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(self._drive(core.goodbye_steps()), CLOSE_TIMEOUT)
        finally:
            self._transport.close()
            core.end_close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._writer.wait_closed(), CLOSE_TIMEOUT)

    # ------------------------------------------------------------------ wire

    async def _flush(self) -> None:
        """Write what the core queued in the outbox."""
        outbox = self._transport.outbox
        if not outbox:
            return
        data = b"".join(outbox)  # (inline: one call fewer per request)
        outbox.clear()
        try:
            self._writer.write(data)
            await self._writer.drain()
        except (OSError, RuntimeError) as exc:
            raise self._broken_by(send_failed(exc)) from None

    async def _receive(self, view: memoryview) -> int:
        """Wait for the next bytes from the stream and copy them into ``view``."""
        try:
            if self._read_timeout is None:
                data = await self._reader.read(len(view))
            else:
                data = await asyncio.wait_for(self._reader.read(len(view)), self._read_timeout)
        except (asyncio.TimeoutError, OSError) as exc:  # (the former is the latter from 3.11)
            timed_out = isinstance(exc, asyncio.TimeoutError)
            raise self._broken_by(receive_failed(
                self._writer.get_extra_info("socket"), None if timed_out else exc,
                timed_out)) from None
        n = len(data)
        if not n:
            raise self._broken_by(receive_failed(None, None))
        view[:n] = data
        return n

    def _broken_by(self, err: _e.OperationalError) -> _e.OperationalError:
        self._core.break_session(err)
        return err

    async def _drive(self, steps: Generator[Any, Any, _T]) -> _T:
        """Run steps (client/steps.py) to their result, awaiting where
        ``Connection._read`` blocks; what they queued to send is written before each wait."""
        t = self._transport
        core = self._core
        try:
            step = steps.send(None)
            while True:
                try:
                    if t.outbox:
                        await self._flush()
                    if core.stream_out is not None:
                        await self._send_stream()
                    if step.__class__ is int:
                        view = t.room(step)  # (moves ``end``: read it only afterwards)
                        t.end += await self._receive(view)
                        got: Any = 0
                    elif step.__class__ is memoryview:
                        got = await self._receive(step)
                    elif step is FLUSH:
                        got = None  # (the outbox was written above)
                    else:
                        got = await step
                except BaseException as exc:
                    # Into the steps (a cancellation too), so that their clean-up runs.
                    step = steps.throw(exc)
                else:
                    step = steps.send(got)
        except StopIteration as stop:
            if t.outbox:
                await self._flush()
            result: _T = stop.value
            return result

    def cancel(self) -> None:
        """``Connection.cancel`` (on the stream's socket; any thread): -213 for the awaiter."""
        self._core.cancel()

    def interrupt(self) -> bool:
        """``Connection.interrupt`` (a change stream's reads in flight)."""
        return self._core.interrupt()

    def _timed_out(self, timeout: float, resends: list[int]) -> None:
        """The statement timer: ``statement_timed_out`` (the sync timer's rule), re-armed."""
        again = self._core.statement_timed_out(timeout, resends)
        if again is not None:
            self._timer = self.loop.call_later(again, self._timed_out, timeout, resends)

    async def _send_stream(self) -> None:
        """The core's ``stream_out`` (FILETOBLOB(..., 'client')), one message at a time."""
        core = self._core
        messages, core.stream_out = core.stream_out, None
        if messages is None:
            return
        for message in messages:
            self._transport.outbox.append(message)
            await self._flush()

    async def _exchange(
        self,
        groups: Sequence[tuple[bytes, Reply]],
        drain: bool = True,
    ) -> None:
        """``Connection._exchange`` awaited. A cancellation with replies pending cancels
        and drains them (``drain=False``: the pool's ping gives the connection up)."""
        core = self._core
        core.ensure_usable()
        if core.active_stream is not None:
            await self._drive(core.active_stream.drain_steps())
        deferred = core.begin_exchange([g for g, _ in groups])
        replies = [r for _, r in deferred]
        drained = False
        try:
            await self._flush()
            timeout = core.exchange_begun()
            if timeout is not None:
                self._timer = self.loop.call_later(timeout, self._timed_out, timeout, [0])
            try:
                await self._read_all(replies, groups)
            except asyncio.CancelledError:
                if drain and not core.broken:
                    drained = await self._drain_cancelled(replies, groups)
                raise
            core.end_exchange(deferred)
        except BaseException as exc:
            if not drained:
                core.exchange_interrupted(exc)
            raise
        finally:
            core.exchange_ended()
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None

    async def _read_all(
        self, replies: list[Reply], groups: Sequence[tuple[bytes, Reply]]
    ) -> None:
        """Every reply not complete yet, in order (resumable)."""
        for r in (*replies, *(reply for _, reply in groups)):
            if not r.complete:
                await self._drive(self._core.read_steps(r))

    async def _drain_cancelled(
        self, replies: list[Reply], groups: Sequence[tuple[bytes, Reply]]
    ) -> bool:
        """Cancel on the server and read the rest within CANCEL_DRAIN; False: broken."""
        self.cancel()
        try:
            await asyncio.wait_for(self._read_all(replies, groups), CANCEL_DRAIN)
        except BaseException:  # timed out, cancelled again, or the wire failed
            if not self._core.broken:
                self._core.break_session(
                    _e.connection_lost("a cancelled request's reply did not arrive in time")
                )
            return False
        return True

    if TYPE_CHECKING:
        async def _run(self, op: Op[_T], hooks: object = None) -> _T: ...
    else:
        _run = awaiting_run("""``Connection._run`` awaited: the awaiting build of the same
        loop (``steps._LOOP``), this session's I/O being ``_exchange`` and ``_drive``; a
        cursor operation's hook is ``hooks``' coroutine. ``run(..., drain=False)`` runs
        ``await_each`` with ``_exchange_undrained`` instead.""")

    async def _exchange_undrained(self, groups: Sequence[tuple[bytes, Reply]]) -> None:
        """``_exchange`` with ``drain=False`` (the pool's ping)."""
        await self._exchange(groups, False)

    @property
    def session(self) -> Connection:
        """The sync session core this connection drives (its session API)."""
        return self._core

    async def _do(self, op: Op[_T]) -> _T:
        """``op`` under the lock (``awaiting_method``'s runner)."""
        async with self._lock:
            return await self._run(op)

    async def drive(self, steps: Generator[Any, Any, _T]) -> _T:
        """``_drive`` under the lock."""
        async with self._lock:
            return await self._drive(steps)

    async def run(self, make: Callable[[Connection], Op[_T]], drain: bool = True) -> _T:
        """``fastpath.run`` awaited: ``make(session)`` under the lock (``drain``: as
        ``_exchange``)."""
        async with self._lock:
            if drain:
                return await self._run(make(self._core))
            return await await_each(make(self._core), None, self._exchange_undrained,
                                    self._drive)

    async def run_cursor_op(self, op: Op[_T], cursor: object, timeout: float | None) -> _T:
        """The asyncio cursors' request frame: the lock, the cursor's ``timeout``, a usable
        connection; ``cursor``'s coroutines answer the hooks."""
        async with self._lock, timeout_scope(self._core, timeout):
            self._core.ensure_usable()
            return await self._run(op, cursor)


async def open_session(make: type[_S], params: ConnectParams, addr: Address) -> _S:
    """A stream to ``addr`` and the login over it, together within ``connect_timeout`` (as
    ``transport.open_transport`` and the sync login), as a ``make`` (``AsyncConnection``);
    the asyncio connect's step (``aio.connection.connect_to``) asks the release after."""
    reader, writer, left = await _open_stream(params, addr)
    transport = OutboxTransport(writer.close, writer.get_extra_info("socket"))
    try:
        core = SessionCore(params, transport)
        session = make(core, reader, writer, transport)
        try:
            # (the login steps within what the TCP connect and TLS left of connect_timeout)
            await asyncio.wait_for(session.drive(core.login_steps()),
                                   None if left is None else max(left, 0.0))
        except asyncio.TimeoutError:
            raise _e.OperationalError(login_timed_out(f"{addr.host}:{addr.port}",
                                                      params.connect_timeout),
                                      sqlstate="08001") from None
    except BaseException:
        transport.close()
        raise
    core.server_name, core.address = params.server, (addr.host, addr.port)
    return session


async def ping(session: AsyncSession, timeout: float) -> bool:
    """One SQ_VERSION round trip (``Connection.ping_op``) within ``timeout``: the asyncio
    pool's health check (client/pool.py ``ping`` is the sync one). False (and the session
    broken) if it fails or takes longer: no cancel is sent and nothing is drained, a
    connection that does not answer a ping is given up at once."""
    try:
        return await asyncio.wait_for(session.run(lambda core: core.ping_op(), drain=False),
                                      timeout)
    except (_e.Error, asyncio.TimeoutError):
        return False


async def _open_stream(
    params: ConnectParams, addr: Address
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter, float | None]:
    """A stream to ``addr``, with the time left of its ``connect_timeout`` for the login
    (None without a timeout)."""
    loop = asyncio.get_running_loop()
    started = loop.time()
    tls = params.tls or addr.tls
    ctx: ssl.SSLContext | None = tls_context(tls) if tls else None
    where = f"{addr.host}:{addr.port}"
    try:
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection(
                addr.host,
                addr.port,
                ssl=ctx,
                server_hostname=(params.tls_server_hostname or addr.host) if ctx else None,
                limit=READ_SIZE,
            ),
            params.connect_timeout,
        )
    except (OSError, asyncio.TimeoutError) as exc:
        if isinstance(exc, asyncio.TimeoutError):
            exc = TimeoutError()  # (the same class from Python 3.11 on)
        raise connect_failed(where, exc, params.connect_timeout) from None
    sock = writer.get_extra_info("socket")
    if sock is not None:
        with contextlib.suppress(OSError):
            tune(sock, params.keepalive)
    timeout = params.connect_timeout
    left = None if timeout is None else timeout - (loop.time() - started)
    return reader, writer, left
