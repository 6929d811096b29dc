"""TRUNCATE's privileges and the objects RENAME, ALTER TABLE, CREATE TRIGGER and CREATE SYNONYM
refuse, fourteenth round (issue 23), through the real driver and the embedded server over
sockets.

Pages: HCL Informix 14.10 Guide to SQL: Syntax, "TRUNCATE statement" (ids_sqs_1236: the owner,
a DBA or a holder of the Delete privilege may truncate; "If an enabled Delete trigger is
defined on the table, you must also hold the Alter privilege on the table, even though the
TRUNCATE statement does not activate triggers") and "Restrictions on the TRUNCATE statement"
(ids_sqs_1242); "RENAME TABLE statement" and "RENAME COLUMN statement"; "CREATE TRIGGER
statement", "INSTEAD OF Triggers on Views" (ids_sqs_0637, ids_sqs_0639: a view takes INSTEAD OF
triggers). The codes are those of IBM's message
catalogue in the JDBC jar whose texts name each case: -26020 "Truncating a table with delete
trigger requires ALTER privilege.", -322 "Cannot Alter a view, Rename a view or Create a
trigger on a view (%s).", -584 "Cannot rename system catalog.", -585 "Cannot rename column in
system catalog.", -508 "Cannot rename a temporary table.", -509 "Cannot rename a column in a
temporary table.", -510 "Cannot create synonym for temporary table (%s).". -274 for a
truncate without Delete is our inference (the catalogue's "No DELETE permission"). Before this
round a non-owner's TRUNCATE was -999 whatever he held, and every other case here was -999.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import ifxwire

from .manual import fresh_database, rows, sqlcode


def test_truncate_needs_delete_and_with_a_delete_trigger_alter() -> None:
    from ifxwire.server import Server

    users = {"informix": "in4mix", "joe": "j1"}
    with Server(port=0, host="127.0.0.1", data=":memory:", users=users) as srv:
        kw: dict[str, Any] = {"host": srv.host, "port": srv.port, "autocommit": True}
        with ifxwire.connect(**kw, user="informix", password="in4mix") as conn:
            conn.cursor().execute("CREATE DATABASE trunc14 WITH LOG")
        with ifxwire.connect(**kw, user="informix", password="in4mix",
                             database="trunc14") as dba, \
                ifxwire.connect(**kw, user="joe", password="j1", database="trunc14") as joe:
            cur, jcur = dba.cursor(), joe.cursor()
            cur.execute("GRANT CONNECT TO joe")
            cur.execute("CREATE TABLE u (a INT)")
            cur.execute("REVOKE ALL ON u FROM PUBLIC")
            cur.execute("INSERT INTO u VALUES (1)")
            cur.execute("GRANT SELECT ON u TO joe")
            # neither owner, DBA nor holder of Delete
            assert sqlcode(jcur, "TRUNCATE u", fetch=False) == -274
            assert rows(cur, "SELECT a FROM u") == [(1,)]
            cur.execute("GRANT DELETE ON u TO joe")
            jcur.execute("TRUNCATE TABLE u")  # Delete suffices
            assert rows(cur, "SELECT a FROM u") == []
            # an enabled Delete trigger: Alter too
            cur.execute("CREATE TABLE lg (a INT)")
            cur.execute("CREATE TRIGGER del_u DELETE ON u FOR EACH ROW "
                        "(INSERT INTO lg VALUES (1))")
            cur.execute("INSERT INTO u VALUES (2)")
            assert sqlcode(jcur, "TRUNCATE u", fetch=False) == -26020
            with pytest.raises(ifxwire.Error, match=r"ALTER|Alter"):
                jcur.execute("TRUNCATE u REUSE STORAGE")
            # a disabled trigger does not count
            cur.execute("SET TRIGGERS del_u DISABLED")
            jcur.execute("TRUNCATE u")
            cur.execute("SET TRIGGERS del_u ENABLED")
            cur.execute("INSERT INTO u VALUES (3)")
            cur.execute("GRANT ALTER ON u TO joe")
            jcur.execute("TRUNCATE u DROP STORAGE")
            # the owner needs nothing granted; TRUNCATE fires no trigger
            cur.execute("INSERT INTO u VALUES (4)")
            cur.execute("TRUNCATE u")
            assert rows(cur, "SELECT a FROM u") == []
            assert rows(cur, "SELECT a FROM lg") == []


@pytest.fixture()
def cur(connect_kwargs: dict[str, Any]) -> Iterator[ifxwire.Cursor]:
    with fresh_database(connect_kwargs, "ddl14") as conn:
        c = conn.cursor()
        c.execute("CREATE TABLE t (a INT, b INT)")
        c.execute("CREATE VIEW v AS SELECT a FROM t")
        c.execute("CREATE TEMP TABLE tt (x INT)")
        yield c


def test_a_view_cannot_be_renamed_altered_or_given_a_table_trigger(
        cur: ifxwire.Cursor) -> None:
    """-322 naming the view; an INSTEAD OF trigger is still the view's own."""
    assert sqlcode(cur, "RENAME TABLE v TO v2", fetch=False) == -322
    assert sqlcode(cur, "ALTER TABLE v ADD (c INT)", fetch=False) == -322
    assert sqlcode(cur, "CREATE TRIGGER tv INSERT ON v FOR EACH ROW "
                        "(INSERT INTO t VALUES (1, 1))", fetch=False) == -322
    with pytest.raises(ifxwire.ProgrammingError, match=r"\bv\b"):
        cur.execute("RENAME TABLE v TO v3")
    cur.execute("CREATE TRIGGER tvi INSTEAD OF INSERT ON v REFERENCING NEW AS n "
                "FOR EACH ROW (INSERT INTO t VALUES (n.a, 9))")
    cur.execute("INSERT INTO v VALUES (5)")
    assert rows(cur, "SELECT a, b FROM t") == [(5, 9)]
    assert rows(cur, "SELECT COUNT(*) FROM systables WHERE tabname = 'v'") == [(1,)]


def test_catalogue_and_temporary_tables_are_not_renamed(cur: ifxwire.Cursor) -> None:
    assert sqlcode(cur, "RENAME TABLE systables TO s2", fetch=False) == -584
    assert sqlcode(cur, "RENAME COLUMN systables.tabname TO tn", fetch=False) == -585
    assert sqlcode(cur, "RENAME TABLE tt TO tt2", fetch=False) == -508
    assert sqlcode(cur, "RENAME COLUMN tt.x TO y", fetch=False) == -509
    # the permanent table still renames, table and column
    cur.execute("RENAME TABLE t TO t9")
    cur.execute("RENAME COLUMN t9.b TO bb")
    assert rows(cur, "SELECT COUNT(bb) FROM t9") == [(0,)]
    assert rows(cur, "SELECT x FROM tt") == []


def test_no_synonym_for_a_temporary_table(cur: ifxwire.Cursor) -> None:
    assert sqlcode(cur, "CREATE SYNONYM st FOR tt", fetch=False) == -510
    with pytest.raises(ifxwire.ProgrammingError, match="tt"):
        cur.execute("CREATE SYNONYM st2 FOR tt")
    cur.execute("CREATE SYNONYM sv FOR v")  # a view's or a table's is made
    assert rows(cur, "SELECT COUNT(*) FROM sv") == [(0,)]
