"""The smart-LOB routines: FILETOBLOB, FILETOCLOB, LOTOFILE, LOCOPY and the ``ifx_lo_*`` family.

Each routine is defined once (``BUILTINS``) and reached two ways:

* from SQL, where the translator turns the call into ``ifx_lo_call('name', args…)`` typed with
  the routine's result (``sql_handlers``), and the SQLite function runs it for the session;
* by fast path (``routine_call.py``), with the signature strings JDBC sends
  (``function informix.ifx_lo_open(blob ,integer)`` … , ``IfxSmartBlob`` constants) and every
  return value (``ifx_lo_create`` returns the locator and an open descriptor).

The semantics are those of the Informix SQL functions (Guide to SQL: Syntax, "Smart-Large-Object
Functions") and of the ESQL/C ``ifx_lo_*`` calls JDBC mirrors; descriptors and data access are in
``lo_session.py``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlglot import exp

from .....protocol.codes import XID_BLOB, XID_CLOB, TypeCode
from .....protocol.columns import ColumnDesc
from .....types import smartlob as slo
from .....types.fpvalues import udt_desc
from ...core import ifxtypes as it
from ...core import sqlcodes as sc
from ...core.errors import EngineError
from ...core.ifxtypes import IfxType
from ...sql.exprs import func, ty, typed
from ...sql.hooks import TRANSLATION
from .lo_session import LoSession, lotofile_name
from .lobstore import DEFAULT_SBSPACE, stale_locator

if TYPE_CHECKING:
    from ...sql.exprs import ExprTranslator
    from ...sql.functions import FunctionSlot

T = TypeCode
BLOB = IfxType(T.BLOB)
CLOB = IfxType(T.CLOB)
LVARCHAR = IfxType(T.LVARCHAR, size=32739)

_INT = ColumnDesc("", int(T.INTEGER), 4)
_INT8 = ColumnDesc("", int(T.INT8), 10)
_LVARCHAR = ColumnDesc("", int(T.LVARCHAR), 32739)
_BLOB = udt_desc("blob", slo.LOCATOR_SIZE)
_CLOB = udt_desc("clob", slo.LOCATOR_SIZE)
_SPEC = udt_desc("ifx_lo_spec", slo.LO_SPEC_SIZE)
_STAT = udt_desc("ifx_lo_stat", slo.LO_STAT_SIZE)

Run = Callable[[LoSession, list[Any]], list[Any]]


@dataclass(frozen=True, slots=True)
class Builtin:
    """A built-in routine: parameter type names (as in signatures), return types, body."""

    name: str
    params: tuple[str, ...]
    returns: tuple[ColumnDesc, ...]
    run: Run
    writes: bool = False
    sql_result: IfxType | None = None  # callable from SQL with this result type


def _int(value: object, what: str = "argument") -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise EngineError(sc.NO_CONVERSION, message=f"{what} must be an integer")
    return value


def _locator(value: object) -> bytes:
    if isinstance(value, str):
        try:
            value = bytes.fromhex(value)
        except ValueError:
            raise stale_locator() from None
    if not isinstance(value, (bytes, bytearray, memoryview)):
        raise EngineError(sc.LO_ERROR, sc.ISAM_LO_BAD_HANDLE)
    return bytes(value)


def _text(value: object) -> str:
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return "" if value is None else str(value)


# ---- bodies -----------------------------------------------------------------------------------
def _col_sbinfo(ls: LoSession, a: list[Any]) -> list[Any]:
    """``ifx_lo_col_sbinfo(lvarchar 'table.column', ifx_lo_spec)``: the column's storage spec."""
    name = _text(a[0]).strip()
    table, _, column = name.rpartition(".")
    table = table.rpartition(".")[2].strip('"').lower()
    column = column.strip('"').lower()
    info = ls.es.resolve(table, None, None, 0)
    col = info.by_name.get(column)
    if col is None:
        raise EngineError(sc.NO_COLUMN, near=column)
    if not col.type.is_smart_lob:
        raise EngineError(sc.NOT_LO_COLUMN, near=column)
    return [slo.build_lo_spec(DEFAULT_SBSPACE)]


def _create(ls: LoSession, a: list[Any]) -> list[Any]:
    """``ifx_lo_create(ifx_lo_spec, integer flags, blob)`` → (blob, integer fd), open."""
    spec = a[0]
    sbspace = slo.lo_spec_sbspace(spec) if isinstance(spec, (bytes, bytearray)) else ""
    flags = slo.LO_RDWR if a[1] is None else _int(a[1], "flags")
    locator, fd = ls.create(XID_BLOB, flags, sbspace)
    return [locator, fd]


