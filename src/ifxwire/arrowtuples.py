"""Arrow columns from runs of SQ_TUPLE messages of any layout (VARCHAR, LVARCHAR, BOOLEAN...).

While an Arrow fetch runs, :class:`TupleRuns` stands in for the cursor's row decoder (as
:class:`ifxwire.arrowcols.RawRuns` does for fixed-stride numerics): ``Reply._tuples`` hands it
each reply's buffer and it keeps the run of complete tuple messages as one ``bytes``
(:class:`TupleRun`), counted, without decoding a row. A run then becomes one record batch,
column by column:

* **accelerated** (``ifxwire._arrowdec``, C): one pass over the run writes every column's Arrow
  buffers (validity bitmap, little-endian values, string offsets and UTF-8 data, decimal128
  integers, date32/timestamp values); ``pyarrow.Array.from_buffers`` wraps them. Columns of
  kinds it does not decode (INTERVAL, DATETIME HOUR TO..., ROW, collections, UDTs, text in
  code sets other than Latin-1/UTF-8/ASCII) come back as (offset, size) pairs, decoded by the
  driver's own one-column codec. A run it refuses (see _arrowdec.c: anything the row decoder
  would refuse or decode otherwise) is decoded by the row decoder instead, which gives
  fetchall's values or raises fetchall's error.
* **pure**: the same walk in Python, generated per result shape from the row decoder's own
  statements (:func:`column_walker`), appending each value to its column's list (never a
  row tuple), then one ``pyarrow.array`` call per column.

The framing is the sequential layout's (docs/PROTOCOL.md §5): each column read where the
previous ended; a tuple whose columns do not add up to its size is refused.
"""

from __future__ import annotations

import codecs
import importlib
import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import date
from functools import lru_cache
from types import ModuleType
from typing import Any

from . import _accel
from .protocol.codes import TYPE_DISTINCT, Msg, TypeCode
from .protocol.columns import ColumnDesc
from .types import numeric as _num
from .types import rowcodec as _rc
from .types import temporal as _tmp
from .types import tupdecimal as _tdec
from .types.complextype import COMPLEX_CODES
from .types.compositetext import TextFormColumn, column_node, text_collection_decoder
from .types.errors import CodecError
from .types.rowcodec import build_row_decoder, fixed_width, is_variable

__all__ = [
    "FedRun",
    "TupleRun",
    "TupleRuns",
    "c_decoder",
    "c_plan",
    "column_walker",
    "columns_batch",
    "decoded_batch",
    "enc_kind",
    "fed_batches",
    "run_batch",
    "run_rows",
    "tuple_plan",
]

_T = TypeCode
_TUPLE = int(Msg.TUPLE)

_arrowdec: ModuleType | None
try:
    _arrowdec = importlib.import_module("ifxwire._arrowdec")
except ImportError:  # no compiler at install time: the pure column path
    _arrowdec = None

# Kinds, as numbered in _arrowdec_common.h (part of _arrowdec.c).
A_I16, A_I32, A_I64, A_INT8, A_F32, A_F64, A_DATE, A_CHAR = range(8)
A_VARCHAR, A_LVARCHAR, A_BOOL, A_DEC, A_DECF, A_DT, A_RAW, A_LIST = range(8, 16)
#: numeric SET/MULTISET/LIST in the text form (cursor.collections = "text"), _arrowdec.c
A_TLIST = 16
#: A_RAW framings: fixed width, u8 length, u8 indicator + u32 length envelope, i32 length.
F_FIXED, F_U8, F_ENVELOPE, F_I32 = range(4)
_E_OTHER, _E_LATIN1, _E_UTF8, _E_ASCII = range(4)
_ENC_KINDS = {"latin-1": _E_LATIN1, "iso8859-1": _E_LATIN1, "utf-8": _E_UTF8, "ascii": _E_ASCII}
_SIMPLE: dict[int, int] = {
    _T.SMALLINT: A_I16, _T.INTEGER: A_I32, _T.SERIAL: A_I32, _T.BIGINT: A_I64,
    _T.BIGSERIAL: A_I64, _T.INT8: A_INT8, _T.SERIAL8: A_INT8, _T.SMALLFLOAT: A_F32,
    _T.FLOAT: A_F64, _T.DATE: A_DATE,
}  # fmt: skip
_WIDTHS = {A_I16: 2, A_I32: 4, A_I64: 8, A_INT8: 10, A_F32: 4, A_F64: 8, A_DATE: 4}


def c_decoder() -> ModuleType | None:
    """The C column decoder when the accelerator is in use (not under IFXWIRE_PURE=1)."""
    return _arrowdec if _accel.accelerated else None


