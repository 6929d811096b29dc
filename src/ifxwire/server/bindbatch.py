"""A pipelined executemany's INSERT rows, from the receive buffer to the tuples sqlite3 binds,
in one compiled call (issue 26 part 2, "the same for executemany's rows"; issue 25's
``adbc_ingest`` wall).

The batched INSERT (``OneStepGroups._batch_inserts``) used to spend, per row, a Python loop
turn (two ``startswith``, a call of the run decoder, a list), then the statement's generated
binder with one Python call per converter: about two thirds of the server's CPU per inserted
row (cProfile of 50k rows, docs/SERVER.md *Bulk inserts*). :func:`insert_run` does all of it
for a run of groups in ``_bindbatch.insert_run``: it decodes each item as ``decode_bind_row``
does and converts it as the statement's storers do, calling a storer only for a value its own
first test (``convert.BIND_CHECK``) would not return unchanged. The result is, value for value,
``row_tuple_binder(convs)(decoded row)``; :func:`pure_insert_run` is that reference, written
plainly, and the compiled function is tested against it (tests/unit/test_bindbatch.py).

A NULL item of the step's type or of CHAR (our driver's NULL; indicator -1 or -2, no value
bytes) is None, as decode_bind_plain gives it. A group the plan does not fit (another type or
precision in some item, bytes not yet received, text that does not decode) or a value a
storer refuses ends the run before that group: the caller serves it and the rest the general
way, which reports each row's error exactly.
Without the accelerator (or under IFXWIRE_PURE) :data:`compiled` is None and the server keeps
its Python loop (the run decoder and the binder): the pure path.
"""

from __future__ import annotations

import contextlib
import importlib
from collections.abc import Callable, Sequence

from .. import _accel
from ..types import numeric as _num
from ..types import temporal as _tmp
from ..types.bind import PLAIN_DATE, PLAIN_DECIMAL
from .bindrun import (
    _DAY_NUMBER,
    _FIXED,
    _FLOAT,
    _K_CALL_FIXED,
    _K_CALL_U16,
    _K_FIXED,
    _K_FLOAT,
    _K_TEXT,
    _TEXT,
    day_slots,
)

Conv = Callable[[object], object]
#: One item: (header, kind, width, null, fn, check, lo, hi, conv); see _bindbatch.c.
Step = tuple[bytes, int, int, int, object, int, int, int, Conv]
#: (buf, pos, end, head, tail, steps, encoding, max_rows) -> (rows, pos, last)
InsertRun = Callable[
    [bytearray, int, int, bytes, bytes, "tuple[Step, ...]", str, int],
    "tuple[list[tuple[object, ...]], int, int]"]

_CHECK = "bind_check"  # engine/core/convert.py's BIND_CHECK (the wire layer reads it only)
_CALL, _INT, _FINITE, _STR, _NONE, _DECIMAL = 0, 1, 2, 3, 4, 5
PLANS_MAX = 64  # plans kept (one per statement's storers, header sequence and encoding)

compiled: InsertRun | None = None
if _accel.accelerated:
    with contextlib.suppress(ImportError):  # built without a compiler: the pure path
        compiled = importlib.import_module("ifxwire._bindbatch").insert_run


def plan(headers: Sequence[bytes], convs: Sequence[Conv],
         days: frozenset[int] = frozenset()) -> tuple[Step, ...] | None:
    """The steps for rows with these item ``headers`` (bindrun.headers_at: every item plain
    and non-NULL) bound to parameters stored by ``convs`` (the plan's storers); DATE items at
    ``days`` positions as day numbers (bindrun's rule). None when the counts differ."""
    if len(headers) != len(convs):
        return None
    days = day_slots(list(headers), days)
    steps: list[Step] = []
    for i, (header, conv) in enumerate(zip(headers, convs, strict=True)):
        base = header[1]
        fn: object = None
        if base in _TEXT:
            kind, width, null = _K_TEXT, 0, 0
        elif base == _FLOAT:
            kind, width, null = _K_FLOAT, 8, 0
        elif i in days:
            kind, (_st, width, null) = _K_FIXED, _DAY_NUMBER
        elif base == PLAIN_DATE:
            kind, width, null, fn = _K_CALL_FIXED, 4, 0, _tmp.decode_date
        elif base in PLAIN_DECIMAL:
            kind, width, null, fn = _K_CALL_U16, 0, 0, _num.decode_decimal
        elif base in _FIXED:
            kind, (_st, width, null) = _K_FIXED, _FIXED[base]
        else:
            return None
        check, lo, hi = getattr(conv, _CHECK, (_CALL, 0, 0))
        if check == _DECIMAL and kind != _K_CALL_U16:
            check = _NONE  # (the text shortcut reads a DECIMAL item: another kind, the storer)
        steps.append((bytes(header), kind, width, null, fn, check, lo, hi, conv))
    return tuple(steps)


