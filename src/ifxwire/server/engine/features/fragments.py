"""Table and index fragmentation: the ``sysfragments`` rows, and rows that fit no fragment.

One SQLite file holds every table here, so a fragment places nothing. What a fragmentation
scheme changes that a client can see is kept: ``sysfragments`` holds one row per fragment
(Guide to SQL: Reference, "SYSFRAGMENTS"), a fragmented table's ``systables.partnum`` is 0
(the partitions are the fragments'), and a scheme without a REMAINDER refuses a row that fits
none of its fragments with -772 "Record/Key doesn't qualify for any table/index fragment"
(Guide to SQL: Syntax, ids_sqs_0513: "If you do not specify a remainder fragment and a row
matches none of the expressions, the row is rejected"), the statement undone.

The check is a pair of SQLite triggers per table (BEFORE INSERT, BEFORE UPDATE) whose WHEN
clause asks whether the new row fits the table's scheme and every index's scheme; the
conditions are compiled from the catalogue's text by the same compiler as a CHECK constraint,
so a row fits a fragment only where its expression is true: a NULL column matches no
expression fragment unless the expression says IS NULL (or a LIST fragment lists NULL).
The catalogue is the source: every DDL that changes the table's shape (ALTER TABLE's rebuild)
or its fragments calls ``install`` again.
"""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING

from sqlglot import exp

from ..core import sqlcodes as sc
from ..core.errors import EngineError, not_implemented
from ..schema.catalog import TableInfo, quote
from ..sql.statement_specs import (
    AlterFragment,
    ColumnSpec,
    CreateTable,
    FragmentScheme,
    FragmentSpec,
    TableName,
)
from ..sql.statements import parse_expressions

if TYPE_CHECKING:  # ddl imports this module at load; the context is only named in hints
    from .ddl import DdlContext

#: The RAISE(ABORT) text of the guard triggers; session_errors maps it to -772.
GUARD_MESSAGE = "ifxwire: row fits no fragment"
#: sysfragments.partn of the first fragment made (0x200000: dbspace 2, page 0, the shape of
#: the partition numbers a real server shows, e.g. 2097159 in the IDS V10 Redbook, 10.1.5)
_FIRST_PARTN = 0x200000


def _triggers(tabid: int) -> tuple[str, str]:
    return f"_ifx_frag_ins_{tabid}", f"_ifx_frag_upd_{tabid}"


def _expression(text: str, dc: DdlContext) -> exp.Expr:
    """A fragment expression parsed, with ids_sqs_0427's restrictions: no subquery (-869),
    aggregate, routine or the built-ins whose value is not the row's (not built, -999)."""
    expr = parse_expressions(text, dc.delimident)[0]
    if expr.find(exp.Subquery, exp.Select, exp.Exists):
        raise EngineError(sc.FRAGMENT_SUBQUERY)
    if expr.find(exp.AggFunc, exp.Anonymous, exp.CurrentDate, exp.CurrentTimestamp,
                 exp.CurrentUser):
        raise not_implemented("a routine, aggregate or CURRENT/TODAY/USER in a fragment "
                              "expression")
    return expr


def _list_values(frag: FragmentSpec, dc: DdlContext) -> list[exp.Expr]:
    values = parse_expressions(frag.text, dc.delimident)
    if any(v.find(exp.Column) for v in values):
        raise EngineError(sc.FRAGMENT_LIST_CONSTANT)  # ids_sqs_0513: constant expressions
    return values


def _fits(dc: DdlContext, info: TableInfo, scheme: FragmentScheme) -> str | None:
    """The SQLite condition (bare column names) true for a row that fits a fragment, or None
    when every row does (ROUND ROBIN, a REMAINDER)."""
    if not scheme.can_reject:
        return None
    parts = []
    for frag in scheme.fragments:
        if scheme.strategy == "E":
            expr = _expression(frag.text, dc)
        else:
            values = _list_values(frag, dc)
            key = parse_expressions(scheme.key, dc.delimident)[0]
            cond: exp.Expr = exp.In(this=exp.Paren(this=key.copy()),
                                    expressions=[v.copy() for v in values
                                                 if not isinstance(v, exp.Null)])
            if not cond.expressions:
                cond = exp.false()
            if any(isinstance(v, exp.Null) for v in values):
                cond = exp.or_(cond, exp.Is(this=exp.Paren(this=key.copy()), expression=exp.Null()))
            expr = cond
        parts.append(f"({dc.compile_check(info, expr)})")
    return " OR ".join(parts)


