"""CREATE SCHEMA AUTHORIZATION, through the real driver and the embedded server over sockets
(issue 23, twenty-seventh round).

Pages: Guide to SQL: Syntax, CREATE SCHEMA statement (ids_sqs_0483): a block of CREATE and
GRANT statements with no semicolons between them, run as a unit, every object owned by the
named user; only a DBA may name another user. The Guide to SQL: Reference, "Using the system
catalog" (ids_sqr_011), builds its example catalogue with one: the statements below are
written after it (a customer table, grants on it, a view and indexes), not copied.
"""

from __future__ import annotations

from typing import Any

import ifxwire

from .manual import fresh_database, rows, sqlcode

_SCHEMA = (
    "CREATE SCHEMA AUTHORIZATION maryl "
    "CREATE TABLE customer (customer_num SERIAL(101), fname CHAR(15), lname CHAR(15), "
    "company CHAR(20), city CHAR(15), state CHAR(2), phone CHAR(18)) "
    "GRANT ALTER, ALL ON customer TO cathl WITH GRANT OPTION "
    "GRANT SELECT ON customer TO public "
    "GRANT UPDATE (fname, lname, phone) ON customer TO nhowe "
    "CREATE VIEW california AS SELECT fname, lname, phone FROM customer "
    "WHERE state = 'CA' "
    "CREATE UNIQUE CLUSTER INDEX c_num_ix ON customer (customer_num) "
    "CREATE INDEX state_ix ON customer (state)")


def test_the_reference_example_catalogue(connect_kwargs: dict[str, Any]) -> None:
    """ids_sqr_011's block: one statement, every object maryl's (systables, sysindices),
    its grants in systabauth and syscolauth with maryl as grantor."""
    with fresh_database(connect_kwargs, "r27sch") as conn:
        cur = conn.cursor()
        cur.execute(_SCHEMA)
        assert rows(cur, "SELECT tabname, owner, tabtype FROM systables WHERE tabid >= 100 "
                         "ORDER BY tabname", strip=True) == [
            ("california", "maryl", "V"), ("customer", "maryl", "T")]
        assert rows(cur, "SELECT idxname, owner, idxtype, clustered FROM sysindices "
                         "WHERE idxname IN ('c_num_ix', 'state_ix') ORDER BY idxname",
                    strip=True) == [("c_num_ix", "maryl", "U", "C"),
                                    ("state_ix", "maryl", "D", "")]
        auth = rows(cur, "SELECT grantor, grantee FROM systabauth WHERE tabid = (SELECT tabid "
                         "FROM systables WHERE tabname = 'customer') ORDER BY grantee",
                    strip=True)
        assert ("maryl", "cathl") in auth and ("maryl", "public") in auth
        assert rows(cur, "SELECT grantor, grantee, colno, colauth FROM syscolauth "
                         "ORDER BY colno", strip=True)[:1][0][:2] == ("maryl", "nhowe")
        cur.execute("INSERT INTO customer (fname, state) VALUES ('Ann', 'CA')")
        assert rows(cur, "SELECT fname, lname FROM california", strip=True) == [("Ann", None)]
        assert rows(cur, "SELECT customer_num FROM customer") == [(101,)]


def test_a_trailing_semicolon_and_parentheses_keep_their_parts(
        connect_kwargs: dict[str, Any]) -> None:
    """The block ends at a semicolon (ids_sqs_0483); a CREATE inside a trigger's parenthesised
    actions or a GRANT inside a string is no new part."""
    with fresh_database(connect_kwargs, "r27sch") as conn:
        cur = conn.cursor()
        cur.execute("CREATE SCHEMA AUTHORIZATION informix "
                    "CREATE TABLE log (msg CHAR(20) DEFAULT 'GRANT CREATE') "
                    "CREATE TABLE t (a INT) "
                    "CREATE TRIGGER t_ins INSERT ON t FOR EACH ROW "
                    "(INSERT INTO log (msg) VALUES ('create grant')) "
                    "CREATE SEQUENCE s1;")
        cur.execute("INSERT INTO t VALUES (1)")
        assert rows(cur, "SELECT msg FROM log", strip=True) == [("create grant",)]
        assert rows(cur, "SELECT COUNT(*) FROM syssequences") == [(1,)]


