"""Chunked capture (docs/CDC_SERVER.md "Chunked capture"), against the real embedded server over
sockets, with chunks of 5 changes: a transaction larger than several chunks spills them into
its database inside its open SQLite transaction, is logged by chunk and read a chunk at a time;
a statement's failure and ROLLBACK TO SAVEPOINT drop the chunks written after them (SQLite drops
them with the rows), ROLLBACK WORK still streams the whole transaction as RBTX, and a restart
from a sequence number inside or after a chunked transaction loses and repeats nothing. The
asyncio twin reads the same kind of transaction. (kill -9 mid-commit of a chunked transaction:
tests/integration/test_cdc_crash.py.)"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from _cdc_support import create_logged_databases

import ifxwire
import ifxwire.aio
import ifxwire.aio.cdc as acdc
from ifxwire import cdc
from ifxwire.cdc import EventKind as K
from ifxwire.server.engine.features.cdc import hub as hubmod

DB = "cdcchunk"
CHUNK = 5


@pytest.fixture(autouse=True)
def small_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hubmod, "CHUNK", CHUNK)


@pytest.fixture(scope="module")
def db(connect_kwargs: dict[str, Any]) -> str:
    create_logged_databases(connect_kwargs, "syscdcv1", DB)
    c = ifxwire.connect(**connect_kwargs, database=DB, autocommit=True)
    try:
        cur = c.cursor()
        for t in ("big", "sp", "fail", "rb", "seq", "aio"):
            cur.execute(f"CREATE TABLE {t} (id INTEGER, name VARCHAR(10))")
        cur.execute("CREATE TABLE src (id INTEGER)")
        cur.executemany("INSERT INTO src VALUES (?)", [(i,) for i in range(100, 112)])
        cur.execute("CREATE TABLE uq (id INTEGER PRIMARY KEY)")
        cur.execute("INSERT INTO uq VALUES (109)")  # the 10th row of src fails the trigger
        cur.execute("CREATE TRIGGER fail_row INSERT ON fail REFERENCING NEW AS n "
                    "FOR EACH ROW (INSERT INTO uq VALUES (n.id))")
    finally:
        c.close()
    return DB


@pytest.fixture()
def reader(connect_kwargs: dict[str, Any], db: str) -> Iterator[ifxwire.Connection]:
    c = ifxwire.connect(**connect_kwargs, database="syscdcv1", autocommit=True)
    try:
        yield c
    finally:
        c.close()


@pytest.fixture()
def writer(connect_kwargs: dict[str, Any], db: str) -> Iterator[ifxwire.Connection]:
    c = ifxwire.connect(**connect_kwargs, database=db)  # autocommit off
    try:
        yield c
    finally:
        c.close()


_SERVER: list[Any] = []


@pytest.fixture(autouse=True)
def the_server(server: Any) -> None:
    _SERVER[:] = [server]


def _hub() -> hubmod.Hub:
    """The hub of the tests' server (other modules' servers may have theirs)."""
    return hubmod.hub_of(_SERVER[0].engine)


def _events(st: cdc.ChangeStream, check_queue: bool = False) -> list[cdc.Event]:
    """Events until a TIMEOUT; with ``check_queue``, the server's rendered records never
    exceed a chunk's (plus BEGIN and the end record) while the consumer reads."""
    out = []
    for ev in st:
        if check_queue:
            for s in _hub().sessions.values():
                assert len(s.queue) <= CHUNK + 2
        if ev.kind is K.TIMEOUT:
            return out
        out.append(ev)
    return out


def _txns(events: list[cdc.Event]) -> list[tuple[bool, list[tuple[K, int, int]]]]:
    """(committed, [(kind, sequence, id)]) per transaction; checks that the sequence numbers
    are consecutive from BEGIN to COMMIT/ROLLBACK."""
    out: list[tuple[bool, list[tuple[K, int, int]]]] = []
    rows: list[tuple[K, int, int]] = []
    begin = 0
    for ev in events:
        if ev.kind is K.BEGIN:
            rows, begin = [], ev.sequence
        elif ev.kind in (K.COMMIT, K.ROLLBACK):
            assert ev.sequence == begin + len(rows) + 1
            assert [r[1] for r in rows] == list(range(begin + 1, begin + 1 + len(rows)))
            out.append((ev.kind is K.COMMIT, rows))
        elif ev.kind is not K.TABLE_SCHEMA:
            assert ev.row is not None
            rows.append((ev.kind, ev.sequence, ev.row["id"]))
    return out


