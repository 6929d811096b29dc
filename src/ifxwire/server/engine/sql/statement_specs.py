"""What the statement parser (statements.py) produces for non-query statements: an
``IfxStatement`` node whose ``meta["spec"]`` is one of the dataclasses here, so the DDL executor
reads plain fields instead of re-walking syntax; and each kind's StmtType."""

from __future__ import annotations

import typing as t
from dataclasses import dataclass, field

from sqlglot import exp

from ....protocol.codes import StmtType, TypeCode
from ..core.ifxtypes import IfxType


@dataclass
class TableName:
    name: str
    owner: str | None = None
    database: str | None = None
    offset: int = 0


@dataclass
class DefaultSpec:
    kind: str  # L literal, N null, U user, T today, C current, S dbservername
    value: exp.Expr | None = None
    ifx: IfxType | None = None
    text: str = ""


@dataclass
class ConstraintSpec:
    kind: str  # P primary key, U unique, C check, R references, N not null
    columns: list[str]
    name: str | None = None
    check: exp.Expr | None = None
    check_text: str = ""
    ref_table: TableName | None = None
    ref_columns: list[str] = field(default_factory=list)
    cascade: bool = False
    owner: str | None = None
    #: the object mode named at creation: DISABLED, FILTERING, FILTERING WITH ERROR (None:
    #: enabled); features/object_modes.py sets it once the constraint exists
    mode: str | None = None


@dataclass
class ColumnSpec:
    name: str
    type: IfxType
    serial_start: int | None = None
    default: DefaultSpec | None = None
    constraints: list[ConstraintSpec] = field(default_factory=list)
    before: str | None = None


@dataclass
class FragmentSpec:
    """One fragment of a FRAGMENT BY clause (Guide to SQL: Syntax, ids_sqs_0513): its
    PARTITION name (None: unnamed, known by its dbspace), the dbspace after IN, and for an
    EXPRESSION fragment the expression's text, for a LIST fragment its VALUES list's text."""
    partition: str | None
    dbspace: str
    text: str = ""
    remainder: bool = False

    @property
    def name(self) -> str:
        """What sysfragments.partition holds: the PARTITION name, else the dbspace."""
        return self.partition or self.dbspace


@dataclass
class FragmentScheme:
    """A FRAGMENT BY / PARTITION BY clause: strategy 'R' (round robin), 'E' (expression) or
    'L' (list; ``key`` is the fragment key's text), as sysfragments.strategy codes them."""
    strategy: str
    fragments: list[FragmentSpec]
    key: str = ""

    @property
    def can_reject(self) -> bool:
        """Whether a row can fit no fragment (no REMAINDER in an EXPRESSION or LIST scheme)."""
        return self.strategy in ("E", "L") and not any(f.remainder for f in self.fragments)


@dataclass
class CreateTable:
    table: TableName
    columns: list[ColumnSpec]
    constraints: list[ConstraintSpec]
    temp: bool = False
    if_not_exists: bool = False
    # PUT column IN (sbspace, ...): smart-LOB storage per column (checked by ddl.create_table)
    put: list[tuple[str, list[str]]] = field(default_factory=list)
    # LOCK MODE PAGE / ROW: systables.locklevel 'P' / 'R' (None: the default, PAGE)
    lock_mode: str | None = None
    # EXTENT SIZE / NEXT SIZE in kilobytes: systables.fextsize / nextsize (0: not given)
    extents: tuple[int, int] = (0, 0)
    # FRAGMENT BY: sysfragments rows, and rows that fit no fragment refused (fragments.py)
    fragments: FragmentScheme | None = None
    # OF TYPE row_t: a typed table, its columns the named ROW type's fields (ids_sqs_0099)
    of_type: str | None = None
    # UNDER supertable: a subtable of a table hierarchy (ids_sqs_0565)
    under: str | None = None
    # CREATE TEMP TABLE ... WITH NO LOG: its DML is not in the transaction log, so a ROLLBACK
    # does not take it back (ids_sqs_0575); its creation is logged like all DDL
    no_log: bool = False


