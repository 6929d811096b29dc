"""EngineSession is one class built of mixins (session.py, session_locks.py and the modules
split from them: session_lock_latch.py, session_lock_rows.py, session_cursors.py, ...). A name
defined in two of its bases is a silent bug: the one earlier in the method resolution order
shadows the other, and nothing fails until the shadowed one was the one meant. Splitting a
file into mixins moves methods between classes, so this checks that every method, property and
class attribute of the session package's bases is defined in exactly one of them."""

from __future__ import annotations

from ifxwire.server.engine.session.session import EngineSession

PACKAGE = "ifxwire.server.engine.session"


def defined_twice(cls: type) -> dict[str, list[str]]:
    """The names (dunders aside) that more than one class of ``cls``'s MRO from the session
    package defines, each with the classes defining it."""
    where: dict[str, list[str]] = {}
    for base in cls.__mro__:
        if not base.__module__.startswith(PACKAGE):
            continue
        for name in vars(base):
            if not (name.startswith("__") and name.endswith("__")):
                where.setdefault(name, []).append(base.__qualname__)
    return {name: owners for name, owners in where.items() if len(owners) > 1}


def test_no_name_defined_in_two_session_bases() -> None:
    assert defined_twice(EngineSession) == {}


def test_the_split_bases_are_in_the_mro() -> None:
    # (the check above only sees the bases that are there)
    names = {base.__name__ for base in EngineSession.__mro__}
    assert {"RowLocks", "RowLockLatch", "RowLockRows", "RowLockReads", "RowLockDdl",
            "ParkedReads", "Transactions", "StatementRunner", "ErrorMapping", "CursorRows",
            "SessionPrivileges"} <= names


def test_a_duplicate_is_reported() -> None:
    # the check itself: a method defined by two bases is found (the later one is shadowed)
    class First:
        def work(self) -> int:
            return 1

    class Second:
        def work(self) -> int:
            return 2

    First.__module__ = Second.__module__ = PACKAGE + ".fake"

    class Both(First, Second):
        pass

    assert defined_twice(Both) == {"work": [First.__qualname__, Second.__qualname__]}
