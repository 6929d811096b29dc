"""SPL expressions and embedded SQL, compiled by the engine's compiler and run on SQLite.

Every SPL variable an expression names becomes a typed parameter of the compiled query (a
``?`` whose type is the variable's declared type), so ``LET d = d * 1.1`` is exactly the
DECIMAL arithmetic ``SELECT d * 1.1`` performs, and ``INSERT INTO t VALUES (x)`` the same
conversion a client's INSERT gets. Values move between variables and SQLite in storage form
(``values.py``): no conversion happens on the way in or out beyond what the SQL itself does.

A compiled query is cached on its AST node per schema token (database incarnation, schema
version and the session's temporary tables), so a loop body is compiled once.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from sqlglot import exp

from .....protocol.codes import TypeCode
from ...core import convert as conv
from ...core import sqlcodes as sc
from ...core.errors import EngineError
from ...core.ifxtypes import IfxType
from ...sql.hooks import TRANSLATION
from ...sql.ifxnodes import IfxToday, IfxUser
from ...sql.translate import Compiler, Plan, table_signature
from . import ast as a

if TYPE_CHECKING:
    from ..session_api import FeatureSession
    from .frame import Frame

_PARAM_BASE = 1 << 30  # placeholder positions for variables: after any real '?'
_CACHE_LIMIT = 16  # compiled versions kept per node (schemas, temp-table sets)


class VarRef:
    """A variable reference bound to a query parameter: a declaration, or a column of a
    trigger's OLD/NEW row."""

    __slots__ = ("column", "decl", "fields", "span")

    def __init__(self, decl: a.VarDecl, column: str | None = None) -> None:
        self.decl = decl
        self.column = column
        #: a LET / INTO target's substring ``[m, n]`` (substrings.py), else None
        self.span: tuple[int, int] | None = None
        #: a LET target's field path in a ROW variable (``v.f1.f2``), else empty
        self.fields: list[str] = []


def substitute(tree: exp.Expr, scope: dict[str, a.VarDecl], refs: list[VarRef],
               types: Callable[[VarRef], IfxType]) -> exp.Expr:
    """Replace the identifiers of ``tree`` that name variables by typed placeholders.

    Informix gives an SPL variable precedence over a column of the same name; a qualified
    name (``t.col``) is a column, except ``old.col`` / ``new.col`` of a trigger row. The target
    columns of UPDATE … SET and INSERT (…) are never variables."""
    tree = tree.copy()
    if any(isinstance(n, exp.Placeholder) for n in tree.find_all(exp.Placeholder)):
        raise EngineError(sc.SYNTAX, near="?")
    for source in tree.find_all(exp.Table):  # TABLE(FUNCTION f(args)): its arguments too
        if "ifx_tf" in source.meta:
            name, owner, args = source.meta["ifx_tf"]
            source.meta["ifx_tf"] = (name, owner, [substitute(arg, scope, refs, types)
                                                   for arg in args])
    skip: set[int] = set()
    for upd in tree.find_all(exp.Update):
        for eq in upd.expressions:
            if isinstance(eq, exp.EQ):
                skip.add(id(eq.this))
    nodes: list[exp.Expr] = [n for n in tree.walk() if isinstance(n, (exp.Column, IfxUser,
                                                                       IfxToday))]
    out = tree
    for node in nodes:
        if id(node) in skip:
            continue
        ref: VarRef | None = None
        fields: list[str] = []  # var.field[.field]: of a ROW variable (row_fields)
        if isinstance(node, exp.Column):
            name = node.name if node.this.quoted else node.name.lower()
            table = node.table
            if not table:
                decl = scope.get(name)
                if decl is not None and not decl.row:
                    ref = VarRef(decl)
            else:
                parts = [p for p in (node.args.get("db"), node.args["table"], node.this)
                         if p is not None]
                names = [p.name if p.quoted else p.name.lower() for p in parts]
                decl = scope.get(names[0])
                if decl is not None and decl.row and len(names) == 2:
                    ref = VarRef(decl, name)
                elif decl is not None and not decl.row and is_row(decl.type):
                    ref = VarRef(decl)
                    fields = names[1:]
        else:
            decl = scope.get("user" if isinstance(node, IfxUser) else "today")
            if decl is not None and not decl.row:
                ref = VarRef(decl)
        if ref is None:
            continue
        ph = exp.Placeholder()
        ph.meta["pos"] = _PARAM_BASE + len(refs)
        ph.meta["pt"] = types(ref).nullable()
        refs.append(ref)
        value: exp.Expr = ph
        for field_name in fields:  # read as the engine reads a ROW column's field
            value = exp.Dot(this=value, expression=exp.to_identifier(field_name))
        if node is out:
            out = value
        else:
            node.replace(value)
    return out


