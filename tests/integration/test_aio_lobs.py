"""Large objects through ``ifxwire.aio``: AsyncBlob/AsyncClob, fast path, BYTE/TEXT streams.

Same server paths as test_smart_lobs.py / test_blob_streams.py; here what is checked is that
the asyncio driver sends and reads the same messages with awaits, and stays in step after
errors, cancellations and partly read values.
"""

from __future__ import annotations

import asyncio
import io
import sqlite3
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import pytest

import ifxwire
import ifxwire.aio as aio
from ifxwire.server.engine.features.lobs import lobstore

T = TypeVar("T")
CHUNK = lobstore.CHUNK


def run(coro_fn: Callable[[], Awaitable[T]]) -> T:
    async def main() -> T:
        return await asyncio.wait_for(coro_fn(), 60)

    return asyncio.run(main())


def data(n: int, seed: int = 3) -> bytes:
    return bytes((i * 17 + seed) & 0xFF for i in range(n))


def counts(server: Any, db: str) -> tuple[int, int]:
    with sqlite3.connect(f"file:{server.engine.path(db)}?mode=ro", uri=True) as c:
        return lobstore.LoStore(c, "00").counts()


@pytest.fixture()
def kw(connect_kwargs: dict[str, Any], dbname: str) -> dict[str, Any]:
    return {**connect_kwargs, "database": dbname, "autocommit": True}


@pytest.fixture(scope="module", autouse=True)
def tables(connect_kwargs: dict[str, Any], dbname: str) -> None:
    with ifxwire.connect(**connect_kwargs, database=dbname, autocommit=True) as c:
        c.execute("CREATE TABLE lobs (id INTEGER, b BLOB, c CLOB)")
        c.execute("CREATE TABLE bt (id INTEGER, b BYTE, t TEXT)")


@pytest.mark.parametrize("size", [0, 1, 4095, 4096, 4097, 65535, 65536, 65537, 3 * 1024 * 1024])
def test_blob_sizes_round_trip(kw: dict[str, Any], size: int) -> None:
    payload = data(size, size & 0xFF)

    async def go() -> None:
        async with await aio.connect(**kw) as conn:
            await conn.execute("DELETE FROM lobs WHERE id = ?", (size,))
            await conn.execute("INSERT INTO lobs VALUES (?, ?, ?)", (size, payload, "é" * 3))
            cur = await conn.execute("SELECT b, c FROM lobs WHERE id = ?", (size,))
            b, c = await cur.fetchone()
            assert isinstance(b, aio.AsyncBlob) and isinstance(c, aio.AsyncClob)
            async with b:
                assert await b.size() == size
                assert await b.read() == payload
            assert await c.read() == "é" * 3
            await c.close()

    run(go)


def test_file_api_and_streams(kw: dict[str, Any], tmp_path: Any) -> None:
    async def go() -> None:
        async with await aio.connect(**kw) as conn:
            await conn.execute("DELETE FROM lobs WHERE id = 100")
            src = io.BytesIO(data(2 * 1024 * 1024 + 5))
            await conn.execute("INSERT INTO lobs VALUES (100, ?, ?)", (src, io.StringIO("x" * 10)))
            cur = await conn.execute("SELECT b, c FROM lobs WHERE id = 100")
            b, c = await cur.fetchone()
            pieces = [p async for p in b.chunks(1024 * 1024)]
            assert b"".join(pieces) == data(2 * 1024 * 1024 + 5)
            assert await b.seek(-5, io.SEEK_END) == 2 * 1024 * 1024
            assert await b.read() == data(2 * 1024 * 1024 + 5)[-5:]
            assert await b.seek(10) == 10 and b.tell() == 10
            buf = bytearray(6)
            assert await b.readinto(buf) == 6 and bytes(buf) == data(16)[10:]
            await b.seek(0)
            assert await b.write(b"HELLO") == 5
            assert await b.truncate(7) == 7
            await b.seek(0)
            assert await b.read() == b"HELLO" + data(7)[5:7]
            out = io.BytesIO()
            await b.seek(0)
            assert await b.copy_to(out) == 7
            await b.seek(0)
            assert await b.write_from(io.BytesIO(b"abc")) == 3
            await b.close()
            with pytest.raises(ifxwire.InterfaceError):
                await b.read()
            assert await c.read(4) == "xxxx" and await c.read() == "x" * 6
            await c.close()
            cur = await conn.execute("SELECT b FROM lobs WHERE id = 100")
            (b2,) = await cur.fetchone()
            assert await b2.read() == b"abcLO" + data(7)[5:7]
            # A locator binds as itself: the same object in another row.
            await conn.execute("INSERT INTO lobs VALUES (101, ?, NULL)", (b2,))
            cur = await conn.execute("SELECT b FROM lobs WHERE id = 101")
            (b3,) = await cur.fetchone()
            assert b3 == b2
            await conn.execute("DELETE FROM lobs WHERE id = 101")

    run(go)


