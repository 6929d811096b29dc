"""The optional C accelerator (``ifxwire._speedups``) and the switch that selects it.

The C module is built at install time when a compiler is present (``setup.py`` marks the
extension optional, so a failed build installs the pure-Python package). At import:

* :data:`available` says whether the compiled module imported, whatever the environment says;
* :data:`accelerated` says whether it is *used*: available and ``IFXWIRE_PURE`` not set to a
  true value (``1``, ``true``, ``yes``, ``on``). The variable is read once, here.

:func:`accelerate` is the hook :func:`ifxwire.types.rowcodec.build_row_decoder` calls with the
generated Python decoder: it returns a C decoder mirroring it, or the Python one unchanged.
The C decoder takes a plan computed here from the ColumnDesc list; kinds it does not decode
itself (DATETIME, INTERVAL) call the same Python scalar decoders the generated code calls, and
any row it cannot decode is handed to the Python decoder, which raises the exception the pure
path raises.

:func:`accelerate_bind` is the hook :func:`ifxwire.types.bind_compile.compile_bind_encoder`
calls with the generated SQ_BIND encoder: it returns a C encoder producing the same bytes (the
values' kinds are mapped here; types without a C encoder call the same Python ``_BY_TYPE``
function), or the Python one unchanged. Either raises when a row needs the generic path. See
docs/ACCELERATOR.md.
"""

from __future__ import annotations

import codecs
import importlib
import os
from collections.abc import Callable, Sequence
from decimal import Decimal
from types import ModuleType
from typing import Any

from .protocol.columns import ColumnDesc

__all__ = [
    "accelerate",
    "accelerate_bind",
    "accelerated",
    "available",
    "c_bind_encoder",
    "c_reply_scanner",
    "c_row_decoder",
    "reply_scanner",
    "row_plan",
]

RowDecoder = Callable[[Any, int, int], tuple[Any, ...]]
BindEncoder = Callable[[Sequence[object]], bytes]

_speedups: ModuleType | None
try:
    _speedups = importlib.import_module("ifxwire._speedups")
except ImportError:  # no compiler at install time, or an incompatible build
    _speedups = None

#: The compiled module imported (regardless of IFXWIRE_PURE).
available: bool = _speedups is not None
#: The compiled module is in use: available and IFXWIRE_PURE does not force pure Python.
accelerated: bool = available and os.environ.get("IFXWIRE_PURE", "").strip().lower() not in (
    "1",
    "true",
    "yes",
    "on",
)

# Column kinds; the numbers are the enum in _speedups.c.
K_SMALLINT = 0
K_INTEGER = 1
K_BIGINT = 2
K_INT8 = 3
K_FLOAT = 4
K_SMALLFLOAT = 5
K_DATE = 6
K_CHAR = 7
K_VARCHAR = 8
K_LVARCHAR = 9
K_BOOLEAN = 10
K_UDT = 11
K_BLOB = 12
K_CALL2 = 13
K_CALL4 = 14
K_DECIMAL = 15
K_COMPLEX = 16

_E_OTHER, _E_LATIN1, _E_UTF8, _E_ASCII = 0, 1, 2, 3
_FAST_CODECS = {"iso8859-1": _E_LATIN1, "utf-8": _E_UTF8, "ascii": _E_ASCII}

PlanItem = tuple[int, int, int, object, object, object]

# Bind value kinds; the numbers are the enum in _speedups.c.
B_INT = 0
B_FLOAT = 1
B_STR = 2
B_NONE = 3
B_BOOL = 4
B_CALL = 5


def row_plan(
    columns: Sequence[ColumnDesc], encoding: str = "iso-8859-1"
) -> tuple[bool, int, tuple[PlanItem, ...]]:
    """(sequential layout?, fixed tuple size, per-column plan) for a result shape.

    Mirrors the dispatch of the generated decoder in rowcodec exactly: struct-readable numbers
    first, then other fixed-width types, then variable ones. Raises CodecNotSupported for a
    column it cannot frame (the Python builder has already refused those).
    """
    from .protocol.codes import TypeCode as _T
    from .types import rowcodec as _rc
    from .types import temporal as _tmp
    from .types.complextype import COMPLEX_CODES
    from .types.composite import ComplexDecoder, fixed_collection_spec
    from .types.errors import CodecNotSupported

    numbers: dict[int, int] = {
        _T.SMALLINT: K_SMALLINT,
        _T.INTEGER: K_INTEGER,
        _T.SERIAL: K_INTEGER,
        _T.BIGINT: K_BIGINT,
        _T.BIGSERIAL: K_BIGINT,
        _T.INT8: K_INT8,
        _T.SERIAL8: K_INT8,
        _T.FLOAT: K_FLOAT,
        _T.SMALLFLOAT: K_SMALLFLOAT,
        _T.DATE: K_DATE,
    }
    cols = list(columns)
    variable = any(_rc.is_variable(c) for c in cols)
    explicit = not variable and any(c.start for c in cols)
    plan: list[PlanItem] = []
    pos = 0
    total = 0
    for col in cols:
        base = col.base
        if explicit:
            pos = col.start
        width = _rc.fixed_width(col)
        item: PlanItem
        if base in numbers:
            assert width is not None
            item = (numbers[base], pos, width, None, None, None)
        elif width is not None:
            if base in (_T.CHAR, _T.NCHAR):
                item = (K_CHAR, pos, width, None, None, None)
            elif base in (_T.DECIMAL, _T.MONEY):
                # Same digit string as numeric.decode_decimal, built in C, given to Decimal.
                item = (K_DECIMAL, pos, width, Decimal, col.enclen & 0xFF, None)
            elif base == _T.DATETIME:
                item = (K_CALL2, pos, width, _tmp.datetime_decoder(col.enclen), None, None)
            elif base == _T.INTERVAL:
                item = (K_CALL2, pos, width, _tmp.interval_decoder(col.enclen), None, None)
            elif base in (_T.BYTE, _T.TEXT):
                item = (K_BLOB, pos, width, None, None, None)
            else:
                raise CodecNotSupported(f"no tuple decoder for column {col.name!r}")
        elif base in (_T.VARCHAR, _T.NVARCHAR):
            item = (K_VARCHAR, 0, 0, None, None, None)
        elif _rc._is_lvarchar(col):
            item = (K_LVARCHAR, 0, 0, None, None, None)
        elif _rc._is_boolean(col):
            item = (K_BOOLEAN, 0, 0, None, None, None)
        elif base in _rc._ENVELOPE_TYPES:
            item = (K_UDT, 0, 0, None, None, None)
        elif base in COMPLEX_CODES:
            # ROW/collections: the Python decoder, or inline for collections of integers.
            fallback = ComplexDecoder(encoding)
            spec = fixed_collection_spec(col, encoding)
            if spec is None:
                item = (K_COMPLEX, 0, 0, fallback, None, None)
            else:
                table, width, _fmt, _null, wrapper, etext = spec
                item = (K_COMPLEX, 0, width, fallback, (table, wrapper), etext)
        else:
            raise CodecNotSupported(f"no tuple decoder for column {col.name!r}")
        plan.append(item)
        if width is not None:
            pos += width
            total = max(total, pos)
    return variable, (0 if variable else total), tuple(plan)


