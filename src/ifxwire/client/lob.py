"""Smart large objects in the driver: ``Blob`` and ``Clob``, file-like views over the server.

A BLOB or CLOB column value is a locator (72 bytes) naming an object on the server. ``Blob``
wraps one with the file API: ``read``, ``readinto``, ``write``, ``seek``, ``tell``,
``truncate``, ``size``, iteration in chunks, ``close``, ``with``. Every call goes to the server
through the messages JDBC uses (docs/PROTOCOL.md §11): fast-path ``ifx_lo_open``/
``ifx_lo_close``/``ifx_lo_seek``/``ifx_lo_stat``/``ifx_lo_truncate``/``ifx_lo_create`` and
SQ_LODATA reads and writes, at most ``fastpath.READ_MESSAGE`` / ``WRITE_MESSAGE`` bytes per
message, so streaming any size holds a bounded buffer. ``Clob`` is the same object read and
written as text in the connection's code set (positions stay in bytes).

Binding: a ``Blob``/``Clob`` binds its locator (a SENDRECV item named ``blob``/``clob``,
byte-for-byte what JDBC sends); bytes, str and file-likes bound to a BLOB/CLOB parameter are
first stored in a new object (``ifx_lo_create`` + SQ_LODATA + ``ifx_lo_close``), as JDBC's
``setBytes``/``setString``/``setBinaryStream`` do (``prepare_params_op``). Which parameters
need that is decided in ``client/lobparams.py``; a value's bytes are cut into write messages
in ``client/lobpieces.py`` (neither needs the session: both stay out of the import circle).

SQ_FILE requests (``LOTOFILE``/``FILETOBLOB`` with ``'client'``) are answered in
``client/clientfiles.py``.
"""

from __future__ import annotations

import codecs
import inspect
import io
import itertools
import struct
from collections.abc import (
    AsyncIterator,
    Awaitable,
    Callable,
    Generator,
    Iterable,
    Iterator,
    Sequence,
)
from typing import TYPE_CHECKING, Any, BinaryIO, TypeVar

from ..errors import DataError, InterfaceError, NotSupportedError, ProgrammingError
from ..protocol.codes import XID_BLOB, XID_CLOB, TypeCode
from ..protocol.requests import cidescribe_group
from ..types import smartlob as slo
from ..types.adapters import BindItem
from . import fastpath as _fp
from .lobparams import is_locator, param_actions, several_writes, wants_describe
from .lobpieces import (
    WRITE_MESSAGE,
    Pieces,
    binary_pieces,
    decode_clob,
    encode_clob,
    slices,
    source_pieces,
    split_pieces,
)
from .replies import Reply
from .resources import Closing
from .statements import lob_kind, set_params
from .steps import Forwarded, Op, blocking_method, made_for

if TYPE_CHECKING:
    # The session as this module needs it; the public Connection adds the PEP 249 surface
    # (and imports this module: naming it here would make an import circle).
    from .lifecycle import StatementSession as Connection
    from .statements import Prepared

__all__ = [
    "Blob",
    "Clob",
    "SmartLob",
    "create_lob",
    "prepare_params_op",
]

_T = TypeCode
L = TypeVar("L", bound="SmartLob")
_R = TypeVar("_R")
_Y = TypeVar("_Y")

#: Chunk size of iteration and of copies to and from files.
CHUNK = 1024 * 1024

SIG_CREATE = "function informix.ifx_lo_create( ifx_lo_spec,integer,blob)"
SIG_OPEN = "function informix.ifx_lo_open(blob ,integer)"
SIG_CLOSE = "function informix.ifx_lo_close(integer)"
SIG_SEEK = "function informix.ifx_lo_seek(integer,int8,integer,int8)"
SIG_STAT = "function informix.ifx_lo_stat(int, ifx_lo_stat)"
SIG_TRUNCATE = "function informix.ifx_lo_truncate(integer,int8)"
SIG_RELEASE = "function informix.ifx_lo_release(blob)"

_U32 = struct.Struct(">I")


class _Udt:
    """A fixed opaque value as a fast-path or bind argument: SENDRECV (44) with its type name,
    owner empty — JDBC's IfxUDT items (captured, docs/PROTOCOL.md §11)."""

    __slots__ = ("data", "name")

    def __init__(self, name: str, data: bytes) -> None:
        self.name = name
        self.data = data

    def _ifx_bind_item(self, encoding: str) -> bytes:
        data = _U32.pack(len(self.data)) + self.data
        return BindItem(int(_T.SENDRECV), 0, data, self.name).encode(encoding)


