"""ROW and collection SQL beyond storing values (issue 13, second round): casts to named row
types, nested field access, constructors of non-constant values, IN on collections of rows,
collection-derived tables ``TABLE(…)``, and the errors Informix gives where it refuses.

Error codes are the Informix message catalogue's ([jcat], docs/SERVER.md) for the statements
the Guide to SQL says are refused.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pytest

import ifxwire
from ifxwire import List, Row, Set

pytestmark = pytest.mark.both_drivers  # (conftest.py: sync and asyncio)


def _code(cur: Any, sql: str, params: Any = None) -> int:
    with pytest.raises(ifxwire.Error) as info:
        cur.execute(sql, params)
    return int(info.value.sqlcode)


@pytest.fixture()
def people(conn: Any) -> Any:
    """The Guide to SQL's parents/children example, with a nested row for field access."""
    cur = conn.cursor()
    cur.execute("CREATE ROW TYPE person_t (name VARCHAR(20), id INT)")
    cur.execute("CREATE ROW TYPE place_t (city VARCHAR(20), geo ROW(x INT, y INT))")
    cur.execute("CREATE TABLE parents (id INT, name VARCHAR(20), "
                "children LIST(person_t NOT NULL), tags SET(VARCHAR(10) NOT NULL), "
                "home place_t, r ROW(a INT, n ROW(x INT, d DATE)))")
    cur.execute("INSERT INTO parents VALUES (1001, 'Ann', LIST{ROW('Bo', 1), ROW('Cy', 2)}, "
                "SET{'x', 'y'}, ROW('Oslo', ROW(1, 2)), ROW(7, ROW(8, '2024-02-29')))")
    cur.execute("INSERT INTO parents VALUES (1002, 'Dan', LIST{ROW('Ed', 3)}, SET{'y', 'z'}, "
                "NULL, ROW(9, NULL))")
    yield cur
    conn.rollback()


def test_casts_to_named_row_types(people: Any) -> None:
    cur = people
    cur.execute("CREATE TEMP TABLE homes (id INT, p person_t)")
    cur.execute("INSERT INTO homes VALUES (1, ROW('Al', 5)::person_t)")
    cur.execute("INSERT INTO homes VALUES (2, CAST(ROW('Bea', 6) AS person_t))")
    cur.execute("INSERT INTO homes VALUES (3, 'ROW(''Cat'', 7)'::person_t)")
    cur.execute("SELECT p FROM homes ORDER BY id")
    assert cur.description[0][1].type_name == "person_t"
    rows = [r[0] for r in cur.fetchall()]
    assert rows == [("Al", 5), ("Bea", 6), ("Cat", 7)]
    assert all(r.type_name == "person_t" and r.fields == ("name", "id") for r in rows)
    cur.execute("SELECT ROW('Di', 8)::person_t FROM homes WHERE id = 1")
    assert cur.description[0][1].type_name == "person_t"
    assert cur.fetchone()[0].name == "Di"
    cur.execute("SELECT id FROM homes WHERE p = ROW('Bea', 6)::person_t")
    assert cur.fetchall() == [(2,)]
    assert _code(cur, "SELECT ROW(1, 2, 3)::person_t FROM homes") == -9989
    assert _code(cur, "SELECT ROW('a', 1)::no_such_t FROM homes") == -9628


def test_row_type_ddl_errors(people: Any) -> None:
    cur = people
    assert _code(cur, "CREATE ROW TYPE person_t (a INT)") == -9991  # already exists
    assert _code(cur, "DROP ROW TYPE person_t RESTRICT") == -9990  # parents.children uses it
    cur.execute("CREATE ROW TYPE inner_t (a INT)")
    cur.execute("CREATE ROW TYPE outer_t (i inner_t)")
    assert _code(cur, "DROP ROW TYPE inner_t RESTRICT") == -9990  # outer_t uses it
    cur.execute("DROP ROW TYPE outer_t RESTRICT")
    cur.execute("DROP ROW TYPE inner_t RESTRICT")
    assert _code(cur, "DROP ROW TYPE inner_t RESTRICT") == -9992
    # Collection elements must be declared NOT NULL: the syntax requires it.
    assert _code(cur, "CREATE TEMP TABLE bad (s SET(INT))") == -201
    assert _code(cur, "CREATE TEMP TABLE bad (s LIST(ROW(a INT)))") == -201


