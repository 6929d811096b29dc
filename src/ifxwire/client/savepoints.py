"""Savepoints: ``with conn.savepoint("name"):`` over the SQL statements Informix has for them.

``SAVEPOINT name``, ``ROLLBACK WORK TO SAVEPOINT name`` and ``RELEASE SAVEPOINT name`` are
ordinary statements, run like any other (``COMMAND NDESCRIBE EXECUTE RELEASE EOT``, with the
pipelined ``BEGIN`` when autocommit is off and no transaction is open). IBM JDBC's
``setSavepoint`` sends the SQLI savepoint messages instead, which our server's capability mask
leaves off (DRIVER.md §5): the SQL text is what works against every server.

A savepoint is set when ``savepoint()`` returns. Leaving its ``with`` block normally releases
it; leaving by an exception rolls the transaction back to it, releases it and lets the
exception go on. Both are skipped when no transaction is open any more (a commit or rollback
inside the block already ended the savepoint).
"""

from __future__ import annotations

import itertools
import logging
import re
from types import TracebackType
from typing import Any, Protocol

from ..errors import Error, ProgrammingError


class SavepointOwner(Protocol):
    """What leaving a savepoint's block looks at in its connection (either driver's)."""

    @property
    def closed(self) -> bool: ...

    @property
    def broken(self) -> bool: ...

    @property
    def in_transaction(self) -> bool: ...


class _Session(SavepointOwner, Protocol):
    """What a savepoint needs of its sync connection."""

    def cursor(self) -> Any: ...

__all__ = ["Savepoint", "check_savepoint", "savepoint_sql"]

log = logging.getLogger("ifxwire.client")

#: An Informix identifier (Guide to SQL: Syntax, "Identifier"): at most 128 bytes.
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_$]{0,127}\Z")
_SEQ = itertools.count(1)


def check_savepoint(name: str | None, autocommit: bool) -> str:
    """The savepoint's name (a fresh one for None), after the checks that need no server:
    an identifier, and a transaction to put it in."""
    if name is None:
        name = f"_ifxsp{next(_SEQ)}"
    if not isinstance(name, str) or not _NAME.match(name):
        raise ProgrammingError(f"invalid savepoint name {name!r}: it must be an identifier",
                               sqlstate="42602")
    if autocommit:
        raise ProgrammingError(
            "a savepoint needs a transaction: autocommit is on (each statement commits on "
            "its own); set autocommit off first", sqlstate="25000")
    return name


def savepoint_sql(action: str, name: str) -> str:
    return {"set": f"SAVEPOINT {name}",
            "rollback": f"ROLLBACK WORK TO SAVEPOINT {name}",
            "release": f"RELEASE SAVEPOINT {name}"}[action]


class SavepointState:
    """What both Savepoint classes know: the name, whether it was released, and the checks
    before each statement."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.released = False

    def _exit_actions(self, conn: SavepointOwner, exc: BaseException | None
                      ) -> tuple[str, ...]:
        """What leaving the ``with`` block does (both drivers): nothing when no transaction
        is open any more (a commit or rollback inside ended the savepoint), release after a
        normal end, roll back to it and release after an exception."""
        if self.released or conn.closed or conn.broken or not conn.in_transaction:
            self.released = True
            return ()
        return ("release",) if exc is None else ("rollback", "release")

    def _exit_failed(self, exc: BaseException | None, err: Error) -> None:
        """An exit action failed: raised after a normal end; logged when the block's own
        exception is on its way (it matters more)."""
        if exc is None:
            raise err
        log.warning("rolling back to savepoint %s failed: %s", self.name, err)

    def _live(self, what: str) -> None:
        if self.released:
            raise ProgrammingError(f"savepoint {self.name} was released; cannot {what} it",
                                   sqlstate="3B001")

    def __repr__(self) -> str:
        state = " released" if self.released else ""
        return f"<ifxwire {type(self).__name__} {self.name}{state}>"


class Savepoint(SavepointState):
    """A savepoint in a connection's open transaction (``Connection.savepoint``)."""

    def __init__(self, conn: _Session, name: str) -> None:
        super().__init__(name)
        self.connection = conn

    def _run(self, action: str) -> None:
        cur = self.connection.cursor()
        try:
            cur.execute(savepoint_sql(action, self.name))
        finally:
            cur.close()

    def rollback(self) -> None:
        """Undo what the transaction did since the savepoint; the savepoint stays set."""
        self._live("roll back to")
        self._run("rollback")

    def release(self) -> None:
        """Forget the savepoint (its work stays part of the transaction)."""
        self._live("release")
        self._run("release")
        self.released = True

    def __enter__(self) -> Savepoint:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        try:
            for action in self._exit_actions(self.connection, exc):
                getattr(self, action)()
        except Error as err:
            self._exit_failed(exc, err)
