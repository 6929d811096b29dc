"""The ``syscdcv1`` catalogue tables and ``cdc_errortext``'s messages.

IBM/HCL's CDC API Programmer's Guide ("Change Data Capture API components", G-053): "The
system tables store information about Change Data Capture API error codes and record types":
``syscdcerrcodes`` and ``syscdcrectypes``, which an application queries to map the symbolic
names to numbers ("Handling errors", G-058). On Informix a DBA creates them with
``$INFORMIXDIR/etc/syscdcv1.sql``; here they are made (owner informix) the first time a
session opens ``syscdcv1`` (``ensure``), so ``CREATE DATABASE syscdcv1 WITH LOG`` is all the
setup, as before.

Columns: IBM's CDC sample program (``cdcapi.ec``, "Licensed Materials - Property of IBM",
2008-2009) reads ``SELECT recnum, recname, recdesc FROM syscdcrectypes`` and ``SELECT errcode,
errname, errdesc FROM syscdcerrcodes`` into an INTEGER and two VARCHARs; the widths are ours
[inferred]. Rows: the symbolic names and their order are the guide's ("Change Data Capture
error codes", G-050); the numbers and texts are IBM JDBC 15.0.0.1's
``com/informix/msg/cdc_en_US.properties``, matched to the names by their text. Codes whose
symbolic name our sources do not give (-83714, -83792 and above, among them -83799
"Unimplemented feature") have no row rather than an invented name; docs/CDC_SERVER.md lists them.
Record types: the guide's record names and the numbers of JDBC's ``Constants``.
"""

from __future__ import annotations

import logging
import threading
import weakref
from typing import Any

from .....protocol import cdc as rec
from .....protocol.codes import DBFLAG_LOGGED
from ...core.errors import EngineError

log = logging.getLogger("ifxwire.server.cdc")

#: (errcode, errname, errdesc): G-050's names, JDBC's numbers and texts.
ERRCODES: list[tuple[int, str, str]] = [
    (0, "CDC_E_OK", "Operation succeeded."),
    (-83701, "CDC_E_NOCDCDB", "The syscdcv1 database does not exist."),
    (-83702, "CDC_E_APIVERS",
     "The requested CDC API behavior version is not valid or is unsupported."),
    (-83703, "CDC_E_NODB", "The specified database does not exist."),
    (-83704, "CDC_E_DBNOTLOGGED", "The specified database is not logged."),
    (-83705, "CDC_E_NOTAB", "The specified table does not exist."),
    (-83706, "CDC_E_TABPROPERTIES", "The table properties do not support capture: it is a "
     "temporary table, a view, or otherwise not logged."),
    (-83707, "CDC_E_NOCOL", "The specified column does not exist."),
    (-83708, "CDC_E_NOSES", "The specified CDC session does not exist."),
    (-83709, "CDC_E_NOREOPEN", "The CDC session cannot be reopened."),
    (-83710, "CDC_E_TABCAPTURED",
     "The specified table is already being captured by the CDC session."),
    (-83711, "CDC_E_TABNOTCAPTURED",
     "The specified table is not being captured by the CDC session."),
    (-83712, "CDC_E_ARGNULL",
     "An argument to the function has the SQL NULL value, which is not allowed."),
    (-83713, "CDC_E_LSN",
     "Data at the requested log sequence number is not available for capture."),
    (-83715, "CDC_E_DUPLSESS", "A CDC session is already active."),
    (-83720, "CDC_E_ARG", "A parameter passed to the function is not valid."),
    (-83721, "CDC_E_ARG1", "The first parameter passed to the function is not valid."),
    (-83722, "CDC_E_ARG2", "The second parameter passed to the UDR is not valid."),
    (-83723, "CDC_E_ARG3", "The third parameter passed to the UDR is not valid."),
    (-83724, "CDC_E_ARG4", "The fourth parameter passed to the UDR is not valid."),
    (-83725, "CDC_E_ARG5", "The fifth parameter passed to the UDR is not valid."),
    (-83726, "CDC_E_ARG6", "The sixth parameter passed to the UDR is not valid."),
    (-83790, "CDC_E_INTERNAL", "Internal error. Contact support."),
    (-83791, "CDC_E_NOMEM", "Memory allocation failed."),
]