_DEFAULT_SPEC = _Udt("ifx_lo_spec", slo.build_lo_spec())
_ZERO_LOCATOR = _Udt("blob", bytes(slo.LOCATOR_SIZE))
_STAT_PLACEHOLDER = _Udt("ifx_lo_stat", bytes(slo.LO_STAT_SIZE))


P = TypeVar("P", bytes, str)


def pieces_until_short(read: Callable[[int], P], size: int) -> Iterator[P]:
    """``read(size)`` again and again until a piece comes back short (the end)."""
    while True:
        piece = read(size)
        if piece:
            yield piece
        if len(piece) < size:
            return


async def apieces(read: Callable[[int], Awaitable[P]], size: int, short_ends: bool
                  ) -> AsyncIterator[P]:
    """``pieces_until_short`` for a coroutine ``read`` (the asyncio LOB objects and readers):
    until an empty piece, or (``short_ends``) a short one."""
    while True:
        piece = await read(size)
        if piece:
            yield piece
        if not piece or (short_ends and len(piece) < size):
            return


def open_flags(mode: str) -> int:
    """The ``ifx_lo_open`` flags of a file mode (``r``, ``r+``, ``w``, ``a``; ``b`` allowed)."""
    flags = {"r": slo.LO_RDONLY, "rb": slo.LO_RDONLY, "r+": slo.LO_RDWR, "r+b": slo.LO_RDWR,
             "w": slo.LO_RDWR, "wb": slo.LO_RDWR, "a": slo.LO_APPEND | slo.LO_WRONLY,
             "ab": slo.LO_APPEND | slo.LO_WRONLY}.get(mode)
    if flags is None:
        raise ProgrammingError(f"unknown LOB open mode {mode!r}; use r, r+, w or a")
    return flags


def seek_target(pos: int, offset: int, whence: int, size: int) -> int:
    """The position a seek moves to (``size`` matters only from the end)."""
    if whence == io.SEEK_SET:
        target = offset
    elif whence == io.SEEK_CUR:
        target = pos + offset
    elif whence == io.SEEK_END:
        target = size + offset
    else:
        raise ProgrammingError(f"seek whence must be 0, 1 or 2, not {whence!r}")
    if target < 0:
        raise DataError(f"negative seek position {target}")
    return target


def returned(values: Sequence[object], routine: str) -> object:
    """The first return value of a fast-path call; a reply that brought none is refused."""
    if not values:
        raise InterfaceError(f"{routine} returned no value")
    return values[0]


def returned_int(values: Sequence[object], routine: str) -> int:
    value = returned(values, routine)
    if type(value) is not int:
        raise InterfaceError(f"{routine} returned {value!r}, not an integer")
    return value


def stat_size(stat: object) -> int:
    """The size in an ``ifx_lo_stat`` result."""
    if not isinstance(stat, (bytes, bytearray)) or len(stat) < slo.STAT_REFCOUNT_AT:
        raise InterfaceError("ifx_lo_stat returned no status structure")
    return slo.lo_stat_size(stat)


# --------------------------------------------------------------------------------------------
# The objects
# --------------------------------------------------------------------------------------------


