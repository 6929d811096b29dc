"""ROW, SET, MULTISET and LIST values in their binary (SENDRECV) wire form.

Layout of one value (docs/PROTOCOL.md §13; [B] ``IfxComplex.fromIfx``/``toIfx``,
``IfxComplexInput``, ``IfxComplexOutput`` of the JDBC driver; vectors captured from that
driver's own encoder in ``tests/unit/test_composite_vectors.py``)::

    i32 length of what follows
    i32 0, i16 0, 128 bytes, i16 n          header (136 bytes)
    n x 414-byte type-table entries          complextype.read_type_table
    i32 0, i32 data size, i32 flags          flags bit 31 = NULL, 0x20 = large collection
    data

Data: scalars in their tuple encodings; VARCHAR ``u8 len`` + bytes; LVARCHAR and other UDTs
``u8 flag, u32 len, bytes``; BOOLEAN six bytes ``flag, u32 1, value``; a nested ROW or
collection is ``i16 L`` + a header padded so its data starts 8-aligned + that data (``L`` 1 =
NULL). A collection whose elements are variable (VARCHAR, UDT, complex) ends with a table of
element offsets read backwards from the end and closed by -1; rows carry the same table.
Positions are relative to the start of the data section that holds them.

Every element is decoded by the same scalar codecs as tuple columns, so DECIMAL, DATETIME,
INTERVAL, BOOLEAN and LVARCHAR elements are exact.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Iterable
from dataclasses import replace
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from functools import lru_cache
from typing import Any

from ..protocol.codes import XID_BOOLEAN, XID_LVARCHAR, TypeCode
from ..protocol.columns import ColumnDesc
from . import numeric as _num
from . import temporal as _tmp
from . import text as _txt
from .complextype import (
    COMPLEX_CODES,
    HEADER_SIZE,
    ComplexType,
    parse_type_name,
    read_type_table,
    write_type_table,
)
from .compositevalues import List, Multiset, Row, Set
from .errors import CodecDataError, CodecError
from .numeric import Buffer
from .values import IntervalYM

__all__ = [
    "ComplexDecoder",
    "decode_complex",
    "encode_complex",
    "infer_type",
    "is_complex_column",
    "udt_offset",
]

_T = TypeCode
#: LVARCHAR elements inferred from ``str`` carry Informix's largest LVARCHAR length.
_LVARCHAR_BIND = 32739
_I16 = struct.Struct(">h")
_I32 = struct.Struct(">i")
_TRAILER = struct.Struct(">iii")
FLAG_NULL = -0x80000000
FLAG_LARGE = 0x20
#: Variable element types whose collections carry an offset table (IfxComplexInput's
#: constructor: isUDT(40, 41, 43, 45), isComplexType, or VARCHAR 13 -- not NVARCHAR).
_UDT_CODES = frozenset({_T.UDTVAR, _T.UDTFIXED, _T.LVARCHAR, _T.BOOLEAN})

Decoder = Callable[[Buffer, int, int], tuple[Any, int]]
Encoder = Callable[[Any, bytearray, int], None]


def udt_offset(pos: int) -> int:
    """Padding term of a nested value's header at ``pos`` (``IfxComplexOutput.getUDToffset``)."""
    r = (pos + 3) % 8
    return 3 if r == 0 else 11 - r


def _has_offset_table(node: ComplexType) -> bool:
    return node.code == _T.VARCHAR or node.code in _UDT_CODES or node.is_complex


def _row_has_offset_table(node: ComplexType) -> bool:
    return any(_has_offset_table(c) or c.code == _T.NVARCHAR for c in node.children)


# ---------------------------------------------------------------------------------------------
# Decoding
# ---------------------------------------------------------------------------------------------


def _fixed(fn: Callable[[Buffer, int], Any], width: int) -> Decoder:
    def dec(buf: Buffer, pos: int, base: int) -> tuple[Any, int]:
        return fn(buf, pos), pos + width

    return dec