def test_in_on_collections_of_rows(people: Any) -> None:
    cur = people
    cur.execute("SELECT id FROM parents WHERE ROW('Cy', 2)::person_t IN children")
    assert cur.fetchall() == [(1001,)]
    cur.execute("SELECT id FROM parents WHERE ROW('Ed', 3) IN children")
    assert cur.fetchall() == [(1002,)]
    cur.execute("SELECT id FROM parents WHERE ? IN children ORDER BY id",
                [Row(("Bo", 1), ("name", "id"), "person_t")])
    assert cur.fetchall() == [(1001,)]
    cur.execute("SELECT id FROM parents WHERE ROW('Bo', 9) IN children")
    assert cur.fetchall() == []
    cur.execute("CREATE TEMP TABLE nested (id INT, ls LIST(SET(INT NOT NULL) NOT NULL))")
    cur.execute("INSERT INTO nested VALUES (1, LIST{SET{2, 1}, SET{3}})")
    cur.execute("SELECT id FROM nested WHERE SET{1, 2} IN ls")
    assert cur.fetchall() == [(1,)]


def test_nested_field_access(people: Any) -> None:
    cur = people
    cur.execute("SELECT r.n.x, parents.r.n.d, home.geo.y, parents.home.city FROM parents "
                "ORDER BY id")
    assert cur.fetchall() == [(8, dt.date(2024, 2, 29), 2, "Oslo"), (None, None, None, None)]
    assert [d[1] for d in cur.description] == [2, 7, 2, 13]
    cur.execute("SELECT p.id FROM parents p WHERE p.r.n.x = 8 AND r.n.d > '2024-01-01'")
    assert cur.fetchall() == [(1001,)]
    cur.execute("SELECT id FROM parents WHERE home.geo.x = ?", [1])
    assert cur.fetchall() == [(1001,)]
    cur.execute("SELECT informix.parents.name FROM parents WHERE id = 1002")  # owner.table.col
    assert cur.fetchall() == [("Dan",)]
    assert _code(cur, "SELECT r.n.zz FROM parents") == -217
    assert _code(cur, "SELECT r.a.x FROM parents") == -217  # a is no ROW


def test_constructors_of_non_constant_values(people: Any) -> None:
    cur = people
    cur.execute("CREATE TEMP TABLE built (id INT, r ROW(a INT, b VARCHAR(10)), "
                "l LIST(INT NOT NULL), s SET(VARCHAR(20) NOT NULL), "
                "m LIST(ROW(p INT, q DECIMAL(5,2)) NOT NULL))")
    cur.execute("INSERT INTO built SELECT id, ROW(id + 1, name), LIST{id, id * 2, ?}, "
                "SET{name, 'k', name}, LIST{ROW(id, 1.5), ROW(?::INT, id / 1000)} FROM parents",
                [7, 3])
    cur.execute("SELECT id, r, l, s, m FROM built ORDER BY id")
    assert cur.fetchall() == [
        (1001, (1002, "Ann"), [1001, 2002, 7], {"Ann", "k"},
         [(1001, Decimal("1.50")), (3, Decimal("1.00"))]),
        (1002, (1003, "Dan"), [1002, 2004, 7], {"Dan", "k"},
         [(1002, Decimal("1.50")), (3, Decimal("1.00"))]),
    ]
    cur.execute("UPDATE built SET l = LIST{CARDINALITY(l), ?} WHERE id = 1001", [5])
    cur.execute("SELECT l FROM built WHERE id = 1001")
    assert cur.fetchone() == ([3, 5],)
    cur.execute("SELECT ROW(id, name), SET{id} FROM parents WHERE id = 1002")
    assert cur.fetchone() == ((1002, "Dan"), {1002})
    assert [d[1].type_name for d in cur.description] == [
        "ROW(f1 integer, f2 varchar(20))", "SET(integer not null)"]
    cur.execute("SELECT id FROM parents WHERE 'x' IN SET{name, 'x'} AND id = 1001")
    assert cur.fetchall() == [(1001,)]
    cur.execute("SELECT id FROM parents WHERE name IN LIST{'Dan', 'Eve'}")
    assert cur.fetchall() == [(1002,)]
    # an element that turns out NULL is refused when the row is built
    assert _code(cur, "SELECT LIST{id, ?} FROM parents", [None]) == -9978
    assert _code(cur, "UPDATE built SET l = LIST{(SELECT MAX(id) FROM parents "
                      "WHERE id < 0)}") == -9978


def test_collection_size_is_bounded_clearly(conn: Any) -> None:
    """A value whose wire form would pass what every client reads (4 MiB, the driver's
    COMPLEX_ALLOWANCE) is refused when written, naming its size; one just under goes both
    ways whole; the session goes on."""
    cur = conn.cursor()
    cur.execute("CREATE TEMP TABLE big (id INT, l LIST(LVARCHAR(2000) NOT NULL))")
    under = List(["x" * 2000] * 2000)  # ~4.0 MB of elements
    cur.execute("INSERT INTO big VALUES (1, ?)", [under])
    cur.execute("SELECT l FROM big WHERE id = 1")
    assert cur.fetchone()[0] == under
    with pytest.raises(ifxwire.NotSupportedError, match=r"ROW/collection value of \d+ bytes"):
        cur.execute("INSERT INTO big VALUES (2, ?)", [List(["y" * 2000] * 2200)])
    with pytest.raises(ifxwire.NotSupportedError, match="bytes on the wire"):
        cur.execute("UPDATE big SET l = ? WHERE id = 1", [List(["w" * 2000] * 2100)])
    cur.execute("SELECT COUNT(*), SUM(CARDINALITY(l)) FROM big")
    assert cur.fetchone() == (1, 2000)
    conn.rollback()


