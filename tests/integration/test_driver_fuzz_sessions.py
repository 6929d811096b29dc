"""Fuzzing the driver with mutated real replies, second corpus: what landed after issue 10.

test_driver_fuzz.py covers the login, every scalar type, BYTE/TEXT and the plain statement
replies. This scenario records, against the real embedded server, the replies of what came
later: smart LOBs (a BLOB/CLOB INSERT from bytes and from a file-like: CIDESCRIBE, the fast
path's SQ_GETROUTINE / SQ_EXFPROUTINE replies for ifx_lo_create/open/stat/close, SQ_LODATA
writes and reads), LOTOFILE and FILETOBLOB with 'client' (SQ_FILE write and read requests
from the server), ROW and collection values (nested descriptions, composite binds), a
scroll cursor (SFETCH replies with their row numbers), a hold cursor across a commit, and a
statement cancelled by statement_timeout (SQ_ERR -213). The same mutations and the same rules
as the first corpus (fuzzharness.py): only PEP 249 errors, bounded time, a tracemalloc peak
under ``MEMORY_BOUND``, no thread left behind, and a fresh connection works afterwards.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import io
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import fuzzharness as harness
import pytest
from fuzzreplay import Mutation, ReplayServer, Script, Session

import ifxwire
import ifxwire.aio as aio
from ifxwire import List, Row, Set
from ifxwire.protocol.codes import Msg

SYNC_CASES = 500
AIO_CASES = 250
CONNECT_TIMEOUT = 2.0
READ_TIMEOUT = 2.0
CASE_LIMIT = CONNECT_TIMEOUT + READ_TIMEOUT + 6.0
MEMORY_BOUND = 16 * 1024 * 1024
#: Four-way cross join of 1000 rows (hours of work, test_cancel.py), cancelled after
#: CANCEL_AFTER.
LONG_QUERY = "SELECT COUNT(*) FROM fs_n a, fs_n b, fs_n c, fs_n d"
CANCEL_AFTER = 0.3
BLOB_DATA = bytes(range(256)) * 40 + b"tail"
CLOB_TEXT = "clob çé " * 300
COMPOSITE = (
    Row((7, Set({dt.date(2024, 1, 1), dt.date(1999, 12, 31)})), ("x", "y")),
    List(["a", "bb", "ccc"]),
)

OPTIONS = {"connect_timeout": CONNECT_TIMEOUT, "read_timeout": READ_TIMEOUT,
           "fetch_buffer_size": 1024}


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The client files the scenario names (the replayed SQ_FILE requests name them too)."""
    d = tmp_path_factory.mktemp("fuzzfiles")
    src = d / "src.bin"
    src.write_bytes(BLOB_DATA[:3000])
    return {"src": src, "out": d / "out.bin"}


@pytest.fixture(scope="module")
def fuzz_db(connect_kwargs: dict[str, Any], dbname: str) -> dict[str, Any]:
    kw = {**connect_kwargs, "database": dbname}
    with ifxwire.connect(**kw) as c:
        cur = c.cursor()
        cur.execute("CREATE TABLE fs_lob (id INTEGER, b BLOB, c CLOB)")
        cur.execute("CREATE TABLE fs_comp (id INTEGER, r ROW(x INT, y SET(DATE NOT NULL)),"
                    " l LIST(VARCHAR(10) NOT NULL))")
        cur.execute("CREATE TABLE fs_n (i INTEGER)")
        cur.executemany("INSERT INTO fs_n VALUES (?)", [(i,) for i in range(1000)])
        cur.execute("INSERT INTO fs_lob VALUES (0, ?, ?)", (BLOB_DATA, CLOB_TEXT))
    return kw


