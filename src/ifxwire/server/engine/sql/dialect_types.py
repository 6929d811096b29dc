"""Informix type words in CAST, ``::`` and DDL, and DATETIME/INTERVAL qualifiers, for the
dialect's parser.

Split from dialect.py (the ~800-line rule): ``IfxTypeParser`` is the base of ``IfxExprParser``
and holds the type grammar with the small token helpers (``_word``, ``_eat``, ``_paren_ints``,
...) that it and the expression parser share. A type is parsed straight into an ``IfxType``
carried in the DataType node's ``meta["ifx"]`` (ifxnodes.ifx_type_node).
"""

from __future__ import annotations

from dataclasses import replace

from sqlglot import exp, parser
from sqlglot.tokenizer_core import Token, TokenType

from ....protocol.codes import TimeUnit, TypeCode
from ....types.complextype import ComplexType
from ..core import ifxtypes as it
from ..core import sqlcodes as sc
from ..core.errors import EngineError
from ..core.ifxtypes import FLOATING, IfxType
from .hooks import PARSERS, TRANSLATION
from .ifxnodes import IfxParseError, ifx_type_node

T = TypeCode
U = TimeUnit

_TYPE_WORDS = frozenset((
    "CHAR", "CHARACTER", "NCHAR", "VARCHAR", "NVARCHAR", "LVARCHAR", "SMALLINT", "INTEGER", "INT",
    "INT8", "BIGINT", "SERIAL", "SERIAL8", "BIGSERIAL", "SMALLFLOAT", "REAL", "FLOAT", "DOUBLE",
    "DECIMAL", "DEC", "NUMERIC", "MONEY", "DATE", "DATETIME", "INTERVAL", "BOOLEAN", "BYTE",
    "TEXT", "BLOB", "CLOB", "SET", "MULTISET", "LIST", "ROW",
)) | {"DOUBLE PRECISION", "CHARACTER VARYING", "CHAR VARYING"}
_UNIT_WORDS = frozenset(("YEAR", "MONTH", "DAY", "HOUR", "MINUTE", "SECOND", "FRACTION"))

