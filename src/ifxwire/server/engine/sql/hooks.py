"""The statements whose grammar belongs to a feature, parsed by the feature itself.

CREATE/DROP of routines, triggers, ROW and DISTINCT types and EXECUTE PROCEDURE are read by
the feature that runs them (features/spl, triggers.py, composite.py, distinct.py). The SQL
layer lies below the features (docs/ARCHITECTURE.md, "The engine's layers"), so the statement
parser calls them through these slots, which each feature fills when it is imported; the
engine package imports every feature before a statement is parsed. A slot still empty when
used is a feature never loaded: an internal error, said as such.

``p`` is the statement parser (statements.py ``Informix.Parser``), positioned as each slot
says; each returns the feature's statement spec, which ``_stmt`` wraps.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NoReturn

if TYPE_CHECKING:
    from ..core.ifxtypes import IfxType


def _unregistered(*args: object) -> NoReturn:
    raise RuntimeError("an engine feature did not register its statement parsers; "
                       "import ifxwire.server.engine, which loads them all")


@dataclass
class FeatureParsers:
    """One slot per statement form; the module that fills it is named."""

    #: spl/parser.py: DROP [SPECIFIC] PROCEDURE|FUNCTION|ROUTINE ..., (p at the kind, kind);
    #: also the routine of GRANT/REVOKE EXECUTE ON
    drop_routine: Callable[[Any, str], Any] = _unregistered
    #: spl/parser.py: EXECUTE PROCEDURE|FUNCTION ... (p at EXECUTE)
    call: Callable[[Any], Any] = _unregistered
    #: spl/catalog.py: a whole CREATE PROCEDURE|FUNCTION statement, (text, delimident)
    create_routine: Callable[[str, bool], Any] = _unregistered
    #: triggers.py: CREATE TRIGGER (p at TRIGGER) and DROP TRIGGER (p at TRIGGER)
    create_trigger: Callable[[Any], Any] = _unregistered
    drop_trigger: Callable[[Any], Any] = _unregistered
    #: composite.py: CREATE ROW TYPE, DROP ROW TYPE (p at ROW)
    create_row_type: Callable[[Any], Any] = _unregistered
    drop_row_type: Callable[[Any], Any] = _unregistered
    #: composite.py: a named ROW type in a column definition, before the catalogue resolves it
    named_placeholder: Callable[[str], IfxType] = _unregistered
    #: distinct.py: CREATE DISTINCT TYPE (p at DISTINCT), DROP TYPE (p at TYPE)
    create_distinct_type: Callable[[Any], Any] = _unregistered
    drop_type: Callable[[Any], Any] = _unregistered


PARSERS = FeatureParsers()
