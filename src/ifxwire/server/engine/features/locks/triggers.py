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

*Made lazily* (docs/SERVER.md, "Lock triggers made at a table's first write"): a session makes
the set of a table only when it first writes that table, not of every table at its first
write (0.8-1.7 s per new session at 500 tables). Which tables a statement writes, through
SQLite triggers and foreign-key cascades included, SQLite tells its authorizer while it
prepares the statement (before any row is written): a write to a user table without its set
is refused there (SQLITE_DENY), the table is noted in ``missing``, and the session makes the
set and runs the statement again (session_locks.py). So no write ever runs without its lock
triggers. The sets and the authorizer belong to the SQLite connection, which the Engine pools:
the next session on a pooled connection keeps them (FunctionSlot.lock_triggers).

*Runs* (docs/SERVER.md, "Bulk inserts"): while a batch of INSERTs runs
(session_locks.rl_bulk), the TEMP table ``_ifx_run`` holds one row naming its table. The
INSERT trigger of that table then only moves the row's ``hi`` to the new rowid when it
continues the run (the first row starts it), in SQL; a row that does not continue it (a
rowid given by the statement, an INTEGER PRIMARY KEY out of order) calls ``_ifx_lk`` as
before. So every rowid from ``lo`` to ``hi`` was inserted by the batch, and the batch is
locked and recorded for undo as one range after it. Why: the trigger's call into Python per
inserted row (~2.2 µs of SQLite's ~2 µs per row of a 5-column executemany, measured alone)
was the largest server cost left per inserted row (speed11). Outside a batch the table is
empty, and each row costs one UPDATE that finds nothing. The duplicate-key image trigger
(``_n``) does not run for a batch's rows: a batch that fails is run again row by row, which
records it.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable

from . import undo

#: SQLite allows 127 arguments to a function here; wider tables escalate instead.
MAX_IMAGE = 120

#: The open run of a batch of INSERTs (session_locks.rl_bulk): one row (the table, the first
#: and last rowid of the run so far) while the batch runs, none otherwise.
RUN_TABLE = "_ifx_run"
RUN_COLUMNS = "(tab TEXT NOT NULL, lo INTEGER, hi INTEGER)"

Signature = tuple[object, ...]

#: The authorizer's action codes of a row write (sqlite3.h: SQLITE_DELETE, _INSERT, _UPDATE).
_WRITES = frozenset({sqlite3.SQLITE_DELETE, sqlite3.SQLITE_INSERT, sqlite3.SQLITE_UPDATE})


def _subtable(conn: sqlite3.Connection, table: str) -> bool:
    try:
        return conn.execute("SELECT 1 FROM main.sysinherits i JOIN main.systables t ON "
                            "t.tabid = i.child WHERE i.class = 'T' AND t.tabname = ?",
                            (table,)).fetchone() is not None
    except sqlite3.OperationalError:  # a database file without the table
        return False


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


class LockTriggers:
    """The lock triggers installed on one connection, per table."""

    def __init__(self) -> None:
        self._conn_id = 0
        self._seq = 0
        #: table -> (its signature, its triggers' names)
        self._tables: dict[str, tuple[Signature, tuple[str, ...]]] = {}
        #: lower-cased names of the tables in ``_tables`` (the authorizer's test)
        self._have: frozenset[str] = frozenset()
        #: the user's permanent tables at the last ``install``, lower-cased -> name
        self.user: dict[str, str] = {}
        #: tables a refused statement writes (the session makes their sets and runs it again)
        self.missing: set[str] = set()
        #: asked by the authorizer whether it may refuse now (the session using this
        #: connection says no while it replays undo, runs DDL or is not this connection's)
        self.gate: Callable[[int], bool] | None = None
        #: CREATE TEMP TRIGGER statements run (a cost check for tests).
        self.made = 0
        #: Triggers were made or dropped inside a SQLite transaction not known to be
        #: committed: a rollback may take them back (or bring dropped ones back), so the
        #: session must ask ``listed`` rather than trust ``count`` (session_locks._rl_install).
        self.unsure = True

    @classmethod
    def bind(cls, conn: sqlite3.Connection) -> LockTriggers:
        """A new set for ``conn``, with its authorizer (kept with the connection while it is
        pooled: FunctionSlot.lock_triggers)."""
        lt = cls()
        lt._conn_id = id(conn)
        conn.set_authorizer(lt.authorize)
        return lt

    @property
    def conn_id(self) -> int:
        return self._conn_id

    def authorize(self, action: int, arg1: str | None, _arg2: str | None,
                  db: str | None, _source: str | None) -> int:
        """SQLite's authorizer (called while a statement is prepared): refuse a row write to
        a user table whose lock triggers are not made yet, and note the table."""
        if action not in _WRITES or db != "main" or arg1 is None:
            return sqlite3.SQLITE_OK
        low = arg1.lower()
        if low in self._have:
            return sqlite3.SQLITE_OK
        name = self.user.get(low)
        gate = self.gate
        if name is None or gate is None or not gate(self._conn_id):
            return sqlite3.SQLITE_OK
        self.missing.add(name)
        return sqlite3.SQLITE_DENY

    def has(self, table: str) -> bool:
        return table.lower() in self._have

    def count(self) -> int:
        """The lock triggers this object made that should be listed in temp.sqlite_master."""
        return sum(len(v[1]) for v in self._tables.values())

    @staticmethod
    def listed(conn: sqlite3.Connection) -> int:
        """The lock triggers temp.sqlite_master lists: fewer than ``count`` when a rollback
        took some back, more when it brought dropped ones back."""
        return int(conn.execute(
            "SELECT count(*) FROM temp.sqlite_master WHERE type = 'trigger' "
            "AND name LIKE '\\_ifxlk\\_%' ESCAPE '\\'").fetchone()[0])

    def install(self, conn: sqlite3.Connection, tables: Iterable[str],
                add: Iterable[str] = ()) -> None:
        """Make the triggers current of the tables of ``tables`` (the user's permanent
        tables) that have a set or are named in ``add``; drop every other lock trigger."""
        if id(conn) != self._conn_id:  # a new connection: its TEMP schema is empty
            self._conn_id = id(conn)
            self._tables = {}
        tables = list(tables)
        extra = set(add)
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
        self.user = {t.lower(): t for t in tables if t in sigs}
        wanted: dict[str, Signature] = {}
        for table in tables:
            if table in sigs and (table in self._tables or table in extra):
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
        changed = bool(stale) or any(name not in keep for name in listed)
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
        try:
            for table in sorted(stale):
                self._tables[table] = (wanted[table], self._make(conn, table))
        finally:
            self._have = frozenset(t.lower() for t in self._tables)
            if not conn.in_transaction:
                self.unsure = False  # made and listed outside a transaction: they stay
            elif changed:
                self.unsure = True

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
        # An inserted row continuing the open run of this table (a batch: RUN_TABLE) only
        # moves the run's end, in SQL; any other calls _ifx_lk (module docstring, "Runs").
        conn.execute(f"CREATE TEMP TABLE IF NOT EXISTS {RUN_TABLE} {RUN_COLUMNS}")
        conn.execute(f"CREATE TEMP TRIGGER _ifxlk_{n}_i AFTER INSERT ON main.{q} BEGIN "
                     f"UPDATE {RUN_TABLE} SET lo = coalesce(lo, NEW.rowid), hi = NEW.rowid "
                     f"WHERE tab = {lit} AND (hi IS NULL OR hi = NEW.rowid - 1); "
                     f"SELECT _ifx_lk({lit}, 'I', NEW.rowid) WHERE changes() = 0; END")
        self.made += 3
        unique = any(r[2] for r in conn.execute(f"PRAGMA main.index_list({lit})")) or (
            _subtable(conn, table))  # held to its supertables' keys (features/inherit.py)
        if unique and len(cols) <= MAX_IMAGE:
            # the row being inserted, for a duplicate key another session holds (-271); not
            # in a run (a batch that fails is served row by row, which records it then)
            new = "".join(", NEW." + _quote(c) for c in cols)
            conn.execute(f"CREATE TEMP TRIGGER _ifxlk_{n}_n BEFORE INSERT ON main.{q} "
                         f"WHEN NOT EXISTS (SELECT 1 FROM {RUN_TABLE} WHERE tab = {lit}) "
                         f"BEGIN SELECT _ifx_lk({lit}, 'N', 0{new}); END")
            made.append(f"_ifxlk_{n}_n")
            self.made += 1
        return tuple(made)
