"""DROP TYPE of a DISTINCT type that routines or casts name, and the parameter-type lists
JDBC reads for routines of a DISTINCT type, thirty-third session (issue 23: both were left
open by the thirty-second session), through the real driver and the embedded server over
sockets. The statements are ours, modelled on the pages' examples.

Pages: Guide to SQL: Syntax, DROP TYPE (ids_sqs_0743: "You cannot drop a distinct or opaque
type if the database contains any casts, columns, or user-defined functions whose
definitions reference the data type"; "When you drop a distinct type, the database server
automatically drops the two explicit casts between the distinct type and the type on which
it is based"). Code: -9630, as for a column of the type (the server's code for a type in
use, [jcat]).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import ifxwire

from .manual import fresh_database, rows, sqlcode


@pytest.fixture()
def cur(connect_kwargs: dict[str, Any]) -> Iterator[ifxwire.Cursor]:
    with fresh_database(connect_kwargs, "distdrop33") as conn:
        c = conn.cursor()
        c.execute("CREATE DISTINCT TYPE dollars AS DECIMAL(10,2)")
        yield c


def test_a_routine_naming_the_type_keeps_it(cur: ifxwire.Cursor) -> None:
    cur.execute("CREATE FUNCTION cents(d dollars) RETURNING INT; "
                "RETURN (d::DECIMAL(10,2) * 100)::INT; END FUNCTION")
    assert sqlcode(cur, "DROP TYPE dollars RESTRICT", fetch=False) == -9630
    cur.execute("DROP FUNCTION cents")
    cur.execute("CREATE FUNCTION twice(d DECIMAL(10,2)) RETURNING dollars; "
                "RETURN (d * 2)::dollars; END FUNCTION")  # a return value names it too
    assert sqlcode(cur, "DROP TYPE dollars RESTRICT", fetch=False) == -9630
    cur.execute("DROP FUNCTION twice")
    cur.execute("DROP TYPE dollars RESTRICT")  # its own two casts go with it
    assert rows(cur, "SELECT COUNT(*) FROM sysxtdtypes WHERE name = 'dollars'") == [(0,)]
    assert rows(cur, "SELECT COUNT(*) FROM syscasts WHERE argument_xid >= 1 OR "
                     "result_xid >= 1") == [(0,)]


def test_a_cast_naming_the_type_keeps_it(cur: ifxwire.Cursor) -> None:
    cur.execute("CREATE DISTINCT TYPE euros AS DECIMAL(10,2)")
    cur.execute("CREATE EXPLICIT CAST (euros AS dollars)")
    assert sqlcode(cur, "DROP TYPE euros RESTRICT", fetch=False) == -9630
    assert sqlcode(cur, "DROP TYPE dollars RESTRICT", fetch=False) == -9630
    cur.execute("DROP CAST (euros AS dollars)")
    cur.execute("DROP TYPE euros RESTRICT")
    cur.execute("DROP TYPE dollars RESTRICT")


def test_parameter_types_name_the_distinct_type(cur: ifxwire.Cursor) -> None:
    """ifx_param_types / ifx_ret_types (what IBM JDBC's getProcedureColumns reads for
    TYPE_NAME) give the DISTINCT type's own name, as syscolumns types a column by it."""
    cur.execute("CREATE FUNCTION conv(d dollars, n INT) RETURNING dollars; "
                "RETURN d; END FUNCTION")
    assert rows(cur, "SELECT ifx_param_types(procid), ifx_ret_types(procid) "
                     "FROM sysprocedures WHERE procname = 'conv'") == [
        ("dollars,integer", "dollars")]
