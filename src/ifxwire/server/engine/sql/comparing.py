"""The last step of a comparison's translation (``=``, BETWEEN, IN), moved out of
``exprs.py`` for the ~800-line rule (fidelity48; a pure move)."""

from __future__ import annotations

from sqlglot import exp

from ..core import ifxtypes as it
from .exprtypes import ty, typed


def compared(node: exp.Expr, this: exp.Expr, dec: bool) -> exp.Expr:
    """A comparison (``=``, BETWEEN, IN) with its left operand set: under the IFXDEC
    collation when decimals compare (``compare`` said so), so SQLite orders them as numbers."""
    if dec:
        this = exp.Collate(this=this, expression=exp.Var(this="IFXDEC"))
    node.set("this", this)
    return typed(node, it.BOOLEAN)


def blank_padded(this: exp.Expr, others: list[exp.Expr]) -> exp.Expr:
    """IN's and BETWEEN's left operand under ``COLLATE RTRIM`` when it is a character
    expression that is not a column and meets another character value: ids_sqr_148's
    blank-padded comparison, as ``comparison`` says it for ``=``. SQLite takes an IN list's
    collation from its left operand only (a column in the list does not lend its own), and a
    BETWEEN's from the left operand first."""
    if (ty(this).is_string and not isinstance(this, exp.Column)
            and any(ty(o).is_string for o in others)):
        return exp.Collate(this=this, expression=exp.Var(this="RTRIM"))
    return this
