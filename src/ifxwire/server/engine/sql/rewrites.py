"""Rewrites of a parsed query that turn Informix forms SQLite lacks into ones it has, before
(or, for the outer joins, right after) column qualification: ``x op ANY|ALL (subquery)``,
the niladic SITENAME/DBSERVERNAME, and Informix OUTER tables and OUTER (…) groups."""

from __future__ import annotations

from sqlglot import exp

from ..core import sqlcodes as sc
from ..core.errors import EngineError


def cte_columns(ast: exp.Expr) -> None:
    """``WITH t (a, b) AS (query)``: the column list names the query's columns (Guide to
    SQL: Syntax, "WITH clause"), so the query's first SELECT aliases its projections with
    those names; a list of another length is -382, as a view's is."""
    for cte in list(ast.find_all(exp.CTE)):
        alias = cte.args.get("alias")
        columns = alias.args.get("columns") if alias is not None else None
        if alias is None or not columns:
            continue
        first = cte.this
        while isinstance(first, exp.SetOperation):
            first = first.this
        if not isinstance(first, exp.Select):
            continue
        projections = first.expressions
        if len(projections) != len(columns) or any(isinstance(p, exp.Star) for p in projections):
            raise EngineError(sc.VIEW_COLUMNS)
        first.set("expressions", [
            exp.alias_(p.unalias() if isinstance(p, exp.Alias) else p, c.copy())
            for p, c in zip(projections, columns, strict=True)])
        alias.set("columns", None)


def first_select(sub: exp.Subquery) -> exp.Select | None:
    """The SELECT whose projections name a derived table's columns: its own, or the first
    branch of a set operation (UNION's columns are named by its first query)."""
    first = sub.this
    while isinstance(first, (exp.SetOperation, exp.Subquery)):
        first = first.this
    return first if isinstance(first, exp.Select) else None


def derived_columns(ast: exp.Expr, stars: bool = False) -> None:
    """``FROM (query) AS vt (c1, c2)``: the derived-column list renames the query's
    projections (Guide to SQL: Syntax, "Queries in the FROM clause"); a list of another
    length is -9621. A query whose select list holds ``*`` keeps its list until the
    columns are qualified (sqlglot's qualify_columns expands the star and reads the outer
    query's names through the list), then this runs again with ``stars`` to rename the
    expanded projections."""
    for sub in list(ast.find_all(exp.Subquery)):
        alias = sub.args.get("alias")
        expanded = first_select(sub) if stars and "ifx_derived_count" in sub.meta else None
        if expanded is not None and len(expanded.expressions) != sub.meta["ifx_derived_count"]:
            raise EngineError(sc.DERIVED_COLUMN_COUNT)  # (the list renamed what it named)
        columns = alias.args.get("columns") if alias is not None else None
        if alias is None or not columns or not isinstance(sub.parent, (exp.From, exp.Join)):
            continue
        first = first_select(sub)
        if first is None:
            continue
        projections = first.expressions
        if any(isinstance(p, exp.Star) or (isinstance(p, exp.Column) and p.is_star)
               for p in projections):
            if stars:  # (not expanded: a source whose columns are not known)
                raise EngineError(sc.NOT_IMPLEMENTED, near="derived column list over *")
            sub.meta["ifx_derived_count"] = len(columns)  # checked once expanded
            first.set("expressions", [  # (an unnamed expression beside the star: a name
                p if isinstance(p, (exp.Alias, exp.Column, exp.Star))  # the list replaces)
                else exp.alias_(p, exp.to_identifier(f"unnamed_col_{i + 1}", quoted=True))
                for i, p in enumerate(projections)])
            continue
        if len(projections) != len(columns):
            raise EngineError(sc.DERIVED_COLUMN_COUNT)
        first.set("expressions", [
            exp.alias_(p.unalias() if isinstance(p, exp.Alias) else p, c.copy())
            for p, c in zip(projections, columns, strict=True)])
        alias.set("columns", None)


_AGG_NAMES = frozenset({"RANGE", "STDEV", "VARIANCE"})


def _own_select(node: exp.Expr) -> exp.Expr | None:
    return node.find_ancestor(exp.Select)


def _is_aggregate(node: exp.Expr) -> bool:
    return isinstance(node, exp.AggFunc) or (
        isinstance(node, exp.Anonymous) and str(node.this).upper() in _AGG_NAMES)