@lru_cache(maxsize=512)
def _decoder(node: ComplexType, encoding: str) -> Decoder:
    """A function ``(buf, pos, base) -> (value, next pos)``; ``base`` is the start of the data
    section that holds ``pos`` (nested headers are aligned relative to it)."""
    code = node.code
    if node.is_complex:
        inner = _data_decoder(node, encoding)

        def nested(buf: Buffer, pos: int, base: int) -> tuple[Any, int]:
            (n,) = _I16.unpack_from(buf, pos)
            if n == 1:
                return None, pos + 3
            start = pos + udt_offset(pos - base) + 8
            stop = pos + 2 + n
            if n < 0 or start > stop:
                raise CodecError(f"nested {node.sql()} at offset {pos} declares {n} bytes")
            return inner(buf, start, stop), stop

        return nested
    if code in (_T.CHAR, _T.NCHAR):
        w = node.length

        def char(buf: Buffer, pos: int, base: int) -> tuple[Any, int]:
            return _txt.decode_char(buf, pos, w, encoding), pos + w

        return char
    if code == _T.SMALLINT:
        return _fixed(_num.decode_smallint, 2)
    if code in (_T.INTEGER, _T.SERIAL):
        return _fixed(_num.decode_integer, 4)
    if code in (_T.INT8, _T.SERIAL8):
        return _fixed(_num.decode_int8, 10)
    if code in (_T.BIGINT, _T.BIGSERIAL):
        return _fixed(_num.decode_bigint, 8)
    if code == _T.FLOAT:
        return _fixed(_num.decode_float, 8)
    if code == _T.SMALLFLOAT:
        return _fixed(_num.decode_smallfloat, 4)
    if code == _T.DATE:
        return _fixed(_tmp.decode_date, 4)
    if code in (_T.DECIMAL, _T.MONEY):
        w = _num.decimal_width(node.length)
        scale = node.length & 0xFF

        def dec(buf: Buffer, pos: int, base: int) -> tuple[Any, int]:
            return _num.decode_decimal(buf, pos, w, scale), pos + w

        return dec
    if code == _T.DATETIME:
        return _fixed(_tmp.datetime_decoder(node.length), _tmp.qualifier_width(node.length))
    if code == _T.INTERVAL:
        return _fixed(_tmp.interval_decoder(node.length), _tmp.qualifier_width(node.length))
    if code in (_T.VARCHAR, _T.NVARCHAR):
        return lambda buf, pos, base: _txt.decode_varchar(buf, pos, encoding)
    if node.is_boolean:
        return _decode_boolean
    if node.is_lvarchar:
        return lambda buf, pos, base: _txt.decode_lvarchar(buf, pos, encoding)
    if code in _UDT_CODES:
        fixed_null = node.length if code == _T.UDTFIXED else 0

        def udt(buf: Buffer, pos: int, base: int) -> tuple[Any, int]:
            (n,) = _num.U32.unpack_from(buf, pos + 1)
            if buf[pos]:
                return None, pos + 5 + (fixed_null or n)
            return bytes(buf[pos + 5 : pos + 5 + n]), pos + 5 + n

        return udt
    raise CodecError(f"no decoder for {node.sql()} inside a ROW or collection")


def _decode_boolean(buf: Buffer, pos: int, base: int) -> tuple[bool | None, int]:
    """Six bytes: ``IfxComplexInput.readBoolean`` reads 6 whatever the flag says."""
    if buf[pos]:
        return None, pos + 6
    return _txt.boolean_from_byte(buf[pos + 5]), pos + 6


_STRUCT_CODES: dict[int, tuple[str, int, int]] = {
    _T.SMALLINT: ("h", 2, _num.SMALLINT_NULL), _T.INTEGER: ("i", 4, _num.INTEGER_NULL),
    _T.SERIAL: ("i", 4, _num.INTEGER_NULL), _T.BIGINT: ("q", 8, _num.BIGINT_NULL),
    _T.BIGSERIAL: ("q", 8, _num.BIGINT_NULL),
}


