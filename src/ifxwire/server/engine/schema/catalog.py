"""The Informix system catalog, kept as real SQLite tables inside each database file.

Why real tables: clients (JDBC DatabaseMetaData, dbaccess, ORMs) read the catalog with ordinary
SELECTs, joins and OUTER joins, so the catalog must be queryable like any table. Our DDL code
writes the rows; ``load_schema`` reads them back into the in-memory ``Schema`` the translator
uses. Catalog tables are themselves described in ``systables``/``syscolumns`` with the exact
Informix column types (``tabname VARCHAR(128)``, ``coltype SMALLINT`` …) so that SELECTs on them
describe like a real server's.

Private bookkeeping lives in tables named ``_ifx_*`` that are not in ``systables`` and therefore
cannot be named in SQL (-206).
"""

from __future__ import annotations

import datetime as dt
import os
import sqlite3
from dataclasses import dataclass, field, replace

from ....protocol.codes import TypeCode
from ..core import ifxtypes as it
from ..core.ifxtypes import IfxType, from_catalog
from ..core.values import date_number
from . import catalog_versions as versions
from .casts import CastKey, CastRow, load_casts
from .catalog_tables import (
    CATALOG_INDEXES,
    CATALOG_ROWS,
    CATALOG_VIEWS,
    EMPTY_TABLES,
    SYSINDICES_VISIBLE,
)
from .hooks import FEATURES
from .routine_tables import PRIVATE_DDL, SPL_TABLES
from .routines import Routine
from .triggers import Trigger

T = TypeCode

USER_TABID_START = 100
OWNER = "informix"


def _c(n: int) -> IfxType:
    return IfxType(T.CHAR, size=n)


def _v(n: int) -> IfxType:
    return IfxType(T.VARCHAR, size=n)


_SI = it.SMALLINT
_I = it.INTEGER
_F = it.FLOAT

# Catalog tables: (tabid, name, [(column, type)]). Column lists follow Informix 14.10's catalog
# (Guide to SQL: Reference) for the columns clients read; storage-only columns are omitted.
CATALOG_TABLES: list[tuple[int, str, list[tuple[str, IfxType]]]] = [
    (1, "systables", [
        ("tabname", _v(128)), ("owner", _c(32)), ("partnum", _I), ("tabid", IfxType(T.SERIAL)),
        ("rowsize", _SI), ("ncols", _SI), ("nindexes", _SI), ("nrows", _F), ("created", it.DATE),
        ("version", _I), ("tabtype", _c(1)), ("locklevel", _c(1)), ("npused", _F),
        ("fextsize", _I), ("nextsize", _I), ("flags", _SI), ("site", _v(128)),
        ("dbname", _v(128)), ("type_xid", _I), ("am_id", _I), ("pagesize", _I),
        ("ustlowts", it.datetime_type(0, 15)), ("secpolicyid", _I), ("protgranularity", _c(1)),
        ("statchange", _SI), ("statlevel", _c(1)), ("dirpath", _v(64)),
    ]),
    (2, "syscolumns", [
        ("colname", _v(128)), ("tabid", _I), ("colno", _SI), ("coltype", _SI),
        ("collength", _SI), ("colmin", _I), ("colmax", _I), ("extended_id", _I),
        ("seclabelid", _I), ("colattr", _SI),
    ]),
    # The 14.10 columns (Guide to SQL: Reference, SYSINDICES); part1..part16 and idxflags are
    # hidden columns the sysindexes view shows (SYSINDICES_VISIBLE), indexkeys (INDEXKEYARRAY)
    # is LVARCHAR here like the other opaque catalogue columns.
    (3, "sysindices", [
        ("idxname", _v(128)), ("owner", _v(32)), ("tabid", _I), ("idxtype", _c(1)),
        ("clustered", _c(1)),
        *[(f"part{i}", _SI) for i in range(1, 17)],
        ("levels", _SI), ("leaves", _F), ("nunique", _F), ("clust", _F), ("idxflags", _I),
        ("nrows", _F), ("indexkeys", IfxType(T.LVARCHAR, size=2048)), ("amid", _I),
        ("amparam", IfxType(T.LVARCHAR, size=2048)), ("collation", _c(32)),
        ("pagesize", _I), ("nhashcols", _SI), ("nbuckets", _SI),
        ("ustlowts", it.datetime_type(0, 15)), ("ustbuildduration", it.interval_type(6, 15, 2)),
        ("nupdates", _F), ("ndeletes", _F), ("ninserts", _F), ("fextsize", _I),
        ("nextsize", _I),
    ]),
    (4, "systabauth", [
        ("grantor", _v(32)), ("grantee", _v(32)), ("tabid", _I), ("tabauth", _c(9)),
    ]),
    (5, "syscolauth", [
        ("grantor", _v(32)), ("grantee", _v(32)), ("tabid", _I), ("colno", _SI),
        ("colauth", _c(3)),
    ]),
    (6, "sysviews", [("tabid", _I), ("seqno", _SI), ("viewtext", _c(64))]),
    (7, "sysusers", [
        ("username", _c(32)), ("usertype", _c(1)), ("priority", _SI), ("password", _c(16)),
        ("defrole", _c(32)),
    ]),
    (10, "syssyntable", [
        ("tabid", _I), ("servername", _v(128)), ("dbname", _v(128)), ("owner", _v(32)),
        ("tabname", _v(128)), ("btabid", _I),
    ]),
    (11, "sysconstraints", [
        ("constrid", IfxType(T.SERIAL)), ("constrname", _v(128)), ("owner", _v(32)),
        ("tabid", _I), ("constrtype", _c(1)), ("idxname", _v(128)), ("collation", _c(32)),
    ]),
    (12, "sysreferences", [
        ("constrid", _I), ("primary", _I), ("ptabid", _I), ("updrule", _c(1)),
        ("delrule", _c(1)), ("matchtype", _c(1)), ("pendant", _c(1)),
    ]),
    (13, "syschecks", [
        ("constrid", _I), ("type", _c(1)), ("seqno", _SI), ("checktext", _c(32)),
    ]),
    (14, "sysdefaults", [
        ("tabid", _I), ("colno", _SI), ("type", _c(1)), ("default", _c(256)), ("class", _c(1)),
    ]),
    (15, "syscoldepend", [("constrid", _I), ("tabid", _I), ("colno", _SI)]),
    *SPL_TABLES,
    (26, "sysobjstate", [
        ("objtype", _c(1)), ("owner", _c(32)), ("name", _v(128)), ("tabid", _I),
        ("state", _c(1)),
    ]),
    (29, "sysroleauth", [("rolename", _c(32)), ("grantee", _c(32)), ("is_grantable", _c(1))]),
    (30, "sysxtdtypes", [
        ("extended_id", IfxType(T.SERIAL)), ("domain", _c(1)), ("mode", _c(1)),
        ("owner", _v(32)), ("name", _v(128)), ("type", _SI), ("source", _I), ("maxlen", _I),
        ("length", _I), ("byvalue", _c(1)), ("cannothash", _c(1)), ("align", _SI),
        ("locator", _I),
    ]),
    # ROW/collection structure (Guide to SQL: Reference, SYSATTRTYPES; the columns JDBC's
    # IfxSqliConnect selects).
    (31, "sysattrtypes", [
        ("extended_id", _I), ("seqno", _SI), ("levelno", _SI), ("parent_no", _SI),
        ("fieldname", _v(128)), ("fieldno", _SI), ("type", _SI), ("length", _SI),
        ("xtd_type_id", _I),
    ]),
    (33, "sysinherits", [("child", _I), ("parent", _I), ("class", _c(1))]),
    (47, "syssequences", [
        ("seqid", IfxType(T.SERIAL)), ("tabid", _I), ("start_val", it.INT8),
        ("inc_val", it.INT8), ("max_val", it.INT8), ("min_val", it.INT8), ("cycle", _c(1)),
        ("restart_val", it.INT8), ("cache", _I), ("order", _c(1)),
    ]),
]
CATALOG_TABLES += [(tabid, name, cols) for tabid, (name, cols) in EMPTY_TABLES.items()]
CATALOG_TABLES.sort(key=lambda entry: entry[0])

