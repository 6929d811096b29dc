"""What a span may say about a statement's text: the text with its literals masked, and the
statement's operation name. Plain Python (no OpenTelemetry import), so it is tested alone.

Why mask: OpenTelemetry's database conventions ("Sanitization of db.query.text") allow text
built without parameters on a span by default only when every literal (string, number,
date-time, interval, hexadecimal) is replaced by ``?``; text run with parameters is recorded
as written, since its values travel as parameters. Informix SQL's literals are ``'...'`` and,
unless DELIMIDENT is set, ``"..."`` (both masked: a quoted identifier masked costs a name, a
string left unmasked could cost a secret), numbers, ``0x`` hexadecimal, and the bodies of
``DATETIME (...)`` / ``INTERVAL (...)``. Comments (``--``, ``/* */``, ``{ }``) are kept.
"""

from __future__ import annotations

import re

__all__ = ["describe", "operation_name", "sanitize", "summary"]

_TOKEN = re.compile(
    r"""
      (?P<keep>--[^\n]*|/\*.*?(?:\*/|\Z)|\{[^}]*(?:\}|\Z))
    | (?P<temporal>\b(?:DATETIME|INTERVAL)\s*\()[^)]*(?:\)|\Z)
    | (?P<literal>'(?:[^']|'')*(?:'|\Z)|"(?:[^"]|"")*(?:"|\Z)
                  |\b0[xX][0-9A-Fa-f]+\b|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)
    | (?P<word>[A-Za-z_][A-Za-z0-9_$]*)
    """,
    re.VERBOSE | re.DOTALL | re.IGNORECASE,
)

#: Masked texts by statement text: an application runs few distinct texts, and the regular
#: expression costs more than a dictionary look-up. Emptied when it grows past _CACHE_MAX.
_cache: dict[str, str] = {}
_CACHE_MAX = 1024


def _mask(m: re.Match[str]) -> str:
    if m.group("literal") is not None:
        return "?"
    temporal = m.group("temporal")
    if temporal is not None:
        return temporal + "?)"
    return m.group(0)


def sanitize(sql: str) -> str:
    """``sql`` with every literal replaced by ``?`` (comments and names kept)."""
    masked = _cache.get(sql)
    if masked is None:
        masked = _TOKEN.sub(_mask, sql)
        if len(_cache) >= _CACHE_MAX:
            _cache.clear()
        _cache[sql] = masked
    return masked


_LEADING = re.compile(r"(?:\s+|--[^\n]*|/\*.*?\*/|\{[^}]*\}|\()*", re.DOTALL)
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_SECOND = re.compile(r"\s+(PROCEDURE|FUNCTION|ROUTINE)\b", re.IGNORECASE)


#: (operation name, summary, masked text) by statement text, for describe().
_described: dict[str, tuple[str | None, str | None, str]] = {}


def describe(sql: str) -> tuple[str | None, str | None, str]:
    """``operation_name(sql)``, ``summary(sql)`` and ``sanitize(sql)``, remembered per text
    (a span is made per call, and an application runs few distinct texts)."""
    got = _described.get(sql)
    if got is None:
        got = operation_name(sql), summary(sql), sanitize(sql)
        if len(_described) >= _CACHE_MAX:
            _described.clear()
        _described[sql] = got
    return got


def operation_name(sql: str) -> str | None:
    """The statement's leading keyword in capitals (``SELECT``, ``INSERT``...;
    ``EXECUTE PROCEDURE`` and ``EXECUTE FUNCTION`` as two words), or None when the text
    starts with no word. Informix prepares exactly one statement per text, and its first
    keyword names what that statement is (the server's statement type follows it)."""
    start = _LEADING.match(sql)
    pos = start.end() if start else 0
    word = _WORD.match(sql, pos)
    if word is None:
        return None
    name = word.group(0).upper()
    if name == "EXECUTE":
        second = _SECOND.match(sql, word.end())
        if second is not None:
            name = f"EXECUTE {second.group(1).upper()}"
    return name


# ------------------------------------------------------------------------------------------
# db.query.summary
# ------------------------------------------------------------------------------------------

_SUMMARY_TOKEN = re.compile(
    r"""
      (?P<skip>--[^\n]*|/\*.*?(?:\*/|\Z)|\{[^}]*(?:\}|\Z)|'(?:[^']|'')*(?:'|\Z)|\s+)
    | (?P<quoted>"(?:[^"]|"")*(?:"|\Z))
    | (?P<word>[A-Za-z_][A-Za-z0-9_$]*)
    | (?P<other>.)
    """,
    re.VERBOSE | re.DOTALL,
)

#: Operations that may appear inside a statement (subqueries, INSERT ... SELECT).
_INNER_OPERATIONS = frozenset({"SELECT", "INSERT", "UPDATE", "DELETE", "MERGE"})
#: Words that may sit between such a word and the name.
_TARGET_NOISE = frozenset({"TEMP", "ONLY", "OUTER", "IF", "NOT", "EXISTS", "RAW",
                           "STANDARD", "EXTERNAL", "LATERAL"})
