"""Smart large objects across clients: ifxwire, informix-driver and IBM JDBC, both ways.

Every client writes BLOB and CLOB values of the sizes in ``SIZES`` (0, 1, around 4 KiB and
64 KiB, and 10 MiB) and a NULL row; the others read them back exactly. The values come from
``_blob``/``_text`` here and ``LobChecks.blob``/``text`` in LobChecks.java, built the same way.

* ifxwire writes ``lob_x`` (bytes and str bound to BLOB/CLOB parameters), informix-driver
  writes ``lob_xd`` (``write_blob_column``: FILETOBLOB/FILETOCLOB over SQ_FILE);
* JDBC's ``lob_read_sizes`` reads both tables, ``lob_write_sizes`` writes ``lob_w`` (setBytes,
  setString, and the streams for 65537), which ifxwire and informix-driver read
  (``read_blob_column``: LOTOFILE over SQ_FILE);
* one run in a UTF-8 database (DB_LOCALE/CLIENT_LOCALE en_US.utf8) carries non-ASCII CLOB
  text; the 8859-1 runs use ASCII (LobChecks.java says why).

informix-driver's fast path is checked against the server too (``fast_path_call``).
"""

from __future__ import annotations

from typing import Any

import informix_db
import pytest

import ifxwire
from conftest import JDBC_VERSIONS, IfxCheckRunner
from conftest import Target as JdbcTarget

pytestmark = pytest.mark.interop

SIZES = (0, 1, 4095, 4096, 4097, 65535, 65536, 65537, 10 * 1024 * 1024)
ASCII = "abcdefghijklmnopqrstuvwxyz0123456789 .,;ABCDEFGHIJKLMNOPQRSTUVWXYZ"
UTF8_EXTRA = "äöüßÄÖÜéèçñ€日本語✓Ωж"
UTF8 = "en_US.utf8"
LOB_CHECKS = ("lob_read_sizes", "lob_write_sizes")


def _blob(n: int) -> bytes:
    return bytes((i * 31 + 7) & 0xFF for i in range(n)) if n < 70000 else _big_blob(n)


