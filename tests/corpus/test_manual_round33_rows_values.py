"""ROW values, numbers into short character types and a dropped overload, thirty-third
session, through the real driver and the embedded server over sockets. The statements are
ours, modelled on the pages.

Pages: Guide to SQL: Syntax, "ROW Constructors" (ids_sqs_1469) and "Using Dot Notation with
Row-Type Expressions" (ids_sqs_1438); Database Design, typed tables (ids_ddi_109); Guide to
SQL: Reference, "Converting Between Number and Character" (ids_sqr_169); Syntax, DROP
FUNCTION (ids_sqs_0454) and routine resolution (ids_sqs_1725). Code -1207 "Converted value
does not fit into the allotted space" from IBM JDBC's message catalogue [jcat].
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import ifxwire

from .manual import fresh_database, rows, sqlcode


@pytest.fixture()
def cur(connect_kwargs: dict[str, Any]) -> Iterator[ifxwire.Cursor]:
    with fresh_database(connect_kwargs, "rows33") as conn:
        yield conn.cursor()


# --- 1. a named ROW constructor holding a cast ROW constructor (ids_sqs_1469) ----------------
def _address_types(cur: ifxwire.Cursor) -> None:
    cur.execute("CREATE ROW TYPE zip_t (z_code CHAR(5), z_suffix CHAR(4))")
    cur.execute("CREATE ROW TYPE address_t (street VARCHAR(20), city VARCHAR(20), "
                "state CHAR(2), zip zip_t)")


def test_nested_row_constructor_with_an_inner_cast(cur: ifxwire.Cursor) -> None:
    """``ROW('1 Main', …, ROW('94608','1234')::zip_t)::address_t`` (ids_sqs_1469 casts the
    outer constructor; the inner one cast to its field's type is the same value). Both the
    INSERT and the SELECT were -1260: the inner cast's constant was its JSON storage, which
    the outer constructor read as literal text."""
    _address_types(cur)
    cur.execute("CREATE TABLE emp2 (name VARCHAR(30), address address_t)")
    cur.execute("INSERT INTO emp2 VALUES ('A', ROW('1 Main', 'Oakland', 'CA', "
                "ROW('94608', '1234'))::address_t)")
    cur.execute("INSERT INTO emp2 VALUES ('B', ROW('1 Main', 'Oakland', 'CA', "
                "ROW('94608', '1234')::zip_t)::address_t)")
    (a,), (b,) = rows(cur, "SELECT address FROM emp2 ORDER BY name")
    assert a == b == ("1 Main", "Oakland", "CA", ("94608", "1234"))
    assert b.zip.z_code == "94608"
    got = rows(cur, "SELECT ROW('x', 'y', 'CA', ROW('94608', '1234')::zip_t)::address_t "
                    "FROM systables WHERE tabid = 1")
    assert got == [(("x", "y", "CA", ("94608", "1234")),)]
    assert got[0][0].zip == ("94608", "1234")
    # the two constructors compare equal, and find the stored row
    assert rows(cur, "SELECT name FROM emp2 WHERE address = ROW('1 Main', 'Oakland', 'CA', "
                     "ROW('94608', '1234')::zip_t)::address_t ORDER BY name") == [("A",), ("B",)]


def test_nested_cast_row_into_a_typed_table(cur: ifxwire.Cursor) -> None:
    """The same constructor as a typed table's row (ids_ddi_109: the row is an instance of
    the type), and the inner cast as one column's value."""
    _address_types(cur)
    cur.execute("CREATE TABLE emp3 OF TYPE address_t")
    cur.execute("INSERT INTO emp3 VALUES (ROW('1 Main', 'Oakland', 'CA', "
                "ROW('94608', '1234')::zip_t)::address_t)")
    cur.execute("INSERT INTO emp3 VALUES ('2 Elm', 'Oakland', 'CA', ROW('94609', '0001')::zip_t)")
    assert rows(cur, "SELECT street, zip.z_code, zip.z_suffix FROM emp3 ORDER BY street") == [
        ("1 Main", "94608", "1234"), ("2 Elm", "94609", "0001")]


def test_cast_row_inside_other_constructors(cur: ifxwire.Cursor) -> None:
    """A cast ROW or collection constant inside a SET or an unnamed ROW (same defect: DATE,
    MONEY and BOOLEAN fields were read back from their storage form as text)."""
    cur.execute("CREATE ROW TYPE dz_t (d DATE, m MONEY(8,2), b BOOLEAN)")
    (got,), = rows(cur, "SELECT SET{ROW(DATE('01/02/2020'), 3.5, 't')::dz_t} "
                        "FROM systables WHERE tabid = 1")
    (row,) = got
    assert (str(row.d), str(row.m), row.b) == ("2020-01-02", "3.50", True)
    assert rows(cur, "SELECT ROW(1, SET{1, 2}::SET(INT NOT NULL)) FROM systables "
                     "WHERE tabid = 1") == [((1, {1, 2}),)]