def test_an_error_in_the_third_part_leaves_nothing(connect_kwargs: dict[str, Any]) -> None:
    """A unit: the third statement fails (-206, no such table) and the first two's table and
    grant are gone with it."""
    with fresh_database(connect_kwargs, "r27sch") as conn:
        cur = conn.cursor()
        assert sqlcode(cur, "CREATE SCHEMA AUTHORIZATION maryl "
                            "CREATE TABLE t1 (a INT) "
                            "GRANT SELECT ON t1 TO joe "
                            "CREATE INDEX ix ON nosuch (a)") == -206
        assert rows(cur, "SELECT COUNT(*) FROM systables WHERE tabname = 't1'") == [(0,)]
        assert rows(cur, "SELECT COUNT(*) FROM systabauth WHERE grantee = 'joe'") == [(0,)]


def test_parts_the_page_does_not_allow_are_syntax_errors(connect_kwargs: dict[str, Any]) -> None:
    """Only CREATE and GRANT statements may follow (ids_sqs_0483: "you cannot revoke or
    drop"), and at least one must."""
    with fresh_database(connect_kwargs, "r27sch") as conn:
        _refused(conn.cursor())


def _refused(cur: ifxwire.Cursor) -> None:
    assert sqlcode(cur, "CREATE SCHEMA AUTHORIZATION informix") == -201
    assert sqlcode(cur, "CREATE SCHEMA AUTHORIZATION informix DROP TABLE x") == -201
    assert sqlcode(cur, "CREATE SCHEMA AUTHORIZATION informix CREATE TABLE x1 (a INT) "
                        "REVOKE SELECT ON x1 FROM public") == -201
    assert sqlcode(cur, "CREATE SCHEMA AUTHORIZATION informix "
                        "CREATE TEMP TABLE x2 (a INT)") == -201


def test_only_a_dba_names_another_user() -> None:
    """ids_sqs_0483: with the Resource privilege a user must name himself; a DBA may name
    anyone. joe naming ann is refused (-389, No DBA permission) and creates nothing; joe
    naming joe makes joe's table; Connect alone is -388."""
    from ifxwire.server import Server

    users = {"informix": "in4mix", "joe": "j1"}
    with Server(port=0, host="127.0.0.1", data=":memory:", users=users) as srv:
        kw: dict[str, Any] = {"host": srv.host, "port": srv.port, "autocommit": True}
        with ifxwire.connect(**kw, user="informix", password="in4mix") as conn:
            conn.cursor().execute("CREATE DATABASE schpriv WITH LOG")
        with ifxwire.connect(**kw, user="informix", password="in4mix",
                             database="schpriv") as dba, \
                ifxwire.connect(**kw, user="joe", password="j1", database="schpriv") as jc:
            cur, jcur = dba.cursor(), jc.cursor()
            cur.execute("GRANT CONNECT TO joe")
            assert sqlcode(jcur, "CREATE SCHEMA AUTHORIZATION joe "
                                 "CREATE TABLE j0 (a INT)") == -388
            cur.execute("GRANT RESOURCE TO joe")
            assert sqlcode(jcur, "CREATE SCHEMA AUTHORIZATION ann "
                                 "CREATE TABLE j1 (a INT)") == -389
            jcur.execute("CREATE SCHEMA AUTHORIZATION joe CREATE TABLE j2 (a INT)")
            assert rows(cur, "SELECT tabname, owner FROM systables WHERE tabname MATCHES 'j*' "
                             "ORDER BY 1", strip=True) == [("j2", "joe")]


def test_in_a_transaction_rollback_takes_the_block_back(connect_kwargs: dict[str, Any]) -> None:
    """In a logged database's transaction the block is DDL like any other: ROLLBACK WORK
    undoes all of it, and a failing block leaves the transaction's earlier work alone."""
    with fresh_database(connect_kwargs, "r27sch") as conn:
        cur = conn.cursor()
        cur.execute("CREATE TABLE keep (a INT)")
        cur.execute("BEGIN WORK")
        cur.execute("INSERT INTO keep VALUES (1)")
        assert sqlcode(cur, "CREATE SCHEMA AUTHORIZATION informix CREATE TABLE z1 (a INT) "
                            "CREATE INDEX zx ON nosuch (a)") == -206
        cur.execute("CREATE SCHEMA AUTHORIZATION maryl CREATE TABLE z2 (a INT) "
                    "GRANT SELECT ON z2 TO joe")
        assert rows(cur, "SELECT tabname FROM systables WHERE tabname MATCHES 'z*'",
                    strip=True) == [("z2",)]
        assert rows(cur, "SELECT a FROM keep") == [(1,)]
        cur.execute("ROLLBACK WORK")
        assert rows(cur, "SELECT COUNT(*) FROM systables WHERE tabname MATCHES 'z*'") == [(0,)]
        assert rows(cur, "SELECT COUNT(*) FROM systabauth WHERE grantee = 'joe'") == [(0,)]
