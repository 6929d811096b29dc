"""The catalogue rows that features keep, read and written by the features themselves.

The catalogue (the schema layer) lies below the features (docs/ARCHITECTURE.md, "The engine's
layers"), so it does not import them: each feature puts its functions into ``FEATURES`` when it
is imported, and the engine package imports every feature before any database opens
(``ifxwire.server.engine.__init__``). A slot still empty when the catalogue needs it is a
feature that was never loaded: an internal error, said as such rather than guessed around.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NoReturn

from ..core.ifxtypes import IfxType
from .routines import Routine
from .triggers import Trigger


def _unregistered(*args: object) -> NoReturn:
    raise RuntimeError("an engine feature did not register its catalogue functions; "
                       "import ifxwire.server.engine, which loads them all")


@dataclass
class FeatureCatalog:
    """One slot per catalogue duty of a feature; the module that fills it is named."""

    #: smart large objects (features/lobs/lobstore.py): their private tables in a new database
    lob_schema: Callable[[sqlite3.Connection], None] = _unregistered
    #: SPL (features/spl/catalog.py): routines by name (overloads) and by procid
    routines: Callable[[sqlite3.Connection, str],
                       tuple[dict[str, list[Routine]], dict[int, Routine]]] = _unregistered
    #: triggers (features/triggers.py): by table name
    triggers: Callable[[sqlite3.Connection, str], dict[str, list[Trigger]]] = _unregistered
    #: DISTINCT types (features/distinct.py): by name, as a column of one is typed
    distinct_types: Callable[[sqlite3.Connection, str], dict[str, IfxType]] = _unregistered
    #: ROW and collection types (features/composite.py): catalogued types by extended_id
    complex_types: Callable[[sqlite3.Connection, str], dict[int, Any]] = _unregistered
    #: ... the IfxType of one such type, (type, NOT NULL, extended_id)
    complex_type: Callable[[Any, bool, int], IfxType] = _unregistered
    #: ... named ROW placeholders replaced by their structure
    resolve_named: Callable[[sqlite3.Connection, IfxType], IfxType] = _unregistered
    #: ... a column type's sysxtdtypes row: (connection, type, owner) -> extended_id
    catalog_type: Callable[[sqlite3.Connection, IfxType, str], int] = _unregistered
    #: ... a typed table's columns: (connection, named ROW type) -> (extended_id, fields)
    row_type_columns: Callable[[sqlite3.Connection, str],
                               tuple[int, list[tuple[str, IfxType]]]] = _unregistered


FEATURES = FeatureCatalog()
