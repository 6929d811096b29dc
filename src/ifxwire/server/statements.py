"""A session's prepared statements: the cap on how many it may hold, and bind values let go.

Each statement a session prepares stays until the client releases it (SQ_RELEASE), and keeps
the values of its last SQ_BIND. A client that prepares without releasing would otherwise hold
memory without bound, and one that binds large values keeps them as long as the statement
lives. So: at most ``Limits.max_statements`` statements per session (-257, Informix's "System
limit on maximum number of statements exceeded", naming the maximum), and values over
``KEEP_BIND_BYTES`` in all are dropped once the statement has run with them.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

from ..protocol.columns import ColumnDesc
from .blobs import BlobUpload
from .defences import release_free_memory
from .engine import EngineError, Prepared
from .engine import sqlcodes as sc


@dataclass(slots=True)
class Statement:
    """A prepared statement as this connection holds it: its cursor's rows and position, the
    encoder of its rows, and its last bind values.

    Slots (issue 26, twelfth round): the compiled group step (``ifxwire._groupstep``) reads
    and writes these fields at their slots, not through attribute calls, and a statement
    takes no attribute it does not declare."""

    prepared: Prepared
    params: list[object] = field(default_factory=list)
    cursor_name: bytes = b""
    rows: Iterator[tuple[object, ...]] | None = None
    encoder: Any = None
    #: SQ_RET_TYPE seen: ROW/collection columns go out in the binary form.
    complex_binary: bool = False
    fetched: int = 0
    exhausted: bool = False
    scroll: bool = False
    materialized: list[tuple[object, ...]] | None = None
    position: int = 0  # scroll cursors: 1-based number of the current row, 0 = before first
    columns: list[ColumnDesc] = field(default_factory=list)  # as described on this connection
    blob_rows: Any = None  # row -> (row with BYTE/TEXT descriptors, blob bytes), if any
    upload: BlobUpload | None = None  # BYTE/TEXT parameters whose data is still to come
    current_rowid: object = None  # FOR UPDATE cursors: the rowid of the row sent last
    lob_binary: bool = False  # SQ_RET_TYPE asked for BLOB/CLOB locators in binary form
    #: The batched INSERT's last compiled plan (storers, steps; server/bindbatch.py), for a
    #: run whose first row has a NULL (its headers cannot make a plan).
    bound_plan: tuple[object, tuple[Any, ...]] | None = None


#: Bind values larger than this in all (bytes and characters of str/bytes values) are let go
#: after the execution that used them: the memory of a 900 KiB BYTE value per statement would
#: otherwise stay until the statement is released.
KEEP_BIND_BYTES: Final = 64 * 1024


class _Released(list[object]):
    """The bind values of a statement after they were let go (an empty list, recognisable)."""

    __slots__ = ()


RELEASED: Final[list[object]] = _Released()


def new_statement_id(statements: Mapping[int, object], limit: int) -> int:
    """The lowest free statement id; -257 when the session already holds ``limit``.

    Lowest free: informix-driver never reads the id from DESCRIBE and always sends SQ_ID 0,
    which works against real servers only because they hand out 0 again once the previous
    statement is released.
    """
    if len(statements) >= limit:
        raise EngineError(sc.TOO_MANY_STATEMENTS, near=str(limit),
                          message=f"System limit on maximum number of statements exceeded, "
                          f"maximum is {limit}.")
    i = 0
    while i in statements:
        i += 1
    return i


class _Bound(Protocol):
    params: list[object]
    upload: Any  # the BYTE/TEXT upload (server/blobs.py), which holds the values too


def after_run(st: _Bound) -> None:
    """Once a statement ran (EXECUTE, OPEN): let its values go when they hold more than
    KEEP_BIND_BYTES, and hand the memory back to the OS (defences.release_free_memory: the
    heap would otherwise keep it at its peak after a burst)."""
    params = st.params
    if params is RELEASED:
        return
    held = 0
    for value in params:
        if isinstance(value, (bytes, bytearray, str)):
            held += len(value)
    if held > KEEP_BIND_BYTES:
        st.params = RELEASED
        st.upload = None
        del params
        release_free_memory()


def check_bound(params: list[object]) -> None:
    """An EXECUTE or OPEN without a new SQ_BIND after the values were let go: -254, as for a
    statement run without its values (Informix would run it again with the old ones)."""
    if params is RELEASED:
        raise EngineError(
            sc.HOSTVAR_COUNT,
            message="the values bound to this statement were released after it ran "
            f"(over {KEEP_BIND_BYTES} bytes); bind them again",
        )
