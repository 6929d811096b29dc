"""SET, MULTISET, LIST and ROW through the real server with the ifxwire driver (issue 13).

Values are bound with the ifxwire wrappers, stored by the server, fetched in the binary
(SENDRECV) form the driver asks for with SQ_RET_TYPE, and must come back exactly, with their
kind; SQL literals (``SET{…}``, quoted ``'LIST{…}'``, ``ROW(…)``) land the same way.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from decimal import Decimal
from typing import Any

import pytest

import ifxwire
from ifxwire import List, Multiset, Row, Set

pytestmark = pytest.mark.both_drivers

ELEMENTS: list[tuple[str, list[Any]]] = [
    ("int", [1, -2147483647, 2147483647]),
    ("bigint", [2**62, -(2**63 - 1)]),
    ("decimal(10,2)", [Decimal("12345678.90"), Decimal("-0.01")]),
    ("float", [1.5, -2.2250738585072014e-308, 1e300]),
    ("varchar(30)", ["é漢字", "it's", ""]),
    ("lvarchar(4000)", ["x" * 3000, "ü"]),
    ("date", [dt.date(1, 1, 1), dt.date(9999, 12, 31)]),
    ("datetime year to fraction(5)", [dt.datetime(2024, 2, 29, 13, 45, 59, 123450)]),
    ("interval day(9) to fraction(5)", [dt.timedelta(days=-3, microseconds=10),
                                        dt.timedelta(days=999999999)]),
    ("boolean", [True, False]),
    ("row(a int, b varchar(10))", [Row((1, "x"), ("a", "b")), Row((None, None), ("a", "b"))]),
]


def _key(v: Any) -> str:
    return repr(v)


UTF8 = {"client_locale": "en_US.utf8", "db_locale": "en_US.utf8"}


@pytest.fixture(scope="module")
def utf8_db(driver: Any, connect_kwargs: dict[str, Any]) -> str:
    with ifxwire.connect(**connect_kwargs, **UTF8) as c:
        c.cursor().execute(f"CREATE DATABASE d_composite_utf8{driver.suffix} WITH LOG")
    return f"d_composite_utf8{driver.suffix}"


@pytest.fixture()
def uconn(driver: Any, connect_kwargs: dict[str, Any], utf8_db: str) -> Any:
    """A connection to a UTF-8 database, so non-ASCII elements round-trip."""
    with driver.connect(**connect_kwargs, database=utf8_db, **UTF8) as c:
        yield c


def test_every_kind_and_element_type(uconn: Any) -> None:
    cols = []
    for i, (elem, _) in enumerate(ELEMENTS):
        cols += [f"s{i} SET({elem} NOT NULL)", f"m{i} MULTISET({elem} NOT NULL)",
                 f"l{i} LIST({elem} NOT NULL)"]
    cur = uconn.cursor()
    cur.execute(f"CREATE TEMP TABLE kinds (id INT, {', '.join(cols)})")
    n = len(cols)
    marks = ", ".join("?" * (n + 1))
    full: list[Any] = [1]
    empty: list[Any] = [2]
    for elem, values in ELEMENTS:
        full += [Set(values), Multiset(values + values[:1]), List(values)]
        empty += [Set([], elem), Multiset([], elem), List([], elem)]
    cur.executemany(f"INSERT INTO kinds VALUES ({marks})", [full, empty])
    cur.execute("INSERT INTO kinds (id) VALUES (3)")
    cur.execute("SELECT * FROM kinds ORDER BY id")
    rows = cur.fetchall()
    assert [r[0] for r in rows] == [1, 2, 3]
    for i, (elem, values) in enumerate(ELEMENTS):
        s, m, lst = rows[0][1 + 3 * i : 4 + 3 * i]
        assert type(s) is Set and s == set(values), elem
        assert type(m) is Multiset and Counter(map(_key, m)) == Counter(
            map(_key, values + values[:1])), elem
        assert type(lst) is List and lst == values, elem
        assert rows[1][1 + 3 * i : 4 + 3 * i] == (set(), [], []), elem
        assert rows[2][1 + 3 * i : 4 + 3 * i] == (None, None, None), elem
    assert [d[1] for d in cur.description[1:4]] == [19, 20, 21]


def test_nested_values_and_literals(conn: Any) -> None:
    cur = conn.cursor()
    cur.execute("CREATE TEMP TABLE nest (id INT, a LIST(ROW(x INT, y SET(DATE NOT NULL)) NOT "
                "NULL), b ROW(p LIST(MULTISET(INT NOT NULL) NOT NULL), q BOOLEAN))")
    a = List([Row((1, Set({dt.date(2024, 1, 1)})), ("x", "y")),
              Row((None, Set([], "date")), ("x", "y"))])
    b = Row((List([Multiset([3, 3]), Multiset([], "int")]), True), ("p", "q"))
    cur.execute("INSERT INTO nest VALUES (1, ?, ?)", [a, b])
    cur.execute("INSERT INTO nest VALUES (2, LIST{ROW(7, SET{'2000-02-29'})}, "
                "'ROW(LIST{MULTISET{1}}, \"t\")')")
    cur.execute("SELECT a, b FROM nest ORDER BY id")
    got = cur.fetchall()
    assert got[0] == (a, b)
    assert got[0][0][0].y == {dt.date(2024, 1, 1)} and got[0][1].q is True
    assert got[1] == ([(7, {dt.date(2000, 2, 29)})], ([[1]], True))


def test_named_fields_cardinality_and_catalog(conn: Any) -> None:
    cur = conn.cursor()
    cur.execute("CREATE TABLE cat_t (tags SET(VARCHAR(10) NOT NULL), pt ROW(x INT, y INT), "
                "ok BOOLEAN, note LVARCHAR(100))")
    cur.execute("INSERT INTO cat_t VALUES (SET{'a','b','a'}, ROW(1, 2), 't', 'n')")
    cur.execute("SELECT CARDINALITY(tags), pt FROM cat_t")
    count, pt = cur.fetchone()
    assert count == 2 and pt.x == 1 and pt["y"] == 2 and pt.fields == ("x", "y")
    cur.execute("SELECT c.colname, c.coltype, c.extended_id FROM syscolumns c, systables t "
                "WHERE c.tabid = t.tabid AND t.tabname = 'cat_t' ORDER BY c.colno")
    cols = cur.fetchall()
    assert [(n, t) for n, t, _ in cols] == [("tags", 19), ("pt", 22), ("ok", 41), ("note", 40)]
    xid = cols[0][2]
    assert cols[2][2] == 5 and cols[3][2] == 1 and xid >= 2048
    cur.execute("SELECT mode, type FROM sysxtdtypes WHERE extended_id = ?", [xid])
    assert cur.fetchone() == ("C", 19)
    cur.execute("SELECT seqno, levelno, parent_no, type, length FROM sysattrtypes "
                "WHERE extended_id = ? ORDER BY seqno", [xid])
    assert cur.fetchall() == [(1, 0, 0, 19, 0), (2, 1, 1, 13 + 256, 10)]
    conn.rollback()


def test_bad_values_name_the_element_and_keep_the_connection(conn: Any) -> None:
    cur = conn.cursor()
    cur.execute("CREATE TEMP TABLE bad (l LIST(INT NOT NULL), r ROW(a INT, b VARCHAR(3)))")
    with pytest.raises(ifxwire.DataError, match="element 1"):
        cur.execute("INSERT INTO bad (l) VALUES (?)", [List([1, 2**70])])
    with pytest.raises(ifxwire.DataError, match=r"element 0 .*NULL"):
        cur.execute("INSERT INTO bad (l) VALUES (?)", [List([None])])
    with pytest.raises(ifxwire.Error, match=r"ifxwire\.List"):
        cur.execute("INSERT INTO bad (l) VALUES (?)", [[1, 2]])
    with pytest.raises(ifxwire.Error) as info:  # the server converts: 'x' is no INTEGER
        cur.execute("INSERT INTO bad (l) VALUES (?)", [List(["x"])])
    assert info.value.sqlcode in (-1213, -1260)
    with pytest.raises(ifxwire.Error):
        cur.execute("INSERT INTO bad (l) VALUES ('SET{1')")
    cur.execute("INSERT INTO bad VALUES (?, ?)", [List([5]), Row((1, "abc"))])
    cur.execute("SELECT l, r FROM bad")
    assert cur.fetchall() == [([5], (1, "abc"))]


def test_collection_parameter_into_scalar_column_is_refused(conn: Any) -> None:
    cur = conn.cursor()
    cur.execute("CREATE TEMP TABLE t_cb (i INT)")
    with pytest.raises(ifxwire.Error) as info:
        cur.execute("INSERT INTO t_cb VALUES (?)", [List([1, 2])])
    assert info.value.sqlcode == -1260
    cur.execute("INSERT INTO t_cb VALUES (?)", [5])
    cur.execute("SELECT i FROM t_cb")
    assert cur.fetchall() == [(5,)]


def test_aio_round_trip(connect_kwargs: dict[str, Any], dbname: str) -> None:
    import asyncio

    from ifxwire import aio

    async def main() -> Any:
        c = await aio.connect(**connect_kwargs, database=dbname)
        try:
            cur = c.cursor()
            await cur.execute("CREATE TEMP TABLE ta (l LIST(DECIMAL(5,2) NOT NULL))")
            await cur.execute("INSERT INTO ta VALUES (?)", [List([Decimal("1.25")])])
            await cur.execute("SELECT l FROM ta")
            return await cur.fetchall()
        finally:
            await c.close()

    assert asyncio.run(main()) == [([Decimal("1.25")],)]


def test_description_names_the_types_and_row_classes_map_both_ways(conn: Any) -> None:
    from dataclasses import dataclass

    @dataclass
    class Point:
        x: int
        y: int

    cur = conn.cursor()
    cur.execute("CREATE TEMP TABLE pts (p ROW(x INT, y INT), tags SET(VARCHAR(5) NOT NULL))")
    cur.execute("SELECT p, tags FROM pts")
    code_p, code_t = cur.description[0][1], cur.description[1][1]
    assert code_p == 22 and code_p.type_name == "ROW(x integer, y integer)"
    assert code_t == 19 and code_t.type_name == "SET(varchar(5) not null)"
    cur.adapters.register_row_type("row(x integer, y integer)", Point)
    cur.execute("INSERT INTO pts (p) VALUES (?)", [Point(1, 2)])
    cur.execute("SELECT p FROM pts")
    assert cur.fetchall() == [(Point(1, 2),)]


def test_field_access_and_in_collection(conn: Any) -> None:
    cur = conn.cursor()
    cur.execute("CREATE TEMP TABLE fa (id INT, r ROW(a INT, b DECIMAL(5,2), d DATE, "
                "n ROW(x VARCHAR(5))), s SET(INT NOT NULL), v LIST(VARCHAR(5) NOT NULL))")
    cur.execute("INSERT INTO fa VALUES (1, ROW(7, 1.5, '2024-02-29', ROW('hi')), SET{1,2}, "
                "LIST{'a','b'})")
    cur.execute("INSERT INTO fa VALUES (2, NULL, SET{3}, NULL)")
    cur.execute("SELECT r.a, r.b, fa.r.d, r.n FROM fa ORDER BY id")
    assert cur.fetchall() == [(7, Decimal("1.50"), dt.date(2024, 2, 29), ("hi",)),
                              (None, None, None, None)]
    assert [d[1] for d in cur.description[:3]] == [2, 5, 7]
    cur.execute("SELECT id FROM fa WHERE r.a = 7 AND r.d = '2024-02-29'")
    assert cur.fetchall() == [(1,)]
    cur.execute("SELECT id FROM fa WHERE 2 IN s")
    assert cur.fetchall() == [(1,)]
    cur.execute("SELECT id FROM fa WHERE ? IN s", [3])
    assert cur.fetchall() == [(2,)]
    cur.execute("SELECT id FROM fa WHERE 'b' IN v")
    assert cur.fetchall() == [(1,)]
    with pytest.raises(ifxwire.Error) as info:
        cur.execute("SELECT r.zz FROM fa")
    assert info.value.sqlcode == -217


def test_named_row_types(conn: Any) -> None:
    from dataclasses import dataclass

    @dataclass
    class Address:
        street: str
        zip: int

    cur = conn.cursor()
    cur.execute("CREATE ROW TYPE addr_t (street VARCHAR(20), zip INT)")
    cur.execute("CREATE ROW TYPE person_t (name VARCHAR(20), addr addr_t, "
                "tags SET(VARCHAR(5) NOT NULL))")
    cur.execute("CREATE ROW TYPE emp_t (salary DECIMAL(8,2)) UNDER person_t")
    cur.execute("CREATE TABLE staff (id INT, p person_t, e emp_t, hist LIST(addr_t NOT NULL))")
    cur.execute("INSERT INTO staff VALUES (1, ROW('Ann', ROW('Main', 8000), SET{'x'}), "
                "ROW('Bob', NULL, SET{}, 10.5), LIST{ROW('A', 1)})")
    person = Row(("Cy", Row(("S", 2), ("street", "zip"), "addr_t"), Set({"q"})),
                 ("name", "addr", "tags"), "person_t")
    cur.execute("INSERT INTO staff (id, p) VALUES (2, ?)", [person])
    cur.execute("SELECT p, e, hist FROM staff ORDER BY id")
    assert [d[1].type_name for d in cur.description] == ["person_t", "emp_t",
                                                         "LIST(addr_t not null)"]
    (p1, e1, h1), (p2, e2, h2) = cur.fetchall()
    assert p1.type_name == "person_t" and p1.addr.type_name == "addr_t" and p1.addr.zip == 8000
    assert e1.fields == ("name", "addr", "tags", "salary") and e1.salary == Decimal("10.50")
    assert h1 == [("A", 1)] and h1[0].type_name == "addr_t"
    assert p2 == person and (e2, h2) == (None, None)
    cur.execute("SELECT p.addr FROM staff WHERE p.name = 'Ann'")
    assert cur.fetchone() == (("Main", 8000),)

    cur.adapters.register_row_type("addr_t", Address)
    cur.execute("SELECT p.addr, hist FROM staff WHERE id = 1")
    assert cur.fetchone()[0] == Address("Main", 8000)
    cur.execute("CREATE TABLE home (a addr_t)")
    cur.execute("INSERT INTO home VALUES (?)", [Address("N", 3)])  # bound through the dumper
    cur.execute("SELECT a FROM home")
    assert cur.fetchall() == [(Address("N", 3),)]

    cur.execute("SELECT t.name, t.mode FROM sysxtdtypes t WHERE t.mode = 'R' AND t.name "
                "IN ('addr_t', 'person_t', 'emp_t') ORDER BY t.extended_id")
    assert cur.fetchall() == [("addr_t", "R"), ("person_t", "R"), ("emp_t", "R")]
    cur.execute("SELECT COUNT(*) FROM sysinherits")
    assert cur.fetchone() == (1,)
    with pytest.raises(ifxwire.Error) as info:
        cur.execute("CREATE TABLE nope (x no_such_t)")
    assert info.value.sqlcode == -9628
    with pytest.raises(ifxwire.Error) as info:
        cur.execute("DROP ROW TYPE addr_t RESTRICT")  # columns use it
    assert info.value.sqlcode == -9990
    cur.execute("CREATE ROW TYPE spare_t (a INT)")
    cur.execute("DROP ROW TYPE spare_t RESTRICT")
    with pytest.raises(ifxwire.Error) as info:
        cur.execute("DROP ROW TYPE spare_t RESTRICT")
    assert info.value.sqlcode == -9992
    conn.rollback()
