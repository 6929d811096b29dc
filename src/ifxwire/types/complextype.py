"""The type of a ROW or collection value: a tree, its wire type table, and its SQL text.

A complex value on the wire (SENDRECV form, docs/PROTOCOL.md §13) starts with a table that
describes its whole type, one 414-byte entry per node, flattened in pre-order with level
numbers (``IfxComplex.fromIfx`` / ``IfxComplexOutput.toIfx`` in the JDBC driver, [B]). The
same tree is what ``sysattrtypes`` stores (seqno, levelno, parent_no, fieldname, fieldno, type,
length, xtd_type_id), and what a type text such as ``list(row(a integer, b varchar(10)) not
null)`` spells, so this module converts between the three.
"""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass, replace

from ..protocol.codes import (
    TYPE_BASE_MASK,
    TYPE_DISTINCT,
    TYPE_NAMEDROW,
    TYPE_NOTNULL,
    XID_BOOLEAN,
    XID_LVARCHAR,
    TypeCode,
)
from . import numeric as _num
from . import temporal as _tmp
from .errors import CodecError

__all__ = [
    "COLLECTION_CODES",
    "COMPLEX_CODES",
    "ENTRY_SIZE",
    "HEADER_SIZE",
    "ComplexType",
    "parse_type_name",
    "read_type_table",
    "write_type_table",
]

_T = TypeCode
COLLECTION_CODES = frozenset({_T.SET, _T.MULTISET, _T.LIST})
COMPLEX_CODES = COLLECTION_CODES | {_T.ROW}
KIND_NAMES: dict[int, str] = {
    _T.SET: "set", _T.MULTISET: "multiset", _T.LIST: "list", _T.ROW: "row"}
#: i32 0, i16 0, 128 name bytes, i16 entry count (CLROW_HDRSZ = 136 after the i32 length).
HEADER_SIZE = 136
#: One type-table entry (CLROW_ROWSZ = 414).
ENTRY_SIZE = 414
_NAME = 128
_I16 = struct.Struct(">h")
_ENTRY_HEAD = struct.Struct(">hhhh")  # seqno, levelno, parent_no, field-name length
_ENTRY_MID = struct.Struct(">hhhihh")  # fieldno, type, length, xid, 0, extended-name length
_ENTRY_TAIL = struct.Struct(">hi")  # alignment, source type

# Scalar names as Informix spells them in type texts (syscolumns / sysxtdtypes), with the
# fixed lengths their entries carry.
_SCALAR_NAMES: dict[str, int] = {
    "char": _T.CHAR, "character": _T.CHAR, "smallint": _T.SMALLINT, "integer": _T.INTEGER,
    "int": _T.INTEGER, "float": _T.FLOAT, "double precision": _T.FLOAT,
    "smallfloat": _T.SMALLFLOAT, "real": _T.SMALLFLOAT, "decimal": _T.DECIMAL,
    "dec": _T.DECIMAL, "numeric": _T.DECIMAL, "serial": _T.SERIAL, "date": _T.DATE,
    "money": _T.MONEY, "datetime": _T.DATETIME, "varchar": _T.VARCHAR, "interval": _T.INTERVAL,
    "nchar": _T.NCHAR, "nvarchar": _T.NVARCHAR, "int8": _T.INT8, "serial8": _T.SERIAL8,
    "bigint": _T.BIGINT, "bigserial": _T.BIGSERIAL, "lvarchar": _T.UDTVAR,
    "boolean": _T.UDTFIXED, "set": _T.SET, "multiset": _T.MULTISET, "list": _T.LIST,
    "row": _T.ROW,
}
_FIXED_LENGTH: dict[int, int] = {
    _T.SMALLINT: 2, _T.INTEGER: 4, _T.SERIAL: 4, _T.FLOAT: 8, _T.SMALLFLOAT: 4, _T.DATE: 4,
    _T.INT8: 10, _T.SERIAL8: 10, _T.BIGINT: 8, _T.BIGSERIAL: 8,
}
_TYPE_WORDS: dict[int, str] = {
    _T.CHAR: "char", _T.SMALLINT: "smallint", _T.INTEGER: "integer", _T.FLOAT: "float",
    _T.SMALLFLOAT: "smallfloat", _T.DECIMAL: "decimal", _T.SERIAL: "serial", _T.DATE: "date",
    _T.MONEY: "money", _T.DATETIME: "datetime", _T.VARCHAR: "varchar",
    _T.INTERVAL: "interval", _T.NCHAR: "nchar", _T.NVARCHAR: "nvarchar", _T.INT8: "int8",
    _T.SERIAL8: "serial8", _T.BIGINT: "bigint", _T.BIGSERIAL: "bigserial",
}
LVARCHAR_DEFAULT = 2048


