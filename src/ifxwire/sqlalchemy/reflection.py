"""Reflection from the Informix system catalog.

The queries are written for a real Informix server (14.10's catalog, Guide to SQL: Reference):
``systables`` (tabid, tabname, owner, tabtype T/V/Q), ``syscolumns`` (coltype with +256 for
NOT NULL, collength encoding precision/scale and DATETIME qualifiers), ``sysdefaults``,
``sysconstraints`` (P/U/C/R, with the index behind P/U/R constraints), ``sysindexes``
(``part1``..``part16`` hold column numbers, negative for DESC), ``sysreferences``,
``syschecks`` and ``sysviews`` (text in fixed-width CHAR chunks) and ``sysxtdtypes``.

Schemas are owners. With ``schema=None`` a non-ANSI database shows every user table (table
names are unique across owners there, and unqualified names reach them all); an ANSI
database shows the current user's tables, as unqualified names do.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import exc, sql, util
from sqlalchemy import types as sqltypes
from sqlalchemy.engine import reflection

from .. import catalog
from . import types as ifx

FIRST_USER_TABID = 100
PARTS = ", ".join(f"i.part{n}" for n in range(1, 17))

_SIMPLE: dict[int, type[Any]] = {
    1: sqltypes.SMALLINT,
    2: sqltypes.INTEGER,
    3: sqltypes.FLOAT,
    4: ifx.SMALLFLOAT,
    6: sqltypes.INTEGER,  # SERIAL: reflected as INTEGER with autoincrement
    7: sqltypes.DATE,
    11: ifx.BYTE,
    12: ifx.TEXT,
    17: ifx.INT8,
    18: ifx.INT8,  # SERIAL8
    45: sqltypes.BOOLEAN,
    52: sqltypes.BIGINT,
    53: sqltypes.BIGINT,  # BIGSERIAL
}
def column_type(coltype: int, collength: int, xtd_name: str | None) -> Any:
    """The SQLAlchemy type of a syscolumns row."""
    code = catalog.base_code(coltype, xtd_name)
    length = collength + 65536 if collength < 0 else collength
    if code in (40, 41):
        name = (xtd_name or "").strip().lower()
        if name in ("blob", "clob"):
            return ifx.BLOB() if name == "blob" else ifx.CLOB()
        util.warn(f"Did not recognize Informix extended type {name or code!r}")
        return sqltypes.NULLTYPE
    if code in _SIMPLE:
        return _SIMPLE[code]()
    if code in (0, 15):
        return (sqltypes.CHAR if code == 0 else ifx.NCHAR)(length)
    if code in (13, 16):
        return (sqltypes.VARCHAR if code == 13 else ifx.NVARCHAR)(length & 0xFF)
    if code == 43:
        return ifx.LVARCHAR(length)
    if code in (5, 8):
        precision, scale = length >> 8, length & 0xFF
        if code == 8:
            return ifx.MONEY(precision, scale)
        return sqltypes.DECIMAL(precision, None if scale == 255 else scale)
    if code == 10:
        q = catalog.qualifier(length, interval=False)
        if q.start == "YEAR" and q.end == "DAY":
            return sqltypes.DATE()
        return ifx.DATETIME(q.start, q.end, q.fraction)
    if code == 14:
        q = catalog.qualifier(length, interval=True)
        return ifx.INTERVAL(q.start, q.end, precision=q.leading, fraction=q.fraction)
    util.warn(f"Did not recognize Informix column type code {code}")
    return sqltypes.NULLTYPE


def _default_text(kind: str | None, value: str | None, type_: Any) -> str | None:
    """A column's default as SQL text, from sysdefaults.type/default."""
    if kind is None:
        return None
    kind = kind.strip()
    if kind == "L":
        if value is None:
            return None
        if isinstance(type_, (sqltypes.Numeric, sqltypes.Integer, sqltypes.Float)):
            return value.strip()
        if isinstance(type_, sqltypes.Boolean):
            return f"'{value.strip()}'"
        return "'" + value.replace("'", "''") + "'"
    return {"N": "NULL", "U": "USER", "T": "TODAY", "C": "CURRENT",
            "S": "DBSERVERNAME"}.get(kind)


