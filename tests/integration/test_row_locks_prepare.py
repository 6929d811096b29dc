"""Under row locks, a prepared INSERT/UPDATE/DELETE gets its table's lock triggers at PREPARE.

A session makes a table's lock triggers (TEMP triggers that lock each row written,
engine/features/locks/triggers.py) before it first writes the table. They used to be made in
the first EXECUTE's write unit, which made that EXECUTE the slowest of the session: libsqli
waits 1 ms for an EXECUTE's reply and its prepared checks raced there (docs/PROTOCOL.md §6,
libsqli table). They are now made when the statement is prepared, so the first EXECUTE does
what a later one does. Checked through both drivers over a real server: SQLite's own trace of
the session's connection shows every lock trigger made before the first write unit begins
(no rows match the UPDATE and DELETE: their triggers are made all the same).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import ifxwire

pytestmark = pytest.mark.both_drivers

USER = {"user": "informix", "password": "in4mix"}


@pytest.fixture()
def srv(tmp_path: Path) -> Iterator[Any]:
    from ifxwire.server import Server

    with Server(port=0, host="127.0.0.1", data=str(tmp_path / "d"), row_locks=True) as s:
        c = ifxwire.connect(host=s.host, port=s.port, autocommit=True, **USER)
        c.execute("CREATE DATABASE rlp WITH LOG")
        c.close()
        yield s


def _traced(srv: Any, c: Any) -> tuple[Any, list[str]]:
    """The SQLite connection of ``c``'s server session and the statements it runs from now."""
    cur = c.cursor()
    cur.execute("SELECT DBINFO('sessionid') FROM systables WHERE tabid = 1")
    sid = cur.fetchone()[0]
    (session,) = [s for s in srv._sessions if s.engine.session_id == sid]
    conn = session.engine.conn
    seen: list[str] = []
    conn.set_trace_callback(seen.append)
    return conn, seen


def _order(seen: list[str]) -> tuple[int, int]:
    """(lock triggers made before the first BEGIN, lock triggers made after it)."""
    begin = next((i for i, q in enumerate(seen) if q.lstrip().upper().startswith("BEGIN")),
                 len(seen))
    made = [i for i, q in enumerate(seen) if "CREATE TEMP TRIGGER" in q.upper()
            and "_IFXLK_" in q.upper()]
    return sum(1 for i in made if i < begin), sum(1 for i in made if i > begin)


@pytest.mark.parametrize("sql, params", [
    ("INSERT INTO w VALUES (?, ?)", (2, "two")),
    ("UPDATE w SET b = ? WHERE a = ?", ("uno", 1)),
    ("DELETE FROM w WHERE a = ?", (1,)),
])
def test_a_prepared_write_makes_its_lock_triggers_before_its_first_execute(
        driver: Any, srv: Any, sql: str, params: tuple[object, ...]) -> None:
    c = driver.connect(host=srv.host, port=srv.port, database="rlp", autocommit=True, **USER)
    # a table new to this session's SQLite connection (a pooled one keeps its triggers)
    c.cursor().execute("CREATE TABLE w (a INT, b VARCHAR(10))")
    conn, seen = _traced(srv, c)
    try:
        c.cursor().execute(sql, params)
        before, after = _order(seen)
        # before: (0, n), the first EXECUTE's write unit made them
        assert before > 0 and after == 0, "\n".join(q[:100] for q in seen)
        assert sum(1 for q in seen if q.lstrip().upper().startswith("ROLLBACK")) == 0
    finally:
        conn.set_trace_callback(None)
        c.close()
