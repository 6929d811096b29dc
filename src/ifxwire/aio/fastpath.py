"""Fast-path calls and SQ_LODATA for the asyncio driver: ``client/fastpath.py``'s groups and
reply handling, sent and read with awaits.

Every function here has a twin in ``client/fastpath.py`` that builds the same bytes. Those
ending in ``_held`` expect the caller to hold the connection's lock (a cursor fetching rows
materialises LOBs while it holds it); the others take it.

Interruption: a server error is raised after every reply was read (the wire stays in step);
anything else that stops an exchange part way (cancellation included) breaks the connection,
as ``AsyncConnection._exchange`` does.
"""

from __future__ import annotations

import inspect
from collections.abc import AsyncIterable, AsyncIterator, Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from .. import errors as _e
from ..client import fastpath as _fp
from ..client.fastpath import Group
from ..errors import Error

if TYPE_CHECKING:
    from .connection import AsyncConnection

Pieces = Iterable[bytes | bytearray | memoryview] | AsyncIterable[bytes | bytearray | memoryview]


async def call_held(aconn: AsyncConnection, signature: str, args: Sequence[object]) -> list[Any]:
    return await aconn._run(_fp.call_op(aconn._core, signature, args))


async def call(aconn: AsyncConnection, signature: str, args: Sequence[object]) -> list[Any]:
    """Run a routine by fast path; every return value, in order."""
    async with aconn._lock:
        return await call_held(aconn, signature, args)


async def read_into_held(
    aconn: AsyncConnection, fd: int, sink: bytearray | memoryview, n: int
) -> int:
    return await aconn._run(_fp.read_into_op(aconn._core, fd, sink, n))


async def read_into(aconn: AsyncConnection, fd: int, sink: bytearray | memoryview, n: int) -> int:
    """One SQ_LODATA read of up to ``n`` bytes into ``sink``; returns the bytes read."""
    async with aconn._lock:
        return await read_into_held(aconn, fd, sink, n)


async def read_pipelined_held(
    aconn: AsyncConnection,
    fd: int,
    sinks: Iterable[memoryview],
    on_data: Callable[[memoryview], object] | None = None,
    window: int = _fp.READ_WINDOW,
) -> int:
    """Async twin of ``client.fastpath.read_pipelined`` (``on_data`` may be a coroutine
    function, e.g. an async file's write)."""
    core = aconn._core
    core._check()
    plan = _fp.ReadPlan(sinks, window)
    if core._deferred:
        await aconn._exchange([])
    try:
        while True:
            sent = False
            while (group := plan.next_request(core, fd)) is not None:
                core._send(group[0])
                sent = True
            if sent:
                await aconn._flush()
            if not plan.pending:
                return plan.total
            reply, sink = plan.pending.popleft()
            await aconn._read(reply)
            data = plan.answered(core, reply, sink)
            if on_data is not None and len(data):
                result = on_data(data)
                if inspect.isawaitable(result):
                    await result
    except BaseException as exc:
        plan.ended = True
        if not isinstance(exc, Exception):  # cancelled: replies are pending
            if not core.broken:
                core._fail(_e.connection_lost("an SQ_LODATA read was cancelled"))
            raise
        for reply, _ in plan.pending:
            if core.broken:
                break
            await aconn._read(reply)
        raise


async def read_pipelined(
    aconn: AsyncConnection,
    fd: int,
    sinks: Iterable[memoryview],
    on_data: Callable[[memoryview], object] | None = None,
    window: int = _fp.READ_WINDOW,
) -> int:
    async with aconn._lock:
        return await read_pipelined_held(aconn, fd, sinks, on_data, window)


async def _pieces(pieces: Pieces) -> AsyncIterator[bytes | bytearray | memoryview]:
    if isinstance(pieces, AsyncIterable):
        async for piece in pieces:
            yield piece
    else:
        for piece in pieces:
            yield piece


async def write_pieces_held(aconn: AsyncConnection, fd: int, pieces: Pieces) -> int:
    """Async twin of ``client.fastpath.write_pieces``: pipelined SQ_LODATA writes,
    ``WRITE_WINDOW`` in flight, each piece sent as soon as it is taken from ``pieces``."""
    core = aconn._core
    core._check()
    total = 0
    begin: list[Group] = []
    started = _fp.transaction_groups(core, begin)
    if begin or core._deferred:
        await aconn._exchange(begin)
        _fp.after_transaction(core, started, None)
    pending: list[Group] = []
    source = _pieces(pieces).__aiter__()
    try:
        while True:
            try:
                piece = await source.__anext__()
            except StopAsyncIteration:
                break
            except Exception:
                # The source failed: answer what was sent (the wire stays in step), then
                # let its exception through.
                await _drain(aconn, pending, raise_errors=False)
                raise
            if not len(piece):
                continue
            group = _fp.lodata_write_group(core, fd, piece)
            core._send(group[0])
            await aconn._flush()
            pending.append(group)
            if len(pending) >= _fp.WRITE_WINDOW:
                total += await _drain(aconn, pending[:1])
                del pending[:1]
        total += await _drain(aconn, pending)
        commit: list[Group] = []
        if _fp.commit_group(core, commit) is not None:
            await aconn._exchange(commit)
            _fp.after_transaction(core, None, commit[0][1])
    except Error:
        raise
    except BaseException as exc:
        if not core.broken and not isinstance(exc, Exception):
            core._fail(_e.connection_lost(
                "an SQ_LODATA write was cancelled while its replies were pending"))
        raise
    return total


async def write_pieces(aconn: AsyncConnection, fd: int, pieces: Pieces) -> int:
    async with aconn._lock:
        return await write_pieces_held(aconn, fd, pieces)


async def _drain(aconn: AsyncConnection, groups: list[Group], raise_errors: bool = True) -> int:
    core = aconn._core
    done = 0
    first_error = None
    for _, reply in groups:
        await aconn._read(reply)
        if reply.error is not None:
            first_error = first_error or reply
            continue
        done += reply.lodata_size or 0
    if first_error is not None and raise_errors:
        _fp.check(core, first_error)
    return done
