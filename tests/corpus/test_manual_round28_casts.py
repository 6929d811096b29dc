"""CREATE CAST and DROP CAST between DISTINCT types and their sources, twenty-eighth round
(issue 23), through the real driver and the embedded server over sockets. The statements are
ours, modelled on the pages.

Pages: Guide to SQL: Syntax 14.10, CREATE CAST (ids_sqs_0362: ``CREATE [EXPLICIT | IMPLICIT]
CAST [IF NOT EXISTS] (source AS target [WITH function])``; the Usage privilege on a DISTINCT
type it names), "Source and Target Data Types" (ids_sqs_0363: not both built-in, no
COLLECTION), "WITH Clause" (ids_sqs_0367: no function only for identical representations),
DROP CAST (ids_sqs_0711: its owner or a DBA; IF EXISTS); Guide to SQL: Reference, SYSCASTS
(ids_sqr_019: class E explicit, I implicit; NULL routine for a cast without one), "Casts for
distinct types" (ids_sqr_176: the two default explicit casts; drop one before making an
implicit one). Codes -9637, -9922, -9923 are Informix's message list's. Before this round
CREATE CAST and DROP CAST were -999.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import pytest

import ifxwire

from .manual import rows, sqlcode

USERS = {"informix": "in4mix", "mark": "m1"}
_CASTS = ("SELECT a.argument_type, a.argument_xid, a.result_type, a.result_xid, a.class, "
          "a.routine_name, a.owner FROM syscasts a ORDER BY 2, 4, 1, 3")


@pytest.fixture(scope="module")
def server() -> Iterator[Any]:
    from ifxwire.server import Server

    with Server(port=0, host="127.0.0.1", data=":memory:", users=USERS) as srv:
        yield srv


@pytest.fixture()
def two(server: Any) -> Iterator[tuple[ifxwire.Cursor, ifxwire.Cursor]]:
    kw: dict[str, Any] = {"host": server.host, "port": server.port, "autocommit": True}
    with ifxwire.connect(**kw, user="informix", password="in4mix") as conn:
        c = conn.cursor()
        c.execute("DROP DATABASE IF EXISTS casts28")
        c.execute("CREATE DATABASE casts28 WITH LOG")
    with ExitStack() as stack:
        dba, mark = (stack.enter_context(ifxwire.connect(
            **kw, user=u, password=USERS[u], database="casts28")).cursor()
            for u in ("informix", "mark"))
        dba.execute("GRANT RESOURCE TO mark")
        dba.execute("CREATE DISTINCT TYPE dollars AS DECIMAL(10,2)")
        dba.execute("CREATE DISTINCT TYPE euros AS DECIMAL(10,2)")
        dba.execute("CREATE DISTINCT TYPE pennies AS INT")
        yield dba, mark


def _xid(cur: ifxwire.Cursor, name: str) -> int:
    return int(rows(cur, f"SELECT extended_id FROM sysxtdtypes WHERE name = '{name}'")[0][0])


def test_implicit_cast_after_dropping_the_default_explicit_one(two: Any) -> None:
    """ids_sqr_176: the default casts are explicit; one must be dropped before the implicit
    one is made; the rows are syscasts' (ids_sqr_019)."""
    cur, _ = two
    d = _xid(cur, "dollars")
    default = [r for r in rows(cur, _CASTS) if d in (r[1], r[3])]
    assert [(r[4], r[5]) for r in default] == [("E", None), ("E", None)]
    # the pair has its cast already: refused (the code is not known to us), IF NOT EXISTS
    # does nothing
    assert sqlcode(cur, "CREATE IMPLICIT CAST (dollars AS DECIMAL(10,2))", fetch=False) == -999
    cur.execute("CREATE IMPLICIT CAST IF NOT EXISTS (dollars AS DECIMAL(10,2))")
    cur.execute("DROP CAST (dollars AS DECIMAL(10,2))")
    assert sqlcode(cur, "DROP CAST (dollars AS DECIMAL(10,2))", fetch=False) == -9922
    cur.execute("DROP CAST IF EXISTS (dollars AS DECIMAL(10,2))")
    cur.execute("CREATE IMPLICIT CAST (dollars AS DECIMAL(10,2))")
    assert ("I", None, "informix") in [(r[4], r[5], str(r[6]).strip()) for r in rows(cur, _CASTS)
                                       if r[1] == d and r[3] == 0]


