"""The system catalogue tables a new Informix 14.10 database holds, at their fixed tabids.

Why every table, even those nothing here writes: clients count and walk ``systables`` (an
outside driver's own test suite sums the first ten tabids and pages a scrollable cursor through
the first hundred rows), and tools list the catalogue's tables and views by name to tell them
from user tables. A database that holds only the tables the server writes differs from a real
one in exactly the rows such clients read.

The tabid order is the order of the system catalogue as two independent public lists made on
real servers give it (Liquibase's ``InformixDatabase`` system-table list and Fernando Nunes's
"tables with rows" script for 11.70-12.10, both in tabid order), and it agrees with every tabid
documented elsewhere: systables 1, syscolumns 2, sysindices 3, sysdepend 8, syssynonyms 9,
syssyntable 10, sysobjstate 26, sysroleauth 29, sysxtdtypes 30, sysattrtypes 31, sysinherits
33, syssequences 47 (docs/SERVER.md, "System catalogue"). ``sysdomains`` and ``sysindexes``
are views, listed last. Columns follow the Guide to SQL: Reference for each table; the tables
the server never writes stay empty, and their TEXT, BYTE and opaque (STAT, INDEXKEYARRAY)
columns are LVARCHAR here.
"""

from __future__ import annotations

from ....protocol.codes import TypeCode
from ..core import ifxtypes as it
from ..core.ifxtypes import IfxType

T = TypeCode
_SI = it.SMALLINT
_I = it.INTEGER
_F = it.FLOAT
_SERIAL = IfxType(T.SERIAL)
_LV = IfxType(T.LVARCHAR, size=2048)
_B = it.BOOLEAN


def _c(n: int) -> IfxType:
    return IfxType(T.CHAR, size=n)


def _v(n: int) -> IfxType:
    return IfxType(T.VARCHAR, size=n)


Columns = list[tuple[str, IfxType]]

_NAME = _v(128)
_OWNER = _c(32)

