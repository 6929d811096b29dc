"""Fuzzing the driver with mutated real replies (issue 10's acceptance, driver half).

A scenario (connect with a database; SELECT of a table holding every scalar type plus BYTE
and TEXT, fetched in several batches with their FETCHBLOB replies; a SELECT with a
parameter; a statement the server refuses with SQ_ERR; INSERT (INSERTDONE), UPDATE, COMMIT,
executemany, ROLLBACK; close) runs once against the real embedded server through a recording
proxy (``fuzzreplay.Recorder``). The recorded login response and replies are then mutated one
at a time: every integer field set to zero, -1, the largest positive values and a 2 GB
length; bit flips; truncation; duplicated and spliced bytes; row-cell lengths overwritten; a
whole reply swapped for another. Each mutation is served by ``fuzzreplay.ReplayServer`` to
the same scenario, sync and ``ifxwire.aio`` (pure or accelerated codecs, whichever this run
of the suite uses), and each case must:

* raise nothing but PEP 249 errors (``ifxwire.Error``);
* end within the configured timeouts (no hang, no spinning);
* allocate no more than ``MEMORY_BOUND`` at its peak (tracemalloc);

and afterwards the process is healthy (no thread left behind) and a fresh connection to the
real server still works. Seeds are fixed, so a failure names a case that can be rerun.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import Callable
from typing import Any

import fuzzharness as harness
import pytest
from fuzzharness import record, run_case
from fuzzreplay import Mutation, ReplayServer, Script, Session

import ifxwire
import ifxwire.aio as aio

SYNC_CASES = 800
AIO_CASES = 300
#: Timeouts the fuzzed connections are configured with: no case may outlast them much.
CONNECT_TIMEOUT = 2.0
READ_TIMEOUT = 2.0
#: Longest a case may take: both timeouts plus slack for a loaded machine.
CASE_LIMIT = CONNECT_TIMEOUT + READ_TIMEOUT + 6.0
#: The peak a case may allocate (the legitimate scenario needs well under 2 MiB).
MEMORY_BOUND = 16 * 1024 * 1024

TYPES_TABLE = """CREATE TABLE fz_types (
    id SERIAL, si SMALLINT, i INTEGER, bi BIGINT, i8 INT8, f FLOAT, sf SMALLFLOAT,
    d DECIMAL(12,3), df DECIMAL(16), m MONEY(10,2), dt DATE,
    ts DATETIME YEAR TO FRACTION(3), tm DATETIME HOUR TO SECOND,
    ids INTERVAL DAY(3) TO SECOND, iym INTERVAL YEAR(4) TO MONTH,
    c CHAR(10), nc NCHAR(6), v VARCHAR(40), nv NVARCHAR(20), lv LVARCHAR(300),
    b BOOLEAN, by BYTE, tx TEXT)"""
TYPES_INSERT = (
    "INSERT INTO fz_types (si, i, bi, i8, f, sf, d, df, m, dt, ts, tm, ids, iym, c, nc, v, nv,"
    " lv, b, by, tx) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
SELECT_TYPES = "SELECT * FROM fz_types ORDER BY id"
#: Rows of every type (plus one of NULLs): enough for several fetch replies of 4 KiB.
TYPE_ROWS = 16


def _type_rows() -> list[tuple[Any, ...]]:
    from datetime import date, datetime, timedelta
    from datetime import time as dtime
    from decimal import Decimal

    rows: list[tuple[Any, ...]] = []
    for n in range(TYPE_ROWS):
        rows.append(
            (
                n - 3, 100_000 * n - 7, -(2**40) + n, 2**50 + n, n / 7, n * 1.5,
                Decimal(f"{n}12.345"), Decimal(f"-{n}.25e3"), Decimal(f"{n}9.99"),
                date(1999 + n, 2, 28), datetime(2024, 2, 29, 13, 45, n, 123000),
                dtime(23, 59, n), timedelta(days=n, seconds=3 * n), ifxwire.IntervalYM.of(n, 11),
                "char" * (n % 3), "nç", "v" * (7 * n), "nv", "L" * (50 * n), n % 2 == 0,
                bytes(range(n * 40 % 256)) if n % 5 != 2 else None, ifxwire.Text("t" * 60 * n),
            )
        )
    rows.append((None,) * 22)
    return rows


@pytest.fixture(scope="module")
def fuzz_db(connect_kwargs: dict[str, Any], dbname: str) -> dict[str, Any]:
    kw = {**connect_kwargs, "database": dbname}
    with ifxwire.connect(**kw) as c:
        cur = c.cursor()
        cur.execute(TYPES_TABLE)
        cur.execute("CREATE TABLE fz_log (id SERIAL8, n INTEGER)")
        cur.executemany(TYPES_INSERT, _type_rows())
    return kw


# ------------------------------------------------------------------------------------------
# The scenario, sync and asyncio: the same statements, which must send the same groups when
# served the recorded replies. Expected outcomes stay inside; anything else propagates.
# ------------------------------------------------------------------------------------------


#: How the scenario connects (``kw`` may override the timeouts).
OPTIONS = {
    "connect_timeout": CONNECT_TIMEOUT,
    "read_timeout": READ_TIMEOUT,
    "fetch_buffer_size": 1024,  # several fetch replies for the types table
}


def sync_scenario(kw: dict[str, Any]) -> None:
    conn = ifxwire.connect(**(OPTIONS | kw))
    try:
        cur = conn.cursor()
        cur.execute(SELECT_TYPES).fetchall()
        cur.execute("SELECT id, v, lv FROM fz_types WHERE id > ?", (2,)).fetchall()
        with contextlib.suppress(ifxwire.ProgrammingError):
            cur.execute("SELECT nope FROM no_such_table")
        cur.execute("INSERT INTO fz_log (n) VALUES (?)", (1,))
        cur.execute("UPDATE fz_log SET n = n + 1 WHERE n < 0")
        conn.commit()
        cur.executemany("INSERT INTO fz_log (n) VALUES (?)", [(2,), (3,)])
        conn.rollback()
    finally:
        conn.close()


async def aio_scenario_async(kw: dict[str, Any]) -> None:
    conn = await aio.connect(**(OPTIONS | kw))
    try:
        cur = conn.cursor()
        await cur.execute(SELECT_TYPES)
        await cur.fetchall()
        await cur.execute("SELECT id, v, lv FROM fz_types WHERE id > ?", (2,))
        await cur.fetchall()
        with contextlib.suppress(ifxwire.ProgrammingError):
            await cur.execute("SELECT nope FROM no_such_table")
        await cur.execute("INSERT INTO fz_log (n) VALUES (?)", (1,))
        await cur.execute("UPDATE fz_log SET n = n + 1 WHERE n < 0")
        await conn.commit()
        await cur.executemany("INSERT INTO fz_log (n) VALUES (?)", [(2,), (3,)])
        await conn.rollback()
    finally:
        await conn.close()


def aio_scenario(kw: dict[str, Any]) -> None:
    asyncio.run(aio_scenario_async(kw))


SCENARIOS: dict[str, Callable[[dict[str, Any]], None]] = {
    "sync": sync_scenario,
    "aio": aio_scenario,
}


@pytest.fixture(scope="module")
def recorded(fuzz_db: dict[str, Any]) -> dict[str, Session]:
    return {name: record(fn, fuzz_db) for name, fn in SCENARIOS.items()}






def fuzz(name: str, cases: int, recorded: dict[str, Session], replay: ReplayServer,
         seed: int) -> dict[str, int]:
    return harness.fuzz(name, SCENARIOS[name], recorded[name], cases, replay, seed,
                        case_limit=CASE_LIMIT, memory_bound=MEMORY_BOUND)


def test_fuzz_sync_driver_with_mutated_real_replies(
    recorded: dict[str, Session], replay: ReplayServer, guarded: None
) -> None:
    outcomes = fuzz("sync", SYNC_CASES, recorded, replay, seed=20260510)
    # The mutations reach past the login: errors of several kinds, and benign ones.
    assert outcomes.get("OperationalError", 0) > SYNC_CASES // 10, outcomes
    assert len(outcomes) >= 3, outcomes


def test_fuzz_aio_driver_with_mutated_real_replies(
    recorded: dict[str, Session], replay: ReplayServer, guarded: None
) -> None:
    outcomes = fuzz("aio", AIO_CASES, recorded, replay, seed=20260511)
    assert outcomes.get("OperationalError", 0) > AIO_CASES // 10, outcomes


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_truncated_replies_held_open_end_at_the_read_timeout(
    name: str, recorded: dict[str, Session], replay: ReplayServer
) -> None:
    """A reply cut short on a connection the server keeps open: the driver waits for the
    rest no longer than read_timeout (connect_timeout during the login)."""
    session = recorded[name]
    rng = random.Random(7)
    timeouts = {"connect_timeout": 0.5, "read_timeout": 0.3}
    kw = replay.kwargs(database="fuzzdb", **timeouts)
    messages = session.all_messages()
    # the login response, a session reply, the first PREPARE's reply, the last reply
    for target in (0, 1, 4, len(messages) - 1):
        original = messages[target]
        mut = Mutation(target, "truncation", original[: rng.randrange(1, len(original))])
        escaped, took, _ = run_case(replay, SCENARIOS[name], Script(session, mut, True), kw)
        assert isinstance(escaped, ifxwire.OperationalError), (target, escaped)
        text = str(escaped)
        assert "timed out" in text or "did not complete within connect_timeout" in text, text
        assert took < 0.5 + CASE_LIMIT


def test_a_fresh_connection_to_the_real_server_still_works(fuzz_db: dict[str, Any]) -> None:
    """Run after the fuzz cases (module order): nothing process-wide was left damaged
    (decoder caches, the session-reply cache, the statement caches)."""
    with ifxwire.connect(**fuzz_db) as conn:
        rows = conn.cursor().execute(SELECT_TYPES).fetchall()
    assert len(rows) == TYPE_ROWS + 1
    assert rows[0][1:4] == (-3, -7, -(2**40))
    assert rows[-1][1:] == (None,) * 22