def _chunks(rows: Iterable[Any], width: int) -> str:
    """Reassemble text kept in fixed-width CHAR chunks (sysviews, syschecks): every chunk but
    the last is full, so blanks the driver stripped from its end are put back."""
    parts = [str(r[0] or "") for r in rows]
    if not parts:
        return ""
    return "".join(p.ljust(width) for p in parts[:-1]) + parts[-1]


class InformixReflection:
    """Catalog reflection, mixed into the dialect."""

    def _owner_clause(self, connection: Any, schema: str | None, alias: str = "t") -> tuple[
            str, dict[str, Any]]:
        if schema is not None:
            return f" AND {alias}.owner = :owner", {"owner": schema}
        if getattr(connection.connection.dbapi_connection, "logging_mode", None) == "ansi":
            return f" AND {alias}.owner = USER", {}
        return "", {}

    @reflection.cache
    def _tabid(self, connection: Any, table_name: str, schema: str | None = None,
               **kw: Any) -> int:
        owner, params = self._owner_clause(connection, schema)
        row = connection.execute(sql.text(
            "SELECT t.tabid FROM systables t WHERE t.tabname = :name AND t.tabtype IN ('T', 'V')"
            f" AND t.tabid >= {FIRST_USER_TABID}" + owner), {"name": table_name, **params}).first()
        if row is None:
            raise exc.NoSuchTableError(f"{schema}.{table_name}" if schema else table_name)
        return int(row[0])

    def _names(self, connection: Any, tabtype: str, schema: str | None) -> list[str]:
        owner, params = self._owner_clause(connection, schema)
        rows = connection.execute(sql.text(
            f"SELECT t.tabname FROM systables t WHERE t.tabtype = '{tabtype}' "
            f"AND t.tabid >= {FIRST_USER_TABID}" + owner + " ORDER BY t.tabname"), params)
        return [r[0] for r in rows]

    @reflection.cache
    def get_table_names(self, connection: Any, schema: str | None = None,
                        **kw: Any) -> list[str]:
        return self._names(connection, "T", schema)

    @reflection.cache
    def get_view_names(self, connection: Any, schema: str | None = None,
                       **kw: Any) -> list[str]:
        return self._names(connection, "V", schema)

    @reflection.cache
    def get_sequence_names(self, connection: Any, schema: str | None = None,
                           **kw: Any) -> list[str]:
        return self._names(connection, "Q", schema)

    @reflection.cache
    def get_schema_names(self, connection: Any, **kw: Any) -> list[str]:
        rows = connection.execute(sql.text(
            f"SELECT DISTINCT owner FROM systables WHERE tabid >= {FIRST_USER_TABID} "
            "ORDER BY owner"))
        return [r[0].strip() for r in rows]

    @reflection.cache
    def has_table(self, connection: Any, table_name: str, schema: str | None = None,
                  **kw: Any) -> bool:
        self._ensure_has_table_connection(connection)  # type: ignore[attr-defined]
        try:
            self._tabid(connection, table_name, schema)
        except exc.NoSuchTableError:
            return False
        return True

    @reflection.cache
    def has_sequence(self, connection: Any, sequence_name: str, schema: str | None = None,
                     **kw: Any) -> bool:
        return sequence_name in self._names(connection, "Q", schema)

    @reflection.cache
    def has_index(self, connection: Any, table_name: str, index_name: str,
                  schema: str | None = None, **kw: Any) -> bool:
        try:
            tabid = self._tabid(connection, table_name, schema, **kw)
        except exc.NoSuchTableError:
            return False
        row = connection.execute(sql.text(
            "SELECT 1 FROM sysindexes WHERE tabid = :tabid AND idxname = :name"),
            {"tabid": tabid, "name": index_name}).first()
        return row is not None

    @reflection.cache
    def get_view_definition(self, connection: Any, view_name: str, schema: str | None = None,
                            **kw: Any) -> str:
        owner, params = self._owner_clause(connection, schema)
        rows = connection.execute(sql.text(
            "SELECT v.viewtext FROM systables t, sysviews v WHERE v.tabid = t.tabid "
            "AND t.tabname = :name AND t.tabtype = 'V'" + owner + " ORDER BY v.seqno"),
            {"name": view_name, **params}).fetchall()
        if not rows:
            raise exc.NoSuchTableError(view_name)
        return _chunks(rows, 64)

    @reflection.cache
    def _column_rows(self, connection: Any, *, tabid: int, **kw: Any) -> list[Any]:
        return list(connection.execute(sql.text(
            "SELECT c.colname, c.colno, c.coltype, c.collength, x.name, d.type, d.default "
            "FROM syscolumns c "
            "LEFT OUTER JOIN sysxtdtypes x ON x.extended_id = c.extended_id "
            "AND c.extended_id > 0 "
            "LEFT OUTER JOIN sysdefaults d ON d.tabid = c.tabid AND d.colno = c.colno "
            "WHERE c.tabid = :tabid ORDER BY c.colno"), {"tabid": tabid}))

    def _colnames(self, connection: Any, tabid: int, **kw: Any) -> dict[int, str]:
        return {int(r[1]): r[0] for r in self._column_rows(connection, tabid=tabid, **kw)}

    @reflection.cache
    def get_columns(self, connection: Any, table_name: str, schema: str | None = None,
                    **kw: Any) -> list[Any]:
        tabid = self._tabid(connection, table_name, schema, **kw)
        columns = []
        for name, _colno, coltype, collength, xtd, dkind, dvalue in self._column_rows(
                connection, tabid=tabid, **kw):
            type_ = column_type(coltype, collength, xtd)
            serial = (coltype & 0xFF) in catalog.SERIAL_CODES
            columns.append({
                "name": name,
                "type": type_,
                "nullable": not coltype & 0x100,
                "default": _default_text(dkind, dvalue, type_),
                "autoincrement": serial,
            })
        return columns

    def _index_columns(self, connection: Any, tabid: int, parts: Iterable[int],
                       **kw: Any) -> tuple[list[str], dict[str, tuple[str, ...]]]:
        names = self._colnames(connection, tabid, **kw)
        cols: list[str] = []
        sorting: dict[str, tuple[str, ...]] = {}
        for part in parts:
            if not part:
                continue
            name = names[abs(int(part))]
            cols.append(name)
            if part < 0:
                sorting[name] = ("desc",)
        return cols, sorting

    # reflection.cache keys on string arguments and keywords only, so the cached helpers below
    # take the tabid as a keyword.
    @reflection.cache
    def _constraints(self, connection: Any, *, tabid: int, **kw: Any) -> list[Any]:
        """(constrname, constrtype, idxname, part1..part16) of the table's constraints; the
        parts are NULL for constraints without an index (CHECK, NOT NULL)."""
        return list(connection.execute(sql.text(
            f"SELECT c.constrname, c.constrtype, c.idxname, c.constrid, {PARTS} "
            "FROM sysconstraints c LEFT OUTER JOIN sysindexes i "
            "ON i.idxname = c.idxname AND i.tabid = c.tabid "
            "WHERE c.tabid = :tabid ORDER BY c.constrid"), {"tabid": tabid}))

    @reflection.cache
    def get_pk_constraint(self, connection: Any, table_name: str, schema: str | None = None,
                          **kw: Any) -> Any:
        tabid = self._tabid(connection, table_name, schema, **kw)
        for row in self._constraints(connection, tabid=tabid, **kw):
            if row[1] == "P":
                cols, _ = self._index_columns(connection, tabid, row[4:], **kw)
                return {"name": row[0], "constrained_columns": cols}
        return {"name": None, "constrained_columns": []}

    @reflection.cache
    def get_unique_constraints(self, connection: Any, table_name: str,
                               schema: str | None = None, **kw: Any) -> list[Any]:
        tabid = self._tabid(connection, table_name, schema, **kw)
        result = []
        for row in self._constraints(connection, tabid=tabid, **kw):
            if row[1] == "U":
                cols, _ = self._index_columns(connection, tabid, row[4:], **kw)
                result.append({"name": row[0], "column_names": cols})
        return sorted(result, key=lambda c: c["name"])

    @reflection.cache
    def get_check_constraints(self, connection: Any, table_name: str,
                              schema: str | None = None, **kw: Any) -> list[Any]:
        tabid = self._tabid(connection, table_name, schema, **kw)
        result = []
        for row in self._constraints(connection, tabid=tabid, **kw):
            if row[1] == "C":
                text = connection.execute(sql.text(
                    "SELECT checktext FROM syschecks WHERE constrid = :cid AND type = 'T' "
                    "ORDER BY seqno"), {"cid": row[3]}).fetchall()
                result.append({"name": row[0], "sqltext": _chunks(text, 32).strip()})
        return sorted(result, key=lambda c: c["name"])

    @reflection.cache
    def get_foreign_keys(self, connection: Any, table_name: str, schema: str | None = None,
                         **kw: Any) -> list[Any]:
        tabid = self._tabid(connection, table_name, schema, **kw)
        rows = connection.execute(sql.text(
            f"SELECT c.constrname, r.delrule, r.ptabid, pt.tabname, pt.owner, {PARTS}, "
            + ", ".join(f"pi.part{n}" for n in range(1, 17)) + " "
            "FROM sysconstraints c "
            "JOIN sysreferences r ON r.constrid = c.constrid "
            "JOIN sysindexes i ON i.idxname = c.idxname AND i.tabid = c.tabid "
            "JOIN sysconstraints pc ON pc.constrid = r.primary "
            "JOIN sysindexes pi ON pi.idxname = pc.idxname AND pi.tabid = pc.tabid "
            "JOIN systables pt ON pt.tabid = r.ptabid "
            "WHERE c.tabid = :tabid AND c.constrtype = 'R' ORDER BY c.constrid"),
            {"tabid": tabid}).fetchall()
        result = []
        for row in rows:
            name, delrule, ptabid, ptable, powner = row[:5]
            local, _ = self._index_columns(connection, tabid, row[5:21], **kw)
            remote, _ = self._index_columns(connection, ptabid, row[21:37], **kw)
            options = {"ondelete": "CASCADE"} if (delrule or "").strip() == "C" else {}
            result.append({
                "name": name,
                "constrained_columns": local,
                "referred_schema": powner.strip() if schema is not None else None,
                "referred_table": ptable,
                "referred_columns": remote,
                "options": options,
            })
        return sorted(result, key=lambda c: c["name"])

    @reflection.cache
    def get_indexes(self, connection: Any, table_name: str, schema: str | None = None,
                    **kw: Any) -> list[Any]:
        tabid = self._tabid(connection, table_name, schema, **kw)
        behind = {row[2] for row in self._constraints(connection, tabid=tabid, **kw) if row[2]}
        rows = connection.execute(sql.text(
            f"SELECT i.idxname, i.idxtype, {PARTS} FROM sysindexes i "
            "WHERE i.tabid = :tabid ORDER BY i.idxname"), {"tabid": tabid})
        result = []
        for row in rows:
            if row[0] in behind:
                continue  # the index of a constraint: reflected as the constraint
            cols, sorting = self._index_columns(connection, tabid, row[2:], **kw)
            index: dict[str, Any] = {"name": row[0], "column_names": cols,
                                     "unique": (row[1] or "").strip() == "U"}
            if sorting:
                index["column_sorting"] = sorting
            result.append(index)
        return result
