"""The driver's error table knows every code our server raises and the codes real servers were
seen to send (issue 23: -762 arrived as a bare DatabaseError "no description").

Sources: src/ifxwire/server/engine/core/sqlcodes.py (each code there carries its evidence), and the
codes informix-driver's CHANGELOG and tests record from real 12.10/14.10/15 servers (-285,
-267, -208, -259, -282, -255, -260, -535, -1213, -415).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import ifxwire.server.engine.core.sqlcodes as server_codes
from ifxwire import _sqlcodes
from ifxwire.errors import (
    DatabaseError,
    DataError,
    OperationalError,
    ProgrammingError,
    error_from_server,
)

_ENTRY = re.compile(r"^([A-Z_0-9]+) = (-\d+)\b", re.M)


def _server_sqlcodes() -> dict[int, str]:
    text = Path(server_codes.__file__).read_text(encoding="utf-8")
    return {int(code): name for name, code in _ENTRY.findall(text)}


def test_every_code_the_server_raises_has_a_driver_entry() -> None:
    missing = {
        code: name
        for code, name in _server_sqlcodes().items()
        if code not in _sqlcodes.SQLCODES and code not in _sqlcodes.ISAMCODES
    }
    assert missing == {}


REAL_SERVER_CODES = [-285, -267, -208, -259, -282, -255, -260, -535, -1213, -415, -762, -761,
                     -951, -206, -201, -217, -268, -391, -236, -310]


@pytest.mark.parametrize("code", REAL_SERVER_CODES)
def test_codes_real_servers_send_have_a_text(code: int) -> None:
    exc = error_from_server(code)
    assert "no description" not in str(exc)
    assert type(exc) is not DatabaseError, exc


@pytest.mark.parametrize(
    ("code", "cls", "sqlstate"),
    [
        (-762, OperationalError, "54001"),
        (-415, DataError, "22018"),
        (-958, ProgrammingError, "42S01"),
        (-8313, DataError, "2200H"),
        (-25571, OperationalError, "08004"),
    ],
)
def test_added_codes_class_and_sqlstate(code: int, cls: type, sqlstate: str) -> None:
    exc = error_from_server(code)
    assert type(exc) is cls
    assert exc.sqlstate == sqlstate
