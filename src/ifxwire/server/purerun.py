"""``_bindbatch.insert_run`` without the accelerator: one generated Python function per plan
(issue 25, the pure server's bulk insert; ingest14).

Without the accelerator the batched INSERT used to decode each group with the generated run
decoder (bindrun.pure_run_decoder), which made every DECIMAL bind a Decimal, then the plan's
binder called each storer, which for a DECIMAL column quantized that Decimal and formatted
it: about half the pure server's CPU per row of issue 25's mixed shape (ingest13's cProfile).
:func:`insert_run` takes the compiled call's place in ``OneStepGroups._bound_inserts`` and does
what it does, in Python: one function per plan (``bindbatch.plan``'s steps), generated like
pure_run_decoder (only offsets, widths and NULL values go into the source), decodes each item
and calls its storer; a DECIMAL item bound into a fixed-scale DECIMAL/MONEY column (check 5)
is made into the column's text straight from its base-100 bytes by :func:`decimal_text`, the
twin of the C ``decimal_text``, when no rounding is needed (any other value: decoded and
stored by its storer, as before). The result and where the run stops are
``bindbatch.pure_insert_run``'s, the reference, value for value (tests/unit/test_bindbatch.py
runs every case against all three).
"""

from __future__ import annotations

import struct
from collections.abc import Callable

from ..types import numeric as _num
from .bindbatch import _CALL, _DECIMAL, _FINITE, _INT, _STR, Step
from .bindrun import _K_CALL_FIXED, _K_CALL_U16, _K_FIXED, _K_FLOAT, _K_TEXT

#: :func:`decimal_text`'s answer for a value it leaves to the storer (rounding, too large,
#: malformed).
MISS = object()
_BCD = _num.BCD_DIGITS
_INTS = {2: struct.Struct(">h").unpack_from, 4: struct.Struct(">i").unpack_from,
         8: struct.Struct(">q").unpack_from}
RUNS_MAX = 64  # generated functions kept (one per plan; plans are bounded the same way)


def decimal_text(buf: bytearray, start: int, n: int, prec: int, scale: int) -> object:
    """The text a DECIMAL(prec, scale) column stores for the DECIMAL bind bytes
    ``buf[start:start + n]`` (the storer's ``dec_text(fit_decimal(...))``), None for NULL, or
    :data:`MISS` when the value needs rounding to the scale, does not fit (the storer raises
    -1226) or is not well formed: then the storer makes it (C twin: ``_bindbatch.c``
    decimal_text)."""
    if n < 1 or n > 40 or not (1 <= prec <= 32 and 0 <= scale <= prec) or start + n > len(buf):
        return MISS
    head = buf[start]
    if head == 0 and (n == 1 or buf[start + 1] == 0):
        return None
    raw = bytes(buf[start + 1 : start + n])
    t = raw.translate(_BCD)
    if 0xFF in t:
        return MISS  # (a digit above 99: decode_decimal's error, by the storer's path)
    sign = ""
    if head & 0x80:
        exp = (head & 0x7F) - 64
    else:  # negative: the 100-complement of the digits, the exponent's bits inverted
        exp = ((head ^ 0x7F) & 0x7F) - 64
        if raw.strip(b"\0"):
            sign = "-"
            t = _num._complement(raw).translate(_BCD)
    digits = t.hex()  # the value is int(digits) * 10**e10
    e10 = 2 * (exp - (n - 1))
    s = digits.strip("0")
    if not s:
        return "0." + "0" * scale if scale else "0"
    e10 += len(digits) - len(digits.rstrip("0"))
    if -e10 > scale or len(s) + e10 > prec - scale:
        return MISS  # (rounding, or more integer digits than the column has)
    if e10 >= 0:
        whole, frac = s + "0" * e10, ""
    elif len(s) > -e10:
        whole, frac = s[:e10], s[e10:]
    else:
        whole, frac = "0", s.rjust(-e10, "0")
    return f"{sign}{whole}.{frac.ljust(scale, '0')}" if scale else sign + whole


def _null(buf: bytearray, p: int, end: int, header: bytes) -> bool:
    """Whether the item at ``p`` is a NULL of the step's type or of CHAR (our driver's None:
    indicator -1 or -2, no value bytes), as bindbatch._decode takes it."""
    return (p + 6 <= end and (buf.startswith(header[:2], p, end) or buf.startswith(b"\0\0", p))
            and buf[p + 2] == 0xFF and buf[p + 3] in (0xFF, 0xFE))


def _convert(i: int, check: int, lo: int, hi: int, stop: str) -> str:
    """The source storing ``v{i}``: its storer called only where its declared first test
    (convert.BIND_CHECK, bindbatch._kept) would not return the value unchanged."""
    call = f"try:\n    v{i} = c{i}(v{i})\nexcept Exception:\n    {stop}"
    if check == _CALL:
        return call
    if check == _INT:
        kept = f"type(v{i}) is int and {int(lo)} <= v{i} <= {int(hi)}"
    elif check == _FINITE:
        kept = f"type(v{i}) is float and v{i} - v{i} == 0.0"
    elif check == _STR:
        kept = f"type(v{i}) is str and (len(v{i}) <= {int(lo)}" + (
            f" or len(v{i}.encode('utf-8', 'surrogatepass')) <= {int(hi)})" if hi >= 0 else ")")
    else:  # (_NONE, _DECIMAL: only None is kept)
        kept = "False"
    indented = "\n".join("    " + x for x in call.split("\n"))
    return f"if v{i} is not None and not ({kept}):\n{indented}"


