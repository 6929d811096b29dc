"""Change data capture against the real embedded server over sockets: ifxwire.cdc reading the
records the server's syscdcv1 routines serve through the smart-LO read path (docs/CDC.md)."""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from _cdc_support import create_logged_databases

import ifxwire
from ifxwire import cdc
from ifxwire.cdc import EventKind as K
from ifxwire.server import Server

USER, PASSWORD = "informix", "in4mix"


@pytest.fixture(scope="module")
def shop(connect_kwargs: dict[str, Any]) -> str:
    create_logged_databases(connect_kwargs, "syscdcv1", "cdcshop")
    c = ifxwire.connect(**connect_kwargs, database="cdcshop", autocommit=True)
    try:
        cur = c.cursor()
        cur.execute("CREATE TABLE orders (id INTEGER, name VARCHAR(20), price DECIMAL(8,2), "
                    "made DATE, code CHAR(4), big BIGINT, ratio FLOAT, ok BOOLEAN, "
                    "note LVARCHAR(200), at DATETIME YEAR TO SECOND)")
        cur.execute("CREATE TABLE lines (order_id INTEGER, qty SMALLINT)")
        cur.execute("CREATE TABLE other (x INTEGER)")
        cur.execute("CREATE TABLE withlob (x INTEGER, b BLOB, t TEXT)")
    finally:
        c.close()
    return "cdcshop"


@pytest.fixture()
def writer(connect_kwargs: dict[str, Any], shop: str) -> Iterator[ifxwire.Connection]:
    c = ifxwire.connect(**connect_kwargs, database=shop, autocommit=True)
    try:
        yield c
    finally:
        c.close()


@pytest.fixture()
def reader(connect_kwargs: dict[str, Any], shop: str) -> Iterator[ifxwire.Connection]:
    c = ifxwire.connect(**connect_kwargs, database="syscdcv1", autocommit=True)
    try:
        yield c
    finally:
        c.close()


def _until_timeout(stream: cdc.ChangeStream, limit: int = 200) -> list[cdc.Event]:
    out = []
    for ev in stream:
        if ev.kind is K.TIMEOUT:
            return out
        out.append(ev)
        assert len(out) < limit
    return out


def test_insert_update_delete_decode_typed_rows(reader: ifxwire.Connection,
                                                writer: ifxwire.Connection) -> None:
    with cdc.open_stream(reader, tables=["cdcshop:informix.orders"], timeout=1) as st:
        cur = writer.cursor()
        cur.execute("INSERT INTO orders VALUES (1, 'pen', 2.50, '2026-01-31', 'ab', "
                    "9000000000, 0.25, 't', 'a note', '2026-01-31 10:11:12')")
        cur.execute("UPDATE orders SET price = 3, name = 'ink' WHERE id = 1")
        cur.execute("DELETE FROM orders WHERE id = 1")
        events = _until_timeout(st)
    kinds = [e.kind for e in events]
    assert kinds == [K.TABLE_SCHEMA,
                     K.BEGIN, K.INSERT, K.COMMIT,
                     K.BEGIN, K.UPDATE_BEFORE, K.UPDATE_AFTER, K.COMMIT,
                     K.BEGIN, K.DELETE, K.COMMIT]
    ins = events[2].row
    assert ins is not None
    assert (ins["id"], ins["name"], ins["price"], ins["made"], ins["code"], ins["big"],
            ins["ratio"], ins["ok"], ins["note"], ins["at"]) == (
        1, "pen", Decimal("2.50"), dt.date(2026, 1, 31), "ab", 9000000000, 0.25, True,
        "a note", dt.datetime(2026, 1, 31, 10, 11, 12))
    before, after = events[5].row, events[6].row
    assert before is not None and after is not None
    assert (before["name"], before["price"]) == ("pen", Decimal("2.50"))
    assert (after["name"], after["price"]) == ("ink", Decimal("3.00"))
    assert events[9].row is not None and events[9].row["name"] == "ink"
    # rows by index: fixed-length columns first (CDC_REC_TABSCHEMA order), as the server sent
    assert ins[0] == 1
    seqs = [e.sequence for e in events[1:]]
    assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)
    assert {e.table for e in events if e.row is not None} == {"cdcshop:informix.orders"}
    tx = {e.transaction_id for e in events[1:4]}
    assert len(tx) == 1 and events[3].commit_time is not None


def test_transaction_and_rollback(reader: ifxwire.Connection, connect_kwargs: dict[str, Any],
                                  shop: str) -> None:
    w = ifxwire.connect(**connect_kwargs, database=shop)  # autocommit off: BEGIN WORK
    try:
        with cdc.open_stream(reader, tables=["cdcshop:lines"], timeout=1) as st:
            cur = w.cursor()
            cur.execute("INSERT INTO lines VALUES (1, 1)")
            cur.executemany("INSERT INTO lines VALUES (?, ?)", [(2, 2), (3, 3)])
            with pytest.raises(ifxwire.DatabaseError):
                cur.execute("INSERT INTO lines VALUES (4, 'not a number')")
            w.commit()
            cur.execute("INSERT INTO lines VALUES (9, 9)")
            cur.execute("DELETE FROM lines WHERE order_id = 1")
            w.rollback()
            events = _until_timeout(st)
    finally:
        w.close()
    kinds = [e.kind for e in events]
    assert kinds == [K.TABLE_SCHEMA, K.BEGIN, K.INSERT, K.INSERT, K.INSERT, K.COMMIT,
                     K.BEGIN, K.INSERT, K.DELETE, K.ROLLBACK]
    assert [e.row["order_id"] for e in events[2:5] if e.row is not None] == [1, 2, 3]
    assert events[7].row is not None and tuple(events[7].row) == (9, 9)


