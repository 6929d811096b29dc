"""The pure-Python tuple loop: a whole run of SQ_TUPLE messages decoded by one generated
function (``decode_tuples``, the twin of the accelerator's), for Reply._tuples.

rowcodec builds the per-row statements (its column generator in batch mode); this module
wraps them in the loop. Why it looks the way it does (bench/gap.py measured each step):

* A row costs no call: decode_row's statements run inline. Any row the inline code does not
  accept is decoded again by decode_row, which returns the same values or raises exactly the
  exception the row-by-row loop would see; so the loop may be optimistic everywhere.
* The buffer is taken in windows of ``TEXT_WINDOW`` bytes (whole tuples, at least one): each
  window is copied once, and positions inside it start at 0, so a text value is a slice of one
  Latin-1 decoding of the window at the same positions, with no base to subtract. Latin-1 maps
  every byte to the code point of the same value, so for a Latin-1 connection the slice *is*
  the value; for UTF-8 (and ASCII) it is when the window is all ASCII (one ``isascii`` per
  window), else each value is checked and a non-ASCII one decoded from its bytes (same result,
  same errors). A shape with no text sliced that way needs no copy: its loop reads the buffer
  in place, from ``pos`` to ``end``, in one pass (callgrind: a row holding a LIST of 10
  INTEGERs, ~1 KB with its type table, 16 834 → 15 674 instructions).
* Fixed-scale DECIMAL and DATE are decoded inline (types/tupdecimal.py for the DECIMAL).
* The SQ_TUPLE header, a leading run of struct-readable columns and the length byte of a
  VARCHAR that follows a run are read by one ``unpack_from``. The size is read unsigned: a
  negative one then looks larger than the window, and the loop stops there as it must.
* When that VARCHAR (or a VARCHAR in the first column) is itself followed by a struct run
  (or an inline DECIMAL), that run is read by the same ``unpack_from``, with a struct chosen
  by the VARCHAR's length (types/tuplength.py), while the window holds enough bytes; its last
  rows go through the plain loop. Later, a run ending with a VARCHAR's length and the run
  after that VARCHAR are read together the same way, in both loops.
* When every column is fixed-width or a VARCHAR (whose length is one byte), a row can only
  be so long, and while the window holds that much past a row's start, the row is read with
  no test of its end first (``bounded_loop``): its statements cannot read past the window,
  and a row they accept ends where its header says. callgrind, instructions per row: a fixed
  4-column row 3 721 → 3 085, the bench's 5-column row 6 936 → 6 781, the type mix
  11 055 → 10 866.
"""

from __future__ import annotations

import codecs
import re
import struct
from collections.abc import Callable, Sequence
from datetime import date
from typing import Any

from ..protocol.codes import Msg
from . import temporal as _tmp
from .errors import CodecError
from .tupdecimal import inline_decimal
from .tuplength import merge_first_text, merge_later_texts

__all__ = ["TEXT_WINDOW", "Redo", "build_tuple_loop"]

#: Bytes of the buffer taken at once (copied, and decoded for the text columns).
TEXT_WINDOW = 65536
#: Connection codecs whose text values are sliced from a Latin-1 decoding: "exact" where that
#: decoding is the value, "ascii" where it is when the value is all ASCII.
_TEXT_WINDOW_CODECS = {"iso8859-1": "exact", "utf-8": "ascii", "ascii": "ascii"}
_EPOCH_ORD = _tmp.DATE_EPOCH.toordinal()
_TUPLE_CODE = int(Msg.TUPLE)
_STR_CALL = re.compile(r"_str\((buf\[[^\]]*\]), (_enc\d+)\)")
_DATE_CALL = re.compile(r"_date_from_days\((c\d+)\)")
_DECIMAL_LINE = re.compile(r"^(\s*)(c\d+) = (_dec\d+)\(buf, ([^()]+)\)$")
#: rowcodec's unpack of a struct-readable run: targets, struct name, position.
_RUN_LINE = re.compile(r"^\s*((?:\w+, )+)= (_S\d+)\.unpack_from\(buf, ([^()]+)\)$")
_HEADER = struct.Struct(">Hxxi")


class Redo(Exception):
    """Raised inside the generated tuple loop: decode this row again with decode_row."""


def _codec_name(encoding: str) -> str:
    try:
        return codecs.lookup(encoding).name
    except LookupError:
        return ""


def _text_slice(exact: bool) -> Callable[[re.Match[str]], str]:
    """Rewrites ``_str(buf[A:B], ENC)`` into a slice of the window's decoding."""

    def rewrite(match: re.Match[str]) -> str:
        sliced, enc = match.group(1), match.group(2)
        text = "_text" + sliced[len("buf") :]
        if exact:
            return text
        return f"(_t if (_t := {text}).isascii() else {sliced}.decode({enc}))"

    return rewrite