def _step_lines(i: int, step: Step, ns: dict[str, object]) -> list[str]:
    """The source taking item ``i`` at ``p`` into ``v{i}`` (stored) and moving ``p`` past it;
    ``return rows, pos, last`` where the group cannot be taken."""
    header, kind, width, null, fn, check, lo, hi, conv = step
    ns[f"h{i}"], ns[f"c{i}"], ns[f"f{i}"] = header, conv, fn
    stop = "return rows, pos, last"
    lines = [
        f"if not sw(h{i}, p, end):",
        f"    if not isnull(buf, p, end, h{i}):\n        {stop}",
        f"    p += 6\n    v{i} = None",
    ]
    if check == _CALL:  # (the one storer that is given None)
        lines += ["    " + x for x in _convert(i, check, lo, hi, stop).split("\n")]
    lines.append("else:")
    body: list[str]
    if kind == _K_TEXT:
        body = [f"if p + 8 > end:\n    {stop}", "n = (buf[p + 6] << 8) | buf[p + 7]",
                "q = p + 8 + n", f"if q > end:\n    {stop}",
                f"try:\n    v{i} = str(buf[p + 8 : q], enc)\nexcept Exception:\n    {stop}",
                _convert(i, check, lo, hi, stop), "p = q + (n & 1)"]
    elif kind == _K_FLOAT:
        body = [f"if p + 14 > end:\n    {stop}", f"v{i} = f64(buf, p + 6)[0]",
                f"if v{i} != v{i}:\n    v{i} = dfloat(buf, p + 6)",
                _convert(i, check, lo, hi, stop), "p += 14"]
    elif kind == _K_FIXED:
        ns[f"s{i}"] = _INTS[width]
        body = [f"if p + {6 + width} > end:\n    {stop}", f"v{i} = s{i}(buf, p + 6)[0]",
                f"if v{i} == {null}:\n    v{i} = None",
                _convert(i, check, lo, hi, stop), f"p += {6 + width}"]
    elif kind == _K_CALL_FIXED:
        body = [f"if p + {6 + width} > end:\n    {stop}",
                f"try:\n    v{i} = f{i}(buf, p + 6)\nexcept Exception:\n    {stop}",
                _convert(i, check, lo, hi, stop), f"p += {6 + width}"]
    elif kind == _K_CALL_U16:
        body = [f"if p + 8 > end:\n    {stop}", "n = (buf[p + 6] << 8) | buf[p + 7]",
                "q = p + 8 + n", f"if q > end:\n    {stop}"]
        made = (f"try:\n    v{i} = f{i}(buf, p + 8, n)\nexcept Exception:\n    {stop}\n"
                + _convert(i, check, lo, hi, stop))
        if check == _DECIMAL:
            body += [f"v{i} = dtext(buf, p + 8, n, {int(lo)}, {int(hi)})",
                     f"if v{i} is MISS:\n" + "\n".join("    " + x for x in made.split("\n"))]
        else:
            body.append(made)
        body.append("p = q + (n & 1)")
    else:
        raise ValueError(f"a step of unknown kind {kind}")
    return lines + ["    " + x for b in body for x in b.split("\n")]


def generate(steps: tuple[Step, ...], encoding: str) -> Callable[..., object]:
    """The run function of ``steps``: ``(buf, pos, end, head, tail, max_rows) -> (rows, pos,
    last)`` as bindbatch.pure_insert_run for these steps and ``encoding``."""
    ns: dict[str, object] = {"enc": encoding, "isnull": _null, "f64": _num.F64.unpack_from,
                             "dfloat": _num.decode_float, "dtext": decimal_text, "MISS": MISS}
    lines = [
        "def run(buf, pos, end, head, tail, max_rows):",
        "    rows = []",
        "    last = pos",
        "    end = min(end, len(buf))",
        "    sw = buf.startswith",
        "    lh, lt = len(head), len(tail)",
        "    while len(rows) < max_rows and pos >= 0 and sw(head, pos, end):",
        "        p = pos + lh",
    ]
    for i, step in enumerate(steps):
        lines += ["        " + x for y in _step_lines(i, step, ns) for x in y.split("\n")]
    values = "".join(f"v{i}, " for i in range(len(steps)))
    lines += [
        "        if not sw(tail, p, end):\n            break",
        f"        rows.append(({values}))",
        "        last, pos = pos, p + lt",
        "    return rows, pos, last",
    ]
    exec("\n".join(lines), ns)
    return ns["run"]  # type: ignore[return-value]


_RUNS: dict[tuple[tuple[Step, ...], str], Callable[..., object]] = {}


def insert_run(buf: bytearray, pos: int, end: int, head: bytes, tail: bytes,
               steps: tuple[Step, ...], encoding: str, max_rows: int,
               ) -> tuple[list[tuple[object, ...]], int, int]:
    """``_bindbatch.insert_run`` in Python (module doc): the generated function of these
    steps, made once per plan and encoding (bounded like the plans)."""
    key = (steps, encoding)
    run = _RUNS.get(key)
    if run is None:
        if len(_RUNS) >= RUNS_MAX:
            _RUNS.clear()
        run = _RUNS[key] = generate(steps, encoding)
    return run(buf, pos, end, head, tail, max_rows)  # type: ignore[return-value]

