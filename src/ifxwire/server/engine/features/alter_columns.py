"""ALTER TABLE's column clauses, ADD and MODIFY, on the list of columns alter.py rebuilds the
table from; with the two shapes that rebuild works on (a constraint as the catalog records
it, a column of the new table and where its values come from).

Apart from alter.py, which reads the table, applies each clause and rebuilds, so each file
has one job (the ~800-line rule).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ....protocol.codes import TypeCode
from ..core import convert as conv
from ..core import sqlcodes as sc
from ..core.errors import EngineError, not_implemented
from ..core.ifxtypes import IfxType
from ..schema.catalog import ColumnInfo, TableInfo, quote
from ..sql.exprs import keylit, lit
from ..sql.exprtypes import needs_fit, storage_kind
from ..sql.statement_specs import DefaultSpec
from ..sql.statements import ColumnSpec, parse
from .ddl import DdlContext
from .ddl_defaults import _default_row, _sqlite_default

T = TypeCode


@dataclass
class ConsDef:
    """One constraint as the catalog records it."""

    constrid: int
    name: str
    owner: str
    kind: str  # P U R C N
    columns: list[str]
    index: str | None = None
    check_text: str = ""
    parent: str | None = None  # R: referenced table
    parent_columns: list[str] = field(default_factory=list)
    cascade: bool = False
    enabled: bool = True
    new: bool = False  # added by the running ALTER: its catalog rows are still to write
    shared: bool = False  # R: uses the index of a P/U constraint on the same columns
    delimident: bool = False  # C: the text was read under DELIMIDENT (ddl_defaults.write_check)


@dataclass
class NewColumn:
    info: ColumnInfo
    source: str  # SQLite expression over the old table's columns
    origin: str | None = None  # the old column it comes from (indexes follow it)


#: An upsert, not OR REPLACE: its deletion would escape schema/changelog.py's triggers.
_SET_SERIAL = ("INSERT INTO _ifx_serial VALUES (?, ?, ?) ON CONFLICT (tabid, kind) DO UPDATE "
               "SET next = excluded.next")


def _position(columns: list[NewColumn], before: str | None) -> int:
    if before is None:
        return len(columns)
    for i, c in enumerate(columns):
        if c.info.name == before:
            return i
    raise EngineError(sc.NO_COLUMN, near=before)


def _add(dc: DdlContext, info: TableInfo, columns: list[NewColumn], col: ColumnSpec) -> None:
    if any(c.info.name == col.name for c in columns):
        raise EngineError(sc.COLUMN_EXISTS, near=col.name)
    if col.type.is_serial:
        _add_serial(dc, info, columns, col)
        return
    notnull = any(c.kind in ("N", "P") for c in col.constraints)
    ty = col.type.with_notnull(notnull)
    new = ColumnInfo(col.name, 0, ty)
    row = _default_row(col.default, ty, dc.ctx)
    source = "NULL"
    if row is not None:
        new.default_kind, new.default_value = row
        literal = _sqlite_default(col.default, ty, dc.ctx)
        if literal:
            source = literal.replace(" DEFAULT ", "", 1)
        elif row[0] in _NILADIC:
            # "the default values are applied to all existing rows" (ALTER TABLE, ADD
            # clause, ids_sqs_0080): TODAY, USER, CURRENT, DBSERVERNAME as they are now
            source = _niladic_now(dc, row[0], col.default, ty)
    if notnull and source == "NULL":
        count = dc.conn.execute(f"SELECT COUNT(*) FROM {quote(info.name)}").fetchone()[0]
        if count:
            raise EngineError(sc.NULL_INTO_NOT_NULL, near=col.name)
    for cons in col.constraints:
        cons.columns = [col.name]
    columns.insert(_position(columns, col.before), NewColumn(new, source, None))


_NILADIC = {"U": "USER", "T": "TODAY", "C": "CURRENT", "S": "DBSERVERNAME"}


def _niladic_now(dc: DdlContext, kind: str, spec: DefaultSpec | None, ty: IfxType) -> str:
    """A TODAY / USER / CURRENT / DBSERVERNAME default's value now, as an SQLite literal in
    the column's storage form (what the existing rows get)."""
    text = _NILADIC[kind]
    if kind == "C":
        text = ("CURRENT " + ty.sql().split(" ", 1)[1] if ty.code == TypeCode.DATETIME
                else "CURRENT YEAR TO FRACTION(3)")
    sql, _, types = dc.compile_view(parse(f"SELECT {text} FROM systables WHERE tabid = 1"))
    value = dc.conn.execute(sql).fetchone()[0]
    load = conv.loader(types[0])
    stored = conv.storer(ty, dc.ctx, types[0])(load(value) if load else value)
    return lit(stored).sql(dialect="sqlite")