@lru_cache(maxsize=64)
def _struct_of(fmt: str, n: int) -> struct.Struct:
    return struct.Struct(f">{n}{fmt}")


@lru_cache(maxsize=512)
def _data_decoder(node: ComplexType, encoding: str) -> Callable[[Buffer, int, int], Any]:
    """``(buf, start, stop) -> value`` for the data section of a ROW or collection."""
    if node.code == _T.ROW:
        fields = [(_decoder(c, encoding), c.field) for c in node.children]
        names = tuple(c.field for c in node.children)
        type_name = node.type_name if node.named else ""

        def row(buf: Buffer, start: int, stop: int) -> Row:
            pos = start
            values = []
            for dec, _name in fields:
                v, pos = dec(buf, pos, start)
                values.append(v)
            if pos > stop:
                raise CodecError(f"{node.sql()} fields run {pos - stop} bytes past the value")
            return Row(values, names, type_name)

        return row
    elem = node.element
    wrap = _WRAPPERS[node.code]
    dec = _decoder(elem, encoding)
    if _has_offset_table(elem):

        def by_offsets(buf: Buffer, start: int, stop: int) -> Any:
            offsets = []
            p = stop - 4
            while p >= start:
                (o,) = _I32.unpack_from(buf, p)
                if o == -1:
                    break
                offsets.append(o)
                p -= 4
            else:
                raise CodecError(f"{node.sql()} has no end of its element offset table")
            values = []
            for o in offsets:
                if not 0 <= o < p - start + 4:
                    raise CodecError(f"{node.sql()} element offset {o} is outside the value")
                values.append(dec(buf, start + o, start)[0])
            return wrap(values, node)

        return by_offsets
    packed = _STRUCT_CODES.get(elem.code)
    if packed is not None:
        fmt, width, null = packed

        def unpacked(buf: Buffer, start: int, stop: int) -> Any:
            n, rest = divmod(stop - start, width)
            if rest:
                raise CodecError(f"{node.sql()} data of {stop - start} bytes is not whole elements")
            values = _struct_of(fmt, n).unpack_from(buf, start)
            if null in values:
                values = tuple(None if v == null else v for v in values)
            return wrap(values, node)

        return unpacked

    def sequential(buf: Buffer, start: int, stop: int) -> Any:
        pos = start
        values = []
        while pos < stop:
            v, pos = dec(buf, pos, start)
            values.append(v)
        if pos != stop:
            raise CodecError(f"{node.sql()} elements run {pos - stop} bytes past the value")
        return wrap(values, node)

    return sequential


def _make_set(values: Iterable[Any], node: ComplexType) -> Set:
    try:
        return Set(values, node.element.sql())
    except TypeError:
        raise CodecDataError(
            f"{node.sql()}: an element is not hashable, so it cannot be held in a Set"
        ) from None


_WRAPPERS: dict[int, Callable[[Iterable[Any], ComplexType], Any]] = {
    _T.SET: _make_set,
    _T.MULTISET: lambda v, n: Multiset(v, n.element.sql()),
    _T.LIST: lambda v, n: List(v, n.element.sql()),
}


def is_complex_column(col: ColumnDesc) -> bool:
    """A described column holding ROW or collection values (types 19-22, named ROW flag)."""
    return col.base in COMPLEX_CODES