def sync_scenario(kw: dict[str, Any], files: dict[str, Path]) -> None:
    conn = ifxwire.connect(**(OPTIONS | kw))
    try:
        cur = conn.cursor()
        cur.execute("INSERT INTO fs_lob VALUES (?, ?, ?)", (1, BLOB_DATA, CLOB_TEXT))
        cur.execute("INSERT INTO fs_lob VALUES (?, ?, ?)", (2, io.BytesIO(BLOB_DATA), None))
        cur.execute("SELECT b, c FROM fs_lob WHERE id = 0")
        row = cur.fetchone()
        if row is not None:  # None when a mutated reply ended the result early
            b, c = row
            b.read(100)
            b.seek(-10, 2)
            b.read()
            c.read(20)
            b.close()
            c.close()
        cur.execute(f"SELECT LOTOFILE(b, '{files['out']}!', 'client') FROM fs_lob WHERE id = 0")
        cur.fetchall()
        cur.execute(f"INSERT INTO fs_lob VALUES (3, FILETOBLOB('{files['src']}', 'client'), NULL)")
        cur.execute("INSERT INTO fs_comp VALUES (?, ?, ?)", (1, *COMPOSITE))
        cur.execute("SELECT r, l FROM fs_comp").fetchall()
        scroll = conn.cursor(scrollable=True)
        scroll.execute("SELECT i FROM fs_n ORDER BY i")
        scroll.fetch_last()
        scroll.fetch_absolute(50)
        scroll.fetch_prior()
        scroll.fetch_relative(-20)
        scroll.close()
        held = conn.cursor(withhold=True)
        held.execute("SELECT i FROM fs_n WHERE i < 150")
        held.fetchone()
        conn.commit()
        held.fetchmany(120)
        held.close()
        cur.statement_timeout = CANCEL_AFTER
        with contextlib.suppress(ifxwire.OperationalError):
            cur.execute(LONG_QUERY)
        cur.statement_timeout = None
        conn.rollback()
    finally:
        conn.close()


async def aio_scenario_async(kw: dict[str, Any], files: dict[str, Path]) -> None:
    conn = await aio.connect(**(OPTIONS | kw))
    try:
        cur = conn.cursor()
        await cur.execute("INSERT INTO fs_lob VALUES (?, ?, ?)", (1, BLOB_DATA, CLOB_TEXT))
        await cur.execute("SELECT b, c FROM fs_lob WHERE id = 0")
        row = await cur.fetchone()
        if row is not None:  # None when a mutated reply ended the result early
            b, c = row
            await b.read(100)
            await b.size()
            await c.read(20)
            await b.close()
            await c.close()
        await cur.execute(
            f"SELECT LOTOFILE(b, '{files['out']}!', 'client') FROM fs_lob WHERE id = 0")
        await cur.fetchall()
        await cur.execute(
            f"INSERT INTO fs_lob VALUES (3, FILETOBLOB('{files['src']}', 'client'), NULL)")
        await cur.execute("INSERT INTO fs_comp VALUES (?, ?, ?)", (1, *COMPOSITE))
        await cur.execute("SELECT r, l FROM fs_comp")
        await cur.fetchall()
        scroll = conn.cursor(scrollable=True)
        await scroll.execute("SELECT i FROM fs_n ORDER BY i")
        await scroll.fetch_last()
        await scroll.fetch_absolute(50)
        await scroll.fetch_prior()
        await scroll.close()
        held = conn.cursor(withhold=True)
        await held.execute("SELECT i FROM fs_n WHERE i < 150")
        await held.fetchone()
        await conn.commit()
        await held.fetchmany(120)
        await held.close()
        cur.statement_timeout = CANCEL_AFTER
        with contextlib.suppress(ifxwire.OperationalError):
            await cur.execute(LONG_QUERY)
        cur.statement_timeout = None
        await conn.rollback()
    finally:
        await conn.close()


@pytest.fixture(scope="module")
def scenarios(files: dict[str, Path]) -> dict[str, Callable[[dict[str, Any]], None]]:
    return {
        "sync": lambda kw: sync_scenario(kw, files),
        "aio": lambda kw: asyncio.run(aio_scenario_async(kw, files)),
    }


@pytest.fixture(scope="module")
def recorded(
    fuzz_db: dict[str, Any], scenarios: dict[str, Callable[[dict[str, Any]], None]]
) -> dict[str, Session]:
    return {name: harness.record(fn, fuzz_db) for name, fn in scenarios.items()}






