"""Compiled row encoders: executemany's driver-side hot path.

For a parameter pattern (the exact Python type of each value) this generates one Python
function that emits a whole SQ_BIND message, or many rows of it, byte for byte what
``bind.encode_bind_value`` per value gives; the C accelerator mirrors it
(``_accel.accelerate_bind``, with the constants of ``bind.fast_bind_constants``). Apart from
bind.py, which holds the per-value codec both sides share, so each file has one job (the
~800-line rule).
"""

from __future__ import annotations

import codecs
from collections.abc import Callable, Iterator, Sequence
from itertools import chain
from struct import Struct
from typing import Any

from .. import _accel
from .bind import (
    _BY_TYPE,
    _FALSE_PARAM,
    _NULL_PARAM,
    _PREC_INTEGER,
    _T,
    _TRUE_PARAM,
    BIND_CHAR_MAX,
    BLOB_BIND_TYPES,
)

__all__ = ["RowsEncoder", "compile_bind_encoder", "compile_rows_encoder"]


def _is_utf8(encoding: str) -> bool:
    try:
        return codecs.lookup(encoding).name == "utf-8"
    except LookupError:
        return False


class _Slow(Exception):
    """A compiled encoder met a value it does not handle; the generic path takes the row."""


_FAST_INT_ARGS = f"{int(_T.INTEGER)}, 0, {_PREC_INTEGER}"


_FAST_FLOAT_ARGS = f"{int(_T.FLOAT)}, 0, 0"


_FAST_CHAR_ARGS = f"{int(_T.CHAR)}, 0, 0"


def compile_bind_encoder(
    pattern: tuple[type, ...], encoding: str, head_code: int
) -> Callable[[Sequence[object]], bytes] | None:
    """A function emitting a whole SQ_BIND message for rows whose value types are ``pattern``.

    The result is byte-for-byte what ``u16 head_code, u16 count`` followed by
    :func:`encode_bind_value` per value gives; consecutive fixed-width fields are packed with
    one precompiled struct. It raises (any exception) when a value needs the generic path
    (out-of-range int, non-finite float, long or unencodable str, a codec failure): the caller
    then encodes the row generically, which produces the same bytes or the proper error.
    Returns None when ``pattern`` holds a type with no exact-type encoder, or a BYTE/TEXT
    value (those need the SQ_BBIND stream the generic path adds).

    When the C accelerator is active, the result is the C encoder mirroring the generated one
    (``_accel.accelerate_bind``; the Python function is its ``pure``). It also raises when a row
    does not have ``len(pattern)`` values of exactly these types.
    """
    source = _encoder_source(pattern, encoding, head_code, group=False)
    if source is None:
        return None
    encode: Callable[[Sequence[object]], bytes] = source
    return _accel.accelerate_bind(encode, pattern, encoding, head_code)


#: encode_rows(params, it, head, tail, end, max_rows, max_bytes) -> (chunk, count, pending, exc)
RowsEncoder = Callable[
    [object, Iterator[object], bytes, bytes, object, int, int],
    tuple[bytes, int, object, "BaseException | None"],
]


def compile_rows_encoder(
    pattern: tuple[type, ...], encoding: str, head_code: int
) -> RowsEncoder | None:
    """executemany's many-rows encoder for parameter sets that are a tuple or list of exactly
    ``pattern``'s types: the pure twin of the C ``BindEncoder.encode_rows`` (its comment in
    _speedups.c says what it returns), generated with the bind encoder's statements inline in
    its loop, so a row costs no call.

    Each row it takes is ``head + compile_bind_encoder(...)(values) + tail``; it stops at a set
    that encoder would refuse or that is not a tuple or list of ``len(pattern)`` values of
    exactly these types. None where compile_bind_encoder gives None.
    """
    rows: RowsEncoder | None = _encoder_source(pattern, encoding, head_code, group=True)
    return rows


