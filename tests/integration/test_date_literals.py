"""DATE literals as Informix reads them whatever DBDATE's separator.

Evidence (docs/SERVER.md, Behaviour, "DATE strings"): IBM's InfoSphere DataStage notes for
Informix loads say "Independent of the DBDATE setting, Informix correctly interprets: Date
separator as - or /", and IfxPy's test_113, run on IDS with the default DBDATE (MDY4/),
inserts '03-27-1982' and reads back 1982-03-27 (the server refused it with -1205 before).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import pytest

import ifxwire

pytestmark = pytest.mark.both_drivers  # (conftest.py: sync and asyncio)


@pytest.fixture(params=["MDY4/", "DMY4.", "Y4MD-"])
def conn(request: pytest.FixtureRequest, connect_kwargs: dict[str, Any],
         dbname: str, driver: Any) -> Iterator[ifxwire.Connection]:
    c = driver.connect(**connect_kwargs, database=dbname, autocommit=True,
                       env={"DBDATE": request.param})
    c.execute("DROP TABLE IF EXISTS dl")
    c.execute("CREATE TABLE dl (id INTEGER, d DATE)")
    yield c
    c.close()


CASES = {
    # DBDATE: literals that mean 1982-03-27 under it, each separator
    "MDY4/": ["03/27/1982", "03-27-1982", "3-27-1982"],
    "DMY4.": ["27.03.1982", "27-03-1982", "27/03/1982"],
    "Y4MD-": ["1982-03-27", "1982/03/27"],
}


def test_either_separator_under_every_dbdate(conn: ifxwire.Connection,
                                             request: pytest.FixtureRequest) -> None:
    dbdate = request.node.callspec.params["conn"]
    for n, literal in enumerate(CASES[dbdate]):
        conn.execute(f"INSERT INTO dl VALUES ({n}, '{literal}')")
    rows = conn.execute("SELECT id, d FROM dl ORDER BY id").fetchall()
    assert rows == [(n, dt.date(1982, 3, 27)) for n in range(len(CASES[dbdate]))]


def test_wrong_fields_are_still_refused(conn: ifxwire.Connection,
                                        request: pytest.FixtureRequest) -> None:
    dbdate = request.node.callspec.params["conn"]
    bad = {"MDY4/": "27-03-1982", "DMY4.": "03-27-1982", "Y4MD-": "1982-27-03"}[dbdate]
    with pytest.raises(ifxwire.DataError) as err:
        conn.execute(f"INSERT INTO dl VALUES (9, '{bad}')")
    assert err.value.sqlcode == -1205  # "Invalid month in date."
    assert conn.execute("SELECT COUNT(*) FROM dl").fetchone() == (0,)