def _chunks_logged(begin: int) -> int:
    return int(_hub().db.execute("SELECT COUNT(*) FROM txchunk WHERE begin_seq = ?",
                                 (begin,)).fetchone()[0])


def test_transaction_of_several_chunks_streams_whole_in_order(
        reader: ifxwire.Connection, writer: ifxwire.Connection, db: str) -> None:
    cur = writer.cursor()
    with cdc.open_stream(reader, tables=[f"{db}:big"], timeout=1, max_records=3) as st:
        cur.executemany("INSERT INTO big VALUES (?, ?)", [(i, f"n{i}") for i in range(23)])
        cur.execute("UPDATE big SET name = 'u' WHERE id < 12")  # one statement, 24 changes
        cur.execute("DELETE FROM big WHERE id >= 20")
        writer.commit()
        events = _events(st, check_queue=True)
    [(committed, rows)] = _txns(events)
    assert committed
    want = [(K.INSERT, i) for i in range(23)]
    for i in range(12):
        want += [(K.UPDATE_BEFORE, i), (K.UPDATE_AFTER, i)]
    want += [(K.DELETE, i) for i in range(20, 23)]
    assert [(k, i) for k, _, i in rows] == want
    begin = rows[0][1] - 1
    assert _chunks_logged(begin) >= (23 + 24 + 3) // CHUNK  # logged by chunk
    names = [ev.row["name"] for ev in events if ev.kind is K.UPDATE_AFTER and ev.row]
    assert names == ["u"] * 12


def test_rollback_to_savepoint_drops_the_chunks_written_after_it(
        reader: ifxwire.Connection, writer: ifxwire.Connection, db: str) -> None:
    cur = writer.cursor()
    with cdc.open_stream(reader, tables=[f"{db}:sp"], timeout=1) as st:
        cur.executemany("INSERT INTO sp VALUES (?, 'kept')", [(i,) for i in range(7)])
        cur.execute("SAVEPOINT a")
        cur.executemany("INSERT INTO sp VALUES (?, 'undone')", [(i,) for i in range(100, 112)])
        cur.execute("SAVEPOINT b")
        cur.execute("UPDATE sp SET name = 'undone'")  # 19 rows: 38 changes, several chunks
        cur.execute("ROLLBACK TO SAVEPOINT a")  # b and its chunks go with it
        cur.executemany("INSERT INTO sp VALUES (?, 'kept')", [(i,) for i in range(7, 10)])
        writer.commit()
        events = _events(st)
    cur.execute("SELECT COUNT(*) FROM sp WHERE name = 'kept'")
    assert cur.fetchone() == (10,)
    [(committed, rows)] = _txns(events)
    assert committed and [(k, i) for k, _, i in rows] == [(K.INSERT, i) for i in range(10)]
    assert _chunks_logged(rows[0][1] - 1) >= 2
    assert all(ev.row is None or ev.row["name"] == "kept" for ev in events)


def test_statement_failing_mid_chunk_drops_only_its_own_changes(
        reader: ifxwire.Connection, writer: ifxwire.Connection, db: str) -> None:
    cur = writer.cursor()
    with cdc.open_stream(reader, tables=[f"{db}:fail"], timeout=1) as st:
        cur.executemany("INSERT INTO fail VALUES (?, 'a')", [(i,) for i in range(4)])
        # 12 rows, each captured, then its trigger runs: the 10th fails (uq has 109), after
        # chunks of this statement's rows were spilled; the 4 earlier rows were in memory
        with pytest.raises(ifxwire.DatabaseError):
            cur.execute("INSERT INTO fail (id, name) SELECT id, 'x' FROM src")
        cur.executemany("INSERT INTO fail VALUES (?, 'b')", [(i,) for i in range(4, 12)])
        writer.commit()
        events = _events(st)
    [(committed, rows)] = _txns(events)
    assert committed and [i for _, _, i in rows] == list(range(12))
    assert _chunks_logged(rows[0][1] - 1) >= 1


