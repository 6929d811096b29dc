"""Informix column types that SQLAlchemy's generic types do not spell.

Each class renders its own DDL through ``InformixTypeCompiler`` (compiler.py) and is what
reflection (reflection.py) returns for the matching ``syscolumns.coltype``, so a reflected
table re-creates the same Informix columns.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import types as sqltypes

#: DATETIME/INTERVAL field names in qualifier order (syscolumns.collength start/end codes
#: 0 YEAR, 2 MONTH, 4 DAY, 6 HOUR, 8 MINUTE, 10 SECOND, 11..15 FRACTION(1..5)).
FIELDS = ("YEAR", "MONTH", "DAY", "HOUR", "MINUTE", "SECOND", "FRACTION")
FIELD_CODES = {"YEAR": 0, "MONTH": 2, "DAY": 4, "HOUR": 6, "MINUTE": 8, "SECOND": 10}


def _check_field(name: str) -> str:
    upper = name.upper()
    if upper not in FIELDS:
        raise ValueError(f"not a DATETIME/INTERVAL field: {name!r}")
    return upper


class _Qualified:
    """A DATETIME or INTERVAL qualifier: ``start TO end`` with FRACTION(n) precision."""

    def __init__(self, start: str, end: str, fraction: int | None = None) -> None:
        self.start = _check_field(start)
        self.end = _check_field(end)
        if FIELDS.index(self.start) > FIELDS.index(self.end):
            raise ValueError(f"qualifier {start} TO {end} runs backwards")
        if self.end == "FRACTION":
            fraction = 3 if fraction is None else fraction
            if not 1 <= fraction <= 5:
                raise ValueError("FRACTION precision must be 1..5")
        self.fraction = fraction if self.end == "FRACTION" else None

    def end_sql(self) -> str:
        return f"FRACTION({self.fraction})" if self.end == "FRACTION" else self.end


class DATETIME(_Qualified, sqltypes.DateTime):
    """``DATETIME start TO end``. YEAR TO SECOND/FRACTION(n) round-trips ``datetime``, YEAR TO
    DAY ``date``, HOUR TO … ``time``; the driver returns other qualifiers as
    ``ifxwire.DateTimeFields``."""

    __visit_name__ = "DATETIME"

    def __init__(self, start: str = "YEAR", end: str = "FRACTION",
                 fraction: int | None = 5) -> None:
        _Qualified.__init__(self, start, end, fraction)
        sqltypes.DateTime.__init__(self)

    @property
    def python_type(self) -> type:
        if self.start == "YEAR" and self.end == "DAY":
            return dt.date
        if FIELDS.index(self.start) >= FIELDS.index("HOUR"):
            return dt.time
        return dt.datetime


class INTERVAL(_Qualified, sqltypes.Interval):
    """``INTERVAL start(precision) TO end``: ``timedelta`` from DAY on, ``ifxwire.IntervalYM``
    for YEAR/MONTH intervals."""

    __visit_name__ = "INTERVAL"

    def __init__(self, start: str = "DAY", end: str = "FRACTION", precision: int | None = None,
                 fraction: int | None = 5) -> None:
        _Qualified.__init__(self, start, end, fraction)
        sqltypes.Interval.__init__(self, native=True)
        self.precision = precision

    @property
    def _type_affinity(self) -> type[Any]:
        return INTERVAL

    def adapt_emulated_to_native(self, impl: Any, **kw: Any) -> Any:
        return self

    def bind_processor(self, dialect: Any) -> Any:
        return None  # the driver binds timedelta/IntervalYM itself

    def result_processor(self, dialect: Any, coltype: Any) -> Any:
        return None

    @property
    def python_type(self) -> type:
        if self.start in ("YEAR", "MONTH"):
            from .. import IntervalYM

            return IntervalYM
        return dt.timedelta


class MONEY(sqltypes.Numeric[Any]):
    """``MONEY(p, s)``: a DECIMAL shown with the locale's currency; values are ``Decimal``."""

    __visit_name__ = "MONEY"

    def __init__(self, precision: int | None = 16, scale: int | None = 2,
                 asdecimal: bool = True) -> None:
        super().__init__(precision=precision, scale=scale, asdecimal=asdecimal)  # type: ignore[call-overload]


class SMALLFLOAT(sqltypes.REAL[Any]):
    """``SMALLFLOAT`` (REAL): a 4-byte binary float."""

    __visit_name__ = "SMALLFLOAT"


class INT8(sqltypes.BigInteger):
    """``INT8``: the older 8-byte integer (10 bytes on the wire); BIGINT is the newer one."""

    __visit_name__ = "INT8"


class SERIAL(sqltypes.Integer):
    """``SERIAL``: INTEGER numbered by the server; reflected for SERIAL columns."""

    __visit_name__ = "SERIAL"


class SERIAL8(sqltypes.BigInteger):
    """``SERIAL8``: INT8 numbered by the server."""

    __visit_name__ = "SERIAL8"


class BIGSERIAL(sqltypes.BigInteger):
    """``BIGSERIAL``: BIGINT numbered by the server."""

    __visit_name__ = "BIGSERIAL"


class LVARCHAR(sqltypes.String):
    """``LVARCHAR(n)``: a variable string of up to 32739 bytes (VARCHAR stops at 255)."""

    __visit_name__ = "LVARCHAR"


class NCHAR(sqltypes.NCHAR):
    __visit_name__ = "NCHAR"


class NVARCHAR(sqltypes.NVARCHAR):
    __visit_name__ = "NVARCHAR"


class BYTE(sqltypes.LargeBinary):
    """``BYTE``: a simple large object of bytes (the value travels outside the row)."""

    __visit_name__ = "BYTE"


class TEXT(sqltypes.Text):
    """``TEXT``: a simple large object of text in the database code set."""

    __visit_name__ = "TEXT"


class BLOB(sqltypes.LargeBinary):
    """``BLOB``: a smart large object of bytes (stored in an sbspace).

    Values bind as ``bytes`` or any binary file-like (streamed by the driver) and come back
    as ``ifxwire.Blob`` objects — file-like views read while the connection is open — or as
    ``bytes`` up to the driver's ``lob_materialize_limit`` (docs/DRIVER.md)."""

    __visit_name__ = "BLOB"

    def bind_processor(self, dialect: Any) -> Any:
        return None  # the driver takes bytes and file-likes as they are

    def result_processor(self, dialect: Any, coltype: Any) -> Any:
        return None  # keep the driver's streaming Blob


class CLOB(sqltypes.Text):
    """``CLOB``: a smart large object of text (stored in an sbspace); values bind as ``str``
    or a text file-like and come back as ``ifxwire.Clob`` (or ``str``, as for BLOB)."""

    __visit_name__ = "CLOB"


__all__ = [
    "BIGSERIAL",
    "BLOB",
    "BYTE",
    "CLOB",
    "DATETIME",
    "INT8",
    "INTERVAL",
    "LVARCHAR",
    "MONEY",
    "NCHAR",
    "NVARCHAR",
    "SERIAL",
    "SERIAL8",
    "SMALLFLOAT",
    "TEXT",
]
