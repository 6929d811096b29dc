"""Statement-local variables (SLVs): ``WHERE f(x, v # INTEGER) …`` then ``v`` elsewhere in the
query.

Informix (Guide to SQL: Syntax, "Statement-Local Variable Declaration" and "Statement-Local
Variable Expressions"; User-Defined Routines guide, "Statement-local variables (SLVs)"):
an SLV is declared, ``name # type``, as the argument for an OUT or INOUT parameter of a
user-defined function called in the WHERE clause of a query; the call assigns the parameter's
final value to it; it is read-only, visible in the query that declares it and in the
subqueries nested in that query, not in enclosing queries; its name is unique in the
statement. The errors are the message catalogue's (JDBC jar): -9780 declared outside a WHERE
clause, -9781 in EXECUTE/CALL, -9782 declared twice, -9784 used outside its query, -9787
in a FROM clause, -9752 a non-SLV argument for an OUT parameter.

Here the producing call is ``ifx_spl_out(procid, keys, args…)``: it runs the routine, keeps
its OUT values in the session's FunctionState under the SLVs' keys and returns its value. A
use is ``ifx_slv(key, columns…)``, converted from the parameter's type to the declared one;
the columns are the producer's, so SQLite evaluates a use at the loop level of the producer,
and the WHERE conjuncts that declare SLVs are moved first, so in each row the producer runs
before the uses (both are non-deterministic SQL functions: SQLite neither hoists nor caches
them). A query with GROUP BY or aggregates that uses an SLV is refused (-999): which row's
value an aggregate row holds is not known to us.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlglot import exp

from ..core import sqlcodes as sc
from ..core.errors import EngineError, not_implemented
from ..core.ifxtypes import IfxType
from .exprs import func, keylit, typed
from .hooks import TRANSLATION
from .ifxnodes import IfxSlv, IfxSlvRef

if TYPE_CHECKING:
    from ..schema.routines import Routine
    from .exprs import ExprTranslator
    from .translate import Compiler


def bind(compiler: Compiler, ast: exp.Expr) -> None:
    """Check each SLV declaration's place, find its routine and parameter, and replace the
    names that use it by IfxSlvRef nodes (before columns are qualified)."""
    decls = list(ast.find_all(IfxSlv))
    if not decls:
        return
    names: set[str] = set()
    in_scope: dict[int, dict[str, IfxSlv]] = {}
    for decl in decls:
        name = decl.name
        if name in names:
            raise EngineError(sc.SLV_TWICE, near=name)
        names.add(name)
        select = decl.find_ancestor(exp.Select)
        where = select.args.get("where") if select is not None else None
        if select is None or where is None or not _within(decl, where):
            from_ = select is not None and any(
                _within(decl, part) for part in (select.args.get("from_"),
                                                 *select.args.get("joins", ())) if part)
            raise EngineError(sc.SLV_IN_FROM if from_ else sc.SLV_OUTSIDE_WHERE, near=name)
        call = decl.parent
        if not isinstance(call, exp.Anonymous):
            raise EngineError(sc.SLV_OUTSIDE_WHERE, near=name)
        routine, position = _producer(compiler, call, decl)
        declared = decl.args["kind"].meta.get("ifx")
        if not isinstance(declared, IfxType):
            raise not_implemented(f"statement-local variable {name} of that type")
        decl.meta.update(key=f"slv{compiler.sequence_tag()[0]}_{name}", declared=declared,
                         source=routine.params[position][1], routine=routine)
        in_scope.setdefault(id(select), {})[name] = decl
        _producers_first(where)
    for col in list(ast.find_all(exp.Column)):
        if col.table or col.name not in names:
            continue
        visible = _visible(col, in_scope)
        if visible is None:
            raise EngineError(sc.SLV_OUT_OF_SCOPE, near=col.name)
        ref = IfxSlvRef(this=col.name)
        ref.meta["decl"] = visible
        select = col.find_ancestor(exp.Select)
        if select is not None and (select.args.get("group") or any(
                isinstance(p, exp.AggFunc) for p in select.find_all(exp.AggFunc))):
            raise not_implemented(f"statement-local variable {col.name} in an aggregate query")
        if isinstance(col.parent, exp.Select) and col.arg_key == "expressions":
            col.replace(exp.Alias(this=ref, alias=exp.to_identifier(col.name)))
        else:
            col.replace(ref)


def _within(node: exp.Expr, root: exp.Expr) -> bool:
    up: exp.Expr | None = node
    while up is not None:
        if up is root:
            return True
        up = up.parent
    return False


def _visible(col: exp.Column, in_scope: dict[int, dict[str, IfxSlv]]) -> IfxSlv | None:
    """The declaration a name in this query or an enclosing one makes visible here."""
    select = col.find_ancestor(exp.Select)
    while select is not None:
        decl = in_scope.get(id(select), {}).get(col.name)
        if decl is not None:
            return decl
        select = select.find_ancestor(exp.Select)
    return None


def _producer(compiler: Compiler, call: exp.Anonymous, decl: IfxSlv) -> tuple[Routine, int]:
    """The routine a call that declares SLVs runs, and the parameter ``decl`` receives."""
    name = str(call.this).lower()
    args = list(call.expressions)
    slvs = [i for i, arg in enumerate(args) if isinstance(arg, IfxSlv)]
    found = [r for r in TRANSLATION.candidates(compiler.lookup.routines(name), "function",
                                                len(args))
             if set(slvs) <= set(r.outputs())]
    if not found:
        raise EngineError(sc.NO_ROUTINE, near=name)
    if len(found) > 1:
        raise not_implemented(f"overloaded function {name} producing statement-local "
                              "variables")
    return found[0], args.index(decl)


def _producers_first(where: exp.Expr) -> None:
    """Move the WHERE conjuncts that declare SLVs before the others (SQLite evaluates the
    conjuncts of one loop level in order)."""
    terms = list(where.this.flatten()) if isinstance(where.this, exp.And) else [where.this]
    first = [t for t in terms if any(True for _ in t.find_all(IfxSlv))]
    if len(terms) < 2 or terms[: len(first)] == first:
        return
    ordered = first + [t for t in terms if t not in first]
    node = ordered[0]
    for term in ordered[1:]:
        node = exp.And(this=node, expression=term)
    where.set("this", node)


def producer_call(compiler: Compiler, tx: ExprTranslator, call_name: str,
                  args: list[exp.Expr]) -> exp.Expr:
    """``f(x, v # T)`` in a WHERE clause: ifx_spl_out(procid, keys, inputs…)."""
    decls = [arg for arg in args if isinstance(arg, IfxSlv)]
    routine: Routine = decls[0].meta["routine"]
    by_position = {args.index(d): d for d in decls}
    keys = []
    for i in routine.outputs():
        decl = by_position.get(i)
        if decl is None:  # an OUT/INOUT argument that is no SLV
            raise EngineError(sc.OUT_ARGUMENT, near=call_name)
        keys.append(str(decl.meta["key"]))
    if len(routine.returns) != 1:
        raise EngineError(sc.NO_ROUTINE, near=call_name)
    compiler.called(routine)
    inputs = [exp.Null() if isinstance(arg, IfxSlv) else arg
              for arg in TRANSLATION.input_exprs(routine, args)]
    inputs += TRANSLATION.default_exprs(routine, len(inputs))
    converted = [tx.convert(tx.tx(arg), t) for arg, (_, t) in zip(inputs, routine.params,
                                                                   strict=True)]
    node = func("ifx_spl_out", exp.Literal.number(routine.procid),
                exp.Literal.string("|".join(keys)), *converted)
    return typed(node, routine.returns[0].nullable())


def reference(tx: ExprTranslator, ref: IfxSlvRef) -> exp.Expr:
    """A use of an SLV: its value from the producing call, in its declared type."""
    decl: IfxSlv = ref.meta["decl"]
    source: IfxType = decl.meta["source"]
    declared: IfxType = decl.meta["declared"]
    call = decl.parent
    same_query = ref.find_ancestor(exp.Select) is decl.find_ancestor(exp.Select)
    row = [tx.tx(c.copy()) for arg in call.expressions if not isinstance(arg, IfxSlv)
           for c in arg.find_all(exp.Column)] if same_query and call is not None else []
    value = typed(func("ifx_slv", exp.Literal.string(str(decl.meta["key"])), *row),
                  source.nullable())
    if source.nullable() == declared.nullable():
        return value
    return typed(func("ifx_cast", value, keylit(source.nullable()),
                      keylit(declared.nullable())), declared.nullable())
