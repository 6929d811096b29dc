"""Introspection from the Informix system catalogue, for ``inspectdb`` and the migration
machinery: ``systables`` (user tables from tabid 100), ``syscolumns`` (coltype + 256 for NOT
NULL; collength encodes lengths, DECIMAL precision/scale and DATETIME qualifiers: see
ifxwire.catalog), ``sysdefaults``, ``sysconstraints`` (P/U/R/C with the index behind P/U/R),
``sysindexes`` (part1..part16: column numbers, negative for DESC), ``sysreferences`` and
``syschecks``. The same queries the SQLAlchemy dialect reads (sqlalchemy/reflection.py).
"""

from __future__ import annotations

from collections import namedtuple
from typing import Any

from django.db.backends.base.introspection import BaseDatabaseIntrospection, TableInfo
from django.db.backends.base.introspection import FieldInfo as BaseFieldInfo
from django.db.models import Index

from .. import catalog

#: Django's FieldInfo and whether the column is a SERIAL (get_sequences reads it).
FieldInfo = namedtuple(  # type: ignore[misc]
    "FieldInfo", (*BaseFieldInfo._fields, "is_autofield"))
FIRST_USER_TABID = 100
PARTS = ", ".join(f"i.part{n}" for n in range(1, 17))


def _data_type(coltype: int, collength: int, xtd: str | None) -> str:
    """A key of data_types_reverse for a syscolumns row (DATETIME split by qualifier)."""
    code = catalog.base_code(coltype, xtd)
    if code in (40, 41):
        return (xtd or "").strip().upper() or "UDT"
    if code == 14:
        return "INTERVAL"
    if code == 10:
        q = catalog.qualifier(collength + 65536 if collength < 0 else collength, False)
        if q.start == "YEAR" and q.end == "DAY":
            return "DATETIME YEAR TO DAY"
        if q.start == "YEAR":
            return "DATETIME YEAR"
        return "DATETIME HOUR"
    name = catalog.type_name(coltype & 0xFF, 0, xtd).split("(")[0]
    # A SERIAL is an INTEGER that numbers new rows (FieldInfo.is_autofield says which), as
    # PostgreSQL's serial is int4: a foreign key to it is an INTEGER column of the same type
    # code (migrations' test_alter_field_pk_fk compares them).
    return _SERIAL_BASE.get(name, name)


_SERIAL_BASE = {"SERIAL": "INTEGER", "SERIAL8": "INT8", "BIGSERIAL": "BIGINT"}


