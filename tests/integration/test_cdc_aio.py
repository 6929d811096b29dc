"""ifxwire.aio.cdc against the real embedded server: the asyncio twin of test_cdc.py's stream
(same statements, same decoder), with a writer committing while the stream waits."""

from __future__ import annotations

import asyncio
from typing import Any

from _cdc_support import create_logged_databases

import ifxwire
import ifxwire.aio
import ifxwire.aio.cdc as acdc
import ifxwire.cdc
from ifxwire.cdc import EventKind as K


def _setup(kw: dict[str, Any]) -> None:
    create_logged_databases(kw, "syscdcv1", "cdcaio")
    w = ifxwire.connect(**kw, database="cdcaio", autocommit=True)
    try:
        w.cursor().execute("CREATE TABLE t (id INTEGER, name VARCHAR(10))")
    except ifxwire.DatabaseError as e:
        if e.sqlcode != -310:  # made by the other test
            raise
    finally:
        w.close()


def test_async_stream_sees_commits_and_rollbacks(connect_kwargs: dict[str, Any]) -> None:
    _setup(connect_kwargs)

    async def main() -> tuple[list[tuple[K, object]], int]:
        reader = await ifxwire.aio.connect(**connect_kwargs, database="syscdcv1",
                                           autocommit=True)
        writer = await ifxwire.aio.connect(**connect_kwargs, database="cdcaio")
        seen: list[tuple[K, object]] = []
        try:
            async with await acdc.open_stream(reader, tables=["cdcaio:t"], timeout=1) as st:
                sid = st.session

                async def write() -> None:
                    await asyncio.sleep(0.2)
                    cur = writer.cursor()
                    await cur.execute("INSERT INTO t VALUES (1, 'a')")
                    await writer.commit()
                    await cur.execute("UPDATE t SET name = 'b' WHERE id = 1")
                    await writer.rollback()

                task = asyncio.create_task(write())
                async for ev in st:
                    if ev.kind is K.TIMEOUT:
                        break
                    seen.append((ev.kind, tuple(ev.row) if ev.row is not None else None))
                await task
            cur = reader.cursor()
            await cur.execute("EXECUTE FUNCTION informix.cdc_closesess(?)", (sid,))
            row = await cur.fetchone()
            return seen, int(row[0]) if row else 0
        finally:
            await reader.close()
            await writer.close()

    seen, closed = asyncio.run(main())
    assert seen == [(K.TABLE_SCHEMA, None),
                    (K.BEGIN, None), (K.INSERT, (1, "a")), (K.COMMIT, None),
                    (K.BEGIN, None), (K.UPDATE_BEFORE, (1, "a")), (K.UPDATE_AFTER, (1, "b")),
                    (K.ROLLBACK, None)]
    assert closed == -83708  # the stream closed its session on leaving ``async with``


def test_async_refusal_is_explained_and_ends_what_started(connect_kwargs: dict[str, Any]
                                                          ) -> None:
    """The failure path of the shared capture (``Capture.open_op``) awaited after a first
    table was started: the refusal is named from syscdcerrcodes, what started is ended in
    the same operation, and the connection goes on working."""
    _setup(connect_kwargs)

    async def main() -> tuple[ifxwire.cdc.StreamError, tuple[Any, ...] | None]:
        reader = await ifxwire.aio.connect(**connect_kwargs, database="syscdcv1",
                                           autocommit=True)
        try:
            try:
                await acdc.open_stream(reader, tables=["cdcaio:t", "cdcaio:informix.nosuch"])
            except acdc.StreamError as e:
                err = e
            else:
                raise AssertionError("no StreamError")
            cur = reader.cursor()
            await cur.execute("SELECT FIRST 1 1 FROM systables")
            return err, await cur.fetchone()
        finally:
            await reader.close()

    err, row = asyncio.run(main())
    assert (err.code, err.name) == (-83705, "CDC_E_NOTAB")
    assert "CDC_E_NOTAB" in str(err)
    assert row == (1,)
