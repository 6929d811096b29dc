"""Combined queries over real sockets (issue 23): a UNION column is typed from every branch,
not the first one (IBM JDBC's getTableTypes failed -1260 on CHAR(5) vs CHAR(7)), parenthesised
operands run (informix-driver's paren-union form), MINUS is EXCEPT, and a branch with another
number of columns is -317."""

from __future__ import annotations

from decimal import Decimal

import pytest

import ifxwire
from ifxwire.protocol.codes import TypeCode

pytestmark = pytest.mark.both_drivers  # (conftest.py: sync and asyncio)

ONE = "FROM systables WHERE tabid = 1"


def _describe(cur: ifxwire.Cursor) -> list[tuple[int, int | None]]:
    assert cur.description is not None
    return [(d[1], d[3]) for d in cur.description]


def test_union_of_char_constants_takes_the_longest_length(conn: ifxwire.Connection) -> None:
    cur = conn.cursor()
    # IBM JDBC DatabaseMetaData.getTableTypes() sends this shape.
    cur.execute(f"SELECT 'TABLE' {ONE} UNION SELECT 'SYNONYM' {ONE} UNION SELECT 'VIEW' {ONE}")
    assert _describe(cur) == [(TypeCode.CHAR, 7)]
    assert sorted(r[0] for r in cur.fetchall()) == ["SYNONYM", "TABLE", "VIEW"]


def test_union_varchar_with_char_is_varchar_of_the_longest(conn: ifxwire.Connection) -> None:
    cur = conn.cursor()
    cur.execute(f"SELECT tabname {ONE} UNION ALL SELECT 'a-much-longer-constant' {ONE}")
    (code, size), = _describe(cur)
    assert code == TypeCode.VARCHAR and size == 128
    cur.execute(f"SELECT 'ab' {ONE} UNION ALL SELECT tabname {ONE}")
    assert _describe(cur) == [(TypeCode.VARCHAR, 128)]
    assert [r[0] for r in cur.fetchall()] == ["ab", "systables"]


def test_union_promotes_numbers_and_keeps_the_fraction(conn: ifxwire.Connection) -> None:
    cur = conn.cursor()
    cur.execute(f"SELECT 1 {ONE} UNION SELECT 2.5 {ONE} ORDER BY 1")
    assert cur.description is not None and cur.description[0][1] == TypeCode.DECIMAL
    # Before the fix the first branch's INTEGER cut 2.5 to 2.
    assert cur.fetchall() == [(Decimal("1.0"),), (Decimal("2.5"),)]
    cur.execute(f"SELECT 1 {ONE} UNION ALL SELECT 2.5e0 {ONE} UNION ALL SELECT 3.25 {ONE}")
    assert cur.description is not None and cur.description[0][1] == TypeCode.FLOAT
    assert [r[0] for r in cur.fetchall()] == [1.0, 2.5, 3.25]


def test_union_deduplicates_across_storage_forms(conn: ifxwire.Connection) -> None:
    cur = conn.cursor()
    cur.execute(f"SELECT 2 {ONE} UNION SELECT 2.0 {ONE}")
    assert cur.fetchall() == [(Decimal("2.0"),)]


def test_parenthesised_operands_open_a_cursor(conn: ifxwire.Connection) -> None:
    cur = conn.cursor()
    # informix-driver tests/test_statement_classification.py, id paren-union
    cur.execute("(SELECT FIRST 1 tabid FROM systables) UNION (SELECT 99 FROM systables)")
    assert cur.description is not None and cur.description[0][0] == "tabid"
    assert sorted(r[0] for r in cur.fetchall()) == [1, 99]
    cur.execute(f"(SELECT 1 {ONE}) UNION ALL (SELECT 2 {ONE}) UNION ALL (SELECT 3 {ONE})")
    assert [r[0] for r in cur.fetchall()] == [1, 2, 3]
    cur.execute(f"SELECT tabid {ONE} UNION (SELECT 3 {ONE} UNION ALL SELECT 4.25 {ONE}) "
                "ORDER BY 1")
    assert [r[0] for r in cur.fetchall()] == [Decimal(1), Decimal(3), Decimal("4.25")]
    cur.execute("(SELECT FIRST 1 * FROM systables ORDER BY tabid) UNION ALL "
                "(SELECT * FROM systables WHERE tabid = 2)")
    assert cur.description is not None and cur.description[0][0] == "tabname"
    assert [r[0] for r in cur.fetchall()] == ["systables", "syscolumns"]
    cur.execute("(SELECT FIRST 2 tabid + 1 FROM systables ORDER BY 1) UNION ALL "
                f"(SELECT 0 {ONE})")
    assert cur.description is not None and cur.description[0][0] == "(expression)"
    assert [r[0] for r in cur.fetchall()] == [2, 3, 0]


def test_minus_and_intersect(conn: ifxwire.Connection) -> None:
    cur = conn.cursor()
    cur.execute("SELECT tabid FROM systables WHERE tabid < 4 MINUS "
                "SELECT tabid FROM systables WHERE tabid = 2 ORDER BY 1")
    assert cur.fetchall() == [(1,), (3,)]
    cur.execute("SELECT tabid FROM systables WHERE tabid < 4 INTERSECT "
                "SELECT tabid FROM systables WHERE tabid >= 2 ORDER BY 1")
    assert cur.fetchall() == [(2,), (3,)]


def test_branches_with_other_column_counts_are_317(conn: ifxwire.Connection) -> None:
    cur = conn.cursor()
    with pytest.raises(ifxwire.ProgrammingError) as e:
        cur.execute(f"SELECT 1, 2 {ONE} UNION SELECT 3 {ONE}")
    assert e.value.sqlcode == -317  # type: ignore[attr-defined]


def test_outer_column_inside_a_derived_union(conn: ifxwire.Connection) -> None:
    """A branch of a UNION/INTERSECT in a derived table naming a column of the query around
    it (Django's FIRST-limited combined subqueries): the server answered -217 on the derived
    table's own column, because typing the correlated column cached the outer scope's
    columns before the derived table had any. A plain derived table was not affected."""
    conn.execute("CREATE TEMP TABLE so_a (id INT, tag_id INT) WITH NO LOG")
    conn.execute("CREATE TEMP TABLE so_b (id INT) WITH NO LOG")
    conn.execute("INSERT INTO so_a VALUES (1, 1)")
    conn.execute("INSERT INTO so_a VALUES (2, 5)")
    conn.execute("INSERT INTO so_b VALUES (1)")
    conn.execute("INSERT INTO so_b VALUES (2)")
    for op in ("UNION", "INTERSECT"):
        rows = conn.execute(
            "SELECT a.id FROM so_a a WHERE EXISTS (SELECT FIRST 1 * FROM (SELECT b.id AS col1 "
            f"FROM so_b b WHERE b.id = a.tag_id {op} SELECT b.id AS col1 FROM so_b b "
            "WHERE b.id = a.id) x) ORDER BY 1").fetchall()
        assert rows == ([(1,), (2,)] if op == "UNION" else [(1,)])
