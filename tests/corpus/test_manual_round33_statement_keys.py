"""Primary-key and unique constraints checked at the end of an UPDATE, thirty-third session
(issue 23; before, ``UPDATE t SET id = id + 1`` failed with -268 at its first row), through
the real driver and the embedded server over sockets. The statements are ours.

Pages: Guide to SQL: Syntax, SET Transaction Mode (ids_sqs_1209): "When you set the
transaction mode to IMMEDIATE, statement-level checking is turned on, and all specified
constraints are checked at the end of each INSERT, UPDATE, or DELETE statement. If a
constraint violation occurs, the statement is not executed. Immediate is the default".
An index made by CREATE UNIQUE INDEX is no constraint and keeps its row-by-row check [a
practitioner's account; features/statement_keys.py].
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import ifxwire

from .manual import fresh_database, rows, sqlcode


@pytest.fixture()
def cur(connect_kwargs: dict[str, Any]) -> Iterator[ifxwire.Cursor]:
    with fresh_database(connect_kwargs, "stmtkeys33") as conn:
        c = conn.cursor()
        c.execute("CREATE TABLE k (id INT PRIMARY KEY, code CHAR(3) UNIQUE, note CHAR(5))")
        for i, code in ((1, "a"), (2, "b"), (3, "c")):
            c.execute("INSERT INTO k VALUES (?, ?, 'n')", (i, code))
        yield c


def test_renumbering_a_primary_key(cur: ifxwire.Cursor) -> None:
    cur.execute("UPDATE k SET id = id + 1")
    assert cur.rowcount == 3
    assert rows(cur, "SELECT id, code FROM k ORDER BY id", strip=True) == [
        (2, "a"), (3, "b"), (4, "c")]
    cur.execute("UPDATE k SET id = id - 1 WHERE id >= 2")  # the same, downwards
    assert rows(cur, "SELECT id FROM k ORDER BY id") == [(1,), (2,), (3,)]


def test_swapping_unique_values(cur: ifxwire.Cursor) -> None:
    cur.execute("UPDATE k SET code = CASE code WHEN 'a' THEN 'b' WHEN 'b' THEN 'a' "
                "ELSE code END")
    assert rows(cur, "SELECT id, code FROM k ORDER BY id", strip=True) == [
        (1, "b"), (2, "a"), (3, "c")]


def test_a_duplicate_left_at_the_end_is_refused_and_undone(cur: ifxwire.Cursor) -> None:
    assert sqlcode(cur, "UPDATE k SET id = id + 1 WHERE id < 3", fetch=False) == -268
    assert sqlcode(cur, "UPDATE k SET code = 'z'", fetch=False) == -268
    assert rows(cur, "SELECT id, code FROM k ORDER BY id", strip=True) == [
        (1, "a"), (2, "b"), (3, "c")]
    # one NULL per key (Informix's rule), checked at the end too
    cur.execute("UPDATE k SET code = NULL WHERE id = 1")
    assert sqlcode(cur, "UPDATE k SET code = NULL WHERE id = 2", fetch=False) == -268
    cur.execute("UPDATE k SET code = CASE id WHEN 1 THEN 'q' WHEN 2 THEN NULL ELSE code END")
    assert rows(cur, "SELECT id, code FROM k ORDER BY id", strip=True) == [
        (1, "q"), (2, None), (3, "c")]


def test_in_a_transaction_and_rolled_back(cur: ifxwire.Cursor) -> None:
    cur.execute("BEGIN WORK")
    cur.execute("UPDATE k SET id = id + 10")
    assert rows(cur, "SELECT MIN(id), MAX(id) FROM k") == [(11, 13)]
    cur.execute("ROLLBACK WORK")
    assert rows(cur, "SELECT id FROM k ORDER BY id") == [(1,), (2,), (3,)]
    cur.execute("BEGIN WORK")
    cur.execute("UPDATE k SET id = id + 1")
    cur.execute("COMMIT WORK")
    assert rows(cur, "SELECT id FROM k ORDER BY id") == [(2,), (3,), (4,)]


def test_a_referenced_table_keeps_the_row_check(cur: ifxwire.Cursor) -> None:
    """SQLite checks foreign keys through the parent's unique index: a table that other
    tables refer to keeps the row-by-row check (a known difference; statement_keys.py)."""
    cur.execute("CREATE TABLE child (pid INT REFERENCES k (id), x INT)")
    cur.execute("INSERT INTO child VALUES (2, 1)")
    assert sqlcode(cur, "UPDATE k SET id = id + 1", fetch=False) == -268
    assert sqlcode(cur, "UPDATE k SET id = 5 WHERE id = 2", fetch=False) == -692
    assert rows(cur, "SELECT id FROM k ORDER BY id") == [(1,), (2,), (3,)]


def test_the_tables_own_foreign_keys_hold(cur: ifxwire.Cursor) -> None:
    cur.execute("CREATE TABLE parent (p INT PRIMARY KEY)")
    cur.execute("INSERT INTO parent VALUES (1)")
    cur.execute("INSERT INTO parent VALUES (2)")
    cur.execute("CREATE TABLE kid (id INT PRIMARY KEY, p INT REFERENCES parent (p))")
    cur.execute("INSERT INTO kid VALUES (1, 1)")
    cur.execute("INSERT INTO kid VALUES (2, 2)")
    cur.execute("UPDATE kid SET id = id + 1")
    assert sqlcode(cur, "UPDATE kid SET id = id + 1, p = 9", fetch=False) == -691
    assert rows(cur, "SELECT id, p FROM kid ORDER BY id") == [(2, 1), (3, 2)]


def test_a_unique_index_is_checked_row_by_row(cur: ifxwire.Cursor) -> None:
    cur.execute("CREATE TABLE u (n INT, v INT)")
    cur.execute("CREATE UNIQUE INDEX u_n ON u (n)")
    cur.execute("INSERT INTO u VALUES (1, 0)")
    cur.execute("INSERT INTO u VALUES (2, 0)")
    assert sqlcode(cur, "UPDATE u SET n = n + 1", fetch=False) == -239  # the index's code
    assert rows(cur, "SELECT n FROM u ORDER BY n") == [(1,), (2,)]


def test_row_triggers_see_each_row_once(cur: ifxwire.Cursor) -> None:
    cur.execute("CREATE TABLE log (old_id INT, new_id INT)")
    cur.execute("CREATE TRIGGER k_upd UPDATE OF id ON k REFERENCING OLD AS o NEW AS n "
                "FOR EACH ROW (INSERT INTO log VALUES (o.id, n.id))")
    cur.execute("UPDATE k SET id = id + 1")
    assert rows(cur, "SELECT old_id, new_id FROM log ORDER BY old_id") == [
        (1, 2), (2, 3), (3, 4)]