def is_row(t: IfxType | None) -> bool:
    """Whether a variable of type ``t`` holds a ROW value (named or unnamed): ``v.field``
    reads and writes one of its fields (Guide to SQL: Syntax, "Declaring ROW Variables",
    ids_sqs_1318; Tutorial, ids_sqt_452 / ids_sqt_468)."""
    return t is not None and t.cx is not None and t.cx.code == TypeCode.ROW


class Runner:
    """Compiles and runs SPL expressions and SQL for one engine session."""

    def __init__(self, session: FeatureSession) -> None:
        self.session = session

    # ---- compile -----------------------------------------------------------------------------
    def token(self) -> tuple[object, ...]:
        s = self.session
        temps = tuple(sorted((n, table_signature(i)) for n, i in s.temp_tables.items()))
        return (s.database, s._incarnation, s._schema_version(), temps, s._delimident())

    def compiler(self) -> Compiler:
        s = self.session
        return Compiler(s, s._ctx(), s._delimident())

    def var_type(self, ref: VarRef) -> IfxType:
        decl = ref.decl
        if ref.column is None:
            if decl.type is None:
                raise EngineError(sc.NO_COLUMN, near=decl.name)
            return decl.type
        assert decl.like is not None
        info = self.session.resolve(decl.like[1], decl.like[0], None, 0)
        col = info.by_name.get(ref.column)
        if col is None:
            raise EngineError(sc.NO_COLUMN, near=f"{decl.name}.{ref.column}")
        return col.type

    def compile(self, node: a.ExprNode, key: object, scope: dict[str, a.VarDecl],
                build: Callable[[Compiler, Callable[[exp.Expr], exp.Expr]], Any]) -> a.Compiled:
        """The node's compiled query for ``key`` under the current schema (cached)."""
        token = (key, self.token())
        hit = node.cache.get(token)
        if hit is not None:
            return hit
        refs: list[VarRef] = []
        compiler = self.compiler()

        def sub(tree: exp.Expr) -> exp.Expr:
            return substitute(tree, scope, refs, self.var_type)

        plan = build(compiler, sub)
        # What privileges it needs (Interp checks them per execution: check_in_routine).
        for part in [plan, *plan.parts]:
            part.tables = part.tables or dict(compiler.tables)
        plan.routines = sorted(compiler.routines)
        plan.sequences = sorted(compiler.sequences)
        if len(node.cache) >= _CACHE_LIMIT:
            node.cache.clear()
        compiled = a.Compiled(plan, refs)
        node.cache[token] = compiled
        return compiled

    def compile_values(self, node: a.ExprNode, key: object, exprs: Sequence[exp.Expr],
                       scope: dict[str, a.VarDecl],
                       expected: Sequence[IfxType] | None = None) -> a.Compiled:
        def build(c: Compiler, sub: Callable[[exp.Expr], exp.Expr]) -> Plan:
            select = exp.Select(expressions=[sub(e) for e in exprs])
            c.allow_bare_params = True
            plan = c.compile_query(select, list(expected) if expected is not None else None)
            return plan.finish(c.ctx)
        return self.compile(node, key, scope, build)

    def compile_query(self, node: a.ExprNode, key: object, tree: exp.Expr,
                      scope: dict[str, a.VarDecl], expected: Sequence[IfxType] | None,
                      rowid: bool = False) -> a.Compiled:
        """A SELECT; with ``rowid`` its single table's rowid is appended as a last, hidden
        column (for UPDATE/DELETE … WHERE CURRENT OF)."""
        def build(c: Compiler, sub: Callable[[exp.Expr], exp.Expr]) -> Plan:
            c.allow_bare_params = True
            query = sub(tree)
            calls = [t.meta["ifx_tf"] for t in query.find_all(exp.Table) if "ifx_tf" in t.meta]
            if calls:
                # TABLE(FUNCTION f(v)): the call's variables and the query's are numbered
                # alike, by their place among the routine's variables (``bound``)
                holders = [p for p in query.find_all(exp.Placeholder)] + [
                    p for _, _, args in calls for arg in args
                    for p in arg.find_all(exp.Placeholder)]
                c.param_index = {p.meta["pos"]: p.meta["pos"] - _PARAM_BASE + 1
                                 for p in holders}
            try:
                plan = c.compile_query(query, list(expected) if expected is not None
                                       else None)
            finally:
                c.param_index = None
            plan.prelude = list(c.table_functions)
            if rowid:
                root = c._last_root
                source = root.args.get("from_") if isinstance(root, exp.Select) else None
                table = source.this if source is not None else None
                if not isinstance(table, exp.Table) or root.args.get("joins") or (
                        root.args.get("group") or root.args.get("distinct")):
                    raise EngineError(sc.SYNTAX, message="cursor is not updatable")
                root.append("expressions", exp.Column(this=exp.to_identifier("rowid"),
                                                      table=exp.to_identifier(table.alias_or_name)))
                plan.sql = c.generate(root)
                plan.table = table.meta.get("ifx_table")
            return plan.finish(c.ctx)
        return self.compile(node, key, scope, build)

    # ---- run ---------------------------------------------------------------------------------
    def bound(self, compiled: a.Compiled, frame: Frame) -> dict[str, object]:
        out: dict[str, object] = {}
        for i, ref in enumerate(compiled.refs):
            out[f"p{i + 1}"] = frame.read(ref)
        return out

    def fetch_one(self, compiled: a.Compiled, frame: Frame) -> tuple[object, ...]:
        """Run a one-row query (an expression list) and return its row of storage values."""
        plan: Plan = compiled.plan
        s = self.session
        if frame is not None:  # None: a routine's DEFAULT values (calls.call_routine)
            s.check_in_routine(plan, frame.routine)
        s.state.error = None
        bound = self.bound(compiled, frame)
        if plan.prelude:  # TABLE(FUNCTION …) sources (calls.py)
            TRANSLATION.fill_table_functions(s, plan, bound)
        try:
            row = s._connection().execute(plan.sql, bound).fetchone()
        except sqlite3.Error as e:
            raise s._map_error(e, plan) from None
        if row is None:
            return (None,) * len(plan.types)
        return _checked(row, plan)

    def rows(self, compiled: a.Compiled, frame: Frame) -> Iterator[tuple[object, ...]]:
        """Stream a query's rows (storage values); the SQLite cursor closes with the
        iterator, however the loop ends."""
        plan: Plan = compiled.plan
        s = self.session
        s.check_in_routine(plan, frame.routine)
        s.state.error = None
        bound = self.bound(compiled, frame)
        if plan.prelude:  # TABLE(FUNCTION …) sources (calls.py)
            TRANSLATION.fill_table_functions(s, plan, bound)
        cur = s._connection().cursor()
        s._cursors.add(cur)  # closed before the connection goes back to the pool
        try:
            cur.execute(plan.sql, bound)
        except sqlite3.Error as e:
            cur.close()
            raise s._map_error(e, plan) from None
        if plan.prelude:  # read whole: a nested run of the statement refills its table
            return (row for row in list(_stream(s, cur, plan)))  # (callers close it)
        return _stream(s, cur, plan)


