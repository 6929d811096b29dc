"""The two directions between client values and storage: ``storer`` and ``loader``.

``storer(t)`` turns what a client sends (a Python value, or text: JDBC binds setString as CHAR
and informix-driver binds bool as 't'/'f') into the storage form of type ``t`` (see
``values.py`` for the forms and their reasons), raising Informix's conversion errors.
``loader(t)`` turns a storage value back into the Python value the wire encoder expects, with
the range checks Informix applies to computed values (an INTEGER expression that overflowed in
SQLite's 64-bit arithmetic raises -1215 rather than arriving wrong).
"""

from __future__ import annotations

import datetime as dt
import functools
import sys
from collections.abc import Callable, Sequence
from decimal import Decimal
from types import CodeType

from .... import _accel
from ....protocol.codes import TypeCode
from ....types.smartlob import Locator
from . import sqlcodes as sc
from .hooks import EXTENSIONS
from .ifxtypes import FLOATING, INT_RANGE, IfxType
from .money import read_monetary
from .values import (
    DEFAULT_CTX,
    EPOCH_ORDINAL,
    BlobRef,
    ConvContext,
    date_from_number,
    date_number,
    dec_text,
    dt_from_text_any,
    dt_python,
    fail,
    fit_decimal,
    fit_interval,
    fit_string,
    interval_python,
    make_date,
    to_bool,
    to_date_number,
    to_decimal,
    to_dt_text,
    to_float,
    to_int,
    to_interval,
    to_text,
)

try:  # the server's compiled helpers (batch_loader); absent without a compiler
    from .... import _tuplewriter as _tw  # type: ignore[attr-defined]
except ImportError:
    _tw = None

T = TypeCode
Conv = Callable[[object], object]
#: A compiled statement's parameters as SQLite's named values (``:p1``, ``:p2``, …).
RowBinder = Callable[[Sequence[object]], dict[str, object]]
#: The same as a tuple, for numbered parameters (``?1``, ``?2``, …).
TupleBinder = Callable[[Sequence[object]], tuple[object, ...]]


# The day numbers of 0001-01-01 and 9999-12-31 (to_date_number's range for an int).
_DAY_MIN = date_number(dt.date.min)
_DAY_MAX = date_number(dt.date.max)


#: The attribute by which a storer declares its own first test, the values it returns unchanged
#: (``(check, lo, hi)``): the compiled batch of executemany rows (_bindbatch.c, via
#: server/bindbatch.py) passes such a value as it is and calls the storer for any other. Each
#: tuple restates the ``if`` at the top of its function; None passes unchanged for every
#: check but 0 (each such storer returns None for None). 5 (a fixed-scale DECIMAL/MONEY,
#: ``(5, prec, scale)``): the value is made from the item's bytes in C when no rounding is
#: needed, else as 4.
BIND_CHECK = "bind_check"
_B_CALL, _B_INT, _B_FINITE, _B_STR, _B_NONE, _B_DECIMAL = 0, 1, 2, 3, 4, 5  # _bindbatch.c's


