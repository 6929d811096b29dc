"""Object modes, thirty-second round (issue 23): what the thirtieth round left different from
IBM's pages; through the real driver and the embedded server over sockets, with row locks
(the server's default) and without.

Pages (HCL Informix 14.10 / OneDB): Guide to SQL: Tutorial, "Violations and diagnostics
tables" (ids_sqt_269: rows that violate constraints "during INSERT, UPDATE, and DELETE
operations on the target table" are filtered out to the violations table); Guide to SQL:
Syntax, "Filtering Modes" (ids_sqs_1103: a DELETE's violation copies the record to be
deleted to the violations table and does not delete it; the statement goes on with the next
row), "Structure of the violations table" (ids_sqs_1221: optype D), "Structure of the
diagnostics table" (ids_sqs_1230), "Relationship to the SET Database Object Mode statement"
(ids_sqs_1212), "Using the Violations Table" (ids_sqs_1228: no INSERT into the target from
its violations table), Administrator's Reference -973 (ids_adr_0815). The statements are
ours. Each case failed before this round.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

import ifxwire

from .manual import rows, sqlcode


@pytest.fixture(params=[True, False], ids=["row_locks", "no_row_locks"])
def cur(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[ifxwire.Cursor]:
    """A parent table p32 (three rows) and a child c32 whose foreign key f32_p refers to it
    (rows for parents 1 and 2), in a server with or without row locks."""
    from ifxwire.server import Server

    with Server(port=0, host="127.0.0.1", data=str(tmp_path / "d"),
                row_locks=request.param) as srv:
        kw = {"host": srv.host, "port": srv.port, "user": "informix", "password": "in4mix"}
        with ifxwire.connect(**kw, autocommit=True) as conn:
            conn.cursor().execute("CREATE DATABASE omodes32 WITH LOG")
        with ifxwire.connect(**kw, database="omodes32", autocommit=True) as conn:
            c = conn.cursor()
            c.execute("CREATE TABLE p32 (id INTEGER PRIMARY KEY CONSTRAINT k32_p, "
                      "name CHAR(10))")
            c.execute("CREATE TABLE c32 (cid INTEGER, pid INTEGER, FOREIGN KEY (pid) "
                      "REFERENCES p32 (id) CONSTRAINT f32_p)")
            c.execute("INSERT INTO p32 VALUES (1, 'one')")
            c.execute("INSERT INTO p32 VALUES (2, 'two')")
            c.execute("INSERT INTO p32 VALUES (3, 'three')")
            c.execute("INSERT INTO c32 VALUES (10, 1)")
            c.execute("INSERT INTO c32 VALUES (20, 2)")
            yield c


def _parents(cur: ifxwire.Cursor) -> list[tuple[object, ...]]:
    return rows(cur, "SELECT id FROM p32 ORDER BY id")


def test_delete_of_a_referenced_parent_row_is_filtered(cur: ifxwire.Cursor) -> None:
    """ids_sqs_1103 / ids_sqt_269: with the child's foreign key in FILTERING mode and a
    violations table started for the DELETE's target (the parent), the parent rows whose
    deletion would leave child rows without their parent stay and are copied with optype
    D (ids_sqs_1221), one diagnostics row naming the foreign key (ids_sqs_1230); the others
    are deleted and counted. ENABLED it is -692, as before."""
    assert sqlcode(cur, "DELETE FROM p32", fetch=False) == -692
    cur.execute("START VIOLATIONS TABLE FOR p32")
    cur.execute("SET CONSTRAINTS f32_p FILTERING")
    cur.execute("DELETE FROM p32")
    assert cur.rowcount == 1
    assert _parents(cur) == [(1,), (2,)]
    user = str(rows(cur, "SELECT USER FROM systables WHERE tabid = 1", strip=True)[0][0])
    assert rows(cur, "SELECT id, name, informix_tupleid, informix_optype, informix_recowner "
                     "FROM p32_vio ORDER BY 3", strip=True) == [
        (1, "one", 1, "D", user), (2, "two", 2, "D", user)]
    assert rows(cur, "SELECT informix_tupleid, objtype, objowner, objname FROM p32_dia "
                     "ORDER BY 1", strip=True) == [
        (1, "C", user, "f32_p"), (2, "C", user, "f32_p")]
    # once the children are gone, the parent goes
    cur.execute("DELETE FROM c32 WHERE pid = 1")
    cur.execute("DELETE FROM p32 WHERE id = 1")
    assert cur.rowcount == 1
    assert _parents(cur) == [(2,)]


def test_filtering_delete_with_error_and_without_violations_table(
        cur: ifxwire.Cursor) -> None:
    """FILTERING WITH ERROR: -971 and the statement undone with its violations rows, as for
    an INSERT (ids_sqs_1105); no violations table for the parent: -896 (ids_sqs_1212); more
    diagnostics rows than MAX ROWS: -899."""
    cur.execute("SET CONSTRAINTS f32_p FILTERING")
    assert sqlcode(cur, "DELETE FROM p32", fetch=False) == -896
    assert _parents(cur) == [(1,), (2,), (3,)]
    cur.execute("START VIOLATIONS TABLE FOR p32")
    cur.execute("SET CONSTRAINTS f32_p FILTERING WITH ERROR")
    assert sqlcode(cur, "DELETE FROM p32", fetch=False) == -971
    assert _parents(cur) == [(1,), (2,), (3,)]
    assert rows(cur, "SELECT COUNT(*) FROM p32_vio") == [(0,)]
    cur.execute("DELETE FROM p32 WHERE id = 3")  # breaks nothing
    assert _parents(cur) == [(1,), (2,)]
    # MAX ROWS counts a DELETE's diagnostics rows as an INSERT's (ids_sqs_1216): -899
    cur.execute("STOP VIOLATIONS TABLE FOR p32")
    cur.execute("DROP TABLE p32_vio")
    cur.execute("DROP TABLE p32_dia")
    cur.execute("START VIOLATIONS TABLE FOR p32 MAX ROWS 1")
    cur.execute("SET CONSTRAINTS f32_p FILTERING")
    assert sqlcode(cur, "DELETE FROM p32", fetch=False) == -899
    assert _parents(cur) == [(1,), (2,)]
    cur.execute("DELETE FROM p32 WHERE id = 2")
    assert rows(cur, "SELECT COUNT(*) FROM p32_dia") == [(1,)]


def test_filtering_delete_in_a_transaction_rolls_back(cur: ifxwire.Cursor) -> None:
    """Inside a transaction: ROLLBACK WORK takes back the deleted rows and the violations
    rows; the kept rows are there once, as before (row locks: their deletion is not undone
    a second time)."""
    cur.execute("START VIOLATIONS TABLE FOR p32")
    cur.execute("SET CONSTRAINTS f32_p FILTERING")
    cur.execute("BEGIN WORK")
    cur.execute("DELETE FROM p32")
    assert cur.rowcount == 1
    assert rows(cur, "SELECT COUNT(*) FROM p32_vio") == [(2,)]
    cur.execute("ROLLBACK WORK")
    assert rows(cur, "SELECT id, name FROM p32 ORDER BY id", strip=True) == [
        (1, "one"), (2, "two"), (3, "three")]
    assert rows(cur, "SELECT COUNT(*) FROM p32_vio") == [(0,)]
    assert rows(cur, "SELECT COUNT(*) FROM p32_dia") == [(0,)]
    cur.execute("BEGIN WORK")
    cur.execute("DELETE FROM p32 WHERE id >= 2")
    cur.execute("COMMIT WORK")
    assert _parents(cur) == [(1,), (2,)]
    assert rows(cur, "SELECT id, informix_optype FROM p32_vio", strip=True) == [(2, "D")]


def test_on_delete_cascade_is_no_violation(cur: ifxwire.Cursor) -> None:
    """A foreign key with ON DELETE CASCADE in FILTERING mode: the DELETE of its parent
    cascades, nothing is filtered."""
    cur.execute("CREATE TABLE d32 (did INTEGER, pid INTEGER, FOREIGN KEY (pid) REFERENCES "
                "p32 (id) ON DELETE CASCADE CONSTRAINT f32_d)")
    cur.execute("INSERT INTO d32 VALUES (30, 3)")
    cur.execute("START VIOLATIONS TABLE FOR p32")
    cur.execute("SET CONSTRAINTS f32_d FILTERING")
    cur.execute("DELETE FROM p32 WHERE id = 3")
    assert cur.rowcount == 1
    assert _parents(cur) == [(1,), (2,)]
    assert rows(cur, "SELECT COUNT(*) FROM d32") == [(0,)]
    assert rows(cur, "SELECT COUNT(*) FROM p32_vio") == [(0,)]


def test_foreign_key_created_filtering_and_self_reference(cur: ifxwire.Cursor) -> None:
    """A foreign key created FILTERING by the CREATE TABLE of its (new) table filters its
    parent's DELETE at once; a table whose foreign key refers to itself keeps the rows other
    rows refer to, and a row that refers only to itself goes."""
    cur.execute("START VIOLATIONS TABLE FOR p32")
    cur.execute("CREATE TABLE e32 (eid INTEGER, pid INTEGER, FOREIGN KEY (pid) REFERENCES "
                "p32 (id) CONSTRAINT f32_e FILTERING)")
    cur.execute("INSERT INTO e32 VALUES (1, 3)")
    cur.execute("DELETE FROM p32 WHERE id = 3")
    assert cur.rowcount == 0
    assert rows(cur, "SELECT objname FROM p32_dia", strip=True) == [("f32_e",)]
    cur.execute("CREATE TABLE m32 (id INTEGER PRIMARY KEY, boss INTEGER)")
    # (added by ALTER TABLE: a CREATE TABLE whose foreign key refers to its own primary key
    # records sysreferences.primary 0, which SET CONSTRAINTS … FILTERING then trips on)
    cur.execute("ALTER TABLE m32 ADD CONSTRAINT FOREIGN KEY (boss) REFERENCES m32 (id) "
                "CONSTRAINT f32_m")
    for values in ("1, NULL", "2, 1", "3, 3"):
        cur.execute(f"INSERT INTO m32 VALUES ({values})")
    cur.execute("START VIOLATIONS TABLE FOR m32")
    cur.execute("SET CONSTRAINTS f32_m FILTERING")
    cur.execute("DELETE FROM m32 WHERE id IN (1, 3)")
    assert cur.rowcount == 1
    assert rows(cur, "SELECT id FROM m32 ORDER BY id") == [(1,), (2,)]
    assert rows(cur, "SELECT id, informix_optype FROM m32_vio", strip=True) == [(1, "D")]


def test_no_insert_from_the_violations_table_inside_spl(cur: ifxwire.Cursor) -> None:
    """ids_sqs_1228 / ids_adr_0815 (-973), as the client's INSERT gets it (round 30): the
    same INSERT as a statement of an SPL procedure is refused too, also when the object was
    set to FILTERING after the procedure's first call; with no filtering object it runs."""
    cur.execute("START VIOLATIONS TABLE FOR c32")
    cur.execute("INSERT INTO c32_vio (cid, pid, informix_tupleid, informix_optype, "
                "informix_recowner) VALUES (30, 3, 0, 'I', 'x')")
    cur.execute("CREATE PROCEDURE back32() INSERT INTO c32 SELECT cid, pid FROM c32_vio; "
                "END PROCEDURE")
    cur.execute("EXECUTE PROCEDURE back32()")
    assert rows(cur, "SELECT COUNT(*) FROM c32") == [(3,)]
    cur.execute("SET CONSTRAINTS f32_p FILTERING")
    assert sqlcode(cur, "EXECUTE PROCEDURE back32()", fetch=False) == -973
    assert rows(cur, "SELECT COUNT(*) FROM c32") == [(3,)]
    cur.execute("CREATE PROCEDURE sub32() INSERT INTO c32 SELECT cid, pid FROM c32 WHERE "
                "cid IN (SELECT cid FROM c32_vio); END PROCEDURE")
    assert sqlcode(cur, "EXECUTE PROCEDURE sub32()", fetch=False) == -973


