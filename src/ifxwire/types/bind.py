"""SQ_BIND parameter codec: Python values to bind items (driver) and back (server).

Per parameter (jdbc-protocol.md 3.4)::

    i16 type
    if (type & 0xFF) > 18 and not 52/53: CHARSTR owner, CHARSTR type name
    i16 indicator          0 value follows, -1 NULL, -2 use the default
    i16 prec               type-specific (DECIMAL: the scale; DATETIME/INTERVAL: the qualifier)
    data, padded to even   absent unless the indicator is 0

CHARSTR is ``u16 length, bytes, pad byte if the length is odd``.

The driver chooses the bind type from the Python type alone. It never needs the parameter's
described type because the server converts, as real Informix does for the CHAR the JDBC driver
sends for setString of any column type.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from struct import Struct
from struct import error as StructError
from typing import Any, NamedTuple

from ..protocol.codes import NAMED_IN_BIND, TypeCode
from . import blobs as _blobs
from . import numeric as _num
from . import temporal as _tmp
from . import text as _txt
from .complextype import COMPLEX_CODES
from .composite import decode_complex, encode_complex, infer_type
from .compositevalues import List, Multiset, Row, Set
from .errors import CodecDataError, CodecError, CodecNotSupported
from .numeric import I16, I32, U16, U32, Buffer
from .values import DateTimeFields, IntervalYM, Text

__all__ = [
    "BIND_CHAR_MAX",
    "BLOB_BIND_TYPES",
    "BUILTIN_ENCODERS",
    "BindValue",
    "blob_param",
    "decode_bind_values",
    "encode_bind_params",
    "encode_bind_value",
]

_T = TypeCode
_SENDRECV = 44  # JDBC binds java.util collections as SENDRECV carrying a complex value
_COMPLEX_NAME = re.compile(r"\s*(set|multiset|list|row)\s*\(")
_LOB_NAMES = frozenset(("", "blob", "clob"))
_IND_PREC = Struct(">hh")
TYPE_IND_PREC = Struct(">hhh")  # a BIND item's type, indicator, precision
_TYPE_IND_PREC = TYPE_IND_PREC
#: A CHAR bind item's head: type, indicator, precision, then the value's u16 length.
_CHAR_ITEM = Struct(">hhhH")

#: Longest string sent as a CHAR bind (the CHAR type's own maximum); longer ones go as
#: LVARCHAR (type 43), whose length field is 32 bits (jdbc 3.4).
BIND_CHAR_MAX = 32767

#: Why a str holding NUL is refused as a parameter (every encoder path raises this text).
NUL_IN_STR = (
    "a character value cannot hold a NUL (U+0000) character: Informix would store it cut there"
)

_PREC_INTEGER = 0x0A00
_PREC_BIGINT = 0x1300
_INTEGER_MAX = 0x7FFFFFFF
_BIGINT_MAX = 2**63 - 1

# Item heads (type, indicator 0, prec) of the items the fast paths emit; the C bind encoder
# copies them too (fast_bind_constants).
_INT_HEAD = _TYPE_IND_PREC.pack(_T.INTEGER, 0, _PREC_INTEGER)
_FLOAT_HEAD = _TYPE_IND_PREC.pack(_T.FLOAT, 0, 0)
_CHAR_HEAD = _TYPE_IND_PREC.pack(_T.CHAR, 0, 0)
_DATE_HEAD = _TYPE_IND_PREC.pack(_T.DATE, 0, 0)

_NULL_PARAM = _TYPE_IND_PREC.pack(_T.CHAR, -1, 0)
_TRUE_PARAM = _CHAR_HEAD + b"\x00\x01t\x00"
_FALSE_PARAM = _CHAR_HEAD + b"\x00\x01f\x00"
_EMPTY_CHARSTR = b"\x00\x00"


class BindValue(NamedTuple):
    """One decoded bind parameter; ``value`` is already a Python value (None when not sent)."""

    type: int
    indicator: int
    prec: int
    value: object


def _pad(data: bytes) -> bytes:
    return data + b"\x00" if len(data) & 1 else data


def _item(type_code: int, prec: int, data: bytes) -> bytes:
    return _TYPE_IND_PREC.pack(type_code, 0, prec) + _pad(data)


def _udt_item(type_code: int, type_name: bytes, prec: int, data: bytes) -> bytes:
    """A bind item of a type that carries owner and name (owner is always empty here)."""
    name = U16.pack(len(type_name)) + _pad(type_name)
    return I16.pack(type_code) + _EMPTY_CHARSTR + name + _IND_PREC.pack(0, prec) + _pad(data)


# ---------------------------------------------------------------------------------------------
# Encoding (driver side)
# ---------------------------------------------------------------------------------------------


def _bind_bool(value: bool, encoding: str) -> bytes:
    # Sent as CHAR 't'/'f', which servers cast to BOOLEAN; a type 45/41 bind hangs real servers
    # (peer 3.5, verified on 12.10, 14.10 and 15).
    return _TRUE_PARAM if value else _FALSE_PARAM


_I32_PACK = _num.I32.pack
_F64_PACK = _num.F64.pack


def _bind_int(value: int, encoding: str) -> bytes:
    # An exact int in INTEGER range is the common case: one pack, no checks beyond the range.
    if type(value) is int and -_INTEGER_MAX <= value <= _INTEGER_MAX:
        return _INT_HEAD + _I32_PACK(value)
    v = int(value)
    if -_INTEGER_MAX <= v <= _INTEGER_MAX:
        return _item(_T.INTEGER, _PREC_INTEGER, _num.I32.pack(v))
    if -_BIGINT_MAX <= v <= _BIGINT_MAX:
        return _item(_T.BIGINT, _PREC_BIGINT, _num.I64.pack(v))
    raise CodecDataError(
        f"integer {v} does not fit BIGINT (±(2**63-1)), Informix's widest integer; "
        "bind a Decimal to reach a DECIMAL(32) column"
    )


def _bind_float(value: float, encoding: str) -> bytes:
    if type(value) is float and value - value == 0.0:  # finite (inf - inf and NaN are NaN)
        return _FLOAT_HEAD + _F64_PACK(value)
    return _item(_T.FLOAT, 0, _num.encode_float(value))


def _bind_decimal(value: Decimal, encoding: str) -> bytes:
    prec, data = _num.encode_decimal_bind(value)
    return _item(_T.DECIMAL, prec, data)


def _bind_str(value: str, encoding: str) -> bytes:
    raw = _txt.encode_str(value, encoding, "string bind")
    if 0 in raw:  # the int form: CPython's bytes-in-bytes test costs ~5x more (codec bench)
        # Informix keeps a character value as a C string: a real server (and ours) stores it cut
        # at the NUL, silently. Refused here, before anything is sent (docs/DRIVER.md).
        raise CodecDataError(NUL_IN_STR)
    n = len(raw)
    if n <= BIND_CHAR_MAX:
        # _item(CHAR, 0, u16 length + raw) in one pack: the generic path binds every str
        # parameter of a single execute here, and the NUL test above costs about what the two
        # calls and the concatenation this saves did (issue 24's 3 % count, codec encode_str)
        return _CHAR_ITEM.pack(_T.CHAR, 0, 0, n) + (raw + b"\x00" if n & 1 else raw)
    return _udt_item(_T.LVARCHAR, b"", 0, U32.pack(n) + raw)


def _bind_bytes(value: bytes | bytearray | memoryview, encoding: str) -> bytes:
    """The BIND item of a BYTE parameter: a descriptor with the size; the data itself goes
    after the whole SQ_BIND (see :func:`blob_param`, which the driver calls instead)."""
    return _item(_T.BYTE, 0, _blobs.bind_descriptor(memoryview(value).nbytes))


#: Values that bind as BYTE/TEXT: a descriptor in SQ_BIND, their data in SQ_BBIND after it.
BLOB_BIND_TYPES: tuple[type, ...] = (bytes, bytearray, memoryview, Text)


def blob_param(value: object, encoding: str, width: int) -> tuple[bytes, bytes]:
    """``(bind item, data)`` of a BYTE (bytes-like) or TEXT (:class:`Text`) parameter.

    ``width`` is the connection's descriptor size (56, or 68 with long row ids). The item
    matches what JDBC sends (``IfxBlob.toIfx``: zeros but the size); informix-driver sends the
    same for bytes.
    """
    if isinstance(value, Text):
        data = _txt.encode_str(value, encoding, "TEXT bind")
        code = _T.TEXT
    else:
        data = bytes(value)  # type: ignore[call-overload]
        code = _T.BYTE
    if len(data) > _blobs.BLOB_MAX:
        raise CodecDataError(f"a BYTE/TEXT value holds at most 2 GiB - 1, not {len(data)} bytes")
    return _item(code, 0, _blobs.bind_descriptor(len(data), width)), data


def _bind_date(value: date, encoding: str) -> bytes:
    if type(value) is date:
        return _DATE_HEAD + _I32_PACK(_tmp.date_to_days(value))
    return _item(_T.DATE, 0, _tmp.encode_date(value))


# A naive datetime binds as DATETIME YEAR TO FRACTION(5): 19 digits, padded to 10 base-100
# digits after the head byte 0xC7 (exponent 7: the 14 digits before the fraction), u16 length
# 11 first and one pad byte last. The shortcut below builds exactly what the generic path
# (_tmp.encode_datetime_bind) builds for such values; a test compares them.
_DATETIME_HEAD = _TYPE_IND_PREC.pack(_T.DATETIME, 0, _tmp.DATETIME_BIND_QUALIFIER) + b"\x00\x0b"


def _bind_datetime(value: datetime, encoding: str) -> bytes:
    if type(value) is datetime and value.tzinfo is None:
        y, f = value.year, value.microsecond // 10
        return _DATETIME_HEAD + bytes((
            0xC7, y // 100, y % 100, value.month, value.day, value.hour, value.minute,
            value.second, f // 1000, f // 10 % 100, f % 10 * 10, 0))
    prec, data = _tmp.encode_datetime_bind(value, _tmp.DATETIME_BIND_QUALIFIER)
    return _item(_T.DATETIME, prec, data)


def _bind_time(value: time, encoding: str) -> bytes:
    prec, data = _tmp.encode_datetime_bind(value, _tmp.TIME_BIND_QUALIFIER)
    return _item(_T.DATETIME, prec, data)


def _bind_fields(value: DateTimeFields, encoding: str) -> bytes:
    q = _tmp.datetime_qualifier(value.start, value.end)
    prec, data = _tmp.encode_datetime_bind(value, q)
    return _item(_T.DATETIME, prec, data)


def _bind_interval(value: timedelta | IntervalYM, encoding: str) -> bytes:
    prec, data = _tmp.encode_interval_bind(value)
    return _item(_T.INTERVAL, prec, data)


_Encoder = Callable[[Any, str], bytes]
#: Exact-type dispatch: one dict lookup for the common cases.

def _holds_nul(value: object) -> bool:
    """Whether a str anywhere inside a ROW or collection value holds NUL (a bind only: the
    shared composite codecs also carry what a server stored, NULs included)."""
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, dict):
        return any(_holds_nul(v) for v in value.values())
    if isinstance(value, (tuple, list, set, frozenset, Row, Set, Multiset, List)):
        return any(_holds_nul(v) for v in value)
    return False


def _bind_complex(value: Row | Set | Multiset | List, encoding: str) -> bytes:
    """A ROW or collection: type 19-22, owner "", the type text as name, prec 0, then the
    value with its i32 length (IfxSqli.sendBind writes ``toIfx()`` padded; docs/PROTOCOL.md
    §13). The name is the named row type for a named ROW."""
    if _holds_nul(value):
        raise CodecDataError(NUL_IN_STR + " (in a ROW or collection element)")
    node = infer_type(value)
    data = encode_complex(node, value, encoding)
    name = node.type_name if node.named else node.sql()
    return _udt_item(node.code, name.encode(encoding), 0, data)


_BY_TYPE: dict[type, _Encoder] = {
    bool: _bind_bool,
    int: _bind_int,
    float: _bind_float,
    Decimal: _bind_decimal,
    str: _bind_str,
    bytes: _bind_bytes,
    bytearray: _bind_bytes,
    memoryview: _bind_bytes,
    date: _bind_date,
    datetime: _bind_datetime,
    time: _bind_time,
    timedelta: _bind_interval,
    IntervalYM: _bind_interval,
    DateTimeFields: _bind_fields,
    Row: _bind_complex,
    Set: _bind_complex,
    Multiset: _bind_complex,
    List: _bind_complex,
}
#: The Python types the built-in binder takes; the adapter registry (adapters.py) registers
#: them as its built-in dumpers.
BUILTIN_ENCODERS: frozenset[type] = frozenset(_BY_TYPE)

#: Subclass fallback, most specific first (bool before int, datetime before date).
_BY_ISINSTANCE: tuple[tuple[type, _Encoder], ...] = (
    (bool, _bind_bool),
    (int, _bind_int),
    (float, _bind_float),
    (Decimal, _bind_decimal),
    (str, _bind_str),
    (bytes, _bind_bytes),
    (bytearray, _bind_bytes),
    (memoryview, _bind_bytes),
    (datetime, _bind_datetime),
    (date, _bind_date),
    (time, _bind_time),
    (timedelta, _bind_interval),
    (IntervalYM, _bind_interval),
    (DateTimeFields, _bind_fields),
    (Row, _bind_complex),
    (Set, _bind_complex),
    (Multiset, _bind_complex),
    (List, _bind_complex),
)


def _bind_item_protocol(value: object, encoding: str) -> bytes:
    item: bytes = value._ifx_bind_item(encoding)  # type: ignore[attr-defined]
    return item


def _dispatch(value: object) -> _Encoder:
    fn = _BY_TYPE.get(type(value))
    if fn is not None:
        return fn
    if hasattr(type(value), "_ifx_bind_item"):
        # Objects that know their own bind item: smart-LOB locators (client/lob.py).
        return _bind_item_protocol
    for cls, candidate in _BY_ISINSTANCE:
        if isinstance(value, cls):
            return candidate
    if hasattr(type(value), "__index__"):
        return _bind_int
    if isinstance(value, (list, tuple, set, frozenset)):
        raise CodecError(
            f"cannot bind a plain {type(value).__name__}: wrap it in ifxwire.List, "
            "ifxwire.Multiset, ifxwire.Set or ifxwire.Row to say which Informix type it is"
        )
    raise CodecError(f"cannot bind a {type(value).__name__}: {value!r:.80}")


def encode_bind_value(value: object, encoding: str) -> bytes:
    """The complete SQ_BIND item for one parameter (type through padded data).

    None → CHAR NULL; bool → CHAR 't'/'f'; int → INTEGER or BIGINT; float → FLOAT; Decimal →
    DECIMAL; str → CHAR (LVARCHAR above 32767 bytes); date → DATE; naive datetime → DATETIME
    YEAR TO FRACTION(5); time → DATETIME HOUR TO FRACTION(5); timedelta → INTERVAL DAY(9) TO
    FRACTION(5); IntervalYM → INTERVAL YEAR(9) TO MONTH; DateTimeFields → DATETIME with its own
    qualifier; bytes → BYTE (the descriptor only: the driver sends the data after SQ_BIND, see
    :func:`blob_param`). tz-aware values raise CodecError.
    """
    fn = _BY_TYPE.get(type(value))  # the exact types first: one lookup, one call
    if fn is not None:
        return fn(value, encoding)
    if value is None:
        return _NULL_PARAM
    return _dispatch(value)(value, encoding)


def encode_bind_params(values: Sequence[object], encoding: str) -> bytes:
    """``u16 nparams`` followed by every parameter's item: an SQ_BIND body after its code."""
    return U16.pack(len(values)) + b"".join([encode_bind_value(v, encoding) for v in values])


