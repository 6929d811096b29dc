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
from collections.abc import Callable
from types import TracebackType
from typing import Any, Protocol

from ..errors import Error, ProgrammingError
from .steps import Op


class SavepointOwner(Protocol):
    """What leaving a savepoint's block looks at in its connection (either driver's)."""

    @property
    def closed(self) -> bool: ...

    @property
    def broken(self) -> bool: ...

    @property
    def in_transaction(self) -> bool: ...

    @property
    def autocommit(self) -> bool: ...


class _StatementCursor(Protocol):
    """What a savepoint's statements need of the (sync) cursor that runs them: the
    connection's autocommit, and ``execute`` as an operation."""

    @property
    def connection(self) -> Any: ...

    def execute_args(self, operation: str, parameters: object) -> Any: ...

    def execute_op(self, operation: str, args: Any) -> Op[Any]: ...


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
    """What both Savepoint classes know and do: the name, whether it was released, and
    each action as an operation on a cursor (``Cursor.run`` runs it blocking,
    ``AsyncCursor.run`` awaited), so the checks and the statements are written once."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.released = False

    def action_op(self, cur: _StatementCursor, action: str) -> Op[None]:
        """``set``, ``rollback`` (to it) or ``release`` it, after the checks that need no
        server (a set needs a transaction; a released savepoint is gone)."""
        if action == "set":
            check_savepoint(self.name, cur.connection.autocommit)
        elif self.released:
            what = "roll back to" if action == "rollback" else "release"
            raise ProgrammingError(f"savepoint {self.name} was released; cannot {what} it",
                                   sqlstate="3B001")
        sql = savepoint_sql(action, self.name)
        yield from cur.execute_op(sql, cur.execute_args(sql, None))
        if action == "release":
            self.released = True

    def exit_actions(self, conn: SavepointOwner, exc: BaseException | None
                     ) -> tuple[str, ...]:
        """What leaving the ``with`` block does (both drivers): nothing when no transaction
        is open any more (a commit or rollback inside ended the savepoint), release after a
        normal end, roll back to it and release after an exception."""
        if self.released or conn.closed or conn.broken or not conn.in_transaction:
            self.released = True
            return ()
        return ("release",) if exc is None else ("rollback", "release")

    def exit_op(self, cur: _StatementCursor, actions: tuple[str, ...],
                exc: BaseException | None) -> Op[None]:
        """``exit_actions``' answer run: a failure is raised after a normal end, and only
        logged when the block's own exception is on its way (it matters more)."""
        try:
            for action in actions:
                yield from self.action_op(cur, action)
        except Error as err:
            if exc is None:
                raise
            log.warning("rolling back to savepoint %s failed: %s", self.name, err)

    def __repr__(self) -> str:
        state = " released" if self.released else ""
        return f"<ifxwire {type(self).__name__} {self.name}{state}>"


class Savepoint(SavepointState):
    """A savepoint in a connection's open transaction (``Connection.savepoint``)."""

    def __init__(self, conn: _Session, name: str) -> None:
        super().__init__(name)
        self.connection = conn

    def _run(self, make: Callable[[Any], Op[None]]) -> None:
        """``make(cursor)`` run on a cursor of its own."""
        with self.connection.cursor() as cur:
            cur.run(make)

    def rollback(self) -> None:
        """Undo what the transaction did since the savepoint; the savepoint stays set."""
        self._run(lambda cur: self.action_op(cur, "rollback"))

    def release(self) -> None:
        """Forget the savepoint (its work stays part of the transaction)."""
        self._run(lambda cur: self.action_op(cur, "release"))

    def __enter__(self) -> Savepoint:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        actions = self.exit_actions(self.connection, exc)
        if actions:
            self._run(lambda cur: self.exit_op(cur, actions, exc))
