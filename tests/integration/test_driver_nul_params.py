"""A str holding NUL is refused as a parameter, before anything is sent (issue 23).

Informix reads a character value only up to its first NUL ("the database server reads only the
characters (if any) that precede this null terminator", Guide to SQL: Reference), so a bound
``'ab\\x00cd'`` used to be stored and read back as ``'ab'`` without a word. psycopg refuses NUL
in text parameters for PostgreSQL with a DataError; so does ifxwire now, naming the parameter,
on every encoder path: the generic one, the generated (pure) and the C bind encoders, the
executemany row encoders, sync and asyncio. NUL in the SQL text itself is a ProgrammingError.
TEXT values (ifxwire.Text) and bytes keep NULs: they are byte strings with a length on the
server too (tests/integration/test_server_nul_chars.py::test_text_keeps_nul_bytes).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import pytest

import ifxwire
import ifxwire.aio as aio
from ifxwire.errors import DataError, ProgrammingError
from ifxwire.server import Server

pytestmark = pytest.mark.both_drivers

BAD = "ab\x00cd"


@pytest.fixture(scope="module")
def srv() -> Iterator[Server]:
    with Server(port=0, data=":memory:") as s:
        with ifxwire.connect(host=s.host, port=s.port, user="informix", password="in4mix",
                             autocommit=True) as c:
            c.execute("CREATE DATABASE nulparams WITH LOG")
        yield s


def _kw(s: Server, **extra: Any) -> dict[str, Any]:
    return {"host": s.host, "port": s.port, "user": "informix", "password": "in4mix",
            "database": "nulparams", "autocommit": True} | extra


@pytest.fixture()
def conn(driver: Any, srv: Server) -> Iterator[ifxwire.Connection]:
    with driver.connect(**_kw(srv)) as c:
        cur = c.cursor()
        cur.execute("DROP TABLE IF EXISTS t")
        cur.execute("CREATE TABLE t (id INTEGER, a VARCHAR(40), b LVARCHAR(32000), c CHAR(10))")
        yield c


def _rows(c: ifxwire.Connection) -> list[tuple[Any, ...]]:
    cur = c.cursor()
    cur.execute("SELECT id, a FROM t ORDER BY id")
    return cur.fetchall()


# Each shape takes its own encoder path: a compiled pattern (int, str), the generic path
# (a value no compiled encoder takes: Decimal), and a str over 32767 bytes (LVARCHAR bind).
SHAPES = [
    ("INSERT INTO t (id, a) VALUES (?, ?)", (1, BAD), 2),
    ("INSERT INTO t (a, id) VALUES (?, ?)", (BAD, 1), 1),
    ("INSERT INTO t (id, a, b) VALUES (?, ?, ?)", (Decimal(1), "ok", BAD),
     3),
    ("INSERT INTO t (id, b) VALUES (?, ?)", (1, "x" * 40000 + "\x00"), 2),
    ("INSERT INTO t (id, c) VALUES (?, ?)", (1, "\x00"), 2),
]


@pytest.mark.parametrize(("sql", "params", "position"), SHAPES)
def test_execute_refuses_nul_naming_the_parameter(
    conn: ifxwire.Connection, sql: str, params: tuple[Any, ...], position: int
) -> None:
    for _ in range(2):  # the second time through the compiled encoder of this pattern
        with pytest.raises(DataError) as info:
            conn.cursor().execute(sql, params)
        assert f"parameter {position} " in str(info.value)
        assert "NUL" in str(info.value)
        assert info.value.sqlstate == "22000"
    assert _rows(conn) == []
    conn.cursor().execute("INSERT INTO t (id, a) VALUES (?, ?)", (9, "fine"))
    assert _rows(conn) == [(9, "fine")]


def test_named_and_numeric_markers_name_the_marker_position(conn: ifxwire.Connection) -> None:
    with pytest.raises(DataError, match=r"parameter 2 "):
        conn.cursor().execute("INSERT INTO t (id, a) VALUES (:id, :a)", {"id": 1, "a": BAD})
    with pytest.raises(DataError, match=r"parameter 1 "):
        conn.cursor().execute("INSERT INTO t (a, id) VALUES (:2, :1)", (1, BAD))
    assert _rows(conn) == []


def test_nul_inside_a_row_value_is_refused(conn: ifxwire.Connection) -> None:
    cur = conn.cursor()
    cur.execute("DROP TABLE IF EXISTS r")
    cur.execute("CREATE TABLE r (id INTEGER, v ROW(x INTEGER, s VARCHAR(10)))")
    with pytest.raises(DataError, match=r"parameter 2 .*NUL"):
        cur.execute("INSERT INTO r VALUES (?, ?)", (1, ifxwire.Row((1, BAD))))
    cur.execute("INSERT INTO r VALUES (?, ?)", (1, ifxwire.Row((1, "ok"))))
    cur.execute("SELECT COUNT(*) FROM r")
    assert cur.fetchone() == (1,)


def test_nul_in_the_sql_text_is_refused(conn: ifxwire.Connection) -> None:
    with pytest.raises(ProgrammingError, match=r"NUL .* at position 35"):
        conn.cursor().execute("INSERT INTO t (id, a) VALUES (1, 'a\x00b')")
    assert _rows(conn) == []


@pytest.mark.parametrize("accel", [False, True], ids=["generated", "c"])
def test_executemany_refuses_the_nul_rows_and_inserts_the_others(
    conn: ifxwire.Connection, accel: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ifxwire import _accel
    from ifxwire.client import binds

    if accel and not _accel.available:
        pytest.skip("the C accelerator is not built")
    monkeypatch.setattr(_accel, "accelerated", accel)
    binds._FAST.clear()
    binds._ROWS.clear()
    try:
        rows = [(i, f"v{i}") for i in range(50)]
        rows[7] = (7, BAD)
        rows[30] = (30, "\x00")
        with pytest.raises(DataError) as info:
            conn.cursor().executemany("INSERT INTO t (id, a) VALUES (?, ?)", rows)
        assert "NUL" in str(info.value)
    finally:
        binds._FAST.clear()
        binds._ROWS.clear()
    got = _rows(conn)
    assert [r[0] for r in got] == [i for i in range(50) if i not in (7, 30)]
    assert all("\x00" not in r[1] for r in got)


def test_c_bind_encoder_itself_refuses_nul() -> None:
    """The C encoder (when built) raises on NUL, so the generic path gives the DataError."""
    from ifxwire import _accel
    from ifxwire.types.bind_compile import compile_bind_encoder

    if not _accel.available:
        pytest.skip("the C accelerator is not built")
    for encoding in ("utf-8", "iso8859-1", "cp1252"):
        pure = compile_bind_encoder((int, str), encoding, 5)
        assert pure is not None
        enc = _accel.c_bind_encoder(pure, (int, str), encoding, 5)
        assert enc is not None
        assert enc((1, "ab")) == pure((1, "ab"))
        for bad in ("a\x00", "\x00", "\xe9\x00\xe9"):
            with pytest.raises(ValueError, match="NUL"):
                enc((1, bad))
            with pytest.raises(Exception):  # noqa: B017 - the pure one raises _Slow
                pure((1, bad))


def test_asyncio_refuses_nul_in_execute_and_executemany(srv: Server) -> None:
    async def go() -> list[tuple[Any, ...]]:
        c = await aio.connect(**_kw(srv))
        try:
            cur = c.cursor()
            await cur.execute("DROP TABLE IF EXISTS ta")
            await cur.execute("CREATE TABLE ta (id INTEGER, a VARCHAR(20))")
            with pytest.raises(DataError, match=r"parameter 2 .*NUL"):
                await cur.execute("INSERT INTO ta VALUES (?, ?)", (1, BAD))
            with pytest.raises(DataError, match="NUL"):
                await cur.executemany("INSERT INTO ta VALUES (?, ?)", [(2, "x"), (3, BAD)])
            with pytest.raises(ProgrammingError, match="NUL"):
                await cur.execute("SELECT 1\x00 FROM systables")
            await cur.execute("SELECT id, a FROM ta ORDER BY id")
            return list(await cur.fetchall())
        finally:
            await c.close()

    assert asyncio.run(go()) == [(2, "x")]


def test_nothing_reaches_the_server(driver: Any, fake: Any) -> None:
    """The refusal happens before any byte of the statement is sent."""
    with driver.connect(**fake.kwargs(autocommit=True)) as c:
        before = len(fake.groups)
        with pytest.raises(DataError):
            c.cursor().execute("INSERT INTO t VALUES (?, ?)", (1, BAD))
        with pytest.raises(ProgrammingError):
            c.cursor().execute("DELETE FROM t\x00 WHERE 1 = 1")
        assert fake.names(before) == []


def test_text_and_bytes_keep_their_nuls(conn: ifxwire.Connection) -> None:
    cur = conn.cursor()
    cur.execute("DROP TABLE IF EXISTS tb")
    cur.execute("CREATE TABLE tb (id INTEGER, body TEXT, raw BYTE)")
    cur.execute("INSERT INTO tb VALUES (?, ?, ?)", (1, ifxwire.Text(BAD), b"\x00\x01\x00"))
    cur.execute("SELECT body, raw FROM tb")
    assert cur.fetchone() == (BAD, b"\x00\x01\x00")


def test_clob_keeps_nuls_given_as_text_and_refuses_a_plain_str(conn: ifxwire.Connection) -> None:
    cur = conn.cursor()
    cur.execute("DROP TABLE IF EXISTS tc")
    cur.execute("CREATE TABLE tc (id INTEGER, cl CLOB)")
    with pytest.raises(DataError, match="NUL"):
        cur.execute("INSERT INTO tc VALUES (?, ?)", (1, BAD))
    cur.execute("INSERT INTO tc VALUES (?, ?)", (2, ifxwire.Text(BAD)))
    cur.execute("SELECT id, cl FROM tc")
    rows = cur.fetchall()
    assert [r[0] for r in rows] == [2]
    assert rows[0][1].read() == BAD