def _inline(lines: Sequence[str], decimals: dict[str, tuple[int, int]],
            ns: dict[str, Any]) -> list[str]:
    """decode_row's statements as the loop runs them: DATE and fixed-scale DECIMAL without a
    call for the values they decode directly (the DECIMAL as types/tupdecimal.py says, read by
    one ``unpack_from`` together with a struct-readable run that follows it directly). Anything
    else they meet raises inside the loop, whose row is then decoded by decode_row (same value
    or same error). No length check: a value cut short by the window's end fails the unpack
    or the row's size check."""
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = _DATE_CALL.sub(r"_fromordinal(\1 + _EPOCH_ORD)", lines[i])
        i += 1
        match = _DECIMAL_LINE.match(line)
        if match is None or match.group(3) not in decimals:
            out.append(line)
            continue
        ind, var, fn, pos = match.groups()
        width, scale = decimals[fn]
        after = _RUN_LINE.match(lines[i]) if i < len(lines) else None
        run = None
        if after is not None and after.group(3) == _offset(pos, width):
            run = (after.group(1).rstrip(", "), ns[after.group(2)].format.lstrip(">"))
            i += 1
        out += inline_decimal(ind, var, fn, pos, width, scale, run, ns)
    return out


def _offset(pos: str, width: int) -> str:
    """rowcodec's spelling (``_at``) of the position ``width`` bytes after ``pos``."""
    base, _, delta = pos.partition(" + ")
    return f"{base} + {int(delta or 0) + width}"


