"""The server's SQ_TUPLE encoder: compiled when the accelerator is built, pure otherwise.

Issue 26 measured ifxwire-server at about 3.3 us of Python per row building SQ_TUPLE
messages: a closure call per cell (types/rowcodec.py), a join, and ``put_tuple``'s packs per
row. ``ifxwire._tuplewriter`` (C, its own extension module next to ``_speedups``) encodes the
common column types from SQLite's values itself and takes the rows from the cursor's iterator,
so a fetch reply costs no Python call per row beyond the iterator's own. The pure encoder
(``build_row_encoder``) stays the reference: every value the C code does not encode exactly
as it would (a subclass, an integer out of range, text that does not fit or encode, a
DECIMAL that needs rounding or is floating, a DATETIME of a partial qualifier or with a time
zone, INTERVAL, BOOLEAN, BYTE/TEXT descriptors, ROW and collection values, ...) goes to the
column's Python encoder, and a row whose encoding raises is encoded again by the pure row
encoder, which raises the same exception the pure path raises.
tests/unit/test_tuplewriter.py compares the bytes of both for every column type the server
sends.

``IFXWIRE_PURE=1`` selects the pure loop in the server too.
"""

from __future__ import annotations

import codecs
import importlib
from collections.abc import Callable, Iterator, Sequence
from types import ModuleType
from typing import Any, Protocol

from .. import _accel
from ..protocol.codes import TypeCode as _T
from ..protocol.columns import ColumnDesc
from ..protocol.messages import put_tuple
from ..protocol.wire import Writer
from ..types.complextype import COMPLEX_CODES as _COMPLEX
from ..types.rowcodec import _is_boolean, _is_lvarchar, build_row_encoder, column_encoders
from ..types.temporal import DATE_EPOCH

_module: ModuleType | None
try:
    _module = importlib.import_module("ifxwire._tuplewriter")
except ImportError:  # not built: the pure encoder alone
    _module = None

#: The compiled writer is built and in use (``IFXWIRE_PURE`` not set).
accelerated: bool = _module is not None and _accel.accelerated

# The kinds of the enum in _tuplewriter_common.h (part of _tuplewriter.c).
_K_CALL, _K_SMALLINT, _K_INTEGER, _K_BIGINT, _K_FLOAT = 0, 1, 2, 3, 4
_K_CHAR, _K_VARCHAR, _K_LVARCHAR, _K_DATE, _K_DATETIME, _K_DECIMAL = 5, 6, 7, 8, 9, 10
_FAST_CODECS = {"iso8859-1": 1, "utf-8": 2, "ascii": 3}


class TupleWriter(Protocol):
    """The compiled writer's interface (``_tuplewriter.c`` describes it)."""

    pure: Callable[[Sequence[object]], bytes]

    def __call__(self, row: Sequence[object]) -> bytes: ...

    def write(self, buf: bytearray, rows: Iterator[Sequence[object]],
              budget: int) -> tuple[int, int, bool]: ...


def _kind(col: ColumnDesc) -> tuple[int, int]:
    """(kind, argument) of a column for the C writer; K_CALL for everything it leaves to the
    column's Python encoder. Mirrors rowcodec._column_encoder's choice of encoder."""
    base = col.base
    if base == _T.SMALLINT:
        return _K_SMALLINT, 0x7FFF
    if base in (_T.INTEGER, _T.SERIAL):
        return _K_INTEGER, 0x7FFFFFFF
    if base in (_T.BIGINT, _T.BIGSERIAL):
        return _K_BIGINT, 0x7FFFFFFFFFFFFFFF
    if base == _T.FLOAT:
        return _K_FLOAT, 0
    if base == _T.DATE:
        return _K_DATE, DATE_EPOCH.toordinal()
    if base == _T.DATETIME:
        return _K_DATETIME, col.enclen  # the qualifier
    if base in (_T.DECIMAL, _T.MONEY):
        p, s = col.enclen >> 8, col.enclen & 0xFF
        if 1 <= p <= 32 and s <= p:  # fixed scale (a floating DECIMAL's scale is 255)
            return _K_DECIMAL, col.enclen
    if base in (_T.CHAR, _T.NCHAR):
        return _K_CHAR, col.enclen
    if base in (_T.VARCHAR, _T.NVARCHAR):
        # rowcodec._varchar_max, then encode_varchar's own cap at 255
        limit = (col.enclen & 0xFF) or 255
        return _K_VARCHAR, min(limit, 255)
    if not _is_boolean(col) and _is_lvarchar(col):
        return _K_LVARCHAR, col.enclen or -1  # encode_lvarchar's max_len: enclen or None
    return _K_CALL, 0


def make_tuple_writer(columns: Sequence[ColumnDesc], encoding: str,
                      complex_text: Callable[[ColumnDesc], Callable[[object], str]] | None = None,
                      ) -> TupleWriter | None:
    """The compiled writer for these columns, or None when the extension is not built.
    Ignores IFXWIRE_PURE (the golden tests compare both paths)."""
    if _module is None or not columns:
        return None
    pure = build_row_encoder(columns, encoding, complex_text)
    fns = column_encoders(columns, encoding, complex_text)
    try:
        enc_kind = _FAST_CODECS.get(codecs.lookup(encoding).name, 0)
    except LookupError:
        enc_kind = 0
    plan = []
    for col, fn in zip(columns, fns, strict=True):
        kind, arg = _kind(col) if col.base not in _COMPLEX else (_K_CALL, 0)
        if kind == _K_CHAR and arg <= 0:
            kind, arg = _K_CALL, 0
        null = None
        if kind != _K_CALL:
            try:
                null = fn(None)
            except Exception:  # a bad qualifier: the encoder raises per value, as pure does
                kind, arg = _K_CALL, 0
        plan.append((kind, fn, arg, null))
    writer: TupleWriter = _module.make_tuple_writer(tuple(plan), enc_kind, pure)
    return writer


def row_encoder(columns: Sequence[ColumnDesc], encoding: str,
                complex_text: Callable[[ColumnDesc], Callable[[object], str]] | None = None,
                ) -> Callable[[Sequence[object]], bytes]:
    """The server's row encoder: the compiled writer when in use, else the pure one. Both are
    callables ``row -> payload``; the compiled one also has ``write`` (fetch replies)."""
    if accelerated:
        writer = make_tuple_writer(columns, encoding, complex_text)
        if writer is not None:
            return writer
    return build_row_encoder(columns, encoding, complex_text)


def write_tuples(encoder: Any, out: Writer, rows: Iterator[Sequence[object]],
                 budget: int) -> tuple[int, int, bool] | None:
    """SQ_TUPLE messages for rows from ``rows`` into ``out`` until ``budget`` bytes are sent
    or the rows end: (count, sent, exhausted), or None when ``encoder`` is not compiled (the
    caller runs its Python loop)."""
    write = getattr(encoder, "write", None)
    if write is None:
        return None
    result: tuple[int, int, bool] = write(out.buf, rows, budget)
    return result



def pure_write_tuples(encode: Callable[[Sequence[object]], bytes], out: Writer,
                      rows: Iterator[Sequence[object]], budget: int) -> tuple[int, bool]:
    """The Python form of the compiled writer's ``write`` (Session._fetch's loop without
    BYTE/TEXT): SQ_TUPLE messages for rows from ``rows`` until ``budget`` bytes are sent or
    the rows end; (count, exhausted)."""
    count = sent = 0
    put = put_tuple
    for row in rows:
        payload = encode(row)
        put(out, payload)
        count += 1
        sent += len(payload) + 8
        if sent >= budget:
            return count, False
    return count, True
