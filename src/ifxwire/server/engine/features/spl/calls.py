"""Where routines are called from: EXECUTE PROCEDURE/FUNCTION, queries, and the fast path.

* ``compile_call``: a client's ``EXECUTE PROCEDURE|FUNCTION name(args)`` becomes a "call"
  plan: the arguments compiled as one row converted to the parameter types (``?`` arguments
  described by those types), and the result columns from the RETURNING clause (statement
  type 56). ``open_call`` runs it as a cursor (rows stream from the interpreter's generator,
  so a WITH RESUME routine is read in constant memory), ``execute_call`` as a statement.
* ``routine_call``: a function named in a query expression. A one-RETURN function over its
  parameters is expanded inline; any other runs through the ``ifx_spl(procid, args…)`` SQL
  function, which enters the interpreter from inside SQLite.
* ``call_routine``: the engine entry point for callers outside SQL (the fast path): a routine
  by name or signature, Python values in, rows of Python values out.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from sqlglot import exp

from .....protocol.codes import StmtType
from ...core import convert as conv
from ...core import sqlcodes as sc
from ...core.errors import EngineError
from ...core.errors import internal as _internal
from ...core.ifxtypes import IfxType
from ...schema.catalog import quote
from ...schema.routines import Routine
from ...sql import udt_casts
from ...sql.exprs import func, ty, typed
from ...sql.hooks import TRANSLATION
from ...sql.ifxnodes import IfxSlv, ifx_type_node
from ...sql.prepared import ExecResult
from ...sql.slv import producer_call
from ...sql.translate import Compiler as _Compiler
from ...sql.translate import Plan
from . import ast as a
from . import outparams
from .interp import Runtime, default_exprs
from .parser import parse_types
from .resolve import candidates, choose

if TYPE_CHECKING:
    from ...sql.exprs import ExprTranslator
    from ...sql.prepared import ExecResult
    from ...sql.translate import Compiler, Plan
    from ..session_api import FeatureSession

UNNAMED = "(expression)"  # how Informix names a routine's unnamed return values


def runtime(session: FeatureSession) -> Runtime:
    rt = session.spl
    if rt is None:
        rt = session.spl = Runtime(session)
    return rt


def _resolve(compiler: Compiler, call: a.CallSpec) -> Routine:
    found = candidates(compiler.lookup.routines(call.name), call.kind, len(call.args))
    if call.owner is not None:
        found = [r for r in found if r.owner.lower() == call.owner.lower()]
    if len(found) > 1:
        probe = _Compiler(compiler.lookup, compiler.ctx, compiler.delimident)
        probe.allow_bare_params = True
        types = probe.compile_query(exp.Select(
            expressions=[e.copy() for e in call.args])).types if call.args else []
        return choose(call.name, found, types)
    return choose(call.name, found, [])


def _plain_value(e: exp.Expr) -> bool:
    """A constant or a host variable: never of a DISTINCT type."""
    if isinstance(e, exp.Neg):
        e = e.this
    return isinstance(e, exp.Literal | exp.Null | exp.Boolean | exp.Placeholder
                      | exp.Parameter)


def _check_arguments(compiler: Compiler, routine: Routine, given: list[exp.Expr]) -> None:
    """-674 when an argument may not be passed to its parameter (DISTINCT types:
    ``udt_casts.argument_fits``); the arguments' types from a probe compilation."""
    find = compiler.cast_finder()
    if find is None or not given:
        return
    if not any(t.distinct for _, t in routine.params) and all(map(_plain_value, given)):
        return  # constants and parameters are of no DISTINCT type: no probe compilation
    probe = _Compiler(compiler.lookup, compiler.ctx, compiler.delimident)
    probe.allow_bare_params = True
    try:
        types = probe.compile_query(exp.Select(expressions=[e.copy() for e in given])).types
    except EngineError:
        return  # an argument typed only by its parameter (a collection literal, …): the
        # compilation of the call itself reports what is wrong
    udt_casts.check_arguments(find, routine.name, [
        (t, udt_casts.free_text(e)) for t, e in zip(types, given, strict=False)],
        [t for _, t in routine.params])


