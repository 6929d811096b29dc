"""``\\dump [table]``: a schema printed the way ``dbschema -d db [-t table]`` prints it, read
from the system catalogue (systables, syscolumns, sysdefaults, sysconstraints, sysindexes,
sysreferences, syschecks, sysfragments).

dbschema's shape, kept here: a ``{ TABLE "owner".name row size = ... }`` comment, ``create
table "owner".name`` with one column per line in lower-case types, ``not null`` and
``default``, primary-key/unique/check constraints inside the table, foreign keys as ``alter
table ... add constraint``, other indexes as ``create index`` after it.
"""

from __future__ import annotations

from typing import Any

from .. import catalog
from .describe import FIRST_USER_TABID

_DEFAULT = {"N": "null", "U": "user", "T": "today", "C": "current", "S": "dbservername"}


def _owner(owner: Any) -> str:
    return f'"{(owner or "informix").strip()}"'


def _literal(text: str, type_name: str) -> str:
    if type_name.split("(")[0] in ("smallint", "integer", "int8", "bigint", "float",
                                   "smallfloat", "decimal", "money", "serial", "serial8",
                                   "bigserial"):
        return text
    return "'" + text.replace("'", "''") + "'"


def schema(conn: Any, table: str | None = None) -> str | None:
    """The DDL of one table, or of every user table; None when ``table`` does not exist."""
    if table is None:
        rows = conn.execute("SELECT tabid, tabname, owner FROM systables WHERE tabid >= ? "
                            "AND tabtype = 'T' ORDER BY tabid", (FIRST_USER_TABID,)).fetchall()
    else:
        rows = conn.execute("SELECT tabid, tabname, owner FROM systables WHERE tabname = ? "
                            "AND tabtype = 'T'", (table,)).fetchall()
        if not rows:
            return None
    # foreign keys after every table, so that one may refer to a table created later
    tables, foreign = [], []
    for tabid, name, owner in rows:
        text, keys = _table(conn, int(tabid), name, owner)
        tables.append(text)
        foreign.extend(keys)
    return "".join(tables) + ("".join(foreign) + "\n" if foreign else "")


def _table(conn: Any, tabid: int, name: str, owner: Any) -> tuple[str, list[str]]:
    """(the table's CREATE TABLE and CREATE INDEX statements, its foreign keys)."""
    who = _owner(owner)
    cols = conn.execute(
        "SELECT c.colno, c.colname, c.coltype, c.collength, x.name, d.type, d.default "
        "FROM syscolumns c "
        "LEFT OUTER JOIN sysxtdtypes x ON x.extended_id = c.extended_id AND c.extended_id > 0 "
        "LEFT OUTER JOIN sysdefaults d ON d.tabid = c.tabid AND d.colno = c.colno "
        "WHERE c.tabid = ? ORDER BY c.colno", (tabid,)).fetchall()
    colname = {int(r[0]): r[1] for r in cols}
    lines = []
    for _colno, cname, coltype, collength, xtd, dkind, dvalue in cols:
        typ = catalog.type_name(coltype, collength, xtd).lower()
        line = f"    {cname} {typ}"
        if dkind is not None:
            kind = dkind.strip()
            default = _literal(dvalue or "", typ) if kind == "L" else _DEFAULT.get(kind, kind)
            line += f"\n        default {default}"
        if not catalog.nullable(coltype):
            line += " not null"
        lines.append(line)

    indexes = {r[0]: r for r in conn.execute(
        "SELECT idxname, owner, idxtype, " + ", ".join(f"part{i}" for i in range(1, 17))
        + " FROM sysindexes WHERE tabid = ? ORDER BY idxname", (tabid,)).fetchall()}

    def columns_of(idxname: str) -> str:
        parts = indexes[idxname][3:]
        return ", ".join(colname.get(abs(p), str(p)) + (" desc" if p < 0 else "")
                         for p in parts if p)

    constraints = conn.execute(
        "SELECT constrid, constrname, owner, constrtype, idxname FROM sysconstraints "
        "WHERE tabid = ? ORDER BY constrid", (tabid,)).fetchall()
    after: list[str] = []
    used_indexes = set()
    for constrid, cname, cowner, ctype, idxname in constraints:
        ctype = (ctype or "").strip()
        named = f"constraint {_owner(cowner)}.{cname}"
        if idxname is not None:
            used_indexes.add(idxname)
        if ctype in ("P", "U") and idxname in indexes:
            kind = "primary key" if ctype == "P" else "unique"
            lines.append(f"    {kind} ({columns_of(idxname)})  {named}")
        elif ctype == "C":
            text = "".join(r[0] for r in conn.execute(
                "SELECT checktext FROM syschecks WHERE constrid = ? AND type = 'T' "
                "ORDER BY seqno", (constrid,)).fetchall())
            lines.append(f"    check ({text.strip()}) {named}")
        elif ctype == "R" and idxname in indexes:
            ref = conn.execute(
                "SELECT t.tabname, t.owner, c.idxname FROM sysreferences r, systables t, "
                "sysconstraints c WHERE r.constrid = ? AND t.tabid = r.ptabid "
                "AND c.constrid = r.primary", (constrid,)).fetchone()
            if ref is None:
                continue
            pcols = _index_columns(conn, ref[2]) if ref[2] is not None else ""
            after.append(f"alter table {who}.{name} add constraint (foreign key "
                         f"({columns_of(idxname)}) references {_owner(ref[1])}.{ref[0]} "
                         f"({pcols}) {named});\n")
    row_size = sum(_width(int(r[2]), int(r[3])) for r in cols)
    out = [f'{{ TABLE {who}.{name} row size = {row_size} number of columns = {len(cols)} '
           f"index size = 0 }}\n\n",
           f"create table {who}.{name} \n  (\n", ",\n".join(lines), "\n  )",
           _fragments(conn, tabid, None), ";\n\n"]
    out.append(f'revoke all on {who}.{name} from "public" as {who};\n\n')
    created = 0
    for idxname, (_, iowner, idxtype, *_parts) in indexes.items():
        if idxname in used_indexes:
            continue
        unique = "unique " if (idxtype or "").strip() == "U" else ""
        out.append(f"create {unique}index {_owner(iowner)}.{idxname} on {who}.{name} "
                   f"({columns_of(idxname)}) using btree"
                   f"{_fragments(conn, tabid, idxname) or ' '};\n")
        created += 1
    if created:
        out.append("\n")
    return "".join(out), after


