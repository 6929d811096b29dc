"""ROW, SET, MULTISET and LIST in the engine: types, storage, conversion, text form, catalog.

Storage. A composite value is stored in SQLite as JSON text holding its elements' own storage
forms (``values.py``: integers, DECIMAL text, DATE day numbers, DATETIME literal text, INTERVAL
units, BOOLEAN 0/1, strings), nested values as nested arrays. JSON keeps every one of those
exact (Python writes floats with ``repr``). SET elements are deduplicated and SET/MULTISET
elements sorted by their JSON text, so equal values are equal strings and ``=`` works in SQL;
LIST keeps its order. ``CARDINALITY`` is ``json_array_length``.

Wire. A client that sent SQ_RET_TYPE gets the binary form (``types/composite.py``), any other
client the server's literal text in the UDT envelope (docs/PROTOCOL.md §13), which this module
formats: ``SET{1,2}``, ``LIST{'a','b'}``, ``ROW(1,'x')``, ``NULL`` for a NULL field.

Catalog. Each composite column type gets a ``sysxtdtypes`` row (mode ``C`` collection, ``R``
row) and its structure in ``sysattrtypes`` (seqno, levelno, parent_no, fieldname, fieldno,
type, length, xtd_type_id), the columns JDBC's ``IfxSqliConnect`` reads; ``syscolumns`` holds
its type code and that ``extended_id``.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from ....protocol.codes import TYPE_NOTNULL, XID_BOOLEAN, XID_LVARCHAR, TypeCode
from ....types.complextype import (
    COLLECTION_CODES,
    ComplexType,
    _unflatten,
    flatten,
)
from ....types.composite import encode_complex
from ....types.compositevalues import List, Multiset, Row, Set
from ....types.rowcodec import COMPLEX_ALLOWANCE
from ..core import convert as conv
from ..core import ifxtypes as it
from ..core import sqlcodes as sc
from ..core.errors import EngineError, not_implemented
from ..core.hooks import EXTENSIONS
from ..core.ifxtypes import IfxType
from ..core.values import ConvContext, fail
from ..schema.hooks import FEATURES
from ..sql.exprs import common_type, func, keylit, lit, ty, typed
from ..sql.exprtypes import NULLTYPE
from ..sql.hooks import PARSERS, TRANSLATION
from .composite_text import _Text, _text, parse_text
from .composite_types import (
    FIRST_XID,
    complex_from_key,
    complex_key,
    complex_type,
    describe_complex,
    node_of,
    type_of,
)

T = TypeCode
# --- storage ----------------------------------------------------------------------------------
def storer(t: IfxType, ctx: ConvContext, src: IfxType | None = None) -> Callable[[object], object]:
    """Client value (wrapper, tuple/list, literal text) or another composite's storage -> the
    JSON storage text of ``t``."""
    assert t.cx is not None
    node = t.cx
    to_json = _json_storer(node, ctx)

    def store(v: object) -> object:
        if v is None:
            return None
        if isinstance(v, str):
            v = json.loads(v) if src is not None and src.is_complex else parse_text(v)
        text = json.dumps(to_json(v), ensure_ascii=False, separators=(",", ":"))
        if len(text) > _SIZE_CHECK_FROM:
            check_wire_size(t, text, ctx)
        return text

    return store


#: Every client reads a ROW/collection cell of up to this many bytes (the driver's
#: COMPLEX_ALLOWANCE, which is also the largest fetch reply this server sends).
MAX_VALUE_BYTES = COMPLEX_ALLOWANCE - 8
#: JSON storage shorter than this cannot make a wire form over MAX_VALUE_BYTES (an element's
#: binary form is at most ~5x its JSON text: ``0,`` is an 8-byte BIGINT, ``[]`` a nested header).
_SIZE_CHECK_FROM = MAX_VALUE_BYTES // 8


def check_wire_size(t: IfxType, text: str, ctx: ConvContext) -> None:
    """Refuse a value whose binary or literal-text wire form would exceed MAX_VALUE_BYTES,
    when it is written, rather than store one no client could then fetch (the driver would
    have to drop the connection at a tuple past its bound). -999 names the size: real
    servers move larger collections, we do not (docs/SERVER.md)."""
    assert t.cx is not None
    value = loader(t)(text)
    size = max(len(encode_complex(node_of(t), value, "utf-8")),
               len(_text(t.cx, ctx)(value).encode("utf-8")))
    if size > MAX_VALUE_BYTES:
        raise not_implemented(f"a ROW/collection value of {size} bytes on the wire "
                              f"(at most {MAX_VALUE_BYTES})")


def _json_storer(node: ComplexType, ctx: ConvContext) -> Callable[[Any], Any]:
    if node.code == T.ROW:
        fields = [(_json_storer(c, ctx) if c.is_complex else conv.storer(type_of(c), ctx), c)
                  for c in node.children]

        def row(v: Any) -> Any:
            if isinstance(v, str):  # a nested literal in its own quotes (ids_sqs_1599)
                v = parse_text(v)
            if isinstance(v, _Text):
                v = v.items if v.kind == "row" else _wrong_kind(node, v.kind)
            if not isinstance(v, (tuple, list)) or isinstance(v, (Set, Multiset, List)):
                raise fail(sc.NO_CONVERSION, node.sql())
            if len(v) != len(fields):
                raise fail(sc.ROW_FIELD_COUNT)
            out: list[Any] = []
            for (fn, child), x in zip(fields, v, strict=True):
                if x is None:
                    if child.notnull:
                        raise fail(sc.NULL_INTO_NOT_NULL, child.field)
                    out.append(None)
                else:
                    out.append(fn(x))
            return out

        return row
    elem = node.element
    fn = _json_storer(elem, ctx) if elem.is_complex else conv.storer(type_of(elem), ctx)

    def coll(v: Any) -> Any:
        if isinstance(v, str):
            # a nested collection literal is written in doubled quotes inside the outer one
            # ("SET{""SET{34, 56}""}", Guide to SQL: Syntax, "Nested Quotation Marks",
            # ids_sqs_1599): the element arrives as the inner literal's text
            v = parse_text(v)
        if isinstance(v, _Text):
            # Any collection kind converts (a SET drops duplicates): JDBC binds a
            # java.util.HashSet as a MULTISET for SET columns, so real servers must take it.
            v = v.items if v.kind != "row" else _wrong_kind(node, v.kind)
        if isinstance(v, (str, bytes, Row, dict)) or not hasattr(v, "__iter__"):
            raise fail(sc.NO_CONVERSION, node.sql())
        out = []
        for x in v:
            if x is None:  # the Guide to SQL: "a collection cannot contain NULL elements"
                raise fail(sc.NULL_IN_COLLECTION)
            out.append(fn(x))
        out = _in_storage_order(node.code, out)
        return out

    return coll


def _in_storage_order(code: int, items: list[Any]) -> list[Any]:
    """SET and MULTISET elements sorted by their JSON text (SET ones deduplicated), so equal
    values are equal storage; a LIST keeps its order."""
    if code == T.LIST:
        return items
    keyed = sorted((json.dumps(x, ensure_ascii=False), x) for x in items)
    if code == T.SET:
        keyed = list({k: (k, x) for k, x in keyed}.values())
    return [x for _, x in keyed]


def _wrong_kind(node: ComplexType, kind: str) -> Any:
    raise fail(sc.NO_CONVERSION, f"{kind} to {node.sql()}")


def loader(t: IfxType) -> Callable[[object], object]:
    """JSON storage text -> the Python value the wire encoders take (Row/Set/Multiset/List)."""
    assert t.cx is not None
    fn = _json_loader(t.cx)
    return lambda v: None if v is None else fn(json.loads(v) if isinstance(v, str) else v)


def _json_loader(node: ComplexType) -> Callable[[Any], Any]:
    def scalar(n: ComplexType) -> Callable[[Any], Any]:
        if n.is_complex:
            return _json_loader(n)
        f = conv.loader(type_of(n))
        if f is None:
            return lambda x: x
        return f

    if node.code == T.ROW:
        fields = [scalar(c) for c in node.children]
        names = tuple(c.field for c in node.children)
        tname = node.type_name if node.named else ""
        return lambda v: Row([None if x is None else f(x) for f, x in zip(fields, v,
                                                                           strict=True)],
                             names, tname)
    elem = scalar(node.element)
    etext = node.element.sql()
    if node.code == T.SET:
        return lambda v: Set([elem(x) for x in v], etext)
    if node.code == T.MULTISET:
        return lambda v: Multiset([elem(x) for x in v], etext)
    return lambda v: List([elem(x) for x in v], etext)


# --- catalog ----------------------------------------------------------------------------------
def catalog_type(conn: sqlite3.Connection, t: IfxType, owner: str) -> int:
    """Give a composite column type its sysxtdtypes row and sysattrtypes structure; returns
    the extended_id (reused when the same unnamed type is already catalogued)."""
    assert t.cx is not None
    cx = t.cx
    if cx.named:
        row = conn.execute("SELECT extended_id FROM sysxtdtypes WHERE name = ? AND mode = 'R'",
                           (cx.type_name,)).fetchone()
        if row:
            return int(row[0])
        owner = cx.owner or owner
    (top,) = conn.execute("SELECT MAX(extended_id) FROM sysxtdtypes").fetchone()
    xid = max(int(top or 0) + 1, FIRST_XID)
    mode = "R" if cx.code == T.ROW else "C"
    conn.execute(
        "INSERT INTO sysxtdtypes (extended_id, domain, mode, owner, name, type, source, maxlen, "
        "length, byvalue, cannothash, align, locator) VALUES (?, ?, ?, ?, ?, ?, 0, 0, 0, 'F', "
        "'T', 8, 0)",
        (xid, "C" if mode == "C" else "R", mode, owner, cx.type_name if cx.named else None,
         cx.code))
    rows = []
    for seq, (n, level, parent, fieldno) in enumerate(flatten(cx), 1):
        rows.append((xid, seq, level, parent, n.field or None, fieldno, n.type_word,
                     n.length, n.xid))
    conn.executemany(
        "INSERT INTO sysattrtypes (extended_id, seqno, levelno, parent_no, fieldname, fieldno, "
        "type, length, xtd_type_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
    return xid


def load_types(conn: sqlite3.Connection, prefix: str = "") -> dict[int, ComplexType]:
    """Every catalogued composite type of a database, by extended_id."""
    entries: dict[int, list[tuple[int, int, ComplexType]]] = {}
    names: dict[int, str] = {}
    owners: dict[int, str] = {}
    for x, n, o in conn.execute(
        f"SELECT extended_id, name, owner FROM {prefix}sysxtdtypes WHERE mode IN ('R', 'C')"
    ):
        names[x] = n
        owners[x] = (o or "").strip()
    for xid, seq, level, parent, fname, _fieldno, word, length, sub in conn.execute(
        f"SELECT extended_id, seqno, levelno, parent_no, fieldname, fieldno, type, length, "
        f"xtd_type_id FROM {prefix}sysattrtypes ORDER BY extended_id, seqno"
    ):
        code = word & 0xFF
        named = bool(word & 0x1000)
        node = ComplexType(
            code, (length or 0) & 0xFFFF, notnull=bool(word & TYPE_NOTNULL),
            named=named, xid=sub or 0,
            type_name=("boolean" if sub == XID_BOOLEAN else "lvarchar" if sub == XID_LVARCHAR
                       else (names.get(xid) or "") if seq == 1 and named
                       else (names.get(sub) or "") if named else ""),
            owner=owners.get(xid if seq == 1 else sub, "") if named else "",
            field=fname or "")
        entries.setdefault(xid, []).append((level, parent, node))
    return {xid: _unflatten(flat) for xid, flat in entries.items()}


def is_collection(t: IfxType) -> bool:
    return t.code in COLLECTION_CODES


# --- expressions ------------------------------------------------------------------------------
def translate_collection(tx: Any, node: Any) -> Any:
    """``SET{…}``/``MULTISET{…}``/``LIST{…}``. Of constants: a typed constant whose ``const``
    is the wrapper value, so assignment converts every element to the target's element type.
    Of other expressions (columns, parameters, arithmetic): built per row by ``compose``."""
    items = [tx.tx(e) for e in node.expressions]
    kind = str(node.this).upper()
    code = {"SET": T.SET, "MULTISET": T.MULTISET, "LIST": T.LIST}[kind]
    if items and all(i.meta.get("null") for i in items):
        raise fail(sc.NULL_IN_COLLECTION)
    elem = common_type([i for i in items if not i.meta.get("null")]) if items else IfxType(
        T.CHAR, size=1)
    if elem.code == -1:  # only parameters: nothing says what their type is
        raise fail(sc.HOSTVAR_TYPE_UNKNOWN)
    cx = ComplexType(code, children=(replace(node_of(elem.nullable()), notnull=True),))
    t = complex_type(cx)
    if not all(tx.is_const(i) for i in items):
        return _composed(tx, t, items, [elem.nullable()] * len(items))
    values = [i.meta["const"] for i in items]
    if any(v is None for v in values):
        raise fail(sc.NULL_IN_COLLECTION)
    maker: dict[int, Callable[[list[Any]], Any]] = {T.SET: Set, T.MULTISET: Multiset,
                                                    T.LIST: List}
    value = maker[code](values)
    out = lit(storer(t, tx.ctx)(value))
    out.meta["const"] = value
    return typed(out, t)


def translate_row(tx: Any, node: Any) -> Any:
    """``ROW(a, b, …)``: an unnamed ROW typed field by field (f1, f2, …); a constant when
    every field is one, else built per row by ``compose``."""
    from sqlglot import exp


    if any(e.find(exp.AggFunc) for e in node.expressions) and _in_projection(node):
        # -9952 [jcat]: "Aggregate within a ROW in a SELECT projection list is not allowed."
        raise fail(sc.AGGREGATE_IN_ROW)
    items = [tx.tx(e) for e in node.expressions]
    if not items:
        raise fail(sc.SYNTAX)
    fields = []
    types = []
    for i, item in enumerate(items, 1):
        t = ty(item) if not item.meta.get("null") else NULLTYPE
        if t.code == -1:  # ROW(?, …): a field's type must come from the SQL (?::INT)
            raise fail(sc.HOSTVAR_TYPE_UNKNOWN)
        types.append(t.nullable())
        fields.append(replace(node_of(t.nullable()), field=f"f{i}"))
    names = node.meta.get("ifx_row_fields")  # a table's row: its columns' names (whole_rows)
    if names:
        fields = [replace(f, field=n) for f, n in zip(fields, names, strict=True)]
    t = complex_type(ComplexType(T.ROW, children=tuple(fields)))
    if not all(tx.is_const(i) for i in items):
        out = _composed(tx, t, items, types)
        named = tx.named_type(node.meta.get("ifx_row_type") or "")
        return tx.convert(out, named) if named is not None else out
    value = Row([i.meta["const"] for i in items], tuple(f.field for f in fields))
    out = lit(storer(t, tx.ctx)(value))
    out.meta["const"] = value
    return typed(out, t)


def _in_projection(node: Any) -> bool:
    """Whether ``node`` stands in the projection list of its SELECT (not WHERE, HAVING …)."""
    from sqlglot import exp


    child, parent = node, node.parent
    while parent is not None and not isinstance(parent, exp.Select):
        child, parent = parent, parent.parent
    return parent is not None and any(p is child for p in parent.expressions)


def _composed(tx: Any, t: IfxType, items: list[Any], types: list[IfxType]) -> Any:
    """``ifx_compose(type key, element storage values…)``: each item converted to its
    element/field type in SQL, the JSON storage built in Python (SQLite's own JSON writes
    REALs with 15 digits, which would not be exact)."""
    args = [keylit(t)]
    for item, et in zip(items, types, strict=True):
        args.append(item if item.meta.get("null") or et == NULLTYPE else tx.convert(item, et))
    return typed(func("ifx_compose", *args), t)


def compose(key: str, *values: object) -> str:
    """The JSON storage of a ROW/collection from its elements' storage values (nested ones
    as their JSON text); a NULL collection element is -9978 as in a literal."""
    node = complex_from_key(key).cx
    assert node is not None
    if node.code == T.ROW:
        out = [json.loads(v) if c.is_complex and isinstance(v, str) else v
               for c, v in zip(node.children, values, strict=True)]
    else:
        nested = node.element.is_complex
        out = []
        for v in values:
            if v is None:
                raise fail(sc.NULL_IN_COLLECTION)
            out.append(json.loads(v) if nested and isinstance(v, str) else v)
        out = _in_storage_order(node.code, out)
    return json.dumps(out, ensure_ascii=False, separators=(",", ":"))


def translate_multiset_of(tx: Any, node: Any) -> Any:
    """The aggregate of a collection subquery (dialect ``_parse_collection_subquery``): its
    rows gathered into one MULTISET by ``ifx_collect``. With ITEM the element is the one
    projected value's type (ids_sqt_187: ``MULTISET(INT NOT NULL)``), else an unnamed ROW of
    the projection (ids_sqt_186: ``MULTISET(ROW(a INT) NOT NULL)``), its fields named after
    the projected columns (``f1``… for expressions, as ROW(…) names them [inference])."""
    from sqlglot import exp


    items = [tx.tx(e) for e in node.expressions]
    types = []
    for item in items:
        t = ty(item) if not item.meta.get("null") else NULLTYPE
        if t.code == -1:
            raise fail(sc.HOSTVAR_TYPE_UNKNOWN)
        types.append(t.nullable())
    if node.meta.get("item"):
        element = replace(node_of(types[0]), notnull=True)
        value = tx.convert(items[0], types[0]) if types[0] != NULLTYPE else items[0]
    else:
        fields = tuple(replace(node_of(t), field=e.name)
                       for t, e in zip(types, node.expressions, strict=True))
        row = complex_type(ComplexType(T.ROW, children=fields))
        element = replace(node_of(row), notnull=True)
        value = _composed(tx, row, items, types)
    t = complex_type(ComplexType(T.MULTISET, children=(element,)))
    # no row: SQLite gives NULL without calling the aggregate (CPython's sqlite3 skips
    # finalize when step never ran); the subquery's MULTISET is then empty, not NULL
    gathered = exp.Anonymous(this="ifx_collect", expressions=[keylit(t), value])
    return typed(func("coalesce", gathered, exp.Literal.string("[]")), t)


class Collect:
    """The aggregate ifx_collect(type key, element storage): the MULTISET of the rows'
    elements (``compose``: a NULL element is -9978); no row gives an empty MULTISET."""

    def __init__(self) -> None:
        self.key = ""
        self.values: list[object] = []

    def step(self, key: str, value: object) -> None:
        self.key = key
        self.values.append(value)

    def finalize(self) -> str:
        return compose(self.key, *self.values) if self.key else "[]"


def translate_cardinality(tx: Any, node: Any) -> Any:
    """CARDINALITY(collection): the number of elements (NULL for a NULL collection)."""
    from sqlglot import exp


    if len(node.expressions) != 1:
        raise fail(sc.NO_CONVERSION, "CARDINALITY")
    arg = tx.tx(node.expressions[0])
    if ty(arg).code not in COLLECTION_CODES:
        raise fail(sc.NO_CONVERSION, "CARDINALITY")
    return typed(func("json_array_length", arg), it.INTEGER) if not isinstance(
        arg, exp.Null) else typed(exp.Null(), it.INTEGER)


def translate_field(tx: Any, node: Any) -> Any:
    """``row.field`` / ``table.row.field`` left as a column reference: the field of a ROW
    column, or None when ``node`` names no ROW column's field."""
    from sqlglot import exp


    db = node.args.get("db")
    holder = exp.Column(this=exp.to_identifier(node.table),
                        table=exp.to_identifier(db.name) if db is not None else None)
    try:
        t = tx.column_type(holder)
    except EngineError:
        if db is None:
            return None
        # row.field.field: a ROW column ``db`` holding a ROW field ``table``
        outer = exp.Column(this=exp.to_identifier(db.name))
        try:
            ot = tx.column_type(outer)
        except EngineError:
            return None
        mid = _field_of(typed(outer, ot), ot, node.table)
        if mid is None:
            return None
        return _field_of(mid, mid.meta["t"], node.name)
    return _field_of(typed(holder, t), t, node.name)


