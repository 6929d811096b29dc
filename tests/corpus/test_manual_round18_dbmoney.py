"""DBMONEY, eighteenth manual round (issue 23): the currency symbols and separators a
client's login sets, in TO_CHAR's numeric mask, TO_NUMBER and a monetary string stored in a
MONEY column, through the real driver (``env={"DBMONEY": ...}`` goes in its login, as DBDATE
does) and the embedded server.

Pages of the HCL Informix 14.10 library (https://help.hcl-software.com/hclinformix/1410/):
Guide to SQL: Reference ``ids_sqr_218`` (DBMONEY: ``[front]{.|,}[back]``, the separator not
named becomes the thousands separator; unset, 100.50 is ``$100.50``); GLS User's Guide
``ids_gug_060`` (DBMONEY before the locale's notation), ``ids_gug_237`` ("DBMONEY
extensions": a table of masks, values, DBMONEY settings and outputs, compared as printed);
Guide to SQL: Syntax ``ids_sqs_1544`` (TO_NUMBER discards the currency symbol); DataBlade API
Programmer's Guide ``ids_dapip_0105`` (a monetary string: ``$1,345.77``, "the thousands
separator and the currency symbol are optional"). The statements are ours.
"""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal as D
from typing import Any

import pytest

import ifxwire

from .manual import rows, sqlcode

ONE = " FROM systables WHERE tabid = 1"


@pytest.fixture()
def money_conn(request: pytest.FixtureRequest, connect_kwargs: dict[str, Any],
               stores_demo: str) -> Iterator[ifxwire.Connection]:
    """A stores_demo connection whose login sends the DBMONEY the test is parametrized with
    (None: the login sends none)."""
    env = {} if request.param is None else {"DBMONEY": request.param}
    conn = ifxwire.connect(**connect_kwargs, database=stores_demo, env=env)
    try:
        yield conn
    finally:
        conn.rollback()
        conn.close()


# ids_gug_237's table: (mask, number, DBMONEY, output); its "s" is a blank. The rows whose
# mask starts with '&' print a blank where ids_dapip_0128 has '&' print a zero: the two
# pages disagree there, so those rows are left out.
GUG_237 = [
    ("$$,$$$.$$", "1234", "'$'.", "$1,234.00"),
    ("$$,$$$.$$", "1234", "DM,", "DM1.234,00"),
    ("$$,$$$.$$", "1234", "A1A2.", "A1A21,234.00"),
    ("$$,$$$.$$", "1234", ".A1A2", "s1,234.00"),
]


@pytest.mark.parametrize(("mask", "value", "money_conn", "printed"), GUG_237,
                         indirect=["money_conn"])
def test_to_char_mask_in_dbmoney_symbols(money_conn: ifxwire.Connection, mask: str,
                                         value: str, printed: str) -> None:
    """ids_gug_237: '$' prints DBMONEY's front symbol (a blank when it has none), '.' and ','
    its decimal and thousands separators; a '$' right of the point holds a digit. Before,
    DBMONEY was not read and '$' right of the point was printed as itself ('$1,234.$$')."""
    (row,) = rows(money_conn.cursor(), f"SELECT TO_CHAR({value}, '{mask}')" + ONE)
    assert row[0].replace(" ", "s") == printed


@pytest.mark.parametrize(("money_conn", "printed"), [(".A1A2", "1,234.50A1A2"),
                                                     (None, "1,234.50")],
                         indirect=["money_conn"])
def test_to_char_back_symbol(money_conn: ifxwire.Connection, printed: str) -> None:
    """ids_gug_237: '@' prints DBMONEY's back symbol; the default locale has none (ids_sqr_218:
    "no back symbol"), so '@' prints nothing there. It was printed as itself."""
    (row,) = rows(money_conn.cursor(), "SELECT TO_CHAR(1234.5, '<<,<<<.&&@')" + ONE)
    assert row[0] == printed


@pytest.mark.parametrize("money_conn", ["DM,"], indirect=True)
def test_to_number_under_dbmoney(money_conn: ifxwire.Connection) -> None:
    """ids_sqs_1544 discards "the currency symbol", which is DBMONEY's (ids_gug_060): under
    DM, 'DM100,50' is 100.5 and a value TO_CHAR wrote reads back. Both were -1213."""
    cur = money_conn.cursor()
    assert rows(cur, "SELECT TO_NUMBER('DM100,50'), TO_NUMBER('-DM7,25'), "
                     "TO_NUMBER(TO_CHAR(-1234.5, '-$$$$$.&&'))" + ONE
                ) == [(D("100.5"), D("-7.25"), D("-1234.5"))]
    # '$' is no currency symbol under DM, [inference from ids_gug_060's precedence]
    assert sqlcode(cur, "SELECT TO_NUMBER('$100.00')" + ONE) == -1213


@pytest.mark.parametrize("money_conn", [None], indirect=True)
def test_monetary_string_into_money_default(money_conn: ifxwire.Connection) -> None:
    """ids_dapip_0105's monetary string '$1,345.77' is a MONEY value of 1345.77: the
    thousands separator is optional, so it may be there. It was -1213 (only '$' was
    dropped); a misplaced separator still is -1213."""
    cur = money_conn.cursor()
    cur.execute("CREATE TEMP TABLE mo (id INTEGER, amt MONEY(10,2))")
    cur.execute("INSERT INTO mo VALUES (1, '$1,345.77')")
    cur.execute("INSERT INTO mo VALUES (2, '1,234,567.5')")
    cur.execute("INSERT INTO mo VALUES (3, '$12.5')")
    assert rows(cur, "SELECT id, amt FROM mo ORDER BY id") == [
        (1, D("1345.77")), (2, D("1234567.50")), (3, D("12.50"))]
    assert sqlcode(cur, "INSERT INTO mo VALUES (4, '1,34.5')") == -1213


@pytest.mark.parametrize("money_conn", ["DM,"], indirect=True)
def test_monetary_string_into_money_under_dbmoney(money_conn: ifxwire.Connection) -> None:
    """Under DM, a monetary string is read "as DBMONEY specifies" (ids_gpg_087): 'DM1.345,77'
    is 1345.77 in a MONEY column, and stored values are unchanged by it (ids_sqr_218: DBMONEY
    "has no effect ... on the internal format"). The string was -1213."""
    cur = money_conn.cursor()
    cur.execute("CREATE TEMP TABLE mo (id INTEGER, amt MONEY(10,2))")
    cur.execute("INSERT INTO mo VALUES (1, 'DM1.345,77')")
    cur.execute("INSERT INTO mo VALUES (2, '12,5')")
    cur.execute("INSERT INTO mo VALUES (3, ?)", (D("99.99"),))
    assert rows(cur, "SELECT id, amt FROM mo ORDER BY id") == [
        (1, D("1345.77")), (2, D("12.50")), (3, D("99.99"))]
    assert rows(cur, "SELECT TO_CHAR(amt, '$$,$$$.&&') FROM mo WHERE id = 1") == [
        ("DM1.345,77",)]


@pytest.mark.parametrize("money_conn", [None], indirect=True)
def test_default_notation_unchanged(money_conn: ifxwire.Connection) -> None:
    """Guard: without DBMONEY the default locale's notation holds (ids_sqr_218: 100.50 is
    $100.50); a plain number string is still a MONEY value."""
    cur = money_conn.cursor()
    assert rows(cur, "SELECT TO_CHAR(100.5, '$$$$.&&'), TO_NUMBER('$100.00'), "
                     "CAST('100.50' AS MONEY(8,2))" + ONE) == [("$100.50", D("100"), D("100.50"))]