def _check_inline(tx: ExprTranslator, routine: Routine, args: list[exp.Expr]) -> None:
    """An inline function's arguments, which expansion CASTs to the parameters' types,
    checked first as a call takes them (``udt_casts.argument_fits``): every argument when a
    parameter is of a DISTINCT type, else each bare column (translating a copy of it has no
    side effect)."""
    every = any(t.distinct for _, t in routine.params)
    seen: list[tuple[IfxType | None, bool]] = []
    for arg in args:
        probe = None
        if every or isinstance(arg, exp.Column):
            try:
                probe = tx.tx(arg.copy())
            except EngineError:
                probe = None  # the expansion's own translation reports it
        seen.append((None, True) if probe is None else (
            ty(probe), udt_casts.passes_freely(probe)))
    udt_casts.check_arguments(tx.find_cast, routine.name, seen, [t for _, t in routine.params])


def compile_call(compiler: Compiler, call: a.CallSpec) -> Plan:
    if call.into:
        raise EngineError(sc.SYNTAX, near="INTO")
    if any(True for arg in call.args for _ in arg.find_all(IfxSlv)):
        raise EngineError(sc.SLV_IN_CALL)
    native = TRANSLATION.native_call(compiler, call, getattr(compiler.lookup, "database", None))
    if native is not None:  # syscdcv1's cdc_* routines (cdc/routines.py)
        return native
    routine = _resolve(compiler, call)
    compiler.routine_names.add(routine.name.lower())  # (its Execute privilege: plan.routine)
    outparams.refuse_outputs(routine, len(compiler.lookup.routines(call.name)))
    plan = Plan("call", StmtType.EXECUTE_PROCEDURE)
    given = outparams.named_args(routine, [e.copy() for e in call.args])
    _check_arguments(compiler, routine, given)
    exprs = given + default_exprs(routine, len(given))
    if exprs:
        compiler.allow_bare_params = True
        args = compiler.compile_query(exp.Select(expressions=exprs),
                                      [t for _, t in routine.params])
        plan.sql = args.sql
        plan.params = args.params
        plan.tables = dict(compiler.tables)
    names = routine.return_names or [None] * len(routine.returns)
    plan.names = [n or UNNAMED for n in names]
    plan.types = [t.nullable() for t in routine.returns]
    plan.routine = routine.procid
    return plan.finish(compiler.ctx)


def _routine_of(session: FeatureSession, plan: Plan) -> Routine:
    routine = session.current_schema().procs.get(int(plan.routine or 0))
    if routine is None:
        raise EngineError(sc.NO_ROUTINE, near=plan.routine_name(int(plan.routine or 0)))
    return routine


def _args(session: FeatureSession, plan: Plan, bound: dict[str, object]) -> list[object]:
    """EXECUTE PROCEDURE / FUNCTION's arguments: a function called here is not in a DML
    statement's context (``Runtime.in_dml``)."""
    if not plan.sql:
        return []
    session.state.error = None
    rt = runtime(session)
    rt.call_args += 1
    try:
        row = session._connection().execute(plan.sql, bound).fetchone()
    except sqlite3.Error as e:
        raise session._map_error(e, plan) from None
    finally:
        rt.call_args -= 1
    return list(row)


def execute_call(session: FeatureSession, plan: Plan, bound: dict[str, object]) -> ExecResult:
    if plan.native:
        for _ in TRANSLATION.native_run(session, plan, _args(session, plan, bound)):
            pass
        return ExecResult(0)
    routine = _routine_of(session, plan)
    rows = runtime(session).invoke(routine, _args(session, plan, bound))
    try:
        for _ in rows:
            pass
    finally:
        rows.close()  # type: ignore[attr-defined]
    return ExecResult(0)


def open_call(session: FeatureSession, plan: Plan, bound: dict[str, object]
              ) -> Iterator[tuple[object, ...]]:
    if plan.native:
        rows: Iterator[tuple[object, ...]] = TRANSLATION.native_run(
            session, plan, _args(session, plan, bound))
        return rows
    routine = _routine_of(session, plan)
    rows = runtime(session).invoke(routine, _args(session, plan, bound))
    return _loaded(rows, routine)


