"""ifxwire.cdc's read ahead against the real embedded server: a full read of the capture
session sends the next read before its events are handed out (docs/CDC.md "Reading ahead"),
so the server renders the next records while the consumer decodes these. What must hold:
every event once and in order, a close (or another request on the connection) with a read
in flight reads it first, and a short read asks for nothing ahead."""

from __future__ import annotations

import asyncio
import itertools
import time
from typing import Any

import pytest
from _cdc_support import create_logged_databases

import ifxwire
import ifxwire.aio
import ifxwire.aio.cdc as acdc
from ifxwire import cdc
from ifxwire.cdc import EventKind as K

DB = "cdcahead"
_names = itertools.count(1)


@pytest.fixture(scope="module", autouse=True)
def _databases(connect_kwargs: dict[str, Any]) -> None:
    create_logged_databases(connect_kwargs, "syscdcv1", DB)


def _table(kw: dict[str, Any], rows: int) -> str:
    """A fresh captured table of ``rows`` autocommit INSERTs (ids 0..rows-1); its name."""
    table = f"t{next(_names)}_{time.monotonic_ns() % 10**9}"
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


def _check_whole(events: list[cdc.Event], rows: int) -> None:
    assert _ids(events) == list(range(rows))
    seqs = [e.sequence for e in events if e.kind is not K.TABLE_SCHEMA]
    assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)
    assert [e.kind for e in events].count(K.COMMIT) == rows


