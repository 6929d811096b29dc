"""Row codec: one SQ_TUPLE payload to a tuple of Python values, and back.

This is the driver's hot path, so :func:`build_row_decoder` generates one straight-line function
per result shape (callers cache it by shape). Runs of adjacent fixed-width numeric columns are
read with a single precompiled ``struct.Struct.unpack_from`` call straight from the reply buffer;
no slice is taken for them. Everything else calls the scalar codecs with constants baked in.

Framing rules (jdbc-protocol.md 4.3): if no column is variable-length the columns sit at fixed
offsets; otherwise they are read in sequence, each variable column telling its own length. Every
decode ends with a check that exactly ``size`` bytes were used, and a failure names every column,
so a framing mistake surfaces at the first row instead of as garbage further on.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Sequence
from datetime import date
from functools import lru_cache
from typing import Any

from .. import _accel
from ..protocol.codes import (
    NAMED_IN_BIND,
    TYPE_DISTINCT,
    TYPE_NOTNULL,
    XID_BOOLEAN,
    XID_LVARCHAR,
    TypeCode,
)
from ..protocol.columns import ColumnDesc
from . import blobs as _blobs
from . import numeric as _num
from . import temporal as _tmp
from . import text as _txt
from .complextype import COMPLEX_CODES, ComplexType
from .composite import (
    ComplexDecoder,
    encode_complex,
    fast_collection_decoder,
    fixed_collection_spec,
)
from .compositetext import TextFormColumn, envelope_text_decoder
from .errors import CodecDataError, CodecError, CodecNotSupported
from .numeric import Buffer
from .tuploop import build_tuple_loop

__all__ = [
    "RowDecoder",
    "RowEncoder",
    "build_row_decoder",
    "build_row_encoder",
    "check_description",
    "describe_column",
    "fixed_width",
    "is_variable",
    "max_tuple_size",
    "row_width",
]

RowDecoder = Callable[[Buffer, int, int], tuple[Any, ...]]
RowEncoder = Callable[[Sequence[object]], bytes]

_T = TypeCode
#: Types with a u8 indicator + u32 length + data envelope in tuples (jdbc 4.3).
_ENVELOPE_TYPES: frozenset[int] = frozenset({_T.UDTVAR, _T.UDTFIXED, _T.LVARCHAR, _T.BOOLEAN, 46})
_FIXED_WIDTHS: dict[int, int] = {
    _T.SMALLINT: 2,
    _T.INTEGER: 4,
    _T.SERIAL: 4,
    _T.FLOAT: 8,
    _T.SMALLFLOAT: 4,
    _T.DATE: 4,
    _T.INT8: 10,
    _T.SERIAL8: 10,
    _T.BIGINT: 8,
    _T.BIGSERIAL: 8,
}
#: struct format and post-processing kind of the columns a run can unpack in one call.
_STRUCT_FORMATS: dict[int, str] = {
    _T.SMALLINT: "h",
    _T.INTEGER: "i",
    _T.SERIAL: "i",
    _T.BIGINT: "q",
    _T.BIGSERIAL: "q",
    _T.FLOAT: "d",
    _T.SMALLFLOAT: "f",
    _T.DATE: "i",
    _T.INT8: "hII",
    _T.SERIAL8: "hII",
}


def _is_boolean(col: ColumnDesc) -> bool:
    base = col.base
    return base == _T.BOOLEAN or (
        base == _T.UDTFIXED and (col.xid == XID_BOOLEAN or col.type_name.lower() == "boolean")
    )


def _is_lvarchar(col: ColumnDesc) -> bool:
    base = col.base
    return base == _T.LVARCHAR or (
        base == _T.UDTVAR and (col.xid == XID_LVARCHAR or col.type_name.lower() == "lvarchar")
    )


def is_variable(col: ColumnDesc) -> bool:
    """True when the column forces the sequential tuple layout (jdbc 4.3).

    VARCHAR/NVARCHAR, any type code above 18 except BIGINT/BIGSERIAL, and DISTINCT types.
    """
    base = col.base
    return (
        base in (_T.VARCHAR, _T.NVARCHAR)
        or base in NAMED_IN_BIND
        or bool(col.type & TYPE_DISTINCT)
    )


def fixed_width(col: ColumnDesc) -> int | None:
    """On-wire width of a fixed-width column (DISTINCT ones included); None if variable."""
    base = col.base
    width = _FIXED_WIDTHS.get(base)
    if width is not None:
        return width
    if base in (_T.CHAR, _T.NCHAR):
        return col.enclen
    if base in (_T.BYTE, _T.TEXT):
        return blob_width(col)
    if base in (_T.DECIMAL, _T.MONEY):
        return _num.decimal_width(col.enclen)
    if base in (_T.DATETIME, _T.INTERVAL):
        return _tmp.qualifier_width(col.enclen)
    return None


def blob_width(col: ColumnDesc) -> int:
    """Tuple width of a BYTE/TEXT descriptor: 68 when so described, else 56."""
    if col.enclen == _blobs.LONG_BLOB_DESCRIPTOR_WIDTH:
        return _blobs.LONG_BLOB_DESCRIPTOR_WIDTH
    return _blobs.BLOB_DESCRIPTOR_WIDTH


def _varchar_max(col: ColumnDesc) -> int:
    """VARCHAR(m,r) describes as ``(r << 8) | m``; m = 0 stands for 255 in the u8 field."""
    return (col.enclen & 0xFF) or _txt.VARCHAR_MAX


def row_width(columns: Sequence[ColumnDesc]) -> int:
    """The DESCRIBE tuple size: the widest row this shape can produce."""
    return _sum_widths(columns, _varchar_max, lambda col: col.enclen)


def _sum_widths(
    columns: Sequence[ColumnDesc],
    varchar: Callable[[ColumnDesc], int],
    envelope: Callable[[ColumnDesc], int],
) -> int:
    """Tuple bytes of a shape: fixed widths, 1 + ``varchar(col)`` per VARCHAR, BOOLEAN's 6
    bytes and 5 + ``envelope(col)`` per other envelope (LVARCHAR, UDT)."""
    total = 0
    for col in columns:
        width = fixed_width(col)
        if width is not None:
            total += width
        elif col.base in (_T.VARCHAR, _T.NVARCHAR):
            total += 1 + varchar(col)
        elif _is_boolean(col):
            total += _txt.BOOLEAN_WIDTH
        else:
            total += 5 + envelope(col)
    return total


#: The widest CHAR/NCHAR Informix has (CHAR(32767)).
CHAR_MAX = 32767
#: DECIMAL/MONEY precision is 1 to 32 digits.
DECIMAL_MAX_PRECISION = 32
#: What an LVARCHAR or other UDT value may take in a tuple when its description says less:
#: Informix caps LVARCHAR at 32739 bytes and variable-length opaque types at 32 KiB, and some
#: UDTs are described with a length that is not their maximum (smart-LOB locators).
ENVELOPE_ALLOWANCE = 32767
#: An LVARCHAR/UDT described as longer than this cannot be a real in-row value: the
#: description is refused rather than trusted as a bound on what to wait for.
ENVELOPE_MAX = 1024 * 1024
#: What one ROW/collection value may take in a tuple: its type table and data. Informix
#: collections can outgrow 32 KiB (the "large collection" flag, PROTOCOL.md §13); 4 MiB is the
#: bound the driver waits for, as large as the largest fetch reply our server sends.
COMPLEX_ALLOWANCE = 4 * 1024 * 1024


def check_description(columns: Sequence[ColumnDesc]) -> None:
    """Refuse a description no real server sends (raises CodecError naming the column).

    Run before a decoder is built, by the pure and the accelerated path alike, so both refuse
    the same shapes the same way; it also keeps the bound :func:`max_tuple_size` derives from
    the description small enough to be a bound.
    """
    for i, col in enumerate(columns, 1):
        base = col.base
        problem = ""
        if col.start < 0:
            problem = f"start position {col.start} is negative"
        elif base in (_T.CHAR, _T.NCHAR) and not 1 <= col.enclen <= CHAR_MAX:
            problem = f"length {col.enclen} is outside 1..{CHAR_MAX}"
        elif base in (_T.DECIMAL, _T.MONEY) and not (
            1 <= col.enclen >> 8 <= DECIMAL_MAX_PRECISION
        ):
            problem = f"precision {col.enclen >> 8} is outside 1..{DECIMAL_MAX_PRECISION}"
        elif base in _ENVELOPE_TYPES and not 0 <= col.enclen <= ENVELOPE_MAX:
            problem = f"length {col.enclen} is outside 0..{ENVELOPE_MAX}"
        if problem:
            raise CodecError(
                f"the server described column {i} ({_column_label(col)}) impossibly: {problem}"
            )


def max_tuple_size(columns: Sequence[ColumnDesc]) -> int:
    """The largest SQ_TUPLE payload a row of this (checked) shape can have on the wire.

    The driver never waits for, nor allocates room for, a tuple claiming more. Fixed-width
    columns count their width, VARCHAR its u8 length limit (1 + 255, whatever the declared
    maximum: a longer cell cannot be framed at all), BOOLEAN its 6 bytes and any other UDT
    its envelope and the larger of its described length and ENVELOPE_ALLOWANCE.
    """
    return _sum_widths(
        columns,
        lambda col: _txt.VARCHAR_MAX,
        lambda col: COMPLEX_ALLOWANCE if col.base in COMPLEX_CODES else max(
            col.enclen, ENVELOPE_ALLOWANCE),
    )


def describe_column(
    name: str,
    type_code: int,
    enclen: int,
    nullable: bool = True,
    *,
    start: int = 0,
    distinct: bool = False,
    xid: int = 0,
    owner: str = "",
    type_name: str = "",
    source_type: int = 0,
) -> ColumnDesc:
    """A ColumnDesc the way a real server describes the column (peer 3.1).

    BOOLEAN becomes UDTFIXED (41) with xid 5 / 'boolean' and enclen 1; LVARCHAR becomes UDTVAR
    (40) with xid 1 / 'lvarchar'; fixed-width types get their on-wire width as enclen, because
    the variable-layout reader takes widths from it (jdbc 4.1).
    """
    base = type_code & 0xFF
    if base == _T.BOOLEAN or (
        base == _T.UDTFIXED and (xid == XID_BOOLEAN or type_name == "boolean")
    ):
        base, xid, type_name, enclen = _T.UDTFIXED, XID_BOOLEAN, "boolean", 1
    elif base == _T.LVARCHAR or (
        base == _T.UDTVAR and (xid == XID_LVARCHAR or type_name == "lvarchar")
    ):
        base, xid, type_name = _T.UDTVAR, XID_LVARCHAR, "lvarchar"
    elif base in _FIXED_WIDTHS:
        enclen = _FIXED_WIDTHS[base]
    flags = (0 if nullable else TYPE_NOTNULL) | (TYPE_DISTINCT if distinct else 0)
    return ColumnDesc(
        name=name,
        type=base | flags,
        enclen=enclen,
        xid=xid,
        owner=owner,
        type_name=type_name,
        start=start,
        source_type=source_type,
    )


def _column_label(col: ColumnDesc) -> str:
    extra = f"/xid={col.xid}" if col.xid else ""
    extra += f"/{col.type_name}" if col.type_name else ""
    return f"{col.name}:type=0x{col.type:04x}{extra}/enclen=0x{col.enclen:x}"


def _framing_error(
    columns: Sequence[ColumnDesc], offset: int, size: int, detail: str
) -> CodecError:
    names = ", ".join(_column_label(c) for c in columns)
    return CodecError(
        f"tuple of {size} bytes at offset {offset} does not match its description ({detail}); "
        f"columns: {names}"
    )


def _row_error(columns: Sequence[ColumnDesc], offset: int, size: int, exc: Exception) -> CodecError:
    """Wrap a failure inside a row: values that do not fit keep their class (CodecDataError),
    anything else means the bytes do not match the description."""
    if isinstance(exc, CodecDataError):
        return CodecDataError(f"{exc} (tuple at offset {offset}, {size} bytes)")
    return _framing_error(columns, offset, size, f"{type(exc).__name__}: {exc}")


# ---------------------------------------------------------------------------------------------
# Decoder generation
# ---------------------------------------------------------------------------------------------


class _Gen:
    """Accumulates the generated source and the constants it refers to.

    Only integers computed here (offsets, widths, scales, qualifiers) are written into the
    source; everything that comes from the peer as text (names, the encoding) is passed in the
    namespace, so a hostile DESCRIBE cannot inject code.
    """

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.env: dict[str, object] = {}
        #: Fixed-scale DECIMAL decoders by name: (width, scale), for the batch loop's inline form.
        self.decimals: dict[str, tuple[int, int]] = {}

    def const(self, prefix: str, value: object) -> str:
        name = f"_{prefix}{len(self.env)}"
        self.env[name] = value
        return name

    def emit(self, line: str) -> None:
        self.lines.append("        " + line)


def _at(base_var: str, delta: int) -> str:
    return f"{base_var} + {delta}" if delta else base_var


#: The most negative int CPython 3.11 compares by its specialised path (one 30-bit digit).
_SMALL = -(2**30 - 1)


def _struct_post(g: _Gen, base: int, var: str, pos: str) -> None:
    """NULL-sentinel handling and conversion after a run unpack, for one column."""
    # The NULL sentinels of INTEGER and BIGINT do not fit one 30-bit digit, so comparing with
    # them is CPython 3.11's generic comparison; the test against -(2**30 - 1) first is the
    # specialised one for any value that fits (callgrind: 60 instructions less a column).
    if base == _T.SMALLINT:
        g.emit(f"if {var} == -32768: {var} = None")
    elif base in (_T.INTEGER, _T.SERIAL):
        g.emit(f"if {var} < {_SMALL} and {var} == -2147483648: {var} = None")
    elif base in (_T.BIGINT, _T.BIGSERIAL):
        g.emit(f"if {var} < {_SMALL} and {var} == -9223372036854775808: {var} = None")
    elif base == _T.FLOAT:
        g.emit(f"if {var} != {var} and bytes(buf[{pos}:{pos} + 8]) == _FF8: {var} = None")
    elif base == _T.SMALLFLOAT:
        g.emit(f"if {var} != {var} and bytes(buf[{pos}:{pos} + 4]) == _FF4: {var} = None")
    elif base == _T.DATE:
        g.emit(
            f"{var} = None if {var} < {_SMALL} and {var} == -2147483648 "
            f"else _date_from_days({var})"
        )
    elif base in (_T.INT8, _T.SERIAL8):
        g.emit(
            f"{var} = None if {var}s == 0 else ({var}h << 32 | {var}l) if {var}s > 0 "
            f"else -({var}h << 32 | {var}l)"
        )


def _fixed_expr(g: _Gen, col: ColumnDesc, pos: str, enc: str, keep: bool) -> str:
    """Expression decoding one non-struct fixed-width column at ``pos``."""
    base = col.base
    if base in (_T.CHAR, _T.NCHAR):
        w = col.enclen
        strip = "" if keep else ".rstrip(' ')"
        return f"(None if buf[{pos}] == 0 else _str(buf[{pos}:{pos} + {w}], {enc}){strip})"
    if base in (_T.DECIMAL, _T.MONEY):
        w = _num.decimal_width(col.enclen)
        scale = col.enclen & 0xFF
        fn = g.const("dec", _num.decimal_decoder(w, scale))
        if scale != _num.DECIMAL_FLOATING_SCALE:
            g.decimals[fn] = (w, scale)
        return f"{fn}(buf, {pos})"
    if base == _T.DATETIME:
        fn = g.const("dt", _tmp.datetime_decoder(col.enclen))
        return f"{fn}(buf, {pos})"
    if base == _T.INTERVAL:
        fn = g.const("iv", _tmp.interval_decoder(col.enclen))
        return f"{fn}(buf, {pos})"
    if base in (_T.BYTE, _T.TEXT):
        w = blob_width(col)
        return f"(None if buf[{pos} + 39] & 1 else bytes(buf[{pos}:{pos} + {w}]))"
    raise CodecNotSupported(f"no tuple decoder for {_column_label(col)}")


def _variable_stmt(g: _Gen, col: ColumnDesc, var: str, enc: str, enc_name: str) -> None:
    """Statements decoding one variable column at ``o`` and advancing ``o``."""
    base = col.base
    if base in (_T.VARCHAR, _T.NVARCHAR):
        g.emit("n = buf[o]")
        g.emit("o += 1 + n")
        g.emit(f"{var} = None if n == 1 and buf[o - 1] == 0 else _str(buf[o - n:o], {enc})")
    elif _is_lvarchar(col):
        g.emit(f"{var}, o = _decode_lvarchar(buf, o, {enc})")
    elif _is_boolean(col):
        g.emit(f"{var}, o = _decode_boolean(buf, o)")
    elif base in _ENVELOPE_TYPES:
        g.emit(f"{var}, o = _decode_udt(buf, o)")
    elif base in COMPLEX_CODES and isinstance(col, TextFormColumn):
        # text form (no SQ_RET_TYPE, cursor.collections = "text"): the UDT envelope
        fn = g.const("cxt", envelope_text_decoder(col, enc_name))
        g.emit(f"{var}, o = {fn}(buf, o)")
    elif base in COMPLEX_CODES:
        # SENDRECV form: i32 length + value (IfxRowColumn.loadColumnData: 4 + i32 at offset)
        g.emit("n, = _I32.unpack_from(buf, o)")
        decoder: Callable[[Buffer, int, int], Any] = ComplexDecoder(enc_name)
        spec = fixed_collection_spec(col, enc_name)
        if spec is not None:
            fn = g.const("cxf", fast_collection_decoder(spec, decoder))
            g.emit(f"{var} = {fn}(buf, o, n)")
        else:
            fn = g.const("cx", decoder)
            g.emit(f"{var} = {fn}(buf, o, o + 4 + n)")
        g.emit("o += 4 + n")
    else:
        raise CodecNotSupported(f"no tuple decoder for {_column_label(col)}")


def _decode_udt(buf: Buffer, offset: int) -> tuple[bytes | None, int]:
    """Other UDTs (BLOB/CLOB locators, JSON, opaque types): the raw data bytes."""
    (n,) = _num.U32.unpack_from(buf, offset + 1)
    end = offset + 5 + n
    if end > len(buf):
        raise CodecError(f"UDT of {n} bytes at offset {offset} runs past the buffer")
    return (None if buf[offset] else bytes(buf[offset + 5 : end])), end


def _new_gen(cols: Sequence[ColumnDesc], encoding: str) -> _Gen:
    """A generator with the namespace every row decoder's statements refer to."""
    g = _Gen()
    g.const("enc", encoding)  # _enc0
    g.env.update(
        _str=str,
        _FF8=b"\xff" * 8,
        _FF4=b"\xff" * 4,
        _date_from_days=_date_from_days_fast,
        _decode_decimal=_num.decode_decimal,
        _decode_lvarchar=_txt.decode_lvarchar,
        _decode_boolean=_txt.decode_boolean,
        _decode_udt=_decode_udt,
        _I32=_num.I32,
        _framing_error=_framing_error,
        _row_error=_row_error,
        _CAUGHT=(ValueError, IndexError, KeyError, TypeError, OverflowError, struct.error),
        _columns=tuple(cols),
    )
    return g


