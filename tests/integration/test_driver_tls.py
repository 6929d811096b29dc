"""TLS: the socket is wrapped before the first SQLI byte; certificates are verified.

Informix terminates TLS on a dedicated listener; here a small TLS proxy in front of the
embedded server plays that role, with a throwaway self-signed certificate.
"""

from __future__ import annotations

import contextlib
import socket
import ssl
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import ifxwire

pytestmark = pytest.mark.both_drivers


def _pump(src: socket.socket, dst: socket.socket) -> None:
    try:
        while data := src.recv(65536):
            dst.sendall(data)
    except OSError:
        pass
    finally:
        for s in (src, dst):
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)


@pytest.fixture(scope="module")
def tls_proxy(
    server: Any, tls_certificate: tuple[Path, Path]
) -> Iterator[tuple[int, Path]]:
    cert, key = tls_certificate
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(cert, key)
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]

    def accept() -> None:
        while True:
            try:
                raw, _ = listener.accept()
            except OSError:
                return
            try:
                tls = ctx.wrap_socket(raw, server_side=True)
            except (ssl.SSLError, OSError):
                raw.close()
                continue
            upstream = socket.create_connection((server.host, server.port))
            threading.Thread(target=_pump, args=(tls, upstream), daemon=True).start()
            threading.Thread(target=_pump, args=(upstream, tls), daemon=True).start()

    threading.Thread(target=accept, daemon=True).start()
    yield port, cert
    listener.close()


def test_tls_with_trusted_context(driver: Any, tls_proxy: tuple[int, Path], dbname: str) -> None:
    port, cert = tls_proxy
    ctx = ssl.create_default_context(cafile=str(cert))
    c = driver.connect(
        host="127.0.0.1", port=port, user="informix", password="in4mix", database=dbname, tls=ctx
    )
    assert c.execute("SELECT tabid FROM systables WHERE tabid = 1").fetchall() == [(1,)]
    c.close()


def test_tls_true_verifies_the_certificate(driver: Any, tls_proxy: tuple[int, Path]) -> None:
    port, _ = tls_proxy
    with pytest.raises(ifxwire.OperationalError, match="TLS") as info:
        driver.connect(host="127.0.0.1", port=port, user="informix", password="in4mix", tls=True)
    assert info.value.sqlstate == "08001"