def validate(dc: DdlContext, info: TableInfo, scheme: FragmentScheme) -> None:
    """The errors the message catalogue has for a malformed scheme: a name twice (-858), two
    REMAINDERs (-870) or one not last (-871); LIST without PARTITION names (-25802), without
    a fragment of values (-25803), with two NULL fragments (-25826) or a value twice
    (-25800); an expression that does not compile against the table (-217 and the like)."""
    names = [f.name for f in scheme.fragments]
    if len(set(names)) != len(names):
        raise EngineError(sc.FRAGMENT_NAME_TWICE)
    rem = [i for i, f in enumerate(scheme.fragments) if f.remainder]
    if len(rem) > 1:
        raise EngineError(sc.FRAGMENT_REMAINDER_TWICE)
    if rem and rem[0] != len(scheme.fragments) - 1:
        raise EngineError(sc.FRAGMENT_REMAINDER_LAST)
    if scheme.strategy == "L":
        if any(f.partition is None for f in scheme.fragments):
            raise EngineError(sc.FRAGMENT_PARTITION_NEEDED)
        seen: set[str] = set()
        nulls = 0
        proper = 0
        for f in scheme.fragments:
            if f.remainder:
                continue
            values = _list_values(f, dc)
            nulls += any(isinstance(v, exp.Null) for v in values)
            proper += any(not isinstance(v, exp.Null) for v in values)
            for v in values:
                if isinstance(v, exp.Null):
                    continue
                key = v.sql()
                if key in seen:
                    raise EngineError(sc.FRAGMENT_OVERLAP)
                seen.add(key)
        if nulls > 1:
            raise EngineError(sc.FRAGMENT_NULL_TWICE)
        if not proper:
            raise EngineError(sc.FRAGMENT_NO_VALUES)
    for f in scheme.fragments:
        if scheme.strategy == "E" and not f.remainder:
            dc.compile_check(info, _expression(f.text, dc))
    if scheme.strategy == "L":
        dc.compile_check(info, parse_expressions(scheme.key, dc.delimident)[0])
        _fits(dc, info, scheme)


def _exprtext(scheme: FragmentScheme, frag: FragmentSpec) -> str | None:
    if frag.remainder:
        return "remainder"
    if scheme.strategy == "E":
        return frag.text
    if scheme.strategy == "L":
        return f"VALUES ({frag.text})"
    return None


def write(conn: sqlite3.Connection, tabid: int, index: str | None,
          scheme: FragmentScheme) -> None:
    """The scheme's sysfragments rows: one per fragment, ``evalpos`` its place in the list
    from 0, ``exprtext`` its expression as written, ``partition`` its PARTITION name or else
    its dbspace (the IDS V10 Redbook, 10.1.5); a LIST scheme has a first row of evalpos -3
    holding its fragment key (Guide to SQL: Reference, SYSFRAGMENTS)."""
    fragtype = "I" if index is not None else "T"
    where = "tabid = ? AND fragtype = ? AND COALESCE(indexname, '') = ?"
    key = (tabid, fragtype, index or "")
    # a fragment that ALTER FRAGMENT kept keeps its partition number
    kept = {str(r[0]): int(r[1]) for r in conn.execute(
        f"SELECT partition, partn FROM sysfragments WHERE {where} AND evalpos >= 0", key)}
    conn.execute(f"DELETE FROM sysfragments WHERE {where}", key)
    row = conn.execute("SELECT MAX(partn) FROM sysfragments").fetchone()
    partn = max(int(row[0] or 0), max(kept.values(), default=0), _FIRST_PARTN - 1)
    rows: list[tuple[object, ...]] = []
    if scheme.strategy == "L":
        rows.append((fragtype, tabid, index, 0, 0, "L", "L", None, -3, scheme.key, None, None,
                     0, None, 0, 0.0, 0.0, 0, None))
    for pos, frag in enumerate(scheme.fragments):
        number = kept.get(frag.name)
        if number is None:
            partn += 1
            number = partn
        rows.append((fragtype, tabid, index, 0, number, scheme.strategy, "L", None, pos,
                     _exprtext(scheme, frag), None, None, 0, frag.dbspace, 0, 0.0, 0.0, 0,
                     frag.name))
    conn.executemany("INSERT INTO sysfragments VALUES (" + ", ".join("?" * 19) + ")", rows)
    if index is None:
        conn.execute("UPDATE systables SET partnum = 0 WHERE tabid = ?", (tabid,))


