"""SQL of IBM's published material, sixth round (issue 23): what the Guide to SQL: Syntax and
the Tutorial say of SUBSTR past the end of its source, and of statements not yet covered by the
earlier rounds, checked on our stores_demo corpus through the real driver and the embedded
server over sockets.

Each case names its page: HCL Informix 14.10 Guide to SQL: Syntax (``ids_sqs_NNNN``, at
https://help.hcl-software.com/hclinformix/1410/sqs/) or the Tutorial (``ids_sqt_NNN``, at
https://help.hcl-software.com/hclinformix/1410/sqt/). The statements are ours, modelled on the
pages; every change is rolled back or made in a table the case creates.
"""

from __future__ import annotations

from typing import Any

import pytest

import ifxwire

ONE = " FROM systables WHERE tabid = 1"


def _rows(cur: ifxwire.Cursor, sql: str, params: Any = None) -> list[tuple[Any, ...]]:
    cur.execute(sql, params)
    return [tuple(r) for r in cur.fetchall()]


def _code(cur: ifxwire.Cursor, sql: str) -> int:
    with pytest.raises(ifxwire.Error) as info:
        cur.execute(sql)
        cur.fetchall()
    return int(info.value.sqlcode)  # type: ignore[attr-defined]


# ---- SUBSTR (ids_sqs_1561) --------------------------------------------------------------------
SUBSTRS: list[tuple[str, tuple[Any, ...], str]] = [
    # "if length is greater than the number of characters from start_position to the end of
    # source_string, SUBSTR returns NULL", unlike SUBSTRING, which returns the characters up
    # to the end; the page contrasts the two.
    ("SUBSTR('ABCDEFG', 5, 4), SUBSTRING('ABCDEFG' FROM 5 FOR 4)", (None, "EFG"),
     "ids_sqs_1561: length past the end: SUBSTR NULL, SUBSTRING to the end"),
    ("SUBSTR('ABCDEFG', 5, 3), SUBSTR('ABCDEFG', -3, 3), SUBSTR('ABCDEFG', -3, 4)",
     ("EFG", "EFG", None), "ids_sqs_1561: exactly to the end is not past it"),
    ("SUBSTR('ABCDEFG', 5), SUBSTR('ABCDEFG', 0, 7), SUBSTR('ABCDEFG', 0, 8)",
     ("EFG", "ABCDEFG", None), "ids_sqs_1561: no length: to the end; 0 counts as 1"),
    ("SUBSTR('ABCDEFG', -8, 2), SUBSTR('ABCDEFG', 8, 1)", (None, None),
     "ids_sqs_1561: a negative start before the first character: NULL; a start past the "
     "end leaves no characters for the length"),
    ("'ABCDEFG'[5,9]", ("EFG",), "the column-substring operator is not SUBSTR"),
]


@pytest.mark.parametrize(("select", "expected", "page"), SUBSTRS,
                         ids=[f"substr{i}" for i in range(len(SUBSTRS))])
def test_substr_past_the_end(stores: ifxwire.Connection, select: str,
                             expected: tuple[Any, ...], page: str) -> None:
    cur = stores.cursor()
    assert _rows(cur, f"SELECT {select}{ONE}") == [expected], page


def test_substr_of_a_char_column_counts_its_padding(stores: ifxwire.Connection) -> None:
    """ids_sqt_140 (Tutorial, "The SUBSTR function"): SUBSTR counts back "from the end of the
    character string, which depends on the length of the string", and prints ``Calif`` for
    ``SUBSTR(sname, -15, 5)`` of CHAR(15) 'California'; a length that reaches the CHAR(15)
    padding is inside the string, one more is past it (ids_sqs_1561)."""
    cur = stores.cursor()
    (sname, calif), = _rows(cur, "SELECT sname, SUBSTR(sname, -15, 5) FROM state "
                                 "WHERE code = 'CA'")
    assert (sname.rstrip(), calif.rstrip()) == ("California", "Calif")
    (blanks, past), = _rows(cur, "SELECT SUBSTR(sname, 11, 5), SUBSTR(sname, 11, 6) FROM state "
                                 "WHERE code = 'CA'")
    assert (blanks is not None and blanks.strip(), past) == ("", None)
