"""Statements and transactions of a session: prepare, the statement cache, the
statement lifecycle (release, retire, invalidate), implicit BEGIN, COMMIT/ROLLBACK, the
database a statement opened, and the LOB statements' own transaction.

The second of the session's layers (client/wire.py says which): both drivers run these
operations (``Op``s) through their loops; no I/O here.
"""

from __future__ import annotations

import logging
import time

from .. import errors as _e
from ..errors import (
    DatabaseError,
    DataError,
    Error,
    InternalError,
    NotSupportedError,
    ProgrammingError,
)
from ..protocol import messages as m
from ..protocol.codes import DBFLAG_ANSI, DBFLAG_LOGGED, Msg, StmtType
from ..protocol.requests import BEGIN_GROUP, COMMIT_GROUP, ROLLBACK_GROUP, id_group
from ..protocol.wire import Writer
from ..types.blobs import blob_columns, widen_blob_columns
from ..types.composite import is_complex_column
from ..types.compositetext import TextFormColumn, text_form_applies, text_form_columns
from ..types.errors import CodecDataError, CodecError, CodecNotSupported
from ..types.rowcodec import build_row_decoder
from .placeholders import SqlPlan
from .replies import Reply
from .statements import (
    DATABASE_TYPES,
    DDL_TYPES,
    NO_TRANSACTION_TYPES,
    TEXT_FORM_KEY,
    Prepared,
    database_name,
    describe_columns,
    flags_from_create,
    lob_columns,
    params_described,
    returns_rows,
    set_result_limits,
)
from .steps import Op
from .wire import WireSession

__all__ = ["StatementSession", "codec_error"]

log = logging.getLogger("ifxwire.client")


#: The first NFETCH of a text-form result (Prepared.open_fetch_size): ~100 LIST rows.
TEXT_FORM_OPEN_FETCH = 4096


def codec_error(exc: CodecError) -> DatabaseError:
    """A row or value the driver could not decode, as a PEP 249 error."""
    if isinstance(exc, CodecDataError):
        return DataError(f"cannot decode a value: {exc}", sqlstate="22000")
    if isinstance(exc, CodecNotSupported):
        return NotSupportedError(f"cannot decode this result: {exc}", sqlstate="0A000")
    return InternalError(f"reply does not match its description: {exc}", sqlstate="XX000")