class LocatorBase:
    """What the sync and asyncio LOB objects share: the locator, the descriptor state, the
    bind form, and every operation as an ``Op`` (client/steps.py) on the sync session
    ``_session``: ``SmartLob`` runs them blocking under the connection's lock, the asyncio
    ``AsyncSmartLob`` awaits them. No I/O here."""

    type_name = "blob"
    _kind = XID_BLOB
    _ifx_locator = True
    _session: Connection  # the session state the operations use (the sync core)

    def __init__(self, locator: bytes) -> None:
        if len(locator) != slo.LOCATOR_SIZE:
            raise InterfaceError(f"a smart-LOB locator is 72 bytes, not {len(locator)}")
        self._locator = bytes(locator)
        self._fd: int | None = None
        self._writable = False
        self._append = False
        self._pos = 0  # where the next read or write happens
        self._server_pos = 0  # where the server's descriptor is
        self._closed = False

    # ---- identity ---------------------------------------------------------------------------
    @property
    def locator(self) -> bytes:
        """The 72-byte locator, as the server sent it (opaque)."""
        return self._locator

    def __eq__(self, other: object) -> bool:
        return isinstance(other, LocatorBase) and other._locator == self._locator

    def __hash__(self) -> int:
        return hash(self._locator)

    def __repr__(self) -> str:
        state = "closed" if self._closed else ("open" if self._fd is not None else "not open")
        return f"<ifxwire.{type(self).__name__} {self._locator[:16].hex()}… {state}>"

    def _ifx_bind_item(self, encoding: str) -> bytes:
        return self._udt()._ifx_bind_item(encoding)

    def _udt(self) -> _Udt:
        return _Udt(self.type_name, self._locator)

    def _opened(self, fd: object, flags: int) -> None:
        """Note the descriptor ``ifx_lo_open`` returned."""
        if not isinstance(fd, int):
            raise InterfaceError(f"ifx_lo_open returned {fd!r}")
        self._fd = fd
        self._writable = flags != slo.LO_RDONLY
        self._append = bool(flags & slo.LO_APPEND)
        self._pos = self._server_pos = 0

    def _moved(self) -> None:
        """The position changed by a seek (a CLOB drops the characters it decoded ahead)."""

    @property
    def closed(self) -> bool:
        return self._closed

    def seekable(self) -> bool:
        return True

    def readable(self) -> bool:
        return True

    def writable(self) -> bool:
        return True

    def tell(self) -> int:
        self._check()
        return self._pos

    def _check(self) -> None:
        if self._closed:
            raise InterfaceError(f"the {type(self).__name__} is closed")
        self._session._check()

    def __del__(self) -> None:
        # An open descriptor of a dropped object is closed with the next request (deferred,
        # like a cursor's CLOSE), when the close routine's handle is already known.
        fd = getattr(self, "_fd", None)
        if fd is None or getattr(self, "_closed", True):
            return
        try:
            conn = self._session
            cached = conn._routines.get((conn._database, SIG_CLOSE))
            if cached is not None and not conn.closed and not conn.broken:
                group, _ = _fp.exfp_group(conn, cached[0], cached[1], [fd])
                conn._defer(group)
        except Exception:  # never raise from a finalizer
            pass

    # ---- operations (Op generators: run blocking by SmartLob, awaited by AsyncSmartLob) ----
    def _call_op(self, signature: str, *args: object) -> Op[list[Any]]:
        return _fp.call_op(self._session, signature, args)

    def _open_op(self, mode: str) -> Op[None]:
        flags = open_flags(mode)
        self._check()
        if self._fd is not None:
            yield from self._close_fd_op()
        opened = yield from self._call_op(SIG_OPEN, self._udt(), flags)
        self._opened(returned(opened, "ifx_lo_open"), flags)
        if mode.startswith("w"):
            yield from self._call_op(SIG_TRUNCATE, self._fd, 0)

    def _close_op(self) -> Op[None]:
        """Close the server descriptor (the object stays: a row holds it)."""
        if self._closed:
            return
        self._closed = True
        conn = self._session
        if self._fd is not None and not conn.closed and not conn.broken:
            yield from self._close_fd_op()

    def _close_fd_op(self) -> Op[None]:
        fd, self._fd = self._fd, None
        if fd is not None:
            yield from self._call_op(SIG_CLOSE, fd)

    def _ensure_op(self, write: bool) -> Op[int]:
        """The descriptor, opened (``"r"``, or ``"r+"`` to write) when needed; the position
        is kept across a reopen."""
        self._check()
        if self._fd is None or (write and not self._writable):
            pos = self._pos
            yield from self._open_op("r+" if write else "r")
            self._pos = pos
        assert self._fd is not None
        return self._fd

    def _sync_op(self, fd: int) -> Op[None]:
        """Move the server's descriptor to our position (one fast-path call, only when a seek
        made them differ)."""
        if self._server_pos != self._pos and not self._append:
            moved = yield from self._call_op(SIG_SEEK, fd, self._pos, slo.LO_SEEK_SET, 0)
            self._server_pos = returned_int(moved, "ifx_lo_seek")

    # The operations below are the public methods of both drivers' objects (SmartLob's run
    # them blocking, AsyncSmartLob's await them: client/steps.py ``blocking_method``), so
    # their parameters and docstrings are the methods' own.

    def _seek_op(self, offset: int, whence: int = io.SEEK_SET) -> Op[int]:
        """Move the position (no server call until the next read or write, except from the
        end, which asks for the size)."""
        self._check()
        self._moved()
        size = (yield from self._size_op()) if whence == io.SEEK_END else 0
        self._pos = seek_target(self._pos, offset, whence, size)
        return self._pos

    def _size_op(self) -> Op[int]:
        """The object's size in bytes (``ifx_lo_stat``, what JDBC's ``length()`` calls)."""
        fd = yield from self._ensure_op(False)
        stat = yield from self._call_op(SIG_STAT, fd, _STAT_PLACEHOLDER)
        return stat_size(returned(stat, "ifx_lo_stat"))

    def _truncate_op(self, size: int | None = None) -> Op[int]:
        """Cut the object to ``size`` bytes (default: the position); returns the size."""
        target = self._pos if size is None else size
        if target < 0:
            raise DataError(f"negative truncate size {target}")
        fd = yield from self._ensure_op(True)
        yield from self._call_op(SIG_TRUNCATE, fd, target)
        return target

    def _read_into_sink_op(self, sink: bytearray | memoryview, n: int) -> Op[int]:
        fd = yield from self._ensure_op(False)
        yield from self._sync_op(fd)
        got = yield from _fp.read_into_op(self._session, fd, sink, n)
        self._pos += got
        self._server_pos = self._pos
        return got

    def _read_stream_op(self, sinks: Iterable[memoryview],
                        on_data: Callable[[memoryview], object] | None = None,
                        window: int = _fp.READ_WINDOW) -> Op[int]:
        """Pipelined reads from the position (client/fastpath.py ``read_pipelined_op``)."""
        fd = yield from self._ensure_op(False)
        yield from self._sync_op(fd)
        try:
            got = yield from _fp.read_pipelined_op(self._session, fd, sinks, on_data, window)
        except BaseException:
            self._server_pos = -1  # unknown: the next read seeks first
            raise
        self._pos += got
        self._server_pos = self._pos
        return got

    def _read_bytes_op(self, size: int | None = -1) -> Op[bytes]:
        """Up to ``size`` bytes from the position; all of the rest when ``size`` is -1 or None
        (read in 1 MiB messages: prefer chunks or readinto for very large objects)."""
        n = -1 if size is None else size
        if 0 <= n <= _fp.READ_MESSAGE:
            out = bytearray()
            if n:
                yield from self._read_into_sink_op(out, n)
            return bytes(out)
        if n < 0:
            out = bytearray()
            yield from self._read_stream_op(_fp.rotating(_fp.READ_MESSAGE), out.extend)
            return bytes(out)
        buf = bytearray(n)
        del buf[(yield from self._read_stream_op(slices(memoryview(buf), _fp.READ_MESSAGE))) :]
        return bytes(buf)

    def _readinto_op(self, b: bytearray | memoryview) -> Op[int]:
        """Fill ``b`` from the position; returns the bytes read (fewer at the end)."""
        view = memoryview(b).cast("B")
        if len(view) <= _fp.READ_MESSAGE:
            if not len(view):
                return 0
            return (yield from self._read_into_sink_op(view, len(view)))
        return (yield from self._read_stream_op(slices(view, _fp.READ_MESSAGE)))

    def _copy_to_op(self, target: BinaryIO | Any, chunk: int = _fp.COPY_MESSAGE) -> Op[int]:
        """Copy from the position to the end into a binary file-like object (for the asyncio
        objects its ``write`` may be a coroutine); returns bytes. Reads are pipelined
        (``COPY_WINDOW`` in flight) in pieces of ``chunk`` bytes (4 MiB: fewer, larger reads
        cost the server less; the buffers stay about 12 MiB)."""
        size = max(1, min(chunk, _fp.COPY_MESSAGE))
        return (yield from self._read_stream_op(
            _fp.rotating(size, _fp.COPY_WINDOW + 1), target.write, _fp.COPY_WINDOW))

    def _write_pieces_op(self, pieces: Pieces) -> Op[int]:
        fd = yield from self._ensure_op(True)
        yield from self._sync_op(fd)
        n = yield from _fp.write_pieces_op(self._session, fd, pieces)
        self._pos += n
        self._server_pos = self._pos
        return n

    def _write_bytes_op(self, data: bytes | bytearray | memoryview) -> Op[int]:
        """Write at the position (at the end in append mode); returns the bytes written."""
        return (yield from self._write_pieces_op(split_pieces(data)))

    def _write_from_op(self, source: BinaryIO | Any, chunk: int = WRITE_MESSAGE) -> Op[int]:
        """Copy a binary file-like object (for the asyncio objects, one whose ``read`` may be
        a coroutine too) in at the position, ``chunk`` bytes at a time."""
        return (yield from self._write_pieces_op(binary_pieces(source, chunk)))

    def _read_text_op(self, size: int | None = -1) -> Op[str]:
        """Up to ``size`` characters (all the rest when -1/None)."""
        text: Any = self  # a ClobText
        result: str = yield from text.read_text_op(size, self._session.encoding,
                                                   self._read_bytes_op)
        return result

    def _write_text_op(self, text: str) -> Op[int]:
        """Write ``text`` encoded in the connection code set; returns the characters written."""
        data = encode_clob(text, self._session.encoding)
        self._moved()
        yield from self._write_pieces_op(split_pieces(data))
        return len(text)

    # The public methods that only run one of the operations above, listed once for both
    # drivers: each driver's class (``SmartLob``, ``AsyncSmartLob``: those with a runner,
    # ``_do``) gets them as methods of its own, blocking or coroutines, with the operation's
    # parameters and docstring (``steps.Forwarded``, ``made_for``).
    close = Forwarded(_close_op)
    seek = Forwarded(_seek_op)
    size = Forwarded(_size_op)
    truncate = Forwarded(_truncate_op)
    readinto = Forwarded(_readinto_op)
    write_from = Forwarded(_write_from_op)
    copy_to = Forwarded(_copy_to_op)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        made_for(cls)


