"""The asyncio session: the streams, the lock, the sync session core
(``client.outbox.SessionCore``) and the awaiting loops that drive the core's operations:
``_drive`` (steps), ``_exchange`` (request groups, with the cancellation drain and the
statement timer), ``_run`` (operations). What a cancellation does: docs/POOL_AND_ASYNC.md,
"Concurrency and cancellation"; how: docs/ARCHITECTURE.md, "Sync and async".
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Generator, Sequence
from typing import Any, TypeVar

from .. import errors as _e
from ..client.cancel import timeout_scope
from ..client.connection import Connection
from ..client.facade import Forward
from ..client.outbox import OutboxTransport, SessionCore
from ..client.replies import Reply
from ..client.steps import FLUSH, Op
from ..client.transport import receive_failed, send_failed

__all__ = ["CANCEL_DRAIN", "READ_SIZE", "AsyncSession"]

_T = TypeVar("_T")

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

    async def _run(self, op: Op[_T], hooks: object = None, drain: bool = True) -> _T:
        """``Connection._run`` awaited; a cursor operation's hook is ``hooks``' coroutine."""
        try:
            groups = next(op)
            while True:
                try:
                    if groups.__class__ is list:
                        await self._exchange(groups, drain)
                        got = None
                    elif groups.__class__ is tuple:
                        got = await getattr(hooks, groups[0])(*groups[1:])
                    else:
                        got = await self._drive(groups)
                except BaseException as exc:
                    groups = op.throw(exc)
                else:
                    groups = op.send(got)
        except StopIteration as stop:
            result: _T = stop.value
            return result

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
            return await self._run(make(self._core), drain=drain)

    async def run_cursor_op(self, op: Op[_T], cursor: object, timeout: float | None) -> _T:
        """The asyncio cursors' request frame: the lock, the cursor's ``timeout``, a usable
        connection; ``cursor``'s coroutines answer the hooks."""
        async with self._lock, timeout_scope(self._core, timeout):
            self._core.ensure_usable()
            return await self._run(op, cursor)
