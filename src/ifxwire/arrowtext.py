"""The pure Arrow path's reader of numeric collections in the text form (arrow14, issue 25).

``cursor.collections = "text"`` fetches ``LIST{1,2,3}`` instead of the ~1 KB binary form. With
no C decoder, each value was parsed by the row decoder (types/compositetext.py) and handed to
``pyarrow.array`` as a List: ~27x the 10 INTEGER columns' ``fetch_arrow_table``. Here the pure
column walker (arrowtuples.column_walker) keeps each value's text as bytes, and a batch's texts
are read in one pass of pyarrow.compute kernels: the opener and ``}`` checked, sliced off,
split at the commas, the pieces cast to the element type, the list offsets summed.

The values must be the row path's exactly, or the batch is decoded value by value as before
(which gives the row path's value or its typed error, DataError naming the column). So any
batch with something the kernels do not read as the server writes it goes back: a text that is
not ``WORD{...}``, an empty item, a blank, ``NULL``, a number the cast refuses (out of range,
more decimal digits than the scale); a SET whose elements a Set would change (two equal ones,
a NaN) or whose order the row path does not fix (a SET of DECIMAL: the row path keeps the
frozenset's order). Arrow's string-to-number casts round as Python's ``float()`` and
``Decimal`` do (correctly), and a SMALLFLOAT goes through float64 first, as the row path's
Python float does.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

__all__ = ["text_list_array"]


class _PerValue(Exception):
    """This batch is not one the kernels read exactly: decode it value by value."""


def text_list_array(pa: Any, pc: Any, values: Sequence[Any], field: Any, conv: Any,
                    opener: bytes, decode: Callable[[bytes], Any]) -> Any:
    """The list array of one batch of a text-form collection column.

    ``values`` holds each row's text (bytes, without the envelope), None for a NULL
    collection, or an already decoded value (a row the walker's inline statements refused);
    ``decode`` is the column's text decoder (bytes -> List/Multiset/Set, or CodecDataError);
    ``conv`` the row path's converter (``sorted`` for a SET of numbers, ``float`` per element
    for a floating DECIMAL)."""
    try:
        return _vectorised(pa, pc, [v if v is None or type(v) is bytes else _spelled(v, opener)
                                    for v in values], field, conv, opener)
    except (_PerValue, pa.ArrowInvalid, pa.ArrowTypeError, pa.ArrowNotImplementedError,
            TypeError):
        pass
    rows = [v if v is None or not isinstance(v, bytes) else decode(v) for v in values]
    if conv is not None:
        rows = [None if v is None else conv(v) for v in rows]
    return pa.array(rows, type=field.type)


def _spelled(value: Any, opener: bytes) -> bytes:
    """A value the row decoder gave (a row the walker's inline statements left to decode_row,
    e.g. the tuple a receive cut in two) spelled back as text the kernels read to the same
    value: ``str`` of an int or Decimal, ``repr`` of a float (both read back exactly). A
    None element becomes ``NULL``, which sends the batch value by value."""
    return opener + ",".join("NULL" if x is None else repr(x) if type(x) is float else str(x)
                             for x in value).encode("ascii") + b"}"


def _vectorised(pa: Any, pc: Any, values: Sequence[Any], field: Any, conv: Any,
                opener: bytes) -> Any:
    vt = field.type.value_type
    is_float = pa.types.is_floating(vt)
    if not (pa.types.is_integer(vt) or is_float or pa.types.is_decimal128(vt)):
        raise _PerValue
    is_set = opener == b"SET{"
    if is_set and conv is not sorted:  # (a SET of DECIMAL: the frozenset's own order)
        raise _PerValue
    if not is_set and conv is not None and not is_float:
        raise _PerValue  # (a floating DECIMAL's float() per element is the float64 cast)
    texts = pa.array(values, type=pa.binary())  # TypeError: a decoded value is among them
    shaped = pc.and_(pc.starts_with(texts, opener.decode("ascii")), pc.ends_with(texts, "}"))
    if not pc.all(pc.fill_null(shaped, True)).as_py():
        raise _PerValue
    inner = pc.binary_slice(texts, len(opener), -1).cast(pa.string())
    parts = pc.split_pattern(inner, ",")
    empty = pc.fill_null(pc.equal(inner, ""), False)
    counts = pc.fill_null(pc.if_else(empty, 0, pc.list_value_length(parts)), 0)
    parents = pc.list_parent_indices(parts)
    flat = pc.list_flatten(parts)
    if pc.any(empty).as_py():  # "LIST{}" splits into one "" item: not an element
        keep = pc.invert(pc.take(empty, parents))
        flat, parents = pc.filter(flat, keep), pc.filter(parents, keep)
    elems = pc.cast(flat, pa.float64() if is_float else vt)  # ArrowInvalid: not a number
    if vt != elems.type:
        elems = pc.cast(elems, vt)  # SMALLFLOAT: the double, then float32 (the row path's)
    if is_set and len(elems):
        order = pc.sort_indices(pa.table({"p": parents, "v": elems}),
                                sort_keys=[("p", "ascending"), ("v", "ascending")])
        elems, parents = pc.take(elems, order), pc.take(parents, order)
        if is_float and pc.any(pc.is_nan(elems)).as_py():
            raise _PerValue  # no order; the row path's sorted() keeps a NaN where it is
        if len(elems) > 1:
            twins = pc.and_(pc.equal(parents[1:], parents[:-1]), pc.equal(elems[1:], elems[:-1]))
            if pc.any(twins).as_py():
                raise _PerValue  # a Set would keep one of them
    offsets = pa.concat_arrays([pa.array([0], pa.int32()),
                                pc.cumulative_sum(counts).cast(pa.int32())])
    return pa.ListArray.from_arrays(offsets, elems, type=field.type, mask=pc.is_null(texts))
