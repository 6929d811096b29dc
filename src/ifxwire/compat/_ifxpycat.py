"""The rows of IfxPy's catalogue functions (``tables``, ``columns``, ``primary_keys``,
``foreign_keys``, ``statistics``, ``procedures``), read from Informix's system catalogue.

IfxPy calls ODBC's SQLTables, SQLColumns, ... and hands back their result sets; their column
names and order are ODBC's (and ifxpyc.c's comments list them). We build the same rows from
``systables``, ``syscolumns``, ``sysconstraints``, ``sysindexes``, ``sysreferences`` and
``sysprocedures`` with plain queries, and shape them in Python, so that nothing here depends
on SQL the server might not have. Name arguments are ODBC search patterns (``%`` and ``_``),
matched with LIKE; ``None`` matches everything. TABLE_CAT is the database name.
"""

from __future__ import annotations

import re
from typing import Any

from .. import catalog
from ..client.connection import Connection

__all__ = ["columns", "foreign_keys", "primary_keys", "procedures", "statistics", "tables"]

Rows = list[tuple[Any, ...]]

TABLES = ["TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "TABLE_TYPE", "REMARKS"]
COLUMNS = [
    "TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "COLUMN_NAME", "DATA_TYPE", "TYPE_NAME",
    "COLUMN_SIZE", "BUFFER_LENGTH", "DECIMAL_DIGITS", "NUM_PREC_RADIX", "NULLABLE", "REMARKS",
    "COLUMN_DEF", "SQL_DATA_TYPE", "SQL_DATETIME_SUB", "CHAR_OCTET_LENGTH", "ORDINAL_POSITION",
    "IS_NULLABLE",
]  # fmt: skip
PRIMARY_KEYS = ["TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "COLUMN_NAME", "KEY_SEQ", "PK_NAME"]
FOREIGN_KEYS = [
    "PKTABLE_CAT", "PKTABLE_SCHEM", "PKTABLE_NAME", "PKCOLUMN_NAME", "FKTABLE_CAT",
    "FKTABLE_SCHEM", "FKTABLE_NAME", "FKCOLUMN_NAME", "KEY_SEQ", "UPDATE_RULE", "DELETE_RULE",
    "FK_NAME", "PK_NAME", "DEFERRABILITY",
]  # fmt: skip
STATISTICS = [
    "TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "NON_UNIQUE", "INDEX_QUALIFIER", "INDEX_NAME",
    "TYPE", "ORDINAL_POSITION", "COLUMN_NAME", "ASC_OR_DESC", "CARDINALITY", "PAGES",
    "FILTER_CONDITION",
]  # fmt: skip
PROCEDURES = [
    "PROCEDURE_CAT", "PROCEDURE_SCHEM", "PROCEDURE_NAME", "NUM_INPUT_PARAMS",
    "NUM_OUTPUT_PARAMS", "NUM_RESULT_SETS", "REMARKS", "PROCEDURE_TYPE",
]  # fmt: skip

# ODBC's SQL type numbers (sql.h) for Informix's base types (sqltypes.h), for DATA_TYPE.
_ODBC_TYPE: dict[int, int] = {
    0: 1, 15: 1, 13: 12, 16: 12, 43: 12, 1: 5, 2: 4, 6: 4, 17: -5, 18: -5, 52: -5, 53: -5,
    3: 8, 4: 7, 5: 3, 8: 3, 7: 91, 10: 93, 11: -4, 12: -1, 45: -7, 101: -1, 102: -4,
}  # fmt: skip
# ODBC interval type numbers by (start, end) field of the qualifier (YEAR 0 ... SECOND 10).
_ODBC_INTERVAL: dict[tuple[int, int], int] = {
    (0, 0): 101, (2, 2): 102, (4, 4): 103, (6, 6): 104, (8, 8): 105, (10, 10): 106,
    (0, 2): 107, (4, 6): 108, (4, 8): 109, (4, 10): 110, (6, 8): 111, (6, 10): 112,
    (8, 10): 113,
}  # fmt: skip


#: "(10,2)", "(5)" in a type name: TYPE_NAME is the name alone ("DECIMAL", "INTERVAL DAY TO
#: SECOND"), as IfxPyDbi's documented example ('VARCHAR') shows.
_SIZES = re.compile(r"\(\d+(?:,\d+)?\)")
_NUMERIC = frozenset({1, 2, 3, 4, 5, 6, 8, 17, 18, 52, 53})


def _like(value: str | None) -> str:
    return "%" if value is None or value == "" else value


def _tabids(conn: Connection, schema: str | None, table: str | None) -> Rows:
    """``(tabid, owner, tabname, tabtype)`` of the tables matching the patterns, in order."""
    cur = conn.cursor()
    try:
        cur.execute(
            "SELECT tabid, owner, tabname, tabtype FROM systables"
            " WHERE owner LIKE ? AND tabname LIKE ? ORDER BY owner, tabname",
            (_like(schema), _like(table)),
        )
        return [(r[0], r[1].strip(), r[2].strip(), r[3]) for r in cur.fetchall()]
    finally:
        cur.close()


def _query(conn: Connection, sql: str, params: tuple[Any, ...] = ()) -> Rows:
    cur = conn.cursor()
    try:
        cur.execute(sql, params or None)
        return list(cur.fetchall())
    finally:
        cur.close()


def tables(conn: Connection, schema: str | None, table: str | None, kinds: str | None) -> Rows:
    """SQLTables: TABLE, VIEW, SYNONYM, SYSTEM TABLE (tabid below 100)."""
    wanted = None
    if kinds:
        wanted = {k.strip().strip("'").upper() for k in kinds.split(",")}
    out: Rows = []
    db = conn.database
    for tabid, owner, name, tabtype in _tabids(conn, schema, table):
        kind = {"T": "TABLE", "V": "VIEW", "S": "SYNONYM", "P": "SYNONYM"}.get(tabtype, "TABLE")
        if kind == "TABLE" and tabid < 100:
            kind = "SYSTEM TABLE"
        if wanted is None or kind in wanted:
            out.append((db, owner, name, kind, None))
    return out


def _xtd_names(conn: Connection) -> dict[int, str]:
    rows = _query(conn, "SELECT extended_id, name FROM sysxtdtypes")
    return {int(r[0]): str(r[1] or "").strip() for r in rows}


def _data_type(code: int, collength: int) -> int | None:
    if code == 14:
        q = catalog.qualifier(collength, interval=True)
        fields = {"YEAR": 0, "MONTH": 2, "DAY": 4, "HOUR": 6, "MINUTE": 8, "SECOND": 10}
        return _ODBC_INTERVAL.get((fields.get(q.start, 10), fields.get(q.end, 10)))
    return _ODBC_TYPE.get(code)


def _sizes(code: int, collength: int) -> tuple[int | None, int | None]:
    """(COLUMN_SIZE, DECIMAL_DIGITS) in ODBC's sense."""
    length = collength + 65536 if collength < 0 else collength
    fixed = {1: 5, 2: 10, 6: 10, 17: 19, 18: 19, 52: 19, 53: 19, 3: 15, 4: 7, 7: 10, 45: 1}
    if code in fixed:
        return fixed[code], 0 if code in (1, 2, 6, 17, 18, 52, 53) else None
    if code in (5, 8):
        scale = length & 0xFF
        return length >> 8, None if scale == 255 else scale
    if code in (13, 16):
        return length & 0xFF, None
    if code in (10, 14):
        q = catalog.qualifier(length, interval=code == 14)
        return length >> 8 & 0xFF, q.fraction or 0
    return length, None


def columns(conn: Connection, schema: str | None, table: str | None, column: str | None) -> Rows:
    """SQLColumns, in table then column order."""
    out: Rows = []
    db = conn.database
    xtd: dict[int, str] | None = None
    for tabid, owner, name, _ in _tabids(conn, schema, table):
        rows = _query(
            conn,
            "SELECT colname, coltype, collength, colno, extended_id FROM syscolumns"
            " WHERE tabid = ? AND colname LIKE ? ORDER BY colno",
            (tabid, _like(column)),
        )
        for colname, coltype, collength, colno, xid in rows:
            xname = None
            if coltype & 0xFF in (40, 41) and xid:
                xtd = _xtd_names(conn) if xtd is None else xtd
                xname = xtd.get(int(xid))
            code = catalog.base_code(coltype, xname)
            tname = _SIZES.sub("", catalog.type_name(coltype, collength, xname))
            size, digits = _sizes(code, collength)
            null = catalog.nullable(coltype)
            out.append(
                (db, owner, name, colname.strip(), _data_type(code, collength),
                 tname, size, collength, digits,
                 10 if code in _NUMERIC else None, int(null), None, None,
                 _data_type(code, collength), None, size if code in (0, 13, 15, 16, 43) else None,
                 colno, "YES" if null else "NO")
            )  # fmt: skip
    return out


def _key_columns(conn: Connection, tabid: int, idxname: str) -> list[str]:
    """The column names of index ``idxname`` on ``tabid``, in key order."""
    parts = _query(
        conn,
        "SELECT part1, part2, part3, part4, part5, part6, part7, part8, part9, part10, part11,"
        " part12, part13, part14, part15, part16 FROM sysindexes WHERE tabid = ? AND idxname = ?",
        (tabid, idxname),
    )
    if not parts:
        return []
    names = dict(
        (int(r[0]), str(r[1]).strip())
        for r in _query(conn, "SELECT colno, colname FROM syscolumns WHERE tabid = ?", (tabid,))
    )
    return [names.get(abs(int(p)), "") for p in parts[0] if p]


def primary_keys(conn: Connection, schema: str | None, table: str | None) -> Rows:
    """SQLPrimaryKeys."""
    out: Rows = []
    db = conn.database
    for tabid, owner, name, _ in _tabids(conn, schema, table):
        for cname, idxname in _query(
            conn,
            "SELECT constrname, idxname FROM sysconstraints WHERE tabid = ? AND constrtype = 'P'",
            (tabid,),
        ):
            for seq, col in enumerate(_key_columns(conn, tabid, idxname), 1):
                out.append((db, owner, name, col, seq, cname.strip()))
    return out


# sysreferences.updrule/delrule 'R' (restrict) and 'C' (cascade) -> ODBC's SQL_RESTRICT (1)
# and SQL_CASCADE (0).
_RULES = {"R": 1, "C": 0}


def foreign_keys(
    conn: Connection,
    pk_schema: str | None,
    pk_table: str | None,
    fk_schema: str | None,
    fk_table: str | None,
) -> Rows:
    """SQLForeignKeys: the keys referencing ``pk_table``, or those ``fk_table`` holds."""
    db = conn.database
    tabs = {r[0]: r for r in _tabids(conn, None, None)}
    want_pk = set(t[0] for t in _tabids(conn, pk_schema, pk_table)) if pk_table else None
    want_fk = set(t[0] for t in _tabids(conn, fk_schema, fk_table)) if fk_table else None
    out: Rows = []
    rows = _query(
        conn,
        "SELECT r.ptabid, r.primary, r.updrule, r.delrule, c.tabid, c.constrname, c.idxname"
        " FROM sysreferences r, sysconstraints c WHERE c.constrid = r.constrid",
    )
    for ptabid, primary, updrule, delrule, ftabid, fkname, fkidx in rows:
        if (want_pk is not None and ptabid not in want_pk) or (
            want_fk is not None and ftabid not in want_fk
        ):
            continue
        pk = _query(
            conn, "SELECT constrname, idxname FROM sysconstraints WHERE constrid = ?", (primary,)
        )
        if not pk:
            continue
        pkname, pkidx = pk[0]
        pcols = _key_columns(conn, ptabid, pkidx)
        fcols = _key_columns(conn, ftabid, fkidx)
        p, f = tabs[ptabid], tabs[ftabid]
        for seq, (pcol, fcol) in enumerate(zip(pcols, fcols, strict=False), 1):
            out.append(
                (db, p[1], p[2], pcol, db, f[1], f[2], fcol, seq,
                 _RULES.get(str(updrule).strip(), 1), _RULES.get(str(delrule).strip(), 1),
                 fkname.strip(), pkname.strip(), 7)
            )  # fmt: skip
    out.sort(key=lambda r: (r[5], r[6], r[8]) if want_pk is not None else (r[1], r[2], r[8]))
    return out


def statistics(conn: Connection, schema: str | None, table: str | None, every: int) -> Rows:
    """SQLStatistics: per table a table-statistics row (TYPE 0, SQL_TABLE_STAT), then one row
    per index column. ``every`` is ODBC's Unique argument as IfxPy passes it: 1
    (SQL_INDEX_ALL) lists every index, 0 (SQL_INDEX_UNIQUE) the unique ones only."""
    out: Rows = []
    db = conn.database
    for tabid, owner, name, _ in _tabids(conn, schema, table):
        out.append((db, owner, name, None, None, None, 0, None, None, None, None, None, None))
        for idxname, idxtype, clustered in _query(
            conn,
            "SELECT idxname, idxtype, clustered FROM sysindexes WHERE tabid = ? ORDER BY idxname",
            (tabid,),
        ):
            non_unique = 0 if str(idxtype).strip() == "U" else 1
            if not every and non_unique:
                continue
            kind = 1 if str(clustered or "").strip().upper() == "C" else 3
            for seq, col in enumerate(_key_columns(conn, tabid, idxname), 1):
                out.append(
                    (db, owner, name, non_unique, None, idxname.strip(), kind, seq, col,
                     "A", None, None, None)
                )  # fmt: skip
    return out


def procedures(conn: Connection, schema: str | None, name: str | None) -> Rows:
    """SQLProcedures: PROCEDURE_TYPE 1 for a procedure, 2 for a function (ODBC's values)."""
    db = conn.database
    rows = _query(
        conn,
        "SELECT owner, procname, numargs, isproc FROM sysprocedures"
        " WHERE owner LIKE ? AND procname LIKE ? ORDER BY owner, procname",
        (_like(schema), _like(name)),
    )
    return [
        (db, str(o).strip(), str(p).strip(), n, None, None, None, 1 if isproc == "t" else 2)
        for o, p, n, isproc in rows
    ]
