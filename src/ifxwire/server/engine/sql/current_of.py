"""``UPDATE/DELETE … WHERE CURRENT OF cursor`` for the clients' cursors.

Informix lets a client update or delete the row its ``SELECT … FOR UPDATE`` cursor last
fetched, naming the cursor (the name the client sent with SQ_CURNAME). SPL routines had this
inside FOREACH loops already (spl/interp.py); this module gives it to client cursors:

* a single-table ``SELECT … FOR UPDATE`` is compiled with the table's rowid as a last, hidden
  column (``Plan.current_rowid``): it is not described, and the protocol session strips it
  from each row and remembers the rowid of the row it sent last (server/session.py);
* ``UPDATE … WHERE CURRENT OF c`` / ``DELETE … WHERE CURRENT OF c`` is compiled without the
  clause and then limited to ``rowid = :ifx_current`` (``Plan.current_of``); at EXECUTE the
  rowid is asked of the session through ``EngineSession.current_row`` (-259 when no such
  cursor is open, -266 when it has no current row).

A cursor that is not a single-table FOR UPDATE cursor, or that reads another table than the
statement changes, is refused with -999 (what Informix answers there is not known to us).
"""

from __future__ import annotations

import re
from copy import copy
from typing import TYPE_CHECKING

from sqlglot import exp

from ..core.errors import EngineError
from .translate import Plan

if TYPE_CHECKING:
    from .translate import Compiler

#: ``… WHERE CURRENT OF name`` at the end of a statement (an identifier, optionally quoted),
#: searched for in the statement's last TAIL characters only (once trailing blanks and a ``;``
#: are gone): a search over the whole text backtracks quadratically on long runs of blanks.
_CURRENT_OF = re.compile(r"\sWHERE\s+CURRENT\s+OF\s+(\"[^\"]+\"|[A-Za-z_][\w$]*)\Z",
                         re.IGNORECASE)
TAIL = 400
#: The bind name of the current row's rowid.
CURRENT_KEY = "ifx_current"


def split_current_of(sql: str) -> tuple[str, str] | None:
    """(the statement without the clause, the cursor name), or None without the clause."""
    text = sql.rstrip()
    if text.endswith(";"):
        text = text[:-1].rstrip()
    start = max(len(text) - TAIL, 0)
    window = text[start:]
    if "OF" not in window.upper():
        return None
    m = _CURRENT_OF.search(window)
    if m is None:
        return None
    name = m.group(1)
    name = name[1:-1] if name.startswith('"') else name.lower()
    return text[: start + m.start()], name


def add_rowid(compiler: Compiler, plan: Plan) -> None:
    """Give a single-table FOR UPDATE query a hidden trailing rowid column (in place: the
    plan is being compiled). Other shapes stay as they are (not updatable)."""
    root = compiler._last_root
    if not isinstance(root, exp.Select) or root.args.get("joins") or root.args.get("group") \
            or root.args.get("distinct"):
        return
    source = root.args.get("from_")
    table = source.this if source is not None else None
    if not isinstance(table, exp.Table) or table.meta.get("ifx_table") is None:
        return
    root.append("expressions", exp.Column(this=exp.to_identifier("rowid"),
                                          table=exp.to_identifier(table.alias_or_name)))
    plan.sql = compiler.generate(root)
    plan.table = table.meta["ifx_table"]
    plan.current_rowid = True


def limit_to_current(plan: Plan, cursor: str) -> Plan:
    """A copy of a compiled UPDATE/DELETE limited to the row ``cursor`` is on (the compiled
    plan of the statement without the clause may be cached and must stay unlimited)."""
    if plan.kind not in ("update", "delete") or plan.table is None:
        raise EngineError(-201, near="CURRENT",
                          message="WHERE CURRENT OF needs an UPDATE or DELETE of one table")
    limited = copy(plan)
    limited.sql = plan.sql + f" WHERE rowid = :{CURRENT_KEY}"
    if plan.old_sql:
        limited.old_sql = plan.old_sql + f" WHERE rowid = :{CURRENT_KEY}"
    limited.current_of = cursor
    return limited
