"""Token-level helpers for the SPL parser: the SPL tokenizer and a cursor over its tokens.

The SPL parser (``parser.py``) walks a routine's tokens itself for the control flow and
hands every expression, type and embedded SQL statement to the engine's sqlglot parser,
positioned on the same tokens, so that SPL accepts exactly the expressions SQL does. Errors
are -201 naming the offending token and its offset in the statement text.
"""

from __future__ import annotations

import typing as t

from sqlglot import exp
from sqlglot.errors import ErrorLevel, ParseError, TokenError
from sqlglot.tokenizer_core import Token, TokenType

from ...core import sqlcodes as sc
from ...core.errors import EngineError, not_implemented
from ...core.ifxtypes import IfxType
from ...sql.ifxnodes import IfxParseError
from ...sql.statements import _DIALECTS
from ...sql.tokenizer import IfxDelimidentTokenizer, IfxTokenizer
from ..composite import named_placeholder


class SplTokenizer(IfxTokenizer):
    """Inside routine bodies CALL, FETCH and PREPARE are statements, not raw commands."""

    KEYWORDS: t.ClassVar[dict[str, TokenType]] = {
        k: v for k, v in IfxTokenizer.KEYWORDS.items() if k not in ("CALL", "FETCH", "PREPARE")}
    COMMANDS: t.ClassVar[set[TokenType]] = {TokenType.COMMAND}


class SplDelimidentTokenizer(IfxDelimidentTokenizer):
    KEYWORDS: t.ClassVar[dict[str, TokenType]] = SplTokenizer.KEYWORDS
    COMMANDS: t.ClassVar[set[TokenType]] = {TokenType.COMMAND}


def tokenize(sql: str, delimident: bool) -> list[Token]:
    tokenizer = SplDelimidentTokenizer() if delimident else SplTokenizer()
    try:
        return list(tokenizer.tokenize(sql))
    except TokenError as e:
        text = f"{e} {e.__cause__ or ''}"
        code = sc.UNMATCHED_QUOTE if "Missing" in text else sc.ILLEGAL_CHAR
        raise EngineError(code, offset=max(getattr(e, "start", 0) or 0, 0)) from None