def _encoder_source(
    pattern: tuple[type, ...], encoding: str, head_code: int, *, group: bool
) -> Any:
    """The generated Python function behind compile_bind_encoder (``group`` False) and
    compile_group_encoder (True), or None."""
    if any(issubclass(cls, BLOB_BIND_TYPES) for cls in pattern):
        return None
    ns: dict[str, Any] = {"_Slow": _Slow, "ENC": encoding, "_join": b"".join}
    ns["_PAD"] = (b"", b"\x00")  # a text value's pad byte, by its length's parity
    # str.encode() without an argument is UTF-8 (strict) with no encoding name to look up.
    encode_call = ".encode()" if _is_utf8(encoding) else ".encode(ENC)"
    lines: list[str] = []
    parts: list[str] = []  # expressions joined into the message
    fmt = [">HH"]
    args = [str(int(head_code)), str(len(pattern))]

    def flush() -> None:
        if len(fmt) > 1 or args:
            # A struct argument costs more than a piece of the join: the constant fields
            # before the first value are packed once, here, into a bytes piece; after it,
            # constant zeros become pad bytes ("x" packs zeros).
            fields = list(zip("".join(fmt)[1:], ", ".join(args).split(", "), strict=True))
            lead = 0
            while lead < len(fields) and fields[lead][1].lstrip("-").isdigit():
                lead += 1
            if lead:
                name = f"C{len(ns)}"
                ns[name] = Struct(">" + "".join(c for c, _ in fields[:lead])).pack(
                    *(int(v) for _, v in fields[:lead])
                )
                parts.append(name)
            packed, kept = [">"], []
            for code, value in fields[lead:]:
                if value == "0":
                    packed.append(f"{Struct('>' + code).size}x")
                else:
                    packed.append(code)
                    kept.append(value)
            if kept:
                name = f"S{len(ns)}"
                ns[name] = Struct("".join(packed)).pack
                parts.append(f"{name}({', '.join(kept)})")
            elif len(packed) > 1:
                name = f"C{len(ns)}"
                ns[name] = Struct("".join(packed)).pack()
                parts.append(name)
        fmt[:] = [">"]
        args[:] = []

    for i, cls in enumerate(pattern):
        v = f"v{i}"
        if cls is int:
            lines.append(f"    if not -2147483647 <= {v} <= 2147483647: raise _Slow")
            fmt.append("hhhi")
            args.extend((_FAST_INT_ARGS, v))
        elif cls is float:
            lines.append(f"    if {v} - {v} != 0.0: raise _Slow")
            fmt.append("hhhd")
            args.extend((_FAST_FLOAT_ARGS, v))
        elif cls is str:
            lines.append(f"    r{i} = {v}{encode_call}")
            lines.append(f"    n{i} = len(r{i})")
            lines.append(f"    if n{i} > {BIND_CHAR_MAX} or 0 in r{i}: raise _Slow")
            fmt.append("hhhH")
            args.extend((_FAST_CHAR_ARGS, f"n{i}"))
            flush()
            parts.append(f"r{i}, _PAD[n{i} & 1]")
        elif cls is type(None) or cls is bool:
            flush()
            if cls is bool:
                ns["TRUE"], ns["FALSE"] = _TRUE_PARAM, _FALSE_PARAM
                parts.append(f"(TRUE if {v} else FALSE)")
            else:
                ns["NULL"] = _NULL_PARAM
                parts.append("NULL")
        else:
            fn = _BY_TYPE.get(cls)
            if fn is None:
                return None
            flush()
            ns[f"F{i}"] = fn
            parts.append(f"F{i}({v}, ENC)")
    flush()
    names = ", ".join(f"v{i}" for i in range(len(pattern)))
    unpack = [f"    {names}, = values"] if pattern else []
    if not group:
        src = (
            "def encode(values):\n"
            + "".join(line + "\n" for line in unpack + lines)
            + f"    return _join(({', '.join(parts)},))\n"
        )
    else:
        # The exact-type checks the C encoder makes (a bool is not an int here, nor a str
        # subclass a str): anything else stops the run and takes the generic path.
        for i, cls in enumerate(pattern):
            ns[f"T{i}"] = cls
        checks = " or ".join(f"type(v{i}) is not T{i}" for i in range(len(pattern)))
        body = [
            "    if type(values) is not tuple and type(values) is not list: raise _Slow",
            *(unpack or ["    if values: raise _Slow"]),
            *([f"    if {checks}: raise _Slow"] if checks else []),
            *lines,
            f"    g = _join((head, {', '.join(parts)}, tail))",
        ]
        # A for loop over the sets (no next() call per row); the row's checks and encoding
        # inside a try whose Exception stops the run at that set, while a BaseException from
        # the row or the iterable is returned with what was encoded before it.
        ns["_chain"] = chain
        src = "".join(
            line + "\n"
            for line in [
                "def encode(values, it, head, tail, end, max_rows, max_bytes):",
                "    out = []",
                "    count = size = 0",
                "    pending = end",
                "    try:",
                "        for values in _chain((values,), it):",
                "            try:",
                *("            " + line for line in body),
                "            except Exception:",
                "                pending = values",
                "                break",
                "            out.append(g)",
                "            count += 1",
                "            size += len(g)",
                "            if count >= max_rows or size >= max_bytes:",
                "                pending = next(it, end)",
                "                break",
                "    except BaseException as exc:",
                "        return _join(out), count, end, exc",
                "    return _join(out), count, pending, None",
            ]
        )
    kind = "rows" if group else "bind"
    exec(compile(src, f"<{kind} encoder {len(pattern)} values>", "exec"), ns)
    return ns["encode"]
