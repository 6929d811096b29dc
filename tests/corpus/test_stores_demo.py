"""stores_demo loads into ifxwire-server unchanged and answers as the database it models.

The row counts are those of the published stores_demo; the queries check the constraints
(keys, checks, serial start values, defaults) and a few facts of the data."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

import ifxwire

from .loader import STORES_DEMO, statements


def test_script_splitter_keeps_quotes_comments_and_routines() -> None:
    text = ("insert into t values ('a;b', \"c\"\"d\"); -- x; y\n{ a ; b } select 1 from t;\n"
            "create procedure p() define x int; let x = 1; end procedure;\n"
            "select 'it''s' from t")
    assert statements(text) == [
        "insert into t values ('a;b', \"c\"\"d\")",
        "select 1 from t",
        "create procedure p() define x int; let x = 1; end procedure",
        "select 'it''s' from t",
    ]


COUNTS = {"customer": 28, "orders": 23, "items": 67, "stock": 74, "manufact": 9,
          "state": 52, "call_type": 5, "cust_calls": 7, "catalog": 13}


def test_every_corpus_file_says_what_it_models() -> None:
    for path in STORES_DEMO.glob("*.sql"):
        assert "Models:" in path.read_text(encoding="utf-8"), path


@pytest.mark.parametrize(("table", "count"), sorted(COUNTS.items()))
def test_row_counts(stores: ifxwire.Connection, table: str, count: int) -> None:
    cur = stores.cursor()
    cur.execute(f"SELECT COUNT(*) FROM {table}")
    assert cur.fetchone()[0] == count


def test_serials_start_where_declared(stores: ifxwire.Connection) -> None:
    cur = stores.cursor()
    cur.execute("SELECT MIN(customer_num), MAX(customer_num) FROM customer")
    assert cur.fetchone() == (101, 128)
    cur.execute("SELECT MIN(order_num), MAX(order_num) FROM orders")
    assert cur.fetchone() == (1001, 1023)
    cur.execute("SELECT MIN(catalog_num) FROM catalog")
    assert cur.fetchone() == (10001,)


def test_known_queries(stores: ifxwire.Connection) -> None:
    cur = stores.cursor()
    cur.execute("SELECT company FROM customer WHERE customer_num = 103")
    assert cur.fetchone() == ("Phil's Sports",)
    cur.execute("SELECT manu_name, lead_time FROM manufact WHERE manu_code = 'SHM'")
    name, lead = cur.fetchone()
    assert name == "Shimara" and lead.days == 30
    cur.execute("SELECT SUM(total_price) FROM items WHERE order_num = 1004")
    assert cur.fetchone()[0] == Decimal("1416.00")
    cur.execute("SELECT firstname, lastname FROM custview ORDER BY lastname")
    assert [r[1].rstrip() for r in cur.fetchall()] == [
        "Albertson", "Higgins", "Jaeger", "Quinn", "Sipes"]
    cur.execute("SELECT nitems, total FROM order_totals WHERE order_num = 1007")
    assert cur.fetchone() == (5, Decimal("1696.00"))
    cur.execute("SELECT c.lname, COUNT(*) FROM customer c, orders o "
                "WHERE c.customer_num = o.customer_num GROUP BY c.lname "
                "HAVING COUNT(*) > 1 ORDER BY 2 DESC, 1")
    assert [(n.rstrip(), k) for n, k in cur.fetchall()] == [
        ("Higgins", 4), ("Jaeger", 2), ("Sipes", 2), ("Watson", 2)]


def test_constraints_hold(stores: ifxwire.Connection) -> None:
    cur = stores.cursor()
    with pytest.raises(ifxwire.IntegrityError) as info:
        cur.execute("INSERT INTO items VALUES (9, 1001, 1, 'HRO', 0, 1.00)")
    assert info.value.sqlcode == -530  # check (quantity >= 1)
    stores.rollback()
    with pytest.raises(ifxwire.IntegrityError) as info:
        cur.execute("INSERT INTO orders (order_num, customer_num) VALUES (0, 999)")
    assert info.value.sqlcode == -691  # no such customer
    stores.rollback()
    with pytest.raises(ifxwire.IntegrityError) as info:
        cur.execute("DELETE FROM customer WHERE customer_num = 104")
    assert info.value.sqlcode == -692  # orders still reference it
    stores.rollback()
    with pytest.raises(ifxwire.IntegrityError) as info:
        cur.execute("INSERT INTO state VALUES ('CA', 'again')")
    assert info.value.sqlcode == -268
    stores.rollback()


def test_default_user(stores: ifxwire.Connection, connect_kwargs: dict[str, Any]) -> None:
    cur = stores.cursor()
    cur.execute("INSERT INTO cust_calls (customer_num, call_dtime, call_code) "
                "VALUES (101, DATETIME(2024-01-02 03:04) YEAR TO MINUTE, 'O')")
    cur.execute("SELECT user_id FROM cust_calls WHERE customer_num = 101")
    assert cur.fetchone()[0].rstrip() == connect_kwargs["user"]
    stores.rollback()
