"""GRANT / REVOKE USAGE ON TYPE and what the Usage privilege guards, twelfth round (issue
23), through the real driver and the embedded server over sockets.

Pages: HCL Informix 14.10 Guide to SQL: Syntax, "Type-Level Privileges" (ids_sqs_0128: USAGE
ON TYPE on a user-defined type that exists; built-in types are PUBLIC's), "USAGE Privilege"
(ids_sqs_0832: the owner holds it, a DBA may grant it, "a user must receive an explicit Usage
privilege from a GRANT statement to use a distinct data type"), "Privileges on Distinct
Types" (ids_sqs_0373: at CREATE DISTINCT TYPE only the owner holds it); Guide to SQL:
Reference, SYSXTDTYPEAUTH (the auth letters, upper case WITH GRANT OPTION). -9997 "No usage
privilege on data type (%s)." and -9628 "Type (%s) not found." are the message catalogue's
in IBM's JDBC jar. Before this round USAGE ON TYPE was -999 and a distinct type's column was
anyone's; ALTER TABLE ADD of a distinct-type column was -999 for everyone.
"""

from __future__ import annotations

from typing import Any

import ifxwire

from .manual import rows, sqlcode


def _auth(cur: ifxwire.Cursor, type_name: str) -> list[tuple[Any, ...]]:
    return rows(cur, "SELECT a.grantor, a.grantee, a.auth FROM sysxtdtypeauth a, "
                     f"sysxtdtypes x WHERE a.type = x.extended_id AND x.name = '{type_name}' "
                     "ORDER BY 2, 1")


def test_usage_on_a_distinct_type() -> None:
    from ifxwire.server import Server

    users = {"informix": "in4mix", "joe": "j1", "ann": "a1"}
    with Server(port=0, host="127.0.0.1", data=":memory:", users=users) as srv:
        kw: dict[str, Any] = {"host": srv.host, "port": srv.port, "autocommit": True}
        with ifxwire.connect(**kw, user="informix", password="in4mix") as conn:
            conn.cursor().execute("CREATE DATABASE usage12 WITH LOG")

        def as_(user: str) -> ifxwire.Connection:
            return ifxwire.connect(**kw, user=user, password=users[user], database="usage12")

        with as_("informix") as dba, as_("joe") as joe, as_("ann") as ann:
            cur, jcur, acur = dba.cursor(), joe.cursor(), ann.cursor()
            cur.execute("GRANT RESOURCE TO joe, ann")
            cur.execute("CREATE DISTINCT TYPE dollars AS DECIMAL(10,2)")
            cur.execute("CREATE TABLE own_t (a dollars)")  # the owner holds Usage
            assert _auth(cur, "dollars") == []  # nobody else does (ids_sqs_0373)
            # no Usage: a column of the type, in CREATE [TEMP] TABLE and ALTER TABLE
            assert sqlcode(jcur, "CREATE TABLE jt (a dollars)") == -9997
            assert sqlcode(jcur, "CREATE TEMP TABLE jtt (a dollars)") == -9997
            jcur.execute("CREATE TABLE jt0 (a INT)")
            assert sqlcode(jcur, "ALTER TABLE jt0 ADD (b dollars)") == -9997
            # joe may not grant what he lacks (code unknown: -999 as for UNDER)
            assert sqlcode(jcur, "GRANT USAGE ON TYPE dollars TO ann") == -999
            cur.execute("GRANT USAGE ON TYPE dollars TO joe WITH GRANT OPTION")
            assert _auth(cur, "dollars") == [("informix", "joe", "U-")]
            jcur.execute("CREATE TABLE jt (a dollars)")
            jcur.execute("ALTER TABLE jt0 ADD (b dollars)")
            jcur.execute("INSERT INTO jt0 VALUES (1, 2.5::dollars)")
            assert rows(jcur, "SELECT b FROM jt0") == [(2.5,)]
            jcur.execute("GRANT USAGE ON TYPE dollars TO ann")  # WITH GRANT OPTION's
            acur.execute("CREATE TABLE nt (a dollars)")
            cur.execute("REVOKE USAGE ON TYPE dollars FROM joe")
            assert _auth(cur, "dollars") == [("joe", "ann", "u-")]
            assert sqlcode(jcur, "CREATE TABLE jt2 (a dollars)") == -9997
            cur.execute("GRANT USAGE ON TYPE dollars TO public")
            jcur.execute("CREATE TABLE jt2 (a dollars)")


def test_usage_on_what_is_not_a_user_defined_type() -> None:
    """A built-in type's name and a missing type are -9628 (the built-in case inferred:
    its Usage belongs to PUBLIC and cannot be revoked, ids_sqs_0128); USAGE on a named ROW
    type is recorded beside its Under letter; USAGE and UNDER in one statement are not
    the grammar's (one privilege per Type-Level clause), -201."""
    from ifxwire.server import Server

    with Server(port=0, host="127.0.0.1", data=":memory:") as srv:
        kw: dict[str, Any] = {"host": srv.host, "port": srv.port, "autocommit": True,
                              "user": "informix", "password": "in4mix"}
        with ifxwire.connect(**kw) as conn:
            conn.cursor().execute("CREATE DATABASE usage12b WITH LOG")
        with ifxwire.connect(**kw, database="usage12b") as conn:
            cur = conn.cursor()
            assert sqlcode(cur, "GRANT USAGE ON TYPE integer TO joe") == -9628
            assert sqlcode(cur, "REVOKE USAGE ON TYPE nosuch_t FROM joe") == -9628
            cur.execute("CREATE ROW TYPE rt (x INT)")
            cur.execute("GRANT USAGE ON TYPE rt TO joe")
            cur.execute("GRANT UNDER ON ROW TYPE rt TO joe")
            assert ("informix", "joe", "un") in _auth(cur, "rt")
            assert sqlcode(cur, "GRANT USAGE, UNDER ON TYPE rt TO joe") == -201
            cur.execute("REVOKE USAGE ON TYPE rt FROM joe")
            assert ("informix", "joe", "-n") in _auth(cur, "rt")