_PLANS: dict[tuple[object, ...], tuple[Step, ...] | None] = {}


def cached_plan(headers: Sequence[bytes], convs: Sequence[Conv], days: frozenset[int],
                encoding: str) -> tuple[Step, ...] | None:
    """:func:`plan`, kept per (storers, headers, days, encoding); bounded like bindrun's
    decoders (a client binding ever new precisions cannot make it grow without end)."""
    key = (tuple(map(id, convs)), tuple(headers), days, encoding)
    try:  # one lookup: the dict is every session thread's, another may clear it meanwhile
        steps = _PLANS[key]
    except KeyError:
        pass
    else:
        # (ids are reused once a plan is gone: the steps hold the storers themselves)
        if steps is None or all(s[8] is c for s, c in zip(steps, convs, strict=True)):
            return steps
    if len(_PLANS) >= PLANS_MAX:
        _PLANS.clear()
    steps = _PLANS[key] = plan(headers, convs, days)
    return steps


def _decode(buf: bytearray, p: int, end: int, step: Step,
            encoding: str) -> tuple[object, int] | None:
    header, kind, width, null, fn = step[:5]
    if not buf.startswith(header, p, end):
        if (p + 6 <= end and (buf.startswith(header[:2], p, end) or buf.startswith(b"\0\0", p))
                and buf[p + 2] == 0xFF and buf[p + 3] in (0xFF, 0xFE)):
            return None, p + 6  # a NULL of the step's type or CHAR (indicator -1 or -2)
        return None
    if kind == _K_TEXT:
        if p + 8 > end:
            return None
        n = (buf[p + 6] << 8) | buf[p + 7]
        q = p + 8 + n
        if q > end:
            return None
        try:
            return str(buf[p + 8 : q], encoding), q + (n & 1)
        except (UnicodeDecodeError, LookupError):
            return None
    if kind == _K_FLOAT:
        if p + 14 > end:
            return None
        raw = bytes(buf[p + 6 : p + 14])
        return (None if raw == b"\xff" * 8 else _num.F64.unpack(raw)[0]), p + 14
    if kind == _K_FIXED:
        if p + 6 + width > end:
            return None
        x = int.from_bytes(buf[p + 6 : p + 6 + width], "big", signed=True)
        return (None if x == null else x), p + 6 + width
    start, n = p + 6, width
    if kind == _K_CALL_U16:
        if p + 8 > end:
            return None
        start, n = p + 8, (buf[p + 6] << 8) | buf[p + 7]
    if start + n > end:
        return None
    try:
        v = fn(buf, start) if kind == _K_CALL_FIXED else fn(buf, start, n)  # type: ignore[operator]
    except Exception:
        return None
    return v, start + n + (n & 1 if kind == _K_CALL_U16 else 0)


def _kept(v: object, check: int, lo: int, hi: int) -> bool:
    """Whether the storer would return ``v`` unchanged (its declared first test)."""
    if v is None:
        return check != _CALL
    if check == _INT:
        return type(v) is int and lo <= v <= hi
    if check == _FINITE:
        return type(v) is float and v - v == 0.0
    if check == _STR:
        if type(v) is not str:
            return False
        return len(v) <= lo or (hi >= 0 and len(v.encode("utf-8", "surrogatepass")) <= hi)
    return False


def pure_insert_run(buf: bytearray, pos: int, end: int, head: bytes, tail: bytes,
                    steps: tuple[Step, ...], encoding: str, max_rows: int,
                    ) -> tuple[list[tuple[object, ...]], int, int]:
    """The reference of ``_bindbatch.insert_run`` (module doc): the converted rows of up to
    ``max_rows`` groups ``head items tail`` from ``pos``, the position after them and the
    start of the last one taken."""
    rows: list[tuple[object, ...]] = []
    last = pos
    end = min(end, len(buf))
    while len(rows) < max_rows and pos >= 0 and buf.startswith(head, pos, end):
        p = pos + len(head)
        values: list[object] = []
        for step in steps:
            got = _decode(buf, p, end, step, encoding)
            if got is None:
                return rows, pos, last
            v, p = got
            check, lo, hi, conv = step[5:]
            if not _kept(v, check, lo, hi):
                try:
                    v = conv(v)
                except Exception:
                    return rows, pos, last
            values.append(v)
        if not buf.startswith(tail, p, end):
            break
        rows.append(tuple(values))
        last, pos = pos, p + len(tail)
    return rows, pos, last