def _loaded(rows: Iterator[tuple[object, ...]], routine: Routine
            ) -> Iterator[tuple[object, ...]]:
    """Storage rows as the Python values the wire encoder expects. Any unexpected error is
    reported as -999 rather than ending the client's session."""
    loaders = [conv.loader(t) for t in routine.returns]
    try:
        for row in rows:
            yield tuple(v if f is None or v is None else f(v)
                        for f, v in zip(loaders, row, strict=False))
    except (EngineError, GeneratorExit):
        raise
    except Exception as e:
        raise _internal(e) from None
    finally:
        rows.close()  # type: ignore[attr-defined]


def routine_call(compiler: Compiler, tx: ExprTranslator, name: str, args: list[exp.Expr]
                 ) -> exp.Expr | None:
    """A stored function called in an expression; None if no routine has that name."""
    routines = compiler.lookup.routines(name)
    if not routines:
        return None
    if any(isinstance(arg, IfxSlv) for arg in args):
        return producer_call(compiler, tx, name, args)
    found = candidates(routines, "function", len(args))
    if len(found) == 1 and found[0].inline and len(args) == len(found[0].params):
        outparams.refuse_outputs(found[0])
        _check_inline(tx, found[0], args)
        compiler.called(found[0])
        exprs = expand(found[0], args, compiler.parse_exprs)
        if len(exprs) != 1:
            raise EngineError(sc.NO_ROUTINE, near=name)
        return exprs[0]
    targs = [tx.tx(arg) for arg in args]
    routine = choose(name, found, [ty(arg) for arg in targs])
    udt_casts.check_arguments(tx.find_cast, routine.name, [
        (ty(arg), udt_casts.passes_freely(arg)) for arg in targs], [t for _, t in routine.params])
    outparams.refuse_outputs(routine)
    if len(routine.returns) != 1:
        raise EngineError(sc.NO_ROUTINE, near=name)
    compiler.called(routine)
    targs += [tx.tx(e) for e in default_exprs(routine, len(targs))]
    converted = [tx.convert(arg, t) for arg, (_, t) in zip(targs, routine.params, strict=True)]
    node = func("ifx_spl", exp.Literal.number(routine.procid), *converted)
    return typed(node, routine.returns[0].nullable())


def call_routine(session: FeatureSession, name: str, args: Sequence[object],
                 kind: str = "function", param_types: Sequence[Any] | None = None,
                 outs: list[object] | None = None) -> Iterator[tuple[object, ...]]:
    """Run a stored routine from outside SQL (the fast path): ``name`` may be ``name``,
    ``owner.name`` or a signature ``name(integer, char(10))`` (types then choose among
    overloads). ``args`` are Python values as a client binds them; the rows come back as
    Python values. The caller's statement bookkeeping (locks, autocommit) is the session's:
    each SQL statement the routine runs commits by itself outside a transaction."""
    owner: str | None = None
    sig: list[Any] | None = list(param_types) if param_types is not None else None
    text = name.strip()
    if "(" in text:
        text, _, rest = text.partition("(")
        sig = parse_types(rest.rsplit(")", 1)[0], types=session.current_schema().types)
    text = text.strip()
    if text.lower().startswith(("function ", "procedure ", "routine ")):
        kind_word, text = text.split(None, 1)
        kind = "function" if kind_word.lower() == "function" else "any"
    if "." in text:
        owner, text = text.split(".", 1)
    rname = text.strip().lower()
    schema = session.current_schema()
    found = candidates(schema.routines.get(rname, []), kind, len(args))
    if owner is not None:
        found = [r for r in found if r.owner.lower() == owner.lower()]
    if sig is not None:
        keys = [t.nullable().key for t in sig]
        found = [r for r in found if [t.key for _, t in r.params][: len(keys)] == keys]
    routine = choose(rname, found, [])
    session.check_execute(routine.procid)
    if routine.outputs() and outs is None:
        # Their values travel in SQ_FPARAM calls only (PROTOCOL.md §10); running the call
        # without would drop them.
        raise EngineError(sc.NOT_IMPLEMENTED, near=routine.name, message=(
            "a fast-path call of a routine with OUT or INOUT parameters needs SQ_FPARAM"))
    ctx = session._ctx()
    args = outparams.input_values(routine, args)
    values = [conv.storer(t, ctx)(v) for v, (_, t) in zip(args, routine.params, strict=False)]
    if len(values) < len(routine.params):
        rt = runtime(session)
        more = default_exprs(routine, len(values))
        node = a.ExprNode(0)
        compiled = rt.runner.compile_values(node, "defaults", more, {},
                                            [t for _, t in routine.params[len(values):]])
        values += list(rt.runner.fetch_one(compiled, None))  # type: ignore[arg-type]
    session._start_statement()
    if outs is None:
        return _loaded(runtime(session).invoke(routine, values), routine)
    raw: list[object] = []
    rows = _loaded(runtime(session).invoke(routine, values, None, raw), routine)
    loaders = [conv.loader(routine.params[i][1]) for i in routine.outputs()]
    return outparams.with_outputs(rows, raw, lambda got: outs.extend(
        v if f is None or v is None else f(v) for v, f in zip(got, loaders, strict=True)))


