"""Typed values in SQ_BIND item form: fast-path return values and typed arguments.

``types/bind.py`` picks the bind type from the Python value. A fast-path reply (SQ_FPROUTINE)
must carry each return value as the routine declares it, and a UDT argument (a smart-LOB
locator, an ``ifx_lo_spec``) must carry its type name; this module encodes a value for a given
type, in the same item layout (``i16 type, [owner, name], i16 indicator, i16 prec, data``).
``bind.decode_bind_values`` reads them back. Data forms per type are what JDBC's
``IfxSqli.receiveFastPath`` reads (bytecode): CHAR/VARCHAR/DECIMAL/DATETIME/INTERVAL with a u16
length, LVARCHAR and UDTs with a u32 length, the fixed types at their width.
"""

from __future__ import annotations

from struct import Struct

from ..protocol.codes import NAMED_IN_FAST_PATH, TypeCode
from ..protocol.columns import ColumnDesc
from . import numeric as _num
from . import temporal as _tmp
from . import text as _txt
from .errors import CodecNotSupported
from .numeric import U16, U32

__all__ = ["encode_typed_item", "udt_desc"]

_T = TypeCode
_HEAD = Struct(">h")
_IND_PREC = Struct(">hh")
_INTEGER_PREC = 0x0A00
_BIGINT_PREC = 0x1300


def _charstr(data: bytes) -> bytes:
    return U16.pack(len(data)) + data + (b"\x00" if len(data) & 1 else b"")


def udt_desc(type_name: str, width: int = 0, owner: str = "informix") -> ColumnDesc:
    """A fixed opaque type (UDTFIXED, 41) by name: ``blob``, ``clob``, ``ifx_lo_spec`` …"""
    return ColumnDesc("", int(_T.UDTFIXED), width, owner=owner, type_name=type_name)


def _data(value: object, col: ColumnDesc, encoding: str) -> tuple[int, bytes]:
    """(prec, data) of a non-NULL value of type ``col``."""
    base = col.base
    if base in (_T.CHAR, _T.NCHAR, _T.VARCHAR, _T.NVARCHAR):
        raw = _txt.encode_str(value, encoding, "CHAR")
        return 0, U16.pack(len(raw)) + raw
    if base == _T.SMALLINT:
        return 0, _num.encode_smallint(value)
    if base in (_T.INTEGER, _T.SERIAL):
        return _INTEGER_PREC, _num.encode_integer(value)
    if base in (_T.BIGINT, _T.BIGSERIAL):
        return _BIGINT_PREC, _num.encode_bigint(value)
    if base in (_T.INT8, _T.SERIAL8):
        return _BIGINT_PREC, _num.encode_int8(value)
    if base == _T.FLOAT:
        return 0, _num.encode_float(value)
    if base == _T.SMALLFLOAT:
        return 0, _num.encode_smallfloat(value)
    if base == _T.DATE:
        return 0, _tmp.encode_date(value)
    if base in (_T.DECIMAL, _T.MONEY):
        raw = _num.encode_decimal(value, col.enclen)
        return col.enclen, U16.pack(len(raw)) + raw
    if base == _T.DATETIME:
        raw = _tmp.encode_datetime(value, col.enclen)
        return col.enclen, U16.pack(len(raw)) + raw
    if base == _T.INTERVAL:
        raw = _tmp.encode_interval(value, col.enclen)
        return col.enclen, U16.pack(len(raw)) + raw
    name = col.type_name.lower()
    if base == _T.LVARCHAR or (base == _T.UDTVAR and name == "lvarchar"):
        raw = _txt.encode_str(value, encoding, "LVARCHAR")
        return 0, U32.pack(len(raw)) + raw
    if base == _T.BOOLEAN or (base == _T.UDTFIXED and name == "boolean"):
        return 0, U32.pack(1) + (b"\x01" if value else b"\x00")
    if base in (_T.UDTFIXED, _T.UDTVAR) and isinstance(value, (bytes, bytearray, memoryview)):
        return 0, U32.pack(len(value)) + bytes(value)
    raise CodecNotSupported(f"no fast-path encoding for type {col.type} ({col.type_name})")


def encode_typed_item(value: object, col: ColumnDesc, encoding: str) -> bytes:
    """One bind-format item of type ``col`` (its flags dropped), NULL when ``value`` is None.

    BOOLEAN and LVARCHAR go as 45 and 43 with empty names; UDTs with their owner and name;
    SERIAL8 with empty names (the fast-path rule, docs/PROTOCOL.md §11). For SQ_FPROUTINE
    only: an SQ_BIND item of type 18 has no names.
    """
    base = col.base
    name = col.type_name.lower()
    if base == _T.UDTFIXED and name == "boolean":
        base, owner, tname = int(_T.BOOLEAN), "", ""
    elif base == _T.UDTVAR and name == "lvarchar":
        base, owner, tname = int(_T.LVARCHAR), "", ""
    else:
        owner, tname = col.owner, col.type_name
    head = _HEAD.pack(base)
    # JDBC's receiveFastPath reads the names for every type from SERIAL8 (18) up but BIGINT and
    # BIGSERIAL (bipush 18; if_icmplt): one type more than SQ_BIND's rule (> 18).
    if base in NAMED_IN_FAST_PATH:
        head += _charstr(owner.encode(encoding)) + _charstr(tname.encode(encoding))
    if value is None:
        return head + _IND_PREC.pack(-1, 0)
    prec, data = _data(value, ColumnDesc(col.name, base, col.enclen, col.xid, owner, tname),
                       encoding)
    return head + _IND_PREC.pack(0, prec) + data + (b"\x00" if len(data) & 1 else b"")
