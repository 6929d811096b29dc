"""The literal text form of ROW and collection values: ``SET{1,2}``, ``LIST{'a'}``,
``ROW(1,NULL)``, written for a client without SQ_RET_TYPE and read from a string literal.

Split from composite.py (the ~800-line rule): ``text_encoder`` formats a loaded value for the
UDT envelope (docs/PROTOCOL.md §13); ``parse_text`` reads such text into ``_Text`` nodes that
composite.py's storers convert to storage.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from ....protocol.codes import TypeCode
from ....protocol.columns import ColumnDesc
from ....types.complextype import KIND_NAMES, ComplexType
from ..core import sqlcodes as sc
from ..core import values as vals
from ..core.values import ConvContext, fail
from .composite_types import type_of

T = TypeCode


def text_encoder(col: ColumnDesc, ctx: ConvContext) -> Callable[[object], str]:
    """Python value (what the loader gives) -> the literal text a client without SQ_RET_TYPE
    receives: ``SET{1,2}``, ``LIST{'a'}``, ``ROW(1,NULL)``; strings, dates, DATETIME and
    INTERVAL quoted, BOOLEAN 't'/'f' [I: the elements' spelling is ours, P§3.2 shows only
    integers and strings]."""
    assert isinstance(col.detail, ComplexType)
    return _text(col.detail, ctx)


def _text(node: ComplexType, ctx: ConvContext) -> Callable[[Any], str]:
    if node.code == T.ROW:
        parts = [_text(c, ctx) for c in node.children]
        return lambda v: "ROW(" + ",".join("NULL" if x is None else f(x)
                                           for f, x in zip(parts, v, strict=True)) + ")"
    if node.is_collection:
        inner = _text(node.element, ctx)
        word = KIND_NAMES[node.code].upper()
        # a NULL element is the NULL keyword, as a ROW's NULL field above (it was str(None))
        return lambda v: word + "{" + ",".join("NULL" if x is None else inner(x)
                                               for x in v) + "}"
    t = type_of(node)
    code = t.code
    if t.is_integer or code in (T.DECIMAL, T.MONEY):
        return str
    if code in (T.FLOAT, T.SMALLFLOAT):
        return repr
    if code == T.BOOLEAN:
        return lambda x: "'t'" if x else "'f'"
    if code == T.DATE:
        return lambda x: _quote(vals.format_date(x, ctx))
    if code == T.DATETIME:
        return lambda x: _quote(vals.to_dt_text(x, t))
    if code == T.INTERVAL:
        return lambda x: _quote(vals.format_interval(vals.to_interval(x, t), t))
    return lambda x: _quote(str(x))


def _quote(s: str) -> str:
    return "'" + s.replace("'", "''") + "'"


class _Text:
    """A collection or ROW read from literal text, before its elements are typed."""

    __slots__ = ("items", "kind")

    def __init__(self, kind: str, items: list[Any]) -> None:
        self.kind = kind
        self.items = items


_TOKEN = re.compile(r"""\s*(?:(?P<s>'(?:[^']|'')*'|"(?:[^"]|"")*")|(?P<p>[{}(),])|"""
                    r"""(?P<w>[^\s{}(),'"]+))""")


def parse_text(text: str) -> _Text:
    """Read a quoted collection/ROW literal (``'SET{1,2}'``, ``'ROW(1,"a")'``); raises
    -1260 naming the text when it is not one."""
    toks: list[tuple[str, str]] = []
    pos = 0
    while pos < len(text) and text[pos:].strip():
        m = _TOKEN.match(text, pos)
        if not m:
            raise fail(sc.NO_CONVERSION, text[:40])
        kind = m.lastgroup or "p"
        toks.append((kind, m.group(kind)))
        pos = m.end()
    state = {"i": 0}

    def peek() -> tuple[str, str]:
        return toks[state["i"]] if state["i"] < len(toks) else ("", "")

    def take() -> tuple[str, str]:
        tok = peek()
        if not tok[0]:
            raise fail(sc.NO_CONVERSION, text[:40])
        state["i"] += 1
        return tok

    def value() -> Any:
        kind, tok = take()
        if kind == "s":
            q = tok[0]
            return tok[1:-1].replace(q + q, q)
        if kind == "w":
            word = tok.lower()
            if word in ("set", "multiset", "list") and peek() == ("p", "{"):
                take()
                if peek() == ("p", "}"):
                    take()
                    return _Text(word, [])
                return _Text(word, seq("}"))
            if word == "row" and peek() == ("p", "("):
                take()
                return _Text("row", seq(")"))
            if word == "null":
                return None
            return _number(tok)
        raise fail(sc.NO_CONVERSION, text[:40])

    def seq(close: str) -> list[Any]:
        items = [value()]
        while True:
            kind, tok = take()
            if (kind, tok) == ("p", close):
                return items
            if (kind, tok) != ("p", ","):
                raise fail(sc.NO_CONVERSION, text[:40])
            items.append(value())

    out = value()
    if state["i"] != len(toks) or not isinstance(out, _Text):
        raise fail(sc.NO_CONVERSION, text[:40])
    return out


def _number(tok: str) -> object:
    try:
        return int(tok)
    except ValueError:
        pass
    try:
        return Decimal(tok) if "e" not in tok.lower() else float(tok)
    except ArithmeticError:
        return tok  # a bare word (t, f): the element's storer decides