def _serial_kind(ty: IfxType) -> str:
    return "s" if ty.code == T.SERIAL else "8"  # SERIAL8 and BIGSERIAL share one counter


def _add_serial(dc: DdlContext, info: TableInfo, columns: list[NewColumn],
                col: ColumnSpec) -> None:
    """ADD a SERIAL/SERIAL8/BIGSERIAL column: the rows there are numbered from its start
    value in their stored order, and the counter goes on after them. One column of each
    kind per table (-362, as in CREATE TABLE)."""
    kind = _serial_kind(col.type)
    if any(c.info.type.is_serial and _serial_kind(c.info.type) == kind for c in columns):
        raise EngineError(sc.SERIAL_TWICE)
    start = col.serial_start or 1
    count = dc.conn.execute(f"SELECT COUNT(*) FROM {quote(info.name)}").fetchone()[0]
    dc.conn.execute(_SET_SERIAL,
                    (info.tabid, kind, start - 1 + int(count)))
    new = ColumnInfo(col.name, 0, col.type.with_notnull(True), serial_start=start)
    for cons in col.constraints:
        cons.columns = [col.name]
    columns.insert(_position(columns, col.before), NewColumn(
        new, f"(ROW_NUMBER() OVER (ORDER BY rowid) + {start - 1})", None))


def _modify_to_serial(dc: DdlContext, info: TableInfo, columns: list[NewColumn],
                      target: NewColumn, col: ColumnSpec) -> int:
    """MODIFY of a number column to SERIAL/SERIAL8/BIGSERIAL (IBM, *Guide to SQL: Syntax*,
    MODIFY clause: a column's data type may change to any type its values convert to): the
    values stay, and the counter goes on after the largest of them and the start value, as
    after an INSERT of an explicit serial value (IBM, "Inserting Values into Serial
    Columns"). One column of each kind per table (-362). A serial column holds no NULL, and
    what Informix does with the NULLs of a column made SERIAL is not known to us: refused
    (-999) while the column holds one. Returns the start value."""
    kind = _serial_kind(col.type)
    if any(c is not target and c.info.type.is_serial and _serial_kind(c.info.type) == kind
           for c in columns):
        raise EngineError(sc.SERIAL_TWICE)
    name = quote(target.origin or target.info.name)
    rows, nulls, top = dc.conn.execute(
        f"SELECT COUNT(*), COUNT(*) - COUNT({name}), MAX({name}) "
        f"FROM {quote(info.name)}").fetchone()
    old = target.info.type
    if rows and (not old.is_numeric or old.is_decimal or old.code in (T.FLOAT, T.SMALLFLOAT)):
        # an empty table's column of any type may become one (a CharField key made an
        # AutoField); values of another type than an integer are not numbered here
        raise not_implemented("MODIFY of a column that is not an integer to a SERIAL type")
    if nulls:
        raise not_implemented("MODIFY to a SERIAL type of a column holding NULL")
    start = col.serial_start or 1
    dc.conn.execute(_SET_SERIAL,
                    (info.tabid, kind, max(start - 1, int(top or 0))))
    return start


def _modify(dc: DdlContext, info: TableInfo, columns: list[NewColumn],
            constraints: list[ConsDef], col: ColumnSpec) -> None:
    """MODIFY: a new type, default and constraints for a column, its data converted."""
    target = next((c for c in columns if c.info.name == col.name), None)
    if target is None:
        raise EngineError(sc.NO_COLUMN, near=col.name)
    serial_start = target.info.serial_start
    to_serial = col.type.is_serial and not (
        target.info.type.is_serial and _serial_kind(target.info.type) == _serial_kind(col.type))
    if to_serial:
        serial_start = _modify_to_serial(dc, info, columns, target, col)
    notnull = to_serial or any(c.kind in ("N", "P") for c in col.constraints) or any(
        c.kind == "P" and col.name in c.columns for c in constraints)
    old = target.info.type
    ty = col.type.with_notnull(notnull)
    new = ColumnInfo(col.name, 0, ty, serial_start=serial_start)
    row = _default_row(col.default, ty, dc.ctx)
    if row is not None:
        new.default_kind, new.default_value = row
    source = quote(col.name)
    if storage_kind(old) != storage_kind(ty) or needs_fit(old, ty):
        source = (f"ifx_cast({source}, {keylit(old.nullable()).sql()}, "
                  f"{keylit(ty.nullable()).sql()})")
    # MODIFY replaces the column's NOT NULL and CHECK constraints (Informix drops them
    # unless restated).
    constraints[:] = [c for c in constraints
                      if not (c.kind in ("N", "C") and c.columns == [col.name])]
    for cons in col.constraints:
        cons.columns = [col.name]
    target.info = new
    target.source = source
