"""dbaccess's ``LOAD FROM 'file' [DELIMITER 'c'] INSERT INTO t [(cols)]`` and
``UNLOAD TO 'file' [DELIMITER 'c'] SELECT ...``, run client-side as dbaccess runs them.

Both stream: UNLOAD writes the rows of each ``fetchmany`` batch before asking for the next,
LOAD reads the file a line at a time and sends ``BATCH`` rows per ``executemany``, so neither
holds more than a batch in memory whatever the file's size.
"""

from __future__ import annotations

import datetime as dt
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, TextIO

from .. import Error
from ..protocol.codes import TypeCode as T
from ..types.values import DateTimeFields, IntervalYM
from . import unl

BATCH = 1000

_QUOTED = r"""'(?:[^']|'')*'|"(?:[^"]|"")*\""""
_LOAD = re.compile(
    rf"^\s*LOAD\s+FROM\s+(?P<file>{_QUOTED})(?:\s+DELIMITER\s+(?P<delim>{_QUOTED}))?"
    r"\s+INSERT\s+INTO\s+(?P<table>[^\s(]+)\s*(?:\((?P<cols>[^)]*)\))?\s*$",
    re.IGNORECASE | re.DOTALL)
_UNLOAD = re.compile(
    rf"^\s*UNLOAD\s+TO\s+(?P<file>{_QUOTED})(?:\s+DELIMITER\s+(?P<delim>{_QUOTED}))?"
    r"\s+(?P<select>(?:SELECT|WITH)\b.*)$", re.IGNORECASE | re.DOTALL)


def _unquote(text: str | None) -> str | None:
    if text is None:
        return None
    return text[1:-1].replace(text[0] * 2, text[0])


@dataclass
class Load:
    file: str
    delimiter: str | None
    table: str
    columns: list[str] | None


@dataclass
class Unload:
    file: str
    delimiter: str | None
    select: str


def parse(statement: str) -> Load | Unload | None:
    """The LOAD or UNLOAD statement in ``statement``; None for any other statement. Raises
    ValueError when it starts as one but does not follow the syntax."""
    head = statement.lstrip()[:7].upper()
    if re.match(r"LOAD\s", head):
        m = _LOAD.match(statement)
        if m is None:
            raise ValueError("use LOAD FROM 'file' [DELIMITER 'c'] INSERT INTO table [(columns)]")
        cols = m["cols"]
        return Load(_unquote(m["file"]) or "", _unquote(m["delim"]), m["table"],
                    [c.strip() for c in cols.split(",")] if cols is not None else None)
    if re.match(r"UNLOAD\s", head):
        m = _UNLOAD.match(statement)
        if m is None:
            raise ValueError("use UNLOAD TO 'file' [DELIMITER 'c'] SELECT ...")
        return Unload(_unquote(m["file"]) or "", _unquote(m["delim"]), m["select"].strip())
    return None


class LoadError(Exception):
    """A LOAD that stopped at a record: its line number, and the server's error if any."""

    def __init__(self, line: int, message: str, cause: Error | None = None) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line
        self.cause = cause
        #: Whether LOAD rolled back the rows it had inserted (its own transaction).
        self.rolled_back = False


# ---- UNLOAD


_SEP = {0: "", 2: "-", 4: "-", 6: " ", 8: ":", 10: ":"}  # before each field (TimeUnit)
_UNITS = (0, 2, 4, 6, 8, 10)  # YEAR, MONTH, DAY, HOUR, MINUTE, SECOND


def _fields_text(values: dict[int, int], start: int, end: int, fraction: int,
                 micro: int, lead: int = 2) -> str:
    """``start``..``end`` fields (TimeUnit numbers, end <= SECOND) as a literal, then
    ``fraction`` digits of ``micro``; the first field gets ``lead`` digits at least."""
    parts: list[str] = []
    for unit in _UNITS:
        if start <= unit <= end:
            width = (4 if unit == 0 else 2) if parts or unit == 0 else lead
            parts.append(("" if not parts else _SEP[unit]) + f"{values[unit]:0{width}d}")
    text = "".join(parts)
    if fraction:
        text += ("." if parts else "") + f"{micro:06d}"[:fraction]
    return text


