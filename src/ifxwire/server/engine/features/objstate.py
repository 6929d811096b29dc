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

import sqlite3

#: objtype -> (catalogue table, its name column); owner and tabid are named so in all three.
_SOURCES = {"I": ("sysindices", "idxname"), "C": ("sysconstraints", "constrname"),
            "T": ("systriggers", "trigname")}


def sync(conn: sqlite3.Connection) -> None:
    """Bring sysobjstate in line with the user objects the catalogue holds (tabid >= 100)."""
    for objtype, (table, column) in _SOURCES.items():
        conn.execute(
            f"DELETE FROM sysobjstate WHERE objtype = ? AND NOT EXISTS (SELECT 1 FROM {table} "
            f"o WHERE o.{column} = sysobjstate.name AND o.tabid = sysobjstate.tabid)",
            (objtype,))
        conn.execute(
            f"INSERT INTO sysobjstate (objtype, owner, name, tabid, state) "
            f"SELECT ?, o.owner, o.{column}, o.tabid, 'E' FROM {table} o WHERE o.tabid >= 100 "
            f"AND NOT EXISTS (SELECT 1 FROM sysobjstate s WHERE s.objtype = ? "
            f"AND s.name = o.{column} AND s.tabid = o.tabid)", (objtype, objtype))
