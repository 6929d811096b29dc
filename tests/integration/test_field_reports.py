"""What informix-driver's field reports record about real 12.10/14.10/15 servers, checked
against ifxwire-server and the ifxwire driver over real sockets (issue 23).

Sources: the CHANGELOG of informix-driver 2026.9.3 (2026.08.31 to 2026.09.03) and the tests of
its suite named in each test here. The codec halves of these facts have golden vectors in
tests/unit/test_field_report_vectors.py; the table is docs/PROTOCOL.md "Facts from
informix-driver's field reports".
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import datetime
from typing import Any

import pytest
from rawclient import RawClient, Reply

import ifxwire
import ifxwire.aio as aio
from ifxwire.protocol import messages as m
from ifxwire.protocol.codes import Msg
from ifxwire.protocol.wire import Writer
from ifxwire.server import Server

pytestmark = pytest.mark.both_drivers

H = bytes.fromhex


@pytest.fixture(scope="module")
def srv() -> Iterator[Server]:
    with Server(port=0, data=":memory:") as s:
        with ifxwire.connect(host=s.host, port=s.port, user="informix", password="in4mix",
                             autocommit=True) as c:
            c.execute("CREATE DATABASE fr WITH LOG")
            c.execute("CREATE TABLE t (a INT8, lv LVARCHAR(100), b INT8, c CHAR(6), "
                      "d DECIMAL(16), e INTEGER)")
            c.execute("INSERT INTO t VALUES (2001, 'PackageRoot', 10, 'ab', 1.5, 1)")
            c.execute("INSERT INTO t VALUES (1, NULL, 2, NULL, NULL, 2)")
            c.execute("INSERT INTO t VALUES (3, '', 4, '', NULL, 3)")
            c.execute("CREATE TABLE s (id INTEGER, bl BLOB, cl CLOB, e INTEGER)")
            c.execute("INSERT INTO s VALUES (1, FILETOBLOB('/etc/hostname', 'server'), NULL, 5)")
            c.execute("CREATE TABLE r (id INTEGER, v ROW(x INTEGER, y VARCHAR(5)), "
                      "l LIST(INTEGER NOT NULL), e INTEGER)")
            c.execute("INSERT INTO r VALUES (1, NULL, NULL, 6)")
        yield s


@pytest.fixture()
def raw(srv: Server) -> Iterator[RawClient]:
    c = RawClient(srv.host, srv.port)
    w = Writer()
    m.put_dbopen(w, b"fr")
    assert c.send(w).errors == []
    yield c
    c.close()


def _prepare(c: RawClient, sql: str, nparams: int = 0) -> int:
    w = Writer()
    m.put_prepare(w, sql.encode(), nparams, c.layout)
    reply = c.send(w)
    assert reply.errors == [], reply.errors
    return reply.describes[0].stmt_id


def _send(c: RawClient, sid: int, *codes: int) -> Reply:
    w = Writer()
    m.put_id(w, sid)
    for code in codes:
        w.u16(code)
    return c.send(w)


def _select(c: RawClient, sql: str) -> list[bytes]:
    """The tuples a client without SQ_RET_TYPE (informix-driver) gets: JDBC's groups."""
    sid = _prepare(c, sql)
    w = Writer()
    m.put_id(w, sid)
    m.put_curname(w, b"fr_cur")
    w.u16(Msg.OPEN)
    m.put_id(w, sid)
    m.put_nfetch(w, 4096)
    reply = c.send(w)
    assert reply.errors == [], reply.errors
    _send(c, sid, Msg.CLOSE)
    _send(c, sid, Msg.RELEASE)
    return reply.tuples


def _codes(reply: Reply) -> list[int]:
    return [e.sqlcode for e in reply.errors]


# ---------------------------------------------------------------- tuple framing, our server


def test_lvarchar_char_and_unscaled_decimal_tuples_are_framed_as_on_real_servers(
    raw: RawClient,
) -> None:
    """CHANGELOG 2026.08.31 (LVARCHAR: no pad after an odd length, NULL keeps its u32;
    test_lvarchar_framing.py), 2026.08.31.1 (NULL CHAR is a leading NUL,
    test_type_matrix.py::test_null_char_is_none_not_empty_string; unscaled DECIMAL(16) is
    10 bytes, ::test_decimal_width_does_not_shift_next_column)."""
    rows = _select(raw, "SELECT a, lv, b, c, d, e FROM t ORDER BY e")
    int8 = {2001: "00010000 07d10000 0000", 10: "00010000 000a0000 0000",
            1: "00010000 00010000 0000", 2: "00010000 00020000 0000",
            3: "00010000 00030000 0000", 4: "00010000 00040000 0000"}

    def h(text: str) -> bytes:
        return H(text.replace(" ", ""))

    assert rows[0] == (h(int8[2001]) + H("000000000b") + b"PackageRoot" + h(int8[10])
                       + b"ab    " + H("c1013200000000000000") + H("00000001"))
    assert rows[1] == (h(int8[1]) + H("0100000000") + h(int8[2]) + H("002020202020")
                       + H("00" * 10) + H("00000002"))
    assert rows[2] == (h(int8[3]) + H("0000000000") + h(int8[4]) + b"      "
                       + H("00" * 10) + H("00000003"))