def _enc_kind(encoding: str) -> int:
    try:
        name = codecs.lookup(encoding).name
    except LookupError:
        return _E_OTHER
    return _ENC_KINDS.get(name, _E_OTHER)


def _is_udt_named(col: ColumnDesc, xid: int, name: str) -> bool:
    return col.base in (_T.UDTFIXED, _T.UDTVAR) and (
        col.xid == xid or col.type_name.lower() == name)


#: One column of a run: (kind, width, arg, one-column decoder or None, framing).
Spec = tuple[int, int, int, Any, int]

#: A_LIST columns' (type table, element width, element kind) by (type text, encoding): see
#: _c_list_table.
_LIST_TABLES: dict[tuple[str, str], tuple[bytes, int, int] | None] = {}

#: A_LIST's element kinds (the C decoder's LK_INT / LK_FLOAT, plus LK_SET for a SET).
LK_INT, LK_FLOAT, LK_SET = 0, 1, 16
_LIST_ELEMENTS: dict[int, tuple[int, int]] = {
    _T.SMALLINT: (2, LK_INT), _T.INTEGER: (4, LK_INT), _T.SERIAL: (4, LK_INT),
    _T.BIGINT: (8, LK_INT), _T.BIGSERIAL: (8, LK_INT),
    _T.SMALLFLOAT: (4, LK_FLOAT), _T.FLOAT: (8, LK_FLOAT),
}


def _c_list_table(col: ColumnDesc, encoding: str) -> tuple[bytes, int, int] | None:
    """(type table bytes, element width, element kind) of a SET/MULTISET/LIST of
    SMALLINT/INTEGER/BIGINT/SMALLFLOAT/FLOAT: the C decoder's A_LIST (Arrow list arrays
    straight from the tuple bytes, issues 25/13).

    The table is the one this column's type produces (complextype.write_type_table of the
    described type, as composite.fixed_collection_spec makes it for the row decoder's fast
    path); a value carrying any other table, a NULL element (the element type's NULL form,
    which Informix never sends: collection elements are NOT NULL) or a size that is not
    whole elements makes the C decoder refuse the run, which then goes through the row
    decoder. A SET's elements come out sorted (``LK_SET``; arrow.py gives the row path's
    Sets sorted too: a frozenset keeps no wire order)."""
    from .types.complextype import parse_type_name, write_type_table

    key = (col.type_name, encoding)
    if key not in _LIST_TABLES:
        found: tuple[bytes, int, int] | None = None
        try:
            node = parse_type_name(col.type_name) if col.type_name else None
        except CodecError:
            node = None
        if node is not None and node.is_collection and node.code == col.base:
            elem = _LIST_ELEMENTS.get(node.element.code)
            if elem is not None:
                width, ek = elem
                found = (write_type_table(node, encoding), width,
                         ek | (LK_SET if col.base == _T.SET else 0))
        if len(_LIST_TABLES) >= 256:
            _LIST_TABLES.clear()
        _LIST_TABLES[key] = found
    return _LIST_TABLES[key]


#: A_TLIST's decimal element kind: arg = (precision << 16) | (scale << 8) | LK_DEC, width 16.
LK_DEC = 2
_TEXT_WORDS: dict[int, bytes] = {_T.SET: b"SET{", _T.MULTISET: b"MULTISET{", _T.LIST: b"LIST{"}


def _c_text_list(col: ColumnDesc) -> tuple[int, int, bytes] | None:
    """(element width, arg, opener) of a numeric collection in the text form for the C
    decoder's A_TLIST (arrow14): SMALLINT/INTEGER/BIGINT (LK_INT), SMALLFLOAT/FLOAT and a
    floating DECIMAL(p <= 15) (LK_FLOAT: float32/float64, the Arrow types of arrow.py), a
    DECIMAL/MONEY(p,s) of a LIST or MULTISET (LK_DEC: decimal128(p, s)); SET elements come
    out sorted (LK_SET; not decimals: they stay A_RAW). The opener (``LIST{``) is compared
    with each value's text. None: the row decoder gives each value (A_RAW)."""
    from .types.compositetext import column_node

    node = column_node(col)
    if node is None or node.code != col.base or node.code not in _TEXT_WORDS:
        return None
    code = node.element.code
    is_set = LK_SET if node.code == _T.SET else 0
    found: tuple[int, int] | None = None
    if code in _LIST_ELEMENTS:
        found = (_LIST_ELEMENTS[code][0], _LIST_ELEMENTS[code][1] | is_set)
    elif code in (_T.INT8, _T.SERIAL8):
        found = (8, LK_INT | is_set)
    elif code in (_T.DECIMAL, _T.MONEY):
        p, s = node.element.length >> 8, node.element.length & 0xFF
        if s == _num.DECIMAL_FLOATING_SCALE:
            if p <= 15:  # arrow.FLOAT_DECIMAL_MAX_PRECISION: float64
                found = (8, LK_FLOAT | is_set)
        elif not is_set and 1 <= max(p, 1) <= 32 and s <= max(p, 1):
            found = (16, (max(p, 1) << 16) | (s << 8) | LK_DEC)
    if found is None:
        return None
    return found[0], found[1], _TEXT_WORDS[node.code]


