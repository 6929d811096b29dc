"""Change data capture and the edges of a transaction, against the real server over sockets:
ROLLBACK TO SAVEPOINT, TRUNCATE TABLE, and cdc_startcapture on a table without full-row
logging (docs/CDC.md "Status")."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from _cdc_support import create_logged_databases

import ifxwire
from ifxwire import cdc
from ifxwire.cdc import EventKind as K


@pytest.fixture(scope="module")
def db(connect_kwargs: dict[str, Any]) -> str:
    create_logged_databases(connect_kwargs, "syscdcv1", "cdctxn")
    c = ifxwire.connect(**connect_kwargs, database="cdctxn", autocommit=True)
    try:
        for t in ("sp", "tr", "nolog"):
            c.cursor().execute(f"CREATE TABLE {t} (id INTEGER, name VARCHAR(10))")
    finally:
        c.close()
    return "cdctxn"


@pytest.fixture()
def reader(connect_kwargs: dict[str, Any], db: str) -> Iterator[ifxwire.Connection]:
    c = ifxwire.connect(**connect_kwargs, database="syscdcv1", autocommit=True)
    try:
        yield c
    finally:
        c.close()


def _until_timeout(stream: cdc.ChangeStream) -> list[cdc.Event]:
    out = []
    for ev in stream:
        if ev.kind is K.TIMEOUT:
            return out
        out.append(ev)
        assert len(out) < 100
    return out


def test_rollback_to_savepoint_drops_rows_captured_after_it(
        reader: ifxwire.Connection, connect_kwargs: dict[str, Any], db: str) -> None:
    w = ifxwire.connect(**connect_kwargs, database=db)  # autocommit off
    try:
        with cdc.open_stream(reader, tables=[f"{db}:sp"], timeout=1) as st:
            cur = w.cursor()
            cur.execute("INSERT INTO sp VALUES (1, 'kept')")
            cur.execute("SAVEPOINT a")
            cur.execute("INSERT INTO sp VALUES (2, 'undone')")
            cur.execute("SAVEPOINT b")
            cur.execute("UPDATE sp SET name = 'undone' WHERE id = 1")
            cur.execute("ROLLBACK TO SAVEPOINT a")  # b goes with it
            cur.execute("INSERT INTO sp VALUES (3, 'kept')")
            cur.execute("SAVEPOINT c")
            cur.execute("DELETE FROM sp WHERE id = 3")
            cur.execute("RELEASE SAVEPOINT c")  # released: its rows stay
            w.commit()
            events = _until_timeout(st)
        cur.execute("SELECT id, name FROM sp ORDER BY id")
        assert cur.fetchall() == [(1, "kept")]
    finally:
        w.close()
    got = [(e.kind, tuple(e.row) if e.row is not None else None) for e in events
           if e.kind is not K.TABLE_SCHEMA]
    assert got == [(K.BEGIN, None), (K.INSERT, (1, "kept")), (K.INSERT, (3, "kept")),
                   (K.DELETE, (3, "kept")), (K.COMMIT, None)]


def test_truncate_is_a_truncate_record(reader: ifxwire.Connection,
                                       connect_kwargs: dict[str, Any], db: str) -> None:
    w = ifxwire.connect(**connect_kwargs, database=db, autocommit=True)
    try:
        with cdc.open_stream(reader, tables=[f"{db}:tr"], timeout=1) as st:
            cur = w.cursor()
            cur.execute("INSERT INTO tr VALUES (1, 'x')")
            cur.execute("TRUNCATE TABLE tr")
            cur.execute("INSERT INTO tr VALUES (2, 'y')")
            events = _until_timeout(st)
    finally:
        w.close()
    kinds = [e.kind for e in events]
    assert kinds == [K.TABLE_SCHEMA, K.BEGIN, K.INSERT, K.COMMIT, K.BEGIN, K.TRUNCATE, K.COMMIT,
                     K.BEGIN, K.INSERT, K.COMMIT]
    trunc = events[5]
    assert trunc.table == f"{db}:tr" and trunc.sequence == events[4].sequence + 1


def test_truncate_of_a_supertable_is_a_record_for_each_table(
        reader: ifxwire.Connection, connect_kwargs: dict[str, Any], db: str) -> None:
    """TRUNCATE of a typed supertable empties its subtables too (ids_sqt_206): a subtable
    with full-row logging gets its own TRUNCATE record."""
    w = ifxwire.connect(**connect_kwargs, database=db, autocommit=True)
    try:
        cur = w.cursor()
        cur.execute("CREATE ROW TYPE tp_t (id INTEGER)")
        cur.execute("CREATE ROW TYPE ts_t (name VARCHAR(10)) UNDER tp_t")
        cur.execute("CREATE TABLE tp OF TYPE tp_t")
        cur.execute("CREATE TABLE ts OF TYPE ts_t UNDER tp")
        with cdc.open_stream(reader, tables=[f"{db}:ts"], timeout=1) as st:
            cur.execute("INSERT INTO ts VALUES (1, 'x')")
            cur.execute("TRUNCATE TABLE tp")
            events = _until_timeout(st)
    finally:
        w.close()
    assert [e.kind for e in events] == [K.TABLE_SCHEMA, K.BEGIN, K.INSERT, K.COMMIT, K.BEGIN,
                                        K.TRUNCATE, K.COMMIT]
    assert events[5].table == f"{db}:ts"


def test_startcapture_requires_full_row_logging(reader: ifxwire.Connection, db: str) -> None:
    cur = reader.cursor()
    cur.execute("EXECUTE FUNCTION informix.cdc_set_fullrowlogging(?, 0)", (f"{db}:informix.nolog",))
    cur.execute("EXECUTE FUNCTION informix.cdc_opensess(DBINFO('dbservername'), 0, 1, 1, 1, 1)")
    sid = cur.fetchone()[0]
    assert sid > 0
    try:
        cur.execute("EXECUTE FUNCTION informix.cdc_startcapture(?, 0, ?, 'id', 1)",
                    (sid, f"{db}:informix.nolog"))
        assert cur.fetchone() == (-83706,)  # CDC_E_TABPROPERTIES: not (fully) logged
        cur.execute("EXECUTE FUNCTION informix.cdc_set_fullrowlogging(?, 1)",
                    (f"{db}:informix.nolog",))
        assert cur.fetchone() == (0,)
        cur.execute("EXECUTE FUNCTION informix.cdc_startcapture(?, 0, ?, 'id', 1)",
                    (sid, f"{db}:informix.nolog"))
        assert cur.fetchone() == (0,)
    finally:
        cur.execute("EXECUTE FUNCTION informix.cdc_closesess(?)", (sid,))