def test_async_file_like_source_and_materialize(kw: dict[str, Any]) -> None:
    class AsyncSource:
        def __init__(self, payload: bytes) -> None:
            self.f = io.BytesIO(payload)

        async def read(self, n: int = -1) -> bytes:
            await asyncio.sleep(0)
            return self.f.read(n)

    async def go() -> None:
        async with await aio.connect(**kw, lob_materialize_limit=1000) as conn:
            await conn.execute("DELETE FROM lobs WHERE id IN (200, 201)")
            await conn.execute("INSERT INTO lobs VALUES (200, ?, ?)",
                               (AsyncSource(data(300_000)), "short"))
            await conn.execute("INSERT INTO lobs VALUES (201, ?, NULL)", (b"tiny",))
            cur = await conn.execute("SELECT id, b, c FROM lobs WHERE id IN (200, 201) "
                                     "ORDER BY id")
            rows = await cur.fetchall()
            assert isinstance(rows[0][1], aio.AsyncBlob) and rows[0][2] == "short"
            assert rows[1][1:] == (b"tiny", None)
            assert await rows[0][1].read() == data(300_000)
            cur = conn.cursor()
            cur.lob_materialize_limit = 0
            await cur.execute("SELECT b FROM lobs WHERE id = 201")
            (b,) = await cur.fetchone()
            assert isinstance(b, aio.AsyncBlob)
            await b.close()

    run(go)


def test_call_function_and_errors(kw: dict[str, Any]) -> None:
    async def go() -> None:
        async with await aio.connect(**kw) as conn:
            with pytest.raises(ifxwire.DatabaseError) as info:
                await conn.call_function("function informix.ifx_lo_close(integer)", 12345)
            assert info.value.sqlcode == -9810
            # Still in step: a fast-path create, write through the file API, a SELECT.
            (loc, fd) = await conn.call_function(
                "function informix.ifx_lo_create( ifx_lo_spec,integer,blob)",
                ifxwire.client.lob._DEFAULT_SPEC, 8, ifxwire.client.lob._ZERO_LOCATOR)
            assert len(loc) == 72 and isinstance(fd, int)
            assert await conn.call_function("function informix.ifx_lo_close(integer)", fd) == [0]
            b = aio.AsyncBlob(conn, loc)
            await b.open("r+")
            await b.write(b"xyz")
            await b.seek(0)
            assert await b.read() == b"xyz"
            with pytest.raises(ifxwire.DataError):
                await b.seek(-1)
            with pytest.raises(ifxwire.DataError):
                await b.truncate(-5)
            await b.close()
            ro = aio.AsyncBlob(conn, loc)
            await ro.open("r")
            ro._writable = True  # pretend: the server must refuse the write on a read-only fd
            with pytest.raises(ifxwire.DatabaseError) as info:
                await ro.write(b"no")
            assert (info.value.sqlcode, info.value.isamcode) == (-9810, -12052)
            await ro.close()
            cur = await conn.execute("SELECT COUNT(*) FROM systables WHERE tabid = 1")
            assert await cur.fetchone() == (1,)

    run(go)


