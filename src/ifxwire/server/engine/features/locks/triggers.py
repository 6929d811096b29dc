"""The TEMP lock triggers of one session's connection, made again only for the tables whose
definition changed (docs/SERVER.md, "Row locks", "Lock triggers kept across DDL").

Why: the triggers (``_ifxlk_*``, one set per permanent table, calling ``_ifx_lk`` with the
row's before-image) depend on the table's columns and unique indexes. They used to be dropped
and made again for *every* table whenever SQLite's schema version moved, so each DDL statement
followed by a write cost four CREATE TEMP TRIGGER per table of the database: a test run that
creates a few hundred tables one by one, writing between them (Django's migrate, its schema
tests), spent most of the server's CPU there and did not finish. Now each table's triggers are
kept while its definition (rootpage, CREATE TABLE text and index texts from sqlite_master) is
the same and its triggers are still listed in ``temp.sqlite_master``; what is listed but not
kept (a dropped or renamed table's, a set brought back by a rolled-back SQLite transaction)
is dropped. Names come from a counter, so a new set never meets an old name.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable

from . import undo

#: SQLite allows 127 arguments to a function here; wider tables escalate instead.
MAX_IMAGE = 120

Signature = tuple[object, ...]


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


class LockTriggers:
    """The lock triggers installed on one connection, per table."""

    def __init__(self) -> None:
        self._conn_id = 0
        self._seq = 0
        #: table -> (its signature, its triggers' names)
        self._tables: dict[str, tuple[Signature, tuple[str, ...]]] = {}
        #: CREATE TEMP TRIGGER statements run (a cost check for tests).
        self.made = 0

    def install(self, conn: sqlite3.Connection, tables: Iterable[str]) -> None:
        """Make the triggers of ``tables`` (the user's permanent tables) current."""
        if id(conn) != self._conn_id:  # a new connection: its TEMP schema is empty
            self._conn_id = id(conn)
            self._tables = {}
        sigs: dict[str, list[object]] = {}
        idx: dict[str, list[str]] = {}
        for kind, name, tbl, root, sql in conn.execute(
                "SELECT type, name, tbl_name, rootpage, sql FROM main.sqlite_master "
                "WHERE type IN ('table', 'index')"):
            if kind == "table":
                sigs[str(name)] = [root, sql]
            else:
                idx.setdefault(str(tbl).lower(), []).append(f"{name}\x00{root}\x00{sql}")
        listed: dict[str, str] = {str(n): str(t).lower() for n, t in conn.execute(
            "SELECT name, tbl_name FROM temp.sqlite_master WHERE type = 'trigger' "
            "AND name LIKE '\\_ifxlk\\_%' ESCAPE '\\'")}
        wanted: dict[str, Signature] = {}
        for table in tables:
            if table in sigs:
                wanted[table] = (*sigs[table], tuple(sorted(idx.get(table.lower(), ()))))
        keep: set[str] = set()
        stale: list[str] = []
        for table, sig in wanted.items():
            have = self._tables.get(table)
            if (have is not None and have[0] == sig
                    and all(listed.get(n) == table.lower() for n in have[1])):
                keep.update(have[1])
            else:
                stale.append(table)
        self._tables = {t: v for t, v in self._tables.items() if t in wanted}
        orphans = []
        for name in listed:
            if name in keep:
                continue
            try:
                conn.execute(f"DROP TRIGGER temp.{_quote(name)}")
            except sqlite3.OperationalError:
                orphans.append(name)
        if orphans:
            # Listed in temp.sqlite_master but unknown to SQLite ("no such trigger"): a lock
            # trigger whose table was dropped, on a connection that reloaded its schema
            # meanwhile (seen with Flyway's clean, then migrate). Its row would make the
            # next trigger of that name "malformed database schema ... already exists".
            conn.execute("PRAGMA writable_schema = ON")
            try:
                conn.executemany("DELETE FROM temp.sqlite_master WHERE type = 'trigger' "
                                 "AND name = ?", [(n,) for n in orphans])
            finally:
                conn.execute("PRAGMA writable_schema = OFF")
        for table in sorted(stale):
            self._tables[table] = (wanted[table], self._make(conn, table))

    def _make(self, conn: sqlite3.Connection, table: str) -> tuple[str, ...]:
        self._seq += 1
        n = self._seq
        cols = undo.columns(conn, table)
        q = _quote(table)
        lit = "'" + table.replace("'", "''") + "'"
        if len(cols) > MAX_IMAGE:
            old_img = ""
            op_u = op_d = "'W'"
        else:
            old_img = "".join(", OLD." + _quote(c) for c in cols)
            op_u, op_d = "'U'", "'D'"
        made = [f"_ifxlk_{n}_u", f"_ifxlk_{n}_d", f"_ifxlk_{n}_i"]
        conn.execute(f"CREATE TEMP TRIGGER _ifxlk_{n}_u BEFORE UPDATE ON main.{q} BEGIN "
                     f"SELECT _ifx_lk({lit}, {op_u}, OLD.rowid{old_img}); END")
        conn.execute(f"CREATE TEMP TRIGGER _ifxlk_{n}_d BEFORE DELETE ON main.{q} BEGIN "
                     f"SELECT _ifx_lk({lit}, {op_d}, OLD.rowid{old_img}); END")
        conn.execute(f"CREATE TEMP TRIGGER _ifxlk_{n}_i AFTER INSERT ON main.{q} BEGIN "
                     f"SELECT _ifx_lk({lit}, 'I', NEW.rowid); END")
        self.made += 3
        unique = any(r[2] for r in conn.execute(f"PRAGMA main.index_list({lit})"))
        if unique and len(cols) <= MAX_IMAGE:
            # the row being inserted, for a duplicate key another session holds (-271)
            new = "".join(", NEW." + _quote(c) for c in cols)
            conn.execute(f"CREATE TEMP TRIGGER _ifxlk_{n}_n BEFORE INSERT ON main.{q} "
                         f"BEGIN SELECT _ifx_lk({lit}, 'N', 0{new}); END")
            made.append(f"_ifxlk_{n}_n")
            self.made += 1
        return tuple(made)
