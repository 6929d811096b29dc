"""Compile one Informix statement into a ``Plan``: SQLite SQL plus the exact Informix description.

Queries go through four steps: resolve table names against the catalog (``db:owner.table``,
``sysmaster:``, virtual tables), let sqlglot's ``qualify_columns`` expand ``*`` and attach every
column to its source, turn Informix ``OUTER`` tables into LEFT JOINs, then walk each scope
(innermost first) typing and rewriting expressions (``exprs.py``). INSERT/UPDATE/DELETE reuse the
same machinery by compiling their expressions as a SELECT over the target table.

Plans hold no session state, so the engine caches them by SQL text (see ``engine.py``).
"""

from __future__ import annotations

import itertools
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Protocol

from sqlglot import exp
from sqlglot.dialects.dialect import Dialect
from sqlglot.errors import OptimizeError
from sqlglot.optimizer.normalize_identifiers import normalize_identifiers
from sqlglot.optimizer.qualify_columns import qualify_columns
from sqlglot.optimizer.scope import Scope, traverse_scope
from sqlglot.schema import MappingSchema

from ...protocol.codes import StmtType, TypeCode
from ...protocol.columns import ColumnDesc
from ...types.rowcodec import row_width
from . import collection_tables, rewrites
from . import convert as conv
from . import ifxtypes as it
from . import sqlcodes as sc
from . import values as vals
from .catalog import ColumnInfo, SequenceInfo, TableInfo, quote
from .dialect import IfxSequenceRef
from .errors import EngineError, not_implemented
from .exprs import STATEMENT_TAGS, UNKNOWN, ExprTranslator, func, keylit, lit, ty, typed
from .functions_sql import result_name
from .ifxtypes import IfxType
from .routines import Routine
from .statements import STMT_TYPES, IfxStatement, TableName, parse, parse_expressions

T = TypeCode


class TableLookup(Protocol):
    def resolve(self, name: str, owner: str | None, database: str | None,
                offset: int) -> TableInfo: ...

    def routines(self, name: str) -> list[Routine]: ...

    def sequence(self, name: str) -> SequenceInfo | None: ...

    def named_type(self, name: str) -> IfxType | None: ...


@dataclass
class Plan:
    kind: str  # query, insert, update, delete, stmt
    stmt_type: int
    sql: str = ""
    names: list[str] = field(default_factory=list)
    types: list[IfxType] = field(default_factory=list)
    params: list[IfxType] = field(default_factory=list)
    table: TableInfo | None = None
    serials: list[tuple[int, str, int]] = field(default_factory=list)  # tabid, kind, start
    stmt: IfxStatement | None = None
    into_temp: TableName | None = None
    columns: list[ColumnDesc] = field(default_factory=list)
    loaders: list[Callable[[object], object] | None] = field(default_factory=list)
    param_convs: list[Callable[[object], object]] = field(default_factory=list)
    binder: conv.RowBinder | None = None  # param_convs as one function (EngineSession._bind)
    # batch.py: the SQL with numbered parameters and its tuple binder (None: keep the names).
    batch: tuple[str, conv.TupleBinder | None] | None = None
    session_dependent: bool = False
    other_databases: bool = False  # reads tables of databases this session attached
    for_update: bool = False
    # Referenced permanent tables and their shape when compiled (for -710 at execute).
    tables: dict[str, tuple[object, ...]] = field(default_factory=dict)
    routine: int | None = None  # kind "call": the procid of the routine EXECUTE runs
    routines: list[int] = field(default_factory=list)  # routines its expressions call
    # UPDATE: the columns it sets, and a SELECT of the rows it will change (rowid first) for
    # the old values FOR EACH ROW triggers read (triggers.py).
    updated: list[str] | None = None
    old_sql: str = ""
    parts: list[Plan] = field(default_factory=list)  # MERGE: the statements it runs, in order
    # WHERE CURRENT OF (current_of.py): a FOR UPDATE query's hidden trailing rowid column, and
    # the cursor an UPDATE/DELETE is limited to.
    current_rowid: bool = False
    current_of: str | None = None
    # INSERT … VALUES: the target column of each ``?`` (what SQ_DESCRIBE lists for an INSERT,
    # as real servers do: docs/PROTOCOL.md §5), when every ``?`` is a value of its own.
    inputs: list[ColumnDesc] = field(default_factory=list)
    # DML through a view (views.py): the view named (privileges are checked on it, not on the
    # tables its definition reads), and WITH CHECK OPTION the check of the rows written.
    view: str | None = None
    view_tables: set[str] = field(default_factory=set)
    view_check: str = ""

    def finish(self, ctx: vals.ConvContext) -> Plan:
        self.columns = with_start_offsets(
            [t.describe(n) for n, t in zip(self.names, self.types, strict=True)])
        self.loaders = [conv.loader(t) for t in self.types]
        self.param_convs = [param_converter(t, ctx) for t in self.params]
        return self


def table_signature(info: TableInfo) -> tuple[object, ...]:
    """What a compiled plan depends on in a table: its identity and its columns' types."""
    return (info.tabid, tuple((c.name, c.type.key, c.type.notnull) for c in info.columns))


