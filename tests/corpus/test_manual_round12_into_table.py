"""SELECT … INTO STANDARD | RAW table, twelfth round (issue 23), through the real driver and
the embedded server over sockets.

Pages: HCL Informix 14.10 Guide to SQL: Syntax (https://help.hcl-software.com/hclinformix/
1410/sqs/), "INTO table clauses" (ids_sqs_0159) and "INTO STANDARD and INTO RAW Clauses"
(ids_sqs_2106); "Database-Level Privileges" (ids_sqs_0124) for who may make a permanent
table. The statements are ours, modelled on the pages' examples (tab1's INTEGER col1 cast to
FLOAT into stab1; a join into RAW ptab1; col1+5 without a display label, -249). Codes are
the message catalogue's in IBM's JDBC jar (``sql_en_US.properties``). Before this round
every form but INTO TEMP was -999 and an unlabelled expression into TEMP was -999 too.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import ifxwire

from .manual import fresh_database, rows, sqlcode


@pytest.fixture()
def cur(connect_kwargs: dict[str, Any]) -> Iterator[ifxwire.Cursor]:
    with fresh_database(connect_kwargs, "intotab") as conn:
        c = conn.cursor()
        c.execute("CREATE TABLE tab1 (col1 INT, col2 CHAR(4))")
        c.execute("CREATE TABLE tab2 (t2col1 INT)")
        c.executemany("INSERT INTO tab1 VALUES (?, ?)", [(1, "a"), (50, "b"), (120, "c")])
        c.executemany("INSERT INTO tab2 VALUES (?)", [(3,), (9,)])
        yield c


def _columns(cur: ifxwire.Cursor, table: str) -> list[tuple[Any, ...]]:
    return rows(cur, "SELECT c.colname, c.coltype FROM syscolumns c, systables t WHERE "
                     f"c.tabid = t.tabid AND t.tabname = '{table}' ORDER BY c.colno")


def test_into_standard_casts_and_names_by_label(cur: ifxwire.Cursor) -> None:
    """ids_sqs_0159: ``col1::FLOAT fcol1`` makes a FLOAT column fcol1, a plain column keeps
    its name; the table is permanent (systables, tabtype T) and counts its rows."""
    cur.execute("SELECT col1::FLOAT fcol1, col2 FROM tab1 INTO STANDARD stab1")
    assert cur.rowcount == 3
    assert _columns(cur, "stab1") == [("fcol1", 3), ("col2", 0)]
    assert rows(cur, "SELECT fcol1, col2 FROM stab1 ORDER BY 1", strip=True) == [
        (1.0, "a"), (50.0, "b"), (120.0, "c")]
    assert rows(cur, "SELECT tabtype FROM systables WHERE tabname = 'stab1'") == [("T",)]


def test_into_raw_from_a_join_and_the_default_type(cur: ifxwire.Cursor) -> None:
    """ids_sqs_2106: the join of its RAW example; a bare INTO makes a STANDARD table."""
    cur.execute("SELECT col1 t1col1, col2 t1col2, t2col1 FROM tab1, tab2 "
                "WHERE col1 < 100 AND t2col1 > 5 INTO RAW ptab1")
    assert rows(cur, "SELECT * FROM ptab1 ORDER BY 1", strip=True) == [
        (1, "a", 9), (50, "b", 9)]
    cur.execute("SELECT col1 + 5 pcol1, col2 FROM tab1 INTO ptab2")
    assert _columns(cur, "ptab2") == [("pcol1", 2), ("col2", 0)]
    assert rows(cur, "SELECT MAX(pcol1) FROM ptab2") == [(125,)]


def test_an_expression_without_a_label_is_249(cur: ifxwire.Cursor) -> None:
    """ids_sqs_2106: ``SELECT col1+5, col2 … INTO ptab1`` fails -249 ("Virtual column must
    have explicit name."); the same rule holds for INTO TEMP (ids_sqs_0159), which was -999.
    No table is left behind."""
    assert sqlcode(cur, "SELECT col1 + 5, col2 FROM tab1 INTO ptab1") == -249
    assert sqlcode(cur, "SELECT col1 + 5, col2 FROM tab1 INTO RAW ptab1") == -249
    assert sqlcode(cur, "SELECT col1 + 5 FROM tab1 INTO TEMP tt") == -249
    assert rows(cur, "SELECT COUNT(*) FROM systables WHERE tabname = 'ptab1'") == [(0,)]


def test_restrictions_on_the_result_table(cur: ifxwire.Cursor) -> None:
    """ids_sqs_2106, "Restrictions on the result table": a name a table already has fails
    (-310), a table in another database is a syntax error (-201), a duplicate column name
    fails as in CREATE TABLE (-328); ORDER BY may sort by a column outside the Projection
    clause; the table may take an owner, LOCK MODE and storage options (ids_sqs_0159)."""
    cur.execute("SELECT col1 FROM tab1 INTO STANDARD stab1")
    assert sqlcode(cur, "SELECT col1 FROM tab1 INTO stab1") == -310
    assert sqlcode(cur, "SELECT col1 FROM tab1 INTO other_db:x1") == -201
    assert sqlcode(cur, "SELECT col1, col1 FROM tab1 INTO dup1") == -328
    cur.execute("SELECT col2 FROM tab1 ORDER BY col1 DESC INTO STANDARD informix.ord1 "
                "EXTENT SIZE 16 LOCK MODE ROW")
    assert rows(cur, "SELECT owner, locklevel FROM systables WHERE tabname = 'ord1'") == [
        ("informix", "R")]
    assert rows(cur, "SELECT COUNT(*) FROM ord1") == [(3,)]


def test_combined_query_into_a_table(cur: ifxwire.Cursor) -> None:
    """A combined query's result goes into the table named by the final SELECT (ids_sqs_1073
    for INTO TEMP; the INTO table clauses are one fragment, ids_sqs_0159)."""
    cur.execute("SELECT col1 FROM tab1 UNION SELECT t2col1 FROM tab2 INTO uni1")
    assert rows(cur, "SELECT COUNT(*) FROM uni1") == [(5,)]


def test_into_external_is_not_built(cur: ifxwire.Cursor) -> None:
    """INTO EXTERNAL writes a file through an external table, which this server does not
    have: -999 (before: -999 for every INTO but TEMP)."""
    assert sqlcode(cur, "SELECT col1 FROM tab1 INTO EXTERNAL ext1 "
                        "USING (DATAFILES ('DISK:/tmp/ext1.unl'))") == -999


def test_who_may_select_into_a_table() -> None:
    """Connect lets a user make temporary tables, Resource permanent ones (ids_sqs_0124):
    SELECT … INTO STANDARD and CREATE TABLE … AS SELECT need Resource (-388; CTAS was
    allowed with Connect), and both read their tables as a SELECT does (-272 without the
    Select privilege; neither was checked). The new table is the user's."""
    from ifxwire.server import Server

    users = {"informix": "in4mix", "joe": "j1"}
    with Server(port=0, host="127.0.0.1", data=":memory:", users=users) as srv:
        kw: dict[str, Any] = {"host": srv.host, "port": srv.port, "autocommit": True}
        with ifxwire.connect(**kw, user="informix", password="in4mix") as conn:
            conn.cursor().execute("CREATE DATABASE intopriv WITH LOG")
        with ifxwire.connect(**kw, user="informix", password="in4mix",
                             database="intopriv") as dba, \
                ifxwire.connect(**kw, user="joe", password="j1", database="intopriv") as jc:
            cur, jcur = dba.cursor(), jc.cursor()
            cur.execute("CREATE TABLE tab1 (c INT)")
            cur.execute("INSERT INTO tab1 VALUES (1)")
            cur.execute("GRANT CONNECT TO joe")
            jcur.execute("SELECT c FROM tab1 INTO TEMP tj")
            assert sqlcode(jcur, "SELECT c FROM tab1 INTO jt1") == -388
            assert sqlcode(jcur, "CREATE TABLE jt2 AS SELECT c FROM tab1") == -388
            cur.execute("GRANT RESOURCE TO joe")
            cur.execute("REVOKE SELECT ON tab1 FROM public")
            assert sqlcode(jcur, "SELECT c FROM tab1 INTO jt1") == -272
            assert sqlcode(jcur, "CREATE TABLE jt2 AS SELECT c FROM tab1") == -272
            cur.execute("GRANT SELECT ON tab1 TO joe")
            jcur.execute("SELECT c FROM tab1 INTO jt1")
            assert rows(cur, "SELECT owner FROM systables WHERE tabname = 'jt1'") == [
                ("joe",)]


def test_ordering_a_result_table_by_a_labelled_expression_is_19828(cur: ifxwire.Cursor) -> None:
    """ids_sqs_2108, "Ordering STANDARD or RAW result tables": a sort key that repeats a
    labelled non-trivial expression (its example: a scalar subquery) must name the label;
    the expression itself is -19828 (message catalogue) there, though fine in a plain SELECT
    (was accepted)."""
    sub = "(SELECT MAX(t2col1) FROM tab2)"
    assert sqlcode(cur, f"SELECT {sub} c0, col2 c1 FROM tab1 ORDER BY {sub} NULLS FIRST, "
                        "2 NULLS FIRST INTO r1") == -19828
    assert sqlcode(cur, "SELECT col1 + 1 c0 FROM tab1 ORDER BY col1 + 1 INTO RAW r2") == -19828
    cur.execute(f"SELECT {sub} c0, col2 c1 FROM tab1 ORDER BY c0 NULLS FIRST, 2 NULLS FIRST "
                "INTO r1")
    assert rows(cur, "SELECT COUNT(*), MAX(c0) FROM r1") == [(3, 9)]
    assert rows(cur, "SELECT col1 + 1 c0 FROM tab1 ORDER BY col1 + 1") == [(2,), (51,), (121,)]