def group_columns(ast: exp.Expr) -> None:
    """A grouped query (GROUP BY, or an aggregate in the select list) whose select list
    names a column outside an aggregate that GROUP BY does not list: -294 "The column (%s)
    must be in the GROUP BY list" (Guide to SQL: Tutorial, "The GROUP BY clause"; Syntax,
    "GROUP BY Clause"). Run after column qualification; columns of subqueries and window
    specifications are left alone.

    The HAVING clause likewise: "Each HAVING condition compares one column or aggregate
    expression of the group with another aggregate expression of the group or with a
    constant" (Tutorial, "The HAVING clause", ids_sqt_159), so a column outside an aggregate
    that GROUP BY does not list is -304 "HAVING can only have expressions with aggregates or
    columns in GROUP BY clause." [jcat] (the catalogue's text for exactly this rule; was
    accepted). A HAVING clause makes the query grouped even without GROUP BY ("all rows that
    satisfy the search condition make up a single group", the same page): a bare column in
    its select list is then -294 too."""
    for sel in ast.find_all(exp.Select):
        group = sel.args.get("group")
        having = sel.args.get("having")
        projections = [p.this if isinstance(p, exp.Alias) else p for p in sel.expressions]
        has_agg = any(
            _is_aggregate(n) and _own_select(n) is sel and n.find_ancestor(exp.Window) is None
            for p in projections for n in p.find_all(exp.AggFunc, exp.Anonymous))
        if group is None and not has_agg and having is None:
            continue
        # By name only: an unqualified GROUP BY name that two tables share may stand for the
        # select list's column, and a wrong -294 would be worse than a missed one.
        grouped: set[str] = set()
        for item in (group.expressions if group is not None else []):
            target = item
            if isinstance(item, exp.Literal) and not item.is_string:
                index = int(str(item.this)) - 1
                if 0 <= index < len(projections):
                    target = projections[index]
            for col in ([target] if isinstance(target, exp.Column) else
                        list(target.find_all(exp.Column))):
                grouped.add(col.name.lower())
        for p in projections:
            for col in p.find_all(exp.Column):
                if (not col.table or _own_select(col) is not sel
                        or col.find_ancestor(exp.Window) is not None
                        or any(_is_aggregate(a) for a in _ancestors(col, p))):
                    continue
                if col.name.lower() not in grouped:
                    raise EngineError(sc.NOT_IN_GROUP, near=col.name)
        if having is not None:
            for col in having.find_all(exp.Column):
                if (not col.table or _own_select(col) is not sel
                        or col.find_ancestor(exp.Window) is not None
                        or any(_is_aggregate(a) for a in _ancestors(col, having))):
                    continue
                if col.name.lower() not in grouped:
                    raise EngineError(sc.HAVING_NOT_GROUPED, near=col.name)


def _ancestors(node: exp.Expr, stop: exp.Expr) -> list[exp.Expr]:
    out: list[exp.Expr] = []
    cur = node.parent
    while cur is not None:
        out.append(cur)
        if cur is stop:
            break
        cur = cur.parent
    return out


def quantified(ast: exp.Expr) -> None:
    """``x op ANY|SOME (subquery)`` and ``x op ALL (subquery)``, which SQLite lacks, as
    EXISTS over the subquery: ANY holds when some row compares true; ALL when no row
    compares false or unknown (so ALL over no rows is true, as in Informix)."""
    comparisons = (exp.EQ, exp.NEQ, exp.LT, exp.LTE, exp.GT, exp.GTE)
    for node in list(ast.find_all(exp.All, exp.Any)):
        cmp = node.parent
        if not isinstance(cmp, comparisons) or cmp.expression is not node:
            raise EngineError(sc.SYNTAX)
        query = node.this.this if isinstance(node.this, exp.Subquery) else node.this
        if isinstance(query, exp.SetOperation):
            left: exp.Expr = query
            while isinstance(left, (exp.SetOperation, exp.Subquery)):
                left = left.left if isinstance(left, exp.SetOperation) else left.this
            if not isinstance(left, exp.Select) or len(left.expressions) != 1:
                raise EngineError(sc.SYNTAX)
            first = left.expressions[0]
            left.set("expressions", [exp.alias_(
                first.this if isinstance(first, exp.Alias) else first, "_q0")])
            query = exp.select(exp.column("_q0", "_qu")).from_(exp.Subquery(
                this=query, alias=exp.TableAlias(this=exp.to_identifier("_qu"))))
        if not isinstance(query, exp.Select) or len(query.expressions) != 1:
            raise EngineError(sc.SYNTAX)
        proj = query.expressions[0]
        inner = proj.this if isinstance(proj, exp.Alias) else proj
        query.set("expressions", [exp.alias_(inner, "_q1")])
        value = exp.column("_q1", "_qa")
        test = type(cmp)(this=cmp.this.copy(), expression=value)
        derived = exp.Subquery(this=query, alias=exp.TableAlias(
            this=exp.to_identifier("_qa")))
        if isinstance(node, exp.Any):
            repl: exp.Expr = exp.Exists(this=exp.select("1").from_(derived).where(test))
        else:
            bad = exp.or_(exp.Not(this=exp.Paren(this=test)),
                          exp.Is(this=value.copy(), expression=exp.Null()),
                          exp.Is(this=cmp.this.copy(), expression=exp.Null()))
            repl = exp.Not(this=exp.Exists(this=exp.select("1").from_(derived).where(bad)))
        cmp.replace(repl)