# --- the two directions -----------------------------------------------------------------------
def storer(t: IfxType, ctx: ConvContext = DEFAULT_CTX, src: IfxType | None = None) -> Conv:
    """A function turning a Python value (or Informix text) into the storage value for type t.

    ``src`` names the Informix type the value already has when it comes from SQL rather than
    from a client (a stored DATE day number is an int, not a number to convert).
    """
    code = t.code
    if t.cx is not None:
        return EXTENSIONS.complex_storer(t, ctx, src)
    if src is not None and src.cx is not None:
        raise fail(sc.NO_CONVERSION)
    if src is not None and src.code in (T.INTERVAL, T.DATETIME) and t.is_numeric:
        # No built-in cast makes a time value a number (Guide to SQL: Reference, "Using
        # Built-in Casts", ids_sqr_167): an INTERVAL assigned to an INTEGER column stored its
        # tens of microseconds. -1260 [inference, as for CAST in exprs.ExprTranslator.cast].
        raise fail(sc.NO_CONVERSION)

    if code in INT_RANGE:
        lo, hi = INT_RANGE[code]

        def conv_int(v: object) -> object:
            if type(v) is int and lo <= v <= hi:
                return v  # what to_int gives for an in-range int (the executemany hot path)
            if v is None:
                return None
            if src is not None and src.code == T.DATE and isinstance(v, int):
                return to_int(v, code)
            return to_int(v, code)
        setattr(conv_int, BIND_CHECK, (_B_INT, lo, hi))
        return conv_int
    if code == T.FLOAT:
        def conv_float(v: object) -> object:
            if type(v) is float and v - v == 0.0:
                return v  # what to_float gives for a finite float
            return None if v is None else to_float(v, False)
        setattr(conv_float, BIND_CHECK, (_B_FINITE, 0, 0))
        return conv_float
    if code == T.SMALLFLOAT:
        return lambda v: None if v is None else to_float(v, True)
    if code in (T.DECIMAL, T.MONEY):
        prec, scale = t.prec, t.scale
        # A DECIMAL/MONEY bind into a fixed-scale column: _bindbatch.c writes the text itself
        # when no rounding is needed (its decimal_text; the same string as this storer's).
        check = (_B_NONE, 0, 0) if scale == FLOATING else (_B_DECIMAL, prec, scale)
        if code == T.MONEY:
            # A monetary string: the session's DBMONEY currency symbols and separators, the
            # thousands separator and the symbol optional ('$1,345.77'; ids_dapip_0105,
            # ids_gpg_087; core/money.py).
            money = ctx.money

            def conv_money(v: object) -> object:
                return None if v is None else dec_text(fit_decimal(to_decimal(
                    read_monetary(v, money, thousands=True) if isinstance(v, str) else v),
                    prec, scale))
            setattr(conv_money, BIND_CHECK, check)
            return conv_money

        def conv_dec(v: object) -> object:
            return None if v is None else dec_text(fit_decimal(to_decimal(v), prec, scale))
        setattr(conv_dec, BIND_CHECK, check)
        return conv_dec
    if code == T.DATE:
        def conv_date(v: object) -> object:
            if type(v) is int and _DAY_MIN <= v <= _DAY_MAX:
                return v  # what to_date_number gives for an in-range int: a day number
                # (the executemany hot path: server/bindrun.py decodes a DATE bind to it)
            if v is None:
                return None
            if src is not None and src.code == T.DATETIME and isinstance(v, str):
                f, _, _ = dt_from_text_any(v)
                if f[0] is None or f[1] is None or f[2] is None:
                    raise fail(sc.NO_CONVERSION)
                return date_number(make_date(f[0], f[1], f[2]))
            return to_date_number(v, ctx)
        setattr(conv_date, BIND_CHECK, (_B_INT, _DAY_MIN, _DAY_MAX))
        return conv_date
    if code == T.DATETIME:
        def conv_dt(v: object) -> object:
            if v is None:
                return None
            if src is not None and src.code == T.DATE and isinstance(v, int):
                v = date_from_number(v)
            # A string from the client: DBCENTURY expands a 1-2 digit year (stored DATETIME
            # text, the other string source, always has four).
            return to_dt_text(v, t, ctx.dbcentury)
        return conv_dt
    if code == T.INTERVAL:
        def conv_iv(v: object) -> object:
            if v is None:
                return None
            if src is not None and src.code == T.INTERVAL and isinstance(v, int):
                if src.is_ym_interval != t.is_ym_interval:
                    raise fail(sc.DT_INCOMPATIBLE)
                return fit_interval(v, t)
            return to_interval(v, t)
        return conv_iv
    if code == T.BOOLEAN:
        return lambda v: None if v is None else to_bool(v)
    if t.is_smart_lob:
        return lambda v: None if v is None else EXTENSIONS.check_locator(v)
    if code == T.BYTE:
        def conv_bytes(v: object) -> object:
            if v is None:
                return None
            if isinstance(v, (bytes, bytearray, memoryview)):
                return bytes(v)
            if isinstance(v, BlobRef):
                return v.stored(False)  # a large value, stored as an object (lobstore.py)
            raise fail(sc.NO_CONVERSION)
        return conv_bytes
    if code == T.TEXT:
        def conv_text(v: object) -> object:
            if isinstance(v, BlobRef):
                return v.stored(True)
            if isinstance(v, (bytes, bytearray, memoryview)):
                # A blob upload (SQ_BBIND): the bytes are text in the database code set.
                try:
                    return bytes(v).decode(ctx.encoding)
                except UnicodeDecodeError:
                    raise fail(sc.NO_CONVERSION) from None
            return None if v is None else to_text(v, src, ctx)
        return conv_text
    # character types
    # A str this short is returned unchanged by fit_string when the type is not blank-padded.
    limit = t.size if t.code != T.TEXT else 0
    quick = -1 if t.is_char else (limit // 4 if ctx.encoding == "utf-8" else limit)
    if not t.is_char and not limit:
        quick = sys.maxsize

    number = src is not None and src.is_numeric

    def conv_str(v: object) -> object:
        if type(v) is str and len(v) <= quick:
            return v
        if v is None:
            return None
        text = to_text(v, src, ctx)
        if limit and len(text) > t.size and (number or (
                src is None and isinstance(v, (int, float, Decimal)) and not isinstance(v, bool))):
            # A number is not cut to fit: "If the character column is not large enough to
            # receive the number ... the database server generates an error" (Reference,
            # ids_sqr_169). A string still is (fit_string).
            raise fail(sc.NUMBER_TOO_WIDE, text)
        return fit_string(text, t, ctx)
    # (and a str of at most ``limit`` UTF-8 bytes: fit_string returns it unchanged)
    utf8 = limit if not t.is_char and limit and ctx.encoding == "utf-8" else -1
    setattr(conv_str, BIND_CHECK, (_B_STR, quick, utf8))
    return conv_str


def loader(t: IfxType) -> Conv | None:
    """A function turning a SQLite value of type t into the Python value, or None if SQLite's
    value already is the right Python value."""
    code = t.code
    if t.cx is not None:
        return EXTENSIONS.complex_loader(t)
    if code in INT_RANGE:
        lo, hi = INT_RANGE[code]

        def load_int(v: object) -> object:
            if type(v) is int and lo <= v <= hi:
                return v
            if isinstance(v, float) and not v.is_integer():
                raise fail(sc.INTEGER_RANGE if code in (T.INTEGER, T.SERIAL) else
                           sc.INT8_RANGE)
            return to_int(int(v) if isinstance(v, float) else v, code)
        setattr(load_int, "batch_kind", (_L_INT, lo, hi))  # noqa: B010 (batch_loader)
        return load_int
    if code in (T.FLOAT, T.SMALLFLOAT):
        return _load_float
    if code in (T.DECIMAL, T.MONEY):
        return _load_decimal
    if code == T.DATE:
        return _load_date
    if code == T.DATETIME:
        def load_datetime(v: object) -> object:
            return None if v is None else dt_python(str(v), t)
        # the compiled batch loader parses canonical stored text itself (_tuplewriter.c L_DT)
        setattr(load_datetime, "batch_kind", (_L_DT, t.start, t.end))  # noqa: B010
        return load_datetime
    if code == T.INTERVAL:
        return lambda v: None if v is None else interval_python(int(v), t)  # type: ignore[call-overload]
    if code == T.BOOLEAN:
        return lambda v: None if v is None else bool(v)
    if t.is_smart_lob:
        return lambda v: None if v is None else bytes(v)  # type: ignore[call-overload]
    if code == T.BYTE:
        return _load_byte
    if code == T.TEXT:
        return _load_text
    return _load_chars


_L_CALL, _L_INT, _L_FLOAT, _L_CHARS, _L_DT, _L_DATE = 0, 1, 2, 3, 4, 5  # load_rows's kinds


def _load_date(v: object) -> object:
    return None if v is None else date_from_number(int(v))  # type: ignore[call-overload]


# the compiled batch loader makes the date of an int itself (_tuplewriter.c L_DATE)
setattr(_load_date, "batch_kind", (_L_DATE, EPOCH_ORDINAL, 0))  # noqa: B010


def batch_loader(loaders: Sequence[Conv | None]
                 ) -> Callable[[list[tuple[object, ...]]], list[tuple[object, ...]] | None] | None:
    """The compiled loop applying ``loaders`` to a batch of SQLite rows (load_rows in
    _tuplewriter.c), or None when it is not built or IFXWIRE_PURE is set. It keeps the
    values each loader returns unchanged (an int in range, a float, a str without NUL)
    without calling it, and returns None for a batch whose loaders raise, so the caller's
    Python loop raises as before (issue 26: these calls were most of the server's CPU per
    fetched row)."""
    if _tw is None or not _accel.accelerated:
        return None
    key = tuple(loaders)
    try:
        return _cached_batch_loader(key)
    except TypeError:  # an unhashable loader (a callable object): built each time
        return _cached_batch_loader.__wrapped__(key)


@functools.lru_cache(maxsize=512)
def _cached_batch_loader(
    loaders: tuple[Conv | None, ...],
) -> Callable[[list[tuple[object, ...]]], list[tuple[object, ...]] | None] | None:
    """batch_loader's work, kept per tuple of loaders: every OPEN asks for it, and building
    the step table cost a one-row query about a tenth of its server CPU (issue 26)."""
    plan: list[tuple[int, int, int, int, Conv]] = []
    for i, f in enumerate(loaders):
        if f is None:
            continue
        if f is _load_chars:
            plan.append((i, _L_CHARS, 0, 0, f))
        elif f is _load_float:
            plan.append((i, _L_FLOAT, 0, 0, f))
        else:
            kind: tuple[int, int, int] = getattr(f, "batch_kind", (_L_CALL, 0, 0))
            plan.append((i, *kind, f))
    if not plan:
        return None
    assert _tw is not None
    steps = tuple(plan)
    # A partial of the C function: no Python frame per call (a lambda was one per OPEN).
    return functools.partial(_tw.load_planned, steps)


def _load_chars(v: object) -> object:
    """CHAR/NCHAR/VARCHAR/NVARCHAR/LVARCHAR: a value is read up to its first NUL.

    Informix: NUL "is used as the end-of-data terminator symbol in columns of the CHAR data
    type ... the database server reads only the characters (if any) that precede this null
    terminator" (Guide to SQL: Reference). The stored value keeps the NUL (functions such as
    LENGTH and ASCII see it); only what is read is cut. The wire forms need it too: VARCHAR
    '\x00' is the NULL marker ``01 00``, CHAR NULL starts with 0x00 (docs/TYPES.md).
    """
    if type(v) is not str:
        v = _load_str(v)
        if v is None:
            return None
    s: str = v  # type: ignore[assignment]
    cut = s.find("\x00")
    return s if cut < 0 else s[:cut]


def _load_byte(v: object) -> object:
    if v is None:
        return None
    if type(v) is int:
        return BlobRef(v)  # a large value stored as an object: the id
    return bytes(v)  # type: ignore[call-overload]


def _load_text(v: object) -> object:
    if isinstance(v, bytes):  # inline TEXT is text: a BLOB is a stored object's locator
        loc = Locator.unpack(v)
        if loc is not None:
            return BlobRef(loc.loid, v)
    return _load_str(v)


def _load_float(v: object) -> object:
    if v is None or type(v) is float:
        return v
    return float(v)  # type: ignore[arg-type]


def _load_decimal(v: object) -> object:
    if v is None:
        return None
    if isinstance(v, str):
        return Decimal(v)
    return to_decimal(v)


#: the DECIMAL/MONEY loader, by which a caller tells it (cdc/hub.py renders a stored DECIMAL's
#: text without it: numeric.stored_decimal_encoder)
load_decimal = _load_decimal


def _load_str(v: object) -> object:
    if v is None or type(v) is str:
        return v
    if isinstance(v, bytes):
        return v.decode("utf-8", "replace")
    if isinstance(v, float):
        return repr(v)
    return str(v)


def row_binder(convs: Sequence[Conv]) -> RowBinder:
    """One function that converts a row of parameters and names them for SQLite.

    Why generated: it is called once per executemany row, and a dict display with constant
    keys and one call per converter (``{'p1': c0(r[0]), …}``) costs less than half of the
    equivalent comprehension over ``zip`` (no iterator, no tuple per item). Only indices and
    names, never values, go into the source."""
    return _compiled(convs, "{{{}}}", "'p{n}': c{i}(r[{i}])")  # type: ignore[return-value]


def row_tuple_binder(convs: Sequence[Conv]) -> TupleBinder:
    """The same conversion as :func:`row_binder`, as a tuple for numbered parameters (``?1``):
    SQLite binds those by position, without a name lookup per value (batch.py)."""
    return _compiled(convs, "({},)", "c{i}(r[{i}])")  # type: ignore[return-value]


def _compiled(convs: Sequence[Conv], outer: str, item: str) -> Callable[..., object]:
    namespace: dict[str, object] = {f"c{i}": c for i, c in enumerate(convs)}
    exec(_binder_code(len(convs), outer, item), namespace)
    return namespace["bind"]  # type: ignore[return-value]


@functools.lru_cache(maxsize=256)
def _binder_code(n: int, outer: str, item: str) -> CodeType:
    """The compiled source of a binder of ``n`` parameters: it depends on the count only, and
    compiling it was most of the cost of a plan's first EXECUTE (0.1-0.2 ms; libsqli waits
    1 ms for that reply, docs/PROTOCOL.md §6)."""
    items = ", ".join(item.format(i=i, n=i + 1) for i in range(n))
    body = outer.format(items) if n else ("{}" if outer.startswith("{") else "()")
    return compile(f"def bind(r):\n    return {body}\n", "<binder>", "exec")