class TokenCursor:
    """A position in the tokens of one statement, with sqlglot parsers on the same tokens."""

    def __init__(self, sql: str, toks: list[Token], delimident: bool = False) -> None:
        self.sql = sql
        self.toks = toks
        self.i = 0
        self.delimident = delimident
        self.dialect = _DIALECTS[delimident]
        self.p = self.dialect.parser(error_level=ErrorLevel.IMMEDIATE)
        self.p.reset()
        self.p.sql = sql
        self.iterator = False
        self.function = False
        self.nreturns = 0

    # ---- tokens ----------------------------------------------------------------------------
    def tok(self, k: int = 0) -> Token | None:
        j = self.i + k
        return self.toks[j] if j < len(self.toks) else None

    def word(self, k: int = 0) -> str:
        tok = self.tok(k)
        return tok.text.upper() if tok is not None and tok.token_type != TokenType.STRING else ""

    def is_type(self, tt: TokenType, k: int = 0) -> bool:
        tok = self.tok(k)
        return tok is not None and tok.token_type == tt

    def pos(self) -> int:
        tok = self.tok()
        return tok.start if tok is not None else len(self.sql)

    def error(self, what: str = "", tok: Token | None = None) -> EngineError:
        tok = tok or self.tok() or (self.toks[-1] if self.toks else None)
        if tok is None:
            return EngineError(sc.SYNTAX)
        return EngineError(sc.SYNTAX, near=tok.text, offset=max(tok.start, 0))

    def eat(self, *words: str) -> bool:
        for k, w in enumerate(words):
            if self.word(k) != w:
                return False
        self.i += len(words)
        return True

    def expect(self, *words: str) -> None:
        if not self.eat(*words):
            raise self.error()

    def eat_type(self, tt: TokenType) -> bool:
        if self.is_type(tt):
            self.i += 1
            return True
        return False

    def expect_type(self, tt: TokenType) -> None:
        if not self.eat_type(tt):
            raise self.error()

    def semicolon(self, required: bool = True) -> None:
        if not self.eat_type(TokenType.SEMICOLON) and required:
            raise self.error()

    def name(self) -> str:
        """An identifier (folded to lower case unless delimited)."""
        tok = self.tok()
        if tok is None or tok.token_type in (TokenType.L_PAREN, TokenType.R_PAREN,
                                             TokenType.COMMA, TokenType.SEMICOLON,
                                             TokenType.STRING, TokenType.NUMBER, TokenType.EQ):
            raise self.error()
        self.i += 1
        return tok.text if tok.token_type == TokenType.IDENTIFIER else tok.text.lower()

    def target(self) -> str:
        """A LET target: a variable, ``row.column`` of a trigger routine's NEW row, or a
        character variable's substring ``name[m,n]`` (subscript())."""
        name = self.name()
        if self.is_type(TokenType.DOT):
            while self.eat_type(TokenType.DOT):  # row.col, or a ROW variable's field path
                name += "." + self.name()
            return name
        return name + self.subscript()

    def subscript(self) -> str:
        """``[m,n]`` or ``[m]`` after a variable, as written ('' for none): the characters m
        to n of a character variable (Guide to SQL: Tutorial, "Subscripts with variables",
        ids_sqt_446); m and n are positive integer constants, m <= n."""
        if not self.eat_type(TokenType.L_BRACKET):
            return ""
        first = self.tok()
        if first is None or first.token_type != TokenType.NUMBER or not first.text.isdigit():
            raise self.error()
        self.i += 1
        last = first
        if self.eat_type(TokenType.COMMA):
            last = self.tok()  # type: ignore[assignment]
            if last is None or last.token_type != TokenType.NUMBER or not last.text.isdigit():
                raise self.error()
            self.i += 1
        if not self.eat_type(TokenType.R_BRACKET):
            raise self.error()
        m, n = int(first.text), int(last.text)
        if m < 1 or n < m:
            raise self.error(tok=first)
        return f"[{m},{n}]"

    def names(self) -> list[str]:
        out = [self.name()]
        while self.eat_type(TokenType.COMMA):
            out.append(self.name())
        return out

    # ---- sqlglot sub-parsers ---------------------------------------------------------------
    def _sync(self) -> None:
        p = self.p
        p._tokens = self.toks
        p._tokens_size = len(self.toks)
        p._index = self.i - 1
        p._advance()

    def _run(self, fn: t.Callable[[], exp.Expr | None]) -> exp.Expr:
        self._sync()
        try:
            node = fn()
        except IfxParseError as e:
            raise EngineError(sc.SYNTAX, near=e.near, offset=e.offset) from None
        except ParseError:
            raise self.error() from None
        if node is None:
            raise self.error()
        self.i = self.p._index
        return node

    def expr(self) -> exp.Expr:
        return self._run(self.p._parse_assignment)

    def exprs(self) -> list[exp.Expr]:
        out = [self.expr()]
        while self.eat_type(TokenType.COMMA):
            out.append(self.expr())
        return out

    def ifx_type(self) -> IfxType:
        """A parameter's, variable's or return value's type. A single name that is no
        built-in type may be a DISTINCT type of the database: a placeholder here, resolved
        against the catalogue where one is at hand (spl/usertypes.py)."""
        start = self.tok()
        at = self.i
        node = self._run(self.p._parse_types)
        ty = node.meta.get("ifx") if isinstance(node, exp.DataType) else None
        if ty is None:
            if (start is not None and self.i == at + 1 and start.token_type in (
                    TokenType.VAR, TokenType.IDENTIFIER)):
                name = start.text if start.token_type == TokenType.IDENTIFIER else (
                    start.text.lower())
                return named_placeholder(name)
            raise not_implemented(f"SPL type {start.text if start else '?'}")
        return t.cast(IfxType, ty)

    def sql_tree(self, toks: list[Token]) -> exp.Expr:
        """One SQL statement from a token slice, parsed as the engine parses client SQL."""
        p = self.dialect.parser(error_level=ErrorLevel.IMMEDIATE)
        try:
            trees = p.parse(toks, self.sql)
        except IfxParseError as e:
            raise EngineError(sc.SYNTAX, near=e.near, offset=e.offset) from None
        except ParseError:
            raise self.error(tok=toks[0] if toks else None) from None
        stmts = [tree for tree in trees if tree is not None]
        if len(stmts) != 1:
            raise self.error(tok=toks[0] if toks else None)
        return stmts[0]

    # ---- CREATE PROCEDURE / FUNCTION ---------------------------------------------------------

    def string(self) -> str:
        tok = self.tok()
        if tok is None or tok.token_type != TokenType.STRING:
            raise self.error()
        self.i += 1
        return tok.text

    def qualified_name(self) -> tuple[str | None, str]:
        first = self.tok()
        if first is not None and first.token_type == TokenType.STRING and self.is_type(
                TokenType.DOT, 1):
            self.i += 2
            return first.text, self.name()
        name = self.name()
        if self.eat_type(TokenType.DOT):
            return name, self.name()
        return None, name

    def column_ref(self) -> tuple[str | None, str, str]:
        parts = [self.name()]
        while self.eat_type(TokenType.DOT):
            parts.append(self.name())
        if len(parts) == 2:
            return None, parts[0], parts[1]
        if len(parts) == 3:
            return parts[0], parts[1], parts[2]
        raise self.error()
