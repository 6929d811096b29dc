"""The described types of arithmetic results, sixteenth round (issue 23), as
cursor.description reads them from the embedded server over sockets.

Pages: ESQL/C Programmer's Manual, "Obtain the DECIMAL data type of the arithmetic result"
(ids_esqlc_0138: the table of fixed-point results, MIN(32, MAX(p1 - s1, p2 - s2) + MAX(s1,
s2) + 1) for + and -, MIN(32, p1 + p2) with scale s1 + s2 for *, floating DECIMAL(32) for
/; and "for an arithmetic operation between a fixed-point decimal of DECIMAL(8,3) and a
FLOAT value, [the FLOAT converts] to a floating-point decimal of DECIMAL(17). The arithmetic
result has a data type of DECIMAL(17)"), "Convert numbers to numbers" (ids_esqlc_0135:
SMALLINT with INTEGER is INTEGER, SMALLFLOAT with an integer is FLOAT), Guide to SQL:
Reference, "SMALLFLOAT" (ids_sqr_143: a SMALLFLOAT converts to a DECIMAL of nine digits),
"MONEY(p,s)" (MONEY alone is MONEY(16,2)) and "Manipulating DATE Values" (DATE - DATE is an
INTEGER of days, DATE + INTEGER a DATE). Before this round a DECIMAL with a FLOAT was
described as DECIMAL(32); every other line here was already right and stays as a guard.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import ifxwire

from .manual import fresh_database

DECIMAL, MONEY, INTEGER, FLOAT, DATE = 5, 8, 2, 3, 7


@pytest.fixture()
def cur(connect_kwargs: dict[str, Any]) -> Iterator[ifxwire.Cursor]:
    with fresh_database(connect_kwargs, "desc16") as conn:
        c = conn.cursor()
        c.execute("CREATE TABLE t (d1 DECIMAL(8,2), d2 DECIMAL(5,3), i INT, si SMALLINT, "
                  "m MONEY, f FLOAT, sf SMALLFLOAT, dt DATE, d3 DECIMAL(8,3))")
        c.execute("INSERT INTO t VALUES (1.5, 2.25, 7, 3, 4, 0.5, 0.5, '2024-02-28', 1.5)")
        yield c


def described(cur: ifxwire.Cursor, expr: str) -> tuple[Any, Any, Any]:
    """(type code, precision, scale) of the one select item."""
    cur.execute(f"SELECT {expr} FROM t")
    cur.fetchall()
    d = cur.description[0]
    code = d[1] if isinstance(d[1], int) else int(d[1])
    return code & 0xFF, d[4], d[5]


@pytest.mark.parametrize(("expr", "want"), [
    ("d1 * d2", (DECIMAL, 13, 5)),   # p1 + p2, s1 + s2
    ("d1 + d2", (DECIMAL, 10, 3)),   # max(6, 2) + 3 + 1, max(2, 3)
    ("d1 - d2", (DECIMAL, 10, 3)),
    ("d1 * i", (DECIMAL, 18, 2)),    # INTEGER as DECIMAL(10,0)
    ("si * 1.5", (DECIMAL, 7, 1)),   # SMALLINT as DECIMAL(5,0), 1.5 a DECIMAL(2,1)
    ("si + i", (INTEGER, 10, 0)),
    ("sf * 2", (FLOAT, None, None)),
    ("dt - dt", (INTEGER, 10, 0)),
    ("m", (MONEY, 16, 2)),
])
def test_already_right(cur: ifxwire.Cursor, expr: str, want: tuple[Any, ...]) -> None:
    code, prec, scale = described(cur, expr)
    assert code == want[0]
    if want[1] is not None:
        assert (prec, scale) == want[1:]


def test_date_plus_integer_is_a_date(cur: ifxwire.Cursor) -> None:
    assert described(cur, "dt + 1")[0] == DATE


@pytest.mark.parametrize(("expr", "prec"), [
    ("d3 + f", 17), ("d3 * f", 17), ("f - d3", 17),  # the page's own example
    ("d1 + sf", 9),                                    # SMALLFLOAT: nine digits
])
def test_a_decimal_with_a_float_is_a_floating_decimal_17(cur: ifxwire.Cursor, expr: str,
                                                         prec: int) -> None:
    """ids_esqlc_0138: DECIMAL(8,3) with a FLOAT is DECIMAL(17), floating (no scale); a
    SMALLFLOAT converts to nine digits (ids_sqr_143), so DECIMAL(8,2) with one is
    DECIMAL(9) [inference: the wider operand's precision, from the page's one example]."""
    code, p, scale = described(cur, expr)
    assert code == DECIMAL and p == prec
    assert scale in (None, 255)  # floating: no scale
    cur.execute(f"SELECT {expr} FROM t")
    assert cur.fetchone()[0] is not None


def test_an_integer_literal_past_int8_keeps_every_digit(cur: ifxwire.Cursor) -> None:
    """A literal integer outside INTEGER's range is a DECIMAL(n,0) of its n digits (up to
    32, Guide to SQL: Reference, DECIMAL(p,s): 32 significant digits); its value is exact.
    12345678901234567890 came back as 12345678901234567000 (SQLite read the bare number as
    a REAL past 2**63)."""
    cur.execute("SELECT 12345678901234567890, -12345678901234567890, "
                "99999999999999999999999999999999, 12345678901234567890 + 1 FROM t")
    assert [str(v) for v in cur.fetchone()] == [
        "12345678901234567890", "-12345678901234567890",
        "99999999999999999999999999999999", "12345678901234567891"]
    assert [(d[4], d[5]) for d in cur.description[:3]] == [(20, 0), (20, 0), (32, 0)]
