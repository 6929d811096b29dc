"""``Connection.cancel()`` (and the asyncio connection's ``cancel()``) with a change stream open
on the connection, against the real embedded server (docs/CDC.md "Cancelling a stream").

The stream's reads of the capture session are not requests the connection tracks, so a
cancel used to do nothing: a read waiting on the server for new changes went on waiting up
to the session's timeout (30 s here), or for ever with a negative one. Now the stream ends
as a close ends it: its iteration raises ``StreamCancelled`` (an ``OperationalError`` with
sqlcode -213, what a cancelled statement raises), the capture is ended and the session
closed on the server, the connection is usable, and a stream opened again from the last
COMMIT's sequence brings exactly the rest.

Both drivers, by hand (the asyncio tests run a loop of their own; listed in
tests/integration/_aio_facade.py's docstring)."""

from __future__ import annotations

import asyncio
import itertools
import threading
import time
from typing import Any

import pytest
from _cdc_support import create_logged_databases

import ifxwire
import ifxwire.aio
import ifxwire.aio.cdc as acdc
from ifxwire import cdc
from ifxwire.cdc import EventKind as K
from ifxwire.cdc import StreamCancelled
from ifxwire.server.engine.features.cdc.hub import existing_hub

DB = "cdccancel"
LONG = 30  # the session's timeout: how long a read waits on the server for changes
PROMPT = 5.0  # a cancel must end the stream well within that
_names = itertools.count(1)


@pytest.fixture(scope="module", autouse=True)
def _databases(connect_kwargs: dict[str, Any]) -> None:
    create_logged_databases(connect_kwargs, "syscdcv1", DB)


