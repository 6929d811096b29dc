"""The Usage privilege on a distinct type a cast names, and on named ROW types, thirteenth
round (issue 23), through the real driver and the embedded server over sockets.

Pages: HCL Informix 14.10 Guide to SQL: Syntax, "USAGE Privilege" (ids_sqs_0832: "a user must
receive an explicit Usage privilege from a GRANT statement to use a distinct data type"),
"Privileges on Distinct Types" (ids_sqs_0373: at CREATE DISTINCT TYPE only the owner holds
it), "Privileges on named ROW data types" (ids_sqs_0476: operations on a typed table need
the privileges any table needs; creating a named ROW type needs Resource); Extending
Informix Dynamic Server, "Granting Privileges for an Opaque Data Type": the server "checks
for the Usage privilege whenever the [type] name appears in an SQL statement (such as a
column data type in CREATE TABLE or a cast data type in CREATE CAST)". -9997 "No usage
privilege on data type (%s)." is the message catalogue's in IBM's JDBC jar. Before this round
a cast to a distinct type (``::dollars``) was anyone's.
"""

from __future__ import annotations

from typing import Any

import ifxwire

from .manual import rows, sqlcode


def test_a_cast_to_a_distinct_type_needs_usage() -> None:
    from ifxwire.server import Server

    users = {"informix": "in4mix", "joe": "j1"}
    with Server(port=0, host="127.0.0.1", data=":memory:", users=users) as srv:
        kw: dict[str, Any] = {"host": srv.host, "port": srv.port, "autocommit": True}
        with ifxwire.connect(**kw, user="informix", password="in4mix") as conn:
            conn.cursor().execute("CREATE DATABASE usage13 WITH LOG")

        def as_(user: str) -> ifxwire.Connection:
            return ifxwire.connect(**kw, user=user, password=users[user], database="usage13")

        with as_("informix") as dba, as_("joe") as joe:
            cur, jcur = dba.cursor(), joe.cursor()
            cur.execute("GRANT RESOURCE TO joe")
            cur.execute("CREATE DISTINCT TYPE dollars AS DECIMAL(10,2)")
            cur.execute("CREATE TABLE prices (p DECIMAL(10,2))")
            cur.execute("INSERT INTO prices VALUES (2.5)")
            cur.execute("GRANT SELECT ON prices TO joe")
            assert rows(cur, "SELECT p::dollars FROM prices") == [(2.5,)]  # the owner's
            # joe holds no Usage: the cast, in both spellings, is -9997 naming the type
            assert sqlcode(jcur, "SELECT p::dollars FROM prices") == -9997
            assert sqlcode(jcur, "SELECT CAST(p AS dollars) FROM prices") == -9997
            with ifxwire.connect(**kw, user="joe", password="j1", database="usage13") as j2:
                try:
                    # 1.0, a DECIMAL: an INTEGER has no cast to a DISTINCT DECIMAL (-9634;
                    # ids_ddi_337, thirtieth round)
                    j2.cursor().execute("SELECT 1.0::dollars FROM prices")
                except ifxwire.ProgrammingError as e:
                    assert "dollars" in str(e)
                else:
                    raise AssertionError("the cast ran without Usage")
            # a plain cast to the source type needs nothing
            assert rows(jcur, "SELECT p::DECIMAL(10,2) FROM prices") == [(2.5,)]
            cur.execute("GRANT USAGE ON TYPE dollars TO joe")
            assert rows(jcur, "SELECT p::dollars FROM prices") == [(2.5,)]
            cur.execute("REVOKE USAGE ON TYPE dollars FROM joe")
            assert sqlcode(jcur, "SELECT p::dollars FROM prices") == -9997
            cur.execute("GRANT USAGE ON TYPE dollars TO public")
            assert rows(jcur, "SELECT p::dollars FROM prices") == [(2.5,)]


def test_a_named_row_type_needs_no_usage() -> None:
    """ids_sqs_0476: a typed table's operations need table privileges only; a named ROW type
    is used (CREATE TABLE … OF TYPE, a ROW column) without a Usage grant. Pins what held
    before (the twelfth round recorded Usage on ROW types and guarded nothing)."""
    from ifxwire.server import Server

    users = {"informix": "in4mix", "joe": "j1"}
    with Server(port=0, host="127.0.0.1", data=":memory:", users=users) as srv:
        kw: dict[str, Any] = {"host": srv.host, "port": srv.port, "autocommit": True}
        with ifxwire.connect(**kw, user="informix", password="in4mix") as conn:
            conn.cursor().execute("CREATE DATABASE rowuse13 WITH LOG")
        with ifxwire.connect(**kw, user="informix", password="in4mix",
                             database="rowuse13") as dba, \
                ifxwire.connect(**kw, user="joe", password="j1", database="rowuse13") as joe:
            cur, jcur = dba.cursor(), joe.cursor()
            cur.execute("GRANT RESOURCE TO joe")
            cur.execute("CREATE ROW TYPE person_t (name VARCHAR(30), age INT)")
            jcur.execute("CREATE TABLE people OF TYPE person_t")
            jcur.execute("CREATE TABLE visits (who person_t, n INT)")
            jcur.execute("INSERT INTO people VALUES ('ann', 40)")
            assert rows(jcur, "SELECT name, age FROM people") == [("ann", 40)]
