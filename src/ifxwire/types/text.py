"""Character and BOOLEAN codecs: CHAR/NCHAR, VARCHAR/NVARCHAR, LVARCHAR and BOOLEAN.

Every string crosses the wire in the connection's code set, whose Python codec name the caller
passes in (``"iso-8859-1"``, ``"utf-8"``, …). All lengths and limits are in *bytes* of that
encoding, because that is what the columns are declared in. A value that does not fit raises
CodecDataError: these codecs never truncate silently (Informix does; a driver that copies that
turns a bug into data loss).

Layouts: jdbc-protocol.md 4.1 and 4.3, peer-informix-driver.md 3.2. BOOLEAN content bytes are
discussed in docs/TYPES.md.
"""

from __future__ import annotations

from collections.abc import Callable

from .errors import CodecDataError, CodecError
from .numeric import U32, Buffer

__all__ = [
    "BOOLEAN_NULL",
    "BOOLEAN_WIDTH",
    "LVARCHAR_NULL",
    "VARCHAR_MAX",
    "VARCHAR_NULL",
    "boolean_from_byte",
    "decode_boolean",
    "decode_char",
    "decode_lvarchar",
    "decode_varchar",
    "encode_boolean",
    "encode_char",
    "encode_lvarchar",
    "encode_str",
    "encode_varchar",
]

#: A VARCHAR's length prefix is one byte.
VARCHAR_MAX = 255
#: VARCHAR NULL: length 1 with a single 0x00 byte (jdbc 4.1); so the 1-byte value "\x00" is
#: not representable and is refused.
VARCHAR_NULL = b"\x01\x00"
#: LVARCHAR / UDT NULL: indicator 1 and a zero length, 5 bytes (peer 3.2: "NULL keeps its length").
LVARCHAR_NULL = b"\x01\x00\x00\x00\x00"
#: BOOLEAN NULL has the same 5-byte envelope.
BOOLEAN_NULL = LVARCHAR_NULL
#: Bytes of a non-NULL BOOLEAN in a tuple: indicator, i32 length 1, the value byte.
BOOLEAN_WIDTH = 6

_BOOLEAN_TRUE = b"\x00\x00\x00\x00\x01\x01"
_BOOLEAN_FALSE = b"\x00\x00\x00\x00\x01\x00"
#: Content bytes accepted as BOOLEAN values: the internal form 0x01/0x00 (HCL DataBlade API
#: "Boolean binary representation"; the JDBC driver's IfxBoolean reads only 1, 0 and 0xFF =
#: NULL), plus the text form 't'/'f' in either case that peer-informix-driver.md 3.2 describes.
_BOOLEAN_BYTES: dict[int, bool | None] = {
    1: True,
    0: False,
    0xFF: None,
    0x74: True,
    0x66: False,
    0x54: True,
    0x46: False,
}


def encode_str(value: object, encoding: str, type_name: str) -> bytes:
    """Encode a str in the connection code set, turning codec failures into CodecDataError."""
    if not isinstance(value, str):
        raise CodecError(f"{type_name} needs a str, got {type(value).__name__}: {value!r}")
    try:
        return value.encode(encoding)
    except UnicodeEncodeError as exc:
        raise CodecDataError(
            f"{type_name} value cannot be encoded in {encoding}: {exc.reason} at {exc.start}"
        ) from None


def _decode(raw: Buffer, encoding: str, type_name: str) -> str:
    try:
        return str(raw, encoding)
    except UnicodeDecodeError as exc:
        raise CodecError(f"{type_name} bytes are not valid {encoding}: {exc.reason}") from None


# ---------------------------------------------------------------------------------------------
# CHAR / NCHAR: fixed width, blank padded, NULL = first byte 0x00
# ---------------------------------------------------------------------------------------------


def encode_char(value: object, width: int, encoding: str) -> bytes:
    """A CHAR(width)/NCHAR(width) tuple field: the bytes padded with blanks to ``width``.

    NULL is 0x00 followed by blanks (peer 3.2 ``00 20 20 …``). ``''`` is all blanks, which is
    what Informix stores for an empty CHAR. A value starting with NUL would read back as NULL
    and is refused.
    """
    if value is None:
        return b"\x00" + b" " * (width - 1)
    raw = encode_str(value, encoding, f"CHAR({width})")
    if len(raw) > width:
        raise CodecDataError(f"CHAR({width}) cannot hold {len(raw)} bytes: {value!r:.60}")
    if raw[:1] == b"\x00":
        raise CodecDataError("a CHAR value cannot start with NUL (it is the NULL marker)")
    return raw + b" " * (width - len(raw))


def decode_char(
    buf: Buffer, offset: int, width: int, encoding: str, keep_padding: bool = False
) -> str | None:
    """A CHAR/NCHAR field; trailing blanks are removed unless ``keep_padding``.

    Stripping is the default because CHAR padding is storage, not data: Informix compares CHAR
    values as if blank-padded, and every other Python driver returns them stripped.
    """
    if buf[offset] == 0:
        return None
    s = _decode(buf[offset : offset + width], encoding, "CHAR")
    return s if keep_padding else s.rstrip(" ")


# ---------------------------------------------------------------------------------------------
# VARCHAR / NVARCHAR: u8 length + bytes
# ---------------------------------------------------------------------------------------------


