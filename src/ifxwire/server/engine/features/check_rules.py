"""What a CHECK constraint's condition may not hold, refused with the catalogue's codes.

Guide to SQL: Syntax, "Using a Search Condition" (ids_sqs_0525) and ALTER TABLE's CHECK
clause (ids_sqs_0306): "The search condition that defines a check constraint cannot contain
the following elements: user-defined routines, subqueries, aggregates, host variables, or
rowids". IBM's message catalogue [jcat] has the codes: -677 "Check constraint cannot contain
subqueries or procedures." and -9885 "Variant user defined routine cannot be used in check
constraint or fragment expression." (so a routine declared WITH (NOT VARIANT) is taken, as
the second text implies; a VARIANT one, SPL's default, is refused). An aggregate here is
-677 too [inference: no code of its own; the catalogue groups it with subqueries nowhere,
but it was -999]. Before the thirty-third session subqueries and aggregates were -999 and
routines were taken whatever their variance. The built-in variant functions the page lists
(TODAY, CURRENT, USER, …) are still taken: no code is known for them (a known difference).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from typing import Any

from sqlglot import exp

from ..core import sqlcodes as sc
from ..core.errors import EngineError


def refuse(expr: exp.Expr, routines: Callable[[str], Sequence[Any]],
           conn: sqlite3.Connection) -> None:
    if any(True for _ in expr.find_all(exp.Subquery, exp.Select)):
        raise EngineError(sc.CHECK_SUBQUERY)
    if any(True for _ in expr.find_all(exp.AggFunc)):
        raise EngineError(sc.CHECK_SUBQUERY)
    for call in expr.find_all(exp.Anonymous):
        name = str(call.this).lower()
        found = routines(name)
        if not found:
            continue
        marks = ", ".join("?" * len(found))
        variant = conn.execute(
            f"SELECT COUNT(*) FROM sysprocedures WHERE procid IN ({marks}) AND variant <> 0",
            [r.procid for r in found]).fetchone()[0]
        if variant == len(found):
            raise EngineError(sc.CHECK_VARIANT_ROUTINE, near=name)
