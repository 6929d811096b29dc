"""Take the SPL-only parts out of an embedded SQL statement's tokens before sqlglot reads it.

A SELECT's ``INTO v1, v2`` (SPL variables, not INTO TEMP) and an UPDATE/DELETE's ``WHERE
CURRENT OF cursor`` are SPL grammar, not SQL: ``SplParser.sql_from`` (parser.py) removes them
here and keeps the names on the ``Sql`` node. Apart from parser.py so that file holds the
statement grammar only (the ~800-line rule).
"""

from __future__ import annotations

import typing as t

from sqlglot.tokenizer_core import Token, TokenType

if t.TYPE_CHECKING:
    from .parser import SplParser


def _take_into(toks: list[Token], sp: SplParser) -> tuple[list[Token], list[str]]:
    """Remove ``INTO v1, v2`` (not INTO TEMP) from the top level of a SELECT.

    "Only two forms of the SELECT statement are valid in queries within SPL routines": INTO
    TEMP and SELECT … INTO SPL variables (Syntax, "SQL Statements Valid in SPL Statement
    Blocks", ids_sqs_1752). The variables come before FROM; an INTO after the FROM clause
    other than INTO TEMP is the INTO STANDARD | RAW | table clause of a plain SELECT
    (ids_sqs_0159), outside the SPL grammar: -201 at its INTO (the code is inferred; it was
    read as INTO variables, -217 for STANDARD)."""
    depth = 0
    after_from = False
    for k, tok in enumerate(toks):
        tt = tok.token_type
        if tt == TokenType.L_PAREN:
            depth += 1
        elif tt == TokenType.R_PAREN:
            depth -= 1
        elif depth == 0 and tt == TokenType.FROM:
            after_from = True
        elif depth == 0 and tt == TokenType.INTO:
            nxt = toks[k + 1].text.upper() if k + 1 < len(toks) else ""
            if nxt in ("TEMP", "SCRATCH", "EXTERNAL"):
                return toks, []
            if after_from:
                raise sp.error(tok=tok)
            names: list[str] = []
            m = k + 1
            while m < len(toks):
                name_tok = toks[m]
                if name_tok.token_type in (TokenType.STRING, TokenType.NUMBER):
                    raise sp.error(tok=name_tok)
                names.append(name_tok.text if name_tok.token_type == TokenType.IDENTIFIER
                             else name_tok.text.lower())
                m += 1
                if m < len(toks) and toks[m].token_type == TokenType.L_BRACKET:
                    # INTO name[m,n]: a substring of a character variable (ids_sqt_446)
                    end = m
                    while end < len(toks) and toks[end].token_type != TokenType.R_BRACKET:
                        end += 1
                    sub = sp.__class__(sp.sql, toks[m:end + 1], sp.delimident)
                    names[-1] += sub.subscript()
                    m = end + 1
                if m < len(toks) and toks[m].token_type == TokenType.COMMA:
                    m += 1
                    continue
                break
            return toks[:k] + toks[m:], names
    return toks, []


def _take_current_of(toks: list[Token], sp: SplParser) -> tuple[list[Token], str | None]:
    """``… WHERE CURRENT OF cursor``: the cursor name, and the statement without the WHERE."""
    n = len(toks)
    for k in range(n - 3):
        if [tk.text.upper() for tk in toks[k : k + 3]] == ["WHERE", "CURRENT", "OF"]:
            if k + 4 != n:
                raise sp.error(tok=toks[min(k + 4, n - 1)])
            name_tok = toks[k + 3]
            return toks[:k], name_tok.text if name_tok.token_type == TokenType.IDENTIFIER \
                else name_tok.text.lower()
    return toks, None
