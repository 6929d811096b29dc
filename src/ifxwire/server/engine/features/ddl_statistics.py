"""UPDATE STATISTICS: the table and index counts it keeps in the catalogue.

"Using the LOW mode option" (Guide to SQL: Syntax, ids_sqs_0039): LOW updates "table, row,
and page-count statistics in the systables system catalog table" and the index statistics
in sysindices; SYSTABLES (ids_sqr_072) and SYSINDICES (ids_sqr_042) say their counts are
zero until UPDATE STATISTICS is run. MEDIUM and HIGH add column distributions (sysdistrib),
which no query plan here would read: every mode keeps the same counts.

What is kept, and what it costs: systables.nrows is ``COUNT(*)`` of the table; each index's
sysindices.nrows is that count too (one key per row) and nunique the count of distinct
values of its first key column (SYSINDICES, ids_sqr_042: "Number of unique keys in the first
column"), one scan of that index. So a statement reads each table's rows once per index
plus once, linear in the database's size; page counts (npused, leaves, levels) are not
kept: SQLite's pages are not Informix's, and a made-up figure would mislead.
"""

from __future__ import annotations

import sqlite3

from ....protocol.codes import TypeCode as T
from ..schema.catalog import TableInfo, quote

#: The column types whose second-smallest / second-largest values syscolumns keeps (its
#: colmin / colmax are INTEGERs)
_INTEGER_CODES = frozenset((T.SMALLINT, T.INTEGER, T.SERIAL, T.INT8, T.SERIAL8, T.BIGINT,
                            T.BIGSERIAL))


def update_statistics(conn: sqlite3.Connection, tables: list[TableInfo],
                      distributions: bool = False, columns: tuple[str, ...] = ()) -> None:
    """Write the row counts of ``tables`` (permanent tables of the session's database) and of
    their indexes into systables and sysindices; with ``distributions`` (MEDIUM, HIGH) also
    syscolumns.colmin / colmax of the leading index columns (``columns``: of those named)."""
    for info in tables:
        if info.kind != "T" or info.temp or info.schema != "main":
            continue  # views and temporary tables have no systables counts here
        name = quote(info.name)
        (count,) = conn.execute(f"SELECT COUNT(*) FROM {name}").fetchone()
        conn.execute("UPDATE systables SET nrows = ? WHERE tabid = ?", (count, info.tabid))
        by_no = {c.colno: c.name for c in info.columns}
        for idxname, part1 in conn.execute("SELECT idxname, part1 FROM sysindices WHERE "
                                           "tabid = ?", (info.tabid,)).fetchall():
            first = by_no.get(abs(int(part1 or 0)))
            unique = 0
            if first is not None:
                (unique,) = conn.execute(
                    f"SELECT COUNT(DISTINCT {quote(first)}) FROM {name}").fetchone()
            conn.execute("UPDATE sysindices SET nrows = ?, nunique = ? WHERE idxname = ? "
                         "AND tabid = ?", (count, unique, idxname, info.tabid))
            if distributions and first is not None and (not columns or first in columns):
                _second_extremes(conn, info, first)


def _second_extremes(conn: sqlite3.Connection, info: TableInfo, column: str) -> None:
    """SYSCOLUMNS (ids_sqr_028): colmin and colmax "give the second-smallest and
    second-largest values of a column at the time of the last update statistics ... for
    leading index columns only. For example, if the values in an indexed column are 1, 2,
    3, 4, and 5, the colmin value is 2 and the colmax value is 4"; "values only if ... the
    UPDATE STATISTICS statement has explicitly or implicitly calculated the column
    distribution" (MEDIUM, HIGH). Integer columns only here (the two columns are INTEGERs;
    how Informix encodes other types in them is not known to us); distinct values [our
    reading of "second-smallest"]; a value outside INTEGER's range, or too few values,
    leaves NULL."""
    col = info.by_name[column]
    if col.type.code not in _INTEGER_CODES:
        return
    q = quote(column)
    name = quote(info.name)
    low = conn.execute(f"SELECT DISTINCT {q} FROM {name} WHERE {q} IS NOT NULL ORDER BY 1 "
                       "LIMIT 1 OFFSET 1").fetchone()
    high = conn.execute(f"SELECT DISTINCT {q} FROM {name} WHERE {q} IS NOT NULL ORDER BY 1 "
                        "DESC LIMIT 1 OFFSET 1").fetchone()

    def fit(row: tuple[object, ...] | None) -> int | None:
        v = row[0] if row else None
        return v if isinstance(v, int) and -(2**31) < v < 2**31 else None
    conn.execute("UPDATE syscolumns SET colmin = ?, colmax = ? WHERE tabid = ? AND colno = ?",
                 (fit(low), fit(high), info.tabid, col.colno))
