"""Which tables' catalogue rows changed since a schema was loaded (``load_schema``'s base).

Why: every DDL statement changes SQLite's schema version, and the next statement of every
session loaded the whole catalogue again: every column of every table, a cost that grows
with the database (Django's test database has ~1,800 tables, built by DDL one statement at a
time, so building it cost the square of its size; ``load_schema`` was half the server's
samples in ``bench/ddl_in_transactions.py``). Now persistent triggers on the six catalogue
tables a ``TableInfo`` is built from stamp each tabid they touch with a number one past the
largest so far (``_ifx_cvers``), and a load that has a base reads only the tables stamped
after the base's own stamp, reusing the base's ``TableInfo`` objects for the rest (they are
not changed after a load: DDL copies what it alters, features/alter.py).

Why it is safe: a base is a schema loaded from committed state (the engine keeps the latest
such per database; a session's private schema after DDL in its transaction is never one).
Every transaction that changes those six tables writes stamps above the largest committed
one, since SQLite lets one writer at a time commit; so a committed state whose largest
stamp equals the base's is the base's state for these tables, and a snapshot whose largest
stamp is below the base's (a reader of an older snapshot) loads in full. Stamps a rolled
back transaction wrote go with it and may be written again by another: harmless, as no base
ever saw them. ``IFXWIRE_SCHEMA_CHECK=1`` compares every partial load with a full one.
"""

from __future__ import annotations

import sqlite3

TABLE = "_ifx_cvers"
#: the catalogue tables ``load_schema`` builds TableInfo from, and their tabid columns
#: (an inheritance row changes both tables' subtables/supertable); systriggers for
#: ``objstate.sync``, which compares the objects of the tables a DDL statement stamped
WATCHED = {
    "systables": ("tabid",), "syscolumns": ("tabid",), "sysdefaults": ("tabid",),
    "sysindices": ("tabid",), "sysconstraints": ("tabid",), "sysinherits": ("child", "parent"),
    "systriggers": ("tabid",),
}


#: the triggers' names (an older file lacking one gets it when opened)
TRIGGERS = frozenset(f"_ifx_cv_{t}_{op}" for t in WATCHED for op in ("i", "d", "u"))


def _stamp(tabid: str) -> str:
    # Two plain statements, not INSERT OR REPLACE: a trigger's conflict clause yields to the
    # outer statement's, so an INSERT OR IGNORE into a catalogue table would have kept the
    # old stamp.
    top = f"(SELECT coalesce(max(seq), 0) + 1 FROM {TABLE})"
    return (f"UPDATE {TABLE} SET seq = {top} WHERE tabid = {tabid}; "
            f"INSERT INTO {TABLE} SELECT {tabid}, {top} WHERE NOT EXISTS "
            f"(SELECT 1 FROM {TABLE} WHERE tabid = {tabid}); ")


def ddl() -> list[str]:
    """The stamp table and its triggers (run at CREATE DATABASE, after the catalogue's own
    rows are in, and when an older file is opened)."""
    out = [f"CREATE TABLE IF NOT EXISTS {TABLE} (tabid INTEGER PRIMARY KEY, seq INTEGER NOT "
           "NULL)", f"CREATE INDEX IF NOT EXISTS {TABLE}_seq ON {TABLE} (seq)"]
    for table, cols in WATCHED.items():
        for op, event, rows in (("i", "INSERT", ("NEW",)), ("d", "DELETE", ("OLD",)),
                                ("u", "UPDATE", ("OLD", "NEW"))):
            body = "".join(_stamp(f"{r}.{c}") for r in rows for c in cols)
            out.append(f"CREATE TRIGGER IF NOT EXISTS _ifx_cv_{table}_{op} AFTER {event} ON "
                       f"{table} BEGIN {body}END")
    return out


def changes(conn: sqlite3.Connection, prefix: str,
            since: int | None) -> tuple[int, set[int] | None]:
    """The largest stamp now, and the tabids stamped after ``since`` (None: load in full;
    no base, a file without stamps, or a snapshot older than the base)."""
    try:
        (top,) = conn.execute(f"SELECT coalesce(max(seq), 0) FROM {prefix}{TABLE}").fetchone()
    except sqlite3.OperationalError:  # (a file not upgraded yet: no stamps)
        return -1, None
    top = int(top)
    if since is None or since < 0 or top < since:
        return top, None
    if top == since:
        return top, set()
    return top, {int(r[0]) for r in conn.execute(
        f"SELECT tabid FROM {prefix}{TABLE} WHERE seq > ?", (since,))}


def top(conn: sqlite3.Connection) -> int:
    """The largest stamp (-1: a file without stamps)."""
    return changes(conn, "", None)[0]


def stamped_since(conn: sqlite3.Connection, since: int) -> list[int]:
    """The tabids stamped after ``since`` (in the caller's transaction: its own writes too)."""
    return [int(r[0]) for r in conn.execute(f"SELECT tabid FROM {TABLE} WHERE seq > ?",
                                            (since,))]
