"""MERGE with host variables (thirty-second session, issue 23; was -999 "host variables in
MERGE"), through the real driver and the embedded server over sockets. The statements are
ours, modelled on the page's example.

Page: Guide to SQL: Syntax, "MERGE statement" (ids_sqs_2032: the ON condition, the SET
values of the Update clause and the VALUES of the Insert clause are expressions, which may be
host variables as in any DML statement). The server runs MERGE as one statement per clause,
each with its own copies of the ON condition, so every ``?`` is named by its place in the
whole statement and one set of values serves every part.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import pytest

import ifxwire

from .manual import fresh_database, rows


@pytest.fixture()
def cur(connect_kwargs: dict[str, Any]) -> Iterator[ifxwire.Cursor]:
    with fresh_database(connect_kwargs, "mergep32") as conn:
        c = conn.cursor()
        c.execute("CREATE TABLE sale (cust_id INT, salecount INT, amount DECIMAL(8,2), "
                  "day DATE)")
        c.execute("CREATE TABLE new_sale (cust_id INT, salecount INT)")
        c.execute("INSERT INTO sale VALUES (1, 10, 1.00, '01/02/2026')")
        c.executemany("INSERT INTO new_sale VALUES (?, ?)", [(1, 5), (2, 7), (3, 9)])
        yield c


def _sales(cur: ifxwire.Cursor) -> list[tuple[Any, ...]]:
    return rows(cur, "SELECT cust_id, salecount, amount, day FROM sale ORDER BY 1")


def test_values_in_set_and_insert(cur: ifxwire.Cursor) -> None:
    cur.execute("MERGE INTO sale USING new_sale n ON sale.cust_id = n.cust_id "
                "WHEN MATCHED THEN UPDATE SET salecount = sale.salecount + n.salecount, "
                "amount = ? "
                "WHEN NOT MATCHED THEN INSERT VALUES (n.cust_id, n.salecount, ?, ?)",
                (Decimal("2.50"), Decimal("9.99"), datetime.date(2026, 12, 2)))
    assert cur.rowcount == 3
    assert _sales(cur) == [
        (1, 15, Decimal("2.50"), datetime.date(2026, 1, 2)),
        (2, 7, Decimal("9.99"), datetime.date(2026, 12, 2)),
        (3, 9, Decimal("9.99"), datetime.date(2026, 12, 2))]


def test_a_value_in_the_on_condition_serves_every_clause(cur: ifxwire.Cursor) -> None:
    # the ON condition is copied into the INSERT's NOT EXISTS and the UPDATE's EXISTS and
    # SET subqueries: the one value must reach each copy
    sql = ("MERGE INTO sale USING new_sale n ON sale.cust_id = n.cust_id AND n.salecount < ? "
           "WHEN MATCHED THEN UPDATE SET salecount = ? "
           "WHEN NOT MATCHED THEN INSERT (cust_id, salecount) VALUES (n.cust_id, ?)")
    cur.execute(sql, (8, 100, -1))
    assert [r[:2] for r in _sales(cur)] == [(1, 100), (2, -1), (3, -1)]
    cur.execute(sql, (0, 555, -2))  # nothing matches now: three more rows
    assert sorted(r[:2] for r in _sales(cur)) == [
        (1, -2), (1, 100), (2, -2), (2, -1), (3, -2), (3, -1)]


def test_delete_and_a_prepared_merge_run_again(cur: ifxwire.Cursor) -> None:
    sql = ("MERGE INTO sale USING (SELECT * FROM new_sale WHERE cust_id = ?) n "
           "ON sale.cust_id = n.cust_id WHEN MATCHED THEN DELETE")
    cur.execute(sql, (2,))
    assert cur.rowcount == 0
    cur.execute(sql, (1,))
    assert cur.rowcount == 1
    assert _sales(cur) == []