# --- 2. a table's name as its row (ids_sqs_1438) --------------------------------------------
def _tab1(cur: ifxwire.Cursor) -> None:
    cur.execute("CREATE ROW TYPE row_t (part_id INT, amt INT)")
    cur.execute("CREATE TABLE tab1 OF TYPE row_t")
    cur.execute("INSERT INTO tab1 VALUES (ROW(1, 7))")
    cur.execute("INSERT INTO tab1 VALUES (ROW(2, 10))")


def test_dot_notation_on_a_subquery_of_a_whole_row(cur: ifxwire.Cursor) -> None:
    """ids_sqs_1438's statement, as printed: ``(SELECT t FROM tab1 t WHERE part_id =
    1).part_id`` inserts 1. It was -217 (``t`` looked for as a column)."""
    _tab1(cur)
    cur.execute("CREATE TABLE tab2 (colx INT)")
    cur.execute("INSERT INTO tab2 VALUES ((SELECT t FROM tab1 t WHERE part_id = 1).part_id)")
    assert rows(cur, "SELECT colx FROM tab2") == [(1,)]
    assert rows(cur, "SELECT (SELECT t FROM tab1 t WHERE part_id = 2).amt "
                     "FROM systables WHERE tabid = 1") == [(10,)]
    # one row at most, as any scalar subquery
    assert sqlcode(cur, "SELECT (SELECT t FROM tab1 t).amt FROM systables "
                        "WHERE tabid = 1") == -284


def test_a_typed_tables_alias_is_a_value_of_its_row_type(cur: ifxwire.Cursor) -> None:
    """``SELECT t FROM tab1 t``: each row as a ``row_t`` value, named after the alias (the
    table's own name serves when it has none); it compares with a cast constructor and
    goes into a ``row_t`` column."""
    _tab1(cur)
    got = rows(cur, "SELECT t FROM tab1 t ORDER BY part_id")
    assert got == [((1, 7),), ((2, 10),)]
    assert got[0][0].type_name == "row_t" and got[0][0].amt == 7
    assert cur.description is not None
    assert cur.description[0][0] == "t"
    assert getattr(cur.description[0][1], "type_name", "") == "row_t"
    assert rows(cur, "SELECT tab1 FROM tab1 WHERE part_id = 2") == [((2, 10),)]
    assert rows(cur, "SELECT part_id FROM tab1 t WHERE t = ROW(2, 10)::row_t") == [(2,)]
    cur.execute("CREATE TABLE holder (r row_t)")
    cur.execute("INSERT INTO holder SELECT t FROM tab1 t WHERE part_id = 1")
    assert rows(cur, "SELECT r.amt FROM holder") == [(7,)]
    # a ROW has no order (-9926, as for a ROW column)
    assert sqlcode(cur, "SELECT t FROM tab1 t ORDER BY t") == -9926


def test_an_untyped_tables_alias_is_an_unnamed_row(cur: ifxwire.Cursor) -> None:
    """An untyped table's row: an unnamed ROW whose fields are its columns (our decision by
    the ROW rules, docs/SERVER.md: no page shows it)."""
    cur.execute("CREATE TABLE u1 (a INT NOT NULL, b VARCHAR(10))")
    cur.execute("INSERT INTO u1 VALUES (1, 'x')")
    got = rows(cur, "SELECT u FROM u1 u")
    assert got == [((1, "x"),)]
    assert got[0][0].type_name == "" and got[0][0].b == "x"
    assert cur.description is not None
    assert getattr(cur.description[0][1], "type_name", "") == "ROW(a integer, b varchar(10))"
    assert rows(cur, "SELECT (SELECT u FROM u1 u WHERE a = 1).b FROM systables "
                     "WHERE tabid = 1") == [("x",)]


def test_a_column_of_that_name_wins(cur: ifxwire.Cursor) -> None:
    """Informix resolves column names first: a column (or a display label) named like the
    alias is that column, and a derived table's name is not a row here."""
    cur.execute("CREATE TABLE t (t INT, u INT)")
    cur.execute("INSERT INTO t VALUES (5, 6)")
    assert rows(cur, "SELECT t FROM t") == [(5,)]
    cur.execute("CREATE TABLE w (a INT)")
    cur.execute("INSERT INTO w VALUES (9)")
    assert rows(cur, "SELECT t FROM w, t") == [(5,)]
    assert rows(cur, "SELECT a AS w FROM w") == [(9,)]
    assert sqlcode(cur, "SELECT d FROM (SELECT a FROM w) d") == -217


