"""Column values in CDC row records (CDC_REC_INSERT/DELETE/UPDBEF/UPDAFT payloads).

The payload holds the captured columns in CDC_REC_TABSCHEMA order, fixed-length ones first
(IBM/HCL CDC API Programmer's Guide, "The CDC_REC_INSERT record"). IBM JDBC 15.0.0.1 decodes
it column by column (``CDCOperationRecord.getData``, read with ``javap``) with its SQLI value
decoders, so most types are what an SQ_TUPLE carries (``rowcodec``), with two exceptions:

* BOOLEAN: two bytes, the value in the second: 1 true, 0 false, 0xFF null
  (``IfxBoolean.fromIfx(byte[], int)``); the first byte is 1 for null here, 0 otherwise
  (JDBC does not read it).
* LVARCHAR: ``i16 n + 1``, a null-flag byte, n bytes (``IfxLvarchar.fromCDC``: the text
  starts 3 bytes in; ``00 01 01`` is NULL).
* BLOB, CLOB: 76 bytes, fixed-length: 4 bytes, then the 72-byte smart-LO locator
  (``getData`` copies bytes 4..76 into an ``IfxLocator`` and moves 76 on; IBM's CDC sample
  program ``cdcapi.ec`` reads the ``ifx_lo_t`` 4 bytes in and walks the column as a fixed one,
  then opens the object with ``ifx_lo_open``). The record carries the locator, not the data.
  The first 4 bytes are read by neither: we write the locator's size (72), and 0 with a zero
  locator for NULL [inferred].

docs/CDC_SERVER.md "Records" lists the rest of the per-type sizes.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Sequence
from dataclasses import replace

from ..protocol.codes import XID_BLOB, XID_CLOB
from ..protocol.codes import TypeCode as _T
from ..protocol.columns import ColumnDesc
from .rowcodec import _is_boolean, _is_lvarchar, build_row_decoder, column_encoders, fixed_width
from .rowcodec import is_variable as _tuple_variable

_I16 = struct.Struct(">h")
NULL_LVARCHAR = b"\x00\x01\x01"
NULL_BOOLEAN = b"\x01\xff"
#: a smart-LO column in a CDC row: 4 bytes, then the locator
LOCATOR_SIZE = 72
LOB_WIDTH = 4 + LOCATOR_SIZE
LOB_PREFIX = struct.pack(">i", LOCATOR_SIZE)
NULL_LOB = bytes(LOB_WIDTH)


def is_smart_lob(col: ColumnDesc) -> bool:
    """BLOB or CLOB (UDTFIXED with extended id 10 or 11)."""
    return col.base == _T.UDTFIXED and col.xid in (XID_BLOB, XID_CLOB)


def width(col: ColumnDesc) -> int | None:
    """Bytes of a fixed-length column in a CDC row; None for a variable-length one."""
    if _is_boolean(col):
        return 2
    if is_smart_lob(col):
        return LOB_WIDTH
    if _is_lvarchar(col) or _tuple_variable(col):
        return None
    return fixed_width(col)


def special(col: ColumnDesc) -> bool:
    """Whether the column's CDC form differs from its SQ_TUPLE form."""
    return _is_boolean(col) or _is_lvarchar(col) or is_smart_lob(col)


def _encode_boolean(v: object) -> bytes:
    if v is None:
        return NULL_BOOLEAN
    return b"\x00\x01" if v else b"\x00\x00"


def _lvarchar_encoder(encoding: str) -> Callable[[object], bytes]:
    def encode(v: object) -> bytes:
        if v is None:
            return NULL_LVARCHAR
        data = v.encode(encoding) if isinstance(v, str) else bytes(v)  # type: ignore[call-overload]
        if len(data) + 1 > 0x7FFF:
            raise ValueError(f"LVARCHAR of {len(data)} bytes does not fit a CDC row")
        return _I16.pack(len(data) + 1) + b"\x00" + data
    return encode


def _encode_lob(v: object) -> bytes:
    if v is None:
        return NULL_LOB
    loc: bytes = bytes(v)  # type: ignore[call-overload]
    if len(loc) != LOCATOR_SIZE:
        raise ValueError(f"a smart-LO locator has {LOCATOR_SIZE} bytes, not {len(loc)}")
    return LOB_PREFIX + loc


def _decode_lob(b: bytes | memoryview) -> object:
    """The locator (72 bytes), or None for a NULL."""
    if bytes(b) == NULL_LOB:
        return None
    return bytes(b[4:LOB_WIDTH])


