"""Row factories: what ``fetchone()`` and friends return (psycopg 3's ``psycopg.rows`` protocol).

A *row factory* is called with the cursor once a result opens and returns a *row maker*, a
function from one row's values (a tuple) to the row object::

    RowFactory(cursor) -> RowMaker
    RowMaker(values)   -> row

Set one with ``connect(..., row_factory=dict_row)``, ``Connection.row_factory``,
``conn.cursor(row_factory=...)``, ``Cursor.row_factory`` or ``create_pool(..., row_factory=)``
(the same in ``ifxwire.aio``); docs/DRIVER.md, "Row factories".

Why the makers here are objects with a ``many`` method: the driver decodes rows a batch (one
fetch reply) at a time, and applies the maker to the whole batch when it arrives, not to each
row as it is served. ``many`` makes the batch with C-level calls only (``map`` over
``tuple.__new__``, ``dict`` over ``zip``), so ``dict_row``, ``namedtuple_row`` and :class:`Row`
cost no Python call per row; any other maker is applied as ``list(map(maker, rows))``. The
factory is called once per result (and its maker reused while the cursor runs results of the
same description), never per row; :func:`tuple_row`, the default, is not called at all.
"""

from __future__ import annotations

import functools
import keyword
import operator
import re
from collections import namedtuple
from collections.abc import Callable, Sequence
from itertools import repeat
from typing import TYPE_CHECKING, Any, ClassVar, Generic, NamedTuple, Protocol, TypeVar

from . import _accel
from .errors import InterfaceError

if TYPE_CHECKING:
    from .client.statements import Description

__all__ = [
    "BaseRowFactory",
    "DictRow",
    "Row",
    "RowFactory",
    "RowMaker",
    "TupleRow",
    "args_row",
    "class_row",
    "dict_row",
    "kwargs_row",
    "namedtuple_row",
    "row_class",
    "tuple_row",
]

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)

TupleRow = tuple[Any, ...]
DictRow = dict[str, Any]
#: A decoded batch, as the driver holds it before the row factory sees it.
Batch = list[tuple[Any, ...]]


class DescribedCursor(Protocol):
    """What a row factory may read from the cursor: the description of the open result."""

    @property
    def description(self) -> tuple[Description, ...] | None: ...


class RowMaker(Protocol[T_co]):
    """Makes one row object from the values of one row (a tuple, in column order)."""

    def __call__(self, values: Sequence[Any], /) -> T_co: ...


class RowFactory(Protocol[T_co]):
    """Called with the cursor when a result opens; returns the maker for its rows."""

    def __call__(self, cursor: Any, /) -> RowMaker[T_co]: ...


#: A row factory whose rows' type is not tracked (what the attributes accept).
BaseRowFactory = RowFactory[Any]


class BatchMaker(Generic[T]):
    """A :class:`RowMaker` that can also make a whole batch without a Python call per row.

    ``one`` makes a row (the RowMaker protocol); ``many`` makes a list of rows from a list of
    value tuples, which is what the cursor calls on each fetched batch."""

    __slots__ = ("many", "one")

    def __init__(self, one: Callable[[Sequence[Any]], T], many: Callable[[Batch], list[T]]):
        self.one = one
        self.many = many

    def __call__(self, values: Sequence[Any], /) -> T:
        return self.one(values)


#: The accelerator's batch loops (docs/ACCELERATOR.md), None on the pure path:
#: ``make_dicts(names, rows)`` for dict_row, ``make_tuples(cls, rows)`` for Row and
#: namedtuple_row (one allocation per row, and rows of atomic values left out of the GC).
_make_dicts: Callable[[tuple[str, ...], Batch], list[DictRow]] | None = (
    getattr(_accel._speedups, "make_dicts", None) if _accel.accelerated else None)
_make_tuples: Callable[[type[Any], Batch], list[Any]] | None = (
    getattr(_accel._speedups, "make_tuples", None) if _accel.accelerated else None)


def _tuples_of(cls: type[T]) -> Callable[[Batch], list[T]]:
    """The batch maker for a tuple subclass without __dict__ (Row's and namedtuple's)."""
    if _make_tuples is not None:
        return functools.partial(_make_tuples, cls)
    new = tuple.__new__

    def many(rows: Batch) -> list[T]:
        return list(map(new, repeat(cls), rows))  # type: ignore[arg-type]

    return many


def _names(cursor: DescribedCursor) -> tuple[str, ...]:
    description = cursor.description
    if description is None:
        raise InterfaceError("the cursor has no result (no description to name the columns)")
    return tuple(d[0] for d in description)


# ------------------------------------------------------------------------------ the factories


def tuple_row(cursor: Any) -> RowMaker[TupleRow]:
    """Rows as plain tuples: the default. The cursor recognises this factory and serves the
    decoded tuples as they are (it is not even called)."""
    return tuple


def _map_all(maker: RowMaker[T], rows: Batch) -> list[T]:
    return list(map(maker, rows))


