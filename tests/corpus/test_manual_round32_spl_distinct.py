"""SPL routines whose parameters, return values and variables are of a DISTINCT type,
thirty-second session (issue 23; they were refused at CREATE, -999 "SPL type dollars"),
through the real driver and the embedded server over sockets. The statements are ours,
modelled on the pages' examples.

Pages: Database Design and Implementation Guide, "Distinct data types" (ids_dmdo_031: "A
distinct data type can be passed to all routines defined for the source; however, the
source data type cannot be passed to routines defined for the distinct data type");
User-Defined Routines, "Routine resolution" (ids_udr_074: a routine's signature is its name
and its parameters' types, so ``f(dollars)`` and ``f(DECIMAL(10,2))`` are two routines, and
a DISTINCT argument prefers its own type to its source); Guide to SQL: Syntax, CREATE
FUNCTION / DEFINE (a parameter or variable may be of any data type the database knows,
ids_sqs_1306), "USAGE Privilege" (ids_sqs_0832: a user needs Usage on a distinct type to use
it) and DROP FUNCTION (ids_sqs_0737: the parameter types pick the overload).

Codes: -9628 "Type (%s) not found." for a name that is no type (as in a column definition);
-674 for a routine no overload of which takes the arguments; -9997 without Usage (all
three as the server already gives them elsewhere; for SPL [inferred]).
"""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import pytest

import ifxwire

from .manual import dollar_accounts, fresh_database, rows, sqlcode


@pytest.fixture()
def cur(connect_kwargs: dict[str, Any]) -> Iterator[ifxwire.Cursor]:
    with fresh_database(connect_kwargs, "spld32") as conn:
        c = conn.cursor()
        dollar_accounts(c)
        yield c


def test_parameters_and_return_values_of_a_distinct_type(cur: ifxwire.Cursor) -> None:
    cur.execute("CREATE FUNCTION cents(d dollars) RETURNING INT; "
                "RETURN (d::DECIMAL(10,2) * 100)::INT; END FUNCTION")
    cur.execute("CREATE FUNCTION twice(d dollars) RETURNING dollars; "
                "DEFINE x DECIMAL(10,2); LET x = d::DECIMAL(10,2) * 2; "
                "RETURN x::dollars; END FUNCTION")
    assert rows(cur, "SELECT cents(bal) FROM acct ORDER BY id") == [(1250,), (725,)]
    assert rows(cur, "EXECUTE FUNCTION cents(3.5::dollars)") == [(350,)]
    # the returned value is a dollars: it compares with the column without a cast
    assert rows(cur, "SELECT id FROM acct WHERE twice(bal) = 25.00::dollars") == [(1,)]
    assert rows(cur, "SELECT twice(bal) FROM acct WHERE id = 2") == [(Decimal("14.50"),)]
    assert sqlcode(cur, "SELECT id FROM acct WHERE twice(bal) = plain") == -674
    # the source value is not passed to a routine of the distinct type (ids_dmdo_031)
    assert sqlcode(cur, "SELECT cents(plain) FROM acct") == -674
    assert sqlcode(cur, "EXECUTE FUNCTION cents(3.5)") == -674


def test_variables_of_a_distinct_type(cur: ifxwire.Cursor) -> None:
    cur.execute("CREATE PROCEDURE total() RETURNING DECIMAL(10,2); "
                "DEFINE x, s dollars; LET s = 0.0::dollars; "
                "FOREACH SELECT bal INTO x FROM acct "
                "LET s = (s::DECIMAL(10,2) + x::DECIMAL(10,2))::dollars; END FOREACH; "
                "RETURN s::DECIMAL(10,2); END PROCEDURE")
    assert rows(cur, "EXECUTE PROCEDURE total()") == [(Decimal("19.75"),)]
    cur.execute("CREATE PROCEDURE keep(d dollars) DEFINE GLOBAL g dollars DEFAULT NULL; "
                "LET g = d; INSERT INTO acct (id, bal) VALUES (3, g); END PROCEDURE")
    cur.execute("EXECUTE PROCEDURE keep((SELECT bal FROM acct WHERE id = 2))")
    assert rows(cur, "SELECT bal FROM acct WHERE id = 3") == [(Decimal("7.25"),)]


