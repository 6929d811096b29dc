"""Column-wise SQ_BIND encoding of Arrow record batches, for ``adbc_ingest``.

executemany's row encoders (client/binds.py) read one Python tuple per row: an Arrow batch sent
that way pays ``to_pylist`` (a Python object per value), the tuples, then the encoder's call
per row. Here each column is read from its Arrow buffers with numpy and written into the
batch's ``ID BIND EXECUTE EOT`` groups, all rows of a column at once: the bytes are exactly what
``id_head + bind_message(row) + EXECUTE_EOT`` gives for the row as a tuple (the tuple path is
the specification; tests/unit/test_arrowbind.py compares them byte for byte).

Per column, an *item plan*: each row's item size (an int when every row's is the same) and a
writer that puts the items at given positions of the output. The row layout is then the sum
of the sizes; where every row has the same size the writers use a strided view (one copy per
column), else numpy fancy indexing. Columns the vectorised forms do not cover (DECIMAL of
more than 18 digits, timestamps, times, durations, a text column with a NUL or non-ASCII
text for a non-UTF-8 connection, non-finite floats, ints outside ±(2**63-1)) are encoded
value by value with ``encode_bind_value`` (still no row tuple) and copied in the same way.
A batch whose values the per-value encoder refuses, or with BYTE data (which follows SQ_BIND
as SQ_BBIND), yields None: the caller sends that batch as tuples, whose path reports each
bad row's own error.

numpy is needed (pyarrow's own dependency); without it :func:`available` is False.
"""

from __future__ import annotations

import codecs
import functools
from collections.abc import Callable, Sequence
from typing import Any

from ..protocol.codes import TypeCode
from ..protocol.requests import EXECUTE_EOT, bind_head
from ..types.bind import _NULL_PARAM, TYPE_IND_PREC, encode_bind_value

__all__ = ["available", "encode_batch"]

_T = TypeCode
_INT_MAX = 0x7FFFFFFF
_INT_HEAD = TYPE_IND_PREC.pack(_T.INTEGER, 0, 0x0A00)
_BIGINT_HEAD = TYPE_IND_PREC.pack(_T.BIGINT, 0, 0x1300)
_FLOAT_HEAD = TYPE_IND_PREC.pack(_T.FLOAT, 0, 0)
_DATE_HEAD = TYPE_IND_PREC.pack(_T.DATE, 0, 0)
_CHAR_HEAD = TYPE_IND_PREC.pack(_T.CHAR, 0, 0)
#: A bool binds as CHAR 't'/'f' whatever the encoding: the tuple path's own bytes.
_TRUE = encode_bind_value(True, "ascii")
_FALSE = encode_bind_value(False, "ascii")
#: Informix day 0 is 1899-12-31, Arrow's 1970-01-01 (types/temporal.date_to_days).
_DATE_SHIFT = 25568
_DAY_MIN, _DAY_MAX = -719162, 2932896  # 0001-01-01 and 9999-12-31 as Arrow days
_CHAR_MAX = 32767  # longer strings bind as LVARCHAR (types/bind.BIND_CHAR_MAX)

#: (sizes: int or int64 array, writer(out, pos, stride)). ``pos`` are the item positions of
#: the rows, ``stride`` the row size when every row has the same (then pos is regular).
_Writer = Callable[[Any, Any, "int | None"], None]
_Items = tuple[Any, _Writer]

_np: Any = None


def available() -> bool:
    """Whether numpy can be imported (the column encoder needs it)."""
    global _np
    if _np is None:
        try:
            import numpy
        except ImportError:
            _np = False
        else:
            _np = numpy
    return _np is not False


@functools.lru_cache(maxsize=32)
def _text_form(encoding: str) -> int:
    """How Arrow's UTF-8 text relates to ``encoding``'s bytes: 0 the same (UTF-8), 1 the
    same for ASCII-only text (ASCII written as ASCII), 2 otherwise (encode per value)."""
    if codecs.lookup(encoding).name == "utf-8":
        return 0
    sample = bytes(range(1, 128))
    try:
        return 1 if sample.decode("ascii").encode(encoding) == sample else 2
    except (UnicodeError, LookupError):
        return 2


def _put(out: Any, pos: Any, stride: int | None, matrix: Any) -> None:
    """Write the rows of ``matrix`` (k x w bytes) at ``pos`` (k positions)."""
    np = _np
    k, w = matrix.shape
    if not k:
        return
    if stride is not None and k > 1:
        view = np.lib.stride_tricks.as_strided(
            out[int(pos[0]):], shape=(k, w), strides=(stride, 1), writeable=True)
        view[...] = matrix
    else:
        out[pos[:, None] + np.arange(w)] = matrix