def read(conn: sqlite3.Connection, tabid: int, index: str | None) -> FragmentScheme | None:
    """The scheme the catalogue holds for the table (index None) or one of its indexes."""
    fragtype = "I" if index is not None else "T"
    rows = conn.execute(
        "SELECT strategy, evalpos, exprtext, dbspace, partition FROM sysfragments WHERE "
        "tabid = ? AND fragtype = ? AND COALESCE(indexname, '') = ? ORDER BY evalpos",
        (tabid, fragtype, index or "")).fetchall()
    if not rows:
        return None
    scheme = FragmentScheme(str(rows[-1][0]), [])
    for strategy, evalpos, text, dbspace, partition in rows:
        if evalpos < 0:
            scheme.key = str(text)
            continue
        named = partition if partition != dbspace else None
        frag = FragmentSpec(named, str(dbspace))
        if text == "remainder":
            frag.remainder = True
        elif strategy == "L":
            frag.text = str(text)[len("VALUES ("):-1]
        elif strategy == "E":
            frag.text = str(text)
        scheme.fragments.append(frag)
    return scheme


def install(dc: DdlContext, info: TableInfo) -> None:
    """(Re)make the table's guard triggers from the catalogue: a row must fit the table's
    scheme and each fragmented index's. A column a scheme names that the table lost is
    -785 ("Cannot drop column because of table or index fragmentation")."""
    conn = dc.conn
    for name in _triggers(info.tabid):
        conn.execute(f"DROP TRIGGER IF EXISTS {quote(name)}")
    conds = []
    indexes = [None] + [str(r[0]) for r in conn.execute(
        "SELECT DISTINCT indexname FROM sysfragments WHERE tabid = ? AND fragtype = 'I'",
        (info.tabid,))]
    for index in indexes:
        scheme = read(conn, info.tabid, index)
        if scheme is None:
            continue
        try:
            cond = _fits(dc, info, scheme)
        except EngineError as e:
            if e.sqlcode == sc.NO_COLUMN:
                raise EngineError(sc.FRAGMENT_COLUMN_DROP) from None
            raise
        if cond is not None:
            conds.append(f"({cond})")
    if not conds:
        return
    row = ", ".join(f"NEW.{quote(c.name)} AS {quote(c.name)}" for c in info.columns)
    when = f"NOT EXISTS (SELECT 1 FROM (SELECT {row}) WHERE {' AND '.join(conds)})"
    body = f"BEGIN SELECT RAISE(ABORT, '{GUARD_MESSAGE}'); END"
    ins, upd = _triggers(info.tabid)
    conn.execute(f"CREATE TRIGGER {quote(ins)} BEFORE INSERT ON {quote(info.name)} "
                 f"WHEN {when} {body}")
    conn.execute(f"CREATE TRIGGER {quote(upd)} BEFORE UPDATE ON {quote(info.name)} "
                 f"WHEN {when} {body}")


def _misfits(dc: DdlContext, info: TableInfo, scheme: FragmentScheme) -> bool:
    """Whether a row the table holds fits no fragment of ``scheme``."""
    cond = _fits(dc, info, scheme)
    if cond is None:
        return False
    return dc.conn.execute(f"SELECT 1 FROM {quote(info.name)} WHERE NOT EXISTS (SELECT 1 "
                           f"WHERE {cond}) LIMIT 1").fetchone() is not None


def create_table(dc: DdlContext, info: TableInfo, scheme: FragmentScheme) -> None:
    """CREATE TABLE's FRAGMENT BY: checked, recorded, guarded."""
    validate(dc, info, scheme)
    write(dc.conn, info.tabid, None, scheme)
    install(dc, info)


def create_temp_table(dc: DdlContext, info: TableInfo, scheme: FragmentScheme) -> None:
    """A temp table's FRAGMENT BY (the temp table options of ids_sqs_0509 include it): no
    catalogue holds a temp table's fragments, so the guard is made once, from the scheme,
    as TEMP triggers that go with the table (ALTER TABLE of a temp table is not built)."""
    validate(dc, info, scheme)
    cond = _fits(dc, info, scheme)
    if cond is None:
        return
    row = ", ".join(f"NEW.{quote(c.name)} AS {quote(c.name)}" for c in info.columns)
    when = f"NOT EXISTS (SELECT 1 FROM (SELECT {row}) WHERE {cond})"
    body = f"BEGIN SELECT RAISE(ABORT, '{GUARD_MESSAGE}'); END"
    for event in ("INSERT", "UPDATE"):
        name = quote(f"_ifx_frag_{event.lower()}_temp_{info.name}")
        dc.conn.execute(f"CREATE TEMP TRIGGER {name} BEFORE {event} ON {quote(info.name)} "
                        f"WHEN {when} {body}")


