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
    IntegrityError,
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


def test_no_entry_is_left_unsure() -> None:
    # Every number's meaning was checked against the message catalogue in IBM's JDBC jar
    # (sql_en_US.properties, isam_en_US.properties); -219, -298 and -299 had wrong meanings.
    assert frozenset() == _sqlcodes.UNSURE
    assert frozenset() == _sqlcodes.UNSURE_ISAM


@pytest.mark.parametrize(
    ("code", "words"),
    [
        # [jcat] "Cannot grant permission to public with grant option."
        (-298, "PUBLIC WITH GRANT OPTION"),
        (-299, "yourself"),  # [jcat] "Cannot grant permission to self."
        # [jcat] "Wildcard matching may not be used with non-character types."
        (-219, "character"),
    ],
)
def test_meanings_follow_ibms_catalogue(code: int, words: str) -> None:
    assert words in str(error_from_server(code))


# IBM JDBC's code-to-SQLSTATE map (itoxmsg_en_US.properties in jdbc 4.50.12): every negative
# code it names, with the SQLSTATE class it gives, hence the PEP 249 class. Ours may use the
# ODBC 3 form of the same state (42S02 for S0002) but never another class.
_IBM_SQLSTATE_CLASS = {
    -1279: "22", -1278: "22", -1226: "22", -1222: "22", -1215: "22", -1214: "22", -1202: "22",
    -934: "08", -902: "28", -901: "28", -887: "2B", -886: "42", -879: "22", -841: "42",
    -840: "42", -839: "42", -766: "22", -699: "40", -692: "23", -691: "23", -598: "34",
    -586: "24", -543: "22", -530: "23", -525: "23", -483: "42", -472: "22", -471: "33",
    -467: "22", -404: "07", -400: "24", -391: "23", -385: "44", -371: "23", -306: "22",
    -285: "24", -284: "21", -276: "24", -275: "42", -274: "42", -273: "42", -272: "42",
    -268: "23", -266: "24", -262: "24", -260: "07", -259: "24", -254: "07", -239: "23",
    -236: "21", -206: "42", -201: "42",
}
_ODBC2 = {"S0": "42", "S1": "HY"}


@pytest.mark.parametrize(("code", "state_class"), sorted(_IBM_SQLSTATE_CLASS.items()))
def test_sqlstate_class_is_ibms(code: int, state_class: str) -> None:
    exc = error_from_server(code)
    assert exc.sqlstate is not None
    assert _ODBC2.get(exc.sqlstate[:2], exc.sqlstate[:2]) == state_class, exc
    expected = {"22": DataError, "23": IntegrityError, "08": OperationalError,
                "28": OperationalError, "40": OperationalError}.get(state_class,
                                                                    ProgrammingError)
    if code == -385:  # WITH CHECK OPTION violation: an integrity failure (ERRORS.md)
        expected = IntegrityError
    assert type(exc) is expected, exc