def c_row_decoder(
    pure: RowDecoder, columns: Sequence[ColumnDesc], encoding: str, keep_char_padding: bool
) -> RowDecoder | None:
    """A C decoder equivalent to ``pure`` (the generated decoder for ``columns``), or None when
    the extension is not built or the code set is unknown. Ignores IFXWIRE_PURE (tests use it
    to compare both paths)."""
    if _speedups is None:
        return None
    try:
        codec = codecs.lookup(encoding).name
    except LookupError:
        return None  # the Python decoder reports it, row by row, as it always has
    from .types.errors import CodecError
    from .types.temporal import DATE_EPOCH

    variable, total, plan = row_plan(columns, encoding)
    try:
        decoder: RowDecoder = _speedups.make_row_decoder(
            plan,
            variable,
            total,
            _FAST_CODECS.get(codec, _E_OTHER),
            encoding,
            keep_char_padding,
            pure,
            DATE_EPOCH.toordinal(),
            CodecError,
        )
    except (ValueError, TypeError, OverflowError):
        # A shape the C plan cannot represent (a width or position out of its range): the
        # pure decoder handles it, so the errors its rows raise are the pure path's errors.
        return None
    return decoder


def accelerate(
    pure: RowDecoder, columns: Sequence[ColumnDesc], encoding: str, keep_char_padding: bool
) -> RowDecoder:
    """The decoder to use for this shape: the C one when accelerated, else ``pure``."""
    if not accelerated:
        return pure
    return c_row_decoder(pure, columns, encoding, keep_char_padding) or pure


def c_bind_encoder(
    pure: BindEncoder, pattern: tuple[type, ...], encoding: str, head_code: int
) -> BindEncoder | None:
    """A C encoder equivalent to ``pure`` (the generated SQ_BIND encoder for ``pattern``), or
    None when the extension is not built, the code set is unknown, or a type in ``pattern`` has
    no encoder. Ignores IFXWIRE_PURE (tests use it to compare both paths)."""
    if _speedups is None:
        return None
    try:
        codec = codecs.lookup(encoding).name
    except LookupError:
        return None  # the generic path reports it, as it always has
    from .types import bind as _bind

    simple = {int: B_INT, float: B_FLOAT, str: B_STR, type(None): B_NONE, bool: B_BOOL}
    kinds: list[int] = []
    fns: list[object] = []
    for cls in pattern:
        kind = simple.get(cls)
        fn: object = None
        if kind is None:
            fn = _bind._BY_TYPE.get(cls)
            if fn is None or issubclass(cls, _bind.BLOB_BIND_TYPES):
                return None
            kind = B_CALL
        kinds.append(kind)
        fns.append(fn)
    encoder: BindEncoder = _speedups.make_bind_encoder(
        tuple(pattern),
        tuple(kinds),
        tuple(fns),
        encoding,
        _FAST_CODECS.get(codec, _E_OTHER),
        int(head_code),
        _bind.fast_bind_constants(),
        pure,
    )
    return encoder


def accelerate_bind(
    pure: BindEncoder, pattern: tuple[type, ...], encoding: str, head_code: int
) -> BindEncoder:
    """The bind encoder to use for this pattern: the C one when accelerated, else ``pure``."""
    if not accelerated:
        return pure
    return c_bind_encoder(pure, pattern, encoding, head_code) or pure


#: (buf, pos, end, limit, long_rowid, bigint, done, insertdone, eot, cost) ->
#: (pos, count, rows, fields, lastrowid)
ReplyScanner = Callable[..., tuple[int, int, int, "tuple[int, int, int, int] | None", "int | None"]]


def c_reply_scanner() -> ReplyScanner | None:
    """The C loop over executemany's row replies (client/batch.py ``_read_fast`` is its pure
    twin), or None when the extension is not built or predates it. Ignores IFXWIRE_PURE."""
    return getattr(_speedups, "scan_done_replies", None)


def reply_scanner() -> ReplyScanner | None:
    """The C reply loop when the accelerator is in use, else None (the pure loop runs)."""
    return c_reply_scanner() if accelerated else None