def create_index(dc: DdlContext, info: TableInfo, index: str, scheme: FragmentScheme) -> None:
    """CREATE INDEX's FRAGMENT BY. A row already in the table whose key fits no fragment
    fails the CREATE INDEX with -772, as the same row would fail its INSERT (judgement: the
    code a real server gives here is not recorded)."""
    validate(dc, info, scheme)
    if _misfits(dc, info, scheme):
        raise EngineError(sc.FRAGMENT_NO_FIT)
    write(dc.conn, info.tabid, index, scheme)
    install(dc, info)


def check_unique_index(dc: DdlContext, info: TableInfo, columns: list[str],
                       scheme: FragmentScheme | None, detached: bool) -> None:
    """-872 "Invalid fragment strategy or expression for the unique index.": a unique index
    fragmented by expressions over columns outside its key (ids_sqs_0429: "any columns
    referenced in the fragment expression must be indexed columns ... the CREATE INDEX
    statement fails"). An index given neither FRAGMENT BY nor IN dbspace follows the
    table's fragmentation (an attached index, ids_prf_486), so the table's scheme is
    checked the same way; on a round-robin table such a unique index is -872 too (a real
    server's answer recorded in a public field report, blog.csdn.net/yutonging2016
    70756846: ``create unique index ... on a11(a)`` on a round-robin table, -872)."""
    if scheme is None and not detached:
        scheme = read(dc.conn, info.tabid, None)
    if scheme is None:
        return
    if scheme.strategy == "R":
        raise EngineError(sc.FRAGMENT_UNIQUE_INDEX)
    key = {c.lower() for c in columns}
    texts = [f.text for f in scheme.fragments if not f.remainder and scheme.strategy == "E"]
    if scheme.strategy == "L":
        texts = [scheme.key]
    for text in texts:
        named = {c.name.lower() for c in parse_expressions(text, dc.delimident)[0].find_all(
            exp.Column)}
        if not named <= key:
            raise EngineError(sc.FRAGMENT_UNIQUE_INDEX)


def names_column(dc: DdlContext, tabid: int, column: str) -> bool:
    """Whether a fragment expression (or LIST key) of the table or its indexes names
    ``column``."""
    for strategy, evalpos, text in dc.conn.execute(
            "SELECT strategy, evalpos, exprtext FROM sysfragments WHERE tabid = ?", (tabid,)):
        if text is None or text == "remainder" or (strategy == "L" and evalpos >= 0):
            continue
        expr = parse_expressions(str(text), dc.delimident)[0]
        if any(c.name.lower() == column.lower() for c in expr.find_all(exp.Column)):
            return True
    return False


def drop_index(dc: DdlContext, index: str) -> None:
    row = dc.conn.execute("SELECT tabid FROM sysfragments WHERE fragtype = 'I' AND "
                          "indexname = ?", (index,)).fetchone()
    if row is None:
        return
    dc.conn.execute("DELETE FROM sysfragments WHERE fragtype = 'I' AND indexname = ?", (index,))
    info = next((t for t in dc.schema.tables.values() if t.tabid == int(row[0])), None)
    if info is not None:
        install(dc, info)


def rename_index(conn: sqlite3.Connection, old: str, new: str) -> None:
    conn.execute("UPDATE sysfragments SET indexname = ? WHERE fragtype = 'I' AND indexname = ?",
                 (new, old))


