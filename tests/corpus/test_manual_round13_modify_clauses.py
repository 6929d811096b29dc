"""Clauses other SQL dialects give DELETE and UPDATE, thirteenth round (issue 23), through the
real driver and the embedded server over sockets.

Pages: HCL Informix 14.10 Guide to SQL: Syntax, "DELETE statement" (ids_sqs_0675): DELETE
[FROM] one table, view or synonym [[AS] alias], then WHERE condition or WHERE CURRENT OF, and
nothing after; the UPDATE statement likewise (its "Using the WHERE CURRENT OF Clause",
ids_sqs_1275). The delete join, "DELETE FROM lineitem USING order o, lineitem l WHERE …" (or a
second FROM), is in the IDS 10 Syntax guide as "(XPS)": Extended Parallel Server's only. So a
USING join list, UPDATE … FROM, and ORDER BY or LIMIT in either are outside the grammar:
-201. Before this round DELETE … ORDER BY and LIMIT, UPDATE … ORDER BY and LIMIT ran (SQLite's
forms), and the join lists failed with -217 once the names were looked up. The Tutorial's way
("Delete selected rows", a subquery in the WHERE clause) is pinned beside them.
"""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import pytest

import ifxwire

from .manual import fresh_database, rows, sqlcode


@pytest.fixture()
def cur(connect_kwargs: dict[str, Any]) -> Iterator[ifxwire.Cursor]:
    with fresh_database(connect_kwargs, "modclauses13") as conn:
        c = conn.cursor()
        c.execute("CREATE TABLE manufact (manu_code CHAR(3), manu_name CHAR(15))")
        c.execute("CREATE TABLE stock (stock_num INT, manu_code CHAR(3), unit CHAR(4), "
                  "unit_price MONEY(6,2))")
        c.executemany("INSERT INTO manufact VALUES (?, ?)", [("HRO", "Hero"), ("ANZ", "Anza")])
        c.executemany("INSERT INTO stock VALUES (?, ?, ?, ?)", [
            (1, "HRO", "case", 10), (2, "HRO", "each", 20), (3, "ANZ", "case", 30)])
        yield c


def _stock(cur: ifxwire.Cursor) -> list[tuple[Any, ...]]:
    return rows(cur, "SELECT stock_num, unit_price FROM stock ORDER BY 1")


UNCHANGED = [(1, Decimal("10")), (2, Decimal("20")), (3, Decimal("30"))]


def test_a_delete_join_list_is_201(cur: ifxwire.Cursor) -> None:
    """USING with the target in the list or not, with aliases: -201, and nothing deleted."""
    assert sqlcode(cur, "DELETE FROM stock USING stock, manufact "
                        "WHERE stock.manu_code = manufact.manu_code "
                        "AND manufact.manu_name = 'Hero' AND stock.unit = 'case'") == -201
    assert sqlcode(cur, "DELETE FROM stock USING manufact "
                        "WHERE stock.manu_code = manufact.manu_code") == -201
    assert sqlcode(cur, "DELETE FROM stock s USING stock s, manufact m "
                        "WHERE s.manu_code = m.manu_code") == -201
    assert sqlcode(cur, "DELETE stock FROM stock, manufact "
                        "WHERE stock.manu_code = manufact.manu_code") == -201
    assert _stock(cur) == UNCHANGED


def test_update_from_is_201(cur: ifxwire.Cursor) -> None:
    assert sqlcode(cur, "UPDATE stock SET unit_price = unit_price * 2 FROM stock, manufact "
                        "WHERE stock.manu_code = manufact.manu_code") == -201
    assert _stock(cur) == UNCHANGED


def test_order_by_and_limit_in_delete_and_update_are_201(cur: ifxwire.Cursor) -> None:
    """Each ran before this round (SQLite's forms): the DELETE removed every row."""
    assert sqlcode(cur, "DELETE FROM stock ORDER BY stock_num") == -201
    assert sqlcode(cur, "DELETE FROM stock LIMIT 1") == -201
    assert sqlcode(cur, "UPDATE stock SET unit_price = 1 ORDER BY stock_num") == -201
    assert sqlcode(cur, "UPDATE stock SET unit_price = 1 LIMIT 1") == -201
    assert _stock(cur) == UNCHANGED
    with pytest.raises(ifxwire.ProgrammingError, match=r"(?i)order"):
        cur.execute("DELETE FROM stock ORDER BY stock_num")


def test_the_grammar_s_forms_run(cur: ifxwire.Cursor) -> None:
    """The Tutorial's join-by-subquery DELETE, and aliases, which the diagram has."""
    cur.execute("DELETE FROM stock WHERE unit = 'case' AND manu_code IN "
                "(SELECT manu_code FROM manufact WHERE manu_name = 'Hero')")
    assert cur.rowcount == 1
    cur.execute("UPDATE stock AS s SET unit_price = 25 WHERE s.stock_num = 2")
    cur.execute("DELETE FROM stock AS s WHERE s.stock_num = 3")
    assert _stock(cur) == [(2, Decimal("25"))]
