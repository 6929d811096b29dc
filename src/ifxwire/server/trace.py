"""Decoding replies for ``--trace``: every message of a reply by name with its key fields.

Uses the driver-side parsers of ``protocol.messages``, so a trace also exercises them.
"""

from __future__ import annotations

from ..protocol import fastpath as fp
from ..protocol import messages as m
from ..protocol.codes import Msg
from ..protocol.wire import NeedMore, ProtocolViolation, Reader


def _one(r: Reader, layout: m.Layout) -> str:
    code = r.u16()
    name = Msg(code).name if code in Msg._value2member_map_ else f"?{code}"
    if code == Msg.DESCRIBE:
        d = m.read_describe(r, layout)
        cols = ", ".join(f"{c.name}:{c.type:#x}/{c.enclen:#x}" for c in d.columns)
        return f"DESCRIBE type={d.stmt_type} id={d.stmt_id} [{cols}]"
    if code == Msg.TUPLE:
        r.i16()
        size = r.i32()
        r.padded(size)
        return f"TUPLE {size}B"
    if code == Msg.DONE:
        d2 = m.read_done(r, layout)
        return f"DONE rows={d2.rows} serial={d2.serial} warnings={d2.warnings:#x}"
    if code == Msg.DBLIST:
        names: list[str] = []
        while listed := r.charstr():
            names.append(listed.decode("iso-8859-1"))
        return f"DBLIST {names}"
    if code == Msg.COST:
        return f"COST rows={r.i32()} cost={r.i32()}"
    if code == Msg.ERR:
        e = m.read_err(r, layout)
        return f"ERR {e.sqlcode} isam={e.isamcode} offset={e.offset} near={e.text!r}"
    if code == Msg.INSERTDONE:
        i = m.read_insertdone(r, layout)
        return f"INSERTDONE serial8={i.serial8}"
    if code == Msg.IDESCRIBE:
        ps = m.read_idescribe(r, layout)
        return "IDESCRIBE [" + ", ".join(f"{p.type:#x}/{p.enclen:#x}" for p in ps) + "]"
    if code == Msg.PROTOCOLS:
        return f"PROTOCOLS {r.padded(r.u16()).hex()}"
    if code == Msg.VERSION:
        return f"VERSION {r.charstr()!r}"
    if code == Msg.TUPID:
        return f"TUPID {r.i32()}"
    if code == Msg.GETROUTINE:
        db, handle = fp.read_routine_handle(r, layout)
        return f"GETROUTINE db={db!r} handle={handle}"
    if code == Msg.FPROUTINE:
        values = fp.read_fproutine(r, "iso-8859-1")
        return "FPROUTINE [" + ", ".join(f"{v.type}:{_short(v.value)}" for v in values) + "]"
    if code == Msg.IFPDESCRIBE:
        args = fp.read_ifpdescribe(r, layout)
        words = ("IN", "OUT", "INOUT")
        return "IFPDESCRIBE [" + ", ".join(
            f"{n}:{t:#x}/{words[md] if 0 <= md < 3 else md}" for n, t, md in args) + "]"
    if code == Msg.FPARAM:
        nrets, arg_modes = fp.read_fparam_reply(r, layout)
        return f"FPARAM returns={nrets} modes={arg_modes}"
    if code == Msg.LODATA:
        op, size = r.u16(), r.i32()
        if op != 2:
            left = size if size > 0 else 1
            while left > 0:  # the data chunks of a read
                n = r.i16()
                r.padded(n)
                left -= max(n, 1)
        return f"LODATA op={op} size={size}"
    if code == Msg.BLOB:
        return f"BLOB {len(r.padded(r.u16()))}B"
    if code in (Msg.EOT, Msg.CLOSE, Msg.EXIT):
        return name
    raise ProtocolViolation(f"trace cannot decode {name}", r.pos - 2)


def _short(value: object) -> str:
    text = value.hex() if isinstance(value, bytes) else repr(value)
    return text if len(text) <= 40 else text[:40] + "…"


def describe_reply(data: bytes | bytearray, layout: m.Layout) -> str:
    """All messages of one reply, e.g. ``TUPLE 12B, DONE rows=1 …, EOT``."""
    r = Reader(bytes(data))
    parts = []
    tuples = 0
    try:
        while r.remaining:
            text = _one(r, layout)
            if text.startswith("TUPLE"):
                tuples += 1
                if tuples > 3:
                    continue
            parts.append(text)
    except (NeedMore, ProtocolViolation, ValueError) as exc:
        parts.append(f"<undecodable at {r.pos}: {exc}> {bytes(data[r.pos : r.pos + 64]).hex()}")
    if tuples > 3:
        parts.append(f"(+{tuples - 3} more TUPLEs)")
    return ", ".join(parts)