# --- 3. a number into a character type too short for it (ids_sqr_169) -----------------------
def test_alter_modify_to_a_short_char_is_refused(cur: ifxwire.Cursor) -> None:
    """``ALTER TABLE tn MODIFY n CHAR(3)`` over 12345: "If the character column is not large
    enough to receive the number ... it cannot complete the ALTER TABLE statement" (the
    table is left as it was). It stored '123'. Wide enough, the values convert."""
    cur.execute("CREATE TABLE tn (n INT)")
    cur.execute("INSERT INTO tn VALUES (12345)")
    assert sqlcode(cur, "ALTER TABLE tn MODIFY n CHAR(3)", fetch=False) == -1207
    assert rows(cur, "SELECT n FROM tn") == [(12345,)]
    assert rows(cur, "SELECT c.coltype FROM syscolumns c, systables t WHERE c.tabid = t.tabid "
                     "AND t.tabname = 'tn' AND c.colname = 'n'") == [(2,)]
    cur.execute("ALTER TABLE tn MODIFY n CHAR(5)")
    assert rows(cur, "SELECT n FROM tn") == [("12345",)]


@pytest.mark.parametrize("column", ["CHAR(3)", "NCHAR(3)", "VARCHAR(3)", "NVARCHAR(3)",
                                    "LVARCHAR(3)"])
def test_a_number_into_a_short_character_column(cur: ifxwire.Cursor, column: str) -> None:
    """A literal, a host variable and a numeric column's value into a character column of
    three: -1207 (it was truncated to '123'). A number that fits is stored as its text."""
    cur.execute(f"CREATE TABLE tc (c {column}, n INT)")
    assert sqlcode(cur, "INSERT INTO tc (c) VALUES (12345)", fetch=False) == -1207
    assert sqlcode(cur, "INSERT INTO tc (c) VALUES (?)", (12345,), fetch=False) == -1207
    cur.execute("INSERT INTO tc (c, n) VALUES ('x', 12345)")
    assert sqlcode(cur, "UPDATE tc SET c = n", fetch=False) == -1207
    assert sqlcode(cur, "INSERT INTO tc (c) SELECT n FROM tc", fetch=False) == -1207
    cur.execute("INSERT INTO tc (c) VALUES (123)")
    cur.execute("INSERT INTO tc (c) VALUES (-12)")
    assert rows(cur, "SELECT c FROM tc WHERE n IS NULL ORDER BY c", strip=True) == [
        ("-12",), ("123",)]


@pytest.mark.parametrize("sql", [
    "SELECT CAST(12345 AS CHAR(3)) FROM systables WHERE tabid = 1",
    "SELECT 12345::CHAR(3) FROM systables WHERE tabid = 1",
    "SELECT 12345::VARCHAR(4) FROM systables WHERE tabid = 1",
    "SELECT CAST(tabid + 12344 AS CHAR(3)) FROM systables WHERE tabid = 1",
    "SELECT CAST(d AS CHAR(7)) FROM tnum",
    "SELECT CAST(m AS NCHAR(4)) FROM tnum",
    "SELECT CAST(f AS CHAR(3)) FROM tnum",
    "SELECT CAST(sf AS VARCHAR(2)) FROM tnum",
    "SELECT CAST(b AS NVARCHAR(5)) FROM tnum",
    "SELECT CAST(s AS LVARCHAR(2)) FROM tnum",
    "SELECT CAST(i8 AS CHAR(1)) FROM tnum",
])
def test_a_cast_of_a_number_to_a_short_character_type(cur: ifxwire.Cursor, sql: str) -> None:
    """CAST and ``::`` of every numeric type ("it cannot complete the ... cast"): -1207,
    where each gave the leading characters."""
    cur.execute("CREATE TABLE tnum (d DECIMAL(8,2), m MONEY(8,2), f FLOAT, sf SMALLFLOAT, "
                "b BIGINT, s SMALLINT, i8 INT8)")
    cur.execute("INSERT INTO tnum VALUES (12345.5, 12.5, 1.25, 2.5, 123456, 123, 99)")
    assert sqlcode(cur, sql) == -1207


