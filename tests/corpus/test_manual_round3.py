"""The manuals' own examples for issue 12's third round, run on our stores_demo corpus.

Models: HCL Informix 14.10 Guide to SQL: Tutorial, "The Delete clause of MERGE" (ids_sqt_213)
and "Stand-alone SELECT statements" (the hits_trig Select trigger, ids_sqt_542); Guide to
SQL: Syntax, "MERGE statement" (ids_sqs_2030: the sale/new_sale Update-and-Insert example and
the customer/ext_customer Update-only and Delete-only examples); the DataBlade API guide,
"The statement-local variable" (out_test and its weight SLV); Guide to SQL: Tutorial, "SQL
statements that access more than one database" (INSERT/UPDATE/DELETE across databases, the
logging-mode restriction). None of these pages prints result rows: each case checks what the
page says the statement does, on stores_demo's data (a fact we count from data.sql) or on
the small tables the page names, created here with our rows. Every change is rolled back.
"""

from __future__ import annotations

from typing import Any

import pytest

import ifxwire


def _one(cur: ifxwire.Cursor, sql: str, params: Any = None) -> Any:
    cur.execute(sql, params)
    row = cur.fetchone()
    assert row is not None
    return row[0]


def test_merge_delete_clause_on_stock(stores: ifxwire.Connection) -> None:
    """ids_sqt_213: "all the rows of the stock table for which the join condition in the ON
    clause is satisfied will be deleted" — with stores_demo's items referencing stock, the
    referential constraint refuses it (-692), as the schema's foreign key demands; without
    the items and catalog rows it deletes every stock row (each has some manufact row of
    another code)."""
    cur = stores.cursor()
    sql = ("MERGE INTO stock USING manufact ON stock.manu_code != manufact.manu_code "
           "WHEN MATCHED THEN DELETE")
    with pytest.raises(ifxwire.IntegrityError) as info:
        cur.execute(sql)
    assert info.value.sqlcode == -692  # type: ignore[attr-defined]
    cur.execute("DELETE FROM items")
    cur.execute("DELETE FROM catalog")  # the other table referencing stock
    stock = _one(cur, "SELECT COUNT(*) FROM stock")
    cur.execute(sql)
    assert cur.rowcount == stock
    assert _one(cur, "SELECT COUNT(*) FROM stock") == 0


def test_merge_update_and_insert_of_the_syntax_page(stores: ifxwire.Connection) -> None:
    """ids_sqs_2030: rows whose cust_id matches get salecount + n.salecount, the others are
    inserted with the new_sale values."""
    cur = stores.cursor()
    cur.execute("CREATE TEMP TABLE sale (cust_id INT, salecount INT)")
    cur.execute("CREATE TEMP TABLE new_sale (cust_id INT, salecount INT)")
    cur.executemany("INSERT INTO sale VALUES (?, ?)", [(101, 5), (102, 1)])
    cur.executemany("INSERT INTO new_sale VALUES (?, ?)", [(101, 2), (103, 7)])
    cur.execute("""MERGE INTO sale USING new_sale AS n
        ON sale.cust_id = n.cust_id
        WHEN MATCHED THEN UPDATE
            SET sale.salecount = sale.salecount + n.salecount
        WHEN NOT MATCHED THEN INSERT (cust_id, salecount)
            VALUES (n.cust_id, n.salecount)""")
    assert cur.rowcount == 2
    cur.execute("SELECT cust_id, salecount FROM sale ORDER BY cust_id")
    assert cur.fetchall() == [(101, 7), (102, 1), (103, 7)]


def test_merge_update_only_and_delete_only_of_customer(stores: ifxwire.Connection) -> None:
    """ids_sqs_2030's customer / ext_customer examples: an Update-only MERGE copies the
    matching external rows' names; a Delete-only MERGE removes the customers that match."""
    cur = stores.cursor()
    cur.execute("CREATE TEMP TABLE ext_customer (customer_num INT, fname CHAR(15), "
                "lname CHAR(15), company CHAR(20))")
    cur.executemany("INSERT INTO ext_customer VALUES (?, ?, ?, ?)",
                    [(101, "Ludwig", "Pauli", "Sports"), (999, "No", "Body", "None")])
    cur.execute("""MERGE INTO customer c USING ext_customer e
        ON c.customer_num = e.customer_num
        WHEN MATCHED THEN UPDATE SET c.fname = e.fname, c.lname = e.lname,
            c.company = e.company""")
    assert cur.rowcount == 1
    cur.execute("SELECT fname, company FROM customer WHERE customer_num = 101")
    assert cur.fetchall() == [("Ludwig", "Sports")]
    cur.execute("DELETE FROM cust_calls WHERE customer_num = 101")
    cur.execute("DELETE FROM items WHERE order_num IN "
                "(SELECT order_num FROM orders WHERE customer_num = 101)")
    cur.execute("DELETE FROM orders WHERE customer_num = 101")
    before = _one(cur, "SELECT COUNT(*) FROM customer")
    cur.execute("MERGE INTO customer c USING ext_customer e "
                "ON c.customer_num = e.customer_num WHEN MATCHED THEN DELETE")
    assert cur.rowcount == 1
    assert _one(cur, "SELECT COUNT(*) FROM customer") == before - 1


