"""Result formatting: aligned table, vertical records, CSV, JSON.

The table format measures every value before printing, so it holds the result; CSV and JSON
write rows as they are fetched, so they stream results of any size.
"""

from __future__ import annotations

import base64
import csv
import datetime as dt
import json
from collections.abc import Iterable, Sequence
from decimal import Decimal
from typing import Any, TextIO

FORMATS = ("table", "vertical", "csv", "json")


def text(value: Any, null: str) -> str:
    if value is None:
        return null
    if isinstance(value, bool):
        return "t" if value else "f"
    if isinstance(value, (bytes, bytearray, memoryview)):
        return "\\x" + bytes(value).hex()
    if isinstance(value, dt.datetime):
        return value.isoformat(sep=" ")
    return str(value)


def _json_value(value: Any) -> Any:
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, Decimal):
        return str(value)  # exact; JSON numbers would go through float
    if isinstance(value, (bytes, bytearray, memoryview)):
        return base64.b64encode(bytes(value)).decode("ascii")
    if isinstance(value, (dt.date, dt.time)):
        return value.isoformat()
    return str(value)


def _is_numeric(type_code: Any) -> bool:
    from .. import NUMBER

    return bool(type_code == NUMBER)


def write_table(out: TextIO, names: Sequence[str], types: Sequence[Any],
                rows: Iterable[Sequence[Any]], null: str) -> int:
    cells = [[text(v, null) for v in row] for row in rows]
    widths = [max([len(n)] + [len(r[i]) for r in cells]) for i, n in enumerate(names)]
    right = [_is_numeric(t) for t in types]

    def line(values: Sequence[str], header: bool = False) -> str:
        parts = []
        for v, w, r in zip(values, widths, right, strict=True):
            parts.append(v.rjust(w) if r and not header else v.ljust(w))
        return " " + " | ".join(parts).rstrip()

    out.write(line(names, header=True) + "\n")
    out.write("-" + "-+-".join("-" * w for w in widths) + "-\n")
    for row in cells:
        out.write(line(row) + "\n")
    return len(cells)


def write_vertical(out: TextIO, names: Sequence[str], rows: Iterable[Sequence[Any]],
                   null: str) -> int:
    width = max((len(n) for n in names), default=0)
    count = 0
    for count, row in enumerate(rows, 1):
        out.write(f"-[ RECORD {count} ]" + "-" * max(0, width - 6) + "\n")
        for name, value in zip(names, row, strict=True):
            out.write(f"{name.ljust(width)} | {text(value, null)}\n")
    return count


def write_csv(out: TextIO, names: Sequence[str], rows: Iterable[Sequence[Any]],
              null: str) -> int:
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(names)
    count = 0
    for row in rows:
        writer.writerow([text(v, null) for v in row])
        count += 1
    return count


def write_json(out: TextIO, names: Sequence[str], rows: Iterable[Sequence[Any]]) -> int:
    out.write("[")
    count = 0
    for count, row in enumerate(rows, 1):
        record = {n: _json_value(v) for n, v in zip(names, row, strict=True)}
        out.write(("\n" if count == 1 else ",\n") + json.dumps(record, ensure_ascii=False))
    out.write("\n]\n" if count else "]\n")
    return count
