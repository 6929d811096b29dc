"""UPDATE and DELETE with subqueries on the table they modify, thirteenth round (issue 23),
through the real driver and the embedded server over sockets.

Pages: HCL Informix 14.10 Guide to SQL: Syntax, "Subqueries in the WHERE Clause of DELETE"
(ids_sqs_2004) and "Subqueries in the WHERE Clause of UPDATE" (ids_sqs_2005): a subquery may
read the modified table only if it returns a single row or has no correlated column
references, and sits in the WHERE clause as a Condition with Subquery; otherwise -360.
Guide to SQL: Tutorial, "Subqueries in DELETE and UPDATE statements" (ids_sqt_183), the
same rule, and "Update with uniform values" (ids_sqt_234), a correlated subquery on another
table in SET. -360 "Cannot modify table or view used in subquery." is the message
catalogue's in IBM's JDBC jar. The statements are ours, modelled on the pages' stock and
orders examples. Before this round every such statement ran.
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
    with fresh_database(connect_kwargs, "modsub") as conn:
        c = conn.cursor()
        c.execute("CREATE TABLE stock (stock_num INT, manu_code CHAR(3), "
                  "unit_price MONEY(8,2))")
        c.executemany("INSERT INTO stock VALUES (?, ?, ?)", [
            (1, "HRO", 250), (1, "SMT", 240), (2, "HRO", 126), (3, "ANZ", 19.80)])
        c.execute("CREATE TABLE items (item_num INT, stock_num INT, quantity INT, "
                  "total_price MONEY(8,2))")
        c.executemany("INSERT INTO items VALUES (?, ?, ?, ?)", [
            (1, 1, 2, 0), (2, 3, 5, 0)])
        yield c


def _prices(cur: ifxwire.Cursor) -> list[tuple[Any, ...]]:
    return rows(cur, "SELECT stock_num, manu_code, unit_price FROM stock ORDER BY 1, 2",
                strip=True)


def test_uncorrelated_subqueries_on_the_same_table_run(cur: ifxwire.Cursor) -> None:
    """ids_sqs_2005's form (IN over the same table, uncorrelated) and ids_sqs_2004's
    (the row with the largest unit_price) are allowed."""
    cur.execute("UPDATE stock SET unit_price = unit_price * 0.5 WHERE unit_price IN "
                "(SELECT unit_price FROM stock WHERE unit_price > 200)")
    assert cur.rowcount == 2
    cur.execute("DELETE FROM stock WHERE unit_price = (SELECT MAX(unit_price) FROM stock)")
    assert cur.rowcount == 1  # 126 is the largest after the halving
    assert _prices(cur) == [(1, "HRO", 125), (1, "SMT", 120), (3, "ANZ", Decimal("19.80"))]


def test_a_correlated_scalar_subquery_returns_one_row_and_runs(cur: ifxwire.Cursor) -> None:
    """A correlated subquery compared as a scalar returns a single row: allowed."""
    cur.execute("DELETE FROM stock WHERE unit_price < (SELECT MAX(s.unit_price) FROM stock s "
                "WHERE s.stock_num = stock.stock_num)")
    assert cur.rowcount == 1  # SMT's 240 under HRO's 250
    assert [r[:2] for r in _prices(cur)] == [(1, "HRO"), (2, "HRO"), (3, "ANZ")]


def test_correlated_subqueries_that_may_return_many_rows_are_360(cur: ifxwire.Cursor) -> None:
    """Correlated and under EXISTS, IN or ALL: -360, nothing changed."""
    before = _prices(cur)
    assert sqlcode(cur, "DELETE FROM stock WHERE EXISTS (SELECT 1 FROM stock s2 WHERE "
                        "s2.stock_num = stock.stock_num AND s2.unit_price > stock.unit_price)",
                   fetch=False) == -360
    assert sqlcode(cur, "DELETE FROM stock WHERE manu_code IN (SELECT s2.manu_code FROM "
                        "stock s2 WHERE s2.stock_num = stock.stock_num + 1)",
                   fetch=False) == -360
    assert sqlcode(cur, "UPDATE stock SET unit_price = unit_price * 1.1 WHERE unit_price >= "
                        "ALL (SELECT s.unit_price FROM stock s "
                        "WHERE s.stock_num = stock.stock_num)", fetch=False) == -360
    # an alias on the modified table is how the subquery correlates with it
    assert sqlcode(cur, "UPDATE stock x SET unit_price = 1 WHERE EXISTS (SELECT 1 FROM stock "
                        "WHERE stock.manu_code = x.manu_code AND stock.stock_num <> "
                        "x.stock_num)", fetch=False) == -360
    assert _prices(cur) == before


def test_a_set_clause_subquery_on_the_same_table_is_360(cur: ifxwire.Cursor) -> None:
    """A subquery of the SET clause is not in the WHERE clause: -360 when it reads the
    table, in the single- and multiple-column formats."""
    assert sqlcode(cur, "UPDATE stock SET unit_price = (SELECT MAX(unit_price) FROM stock) "
                        "WHERE stock_num = 3", fetch=False) == -360
    assert sqlcode(cur, "UPDATE stock SET (unit_price) = ((SELECT MIN(unit_price) FROM "
                        "stock)) WHERE stock_num = 3", fetch=False) == -360


def test_subqueries_on_other_tables_are_free(cur: ifxwire.Cursor) -> None:
    """ids_sqt_234: a correlated subquery on stock in the SET clause of an UPDATE of items,
    and a correlated EXISTS on another table, run."""
    cur.execute("UPDATE items SET total_price = quantity * (SELECT MAX(unit_price) FROM stock "
                "WHERE stock.stock_num = items.stock_num)")
    assert rows(cur, "SELECT item_num, total_price FROM items ORDER BY 1") == [
        (1, 500), (2, 99)]
    cur.execute("DELETE FROM stock WHERE NOT EXISTS (SELECT 1 FROM items "
                "WHERE items.stock_num = stock.stock_num)")
    assert cur.rowcount == 1
