"""The SPL interpreter: runs a parsed routine body against the session's SQLite connection.

A routine runs as a Python generator that yields its RETURN rows (storage values), so
``RETURN … WITH RESUME`` is simply a yield: the client's cursor, a FOREACH EXECUTE FUNCTION,
or a scalar call in a query pulls rows as it needs them, in constant memory.

Control flow follows the Guide to SQL: Syntax:

* EXIT / CONTINUE [FOR|WHILE|FOREACH|LOOP] [label] [WHEN cond] leave or restart the innermost
  loop of that kind (or the labelled one);
* ON EXCEPTION [IN (codes)] [SET sqlcode, isam, text] … END EXCEPTION [WITH RESUME]: the
  innermost handler that traps an error runs (never the handler already running); WITH RESUME
  continues after the statement that failed, otherwise execution continues after the block
  that declared the handler (the next loop iteration when that block is a loop body; a
  RETURN without values at routine level);
* a variable read before it was given a value is -696; routine calls nest at most
  ``MAX_DEPTH`` deep (-722).

The frame and the control-flow signals are in ``frame.py``, the SQL statements a routine runs
in ``embedded_sql.py`` (``EmbeddedSql``, Interp's base class): split for the ~800-line rule.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from sqlglot import exp

from .....protocol.codes import TypeCode
from ...core import convert as conv
from ...core import ifxtypes as it
from ...core import sqlcodes as sc
from ...core.errors import EngineError, not_implemented
from ...core.ifxtypes import IfxType
from ...schema.routines import Routine
from ...sql.hooks import TRANSLATION
from ...sql.statements import parse_expressions
from . import ast as a
from . import dynamic, outparams, rowvars, substrings, usertypes
from .binder import EVENT_ROW, TRIGGER_OPERATORS
from .dynamic import DynamicSql
from .embedded_sql import EmbeddedSql
from .frame import (
    UNSET,
    Frame,
    GotoSignal,
    Jump,
    ReturnSignal,
    Row,
    Trapped,
    Unwind,
    _blocks,
    _label_index,
    _StopLoop,
)
from .parser import parse_routine
from .resolve import candidates, choose
from .sqlrun import Runner, VarRef

if TYPE_CHECKING:
    # (the session as the features see it: a Protocol of this layer, session_api.py)
    from ..session_api import FeatureSession

T = TypeCode
MAX_DEPTH = 64  # routine calls nested deeper fail with -722
_TEXT = IfxType(T.LVARCHAR, size=32739)
class Runtime:
    """The SPL state of one engine session: GLOBAL variables, call depth, TRACE output."""

    def __init__(self, session: FeatureSession) -> None:
        self.session = session
        self.runner = Runner(session)
        self.globals: dict[str, object] = {}
        self.depth = 0
        self.trigger_depth = 0
        #: a routine called inside a client's DML statement is running (ids_sqs_1755);
        #: ``firing`` counts trigger action lists running, ``call_args`` EXECUTE arguments
        #: being computed: a function called there is not in a DML statement's context
        self.in_dml = False
        self.firing = 0
        self.call_args = 0
        self.trace_on = False
        self.trace_procs = False
        self.debug_path: str | None = None

    # ---- routines ----------------------------------------------------------------------------
    def body(self, routine: Routine) -> a.RoutineBody:
        """The routine's parsed body (parsed once per schema, from the stored text)."""
        if isinstance(routine.parsed, a.RoutineBody):
            return routine.parsed
        _, body = parse_routine(routine.text, routine.delimident)
        for decl, (_, ty) in zip(body.params, routine.params, strict=True):
            decl.type = ty
        for _which, alias in routine.referencing.items():
            row = body.block.scope.get(alias)
            if row is not None and routine.trigger_table:
                row.like = (None, routine.trigger_table, "")
        # LIKE types are read once per parse: a changed table is a new schema, whose
        # routines are parsed again. So are DISTINCT types' names (usertypes.py).
        self._resolve_likes(body.block)
        usertypes.resolve_variables(body.block, self.session.current_schema().types)
        routine.parsed = body
        return body

    def _resolve_likes(self, blk: a.Block) -> None:
        for decl in blk.scope.values():
            if decl.like is not None and decl.type is None and not decl.row:
                owner, table, column = decl.like
                info = self.session.resolve(table, owner, None, 0)
                col = info.by_name.get(column)
                if col is None:
                    raise EngineError(sc.NO_COLUMN, near=column)
                decl.type = col.type.nullable()
        for stmt in _blocks(blk):
            self._resolve_likes(stmt)

    def invoke(self, routine: Routine, args: list[object],
               rows: dict[int, dict[str, object]] | None = None,
               outs: list[object] | None = None) -> Iterator[Row]:
        """Run ``routine`` with arguments already in its parameter types (storage form);
        the generator yields its RETURN rows. ``outs`` receives the final values of the
        OUT/INOUT parameters when the routine ends normally."""
        body = self.body(routine)
        frame = Frame(self, routine, body)
        for decl, value in zip(body.params, args, strict=False):
            frame.slots[decl.slot] = value
        if len(args) < len(body.params):
            raise EngineError(sc.NO_ROUTINE, near=routine.name)
        if rows:
            frame.rows = rows
        if routine.referencing:
            event = str((rows or {}).get(EVENT_ROW, {}).get("event", "")).lower()
            for op, code in TRIGGER_OPERATORS.items():
                flag = body.block.scope.get(op)
                if flag is not None and not flag.row and flag.slot >= 0:
                    frame.slots[flag.slot] = int(event == code)
        return self._run(frame, outs)

    def _run(self, frame: Frame, outs: list[object] | None = None) -> Iterator[Row]:
        if self.depth >= MAX_DEPTH:
            raise EngineError(sc.NESTING_TOO_DEEP, near=frame.routine.name)
        self.depth += 1
        try:
            if self.trace_on or self.trace_procs:
                self.trace(f"procedure {frame.routine.name} called")
            try:
                yield from Interp(self, frame).block(frame.body.block)
            except ReturnSignal:
                pass
            except Jump:
                raise EngineError(sc.SYNTAX, near="EXIT") from None
            except GotoSignal as g:  # the parser checked reachability: not expected
                raise EngineError(sc.SYNTAX, near=g.target) from None
            if outs is not None:
                params = frame.body.params
                outs[:] = [None if (v := frame.slots[params[i].slot]) is UNSET else v
                           for i in frame.routine.outputs()]
        finally:
            dynamic.close_all(frame)
            self.depth -= 1

    def call_scalar(self, procid: int, args: tuple[object, ...]) -> object:
        """A function called inside a query (the ``ifx_spl`` SQL function): its one value."""
        return self.call_with_outs(procid, args, None)[0]

    def call_with_outs(self, procid: int, args: tuple[object, ...],
                       outs: list[object] | None = None) -> tuple[object, tuple[object, ...]]:
        """A function called inside a query: its one value and (the ``ifx_spl_out`` SQL
        function, slv.py) its OUT/INOUT parameters' final values."""
        routine = self.session.current_schema().procs.get(int(procid))
        if routine is None:
            raise EngineError(sc.NO_ROUTINE, near=str(procid))
        if outs is None and routine.outputs():
            outs = []
        saved = self.in_dml
        # called by a client's statement (no routine running, no trigger firing): its
        # context is that DML statement; a routine it calls inherits the context
        self.in_dml = saved or (self.depth == 0 and not self.firing and not self.call_args)
        try:
            rows = self.invoke(routine, list(args), outs=outs)
            try:
                first = next(rows, None)
                if first is not None and next(rows, None) is not None:
                    raise EngineError(sc.FUNCTION_ROWS, near=routine.name)
            finally:
                rows.close()  # type: ignore[attr-defined]
        finally:
            self.in_dml = saved
        return (None if first is None else first[0]), tuple(outs or ())

    # ---- TRACE -------------------------------------------------------------------------------
    def trace(self, line: str) -> None:
        if self.debug_path is None:
            return
        with open(self.debug_path, "a", encoding="utf-8") as f:
            f.write(line + "\n")

    def set_debug_file(self, name: str, append: bool) -> None:
        """SET DEBUG FILE TO: only inside the server's configured trace directory."""
        root = self.session.engine.trace_dir
        if root is None:
            raise EngineError(sc.NOT_IMPLEMENTED, near=name, message=(
                "SET DEBUG FILE is refused: the server has no --trace-dir for SPL TRACE output"))
        base = os.path.realpath(root)
        path = os.path.realpath(os.path.join(base, name.strip()))
        if os.path.commonpath([base, path]) != base or path == base:
            raise EngineError(sc.NOT_IMPLEMENTED, near=name, message=(
                f"SET DEBUG FILE TO {name!r}: outside the server's trace directory"))
        with open(path, "a" if append else "w", encoding="utf-8"):
            pass
        self.debug_path = path


