"""A derived-column list over ``SELECT *`` (thirty-second session, issue 23; was -999
"derived column list over *"), through the real driver and the embedded server over
sockets. The statements are ours, modelled on the page's examples.

Page: Guide to SQL: Syntax, "Queries in the FROM clause" (the derived-column list names the
derived table's columns, one name per column of its query; a list of another length is
-9621, as for a list over written-out columns).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import ifxwire

from .manual import fresh_database, rows, sqlcode


@pytest.fixture()
def cur(connect_kwargs: dict[str, Any]) -> Iterator[ifxwire.Cursor]:
    with fresh_database(connect_kwargs, "dstar32") as conn:
        c = conn.cursor()
        c.execute("CREATE TABLE stock (stock_num INT, manu_code CHAR(3), unit_price "
                  "DECIMAL(6,2))")
        c.execute("INSERT INTO stock VALUES (1, 'HRO', 250.00)")
        c.execute("INSERT INTO stock VALUES (2, 'SMT', 40.50)")
        yield c


def test_the_list_names_the_columns_of_the_star(cur: ifxwire.Cursor) -> None:
    cur.execute("SELECT * FROM (SELECT * FROM stock) AS s (num, maker, price) ORDER BY num")
    assert [d[0] for d in cur.description] == ["num", "maker", "price"]
    assert [tuple(r) for r in cur.fetchall()] == [(1, "HRO", 250), (2, "SMT", 40.5)]
    assert rows(cur, "SELECT maker FROM (SELECT * FROM stock) AS s (num, maker, price) "
                     "WHERE price > 100") == [("HRO",)]


def test_a_qualified_star_beside_an_expression(cur: ifxwire.Cursor) -> None:
    assert rows(cur, "SELECT num, dbl FROM (SELECT t.*, t.unit_price * 2 FROM stock t) "
                     "AS s (num, maker, price, dbl) ORDER BY dbl DESC") == [
        (1, 500), (2, 81)]
    assert rows(cur, "SELECT n FROM (SELECT * FROM stock UNION SELECT * FROM stock) "
                     "AS s (n, m, p) ORDER BY n") == [(1,), (2,)]


def test_a_list_of_another_length_is_9621(cur: ifxwire.Cursor) -> None:
    assert sqlcode(cur, "SELECT * FROM (SELECT * FROM stock) AS s (num, maker)") == -9621
    assert sqlcode(cur, "SELECT * FROM (SELECT * FROM stock) AS s (a, b, c, d)") == -9621