_VARCHARS = (_T.VARCHAR, _T.NVARCHAR)


def _emit_columns(
    g: _Gen,
    cols: Sequence[ColumnDesc],
    encoding: str,
    keep_char_padding: bool,
    explicit: bool,
    batch: bool,
) -> tuple[int, str, tuple[str, list[str], int]]:
    """Emit the statements decoding ``cols`` into c0, c1...: (the fixed layout's width, the
    final position expression, the lead).

    For decode_row (``batch`` False) every column is read where it is. For the tuple loop
    (``batch`` True, types/tuploop.py), a leading struct run is not read here but returned as
    the lead, which the loop reads with the SQ_TUPLE header; and the length byte of a VARCHAR
    that follows a struct run (or the header) is read by that same unpack, into ``n``.
    """
    enc = "_enc0"
    variable = any(is_variable(c) for c in cols)
    # A position is (base variable, constant delta): "off" + start in the fixed layout (the
    # tuple loop has no ``off``: its payload starts at "p" + 8, after the header at p), "o" +
    # delta once a variable column has been read in the sequential layout. JDBC reads fixed
    # layouts at the described start positions; when a description carries none (all zero),
    # the columns are packed, which is what every observed server sends.
    start_var, start = ("p", 8) if batch else ("off", 0)
    base_var, delta = start_var, start
    lead: tuple[str, list[str], int] = ("", [], 0)
    have_len = False  # the next VARCHAR's length byte is in ``n`` already (batch only)
    if batch and variable and cols and cols[0].base in _VARCHARS:
        lead, have_len = ("B", ["n"], 1), True
    fixed_total = 0
    i = 0
    while i < len(cols):
        col = cols[i]
        if explicit:
            base_var, delta = start_var, start + col.start
        if col.base in _STRUCT_FORMATS:
            # One unpack_from for the whole run of struct-readable, contiguous columns.
            run = [i]
            pos_end = delta + _FIXED_WIDTHS[col.base]
            j = i + 1
            while j < len(cols) and cols[j].base in _STRUCT_FORMATS:
                if explicit and start + cols[j].start != pos_end:
                    break
                run.append(j)
                pos_end += _FIXED_WIDTHS[cols[j].base]
                j += 1
            fmt = "".join(_STRUCT_FORMATS[cols[k].base] for k in run)
            targets = []
            for k in run:
                if cols[k].base in (_T.INT8, _T.SERIAL8):
                    targets += [f"c{k}s", f"c{k}l", f"c{k}h"]
                else:
                    targets.append(f"c{k}")
            if batch and variable and j < len(cols) and cols[j].base in _VARCHARS:
                fmt, targets, have_len = fmt + "B", [*targets, "n"], True
            if batch and not g.lines and (base_var, delta) == (start_var, start):
                lead = (fmt, targets, pos_end - delta + (1 if have_len else 0))
            else:
                st = g.const("S", struct.Struct(">" + fmt))
                g.emit(f"{', '.join(targets)}, = {st}.unpack_from(buf, {_at(base_var, delta)})")
            for k in run:
                _struct_post(g, cols[k].base, f"c{k}", _at(base_var, delta))
                delta += _FIXED_WIDTHS[cols[k].base]
            i = j
        else:
            width = fixed_width(col)
            if width is not None:
                pos = _at(base_var, delta)
                g.emit(f"c{i} = {_fixed_expr(g, col, pos, enc, keep_char_padding)}")
                delta += width
            elif batch and col.base in _VARCHARS:
                if not have_len:
                    g.emit(f"n = buf[{_at(base_var, delta)}]")
                # The value's start kept in _v: one subtraction less per value than slicing
                # [o - n:o] (callgrind: -4 % on the bench's 5-column row).
                g.emit(f"_v = {_at(base_var, delta + 1)}")
                g.emit("o = _v + n")
                g.emit(f"c{i} = None if n == 1 and buf[_v] == 0 else _str(buf[_v:o], {enc})")
                base_var, delta, have_len = "o", 0, False
            else:
                if base_var != "o" or delta:
                    g.emit(f"o = {_at(base_var, delta)}")
                base_var, delta = "o", 0
                _variable_stmt(g, col, f"c{i}", enc, encoding)
            i += 1
        fixed_total = max(fixed_total, delta)
    return fixed_total, _at(base_var, delta), lead