def _temporal_text(value: Any, desc: Any) -> str | None:
    """DATETIME and INTERVAL values as literals without qualifier keywords, only the
    qualifier's fields. The description gives the literal's size and the FRACTION digits,
    not the first field; docs/SHELL.md says how that is settled."""
    size, scale = desc[2] or 0, desc[5] or 0
    if isinstance(value, DateTimeFields):
        units = {0: value.year, 2: value.month, 4: value.day, 6: value.hour,
                 8: value.minute, 10: value.second}
        return _fields_text({k: int(v or 0) for k, v in units.items()}, value.start,
                            min(value.end, 10), max(0, value.end - 10), value.microsecond or 0)
    if isinstance(value, dt.datetime):  # YEAR TO ...
        full = value.strftime("%Y-%m-%d %H:%M:%S.%f")
        return full[:size] if size else value.isoformat(sep=" ")
    if isinstance(value, dt.date):  # YEAR TO DAY
        return value.isoformat()
    if isinstance(value, dt.time):  # HOUR, MINUTE or SECOND TO ...
        hms = {6: value.hour, 8: value.minute, 10: value.second}
        whole = size - scale - (1 if scale else 0)  # characters before the fraction
        count = (whole + 1) // 3
        if scale:
            start = 10 - 2 * (count - 1)
        elif count == 3:
            start = 6
        elif count == 2:  # HOUR TO MINUTE or MINUTE TO SECOND: the value tells
            start = 8 if value.hour == 0 and value.second != 0 else 6
        else:
            start = 6 if value.hour else 8 if value.minute else 10
        return _fields_text(hms, start, start + 2 * (count - 1), scale, value.microsecond)
    if isinstance(value, dt.timedelta):
        return _interval_text(value, desc)
    if isinstance(value, IntervalYM):
        if (desc[2] or 0) - (desc[4] or 0) - 1 == 0:  # one field: YEAR TO YEAR or MONTH
            sign = "-" if value.months < 0 else ""
            months = abs(value.months)
            return sign + str(months // 12 if months % 12 == 0 else months)
        return str(value)
    return None


def _interval_text(value: dt.timedelta, desc: Any) -> str:
    """A DAY/HOUR/MINUTE/SECOND/FRACTION INTERVAL. Its field count comes from the
    description (size = digits + separators + a sign position); the last field is SECOND
    when there is a FRACTION, else the finest that leaves nothing out and lets the first
    field fit its digits (a SECOND end first)."""
    size, digits, scale = desc[2] or 0, desc[4] or 0, desc[5] or 0
    sign = "-" if value < dt.timedelta(0) else ""
    value = abs(value)
    fields = max(1, size - digits - 1 + 1 - (1 if scale else 0))
    total = value.days * 86400 + value.seconds
    lead_digits = digits - scale - 2 * (fields - 1)
    size_of = {4: 86400, 6: 3600, 8: 60, 10: 1}
    ends = [10] if scale else [10, 8, 6, 4]
    end = 10
    for end in ends:
        start = end - 2 * (fields - 1)
        if start < 4 or total % size_of[end] or (value.microseconds and end != 10):
            continue
        if len(str(total // size_of[start])) <= max(lead_digits, 1):
            break
    else:
        end = 10
    start = max(4, end - 2 * (fields - 1))
    units: dict[int, int] = {}
    rest = total
    for unit in (4, 6, 8, 10):
        if unit >= start:
            units[unit], rest = divmod(rest, size_of[unit])
    lead = len(str(units[start]))
    body = _fields_text(units, start, end, scale, value.microseconds, lead=lead)
    return sign + body


def unload(conn: Any, stmt: Unload, batch: int = BATCH) -> int:
    """Write the SELECT's rows to the file; the number of rows."""
    delim = unl.delimiter(stmt.delimiter)
    dates = unl.DateFormat()
    cur = conn.cursor()
    try:
        cur.execute(stmt.select)
        if cur.description is None:
            raise ValueError("UNLOAD needs a statement that returns rows")
        desc = list(cur.description)
        codes = [d[1] for d in desc]
        count = 0
        with open(stmt.file, "w", encoding="utf-8", newline="\n") as out:
            while True:
                rows = cur.fetchmany(batch)
                if not rows:
                    break
                for row in rows:
                    fields = []
                    for value, code, d in zip(row, codes, desc, strict=True):
                        temporal = _temporal_text(value, d) if code in (
                            T.DATETIME, T.INTERVAL) and value is not None else None
                        fields.append(unl.escape(temporal, delim) if temporal is not None
                                      else unl.field_text(value, code, dates, delim))
                    unl.write_record(out, fields, delim)
                count += len(rows)
        return count
    finally:
        cur.close()


# ---- LOAD


def _column_codes(conn: Any, stmt: Load) -> tuple[list[str], list[int]]:
    """The target columns and their type codes, from a query that returns no rows."""
    cols = ", ".join(stmt.columns) if stmt.columns else "*"
    cur = conn.cursor()
    try:
        cur.execute(f"SELECT {cols} FROM {stmt.table} WHERE 1 = 0")
        desc = cur.description or []
        return [d[0] for d in desc], [int(d[1]) for d in desc]
    finally:
        cur.close()


def load(conn: Any, stmt: Load, err: TextIO | None = None, batch: int = BATCH,
         progress_after: float | None = 1.0) -> int:
    """Insert the file's records; the number of rows. All or nothing: in a logged database
    outside a transaction the rows go in one transaction, rolled back when a record fails
    (as a dbaccess LOAD with no BEGIN WORK runs as one transaction)."""
    delim = unl.delimiter(stmt.delimiter)
    dates = unl.DateFormat()
    names, codes = _column_codes(conn, stmt)
    target = f"({', '.join(stmt.columns)})" if stmt.columns else ""
    sql = (f"INSERT INTO {stmt.table} {target} VALUES "
           f"({', '.join('?' for _ in codes)})")
    own = conn.logging_mode not in (None, "unlogged") and not conn.in_transaction
    tty = err is not None and err.isatty() if hasattr(err, "isatty") else False
    started = time.monotonic()
    shown = 0.0
    count = 0
    cur = conn.cursor()
    if own:
        cur.execute("BEGIN WORK")
    try:
        pending: list[tuple[Any, ...]] = []
        lines: list[int] = []
        with open(stmt.file, encoding="utf-8", newline="\n") as stream:
            for line, fields in _records(stream, delim):
                if len(fields) != len(codes):
                    raise LoadError(line, f"{len(fields)} fields for {len(codes)} columns "
                                          f"({', '.join(names)})")
                try:
                    pending.append(tuple(
                        None if f is None else unl.parse_field(f, c, dates)
                        for f, c in zip(fields, codes, strict=True)))
                except ValueError as exc:
                    raise LoadError(line, str(exc)) from exc
                lines.append(line)
                if len(pending) >= batch:
                    count += _flush(conn, sql, pending, lines)
                    if tty and err is not None and progress_after is not None:
                        now = time.monotonic()
                        if now - started >= progress_after and now - shown >= 0.25:
                            err.write(f"\r{count:,} rows loaded...")
                            err.flush()
                            shown = now
            count += _flush(conn, sql, pending, lines)
        if own:
            cur.execute("COMMIT WORK")
    except BaseException as exc:
        if own:
            try:
                cur.execute("ROLLBACK WORK")
                if isinstance(exc, LoadError):
                    exc.rolled_back = True
            except Error:
                pass
        raise
    finally:
        cur.close()
        if shown and err is not None:
            err.write(f"\r{count:,} rows loaded.    \n")
            err.flush()
    return count


def _records(stream: TextIO, delim: str) -> Iterator[tuple[int, list[str | None]]]:
    try:
        yield from unl.records(stream, delim)
    except unl.UnlError as exc:
        raise LoadError(exc.line, str(exc).split(": ", 1)[1]) from exc


def _flush(conn: Any, sql: str, rows: list[tuple[Any, ...]], lines: list[int]) -> int:
    """Send a batch; a refused row's error names its line (the driver's ``row_index``).
    Clears the lists."""
    if not rows:
        return 0
    n = len(rows)
    cur = conn.cursor()
    try:
        cur.executemany(sql, rows)
    except Error as exc:
        index = getattr(exc, "row_index", None)
        line = lines[index] if isinstance(index, int) and 0 <= index < n else lines[0]
        text = getattr(exc, "message", None) or str(exc)
        raise LoadError(line, text, exc) from exc
    finally:
        cur.close()
        rows.clear()
        lines.clear()
    return n
