"""The one exception the engine lets out: what Informix itself would report to the client."""

from __future__ import annotations

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


def not_implemented(what: str) -> EngineError:
    """-999 naming the missing feature, so the client learns what we lack rather than a guess."""
    return EngineError(sqlcodes.NOT_IMPLEMENTED, near=what, message=f"Not implemented yet: {what}")


def internal(e: Exception) -> EngineError:
    """An unexpected Python error, reported as -999 naming it, never as a traceback."""
    return EngineError(sqlcodes.NOT_IMPLEMENTED,
                       message=f"Not implemented yet: internal {e!r}"[:500])
