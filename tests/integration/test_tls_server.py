"""The server's own TLS listener (Server(tls_cert=..., tls_key=...)), with our driver, sync and
asyncio: certificates verified by default, plain clients refused, cancel over TLS.

The certificate is made for the test by the openssl CLI (a throwaway self-signed CA-less
certificate for localhost / 127.0.0.1). JDBC and informix-driver over this listener are in
tests/interop.
"""

from __future__ import annotations

import asyncio
import ssl
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import ifxwire
import ifxwire.aio as aio

USER, PASSWORD = "informix", "in4mix"


@pytest.fixture(scope="module")
def tls_server(tls_certificate: tuple[Path, Path]) -> Iterator[tuple[Any, Path]]:
    from ifxwire.server import Server

    cert, key = tls_certificate
    with Server(port=0, tls_cert=cert, tls_key=key, login_timeout=5,
                statement_timeout=60) as srv:
        ctx = ssl.create_default_context(cafile=str(cert))
        with ifxwire.connect(host=srv.host, port=srv.port, user=USER, password=PASSWORD,
                             tls=ctx, autocommit=True) as c:
            c.execute("CREATE DATABASE tlsdb WITH LOG")
            c.execute("CREATE TABLE n (i INTEGER)")
            c.cursor().executemany("INSERT INTO n VALUES (?)", [(i,) for i in range(1000)])
        yield srv, cert


def test_driver_over_the_servers_tls(tls_server: tuple[Any, Path]) -> None:
    srv, cert = tls_server
    ctx = ssl.create_default_context(cafile=str(cert))
    with ifxwire.connect(host="localhost", port=srv.port, user=USER, password=PASSWORD,
                         database="tlsdb", tls=ctx) as c:
        assert c._transport.sock.version() in ("TLSv1.2", "TLSv1.3")
        rows = c.execute("SELECT i FROM n ORDER BY i").fetchall()
        assert len(rows) == 1000  # several fetch replies through TLS records
        scroll = c.cursor(scrollable=True)
        scroll.execute("SELECT i FROM n ORDER BY i")
        assert scroll.fetch_last() == (999,)


def test_certificates_are_verified_by_default(tls_server: tuple[Any, Path]) -> None:
    srv, _ = tls_server
    with pytest.raises(ifxwire.OperationalError, match="certificate verify failed") as info:
        ifxwire.connect(host=srv.host, port=srv.port, user=USER, password=PASSWORD, tls=True)
    assert info.value.sqlstate == "08001"


def test_a_plain_client_is_refused(tls_server: tuple[Any, Path]) -> None:
    srv, _ = tls_server
    with pytest.raises(ifxwire.OperationalError):
        ifxwire.connect(host=srv.host, port=srv.port, user=USER, password=PASSWORD,
                        connect_timeout=3)


def test_cancel_over_tls(tls_server: tuple[Any, Path]) -> None:
    srv, cert = tls_server
    ctx = ssl.create_default_context(cafile=str(cert))
    with ifxwire.connect(host=srv.host, port=srv.port, user=USER, password=PASSWORD,
                         database="tlsdb", tls=ctx, autocommit=True) as c:
        threading.Timer(0.3, c.cancel).start()
        started = time.monotonic()
        with pytest.raises(ifxwire.OperationalError) as info:
            c.execute("SELECT COUNT(*) FROM n a, n b, n c, n d")
        assert info.value.sqlcode == -213
        assert time.monotonic() - started < 20
        assert c.execute("SELECT COUNT(*) FROM n").fetchone() == (1000,)


def test_asyncio_over_the_servers_tls(tls_server: tuple[Any, Path]) -> None:
    srv, cert = tls_server

    async def go() -> None:
        ctx = ssl.create_default_context(cafile=str(cert))
        c = await aio.connect(host=srv.host, port=srv.port, user=USER, password=PASSWORD,
                              database="tlsdb", tls=ctx, autocommit=True)
        try:
            cur = await c.execute("SELECT COUNT(*) FROM n")
            assert await cur.fetchone() == (1000,)
            with pytest.raises(asyncio.TimeoutError):
                await asyncio.wait_for(c.execute("SELECT COUNT(*) FROM n a, n b, n c, n d"),
                                       0.3)
            assert not c.broken  # cancelled on the server through the TLS connection
            cur = await c.execute("SELECT COUNT(*) FROM n")
            assert await cur.fetchone() == (1000,)
        finally:
            await c.close()

    asyncio.run(asyncio.wait_for(go(), 60))


def test_bad_certificate_files_are_named(tmp_path: Path) -> None:
    from ifxwire.server import Server

    with pytest.raises(ValueError, match=r"missing\.pem"):
        Server(port=0, tls_cert=tmp_path / "missing.pem")