def _open(ls: LoSession, a: list[Any]) -> list[Any]:
    return [ls.open(_locator(a[0]), _int(a[1], "flags"))]


def _close(ls: LoSession, a: list[Any]) -> list[Any]:
    return [ls.close(a[0])]


def _release(ls: LoSession, a: list[Any]) -> list[Any]:
    return [ls.release(_locator(a[0]))]


def _seek(ls: LoSession, a: list[Any]) -> list[Any]:
    return [ls.seek(a[0], _int(a[1], "offset"), _int(a[2], "whence"))]


def _tell(ls: LoSession, a: list[Any]) -> list[Any]:
    return [ls.tell(a[0])]


def _truncate(ls: LoSession, a: list[Any]) -> list[Any]:
    return [ls.truncate(a[0], _int(a[1], "size"))]


def _stat(ls: LoSession, a: list[Any]) -> list[Any]:
    return [ls.stat(a[0])]


def _lock(ls: LoSession, a: list[Any]) -> list[Any]:
    ls.tell(a[0])  # the descriptor must be open; byte-range locks are not emulated
    return [0]


def _alter(ls: LoSession, a: list[Any]) -> list[Any]:
    ls.kind_of(_locator(a[0]))
    return [0]


def _from_file(ls: LoSession, a: list[Any]) -> list[Any]:
    """``ifx_lo_from_file(fd, file, flags, offset, amount)``: append a file to an open LO."""
    fd = a[0]
    flags = _int(a[2], "flags")
    where = "client" if flags & slo.LO_CLIENT_FILE else "server"
    pieces = ls._file_source(_text(a[1]), where)
    return [ls.write_stream(fd, -1, pieces)]


def _to_file(ls: LoSession, a: list[Any]) -> list[Any]:
    """``ifx_lo_to_file(blob, file, flags, ...)``: the LO into a file; returns its name."""
    flags = _int(a[2], "flags")
    where = "client" if flags & slo.LO_CLIENT_FILE else "server"
    return [ls.lo_to_file(_locator(a[0]), _text(a[1]) + "!", where)]


def _filename(ls: LoSession, a: list[Any]) -> list[Any]:
    return [lotofile_name(_text(a[1]), ls.store().find(_locator(a[0])).loid)]


def _filetolo(kind: int) -> Run:
    def run(ls: LoSession, a: list[Any]) -> list[Any]:
        return [ls.file_to_lo(_text(a[0]), _text(a[1]), kind)]
    return run


def _lotofile(ls: LoSession, a: list[Any]) -> list[Any]:
    return [ls.lo_to_file(_locator(a[0]), _text(a[1]), _text(a[2]))]


def _locopy(ls: LoSession, a: list[Any]) -> list[Any]:
    return [ls.copy(_locator(a[0]))]


def _size(ls: LoSession, a: list[Any]) -> list[Any]:
    return [ls.size(a[0])]


BUILTINS: dict[str, Builtin] = {b.name: b for b in (
    Builtin("ifx_lo_col_sbinfo", ("lvarchar", "ifx_lo_spec"), (_SPEC,), _col_sbinfo),
    Builtin("ifx_lo_create", ("ifx_lo_spec", "integer", "blob"), (_BLOB, _INT), _create, True),
    Builtin("ifx_lo_open", ("blob", "integer"), (_INT,), _open, sql_result=it.INTEGER),
    Builtin("ifx_lo_close", ("integer",), (_INT,), _close, sql_result=it.INTEGER),
    Builtin("ifx_lo_release", ("blob",), (_INT,), _release, True, sql_result=it.INTEGER),
    Builtin("ifx_lo_seek", ("integer", "int8", "integer", "int8"), (_INT8,), _seek),
    Builtin("ifx_lo_tell", ("integer", "int8"), (_INT8,), _tell),
    Builtin("ifx_lo_truncate", ("integer", "int8"), (_INT,), _truncate, True,
            sql_result=it.INTEGER),
    Builtin("ifx_lo_stat", ("integer", "ifx_lo_stat"), (_STAT,), _stat),
    Builtin("ifx_lo_lock", ("integer", "integer", "int8", "int8", "integer"), (_INT,), _lock),
    Builtin("ifx_lo_unlock", ("integer", "integer", "int8", "int8"), (_INT,), _lock),
    Builtin("ifx_lo_alter", ("blob", "ifx_lo_spec"), (_INT,), _alter),
    Builtin("ifx_lo_from_file", ("integer", "lvarchar", "integer", "integer", "integer"),
            (_INT,), _from_file, True),
    Builtin("ifx_lo_to_file", ("blob", "lvarchar", "integer", "integer"), (_LVARCHAR,),
            _to_file),
    Builtin("ifx_lo_filename", ("blob", "lvarchar"), (_LVARCHAR,), _filename),
    Builtin("ifx_lo_size", ("integer",), (_INT8,), _size, sql_result=it.INT8),
    Builtin("filetoblob", ("lvarchar", "lvarchar"), (_BLOB,), _filetolo(XID_BLOB), True,
            sql_result=BLOB),
    Builtin("filetoclob", ("lvarchar", "lvarchar"), (_CLOB,), _filetolo(XID_CLOB), True,
            sql_result=CLOB),
    Builtin("lotofile", ("blob", "lvarchar", "lvarchar"), (_LVARCHAR,), _lotofile,
            sql_result=LVARCHAR),
    Builtin("locopy", ("blob",), (_BLOB,), _locopy, True, sql_result=BLOB),
)}


