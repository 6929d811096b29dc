"""Scroll cursors and hold cursors (``conn.cursor(scrollable=True, withhold=True)``).

A scroll cursor is opened with ``ID CURNAME [BIND] SCROLL [HOLD] OPEN EOT`` (JDBC's
``IfxSqli.sendQuery`` order; informix-driver sends ``SCROLL OPEN``) and read with SQ_SFETCH
(docs/PROTOCOL.md §15). The server fixes the result at OPEN (an insensitive cursor), so the
driver can move anywhere in it:

* rows are kept in one **window** of consecutive rows. A row inside the window costs no
  round trip, whatever the direction of the move;
* reading on past the window's end sends ``SFETCH(NEXT, index of the next row)``, exactly
  what JDBC sends for ``ResultSet.next()``; the server answers as many rows as the fetch
  buffer holds;
* a jump elsewhere sends ``SFETCH(ABSOLUTE, row)`` and, in the same write, the NEXT that
  follows it (two pipelined groups, docs/PROTOCOL.md §1), so the new window is a full
  buffer; a jump backwards starts the window one buffer before the row, so stepping back
  row by row costs one round trip per buffer, not per row;
* the row count is learned from ``SFETCH(LAST)`` (its SQ_TUPID is the count) only when a
  move needs it (``fetch_last``, a negative ``fetch_absolute``, falling off the end).

Positions follow PEP 249: ``rownumber`` is the 0-based index of the row ``fetchone()``
returns next; ``scroll(value, mode)`` moves it (``IndexError`` when the target is outside
``0..rowcount``, the position unchanged). The ``fetch_*`` methods return the row they move
to, or None when it does not exist (the position then lies just before the first or just
after the last row), and index rows as Python lists do: ``fetch_absolute(-1)`` is the last
row.

A hold cursor (``withhold=True``; SQ_HOLD before OPEN, as JDBC sends for
``HOLD_CURSORS_OVER_COMMIT``) stays open when a transaction ends; only a database change
closes it.

The I/O-free steps (``_window_plan``, ``_window_take``) are shared with the asyncio scroll
cursor (``aio/scroll.py``); only the exchange differs.
"""

from __future__ import annotations

import sys
from collections.abc import Generator, Iterator
from typing import Any, TypeVar

from ..errors import InterfaceError, NotSupportedError, ProgrammingError
from ..protocol.requests import scroll_open_group, sfetch_group
from ..types.composite import is_complex_column
from .cursor import Cursor, CursorOp
from .lifecycle import StatementSession, codec_error
from .placeholders import count_arg
from .replies import Reply
from .statements import Prepared
from .steps import blocking_method

__all__ = ["ScrollCursor"]

NEXT, LAST, ABSOLUTE = 1, 4, 6

Row = tuple[Any, ...]
#: One SFETCH to send: (fetch type, 1-based index).
Fetch = tuple[int, int]
T = TypeVar("T")
#: A move: yields the SFETCH plans it needs, returns its result.
Moves = Generator[list[Fetch], None, T]


def _complex_names(p: Prepared) -> list[str]:
    """The names of a result's ROW/collection columns, for the refusal above."""
    return [str(d[0]) for d, c in zip(p.description or (), p.columns, strict=False)
            if is_complex_column(c)]


def _flag(value: object, name: str) -> bool:
    if not isinstance(value, bool | int):
        raise ProgrammingError(f"{name} must be a bool, not {type(value).__name__}")
    return bool(value)


