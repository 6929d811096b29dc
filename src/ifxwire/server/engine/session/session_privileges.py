"""EngineSession's privileges: what the user (or a routine's owner) may do.

``privileges`` reads the user's table privileges (features/access.py) again when the schema,
a grant or the role changes; ``_check_privileges`` checks a plan against them (a plan that
passed is remembered by the Privileges object that passed it); ``check_execute``,
``routine_rights``, ``acting_as_dba`` and ``check_in_routine`` are a routine's share (Guide to
SQL: Tutorial, "Privileges on objects associated with a routine").

A mixin of EngineSession (session.py sets the state). Moved out of session.py unchanged
(issue 26 §1: a file of one job).
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator
from typing import TYPE_CHECKING

from ..features import access
from ..schema import catalog as cat

if TYPE_CHECKING:
    from ..schema.routines import Routine
    from ..sql.translate import Plan


class SessionPrivileges:
    """The privilege checks of a session (a base of EngineSession, which sets the state
    named here)."""

    if TYPE_CHECKING:
        user: str
        role: str | None
        conn: sqlite3.Connection | None
        _db_level: str
        _incarnation: str
        _privs: tuple[tuple[object, ...], access.Privileges] | None
        _owner_privs: tuple[tuple[object, ...], access.Privileges | None] | None

        def _connection(self) -> sqlite3.Connection: ...
        def _schema_version(self) -> int: ...
        def current_schema(self, version: int | None = None) -> cat.Schema: ...

    def privileges(self, version: int | None = None) -> access.Privileges:
        """The user's table privileges, read again when the schema (or a grant) changes;
        ``version``: the schema version the caller has just read (no second PRAGMA)."""
        assert self.conn is not None
        key = (self._incarnation, self._schema_version() if version is None else version,
               self.role)
        if self._privs is None or self._privs[0] != key:
            self._privs = (key, access.Privileges(self.conn, self.user, self.role))
            owner = cat.meta(self.conn).get("owner", "informix")
            self._db_level = access.database_level(self.conn, self.user, owner) or "C"
        return self._privs[1]

    def _check_privileges(self, plan: Plan, owner: access.OwnerRights = None,
                          version: int | None = None) -> None:
        """The table privileges a statement needs and EXECUTE on the routines it calls;
        ``owner``: inside a routine, the owner's share (check_in_routine); ``version``: the
        schema version just read, if any.

        A plan that passed is remembered by the Privileges object that passed it: that
        object is made again whenever the schema version or the role changes, and every
        GRANT, REVOKE and DDL moves the version (session_statements.py), so a plan run
        again under the same one needs no second check (issue 26, select_one_row)."""
        if self._db_level == "D" or self.conn is None:
            return
        privs = self.privileges(version)
        passed = privs.passed
        if owner is None and passed.get(id(plan)) is plan:
            return
        for part in plan.parts or [plan]:
            target = part.view or (part.table.name if part.table is not None else None)
            tables = [t for t in part.tables if t not in part.view_tables]
            access.check_plan(privs, self.user, part.kind, tables or (
                [target] if target else []), target, owner)
        for procid in plan.routines + ([plan.routine] if plan.routine is not None else []):
            self.check_execute(procid, owner)
        for name in plan.sequences:
            access.check_sequence(privs, self.user, name, owner)
        for xid, name in plan.cast_types:
            access.check_type_usage(self._connection(), self.user, self.role, xid, name)
        if owner is None and len(passed) < 4096:
            passed[id(plan)] = plan  # the plan itself: its id is not reused while kept

    def check_execute(self, procid: int, owner: access.OwnerRights = None) -> None:
        """-706 unless this user (or ``owner``'s share) may run routine ``procid``."""
        if self._db_level == "D" or self.conn is None:
            return
        routine = self.current_schema().procs.get(procid)
        access.check_execute(self.privileges(), self.user, procid,
                             routine.name if routine is not None else str(procid), owner)

    def routine_rights(self, routine: Routine) -> tuple[str, access.Privileges] | bool:
        """What a statement inside ``routine`` runs with besides the caller's privileges:
        True when it needs no check (the caller is a DBA, the routine a DBA routine — its
        caller is DBA while it runs — or its owner a DBA, who holds everything WITH GRANT
        OPTION), else the owner's WITH GRANT OPTION privileges (Guide to SQL: Tutorial,
        "Privileges on objects associated with a routine", "DBA privileges for executing a
        routine")."""
        if self._db_level == "D" or self.conn is None or routine.mode == "D":
            return True
        self.privileges()  # refreshes the privilege key
        assert self._privs is not None
        key = (self._privs[0], routine.owner)
        if self._owner_privs is None or self._owner_privs[0] != key:
            dbowner = cat.meta(self.conn).get("owner", "informix")
            level = access.database_level(self.conn, routine.owner, dbowner)
            rights = None if level == "D" else access.Privileges(
                self.conn, routine.owner, None, grantable_only=True)
            self._owner_privs = (key, rights)
        got = self._owner_privs[1]
        return True if got is None else (routine.owner, got)

    @contextlib.contextmanager
    def acting_as_dba(self, dba: bool) -> Iterator[None]:
        """A statement of a DBA routine: its caller holds DBA while it runs."""
        saved = self._db_level
        if dba:
            self._db_level = "D"
        try:
            yield
        finally:
            self._db_level = saved

    def check_in_routine(self, plan: Plan, routine: Routine) -> None:
        """The privileges of a statement that ``routine`` runs (or a trigger action, whose
        frame's owner is the trigger's)."""
        if not plan.tables and not plan.routines and plan.routine is None and not plan.parts:
            return
        rights = self.routine_rights(routine)
        if not isinstance(rights, bool):
            self._check_privileges(plan, rights)