def test_smart_lob_locator_envelope_is_149_bytes_and_5_when_null(raw: RawClient) -> None:
    """CHANGELOG 2026.09.02; test_row_reconciliation.py::test_lob_in_non_final_position."""
    (row,) = _select(raw, "SELECT id, bl, cl, e FROM s")
    assert row[:4] == H("00000001")
    blob = row[4:153]
    assert blob[:5] == H("0000000090") and len(blob) == 149
    bytes.fromhex(blob[5:].decode("ascii"))  # the 72-byte locator, hex-encoded
    assert row[153:] == H("0100000000") + H("00000005")


def test_null_composite_keeps_its_4_byte_length(raw: RawClient) -> None:
    """CHANGELOG 2026.09.02; test_row_reconciliation.py::
    test_null_composite_does_not_shift_next_column (the text form, no SQ_RET_TYPE)."""
    (row,) = _select(raw, "SELECT id, v, l, e FROM r")
    assert row == H("00000001") + H("0100000000") * 2 + H("00000006")


def test_the_driver_reads_those_rows(driver: Any, srv: Server) -> None:
    with driver.connect(host=srv.host, port=srv.port, user="informix", password="in4mix",
                         database="fr") as c:
        rows = c.execute("SELECT a, lv, b, c, d, e FROM t ORDER BY e").fetchall()
        assert [r[:4] for r in rows] == [(2001, "PackageRoot", 10, "ab"), (1, None, 2, None),
                                         (3, "", 4, "")]
        assert c.execute("SELECT COUNT(*) FROM t WHERE c IS NULL").fetchone() == (1,)
        assert c.execute("SELECT id, v, l, e FROM r").fetchone() == (1, None, None, 6)


# ---------------------------------------------------------------- binds


def test_datetime_bind_keeps_its_fraction(driver: Any, srv: Server) -> None:
    """CHANGELOG 2026.08.31; test_datetime_fraction.py::test_fraction_round_trip,
    ::test_fraction_bind_into_year_to_second_column. The server's own text is the oracle."""
    with driver.connect(host=srv.host, port=srv.port, user="informix", password="in4mix",
                         database="fr", autocommit=True) as c:
        c.execute("CREATE TEMP TABLE tf (f DATETIME YEAR TO FRACTION(5), "
                  "s DATETIME YEAR TO SECOND)")
        value = datetime(2026, 8, 31, 12, 30, 15, 123456)
        c.execute("INSERT INTO tf VALUES (?, ?)", (value, value))
        assert c.execute("SELECT f::LVARCHAR, s::LVARCHAR FROM tf").fetchone() == (
            "2026-08-31 12:30:15.12345", "2026-08-31 12:30:15")
        assert c.execute("SELECT f, s FROM tf").fetchone() == (
            datetime(2026, 8, 31, 12, 30, 15, 123450), datetime(2026, 8, 31, 12, 30, 15))


def test_bool_binds_store_a_real_boolean(driver: Any, srv: Server) -> None:
    """CHANGELOG 2026.08.31.1; test_type_matrix.py::test_boolean_bind_stores_real_boolean."""
    with driver.connect(host=srv.host, port=srv.port, user="informix", password="in4mix",
                         database="fr", autocommit=True) as c:
        c.execute("CREATE TEMP TABLE tb (b BOOLEAN, k INTEGER)")
        c.cursor().executemany("INSERT INTO tb VALUES (?, ?)", [(True, 1), (False, 2)])
        assert c.execute("SELECT k FROM tb WHERE b = ?", (True,)).fetchall() == [(1,)]
        assert c.execute("SELECT b::LVARCHAR FROM tb ORDER BY k").fetchall() == [("t",), ("f",)]


def test_unnamed_boolean_bind_is_refused_not_hung_and_not_run(
    driver: Any, srv: Server, raw: RawClient
) -> None:
    """CHANGELOG 2026.08.31.1: (45, 0, 01) hung real servers (41 the same). Ours ends the
    session at once, runs nothing, and other sessions go on; JDBC's named form works."""
    sid = _prepare(raw, "INSERT INTO t (e) VALUES (?)", 1)
    w = Writer()
    m.put_id(w, sid)
    w.u16(Msg.BIND).u16(1).raw(H("002d00000000") + H("0100"))
    w.u16(Msg.EXECUTE)
    raw.sock.settimeout(10)
    with pytest.raises(ConnectionError):
        raw.send(w)  # closed by the server, well before the 10 s timeout
    with driver.connect(host=srv.host, port=srv.port, user="informix", password="in4mix",
                         database="fr", autocommit=True) as c:
        assert c.execute("SELECT COUNT(*) FROM t").fetchone() == (3,)
        c.execute("CREATE TEMP TABLE tj (b BOOLEAN)")
    jdbc = RawClient(srv.host, srv.port)
    try:
        w = Writer()
        m.put_dbopen(w, b"fr")
        jdbc.send(w)
        assert jdbc.command("CREATE TEMP TABLE tj (b BOOLEAN)").errors == []
        sid = _prepare(jdbc, "INSERT INTO tj VALUES (?)", 1)
        w = Writer()
        m.put_id(w, sid)
        w.u16(Msg.BIND).u16(1).raw(H("002d" "0000" "0007") + b"boolean\x00" + H("0000 0001"
                                   .replace(" ", "")) + H("00000001") + H("0100"))
        w.u16(Msg.EXECUTE)
        assert _codes(jdbc.send(w)) == []
    finally:
        jdbc.close()


