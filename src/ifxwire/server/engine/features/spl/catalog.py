"""CREATE / DROP PROCEDURE and FUNCTION: the catalog rows real servers keep for a routine.

CREATE writes ``sysprocedures`` (one row per routine, with its specific name and parameter
types), ``sysprocbody`` (the CREATE text in 256-character pieces under datakey 'T', the
DOCUMENT text under 'D'), ``sysproccolumns`` (one row per parameter and return value),
``sysprocauth`` (EXECUTE for PUBLIC, except in ANSI databases where only the owner may run
a new routine) and our private ``_ifx_proc`` row (the parsed header, JSON). ``sysprocplan``
exists and stays empty: its rows are encoded query plans with no public format.

A routine name may be overloaded: routines are identified by procid, resolved by name and
argument types (``resolve.py``) and dropped by name, by signature or by specific name.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass

from sqlglot import exp

from ...core import sqlcodes as sc
from ...core.errors import EngineError
from ...core.ifxtypes import IfxType, from_key
from ...schema.catalog import quote
from ...schema.hooks import FEATURES
from ...schema.routine_tables import chunks
from ...schema.routines import Routine
from ...sql.statement_specs import DropRoutine
from ..ddl import DdlContext
from . import ast as a
from . import usertypes


@dataclass
class CreateRoutine:
    header: a.RoutineHeader
    body: a.RoutineBody
    text: str
    delimident: bool = False


# ---- loading --------------------------------------------------------------------------------
def load_routines(conn: sqlite3.Connection, prefix: str) -> tuple[
        dict[str, list[Routine]], dict[int, Routine]]:
    # Qualified: an unqualified name missing from main would resolve to the attached
    # sysmaster's table of that name, and SQLite would keep that binding.
    prefix = prefix or "main."
    texts: dict[int, list[str]] = {}
    try:
        for procid, data in conn.execute(
                f"SELECT procid, data FROM {prefix}sysprocbody WHERE datakey = 'T' "
                "ORDER BY procid, seqno"):
            texts.setdefault(procid, []).append(data or "")
        rows = list(conn.execute(f"SELECT procid, meta FROM {prefix}_ifx_proc"))
    except sqlite3.OperationalError:
        rows = []
    procs = {procid: Routine.from_meta(procid, meta, "".join(texts.get(procid, [])))
             for procid, meta in rows}
    procs.update(_legacy(conn, prefix))
    by_name: dict[str, list[Routine]] = {}
    for r in sorted(procs.values(), key=lambda r: r.procid):
        by_name.setdefault(r.name, []).append(r)
    return by_name, procs


def _legacy(conn: sqlite3.Connection, prefix: str) -> dict[int, Routine]:
    """Routines stored by ifxwire versions before SPL bodies (one RETURN each)."""
    import json


    try:
        rows = list(conn.execute(
            f"SELECT r.name, r.params, r.returns, r.body, r.function, p.procid, p.owner "
            f"FROM {prefix}_ifx_routine r JOIN {prefix}sysprocedures p ON p.procname = r.name"))
    except sqlite3.OperationalError:
        return {}
    out: dict[int, Routine] = {}
    for name, params, returns, body, function, procid, owner in rows:
        ps = [(n, from_key(k)) for n, k in json.loads(params)]
        rs = [from_key(k) for k in json.loads(returns)]
        kw = "FUNCTION" if function else "PROCEDURE"
        ret = f" RETURNING {', '.join(t.sql() for t in rs)}" if rs else ""
        stmt = f" RETURN {body};" if body else ""
        text = (f"CREATE {kw} {name}({', '.join(f'{n} {t.sql()}' for n, t in ps)}){ret};"
                f"{stmt} END {kw}")
        out[procid] = Routine(procid, name, (owner or "").strip(), bool(function), ps, rs, text,
                              defaults=[None] * len(ps), modes=["IN"] * len(ps),
                              return_names=[None] * len(rs), inline=body or "")
    return out


# ---- CREATE ---------------------------------------------------------------------------------
def _inline_text(cr: CreateRoutine) -> str:
    """The RETURN expressions of a body that is one RETURN over the parameters only."""
    blk = cr.body.block
    if blk.decls or blk.handlers or len(blk.body) != 1:
        return ""
    ret = blk.body[0]
    if not isinstance(ret, a.Return) or ret.resume or not ret.exprs or not ret.text:
        return ""
    params = {p.name for p in cr.header.params}
    for e in ret.exprs:
        for node in e.walk():
            if isinstance(node, (exp.Subquery, exp.Select, exp.Placeholder)):
                return ""
            if isinstance(node, exp.Column) and (node.table or node.name.lower() not in params):
                return ""
            if isinstance(node, exp.Anonymous):
                return ""  # a routine call: run it, do not expand it
    return ret.text


def _resolve_types(dc: DdlContext, cr: CreateRoutine) -> None:
    """The DISTINCT types the routine names (usertypes.py), in its header and its
    variables: a name that is no type is -9628, and each needs the Usage privilege, as a
    column of one does (-9997; Syntax, "USAGE Privilege", ids_sqs_0832)."""
    from ..access import check_usage  # (access builds on this module: ``matching``)

    h = cr.header
    types = dc.schema.types
    named = usertypes.resolve_variables(cr.body.block, types)
    for p in h.params:
        if p.type is not None and usertypes.is_placeholder(p.type):
            p.type = usertypes.resolve(p.type, types)
            named.append(p.type)
    for i, t in enumerate(h.returns):
        if usertypes.is_placeholder(t):
            h.returns[i] = usertypes.resolve(t, types)
            named.append(h.returns[i])
    names = {t.xid: n for n, t in types.items() if t.distinct}
    for xid in dict.fromkeys(t.xid for t in named):
        check_usage(dc, xid, names[xid])


def type_text(t: IfxType, types: dict[str, IfxType]) -> str:
    """A parameter type as sysprocedures.paramtypes spells it: a DISTINCT type by its name."""
    if t.distinct:
        for name, known in types.items():
            if known.distinct and known.xid == t.xid:
                return name
    return t.sql().lower()


def create_routine(dc: object, cr: CreateRoutine) -> None:
    assert isinstance(dc, DdlContext)
    h = cr.header
    conn = dc.conn
    _resolve_types(dc, cr)
    params: list[tuple[str, IfxType]] = []
    for p in h.params:
        ty = p.type
        if p.like is not None:
            info = dc.resolve(p.like[1], p.like[0], None, 0)
            col = info.by_name.get(p.like[2])
            if col is None:
                raise EngineError(sc.NO_COLUMN, near=p.like[2])
            ty = col.type.nullable()
        assert ty is not None
        params.append((p.name, ty))
    types = [t.key for _, t in params]
    for other in dc.schema.routines.get(h.name, []):
        if [t.key for _, t in other.params] == types:
            raise EngineError(sc.ROUTINE_EXISTS, near=h.name)
    if h.specific is not None:
        for group in dc.schema.routines.values():
            if any(r.specific == h.specific for r in group):
                raise EngineError(sc.ROUTINE_EXISTS, near=h.specific)
    procid = (conn.execute("SELECT MAX(procid) FROM sysprocedures").fetchone()[0] or 0) + 1
    owner = (h.owner or dc.user)
    mode = "T" if h.trigger_table else ("D" if h.dba else "O")
    routine = Routine(
        procid, h.name, owner, h.function, params, list(h.returns), cr.text, h.specific,
        [p.default_text for p in h.params], [p.mode for p in h.params],
        list(h.return_names), mode, cr.body.iterator, _inline_text(cr), h.trigger_table,
        dict(h.referencing), cr.delimident)
    conn.execute(
        "INSERT INTO sysprocedures (procname, owner, procid, mode, retsize, symsize, datasize, "
        "codesize, numargs, isproc, specificname, externalname, paramstyle, langid, paramtypes, "
        "variant, client, handlesnulls, iterator, percallcost, internal, parallelizable, "
        "selconst, collation, procflags) VALUES (?, ?, ?, ?, 0, 0, 0, 0, ?, ?, ?, NULL, 'I', 2, "
        "?, ?, 0, 1, ?, 0, 0, 0, 0, ?, 0)",
        (h.name, owner, procid, mode, len(params), "f" if h.function else "t", h.specific,
         ",".join(type_text(t, dc.schema.types) for _, t in params),
         0 if "NOT" in h.modifiers and "VARIANT" in h.modifiers else 1, int(cr.body.iterator),
         "en_US.819"))
    body_rows = [(procid, "T", i, piece) for i, piece in enumerate(chunks(cr.text), 1)]
    body_rows += [(procid, "D", i, piece) for i, piece in
                  enumerate(chunks("\n".join(h.document)), 1) if h.document]
    conn.executemany("INSERT INTO sysprocbody VALUES (?, ?, ?, ?)", body_rows)
    # Return values come first in paramid order, the single one as 0 (JDBC's
    # getProcedureColumns gives the first rows the return types and reports paramid as
    # ORDINAL_POSITION, 0 meaning the return value [B: IfxDatabaseMetaData.processProcName]);
    # parameters follow from 1.
    # An unnamed return value has a NULL paramname: JDBC's getFunctionColumns filters with
    # `paramname LIKE '%…%'`, which on a real 14.10 leaves no return-value row (issue 23), and
    # an empty string would match it.
    attr = 5 if len(h.returns) == 1 else 3
    # (a DISTINCT type's code carries 0x800, as syscolumns writes it: ``IfxType.coltype``)
    cols = [(procid, i, rname or None, t.nullable().coltype, t.collength, t.extended_id, attr)
            for i, (t, rname) in enumerate(zip(h.returns, h.return_names, strict=True))]
    cols += [(procid, i, n, t.nullable().coltype, t.collength, t.extended_id,
              {"IN": 1, "INOUT": 2, "OUT": 4}.get(m, 1))
             for i, ((n, t), m) in enumerate(zip(params, routine.modes, strict=True),
                                             max(1, len(h.returns)))]
    conn.executemany("INSERT INTO sysproccolumns VALUES (?, ?, ?, ?, ?, ?, ?)",
                     [(p, i, n, c, _smallint(ln), x, at) for p, i, n, c, ln, x, at in cols])
    if not dc.ctx.ansi and not h.dba:  # a DBA routine: only DBAs, unless granted
        conn.execute("INSERT INTO sysprocauth VALUES (?, 'public', ?, 'e')", (owner, procid))
    conn.execute("INSERT INTO _ifx_proc VALUES (?, ?)", (procid, routine.meta()))
    # A marker object changes the SQLite schema version: cached plans that resolved an
    # older set of routines are not reused.
    conn.execute(f"CREATE VIEW {quote(f'_ifx_r_{procid}')} AS SELECT 1")


def _smallint(n: int) -> int:
    return n - 65536 if n > 32767 else n


# ---- DROP -----------------------------------------------------------------------------------
def matching(schema_routines: dict[str, list[Routine]], spec: DropRoutine,
             types: dict[str, IfxType]) -> list[Routine]:
    """The routines a DROP (or GRANT/REVOKE EXECUTE ON) names; ``types``: the database's
    named types, for a signature naming a DISTINCT type."""
    if spec.specific:
        found = [r for group in schema_routines.values() for r in group
                 if r.specific == spec.name]
    else:
        found = list(schema_routines.get(spec.name, []))
        if spec.types is not None:
            keys = [usertypes.resolve(t, types).key for t in spec.types]
            found = [r for r in found if [t.nullable().key for _, t in r.params] == keys]
    if spec.kind == "FUNCTION":
        found = [r for r in found if r.function]
    elif spec.kind == "PROCEDURE":
        # DROP PROCEDURE also drops a function created with CREATE PROCEDURE … RETURNING.
        found = [r for r in found if not r.function or _created_as_procedure(r.text)]
    return found


_LEADING_COMMENTS = re.compile(r"\A(?:\s+|--[^\n]*(?:\n|\Z)|\{[^}]*\}|/\*.*?\*/)*", re.S)


def _created_as_procedure(text: str) -> bool:
    """Whether a routine's text is CREATE [DBA] PROCEDURE, past the comments a client may have
    sent before it (Flyway sends a migration's leading ``--`` lines with its first statement,
    and then cleans with DROP PROCEDURE)."""
    head = _LEADING_COMMENTS.sub("", text, count=1)[:60].upper().split()
    return head[:2] == ["CREATE", "PROCEDURE"] or head[:3] == ["CREATE", "DBA", "PROCEDURE"]


def drop_routine(dc: object, spec: DropRoutine) -> None:
    assert isinstance(dc, DdlContext)
    found = matching(dc.schema.routines, spec, dc.schema.types)
    if not found:
        if spec.if_exists:
            return
        raise EngineError(sc.NO_ROUTINE, near=spec.name)
    if len(found) > 1:
        # An overloaded name needs its signature or specific name.
        raise EngineError(sc.ROUTINE_AMBIGUOUS, near=spec.name)
    from .. import functional_index  # (it imports this package's parser: a circle at load)

    functional_index.check_drop(dc.conn, found[0].procid, found[0].name)
    drop_procid(dc.conn, found[0].procid)


def drop_procid(conn: sqlite3.Connection, procid: int) -> None:
    for table in ("sysprocedures", "sysprocbody", "sysproccolumns", "sysprocauth",
                  "sysprocplan", "_ifx_proc"):
        conn.execute(f"DELETE FROM {table} WHERE procid = ?", (procid,))
    conn.execute(f"DROP VIEW IF EXISTS {quote(f'_ifx_r_{procid}')}")


FEATURES.routines = load_routines  # the catalogue reads routines through it