@pytest.mark.parametrize(("name", "cases", "seed"),
                         [("sync", SYNC_CASES, 20261125), ("aio", AIO_CASES, 20261126)])
def test_fuzz_driver_with_mutated_lob_composite_scroll_cancel_replies(
    name: str, cases: int, seed: int, scenarios: dict[str, Callable[[dict[str, Any]], None]],
    recorded: dict[str, Session], replay: ReplayServer, guarded: None,
) -> None:
    session = recorded[name]
    assert len(session.replies) >= 25, len(session.replies)
    # The corpus holds what it claims: the cancelled statement's SQ_ERR -213, fast-path and
    # SQ_LODATA replies, SQ_FILE requests.
    assert any(b"\x00\x0d\xff\x2b" in r for r in session.replies)
    for code in (Msg.FPROUTINE, Msg.LODATA, Msg.FILE):
        assert any(r.startswith(code.to_bytes(2, "big")) for r in session.replies), code
    outcomes = harness.fuzz(f"{name}-sessions", scenarios[name], session, cases, replay, seed,
                            case_limit=CASE_LIMIT, memory_bound=MEMORY_BOUND)
    assert outcomes.get("OperationalError", 0) > cases // 10, outcomes


def test_a_fresh_connection_still_reads_lobs_and_composites(fuzz_db: dict[str, Any]) -> None:
    with ifxwire.connect(**fuzz_db) as conn:
        cur = conn.cursor()
        (b,) = cur.execute("SELECT b FROM fs_lob WHERE id = 0").fetchone()
        assert b.read() == BLOB_DATA
        rows = cur.execute("SELECT r, l FROM fs_comp").fetchall()
        assert rows and all(row == COMPOSITE for row in rows)  # one per recording


_HEX_LOCATOR = re.compile(rb"[0-9a-f]{144}")


@pytest.mark.parametrize("name", ["sync", "aio"])
def test_a_locator_in_text_form_with_non_hex_digits_is_a_pep249_error(
    name: str, scenarios: dict[str, Callable[[dict[str, Any]], None]],
    recorded: dict[str, Session], replay: ReplayServer,
) -> None:
    """Found by the fuzz (seed 20261125, case 59): a row whose BLOB locator is 144 characters
    that are not all hex digits let a bare CodecError (a ValueError) out of fetchone."""
    session = recorded[name]
    messages = session.all_messages()
    target = next(i for i, msg in enumerate(messages) if i and _HEX_LOCATOR.search(msg))
    at = _HEX_LOCATOR.search(messages[target]).start()  # type: ignore[union-attr]
    bad = messages[target][:at] + b"zz" + messages[target][at + 2 :]
    kw = replay.kwargs(database="fuzzdb")
    escaped, _, _ = harness.run_case(replay, scenarios[name],
                                     Script(session, Mutation(target, "locator", bad)), kw)
    assert isinstance(escaped, ifxwire.InternalError), repr(escaped)
    assert "locator" in str(escaped)



@pytest.mark.parametrize("name", ["sync", "aio"])
def test_a_fast_path_reply_without_its_return_value_is_a_pep249_error(
    name: str, scenarios: dict[str, Callable[[dict[str, Any]], None]],
    recorded: dict[str, Session], replay: ReplayServer,
) -> None:
    """Found by the fuzz (aio seed 20261126, case 18): an ifx_lo_open answered with a bare
    SQ_EOT let an IndexError out of Blob.read. Every SQ_FPROUTINE reply of the scenario
    (ifx_lo_create/open/seek/stat/close) is replaced by SQ_EOT in turn."""
    session = recorded[name]
    messages = session.all_messages()
    targets = [i for i, msg in enumerate(messages) if i and msg[:2] == b"\x00\x67"]
    assert len(targets) >= 4, targets
    kw = replay.kwargs(database="fuzzdb")
    for target in targets:
        escaped, _, _ = harness.run_case(
            replay, scenarios[name], Script(session, Mutation(target, "empty", b"\x00\x0c")), kw)
        assert escaped is None or isinstance(escaped, ifxwire.Error), (target, repr(escaped))
