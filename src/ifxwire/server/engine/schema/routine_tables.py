"""The catalog tables of routines and triggers, with Informix 14.10's columns and types.

Columns follow the Guide to SQL: Reference (SYSPROCEDURES, SYSPROCBODY, SYSPROCPLAN,
SYSPROCAUTH, SYSPROCCOLUMNS, SYSTRIGGERS, SYSTRIGBODY). ``sysprocedures.paramtypes`` is the
opaque RTNPARAMTYPES type on a real server; here it is LVARCHAR holding the type list as
dbaccess displays it (``integer,char(10)``).
"""

from __future__ import annotations

from ....protocol.codes import TypeCode
from ..core import ifxtypes as it
from ..core.ifxtypes import IfxType

T = TypeCode
_SI = it.SMALLINT
_I = it.INTEGER


def _c(n: int) -> IfxType:
    return IfxType(T.CHAR, size=n)


def _v(n: int) -> IfxType:
    return IfxType(T.VARCHAR, size=n)


SPL_TABLES: list[tuple[int, str, list[tuple[str, IfxType]]]] = [
    (16, "sysprocedures", [
        ("procname", _v(128)), ("owner", _v(32)), ("procid", IfxType(T.SERIAL)),
        ("mode", _c(1)), ("retsize", _I), ("symsize", _I), ("datasize", _I), ("codesize", _I),
        ("numargs", _I), ("isproc", _c(1)), ("specificname", _v(128)),
        ("externalname", _v(255)), ("paramstyle", _c(1)), ("langid", _I),
        ("paramtypes", IfxType(T.LVARCHAR, size=2048)), ("variant", it.BOOLEAN),
        ("client", it.BOOLEAN), ("handlesnulls", it.BOOLEAN), ("iterator", it.BOOLEAN),
        ("percallcost", _I), ("commutator", _v(128)), ("negator", _v(128)),
        ("selfunc", _v(128)), ("internal", it.BOOLEAN), ("class", _c(18)), ("stack", _I),
        ("parallelizable", it.BOOLEAN), ("costfunc", _v(128)), ("selconst", it.SMALLFLOAT),
        ("collation", _c(32)), ("procflags", _I),
    ]),
    (17, "sysprocbody", [
        ("procid", _I), ("datakey", _c(1)), ("seqno", _I), ("data", _c(256)),
    ]),
    (18, "sysprocplan", [
        ("procid", _I), ("planid", _I), ("datakey", _c(1)), ("seqno", _I),
        ("created", it.DATE), ("datasize", _I), ("data", _c(256)), ("collation", _c(32)),
    ]),
    (19, "sysprocauth", [
        ("grantor", _v(32)), ("grantee", _v(32)), ("procid", _I), ("procauth", _c(1)),
    ]),
    (22, "systriggers", [
        ("trigid", IfxType(T.SERIAL)), ("trigname", _v(128)), ("owner", _v(32)),
        ("tabid", _I), ("event", _c(1)), ("old", _v(128)), ("new", _v(128)), ("mode", _c(1)),
        ("collation", _c(32)),
    ]),
    (23, "systrigbody", [
        ("trigid", _I), ("datakey", _c(1)), ("seqno", _I), ("data", _c(256)),
    ]),
    (60, "sysproccolumns", [
        ("procid", _I), ("paramid", _I), ("paramname", _v(128)), ("paramtype", _SI),
        ("paramlen", _SI), ("paramxid", _I), ("paramattr", _I),
    ]),
]

# Private bookkeeping: the parsed header of each routine and trigger (JSON), so loading a
# schema does not re-parse every CREATE text.
PRIVATE_TABLES = ("_ifx_proc", "_ifx_trig")
PRIVATE_DDL = (
    "CREATE TABLE IF NOT EXISTS _ifx_proc (procid INTEGER PRIMARY KEY, meta TEXT)",
    "CREATE TABLE IF NOT EXISTS _ifx_trig (trigid INTEGER PRIMARY KEY, tabname TEXT, "
    "meta TEXT)",
)

CHUNK = 256  # sysprocbody.data / systrigbody.data are CHAR(256): text is stored in pieces


def chunks(text: str) -> list[str]:
    return [text[i : i + CHUNK] for i in range(0, len(text), CHUNK)] or [""]
