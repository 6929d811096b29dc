"""DBMONEY: a session's currency symbols and separators, as its client's login sets them.

The Guide to SQL: Reference, "DBMONEY environment variable" (ids_sqr_218), and the GLS User's
Guide (ids_gug_069) give the setting's form ``[front]{.|,}[back]``: ``front`` a currency
symbol before the value, ``back`` one after it (each up to seven characters, quoted when not
letters), and the period or comma the decimal separator, "Whichever symbol you do not specify
becomes the thousands separator". Unset, the default locale's notation is ``$``, ``.``, ``,``
and no back symbol ("100.50 is formatted as $100.50"; "Customize currency display formats",
ids_gug_060, puts DBMONEY before the client locale's own notation).

The server learns DBMONEY as it learns DBDATE: from the environment list of the client's
login (our driver's ``env=``, IBM JDBC's ``DBMONEY=`` URL property). Where the server uses it
(each with its page): TO_CHAR's numeric mask (the GLS "DBMONEY extensions", ids_gug_237),
TO_NUMBER's discarded currency symbol (ids_sqs_1544), and a monetary string converted to a
MONEY value ("Monetary text representation", ids_dapip_0105: the thousands separator and the
currency symbol are optional; ``ifx_gl_convert_money``, ids_gpg_087, scans "as DBMONEY
specifies").
"""

from __future__ import annotations

from typing import NamedTuple


class MoneyFormat(NamedTuple):
    """The four symbols of a DBMONEY setting."""

    front: str
    point: str
    thousands: str
    back: str


DEFAULT_MONEY = MoneyFormat("$", ".", ",", "")


def _unquote(text: str) -> str:
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1]
    return text


def parse_dbmoney(setting: str | None) -> MoneyFormat:
    """A DBMONEY value as its four symbols; unset or empty is the default locale's.

    The decimal separator is the first period or comma outside quotes; a setting without one
    is a front symbol alone with the default period [inference: ids_sqr_218's diagram makes
    the separator optional with ``.`` its default]. A set DBMONEY with no front symbol has
    none: ids_gug_237's table formats ``$$,$$$.$$`` under ``.A1A2`` with a blank where the
    ``$`` stands.
    """
    if not setting or not setting.strip():
        return DEFAULT_MONEY
    quote = ""
    for i, c in enumerate(setting):
        if quote:
            if c == quote:
                quote = ""
        elif c in "'\"":
            quote = c
        elif c in ".,":
            point = c
            return MoneyFormat(_unquote(setting[:i]), point, "," if point == "." else ".",
                               _unquote(setting[i + 1:]))
    return MoneyFormat(_unquote(setting), ".", ",", "")


def read_monetary(text: str, money: MoneyFormat, thousands: bool) -> str:
    """A monetary string as plain numeric text (``-1234.5``) for Decimal to read.

    The currency symbols of ``money`` are discarded where they stand (front after an optional
    sign, back at the end), its decimal separator becomes a period, and with ``thousands``
    its thousands separator is dropped between digits (ids_dapip_0105: in a monetary string
    "the thousands separator and the currency symbol are optional"). Whatever is left is for
    the caller's parser to accept or refuse (-1213).
    """
    s = text.strip()
    sign = s[:1] if s[:1] in "+-" else ""
    body = s[len(sign):].lstrip()
    if money.front and body.startswith(money.front):
        body = body[len(money.front):].lstrip()
    if money.back and body.endswith(money.back):
        body = body[:-len(money.back)].rstrip()
    if thousands and money.thousands in body:
        whole, sep, frac = body.partition(money.point)
        groups = whole.split(money.thousands)
        # only a well-placed separator: one to three digits, then groups of three
        if (groups[0].isdigit() and len(groups[0]) <= 3
                and all(len(g) == 3 and g.isdigit() for g in groups[1:])):
            body = "".join(groups) + sep + frac
    if money.point != "." and money.point in body:
        if "." in body:
            return s  # a period where the comma is the separator: not a number here
        body = body.replace(money.point, ".", 1)
    return sign + body

