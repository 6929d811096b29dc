"""Python values for Informix ROW, SET, MULTISET and LIST.

Fetched values come back as these classes so the Informix kind survives a round trip: a value
read from a MULTISET column binds back as a MULTISET, a named ROW knows its type name. They are
also the explicit wrappers an application uses where a plain Python value is ambiguous (is a
``list`` a LIST or a MULTISET? which element type?). ``element_type`` / ``type_name`` may carry
an Informix type text (``"integer"``, ``"decimal(10,2)"``, ``"row(a int, b varchar(10))"``);
without one the binder infers the element type from the values (docs/TYPES.md §8).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

__all__ = ["ComplexTypeCode", "List", "Multiset", "Row", "Set"]


class Row(tuple[Any, ...]):
    """A ROW value: a tuple whose fields can also be read by name (``row.city``, ``row["city"]``).

    ``type_name`` is the named row type (``"address_t"``) or ``""`` for an unnamed ROW;
    ``fields`` the field names in order. Equality and hashing are the tuple's, so a Row compares
    equal to a plain tuple of the same values.
    """

    fields: tuple[str, ...]
    type_name: str

    def __new__(
        cls, values: Iterable[Any] = (), fields: Iterable[str] | None = None, type_name: str = ""
    ) -> Row:
        self = super().__new__(cls, values)
        names = tuple(fields) if fields is not None else ()
        if names and len(names) != len(self):
            raise ValueError(f"Row has {len(self)} values but {len(names)} field names")
        self.fields = names
        self.type_name = type_name
        return self

    def __getattr__(self, name: str) -> Any:
        names = self.__dict__.get("fields", ())
        if name in names:
            return tuple.__getitem__(self, names.index(name))
        raise AttributeError(f"ROW has no field {name!r} (fields: {', '.join(names) or '-'})")

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, str):
            if key not in self.fields:
                raise KeyError(key)
            return tuple.__getitem__(self, self.fields.index(key))
        return tuple.__getitem__(self, key)

    def _asdict(self) -> dict[str, Any]:
        return dict(zip(self.fields, self, strict=True))

    def __repr__(self) -> str:
        if self.fields:
            inner = ", ".join(f"{n}={v!r}" for n, v in zip(self.fields, self, strict=True))
        else:
            inner = ", ".join(repr(v) for v in self)
        return f"Row({self.type_name + ': ' if self.type_name else ''}{inner})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (Row, (tuple(self), self.fields, self.type_name))


class Set(frozenset[Any]):
    """A SET value (no duplicates, no order). ``element_type`` optionally names the element
    type for binding (``Set({1, 2}, "integer")``)."""

    __slots__ = ("element_type",)
    element_type: str
    kind = "set"

    def __new__(cls, values: Iterable[Any] = (), element_type: str = "") -> Set:
        self = super().__new__(cls, values)
        self.element_type = element_type
        return self

    def __repr__(self) -> str:
        return f"Set({set(self)!r})" if self else "Set()"


class _ElementList(list[Any]):
    """A collection kept as a list, with its element type's SQL text (MULTISET and LIST)."""

    __slots__ = ("element_type",)
    element_type: str
    kind: str

    def __init__(self, values: Iterable[Any] = (), element_type: str = "") -> None:
        super().__init__(values)
        self.element_type = element_type

    def __repr__(self) -> str:
        return f"{type(self).__name__}({list.__repr__(self)})"


class Multiset(_ElementList):
    """A MULTISET value (duplicates allowed, no defined order), kept as a list."""

    __slots__ = ()
    kind = "multiset"


class List(_ElementList):
    """A LIST value (ordered, duplicates allowed)."""

    __slots__ = ()
    kind = "list"


class ComplexTypeCode(int):
    """``cursor.description`` type code of a ROW/collection column: the Informix type code
    (19-22, so it compares equal to the int and to the DB-API type objects) that also carries
    the type's name as the server describes it (``type_name``: ``"SET(integer not null)"``,
    ``"ROW(a integer, b varchar(10))"``, or a named row type's name)."""

    type_name: str

    def __new__(cls, code: int, type_name: str) -> ComplexTypeCode:
        self = super().__new__(cls, code)
        self.type_name = type_name
        return self

    def __repr__(self) -> str:
        return f"ComplexTypeCode({int(self)}, {self.type_name!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (ComplexTypeCode, (int(self), self.type_name))