class ComplexDecoder:
    """Decodes whole complex values of one column, reusing the parsed type table while its
    bytes repeat (they are the same for every row of a column). The cache is one tuple swapped
    atomically, so decoders shared between threads never pair a table with another's data."""

    __slots__ = ("_encoding", "_state")

    def __init__(self, encoding: str) -> None:
        self._encoding = encoding
        self._state: tuple[bytes, Callable[[Buffer, int, int], Any]] | None = None

    def __call__(self, buf: Buffer, offset: int, end: int) -> Any:
        """Decode the value whose i32 length sits at ``offset``; ``end`` bounds it."""
        if offset + 4 + HEADER_SIZE > end:
            raise CodecError(f"complex value at offset {offset} is shorter than its header")
        (count,) = _I16.unpack_from(buf, offset + 2 + HEADER_SIZE)
        table_end = offset + 4 + HEADER_SIZE + 414 * count
        if table_end + 12 > end or count < 1:
            raise CodecError(f"complex value at offset {offset}: type table of {count} entries "
                             "does not fit")
        table = buf[offset + 4 : table_end]
        if type(table) is memoryview:  # comparing a memoryview is element by element: slow
            table = table.tobytes()
        state = self._state
        if state is None or table != state[0]:
            node, _ = read_type_table(buf, offset + 4, end, self._encoding)
            state = (bytes(table), _data_decoder(node, self._encoding))
            self._state = state
        _zero, size, flags = _TRAILER.unpack_from(buf, table_end)
        start = table_end + 12
        if flags & FLAG_NULL:
            return None
        if size < 0 or start + size > end:
            raise CodecError(f"complex value at offset {offset}: data of {size} bytes runs past "
                             "the value")
        return state[1](buf, start, start + size)


def decode_complex(buf: Buffer, offset: int, end: int, encoding: str = "iso-8859-1") -> Any:
    """Decode one complex value (i32 length at ``offset``); see ComplexDecoder for columns."""
    return ComplexDecoder(encoding)(buf, offset, end)


# ---------------------------------------------------------------------------------------------
# Encoding
# ---------------------------------------------------------------------------------------------


@lru_cache(maxsize=512)
def _encoder(node: ComplexType, encoding: str) -> Encoder:
    """A function ``(value, out, base)`` appending the element/field encoding to ``out``;
    ``base`` is where the enclosing data section starts in ``out``."""
    if node.is_complex:
        inner = _data_encoder(node, encoding)

        def nested(value: Any, out: bytearray, base: int) -> None:
            if value is None:
                out += b"\x00\x01\x01"
                return
            pos = len(out) - base
            off = udt_offset(pos)
            data = bytearray()
            inner(value, data)
            header = bytearray(off + 8)
            header[0:2] = _I16.pack(len(data) + off + 8 - 2)
            header[off : off + 4] = _I32.pack(1)
            out += header
            out += data

        return nested
    simple = _scalar_encoder(node, encoding)

    def scalar(value: Any, out: bytearray, base: int) -> None:
        out += simple(value)

    return scalar


def _scalar_encoder(node: ComplexType, encoding: str) -> Callable[[Any], bytes]:
    code = node.code
    n = node.length
    if code in (_T.CHAR, _T.NCHAR):
        return lambda v: _txt.encode_char(v, n, encoding)
    fixed_encoders: dict[int, Callable[[Any], bytes]] = {
        _T.SMALLINT: _num.encode_smallint, _T.INTEGER: _num.encode_integer,
        _T.SERIAL: _num.encode_integer, _T.INT8: _num.encode_int8, _T.SERIAL8: _num.encode_int8,
        _T.BIGINT: _num.encode_bigint, _T.BIGSERIAL: _num.encode_bigint,
        _T.FLOAT: _num.encode_float, _T.SMALLFLOAT: _num.encode_smallfloat,
        _T.DATE: _tmp.encode_date,
    }
    fixed = fixed_encoders.get(code)
    if fixed is not None:
        return fixed
    if code in (_T.DECIMAL, _T.MONEY):
        return lambda v: _num.encode_decimal(v, n)
    if code == _T.DATETIME:
        return lambda v: _tmp.encode_datetime(v, n)
    if code == _T.INTERVAL:
        return lambda v: _tmp.encode_interval(v, n)
    if code in (_T.VARCHAR, _T.NVARCHAR):
        return lambda v: _txt.encode_varchar(v, n & 0xFF, encoding)
    if node.is_boolean:
        return _encode_boolean
    if node.is_lvarchar:
        return lambda v: _txt.encode_lvarchar(v, encoding, n or None)
    if code in _UDT_CODES:
        pad = b"\x00" * (n if code == _T.UDTFIXED else 0)

        def udt(v: Any) -> bytes:
            if v is None:
                return b"\x01\x00\x00\x00\x00" + pad
            raw = bytes(v)
            return b"\x00" + _num.U32.pack(len(raw)) + raw

        return udt
    raise CodecError(f"no encoder for {node.sql()} inside a ROW or collection")


