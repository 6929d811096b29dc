"""sqlhosts server groups and HA failover, with three embedded servers of different names.

Each member answers only a login that names it (-761 otherwise, as Informix does), so these
tests also prove that a group is logged in to with the member's own name.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import ifxwire
import ifxwire.aio as aio
from ifxwire.client.dsn import lookup_sqlhosts

pytestmark = pytest.mark.both_drivers

USER, PASSWORD = "informix", "in4mix"


def _closed_port() -> int:
    """A port nothing listens on (bound, then closed)."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return int(port)


@contextlib.contextmanager
def _silent_listener() -> Iterator[int]:
    """Accepts connections and never says a word: a member that hangs."""
    sock = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        while not stop.is_set():
            try:
                conn, _ = sock.accept()
            except OSError:
                return
            held.append(conn)

    t = threading.Thread(target=accept, daemon=True)
    t.start()
    try:
        yield sock.getsockname()[1]
    finally:
        stop.set()
        sock.close()
        for c in held:
            c.close()


@pytest.fixture()
def servers() -> Iterator[list[Any]]:
    from ifxwire.server import Server

    started = [Server(port=0, server_name=f"ha{i}").start() for i in (1, 2, 3)]
    try:
        yield started
    finally:
        for s in started:
            s.stop()


def _sqlhosts(tmp_path: Path, members: list[tuple[str, int]], extra: str = "") -> str:
    path = tmp_path / "sqlhosts"
    lines = ["g_ha group - - i=10" + extra]
    lines += [f"{name} onsoctcp *127.0.0.1 {port} g=g_ha" for name, port in members]
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def test_group_skips_a_down_and_a_hanging_member(
    driver: Any, servers: list[Any], tmp_path: Path
) -> None:
    with _silent_listener() as silent:
        hosts = _sqlhosts(tmp_path, [("ha1", _closed_port()), ("ha2", silent),
                                     ("ha3", servers[2].port)])
        with driver.connect(server="g_ha", sqlhosts=hosts, user=USER, password=PASSWORD,
                             connect_timeout=1) as c:
            assert c.server_name == "ha3"
            assert c.address == ("127.0.0.1", servers[2].port)
            c.execute("CREATE DATABASE fo")
            assert c.execute("SELECT DBSERVERNAME FROM systables WHERE tabid = 1"
                             ).fetchone() == ("ha3",)

        async def go() -> None:
            c = await aio.connect(server="g_ha", sqlhosts=hosts, user=USER, password=PASSWORD,
                                  connect_timeout=1, database="fo")
            try:
                assert c.server_name == "ha3"
                cur = await c.execute("SELECT DBSERVERNAME FROM systables WHERE tabid = 1")
                assert await cur.fetchone() == ("ha3",)
            finally:
                await c.close()

        asyncio.run(go())


def test_group_fails_over_when_members_die(driver: Any,
    servers: list[Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    hosts = _sqlhosts(tmp_path, [(s.server_name, s.port) for s in servers])
    monkeypatch.setenv("INFORMIXSQLHOSTS", hosts)
    monkeypatch.setenv("INFORMIXSERVER", "g_ha")  # INFORMIXSERVER naming a group
    first = driver.connect(user=USER, password=PASSWORD)
    assert first.server_name == "ha1"
    servers[0].stop()
    servers[1].stop()
    with pytest.raises(ifxwire.Error):  # the session on the dead member is gone
        first.execute("CREATE DATABASE gone")
    first.close()
    with driver.connect(user=USER, password=PASSWORD, connect_timeout=2) as again:
        assert again.server_name == "ha3"

    async def go() -> None:  # asyncio: the same file and group from the environment
        c = await aio.connect(user=USER, password=PASSWORD, connect_timeout=2)
        try:
            assert c.server_name == "ha3"
        finally:
            await c.close()

    asyncio.run(go())


def test_a_refused_login_is_final(driver: Any, servers: list[Any], tmp_path: Path) -> None:
    hosts = _sqlhosts(tmp_path, [(s.server_name, s.port) for s in servers])
    with pytest.raises(ifxwire.OperationalError) as info:
        driver.connect(server="g_ha", sqlhosts=hosts, user=USER, password="wrong")
    assert info.value.sqlcode == -951
    assert servers[1].sessions_served == 0  # no other member was tried


def test_unknown_server_names_are_errors(driver: Any,
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    hosts = _sqlhosts(tmp_path, [("ha1", 9)])
    with pytest.raises(ifxwire.InterfaceError, match="'nosuch' is not in the sqlhosts file"):
        driver.connect(server="nosuch", sqlhosts=hosts, user=USER, password=PASSWORD)
    monkeypatch.delenv("INFORMIXSQLHOSTS", raising=False)
    monkeypatch.delenv("INFORMIXDIR", raising=False)
    monkeypatch.setenv("INFORMIXSERVER", "prod_tcp")
    with pytest.raises(ifxwire.InterfaceError, match="no sqlhosts file"):
        driver.connect(user=USER, password=PASSWORD)


def test_jdbc_style_secondary_server(driver: Any, servers: list[Any]) -> None:
    ha3 = servers[2]
    with driver.connect(host="127.0.0.1", port=_closed_port(), server="ha1", user=USER,
                         password=PASSWORD, host_secondary=ha3.host, port_secondary=ha3.port,
                         server_secondary="ha3") as c:
        assert c.server_name == "ha3"
    url = (f"informix://{USER}:{PASSWORD}@127.0.0.1:{_closed_port()}/?server=ha1"
           f"&host_secondary={ha3.host}&port_secondary={ha3.port}&server_secondary=ha3")
    with driver.connect(url) as c:
        assert c.server_name == "ha3"


def test_group_options_end_and_random_start(tmp_path: Path) -> None:
    path = tmp_path / "sqlhosts"
    path.write_text(
        "G1 group - - i=1,e=m2\n"
        "m1 onsoctcp h1 9001 g=g1\n"
        "m2 onsocssl *h2 9002 g=G1\n"
        "m3 onsoctcp h3 9003 g=g1\n"
        "m0 onipcshm h0 x g=g1\n"
        "R group - - c=1\n"
        "r1 onsoctcp a 1 g=R\n"
        "r2 onsoctcp b 2 g=R\n"
    )
    got = lookup_sqlhosts("G1", str(path))
    assert [(a.host, a.port, a.tls, a.server) for a in got] == [
        ("h1", 9001, False, "m1"), ("h2", 9002, True, "m2")]
    starts = {lookup_sqlhosts("R", str(path))[0].server for _ in range(64)}
    assert starts == {"r1", "r2"}
    assert sorted(a.server or "" for a in lookup_sqlhosts("R", str(path))) == ["r1", "r2"]
