"""Reading column types out of the Informix catalog (``syscolumns``), for tools.

``syscolumns.coltype`` is the type code plus 256 for NOT NULL; ``collength`` encodes sizes:
``max + 256 * min`` for VARCHAR, ``256 * precision + scale`` for DECIMAL/MONEY (scale 255 for
a floating DECIMAL(p)), and the DATETIME/INTERVAL qualifier ``(digits << 8) | (start << 4) |
end``. Built-in UDTs (BOOLEAN, LVARCHAR, BLOB, CLOB) may appear as 40/41 with their name in
``sysxtdtypes``. Used by the shell's describe commands and the SQLAlchemy reflection.
"""

from __future__ import annotations

from typing import NamedTuple

from .protocol.codes import TYPE_NOTNULL, TypeCode

T = TypeCode

_FIELDS = {0: "YEAR", 2: "MONTH", 4: "DAY", 6: "HOUR", 8: "MINUTE", 10: "SECOND"}
_FIELD_DIGITS = {0: 4, 2: 2, 4: 2, 6: 2, 8: 2, 10: 2}
SERIAL_CODES = frozenset({T.SERIAL, T.SERIAL8, T.BIGSERIAL})

_PLAIN: dict[int, str] = {
    T.SMALLINT: "SMALLINT", T.INTEGER: "INTEGER", T.FLOAT: "FLOAT", T.SMALLFLOAT: "SMALLFLOAT",
    T.SERIAL: "SERIAL", T.DATE: "DATE", T.BYTE: "BYTE", T.TEXT: "TEXT", T.INT8: "INT8",
    T.SERIAL8: "SERIAL8", T.BOOLEAN: "BOOLEAN", T.BIGINT: "BIGINT", T.BIGSERIAL: "BIGSERIAL",
}  # fmt: skip


class Qualifier(NamedTuple):
    """A DATETIME/INTERVAL qualifier: field names, FRACTION digits and an INTERVAL's leading
    precision (``None`` for DATETIME)."""

    start: str
    end: str
    fraction: int | None
    leading: int | None

    def sql(self) -> str:
        lead = f"({self.leading})" if self.leading is not None else ""
        end = f"FRACTION({self.fraction})" if self.end == "FRACTION" else self.end
        if self.start == "FRACTION":
            return f"FRACTION TO {end}"
        return f"{self.start}{lead} TO {end}"


def qualifier(collength: int, interval: bool) -> Qualifier:
    digits, start, end = collength >> 8 & 0xFF, collength >> 4 & 0xF, collength & 0xF
    fraction = end - 10 if end > 10 else None
    leading = None
    if interval and start <= 10:
        following = sum(n for k, n in _FIELD_DIGITS.items() if start < k <= min(end, 10))
        leading = digits - following - (fraction or 0)
    return Qualifier(_FIELDS.get(start, "FRACTION"),
                     "FRACTION" if end > 10 else _FIELDS.get(end, "SECOND"), fraction, leading)


def base_code(coltype: int, xtd_name: str | None = None) -> int:
    """The type code without flags; named built-in UDTs mapped to their own codes."""
    code = coltype & 0xFF
    if code in (T.UDTVAR, T.UDTFIXED):
        name = (xtd_name or "").strip().lower()
        return {"boolean": T.BOOLEAN, "lvarchar": T.LVARCHAR}.get(name, code)
    return code


def nullable(coltype: int) -> bool:
    return not coltype & TYPE_NOTNULL


def type_name(coltype: int, collength: int, xtd_name: str | None = None) -> str:
    """The column type as Informix SQL writes it (``DECIMAL(10,2)``, ``VARCHAR(100,10)``,
    ``DATETIME YEAR TO FRACTION(5)``...)."""
    code = base_code(coltype, xtd_name)
    length = collength + 65536 if collength < 0 else collength
    if code in _PLAIN:
        return _PLAIN[code]
    if code in (T.CHAR, T.NCHAR):
        return f"{'CHAR' if code == T.CHAR else 'NCHAR'}({length})"
    if code in (T.VARCHAR, T.NVARCHAR):
        name = "VARCHAR" if code == T.VARCHAR else "NVARCHAR"
        return f"{name}({length & 0xFF})" if not length >> 8 else \
            f"{name}({length & 0xFF},{length >> 8})"
    if code == T.LVARCHAR:
        return f"LVARCHAR({length})"
    if code in (T.DECIMAL, T.MONEY):
        name = "DECIMAL" if code == T.DECIMAL else "MONEY"
        precision, scale = length >> 8, length & 0xFF
        return f"{name}({precision})" if scale == 255 else f"{name}({precision},{scale})"
    if code == T.DATETIME:
        return "DATETIME " + qualifier(length, interval=False).sql()
    if code == T.INTERVAL:
        return "INTERVAL " + qualifier(length, interval=True).sql()
    if code in (T.UDTVAR, T.UDTFIXED) and xtd_name:
        return xtd_name.strip().upper()
    try:
        return TypeCode(code).name
    except ValueError:
        return f"TYPE {code}"
