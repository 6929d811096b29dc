"""Arrow results: Informix column types to Arrow types, fetch batches to Arrow record batches.

pyarrow is an optional extra (``pip install "ifxwire[arrow]"``); the core driver imports this
module lazily, only when an Arrow method is called, so it keeps zero dependencies.

Columns, not rows, are what Arrow wants: each fetch reply (one batch of rows, bounded by the
connection's ``fetch_buffer_size``) becomes one or more record batches as it arrives, so a
``RecordBatchReader`` over a cursor streams a result of any size in the memory of one batch.
The conversion goes column by column: fixed-width numeric results take a columnar path
(:mod:`ifxwire.client.arrowfetch`) that never builds a Python row; every other shape reuses
the driver's row decoder for the batch and converts each column with one ``pyarrow.array``
call (docs/ARROW.md has the type mapping and the measured cost of both paths).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from decimal import Decimal
from operator import itemgetter
from typing import Any

from .protocol.codes import XID_BLOB, XID_BOOLEAN, XID_CLOB, XID_LVARCHAR, TypeCode
from .protocol.columns import ColumnDesc
from .types import numeric as _num
from .types import temporal as _tmp
from .types.complextype import COLLECTION_CODES, ComplexType, parse_type_name, scalar_sql
from .types.errors import CodecError
from .types.values import DateTimeFields, IntervalYM

__all__ = [
    "METADATA_KEY",
    "arrow_schema",
    "batch_from_rows",
    "read_partitioned",
    "require_pyarrow",
]

_T = TypeCode
#: Field metadata key holding the Informix type text (``decimal(10,2)``, ``datetime year to
#: second``, ``row(a integer)``), so a consumer can tell MONEY from DECIMAL, SERIAL from INTEGER.
METADATA_KEY = b"informix.type"
#: Floating DECIMAL(p) (no scale) up to this precision becomes float64; wider ones a string.
FLOAT_DECIMAL_MAX_PRECISION = 15

_Converter = Callable[[Any], Any] | None


def require_pyarrow() -> Any:
    """The pyarrow module, or an ImportError that names the extra to install."""
    try:
        import pyarrow
    except ImportError as exc:
        raise ImportError(
            'Arrow results need pyarrow: pip install "ifxwire[arrow]"'
        ) from exc
    return pyarrow


# ------------------------------------------------------------------------------------------
# Type mapping
# ------------------------------------------------------------------------------------------


def _node_of(col: ColumnDesc) -> ComplexType:
    """A ColumnDesc as the ComplexType node the mapping works on (ROW/collection: parsed)."""
    base = col.base
    if base == _T.ROW or base in COLLECTION_CODES:
        return parse_type_name(col.type_name)
    return ComplexType(code=base, length=col.enclen, xid=col.xid, type_name=col.type_name)


def _kind(node: ComplexType) -> int:
    """The node's type code with the built-in UDTs (BOOLEAN, LVARCHAR, BLOB, CLOB) named."""
    code = node.code
    if code in (_T.UDTFIXED, _T.UDTVAR, _T.SENDRECV):
        name = node.type_name.lower()
        if node.xid == XID_BOOLEAN or name == "boolean":
            return int(_T.BOOLEAN)
        if node.xid == XID_LVARCHAR or name == "lvarchar":
            return int(_T.LVARCHAR)
        if node.xid == XID_BLOB or name == "blob":
            return int(_T.BLOB)
        if node.xid == XID_CLOB or name == "clob":
            return int(_T.CLOB)
    return code


def _read_all(value: Any) -> Any:
    """BYTE/TEXT readers (blob_stream) and BLOB/CLOB objects above the materialize limit."""
    read = getattr(value, "read", None)
    return value if read is None else read()


