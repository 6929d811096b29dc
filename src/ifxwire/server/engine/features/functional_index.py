"""Functional indexes: ``CREATE INDEX … ON t (func(column, …))`` (Guide to SQL: Syntax,
"Using the return value of a function as an index key", ids_sqs_0408; Performance Guide,
ids_prf_398 / ids_prf_401).

Why only the catalogue holds one: an index key here is a SQLite index, and SQLite indexes an
expression only over deterministic SQL functions, while the function of a functional key is an
SPL routine this server runs in Python (spl/interp.py). So a functional index is a sysindices
row and nothing more: no query reads it, and every query gives the same rows with it or
without it (a functional index only speeds up reads on a real server). A UNIQUE one would have
to check the function's values at every write, which nothing here does: it is refused (-999).

The row: idxtype 'D'; part<n> is 0 for a functional key part (the sysindexes view shows no
column for it [inference]; Informix's sysindexes view extracts column numbers from
indexkeys, and a function is none); indexkeys holds ``<procid>(<colno>, …) [1]`` for a
functional part beside ``<colno> [1]`` for a column part, a leading ``-`` for DESC in both
[inference from SYSINDICES, ids_sqr_042: a key is "procid, (col1, ..., coln), opclassid"].

What the routine must be (ids_sqs_0408, ids_prf_398), with the message catalogue's codes
(core/sqlcodes.py says which situation gets which): a user-defined function, not a built-in
(-9844; "you can create an SPL wrapper"); one taking that many arguments (-9843); arguments
that are columns of the table and not of a collection type (-25848); not VARIANT (-9848; an
SPL function is VARIANT unless created WITH (NOT VARIANT)); no DML statement in it and no
BLOB/CLOB/BYTE/TEXT result (-9844). ONLINE "is not valid" with one (-201 [guess]). A name
that is no routine at all is -674.

Other statements and a functional index: DROP INDEX, RENAME INDEX, SET INDEXES, ALTER INDEX
and DROP TABLE work on its row as on any index's (none has SQLite objects to find); ALTER
TABLE's rebuild sets it aside and writes it back with its column numbers renumbered, or
drops it when a column it uses is dropped, as a plain index goes (``set_aside``,
``put_back``); DROP FUNCTION of a routine one uses is -705 (``check_drop``).
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass, field

from sqlglot import exp

from ....protocol.codes import TypeCode
from ..core import sqlcodes as sc
from ..core.errors import EngineError, not_implemented
from ..schema.catalog import ColumnInfo, TableInfo, quote
from ..schema.routines import Routine
from ..sql import builtins, refusals
from ..sql.hooks import TRANSLATION
from ..sql.statement_specs import CreateIndex, FunctionKey
from . import fragments
from .ddl import DdlContext, _clustered_index, index_row
from .spl import ast as a
from .spl import resolve
from .spl.parser import parse_routine

T = TypeCode
_COLLECTIONS = (T.SET, T.MULTISET, T.LIST)
_LOBS = (T.BLOB, T.CLOB, T.BYTE, T.TEXT)
#: one key part of indexkeys: [-]<colno> [op] or [-]<procid>(<colno>, …) [op]
_PART = re.compile(r"(-?)(\d+)(?:\(([\d, ]*)\))? \[(\d+)\]")
#: SQL: a sysindices row of a functional index
FUNCTIONAL = "indexkeys LIKE '%(%'"
#: statements that are DML in Informix's sense (Guide to SQL: Syntax, "Data manipulation
#: language statements"), seen by their first word when no query tree says so
_DML_WORDS = ("SELECT", "INSERT", "UPDATE", "DELETE", "MERGE", "TRUNCATE", "LOAD", "UNLOAD")


@dataclass
class KeyPart:
    """One part of an index key: a column (``procid`` 0), or a function of columns."""

    colno: int = 0
    procid: int = 0
    args: list[int] = field(default_factory=list)
    desc: bool = False

    @property
    def part(self) -> int:
        """The sysindices part<n> value: the column number, negative for DESC; 0 for a
        functional part."""
        return 0 if self.procid else -self.colno if self.desc else self.colno

    def text(self) -> str:
        sign = "-" if self.desc else ""
        if self.procid:
            return f"{sign}{self.procid}({', '.join(map(str, self.args))}) [1]"
        return f"{sign}{self.colno} [1]"


def parse_keys(text: str | None) -> list[KeyPart]:
    """The parts an indexkeys text lists."""
    out = []
    for m in _PART.finditer(text or ""):
        desc, number, args = m.group(1) == "-", int(m.group(2)), m.group(3)
        if args is None:
            out.append(KeyPart(number, 0, [], desc))
        else:
            out.append(KeyPart(0, number, [int(x) for x in args.split(",") if x.strip()],
                               desc))
    return out


def create(dc: DdlContext, info: TableInfo, spec: CreateIndex) -> None:
    """CREATE INDEX with at least one functional key part: checked, then written to the
    catalogue only (see the module docstring)."""
    name = spec.name.name
    if info.temp:
        raise not_implemented("a functional index on a temporary table")
    if info.type_xid or info.subtables or info.supertable:
        # a hierarchy's index spans its subtables (inherit.py), which read column parts only
        raise not_implemented("a functional index on a typed table")
    if spec.unique:
        raise not_implemented("UNIQUE functional index")
    if spec.online:
        # "The ONLINE keyword is not valid" (ids_sqs_0408); the catalogue has no text for it
        raise EngineError(sc.SYNTAX, near="ONLINE")
    total = len(spec.columns) + len(spec.functions)
    if total > 16:
        raise EngineError(sc.INDEX_TOO_MANY_PARTS, near=name)
    for col, _ in spec.columns:
        if col not in info.by_name:
            raise EngineError(sc.NO_COLUMN, near=col)
    if len({c for c, _ in spec.columns}) < len(spec.columns):
        raise EngineError(sc.COLUMN_TWICE, near=name)
    refusals.index_columns([info.by_name[c].type for c, _ in spec.columns])
    functional = dict(spec.functions)
    plain = iter(spec.columns)
    parts: list[KeyPart] = []
    for pos in range(total):
        if pos in functional:
            parts.append(_function_part(dc, info, functional[pos]))
        else:
            col, desc = next(plain)
            parts.append(KeyPart(info.by_name[col].colno, 0, [], desc))
    keys = ", ".join(p.text() for p in parts)
    for (other,) in dc.conn.execute("SELECT indexkeys FROM sysindices WHERE tabid = ?",
                                    (info.tabid,)):
        if other == keys:  # the same key twice (ids_sqs_0413), as ddl._check_same_key
            raise EngineError(sc.INDEX_SAME_COLUMNS)
    if spec.cluster and _clustered_index(dc, info.tabid) is not None:
        raise not_implemented("a second clustered index on a table")
    index_row(dc, info, name, [p.part for p in parts], keys, False)
    if spec.fragments is not None:
        fragments.create_index(dc, info, name, spec.fragments)
    dc.conn.execute("UPDATE sysindices SET clustered = ?, fextsize = ?, nextsize = ? WHERE "
                    "idxname = ?", ("C" if spec.cluster else "", *spec.extents, name))


def _function_part(dc: DdlContext, info: TableInfo, key: FunctionKey) -> KeyPart:
    """The routine a functional key part names, checked as ids_sqs_0408 asks."""
    routines = dc.schema.routines.get(key.name, [])
    if not routines:
        if _builtin(key.name):  # "you can create an SPL wrapper" (ids_prf_398)
            raise EngineError(sc.FUNC_KEY_FUNCTION, near=key.name)
        raise EngineError(sc.NO_ROUTINE, near=key.name)
    fitting = resolve.candidates(routines, "any", len(key.args))
    if not fitting:
        raise EngineError(sc.FUNC_KEY_ARG_COUNT)
    columns = [_argument(info, arg) for arg in key.args]
    if not columns:  # a function of no column is no key of the row
        raise EngineError(sc.FUNC_KEY_ARGUMENT)
    routine = resolve.choose(key.name, fitting, [c.type for c in columns])
    if (not routine.function or routine.iterator or len(routine.returns) != 1
            or routine.returns[0].code in _LOBS):
        raise EngineError(sc.FUNC_KEY_FUNCTION, near=key.name)
    if _variant(dc.conn, routine.procid):
        raise EngineError(sc.FUNC_KEY_VARIANT, near=key.name)
    if _has_dml(routine):
        raise EngineError(sc.FUNC_KEY_FUNCTION, near=key.name)
    return KeyPart(0, routine.procid, [c.colno for c in columns], key.descending)


def _builtin(name: str) -> bool:
    """Whether ``name`` is a function the SQL layer knows without a routine."""
    upper = name.upper()
    return (upper in builtins.FUNCTIONS or upper in TRANSLATION.functions
            or upper in exp.FUNCTION_BY_NAME)


def _argument(info: TableInfo, arg: exp.Expr) -> ColumnInfo:
    """A functional key's argument: a column of the table, not of a collection type."""
    col = None
    if isinstance(arg, exp.Column) and arg.table in ("", info.name):
        col = info.by_name.get(arg.name)
    if col is None or col.type.code in _COLLECTIONS:
        raise EngineError(sc.FUNC_KEY_ARGUMENT)
    return col


