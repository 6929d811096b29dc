"""The IfxType of a ROW or collection and its keys, wire nodes and DESCRIBE names.

Split from composite.py (the ~800-line rule): how a composite type is named and found again
(``complex_key``/``complex_from_key``, the key a compiled statement carries), turned into a
wire/catalogue node and back (``node_of``/``type_of``), and described to a client. It holds no
values; storage, text form and the catalogue are in composite.py and composite_text.py.
"""

from __future__ import annotations

import threading
from dataclasses import replace

from ....protocol.codes import TYPE_NOTNULL, XID_BOOLEAN, XID_LVARCHAR, TypeCode
from ....protocol.columns import ColumnDesc
from ....types.complextype import KIND_NAMES, ComplexType, scalar_sql
from ..core import sqlcodes as sc
from ..core.ifxtypes import IfxType, from_catalog
from ..core.values import fail

T = TypeCode
_LOCK = threading.Lock()
_KEYS: dict[ComplexType, str] = {}
_BY_KEY: dict[str, ComplexType] = {}
#: First extended_id given to a composite type ([I]: ids below stay for built-in types).
FIRST_XID = 2048


# --- types ------------------------------------------------------------------------------------
def complex_type(cx: ComplexType, notnull: bool = False, xid: int = 0) -> IfxType:
    """The IfxType of a ROW/collection; the root node never carries NOT NULL itself."""
    return IfxType(cx.code, cx=replace(cx, notnull=False, field=""), notnull=notnull, xid=xid)


def complex_key(t: IfxType) -> str:
    assert t.cx is not None
    with _LOCK:
        k = _KEYS.get(t.cx)
        if k is None:
            k = f"x{len(_KEYS)}"
            _KEYS[t.cx] = k
            _BY_KEY[k] = t.cx
    return f"{k}.{int(t.notnull)}.{t.xid}"


def complex_from_key(key: str) -> IfxType:
    k, nn, xid = key.split(".")
    return complex_type(_BY_KEY[k], nn == "1", int(xid))


def node_of(t: IfxType) -> ComplexType:
    """The wire/catalog node of a column or element type."""
    if t.cx is not None:
        return replace(t.cx, notnull=t.notnull)
    if t.code == T.BOOLEAN:
        return ComplexType(T.UDTFIXED, 1, t.notnull, xid=XID_BOOLEAN, type_name="boolean")
    if t.code == T.LVARCHAR:
        return ComplexType(T.UDTVAR, t.size, t.notnull, xid=XID_LVARCHAR, type_name="lvarchar")
    return ComplexType(t.code, t.enclen, t.notnull)


def type_of(node: ComplexType) -> IfxType:
    """The IfxType of a node (an element, a field, or a whole value)."""
    if node.is_complex:
        return complex_type(node, node.notnull)
    code = node.code
    if code in (T.UDTFIXED, T.BOOLEAN) and (code == T.BOOLEAN or node.xid == XID_BOOLEAN):
        return IfxType(T.BOOLEAN, notnull=node.notnull)
    if code in (T.UDTVAR, T.LVARCHAR) and (code == T.LVARCHAR or node.xid == XID_LVARCHAR):
        return IfxType(T.LVARCHAR, size=node.length or 2048, notnull=node.notnull)
    if code in (T.UDTVAR, T.UDTFIXED):
        raise fail(sc.NO_CONVERSION, node.type_name)
    return from_catalog(code | (TYPE_NOTNULL if node.notnull else 0), node.length)


def ext_name(cx: ComplexType) -> str:
    """The extended type name DESCRIBE carries: the named type, or the type text with the
    kinds in capitals (``ROW(name varchar(50), age integer)``, as P§3.2 quotes a real one)."""
    if cx.named:
        return cx.type_name
    return _ext(cx)


def _ext(node: ComplexType) -> str:
    nn = " not null" if node.notnull else ""
    if node.named:
        return node.type_name + nn
    if node.code == T.ROW:
        return "ROW(" + ", ".join(f"{c.field} {_ext(c)}" for c in node.children) + ")" + nn
    if node.is_collection:
        return f"{KIND_NAMES[node.code].upper()}({_ext(node.element)})" + nn
    return scalar_sql(node.code, node.length, node.xid, node.type_name) + nn


def describe_complex(t: IfxType, name: str) -> ColumnDesc:
    assert t.cx is not None
    word = t.cx.type_word | (TYPE_NOTNULL if t.notnull else 0)
    return ColumnDesc(name, word, 0, xid=t.xid, type_name=ext_name(t.cx), detail=t.cx)