def _list_table(col: ColumnDesc, encoding: str) -> tuple[bytes, int] | None:
    """(type table bytes, element width) of a LIST or MULTISET of SMALLINT/INTEGER/BIGINT:
    the collections the pure path's stride runs take (arrowlists.py)."""
    found = _c_list_table(col, encoding)
    if found is None or found[2] != LK_INT:
        return None
    return found[0], found[1]


def c_plan(plan: Sequence[Spec], columns: Sequence[ColumnDesc],
           encoding: str) -> tuple[tuple[Any, ...], ...]:
    """The plan as _arrowdec.decode takes it: (kind, width, arg) per column, and for A_LIST
    the type table as a fourth item."""
    out: list[tuple[Any, ...]] = []
    for (kind, width, arg, _, _), col in zip(plan, columns, strict=True):
        if kind == A_LIST:
            found = _c_list_table(col, encoding)
            assert found is not None
            out.append((kind, width, arg, found[0]))
        elif kind == A_TLIST:
            text = _c_text_list(col)
            assert text is not None
            out.append((kind, width, arg, text[2]))
        else:
            out.append((kind, width, arg))
    return tuple(out)


def tuple_plan(columns: Sequence[ColumnDesc], encoding: str,
               keep_char_padding: bool) -> list[Spec] | None:
    """How each column of a result is decoded from tuple runs, or None when its rows must go
    through the row path (BYTE/TEXT descriptors and BLOB/CLOB locators need the connection
    to read their data; DISTINCT types keep their own framing; a fixed layout whose described
    start positions are not packed)."""
    from .protocol.codes import XID_BLOB, XID_BOOLEAN, XID_CLOB, XID_LVARCHAR

    enc = _enc_kind(encoding)
    out: list[Spec] = []
    offset = 0
    packed = True
    for col in columns:
        base = col.base
        if col.type & TYPE_DISTINCT or base in (_T.BYTE, _T.TEXT, _T.NULL):
            return None
        if _is_udt_named(col, XID_BLOB, "blob") or _is_udt_named(col, XID_CLOB, "clob"):
            return None
        if col.start != offset:
            packed = False
        kind, width, arg, framing = A_RAW, 0, 0, F_FIXED
        if base in _SIMPLE:
            kind = _SIMPLE[base]
            width = _WIDTHS[kind]
        elif base in (_T.CHAR, _T.NCHAR):
            kind, width = (A_CHAR if enc else A_RAW), col.enclen
        elif base in (_T.VARCHAR, _T.NVARCHAR):
            kind, framing = (A_VARCHAR if enc else A_RAW), F_U8
        elif base == _T.LVARCHAR or _is_udt_named(col, XID_LVARCHAR, "lvarchar"):
            kind, framing = (A_LVARCHAR if enc else A_RAW), F_ENVELOPE
        elif base == _T.BOOLEAN or _is_udt_named(col, XID_BOOLEAN, "boolean"):
            kind, framing = A_BOOL, F_ENVELOPE
        elif base in (_T.DECIMAL, _T.MONEY):
            width = _num.decimal_width(col.enclen)
            p, s = col.enclen >> 8, col.enclen & 0xFF
            if s != _num.DECIMAL_FLOATING_SCALE:
                kind, arg = A_DEC, (max(p, 1) << 8) | s
            elif p <= 15:  # arrow.FLOAT_DECIMAL_MAX_PRECISION
                kind = A_DECF
        elif base == _T.DATETIME:
            width = _tmp.qualifier_width(col.enclen)
            _, start, end = _tmp.parse_qualifier(col.enclen)
            if start == _tmp._YEAR and end >= _tmp._DAY:
                whole = sum(1 for u in _tmp._WHOLE_UNITS if u <= min(end, _tmp._SECOND))
                fd = max(0, end - _tmp._SECOND)
                unit = 0 if end == _tmp._DAY else (1 if fd == 0 else (2 if fd <= 3 else 3))
                kind, arg = A_DT, (unit << 8) | (whole << 4) | fd
        elif base == _T.INTERVAL:
            width = _tmp.qualifier_width(col.enclen)
        elif base in COMPLEX_CODES and isinstance(col, TextFormColumn):
            framing = F_ENVELOPE  # LIST{1,2}: numbers in C (A_TLIST), else A_RAW
            text = _c_text_list(col)
            if text is not None:
                kind, width, arg = A_TLIST, text[0], text[1]
        elif base in COMPLEX_CODES:
            framing = F_I32
            found = _c_list_table(col, encoding)
            if found is not None:
                kind, width, arg = A_LIST, found[1], found[2]
        elif base in (_T.UDTFIXED, _T.UDTVAR, 46):
            framing = F_ENVELOPE
        else:
            fixed = fixed_width(col)
            if fixed is None:
                return None
            width = fixed
        if kind == A_RAW:
            arg = framing
        elif kind in (A_LIST, A_TLIST):
            offset -= width  # (not a fixed layout: the width is the elements')
        elif framing == F_FIXED and width == 0:
            return None
        decoder = build_row_decoder([replace(col, start=0)], encoding,
                                    keep_char_padding=keep_char_padding)
        out.append((kind, width, arg, decoder, framing))
        offset += width
    # The fixed layout is read at the described start positions when there are any (as the
    # row decoder does); only the packed one, which every observed server sends, is taken here.
    explicit = not any(is_variable(c) for c in columns) and any(c.start for c in columns)
    if not out or (explicit and not packed):
        return None
    return out