def _fixed(head: bytes, data: Any) -> Any:
    """k items ``head + data`` (data: k big-endian values) as a k x w byte matrix."""
    np = _np
    k = len(data)
    raw = np.ascontiguousarray(data).view(np.uint8).reshape(k, -1)
    m = np.empty((k, len(head) + raw.shape[1]), np.uint8)
    m[:, :len(head)] = np.frombuffer(head, np.uint8)
    m[:, len(head):] = raw
    return m


def _const(item: bytes, k: int) -> Any:
    np = _np
    return np.broadcast_to(np.frombuffer(item, np.uint8), (k, len(item)))


def _validity(arr: Any) -> Any:
    """A bool array, True where the value is not NULL; None when there is no NULL."""
    if not arr.null_count:
        return None
    np = _np
    bits = np.frombuffer(arr.buffers()[0], np.uint8)
    return np.unpackbits(bits, bitorder="little")[arr.offset:arr.offset + len(arr)].astype(bool)


def _values(arr: Any, dtype: str) -> Any:
    np = _np
    return np.frombuffer(arr.buffers()[1], dtype)[arr.offset:arr.offset + len(arr)]


def _variants(valid: Any, parts: Sequence[tuple[Any, int, Callable[[Any], Any]]]) -> _Items:
    """Items of several forms: (mask of rows, item size, maker of the k x w matrix from the
    mask), with NULL rows as the 6-byte NULL item. The sizes are an int when one form (and no
    NULL) covers every row."""
    np = _np
    n = len(parts[0][0])
    live = [(mask, size, make) for mask, size, make in parts if mask.any()]
    if valid is None and len(live) == 1 and live[0][0].all():
        size, make = live[0][1], live[0][2]

        def write_all(out: Any, pos: Any, stride: int | None) -> None:
            _put(out, pos, stride, make(None))

        return size, write_all
    sizes = np.full(n, len(_NULL_PARAM), np.int64)
    for mask, size, _ in live:
        sizes[mask] = size

    def write(out: Any, pos: Any, stride: int | None) -> None:
        for mask, _, make in live:
            _put(out, pos[mask], None, make(mask))
        if valid is not None:
            nulls = ~valid
            _put(out, pos[nulls], None, _const(_NULL_PARAM, int(nulls.sum())))

    return sizes, write


def _sel(a: Any, mask: Any) -> Any:
    return a if mask is None else a[mask]


def _int_items(values: Any, valid: Any) -> _Items | None:
    np = _np
    values = values.astype(np.int64, copy=False)
    small = (values >= -_INT_MAX) & (values <= _INT_MAX)
    if valid is not None:
        small &= valid
        big = valid & ~small
    else:
        big = ~small
    if big.any() and (values[big] == np.iinfo(np.int64).min).any():
        return None  # -(2**63): the tuple path's error
    return _variants(valid, [
        (small, 10, lambda m: _fixed(_INT_HEAD, _sel(values, m).astype(">i4"))),
        (big, 14, lambda m: _fixed(_BIGINT_HEAD, _sel(values, m).astype(">i8"))),
    ])


def _float_items(values: Any, valid: Any) -> _Items | None:
    np = _np
    finite = np.isfinite(values)
    if not (finite.all() if valid is None else finite[valid].all()):
        return None  # NaN and infinities: the per-value encoder refuses them
    mask = np.ones(len(values), bool) if valid is None else valid
    return _variants(valid, [
        (mask, 14, lambda m: _fixed(_FLOAT_HEAD, _sel(values, m).astype(">f8"))),
    ])


def _date_items(values: Any, valid: Any) -> _Items | None:
    np = _np
    live = values if valid is None else values[valid]
    if len(live) and (live.min() < _DAY_MIN or live.max() > _DAY_MAX):
        return None
    mask = np.ones(len(values), bool) if valid is None else valid
    days = values.astype(np.int64) + _DATE_SHIFT
    return _variants(valid, [
        (mask, 10, lambda m: _fixed(_DATE_HEAD, _sel(days, m).astype(">i4"))),
    ])


def _bool_items(arr: Any, valid: Any) -> _Items:
    np = _np
    bits = np.frombuffer(arr.buffers()[1], np.uint8)
    truth = np.unpackbits(bits, bitorder="little")[arr.offset:arr.offset + len(arr)].astype(bool)
    yes = truth if valid is None else truth & valid
    no = ~truth if valid is None else ~truth & valid
    return _variants(valid, [
        (yes, len(_TRUE), lambda m: _const(_TRUE, int(m.sum()) if m is not None else len(arr))),
        (no, len(_FALSE), lambda m: _const(_FALSE, int(m.sum()) if m is not None else len(arr))),
    ])