@pytest.fixture(params=[1, 2], ids=["depth1", "depth2"])
def depth(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> int:
    monkeypatch.setattr(cdc, "READ_DEPTH", request.param)
    return int(request.param)


def _table(kw: dict[str, Any], rows: int) -> str:
    """A fresh captured table of ``rows`` autocommit INSERTs (ids 0..rows-1); its name."""
    table = f"c{next(_names)}_{time.monotonic_ns() % 10**9}"
    full = f"{DB}:informix.{table}"
    w = ifxwire.connect(**kw, database=DB, autocommit=True)
    m = ifxwire.connect(**kw, database="syscdcv1", autocommit=True)
    try:
        w.cursor().execute(f"CREATE TABLE {table} (id INTEGER, name VARCHAR(10))")
        m.cursor().execute(f"EXECUTE FUNCTION informix.cdc_set_fullrowlogging('{full}', 1)")
        w.cursor().executemany(f"INSERT INTO {table} VALUES (?, ?)",
                               [(i, f"n{i}") for i in range(rows)])
    finally:
        w.close()
        m.close()
    return full


def _ids(events: list[cdc.Event]) -> list[int]:
    return [int(e.row["id"]) for e in events if e.kind is K.INSERT and e.row is not None]


def _last_commit(events: list[cdc.Event]) -> int:
    return [e.sequence for e in events if e.kind is K.COMMIT][-1]


def _committed_ids(events: list[cdc.Event]) -> list[int]:
    """The ids of the transactions whose COMMIT was seen (what a consumer that saves the
    COMMIT's sequence has applied)."""
    out: list[int] = []
    held: list[int] = []
    for e in events:
        if e.kind is K.INSERT and e.row is not None:
            held.append(int(e.row["id"]))
        elif e.kind is K.COMMIT:
            out += held
            held = []
    return out


def _rest(kw: dict[str, Any], table: str, saved: int) -> list[int]:
    """The ids a new stream from ``saved`` brings until it times out (a new connection)."""
    out: list[cdc.Event] = []
    conn = ifxwire.connect(**kw, database="syscdcv1", autocommit=True)
    try:
        with cdc.open_stream(conn, tables=[table], from_sequence=saved, timeout=1,
                             max_records=4) as st:
            for ev in st:
                if ev.kind is K.TIMEOUT:
                    break
                out.append(ev)
    finally:
        conn.close()
    return _ids(out)


def _session_gone(server: Any, session: int) -> bool:
    hub = existing_hub(server.engine)
    return hub is None or session not in hub.sessions


@pytest.mark.parametrize("timeout", [LONG, -1], ids=["timeout30", "forever"])
def test_cancel_from_another_thread_ends_a_waiting_stream(
        server: Any, connect_kwargs: dict[str, Any], depth: int, timeout: int) -> None:
    table = _table(connect_kwargs, 9)
    conn = ifxwire.connect(**connect_kwargs, database="syscdcv1", autocommit=True)
    seen: list[cdc.Event] = []
    fired = 0.0

    def cancel() -> None:
        nonlocal fired
        fired = time.monotonic()
        conn.cancel()

    timer = threading.Timer(0, cancel)
    try:
        st = cdc.open_stream(conn, tables=[table], from_sequence=1, timeout=timeout,
                             max_records=3)
        # a guard for the code before this change, whose cancel did nothing: a read waiting
        # for ever is woken after LONG + 5 s (its TIMEOUT record ends the loop below)
        guard = threading.Timer(LONG + 5, conn.interrupt)
        guard.start()
        with pytest.raises(StreamCancelled) as info:
            for ev in st:
                if ev.kind is K.TIMEOUT:
                    break  # the session's timeout passed: the cancel did nothing
                seen.append(ev)
                if _ids(seen)[-1:] == [8] and ev.kind is K.COMMIT:
                    # every record read: the next read waits on the server for changes
                    timer = threading.Timer(0.5, cancel)
                    timer.start()
        guard.cancel()
        timer.join()
        ended = time.monotonic()
        assert fired and ended - fired < PROMPT
        err = info.value
        assert isinstance(err, ifxwire.OperationalError)
        assert err.sqlcode == -213 and err.sqlstate == "HY008"
        # ended as a close ends it: iteration is over, the capture session is closed on
        # the server, the connection is in step
        assert st.closed and list(st) == []
        assert _session_gone(server, st.session)
        assert conn.active_stream is None and conn.cancel_hooks == ()
        cur = conn.cursor()
        cur.execute("SELECT COUNT(*) FROM syscdcerrcodes")
        assert cur.fetchone()[0] > 0
        st.close()  # closing again is harmless
    finally:
        conn.close()
    assert _ids(seen) == list(range(9))
    assert _rest(connect_kwargs, table, _last_commit(seen)) == []


def test_cancel_while_the_consumer_works_ends_the_stream_at_its_next_wait(
        server: Any, connect_kwargs: dict[str, Any], depth: int) -> None:
    # The consumer itself cancels between two events (a signal handler, a watchdog on its
    # thread): no wait is under way, yet the stream ends at its next one instead of going
    # on; restarting from the last COMMIT brings exactly what was not applied.
    table = _table(connect_kwargs, 40)
    conn = ifxwire.connect(**connect_kwargs, database="syscdcv1", autocommit=True)
    seen: list[cdc.Event] = []
    after = 0
    try:
        st = cdc.open_stream(conn, tables=[table], from_sequence=1, timeout=LONG,
                             max_records=5)
        started = 0.0
        with pytest.raises(StreamCancelled):
            for ev in st:
                if ev.kind is K.TIMEOUT:
                    break  # the session's timeout passed: the cancel did nothing
                seen.append(ev)
                if started:
                    after += 1
                elif len(_ids(seen)) == 12:
                    started = time.monotonic()
                    conn.cancel()
        assert time.monotonic() - started < PROMPT
        assert after < 5  # at most the rest of the read already received
        assert _session_gone(server, st.session)
        cur = conn.cursor()
        cur.execute("SELECT COUNT(*) FROM syscdcerrcodes")
        assert cur.fetchone()[0] > 0
    finally:
        conn.close()
    applied = _committed_ids(seen)
    assert applied + _rest(connect_kwargs, table, _last_commit(seen)) == list(range(40))


def test_cancel_on_an_idle_connection_does_not_touch_a_later_stream(
        connect_kwargs: dict[str, Any]) -> None:
    # A cancel with nothing running and no stream open does nothing (PEP 249's cancel of a
    # finished statement); a stream opened afterwards runs normally, and a closed stream
    # is no longer hooked.
    table = _table(connect_kwargs, 3)
    conn = ifxwire.connect(**connect_kwargs, database="syscdcv1", autocommit=True)
    try:
        conn.cancel()
        with cdc.open_stream(conn, tables=[table], from_sequence=1, timeout=1) as st:
            assert conn.cancel_hooks == (st.on_cancel,)
            got = [ev for ev in itertools.takewhile(lambda e: e.kind is not K.TIMEOUT, st)]
        assert conn.cancel_hooks == ()
        conn.cancel()
        assert _ids(got) == [0, 1, 2]
    finally:
        conn.close()


def _aio_cancel_case(kw: dict[str, Any], table: str, rows: int,
                     how: str) -> tuple[list[cdc.Event], float, BaseException, int, int]:
    """An asyncio stream that has read everything and waits on the server; then the
    connection's ``cancel()`` from another task (``how="task"``) or thread. Returns the
    events, the seconds from the cancel to the stream's end, its error, the session id and
    a query's answer on the same connection afterwards."""

    async def main() -> tuple[list[cdc.Event], float, BaseException, int, int]:
        conn = await ifxwire.aio.connect(**kw, database="syscdcv1", autocommit=True)
        try:
            seen: list[cdc.Event] = []
            fired = 0.0
            reached = asyncio.Event()

            def cancel() -> None:
                nonlocal fired
                fired = time.monotonic()
                conn.cancel()

            async def consume(st: acdc.AsyncChangeStream) -> None:
                async for ev in st:
                    if ev.kind is K.TIMEOUT:
                        return  # the session's timeout passed: the cancel did nothing
                    seen.append(ev)
                    if _ids(seen)[-1:] == [rows - 1] and ev.kind is K.COMMIT:
                        reached.set()

            st = await acdc.open_stream(conn, tables=[table], from_sequence=1,
                                        timeout=LONG, max_records=3)
            task = asyncio.create_task(consume(st))
            await asyncio.wait_for(reached.wait(), 20)
            await asyncio.sleep(0.3)  # the stream now waits on the server
            if how == "task":
                cancel()
            else:
                threading.Timer(0, cancel).start()
            try:
                await asyncio.wait_for(task, LONG + 10)
            except BaseException as e:  # returned for the test to check
                err: BaseException = e
            else:
                err = AssertionError("the stream did not end")
            took = time.monotonic() - fired
            assert st.closed and st.cancelled
            cur = conn.cursor()  # in step
            await cur.execute("SELECT COUNT(*) FROM syscdcerrcodes")
            count = int((await cur.fetchone())[0])
            return seen, took, err, st.session, count
        finally:
            await conn.close()

    return asyncio.run(main())


@pytest.mark.parametrize("how", ["task", "thread"])
def test_asyncio_cancel_ends_a_waiting_stream(server: Any, connect_kwargs: dict[str, Any],
                                              depth: int, how: str) -> None:
    table = _table(connect_kwargs, 9)
    seen, took, err, session, count = _aio_cancel_case(connect_kwargs, table, 9, how)
    assert isinstance(err, StreamCancelled), repr(err)
    assert err.sqlcode == -213
    assert took < PROMPT
    assert count > 0
    assert _session_gone(server, session)
    assert _ids(seen) == list(range(9))
    assert _rest(connect_kwargs, table, _last_commit(seen)) == []