def expand(routine: Routine, args: list[exp.Expr], parse_exprs: object) -> list[exp.Expr]:
    """The RETURN expressions of an inline SPL function with each parameter replaced by its
    argument cast to the parameter type, each wrapped in a cast to its RETURNING type."""
    if len(args) != len(routine.params) or not routine.inline:
        raise EngineError(sc.NO_ROUTINE, near=routine.name)
    assert callable(parse_exprs)
    exprs: list[exp.Expr] = parse_exprs(routine.inline)
    if len(exprs) != len(routine.returns):
        raise EngineError(sc.NO_ROUTINE, near=routine.name)
    values = {name: exp.Cast(this=arg.copy(), to=ifx_type_node(ty))
              for (name, ty), arg in zip(routine.params, args, strict=True)}
    out: list[exp.Expr] = []
    for e, rtype in zip(exprs, routine.returns, strict=True):
        for col in list(e.find_all(exp.Column)):
            if not col.table and col.name.lower() in values:
                col.replace(values[col.name.lower()].copy())
        if isinstance(e, exp.Column) and not e.table and e.name.lower() in values:
            e = values[e.name.lower()].copy()
        out.append(exp.Cast(this=e, to=ifx_type_node(rtype)))
    return out


# The SQL translation (sql layer) calls these through its hooks (sql/hooks.py).
TRANSLATION.compile_call = compile_call


def compile_table_function(compiler: Compiler, name: str, owner: str | None,
                           args: list[exp.Expr]) -> Plan:
    """TABLE(FUNCTION …)'s call (Compiler.table_function): compiled as EXECUTE FUNCTION."""
    return compile_call(compiler, a.CallSpec(0, name=name, owner=owner, args=args,
                                             kind="function"))


def fill_table_functions(session: FeatureSession, plan: Plan,
                         bound: dict[str, object]) -> None:
    """Fill each TABLE(FUNCTION …) source of ``plan`` with its routine's rows, in the
    session's TEMP table of the call (made on the first use; emptied each time)."""
    conn = session._connection()
    for temp, call, decls in plan.prelude:
        q = quote(temp)
        conn.execute(f"CREATE TEMP TABLE IF NOT EXISTS {q} ({decls})")
        conn.execute(f"DELETE FROM temp.{q}")
        routine = _routine_of(session, call)
        rows = runtime(session).invoke(routine, _args(session, call, bound))
        try:
            got = list(rows)  # (the routine's own SQL runs between the rows)
        finally:
            rows.close()  # type: ignore[attr-defined]
        if got:
            marks = ", ".join("?" * len(call.types))
            conn.executemany(f"INSERT INTO temp.{q} VALUES ({marks})",
                             [tuple(r)[: len(call.types)] for r in got])


TRANSLATION.compile_table_function = compile_table_function
TRANSLATION.fill_table_functions = fill_table_functions
TRANSLATION.routine_call = routine_call
