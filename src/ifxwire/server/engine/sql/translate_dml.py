"""INSERT, UPDATE, DELETE and MERGE compiled to SQLite: the target table (or the view written
through), column defaults, SERIAL columns and the statement's parameters. A mixin of
translate.Compiler, which compiles the queries these statements contain."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from sqlglot import exp

from ....protocol.codes import StmtType, TypeCode
from ..core import convert as conv
from ..core import ifxtypes as it
from ..core import sqlcodes as sc
from ..core.errors import EngineError, not_implemented
from ..core.ifxtypes import IfxType
from ..schema.casts import CastKey, CastRow, cast_key
from ..schema.catalog import ColumnInfo, TableInfo, quote
from . import udt_casts
from .exprs import ExprTranslator, func, keylit, lit, typed
from .exprtypes import UNKNOWN
from .plan import Plan, TableLookup, with_start_offsets
from .statement_specs import ALL_COLUMNS

T = TypeCode
#: The bound name of the target's largest rowid before a MERGE (compile_merge).
MERGE_ROWID = "ifx_merge_rowid"

if TYPE_CHECKING:
    from ..core import values as vals


class DmlCompiler:
    """The DML half of translate.Compiler."""

    #: the columns an INSERT's or UPDATE's values are assigned to, for -9632's message
    assigned_names: list[str] | None = None
    #: the syscasts rows the statement's DISTINCT types were checked against (Plan.casts)
    casts_seen: dict[CastKey, CastRow | None]

    def cast_finder(self) -> udt_casts.CastFinder | None:
        """The lookup's syscasts, each answer remembered for the plan (None: no lookup)."""
        find = getattr(self.lookup, "cast", None)
        if find is None:
            return None

        def found(source: IfxType, target: IfxType) -> CastRow | None:
            row: CastRow | None = find(source, target)
            self.casts_seen[cast_key(source, target)] = row
            return row
        return found

    if TYPE_CHECKING:
        lookup: TableLookup
        ctx: vals.ConvContext
        delimident: bool
        allow_bare_params: bool
        other_databases: bool
        param_index: dict[int, int] | None
        param_types: dict[int, IfxType]

        def numbered(self, positions: set[int], build: Callable[[], Plan]) -> Plan: ...

        def compile_query(self, ast: exp.Expr, expected: list[IfxType] | None = None,
                          rename: bool = False) -> Plan: ...
        def remember(self, info: TableInfo) -> None: ...
        def descendants(self, info: TableInfo, database: str | None = None
                        ) -> list[TableInfo]: ...
        def generate(self, node: exp.Expr) -> str: ...
        @property
        def _last_projections(self) -> list[exp.Expr]: ...
        @property
        def _last_where(self) -> exp.Expr | None: ...

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
            self.other_databases = True  # the write attaches it writable (cross_database.py)
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
            if info.type_xid and names is None and len(values) == 1 < len(cols) and (
                    _row_constructor(values[0])):
                # a typed table's row is an instance of its ROW type: ``INSERT INTO tab1
                # VALUES (ROW(1, 7))`` (Guide to SQL: Syntax, "Using Dot Notation with
                # Row-Type Expressions", ids_sqs_1438) gives each column its field
                row = values[0]
                while isinstance(row, exp.Cast):
                    row = row.this
                values = row.expressions
            if len(values) != len(cols):
                raise EngineError(sc.INSERT_COUNT)
            select = exp.Select(expressions=[v.copy() for v in values])
            self.allow_bare_params = True
            self.assigned_names = [c.name for c in cols]
            sub = self.compile_query(select, [c.type for c in cols])
            self.assigned_names = None
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
            find = getattr(self.lookup, "cast", None)
            for i, (col, t) in enumerate(zip(cols, sub.types, strict=True)):
                ref = typed(exp.column(f"_c{i}", quoted=True), t)
                ref = udt_casts.assignment(find, ref, col.type, col.name, _no_call) or ref
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
            value = exprs.get(col.name, "0")  # not given: the next value; a NULL is refused
            tabid = info.serial_tabids.get(col.name, info.tabid)  # a hierarchy's counter
            exprs[col.name] = f"ifx_serial({tabid}, '{kind}', {value})"
            plan.serials.append((tabid, kind, col.serial_start))
        order = [c.name for c in info.columns if c.name in exprs]
        plan.sql = (f"INSERT INTO {self.table_sql(info)} ({', '.join(quote(n) for n in order)}) "
                    + body.format(", ".join(exprs[n] for n in order)))
        return plan

    def assigned(self, tx: ExprTranslator, value: exp.Expr, i: int, target: IfxType
                 ) -> exp.Expr:
        """The ``i``-th value of an INSERT or UPDATE, translated, assigned to a column of
        type ``target``: what syscasts asks of a DISTINCT type (udt_casts.assignment)."""
        names = self.assigned_names
        if names is None or i >= len(names):
            return value  # a routine's arguments, an SPL LET: not checked (docs/SERVER.md)
        via = udt_casts.assignment(tx.find_cast, value, target, names[i],
                                   lambda f: tx.cast_call(f, value))
        return value if via is None else via

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
        if kind == "S":  # DBSERVERNAME / SITENAME: the server's name, as the operator gives
            return self.generate(ExprConv.cast(func("ifx_dbinfo", exp.Literal.string(
                "dbservername")), it.varchar(128), col.type))
        return None

    def hierarchy_dml(self, ast: exp.Update | exp.Delete, info: TableInfo) -> Plan | None:
        """UPDATE or DELETE on a typed supertable without ONLY: the same statement on it and
        on each of its subtables (Tutorial, ids_sqt_211; Syntax guide, ids_sqs_0676), run as
        the parts of one plan (triggers.run_merge sums their row counts). None when the
        target has no subtables or is ONLY(...)."""
        if not info.subtables or ast.this.args.get("only"):
            return None
        if any(True for _ in ast.find_all(exp.Placeholder)):
            raise not_implemented("host variables in UPDATE/DELETE of a supertable")
        alias = ast.this.alias or self._ident(ast.this.this)
        db = ast.this.args.get("catalog")
        parts: list[Plan] = []
        for tinfo in [info, *self.descendants(info, db.name if db else None)]:
            node = ast.copy()
            one = exp.Table(this=exp.to_identifier(tinfo.name),
                            catalog=db.copy() if db else None,
                            alias=exp.TableAlias(this=exp.to_identifier(alias)))
            one.set("only", True)
            node.set("this", one)
            part = (self.compile_update(node) if isinstance(node, exp.Update)
                    else self.compile_delete(node))
            parts.append(part.finish(self.ctx))
        kind = StmtType.UPDATE if isinstance(ast, exp.Update) else StmtType.DELETE
        return Plan("merge", kind, table=info, parts=parts)

    def compile_update(self, ast: exp.Update) -> Plan:
        info = self.target(ast.this)
        whole = self.hierarchy_dml(ast, info)
        if whole is not None:
            return whole
        alias = ast.this.alias or self._ident(ast.this.this)
        sets: list[tuple[ColumnInfo, exp.Expr]] = []
        for target, value in self.assignments(ast.expressions, [c.name for c in info.columns]):
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
        self.assigned_names = [c.name for c, _ in sets]
        sub = self.compile_query(select, [c.type for c, _ in sets])
        self.assigned_names = None
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

    def assignments(self, items: list[exp.Expr], all_columns: list[str] | None = None
                    ) -> list[tuple[exp.Expr, exp.Expr]]:
        """SET a = x, (b, c) = (y, z), (d, e) = (SELECT …), (d, e) = ((SELECT …)),
        (a, d, e) = (x, (SELECT …)), * = (…): one (column, value) per column
        (_set_values); ``*`` lists ``all_columns``, the table's columns in order."""
        out: list[tuple[exp.Expr, exp.Expr]] = []
        for item in items:
            if not isinstance(item, exp.EQ):
                raise EngineError(sc.SYNTAX)
            target, value = item.this, item.expression
            if isinstance(target, exp.Column) and target.name == ALL_COLUMNS:
                if all_columns is None or len(items) != 1:
                    raise EngineError(sc.SYNTAX)
                target = exp.Tuple(expressions=[exp.column(n, quoted=True)
                                                for n in all_columns])
            if isinstance(target, exp.Column):
                out.append((target, value))
                continue
            names = target.expressions if isinstance(target, (exp.Tuple, exp.Paren)) else []
            if isinstance(target, exp.Paren):
                names = [target.this]
            if not names or not all(isinstance(n, exp.Column) for n in names):
                raise EngineError(sc.SYNTAX)
            values = _set_values(value)
            if len(values) != len(names):
                raise EngineError(sc.INSERT_COUNT)
            out.extend(zip(names, values, strict=True))
        return out

    def compile_merge(self, ast: exp.Merge) -> Plan:
        """MERGE as the statements SQLite has, in the clauses Informix's syntax allows
        (Informix Guide to SQL: Syntax, "MERGE statement": one Update *or* one Delete clause,
        WHEN MATCHED THEN, and one Insert clause, WHEN NOT MATCHED THEN; no ``AND condition``
        after WHEN, no BY SOURCE: anything else is -201).

        The INSERT of the source rows no target row matches runs first, so that "not
        matched" is judged on the target as it was; the UPDATE or DELETE of the matched
        target rows then runs on the rows that were there before the INSERT (``rowid <=``
        the target's largest rowid before the statement, bound as MERGE_ROWID by the
        session: our tables never alias the rowid, so new rows get larger ones). A target
        row matched by two source rows is -284 in an UPDATE, as the scalar subquery of its
        new value finds two rows."""
        target, source, on = ast.this, ast.args.get("using"), ast.args.get("on")
        if not isinstance(target, exp.Table) or source is None or on is None:
            raise EngineError(sc.SYNTAX)
        # Host variables: each part (its copies of the ON condition, of a SET value) names a
        # ``?`` by its place in the whole statement, so one set of bound values serves
        # every part (was -999).
        holders = {p.meta.get("pos", 0) for p in ast.find_all(exp.Placeholder)}
        return self.numbered(holders, lambda: self._merge_parts(ast, target, source, on))

    def _merge_parts(self, ast: exp.Merge, target: exp.Table, source: exp.Expr,
                     on: exp.Expr) -> Plan:
        whens = ast.args.get("whens")
        clauses = list(whens.expressions) if whens is not None else []

        def is_delete(then: object) -> bool:
            return isinstance(then, exp.Delete) or (
                isinstance(then, exp.Var) and then.name.upper() == "DELETE")

        matched = [w for w in clauses if w.args.get("matched")]
        unmatched = [w for w in clauses if not w.args.get("matched")]
        if not clauses or len(matched) > 1 or len(unmatched) > 1 or any(
                w.args.get("condition") is not None or w.args.get("source") for w in clauses):
            raise EngineError(sc.SYNTAX)
        parts: list[Plan] = []
        matches = exp.select("1").from_(source.copy()).where(on.copy())
        for when in unmatched:
            then = when.args.get("then")
            values = then.args.get("expression") if isinstance(then, exp.Insert) else None
            if not isinstance(values, exp.Expr):
                raise EngineError(sc.SYNTAX)
            items = values.expressions if isinstance(values, exp.Tuple) else [values]
            seen = exp.select("1").from_(target.copy()).where(on.copy())
            select = exp.select(*[v.copy() for v in items]).from_(source.copy()).where(
                exp.Not(this=exp.Exists(this=seen)))
            into: exp.Expr = exp.Table(this=target.this.copy(), db=target.args.get("db"),
                                       catalog=target.args.get("catalog"))
            cols = then.this
            if isinstance(cols, exp.Tuple):
                into = exp.Schema(this=into, expressions=list(cols.expressions))
            # (the VALUES list became a select list: its ``?`` are values, not projections)
            self.allow_bare_params = True
            parts.append(self.compile_insert(exp.Insert(this=into, expression=select))
                         .finish(self.ctx))
        for when in matched:
            then = when.args.get("then")
            where = exp.Where(this=exp.Exists(this=matches.copy()))
            if isinstance(then, exp.Update):
                sets = []
                for col, value in self.assignments(then.expressions):
                    one = exp.select(value.copy()).from_(source.copy()).where(on.copy())
                    sets.append(exp.EQ(this=col, expression=exp.Subquery(this=one)))
                part = self.compile_update(exp.Update(this=target.copy(), expressions=sets,
                                                      where=where))
            elif is_delete(then):
                part = self.compile_delete(exp.Delete(this=target.copy(), where=where))
            else:
                raise EngineError(sc.SYNTAX)
            if unmatched:  # not the rows the INSERT above just added
                if part.kind not in ("update", "delete") or " WHERE " not in part.sql:
                    raise not_implemented("MERGE with two clauses into a view")
                part.sql += f" AND rowid <= :{MERGE_ROWID}"
            parts.append(part.finish(self.ctx))
        return Plan("merge", StmtType.MERGE, table=parts[0].table, parts=parts)

    def compile_delete(self, ast: exp.Delete) -> Plan:
        info = self.target(ast.this)
        whole = self.hierarchy_dml(ast, info)
        if whole is not None:
            return whole
        alias = ast.this.alias or self._ident(ast.this.this)
        select = exp.Select(expressions=[exp.Literal.number(1)]).from_(ast.this.copy())
        where = ast.args.get("where")
        if where is not None:
            select.set("where", where.copy())
        sub = self.compile_query(select, None)
        sql = f"DELETE FROM {self.table_sql(info)} AS {quote(alias)}"
        cols = ", ".join(f"{quote(alias)}.{quote(c.name)}" for c in info.columns)
        # the rows it deletes, read before it (a captured table: features/captured_dml.py)
        old_sql = (f"SELECT {quote(alias)}.rowid, {cols} FROM {self.table_sql(info)} "
                   f"AS {quote(alias)}")
        if self._last_where is not None:
            where = f" WHERE {self.generate(self._last_where)}"
            sql += where
            old_sql += where
        plan = Plan("delete", StmtType.DELETE, sql=sql, table=info, params=sub.params)
        plan.old_sql = old_sql
        return plan