@dataclass(frozen=True, slots=True)
class ComplexType:
    """One node of a complex type: a ROW, a collection, or a scalar inside one.

    ``code`` is the base type code as the wire type table carries it (LVARCHAR is UDTVAR 40
    with xid 1, BOOLEAN UDTFIXED 41 with xid 5, as servers describe them); ``length`` the
    encoded length (DECIMAL ``p << 8 | s``, DATETIME/INTERVAL the qualifier, strings the
    maximum, fixed types their width). ``field`` is the field name when the node is a ROW
    field; ``type_name``/``owner`` the named row type or built-in UDT name.
    """

    code: int
    length: int = 0
    notnull: bool = False
    named: bool = False
    xid: int = 0
    type_name: str = ""
    owner: str = ""
    field: str = ""
    children: tuple[ComplexType, ...] = ()
    source: int = 0
    distinct: bool = False

    @property
    def is_complex(self) -> bool:
        return self.code in COMPLEX_CODES

    @property
    def is_collection(self) -> bool:
        return self.code in COLLECTION_CODES

    @property
    def element(self) -> ComplexType:
        """The element type of a collection."""
        return self.children[0]

    @property
    def type_word(self) -> int:
        """The 16-bit type of a table entry or DESCRIBE column: code plus flag bits."""
        return (
            self.code
            | (TYPE_NOTNULL if self.notnull else 0)
            | (TYPE_NAMEDROW if self.named else 0)
            | (TYPE_DISTINCT if self.distinct else 0)
        )

    @property
    def is_boolean(self) -> bool:
        return self.code == _T.BOOLEAN or (self.code == _T.UDTFIXED and self.xid == XID_BOOLEAN)

    @property
    def is_lvarchar(self) -> bool:
        return self.code == _T.LVARCHAR or (self.code == _T.UDTVAR and self.xid == XID_LVARCHAR)

    def with_field(self, name: str) -> ComplexType:
        return replace(self, field=name)

    def sql(self) -> str:
        """The type text Informix prints (``list(integer not null)``, ``row(a integer)``)."""
        nn = " not null" if self.notnull else ""
        if self.named:
            return self.type_name + nn
        if self.code == _T.ROW:
            inner = ", ".join(f"{c.field} {c.sql()}" for c in self.children)
            return f"row({inner}){nn}"
        if self.is_collection:
            return f"{KIND_NAMES[self.code]}({self.element.sql()}){nn}"
        return scalar_sql(self.code, self.length, self.xid, self.type_name) + nn


