"""ROWID, eighteenth manual round (issue 23's sweep of the Syntax and Tutorial examples):
every use of the hidden rowid column was -217 ("Column 'rowid' is not in any table"), the
largest family of failing examples this round's sweep met, through the real driver and the
embedded server over sockets.

Pages: HCL Informix 14.10 Guide to SQL: Syntax, "Using Rowids" (ids_sqs_1440: "The rowid
column is essentially a hidden column in nonfragmented tables"; its examples ``SELECT *,
ROWID FROM customer``, ``SELECT fname, ROWID FROM customer ORDER BY ROWID``, ``SELECT
HEX(rowid) FROM customer WHERE customer_num = 106``; "You cannot use the ROWID keyword in the
select list of the Projection clause of a query that contains an aggregate function"); Guide
to SQL: Tutorial, "Using rowid values in SELECT statements" (``SELECT rowid, * FROM
manufact``). The -205 text is the message catalogue's [jcat]. Our statements, modelled on
those.
"""

from __future__ import annotations

import pytest

import ifxwire

from .manual import rows, sqlcode


@pytest.fixture()
def cur(stores: ifxwire.Connection) -> ifxwire.Cursor:
    return stores.cursor()


def test_star_and_rowid(cur: ifxwire.Cursor) -> None:
    """ids_sqs_1440's first example: ROWID after the columns, described by its name as an
    INTEGER; ``*`` alone does not list it (a hidden column)."""
    got = rows(cur, "SELECT *, ROWID FROM customer ORDER BY customer_num")
    names = [d[0] for d in cur.description]
    assert names[-1] == "rowid" and names[:-1] == [
        d[0] for d in cur.execute("SELECT * FROM customer").description]
    assert len(got) == 28
    ids = [r[-1] for r in got]
    assert all(isinstance(i, int) for i in ids) and len(set(ids)) == 28  # unique a row
    assert "rowid" not in [d[0] for d in cur.execute("SELECT * FROM manufact").description]


def test_rowid_first_then_star(cur: ifxwire.Cursor) -> None:
    """The Tutorial's ``SELECT rowid, * FROM manufact``: one rowid a manufacturer row."""
    got = rows(cur, "SELECT rowid, * FROM manufact")
    assert [d[0] for d in cur.description][:2] == ["rowid", "manu_code"]
    assert len(got) == len({r[0] for r in got}) == 9


def test_order_by_rowid_and_a_row_found_by_it(cur: ifxwire.Cursor) -> None:
    """``ORDER BY ROWID`` (ids_sqs_1440); a rowid read once finds its row again in WHERE,
    UPDATE and DELETE, and qualified by the table or its alias."""
    ordered = rows(cur, "SELECT fname, ROWID FROM customer ORDER BY ROWID")
    assert [r[1] for r in ordered] == sorted(r[1] for r in ordered)
    ((rid,),) = rows(cur, "SELECT c.rowid FROM customer c WHERE customer_num = 106")
    assert rows(cur, "SELECT customer_num FROM customer WHERE rowid = ?", (rid,)) == [(106,)]
    assert rows(cur, "SELECT customer.rowid FROM customer WHERE customer_num = 106") == [(rid,)]
    cur.execute("UPDATE customer SET fname = 'Rowid' WHERE rowid = ?", (rid,))
    assert cur.rowcount == 1
    assert rows(cur, "SELECT fname FROM customer WHERE customer_num = 106") == [("Rowid",)]
    cur.execute("DELETE FROM cust_calls WHERE rowid = -1")
    assert cur.rowcount == 0


def test_hex_of_rowid(cur: ifxwire.Cursor) -> None:
    """``SELECT HEX(rowid) FROM customer WHERE customer_num = 106``: a hexadecimal INTEGER
    (the page reads a page and slot number out of it; ours are other numbers, "not
    necessarily sequential")."""
    ((text,),) = rows(cur, "SELECT HEX(rowid) FROM customer WHERE customer_num = 106")
    ((rid,),) = rows(cur, "SELECT rowid FROM customer WHERE customer_num = 106")
    assert text == f"0x{rid:08X}"


def test_rowid_of_each_table_of_a_join(cur: ifxwire.Cursor) -> None:
    """Qualified, each table's own rowid; unqualified in a join it could be either table's:
    -324, as a column two tables have."""
    got = rows(cur, "SELECT c.rowid, o.rowid FROM customer c, orders o "
                    "WHERE c.customer_num = o.customer_num AND o.order_num = 1001")
    assert len(got) == 1 and all(isinstance(v, int) for v in got[0])
    assert sqlcode(cur, "SELECT rowid FROM customer c, orders o "
                        "WHERE c.customer_num = o.customer_num") == -324


def test_where_rowids_are_refused(cur: ifxwire.Cursor) -> None:
    """ids_sqs_1440: not beside an aggregate in the projection; -205 [jcat: "you cannot use
    ROWID for views with union, intersect, minus, aggregates, group by, multiple tables, or
    derived tables"] for that and for a derived table or a view (a simple view is refused too:
    a known difference). A COUNT with a rowid condition is fine."""
    assert sqlcode(cur, "SELECT COUNT(*), ROWID FROM customer") == -205
    assert sqlcode(cur, "SELECT d.rowid FROM (SELECT customer_num FROM customer) d") == -205
    assert sqlcode(cur, "SELECT rowid FROM custview") == -205
    assert rows(cur, "SELECT COUNT(*) FROM customer WHERE rowid > 0") == [(28,)]


def test_catalog_tables_have_rowids_and_its_views_not(cur: ifxwire.Cursor) -> None:
    """The system catalog tables are tables with rows, so ROWID reads there too (each row its
    own); sysindexes is a view over sysindices on a real server and here (-205)."""
    got = rows(cur, "SELECT rowid, tabname FROM systables WHERE tabid IN (1, 2) ORDER BY tabid")
    assert [r[1].rstrip() for r in got] == ["systables", "syscolumns"]
    assert len({r[0] for r in got}) == 2 and all(isinstance(r[0], int) for r in got)
    assert sqlcode(cur, "SELECT rowid FROM sysindexes") == -205


def test_min_rowid_keeps_one_row_of_each_duplicate_set(cur: ifxwire.Cursor) -> None:
    """A ROWID inside an aggregate is not the ROWID keyword beside one (ids_sqs_1440's rule
    is about the select list): ``DELETE … WHERE rowid NOT IN (SELECT MIN(rowid) … GROUP BY
    k)`` keeps the first row of each key, the usual Informix way to drop duplicates."""
    cur.execute("CREATE TEMP TABLE dup (k INT, v CHAR(1))")
    cur.executemany("INSERT INTO dup VALUES (?, ?)",
                    [(1, "a"), (1, "b"), (2, "c"), (2, "d"), (3, "e")])
    cur.execute("DELETE FROM dup WHERE rowid NOT IN (SELECT MIN(rowid) FROM dup GROUP BY k)")
    assert cur.rowcount == 2
    assert rows(cur, "SELECT k, v FROM dup ORDER BY k") == [(1, "a"), (2, "c"), (3, "e")]
