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

import ifxwire
from conftest import CHECK_LINE, JAVA_OPTS, JDBC_VERSIONS, cache_root

pytestmark = pytest.mark.interop

SOURCES = Path(__file__).resolve().parent / "jdbc"
USER, PASSWORD = "informix", "in4mix"
PLAIN_CHECKS = ("jdbc_cancel", "jdbc_query_timeout", "jdbc_scroll_random", "jdbc_current_of")


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


def _current_of_table(srv: Any) -> None:
    """cur_t: ten rows (i, v = 10 * i), made afresh before each jar's run."""
    with ifxwire.connect(host=srv.host, port=srv.port, user=USER, password=PASSWORD,
                         database="sess", autocommit=True) as c:
        c.execute("DROP TABLE IF EXISTS cur_t")
        c.execute("CREATE TABLE cur_t (i INTEGER, v INTEGER)")
        c.cursor().executemany("INSERT INTO cur_t VALUES (?, ?)", [(i, 10 * i) for i in range(10)])


@pytest.mark.parametrize("version", JDBC_VERSIONS)
def test_jdbc_cancel_timeout_and_scroll(
    java_tools: dict[str, str], session_classpaths: dict[str, str], plain_server: Any,
    version: str,
) -> None:
    _current_of_table(plain_server)
    results = run_checks(java_tools["java"], session_classpaths[version],
                         dict.fromkeys(PLAIN_CHECKS, plain_server.url))
    failed = {k: v for k, v in results.items() if v[0] != "PASS"}
    assert not failed, failed


# --------------------------------------------------------------------------------------------
# TLS: the server's own listener, a trust store made by keytool from its certificate


@pytest.fixture(scope="module")
def tls_server(java_tools: dict[str, str], tmp_path_factory: pytest.TempPathFactory,
               tls_certificate: tuple[Path, Path]) -> Iterator[Any]:
    import ssl

    from ifxwire.server import Server

    d = tmp_path_factory.mktemp("jdbc-tls")
    cert, key = tls_certificate
    keytool = shutil.which("keytool") or str(Path(java_tools["java"]).with_name("keytool"))
    store = d / "trust.jks"
    subprocess.run([keytool, "-importcert", "-noprompt", "-alias", "ifxwire", "-file", str(cert),
                    "-keystore", str(store), "-storepass", "changeit"],
                   check=True, capture_output=True, timeout=120)
    with Server(port=0, tls_cert=cert, tls_key=key) as srv:
        srv.client_tls = ssl.create_default_context(cafile=str(cert))
        srv.url = prepare(srv) + f";user={USER};password={PASSWORD}"
        srv.java_props = (f"-Djavax.net.ssl.trustStore={store}",
                          "-Djavax.net.ssl.trustStorePassword=changeit")
        yield srv


@pytest.mark.parametrize("version", JDBC_VERSIONS)
def test_jdbc_over_the_servers_tls(
    java_tools: dict[str, str], session_classpaths: dict[str, str], tls_server: Any,
    version: str,
) -> None:
    # encrypt=true is 15.x's name; 4.50 calls the same option SSLCONNECTION=true.
    option = "encrypt=true" if version.startswith("15") else "SSLCONNECTION=true"
    results = run_checks(java_tools["java"], session_classpaths[version],
                         {"jdbc_tls": f"{tls_server.url};{option}"}, tls_server.java_props)
    assert results["jdbc_tls"][0] == "PASS", results
    # Without TLS the same URL fails: the listener speaks TLS only.
    plain = run_checks(java_tools["java"], session_classpaths[version],
                       {"jdbc_tls": tls_server.url + ";LOGINTIMEOUT=3000"})
    assert plain["jdbc_tls"][0] == "FAIL"


# --------------------------------------------------------------------------------------------
# PAM: IFX_PAM_CLASS names the callback class compiled with SessionCheck


def _two_steps(user: str) -> Any:
    password = yield 1, "Password: "
    token = yield 2, "Token: "
    if password == PASSWORD and token == "314159":
        return True
    yield 3, "Authentication failure"
    return False


@pytest.fixture(scope="module")
def pam_servers() -> Iterator[tuple[Any, Any]]:
    from ifxwire.server import Server

    with Server(port=0, pam=True) as one, Server(port=0, pam=_two_steps) as two:
        for srv in (one, two):
            with ifxwire.connect(host=srv.host, port=srv.port, user=USER, autocommit=True,
                                 pam_callback=lambda ch: PASSWORD if "Password" in ch.prompt
                                 else "314159") as c:
                cur = c.cursor()
                cur.execute("CREATE DATABASE sess WITH LOG")
                cur.execute("CREATE TABLE n (i INTEGER)")
                cur.executemany("INSERT INTO n VALUES (?)", [(i,) for i in range(1000)])
            srv.url = (f"jdbc:informix-sqli://{srv.host}:{srv.port}/sess:INFORMIXSERVER="
                       f"{srv.server_name};user={USER};password=ignored;IFX_PAM_CLASS=PamAnswers")
        yield one, two


@pytest.mark.parametrize("version", JDBC_VERSIONS)
def test_jdbc_pam_login(
    java_tools: dict[str, str], session_classpaths: dict[str, str],
    pam_servers: tuple[Any, Any], version: str,
) -> None:
    one, two = pam_servers
    java, cp = java_tools["java"], session_classpaths[version]
    right = ("-Dpam.password=" + PASSWORD, "-Dpam.token=314159")
    wrong = ("-Dpam.password=" + PASSWORD, "-Dpam.token=000000")
    results = run_checks(java, cp, {"jdbc_pam_right": one.url, "jdbc_pam_two_steps": two.url},
                         right)
    results |= run_checks(java, cp, {"jdbc_pam_wrong": two.url}, wrong)
    failed = {k: v for k, v in results.items() if v[0] != "PASS"}
    assert not failed, failed