class ScrollCursor(Cursor):
    """A cursor that can move anywhere in its result (``scrollable``) and/or survives the end
    of a transaction (``withhold``). Create it with ``conn.cursor(scrollable=True)``."""

    def __init__(self, connection: StatementSession, scrollable: bool, withhold: bool) -> None:
        super().__init__(connection)
        self.scrollable = _flag(scrollable, "scrollable")
        self.withhold = _flag(withhold, "withhold")
        self._window_reset()

    def _window_reset(self) -> None:
        self._window: list[Any] = []
        self._window_raw: list[Row] = []  # the decoded rows behind _window (row factories)
        self._start = 0  # 0-based index of _window[0]
        self._count: int | None = None  # rows in the result, once known
        self._absent: int | None = None  # the lowest index known not to exist
        self._server_row = 0  # the server cursor's 1-based position; -1: unknown
        self._batch = 0  # rows one NEXT reply brought (0: not seen yet)
        self._next = 0  # PEP 249 rownumber: the row fetchone() returns next

    # ------------------------------------------------------------------ opening

    def _statement_groups(
        self, p: Prepared, bind: bytes
    ) -> tuple[list[tuple[bytes, Reply]], Reply | None, Reply, Reply | None]:
        if not p.is_query:
            return super()._statement_groups(p, bind)
        if self.scrollable and p.ret_type:
            # SQ_RET_TYPE (what makes a server send ROW/collection values in the binary form)
            # is only witnessed before NFETCH; to SFETCH the server sends the text form, which
            # the driver reads only for numeric collections (cursor.collections = "text").
            # Refused before anything is sent: the connection stays as it was.
            raise NotSupportedError(
                "a scrollable cursor cannot read ROW or collection columns in the binary form "
                f"({', '.join(_complex_names(p))}): use a forward cursor, or "
                'cursor.collections = "text" for collections of numbers (docs/DRIVER.md §4)'
            )
        conn = self.session
        groups: list[tuple[bytes, Reply]] = []
        begin = conn._begin_reply(p, groups)
        # A scrollable cursor's rows come with SFETCH; PROTOCOL.md §4 has the SFETCH fields.
        group = scroll_open_group(p.stmt_id, self._cursor_name or p.cursor_name, bind,
                                  self.scrollable, self.withhold, p.fetch_size)
        reply = conn._reply(self._decoder(p), p)
        groups.append((group, reply))
        return groups, begin, reply, None

    def _opening_ends(self, reply: Reply) -> bool:
        return False if self.scrollable else super()._opening_ends(reply)

    def _reset(self) -> None:
        super()._reset()
        self._window_reset()

    def _remake(self) -> None:
        super()._remake()
        make = self._make_rows
        try:
            self._window = self._window_raw if make is None else make(self._window_raw)
        except Exception:
            # Forget the window: the move that needs it fetches it again and raises then.
            self._window, self._window_raw = [], []

    def _result_lost(self, what: str, send_close: bool) -> None:
        if self.withhold and send_close:
            return  # a hold cursor outlives the transaction; a database change closes it
        super()._result_lost(what, send_close)
        self._window_reset()

    # ------------------------------------------------------------------ the window (no I/O)

    def _window_row(self, i: int) -> tuple[bool, Row | None]:
        """(known, row): whether row ``i`` is known to exist or not without asking."""
        if i < 0:
            return True, None
        k = i - self._start
        if 0 <= k < len(self._window):
            return True, self._window[k]
        if self._absent is not None and i >= self._absent:
            return True, None
        return False, None

    def _window_plan(self, i: int) -> list[Fetch]:
        """The SFETCHes that bring row ``i`` (0-based) into the window."""
        end = self._start + len(self._window)
        if self._window and i == end and self._server_row == end:
            return [(NEXT, i + 1)]  # read on, as ResultSet.next() does
        start = i
        if self._window and i < self._start and self._batch > 1:
            start = max(0, i - self._batch + 1)  # backwards: end the new window at i
        return [(ABSOLUTE, start + 1), (NEXT, start + 2)]

    def _last_plan(self) -> list[Fetch]:
        return [(LAST, 0)]

    def _sfetch_groups(self, plan: list[Fetch]) -> list[tuple[bytes, Reply]]:
        p = self._result.prepared
        assert p is not None
        conn = self.session
        return [
            (sfetch_group(p.stmt_id, kind, index, p.fetch_size), conn._reply(self._decoder(p), p))
            for kind, index in plan
        ]

    def _window_take(self, plan: list[Fetch], groups: list[tuple[bytes, Reply]]) -> None:
        """Make the replies to ``plan`` the window."""
        conn = self.session
        for _, reply in groups:
            if reply.error is not None:
                raise conn._server_error(reply.error)
            if reply.decode_error is not None:
                # Never a shorter window that looks complete: a row that did not decode is
                # an error, as in the forward cursor's batches.
                raise codec_error(reply.decode_error)
        rows: list[Row] = []
        start: int | None = None
        for (kind, index), (_, reply) in zip(plan, groups, strict=True):
            got = reply.rows
            tupid = reply.tupid
            if not got:
                if kind == LAST:
                    self._count = self._absent = 0
                else:
                    self._note_absent(index - 1)
                self._server_row = -1
                break
            if tupid is None:
                raise InterfaceError("protocol error: a scroll fetch reply without SQ_TUPID")
            if kind == LAST:
                self._count = self._absent = tupid
                index = tupid - len(got) + 1
            elif tupid != index:
                raise InterfaceError(
                    f"protocol error: asked for row {index}, the server sent row {tupid}"
                )
            if start is None:
                start = index - 1
            elif index - 1 != start + len(rows):
                break
            if kind == NEXT and len(got) > self._batch:
                self._batch = len(got)
            rows.extend(got)
            self._server_row = index + len(got) - 1
        if start is not None:
            make = self._make_rows
            # A row factory that refuses the rows leaves the window as it was (raised here).
            self._window = rows if make is None else make(rows)
            self._window_raw, self._start = rows, start
            if self._absent is not None and self._absent == start + len(rows):
                self._count = self._absent
        if self._count is not None:
            self.rowcount = self._count

    def _note_absent(self, i: int) -> None:
        if self._absent is None or i < self._absent:
            self._absent = i
        if i == 0 or (self._window and i == self._start + len(self._window)):
            self._count = i

    # ------------------------------------------------------------------ moves (no I/O)
    #
    # Each move is a generator that yields the SFETCH plans it needs and returns its result:
    # the sync cursor runs them with blocking exchanges (_drive), the asyncio cursor with
    # awaited ones, so both make the very same moves.

    def _g_row(self, i: int) -> Moves[Row | None]:
        self._scroll_check()
        while True:
            known, row = self._window_row(i)
            if known:
                return row
            yield self._window_plan(i)

    def _g_total(self) -> Moves[int]:
        self._scroll_check()
        if self._count is None:
            yield self._last_plan()
        assert self._count is not None
        return self._count

    # The moves the PEP 249 methods below drive, named (not private) because the asyncio
    # scroll cursor drives them too (aio/scroll.py), as it runs ``sfetch_op``.

    def fetchone_moves(self) -> Moves[Row | None]:
        row = yield from self._g_row(self._next)
        if row is not None:
            self._next += 1
        return row

    def fetchmany_moves(self, size: object) -> Moves[list[Row]]:
        """``size`` rows (None: ``arraysize``) from the current one, fewer at the end."""
        n = self._arraysize if size is None else count_arg(size, "fetchmany size")
        out: list[Row] = []
        while len(out) < n:
            row = yield from self.fetchone_moves()
            if row is None:
                break
            out.append(row)
        return out

    def scroll_moves(self, value: object, mode: str) -> Moves[None]:
        self._check_result()
        offset = count_arg(value, "scroll value")
        if mode == "relative":
            target = self._next + offset
        elif mode == "absolute":
            target = offset
        else:
            raise ProgrammingError(f"scroll mode must be 'relative' or 'absolute', not {mode!r}")
        if target < 0 or (target > 0 and (yield from self._g_row(target - 1)) is None):
            raise IndexError(f"scroll target {target} is outside the result set")
        self._next = target

    def absolute_moves(self, index: object) -> Moves[Row | None]:
        self._need_scroll()
        i = count_arg(index, "index")
        if i < 0:
            i += yield from self._g_total()
        return (yield from self._g_at(i))

    def relative_moves(self, offset: object) -> Moves[Row | None]:
        self._need_scroll()
        return (yield from self._g_at(self._next - 1 + count_arg(offset, "offset")))

    def fetch_first_moves(self) -> Moves[Row | None]:
        """The first row (None if the result is empty)."""
        return self.absolute_moves(0)

    def fetch_last_moves(self) -> Moves[Row | None]:
        """The last row (None if the result is empty)."""
        return self.absolute_moves(-1)

    def fetch_prior_moves(self) -> Moves[Row | None]:
        """The row before the current one (the row last returned)."""
        return self.relative_moves(-1)

    def fetch_relative_moves(self, offset: int) -> Moves[Row | None]:
        """The row ``offset`` rows from the current one (the row last returned)."""
        return self.relative_moves(offset)

    def fetch_absolute_moves(self, index: int) -> Moves[Row | None]:
        """Row ``index`` (0-based; negative counts from the end, as Python lists do)."""
        return self.absolute_moves(index)

    def _g_at(self, i: int) -> Moves[Row | None]:
        if i < 0:
            self._scroll_check()
            self._next = 0
            return None
        row = yield from self._g_row(i)
        if row is not None:
            self._next = i + 1
        else:
            self._next = yield from self._g_total()
        return row

    def _need_scroll(self) -> None:
        if not self.scrollable:
            raise ProgrammingError("fetch_* moves need a scroll cursor: cursor(scrollable=True)")

    def _scroll_check(self) -> None:
        self._check_result()
        if self._exhausted:
            self._more()  # raises the "closed by commit" error if that is what happened
            raise ProgrammingError("the scroll cursor's result is closed", sqlstate="24000")

    # ------------------------------------------------------------------ I/O (sync)

    def _drive(self, moves: Moves[T]) -> T:
        try:  # (``first_plan`` inline: a window hit, a row's fetch, costs no extra call)
            plan = next(moves)
        except StopIteration as stop:
            return stop.value  # type: ignore[no-any-return]
        return self.run(lambda _: self.moves_op(moves, plan))

    def first_plan(self, moves: Moves[T]) -> tuple[list[Fetch] | None, T | None]:
        """A move's first SFETCH plan, or (None, its result) when the rows it needs are in
        the window already: then no lock is taken and nothing is sent."""
        try:
            return next(moves), None
        except StopIteration as stop:
            return None, stop.value

    def moves_op(self, moves: Moves[T], plan: list[Fetch]) -> CursorOp[T]:
        """The rest of a move from its first plan (``first_plan``), as one cursor operation
        run holding the lock by either driver: each plan's SFETCHes, in turn."""
        while True:
            yield from self.sfetch_op(plan)
            try:
                plan = moves.send(None)
            except StopIteration as done:
                return done.value  # type: ignore[no-any-return]

    def sfetch_op(self, plan: list[Fetch]) -> CursorOp[None]:
        """One plan's SFETCH groups, exchanged, into the window (a cursor operation: the
        asyncio scroll cursor runs it too)."""
        groups = self._sfetch_groups(plan)
        yield groups
        p = self._result.prepared
        if p is not None and p.blobs:
            for _, reply in groups:
                yield from self.blobs_op(p, reply)
        self._window_take(plan, groups)

    # ------------------------------------------------------------------ PEP 249

    @property
    def rownumber(self) -> int | None:
        if not self.scrollable:
            return super().rownumber
        return self._next if self._has_result else None

    def fetchone(self) -> Row | None:
        if not self.scrollable:
            return super().fetchone()
        return self._drive(self.fetchone_moves())

    def fetchmany(self, size: int | None = None) -> list[Row]:
        if not self.scrollable:
            return super().fetchmany(size)
        return self._drive(self.fetchmany_moves(size))

    def fetchall(self) -> list[Row]:
        if not self.scrollable:
            return super().fetchall()
        return self._drive(self.fetchmany_moves(sys.maxsize))

    def __iter__(self) -> Iterator[Row]:
        return self

    def __next__(self) -> Row:
        row = self.fetchone()
        if row is None:
            raise StopIteration
        return row

    def scroll(self, value: int, mode: str = "relative") -> None:
        """Move ``rownumber`` by ``value`` (relative) or to ``value`` (absolute); moving
        outside ``0..rowcount`` raises IndexError and leaves the position as it was."""
        if not self.scrollable:
            super().scroll(value, mode)
            return
        self._drive(self.scroll_moves(value, mode))

    # The fetch_* methods only drive a move (theirs are the moves' parameters and docstrings);
    # the asyncio scroll cursor's are made of the same moves (client/steps.py).
    fetch_first = blocking_method(fetch_first_moves, run="_drive")
    fetch_last = blocking_method(fetch_last_moves, run="_drive")
    fetch_prior = blocking_method(fetch_prior_moves, run="_drive")
    fetch_relative = blocking_method(fetch_relative_moves, run="_drive")
    fetch_absolute = blocking_method(fetch_absolute_moves, run="_drive")