#: (recnum, recname, recdesc): the guide's record names (one page each, G-030...G-041).
RECTYPES: list[tuple[int, str, str]] = [
    (rec.BEGINTX, "CDC_REC_BEGINTX", "A transaction began."),
    (rec.COMMTX, "CDC_REC_COMMTX", "A transaction committed."),
    (rec.RBTX, "CDC_REC_RBTX", "A transaction rolled back."),
    (rec.INSERT, "CDC_REC_INSERT", "The row an INSERT added."),
    (rec.DELETE, "CDC_REC_DELETE", "The row a DELETE removed."),
    (rec.UPDBEF, "CDC_REC_UPDBEF", "A row before an UPDATE."),
    (rec.UPDAFT, "CDC_REC_UPDAFT", "A row after an UPDATE."),
    (rec.DISCARD, "CDC_REC_DISCARD", "Records of a transaction are to be discarded."),
    (rec.TRUNCATE, "CDC_REC_TRUNCATE", "A TRUNCATE emptied a captured table."),
    (rec.TABSCHEMA, "CDC_REC_TABSCHEMA", "The columns of a captured table."),
    (rec.TIMEOUT, "CDC_REC_TIMEOUT", "No change arrived within the session's timeout."),
    (rec.ERROR, "CDC_REC_ERROR", "An error occurred in the capture session."),
]

TABLES: dict[str, tuple[str, list[tuple[int, str, str]]]] = {
    "syscdcerrcodes": ("errcode INTEGER, errname VARCHAR(32), errdesc VARCHAR(255)",
                       ERRCODES),
    "syscdcrectypes": ("recnum INTEGER, recname VARCHAR(32), recdesc VARCHAR(255)",
                       RECTYPES),
}

#: cdc_errortext's failures (G-066 "Return values": "23109: Invalid locale specification",
#: "1824: Message cannot be found"; Informix reports errors as negative SQLCODEs).
E_LOCALE = -23109
E_NOMSG = -1824

_BY_NAME = {name: text for _, name, text in ERRCODES}


def errortext(name: object, locale: object) -> str:
    """``cdc_errortext(error_name, locale_name)`` (G-066): the text of a symbolic error name.
    The texts here are English: a NULL or empty locale (the default) or an ``en_us`` one
    gives them; another locale is refused as not found (-23109) rather than answered in a
    language it did not ask for."""
    loc = "" if locale is None else str(locale).strip().lower()
    if loc and not loc.startswith("en_us"):
        raise EngineError(E_LOCALE, near=str(locale),
                          message=f"Invalid locale specification ({locale}).")
    text = _BY_NAME.get(str(name or "").strip().upper())
    if text is None:
        raise EngineError(E_NOMSG, near=str(name),
                          message=f"Message cannot be found ({name}).")
    return text


_DONE: weakref.WeakSet[Any] = weakref.WeakSet()
_LOCK = threading.Lock()


def ensure(engine: Any, database: str) -> None:
    """The first time ``syscdcv1`` is opened in a server process: create its catalogue
    tables, with their rows, if they are missing (their own session, so the opener's
    transaction is not touched). A failure is logged and tried again at the next open."""
    if database != "syscdcv1" or engine in _DONE:
        return
    with _LOCK:
        if engine in _DONE:
            return
        _DONE.add(engine)  # before the inner open, which comes back here
        try:
            _create(engine)
        except Exception as e:  # the opener's DATABASE must not fail for the catalogue
            _DONE.discard(engine)
            log.error("CDC: the syscdcv1 catalogue tables could not be made: %s", e)


def _create(engine: Any) -> None:
    s = engine.session("informix", {})
    try:
        s.open_database("syscdcv1")
        have = set(s.current_schema().tables)
        missing = [t for t in TABLES if t not in have]
        if not missing:
            return
        logged = bool(s.db_flags & DBFLAG_LOGGED)
        if logged:
            s.execute(s.prepare("BEGIN WORK"), [])
        for name in missing:
            cols, rows = TABLES[name]
            s.execute(s.prepare(f"CREATE TABLE informix.{name} ({cols})"), [])
            ins = s.prepare(f"INSERT INTO informix.{name} VALUES (?, ?, ?)")
            for row in rows:
                s.execute(ins, list(row))
        if logged:
            s.execute(s.prepare("COMMIT WORK"), [])
    finally:
        s.close()
