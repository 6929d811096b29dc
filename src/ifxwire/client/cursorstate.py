"""The cursor's state: its open result, the row buffer and the row factory, the PEP 249
attributes, and the named cursor API the asyncio cursor reads the buffer through.

``CursorState`` is the base of ``Cursor`` (cursor.py: execute, fetch, the operations both
drivers run). It needs only the session's lower layers (``StatementSession``,
client/lifecycle.py), never the LOB, fast-path or routine modules, so it stays out of the
connection/cursor import circle (tests/unit/test_driver_core.py). Nothing here does I/O.
"""

from __future__ import annotations

import contextlib
import re
import weakref
from collections.abc import Callable, Generator, Iterator, Sequence
from typing import Any, TypeVar

from .. import errors as _e
from ..errors import ProgrammingError
from ..protocol import messages as m
from ..protocol.codes import Msg
from ..protocol.columns import ColumnDesc
from ..protocol.requests import COMMIT_GROUP, id_group
from ..protocol.wire import Writer
from ..rows import BaseRowFactory, Batch, as_tuples, batch_maker, dict_row, direct_keys, tuple_row
from ..types.adapters import AdaptersMap
from ..types.blobs import descriptor_size
from ..types.errors import CodecDataError
from ..types.rowcodec import RowDecoder
from .lifecycle import StatementSession
from .placeholders import count_arg
from .replies import Reply
from .resources import Closing
from .statements import FETCH_SLACK, Description, Prepared

__all__ = ["NO_ROW", "CursorOp", "CursorState"]

_T = TypeVar("_T")
#: A cursor operation (see Connection._run): yields groups to exchange, read steps to drive,
#: or a hook tuple.
CursorOp = Generator[
    list[tuple[bytes, Reply]] | Generator[Any, Any, Any] | tuple[Any, ...], Any, _T]

#: ``Cursor.take_one``'s answer when the current batch is used up (a row may be anything a
#: row factory returns, None included).
NO_ROW: Any = object()

_CURSOR_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,127}")


class _Result:
    """Server-side state of the open result; shared with the cursor's finalizer."""

    __slots__ = ("close_needed", "prepared")

    def __init__(self) -> None:
        self.prepared: Prepared | None = None
        self.close_needed = False


def _abandon(conn_ref: weakref.ref[StatementSession], result: _Result) -> None:
    """Finalizer: a cursor was garbage-collected with its result open.

    No I/O may happen here (it can run in any thread, at any moment), so the CLOSE is only
    queued; it goes out with the connection's next request.
    """
    conn = conn_ref()
    p = result.prepared
    if conn is None or p is None or conn.closed:
        return
    result.prepared = None
    if result.close_needed and p.stmt_id >= 0 and p.epoch == conn._epoch:
        conn._defer(id_group(p.stmt_id, Msg.CLOSE))
    conn._retire(p)



def _failing_maker(exc: Exception) -> Callable[[Batch], list[Any]]:
    """A batch maker that raises ``exc``: where a row factory failed when called."""

    def maker(rows: Batch) -> list[Any]:
        raise exc

    return maker