def build_row_decoder(
    columns: Sequence[ColumnDesc], encoding: str, *, keep_char_padding: bool = False
) -> RowDecoder:
    """Compile a decoder ``(buffer, offset, size) -> tuple`` for rows of this shape.

    ``buffer`` may be bytes, bytearray or memoryview and may hold many tuples; ``offset`` and
    ``size`` delimit one SQ_TUPLE payload. CHAR/NCHAR lose their trailing blanks unless
    ``keep_char_padding``. Raises CodecNotSupported at build time for types it cannot frame
    (collections, ROW), so an unsupported result fails before any row is read. Compiling costs
    a few hundred microseconds, so the last 256 shapes are kept here as well.
    """
    return _build_row_decoder(tuple(columns), encoding, keep_char_padding)


@lru_cache(maxsize=256)
def _build_row_decoder(
    columns: tuple[ColumnDesc, ...], encoding: str, keep_char_padding: bool
) -> RowDecoder:
    cols = list(columns)
    for col in cols:
        base = col.base
        if fixed_width(col) is None and base not in (
            _T.VARCHAR, _T.NVARCHAR, *_ENVELOPE_TYPES, *COMPLEX_CODES
        ):
            raise CodecNotSupported(f"no tuple decoder for {_column_label(col)}")
    check_description(cols)
    variable = any(is_variable(c) for c in cols)
    g = _new_gen(cols, encoding)
    explicit = not variable and any(c.start for c in cols)
    fixed_total, final, _ = _emit_columns(g, cols, encoding, keep_char_padding, explicit, False)
    end_check = f"if size != {fixed_total}" if not variable else f"if {final} != off + size"
    values = ", ".join(f"c{k}" for k in range(len(cols)))
    src = [
        "def decode_row(buf, off, size):",
        "    if off + size > len(buf):",
        "        raise _framing_error(_columns, off, size, f'buffer holds only {len(buf) - off}')",
    ]
    if not variable:
        src += [
            f"    {end_check}:",
            f"        raise _framing_error(_columns, off, size, 'expected {fixed_total} bytes')",
        ]
    src += ["    try:", *(g.lines or ["        pass"])]
    src += [
        "    except _CAUGHT as exc:",
        "        raise _row_error(_columns, off, size, exc) from exc",
    ]
    if variable:
        src += [
            f"    {end_check}:",
            f"        raise _framing_error(_columns, off, size, f'consumed {{{final} - off}}')",
        ]
    src.append(f"    return ({values}{',' if len(cols) == 1 else ''})")
    code = "\n".join(src)
    namespace: dict[str, Any] = dict(g.env)
    exec(compile(code, f"<ifxwire row decoder {len(cols)} cols>", "exec"), namespace)
    fn: RowDecoder = namespace["decode_row"]
    fn.__doc__ = code  # the generated source, for debugging
    # The pure-Python loop over a run of SQ_TUPLE messages, for Reply._tuples (the
    # accelerator's decode_tuples has the same contract): decode_row's statements generated
    # again in batch mode (types/tuploop.py says how they differ), inline in one loop.
    gb = _new_gen(cols, encoding)
    _, final_b, lead = _emit_columns(gb, cols, encoding, keep_char_padding, explicit, True)
    fn.decode_tuples = build_tuple_loop(  # type: ignore[attr-defined]
        lines=gb.lines,
        lead=lead,
        row_end=final_b if variable else None,
        fixed_size=fixed_total,
        # Statements that move by fixed widths and VARCHAR length bytes only read so far
        # (a fixed layout as far as its last described column ends).
        bound=max(max_tuple_size(cols), fixed_total)
        if all(fixed_width(c) is not None or c.base in _VARCHARS for c in cols)
        else None,
        values=values + ("," if len(cols) == 1 else ""),
        encoding=encoding,
        decimals=gb.decimals,
        namespace=gb.env,
        decode_row=fn,
        ncols=len(cols),
    )
    # The C decoder mirroring fn when the accelerator is active (docs/ACCELERATOR.md).
    return _accel.accelerate(fn, cols, encoding, keep_char_padding)