class StatementSession(WireSession):
    """``WireSession`` plus statements and transactions (module docstring)."""

    # ------------------------------------------------------------------ properties

    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def broken(self) -> bool:
        """True once the wire failed; the connection can only be closed."""
        return self._broken is not None

    @property
    def autocommit(self) -> bool:
        return self._autocommit

    @autocommit.setter
    def autocommit(self, value: bool) -> None:
        with self._lock:
            self._run(self._autocommit_op(value))

    def _autocommit_op(self, value: bool) -> Op[None]:
        """Set autocommit (both drivers run this): switching it on inside a transaction
        commits it first, as JDBC's setAutoCommit does."""
        self._check()
        value = bool(value)
        if value and not self._autocommit:
            self._autocommit = True
            yield from self._end_transaction_op(COMMIT_GROUP, "commit")
        self._autocommit = value

    def _autocommit_commits(self, value: bool) -> bool:
        """Whether setting autocommit to ``value`` must commit an open transaction (I/O the
        asyncio driver's plain attribute setter cannot do)."""
        return bool(value) and not self._autocommit and self._in_txn

    @property
    def logging_mode(self) -> str | None:
        """'unlogged', 'logged' or 'ansi' for the open database; None without one."""
        return self._logging_mode

    @property
    def database(self) -> str | None:
        return self._database

    @property
    def in_transaction(self) -> bool:
        """Whether the driver knows of an open transaction (always True in ANSI databases
        once a statement ran)."""
        return self._in_txn

    # ------------------------------------------------------------------ statements

    def _encode_sql(self, sql: str) -> bytes:
        try:
            data = sql.encode(self.encoding)
        except UnicodeEncodeError as exc:
            raise ProgrammingError(
                f"the SQL text has a character the connection code set ({self.encoding}) "
                f"cannot represent at position {exc.start}: {sql[exc.start : exc.end]!r}",
                sqlstate="42000",
            ) from None
        nul = sql.find("\x00")
        if nul >= 0:
            # Never meaningful SQL: outside a literal it is no token, inside one it makes a
            # character value Informix cannot hold (docs/DRIVER.md "NUL characters").
            raise ProgrammingError(
                f"the SQL text holds a NUL (U+0000) character at position {nul}", sqlstate="42000"
            )
        if len(data) > 0xFFFF and not self._layout.long_sql:
            raise ProgrammingError(
                f"the SQL text is {len(data)} bytes; this server accepts at most 65535",
                sqlstate="54000",
            )
        return data

    def _next_cursor_name(self) -> bytes:
        self._cursor_seq += 1
        n = self._cursor_seq
        digits = []
        for _ in range(13):
            n, d = divmod(n, 36)
            digits.append("0123456789abcdefghijklmnopqrstuvwxyz"[d])
        return ("_ifxc" + "".join(reversed(digits))).encode("ascii")

    def _prepare(self, sql: str, plan: SqlPlan, cache: bool) -> Prepared:
        return self._run(self._prepare_op(sql, plan, cache))

    def _prepare_op(self, sql: str, plan: SqlPlan, cache: bool) -> Op[Prepared]:
        """PREPARE NDESCRIBE WANTDONE EOT: one round trip, plus any deferred groups."""
        group = self._prepare_group(plan)
        yield [group]
        return self._prepared(sql, plan, cache, group[1])

    def _prepare_group(self, plan: SqlPlan) -> tuple[bytes, Reply]:
        """The PREPARE request and the reply to fill (shared with the asyncio connection)."""
        w = Writer()
        m.put_prepare(w, self._encode_sql(plan.sql), plan.nparams, self._layout)
        m.put_eot(w)
        return bytes(w.buf), self._reply()

    def _prepared(self, sql: str, plan: SqlPlan, cache: bool, reply: Reply) -> Prepared:
        """The statement described by a filled PREPARE reply, entered in the cache."""
        if reply.error is not None:
            raise self._server_error(reply.error)
        d = reply.describe
        if d is None:
            raise _e.protocol_error("PREPARE was answered without SQ_DESCRIBE")
        rows = returns_rows(d.stmt_type, len(d.columns))
        p = Prepared(
            sql=sql,
            plan=plan,
            stmt_id=d.stmt_id,
            stmt_type=d.stmt_type,
            columns=widen_blob_columns(d.columns, self._blob_width) if rows else [],
            epoch=self._epoch,
            cursor_name=self._next_cursor_name(),
        )
        if not rows and d.columns:
            # An INSERT describes the column each ``?`` goes into (docs/PROTOCOL.md §5): the
            # parameters are known without an SQ_CIDESCRIBE round trip (client/lob.py).
            params_described(p, d.columns)
        if p.columns:
            p.description = describe_columns(p.columns)
            p.blobs = blob_columns(p.columns)
            p.lobs = lob_columns(p.columns)
            fetch_buffer = self.fetch_buffer_size
            if sql.startswith(TEXT_FORM_KEY) and text_form_applies(p.columns):
                # cursor.collections = "text" and every collection is numeric: no
                # SQ_RET_TYPE, so the server sends LIST{1,2} (docs/PROTOCOL.md §13)
                p.columns = text_form_columns(p.columns)
            elif any(is_complex_column(c) for c in p.columns):
                p.ret_type = m.ret_type_message(p.columns, self.encoding)
                # Every ROW/collection value carries its ~1 KB type table, so such rows are
                # large: ask for 16 times the buffer (when the server takes sizes over 32 KiB)
                # rather than pay a round trip per few dozen rows.
                if fetch_buffer > 32767:
                    fetch_buffer *= 16
            try:
                p.decoder = build_row_decoder(
                    p.columns, self.encoding, keep_char_padding=self.keep_char_padding
                )
            except CodecError as exc:
                self._defer(id_group(p.stmt_id, Msg.RELEASE))
                raise codec_error(exc) from None
            set_result_limits(p, fetch_buffer, d.tuple_size)
            if any(isinstance(c, TextFormColumn) for c in p.columns):
                p.open_fetch_size = min(p.fetch_size, TEXT_FORM_OPEN_FETCH)
        if cache and p.stmt_type not in DDL_TYPES and p.stmt_type not in DATABASE_TYPES:
            for old in self._cache.add(p):
                self._release(old)
        else:
            p.doomed = True
        return p

    def _statement(self, sql: str, plan: SqlPlan) -> tuple[Prepared, bool]:
        return self._run(self._statement_op(sql, plan))

    def _statement_op(self, sql: str, plan: SqlPlan) -> Op[tuple[Prepared, bool]]:
        """A statement ready to run for ``sql``; True when it came from the cache."""
        p = self._cache.get(sql) if self._cache.size else None
        if p is not None and not p.busy and p.epoch == self._epoch:
            return p, True
        return (yield from self._prepare_op(sql, plan, cache=p is None)), False

    def _cached_statement(self, sql: str) -> Prepared | None:
        """The cached statement for ``sql`` if it can run now (``_statement_op`` without a
        generator, for the execute path)."""
        p = self._cache.get(sql) if self._cache.size else None
        if p is not None and not p.busy and p.epoch == self._epoch:
            return p
        return None

    def _release(self, p: Prepared) -> None:
        """Free a statement on the server: now if idle (deferred), else once its cursor ends."""
        if p.epoch != self._epoch:
            return  # the server already forgot it (database changed)
        if p.busy:
            p.doomed = True
            return
        if p.stmt_id >= 0:
            self._defer(id_group(p.stmt_id, Msg.RELEASE))
            p.stmt_id = -1

    def _retire(self, p: Prepared) -> None:
        """A statement finished a use; release it if nobody keeps it."""
        p.busy = False
        if p.doomed or not p.cached:
            self._release(p)

    def _invalidate(self, p: Prepared) -> None:
        """Drop a cached statement whose shape went stale (-710) and release it."""
        self._cache.discard(p)
        self._release(p)

    def _transaction_needed(self) -> bool:
        """Would a transaction-worthy statement need an implicit BEGIN WORK now?

        Only in logged, non-ANSI databases with autocommit off and no transaction open:
        unlogged databases have no transactions, ANSI ones begin implicitly.
        """
        return not (self._autocommit or self._in_txn or self._logging_mode != "logged")

    def _needs_begin(self, p: Prepared) -> bool:
        """Does this statement need an implicit BEGIN WORK first?"""
        if not self._transaction_needed():
            return False
        if p.stmt_type in NO_TRANSACTION_TYPES:
            return False
        if p.stmt_type == StmtType.SELECT and p.columns:
            return p.plan.for_update or self._repeatable_read
        return True

    def _begin_reply(self, p: Prepared, groups: list[tuple[bytes, Reply]]) -> Reply | None:
        if not self._needs_begin(p):
            return None
        reply = self._reply()
        groups.append((BEGIN_GROUP, reply))
        return reply

    def _after_begin(self, reply: Reply | None) -> None:
        if reply is None:
            return
        if reply.error is not None:
            raise self._server_error(reply.error)
        self._in_txn = True

    def _after_statement(self, p: Prepared, done: m.Done | None) -> None:
        """Transaction, isolation, database and cache bookkeeping after a successful run."""
        st = p.stmt_type
        if self._logging_mode == "ansi" and st not in DATABASE_TYPES:
            self._in_txn = st not in (StmtType.COMMIT_WORK, StmtType.ROLLBACK_WORK)
        if st == StmtType.BEGIN_WORK:
            self._in_txn = True
        elif st in (StmtType.COMMIT_WORK, StmtType.ROLLBACK_WORK):
            self._in_txn = False
            self._transaction_ended(
                "COMMIT WORK" if st == StmtType.COMMIT_WORK else "ROLLBACK WORK"
            )
        if p.plan.sets_repeatable_read is not None:
            self._repeatable_read = p.plan.sets_repeatable_read
        if st in DATABASE_TYPES:
            self._database_changed(p, done)
        elif st in DDL_TYPES:
            for old in self._cache.drain():
                self._release(old)

    def _database_changed(self, p: Prepared, done: m.Done | None) -> None:
        # The server forgets statement ids when the database changes: no RELEASE for them.
        self._cache.drain()
        self._epoch += 1
        self._in_txn = False
        self._transaction_ended("a database change", send_close=False)
        st = p.stmt_type
        if st == StmtType.CLOSE_DATABASE:
            self._set_database(None, None)
        elif st == StmtType.DROP_DATABASE:
            pass
        else:
            flags = done.warnings if done is not None else 0
            if st == StmtType.CREATE_DATABASE and not flags & (DBFLAG_LOGGED | DBFLAG_ANSI):
                flags = flags_from_create(p.plan.sql)
            self._set_database(database_name(p.plan.sql), flags)
        # Whether a server keeps this statement's own id is not known (ours does), so release
        # it explicitly; the RELEASE goes out before any new PREPARE could reuse the id.
        if p.stmt_id >= 0:
            self._defer(id_group(p.stmt_id, Msg.RELEASE))
            p.stmt_id = -1

    def _set_database(self, name: str | None, flags: int | None) -> None:
        self._database = name
        self._routines.clear()
        self._out_routines.clear()
        self._repeatable_read = False
        if name is None or flags is None:
            self._logging_mode = None if name is None else "unlogged"
            return
        if flags & DBFLAG_ANSI:
            self._logging_mode = "ansi"
        elif flags & DBFLAG_LOGGED:
            self._logging_mode = "logged"
        else:
            self._logging_mode = "unlogged"

    def _end_transaction_op(self, group: bytes, what: str) -> Op[None]:
        """COMMIT or ROLLBACK (``group``), when a transaction may be open."""
        mode = self._logging_mode
        if mode is None or mode == "unlogged":
            return
        if mode == "logged" and not self._in_txn:
            return
        reply = self._reply()
        started = time.perf_counter()
        yield [(group, reply)]
        self._in_txn = False
        self._transaction_ended(what)
        log.debug("%s (%.3f ms)", what, (time.perf_counter() - started) * 1000)
        if reply.error is not None:
            raise self._server_error(reply.error)

    def _transaction_ended(self, what: str, send_close: bool = True) -> None:
        """Informix closes every non-hold cursor when a transaction ends."""
        for cur in list(self._open_results):
            cur._result_lost(what, send_close)

    def _ansi_autocommit(self) -> bool:
        return self._autocommit and self._logging_mode == "ansi"

    def _lob_txn_begin(self) -> None:
        """A statement's values go into new smart LOBs (client/lob.py): in autocommit mode on
        a logged database, the objects and the statement become one transaction (``BEGIN
        EOT`` now, ``CMMTWORK EOT`` or ``RBWORK EOT`` after it: ``_lob_txn_end``), as with
        autocommit off. Atomic: a statement that fails leaves no object behind. And one
        commit instead of one per 1 MiB SQ_LODATA write: a server commits each write made
        outside a transaction. Not while a cursor is open: the COMMIT would close it."""
        self._run(self._lob_txn_begin_op())

    def _lob_txn_begin_op(self) -> Op[None]:
        if not (self._autocommit and self._logging_mode == "logged" and not self._in_txn
                and not self._lob_txn and not len(self._open_results)):
            return
        reply = self._reply()
        yield [(BEGIN_GROUP, reply)]
        if reply.error is not None:
            raise self._server_error(reply.error)
        self._in_txn = True
        self._lob_txn = True

    def _lob_txn_end(self, commit: bool) -> None:
        self._run(self._lob_txn_end_op(commit))

    def _lob_txn_end_op(self, commit: bool) -> Op[None]:
        """End the transaction ``_lob_txn_begin`` started, if it did."""
        if not self._lob_txn:
            return
        self._lob_txn = False
        if commit:
            yield from self._end_transaction_op(COMMIT_GROUP, "commit")
            return
        try:
            if not self._closed and self._broken is None:
                yield from self._end_transaction_op(ROLLBACK_GROUP, "rollback")
        except Error:
            pass  # the statement's own error is the one to report
        finally:
            self._in_txn = False

    # ------------------------------------------------------------------ session API: statements

    @property
    def epoch(self) -> int:
        """Counts database changes: statements and BYTE/TEXT descriptors of an older epoch
        belong to a database no longer open."""
        return self._epoch

    @property
    def lob_txn(self) -> bool:
        """Whether a statement storing large objects began the open transaction itself."""
        return self._lob_txn

    def set_autocommit_now(self, value: bool) -> None:
        """Set autocommit where that needs no I/O; a switch that must commit an open
        transaction raises (the asyncio driver's plain attribute)."""
        self._check()
        if self._autocommit_commits(value):
            raise ProgrammingError(
                "switching autocommit on commits the open transaction; "
                "use 'await conn.set_autocommit(True)'"
            )
        self._autocommit = bool(value)

    def prepare_op(self, sql: str, plan: SqlPlan, cache: bool) -> Op[Prepared]:
        return self._prepare_op(sql, plan, cache)

    def statement_op(self, sql: str, plan: SqlPlan) -> Op[tuple[Prepared, bool]]:
        return self._statement_op(sql, plan)

    def end_transaction_op(self, group: bytes, what: str) -> Op[None]:
        return self._end_transaction_op(group, what)

    def commit_op(self, commit: bool) -> Op[None]:
        """PEP 249's ``commit`` (True) or ``rollback`` (False), both drivers', holding the
        lock: on a usable connection, the group sent when a transaction may be open (the
        no-op rules are ``_end_transaction_op``'s). Not a generator itself: the check runs
        at the call and the operation is ``_end_transaction_op``'s, no frame added."""
        self._check()
        if commit:
            return self._end_transaction_op(COMMIT_GROUP, "commit")
        return self._end_transaction_op(ROLLBACK_GROUP, "rollback")

    def leave_op(self, failed: bool) -> Op[None]:
        """Leaving the connection's ``with`` block (both drivers, holding the lock): commit
        after a normal end; after an exception roll back, a failing rollback only logged
        (the block's own exception matters more); nothing once closed or broken."""
        if self._closed or self._broken is not None:
            return
        if not failed:
            yield from self._end_transaction_op(COMMIT_GROUP, "commit")
            return
        try:
            yield from self._end_transaction_op(ROLLBACK_GROUP, "rollback")
        except Error:
            log.debug("rollback on context exit failed", exc_info=True)

    def autocommit_op(self, value: bool) -> Op[None]:
        return self._autocommit_op(value)

    def lob_txn_begin_op(self) -> Op[None]:
        return self._lob_txn_begin_op()

    def lob_txn_end_op(self, commit: bool) -> Op[None]:
        return self._lob_txn_end_op(commit)

    def abandon_lob_txn(self) -> None:
        """A statement was cancelled inside the transaction a LOB statement began: nothing
        may be awaited, and going on in autocommit mode inside it would commit nothing, so
        the connection is given up (the server rolls the transaction back)."""
        if self._lob_txn and self._broken is None:
            self._fail(_e.connection_lost(
                "a statement storing large objects was cancelled inside its transaction"))
        self._lob_txn = False