class SmartLob(LocatorBase, Closing):
    """A smart large object on the server, opened on demand. Not thread-safe (like a file).
    Each method runs one of ``LocatorBase``'s operations under the connection's lock."""

    def __init__(self, connection: Connection, locator: bytes) -> None:
        super().__init__(locator)
        self.connection = connection
        self._session = connection

    def _do(self, op: Op[_R]) -> _R:
        conn = self.connection
        with conn._lock:
            return conn._run(op)

    # ---- open / close -------------------------------------------------------------------------
    def open(self: L, mode: str = "r") -> L:
        """Open on the server: ``"r"`` read, ``"r+"`` read and write, ``"w"`` read and write
        after truncating, ``"a"`` write at the end. Reads and writes open it themselves
        (``"r"``, or ``"r+"`` for a write); an open object is reopened for a different mode."""
        self._do(self._open_op(mode))
        return self

    # (close, seek, size, truncate, readinto, write_from, copy_to: ``LocatorBase``'s list)


class Blob(SmartLob):
    """A BLOB value: a binary file-like object over a smart large object on the server."""

    type_name = "blob"
    _kind = XID_BLOB

    read = blocking_method(LocatorBase._read_bytes_op, "read")
    write = blocking_method(LocatorBase._write_bytes_op, "write")

    def read1(self, size: int = -1) -> bytes:
        return self.read(size)

    def readall(self) -> bytes:
        return self.read(-1)

    def chunks(self, size: int = CHUNK) -> Iterator[bytes]:
        """The bytes from the position on, ``size`` at a time."""
        return pieces_until_short(self.read, size)

    def __iter__(self) -> Iterator[bytes]:
        return self.chunks()


