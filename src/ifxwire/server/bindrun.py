"""Decoding a run of BIND messages that all have the same item headers (executemany rows).

A pipelined executemany sends hundreds of ``ID n BIND EXECUTE EOT`` groups whose BIND items
repeat the same 6-byte headers (type, indicator 0, precision) row after row; only the values
differ. :func:`run_decoder` compiles, for one such header sequence, a function that checks
each header with one ``startswith`` and decodes the value in place, instead of unpacking and
classifying every header (``types.bind.decode_bind_plain``, the general plain decoder, ~40 %
of the server's CPU per row before). A row that differs in any way (a NULL, another type, bytes
not yet received) makes the compiled function return None, and the caller decodes that row
with ``decode_bind_plain``: the values are always exactly what that function gives.

Only plain item kinds are compiled: SMALLINT, INTEGER, SERIAL, BIGINT, BIGSERIAL, FLOAT,
DATE, DECIMAL/MONEY and CHAR/VARCHAR/NCHAR/NVARCHAR (no named types: ``decode_bind_plain``'s
own set). DATE and DECIMAL values are made by the same functions ``decode_bind_plain`` calls
(``temporal.decode_date``, ``numeric.decode_decimal``); the compiled decoder calls them too.

One exception (arrow9b): a DATE item in a ``days`` position, one whose parameter the
statement stores as a DATE, is decoded to its day number (an int, the wire's own i32, None
for the NULL value), the form SQLite stores. Making a ``datetime.date`` only for the engine's
DATE storer to turn it straight back into that number was ~25 % of the server's profile of a
100k-row ``adbc_ingest``. The storer (``convert.storer``'s ``conv_date``) gives an in-range
int back unchanged, and an out-of-range day number is refused there (the batch is then
refused and the single-row path, which decodes with ``decode_bind_plain``, raises the same
error as before).

With the accelerator built, the function is ``decode_bind_row`` in ``_tuplewriter.c`` given
the same headers as a table (issue 26: the Python decoder was the largest part of the server's
CPU per executemany row left); :func:`pure_run_decoder` is the reference it is tested against
(tests/unit/test_bindrun_accel.py), and what runs under IFXWIRE_PURE.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from .. import _accel
from ..types import numeric as _num
from ..types import temporal as _tmp
from ..types.bind import (
    PLAIN_DATE,
    PLAIN_DECIMAL,
    PLAIN_FIXED,
    PLAIN_FLOAT,
    PLAIN_TEXT,
    TYPE_IND_PREC,
)


class _ParamType(Protocol):
    """What :func:`date_params` reads of a plan's parameter type (the engine's IfxType)."""

    @property
    def code(self) -> int: ...
    @property
    def cx(self) -> object: ...

_HEADER = TYPE_IND_PREC
_TEXT = PLAIN_TEXT
_FIXED = PLAIN_FIXED
_FLOAT = PLAIN_FLOAT
#: Items whose value is ``u16 length, data, a pad byte when the length is odd``: the text
#: types and DECIMAL/MONEY (one set: skipping them is the same step).
_U16_LENGTH = PLAIN_TEXT | PLAIN_DECIMAL
RUN_DECODERS_MAX = 64  # compiled decoders kept (one per header sequence and encoding)

#: (buffer, start of the first item, end of the received bytes) -> (values, end) or None.
RunDecoder = Callable[[bytearray, int, int], "tuple[list[object], int] | None"]


def headers_at(buf: bytearray, pos: int, end: int, nparams: int) -> list[bytes] | None:
    """The item headers of the BIND items at ``pos``, if every item is a non-NULL plain one
    whose value is complete before ``end``; else None (no compiled decoder for that row)."""
    out: list[bytes] = []
    for _ in range(nparams):
        if pos + 6 > end:
            return None
        type_word, indicator, _prec = _HEADER.unpack_from(buf, pos)
        base = type_word & 0xFF
        if indicator or type_word != base:
            return None
        out.append(bytes(buf[pos : pos + 6]))
        pos += 6
        if base in _U16_LENGTH:
            if pos + 2 > end:
                return None
            n = (buf[pos] << 8) | buf[pos + 1]
            pos += 2 + n + (n & 1)
        elif base == _FLOAT:
            pos += 8
        elif base in _FIXED:
            pos += _FIXED[base][1]
        elif base == PLAIN_DATE:
            pos += 4
        else:
            return None
    return out if pos <= end else None


try:  # the server's compiled helpers; absent without a compiler
    from .. import _tuplewriter as _tw  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - depends on the build
    _tw = None

_K_TEXT, _K_FLOAT, _K_FIXED = 0, 1, 2  # decode_bind_row's item kinds
_K_CALL_FIXED, _K_CALL_U16 = 3, 4  # (a function makes the value: DATE, DECIMAL)


#: A DATE as its day number: the i32 of INTEGER, with the same NULL value (0x80000000).
_DAY_NUMBER = (_num.I32, 4, _num.INTEGER_NULL)


def date_params(types: Sequence[_ParamType]) -> frozenset[int]:
    """The positions of a statement's parameters that it stores as a DATE (its plan's
    parameter types: ``convert.storer``'s DATE storer takes a day number as it is)."""
    return frozenset(i for i, t in enumerate(types) if t.code == PLAIN_DATE and t.cx is None)


