"""How IfxPy words an error, rebuilt from an ifxwire exception.

IfxPy (ifxpyc.c, ``_python_IfxPy_check_sql_errors``) takes the first ODBC diagnostic record and
formats it as ``"<message> SQLCODE=<sqlcode>"``; the Informix ODBC driver's message starts with
``[Informix][Informix ODBC Driver][Informix]`` for errors the server sent (IfxPy's test_092
prints that prefix followed by the -951 text). Programs print these strings, compare their
beginnings, and read the SQLSTATE with ``stmt_error()``/``conn_error()`` (test_082 expects
``28000`` for a wrong password), so we give the same shape.

ifxwire words its messages its own way (``ifxwire._sqlcodes``). For the errors IfxPy programs
meet most, :data:`_INFORMIX_TEXT` holds the server's own wording, as IBM's Informix error
message reference (``finderr``) publishes it, so that a comparison written against a real
server still matches; any other code keeps ifxwire's text.
"""

from __future__ import annotations

from ..errors import DatabaseError, Error

__all__ = ["CONNECT_FAILED", "describe"]

_ODBC = "[Informix][Informix ODBC Driver]"
_SERVER = _ODBC + "[Informix]"

#: What Informix reports when it cannot reach a server at all (finderr -908, SQLSTATE 08004):
#: ifxwire raises such errors without an sqlcode, since no server answered.
CONNECT_FAILED = (-908, "08004", "Attempt to connect to database server (%s) failed.")

#: Informix's message texts (IBM Informix Error Messages, finderr), ``%s`` the object named.
_INFORMIX_TEXT: dict[int, str] = {
    -201: "A syntax error has occurred.",
    -202: "An illegal character has been found in the statement.",
    -206: "The specified table (%s) is not in the database.",
    -217: "Column (%s) not found in any table in the query (or SLV is undefined).",
    -236: "Number of columns in INSERT does not match number of VALUES.",
    -239: "Could not insert new row - duplicate value in a UNIQUE INDEX column (Unique Index:%s).",
    -255: "Not in transaction.",
    -256: "Transaction not available.",
    -268: "Unique constraint (%s) violated.",
    -310: "Table (%s) already exists in database.",
    -329: "Database not found or no system permission.",
    -391: "Cannot insert a null into column (%s).",
    -761: "INFORMIXSERVER does not match either DBSERVERNAME or DBSERVERALIASES.",
    -951: "Incorrect password or user %s is not known on the database server.",
    -1213: "A character to numeric conversion process failed",
}


def describe(err: BaseException, *, user: str = "", server: str = "") -> tuple[str, str, int]:
    """``(sqlstate, message, sqlcode)`` of ``err`` as IfxPy would report it.

    ``user`` fills the -951 text (Informix names the user there; ifxwire's login error does not
    carry it), ``server`` the -908 text for a server that could not be reached.
    """
    if isinstance(err, DatabaseError) and err.sqlcode is not None:
        code = err.sqlcode
        text = _INFORMIX_TEXT.get(code)
        if text is None:
            text = err.message
        elif "%s" in text:
            text = text.replace("%s", err.near or (user if code == -951 else ""))
        return err.sqlstate or "HY000", f"{_SERVER}{text} SQLCODE={code}", code
    if isinstance(err, Error) and getattr(err, "sqlstate", None) in ("08001", "08004"):
        code, state, text = CONNECT_FAILED
        return state, f"{_SERVER}{text.replace('%s', server)} SQLCODE={code}", code
    state = getattr(err, "sqlstate", None) or "HY000"
    return state, f"{_ODBC}{err} SQLCODE=0", 0