class ClobText:
    """The text side of a CLOB (sync and asyncio): bytes decoded as they are read, in the
    connection's code set, with the characters decoded but not yet returned kept here."""

    _decoder: codecs.IncrementalDecoder | None = None
    _chars = ""

    def _reset_text(self) -> None:
        self._decoder: codecs.IncrementalDecoder | None = None
        self._chars = ""

    _moved = _reset_text

    def _feed(self, raw: bytes, encoding: str) -> bool:
        """Decode ``raw`` (empty: the end); whether there was any."""
        if self._decoder is None:
            self._decoder = codecs.getincrementaldecoder(encoding)("strict")
        try:
            self._chars += self._decoder.decode(raw, final=not raw)
        except UnicodeDecodeError as exc:
            raise DataError(f"CLOB bytes are not valid {encoding}: {exc}") from None
        return bool(raw)

    def _take(self, n: int) -> str:
        if n < 0:
            out, self._chars = self._chars, ""
        else:
            out, self._chars = self._chars[:n], self._chars[n:]
        return out

    def _want(self, n: int) -> int:
        """Bytes to read next for ``n`` characters (0: enough are decoded)."""
        if n < 0:
            return _fp.READ_MESSAGE
        return 0 if len(self._chars) >= n else max(n - len(self._chars), 64)

    def read_text_op(self, size: int | None, encoding: str,
                     read: Callable[[int], Generator[_Y, Any, bytes]]) -> Generator[_Y, Any, str]:
        """Up to ``size`` characters (all the rest when -1/None), the bytes read by the
        operation or steps ``read(n)`` (a CLOB's, a BYTE/TEXT reader's) and decoded here."""
        n = -1 if size is None else size
        while (want := self._want(n)) and self._feed((yield from read(want)), encoding):
            pass
        return self._take(n)


