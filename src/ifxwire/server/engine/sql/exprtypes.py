"""The Informix type algebra of expressions: result types of arithmetic, of literals, of
CASE/NVL/UNION branches, and the storage kind a type converts through.

Split from exprs.py (the ~800-line rule): these are pure functions of ``IfxType`` (and of a
literal's text), with no expression translator; exprs.py's ``ExprTranslator``, the functions
(functions_sql.py), set operators (setops.py) and DDL (ddl.py, alter.py) all ask them.
"""

from __future__ import annotations

from decimal import Decimal

from sqlglot import exp

from ....protocol.codes import TimeUnit, TypeCode
from ..core import ifxtypes as it
from ..core import sqlcodes as sc
from ..core.errors import EngineError
from ..core.ifxtypes import FLOATING, IfxType

T = TypeCode
U = TimeUnit
UNKNOWN = IfxType(-1)
NULLTYPE = IfxType(T.CHAR, size=1)
# [peer] COUNT(*) describes as DECIMAL: informix-driver's test_count_returns_decimal, run on
# real servers; the precision 15 is assumed.
COUNT_TYPE = it.decimal(15, 0)
MONEY32 = IfxType(T.MONEY, prec=32, scale=FLOATING)


def ty(node: exp.Expr) -> IfxType:
    """The Informix type the compiler gave ``node`` (UNKNOWN when none yet)."""
    t = node.meta.get("t")
    return t if isinstance(t, IfxType) else UNKNOWN


def typed(node: exp.Expr, t: IfxType) -> exp.Expr:
    node.meta["t"] = t
    return node


def storage_kind(t: IfxType) -> str:
    code = t.code
    if t.cx is not None:
        return "cx" + t.nullable().key  # each composite type converts through ifx_cast
    if code in it.INTEGER_CODES:
        return "int"
    if code in it.FLOAT_CODES:
        return "real"
    if code in it.DECIMAL_CODES:
        return "dec"
    if code == T.DATE:
        return "date"
    if code == T.DATETIME:
        return f"dt{t.start}.{t.end}"
    if code == T.INTERVAL:
        return "ivym" if t.is_ym_interval else "ivdt"
    if code == T.BOOLEAN:
        return "bool"
    if code == T.BYTE:
        return "bytes"
    if t.is_smart_lob:
        return t.sql()  # "blob" / "clob": locators, never converted to anything else
    if code == -1:
        return "unknown"
    return "text"


def dec_shape(t: IfxType) -> tuple[int, int]:
    """(precision, scale) of the DECIMAL an operand converts to (ESQL/C rules)."""
    code = t.code
    if code in it.DECIMAL_CODES:
        return t.prec, t.scale
    if code == T.SMALLINT:
        return 5, 0
    if code in (T.INTEGER, T.SERIAL):
        return 10, 0
    if code in (T.INT8, T.SERIAL8, T.BIGINT, T.BIGSERIAL):
        return 19, 0
    if code == T.SMALLFLOAT:
        return 9, FLOATING
    return 17, FLOATING


def int_result(a: IfxType, b: IfxType) -> IfxType:
    codes = {a.code, b.code}
    if codes & {T.BIGINT, T.BIGSERIAL}:
        return it.BIGINT
    if codes & {T.INT8, T.SERIAL8}:
        return it.INT8
    return it.INTEGER


def dec_result(op: str, a: IfxType, b: IfxType) -> IfxType:
    p1, s1 = dec_shape(a)
    p2, s2 = dec_shape(b)
    code = T.MONEY if T.MONEY in (a.code, b.code) and op in "+-" else T.DECIMAL
    if op == "/":
        return IfxType(code, prec=32, scale=FLOATING)
    if FLOATING in (s1, s2):
        # ESQL/C Programmer's Manual, "Obtain the DECIMAL data type of the arithmetic
        # result" (ids_esqlc_0138): DECIMAL(8,3) with a FLOAT converts the FLOAT to
        # DECIMAL(17) and the result "has a data type of DECIMAL(17)" (was DECIMAL(32));
        # the wider operand's precision in general [inference from that one example].
        return IfxType(code, prec=max(p1, p2), scale=FLOATING)
    if op in "+-":
        s = max(s1, s2)
        return IfxType(code, prec=min(32, max(p1 - s1, p2 - s2) + s + 1), scale=s)
    p, s = min(32, p1 + p2), s1 + s2
    if s > p:
        return IfxType(code, prec=32, scale=FLOATING)
    return IfxType(code, prec=p, scale=s)


