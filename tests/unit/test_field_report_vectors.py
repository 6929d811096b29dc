"""Golden vectors from informix-driver's field reports of real 12.10/14.10/15 servers (issue 23).

Each test names its source: the informix-driver CHANGELOG release and the test of its suite
that checks the fact against real servers (sdist 2026.9.3). The bytes are the ones that
CHANGELOG prints; the codecs under test are shared by our driver (decode, bind) and our server
(encode), so each fact is checked in both directions. docs/PROTOCOL.md "Facts from
informix-driver's field reports" has the table; the same facts over sockets are in
tests/integration/test_field_reports.py.
"""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal

import pytest

from ifxwire.client.handshake import is_internal_version, version_number
from ifxwire.protocol.codes import XID_BLOB, XID_CLOB, XID_LVARCHAR
from ifxwire.protocol.columns import ColumnDesc
from ifxwire.protocol.messages import skip_bind_params
from ifxwire.protocol.wire import ProtocolViolation
from ifxwire.types import smartlob as slo
from ifxwire.types import text as txt
from ifxwire.types.bind import decode_bind_values, encode_bind_value
from ifxwire.types.complextype import parse_type_name
from ifxwire.types.rowcodec import build_row_decoder, build_row_encoder, fixed_width

H = bytes.fromhex
INT8 = ColumnDesc("a", 17, 10)
LVARCHAR = ColumnDesc("lv", 40, 100, xid=XID_LVARCHAR, type_name="lvarchar")
INT = ColumnDesc("e", 2, 4)


def _decode(cols: list[ColumnDesc], payload: bytes) -> tuple[object, ...]:
    return build_row_decoder(cols, "iso8859-1")(payload, 0, len(payload))


# --- LVARCHAR: CHANGELOG 2026.08.31 "Fix LVARCHAR tuple framing"; test_lvarchar_framing.py ----

# Its capture on 12.10 of INT8 2001 / LVARCHAR 'PackageRoot' (11 bytes, odd) / INT8 10.
PACKAGE_ROOT = H(
    "00010000 07d10000 0000" "00" "0000000b" "5061636b616765526f6f74" "00010000 000a0000 0000"
    .replace(" ", "")
)  # fmt: skip


def test_lvarchar_odd_length_has_no_pad() -> None:
    cols = [INT8, LVARCHAR, ColumnDesc("b", 17, 10)]
    assert _decode(cols, PACKAGE_ROOT) == (2001, "PackageRoot", 10)
    assert build_row_encoder(cols, "iso8859-1")((2001, "PackageRoot", 10)) == PACKAGE_ROOT


@pytest.mark.parametrize(
    ("value", "wire"),
    [("odd", "00000000036f6464"), (None, "0100000000"), ("", "0000000000")],
)
def test_lvarchar_null_keeps_its_4_byte_length(value: str | None, wire: str) -> None:
    cols = [LVARCHAR, INT]
    payload = H(wire) + H("00000007")
    assert _decode(cols, payload) == (value, 7)
    assert build_row_encoder(cols, "iso8859-1")((value, 7)) == payload


# --- DATETIME binds: CHANGELOG 2026.08.31 "DATETIME fractions on bind";
#     test_datetime_fraction.py::test_fraction_round_trip --------------------------------------


def test_datetime_bind_keeps_the_fraction() -> None:
    item = encode_bind_value(datetime(2026, 8, 31, 12, 30, 15, 120000), "iso8859-1")
    # type 10, indicator 0, prec YEAR TO FRACTION(5) (0x130F), then the CHANGELOG's data bytes
    assert item == H("000a0000130f") + H("000bc7141a081f0c1e0f0c0000") + b"\x00"


def test_datetime_bind_year_to_second_form_is_read_too() -> None:
    """informix-driver binds a whole-second datetime as YEAR TO SECOND (prec 0x0E0A); we send
    FRACTION(5) always, and our server reads both."""
    year_to_second = H("000a00000e0a") + H("0008c7141a081f0c1e0f")
    values, end = decode_bind_values(year_to_second, 0, 1, "iso8859-1")
    assert values[0].value == datetime(2026, 8, 31, 12, 30, 15)
    assert end == len(year_to_second)


def test_fraction5_drops_the_sixth_digit() -> None:
    item = encode_bind_value(datetime(2026, 8, 31, 12, 30, 15, 999999), "iso8859-1")
    values, _ = decode_bind_values(item, 0, 1, "iso8859-1")
    assert values[0].value == datetime(2026, 8, 31, 12, 30, 15, 999990)


# --- BOOLEAN binds: CHANGELOG 2026.08.31.1; test_type_matrix.py::test_boolean_bind_round_trip --


def test_bool_binds_as_char_t_f_never_type_45() -> None:
    assert encode_bind_value(True, "iso8859-1") == H("000000000000" "0001" "7400")
    assert encode_bind_value(False, "iso8859-1") == H("000000000000" "0001" "6600")