_EPOCH_ORD = _tmp.DATE_EPOCH.toordinal()


def _date_from_days_fast(days: int) -> date:
    try:
        return date.fromordinal(days + _EPOCH_ORD)
    except (ValueError, OverflowError):
        return _tmp.date_from_days(days)  # raises CodecDataError with the range in the message


# ---------------------------------------------------------------------------------------------
# Encoder (server side)
# ---------------------------------------------------------------------------------------------


def _fast_int(
    pack: Callable[[int], bytes], limit: int, null: bytes, slow: Callable[[object], bytes]
) -> Callable[[object], bytes]:
    """The common case inline (a plain int in range, or None); anything else takes the full
    encoder with its checks and messages.  The server encodes every cell of every row."""

    def encode(v: object) -> bytes:
        if v is None:
            return null
        if type(v) is int and -limit <= v <= limit:
            return pack(v)
        return slow(v)

    return encode


def _fast_float(v: object) -> bytes:
    if type(v) is float and -_INF < v < _INF:
        return _num.F64.pack(v)
    return _num.encode_float(v)


_INF = float("inf")


def _column_encoder(col: ColumnDesc, encoding: str) -> Callable[[object], bytes]:
    base = col.base
    enclen = col.enclen
    if base == _T.SMALLINT:
        return _fast_int(_num.I16.pack, 0x7FFF, _num.encode_smallint(None), _num.encode_smallint)
    if base in (_T.INTEGER, _T.SERIAL):
        return _fast_int(_num.I32.pack, 0x7FFFFFFF, _num.encode_integer(None), _num.encode_integer)
    if base in (_T.BIGINT, _T.BIGSERIAL):
        return _fast_int(
            _num.I64.pack, 0x7FFFFFFFFFFFFFFF, _num.encode_bigint(None), _num.encode_bigint
        )
    if base in (_T.INT8, _T.SERIAL8):
        return _num.encode_int8
    if base == _T.FLOAT:
        return _fast_float
    if base == _T.SMALLFLOAT:
        return _num.encode_smallfloat
    if base == _T.DATE:
        return _tmp.encode_date
    if base in (_T.DECIMAL, _T.MONEY):
        return _num.decimal_encoder(enclen)
    if base == _T.DATETIME:
        return lambda v: _tmp.encode_datetime(v, enclen)
    if base == _T.INTERVAL:
        return lambda v: _tmp.encode_interval(v, enclen)
    if base in (_T.CHAR, _T.NCHAR):
        return lambda v: _txt.encode_char(v, enclen, encoding)
    if base in (_T.VARCHAR, _T.NVARCHAR):
        return _txt.varchar_encoder(_varchar_max(col), encoding)
    if _is_boolean(col):
        return _txt.encode_boolean
    if _is_lvarchar(col):
        return lambda v: _txt.encode_lvarchar(v, encoding, enclen or None)
    if base in (_T.BYTE, _T.TEXT):
        return _blob_descriptor_encoder(blob_width(col))
    if base in _ENVELOPE_TYPES:
        return _encode_udt
    raise CodecNotSupported(f"no tuple encoder for {_column_label(col)}")