# ---------------------------------------------------------------------------------------------
# Decoding (server side)
# ---------------------------------------------------------------------------------------------


def _read_charstr(buf: Buffer, pos: int, encoding: str) -> tuple[str, int]:
    (n,) = U16.unpack_from(buf, pos)
    start = pos + 2
    end = start + n
    if end > len(buf):
        raise CodecError(f"CHARSTR of {n} bytes at offset {pos} runs past the buffer")
    return str(buf[start:end], encoding), end + (n & 1)


def _u16_data(buf: Buffer, pos: int) -> tuple[int, int]:
    (n,) = U16.unpack_from(buf, pos)
    return pos + 2, pos + 2 + n


def _u32_data(buf: Buffer, pos: int) -> tuple[int, int]:
    (n,) = U32.unpack_from(buf, pos)
    return pos + 4, pos + 4 + n


def _decode_data(
    base: int, name: str, prec: int, buf: Buffer, pos: int, encoding: str
) -> tuple[object, int]:
    """(value, offset just past the data) for one bind whose indicator is 0."""
    if base in (_T.CHAR, _T.VARCHAR, _T.NCHAR, _T.NVARCHAR):
        start, end = _u16_data(buf, pos)
        _check_end(buf, end, pos)
        return str(buf[start:end], encoding), end
    if base == _T.SMALLINT:
        return _num.decode_smallint(buf, pos), pos + 2
    if base in (_T.INTEGER, _T.SERIAL):
        return _num.decode_integer(buf, pos), pos + 4
    if base in (_T.BIGINT, _T.BIGSERIAL):
        return _num.decode_bigint(buf, pos), pos + 8
    if base in (_T.INT8, _T.SERIAL8):
        return _num.decode_int8(buf, pos), pos + 10
    if base == _T.FLOAT:
        return _num.decode_float(buf, pos), pos + 8
    if base == _T.SMALLFLOAT:
        return _num.decode_smallfloat(buf, pos), pos + 4
    if base == _T.DATE:
        return _tmp.decode_date(buf, pos), pos + 4
    if base in (_T.DECIMAL, _T.MONEY):
        start, end = _u16_data(buf, pos)
        _check_end(buf, end, pos)
        return _num.decode_decimal(buf, start, end - start), end
    if base == _T.DATETIME:
        _check_end(buf, _u16_data(buf, pos)[1], pos)
        return _tmp.decode_datetime_bind(buf, pos, prec)
    if base == _T.INTERVAL:
        _check_end(buf, _u16_data(buf, pos)[1], pos)
        return _tmp.decode_interval_bind(buf, pos, prec)
    lowered = name.lower()
    if base == _T.LVARCHAR or (base == _T.UDTVAR and lowered == "lvarchar"):
        start, end = _u32_data(buf, pos)
        _check_end(buf, end, pos)
        return str(buf[start:end], encoding), end
    if base == _T.BOOLEAN or (base == _T.UDTFIXED and lowered == "boolean"):
        start, end = _u32_data(buf, pos)
        _check_end(buf, end, pos)
        if end - start != 1:
            raise CodecError(f"BOOLEAN bind at offset {pos} has {end - start} bytes, expected 1")
        return _txt.boolean_from_byte(buf[start]), end
    if base in COMPLEX_CODES or (base == _SENDRECV and _COMPLEX_NAME.match(lowered)):
        # JDBC's setObject(java.util.Collection) is SENDRECV named after the collection
        # ("multiset (  int  not null) "); other SENDRECV items (LOB locators) are bytes.
        (n,) = I32.unpack_from(buf, pos)
        end = pos + 4 + n
        _check_end(buf, end, pos)
        return decode_complex(buf, pos, end, encoding), end
    if base in (_T.UDTVAR, _T.UDTFIXED, _T.SENDRECV):
        start, end = _u32_data(buf, pos)
        _check_end(buf, end, pos)
        if base == _SENDRECV and lowered not in _LOB_NAMES:
            row = _named_row(buf, pos, end, encoding, lowered)
            if row is not None:
                return row, end
        return bytes(buf[start:end]), end
    raise CodecNotSupported(f"bind type {base} ({name or 'built-in'}) at offset {pos}")


