"""``sysobjstate``: one row per user-created index, constraint and trigger, with its mode.

Guide to SQL: Reference 14.10, SYSOBJSTATE: "Every index, trigger, and constraint in the
database has a corresponding row in the sysobjstate table if a user creates the object.
Indexes that the database server creates on the system catalog tables are not listed".
Objects are made, renamed and dropped in many places (CREATE INDEX, the constraints of
CREATE/ALTER TABLE, ALTER TABLE's rebuilds, RENAME INDEX, DROP TABLE, DROP INDEX, DROP
TRIGGER, …), so rather than touch each, ``sync`` runs once at the end of every DDL statement
and brings the table in line with ``sysindices``, ``sysconstraints`` and ``systriggers``:
rows of objects that are gone are deleted, objects without a row get one in the enabled mode
(the default, "Enabled Mode", ids_sqs_1101). A mode already recorded (SET CONSTRAINTS / SET
TRIGGERS, CREATE TRIGGER … DISABLED) is kept.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Sequence

from ..schema import catalog_versions as versions

#: objtype -> (catalogue table, its name column); owner and tabid are named so in all three.
_SOURCES = {"I": ("sysindices", "idxname"), "C": ("sysconstraints", "constrname"),
            "T": ("systriggers", "trigname")}


def sync(conn: sqlite3.Connection, since: int = -1) -> None:
    """Bring sysobjstate in line with the user objects the catalogue holds (tabid >= 100).

    Compared as sets in Python: the catalogue tables have no index on (name, tabid), and the
    same comparison as correlated NOT EXISTS subqueries was quadratic in the number of
    objects; Django's suite (thousands of tables, a sync per DDL statement) spent most of
    its server time there. ``since``: the largest catalogue stamp before the statement
    (schema/catalog_versions.py): only the tables it stamped are compared, as every object
    of a table is a row of sysindices, sysconstraints or systriggers with its tabid (the
    whole comparison grew with the database; -1: compare everything)."""
    if since < 0:
        _sync(conn, "", ())
        return
    tabids = versions.stamped_since(conn, since)
    if tabids:
        _sync(conn, f" WHERE tabid IN ({', '.join('?' * len(tabids))})", tabids)
    if os.environ.get("IFXWIRE_SCHEMA_CHECK") == "1":
        before = set(conn.execute("SELECT * FROM sysobjstate"))
        _sync(conn, "", ())
        if set(conn.execute("SELECT * FROM sysobjstate")) != before:
            raise RuntimeError(f"sysobjstate synced for tabids {tabids} differs from a whole "
                               "sync")


def _sync(conn: sqlite3.Connection, where: str, args: Sequence[int]) -> None:
    recorded = set(conn.execute(f"SELECT objtype, name, tabid FROM sysobjstate{where}", args))
    present: dict[tuple[str, str, int], str] = {}
    for objtype, (table, column) in _SOURCES.items():
        for owner, name, tabid in conn.execute(
                f"SELECT owner, {column}, tabid FROM {table}{where}", args):
            present[(objtype, name, tabid)] = owner
    gone = [key for key in recorded if key[0] in _SOURCES and key not in present]
    if gone:
        conn.executemany("DELETE FROM sysobjstate WHERE objtype = ? AND name = ? AND tabid = ?",
                         gone)
    new = [(key[0], owner, key[1], key[2]) for key, owner in present.items()
           if key[2] >= 100 and key not in recorded]
    if new:
        conn.executemany("INSERT INTO sysobjstate (objtype, owner, name, tabid, state) "
                         "VALUES (?, ?, ?, ?, 'E')", new)
