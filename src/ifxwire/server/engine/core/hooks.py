"""What the core asks of two features, without importing them.

An ``IfxType`` of a ROW or collection type describes, names and converts itself through
composite types (features/composite.py), and a BLOB/CLOB value is checked by the smart large
object store (features/lobs/lobstore.py). The core is the lowest layer (docs/ARCHITECTURE.md,
"The engine's layers"), so those features put their functions here when they are imported; the
engine package imports every feature before any statement runs. A slot still empty when used
is a feature never loaded: an internal error, said as such.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NoReturn

if TYPE_CHECKING:
    from ....protocol.columns import ColumnDesc
    from .ifxtypes import IfxType
    from .values import ConvContext


def _unregistered(*args: object) -> NoReturn:
    raise RuntimeError("an engine feature did not register with the core; "
                       "import ifxwire.server.engine, which loads them all")


@dataclass
class CoreExtensions:
    """One slot per duty; the module that fills it is named."""

    #: composite.py: a ROW/collection column's description, (type, column name)
    describe_complex: Callable[[IfxType, str], ColumnDesc] = _unregistered
    #: composite.py: the compact text naming a ROW/collection type (``IfxType.key``) ...
    complex_key: Callable[[IfxType], str] = _unregistered
    #: ... and its inverse (``ifxtypes.from_key``)
    complex_from_key: Callable[[str], IfxType] = _unregistered
    #: composite.py: client value or another composite's storage -> the JSON storage text
    complex_storer: Callable[[IfxType, ConvContext, IfxType | None],
                             Callable[[object], object]] = _unregistered
    #: composite.py: JSON storage text -> the Python value the wire encoders take
    complex_loader: Callable[[IfxType], Callable[[object], object]] = _unregistered
    #: lobstore.py: a client's value for a BLOB/CLOB column -> its 72 locator bytes
    check_locator: Callable[[object], bytes] = _unregistered


EXTENSIONS = CoreExtensions()


def _no_capture(*args: object) -> None:
    return None


@dataclass
class CaptureHooks:
    """Change data capture (features/cdc/routines.py), called where DML runs
    (features/triggers.py ``run_dml``), where a transaction ends and where a smart large
    object is read (features/lobs/lo_session.py). Empty slots capture nothing."""

    #: (session, TableInfo) -> None, or a row hook (kind, old storage row, new storage row)
    dml: Callable[[Any, Any], Callable[[str, Any, Any], None] | None] = _no_capture
    #: the captured changes so far (session) -> mark, and dropping those after a mark
    mark: Callable[[Any], int] = lambda s: 0
    reset: Callable[[Any, int], None] = _no_capture
    #: (session, mark): the statement that took the mark succeeded
    unmark: Callable[[Any, int], None] = _no_capture
    #: (session, kind, name) just before SAVEPOINT name ("savepoint"), after ROLLBACK TO
    #: SAVEPOINT name ("rollback_savepoint"): the latter drops the rows captured since
    savepoint: Callable[[Any, str, str], None] = _no_capture
    #: (session, TableInfo) after TRUNCATE TABLE emptied it
    truncate: Callable[[Any, Any], None] = _no_capture
    #: (session) just before the database's COMMIT: the captured rows are stashed in it
    before_commit: Callable[[Any], None] = _no_capture
    #: (session) row locks: a statement of a transaction succeeded, its unit still open
    statement_done: Callable[[Any], None] = _no_capture
    #: (session) row locks: ROLLBACK WORK, inside the SQLite transaction applying the undo
    rl_rollback: Callable[[Any], None] = _no_capture
    #: (sqlite3 connection) a database's first open by this process, after undo recovery
    recover_database: Callable[[Any], None] = _no_capture
    #: (session) just before the database's ROLLBACK (of the transaction): rows it spilled
    #: into the database are read while they still exist
    before_rollback: Callable[[Any], None] = _no_capture
    #: (session, committed): the transaction's captured rows go to the change log
    txn_end: Callable[[Any, bool], None] = _no_capture
    #: (session, LO descriptor) -> the reader of a capture session with that id, or None
    lo_stream: Callable[[Any, object], Callable[[int], bytes] | None] = _no_capture
    #: (session): its database closed; its capture sessions go
    session_closed: Callable[[Any], None] = _no_capture
    #: (session) -> the change log's position (sysmaster:syslogs), a byte offset
    log_position: Callable[[Any], int] = lambda s: 0
    #: (engine, database name) after a session opened a database: syscdcv1 gets its
    #: catalogue tables (features/cdc/catalog.py)
    database_opened: Callable[[Any, str], None] = _no_capture


CAPTURE = CaptureHooks()
