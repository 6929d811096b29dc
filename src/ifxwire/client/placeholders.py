"""Parameter markers: accept ``?``, ``:1`` and ``:name``, send only ``?`` to the server.

Informix understands only ``?``, so the other two styles are rewritten here, once per SQL text
(the result is cached). Values are never interpolated into the text: each marker becomes a ``?``
and the values travel in SQ_BIND, in the order the rewritten markers appear. That is what makes
``:2 ... :1`` reorder and a repeated ``:1`` reuse its value, which informix-driver cannot do.

The scanner must not mistake SQL text for markers, so it steps over everything in which a ``?``
or ``:`` is not a marker:

* ``'...'`` strings (``''`` doubles a quote) and ``"..."`` strings or delimited identifiers;
* ``-- ...`` line comments, ``/* ... */`` and Informix's ``{ ... }`` comments (optimizer
  directives included);
* ``::`` casts;
* unquoted DATETIME / INTERVAL literals: ``DATETIME(12:30) HOUR TO MINUTE`` holds colons;
* ``database:table`` and ``db@server:table`` qualifiers (a ``:`` right after a name).

While scanning, the code outside literals is kept as a skeleton so the transaction logic can ask
cheap questions about the statement (``FOR UPDATE``? ``SET ISOLATION``?) without regular
expressions tripping over comments or strings.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from ..errors import ProgrammingError

__all__ = ["SqlPlan", "arrange", "count_arg", "param_rows", "plan_sql", "proc_params"]

Style = Literal["none", "qmark", "numeric", "named"]

_FOR_UPDATE = re.compile(r"\bFOR\s+UPDATE\b", re.IGNORECASE)
_SET_ISOLATION = re.compile(r"^\s*SET\s+ISOLATION\b(.*)$", re.IGNORECASE | re.DOTALL)
_REPEATABLE = re.compile(r"\bREPEATABLE\s+READ\b", re.IGNORECASE)
_LITERAL_KEYWORDS = frozenset({"DATETIME", "INTERVAL"})
_LEADING_WORDS = re.compile(r"^[\s(]*([A-Za-z]+)(?:\s+([A-Za-z]+))?")
_DDL_WORDS = frozenset({"CREATE", "DROP", "ALTER", "RENAME", "GRANT", "REVOKE", "TRUNCATE"})


def _command_kind(code: str) -> Literal["ddl", "database"] | None:
    """Classify by the leading keywords (comments and literals already blanked out)."""
    m = _LEADING_WORDS.match(code)
    if m is None:
        return None
    first = m.group(1).upper()
    second = (m.group(2) or "").upper()
    if first == "DATABASE" or (first == "CLOSE" and second == "DATABASE"):
        return "database"
    if first in ("CREATE", "DROP") and second == "DATABASE":
        return "database"
    if first in _DDL_WORDS or (first == "UPDATE" and second == "STATISTICS"):
        return "ddl"
    return None


@dataclass(frozen=True, slots=True)
class SqlPlan:
    """How one SQL text is sent and how a parameter set maps onto its ``?`` markers.

    ``order`` has one entry per ``?`` in ``sql``: a 0-based index (``qmark``, ``numeric``) or a
    name (``named``). ``nargs`` is the number of values a sequence must hold.
    """

    sql: str
    style: Style
    order: tuple[int | str, ...]
    nargs: int
    for_update: bool
    #: None unless the statement is SET ISOLATION; then whether it asks for REPEATABLE READ.
    sets_repeatable_read: bool | None
    #: "ddl" / "database" for statements that can go as one SQ_COMMAND group (never a result
    #: set, never reused): schema changes, and statements that change the current database.
    command: Literal["ddl", "database"] | None = None

    @property
    def nparams(self) -> int:
        return len(self.order)


def _is_name_char(ch: str) -> bool:
    return ch.isalnum() or ch == "_" or ch == "$"


def _skip_quoted(sql: str, i: int, quote: str) -> int:
    """Index after the literal starting at ``i``; a doubled quote does not end it."""
    n = len(sql)
    j = i + 1
    while True:
        k = sql.find(quote, j)
        if k < 0:
            return n
        if k + 1 < n and sql[k + 1] == quote:
            j = k + 2
            continue
        return k + 1


def _find_end(sql: str, i: int, closer: str) -> int:
    k = sql.find(closer, i)
    return len(sql) if k < 0 else k + len(closer)


def plan_sql(sql: str) -> SqlPlan:
    """Scan ``sql`` once and return the text to send plus the parameter mapping (cached).

    Anything but a str is a ProgrammingError here, before it can reach the scanner (or the
    cache, which would raise TypeError for an unhashable value).
    """
    if type(sql) is not str and not isinstance(sql, str):
        raise ProgrammingError(
            f"the SQL statement must be a str, not {type(sql).__name__}", sqlstate="42000"
        )
    return _plan_sql(sql)


_COLLECTION_WORDS = frozenset(("SET", "MULTISET", "LIST"))


@lru_cache(maxsize=2048)
def _plan_sql(sql: str) -> SqlPlan:
    out: list[str] = []
    skeleton: list[str] = []
    order: list[int | str] = []
    style: Style = "none"
    n = len(sql)
    seg = 0  # start of the not-yet-copied text
    i = 0
    last_word = ""
    word_end = 0

    def use(kind: Style) -> None:
        nonlocal style
        if style not in ("none", kind):
            raise ProgrammingError(
                f"the SQL text mixes {style} and {kind} parameter markers "
                f"(at character {i}); use one style per statement"
            )
        style = kind

    while i < n:
        ch = sql[i]
        if ch == "'" or ch == '"':
            skeleton.append(sql[seg:i])
            end = _skip_quoted(sql, i, ch)
            skeleton.append(" ")
            out.append(sql[seg:end])
            seg = i = end
            last_word = ""
            continue
        if ch == "{" and last_word in _COLLECTION_WORDS and not sql[word_end:i].strip():
            i += 1  # SET{…}, LIST {…}: a collection's elements, not a comment (as the server
            continue  # reads it: server/engine/sql/dialect.py), so its markers count
        if (
            (ch == "-" and sql.startswith("--", i))
            or (ch == "/" and sql.startswith("/*", i))
            or ch == "{"
        ):
            skeleton.append(sql[seg:i])
            closer = "\n" if ch == "-" else "*/" if ch == "/" else "}"
            end = _find_end(sql, i + 1, closer)
            skeleton.append(" ")
            out.append(sql[seg:end])
            seg = i = end
            continue
        if ch == "?":
            use("qmark")
            order.append(len(order))
            i += 1
            continue
        if ch == ":":
            nxt = sql[i + 1] if i + 1 < n else ""
            if nxt == ":":
                i += 2
                continue
            prev = sql[i - 1] if i else ""
            if prev and (_is_name_char(prev) or prev == '"'):
                i += 1  # database:table
                continue
            if nxt.isdigit():
                j = i + 1
                while j < n and sql[j].isdigit():
                    j += 1
                use("numeric")
                number = int(sql[i + 1 : j])
                if number < 1:
                    raise ProgrammingError(f"parameter marker :{number} (numbers start at :1)")
                out.append(sql[seg:i])
                skeleton.append(sql[seg:i])
                out.append("?")
                skeleton.append("?")
                order.append(number - 1)
                seg = i = j
                continue
            if nxt.isalpha() or nxt == "_":
                j = i + 1
                while j < n and _is_name_char(sql[j]):
                    j += 1
                use("named")
                out.append(sql[seg:i])
                skeleton.append(sql[seg:i])
                out.append("?")
                skeleton.append("?")
                order.append(sql[i + 1 : j])
                seg = i = j
                continue
            i += 1
            continue
        if ch.isalpha() or ch == "_":
            j = i + 1
            while j < n and _is_name_char(sql[j]):
                j += 1
            last_word = sql[i:j].upper()
            word_end = i = j
            if last_word in _LITERAL_KEYWORDS:
                k = i
                while k < n and sql[k].isspace():
                    k += 1
                if k < n and sql[k] == "(":
                    close = sql.find(")", k)
                    i = n if close < 0 else close + 1
            continue
        i += 1
    out.append(sql[seg:])
    skeleton.append(sql[seg:])
    code = "".join(skeleton)
    if style == "numeric":
        nargs = max(int(o) for o in order) + 1
    elif style == "qmark":
        nargs = len(order)
    else:
        nargs = 0
    iso = _SET_ISOLATION.match(code)
    return SqlPlan(
        sql="".join(out) if style in ("numeric", "named") else sql,
        style=style,
        order=tuple(order),
        nargs=nargs,
        for_update=bool(_FOR_UPDATE.search(code)),
        sets_repeatable_read=None if iso is None else bool(_REPEATABLE.search(iso.group(1))),
        command=_command_kind(code) if not order else None,
    )


def arrange(plan: SqlPlan, params: object) -> Sequence[object]:
    """The values in ``?`` order for one parameter set, or ProgrammingError naming the problem."""
    style = plan.style
    if style == "qmark" and isinstance(params, (tuple, list)):
        # The common case, without the abstract-class checks below (same outcome: a tuple or
        # list is a Sequence and never a Mapping).
        if len(params) != plan.nargs:
            raise ProgrammingError(
                f"the statement needs {plan.nargs} parameter(s), {len(params)} were given"
            )
        return params
    if params is None:
        if style == "none":
            return ()
        raise ProgrammingError(
            f"the statement has {plan.nparams} parameter marker(s) but no parameters were given"
        )
    if isinstance(params, Mapping):
        if style == "named":
            try:
                return [params[name] for name in plan.order]
            except KeyError as exc:
                raise ProgrammingError(
                    f"parameter :{exc.args[0]} is not in the parameters mapping"
                ) from None
        if style == "none" and not params:
            return ()
        raise ProgrammingError(
            f"a mapping of parameters needs :name markers; this statement uses "
            f"{'no markers' if style == 'none' else style + ' markers'}"
        )
    if isinstance(params, (str, bytes, bytearray)) or not isinstance(params, Sequence):
        raise ProgrammingError(
            f"parameters must be a sequence (or a mapping for :name markers), "
            f"not {type(params).__name__}"
        )
    if style == "named":
        raise ProgrammingError("the statement uses :name markers; pass the parameters as a mapping")
    if len(params) != plan.nargs:
        raise ProgrammingError(
            f"the statement needs {plan.nargs} parameter(s), {len(params)} were given"
        )
    if style == "numeric":
        return [params[i] for i in plan.order]  # type: ignore[index]
    return params


# The other argument shapes of the PEP 249 calls, checked where a wrong one would otherwise
# surface as a TypeError from deep inside the driver (sync and asyncio cursors share these).


def param_rows(seq_of_parameters: Iterable[object]) -> Iterator[object]:
    """An iterator over executemany's parameter sets (each set is checked by ``arrange``)."""
    if not isinstance(seq_of_parameters, (str, bytes, bytearray)):
        try:
            return iter(seq_of_parameters)
        except TypeError:
            pass
    raise ProgrammingError(
        "executemany needs an iterable of parameter sets, "
        f"not {type(seq_of_parameters).__name__}"
    )


def proc_params(parameters: object) -> Sequence[object]:
    """callproc's parameters: a sequence (None stands for none)."""
    if parameters is None:
        return ()
    if isinstance(parameters, (str, bytes, bytearray)) or not isinstance(parameters, Sequence):
        raise ProgrammingError(
            f"callproc parameters must be a sequence, not {type(parameters).__name__}"
        )
    return parameters


def count_arg(value: object, what: str) -> int:
    """An integer argument (fetchmany's size, arraysize, scroll's value)."""
    if type(value) is int:
        return value
    if not isinstance(value, bool):
        try:
            return operator.index(value)  # type: ignore[arg-type]
        except TypeError:
            pass
    raise ProgrammingError(f"{what} must be an int, not {type(value).__name__}")