def test_casts_between_types_of_one_representation(two: Any) -> None:
    """Two DISTINCT types over one source share a representation: a cast without a routine,
    explicit by default (ids_sqs_0362, ids_sqs_0367). DROP TYPE refuses a type such a cast
    names (ids_sqs_0743: not "if the database contains any casts ... whose definitions
    reference the data type"; only its own two casts to and from its source go with it;
    until the thirty-third session DROP TYPE took these casts too)."""
    cur, _ = two
    d, e = _xid(cur, "dollars"), _xid(cur, "euros")
    cur.execute("CREATE CAST (dollars AS euros)")
    cur.execute("CREATE EXPLICIT CAST (euros AS dollars)")
    got = {(r[1], r[3]): r[4] for r in rows(cur, _CASTS)}
    assert got[(d, e)] == "E" and got[(e, d)] == "E"
    # INT and DECIMAL(10,2): another representation, and no routine named
    assert sqlcode(cur, "CREATE CAST (dollars AS pennies)", fetch=False) == -9923
    assert sqlcode(cur, "DROP TYPE euros RESTRICT", fetch=False) == -9630
    cur.execute("DROP CAST (dollars AS euros)")
    cur.execute("DROP CAST (euros AS dollars)")
    cur.execute("DROP TYPE euros RESTRICT")
    assert not [r for r in rows(cur, _CASTS) if e in (r[1], r[3])]


def test_what_create_cast_refuses(two: Any) -> None:
    """Not both built-in, no COLLECTION (ids_sqs_0363: -9923, our inference of the code);
    a type that does not exist: -9628; WITH a function: no routine is -9637 (a routine is
    taken since the thirtieth round); the parentheses are the syntax's."""
    cur, _ = two
    assert sqlcode(cur, "CREATE CAST (INT AS DECIMAL)", fetch=False) == -9923
    assert sqlcode(cur, "CREATE CAST (LIST(INT NOT NULL) AS dollars)", fetch=False) == -9923
    assert sqlcode(cur, "CREATE CAST (nosuch AS INT)", fetch=False) == -9628
    assert sqlcode(cur, "CREATE CAST (dollars AS pennies WITH d2p)", fetch=False) == -9637
    cur.execute("CREATE FUNCTION d2p(d DECIMAL(10,2)) RETURNING INT; "
                "RETURN (d * 100)::INT; END FUNCTION")
    # a cast through a routine is taken since the thirtieth round (test_manual_round30_casts)
    cur.execute("CREATE CAST (dollars AS pennies WITH d2p)")
    assert sqlcode(cur, "CREATE CAST dollars AS euros", fetch=False) == -201
    cur.execute("DROP CAST (dollars AS pennies)")
    assert sqlcode(cur, "DROP CAST (dollars AS pennies)", fetch=False) == -9922


def test_usage_and_ownership(two: Any) -> None:
    """CREATE CAST needs the Usage privilege on the DISTINCT type (ids_sqs_0362; -9997 as
    for a column of the type); DROP CAST its owner or a DBA (ids_sqs_0711; the "No
    permission" -999)."""
    cur, mark = two
    cur.execute("DROP CAST (euros AS DECIMAL(10,2))")
    assert sqlcode(mark, "CREATE CAST (euros AS DECIMAL(10,2))", fetch=False) == -9997
    cur.execute("GRANT USAGE ON TYPE euros TO mark")
    mark.execute("CREATE IMPLICIT CAST (euros AS DECIMAL(10,2))")
    assert sqlcode(mark, "DROP CAST (dollars AS DECIMAL(10,2))", fetch=False) == -999
    mark.execute("DROP CAST (euros AS DECIMAL(10,2))")  # his own
    mark.execute("CREATE CAST (euros AS DECIMAL(10,2))")
    cur.execute("DROP CAST (euros AS DECIMAL(10,2))")  # a DBA's drop


def test_create_cast_inside_create_schema(two: Any) -> None:
    """CREATE SCHEMA AUTHORIZATION takes CREATE CAST among its statements (ids_sqs_0483);
    it was -999 there too."""
    cur, _ = two
    cur.execute("CREATE SCHEMA AUTHORIZATION informix "
                "CREATE DISTINCT TYPE yen AS DECIMAL(10,2) CREATE CAST (yen AS euros)")
    y, e = _xid(cur, "yen"), _xid(cur, "euros")
    assert [r[4] for r in rows(cur, _CASTS) if (r[1], r[3]) == (y, e)] == ["E"]