def _spans(sizes: Any, lengths: Any, src_starts: Any, data: Any, head_of: Callable[[Any], Any],
           head_width: int, valid: Any) -> _Items:
    """Items of a head (``head_of(mask)``: k x head_width) then variable data (``lengths``
    bytes of ``data`` from ``src_starts``), padded to even (the output starts zeroed)."""
    np = _np

    def write(out: Any, pos: Any, stride: int | None) -> None:
        mask = valid
        p = pos if mask is None else pos[mask]
        _put(out, p, stride if mask is None else None, head_of(mask))
        ln = lengths if mask is None else lengths[mask]
        src = src_starts if mask is None else src_starts[mask]
        total = int(ln.sum())
        if total:
            excl = np.cumsum(ln) - ln
            step = np.arange(total, dtype=np.int64)
            dst = np.repeat(p + head_width - excl, ln) + step
            if mask is None:  # every row's data, one after the other in ``data``
                out[dst] = data[int(src[0]):int(src[0]) + total]
            else:
                out[dst] = data[np.repeat(src - excl, ln) + step]
        if mask is not None:
            nulls = ~mask
            _put(out, pos[nulls], None, _const(_NULL_PARAM, int(nulls.sum())))

    return sizes, write


def _string_items(arr: Any, valid: Any, large: bool, form: int) -> _Items | None:
    np = _np
    if form == 2:
        return None
    bufs = arr.buffers()
    offsets = np.frombuffer(bufs[1], np.int64 if large else np.int32)[
        arr.offset:arr.offset + len(arr) + 1].astype(np.int64)
    data = np.frombuffer(bufs[2], np.uint8) if bufs[2] is not None else np.zeros(0, np.uint8)
    lengths = np.diff(offsets)
    if valid is not None:
        lengths = np.where(valid, lengths, 0)
    if len(lengths) and int(lengths.max()) > _CHAR_MAX:
        return None  # LVARCHAR binds: per value
    used = data[int(offsets[0]):int(offsets[-1])]
    if used.size and (not used.all() or (form == 1 and int(used.max()) >= 0x80)):
        return None  # a NUL (refused), or text to transcode: per value
    sizes = 8 + lengths + (lengths & 1)
    if valid is not None:
        sizes[~valid] = len(_NULL_PARAM)

    def heads(mask: Any) -> Any:
        ln = lengths if mask is None else lengths[mask]
        return _fixed(_CHAR_HEAD, ln.astype(">u2"))

    return _spans(sizes, lengths, offsets[:-1], data, heads, 8, valid)


def _matrix_items(matrix: Any, sizes: Any) -> _Items:
    """Items laid out left-aligned in the rows of ``matrix`` (zero-padded), ``sizes[i]``
    bytes of row i each."""
    np = _np
    flat = matrix[np.arange(matrix.shape[1]) < sizes[:, None]]
    starts = np.cumsum(sizes) - sizes

    def nothing(mask: Any) -> Any:
        return np.empty((len(sizes), 0), np.uint8)

    return _spans(sizes, sizes, starts, flat, nothing, 0, None)


_POW100 = [100**j for j in range(10)]