def run_builtin(ls: LoSession, b: Builtin, args: list[Any]) -> list[Any]:
    """Run a built-in routine called by fast path (its writes commit alone outside a
    transaction)."""
    if len(args) < len(b.params):
        args = args + [None] * (len(b.params) - len(args))
    if b.writes:
        return ls.es.run_write(lambda: b.run(ls, args))
    return b.run(ls, args)


# ---- SQLite functions ---------------------------------------------------------------------------
def make_lo_functions(slot: FunctionSlot) -> dict[str, tuple[int, Callable[..., object], bool]]:
    """``ifx_lo_call`` (a routine called from SQL) and ``ifx_lo_stale`` (the reference-count
    triggers' error for a locator of an object that does not exist)."""

    def ifx_lo_call(name: str, *args: object) -> object:
        b = BUILTINS[name]
        ls: LoSession = slot.state.lo
        ls.sql_depth += 1
        try:
            values = list(args)
            if b.params and b.params[0] in ("blob",) and values and values[0] is None:
                return None
            result = b.run(ls, values + [None] * (len(b.params) - len(values)))
        finally:
            ls.sql_depth -= 1
        return result[0]

    def ifx_lo_stale(locator: object) -> object:
        raise stale_locator()

    return {
        "ifx_lo_call": (-1, ifx_lo_call, False),
        "ifx_lo_stale": (1, ifx_lo_stale, False),
    }


# ---- SQL translation ----------------------------------------------------------------------------
_ARG_TYPES: dict[str, IfxType] = {
    "integer": it.INTEGER, "int8": it.INT8, "lvarchar": LVARCHAR,
}


def _sql_handler(b: Builtin) -> Callable[[ExprTranslator, exp.Anonymous], exp.Expr]:
    def handler(tx: ExprTranslator, node: exp.Anonymous) -> exp.Expr:
        raw = list(node.expressions)
        # LOCOPY(lob [, table, column]) and FILETOBLOB(file, where [, table, column]): the
        # table/column only choose storage characteristics, which are not emulated.
        extra = 2 if b.name in ("locopy", "filetoblob", "filetoclob") else 0
        if not len(b.params) <= len(raw) <= len(b.params) + extra:
            raise EngineError(sc.NO_ROUTINE, near=b.name)
        args: list[exp.Expr] = []
        result = b.sql_result
        for i, arg in enumerate(raw[: len(b.params)]):
            new = tx.tx(arg)
            want = b.params[i]
            if want == "blob":
                t = ty(new)
                if not t.is_smart_lob and t.code != -1 and not new.meta.get("null"):
                    raise EngineError(sc.NO_CONVERSION)
                if b.name == "locopy" and t.is_smart_lob:
                    result = t.nullable()
                if t.code == -1 and isinstance(new, exp.Placeholder):
                    new.meta["pt"] = BLOB
                    new = typed(new, BLOB)
            elif want in _ARG_TYPES:
                new = tx.convert(new, _ARG_TYPES[want])
            args.append(new)
        for arg in raw[len(b.params):]:
            tx.tx(arg)  # validated, not used
        assert result is not None
        return typed(func("ifx_lo_call", exp.Literal.string(b.name), *args), result.nullable())

    return handler


def sql_handlers() -> dict[str, Callable[[ExprTranslator, exp.Anonymous], exp.Expr]]:
    """Handlers for ``functions_sql``: the routines callable from SQL, by upper-case name."""
    return {b.name.upper(): _sql_handler(b) for b in BUILTINS.values() if b.sql_result}


__all__ = ["BUILTINS", "Builtin", "make_lo_functions", "run_builtin", "sql_handlers"]


# The SQL translation (sql layer) calls these through its hooks (sql/hooks.py).
TRANSLATION.lo_functions = make_lo_functions
TRANSLATION.functions.update(sql_handlers())
