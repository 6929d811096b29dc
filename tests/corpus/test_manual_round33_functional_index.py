"""Functional indexes, thirty-third session, through the real driver and the embedded server
over sockets. Was -201 (the key list took column names only).

Pages: Guide to SQL: Syntax, CREATE INDEX, "Using the return value of a function as an index
key" (ids_sqs_0408): the zones table, the Area() function and both CREATE INDEX statements
are the page's; Performance Guide, "Using a functional index" (ids_prf_398: the function must
be a user-defined routine, "you can create an SPL wrapper" of a built-in) and "Creating a
functional index" (ids_prf_401). Codes from IBM JDBC's message catalogue [jcat]: -9843
"Invalid number of arguments for functional key.", -9844 "Invalid function (%s) used in a
functional key.", -9848 "Functional key part cannot use a variant function (%s)", -25848
"The functional key argument is invalid."; which situation gets which is our reading of
those texts. DROP FUNCTION of a routine an index uses is -705 [guess] (ids_udr_314: a UDR
in use cannot be dropped). The index lives in the catalogue only (docs/SERVER.md,
"Functional indexes"): queries give the same rows with it and without it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import ifxwire

from .manual import fresh_database, rows, sqlcode

AREA = ("CREATE FUNCTION Area(l INT, w INT) RETURNING INT WITH (NOT VARIANT); "
        "RETURN l * w; END FUNCTION")
QUERY = "SELECT id FROM zones WHERE Area(length, width) > 10 ORDER BY id"


@pytest.fixture()
def cur(connect_kwargs: dict[str, Any]) -> Iterator[ifxwire.Cursor]:
    with fresh_database(connect_kwargs, "funcidx33") as conn:
        c = conn.cursor()
        c.execute("CREATE TABLE zones (id INT, length INT, width INT)")
        c.execute(AREA)
        for row in [(1, 2, 3), (2, 4, 5), (3, 10, 10), (4, None, 2)]:
            c.execute("INSERT INTO zones VALUES (?, ?, ?)", row)
        yield c


def _procid(cur: ifxwire.Cursor, name: str = "area") -> int:
    return int(rows(cur, "SELECT procid FROM sysprocedures WHERE procname = ?", (name,))[0][0])


def _index(cur: ifxwire.Cursor, name: str) -> list[tuple[Any, ...]]:
    return rows(cur, "SELECT idxtype, indexkeys FROM sysindices WHERE idxname = ?", (name,),
                strip=True)


def _nindexes(cur: ifxwire.Cursor) -> int:
    return int(rows(cur, "SELECT nindexes FROM systables WHERE tabname = 'zones'")[0][0])


def test_the_pages_functional_index(cur: ifxwire.Cursor) -> None:
    before = rows(cur, QUERY)
    cur.execute("CREATE INDEX zone_func_ind ON zones (Area(length,width))")
    procid = _procid(cur)
    assert _index(cur, "zone_func_ind") == [("D", f"{procid}(2, 3) [1]")]
    # the sysindexes view lists no column for a functional key part
    assert rows(cur, "SELECT part1, part2 FROM sysindexes WHERE idxname = 'zone_func_ind'"
                ) == [(0, 0)]
    assert _nindexes(cur) == 1
    assert rows(cur, QUERY) == before == [(2,), (3,)]
    # written rows are found as before
    cur.execute("INSERT INTO zones VALUES (5, 7, 7)")
    cur.execute("UPDATE zones SET width = 1 WHERE id = 3")
    assert rows(cur, QUERY) == [(2,), (5,)]


def test_the_pages_composite_index(cur: ifxwire.Cursor) -> None:
    cur.execute("CREATE INDEX idx1 ON zones (id, Area(length, width))")
    procid = _procid(cur)
    assert _index(cur, "idx1") == [("D", f"1 [1], {procid}(2, 3) [1]")]
    assert rows(cur, "SELECT part1, part2, part3 FROM sysindexes WHERE idxname = 'idx1'"
                ) == [(1, 0, 0)]
    # a plain index on id is another key; the same functional key again is -350
    cur.execute("CREATE INDEX idx2 ON zones (id)")
    assert sqlcode(cur, "CREATE INDEX idx3 ON zones (id, Area(length, width))",
                   fetch=False) == -350
    cur.execute("CREATE INDEX idx3 ON zones (Area(length, width) DESC, id)")
    assert _index(cur, "idx3") == [("D", f"-{procid}(2, 3) [1], 1 [1]")]
    assert _nindexes(cur) == 3
    assert rows(cur, QUERY) == [(2,), (3,)]


@pytest.mark.parametrize(("ddl", "code"), [
    # a built-in function: an SPL wrapper is the way (ids_prf_398)
    ("CREATE INDEX fi ON zones (abs(id))", -9844),
    ("CREATE INDEX fi ON zones (upper(id))", -9844),
    # no routine of that name at all
    ("CREATE INDEX fi ON zones (no_such_fn(length))", -674),
    # Area takes two arguments
    ("CREATE INDEX fi ON zones (Area(length))", -9843),
    ("CREATE INDEX fi ON zones (Area(length, width, id))", -9843),
    # an argument that is no column of the table
    ("CREATE INDEX fi ON zones (Area(length, 2))", -25848),
    ("CREATE INDEX fi ON zones (Area(length, depth))", -25848),
    ("CREATE INDEX fi ON zones (Area(length, width + 1))", -25848),
    # a unique functional index is not enforced here: refused
    ("CREATE UNIQUE INDEX fi ON zones (Area(length, width))", -999),
])
def test_what_a_functional_key_refuses(cur: ifxwire.Cursor, ddl: str, code: int) -> None:
    assert sqlcode(cur, ddl, fetch=False) == code
    assert rows(cur, "SELECT COUNT(*) FROM sysindices WHERE idxname = 'fi'") == [(0,)]
    assert _nindexes(cur) == 0


def test_online_is_not_valid_with_a_functional_key(cur: ifxwire.Cursor) -> None:
    """"The ONLINE keyword is not valid" (ids_sqs_0408): -201, our choice; a plain index
    takes it."""
    assert sqlcode(cur, "CREATE INDEX fi ON zones (Area(length, width)) ONLINE",
                   fetch=False) == -201
    cur.execute("CREATE INDEX fi ON zones (Area(length, width))")
    cur.execute("CREATE INDEX pi ON zones (id) ONLINE")
    assert _nindexes(cur) == 2


@pytest.mark.parametrize(("routine", "code"), [
    # an SPL function is VARIANT unless created WITH (NOT VARIANT)
    ("CREATE FUNCTION f(a INT) RETURNING INT; RETURN a + 1; END FUNCTION", -9848),
    ("CREATE FUNCTION f(a INT) RETURNING INT WITH (VARIANT); RETURN a + 1; END FUNCTION",
     -9848),
    # DML statements: a write, a query, a subquery, dynamic SQL
    ("CREATE FUNCTION f(a INT) RETURNING INT WITH (NOT VARIANT); "
     "DELETE FROM zones WHERE id < 0; RETURN a; END FUNCTION", -9844),
    ("CREATE FUNCTION f(a INT) RETURNING INT WITH (NOT VARIANT); DEFINE n INT; "
     "SELECT COUNT(*) INTO n FROM zones; RETURN a + n; END FUNCTION", -9844),
    ("CREATE FUNCTION f(a INT) RETURNING INT WITH (NOT VARIANT); "
     "IF a > 0 THEN RETURN (SELECT MAX(id) FROM zones); END IF; RETURN a; END FUNCTION",
     -9844),
    ("CREATE FUNCTION f(a INT) RETURNING INT WITH (NOT VARIANT); "
     "EXECUTE IMMEDIATE 'DELETE FROM zones'; RETURN a; END FUNCTION", -9844),
    # a large object's value
    ("CREATE FUNCTION f(a INT) RETURNING CLOB WITH (NOT VARIANT); RETURN NULL; "
     "END FUNCTION", -9844),
    # a procedure returns no value
    ("CREATE PROCEDURE f(a INT); END PROCEDURE", -9844),
])
def test_what_a_functional_key_refuses_of_its_routine(cur: ifxwire.Cursor, routine: str,
                                                      code: int) -> None:
    cur.execute(routine)
    assert sqlcode(cur, "CREATE INDEX fi ON zones (f(length))", fetch=False) == code
    assert rows(cur, "SELECT COUNT(*) FROM sysindices WHERE idxname = 'fi'") == [(0,)]


def test_a_routine_with_blocks_and_loops_but_no_dml(cur: ifxwire.Cursor) -> None:
    cur.execute("CREATE FUNCTION steps(a INT) RETURNING INT WITH (NOT VARIANT); "
                "DEFINE n, i INT; LET n = 0; "
                "FOR i = 1 TO 10 IF i > a THEN EXIT FOR; END IF; LET n = n + i; END FOR; "
                "BEGIN ON EXCEPTION SET n END EXCEPTION WITH RESUME; LET n = n / a; END; "
                "RETURN n; END FUNCTION")
    before = rows(cur, "SELECT id, steps(length) FROM zones ORDER BY id")
    cur.execute("CREATE INDEX fi ON zones (steps(length))")
    assert rows(cur, "SELECT id, steps(length) FROM zones ORDER BY id") == before


def test_a_collection_column_is_no_argument(cur: ifxwire.Cursor) -> None:
    cur.execute("CREATE TABLE zc (id INT, s SET(INT NOT NULL))")
    cur.execute("CREATE FUNCTION g(a INT) RETURNING INT WITH (NOT VARIANT); RETURN a; "
                "END FUNCTION")
    assert sqlcode(cur, "CREATE INDEX fi ON zc (g(s))", fetch=False) == -25848
    cur.execute("CREATE INDEX fi ON zc (g(id))")


def test_drop_and_rename(cur: ifxwire.Cursor) -> None:
    cur.execute("CREATE INDEX zone_func_ind ON zones (Area(length,width))")
    cur.execute("RENAME INDEX zone_func_ind TO zone_area")
    assert _index(cur, "zone_func_ind") == []
    assert len(_index(cur, "zone_area")) == 1
    assert sqlcode(cur, "CREATE INDEX zone_area ON zones (id)", fetch=False) == -316
    cur.execute("DROP INDEX zone_area")
    assert _index(cur, "zone_area") == []
    assert _nindexes(cur) == 0
    assert sqlcode(cur, "DROP INDEX zone_area", fetch=False) == -319


def test_drop_function_an_index_uses(cur: ifxwire.Cursor) -> None:
    cur.execute("CREATE INDEX zone_func_ind ON zones (Area(length,width))")
    assert sqlcode(cur, "DROP FUNCTION Area", fetch=False) == -705
    assert sqlcode(cur, "DROP ROUTINE Area", fetch=False) == -705
    assert rows(cur, QUERY) == [(2,), (3,)]
    cur.execute("DROP INDEX zone_func_ind")
    cur.execute("DROP FUNCTION Area")


def test_alter_table_keeps_it_or_drops_it_with_its_column(cur: ifxwire.Cursor) -> None:
    cur.execute("CREATE INDEX zone_func_ind ON zones (Area(length,width))")
    cur.execute("CREATE INDEX idx1 ON zones (id, Area(length, width))")
    procid = _procid(cur)
    cur.execute("ALTER TABLE zones ADD (name CHAR(10) BEFORE length)")
    # the same key, its columns numbered anew (length 3, width 4)
    assert _index(cur, "zone_func_ind") == [("D", f"{procid}(3, 4) [1]")]
    assert _index(cur, "idx1") == [("D", f"1 [1], {procid}(3, 4) [1]")]
    assert rows(cur, "SELECT part1, part2 FROM sysindexes WHERE idxname = 'idx1'"
                ) == [(1, 0)]
    assert _nindexes(cur) == 2
    assert rows(cur, QUERY) == [(2,), (3,)]
    cur.execute("ALTER TABLE zones DROP name")
    assert _index(cur, "zone_func_ind") == [("D", f"{procid}(2, 3) [1]")]
    # a column the function reads is dropped: its indexes go
    cur.execute("ALTER TABLE zones DROP width")
    assert _index(cur, "zone_func_ind") == []
    assert _index(cur, "idx1") == []
    assert _nindexes(cur) == 0
    cur.execute("DROP FUNCTION Area")  # nothing uses it now


def test_update_statistics_counts_its_rows(cur: ifxwire.Cursor) -> None:
    cur.execute("CREATE INDEX zone_func_ind ON zones (Area(length,width))")
    cur.execute("CREATE INDEX idx1 ON zones (id, Area(length, width))")
    cur.execute("UPDATE STATISTICS FOR TABLE zones")
    cur.execute("UPDATE STATISTICS")
    # nrows: one key per row; nunique counts the first key part's distinct values when it is
    # a column (idx1's id), and is left 0 for a function's (it would run the routine per row)
    assert rows(cur, "SELECT idxname, nrows, nunique FROM sysindices WHERE tabid = (SELECT "
                "tabid FROM systables WHERE tabname = 'zones') ORDER BY idxname") == [
        ("idx1", 4.0, 4.0), ("zone_func_ind", 4.0, 0.0)]
    assert rows(cur, "SELECT nrows FROM systables WHERE tabname = 'zones'") == [(4.0,)]


def test_set_indexes_and_drop_table(cur: ifxwire.Cursor) -> None:
    cur.execute("CREATE INDEX zone_func_ind ON zones (Area(length,width)) DISABLED")
    assert rows(cur, "SELECT state FROM sysobjstate WHERE name = 'zone_func_ind'") == [("D",)]
    assert rows(cur, QUERY) == [(2,), (3,)]
    cur.execute("SET INDEXES zone_func_ind ENABLED")
    assert rows(cur, "SELECT state FROM sysobjstate WHERE name = 'zone_func_ind'") == [("E",)]
    cur.execute("SET INDEXES FOR zones DISABLED")
    assert rows(cur, "SELECT state FROM sysobjstate WHERE name = 'zone_func_ind'") == [("D",)]
    cur.execute("ALTER INDEX zone_func_ind TO CLUSTER")
    assert rows(cur, "SELECT clustered FROM sysindices WHERE idxname = 'zone_func_ind'"
                ) == [("C",)]
    cur.execute("DROP TABLE zones")
    assert _index(cur, "zone_func_ind") == []
    cur.execute("DROP FUNCTION Area")


def test_a_new_connection_reads_it_from_the_catalogue(connect_kwargs: dict[str, Any]) -> None:
    with fresh_database(connect_kwargs, "funcidx33") as conn:
        c = conn.cursor()
        c.execute("CREATE TABLE zones (id INT, length INT, width INT)")
        c.execute(AREA)
        c.execute("CREATE INDEX zone_func_ind ON zones (Area(length,width))")
        name = rows(c, "SELECT DBINFO('dbname') FROM systables WHERE tabid = 1")[0][0]
        with ifxwire.connect(**connect_kwargs, database=name.strip(),
                             autocommit=True) as other:
            oc = other.cursor()
            assert sqlcode(oc, "CREATE INDEX zone_func_ind ON zones (id)", fetch=False) == -316
            oc.execute("DROP INDEX zone_func_ind")
        assert sqlcode(c, "DROP INDEX zone_func_ind", fetch=False) == -319