def test_only_captured_tables_and_columns(reader: ifxwire.Connection,
                                          writer: ifxwire.Connection) -> None:
    tables = ["cdcshop:informix.lines", "cdcshop:informix.orders"]
    with cdc.open_stream(reader, tables=tables, timeout=1,
                         columns={"cdcshop:informix.orders": ["name", "id"]}) as st:
        cur = writer.cursor()
        cur.execute("INSERT INTO other VALUES (1)")
        cur.execute("INSERT INTO orders (id, name) VALUES (7, 'cup')")
        cur.execute("INSERT INTO lines VALUES (7, 2)")
        events = _until_timeout(st)
    data = [(e.kind, e.table, tuple(e.row)) for e in events if e.row is not None]
    assert data == [(K.INSERT, "cdcshop:informix.orders", (7, "cup")),
                    (K.INSERT, "cdcshop:informix.lines", (7, 2))]
    assert [e.table for e in events if e.kind is K.TABLE_SCHEMA] == tables
    row = next(e.row for e in events if e.row is not None)
    assert row is not None and row["name"] == "cup" and row["id"] == 7


def test_timeout_when_nothing_happens(reader: ifxwire.Connection) -> None:
    with cdc.open_stream(reader, tables=["cdcshop:orders"], timeout=1) as st:
        it = iter(st)
        assert next(it).kind is K.TABLE_SCHEMA
        started = time.monotonic()
        ev = next(it)
        waited = time.monotonic() - started
    assert ev.kind is K.TIMEOUT
    assert 0.8 < waited < 5


def test_close_ends_the_session_even_on_error(reader: ifxwire.Connection) -> None:
    with pytest.raises(RuntimeError), cdc.open_stream(reader, tables=["cdcshop:orders"],
                                                      timeout=0) as st:
        sid = st.session
        raise RuntimeError("consumer failed")
    cur = reader.cursor()
    cur.execute("EXECUTE FUNCTION informix.cdc_closesess(?)", (sid,))
    assert cur.fetchone() == (-83708,)  # the session does not exist any more


def test_refusals(reader: ifxwire.Connection, writer: ifxwire.Connection) -> None:
    with pytest.raises(cdc.StreamError) as e:
        cdc.open_stream(reader, tables=["cdcshop:informix.nosuch"])
    assert e.value.code == -83705
    with pytest.raises(cdc.StreamError) as e:
        cdc.open_stream(reader, tables=["nosuchdb:informix.t"])
    assert e.value.code == -83703
    with pytest.raises(cdc.StreamError) as e:
        cdc.open_stream(reader, tables=["cdcshop:withlob"], columns=["x", "nosuch"])
    assert e.value.code == -83707
    # TEXT (a simple large object) is not captured (the guide, "Data for capture"): refused;
    # BLOB (a smart one) is, as its locator (test_cdc_lobs.py)
    with pytest.raises(cdc.StreamError) as e:
        cdc.open_stream(reader, tables=["cdcshop:withlob"], columns=["x", "t"])
    assert e.value.code == -83799
    cur = reader.cursor()
    cur.execute("EXECUTE FUNCTION informix.cdc_opensess('informix', 0, 1, 1, 2, 0)")
    assert cur.fetchone() == (-83702,)  # only API version 1
    cur.execute("EXECUTE FUNCTION informix.cdc_opensess('elsewhere', 0, 1, 1, 1, 1)")
    assert cur.fetchone() == (-83721,)  # the server connected to, by name
    with pytest.raises(ifxwire.DatabaseError) as err:  # only in syscdcv1
        writer.cursor().execute("EXECUTE FUNCTION informix.cdc_closesess(1)")
    assert err.value.sqlcode == -674


def _kw(srv: Server) -> dict[str, Any]:
    return {"host": srv.host, "port": srv.port, "user": USER, "password": PASSWORD}


def test_restart_from_a_sequence_across_a_server_restart(tmp_path: Path) -> None:
    with Server(port=0, data=str(tmp_path)) as srv:
        kw = _kw(srv)
        create_logged_databases(kw, "syscdcv1", "s")
        w = ifxwire.connect(**kw, database="s", autocommit=True)
        w.cursor().execute("CREATE TABLE t (id INTEGER)")
        r = ifxwire.connect(**kw, database="syscdcv1", autocommit=True)
        with cdc.open_stream(r, tables=["s:t"], timeout=1) as st:
            w.cursor().execute("INSERT INTO t VALUES (1)")
            w.cursor().execute("INSERT INTO t VALUES (2)")
            first = _until_timeout(st)
        commits = [e.sequence for e in first if e.kind is K.COMMIT]
        assert len(commits) == 2
        saved = commits[0]  # the consumer finished the first transaction only
        r.close()
        w.close()
    with Server(port=0, data=str(tmp_path)) as srv:
        kw = _kw(srv)
        w = ifxwire.connect(**kw, database="s", autocommit=True)
        w.cursor().execute("INSERT INTO t VALUES (3)")
        dsn = f"informix://{USER}:{PASSWORD}@{srv.host}:{srv.port}/syscdcv1"
        with cdc.open_stream(dsn, tables=["s:t"], timeout=1, from_sequence=saved) as st:
            again = _until_timeout(st)
        w.close()
    rows = [e.row[0] for e in again if e.row is not None]
    assert rows == [2, 3]  # nothing lost, nothing repeated
    seqs = [e.sequence for e in again if e.kind is not K.TABLE_SCHEMA]
    assert seqs == sorted(seqs) and min(seqs) > saved
    assert max(seqs) > max(commits)  # sequence numbers keep growing after the restart
