"""What each client message means: the handlers of Session._handle's table, and the
statement steps (open, fetch, execute, BYTE/TEXT) they and the one-step paths share.

A handler reads its message's fields and writes its reply into ``out``; an EngineError it
raises becomes that message's SQ_ERR and the rest of the group is skipped (server/session.py).
Which messages may come where is server/grammar.py's business, not theirs.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..locales import DEFAULT_LOCALE, codec_for_locale
from ..protocol import messages as m
from ..protocol.codes import DBFLAG_EXTENSION, Msg, StmtType
from ..protocol.columns import ColumnDesc
from ..protocol.wire import Writer, u16_at
from ..types.bind import decode_bind_values
from ..types.blobs import widen_blob_columns
from ..types.complextype import COMPLEX_CODES
from ..types.errors import CodecError
from ..types.rowcodec import row_width
from .blobs import BlobUpload
from .chunked import ChunkedSender
from .current import track_current
from .engine import EngineError, EngineSession, text_encoder, with_start_offsets
from .engine import sqlcodes as sc
from .lobwire import FastPath, locator_encoder, wants_binary
from .scroll import scroll_fetch
from .statements import Statement, after_run, check_bound, new_statement_id
from .tuples import row_encoder, write_tuples
from .wireio import (
    _FLUSH_BYTES,
    WireIO,
    message_name,
)

if TYPE_CHECKING:
    pass

log = logging.getLogger("ifxwire.server")

#: Our own error texts use typographic punctuation; a Latin-1 client would see "?" for it.
_PLAIN_PUNCTUATION = str.maketrans({"\u2026": "...", "\u2014": "-", "\u2013": "-",
                                    "\u2018": "'", "\u2019": "'", "\u201c": '"',
                                    "\u201d": '"'})
# Tuples per reply are bounded by the client's fetch size, but never fewer than this many
# bytes: JDBC asks for 4096 and a reply that small would cost a round trip per few rows.
_MIN_FETCH_BYTES = 4096
# ... and never more than this: a reply is built whole before it is sent, so this bounds a
# session's reply buffer. 16 MiB, not 4: our fetch_arrow_table asks for 16 MiB replies
# (client/arrowfetch.TABLE_FETCH_SIZE), where each round trip costs its client ~0.2 ms
# (docs/ARROW.md, "Composite fetch, arrow10"); a real server takes an i32 size (2 GB fetch
# buffer, docs/PROTOCOL.md "Fetch").
_MAX_FETCH_BYTES = 16 * 1024 * 1024
# Blob data pieces at least this large are sent gathered (protocol/gather.py), not copied.
_GATHER_MIN = 16 * 1024
_BLOB_PREFIX = bytes([0, Msg.BLOB])

#: The widest output row a query may describe (-528 beyond it).
OUTPUT_ROW_LIMIT = 32767


class MessageHandlers(WireIO):
    """One method per client message (``_on_*``), and the steps they share."""

    fastpath: FastPath  # set by Session.__init__ (FastPath holds the whole session)

    def _put_error(self, out: Writer, exc: EngineError) -> None:
        log.debug("session %s: error %d (isam %d) near %r offset %d: %s", self.peer,
                  exc.sqlcode, exc.isamcode, exc.near, exc.offset, exc.message)
        text = (exc.near or "").translate(_PLAIN_PUNCTUATION).encode(self.encoding,
                                                                     errors="replace")
        m.put_err(out, exc.sqlcode, exc.isamcode, exc.offset, text, self.layout)

    def _row_encoder(self, st: Statement) -> Any:
        """The statement's tuple encoder: LOB locators and ROW/collection values in the form
        the client asked for with SQ_RET_TYPE.

        A driver that prepares a statement for each execution (informix-driver) would build
        the same encoder every time: encoders are kept per session by what they are made
        from (the columns, the code set, the SQ_RET_TYPE forms). Not kept: those with
        ROW/collection columns, whose text form also depends on the session's DBDATE and
        the like at the time (_complex_text)."""
        columns = st.columns
        if any(c.base in COMPLEX_CODES for c in columns):
            return self._make_row_encoder(st)
        key = (tuple(columns), self.encoding, st.complex_binary, st.lob_binary)
        encoder = self._encoders.get(key)
        if encoder is None:
            encoder = self._make_row_encoder(st)
            if len(self._encoders) >= 256:
                self._encoders.clear()
            self._encoders[key] = encoder
        return encoder

    def _make_row_encoder(self, st: Statement) -> Any:
        inner = row_encoder(st.columns, self.encoding,
                            None if st.complex_binary else self._complex_text)
        return locator_encoder(st.columns, inner, st.lob_binary)

    def _complex_text(self, col: ColumnDesc) -> Callable[[object], str]:
        """Text formatter of a ROW/collection column for clients without SQ_RET_TYPE."""
        assert self.engine is not None
        return text_encoder(col, self.engine.state.ctx)

    def _stmt(self) -> Statement:
        if self.current is None or self.current not in self.statements:
            raise EngineError(sc.NO_STATEMENT, message="no statement is current")
        return self.statements[self.current]

    def _unknown_statement(self, number: int, end: int) -> EngineError:
        """The error for ``SQ_ID number`` (ending at ``end``) naming no prepared statement.

        Declaring a cursor on a released statement: real servers answer -208, where every
        other use of it is -267 (informix-driver CHANGELOG 2026.09.02, test_statement_slot.py:
        a CLOSE/RELEASE that landed between a PREPARE and its CURNAME/OPEN gave -208, between
        fetches -267). Both the fast path and _handle take SQ_ID, so both ask here; the next
        message is looked at only within the bytes received (``self.end``)."""
        if self.end >= end + 2 and u16_at(self.buf, end)[0] == Msg.CURNAME:
            return EngineError(sc.MEMORY, message=f"statement {number} was released")
        return EngineError(sc.NO_STATEMENT, message=f"statement {number} is not prepared")

    def _handle(self, msg: m.ClientMsg, out: Writer) -> None:
        """One client message: its handler from the table (HANDLERS, after the class).
        Which messages may follow which is judged before, in server/grammar.py."""
        assert self.engine is not None
        handler = HANDLERS.get(msg.code)
        if handler is None:
            raise EngineError(sc.NOT_IMPLEMENTED,
                              message=f"{message_name(msg.code)} is not supported")
        handler(self, msg, out)

    def _eng(self) -> EngineSession:
        eng = self.engine
        assert eng is not None
        return eng

    # ---- statements: SQ_ID, PREPARE/COMMAND, DESCRIBE, BIND, OPEN/FETCH, EXECUTE, CLOSE

    def _on_id(self, msg: m.ClientMsg, out: Writer) -> None:
        self.current = msg.number
        if msg.number not in self.statements:
            raise self._unknown_statement(msg.number, self._msg_end)

    def _on_prepare(self, msg: m.ClientMsg, out: Writer) -> None:
        """SQ_PREPARE and SQ_COMMAND: both prepare; an EXECUTE or OPEN follows."""
        if self._too_long:
            size, self._too_long = self._too_long, 0
            raise EngineError(sc.STATEMENT_TOO_LONG, message=f"{size} bytes of SQL text")
        text = msg.sql
        if text.endswith(b"\0"):
            # A C string's terminator counted in the length: nmap's informix.lua sends an
            # even-length statement so, and real servers run it (docs/PROTOCOL.md §4).
            text = text.rstrip(b"\0")
        sql = text.decode(self.encoding, errors="replace")
        log.debug("session %s: %s %s", self.peer,
                  "prepare" if msg.code == Msg.PREPARE else "command", sql)
        try:
            prepared = self._eng().prepare(sql)
        except EngineError as exc:
            if exc.sqlcode == sc.OUT_ARGUMENT:
                raise self.fastpath.out_parameters(exc) from None
            raise
        columns = self._wire(prepared.columns)
        if prepared.is_query and columns and row_width(columns) > OUTPUT_ROW_LIMIT:
            # -528 "Maximum output rowsize (32767) exceeded.": a query whose described row
            # passes 32,767 bytes (Hibernate's ImmutableTest on a real Informix; a migration
            # tool's connector meets it with wide LVARCHAR casts; docs/SERVER.md).
            raise EngineError(sc.OUTPUT_ROWSIZE)
        sid = new_statement_id(self.statements, self.limits.max_statements)
        self.statements[sid] = Statement(prepared, columns=columns)
        self.current = sid

    def _on_ndescribe(self, msg: m.ClientMsg, out: Writer) -> None:
        st = self._stmt()
        p = st.prepared
        # A query's result columns; for an INSERT the target columns of its ``?``s.
        columns = st.columns or self._wire(p.inputs)
        sid = self.current or 0
        # The reply is kept by the column list it describes (the prepared statement's, which
        # the engine's statement cache hands out again for the same text until the schema
        # changes), held with it so the id is never another list's.
        key = (id(columns), p.stmt_type, sid, self.encoding)
        kept = self._describes.get(key)
        if kept is not None and kept[0] is columns:
            out.buf += kept[1]
            return
        reply = Writer()
        width = row_width(columns) if columns else 0
        m.put_describe(reply, p.stmt_type, sid, columns, width, self.layout,
                       encoding=self.encoding)
        if len(self._describes) >= 256:
            self._describes.clear()
        self._describes[key] = (columns, bytes(reply.buf))
        out.buf += reply.buf

    def _on_wantdone(self, msg: m.ClientMsg, out: Writer) -> None:
        """Real servers answer a PREPARE's SQ_WANTDONE with SQ_DONE and SQ_COST after the
        DESCRIBE (docs/PROTOCOL.md §6, "SQ_COST"). After an EXECUTE (libsqli's
        ID EXECUTE WANTDONE EOT) the EXECUTE's own SQ_DONE is the one asked for: libsqli
        keeps the last SQ_DONE's row count (sqli_dispatch.c), so a second one would report 0
        rows where real servers give it the count."""
        if self._previous != Msg.EXECUTE:
            m.put_done(out, 0, self.layout)
            m.put_cost(out, 0, 0)

    def _on_cidescribe(self, msg: m.ClientMsg, out: Writer) -> None:
        m.put_idescribe(out, self._stmt().prepared.params, self.layout, self.encoding)

    def _on_curname(self, msg: m.ClientMsg, out: Writer) -> None:
        self._stmt().cursor_name = msg.name

    def _on_bind(self, msg: m.ClientMsg, out: Writer) -> None:
        """SQ_BIND: a fast-path call's arguments when one waits for them, else the current
        statement's parameters."""
        if self.fastpath.call is not None:
            self.fastpath.bind(msg, out)
            return
        st = self._stmt()
        try:
            values, _ = decode_bind_values(
                self.buf, msg.bind_start, msg.number, self.encoding, self.blobs.width
            )
        except CodecError as exc:
            # A value the codecs refuse (say an INTERVAL qualifier without digits): the
            # message framing was already checked by the reader, so answer with an error
            # and keep the session, as a real server does for bad host variables.
            raise EngineError(sc.NO_CONVERSION, message=str(exc)) from None
        st.params = [v.value for v in values]
        # BYTE/TEXT parameters carry a descriptor; their data follows in SQ_BBIND.
        slots = [
            i for i, v in enumerate(values) if v.type & 0xFF in (11, 12) and v.indicator == 0
        ]
        texts = [values[i].type & 0xFF == 12 for i in slots]
        st.upload = (BlobUpload(st.params, slots, self._eng().lo, texts, self.encoding)
                     if slots else None)

    def _on_scroll(self, msg: m.ClientMsg, out: Writer) -> None:
        self._stmt().scroll = True

    def _on_open(self, msg: m.ClientMsg, out: Writer) -> None:
        st = self._stmt()
        try:
            self._open(st)
        finally:
            st.scroll = False  # SQ_SCROLL applies to the OPEN it precedes only

    def _on_sfetch(self, msg: m.ClientMsg, out: Writer) -> None:
        self._scroll_fetch(self._stmt(), msg.extra, out)

    def _on_nfetch(self, msg: m.ClientMsg, out: Writer) -> None:
        self._fetch(self._stmt(), msg.number, out)

    def _on_ret_type(self, msg: m.ClientMsg, out: Writer) -> None:
        """LOB locators as binary (h11) and ROW/collection columns in their binary form
        (JDBC asks for SENDRECV, docs/PROTOCOL.md §13): remembered for the statement, as JDBC
        sends RET_TYPE once per statement."""
        st = self._stmt()
        rebuild = False
        if not st.lob_binary and wants_binary(msg.extra[1:]):
            st.lob_binary = rebuild = True
        if not st.complex_binary and st.columns and any(
            c.base in COMPLEX_CODES for c in st.columns
        ):
            st.complex_binary = rebuild = True
        if rebuild and st.encoder is not None:
            st.encoder = self._row_encoder(st)

    def _on_execute(self, msg: m.ClientMsg, out: Writer) -> None:
        self._execute(self._stmt(), out)

    def _on_close(self, msg: m.ClientMsg, out: Writer) -> None:
        st = self._stmt()
        _stop_rows(st)
        st.materialized = None
        # A cursor read to its end is still open until here; after CLOSE an NFETCH is -400
        # ("Fetch attempted on unopen cursor"), not another SQ_DONE with the old row count.
        st.exhausted = False

    def _on_release(self, msg: m.ClientMsg, out: Writer) -> None:
        if self.current is not None:
            self.blobs.retire(self.current)
            released = self.statements.pop(self.current, None)
            if released is not None:
                _stop_rows(released)
            self.current = None

    def _on_nothing(self, msg: m.ClientMsg, out: Writer) -> None:
        """Messages that need no action here: SQ_HOLD (this server closes no cursor at a
        transaction's end), SQ_FPARAM (the client's echo of a call's SQ_FPARAM state,
        fastpath.read_fparam), SQ_BATCHSTART/SQ_BATCHEND (every statement of a batch is
        executed as it comes; nothing to bracket)."""

    # ---- BYTE/TEXT data

    def _on_bbind(self, msg: m.ClientMsg, out: Writer) -> None:
        upload = self._stmt().upload
        if upload is None:
            raise EngineError(sc.HOSTVAR_COUNT, message="SQ_BBIND without BYTE/TEXT parameters")
        upload.start(msg.number)

    def _on_blob(self, msg: m.ClientMsg, out: Writer) -> None:
        upload = self._stmt().upload
        if upload is None:
            raise EngineError(sc.HOSTVAR_COUNT, message="SQ_BLOB without BYTE/TEXT parameters")
        try:
            upload.chunk(msg.data, self.limits.max_blob_bytes)
        except EngineError:
            upload.finish(False)
            raise

    def _on_fetchblob(self, msg: m.ClientMsg, out: Writer) -> None:
        self._fetchblob(msg.data, out)

    # ---- fast path (server/lobwire.py)

    def _on_getroutine(self, msg: m.ClientMsg, out: Writer) -> None:
        self.fastpath.getroutine(msg.item, out)  # type: ignore[arg-type]

    def _on_exfproutine(self, msg: m.ClientMsg, out: Writer) -> None:
        self.fastpath.exfproutine(msg.item, out)  # type: ignore[arg-type]

    def _on_lodata(self, msg: m.ClientMsg, out: Writer) -> None:
        self.fastpath.lodata(msg.item, out)  # type: ignore[arg-type]

    def _on_cfpdescribe(self, msg: m.ClientMsg, out: Writer) -> None:
        self._quiet_eot = True
        self.fastpath.describe(msg.item, out)  # type: ignore[arg-type]

    # ---- session: protocols, environment, databases, transactions, version

    def _on_protocols(self, msg: m.ClientMsg, out: Writer) -> None:
        mask = self.server.protocols
        self.layout = m.Layout.negotiate(mask, msg.data)
        self._groups.clear()  # their NFETCH size and SQ_DONE depend on the layout
        self._tails.clear()
        self._describes.clear()
        self.blobs.width = m.blob_descriptor_size(self.layout)
        m.put_protocols(out, mask)

    def _on_info(self, msg: m.ClientMsg, out: Writer) -> None:
        self.env.update(msg.env)
        if msg.env.get("OPTOFC") == "1":
            self.optofc = True

    def _on_dbopen(self, msg: m.ClientMsg, out: Writer) -> None:
        eng = self._eng()
        if self.login_database:
            # The login named a database: an explicit database connection, where a real
            # server refuses DBOPEN with -759 (docs/PROTOCOL.md §2, "A database name in the
            # login"; no client we know sends a name there).
            raise EngineError(sc.EXPLICIT_DB)
        name = msg.name.decode(self.encoding, errors="replace")
        log.debug("session %s: open database %s", self.peer, name)
        self._close_all()
        flags = eng.open_database(name)
        # the database's code set
        self.encoding = codec_for_locale(eng.code_set_locale or DEFAULT_LOCALE)
        m.put_done(out, 0, self.layout, warnings=flags | DBFLAG_EXTENSION)
        m.put_cost(out, 0, 0)

    def _on_dblist(self, msg: m.ClientMsg, out: Writer) -> None:
        """The server's databases, one CHARSTR each, ended by an empty one (JDBC's
        receiveDBList; nmap's informix-tables reads the same; docs/PROTOCOL.md §5)."""
        names = self._eng().engine.database_names()
        m.put_dblist(out, [n.encode(self.encoding, errors="replace") for n in names])

    def _on_dbclose(self, msg: m.ClientMsg, out: Writer) -> None:
        eng = self._eng()
        self._close_all()
        eng.close_database()
        self.encoding = codec_for_locale(eng.code_set_locale or DEFAULT_LOCALE)

    def _on_begin(self, msg: m.ClientMsg, out: Writer) -> None:
        self._eng().begin()

    def _on_commit(self, msg: m.ClientMsg, out: Writer) -> None:
        self._eng().commit()

    def _on_rollback(self, msg: m.ClientMsg, out: Writer) -> None:
        self._eng().rollback()

    def _on_savepoint(self, msg: m.ClientMsg, out: Writer) -> None:
        self._savepoint(msg.code, msg.name.decode(self.encoding, errors="replace"), msg.number)

    def _on_version(self, msg: m.ClientMsg, out: Writer) -> None:
        m.put_version(out, self.server.version.encode("ascii", errors="replace"))

    def _upload(self) -> BlobUpload | None:
        """The BYTE/TEXT upload the current statement is receiving, if any."""
        st = self.statements.get(self.current) if self.current is not None else None
        return None if st is None else st.upload

    def _fetchblob(self, descriptor: bytes, out: Writer) -> None:
        """SQ_BLOB chunks of one value; a large one streamed in pieces as they are read, sent
        gathered (no copy next to the chunk headers)."""
        sender = ChunkedSender(self._send_parts, m.BLOB_REPLY_CHUNK, _FLUSH_BYTES, _BLOB_PREFIX)
        for piece in self.blobs.pieces(self.current or 0, descriptor):
            if len(piece) < _GATHER_MIN and not sender.parts:
                m.put_blob_chunks(out, piece, m.BLOB_REPLY_CHUNK)
                continue
            if out.buf:
                self._queue(out.buf)
                out.buf.clear()
            sender.add(piece)
        sender.finish()

    def _wire(self, columns: list[ColumnDesc]) -> list[ColumnDesc]:
        """Columns as this connection sees them: with long row ids (bit 70) BYTE and TEXT
        descriptors are 68 bytes, which moves the start of every later column."""
        wide = widen_blob_columns(columns, self.blobs.width)
        return wide if wide is columns else with_start_offsets(wide)

    def _savepoint(self, code: int, name: str, unique: int) -> None:
        """Savepoint messages run as the equivalent SQL statements."""
        eng = self.engine
        assert eng is not None
        if not name.replace("_", "").isalnum():
            raise EngineError(sc.SYNTAX, near=name)
        if code == Msg.SVPT_SET:
            sql = f"SAVEPOINT {name}" + (" UNIQUE" if unique else "")
        elif code == Msg.SVPT_RELEASE:
            sql = f"RELEASE SAVEPOINT {name}"
        else:
            sql = f"ROLLBACK WORK TO SAVEPOINT {name}"
        eng.execute(eng.prepare(sql), [])

    def _close_all(self) -> None:
        for st in self.statements.values():
            _stop_rows(st)
        self.statements.clear()
        self.blobs.clear()
        self.fastpath.reset()
        self.current = None

    def _open(self, st: Statement) -> None:
        eng = self.engine
        assert eng is not None
        if not st.prepared.is_query:
            raise EngineError(sc.FETCH_UNOPENED, message="the statement is not a SELECT")
        if st.scroll and st.prepared.for_update:
            raise EngineError(sc.SCROLL_FOR_UPDATE)
        if st.rows is not None or st.materialized is not None:
            # A real server refuses to open a cursor that is open (-285; informix-driver
            # 2026.09.02, which sent the OPEN of a second statement to an open scroll cursor's
            # id); a client closes it first (SQ_CLOSE), as JDBC and our driver do.
            raise EngineError(sc.CURSOR_BUSY)
        _check_upload(st)
        _stop_rows(st)
        sid = self.current or 0
        self.blobs.retire(sid)
        check_bound(st.params)
        st.rows = iter(eng.open_cursor(st.prepared, st.params))
        after_run(st)
        st.current_rowid = None
        if st.prepared.plan.current_rowid:
            st.rows = track_current(st, st.rows)  # WHERE CURRENT OF (server/current.py)
        st.fetched = 0
        st.exhausted = False
        st.materialized = None
        if st.scroll:
            # An insensitive scroll cursor: the result is fixed at OPEN.
            st.materialized = list(st.rows)
            st.rows = None
            st.position = 0
        if st.encoder is None:
            st.encoder = self._row_encoder(st)
            st.blob_rows = self.blobs.row_mapper(sid, st.columns, self.encoding)

    def _fetch(self, st: Statement, size: int, out: Writer) -> None:
        if st.rows is None and not st.exhausted:
            raise EngineError(sc.FETCH_UNOPENED)
        budget = min(max(size, _MIN_FETCH_BYTES), _MAX_FETCH_BYTES)
        if st.prepared.for_update:
            budget = 0  # one row per fetch for update cursors (server/current.py)
        sent = 0
        rows = st.rows
        encode = st.encoder
        blob_rows = st.blob_rows
        if rows is not None and not st.exhausted:
            try:
                if blob_rows is None:
                    # The compiled writer takes the rows and writes the messages itself.
                    done = write_tuples(encode, out, rows, budget)
                    if done is not None:
                        count, _sent, exhausted = done
                        st.fetched += count
                        if not exhausted:
                            return
                        rows = iter(())
                for row in rows:
                    if blob_rows is not None:
                        # Blob data counts against the fetch size, which bounds a batch's memory.
                        row, blob_bytes = blob_rows(row)
                        sent += blob_bytes
                    payload = encode(row)
                    m.put_tuple(out, payload)
                    st.fetched += 1
                    sent += len(payload) + 8
                    if sent >= budget:
                        return
            except CodecError as exc:
                raise _unsendable(exc) from None
            except EngineError:
                _stop_rows(st)  # interrupted (-213) or failed: the cursor is closed
                raise
            st.exhausted = True
            st.rows = None
        # The end of the cursor: SQ_DONE with the total count (jdbc-protocol.md 3.5).
        m.put_done(out, st.fetched, self.layout)
        m.put_cost(out, 0, 0)
        if self.optofc:
            out.u16(Msg.CLOSE)

    def _scroll_fetch(self, st: Statement, extra: tuple[int, ...], out: Writer) -> None:
        """SQ_SFETCH (server/scroll.py)."""
        rows = st.materialized
        if rows is None:
            # No cursor open at all: -259 "Cursor not open" (informix-driver saw it for an
            # SFETCH to a statement without one, connections.py); a non-scroll cursor: -400.
            raise EngineError(sc.FETCH_UNOPENED if st.rows is not None else sc.CURSOR_NOT_OPEN)
        kind, index, size = extra
        try:
            position = scroll_fetch(rows, st.position, kind, index, size, st.encoder,
                                    st.blob_rows, out, self.layout)
        except CodecError as exc:
            raise _unsendable(exc) from None
        if position is None:
            raise EngineError(sc.SYNTAX, message=f"unknown scroll fetch type {kind}")
        st.position = position

    def _execute(self, st: Statement, out: Writer) -> None:
        eng = self.engine
        assert eng is not None
        p = st.prepared
        if p.is_query:
            raise EngineError(sc.SELECT_NEEDS_CURSOR)
        _check_upload(st)
        check_bound(st.params)
        try:
            result = eng.execute(p, st.params)
        finally:
            if st.upload is not None:
                st.upload.release_unused()
            after_run(st)
        # DATABASE / CREATE DATABASE / CLOSE DATABASE report the new database's flags in the
        # SQ_DONE warnings field, as the reply to SQ_DBOPEN does (jdbc-protocol.md 2.4).
        warnings = eng.db_flags if result.db_flags_changed else 0
        if result.db_flags_changed:
            # the new database's
            self.encoding = codec_for_locale(eng.code_set_locale or DEFAULT_LOCALE)
        # Real servers answer an EXECUTE, prepared (ID [BIND] EXECUTE) or in one group with
        # its statement (COMMAND NDESCRIBE EXECUTE RELEASE), with SQ_INSERTDONE before the
        # DONE and SQ_COST after it: nmap reads exactly that after a COMMAND (26 bytes after
        # a DONE tag, 46 after an INSERTDONE tag), informix-driver's readers of an EXECUTE's
        # reply read "[INSERTDONE] DONE + COST + EOT" (docs/PROTOCOL.md §6).
        if result.serial8 is not None:
            m.put_insertdone(out, result.serial8, result.serial8, self.layout)
        m.put_done(out, result.rowcount, self.layout, serial=result.serial, warnings=warnings)
        m.put_cost(out, 0, 0)
        if p.stmt_type in (StmtType.DATABASE, StmtType.CREATE_DATABASE, StmtType.CLOSE_DATABASE):
            # Statement ids belong to the database that prepared them.
            keep = self.statements.get(self.current or 0)
            self.statements = {} if keep is None else {self.current or 0: keep}


