"""informix-driver 2026.9.3 and ifxwire on the same ROW/collection data (issue 13).

informix-driver never sends SQ_RET_TYPE, so it gets the text form real servers sent it
(P§3.2: ``[ind][i32 len][text]``, ``ROW('Alice',30 )``, ``LIST{10,20,30}``) and wraps the text
unparsed in ``CollectionValue``/``RowValue`` with the extended type name. ifxwire writes, the
other driver must read the literal text of each value; informix-driver writes quoted literals
(``'SET{…}'`` parameters, the only way it has) and ifxwire must read exact values back.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import informix_db
import pytest

import ifxwire
from conftest import Target
from ifxwire import List, Multiset, Row, Set

pytestmark = pytest.mark.interop

CASES: list[tuple[str, Any, str]] = [
    ("SET(INTEGER NOT NULL)", Set({3, 1, 2}), "SET{1,2,3}"),
    ("MULTISET(BIGINT NOT NULL)", Multiset([5, 5]), "MULTISET{5,5}"),
    ("LIST(DECIMAL(6,2) NOT NULL)", List([Decimal("1.50"), Decimal("-2.25")]),
     "LIST{1.50,-2.25}"),
    ("LIST(FLOAT NOT NULL)", List([0.1, -2.5]), "LIST{0.1,-2.5}"),
    ("LIST(VARCHAR(20) NOT NULL)", List(["it's", "é"]), "LIST{'it''s','é'}"),
    ("LIST(LVARCHAR NOT NULL)", List(["abc"]), "LIST{'abc'}"),
    ("LIST(DATE NOT NULL)", List([dt.date(2024, 2, 29)]), "LIST{'2024-02-29'}"),
    ("LIST(DATETIME YEAR TO FRACTION(5) NOT NULL)",
     List([dt.datetime(2024, 2, 29, 13, 45, 59, 123450)]), "LIST{'2024-02-29 13:45:59.12345'}"),
    ("LIST(INTERVAL DAY(9) TO FRACTION(5) NOT NULL)",
     List([dt.timedelta(days=2, seconds=3, microseconds=10)]),
     "LIST{'2 00:00:03.00001'}"),
    ("LIST(BOOLEAN NOT NULL)", List([True, False]), "LIST{'t','f'}"),
    ("ROW(a INTEGER, b VARCHAR(10))", Row((30, "Alice"), ("a", "b")), "ROW(30,'Alice')"),
    ("ROW(a INTEGER, b VARCHAR(10))", Row((None, None), ("a", "b")), "ROW(NULL,NULL)"),
    ("LIST(ROW(a INTEGER, b SET(INTEGER NOT NULL)) NOT NULL)",
     List([Row((1, Set({2})), ("a", "b"))]), "LIST{ROW(1,SET{2})}"),
    ("SET(INTEGER NOT NULL)", Set([], "int"), "SET{}"),
]


def _ifx(t: Target, db: str = "") -> ifxwire.Connection:
    kw: dict[str, Any] = {"database": db} if db else {}
    return ifxwire.connect(host=t.host, port=t.port, user=t.user, password=t.password,
                           server=t.server_name, client_locale="en_US.utf8",
                           db_locale="en_US.utf8", autocommit=True, **kw)


@pytest.fixture(scope="module")
def db(interop_target: Target) -> Any:
    with _ifx(interop_target) as c:
        c.cursor().execute("CREATE DATABASE xc_peer_comp WITH LOG")
    yield "xc_peer_comp"
    with _ifx(interop_target) as c:
        c.cursor().execute("DROP DATABASE xc_peer_comp")


def _peer(t: Target, db: str) -> Any:
    return informix_db.connect(host=t.host, port=t.port, user=t.user, password=t.password,
                               database=db, server=t.server_name, autocommit=True,
                               client_locale="en_US.utf8")


@pytest.mark.parametrize("i", range(len(CASES)))
def test_ifxwire_writes_informix_driver_reads_text(interop_target: Target, db: str,
                                                   i: int) -> None:
    decl, value, text = CASES[i]
    table = f"pc_r{i}"
    with _ifx(interop_target, db) as c:
        cur = c.cursor()
        cur.execute(f"CREATE TABLE {table} (id INT, v {decl}, tail VARCHAR(5))")
        cur.execute(f"INSERT INTO {table} VALUES (1, ?, 'end')", [value])
        cur.execute(f"INSERT INTO {table} VALUES (2, NULL, 'nul')")
    p = _peer(interop_target, db)
    try:
        pc = p.cursor()
        pc.execute(f"SELECT id, v, tail FROM {table} ORDER BY id")
        (one, v1, t1), (two, v2, t2) = pc.fetchall()
        assert (one, t1, two, v2, t2) == (1, "end", 2, None, "nul")
        assert v1.raw.decode("utf-8") == text
        schema = v1.schema if hasattr(v1, "schema") else v1.element_schema
        assert schema.replace(" ", "").lower() == decl.replace(" ", "").lower()
    finally:
        p.close()


@pytest.mark.parametrize("i", range(len(CASES)))
def test_informix_driver_writes_literals_ifxwire_reads(interop_target: Target, db: str,
                                                       i: int) -> None:
    decl, value, text = CASES[i]
    table = f"pc_w{i}"
    with _ifx(interop_target, db) as c:
        c.cursor().execute(f"CREATE TABLE {table} (id INT, v {decl})")
    p = _peer(interop_target, db)
    try:
        p.cursor().execute(f"INSERT INTO {table} VALUES (?, ?)", (1, text))
        if text.isascii():  # as a literal in the SQL text too
            quoted = text.replace("'", "''")
            p.cursor().execute(f"INSERT INTO {table} VALUES (2, '{quoted}')")
        else:
            p.cursor().execute(f"INSERT INTO {table} VALUES (?, ?)", (2, text))
    finally:
        p.close()
    with _ifx(interop_target, db) as c:
        cur = c.cursor()
        cur.execute(f"SELECT v FROM {table} ORDER BY id")
        assert cur.fetchall() == [(value,), (value,)]