class TupleRun(bytes):
    """Whole SQ_TUPLE messages (headers included) as received, and how many."""

    ntuples: int


def _run(buf: Any, start: int, stop: int, count: int) -> TupleRun:
    """The tuples at ``buf[start:stop]`` as a TupleRun: one copy (a bytearray slice, then
    bytes(), then the subclass were three; a LIST of 10 INTEGERs is ~1 KB a row)."""
    with memoryview(buf) as view:
        run = TupleRun(view[start:stop])
    run.ntuples = count
    return run


class FedRun:
    """Tuples of a fetch reply decoded into ``cols`` (an ``_arrowdec.Columns``) straight from
    the receive buffer as they arrived: never copied out of it (a LIST of 10 INTEGERs is ~1 KB
    a row on the wire, 40 bytes as Arrow). Consecutive runs fed into the same columns share
    one FedRun per reply; ``ntuples`` counts this reply's share (rowcount)."""

    __slots__ = ("cols", "ntuples")

    def __init__(self, cols: Any, ntuples: int) -> None:
        self.cols = cols
        self.ntuples = ntuples


class TupleRuns:
    """Stands in for a row decoder: keeps runs of whole tuple messages instead of rows.

    With a plan the C decoder reads whole (no A_RAW column), each run is fed into the open
    ``_arrowdec.Columns`` where it lies in the receive buffer (:class:`FedRun`); a run the
    decoder refuses closes those columns and is kept as a :class:`TupleRun` copy for the row
    decoder, and later runs open new columns, so the rows stay in order. Otherwise (an A_RAW
    column: its (offset, size) pairs point into one buffer) every run is a TupleRun copy."""

    __slots__ = ("cols", "new_columns", "scan")

    def __init__(self, c_plan: tuple[tuple[Any, ...], ...] | None = None, enc: int = 0,
                 keep: bool = False) -> None:
        assert _arrowdec is not None
        self.scan: Callable[[Any, int, int], tuple[int, int]] = _arrowdec.tuple_run
        self.new_columns: Callable[[], Any] | None = None
        if c_plan is not None and all(item[0] != A_RAW for item in c_plan):
            columns = _arrowdec.Columns

            def new_columns() -> Any:
                return columns(c_plan, enc, keep)

            self.new_columns = new_columns
        #: the Columns runs are fed into, None when the next run opens new ones
        self.cols: Any = None

    def __call__(self, buf: Any, offset: int, size: int) -> TupleRun:
        """One tuple (the reply loop's fallback): its whole message. It comes after the rows
        fed so far, so they are closed (rows fed later go to new columns, after it)."""
        self.cols = None
        return _run(buf, offset - 8, offset + size + (size & 1), 1)

    def decode_tuples(self, buf: Any, pos: int, end: int, rows: list[Any]) -> tuple[int, None]:
        nxt, count = self.scan(buf, pos, end)
        if count:
            new = self.new_columns
            if new is not None:
                cols = self.cols
                if cols is None:
                    cols = self.cols = new()
                if cols.feed(buf, pos, nxt, count):
                    last = rows[-1] if rows else None
                    if type(last) is FedRun and last.cols is cols:
                        last.ntuples += count
                    else:
                        rows.append(FedRun(cols, count))
                    return nxt, None
                self.cols = None  # refused (nothing of it kept): the row decoder takes it
            rows.append(_run(buf, pos, nxt, count))
        return nxt, None

    def pump(self, t: Any, reply: Any, fd: int, timeout_ms: int) -> tuple[int, int]:
        """Receive the reply's tuples from ``fd`` into ``t``'s buffer and feed them into the
        open Columns in C (``Columns.pump``: one ``recv`` a receive and no Python frame,
        where the reply parser took ~20 us of Python a receive), until something else is at
        ``t.start``: the reply parser goes on from there (another message, a run the decoder
        refuses, a tuple too large for the buffer). ``t`` is the Transport, ``reply`` the
        Reply, whose counts are kept as its own parsing keeps them. Returns (status, errno)
        of ``Columns.pump`` (0: stopped, else the receive's failure for ``t`` to raise)."""
        new = self.new_columns
        if new is None:
            return 0, 0
        cols = self.cols
        if cols is None:
            cols = new()
        pump = getattr(cols, "pump", None)
        if pump is None:  # a build without it (Windows: no poll(2)): the parser receives
            return 0, 0
        status, t.start, t.end, count, nbytes, err = pump(
            fd, t.buf, t.start, t.end, reply.tuple_budget - reply.tuple_bytes,
            reply.tuple_limit, t.min_free, timeout_ms)
        if count:
            self.cols = cols
            rows = reply.rows
            last = rows[-1] if rows else None
            if type(last) is FedRun and last.cols is cols:
                last.ntuples += count
            else:
                rows.append(FedRun(cols, count))
            reply.tuple_bytes += nbytes
            reply.consumed += nbytes
        return status, err

    def close(self) -> Any:
        """The open columns (None if none), closed: later runs open new ones."""
        cols, self.cols = self.cols, None
        return cols