def _blob_descriptor_encoder(width: int) -> Callable[[object], bytes]:
    """BYTE/TEXT: the caller supplies the descriptor (the server's blob store makes it, since
    only it knows where the data is kept); None becomes the NULL descriptor."""
    null = _blobs.null_descriptor(width)

    def encode(value: object) -> bytes:
        if value is None:
            return null
        if not isinstance(value, (bytes, bytearray)) or len(value) != width:
            raise CodecError(f"a BYTE/TEXT tuple field needs its {width}-byte descriptor")
        return bytes(value)

    return encode


def _encode_udt(value: object) -> bytes:
    if value is None:
        return _txt.LVARCHAR_NULL
    if not isinstance(value, (bytes, bytearray)):
        raise CodecError(f"a UDT tuple field needs bytes, got {type(value).__name__}")
    return b"\x00" + _num.U32.pack(len(value)) + bytes(value)


def _complex_encoder(
    col: ColumnDesc,
    encoding: str,
    complex_text: Callable[[ColumnDesc], Callable[[object], str]] | None,
) -> Callable[[object], bytes]:
    node = col.detail
    if not isinstance(node, ComplexType):
        raise CodecNotSupported(f"no tuple encoder for {_column_label(col)}")
    if complex_text is not None:
        fmt = complex_text(col)

        def text(value: object) -> bytes:
            if value is None:
                return _txt.LVARCHAR_NULL
            raw = fmt(value).encode(encoding)
            return b"\x00" + _num.U32.pack(len(raw)) + raw

        return text
    return lambda value: encode_complex(node, value, encoding)