@pytest.mark.parametrize("code", [45, 41])
def test_unnamed_boolean_bind_is_refused_by_the_framer(code: int) -> None:
    """informix-driver's old item (45, ind 0, prec 0, data 01) hung real servers."""
    old = code.to_bytes(2, "big") + H("00000000") + H("0100")
    with pytest.raises(ProtocolViolation, match="BOOLEAN"):
        skip_bind_params(old, 0, len(old), 1)


def test_jdbc_named_boolean_bind_is_still_framed() -> None:
    named = H("002d") + H("0000") + H("0007") + b"boolean\x00" + H("00000001") + H("00000001")
    named += H("0100")
    assert skip_bind_params(named, 0, len(named), 1) == len(named)


# --- unscaled DECIMAL: CHANGELOG 2026.08.31.1;
#     test_type_matrix.py::test_decimal_width_does_not_shift_next_column ----------------------


@pytest.mark.parametrize(
    ("p", "s"),
    [(16, 255), (15, 255), (32, 255), (5, 255), (16, 3), (16, 2), (10, 2), (8, 2), (1, 255)],
)
def test_decimal_width_formula(p: int, s: int) -> None:
    assert fixed_width(ColumnDesc("d", 5, (p << 8) | s)) == (p + (s & 1) + 3) // 2
    assert fixed_width(ColumnDesc("m", 8, (p << 8) | s)) == (p + (s & 1) + 3) // 2


def test_unscaled_decimal16_is_10_bytes_and_the_next_column_is_intact() -> None:
    cols = [ColumnDesc("d", 5, (16 << 8) | 255), INT]
    payload = H("c1013200000000000000") + H("00000007")  # 1.5, then 7
    assert _decode(cols, payload) == (Decimal("1.5"), 7)
    assert build_row_encoder(cols, "iso8859-1")((Decimal("1.5"), 7)) == payload


# --- NULL CHAR: CHANGELOG 2026.08.31.1;
#     test_type_matrix.py::test_null_char_is_none_not_empty_string


@pytest.mark.parametrize(
    ("value", "wire"),
    [("ab", "616220202020"), ("", "202020202020"), (None, "002020202020")],
)
def test_char_null_is_a_leading_nul(value: str | None, wire: str) -> None:
    cols = [ColumnDesc("c", 0, 6), INT]
    payload = H(wire) + H("00000007")
    assert _decode(cols, payload) == (value, 7)
    assert txt.encode_char(value, 6, "iso8859-1") == H(wire)


# --- smart LOBs: CHANGELOG 2026.09.02 "Smart LOBs were read as a flat 72-byte field";
#     test_row_reconciliation.py::test_lob_in_non_final_position -------------------------------


@pytest.mark.parametrize("xid", [XID_BLOB, XID_CLOB])
def test_smart_lob_locator_is_a_149_byte_envelope(xid: int) -> None:
    name = "blob" if xid == XID_BLOB else "clob"
    lob = ColumnDesc("l", 41, 72, xid=xid, type_name=name)
    locator = bytes(range(72))
    hexed = locator.hex().encode()
    populated = H("00") + (144).to_bytes(4, "big") + hexed
    assert len(populated) == 149
    row = _decode([lob, INT], populated + H("00000007"))
    assert row == (hexed, 7)  # the envelope's data, the next column intact
    assert slo.decode_locator_field(hexed) == locator  # what client/lob.py makes a Blob of
    assert _decode([lob, INT], H("0100000000") + H("00000007")) == (None, 7)


# --- NULL composites: CHANGELOG 2026.09.02 "NULL composite UDTs skipped their length field";
#     test_row_reconciliation.py::test_null_composite_does_not_shift_next_column ---------------


@pytest.mark.parametrize("sql", ["ROW(x integer, y varchar(5))", "LIST(integer not null)"])
def test_null_composite_keeps_its_4_byte_length(sql: str) -> None:
    """The text form a client without SQ_RET_TYPE gets (informix-driver; PROTOCOL.md §13):
    ``[ind][i32 len][text]``, NULL ``01 00000000``. Our server's encoder of that form; our
    driver asks for the binary form (SQ_RET_TYPE), which has no indicator byte."""
    node = parse_type_name(sql)
    col = ColumnDesc("v", node.code, 0, xid=2048, type_name=sql, detail=node)
    enc = build_row_encoder([col, INT], "iso8859-1", complex_text=lambda c: lambda v: str(v))
    assert enc((None, 6)) == H("0100000000") + H("00000006")
    assert enc(("ROW(1,'a')", 6)) == H("000000000a") + b"ROW(1,'a')" + H("00000006")


# --- versions: CHANGELOG 2026.08.31 "server_version reported the protocol version", 2026.08.27;
#     test_capabilities.py::test_server_version_reports_release_not_protocol_version ------------


@pytest.mark.parametrize(
    ("login", "internal"),
    [
        ("IBM Informix Dynamic Server Version 9.56.FC6", True),  # a 12.10 server
        ("9.59", True),  # a 14.10 server, bare as informix-driver read it
        ("IBM Informix Dynamic Server Version 14.10.FC9", False),
        ("15.0.1.0.3", False),
    ],
)
def test_internal_protocol_versions_are_told_from_releases(login: str, internal: bool) -> None:
    assert is_internal_version(version_number(login)) is internal