def niladic(ast: exp.Expr) -> None:
    """SITENAME, DBSERVERNAME, CURRENT_ROLE and DEFAULT_ROLE are operators written without
    parentheses (Guide to SQL: Syntax, "Constant Expressions")."""
    for col in list(ast.find_all(exp.Column)):
        if not col.table and not col.this.quoted and col.name.upper() in (
                "SITENAME", "DBSERVERNAME", "CURRENT_ROLE", "DEFAULT_ROLE"):
            col.replace(exp.Anonymous(this=col.name.upper(), expressions=[]))


def _ansi_join(j: exp.Join) -> bool:
    """A join written with ANSI keywords (JOIN … ON/USING, CROSS/NATURAL/LEFT … JOIN), not
    a comma or an Informix OUTER."""
    if j.meta.get("ifx_outer"):
        return False
    return any(j.args.get(k) for k in ("on", "using", "side", "kind", "method"))


def _null_test(c: exp.Expr) -> bool:
    """``u.col IS NULL`` on a subservient table filters after the outer join: the Tutorial
    gives ``FROM customer c OUTER cust_calls u WHERE c.customer_num = u.customer_num AND
    u.customer_num IS NULL`` as the equivalent of the ANSI LEFT JOIN with that WHERE
    post-join filter, one that "excludes rows with non-NULL cust_calls values" (Guide to
    SQL: Tutorial, "Left outer join", ids_sqt_165). Any other condition on the subservient
    table alone filters it before the join."""
    return isinstance(c, exp.Is) and isinstance(c.expression, exp.Null) and isinstance(
        c.this, exp.Column)


def convert_outer_joins(root: exp.Expr) -> None:
    """Informix ``FROM a, OUTER b WHERE a.x = b.x``: conditions naming b join b (LEFT).

    ``OUTER (b, c)`` makes a group: conditions among the group's tables only join them
    (an inner join, or LEFT for ``OUTER c`` inside the group), conditions that also name
    tables outside it join the group as a whole."""
    for sel in list(root.find_all(exp.Select)):
        joins = sel.args.get("joins") or []
        outer_joins = [j for j in joins if j.meta.get("ifx_outer")]
        if not outer_joins:
            continue
        if any(_ansi_join(j) for j in joins):
            # "you must use Informix-extension syntax for all outer joins in a single query
            # block" (Guide to SQL: Syntax, Informix-Extension Outer Joins); -19820 is the
            # catalogue's "Informix OUTER JOIN and ANSI JOIN in the same query block." [jcat]
            raise EngineError(sc.OUTER_WITH_ANSI_JOIN)
        # An OUTER table is subordinate to every non-OUTER table of the FROM list, wherever
        # it is written: join it after all of them so its ON may name any of them.
        joins = [j for j in joins if not j.meta.get("ifx_outer")] + outer_joins
        sel.set("joins", joins)
        owner: dict[str, tuple[exp.Join, exp.Join | None]] = {}
        for j in outer_joins:
            if j.meta.get("ifx_group") and isinstance(j.this, exp.Subquery):
                first = j.this.this
                owner[first.alias_or_name] = (j, None)
                for member in first.args.get("joins") or []:
                    owner[member.this.alias_or_name] = (j, member)
            else:
                owner[j.this.alias_or_name] = (j, None)
        where = sel.args.get("where")
        conjuncts = list(where.this.flatten()) if isinstance(where, exp.Where) and isinstance(
            where.this, exp.And) else ([where.this] if isinstance(where, exp.Where) else [])
        keep: list[exp.Expr] = []
        conds: dict[int, list[exp.Expr]] = {}
        for c in conjuncts:
            tables = {col.table for col in c.find_all(exp.Column)}
            mine = [a for a in owner if a in tables]
            if not mine or _null_test(c):
                keep.append(c)
                continue
            if len({id(owner[a][0]) for a in mine}) > 1:
                # Two subservient tables (of different OUTER items) related by the WHERE
                # clause: Informix wants them in one OUTER (…) group (Guide to SQL: Syntax,
                # Informix-Extension Outer Joins); -393 is the catalogue's "A condition in
                # the where clause results in a two-sided outer join." [jcat]
                raise EngineError(sc.TWO_SIDED_OUTER)
            group, member = owner[mine[-1]]
            members = {a for a, (g, _) in owner.items() if g is group}
            target = member if member is not None and tables <= members else group
            conds.setdefault(id(target), []).append(c)
        for group, member in owner.values():
            for join in (group, member):
                if join is None or (join.args.get("on") is not None and id(join) not in conds):
                    continue
                found = conds.get(id(join), [])
                join.set("on", exp.and_(*found) if found else exp.EQ(
                    this=exp.Literal.number(1), expression=exp.Literal.number(1)))
        if keep:
            sel.set("where", exp.Where(this=exp.and_(*keep)))
        else:
            sel.set("where", None)