def _fields_text(v: DateTimeFields) -> str:
    """A DATETIME of an odd qualifier (MONTH TO DAY, DAY TO HOUR...) as Informix prints it."""
    parts = [
        (v.year, "{:04d}", ""), (v.month, "{:02d}", "-"), (v.day, "{:02d}", "-"),
        (v.hour, "{:02d}", " "), (v.minute, "{:02d}", ":"), (v.second, "{:02d}", ":"),
    ]  # fmt: skip
    out = ""
    for value, fmt, sep in parts:
        if value is not None:
            out += (sep if out else "") + fmt.format(value)
    if v.microsecond is not None:
        out += f".{v.microsecond:06d}"
    return out


def _decimal_text(v: Decimal) -> str:
    return str(v)


def _node_type(pa: Any, node: ComplexType) -> tuple[Any, _Converter]:
    """(Arrow type, converter of a decoded Python value or None when pyarrow takes it as is)."""
    kind = _kind(node)
    if kind == _T.SMALLINT:
        return pa.int16(), None
    if kind in (_T.INTEGER, _T.SERIAL):
        return pa.int32(), None
    if kind in (_T.INT8, _T.SERIAL8, _T.BIGINT, _T.BIGSERIAL):
        return pa.int64(), None
    if kind == _T.SMALLFLOAT:
        return pa.float32(), None
    if kind == _T.FLOAT:
        return pa.float64(), None
    if kind in (_T.DECIMAL, _T.MONEY):
        p, s = node.length >> 8, node.length & 0xFF
        if s == _num.DECIMAL_FLOATING_SCALE:
            if p <= FLOAT_DECIMAL_MAX_PRECISION:
                return pa.float64(), float
            return pa.string(), _decimal_text
        return pa.decimal128(max(p, 1), s), None
    if kind in (_T.CHAR, _T.NCHAR, _T.VARCHAR, _T.NVARCHAR, _T.LVARCHAR):
        return pa.string(), None
    if kind == _T.BOOLEAN:
        return pa.bool_(), None
    if kind == _T.DATE:
        return pa.date32(), None
    if kind == _T.DATETIME:
        _, start, end = _tmp.parse_qualifier(node.length)
        if start == _tmp._YEAR and end == _tmp._DAY:
            return pa.date32(), None
        if start == _tmp._YEAR and end >= _tmp._HOUR:
            unit = "s" if end <= _tmp._SECOND else ("ms" if end <= 13 else "us")
            return pa.timestamp(unit), None
        if start >= _tmp._HOUR:
            return pa.time64("us"), None
        return pa.string(), _fields_text
    if kind == _T.INTERVAL:
        _, start, _ = _tmp.parse_qualifier(node.length)
        if start <= _tmp._MONTH:
            return pa.month_day_nano_interval(), _interval_ym
        return pa.duration("us"), None
    if kind in (_T.BYTE, _T.BLOB):
        return pa.large_binary(), _read_all
    if kind in (_T.TEXT, _T.CLOB):
        return pa.large_string(), _read_all
    if kind == _T.ROW:
        return _struct_type(pa, node)
    if kind in COLLECTION_CODES:
        elem_type, elem_conv = _node_type(pa, node.element)
        field = pa.field("item", elem_type, nullable=not node.element.notnull)
        if kind != _T.SET and elem_conv is None:
            # List and Multiset are list subclasses: pyarrow takes them as they are (a copy
            # of each into a list was ~10 % of a pure LIST(INTEGER) fetch_arrow_table)
            return pa.list_(field), None
        if kind == _T.SET and node.element.code in _SORTED_SET_ELEMENTS:
            # A SET has no order and a Set (a frozenset) keeps none of the wire's: a SET of
            # numbers comes out sorted, which the C decoder's A_LIST does too (LK_SET), so
            # every path gives the same list whatever Python's hash order
            return pa.list_(field), sorted
        return pa.list_(field), _list_converter(elem_conv)
    if kind in (_T.UDTVAR, _T.UDTFIXED, _T.SENDRECV):
        return pa.large_binary(), None
    if kind == _T.NULL:
        return pa.null(), None
    raise CodecError(f"type code {kind} has no Arrow mapping")


