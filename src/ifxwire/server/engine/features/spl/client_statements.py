"""The routine statements a client sends, read with the engine's statement parser ``p``.

``EXECUTE PROCEDURE|FUNCTION`` and ``DROP [SPECIFIC] PROCEDURE|FUNCTION|ROUTINE`` (also the
routine of GRANT/REVOKE EXECUTE ON) are read by sqlglot's parser through the sql layer's hooks
(sql/hooks.py; parser.py registers them); the routine body itself is parsed by parser.py's
``SplParser``. Apart from parser.py because these functions work on the statement parser, not
on SPL tokens (the ~800-line rule).
"""

from __future__ import annotations

import typing as t

from sqlglot import exp
from sqlglot.tokenizer_core import TokenType

from ...core.errors import not_implemented
from ...core.ifxtypes import IfxType
from ...sql.statement_specs import DropRoutine
from ..composite import named_placeholder
from . import ast as a


def parse_call(p: t.Any) -> a.CallSpec:
    """``EXECUTE PROCEDURE|FUNCTION [owner.]name[(args)] [WITH TRIGGER REFERENCES]`` as sent
    by a client, parsed with the statement parser ``p`` positioned at EXECUTE."""
    start = p._curr.start if p._curr else 0
    p._advance()
    kind = p._word()
    if kind not in ("PROCEDURE", "FUNCTION"):
        raise not_implemented(f"EXECUTE {kind}")
    p._advance()
    name = p._name()
    owner: str | None = None
    if p._match(TokenType.DOT):
        owner, name = name, p._name()
    spec = a.CallSpec(start, name=name, owner=owner, kind=kind.lower())
    if p._match(TokenType.L_PAREN) and not p._match(TokenType.R_PAREN):
        spec.args = [x for x in p._parse_csv(p._parse_lambda) if x is not None]
        p._match_r_paren()
    if p._word() == "WITH":
        p._expect_word("WITH", "TRIGGER", "REFERENCES")
        spec.trigger_refs = True
    return spec


def drop_target(p: t.Any) -> tuple[bool, str | None, str]:
    """``[IF EXISTS] [owner.]name`` after DROP <kind>: (if_exists, owner, name)."""
    if_exists = False
    if p._word() == "IF" and p._word(1) == "EXISTS":
        p._advance(2)
        if_exists = True
    name = p._name()
    owner: str | None = None
    if p._match(TokenType.DOT):
        owner, name = name, p._name()
    return if_exists, owner, name


def parse_drop(p: t.Any, kind: str) -> t.Any:
    """``DROP [SPECIFIC] {PROCEDURE|FUNCTION|ROUTINE} [IF EXISTS] name [(types)]`` with the
    statement parser ``p`` positioned after DROP (also the routine of GRANT/REVOKE EXECUTE
    ON, where ``kind`` "" means a bare name: any routine)."""
    specific = False
    if kind == "SPECIFIC":
        specific = True
        p._advance()
        kind = p._word()
        if kind not in ("PROCEDURE", "FUNCTION", "ROUTINE"):
            p.raise_error("Expected PROCEDURE, FUNCTION or ROUTINE")
    if kind:
        p._advance()
    else:
        kind = "ROUTINE"
    if_exists, owner, name = drop_target(p)
    types: list[IfxType] | None = None
    if not specific and p._match(TokenType.L_PAREN):
        types = []
        if not p._match(TokenType.R_PAREN):
            while True:
                word = p._curr
                node = p._parse_types()
                ty = node.meta.get("ifx") if isinstance(node, exp.DataType) else None
                if ty is None and word is not None and p._prev is word and (
                        word.token_type in (TokenType.VAR, TokenType.IDENTIFIER)):
                    # perhaps a DISTINCT type: ``matching`` resolves it (spl/usertypes.py)
                    ty = named_placeholder(word.text if word.token_type == TokenType.IDENTIFIER
                                           else word.text.lower())
                if ty is None:
                    raise not_implemented("routine parameter type")
                types.append(ty.nullable())
                if not p._match(TokenType.COMMA):
                    break
            p._match_r_paren()
    return DropRoutine(kind, name, owner, types, specific, if_exists)