@pytest.fixture()
def depth2(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two reads in flight (``cdc.READ_DEPTH``, the default, docs/CDC.md)."""
    monkeypatch.setattr(cdc, "READ_DEPTH", 2)


@pytest.fixture(params=[1, 2], ids=["depth1", "depth2"])
def depth(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> int:
    """Each READ_DEPTH the stream supports."""
    monkeypatch.setattr(cdc, "READ_DEPTH", request.param)
    return int(request.param)


@pytest.fixture()
def reader(connect_kwargs: dict[str, Any]) -> Any:
    c = ifxwire.connect(**connect_kwargs, database="syscdcv1", autocommit=True)
    yield c
    c.close()


def test_a_full_read_sends_the_next_before_its_events(connect_kwargs: dict[str, Any],
                                                     reader: ifxwire.Connection) -> None:
    table = _table(connect_kwargs, 30)
    events: list[cdc.Event] = []
    with cdc.open_stream(reader, tables=[table], from_sequence=1, timeout=1,
                         max_records=4) as st:
        for ev in st:
            if len(events) == 1:
                # The first read brought the TABSCHEMA record alone (all that was queued at
                # activation); the second one 4 records (BEGIN, INSERT, COMMIT, BEGIN), as
                # many as max_records: the next read is on the wire while its first event is
                # handed out.
                assert ev.kind is K.BEGIN
                assert reader.active_stream is st
            if ev.kind is K.TIMEOUT:
                break
            events.append(ev)
        # The read that found nothing more was short (its TIMEOUT): nothing is in flight.
        assert reader.active_stream is None
    assert events[0].kind is K.TABLE_SCHEMA
    _check_whole(events[1:], 30)


def test_a_short_read_asks_for_nothing_ahead(connect_kwargs: dict[str, Any],
                                             reader: ifxwire.Connection) -> None:
    table = _table(connect_kwargs, 2)
    with cdc.open_stream(reader, tables=[table], from_sequence=1, timeout=5) as st:
        got = []
        for ev in st:  # one read of 7 records, fewer than max_records (64)
            got.append(ev)
            assert reader.active_stream is None
            if len(got) == 7:
                break
        started = time.monotonic()
    # No read was waiting for new changes on the server (it would hold the close up to the
    # session's timeout, 5 s).
    assert time.monotonic() - started < 2.5
    _check_whole(got[1:], 2)


def test_leaving_with_a_read_in_flight_closes_and_resumes(connect_kwargs: dict[str, Any],
                                                          reader: ifxwire.Connection) -> None:
    table = _table(connect_kwargs, 40)
    seen: list[cdc.Event] = []
    saved = 0
    with cdc.open_stream(reader, tables=[table], from_sequence=1, timeout=5,
                         max_records=4) as st:
        for ev in st:
            seen.append(ev)
            if ev.kind is K.COMMIT:
                saved = ev.sequence
                if len(_ids(seen)) == 5:
                    assert reader.active_stream is st  # a read is in flight
                    break
        started = time.monotonic()
    assert time.monotonic() - started < 2.5  # its answer was there: records were queued
    assert reader.active_stream is None
    # The connection is in step (the read's reply was read before cdc_endcapture) ...
    cur = reader.cursor()
    cur.execute("SELECT errname FROM syscdcerrcodes WHERE errcode = 0")
    assert cur.fetchone() is not None
    # ... the session was closed, and a new one resumes after the saved COMMIT.
    rest: list[cdc.Event] = []
    with cdc.open_stream(reader, tables=[table], from_sequence=saved, timeout=1,
                         max_records=4) as st:
        for ev in st:
            if ev.kind is K.TIMEOUT:
                break
            rest.append(ev)
    assert _ids(seen) + _ids(rest) == list(range(40))


def test_another_request_mid_stream_keeps_the_read_ahead(connect_kwargs: dict[str, Any],
                                                         reader: ifxwire.Connection) -> None:
    table = _table(connect_kwargs, 25)
    events: list[cdc.Event] = []
    asked = 0
    with cdc.open_stream(reader, tables=[table], from_sequence=1, timeout=1,
                         max_records=4) as st:
        for ev in st:
            if ev.kind is K.TIMEOUT:
                break
            events.append(ev)
            if len(events) % 7 == 0 and reader.active_stream is st:
                # The read in flight is answered first; its records are kept for the stream.
                cur = reader.cursor()
                cur.execute("SELECT COUNT(*) FROM syscdcerrcodes")
                assert cur.fetchone()[0] > 0
                assert reader.active_stream is None
                asked += 1
    _check_whole(events[1:], 25)
    assert asked > 0  # a request was made with a read in flight


def test_asyncio_stream_reads_ahead(connect_kwargs: dict[str, Any]) -> None:
    table = _table(connect_kwargs, 30)

    async def main() -> tuple[list[cdc.Event], bool, list[cdc.Event]]:
        conn = await ifxwire.aio.connect(**connect_kwargs, database="syscdcv1",
                                         autocommit=True)
        try:
            events: list[cdc.Event] = []
            ahead = False
            saved = 0
            st = await acdc.open_stream(conn, tables=[table], from_sequence=1, timeout=5,
                                        max_records=4)
            async with st:
                async for ev in st:
                    ahead = ahead or conn._core.active_stream is st
                    events.append(ev)
                    if ev.kind is K.COMMIT:
                        saved = ev.sequence
                        if len(_ids(events)) == 10:
                            break  # with a read in flight: the close reads it first
            rest: list[cdc.Event] = []
            st = await acdc.open_stream(conn, tables=[table], from_sequence=saved, timeout=1,
                                        max_records=4)
            async with st:
                async for ev in st:
                    if ev.kind is K.TIMEOUT:
                        break
                    rest.append(ev)
            return events, ahead, rest
        finally:
            await conn.close()

    events, ahead, rest = asyncio.run(main())
    assert ahead
    assert _ids(events) + _ids(rest) == list(range(30))


# ---- two reads in flight, and a close that does not wait for them -----------------------
# A read that finds nothing queued waits on the server up to the session's timeout (30 s
# here). The close cancels it (docs/CDC.md "Reading ahead"): each close below must take a
# small part of that, with one read in flight or two (``depth``).
LONG = 30
PROMPT = 5.0


def _rest(kw: dict[str, Any], table: str, saved: int) -> list[cdc.Event]:
    """The events (but the schema's) a new stream from ``saved`` brings until it times out,
    on a new connection."""
    out: list[cdc.Event] = []
    conn = ifxwire.connect(**kw, database="syscdcv1", autocommit=True)
    try:
        with cdc.open_stream(conn, tables=[table], from_sequence=saved, timeout=1,
                             max_records=4) as st:
            for ev in st:
                if ev.kind is K.TIMEOUT:
                    break
                if ev.kind is not K.TABLE_SCHEMA:
                    out.append(ev)
    finally:
        conn.close()
    return out


def test_a_full_read_keeps_two_reads_in_flight(connect_kwargs: dict[str, Any],
                                               reader: ifxwire.Connection,
                                               depth2: None) -> None:
    table = _table(connect_kwargs, 40)
    events: list[cdc.Event] = []
    most = 0
    with cdc.open_stream(reader, tables=[table], from_sequence=1, timeout=1,
                         max_records=4) as st:
        for ev in st:
            most = max(most, st.in_flight)
            if ev.kind is K.TIMEOUT:
                break
            events.append(ev)
    assert most == 2
    _check_whole(events[1:], 40)


def test_close_with_reads_waiting_on_the_server_is_prompt(connect_kwargs: dict[str, Any],
                                                         reader: ifxwire.Connection,
                                                         depth: int) -> None:
    # 91 records (TABSCHEMA, then BEGIN, INSERT, COMMIT per row) in reads of 3: the schema
    # alone, then 30 full reads; the last full one sends reads that find nothing queued.
    table = _table(connect_kwargs, 30)
    events: list[cdc.Event] = []
    with cdc.open_stream(reader, tables=[table], from_sequence=1, timeout=LONG,
                         max_records=3) as st:
        for ev in st:
            events.append(ev)
            if _ids(events)[-1:] == [29] and ev.kind is K.COMMIT:
                assert st.in_flight > 0  # sent after the last full read, waiting
                break
        started = time.monotonic()
    assert time.monotonic() - started < PROMPT
    assert reader.active_stream is None
    cur = reader.cursor()  # the connection is in step
    cur.execute("SELECT COUNT(*) FROM syscdcerrcodes")
    assert cur.fetchone()[0] > 0
    _check_whole(events[1:], 30)
    saved = events[-1].sequence
    assert _rest(connect_kwargs, table, saved) == []  # nothing more, nothing again


def test_an_error_with_reads_in_flight_closes_promptly_and_resumes(
        connect_kwargs: dict[str, Any], reader: ifxwire.Connection, depth: int) -> None:
    table = _table(connect_kwargs, 40)
    seen: list[cdc.Event] = []
    saved = 0
    started = 0.0
    with pytest.raises(ValueError, match="consumer failed"), cdc.open_stream(
            reader, tables=[table], from_sequence=1, timeout=LONG, max_records=5) as st:
        for ev in st:
            seen.append(ev)
            if ev.kind is K.COMMIT:
                saved = ev.sequence
                if len(_ids(seen)) == 12:
                    assert st.in_flight > 0
                    started = time.monotonic()
                    raise ValueError("consumer failed")
    assert time.monotonic() - started < PROMPT
    assert reader.active_stream is None
    assert _ids(seen) + _ids(_rest(connect_kwargs, table, saved)) == list(range(40))


def test_ctrl_c_while_a_read_waits_closes_promptly(connect_kwargs: dict[str, Any],
                                                    reader: ifxwire.Connection,
                                                    depth: int, sigint_raises: None) -> None:
    import signal
    import threading

    table = _table(connect_kwargs, 9)
    seen: list[cdc.Event] = []
    started = 0.0

    main = threading.main_thread().ident
    assert main is not None

    def interrupt() -> None:
        nonlocal started
        started = time.monotonic()
        # To the main thread, as a terminal's Ctrl-C reaches an interactive program: a
        # process-directed signal may be taken by another thread (the in-process server's),
        # and the main thread's recv would then not be interrupted until its read returns.
        signal.pthread_kill(main, signal.SIGINT)

    timer = threading.Timer(0, interrupt)
    # A bound, so that a stream that never reaches the last COMMIT (or a Ctrl-C that never
    # lands) fails with what was seen instead of waiting on TIMEOUT events for ever (a
    # fresh-clone run of the twentieth session's merge stood in this loop for minutes).
    deadline = time.monotonic() + 3 * LONG
    with pytest.raises(KeyboardInterrupt), cdc.open_stream(
            reader, tables=[table], from_sequence=1, timeout=LONG, max_records=3) as st:
        for ev in st:
            seen.append(ev)
            if time.monotonic() > deadline:
                pytest.fail(f"no Ctrl-C after {3 * LONG} s (sent: {bool(started)}); events: "
                            f"{[(e.kind.name, e.sequence, e.row) for e in seen]}")
            if _ids(seen)[-1:] == [8] and ev.kind is K.COMMIT:
                # every record read: the stream now waits on reads the server holds for new
                # changes; Ctrl-C arrives while it does
                assert st.in_flight > 0
                timer = threading.Timer(0.5, interrupt)
                timer.start()
    timer.join()
    assert started and time.monotonic() - started < PROMPT
    assert reader.active_stream is None
    cur = reader.cursor()
    cur.execute("SELECT COUNT(*) FROM syscdcerrcodes")
    assert cur.fetchone()[0] > 0
    _check_whole(seen[1:], 9)
    assert _rest(connect_kwargs, table, seen[-1].sequence) == []


def test_asyncio_close_and_cancel_with_reads_in_flight_are_prompt(
        connect_kwargs: dict[str, Any], depth: int) -> None:
    table = _table(connect_kwargs, 30)

    async def main() -> tuple[list[cdc.Event], float, float, int]:
        conn = await ifxwire.aio.connect(**connect_kwargs, database="syscdcv1",
                                         autocommit=True)
        try:
            seen: list[cdc.Event] = []
            saved = 0
            # a break with reads in flight (records queued behind them)
            st = await acdc.open_stream(conn, tables=[table], from_sequence=1,
                                        timeout=LONG, max_records=3)
            async with st:
                async for ev in st:
                    seen.append(ev)
                    if ev.kind is K.COMMIT:
                        saved = ev.sequence
                        if len(_ids(seen)) == 10:
                            assert st.in_flight > 0
                            break
                t0 = time.monotonic()
            closed = time.monotonic() - t0
            # a task cancelled while the stream waits on reads the server holds
            reached = asyncio.Event()

            async def consume() -> None:
                nonlocal saved
                s2 = await acdc.open_stream(conn, tables=[table], from_sequence=saved,
                                            timeout=LONG, max_records=3)
                async with s2:
                    async for ev in s2:
                        seen.append(ev)
                        if ev.kind is K.COMMIT:
                            saved = ev.sequence
                            if _ids(seen)[-1] == 29:
                                assert s2.in_flight > 0
                                reached.set()

            task = asyncio.create_task(consume())
            await asyncio.wait_for(reached.wait(), 20)
            await asyncio.sleep(0.3)
            t0 = time.monotonic()
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            cancelled = time.monotonic() - t0
            cur = conn.cursor()  # in step
            await cur.execute("SELECT COUNT(*) FROM syscdcerrcodes")
            count = (await cur.fetchone())[0]
            return seen, closed, cancelled, count
        finally:
            await conn.close()

    seen, closed, cancelled, count = asyncio.run(main())
    assert closed < PROMPT and cancelled < PROMPT
    assert count > 0
    assert _ids(seen) == list(range(30))
    assert _rest(connect_kwargs, table, seen[-1].sequence) == []


def test_records_behind_a_waiting_read_come_at_once(connect_kwargs: dict[str, Any],
                                                    reader: ifxwire.Connection,
                                                    depth2: None) -> None:
    # 7 records in reads of 4: the schema alone, then a full read, after which two reads go
    # out in one write; the first brings the last 2 records, the second finds nothing and
    # waits. The server sends the first's reply before it starts the second (it used to send
    # the replies of groups received together when it next waited for the client: here after
    # the second read's 30 s timeout).
    table = _table(connect_kwargs, 2)
    events: list[cdc.Event] = []
    started = time.monotonic()
    with cdc.open_stream(reader, tables=[table], from_sequence=1, timeout=LONG,
                         max_records=4) as st:
        for ev in st:
            events.append(ev)
            if _ids(events)[-1:] == [1] and ev.kind is K.COMMIT:
                assert st.in_flight == 1  # the read that waits
                break
        assert time.monotonic() - started < PROMPT
    _check_whole(events[1:], 2)


def test_a_read_that_waits_forever_ends_when_its_client_goes(
        server: Any, connect_kwargs: dict[str, Any]) -> None:
    # timeout < 0: the read waits until a change comes. A client that goes away (killed, its
    # socket shut) has the server end the wait (the interrupt watcher's EPOLLRDHUP) and the
    # session with its capture session; it used to wait for the table's next change.
    import socket
    import threading

    from ifxwire.server.engine.features.cdc.hub import existing_hub

    table = _table(connect_kwargs, 1)
    conn = ifxwire.connect(**connect_kwargs, database="syscdcv1", autocommit=True)
    st = cdc.open_stream(conn, tables=[table], from_sequence=1, timeout=-1)
    hub = existing_hub(server.engine)
    assert hub is not None and st.session in hub.sessions
    got: list[cdc.Event] = []

    def consume() -> None:
        try:
            for ev in st:
                got.append(ev)
        except ifxwire.Error:
            pass  # the socket was shut under it

    reader_thread = threading.Thread(target=consume, daemon=True)
    reader_thread.start()
    deadline = time.monotonic() + 10
    while len(got) < 4 and time.monotonic() < deadline:  # schema, BEGIN, INSERT, COMMIT
        time.sleep(0.05)
    assert len(got) == 4
    time.sleep(0.3)  # the next read now waits on the server
    conn._transport.sock.shutdown(socket.SHUT_RDWR)
    deadline = time.monotonic() + PROMPT
    while st.session in hub.sessions and time.monotonic() < deadline:
        time.sleep(0.05)
    assert st.session not in hub.sessions
    reader_thread.join(PROMPT)
    conn.close()