def test_rollback_work_of_a_chunked_transaction_streams_it_as_rbtx(
        reader: ifxwire.Connection, writer: ifxwire.Connection, db: str) -> None:
    cur = writer.cursor()
    with cdc.open_stream(reader, tables=[f"{db}:rb"], timeout=1) as st:
        cur.executemany("INSERT INTO rb VALUES (?, 'r')", [(i,) for i in range(13)])
        writer.rollback()
        cur.execute("INSERT INTO rb VALUES (99, 'c')")
        writer.commit()
        events = _events(st)
    txns = _txns(events)
    assert [(c, [i for _, _, i in rows]) for c, rows in txns] == [
        (False, list(range(13))), (True, [99])]
    assert _chunks_logged(txns[0][1][0][1] - 1) >= 2


def test_restart_from_a_sequence_inside_or_after_a_chunked_transaction(
        reader: ifxwire.Connection, writer: ifxwire.Connection, db: str,
        connect_kwargs: dict[str, Any]) -> None:
    reader.cursor().execute(f"EXECUTE FUNCTION informix.cdc_set_fullrowlogging('{db}:seq', 1)")
    cur = writer.cursor()
    cur.execute("INSERT INTO seq VALUES (0, 's')")
    writer.commit()
    with cdc.open_stream(reader, tables=[f"{db}:seq"], timeout=1, from_sequence=1) as st:
        before = [ev for ev in _events(st) if ev.kind is K.COMMIT][-1].sequence
    cur.executemany("INSERT INTO seq VALUES (?, 's')", [(i,) for i in range(1, 18)])
    writer.commit()
    cur.execute("INSERT INTO seq VALUES (18, 's')")
    writer.commit()
    r2 = ifxwire.connect(**connect_kwargs, database="syscdcv1", autocommit=True)
    try:
        with cdc.open_stream(r2, tables=[f"{db}:seq"], timeout=1, from_sequence=before) as st:
            whole = _txns(_events(st))
        assert [[i for _, _, i in rows] for _, rows in whole] == [list(range(1, 18)), [18]]
        assert _chunks_logged(whole[0][1][0][1] - 1) >= 3
        inside = whole[0][1][8][1]  # the sequence of a change in the chunked transaction's middle
        after = whole[0][1][-1][1] + 1  # its COMMIT
        for start in (inside, after):
            with cdc.open_stream(r2, tables=[f"{db}:seq"], timeout=1,
                                 from_sequence=start) as st:
                assert [[i for _, _, i in rows] for _, rows in _txns(_events(st))] == [[18]]
    finally:
        r2.close()


def test_async_stream_reads_a_chunked_transaction(connect_kwargs: dict[str, Any],
                                                   db: str) -> None:
    async def main() -> list[cdc.Event]:
        reader = await ifxwire.aio.connect(**connect_kwargs, database="syscdcv1",
                                           autocommit=True)
        writer = await ifxwire.aio.connect(**connect_kwargs, database=db)
        out: list[cdc.Event] = []
        try:
            async with await acdc.open_stream(reader, tables=[f"{db}:aio"], timeout=1,
                                              max_records=2) as st:
                cur = writer.cursor()
                await cur.executemany("INSERT INTO aio VALUES (?, 'a')",
                                      [(i,) for i in range(8)])
                await cur.execute("SAVEPOINT s")
                await cur.executemany("INSERT INTO aio VALUES (?, 'z')",
                                      [(i,) for i in range(50, 61)])
                await cur.execute("ROLLBACK TO SAVEPOINT s")
                await cur.executemany("INSERT INTO aio VALUES (?, 'b')",
                                      [(i,) for i in range(8, 14)])
                await writer.commit()
                async for ev in st:
                    if ev.kind is K.TIMEOUT:
                        break
                    out.append(ev)
        finally:
            await writer.close()
            await reader.close()
        return out

    [(committed, rows)] = _txns(asyncio.run(main()))
    assert committed and [i for _, _, i in rows] == list(range(14))