#: walk(buf, pos, end, columns) -> (pos, rows, first error): see column_walker.
Walker = Callable[[Any, int, int, list[list[Any]]], tuple[int, int, Any]]

#: How the pure walker hands a column over when not as fetchall's value (column_batch):
#: DATE as its day number from 1970-01-01 (date32's own value), fixed-scale DECIMAL and
#: MONEY(p <= 18) as the unscaled integer (decimal128's own value: an int64 array, cast).
RAW_DATE, RAW_DECIMAL = "date", "decimal"
#: A text-form collection column the walker leaves as its text (arrowtext.py reads a batch).
RAW_TEXT = "text"
_TEXT_CALL = re.compile(r"^\s*(c\d+), o = (_cxt\d+)\(buf, o\)$")
_DECIMAL_LINE = re.compile(r"^\s*(c\d+) = (_dec\d+)\(buf, [^()]+\)$")
_MUL_LINE = re.compile(r"^(\s*c\d+ = )_mul\((.*), _Q\d+\)$")
_DATE_CALL = re.compile(r"_date_from_days\((c\d+)\)")
_EPOCH_ORD = _tmp.DATE_EPOCH.toordinal()
#: Informix counts days from 1899-12-31, date32 from 1970-01-01.
_UNIX_ORD = date(1970, 1, 1).toordinal()
_SHIFT = _EPOCH_ORD - _UNIX_ORD
#: Day numbers date objects exist for: any other goes to _date_from_days, whose error the
#: row decoder then reports, as fetchall does.
_DAY_MIN = date.min.toordinal() - _EPOCH_ORD
_DAY_MAX = date.max.toordinal() - _EPOCH_ORD


def _unscaled(decode: Callable[[Any, int], Any], scale: int) -> Callable[[Any, int], Any]:
    """A DECIMAL decoder giving the unscaled integer (the values the inline form leaves to
    the decoder: negative, NULL)."""
    ctx = _tdec.CONTEXT

    def unscaled(buf: Any, pos: int) -> Any:
        value = decode(buf, pos)
        return None if value is None else int(value.scaleb(scale, ctx))

    return unscaled


def _raw_value(kind: tuple[str, int] | None, value: Any) -> Any:
    """A fetchall value as the walker hands its column over (the rows decode_row redoes)."""
    if kind is None or value is None or kind[0] == RAW_TEXT:  # (text: the decoded value)
        return value
    if kind[0] == RAW_DATE:
        return value.toordinal() - _UNIX_ORD
    return int(value.scaleb(kind[1], _tdec.CONTEXT))


def _text_of(buf: Any, off: int) -> tuple[bytes | None, int]:
    """A text-form collection's envelope (u8 flag, u32 length, text) as its text bytes, None
    for the NULL collection (flag 1): what the walker keeps for arrowtext.py."""
    n = int.from_bytes(buf[off + 1:off + 5], "big")
    end = off + 5 + n
    if end > len(buf):
        raise CodecError(f"text form of {n} bytes at offset {off} runs past the tuple")
    return (None if buf[off] & 1 else bytes(buf[off + 5:end])), end


def _text_opener(col: ColumnDesc) -> bytes:
    node = column_node(col)
    assert node is not None
    return _TEXT_WORDS[node.code]