# sysmaster-only tables, after the catalogue (tabid 100 on: sysmaster's own tables are made
# like any database's first tables; their order on a real server is not known here).
SYSMASTER_TABLES: list[tuple[int, str, list[tuple[str, IfxType]]]] = [
    (100, "sysdatabases", [
        ("name", _v(128)), ("partnum", _I), ("owner", _c(32)), ("created", it.DATE),
        ("is_logging", _I), ("is_buff_log", _I), ("is_ansi", _I), ("is_nls", _I),
        ("is_case_insens", _I), ("flags", _SI),
    ]),
    (101, "sysdbslocale", [("dbs_dbsname", _v(128)), ("dbs_collate", _c(32))]),
    # Storage spaces as sysmaster reports them (Administrator's Reference, "sysdbspaces"):
    # the root dbspace and the emulated default sbspace (is_sbspace = 1) smart LOBs go to.
    (102, "sysdbspaces", [
        ("dbsnum", _SI), ("name", _v(128)), ("owner", _c(32)), ("pagesize", _I),
        ("fchunk", _SI), ("nchunks", _SI), ("is_mirrored", _SI), ("is_blobspace", _SI),
        ("is_sbspace", _SI), ("is_temp", _SI), ("flags", _I),
    ]),
    # One column, one row "X" (Administrator's Reference 12.10/14.10, "sysdual"); what
    # `SELECT ... FROM sysmaster:sysdual` reads, the idiom of dbaccess scripts and tools. The
    # tabid is ours [I].
    (103, "sysdual", [("dummy", _c(1))]),
    # The server's startup environment (Administrator's Reference, "sysenv": env_id integer,
    # env_name char(128), env_value char(512)); change-capture clients read INFORMIXSERVER
    # here first (docs/PROTOCOL.md §18). Its rows are written at every start (environment_rows).
    (104, "sysenv", [("env_id", _I), ("env_name", _c(128)), ("env_value", _c(512))]),
]
#: The sysmaster tables added after the first releases, with their rows: made in an existing
#: sysmaster by upgrade_sysmaster.
SYSMASTER_ROWS: dict[str, list[tuple[object, ...]]] = {"sysdual": [("X",)], "sysenv": []}


