"""The product words of the login reply (issue 23): JDBC's getDatabaseProductName() is the
text before "Version" there, and a real 14.10 gives "Informix Dynamic Server"; DBINFO keeps
"IBM Informix Dynamic Server Version …". docs/PROTOCOL.md §2."""

from __future__ import annotations

import socket
from typing import Any

import ifxwire
from ifxwire.protocol.login import (
    ConnectRequest,
    build_connect_request,
    packet_length,
    parse_connect_response,
)


def test_login_reply_names_informix_dynamic_server(server: Any) -> None:
    with socket.create_connection((server.host, server.port), timeout=10) as s:
        s.sendall(build_connect_request(ConnectRequest("informix", "in4mix", "informix")))
        data = b""
        while len(data) < 2 or len(data) < packet_length(data):
            data += s.recv(65536)
    resp = parse_connect_response(data[:packet_length(data)])
    assert resp.accepted
    assert resp.version == "Informix Dynamic Server Version 14.10.FC9"
    product = resp.version[:resp.version.index("Version")].strip()  # as JDBC splits it
    assert product == "Informix Dynamic Server"


def test_dbinfo_full_version_keeps_the_ibm_words(conn: ifxwire.Connection) -> None:
    cur = conn.cursor()
    cur.execute("SELECT DBINFO('version', 'full') FROM systables WHERE tabid = 1")
    assert cur.fetchone() == ("IBM Informix Dynamic Server Version 14.10.FC9",)
    assert conn.server_version == "14.10.FC9"  # type: ignore[attr-defined]
