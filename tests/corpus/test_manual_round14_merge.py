"""MERGE whose subqueries read its target, fourteenth round (issue 23), through the real driver
and the embedded server over sockets.

Page: HCL Informix 14.10 Guide to SQL: Syntax, "Restrictions on Source and Target Tables"
(ids_sqs_2031): the target cannot be a data source of any subquery of the same MERGE, in its
ON, SET or VALUES clause. -360 "Cannot modify table or view used in subquery." is the message
catalogue's (IBM's JDBC jar) and the code UPDATE and DELETE send for the same fault
(ids_sqs_2004, ids_sqs_2005); that MERGE sends it too is our inference. Before this round the
three refused statements ran.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import ifxwire

from .manual import fresh_database, rows, sqlcode


@pytest.fixture()
def cur(connect_kwargs: dict[str, Any]) -> Iterator[ifxwire.Cursor]:
    with fresh_database(connect_kwargs, "merge14") as conn:
        c = conn.cursor()
        c.execute("CREATE TABLE sale (cust_id INT, salecount INT)")
        c.execute("CREATE TABLE new_sale (cust_id INT, salecount INT)")
        c.execute("INSERT INTO sale VALUES (1, 10)")
        c.executemany("INSERT INTO new_sale VALUES (?, ?)", [(1, 5), (2, 7)])
        yield c


@pytest.mark.parametrize("sql", [
    "MERGE INTO sale USING new_sale n ON sale.cust_id = n.cust_id "
    "AND sale.cust_id IN (SELECT cust_id FROM sale) "
    "WHEN NOT MATCHED THEN INSERT VALUES (n.cust_id, n.salecount)",
    "MERGE INTO sale USING new_sale n ON sale.cust_id = n.cust_id "
    "WHEN MATCHED THEN UPDATE SET salecount = (SELECT MAX(salecount) FROM sale)",
    "MERGE INTO sale USING new_sale n ON sale.cust_id = n.cust_id "
    "WHEN NOT MATCHED THEN INSERT VALUES (n.cust_id, (SELECT COUNT(*) FROM sale))",
])
def test_a_subquery_on_the_target_is_360(cur: ifxwire.Cursor, sql: str) -> None:
    assert sqlcode(cur, sql, fetch=False) == -360
    assert rows(cur, "SELECT cust_id, salecount FROM sale") == [(1, 10)]  # nothing ran


def test_the_page_s_merge_and_subqueries_on_the_source_pass(cur: ifxwire.Cursor) -> None:
    """ids_sqs_2032's example, then subqueries that read only the source."""
    cur.execute("MERGE INTO sale USING new_sale AS n ON sale.cust_id = n.cust_id "
                "WHEN MATCHED THEN UPDATE SET sale.salecount = sale.salecount + n.salecount "
                "WHEN NOT MATCHED THEN INSERT (cust_id, salecount) "
                "VALUES (n.cust_id, n.salecount)")
    assert rows(cur, "SELECT cust_id, salecount FROM sale ORDER BY 1") == [(1, 15), (2, 7)]
    cur.execute("MERGE INTO sale USING new_sale n ON sale.cust_id = n.cust_id "
                "WHEN MATCHED THEN UPDATE SET salecount = (SELECT MAX(salecount) FROM new_sale)")
    assert rows(cur, "SELECT cust_id, salecount FROM sale ORDER BY 1") == [(1, 7), (2, 7)]
