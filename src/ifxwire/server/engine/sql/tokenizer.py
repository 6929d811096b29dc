"""The Informix tokenizers for sqlglot: ``{ … }`` comments, quotes, and the words Informix
does not reserve.

Split from dialect.py (the ~800-line rule): the statement parser (statements.py) and the SPL
cursor (features/spl/cursor.py) choose one of the two (DELIMIDENT or not) before any parsing.
"""

from __future__ import annotations

import typing as t

from sqlglot import tokens
from sqlglot.tokenizer_core import TokenizerCore, TokenType


class _IfxTokenizerCore(TokenizerCore):
    """Braces start a comment, except right after SET/MULTISET/LIST where they hold a collection."""

    __slots__ = ()

    def _scan_comment(self, comment_start: str) -> bool:
        if comment_start == "{" and self.tokens and self.tokens[-1].text.upper() in (
            "SET", "MULTISET", "LIST"
        ):
            return False
        return bool(super()._scan_comment(comment_start))


class IfxTokenizer(tokens.Tokenizer):
    QUOTES: t.ClassVar[list[str | tuple[str, str]]] = ["'", '"']
    # Without DELIMIDENT Informix has no delimited identifiers; sqlglot needs some delimiter,
    # so it gets a control character no statement contains.
    IDENTIFIERS: t.ClassVar[list[str | tuple[str, str]]] = ["\x1f"]
    # A quote is escaped by doubling it, in either kind of string: 'it''s', "a""b". (sqlglot
    # treats a doubled *other* quote, as in 'say ""', as two characters: it only unescapes a
    # quote that doubles its own delimiter.)
    STRING_ESCAPES: t.ClassVar[list[str]] = ["'", '"']
    NESTED_COMMENTS = False
    COMMENTS: t.ClassVar[list[str | tuple[str, str]]] = ["--", ("/*", "*/"), ("{", "}")]
    KEYWORDS: t.ClassVar[dict[str, TokenType]] = {
        **tokens.Tokenizer.KEYWORDS,
        "MATCHES": TokenType.GLOB,
        # MINUS is Informix's other name for EXCEPT (Guide to SQL: Syntax, "Set operators").
        "MINUS": TokenType.EXCEPT,
        # Hierarchical queries (Guide to SQL: Syntax, "Hierarchical Clause").
        "ORDER SIBLINGS BY": TokenType.ORDER_SIBLINGS_BY,
    }
    KEYWORDS.pop("GLOB", None)
    # ``/*+ … */`` is one of Informix's three directive comments, beside ``{+ …}`` and
    # ``--+`` (Guide to SQL: Syntax, "Optimizer Directives"): a comment here, as they are.
    KEYWORDS.pop("/*+", None)
    for _k in [k for k in KEYWORDS if k.startswith("?")]:
        KEYWORDS.pop(_k)  # '?::int' is a parameter and a cast, not a JSON operator
    # Informix has none of these as reserved words; as VARs they stay usable as names.
    for _w in ("DIV", "SEMI", "ANTI", "ROLLUP", "CUBE", "QUALIFY", "PIVOT", "UNPIVOT", "MERGE",
               "FORMAT", "SETTINGS", "OVERWRITE", "ASOF", "POSITIONAL", "COMMENT", "DESCRIBE",
               "SHOW", "USE", "REFRESH", "KILL", "VACUUM", "SUMMARIZE", "ATTACH", "DETACH"):
        KEYWORDS.pop(_w, None)
    # sqlglot 30.31 made these two COMMAND words, which swallow the rest of the statement as
    # one string; Informix's SAVEPOINT and RELEASE SAVEPOINT are parsed word by word in
    # statements.py (tests/unit/test_tokenizer_words.py holds every statement word to that).
    for _w in ("SAVEPOINT", "RELEASE"):
        KEYWORDS.pop(_w, None)
    COMMANDS: t.ClassVar[set[TokenType]] = {TokenType.COMMAND, TokenType.FETCH}

    def _init_core(self) -> TokenizerCore:
        core = super()._init_core()
        core.__class__ = _IfxTokenizerCore
        return core


class IfxDelimidentTokenizer(IfxTokenizer):
    """With DELIMIDENT set, double quotes delimit identifiers (case-sensitive), not strings."""

    QUOTES: t.ClassVar[list[str | tuple[str, str]]] = ["'"]
    IDENTIFIERS: t.ClassVar[list[str | tuple[str, str]]] = ['"']
    # Only the doubled single quote escapes: a '"' that is no string delimiter would act as
    # an escape character, like a backslash, so '"''"' (Django's default '"\'"') read its
    # '"' + "'" as one escaped quote and ran off the end of the statement (-282).
    STRING_ESCAPES: t.ClassVar[list[str]] = ["'"]


