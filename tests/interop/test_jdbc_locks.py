"""IBM JDBC against row locks and isolation levels (tests/interop/jdbc/LockCheck.java): two
connections, each check in both orders, per driver version. The server runs with row locks
(docs/SERVER.md, "Locks and isolation").

Run:  pytest -m interop tests/interop/test_jdbc_locks.py
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import ifxwire
from conftest import CHECK_LINE, JAVA_OPTS, JDBC_VERSIONS, compile_java_check

pytestmark = pytest.mark.interop

SOURCES = [Path(__file__).resolve().parent / "jdbc" / name
           for name in ("LockCheck.java", "IsolationCheck.java")]
USER, PASSWORD = "informix", "in4mix"
CHECKS = ("jdbc_lock_writers", "jdbc_lock_rollback", "jdbc_lock_waits", "jdbc_lock_ddl")
#: IsolationCheck.java: the rest of issue 26's list (docs/SERVER.md "Locks and isolation")
ISOLATION_CHECKS = ("jdbc_iso_deadlock", "jdbc_iso_for_update", "jdbc_iso_repeatable",
                    "jdbc_iso_repeatable_rows", "jdbc_iso_read_only", "jdbc_iso_retain",
                    "jdbc_iso_last_committed", "jdbc_iso_cursor_stability", "jdbc_iso_share",
                    "jdbc_iso_page", "jdbc_iso_wait_commit", "jdbc_iso_held_key",
                    "jdbc_iso_set_transaction")


@pytest.fixture(scope="session")
def lock_classpaths(java_tools: dict[str, str], jdbc_jars: dict[str, Path]) -> dict[str, str]:
    """Driver version -> class path with LockCheck and IsolationCheck (which uses
    LockCheck's helpers) compiled against that jar."""
    return {version: compile_java_check(java_tools["javac"], jar, SOURCES, f"locks-{version}")
            for version, jar in jdbc_jars.items()}


@pytest.fixture(scope="module")
def lock_server() -> Iterator[Any]:
    from ifxwire.server import Server

    with Server(port=0, row_locks=True, statement_timeout=60) as srv:
        with ifxwire.connect(host=srv.host, port=srv.port, user=USER, password=PASSWORD,
                             autocommit=True) as c:
            c.cursor().execute("CREATE DATABASE locks WITH LOG")
        srv.url = (f"jdbc:informix-sqli://{srv.host}:{srv.port}/locks:INFORMIXSERVER="
                   f"{srv.server_name};user={USER};password={PASSWORD}")
        yield srv


def _run(java: str, classpath: str, main: str, url: str, checks: tuple[str, ...]
         ) -> None:
    proc = subprocess.run(
        [java, *JAVA_OPTS, "-cp", classpath, main, *(f"{name}={url}" for name in checks)],
        capture_output=True, text=True, timeout=300,
    )
    results: dict[str, tuple[str, str]] = {}
    for line in proc.stdout.splitlines():
        m = CHECK_LINE.match(line)
        if m:
            results[m.group(1)] = (m.group(2), m.group(3) or "")
    assert set(results) == set(checks), f"{proc.stdout}\n{proc.stderr[-3000:]}"
    failed = {k: v for k, v in results.items() if v[0] != "PASS"}
    assert not failed, failed


@pytest.mark.parametrize("version", JDBC_VERSIONS)
def test_jdbc_row_locks_two_sessions(java_tools: dict[str, str],
                                     lock_classpaths: dict[str, str], lock_server: Any,
                                     version: str) -> None:
    _run(java_tools["java"], lock_classpaths[version], "LockCheck", lock_server.url, CHECKS)


@pytest.mark.parametrize("version", JDBC_VERSIONS)
def test_jdbc_isolation_two_sessions(java_tools: dict[str, str],
                                     lock_classpaths: dict[str, str], lock_server: Any,
                                     version: str) -> None:
    """Deadlock, FOR UPDATE, REPEATABLE READ (four spellings; its row locks), SET
    TRANSACTION READ ONLY, RETAIN UPDATE LOCKS, LAST COMMITTED, CURSOR
    STABILITY, LOCK TABLE SHARE / UNLOCK TABLE, LOCK MODE PAGE, WAIT until the commit, -271
    on a held key, SET TRANSACTION once per transaction (-876, -877, its level ending with
    the transaction): each in both orders of the two connections (IsolationCheck.java)."""
    _run(java_tools["java"], lock_classpaths[version], "IsolationCheck", lock_server.url,
         ISOLATION_CHECKS)