def test_failing_sources_leave_nothing(kw: dict[str, Any], server: Any, dbname: str) -> None:
    class Boom(io.RawIOBase):
        def __init__(self) -> None:
            self.n = 0

        def readable(self) -> bool:
            return True

        def readinto(self, b: Any) -> int:
            self.n += 1
            if self.n > 2:
                raise OSError("disk gone")
            b[: len(b)] = bytes(len(b))
            return len(b)

    async def go() -> None:
        async with await aio.connect(**kw) as conn:
            await conn.execute("DELETE FROM lobs WHERE id = 300")
            before = counts(server, dbname)
            with pytest.raises(ifxwire.DataError):
                await conn.execute("INSERT INTO lobs VALUES (300, ?, NULL)", (Boom(),))
            cur = await conn.execute("SELECT COUNT(*) FROM lobs WHERE id = 300")
            assert await cur.fetchone() == (0,)
            assert counts(server, dbname) == before

    run(go)


def test_byte_text_streamed_both_ways(kw: dict[str, Any]) -> None:
    payload = data(3 * 1024 * 1024 + 11)

    async def go() -> None:
        async with await aio.connect(**kw) as conn:
            await conn.execute("DELETE FROM bt")
            await conn.execute("INSERT INTO bt VALUES (1, ?, ?)",
                               (io.BytesIO(payload), io.StringIO("ü" * 5000)))
            await conn.execute("INSERT INTO bt VALUES (2, NULL, NULL)")
            conn.blob_stream = True
            cur = await conn.execute("SELECT id, b, t FROM bt ORDER BY id")
            rows = await cur.fetchall()
            r, t = rows[0][1], rows[0][2]
            assert isinstance(r, aio.AsyncBlobReader) and len(r) == len(payload)
            assert rows[1][1:] == (None, None)
            got = bytearray()
            async for piece in r:
                got += piece
            assert got == payload
            assert await t.read(3) == "üüü"
            assert await t.read() == "ü" * 4997
            # A reader left part way is drained by the next request; reading on raises.
            cur = await conn.execute("SELECT b FROM bt WHERE id = 1")
            (r2,) = await cur.fetchone()
            assert len(await r2.read(1000)) == 1000
            cur2 = await conn.execute("SELECT COUNT(*) FROM bt")
            assert await cur2.fetchone() == (2,)
            with pytest.raises(ifxwire.InterfaceError):
                await r2.read(10)
            conn.blob_stream = False
            cur = await conn.execute("SELECT b FROM bt WHERE id = 1")
            assert (await cur.fetchone())[0] == payload

    run(go)


def test_cancelled_read_breaks_only_that_connection(kw: dict[str, Any]) -> None:
    async def go() -> None:
        async with await aio.connect(**kw) as conn:
            await conn.execute("DELETE FROM lobs WHERE id = 400")
            await conn.execute("INSERT INTO lobs VALUES (400, ?, NULL)", (data(8 * 1024 * 1024),))
            cur = await conn.execute("SELECT b FROM lobs WHERE id = 400")
            (b,) = await cur.fetchone()
            # Cancel once the first bytes of the 8 MiB reply have arrived: the read is then
            # certainly in flight (a fixed sleep raced with fast machines).
            first_bytes = asyncio.Event()
            receive = conn._receive

            async def receive_and_tell(view: memoryview) -> int:
                n = await receive(view)
                first_bytes.set()
                return n

            conn._receive = receive_and_tell  # type: ignore[method-assign]
            task = asyncio.create_task(b.read())
            await first_bytes.wait()
            assert not task.done()
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            if conn.broken:  # the cancel arrived while a reply was pending
                with pytest.raises(ifxwire.InterfaceError):
                    await conn.execute("SELECT 1 FROM systables WHERE tabid = 1")
        async with await aio.connect(**kw) as conn2:
            cur = await conn2.execute("SELECT COUNT(*) FROM lobs WHERE id = 400")
            assert await cur.fetchone() == (1,)

    run(go)


