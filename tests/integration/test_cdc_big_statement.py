"""One huge captured statement: an INSERT ... SELECT of 200000 rows into a table with
full-row logging, on a server in its own process. Its captured rows spill a chunk at a time
as a transaction's do, so the server's peak RSS grows by far less than the rows would take
held at once (docs/CDC.md "One huge statement"); the stream then has every row once, in
order. Bounded in time: the statement and the stream take a few seconds each."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest
from _cdc_support import start_server_process

import ifxwire
from ifxwire import cdc
from ifxwire.cdc import EventKind as K

ROWS = 200_000


def _start(data: Path, row_locks: bool) -> tuple[subprocess.Popen[str], int]:
    return start_server_process(data, "--row-locks" if row_locks else "--no-row-locks")


def _rss_mb(pid: int) -> tuple[float, float]:
    """(VmHWM, VmRSS) of the process in MB (/proc/PID/status)."""
    with open(f"/proc/{pid}/status") as f:
        d = dict(line.split(":", 1) for line in f if ":" in line)
    return int(d["VmHWM"].split()[0]) / 1024, int(d["VmRSS"].split()[0]) / 1024


@pytest.mark.parametrize("row_locks", [True, False], ids=["row-locks", "no-row-locks"])
def test_insert_select_of_200k_rows_spills_its_capture(tmp_path: Path, row_locks: bool) -> None:
    proc, port = _start(tmp_path, row_locks)
    kw: dict[str, Any] = {"host": "127.0.0.1", "port": port, "user": "informix",
                          "password": "in4mix", "read_timeout": 120}
    try:
        c = ifxwire.connect(**kw, autocommit=True)
        c.cursor().execute("CREATE DATABASE syscdcv1 WITH LOG")
        c.cursor().execute("CREATE DATABASE big WITH LOG")
        c.close()
        w = ifxwire.connect(**kw, database="big", autocommit=True)
        cur = w.cursor()
        cur.execute("CREATE TABLE a (x INTEGER)")
        cur.execute("CREATE TABLE b (y INTEGER)")
        cur.executemany("INSERT INTO a VALUES (?)", [(i,) for i in range(1000)])
        cur.executemany("INSERT INTO b VALUES (?)", [(i,) for i in range(ROWS // 1000)])
        cur.execute("CREATE TABLE t (id INTEGER, name VARCHAR(40), v INTEGER)")
        m = ifxwire.connect(**kw, database="syscdcv1", autocommit=True)
        m.cursor().execute("EXECUTE FUNCTION informix.cdc_set_fullrowlogging('big:informix.t', 1)")
        # warm the statement path once (a few rows), then measure the server from here
        cur.execute("INSERT INTO t SELECT -1 - x, 'warm', 0 FROM a WHERE x < 3")
        _, start = _rss_mb(proc.pid)
        cur.execute("INSERT INTO t SELECT b.y * 1000 + a.x, 'row number ' || (b.y * 1000 + a.x), "
                    "a.x FROM a, b")
        assert cur.rowcount == ROWS
        peak, _ = _rss_mb(proc.pid)
        w.close()
        # Held at once (RETURNING into a list, as before) the rows grew it by 56 MB here;
        # read back and spilled a chunk at a time, by 5 MB (2026-11-29).
        assert peak - start < 20, f"server peak RSS grew {peak - start:.0f} MB"

        ids: list[int] = []
        commits = 0
        with cdc.open_stream(m, tables=["big:informix.t"], from_sequence=1, timeout=2,
                             max_records=1000) as st:
            for ev in st:
                if ev.kind is K.TIMEOUT:
                    break
                if ev.kind is K.INSERT and ev.row is not None:
                    ids.append(int(ev.row["id"]))
                    if len(ids) == 4:
                        assert ev.row["name"] == "row number 0"
                elif ev.kind is K.COMMIT:
                    commits += 1
        m.close()
        assert commits == 2
        assert ids[:3] == [-1, -2, -3]
        assert sorted(ids[3:]) == list(range(ROWS))  # each row once
    finally:
        proc.terminate()
        proc.wait(30)


@pytest.mark.parametrize("row_locks", [True, False], ids=["row-locks", "no-row-locks"])
def test_insert_whose_rowids_are_not_above_the_largest_is_captured_whole(
        tmp_path: Path, row_locks: bool) -> None:
    """The other way: when the table's largest rowid is 2^63-1 SQLite gives new rows free
    rowids at random, the rows above the largest are not the statement's, and the INSERT is
    run again with RETURNING (its rows captured once each, not lost); under row locks, where
    nothing is rolled back behind the lock table, RETURNING is used at once."""
    import sqlite3

    from ifxwire.server import Server

    kw: dict[str, Any] = {"user": "informix", "password": "in4mix"}
    with Server(port=0, data=str(tmp_path), row_locks=row_locks) as srv:
        kw.update(host=srv.host, port=srv.port)
        c = ifxwire.connect(**kw, autocommit=True)
        c.cursor().execute("CREATE DATABASE syscdcv1 WITH LOG")
        c.cursor().execute("CREATE DATABASE odd WITH LOG")
        c.close()
        w = ifxwire.connect(**kw, database="odd", autocommit=True)
        w.cursor().execute("CREATE TABLE t (id INTEGER)")
        w.close()
    # a row at the largest rowid, written into the stopped server's file directly
    db = sqlite3.connect(next(tmp_path.glob("odd*.ifxdb")))
    db.execute("INSERT INTO t (rowid, id) VALUES (9223372036854775807, -1)")
    db.commit()
    db.close()
    with Server(port=0, data=str(tmp_path), row_locks=row_locks) as srv:
        kw.update(host=srv.host, port=srv.port)
        m = ifxwire.connect(**kw, database="syscdcv1", autocommit=True)
        m.cursor().execute("EXECUTE FUNCTION informix.cdc_set_fullrowlogging('odd:informix.t', 1)")
        w = ifxwire.connect(**kw, database="odd", autocommit=True)
        cur = w.cursor()
        cur.executemany("INSERT INTO t VALUES (?)", [(i,) for i in range(20)])
        cur.execute("INSERT INTO t SELECT id + 100 FROM t WHERE id >= 0")
        assert cur.rowcount == 20
        cur.execute("SELECT COUNT(*) FROM t")
        assert cur.fetchone()[0] == 41
        w.close()
        ids: list[int] = []
        with cdc.open_stream(m, tables=["odd:informix.t"], from_sequence=1, timeout=1) as st:
            for ev in st:
                if ev.kind is K.TIMEOUT:
                    break
                if ev.kind is K.INSERT and ev.row is not None:
                    ids.append(int(ev.row["id"]))
        m.close()
    assert sorted(ids) == list(range(20)) + list(range(100, 120))