def scalar_sql(code: int, length: int, xid: int = 0, type_name: str = "") -> str:
    """The type text of a scalar node."""
    if code in (_T.UDTVAR, _T.UDTFIXED, _T.LVARCHAR, _T.BOOLEAN):
        if code == _T.BOOLEAN or xid == XID_BOOLEAN:
            return "boolean"
        if code == _T.LVARCHAR or xid == XID_LVARCHAR:
            return "lvarchar" if length in (0, LVARCHAR_DEFAULT) else f"lvarchar({length})"
        return type_name or "udt"
    word = _TYPE_WORDS.get(code)
    if word is None:
        raise CodecError(f"type code {code} has no type text")
    if code in (_T.VARCHAR, _T.NVARCHAR):
        reserve = length >> 8
        return f"{word}({length & 0xFF},{reserve})" if reserve else f"{word}({length & 0xFF})"
    if code in (_T.CHAR, _T.NCHAR):
        return f"{word}({length})"
    if code in (_T.DECIMAL, _T.MONEY):
        p, s = length >> 8, length & 0xFF
        return f"{word}({p})" if s == _num.DECIMAL_FLOATING_SCALE else f"{word}({p},{s})"
    if code in (_T.DATETIME, _T.INTERVAL):
        return f"{word} {_tmp.qualifier_text(length, code == _T.INTERVAL)}"
    return word


# ---------------------------------------------------------------------------------------------
# Type text: list(row(a integer, b varchar(10)) not null)
# ---------------------------------------------------------------------------------------------

_TOKEN = re.compile(
    r"\s*(?:(?P<num>\d+)|(?P<word>[A-Za-z_][A-Za-z0-9_$]*)|(?P<q>\"[^\"]*\")|(?P<p>[(),.]))"
)


class _Tokens:
    def __init__(self, text: str) -> None:
        self.text = text
        self.items: list[str] = []
        pos = 0
        while pos < len(text):
            if text[pos:].strip() == "":
                break
            m = _TOKEN.match(text, pos)
            if not m:
                raise CodecError(f"cannot read type text {text!r} at offset {pos}")
            tok = m.group(m.lastgroup or "p")
            self.items.append(tok.lower() if m.lastgroup == "word" else tok)
            pos = m.end()
        self.i = 0

    def peek(self, k: int = 0) -> str:
        j = self.i + k
        return self.items[j] if j < len(self.items) else ""

    def take(self, expect: str | None = None) -> str:
        tok = self.peek()
        if expect is not None and tok != expect:
            raise CodecError(f"type text {self.text!r}: expected {expect!r}, found {tok!r}")
        if not tok:
            raise CodecError(f"type text {self.text!r} ends too early")
        self.i += 1
        return tok

    def number(self) -> int:
        tok = self.take()
        if not tok.isdigit():
            raise CodecError(f"type text {self.text!r}: expected a number, found {tok!r}")
        return int(tok)


def parse_type_name(text: str, named: dict[str, ComplexType] | None = None) -> ComplexType:
    """Parse an Informix type text into a tree. ``named`` resolves named row types.

    Raises CodecError naming the text when it is not a type Informix would print.
    """
    toks = _Tokens(text)
    node = _parse(toks, named or {})
    if toks.peek():
        raise CodecError(f"type text {text!r}: unexpected {toks.peek()!r}")
    return node


def _parse(toks: _Tokens, named: dict[str, ComplexType]) -> ComplexType:
    word = toks.take()
    if word.startswith('"'):  # "informix".boolean, "owner".name
        toks.take(".")
        word = toks.take()
    if word == "double" and toks.peek() == "precision":
        toks.take()
        word = "double precision"
    elif word == "character" and toks.peek() == "varying":
        toks.take()
        word = "varchar"
    code = _SCALAR_NAMES.get(word)
    if code is None:
        if word in named:
            node = named[word]
        else:
            raise CodecError(f"type text {toks.text!r}: unknown type {word!r}")
    elif code in COLLECTION_CODES:
        toks.take("(")
        elem = _parse(toks, named)
        toks.take(")")
        node = ComplexType(code, children=(elem,))
    elif code == _T.ROW:
        toks.take("(")
        fields: list[ComplexType] = []
        while True:
            fname = toks.take()
            fields.append(_parse(toks, named).with_field(fname))
            if toks.peek() == ",":
                toks.take()
                continue
            toks.take(")")
            break
        node = ComplexType(_T.ROW, children=tuple(fields))
    else:
        node = _scalar(code, toks)
    if toks.peek() == "not" and toks.peek(1) == "null":
        toks.take()
        toks.take()
        node = replace(node, notnull=True)
    return node


