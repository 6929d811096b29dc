"""Informix's UNL format (the files of dbaccess ``LOAD`` and ``UNLOAD``): reading and writing
records, field escapes and the text form of each type.

The facts come from the IBM/HCL SQL syntax manual (pages "UNLOAD TO File", "Unloading
Character Columns", "Unloading Simple Large Objects", "LOAD FROM File", "DELIMITER Clause");
docs/SHELL.md lists them with their sources. In short: a record is one line with the
delimiter after every field (also the last); NULL is an empty field; an empty string is a
backslash and a blank; a backslash escapes the delimiter, a backslash and a newline inside a
value; BYTE is hexadecimal; DATE follows ``DBDATE``.
"""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Iterator
from decimal import Decimal
from typing import Any, TextIO

from ..protocol.codes import TypeCode as T

DEFAULT_DELIMITER = "|"
#: Characters the manual refuses as delimiters (backslash, newline, hexadecimal digits).
BAD_DELIMITERS = frozenset("\\\n0123456789abcdefABCDEF")


class UnlError(ValueError):
    """A record or field the file format does not allow; ``line`` is the 1-based line number
    where the record starts."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line


def delimiter(given: str | None) -> str:
    """The DELIMITER clause, else ``DBDELIMITER``, else ``|`` (checked as the manual says)."""
    value = given if given is not None else os.environ.get("DBDELIMITER", DEFAULT_DELIMITER)
    if len(value) != 1 or value in BAD_DELIMITERS:
        raise ValueError(f"invalid delimiter {value!r}: one character, not a backslash, "
                         "newline or hexadecimal digit")
    return value


# ---- DATE in DBDATE form


class DateFormat:
    """A ``DBDATE`` setting such as ``MDY4/`` (the default), ``DMY4.``, ``Y4MD-``: the order of
    day, month and year, the year's digits and the separator (``0``: none)."""

    def __init__(self, spec: str | None = None) -> None:
        spec = (spec or os.environ.get("DBDATE") or "MDY4/").upper()
        order: list[str] = []
        self.year_digits = 4
        self.separator = "/"
        i = 0
        while i < len(spec):
            ch = spec[i]
            if ch in "DM":
                order.append(ch)
            elif ch == "Y":
                order.append("Y")
                if i + 1 < len(spec) and spec[i + 1] in "24":
                    self.year_digits = int(spec[i + 1])
                    i += 1
            elif len(order) == 3:
                self.separator = "" if ch == "0" else ch
                break
            i += 1
        if sorted(order) != ["D", "M", "Y"]:
            raise ValueError(f"DBDATE {spec!r} does not name D, M and Y")
        self.order = order

    def format(self, value: dt.date) -> str:
        parts = {"D": f"{value.day:02d}", "M": f"{value.month:02d}",
                 "Y": f"{value.year:04d}" if self.year_digits == 4 else f"{value.year % 100:02d}"}
        return self.separator.join(parts[k] for k in self.order)

    def parse(self, text: str) -> dt.date:
        text = text.strip()
        if self.separator:
            pieces = text.split(self.separator)
        else:
            widths = {"D": 2, "M": 2, "Y": self.year_digits}
            pieces, pos = [], 0
            for k in self.order:
                pieces.append(text[pos:pos + widths[k]])
                pos += widths[k]
            if pos != len(text):
                pieces.append(text[pos:])
        if len(pieces) != 3 or not all(p.isdigit() for p in pieces):
            raise ValueError(f"{text!r} is not a date in DBDATE form "
                             f"({self.format(dt.date(2024, 12, 31))})")
        got = dict(zip(self.order, (int(p) for p in pieces), strict=True))
        year = got["Y"]
        if len(pieces[self.order.index("Y")]) <= 2:
            year += 1900 if year >= 50 else 2000  # DBCENTURY's default: the closest century
        return dt.date(year, got["M"], got["D"])


# ---- writing


def escape(text: str, delim: str) -> str:
    """Backslash before the delimiter, a backslash and a newline; the empty string as ``\\ ``."""
    if not text:
        return "\\ "
    if "\\" in text or delim in text or "\n" in text:
        text = text.replace("\\", "\\\\").replace(delim, "\\" + delim).replace("\n", "\\\n")
    return text


def field_text(value: Any, code: int | None, dates: DateFormat, delim: str) -> str:
    """One value as the UNLOAD TO file writes it (``code``: the column's base type code)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "t" if value else "f"
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value).hex()
    if isinstance(value, dt.datetime):
        return escape(value.isoformat(sep=" "), delim)
    if isinstance(value, dt.date):
        return dates.format(value)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, Decimal):
        return format(value, "f")
    if isinstance(value, str):
        if code in (T.CHAR, T.NCHAR):
            stripped = value.rstrip(" ")  # CHAR's trailing blanks are discarded
            return escape(stripped, delim) if stripped or not value else "\\ "
        return escape(value, delim)
    return escape(str(value), delim)


def write_record(out: TextIO, fields: list[str], delim: str) -> None:
    out.write(delim.join(fields) + delim + "\n")


# ---- reading


def records(stream: TextIO, delim: str) -> Iterator[tuple[int, list[str | None]]]:
    """(starting line number, fields) of each record; a field is None when empty (NULL) and
    escapes are resolved (``\\ `` alone is the empty string). Reads one line at a time, so a
    file of any size streams."""
    line_no = 0
    start = 1
    fields: list[str | None] = []
    current: list[str] = []
    tokens = 0  # characters and escapes in the current field
    blank_escape = False  # the field so far is exactly ``\\ ``
    pending = False  # inside a record continued by an escaped newline
    for line in stream:
        line_no += 1
        if not pending:
            start = line_no
            if line in ("\n", "\r\n"):
                continue  # blank lines between records
        text = line[:-1] if line.endswith("\n") else line
        if text.endswith("\r") and text[-2:-1] != "\\":
            text = text[:-1]
        i, n = 0, len(text)
        pending = False
        while i < n:
            ch = text[i]
            if ch == "\\":
                nxt = text[i + 1] if i + 1 < n else "\n"
                blank_escape = tokens == 0 and nxt == " "
                current.append(nxt)
                tokens += 1
                if i + 1 >= n:  # a backslash before the newline: the value goes on
                    pending = True
                    break
                i += 2
                continue
            if ch == delim:
                if blank_escape and tokens == 1:
                    fields.append("")
                else:
                    fields.append("".join(current) if tokens else None)
                current, tokens, blank_escape = [], 0, False
            else:
                current.append(ch)
                tokens += 1
            i += 1
        if pending:
            continue
        if tokens:
            raise UnlError(start, f"the record does not end with the delimiter {delim!r}")
        yield start, fields
        fields = []
    if pending or tokens or fields:
        raise UnlError(start, "the file ends inside a record")


def parse_field(text: str, code: int, dates: DateFormat) -> Any:
    """A field's text as the Python value to bind for a column of type ``code``."""
    if code in (T.SMALLINT, T.INTEGER, T.SERIAL, T.INT8, T.SERIAL8, T.BIGINT, T.BIGSERIAL):
        return int(text.strip())
    if code in (T.FLOAT, T.SMALLFLOAT):
        return float(text.strip())
    if code in (T.DECIMAL, T.MONEY):
        return Decimal(text.strip().replace(",", ""))
    if code == T.DATE:
        return dates.parse(text)
    if code == T.BOOLEAN:
        flag = text.strip().lower()
        if flag not in ("t", "f"):
            raise ValueError(f"{text!r} is not a BOOLEAN (t or f)")
        return flag == "t"
    if code == T.BYTE:
        return bytes.fromhex(text.strip())
    return text
