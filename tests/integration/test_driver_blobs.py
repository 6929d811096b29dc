"""BYTE and TEXT end to end: SQ_BBIND uploads, SQ_FETCHBLOB reads, over real sockets.

The wire layout is checked against IBM JDBC and informix-driver in tests/interop (byte_text,
test_long_row_ids_server, the cross-client BYTE/TEXT cases); here the driver and the server
are exercised for what a user meets: sizes, NULL versus empty, many batches, code sets,
adapters, asyncio, errors that leave the connection usable, and messages sent out of order.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator
from typing import Any

import pytest
from rawclient import RawClient

import ifxwire
import ifxwire.aio
from ifxwire.protocol import messages as m
from ifxwire.protocol.codes import Msg
from ifxwire.protocol.columns import ColumnDesc
from ifxwire.protocol.wire import Writer
from ifxwire.server import Server
from ifxwire.server.blobs import BlobStore
from ifxwire.server.engine import EngineError
from ifxwire.types import blobs as b

pytestmark = pytest.mark.both_drivers

BIG = os.urandom(3 * 1024 * 1024 + 1)  # odd size: padding on the last chunk
LATIN1_TEXT = "Grüße, café " * 20_000


@pytest.fixture()
def table(conn: ifxwire.Connection) -> str:
    cur = conn.cursor()
    cur.execute("CREATE TABLE blobs (id INTEGER, b BYTE, t TEXT)")
    conn.commit()
    yield "blobs"
    cur.execute("DROP TABLE blobs")
    conn.commit()


def _insert(conn: ifxwire.Connection, rows: list[tuple[Any, ...]]) -> None:
    conn.cursor().executemany("INSERT INTO blobs VALUES (?, ?, ?)", rows)
    conn.commit()


def _select(conn: ifxwire.Connection) -> list[tuple[Any, ...]]:
    return conn.cursor().execute("SELECT id, b, t FROM blobs ORDER BY id").fetchall()


def test_large_values_null_and_empty(conn: ifxwire.Connection, table: str) -> None:
    _insert(
        conn,
        [
            (1, BIG, ifxwire.Text(LATIN1_TEXT)),
            (2, None, None),
            (3, b"", ifxwire.Text("")),
            (4, bytearray(b"\x00\xff" * 3), "plain str into TEXT"),
            (5, memoryview(b"view"), ifxwire.Text("x")),
        ],
    )
    rows = _select(conn)
    assert rows[0] == (1, BIG, LATIN1_TEXT)
    assert rows[1] == (2, None, None)
    assert rows[2] == (3, b"", "")
    assert rows[3] == (4, b"\x00\xff" * 3, "plain str into TEXT")
    assert rows[4] == (5, b"view", "x")
    assert type(rows[0][1]) is bytes and type(rows[0][2]) is str
    cur = conn.cursor()
    cur.execute("SELECT COUNT(*) FROM blobs WHERE b IS NULL AND t IS NULL")
    assert cur.fetchone() == (1,)


def test_many_rows_over_many_batches(conn: ifxwire.Connection, table: str) -> None:
    # 400 rows of 2-6 KB: the fetch size splits them into many batches; each batch's blobs
    # are fetched before the next NFETCH, and the cursor streams (batch_size stays bounded).
    rows = [
        (i, bytes([i % 256]) * (2000 + i * 10), ifxwire.Text(f"t{i}" * (i + 1)))
        for i in range(400)
    ]
    _insert(conn, rows)
    cur = conn.cursor()
    cur.execute("SELECT id, b, t FROM blobs ORDER BY id")
    seen = 0
    largest_batch = 0
    for row in cur:
        i = row[0]
        assert row == (i, bytes([i % 256]) * (2000 + i * 10), f"t{i}" * (i + 1))
        largest_batch = max(largest_batch, cur.batch_size)
        seen += 1
    assert seen == 400
    assert largest_batch < 400
    assert cur.rowcount == 400


@pytest.mark.one_driver  # counts the sync connection's socket writes
def test_blob_fetches_cost_one_round_trip_per_batch(
    conn: ifxwire.Connection, table: str, server: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    _insert(conn, [(i, b"x" * 10, ifxwire.Text("y")) for i in range(20)])
    sends: list[int] = []
    real_send = conn._send
    monkeypatch.setattr(conn, "_send", lambda data: (sends.append(len(data)), real_send(data)))
    before = server.request_groups
    assert len(_select(conn)) == 20
    # PREPARE, OPEN+NFETCH, then the 40 FETCHBLOB groups pipelined in one write: 42 request
    # groups, 3 round trips.
    assert server.request_groups - before == 42
    assert len(sends) == 3
    assert sends[-1] == 40 * (2 + 2 + 2 + 56 + 2)


def test_text_in_a_utf8_database(driver: Any, connect_kwargs: dict[str, Any]) -> None:
    kwargs = dict(connect_kwargs, client_locale="en_US.utf8", db_locale="en_US.utf8")
    with driver.connect(**kwargs, autocommit=True) as c:
        cur = c.cursor()
        cur.execute("CREATE DATABASE blob_utf8 WITH LOG")
        cur.execute("DATABASE blob_utf8")
        cur.execute("CREATE TABLE tu (id INTEGER, t TEXT)")
        text = "emoji 😀 and ü " * 1000
        cur.execute("INSERT INTO tu VALUES (?, ?)", (1, ifxwire.Text(text)))
        assert cur.execute("SELECT t FROM tu").fetchone() == (text,)
        # Bytes that are not UTF-8 cannot be TEXT in a UTF-8 database: refused, not mangled.
        with pytest.raises(ifxwire.DatabaseError) as info:
            cur.execute("INSERT INTO tu VALUES (?, ?)", (2, b"\xff\xfe not utf-8"))
        assert info.value.sqlcode == -1260
        assert cur.execute("SELECT COUNT(*) FROM tu").fetchone() == (1,)
        cur.execute("DATABASE sysmaster")
        cur.execute("DROP DATABASE blob_utf8")


def test_user_loader_sees_the_data_not_the_descriptor(
    conn: ifxwire.Connection, table: str
) -> None:
    _insert(conn, [(1, b"abc", ifxwire.Text("def")), (2, None, None)])
    cur = conn.cursor()
    cur.adapters.register_loader("byte", lambda v: ("BYTE", v))
    cur.adapters.register_loader("text", lambda v: ("TEXT", v))
    rows = cur.execute("SELECT id, b, t FROM blobs ORDER BY id").fetchall()
    assert rows == [(1, ("BYTE", b"abc"), ("TEXT", "def")), (2, None, None)]


def test_a_byte_column_refuses_a_string(conn: ifxwire.Connection, table: str) -> None:
    cur = conn.cursor()
    with pytest.raises(ifxwire.DatabaseError) as info:
        cur.execute("INSERT INTO blobs VALUES (?, ?, ?)", (1, "not bytes", None))
    assert info.value.sqlcode == -1260
    conn.rollback()
    _insert(conn, [(1, b"ok", None)])
    assert _select(conn) == [(1, b"ok", None)]


def test_asyncio_roundtrip(connect_kwargs: dict[str, Any], dbname: str) -> None:
    async def main() -> list[tuple[Any, ...]]:
        conn = await ifxwire.aio.connect(**connect_kwargs, database=dbname, autocommit=True)
        try:
            cur = conn.cursor()
            await cur.execute("CREATE TABLE ablobs (id INTEGER, b BYTE, t TEXT)")
            await cur.executemany(
                "INSERT INTO ablobs VALUES (?, ?, ?)",
                [(i, bytes([i]) * 5000, ifxwire.Text("é" * i)) for i in range(1, 120)],
            )
            await cur.execute("SELECT id, b, t FROM ablobs ORDER BY id")
            rows = await cur.fetchall()
            await cur.execute("DROP TABLE ablobs")
            return rows
        finally:
            await conn.close()

    rows = asyncio.run(main())
    assert rows == [(i, bytes([i]) * 5000, "é" * i) for i in range(1, 120)]


def test_long_row_ids_make_68_byte_descriptors(driver: Any) -> None:
    # A server answering SQ_PROTOCOLS as a real 15.0 does (byte 8 = 0xff): bit 70 is
    # negotiated, so descriptors in tuples, binds and FETCHBLOB are 68 bytes (size at 32).
    mask = bytes.fromhex("bdbe9ffe7fb7ffefff")
    with Server(port=0, data=":memory:", protocols=mask) as srv, driver.connect(
        host=srv.host, port=srv.port, user="informix", password="in4mix", autocommit=True
    ) as c:
        assert c._layout.long_rowid and c._blob_width == 68
        cur = c.cursor()
        cur.execute("CREATE DATABASE lr WITH LOG")
        cur.execute("DATABASE lr")
        cur.execute("CREATE TABLE t (a INTEGER, b BYTE, c INTEGER, t TEXT, d VARCHAR(10))")
        cur.execute("INSERT INTO t VALUES (?, ?, ?, ?, ?)", (1, BIG, 2, ifxwire.Text("tx"), "v"))
        cur.execute("INSERT INTO t VALUES (?, ?, ?, ?, ?)", (3, None, 4, None, None))
        rows = cur.execute("SELECT * FROM t ORDER BY a").fetchall()
        assert rows == [(1, BIG, 2, "tx", "v"), (3, None, 4, None, None)]
        rows = cur.execute("SELECT a, b, c FROM t ORDER BY a").fetchall()
        assert rows == [(1, BIG, 2), (3, None, 4)]


# ------------------------------------------------------------------------ server, raw messages


@pytest.fixture()
def raw(server: Any, request: pytest.FixtureRequest) -> Iterator[RawClient]:
    c = RawClient(server.host, server.port)
    assert c.command(f"create database {request.node.name[5:30]} with log").errors == []
    assert c.command("create table r (id integer, b byte)").errors == []
    yield c
    c.close()


def _prepare(c: RawClient, sql: str, nparams: int) -> int:
    w = Writer()
    m.put_prepare(w, sql.encode(), nparams, c.layout)
    return c.send(w).describes[0].stmt_id


def _byte_bind(w: Writer, size: int) -> None:
    w.u16(Msg.BIND).u16(2).i16(2).i16(0).i16(0x0A00).i32(7)
    w.i16(11).i16(0).i16(0).padded(b.bind_descriptor(size))


def test_server_refuses_a_wrong_blob_count(raw: RawClient) -> None:
    sid = _prepare(raw, "insert into r values (?, ?)", 2)
    w = Writer()
    m.put_id(w, sid)
    _byte_bind(w, 3)
    m.put_bbind(w, [b"abc", b"extra"])  # two blobs for one BYTE parameter
    w.u16(Msg.EXECUTE)
    assert [e.sqlcode for e in raw.send(w).errors] == [-254]
    # Without any SQ_BBIND the BYTE parameter has no data: refused, nothing inserted.
    w = Writer()
    m.put_id(w, sid)
    _byte_bind(w, 3)
    w.u16(Msg.EXECUTE)
    assert [e.sqlcode for e in raw.send(w).errors] == [-254]
    # The session is fine: the proper stream inserts the row.
    w = Writer()
    m.put_id(w, sid)
    _byte_bind(w, 3)
    m.put_bbind(w, [b"abc"])
    w.u16(Msg.EXECUTE)
    reply = raw.send(w)
    assert reply.errors == [] and [d.rows for d in reply.dones] == [1]


def test_server_refuses_a_stale_descriptor(raw: RawClient) -> None:
    raw.command("insert into r values (1, NULL)")
    sid = _prepare(raw, "select id from r", 0)
    w = Writer()
    m.put_fetchblob(w, sid, b.server_descriptor(10, 999_999))
    raw.sock.sendall(w.getvalue())  # put_fetchblob ends the group itself
    reply = raw.read_reply()
    assert [e.sqlcode for e in reply.errors] == [-400]


def test_blob_store_forgets_the_oldest_values_beyond_its_budget() -> None:
    store = BlobStore(56, keep_bytes=100)
    cols = [ColumnDesc("b", 11, 56)]
    to_descriptors = store.row_mapper(1, cols, "iso-8859-1")
    assert to_descriptors is not None
    first = to_descriptors([b"a" * 60])[0][0]
    second = to_descriptors([b"b" * 60])[0][0]
    assert store.fetch(1, second) == b"b" * 60
    assert store.kept == 60
    with pytest.raises(EngineError) as info:
        store.fetch(1, first)
    assert info.value.sqlcode == -400
    with pytest.raises(EngineError):
        store.fetch(2, second)  # another statement's descriptor
    store.retire(1)
    assert store.kept == 0


def test_asyncio_with_long_row_ids() -> None:
    # The asyncio connection negotiates the same way as the sync one (it once kept the 56-byte
    # descriptor width after bit 70 was negotiated, and the server refused its BYTE binds).
    mask = bytes.fromhex("bdbe9ffe7fb7ffefff")

    async def main(port: int) -> list[tuple[Any, ...]]:
        conn = await ifxwire.aio.connect(
            host="127.0.0.1", port=port, user="informix", password="in4mix", autocommit=True
        )
        try:
            cur = conn.cursor()
            await cur.execute("CREATE DATABASE alr WITH LOG")
            await cur.execute("DATABASE alr")
            await cur.execute("CREATE TABLE t (a INTEGER, b BYTE, t TEXT)")
            row = (1, b"xyz" * 999, ifxwire.Text("t"))
            await cur.execute("INSERT INTO t VALUES (?, ?, ?)", row)
            await cur.execute("SELECT a, b, t FROM t")
            return await cur.fetchall()
        finally:
            await conn.close()

    with Server(port=0, data=":memory:", protocols=mask) as srv:
        assert asyncio.run(main(srv.port)) == [(1, b"xyz" * 999, "t")]