#: Catalogue tables the server does not write (their rows would describe features it lacks:
#: fragmentation, distributions, access methods, label-based access control, external
#: tables, XA data sources), tabid -> (name, columns).
EMPTY_TABLES: dict[int, tuple[str, Columns]] = {
    8: ("sysdepend", [("btabid", _I), ("btype", _c(1)), ("dtabid", _I), ("dtype", _c(1))]),
    9: ("syssynonyms", [("owner", _v(32)), ("synname", _NAME), ("created", it.DATE),
                        ("tabid", _I)]),
    20: ("sysblobs", [("spacename", _NAME), ("type", _c(1)), ("tabid", _I), ("colno", _SI)]),
    21: ("sysopclstr", [("owner", _OWNER), ("clstrname", _NAME), ("clstrsize", _I),
                        ("tabid", _I), ("primid", _I), ("primname", _NAME),
                        ("primtype", _c(1))]),
    24: ("sysdistrib", [("tabid", _I), ("colno", _SI), ("seqno", _I), ("constructed", it.DATE),
                        ("mode", _c(1)), ("resolution", _F), ("confidence", _F),
                        ("encdat", _LV), ("type", _c(1)), ("smplsize", _F),
                        ("rowssmpld", _F), ("constr_time", it.datetime_type(0, 15)),
                        ("ustnrows", _F)]),
    25: ("sysfragments", [("fragtype", _c(1)), ("tabid", _I), ("indexname", _NAME),
                          ("colno", _I), ("partn", _I), ("strategy", _c(1)),
                          ("location", _c(1)), ("servername", _NAME), ("evalpos", _I),
                          ("exprtext", _LV), ("exprbin", _LV), ("exprarr", _LV),
                          ("flags", _I), ("dbspace", _NAME), ("levels", _SI), ("npused", _F),
                          ("nrows", _F), ("clust", _I), ("partition", _NAME)]),
    27: ("sysviolations", [("targettid", _I), ("viotid", _I), ("diatid", _I),
                           ("maxrows", _I)]),
    28: ("sysfragauth", [("grantor", _OWNER), ("grantee", _OWNER), ("tabid", _I),
                         ("fragment", _NAME), ("fragauth", _c(6))]),
    32: ("sysxtddesc", [("extended_id", _I), ("seqno", _SI), ("description", _c(256))]),
    34: ("syscolattribs", [("tabid", _I), ("colno", _SI), ("extentsize", _I), ("flags", _I),
                           ("flags1", _I), ("sbspace", _NAME)]),
    35: ("syslogmap", [("tabloc", _I), ("tabid", _I), ("fragid", _I), ("flags", _I)]),
    36: ("syscasts", [("owner", _OWNER), ("argument_type", _SI), ("argument_xid", _I),
                      ("result_type", _SI), ("result_xid", _I), ("routine_name", _NAME),
                      ("routine_owner", _OWNER), ("class", _c(1))]),
    37: ("sysxtdtypeauth", [("grantor", _OWNER), ("grantee", _OWNER), ("type", _I),
                            ("auth", _c(2))]),
    38: ("sysroutinelangs", [("langid", _SERIAL), ("langname", _c(30)),
                             ("langinitfunc", _NAME), ("langpath", _c(255)),
                             ("langclass", _c(18))]),
    39: ("syslangauth", [("grantor", _OWNER), ("grantee", _OWNER), ("langid", _I),
                         ("langauth", _c(1))]),
    40: ("sysams", [("am_name", _NAME), ("am_owner", _OWNER), ("am_id", _I),
                    ("am_type", _c(1)), ("am_sptype", _c(3)), ("am_defopclass", _I),
                    ("am_keyscan", _I), ("am_unique", _I), ("am_cluster", _I),
                    ("am_rowids", _I), ("am_readwrite", _I), ("am_parallel", _I),
                    ("am_costfactor", it.SMALLFLOAT),
                    *[(f"am_{n}", _I) for n in (
                        "create", "drop", "open", "close", "insert", "delete", "update",
                        "stats", "scancost", "check", "beginscan", "endscan", "rescan",
                        "getnext", "getbyid", "build", "init", "truncate")]]),
    41: ("systabamdata", [("tabid", _I), ("am_param", _LV), ("am_space", _NAME)]),
    42: ("sysopclasses", [("opclassname", _NAME), ("owner", _OWNER), ("amid", _I),
                          ("opclassid", _SERIAL), ("ops", _LV), ("support", _LV)]),
    43: ("syserrors", [("sqlstate", _c(5)), ("locale", _c(36)), ("level", _SI),
                       ("seqno", _SI), ("message", _v(255))]),
    44: ("systraceclasses", [("name", _c(18)), ("classid", _SERIAL)]),
    45: ("systracemsgs", [("name", _NAME), ("msgid", _SERIAL), ("locale", _c(36)),
                          ("seqno", _SI), ("message", _v(255))]),
    46: ("sysaggregates", [("name", _NAME), ("owner", _OWNER), ("aggid", _SERIAL),
                           ("init_func", _NAME), ("iter_func", _NAME),
                           ("combine_func", _NAME), ("final_func", _NAME),
                           ("handlesnulls", _B)]),
    48: ("sysdirectives", [("id", _SERIAL), ("query", _LV), ("directive", _LV),
                           ("directivecode", _LV), ("active", _SI), ("hashcode", _I)]),
    49: ("sysxasourcetypes", [("name", _NAME), ("owner", _OWNER), ("id", _SERIAL),
                              ("xa_flags", _I), ("xa_version", _I),
                              *[(f"xa_{n}", _I) for n in (
                                  "open", "close", "start", "end", "rollback", "prepare",
                                  "commit", "recover", "forget", "complete")]]),
    50: ("sysxadatasources", [("name", _NAME), ("owner", _OWNER), ("xa_source_typeid", _I),
                              ("xa_datasrc_rmid", _SERIAL)]),
    51: ("sysseclabelcomponents", [("compname", _NAME), ("compid", _SERIAL),
                                   ("comptype", _c(1)), ("numelements", _SI)]),
    52: ("sysseclabelcomponentelements", [("compid", _I), ("element", _v(32)),
                                          ("encoding", _c(8)), ("parentelement", _v(32))]),
    53: ("syssecpolicies", [("secpolicyname", _NAME), ("secpolicyid", _SERIAL),
                            ("numcomps", _SI), ("overwrite", _c(1))]),
    54: ("syssecpolicycomponents", [("secpolicyid", _I), ("compid", _I),
                                    ("compno", _SI)]),
    55: ("syssecpolicyexemptions", [("secpolicyid", _I), ("grantee", _OWNER),
                                    ("grantor", _OWNER), ("exemption", _c(1))]),
    56: ("sysseclabels", [("secpolicyid", _I), ("seclabelid", _I), ("encoding", _LV)]),
    57: ("sysseclabelnames", [("secpolicyid", _I), ("seclabelid", _I),
                              ("seclabelname", _NAME)]),
    58: ("sysseclabelauth", [("grantee", _OWNER), ("readseclabelid", _I),
                             ("writeseclabelid", _I), ("secpolicyid", _I)]),
    59: ("syssurrogateauth", [("surrogate", _OWNER), ("grantee", _OWNER),
                              ("grantor", _OWNER)]),
    61: ("sysexternal", [("tabid", _I), ("fmttype", _c(1)), ("codeset", _c(18)),
                         ("recdelim", _c(4)), ("flddelim", _c(4)), ("org", _c(1)),
                         ("flags", _I)]),
    62: ("sysextdfiles", [("tabid", _I), ("dfentry", _c(152))]),
    63: ("sysextcols", [("tabid", _I), ("colno", _SI), ("exttype", _SI), ("extstart", _SI),
                        ("extlength", _SI), ("nullstr", _c(256)), ("picture", _c(256)),
                        ("decimal", _SI), ("extstype", _v(18))]),
    64: ("sysautolocate", [("dbsnum", _I), ("flags", _I)]),
    65: ("sysfragdist", [("tabid", _I), ("colno", _SI), ("partnum", _I), ("seqno", _I),
                         ("mode", _c(1)), ("resolution", _F), ("confidence", _F),
                         ("encdist", _LV), ("type", _c(1)), ("smplsize", _F),
                         ("rowssmpld", _F)]),
}

