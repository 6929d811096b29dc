"""``INSERT [AT n] INTO TABLE(collection_variable) VALUES (value)`` in an SPL routine.

The Tutorial's way to add an element to a collection an SPL routine holds ("Insert into a
collection", ids_sqt_491: ``INSERT INTO TABLE (r) VALUES(emp)`` on a SET variable, then an
UPDATE stores the variable; "Insert elements into a collection variable", ids_sqt_475 to
ids_sqt_478: a SET or MULTISET takes the value "but the position of the new element is
undefined", a LIST takes it at the end or, with AT n, at position n). A collection-derived
table of anything but a variable stays read-only here (-9945, docs/SERVER.md).

The SPL parser makes the statement an assignment, ``LET var = <INSERT_FN>(var, value[, n])``;
the SQL translation below converts the value to the element type (so its checks and
conversions are an INSERT's), and ``ifx_coll_insert`` adds it to the variable's storage: a
SET keeps one copy of each value, a SET and a MULTISET their storage order, an AT position
past the end appends.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

from sqlglot import exp
from sqlglot.tokenizer_core import TokenType

from .....protocol.codes import TypeCode as T
from ...core import ifxtypes as it
from ...core import sqlcodes as sc
from ...core.errors import EngineError, not_implemented
from ...sql.exprs import func, keylit, ty, typed
from ...sql.hooks import TRANSLATION
from ..composite import _in_storage_order
from ..composite_types import complex_from_key, type_of
from . import ast as a

if TYPE_CHECKING:
    from .parser import SplParser

INSERT_FN = "IFX_SPL_COLLECTION_INSERT"


def parse(sp: SplParser) -> a.Let | None:
    """``INSERT [AT n] INTO TABLE(var) VALUES (value);`` as ``LET var = …``; None, and
    nothing read, for any other INSERT (an SQL statement)."""
    start = sp.i
    node = a.Let(sp.pos())
    sp.expect("INSERT")
    position = sp.expr() if sp.eat("AT") else None
    if not (sp.eat("INTO", "TABLE") and sp.eat_type(TokenType.L_PAREN)
            and sp.is_type(TokenType.R_PAREN, 1)):
        sp.i = start
        return None
    var = sp.name()
    sp.expect_type(TokenType.R_PAREN)
    sp.expect("VALUES")
    sp.expect_type(TokenType.L_PAREN)
    value = sp.expr()
    sp.expect_type(TokenType.R_PAREN)
    sp.semicolon()
    args = [exp.column(var), value] + ([position] if position is not None else [])
    node.targets = [var]
    node.exprs = [exp.Anonymous(this=INSERT_FN, expressions=args)]
    return node


_CHANGE = re.compile(r"\s*(DELETE\s+FROM|UPDATE)\s+TABLE\s*\(", re.IGNORECASE)


def refuse_change(text: str) -> None:
    """UPDATE or DELETE of a collection-derived table in a routine (the Tutorial's FOREACH
    over ``TABLE(var)`` with ``WHERE CURRENT OF``, ids_sqt_476/477): not done, so -999 when
    the routine is created (it was -201 when it ran)."""
    if _CHANGE.match(text):
        raise not_implemented("UPDATE or DELETE of a collection variable's elements")


def _translate(tx: Any, node: exp.Anonymous) -> exp.Expr:
    coll = tx.tx(node.expressions[0])
    t = ty(coll)
    if t.cx is None or not t.cx.is_collection:
        raise EngineError(sc.COLLECTION_REQUIRED)
    value = tx.convert(tx.tx(node.expressions[1]), type_of(t.cx.element))
    if len(node.expressions) > 2:
        if t.cx.code != T.LIST:  # AT names a position: only a LIST has positions
            raise EngineError(sc.SYNTAX, near="at")
        pos = tx.convert(tx.tx(node.expressions[2]), it.INTEGER)
    else:
        pos = exp.Null()
    return typed(func("ifx_coll_insert", keylit(t), coll, value, pos), t)


def coll_insert(key: str, coll: object, value: object, position: object) -> str:
    """The collection's JSON storage with ``value`` (an element's storage) added."""
    node = complex_from_key(key).cx
    assert node is not None
    if value is None:
        raise EngineError(sc.NULL_IN_COLLECTION)
    items = json.loads(coll) if isinstance(coll, str) else []
    element = json.loads(value) if node.element.is_complex and isinstance(value, str) else value
    if position is None or int(position) > len(items):  # type: ignore[call-overload]
        items.append(element)
    else:
        items.insert(max(int(position) - 1, 0), element)  # type: ignore[call-overload]
    return json.dumps(_in_storage_order(node.code, items), ensure_ascii=False,
                      separators=(",", ":"))


TRANSLATION.functions[INSERT_FN] = _translate
TRANSLATION.sqlite_functions["ifx_coll_insert"] = (4, coll_insert, True)
