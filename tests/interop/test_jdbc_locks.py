"""IBM JDBC against row locks and isolation levels (tests/interop/jdbc/LockCheck.java): two
connections, each check in both orders, per driver version. The server runs with row locks
(docs/SERVER.md, "Locks and isolation").

Run:  pytest -m interop tests/interop/test_jdbc_locks.py
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import ifxwire
from conftest import CHECK_LINE, JAVA_OPTS, JDBC_VERSIONS, cache_root

pytestmark = pytest.mark.interop

SOURCE = Path(__file__).resolve().parent / "jdbc" / "LockCheck.java"
USER, PASSWORD = "informix", "in4mix"
CHECKS = ("jdbc_lock_writers", "jdbc_lock_rollback", "jdbc_lock_waits", "jdbc_lock_ddl")


@pytest.fixture(scope="session")
def lock_classpaths(java_tools: dict[str, str], jdbc_jars: dict[str, Path]) -> dict[str, str]:
    """Driver version -> class path with LockCheck compiled against that jar."""
    out: dict[str, str] = {}
    for version, jar in jdbc_jars.items():
        digest = hashlib.sha256(SOURCE.read_bytes() + jar.read_bytes()).hexdigest()[:16]
        build = cache_root() / "jdbc" / "build" / f"locks-{version}-{digest}"
        if not (build / "LockCheck.class").is_file():
            tmp = build.with_name(build.name + f".tmp{os.getpid()}")
            shutil.rmtree(tmp, ignore_errors=True)
            tmp.mkdir(parents=True)
            proc = subprocess.run([java_tools["javac"], "-cp", str(jar), "-d", str(tmp),
                                   str(SOURCE)], capture_output=True, text=True, timeout=300)
            if proc.returncode != 0:
                shutil.rmtree(tmp, ignore_errors=True)
                pytest.fail(f"javac LockCheck against {jar.name} failed:\n{proc.stderr}",
                            pytrace=False)
            shutil.rmtree(build, ignore_errors=True)
            tmp.rename(build)
        out[version] = os.pathsep.join([str(build), str(jar)])
    return out


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


@pytest.mark.parametrize("version", JDBC_VERSIONS)
def test_jdbc_row_locks_two_sessions(java_tools: dict[str, str],
                                     lock_classpaths: dict[str, str], lock_server: Any,
                                     version: str) -> None:
    proc = subprocess.run(
        [java_tools["java"], *JAVA_OPTS, "-cp", lock_classpaths[version], "LockCheck",
         *(f"{name}={lock_server.url}" for name in CHECKS)],
        capture_output=True, text=True, timeout=300,
    )
    results: dict[str, tuple[str, str]] = {}
    for line in proc.stdout.splitlines():
        m = CHECK_LINE.match(line)
        if m:
            results[m.group(1)] = (m.group(2), m.group(3) or "")
    assert set(results) == set(CHECKS), f"{proc.stdout}\n{proc.stderr[-3000:]}"
    failed = {k: v for k, v in results.items() if v[0] != "PASS"}
    assert not failed, failed