@lru_cache(maxsize=64)
def column_walker(columns: tuple[ColumnDesc, ...], encoding: str,
                  keep_char_padding: bool) -> Walker:
    """The pure path's decoder of a reply's tuples straight into column lists.

    ``walk(buf, pos, end, columns)`` decodes the complete SQ_TUPLE messages from ``pos`` (it
    stops where the row decoder's loop stops: another message, an incomplete tuple, a
    negative size), appending each value to its list in ``columns``; it returns (the
    position after them, the rows decoded, the first error or None).

    It is fetchall's own pure tuple loop (types/tuploop.py, generated from the row decoder's
    statements in batch mode: header and leading struct run in one unpack, fixed-scale
    DECIMAL inline, text sliced from a decoded window, rows read with no end test while the
    window holds the longest row) with its row tuple replaced by one append per column, so
    it cannot cost more per row than fetchall. Two columns are left as the integers Arrow
    stores (``walk.raw``; column_batch builds their arrays): DATE as days from 1970-01-01
    and DECIMAL/MONEY(p <= 18) as the unscaled integer, so no date or Decimal object is
    made (pyarrow takes ~4 us to convert one Decimal, more than decoding the whole row).
    A row the inline statements refuse is decoded again by decode_row, which gives
    fetchall's values or raises fetchall's exact error; that row is skipped and its error
    returned, as the row decoder's loop does, so the cursor reports it as fetchall would.
    """
    from .types.tuploop import build_tuple_loop

    cols = list(columns)
    variable = any(is_variable(c) for c in cols)
    explicit = not variable and any(c.start for c in cols)
    decode_row = build_row_decoder(cols, encoding, keep_char_padding=keep_char_padding)
    g = _rc._new_gen(cols, encoding)
    fixed_total, _, _ = _rc._emit_columns(_rc._new_gen(cols, encoding), cols, encoding,
                                          keep_char_padding, explicit, False)
    _, final, lead = _rc._emit_columns(g, cols, encoding, keep_char_padding, explicit, True)
    n = len(cols)
    namespace: dict[str, Any] = dict(g.env)
    raw: dict[int, tuple[str, int]] = {}
    texts: dict[int, tuple[bytes, Callable[[bytes], Any]]] = {}
    decimals: dict[str, tuple[int, int]] = {}
    lines: list[str] = []
    for line in g.lines:
        match = _DECIMAL_LINE.match(line)
        if match is not None and match.group(2) in g.decimals:
            k = int(match.group(1)[1:])
            width, scale = g.decimals[match.group(2)]
            if cols[k].enclen >> 8 <= 18:
                decimals[match.group(2)] = (width, scale)
                namespace[match.group(2)] = _unscaled(namespace[match.group(2)], scale)
                raw[k] = (RAW_DECIMAL, scale)
        for var in _DATE_CALL.findall(line):
            raw[int(var[1:])] = (RAW_DATE, 0)
        match = _TEXT_CALL.match(line)
        if match is not None:  # a text-form collection: its text, read a batch at a time
            k = int(match.group(1)[1:])
            raw[k] = (RAW_TEXT, 0)
            namespace[match.group(2)] = _text_of
            texts[k] = (_text_opener(cols[k]), text_collection_decoder(cols[k], encoding))
        lines.append(_DATE_CALL.sub(r"(\1 + _SHIFT if _DMIN <= \1 <= _DMAX else _days(\1))",
                                    line))
    kinds = [raw.get(k) for k in range(n)]

    def keep(row: tuple[Any, ...], out: list[list[Any]]) -> None:
        """A row decode_row decoded (the inline statements refused it), stored as the
        loop stores its own."""
        for column, kind, value in zip(out, kinds, row, strict=True):
            column.append(_raw_value(kind, value))

    namespace.update(_keep=keep, _DMIN=_DAY_MIN, _DMAX=_DAY_MAX, _SHIFT=_SHIFT,
                     _days=namespace["_date_from_days"])
    loop = build_tuple_loop(
        lines=lines, lead=lead, row_end=final if variable else None, fixed_size=fixed_total,
        bound=max(_rc.max_tuple_size(cols), fixed_total)
        if all(fixed_width(c) is not None or c.base in _rc._VARCHARS for c in cols) else None,
        values="", encoding=encoding, decimals=decimals, namespace=namespace,
        decode_row=decode_row, ncols=n,
        columns=(lambda body: [_MUL_LINE.sub(r"\1\2", line) for line in body],
                 [f"l{k} = rows[{k}]" for k in range(n)],
                 "; ".join(f"l{k}.append(c{k})" for k in range(n)),
                 "_keep({row}, rows)"))

    def walk(buf: Any, pos: int, end: int, out: list[list[Any]]) -> tuple[int, int, Any]:
        before = len(out[0])
        nxt, err = loop(buf, pos, end, out)
        return nxt, len(out[0]) - before, err

    walk.raw = raw  # type: ignore[attr-defined]
    walk.texts = texts  # type: ignore[attr-defined]
    walk.decode_row = decode_row  # type: ignore[attr-defined]
    walk.keep = keep  # type: ignore[attr-defined]
    return walk


