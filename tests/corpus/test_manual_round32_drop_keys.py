"""Dropping a primary key or unique constraint that other tables' foreign keys refer to, by
DROP CONSTRAINT or with its column, drops those foreign keys too (thirty-second session,
issue 23; was -999), through the real driver and the embedded server over sockets. The
statements are ours, modelled on the pages' stores_demo example.

Pages: Guide to SQL: Syntax, ALTER TABLE, "DROP CONSTRAINT Clause" (ids_sqs_0069: "When you
drop a primary-key constraint or a unique constraint that has a corresponding foreign key,
any associated referential constraints are also dropped", with the orders/items example)
and "How Dropping a Column Affects Constraints" (ids_sqs_0308: "All referential constraints
that reference the column are dropped ... the structure of those other tables is also
altered").
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import ifxwire

from .manual import fresh_database, rows, sqlcode


@pytest.fixture()
def cur(connect_kwargs: dict[str, Any]) -> Iterator[ifxwire.Cursor]:
    with fresh_database(connect_kwargs, "dropkeys32") as conn:
        c = conn.cursor()
        c.execute("CREATE TABLE orders (order_num SERIAL PRIMARY KEY CONSTRAINT o_pk, "
                  "customer_num INT)")
        c.execute("CREATE TABLE items (item_num SMALLINT, order_num INT REFERENCES orders "
                  "(order_num) CONSTRAINT i_fk, quantity SMALLINT, PRIMARY KEY (item_num, "
                  "order_num) CONSTRAINT i_pk)")
        c.execute("INSERT INTO orders VALUES (1001, 104)")
        c.execute("INSERT INTO items VALUES (1, 1001, 2)")
        yield c


def _constraints(cur: ifxwire.Cursor) -> list[tuple[str, str]]:
    return rows(cur, "SELECT constrname, constrtype FROM sysconstraints WHERE tabid >= 100 "
                     "ORDER BY 1")


def test_drop_constraint_takes_the_foreign_keys_with_it(cur: ifxwire.Cursor) -> None:
    assert sqlcode(cur, "INSERT INTO items VALUES (2, 9999, 1)", fetch=False) == -691
    cur.execute("ALTER TABLE orders DROP CONSTRAINT o_pk")
    assert _constraints(cur) == [("i_pk", "P")]
    assert rows(cur, "SELECT COUNT(*) FROM sysreferences") == [(0,)]
    cur.execute("INSERT INTO items VALUES (2, 9999, 1)")  # no key to meet any more
    cur.execute("DELETE FROM orders")
    assert rows(cur, "SELECT item_num, order_num, quantity FROM items ORDER BY 1") == [
        (1, 1001, 2), (2, 9999, 1)]


def test_dropping_the_column_takes_them_too(cur: ifxwire.Cursor) -> None:
    cur.execute("CREATE TABLE notes (order_num INT REFERENCES orders (order_num) "
                "CONSTRAINT n_fk, txt CHAR(10))")
    cur.execute("UPDATE orders SET customer_num = order_num")
    cur.execute("ALTER TABLE orders ADD CONSTRAINT FOREIGN KEY (customer_num) REFERENCES "
                "orders (order_num) CONSTRAINT o_self")  # a reference within the table
    cur.execute("ALTER TABLE orders DROP (order_num)")
    assert _constraints(cur) == [("i_pk", "P")]
    assert rows(cur, "SELECT customer_num FROM orders") == [(1001,)]
    cur.execute("INSERT INTO notes VALUES (5, 'free')")


def test_rollback_work_puts_the_foreign_keys_back(cur: ifxwire.Cursor) -> None:
    cur.connection.autocommit = False
    cur.execute("ALTER TABLE orders DROP CONSTRAINT o_pk")
    cur.connection.rollback()
    assert _constraints(cur) == [("i_fk", "R"), ("i_pk", "P"), ("o_pk", "P")]
    assert sqlcode(cur, "INSERT INTO items VALUES (2, 9999, 1)", fetch=False) == -691
    cur.connection.rollback()
