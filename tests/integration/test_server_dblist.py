"""SQ_DBLIST (issue 23): IBM JDBC's DatabaseMetaData.getCatalogs() and nmap's informix-tables
send ``DBLIST EOT`` and read the server's databases as CHARSTRs ended by an empty one; we
answered -999. Layout and evidence: docs/PROTOCOL.md §5."""

from __future__ import annotations

from typing import Any

from rawclient import RawClient

import ifxwire
from ifxwire.protocol.codes import Msg
from ifxwire.protocol.wire import Writer

USER, PASSWORD = "informix", "in4mix"


def test_dblist_lists_every_database_in_the_layout_clients_read(server: Any) -> None:
    with ifxwire.connect(host=server.host, port=server.port, user=USER, password=PASSWORD,
                         autocommit=True) as c:
        c.cursor().execute("CREATE DATABASE dbl_odd")  # 7 letters: the CHARSTR pad
        c.cursor().execute("CREATE DATABASE dbl_even WITH LOG")
    raw = RawClient(server.host, server.port)
    try:
        reply = raw.send(Writer().u16(Msg.DBLIST))
        assert reply.codes == [Msg.DBLIST, Msg.EOT]
        assert not reply.errors
        names = [n.decode() for n in reply.databases]
        assert names[0] == "sysmaster"
        assert {"dbl_odd", "dbl_even"} <= set(names)
        assert names.index("dbl_odd") < names.index("dbl_even")  # creation order
        # The session goes on: DBLIST needs no database and leaves none open.
        assert not raw.command("DATABASE dbl_odd").errors
    finally:
        raw.close()


def test_dblist_exact_bytes(server: Any) -> None:
    """The answer byte for byte: u16 26, (u16 len, name, pad)…, u16 0, u16 12."""
    raw = RawClient(server.host, server.port)
    try:
        raw.sock.sendall(bytes.fromhex("001a000c"))
        data = b""
        while not data.endswith(b"\x00\x00\x00\x0c"):
            data += raw.sock.recv(65536)
        expected = Writer().u16(Msg.DBLIST)
        for name in raw.send(Writer().u16(Msg.DBLIST)).databases:
            expected.charstr(name)
        expected.u16(0).u16(Msg.EOT)
        assert data == expected.getvalue()
        assert data.startswith(b"\x00\x1a\x00\x09sysmaster\x00")
    finally:
        raw.close()


def test_dropped_database_leaves_the_list(server: Any) -> None:
    with ifxwire.connect(host=server.host, port=server.port, user=USER, password=PASSWORD,
                         autocommit=True) as c:
        c.cursor().execute("CREATE DATABASE dbl_gone")
        c.cursor().execute("CLOSE DATABASE")
        c.cursor().execute("DROP DATABASE dbl_gone")
    raw = RawClient(server.host, server.port)
    try:
        assert b"dbl_gone" not in raw.send(Writer().u16(Msg.DBLIST)).databases
    finally:
        raw.close()
