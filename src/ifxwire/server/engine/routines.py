"""SPL routines, the small subset we can run honestly: one RETURN of expressions.

``CREATE FUNCTION f(x INTEGER) RETURNING INTEGER; RETURN x + 1; END FUNCTION`` is stored as its
parameter list, its RETURNING types and the text of the RETURN expressions. A call, whether
``EXECUTE FUNCTION f(41)`` or ``f(col)`` inside a query, is expanded like a macro: the
parameters inside the RETURN expressions are replaced by the (cast) arguments and the result is
cast to the RETURNING type. Anything beyond a single RETURN (DEFINE, LET, IF, FOREACH, …) is
refused at CREATE with -999, so no routine ever runs differently from Informix.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from sqlglot import exp
from sqlglot.tokenizer_core import Token, TokenType

from . import sqlcodes as sc
from .errors import EngineError, not_implemented
from .ifxtypes import IfxType, from_key

_SPL_STATEMENTS = frozenset((
    "DEFINE", "LET", "IF", "FOR", "FOREACH", "WHILE", "LOOP", "CALL", "SYSTEM", "RAISE", "ON",
    "BEGIN", "INSERT", "UPDATE", "DELETE", "SELECT", "EXECUTE", "TRACE", "RETURN", "CONTINUE",
    "EXIT", "GOTO", "CASE",
))


@dataclass
class Routine:
    name: str
    params: list[tuple[str, IfxType]]
    returns: list[IfxType]
    body: str  # text of the RETURN expression list ('' for none)
    function: bool

    def to_row(self) -> tuple[str, str, str, str, int]:
        return (self.name, json.dumps([[n, t.key] for n, t in self.params]),
                json.dumps([t.key for t in self.returns]), self.body, int(self.function))

    @classmethod
    def from_row(cls, row: tuple[str, str, str, str, int]) -> Routine:
        name, params, returns, body, function = row
        return cls(name, [(n, from_key(k)) for n, k in json.loads(params)],
                   [from_key(k) for k in json.loads(returns)], body, bool(function))


def split_routine(sql: str, toks: list[Token]) -> tuple[list[Token], str, int]:
    """Split CREATE FUNCTION/PROCEDURE tokens into (header tokens, RETURN text, RETURN offset).

    Raises -999 for bodies other than ``[RETURN e[, e…];] END FUNCTION|PROCEDURE [WITH (…)]``.
    """
    chunks: list[list[Token]] = [[]]
    for tok in toks:
        if tok.token_type == TokenType.SEMICOLON:
            chunks.append([])
        else:
            chunks[-1].append(tok)
    chunks = [c for c in chunks if c]
    last = chunks[-1]
    if len(chunks) == 1 and len(last) > 2 and last[-2].text.upper() == "END":
        chunks = [last[:-2], last[-2:]]  # CREATE PROCEDURE p() END PROCEDURE
    if len(chunks) < 2:
        raise EngineError(sc.SYNTAX)
    header, body = chunks[0], chunks[1:]
    end = body[-1]
    if end[0].text.upper() != "END" or len(end) < 2 or end[1].text.upper() not in (
        "FUNCTION", "PROCEDURE"
    ):
        raise EngineError(sc.SYNTAX, near=end[0].text, offset=end[0].start)
    statements = body[:-1]
    if not statements:
        return header, "", 0
    if len(statements) != 1 or statements[0][0].text.upper() != "RETURN":
        raise not_implemented("SPL routine bodies other than a single RETURN")
    ret = statements[0]
    if len(ret) == 1:
        return header, "", 0
    return header, sql[ret[1].start : ret[-1].end + 1], ret[1].start


def expand(routine: Routine, args: list[exp.Expr], parse_exprs: object) -> list[exp.Expr]:
    """The RETURN expressions with each parameter replaced by its argument cast to the
    parameter type, each wrapped in a cast to its RETURNING type."""
    from .dialect import ifx_type_node

    if len(args) != len(routine.params):
        raise EngineError(sc.NO_ROUTINE, near=routine.name)
    if not routine.body:
        return []
    assert callable(parse_exprs)
    exprs: list[exp.Expr] = parse_exprs(routine.body)
    if len(exprs) != len(routine.returns):
        raise EngineError(sc.NO_ROUTINE, near=routine.name)
    values = {name: exp.Cast(this=arg.copy(), to=ifx_type_node(ty))
              for (name, ty), arg in zip(routine.params, args, strict=True)}
    out: list[exp.Expr] = []
    for e, rtype in zip(exprs, routine.returns, strict=True):
        for col in list(e.find_all(exp.Column)):
            if not col.table and col.name.lower() in values:
                col.replace(values[col.name.lower()].copy())
        if isinstance(e, exp.Column) and not e.table and e.name.lower() in values:
            e = values[e.name.lower()].copy()
        out.append(exp.Cast(this=e, to=ifx_type_node(rtype)))
    return out


def parse_header(p: object) -> tuple[str, list[tuple[str, IfxType]], list[IfxType], bool]:
    """Parse ``CREATE [DBA] FUNCTION|PROCEDURE name(params) [RETURNING t, …] [WITH (…)]``
    with the statement parser ``p`` positioned after CREATE."""
    from .statements import IfxParser

    assert isinstance(p, IfxParser)
    if p._word() == "DBA":
        p._advance()
    kind = p._word()
    p._advance()
    name = p._name()
    params: list[tuple[str, IfxType]] = []
    p._match_l_paren()
    if not p._match(TokenType.R_PAREN):
        while True:
            if p._word() in ("IN", "OUT", "INOUT"):
                if p._word() != "IN":
                    raise not_implemented("OUT parameters")
                p._advance()
            pname = p._name()
            node = p._parse_types()
            if not isinstance(node, exp.DataType) or node.meta.get("ifx") is None:
                raise not_implemented("routine parameter type")
            params.append((pname, node.meta["ifx"]))
            if p._word() == "DEFAULT":
                raise not_implemented("parameter defaults")
            if not p._match(TokenType.COMMA):
                break
        p._match_r_paren()
    returns: list[IfxType] = []
    if p._word() in ("RETURNING", "RETURNS"):
        p._advance()
        while True:
            node = p._parse_types()
            if not isinstance(node, exp.DataType) or node.meta.get("ifx") is None:
                raise not_implemented("routine return type")
            returns.append(node.meta["ifx"])
            if p._word() == "AS":
                p._advance(2)
            if not p._match(TokenType.COMMA):
                break
    while p._curr:
        if p._word() == "WITH":
            p._advance()
            depth = 0
            while p._curr:
                if p._curr.token_type == TokenType.L_PAREN:
                    depth += 1
                elif p._curr.token_type == TokenType.R_PAREN:
                    depth -= 1
                p._advance()
                if depth == 0:
                    break
        elif p._word() == "SPECIFIC":
            p._advance(2)
        elif p._word() in _SPL_STATEMENTS:
            raise not_implemented("SPL routine bodies other than a single RETURN")
        else:
            p.raise_error("Unexpected routine option")
    return name, params, returns, kind == "FUNCTION"