def _range_checks(plan: Plan) -> list[tuple[int, Callable[[object], object]]]:
    """Integer results computed in SQLite's 64 bits must still fit their Informix type
    (-1214/-1215/-1284), as an INTEGER variable's assignment does on Informix."""
    checks = getattr(plan, "_spl_checks", None)
    if checks is None:
        checks = []
        for i, t in enumerate(plan.types):
            load = conv.loader(t) if t.is_integer else None
            if load is not None:
                checks.append((i, load))
        plan._spl_checks = checks  # type: ignore[attr-defined]
    return checks


def _checked(row: tuple[object, ...], plan: Plan) -> tuple[object, ...]:
    checks = _range_checks(plan)
    if not checks:
        return tuple(row)
    out = list(row)
    for i, load in checks:
        if out[i] is not None:
            out[i] = load(out[i])
    return tuple(out)


def _stream(s: FeatureSession, cur: sqlite3.Cursor, plan: Plan) -> Iterator[tuple[object, ...]]:
    checks = _range_checks(plan)
    try:
        while True:
            try:
                batch = cur.fetchmany(64)
            except sqlite3.Error as e:
                raise s._map_error(e, plan) from None
            if not batch:
                return
            if not checks:
                yield from batch
                continue
            for row in batch:
                yield _checked(row, plan)
    finally:
        cur.close()