def _scalar(code: int, toks: _Tokens) -> ComplexType:
    if code == _T.UDTFIXED:
        return ComplexType(_T.UDTFIXED, 1, xid=XID_BOOLEAN, type_name="boolean")
    if code == _T.UDTVAR:
        n = LVARCHAR_DEFAULT
        if toks.peek() == "(":
            toks.take()
            n = toks.number()
            toks.take(")")
        return ComplexType(_T.UDTVAR, n, xid=XID_LVARCHAR, type_name="lvarchar")
    if code in (_T.CHAR, _T.NCHAR, _T.VARCHAR, _T.NVARCHAR):
        n, reserve = (1, 0)
        if toks.peek() == "(":
            toks.take()
            n = toks.number()
            if toks.peek() == ",":
                toks.take()
                reserve = toks.number()
            toks.take(")")
        return ComplexType(code, (reserve << 8 | n) if code in (_T.VARCHAR, _T.NVARCHAR) else n)
    if code in (_T.DECIMAL, _T.MONEY):
        p, s = (16, _num.DECIMAL_FLOATING_SCALE) if code == _T.DECIMAL else (16, 2)
        if toks.peek() == "(":
            toks.take()
            p = toks.number()
            s = _num.DECIMAL_FLOATING_SCALE if code == _T.DECIMAL else 2
            if toks.peek() == ",":
                toks.take()
                s = toks.number()
            toks.take(")")
        return ComplexType(code, p << 8 | s)
    if code in (_T.DATETIME, _T.INTERVAL):
        return ComplexType(code, _qualifier(toks, code == _T.INTERVAL))
    return ComplexType(code, _FIXED_LENGTH.get(code, 0))


_UNITS = {"year": 0, "month": 2, "day": 4, "hour": 6, "minute": 8, "second": 10}


def _qualifier(toks: _Tokens, interval: bool) -> int:
    start_word = toks.take()
    lead: int | None = None
    if toks.peek() == "(":
        toks.take()
        lead = toks.number()
        toks.take(")")
    toks.take("to")
    end_word = toks.take()
    frac: int | None = None
    if end_word == "fraction":
        frac = 3
        if toks.peek() == "(":
            toks.take()
            frac = toks.number()
            toks.take(")")
    if start_word not in _UNITS or (end_word not in _UNITS and end_word != "fraction"):
        raise CodecError(f"type text {toks.text!r}: bad qualifier {start_word} to {end_word}")
    start = _UNITS[start_word]
    end = 10 + (frac or 0) if end_word == "fraction" else _UNITS[end_word]
    if interval:
        return _tmp.interval_qualifier(start, end, lead if lead is not None else 2)
    return _tmp.datetime_qualifier(start, end, frac)


# ---------------------------------------------------------------------------------------------
# Wire type table
# ---------------------------------------------------------------------------------------------


def _name_field(text: str, encoding: str) -> bytes:
    raw = text.encode(encoding)[:_NAME]
    return raw + b" " * (_NAME - len(raw))


def flatten(root: ComplexType) -> list[tuple[ComplexType, int, int, int]]:
    """Pre-order (node, level, parent seqno, fieldno) list; seqno is position + 1."""
    out: list[tuple[ComplexType, int, int, int]] = []

    def walk(node: ComplexType, level: int, parent: int, fieldno: int) -> None:
        out.append((node, level, parent, fieldno))
        me = len(out)
        for i, child in enumerate(node.children):
            walk(child, level + 1, me, i + 1 if node.code == _T.ROW else 0)

    walk(root, 0, 0, 0)
    return out


