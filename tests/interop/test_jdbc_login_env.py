"""What IBM JDBC always puts in its login's environment, read where it arrives: our server.

lakeflow's informix_api_doc.md records that JDBC 15.0.1.3's IfxSqliConnect.SetPrimEVars adds
NODEFDAC=no, DBPATH=., IFX_UPDDESC=1 and CLNT_PAM_CAPABLE=1 to every login (a live run with
both locales carried six entries); docs/PROTOCOL.md §2, "JDBC's always-sent environment".
Each jar logs in with nothing but a URL, and the test reads the request our server parsed.
Run:  pytest -m interop tests/interop/test_jdbc_login_env.py
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import ifxwire
import ifxwire.server.session as server_session
from conftest import JAVA_OPTS, JDBC_VERSIONS, compile_for_each_jar

pytestmark = pytest.mark.interop

SOURCE = Path(__file__).resolve().parent / "jdbc" / "LoginEnvCheck.java"
JDBC_ALWAYS = {"NODEFDAC": "no", "DBPATH": ".", "IFX_UPDDESC": "1", "CLNT_PAM_CAPABLE": "1"}


@pytest.fixture(scope="module")
def classpaths(java_tools: dict[str, str], jdbc_jars: dict[str, Path]) -> dict[str, str]:
    return compile_for_each_jar(java_tools, jdbc_jars, SOURCE, "loginenv")


@pytest.fixture(scope="module")
def srv() -> Iterator[Any]:
    from ifxwire.server import Server

    with Server(port=0, data=":memory:") as s:
        with ifxwire.connect(host=s.host, port=s.port, user="informix", password="in4mix",
                             autocommit=True) as c:
            c.execute("CREATE DATABASE loginenv WITH LOG")
        yield s


@pytest.mark.parametrize("version", JDBC_VERSIONS)
def test_jdbc_sends_its_four_entries_and_is_accepted(
        java_tools: dict[str, str], classpaths: dict[str, str], srv: Any, version: str,
        monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[dict[str, str]] = []
    parse = server_session.parse_connect_request

    def recording(packet: bytes) -> Any:
        req = parse(packet)
        seen.append(dict(req.env))
        return req

    monkeypatch.setattr(server_session, "parse_connect_request", recording)
    url = (f"jdbc:informix-sqli://{srv.host}:{srv.port}/loginenv:"
           f"INFORMIXSERVER={srv.server_name};user=informix;password=in4mix")
    proc = subprocess.run([java_tools["java"], *JAVA_OPTS, "-cp", classpaths[version],
                           "LoginEnvCheck", url], capture_output=True, text=True, timeout=300)
    assert "LOGIN_ENV_CHECK rows=1" in proc.stdout, proc.stdout + proc.stderr[-3000:]
    assert seen, "no login reached the server"
    for env in seen:
        assert env.items() >= JDBC_ALWAYS.items(), env