def column_encoders(
    columns: Sequence[ColumnDesc],
    encoding: str,
    complex_text: Callable[[ColumnDesc], Callable[[object], str]] | None = None,
) -> tuple[Callable[[object], bytes], ...]:
    """One ``value -> field bytes`` encoder per column: what :func:`build_row_encoder` joins,
    and what the compiled tuple writer (server/tuples.py) calls for values it does not encode
    itself."""
    return tuple(
        _complex_encoder(c, encoding, complex_text) if c.base in COMPLEX_CODES
        else _column_encoder(c, encoding)
        for c in columns
    )


def build_row_encoder(
    columns: Sequence[ColumnDesc],
    encoding: str,
    complex_text: Callable[[ColumnDesc], Callable[[object], str]] | None = None,
) -> RowEncoder:
    """Compile ``values -> tuple payload`` (no SQ_TUPLE header, no pad) for the server.

    ROW/collection columns (``col.detail`` is their ComplexType) are sent in the binary form
    with their i32 length unless ``complex_text`` gives a text formatter for the column; then
    the text goes in the UDT envelope (docs/PROTOCOL.md §13).
    """
    cols = tuple(columns)
    encoders = column_encoders(cols, encoding, complex_text)
    pairs = tuple(zip(encoders, cols, strict=True))

    def encode_row(values: Sequence[object]) -> bytes:
        if len(values) != len(encoders):
            raise CodecError(f"row has {len(values)} values for {len(encoders)} columns")
        try:
            return b"".join([enc(v) for enc, v in zip(encoders, values, strict=True)])
        except CodecError as exc:
            for (enc, col), v in zip(pairs, values, strict=True):
                try:
                    enc(v)
                except CodecError as column_exc:
                    raise type(column_exc)(f"column {col.name!r}: {column_exc}") from exc
            raise

    return encode_row