def day_slots(headers: list[bytes], days: frozenset[int]) -> frozenset[int]:
    """The positions of ``days`` whose item is a DATE (the rest are decoded as usual)."""
    return frozenset(i for i in days if i < len(headers) and headers[i][1] == PLAIN_DATE)


def run_decoder(headers: list[bytes], encoding: str,
                days: frozenset[int] = frozenset()) -> RunDecoder:
    """The decoder for rows with these ``headers``: the compiled one when the accelerator is
    built and in force, else :func:`pure_run_decoder`'s. DATE items at the positions in
    ``days`` come out as day numbers (module doc)."""
    fast = compiled_run_decoder(headers, encoding, days) if _accel.accelerated else None
    return fast if fast is not None else pure_run_decoder(headers, encoding, days)


def compiled_run_decoder(headers: list[bytes], encoding: str,
                         days: frozenset[int] = frozenset()) -> RunDecoder | None:
    """``decode_bind_row`` (_tuplewriter.c) bound to these headers, or None when not built."""
    if _tw is None:
        return None
    days = day_slots(headers, days)
    plan: list[tuple[object, ...]] = []
    for i, header in enumerate(headers):
        base = header[1]
        if base in _TEXT:
            plan.append((header, _K_TEXT, 0, 0))
        elif base == _FLOAT:
            plan.append((header, _K_FLOAT, 8, 0))
        elif i in days:  # the day number as it is (kind 2 of the INTEGER's width and NULL)
            _st, width, null = _DAY_NUMBER
            plan.append((header, _K_FIXED, width, null))
        elif base == PLAIN_DATE:
            plan.append((header, _K_CALL_FIXED, 4, 0, _tmp.decode_date))
        elif base in PLAIN_DECIMAL:
            plan.append((header, _K_CALL_U16, 0, 0, _num.decode_decimal))
        else:
            _st, width, null = _FIXED[base]
            plan.append((header, _K_FIXED, width, null))
    steps = tuple(plan)
    decode_row = _tw.decode_bind_row

    def decode(buf: bytearray, p: int, end: int) -> tuple[list[object], int] | None:
        return decode_row(buf, p, end, steps, encoding)  # type: ignore[no-any-return]

    return decode


#: Generated lines reading a u16-length item (text, DECIMAL/MONEY): its length ``n`` and the
#: end of its data ``q``, or None when the item is not complete before ``end``.
_U16_ITEM = (
    "    if p + 8 > end:\n        return None",
    "    n = (buf[p + 6] << 8) | buf[p + 7]",
    "    q = p + 8 + n",
    "    if q > end:\n        return None",
)