def translate_dot(tx: Any, node: Any) -> Any:
    """``expr.field`` (sqlglot's form of ``row_column.field`` once columns are qualified)."""
    inner = tx.tx(node.this)
    out = _field_of(inner, ty(inner), node.expression.name)
    if out is None:
        raise EngineError(sc.NO_COLUMN, near=node.expression.name)
    return out


def _field_of(inner: Any, t: IfxType, name: str) -> Any:
    from sqlglot import exp


    if t.cx is None or t.cx.code != T.ROW:
        return None
    names = [c.field for c in t.cx.children]
    if name.lower() not in names:
        return None
    i = names.index(name.lower())
    child = t.cx.children[i]
    read = func("json_extract", inner, exp.Literal.string(f"$[{i}]"))
    # a nested value comes back as its JSON text, which is its storage form
    return typed(read, complex_type(child) if child.is_complex else type_of(child).nullable())


def translate_in_collection(tx: Any, node: Any) -> Any:
    """``x IN collection``: true when an element equals ``x`` (converted to the element type),
    as ``EXISTS (SELECT 1 FROM json_each(collection) WHERE value = x)``."""
    from sqlglot import exp


    coll = tx.tx(node.args["field"])
    t = ty(coll)
    if t.cx is None or not t.cx.is_collection:
        raise fail(sc.NO_CONVERSION, "IN")
    elem = t.cx.element
    this = tx.convert(tx.tx(node.this), type_of(elem))
    value: exp.Expr = exp.column("value")
    if elem.is_complex:
        # a ROW/collection element: json_each gives its JSON text as SQLite writes JSON,
        # so the probe goes through json() too (same minified form, same number spelling)
        this = func("json", this)
    elif type_of(elem).is_decimal:
        value = exp.Collate(this=value, expression=exp.Var(this="IFXDEC"))
    sub = exp.select(exp.Literal.number(1)).from_(
        exp.Table(this=exp.Anonymous(this="json_each", expressions=[coll]))
    ).where(exp.EQ(this=value, expression=this))
    out = exp.Exists(this=sub)
    if node.args.get("is_global") or node.args.get("unnest"):
        raise not_implemented("IN form")
    return typed(out, it.BOOLEAN)


