"""Which parameters of a statement need a smart large object or a stream, decided without I/O.

A value bound to a BLOB/CLOB parameter is first stored in a new object, a file-like bound to
BYTE/TEXT is streamed (``client/lob.py`` ``prepare_params_op`` does the work on the server);
which parameters those are comes from the statement's SQ_IDESCRIBE, asked for once per
statement and only when a value could need it. These are the questions the cursor asks on
every execute (``needs_pass`` is the cheap one for the common case), kept apart from the
objects so that they import nothing of the session layers (tests/unit/test_driver_core.py
keeps this module out of the import circle).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from ..errors import NotSupportedError
from ..protocol.codes import XID_CLOB, TypeCode
from .lobpieces import WRITE_MESSAGE
from .sources import remaining
from .statements import lob_kind

if TYPE_CHECKING:
    from .statements import Prepared

__all__ = ["has_file_values", "is_locator", "needs_pass", "param_actions", "several_writes",
           "stores_values", "wants_describe"]

_T = TypeCode

#: Statement types whose parameters may be stored in BLOB/CLOB/BYTE/TEXT columns.
_STORING = frozenset({4, 6, 56})  # UPDATE, INSERT, EXECUTE PROCEDURE


def _may_need_lob(value: object) -> bool:
    return isinstance(value, (str, bytes, bytearray, memoryview)) or (
        hasattr(value, "read") and not is_locator(value))


def has_file_values(values: Sequence[object]) -> bool:
    """Whether any value is a file-like object (it cannot be bound before the statement's
    parameters are known)."""
    return any(hasattr(v, "read") and not is_locator(v) for v in values)


def needs_pass(p: Prepared, values: Sequence[object], streamed: bool) -> bool:
    """Whether ``prepare_params_op`` must look at these values: cheap for the common case (a
    statement already described with no BLOB/CLOB/BYTE/TEXT parameter)."""
    if streamed:
        return True
    descs = p.param_descs
    if descs is None:
        return wants_describe(p, values)
    return bool(p.lob_params) and any(_may_need_lob(v) for v in values)


def wants_describe(p: Prepared, values: Sequence[object]) -> bool:
    """Whether the statement's parameters must be described before binding ``values``: a
    statement that stores values, not yet described, with a value a BLOB/CLOB could take."""
    return (p.param_descs is None and p.stmt_type in _STORING
            and any(_may_need_lob(v) for v in values))


def stores_values(p: Prepared) -> bool:
    """Whether the statement may store its parameters in columns (INSERT, UPDATE, EXECUTE
    PROCEDURE): executemany looks further (``wants_describe`` on its first set, or the
    described parameters) only for such a statement."""
    return p.stmt_type in _STORING


def several_writes(value: object) -> bool:
    """Whether storing ``value`` may take more than one SQ_LODATA write (a file-like of
    unknown or large size, a value over ``WRITE_MESSAGE``): then a transaction around the
    statement saves a commit per write; for one write it would only add two round trips."""
    if isinstance(value, (bytes, bytearray, memoryview)):
        return memoryview(value).nbytes > WRITE_MESSAGE
    if isinstance(value, str):
        return len(value) > WRITE_MESSAGE // 4
    if hasattr(value, "read"):
        left = remaining(value)
        return left is None or left > WRITE_MESSAGE
    return False


def param_actions(p: Prepared, values: Sequence[object]) -> Iterator[tuple[int, str, bool]]:
    """What a described statement's values need before binding: ``(index, "lob", is_clob)``
    for a value to store in a new BLOB/CLOB, ``(index, "stream", is_text)`` for a file-like
    for BYTE/TEXT. A file-like anywhere else is refused."""
    descs = p.param_descs
    if not descs:
        if any(hasattr(v, "read") and not is_locator(v) for v in values):
            raise NotSupportedError(
                "a file-like parameter needs a statement that stores it (INSERT, UPDATE, "
                "EXECUTE PROCEDURE)")
        return
    for i, (value, desc) in enumerate(zip(values, descs, strict=False)):
        if value is None or is_locator(value):
            continue
        kind = lob_kind(desc)
        if kind is not None and _may_need_lob(value):
            yield i, "lob", kind == XID_CLOB
        elif desc.base in (_T.BYTE, _T.TEXT) and hasattr(value, "read"):
            yield i, "stream", desc.base == _T.TEXT
        elif hasattr(value, "read"):
            raise NotSupportedError(
                f"parameter {i + 1}: a file-like object can go into BLOB, CLOB, BYTE or TEXT, "
                f"not type {desc.base}")


def is_locator(value: object) -> bool:
    """A Blob/Clob (sync or asyncio): bound as its locator."""
    return getattr(type(value), "_ifx_locator", False) is True
