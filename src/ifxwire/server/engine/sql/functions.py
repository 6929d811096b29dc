"""SQLite functions, aggregates and the IFXDEC collation that give SQLite Informix semantics.

Registered on every connection an ``EngineSession`` opens. Each function is a thin adapter over
``values.py`` so a conversion means the same thing whether it happens at compile time (constants),
bind time (parameters) or row time (here). A Python exception cannot cross SQLite with its
details, so each wrapper parks the ``EngineError`` in ``FunctionState.error``; the session picks
it up when SQLite reports "user-defined function raised exception".
"""

from __future__ import annotations

import datetime as dt
import decimal
import math
import re
import sqlite3
import time
from collections.abc import Callable
from decimal import Decimal
from functools import lru_cache
from typing import Any, cast

from ....protocol.codes import TimeUnit, TypeCode
from ..core import convert as conv
from ..core import sqlcodes as sc
from ..core import values as vals
from ..core.errors import EngineError
from ..core.hooks import CAPTURE
from ..core.ifxtypes import IfxType, from_key
from ..schema.metadata import schema_function
from .aggregates import DecAvg, DecFloatSum, DecSum, DistinctWindow, FloatStat, IvAvg, NonNull
from .builtins import call, to_number
from .decarith import _dec, _float, dop, ifxdec_collation
from .hooks import TRANSLATION
from .matches import glob_regex, matches_to_glob
from .numfmt import format_number

T = TypeCode
U = TimeUnit


class FunctionState:
    """What session-dependent functions read: settings, identity and the statement clock."""

    def __init__(self, user: str, ctx: vals.ConvContext) -> None:
        self.user = user
        self.ctx = ctx
        self.dbname: str | None = None
        self.session_id = 0
        self.server_name = "informix"
        self.version = ""
        self.hostname = "localhost"
        self.new_statement()
        self.last_serial = 0
        self.last_serial8 = 0
        self.last_rowcount = 0
        self.error: EngineError | None = None
        self.serials: dict[tuple[int, str], int] = {}  # live counters of the running INSERT
        self.vio_memo: tuple[object, dict[int, int]] = (None, {})  # (ifx_vio_base)
        # (table, rowid) of the rows a filtering DELETE kept, by the statement's clock
        # object (ifx_vio_kept; row-lock mode drops their undo entries: session_locks.py)
        self.vio_kept: tuple[object, list[tuple[str, int]]] = (None, [])
        self.serial_used: dict[str, int] = {}
        self.lo: Any = None  # the session's LoSession (smart large objects, lo_functions.py)
        # The session's SPL runtime (spl/interp.py): runs a stored function called in a query.
        self.spl_call: Callable[[int, tuple[object, ...]], object] | None = None
        # The same for a function with OUT parameters: (its value, its OUT values) (slv.py).
        self.spl_call_out: Callable[[int, tuple[object, ...]], tuple[object, tuple[
            object, ...]]] | None = None
        #: statement-local variables: key -> the value the producing call last gave (slv.py)
        self.slv: dict[str, object] = {}
        #: time.monotonic() past which the running request is interrupted (-213), or None.
        self.deadline: float | None = None
        #: Set by the session's interrupt (a client's cancel, server/interrupt.py): the
        #: running request stops with -213 at the next check, and a request started while
        #: it is set fails at once. Cleared by the session between requests.
        self.cancelled = False
        #: Called (from the interrupt watcher's thread) once ``cancelled`` is set: a request
        #: that sleeps rather than runs SQL sets it to wake itself (a CDC read waiting for
        #: changes, features/cdc/routines.py), and clears it when done.
        self.on_cancel: Callable[[], None] | None = None
        # NEXTVAL/CURRVAL: (sequence name, nextval?, statement, occurrence) -> value; the
        # session provides it.
        self.sequence_value: Callable[[str, bool, int, int], int] = _no_sequences
        #: CURRENT_ROLE / DEFAULT_ROLE: "current" or "default" -> the role name or None;
        #: the session provides it (access.py keeps roles in sysroleauth and sysusers).
        self.role_of: Callable[[str], str | None] = lambda which: None
        #: The session's SET LOCK MODE as sysmaster:syssqlcurses.scs_lockmode reports it:
        #: -1 WAIT, 0 NOT WAIT, n WAIT n seconds; the session provides it.
        self.lock_mode_of: Callable[[], int] = lambda: 0

    def new_statement(self) -> None:
        """A statement starts: CURRENT and TODAY are this moment from now on. Only the
        clock is read here (time.time, as datetime.now reads it); the datetime is made
        when a statement first uses it (issue 26: datetime.now() was a measurable part of
        a one-row query that never asks for CURRENT). Inlined in EngineSession.open_cursor:
        keep the two in step."""
        self._stmt_clock = time.time()
        self._stmt_time: dt.datetime | None = None

    @property
    def stmt_time(self) -> dt.datetime:
        """The statement's start as a local datetime (CURRENT, TODAY)."""
        t = self._stmt_time
        if t is None:
            t = self._stmt_time = dt.datetime.fromtimestamp(self._stmt_clock)
        return t

    @stmt_time.setter
    def stmt_time(self, value: dt.datetime) -> None:
        self._stmt_time = value