# --- named ROW types ----------------------------------------------------------------------------
class RowTypeSpec:
    """CREATE ROW TYPE name (fields) [UNDER parent]."""

    def __init__(self, name: str, fields: list[tuple[str, IfxType]], under: str | None,
                 if_not_exists: bool) -> None:
        self.name = name
        self.fields = fields
        self.under = under
        self.if_not_exists = if_not_exists


class DropRowTypeSpec:
    def __init__(self, name: str) -> None:
        self.name = name


def named_placeholder(name: str) -> IfxType:
    """A named ROW type as the parser sees it: resolved against the catalog by the DDL."""
    return complex_type(ComplexType(T.ROW, named=True, type_name=name))


def parse_create_row_type(p: Any) -> RowTypeSpec:
    p._advance(2)  # ROW TYPE
    if_not_exists = p._if_exists(negate=True)
    name = p._name()
    fields: list[tuple[str, IfxType]] = []
    from sqlglot import TokenType

    if not p._match(TokenType.L_PAREN):
        p.raise_error("Expected ( after the row type name")
    if not p._match(TokenType.R_PAREN):
        while True:
            fname = p._name()
            ty = p._column_type().meta["ifx"]
            if p._word() == "NOT" and p._word(1) == "NULL":
                p._advance(2)
                ty = ty.with_notnull()
            fields.append((fname, ty))
            if not p._match(TokenType.COMMA):
                break
        p._match_r_paren()
    under = None
    if p._word() == "UNDER":
        p._advance()
        under = p._name()
    return RowTypeSpec(name, fields, under, if_not_exists)


