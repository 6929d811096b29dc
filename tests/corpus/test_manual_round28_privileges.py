"""Sequence-level privileges, twenty-eighth round (issue 23), through the real driver and the
embedded server over sockets, with two users. The statements are ours, modelled on the pages.

Pages: HCL Informix 14.10 Guide to SQL: Syntax, GRANT "Sequence-Level Privileges"
(ids_sqs_0131: Select and Alter, or ALL, on a sequence or a synonym for one; WITH GRANT
OPTION to a user or to PUBLIC), REVOKE's (ids_sqs_0153), "Alter Privilege" (ids_sqs_0835:
``GRANT ALTER ON cust_seq TO mark``; ALTER SEQUENCE and RENAME SEQUENCE), "Select Privilege"
(ids_sqs_0836: ``GRANT SELECT ON cust_seq TO mark``; CURRVAL and NEXTVAL), "NEXTVAL and
CURRVAL Operators" (ids_sqs_1461: Select on the sequence or DBA), DROP SEQUENCE (ids_sqs_0734:
its owner or a DBA); Guide to SQL: Reference, SYSTABAUTH (ids_sqr_071: rows for a "table,
view, sequence, or synonym"; the letters s and a). Before this round GRANT and REVOKE on a
sequence were -999 and any user could NEXTVAL, ALTER, RENAME or DROP any sequence.

Inferred (no page says; docs/SERVER.md, round 28): PUBLIC's Select on a new sequence outside
ANSI databases, as on a new table; -272 for NEXTVAL/CURRVAL without Select; the "No
permission" refusal (-999) for ALTER/RENAME/DROP SEQUENCE without the privilege.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import pytest

import ifxwire

from .manual import rows, sqlcode

USERS = {"informix": "in4mix", "mark": "m1", "ann": "a1"}


@pytest.fixture(scope="module")
def server() -> Iterator[Any]:
    from ifxwire.server import Server

    with Server(port=0, host="127.0.0.1", data=":memory:", users=USERS) as srv:
        yield srv


@pytest.fixture()
def three(server: Any) -> Iterator[tuple[ifxwire.Cursor, ifxwire.Cursor, ifxwire.Cursor]]:
    """Cursors of informix (the DBA), mark and ann on a fresh database; mark and ann hold
    Resource."""
    kw: dict[str, Any] = {"host": server.host, "port": server.port, "autocommit": True}
    with ifxwire.connect(**kw, user="informix", password="in4mix") as conn:
        c = conn.cursor()
        c.execute("DROP DATABASE IF EXISTS seqpriv28")
        c.execute("CREATE DATABASE seqpriv28 WITH LOG")
    with ExitStack() as stack:
        conns = [stack.enter_context(ifxwire.connect(**kw, user=u, password=USERS[u],
                                                     database="seqpriv28"))
                 for u in ("informix", "mark", "ann")]
        dba, mark, ann = (c.cursor() for c in conns)
        dba.execute("GRANT RESOURCE TO mark, ann")
        yield dba, mark, ann


def _auth(cur: ifxwire.Cursor, name: str) -> list[tuple[Any, ...]]:
    return [tuple(str(v).strip() for v in r) for r in rows(
        cur, "SELECT a.grantor, a.grantee, a.tabauth FROM systabauth a, systables t "
             f"WHERE a.tabid = t.tabid AND t.tabname = '{name}' ORDER BY 2, 1")]


def test_grant_select_and_alter_write_systabauth(three: Any) -> None:
    """ids_sqs_0835 / ids_sqs_0836's examples; the row's letters (ids_sqr_071): s first, a
    seventh, upper case WITH GRANT OPTION; ALL is both; REVOKE clears them."""
    dba, mark, _ = three
    mark.execute("CREATE SEQUENCE cust_seq")
    assert _auth(dba, "cust_seq") == [("mark", "public", "s-------")]
    mark.execute("GRANT SELECT ON cust_seq TO ann")
    mark.execute("GRANT ALTER ON cust_seq TO ann")
    assert _auth(dba, "cust_seq")[0] == ("mark", "ann", "s-----a--")
    mark.execute("REVOKE SELECT ON cust_seq FROM ann")
    assert _auth(dba, "cust_seq")[0] == ("mark", "ann", "------a--")
    mark.execute("GRANT ALL ON cust_seq TO ann WITH GRANT OPTION")
    assert _auth(dba, "cust_seq")[0] == ("mark", "ann", "S-----A--")
    mark.execute("REVOKE ALL ON cust_seq FROM ann")
    mark.execute("REVOKE ALL ON cust_seq FROM public")
    assert _auth(dba, "cust_seq") == []
    # WITH GRANT OPTION to PUBLIC is allowed on a sequence (ids_sqs_0131), unlike a table
    mark.execute("GRANT SELECT ON cust_seq TO public WITH GRANT OPTION")
    assert _auth(dba, "cust_seq") == [("mark", "public", "S--------")]


def test_only_select_and_alter_on_a_sequence(three: Any) -> None:
    """The diagram has ALL, SELECT and ALTER only (ids_sqs_0131, ids_sqs_0153); a synonym
    names its sequence; a missing one is still -206."""
    dba, mark, _ = three
    mark.execute("CREATE SEQUENCE s1")
    mark.execute("CREATE SYNONYM ss FOR s1")
    for priv in ("INSERT", "UPDATE", "DELETE", "INDEX", "REFERENCES"):
        assert sqlcode(mark, f"GRANT {priv} ON s1 TO ann", fetch=False) == -201, priv
    mark.execute("GRANT SELECT ON ss TO ann")
    assert ("mark", "ann", "s--------") in _auth(dba, "s1")
    assert sqlcode(mark, "GRANT SELECT ON nosuch TO ann", fetch=False) == -206


def test_nextval_and_currval_need_select(three: Any) -> None:
    """ids_sqs_1461: Select on the sequence or DBA; through a synonym too; inside an SPL
    routine the owner's WITH GRANT OPTION privilege counts, as for a table."""
    dba, mark, ann = three
    mark.execute("CREATE SEQUENCE cust_seq")
    mark.execute("CREATE SYNONYM cs FOR cust_seq")
    mark.execute("CREATE TABLE t (a INT)")
    mark.execute("GRANT INSERT ON t TO ann")
    assert rows(ann, "SELECT cust_seq.NEXTVAL FROM systables WHERE tabid = 1") == [(1,)]
    mark.execute("REVOKE SELECT ON cust_seq FROM public")
    assert sqlcode(ann, "SELECT cust_seq.NEXTVAL FROM systables WHERE tabid = 1") == -272
    assert sqlcode(ann, "SELECT cs.CURRVAL FROM systables WHERE tabid = 1") == -272
    assert sqlcode(ann, "INSERT INTO t VALUES (cust_seq.NEXTVAL)", fetch=False) == -272
    assert rows(dba, "SELECT cust_seq.NEXTVAL FROM systables WHERE tabid = 1") == [(2,)]
    mark.execute("GRANT SELECT ON cust_seq TO ann")
    ann.execute("INSERT INTO t VALUES (cust_seq.NEXTVAL)")
    assert rows(ann, "SELECT cs.CURRVAL FROM systables WHERE tabid = 1") == [(3,)]
    mark.execute("REVOKE SELECT ON cust_seq FROM ann")
    assert sqlcode(ann, "INSERT INTO t VALUES (cust_seq.NEXTVAL)", fetch=False) == -272