def _variant(conn: sqlite3.Connection, procid: int) -> bool:
    """sysprocedures.variant: CREATE FUNCTION writes 0 only for WITH (NOT VARIANT)."""
    row = conn.execute("SELECT variant FROM sysprocedures WHERE procid = ?",
                       (procid,)).fetchone()
    return row is None or str(row[0]).strip().lower() not in ("0", "f", "false")


def _has_dml(routine: Routine) -> bool:
    """Whether the routine's body holds a DML statement: SQL that reads or writes a table
    (a subquery in an expression too), or dynamic SQL, which could be any statement
    [inference: "cannot include any DML statement", ids_sqs_0408]."""
    body = routine.parsed if isinstance(routine.parsed, a.RoutineBody) else parse_routine(
        routine.text, routine.delimident)[1]
    for node in _walk(body.block):
        if isinstance(node, (a.ExecImmediate, a.Prepare)):
            return True
        if isinstance(node, a.Sql):
            word = node.text.lstrip("( \t\r\n").split(" ", 1)[0].upper()
            if word in _DML_WORDS or isinstance(node.tree, (
                    exp.Query, exp.Insert, exp.Update, exp.Delete, exp.Merge)):
                return True
        if isinstance(node, exp.Expr) and node.find(exp.Query, exp.Insert, exp.Update,
                                                    exp.Delete) is not None:
            return True
    return False