#: SET elements whose Arrow list is sorted (numbers: one total order, no NaN in a Set the C
#: decoder makes; a NaN there leaves it to the row path, where ``sorted`` keeps it in place).
_SORTED_SET_ELEMENTS = frozenset({_T.SMALLINT, _T.INTEGER, _T.SERIAL, _T.BIGINT, _T.BIGSERIAL,
                                  _T.INT8, _T.SERIAL8, _T.SMALLFLOAT, _T.FLOAT})


def _interval_ym(v: IntervalYM) -> tuple[int, int, int]:
    return (v.months, 0, 0)


def _list_converter(elem: _Converter) -> Callable[[Any], list[Any]]:
    if elem is None:
        return list
    return lambda v: [None if x is None else elem(x) for x in v]


def _struct_type(pa: Any, node: ComplexType) -> tuple[Any, _Converter]:
    fields = []
    convs: list[_Converter] = []
    names = []
    for i, child in enumerate(node.children):
        t, conv = _node_type(pa, child)
        name = child.field or f"f{i + 1}"
        names.append(name)
        fields.append(pa.field(name, t, nullable=not child.notnull))
        convs.append(conv)

    def convert(row: Sequence[Any]) -> dict[str, Any]:
        return {
            n: (v if c is None or v is None else c(v))
            for n, v, c in zip(names, row, convs, strict=True)
        }

    return pa.struct(fields), convert


def _type_text(col: ColumnDesc) -> str:
    base = col.base
    if base == _T.ROW or base in COLLECTION_CODES:
        return col.type_name
    try:
        return scalar_sql(base, col.enclen, col.xid, col.type_name)
    except CodecError:
        return col.type_name or f"type {base}"


class _Plan:
    """The Arrow schema of a result and the per-column converters (built once per result)."""

    __slots__ = ("converters", "schema", "types")

    def __init__(self, pa: Any, columns: Sequence[ColumnDesc]) -> None:
        fields = []
        self.types: list[Any] = []
        self.converters: list[_Converter] = []
        for col in columns:
            t, conv = _node_type(pa, _node_of(col))
            meta = {METADATA_KEY: _type_text(col).encode("utf-8")}
            fields.append(pa.field(col.name, t, nullable=col.nullable, metadata=meta))
            self.types.append(t)
            self.converters.append(conv)
        self.schema = pa.schema(fields)


def arrow_schema(columns: Sequence[ColumnDesc]) -> Any:
    """The Arrow schema of a result described by ``columns``."""
    return _Plan(require_pyarrow(), columns).schema


def batch_from_rows(pa: Any, plan: _Plan, rows: Sequence[Sequence[Any]]) -> Any:
    """One record batch from decoded rows, one ``pyarrow.array`` call per column."""
    ncols = len(plan.types)
    if not rows:
        return pa.RecordBatch.from_pylist([], schema=plan.schema)
    # One itemgetter pass per column: zip(*rows) would make an iterator per row.
    columns = [list(map(itemgetter(i), rows)) for i in range(ncols)]
    arrays = []
    for values, t, conv in zip(columns, plan.types, plan.converters, strict=True):
        if conv is not None:
            arrays.append(pa.array([None if v is None else conv(v) for v in values], type=t))
        else:
            arrays.append(pa.array(values, type=t))
    return pa.RecordBatch.from_arrays(arrays, schema=plan.schema)


def read_partitioned(
    dsn: Any,
    sql: str,
    partition_on: str,
    partitions: int = 4,
    **kwargs: Any,
) -> Any:
    """``sql`` read as ``partitions`` ranges of ``partition_on`` over as many connections in
    parallel, as one ``pyarrow.RecordBatchReader`` (see :mod:`ifxwire.arrowpart`)."""
    from .arrowpart import read_partitioned as _read

    return _read(dsn, sql, partition_on, partitions, **kwargs)