class Clob(ClobText, SmartLob):
    """A CLOB value: text in the connection's code set. ``read(n)`` counts characters;
    ``seek``/``tell``/``size`` count bytes (like a text file's positions)."""

    type_name = "clob"
    _kind = XID_CLOB

    def __init__(self, connection: Connection, locator: bytes) -> None:
        super().__init__(connection, locator)
        self._reset_text()

    read = blocking_method(LocatorBase._read_text_op, "read")
    write = blocking_method(LocatorBase._write_text_op, "write")

    def chunks(self, size: int = CHUNK) -> Iterator[str]:
        """The text from the position on, about ``size`` characters at a time."""
        return pieces_until_short(self.read, size)

    def __iter__(self) -> Iterator[str]:
        return self.chunks()


# --------------------------------------------------------------------------------------------
# Creating objects (binds) and fetching them (results)
# --------------------------------------------------------------------------------------------


#: Makes the driver's object for a locator: ``(locator, is_clob) -> Blob/Clob`` (or the
#: asyncio AsyncBlob/AsyncClob), so the operations below serve both drivers.
LobFactory = Callable[[bytes, bool], LocatorBase]


def lob_factory(conn: Connection) -> LobFactory:
    """The sync driver's objects on ``conn``."""
    return lambda locator, clob: (Clob if clob else Blob)(conn, locator)


def create_lob_op(conn: Connection, source: object, clob: bool, make: LobFactory
                  ) -> Op[LocatorBase]:
    """A new object holding ``source`` (bytes-like, str, or a file-like, whose ``read`` may
    be a coroutine on an asyncio connection), closed and ready to bind; JDBC
    ``IfxSmBlob.createBlobOnServer``: ``ifx_lo_create``, SQ_LODATA writes, ``ifx_lo_close``.
    If writing fails (a file-like that raises), the object is released."""
    pieces = source_pieces(source, clob, conn.encoding)
    locator, fd = created((yield from _fp.call_op(conn, SIG_CREATE, CREATE_ARGS)))
    try:
        yield from _fp.write_pieces_op(conn, fd, pieces)
    except BaseException:
        yield from _abandon_op(conn, fd, locator)
        raise
    yield from _fp.call_op(conn, SIG_CLOSE, (fd,))
    return make(locator, clob)


def create_lob(conn: Connection, source: object, clob: bool) -> LocatorBase:
    """``create_lob_op`` on a sync connection: a new Blob/Clob holding ``source``."""
    with conn._lock:
        return conn._run(create_lob_op(conn, source, clob, lob_factory(conn)))


#: ``ifx_lo_create`` arguments: default spec, read-write, an empty locator (JDBC's).
CREATE_ARGS = (_DEFAULT_SPEC, slo.LO_RDWR, _ZERO_LOCATOR)


def created(values: Sequence[object]) -> tuple[bytes, int]:
    """The locator and descriptor ``ifx_lo_create`` returned."""
    locator, fd = [*values, None, None][:2]
    if not isinstance(locator, (bytes, bytearray)) or not isinstance(fd, int):
        raise InterfaceError("ifx_lo_create returned no locator and descriptor")
    return bytes(locator), fd


def _abandon_op(conn: Connection, fd: int, locator: bytes) -> Op[None]:
    """Close and release a half-written new object (it is in no row: nothing refers to it)."""
    if conn.closed or conn.broken:
        return
    try:
        yield from _fp.call_op(conn, SIG_CLOSE, (fd,))
        yield from _fp.call_op(conn, SIG_RELEASE, (_Udt("blob", locator),))
    except Exception:  # the original error matters; the session end frees it anyway
        pass