def _walk(node: object) -> Iterator[object]:
    """Every SPL node and expression under ``node`` (fields of any node class: a new kind
    of statement is looked into without being named here)."""
    stack, seen = [node], set()
    while stack:
        item = stack.pop()
        if isinstance(item, exp.Expr):
            yield item
        elif isinstance(item, a.Node) and id(item) not in seen:  # (a jump names its loop)
            seen.add(id(item))
            yield item
            stack.extend(v for k, v in vars(item).items() if k not in ("cache", "scope"))
        elif isinstance(item, (list, tuple)):
            stack.extend(item)


# ---- other statements -----------------------------------------------------------------------
def check_drop(conn: sqlite3.Connection, procid: int, name: str) -> None:
    """DROP FUNCTION / PROCEDURE / ROUTINE of a routine a functional index uses: -705.
    "You cannot drop a UDR that is in use by some database function, such as ... an operator
    class" (ids_udr_314) [inference that an index counts; the code is our guess]."""
    for (keys,) in conn.execute(f"SELECT indexkeys FROM sysindices WHERE {FUNCTIONAL}"):
        if any(p.procid == procid for p in parse_keys(keys)):
            raise EngineError(sc.ROUTINE_IN_USE, near=name)


def set_aside(conn: sqlite3.Connection, tabid: int) -> list[dict[str, object]]:
    """ALTER TABLE's rebuild: the table's functional indexes' rows, taken out of sysindices
    (the rebuild makes the other indexes again from their column parts)."""
    cur = conn.execute(f"SELECT * FROM sysindices WHERE tabid = ? AND {FUNCTIONAL}", (tabid,))
    names = [d[0] for d in cur.description]
    rows = [dict(zip(names, r, strict=True)) for r in cur.fetchall()]
    conn.execute(f"DELETE FROM sysindices WHERE tabid = ? AND {FUNCTIONAL}", (tabid,))
    return rows


def put_back(conn: sqlite3.Connection, rows: list[dict[str, object]],
             old_to_new: dict[int, int]) -> None:
    """The rows ``set_aside`` took, with the new column numbers; an index one of whose
    columns is gone goes with it, as Informix drops an index whose column is dropped."""
    for row in rows:
        parts = parse_keys(str(row["indexkeys"]))
        used = [p.colno for p in parts if not p.procid] + [n for p in parts for n in p.args]
        if any(n not in old_to_new for n in used):
            conn.execute("DELETE FROM sysfragments WHERE fragtype = 'I' AND indexname = ?",
                         (row["idxname"],))
            conn.execute("DELETE FROM sysobjstate WHERE objtype = 'I' AND name = ? AND "
                         "tabid = ?", (row["idxname"], row["tabid"]))
            continue
        for p in parts:
            p.colno = old_to_new.get(p.colno, 0)
            p.args = [old_to_new[n] for n in p.args]
        row["indexkeys"] = ", ".join(p.text() for p in parts)
        numbers = [p.part for p in parts] + [0] * 16
        row.update({f"part{i}": numbers[i - 1] for i in range(1, 17)})
        names = ", ".join(quote(k) for k in row)
        conn.execute(f"INSERT INTO sysindices ({names}) VALUES ({', '.join('?' * len(row))})",
                     list(row.values()))
