"""The syscdcv1 catalogue (syscdcerrcodes, syscdcrectypes), cdc_errortext and cdc_recboundary,
against the real embedded server over sockets (docs/CDC_SERVER.md "The API")."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from _cdc_support import create_logged_databases

import ifxwire
from ifxwire import cdc
from ifxwire.client import fastpath
from ifxwire.protocol import cdc as rec
from ifxwire.server.engine.features.cdc import routines


@pytest.fixture(scope="module")
def cdcdb(connect_kwargs: dict[str, Any]) -> str:
    create_logged_databases(connect_kwargs, "syscdcv1", "cdccat")
    w = ifxwire.connect(**connect_kwargs, database="cdccat", autocommit=True)
    try:
        w.cursor().execute("CREATE TABLE wide (id INTEGER, note VARCHAR(200))")
    finally:
        w.close()
    return "cdccat"


@pytest.fixture()
def reader(connect_kwargs: dict[str, Any], cdcdb: str) -> Iterator[ifxwire.Connection]:
    c = ifxwire.connect(**connect_kwargs, database="syscdcv1", autocommit=True)
    try:
        yield c
    finally:
        c.close()


def test_error_codes_and_record_types_are_tables(reader: ifxwire.Connection) -> None:
    cur = reader.cursor()
    cur.execute("SELECT errcode, errdesc FROM syscdcerrcodes WHERE errname = ?",
                ("CDC_E_TABCAPTURED",))
    assert cur.fetchall() == [
        (-83710, "The specified table is already being captured by the CDC session.")]
    cur.execute("SELECT errcode FROM syscdcerrcodes")
    codes = {r[0] for r in cur.fetchall()}
    used = {v for k, v in vars(routines).items() if k.startswith("E_") and isinstance(v, int)}
    # every code the routines return has its row, but -83799, whose name no source gives
    assert used - codes == {routines.E_UNIMPL}
    cur.execute("SELECT recnum, recname FROM informix.syscdcrectypes ORDER BY recnum")
    assert cur.fetchall() == [
        (1, "CDC_REC_BEGINTX"), (2, "CDC_REC_COMMTX"), (3, "CDC_REC_RBTX"),
        (40, "CDC_REC_INSERT"), (41, "CDC_REC_DELETE"), (42, "CDC_REC_UPDBEF"),
        (43, "CDC_REC_UPDAFT"), (62, "CDC_REC_DISCARD"), (119, "CDC_REC_TRUNCATE"),
        (200, "CDC_REC_TABSCHEMA"), (201, "CDC_REC_TIMEOUT"), (202, "CDC_REC_ERROR")]
    cur.execute("SELECT tabname FROM systables WHERE tabname LIKE 'syscdc%' ORDER BY 1")
    assert cur.fetchall() == [("syscdcerrcodes",), ("syscdcrectypes",)]  # made once


def test_errortext(reader: ifxwire.Connection) -> None:
    cur = reader.cursor()
    cur.execute("EXECUTE FUNCTION informix.cdc_errortext(?, ?)",
                ("CDC_E_TABCAPTURED", "en_us.0333"))
    assert cur.fetchall() == [
        ("The specified table is already being captured by the CDC session.",)]
    cur.execute("EXECUTE FUNCTION informix.cdc_errortext('CDC_E_NOTAB', '')")  # default
    assert cur.fetchone() == ("The specified table does not exist.",)
    cur.execute("EXECUTE FUNCTION informix.cdc_errortext('cdc_e_nodb', NULL)")
    assert cur.fetchone() == ("The specified database does not exist.",)
    with pytest.raises(ifxwire.DatabaseError) as e:
        cur.execute("EXECUTE FUNCTION informix.cdc_errortext('CDC_E_NOSUCH', 'en_us.819')")
    assert e.value.sqlcode == -1824
    with pytest.raises(ifxwire.DatabaseError) as e:
        cur.execute("EXECUTE FUNCTION informix.cdc_errortext('CDC_E_NOTAB', 'de_de.819')")
    assert e.value.sqlcode == -23109
    # inside a statement too, as the guide's example runs it
    cur.execute("SELECT cdc_errortext('CDC_E_TABCAPTURED', 'en_us.0333'), errcode "
                "FROM syscdcerrcodes WHERE errname = 'CDC_E_TABCAPTURED'")
    assert cur.fetchall() == [
        ("The specified table is already being captured by the CDC session.", -83710)]
    cur.execute("SELECT cdc_errortext(errname, NULL) FROM syscdcerrcodes WHERE errcode = ?",
                (-83708,))
    assert cur.fetchall() == [("The specified CDC session does not exist.",)]
    with pytest.raises(ifxwire.DatabaseError) as e:
        cur.execute("SELECT cdc_errortext('CDC_E_NOSUCH', '') FROM syscdcrectypes")
        cur.fetchall()
    assert e.value.sqlcode == -1824


def test_errortext_only_in_syscdcv1(connect_kwargs: dict[str, Any], cdcdb: str) -> None:
    c = ifxwire.connect(**connect_kwargs, database=cdcdb, autocommit=True)
    try:
        with pytest.raises(ifxwire.DatabaseError) as e:
            c.cursor().execute("SELECT cdc_errortext('CDC_E_NOTAB', '') FROM systables "
                               "WHERE tabid = 1")
        assert e.value.sqlcode == -674
    finally:
        c.close()


def test_stream_errors_carry_name_and_text(reader: ifxwire.Connection) -> None:
    with pytest.raises(cdc.StreamError) as e:
        cdc.open_stream(reader, tables=["cdccat:informix.nosuch"])
    assert (e.value.code, e.value.name) == (-83705, "CDC_E_NOTAB")
    assert e.value.text == "The specified table does not exist."
    assert "CDC_E_NOTAB: The specified table does not exist. (CDC error -83705)" in str(e.value)


def test_stream_errors_carry_name_and_text_aio(connect_kwargs: dict[str, Any],
                                               cdcdb: str) -> None:
    import ifxwire.aio
    import ifxwire.aio.cdc as acdc

    async def main() -> cdc.StreamError:
        conn = await ifxwire.aio.connect(**connect_kwargs, database="syscdcv1",
                                         autocommit=True)
        try:
            with pytest.raises(cdc.StreamError) as e:
                await acdc.open_stream(conn, tables=["nosuchdb:informix.t"])
            return e.value
        finally:
            await conn.close()

    err = asyncio.run(main())
    assert (err.code, err.name) == (-83703, "CDC_E_NODB")


def _one(cur: Any, sql: str, *args: object) -> Any:
    cur.execute(sql, args)
    return cur.fetchone()[0]


def test_recboundary_restarts_the_record_a_short_read_cut(reader: ifxwire.Connection) -> None:
    cur = reader.cursor()
    cur.execute(cdc.SQL_SERVER)
    server = cur.fetchone()[0].strip()
    sid = _one(cur, "EXECUTE FUNCTION informix.cdc_opensess(?, 0, 1, 1, 1, 1)", server)
    assert sid > 0
    try:
        assert _one(cur, "EXECUTE FUNCTION informix.cdc_set_fullrowlogging('cdccat:wide', 1)"
                    ) == 0
        assert _one(cur, "EXECUTE FUNCTION informix.cdc_startcapture(?, 0, 'cdccat:wide', "
                    "'id,note', 7)", sid) == 0
        assert _one(cur, "EXECUTE FUNCTION informix.cdc_activatesess(?, 0)", sid) == 0
        buf = bytearray(4096)
        n = fastpath.read_into(reader, sid, memoryview(buf), 10)  # the TABSCHEMA record, cut
        assert n == 10
        head = bytes(buf[:10])
        assert _one(cur, "EXECUTE FUNCTION informix.cdc_recboundary(?)", sid) == 0
        n = fastpath.read_into(reader, sid, memoryview(buf), len(buf))
        assert bytes(buf[:10]) == head  # from the record's first byte again, whole
        got = rec.decode(buf[:n])
        assert got is not None and got[0].recnum == rec.TABSCHEMA and got[1] == n
        assert got[0].user_data == 7
        # nothing cut: a no-op
        assert _one(cur, "EXECUTE FUNCTION informix.cdc_recboundary(?)", sid) == 0
        assert _one(cur, "EXECUTE FUNCTION informix.cdc_recboundary(?)", 12345) == -83708
    finally:
        _one(cur, "EXECUTE FUNCTION informix.cdc_closesess(?)", sid)
