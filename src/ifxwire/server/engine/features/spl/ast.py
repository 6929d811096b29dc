"""The parsed form of an SPL routine: statement nodes over sqlglot expression trees.

A routine body is parsed once (``parser.py``) into these nodes; the interpreter
(``interp.py``) walks them. Expressions and embedded SQL stay sqlglot trees: they are compiled
by the engine's own compiler, with SPL variables turned into typed parameters, the first time a
session runs them against a given schema (``sqlrun.py``), so an SPL expression means exactly
what the same expression means in a query.

Nodes are shared by every session that runs the routine (they live in the engine-wide schema
cache) and are never mutated after parsing, except for the per-schema plan cache each
expression-bearing node keeps (``Compiled``), which holds no session state.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sqlglot import exp

from ...core.ifxtypes import IfxType


@dataclass(eq=False)
class VarDecl:
    """A variable: a parameter, a DEFINE'd local, a GLOBAL, or a trigger correlation name.

    ``slot`` is the variable's index in its frame (-1 for globals, which live in the
    session). ``like`` is (owner, table, column) for ``DEFINE v LIKE table.column``: the type
    is read from the catalog when the routine is first compiled against a schema.
    """

    name: str
    type: IfxType | None
    slot: int = -1
    is_global: bool = False
    default: exp.Expr | None = None
    like: tuple[str | None, str, str] | None = None
    row: bool = False  # a trigger's OLD/NEW correlation name: columns are read as name.col


@dataclass(eq=False)
class Node:
    pos: int  # character offset of the statement in the CREATE text (for error offsets)


@dataclass(eq=False)
class Compiled:
    """A node's compiled query for one schema: the engine plan and the variables bound to its
    parameters in order (VarDecl, or (row VarDecl, column) for OLD.col / NEW.col)."""

    plan: Any
    refs: list[Any]


@dataclass(eq=False)
class ExprNode(Node):
    """Base for nodes that carry compiled queries, cached per schema token."""

    cache: dict[object, Compiled] = field(default_factory=dict, repr=False)


@dataclass(eq=False)
class Block(ExprNode):
    """A statement block: its own DEFINEs, its ON EXCEPTION handlers, then its statements.

    ``scope`` maps every name visible in the block (its own and its enclosing blocks') to
    the declaration, so SQL inside the block knows which identifiers are variables."""

    decls: list[VarDecl] = field(default_factory=list)
    handlers: list[OnException] = field(default_factory=list)
    body: list[Node] = field(default_factory=list)
    scope: dict[str, VarDecl] = field(default_factory=dict)


@dataclass(eq=False)
class Define(Node):
    decls: list[VarDecl] = field(default_factory=list)


@dataclass(eq=False)
class Let(ExprNode):
    targets: list[str] = field(default_factory=list)
    exprs: list[exp.Expr] = field(default_factory=list)
    query: exp.Expr | None = None  # LET a, b = (SELECT x, y FROM …)
    call: CallSpec | None = None  # LET a, b = f(x) (a routine returning several values)
    #: LET a, b, c = (SELECT x, y …), 15 / = 7, f(…): a list whose subqueries and calls give
    #: several values each (ids_sqs_1348, ids_sqs_1349); matched to the targets at run time
    mixed: bool = False


@dataclass(eq=False)
class If(ExprNode):
    branches: list[tuple[exp.Expr, Block]] = field(default_factory=list)
    orelse: Block | None = None


@dataclass(eq=False)
class ForRange:
    start: exp.Expr
    end: exp.Expr | None = None  # None: a single value in FOR v IN (a, b TO c, …)
    step: exp.Expr | None = None


@dataclass(eq=False)
class For(ExprNode):
    var: str = ""
    ranges: list[ForRange] = field(default_factory=list)
    body: Block | None = None
    label: str | None = None


@dataclass(eq=False)
class While(ExprNode):
    cond: exp.Expr | None = None
    body: Block | None = None
    label: str | None = None


@dataclass(eq=False)
class Loop(Node):
    body: Block | None = None
    label: str | None = None


@dataclass(eq=False)
class Jump(ExprNode):
    """EXIT or CONTINUE: ``kind`` FOR/WHILE/FOREACH/LOOP or None (innermost loop)."""

    exit: bool = True
    kind: str | None = None
    label: str | None = None
    when: exp.Expr | None = None


@dataclass(eq=False)
class Foreach(ExprNode):
    cursor: str | None = None
    hold: bool = False
    query: Sql | None = None  # FOREACH [c FOR] SELECT … INTO …
    call: CallSpec | None = None  # FOREACH EXECUTE FUNCTION f(…) INTO …
    into: list[str] = field(default_factory=list)
    body: Block | None = None
    label: str | None = None


@dataclass(eq=False)
class Return(ExprNode):
    exprs: list[exp.Expr] = field(default_factory=list)
    resume: bool = False
    text: str = ""  # the expressions as written (an inline function's body)


@dataclass(eq=False)
class CallSpec(ExprNode):
    """A routine call: CALL, EXECUTE PROCEDURE/FUNCTION, LET x = f(…), FOREACH EXECUTE …"""

    name: str = ""
    owner: str | None = None
    args: list[exp.Expr] = field(default_factory=list)
    kind: str = "any"  # procedure, function or any (CALL)
    into: list[str] = field(default_factory=list)
    trigger_refs: bool = False  # … WITH TRIGGER REFERENCES


@dataclass(eq=False)
class OnException(ExprNode):
    codes: list[exp.Expr] | None = None  # None: every error
    set_vars: list[str] = field(default_factory=list)
    body: Block | None = None
    resume: bool = False


@dataclass(eq=False)
class Raise(ExprNode):
    args: list[exp.Expr] = field(default_factory=list)  # sqlcode [, isam [, text]]


@dataclass(eq=False)
class Goto(Node):
    """GOTO label: jump to the statement after ``<<label>>`` in this or an enclosing block."""

    target: str = ""


@dataclass(eq=False)
class Trace(ExprNode):
    mode: str = "on"  # on, off, procedure, expr
    expr: exp.Expr | None = None


@dataclass(eq=False)
class DebugFile(ExprNode):
    expr: exp.Expr | None = None
    append: bool = False


@dataclass(eq=False)
class System(ExprNode):
    expr: exp.Expr | None = None


@dataclass(eq=False)
class Case(ExprNode):
    """CASE [subject] WHEN … THEN block …: with a subject, each WHEN holds ``subject = v``."""

    whens: list[tuple[exp.Expr, Block]] = field(default_factory=list)
    orelse: Block | None = None


@dataclass(eq=False)
class Sql(ExprNode):
    """An embedded SQL statement. ``into``: the INTO variables of a SELECT … INTO; ``cursor``:
    the FOREACH cursor an UPDATE/DELETE … WHERE CURRENT OF names."""

    tree: exp.Expr | None = None
    into: list[str] = field(default_factory=list)
    text: str = ""
    current_of: str | None = None


@dataclass(eq=False)
class ExecImmediate(ExprNode):
    expr: exp.Expr | None = None


@dataclass(eq=False)
class Prepare(ExprNode):
    """PREPARE statement_id FROM char_expression (dynamic SQL in SPL, dynamic.py)."""

    name: str = ""
    expr: exp.Expr | None = None


@dataclass(eq=False)
class Declare(Node):
    """DECLARE cursor_id CURSOR [WITH HOLD] FOR statement_id."""

    cursor: str = ""
    statement: str = ""
    hold: bool = False


@dataclass(eq=False)
class Open(Node):
    """OPEN cursor_id [USING variable, …]."""

    cursor: str = ""
    using: list[str] = field(default_factory=list)


@dataclass(eq=False)
class Fetch(Node):
    """FETCH [direction] cursor_id INTO variable, … (SPL cursors are sequential: any other
    direction than NEXT is refused when it runs)."""

    cursor: str = ""
    direction: str = "NEXT"
    into: list[str] = field(default_factory=list)


@dataclass(eq=False)
class Close(Node):
    cursor: str = ""


@dataclass(eq=False)
class Free(Node):
    """FREE cursor_id | statement_id."""

    name: str = ""


@dataclass
class Param:
    name: str
    type: IfxType | None
    default: exp.Expr | None = None
    default_text: str | None = None
    like: tuple[str | None, str, str] | None = None
    mode: str = "IN"


@dataclass
class RoutineHeader:
    """What CREATE PROCEDURE/FUNCTION declares before its body."""

    name: str
    owner: str | None
    function: bool  # CREATE FUNCTION, or CREATE PROCEDURE … RETURNING
    keyword: str  # PROCEDURE or FUNCTION, as written
    params: list[Param]
    returns: list[IfxType]
    return_names: list[str | None]
    specific: str | None = None
    dba: bool = False
    modifiers: list[str] = field(default_factory=list)
    referencing: dict[str, str] = field(default_factory=dict)  # old/new -> correlation name
    trigger_table: str | None = None  # … REFERENCING … FOR table (a trigger procedure)
    document: list[str] = field(default_factory=list)


@dataclass(eq=False)
class RoutineBody:
    """A parsed body: the top block, the number of frame slots it needs, and whether the
    routine contains RETURN … WITH RESUME (an iterator)."""

    block: Block
    nslots: int
    params: list[VarDecl]
    iterator: bool = False
    sqlcode_slot: int = -1  # the frame slot behind the built-in SQLCODE (-1: none)