def _named_row(buf: Buffer, pos: int, end: int, encoding: str, name: str) -> Any:
    """A SENDRECV item that is a named ROW: JDBC's ``setObject(SQLData)`` sends it named after
    the type (``xc_pt``), holding the complex value with its own type table
    (docs/PROTOCOL.md §13). It counts as one only when that table's root is the named row
    type the item is named after; anything else (a LOB locator) stays bytes."""
    try:
        value = decode_complex(buf, pos, end, encoding)
    except CodecError:
        return None
    if isinstance(value, Row) and (value.type_name or "").lower() == name.rsplit(".", 1)[-1]:
        return value
    return None


def _check_end(buf: Buffer, end: int, pos: int) -> None:
    if end > len(buf):
        raise CodecError(f"bind data at offset {pos} runs past the buffer ({end} > {len(buf)})")


def decode_bind_values(
    buf: Buffer,
    offset: int,
    nparams: int,
    encoding: str,
    blob_width: int = _blobs.BLOB_DESCRIPTOR_WIDTH,
) -> tuple[list[BindValue], int]:
    """Parse ``nparams`` bind items starting at ``offset`` (just after the u16 count).

    BYTE/TEXT items are descriptors of ``blob_width`` bytes (68 with long row ids), returned
    as bytes; their data comes later in SQ_BBIND.

    Returns the values and the offset after the last item's padding. Non-normalised DECIMALs
    (JDBC sends 0 as ``C1 00``) are accepted. Malformed bytes raise CodecError with the offset.
    """
    pos = offset
    out: list[BindValue] = []
    for index in range(nparams):
        item = pos
        try:
            (type_word,) = I16.unpack_from(buf, pos)
            pos += 2
            base = type_word & 0xFF
            name = ""
            if base in NAMED_IN_BIND:
                _owner, pos = _read_charstr(buf, pos, encoding)
                name, pos = _read_charstr(buf, pos, encoding)
            indicator, prec = _IND_PREC.unpack_from(buf, pos)
            pos += 4
            if indicator != 0:
                if indicator not in (-1, -2):
                    raise CodecError(f"bad bind indicator {indicator}")
                out.append(BindValue(type_word, indicator, prec, None))
                continue
            if base == _T.BYTE or base == _T.TEXT:
                end = pos + blob_width
                _check_end(buf, end, pos)
                value: object = bytes(buf[pos:end])
            else:
                value, end = _decode_data(base, name, prec, buf, pos, encoding)
            pos = end + ((end - pos) & 1)
        except CodecError as exc:
            raise type(exc)(f"bind parameter {index + 1} at offset {item}: {exc}") from exc
        except (ValueError, IndexError, OverflowError) as exc:
            raise CodecError(
                f"bind parameter {index + 1} at offset {item}: {type(exc).__name__}: {exc}"
            ) from exc
        except StructError as exc:
            raise CodecError(
                f"bind parameter {index + 1} at offset {item} is truncated or malformed: {exc}"
            ) from exc
        out.append(BindValue(type_word, indicator, prec, value))
    return out, pos