# ---------------------------------------------------------------- versions


def test_server_version_is_the_release_when_the_login_carries_the_protocol_version(
    driver: Any
) -> None:
    """CHANGELOG 2026.08.31 / 2026.08.27; test_capabilities.py::
    test_server_version_reports_release_not_protocol_version, ::
    test_server_version_degrades_without_a_database. Server(login_version="9.59") sends what
    a real 14.10 sends at login."""
    with Server(port=0, data=":memory:", login_version="9.59") as s:
        kw = {"host": s.host, "port": s.port, "user": "informix", "password": "in4mix"}
        with driver.connect(**kw, autocommit=True) as c:
            assert c.server_version == "9.59"  # no database: DBINFO cannot be asked
            c.execute("CREATE DATABASE v WITH LOG")
        with driver.connect(**kw, database="v") as c:
            assert c.server_version_internal == "9.59"
            assert c.server_version == "14.10.FC9"
            assert not c.in_transaction

        async def go() -> tuple[str, str]:
            a = await aio.connect(**kw, database="v")
            try:
                return a.server_version_internal, a.server_version
            finally:
                await a.close()

        assert asyncio.run(go()) == ("9.59", "14.10.FC9")
    with Server(port=0, data=":memory:") as s, driver.connect(
            host=s.host, port=s.port, user="informix", password="in4mix") as c:
        assert c.server_version == c.server_version_internal == "14.10.FC9"


# ---------------------------------------------------------------- statements and scroll cursors


def test_statements_interleaved_with_an_open_scroll_cursor(raw: RawClient) -> None:
    """CHANGELOG 2026.09.02 "A scrollable cursor took the connection down with it";
    test_statement_slot.py. informix-driver addressed every message to statement 0, so a
    second statement's OPEN went to the open scroll cursor (-285), a cleanup's RELEASE freed
    it (its next fetch -267), a RELEASE landing before a CURNAME made that -208, a stale CLOSE
    is -267, and an SFETCH to a statement with no cursor open is -259."""
    a = _prepare(raw, "SELECT tabid FROM systables ORDER BY tabid")
    w = Writer()
    m.put_id(w, a)
    m.put_curname(w, b"sa")
    w.u16(Msg.SCROLL).u16(Msg.OPEN)
    assert _codes(raw.send(w)) == []

    def sfetch(sid: int, target: int) -> Reply:
        w = Writer()
        m.put_id(w, sid)
        w.u16(Msg.SFETCH).u16(6).i32(target).i32(4096)  # ABSOLUTE
        return raw.send(w)

    assert len(sfetch(a, 1).tuples) >= 1
    b = _prepare(raw, "SELECT COUNT(*) FROM systables")
    assert b != a
    w = Writer()
    m.put_id(w, a)
    m.put_curname(w, b"sb")
    w.u16(Msg.OPEN)
    m.put_id(w, a)
    m.put_nfetch(w, 4096)
    assert _codes(raw.send(w)) == [-285]
    assert sfetch(a, 2).tuples, "the refused OPEN must leave the scroll cursor alone"
    assert _codes(sfetch(b, 1)) == [-259]
    _send(raw, a, Msg.CLOSE)
    assert _codes(_send(raw, a, Msg.RELEASE)) == []
    assert _codes(sfetch(a, 1)) == [-267]
    assert _codes(_send(raw, a, Msg.CLOSE)) == [-267]
    w = Writer()
    m.put_id(w, a)
    m.put_curname(w, b"sc")
    w.u16(Msg.OPEN)
    assert _codes(raw.send(w)) == [-208]
    # The session is fine.
    assert _codes(_send(raw, b, Msg.RELEASE)) == []
    assert len(_select(raw, "SELECT FIRST 1 tabid FROM systables")) == 1


def test_our_driver_interleaves_statements_with_an_open_scroll_cursor(
    driver: Any, srv: Server
) -> None:
    """Every message of ours names its statement (SQ_ID), as JDBC's do: no -285/-267."""
    with driver.connect(host=srv.host, port=srv.port, user="informix", password="in4mix",
                         database="fr") as c:
        scroll = c.cursor(scrollable=True)
        scroll.execute("SELECT tabid FROM systables ORDER BY tabid")
        first = scroll.fetchone()
        assert c.execute("SELECT COUNT(*) FROM t").fetchone() == (3,)
        scroll.scroll(0, mode="absolute")
        assert scroll.fetchone() == first
