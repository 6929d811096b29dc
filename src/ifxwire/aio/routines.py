"""OUT and INOUT parameters for the asyncio cursor: ``client/routines.py``'s groups and reply
handling, sent and read with awaits (the same bytes, the same cache on the core connection)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..client import fastpath as _fp
from ..client import routines as _r
from ..client.cancel import timeout_scope
from ..errors import DatabaseError

if TYPE_CHECKING:
    from ..client.cursor import Cursor
    from .connection import AsyncConnection


async def routine(aconn: AsyncConnection, procname: str, nargs: int) -> _r.OutRoutine:
    core = aconn._core
    key = _r.cache_key(core, procname, nargs)
    found = core._out_routines.get(key)
    if found is not None:
        return found
    group = _r.prepare_group(core, procname, nargs)
    await aconn._exchange([group])
    database, handle = _r.handle_from_prepare(core, procname, group[1])
    groups = _r.describe_groups(core, database, handle)
    await aconn._exchange(groups)
    found = _r.described(core, procname, groups)
    core._out_routines[key] = found
    return found


async def call(aconn: AsyncConnection, procname: str, values: Sequence[object]
               ) -> tuple[_r.OutRoutine, list[object], list[Any]]:
    """``client/routines.call``: a stale cached handle (-674) is described again once."""
    core = aconn._core
    key = _r.cache_key(core, procname, len(values))
    cached = key in core._out_routines
    try:
        return await _call_once(aconn, procname, values)
    except DatabaseError as exc:
        if exc.sqlcode is None:  # refused before anything was sent (wrong marks)
            raise
        core._out_routines.pop(key, None)
        if not (cached and exc.sqlcode == _r.NO_ROUTINE):
            raise
    return await _call_once(aconn, procname, values)


async def _call_once(aconn: AsyncConnection, procname: str, values: Sequence[object]
                     ) -> tuple[_r.OutRoutine, list[object], list[Any]]:
    core = aconn._core
    found = await routine(aconn, procname, len(values))
    groups = [_r.call_group(core, found, values)]
    reply = groups[0][1]
    begin = _fp.transaction_groups(core, groups)
    commit = _fp.commit_group(core, groups)
    await aconn._exchange(groups)
    _fp.after_transaction(core, begin, commit)
    return (found, *_r.outputs(core, found, values, reply))


async def callproc(aconn: AsyncConnection, cur: Cursor, procname: str,
                   values: Sequence[object]) -> list[object]:
    """``AsyncCursor.callproc`` with OUT/INOUT markers (``client/routines.callproc``)."""
    core = aconn._core
    async with aconn._lock, timeout_scope(core, cur.statement_timeout):
        core._check()
        cur._reset()
        found, params, returns = await call(aconn, procname, values)
        _r.set_returns(cur, found, returns)
    return params
