"""Binding a parsed routine: every variable gets its frame slot, every block its scope.

Informix resolves an SPL routine's names when it is created: a LET target, INTO variable or
FOR variable that is not defined is -217 at CREATE, not when the statement runs.
"""

from __future__ import annotations

from ...core import sqlcodes as sc
from ...core.errors import EngineError
from ...core.ifxtypes import BOOLEAN, INTEGER
from . import ast as a
from .sqlrun import is_row
from .usertypes import is_placeholder

#: the trigger-type operators of a trigger routine and the systriggers event of each
TRIGGER_OPERATORS = {"inserting": "i", "updating": "u", "deleting": "d", "selecting": "s"}
#: the key of a trigger frame's rows that holds {"event": <systriggers event>}
EVENT_ROW = -4


class _Binder:
    def __init__(self) -> None:
        self.nslots = 0
        #: the FOR loops' variables the statement being bound sits in, innermost last
        self.loops: list[a.VarDecl] = []
        #: the kinds (FOR, WHILE, LOOP, FOREACH) of the loops around it
        self.kinds: list[str] = []

    def decl(self, d: a.VarDecl) -> None:
        if not d.is_global:
            d.slot = self.nslots
            self.nslots += 1

    def block(self, blk: a.Block, parent: dict[str, a.VarDecl]) -> None:
        scope = dict(parent)
        seen: set[str] = set()
        for d in blk.decls:
            # DEFINE (ids_sqs_1306): a variable "Must be unique within statement block"
            if d.name.lower() in seen:
                raise EngineError(sc.VAR_REDECLARED, near=d.name)
            if d.name.lower() == "null":
                raise EngineError(sc.VAR_NAMED_NULL)
            seen.add(d.name.lower())
            self.decl(d)
            scope[d.name] = d
        blk.scope = scope
        for h in blk.handlers:
            for v in h.set_vars:
                self.need(scope, v, h)
            assert h.body is not None
            self.block(h.body, scope)
        for stmt in blk.body:
            self.stmt(stmt, scope)

    def need(self, scope: dict[str, a.VarDecl], name: str, node: a.Node,
             substring: bool = False) -> None:
        """``name`` is a variable of ``scope`` (-217 if not); ``substring``: it may be
        written ``name[m,n]`` (LET and SELECT … INTO only; elsewhere -201)."""
        name, bracket, _ = name.partition("[")
        if bracket and not substring:
            raise EngineError(sc.SYNTAX, near="[", offset=node.pos)
        row, dot, _ = name.partition(".")
        d = scope.get(row)
        if dot:
            # a trigger row's column, or a ROW variable's field (its type, when named, is
            # looked up later: the field then, interp.Interp.target)
            if d is None or not (d.row or is_row(d.type) or is_placeholder(d.type)):
                raise EngineError(sc.NO_COLUMN, near=name, offset=node.pos)
            return
        if d is None or d.row:
            raise EngineError(sc.NO_COLUMN, near=name, offset=node.pos)

    def not_loop_var(self, scope: dict[str, a.VarDecl], name: str, node: a.Node) -> None:
        """A FOR loop's variable is the loop's to step: LET may not assign it inside the loop
        (-660; the FOR page, ids_sqs_1326, evaluates the range once, before the loop)."""
        d = scope.get(name.partition("[")[0].partition(".")[0])
        if d is not None and any(d is var for var in self.loops):
            raise EngineError(sc.LOOP_VAR_MODIFIED, near=name, offset=node.pos)

    def loop(self, body: a.Block, scope: dict[str, a.VarDecl], kind: str) -> None:
        self.kinds.append(kind)
        try:
            self.block(body, scope)
        finally:
            self.kinds.pop()

    def jump(self, node: a.Jump) -> None:
        """EXIT / CONTINUE [FOR | WHILE | FOREACH] outside a loop of that kind: -596 "Bad
        EXIT/CONTINUE statement. Not within a %s loop." (message catalogue). EXIT LOOP and
        a labelled jump are left to the run, as a FOR or WHILE may be written … LOOP."""
        if node.label is not None:
            return
        if node.kind in (None, "LOOP"):
            if not self.kinds:
                raise EngineError(sc.JUMP_OUTSIDE_LOOP, near=node.kind or "", offset=node.pos)
        elif node.kind not in self.kinds:
            raise EngineError(sc.JUMP_OUTSIDE_LOOP, near=node.kind, offset=node.pos)

    def stmt(self, node: a.Node, scope: dict[str, a.VarDecl]) -> None:
        if isinstance(node, a.Block):
            self.block(node, scope)
        elif isinstance(node, a.Let):
            for v in node.targets:
                self.need(scope, v, node, substring=True)
                self.not_loop_var(scope, v, node)
        elif isinstance(node, a.If):
            for _, blk in node.branches:
                self.block(blk, scope)
            if node.orelse is not None:
                self.block(node.orelse, scope)
        elif isinstance(node, a.Case):
            for _, blk in node.whens:
                self.block(blk, scope)
            if node.orelse is not None:
                self.block(node.orelse, scope)
        elif isinstance(node, a.For):
            self.need(scope, node.var, node)
            var = scope[node.var]
            if var.is_global:
                raise EngineError(sc.LOOP_VAR_GLOBAL, near=node.var, offset=node.pos)
            if any(var is outer for outer in self.loops):
                raise EngineError(sc.LOOP_VAR_TWICE, near=node.var, offset=node.pos)
            assert node.body is not None
            self.loops.append(var)
            try:
                self.loop(node.body, scope, "FOR")
            finally:
                self.loops.pop()
        elif isinstance(node, (a.While, a.Loop)):
            assert node.body is not None
            self.loop(node.body, scope, "WHILE" if isinstance(node, a.While) else "LOOP")
        elif isinstance(node, a.Foreach):
            for v in node.into:
                self.need(scope, v, node)
            assert node.body is not None
            self.loop(node.body, scope, "FOREACH")
        elif isinstance(node, a.Jump):
            self.jump(node)
        elif isinstance(node, (a.CallSpec, a.Sql)):
            for v in node.into:
                self.need(scope, v, node, substring=isinstance(node, a.Sql))
        elif isinstance(node, a.Fetch):
            for v in node.into:
                self.need(scope, v, node)
                self.not_loop_var(scope, v, node)
        elif isinstance(node, a.Open):
            for v in node.using:
                self.need(scope, v, node)