def _no_sequences(name: str, nextval: bool, statement: int, occurrence: int) -> int:
    raise EngineError(sc.NO_DB_SELECTED)


def _dt_fields(v: object, t: IfxType, state: FunctionState) -> vals.DTFields:
    if t.code == T.DATE:
        d = vals.date_from_number(int(v))  # type: ignore[call-overload]
        return [d.year, d.month, d.day, None, None, None, None]
    if t.code == T.DATETIME:
        return vals.parse_dt_text(str(v), t.start, t.end)
    if isinstance(v, str):
        d = vals.parse_date(v, state.ctx)
        return [d.year, d.month, d.day, None, None, None, None]
    raise EngineError(sc.NO_CONVERSION)


def _to_datetime(f: vals.DTFields) -> dt.datetime:
    now = dt.datetime.now()
    return dt.datetime(
        f[0] if f[0] is not None else now.year,
        f[1] if f[1] is not None else (now.month if f[0] is None else 1),
        f[2] if f[2] is not None else (now.day if f[0] is None and f[1] is None else 1),
        f[3] or 0, f[4] or 0, f[5] or 0, (f[6] or 0) * 10,
    )


def _fields_from(d: dt.datetime) -> vals.DTFields:
    return [d.year, d.month, d.day, d.hour, d.minute, d.second, d.microsecond // 10]


def make_functions(slot: FunctionSlot) -> dict[str, tuple[int, Callable[..., object], bool]]:
    """name -> (number of args or -1, implementation, deterministic).

    Every function reads ``slot.state`` when called, never at registration: the SQLite
    connection they are installed on is pooled by the Engine and serves one session after
    another, and a session's settings (DBDATE, code set, the ANSI flag) may change after it
    opened the database."""

    @lru_cache(maxsize=1024)
    def caster(srckey: str, dstkey: str, ctx: vals.ConvContext) -> Callable[[object], object]:
        src, dst = from_key(srckey), from_key(dstkey)
        if dst.code == T.DATETIME and src.code == T.DATETIME:
            def dt2dt(v: object) -> object:
                f = vals.parse_dt_text(str(v), src.start, src.end)
                f2 = vals.extend_fields(f, dst.start, dst.end)
                return vals.format_dt(f2, dst.start, dst.end)
            return dt2dt
        return conv.storer(dst, ctx, src)

    def ifx_cast(v: object, srckey: str, dstkey: str) -> object:
        if v is None:
            return None
        return caster(srckey, dstkey, slot.state.ctx)(v)

    def ifx_text(v: object, srckey: str) -> object:
        return None if v is None else vals.to_text(v, from_key(srckey), slot.state.ctx)

    def ifx_pad(v: object, n: int) -> object:
        if v is None:
            return None
        text = str(v)
        if text.isascii():
            return text.ljust(n)
        # CHAR(n) is n bytes of the database code set: blanks fill what the text leaves.
        return text + " " * max(0, n - len(text.encode(slot.state.ctx.encoding, "replace")))

    def ifx_pad2(side: str, s: object, n: object, fill: object) -> object:
        if s is None or n is None:
            return None
        text, width, f = str(s), int(n), str(fill or " ")  # type: ignore[call-overload]
        if width < 0:  # the pages give no result for a negative length: refused, not cut
            raise EngineError(sc.NOT_IMPLEMENTED, near=f"{side}pad length {width}")
        if len(text) >= width:
            return text[:width]
        pad = (f * width)[: width - len(text)]
        return pad + text if side == "l" else text + pad

    def ifx_length(v: object, strip: int) -> object:
        if v is None:
            return None
        if isinstance(v, bytes):
            return len(v)
        text = str(v)
        if strip == 2:  # CHAR_LENGTH: characters, trailing blanks included
            return len(text)
        if strip:  # LENGTH: trailing blanks stripped
            text = text.rstrip(" ")
        if text.isascii():
            return len(text)
        # LENGTH and OCTET_LENGTH count bytes of the database code set (GLS User's Guide,
        # "The LENGTH function", "The OCTET_LENGTH function"): 'ÄÖÜß' is 8 in UTF-8, 4 in 8859-1.
        return len(text.encode(slot.state.ctx.encoding, "replace"))

    def ifx_initcap(v: object) -> object:
        return None if v is None else re.sub(r"[A-Za-z]+", lambda m: m.group(0).capitalize(),
                                             str(v))

    def ifx_math(name: str, *args: object) -> object:
        if any(a is None for a in args):
            return None
        nums = [_float(a) for a in args]
        try:
            if name in ("ceil", "floor"):  # DECIMAL(32) of any numeric argument, exactly
                d = _dec(args[0]) if not isinstance(args[0], float) else Decimal(repr(args[0]))
                r = d.to_integral_value(decimal.ROUND_CEILING if name == "ceil"
                                        else decimal.ROUND_FLOOR)
                if r != 0 and r.adjusted() >= 32:  # CEIL(1e300) does not fit DECIMAL(32)
                    raise EngineError(sc.DECIMAL_RANGE)
                return vals.dec_text(r)
            if name == "log" and len(nums) == 2:
                # LOG10 is the C library's log10 (LOG10(1000) is 3, not ln(1000)/ln(10)).
                return math.log10(nums[1]) if nums[0] == 10 else math.log(nums[1], nums[0])
            fn = _MATH[name]
            return float(fn(*nums))
        except (ValueError, ZeroDivisionError, OverflowError):
            raise EngineError(sc.DECIMAL_RANGE) from None

    def ifx_mdy(m: object, d: object, y: object) -> object:
        if m is None or d is None or y is None:
            return None
        return vals.date_number(vals.make_date(int(y), int(m), int(d)))  # type: ignore[call-overload]

    def ifx_datepart(v: object, srckey: str, part: str) -> object:
        if v is None:
            return None
        f = _dt_fields(v, from_key(srckey), slot.state)
        if part == "weekday":
            if f[0] is None or f[1] is None or f[2] is None:
                raise EngineError(sc.NO_CONVERSION)
            return (dt.date(f[0], f[1], f[2]).weekday() + 1) % 7
        value = {"year": f[0], "month": f[1], "day": f[2]}[part]
        if value is None:
            raise EngineError(sc.NO_CONVERSION)
        return value

    def ifx_today() -> object:
        return vals.date_number(slot.state.stmt_time.date())

    def ifx_current(key: str) -> object:
        t = from_key(key)
        now = slot.state.stmt_time
        return vals.format_dt(vals.dt_fields_of(now, t.start, t.end), t.start, t.end)

    def ifx_user() -> object:
        return slot.state.user

    def ifx_role(which: str) -> object:
        return slot.state.role_of(which)

    def ifx_vio_base(tabid: int, top: int) -> object:
        """``top`` as the running statement (told by its clock object) first gave it for
        table ``tabid``: MAX ROWS's base (features/object_modes.py)."""
        state = slot.state
        if state.vio_memo[0] is not state._stmt_clock:
            state.vio_memo = (state._stmt_clock, {})
        return state.vio_memo[1].setdefault(tabid, top)

    def ifx_vio_kept(table: str, rowid: int) -> object:
        """A DELETE filter trigger keeps row ``rowid`` of ``table`` (features/object_modes.py):
        noted for the running statement (told by its clock object)."""
        state = slot.state
        if state.vio_kept[0] is not state._stmt_clock:
            state.vio_kept = (state._stmt_clock, [])
        state.vio_kept[1].append((table, int(rowid)))
        return None

    def ifx_dbinfo(option: str, *args: str) -> object:
        state = slot.state
        if option == "sqlca.sqlerrd1":
            return state.last_serial
        if option == "sqlca.sqlerrd2":
            return state.last_rowcount
        if option == "serial8":
            return state.last_serial8
        if option == "bigserial":
            return state.last_serial8
        if option == "sessionid":
            return state.session_id
        if option == "dbname":
            return state.dbname
        if option == "dbhostname":
            return state.hostname
        if option == "dbservername":
            return state.server_name
        if option in ("version", "onedb"):
            part = (args[0] if args else "full").lower()
            return version_part(state.version, part)
        if option == "utc_current":
            return int(dt.datetime.now(dt.timezone.utc).timestamp())
        if option == "get_tz":
            return "UTC"
        if option == "ifxwire_lockmode":
            return state.lock_mode_of()
        if option in ("ifxwire_loguniq", "ifxwire_logpos") and state.lo is not None:
            pos = CAPTURE.log_position(state.lo.es)
            # used is in pages of 4096 bytes (Debezium: LSN = (uniqid << 32) + (used << 12))
            return pos >> 32 if option == "ifxwire_loguniq" else (pos & 0xFFFFFFFF) >> 12
        raise EngineError(sc.NOT_IMPLEMENTED, near=option)

    def ifx_substr(v: object, start: object, length: object = "end",
                   width: object = 0) -> object:
        """SUBSTR (Guide to SQL: Syntax, ids_sqs_1561): a negative start counts back from
        the end, 0 counts as 1, and a negative start before the first character or a length
        past the end gives NULL (where SUBSTRING gives the characters up to the end). A
        CHAR(n) value is stored without its trailing blanks; ``width`` is n, so the string
        SUBSTR counts is the blank-padded one (Tutorial ids_sqt_140: ``SUBSTR(sname, -15,
        5)`` of CHAR(15) 'California' is 'Calif')."""
        if v is None or start is None or length is None:
            return None
        # "end" (no length given) takes the rest; a negative length was taken the same way,
        # SUBSTR('abc', 1, -1) answering 'abc': no result is documented for it, so refused.
        n = -1 if length == "end" else int(cast(Any, length))
        if n < 0 and length != "end":
            raise EngineError(sc.NOT_IMPLEMENTED, near=f"SUBSTR length {n}")
        text, s = str(v), int(cast(Any, start))
        w = int(cast(Any, width))
        if len(text) < w:
            text = text.ljust(w)
        if s < 0:
            s = len(text) + s + 1
            if s < 1:
                return None
        s = max(s, 1)
        if n < 0:
            return text[s - 1:]
        if s - 1 + n > len(text):
            return None
        return text[s - 1:s - 1 + n]

    def ifx_substring(v: object, start: object, length: object = None) -> object:
        if v is None or start is None:
            return None
        text, s = str(v), int(cast(Any, start))
        end = len(text) + 1 if length is None else s + int(cast(Any, length))
        if length is not None and end < s:
            raise EngineError(sc.BAD_FUNCTION_ARG, near="substring")
        s1, e1 = max(s, 1), min(end, len(text) + 1)
        return text[s1 - 1:e1 - 1] if e1 > s1 else ""

    def ifx_utc_to_datetime(v: object) -> object:
        if v is None:
            return None
        local = dt.datetime.fromtimestamp(int(cast(Any, v)))
        return vals.format_dt(vals.dt_fields_of(local, U.YEAR, U.SECOND), U.YEAR, U.SECOND)

    def ifx_units(v: object, srckey: str, dstkey: str) -> object:
        if v is None:
            return None
        t = from_key(dstkey)
        d = vals.to_decimal(v if not isinstance(v, str) else vals.parse_decimal(v))
        unit = t.start
        if t.is_ym_interval:
            n = d * (12 if unit == U.YEAR else 1)
        else:
            n = d * vals.UNIT_TICKS[t.end if t.end > U.SECOND else unit]
        return vals.fit_interval(int(n), t)

    def ifx_dtadd(v: object, dtkey: str, iv: object, ivkey: str, sign: int) -> object:
        if v is None or iv is None:
            return None
        t, ivt = from_key(dtkey), from_key(ivkey)
        f = vals.parse_dt_text(str(v), t.start, t.end)
        amount = int(iv) * sign  # type: ignore[call-overload]
        if ivt.is_ym_interval:
            if f[0] is None and t.start > U.MONTH:
                raise EngineError(sc.DT_INCOMPATIBLE)
            months = (f[0] or 0) * 12 + ((f[1] or 1) - 1) + amount
            year, month = divmod(months, 12)
            f2 = list(f)
            if f[0] is not None:
                f2[0] = year
            f2[1] = month + 1
            if not 1 <= year <= 9999:
                raise EngineError(sc.DT_RANGE)
            vals.check_dt_fields(f2)
            return vals.format_dt(f2, t.start, t.end)
        base = _to_datetime(f)
        try:
            new = base + dt.timedelta(microseconds=amount * 10)
        except OverflowError:
            raise EngineError(sc.DT_RANGE) from None
        return vals.format_dt(vals.dt_fields_of(new, t.start, t.end), t.start, t.end)

    def ifx_dtdiff(a: object, akey: str, b: object, bkey: str, reskey: str) -> object:
        if a is None or b is None:
            return None
        at, bt, res = from_key(akey), from_key(bkey), from_key(reskey)
        fa = vals.parse_dt_text(str(a), at.start, at.end)
        fb = vals.parse_dt_text(str(b), bt.start, bt.end)
        if res.is_ym_interval:
            months = ((fa[0] or 0) - (fb[0] or 0)) * 12 + ((fa[1] or 1) - (fb[1] or 1))
            return vals.fit_interval(months, res)
        delta = _to_datetime(fa) - _to_datetime(fb)
        micro = (delta.days * 86400 + delta.seconds) * 1_000_000 + delta.microseconds
        return vals.fit_interval(vals.trunc_div(micro, 10), res)

    def ifx_ivop(op: str, iv: object, n: object, reskey: str) -> object:
        if iv is None or n is None:
            return None
        res = from_key(reskey)
        d = vals.to_decimal(n if not isinstance(n, str) else vals.parse_decimal(n))
        if op == "/":
            if d == 0:
                raise EngineError(sc.DIVIDE_BY_ZERO)
            r = Decimal(int(iv)) / d  # type: ignore[call-overload]
        else:
            r = Decimal(int(iv)) * d  # type: ignore[call-overload]
        # ids_sqr_158: the result keeps the INTERVAL operand's qualifier and precision; a
        # product past its first field's digits is -1265 "Overflow occurred on a datetime or
        # interval operation" [inference: the catalogue's text; no page prints the case]
        return vals.fit_interval(int(r), res, sc.DT_OVERFLOW)

    def ifx_matches(v: object, pattern: object, esc: object) -> object:
        if v is None or pattern is None:
            return None
        glob = matches_to_glob(str(pattern), str(esc or ""))
        return int(glob_regex(glob).fullmatch(str(v)) is not None)

    def ifx_to_char(v: object, srckey: str, fmt: object) -> object:
        if v is None:
            return None
        t = from_key(srckey)
        ctx = slot.state.ctx
        if fmt is None:
            return vals.to_text(v, t, ctx)
        if t.code == T.DATE:
            day = vals.date_from_number(int(v))  # type: ignore[call-overload]
            return day.strftime(_fraction_directive(str(fmt), 0))
        if t.code == T.DATETIME:
            value = _to_datetime(vals.parse_dt_text(str(v), t.start, t.end))
            return value.strftime(_fraction_directive(str(fmt), value.microsecond))
        mask = str(fmt)
        if t.is_numeric or isinstance(v, (int, float, Decimal)) or "%" not in mask:
            # ids_sqs_1542: a number is formatted with the ESQL/C numeric-formatting mask
            # (ids_dapip_0128), in numfmt. The first argument may also be "a character
            # string that can be converted to" a number or a point in time: a string (or a
            # host variable, whose type the statement does not give) with a mask that holds
            # no % directive is read as a number, -1213 if it is none [inference: a numeric
            # mask has no use for %, a date or time mask has no other way to print a field].
            d = vals.parse_decimal(v) if isinstance(v, str) else vals.to_decimal(v)
            return format_number(d, mask, ctx.money)
        raise EngineError(sc.NOT_IMPLEMENTED, near="to_char")

    def ifx_to_date(v: object, fmt: object, key: str) -> object:
        if v is None:
            return None
        t = from_key(key)
        try:
            parsed = dt.datetime.strptime(str(v), _parse_directives(
                str(fmt or "%Y-%m-%d %H:%M:%S")))
        except ValueError:
            raise EngineError(sc.STRING_TO_DATE) from None
        return vals.format_dt(vals.dt_fields_of(parsed, t.start, t.end), t.start, t.end)

    def ifx_serial(tabid: int, kind: str, v: object) -> object:
        if v is None:
            # a NULL is no request for the next value: the column's NOT NULL refuses it
            # (-391; -703 as part of a primary key: inherit.null_key_code)
            return None
        key = (tabid, kind)
        state = slot.state
        current = state.serials[key]
        limit = 2147483647 if kind == "s" else 9223372036854775807
        if v == 0 or v == "0":
            current += 1
            if current > limit:
                # past the maximum the counter "wraps around and starts generating values
                # beginning at 1" (SERIAL8: ids_sqr_140; SERIAL: IBM APAR IT30917, "will
                # restart from 1"); a unique key holding 1 refuses it as any duplicate
                current = 1
            state.serials[key] = current
            value = current
        else:
            value = vals.to_int(v, T.SERIAL if kind == "s" else T.SERIAL8)
            if value > current:
                state.serials[key] = value
        state.serial_used[kind] = value
        return value

    def ifx_chr(code: object) -> object:
        """CHR(n): the character of code point n, 0 through 255 (NUL included)."""
        if code is None:
            return None
        if not isinstance(code, int) or not 0 <= code <= 255:
            raise EngineError(sc.BAD_FUNCTION_ARG, near="chr")
        return chr(code)
    def ifx_seq(name: str, nextval: int, statement: int = 0, occurrence: int = 0) -> object:
        return slot.state.sequence_value(name, bool(nextval), statement, occurrence)

    def ifx_fn(name: str, *args: object) -> object:
        if name == "TO_NUMBER" and args[0] is not None:
            return to_number(args[0], slot.state.ctx.money)  # the session's DBMONEY
        if name == "SUBSTRB":  # bytes of the database code set
            return call(name, slot.state.ctx.encoding, *args)
        return call(name, *args)

    def ifx_trim_char(v: object) -> object:
        """TRIM's trim_expression "evaluates to a single character or to NULL" (Guide to
        SQL: Syntax, "TRIM Function"); the code a server gives for more is not documented."""
        if v is not None and len(str(v)) != 1:
            raise EngineError(sc.NOT_IMPLEMENTED, near="TRIM character " + repr(str(v)))
        return v

    def ifx_hex(v: object) -> object:
        if v is None:
            return None
        n = int(v)  # type: ignore[call-overload]
        if -(2**31) <= n < 2**31:
            return f"0x{n & 0xFFFFFFFF:08X}"
        return f"0x{n & 0xFFFFFFFFFFFFFFFF:016X}"

    def ifx_error(code: int) -> object:
        raise EngineError(code)

    def ifx_schema(name: str, *args: object) -> object:
        return schema_function(name, args)

    def ifx_spl(procid: int, *args: object) -> object:
        call = slot.state.spl_call
        if call is None:
            raise EngineError(sc.NO_ROUTINE, near=str(procid))
        return call(procid, args)

    def ifx_spl_out(procid: int, keys: str, *args: object) -> object:
        """A stored function with OUT parameters called in a WHERE clause: its OUT values go
        to the statement-local variables ``keys`` names ('|'-separated), its value back."""
        call = slot.state.spl_call_out
        if call is None:
            raise EngineError(sc.NO_ROUTINE, near=str(procid))
        value, outs = call(procid, args)
        for key, out in zip(keys.split("|"), outs, strict=True):
            slot.state.slv[key] = out
        return value

    def ifx_slv(key: str, *row: object) -> object:
        """A statement-local variable's value; ``row``: the producing call's columns, so
        SQLite evaluates the use where (and after) it evaluates the producer."""
        return slot.state.slv.get(key)

    return {
        "ifx_cast": (3, ifx_cast, True),
        "ifx_text": (2, ifx_text, True),
        "ifx_pad": (2, ifx_pad, True),
        "ifx_pad2": (4, ifx_pad2, True),
        "ifx_length": (2, ifx_length, True),
        "ifx_initcap": (1, ifx_initcap, True),
        "ifx_dop": (4, dop, True),
        "ifx_math": (-1, ifx_math, True),
        "ifx_mdy": (3, ifx_mdy, True),
        "ifx_datepart": (3, ifx_datepart, True),
        "ifx_today": (0, ifx_today, False),
        "ifx_current": (1, ifx_current, False),
        "ifx_user": (0, ifx_user, False),
        "ifx_role": (1, ifx_role, False),
        "ifx_vio_base": (2, ifx_vio_base, False),
        "ifx_vio_kept": (2, ifx_vio_kept, False),
        "ifx_utc_to_datetime": (1, ifx_utc_to_datetime, True),
        "ifx_substr": (-1, ifx_substr, True),
        "ifx_substring": (-1, ifx_substring, True),
        "ifx_dbinfo": (-1, ifx_dbinfo, False),
        "ifx_units": (3, ifx_units, True),
        "ifx_dtadd": (5, ifx_dtadd, True),
        "ifx_dtdiff": (5, ifx_dtdiff, True),
        "ifx_ivop": (4, ifx_ivop, True),
        "ifx_matches": (3, ifx_matches, True),
        "ifx_to_char": (3, ifx_to_char, True),
        "ifx_to_date": (3, ifx_to_date, True),
        "ifx_serial": (3, ifx_serial, False),
        "ifx_error": (1, ifx_error, False),
        "ifx_compose": (-1, TRANSLATION.compose, True),
        "ifx_chr": (1, ifx_chr, True),
        "ifx_hex": (1, ifx_hex, True),
        "ifx_trim_char": (1, ifx_trim_char, True),
        "ifx_fn": (-1, ifx_fn, True),
        "ifx_seq": (-1, ifx_seq, False),
        "ifx_schema": (-1, ifx_schema, True),
        "ifx_spl": (-1, ifx_spl, False),
        "ifx_spl_out": (-1, ifx_spl_out, False),
        "ifx_slv": (-1, ifx_slv, False),
    }


def _fraction_directive(fmt: str, micro: int) -> str:
    """GL_DATETIME's ``%Fn`` is the fraction of a second in n digits (1 to 5; GLS User's
    Guide, "GL_DATETIME environment variable"), put into the mask before strftime sees it
    (strftime's own %F is the ISO date). A bare %F, whose digit count we do not know for
    sure, is refused; it printed six digits, and '%F3' six digits and a '3'. Informix's own
    ``%iy`` and ``%iY`` (GLS User's Guide, "GL_DATE environment variable", ids_gug_079: the
    year in two and in four digits) are strftime's %y and %Y; they were printed as written.
    ``%%`` stays a percent sign, whatever follows it."""
    def one(m: re.Match[str]) -> str:
        code = m.group(1)
        if code in ("iy", "iY"):
            return "%" + code[1]
        if not code.startswith("F"):
            return m.group(0)
        if len(code) == 1:
            raise EngineError(sc.NOT_IMPLEMENTED, near="TO_CHAR %F without a digit count")
        return f"{micro:06d}"[: int(code[1])]
    return re.sub(r"%(F[1-5]?|i[yY]|.)", one, fmt)


# GL_DATETIME directives that strptime lacks, as the ones it has (GLS User's Guide,
# "GL_DATETIME environment variable"): %R is %H:%M, %T %H:%M:%S, %D %m/%d/%y, %e the day of
# the month (blank-padded, which strptime's %d accepts), %h the abbreviated month, %n and %t
# a newline and a tab, %Fn a fraction of n digits.
_STRPTIME = {"R": "%H:%M", "T": "%H:%M:%S", "D": "%m/%d/%y", "e": "%d", "h": "%b",
             "n": "\n", "t": "\t"}


@lru_cache(maxsize=64)
def _parse_directives(fmt: str) -> str:
    """A TO_DATE mask as strptime reads it. The Guide to SQL: Syntax, TO_DATE Function
    (ids_sqs_1543), converts 'Wednesday July 25, 2007 18:45' with '%A %B %d, %Y %R'; %R was
    not known to strptime, so the page's own example failed (-1218). Cached: TO_DATE over a
    column calls this once per row with the same mask."""
    def one(m: re.Match[str]) -> str:
        code = m.group(1)
        if code == "%":
            return "%%"
        if code.startswith("F"):
            return "%f"
        if code in ("iy", "iY"):
            return "%" + code[1]  # ids_gug_079: Informix's %iy, %iY are %y, %Y
        return _STRPTIME.get(code, "%" + code)
    return re.sub(r"%(F[1-5]?|i[yY]|.)", one, fmt)


_MATH: dict[str, Callable[..., float]] = {
    "pow": math.pow, "sqrt": math.sqrt, "exp": math.exp, "ln": math.log, "log": math.log10,
    "ceil": math.ceil, "floor": math.floor, "sin": math.sin, "cos": math.cos, "tan": math.tan,
    "atan2": math.atan2, "asin": math.asin, "acos": math.acos, "atan": math.atan,
}


def version_part(version: str, part: str) -> str:
    """DBINFO('version', part) from the full version string. The page names six parts
    ('server-type', 'major', 'minor', 'os', 'level', 'full'); another is refused (it gave
    the full string), the code a server sends for it being unknown to us."""
    if part not in ("server-type", "major", "minor", "os", "level", "full"):
        raise EngineError(sc.NOT_IMPLEMENTED, near=f"DBINFO('version', {part!r})")
    if part == "full":
        return version
    m = re.search(r"(\d+)\.(\d+)\.([A-Z]+)(\w+)", version)
    if not m:
        return version
    major, minor, os_part, level = m.groups()
    return {"server-type": "IBM Informix Dynamic Server", "major": major, "minor": minor,
            "os": os_part[0] if os_part else "", "level": os_part[1:] + level}.get(part, version)


class FunctionSlot:
    """The session whose FunctionState a SQLite connection's functions serve right now.

    Why an indirection: the Engine pools SQLite connections (opening one costs most of a cold
    connect), so the functions installed on a connection outlive the session that installed
    them; checking a connection out points its slot at the new session's state."""

    __slots__ = ("lock_functions", "lock_session", "lock_triggers", "state")

    def __init__(self, state: FunctionState) -> None:
        self.state = state
        #: the row-lock triggers made on this connection (features/locks/triggers.py), kept
        #: with it in the pool so the next session does not make them again
        self.lock_triggers: object = None
        #: the session the lock triggers' functions (_ifx_lk, _ifx_rd) serve now, and whether
        #: they are installed on this connection: once, as SQLite expires every prepared
        #: statement of a connection when a function is defined (session_locks._rl_open)
        self.lock_session: object = None
        self.lock_functions = False


#: SQLite VM instructions between two looks at the statement deadline (a few milliseconds of
#: work: each look takes the GIL, which a busy server must not be asked for too often).
BUDGET_STEPS = 500_000

#: The names of the functions register() installs as not deterministic (NEXTVAL's ifx_seq,
#: the large-object functions, CURRENT, ...), lower case: a query calling none of them (and
#: no stored routine) only reads, so the session may run it before its -710 check
#: (EngineSession._late_check).
VOLATILE: set[str] = set()


def register(conn: sqlite3.Connection, state: FunctionState) -> FunctionSlot:
    """Install functions, aggregates and the IFXDEC collation on ``conn``; the returned slot
    says which session they serve. A progress handler interrupts a statement once its
    session's deadline has passed or the client cancelled it (sqlite3 then raises
    "interrupted"); it is installed even without a statement_timeout so that a cancel can
    always stop a running statement."""
    slot = FunctionSlot(state)

    def over_budget() -> int:
        st = slot.state
        if st.cancelled:
            return 1
        deadline = st.deadline
        return 1 if deadline is not None and time.monotonic() > deadline else 0

    conn.set_progress_handler(over_budget, BUDGET_STEPS)

    def wrap(fn: Callable[..., object]) -> Callable[..., object]:
        def inner(*args: Any) -> object:
            try:
                return fn(*args)
            except EngineError as e:
                slot.state.error = e
                raise
            except Exception as e:
                slot.state.error = EngineError(sc.NOT_IMPLEMENTED, message=f"internal: {e!r}")
                raise
        return inner

    functions = make_functions(slot)
    functions.update(TRANSLATION.lo_functions(slot))
    functions.update(TRANSLATION.sqlite_functions)
    for name, (nargs, fn, deterministic) in functions.items():
        if not deterministic:
            VOLATILE.add(name.lower())
        conn.create_function(name, nargs, cast(Callable[..., Any], wrap(fn)),
                             deterministic=deterministic)
    conn.create_collation("IFXDEC", ifxdec_collation)

    def agg(factory: Callable[[], Any]) -> type:
        class Wrapped:
            def __init__(self) -> None:
                self.inner = factory()

            def step(self, *args: Any) -> None:
                wrap(self.inner.step)(*args)

            def finalize(self) -> object:
                return wrap(self.inner.finalize)()

            def value(self) -> object:
                return wrap(self.inner.finalize)()

            def inverse(self, *args: Any) -> None:
                wrap(self.inner.inverse)(*args)
        return Wrapped

    # Window functions too (SUM(x) OVER (…)): SQLite calls ``inverse`` as rows leave the
    # frame and ``value`` for each row's result.
    # (Python 3.11+; on 3.10 they are plain aggregates and such a window is -999.)
    make = getattr(conn, "create_window_function", conn.create_aggregate)
    make("ifx_dsum", 1, agg(DecSum))
    make("ifx_fdsum", 1, agg(DecFloatSum))
    make("ifx_davg", 1, agg(DecAvg))
    make("ifx_ivavg", 1, agg(IvAvg))
    make("ifx_stdev", 1, agg(lambda: FloatStat("stdev")))
    make("ifx_variance", 1, agg(lambda: FloatStat("variance")))
    make("ifx_nonnull", 4, agg(NonNull))  # IGNORE NULLS (olap.py)
    make("ifx_distinct", 2, agg(DistinctWindow))  # DISTINCT aggregate OVER (olap.py)
    conn.create_aggregate("ifx_collect", 2, agg(TRANSLATION.collect))  # MULTISET(SELECT …)
    return slot
