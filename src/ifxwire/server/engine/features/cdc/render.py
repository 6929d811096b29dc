"""A captured table's CDC record renderer: ``(record number, stored row, sequence,
transaction) -> record bytes`` (CDC_REC_INSERT/DELETE/UPDBEF/UPDAFT, docs/CDC_SERVER.md "Records").

Rendering is most of the server's time per event (issue 27's benchmark), so a renderer is
made once per captured table and row shape (``CdcSession._plan`` caches it): a generated
Python function that takes each captured column from the stored row, loads it (SQLite value
-> Python value), encodes it in its CDC form and packs the whole record with one struct; and,
when the optional compiled module is built and in use (``ifxwire._cdcaccel``), its compiled
twin, which packs INTEGER/SMALLINT, VARCHAR and stored DECIMAL text itself and calls the
generated function's own per-column step for anything else, giving the same bytes
(tests/unit/test_cdc_speed.py).
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Sequence
from typing import Any

from ..... import _cdcaccel
from .....protocol import cdc as rec
from .....protocol.codes import TypeCode
from .....protocol.columns import ColumnDesc
from .....types import cdcrow
from .....types.numeric import (
    DECIMAL_FLOATING_SCALE,
    DECIMAL_MAX_DIGITS,
    decimal_width,
    stored_decimal_encoder,
)
from .....types.rowcodec import _varchar_max
from .....types.text import VARCHAR_MAX
from ...core import convert as conv
from ...core.ifxtypes import IfxType, from_key

Render = Callable[[int, tuple[object, ...], int, int], bytes]

#: SMALLINT and INTEGER in a CDC record: their pack, the largest magnitude it takes
#: (rowcodec._column_encoder's; -limit - 1 is the NULL value) and its width
_INT_PACKS: dict[int, tuple[Callable[[int], bytes], int, int]] = {
    TypeCode.SMALLINT: (struct.Struct(">h").pack, 0x7FFF, 2),
    TypeCode.INTEGER: (struct.Struct(">i").pack, 0x7FFFFFFF, 4),
    TypeCode.SERIAL: (struct.Struct(">i").pack, 0x7FFFFFFF, 4),
}


def _step(e: Callable[[object], bytes], f: Callable[[object], object]
          ) -> Callable[[object], bytes]:
    """The generated code's ``e(None if x is None else f(x))`` as a function (the compiled
    renderer's way for a value it does not pack itself)."""
    def step(x: object) -> bytes:
        return e(None if x is None else f(x))
    return step


def build(user_data: int, names: Sequence[str], types: Sequence[IfxType],
          shape: Sequence[tuple[str, str]], encoding: str, name: str = ""
          ) -> tuple[Render, tuple[_cdcaccel.RenderColumn, ...]]:
    """The generated renderer for rows written with ``shape`` (the columns and types when the
    row was logged) of a table captured as ``names``/``types`` with label ``user_data``, and
    the column plan of its compiled twin (``_cdcaccel.c_renderer``)."""
    index = {name: i for i, (name, _) in enumerate(shape)}
    descs: list[ColumnDesc] = [t.describe(n) for n, t in zip(names, types, strict=True)]
    encoders = cdcrow.encoders(descs, encoding)
    codec = _cdcaccel.codec_kind(encoding)
    env: dict[str, Any] = {}
    lines = []
    sizes = []
    plan: list[_cdcaccel.RenderColumn] = []
    for k, col in enumerate(names):
        at = index[col]
        f = conv.loader(from_key(shape[at][1]))
        desc = descs[k]
        variable = cdcrow.width(desc) is None
        env[f"e{k}"] = encoders[k]
        if f is conv.load_decimal and desc.base in (TypeCode.DECIMAL, TypeCode.MONEY):
            # the stored text straight to its CDC bytes (numeric.stored_decimal_encoder)
            e = env[f"e{k}"] = stored_decimal_encoder(desc.enclen, f)
            lines.append(f"    p{k} = e{k}(v[{at}])")
            p, s = desc.enclen >> 8, desc.enclen & 0xFF
            if s != DECIMAL_FLOATING_SCALE and 1 <= p <= DECIMAL_MAX_DIGITS and s <= p:
                plan.append((_cdcaccel.R_DECIMAL, at, s, p - s, decimal_width(desc.enclen), e,
                             int(variable)))
            else:
                plan.append((_cdcaccel.R_CALL, at, 0, 0, 0, e, int(variable)))
        elif f is None:
            lines.append(f"    p{k} = e{k}(v[{at}])")
            plan.append((_cdcaccel.R_CALL, at, 0, 0, 0, encoders[k], int(variable)))
        elif desc.base in _INT_PACKS and hasattr(f, "batch_kind"):
            # a plain int in range (nearly all): packed here, as loader and encoder
            # would (rowcodec._fast_int), without calling either
            pack, limit, size = _INT_PACKS[desc.base]
            lo, hi = f.batch_kind[1:]
            lo, hi = max(lo, -limit), min(hi, limit)
            env[f"f{k}"], env[f"P{k}"] = f, pack
            lines.append(f"    x = v[{at}]")
            lines.append(f"    p{k} = P{k}(x) if x.__class__ is int and "
                         f"{lo} <= x <= {hi} else "
                         f"e{k}(None if x is None else f{k}(x))")
            plan.append((_cdcaccel.R_INT, at, lo, hi, size, _step(encoders[k], f),
                         int(variable)))
        else:
            env[f"f{k}"] = f
            lines.append(f"    x = v[{at}]")
            lines.append(f"    p{k} = e{k}(None if x is None else f{k}(x))")
            if (desc.base in (TypeCode.VARCHAR, TypeCode.NVARCHAR) and not cdcrow.special(desc)
                    and f is conv._load_chars and codec):
                # an str without NUL is its own loaded value (_load_chars), then
                # text.varchar_encoder's short way: a length byte and the encoded bytes
                mx = _varchar_max(desc)
                limit = min(mx, VARCHAR_MAX) if mx > 0 else VARCHAR_MAX
                plan.append((_cdcaccel.R_VARCHAR, at, limit, 0, codec, _step(encoders[k], f),
                             int(variable)))
            else:
                plan.append((_cdcaccel.R_CALL, at, 0, 0, 0, _step(encoders[k], f),
                             int(variable)))
        if variable:
            sizes.append(f"len(p{k})")
    head = struct.Struct(f">iiiiqiii{len(sizes)}i")
    env["H"] = head.pack
    payload = " + ".join(f"p{k}" for k in range(len(names))) or "b''"
    lines.append(f"    payload = {payload}")
    lines.append(f"    return H({head.size}, len(payload), {rec.PKTSCHEME_LRECBINARY}, recnum, "
                 f"seq, txid, {int(user_data)}, 0{''.join(', ' + z for z in sizes)})"
                 " + payload")
    code = "def render(recnum, v, seq, txid):\n" + "\n".join(lines) + "\n"
    exec(compile(code, f"<cdc record of {name}>", "exec"), env)
    pure: Render = env["render"]
    return pure, tuple(plan)


def renderer(user_data: int, names: Sequence[str], types: Sequence[IfxType],
             shape: Sequence[tuple[str, str]], encoding: str, name: str = "") -> Render:
    """The renderer to use (``build``'s, compiled when ``ifxwire._cdcaccel`` is in use)."""
    pure, plan = build(user_data, names, types, shape, encoding, name)
    return _cdcaccel.renderer(pure, plan, user_data)
