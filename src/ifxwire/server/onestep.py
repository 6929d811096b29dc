"""Request groups served in one step, without the message loop: a prepared query's
``ID [CURNAME] [BIND] OPEN NFETCH EOT`` and a pipelined run of one INSERT's groups.

Both answer with exactly the bytes the message loop would (the same handlers' steps), and
both give up, having changed nothing, whenever a group is not the shape they know: the loop
in server/session.py then serves it message by message.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable

from .. import _accel
from ..protocol import messages as m
from ..protocol.codes import Msg
from ..protocol.wire import Writer, i16_at, i32_at, u16_at
from ..types.bind import decode_bind_plain
from ..types.errors import CodecError
from ..types.temporal import date_from_days
from . import bindbatch, purerun
from .bindrun import RunDecoder, cached_run_decoder, date_params, headers_at
from .engine import EngineError
from .grammar import START, allowed
from .handlers import _MAX_FETCH_BYTES, _MIN_FETCH_BYTES, MessageHandlers, _stop_rows, _unsendable
from .statements import RELEASED, Statement, after_run, check_bound
from .tuples import pure_write_tuples
from .wireio import (
    _BIND,
    _CURNAME,
    _EOT,
    _EXECUTE,
    _FLUSH_BYTES,
    _ID,
    _NFETCH,
    _OPEN,
)

log = logging.getLogger("ifxwire.server")

#: The compiled twin of _query_group's plain-cursor branch (``ifxwire._groupstep``, issue 26,
#: eleventh round): ``serve(session) -> bool``, False having changed nothing. None: not built,
#: or IFXWIRE_PURE; _query_group (the pure path) then serves every such group.
serve_compiled: Callable[[object], bool] | None = None
if _accel.accelerated:
    try:
        _groupstep = importlib.import_module("ifxwire._groupstep")
    except ImportError:  # built without a compiler: the pure path
        pass
    # (its message codes are compiled in: a module built from another table is not used,
    # and tests/unit/test_groupstep.py fails)
    else:
        if _groupstep.message_codes() == (_ID, _CURNAME, _BIND, _OPEN, _EOT):
            _groupstep.configure(decode_bind_plain, Writer, RELEASED, after_run,
                                 _MIN_FETCH_BYTES, _MAX_FETCH_BYTES, _FLUSH_BYTES, Statement)
            serve_compiled = _groupstep.serve

_EXECUTE_EOT = bytes([0, _EXECUTE, 0, _EOT])
_EOT_BYTES = bytes([0, _EOT])
# A run of buffered `ID n BIND EXECUTE EOT` groups of one INSERT shorter than this is not worth
# batching; longer runs are cut at _BATCH_MAX groups (our client keeps at most 1,024 in flight,
# client/batch.py MAX_IN_FLIGHT). Why this many: each batch pays a fixed cost (the lock
# triggers dropped and made again, a savepoint, the rowid range read twice, the statements
# SQLite prepares again after that schema change), ~0.3 ms, which 512-row batches paid every
# ~450 rows (docs/SERVER.md, *Bulk inserts*).
_BATCH_MIN = 4
_BATCH_MAX = 2048
_PY_BATCH_MAX = 512  # the Python loop's run when the bound call declined one
# The bound call (_bound_inserts): the compiled ``_bindbatch.insert_run``, or without the
# accelerator its Python twin, one generated function per plan (server/purerun.py; it makes
# the pure server's DECIMAL binds the column's text without a Decimal, issue 25).
_INSERT_RUN: bindbatch.InsertRun = bindbatch.compiled or purerun.insert_run
# Groups looked at for one whose items make a compiled plan (all non-NULL) when a statement's
# first run starts with NULLs (_bound_inserts).
_PLAN_LOOK = 16


class OneStepGroups(MessageHandlers):
    """The one-step paths (issue 26, select_one_row; the batched INSERT)."""

    def _query_group(self) -> bool:
        """Serve a whole ``ID n [CURNAME] [BIND] OPEN ID n NFETCH EOT`` group in one step.

        The group a driver sends for every execution of a prepared query (ifxwire's and
        informix-driver's statement cache; docs/PROTOCOL.md, *A query's group served in one
        step*). Its bytes, but for BIND's values, repeat from one execution to the next, so
        after the first one is parsed they are matched with two ``startswith``: no message
        loop, no look-ahead by _judge (this shape is checked against grammar.TRANSITIONS
        when first met, and bytes equal to a checked group are the same messages). Only a
        whole group already received is taken; anything else (an unknown statement, another
        shape, a BIND that is not plain) returns False and takes the general path, which
        answers exactly as before. The replies are the general path's: the same handlers.
        """
        buf, pos, end = self.buf, self.start, self.end
        if end - pos < 10 or ((buf[pos] << 8) | buf[pos + 1]) != _ID or self._quiet_eot:
            return False
        after = (buf[pos + 4] << 8) | buf[pos + 5]
        if after != _CURNAME and after != _BIND and after != _OPEN:
            return False  # ID then NFETCH, CLOSE, RELEASE, EXECUTE...: not a query's group
        number = (buf[pos + 2] << 8) | buf[pos + 3]
        st = self.statements.get(number)
        if st is None or not st.prepared.is_query:
            # An INSERT's ``ID n BIND EXECUTE EOT`` (every prepared write's group): no query's
            # group, so no template is ever kept for it, and parsing it here decoded its BIND
            # values for nothing at every EXECUTE (twenty-sixth session). The general path
            # answers it, and gives an unknown statement its error.
            return False
        tmpl = self._groups.get(number)
        # A group without BIND matches as a whole here: its head is also the start of the
        # same statement's group with a BIND, which must be parsed again (it took the
        # message loop for good once a run without BIND had been kept).
        if tmpl is None or not buf.startswith(tmpl[0], pos, end) or (
                tmpl[4] < 0 and not buf.startswith(tmpl[1], pos + len(tmpl[0]), end)):
            tmpl = self._parse_query_group(pos, end, number)
            if tmpl is None:
                return False
        head, tail, name, size, nparams = tmpl
        at = pos + len(head)
        values: list[object] | None = None
        if nparams >= 0:
            plain = decode_bind_plain(buf, at, end, nparams, self.encoding)
            if plain is None:
                return False
            values, at = plain
            if not buf.startswith(tail, at, end):
                return False
        if self.engine is None:
            return False  # the general path gives the error (-267 or -208)
        self.current = number
        st.cursor_name = name
        if values is not None:
            st.params = values
            st.upload = None
        out = Writer()
        self.current_out = out
        p = st.prepared
        encode = st.encoder
        write = getattr(encode, "write", None)
        try:
            if (encode is None or st.scroll or st.rows is not None or st.blob_rows is not None
                    or st.upload is not None or st.materialized is not None or p.for_update
                    or not p.is_query or p.plan.current_rowid):
                # Anything but a plain cursor (or its first run, which makes its encoder):
                # the handlers' own steps, one by one.
                try:
                    self._open(st)
                finally:
                    st.scroll = False
                self._fetch(st, size, out)
            else:
                # _open and _fetch for a plain cursor (the checks above are theirs), without
                # the steps that cannot apply to it, and without a call for a step that has
                # nothing to do (issue 26): no BYTE/TEXT values of this statement to retire,
                # no values to let go after a run without parameters.
                if number in self.blobs._handles:
                    self.blobs.retire(number)
                params = st.params
                if params is RELEASED:
                    check_bound(params)  # raises -254
                rows = iter(self.engine.open_cursor(p, params))
                if params:
                    after_run(st)
                st.current_rowid = None
                st.exhausted = False
                st.rows = rows  # for _stop_rows, if the writer fails
                budget = min(max(size, _MIN_FETCH_BYTES), _MAX_FETCH_BYTES)
                try:
                    if write is not None:  # the compiled writer
                        count, _sent, exhausted = write(out.buf, rows, budget)
                    else:
                        count, exhausted = pure_write_tuples(encode, out, rows, budget)
                except CodecError as exc:
                    _stop_rows(st)
                    raise _unsendable(exc) from None
                except EngineError:
                    _stop_rows(st)  # interrupted (-213) or failed: the cursor is closed
                    raise
                st.fetched = count
                if exhausted:
                    st.exhausted = True
                    st.rows = None
                    done = self._tails.get(count if not self.optofc else ~count)
                    out.buf += done if done is not None else self._done_cost(count)
        except EngineError as exc:
            self._put_error(out, exc)
        self.start = at + len(tail)
        reply = out.buf
        reply += _EOT_BYTES
        server = self.server
        server.request_groups += 1
        server.one_step_groups += 1
        pending = self.pending  # self._queue(reply), inlined
        pending += reply
        if len(pending) >= _FLUSH_BYTES:
            self._flush()
        return True

    def _one_step_error(self, st: Statement, out: Writer, exc: BaseException,
                        writing: bool) -> None:
        """An exception met by the compiled one-step path (``serve_compiled``), answered as
        _query_group's plain branch answers it: an engine error (from the OPEN, or from a
        row while writing) goes into the reply, and so does a row the wire cannot carry
        (-1260; the cursor is stopped first for any error while writing); anything else is
        raised."""
        if writing and isinstance(exc, CodecError):
            _stop_rows(st)
            exc = _unsendable(exc)
        elif not isinstance(exc, EngineError):
            raise exc
        elif writing:
            _stop_rows(st)  # interrupted (-213) or failed: the cursor is closed
        self._put_error(out, exc)

    def _done_cost(self, count: int) -> bytes:
        """The end of a cursor read through: SQ_DONE with the row count, SQ_COST, and with
        OPTOFC the SQ_CLOSE (as _fetch writes them), kept per count for small counts."""
        key = count if not self.optofc else ~count
        tail = self._tails.get(key)
        if tail is None:
            w = Writer()
            m.put_done(w, count, self.layout)
            m.put_cost(w, 0, 0)
            if self.optofc:
                w.u16(Msg.CLOSE)
            tail = bytes(w.buf)
            if len(self._tails) < 256:
                self._tails[key] = tail
        return tail

    def _parse_query_group(self, pos: int, end: int, number: int,
                           ) -> tuple[bytes, bytes, bytes, int, int] | None:
        """The template of the query group at ``pos`` (see _query_group), remembered for
        statement ``number``, or None when the bytes there are not such a group (yet)."""
        buf = self.buf
        codes = [_ID]
        at = pos + 4
        name = b""
        if end - at >= 4 and ((buf[at] << 8) | buf[at + 1]) == _CURNAME:
            n = (buf[at + 2] << 8) | buf[at + 3]
            name = bytes(buf[at + 4 : at + 4 + n])
            at += 4 + n + (n & 1)
            codes.append(_CURNAME)
        nparams = -1
        head_end = at
        if end - at >= 4 and ((buf[at] << 8) | buf[at + 1]) == _BIND:
            nparams = (buf[at + 2] << 8) | buf[at + 3]
            plain = decode_bind_plain(buf, at + 4, end, nparams, self.encoding)
            if plain is None:
                return None
            head_end = at + 4
            at = plain[1]
            codes.append(_BIND)
        tail_start = at
        long_fetch = self.layout.long_fetch
        size_len = 8 if long_fetch else 6
        if end - at < 8 + size_len or not (
            (buf[at] << 8) | buf[at + 1] == _OPEN
            and (buf[at + 2] << 8) | buf[at + 3] == _ID
            and (buf[at + 4] << 8) | buf[at + 5] == number
            and (buf[at + 6] << 8) | buf[at + 7] == _NFETCH
        ):
            return None
        at += 8
        size = i32_at(buf, at)[0] if long_fetch else i16_at(buf, at)[0]
        at += size_len - 2
        if (buf[at] << 8) | buf[at + 1] != _EOT:
            return None
        at += 2
        codes += [_OPEN, _ID, _NFETCH, _EOT]
        previous = START
        for code in codes:
            if not allowed(previous, code):
                return None
            previous = code
        tmpl = (bytes(buf[pos:head_end]), bytes(buf[tail_start:at]), name, size, nparams)
        if len(self._groups) < 1024:
            self._groups[number] = tmpl
        return tmpl

    def _batch_inserts(self) -> bool:
        """Answer a run of buffered ``ID n BIND EXECUTE EOT`` groups of one INSERT at once.

        A pipelined executemany leaves hundreds of such groups in the receive buffer. When the
        engine can run them as one executemany (EngineSession.can_batch), each group still gets
        its own reply, the same bytes the single-row path writes (SQ_DONE with one row, SQ_COST,
        EOT).
        If the batch does not apply (an error in any row, a changed table), nothing has
        changed, and those groups are answered one by one, so every row's outcome and error is
        exactly the single-row path's. Only complete groups in the buffer are taken: this
        never waits for more bytes.
        """
        buf, pos, end = self.buf, self.start, self.end
        if end - pos < 12 or ((buf[pos] << 8) | buf[pos + 1]) != _ID:
            return False
        number = i16_at(buf, pos + 2)[0]
        st = self.statements.get(number)
        eng = self.engine
        if st is None or eng is None or st.prepared.is_query or not eng.can_batch(st.prepared):
            return False
        if ((buf[pos + 4] << 8) | buf[pos + 5]) != _BIND:
            return False
        head = bytes(buf[pos : pos + 8])  # ID n BIND nparams
        nparams = u16_at(buf, pos + 6)[0]
        encoding = self.encoding
        days = date_params(st.prepared.plan.params)  # DATE binds decoded to day numbers
        most = _BATCH_MAX
        done = self._bound_inserts(st, number, head, nparams, days)
        if done is not None:
            return done
        # (a run the bound call did not take, say its first groups' items of other types: the
        # Python loop serves no more than it did before the longer runs, so the bound call is
        # tried again soon)
        most = _PY_BATCH_MAX
        rows: list[list[object]] = []
        decode_run: RunDecoder | None = None
        # startswith(prefix, start, end) compares in place (no slice per row) and never reads
        # past self.end: bytes there are stale (the buffer is reused), so a group counts only
        # when its EXECUTE and EOT have arrived.
        while len(rows) < most and end - pos >= 12 and buf.startswith(head, pos, end):
            at = pos + 8
            plain = decode_run(buf, at, end) if decode_run is not None else None
            if plain is None:  # the first row, or one unlike the first (bindrun.py)
                plain = decode_bind_plain(buf, at, end, nparams, encoding)
                if plain is None:
                    break
                if decode_run is None:
                    decode_run = cached_run_decoder(buf, at, end, nparams, encoding, days)
            values, at = plain
            if not buf.startswith(_EXECUTE_EOT, at, end):
                break
            rows.append(values)
            pos = at + 4
        # When no batch is made, the groups just decoded are answered one by one, without
        # decoding them again for another attempt (the current one plus _solo more).
        if len(rows) < _BATCH_MIN or not eng.execute_batch(st.prepared, rows):
            self._solo = max(len(rows) - 1, 0)
            return False
        # The statement keeps the last row's values as decode_bind_plain gives them (dates),
        # whatever plan a later EXECUTE without BIND runs them through.
        self._batched(number, st, len(rows), pos,
                      [date_from_days(v) if i in days and type(v) is int else v
                       for i, v in enumerate(rows[-1])] if days else rows[-1])
        return True

    def _bound_inserts(self, st: Statement, number: int, head: bytes, nparams: int,
                       days: frozenset[int]) -> bool | None:
        """_batch_inserts' run decoded and converted in one call (server/bindbatch.py; the
        compiled one, or server/purerun.py's without the accelerator): True served, False
        refused by the engine (the rows then go one by one, as _batch_inserts'), None when
        this run is not for it (no storers to plan with, a first row that is not all plain
        non-NULL items, fewer than _BATCH_MIN rows taken): _batch_inserts' own loop then
        serves it."""
        eng = self.engine
        assert eng is not None
        convs = eng.batch_convs(st.prepared)
        if convs is None or nparams != len(convs):
            # (a BIND declaring another count than the statement's parameters: the general
            # path judges it; the last run's plan must not decode it as the statement's rows)
            return None
        buf, pos, end, encoding = self.buf, self.start, self.end, self.encoding
        headers = headers_at(buf, pos + 8, end, nparams)
        at = pos
        for _ in range(_PLAN_LOOK):  # a first row with a NULL: a later row's headers
            if headers is not None or (st.bound_plan is not None and st.bound_plan[0] is convs):
                break
            plain = decode_bind_plain(buf, at + 8, end, nparams, encoding)
            if plain is None or not buf.startswith(_EXECUTE_EOT, plain[1], end):
                break
            at = plain[1] + 4
            if not buf.startswith(head, at, end):
                break
            headers = headers_at(buf, at + 8, end, nparams)
        if headers is not None:
            steps = bindbatch.cached_plan(headers, convs, days, encoding)
            if steps is None:
                return None
            st.bound_plan = (convs, steps)
        elif st.bound_plan is not None and st.bound_plan[0] is convs:
            steps = st.bound_plan[1]  # a first row with a NULL: the last run's plan
        else:
            return None
        try:
            rows, after, last = _INSERT_RUN(buf, pos, end, head, _EXECUTE_EOT, steps,
                                            encoding, _BATCH_MAX)
        except ValueError:  # a plan the C does not take (a defect): the Python loop serves
            log.warning("compiled INSERT run refused its plan", exc_info=True)
            st.bound_plan = None
            return None
        if len(rows) < _BATCH_MIN:
            return None
        if not eng.execute_bound(st.prepared, rows):
            self._solo = len(rows) - 1
            return False
        plain = decode_bind_plain(buf, last + 8, end, nparams, encoding)
        self.server.bound_groups += len(rows)
        self._batched(number, st, len(rows), after, plain[0] if plain is not None else None)
        return True

    def _batched(self, number: int, st: Statement, count: int, pos: int,
                 last: list[object] | None) -> None:
        """The replies of ``count`` groups run as one batch, ending at ``pos``; the statement
        keeps ``last``, the last row's values as decode_bind_plain gives them."""
        self.current = number
        if last is not None:
            st.params = last
        st.upload = None
        after_run(st)
        reply = Writer()
        m.put_done(reply, 1, self.layout)
        m.put_cost(reply, 0, 0)  # each row's reply is the single-row path's (_execute)
        reply.u16(Msg.EOT)
        self._queue(bytes(reply.buf) * count)
        self.server.request_groups += count
        self.server.batched_groups += count
        self.start = pos