def alter_fragment(dc: DdlContext, spec: AlterFragment) -> None:
    """ALTER FRAGMENT ON TABLE | INDEX ... ADD, DROP, MODIFY (ids_sqs_0236), or DETACH
    (``_detach``). For the first three the new scheme
    is the old one changed, checked as CREATE's is, and the rows the table holds must each
    fit it, else -776 "Alter fragment error: unable to move row(s) to new fragmentation
    scheme" (ids_sqs_0068: "you cannot drop a fragment containing data that cannot be moved
    to another fragment"). A table or index with no fragments is -780; a temp table -781."""
    name = spec.table.name
    if name in dc.temp_tables:
        raise EngineError(sc.FRAGMENT_TEMP)
    index: str | None = None
    if spec.index:
        index = name
        row = dc.conn.execute("SELECT tabid FROM sysindices WHERE idxname = ?",
                              (name,)).fetchone()
        if row is None:
            if name in dc.schema.indexes:
                raise EngineError(sc.FRAGMENT_TEMP)
            raise EngineError(sc.NO_INDEX, near=name)
        info = next(t for t in dc.schema.tables.values() if t.tabid == int(row[0]))
    else:
        info = dc.resolve(name, spec.table.owner, spec.table.database, spec.table.offset)
        if info.kind != "T" or info.temp:
            raise EngineError(sc.FRAGMENT_TEMP if info.temp else sc.NO_TABLE, near=name)
    if spec.action == "init":
        assert index is not None
        _init_index(dc, info, index, spec.init)
        return
    scheme = read(dc.conn, info.tabid, index)
    if scheme is None:
        raise EngineError(sc.FRAGMENT_NOT_FRAGMENTED)
    frags = scheme.fragments
    by_name = {f.name: i for i, f in enumerate(frags)}

    def position(target: str) -> int:
        if target not in by_name:
            raise EngineError(sc.FRAGMENT_NOT_USED, near=target)
        return by_name[target]

    if spec.action == "detach":
        at = position(spec.drop)
        _keeps_values(FragmentScheme(scheme.strategy, frags[:at] + frags[at + 1:]))
        _detach(dc, info, scheme, at, spec.new_table)
        return
    if spec.action == "add":
        new = spec.fragment
        assert new is not None
        _same_kind(scheme, new)
        if scheme.strategy == "L" and (spec.before or spec.after):
            raise EngineError(sc.FRAGMENT_LIST_ORDER)
        at = len(frags) - 1 if frags and frags[-1].remainder and not new.remainder else len(
            frags)
        if spec.before is not None:
            at = position(spec.before)
        elif spec.after is not None:
            at = position(spec.after) + 1
        frags.insert(at, new)
    elif spec.action == "drop":
        at = position(spec.drop)
        if len(frags) <= 2:
            raise EngineError(sc.FRAGMENT_TOO_FEW)  # ids_sqs_0068: not with two fragments
        del frags[at]
        _keeps_values(scheme)
    else:
        for old, new in spec.modify:
            _same_kind(scheme, new)
            if scheme.strategy == "R":
                raise EngineError(sc.FRAGMENT_ROUND_ROBIN_EXPR)
            at = position(old)
            if not new.dbspace:  # no IN: the fragment stays where it was
                new.dbspace = frags[at].dbspace
                if new.partition is None and frags[at].partition is not None:
                    new.partition = frags[at].partition
            frags[at] = new
    validate(dc, info, scheme)
    if _misfits(dc, info, scheme):  # an index's key with no fragment: as at CREATE INDEX
        raise EngineError(sc.FRAGMENT_NO_FIT if index is not None else sc.FRAGMENT_MOVE)
    write(dc.conn, info.tabid, index, scheme)
    install(dc, info)


def _init_index(dc: DdlContext, info: TableInfo, index: str,
                scheme: FragmentScheme | None) -> None:
    """ALTER FRAGMENT ON INDEX ... INIT (ids_sqs_0084: "Fragment an existing index that is
    not fragmented without redefining the index", "Convert a fragmented index to a
    nonfragmented index"): the index's scheme replaced (checked as CREATE INDEX's is, a
    unique index's -872 too), or removed by ``INIT IN dbspace``."""
    if scheme is None:
        dc.conn.execute("DELETE FROM sysfragments WHERE fragtype = 'I' AND indexname = ?",
                        (index,))
        install(dc, info)
        return
    row = dc.conn.execute("SELECT idxtype, " + ", ".join(f"part{i}" for i in range(1, 17))
                          + " FROM sysindices WHERE idxname = ?", (index,)).fetchone()
    if row[0] == "U":
        by_no = {c.colno: c.name for c in info.columns}
        check_unique_index(dc, info, [by_no[abs(n)] for n in row[1:] if n], scheme, True)
    validate(dc, info, scheme)
    if _misfits(dc, info, scheme):
        raise EngineError(sc.FRAGMENT_NO_FIT)
    write(dc.conn, info.tabid, index, scheme)
    install(dc, info)