def test_collection_derived_tables(people: Any) -> None:
    cur = people
    cur.execute("SELECT * FROM TABLE((SELECT tags FROM parents WHERE id = 1001)) AS x(tag) "
                "ORDER BY tag")
    assert cur.fetchall() == [("x",), ("y",)]
    assert cur.description[0][0] == "tag" and cur.description[0][1] == 13
    # a collection of ROWs: one column per field, named by the fields or the derived list
    cur.execute("SELECT name, id FROM TABLE((SELECT children FROM parents WHERE id = 1001)) "
                "c_table ORDER BY id")
    assert cur.fetchall() == [("Bo", 1), ("Cy", 2)]
    cur.execute("SELECT * FROM TABLE((SELECT children FROM parents WHERE id = 1001)) "
                "AS c(kid, num) WHERE num > 1")
    assert cur.fetchall() == [("Cy", 2)]
    assert [d[0] for d in cur.description] == ["kid", "num"]
    # joined with a table, and correlated from a subquery in the projection
    cur.execute("SELECT p.id, t.tag FROM parents p, TABLE((SELECT tags FROM parents "
                "WHERE id = 1002)) t(tag) WHERE p.name = 'Ann' ORDER BY 2")
    assert cur.fetchall() == [(1001, "y"), (1001, "z")]
    cur.execute("SELECT id, (SELECT COUNT(*) FROM TABLE(parents.children) c) FROM parents "
                "ORDER BY id")
    assert cur.fetchall() == [(1001, 2), (1002, 1)]
    cur.execute("SELECT id FROM parents WHERE 'z' IN (SELECT tag FROM TABLE(parents.tags) "
                "AS t(tag))")
    assert cur.fetchall() == [(1002,)]
    # a collection expression: literals, parameters cast to a collection type
    cur.execute("SELECT * FROM TABLE(LIST{3, 1, 2}) AS l(n)")
    assert cur.fetchall() == [(3,), (1,), (2,)]
    cur.execute("SELECT SUM(n) FROM TABLE(SET{1, 1, 2}) AS s(n)")
    assert cur.fetchone()[0] == 3
    cur.execute("SELECT n FROM TABLE(CAST(? AS LIST(DATE NOT NULL))) AS l(n)",
                [List([dt.date(2000, 1, 2)])])
    assert cur.fetchall() == [(dt.date(2000, 1, 2),)]
    cur.execute("SELECT v FROM TABLE(MULTISET(SELECT id FROM parents)) AS m(v) ORDER BY v")
    assert cur.fetchall() == [(1001,), (1002,)]
    cur.execute("SELECT 1 FROM TABLE(SET{1})")
    assert cur.fetchall() == [(1,)]


def test_collection_derived_table_errors(people: Any) -> None:
    cur = people
    # the collection expression must not use the tables of its own FROM clause
    assert _code(cur, "SELECT COUNT(*) FROM parents, TABLE(parents.children) c") == -217
    assert _code(cur, "SELECT * FROM TABLE(parents.id) x") == -217
    assert _code(cur, "SELECT * FROM TABLE((SELECT id FROM parents WHERE id = 1001)) x"
                 ) == -9610  # not a collection
    assert _code(cur, "SELECT * FROM TABLE(?) x", [Set({1})]) == -9657
    assert _code(cur, "SELECT * FROM TABLE((SELECT tags FROM parents WHERE id = 1001)) "
                      "AS x(a, b)") == -9621
    assert _code(cur, "SELECT * FROM TABLE((SELECT home FROM parents WHERE id = 1002)) x"
                 ) == -9610
    # a NULL collection is an error, not an empty table
    cur.execute("CREATE TEMP TABLE holes (s SET(INT NOT NULL))")
    cur.execute("INSERT INTO holes VALUES (NULL)")
    assert _code(cur, "SELECT * FROM TABLE((SELECT s FROM holes)) x") == -9976
    # collection-derived tables are read-only
    for sql in ("INSERT INTO TABLE((SELECT tags FROM parents WHERE id = 1001)) VALUES ('q')",
                "UPDATE TABLE((SELECT tags FROM parents WHERE id = 1001)) SET tag = 'q'",
                "DELETE FROM TABLE((SELECT tags FROM parents WHERE id = 1001))"):
        assert _code(cur, sql) == -9945, sql
    cur.execute("SELECT COUNT(*) FROM parents")  # and the connection goes on
    assert cur.fetchone() == (2,)