#: Words that end a FROM list's item (so they are not taken for an alias or a name).
_CLAUSE_WORDS = frozenset({
    "WHERE", "GROUP", "ORDER", "HAVING", "UNION", "INTERSECT", "EXCEPT", "MINUS", "JOIN",
    "INNER", "LEFT", "RIGHT", "FULL", "CROSS", "NATURAL", "ON", "USING", "INTO", "FOR",
    "WITH", "LIMIT", "SKIP", "FIRST", "SET", "VALUES", "SELECT", "OUTER", "CONNECT", "START",
})
#: DDL: the kind of object after the first word (and its modifiers) announces the target.
_DDL = frozenset({"CREATE", "DROP", "ALTER", "RENAME"})
_DDL_MODIFIERS = frozenset({"TEMP", "RAW", "STANDARD", "UNIQUE", "DISTINCT", "CLUSTER",
                            "PUBLIC", "PRIVATE", "DBA", "EXTERNAL", "OR", "REPLACE"})
_DDL_OBJECTS = frozenset({"TABLE", "VIEW", "INDEX", "PROCEDURE", "FUNCTION", "ROUTINE",
                          "SEQUENCE", "SYNONYM", "TRIGGER", "DATABASE", "ROLE", "TYPE",
                          "ROW", "OPAQUE", "DISTINCT"})
#: Objects whose definition holds statements that do not run now.
_DDL_BODIES = frozenset({"PROCEDURE", "FUNCTION", "ROUTINE", "TRIGGER"})
_SUMMARY_MAX = 255
_summaries: dict[str, str | None] = {}


def _tokens(sql: str) -> list[tuple[str, str]]:
    out = []
    for m in _SUMMARY_TOKEN.finditer(sql):
        kind = m.lastgroup
        if kind != "skip":
            out.append((kind or "other", m.group(0)))
    return out


def _read_name(tokens: list[tuple[str, str]], i: int) -> tuple[str | None, int]:
    """A table name at ``i``: ``name``, ``owner.name``, ``"owner".name`` or
    ``db@server:owner.name``; None when there is none (a subquery, say)."""
    n = len(tokens)
    while i < n and tokens[i][0] == "word" and tokens[i][1].upper() in _TARGET_NOISE:
        i += 1
    parts: list[str] = []
    while i < n:
        kind, text = tokens[i]
        joiner = bool(parts) and parts[-1] in (".", ":", "@")
        if kind in ("word", "quoted") and (not parts or joiner):
            if not parts and kind == "word" and text.upper() in _CLAUSE_WORDS:
                break
            parts.append(text)
        elif kind == "other" and text in ".:@" and parts and not joiner:
            parts.append(text)
        else:
            break
        i += 1
    if not parts or parts[-1] in (".", ":", "@"):
        return None, i
    return "".join(parts), i


def summary(sql: str) -> str | None:
    """``db.query.summary``: the statement's operations and their tables in the order
    written (``SELECT orders``, ``INSERT shipping SELECT orders``, ``SELECT songs artists``,
    ``EXECUTE PROCEDURE p``), as the conventions' "Generating a summary of the query"
    describes; at most 255 characters, never cut inside a name; None without an operation.
    Names are taken only where SQL puts a table (after FROM, JOIN, INTO, UPDATE, TABLE and
    in a FROM list), so no literal or column can enter it."""
    if sql in _summaries:
        return _summaries[sql]
    first = operation_name(sql)
    result: str | None = None
    if first is not None:
        tokens = _tokens(sql)
        parts = [first]
        i = len(first.split())
        if first.startswith("EXECUTE ") or first in ("DATABASE", "CALL", "UPDATE"):
            name, i = _read_name(tokens, i)  # the routine, database or table
            if name:
                parts.append(name)
        elif first in _DDL:
            while i < len(tokens) and tokens[i][1].upper() in _DDL_MODIFIERS:
                i += 1
            kind = tokens[i][1].upper() if i < len(tokens) else ""
            if kind in _DDL_OBJECTS:
                name, i = _read_name(tokens, i + 1)
                if name:
                    parts.append(name)
                if kind in _DDL_BODIES:  # its body runs later, not now
                    i = len(tokens)
        n = len(tokens)
        previous = ""
        while i < n:
            kind, text = tokens[i]
            word = text.upper() if kind == "word" else ""
            i += 1
            if word in _INNER_OPERATIONS and previous != "FOR":
                parts.append(word)
                if word == "UPDATE":
                    name, i = _read_name(tokens, i)
                    if name:
                        parts.append(name)
            elif word in ("FROM", "JOIN", "INTO", "TABLE"):
                name, i = _read_name(tokens, i)
                if name:
                    parts.append(name)
                if word == "FROM":  # a FROM list: alias, then ", next"
                    while True:
                        if i < n and tokens[i][0] == "word" and tokens[i][1].upper() == "AS":
                            i += 1
                        if (i < n and tokens[i][0] in ("word", "quoted")
                                and tokens[i][1].upper() not in _CLAUSE_WORDS):
                            i += 1  # the alias
                        if i < n and tokens[i] == ("other", ","):
                            name, i = _read_name(tokens, i + 1)
                            if name:
                                parts.append(name)
                            continue
                        break
            previous = word
        out = ""
        for part in parts:
            if len(out) + len(part) + (1 if out else 0) > _SUMMARY_MAX:
                break
            out = f"{out} {part}" if out else part
        result = out
    if len(_summaries) >= _CACHE_MAX:
        _summaries.clear()
    _summaries[sql] = result
    return result