def _encode_boolean(value: Any) -> bytes:
    if value is None:
        return b"\x01\x00\x00\x00\x00\x00"
    return _txt.encode_boolean(value)


def _check_value(node: ComplexType, value: Any) -> None:
    if node.code == _T.ROW:
        if not isinstance(value, (tuple, list)) or isinstance(value, (Set, List, Multiset)):
            raise CodecDataError(f"{node.sql()} needs a Row or tuple, got "
                                 f"{type(value).__name__}")
        if len(value) != len(node.children):
            raise CodecDataError(f"{node.sql()} has {len(node.children)} fields, the value has "
                                 f"{len(value)}")
    elif isinstance(value, (str, bytes, bytearray, Row, dict)) or not isinstance(
        value, Iterable
    ):
        raise CodecDataError(f"{node.sql()} needs a collection, got {type(value).__name__}")


@lru_cache(maxsize=512)
def _data_encoder(node: ComplexType, encoding: str) -> Callable[[Any, bytearray], None]:
    """``(value, out)`` appending the data section of a ROW or collection to an empty ``out``."""
    if node.code == _T.ROW:
        fields = [(_encoder(c, encoding), c) for c in node.children]
        table = _row_has_offset_table(node)

        def row(value: Any, out: bytearray) -> None:
            _check_value(node, value)
            offsets = []
            for (enc, child), v in zip(fields, value, strict=True):
                if v is None and child.notnull:
                    raise CodecDataError(f"field {child.field!r} of {node.sql()} is NOT NULL")
                offsets.append(len(out))
                try:
                    enc(v, out, 0)
                except CodecError as exc:
                    raise type(exc)(f"field {child.field!r} of {node.sql()}: {exc}") from None
            if table:
                _offset_table(out, offsets)

        return row
    elem = node.element
    enc = _encoder(elem, encoding)
    table = _has_offset_table(elem)

    def collection(value: Any, out: bytearray) -> None:
        _check_value(node, value)
        offsets = []
        for i, v in enumerate(value):
            if v is None:
                raise CodecDataError(f"element {i} of {node.sql()} is NULL; collection elements "
                                     "are NOT NULL")
            offsets.append(len(out))
            try:
                enc(v, out, 0)
            except CodecError as exc:
                raise type(exc)(f"element {i} of {node.sql()}: {exc}") from None
        if table:
            _offset_table(out, offsets)

    return collection


def _offset_table(out: bytearray, offsets: list[int]) -> None:
    out += _I32.pack(-1)
    for o in reversed(offsets):
        out += _I32.pack(o)


def encode_complex(node: ComplexType, value: Any, encoding: str = "iso-8859-1") -> bytes:
    """One whole value: i32 length, header, type table, trailer, data. ``None`` is NULL."""
    table = write_type_table(node, encoding)
    data = bytearray()
    if value is None:
        flags = FLAG_NULL
    else:
        _data_encoder(node, encoding)(value, data)
        flags = 1
    body = table + _TRAILER.pack(0, len(data), flags) + data
    return _I32.pack(len(body)) + body


# ---------------------------------------------------------------------------------------------
# Type inference for binds
# ---------------------------------------------------------------------------------------------


def infer_type(value: Any, type_text: str = "") -> ComplexType:
    """The complex type to bind ``value`` as: from ``type_text`` or the wrapper's declared
    element type, else from the Python values (docs/TYPES.md §8)."""
    if type_text:
        return parse_type_name(type_text)
    return _settle(_infer(value))


