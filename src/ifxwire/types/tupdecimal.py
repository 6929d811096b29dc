"""Fixed-scale DECIMAL/MONEY in the pure-Python tuple loop (types/tuploop.py), without a call
per value and without building a string.

decode_row spells the base-100 digits as decimal text and parses it (numeric._spelled). Here the
digit bytes are read as big-endian pairs by the ``unpack_from`` that reads the head byte (and,
when one follows, the struct-readable run after the value), each pair is looked up in a table of
its value (0-9999, None when a byte is not a base-100 digit), and the coefficient is made with
integer arithmetic; the Decimal is then that integer times ``1E-scale`` under a private context
wide enough for any DECIMAL(32), so the product is exact whatever the thread's decimal context
says, and carries exactly ``scale`` fraction digits, as decode_decimal's does.

What depends only on the head byte (how many trailing digits fall beyond the scale, which
decode_decimal cuts) is one divisor per head byte; a head that is not a positive value's
(negative or NULL; zero is a positive head with zero digits) or whose value needs zeros
appended (beyond the column's precision, which no correct sender sends) has None there, and
the value goes to numeric.decimal_decoder instead.
A digit byte above 99 makes a None operand: the row raises inside the loop and is decoded again
by decode_row, which reports it (tests/unit/test_rowcodec.py compares both for every head byte).

Measured on the bench's type mix (INT, VARCHAR, DECIMAL(12,2), DATE, FLOAT, SMALLINT; callgrind,
instructions per row of the loop): 14 927 with the spelled string, 12 506 with a head-byte table
and the digits read by the run's unpack, 11 498 with this and rowcodec's VARCHARs sliced from a
kept start (``Context.multiply`` of an int costs less than parsing the string alone). The pair
table costs ~0.8 MB, made once per process when the first such column is decoded in pure
Python.
"""

from __future__ import annotations

import decimal
import struct
from decimal import Decimal
from typing import Any

__all__ = ["inline_decimal"]

#: Exact for every DECIMAL(p <= 32): the products never round, so no flag or trap can fire.
CONTEXT = decimal.Context(prec=80, Emax=decimal.MAX_EMAX, Emin=decimal.MIN_EMIN)

_pairs: list[int | None] | None = None


def pair_table() -> list[int | None]:
    """Big-endian byte pair -> its base-100 value 0-9999, or None (a byte above 99)."""
    global _pairs
    if _pairs is None:
        table: list[int | None] = [None] * 65536
        for hi in range(100):
            for lo in range(100):
                table[hi << 8 | lo] = hi * 100 + lo
        _pairs = table
    return _pairs


#: Byte -> its base-100 value, or None: the odd digit of a value with an odd digit count.
DIGIT = [d if d < 100 else None for d in range(256)]


def divisor_table(width: int, scale: int) -> list[int | None]:
    """Per head byte: 10 ** (digits beyond the scale) for a positive value, else None.

    decode_decimal's rule for a fixed scale (numeric._spelled): the ``2 * (width - 1)`` decimal
    digits times 10 ** e10 with e10 = 2 * (exponent - digit bytes); k = e10 + scale digits are
    appended (k > 0) or cut (k < 0)."""
    ndigits = width - 1
    table: list[int | None] = [None] * 256
    for head in range(128, 256):
        k = 2 * ((head & 0x7F) - 64 - ndigits) + scale
        if k <= 0:
            table[head] = 10**-k
    return table


def inline_decimal(
    ind: str, var: str, fn: str, pos: str, width: int, scale: int, run: tuple[str, str] | None,
    ns: dict[str, Any],
) -> list[str]:
    """The statements decoding DECIMAL ``var`` at ``pos`` (``fn`` its decoder for the values
    not read here). ``run``: (targets, struct format without byte order) of the struct run
    read together with it, or None."""
    ndigits = width - 1
    names = [f"_x{i}" for i in range(ndigits // 2)]
    fmt = "H" * len(names)
    if ndigits & 1:
        names.append("_xb")
        fmt += "B"
    targets = ", ".join(["_h", *names])
    if run is not None:
        targets += ", " + run[0]
        fmt += run[1]
    unpack = f"_M{len(ns)}"
    ns[unpack] = struct.Struct(">B" + fmt)
    divisors = f"_DV{width}_{scale}"
    ns.setdefault(divisors, divisor_table(width, scale))
    quantum = f"_Q{scale}"
    ns.setdefault(quantum, Decimal(f"1E-{scale}"))
    ns.setdefault("_T", pair_table())
    ns.setdefault("_TB", DIGIT)
    ns.setdefault("_mul", CONTEXT.multiply)
    expr = ""
    for name in names:
        if name == "_xb":
            expr = f"({expr}) * 100 + _TB[_xb]" if expr else "_TB[_xb]"
        else:
            expr = f"({expr}) * 10000 + _T[{name}]" if expr else f"_T[{name}]"
    return [
        f"{ind}{targets}, = {unpack}.unpack_from(buf, {pos})",
        f"{ind}_d = {divisors}[_h]",
        f"{ind}if _d is None:",
        f"{ind}    {var} = {fn}(buf, {pos})",
        f"{ind}else:",
        f"{ind}    {var} = _mul(({expr}) // _d, {quantum})",
    ]