def bind(header: a.RoutineHeader, block: a.Block) -> a.RoutineBody:
    """Give every variable its frame slot and every block its scope."""
    binder = _Binder()
    params: list[a.VarDecl] = []
    top: dict[str, a.VarDecl] = {}
    for p in header.params:
        d = a.VarDecl(p.name, p.type, like=p.like)
        binder.decl(d)
        params.append(d)
        top[p.name] = d
    for which, alias in header.referencing.items():
        top[alias] = a.VarDecl(alias, None, row=True, slot=-2 if which == "old" else -3)
    if header.referencing:
        # Trigger routines read the Boolean operators INSERTING, UPDATING, DELETING and
        # SELECTING (Tutorial, "Trigger routines"): variables the call sets from the event.
        for op in TRIGGER_OPERATORS:
            d = a.VarDecl(op, BOOLEAN)
            binder.decl(d)
            top[op] = d
    # SQLCODE (Guide to SQL: Syntax, "SQLCODE Function (SPL)", ids_sqs_1483): the sqlcode of
    # the routine's last SQL statement, read like a variable; a DEFINE'd sqlcode hides it.
    sqlcode = a.VarDecl("sqlcode", INTEGER)
    if "sqlcode" not in top:
        binder.decl(sqlcode)
        top["sqlcode"] = sqlcode
    binder.block(block, top)
    body = a.RoutineBody(block, binder.nslots, params)
    if top.get("sqlcode") is sqlcode:
        body.sqlcode_slot = sqlcode.slot
    return body
