"""The parked read's bound when its session is busy (engine/session/session_park.py).

A commit that fills the WAL ends the parked reads of the sessions that wait for their
clients; a session that is busy at that moment (its ``use`` lock held) cannot be touched
and must end its own as soon as it lets go of that lock (``park_stale``), else an idle
session would keep an old snapshot, and the WAL from restarting, until its next statement.
Engine-level: the race is made deterministic by holding the session's ``use`` lock as a
request does.
"""

from __future__ import annotations

from typing import Any

from ifxwire.server.engine import Engine
from ifxwire.server.engine.session import session_park

from .conftest import Sql, session_on


def _park(s: Any, sql: str) -> list[tuple[object, ...]]:
    """An OPEN as the wire layer's cached group makes it (``_park_ok``)."""
    s._park_ok = True
    p = s.prepare(sql)
    return list(s.open_cursor(p, []))


def _fill_wal(writer: Sql) -> None:
    writer.run("BEGIN WORK")
    for i in range(140):  # ~4.3 MB: more than 1000 pages of 4 KiB
        writer.run("INSERT INTO big VALUES (?)", str(i % 10) * 31_000)
    writer.run("COMMIT WORK")


def test_a_busy_session_ends_its_parked_read_before_it_waits(db: Sql, engine: Engine) -> None:
    db.run("CREATE TABLE big (s LVARCHAR(32000))")
    reader = session_on(engine, "testdb")
    try:
        assert _park(reader.s, "SELECT count(*) FROM big") == [(0,)]
        assert reader.s._parked
        reader.s.rl_enter()  # busy: a request is being served
        _fill_wal(db)  # a commit past PARK_WAL_FRAMES: the reader cannot be ended now
        assert session_park.shm_frames(db.s._shm) >= session_park.PARK_WAL_FRAMES
        assert reader.s._parked
        reader.s.rl_leave()  # waits for its client: the commit asked, so it ends its own
        assert not reader.s._parked
        assert not engine.parked.get("testdb")
    finally:
        reader.s.close()


def test_an_idle_session_is_ended_by_the_commit(db: Sql, engine: Engine) -> None:
    db.run("CREATE TABLE big (s LVARCHAR(32000))")
    reader = session_on(engine, "testdb")
    try:
        _park(reader.s, "SELECT count(*) FROM big")
        assert reader.s._parked
        _fill_wal(db)
        assert not reader.s._parked
        assert _park(reader.s, "SELECT count(*) FROM big") == [(140,)]
    finally:
        reader.s.close()


def test_a_small_commit_leaves_it_parked_and_the_next_read_fresh(db: Sql,
                                                                engine: Engine) -> None:
    db.run("CREATE TABLE t (a INT)")
    reader = session_on(engine, "testdb")
    try:
        assert _park(reader.s, "SELECT count(*) FROM t") == [(0,)]
        db.run("INSERT INTO t VALUES (1)")
        assert reader.s._parked  # (a small WAL: nobody needs it ended)
        assert _park(reader.s, "SELECT count(*) FROM t") == [(1,)]
        assert reader.s._parked  # parked again, on the fresh snapshot
        db.run("INSERT INTO t VALUES (2)")
        reader.s._park_ok = False  # not a cached group: reads afresh, parks nothing
        assert reader.rows("SELECT count(*) FROM t") == [(2,)]
    finally:
        reader.s.close()