def _infer(value: Any) -> ComplexType:
    """infer_type before NULL-only fields are settled (so rows can be widened first)."""
    if isinstance(value, Row):
        fields = value.fields or tuple(f"f{i + 1}" for i in range(len(value)))
        return ComplexType(
            _T.ROW, named=bool(value.type_name), type_name=value.type_name,
            children=tuple(_infer_field(v, n) for n, v in zip(fields, value, strict=True)))
    kind = {Set: _T.SET, Multiset: _T.MULTISET, List: _T.LIST}.get(type(value))
    if kind is None:
        for cls, code in ((Set, _T.SET), (Multiset, _T.MULTISET), (List, _T.LIST)):
            if isinstance(value, cls):
                kind = code
                break
    if kind is None:
        raise CodecDataError(f"cannot bind {type(value).__name__} as a collection; wrap it in "
                             "ifxwire.Set, ifxwire.Multiset or ifxwire.List")
    declared = getattr(value, "element_type", "")
    if declared:
        elem = parse_type_name(declared)
    else:
        items = list(value)
        if not items:
            raise CodecDataError(f"an empty {type(value).__name__} needs its element_type to "
                                 "be bound")
        for i, v in enumerate(items):
            if v is None:
                raise CodecDataError(f"element {i} is NULL; collection elements are NOT NULL")
        elem = _infer_scalar(items[0], "element 0")
        for i, v in enumerate(items[1:], 1):
            other = _infer_scalar(v, f"element {i}")
            elem = _widen(elem, other, i)
    return ComplexType(kind, children=(replace(elem, notnull=True),))


def _settle(node: ComplexType) -> ComplexType:
    """Fields known only from NULLs are sent as LVARCHAR (the server converts)."""
    if node.code == _T.NULL:
        return replace(node, code=_T.UDTVAR, length=_LVARCHAR_BIND, xid=XID_LVARCHAR,
                       type_name="lvarchar")
    if node.children:
        return replace(node, children=tuple(_settle(c) for c in node.children))
    return node


def _infer_field(v: Any, name: str) -> ComplexType:
    """A ROW field's bind type; a NULL field is typed by other values or sent as LVARCHAR."""
    if v is None:
        return ComplexType(_T.NULL, field=name)
    return _infer_scalar(v, f"field {name!r}").with_field(name)


def _infer_scalar(v: Any, where: str) -> ComplexType:
    if isinstance(v, bool):
        return ComplexType(_T.UDTFIXED, 1, xid=XID_BOOLEAN, type_name="boolean")
    if isinstance(v, int):
        return ComplexType(_T.INTEGER, 4) if -0x7FFFFFFF <= v <= 0x7FFFFFFF else ComplexType(
            _T.BIGINT, 8)
    if isinstance(v, float):
        return ComplexType(_T.FLOAT, 8)
    if isinstance(v, Decimal):
        return ComplexType(_T.DECIMAL, 32 << 8 | _num.DECIMAL_FLOATING_SCALE)
    if isinstance(v, str):
        return ComplexType(_T.UDTVAR, _LVARCHAR_BIND, xid=XID_LVARCHAR, type_name="lvarchar")
    if isinstance(v, datetime):
        return ComplexType(_T.DATETIME, _tmp.DATETIME_BIND_QUALIFIER)
    if isinstance(v, date):
        return ComplexType(_T.DATE, 4)
    if isinstance(v, time):
        return ComplexType(_T.DATETIME, _tmp.TIME_BIND_QUALIFIER)
    if isinstance(v, timedelta):
        return ComplexType(_T.INTERVAL, _tmp.INTERVAL_DF_BIND_QUALIFIER)
    if isinstance(v, IntervalYM):
        return ComplexType(_T.INTERVAL, _tmp.INTERVAL_YM_BIND_QUALIFIER)
    if isinstance(v, (Row, Set, List, Multiset)):
        return _infer(v)
    raise CodecDataError(f"{where}: cannot infer an Informix type for {type(v).__name__} "
                         f"{v!r:.40}; give the wrapper an element_type")