@dataclass
class CreateTableAs:
    table: TableName
    columns: list[str]  # new names for the query's columns, or empty
    query: exp.Expr
    if_not_exists: bool = False
    # Storage options and LOCK MODE before AS (ids_sqs_0403): as CreateTable's
    lock_mode: str | None = None
    extents: tuple[int, int] = (0, 0)
    fragments: FragmentScheme | None = None
    #: SELECT … INTO STANDARD | RAW table (ids_sqs_2106): the table type; None for CREATE
    #: TABLE … AS SELECT
    select_into: str | None = None


@dataclass
class CreateIndex:
    name: TableName
    table: TableName
    columns: list[tuple[str, bool]]  # (column, descending)
    unique: bool = False
    if_not_exists: bool = False
    cluster: bool = False  # CREATE CLUSTER INDEX: sysindices.clustered = 'C'
    # EXTENT SIZE / NEXT SIZE in kilobytes: sysindices.fextsize / nextsize (0: not given)
    extents: tuple[int, int] = (0, 0)
    fragments: FragmentScheme | None = None  # FRAGMENT BY of the index (ids_sqs_0426)
    in_dbspace: bool = False  # IN dbspace (not IN TABLE): a detached, nonfragmented index
    mode: str | None = None  # DISABLED / FILTERING [WITH ERROR] at creation (object_modes.py)
    #: functional key parts, ``name(column, …)`` (ids_sqs_0408), by position in the key: the
    #: plain parts stay in ``columns`` (features/functional_index.py)
    functions: list[tuple[int, FunctionKey]] = field(default_factory=list)
    online: bool = False  # ONLINE: "not valid" with a functional key part (ids_sqs_0408)


@dataclass
class FunctionKey:
    """A functional key part: the routine's name, its arguments as written (columns of the
    table, checked by CREATE INDEX) and ASC/DESC."""
    name: str
    args: list[exp.Expr]
    descending: bool = False


@dataclass
class AlterFragment:
    """ALTER FRAGMENT ON TABLE | INDEX (Guide to SQL: Syntax, ids_sqs_0236): ``action`` is
    'add', 'drop', 'modify' or 'detach'. ADD carries one new fragment and where it goes
    (BEFORE/AFTER a fragment's name); DROP and DETACH the name of the fragment (DETACH also
    its new table); MODIFY (old name, new fragment) pairs."""
    table: TableName
    index: bool
    action: str
    fragment: FragmentSpec | None = None
    before: str | None = None
    after: str | None = None
    drop: str = ""  # DROP's fragment; DETACH's too
    modify: list[tuple[str, FragmentSpec]] = field(default_factory=list)
    new_table: str = ""  # DETACH's new table
    init: FragmentScheme | None = None  # INIT FRAGMENT BY of an index (None: INIT IN dbspace)


#: ``UPDATE t SET * = (…)``: the marker column the star becomes (statements.py) and the DML
#: translator expands to every column of the table (translate_dml.assignments).
ALL_COLUMNS = "__ifx_all_columns__"


@dataclass
class AlterIndex:
    """ALTER INDEX name TO [NOT] CLUSTER (Guide to SQL: Syntax, "ALTER INDEX statement")."""
    name: TableName
    cluster: bool


@dataclass
class CreateView:
    name: TableName
    columns: list[str]
    query: exp.Expr
    text: str
    if_not_exists: bool = False
    check_option: bool = False


@dataclass
class DropObject:
    kind: str  # TABLE, VIEW, INDEX, DATABASE
    name: TableName
    if_exists: bool = False
    restrict: bool = False  # DROP TABLE / VIEW … RESTRICT (CASCADE is the default)


@dataclass
class AlterTable:
    table: TableName
    add: list[ColumnSpec] = field(default_factory=list)
    drop: list[str] = field(default_factory=list)
    add_constraints: list[ConstraintSpec] = field(default_factory=list)
    drop_constraints: list[str] = field(default_factory=list)
    modify: list[ColumnSpec] = field(default_factory=list)
    lock_mode: str | None = None  # LOCK MODE (PAGE | ROW): 'P' / 'R'
    #: MODIFY EXTENT SIZE / MODIFY NEXT SIZE in kilobytes (0: not given)
    extents: tuple[int, int] = (0, 0)


