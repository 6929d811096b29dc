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

from ..schema.catalog import TableInfo, quote


def update_statistics(conn: sqlite3.Connection, tables: list[TableInfo]) -> None:
    """Write the row counts of ``tables`` (permanent tables of the session's database) and of
    their indexes into systables and sysindices."""
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
