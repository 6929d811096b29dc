"""``TABLE(FUNCTION f(…))`` in FROM: an iterator function's rows as a table (thirty-second
session, issue 23; was -999), through the real driver and the embedded server over sockets.
The routines and statements are ours, modelled on the page's example.

Page: Guide to SQL: Syntax, "Iterator Functions" (ids_sqs_1125): an iterator function (one
that returns rows WITH RESUME) may be the source of a FROM clause as ``TABLE(FUNCTION
name(args))``, with a table alias and a derived-column list; its columns are its RETURNING
values. A derived-column list of another length is -9621, as for a derived table
[inferred]. The server fills a TEMP table of the function's return types with its rows
before the statement runs (docs/SERVER.md, "TABLE(FUNCTION …)").
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import ifxwire

from .manual import fresh_database, rows, sqlcode


@pytest.fixture()
def cur(connect_kwargs: dict[str, Any]) -> Iterator[ifxwire.Cursor]:
    with fresh_database(connect_kwargs, "tfunc32") as conn:
        c = conn.cursor()
        c.execute("CREATE FUNCTION series(lo INT, hi INT) RETURNING INT AS n, CHAR(4) AS tag; "
                  "DEFINE i INT; FOR i = lo TO hi RETURN i, 'n' || i WITH RESUME; END FOR; "
                  "END FUNCTION")
        c.execute("CREATE TABLE stock (stock_num INT, descr CHAR(10))")
        c.execute("INSERT INTO stock VALUES (2, 'helmet')")
        c.execute("INSERT INTO stock VALUES (3, 'gloves')")
        yield c


def test_the_function_s_rows_as_a_table(cur: ifxwire.Cursor) -> None:
    cur.execute("SELECT * FROM TABLE(FUNCTION series(1, 3))")
    assert [d[0] for d in cur.description] == ["n", "tag"]
    assert [tuple(r) for r in cur.fetchall()] == [(1, "n1"), (2, "n2"), (3, "n3")]
    assert rows(cur, "SELECT s.tag, k.descr FROM TABLE(FUNCTION series(1, 5)) s, stock k "
                     "WHERE s.n = k.stock_num ORDER BY 1") == [("n2", "helmet"), ("n3", "gloves")]
    assert rows(cur, "SELECT COUNT(*) FROM TABLE(FUNCTION series(1, 10)) WHERE n > 7") == [(3,)]
    assert rows(cur, "SELECT * FROM TABLE(FUNCTION series(1, 2)) WHERE n > 5") == []


def test_host_variables_and_a_derived_column_list(cur: ifxwire.Cursor) -> None:
    sql = "SELECT a, b FROM TABLE(FUNCTION series(?, ?)) AS v (a, b) WHERE a <> ? ORDER BY a"
    assert rows(cur, sql, (1, 3, 2)) == [(1, "n1"), (3, "n3")]
    assert rows(cur, sql, (7, 8, 0)) == [(7, "n7"), (8, "n8")]  # filled again, not kept
    assert sqlcode(cur, "SELECT * FROM TABLE(FUNCTION series(1, 2)) AS v (a)") == -9621


def test_insert_select_and_spl(cur: ifxwire.Cursor) -> None:
    cur.execute("INSERT INTO stock SELECT n, tag FROM TABLE(FUNCTION series(7, 8))")
    assert cur.rowcount == 2
    assert rows(cur, "SELECT stock_num FROM stock ORDER BY 1") == [(2,), (3,), (7,), (8,)]
    cur.execute("CREATE FUNCTION total(upto INT) RETURNING INT; DEFINE s, k INT; LET s = 0; "
                "FOREACH SELECT n INTO k FROM TABLE(FUNCTION series(1, upto)) "
                "LET s = s + k; END FOREACH; RETURN s; END FUNCTION")
    assert rows(cur, "EXECUTE FUNCTION total(4)") == [(10,)]
    assert rows(cur, "EXECUTE FUNCTION total(10)") == [(55,)]


def test_two_cursors_of_one_statement_and_a_select_into(cur: ifxwire.Cursor) -> None:
    """Review of 6832185a: each execution refills the statement's one TEMP table, so a query
    over it is read whole at once; a second cursor of the same text no longer empties the
    rows a first is still reading. SPL's SELECT … INTO reads one too."""
    conn = cur.connection
    first, second = conn.cursor(), conn.cursor()
    sql = "SELECT n FROM TABLE(FUNCTION series(1, ?))"
    first.execute(sql, (20000,))
    assert first.fetchone()[0] == 1
    second.execute(sql, (2,))
    assert [r[0] for r in second.fetchall()] == [1, 2]
    assert len(first.fetchall()) == 19999
    cur.execute("CREATE FUNCTION tot(k INT) RETURNING INT; DEFINE s INT; "
                "SELECT SUM(n) INTO s FROM TABLE(FUNCTION series(1, k)); RETURN s; "
                "END FUNCTION")
    assert rows(cur, "EXECUTE FUNCTION tot(4)") == [(10,)]
    assert rows(cur, "SELECT n, tot(n) FROM TABLE(FUNCTION series(1, 3)) ORDER BY n") == [
        (1, 1), (2, 3), (3, 6)]


def test_what_is_refused(cur: ifxwire.Cursor) -> None:
    assert sqlcode(cur, "SELECT * FROM TABLE(FUNCTION nosuch(1))") == -674
    assert sqlcode(cur, "CREATE VIEW vs AS SELECT * FROM TABLE(FUNCTION series(1, 2))",
                   fetch=False) == -999
    cur.execute("CREATE PROCEDURE quiet() END PROCEDURE")
    # a procedure is no function: not resolved as one (kind "function")
    assert sqlcode(cur, "SELECT * FROM TABLE(FUNCTION quiet())") == -674
