"""Debezium's Informix connector streams ifxwire-server's changes (docs/CDC.md "Debezium").

tests/interop/debezium/DebeziumCheck.java runs ``io.debezium:debezium-connector-informix``
3.5.0.Final in Debezium's embedded engine (debezium-embedded, the Engine API of debezium-api)
with a file offset store and a file schema history, no Kafka; the jars come from Maven Central
into the cache (maven_apps.py), IBM JDBC 15.0.0.1 from scripts/fetch_jdbc.sh. The connector
runs its own SQL (``sysmaster:syslogs`` for the current LSN, its JDBC metadata, the snapshot
SELECT) and then drives JDBC's CDC engine on the syscdcv1 routines: its events, with the values
Debezium decoded, are the witness.

Run:  pytest tests/interop/test_debezium.py
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from maven_apps import BuildError, maven_classpath, run_checks

import ifxwire

pytestmark = pytest.mark.interop

JDBC_VERSION = "15.0.0.1"


def _events(stdout: str) -> list[str]:
    return [x for x in stdout.splitlines() if x.startswith("EVENT ")]


def test_debezium_snapshot_stream_and_restart(java_tools: dict[str, str],
                                             jdbc_jars: dict[str, Path],
                                             tmp_path: Path) -> None:
    from ifxwire.server import Server

    try:
        classpath = maven_classpath(java_tools, "debezium", jdbc_jars[JDBC_VERSION])
    except BuildError as exc:
        pytest.fail(str(exc), pytrace=False)
    timeout = float(os.environ.get("IFXWIRE_JDBC_TIMEOUT", "240"))
    with Server(port=0, data=str(tmp_path / "data")) as srv:
        kw = {"host": srv.host, "port": srv.port, "user": "informix", "password": "in4mix"}
        c = ifxwire.connect(**kw)
        c.cursor().execute("CREATE DATABASE syscdcv1 WITH LOG")
        c.cursor().execute("CREATE DATABASE dbz WITH LOG")
        c.close()
        w = ifxwire.connect(**kw, database="dbz", autocommit=True)
        w.cursor().execute("CREATE TABLE cust (id INTEGER PRIMARY KEY, name VARCHAR(20), "
                           "price DECIMAL(8,2))")
        # Full-row logging on before the connector starts, so the two rows below are in the
        # change log too: the snapshot must read them and the stream must not repeat them.
        m = ifxwire.connect(**kw, database="syscdcv1", autocommit=True)
        m.cursor().execute("EXECUTE FUNCTION informix.cdc_set_fullrowlogging("
                           "'dbz:informix.cust', 1)")
        m.close()
        w.cursor().execute("INSERT INTO cust VALUES (1, 'one', 1.50)")
        w.cursor().execute("INSERT INTO cust VALUES (2, 'two', 2.00)")
        w.close()
        work = tmp_path / "debezium"
        work.mkdir()
        args = [srv.host, str(srv.port), srv.server_name, "informix", "in4mix", "dbz", "cust",
                str(work)]

        first = run_checks(java_tools, classpath, "DebeziumCheck",
                           [*args, "first", "initial", "6"], timeout)
        assert first.done, first.diagnostics()
        assert "FAILED" not in first.stdout, first.diagnostics()
        assert _events(first.stdout) == [
            'EVENT r cust before=null after={"id":1,"name":"one","price":"1.50"}',
            'EVENT r cust before=null after={"id":2,"name":"two","price":"2.00"}',
            'EVENT c cust before=null after={"id":3,"name":"three","price":"3.25"}',
            'EVENT u cust before={"id":1,"name":"one","price":"1.50"} '
            'after={"id":1,"name":"uno","price":"9.75"}',
            'EVENT d cust before={"id":2,"name":"two","price":"2.00"} after=null',
            'EVENT c cust before=null after={"id":4,"name":"four","price":"4.00"}',
        ], first.diagnostics()
        assert (work / "offsets.dat").stat().st_size > 0

        # Changes while no engine runs, then a restart from the stored offsets: no snapshot,
        # those changes once, nothing of the first run again.
        again = run_checks(java_tools, classpath, "DebeziumCheck",
                           [*args, "restart", "initial", "2"], timeout)
        assert again.done and "FAILED" not in again.stdout, again.diagnostics()
        assert _events(again.stdout) == [
            'EVENT c cust before=null after={"id":5,"name":"five","price":"5.50"}',
            'EVENT u cust before={"id":4,"name":"four","price":"4.00"} '
            'after={"id":4,"name":"FOUR","price":"4.00"}',
        ], again.diagnostics()


def test_syslogs_position_is_where_the_next_transaction_begins(tmp_path: Path) -> None:
    """sysmaster:syslogs' current row, read as Debezium reads it ((uniqid << 32) + (used <<
    12)), is the sequence number of the next captured transaction's BEGINTX, before and after
    a server restart: activating there replays exactly what came after the read."""
    from ifxwire.cdc import EventKind, open_stream
    from ifxwire.server import Server

    data = str(tmp_path / "data")
    lsn_sql = ("SELECT uniqid, used AS logpage FROM sysmaster:syslogs WHERE is_current = 1")

    def lsn(conn: ifxwire.Connection) -> int:
        cur = conn.cursor()
        cur.execute(lsn_sql)
        rows = cur.fetchall()
        assert len(rows) == 1
        return (int(rows[0][0]) << 32) + (int(rows[0][1]) << 12)

    with Server(port=0, data=data) as srv:
        kw = {"host": srv.host, "port": srv.port, "user": "informix", "password": "in4mix"}
        c = ifxwire.connect(**kw)
        c.cursor().execute("CREATE DATABASE syscdcv1 WITH LOG")
        c.cursor().execute("CREATE DATABASE d WITH LOG")
        c.close()
        w = ifxwire.connect(**kw, database="d", autocommit=True)
        w.cursor().execute("CREATE TABLE t (id INTEGER)")
        m = ifxwire.connect(**kw, database="syscdcv1", autocommit=True)
        m.cursor().execute("EXECUTE FUNCTION informix.cdc_set_fullrowlogging('d:informix.t', 1)")
        w.cursor().execute("INSERT INTO t VALUES (1)")  # sequences 1-3
        first = lsn(m)
        assert first == 4096 and lsn(m) == first  # a page boundary, stable while idle
        w.cursor().execute("INSERT INTO t VALUES (2)")
        m.close()
        w.close()
    with Server(port=0, data=data) as srv:
        kw = {"host": srv.host, "port": srv.port, "user": "informix", "password": "in4mix"}
        m = ifxwire.connect(**kw, database="syscdcv1", autocommit=True)
        second = lsn(m)
        assert second == 8192  # the restart numbers above what was handed out
        w = ifxwire.connect(**kw, database="d", autocommit=True)
        w.cursor().execute("INSERT INTO t VALUES (3)")
        w.close()
        got = []
        with open_stream(m, tables=["d:informix.t"], from_sequence=first, timeout=0) as ev:
            for e in ev:
                if e.kind is EventKind.TIMEOUT:
                    break
                if e.kind in (EventKind.BEGIN, EventKind.INSERT):
                    got.append((e.kind, e.sequence, e.row[0] if e.row is not None else None))
        m.close()
    assert got == [(EventKind.BEGIN, 4096, None), (EventKind.INSERT, 4097, 2),
                       (EventKind.BEGIN, 8192, None), (EventKind.INSERT, 8193, 3)]