def build_tuple_loop(
    *,
    lines: Sequence[str],
    lead: tuple[str, Sequence[str], int],
    row_end: str | None,
    fixed_size: int,
    bound: int | None,
    values: str,
    encoding: str,
    decimals: dict[str, tuple[int, int]],
    namespace: dict[str, Any],
    decode_row: Callable[..., Any],
    ncols: int,
    columns: tuple[Callable[[list[str]], list[str]], Sequence[str], str, str] | None = None,
) -> Callable[..., tuple[int, CodecError | None]]:
    """``decode_tuples(buf, pos, end, rows) -> (pos, first CodecError or None)``.

    ``lines`` are the row's statements from rowcodec's column generator in batch mode
    (positions relative to ``off``, the payload inside the window); ``lead`` the struct
    format, targets and width read together with the header; ``row_end`` the expression of
    where the statements stop reading (None for a fixed layout, whose rows are
    ``fixed_size`` bytes); ``bound`` the largest payload the statements can consume whatever
    the bytes say (None when a column reads a length wider than a byte); ``values`` the
    tuple's items.
    """
    fmt, targets, width = lead
    min_len = 8 + width
    if row_end is None:
        check = bounded_check = f"if size != {fixed_size}: raise _Redo"
        advance = f"p + {8 + fixed_size + (fixed_size & 1)}"
    else:
        check = f"if {row_end} != stop: raise _Redo"
        # row_end == p + 8 + size with the constants on one side: two additions at most.
        base, _, delta = row_end.partition(" + ")
        shift = int(delta or 0) - 8
        ends = f"{base} + {shift} != p + size" if shift > 0 else (
            f"{base} != p + {-shift} + size" if shift else f"{base} != p + size")
        bounded_check = f"if {ends}: raise _Redo"
        advance = f"{row_end} + (size & 1)"
    ns = dict(namespace)
    ns.update(
        _H=struct.Struct(">HxxI" + fmt),
        _HS=_HEADER,
        _decode_row=decode_row,
        _CodecError=CodecError,
        _Redo=Redo,
        _fromordinal=date.fromordinal,
        _EPOCH_ORD=_EPOCH_ORD,
    )
    body = _inline(lines, decimals, ns)
    store, store_row = f"rows.append(({values}))", "rows.append({row})"
    prologue: Sequence[str] = ()
    if columns is not None:
        body = columns[0](body)
        prologue, store, store_row = columns[1], columns[2], columns[3]
    mode = _TEXT_WINDOW_CODECS.get(_codec_name(encoding))
    texts = any(_STR_CALL.search(line) for line in body)
    window = []
    if texts and mode is not None:
        window.append("        _text = buf.decode('latin-1')")
    head = ", ".join(["code", "size", *targets])
    merge = merge_first_text(body, ">HxxI" + fmt, targets, min_len, ns)
    if merge is not None:
        merge = (merge[0], merge_later_texts(merge[1], ns), merge[2])
    body = merge_later_texts(body, ns)

    def rewrite(body: list[str]) -> list[list[str]]:
        """``body`` with its text values as the connection's codec wants them: one body, or
        one for an all-ASCII window and one for the others."""
        if mode is None or not texts:
            return [[_STR_CALL.sub(r"\1.decode(\2)", line) for line in body]]
        if mode == "exact":
            return [[_STR_CALL.sub(_text_slice(True), line) for line in body]]
        return [[_STR_CALL.sub(_text_slice(exact), line) for line in body]
                for exact in (True, False)]  # fmt: skip

    def row_loop(body: list[str], limit: str, reads: Sequence[str]) -> list[str]:
        """One loop over the window's tuples: ``reads`` read a row's head, ``body`` the rest."""
        return [
            f"while p <= {limit}:",
            *("    " + line for line in reads),
            f"    if code != {_TUPLE_CODE}:",
            "        break",
            "    stop = p + 8 + size",
            "    nxt = stop + (size & 1)",
            "    if nxt > we:",
            "        break",
            "    try:",
            *("    " + line.removeprefix("    ") for line in body),
            f"        {check}",
            "    except Exception:",
            *fallback,
            "    else:",
            # rows.append rather than a bound method held in a local: CPython 3.11+
            # specialises the method call on a list into an inline append.
            f"        {store}",
            "    p = nxt",
        ]

    def bounded_loop(body: list[str], reads: Sequence[str]) -> list[str]:
        """``row_loop`` for the rows that start at least ``8 + bound + 1`` bytes before the
        window's end: whatever its bytes say, such a row's statements cannot read past the
        window, and one they accept ends where its header says, so it is inside the window
        and needs no test of its end before it is read. A row they refuse is tested as in
        row_loop before decode_row (which reads from ``src``, not the window)."""
        return [
            "while p <= safe:",
            *("    " + line for line in reads),
            f"    if code != {_TUPLE_CODE}:",
            "        break",
            "    try:",
            *("    " + line.removeprefix("    ") for line in body),
            f"        {bounded_check}",
            "    except Exception:",
            "        nxt = p + 8 + size + (size & 1)",
            "        if nxt > we:",
            "            break",
            *fallback,
            "        p = nxt",
            "    else:",
            f"        {store}",
            f"        p = {advance}",
        ]

    # Without text sliced from a decoded window there is nothing a copy is for: the loops
    # then read ``src`` itself, at positions counted from its start (``p`` begins at ``pos``).
    copy = bool(window)
    fallback = [
        "        try:",
        "            " + store_row.format(
            row=f"_decode_row(src, {'pos + ' if copy else ''}p + 8, size)"),
        "        except _CodecError as exc:",
        "            if err is None:",
        "                err = exc",
    ]

    plain = [f"{head}, = _H.unpack_from(buf, p)"]
    # The rows read with no test of their end first (bounded_loop), when a row can only be
    # so long; a row it stops at is read again by the loops after it.
    safe = None if bound is None or bound > TEXT_WINDOW // 4 else 8 + bound + 1
    variants = []  # per text variant: the window's loops
    for k, body_k in enumerate(rewrite(body)):
        loops: list[str] = []
        if merge is not None:
            # While the window holds a whole merged read past the row's start (tuplength.py);
            # a row it stops at is read again by the plain loop, which also takes the rest.
            merged = rewrite(merge[1])[k]
            if safe is not None:
                loops += bounded_loop(merged, merge[0])
            loops += row_loop(merged, "slack", merge[0])
        elif safe is not None:
            loops += bounded_loop(body_k, plain)
        variants.append(loops + row_loop(body_k, "lim", plain))
    if len(variants) == 2:
        # One loop for an all-ASCII window (values sliced as they are), one for the others
        # (each value checked): the choice is made once per window, not per row.
        loops = [
            "        if buf.isascii():",
            *("            " + line for line in variants[0]),
            "        else:",
            *("            " + line for line in variants[1]),
        ]
    else:
        loops = [("        " if copy else "    ") + line for line in variants[0]]
    limits = [
        f"lim = we - {min_len}",
        *([f"safe = we - {safe}"] if safe is not None else []),
        *([f"slack = we - {merge[2]}"] if merge is not None else []),
    ]
    if not copy:
        src = [
            "def decode_tuples(src, pos, end, rows):",
            "    if type(src) is not bytearray and type(src) is not bytes:",
            "        return pos, None",
            "    err = None",
            *("    " + line for line in prologue),
            "    buf = src",
            "    p = pos",
            "    we = min(end, len(src))",
            *("    " + line for line in limits),
            *loops,
            "    return p, err",
        ]
        return _compiled(src, ns, ncols)
    src = [
        "def decode_tuples(src, pos, end, rows):",
        "    if type(src) is not bytearray and type(src) is not bytes:",
        "        return pos, None",
        "    if end > len(src):",
        "        end = len(src)",
        "    err = None",
        *("    " + line for line in prologue),
        f"    while end - pos >= {min_len}:",
        "        code, size = _HS.unpack_from(src, pos)",
        f"        if code != {_TUPLE_CODE} or size < 0:",
        "            break",
        "        wend = pos + 8 + size + (size & 1)",
        "        if wend > end:",
        "            break",
        f"        if wend - pos < {TEXT_WINDOW}:",
        f"            wend = min(end, pos + {TEXT_WINDOW})",
        "        buf = src[pos:wend]",
        *window,
        "        p = 0",
        "        we = wend - pos",
        *("        " + line for line in limits),
        *loops,
        "        if not p:",
        "            break",
        "        pos += p",
        "    return pos, err",
    ]
    return _compiled(src, ns, ncols)


def _compiled(
    src: Sequence[str], ns: dict[str, Any], ncols: int
) -> Callable[..., tuple[int, CodecError | None]]:
    code = "\n".join(src)
    exec(compile(code, f"<ifxwire tuple loop {ncols} cols>", "exec"), ns)
    loop: Callable[..., tuple[int, CodecError | None]] = ns["decode_tuples"]
    loop.__doc__ = code
    return loop
