"""PEP 249 type objects and constructors.

``cursor.description[i][1]`` is the Informix type code (an int, see
``ifxwire.protocol.codes.TypeCode``); the type objects below compare equal to every code of
their family, so ``description[0][1] == ifxwire.STRING`` works as PEP 249 describes while the
exact code stays available to programs that need it.
"""

from __future__ import annotations

import datetime
import time

from .protocol.codes import TypeCode as _T

__all__ = [
    "BINARY",
    "BOOLEAN",
    "DATETIME",
    "NUMBER",
    "ROWID",
    "STRING",
    "Binary",
    "DBAPITypeObject",
    "Date",
    "DateFromTicks",
    "Time",
    "TimeFromTicks",
    "Timestamp",
    "TimestampFromTicks",
]


class DBAPITypeObject:
    """Equal to each Informix type code of one family (and to itself)."""

    __slots__ = ("codes", "name")

    def __init__(self, name: str, *codes: int) -> None:
        self.name = name
        self.codes = frozenset(int(c) for c in codes)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, DBAPITypeObject):
            return self is other
        if isinstance(other, int):
            return other in self.codes
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        result = self.__eq__(other)
        return result if result is NotImplemented else not result

    def __hash__(self) -> int:
        return hash((DBAPITypeObject, self.name))

    def __repr__(self) -> str:
        return f"<ifxwire type {self.name}>"


STRING = DBAPITypeObject("STRING", _T.CHAR, _T.VARCHAR, _T.NCHAR, _T.NVARCHAR, _T.LVARCHAR, _T.TEXT)
BINARY = DBAPITypeObject("BINARY", _T.BYTE)
NUMBER = DBAPITypeObject(
    "NUMBER",
    _T.SMALLINT, _T.INTEGER, _T.FLOAT, _T.SMALLFLOAT, _T.DECIMAL, _T.SERIAL, _T.MONEY,
    _T.INT8, _T.SERIAL8, _T.BIGINT, _T.BIGSERIAL,
)  # fmt: skip
DATETIME = DBAPITypeObject("DATETIME", _T.DATE, _T.DATETIME, _T.INTERVAL)
#: Informix has no ROWID column type; SERIAL columns are what identify inserted rows
#: (``cursor.lastrowid``), so they are the ROWID family here.
ROWID = DBAPITypeObject("ROWID", _T.SERIAL, _T.SERIAL8, _T.BIGSERIAL)
BOOLEAN = DBAPITypeObject("BOOLEAN", _T.BOOLEAN)

Date = datetime.date
Time = datetime.time
Timestamp = datetime.datetime
Binary = bytes


def DateFromTicks(ticks: float) -> datetime.date:
    return Date(*time.localtime(ticks)[:3])


def TimeFromTicks(ticks: float) -> datetime.time:
    return Time(*time.localtime(ticks)[3:6])


def TimestampFromTicks(ticks: float) -> datetime.datetime:
    return Timestamp(*time.localtime(ticks)[:6])
