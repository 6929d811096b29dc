"""Python value types for Informix values that have no exact standard-library counterpart."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True, order=True)
class IntervalYM:
    """An INTERVAL YEAR TO MONTH (or YEAR / MONTH alone), held as a signed count of months.

    ``timedelta`` cannot hold months (their length varies), so year-month intervals get their own
    exact type; day-time intervals map to ``datetime.timedelta``.
    """

    months: int

    @classmethod
    def of(cls, years: int = 0, months: int = 0) -> IntervalYM:
        return cls(years * 12 + months)

    @property
    def years(self) -> int:
        """Whole years, truncated toward zero (the sign is carried by ``months``)."""
        return int(self.months / 12)

    @property
    def remainder_months(self) -> int:
        return self.months - self.years * 12

    def __str__(self) -> str:
        sign = "-" if self.months < 0 else ""
        m = abs(self.months)
        return f"{sign}{m // 12}-{m % 12:02d}"

    def __neg__(self) -> IntervalYM:
        return IntervalYM(-self.months)

    def __add__(self, other: object) -> IntervalYM:
        if isinstance(other, IntervalYM):
            return IntervalYM(self.months + other.months)
        return NotImplemented

    def __sub__(self, other: object) -> IntervalYM:
        if isinstance(other, IntervalYM):
            return IntervalYM(self.months - other.months)
        return NotImplemented


@dataclass(frozen=True, slots=True)
class DateTimeFields:
    """A DATETIME whose qualifier maps to no standard type, such as MONTH TO DAY or DAY TO HOUR.

    Only the fields inside ``start``..``end`` (TimeUnit numbers) are meaningful; the others are
    ``None``. ``microsecond`` carries FRACTION(n) scaled to microseconds.
    """

    start: int
    end: int
    year: int | None = None
    month: int | None = None
    day: int | None = None
    hour: int | None = None
    minute: int | None = None
    second: int | None = None
    microsecond: int | None = None


class Text(str):
    """A ``str`` to bind as TEXT: sent as a BYTE/TEXT descriptor plus an SQ_BBIND data stream.

    A plain ``str`` parameter binds as CHAR (LVARCHAR above 32767 bytes), which our server
    stores into a TEXT column as Informix converts strings. Wrap the value in ``Text`` to send
    it the way JDBC sends ``setCharacterStream`` to a TEXT parameter, with no size limit below
    2 GiB. Values read from TEXT columns come back as plain ``str``.
    """

    __slots__ = ()