def encode_varchar(value: object, max_len: int, encoding: str) -> bytes:
    """A VARCHAR(max_len)/NVARCHAR field: ``u8 length`` + bytes; NULL is ``01 00``."""
    if value is None:
        return VARCHAR_NULL
    limit = min(max_len, VARCHAR_MAX) if max_len > 0 else VARCHAR_MAX
    raw = encode_str(value, encoding, f"VARCHAR({limit})")
    if len(raw) > limit:
        raise CodecDataError(f"VARCHAR({limit}) cannot hold {len(raw)} bytes: {value!r:.60}")
    if raw == b"\x00":
        raise CodecDataError("the VARCHAR value '\\x00' is indistinguishable from NULL (01 00)")
    return bytes((len(raw),)) + raw


def varchar_encoder(max_len: int, encoding: str) -> Callable[[object], bytes]:
    """``encode_varchar(value, max_len, encoding)`` for one column: a str that fits takes the
    short way (no type name built per value); anything else, and every error with its
    message, goes to ``encode_varchar``. The server encodes every VARCHAR of every row it
    sends (issue 27's CDC records)."""
    limit = min(max_len, VARCHAR_MAX) if max_len > 0 else VARCHAR_MAX

    def encode(value: object) -> bytes:
        if value.__class__ is str:
            try:
                raw = value.encode(encoding)
            except UnicodeEncodeError:
                return encode_varchar(value, max_len, encoding)
            if len(raw) <= limit and raw != b"\x00":
                return bytes((len(raw),)) + raw
        return encode_varchar(value, max_len, encoding)

    return encode


def decode_varchar(buf: Buffer, offset: int, encoding: str) -> tuple[str | None, int]:
    """Returns (value, offset past the field)."""
    n = buf[offset]
    end = offset + 1 + n
    if n == 1 and buf[offset + 1] == 0:
        return None, end
    if end > len(buf):
        raise CodecError(f"VARCHAR of {n} bytes at offset {offset} runs past the buffer")
    try:  # inline rather than _decode(): this is the per-cell path of the generic decoders
        return str(buf[offset + 1 : end], encoding), end
    except UnicodeDecodeError as exc:
        raise CodecError(f"VARCHAR bytes are not valid {encoding}: {exc.reason}") from None


# ---------------------------------------------------------------------------------------------
# LVARCHAR (UDTVAR 'lvarchar' or bare 43) and other variable UDT envelopes
# ---------------------------------------------------------------------------------------------


def encode_lvarchar(value: object, encoding: str, max_len: int | None = None) -> bytes:
    """An LVARCHAR tuple field: ``u8 indicator, u32 length, bytes`` with no pad (peer 3.2).

    A value ending in NUL is refused: readers (the JDBC driver among them, jdbc 4.3) drop one
    trailing NUL, so it would not read back unchanged.
    """
    if value is None:
        return LVARCHAR_NULL
    raw = encode_str(value, encoding, "LVARCHAR")
    if max_len is not None and len(raw) > max_len:
        raise CodecDataError(f"LVARCHAR({max_len}) cannot hold {len(raw)} bytes: {value!r:.60}")
    if raw.endswith(b"\x00"):
        raise CodecDataError("an LVARCHAR value cannot end with NUL (readers drop it)")
    return b"\x00" + U32.pack(len(raw)) + raw


def _envelope(buf: Buffer, offset: int, type_name: str) -> tuple[bool, int, int]:
    """(is_null, data start, data end) of an ``[ind][u32 len][data]`` field."""
    if offset + 5 > len(buf):
        raise CodecError(f"{type_name} header at offset {offset} runs past the buffer")
    (n,) = U32.unpack_from(buf, offset + 1)
    start = offset + 5
    end = start + n
    if end > len(buf):
        raise CodecError(f"{type_name} of {n} bytes at offset {offset} runs past the buffer")
    return buf[offset] != 0, start, end


def decode_lvarchar(buf: Buffer, offset: int, encoding: str) -> tuple[str | None, int]:
    """Returns (value, offset past the field); one trailing NUL is dropped, as JDBC does."""
    null, start, end = _envelope(buf, offset, "LVARCHAR")
    if null:
        return None, end
    stop = end - 1 if end > start and buf[end - 1] == 0 else end
    return _decode(buf[start:stop], encoding, "LVARCHAR"), end


# ---------------------------------------------------------------------------------------------
# BOOLEAN (UDTFIXED 41 'boolean' / xid 5, or bare 45)
# ---------------------------------------------------------------------------------------------


def encode_boolean(value: object) -> bytes:
    """A BOOLEAN tuple field: ``00, u32 1, 01|00``; NULL is ``01 00000000``.

    The value byte is the internal form 0x01/0x00, not 't'/'f': the JDBC driver reads any byte
    other than 1, 0 and 0xFF as "no value" (IfxBoolean.fromIfx); see docs/TYPES.md.
    """
    if value is None:
        return BOOLEAN_NULL
    if not isinstance(value, (bool, int)) or value not in (0, 1):
        raise CodecError(f"BOOLEAN needs a bool, got {type(value).__name__}: {value!r}")
    return _BOOLEAN_TRUE if value else _BOOLEAN_FALSE


def boolean_from_byte(b: int) -> bool | None:
    """Map a BOOLEAN content byte: 0x01/'t'/'T' → True, 0x00/'f'/'F' → False, 0xFF → NULL."""
    try:
        return _BOOLEAN_BYTES[b]
    except KeyError:
        raise CodecError(f"BOOLEAN content byte 0x{b:02x} is not 0/1, 'f'/'t' or 0xFF") from None


def decode_boolean(buf: Buffer, offset: int) -> tuple[bool | None, int]:
    """Returns (value, offset past the field)."""
    null, start, end = _envelope(buf, offset, "BOOLEAN")
    if null:
        return None, end
    if end - start != 1:
        raise CodecError(f"BOOLEAN at offset {offset} has length {end - start}, expected 1")
    return boolean_from_byte(buf[start]), end