def test_hits_trig_select_trigger(stores: ifxwire.Connection) -> None:
    """ids_sqt_542: the Select trigger's action runs "for each instance of a row that the
    database server returns" for SELECT col_a FROM tab_a."""
    cur = stores.cursor()
    cur.execute("CREATE TABLE tab_a (col_a INT, col_b INT)")
    cur.execute("CREATE TABLE hits_log (col_a INT, at DATETIME YEAR TO FRACTION(3), "
                "who CHAR(32))")
    cur.executemany("INSERT INTO tab_a VALUES (?, ?)", [(1, 10), (2, 20), (3, 30)])
    cur.execute("""CREATE TRIGGER hits_trig SELECT OF col_a ON tab_a
        REFERENCING OLD AS hit
        FOR EACH ROW (INSERT INTO hits_log VALUES (hit.col_a, CURRENT, USER))""")
    cur.execute("SELECT col_a FROM tab_a")
    assert sorted(cur.fetchall()) == [(1,), (2,), (3,)]
    cur.execute("SELECT col_a, who FROM hits_log ORDER BY col_a")
    assert cur.fetchall() == [(1, "informix"), (2, "informix"), (3, "informix")]
    cur.execute("SELECT col_b FROM tab_a")  # col_a not selected: not activated
    cur.fetchall()
    assert _one(cur, "SELECT COUNT(*) FROM hits_log") == 3


def test_out_test_statement_local_variable(stores: ifxwire.Connection) -> None:
    """The DataBlade API guide's out_test(title, 'aaa', weight # INTEGER): the SELECT reads
    the OUT value through the SLV in its select list (an SPL version of the C function)."""
    cur = stores.cursor()
    cur.execute("CREATE TABLE mytab (title CHAR(10))")
    cur.executemany("INSERT INTO mytab VALUES (?)", [("aaa",), ("bbbbb",)])
    cur.execute("""CREATE FUNCTION out_test(t CHAR(10), want CHAR(10), OUT w INTEGER)
        RETURNING BOOLEAN;
        LET w = LENGTH(t);
        RETURN t = want;
    END FUNCTION""")
    cur.execute("SELECT title, weight FROM mytab WHERE out_test(title, 'aaa', weight # INTEGER)")
    assert cur.fetchall() == [("aaa", 3)]


def test_writes_across_databases(stores: ifxwire.Connection, connect_kwargs: dict[str, Any],
                                 stores_demo: str) -> None:
    """Tutorial, "SQL statements that access more than one database": INSERT, UPDATE and
    DELETE name another database's table; both databases must have the same logging mode."""
    admin = ifxwire.connect(**connect_kwargs)
    try:
        admin.cursor().execute("CREATE DATABASE r3_sales WITH LOG")
        admin.cursor().execute("CREATE TABLE contacts (customer_num INT, lname CHAR(15))")
        admin.commit()
    finally:
        admin.close()
    cur = stores.cursor()
    cur.execute("INSERT INTO r3_sales:contacts SELECT customer_num, lname FROM customer "
                "WHERE state = 'AZ'")
    arizona = cur.rowcount
    assert arizona == _one(cur, "SELECT COUNT(*) FROM customer WHERE state = 'AZ'") > 0
    cur.execute("UPDATE r3_sales:contacts SET lname = UPPER(lname)")
    assert cur.rowcount == arizona
    cur.execute("SELECT COUNT(*) FROM r3_sales:contacts c, customer k "
                "WHERE c.customer_num = k.customer_num AND c.lname = UPPER(k.lname)")
    assert cur.fetchone() == (arizona,)
    cur.execute("DELETE FROM r3_sales:contacts")
    assert cur.rowcount == arizona
