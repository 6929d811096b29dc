"""informix-driver reads the result types the sixteenth function round gives (issue 23):
an NVARCHAR from ``||`` with an NCHAR (ids_sqs_2001), an LVARCHAR from TRIM of an LVARCHAR
and an NVARCHAR from TRIM of an NCHAR (ids_sqs_1556), a CHAR(n) from REVERSE and REPLACE of
a CHAR(n) (ids_sqs_0573, ids_sqs_1562). A client written against real Informix decodes
each value whole, so the description and the row data agree."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from informix_driver_support import Target, connect, create_logged_database, run, start_target

pytestmark = pytest.mark.interop

# SQLTYPE numbers, as informix-driver reports them in description[1]; an LVARCHAR is described
# as the UDTVAR 'lvarchar' (40), as an LVARCHAR column is (informix_driver_support.py).
CHAR, NVARCHAR, LVARCHAR = 0, 16, 40


@pytest.fixture(scope="module")
def target() -> Iterator[Target]:
    with start_target() as t:
        yield t


@pytest.fixture(scope="module")
def fn_db(target: Target) -> str:
    def setup(c: Any) -> None:
        run(c, "CREATE TABLE fn (c CHAR(8), n NCHAR(8), lv LVARCHAR(40))")
        run(c, "INSERT INTO fn VALUES ('Ludwig', 'Pauli', '  memo  ')")

    return create_logged_database(target, "ifxfn", setup)


def test_function_result_types_as_informix_driver_reads_them(target: Target,
                                                             fn_db: str) -> None:
    c: Any = connect(target, fn_db, autocommit=True)
    try:
        cur = c.cursor()
        cur.execute("SELECT n || 'x', TRIM(lv), TRIM(n), REVERSE(c), REPLACE(c, 'w', 'W') "
                    "FROM fn")
        row = cur.fetchone()
        described = [d[1] for d in cur.description]
    finally:
        c.close()
    assert described == [NVARCHAR, LVARCHAR, NVARCHAR, CHAR, CHAR]
    assert [str(v).rstrip() if i in (3, 4) else v for i, v in enumerate(row)] == [
        "Pauli   x", "memo", "Pauli", "  giwduL", "LudWig"]