def write_type_table(root: ComplexType, encoding: str = "iso-8859-1") -> bytes:
    """The header and entries that precede a complex value's data (without the i32 length)."""
    nodes = flatten(root)
    parts = [b"\x00" * 6, b"\x00" * _NAME, _I16.pack(len(nodes))]
    for seq, (node, level, parent, fieldno) in enumerate(nodes, 1):
        fname = node.field.encode(encoding)
        xname = (node.type_name if (node.named or not node.is_complex) else "").encode(encoding)
        owner = node.owner.encode(encoding)
        parts += [
            _ENTRY_HEAD.pack(seq, level, parent, len(fname)),
            _name_field(node.field, encoding),
            _ENTRY_MID.pack(fieldno, node.type_word, node.length, node.xid, 0, len(xname)),
            _name_field(node.type_name if xname else "", encoding),
            _I16.pack(len(owner)),
            _name_field(node.owner, encoding),
            _ENTRY_TAIL.pack(0, node.source),
        ]
    return b"".join(parts)


def read_type_table(buf: bytes | bytearray | memoryview, offset: int, end: int,
                    encoding: str = "iso-8859-1") -> tuple[ComplexType, int]:
    """Parse the header and entries at ``offset`` (just after the i32 length).

    Returns the root node and the offset of the 12-byte trailer (i32 0, i32 size, i32 flags).
    """
    if offset + HEADER_SIZE > end:
        raise CodecError(
            f"complex value header at offset {offset} runs past its {end - offset} bytes")
    (count,) = _I16.unpack_from(buf, offset + HEADER_SIZE - 2)
    pos = offset + HEADER_SIZE
    if count < 1 or pos + count * ENTRY_SIZE + 12 > end:
        raise CodecError(f"complex value type table of {count} entries does not fit")
    flat: list[tuple[int, int, ComplexType]] = []  # (level, parent seqno, node)
    for _ in range(count):
        _seq, level, parent, nlen = _ENTRY_HEAD.unpack_from(buf, pos)
        fname = bytes(buf[pos + 8 : pos + 8 + max(0, min(nlen, _NAME))]).decode(encoding)
        p = pos + 8 + _NAME
        _fieldno, word, length, xid, _zero, xlen = _ENTRY_MID.unpack_from(buf, p)
        p += _ENTRY_MID.size
        xname = bytes(buf[p : p + max(0, min(xlen, _NAME))]).decode(encoding)
        p += _NAME
        (olen,) = _I16.unpack_from(buf, p)
        owner = bytes(buf[p + 2 : p + 2 + max(0, min(olen, _NAME))]).decode(encoding)
        p += 2 + _NAME
        _align, source = _ENTRY_TAIL.unpack_from(buf, p)
        pos += ENTRY_SIZE
        code = word & TYPE_BASE_MASK
        node = ComplexType(
            code, length & 0xFFFF, notnull=bool(word & TYPE_NOTNULL),
            named=bool(word & TYPE_NAMEDROW), xid=xid, type_name=xname,
            owner="" if owner == "informix" else owner, field=fname, source=source,
            distinct=bool(word & TYPE_DISTINCT),
        )
        flat.append((level, parent, node))
    return _unflatten(flat), pos


def _unflatten(flat: list[tuple[int, int, ComplexType]]) -> ComplexType:
    """Rebuild the tree from (level, parent seqno) pairs, children in table order."""
    kids: dict[int, list[ComplexType]] = {}
    built: dict[int, ComplexType] = {}
    for seq in range(len(flat), 0, -1):
        _level, parent, node = flat[seq - 1]
        node = replace(node, children=tuple(reversed(kids.pop(seq, []))))
        built[seq] = node
        if seq > 1:
            if not 1 <= parent < seq:
                raise CodecError(f"complex type table entry {seq} names parent {parent}")
            kids.setdefault(parent, []).append(node)
    root = built[1]
    _check(root)
    return root


def _check(node: ComplexType) -> None:
    if node.is_collection and len(node.children) != 1:
        raise CodecError(f"a {KIND_NAMES[node.code]} needs one element type, table has "
                         f"{len(node.children)}")
    for child in node.children:
        _check(child)