def dict_row(cursor: DescribedCursor) -> BatchMaker[DictRow]:
    """Rows as dicts ``{column name: value}``; with duplicate names the last column wins
    (as ``dict(zip(names, values, strict=True))``, psycopg's semantics)."""
    names = _names(cursor)

    def one(values: Sequence[Any]) -> DictRow:
        return dict(zip(names, values, strict=True))

    if _make_dicts is not None:
        return BatchMaker(one, functools.partial(_make_dicts, names))
    return BatchMaker(one, _pure_dicts(names))


#: Past this many columns the pure batch maker is dict(zip(...)) per row, not a generated
#: comprehension (whose compile time grows with the columns, once per shape).
_DISPLAY_COLUMNS = 255


@functools.lru_cache(maxsize=256)
def _pure_dicts(names: tuple[str, ...]) -> Callable[[Batch], list[DictRow]]:
    """dict_row's batch maker on the pure path: ``[{name0: _0, ...} for _0, ... in rows]``
    compiled for these names (once per set of names: cached).

    Why: a dict display of constant keys is one BUILD_CONST_KEY_MAP (a dict made at its size,
    no resize) fed by UNPACK_SEQUENCE, where ``dict(zip(names, row))`` makes a zip object
    and walks it pair by pair: half the time for 100k five-column rows (docs/BENCHMARKS.md,
    "Row factories"). Same result: a repeated name keeps its last column's value at its first
    column's place. The names enter the source as ``repr`` literals, so any name is safe. A
    row of another length raises ValueError (the decoder's rows never are)."""
    if not names or len(names) > _DISPLAY_COLUMNS or any(type(n) is not str for n in names):

        def many(rows: Batch) -> list[DictRow]:
            return list(map(dict, map(zip, repeat(names), rows)))

        return many
    items = ", ".join(f"{name!r}: _{i}" for i, name in enumerate(names))
    targets = "".join(f"_{i}, " for i in range(len(names)))
    namespace: dict[str, Any] = {}
    exec(f"def many(rows):\n    return [{{{items}}} for {targets}in rows]\n", namespace)
    made: Callable[[Batch], list[DictRow]] = namespace["many"]
    return made


def _identifier(name: str) -> str:
    """A column name made a Python identifier (psycopg's mangling): non-word characters become
    ``_``, a leading digit gets an ``f`` in front and a keyword a ``_`` after it."""
    if name.isidentifier() and not keyword.iskeyword(name):
        return name
    if name[:1].isdigit():
        name = "f" + name
    name = re.sub(r"\W", "_", name) or "_"
    if keyword.iskeyword(name):
        name += "_"
    return name


@functools.lru_cache(maxsize=512)
def _namedtuple(names: tuple[str, ...]) -> type[Any]:
    # rename=True: duplicates and names with a leading underscore become _0, _1, ...
    return namedtuple("Row", [_identifier(n) for n in names], rename=True)


def namedtuple_row(cursor: DescribedCursor) -> BatchMaker[NamedTuple]:
    """Rows as namedtuples named after the columns (invalid identifiers mangled as psycopg
    does; the class is cached per column names)."""
    nt = _namedtuple(_names(cursor))
    return BatchMaker(nt._make, _tuples_of(nt))


def class_row(cls: type[T]) -> RowFactory[T]:
    """A factory making ``cls(**{column name: value})`` per row (a dataclass, say)."""

    def factory(cursor: DescribedCursor) -> RowMaker[T]:
        names = _names(cursor)

        def make(values: Sequence[Any]) -> T:
            return cls(**dict(zip(names, values, strict=True)))

        return make

    return factory


def args_row(func: Callable[..., T]) -> RowFactory[T]:
    """A factory making ``func(*values)`` per row."""

    def factory(cursor: DescribedCursor) -> RowMaker[T]:
        def make(values: Sequence[Any]) -> T:
            return func(*values)

        return make

    return factory


def kwargs_row(func: Callable[..., T]) -> RowFactory[T]:
    """A factory making ``func(**{column name: value})`` per row."""

    def factory(cursor: DescribedCursor) -> RowMaker[T]:
        names = _names(cursor)

        def make(values: Sequence[Any]) -> T:
            return func(**dict(zip(names, values, strict=True)))

        return make

    return factory


# ------------------------------------------------------------------------------ Row


class _RowMeta(type):
    """``Row(cursor)`` is the row factory protocol (a maker for the cursor's columns); calling
    a column shape's class, ``row_class(names)(values)``, makes a row."""

    def __call__(cls, arg: Any) -> Any:
        if cls is Row:
            return _row_maker(arg)
        return tuple.__new__(cls, arg)  # type: ignore[arg-type]


