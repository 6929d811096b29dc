"""Describe commands (``\\dt``, ``\\d t``, ``INFO TABLES``, ``INFO COLUMNS FOR t``...) and the
catalog names the completer offers, read with plain SQL on the Informix catalog."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .. import catalog

FIRST_USER_TABID = 100
_KIND = {"T": "table", "V": "view", "S": "synonym", "P": "synonym", "Q": "sequence"}
_DEFAULT = {"N": "NULL", "U": "USER", "T": "TODAY", "C": "CURRENT", "S": "DBSERVERNAME"}


@dataclass
class Listing:
    """A result to print like a query result."""

    title: str
    names: list[str]
    rows: list[tuple[Any, ...]]


def object_name(word: str) -> str:
    """A table name as typed: delimited names keep their case, others fold to lower case."""
    word = word.strip().rstrip(";")
    if len(word) > 1 and word[0] == word[-1] == '"':
        return word[1:-1]
    return word.lower()


def tables(conn: Any) -> Listing:
    rows = conn.execute(
        "SELECT tabname, owner, tabtype FROM systables WHERE tabid >= ? "
        "AND tabtype IN ('T', 'V', 'S', 'P', 'Q') ORDER BY tabname",
        (FIRST_USER_TABID,)).fetchall()
    return Listing("Tables", ["name", "owner", "type"],
                   [(r[0], (r[1] or "").strip(), _KIND.get(r[2], r[2])) for r in rows])


def _tabid(conn: Any, name: str) -> int | None:
    row = conn.execute("SELECT tabid FROM systables WHERE tabname = ?", (name,)).fetchone()
    return None if row is None else int(row[0])


def columns(conn: Any, name: str) -> Listing | None:
    tabid = _tabid(conn, name)
    if tabid is None:
        return None
    rows = conn.execute(
        "SELECT c.colname, c.coltype, c.collength, x.name, d.type, d.default "
        "FROM syscolumns c "
        "LEFT OUTER JOIN sysxtdtypes x ON x.extended_id = c.extended_id AND c.extended_id > 0 "
        "LEFT OUTER JOIN sysdefaults d ON d.tabid = c.tabid AND d.colno = c.colno "
        "WHERE c.tabid = ? ORDER BY c.colno", (tabid,)).fetchall()
    out = []
    for colname, coltype, collength, xtd, dkind, dvalue in rows:
        default = None
        if dkind is not None:
            default = dvalue if dkind.strip() == "L" else _DEFAULT.get(dkind.strip(), dkind)
        out.append((colname, catalog.type_name(coltype, collength, xtd),
                    "yes" if catalog.nullable(coltype) else "no", default))
    return Listing(f'Table "{name}"', ["column", "type", "nulls", "default"], out)


def indexes(conn: Any, name: str) -> Listing | None:
    tabid = _tabid(conn, name)
    if tabid is None:
        return None
    names = {int(r[1]): r[0] for r in conn.execute(
        "SELECT colname, colno FROM syscolumns WHERE tabid = ?", (tabid,)).fetchall()}
    parts = ", ".join(f"part{i}" for i in range(1, 17))
    rows = conn.execute(f"SELECT idxname, idxtype, {parts} FROM sysindexes WHERE tabid = ? "
                        "ORDER BY idxname", (tabid,)).fetchall()
    constraints = {r[0]: r[1] for r in conn.execute(
        "SELECT idxname, constrname FROM sysconstraints WHERE tabid = ? "
        "AND idxname IS NOT NULL", (tabid,)).fetchall()}
    out = []
    for idxname, idxtype, *cols in rows:
        listed = ", ".join(names.get(abs(c), str(c)) + (" DESC" if c < 0 else "")
                           for c in cols if c)
        out.append((idxname.strip() if idxname.startswith(" ") else idxname,
                    "unique" if (idxtype or "").strip() == "U" else "duplicates", listed,
                    constraints.get(idxname)))
    return Listing(f'Indexes of "{name}"', ["index", "kind", "columns", "constraint"], out)


def constraints(conn: Any, name: str) -> Listing | None:
    tabid = _tabid(conn, name)
    if tabid is None:
        return None
    kinds = {"P": "primary key", "U": "unique", "R": "foreign key", "C": "check",
             "N": "not null"}
    rows = conn.execute("SELECT constrname, constrtype FROM sysconstraints WHERE tabid = ? "
                        "ORDER BY constrname", (tabid,)).fetchall()
    return Listing(f'Constraints of "{name}"', ["constraint", "kind"],
                   [(r[0], kinds.get(r[1], r[1])) for r in rows])


def completion_names(conn: Any) -> tuple[list[str], dict[str, list[str]]]:
    """(table and view names, columns by table) for the completer."""
    cols: dict[str, list[str]] = {}
    for tabname, colname in conn.execute(
            "SELECT t.tabname, c.colname FROM systables t, syscolumns c "
            "WHERE c.tabid = t.tabid AND t.tabid >= ? AND t.tabtype IN ('T', 'V') "
            "ORDER BY t.tabname, c.colno", (FIRST_USER_TABID,)).fetchall():
        cols.setdefault(tabname, []).append(colname)
    return sorted(cols), cols
