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

*Batches without the INSERT triggers* (docs/SERVER.md, "Bulk inserts"): a batch of INSERTs
(session_lock_rows.rl_bulk) into a table whose rowid SQLite chooses (no INTEGER PRIMARY KEY
column, the rowid's alias) runs with the table's INSERT triggers (``_i``, ``_n``) dropped
(``suspend_inserts``) and made again with the same names and text right after it
(``resume_inserts``), all in the batch's own SQLite transaction: SQLite gives such a
table's new rows the rowids after its largest one, so the batch's rows are the range from
the largest rowid before it to the largest after it, which the session locks and records
as one range. Why: a trigger costs SQLite ~5,300 instructions per inserted row even when its
WHEN clause is false (a frame for its program and the NEW row copied; callgrind of a bare
5-column executemany: 11,000 instructions per row without, 16,300 with ``WHEN 0``, 18,300 with
the call into Python), as much as the insert itself; dropping and making them again costs
less than 1 µs per row for a batch of 512 (the INSERT is prepared again, twice). A rollback
of the unit brings the state before the drop back either way.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable

from . import undo

#: SQLite allows 127 arguments to a function here; wider tables escalate instead.
MAX_IMAGE = 120

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


def _rowid_alias(conn: sqlite3.Connection, table: str) -> bool:
    """The table has an INTEGER PRIMARY KEY column, its rowid's alias: an insert may give
    any rowid (SQLite's "ROWIDs and the INTEGER PRIMARY KEY"), so a batch's rows need not be
    the rowids after the largest one."""
    pks = [r for r in conn.execute("SELECT type, pk FROM main.pragma_table_info(?)", (table,))
           if r[1]]
    return len(pks) == 1 and str(pks[0][0]).upper() == "INTEGER"


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
        #: the triggers ``_tables`` names, summed whenever ``_tables`` changes (``count`` ran
        #: at every row-lock write unit: a generator sum was 1-2% of 8 writers' server
        #: CPU, issue 26)
        self._count = 0
        #: the user's permanent tables at the last ``install``, lower-cased -> name
        self.user: dict[str, str] = {}
        #: tables a refused statement writes (the session makes their sets and runs it again)
        self.missing: set[str] = set()
        #: asked by the authorizer whether it may refuse now (the session using this
        #: connection says no while it replays undo, runs DDL or is not this connection's)
        self.gate: Callable[[int], bool] | None = None
        #: CREATE TEMP TRIGGER statements run (a cost check for tests).
        self.made = 0
        #: table -> its INSERT triggers' (name, SQL), for suspend_inserts / resume_inserts;
        #: absent for a table whose INTEGER PRIMARY KEY column is its rowid
        self._inserts: dict[str, tuple[tuple[str, str], ...]] = {}
        #: Triggers were made or dropped inside a SQLite transaction not known to be
        #: committed: a rollback may take them back (or bring dropped ones back), so the
        #: session must ask ``listed`` rather than trust ``count`` (session_locks._rl_install).
        self.unsure = True
        #: The install key (connection, schema version, count) and the rows-per-lock map of
        #: the last check of these sets, kept with the pooled connection so that its next
        #: session need not list the catalogue again (session_locks._rl_open)
        self.key: tuple[object, ...] | None = None
        self.pages: dict[str, int] = {}

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
        return self._count

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
            self._inserts = {}
            self._count = 0
        tables = list(tables)
        extra = set(add)
        sigs: dict[str, list[object]] = {}
        idx: dict[str, list[str]] = {}
        # Signatures (root page, DDL text, indexes) of the tables that have or get a set
        # only: reading every table's and index's DDL text grew with the database, once
        # per schema version (a DDL statement) per writing session.
        present = {str(r[0]) for r in conn.execute(
            "SELECT name FROM main.sqlite_master WHERE type = 'table'")}
        candidates = sorted(t.lower() for t in tables
                            if t in present and (t in self._tables or t in extra))
        for i in range(0, len(candidates), 500):
            part = candidates[i : i + 500]
            for kind, name, tbl, root, sql in conn.execute(
                    "SELECT type, name, tbl_name, rootpage, sql FROM main.sqlite_master "
                    "WHERE type IN ('table', 'index') AND lower(tbl_name) IN "
                    f"({', '.join('?' * len(part))})", part):
                if kind == "table":
                    sigs[str(name)] = [root, sql]
                else:
                    idx.setdefault(str(tbl).lower(), []).append(
                        f"{name}\x00{root}\x00{sql}")
        listed: dict[str, str] = {str(n): str(t).lower() for n, t in conn.execute(
            "SELECT name, tbl_name FROM temp.sqlite_master WHERE type = 'trigger' "
            "AND name LIKE '\\_ifxlk\\_%' ESCAPE '\\'")}
        self.user = {t.lower(): t for t in tables if t in present}
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
        self._count = sum(len(v[1]) for v in self._tables.values())
        self._inserts = {t: v for t, v in self._inserts.items() if t in self._tables}
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
            self._count = sum(len(v[1]) for v in self._tables.values())
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
        inserts = [(f"_ifxlk_{n}_i",
                    f"CREATE TEMP TRIGGER _ifxlk_{n}_i AFTER INSERT ON main.{q} BEGIN "
                    f"SELECT _ifx_lk({lit}, 'I', NEW.rowid); END")]
        conn.execute(inserts[0][1])
        self.made += 3
        unique = any(r[2] for r in conn.execute(f"PRAGMA main.index_list({lit})")) or (
            _subtable(conn, table))  # held to its supertables' keys (features/inherit.py)
        if unique and len(cols) <= MAX_IMAGE:
            # the row being inserted, for a duplicate key another session holds (-271)
            new = "".join(", NEW." + _quote(c) for c in cols)
            inserts.append((f"_ifxlk_{n}_n",
                            f"CREATE TEMP TRIGGER _ifxlk_{n}_n BEFORE INSERT ON main.{q} "
                            f"BEGIN SELECT _ifx_lk({lit}, 'N', 0{new}); END"))
            conn.execute(inserts[1][1])
            made.append(f"_ifxlk_{n}_n")
            self.made += 1
        if not _rowid_alias(conn, table):
            self._inserts[table] = tuple(inserts)
        else:
            self._inserts.pop(table, None)
        return tuple(made)

    def suspend_inserts(self, conn: sqlite3.Connection, table: str) -> bool:
        """Drop ``table``'s INSERT triggers for a batch (module docstring, "Batches without
        the INSERT triggers"), inside the caller's SQLite transaction; False (nothing
        dropped) when the table's rowid is an INTEGER PRIMARY KEY column, it has no set, or
        SQLite refuses (statements in progress). ``resume_inserts`` must follow."""
        inserts = self._inserts.get(table)
        if not inserts or not conn.in_transaction:
            return False
        dropped: list[tuple[str, str]] = []
        try:
            for name, sql in inserts:
                conn.execute(f"DROP TRIGGER temp.{_quote(name)}")
                dropped.append((name, sql))
        except sqlite3.Error:
            self.resume_inserts(conn, table, len(dropped))
            return False
        return True

    def resume_inserts(self, conn: sqlite3.Connection, table: str, count: int = -1) -> None:
        """Make the INSERT triggers ``suspend_inserts`` dropped again, same names and text
        (``made`` does not count them: they are the same set). If that fails the caller's
        unit must be rolled back (which brings them back): the error is raised, and
        ``unsure`` makes the next install compare the listing."""
        inserts = self._inserts.get(table, ())
        try:
            for _name, sql in inserts[:len(inserts) if count < 0 else count]:
                conn.execute(sql)
        except BaseException:
            self.unsure = True
            raise