class Row(tuple[Any, ...], metaclass=_RowMeta):
    """A row readable by index (``row[0]``), by column name (``row["name"]``) and by attribute
    (``row.name``); it is a tuple, so it compares equal to the tuple of its values, unpacks
    and hashes like one.

    Use the class itself as the row factory: ``connect(..., row_factory=ifxwire.rows.Row)``.
    Each result's rows are instances of a subclass made (and cached) for its column names.
    A column whose name is a tuple or Row method (``count``, ``index``, ``_asdict``,
    ``_fields``) wins as an attribute; the method stays reachable as ``Row._asdict(row)``.
    With duplicate column names, name and attribute access give the first such column.
    Pickles by its column names and values.
    """

    __slots__ = ()
    # Name-mangled (_Row__names / _Row__index), so a column called "_fields" can shadow the
    # public spelling without breaking the methods that read these.
    __names: ClassVar[tuple[str, ...]] = ()
    __index: ClassVar[dict[str, int]] = {}

    def __getitem__(self, key: Any) -> Any:
        if key.__class__ is str:
            try:
                key = self.__index[key]
            except KeyError:
                raise KeyError(f"no column {key!r} in {list(self.__names)}") from None
        return tuple.__getitem__(self, key)

    def __getattr__(self, name: str) -> Any:
        # Only called when the normal lookup failed: plain column names cost nothing here.
        try:
            i = self.__index[name]
        except KeyError:
            raise AttributeError(f"no column {name!r} in {list(self.__names)}") from None
        return tuple.__getitem__(self, i)

    @property
    def _fields(self) -> tuple[str, ...]:
        """The column names, in order (as ``namedtuple._fields``)."""
        return self.__names

    def _asdict(self) -> dict[str, Any]:
        """``{column name: value}``; a duplicate name keeps its first column (as ``row[name]``)."""
        return {name: tuple.__getitem__(self, i) for name, i in self.__index.items()}

    def __repr__(self) -> str:
        names = self.__names
        if len(names) != len(self):
            return f"Row{tuple.__repr__(self)}"
        return "Row(" + ", ".join(f"{n}={v!r}" for n, v in zip(names, self, strict=True)) + ")"

    def __reduce__(self) -> tuple[Any, ...]:
        # The per-shape class is made at run time: rebuild it from the names when unpickling.
        return (_unpickle_row, (self.__names, tuple(self)))

    def __copy__(self) -> Row:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Row:
        import copy

        return tuple.__new__(type(self), copy.deepcopy(tuple(self), memo))


def _unpickle_row(names: tuple[str, ...], values: tuple[Any, ...]) -> Row:
    return tuple.__new__(row_class(names), values)


#: Attributes a Row answers to besides its columns (computed, so none is forgotten).
_TAKEN = frozenset(n for n in dir(Row) if not n.startswith(("__", "_Row__")))


@functools.lru_cache(maxsize=512)
def row_class(names: tuple[str, ...]) -> type[Row]:
    """The :class:`Row` subclass for rows with these column names (cached: applications run
    the same few shapes over and over, and a class per execute would cost a ``type()``)."""
    index: dict[str, int] = {}
    for i, name in enumerate(names):
        index.setdefault(name, i)
    namespace: dict[str, Any] = {
        "__slots__": (),
        "_Row__names": tuple(names),
        "_Row__index": index,
    }
    for name, i in index.items():
        if name in _TAKEN:
            namespace[name] = property(operator.itemgetter(i))
    return type("Row", (Row,), namespace)


def _row_maker(cursor: DescribedCursor) -> BatchMaker[Row]:
    cls = row_class(_names(cursor))
    new = tuple.__new__

    def one(values: Sequence[Any]) -> Row:
        return new(cls, values)

    return BatchMaker(one, _tuples_of(cls))


@functools.lru_cache(maxsize=512)
def _unique_names(description: tuple[Description, ...]) -> tuple[str, ...] | None:
    names = tuple(d[0] for d in description)
    return names if len(set(names)) == len(names) else None


def direct_keys(factory: BaseRowFactory, description: tuple[Description, ...] | None
                ) -> tuple[str, ...] | None:
    """The column names when ``factory``'s rows can be decoded straight into dicts: it is
    :func:`dict_row` and no two columns share a name, so that each dict holds every value of
    its row in column order and ``tuple(d.values())`` is the decoded tuple again (what a
    mid-result factory change and an Arrow fetch after dict rows need); None otherwise.

    Why: the accelerated decoder then makes each dict while the row's values are still in
    the cache and frees the row's tuple at once, where making the dicts from a batch of
    tuples reads every value again after the batch left the L1 cache and frees the tuples a
    batch later (docs/BENCHMARKS.md, "Row factories": 2,925 → ~2,780 instructions and
    31 → ~17 L1 misses per five-column row)."""
    if factory is not dict_row or description is None:
        return None
    return _unique_names(description)


def as_tuples(rows: list[Any]) -> Batch:
    """A decoded batch as tuples: rows decoded straight into dicts (:func:`direct_keys`)
    become the tuples of their values again; tuples are returned as they are."""
    if rows and rows[0].__class__ is dict:
        return [tuple(d.values()) for d in rows]
    return rows


def batch_maker(factory: BaseRowFactory, cursor: Any) -> Callable[[Batch], list[Any]] | None:
    """The function the cursor applies to each decoded batch of the result that just opened;
    None when the rows are served as the decoded tuples (``tuple_row``, or a maker that is
    ``tuple`` itself)."""
    if factory is tuple_row:
        return None
    maker = factory(cursor)
    if maker is tuple:
        return None
    if isinstance(maker, BatchMaker):
        return maker.many
    return functools.partial(_map_all, maker)
