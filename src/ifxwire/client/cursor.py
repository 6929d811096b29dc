"""The PEP 249 Cursor: execute, streaming fetch, callproc, executemany (see batch.py).

Results stream: a cursor holds only the rows of the last fetch reply (one "batch", bounded by
``fetch_buffer_size``), decoded as that reply arrived. Iterating a million rows therefore uses
the memory of one batch; ``fetchall()`` is the only call that accumulates, because it must.

Round trips: a statement seen before is found in the connection's statement cache, so a
repeated SELECT is one request group (``ID CURNAME [BIND] OPEN ID NFETCH``) and a repeated
INSERT is one group (``ID [BIND] EXECUTE``). The end of a result costs nothing extra: with
OPTOFC the server closes the cursor itself (SQ_CLOSE); otherwise, and for results abandoned
early, the CLOSE is deferred and rides along with the next request.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, TypeVar

from .. import errors as _e
from ..errors import DatabaseError, NotSupportedError, ProgrammingError
from ..protocol import messages as m
from ..protocol.codes import Msg, StmtType
from ..protocol.requests import (
    BEGIN_GROUP,
    COMMIT_GROUP,
    execute_group,
    id_group,
    nfetch_group,
    query_open_group,
)
from ..protocol.wire import Writer
from ..rows import dict_row, tuple_row
from ..types.errors import CodecError
from . import blobstream as _blobstream
from . import lob as _lob
from . import lobparams as _lobparams
from .binds import bind_message
from .cancel import timeout_scope
from .cursorstate import NO_ROW, CursorOp, CursorState, _at_end, _lastrowid
from .dbapi import DbapiConnection
from .lifecycle import codec_error
from .outparams import has_markers
from .placeholders import SqlPlan, arrange, count_arg, plan_sql, proc_params
from .replies import Reply
from .routines import OUT_ARGUMENT, PROC_NAME, callproc_op, out_parameters_hint
from .rowiter import iterate_rows
from .statements import TEXT_FORM_KEY, Prepared
from .steps import Calls, Op, Steps, blocking_method, call_each

__all__ = ["NO_ROW", "Cursor", "CursorOp"]

log = logging.getLogger("ifxwire.client")

_T = TypeVar("_T")


class Cursor(CursorState):
    """A PEP 249 cursor. Create it with ``Connection.cursor()``. Its state, row buffer and
    attributes are ``CursorState``'s (cursorstate.py)."""

    #: The connection that made the cursor (PEP 249), as its user sees it: the Protocol
    #: names connection.py's public surface without importing it (client/dbapi.py).
    connection: DbapiConnection[Cursor]

    # ------------------------------------------------------------------ execute

    def execute(self, operation: str, parameters: object = None) -> Cursor:
        """Prepare (or reuse) and run ``operation``; returns the cursor.

        Parameters use ``?``, ``:1`` or ``:name`` markers; values are bound, never interpolated.
        """
        self._check()
        conn = self.session
        args = self._execute_args(operation, parameters)
        started = time.perf_counter()
        with conn._lock, timeout_scope(conn, self.statement_timeout):
            conn._check()
            cached = conn._run(self._execute_op(operation, *args), self)
        if log.isEnabledFor(logging.DEBUG):
            log.debug(
                "execute %.3f ms%s: %s",
                (time.perf_counter() - started) * 1000,
                " (command)" if cached is None else " (cached)" if cached else "",
                operation,
            )
        return self

    # ------------------------------------------------------------------ operations
    # A cursor operation (CursorOp) is written once for both drivers: it yields either the
    # request groups to exchange (a list, as a connection's Op) or a hook, a tuple
    # ``(method name, *arguments)`` naming a step whose I/O the two cursors do differently
    # (LOB values, BYTE/TEXT data); what the hook returns is sent back. The connection's
    # loop runs it (``Connection._run(op, cursor)``: blocking; ``AsyncConnection._run``:
    # with awaits), the hooks being the cursor's methods of those names.

    def _execute_args(
        self, operation: str, parameters: object
    ) -> tuple[SqlPlan, Sequence[Any], bytes, bool]:
        """``execute``'s arguments checked and bound, before the lock is taken: the plan,
        the values, the bound values and whether some stream from files."""
        conn = self.session
        plan = plan_sql(operation)
        values = arrange(plan, parameters)
        streamed = bool(plan.nparams) and _lobparams.has_file_values(values)
        bind = (
            bind_message(values, conn.encoding, self._active_adapters(), conn._blob_width)
            if plan.nparams and not streamed
            else b""
        )
        return plan, values, bind, streamed

    def _execute_op(
        self, operation: str, plan: SqlPlan, values: Sequence[Any], bind: bytes, streamed: bool
    ) -> CursorOp[bool | None]:
        """``execute`` after its arguments were checked and bound, under the connection's
        lock: True when the statement came from the cache, None for a command."""
        conn = self.session
        self._reset()
        if plan.command is not None:
            yield from self._run_command_op(operation, plan)
            return None
        # cursor.collections = "text": a statement of its own, prepared without SQ_RET_TYPE
        key = operation if self._collections == "binary" else TEXT_FORM_KEY + operation
        p = conn._cached_statement(key)
        if p is not None:
            cached = True
        else:
            p, cached = yield from conn._statement_op(key, plan)
        try:
            if plan.nparams and _lobparams.needs_pass(p, values, streamed):
                # Values for BLOB/CLOB parameters go into new smart large objects first
                # (in autocommit mode, in one transaction with the statement:
                # Connection._lob_txn_begin).
                values = yield from _lob.prepare_params_op(
                    conn, p, values, self._makers().lob_factory())
                if any(isinstance(v, _blobstream.StreamedBlob) for v in values):
                    yield self.streamed_steps(p, values)
                    yield from conn._lob_txn_end_op(commit=True)
                    return cached
                bind = bind_message(values, conn.encoding, self._active_adapters(),
                                    conn._blob_width)
            while True:  # once more after a -710 (the table changed since the PREPARE)
                groups, begin, reply, commit = self._statement_groups(p, bind)
                try:
                    # (the statement's run is written here, not in a generator of its own:
                    # one generator per execute is what the hot path can afford)
                    if p.is_query:
                        p.busy = True
                        try:
                            yield groups
                            if p.blobs or p.lobs:
                                yield from self.blobs_op(p, reply)
                        except BaseException:
                            p.busy = False
                            raise
                        self._opened(p, reply, begin)
                    else:
                        try:
                            yield groups
                            self._executed(p, begin, reply, commit)
                        finally:
                            if not p.cached:
                                conn._retire(p)
                    break
                except DatabaseError as exc:
                    if exc.sqlcode != -710 or not cached:
                        raise
                # The table changed since the statement was prepared: prepare it again,
                # once.
                conn._invalidate(p)
                p = yield from conn._prepare_op(key, plan, cache=True)
                cached = False
        except Exception:
            if conn._lob_txn:
                yield from conn._lob_txn_end_op(commit=False)
            raise
        except BaseException:
            if conn._lob_txn:
                yield ("_lob_txn_interrupted",)
            raise
        if conn._lob_txn:
            yield from conn._lob_txn_end_op(commit=True)
        return cached

    def _lob_txn_interrupted(self) -> None:
        """The hook of an execute interrupted (not failed) inside the LOB transaction: the
        sync driver may still roll it back (the asyncio one, cancelled, may not await)."""
        self.session._lob_txn_end(commit=False)

    # The request/reply orchestration below is split into "groups to send" and "what the
    # replies mean" so the asyncio cursor runs the very same steps around its own awaits.

    def _statement_groups(
        self, p: Prepared, bind: bytes
    ) -> tuple[list[tuple[bytes, Reply]], Reply | None, Reply, Reply | None]:
        """(groups, BEGIN reply, statement reply, COMMIT reply) for one execution of ``p``.

        A query is ``ID CURNAME [BIND] OPEN ID NFETCH``; anything else ``ID [BIND] EXECUTE``,
        followed by a COMMIT in an ANSI database in autocommit mode.
        """
        conn = self.session
        groups: list[tuple[bytes, Reply]] = []
        begin = conn._begin_reply(p, groups)
        if p.is_query:
            group = query_open_group(p.stmt_id, self._cursor_name or p.cursor_name, bind,
                                     p.ret_type, p.open_fetch_size or p.fetch_size)
            reply = conn._reply(self._decoder(p), p)
            if self._row_factory is dict_row:
                self._direct(reply, p)
            groups.append((group, reply))
            return groups, begin, reply, None
        reply = conn._reply()
        groups.append((execute_group(p.stmt_id, bind), reply))
        commit = None
        if conn._ansi_autocommit():
            commit = conn._reply()
            groups.append((COMMIT_GROUP, commit))
        return groups, begin, reply, commit

    def _executed(
        self, p: Prepared, begin: Reply | None, reply: Reply, commit: Reply | None
    ) -> None:
        """Take over the replies to a non-query's groups (the caller retires ``p``)."""
        conn = self.session
        conn._after_begin(begin)
        if reply.error is not None:
            raise conn._server_error(reply.error)
        done = reply.done
        self.rowcount = done.rows if done is not None else -1
        self.lastrowid = _lastrowid(reply)
        conn._after_statement(p, done)
        self._committed(commit)

    def _committed(self, commit: Reply | None) -> None:
        if commit is not None:
            conn = self.session
            conn._in_txn = False
            if commit.error is not None:
                raise conn._server_error(commit.error)

    def _run_command_op(self, operation: str, plan: SqlPlan) -> CursorOp[None]:
        """Schema and database statements as one ``COMMAND NDESCRIBE EXECUTE RELEASE`` group.

        JDBC's executeUpdate grouping (jdbc-protocol.md 3.2): one round trip instead of a
        PREPARE and an EXECUTE, and nothing left to release. Such statements are never reused
        with new parameters, so caching them would only evict useful statements.
        """
        groups, begin, reply, commit = self._command_groups(plan)
        yield groups
        self._command_done(operation, plan, begin, reply, commit)

    def _command_groups(
        self, plan: SqlPlan
    ) -> tuple[list[tuple[bytes, Reply]], Reply | None, Reply, Reply | None]:
        conn = self.session
        data = conn._encode_sql(plan.sql)
        w = Writer()
        m.put_command(w, data, conn._layout)
        m.put_eot(w)
        groups: list[tuple[bytes, Reply]] = []
        begin = None
        if plan.command == "ddl" and conn._transaction_needed():
            begin = conn._reply()
            groups.append((BEGIN_GROUP, begin))
        reply = conn._reply()
        groups.append((bytes(w.buf), reply))
        commit = None
        if conn._ansi_autocommit() and plan.command == "ddl":
            commit = conn._reply()
            groups.append((COMMIT_GROUP, commit))
        return groups, begin, reply, commit

    def _command_done(
        self,
        operation: str,
        plan: SqlPlan,
        begin: Reply | None,
        reply: Reply,
        commit: Reply | None,
    ) -> None:
        conn = self.session
        d = reply.describe
        if reply.error is not None:
            if d is not None and reply.done is None:
                # Prepared but not executed: the group's RELEASE may not have run.
                conn._defer(id_group(d.stmt_id, Msg.RELEASE))
            if begin is not None and begin.error is None:
                conn._in_txn = True
            raise conn._server_error(reply.error)
        conn._after_begin(begin)
        p = Prepared(
            sql=operation,
            plan=plan,
            stmt_id=-1,  # released by the group itself
            stmt_type=d.stmt_type if d is not None else StmtType.UNKNOWN,
            columns=[],
            epoch=conn._epoch,
            cursor_name=b"",
        )
        done = reply.done
        self.rowcount = done.rows if done is not None else -1
        conn._after_statement(p, done)
        self._committed(commit)

    def _opened(self, p: Prepared, reply: Reply, begin: Reply | None) -> None:
        """Take over the reply to OPEN + first NFETCH."""
        conn = self.session
        failure: Exception | None = None
        if reply.error is not None:
            failure = conn._server_error(reply.error)
        elif reply.decode_error is not None:
            failure = codec_error(reply.decode_error)
        elif begin is not None and begin.error is not None:
            failure = conn._server_error(begin.error)
        if failure is not None:
            if not reply.closed:
                # The error may have come after OPEN; a CLOSE of a cursor that is not open is
                # answered with an error that deferred groups ignore.
                conn._defer(id_group(p.stmt_id, Msg.CLOSE))
            conn._retire(p)
            if begin is not None and begin.error is None:
                conn._in_txn = True
            raise failure
        conn._after_begin(begin)
        conn._after_statement(p, None)
        self._result.prepared = p
        self._result.close_needed = not reply.closed
        self._has_result = True
        if self._row_factory is tuple_row:  # the default: no call, the tuples are the rows
            self.description = p.description
            self._make_rows = None
            self._rows = self._raw = reply.rows
        else:
            if p.description is not None:
                self._shape(p.description)
            self._serve_reply(reply, during_fetch=False)
        self._columns = p.columns
        self._received = len(reply.rows)
        self._exhausted = False
        conn._open_results.add(self)
        if self._opening_ends(reply):
            self._finish()

    def _opening_ends(self, reply: Reply) -> bool:
        """Does the reply to OPEN end the result? (A scroll cursor's never does.)"""
        return _at_end(reply)

    # ------------------------------------------------------------------ fetching

    def _more(self) -> bool:
        """Fetch the next batch; False when the result is exhausted."""
        if self._exhausted:
            if self._failed is not None:
                raise ProgrammingError(
                    f"the result set ended with an error after {self._received} rows "
                    f"({self._failed}); execute the statement again", sqlstate="24000")
            if self._lost is not None:
                lost, self._lost = self._lost, None
                raise ProgrammingError(
                    f"the result set was closed by {lost} before all rows were fetched "
                    "(Informix closes cursors when a transaction ends)",
                    sqlstate="24000",
                )
            return False
        conn = self.session
        with conn._lock, timeout_scope(conn, self.statement_timeout):
            conn._check()
            if self._exhausted:  # another thread's commit closed it meanwhile
                return self._more()
            return conn._run(self._fetch_op(), self)

    def _fetch_op(self) -> CursorOp[bool]:
        """The next batch of the open result; True when it brought rows."""
        group = self._fetch_group()
        try:
            yield [group]
        except BaseException as exc:
            if not isinstance(exc, Exception) and self.session._broken is None:
                # An asyncio cancellation whose reply was drained (aio/connection.py).
                self._fetch_cancelled(group[1])
            raise
        p = self._result.prepared
        if p is not None and (p.blobs or p.lobs):
            yield from self.blobs_op(p, group[1])
        return self._take_batch(group[1])

    def _fetch_group(self) -> tuple[bytes, Reply]:
        """``ID NFETCH EOT`` for the open result and the reply to fill (shared with aio)."""
        p = self._result.prepared
        assert p is not None
        reply = self.session._reply(self._decoder(p), p)
        if self._row_factory is dict_row:
            self._direct(reply, p)
        return nfetch_group(p.stmt_id, p.fetch_size), reply

    def _take_batch(self, reply: Reply) -> bool:
        """Make a filled fetch reply the current batch; True when it brought rows."""
        conn = self.session
        self._base += len(self._raw)
        self._pos = 0
        if reply.error is not None or reply.decode_error is not None:
            # The rows that came with the error are not served: after the error the result
            # only says that it ended with it, never that it ended normally (a shorter
            # result that looks complete).
            self._rows = self._raw = []
            self._result.close_needed = not reply.closed
            self._exhausted = True
            self._release_result()
            err: Exception
            if reply.error is not None:
                err = conn._server_error(reply.error)
            else:
                assert reply.decode_error is not None
                err = codec_error(reply.decode_error)
            self._failed = str(err)
            raise err
        self._received += len(reply.rows)
        if reply.closed:
            self._result.close_needed = False
        if _at_end(reply):
            self._finish()
        if reply.keys is None and (self._make_rows is None or self._raw_decoder is not None):
            # (Arrow's raw runs are columns' bytes, not rows: no row factory for them.)
            self._rows = self._raw = reply.rows
        else:
            self._serve_reply(reply)
        return bool(reply.rows)

    def _fetch_cancelled(self, reply: Reply) -> None:
        """asyncio: the task fetching ``reply`` was cancelled and the reply drained. A whole
        batch of rows is kept; one that failed (the cancel's -213) ends the result as any
        failed fetch does; a batch whose BYTE/TEXT data were not read yet cannot be served."""
        p = self._result.prepared
        if reply.complete and (reply.error is not None or not (p and (p.blobs or p.lobs))):
            # Kept in _failed (or, a row factory's error, _make_error); the cancellation goes on.
            # Anything else is a bug of ours and is not hidden.
            try:
                self._take_batch(reply)
            except _e.Error:
                pass
            except Exception as exc:
                if exc is not self._make_error:
                    raise
            return
        self._rows = self._raw = []
        self._result.close_needed = not reply.closed
        self._exhausted = True
        self._release_result()
        self._failed = "its fetch was cancelled"

    def fetchone(self) -> tuple[Any, ...] | None:
        pos = self._pos
        rows = self._rows
        if pos < len(rows):
            self._pos = pos + 1
            return rows[pos]
        self._check_result()
        while self._more():
            if self._rows:
                self._pos = 1
                return self._rows[0]
        return None

    def fetchmany(self, size: int | None = None) -> list[tuple[Any, ...]]:
        self._check_result()
        want = self._arraysize if size is None else count_arg(size, "fetchmany size")
        out: list[tuple[Any, ...]] = []
        while len(out) < want:
            rows, pos = self._rows, self._pos
            take = min(want - len(out), len(rows) - pos)
            if take > 0:
                out += rows[pos : pos + take]
                self._pos = pos + take
                continue
            if not self._more():
                break
        return out

    def fetchall(self) -> list[tuple[Any, ...]]:
        self._check_result()
        out = self._rows[self._pos :]
        self._pos = len(self._rows)
        while self._more():
            out += self._rows
            self._pos = len(self._rows)
        return out

    def __iter__(self) -> Iterator[tuple[Any, ...]]:
        return iterate_rows(self)  # a generator: cheaper per row than __next__ (rowiter.py)

    def __next__(self) -> tuple[Any, ...]:
        pos = self._pos
        rows = self._rows
        if pos < len(rows):
            self._pos = pos + 1
            return rows[pos]
        row = self.fetchone()
        if row is None:
            raise StopIteration
        return row

    def scroll(self, value: int, mode: str = "relative") -> None:
        """Move forward in the result (forward-only cursors cannot move back)."""
        call_each(self.forward_calls(value, mode), self)

    def forward_calls(self, value: int, mode: str) -> Calls[None]:
        """The forward-only move, shared with ``AsyncCursor.scroll``: it asks for the next
        batch (``fetch_more``, called or awaited) when it needs one."""
        self._check_result()
        value = count_arg(value, "scroll value")
        if mode == "absolute":
            value -= self._base + self._pos
        elif mode != "relative":
            raise ProgrammingError(f"scroll mode must be 'relative' or 'absolute', not {mode!r}")
        if value < 0:
            raise NotSupportedError("this cursor is forward-only; it cannot scroll backwards")
        while value > 0:
            available = len(self._rows) - self._pos
            if available >= value:
                self._pos += value
                return
            value -= available
            self._pos = len(self._rows)
            if not (yield ("fetch_more",)):
                raise IndexError("scroll past the end of the result set")

    # ------------------------------------------------------------------ BYTE / TEXT and LOB values

    def _makers(self) -> Any:
        """What makes this cursor's LOB objects and BYTE/TEXT readers (``lob_factory``,
        ``blob_reader``): the asyncio cursor driving this one (``serve_as``), or this one."""
        face = self._face() if self._face is not None else None
        return self if face is None else face

    def lob_factory(self) -> _lob.LobFactory:
        """The sync driver's objects for BLOB/CLOB values (``Blob``, ``Clob``)."""
        return _lob.lob_factory(self.session)

    def blob_reader(self, p: Prepared) -> Callable[[bytes, bool], object]:
        """The sync driver's reader of a BYTE/TEXT value of ``p``'s result."""
        conn = self.session
        return lambda d, text: _blobstream.reader_for(conn, p.stmt_id, d, text)

    def blobs_op(self, p: Prepared, reply: Reply) -> Op[None]:
        """``fetch_blobs_op`` with the objects of the driver this cursor serves."""
        makers = self._makers()
        return self.fetch_blobs_op(p, reply, makers.blob_reader(p), makers.lob_factory())

    def fetch_blobs_op(
        self, p: Prepared, reply: Reply,
        reader: Callable[[bytes, bool], object], factory: _lob.LobFactory,
    ) -> Op[None]:
        """A batch's BYTE/TEXT and BLOB/CLOB columns, for either driver (``blobs_op`` gives
        its reader maker and its LOB factory): BYTE/TEXT values as readers
        (``blob_stream``, this cursor's or else the connection's) or fetched in one
        exchange, smart LOBs up to ``lob_materialize_limit`` bytes (likewise) read, the
        others made objects."""
        conn = self.session
        stream = conn.blob_stream if self.blob_stream is None else self.blob_stream
        limit = self.lob_materialize_limit
        if limit is None:
            limit = conn.lob_materialize_limit
        if stream and p.blobs and reply.rows and reply.error is None:
            reply.rows = _blobstream.wrap_rows(p, reply.rows, reader)
        fetched = [] if stream else self._blob_requests(p, reply)
        if fetched:
            yield fetched
            self._apply_blobs(p, reply, fetched)
        if p.lobs and reply.rows and reply.error is None and reply.decode_error is None:
            try:
                reply.rows = yield from _lob.wrap_rows_op(
                    self.session, p.lobs, reply.rows, limit, factory)
            except CodecError as exc:  # a locator no server sends: the result ends with it
                reply.decode_error = exc


    # ------------------------------------------------------------------ cursor API (I/O)
    # (The rest of the cursor API, which needs no I/O, is CursorState's.)

    def ended(self) -> bool:
        """True when no batch will come (no I/O); raises the error the result ended with
        (a failed fetch, a result closed by the end of its transaction), as ``_more``."""
        if not self._exhausted:
            return False
        self._more()  # no I/O once exhausted: it raises or says False
        return True

    def fetch_more(self) -> bool:
        """The next batch into the buffer, blocking; False at the end of the result
        (``AsyncCursor.fetch_more`` awaits it)."""
        return self._more()

    def execute_args(
        self, operation: str, parameters: object
    ) -> tuple[SqlPlan, Sequence[Any], bytes, bool]:
        """``execute``'s arguments checked and bound (``_execute_args``: before the lock)."""
        return self._execute_args(operation, parameters)

    def execute_op(
        self, operation: str, args: tuple[SqlPlan, Sequence[Any], bytes, bool]
    ) -> CursorOp[bool | None]:
        """``execute`` itself with ``execute_args``' answer (run holding the lock)."""
        return self._execute_op(operation, *args)

    def streamed_steps(self, p: Prepared, values: list[Any]) -> Steps[None]:
        """Running a non-query ``p`` whose BYTE/TEXT parameters stream from file-likes, as
        steps (``_execute_op`` yields them; either loop drives them)."""
        return _blobstream.execute_streamed_steps(
            self.session, p, values, self._active_adapters(), self._executed)

    def fetch_op(self) -> CursorOp[bool]:
        """The next batch into the buffer (``_fetch_op``), run holding the connection's lock;
        False without I/O when the result ended meanwhile (another task's commit closed it,
        or the error it ended with: ``ended``)."""
        if self.ended():
            return False
        return (yield from self._fetch_op())

    def query_op(self, sql: str, args: Sequence[object] = (),
                 describe: bool = False) -> CursorOp[Any]:
        """Execute ``sql`` and answer its first row (None when it has none) or, with
        ``describe``, its result's columns: one statement of a longer cursor operation
        (ifxwire.cdc's capture session), written once for both drivers."""
        yield from self._execute_op(sql, *self._execute_args(sql, args))
        if describe:
            return list(self.result_columns())
        row = self.take_one()
        while row is NO_ROW and (yield from self.fetch_op()):
            row = self.take_one()
        return None if row is NO_ROW else row

    def run(self, make: Callable[[Cursor], CursorOp[_T]]) -> _T:
        """Run the cursor operation ``make(self)`` holding the connection's lock, within this
        cursor's timeout; ``AsyncCursor.run`` awaits the same operation."""
        return self._do(make(self))

    def _do(self, op: CursorOp[_T]) -> _T:
        """``op`` run holding the connection's lock, within this cursor's timeout, on a
        usable connection (``run``; the methods made by ``blocking_method``)."""
        self._check()
        conn = self.session
        with conn._lock, timeout_scope(conn, self.statement_timeout):
            conn._check()
            return conn._run(op, self)

    # ------------------------------------------------------------------ Arrow (arrowfetch.py)

    def fetch_arrow_table(self) -> Any:
        """The remaining rows as a ``pyarrow.Table`` (ADBC name; needs ``ifxwire[arrow]``)."""
        from . import arrowfetch

        return arrowfetch.table(self)

    def fetch_record_batch(self, rows_per_batch: int | None = None) -> Any:
        """A ``pyarrow.RecordBatchReader`` streaming the remaining rows, one fetch reply at a
        time (batches of at most ``rows_per_batch`` rows when given; ADBC name)."""
        from . import arrowfetch

        return arrowfetch.reader(self, rows_per_batch)

    def __arrow_c_stream__(self, requested_schema: object = None) -> object:
        """The Arrow PyCapsule stream interface over the remaining rows (polars, duckdb,
        ``pyarrow.RecordBatchReader.from_stream``)."""
        return self.fetch_record_batch().__arrow_c_stream__(requested_schema)

    def fetch_df(self, **to_pandas: Any) -> Any:
        """The remaining rows as a pandas DataFrame through Arrow; keyword arguments go to
        ``pyarrow.Table.to_pandas`` (e.g. ``types_mapper=pandas.ArrowDtype``; docs/ARROW.md)."""
        from . import arrowfetch

        return arrowfetch.to_pandas(arrowfetch.table(self), to_pandas)

    def adbc_ingest_op(self, table_name: str, data: Any, mode: str = "create") -> CursorOp[int]:
        """Insert Arrow-compatible ``data`` (Table, RecordBatch(Reader), pandas, anything with
        ``__arrow_c_stream__``) into ``table_name`` through one pipelined executemany, encoded
        column by column (no tuple per row); ``mode`` is "create", "append", "replace" or
        "create_append" (ADBC). Returns the rows inserted."""
        # ``adbc_ingest`` of both cursors (``blocking_method``/``awaiting_method``).
        from .arrowingest import ingest_op, plan_ingest

        return (yield from ingest_op(self, plan_ingest(table_name, data, mode)))

    adbc_ingest = blocking_method(adbc_ingest_op)

    # ------------------------------------------------------------------ other PEP 249 calls

    def executemany(self, operation: str, seq_of_parameters: Iterable[object]) -> Cursor:
        """Run a non-query once per parameter set, pipelined; see ``batch.execute_many``."""
        from .batch import execute_many

        self._check()
        execute_many(self, operation, seq_of_parameters)
        return self

    def lob_sets_op(self, p: Prepared, plan: SqlPlan, first: object, rest: Iterator[object]
                    ) -> CursorOp[list[Sequence[object]] | None]:
        """executemany's sets when ``p`` stores values in BLOB/CLOB columns and they hold
        some: each set in ``?`` order, such values stored in new objects first
        (``lob.prepare_sets_op``); None when the sets can go as they are. batch.py asks
        only for a statement that stores values and may have such parameters."""
        values = arrange(plan, first)
        if p.param_descs is None and not _lobparams.wants_describe(p, values):
            return None  # no value a BLOB/CLOB could take in the first set
        return (yield from _lob.prepare_sets_op(
            self.session, p, values, (arrange(plan, s) for s in rest),
            self._makers().lob_factory()))

    def procedure_op(self, procname: str, parameters: Sequence[object] = ()
                     ) -> CursorOp[Sequence[object]]:
        """Call a stored routine; returns the parameters with OUT/INOUT values in place.

        Plain values are inputs: the call is ``EXECUTE PROCEDURE procname(?, ...)``, the
        parameters come back unchanged and a routine that returns values makes a result set.
        Mark OUT arguments with ``ifxwire.OutParam()`` and INOUT ones with
        ``ifxwire.InOutParam(value)``: the routine then runs the way IBM JDBC's
        CallableStatement runs it (client/routines.py), a new list comes back with the output
        values in place, and a function's return values are a one-row result set
        (docs/DRIVER.md, "Stored routines").
        """
        # ``callproc`` of both cursors (``blocking_method``/``awaiting_method``: this
        # docstring is theirs), run under the connection's lock with the cursor's hooks.
        if not isinstance(procname, str) or not PROC_NAME.match(procname):
            raise ProgrammingError(f"invalid procedure name {procname!r}")
        values = proc_params(parameters)
        if has_markers(values):
            return (yield from callproc_op(self, procname, values))
        sql = f"EXECUTE PROCEDURE {procname}({', '.join('?' * len(values))})"
        try:
            yield from self.execute_op(sql, self.execute_args(sql, list(values)))
        except DatabaseError as exc:
            if exc.sqlcode == OUT_ARGUMENT:
                raise out_parameters_hint(exc, procname) from None
            raise
        return parameters

    callproc = blocking_method(procedure_op, "callproc")
