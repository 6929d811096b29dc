"""``db:table``: the other databases of this server a session reads and writes.

Each is attached to the session's SQLite connection as ``ifxdb_<name>`` until the session's
database closes. Informix runs a statement across databases only when every database has the
same logging mode (HCL Informix Guide to SQL: Tutorial, "SQL statements that access more than
one database": "the local database and the external databases must all have the same logging
mode"; buffered and unbuffered logging count as the same, Database Design Guide, "Logging-type
restrictions on distributed queries"); otherwise -568 … -571, whose texts are in the message
catalogue IBM ships in the JDBC jar.

A database only read is attached read-only: SQLite's BEGIN IMMEDIATE takes the write lock of
every attached database, and a session writing its own database must not lock one it only
reads. The first INSERT/UPDATE/DELETE/MERGE into a database attaches it read-write (until the
session's database closes); from then on the session's write transactions lock it too, so
its writes and the local ones commit or roll back together. SQLite cannot ATTACH inside a
transaction: a first reference to a database, or a first write into one, after the
transaction's first write is refused with -999 (docs/SERVER.md).

The attached database's catalogue is kept with the SQLite schema version it was read at and
read again when that version moves (a table created, altered or dropped there, by any
session): Informix sees another database's new table at once. Checking costs one
``PRAGMA schema_version`` per reference; the catalogue is reloaded only after a change.
"""

from __future__ import annotations

import contextlib
import sqlite3
from typing import TYPE_CHECKING

from ..core import sqlcodes as sc
from ..core.errors import EngineError, not_implemented
from ..schema import catalog as cat
from ..sql.plan import table_signature
from . import access

if TYPE_CHECKING:
    from ..sql.plan import Plan
    from .session_api import FeatureSession

PREFIX = "ifxdb_"


def alias(db: str) -> str:
    """The SQLite schema name database ``db`` is attached as."""
    return PREFIX + db


def database_of(info: cat.TableInfo) -> str | None:
    """The other database a table belongs to (None: the session's own)."""
    return info.schema[len(PREFIX):] if info.schema.startswith(PREFIX) else None


def attach(s: FeatureSession, db: str, write: bool = False) -> cat.Schema:
    """The schema of database ``db``, attached (read-write when ``write``) on first use."""
    schema = s._attached.get(db)
    conn = s.conn
    if schema is not None and (not write or db in s._attached_rw):
        assert conn is not None
        version = _version(conn, db)
        if version != s._attached_versions.get(db):
            schema = s._attached[db] = cat.load_schema(conn, alias(db))
            s._attached_versions[db] = version
        return schema
    if conn is None:
        raise EngineError(sc.NO_DB_SELECTED)
    if s.row_locks:
        s.rl_flush_own()  # the SQLite transaction held across statements (row locks)
    if conn.in_transaction:
        what = "a first write into" if schema is not None else "a first reference to"
        raise not_implemented(f"{what} database {db} inside a transaction that has written")
    name = cat.quote(alias(db))
    if schema is not None:  # read-only until now: attach it again, writable
        try:
            conn.execute(f"DETACH DATABASE {name}")
        except sqlite3.Error:  # an open cursor still reads it
            raise not_implemented(f"a first write into database {db} while a cursor reads "
                                  "it") from None
        del s._attached[db]
    else:
        s.engine.attach_session(db, s.session_id, False)
    try:
        uri = s.engine.path(db) if write else s.engine.readonly_uri(db)
        conn.execute(f"ATTACH DATABASE ? AS {name}", (uri,))
        meta = cat.meta(conn, name)
        _check_logging(s, meta, db)
        level = access.database_level(conn, s.user, meta.get("owner", "informix"), name)
        if level is None:
            raise EngineError(sc.NO_CONNECT, near=db)
        version = _version(conn, db)
        schema = cat.load_schema(conn, alias(db))
    except (sqlite3.Error, EngineError) as e:
        with contextlib.suppress(sqlite3.Error):
            conn.execute(f"DETACH DATABASE {name}")
        s._attached_rw.discard(db)
        s.engine.detach_session(db, s.session_id)
        if isinstance(e, EngineError):
            raise
        raise EngineError(sc.NO_DATABASE, sc.ISAM_NOT_FOUND, near=db,
                          message=f"cannot open database {db}: {e}") from None
    s._attached[db] = schema
    s._attached_versions[db] = version
    if write:
        s._attached_rw.add(db)
    return schema


def check_current(s: FeatureSession, tables: dict[tuple[str, str], tuple[object, ...]]) -> None:
    """-710 when a table of another database a prepared statement was compiled against has
    since been dropped, altered or renamed there (EngineSession._check_current does the same
    for the session's own database). One ``PRAGMA schema_version`` per table while nothing
    changed."""
    for (db, name), signature in tables.items():
        if db not in s._attached:  # not attached since: the statement went with it
            continue
        info = attach(s, db).tables.get(name)
        if info is None or table_signature(info) != signature:
            raise EngineError(sc.TABLE_CHANGED, near=name)


def _version(conn: sqlite3.Connection, db: str) -> int:
    """SQLite's schema version of attached database ``db``: it moves with every change to
    that database's schema, whoever made it (SQLite reads it from the file's header)."""
    return int(conn.execute(f"PRAGMA {cat.quote(alias(db))}.schema_version").fetchone()[0])


def versions(s: FeatureSession) -> tuple[tuple[str, int], ...]:
    """The schema versions of the databases this session has attached, for the key of a
    cached plan: a plan compiled against another database's old catalogue is not reused."""
    conn = s.conn
    if not s._attached or conn is None:
        return ()
    return tuple((db, _version(conn, db)) for db in sorted(s._attached))


def _check_logging(s: FeatureSession, meta: dict[str, str], db: str) -> None:
    """-568 … -571 unless ``db`` has the session database's logging mode (buffered and
    unbuffered logging are the same mode here, as the Database Design Guide says)."""
    logged, ansi = meta.get("logged") == "1", meta.get("ansi") == "1"
    if s._ansi and not ansi:
        code = sc.EXTERNAL_NOT_ANSI if logged else sc.EXTERNAL_NO_LOG
    elif not s._ansi and ansi:
        code = sc.EXTERNAL_ANSI
    elif s._logged and not logged:
        code = sc.EXTERNAL_NO_LOG
    elif not s._logged and logged:
        code = sc.EXTERNAL_LOGGED
    else:
        return
    raise EngineError(code, near=db)


def check_write(s: FeatureSession, plan: Plan) -> None:
    """Before a statement writes another database: attach it writable (outside the SQLite
    transaction) and check the user's privilege on the target there (-272 … -275)."""
    for part in plan.parts or [plan]:
        info = part.table
        db = database_of(info) if info is not None else None
        if db is None or info is None:
            continue
        attach(s, db, write=True)
        conn = s._connection()
        name = cat.quote(alias(db))
        owner = cat.meta(conn, name).get("owner", "informix")
        if access.database_level(conn, s.user, owner, name) == "D":
            continue
        privs = access.Privileges(conn, s.user, None, schema=name)
        access.check_plan(privs, s.user, part.kind, [info.name], info.name)