def with_start_offsets(columns: list[ColumnDesc]) -> list[ColumnDesc]:
    """Fill each column's tuple start position (DESCRIBE ``columnStartPos``): clients read a
    fixed-layout row at these offsets (jdbc-protocol.md 4.3), so they must be the running sum of
    the widths the row encoder writes."""
    out = []
    for i, col in enumerate(columns):
        out.append(replace(col, start=row_width(columns[:i])))
    return out


def param_converter(t: IfxType, ctx: vals.ConvContext) -> Callable[[object], object]:
    if t.code != -1:
        return conv.storer(t, ctx)
    return passthrough


def passthrough(v: object) -> object:
    """A parameter nothing typed: hand SQLite a plain value in our storage conventions."""
    import datetime as dt
    from decimal import Decimal

    if v is None or isinstance(v, (int, float, str, bytes)):
        return int(v) if isinstance(v, bool) else v
    if isinstance(v, Decimal):
        return vals.dec_text(v)
    if isinstance(v, dt.datetime):
        return vals.to_dt_text(v, it.datetime_type(0, 15))
    if isinstance(v, dt.date):
        return vals.date_number(v)
    return str(v)


_UNRESOLVED = re.compile(r"Column '([^']*)' could not be resolved")


class Compiler:
    def __init__(self, lookup: TableLookup, ctx: vals.ConvContext, delimident: bool) -> None:
        self.lookup = lookup
        #: collection-derived tables by alias: column name -> the SQL that reads it
        self.collection_columns: dict[str, dict[str, exp.Expr]] = {}
        self.ctx = ctx
        self.delimident = delimident
        self.outputs: dict[int, list[tuple[str, IfxType]]] = {}
        self.envs: dict[int, dict[str, dict[str, IfxType]]] = {}
        self.session_dependent = False
        self.other_databases = False
        self.allow_bare_params = False  # INSERT VALUES / UPDATE SET compile as projections
        self.for_update = False
        self.tables: dict[str, tuple[object, ...]] = {}
        #: time.monotonic() past which compiling stops with -213 (EngineSession.arm).
        self.deadline: float | None = None
        self._statement_tag = next(STATEMENT_TAGS)
        self.routines: set[int] = set()  # procids called in expressions (EXECUTE is checked)
        self._nextvals = itertools.count()

    def sequence_tag(self) -> tuple[int, int]:
        """This statement's number and the next NEXTVAL occurrence in it (exprs.sequence)."""
        return self._statement_tag, next(self._nextvals)

    def check_budget(self) -> None:
        """Between the passes of a long compile: stop once the request's time is up."""
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise EngineError(sc.INTERRUPTED, message="statement_timeout reached while compiling")

    # ---- entry ---------------------------------------------------------------------------
    def compile(self, sql: str) -> Plan:
        plan = self._compile(sql)
        plan.tables = dict(self.tables)
        plan.other_databases = self.other_databases
        plan.routines = sorted(self.routines)
        for part in plan.parts:
            part.tables = dict(self.tables)
        return plan

    def _compile(self, sql: str) -> Plan:
        ast = parse(sql, self.delimident)
        self.check_budget()
        while isinstance(ast, exp.Subquery) and not ast.alias and "into_temp" not in ast.meta:
            inner = ast.this
            for key in ("order", "limit", "offset"):
                if ast.args.get(key) is not None and inner.args.get(key) is None:
                    inner.set(key, ast.args[key])
            ast = inner
        if isinstance(ast, IfxStatement):
            kind = str(ast.this)
            if kind == "execute_routine":
                return self.compile_call(ast)
            return Plan("stmt", STMT_TYPES.get(kind, StmtType.UNKNOWN), stmt=ast)
        if isinstance(ast, (exp.Select, exp.SetOperation, exp.Subquery)):
            into = ast.meta.get("into_temp")
            plan = self.compile_query(ast)
            if into is not None:
                plan.kind = "select_into"
                plan.into_temp = into
                plan.stmt_type = StmtType.SELECT
            return plan.finish(self.ctx)
        if isinstance(ast, (exp.Insert, exp.Update, exp.Delete)) and ast.args.get("returning"):
            raise EngineError(sc.SYNTAX, near="returning")  # Informix DML has no RETURNING
        if isinstance(ast, (exp.Insert, exp.Update, exp.Delete)):
            collection_tables.refuse_writes(ast)
            from .triggers import compile_instead

            instead = compile_instead(self, ast)
            if instead is not None:
                return instead.finish(self.ctx)
            view = self.view_target(ast)
            if view is not None:
                from .views import compile_view_dml

                return compile_view_dml(self, ast, *view).finish(self.ctx)
        if isinstance(ast, exp.Insert):
            return self.compile_insert(ast).finish(self.ctx)
        if isinstance(ast, exp.Update):
            return self.compile_update(ast).finish(self.ctx)
        if isinstance(ast, exp.Delete):
            return self.compile_delete(ast).finish(self.ctx)
        if isinstance(ast, exp.Merge):
            return self.compile_merge(ast)
        if isinstance(ast, exp.Command):
            raise not_implemented(str(ast.this).upper())
        raise EngineError(sc.SYNTAX)

    def remember(self, info: TableInfo) -> None:
        if not info.temp and info.kind in ("T", "V") and info.schema == "main":
            self.tables[info.name] = table_signature(info)

    def parse_exprs(self, text: str) -> list[exp.Expr]:
        return parse_expressions(text, self.delimident)

    def compile_call(self, ast: IfxStatement) -> Plan:
        """EXECUTE FUNCTION/PROCEDURE: a "call" plan (spl/calls.py)."""
        from .spl.calls import compile_call

        return compile_call(self, ast.meta["spec"])

    # ---- queries -------------------------------------------------------------------------
    def compile_query(self, ast: exp.Expr, expected: list[IfxType] | None = None,
                      rename: bool = False) -> Plan:
        root = self.prepare_query(ast)
        self.check_budget()
        self._last_root = root
        names, types = self.type_scopes(root, expected)
        self.check_budget()
        if rename:
            leftmost = root
            while isinstance(leftmost, (exp.SetOperation, exp.Subquery)):
                leftmost = leftmost.left if isinstance(leftmost, exp.SetOperation) else (
                    leftmost.this)
            if isinstance(leftmost, exp.Select):
                leftmost.set("expressions", [
                    exp.alias_(p.this if isinstance(p, exp.Alias) else p, f"_c{i}", quoted=True)
                    for i, p in enumerate(leftmost.expressions)])
        plan = Plan("query", StmtType.SELECT, names=names, types=types)
        plan.params = self.collect_params(root)
        plan.sql = self.generate(root)
        plan.session_dependent = self.session_dependent
        plan.for_update = self.for_update
        return plan

    def generate(self, node: exp.Expr) -> str:
        try:
            # copy=False: the tree is ours and already final; a copy of a long statement's
            # tree (every node's meta included) cost more than generating it.
            return node.sql(dialect="sqlite", unsupported_level=_RAISE, identify=True,
                            copy=False)
        except EngineError:
            raise
        except Exception as e:  # sqlglot UnsupportedError and friends
            raise not_implemented(f"translation: {e}") from None

    def prepare_query(self, ast: exp.Expr) -> exp.Expr:
        ast = normalize_identifiers(ast, dialect=_dialect(self.delimident))
        for sel in ast.find_all(exp.Select):
            if sel.args.get("locks"):
                # FOR UPDATE [OF …]: SQLite has no row locks; the write lock is taken when the
                # row is updated. Remembered so a scroll cursor can refuse it (-526).
                self.for_update = True
                sel.set("locks", None)
        self.check_projections(ast)
        self.sequence_refs(ast)
        rewrites.niladic(ast)
        rewrites.cte_columns(ast)
        rewrites.quantified(ast)
        self.normalize_first(ast)
        mapping = self.resolve_tables(ast)
        self.nested_fields(ast)
        collection_tables.name_columns(ast)
        for col in ast.find_all(exp.Column):
            if col.args.get("db") is not None:
                col.set("db", None)
                col.set("catalog", None)
        for sel in ast.find_all(exp.Select):
            for proj in sel.expressions:
                if not isinstance(proj, exp.Alias):
                    proj.meta["ifx_name"] = result_name(proj)
        try:
            schema = MappingSchema(mapping, dialect=_dialect(self.delimident), normalize=False)
            root = qualify_columns(ast, schema, dialect=_dialect(self.delimident))
        except OptimizeError as e:
            m = _UNRESOLVED.search(str(e))
            raise EngineError(sc.NO_COLUMN, near=m.group(1) if m else "") from None
        rewrites.convert_outer_joins(root)
        return root

    def check_projections(self, ast: exp.Expr) -> None:
        """A bare ``?`` in a projection is a syntax error in Informix (peer report 3.5); and
        ``informix.func(…)`` names a built-in routine, not a column."""
        for dot in list(ast.find_all(exp.Dot)):
            if isinstance(dot.expression, exp.Func) and dot.this.name.lower() == "informix":
                dot.replace(dot.expression)
        if self.allow_bare_params:
            self.allow_bare_params = False
            return
        for sel in ast.find_all(exp.Select):
            for proj in sel.expressions:
                inner = proj.this if isinstance(proj, exp.Alias) else proj
                if isinstance(inner, exp.Placeholder):
                    raise EngineError(sc.SYNTAX, near="?", offset=inner.meta.get("pos", 0))

    def sequence_refs(self, ast: exp.Expr) -> None:
        """``seq.NEXTVAL`` / ``owner.seq.CURRVAL`` name a sequence, not a column, unless a
        table of the FROM list is called ``seq``."""
        for col in list(ast.find_all(exp.Column)):
            which = col.name.lower()
            if which not in ("nextval", "currval") or not col.table:
                continue
            select = col.find_ancestor(exp.Select)
            sources = set()
            if select is not None:
                for table in select.find_all(exp.Table):
                    sources.add(table.alias_or_name.lower())
            name = col.args["table"].name
            name = name if col.args["table"].quoted else name.lower()
            if name in sources or self.lookup.sequence(name) is None:
                continue
            ref = IfxSequenceRef(this=name)
            ref.meta["nextval"] = which == "nextval"
            col.replace(ref)

    def normalize_first(self, ast: exp.Expr) -> None:
        """SELECT SKIP n FIRST m -> LIMIT m OFFSET n (SQLite needs LIMIT -1 for 'no limit')."""
        for sel in ast.find_all(exp.Select):
            lim = sel.args.get("limit")
            if isinstance(lim, exp.Limit) and lim.meta.get("ifx_first"):
                first = lim.args.get("expression")
                skip = lim.args.get("offset")
                for part in (first, skip):
                    if isinstance(part, exp.Placeholder):
                        part.meta["pt"] = it.INTEGER
                sel.set("limit", exp.Limit(expression=first if first is not None
                                           else exp.Literal.number(-1)))
                if skip is not None:
                    sel.set("offset", exp.Offset(expression=skip))
            elif isinstance(lim, exp.Limit):
                part = lim.args.get("expression")
                if isinstance(part, exp.Placeholder):
                    part.meta["pt"] = it.INTEGER

    @staticmethod
    def nested_fields(ast: exp.Expr) -> None:
        """``a.b.c`` is ``owner.table.column`` when ``b`` is a table of the statement, and
        otherwise a ROW field of a ROW field (``r.n.x``, ``t.r.n.x``): rewritten as
        ``(a.b).c`` so the field access resolves level by level (composite.translate_dot)."""
        sources = {t.alias_or_name for t in ast.find_all(exp.Table)}
        sources |= {s.alias for s in ast.find_all(exp.Subquery, exp.CTE) if s.alias}
        for col in list(ast.find_all(exp.Column)):
            db = col.args.get("db")
            if db is None or col.table in sources:
                continue
            inner = exp.Column(this=exp.to_identifier(col.table), table=db.copy(),
                               db=col.args["catalog"].copy() if col.args.get("catalog") else None)
            col.replace(exp.Dot(this=inner, expression=col.this.copy()))

    def resolve_tables(self, ast: exp.Expr) -> dict[str, object]:
        cte_names = {cte.alias for cte in ast.find_all(exp.CTE)}
        mapping: dict[str, dict[str, dict[str, str]]] = {}
        for table in list(ast.find_all(exp.Table)):
            name = table.name
            owner = table.args.get("db")
            database = table.args.get("catalog")
            if owner is None and database is None and name in cte_names:
                continue
            info = self.lookup.resolve(name, owner.name if owner else None,
                                       database.name if database else None, 0)
            alias = table.alias or name
            if info.kind == "X":
                self.session_dependent = True
                sub = parse(info.virtual_sql or "", False)
                sub = normalize_identifiers(sub, dialect=_dialect(False))
                self.resolve_tables(sub)
                node: exp.Expr = exp.Subquery(this=sub, alias=exp.TableAlias(
                    this=exp.to_identifier(alias)))
                table.replace(node)
                continue
            new = exp.Table(this=exp.to_identifier(info.name, quoted=True),
                            db=exp.to_identifier(info.schema),
                            alias=exp.TableAlias(this=exp.to_identifier(alias)))
            for key in ("joins", "pivots"):
                if table.args.get(key):
                    new.set(key, table.args[key])
            new.meta["ifx_table"] = info
            self.remember(info)
            if info.schema.startswith("ifxdb_"):
                self.other_databases = True
            table.replace(new)
            mapping.setdefault(info.schema, {})[info.name] = {c.name: "INT" for c in info.columns}
        return dict(mapping)

    # ---- typing --------------------------------------------------------------------------
    def type_scopes(self, root: exp.Expr, expected: list[IfxType] | None) -> tuple[
            list[str], list[IfxType]]:
        scopes = traverse_scope(root)
        by_expr = {id(s.expression): s for s in scopes}
        for scope in scopes:
            is_root = scope.expression is root or (
                isinstance(root, exp.Subquery) and scope.expression is root.this)
            self.type_scope(scope, by_expr, expected if is_root else None)
        target = root.this if isinstance(root, exp.Subquery) else root
        out = self.outputs.get(id(target))
        if out is None:
            raise EngineError(sc.SYNTAX)
        return [n for n, _ in out], [t for _, t in out]

    def env_of(self, scope: Scope) -> dict[str, dict[str, IfxType]]:
        env = self.envs.get(id(scope))
        if env is not None:
            return env
        env = {}
        for alias, source in scope.sources.items():
            if isinstance(source, exp.Table):
                info: TableInfo | None = source.meta.get("ifx_table")
                if info is not None:
                    env[alias] = {c.name: c.type for c in info.columns}
            elif isinstance(source, Scope):
                out = self.outputs.get(id(source.expression))
                if out is not None:
                    env[alias] = dict(out)
        self.envs[id(scope)] = env
        return env

    def type_scope(self, scope: Scope, by_expr: dict[int, Scope],
                   expected: list[IfxType] | None) -> None:
        node = scope.expression
        if isinstance(node, exp.Values):
            self.type_values(node)
            return
        if isinstance(node, exp.SetOperation):
            left = node.left
            while isinstance(left, exp.Subquery):
                left = left.this
            left_out = self.outputs.get(id(left))
            if left_out is None:
                raise EngineError(sc.SYNTAX)
            self.outputs[id(node)] = left_out
            return
        if collection_tables.is_collection_table(node):
            collection_tables.type_scope(self, scope)
            return
        if not isinstance(node, exp.Select):
            raise not_implemented(f"query form {node.key}")
        aliases: dict[str, IfxType] = {}

        def column_type(col: exp.Column) -> IfxType:
            table = col.table
            s: Scope | None = scope
            while s is not None:
                env = self.env_of(s)
                if table in env:
                    cols = env[table]
                    if col.name in cols:
                        return cols[col.name]
                    raise EngineError(sc.NO_COLUMN, near=col.name)
                s = s.parent
            if not table and col.name in aliases:
                return aliases[col.name]
            if not table:
                owners = [a for a, cols in self.env_of(scope).items() if col.name in cols]
                if len(owners) > 1:
                    raise EngineError(sc.AMBIGUOUS_COLUMN, near=col.name)
            raise EngineError(sc.NO_COLUMN, near=col.name)

        def subquery_type(sub: exp.Expr) -> IfxType:
            target = sub.this if isinstance(sub, exp.Subquery) else sub
            while isinstance(target, exp.Subquery):
                target = target.this
            sub_out = self.outputs.get(id(target))
            if not sub_out:
                return UNKNOWN
            return sub_out[0][1].nullable()

        tx = ExprTranslator(self.ctx, column_type, subquery_type)
        tx.routine = lambda name, args: self.routine_call(tx, name, args)
        tx.database = getattr(self.lookup, "database", None)
        tx.sequence_tag = self.sequence_tag
        tx.named_type = self.lookup.named_type
        tx.column_sql = self.collection_column
        out: list[tuple[str, IfxType]] = []
        projections = list(node.expressions)
        for k, proj in enumerate(projections):
            # A subquery carries its output alias itself; move it onto an Alias so the subquery
            # can be rewritten (wrapped) like any other projection.
            if not isinstance(proj, exp.Alias) and isinstance(proj.args.get("alias"), exp.Expr):
                alias = proj.args["alias"]
                proj.set("alias", None)
                name_id = alias.this if isinstance(alias, exp.TableAlias) else alias
                projections[k] = exp.Alias(this=proj, alias=name_id)
        node.set("expressions", projections)
        for i, proj in enumerate(node.expressions):
            inner = proj.this if isinstance(proj, exp.Alias) else proj
            name = inner.meta.get("ifx_name") or proj.alias_or_name
            if isinstance(proj, exp.Alias) and "ifx_name" not in inner.meta:
                name = proj.alias
            new = tx.tx(inner)
            if expected is not None and i < len(expected):
                new = tx.convert(new, expected[i])
            t = ty(new)
            if t.code == -1:
                new = tx.convert(new, it.varchar(255))
                t = ty(new)
            if t.is_decimal and not isinstance(new, (exp.Column, exp.Collate)):
                new = exp.Collate(this=new, expression=exp.Var(this="IFXDEC"))
            if isinstance(proj, exp.Alias):
                proj.set("this", new)
            else:
                proj.replace(new)
            aliases[proj.alias_or_name] = t
            out.append((name, t))
        self.outputs[id(node)] = out
        for key in ("where", "having"):
            clause = node.args.get(key)
            if clause is not None:
                clause.set("this", tx.tx(clause.this))
        for join in node.args.get("joins") or []:
            on = join.args.get("on")
            if on is not None:
                join.set("on", tx.tx(on))
        group = node.args.get("group")
        if group is not None:
            group.set("expressions", [tx.tx(e) for e in group.expressions])
        order = node.args.get("order")
        if order is not None:
            for o in order.expressions:
                inner = o.this
                if isinstance(inner, exp.Literal) and not inner.is_string:
                    continue
                new = tx.tx(inner)
                if ty(new).is_decimal and not isinstance(new, exp.Column):
                    new = exp.Collate(this=new, expression=exp.Var(this="IFXDEC"))
                o.set("this", new)
        for key in ("limit", "offset"):
            part = node.args.get(key)
            if part is not None and isinstance(part.args.get("expression"), exp.Expr):
                part.set("expression", tx.convert(tx.tx(part.args["expression"]), it.INTEGER))

    def collection_column(self, col: exp.Column) -> exp.Expr | None:
        """The SQL a column of a collection-derived table reads (None for any other)."""
        sql = self.collection_columns.get(col.table)
        return None if sql is None or col.name not in sql else sql[col.name].copy()

    def routine_call(self, tx: ExprTranslator, name: str, args: list[exp.Expr]
                     ) -> exp.Expr | None:
        """A call of a stored routine inside an expression (spl/calls.py); None if no such
        routine."""
        from .spl.calls import routine_call

        return routine_call(self, tx, name, args)

    def type_values(self, node: exp.Values) -> None:
        """A VALUES derived table (TABLE(SET{…})): column types from the first row."""
        tx = ExprTranslator(self.ctx, lambda c: UNKNOWN, lambda s: UNKNOWN)
        tx.named_type = self.lookup.named_type
        rows = node.expressions
        types: list[IfxType] = []
        for r, row in enumerate(rows):
            items = row.expressions if isinstance(row, exp.Tuple) else [row]
            new = [tx.tx(e) for e in items]
            if r == 0:
                types = [ty(e) for e in new]
            else:
                new = [tx.unify(e, t) for e, t in zip(new, types, strict=False)]
            if isinstance(row, exp.Tuple):
                row.set("expressions", new)
        alias = node.args.get("alias")
        names = [c.name for c in alias.columns] if alias is not None else []
        names += [f"unnamed_col_{i + 1}" for i in range(len(names), len(types))]
        self.outputs[id(node)] = list(zip(names, types, strict=False))

    def collect_params(self, root: exp.Expr) -> list[IfxType]:
        """Name every ``?`` ``:pN`` in Informix text order and return their types."""
        holders = [p for p in root.find_all(exp.Placeholder)]
        positions = sorted({p.meta.get("pos", 0) for p in holders})
        index = {pos: i + 1 for i, pos in enumerate(positions)}
        types: dict[int, IfxType] = {}
        for p in holders:
            pos = p.meta.get("pos", 0)
            p.set("this", f"p{index[pos]}")
            t = p.meta.get("pt") or ty(p)
            if t.code != -1 or pos not in types:
                types[pos] = t
        return [types[pos] for pos in positions]

    # ---- DML -----------------------------------------------------------------------------
    def view_target(self, ast: exp.Insert | exp.Update | exp.Delete) -> tuple[
            TableInfo, exp.Table] | None:
        """The view (and its node) a DML statement writes through, if it names one of this
        database's views."""
        node = ast.this.this if isinstance(ast.this, exp.Schema) else ast.this
        if not isinstance(node, exp.Table) or node.args.get("catalog") is not None:
            return None
        owner = node.args.get("db")
        info = self.lookup.resolve(node.name.lower() if not node.this.quoted else node.name,
                                   owner.name if owner else None, None, 0)
        return (info, node) if info.kind == "V" and info.schema == "main" else None

    def target(self, node: exp.Expr) -> TableInfo:
        if not isinstance(node, exp.Table):
            raise EngineError(sc.SYNTAX)
        owner = node.args.get("db")
        db = node.args.get("catalog")
        info = self.lookup.resolve(node.name.lower() if not node.this.quoted else node.name,
                                   owner.name if owner else None, db.name if db else None, 0)
        self.remember(info)
        if info.schema.startswith("ifxdb_"):
            raise not_implemented("INSERT/UPDATE/DELETE in another database")
        if info.kind == "V":
            raise not_implemented("INSERT/UPDATE/DELETE on a view")
        if info.kind != "T":
            raise not_implemented("modifying a system catalog table")
        return info

    def table_sql(self, info: TableInfo) -> str:
        return f"{info.schema}.{quote(info.name)}"

    def compile_insert(self, ast: exp.Insert) -> Plan:
        target = ast.this
        names: list[str] | None = None
        if isinstance(target, exp.Schema):
            names = [self._ident(e) for e in target.expressions]
            target = target.this
        info = self.target(target)
        if names is None:
            cols = list(info.columns)
        else:
            cols = []
            for n in names:
                col = info.by_name.get(n)
                if col is None:
                    raise EngineError(sc.NO_COLUMN, near=n)
                cols.append(col)
        source = ast.expression
        plan = Plan("insert", StmtType.INSERT, table=info)
        exprs: dict[str, str] = {}
        if isinstance(source, exp.Values):
            rows = source.expressions
            if len(rows) != 1:
                raise EngineError(sc.SYNTAX)
            values = rows[0].expressions if isinstance(rows[0], exp.Tuple) else [rows[0]]
            if len(values) != len(cols):
                raise EngineError(sc.INSERT_COUNT)
            select = exp.Select(expressions=[v.copy() for v in values])
            self.allow_bare_params = True
            sub = self.compile_query(select, [c.type for c in cols])
            projections = self._last_projections
            for col, proj in zip(cols, projections, strict=True):
                exprs[col.name] = self.generate(proj)
            plan.params = sub.params
            bare = [col for col, v in zip(cols, values, strict=True)
                    if isinstance(v, exp.Placeholder)]
            if bare and len(bare) == len(plan.params):
                plan.inputs = with_start_offsets([c.type.describe(c.name) for c in bare])
            body = "VALUES ({})"
        elif isinstance(source, (exp.Select, exp.SetOperation, exp.Subquery)):
            sub = self.compile_query(source, None, rename=True)
            if len(sub.types) != len(cols):
                raise EngineError(sc.INSERT_COUNT)
            inner_sql = sub.sql
            conv = ExprTranslator(self.ctx, lambda c: UNKNOWN, lambda s: UNKNOWN)
            for i, (col, t) in enumerate(zip(cols, sub.types, strict=True)):
                ref = typed(exp.column(f"_c{i}", quoted=True), t)
                exprs[col.name] = self.generate(conv.convert(ref, col.type))
            plan.params = sub.params
            body = f"SELECT {{}} FROM ({inner_sql})"
        else:
            raise EngineError(sc.SYNTAX)
        for col in info.columns:
            if col.name in exprs:
                continue
            default = self.default_sql(col)
            if default is not None:
                exprs[col.name] = default
        for col in info.serial_columns():
            kind = "s" if col.type.code == T.SERIAL else "8"
            value = exprs.get(col.name, "NULL")
            exprs[col.name] = f"ifx_serial({info.tabid}, '{kind}', {value})"
            plan.serials.append((info.tabid, kind, col.serial_start))
        order = [c.name for c in info.columns if c.name in exprs]
        plan.sql = (f"INSERT INTO {self.table_sql(info)} ({', '.join(quote(n) for n in order)}) "
                    + body.format(", ".join(exprs[n] for n in order)))
        return plan

    def _ident(self, node: exp.Expr) -> str:
        if isinstance(node, exp.Identifier):
            return node.name if node.quoted else node.name.lower()
        if isinstance(node, exp.Column):
            return node.name if node.this.quoted else node.name.lower()
        raise EngineError(sc.SYNTAX)

    def default_sql(self, col: ColumnInfo) -> str | None:
        kind = col.default_kind
        if kind is None or kind == "N":
            return None
        if kind == "L":
            stored = conv.storer(col.type, self.ctx)(col.default_value)
            return self.generate(lit(stored))
        if kind == "U":
            return self.generate(ExprConv.cast(func("ifx_user"), it.char(32), col.type))
        if kind == "T":
            return self.generate(ExprConv.cast(func("ifx_today"), it.DATE, col.type))
        if kind == "C":
            t = col.type if col.type.code == T.DATETIME else it.datetime_type(0, 13)
            return self.generate(func("ifx_current", keylit(t)))
        if kind == "S":
            return self.generate(ExprConv.cast(func("ifx_dbinfo", exp.Literal.string(
                "dbhostname")), it.varchar(128), col.type))
        return None

    def compile_update(self, ast: exp.Update) -> Plan:
        info = self.target(ast.this)
        alias = ast.this.alias or self._ident(ast.this.this)
        sets: list[tuple[ColumnInfo, exp.Expr]] = []
        for target, value in self.assignments(ast.expressions):
            name = self._ident(target)
            col = info.by_name.get(name)
            if col is None:
                raise EngineError(sc.NO_COLUMN, near=name)
            sets.append((col, value))
        where = ast.args.get("where")
        select = exp.Select(expressions=[e.copy() for _, e in sets]).from_(ast.this.copy())
        if where is not None:
            select.set("where", where.copy())
        self.allow_bare_params = True
        sub = self.compile_query(select, [c.type for c, _ in sets])
        assigns = ", ".join(f"{quote(c.name)} = {self.generate(p)}"
                            for (c, _), p in zip(sets, self._last_projections, strict=True))
        sql = f"UPDATE {self.table_sql(info)} AS {quote(alias)} SET {assigns}"
        cols = ", ".join(f"{quote(alias)}.{quote(c.name)}" for c in info.columns)
        old_sql = (f"SELECT {quote(alias)}.rowid, {cols} FROM {self.table_sql(info)} "
                   f"AS {quote(alias)}")
        if self._last_where is not None:
            where = f" WHERE {self.generate(self._last_where)}"
            sql += where
            old_sql += where
        plan = Plan("update", StmtType.UPDATE, sql=sql, table=info, params=sub.params)
        plan.updated = [c.name for c, _ in sets]
        plan.old_sql = old_sql
        return plan

    def assignments(self, items: list[exp.Expr]) -> list[tuple[exp.Expr, exp.Expr]]:
        """SET a = x, (b, c) = (y, z), (d, e) = (SELECT …): one (column, value) per column.
        A parenthesised SELECT gives each column a scalar subquery of its own projection."""
        out: list[tuple[exp.Expr, exp.Expr]] = []
        for item in items:
            if not isinstance(item, exp.EQ):
                raise EngineError(sc.SYNTAX)
            target, value = item.this, item.expression
            if isinstance(target, exp.Column):
                out.append((target, value))
                continue
            names = target.expressions if isinstance(target, (exp.Tuple, exp.Paren)) else []
            if isinstance(target, exp.Paren):
                names = [target.this]
            if not names or not all(isinstance(n, exp.Column) for n in names):
                raise EngineError(sc.SYNTAX)
            if isinstance(value, (exp.Subquery, exp.Select)):
                query = value.this if isinstance(value, exp.Subquery) else value
                if not isinstance(query, exp.Select) or len(query.expressions) != len(names):
                    raise EngineError(sc.INSERT_COUNT)
                for i, name in enumerate(names):
                    one = query.copy()
                    one.set("expressions", [query.expressions[i].copy()])
                    out.append((name, exp.Subquery(this=one)))
                continue
            values = value.expressions if isinstance(value, exp.Tuple) else (
                [value.this] if isinstance(value, exp.Paren) else [value])
            if len(values) != len(names):
                raise EngineError(sc.INSERT_COUNT)
            out.extend(zip(names, values, strict=True))
        return out

    def compile_merge(self, ast: exp.Merge) -> Plan:
        """MERGE as the statements SQLite has: the WHEN MATCHED UPDATE (or DELETE) of the
        target rows some source row matches, then the WHEN NOT MATCHED INSERT of the source
        rows no target row matches. The update runs first so the rows just inserted are not
        updated; a target row matched by two source rows is -284, as the scalar subquery of
        its new value finds two rows."""
        target, source, on = ast.this, ast.args.get("using"), ast.args.get("on")
        if not isinstance(target, exp.Table) or source is None or on is None:
            raise EngineError(sc.SYNTAX)
        if any(True for _ in ast.find_all(exp.Placeholder)):
            raise not_implemented("host variables in MERGE")
        whens = ast.args.get("whens")
        clauses = list(whens.expressions) if whens is not None else []
        def is_delete(then: object) -> bool:
            return isinstance(then, exp.Delete) or (
                isinstance(then, exp.Var) and then.name.upper() == "DELETE")

        kinds = [type(w.args.get("then")) for w in clauses]
        if any(is_delete(w.args.get("then")) for w in clauses) and exp.Insert in kinds:
            raise not_implemented("MERGE with both DELETE and INSERT")
        parts: list[Plan] = []
        matches = exp.select("1").from_(source.copy()).where(on.copy())
        for when in sorted(clauses, key=lambda w: not w.args.get("matched")):
            then = when.args.get("then")
            if when.args.get("condition") is not None or when.args.get("source"):
                raise not_implemented("MERGE WHEN … AND / BY SOURCE")
            if when.args.get("matched") and isinstance(then, exp.Update):
                sets = []
                for col, value in self.assignments(then.expressions):
                    one = exp.select(value.copy()).from_(source.copy()).where(on.copy())
                    sets.append(exp.EQ(this=col, expression=exp.Subquery(this=one)))
                update = exp.Update(this=target.copy(), expressions=sets,
                                    where=exp.Where(this=exp.Exists(this=matches.copy())))
                parts.append(self.compile_update(update).finish(self.ctx))
            elif when.args.get("matched") and is_delete(then):
                delete = exp.Delete(this=target.copy(),
                                    where=exp.Where(this=exp.Exists(this=matches.copy())))
                parts.append(self.compile_delete(delete).finish(self.ctx))
            elif not when.args.get("matched") and isinstance(then, exp.Insert):
                values = then.args.get("expression")
                if not isinstance(values, exp.Expr):
                    raise EngineError(sc.SYNTAX)
                items = values.expressions if isinstance(values, exp.Tuple) else [values]
                seen = exp.select("1").from_(target.copy()).where(on.copy())
                select = exp.select(*[v.copy() for v in items]).from_(source.copy()).where(
                    exp.Not(this=exp.Exists(this=seen)))
                into: exp.Expr = exp.Table(this=target.this.copy(), db=target.args.get("db"))
                cols = then.this
                if isinstance(cols, exp.Tuple):
                    into = exp.Schema(this=into, expressions=list(cols.expressions))
                parts.append(self.compile_insert(exp.Insert(this=into, expression=select))
                             .finish(self.ctx))
            else:
                raise EngineError(sc.SYNTAX)
        if not parts:
            raise EngineError(sc.SYNTAX)
        plan = Plan("merge", StmtType.MERGE, table=parts[0].table, parts=parts)
        return plan.finish(self.ctx)

    def compile_delete(self, ast: exp.Delete) -> Plan:
        info = self.target(ast.this)
        alias = ast.this.alias or self._ident(ast.this.this)
        select = exp.Select(expressions=[exp.Literal.number(1)]).from_(ast.this.copy())
        where = ast.args.get("where")
        if where is not None:
            select.set("where", where.copy())
        sub = self.compile_query(select, None)
        sql = f"DELETE FROM {self.table_sql(info)} AS {quote(alias)}"
        if self._last_where is not None:
            sql += f" WHERE {self.generate(self._last_where)}"
        return Plan("delete", StmtType.DELETE, sql=sql, table=info, params=sub.params)

    # The projections / WHERE of the last compiled root SELECT (used by the DML compilers).
    _last_root: exp.Expr

    @property
    def _last_projections(self) -> list[exp.Expr]:
        root = self._last_root
        assert isinstance(root, exp.Select)
        return [p.this if isinstance(p, exp.Alias) else p for p in root.expressions]

    @property
    def _last_where(self) -> exp.Expr | None:
        where = self._last_root.args.get("where")
        return where.this if where is not None else None


class ExprConv:
    @staticmethod
    def cast(node: exp.Expr, src: IfxType, dst: IfxType) -> exp.Expr:
        if src == dst:
            return node
        return func("ifx_cast", node, keylit(src), keylit(dst.nullable()))


_RAISE = __import__("sqlglot").ErrorLevel.RAISE


def _dialect(delimident: bool) -> Dialect:
    from .statements import _DIALECTS

    return _DIALECTS[delimident]