def parse_drop_row_type(p: Any) -> DropRowTypeSpec:
    p._advance(2)  # ROW TYPE
    name = p._name()
    p._expect_word("RESTRICT")  # Informix requires it
    return DropRowTypeSpec(name)


def _named_row(conn: sqlite3.Connection, name: str) -> tuple[int, ComplexType] | None:
    row = conn.execute("SELECT extended_id FROM sysxtdtypes WHERE name = ? AND mode = 'R'",
                       (name,)).fetchone()
    if row is None:
        return None
    xid = int(row[0])
    return xid, load_types(conn)[xid]


def resolve_named(conn: sqlite3.Connection, t: IfxType) -> IfxType:
    """Replace named ROW placeholders (anywhere in the type) by their catalogued structure;
    -9628 for a name that is no type."""
    assert t.cx is not None
    cx = _resolve(conn, t.cx)
    xid = t.xid
    if cx.named:
        found = _named_row(conn, cx.type_name)
        xid = found[0] if found else 0
    return complex_type(cx, t.notnull, xid)


def resolve_placeholders(t: IfxType, find: Callable[[str], IfxType | None]) -> IfxType:
    """A cast target with named types in it (``::person_t``, ``CAST(x AS LIST(person_t NOT
    NULL))``, ``::dollars``) resolved by the compiler's catalog lookup; -9628 for a name that is
    no type. A DISTINCT type comes back as itself (its source's representation)."""
    def node(n: ComplexType) -> ComplexType:
        if n.named and not n.children:
            found = find(n.type_name)
            if found is None:
                raise EngineError(sc.TYPE_NOT_FOUND, near=n.type_name)
            base = node_of(found)
            if found.cx is not None:
                base = replace(base, xid=found.xid)
            return replace(base, notnull=n.notnull, field=n.field)
        if n.children:
            return replace(n, children=tuple(node(c) for c in n.children))
        return n

    assert t.cx is not None
    if t.cx.named and not t.cx.children:
        found = find(t.cx.type_name)
        if found is None:
            raise EngineError(sc.TYPE_NOT_FOUND, near=t.cx.type_name)
        return replace(found, notnull=t.notnull)
    return complex_type(node(t.cx), t.notnull, t.xid)


