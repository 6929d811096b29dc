"""ifxwire.rows without a server: Row's access, equality, pickling and repr, and the makers'
one-row and batch forms agreeing."""

from __future__ import annotations

import copy
import gc
import pickle
from typing import Any

import pytest

from ifxwire import _accel
from ifxwire.errors import InterfaceError
from ifxwire.rows import (
    BatchMaker,
    Row,
    args_row,
    batch_maker,
    class_row,
    dict_row,
    kwargs_row,
    namedtuple_row,
    row_class,
    tuple_row,
)


class Described:
    """What a row factory reads from a cursor."""

    def __init__(self, *names: str) -> None:
        self.description: Any = tuple((n, 2, None, None, None, None, True) for n in names)


def test_row_access_by_index_name_and_attribute() -> None:
    row = row_class(("id", "name", "qty"))((1, "a", 2.5))
    assert isinstance(row, Row) and isinstance(row, tuple)
    assert (row[0], row[-1], row[1:]) == (1, 2.5, ("a", 2.5))
    assert (row["id"], row["name"], row.name, row.qty) == (1, "a", "a", 2.5)
    assert row._fields == ("id", "name", "qty")
    assert row._asdict() == {"id": 1, "name": "a", "qty": 2.5}
    a, b, c = row
    assert (a, b, c) == (1, "a", 2.5) and len(row) == 3
    with pytest.raises(KeyError, match="no column 'nope'"):
        row["nope"]
    with pytest.raises(AttributeError, match="no column 'nope'"):
        row.nope  # noqa: B018
    with pytest.raises(IndexError):
        row[3]


def test_row_equals_and_hashes_as_the_tuple_of_its_values() -> None:
    row = row_class(("a", "b"))((1, None))
    assert row == (1, None) and row.__eq__((1, None)) and row != (1, 2)
    assert hash(row) == hash((1, None))
    assert row == row_class(("x", "y"))((1, None))  # names do not take part, as in namedtuple
    assert {row: 1}[(1, None)] == 1


def test_row_pickles_copies_and_reprs() -> None:
    row = row_class(("id", "when"))((7, [1, 2]))
    for proto in range(pickle.HIGHEST_PROTOCOL + 1):
        back = pickle.loads(pickle.dumps(row, proto))
        assert back == row and type(back) is type(row) and back.when == [1, 2]
    assert copy.copy(row) is row
    deep = copy.deepcopy(row)
    assert deep == row and deep.when is not row.when and type(deep) is type(row)
    assert repr(row) == "Row(id=7, when=[1, 2])"


def test_columns_named_like_methods_win_and_duplicates_give_the_first() -> None:
    row = row_class(("count", "index", "_asdict", "_fields", "id", "id"))((1, 2, 3, 4, 5, 6))
    assert (row.count, row.index, row._asdict, row._fields) == (1, 2, 3, 4)
    assert Row._asdict(row) == {"count": 1, "index": 2, "_asdict": 3, "_fields": 4, "id": 5}
    assert (row.id, row["id"], row[5]) == (5, 5, 6)
    assert tuple.count(row, 1) == 1


def test_row_is_a_row_factory_and_classes_are_cached_per_shape() -> None:
    make = Row(Described("a", "b"))
    assert isinstance(make, BatchMaker)
    one = make((1, 2))
    assert one == (1, 2) and one.b == 2
    many = make.many([(1, 2), (3, 4)])
    assert [r.a for r in many] == [1, 3] and type(many[0]) is type(one)
    assert row_class(("a", "b")) is type(one)
    empty = Described()
    empty.description = None  # a cursor without a result
    with pytest.raises(InterfaceError, match="no result"):
        Row(empty)
    with pytest.raises(InterfaceError, match="no result"):
        dict_row(empty)


def test_builtin_makers_agree_one_row_and_batch() -> None:
    cur = Described("id", "name", "class", "2x", "name")
    rows = [(1, "a", "c", 2, "z"), (2, "b", None, 4, "y")]
    d = dict_row(cur)
    assert d.many(rows) == [d(r) for r in rows]
    assert d(rows[0]) == {"id": 1, "name": "z", "class": "c", "2x": 2}  # last name wins
    n = namedtuple_row(cur)
    made = n.many(rows)
    assert made == [n(r) for r in rows] == rows
    assert made[0]._fields == ("id", "name", "class_", "f2x", "_4")
    assert namedtuple_row(cur).many(rows)[0].__class__ is made[0].__class__  # cached


