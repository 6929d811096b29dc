"""The batched INSERT's compiled path (server/bindbatch.py, ``_bindbatch.insert_run``): which
executemany rows it takes, what it stores, and that every row it does not take, or that fails,
is served and reported exactly as before.

``Server.bound_groups`` counts the groups whose rows the bound call converted: the compiled
decoder, or with the accelerator not built (or IFXWIRE_PURE) its generated Python twin
(server/purerun.py); the server's Python loop serves the rest (``batched_groups``). Each test
checks the stored rows and errors and the counter, pure and accelerated.
"""

from __future__ import annotations

import datetime as dt
import itertools
from decimal import Decimal
from typing import Any

import pytest

import ifxwire
from ifxwire.client.batch import MAX_IN_FLIGHT
from ifxwire.server import bindbatch, onestep, purerun

pytestmark = pytest.mark.both_drivers

# The bound call runs whether the accelerator is built or not: ``_bindbatch.insert_run``, or
# without it its generated Python twin (server/purerun.py, ingest14); both count bound_groups.
COMPILED = True
assert bindbatch.compiled is not None or onestep._INSERT_RUN is purerun.insert_run
_SEQ = itertools.count()


def _name(prefix: str) -> str:
    return f"{prefix}_{next(_SEQ)}"


def _bound(server: Any) -> int:
    return int(server.bound_groups)


def _error_of_one(conn: ifxwire.Connection, sql: str, row: tuple[Any, ...]) -> int:
    """The sqlcode a single execute of ``row`` gets (the single-row path's error)."""
    cur = conn.cursor()
    with pytest.raises(ifxwire.Error) as info:
        cur.execute(sql, row)
    code = info.value.sqlcode
    assert code is not None
    return int(code)


COLS = ("i INT, s SMALLINT, b BIGINT, f FLOAT, d DATE, v VARCHAR(10), c CHAR(4),"
        " x DECIMAL(10,2)")


def _row(i: int) -> tuple[Any, ...]:
    return (i, i % 30000 - 15000, i * 10**12, i / 3,
            dt.date(1, 1, 1) + dt.timedelta(days=i * 1000 % 3_000_000),
            "é" * (i % 13),  # over 10 characters now and then: truncated by the column
            "ab"[: i % 3], Decimal(i).scaleb(-3))