def environment_rows(server_name: str, locale: str) -> list[tuple[int, str, str]]:
    """sysmaster:sysenv's rows: what this server would have had in its environment at start
    (INFORMIXSERVER is its DBSERVERNAME; the others as an Informix installation sets them)."""
    return [(1, "INFORMIXSERVER", server_name), (2, "DBSERVERNAME", server_name),
            (3, "DB_LOCALE", locale), (4, "SERVER_LOCALE", locale)]


def write_environment(conn: sqlite3.Connection, server_name: str, locale: str) -> None:
    """Replace sysmaster:sysenv's rows (the server name may differ from the last start)."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.execute("DELETE FROM main.sysenv")
        conn.executemany("INSERT INTO main.sysenv VALUES (?, ?, ?)",
                         environment_rows(server_name, locale))
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
SYSMASTER_NAMES = frozenset(name for _, name, _ in SYSMASTER_TABLES)
# dbsnum, name, owner, fchunk, is_blobspace, is_sbspace, flags
SYSMASTER_DBSPACES = [
    (1, "rootdbs", OWNER, 1, 0, 0, 0),
    (2, "sbspace1", OWNER, 2, 0, 1, 0),
]

# The built-in extended types (sysxtdtypes; mode ' ' = built-in, Guide to SQL: Reference),
# extended_id -> (name, type, maxlen, length, byvalue, align). The ids are those clients rely
# on: 1 lvarchar, 5 boolean, 10 blob, 11 clob (peer report 3.1, J§3.3); 2-4 the types JDBC asks
# for in SQ_RET_TYPE (IfxSqli.sendType: xid 3 -> IMPEXP 46, 4 -> IMPEXPBIN 47, other UDTs ->
# SENDRECV 44); 25 json and 26 bson (IfxValue.setClassInformationExtendedId). Opaque types are
# 40 (variable) and 41 (fixed) in the type column, as in syscolumns.
BUILTIN_XTDTYPES: dict[int, tuple[str, int, int, int, str, int]] = {
    1: ("lvarchar", 40, 32739, 0, "F", 4),
    2: ("sendrecv", 40, 32739, 0, "F", 4),
    3: ("impexp", 40, 32739, 0, "F", 4),
    4: ("impexpbin", 40, 32739, 0, "F", 4),
    5: ("boolean", 41, 0, 1, "T", 1),
    10: ("blob", 41, 0, 72, "F", 4),
    11: ("clob", 41, 0, 72, "F", 4),
    25: ("json", 40, 32739, 0, "F", 4),
    26: ("bson", 40, 32739, 0, "F", 4),
}

# Tables of sysmaster computed per session (views over session functions), written in Informix
# SQL so they are typed like any other query.
VIRTUAL_TABLES: dict[str, str] = {
    "syssqlcurses": (
        "SELECT DBINFO('sessionid') AS scs_sessionid, 0 AS scs_cursorid, "
        "DBINFO('dbname')::CHAR(128) AS scs_currdb, 0 AS scs_iso, "
        "DBINFO('ifxwire_lockmode') AS scs_lockmode, "
        "''::CHAR(1) AS scs_sqlstatement FROM TABLE(SET{1})"
    ),
    # The logical logs (Administrator's Reference, "syslogs": number, uniqid, size, used and
    # the is_* flags). This server has no logical log; its one row is the change log of
    # features/cdc (the current log), so that (uniqid << 32) + used is the sequence number the
    # next captured transaction gets: what Debezium's Informix connector reads as the current
    # LSN ("select uniqid, used as logpage from sysmaster:syslogs where is_current = 1") and
    # hands to cdc_activatesess after a snapshot.
    "syslogs": (
        "SELECT 1::SMALLINT AS number, DBINFO('ifxwire_loguniq') AS uniqid, "
        "2147483647 AS size, DBINFO('ifxwire_logpos') AS used, 1 AS is_used, "
        "1 AS is_current, 0 AS is_backed_up, 0 AS is_new, 0 AS is_archived, 0 AS is_temp, "
        "0 AS is_pre_dropped, 0::SMALLINT AS flags FROM TABLE(SET{1})"
    ),
}

RESERVED_ROWS = [
    # (tabid, tabname, tabtype): the special rows real catalogs carry.
    (90, " GL_COLLATE", "L"),
    (91, " GL_CTYPE", "L"),
    (99, " VERSION", "L"),
]
VERSION_FLAGS = 1410  # [guess] ' VERSION'.flags: JDBC only needs a number (jdbc-protocol 2.8)


@dataclass
class ColumnInfo:
    name: str
    colno: int
    type: IfxType
    default_kind: str | None = None  # None: no default; L/N/U/T/C/S like sysdefaults.type
    default_value: object = None  # storage value of a literal default
    serial_start: int = 1


@dataclass
class Constraint:
    name: str
    kind: str  # P U C R
    columns: list[str]
    index: str = ""


@dataclass
class TableInfo:
    name: str
    tabid: int
    owner: str
    columns: list[ColumnInfo]
    kind: str = "T"  # T table, V view, S system catalog, X virtual, L special row
    temp: bool = False
    schema: str = "main"  # SQLite schema: main, temp or sysmaster
    virtual_sql: str | None = None
    constraints: list[Constraint] = field(default_factory=list)
    unique_indexes: dict[str, list[str]] = field(default_factory=dict)
    by_name: dict[str, ColumnInfo] = field(default_factory=dict)
    #: systables.locklevel: 'P' (LOCK MODE PAGE) or 'R' (ROW); row-lock mode keys a PAGE
    #: table's locks by page (``rows_per_page``).
    locklevel: str = "P"
    #: systables.rowsize, for ``rows_per_page``.
    rowsize: int = 0
    #: a typed supertable's direct subtables (sysinherits class 'T'): a SELECT, UPDATE or
    #: DELETE on it reaches their rows too unless ONLY (ids_sqs_1017, ids_sqs_0676)
    subtables: list[str] = field(default_factory=list)
    #: a subtable's SERIAL/SERIAL8 columns inherited from a supertable -> the tabid of the
    #: topmost table that has the column: one counter for the hierarchy ("A 0 value inserted
    #: into the s_col or s8_col column for any table in the hierarchy inserts a
    #: monotonically increasing value", Database Design guide, ids_ddi_120)
    serial_tabids: dict[str, int] = field(default_factory=dict)
    #: a subtable's direct supertable (sysinherits class 'T'): its triggers fire for this
    #: table's rows too (ids_sqs_0588)
    supertable: str | None = None
    #: systables.type_xid: the named ROW type of a typed table (OF TYPE), else 0
    type_xid: int = 0
    #: that named ROW type's name ("" for an untyped table): a whole-row reference's type
    type_name: str = ""

    def __post_init__(self) -> None:
        self.by_name = {c.name: c for c in self.columns}

    @property
    def rows_per_page(self) -> int:
        """Rows on one 2 KB Informix data page of this table: trunc(pageuse / (rowsize + 4))
        with pageuse = pagesize - 28, at most 255 (IBM, Performance Guide, "Estimating tables
        with fixed-length rows"); 1 for a ROW table (a lock is a row's)."""
        if self.locklevel != "P":
            return 1
        return max(1, min(255, (2048 - 28) // (max(self.rowsize, 1) + 4)))

    @property
    def physical(self) -> str:
        return quote(self.name)

    def serial_columns(self) -> list[ColumnInfo]:
        return [c for c in self.columns if c.type.is_serial]


@dataclass
class SequenceInfo:
    name: str
    tabid: int
    owner: str
    start: int
    increment: int
    maxvalue: int
    minvalue: int
    cycle: bool
    cache: int


@dataclass
class SynonymInfo:
    name: str
    tabid: int
    owner: str
    public: bool
    target: str  # table name in ``database`` (our database when None)
    target_owner: str | None
    database: str | None


@dataclass
class Schema:
    tables: dict[str, TableInfo]
    indexes: dict[str, tuple[str, bool]]  # index name -> (table name, unique)
    constraint_names: set[str]
    routines: dict[str, list[Routine]] = field(default_factory=dict)  # by name: overloads
    sequences: dict[str, SequenceInfo] = field(default_factory=dict)
    synonyms: dict[str, SynonymInfo] = field(default_factory=dict)
    procs: dict[int, Routine] = field(default_factory=dict)  # by procid
    triggers: dict[str, list[Trigger]] = field(default_factory=dict)  # by table name
    views: dict[str, str] = field(default_factory=dict)  # view name -> sysviews text
    #: named ROW and DISTINCT types by name, as the IfxType a column of one has (casts)
    types: dict[str, IfxType] = field(default_factory=dict)
    #: syscasts by (argument type, xid, result type, xid): casts.py, read by expressions
    casts: dict[CastKey, CastRow] = field(default_factory=dict)
    #: the largest catalogue stamp when it was loaded (catalog_versions.py; -1: none)
    stamp: int = -1

    def sequence_of(self, name: str) -> SequenceInfo | None:
        """The sequence ``name`` names: a sequence of that name, or a local synonym for one
        (ids_sqs_0734: synonyms of a sequence exist; NEXTVAL and CURRVAL reach the sequence
        through them). DDL names the sequence itself and reads ``sequences`` directly."""
        seq = self.sequences.get(name)
        if seq is None and (syn := self.synonyms.get(name)) is not None and (
                syn.database is None):
            seq = self.sequences.get(syn.target)
        return seq

    def below(self, info: TableInfo) -> list[TableInfo]:
        """Every table under typed supertable ``info`` in this schema, depth first: what a
        TRUNCATE of it empties and what row-lock DDL on it would have to take back."""
        out: list[TableInfo] = []
        for name in info.subtables:
            sub = self.tables[name]
            out += [sub, *self.below(sub)]
        return out


def _serial_owners(tables: dict[str, TableInfo], every: dict[int, TableInfo]) -> None:
    """TableInfo.serial_tabids of the subtables among ``tables``, from the supertables'
    subtables lists (``every``: all tables of the schema, by tabid)."""
    parent = {sub: sup for sup in every.values() for sub in sup.subtables}
    for info in tables.values():
        for col in info.serial_columns():
            top = info
            while (up := parent.get(top.name)) is not None and col.name in up.by_name:
                top = up
            if top is not info:
                info.serial_tabids[col.name] = top.tabid


def quote(name: str) -> str:
    """An identifier for SQLite (always quoted: Informix names may be SQLite keywords)."""
    return '"' + name.replace('"', '""') + '"'


def sqlite_column_defs(cols: list[tuple[str, IfxType]]) -> str:
    return ", ".join(f"{quote(n)} {ty.sqlite_decl}" for n, ty in cols)


def rowsize(types: list[IfxType]) -> int:
    total = 0
    for ty in types:
        if ty.code in (T.DECIMAL, T.MONEY, T.DATETIME, T.INTERVAL):
            total += (ty.enclen >> 8) // 2 + 1
        elif ty.code in (T.VARCHAR, T.NVARCHAR):
            total += ty.size + 1
        else:
            total += ty.enclen
    return min(total, 32767)


def create_catalog(conn: sqlite3.Connection, dbname: str, locale: str, sysmaster: bool,
                   logged: bool, ansi: bool) -> None:
    """Create the catalog tables and their own rows in a new database file."""
    today = date_number(dt.date.today())
    tables = CATALOG_TABLES + (SYSMASTER_TABLES if sysmaster else [])
    conn.execute("CREATE TABLE _ifx_meta (key TEXT PRIMARY KEY, value TEXT)")
    conn.execute("CREATE TABLE _ifx_serial (tabid INTEGER, kind TEXT, next INTEGER, "
                 "PRIMARY KEY (tabid, kind))")
    for ddl in PRIVATE_DDL:
        conn.execute(ddl)
    conn.executemany(
        "INSERT INTO _ifx_meta VALUES (?, ?)",
        [("name", dbname), ("locale", locale), ("logged", str(int(logged))),
         ("ansi", str(int(ansi))), ("created", str(today))],
    )
    for _tabid, name, cols in tables:
        conn.execute(f"CREATE TABLE {quote(name)} ({sqlite_column_defs(cols)})")
    for tabid, name, cols in tables:
        shown = visible_columns(name, cols)
        insert_table_row(conn, tabid, name, OWNER, "T", [c[1] for c in shown], today)
        insert_columns(conn, tabid, shown)
    create_catalog_views(conn, today)
    create_catalog_indexes(conn)
    for tabid, name, tabtype in RESERVED_ROWS:
        site = locale if name == " GL_COLLATE" or name == " GL_CTYPE" else ""
        conn.execute(
            "INSERT INTO systables (tabname, owner, partnum, tabid, rowsize, ncols, nindexes, "
            "nrows, created, version, tabtype, locklevel, flags, site, dbname, dirpath) "
            "VALUES (?, ?, 0, ?, 0, 0, 0, 0.0, ?, 0, ?, 'P', ?, ?, ?, ?)",
            (name, OWNER, tabid, today, tabtype,
             VERSION_FLAGS if name == " VERSION" else 0, site, dbname, site),
        )
    conn.executemany(
        "INSERT INTO sysxtdtypes (extended_id, domain, mode, owner, name, type, source, maxlen, "
        "length, byvalue, cannothash, align, locator) VALUES (?, 'B', ' ', ?, ?, ?, 0, ?, ?, "
        "?, 'T', ?, 0)", [(x, OWNER, *row) for x, row in BUILTIN_XTDTYPES.items()])
    for name, (columns, rows) in CATALOG_ROWS.items():
        conn.executemany(f"INSERT INTO {quote(name)} ({', '.join(quote(c) for c in columns)}) "
                         f"VALUES ({', '.join('?' * len(columns))})", rows)
    if sysmaster:
        conn.executemany("INSERT INTO sysdbspaces VALUES (?, ?, ?, 2048, ?, 1, 0, ?, ?, 0, ?)",
                         SYSMASTER_DBSPACES)
        for name, rows in SYSMASTER_ROWS.items():
            if rows:
                marks = ", ".join("?" * len(rows[0]))
                conn.executemany(f"INSERT INTO {quote(name)} VALUES ({marks})", rows)
    else:
        FEATURES.lob_schema(conn)  # smart large objects (features/lobs/lobstore.py)
    conn.execute("INSERT INTO sysusers VALUES ('public', 'C', 5, NULL, NULL)")
    conn.execute(f"INSERT INTO sysusers VALUES ('{OWNER}', 'D', 9, NULL, NULL)")
    conn.execute("INSERT INTO _ifx_serial VALUES (0, 'tabid', ?)", (USER_TABID_START,))
    for ddl in versions.ddl():  # after the catalogue's own rows: they need no stamps
        conn.execute(ddl)


def visible_columns(name: str, cols: list[tuple[str, IfxType]]) -> list[tuple[str, IfxType]]:
    """The columns of a catalogue table SQL sees: sysindices keeps its index keys in
    part1..part16 for its sysindexes view, columns the real table does not have."""
    if name == "sysindices":
        return [(n, ty) for n, ty in cols if n in SYSINDICES_VISIBLE]
    return list(cols)


def create_catalog_views(conn: sqlite3.Connection, today: int | None = None) -> None:
    """The catalogue's views (sysdomains, sysindexes): SQLite views, with the systables
    (tabtype V), syscolumns and sysviews rows a real database has for them."""
    for tabid, (name, cols, text, query) in CATALOG_VIEWS.items():
        names = ", ".join(quote(n) for n, _ in cols)
        conn.execute(f"CREATE VIEW {quote(name)} ({names}) AS {query}")
        insert_table_row(conn, tabid, name, OWNER, "V", [c[1] for c in cols], today)
        insert_columns(conn, tabid, cols)
        conn.executemany("INSERT INTO sysviews VALUES (?, ?, ?)",
                         [(tabid, i, text[i * 64 : i * 64 + 64])
                          for i in range((len(text) + 63) // 64)])


def create_catalog_indexes(conn: sqlite3.Connection) -> None:
    """The catalogue's indexes (catalog_tables.CATALOG_INDEXES) that the file lacks."""
    for name, table, columns in CATALOG_INDEXES:
        conn.execute(f"CREATE INDEX IF NOT EXISTS main.{name} ON {quote(table)} ({columns})")


def insert_table_row(conn: sqlite3.Connection, tabid: int, name: str, owner: str, tabtype: str,
                     types: list[IfxType], today: int | None = None,
                     locklevel: str = "P") -> None:
    """The table's systables row. ``locklevel`` is LOCK MODE's 'P' (PAGE, Informix's default
    for a new table without DEF_TABLE_LOCKMODE) or 'R' (ROW)."""
    conn.execute(
        "INSERT INTO systables (tabname, owner, partnum, tabid, rowsize, ncols, nindexes, nrows, "
        "created, version, tabtype, locklevel, npused, fextsize, nextsize, flags, site, dbname, "
        "type_xid, am_id, pagesize, statchange, statlevel) "
        "VALUES (?, ?, ?, ?, ?, ?, 0, 0.0, ?, ?, ?, ?, 0.0, 16, 16, 0, '', '', 0, 0, 2048, "
        "NULL, 'A')",
        (name, owner, 1048576 + tabid, tabid, rowsize(types), len(types),
         date_number(dt.date.today()) if today is None else today, tabid << 16, tabtype,
         locklevel),
    )


def insert_columns(conn: sqlite3.Connection, tabid: int, cols: list[tuple[str, IfxType]],
                   first_colno: int = 1) -> None:
    if any(ty.cx is not None and not ty.xid for _, ty in cols):
        (owner,) = conn.execute("SELECT owner FROM systables WHERE tabid = ?",
                                (tabid,)).fetchone() or (OWNER,)
        cols = [(n, ty) if ty.cx is None or ty.xid else (n, FEATURES.resolve_named(conn, ty))
                for n, ty in cols]
        cols = [(n, replace(ty, xid=FEATURES.catalog_type(conn, ty, owner))
                 if ty.cx is not None and not ty.xid else ty) for n, ty in cols]
    conn.executemany(
        "INSERT INTO syscolumns (colname, tabid, colno, coltype, collength, colmin, colmax, "
        "extended_id, seclabelid, colattr) VALUES (?, ?, ?, ?, ?, NULL, NULL, ?, 0, 0)",
        [(n, tabid, first_colno + i, ty.coltype, _collength_smallint(ty.collength),
          ty.extended_id)
         for i, (n, ty) in enumerate(cols)],
    )


def _collength_smallint(n: int) -> int:
    """collength is a SMALLINT: encodings above 32767 wrap negative, as on real servers."""
    return n - 65536 if n > 32767 else n


def next_tabid(conn: sqlite3.Connection) -> int:
    row = conn.execute("SELECT next FROM _ifx_serial WHERE tabid = 0 AND kind = 'tabid'").fetchone()
    tabid = int(row[0]) if row else USER_TABID_START
    top = conn.execute("SELECT MAX(tabid) FROM systables").fetchone()[0] or 0
    tabid = max(tabid, int(top) + 1, USER_TABID_START)
    conn.execute("UPDATE _ifx_serial SET next = ? WHERE tabid = 0 AND kind = 'tabid'",
                 (tabid + 1,))
    return tabid


def meta(conn: sqlite3.Connection, schema: str = "main") -> dict[str, str]:
    return {str(k): str(v)
            for k, v in conn.execute(f"SELECT key, value FROM {schema}._ifx_meta")}


def _load_tables(conn: sqlite3.Connection, schema: str, p: str, only: set[int] | None,
                 merged: dict[int, TableInfo] | None = None,
                 ) -> tuple[dict[str, TableInfo], dict[str, tuple[str, bool]], set[str]]:
    """The TableInfo of every table and view (``only``: of those tabids), with the indexes
    and constraint names found on them. ``merged``: every table of the schema being built
    by tabid, the reused ones too (an inheritance row names both sides)."""
    among = "" if only is None else f"tabid IN ({', '.join(map(str, sorted(only)))})"
    where, also = (f" WHERE {among}", f" AND {among}") if among else ("", "")
    tables: dict[str, TableInfo] = {}
    cols: dict[int, list[ColumnInfo]] = {}
    complex_types: dict[int, object] | None = None
    # IfxType is frozen: one per distinct (coltype, collength, extended_id), built once (a
    # database of a few hundred tables has thousands of columns and a few dozen types).
    seen: dict[tuple[int, int, int | None], IfxType] = {}
    for tabid, colname, colno, coltype, collength, xid in conn.execute(
        f"SELECT tabid, colname, colno, coltype, collength, extended_id FROM {p}syscolumns"
        f"{where} ORDER BY tabid, colno"
    ):
        ty = seen.get((coltype, collength, xid))
        if ty is None:
            length = collength + 65536 if collength < 0 else collength
            ty = seen[(coltype, collength, xid)] = from_catalog(coltype, length, xid or 0)
        if ty.is_complex:
            if complex_types is None:
                complex_types = dict(FEATURES.complex_types(conn, p))
            cx = complex_types.get(xid or 0)
            if cx is not None:
                ty = FEATURES.complex_type(cx, ty.notnull, xid)
        cols.setdefault(tabid, []).append(ColumnInfo(colname, colno, ty))
    defaults: dict[tuple[int, int], tuple[str, str]] = {}
    for tabid, colno, dtype, dval in conn.execute(
        f"SELECT tabid, colno, type, {quote('default')} FROM {p}sysdefaults{where}"
    ):
        defaults[(tabid, colno)] = (dtype, dval)
    sysmaster: list[bool] = []

    def is_sysmaster() -> bool:
        if not sysmaster:
            sysmaster.append(meta(conn, schema).get("name") == "sysmaster")
        return sysmaster[0]

    for tabid, name, owner, tabtype, locklevel, size, type_xid in conn.execute(
        f"SELECT tabid, tabname, owner, tabtype, locklevel, rowsize, type_xid FROM "
        f"{p}systables WHERE tabtype IN ('T', 'V'){also}"
    ):
        columns = cols.get(tabid, [])
        for c in columns:
            d = defaults.get((tabid, c.colno))
            if d is not None:
                c.default_kind, c.default_value = d[0], d[1]
        kind = "S" if tabid < USER_TABID_START or (
            name in SYSMASTER_NAMES and (owner or "").strip() == OWNER and is_sysmaster()
        ) else tabtype
        type_name = ""
        if type_xid:
            if complex_types is None:
                complex_types = dict(FEATURES.complex_types(conn, p))
            row_type = complex_types.get(int(type_xid))
            type_name = str(getattr(row_type, "type_name", "") or "")
        tables[name] = TableInfo(name, tabid, (owner or "").strip(), columns, kind=kind,
                                 schema=schema, locklevel=locklevel or "P",
                                 rowsize=int(size or 0), type_xid=int(type_xid or 0),
                                 type_name=type_name)
    indexes: dict[str, tuple[str, bool]] = {}
    by_tabid = {t.tabid: t for t in tables.values()}
    for idxname, tabid, idxtype, *parts in conn.execute(
        f"SELECT idxname, tabid, idxtype, {', '.join(f'part{i}' for i in range(1, 17))} "
        f"FROM {p}sysindices{where}"
    ):
        info = by_tabid.get(tabid)
        if info is None:
            continue
        indexes[idxname] = (info.name, idxtype == "U")
        if idxtype == "U":
            colnames = [info.columns[abs(n) - 1].name for n in parts if n]
            info.unique_indexes[idxname] = colnames
    every = by_tabid if merged is None else {**merged, **by_tabid}
    for child, parent in conn.execute(
        f"SELECT child, parent FROM {p}sysinherits WHERE class = 'T' ORDER BY child"
    ):
        sub, sup = every.get(child), every.get(parent)
        if sub is not None and sup is not None:
            if only is None or parent in only:
                sup.subtables.append(sub.name)
            if only is None or child in only:
                sub.supertable = sup.name
    _serial_owners(tables, every)
    names: set[str] = set()
    for constrname, tabid, ctype, idxname in conn.execute(
        f"SELECT constrname, tabid, constrtype, idxname FROM {p}sysconstraints{where}"
    ):
        names.add(constrname)
        info = by_tabid.get(tabid)
        if info is None:
            continue
        colnames = info.unique_indexes.get(idxname or "", [])
        info.constraints.append(Constraint(constrname, ctype, colnames, idxname or ""))
    return tables, indexes, names


def _tables_since(conn: sqlite3.Connection, schema: str, p: str, base: Schema,
                  changed: set[int]
                  ) -> tuple[dict[str, TableInfo], dict[str, tuple[str, bool]], set[str]]:
    """``_load_tables`` for the tabids in ``changed``, the rest taken from ``base``."""
    old = {t.tabid: t for t in base.tables.values()}
    if not changed:
        return dict(base.tables), dict(base.indexes), set(base.constraint_names)
    # An inheritance row names two tables, and a RENAME stamps only the renamed one: its
    # partner's subtables/supertable name it too (review of 6832185a), so it is built again.
    marks = ", ".join(map(str, sorted(changed)))
    for child, parent in conn.execute(
            f"SELECT child, parent FROM {p}sysinherits WHERE class = 'T' AND "
            f"(child IN ({marks}) OR parent IN ({marks}))").fetchall():
        changed = changed | {int(child), int(parent)}
    kept = {tabid: t for tabid, t in old.items() if tabid not in changed}
    tables, indexes, names = _load_tables(conn, schema, p, changed, kept)
    gone = {old[t].name for t in changed if t in old}
    merged = {t.name: t for t in kept.values()}
    merged.update(tables)
    all_indexes = {k: v for k, v in base.indexes.items() if v[0] not in gone}
    all_indexes.update(indexes)
    dropped = {c.name for t in changed if t in old for c in old[t].constraints}
    all_names = (base.constraint_names - dropped) | names
    if os.environ.get("IFXWIRE_SCHEMA_CHECK") == "1":
        full = _load_tables(conn, schema, p, None)
        if (merged, all_indexes, all_names) != full:
            raise RuntimeError(f"partial catalogue load differs from a full one (changed "
                               f"{sorted(changed)}): " + _difference(
                                   (merged, all_indexes, all_names), full))
    return merged, all_indexes, all_names


def _difference(got: tuple[dict[str, TableInfo], dict[str, tuple[str, bool]], set[str]],
                want: tuple[dict[str, TableInfo], dict[str, tuple[str, bool]], set[str]]
                ) -> str:
    """What IFXWIRE_SCHEMA_CHECK found (for its error text)."""
    tables = sorted(n for n in set(got[0]) | set(want[0]) if got[0].get(n) != want[0].get(n))
    indexes = sorted(n for n in set(got[1]) | set(want[1]) if got[1].get(n) != want[1].get(n))
    return f"tables {tables[:5]}, indexes {indexes[:5]}, names {sorted(got[2] ^ want[2])[:5]}"



def load_schema(conn: sqlite3.Connection, schema: str = "main",
                base: Schema | None = None) -> Schema:
    """Read systables/syscolumns/sysdefaults/sysconstraints/sysindices into a Schema. With
    ``base`` (a schema of the same database loaded from committed state) only the tables
    whose catalogue rows changed since are read again (catalog_versions.py)."""
    p = f"{schema}." if schema != "main" else ""
    stamp, changed = versions.changes(conn, p, None if base is None else base.stamp)
    if base is None or changed is None:
        tables, indexes, names = _load_tables(conn, schema, p, None)
    else:
        tables, indexes, names = _tables_since(conn, schema, p, base, changed)
    by_tabid = {t.tabid: t for t in tables.values()}
    routines, procs = FEATURES.routines(conn, p)
    sequences = {row[0]: SequenceInfo(row[0], row[1], (row[2] or "").strip(), row[3], row[4],
                                      row[5], row[6], row[7] == "1", row[8] or 0)
                 for row in conn.execute(
        f"SELECT t.tabname, t.tabid, t.owner, s.start_val, s.inc_val, s.max_val, s.min_val, "
        f"s.cycle, s.cache FROM {p}systables t, {p}syssequences s WHERE t.tabid = s.tabid")}
    synonyms: dict[str, SynonymInfo] = {}
    seq_by_tabid = {seq.tabid: seq.name for seq in sequences.values()}  # synonyms of sequences
    for name, tabid, owner, tabtype, dbname, towner, target, btabid in conn.execute(
        f"SELECT t.tabname, t.tabid, t.owner, t.tabtype, s.dbname, s.owner, s.tabname, "
        f"s.btabid FROM {p}systables t, {p}syssyntable s WHERE t.tabid = s.tabid"
    ):
        named = by_tabid.get(btabid) if btabid else None
        base_name = named.name if named is not None else seq_by_tabid.get(btabid or 0)
        if base_name is None and target is None:
            continue  # a local synonym whose table is gone
        synonyms[name] = SynonymInfo(
            name, tabid, (owner or "").strip(), tabtype == "S",
            base_name if base_name is not None else target, (towner or "").strip() or None,
            dbname or None)
    texts: dict[int, list[str]] = {}
    for tabid, text in conn.execute(f"SELECT tabid, viewtext FROM {p}sysviews "
                                    "ORDER BY tabid, seqno"):
        texts.setdefault(tabid, []).append(text or "")
    views = {by_tabid[t].name: "".join(parts) for t, parts in texts.items() if t in by_tabid}
    return Schema(tables, indexes, names, routines, sequences, synonyms, procs,
                  FEATURES.triggers(conn, p), views, _user_types(conn, p), load_casts(conn, p),
                  stamp)


def _user_types(conn: sqlite3.Connection, p: str) -> dict[str, IfxType]:
    types = FEATURES.distinct_types(conn, p)
    for xid, cx in FEATURES.complex_types(conn, p).items():
        if cx.named:
            types[cx.type_name] = FEATURES.complex_type(cx, False, xid)
    return types