class CursorState(Closing):
    """A cursor's state and its result's row buffer (module docstring); ``Cursor`` adds
    execute and fetch."""


    #: The open result's column descriptions (set when a result opens; Arrow fetch reads them).
    _columns: Sequence[ColumnDesc] = ()
    #: Set around the Arrow fetch's own fetches only (``raw_fetches``): raw tuple runs
    #: instead of rows.
    _raw_decoder: RowDecoder | None = None

    #: The session the cursor runs on: the connection that made it, as the API of its lower
    #: layers (client/lifecycle.py). Every operation of the cursor uses this name.
    session: StatementSession
    #: The same object, as PEP 249's ``Cursor.connection`` (for the cursor's user); Cursor
    #: names its public type (client/dbapi.py says why it is not the session's).
    connection: object

    def __init__(self, connection: StatementSession) -> None:
        self.session = connection
        self.connection = connection
        self._arraysize = 1
        self._collections = "binary"
        self.description: tuple[Description, ...] | None = None
        self.rowcount = -1
        self.lastrowid: int | None = None
        self._closed = False
        #: The rows served: the decoded batch, or what the row factory made of it.
        self._rows: list[tuple[Any, ...]] = []
        #: The decoded batch (tuples) behind ``_rows``; the same list with ``tuple_row``.
        self._raw: Batch = self._rows
        self._row_factory: BaseRowFactory = connection.row_factory
        #: What makes a batch's rows for the open result (None: serve the tuples).
        self._make_rows: Callable[[Batch], list[Any]] | None = None
        #: (factory, description, _make_rows) last built: reused while they stay the same.
        self._made_for: tuple[object, object, Callable[[Batch], list[Any]] | None] | None = None
        #: The row factory's error on the current batch, raised by the next fetch.
        self._make_error: Exception | None = None
        #: The cursor a row factory is called with (the asyncio cursor wrapping this one).
        self._face: Callable[[], object] | None = None
        self._pos = 0
        self._base = 0  # rows delivered before the current batch
        self._received = 0  # rows received for the current result
        self._exhausted = True
        self._lost: str | None = None
        #: The error that ended the open result halfway (later fetches raise, see _more).
        self._failed: str | None = None
        self._has_result = False
        self._result = _Result()
        self._adapters: AdaptersMap | None = None
        #: Seconds each of this cursor's requests may run before the driver cancels it
        #: (-213); None: the connection's ``statement_timeout``.
        self.statement_timeout: float | None = None
        self._cursor_name: bytes | None = None  # set by the application (the name setter)
        #: BLOB/CLOB values up to this many bytes come as bytes/str; None: the connection's.
        self.lob_materialize_limit: int | None = None
        #: BYTE/TEXT values come as readers (file-like) when True; None: the connection's.
        self.blob_stream: bool | None = None
        fin = weakref.finalize(self, _abandon, weakref.ref(connection), self._result)
        fin.atexit = False

    # ------------------------------------------------------------------ attributes

    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def arraysize(self) -> int:
        """Rows ``fetchmany()`` returns when no size is given (PEP 249; default 1)."""
        return self._arraysize

    @arraysize.setter
    def arraysize(self, value: int) -> None:
        self._arraysize = count_arg(value, "arraysize")

    @property
    def collections(self) -> str:
        """The form the next ``execute`` asks for SET/MULTISET/LIST columns: ``"binary"``
        (default, SQ_RET_TYPE) or ``"text"`` (``LIST{1,2}``, ~15x fewer bytes for a LIST of
        10 INTEGERs, issue 25). ``"text"`` applies only when every ROW/collection column of
        the result is a collection of SMALLINT/INTEGER/BIGINT/SMALLFLOAT/FLOAT/DECIMAL/MONEY;
        otherwise the statement quietly stays binary (same values either way). A cursor
        attribute, like ``arraysize``, so both drivers and every execute path share it."""
        return self._collections

    @collections.setter
    def collections(self, value: str) -> None:
        if value not in ("binary", "text"):
            raise ProgrammingError(f"collections must be 'binary' or 'text', not {value!r}")
        self._collections = value

    @property
    def row_factory(self) -> BaseRowFactory:
        """What fetches return: ``ifxwire.rows.tuple_row`` (the default, from the connection's
        ``row_factory`` when the cursor was made), ``dict_row``, ``Row``... Assigning it while
        a result is open applies to the rows not fetched yet (docs/DRIVER.md, "Row factories").
        """
        return self._row_factory

    @row_factory.setter
    def row_factory(self, factory: BaseRowFactory) -> None:
        if not callable(factory):
            raise ProgrammingError(f"row_factory must be callable, not {type(factory).__name__}")
        self._row_factory = factory
        if self._has_result and self.description is not None:
            self._shape(self.description)
            self._remake()

    def _shape(self, description: tuple[Description, ...]) -> None:
        """A result of this description opened: build its batch maker, once per shape (the
        factory is not called again while the cursor runs results of the same description)."""
        self.description = description
        factory = self._row_factory
        if factory is tuple_row:
            self._make_rows = None
            return
        made = self._made_for
        if made is not None and made[0] is factory and made[1] is description:
            self._make_rows = made[2]
            return
        face = self._face() if self._face is not None else None
        try:
            maker = batch_maker(factory, self if face is None else face)
        except Exception as exc:
            # The factory itself failed: not execute's error (the result is open and tracked
            # like any other), but every fetch's, as a failing maker's would be (DRIVER.md §19).
            self._make_rows = _failing_maker(exc)
            return
        self._make_rows = maker
        self._made_for = (factory, description, maker)

    def _serve(self, rows: Batch, during_fetch: bool = True) -> None:
        """Make ``rows`` (a decoded batch) the rows served, through the row factory. Its error
        is raised now inside a fetch, by the next fetch otherwise (not by execute)."""
        self._raw = rows
        make = self._make_rows
        if make is None:
            self._rows = rows
            return
        try:
            self._rows = make(rows)
        except Exception as exc:
            self._rows = []
            self._make_error = exc
            if during_fetch:
                raise

    def _remake(self) -> None:
        """The row factory changed: make the rows of the current batch again."""
        self._make_error = None
        self._serve(as_tuples(self._raw), during_fetch=False)

    def _direct(self, reply: Reply, p: Prepared) -> None:
        """``dict_row``'s result reply: on the accelerated decoder, have it decode its rows
        straight into dicts (rows.direct_keys says when and why). Called by the cursor only
        when the factory is ``dict_row``, so that other factories pay one identity check."""
        if not p.blobs and not p.lobs and hasattr(reply.decoder, "decode_dicts"):
            reply.keys = direct_keys(self._row_factory, p.description)

    def _serve_reply(self, reply: Reply, during_fetch: bool = True) -> None:
        """Serve a fetched batch: a reply decoded to dicts as it is while the factory is
        still ``dict_row``; anything else through ``_serve`` (tuples again first)."""
        rows = reply.rows
        if reply.keys is not None:
            if self._row_factory is dict_row:
                self._rows = self._raw = rows
                return
            rows = as_tuples(rows)
        if self._make_rows is None or self._raw_decoder is not None:
            # (Arrow's raw runs are columns' bytes, not rows: no row factory for them.)
            self._rows = self._raw = rows
        else:
            self._serve(rows, during_fetch)

    @property
    def adapters(self) -> AdaptersMap:
        """This cursor's loaders and dumpers: a snapshot of the connection's, taken on first use."""
        if self._adapters is None:
            self._adapters = AdaptersMap(self.session.adapters)
        return self._adapters

    def _active_adapters(self) -> AdaptersMap:
        ad = self._adapters
        return self.session.adapters if ad is None else ad

    def _decoder(self, p: Prepared) -> RowDecoder | None:
        """The statement's cached decoder, wrapped only when a user loader applies."""
        if self._raw_decoder is not None:
            return self._raw_decoder
        decoder = p.decoder
        ad = self._active_adapters()
        if decoder is None or not ad.has_user_loaders or p.description is None:
            return decoder
        codes = [d[1] for d in p.description]
        for i, _ in p.blobs:
            codes[i] = -1  # loaders see BYTE/TEXT data, not descriptors: see _apply_blobs
        for i, _ in p.lobs:
            codes[i] = -1  # BLOB/CLOB locators become Blob/Clob objects (client/lob.py)
        return ad.row_decoder(decoder, codes)

    # ------------------------------------------------------------------ BYTE / TEXT (no I/O)

    def _blob_requests(self, p: Prepared, reply: Reply) -> list[tuple[bytes, Reply]]:
        """``ID FETCHBLOB EOT`` per non-NULL BYTE/TEXT value of a batch just received.

        Sent pipelined, before anything else may go to the server for this statement (a
        deferred CLOSE or RELEASE): one round trip per batch, whatever its number of blobs.
        Shared with the asyncio cursor, which only does the exchange differently.
        """
        if not p.blobs or not reply.rows or reply.error is not None:
            return []
        if reply.decode_error is not None:
            return []
        conn = self.session
        groups: list[tuple[bytes, Reply]] = []
        sid = p.stmt_id
        for row in reply.rows:
            for i, _ in p.blobs:
                descriptor = row[i]
                if descriptor is not None:
                    w = Writer()
                    m.put_fetchblob(w, sid, descriptor)
                    # The data may not exceed the size the descriptor announced.
                    limit = max(descriptor_size(descriptor), 0)
                    groups.append((bytes(w.buf), conn._reply(blob_limit=limit)))
        return groups

    def _apply_blobs(self, p: Prepared, reply: Reply, fetched: list[tuple[bytes, Reply]]) -> None:
        """Put the fetched data in place of the descriptors (bytes for BYTE, str for TEXT)."""
        answers = iter(fetched)
        conn = self.session
        encoding = conn.encoding
        ad = self._active_adapters()
        assert p.description is not None
        loaders = [(i, ad.user_loader(p.description[i][1])) for i, _ in p.blobs]
        rows = []
        for row in reply.rows:
            values = list(row)
            for (i, is_text), (_, load) in zip(p.blobs, loaders, strict=True):
                if values[i] is None:
                    continue
                answer = next(answers)[1]
                if answer.error is not None:
                    if reply.error is None:
                        reply.error = answer.error
                    return
                data = bytes(answer.blob or b"")
                try:
                    value: object = data.decode(encoding) if is_text else data
                    values[i] = value if load is None else load(value)
                except Exception as exc:
                    if reply.decode_error is None:
                        reply.decode_error = CodecDataError(
                            f"column {i + 1} ({p.description[i][0]!r}): {type(exc).__name__}: {exc}"
                        )
                    return
            rows.append(tuple(values))
        reply.rows = rows

    @property
    def name(self) -> str | None:
        """The server cursor's name while a result is open (SQ_CURNAME): what
        ``UPDATE/DELETE … WHERE CURRENT OF <name>`` names (docs/DRIVER.md §15). Assign a
        name (an identifier) before ``execute`` to choose it, as JDBC's setCursorName."""
        p = self._result.prepared
        if p is None:
            return None
        return (self._cursor_name or p.cursor_name).decode("ascii")

    @name.setter
    def name(self, value: str | None) -> None:
        if value is None:
            self._cursor_name = None
            return
        if not isinstance(value, str) or not _CURSOR_NAME.fullmatch(value):
            raise ProgrammingError(f"a cursor name must be an identifier, not {value!r}")
        self._cursor_name = value.encode("ascii")

    @property
    def rownumber(self) -> int | None:
        """0-based index of the next row in the result (PEP 249 extension)."""
        return self._base + self._pos if self._has_result else None

    @property
    def batch_size(self) -> int:
        """Rows currently held by the cursor (the last fetch reply): the streaming bound."""
        return len(self._rows)

    def setinputsizes(self, sizes: object) -> None:
        """Accepted and ignored: bind types follow the Python values (PEP 249 allows this)."""

    def setoutputsize(self, size: int, column: int | None = None) -> None:
        """Accepted and ignored: values arrive whole."""

    def nextset(self) -> None:
        """Informix statements return one result set at most, so there is never a next one."""
        self._check()
        return None

    # ------------------------------------------------------------------ the open result

    def _reset(self) -> None:
        """Forget the previous result (its server cursor is closed with the next request)."""
        self._release_result()
        self.description = None
        self.rowcount = -1
        self.lastrowid = None
        self._rows = self._raw = []
        self._make_error = None
        self._make_rows = None
        self._pos = 0
        self._base = 0
        self._received = 0
        self._exhausted = True
        self._lost = None
        self._failed = None
        self._has_result = False

    def _release_result(self, commit_ansi: bool = True) -> None:
        res = self._result
        p = res.prepared
        if p is None:
            return
        conn = self.session
        res.prepared = None
        conn._open_results.discard(self)
        if res.close_needed and p.stmt_id >= 0 and p.epoch == conn._epoch:
            conn._defer(id_group(p.stmt_id, Msg.CLOSE))
        res.close_needed = False
        conn._retire(p)
        if commit_ansi and conn._ansi_autocommit() and not conn._open_results:
            conn._defer(COMMIT_GROUP)
            conn._in_txn = False

    def _finish(self) -> None:
        """The result is exhausted: free the server cursor, publish rowcount."""
        self._exhausted = True
        self.rowcount = self._received
        self._release_result()

    def _result_lost(self, what: str, send_close: bool) -> None:
        """Called by the connection: a transaction end or database change closed the cursor."""
        if self._exhausted:
            return
        if not send_close:
            self._result.close_needed = False
        self._lost = what
        self._exhausted = True
        self._release_result(commit_ansi=False)

    def _check_result(self) -> None:
        self._check()
        if not self._has_result:
            raise _e.no_result_set()
        if self._make_error is not None:
            # The row factory refused the current batch: every fetch says so until the
            # factory changes (the setter makes the batch again) or a new execute.
            raise self._make_error.with_traceback(None)

    def close(self) -> None:
        """Close the cursor; its open result's server cursor is closed with the next request."""
        if self._closed:
            return
        conn = self.session
        with conn._lock:
            if not conn.closed:
                self._reset()
            self._closed = True

    def _check(self) -> None:
        if self._closed:
            raise _e.closed_error("cursor")
        if self.session.closed:
            raise _e.closed_error("connection")

    def __repr__(self) -> str:
        return f"<ifxwire Cursor {self.state_text()}>"

    def state_text(self) -> str:
        """What both drivers' cursors show of themselves in ``repr``."""
        return f"{'closed' if self._closed else 'open'} rowcount={self.rowcount}"

    # ------------------------------------------------------------------ cursor API
    # What ``AsyncCursor`` uses of the sync cursor it drives: its fetch loops await where
    # the loops above block, and they reach the row buffer and the result's state only
    # through these names. Not for applications. The sync fetches keep their loops inline:
    # they are the hot path, and a call per row or per batch would add to it.

    def serve_as(self, outer: object) -> None:
        """Row factories are called with ``outer`` (the asyncio cursor driving this one)
        instead of this cursor."""
        self._face = weakref.ref(outer)

    def ensure_open(self) -> None:
        """Raise InterfaceError when the cursor or its connection is closed."""
        self._check()

    def ensure_result(self) -> None:
        """``ensure_open``; raise when there is no result to fetch from, or when the row
        factory refused the current batch."""
        self._check_result()

    def fetch_count(self, size: int | None) -> int:
        """``ensure_result``; the number of rows ``fetchmany(size)`` returns at most."""
        self._check_result()
        return self._arraysize if size is None else count_arg(size, "fetchmany size")

    def result_columns(self) -> Sequence[ColumnDesc]:
        """The columns of the current result (empty without one), as described."""
        return self._columns

    def take(self, n: int) -> list[Any]:
        """Up to ``n`` rows of the current batch, consumed (no I/O)."""
        pos = self._pos
        out = self._rows[pos : pos + n]
        self._pos = pos + len(out)
        return out

    def take_one(self) -> Any:
        """The next row of the current batch, consumed, or ``NO_ROW`` when the batch is
        used up (no I/O)."""
        pos = self._pos
        rows = self._rows
        if pos < len(rows):
            self._pos = pos + 1
            return rows[pos]
        return NO_ROW


    # ---- the Arrow fetch's (client/arrowfetch.py, for both drivers' cursors): the decoded
    # tuples rather than the row factory's rows, and raw tuple runs instead of tuples

    def has_user_loaders(self) -> bool:
        """Does a user loader apply (the cursor's adapters, else the connection's)?"""
        return self._active_adapters().has_user_loaders

    def decoded(self) -> Batch:
        """The current batch as decoded (tuples or raw runs), not consumed: a fetch that
        brought a batch replaces it."""
        self._raw = rows = as_tuples(self._raw)
        return rows

    def take_decoded(self) -> Batch:
        """The decoded rows (or runs) of the current batch not yet delivered, consumed."""
        self._raw = rows = as_tuples(self._raw)
        pos = self._pos
        self._pos = len(rows)
        return rows[pos:] if pos else rows

    def add_received(self, extra: int) -> None:
        """A batch of runs was counted one row a run: count its ``extra`` rows too (for
        ``rownumber`` and, once the result ended, ``rowcount``)."""
        self._received += extra
        if self._exhausted:
            self.rowcount = self._received

    @contextlib.contextmanager
    def raw_fetches(self, decoder: object, fetch_size: int = 0) -> Iterator[None]:
        """Around fetches whose replies ``decoder`` (a raw-run decoder) turns into runs, in
        replies of at least ``fetch_size`` bytes (0: the statement's own size); the row
        decoder and the sizes are restored afterwards."""
        p = self._result.prepared
        if decoder is None or p is None:
            yield
            return
        saved = p.fetch_size, p.tuple_budget
        if fetch_size:
            p.fetch_size = max(p.fetch_size, fetch_size)
            p.tuple_budget = FETCH_SLACK * p.fetch_size + 2 * (p.tuple_limit + 9)
        self._raw_decoder = decoder  # type: ignore[assignment]  # (decodes runs, not rows)
        try:
            yield
        finally:
            self._raw_decoder = None
            p.fetch_size, p.tuple_budget = saved


def _at_end(reply: Reply) -> bool:
    """Does this fetch reply end the result? (jdbc-protocol.md 3.5)

    SQ_CLOSE, a reply without tuples, or SQ_DONE with the total count end it. A SQ_DONE of 0
    next to tuples is not trusted to mean the end (JDBC keeps fetching in that case too).
    """
    if reply.closed or not reply.rows:
        return True
    done = reply.done
    return done is not None and done.rows > 0


def _lastrowid(reply: Reply) -> int | None:
    """SERIAL8/BIGSERIAL from SQ_INSERTDONE, else SERIAL from SQ_DONE; None if neither."""
    ins = reply.insertdone
    if ins is not None:
        if ins.bigserial:
            return ins.bigserial
        if ins.serial8:
            return ins.serial8
    done = reply.done
    if done is not None and done.serial:
        return done.serial
    return None
