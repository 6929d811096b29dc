"""The markers of a routine's OUT and INOUT arguments (``Cursor.callproc``), in a module of their
own: the fast path refuses them (``call_function``) and the callproc exchange reads them
(routines.py), and neither should have to import the other to know what they are."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["InOutParam", "OutParam", "has_markers"]


class OutParam:
    """An OUT argument of :meth:`Cursor.callproc`: nothing goes in (a NULL of the parameter's
    declared type, as JDBC sends for ``registerOutParameter``); the value the routine leaves
    in it takes its place in the sequence callproc returns."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "OutParam()"


class InOutParam:
    """An INOUT argument of :meth:`Cursor.callproc`: ``value`` goes in, and the value the
    routine leaves in the parameter takes its place in the sequence callproc returns."""

    __slots__ = ("value",)

    def __init__(self, value: object = None) -> None:
        self.value = value

    def __repr__(self) -> str:
        return f"InOutParam({self.value!r})"


def has_markers(values: Sequence[object]) -> bool:
    """Does the caller ask for output values (an OutParam or InOutParam among ``values``)?"""
    return any(isinstance(v, (OutParam, InOutParam)) for v in values)