class Interp(EmbeddedSql, DynamicSql):
    """Executes the statements of one frame."""

    def __init__(self, rt: Runtime, frame: Frame) -> None:
        self.rt = rt
        self.frame = frame
        self.runner = rt.runner
        self.session = rt.session

    # ---- values ------------------------------------------------------------------------------
    def values(self, node: a.ExprNode, key: object, exprs: list[exp.Expr],
               scope: dict[str, a.VarDecl], types: list[IfxType] | None = None) -> Row:
        compiled = self.runner.compile_values(node, key, exprs, scope, types)
        return self.runner.fetch_one(compiled, self.frame)

    def truth(self, node: a.ExprNode, key: object, expr: exp.Expr,
              scope: dict[str, a.VarDecl]) -> bool:
        value = self.values(node, key, [expr], scope)[0]
        return value is not None and value not in (0, "0", "f", "F", "")

    def store(self, value: object, ty: IfxType) -> object:
        """A Python value (an error code, a message) in the storage form of ``ty``."""
        return conv.storer(ty, self.session._ctx())(value)

    def recast(self, value: object, src: IfxType, dst: IfxType) -> object:
        """A storage value of type ``src`` as a storage value of type ``dst``."""
        if value is None or src.nullable().key == dst.nullable().key:
            return value
        load = conv.loader(src)
        return conv.storer(dst, self.session._ctx(), src)(load(value) if load else value)

    def assign(self, decls: list[a.VarDecl], row: Row, types: list[IfxType]) -> None:
        for decl, value, ty in zip(decls, row, types, strict=False):
            assert decl.type is not None
            self.frame.write(decl, self.recast(value, ty, decl.type))

    # ---- blocks ------------------------------------------------------------------------------
    def block(self, blk: a.Block) -> Iterator[Row]:
        frame = self.frame
        for decl in blk.decls:
            if decl.is_global:
                self.define_global(decl, blk)
            else:
                frame.slots[decl.slot] = UNSET
        mark = len(frame.handlers)
        frame.handlers.extend(reversed(blk.handlers))
        scope = blk.scope
        body = blk.body
        i = 0
        try:
            while i < len(body):
                stmt = body[i]
                i += 1
                try:
                    gen = _DISPATCH[type(stmt)](self, stmt, scope)
                    if gen is not None:
                        yield from gen
                except GotoSignal as g:
                    at = _label_index(body, g.target)
                    if at is None:
                        raise
                    i = at
                except EngineError as e:
                    handler = self.handler_for(e, scope)
                    if handler is None:
                        raise
                    if not any(handler is h for h in blk.handlers):
                        # The trap is an enclosing block's: the rest of this block (and of
                        # any between) is skipped, as a nested block or loop is a single
                        # statement of the block that declared the handler (ids_sqt_519)
                        raise Trapped(handler, e) from None
                    yield from self.handle(handler, e)
                    if not handler.resume:
                        raise Unwind(handler) from None
                except Trapped as t:
                    if not any(t.handler is h for h in blk.handlers):
                        raise
                    yield from self.handle(t.handler, t.error)
                    if not t.handler.resume:
                        raise Unwind(t.handler) from None
        except Unwind as u:
            if not any(u.handler is h for h in blk.handlers):
                raise
        finally:
            del frame.handlers[mark:]

    def define_global(self, decl: a.VarDecl, blk: a.Block) -> None:
        if decl.name in self.rt.globals:
            return
        value: object = None
        if decl.default is not None:
            assert decl.type is not None
            value = self.values(blk, ("global", decl.name), [decl.default], {},
                                [decl.type])[0]
        self.rt.globals[decl.name] = value

    def handler_for(self, e: EngineError, scope: dict[str, a.VarDecl]
                    ) -> a.OnException | None:
        frame = self.frame
        if e.sqlcode == sc.INTERRUPTED:
            return None  # the server's time budget is not the routine's to catch
        for h in reversed(frame.handlers):
            if id(h) in frame.active:
                continue
            if h.codes is None:
                return h
            codes = self.values(h, "codes", h.codes, {}, [it.INTEGER] * len(h.codes))
            if e.sqlcode in codes:
                return h
        return None

    def handle(self, h: a.OnException, e: EngineError) -> Iterator[Row]:
        frame = self.frame
        assert h.body is not None
        scope = h.body.scope
        for name, value in zip(h.set_vars, (e.sqlcode, e.isamcode, e.near or e.message),
                               strict=False):
            decl = scope[name]
            assert decl.type is not None
            frame.write(decl, self.store(value, decl.type))
        frame.active.add(id(h))
        try:
            yield from self.block(h.body)
        finally:
            frame.active.discard(id(h))

    def loop_body(self, body: a.Block, kind: str, label: str | None) -> Iterator[Row]:
        """One iteration; a matching EXIT ends the loop (raises StopLoop). A loop is where a
        routine can run forever: the request's time budget (statement_timeout) ends it."""
        state = self.session.state
        deadline = state.deadline
        if state.cancelled or (deadline is not None and time.monotonic() > deadline):
            raise EngineError(sc.INTERRUPTED, message="statement interrupted in SPL")
        try:
            yield from self.block(body)
        except Jump as j:
            if not j.matches(kind, label):
                raise
            if j.exit:
                raise _StopLoop from None

    # ---- statements ----------------------------------------------------------------------------
    def s_block(self, node: a.Block, scope: dict[str, a.VarDecl]) -> Iterator[Row]:
        return self.block(node)

    def s_let(self, node: a.Let, scope: dict[str, a.VarDecl]) -> Iterator[Row] | None:
        targets = [self.target(n, scope) for n in node.targets]
        ttypes = [t[1] for t in targets]
        if node.call is None and len(node.exprs) == 1 and len(targets) == 1:
            expr = node.exprs[0]
            if isinstance(expr, exp.Anonymous):
                routines = self.session.current_schema().routines.get(str(expr.this).lower())
                node.call = outparams.call_of(expr, routines or [])
        if node.call is not None:
            row, rtypes = self.call_one(node.call, scope)
            if len(row) != len(targets):
                raise EngineError(sc.FUNCTION_ROWS, near=node.call.name)
            row = tuple(self.recast(v, rt, t) for v, rt, t in zip(row, rtypes, ttypes,
                                                                  strict=False))
            self.put(targets, row)
            return None
        if node.mixed:
            row = self.let_items(node, scope, ttypes)
        elif node.query is not None:
            got = self.at_most_one(node, node.query, scope, ttypes)
            row = got[0] if got else (None,) * len(targets)
        else:
            row = self.values(node, "v", node.exprs, scope, ttypes)
        self.put(targets, row)
        return None

    def let_items(self, node: a.Let, scope: dict[str, a.VarDecl],
                  ttypes: list[IfxType]) -> Row:
        """``LET a, b, c = (SELECT x, y …), 15`` / ``= 7, f(…)``: each subquery gives its
        columns, each call of a routine returning several values its values, any other
        expression one value, in the order written (ids_sqs_1348, ids_sqs_1349)."""
        out: list[object] = []
        schema = self.session.current_schema()
        for k, item in enumerate(node.exprs):
            inner = item
            while isinstance(inner, exp.Paren):
                inner = inner.this
            if isinstance(inner, exp.Subquery):
                inner = inner.this
            at = len(out)
            if at >= len(ttypes):
                break
            if isinstance(inner, (exp.Select, exp.SetOperation)):
                width = len(self.runner.compile_query(node, ("w", k), inner, scope,
                                                      None).plan.types)
                got = self.at_most_one(node, inner, scope, ttypes[at:at + width], ("q", k))
                out.extend(got[0] if got else (None,) * width)
                continue
            routines = (schema.routines.get(str(inner.this).lower(), [])
                        if isinstance(inner, exp.Anonymous) else [])
            if any(len(r.returns) > 1 for r in routines):
                call = a.CallSpec(node.pos, name=str(inner.this).lower(), kind="function",
                                  args=list(inner.expressions))
                call.cache = node.cache  # (compiled per schema like the node's own)
                got_row, rtypes = self.call_one(call, scope)
                if at + len(got_row) > len(ttypes):
                    raise EngineError(sc.SYNTAX, near="LET")  # more values than targets
                out.extend(self.recast(v, rt, t) for v, rt, t in zip(
                    got_row, rtypes, ttypes[at:], strict=False))
                continue
            out.extend(self.values(node, ("i", k), [item], scope, ttypes[at:at + 1]))
        if len(out) != len(ttypes) or at >= len(ttypes):
            # more or fewer values than targets: the count a plain list is refused for at
            # CREATE (-201), known here only when the items have run
            raise EngineError(sc.SYNTAX, near="LET")
        return tuple(out)

    def target(self, name: str, scope: dict[str, a.VarDecl]) -> tuple[VarRef, IfxType]:
        """A LET target and its type: a variable, ``n.col`` of a trigger row, or a
        variable's substring ``v[m,n]`` (substrings.py: typed CHAR(n - m + 1), the span kept
        on the reference)."""
        base, span = substrings.split(name)
        if span is not None:
            if scope[base].type is None or not scope[base].type.is_string:  # type: ignore[union-attr]
                raise EngineError(sc.SYNTAX, near=f"{base}[")  # only characters have one
            ref = VarRef(scope[base])
            ref.span = span
            return ref, substrings.piece_type(span)
        row, dot, col = name.partition(".")
        decl = scope[row]
        if dot and not decl.row:  # a ROW variable's field (rowvars.py)
            ref = VarRef(decl)
            ref.fields = col.split(".")
            return ref, rowvars.field_type(decl, ref.fields)
        ref = VarRef(decl, col if dot else None)
        if dot:
            return ref, self.runner.var_type(ref)
        assert ref.decl.type is not None
        return ref, ref.decl.type

    def put(self, targets: list[tuple[VarRef, IfxType]], row: Row) -> None:
        for (ref, _), value in zip(targets, row, strict=True):
            if ref.fields:
                decl = ref.decl
                current = self.rt.globals.get(decl.name) if decl.is_global else (
                    self.frame.slots[decl.slot])
                self.frame.write(decl, rowvars.with_field(decl, current, ref.fields, value))
                continue
            span = ref.span
            if span is not None:
                decl = ref.decl
                assert decl.type is not None
                slot = self.rt.globals.get(decl.name) if decl.is_global else (
                    self.frame.slots[decl.slot])
                current = None if slot is UNSET else self.recast(slot, decl.type, _TEXT)
                whole = substrings.merged(current, value, span)
                self.frame.write(decl, self.recast(whole, _TEXT, decl.type))
                continue
            if ref.column is None:
                self.frame.write(ref.decl, value)
                continue
            values = self.frame.rows.get(ref.decl.slot)
            if values is None:
                raise EngineError(sc.NO_COLUMN, near=f"{ref.decl.name}.{ref.column}")
            values[ref.column] = value

    def s_if(self, node: a.If, scope: dict[str, a.VarDecl]) -> Iterator[Row]:
        for i, (cond, blk) in enumerate(node.branches):
            if self.truth(node, i, cond, scope):
                return self.block(blk)
        return self.block(node.orelse) if node.orelse is not None else iter(())

    def s_case(self, node: a.Case, scope: dict[str, a.VarDecl]) -> Iterator[Row]:
        for i, (cond, blk) in enumerate(node.whens):
            if self.truth(node, i, cond, scope):
                return self.block(blk)
        if node.orelse is None:
            # Guide to SQL: Syntax, CASE (SPL): "fails with runtime error -26062".
            raise EngineError(sc.CASE_NOT_DEFINED)
        return self.block(node.orelse)

    def s_for(self, node: a.For, scope: dict[str, a.VarDecl]) -> Iterator[Row]:
        decl = scope[node.var]
        ty = decl.type
        assert ty is not None and node.body is not None
        plan: list[tuple[object, object, int] | tuple[object]] = []
        for k, rng in enumerate(node.ranges):
            if rng.end is None:
                plan.append((self.values(node, ("v", k), [rng.start], scope, [ty])[0],))
                continue
            if not ty.is_integer:
                # FOR (ids_sqs_1326): a range's expressions "must match SMALLINT or INT data
                # type of loop_var"; only an expression list may hold other types
                raise EngineError(sc.LOOP_VAR_NOT_INTEGER, near=decl.name)
            exprs = [rng.start, rng.end] + ([rng.step] if rng.step is not None else [])
            got = self.values(node, ("r", k), exprs, scope, [ty, ty, it.INTEGER][:len(exprs)])
            if any(v is None for v in got):
                raise EngineError(sc.FOR_RANGE_NULL, near=decl.name)
            start, end = int(got[0]), int(got[1])  # type: ignore[call-overload]
            step = int(got[2]) if len(got) > 2 else (  # type: ignore[call-overload]
                1 if end >= start else -1)
            if step == 0:  # increment_expr "Cannot return 0" (ids_sqs_1326)
                raise EngineError(sc.STEP_ZERO)
            if (end - start) * step < 0:
                raise EngineError(sc.STEP_NO_TRAVERSE)
            plan.append((start, end, step))
        return self._for(node, decl, ty, plan)

    def _for(self, node: a.For, decl: a.VarDecl, ty: IfxType,
             plan: list[tuple[object, object, int] | tuple[object]]) -> Iterator[Row]:
        assert node.body is not None
        fit = conv.storer(ty, self.session._ctx())
        try:
            for item in plan:
                if len(item) == 1:
                    self.frame.write(decl, item[0])
                    yield from self.loop_body(node.body, "FOR", node.label)
                    continue
                start, end, step = item
                if start is None or end is None:
                    continue
                i: int = start  # type: ignore[assignment]
                while (step > 0 and i <= end) or (step < 0 and i >= end):  # type: ignore[operator]
                    self.frame.write(decl, fit(i))
                    yield from self.loop_body(node.body, "FOR", node.label)
                    current = self.frame.slots[decl.slot] if not decl.is_global else (
                        self.rt.globals.get(decl.name))
                    if not isinstance(current, int):
                        break
                    i = current + step
        except _StopLoop:
            return

    def s_while(self, node: a.While, scope: dict[str, a.VarDecl]) -> Iterator[Row]:
        assert node.cond is not None and node.body is not None
        try:
            while self.truth(node, "c", node.cond, scope):
                yield from self.loop_body(node.body, "WHILE", node.label)
        except _StopLoop:
            return

    def s_loop(self, node: a.Loop, scope: dict[str, a.VarDecl]) -> Iterator[Row]:
        assert node.body is not None
        try:
            while True:
                yield from self.loop_body(node.body, "LOOP", node.label)
        except _StopLoop:
            return

    def s_jump(self, node: a.Jump, scope: dict[str, a.VarDecl]) -> None:
        if node.when is not None and not self.truth(node, "w", node.when, scope):
            return
        raise Jump(node.exit, node.kind, node.label)

    def s_foreach(self, node: a.Foreach, scope: dict[str, a.VarDecl]) -> Iterator[Row]:
        decls = [scope[n] for n in node.into]
        types: list[IfxType] = [d.type for d in decls]  # type: ignore[misc]
        rowid_col = -1
        table: Any = None
        source: Iterator[Row]
        if node.call is not None:
            source, rtypes = self.call_rows(node.call, scope)
            if len(rtypes) != len(decls):
                raise EngineError(sc.NO_ROUTINE, near=node.call.name)
        else:
            assert node.query is not None and node.query.tree is not None
            self._refuse_cursor_function(node.query.tree)
            rtypes = types
            compiled = None
            if node.cursor is not None and _uses_current(node):
                compiled = self.runner.compile_query(node, "qr", node.query.tree, scope, types,
                                                     rowid=True)
                rowid_col = len(decls)
                table = compiled.plan.table
            else:
                compiled = self.runner.compile_query(node, "q", node.query.tree, scope, types)
            if len(compiled.plan.types) != len(decls):
                raise EngineError(sc.SYNTAX)
            source = self.runner.rows(compiled, self.frame)
        return self._foreach(node, decls, rtypes, source, rowid_col, table)

    def _refuse_cursor_function(self, tree: exp.Expr) -> None:
        """Tutorial, "Execute cursor functions from an SPL routine": ``FOREACH SELECT
        cur_func(col) INTO v FROM tab`` gives a row per value the cursor function returns.
        We do not expand those rows: refuse (-999) rather than answer -686."""
        if not isinstance(tree, exp.Select):
            return
        iterators = {r.name.lower() for r in self.session.current_schema().procs.values()
                     if r.iterator}
        if not iterators:
            return
        for item in tree.expressions:
            for call in item.find_all(exp.Anonymous):
                if str(call.name).lower() in iterators:
                    raise not_implemented(f"cursor function {call.name} in a FOREACH SELECT list")

    def _foreach(self, node: a.Foreach, decls: list[a.VarDecl], rtypes: list[IfxType],
                 source: Iterator[Row], rowid_col: int, table: Any) -> Iterator[Row]:
        assert node.body is not None
        # Informix closes a cursor not declared WITH HOLD when the transaction ends; the next
        # fetch is then -400 (a FOREACH left with EXIT after the COMMIT is no error).
        opened = self.session.transactions_ended
        try:
            for row in source:
                self.sqlcode(0)
                self.assign(decls, row, rtypes)
                if rowid_col >= 0 and node.cursor is not None:
                    self.frame.cursors[node.cursor] = (table, row[rowid_col])
                yield from self.loop_body(node.body, "FOREACH", node.label)
                if not node.hold and self.session.transactions_ended != opened:
                    raise EngineError(sc.FETCH_UNOPENED)
            self.sqlcode(100)  # the cursor reached the end of its active set
        except _StopLoop:
            return
        finally:
            close = getattr(source, "close", None)
            if close is not None:
                close()
            if node.cursor is not None:
                self.frame.cursors.pop(node.cursor, None)

    def s_return(self, node: a.Return, scope: dict[str, a.VarDecl]) -> Iterator[Row]:
        if node.exprs:
            routine = self.frame.routine
            row = self.values(node, "r", node.exprs, scope, list(routine.returns))
            if self.rt.trace_on:
                self.rt.trace(f"return {', '.join(map(str, row))}")
            yield row
        if not node.resume:
            raise ReturnSignal

    def s_call(self, node: a.CallSpec, scope: dict[str, a.VarDecl]) -> None:
        if not node.into:
            rows, _ = self.call_rows(node, scope)
            try:
                for _ in rows:
                    pass
            finally:
                rows.close()  # type: ignore[attr-defined]
            return
        decls = [scope[n] for n in node.into]
        row, rtypes = self.call_one(node, scope)
        if row:
            if len(row) != len(decls):
                raise EngineError(sc.NO_ROUTINE, near=node.name)
            self.assign(decls, row, rtypes)

    def call_one(self, node: a.CallSpec, scope: dict[str, a.VarDecl]) -> tuple[
            Row, list[IfxType]]:
        """Call a routine for its one row of values (an empty row if it returned none)."""
        rows, rtypes = self.call_rows(node, scope)
        try:
            first = next(rows, None)
            if first is not None and next(rows, None) is not None:
                raise EngineError(sc.FUNCTION_ROWS, near=node.name)
        finally:
            rows.close()  # type: ignore[attr-defined]
        return (first or ()), rtypes

    def call_rows(self, node: a.CallSpec, scope: dict[str, a.VarDecl]) -> tuple[
            Iterator[Row], list[IfxType]]:
        schema = self.session.current_schema()
        name, owner = self.routine_name(node, scope)
        found = candidates(schema.routines.get(name, []), node.kind, len(node.args))
        if owner is not None:
            found = [r for r in found if r.owner.lower() == owner.lower()]
        if len(found) > 1:
            types = self.runner.compile_values(node, "types", node.args, scope).plan.types
            routine = choose(name, found, types)
        else:
            routine = choose(name, found, [])
        rights = self.session.routine_rights(self.frame.routine)
        if not isinstance(rights, bool):
            self.session.check_execute(routine.procid, rights)
        targets = outparams.out_targets(routine, node.args, scope)
        args = self.call_args(node, routine, scope)
        rows = None
        if node.trigger_refs:
            rows = dict(self.frame.rows)
        if self.rt.trace_on or self.rt.trace_procs:
            self.rt.trace(f"call {routine.name}({', '.join(map(str, args))})")
        if not targets:
            return self.rt.invoke(routine, args, rows), list(routine.returns)
        outs: list[object] = []
        types = [routine.params[i][1] for i in routine.outputs()]
        produced = self.rt.invoke(routine, args, rows, outs)
        return (outparams.with_outputs(produced, outs,
                                       lambda row: self.assign(targets, row, types)),
                list(routine.returns))

    def routine_name(self, node: a.CallSpec, scope: dict[str, a.VarDecl]
                     ) -> tuple[str, str | None]:
        """The routine a call names: ``EXECUTE PROCEDURE v(…)`` where ``v`` is a character
        variable calls the routine whose name ``v`` holds (Guide to SQL: Tutorial, "Dynamic
        routine-name specification", ids_sqt_501 / ids_sqt_502; Syntax, EXECUTE PROCEDURE /
        FUNCTION: "even if a built-in function of the same name exists")."""
        decl = scope.get(node.name) if node.owner is None else None
        if decl is None or decl.row or decl.type is None or not decl.type.is_string:
            return node.name, node.owner
        value = self.frame.read(VarRef(decl))
        text = "" if value is None else str(value).strip()
        if not text:
            raise EngineError(sc.NO_ROUTINE, near=node.name)
        owner, dot, name = text.rpartition(".")
        return name.lower(), (owner.strip('"') if dot else None)

    def call_args(self, node: a.CallSpec, routine: Routine, scope: dict[str, a.VarDecl]
                  ) -> list[object]:
        exprs = outparams.input_exprs(routine, outparams.named_args(routine, node.args))
        exprs += default_exprs(routine, len(exprs))
        if not exprs:
            return []
        return list(self.values(node, ("args", routine.procid), exprs, scope,
                                [t for _, t in routine.params]))

    def s_goto(self, node: a.Goto, scope: dict[str, a.VarDecl]) -> None:
        raise GotoSignal(node.target)

    def s_raise(self, node: a.Raise, scope: dict[str, a.VarDecl]) -> None:
        types = [it.INTEGER, it.INTEGER, _TEXT][: len(node.args)]
        got = self.values(node, "x", node.args, scope, types)
        sqlcode = got[0]
        if not isinstance(sqlcode, int):
            raise EngineError(sc.SYNTAX, near="RAISE")
        isam = got[1] if len(got) > 1 and isinstance(got[1], int) else 0
        text = str(got[2]) if len(got) > 2 and got[2] is not None else ""
        raise EngineError(sqlcode, isam, near=text)

    def s_trace(self, node: a.Trace, scope: dict[str, a.VarDecl]) -> None:
        if self.rt.debug_path is None:
            # TRACE (ids_sqs_1362): "If you use the TRACE statement before you specify a
            # DEBUG file to contain the output, an error is generated": -687
            raise EngineError(sc.TRACE_NO_DEBUG_FILE)
        if node.mode == "on":
            self.rt.trace_on, self.rt.trace_procs = True, True
            self.rt.trace("trace on")  # the first lines of ids_sqt_553's sample output
        elif node.mode == "off":
            self.rt.trace_on = self.rt.trace_procs = False
        elif node.mode == "procedure":
            self.rt.trace_on, self.rt.trace_procs = False, True
        else:
            assert node.expr is not None
            value = self.values(node, "e", [node.expr], scope, [_TEXT])[0]
            self.rt.trace(f"trace expression :{value}")

    def s_debug(self, node: a.DebugFile, scope: dict[str, a.VarDecl]) -> None:
        assert node.expr is not None
        name = self.values(node, "e", [node.expr], scope, [_TEXT])[0]
        self.rt.set_debug_file(str(name or ""), node.append)

    def s_system(self, node: a.System, scope: dict[str, a.VarDecl]) -> None:
        assert node.expr is not None
        command = self.values(node, "e", [node.expr], scope, [_TEXT])[0]
        raise EngineError(sc.SYSTEM_FAILED, message=(
            f"System command cannot be executed: ifxwire-server does not run SYSTEM "
            f"({str(command)[:60]!r})"))

    def s_exec_immediate(self, node: a.ExecImmediate, scope: dict[str, a.VarDecl]) -> None:
        assert node.expr is not None
        compiled = self.runner.compile_values(node, "e", [node.expr], scope)
        text = self.runner.fetch_one(compiled, self.frame)[0]
        if text is None:
            raise EngineError(sc.DYN_NULL_TEXT)
        if not compiled.plan.types[0].is_string:
            raise EngineError(sc.DYN_TEXT_TYPE)
        dynamic.one_statement(str(text), self.session._delimident())
        prepared = self.session.prepare(str(text))
        if prepared.is_query:
            raise EngineError(sc.NOT_IN_SPL, near=str(text)[:40])
        self.session.execute(prepared, [])

