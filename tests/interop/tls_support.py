"""A throwaway self-signed certificate for the TLS interop checks (openssl CLI)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path


def make_certificate(directory: Path) -> tuple[Path, Path]:
    """(certificate, key) PEM files for localhost / 127.0.0.1, valid for a day."""
    assert shutil.which("openssl"), "openssl is needed to make a test certificate"
    cert, key = directory / "cert.pem", directory / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
         "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True,
    )  # fmt: skip
    return cert, key
