"""A file that shrinks or grows while the driver sends it (BYTE/TEXT parameters, whose size
is announced in SQ_BIND before the data; FILETOBLOB(..., 'client') over SQ_FILE).

Each must end in a DataError (SQLSTATE 22000) that names the file and the count, nothing
stored, the connection usable: never a wire out of step or a closed connection. Sync and
asyncio, real server, real files.
"""

from __future__ import annotations

import asyncio
import io
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import ifxwire
import ifxwire.aio as aio

SIZE = 1_500_000  # three 512 KiB blocks: the change happens between two of them
CUT = 600_000


class Changing(io.FileIO):
    """A real file that is cut to ``CUT`` bytes (or grown by ``grow`` bytes) on disk right
    after its first read, as another process writing it would."""

    def __init__(self, path: Path, grow: int = 0) -> None:
        super().__init__(path, "rb")
        self.path = path
        self.grow = grow
        self.reads = 0

    def readinto(self, b: Any) -> int | None:  # type: ignore[override]
        n = super().readinto(b)
        self._after_read()
        return n

    def read(self, size: int = -1) -> bytes:  # FileIO.read does not go through readinto
        data = super().read(size)
        self._after_read()
        return data

    def _after_read(self) -> None:
        self.reads += 1
        if self.reads == 1:
            if self.grow:
                with open(self.path, "ab") as f:
                    f.write(b"\xee" * self.grow)
            else:
                os.truncate(self.path, CUT)


