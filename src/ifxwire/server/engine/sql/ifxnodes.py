"""The Informix-only sqlglot expression nodes the dialect parses into, and its parse error.

Split from dialect.py (the ~800-line rule): the parser (dialect.py, dialect_types.py) makes
these nodes and the translator (exprs.py, translate.py, slv.py, the SPL runtime) reads them;
neither needs the other's code to know what a node holds.
"""

from __future__ import annotations

import typing as t

from sqlglot import exp
from sqlglot.errors import ParseError

from ..core.ifxtypes import IfxType


class IfxParseError(ParseError):
    """A ParseError that remembers where (character offset) and what (token text) failed."""

    def __init__(self, message: str, offset: int, near: str) -> None:
        # ``errors`` as sqlglot's own ParseError has it: its parse_into indexes errors[0].
        super().__init__(message, [{"description": message, "highlight": near}])
        self.offset = offset
        self.near = near


# --- Informix-only expression nodes -------------------------------------------------------------
class IfxDateTimeLit(exp.Expression):
    """DATETIME(text) q: ``this`` is the text; meta['ifx'] the IfxType."""

    arg_types: t.ClassVar[dict[str, bool]] = {"this": True}


class IfxIntervalLit(exp.Expression):
    """INTERVAL(text) q, or ``n UNITS unit`` (``this`` an expression then, meta['units'])."""

    arg_types: t.ClassVar[dict[str, bool]] = {"this": True}


class IfxToday(exp.Expression):
    arg_types: t.ClassVar[dict[str, bool]] = {}


class IfxCurrent(exp.Expression):
    """CURRENT [q]; meta['ifx'] is the DATETIME type (default YEAR TO FRACTION(3))."""

    arg_types: t.ClassVar[dict[str, bool]] = {}


class IfxUser(exp.Expression):
    arg_types: t.ClassVar[dict[str, bool]] = {}


class IfxExtend(exp.Expression):
    """EXTEND(x [, q]); meta['ifx'] the target type or None for the default."""

    arg_types: t.ClassVar[dict[str, bool]] = {"this": True}


class IfxCollection(exp.Expression):
    """SET{…} / MULTISET{…} / LIST{…}: ``expressions`` are the elements."""

    arg_types: t.ClassVar[dict[str, bool]] = {"this": True, "expressions": False}


class IfxSlv(exp.Expression):
    """``name # type``: a statement-local variable declared as the OUT argument of a function
    called in a query's WHERE clause (slv.py); ``kind`` is the declared DataType."""

    arg_types: t.ClassVar[dict[str, bool]] = {"this": True, "kind": True}


class IfxSlvRef(exp.Expression):
    """A use of a statement-local variable (slv.py binds column names to it)."""

    arg_types: t.ClassVar[dict[str, bool]] = {"this": True}


class IfxSequenceRef(exp.Expression):
    """seq.NEXTVAL / seq.CURRVAL: ``this`` the sequence name, meta['nextval'] which."""

    arg_types: t.ClassVar[dict[str, bool]] = {"this": True}


class IfxTyped(exp.Expression):
    """An expression already translated (``this``), handed to a routine call as an argument:
    the translator takes it as it is (udt_casts.py's cast functions)."""

    arg_types: t.ClassVar[dict[str, bool]] = {"this": True}


def ifx_type_node(ty: IfxType, serial_start: int | None = None) -> exp.DataType:
    """A DataType node carrying an IfxType (USERDEFINED, so sqlglot leaves it alone)."""
    node = exp.DataType(this=exp.DType.USERDEFINED, kind=ty.sql())
    node.meta["ifx"] = ty
    if serial_start is not None:
        node.meta["serial_start"] = serial_start
    return node

