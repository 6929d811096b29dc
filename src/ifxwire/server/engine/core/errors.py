"""The one exception the engine lets out: what Informix itself would report to the client."""

from __future__ import annotations

import re

from . import sqlcodes


class EngineError(Exception):
    """An Informix error: sqlcode, ISAM code, the ``near`` text (SQ_ERR error text) and offset.

    ``offset`` is the 0-based character offset in the statement text of the token the error is
    about (0 when not about a position). ``message`` defaults to the catalogue text.
    """

    def __init__(
        self,
        sqlcode: int,
        isamcode: int = 0,
        near: str = "",
        offset: int = 0,
        message: str = "",
    ) -> None:
        self.sqlcode = sqlcode
        self.isamcode = isamcode
        self.near = near
        self.offset = offset
        self.message = message or sqlcodes.message_for(sqlcode, near)
        super().__init__(sqlcode, isamcode, near, offset, self.message)

    def __str__(self) -> str:
        isam = f" (ISAM {self.isamcode})" if self.isamcode else ""
        return f"{self.sqlcode}: {self.message}{isam}"

    def __repr__(self) -> str:
        return (
            f"EngineError({self.sqlcode}, {self.isamcode}, near={self.near!r}, "
            f"offset={self.offset}, message={self.message!r})"
        )


class KeptWorkError(EngineError):
    """An error the statement ends with while its work stays, not undone as a failing
    statement's is: the session finishes the statement as a success and then sends the
    error. SET CONSTRAINTS / SET INDEXES … ENABLED over rows that break the object copies
    them to the violations table and fails with -971 (ids_sqs_0319: the rows "are
    duplicated in the violations table; however, you receive an integrity-violation error
    message, and the constraint remains disabled")."""


def not_implemented(what: str) -> EngineError:
    """-999 naming the missing feature, so the client learns what we lack rather than a guess."""
    return EngineError(sqlcodes.NOT_IMPLEMENTED, near=what, message=f"Not implemented yet: {what}")


#: SQLite's words when a new name differs from one in use only in the case of ASCII letters
#: (SQLite folds them; Informix with DELIMIDENT does not: "A" and "a" are two columns).
_CASE_CLASH = re.compile(r"(?:duplicate column name: (.+)|^(?:table|index|view) (.+) already "
                         r"exists|^there is already another table or index with this name: "
                         r"(.+))$")


def case_clash(e: Exception) -> EngineError | None:
    """-999 for a delimited name that SQLite cannot hold beside another differing only in
    case (columns "A" and "a" of one table, tables "T" and t, indexes "I" and i). Informix
    allows them under DELIMIDENT; the server keeps Informix names as SQLite names, so it
    refuses them, naming the clash, rather than fail with an internal error (docs/SERVER.md,
    "Not supported"). The statement changes nothing (the engine's statement rollback)."""
    found = _CASE_CLASH.search(str(e))
    if found is None:
        return None
    name = next(g for g in found.groups() if g is not None).strip('"')
    return not_implemented(f"names that differ only in case ({name})")


def internal(e: Exception) -> EngineError:
    """An unexpected Python error, reported as -999 naming it, never as a traceback."""
    clash = case_clash(e)
    if clash is not None:
        return clash
    return EngineError(sqlcodes.NOT_IMPLEMENTED,
                       message=f"Not implemented yet: internal {e!r}"[:500])
