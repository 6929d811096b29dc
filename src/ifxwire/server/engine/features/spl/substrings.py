"""Writing into a character variable's substring: ``LET name[4,7] = 'Ream'`` and ``SELECT
fname[1,3] INTO name[1,3] …`` (Guide to SQL: Tutorial, "Subscripts with variables",
ids_sqt_446: the value goes into characters m to n and the others keep theirs).

A target is written ``name[m,n]`` by the parser (cursor.TokenCursor.subscript). The value is
first made a CHAR(n - m + 1), as an assignment to a variable of that type would make it
(padded with blanks or cut); a variable with no value yet, or NULL, counts as blanks [our
reading of the page, whose example writes into a variable it has just defined].
"""

from __future__ import annotations

from .....protocol.codes import TypeCode as T
from ...core.ifxtypes import IfxType


def split(name: str) -> tuple[str, tuple[int, int] | None]:
    """``name[m,n]`` → (``name``, (m, n)); a plain name → (name, None)."""
    base, bracket, rest = name.partition("[")
    if not bracket:
        return name, None
    m, _, n = rest.rstrip("]").partition(",")
    return base, (int(m), int(n))


def piece_type(span: tuple[int, int]) -> IfxType:
    """The type a value for ``[m,n]`` is converted to first."""
    m, n = span
    return IfxType(T.CHAR, size=n - m + 1)


def merged(current: object, piece: object, span: tuple[int, int]) -> str:
    """``current`` with characters m to n replaced by ``piece`` (already n - m + 1 long)."""
    m, n = span
    text = "" if current is None or not isinstance(current, str) else current
    text = text.ljust(n)
    part = ("" if piece is None else str(piece)).ljust(n - m + 1)[: n - m + 1]
    return text[: m - 1] + part + text[n:]