@dataclass
class StatisticsSpec:
    """UPDATE STATISTICS: ``table`` of FOR TABLE name (None: every table); ``tables`` False
    for FOR PROCEDURE / FUNCTION / ROUTINE / SPECIFIC, which touch no table (ids_sqs_1203)."""

    table: TableName | None = None
    tables: bool = True
    #: the FOR TABLE column list, each of which "Must exist" (ids_sqs_1278)
    columns: tuple[str, ...] = ()
    mode: str = "LOW"  # LOW, MEDIUM or HIGH (the two last compute distributions)


@dataclass
class SavepointSpec:
    name: str
    unique: bool = False


@dataclass
class Rename:
    kind: str  # TABLE or COLUMN
    table: TableName
    column: str | None
    new_name: str


@dataclass
class DatabaseSpec:
    name: str
    logged: bool = False
    buffered: bool = False
    ansi: bool = False
    exclusive: bool = False
    if_not_exists: bool = False


@dataclass
class SetSpec:
    what: str  # LOCK, ISOLATION, OTHER
    wait: int | None = None  # None: NOT WAIT, -1: WAIT forever, n seconds
    #: SET ISOLATION / SET TRANSACTION: the words after SET, upper-cased (session_locks.py).
    words: tuple[str, ...] = ()


@dataclass
class LockSpec:
    table: TableName
    lock: bool
    exclusive: bool = False  # LOCK TABLE ... IN EXCLUSIVE MODE (else SHARE)


# Built-in types dbexport writes owner-qualified ("informix".boolean): name -> type from the
# parenthesised numbers.
_OWNED_TYPES: dict[str, t.Callable[[list[int]], IfxType]] = {
    "BOOLEAN": lambda args: IfxType(TypeCode.BOOLEAN),
    "LVARCHAR": lambda args: IfxType(TypeCode.LVARCHAR, size=args[0] if args else 2048),
}
# Types a real Informix has that this server does not store: refused with -999, not -9628.
_UNSUPPORTED_TYPES = frozenset((
    "BLOB", "CLOB", "BSON", "JSON", "IDSSECURITYLABEL",
    "POINTER", "LOLIST", "IMPEXP", "IMPEXPBIN", "SENDRECV", "STAT", "CLIENTBINVAL",
    "INDEXKEYARRAY", "RTNPARAMTYPES", "CALL_TRACE", "SELFUNCARGS", "TIMESERIES",
))


def _fold(ident: exp.Expr) -> str:
    """An identifier's name as Informix keeps it: delimited ones as written, others in lower
    case."""
    if isinstance(ident, exp.Identifier) and ident.quoted:
        return ident.name
    return ident.name.lower()


class IfxStatement(exp.Expression):
    """A non-query statement: ``this`` is the kind, ``meta['spec']`` its dataclass."""

    arg_types: t.ClassVar[dict[str, bool]] = {"this": True}


def _stmt(kind: str, spec: object = None) -> IfxStatement:
    node = IfxStatement(this=kind)
    node.meta["spec"] = spec
    return node