def test_the_compiled_path_stores_what_single_rows_store(
    conn: ifxwire.Connection, server: Any
) -> None:
    """Every column kind the plan knows (the integers, FLOAT, DATE as its day number, VARCHAR
    within and over its length, CHAR and DECIMAL through their storers): the rows stored by
    the batch equal the same rows inserted one by one."""
    t, one = _name("bi"), _name("bi1")
    conn.execute(f"CREATE TABLE {t} ({COLS})")
    conn.execute(f"CREATE TABLE {one} ({COLS})")
    rows = [_row(i) for i in range(3000)]
    before = _bound(server)
    cur = conn.cursor()
    cur.executemany(f"INSERT INTO {t} VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)
    assert cur.rowcount == 3000
    if COMPILED:
        assert _bound(server) - before > 2000
    else:
        assert _bound(server) == before
    for row in rows[:400]:
        cur.execute(f"INSERT INTO {one} VALUES (?, ?, ?, ?, ?, ?, ?, ?)", row)
    got = cur.execute(f"SELECT * FROM {t} ORDER BY i").fetchall()
    assert got[:400] == cur.execute(f"SELECT * FROM {one} ORDER BY i").fetchall()
    assert [r[:5] for r in got] == [r[:5] for r in rows]
    assert [r[5] for r in got] == [r[5][:10] for r in rows]
    conn.rollback()


def test_nulls_are_taken_and_another_type_goes_to_the_general_loop(
    conn: ifxwire.Connection, server: Any
) -> None:
    """A NULL item (our driver sends it as CHAR, indicator -1) is taken as None, also in a
    run's first row (the statement's last plan); an item of another type (an int bound into
    the VARCHAR column at row 1000) stops the run, and the Python loop serves that part. The
    stored values are the same either way."""
    t = _name("bn")
    conn.execute(f"CREATE TABLE {t} (i INT, v VARCHAR(8), d DATE)")
    rows: list[tuple[Any, ...]] = [
        (i, None if i % 100 == 7 else f"v{i}",
         None if i % 250 in (3, 0) else dt.date(2026, 1, 1)) for i in range(2000)]
    batched, bound = server.batched_groups, _bound(server)
    cur = conn.cursor()
    cur.executemany(f"INSERT INTO {t} VALUES (?, ?, ?)", rows)
    assert server.batched_groups - batched > 1900
    if COMPILED:
        assert _bound(server) - bound == server.batched_groups - batched
    assert cur.execute(f"SELECT * FROM {t} ORDER BY i").fetchall() == rows
    conn.rollback()
    conn.execute(f"CREATE TABLE {t}x (i INT, v VARCHAR(8), d DATE)")
    rows[1000] = (1000, 1000, dt.date(2026, 1, 1))
    batched, bound = server.batched_groups, _bound(server)
    cur.executemany(f"INSERT INTO {t}x VALUES (?, ?, ?)", rows)
    assert server.batched_groups - batched > 1500
    if COMPILED:
        assert 1000 <= _bound(server) - bound < server.batched_groups - batched
    rows[1000] = (1000, "1000", dt.date(2026, 1, 1))
    assert cur.execute(f"SELECT * FROM {t}x ORDER BY i").fetchall() == rows
    conn.rollback()


ERRORS = {
    # kind: (table, setup rows, the bad row, a good row maker)
    "unique": ("(i INT PRIMARY KEY, v VARCHAR(8))", [(-1, "x")], (-1, "dup"),
               lambda i: (i, "x")),
    "not_null": ("(i INT, v VARCHAR(8) NOT NULL)", [], (0, None), lambda i: (i, "x")),
    "smallint_range": ("(i INT, s SMALLINT)", [], (0, 40000), lambda i: (i, i % 1000)),
    "date_into_char": ("(i INT, v CHAR(3))", [], (0, "toolongforansi"),
                       lambda i: (i, "abc")),
    "check": ("(i INT, v INT CHECK (v < 5000))", [], (0, 9999), lambda i: (i, 1)),
}


@pytest.mark.parametrize("kind", list(ERRORS))
@pytest.mark.parametrize("k", [0, 517, 1999])
def test_an_error_at_row_k_is_reported_at_row_k(
    conn: ifxwire.Connection, server: Any, kind: str, k: int
) -> None:
    """A row the column or a constraint refuses, at row k of a pipelined run: the error of
    that row, with the code a single execute of it gets; every other row is in; ROLLBACK
    takes them all back (the failed batch left nothing of its own)."""
    cols, setup, bad, good = ERRORS[kind]
    t = _name("be")
    conn.execute(f"CREATE TABLE {t} {cols}")
    conn.commit()
    sql = f"INSERT INTO {t} VALUES (?, ?)"
    cur = conn.cursor()
    for row in setup:
        cur.execute(sql, row)
    conn.commit()
    rows = [bad if i == k else good(i) for i in range(2000)]
    if kind == "date_into_char":  # not refused by a non-ANSI database: truncated, as one row
        cur.executemany(sql, rows)
        assert cur.rowcount == 2000
        assert cur.execute(f"SELECT v FROM {t} WHERE v <> 'abc'").fetchall() == [("too",)]
        conn.rollback()
        return
    code = _error_of_one(conn, sql, bad)
    before = _bound(server)
    with pytest.raises(ifxwire.Error) as info:
        cur.executemany(sql, rows)
    e = info.value
    assert [i for i, _ in e.errors] == [k]  # type: ignore[attr-defined]
    assert e.row_index == k and e.sqlcode == code  # type: ignore[attr-defined]
    assert cur.rowcount == 1999
    assert cur.execute(f"SELECT COUNT(*) FROM {t} WHERE i <> -1").fetchone() == (1999,)
    if COMPILED:
        # the runs without the bad row: all but the bad row's batch, at most MAX_IN_FLIGHT
        # (1,024) groups, give or take a few served one by one
        assert _bound(server) - before > 2000 - MAX_IN_FLIGHT - 100
    conn.rollback()
    assert cur.execute(f"SELECT COUNT(*) FROM {t}").fetchone() == (len(setup),)


def test_trigger_serial_and_autocommit_tables_are_not_batched(
    driver: Any, connect_kwargs: dict[str, Any], dbname: str, server: Any
) -> None:
    """Rows that need Python per row keep the single-row path: a table with a trigger (each
    row fires it), a SERIAL column (each row's serial is reported), autocommit (each row
    commits); the trigger's rows and the serials are all there."""
    t, log, s = _name("bt"), _name("btl"), _name("bs")
    with driver.connect(**connect_kwargs, database=dbname) as c:
        cur = c.cursor()
        cur.execute(f"CREATE TABLE {t} (i INT, v VARCHAR(8))")
        cur.execute(f"CREATE TABLE {log} (i INT)")
        cur.execute(f"CREATE TRIGGER {t}_ins INSERT ON {t} REFERENCING NEW AS n"
                    f" FOR EACH ROW (INSERT INTO {log} VALUES (n.i))")
        cur.execute(f"CREATE TABLE {s} (id SERIAL, v VARCHAR(8))")
        c.commit()
        batched, bound = server.batched_groups, _bound(server)
        cur.executemany(f"INSERT INTO {t} VALUES (?, ?)", [(i, "x") for i in range(600)])
        cur.executemany(f"INSERT INTO {s} (v) VALUES (?)", [("x",) for _ in range(600)])
        assert (server.batched_groups, _bound(server)) == (batched, bound)
        assert cur.execute(f"SELECT COUNT(*), SUM(i) FROM {log}").fetchone() == (600, 179700)
        assert cur.execute(f"SELECT MIN(id), MAX(id) FROM {s}").fetchone() == (1, 600)
        c.commit()
    with driver.connect(**connect_kwargs, database=dbname, autocommit=True) as auto:
        auto.cursor().executemany(f"INSERT INTO {t} (i) VALUES (?)", [(i,) for i in range(300)])
        assert (server.batched_groups, _bound(server)) == (batched, bound)


@pytest.mark.parametrize("first", [0, 1])
def test_a_unique_key_another_session_holds_stops_its_row(
    driver: Any, connect_kwargs: dict[str, Any], dbname: str, server: Any, first: int
) -> None:
    """Row locks (issue 26 part 3): session B has inserted key 700 and not committed; A's
    executemany meets it at row 700 with the error a single INSERT of it gets (-271 family,
    ISAM -107 under NOT WAIT), the other rows are in, B's row is B's. In both orders of who
    created the table."""
    t = _name("bl")
    conns = [driver.connect(**connect_kwargs, database=dbname) for _ in range(2)]
    try:
        a, b = conns[first], conns[1 - first]
        conns[0].cursor().execute(f"CREATE TABLE {t} (i INT PRIMARY KEY, v INT) LOCK MODE ROW")
        conns[0].commit()
        b.cursor().execute(f"INSERT INTO {t} VALUES (700, -1)")
        sql = f"INSERT INTO {t} VALUES (?, ?)"
        with pytest.raises(ifxwire.Error) as one:
            a.cursor().execute(sql, (700, 0))
        single = (one.value.sqlcode, one.value.isamcode)
        a.rollback()
        cur = a.cursor()
        with pytest.raises(ifxwire.Error) as many:
            cur.executemany(sql, [(i, i) for i in range(2000)])
        e = many.value
        assert [i for i, _ in e.errors] == [700]  # type: ignore[attr-defined]
        assert (e.sqlcode, e.isamcode) == single and single[0] < 0
        assert cur.rowcount == 1999
        a.commit()
        b.commit()
        got = b.cursor().execute(f"SELECT COUNT(*), SUM(v) FROM {t}").fetchone()
        assert got == (2000, sum(range(2000)) - 700 - 1)
    finally:
        for c in conns:
            c.close()


def test_ints_floats_and_text_into_decimal_columns(
    conn: ifxwire.Connection, server: Any
) -> None:
    """Values of other types bound into DECIMAL columns (the corpus's case: an int into a
    DECIMAL column once made the compiled plan refused, an internal error): each goes
    through the column's storer, and the rows equal single-row INSERTs of the same values."""
    t, one = _name("bd"), _name("bd1")
    conn.execute(f"CREATE TABLE {t} (i INT, a DECIMAL(8,2), b DECIMAL(8,2), c MONEY(8,2))")
    conn.execute(f"CREATE TABLE {one} (i INT, a DECIMAL(8,2), b DECIMAL(8,2), c MONEY(8,2))")
    rows = [(i, i, i / 8, f"{i}.125") for i in range(600)]
    before = _bound(server)
    cur = conn.cursor()
    cur.executemany(f"INSERT INTO {t} VALUES (?, ?, ?, ?)", rows)
    if COMPILED:
        assert _bound(server) - before > 400
    for row in rows[:100]:
        cur.execute(f"INSERT INTO {one} VALUES (?, ?, ?, ?)", row)
    got = cur.execute(f"SELECT * FROM {t} ORDER BY i").fetchall()
    assert got[:100] == cur.execute(f"SELECT * FROM {one} ORDER BY i").fetchall()
    assert got[9][1:] == (Decimal("9.00"), Decimal("1.13"), Decimal("9.13"))
    conn.rollback()


def test_a_bind_declaring_another_count_is_not_decoded_with_the_last_plan(server: Any) -> None:
    """A run of groups whose BIND declares 3 parameters but holds the 2 of a 2-parameter
    INSERT, after a good run gave the statement its plan: the compiled path must not take
    them with the last plan (it did: rows (7, 8) stored from a framing the general path
    refuses; the lead's review of speed11). Raw bytes, as a hostile client sends them."""
    import contextlib

    from rawclient import RawClient  # tests/integration is on sys.path (rootdir insertion)

    from ifxwire.client.binds import bind_message
    from ifxwire.protocol import messages as m
    from ifxwire.protocol.codes import Msg
    from ifxwire.protocol.wire import Writer

    db = _name("bnp")
    c = RawClient(server.host, server.port)
    try:
        c.command(f"create database {db} with log")
        c.command("create table t (a int, b int)")
        w = Writer()
        m.put_prepare(w, b"insert into t values (?, ?)", 2, c.layout)
        reply = c.send(w)
        assert reply.errors == [], reply.errors
        sid = reply.describes[0].stmt_id

        def group(bind: bytes) -> bytes:
            return (Writer().u16(Msg.ID).i16(sid).getvalue() + bind
                    + Writer().u16(Msg.EXECUTE).u16(Msg.EOT).getvalue())

        def run(groups: list[bytes]) -> list[Any]:
            c.sock.sendall(b"".join(groups))
            return [c.read_reply() for _ in groups]

        c.command("begin work")  # (autocommit rows go one by one)
        assert all(not r.errors
                   for r in run([group(bind_message((i, i), "utf-8")) for i in range(8)]))
        before = _bound(server)
        assert before >= 8  # the good run went through the compiled path: the plan is set
        c.command("commit work")
        c.command("begin work")
        good = bind_message((7, 8), "utf-8")
        lying = good[:2] + (3).to_bytes(2, "big") + good[4:]  # BIND says 3, holds 2
        # refused as the general path refuses it: an error or a closed session
        with contextlib.suppress(TimeoutError, ConnectionError, AssertionError):
            run([group(lying) for _ in range(8)])
        assert _bound(server) == before  # the compiled path took none of them
    finally:
        c.sock.close()
    check = RawClient(server.host, server.port)
    try:
        check.command(f"database {db}")
        w = Writer()
        m.put_prepare(w, b"select count(*) from t where a = 7 and b = 8", 0, check.layout)
        reply = check.send(w)
        assert reply.errors == []
        sid = reply.describes[0].stmt_id
        w = Writer()
        m.put_id(w, sid)
        m.put_curname(w, b"c_n")
        w.u16(Msg.OPEN)
        m.put_id(w, sid)
        m.put_nfetch(w, 4096)
        data = check.send(w).tuples[0]
        assert data[0] == 0x80, data  # DECIMAL zero: no (7, 8) row was stored
    finally:
        check.close()
