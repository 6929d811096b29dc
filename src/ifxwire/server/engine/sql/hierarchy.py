"""Hierarchical queries: ``SELECT ... FROM t [WHERE ...] [START WITH c] CONNECT BY [NOCYCLE]
c' [ORDER SIBLINGS BY ...]`` (HCL Informix Guide to SQL: Syntax, "Hierarchical Clause"),
as one SQLite statement with a recursive common table expression.

The clause's parts are translated by the engine as ordinary Informix queries over the one
table (the roots: ``SELECT keys FROM t WHERE c``; the parent-child pairs: ``SELECT keys
FROM t p, t c WHERE c'`` with ``PRIOR x`` read from p), then walked by SQLite's ``WITH
RECURSIVE`` by the table's rowid. The main query is the statement without the clause,
joined to the walk; LEVEL, CONNECT_BY_ISLEAF and CONNECT_BY_ISCYCLE are the walk's columns.
Rows come depth first, siblings in ORDER SIBLINGS BY order (else by rowid, the order they
were inserted). A loop without NOCYCLE is -26079; CONNECT_BY_ISCYCLE without NOCYCLE is
-26082; a join in FROM is -26085 (codes of the Informix message catalogue, IBM JDBC
4.50.12).

SYS_CONNECT_BY_PATH(e, sep) and CONNECT_BY_ROOT e are columns of the walk too: the roots
and the pairs carry ``sep || e`` (and e) of their child row, the walk concatenates the one
and keeps the root's other. In the main query each stands as an expression of the right
type around a marker literal (a CASE over e for CONNECT_BY_ROOT, a CAST to LVARCHAR for the
path), replaced by the walk's column once translated. A LEVEL condition ANDed to the
CONNECT BY condition (``... AND LEVEL < 3``) is checked on each step of the walk with the
child's level. A hierarchical query inside another (a derived table, a subquery, a UNION
branch) gets its own walk as a WITH inside its subquery (nest, finish_nested). A view or
derived table, which has no rowid, has its rows numbered once (hq_src). Not
supported (-999): PRIOR outside CONNECT BY, LEVEL
beside columns in one conjunct or in START WITH, parameters in the clause or in those two,
a START WITH or CONNECT BY that reads an outer query.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import TYPE_CHECKING

import sqlglot
from sqlglot import exp

from ..core import sqlcodes as sc
from ..core.errors import EngineError, not_implemented
from .statements import parse

if TYPE_CHECKING:
    from .plan import Plan
    from .translate import Compiler

#: The walk's columns for LEVEL & co.; in the main query each stands as an INTEGER literal no
#: statement uses (a marker: _base(k) + its offset here), replaced once translated.
_PSEUDO = {"level": 1, "connect_by_isleaf": 2, "connect_by_iscycle": 3}
_WALK_COLUMN = {1: "hq_lvl", 2: "hq_leaf", 3: "hq_cycle"}
_P, _C = "hq_p", "hq_c"
#: Marker offsets: the tag that finds a nested query's translation, LEVEL in a CONNECT BY
#: condition, the path and root stand-ins (their index added).
_TAG, _MARK_LEVEL, _MARK_PATH, _MARK_ROOT = 5, 9, 1000, 2000
#: Nested hierarchical queries of one statement are numbered (their markers and walk names
#: apart); the number wraps, as only those of one statement must differ.
_NESTED = itertools.count(1)


def _base(k: int) -> int:
    """The markers of walk ``k`` (0: the statement itself) lie in base .. base + 99999."""
    return 1_900_000_000 + k * 100_000


def _hierarchical(node: exp.Expr) -> bool:
    return isinstance(node, exp.Select) and node.args.get("connect") is not None


def _is_path(node: exp.Expr) -> bool:
    return isinstance(node, exp.Anonymous) and str(node.this).upper() == "SYS_CONNECT_BY_PATH"


def _is_level(node: exp.Expr) -> bool:
    return isinstance(node, exp.Column) and not node.table and node.name.lower() == "level"


def _is_pseudo(node: exp.Expr) -> bool:
    return isinstance(node, exp.Column) and not node.table and node.name.lower() in _PSEUDO


def _has_level(node: exp.Expr) -> bool:
    return any(_is_level(n) for n in node.walk())


def _conjuncts(node: exp.Expr) -> list[exp.Expr]:
    while isinstance(node, exp.Paren):
        node = node.this
    if isinstance(node, exp.And):
        return _conjuncts(node.this) + _conjuncts(node.expression)
    return [node]


def _side(node: exp.Expr, alias: str, table: str, side: str = _C) -> exp.Expr:
    """``node`` with its columns read from ``side`` (the child row, hq_c), those under PRIOR
    from the parent row (hq_p); ``alias`` and ``table`` name the one table of the query."""
    node = node.copy()

    def fix(n: exp.Expr) -> exp.Expr:
        if isinstance(n, exp.Prior):
            return _side(n.this, alias, table, _P)
        if isinstance(n, exp.Column) and (not n.table or n.table.lower() in (alias, table)):
            return exp.column(n.name, table=side)
        return n
    return node.transform(fix)


def _translate(cp: Compiler, ast: exp.Select) -> exp.Select:
    cp.compile_query(ast)
    root = cp._last_root
    assert isinstance(root, exp.Select)
    return root


def _aliased(root: exp.Select, extra: list[tuple[exp.Expr, str]]) -> str:
    """The translated query's SQL with its columns named hq0, hq1, ... and ``extra``."""
    cols: list[exp.Expr] = [exp.alias_(p.this if isinstance(p, exp.Alias) else p, f"hq{i}",
                                       quoted=True) for i, p in enumerate(root.expressions)]
    cols += [exp.alias_(e, name, quoted=True) for e, name in extra]
    root.set("expressions", cols)
    return root.sql(dialect="sqlite", identify=True)