def _widen(a: ComplexType, b: ComplexType, i: int) -> ComplexType:
    if a == b:
        return a
    if a.code == _T.NULL or b.code == _T.NULL:
        return replace(b if a.code == _T.NULL else a, field=a.field)
    if a.code == b.code == _T.ROW and [c.field for c in a.children] == [
        c.field for c in b.children
    ]:
        return replace(a, children=tuple(
            _widen(x, y, i) for x, y in zip(a.children, b.children, strict=True)))
    if {a.code, b.code} <= {_T.INTEGER, _T.BIGINT}:
        return a if a.code == _T.BIGINT else b
    raise CodecDataError(f"element {i} is {b.sql()} but element 0 is {a.sql()}; a collection "
                         "holds one type (give the wrapper an element_type)")



# ---------------------------------------------------------------------------------------------
# Fast path: collections of fixed-width integers (the common LIST(INTEGER NOT NULL) case)
# ---------------------------------------------------------------------------------------------

_SIZE_FLAGS = struct.Struct(">ii")


def fixed_collection_spec(col: ColumnDesc, encoding: str) -> tuple[Any, ...] | None:
    """``(table bytes, width, struct format, NULL sentinel, wrapper class, element text)`` for
    a SET/MULTISET/LIST of SMALLINT/INTEGER/BIGINT whose DESCRIBE names its type, or None.

    The decoders compare each value's type table with the bytes this type produces and take
    the fast path only when they are equal; anything else (another server's table bytes,
    a NULL element) goes through ComplexDecoder, so the result never depends on the guess.
    """
    try:
        node = parse_type_name(col.type_name) if col.type_name else None
    except CodecError:
        return None
    if node is None or not node.is_collection:
        return None
    packed = _STRUCT_CODES.get(node.element.code)
    if packed is None:
        return None
    fmt, width, null = packed
    wrappers: dict[int, type] = {_T.SET: Set, _T.MULTISET: Multiset, _T.LIST: List}
    wrapper = wrappers[node.code]
    return (write_type_table(node, encoding), width, fmt, null, wrapper, node.element.sql())


_LIST_NEW = list.__new__
_LIST_INIT = list.__init__


def fast_collection_decoder(
    spec: tuple[Any, ...], fallback: Callable[[Buffer, int, int], Any]
) -> Callable[[Buffer, int, int], Any]:
    """``(buf, offset, length) -> value`` for the column ``spec`` describes (see above).

    Called once a row, so its own steps count: the ~1 KB type table is compared in place
    (``startswith``, no copy), the struct for an element count is a dict lookup, and a List
    is filled by list's in-place concatenation rather than a call of ``__init__``. callgrind,
    a row of a LIST of 10 INTEGERs through the pure tuple loop: 17 847 → 16 834 instructions.
    """
    table, width, fmt, null, wrapper, etext = spec
    tl = len(table)
    need = tl + 12
    at_size, at_data = 8 + tl, 16 + tl  # after the table: size and flags, then the elements
    is_list = wrapper is not Set
    structs: dict[int, struct.Struct] = {}  # per element count: a dict lookup, not a call

    def decode(buf: Buffer, o: int, n: int) -> Any:
        if type(buf) is memoryview:  # no startswith; comparing one is element by element
            same = buf[o + 4 : o + 4 + tl].tobytes() == table
        else:  # compared in place: no copy of the ~1 KB table per value
            same = buf.startswith(table, o + 4)
        if n >= need and same:
            size, flags = _SIZE_FLAGS.unpack_from(buf, o + at_size)
            if flags & FLAG_NULL:
                return None
            count, rest = divmod(size, width)
            if not rest and 0 <= size <= n - need:  # (a negative size: the general path)
                st = structs.get(count)
                if st is None:
                    st = _struct_of(fmt, count)
                    if len(structs) < 256:
                        structs[count] = st
                values = st.unpack_from(buf, o + at_data)
                if null not in values:
                    if is_list:
                        obj = _LIST_NEW(wrapper)
                        obj += values  # list's in-place concatenation: no call of __init__
                        obj.element_type = etext
                        return obj
                    return wrapper(values, etext)
        return fallback(buf, o, o + 4 + n)

    return decode