def _keeps_values(scheme: FragmentScheme) -> None:
    """-25817 "Cannot drop or detach the only remaining non-null, non-remainder fragment."
    (a LIST scheme after DROP or DETACH)."""
    if scheme.strategy == "L" and not any(
            not f.remainder and f.text.strip().upper() != "NULL" for f in scheme.fragments):
        raise EngineError(sc.FRAGMENT_LAST_VALUES)


def _same_kind(scheme: FragmentScheme, new: FragmentSpec) -> None:
    """A new fragment must be of the scheme's kind: an expression for a round-robin scheme
    is -774, a round-robin fragment (no expression) for an expression scheme -773."""
    if scheme.strategy == "R" and (new.text or new.remainder):
        raise EngineError(sc.FRAGMENT_ROUND_ROBIN_EXPR)
    if scheme.strategy != "R" and not new.text and not new.remainder:
        raise EngineError(sc.FRAGMENT_EXPR_NEEDED)
    if scheme.strategy == "L" and new.partition is None:
        raise EngineError(sc.FRAGMENT_PARTITION_NEEDED)


def _detach(dc: DdlContext, info: TableInfo, scheme: FragmentScheme, at: int,
            new_table: str) -> None:
    """DETACH (ids_sqs_0087): the fragment's rows move to ``new_table``, a new nonfragmented
    table of the same columns and types that "does not inherit any indexes or constraints
    from the original table. Only data values remain" (so no NOT NULL, no defaults either:
    our reading), with a new table's default privileges. A table left with one fragment is
    nonfragmented (ids_sqs_0257: "Both tables are now nonfragmented"). A row lives in the
    first fragment, in evalpos order, whose expression is true, else in the REMAINDER.
    Not built (-999): a round-robin table (which rows a fragment holds is not known here),
    a table with an index (the page refuses "a detached index"; which are attached is not
    recorded here), and a table whose key another table references (refused by the page;
    the code is not known)."""
    from .ddl import create_table  # ddl imports this module at load: a top-level import is a circle

    if scheme.strategy == "R":
        raise not_implemented("ALTER FRAGMENT ... DETACH of a round-robin fragment")
    conn = dc.conn
    if conn.execute("SELECT 1 FROM sysindices WHERE tabid = ?",
                    (info.tabid,)).fetchone() is not None:
        # ids_sqs_0087 refuses a table with a detached index (a constraint's index is one,
        # ids_sqs_1940; so is one given IN dbspace or its own FRAGMENT BY); this server
        # does not record which indexes are attached, so every indexed table is refused
        raise not_implemented("ALTER FRAGMENT ... DETACH of an indexed table")
    if conn.execute("SELECT 1 FROM sysreferences WHERE ptabid = ?",
                    (info.tabid,)).fetchone() is not None:
        raise not_implemented("ALTER FRAGMENT ... DETACH of a referenced table")
    conds = []
    for frag in scheme.fragments:
        if frag.remainder:
            conds.append("0")
            continue
        one = FragmentScheme(scheme.strategy, [frag], scheme.key)
        fits = _fits(dc, info, one)
        conds.append(f"COALESCE(({fits}), 0)")
    earlier = [f"NOT {c}" for c in conds[:at]]
    member = " AND ".join([*earlier, conds[at]] if not scheme.fragments[at].remainder
                          else [f"NOT {c}" for i, c in enumerate(conds) if i != at])
    member = member or "1"
    columns = [ColumnSpec(c.name, c.type.with_notnull(False)) for c in info.columns]
    create_table(dc, CreateTable(TableName(new_table), columns, []))
    names = ", ".join(quote(c.name) for c in info.columns)
    conn.execute(f"INSERT INTO {quote(new_table)} ({names}) SELECT {names} FROM "
                 f"{quote(info.name)} WHERE {member}")
    conn.execute(f"DELETE FROM {quote(info.name)} WHERE {member}")
    del scheme.fragments[at]
    if len(scheme.fragments) == 1:
        for name in _triggers(info.tabid):
            conn.execute(f"DROP TRIGGER IF EXISTS {quote(name)}")
        conn.execute("DELETE FROM sysfragments WHERE tabid = ?", (info.tabid,))
        conn.execute("UPDATE systables SET partnum = ? WHERE tabid = ?",
                     (1048576 + info.tabid, info.tabid))
    else:
        write(conn, info.tabid, None, scheme)
        install(dc, info)