class IfxTypeParser(parser.Parser):
    """The type and qualifier grammar, and the token helpers the Informix parser shares."""

    # ---- errors
    def raise_error(self, message: str, token: Token | None = None) -> None:
        tok = token or self._curr or self._prev or Token.string("")
        raise IfxParseError(message, max(tok.start, 0), tok.text)

    # ---- small helpers
    def _word(self, offset: int = 0) -> str:
        tok = self._curr if offset == 0 else (self._next if offset == 1 else None)
        if offset > 1 and self._index + offset < len(self._tokens):
            tok = self._tokens[self._index + offset]
        return tok.text.upper() if tok and tok.token_type != TokenType.STRING else ""

    def _at(self, *words: str) -> int:
        """How many tokens spell ``words`` here (sqlglot fuses some pairs, e.g. PRIMARY KEY)."""
        target = " ".join(words)
        acc = ""
        i = self._index
        while i < len(self._tokens) and len(acc) < len(target):
            tok = self._tokens[i]
            if tok.token_type == TokenType.STRING:
                return 0
            acc = f"{acc} {tok.text.upper()}" if acc else tok.text.upper()
            i += 1
            if acc == target:
                return i - self._index
        return 0

    def _eat(self, *words: str) -> bool:
        n = self._at(*words)
        if n:
            self._advance(n)
        return bool(n)

    def _expect_word(self, *words: str) -> None:
        if not self._eat(*words):
            self.raise_error(f"Expected {' '.join(words)}")

    def _int_arg(self) -> int:
        if not self._curr or self._curr.token_type != TokenType.NUMBER:
            self.raise_error("Expected a number")
        text = self._curr.text
        self._advance()
        try:
            return int(text)
        except ValueError:
            self.raise_error("Expected an integer", self._prev)
            raise AssertionError from None  # unreachable: raise_error raises

    def _paren_ints(self) -> list[int]:
        """Optional '(n[, m])'."""
        if not self._match(TokenType.L_PAREN):
            return []
        vals = [self._int_arg()]
        while self._match(TokenType.COMMA):
            vals.append(self._int_arg())
        self._match_r_paren()
        return vals

    def _parse_unit(self) -> tuple[int, int | None] | None:
        """A qualifier field: YEAR … SECOND, FRACTION; returns (unit, parenthesised n)."""
        word = self._word()
        if word not in _UNIT_WORDS:
            return None
        self._advance()
        args = self._paren_ints()
        n = args[0] if args else None
        if word == "FRACTION":
            digits = 3 if n is None else n
            if not 1 <= digits <= 5:
                self.raise_error("FRACTION precision must be 1 to 5", self._prev)
            return U.SECOND + digits, None
        return it.UNIT_BY_NAME[word], n

    def _parse_qualifier(self, code: int, optional: bool) -> IfxType | None:
        """'start[(n)] TO end[(n)]' (or a single field) into a DATETIME/INTERVAL type."""
        index = self._index
        first = self._parse_unit()
        if first is None:
            if optional:
                return None
            self.raise_error("Expected a datetime qualifier")
            return None
        start, lead = first
        end = start
        if self._word() == "TO":
            self._advance()
            last = self._parse_unit()
            if last is None:
                self._retreat(index)
                self.raise_error("Expected a datetime qualifier")
                return None
            end = last[0]
        elif start > U.SECOND and code == T.DATETIME:
            pass
        # The qualifier's words parsed: what is wrong now is the qualifier itself, -1268
        # "Invalid datetime or interval qualifier" [jcat]: a last field larger than the first
        # (MINUTE TO HOUR; "DATETIME Field Qualifier", ids_sqs_1424), an INTERVAL across
        # MONTH and DAY or with a first-field precision outside 1 to 9 ("INTERVAL Field
        # Qualifier", ids_sqs_1596). They were -201.
        if end < start or start > U.SECOND:
            raise EngineError(sc.BAD_QUALIFIER, near=self._prev.text if self._prev else "")
        if code == T.DATETIME:
            return it.datetime_type(start, end)
        if (start <= U.MONTH) != (end <= U.MONTH):
            raise EngineError(sc.BAD_QUALIFIER, near=self._prev.text if self._prev else "")
        lead = lead if lead is not None else it.FIELD_WIDTH.get(start, 2)
        if not 1 <= lead <= 9:
            raise EngineError(sc.BAD_QUALIFIER, near=str(lead))
        return it.interval_type(start, end, lead)

    # ---- Informix types in CAST / :: / DDL
    def _parse_types(
        self,
        check_func: bool = False,
        schema: bool = False,
        allow_identifiers: bool = True,
        with_collation: bool = False,
    ) -> exp.Expr | None:
        if not check_func and self._curr and self._word() in _TYPE_WORDS:
            return self.parse_ifx_type()
        if (not check_func and self._curr is not None and self._prev is not None
                and self._prev.token_type in (TokenType.DCOLON, TokenType.ALIAS)
                and self._curr.token_type in (TokenType.VAR, TokenType.IDENTIFIER)):
            # ``x::person_t``, ``CAST(x AS dollars)``: a named ROW or DISTINCT type, resolved
            # against the catalog when the cast is compiled (-9628 if there is none).
            name = self._curr.text.lower()
            self._advance()
            return ifx_type_node(PARSERS.named_placeholder(name))
        return super()._parse_types(check_func, schema, allow_identifiers, with_collation)

    def parse_ifx_type(self) -> exp.DataType:
        word = self._word()
        self._advance()
        serial_start: int | None = None
        ty: IfxType
        if word in ("CHAR VARYING", "CHARACTER VARYING"):
            args = self._paren_ints() or [1]
            _varchar_bounds(args)
            ty = it.varchar(args[0], args[1] if len(args) > 1 else 0)
        elif word in ("CHAR", "CHARACTER", "NCHAR"):
            if word == "CHARACTER" and self._word() == "VARYING":
                self._advance()
                args = self._paren_ints() or [1]
                _varchar_bounds(args)
                ty = it.varchar(args[0], args[1] if len(args) > 1 else 0)
            else:
                args = self._paren_ints() or [1]
                ty = IfxType(T.NCHAR if word == "NCHAR" else T.CHAR, size=args[0])
                if ty.size > 32767:
                    # "CHAR(n) data type" (ids_sqr_101): n is 1 to 32,767 bytes
                    raise EngineError(sc.CHAR_SIZE, near=str(ty.size))
            if not 1 <= ty.size <= 32767:
                self.raise_error("Invalid CHAR length", self._prev)
        elif word in ("VARCHAR", "NVARCHAR"):
            args = self._paren_ints() or [1]
            reserve = args[1] if len(args) > 1 else 0
            _varchar_bounds(args)
            if not 1 <= args[0] <= 255 or not 0 <= reserve <= args[0]:
                self.raise_error("Invalid VARCHAR length", self._prev)
            ty = IfxType(T.NVARCHAR if word == "NVARCHAR" else T.VARCHAR, size=args[0],
                         minsize=reserve)
        elif word == "LVARCHAR":
            args = self._paren_ints() or [2048]
            if args[0] > 32739:  # LVARCHAR's "upper limit is 32,739 bytes" (ids_sqr_148)
                raise EngineError(sc.LVARCHAR_SIZE, near=str(args[0]))
            if not 1 <= args[0] <= 32739:
                self.raise_error("Invalid LVARCHAR length", self._prev)
            ty = IfxType(T.LVARCHAR, size=args[0])
        elif word in ("INTEGER", "INT"):
            ty = it.INTEGER
        elif word in ("SMALLINT", "INT8", "BIGINT", "DATE", "BOOLEAN", "SMALLFLOAT"):
            ty = IfxType({"SMALLINT": T.SMALLINT, "INT8": T.INT8, "BIGINT": T.BIGINT,
                          "DATE": T.DATE, "BOOLEAN": T.BOOLEAN,
                          "SMALLFLOAT": T.SMALLFLOAT}[word])
        elif word in ("SERIAL", "SERIAL8", "BIGSERIAL"):
            args = self._paren_ints()
            serial_start = args[0] if args else None
            ty = IfxType({"SERIAL": T.SERIAL, "SERIAL8": T.SERIAL8,
                          "BIGSERIAL": T.BIGSERIAL}[word])
        elif word == "REAL":
            ty = it.SMALLFLOAT
        elif word == "FLOAT":
            self._paren_ints()
            ty = it.FLOAT
        elif word in ("DOUBLE", "DOUBLE PRECISION"):
            if self._word() == "PRECISION":
                self._advance()
            ty = it.FLOAT
        elif word in ("DECIMAL", "DEC", "NUMERIC"):
            args = self._paren_ints() or [16]
            prec = args[0]
            scale = args[1] if len(args) > 1 else FLOATING
            if 1 <= prec <= 32 and scale != FLOATING and scale > prec:
                # DECIMAL(5, 10): the catalogue's -366 (Hibernate's NativeQueryResultType-
                # AutoDiscoveryTest quotes "The scale exceeds the maximum precision specified").
                raise EngineError(sc.SCALE_EXCEEDS_PRECISION, near=str(scale))
            if not 1 <= prec <= 32 or (scale != FLOATING and not 0 <= scale <= prec):
                self.raise_error("Invalid DECIMAL precision", self._prev)
            ty = IfxType(T.DECIMAL, prec=prec, scale=scale)
        elif word == "MONEY":
            args = self._paren_ints() or [16, 2]
            prec = args[0]
            scale = args[1] if len(args) > 1 else 2
            if not 1 <= prec <= 32 or not 0 <= scale <= prec:
                self.raise_error("Invalid MONEY precision", self._prev)
            ty = IfxType(T.MONEY, prec=prec, scale=scale)
        elif word in ("DATETIME", "INTERVAL"):
            q = self._parse_qualifier(T.DATETIME if word == "DATETIME" else T.INTERVAL, False)
            assert q is not None
            ty = q
        elif word in ("BYTE", "TEXT"):
            if self._word() == "IN":
                self._advance()
                self._advance()
            ty = IfxType(T.BYTE if word == "BYTE" else T.TEXT)
        elif word in ("BLOB", "CLOB"):
            ty = IfxType(T.BLOB if word == "BLOB" else T.CLOB)
        elif word in ("SET", "MULTISET", "LIST", "ROW"):
            ty = self._parse_complex_type(word)
        else:  # pragma: no cover - _TYPE_WORDS and this chain list the same words
            self.raise_error(f"Unknown type {word}", self._prev)
            raise AssertionError
        return ifx_type_node(ty, serial_start)

    def _parse_complex_type(self, word: str) -> IfxType:
        """SET/MULTISET/LIST(element NOT NULL) and ROW(field type, ...), nested."""
        if not self._match(TokenType.L_PAREN):
            self.raise_error(f"Expected ( after {word}")
        code = {"SET": T.SET, "MULTISET": T.MULTISET, "LIST": T.LIST, "ROW": T.ROW}[word]
        children = []
        if code == T.ROW:
            while True:
                name = self._curr
                if name is None or name.token_type == TokenType.R_PAREN:
                    self.raise_error("Expected a ROW field name")
                    raise AssertionError
                self._advance()
                children.append(replace(TRANSLATION.node_of(self._parse_element_type()),
                                        field=name.text.lower()))
                if not self._match(TokenType.COMMA):
                    break
        else:
            elem = self._parse_element_type()
            if not elem.notnull:
                # The Guide to SQL: Syntax's collection diagram requires NOT NULL after the
                # element type, so anything else is a syntax error (docs/SERVER.md).
                self.raise_error("Expected NOT NULL after the collection element type")
            children.append(TRANSLATION.node_of(elem))
        self._match_r_paren()
        return TRANSLATION.complex_type(ComplexType(code, children=tuple(children)))

    def _parse_element_type(self) -> IfxType:
        if self._word() not in _TYPE_WORDS:
            tok = self._curr
            if tok is None or tok.token_type not in (TokenType.VAR, TokenType.IDENTIFIER):
                self.raise_error("Expected a type")
                raise AssertionError
            self._advance()
            named = PARSERS.named_placeholder(tok.text.lower())
            if self._word() == "NOT" and self._next and self._next.text.upper() == "NULL":
                self._advance(2)
                named = named.with_notnull()
            return named
        node = self.parse_ifx_type()
        ty: IfxType = node.meta["ifx"]
        if self._word() == "NOT" and self._next and self._next.text.upper() == "NULL":
            self._advance(2)
            ty = ty.with_notnull()
        return ty


def _varchar_bounds(args: list[int]) -> None:
    """VARCHAR(m, r) past its limits: m "can range from 1 to 255 bytes", r "must be less
    than the maximum size" ("VARCHAR(m,r) data type", ids_sqr_148). -650 and -651 are the
    catalogue's codes for the two [jcat]; pengdows.crud's testbed records -650's text from a
    live server for a VARCHAR over 255. A zero size stays a syntax error (no code found)."""
    if args[0] > 255:
        raise EngineError(sc.VARCHAR_SIZE, near=str(args[0]))
    if len(args) > 1 and args[1] > args[0]:
        raise EngineError(sc.VARCHAR_RESERVE, near=str(args[1]))