def _resolve(conn: sqlite3.Connection, node: ComplexType) -> ComplexType:
    if node.named and not node.children:
        found = _named_row(conn, node.type_name)
        if found is None:
            if conn.execute("SELECT 1 FROM sysxtdtypes WHERE name = ? AND mode = 'D'",
                            (node.type_name,)).fetchone():
                raise not_implemented("a DISTINCT type inside a ROW or collection")
            raise EngineError(sc.TYPE_NOT_FOUND, near=node.type_name)
        xid, tree = found
        return replace(tree, notnull=node.notnull, field=node.field, xid=xid)
    if node.children:
        return replace(node, children=tuple(_resolve(conn, c) for c in node.children))
    return node


def create_row_type(dc: Any, spec: RowTypeSpec) -> None:
    """sysxtdtypes (mode R, the name) and sysattrtypes rows; UNDER puts the parent's fields
    first and records the pair in sysinherits."""
    conn = dc.conn
    if conn.execute("SELECT 1 FROM sysxtdtypes WHERE name = ? AND mode IN ('R', 'D')",
                    (spec.name,)).fetchone():
        if spec.if_not_exists:
            return
        raise EngineError(sc.ROW_TYPE_EXISTS, near=spec.name)
    children: list[ComplexType] = []
    parent_xid = 0
    if spec.under:
        found = _named_row(conn, spec.under)
        if found is None:
            raise EngineError(sc.TYPE_NOT_FOUND, near=spec.under)
        parent_xid, parent = found
        from .access import check_under_type  # access -> ddl -> composite at load

        check_under_type(dc, parent_xid, spec.under)
        children += list(parent.children)
    for fname, ftype in spec.fields:
        if ftype.cx is not None:
            ftype = resolve_named(conn, ftype)
        children.append(replace(node_of(ftype), field=fname.lower()))
    cx = ComplexType(T.ROW, named=True, type_name=spec.name, owner=dc.user,
                     children=tuple(children))
    xid = catalog_type(conn, complex_type(cx), dc.user)
    from .access import public_under_on_type  # access -> ddl -> composite at load

    public_under_on_type(dc, xid)
    if parent_xid:
        # class 't' is a named ROW type's inheritance, 'T' a table's (Reference, SYSINHERITS,
        # ids_sqr_043)
        conn.execute("INSERT INTO sysinherits (child, parent, class) VALUES (?, ?, 't')",
                     (xid, parent_xid))


