"""How many arguments each Informix built-in takes, checked where sqlglot builds its node
(the parser's FUNCTIONS, dialect.py), because sqlglot itself drops a surplus argument."""

from __future__ import annotations

import typing as t

from sqlglot import exp

from ..core import sqlcodes as sc
from ..core.errors import EngineError

# How many arguments the Syntax guide's diagram of each built-in takes (ids_sqs_1563 LPAD,
# RPAD; ids_sqs_2336 INSTR; ids_sqs_1561 SUBSTR; "LTRIM/RTRIM Function"; ids_sqs_1542 TO_CHAR;
# "NVL Function"; ids_sqs_1476 MOD; "ROUND/TRUNC Function"; "HEX", "CEIL", "FLOOR", "LOG10",
# "INITCAP", "LENGTH", "DATE Function"; ids_sqs_2000 CONCAT "accepts two expressions"; "CHARINDEX").
# sqlglot's builders keep the arguments their own node has room for and drop the rest
# without a word, so LPAD('a', 3, 'x', 'y') ran as LPAD('a', 3, 'x'): more than the diagram
# allows is a syntax error here, -201 as sqlglot's own check gives for REPLACE or UPPER with
# one argument too many ([inference]: the pages name no code for it).
ARITY: dict[str, tuple[int, int]] = {
    "LPAD": (2, 3), "RPAD": (2, 3), "INSTR": (2, 4), "SUBSTR": (2, 3), "LTRIM": (1, 2),
    "RTRIM": (1, 2), "TO_CHAR": (1, 2), "NVL": (2, 2), "MOD": (2, 2), "ROUND": (1, 2),
    "TRUNC": (1, 2), "HEX": (1, 1), "CEIL": (1, 1), "FLOOR": (1, 1), "LOG10": (1, 1),
    "INITCAP": (1, 1), "CONCAT": (2, 2), "LENGTH": (1, 1), "DATE": (1, 1),
    "CHARINDEX": (2, 3),
}


def counted(name: str, builder: t.Callable[..., exp.Expr]) -> t.Callable[..., exp.Expr]:
    """``builder`` that first checks the argument count against ARITY (-201 otherwise)."""
    low, high = ARITY[name]

    def build(args: list[exp.Expr], **kwargs: t.Any) -> exp.Expr:
        if not low <= len(args) <= high:
            raise EngineError(sc.SYNTAX, near=name.lower())
        return builder(args, **kwargs)
    return build


def counted_all(functions: dict[str, t.Callable[..., exp.Expr]]) -> dict[
        str, t.Callable[..., exp.Expr]]:
    """The builders of ``functions`` that ARITY names, each wrapped by :func:`counted`."""
    return {name: counted(name, functions[name]) for name in ARITY}