def _uses_current(node: a.Foreach) -> bool:
    """Whether the loop body updates or deletes WHERE CURRENT OF this FOREACH's cursor."""
    found = getattr(node, "_uses_current", None)
    if found is None:
        found = False
        stack = [node.body] if node.body is not None else []
        while stack and not found:
            blk = stack.pop()
            for stmt in blk.body:
                if isinstance(stmt, a.Sql) and stmt.current_of == node.cursor:
                    found = True
                    break
            stack.extend(_blocks(blk))
        node._uses_current = found  # type: ignore[attr-defined]
    return bool(found)


def default_exprs(routine: Routine, given: int) -> list[exp.Expr]:
    """The DEFAULT expressions of the parameters a call left out."""
    out: list[exp.Expr] = []
    for text in routine.defaults[given:]:
        if text is None:
            raise EngineError(sc.NO_ROUTINE, near=routine.name)
        out.extend(parse_expressions(text, routine.delimident))
    return out


_DISPATCH: dict[type, Callable[[Interp, Any, dict[str, a.VarDecl]], Iterator[Row] | None]] = {
    a.Block: Interp.s_block,
    a.Let: Interp.s_let,
    a.If: Interp.s_if,
    a.Case: Interp.s_case,
    a.For: Interp.s_for,
    a.While: Interp.s_while,
    a.Loop: Interp.s_loop,
    a.Jump: Interp.s_jump,
    a.Foreach: Interp.s_foreach,
    a.Return: Interp.s_return,
    a.CallSpec: Interp.s_call,
    a.Raise: Interp.s_raise,
    a.Goto: Interp.s_goto,
    a.Trace: Interp.s_trace,
    a.DebugFile: Interp.s_debug,
    a.System: Interp.s_system,
    a.ExecImmediate: Interp.s_exec_immediate,
    a.Sql: Interp.s_sql,
    a.Prepare: Interp.s_prepare,
    a.Declare: Interp.s_declare,
    a.Open: Interp.s_open,
    a.Fetch: Interp.s_fetch,
    a.Close: Interp.s_close,
    a.Free: Interp.s_free,
}


# The SQL translation (sql layer) calls this through its hooks (sql/hooks.py).
TRANSLATION.default_exprs = default_exprs