class ColumnRun:
    """A pure-path reply's rows as one list of values per column, and how many rows."""

    __slots__ = ("columns", "ntuples")

    def __init__(self, columns: list[list[Any]], ntuples: int) -> None:
        self.columns = columns
        self.ntuples = ntuples


class ColumnRuns:
    """Stands in for a row decoder in the pure path: decodes each reply's tuples into
    columns (:func:`column_walker`) as they arrive."""

    __slots__ = ("ncols", "walk")

    def __init__(self, walk: Walker, ncols: int) -> None:
        self.walk = walk
        self.ncols = ncols

    def __call__(self, buf: Any, offset: int, size: int) -> ColumnRun:
        """One tuple (the reply loop's fallback): a one-row run, or decode_row's error."""
        columns: list[list[Any]] = [[] for _ in range(self.ncols)]
        walk: Any = self.walk
        walk.keep(walk.decode_row(buf, offset, size), columns)
        return ColumnRun(columns, 1)

    def decode_tuples(self, buf: Any, pos: int, end: int, rows: list[Any]) -> tuple[int, Any]:
        columns: list[list[Any]] = [[] for _ in range(self.ncols)]
        nxt, count, err = self.walk(buf, pos, end, columns)
        if count:
            rows.append(ColumnRun(columns, count))
        return nxt, err


def column_batch(pa: Any, schema: Any, converters: Sequence[Any],
                 runs: Sequence[ColumnRun], raw: dict[int, tuple[str, int]],
                 texts: dict[int, tuple[bytes, Callable[[bytes], Any]]] | None = None) -> Any:
    """One record batch from the pure path's column runs: one ``pyarrow.array`` a column
    (``raw``: the columns the walker left as Arrow's integers, see column_walker, or as the
    text of a text-form collection, read by arrowtext.py with ``texts``' opener and
    decoder)."""
    columns = runs[0].columns
    if len(runs) > 1:
        columns = [[v for r in runs for v in r.columns[k]] for k in range(len(columns))]
    arrays = []
    for k, (values, field, conv) in enumerate(zip(columns, schema, converters, strict=True)):
        kind = raw.get(k)
        if kind is None:
            arrays.append(_array(pa, values, field, conv))
        elif kind[0] == RAW_TEXT:
            import pyarrow.compute as pc

            from .arrowtext import text_list_array

            assert texts is not None
            opener, decode = texts[k]
            arrays.append(text_list_array(pa, pc, values, field, conv, opener, decode))
        elif kind[0] == RAW_DATE:
            arrays.append(pa.array(values, type=pa.int32()).view(pa.date32()).cast(field.type))
        else:
            # The unscaled integers as decimal128(19, 0) (an exact cast: DECIMAL(p <= 18)
            # fits int64), whose 16-byte values are the same bits as decimal128(p, s)'s.
            ints = pa.array(values, type=pa.int64()).cast(pa.decimal128(19, 0))
            arrays.append(pa.Array.from_buffers(field.type, len(ints), ints.buffers(),
                                                null_count=ints.null_count))
    return pa.RecordBatch.from_arrays(arrays, schema=schema)


def _array(pa: Any, values: list[Any], field: Any, conv: Any) -> Any:
    if conv is not None:
        values = [None if v is None else conv(v) for v in values]
    return pa.array(values, type=field.type)


def run_batch(pa: Any, schema: Any, plan: Sequence[Spec], converters: Sequence[Any],
              runs: Sequence[TupleRun], c_plan: tuple[tuple[Any, ...], ...],
              enc: int, keep: bool, fallback: Callable[[bytes, int], Any]) -> Any:
    """One record batch from tuple runs, by the C decoder."""
    count = sum(r.ntuples for r in runs)
    # Several runs (a reply received in several recvs) are decoded in place, not joined (a
    # LIST of 10 INTEGERs is ~1 KB a row: the join was a copy of every byte), unless a column
    # is left to Python, whose (offset, size) pairs point into one buffer.
    joined = len(runs) == 1 or any(kind == A_RAW for kind, *_ in plan)
    data: Any = (runs[0] if len(runs) == 1 else b"".join(runs)) if joined else list(runs)
    assert _arrowdec is not None
    decoded = _arrowdec.decode(data, count, c_plan, enc, keep)
    if decoded is None:
        return fallback(data if joined else b"".join(runs), count)
    return decoded_batch(pa, schema, plan, converters, decoded, count, data)