def row_type_columns(conn: sqlite3.Connection, name: str) -> tuple[int, list[tuple[str, IfxType]]]:
    """The columns of ``CREATE TABLE t OF TYPE name``: one per field of the named ROW type,
    inherited fields first (ids_sqs_0099); -9628 for a name that is no named ROW type."""
    found = _named_row(conn, name)
    if found is None:
        raise EngineError(sc.TYPE_NOT_FOUND, near=name)
    xid, tree = found
    return xid, [(c.field, type_of(c)) for c in tree.children]


def drop_row_type(dc: Any, spec: DropRowTypeSpec) -> None:
    conn = dc.conn
    found = _named_row(conn, spec.name)
    if found is None:
        raise EngineError(sc.ROW_TYPE_NOT_FOUND, near=spec.name)
    xid = found[0]
    # In use: by a column, a field of another type, a typed table (systables.type_xid), or as
    # the supertype of another type (DROP ROW TYPE, ids_sqs_0729).
    used = conn.execute("SELECT 1 FROM syscolumns WHERE extended_id = ? UNION ALL "
                        "SELECT 1 FROM sysattrtypes WHERE xtd_type_id = ? AND extended_id <> ? "
                        "UNION ALL SELECT 1 FROM systables WHERE type_xid = ? UNION ALL "
                        "SELECT 1 FROM sysinherits WHERE parent = ? AND class = 't'",
                        (xid, xid, xid, xid, xid)).fetchone()
    if used:
        raise EngineError(sc.ROW_TYPE_IN_USE, near=spec.name)
    conn.execute("DELETE FROM sysattrtypes WHERE extended_id = ?", (xid,))
    conn.execute("DELETE FROM sysxtdtypes WHERE extended_id = ?", (xid,))
    conn.execute("DELETE FROM sysinherits WHERE child = ? AND class = 't'", (xid,))
    conn.execute("DELETE FROM sysxtdtypeauth WHERE type = ?", (xid,))  # its Under grants