# decode_bind_plain: text types (u16 length prefix), and fixed-width integer types with their
# struct, width and NULL value. The server's compiled run decoders (server/bindrun.py) use the
# same tables, so both decode the same types the same way.
PLAIN_TEXT = frozenset(int(t) for t in (_T.CHAR, _T.VARCHAR, _T.NCHAR, _T.NVARCHAR))
PLAIN_FIXED: dict[int, tuple[Struct, int, int]] = {
    int(_T.SMALLINT): (I16, 2, _num.SMALLINT_NULL),
    int(_T.INTEGER): (_num.I32, 4, _num.INTEGER_NULL),
    int(_T.SERIAL): (_num.I32, 4, _num.INTEGER_NULL),
    int(_T.BIGINT): (_num.I64, 8, _num.BIGINT_NULL),
    int(_T.BIGSERIAL): (_num.I64, 8, _num.BIGINT_NULL),
}
PLAIN_FLOAT = int(_T.FLOAT)
_F64 = _num.F64
# DATE (4 bytes) and DECIMAL/MONEY (u16 length, base-100 bytes, pad): decoded by the general
# path's own functions (_decode_data), so their values are that path's; any error there makes
# the row not plain, and the general path then raises it.
PLAIN_DATE = int(_T.DATE)
PLAIN_DECIMAL = frozenset((int(_T.DECIMAL), int(_T.MONEY)))
_decode_date = _tmp.decode_date
_decode_decimal = _num.decode_decimal


