"""CDC record codec (protocol/cdc.py) against byte vectors written out by hand from the
layouts of IBM/HCL's CDC API Programmer's Guide ("Format of CDC records" and the page of each
record; docs/CDC_SERVER.md "Records"): a 16-byte common header (header size, payload size,
packet scheme 66, record number), then the record's own header, big-endian."""

from __future__ import annotations

import pytest

from ifxwire.cdc import Decoder, EventKind
from ifxwire.protocol import cdc as rec
from ifxwire.protocol.codes import TypeCode
from ifxwire.protocol.columns import ColumnDesc

BEGIN = bytes.fromhex(
    "00000028" "00000000" "00000042" "00000001"  # 40-byte header, no payload, scheme 66, BEGINTX
    "0000000000000005" "00000007" "000000005f5e1000" "000003e8")  # seq 5, tx 7, time, uid 1000
COMMIT = bytes.fromhex(
    "00000024" "00000000" "00000042" "00000002"
    "0000000000000009" "00000007" "000000005f5e1001")
RBTX = bytes.fromhex("0000001c" "00000000" "00000042" "00000003" "000000000000000a" "00000008")
INSERT = bytes.fromhex(
    "00000028" "00000008" "00000042" "00000028"  # header 40 (one var size), payload 8, INSERT
    "0000000000000006" "00000007" "00000003" "00000000"  # seq 6, tx 7, user data 3, flags 0
    "00000004"  # the VARCHAR's size: its length byte and 3 bytes
    "00000001" "03616263")  # id 1 (fixed first), then VARCHAR 'abc'
SCHEMA_TEXT = "id integer, name varchar(20)"
TABSCHEMA = bytes.fromhex(
    "00000024" "0000001c" "00000042" "000000c8"  # header 36, 28 bytes of text, TABSCHEMA (200)
    "00000003" "00000000" "00000004" "00000001" "00000001") + SCHEMA_TEXT.encode()
TIMEOUT = bytes.fromhex("00000018" "00000000" "00000042" "000000c9" "000000000000000a")
ERROR = bytes.fromhex("00000018" "00000000" "00000042" "000000ca" "00000001" "fffeb8b0")
TRUNCATE = bytes.fromhex(
    "00000020" "00000000" "00000042" "00000077" "000000000000000b" "00000007" "00000003")


def test_encoders_write_the_documented_bytes() -> None:
    assert rec.begin(5, 7, 1600000000, 1000) == BEGIN
    assert rec.commit(9, 7, 1600000001) == COMMIT
    assert rec.rollback(10, 8) == RBTX
    assert rec.data(rec.INSERT, 6, 7, 3, [4], bytes.fromhex("0000000103616263")) == INSERT
    assert rec.tabschema(3, 4, 1, 1, SCHEMA_TEXT) == TABSCHEMA
    assert rec.timeout(10) == TIMEOUT
    assert rec.error(rec.ERROR_SESSION_INVALID, -83792) == ERROR
    assert rec.truncate(11, 7, 3) == TRUNCATE


def test_decode_reads_each_field() -> None:
    got = rec.decode(BEGIN + INSERT)
    assert got is not None
    r, end = got
    assert (r.name, r.sequence, r.transaction, r.time, r.user_id, end) == (
        "CDC_REC_BEGINTX", 5, 7, 1600000000, 1000, len(BEGIN))
    got = rec.decode(BEGIN + INSERT, end)
    assert got is not None
    r, end = got
    assert (r.recnum, r.sequence, r.transaction, r.user_data, r.var_sizes, r.payload) == (
        rec.INSERT, 6, 7, 3, (4,), bytes.fromhex("0000000103616263"))
    assert end == len(BEGIN) + len(INSERT)
    s = rec.decode(TABSCHEMA)
    assert s is not None
    assert (s[0].user_data, s[0].fixed_size, s[0].fixed_columns, s[0].var_columns,
            s[0].payload) == (3, 4, 1, 1, SCHEMA_TEXT.encode())
    e = rec.decode(ERROR)
    assert e is not None and (e[0].flags, e[0].error) == (1, -83792)


def test_partial_records_wait_for_the_rest() -> None:
    for cut in (0, 5, 16, len(INSERT) - 1):
        assert rec.decode(INSERT[:cut]) is None
    assert rec.record_size(INSERT[:16]) == len(INSERT)


def test_bad_bytes_are_refused() -> None:
    bad_scheme = INSERT[:8] + bytes.fromhex("00000041") + INSERT[12:]
    with pytest.raises(rec.RecordError):
        rec.decode(bad_scheme)
    unknown = BEGIN[:12] + bytes.fromhex("00000063") + BEGIN[16:]
    with pytest.raises(rec.RecordError):
        rec.decode(unknown)


def test_split_columns_keeps_type_commas() -> None:
    assert rec.split_columns("id integer, price decimal(8,2), name varchar(20,4)") == [
        ("id", "integer"), ("price", "decimal(8,2)"), ("name", "varchar(20,4)")]