# What the catalogue (schema layer) asks of composite types, without importing this module.
FEATURES.complex_types = load_types
FEATURES.complex_type = complex_type
FEATURES.resolve_named = resolve_named
FEATURES.catalog_type = catalog_type
FEATURES.row_type_columns = row_type_columns


# What the core asks of composite types, without importing this module (core/hooks.py).
EXTENSIONS.describe_complex = describe_complex
EXTENSIONS.complex_key = complex_key
EXTENSIONS.complex_from_key = complex_from_key
EXTENSIONS.complex_storer = storer
EXTENSIONS.complex_loader = loader


# The statement parser (sql layer) reads these through its hooks (sql/hooks.py).
PARSERS.create_row_type = parse_create_row_type
PARSERS.drop_row_type = parse_drop_row_type
PARSERS.named_placeholder = named_placeholder


# The SQL translation (sql layer) calls these through its hooks (sql/hooks.py).
TRANSLATION.complex_type = complex_type
TRANSLATION.type_of = type_of
TRANSLATION.node_of = node_of
TRANSLATION.translate_dot = translate_dot
TRANSLATION.translate_collection = translate_collection
TRANSLATION.translate_field = translate_field
TRANSLATION.translate_in_collection = translate_in_collection
TRANSLATION.translate_row = translate_row
TRANSLATION.translate_cardinality = translate_cardinality
TRANSLATION.translate_multiset_of = translate_multiset_of
TRANSLATION.collect = Collect
TRANSLATION.resolve_placeholders = resolve_placeholders
TRANSLATION.compose = compose
