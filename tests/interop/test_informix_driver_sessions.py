"""informix-driver against our server's session features: scroll cursors (SFETCH) and TLS.

informix-driver was validated by its authors on real Informix 12.10/14.10/15; what it expects
from SFETCH (one row per ABSOLUTE, TUPID = the row, after LAST TUPID = the count) is what a
real server does (peer-informix-driver.md 2.4, 4).
"""

from __future__ import annotations

import random
import ssl
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from informix_driver_support import (
    Target,
    connect,
    create_logged_database,
    many,
    run,
    start_target,
)

pytestmark = pytest.mark.interop


@pytest.fixture(scope="module")
def target() -> Iterator[Target]:
    with start_target() as t:
        yield t


@pytest.fixture(scope="module")
def scroll_db(target: Target) -> str:
    def setup(c: Any) -> None:
        run(c, "CREATE TABLE walk (id INTEGER)")
        many(c, "INSERT INTO walk VALUES (?)", [(i,) for i in range(120)])

    return create_logged_database(target, "ifxscroll", setup)


@pytest.mark.parametrize("size", [0, 1, 2, 5, 120])
def test_random_scroll_walk_matches_list_indexing(
    target: Target, scroll_db: str, size: int
) -> None:
    rows = [(i,) for i in range(size)]
    rnd = random.Random(size)
    c: Any = connect(target, scroll_db, autocommit=True)
    try:
        cur = c.cursor(scrollable=True)
        cur.execute(f"SELECT id FROM walk WHERE id < {size} ORDER BY id")
        for _ in range(60):
            op = rnd.choice(["absolute", "first", "last"])
            if op == "absolute":
                n = rnd.randint(-size - 2, size + 2)
                want = rows[n] if -size <= n < size else None
                assert cur.fetch_absolute(n) == want, n
            elif op == "first":
                assert cur.fetch_first() == (rows[0] if rows else None)
            else:
                assert cur.fetch_last() == (rows[-1] if rows else None)
        cur.close()
        check = c.cursor()
        check.execute("SELECT COUNT(*) FROM walk")
        assert check.fetchone() == (120,)
    finally:
        c.close()


def test_informix_driver_over_the_servers_tls(tls_certificate: tuple[Path, Path]) -> None:
    """informix-driver's ``tls=<SSLContext>`` (it verifies nothing with ``tls=True``, so the
    test gives it a verifying context) against our server's TLS listener."""
    from ifxwire.server import Server

    cert, key = tls_certificate
    ctx = ssl.create_default_context(cafile=str(cert))
    with Server(port=0, tls_cert=cert, tls_key=key) as srv:
        target = Target(srv.host, srv.port, "informix", "informix", "in4mix", external=False)
        c: Any = connect(target, None, autocommit=True, tls=ctx,
                         tls_server_hostname="localhost")
        try:
            run(c, "CREATE DATABASE tlsdrv WITH LOG")
            run(c, "CREATE TABLE t (id INTEGER, s VARCHAR(40))")
            many(c, "INSERT INTO t VALUES (?, ?)", [(i, f"row {i}") for i in range(500)])
            cur = c.cursor()
            cur.execute("SELECT id, s FROM t ORDER BY id")
            rows = cur.fetchall()
            assert len(rows) == 500 and rows[499] == (499, "row 499")
        finally:
            c.close()
