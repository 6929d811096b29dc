"""The SQL engine of ifxwire-server: Informix SQL executed by SQLite.

The wire/session layer talks to exactly this interface (it imports nothing else of the
engine; tests/unit/test_layers.py holds it to that, and the engine to its layers:
core -> schema -> sql -> features -> session, docs/ARCHITECTURE.md):

* ``Engine(data_dir, server_name=…, version=…)`` owns the databases under ``data_dir`` (one
  SQLite file per database, plus ``sysmaster``) and hands out one ``EngineSession`` per client
  connection (``Engine.session(user, env)``).
* ``EngineSession.prepare(sql)`` -> ``Prepared`` (statement type, described columns and
  parameters), ``execute`` / ``open_cursor`` run it, ``begin`` / ``commit`` / ``rollback``,
  ``open_database`` / ``close_database`` implement SQ_BEGIN … SQ_DBCLOSE.
* Every failure a client can see is an ``EngineError`` carrying the Informix sqlcode, ISAM code,
  near text and offset (the table of codes and their evidence is ``sqlcodes.py``).

Behaviour worth knowing (details in the module docstrings):

* Strings longer than a CHAR/VARCHAR column are truncated on INSERT/UPDATE in non-ANSI databases,
  exactly as Informix does; ANSI databases raise -1279. The driver, not the server, is where
  "never silently truncate" is enforced.
* DECIMAL/MONEY are exact to 32 digits (stored as canonical text, compared by a numeric
  collation, computed with Python ``decimal``); see ``values.py``.
* Readers never block: they see the last committed data (Informix "COMMITTED READ LAST
  COMMITTED"). Writers are serialised per database (SQLite has one writer per file); a conflict
  waits per SET LOCK MODE and then fails with the Informix lock errors; see ``session.py``.
"""

from __future__ import annotations

from .core import sqlcodes
from .core.errors import EngineError
from .core.values import BlobRef
from .features import cdc as _cdc  # noqa: F401  (registers its hooks)
from .features import routine_call
from .features.composite_text import text_encoder
from .features.lobs.lo_session import LoSession
from .features.lobs.lobstore import CHUNK, INLINE_MAX
from .schema.catalog import TableInfo
from .session.engine import Engine
from .session.session import EngineSession
from .sql.functions import FunctionState
from .sql.plan import with_start_offsets
from .sql.prepared import ExecResult, Prepared

__all__ = [
    "CHUNK",
    "INLINE_MAX",
    "BlobRef",
    "Engine",
    "EngineError",
    "EngineSession",
    "ExecResult",
    "FunctionState",
    "LoSession",
    "Prepared",
    "TableInfo",
    "routine_call",
    "sqlcodes",
    "text_encoder",
    "with_start_offsets",
]
