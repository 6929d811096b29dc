"""The text form of numeric collections: ``LIST{10,20,30}`` in the UDT envelope.

A server sends a ROW/collection column in its text form when the client sends no SQ_RET_TYPE
(docs/PROTOCOL.md §13, witnessed by informix-driver against 12.10/14.10/15). That form is ~15x
smaller than the binary one for a LIST of 10 INTEGERs (no ~964-byte type table per value), so
``cursor.collections = "text"`` asks for it (issue 25). Only collections whose elements are
numbers use it: the text of a number is unambiguous, while the text rules for strings, dates
and nested values are not witnessed (the binary form stays for them, ``text_form_applies``).

The decoders give the very values the binary path gives (``List``/``Multiset``/``Set`` with
the element type's SQL text; int, float or Decimal elements), and raise CodecDataError naming
the column for any text that is not such a literal: never a wrong value.
"""

from __future__ import annotations

import importlib
import re
import struct
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from decimal import Decimal, InvalidOperation
from typing import Any

from .. import _accel
from ..protocol.codes import TypeCode as _T
from ..protocol.columns import ColumnDesc
from .complextype import COLLECTION_CODES, COMPLEX_CODES, ComplexType, parse_type_name
from .compositevalues import List, Multiset, Set
from .errors import CodecDataError, CodecError

__all__ = ["NUMERIC_ELEMENT_CODES", "TextFormColumn", "envelope_text_decoder",
           "text_collection_decoder", "text_form_applies", "text_form_columns"]


@dataclass(frozen=True, slots=True)
class TextFormColumn(ColumnDesc):
    """A numeric collection column fetched in the text form: a class of its own, so the row
    decoders (and their caches) tell it from the binary form, and the Arrow fetch takes the
    row path for it (client/arrowfetch.py)."""


#: Element types whose text is a plain number (SMALLINT, INTEGER, INT8, BIGINT, SMALLFLOAT,
#: FLOAT, DECIMAL, MONEY).
NUMERIC_ELEMENT_CODES = frozenset({_T.SMALLINT, _T.INTEGER, _T.INT8, _T.BIGINT,
                                   _T.SMALLFLOAT, _T.FLOAT, _T.DECIMAL, _T.MONEY})
_INTEGERS = frozenset({_T.SMALLINT, _T.INTEGER, _T.INT8, _T.BIGINT})
_FLOATS = frozenset({_T.SMALLFLOAT, _T.FLOAT})
#: The items of a collection's text as the server spells them (no blanks, no NULL): the
#: fast path; anything else goes through the item-by-item parse.
_U32 = struct.Struct(">I")
_INT_ITEMS = re.compile(rb"(?:-?[0-9]+(?:,-?[0-9]+)*)?")
_NUMBER_ITEMS = re.compile(rb"(?:-?[0-9]+(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?"
                           rb"(?:,-?[0-9]+(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?)*)?")
_WORDS: dict[int, str] = {_T.SET: "SET", _T.MULTISET: "MULTISET", _T.LIST: "LIST"}


def column_node(col: ColumnDesc) -> ComplexType | None:
    """The column's type tree: the server's ``detail``, else parsed from DESCRIBE's name."""
    if isinstance(col.detail, ComplexType):
        return col.detail
    try:
        return parse_type_name(col.type_name) if col.type_name else None
    except CodecError:
        return None


def _numeric_collection(node: object) -> bool:
    return (isinstance(node, ComplexType) and node.code in COLLECTION_CODES
            and len(node.children) == 1 and node.element.code in NUMERIC_ELEMENT_CODES
            and not node.element.distinct)


def text_form_applies(columns: Sequence[ColumnDesc]) -> bool:
    """Whether a result may be fetched in the text form: it has ROW/collection columns and
    every one of them is a SET/MULTISET/LIST of a numeric type. Any other (a ROW, a string,
    date or nested collection) keeps the whole statement in the binary form, since the
    SQ_RET_TYPE that asks for it is per statement."""
    complex_cols = [c for c in columns if c.base in COMPLEX_CODES]
    return bool(complex_cols) and all(_numeric_collection(column_node(c)) for c in complex_cols)


def text_form_columns(columns: Sequence[ColumnDesc]) -> list[ColumnDesc]:
    """The columns with each collection one made a TextFormColumn (``text_form_applies``)."""
    return [TextFormColumn(**{f.name: getattr(c, f.name) for f in fields(ColumnDesc)})
            if c.base in COMPLEX_CODES else c for c in columns]


def _element_parser(code: int) -> Callable[[str], Any]:
    if code in _INTEGERS:
        return int
    if code in _FLOATS:
        return float
    return Decimal