def encoders(columns: Sequence[ColumnDesc], encoding: str) -> list[Callable[[object], bytes]]:
    """One ``value -> bytes`` per column, in its CDC form."""
    base = column_encoders(columns, encoding)
    out: list[Callable[[object], bytes]] = []
    for col, enc in zip(columns, base, strict=True):
        if _is_boolean(col):
            out.append(_encode_boolean)
        elif _is_lvarchar(col):
            out.append(_lvarchar_encoder(encoding))
        elif is_smart_lob(col):
            out.append(_encode_lob)
        else:
            out.append(enc)
    return out


def _decode_boolean(b: bytes | memoryview) -> object:
    v = b[1]
    return None if v == 0xFF else bool(v)


def _lvarchar_decoder(encoding: str) -> Callable[[bytes | memoryview], object]:
    def decode(b: bytes | memoryview) -> object:
        if bytes(b[:3]) == NULL_LVARCHAR:
            return None
        (n,) = _I16.unpack_from(b, 0)
        return bytes(b[3:3 + n - 1]).decode(encoding)
    return decode


def _restarted(columns: Sequence[ColumnDesc]) -> list[ColumnDesc]:
    """The columns with the start offsets of the CDC order: a description's ``start`` places
    a column in the described row, and the tuple decoder reads fixed layouts by it."""
    out = []
    pos = 0
    for c in columns:
        out.append(replace(c, start=pos))
        pos += fixed_width(c) or 0
    return out


def row_decoder(columns: Sequence[ColumnDesc], encoding: str
                ) -> Callable[[bytes, Sequence[int]], Sequence[object]]:
    """``(payload, variable-length sizes) -> values`` for rows of these columns (CDC order)."""
    at = row_decoder_at(columns, encoding)

    def decode(payload: bytes, sizes: Sequence[int]) -> Sequence[object]:
        return at(payload, 0, len(payload), sizes)
    return decode


def row_decoder_at(columns: Sequence[ColumnDesc], encoding: str
                   ) -> Callable[[bytes | bytearray | memoryview, int, int, Sequence[int]],
                                 Sequence[object]]:
    """``(buffer, payload offset, payload size, variable-length sizes) -> values``: the row
    is read where it lies in the buffer the records came in (no copy of its payload).

    Without BOOLEAN or LVARCHAR columns the payload is an SQ_TUPLE row and one compiled tuple
    decoder (the accelerator's when it is in use) reads it whole; otherwise it is cut into
    columns (fixed widths, then the header's sizes) and each is decoded alone."""
    return row_decoders(columns, encoding)[0]


def row_decoders(columns: Sequence[ColumnDesc], encoding: str
                 ) -> tuple[Callable[[bytes | bytearray | memoryview, int, int, Sequence[int]],
                                     Sequence[object]],
                            Callable[[bytes | bytearray | memoryview, int, int],
                                     Sequence[object]] | None]:
    """``row_decoder_at``'s decoder, and the tuple decoder ``(buffer, offset, size) ->
    values`` it calls when the payload is an SQ_TUPLE row (else None): the compiled record
    loop (ifxwire._cdcaccel) calls that one directly."""
    cols = _restarted(columns)
    if not any(special(c) for c in cols):
        whole = build_row_decoder(cols, encoding)

        def decode_whole(buf: bytes | bytearray | memoryview, start: int, size: int,
                         sizes: Sequence[int]) -> Sequence[object]:
            return whole(buf, start, size)
        return decode_whole, whole
    parts: list[tuple[int | None, Callable[[bytes | memoryview], object]]] = []
    for c in cols:
        if _is_boolean(c):
            dec: Callable[[bytes | memoryview], object] = _decode_boolean
        elif _is_lvarchar(c):
            dec = _lvarchar_decoder(encoding)
        elif is_smart_lob(c):
            dec = _decode_lob
        else:
            one = build_row_decoder([replace(c, start=0)], encoding)
            dec = (lambda f: lambda b: f(b, 0, len(b))[0])(one)
        parts.append((width(c), dec))

    def decode_columns(buf: bytes | bytearray | memoryview, start: int, size: int,
                       sizes: Sequence[int]) -> Sequence[object]:
        view = bytes(buf[start:start + size])
        pos = 0
        var = iter(sizes)
        out = []
        for w, dec in parts:
            n = w if w is not None else next(var)
            out.append(dec(view[pos:pos + n]))
            pos += n
        return out
    return decode_columns, None