def _decimal_items(arr: Any, valid: Any, scale: int) -> _Items:
    """DECIMAL(p <= 18, s) items as ``encode_decimal_bind`` writes a Decimal of exponent -s:
    prec = s, ``u16 length``, the head byte (sign and base-100 exponent), the minimal
    base-100 digits (100-complemented when negative; zero is ``C1 00``), padded to even."""
    np = _np
    n = len(arr)
    low = np.frombuffer(arr.buffers()[1], "<i8")[2 * arr.offset:2 * (arr.offset + n):2]
    negative = low < 0
    mag = np.abs(low).astype(np.uint64)  # |v| < 10**18: no overflow
    if scale & 1:
        mag = mag * np.uint64(10)  # an even scale: the point falls between base-100 digits
    digits = np.empty((n, 10), np.int64)
    for j in range(10):
        digits[:, 9 - j] = (mag // np.uint64(_POW100[j])) % np.uint64(100)
    nonzero = digits != 0
    anyd = nonzero.any(axis=1)
    lead = np.where(anyd, nonzero.argmax(axis=1), 9)
    trail = np.where(anyd, nonzero[:, ::-1].argmax(axis=1), 0)
    count = np.where(anyd, 10 - lead - trail, 1)  # base-100 digits written (zero: one 00)
    exponent = np.where(anyd, 10 - lead - (scale + (scale & 1)) // 2, 1)  # zero: C1 00
    rows = np.arange(n)[:, None]
    shifted = digits[rows, np.minimum(lead[:, None] + np.arange(10), 9)]
    shifted[np.arange(10) >= count[:, None]] = 0
    neg = negative & anyd
    if neg.any():
        last = count - 1
        comp = 99 - shifted
        at_last = np.arange(10) == last[:, None]
        comp[at_last] += 1
        comp[np.arange(10) > last[:, None]] = 0
        shifted = np.where(neg[:, None], comp, shifted)
    head = np.where(neg, (exponent + 64) ^ 0x7F, 0x80 | (exponent + 64))
    body = 1 + count
    m = np.zeros((n, 6 + 2 + 11 + 1), np.uint8)
    m[:, :6] = np.frombuffer(TYPE_IND_PREC.pack(_T.DECIMAL, 0, scale), np.uint8)
    m[:, 6] = body >> 8
    m[:, 7] = body & 0xFF
    m[:, 8] = head
    m[:, 9:19] = shifted
    sizes = 8 + body + (body & 1)
    if valid is not None:
        m[~valid, :6] = np.frombuffer(_NULL_PARAM, np.uint8)
        sizes = np.where(valid, sizes, len(_NULL_PARAM))
    return _matrix_items(m, sizes.astype(np.int64))


def _per_value(arr: Any, encoding: str) -> _Items | None:
    """Every value through ``encode_bind_value`` (NULL: its item); None when one is refused."""
    np = _np
    items: list[bytes] = []
    append = items.append
    try:
        for v in arr.to_pylist():
            if isinstance(v, (bytes, bytearray, memoryview)):
                return None  # BYTE data follows SQ_BIND: the tuple path sends it
            append(_NULL_PARAM if v is None else encode_bind_value(v, encoding))
    except Exception:
        return None
    blob = np.frombuffer(b"".join(items), np.uint8)
    lengths = np.fromiter(map(len, items), np.int64, len(items))
    starts = np.cumsum(lengths) - lengths

    def nothing(mask: Any) -> Any:
        return np.empty((len(lengths), 0), np.uint8)

    return _spans(lengths, lengths, starts, blob, nothing, 0, None)


def _column_items(pa: Any, arr: Any, encoding: str, form: int) -> _Items | None:
    np = _np
    t = arr.type
    types = pa.types
    if types.is_binary(t) or types.is_large_binary(t) or types.is_fixed_size_binary(t):
        return None
    valid = _validity(arr)
    if valid is not None and not valid.any():
        return len(_NULL_PARAM), lambda out, pos, stride: _put(
            out, pos, stride, _const(_NULL_PARAM, len(pos)))
    got: _Items | None = None
    if types.is_integer(t) and not types.is_uint64(t):
        got = _int_items(_values(arr, np.dtype(t.to_pandas_dtype()).str), valid)
    elif types.is_float64(t) or types.is_float32(t):
        got = _float_items(_values(arr, "<f8" if types.is_float64(t) else "<f4"), valid)
    elif types.is_date32(t):
        got = _date_items(_values(arr, "<i4"), valid)
    elif types.is_boolean(t):
        got = _bool_items(arr, valid)
    elif types.is_decimal128(t) and t.precision <= 18 and 0 <= t.scale <= 18:
        got = _decimal_items(arr, valid, t.scale)
    elif types.is_string(t) or types.is_large_string(t):
        got = _string_items(arr, valid, types.is_large_string(t), form)
    if got is None:
        got = _per_value(arr, encoding)
    return got


def encode_batch(pa: Any, batch: Any, head: bytes, encoding: str) -> tuple[Any, list[int]] | None:
    """``batch``'s rows as executemany groups ``head + SQ_BIND + EXECUTE EOT``: (the bytes as a
    numpy uint8 array, the start of each row and the end), or None when it must go as tuples."""
    if not available():
        return None
    np = _np
    n = batch.num_rows
    form = _text_form(encoding)
    plans = []
    for arr in batch.columns:
        items = _column_items(pa, arr, encoding, form)
        if items is None:
            return None
        plans.append(items)
    prefix = head + bind_head(batch.num_columns)
    row = len(prefix) + len(EXECUTE_EOT)
    col_at: list[Any] = []
    for sizes, _ in plans:
        col_at.append(row - len(EXECUTE_EOT))
        row = row + sizes
    if isinstance(row, int):
        stride: int | None = row
        starts = np.arange(n + 1, dtype=np.int64) * row
    else:
        stride = None
        starts = np.zeros(n + 1, np.int64)
        np.cumsum(row, out=starts[1:])
    out = np.zeros(int(starts[-1]), np.uint8)
    begin = starts[:-1]
    _put(out, begin, stride, _const(prefix, n))
    for (_, writer), at in zip(plans, col_at, strict=True):
        writer(out, begin + at, stride)
    _put(out, starts[1:] - len(EXECUTE_EOT), stride, _const(EXECUTE_EOT, n))
    return out, starts.tolist()