def test_pure_dict_batches_are_dict_of_zip_for_any_names() -> None:
    """The pure path's dict_row batches come from a comprehension compiled for the names
    (rows._pure_dicts): names that are no identifiers, quotes, backslashes, newlines, braces,
    non-ASCII, repeated ones, one column, none, and past _DISPLAY_COLUMNS (dict(zip)) all
    make dict(zip(names, row)), in the same key order; compiled once per set of names."""
    from ifxwire import rows as R

    odd = ("id", "it's", 'say "x"', "back\\slash", "line\nbreak", "{_0}", "é", "id", "_0")
    row = tuple(range(len(odd)))
    wide = tuple(f"c{i}" for i in range(R._DISPLAY_COLUMNS + 1))
    for names, rows in [(odd, [row, row[::-1]]), (("x",), [(1,), (None,)]), ((), [(), ()]),
                        (wide, [tuple(range(len(wide)))])]:
        made = R._pure_dicts(names)(rows)
        want = [dict(zip(names, r, strict=True)) for r in rows]
        assert made == want and [list(m) for m in made] == [list(w) for w in want]
    assert R._pure_dicts(odd) is R._pure_dicts(tuple(list(odd)))  # cached per names
    with pytest.raises(ValueError):
        R._pure_dicts(("a", "b"))([(1,)])  # a short row is no silent truncation


def test_function_factories() -> None:
    cur = Described("a", "b")
    assert args_row(lambda *v: sum(v))(cur)((1, 2)) == 3
    assert kwargs_row(lambda **kw: kw)(cur)((1, 2)) == {"a": 1, "b": 2}

    class P:
        def __init__(self, a: int, b: int) -> None:
            self.ab = (a, b)

    assert class_row(P)(cur)((1, 2)).ab == (1, 2)
    assert tuple_row(cur) is tuple


def test_batch_maker_serves_tuples_untouched_and_maps_other_makers() -> None:
    cur = Described("a")
    assert batch_maker(tuple_row, cur) is None
    assert batch_maker(lambda c: tuple, cur) is None
    many = batch_maker(args_row(str), cur)
    assert many is not None and many([(1,), (2,)]) == ["1", "2"]
    dicts = batch_maker(dict_row, cur)
    assert dicts is not None and dicts([(1,)]) == [{"a": 1}]


speedups = _accel._speedups  # the compiled module, even when IFXWIRE_PURE=1 leaves it unused
needs_c = pytest.mark.skipif(not _accel.available, reason="the C accelerator is not built")


@needs_c
def test_c_make_dicts_is_dict_of_zip() -> None:
    assert speedups is not None
    keys = ("a", "b", "a")
    rows: list[Any] = [(1, 2, 3), (4, 5), [6, 7, 8, 9], ()]
    assert speedups.make_dicts(keys, rows) == [dict(zip(keys, r)) for r in rows]  # noqa: B905
    # Tuples of one value per name (the template's copy, values written in): past 8 columns,
    # repeated names, a container (tracked by the GC as dict() would), and the rows, held by
    # the list alone, left whole.
    wide = tuple(f"c{i % 11}" for i in range(14))
    batch: list[Any] = [tuple(range(r, r + 14)) for r in range(3)] + [(None,) * 13 + ([1],)]
    made = speedups.make_dicts(wide, batch)
    assert made == [dict(zip(wide, r, strict=True)) for r in batch]
    assert [list(m) for m in made] == [list(dict(zip(wide, r, strict=True))) for r in batch]
    assert [gc.is_tracked(m) for m in made] == [False, False, False, True]
    assert batch[0] == tuple(range(14)) and batch[3][13] == [1]
    with pytest.raises(TypeError):
        speedups.make_dicts(["a"], [])


@needs_c
def test_c_make_tuples_makes_rows_and_leaves_atomic_ones_to_no_gc() -> None:
    assert speedups is not None
    cls = row_class(("a", "b"))
    made = speedups.make_tuples(cls, [(1, "x"), [2, [3]], ("y", None)])
    assert made == [(1, "x"), (2, [3]), ("y", None)] and {type(r) for r in made} == {cls}
    assert [gc.is_tracked(r) for r in made] == [False, True, False]
    assert made[1].b == [3] and pickle.loads(pickle.dumps(made[0])) == made[0]
    # Hashes as the tuple of its values (3.14 caches tuple hashes: a zero-filled cache read 0).
    assert hash(made[0]) == hash((1, "x")) and hash(made[2]) == hash(("y", None))

    class WithDict(tuple):  # a tuple subclass with a __dict__ could hold a cycle: refused
        pass

    with pytest.raises(TypeError):
        speedups.make_tuples(WithDict, [(1,)])
    with pytest.raises(TypeError):
        speedups.make_tuples(dict, [(1,)])


def test_the_c_loops_are_used_only_when_accelerated() -> None:
    from ifxwire import rows

    assert (rows._make_dicts is not None) == _accel.accelerated
    assert (rows._make_tuples is not None) == _accel.accelerated