def compile_hierarchical(cp: Compiler, sel: exp.Select) -> Plan:
    """The statement ``SELECT ... CONNECT BY ...`` itself: the walk, then the main query."""
    main_ast, finish, walk = _prepare(cp, sel, 0)
    plan = cp.compile_query(main_ast)
    main = cp._last_root
    assert isinstance(main, exp.Select)
    finish(main)
    plan.sql = walk + " " + cp.generate(main)
    return plan


def nest(cp: Compiler, ast: exp.Expr) -> list[tuple[int, Callable[[exp.Select], None], str]]:
    """Hierarchical queries inside ``ast`` (a derived table, a subquery; ids_sqs_2033 lists
    "A derived table that is the result of a query" among the valid tables and OneDB's copy
    says the clause "is valid in correlated subqueries"): each is replaced by its main query
    with a tag, to be finished by :func:`finish_nested` once the whole is translated."""
    done: list[tuple[int, Callable[[exp.Select], None], str]] = []
    while True:
        found = [s for s in ast.find_all(exp.Select) if _hierarchical(s) and s is not ast]
        if not found:
            return done
        sel = found[-1]
        k = next(_NESTED) % 1000 + 1
        try:
            main_ast, finish, walk = _prepare(cp, sel, k)
        except EngineError as e:
            if e.sqlcode in (sc.NO_COLUMN, sc.NO_TABLE):  # an outer column: correlated
                raise not_implemented("a correlated hierarchical subquery") from None
            raise
        tag = exp.Literal.number(_base(k) + _TAG)
        main_ast.where(exp.EQ(this=tag, expression=tag.copy()), copy=False)
        sel.replace(main_ast)
        done.append((k, finish, walk))