def test_client_files_through_sq_file(kw: dict[str, Any], tmp_path: Any) -> None:
    payload = data(200_000, 9)

    async def go() -> None:
        async with await aio.connect(**kw) as conn:
            await conn.execute("DELETE FROM lobs WHERE id IN (500, 501)")
            await conn.execute("INSERT INTO lobs VALUES (500, ?, NULL)", (payload,))
            out = tmp_path / "aio.bin"
            cur = await conn.execute(
                f"SELECT LOTOFILE(b, '{out}!', 'client') FROM lobs WHERE id = 500")
            assert (await cur.fetchone())[0] == str(out)
            assert out.read_bytes() == payload
            await conn.execute(f"INSERT INTO lobs VALUES (501, FILETOBLOB('{out}', 'client'), "
                               "NULL)")
            cur = await conn.execute("SELECT b FROM lobs WHERE id = 501")
            (b,) = await cur.fetchone()
            assert await b.read() == payload

    run(go)


def test_filetoblob_client_file_streams(kw: dict[str, Any], tmp_path: Any) -> None:
    # FILETOBLOB(..., 'client') asks the client for the file over SQ_FILE: the asyncio driver
    # sends it a message at a time (about 1 MiB each), never queued whole.
    payload = data(6 * 1024 * 1024 + 3, 5)
    src = tmp_path / "big.bin"
    src.write_bytes(payload)

    async def go() -> None:
        async with await aio.connect(**kw) as conn:
            await conn.execute("DELETE FROM lobs WHERE id = 502")
            writes: list[int] = []
            real_write = conn._writer.write

            def spy(buf: Any) -> None:
                writes.append(len(buf))
                real_write(buf)

            conn._writer.write = spy  # type: ignore[method-assign]
            await conn.execute(f"INSERT INTO lobs VALUES (502, FILETOBLOB('{src}', 'client'), "
                               "NULL)")
            conn._writer.write = real_write  # type: ignore[method-assign]
            assert sum(writes) > len(payload)
            assert max(writes) < 2 * 1024 * 1024, writes
            cur = await conn.execute("SELECT b FROM lobs WHERE id = 502")
            (b,) = await cur.fetchone()
            assert await b.read() == payload

    run(go)


def test_autocommit_insert_of_a_large_value_is_one_transaction(
    kw: dict[str, Any], server: Any, dbname: str
) -> None:
    # As in the sync driver: the objects a statement's large values need and the statement
    # are one transaction in autocommit mode, so a failing statement leaves no object behind.
    big = data(2 * 1024 * 1024 + 1, 4)

    async def go() -> None:
        async with await aio.connect(**{**kw, "autocommit": True}) as conn:
            await conn.execute("DROP TABLE IF EXISTS aio_one_txn")
            await conn.execute("CREATE TABLE aio_one_txn (id INTEGER PRIMARY KEY, b BLOB)")
            await conn.execute("INSERT INTO aio_one_txn VALUES (1, ?)", (big,))
            before = counts(server, dbname)
            with pytest.raises(ifxwire.IntegrityError):
                await conn.execute("INSERT INTO aio_one_txn VALUES (1, ?)", (io.BytesIO(big),))
            assert counts(server, dbname) == before
            assert not conn.in_transaction
            await conn.execute("INSERT INTO aio_one_txn VALUES (2, ?)", (big,))
        async with await aio.connect(**kw) as other:
            cur = await other.execute("SELECT id, b FROM aio_one_txn ORDER BY id")
            rows = await cur.fetchall()
            assert [r[0] for r in rows] == [1, 2]
            assert await rows[1][1].read() == big

    run(go)
