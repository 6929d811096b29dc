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

__all__ = ["describe", "operation_name", "sanitize"]

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


#: (operation name, masked text) by statement text, for describe().
_described: dict[str, tuple[str | None, str]] = {}


def describe(sql: str) -> tuple[str | None, str]:
    """``operation_name(sql)`` and ``sanitize(sql)``, remembered per text (a span is made
    per call, and an application runs few distinct texts)."""
    got = _described.get(sql)
    if got is None:
        got = operation_name(sql), sanitize(sql)
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