def finish_nested(root: exp.Expr,
                  nested: list[tuple[int, Callable[[exp.Select], None], str]]) -> None:
    """Each nested walk's translated main query, found by its tag: finished and given the
    walk as its own WITH (SQLite takes WITH RECURSIVE in a subquery)."""
    for k, finish, walk in nested:
        mark = str(_base(k) + _TAG)
        lit = next((n for n in root.find_all(exp.Literal)
                    if not n.is_string and n.this == mark), None)
        sel = lit.find_ancestor(exp.Select) if lit is not None else None
        if lit is None or sel is None or not isinstance(lit.parent, exp.EQ):
            raise not_implemented("a hierarchical query here")
        lit.parent.replace(exp.true())
        finish(sel)
        with_ = sqlglot.parse_one(walk + " SELECT 1", dialect="sqlite").args["with_"]
        if isinstance(sel.parent, exp.SetOperation):
            # A compound's branch cannot begin with WITH: SELECT * FROM (WITH ... SELECT ...).
            outer = exp.select("*").from_(exp.Subquery(this=sel.copy()))
            sel.replace(outer)
            sel = outer.args["from_"].this.this
        sel.set("with_", with_)


def _prepare(cp: Compiler, sel: exp.Select, k: int) -> tuple[
        exp.Select, Callable[[exp.Select], None], str]:
    """Walk ``k`` of the hierarchical ``sel``: its main query (the statement without the
    clause, LEVEL & co. as markers, still to translate), the function that finishes the
    translated main query (markers to walk columns, the join to the walk), and the walk (a
    WITH RECURSIVE clause)."""
    mbase = _base(k)
    x = f"hq_x{k}" if k else "hq_x"
    r, e_, h_ = (f"hq_r{k}", f"hq_e{k}", f"hq_h{k}") if k else ("hq_r", "hq_e", "hq_h")
    connect = sel.args["connect"]
    sel = sel.copy()
    sel.set("connect", None)
    nocycle = bool(connect.args.get("nocycle"))
    source = sel.args.get("from_")
    if sel.args.get("joins"):  # ids_sqs_2033: "A join of two or more tables" is not valid
        raise EngineError(sc.CONNECT_BY_JOIN)
    table = source.this if source is not None else None
    # ids_sqs_2033: "A table or updateable view", "A temporary table", "A derived table that
    # is the result of a query" are valid. A view or derived table has no rowid: its rows
    # are numbered once (hq_src, MATERIALIZED) and the walk reads them there.
    derived = isinstance(table, exp.Subquery) and isinstance(table.this, exp.Select) and bool(
        table.alias)
    if not (isinstance(table, exp.Table) or derived) or sel.args.get("with_") is not None:
        raise not_implemented("a hierarchical query over this table expression")
    assert isinstance(table, (exp.Table, exp.Subquery))
    if isinstance(table, exp.Table):
        owner = table.args.get("db")
        catalog = table.args.get("catalog")
        info = cp.lookup.resolve(table.name, owner.name if owner else None,
                                 catalog.name if catalog else None, 0)
        numbered = info.kind != "T"
        name = table.name.lower()
    else:
        numbered = True
        name = table.alias.lower()
    alias = (table.alias or table.name).lower()
    src = f"hq_src{k}"
    rid = "hq_srid" if numbered else "rowid"
    if list(connect.find_all(exp.Placeholder)):
        raise not_implemented("parameters in START WITH or CONNECT BY")
    own = list(sel.walk(prune=lambda n: n is not sel and _hierarchical(n)))
    if any(isinstance(n, exp.Prior) for n in own):
        raise not_implemented("PRIOR outside CONNECT BY")
    for node in connect.walk():
        if isinstance(node, exp.ConnectByRoot) or _is_path(node):
            # Oracle's and DB2's pages forbid them there; no Informix page allows them.
            raise not_implemented("CONNECT_BY_ROOT or SYS_CONNECT_BY_PATH in START WITH or "
                                  "CONNECT BY")
    start = connect.args.get("start")
    if start is not None and _has_level(start):
        raise not_implemented("LEVEL in the START WITH condition")
    # ids_sqs_2036: LEVEL is valid in the CONNECT BY condition. A conjunct that reads LEVEL
    # and no column is checked on each step of the walk; LEVEL beside columns is refused.
    link: exp.Expr | None = None
    level_conds: list[exp.Expr] = []
    for conj in _conjuncts(connect.args["connect"]):
        if not _has_level(conj):
            link = conj if link is None else exp.and_(link, conj, copy=False)
        elif any(isinstance(c, exp.Column) and not _is_level(c) for c in conj.walk()):
            raise not_implemented("LEVEL beside columns in one CONNECT BY condition")
        else:
            level_conds.append(conj)
    if link is None:
        raise not_implemented("a CONNECT BY condition that reads LEVEL alone")

    # ORDER SIBLINGS BY: the keys rank the roots and each parent's children.
    order = sel.args.get("order")
    keys: list[exp.Ordered] = []
    if isinstance(order, exp.Order) and order.args.get("siblings"):
        keys = [o for o in order.expressions if isinstance(o, exp.Ordered)]
        sel.set("order", None)

    # The walk's values: (sep || e) of each SYS_CONNECT_BY_PATH, e of each CONNECT_BY_ROOT,
    # read from the child row of the roots and of the pairs.
    paths: list[exp.Expr] = []
    roots_of: list[exp.Expr] = []
    path_index: dict[str, int] = {}  # the same call twice is one column of the walk
    root_index: dict[str, int] = {}
    for node in own:
        if _is_path(node):
            args = node.expressions
            if len(args) != 2:
                raise EngineError(sc.SYNTAX, near="sys_connect_by_path")
            if any(_is_pseudo(n) or isinstance(n, exp.ConnectByRoot) or _is_path(n)
                   for a in args for n in a.walk() if n is not node):
                # DB2's page (IBM) forbids hierarchical constructs in its arguments.
                raise not_implemented("LEVEL, CONNECT_BY_ROOT or SYS_CONNECT_BY_PATH inside "
                                      "SYS_CONNECT_BY_PATH")
            if node.sql() not in path_index:
                path_index[node.sql()] = len(paths)
                paths.append(exp.DPipe(this=args[1].copy(), expression=args[0].copy(),
                                       safe=True))
        elif isinstance(node, exp.ConnectByRoot):
            if any(_is_pseudo(n) or _is_path(n) or (n is not node and isinstance(
                    n, exp.ConnectByRoot)) for n in node.this.walk()):
                raise not_implemented("LEVEL or SYS_CONNECT_BY_PATH inside CONNECT_BY_ROOT")
            if node.sql() not in root_index:
                root_index[node.sql()] = len(roots_of)
                roots_of.append(node.this.copy())
    if any(v.find(exp.Placeholder) is not None for v in paths + roots_of):
        # The walk's statements come before the main query's: their ``?`` would be numbered
        # first and are not in the plan's parameter list.
        raise not_implemented("parameters in SYS_CONNECT_BY_PATH or CONNECT_BY_ROOT")
    nkey = max(len(keys), 1)
    values = paths + roots_of

    def source_as(side: str) -> exp.Expr:
        node: exp.Expr
        if isinstance(table, exp.Table):
            node = exp.Table(this=exp.to_identifier(table.name))
        else:
            node = table.copy()
        node.set("alias", exp.TableAlias(this=exp.to_identifier(side)))
        return node

    def base(where: exp.Expr | None, two: bool) -> exp.Select:
        key_cols = [_side(k.this, alias, name) for k in keys] or [exp.Literal.number(1)]
        q = exp.select(*key_cols, *[_side(v, alias, name) for v in values])
        q = q.from_(source_as(_P)).join(source_as(_C)) if two else q.from_(source_as(_C))
        return q.where(where) if where is not None else q

    def numbered_source(node: exp.Expr) -> exp.Expr:
        """The translated source ``node`` replaced by the numbered rows (same alias)."""
        new = exp.Table(this=exp.to_identifier(src, quoted=True),
                        alias=exp.TableAlias(this=exp.to_identifier(node.alias, quoted=True)))
        node.replace(new)
        return new

    roots = _translate(cp, base(_side(start, alias, name) if start is not None else None,
                                False))
    src_sql = ""
    if numbered:
        first_source = roots.args["from_"].this.copy()
        first_source.set("alias", None)
        src_sql = first_source.sql(dialect="sqlite", identify=True)
        numbered_source(roots.args["from_"].this)
    roots_sql = _aliased(roots, [(exp.column(rid, table=_C, quoted=True), "hq_rid")])
    pairs = _translate(cp, base(_side(link, alias, name), True))
    if numbered:
        numbered_source(pairs.args["from_"].this)
        numbered_source(pairs.args["joins"][0].this)
    pairs_sql = _aliased(pairs, [(exp.column(rid, table=_P, quoted=True), "hq_prid"),
                                 (exp.column(rid, table=_C, quoted=True), "hq_crid")])
    sort = ", ".join(f'"hq{i}"{" DESC" if k.args.get("desc") else ""}'
                     for i, k in enumerate(keys))
    sort = f"{sort}, " if sort else ""

    # The main query: LEVEL & co. as stand-in literals, translated, then joined to the walk.
    walk_column = {mbase + off: name for off, name in _WALK_COLUMN.items()}

    def pseudo(n: exp.Expr) -> exp.Expr:
        if n is not sel and _hierarchical(n):
            return n.copy()  # a query of its own (nest() takes it); a new node: not entered
        if isinstance(n, exp.Column) and not n.table and n.name.lower() in _PSEUDO:
            if n.name.lower() == "connect_by_iscycle" and not nocycle:
                raise EngineError(sc.CONNECT_BY_ISCYCLE)
            return exp.Literal.number(mbase + _PSEUDO[n.name.lower()])
        if _is_path(n):
            # [inference] LVARCHAR: no Informix page in reach states the type (DB2's says a
            # varying string of at least 1000); the stand-in carries it, its marker the walk's
            # column.
            i = path_index[n.sql()]
            marker = mbase + _MARK_PATH + i
            walk_column[marker] = f"hq_path{i}"
            stand_in = parse(f"SELECT CAST('{marker}' AS LVARCHAR(4000))").expressions[0]
            assert isinstance(stand_in, exp.Cast)
            return stand_in
        if isinstance(n, exp.ConnectByRoot):
            # The type of e (DB2's page: "The result type of the operator is the result type
            # of the expression"): CASE WHEN marker = 0 THEN e ELSE e END, replaced whole.
            i = root_index[n.sql()]
            marker = mbase + _MARK_ROOT + i
            walk_column[marker] = f"hq_root{i}"
            return exp.Case(ifs=[exp.If(this=exp.EQ(this=exp.Literal.number(marker),
                                                     expression=exp.Literal.number(0)),
                                        true=n.this.copy())], default=n.this.copy())
        return n
    main_ast = sel.transform(pseudo)
    assert isinstance(main_ast, exp.Select)

    def finish(main: exp.Select) -> None:
        for lit in list(main.find_all(exp.Literal)):
            if not lit.this.isdigit() or int(lit.this) not in walk_column or (
                    lit.is_string != (_MARK_PATH <= int(lit.this) - mbase < _MARK_ROOT)):
                continue
            mark = int(lit.this)
            column = exp.column(walk_column[mark], table=x, quoted=True)
            if mark - mbase >= _MARK_ROOT:  # the whole CASE around the marker
                whole: exp.Expr | None = lit
                while whole is not None and not isinstance(whole, exp.Case):
                    whole = whole.parent
                if whole is None or whole.find_ancestor(exp.Select) is None:
                    raise not_implemented("CONNECT_BY_ROOT here")
                whole.replace(column)
            else:  # LEVEL & co., and the path's string (its cast to LVARCHAR converts nothing)
                lit.replace(column)
        from_table = main.args["from_"].this
        main_alias = from_table.alias_or_name
        if numbered:
            numbered_source(from_table)
        main.append("joins", exp.Join(
            this=exp.Table(this=exp.to_identifier(x, quoted=True)),
            on=exp.EQ(this=exp.column("hq_rid", table=x, quoted=True),
                      expression=exp.column(rid, table=main_alias, quoted=True))))
        # A loop without NOCYCLE is an error (-26079) on the row that closes it.
        main.where(exp.EQ(this=exp.column("hq_check", table=x, quoted=True),
                          expression=exp.Literal.number(0)), copy=False)
        if main.args.get("order") is None:
            main.set("order", exp.Order(expressions=[exp.Ordered(
                this=exp.column("hq_ord", table=x, quoted=True))]))

    # LEVEL conditions of CONNECT BY, with the child's level (h.hq_lvl + 1), on each step.
    step = ""
    for cond in level_conds:
        def lvl(n: exp.Expr) -> exp.Expr:
            return exp.Literal.number(mbase + _MARK_LEVEL) if _is_level(n) else n
        probe = _translate(cp, exp.select("1").where(cond.copy().transform(lvl)))
        where = probe.args["where"].this
        for lit in list(where.find_all(exp.Literal)):
            if not lit.is_string and lit.this == str(mbase + _MARK_LEVEL):
                lit.replace(exp.Paren(this=exp.Add(this=exp.column("hq_lvl", table="h"),
                                                    expression=exp.Literal.number(1))))
        step += f" AND ({cp.generate(where)})"
    cycle = (f"EXISTS (SELECT 1 FROM {e_} e WHERE e.hq_prid = h.hq_rid" + step + " AND "
             "instr(h.hq_anc, ',' || e.hq_crid || ',') > 0)")
    check = "0" if nocycle else f"CASE WHEN {cycle} THEN ifx_error({sc.CONNECT_BY_LOOP}) ELSE 0 END"
    # The walk's values: hq_path<i> grows by the child's (sep || e), hq_root<j> keeps the
    # root's e; their columns in the roots and pairs follow the sort keys (hq<nkey+k>).
    cols = [f"hq_path{i}" for i in range(len(paths))] + [
        f"hq_root{j}" for j in range(len(roots_of))]
    first = "".join(f", hq{nkey + j}" for j in range(len(cols)))
    nxt = "".join(f", h.hq_path{i} || e.hq{nkey + i}" for i in range(len(paths))) + "".join(
        f", h.hq_root{j}" for j in range(len(roots_of)))
    head = "".join(f", {c}" for c in cols)
    numbering = (f"{src} AS MATERIALIZED (SELECT ROW_NUMBER() OVER () AS hq_srid, * FROM "
                 f"{src_sql}), " if numbered else "")
    walk = (
        f"WITH RECURSIVE {numbering}{r} AS (SELECT *, ROW_NUMBER() OVER (ORDER BY {sort}"
        f"\"hq_rid\") AS hq_rank FROM ({roots_sql})), "
        f"{e_} AS (SELECT *, ROW_NUMBER() OVER (PARTITION BY \"hq_prid\" ORDER BY {sort}"
        f"\"hq_crid\") AS hq_rank FROM ({pairs_sql})), "
        f"{h_}(hq_rid, hq_lvl, hq_anc, hq_ord{head}) AS ("
        f"SELECT hq_rid, 1, ',' || hq_rid || ',', printf('%010d', hq_rank){first} FROM {r} "
        "UNION ALL SELECT e.hq_crid, h.hq_lvl + 1, h.hq_anc || e.hq_crid || ',', "
        f"h.hq_ord || '.' || printf('%010d', e.hq_rank){nxt} FROM {h_} h JOIN {e_} e "
        f"ON e.hq_prid = h.hq_rid{step} WHERE instr(h.hq_anc, ',' || e.hq_crid || ',') = 0), "
        f"{x} AS (SELECT h.*, CASE WHEN EXISTS (SELECT 1 FROM {e_} e WHERE e.hq_prid = "
        f"h.hq_rid{step} AND instr(h.hq_anc, ',' || e.hq_crid || ',') = 0) THEN 0 ELSE 1 END "
        f"AS hq_leaf, CASE WHEN {cycle} THEN 1 ELSE 0 END AS hq_cycle, {check} AS hq_check "
        f"FROM {h_} h)")
    return main_ast, finish, walk


__all__ = ["compile_hierarchical", "finish_nested", "nest"]