@pytest.fixture()
def data_file(tmp_path: Path) -> Path:
    p = tmp_path / "scan.bin"
    p.write_bytes(bytes(range(256)) * (SIZE // 256) + bytes(SIZE % 256))
    return p


@pytest.fixture()
def kw(connect_kwargs: dict[str, Any], dbname: str) -> Iterator[dict[str, Any]]:
    args = {**connect_kwargs, "database": dbname, "autocommit": True}
    with ifxwire.connect(**args) as c:
        c.execute("DROP TABLE IF EXISTS chg")
        c.execute("CREATE TABLE chg (id INTEGER, b BYTE, t TEXT, lob BLOB)")
    yield args


def _check_refusal(exc: BaseException, path: Path, grew: bool) -> None:
    assert isinstance(exc, ifxwire.DataError), repr(exc)
    assert exc.sqlstate == "22000"
    text = str(exc)
    assert str(path) in text, text
    if grew:
        assert f"more than the {SIZE} bytes announced" in text, text
    else:
        assert f"ended {SIZE - CUT} bytes short of the {SIZE} bytes announced" in text, text


@pytest.mark.parametrize("grow", [0, 5000], ids=["shrinks", "grows"])
@pytest.mark.parametrize("column", ["b", "t"])
def test_sync_byte_text_parameter_from_a_changing_file(
    kw: dict[str, Any], data_file: Path, grow: int, column: str
) -> None:
    with ifxwire.connect(**kw) as conn:
        src = Changing(data_file, grow)
        with pytest.raises(ifxwire.DataError) as err:
            conn.execute(f"INSERT INTO chg (id, {column}) VALUES (1, ?)", (src,))
        _check_refusal(err.value, data_file, bool(grow))
        assert not conn.broken
        assert conn.execute("SELECT COUNT(*) FROM chg").fetchone() == (0,)
        conn.execute("INSERT INTO chg (id, b) VALUES (2, ?)", (b"after",))
        assert conn.execute("SELECT b FROM chg WHERE id = 2").fetchone() == (b"after",)


@pytest.mark.parametrize("grow", [0, 5000], ids=["shrinks", "grows"])
def test_aio_byte_parameter_from_a_changing_file(
    kw: dict[str, Any], data_file: Path, grow: int
) -> None:
    async def run() -> None:
        conn = await aio.connect(**kw)
        try:
            with pytest.raises(ifxwire.DataError) as err:
                await conn.execute("INSERT INTO chg (id, b) VALUES (1, ?)",
                                   (Changing(data_file, grow),))
            _check_refusal(err.value, data_file, bool(grow))
            assert not conn.broken
            cur = await conn.execute("SELECT COUNT(*) FROM chg")
            assert await cur.fetchone() == (0,)
        finally:
            await conn.close()

    asyncio.run(run())


@pytest.fixture()
def shrinking_client_files(monkeypatch: pytest.MonkeyPatch) -> None:
    """The driver opens a FILETOBLOB client file itself: make that file shrink after the
    driver measured it and read its first piece."""
    from ifxwire.client import clientfiles

    def opener(name: str, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        if mode == "rb":
            return Changing(Path(name))
        return open(name, mode, *args, **kwargs)

    monkeypatch.setattr(clientfiles, "open", opener, raising=False)


def _check_client_file(exc: BaseException, path: Path) -> None:
    assert isinstance(exc, ifxwire.DataError), repr(exc)
    assert exc.sqlstate == "22000"
    assert f"client file {str(path)!r} ended " in str(exc), str(exc)
    assert f"short of the {SIZE} bytes announced" in str(exc), str(exc)
    assert getattr(exc.__cause__, "sqlcode", None) == -9815  # the server's refusal


def test_sync_filetoblob_client_file_that_shrinks(
    kw: dict[str, Any], data_file: Path, shrinking_client_files: None
) -> None:
    with ifxwire.connect(**kw) as conn:
        with pytest.raises(ifxwire.DataError) as err:
            conn.execute(f"INSERT INTO chg (id, lob) VALUES (1, FILETOBLOB('{data_file}', "
                         "'client'))")
        _check_client_file(err.value, data_file)
        assert conn.execute("SELECT COUNT(*) FROM chg").fetchone() == (0,)
        data_file.write_bytes(b"whole")
        conn.execute(f"INSERT INTO chg (id, lob) VALUES (2, FILETOBLOB('{data_file}', 'client'))")
        (lob,) = conn.execute("SELECT lob FROM chg WHERE id = 2").fetchone()
        assert lob.read() == b"whole"


def test_aio_filetoblob_client_file_that_shrinks(
    kw: dict[str, Any], data_file: Path, shrinking_client_files: None
) -> None:
    async def run() -> None:
        conn = await aio.connect(**kw)
        try:
            with pytest.raises(ifxwire.DataError) as err:
                await conn.execute(f"INSERT INTO chg (id, lob) VALUES (1, FILETOBLOB("
                                   f"'{data_file}', 'client'))")
            _check_client_file(err.value, data_file)
            cur = await conn.execute("SELECT COUNT(*) FROM chg")
            assert await cur.fetchone() == (0,)
        finally:
            await conn.close()

    asyncio.run(run())


class Failing(io.FileIO):
    """A real file whose reads fail after the driver measured it."""

    def readinto(self, b: Any) -> int | None:  # type: ignore[override]
        raise OSError("disk gone")

    def read(self, size: int = -1) -> bytes:
        raise OSError("disk gone")


@pytest.mark.parametrize("column", ["b", "lob"])
def test_a_failing_read_is_data_error_22000_naming_the_file(
    kw: dict[str, Any], data_file: Path, column: str
) -> None:
    """One helper (client/sources.py) for every "reading the file-like failed" error: BYTE
    (client/blobstream.py; the connection is then closed, the value was half sent) and BLOB
    (client/lob.py; the half-written object is dropped, the connection goes on)."""
    with ifxwire.connect(**kw) as conn:
        with pytest.raises(ifxwire.DataError) as err:
            conn.execute(f"INSERT INTO chg (id, {column}) VALUES (1, ?)", (Failing(data_file),))
        assert err.value.sqlstate == "22000"
        assert f"reading file {str(data_file)!r} failed: OSError: disk gone" in str(err.value)
        assert isinstance(err.value.__cause__, OSError)
    with ifxwire.connect(**kw) as conn:
        assert conn.execute("SELECT COUNT(*) FROM chg").fetchone() == (0,)