def test_update_of_a_referenced_parent_key_is_filtered(cur: ifxwire.Cursor) -> None:
    """The same for an UPDATE of the parent's key (ids_sqs_1103: an UPDATE's violation
    copies the old and the new row, optype O and N, and leaves the row as it was; ids_sqt_269
    names UPDATE with DELETE): a key that child rows hold stays, the others change. An
    ON DELETE CASCADE key is a violation here too (there is no ON UPDATE CASCADE)."""
    assert sqlcode(cur, "UPDATE p32 SET id = id + 10", fetch=False) == -692
    cur.execute("START VIOLATIONS TABLE FOR p32")
    cur.execute("SET CONSTRAINTS f32_p FILTERING")
    cur.execute("UPDATE p32 SET id = id + 10")
    assert cur.rowcount == 1
    assert _parents(cur) == [(1,), (2,), (13,)]
    assert rows(cur, "SELECT id, informix_tupleid, informix_optype FROM p32_vio "
                     "ORDER BY 2, 3 DESC", strip=True) == [
        (1, 1, "O"), (11, 1, "N"), (2, 2, "O"), (12, 2, "N")]
    assert rows(cur, "SELECT informix_tupleid, objname FROM p32_dia ORDER BY 1",
                strip=True) == [(1, "f32_p"), (2, "f32_p")]
    cur.execute("UPDATE p32 SET name = 'uno' WHERE id = 1")  # the key stays: no violation
    assert cur.rowcount == 1
    cur.execute("BEGIN WORK")
    cur.execute("UPDATE p32 SET id = 3 WHERE id = 13")
    cur.execute("ROLLBACK WORK")
    assert _parents(cur) == [(1,), (2,), (13,)]
    cur.execute("CREATE TABLE d32 (did INTEGER, pid INTEGER, FOREIGN KEY (pid) REFERENCES "
                "p32 (id) ON DELETE CASCADE CONSTRAINT f32_d FILTERING)")
    cur.execute("INSERT INTO d32 VALUES (30, 13)")
    cur.execute("UPDATE p32 SET id = 3 WHERE id = 13")
    assert cur.rowcount == 0
    assert rows(cur, "SELECT objname FROM p32_dia WHERE informix_tupleid = 3",
                strip=True) == [("f32_d",)]