def decode_bind_plain(
    buf: Buffer, pos: int, end: int, nparams: int, encoding: str
) -> tuple[list[object], int] | None:
    """The values of ``nparams`` bind items at ``pos`` if all are plain, else None.

    The server's hot path for executemany rows: one pass that both frames the items (within
    ``end``) and decodes them. Plain items are SMALLINT, INTEGER, SERIAL, BIGINT, BIGSERIAL,
    FLOAT, DATE, DECIMAL/MONEY and CHAR/VARCHAR/NCHAR/NVARCHAR values, and NULLs of built-in
    types. (DATE and DECIMAL joined in issue 25: without them an ``adbc_ingest`` or
    executemany of such columns never reached the batched INSERT and cost the server ~15
    times more per row.) Anything else
    (another type, an odd indicator, bytes past ``end``, undecodable text) returns None, and
    the caller takes the general path (``skip_bind_params`` + :func:`decode_bind_values`),
    which gives the same values or the proper error; a non-None result is exactly the
    ``value`` fields that path returns, and the offset it ends at.
    """
    out: list[object] = []
    append = out.append
    unpack = _TYPE_IND_PREC.unpack_from
    fixed = PLAIN_FIXED
    for _ in range(nparams):
        data = pos + 6
        if data > end:
            return None
        type_word, indicator, _prec = unpack(buf, pos)
        base = type_word & 0xFF
        if base in NAMED_IN_BIND:
            return None  # a named type (CHARSTR owner and name first)
        if indicator:
            if indicator != -1 and indicator != -2:
                return None
            append(None)
            pos = data
            continue
        if base in PLAIN_TEXT:
            if data + 2 > end:
                return None
            n = (buf[data] << 8) | buf[data + 1]
            stop = data + 2 + n
            if stop > end:
                return None
            try:
                append(str(buf[data + 2 : stop], encoding))
            except (UnicodeDecodeError, LookupError):
                return None
            pos = stop + (n & 1)
        elif base == PLAIN_FLOAT:
            pos = data + 8
            if pos > end:
                return None
            f = _F64.unpack_from(buf, data)[0]
            append(f if f == f else _num.decode_float(buf, data))
        elif base == PLAIN_DATE:
            pos = data + 4
            if pos > end:
                return None
            try:
                append(_decode_date(buf, data))
            except Exception:
                return None
        elif base in PLAIN_DECIMAL:
            if data + 2 > end:
                return None
            n = (buf[data] << 8) | buf[data + 1]
            stop = data + 2 + n
            if stop > end:
                return None
            try:
                append(_decode_decimal(buf, data + 2, n))
            except Exception:
                return None
            pos = stop + (n & 1)
        else:
            spec = fixed.get(base)
            if spec is None:
                return None
            st, width, null = spec
            pos = data + width
            if pos > end:
                return None
            v = st.unpack_from(buf, data)[0]
            append(None if v == null else v)
    if pos > end:
        return None  # the pad byte of the last text value is still to come
    return out, pos


def fast_bind_constants() -> tuple[bytes, bytes, bytes, bytes, bytes, bytes]:
    """The wire constants the C bind encoder (ifxwire._accel) copies: the type/indicator/prec
    headers of the INTEGER, FLOAT and CHAR items the fast path emits, then the whole NULL, TRUE
    and FALSE items."""
    return (
        _INT_HEAD,
        _FLOAT_HEAD,
        _CHAR_HEAD,
        _NULL_PARAM,
        _TRUE_PARAM,
        _FALSE_PARAM,
    )
