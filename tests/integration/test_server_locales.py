"""The server and the driver share one locale table (ifxwire/locales.py).

The server used to keep a smaller table of its own and took every code set it did not know
for Latin-1, so a client declaring, say, a Shift-JIS DB_LOCALE had its text silently decoded
as Latin-1. Informix refuses a locale it cannot load at login with -23101 (docs/SERVER.md,
"Locales"); so does the server now, and it converts every code set the driver converts.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator
from typing import Any

import pytest

import ifxwire
import ifxwire.server.session as wire_session
from ifxwire.locales import codec_for_locale
from ifxwire.protocol.login import (
    ConnectRequest,
    build_connect_request,
    packet_length,
    parse_connect_response,
)
from ifxwire.server import Server

SERVER_NAME = "ol_locales"


@pytest.fixture(scope="module")
def srv() -> Iterator[Server]:
    with Server(port=0, data=":memory:", server_name=SERVER_NAME,
                users={"informix": "in4mix"}, failed_login_limit=0) as s:
        yield s


def _login(srv: Server, env: dict[str, str]) -> Any:
    with socket.create_connection((srv.host, srv.port), timeout=10) as sock:
        sock.sendall(build_connect_request(
            ConnectRequest("informix", "in4mix", SERVER_NAME, env=env)))
        buf = b""
        while len(buf) < 2 or len(buf) < packet_length(buf):
            chunk = sock.recv(4096)
            assert chunk, "the server closed before its login answer"
            buf += chunk
        return parse_connect_response(buf[: packet_length(buf)])


@pytest.mark.parametrize("key", ["CLIENT_LOCALE", "DB_LOCALE"])
def test_an_unknown_code_set_is_refused_at_login(srv: Server, key: str) -> None:
    resp = _login(srv, {key: "en_US.no-such-codeset"})
    assert (resp.accepted, resp.svc_error) == (False, -23101)


def test_a_known_code_set_is_admitted(srv: Server) -> None:
    resp = _login(srv, {"CLIENT_LOCALE": "en_US.utf8", "DB_LOCALE": "en_US.819"})
    assert resp.accepted


def test_a_code_set_the_old_server_table_lacked_round_trips(srv: Server) -> None:
    # cp1251 was not in the server's old table, which took it for Latin-1.
    word = "Привет"
    with ifxwire.connect(host=srv.host, port=srv.port, user="informix", password="in4mix",
                         server=SERVER_NAME, client_locale="ru_RU.cp1251",
                         db_locale="ru_RU.cp1251") as c:
        cur = c.cursor()
        cur.execute("CREATE DATABASE cyr WITH LOG")
        cur.execute("CREATE TABLE t (s VARCHAR(20))")
        cur.execute("INSERT INTO t VALUES (?)", (word,))
        cur.execute("SELECT s, LENGTH(s) FROM t")
        assert cur.fetchall() == [(word, len(word))]


def test_one_locale_module() -> None:
    assert codec_for_locale("en_US.819") == "iso-8859-1"
    assert wire_session.codec_for_locale is codec_for_locale
    with pytest.raises(ifxwire.InterfaceError):
        codec_for_locale("en_US.no-such-codeset")