def text_collection_decoder(col: ColumnDesc, encoding: str) -> Callable[[bytes], Any]:
    """``text bytes -> List/Multiset/Set`` for a numeric collection column (the envelope's
    data, NULL handled by the caller)."""
    node = column_node(col)
    assert node is not None and _numeric_collection(node)
    word = _WORDS[node.code].encode("ascii")
    head = len(word) + 1
    parse = _element_parser(node.element.code)
    etext = node.element.sql()
    is_int = node.element.code in _INTEGERS
    wrap: Callable[[list[Any], str], Any] = (
        Set if node.code == _T.SET else Multiset if node.code == _T.MULTISET else List)
    name = col.name

    def bad(data: bytes, why: str) -> CodecDataError:
        return CodecDataError(f"column {name!r} ({node.sql()}): {why} in its text form "
                              f"{bytes(data[:60])!r}")

    opener = word + b"{"
    fast = _INT_ITEMS if is_int else _NUMBER_ITEMS

    # int() and float() take bytes; they also take "1_0", and float() "inf"/"nan", which
    # are no SQL numbers: those (and anything else they refuse) go the general way
    direct = is_int or node.element.code in _FLOATS
    from_bytes: Callable[[bytes], Any] = int if is_int else float
    odd = (b"_",) if is_int else (b"_", b"n", b"N")

    def decode(data: bytes) -> Any:
        # the server's own spelling (no NULL): one split, int/float straight from the bytes
        text = data if type(data) is bytes else bytes(data)
        if text.startswith(opener) and text.endswith(b"}"):
            inner = text[head:-1]
            if direct:
                if inner and not any(c in inner for c in odd):
                    try:
                        return wrap(list(map(from_bytes, inner.split(b","))), etext)
                    except ValueError:
                        pass
            elif fast.fullmatch(inner):
                return wrap(list(map(parse, inner.decode("ascii").split(","))) if inner else [],
                            etext)
        return general(data)

    def general(data: bytes) -> Any:
        text = bytes(data).strip()
        if text[:head].upper() != word + b"{" or text[-1:] != b"}":
            raise bad(data, f"not a {word.decode()}{{...}} literal")
        inner = text[head:-1].strip()
        if not inner:
            return wrap([], etext)
        values: list[Any] = []
        for raw in inner.split(b","):
            item = raw.strip()
            if item.upper() == b"NULL":
                values.append(None)
                continue
            try:
                s = item.decode("ascii")
                if is_int and not s.lstrip("+-").isdigit():
                    raise ValueError(s)
                values.append(parse(s))
            except (ValueError, UnicodeDecodeError, InvalidOperation):
                raise bad(data, f"element {item[:30]!r} is no {etext}") from None
        try:
            return wrap(values, etext)
        except TypeError:
            raise bad(data, "an element cannot be held in a Set") from None

    return decode


def _c_text_value() -> Callable[..., tuple[Any, int]] | None:
    """``_arrowdec.text_value`` when the accelerator is in use (not under IFXWIRE_PURE=1)."""
    if not _accel.accelerated:
        return None
    try:
        mod = importlib.import_module("ifxwire._arrowdec")
    except ImportError:
        return None
    fn: Callable[..., tuple[Any, int]] | None = getattr(mod, "text_value", None)
    return fn


def envelope_text_decoder(col: ColumnDesc, encoding: str
                          ) -> Callable[[Any, int], tuple[Any, int]]:
    """``(buf, off) -> (value, next off)`` of the UDT envelope ``u8 flag, u32 len, text``
    (flag 1: the NULL collection, its length still present, docs/PROTOCOL.md §13).

    Accelerated, integer and float elements are read by ``_arrowdec.text_value`` (arrow14:
    fetchall's cost of the text form was ~12x the 10 INTEGER columns', most of it this
    reader's Python); it answers NotImplemented for anything but the server's own spelling,
    which the Python reader below then gives, or refuses with its typed error."""
    decode = text_collection_decoder(col, encoding)
    node = column_node(col)
    c_text = _c_text_value()
    if c_text is not None and node is not None and (
            node.element.code in _INTEGERS or node.element.code in _FLOATS):
        opener = _WORDS[node.code].encode("ascii") + b"{"
        ek = 0 if node.element.code in _INTEGERS else 1
        cls = Set if node.code == _T.SET else Multiset if node.code == _T.MULTISET else List
        etext = node.element.sql()
        python = _envelope(col, decode)
        not_mine = NotImplemented

        def c_envelope(buf: Any, off: int) -> tuple[Any, int]:
            got = c_text(buf, off, opener, ek, cls, etext)
            if got[0] is not_mine:
                return python(buf, off)
            return got

        return c_envelope
    return _envelope(col, decode)


def _envelope(col: ColumnDesc, decode: Callable[[bytes], Any]
              ) -> Callable[[Any, int], tuple[Any, int]]:
    def envelope(buf: Any, off: int) -> tuple[Any, int]:
        flag = buf[off]
        n, = _U32.unpack_from(buf, off + 1)
        end = off + 5 + n
        if end > len(buf):
            raise CodecDataError(f"column {col.name!r}: text form runs past the tuple")
        if flag & 1:
            return None, end
        return decode(buf[off + 5:end]), end

    return envelope