#: The rows a new database's catalogue tables hold besides those the server writes as objects
#: are made (docs/SERVER.md, "System catalogue", gives each row's source):
#: * sysams: the two secondary access methods "HCL OneDB provides ... by default" (btree
#:   am_id 1, rtree am_id 2, owner informix; Performance Guide, "Identifying the available
#:   access methods"); rtree's am_type S, am_sptype D, am_defopclass 2 as the R-Tree Index
#:   User's Guide prints them ("The sysams system catalog"); btree's default operator class
#:   is btree_ops, opclassid 1. btree's am_sptype 'A' is an inference from the column's
#:   description ("If the access method is built in, such as a B-tree, it also supports
#:   dbspaces"); the other columns are not published and stay NULL.
#: * sysopclasses: btree_ops (1, amid 1) and rtree_ops (2, amid 2), owner informix
#:   (Performance Guide, "Identifying the available operator classes"); their strategy and
#:   support functions as the Performance Guide and R-Tree guide name them, in the
#:   ';'-terminated list form the R-Tree guide prints for an operator class.
#: * sysroutinelangs: spl at langid 2 (IBM JDBC's getProcedures SQL selects SPL routines
#:   with ``p.langid = 2``), java at 3 with its init function, path and class (J/Foundation
#:   Developer's Guide, "Find information about user-defined routines"). The other
#:   languages' rows (C, built-in) are not published and are left out.
SYSAMS_ROWS: list[tuple[object, ...]] = [
    ("btree", "informix", 1, "S", "A", 1),
    ("rtree", "informix", 2, "S", "D", 2),
]
CATALOG_ROWS: dict[str, tuple[tuple[str, ...], list[tuple[object, ...]]]] = {
    "sysams": (("am_name", "am_owner", "am_id", "am_type", "am_sptype", "am_defopclass"),
               SYSAMS_ROWS),
    "sysopclasses": (("opclassname", "owner", "amid", "opclassid", "ops", "support"), [
        ("btree_ops", "informix", 1, 1,
         "lessthan;lessthanorequal;equal;greaterthanorequal;greaterthan;", "compare;"),
        ("rtree_ops", "informix", 2, 2, "overlap;equal;contains;within;",
         "union;size;inter;"),
    ]),
    "sysroutinelangs": (("langid", "langname", "langinitfunc", "langpath", "langclass"), [
        (2, "spl", None, None, None),
        (3, "java", "udrlm_java_init", "$INFORMIXDIR/extend/krakatoa/lmjava.so", "jvp"),
    ]),
}

#: The catalogue's views, tabid -> (name, columns, the Informix SQL the view shows, the SQLite
#: query it is made of). ``sysindexes`` is the pre-9.x index table kept as a view over
#: ``sysindices`` (Guide to SQL: Reference, SYSINDEXES: "a view ... of the sysindices
#: table"), ``sysdomains`` a view with no rows (SQL-92 domains, which Informix does not have).
SYSINDEXES_COLUMNS: Columns = [
    ("idxname", _NAME), ("owner", _v(32)), ("tabid", _I), ("idxtype", _c(1)),
    ("clustered", _c(1)), *[(f"part{i}", _SI) for i in range(1, 17)],
    ("levels", _SI), ("leaves", _I), ("nunique", _I), ("clust", _I), ("idxflags", _I),
]
_SYSINDEXES_SELECT = ", ".join(n for n, _ in SYSINDEXES_COLUMNS)
# sysindices keeps leaves, nunique and clust as FLOAT (14.10); the view shows them INTEGER.
_SYSINDEXES_SQLITE = ", ".join(f"CAST({n} AS INTEGER)" if n in ("leaves", "nunique", "clust")
                               else n for n, _ in SYSINDEXES_COLUMNS)
