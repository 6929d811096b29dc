"""Login facts a live 15.0 server showed (lakeflow's informix_api_doc.md, docs/PROTOCOL.md §2
and §18), checked over a real socket against our server.

* The accept's SL header carries options 0x1000 (a live 15.0 accept did), and every client
  reads past it.
* A database named in the login request makes an explicit database connection: its SQ_DBOPEN
  is -759, the code informix-driver met on real servers (lakeflow's live 15 drew -408 at a
  step its report does not name). No client we know names one (JDBC, informix-driver,
  libsqli, nmap and our driver send ``u16 0``).
* JDBC always sends NODEFDAC=no, DBPATH=., IFX_UPDDESC=1 and CLNT_PAM_CAPABLE=1 in the
  login's environment: each is accepted, alone and together, and kept in the session's
  environment.
* JDBC tracks whether a database is open by the statement type of the SQ_DONE's statement
  (1, 12, 38 open; 31 closes): our DESCRIBE of those statements carries those numbers.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator
from typing import Any

import pytest
from rawclient import RawClient  # tests/integration is on sys.path (rootdir insertion)

import ifxwire
from ifxwire.protocol import messages as m
from ifxwire.protocol.login import ConnectRequest, build_connect_request, packet_length
from ifxwire.protocol.wire import Writer

#: The four entries IBM JDBC's IfxSqliConnect.SetPrimEVars adds to every login (lakeflow's
#: informix_api_doc.md, confirmed live: the six SQ_ASCENV entries of a run with both locales).
JDBC_ALWAYS = {"NODEFDAC": "no", "DBPATH": ".", "IFX_UPDDESC": "1", "CLNT_PAM_CAPABLE": "1"}
DB = "loginfacts"


@pytest.fixture(scope="module")
def db(server: Any) -> Iterator[str]:
    c = ifxwire.connect(host=server.host, port=server.port, user="informix",
                        password="in4mix", autocommit=True)
    c.execute(f"CREATE DATABASE {DB} WITH LOG")
    c.close()
    yield DB


def _sessions(server: Any) -> set[Any]:
    with server._lock:  # (the set the accept threads add to and remove from)
        return set(server._sessions)


def _opened(server: Any, before: set[Any]) -> Any:
    """The one server session opened since ``before`` was taken (``Server._sessions`` is a
    set: its order says nothing of which session is newest; taking the last of it picked an
    older session now and then, CI's pure lane)."""
    new = _sessions(server) - before
    assert len(new) == 1, new
    return new.pop()


def test_the_accept_carries_the_live_options_and_the_login_goes_on(server: Any, db: str) -> None:
    with socket.create_connection((server.host, server.port), timeout=10) as s:
        s.sendall(build_connect_request(ConnectRequest("informix", "in4mix", "")))
        data = b""
        while len(data) < 2 or len(data) < packet_length(data):
            data += s.recv(4096)
    assert data[2] == 2 and data[4:6] == b"\x10\x00"  # accept, options 0x1000 (was 0)
    # and our driver, which reads past the field, logs in and works
    c = ifxwire.connect(host=server.host, port=server.port, user="informix",
                        password="in4mix", database=db)
    try:
        assert c.execute("SELECT COUNT(*) FROM systables WHERE tabid = 1").fetchone() == (1,)
    finally:
        c.close()


def test_a_database_named_in_the_login_makes_its_dbopen_759(server: Any, db: str) -> None:
    raw = RawClient(server.host, server.port, database=db)
    try:
        w = Writer()
        m.put_dbopen(w, db.encode())
        reply = raw.send(w)
        assert [e.sqlcode for e in reply.errors] == [-759]  # before: opened
    finally:
        raw.close()
    plain = RawClient(server.host, server.port)  # the same request without the name
    try:
        w = Writer()
        m.put_dbopen(w, db.encode())
        reply = plain.send(w)
        assert reply.errors == [] and len(reply.dones) == 1
    finally:
        plain.close()


@pytest.mark.parametrize("env", [{k: v} for k, v in JDBC_ALWAYS.items()] + [JDBC_ALWAYS],
                         ids=[*JDBC_ALWAYS, "all four"])
def test_jdbc_s_always_sent_environment_is_accepted(
        server: Any, db: str, env: dict[str, str]) -> None:
    before = _sessions(server)
    raw = RawClient(server.host, server.port, env=env)
    try:
        assert _opened(server, before).env.items() >= env.items()
        w = Writer()
        m.put_dbopen(w, db.encode())
        reply = raw.send(w)
        assert reply.errors == [] and len(reply.dones) == 1
        assert raw.command("CREATE TEMP TABLE t (a INT) WITH NO LOG").errors == []
    finally:
        raw.close()


def test_database_statements_are_described_with_the_types_jdbc_tracks(
        server: Any, db: str) -> None:
    """JDBC's SQ_DONE handler marks the database open when the statement type is 1, 12 or 38
    and closed when it is 31 (lakeflow, JDBC 15.0.1.3 bytecode; sqlstype.h's SQ_DATABASE,
    SQ_CREADB, SQ_STARTDB, SQ_CLSDB): our DESCRIBE must carry those numbers (literals here)."""
    raw = RawClient(server.host, server.port)
    try:
        for sql, stype in ((f"database {db}", 1), ("close database", 31),
                           ("create database lf_described with log", 12)):
            w = Writer()
            m.put_prepare(w, sql.encode(), 0, raw.layout)
            reply = raw.send(w)
            assert reply.errors == [] and reply.describes[0].stmt_type == stype, sql
    finally:
        raw.close()


@pytest.mark.parametrize("how, flags", [
    ("", 0x04 | 0x10), ("with log", 0x01 | 0x04 | 0x10),
    ("with buffered log", 0x01 | 0x04 | 0x10), ("with log mode ansi", 0x01 | 0x02 | 0x04 | 0x10),
])
def test_dbopen_warnings_never_carry_the_float_read_only_or_locale_bits(
        server: Any, how: str, flags: int) -> None:
    """JDBC reads DBOPEN's warnings as 1 logged, 2 ANSI, 8 float stored as DECIMAL, 32
    read-only, 64 locale changed (lakeflow; PROTOCOL.md §6): our server stores FLOAT as a
    binary double, has no read-only database and does not flag a locale difference (§2), so it
    sets none of 8, 32 and 64."""
    name = "lf_w_" + (how.replace(" ", "_") or "nolog")
    raw = RawClient(server.host, server.port)
    try:
        assert raw.command(f"create database {name} {how}").errors == []
        raw.command("close database")
        w = Writer()
        m.put_dbopen(w, name.encode())
        (done,) = raw.send(w).dones
        assert done.warnings == flags
    finally:
        raw.close()
