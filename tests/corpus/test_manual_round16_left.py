"""What two earlier rounds found and left (issue 23, twenty-third round), through the real
driver and the embedded server over sockets.

Pages: HCL Informix 14.10 Guide to SQL: Syntax, "DROP SEQUENCE statement" (ids_sqs_0734),
"CREATE SYNONYM statement" (ids_sqs_0360). Codes not named by a page are those of IBM's message
catalogue in the JDBC jar [jcat] (``com/informix/msg/sql_en_US.properties``) whose texts name
each case; that a server sends them here is our inference from the texts.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import ifxwire

from .manual import fresh_database, rows, sqlcode


@pytest.fixture()
def cur(connect_kwargs: dict[str, Any]) -> Iterator[ifxwire.Cursor]:
    with fresh_database(connect_kwargs, "left16") as conn:
        yield conn.cursor()


# ---- synonyms of a sequence (ids_sqs_0734) -----------------------------------------------------
def test_a_synonym_names_a_sequence_for_nextval_and_currval(cur: ifxwire.Cursor) -> None:
    """ids_sqs_0734 speaks of "any synonyms for the name of the sequence": CREATE SYNONYM
    accepts a sequence (was -206), and NEXTVAL / CURRVAL through the synonym step and read the
    sequence itself (one counter, whichever name is used)."""
    cur.execute("CREATE SEQUENCE inv_seq START WITH 10")
    cur.execute("CREATE SYNONYM inv_syn FOR inv_seq")
    assert rows(cur, "SELECT inv_syn.NEXTVAL FROM systables WHERE tabid = 1") == [(10,)]
    assert rows(cur, "SELECT inv_seq.NEXTVAL FROM systables WHERE tabid = 1") == [(11,)]
    assert rows(cur, "SELECT inv_syn.CURRVAL FROM systables WHERE tabid = 1") == [(11,)]
    cur.execute("CREATE TABLE inv (n INT8)")
    cur.execute("INSERT INTO inv VALUES (inv_syn.NEXTVAL)")
    assert rows(cur, "SELECT n FROM inv") == [(12,)]


def test_dropping_the_sequence_drops_its_synonyms(cur: ifxwire.Cursor) -> None:
    """ids_sqs_0734: "If you drop a sequence, any synonyms for the name of the sequence are
    also dropped automatically"; "You cannot use a synonym to specify the identifier of the
    sequence in the DROP SEQUENCE statement" (-8300, the missing sequence's code [jcat],
    our inference)."""
    cur.execute("CREATE SEQUENCE s1")
    cur.execute("CREATE SYNONYM s1_syn FOR s1")
    cur.execute("CREATE PUBLIC SYNONYM s1_pub FOR s1")
    assert sqlcode(cur, "DROP SEQUENCE s1_syn") == -8300
    cur.execute("DROP SEQUENCE s1")
    assert rows(cur, "SELECT COUNT(*) FROM systables WHERE tabname IN "
                     "('s1', 's1_syn', 's1_pub')") == [(0,)]
    assert sqlcode(cur, "SELECT s1_syn.NEXTVAL FROM systables WHERE tabid = 1") != 0
    # the names are free again
    cur.execute("CREATE TABLE s1_syn (a INT)")
    cur.execute("CREATE SEQUENCE s1_pub")