def test_what_fits_and_strings_are_unchanged(cur: ifxwire.Cursor) -> None:
    """A number whose text fits converts; a string too long for CHAR(n) is still cut in a
    database that is not ANSI (Informix's rule for strings, not numbers)."""
    cur.execute("CREATE TABLE tnum (d DECIMAL(8,2), f FLOAT, b BIGINT)")
    cur.execute("INSERT INTO tnum VALUES (12345.5, 1.25, 123456)")
    assert rows(cur, "SELECT CAST(d AS CHAR(8)), CAST(f AS VARCHAR(4)), CAST(b AS CHAR(6)), "
                     "CAST(12345 AS CHAR(5)) FROM tnum") == [("12345.50", "1.25", "123456",
                                                              "12345")]
    assert rows(cur, "SELECT CAST('abcdef' AS CHAR(3)) FROM systables WHERE tabid = 1") == [
        ("abc",)]
    cur.execute("CREATE TABLE ts (c CHAR(3))")
    cur.execute("INSERT INTO ts VALUES ('abcdef')")
    assert rows(cur, "SELECT c FROM ts") == [("abc",)]


def test_spl_let_of_a_number_into_a_short_char(cur: ifxwire.Cursor) -> None:
    """SPL's LET converts as an assignment does: -1207 (it returned '123')."""
    cur.execute("CREATE FUNCTION let3(n INT) RETURNING CHAR(3); DEFINE c3 CHAR(3); "
                "LET c3 = n; RETURN c3; END FUNCTION")
    cur.execute("CREATE FUNCTION let3c() RETURNING CHAR(3); DEFINE c3 CHAR(3); "
                "LET c3 = 12345; RETURN c3; END FUNCTION")
    assert rows(cur, "EXECUTE FUNCTION let3(123)") == [("123",)]
    assert sqlcode(cur, "EXECUTE FUNCTION let3(12345)") == -1207
    assert sqlcode(cur, "EXECUTE FUNCTION let3c()") == -1207


# --- 4. a dropped overload (DROP FUNCTION, ids_sqs_0454; routine resolution) ----------------
def _sp2(cur: ifxwire.Cursor) -> None:
    cur.execute("CREATE FUNCTION sp2(x INT) RETURNING INT; RETURN x; END FUNCTION")
    cur.execute("CREATE FUNCTION sp2(x CHAR(5)) RETURNING INT; RETURN 99; END FUNCTION")


def test_a_dropped_overload_is_not_run_again(cur: ifxwire.Cursor) -> None:
    """After ``DROP FUNCTION sp2(CHAR(5))`` the same call text resolves to the INT overload
    (the character argument converts), as a first call of it does. The driver's cached
    statement ran the dropped routine's number: -674 "Routine (2) …"."""
    _sp2(cur)
    assert rows(cur, "EXECUTE FUNCTION sp2('12')") == [(99,)]
    assert rows(cur, "SELECT sp2('12') FROM systables WHERE tabid = 1") == [(99,)]
    cur.execute("DROP FUNCTION sp2(CHAR(5))")
    assert rows(cur, "EXECUTE FUNCTION sp2('12')") == [(12,)]
    assert rows(cur, "SELECT sp2('12') FROM systables WHERE tabid = 1") == [(12,)]
    assert rows(cur, "EXECUTE FUNCTION sp2('12')") == [(12,)]


def test_a_new_overload_is_resolved_and_another_session_drops(
        cur: ifxwire.Cursor, connect_kwargs: dict[str, Any]) -> None:
    """A cached call resolves again once an overload of its name is created, and when
    another session drops the one it ran."""
    cur.execute("CREATE FUNCTION sp3(x INT) RETURNING INT; RETURN x; END FUNCTION")
    assert rows(cur, "EXECUTE FUNCTION sp3('7')") == [(7,)]
    cur.execute("CREATE FUNCTION sp3(x CHAR(5)) RETURNING INT; RETURN 99; END FUNCTION")
    assert rows(cur, "EXECUTE FUNCTION sp3('7')") == [(99,)]
    database = rows(cur, "SELECT DBINFO('dbname') FROM systables WHERE tabid = 1")[0][0]
    with ifxwire.connect(**connect_kwargs, database=database.strip(),
                         autocommit=True) as other:
        other.cursor().execute("DROP FUNCTION sp3(CHAR(5))")
    assert rows(cur, "EXECUTE FUNCTION sp3('7')") == [(7,)]
    cur.execute("DROP FUNCTION sp3(INT)")
    with pytest.raises(ifxwire.Error) as info:
        cur.execute("EXECUTE FUNCTION sp3('7')")
        cur.fetchall()
    assert info.value.sqlcode == -674  # type: ignore[attr-defined]
    assert "sp3" in str(info.value)  # the routine's name, not its number