#: Session._handle's table: message code -> handler. A code missing here is answered with
#: -999 "not supported" (which messages may come where is server/grammar.py's business).
HANDLERS: dict[int, Callable[[MessageHandlers, m.ClientMsg, Writer], None]] = {
    Msg.ID: MessageHandlers._on_id,
    Msg.PROTOCOLS: MessageHandlers._on_protocols,
    Msg.INFO: MessageHandlers._on_info,
    Msg.PREPARE: MessageHandlers._on_prepare,
    Msg.COMMAND: MessageHandlers._on_prepare,
    Msg.NDESCRIBE: MessageHandlers._on_ndescribe,
    Msg.WANTDONE: MessageHandlers._on_wantdone,
    Msg.CIDESCRIBE: MessageHandlers._on_cidescribe,
    Msg.CURNAME: MessageHandlers._on_curname,
    Msg.BIND: MessageHandlers._on_bind,
    Msg.BBIND: MessageHandlers._on_bbind,
    Msg.BLOB: MessageHandlers._on_blob,
    Msg.FETCHBLOB: MessageHandlers._on_fetchblob,
    Msg.SCROLL: MessageHandlers._on_scroll,
    Msg.HOLD: MessageHandlers._on_nothing,
    Msg.OPEN: MessageHandlers._on_open,
    Msg.SFETCH: MessageHandlers._on_sfetch,
    Msg.NFETCH: MessageHandlers._on_nfetch,
    Msg.RET_TYPE: MessageHandlers._on_ret_type,
    Msg.GETROUTINE: MessageHandlers._on_getroutine,
    Msg.EXFPROUTINE: MessageHandlers._on_exfproutine,
    Msg.LODATA: MessageHandlers._on_lodata,
    Msg.FPARAM: MessageHandlers._on_nothing,
    Msg.CFPDESCRIBE: MessageHandlers._on_cfpdescribe,
    Msg.EXECUTE: MessageHandlers._on_execute,
    Msg.CLOSE: MessageHandlers._on_close,
    Msg.RELEASE: MessageHandlers._on_release,
    Msg.DBOPEN: MessageHandlers._on_dbopen,
    Msg.DBLIST: MessageHandlers._on_dblist,
    Msg.DBCLOSE: MessageHandlers._on_dbclose,
    Msg.BEGIN: MessageHandlers._on_begin,
    Msg.CMMTWORK: MessageHandlers._on_commit,
    Msg.RBWORK: MessageHandlers._on_rollback,
    Msg.BATCHSTART: MessageHandlers._on_nothing,
    Msg.BATCHEND: MessageHandlers._on_nothing,
    Msg.SVPT_SET: MessageHandlers._on_savepoint,
    Msg.SVPT_RELEASE: MessageHandlers._on_savepoint,
    Msg.SVPT_ROLLBACK: MessageHandlers._on_savepoint,
    Msg.VERSION: MessageHandlers._on_version,
}


def _unsendable(exc: CodecError) -> EngineError:
    """A row the wire form cannot carry is that statement's error, never the session's end."""
    log.warning("a row value cannot be sent: %s", exc)
    return EngineError(sc.NO_CONVERSION, message=str(exc))


def _check_upload(st: Statement) -> None:
    """EXECUTE/OPEN may use BYTE/TEXT parameters only once their data has arrived."""
    if st.upload is not None and not st.upload.complete:
        st.upload.finish(False)
        raise EngineError(
            sc.HOSTVAR_COUNT,
            message=f"{len(st.upload.slots)} BYTE/TEXT parameter(s) without SQ_BBIND data",
        )


def _stop_rows(st: Statement) -> None:
    """Finish a cursor's row generator now, so its SQLite cursor is closed deterministically."""
    rows, st.rows = st.rows, None
    close = getattr(rows, "close", None)
    if close is not None:
        try:
            close()
        except Exception:  # a generator that cannot clean up must not end the session
            log.debug("closing a row generator failed", exc_info=True)

