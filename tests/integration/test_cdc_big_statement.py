"""One huge captured statement: an INSERT ... SELECT of 200000 rows into a table with
full-row logging, an UPDATE and a DELETE of 200000 of its rows, on a server in its own
process. Their captured rows spill a chunk at a time as a transaction's do, so the server's
peak RSS grows by far less than the rows would take held at once (docs/CDC_SERVER.md "One huge
statement"); the stream then has every row once, in order. Bounded in time: each statement
and its stream take a few seconds. The images themselves are checked on a few rows
(``test_update_and_delete_images``)."""

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


def _reset_peak(pid: int) -> None:
    """VmHWM back to VmRSS (proc(5), /proc/PID/clear_refs: "5" resets the peak RSS)."""
    with open(f"/proc/{pid}/clear_refs", "w") as f:
        f.write("5")


def _fill(cur: Any, table: str) -> None:
    cur.execute(f"CREATE TABLE {table} (id INTEGER, name VARCHAR(40), v INTEGER)")
    cur.execute(f"INSERT INTO {table} SELECT b.y * 1000 + a.x, 'row number ' || "
                "(b.y * 1000 + a.x), a.x FROM a, b")


@pytest.mark.parametrize("row_locks", [True, False], ids=["row-locks", "no-row-locks"])
@pytest.mark.parametrize("kind", ["update", "delete"])
def test_update_or_delete_of_200k_rows_spills_its_capture(tmp_path: Path, kind: str,
                                                         row_locks: bool) -> None:
    """The statement once in a transaction rolled back, then in autocommit. Before
    (old values read into a dict, the changed rows by RETURNING into a list) the server's
    peak RSS grew by 107 MB for the UPDATE and 54 MB for the DELETE in autocommit (both
    modes); read back from a scratch table a row at a time, by about 5 MB (2026-11-29).

    Under row locks a transaction's row locks and undo images are held per row with or
    without capture (about 68 MB for these 200000 rows, measured with capture off), so
    there the transaction's bound is on what capture adds: its start is the peak after the
    same statement, rolled back, on a twin table without full-row logging."""
    proc, port = _start(tmp_path, row_locks)
    kw: dict[str, Any] = {"host": "127.0.0.1", "port": port, "user": "informix",
                          "password": "in4mix", "read_timeout": 300}
    stmt = ("UPDATE {} SET v = v + 1, name = 'new ' || id" if kind == "update"
            else "DELETE FROM {} WHERE id >= 0")
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
        _fill(cur, "t")
        cur.execute("INSERT INTO t VALUES (-1, 'warm', 0)")
        m = ifxwire.connect(**kw, database="syscdcv1", autocommit=True)
        m.cursor().execute("EXECUTE FUNCTION informix.cdc_set_fullrowlogging('big:informix.t', 1)")
        # warm the statement path once (the row -1), then measure the server from here
        cur.execute(stmt.format("t") + " WHERE id < 0" if kind == "update"
                    else "DELETE FROM t WHERE id < 0")
        if row_locks:
            _fill(cur, "u")
            cur.execute("BEGIN WORK")
            cur.execute(stmt.format("u"))
            cur.execute("ROLLBACK WORK")
            start, _ = _rss_mb(proc.pid)
        else:
            _, start = _rss_mb(proc.pid)
        changed = ROWS + 1 if kind == "update" else ROWS  # the UPDATE has the row -1 too
        cur.execute("BEGIN WORK")
        cur.execute(stmt.format("t"))
        assert cur.rowcount == changed
        peak, _ = _rss_mb(proc.pid)
        assert peak - start < 20, f"in a transaction: server peak RSS grew {peak - start:.0f} MB"
        cur.execute("ROLLBACK WORK")
        _reset_peak(proc.pid)  # the transaction's peak is not the next statement's
        _, start = _rss_mb(proc.pid)
        cur.execute(stmt.format("t"))
        assert cur.rowcount == changed
        peak, _ = _rss_mb(proc.pid)
        assert peak - start < 20, f"in autocommit: server peak RSS grew {peak - start:.0f} MB"
        cur.execute("SELECT COUNT(*), SUM(v) FROM t")
        count, total = cur.fetchone()
        if kind == "update":  # the rolled-back UPDATE is not there, the committed one is
            assert (count, total) == (ROWS + 1, ROWS // 1000 * 499500 + ROWS + 2)
        else:
            assert count == 0
        w.close()

        # per transaction: the ids of its before images (DELETE: its rows), in order
        txns: list[tuple[K, list[int]]] = []
        ids: list[int] = []
        with cdc.open_stream(m, tables=["big:informix.t"], from_sequence=1, timeout=2,
                             max_records=1000) as st:
            before: Any = None
            for ev in st:
                if ev.kind is K.TIMEOUT:
                    break
                if ev.kind in (K.COMMIT, K.ROLLBACK):
                    txns.append((ev.kind, ids))
                    ids = []
                elif ev.kind is K.UPDATE_BEFORE or ev.kind is K.DELETE:
                    assert ev.row is not None
                    assert ev.kind is (K.UPDATE_BEFORE if kind == "update" else K.DELETE)
                    before = ev.row
                    ids.append(int(before["id"]))
                elif ev.kind is K.UPDATE_AFTER:  # right after its row's before image
                    assert ev.row is not None and before is not None
                    assert ev.row["id"] == before["id"]
                    assert ev.row["v"] == before["v"] + 1
                    assert ev.row["name"] == f"new {before['id']}"
                    before = None
        m.close()
        assert [k for k, _ in txns] == [K.COMMIT, K.ROLLBACK, K.COMMIT]
        assert txns[0][1] == [-1]
        for _, got in txns[1:]:
            assert sorted(got) == [-1] * (kind == "update") + list(range(ROWS))  # each once
    finally:
        proc.terminate()
        proc.wait(30)


@pytest.mark.parametrize("row_locks", [True, False], ids=["row-locks", "no-row-locks"])
def test_update_and_delete_images(tmp_path: Path, row_locks: bool,
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The records of UPDATEs and DELETEs taken the streaming way, on a few rows of several
    types with NULLs, in chunks of 3: an UPDATE whose WHERE reads the table itself and a
    DELETE in a committed transaction, an UPDATE rolled back, an autocommit DELETE, an
    UPDATE and a DELETE that change no row. Every before image is the row as it was, every
    after image the row as the statement left it, in pairs, each row once."""
    import datetime
    from decimal import Decimal

    from ifxwire.server import Server
    from ifxwire.server.engine.features.cdc import hub as hubmod

    monkeypatch.setattr(hubmod, "CHUNK", 3)
    with Server(port=0, host="127.0.0.1", data=str(tmp_path), row_locks=row_locks) as srv:
        kw: dict[str, Any] = {"host": srv.host, "port": srv.port, "user": "informix",
                              "password": "in4mix"}
        c = ifxwire.connect(**kw, autocommit=True)
        c.cursor().execute("CREATE DATABASE syscdcv1 WITH LOG")
        c.cursor().execute("CREATE DATABASE img WITH LOG")
        c.close()
        m = ifxwire.connect(**kw, database="syscdcv1", autocommit=True)
        w = ifxwire.connect(**kw, database="img", autocommit=True)
        cur = w.cursor()
        cur.execute("CREATE TABLE t (id INTEGER, s VARCHAR(20), d DECIMAL(8,2), dt DATE, "
                    "f FLOAT)")
        day = datetime.date(2026, 11, 29)
        rows = [(i, None if i % 3 == 0 else f"s{i}", Decimal(f"{i}.25"),
                 None if i % 4 == 0 else day + datetime.timedelta(days=i), i / 2)
                for i in range(10)]
        cur.executemany("INSERT INTO t VALUES (?, ?, ?, ?, ?)", rows)
        m.cursor().execute("EXECUTE FUNCTION informix.cdc_set_fullrowlogging('img:informix.t', 1)")
        table = {r[0]: r for r in rows}
        expect: list[tuple[K, list[tuple[K, tuple[object, ...]]]]] = []

        cur.execute("BEGIN WORK")
        cur.execute("UPDATE t SET s = s || '!', d = d * 2, dt = NULL "
                    "WHERE id > (SELECT AVG(id) FROM t) AND id <> 8")  # 5, 6, 7, 9
        assert cur.rowcount == 4
        recs: list[tuple[K, tuple[object, ...]]] = []
        for i in (5, 6, 7, 9):
            old = table[i]
            new = (i, None if old[1] is None else f"{old[1]}!", old[2] * 2, None, old[4])
            recs += [(K.UPDATE_BEFORE, old), (K.UPDATE_AFTER, new)]
            table[i] = new
        cur.execute("DELETE FROM t WHERE s IS NULL")  # 0, 3, 6, 9
        assert cur.rowcount == 4
        recs += [(K.DELETE, table.pop(i)) for i in (0, 3, 6, 9)]
        cur.execute("COMMIT WORK")
        expect.append((K.COMMIT, recs))

        cur.execute("BEGIN WORK")
        cur.execute("UPDATE t SET f = -f WHERE id < 3")  # 1, 2
        expect.append((K.ROLLBACK, [rec for i in (1, 2) for rec in [
            (K.UPDATE_BEFORE, table[i]), (K.UPDATE_AFTER, (*table[i][:4], -table[i][4]))]]))
        cur.execute("ROLLBACK WORK")

        cur.execute("DELETE FROM t WHERE id IN (1, 8)")
        assert cur.rowcount == 2
        expect.append((K.COMMIT, [(K.DELETE, table.pop(i)) for i in (1, 8)]))
        cur.execute("UPDATE t SET f = 0 WHERE id > 100")
        cur.execute("DELETE FROM t WHERE id > 100")
        assert cur.rowcount == 0
        cur.execute("SELECT * FROM t ORDER BY id")
        assert [tuple(r) for r in cur.fetchall()] == [table[i] for i in sorted(table)]
        w.close()

        got: list[tuple[K, list[tuple[K, tuple[object, ...]]]]] = []
        recs = []
        with cdc.open_stream(m, tables=["img:informix.t"], from_sequence=1, timeout=1) as st:
            for ev in st:
                if ev.kind is K.TIMEOUT:
                    break
                if ev.kind in (K.COMMIT, K.ROLLBACK):
                    if recs:
                        got.append((ev.kind, recs))
                    recs = []
                elif ev.row is not None:
                    # by name: the record has the variable-length columns last
                    recs.append((ev.kind, tuple(ev.row[c] for c in ("id", "s", "d", "dt", "f"))))
        m.close()
    assert got == expect