def _big_blob(n: int) -> bytes:
    period = bytes((i * 31 + 7) & 0xFF for i in range(256))  # (i*31+7) mod 256 repeats
    return (period * (n // 256 + 1))[:n]


def _text(n: int, alphabet: str) -> str:
    k = len(alphabet)
    period = "".join(alphabet[(i * 7 + 3) % k] for i in range(k))
    return (period * (n // k + 1))[:n] if k else ""


def _connect(t: JdbcTarget, database: str | None = None, utf8: bool = False) -> Any:
    locale = {"client_locale": UTF8, "db_locale": UTF8} if utf8 else {}
    return ifxwire.connect(
        host=t.host,
        port=t.port,
        user=t.user,
        password=t.password,
        server=t.server_name,
        database=database,
        autocommit=True,
        **locale,
    )


def _peer(t: JdbcTarget, database: str, utf8: bool = False) -> Any:
    return informix_db.connect(
        t.host,
        t.port,
        user=t.user,
        password=t.password,
        database=database,
        server=t.server_name,
        autocommit=True,
        client_locale=UTF8 if utf8 else "en_US.8859-1",
        read_timeout=60,
    )


def _prepare(t: JdbcTarget, db: str, utf8: bool) -> None:
    """The database and its three tables; ifxwire fills lob_x, informix-driver lob_xd."""
    alphabet = ASCII + UTF8_EXTRA if utf8 else ASCII
    encoding = "utf-8" if utf8 else "iso-8859-1"
    with _connect(t, utf8=utf8) as c:
        c.cursor().execute(f"CREATE DATABASE {db} WITH LOG")
    with _connect(t, db, utf8) as c:
        cur = c.cursor()
        for table in ("lob_x", "lob_xd", "lob_w"):
            cur.execute(f"CREATE TABLE {table} (n INTEGER, b BLOB, c CLOB)")
        for n in SIZES:
            cur.execute("INSERT INTO lob_x VALUES (?, ?, ?)", (n, _blob(n), _text(n, alphabet)))
        cur.execute("INSERT INTO lob_x VALUES (-1, NULL, NULL)")
    peer = _peer(t, db, utf8)
    try:
        pc = peer.cursor()
        for n in SIZES:
            pc.write_blob_column("INSERT INTO lob_xd VALUES (?, BLOB_PLACEHOLDER, NULL)",
                                 _blob(n), (n,))
            pc.write_blob_column("UPDATE lob_xd SET c = BLOB_PLACEHOLDER WHERE n = ?",
                                 _text(n, alphabet).encode(encoding), (n,), clob=True)
        pc.execute("INSERT INTO lob_xd VALUES (-1, NULL, NULL)")
    finally:
        peer.close()


# (JDBC version, UTF-8 database)
VARIANTS = [(v, False) for v in JDBC_VERSIONS] + [(JDBC_VERSIONS[0], True)]
IDS = [f"{v}-{'utf8' if u else 'default'}" for v, u in VARIANTS]
_runs: dict[tuple[str, bool], Any] = {}


@pytest.fixture()
def lob_run(
    request: pytest.FixtureRequest, ifxcheck: IfxCheckRunner, interop_target: JdbcTarget
) -> Any:
    version, utf8 = request.param
    key = (version, utf8)
    if key not in _runs:
        db = "lobx_" + "".join(ch if ch.isalnum() else "_" for ch in version) + (
            "_u" if utf8 else "")
        _prepare(interop_target, db, utf8)
        props = f"DB_LOCALE={UTF8};CLIENT_LOCALE={UTF8}" if utf8 else None
        run = ifxcheck(version, "default", list(LOB_CHECKS), database=db, create=False,
                       label=f"lob-{version}-{'utf8' if utf8 else 'default'}", props=props)
        _runs[key] = (run, db, utf8)
    return _runs[key]


@pytest.mark.parametrize("lob_run", VARIANTS, ids=IDS, indirect=True)
def test_jdbc_reads_what_ifxwire_and_informix_driver_wrote(lob_run: Any) -> None:
    run, _, _ = lob_run
    result = run.results.get("lob_read_sizes")
    assert result is not None, run.diagnostics()
    assert result.passed, result.reason


@pytest.mark.parametrize("lob_run", VARIANTS, ids=IDS, indirect=True)
def test_ifxwire_reads_what_jdbc_wrote(lob_run: Any, interop_target: JdbcTarget) -> None:
    run, db, utf8 = lob_run
    result = run.results.get("lob_write_sizes")
    assert result is not None, run.diagnostics()
    assert result.passed, result.reason
    _ifxwire_reads(interop_target, db, "lob_w", utf8)


@pytest.mark.parametrize("lob_run", VARIANTS[-1:], ids=IDS[-1:], indirect=True)
def test_informix_driver_reads_what_jdbc_and_ifxwire_wrote(
    lob_run: Any, interop_target: JdbcTarget
) -> None:
    _, db, utf8 = lob_run
    alphabet = ASCII + UTF8_EXTRA
    peer = _peer(interop_target, db, utf8)
    try:
        cur = peer.cursor()
        for table in ("lob_w", "lob_x"):
            for n in SIZES:
                got = cur.read_blob_column(f"SELECT b FROM {table} WHERE n = ?", (n,))
                # A zero-length object may read back as None (peer report 4, LOBs).
                assert (got or b"") == _blob(n), (table, n)
                text = cur.read_blob_column(f"SELECT c FROM {table} WHERE n = ?", (n,))
                assert (text or b"").decode("utf-8") == _text(n, alphabet), (table, n)
            cur.execute(f"SELECT b, c FROM {table} WHERE n = -1")
            assert cur.fetchall() == [(None, None)]
    finally:
        peer.close()


@pytest.mark.parametrize("lob_run", VARIANTS[:1], ids=IDS[:1], indirect=True)
def test_ifxwire_reads_what_informix_driver_wrote(
    lob_run: Any, interop_target: JdbcTarget
) -> None:
    _, db, utf8 = lob_run
    _ifxwire_reads(interop_target, db, "lob_xd", utf8)


def _ifxwire_reads(t: JdbcTarget, db: str, table: str, utf8: bool) -> None:
    alphabet = ASCII + UTF8_EXTRA if utf8 else ASCII
    with _connect(t, db, utf8) as c:
        rows = c.execute(f"SELECT n, b, c FROM {table} ORDER BY n").fetchall()
        assert [r[0] for r in rows] == [-1, *SIZES]
        assert rows[0][1:] == (None, None)
        for n, blob, clob in rows[1:]:
            assert isinstance(blob, ifxwire.Blob) and isinstance(clob, ifxwire.Clob)
            with blob:
                assert blob.read() == _blob(n), (table, n)
            with clob:
                assert clob.read() == _text(n, alphabet), (table, n)


def test_informix_driver_fast_path(interop_target: JdbcTarget) -> None:
    """fast_path_call: ifx_lo_open through SQL gives a descriptor, ifx_lo_close by fast path
    closes it ([0]), the handle is cached, and a bad descriptor is -9810 (what the peer
    recorded on real servers)."""
    db = "lobfp"
    with _connect(interop_target) as c:
        c.cursor().execute(f"CREATE DATABASE {db} WITH LOG")
    with _connect(interop_target, db) as c:
        c.execute("CREATE TABLE fp (id INTEGER, b BLOB)")
        c.execute("INSERT INTO fp VALUES (1, ?)", (b"fast path",))
    peer = _peer(interop_target, db)
    try:
        cur = peer.cursor()
        cur.execute("SELECT ifx_lo_open(b, 4) FROM fp WHERE id = 1")
        fd = cur.fetchone()[0]
        assert fd > 0
        assert peer.fast_path_call("function informix.ifx_lo_close(integer)", fd) == [0]
        with pytest.raises(informix_db.DatabaseError) as err:
            peer.fast_path_call("function informix.ifx_lo_close(integer)", fd)
        assert getattr(err.value, "sqlcode", None) == -9810
        cur.execute("SELECT 1 FROM fp")  # the connection is still usable
        assert cur.fetchall() == [(1,)]
    finally:
        peer.close()
