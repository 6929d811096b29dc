"""BYTE and TEXT on the server: descriptors out, SQ_FETCHBLOB answers, SQ_BBIND uploads in.

Reading: each BYTE/TEXT value of a row sent is kept here under a handle written into the
row's descriptor (``types/blobs.py``). A client asks for the data with SQ_FETCHBLOB, at a time
of its choosing: JDBC when the application reads the column of the current row, ifxwire after
each batch, informix-driver only after the last batch (so after later NFETCHes, and after the
SQ_CLOSE that OPTOFC sends). A real server's descriptor is a blobspace address that stays good
while the row exists; ours stays good until the statement is opened again or released, or
until the session keeps more than ``KEEP_BYTES`` of blob data, when the oldest values go first
(a FETCHBLOB for them then fails with -400 rather than the server's memory growing without
bound).

Binding: a BYTE/TEXT parameter arrives as a descriptor in SQ_BIND. Its data follows as
``SQ_BBIND n`` and then, per non-NULL blob parameter in order, ``SQ_BLOB`` chunks that end with
an empty one. ``BlobUpload`` puts each finished blob into its parameter slot.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..protocol.columns import ColumnDesc
from ..types import blobs as _blobs
from ..types.blobs import blob_columns
from .engine import EngineError
from .engine import sqlcodes as sc

#: Blob data a session keeps for FETCHBLOB before it forgets the oldest values.
KEEP_BYTES = 256 * 1024 * 1024

Row = Sequence[object]


class BlobStore:
    """The data behind the descriptors this session has sent and not yet retired."""

    def __init__(self, width: int, keep_bytes: int = KEEP_BYTES) -> None:
        self.width = width
        self.keep_bytes = keep_bytes
        self.kept = 0
        self._next = 1
        # handle -> (statement id, data); insertion order is age, for eviction.
        self._data: dict[int, tuple[int, bytes]] = {}
        self._handles: dict[int, list[int]] = {}  # statement id -> its handles

    def row_mapper(
        self, stmt_id: int, columns: Sequence[ColumnDesc], encoding: str
    ) -> Callable[[Row], tuple[Row, int]] | None:
        """``row -> (row with descriptors, blob bytes)`` for a result with BYTE/TEXT columns."""
        where = blob_columns(columns)
        if not where:
            return None

        def to_descriptors(row: Row) -> tuple[Row, int]:
            values = list(row)
            total = 0
            for i, is_text in where:
                v = values[i]
                if v is None:
                    continue
                data = v.encode(encoding) if is_text and isinstance(v, str) else bytes(v)  # type: ignore[call-overload]
                values[i] = self._keep(stmt_id, data)
                total += len(data)
            return values, total

        return to_descriptors

    def _keep(self, stmt_id: int, data: bytes) -> bytes:
        handle = self._next
        self._next = handle + 1 if handle < 0xFFFFFFFF else 1
        self._data[handle] = (stmt_id, data)
        self._handles.setdefault(stmt_id, []).append(handle)
        self.kept += len(data)
        while self.kept > self.keep_bytes and len(self._data) > 1:
            oldest = next(iter(self._data))
            self.kept -= len(self._data.pop(oldest)[1])
        return _blobs.server_descriptor(len(data), handle, self.width)

    def fetch(self, stmt_id: int, descriptor: bytes) -> bytes:
        """The data of a descriptor sent for ``stmt_id`` and not yet retired."""
        entry = self._data.get(_blobs.descriptor_handle(descriptor))
        if entry is None or entry[0] != stmt_id:
            # [guess] No witness for a stale descriptor; -400 is what fetching from a cursor
            # that is no longer there gives.
            raise EngineError(
                sc.FETCH_UNOPENED,
                message="the BYTE/TEXT descriptor is not from this statement's current result",
            )
        return entry[1]

    def retire(self, stmt_id: int) -> None:
        """The statement is opened again or released: its blobs go."""
        for h in self._handles.pop(stmt_id, ()):
            entry = self._data.pop(h, None)
            if entry is not None:
                self.kept -= len(entry[1])

    def clear(self) -> None:
        self._data.clear()
        self._handles.clear()
        self.kept = 0


class BlobUpload:
    """Collects the SQ_BBIND stream of one SQ_BIND into the parameter list.

    Each blob lands in its parameter slot as bytes, whether it was bound as BYTE or TEXT; the
    engine converts on store (a TEXT column decodes it in the database code set).
    """

    def __init__(self, params: list[object], slots: list[int]) -> None:
        self.params = params
        self.slots = slots  # parameter index of each non-NULL BYTE/TEXT parameter, in order
        self.announced = -1  # the count SQ_BBIND gave; -1 before SQ_BBIND
        self.chunks: list[bytes] = []
        self.size = 0
        self.refused = False  # a value went over max_blob_bytes: the upload stays incomplete

    @property
    def complete(self) -> bool:
        return not self.slots and not self.refused

    def start(self, count: int) -> None:
        if self.announced >= 0 or count != len(self.slots):
            raise EngineError(
                sc.HOSTVAR_COUNT,
                message=f"SQ_BBIND announces {count} blobs for {len(self.slots)} BYTE/TEXT "
                "parameters",
            )
        self.announced = count

    def chunk(self, data: bytes, limit: int = _blobs.BLOB_MAX) -> None:
        if self.announced < 0 or not self.slots or self.refused:
            raise EngineError(sc.HOSTVAR_COUNT, message="SQ_BLOB without a blob parameter")
        if data:
            self.size += len(data)
            if self.size > min(limit, _blobs.BLOB_MAX):
                # The server's max_blob_bytes: the value is dropped now, not held to the end.
                self.chunks = []
                self.refused = True  # EXECUTE/OPEN of these parameters gives -254
                raise EngineError(sc.MEMORY, message=f"BYTE/TEXT value over {limit} bytes")
            self.chunks.append(data)
            return
        self.params[self.slots.pop(0)] = b"".join(self.chunks)
        self.chunks = []
        self.size = 0