def decoded_batch(pa: Any, schema: Any, plan: Sequence[Spec], converters: Sequence[Any],
                  decoded: list[tuple[int, Any, Any, Any]], count: int,
                  data: Any = None) -> Any:
    """The record batch of the C decoder's buffers (``decode``, ``Columns.columns``: bytes;
    ``Columns.take``: Blocks, wrapped where they are) for ``count`` rows; ``data`` is the run
    A_RAW columns' (offset, size) pairs point into."""
    arrays = []
    for (kind, _, _, decoder, _), field, conv, (nulls, validity, buf, offsets) in zip(
            plan, schema, converters, decoded, strict=True):
        if kind == A_RAW:
            pairs = memoryview(buf).cast("q")
            values = [decoder(data, pairs[k], pairs[k + 1])[0]
                      for k in range(0, 2 * count, 2)]
            arrays.append(_array(pa, values, field, conv))
            continue
        if kind in (A_LIST, A_TLIST):
            elems = pa.Array.from_buffers(field.type.value_type, len(buf) // width_of(field),
                                          [None, pa.py_buffer(buf)], null_count=0)
            arrays.append(pa.Array.from_buffers(field.type, count,
                                                [_buf(pa, validity), pa.py_buffer(offsets)],
                                                null_count=nulls, children=[elems]))
            continue
        if kind == A_DECF:
            arrays.append(pa.Array.from_buffers(pa.float64(), count,
                                                [_buf(pa, validity), pa.py_buffer(buf)],
                                                null_count=nulls))
            continue
        bufs = [_buf(pa, validity)]
        if offsets is not None:
            bufs.append(pa.py_buffer(offsets))
        bufs.append(pa.py_buffer(buf))
        arrays.append(pa.Array.from_buffers(field.type, count, bufs, null_count=nulls))
    return pa.RecordBatch.from_arrays(arrays, schema=schema)


def fed_batches(pa: Any, schema: Any, plan: Sequence[Spec], converters: Sequence[Any],
                items: Sequence[Any], open_cols: Any,
                run_batch_of: Callable[[list[TupleRun]], Any], pending: Any = None) -> list[Any]:
    """The record batches of one reply's items (FedRun and TupleRun, in row order): each
    Columns once, after the last of its runs, unless it is ``open_cols`` (still being fed:
    its rows come in a later call, or from the final flush); each stretch of TupleRuns
    through ``run_batch_of``. ``pending`` is the Columns left open by the previous call: if
    it was closed before this reply fed it again (a refused run, a single-tuple fallback),
    its rows come first."""
    out: list[Any] = []
    if pending is not None and pending is not open_cols and not (
            items and type(items[0]) is FedRun and items[0].cols is pending):
        out.append(columns_batch(pa, schema, plan, converters, pending))
    runs: list[TupleRun] = []
    n = len(items)
    for i, item in enumerate(items):
        if type(item) is not FedRun:
            runs.append(item)
            continue
        if runs:
            out.append(run_batch_of(runs))
            runs = []
        cols = item.cols
        nxt = items[i + 1] if i + 1 < n else None
        if cols is not open_cols and not (type(nxt) is FedRun and nxt.cols is cols):
            out.append(columns_batch(pa, schema, plan, converters, cols))
    if runs:
        out.append(run_batch_of(runs))
    return out


def columns_batch(pa: Any, schema: Any, plan: Sequence[Spec], converters: Sequence[Any],
                  cols: Any) -> Any:
    """The record batch of every row fed into ``cols`` (an ``_arrowdec.Columns``), made of
    the Columns' own buffers (``take``: no copy; the Columns is spent, as each is batched
    once). A stand-in without ``take`` (a test's) gives copies (``columns``)."""
    rows = cols.rows
    take = getattr(cols, "take", None)
    return decoded_batch(pa, schema, plan, converters,
                         take() if take is not None else cols.columns(), rows)


def width_of(field: Any) -> int:
    """Bytes per element of a list field's integer items."""
    return int(field.type.value_type.bit_width) // 8


def _buf(pa: Any, validity: Any) -> Any:
    return None if validity is None else pa.py_buffer(validity)


def run_rows(data: bytes, count: int, row_decoder: Any) -> list[Any]:
    """The rows of a run the C decoder refused, by the row decoder (or its exact error)."""
    rows = []
    pos = 0
    for _ in range(count):
        size = int.from_bytes(data[pos + 4 : pos + 8], "big")
        rows.append(row_decoder(data, pos + 8, size))
        pos += 8 + size + (size & 1)
    return rows


def enc_kind(encoding: str) -> int:
    """The code set as _arrowdec.c knows it (0: other, decoded by Python per value)."""
    return _enc_kind(encoding)
