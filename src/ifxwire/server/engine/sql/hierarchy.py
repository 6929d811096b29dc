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
child's level. Not supported (-999): views, PRIOR outside CONNECT BY, LEVEL beside columns
in one conjunct or in START WITH, parameters in the clause or in those two, a clause
inside a subquery.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlglot import exp

from ..core import sqlcodes as sc
from ..core.errors import EngineError, not_implemented
from .statements import parse

if TYPE_CHECKING:
    from .plan import Plan
    from .translate import Compiler

#: Stand-ins the main query's translation carries for the walk's columns (INTEGER literals no
#: statement uses), replaced by those columns once translated.
_PSEUDO = {"level": 2147480001, "connect_by_isleaf": 2147480002,
           "connect_by_iscycle": 2147480003}
_WALK_COLUMN = {2147480001: "hq_lvl", 2147480002: "hq_leaf", 2147480003: "hq_cycle"}
_P, _C = "hq_p", "hq_c"
#: Markers of the path and root stand-ins (i added), and of LEVEL in a CONNECT BY condition.
_MARK_PATH, _MARK_ROOT, _MARK_LEVEL = 2147481000, 2147482000, 2147480009


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
    connect = sel.args["connect"]
    sel = sel.copy()
    sel.set("connect", None)
    nocycle = bool(connect.args.get("nocycle"))
    source = sel.args.get("from_")
    if sel.args.get("joins"):  # ids_sqs_2033: "A join of two or more tables" is not valid
        raise EngineError(sc.CONNECT_BY_JOIN)
    table = source.this if source is not None else None
    if not isinstance(table, exp.Table) or sel.args.get("with") is not None:
        raise not_implemented("a hierarchical query over a derived table")
    name = table.name.lower()
    alias = (table.alias or table.name).lower()
    if list(connect.find_all(exp.Placeholder)):
        raise not_implemented("parameters in START WITH or CONNECT BY")
    if sel.find(exp.Prior) is not None:
        raise not_implemented("PRIOR outside CONNECT BY")
    if sel.find(exp.Connect) is not None:
        raise not_implemented("a hierarchical query inside another")
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
    for node in list(sel.walk()):
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

    def base(where: exp.Expr | None, two: bool) -> exp.Select:
        key_cols = [_side(k.this, alias, name) for k in keys] or [exp.Literal.number(1)]
        q = exp.select(*key_cols, *[_side(v, alias, name) for v in values])
        if two:
            q = q.from_(exp.Table(this=exp.to_identifier(name), alias=exp.TableAlias(
                this=exp.to_identifier(_P)))).join(exp.Table(
                    this=exp.to_identifier(name), alias=exp.TableAlias(
                        this=exp.to_identifier(_C))))
        else:
            q = q.from_(exp.Table(this=exp.to_identifier(name), alias=exp.TableAlias(
                this=exp.to_identifier(_C))))
        return q.where(where) if where is not None else q

    roots = _translate(cp, base(_side(start, alias, name) if start is not None else None,
                                False))
    roots_sql = _aliased(roots, [(exp.column("rowid", table=_C, quoted=True), "hq_rid")])
    pairs = _translate(cp, base(_side(link, alias, name), True))
    pairs_sql = _aliased(pairs, [(exp.column("rowid", table=_P, quoted=True), "hq_prid"),
                                 (exp.column("rowid", table=_C, quoted=True), "hq_crid")])
    sort = ", ".join(f'"hq{i}"{" DESC" if k.args.get("desc") else ""}'
                     for i, k in enumerate(keys))
    sort = f"{sort}, " if sort else ""

    # The main query: LEVEL & co. as stand-in literals, translated, then joined to the walk.
    walk_column = dict(_WALK_COLUMN)

    def pseudo(n: exp.Expr) -> exp.Expr:
        if isinstance(n, exp.Column) and not n.table and n.name.lower() in _PSEUDO:
            if n.name.lower() == "connect_by_iscycle" and not nocycle:
                raise EngineError(sc.CONNECT_BY_ISCYCLE)
            return exp.Literal.number(_PSEUDO[n.name.lower()])
        if _is_path(n):
            # [inference] LVARCHAR: no Informix page in reach states the type (DB2's says a
            # varying string of at least 1000); the stand-in carries it, its marker the walk's
            # column.
            i = path_index[n.sql()]
            marker = _MARK_PATH + i
            walk_column[marker] = f"hq_path{i}"
            stand_in = parse(f"SELECT CAST('{marker}' AS LVARCHAR(4000))").expressions[0]
            assert isinstance(stand_in, exp.Cast)
            return stand_in
        if isinstance(n, exp.ConnectByRoot):
            # The type of e (DB2's page: "The result type of the operator is the result type
            # of the expression"): CASE WHEN marker = 0 THEN e ELSE e END, replaced whole.
            i = root_index[n.sql()]
            marker = _MARK_ROOT + i
            walk_column[marker] = f"hq_root{i}"
            return exp.Case(ifs=[exp.If(this=exp.EQ(this=exp.Literal.number(marker),
                                                     expression=exp.Literal.number(0)),
                                        true=n.this.copy())], default=n.this.copy())
        return n
    plan = cp.compile_query(sel.transform(pseudo))
    main = cp._last_root
    assert isinstance(main, exp.Select)
    for lit in list(main.find_all(exp.Literal)):
        if not lit.this.isdigit() or int(lit.this) not in walk_column or (
                lit.is_string != (_MARK_PATH <= int(lit.this) < _MARK_ROOT)):
            continue
        mark = int(lit.this)
        column = exp.column(walk_column[mark], table="hq_x", quoted=True)
        if mark >= _MARK_ROOT:  # the whole CASE around the marker
            whole: exp.Expr | None = lit
            while whole is not None and not isinstance(whole, exp.Case):
                whole = whole.parent
            if whole is None or whole.root() is not main:
                raise not_implemented("CONNECT_BY_ROOT here")
            whole.replace(column)
        else:  # LEVEL & co., and the path's string (its cast to LVARCHAR is no conversion)
            lit.replace(column)
    from_table = main.args["from_"].this
    main_alias = from_table.alias_or_name
    main.append("joins", exp.Join(
        this=exp.Table(this=exp.to_identifier("hq_x", quoted=True)),
        on=exp.EQ(this=exp.column("hq_rid", table="hq_x", quoted=True),
                  expression=exp.column("rowid", table=main_alias, quoted=True))))
    # A loop without NOCYCLE is an error (-26079) on the row that closes it.
    main.where(exp.EQ(this=exp.column("hq_check", table="hq_x", quoted=True),
                      expression=exp.Literal.number(0)), copy=False)
    if main.args.get("order") is None:
        main.set("order", exp.Order(expressions=[exp.Ordered(
            this=exp.column("hq_ord", table="hq_x", quoted=True))]))
    # LEVEL conditions of CONNECT BY, with the child's level (h.hq_lvl + 1), on each step.
    step = ""
    for cond in level_conds:
        def lvl(n: exp.Expr) -> exp.Expr:
            return exp.Literal.number(_MARK_LEVEL) if _is_level(n) else n
        probe = _translate(cp, exp.select("1").where(cond.copy().transform(lvl)))
        where = probe.args["where"].this
        for lit in list(where.find_all(exp.Literal)):
            if not lit.is_string and lit.this == str(_MARK_LEVEL):
                lit.replace(exp.Paren(this=exp.Add(this=exp.column("hq_lvl", table="h"),
                                                    expression=exp.Literal.number(1))))
        step += f" AND ({cp.generate(where)})"
    cycle = ("EXISTS (SELECT 1 FROM hq_e e WHERE e.hq_prid = h.hq_rid" + step + " AND "
             "instr(h.hq_anc, ',' || e.hq_crid || ',') > 0)")
    check = "0" if nocycle else f"CASE WHEN {cycle} THEN ifx_error({sc.CONNECT_BY_LOOP}) ELSE 0 END"
    # The walk's values: hq_path<i> grows by the child's (sep || e), hq_root<j> keeps the
    # root's e; their columns in the roots and pairs follow the sort keys (hq<nkey+k>).
    cols = [f"hq_path{i}" for i in range(len(paths))] + [
        f"hq_root{j}" for j in range(len(roots_of))]
    first = "".join(f", hq{nkey + k}" for k in range(len(cols)))
    nxt = "".join(f", h.hq_path{i} || e.hq{nkey + i}" for i in range(len(paths))) + "".join(
        f", h.hq_root{j}" for j in range(len(roots_of)))
    head = "".join(f", {c}" for c in cols)
    walk = (
        f"WITH RECURSIVE hq_r AS (SELECT *, ROW_NUMBER() OVER (ORDER BY {sort}\"hq_rid\") "
        f"AS hq_rank FROM ({roots_sql})), "
        f"hq_e AS (SELECT *, ROW_NUMBER() OVER (PARTITION BY \"hq_prid\" ORDER BY {sort}"
        f"\"hq_crid\") AS hq_rank FROM ({pairs_sql})), "
        f"hq_h(hq_rid, hq_lvl, hq_anc, hq_ord{head}) AS ("
        f"SELECT hq_rid, 1, ',' || hq_rid || ',', printf('%010d', hq_rank){first} FROM hq_r "
        "UNION ALL SELECT e.hq_crid, h.hq_lvl + 1, h.hq_anc || e.hq_crid || ',', "
        f"h.hq_ord || '.' || printf('%010d', e.hq_rank){nxt} FROM hq_h h JOIN hq_e e "
        f"ON e.hq_prid = h.hq_rid{step} WHERE instr(h.hq_anc, ',' || e.hq_crid || ',') = 0), "
        "hq_x AS (SELECT h.*, CASE WHEN EXISTS (SELECT 1 FROM hq_e e WHERE e.hq_prid = "
        f"h.hq_rid{step} AND instr(h.hq_anc, ',' || e.hq_crid || ',') = 0) THEN 0 ELSE 1 END "
        f"AS hq_leaf, CASE WHEN {cycle} THEN 1 ELSE 0 END AS hq_cycle, {check} AS hq_check "
        "FROM hq_h h) ")
    plan.sql = walk + cp.generate(main)
    return plan


__all__ = ["compile_hierarchical"]
