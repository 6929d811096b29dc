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
4.50.12). Not supported (-999): views, PRIOR outside CONNECT BY, SYS_CONNECT_BY_PATH,
CONNECT_BY_ROOT, parameters in the clause, a clause inside a subquery.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlglot import exp

from ..core import sqlcodes as sc
from ..core.errors import EngineError, not_implemented

if TYPE_CHECKING:
    from .plan import Plan
    from .translate import Compiler

#: Stand-ins the main query's translation carries for the walk's columns (INTEGER literals no
#: statement uses), replaced by those columns once translated.
_PSEUDO = {"level": 2147480001, "connect_by_isleaf": 2147480002,
           "connect_by_iscycle": 2147480003}
_WALK_COLUMN = {2147480001: "hq_lvl", 2147480002: "hq_leaf", 2147480003: "hq_cycle"}
_P, _C = "hq_p", "hq_c"


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
    if sel.find(exp.ConnectByRoot) is not None or any(
            isinstance(n, exp.Anonymous) and str(n.this).upper() == "SYS_CONNECT_BY_PATH"
            for n in sel.walk()) or sel.find(exp.Prior) is not None:
        raise not_implemented("SYS_CONNECT_BY_PATH, CONNECT_BY_ROOT or PRIOR outside "
                              "CONNECT BY")
    if sel.find(exp.Connect) is not None:
        raise not_implemented("a hierarchical query inside another")
    if any(isinstance(c, exp.Column) and not c.table and c.name.lower() == "level"
           for c in connect.walk()):  # ids_sqs_2036 allows it; our pairs do not know levels
        raise not_implemented("LEVEL in the CONNECT BY or START WITH condition")

    # ORDER SIBLINGS BY: the keys rank the roots and each parent's children.
    order = sel.args.get("order")
    keys: list[exp.Ordered] = []
    if isinstance(order, exp.Order) and order.args.get("siblings"):
        keys = [o for o in order.expressions if isinstance(o, exp.Ordered)]
        sel.set("order", None)

    def base(where: exp.Expr | None, two: bool) -> exp.Select:
        key_cols = [_side(k.this, alias, name) for k in keys] or [exp.Literal.number(1)]
        q = exp.select(*key_cols)
        if two:
            q = q.from_(exp.Table(this=exp.to_identifier(name), alias=exp.TableAlias(
                this=exp.to_identifier(_P)))).join(exp.Table(
                    this=exp.to_identifier(name), alias=exp.TableAlias(
                        this=exp.to_identifier(_C))))
        else:
            q = q.from_(exp.Table(this=exp.to_identifier(name), alias=exp.TableAlias(
                this=exp.to_identifier(_C))))
        return q.where(where) if where is not None else q

    start = connect.args.get("start")
    roots = _translate(cp, base(_side(start, alias, name) if start is not None else None,
                                False))
    roots_sql = _aliased(roots, [(exp.column("rowid", table=_C, quoted=True), "hq_rid")])
    pairs = _translate(cp, base(_side(connect.args["connect"], alias, name), True))
    pairs_sql = _aliased(pairs, [(exp.column("rowid", table=_P, quoted=True), "hq_prid"),
                                 (exp.column("rowid", table=_C, quoted=True), "hq_crid")])
    sort = ", ".join(f'"hq{i}"{" DESC" if k.args.get("desc") else ""}'
                     for i, k in enumerate(keys))
    sort = f"{sort}, " if sort else ""

    # The main query: LEVEL & co. as stand-in literals, translated, then joined to the walk.
    def pseudo(n: exp.Expr) -> exp.Expr:
        if isinstance(n, exp.Column) and not n.table and n.name.lower() in _PSEUDO:
            if n.name.lower() == "connect_by_iscycle" and not nocycle:
                raise EngineError(sc.CONNECT_BY_ISCYCLE)
            return exp.Literal.number(_PSEUDO[n.name.lower()])
        return n
    plan = cp.compile_query(sel.transform(pseudo))
    main = cp._last_root
    assert isinstance(main, exp.Select)
    for lit in list(main.find_all(exp.Literal)):
        if not lit.is_string and lit.this.isdigit() and int(lit.this) in _WALK_COLUMN:
            lit.replace(exp.column(_WALK_COLUMN[int(lit.this)], table="hq_x", quoted=True))
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
    cycle = ("EXISTS (SELECT 1 FROM hq_e e WHERE e.hq_prid = h.hq_rid AND "
             "instr(h.hq_anc, ',' || e.hq_crid || ',') > 0)")
    check = "0" if nocycle else f"CASE WHEN {cycle} THEN ifx_error({sc.CONNECT_BY_LOOP}) ELSE 0 END"
    walk = (
        f"WITH RECURSIVE hq_r AS (SELECT *, ROW_NUMBER() OVER (ORDER BY {sort}\"hq_rid\") "
        f"AS hq_rank FROM ({roots_sql})), "
        f"hq_e AS (SELECT *, ROW_NUMBER() OVER (PARTITION BY \"hq_prid\" ORDER BY {sort}"
        f"\"hq_crid\") AS hq_rank FROM ({pairs_sql})), "
        "hq_h(hq_rid, hq_lvl, hq_anc, hq_ord) AS ("
        "SELECT hq_rid, 1, ',' || hq_rid || ',', printf('%010d', hq_rank) FROM hq_r "
        "UNION ALL SELECT e.hq_crid, h.hq_lvl + 1, h.hq_anc || e.hq_crid || ',', "
        "h.hq_ord || '.' || printf('%010d', e.hq_rank) FROM hq_h h JOIN hq_e e "
        "ON e.hq_prid = h.hq_rid WHERE instr(h.hq_anc, ',' || e.hq_crid || ',') = 0), "
        "hq_x AS (SELECT h.*, CASE WHEN EXISTS (SELECT 1 FROM hq_e e WHERE e.hq_prid = "
        "h.hq_rid AND instr(h.hq_anc, ',' || e.hq_crid || ',') = 0) THEN 0 ELSE 1 END "
        f"AS hq_leaf, CASE WHEN {cycle} THEN 1 ELSE 0 END AS hq_cycle, {check} AS hq_check "
        "FROM hq_h h) ")
    plan.sql = walk + cp.generate(main)
    return plan


__all__ = ["compile_hierarchical"]
