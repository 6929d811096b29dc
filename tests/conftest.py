"""Fixtures every test directory shares.

* ``tls_certificate``: a throwaway self-signed (certificate, key) for localhost / 127.0.0.1,
  made once per test session by the openssl CLI (driver, server and interop TLS tests).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest


def pytest_report_header() -> str:
    """Say whether the servers this run starts use row locks: the suites are also run with
    IFXWIRE_ROW_LOCKS=1 (docs/SERVER.md, "Before it can be the default"), which every
    in-process and subprocess server honours (tests/integration/test_row_locks_env.py)."""
    value = os.environ.get("IFXWIRE_ROW_LOCKS", "").strip()
    try:  # the server's own rule (absent without the [server] extra)
        from ifxwire.server.engine.session.engine import row_locks_default
    except ModuleNotFoundError:
        return "ifxwire-server row locks: not installed"
    on = row_locks_default()
    why = f"IFXWIRE_ROW_LOCKS={value}" if value else "the default; IFXWIRE_ROW_LOCKS unset"
    return f"ifxwire-server row locks: {'on' if on else 'off'} ({why})"


@pytest.fixture(scope="session")
def tls_certificate(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    # The openssl CLI is part of every supported machine image; its absence is a setup error.
    assert shutil.which("openssl"), "openssl is needed to make a test certificate"
    d = tmp_path_factory.mktemp("tls")
    cert, key = d / "cert.pem", d / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
         "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True,
    )  # fmt: skip
    return cert, key
