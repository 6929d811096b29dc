"""IFXWIRE_ROW_LOCKS=1 reaches every server a test run starts (docs/SERVER.md, "Locks and
isolation", "Before it can be the default"): the suites are run with the variable set to find
what row locks break, so a server that silently ignored it would make those runs dishonest.

The fixtures start servers two ways: in-process (``Server(port=0)``, whose Engine reads the
variable when ``row_locks`` is not given) and as ``python -m ifxwire.server`` subprocesses,
which inherit the environment. Both are checked by what a client sees: under row locks a
COMMITTED READ count of a table where another session holds an uncommitted insert is -244
(ISAM -107); without them it reads the last committed rows.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

import ifxwire


def _connect(port: int, **kw: object) -> ifxwire.Connection:
    return ifxwire.connect(host="127.0.0.1", port=port, user="informix", password="in4mix",
                           read_timeout=30, autocommit=True, **kw)


def _reader_meets_the_lock(port: int) -> bool:
    """True when a COMMITTED READ reader meets another session's uncommitted row."""
    with _connect(port) as c:
        c.cursor().execute("CREATE DATABASE envrl WITH LOG")
        c.cursor().execute("CREATE TABLE t (i INT) LOCK MODE ROW")
    with _connect(port, database="envrl") as writer, \
            _connect(port, database="envrl") as reader:
        writer.cursor().execute("BEGIN WORK")
        writer.cursor().execute("INSERT INTO t VALUES (1)")
        reader.cursor().execute("SET LOCK MODE TO NOT WAIT")
        try:
            cur = reader.cursor()
            cur.execute("SELECT COUNT(*) FROM t")
            assert cur.fetchone() == (0,)
            met = False
        except ifxwire.Error as e:
            assert (e.sqlcode, e.isamcode) == (-244, -107)
            met = True
        writer.cursor().execute("ROLLBACK WORK")
    return met


@contextmanager
def _subprocess_server(env: dict[str, str], *options: str) -> Iterator[int]:
    proc = subprocess.Popen([sys.executable, "-m", "ifxwire.server", "--port", "0",
                             "--host", "127.0.0.1", *options], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            m = re.search(r"listening on [\d.]+:(\d+)", line)
            if m:
                yield int(m.group(1))
                return
        raise AssertionError("the server did not start")
    finally:
        proc.terminate()
        proc.wait(10)


@pytest.mark.parametrize("value", ["1", "0"])
def test_the_variable_reaches_an_in_process_server(monkeypatch: pytest.MonkeyPatch,
                                                   value: str) -> None:
    from ifxwire.server import Server

    monkeypatch.setenv("IFXWIRE_ROW_LOCKS", value)
    with Server(port=0, data=":memory:") as srv:
        assert srv.engine.row_locks is (value == "1")
        assert _reader_meets_the_lock(srv.port) is (value == "1")


@pytest.mark.parametrize("value", ["1", "0"])
def test_the_variable_reaches_a_subprocess_server(value: str) -> None:
    with _subprocess_server({**os.environ, "IFXWIRE_ROW_LOCKS": value}) as port:
        assert _reader_meets_the_lock(port) is (value == "1")


@pytest.mark.parametrize("option,value", [("--no-row-locks", "1"), ("--row-locks", "0"),
                                          ("--no-row-locks", None)])
def test_the_option_wins_over_the_variable(option: str, value: str | None) -> None:
    """``--no-row-locks`` turns them off whatever the environment (and the default) says;
    ``--row-locks`` on."""
    env = {k: v for k, v in os.environ.items() if k != "IFXWIRE_ROW_LOCKS"}
    if value is not None:
        env["IFXWIRE_ROW_LOCKS"] = value
    with _subprocess_server(env, option) as port:
        assert _reader_meets_the_lock(port) is (option == "--row-locks")


def test_without_option_or_variable_the_default_applies(monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    from ifxwire.server import Server
    from ifxwire.server.engine.session.engine import ROW_LOCKS_DEFAULT

    monkeypatch.delenv("IFXWIRE_ROW_LOCKS", raising=False)
    with Server(port=0, data=":memory:") as srv:
        assert srv.engine.row_locks is ROW_LOCKS_DEFAULT
        assert _reader_meets_the_lock(srv.port) is ROW_LOCKS_DEFAULT
    with Server(port=0, data=":memory:", row_locks=False) as srv:
        assert _reader_meets_the_lock(srv.port) is False