def pure_run_decoder(headers: list[bytes], encoding: str,
                     days: frozenset[int] = frozenset()) -> RunDecoder:
    """A function decoding one row of items with exactly these ``headers`` (see module doc);
    DATE items at the positions in ``days`` as day numbers.

    Only constants derived from the headers (offsets, widths, NULL values) go into the source;
    the header bytes, structs and encoding are passed as names."""
    ns: dict[str, object] = {"enc": encoding, "decode_float": _num.decode_float,
                             "ddate": _tmp.decode_date, "ddec": _num.decode_decimal}
    days = day_slots(headers, days)
    lines = ["def decode(buf, p, end):", "    sw = buf.startswith"]
    names = []
    for i, header in enumerate(headers):
        base = header[1]  # type_word & 0xFF of a plain type (the high byte is 0)
        ns[f"h{i}"] = header
        lines.append(f"    if not sw(h{i}, p, end):\n        return None")
        if base in _TEXT:
            lines += [
                *_U16_ITEM,
                "    try:",
                f"        v{i} = str(buf[p + 8 : q], enc)",
                "    except (UnicodeDecodeError, LookupError):\n        return None",
                "    p = q + (n & 1)",
            ]
        elif base == _FLOAT:
            lines += [
                "    if p + 14 > end:\n        return None",
                f"    v{i} = f64(buf, p + 6)[0]",
                f"    if v{i} != v{i}:\n        v{i} = decode_float(buf, p + 6)",
                "    p += 14",
            ]
            ns["f64"] = _num.F64.unpack_from
        elif base == PLAIN_DATE and i not in days:
            lines += [
                "    if p + 10 > end:\n        return None",
                "    try:",
                f"        v{i} = ddate(buf, p + 6)",
                "    except Exception:\n        return None",
                "    p += 10",
            ]
        elif base in PLAIN_DECIMAL:
            lines += [
                *_U16_ITEM,
                "    try:",
                f"        v{i} = ddec(buf, p + 8, n)",
                "    except Exception:\n        return None",
                "    p = q + (n & 1)",
            ]
        else:  # the integer types, and a DATE in ``days`` as its day number
            st, width, null = _DAY_NUMBER if base == PLAIN_DATE else _FIXED[base]
            ns[f"s{i}"] = st.unpack_from
            lines += [
                f"    if p + {6 + width} > end:\n        return None",
                f"    v{i} = s{i}(buf, p + 6)[0]",
                f"    if v{i} == {null}:\n        v{i} = None",
                f"    p += {6 + width}",
            ]
        names.append(f"v{i}")
    lines.append("    if p > end:\n        return None")
    lines.append(f"    return [{', '.join(names)}], p")
    exec("\n".join(lines), ns)
    return ns["decode"]  # type: ignore[return-value]


_RUN_DECODERS: dict[tuple[str, bool, tuple[bytes, ...], frozenset[int]], RunDecoder] = {}


def cached_run_decoder(buf: bytearray, pos: int, end: int, nparams: int,
                       encoding: str, days: frozenset[int] = frozenset()) -> RunDecoder | None:
    """The compiled decoder for rows whose items have the headers of the row at ``pos``,
    shared by all sessions; None when that row is not all plain non-NULL items. ``days``:
    the positions whose parameter is stored as a DATE (module doc).
    Bounded: a client binding ever new precisions cannot make it grow without end."""
    headers = headers_at(buf, pos, end, nparams)
    if headers is None:
        return None
    days = day_slots(headers, days)
    key = (encoding, _accel.accelerated, tuple(headers), days)
    decoder = _RUN_DECODERS.get(key)
    if decoder is None:
        if len(_RUN_DECODERS) >= RUN_DECODERS_MAX:
            _RUN_DECODERS.clear()
        decoder = _RUN_DECODERS[key] = run_decoder(headers, encoding, days)
    return decoder
