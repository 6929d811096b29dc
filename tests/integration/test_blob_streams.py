"""BYTE/TEXT in constant memory: file-like parameters, readers, large values on the server."""

from __future__ import annotations

import io
import sqlite3
import tempfile
from collections.abc import Iterator
from typing import Any

import pytest

import ifxwire
from ifxwire.server.engine.features.lobs import lobstore

pytestmark = pytest.mark.both_drivers

MIB = 1024 * 1024


def pattern(n: int) -> bytes:
    return (bytes(range(256)) * (n // 256 + 1))[:n]


@pytest.fixture()
def ac(driver: Any, connect_kwargs: dict[str, Any], dbname: str) -> Iterator[ifxwire.Connection]:
    c = driver.connect(**connect_kwargs, database=dbname, autocommit=True)
    try:
        c.execute("DROP TABLE IF EXISTS bs")
        c.execute("CREATE TABLE bs (id INTEGER, b BYTE, t TEXT)")
        yield c
    finally:
        c.close()


def stored(server: Any, db: str) -> list[tuple[str, str]]:
    with sqlite3.connect(f"file:{server.engine.path(db)}?mode=ro", uri=True) as c:
        return c.execute("SELECT typeof(b), typeof(t) FROM bs ORDER BY id").fetchall()


def test_file_like_parameters_and_readers(driver: Any, ac: ifxwire.Connection, server: Any,
                                          dbname: str) -> None:
    big = pattern(3 * MIB + 7)  # over the 1 MiB the server keeps inline
    with tempfile.TemporaryFile() as f:
        f.write(big)
        f.seek(0)
        ac.execute("INSERT INTO bs VALUES (1, ?, ?)", (f, io.StringIO("ab" * MIB)))

    class NotSeekable(io.RawIOBase):  # spooled to a temporary file by the driver
        def __init__(self) -> None:
            self.data = io.BytesIO(b"xyz" * 1000)

        def readable(self) -> bool:
            return True

        def readinto(self, b: Any) -> int:
            return self.data.readinto(b)

    ac.execute("INSERT INTO bs VALUES (2, ?, ?)", (NotSeekable(), ifxwire.Text("small")))
    ac.execute("INSERT INTO bs VALUES (3, NULL, NULL)")
    assert stored(server, dbname) == [("integer", "blob"), ("blob", "text"), ("null", "null")]
    cur = ac.cursor()
    cur.blob_stream = True
    rows = cur.execute("SELECT id, b, t FROM bs ORDER BY id").fetchall()
    b1, t1 = rows[0][1:]
    assert isinstance(b1, driver.BlobReader) and b1.size == len(big)
    assert b1.read(10) == big[:10] and b1.read() == big[10:]
    assert t1.read(5) == "ababa" and t1.read() == "b" + "ab" * (MIB - 3)
    assert rows[1][1].read() == b"xyz" * 1000 and rows[1][2].read() == "small"
    assert rows[2][1:] == (None, None)
    # Without blob_stream the values come whole, large ones included.
    assert ac.execute("SELECT b FROM bs WHERE id = 1").fetchone()[0] == big


def test_a_reader_left_half_way_is_dropped_loudly(ac: ifxwire.Connection) -> None:
    ac.execute("INSERT INTO bs VALUES (1, ?, NULL)", (pattern(2 * MIB),))
    cur = ac.cursor()
    cur.blob_stream = True
    reader = cur.execute("SELECT b FROM bs").fetchone()[0]
    assert reader.read(100) == pattern(100)
    assert ac.execute("SELECT COUNT(*) FROM bs").fetchone()[0] == 1  # the wire is in step
    with pytest.raises(ifxwire.InterfaceError, match="dropped"):
        reader.read(10)


def test_a_reader_closed_part_way_drains_and_refuses_reads(ac: ifxwire.Connection) -> None:
    """Closing a reader part way through its value reads the rest off the wire (nothing to
    report: dropped on purpose) and a read afterwards is the closed file's ValueError, on
    both drivers alike (``BlobReader.close_steps``, the check in ``readinto_steps``)."""
    ac.execute("INSERT INTO bs VALUES (1, ?, NULL)", (pattern(2 * MIB),))
    cur = ac.cursor()
    cur.blob_stream = True
    reader = cur.execute("SELECT b FROM bs").fetchone()[0]
    assert reader.read(100) == pattern(100)
    reader.close()
    assert reader.closed
    assert ac.execute("SELECT COUNT(*) FROM bs").fetchone()[0] == 1  # the wire is in step
    with pytest.raises(ValueError, match="closed"):
        reader.read(10)
    with pytest.raises(ValueError, match="closed"):
        reader.readinto(bytearray(10))


def test_large_values_are_freed_with_their_rows(ac: ifxwire.Connection, server: Any,
                                                dbname: str) -> None:
    def objects() -> int:
        with sqlite3.connect(f"file:{server.engine.path(dbname)}?mode=ro", uri=True) as c:
            return lobstore.LoStore(c, "00").counts()[0]

    before = objects()
    ac.execute("INSERT INTO bs VALUES (1, ?, ?)", (pattern(2 * MIB), ifxwire.Text("é" * MIB * 2)))
    assert objects() == before + 2
    ac.execute("INSERT INTO bs SELECT 2, b, t FROM bs")  # the copy shares the objects
    assert objects() == before + 2
    ac.execute("DELETE FROM bs WHERE id = 1")
    assert ac.execute("SELECT t FROM bs").fetchone()[0] == "é" * MIB * 2
    ac.execute("UPDATE bs SET b = NULL, t = NULL")
    assert objects() == before


def test_large_text_must_decode_in_the_database_code_set(driver: Any,
    connect_kwargs: dict[str, Any], server: Any
) -> None:
    utf8 = {"client_locale": "en_US.utf8", "db_locale": "en_US.utf8"}
    with driver.connect(**connect_kwargs, autocommit=True, **utf8) as c:
        c.execute(f"CREATE DATABASE bs_utf8{driver.suffix} WITH LOG")
    with driver.connect(
        **connect_kwargs, database=f"bs_utf8{driver.suffix}", autocommit=True, **utf8
    ) as c:
        c.execute("CREATE TABLE bs (id INTEGER, b BYTE, t TEXT)")
        bad = io.BytesIO("ü".encode() * MIB + b"\xff")  # valid for 2 MiB, then not
        with pytest.raises(ifxwire.DatabaseError) as err:
            c.execute("INSERT INTO bs VALUES (1, NULL, ?)", (bad,))
        assert err.value.sqlcode == -1260
        assert c.execute("SELECT COUNT(*) FROM bs").fetchone()[0] == 0
    path = server.engine.path("bs_utf8" + driver.suffix)
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        assert lobstore.LoStore(db, "00").counts() == (0, 0)


def test_a_failing_source_gives_a_data_error_and_a_clean_break(driver: Any,
    connect_kwargs: dict[str, Any], dbname: str
) -> None:
    class Boom(io.RawIOBase):
        def readable(self) -> bool:
            return True

        def seekable(self) -> bool:
            return True

        def seek(self, pos: int, whence: int = 0) -> int:
            return 10 * MIB if whence == io.SEEK_END else 0

        def tell(self) -> int:
            return 0

        def readinto(self, b: Any) -> int:
            raise OSError("gone")

    with driver.connect(**connect_kwargs, database=dbname, autocommit=True) as c:
        c.execute("CREATE TABLE IF NOT EXISTS bs2 (b BYTE)")
        with pytest.raises(ifxwire.DataError):
            c.execute("INSERT INTO bs2 VALUES (?)", (Boom(),))
        # The server waits for the rest of a BYTE whose size was announced: the connection is
        # given up cleanly rather than left out of step.
        assert c.broken
    with driver.connect(**connect_kwargs, database=dbname, autocommit=True) as c:
        assert c.execute("SELECT COUNT(*) FROM bs2").fetchone()[0] == 0


def test_a_streamed_statement_binds_with_the_cursors_adapters(ac: Any) -> None:
    """A statement that streams a BYTE value binds its other values with the cursor's
    dumpers too (the asyncio driver bound them with none: 'cannot bind a Point')."""

    class Point:
        def __init__(self, x: int) -> None:
            self.x = x

    cur = ac.cursor()
    cur.adapters.register_dumper(Point, lambda p: p.x)
    cur.execute("INSERT INTO bs VALUES (?, ?, NULL)", (Point(7), io.BytesIO(b"abc" * 500)))
    cur.execute("SELECT id, b FROM bs WHERE id = 7")
    assert cur.fetchall() == [(7, b"abc" * 500)]