class ExprConv:
    @staticmethod
    def cast(node: exp.Expr, src: IfxType, dst: IfxType) -> exp.Expr:
        if src == dst:
            return node
        return func("ifx_cast", node, keylit(src), keylit(dst.nullable()))


def _no_call(function: str) -> exp.Expr:
    """INSERT … SELECT through an implicit cast WITH a function: not done here."""
    raise not_implemented(f"INSERT … SELECT through the cast function {function}")


def _set_values(value: exp.Expr) -> list[exp.Expr]:
    """The values of ``SET (cols) = value``, one per column. Informix writes the value list
    in parentheses and lets a subquery in it give several columns: ``SET (a, b) =
    ((SELECT x, y FROM …))``, ``SET (c) = ((SELECT …))`` (Guide to SQL: Syntax, UPDATE,
    "Multiple-column format"; dbexport and the tutorial write it so); the bare ``= (SELECT
    x, y …)`` is the same. A subquery of n columns becomes n scalar subqueries, one per
    column of its projection."""
    if isinstance(value, exp.Subquery) and isinstance(value.this, (exp.Subquery, exp.Paren)):
        items: list[exp.Expr] = [value.this]  # ((SELECT …)): a list holding one subquery
    elif isinstance(value, exp.Tuple):
        items = list(value.expressions)
    elif isinstance(value, exp.Paren):
        items = [value.this]
    else:
        items = [value]
    out: list[exp.Expr] = []
    for item in items:
        while isinstance(item, exp.Paren) and isinstance(item.this, (exp.Subquery, exp.Paren)):
            item = item.this
        query = item.this if isinstance(item, exp.Subquery) else item
        while isinstance(query, exp.Subquery):
            query = query.this
        if not isinstance(query, exp.Select):
            out.append(item)  # an expression, or a set operation (one column)
            continue
        for one_col in query.expressions:
            one = query.copy()
            one.set("expressions", [one_col.copy()])
            out.append(exp.Subquery(this=one))
    return out


def _row_constructor(node: exp.Expr) -> bool:
    """``ROW(…)``, also cast to a named ROW type (``ROW(…)::row_t``)."""
    while isinstance(node, exp.Cast):
        node = node.this
    return isinstance(node, exp.Anonymous) and str(node.this).upper() == "ROW"