def test_alter_rename_and_drop_sequence(three: Any) -> None:
    """ALTER and RENAME SEQUENCE: the owner, a DBA or a holder of Alter (ids_sqs_0835); DROP
    SEQUENCE: the owner or a DBA (ids_sqs_0734)."""
    dba, mark, ann = three
    mark.execute("CREATE SEQUENCE cust_seq")
    assert sqlcode(ann, "ALTER SEQUENCE cust_seq INCREMENT BY 2", fetch=False) == -999
    assert sqlcode(ann, "RENAME SEQUENCE cust_seq TO c2", fetch=False) == -999
    assert sqlcode(ann, "DROP SEQUENCE cust_seq", fetch=False) == -999
    assert sqlcode(ann, "GRANT SELECT ON cust_seq TO ann", fetch=False) == -999
    mark.execute("GRANT ALTER ON cust_seq TO ann")
    ann.execute("ALTER SEQUENCE cust_seq INCREMENT BY 2")
    ann.execute("RENAME SEQUENCE cust_seq TO c2")
    assert rows(dba, "SELECT inc_val FROM syssequences s, systables t WHERE s.tabid = t.tabid"
                     " AND t.tabname = 'c2'") == [(2,)]
    assert sqlcode(ann, "DROP SEQUENCE c2", fetch=False) == -999  # Alter is not enough
    dba.execute("ALTER SEQUENCE c2 INCREMENT BY 3")
    mark.execute("DROP SEQUENCE c2")
    assert _auth(dba, "c2") == []
    assert rows(dba, "SELECT COUNT(*) FROM systabauth WHERE tabid NOT IN "
                     "(SELECT tabid FROM systables)") == [(0,)]
