"""IBM JDBC against our server's session features: cancel, query timeout, scroll cursors,
TLS and PAM (tests/interop/jdbc/SessionCheck.java, one JVM per jar and server setup).

Run:  pytest -m interop tests/interop/test_jdbc_sessions.py
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
from conftest import CHECK_LINE, JAVA_OPTS, JDBC_VERSIONS, cache_root

import ifxwire

pytestmark = pytest.mark.interop

SOURCES = Path(__file__).resolve().parent / "jdbc"
USER, PASSWORD = "informix", "in4mix"
PLAIN_CHECKS = ("jdbc_cancel", "jdbc_query_timeout", "jdbc_scroll_random")


def _pam_source(version: str) -> Path:
    return SOURCES / ("pam15" if version.startswith("15") else "pam450") / "PamAnswers.java"


@pytest.fixture(scope="session")
def session_classpaths(java_tools: dict[str, str], jdbc_jars: dict[str, Path]) -> dict[str, str]:
    """Driver version -> class path with SessionCheck and the jar's PamAnswers compiled."""
    out: dict[str, str] = {}
    for version, jar in jdbc_jars.items():
        sources = [SOURCES / "SessionCheck.java", _pam_source(version)]
        digest = hashlib.sha256(b"".join(p.read_bytes() for p in sources) + jar.read_bytes())
        build = cache_root() / "jdbc" / "build" / f"sessions-{version}-{digest.hexdigest()[:16]}"
        if not (build / "SessionCheck.class").is_file():
            tmp = build.with_name(build.name + f".tmp{os.getpid()}")
            shutil.rmtree(tmp, ignore_errors=True)
            tmp.mkdir(parents=True)
            proc = subprocess.run(
                [java_tools["javac"], "-cp", str(jar), "-d", str(tmp), *map(str, sources)],
                capture_output=True, text=True, timeout=300,
            )
            if proc.returncode != 0:
                shutil.rmtree(tmp, ignore_errors=True)
                pytest.fail(f"javac SessionCheck against {jar.name} failed:\n{proc.stderr}",
                            pytrace=False)
            shutil.rmtree(build, ignore_errors=True)
            tmp.rename(build)
        out[version] = os.pathsep.join([str(build), str(jar)])
    return out


def run_checks(java: str, classpath: str, checks: dict[str, str],
               props: tuple[str, ...] = ()) -> dict[str, tuple[str, str]]:
    """Run SessionCheck with ``{check: url}``; {check: (PASS|FAIL, reason)}."""
    proc = subprocess.run(
        [java, *JAVA_OPTS, *props, "-cp", classpath, "SessionCheck",
         *(f"{name}={url}" for name, url in checks.items())],
        capture_output=True, text=True, timeout=300,
    )
    results: dict[str, tuple[str, str]] = {}
    for line in proc.stdout.splitlines():
        m = CHECK_LINE.match(line)
        if m:
            results[m.group(1)] = (m.group(2), m.group(3) or "")
    missing = set(checks) - set(results)
    assert not missing, f"no result for {missing}:\n{proc.stdout}\n{proc.stderr[-3000:]}"
    return results


def prepare(srv: Any, database: str = "sess") -> str:
    """The tables every check reads; returns the JDBC URL's host part."""
    with ifxwire.connect(host=srv.host, port=srv.port, user=USER, password=PASSWORD,
                         autocommit=True, **({"tls": srv.client_tls} if getattr(
                             srv, "client_tls", None) else {})) as c:
        cur = c.cursor()
        cur.execute(f"CREATE DATABASE {database} WITH LOG")
        cur.execute("CREATE TABLE n (i INTEGER)")
        cur.executemany("INSERT INTO n VALUES (?)", [(i,) for i in range(1000)])
    return f"jdbc:informix-sqli://{srv.host}:{srv.port}/{database}:INFORMIXSERVER={srv.server_name}"


@pytest.fixture(scope="module")
def plain_server() -> Iterator[Any]:
    from ifxwire.server import Server

    with Server(port=0, statement_timeout=60) as srv:
        srv.url = prepare(srv) + f";user={USER};password={PASSWORD}"
        yield srv


@pytest.mark.parametrize("version", JDBC_VERSIONS)
def test_jdbc_cancel_timeout_and_scroll(
    java_tools: dict[str, str], session_classpaths: dict[str, str], plain_server: Any,
    version: str,
) -> None:
    results = run_checks(java_tools["java"], session_classpaths[version],
                         dict.fromkeys(PLAIN_CHECKS, plain_server.url))
    failed = {k: v for k, v in results.items() if v[0] != "PASS"}
    assert not failed, failed