def needs_fit(src: IfxType, dst: IfxType) -> bool:
    """Whether a value of ``src`` must pass a conversion to become a valid ``dst`` value even
    though both share a storage form (length, precision, range or qualifier checks)."""
    if dst.is_string:
        if dst.is_char and not src.is_char:
            return True
        return dst.code != T.TEXT and (not src.is_string or src.size == 0
                                        or src.size > dst.size or src.code == T.TEXT)
    if dst.is_decimal:
        return (src.prec, src.scale) != (dst.prec, dst.scale)
    if dst.is_integer:
        return it.INT_RANGE[src.code][1] > it.INT_RANGE[dst.code][1]
    if dst.code == T.INTERVAL:
        return (src.start, src.end, src.lead) != (dst.start, dst.end, dst.lead)
    if dst.code == T.SMALLFLOAT:
        return src.code != T.SMALLFLOAT
    return False


_INF = float("inf")


def literal_type(node: exp.Literal, encoding: str = "iso-8859-1") -> tuple[object, IfxType]:
    """The Python value and Informix type of a literal as Informix types constants.

    A quoted string is CHAR(n), n its length in bytes of the database code set (``encoding``):
    'ÄÖÜß' is CHAR(8) in a UTF-8 database (GLS User's Guide: character lengths of CHAR
    and VARCHAR count bytes in a multibyte code set)."""
    text = node.this
    if node.is_string:
        if text.isascii():
            return text, it.char(len(text))
        return text, it.char(len(text.encode(encoding, "replace")))
    if "e" in text.lower():
        value = float(text)
        if value in (_INF, -_INF):
            # 1e400: no FLOAT holds it. [jcat] -204 "An illegal floating point number has
            # been found in the statement." (it was -1260 when the row was sent)
            raise EngineError(sc.ILLEGAL_FLOAT, near=text)
        return value, it.FLOAT
    if "." in text:
        d = Decimal(text)
        digits = len(d.as_tuple().digits)
        scale = max(0, -int(d.as_tuple().exponent))
        return d, it.decimal(max(digits, scale, 1), scale)
    n = int(text)
    if -2147483647 <= n <= 2147483647:
        return n, it.INTEGER
    if len(text) > 32:
        raise EngineError(sc.DECIMAL_RANGE)
    # A Decimal, so the literal reaches SQLite as decimal text: as a bare number past
    # 2**63 SQLite reads it as a REAL, and 12345678901234567890 came back with 17 digits.
    return Decimal(n), it.decimal(len(text.lstrip("-")), 0)


def common_of(known: list[IfxType]) -> IfxType:
    """The type that holds values of every type of ``known`` (``common_type``'s rule; also the
    type of a UNION/INTERSECT/MINUS column, docs/SERVER.md "Set operators")."""
    if not known:
        return NULLTYPE
    first = known[0]
    if len(known) == 1:
        return first
    codes = {t.code for t in known}
    if all(t.is_string for t in known):
        if T.TEXT in codes:
            return first
        size = max(t.size for t in known)
        if T.LVARCHAR in codes or (size > 255 and codes - it.CHAR_CODES):
            return IfxType(T.LVARCHAR, size=min(size, 32739))
        if codes & {T.VARCHAR, T.NVARCHAR}:
            return IfxType(T.NVARCHAR if codes <= {T.NCHAR, T.NVARCHAR} else T.VARCHAR,
                           size=size)
        return IfxType(T.NCHAR if codes == {T.NCHAR} else T.CHAR, size=size)
    if all(t.is_numeric for t in known):
        if codes & it.FLOAT_CODES:
            return it.SMALLFLOAT if codes == {T.SMALLFLOAT} else it.FLOAT
        if codes & it.DECIMAL_CODES:
            shapes = [dec_shape(t) for t in known]
            code = T.MONEY if codes == {T.MONEY} else T.DECIMAL
            if any(s == FLOATING for _, s in shapes):
                return IfxType(code, prec=min(32, max(p for p, _ in shapes)), scale=FLOATING)
            scale = max(s for _, s in shapes)
            digits = max(p - s for p, s in shapes)
            return IfxType(code, prec=min(32, digits + scale), scale=scale)
        return max(known, key=lambda t: (it.INT_RANGE[t.code][1], t.code == T.BIGINT))
    if codes <= {T.DATE, T.DATETIME}:
        if codes == {T.DATE}:
            return first
        start = min(t.start if t.code == T.DATETIME else U.YEAR for t in known)
        end = max(t.end if t.code == T.DATETIME else U.DAY for t in known)
        return it.datetime_type(start, end)
    return first