class DatabaseIntrospection(BaseDatabaseIntrospection):
    data_types_reverse = {  # noqa: RUF012 (Django declares it as a class dict)
        "CHAR": "CharField",
        "NCHAR": "CharField",
        "VARCHAR": "CharField",
        "NVARCHAR": "CharField",
        "LVARCHAR": "TextField",
        "TEXT": "TextField",
        "CLOB": "TextField",
        "SMALLINT": "SmallIntegerField",
        "INTEGER": "IntegerField",
        "INT8": "BigIntegerField",
        "BIGINT": "BigIntegerField",
        "FLOAT": "FloatField",
        "SMALLFLOAT": "FloatField",
        "DECIMAL": "DecimalField",
        "MONEY": "DecimalField",
        "DATE": "DateField",
        "DATETIME YEAR": "DateTimeField",
        "DATETIME YEAR TO DAY": "DateField",
        "DATETIME HOUR": "TimeField",
        "INTERVAL": "DurationField",
        "BOOLEAN": "BooleanField",
        "BYTE": "BinaryField",
        "BLOB": "BinaryField",
    }

    def get_field_type(self, data_type: Any, description: Any) -> str:
        field_type = str(super().get_field_type(data_type, description))
        if getattr(description, "is_autofield", False):
            return {"IntegerField": "AutoField", "BigIntegerField": "BigAutoField"}.get(
                field_type, field_type)
        if field_type == "DecimalField" and description.scale == 255:
            return "FloatField"  # a floating DECIMAL(p)
        return field_type

    def get_table_list(self, cursor: Any) -> list[TableInfo]:
        cursor.execute(
            "SELECT tabname, tabtype FROM systables WHERE tabid >= %s "
            "AND tabtype IN ('T', 'V') ORDER BY tabname", [FIRST_USER_TABID])
        return [TableInfo(r[0], "v" if r[1].strip() == "V" else "t") for r in cursor.fetchall()]

    def _tabid(self, cursor: Any, table_name: str) -> int:
        cursor.execute("SELECT tabid FROM systables WHERE tabname = %s AND tabid >= %s",
                       [table_name, FIRST_USER_TABID])
        row = cursor.fetchone()
        if row is None:
            from django.db import DatabaseError
            raise DatabaseError(f"table {table_name!r} does not exist")
        return int(row[0])

    def _columns(self, cursor: Any, tabid: int) -> list[Any]:
        cursor.execute(
            "SELECT c.colname, c.colno, c.coltype, c.collength, x.name, d.type, d.default "
            "FROM syscolumns c "
            "LEFT OUTER JOIN sysxtdtypes x ON x.extended_id = c.extended_id "
            "AND c.extended_id > 0 "
            "LEFT OUTER JOIN sysdefaults d ON d.tabid = c.tabid AND d.colno = c.colno "
            "WHERE c.tabid = %s ORDER BY c.colno", [tabid])
        return list(cursor.fetchall())

    def get_table_description(self, cursor: Any, table_name: str) -> list[Any]:
        tabid = self._tabid(cursor, table_name)
        result = []
        for name, _colno, coltype, collength, xtd, dkind, dvalue in self._columns(cursor, tabid):
            code = catalog.base_code(coltype, xtd)
            length = collength + 65536 if collength < 0 else collength
            size = precision = scale = None
            if code in (0, 15, 43):
                size = length
            elif code in (13, 16):
                size = length & 0xFF
            elif code in (5, 8):
                precision, scale = length >> 8, length & 0xFF
            default = None
            if dkind is not None and dkind.strip() == "L" and dvalue is not None:
                default = dvalue.strip() if code not in (0, 13, 15, 16, 43) else \
                    "'" + dvalue.replace("'", "''") + "'"
            elif dkind is not None:
                default = {"N": "NULL", "U": "USER", "T": "TODAY",
                           "C": "CURRENT"}.get(dkind.strip())
            result.append(FieldInfo(  # type: ignore[call-arg]
                name, _data_type(coltype, collength, xtd), size, size, precision, scale,
                catalog.nullable(coltype), default, None, code in catalog.SERIAL_CODES))
        return result

    def get_sequences(self, cursor: Any, table_name: str,
                      table_fields: Any = ()) -> list[dict[str, Any]]:
        for info in self.get_table_description(cursor, table_name):
            if info.is_autofield:
                return [{"table": table_name, "column": info.name}]
        return []

    def _colnames(self, cursor: Any, tabid: int) -> dict[int, str]:
        cursor.execute("SELECT colno, colname FROM syscolumns WHERE tabid = %s", [tabid])
        return {int(r[0]): r[1] for r in cursor.fetchall()}

    def get_relations(self, cursor: Any, table_name: str) -> dict[str, tuple[str, str]]:
        return {
            cols[0]: info["foreign_key"][::-1]
            for cols, info in ((c["columns"], c) for c in self.get_constraints(
                cursor, table_name).values())
            if info["foreign_key"] and len(cols) == 1
        }

    def get_primary_key_columns(self, cursor: Any, table_name: str) -> list[str] | None:
        for info in self.get_constraints(cursor, table_name).values():
            if info["primary_key"]:
                return list(info["columns"])
        return None

    def get_constraints(self, cursor: Any, table_name: str) -> dict[str, Any]:
        tabid = self._tabid(cursor, table_name)
        names = self._colnames(cursor, tabid)

        def cols(parts: Any) -> tuple[list[str], list[str]]:
            picked = [int(p) for p in parts if p]
            return [names[abs(p)] for p in picked], ["DESC" if p < 0 else "ASC" for p in picked]

        constraints: dict[str, Any] = {}
        cursor.execute(
            f"SELECT c.constrname, c.constrtype, c.idxname, c.constrid, {PARTS} "
            "FROM sysconstraints c LEFT OUTER JOIN sysindexes i "
            "ON i.idxname = c.idxname AND i.tabid = c.tabid "
            "WHERE c.tabid = %s ORDER BY c.constrid", [tabid])
        behind = set()
        fk_indexes: dict[str, tuple[list[str], list[str]]] = {}
        key_indexes: set[str] = set()
        for row in cursor.fetchall():
            name, kind, idxname = row[0], row[1].strip(), row[2]
            if kind not in ("P", "U", "R", "C"):
                continue
            if idxname:
                behind.add(idxname)
            columns, orders = cols(row[4:])
            constraints[name] = {
                "columns": columns, "primary_key": kind == "P", "unique": kind in ("P", "U"),
                "foreign_key": None, "check": kind == "C", "index": False,
            }
            if kind == "R" and idxname:
                fk_indexes[idxname] = (columns, orders)
            if kind in ("P", "U") and idxname:
                key_indexes.add(idxname)
            if kind == "C":
                constraints[name]["columns"] = self._check_columns(cursor, row[3], names)
        cursor.execute(
            "SELECT c.constrname, pt.tabname, pc.idxname, pc.tabid FROM sysconstraints c "
            "JOIN sysreferences r ON r.constrid = c.constrid "
            "JOIN sysconstraints pc ON pc.constrid = r.primary "
            "JOIN systables pt ON pt.tabid = r.ptabid "
            "WHERE c.tabid = %s AND c.constrtype = 'R'", [tabid])
        for name, ptable, pidx, ptabid in cursor.fetchall():
            cursor.execute(f"SELECT {PARTS} FROM sysindexes i WHERE i.idxname = %s "
                           "AND i.tabid = %s", [pidx, ptabid])
            prow = cursor.fetchone()
            pnames = self._colnames(cursor, ptabid)
            pcols = [pnames[abs(int(p))] for p in (prow or ()) if p]
            if name in constraints and pcols:
                constraints[name]["foreign_key"] = (ptable, pcols[0])
        # Informix backs a foreign key with an index of its columns, which is why the schema
        # editor makes none of Django's (a second one is -350): that index is listed as an
        # index of its own, as MySQL's backend lists the index its foreign keys get, unless
        # it is the index of a primary key or unique constraint on the same columns (a
        # OneToOneField's). Its type is not Index.suffix: it goes with its constraint, and
        # Django never drops it as a plain index.
        for idxname, (columns, orders) in fk_indexes.items():
            if idxname in key_indexes:
                continue
            constraints[idxname] = {
                "columns": columns, "orders": orders, "primary_key": False, "unique": False,
                "foreign_key": None, "check": False, "index": True, "type": "fk",
            }
        cursor.execute(
            f"SELECT i.idxname, i.idxtype, {PARTS} FROM sysindexes i WHERE i.tabid = %s",
            [tabid])
        for row in cursor.fetchall():
            if row[0] in behind:
                continue
            columns, orders = cols(row[2:])
            constraints[row[0]] = {
                "columns": columns, "orders": orders, "primary_key": False,
                "unique": (row[1] or "").strip() == "U", "foreign_key": None, "check": False,
                "index": True, "type": Index.suffix,
            }
        return constraints

    def _check_columns(self, cursor: Any, constrid: int, names: dict[int, str]) -> list[str]:
        cursor.execute("SELECT checktext FROM syschecks WHERE constrid = %s AND type = 'T' "
                       "ORDER BY seqno", [constrid])
        text = "".join(str(r[0] or "").ljust(32) for r in cursor.fetchall())
        return [n for n in names.values() if f'"{n}"' in text or f" {n} " in f" {text} "]