def materialize_op(lob: LocatorBase, limit: int) -> Op[object]:
    """The value as bytes/str when it holds at most ``limit`` bytes, else the object itself
    (at its start)."""
    head = yield from lob._read_bytes_op(limit + 1)
    if len(head) > limit:
        lob._pos = 0
        lob._moved()
        return lob
    yield from lob._close_op()
    return decode_clob(head, lob._session.encoding) if isinstance(lob, ClobText) else head


def wrap_rows_op(conn: Connection, lobs: Sequence[tuple[int, bool]],
                 rows: list[tuple[Any, ...]], limit: int, make: LobFactory
                 ) -> Op[list[tuple[Any, ...]]]:
    """Rows with BLOB/CLOB locators (72 bytes, or the 144-digit text form) turned into the
    driver's objects (or, up to ``limit`` bytes, into their bytes/str)."""
    out = []
    for row in rows:
        values = list(row)
        for i, clob in lobs:
            data = values[i]
            if data is None:
                continue
            lob = make(slo.decode_locator_field(data), clob)
            values[i] = (yield from materialize_op(lob, limit)) if limit > 0 else lob
        out.append(tuple(values))
    return out


# --------------------------------------------------------------------------------------------
# Parameters
# --------------------------------------------------------------------------------------------

def idescribe_group(conn: Connection, p: Prepared) -> tuple[bytes, Reply]:
    """``ID CIDESCRIBE EOT``, what JDBC's prepareStatement sends (J§3.2)."""
    return cidescribe_group(p.stmt_id), conn._reply()


def described(conn: Connection, p: Prepared, reply: Reply) -> None:
    if reply.error is not None:
        raise conn._server_error(reply.error)
    set_params(p, list(reply.idescribe or []))


def prepare_sets_op(conn: Connection, p: Prepared, first: Sequence[object],
                    rest: Iterable[Sequence[object]], make: LobFactory
                    ) -> Op[list[Sequence[object]] | None]:
    """executemany's parameter sets (``first``, then ``rest``, each in ``?`` order) with
    every value bound to a BLOB/CLOB parameter stored in a new object first, as ``execute``
    stores it (``prepare_params_op``); None when the statement has no BLOB/CLOB parameter
    (asked with one SQ_IDESCRIBE when not known yet; ``rest`` is not read then). Without
    this the text or bytes went into the pipelined rows as they were, and the server refused
    them as locators (-9810, ISAM -12116). The sets are read whole: their objects are made
    one set at a time, before the rows go out. A file-like value is refused (``execute``
    streams it)."""
    if p.param_descs is None:
        group = idescribe_group(conn, p)
        yield [group]
        described(conn, p, group[1])
    if not any(lob_kind(d) is not None for d in p.param_descs or ()):
        return None
    out: list[Sequence[object]] = []
    for index, values in enumerate(itertools.chain((first,), rest)):
        if any(hasattr(v, "read") and not is_locator(v) for v in values):
            raise NotSupportedError(
                f"executemany row {index}: a file-like value is streamed by execute() only")
        out.append((yield from prepare_params_op(conn, p, values, make)))
    return out


def prepare_params_op(conn: Connection, p: Prepared, values: Sequence[object],
                      make: LobFactory) -> Op[list[object]]:
    """``values`` with every value bound to a BLOB/CLOB parameter stored in a new object (its
    Blob/Clob takes its place) and file-likes for BYTE/TEXT read into a ``StreamedBlob``."""
    from .blobstream import StreamedBlob

    if wants_describe(p, values):
        group = idescribe_group(conn, p)
        yield [group]
        described(conn, p, group[1])
    out = list(values)
    actions = list(param_actions(p, values))
    if any(action == "lob" and several_writes(values[i]) for i, action, _ in actions):
        yield from conn._lob_txn_begin_op()
    for i, action, flag in actions:
        if action == "lob":
            out[i] = yield from create_lob_op(conn, values[i], flag, make)
        elif inspect.iscoroutinefunction(getattr(values[i], "read", None)):
            raise ProgrammingError(
                f"parameter {i + 1}: a BYTE/TEXT value streams from a plain file-like object "
                "(its size is needed first); this one's read is a coroutine")
        else:
            out[i] = StreamedBlob(values[i], flag, conn.encoding)
    return out
