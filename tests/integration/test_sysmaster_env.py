"""sysmaster:sysenv, the server's startup environment (Administrator's Reference, "sysenv").

Change-capture clients begin with ``SELECT env_value FROM sysmaster:sysenv WHERE env_name =
'INFORMIXSERVER'`` (the lakeflow connector's field report, docs/PROTOCOL.md §18): the answer
must be the name the server answers logins with, also after a restart under another name.
"""

from __future__ import annotations

from pathlib import Path

import ifxwire
from ifxwire.server import Server

QUERY = "SELECT env_value FROM sysmaster:sysenv WHERE env_name = 'INFORMIXSERVER'"


def _server_name_seen(srv: Server) -> str:
    with ifxwire.connect(host=srv.host, port=srv.port, user="informix", password="in4mix",
                         server=srv.server_name, database="sysmaster") as conn:
        cur = conn.cursor()
        cur.execute(QUERY)
        rows = cur.fetchall()
        assert len(rows) == 1
        cur.execute("SELECT colname, coltype, collength FROM syscolumns c, systables t "
                    "WHERE c.tabid = t.tabid AND t.tabname = 'sysenv' ORDER BY colno")
        assert [(n.strip(), ty & 0xFF, ln) for n, ty, ln in cur.fetchall()] == [
            ("env_id", 2, 4), ("env_name", 0, 128), ("env_value", 0, 512)]
        return str(rows[0][0]).rstrip()


def test_sysenv_names_the_server(tmp_path: Path) -> None:
    with Server(port=0, data=tmp_path, server_name="ol_first") as srv:
        assert _server_name_seen(srv) == "ol_first"
    # The same data directory under another name: the rows are written at every start.
    with Server(port=0, data=tmp_path, server_name="ol_second") as srv:
        assert _server_name_seen(srv) == "ol_second"


def test_sysenv_from_another_database(tmp_path: Path) -> None:
    with Server(port=0, data=tmp_path, server_name="ol_x") as srv:
        with ifxwire.connect(host=srv.host, port=srv.port, user="informix", password="in4mix",
                             server="ol_x", autocommit=True) as conn:
            conn.cursor().execute("CREATE DATABASE envdb WITH LOG")
        with ifxwire.connect(host=srv.host, port=srv.port, user="informix", password="in4mix",
                             server="ol_x", database="envdb") as conn:
            cur = conn.cursor()
            cur.execute(QUERY)
            assert [r[0].rstrip() for r in cur.fetchall()] == ["ol_x"]