def test_decoder_merges_reads_cut_anywhere() -> None:
    cols = [ColumnDesc("name", int(TypeCode.VARCHAR), 20),
            ColumnDesc("id", int(TypeCode.INTEGER), 4)]
    stream = TABSCHEMA + BEGIN + INSERT + COMMIT
    for step in (1, 3, 7, len(stream)):
        d = Decoder({3: ("shop:informix.t", cols)}, "utf-8")
        events = []
        for i in range(0, len(stream), step):
            events.extend(d.feed(stream[i:i + step]))
        kinds = [e.kind for e in events]
        assert kinds == [EventKind.TABLE_SCHEMA, EventKind.BEGIN, EventKind.INSERT,
                         EventKind.COMMIT]
        row = events[2].row
        assert row is not None
        assert (row["id"], row["name"], row[0], row[1]) == (1, "abc", 1, "abc")
        assert events[2].table == "shop:informix.t" and events[3].sequence == 9


def _schema(label: int, text: str, fixed: int, nfixed: int, nvar: int) -> bytes:
    return rec.tabschema(label, fixed, nfixed, nvar, text)


def test_decoder_ignores_the_described_start_offsets() -> None:
    """Columns as a SELECT described them (``start`` in that row) but ordered as the
    TABSCHEMA record says: the offsets are the CDC row's, not the description's."""
    cols = [ColumnDesc("a", int(TypeCode.BIGINT), 8, start=0),
            ColumnDesc("b", int(TypeCode.INTEGER), 4, start=8)]
    d = Decoder({1: ("db:t", cols)}, "utf-8")
    row = bytes.fromhex("00000002" "0000000000000007")  # b = 2, then a = 7
    stream = (_schema(1, "b integer, a bigint", 12, 2, 0) + BEGIN
              + rec.data(rec.INSERT, 6, 7, 1, [], row))
    events = list(d.feed(stream))
    assert events[2].row is not None and tuple(events[2].row) == (2, 7)


def test_boolean_and_lvarchar_have_their_cdc_forms() -> None:
    """BOOLEAN is 2 bytes with the value second (0xFF: NULL); LVARCHAR is ``i16 n+1``, a flag
    byte, n bytes (``00 01 01``: NULL) -- IBM JDBC's IfxBoolean.fromIfx / IfxLvarchar.fromCDC."""
    cols = [ColumnDesc("note", int(TypeCode.UDTVAR), 100, xid=1, type_name="lvarchar", start=9),
            ColumnDesc("ok", int(TypeCode.UDTFIXED), 1, xid=5, type_name="boolean", start=4),
            ColumnDesc("id", int(TypeCode.INTEGER), 4)]
    d = Decoder({1: ("db:t", cols)}, "utf-8")
    first = bytes.fromhex("00000001" "0001" "0004" "00" "616263")  # id 1, true, 'abc'
    second = bytes.fromhex("00000002" "01ff" "000101")  # id 2, NULL, NULL
    stream = (_schema(1, "id integer, ok boolean, note lvarchar(100)", 6, 2, 1) + BEGIN
              + rec.data(rec.INSERT, 6, 7, 1, [6], first)
              + rec.data(rec.INSERT, 7, 7, 1, [3], second))
    rows = [tuple(e.row) for e in d.feed(stream) if e.row is not None]
    assert rows == [(1, True, "abc"), (2, None, None)]
    from ifxwire.types import cdcrow

    enc = cdcrow.encoders([cols[2], cols[1], cols[0]], "utf-8")
    assert b"".join(e(v) for e, v in zip(enc, (1, True, "abc"), strict=True)) == first
    assert b"".join(e(v) for e, v in zip(enc, (2, None, None), strict=True)) == second


def test_smart_lobs_are_a_fixed_prefix_and_the_locator() -> None:
    """BLOB/CLOB: 76 fixed-length bytes, the 72-byte locator 4 bytes in (IBM JDBC's
    CDCOperationRecord.getData copies bytes 4..76 into an IfxLocator and moves 76 on; IBM's
    sample program cdcapi.ec reads ifx_lo_t 4 bytes in). The prefix is ours: 72, or 0 with a
    zero locator for NULL."""
    from ifxwire.types import cdcrow

    cols = [ColumnDesc("id", int(TypeCode.INTEGER), 4),
            ColumnDesc("b", int(TypeCode.UDTFIXED), 72, xid=10, type_name="blob"),
            ColumnDesc("c", int(TypeCode.UDTFIXED), 72, xid=11, type_name="clob")]
    assert [cdcrow.width(c) for c in cols] == [4, 76, 76]
    loc = bytes(range(72))
    row = bytes.fromhex("00000005") + bytes.fromhex("00000048") + loc + bytes(76)
    enc = cdcrow.encoders(cols, "utf-8")
    assert b"".join(e(v) for e, v in zip(enc, (5, loc, None), strict=True)) == row
    d = Decoder({1: ("db:t", cols)}, "utf-8")
    stream = (_schema(1, "id integer, b blob, c clob", 156, 3, 0) + BEGIN
              + rec.data(rec.INSERT, 6, 7, 1, [], row))
    rows = [tuple(e.row) for e in d.feed(stream) if e.row is not None]
    assert rows == [(5, loc, None)]