CATALOG_VIEWS: dict[int, tuple[str, Columns, str, str]] = {
    66: ("sysdomains", [("id", _I), ("owner", _OWNER), ("name", _NAME), ("type", _SI)],
         'create view "informix".sysdomains (id, owner, name, type) as select x0.extended_id, '
         "x0.owner, x0.name, x0.type from \"informix\".sysxtdtypes x0 where (1 = 0);",
         "SELECT extended_id, owner, name, type FROM sysxtdtypes WHERE 1 = 0"),
    67: ("sysindexes", SYSINDEXES_COLUMNS,
         f'create view "informix".sysindexes ({_SYSINDEXES_SELECT}) as select '
         f'{_SYSINDEXES_SELECT} from "informix".sysindices;',
         f"SELECT {_SYSINDEXES_SQLITE} FROM sysindices"),
}

#: The physical sysindices table: the view's columns (the part columns stand in for
#: INDEXKEYARRAY's key list, which this server keeps as part1..part16). Only
#: ``SYSINDICES_VISIBLE`` are in syscolumns, so SQL sees sysindices' own columns.
SYSINDICES_VISIBLE = ("idxname", "owner", "tabid", "idxtype", "clustered", "levels", "leaves",
                      "nunique", "clust", "nrows", "indexkeys", "amid", "amparam", "collation",
                      "pagesize", "nhashcols", "nbuckets", "ustlowts", "ustbuildduration",
                      "nupdates", "ndeletes", "ninserts", "fextsize", "nextsize")

#: The catalogue's own indexes, as Informix keeps them (Guide to SQL: Reference, SYSTABLES,
#: ids_sqr_072: tabid is indexed and unique, and so is the composite of tabname and owner;
#: the same two are in the systables layout of David A. Snyder's dblist, sqltabs.h; the
#: second is left out, below). Why: the
#: commonest statement of all, a connection test's ``SELECT 1 FROM systables WHERE tabid =
#: 1``, scanned all of systables (75 rows in sysmaster, more in a database with tables) at
#: every execution: 14 µs of SQLite where the index lookup takes 4 (issue 26,
#: select_one_row). Not UNIQUE: the server's DDL keeps tabids unique itself, and a UNIQUE
#: index here could only add a new way for a catalogue write to fail. Named ``_ifx_*``
#: (private, never in sysindices); made with the catalogue and added by upgrade_catalog to
#: files an older server made. (name, table, columns)
CATALOG_INDEXES: tuple[tuple[str, str, str], ...] = (
    ("_ifx_systables_tabid", "systables", "tabid"),
    # Not Informix's (tabname, owner) index: SQLite reads a covering index in place of the
    # table, so `SELECT FIRST 1 tabname FROM systables` came back in name order (' GL_COLLATE')
    # where Informix reads its rows in tabid order ('systables'; informix-driver's test_aio and
    # test_unicode expect that). A tabid index reads in the table's own order.
    # Informix's unique index on syscolumns (tabid, colno) (ids_sqr_025): JDBC's getColumns,
    # Django/SQLAlchemy reflection and describe tools read a table's columns by tabid, which
    # scanned every column of every table. Every reader here that needs column order says
    # ORDER BY colno or keys by colno, so the index's order changes no result.
    ("_ifx_syscolumns_tabid", "syscolumns", "tabid, colno"),
    # Informix keeps these catalogue tables indexed by tabid too (Guide to SQL: Reference:
    # SYSINDICES, SYSCONSTRAINTS, SYSTRIGGERS, SYSDEFAULTS, SYSOBJSTATE each list an index
    # on their tabid column). Here, each DDL statement reads one table's rows of them:
    # systables.nindexes counted again (ddl.count_indexes), sysobjstate compared for the
    # tables a statement stamped (objstate.sync), a catalogue load's changed tables
    # (catalog._load_tables); without the index each was a scan of every row (thirty-second
    # session). A read of one table's rows by tabid comes back in the table's own order.
    ("_ifx_sysindices_tabid", "sysindices", "tabid"),
    ("_ifx_sysconstraints_tabid", "sysconstraints", "tabid"),
    ("_ifx_systriggers_tabid", "systriggers", "tabid"),
    ("_ifx_sysdefaults_tabid", "sysdefaults", "tabid"),
    ("_ifx_sysobjstate_tabid", "sysobjstate", "tabid"),
)
