"""Login redirects (SL type 13): a server that answers a login with "go to server S at host:port".

An Informix Connection Manager in redirect mode answers so; ``Server(redirect_to=...)`` plays
it. The driver raises the redirect naming its target unless ``max_redirects`` allows it to
follow; a chain of redirects ends after that many. The wire layout is checked against IBM
JDBC, which follows redirects by itself, in tests/interop/test_jdbc_redirect.py.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest

import ifxwire
import ifxwire.aio
from ifxwire.protocol.login import (
    ConnectResponse,
    RedirectTarget,
    build_connect_response,
    parse_connect_response,
    parse_redirect,
)
from ifxwire.server import Server

pytestmark = pytest.mark.both_drivers

USER, PASSWORD = "informix", "in4mix"


@pytest.fixture(scope="module")
def redirector(server: Any) -> Iterator[Server]:
    """A second server whose every login is sent on to ``server`` (named "target")."""
    with Server(port=0, data=":memory:",
                redirect_to=(server.server_name, server.host, server.port)) as srv:
        yield srv


def _kwargs(srv: Any, **extra: Any) -> dict[str, Any]:
    return {"host": srv.host, "port": srv.port, "user": USER, "password": PASSWORD,
            "database": "sysmaster", **extra}


def test_redirect_is_raised_with_its_target_by_default(
    driver: Any, redirector: Server, server: Any
) -> None:
    with pytest.raises(ifxwire.OperationalError) as info:
        driver.connect(**_kwargs(redirector))
    err = info.value
    assert err.sqlstate == "08004"
    assert err.near == f"{server.server_name}@{server.host}:{server.port}"
    assert "max_redirects" in str(err)
    assert PASSWORD not in str(err)


def test_redirect_is_followed_when_allowed(driver: Any, redirector: Server, server: Any) -> None:
    with driver.connect(**_kwargs(redirector, max_redirects=1)) as conn:
        assert conn.address == (server.host, server.port)
        assert conn.server_name == server.server_name
        cur = conn.cursor()
        cur.execute("SELECT COUNT(*) FROM systables WHERE tabid = 1")
        assert cur.fetchone() == (1,)


def test_a_redirect_loop_ends_after_max_redirects(driver: Any) -> None:
    # A server that redirects to itself: a loop that only the limit ends.
    with Server(port=0, data=":memory:") as srv:
        srv.redirect_to = (srv.server_name, srv.host, srv.port)
        with pytest.raises(ifxwire.OperationalError) as info:
            driver.connect(**_kwargs(srv, max_redirects=3))
        assert info.value.near == f"{srv.server_name}@{srv.host}:{srv.port}"
        assert srv.sessions_served >= 4  # the first login and three redirected ones


def test_asyncio_follows_the_same_way(redirector: Server, server: Any) -> None:
    async def run() -> None:
        with pytest.raises(ifxwire.OperationalError):
            await ifxwire.aio.connect(**_kwargs(redirector))
        conn = await ifxwire.aio.connect(**_kwargs(redirector, max_redirects=2))
        try:
            cur = conn.cursor()
            await cur.execute("SELECT COUNT(*) FROM systables WHERE tabid = 1")
            assert await cur.fetchone() == (1,)
        finally:
            await conn.close()

    asyncio.run(run())


def test_negative_max_redirects_is_refused(driver: Any) -> None:
    with pytest.raises(ifxwire.InterfaceError, match="max_redirects"):
        driver.connect(host="127.0.0.1", port=1, max_redirects=-1)


@pytest.mark.parametrize(
    ("detail", "target"),
    [
        ("ol_b|db2.example|9089", RedirectTarget("ol_b", "db2.example", 9089)),
        ("redirect=ol_b|10.1.2.3|9089", RedirectTarget("ol_b", "10.1.2.3", 9089)),
        (" ol_b | h | 1 ", RedirectTarget("ol_b", "h", 1)),
    ],
)
def test_redirect_detail_forms(detail: str, target: RedirectTarget) -> None:
    assert parse_redirect(detail) == target


@pytest.mark.parametrize("detail", ["", "ol_b|h", "ol_b|h|0", "ol_b|h|65536", "ol_b|h|http",
                                    "a|b|c|d|1", "ol\x01b|h|1"])
def test_malformed_redirect_details_are_refused(detail: str) -> None:
    with pytest.raises(ValueError):
        parse_redirect(detail)


def test_redirect_packet_layout() -> None:
    packet = build_connect_response(ConnectResponse(accepted=False, redirect="ol_b|h|9089"))
    assert packet[2] == 13  # SL type REDIRECT
    # u16 103, u16 11, the detail as JDBC's readChar takes it (u16 length, bytes, one pad
    # byte for an odd length), then SQ_ASCEOT.
    detail = b"ol_b|h|9089"
    assert packet.endswith(bytes.fromhex("0067000b000b") + detail + b"\0" + bytes.fromhex("007f"))
    resp = parse_connect_response(packet)
    assert resp.redirect == "ol_b|h|9089" and not resp.accepted


@pytest.mark.one_driver  # counts the sync connection's loop (the asyncio connect keeps it)
def test_a_one_address_connect_runs_no_loop_until_it_fails(
    redirector: Server, server: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A connect to one address is made without the connect loop's generator
    (``Attempts.only``: issue 24's 3 % check, ~60 bytecodes a connect); when that address
    redirects, the loop goes on from there (the same decisions: ``Attempts.failed``)."""
    from ifxwire.client import connection as sync_connection

    loops: list[int] = []
    original = sync_connection.connect_calls

    def counted(params: Any, attempts: Any = None) -> Any:
        loops.append(1)
        return original(params, attempts)

    monkeypatch.setattr(sync_connection, "connect_calls", counted)
    made: list[int] = []
    attempts = sync_connection.Attempts

    def counted_attempts(params: Any) -> Any:
        made.append(1)
        return attempts(params)

    monkeypatch.setattr(sync_connection, "Attempts", counted_attempts)
    with ifxwire.connect(**_kwargs(server)) as conn:
        assert conn.address == (server.host, server.port)
    # (count24: nor the Attempts that lists the addresses, until the one attempt fails)
    assert loops == [] and made == []
    with ifxwire.connect(**_kwargs(redirector, max_redirects=1)) as conn:
        assert conn.address == (server.host, server.port)
    assert loops == [1]
    with pytest.raises(ifxwire.OperationalError) as info:
        ifxwire.connect(**_kwargs(redirector))
    assert info.value.sqlstate == "08004"  # no redirect left: Attempts.failed raises it
    assert loops == [1]
