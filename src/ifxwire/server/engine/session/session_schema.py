"""EngineSession's catalogue lookups: the current database's schema, sequences, named types,
routines and the table lookup behind ``resolve`` (the compiler's TableLookup).

``current_schema`` reuses the engine's cached catalogue for SQLite's schema version (or the
version a write unit has just read, ``_unit_version``); ``_lookup`` follows synonyms, also into
other databases through ``resolve``, which stays in session.py (it hands the session itself
to ``cross_database.attach``). ``sequence_value`` gives NEXTVAL/CURRVAL their per-statement,
per-row rule.

A mixin of EngineSession (session.py sets the state). Moved out of session.py unchanged
(issue 26 §1: a file of one job).
"""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING

from ..core import sqlcodes as sc
from ..core.errors import EngineError
from ..schema import catalog as cat
from ..schema.casts import CastRow, cast_key

if TYPE_CHECKING:
    from ..core.ifxtypes import IfxType
    from ..schema.routines import Routine
    from .engine import Engine


class SchemaLookup:
    """The catalogue lookups of a session (a base of EngineSession, which sets the state
    named here)."""

    if TYPE_CHECKING:
        engine: Engine
        user: str
        database: str | None
        conn: sqlite3.Connection | None
        _incarnation: str
        _currvals: dict[tuple[str, int], int]
        _nextval_rows: dict[tuple[str, int], tuple[int, set[int]]]
        _unit_version: int | None
        _schema: cat.Schema | None
        _schema_key: tuple[object, ...] | None
        _ddl_dirty: bool
        _in_ddl: int
        _sysmaster_schema: cat.Schema | None

        def _connection(self) -> sqlite3.Connection: ...
        def _db_path(self) -> str: ...
        def resolve(self, name: str, owner: str | None, database: str | None,
                    offset: int) -> cat.TableInfo: ...

    def sequence_value(self, name: str, nextval: bool, statement: int = 0,
                       occurrence: int = 0) -> int:
        """NEXTVAL / CURRVAL of a sequence of the current database (functions.py calls this
        for each row). Every NEXTVAL of one sequence in one statement gives a row one value
        (Informix increments a sequence once per statement and row): a NEXTVAL takes a new
        value only when the sequence's last value came from another statement or this same
        occurrence already had it (so a new row began)."""
        seq = self.current_schema().sequence_of(name)
        if seq is None:
            raise EngineError(sc.NO_TABLE, sc.ISAM_NOT_FOUND, near=name)
        key = (self._incarnation, seq.tabid)
        if not nextval:
            value = self._currvals.get(key)
            if value is None:
                raise EngineError(sc.CURRVAL_UNDEFINED, near=name)
            return value
        last = self._nextval_rows.get(key)
        if last is not None and statement and last[0] == statement and occurrence not in last[1]:
            last[1].add(occurrence)
            return self._currvals[key]
        value = self.engine.sequences.next(self._db_path(), seq)
        self._currvals[key] = value
        self._nextval_rows[key] = (statement, {occurrence})
        return value

    def sequence(self, name: str) -> cat.SequenceInfo | None:
        if self.database is None:
            return None
        return self.current_schema().sequence_of(name)

    def named_type(self, name: str) -> IfxType | None:
        if self.database is None:
            return None
        return self.current_schema().types.get(name.lower())

    def cast(self, source: IfxType, target: IfxType) -> CastRow | None:
        """The syscasts row of a cast from ``source`` to ``target`` (schema/casts.py)."""
        if self.database is None:
            return None
        return self.current_schema().casts.get(cast_key(source, target))

    def _schema_version(self) -> int:
        return int(self._connection().execute("PRAGMA schema_version").fetchone()[0])

    def current_schema(self, version: int | None = None) -> cat.Schema:
        """The catalogue of the current database; ``version``: SQLite's schema version when
        the caller has just read it (an OPEN's -710 check), saving another read (a read
        transaction of its own)."""
        assert self.conn is not None
        if version is None:
            # A row-lock UPDATE/DELETE's first lookup, before any SQL of its own has run:
            # the version its write unit has just read under SQLite's write lock (no other
            # connection can change the schema meanwhile). One read fewer per statement.
            version, self._unit_version = self._unit_version, None
        key = (self._incarnation, self._schema_version() if version is None else version)
        # After DDL in an open transaction the schema is this session's own (never shared
        # through the engine's cache). It is still reused while SQLite's schema version stays
        # the same; it is dropped after every DDL statement (also a failed one), ROLLBACK TO
        # SAVEPOINT and the transaction's end, the moments a version number could come back
        # with other contents. (Reloading it at every lookup made each ALTER TABLE of a
        # transaction cost a full catalogue load per name resolved: Django's migrate of ~400
        # tables in one transaction took minutes.)
        if self._schema is not None and self._schema_key == key:
            return self._schema
        private = self._ddl_dirty or self._in_ddl > 0
        schema = None if private else self.engine.cached_schema(key)
        if schema is None:
            # read again only the tables whose catalogue rows changed since the latest
            # schema loaded from committed state (schema/catalog_versions.py)
            schema = cat.load_schema(self.conn, base=self.engine.latest_schemas.get(key[0]))
            if not private:
                self.engine.store_schema(key, schema)
        self._schema, self._schema_key = schema, key
        return schema

    def sysmaster_schema(self) -> cat.Schema:
        if self.database == "sysmaster":
            return self.current_schema()
        if self._sysmaster_schema is None:
            self._sysmaster_schema = cat.load_schema(self._connection(), "sysmaster")
        return self._sysmaster_schema

    def routines(self, name: str) -> list[Routine]:
        if self.database is None:
            raise EngineError(sc.NO_DB_SELECTED)
        return self.current_schema().routines.get(name.lower(), [])

    def _lookup(self, schema: cat.Schema, name: str, owner: str | None,
                sysmaster: bool) -> cat.TableInfo:
        info = schema.tables.get(name)
        if info is None and name in schema.synonyms:
            syn = schema.synonyms[name]
            if owner is None and not syn.public and syn.owner != self.user:
                raise EngineError(sc.NO_TABLE, sc.ISAM_NOT_FOUND, near=name)
            if owner is not None and owner.lower() != syn.owner.lower():
                raise EngineError(sc.NO_TABLE, sc.ISAM_NOT_FOUND, near=name)
            if syn.database is not None:
                return self.resolve(syn.target, syn.target_owner, syn.database, 0)
            return self._lookup(schema, syn.target, None, sysmaster)
        if info is None and sysmaster and name in cat.VIRTUAL_TABLES:
            return cat.TableInfo(name, 0, "informix", [], kind="X",
                                 virtual_sql=cat.VIRTUAL_TABLES[name])
        if info is None or (owner is not None and owner.lower() != info.owner.lower()):
            raise EngineError(sc.NO_TABLE, sc.ISAM_NOT_FOUND, near=name)
        return info
