"""kill -9 of the server in the middle of writing a smart large object loses nothing committed.

The server runs as a subprocess on a data directory. Committed objects are stored, then a
second client starts writing a large object and the server is killed while the data flows:
once with autocommit (each SQ_LODATA message commits, so part of a never-stored object is on
disk) and once inside a transaction. After a restart the committed objects read back exactly,
and the half-written one is gone: a transaction's work rolls back with SQLite's journal, and
objects no row references that a killed server's sessions created are swept the first time the
restarted server opens the database (engine/lobstore.py).
"""

from __future__ import annotations

import os
import re
import signal
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import ifxwire
from ifxwire.server.engine.features.lobs import lobstore

MIB = 1024 * 1024


def _start(data: Path) -> tuple[subprocess.Popen[str], int]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "ifxwire.server", "--port", "0", "--data", str(data)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert proc.stdout is not None
    for line in proc.stdout:
        m = re.search(r"listening on [\d.]+:(\d+)", line)
        if m:
            return proc, int(m.group(1))
    raise AssertionError("the server did not start")


def _connect(port: int, **kw: Any) -> ifxwire.Connection:
    return ifxwire.connect(host="127.0.0.1", port=port, user="informix", password="in4mix",
                           read_timeout=30, **kw)


def _counts(data: Path) -> tuple[int, int]:
    with sqlite3.connect(f"file:{data / 'crash.ifxdb'}?mode=ro", uri=True) as c:
        return lobstore.LoStore(c, "00").counts()


class Stalling:
    """A file-like that gives ``before`` bytes, then blocks until released."""

    def __init__(self, before: int) -> None:
        self.before = before
        self.started = threading.Event()
        self.release = threading.Event()

    def read(self, n: int) -> bytes:
        if self.before <= 0:
            self.started.set()
            self.release.wait(30)
            raise OSError("stopped")
        n = min(n, self.before)
        self.before -= n
        return b"w" * n


@pytest.fixture()
def server_dir(tmp_path: Path) -> Iterator[Path]:
    yield tmp_path / "data"


@pytest.mark.parametrize("autocommit,alone", [(True, False), (False, False), (True, True)])
def test_kill_9_mid_write_keeps_every_committed_object(
    server_dir: Path, autocommit: bool, alone: bool
) -> None:
    # ``alone``: the object is written by itself (ifx_lo_create and SQ_LODATA writes, as
    # Blob.write does), each write committed on its own in autocommit mode; otherwise by an
    # INSERT, whose objects and row are one transaction even in autocommit mode.
    proc, port = _start(server_dir)
    try:
        with _connect(port, autocommit=True) as c:
            c.execute("CREATE DATABASE crash WITH LOG")
        with _connect(port, database="crash", autocommit=True) as c:
            c.execute("CREATE TABLE t (id INTEGER, b BLOB, c CLOB)")
            for i in range(3):
                c.execute("INSERT INTO t VALUES (?, ?, ?)",
                          (i, bytes([i]) * (MIB + i), f"row {i} " * 1000))
        committed = _counts(server_dir)
        writer = _connect(port, database="crash", autocommit=autocommit)
        source = Stalling(3 * MIB)
        failure: list[BaseException] = []

        def write() -> None:
            try:
                if alone:
                    ifxwire.client.lob.create_lob(writer, source, False)
                else:
                    writer.execute("INSERT INTO t VALUES (9, ?, NULL)", (source,))
            except BaseException as exc:  # the server dies under it
                failure.append(exc)

        thread = threading.Thread(target=write, daemon=True)
        thread.start()
        assert source.started.wait(30), "the write did not start"
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
        source.release.set()
        thread.join(30)
        assert failure and isinstance(failure[0], ifxwire.Error)
        writer.close()
        if alone:
            # Part of the never-stored object was committed before the kill: the restart
            # must sweep it (without the sweep the counts below would not match).
            assert _counts(server_dir) != committed
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
    proc, port = _start(server_dir)
    try:
        with _connect(port, database="crash", autocommit=True) as c:
            rows = c.execute("SELECT id, b, c FROM t ORDER BY id").fetchall()
            assert [r[0] for r in rows] == [0, 1, 2]
            for i, b, cl in rows:
                assert b.read() == bytes([i]) * (MIB + i)
                assert cl.read() == f"row {i} " * 1000
        assert _counts(server_dir) == committed  # the half-written object is gone
    finally:
        proc.terminate()
        proc.wait(10)
