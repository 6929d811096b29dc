"""Parameter markers (``?``, ``:1``, ``:name``) and client-side parameter errors."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pytest

import ifxwire
from ifxwire.client.placeholders import arrange, plan_sql

pytestmark = pytest.mark.both_drivers


@pytest.mark.parametrize(
    ("sql", "expected", "order"),
    [
        ("SELECT * FROM t WHERE a = ? AND b = ?", "SELECT * FROM t WHERE a = ? AND b = ?", (0, 1)),
        ("a = :2 and b = :1 or c = :1", "a = ? and b = ? or c = ?", (1, 0, 0)),
        (
            "x = :name AND y = :other OR z = :name",
            "x = ? AND y = ? OR z = ?",
            ("name", "other", "name"),
        ),
        (
            "SELECT ':1', '?', 'it''s :x' FROM t WHERE a = :1",
            "SELECT ':1', '?', 'it''s :x' FROM t WHERE a = ?",
            (0,),
        ),
        ('SELECT ":1", "?" FROM t WHERE a = :1', 'SELECT ":1", "?" FROM t WHERE a = ?', (0,)),
        ("SELECT a -- :1 ?\nFROM t WHERE a = :1", "SELECT a -- :1 ?\nFROM t WHERE a = ?", (0,)),
        ("SELECT /* :2 ? */ a FROM t WHERE a = :1", "SELECT /* :2 ? */ a FROM t WHERE a = ?", (0,)),
        (
            "SELECT {+ORDERED :2 ?} a FROM t WHERE a = :1",
            "SELECT {+ORDERED :2 ?} a FROM t WHERE a = ?",
            (0,),
        ),
        (
            "SELECT a::INT FROM t WHERE b = :1::CHAR(5)",
            "SELECT a::INT FROM t WHERE b = ?::CHAR(5)",
            (0,),
        ),
        (
            "SELECT * FROM sysmaster:systables WHERE tabid = :id",
            "SELECT * FROM sysmaster:systables WHERE tabid = ?",
            ("id",),
        ),
        (
            "SELECT DATETIME(12:30) HOUR TO MINUTE FROM t WHERE a = :1",
            "SELECT DATETIME(12:30) HOUR TO MINUTE FROM t WHERE a = ?",
            (0,),
        ),
        ("SELECT 1 FROM t", "SELECT 1 FROM t", ()),
        # braces after SET/MULTISET/LIST hold a collection (the server reads them so), any
        # other braces are a comment
        ("SELECT LIST{a, :1}, SET {:2} FROM t {:3}", "SELECT LIST{a, ?}, SET {?} FROM t {:3}",
         (0, 1)),
        ("SELECT a {LIST{?}} FROM t WHERE b = ?", "SELECT a {LIST{?}} FROM t WHERE b = ?", (0,)),
    ],
)
def test_rewrite(sql: str, expected: str, order: tuple[object, ...]) -> None:
    plan = plan_sql(sql)
    assert plan.sql == expected
    assert plan.order == order
    assert plan.nparams == len(order)


def test_arrange() -> None:
    assert arrange(plan_sql("a = :2 and b = :1 or c = :1"), ("x", "y")) == ["y", "x", "x"]
    assert arrange(plan_sql("a = :n and b = :m"), {"n": 1, "m": 2, "extra": 3}) == [1, 2]
    assert arrange(plan_sql("a = ?"), [5]) == [5]
    assert arrange(plan_sql("SELECT 1"), None) == ()
    assert arrange(plan_sql("SELECT 1"), ()) == ()


@pytest.mark.parametrize(
    ("sql", "params", "match"),
    [
        ("a = ? and b = :1", (1,), "mixes"),
        ("a = ?", (1, 2), "needs 1"),
        ("a = ?", (), "needs 1"),
        ("a = ?", None, "no parameters"),
        ("a = :2", (1,), "needs 2"),
        ("a = :x", (1,), "mapping"),
        ("a = :x", {"y": 1}, ":x"),
        ("a = ?", {"x": 1}, ":name"),
        ("a = ?", "1", "sequence"),
        ("SELECT 1", (1,), "needs 0"),
        ("a = :0", (1,), ":1"),
    ],
)
def test_marker_errors(sql: str, params: object, match: str) -> None:
    with pytest.raises(ifxwire.ProgrammingError, match=match):
        arrange(plan_sql(sql), params)


def test_markers_through_the_server(conn: ifxwire.Connection) -> None:
    cur = conn.cursor()
    cur.execute("CREATE TABLE pm (a INT, b VARCHAR(20), c INT)")
    cur.execute("INSERT INTO pm VALUES (:1, :2, :1)", (7, "seven"))
    cur.execute("INSERT INTO pm VALUES (:a, :b, :c)", {"a": 8, "b": "it's :8", "c": 80})
    cur.execute("INSERT INTO pm VALUES (?, ?, ?)", (9, "q?", 90))
    rows = cur.execute(
        "SELECT a, b, c FROM pm WHERE (a = :2 OR a = :1) AND b <> ':1' ORDER BY a", (8, 7)
    ).fetchall()
    assert rows == [(7, "seven", 7), (8, "it's :8", 80)]
    got = cur.execute("SELECT b FROM pm WHERE c = :c -- :ignored\n", {"c": 90}).fetchall()
    assert got == [("q?",)]
    assert cur.execute("SELECT a::CHAR(3) FROM pm WHERE a = ?", (9,)).fetchall() == [("9",)]


def test_non_latin1_sql_on_utf8_connection(
    driver: Any, connect_kwargs: dict[str, Any], dbname: str
) -> None:
    c = driver.connect(**connect_kwargs, database=dbname, client_locale="en_US.utf8")
    cur = c.cursor()
    cur.execute("CREATE TABLE utf (v VARCHAR(40))")
    cur.execute("INSERT INTO utf VALUES ('Δ ünïcødé €')")
    cur.execute("INSERT INTO utf VALUES (?)", ("日本",))
    assert cur.execute("SELECT v FROM utf WHERE v <> 'ж' ORDER BY v").fetchall() == [
        ("Δ ünïcødé €",),
        ("日本",),
    ]
    c.close()


def test_unencodable_sql_text(conn: ifxwire.Connection) -> None:
    with pytest.raises(ifxwire.ProgrammingError, match="code set"):
        conn.execute("SELECT '日本' FROM systables")
    assert not conn.broken


@pytest.mark.parametrize(
    ("value", "cls"),
    [
        (2**64, ifxwire.DataError),
        (float("nan"), ifxwire.DataError),
        (Decimal("NaN"), ifxwire.DataError),
        (Decimal("Infinity"), ifxwire.DataError),
        ("€uro", ifxwire.DataError),  # not encodable in 8859-1
        (object(), ifxwire.ProgrammingError),
        ([1, 2], ifxwire.ProgrammingError),
        (dt.datetime(2024, 1, 1, tzinfo=dt.timezone.utc), ifxwire.ProgrammingError),
    ],
)
def test_client_side_param_errors(conn: ifxwire.Connection, value: object, cls: type) -> None:
    cur = conn.cursor()
    with pytest.raises(cls) as info:
        cur.execute("SELECT tabid FROM systables WHERE tabid = ? AND 1 = ?", (1, value))
    assert "parameter 2" in str(info.value)
    assert type(value).__name__ in str(info.value)
    assert isinstance(info.value, ifxwire.Error)
    # Nothing was sent: the connection is fine.
    assert cur.execute("SELECT tabid FROM systables WHERE tabid = ?", (1,)).fetchall() == [(1,)]