# StmtType per statement kind (ESQL/C sqlstype.h numbering, carried in SQ_DESCRIBE).
STMT_TYPES: dict[str, int] = {
    "database": StmtType.DATABASE,
    "close_database": StmtType.CLOSE_DATABASE,
    "create_database": StmtType.CREATE_DATABASE,
    "drop_database": StmtType.DROP_DATABASE,
    "create_table": StmtType.CREATE_TABLE,
    "create_table_as": StmtType.CREATE_TABLE,
    "select_into_table": StmtType.SELECT,  # a SELECT, as SELECT … INTO TEMP is described
    "create_temp_table": StmtType.CREATE_TEMP_TABLE,
    "drop_table": StmtType.DROP_TABLE,
    "create_index": StmtType.CREATE_INDEX,
    "drop_index": StmtType.DROP_INDEX,
    "create_view": StmtType.CREATE_VIEW,
    "drop_view": StmtType.DROP_VIEW,
    "alter_table": StmtType.ALTER,
    "alter_fragment": StmtType.ALTER,  # sqlstype.h's own ALTER FRAGMENT number not known here
    "rename_table": StmtType.RENAME_TABLE,
    "rename_column": StmtType.RENAME_COLUMN,
    "begin": StmtType.BEGIN_WORK,
    "commit": StmtType.COMMIT_WORK,
    "rollback": StmtType.ROLLBACK_WORK,
    "set_lock_mode": StmtType.SET_LOCK_MODE,
    "set_isolation": StmtType.SET_ISOLATION,
    "set_other": StmtType.UNKNOWN,
    "set_debug_file": StmtType.UNKNOWN,
    "update_statistics": StmtType.UPDATE_STATISTICS,
    "lock_table": StmtType.LOCK,
    "unlock_table": StmtType.UNLOCK,
    "grant": StmtType.GRANT,
    "revoke": StmtType.REVOKE,
    "execute_routine": StmtType.EXECUTE_PROCEDURE,
    "savepoint": StmtType.SET_SAVEPOINT,
    "release_savepoint": StmtType.RELEASE_SAVEPOINT,
    "rollback_to_savepoint": StmtType.ROLLBACK_TO_SAVEPOINT,
    "rename_index": StmtType.RENAME_INDEX,
    "alter_index": StmtType.ALTER_INDEX,
    "create_role": StmtType.CREATE_ROLE,
    "drop_role": StmtType.DROP_ROLE,
    "set_role": StmtType.SET_ROLE,
    "create_sequence": StmtType.CREATE_SEQUENCE,
    "alter_sequence": StmtType.ALTER_SEQUENCE,
    "drop_sequence": StmtType.DROP_SEQUENCE,
    "rename_sequence": StmtType.RENAME_SEQUENCE,
    "create_synonym": StmtType.CREATE_SYNONYM,
    "drop_synonym": StmtType.DROP_SYNONYM,
    "truncate": StmtType.TRUNCATE,
    "set_constraints": StmtType.SET_CONSTRAINTS,
    # SET TRIGGERS / SET INDEXES are forms of the same SET Database Object Mode statement
    # as SET CONSTRAINTS; that they share its statement type is inferred.
    "set_triggers": StmtType.SET_CONSTRAINTS,
    "set_indexes": StmtType.SET_CONSTRAINTS,
    # START / STOP VIOLATIONS TABLE: sqlstype.h's number for them is not known to us
    "start_violations": StmtType.UNKNOWN,
    "stop_violations": StmtType.UNKNOWN,
    "create_routine": StmtType.CREATE_PROCEDURE,
    "drop_routine": StmtType.DROP_PROCEDURE,
    "create_trigger": StmtType.CREATE_TRIGGER,
    "drop_trigger": StmtType.DROP_TRIGGER,
}


# DROP/GRANT EXECUTE ON a routine: read by spl/parser.py, run by spl/catalog.py; here so the
# GRANT statement's spec (statements_ext.py) can name it without reaching up to the features.
@dataclass
class DropRoutine:
    kind: str  # PROCEDURE, FUNCTION, ROUTINE
    name: str
    owner: str | None = None
    types: list[IfxType] | None = None  # DROP FUNCTION f(INT, CHAR(10))
    specific: bool = False  # DROP SPECIFIC FUNCTION specific_name
    if_exists: bool = False
    extra: list[str] = field(default_factory=list)


@dataclass
class CreateSchemaSpec:
    """CREATE SCHEMA AUTHORIZATION user, then its statements (Syntax, CREATE SCHEMA,
    ids_sqs_0483): each part as its own (kind, spec), run in order with ``owner`` owning
    what it creates."""

    owner: str
    parts: list[tuple[str, object]]