def _fragments(conn: Any, tabid: int, index: str | None) -> str:
    """The FRAGMENT BY clause sysfragments records for the table (or one of its indexes), in
    dbschema's layout: ``fragment by expression`` (``round robin in a , b``, ``list (key)``),
    then one fragment a line, ``partition p`` where the name is not the dbspace's; a space
    before each comma; "" when there is none."""
    rows = conn.execute(
        "SELECT strategy, evalpos, exprtext, dbspace, partition FROM sysfragments WHERE "
        "tabid = ? AND fragtype = ? AND COALESCE(indexname, '') = ? ORDER BY evalpos",
        (tabid, "I" if index else "T", index or "")).fetchall()
    if not rows:
        return ""
    strategy = str(rows[-1][0]).strip()
    frags = [r for r in rows if int(r[1]) >= 0]
    if strategy == "R":
        return "\n  fragment by round robin in " + " , ".join(str(r[3]) for r in frags) + " "
    head = "expression"
    if strategy == "L":
        head = f"list ({next(str(r[2]) for r in rows if int(r[1]) < 0)})"
    parts = []
    for _, _, text, dbspace, partition in frags:
        named = f"partition {partition} " if partition != dbspace else ""
        body = str(text)
        if body == "remainder" or body.startswith("VALUES ("):
            body = body if body == "remainder" else "values " + body[len("VALUES "):]
        elif not _wrapped(body):
            body = f"({body})"
        parts.append(f"    {named}{body} in {dbspace}")
    return f"\n  fragment by {head}\n" + " ,\n".join(parts) + " "


def _wrapped(text: str) -> bool:
    """Whether one pair of parentheses encloses the whole text."""
    if not text.startswith("("):
        return False
    depth = 0
    for i, ch in enumerate(text):
        depth += (ch == "(") - (ch == ")")
        if depth == 0:
            return i == len(text) - 1
    return False


def _index_columns(conn: Any, idxname: str) -> str:
    parts = ", ".join(f"part{i}" for i in range(1, 17))
    row = conn.execute(f"SELECT tabid, {parts} FROM sysindexes WHERE idxname = ?",
                       (idxname,)).fetchone()
    if row is None:
        return ""
    names = {int(r[1]): r[0] for r in conn.execute(
        "SELECT colname, colno FROM syscolumns WHERE tabid = ?", (row[0],)).fetchall()}
    return ", ".join(names.get(abs(p), str(p)) for p in row[1:] if p)


def _width(coltype: int, collength: int) -> int:
    """A column's bytes in the row, for the row-size comment (approximate for dates/times)."""
    code = catalog.base_code(coltype)
    fixed = {1: 2, 2: 4, 3: 8, 4: 4, 6: 4, 7: 4, 17: 8, 18: 8, 52: 8, 53: 8, 45: 1, 41: 1}
    if code in fixed:
        return fixed[code]
    if code in (5, 8):
        precision = (collength + 65536 if collength < 0 else collength) >> 8
        return precision // 2 + 1
    if code in (11, 12):
        return 56
    if code in (10, 14):
        return ((collength >> 8) & 0xFF) // 2 + 1
    length = collength + 65536 if collength < 0 else collength
    return (length & 0xFF) + 1 if code in (13, 16) else length