def test_a_distinct_type_and_its_source_are_two_signatures(cur: ifxwire.Cursor) -> None:
    """ids_udr_074: overloads by parameter type; ids_dmdo_031: a dollars argument reaches
    the DECIMAL routine once the dollars one is gone."""
    cur.execute("CREATE FUNCTION which(d dollars) RETURNING CHAR(8); "
                "RETURN 'dollars'; END FUNCTION")
    cur.execute("CREATE FUNCTION which(d DECIMAL(10,2)) RETURNING CHAR(8); "
                "RETURN 'decimal'; END FUNCTION")
    assert rows(cur, "SELECT which(bal), which(plain) FROM acct WHERE id = 1") == [
        ("dollars", "decimal")]
    assert sqlcode(cur, "CREATE FUNCTION which(e dollars) RETURNING CHAR(8); "
                        "RETURN 'again'; END FUNCTION", fetch=False) == -673
    assert rows(cur, "SELECT paramtypes FROM sysprocedures WHERE procname = 'which' "
                     "ORDER BY procid") == [("dollars",), ("decimal(10,2)",)]
    # syscolumns' way: 0x800 + DECIMAL's 5, the type's extended id
    (xid,) = rows(cur, "SELECT extended_id FROM sysxtdtypes WHERE name = 'dollars'")[0]
    assert rows(cur, "SELECT c.paramtype, c.paramxid FROM sysproccolumns c, sysprocedures p "
                     "WHERE c.procid = p.procid AND p.procname = 'which' "
                     "AND c.paramname = 'd' ORDER BY p.procid") == [(2053, xid), (5, 0)]
    cur.execute("GRANT EXECUTE ON FUNCTION which(dollars) TO public")
    cur.execute("DROP FUNCTION which(dollars)")
    assert rows(cur, "SELECT which(bal) FROM acct WHERE id = 1") == [("decimal",)]
    assert sqlcode(cur, "DROP FUNCTION which(nosuch)", fetch=False) == -9628


def test_names_that_are_no_type(cur: ifxwire.Cursor) -> None:
    assert sqlcode(cur, "CREATE FUNCTION f(d nosuch) RETURNING INT; RETURN 1; "
                        "END FUNCTION", fetch=False) == -9628
    assert sqlcode(cur, "CREATE FUNCTION f(d INT) RETURNING nosuch; RETURN 1; "
                        "END FUNCTION", fetch=False) == -9628
    assert sqlcode(cur, "CREATE PROCEDURE p() DEFINE x nosuch; END PROCEDURE",
                   fetch=False) == -9628
    # a named ROW type stays refused in SPL (no named-ROW variables here)
    cur.execute("CREATE ROW TYPE pt (x INT, y INT)")
    assert sqlcode(cur, "CREATE PROCEDURE p(v pt) END PROCEDURE", fetch=False) == -999


def test_usage_privilege() -> None:
    """ids_sqs_0832: without Usage on dollars another user's routine may not name it."""
    from ifxwire.server import Server

    users = {"informix": "in4mix", "bob": "b1"}
    with Server(port=0, host="127.0.0.1", data=":memory:", users=users) as srv:
        kw: dict[str, Any] = {"host": srv.host, "port": srv.port, "autocommit": True}
        with ifxwire.connect(**kw, user="informix", password="in4mix") as conn:
            cur = conn.cursor()
            cur.execute("CREATE DATABASE usage32 WITH LOG")
            cur.execute("DATABASE usage32")
            cur.execute("CREATE DISTINCT TYPE dollars AS DECIMAL(10,2)")
            cur.execute("GRANT RESOURCE TO bob")
            with ifxwire.connect(**kw, user="bob", password="b1", database="usage32") as bob:
                b = bob.cursor()
                sql = "CREATE FUNCTION bobs(d dollars) RETURNING INT; RETURN 1; END FUNCTION"
                assert sqlcode(b, sql, fetch=False) == -9997
                assert sqlcode(b, "CREATE PROCEDURE bobp() DEFINE x dollars; END PROCEDURE",
                               fetch=False) == -9997
                cur.execute("GRANT USAGE ON TYPE dollars TO bob")
                b.execute(sql)
                assert rows(b, "EXECUTE FUNCTION bobs(1.5::dollars)") == [(1,)]
