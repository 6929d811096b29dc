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

from .manual import fresh_database, rows


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

