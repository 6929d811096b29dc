"""IBM JDBC follows ifxwire-server's login redirect (SL type 13, docs/PROTOCOL.md §2).

JDBC follows a redirect by itself (``asf.Connection.establishConnection`` catches its -79998
and connects to the server, host and port it tokenises from the detail), so its landing on
the target server and running a query there is the outside witness of the packet's layout.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from conftest import JAVA_OPTS

pytestmark = pytest.mark.interop

SOURCE = Path(__file__).resolve().parent / "jdbc" / "RedirectCheck.java"


@pytest.mark.parametrize("version", ["15.0.0.1", "4.50.10"])
def test_jdbc_follows_the_redirect(version: str, java_tools: dict[str, str],
                                   jdbc_jars: dict[str, Path]) -> None:
    from ifxwire.server import Server

    with Server(port=0, data=":memory:", server_name="target") as target, \
            Server(port=0, data=":memory:", server_name="cm",
                   redirect_to=("target", target.host, target.port)) as redirector:
        proc = subprocess.run(
            [java_tools["java"], *JAVA_OPTS, "-cp", str(jdbc_jars[version]), str(SOURCE),
             redirector.host, str(redirector.port), "cm", "informix", "in4mix"],
            capture_output=True, text=True, timeout=120,
        )
        out = proc.stdout.strip()
        assert out == "REDIRECT OK target 1", (out, proc.stderr[-2000:])
        assert target.sessions_served >= 1 and redirector.sessions_served >= 1
