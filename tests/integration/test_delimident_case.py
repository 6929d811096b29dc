"""Delimited names that differ only in case, under DELIMIDENT (issue 23).

Informix keeps the case of a delimited identifier, so with DELIMIDENT a table may have the
columns "A" and "a" (IfxPy's own suite creates one). The server keeps Informix names as
SQLite names, and SQLite folds the case of ASCII letters in every name, so such a second name
cannot be held. It is refused with -999 naming the clash (docs/SERVER.md, "Not supported"),
where it was a -999 with no text; the statement changes nothing, and names that do not clash
keep their case as before.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import ifxwire

pytestmark = pytest.mark.both_drivers  # (conftest.py: sync and asyncio)


@pytest.fixture()
def conn(connect_kwargs: dict[str, Any], dbname: str,
         driver: Any) -> Iterator[ifxwire.Connection]:
    c = driver.connect(**connect_kwargs, database=dbname, autocommit=True,
                       env={"DELIMIDENT": "y"})
    for t in ("dc_t", "dc_u", "dc_v"):
        c.execute(f"DROP TABLE IF EXISTS {t}")
    yield c
    c.close()


def _refused(conn: ifxwire.Connection, sql: str, name: str) -> None:
    with pytest.raises(ifxwire.NotSupportedError) as info:
        conn.execute(sql)
    assert info.value.sqlcode == -999
    assert f"names that differ only in case ({name})" in str(info.value)


def _columns(conn: ifxwire.Connection, table: str) -> list[str]:
    return [r[0] for r in conn.execute(
        "SELECT colname FROM syscolumns c, systables t WHERE c.tabid = t.tabid AND "
        "t.tabname = ? ORDER BY colno", (table,)).fetchall()]


def test_columns_differing_only_in_case_are_refused_by_name(conn: ifxwire.Connection) -> None:
    _refused(conn, 'CREATE TABLE dc_t ("A" INT, "a" INT)', "a")
    assert conn.execute("SELECT COUNT(*) FROM systables WHERE tabname = 'dc_t'").fetchone() == (
        0,)
    _refused(conn, 'CREATE TEMP TABLE dc_t ("A" INT, "a" INT) WITH NO LOG', "a")
    _refused(conn, 'CREATE TABLE dc_t AS SELECT 1 AS "X", 2 AS "x" FROM systables '
                   "WHERE tabid = 1", "x")
    conn.execute('CREATE TABLE dc_t ("A" INT, b INT)')
    _refused(conn, 'ALTER TABLE dc_t ADD ("a" INT)', "a")
    _refused(conn, 'RENAME COLUMN dc_t.b TO "a"', "a")
    assert _columns(conn, "dc_t") == ["A", "b"]
    conn.execute('RENAME COLUMN dc_t.b TO "B"')  # its own name in other case: no clash
    conn.execute('INSERT INTO dc_t ("A", "B") VALUES (1, 2)')
    assert conn.execute('SELECT "A", "B" FROM dc_t').fetchall() == [(1, 2)]


def test_tables_views_and_indexes_differing_only_in_case(conn: ifxwire.Connection) -> None:
    conn.execute("CREATE TABLE dc_u (x INT)")
    _refused(conn, 'CREATE TABLE "DC_U" (x INT)', "DC_U")
    conn.execute("CREATE INDEX dc_i ON dc_u (x)")
    # (x DESC): the same key as dc_i would be -350 before the name is compared
    _refused(conn, 'CREATE INDEX "DC_I" ON dc_u (x DESC)', "DC_I")
    conn.execute("CREATE VIEW dc_v AS SELECT x FROM dc_u")
    _refused(conn, 'CREATE VIEW "DC_V" AS SELECT x FROM dc_u', "DC_V")
    conn.execute("DROP VIEW dc_v")
    conn.execute("DROP TABLE dc_u")


def test_double_quote_inside_a_string_under_delimident(conn: ifxwire.Connection) -> None:
    """With DELIMIDENT a double quote is no string delimiter, and inside a single-quoted
    string it is a plain character: the tokenizer took it for an escape character, so
    '"''"' (the string "'", Django's migrations test a default of it) read '"' + "'" as one
    escaped quote and ran to the end of the statement, -282."""
    row = conn.execute("SELECT '\"''\"', 'a\"', '''\"', 'x\"\"y' FROM systables "
                       "WHERE tabid = 1").fetchone()
    assert row == ("\"'\"", 'a"', "'\"", 'x""y')
    conn.execute("CREATE TABLE dc_t (id INT)")
    conn.execute("ALTER TABLE dc_t ADD (q VARCHAR(10) DEFAULT '\"''\"' NOT NULL)")
    conn.execute("INSERT INTO dc_t (id) VALUES (1)")
    assert conn.execute("SELECT q FROM dc_t").fetchone() == ("\"'\"",)
