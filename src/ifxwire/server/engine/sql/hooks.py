"""What the SQL layer asks of the features, without importing them.

``PARSERS``: the statements whose grammar belongs to a feature, parsed by the feature itself.

CREATE/DROP of routines, triggers, ROW and DISTINCT types and EXECUTE PROCEDURE are read by
the feature that runs them (features/spl, triggers.py, composite.py, distinct.py). The SQL
layer lies below the features (docs/ARCHITECTURE.md, "The engine's layers"), so the statement
parser calls them through these slots, which each feature fills when it is imported; the
engine package imports every feature before a statement is parsed. A slot still empty when
used is a feature never loaded: an internal error, said as such.

``p`` is the statement parser (statements.py ``Informix.Parser``), positioned as each slot
says; each returns the feature's statement spec, which ``_stmt`` wraps.

``TRANSLATION``: the parts of translating a statement that a feature owns -- ROW and collection
types in expressions and casts (composite.py), the smart large object functions
(lobs/lo_functions.py), SPL routines called from SQL (spl/), INSTEAD OF and Select triggers
(triggers.py, select_triggers.py) and DML on views (views.py). Filled the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NoReturn

if TYPE_CHECKING:
    from sqlglot import exp

    from ....types.complextype import ComplexType
    from ..core.ifxtypes import IfxType
    from ..schema.catalog import TableInfo
    from ..schema.routines import Routine
    from .exprs import ExprTranslator
    from .functions import FunctionSlot
    from .plan import Plan
    from .translate import Compiler

#: A function translating one SQL call node: (translator, node) -> typed expression.
Handler = Callable[["ExprTranslator", "exp.Anonymous"], "exp.Expr"]


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
    #: casts.py: CREATE [EXPLICIT | IMPLICIT] CAST (p after CREATE), DROP CAST (p at CAST)
    create_cast: Callable[[Any], Any] = _unregistered
    drop_cast: Callable[[Any], Any] = _unregistered


PARSERS = FeatureParsers()


@dataclass
class FeatureTranslation:
    """One slot per part of translation a feature owns; the module that fills it is named."""

    #: composite.py: the IfxType of a ROW/collection node, of any node, and the node of a type
    complex_type: Callable[[ComplexType], IfxType] = _unregistered
    type_of: Callable[[ComplexType], IfxType] = _unregistered
    node_of: Callable[[IfxType], ComplexType] = _unregistered
    #: composite.py: ``expr.field``, ``SET{...}``, ``row.field`` (None: not a field),
    #: ``x IN collection``, ``ROW(...)``, ``CARDINALITY(...)``; (translator, node)
    translate_dot: Callable[[Any, Any], Any] = _unregistered
    translate_collection: Callable[[Any, Any], Any] = _unregistered
    translate_field: Callable[[Any, Any], Any] = _unregistered
    translate_in_collection: Callable[[Any, Any], Any] = _unregistered
    translate_row: Callable[[Any, Any], Any] = _unregistered
    translate_cardinality: Callable[[Any, Any], Any] = _unregistered
    #: composite.py: a collection subquery's aggregate (``IFX_MULTISET_OF``) and the SQLite
    #: aggregate class gathering its rows (``ifx_collect``)
    translate_multiset_of: Callable[[Any, Any], Any] = _unregistered
    collect: Callable[[], Any] = _unregistered
    #: composite.py: named types in a cast target resolved by a catalogue lookup
    resolve_placeholders: Callable[[IfxType, Callable[[str], IfxType | None]],
                                   IfxType] = _unregistered
    #: composite.py: the SQLite function building a ROW/collection's storage per row
    compose: Callable[..., str] = _unregistered
    #: lobs/lo_functions.py: its SQLite functions for one connection, by name
    lo_functions: Callable[[FunctionSlot],
                           dict[str, tuple[int, Callable[..., object], bool]]] = _unregistered
    #: SQL functions a feature translates, by upper-case name, taking precedence over the
    #: SQL layer's own (lobs/lo_functions.py: FILETOBLOB, LOTOFILE, LOCOPY, ifx_lo_*)
    functions: dict[str, Handler] = field(default_factory=dict)
    #: SQLite functions a feature's translations call that need no session state, by name:
    #: (number of arguments, function, deterministic) (cdc/routines.py: ifx_cdc_errortext)
    sqlite_functions: dict[str, tuple[int, Callable[..., object], bool]] = field(
        default_factory=dict)
    #: spl/resolve.py: the routines of a kind that admit a number of arguments
    candidates: Callable[[Sequence[Routine], str, int], list[Routine]] = _unregistered
    #: spl/outparams.py: the arguments a routine receives (OUT ones as NULL)
    input_exprs: Callable[[Routine, Sequence[exp.Expr]], list[exp.Expr]] = _unregistered
    #: spl/interp.py: the DEFAULT expressions of the parameters a call left out
    default_exprs: Callable[[Routine, int], list[exp.Expr]] = _unregistered
    #: spl/calls.py: EXECUTE PROCEDURE|FUNCTION compiled, and a stored function in an
    #: expression (None: no routine of that name)
    compile_call: Callable[[Compiler, Any], Plan] = _unregistered
    #: spl/calls.py: TABLE(FUNCTION [owner.]name(args)) in FROM: the call's plan
    compile_table_function: Callable[[Compiler, str, str | None, list[exp.Expr]],
                                     Plan] = _unregistered
    #: spl/calls.py: fill a plan's TABLE(FUNCTION …) sources (session, plan, bound values)
    fill_table_functions: Callable[[Any, Plan, dict[str, object]], None] = _unregistered
    routine_call: Callable[[Compiler, ExprTranslator, str, list[exp.Expr]],
                           exp.Expr | None] = _unregistered
    #: spl/insert_execute.py: INSERT INTO t [(cols)] EXECUTE PROCEDURE|FUNCTION p(…),
    #: (compiler, table, columns, call) -> its plan
    compile_insert_execute: Callable[[Compiler, exp.Table, list[str] | None, Any],
                                     Plan] = _unregistered
    #: select_triggers.py: the Select triggers a compiled query activates, recorded in its plan
    select_triggers: Callable[[Compiler, Plan], None] = _unregistered
    #: triggers.py: DML on a view with an INSTEAD OF trigger (None: it has none)
    compile_instead: Callable[[Compiler, exp.Expr], Plan | None] = _unregistered
    #: views.py: DML on a simple view, (compiler, statement, view, target table)
    compile_view_dml: Callable[[Compiler, Any, TableInfo, exp.Table], Plan] = _unregistered
    #: cdc/routines.py: EXECUTE FUNCTION of a syscdcv1 routine, (compiler, call, database)
    #: -> its plan (None: not one), and running it, (session, plan, arguments) -> rows
    native_call: Callable[[Compiler, Any, str | None], Plan | None] = (
        lambda c, call, db: None)
    native_run: Callable[[Any, Plan, list[Any]], Any] = _unregistered


TRANSLATION = FeatureTranslation()
