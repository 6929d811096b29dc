"""TO_CHAR(number, format_string): the numeric-formatting mask of Informix.

The Guide to SQL: Syntax, TO_CHAR Function (ids_sqs_1542), formats a number with the same
mask the ESQL/C library's rfmtdec()/rfmtdouble()/rfmtlong() apply; the DataBlade API
Programmer's Guide, "Format numeric strings" (ids_dapip_0128), defines its characters:

- ``*`` ``&`` ``#`` hold a digit; a position no digit reaches is filled with ``*``, ``0`` or
  a blank. ``<`` holds a digit and leaves nothing where no digit comes (left-justified).
- ``,`` is the thousands separator, printed only with a digit to its left; ``.`` the decimal
  separator (one a mask).
- ``-`` is a minus sign for a value below zero; ``+`` a plus sign at or above zero and a
  minus below; ``(`` and ``)`` enclose a value below zero; ``$`` is the currency symbol.
- Two or more of one of ``- + ( $`` float: "multiple occurrences of the character at the
  left of the pattern in the mask appear as a single character as far to the right as
  possible in the formatted number (without removing significant digits)"; one alone is
  printed where it stands. ``$$$,$$$.##`` of 1234.56 is ``$1,234.56`` (the page's example).
- Any other character is reproduced literally. A number too wide for the mask fills the
  whole mask with ``*`` (the page's table: ``$$,$$$`` of 12345 is ``******``).

Digits to the right of the point are the value rounded to as many places as the mask has
digit positions there [inference: the table prints only values that need no rounding].
The symbols printed are the session's DBMONEY (core/money.py; the default locale's ``$``
``.`` ``,`` when it is unset): the GLS User's Guide, "DBMONEY extensions" (ids_gug_237),
formats ``$$,$$$.$$`` of 1234 as ``DM1.234,00`` under ``DM,``: ``$`` prints the front
symbol (however long), ``.`` the decimal and ``,`` the thousands separator DBMONEY makes,
and ``@`` the back symbol (none in the default locale); that table's ``$`` right of the
point holds a digit (``$$,$$$.$$`` of 1234 is ``$1,234.00``). Written from the pages' rules
and tables, not from any implementation.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Context, Decimal

from ..core.money import DEFAULT_MONEY, MoneyFormat

_DIGIT_FILL = {"#": " ", "&": "0", "*": "*", "<": ""}
_FLOATERS = "$-+("


def format_number(value: Decimal, mask: str, money: MoneyFormat = DEFAULT_MONEY) -> str:
    """``value`` as the numeric-formatting ``mask`` prints it, in ``money``'s symbols
    (module docstring)."""
    negative = value < 0
    point = mask.find(".")
    left = mask if point < 0 else mask[:point]
    right = "" if point < 0 else mask[point + 1:]
    places = sum(1 for c in right if c in _DIGIT_FILL or c == "$")
    # a context wide enough for any DECIMAL(32) with any number of places (the default 28
    # digits made quantize fail on a long mask)
    wide = Context(prec=len(mask) + 160)
    digits = format(abs(value).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP,
                                        context=wide), "f")
    whole, _, frac = digits.partition(".")
    whole = whole.lstrip("0")  # leading zeros are what the fill characters replace
    out = _left(left, whole, negative)
    if out is None:
        return "*" * len(mask)
    if point >= 0:
        out += "." + _right(right, frac, negative)
    # each symbol as DBMONEY has it: the formatted text holds '$' '.' ',' '@' only where the
    # mask put them (a fill is '*', '0' or a blank)
    return "".join(_symbol(c, money) for c in out)


def _symbol(c: str, money: MoneyFormat) -> str:
    if c == "$":
        return money.front or " "  # ids_gug_237: no front symbol leaves a blank
    if c == ".":
        return money.point
    if c == ",":
        return money.thousands
    if c == "@":
        return money.back
    return c


def _sign(c: str, negative: bool) -> str:
    """A sign character printed where it stands (one alone, or right of the point)."""
    if c == "-" or c == "(" or c == ")":
        return ({"-": "-", "(": "(", ")": ")"}[c]) if negative else " "
    return "-" if negative else "+"


def _right(mask: str, frac: str, negative: bool) -> str:
    out: list[str] = []
    k = 0
    for c in mask:
        if c in _DIGIT_FILL or c == "$":
            out.append(frac[k])
            k += 1
        elif c in "-+()":
            out.append(_sign(c, negative))
        else:
            out.append(c)
    return "".join(out)


def _left(mask: str, whole: str, negative: bool) -> str | None:
    """The mask left of the point with the whole digits in it; None on overflow."""
    floating = [c for c in dict.fromkeys(mask) if c in _FLOATERS and mask.count(c) > 1]
    # The floating region: from the first floating character over floating characters and
    # separators ('---,###' puts its minus where the comma is; '--#,###' where the second
    # minus is: ids_dapip_0128's table).
    region: set[int] = set()
    start = next((i for i, c in enumerate(mask) if c in floating), None)
    if start is not None:
        i = start
        while i < len(mask) and (mask[i] in floating or mask[i] == ","):
            region.add(i)
            i += 1
    slots = [i for i, c in enumerate(mask) if c in _DIGIT_FILL or (i in region and c != ",")]
    if len(whole) > len(slots):
        return None
    out: list[str | None] = [None] * len(mask)
    leftmost = len(mask)
    for i, d in zip(reversed(slots), reversed(whole), strict=False):
        out[i] = d
        leftmost = i
    for i in range(leftmost, len(mask)):
        if mask[i] == "," and out[i] is None:
            out[i] = ","  # a digit stands on both sides of it
    # the floating symbols, the last in the mask nearest the digits
    wanted = [c for c in floating if c in "$+" or negative]
    free = [i for i in sorted(region, reverse=True) if i < leftmost]
    if len(wanted) > len(free):
        return None
    for c, i in zip(reversed(wanted), free, strict=False):
        out[i] = "-" if c == "+" and negative else c
    for i, c in enumerate(mask):
        if out[i] is not None:
            continue
        if c in _DIGIT_FILL:
            out[i] = _DIGIT_FILL[c]
        elif i in region:
            out[i] = " "
        elif c == ",":
            before = mask[i - 1] if i else ""
            out[i] = _DIGIT_FILL.get(before, " ") if before in "&*<" else " "
        elif c == "$":
            out[i] = "$"
        elif c in "-+()":
            out[i] = _sign(c, negative)
        else:
            out[i] = c
    return "".join(s for s in out if s is not None)
