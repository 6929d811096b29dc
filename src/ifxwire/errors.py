"""PEP 249 exceptions, and the translation of Informix server errors into them.

Why this module looks the way it does:

* The server sends numbers, not text. ``SQ_ERR`` carries the sqlcode, the ISAM code, an offset
  into the statement and one short parameter (the "near" token: a table name, a column name...).
  The exception therefore keeps every number as an attribute. Programs test ``sqlcode``,
  ``isamcode`` or ``sqlstate``, never the wording. The message is built on our side from
  ``ifxwire._sqlcodes``.
* The DB-API class is chosen from a table, with documented fallbacks. The fallbacks are:
  sqlcode ranges for unknown codes, and the ISAM code for the generic "could not read/write"
  errors, whose real cause (a lock, a duplicate, a full disk) only the ISAM code tells.
* SQLSTATE: the server's SQ_ERR has none, so we derive one. Tools written for ODBC/X-Open
  (SQLAlchemy, pools, retry loops) can then recognise connection loss (``08``), lock conflicts
  (``40001``) and integrity errors (``23``) without knowing Informix numbers.
* Importing this module stays cheap: it imports nothing from the standard library. The code
  table is loaded the first time an error is built, not when the driver is imported.

The rules are described for users in ``docs/ERRORS.md``.
"""

from __future__ import annotations

__all__ = [
    "DataError",
    "DatabaseError",
    "Error",
    "ExceptionAttributes",
    "IntegrityError",
    "InterfaceError",
    "InternalError",
    "NotSupportedError",
    "OperationalError",
    "ProgrammingError",
    "Warning",
    "closed_error",
    "connection_lost",
    "error_from_server",
    "isam_text",
    "no_result_set",
    "not_supported",
    "protocol_error",
    "register_error_text",
    "wrong_parameter_count",
]


# --------------------------------------------------------------------------------------------
# The PEP 249 tree
# --------------------------------------------------------------------------------------------


class Warning(Exception):  # PEP 249 requires this name, shadowing the builtin
    """Important warnings, such as data truncation (PEP 249).

    Informix reports warnings as SQLSTATE class ``01`` (and in the sqlca warning flags).
    The optional ``sqlcode`` and ``sqlstate`` are here so that a warning from the server
    keeps the same information as an error.
    """

    sqlcode: int | None
    sqlstate: str | None

    def __init__(
        self, message: str = "", *, sqlcode: int | None = None, sqlstate: str | None = None
    ) -> None:
        super().__init__(message)
        self.sqlcode = sqlcode
        self.sqlstate = sqlstate


class Error(Exception):
    """Base class of every error this driver raises (PEP 249).

    Catching ``Error`` catches all of them, but not ``Warning``.
    """


class InterfaceError(Error):
    """A problem of the driver or of how it is used, not of the database.

    Examples: using a closed connection or cursor. These errors have no sqlcode because the
    server never saw the request.
    """


class DatabaseError(Error):
    """An error related to the database. Server errors are always this class or a subclass.

    Attributes (all keyword-only in the constructor, all preserved by pickling):

    ``sqlcode``
        The Informix sqlcode (negative), or ``None`` for errors detected in the driver.
    ``isamcode``
        The secondary ISAM code (negative), ``0`` when the server sent none.
    ``sqlstate``
        A five-character SQLSTATE (derived by the driver, see ``docs/ERRORS.md``), or ``None``.
    ``offset``
        The position in the statement the server reported (useful for syntax errors), or
        ``None``.
    ``near``
        The parameter the server sent with the error (an object name, a token), or ``None``.

    ``message`` is the bare text. ``str()`` adds the numbers in one log-friendly line.
    """

    sqlcode: int | None
    isamcode: int
    sqlstate: str | None
    offset: int | None
    near: str | None
    # True when ``near`` already appears in the message text (it filled a ``%s`` slot), so that
    # str() does not repeat it. Kept as a private instance flag so pickling preserves it.
    _near_in_message: bool = False

    def __init__(
        self,
        message: str = "",
        *,
        sqlcode: int | None = None,
        isamcode: int = 0,
        sqlstate: str | None = None,
        offset: int | None = None,
        near: str | None = None,
    ) -> None:
        super().__init__(message)
        self.sqlcode = sqlcode
        self.isamcode = isamcode
        self.sqlstate = sqlstate
        self.offset = offset
        self.near = near

    @property
    def message(self) -> str:
        """The message text alone, without numbers (``args[0]``)."""
        return str(self.args[0]) if self.args else ""

    def __str__(self) -> str:
        """One line with everything a log reader needs.

        Format: ``[sqlcode] message (near 'tok', offset N) [ISAM n: text] (SQLSTATE xxxxx)``.
        Each bracketed part appears only when it has a value.
        """
        parts: list[str] = []
        if self.sqlcode is not None:
            parts.append(f"[{self.sqlcode}]")
        if self.message:
            parts.append(self.message)
        details: list[str] = []
        if self.near and not self._near_in_message:
            details.append(f"near {self.near!r}")
        if self.offset:
            details.append(f"offset {self.offset}")
        if details:
            parts.append(f"({', '.join(details)})")
        if self.isamcode:
            text = isam_text(self.isamcode)
            parts.append(f"[ISAM {self.isamcode}: {text}]" if text else f"[ISAM {self.isamcode}]")
        if self.sqlstate:
            parts.append(f"(SQLSTATE {self.sqlstate})")
        return " ".join(parts)

    def __repr__(self) -> str:
        """A constructor-shaped repr listing only the attributes that are set."""
        fields = [repr(self.message)]
        if self.sqlcode is not None:
            fields.append(f"sqlcode={self.sqlcode}")
        if self.isamcode:
            fields.append(f"isamcode={self.isamcode}")
        if self.sqlstate is not None:
            fields.append(f"sqlstate={self.sqlstate!r}")
        if self.offset is not None:
            fields.append(f"offset={self.offset}")
        if self.near is not None:
            fields.append(f"near={self.near!r}")
        return f"{type(self).__name__}({', '.join(fields)})"


class DataError(DatabaseError):
    """The data is wrong: conversion failure, numeric overflow, value out of range, a string
    too long for its column, division by zero."""


class OperationalError(DatabaseError):
    """The environment failed, not the statement: connection or login problems, locks and
    deadlocks, transaction state, resources (memory, disk, locks), cancellation.

    Retrying later, or on a new connection, may succeed.
    """


class IntegrityError(DatabaseError):
    """A constraint was violated: unique/primary key, NOT NULL, foreign key, check."""


class InternalError(DatabaseError):
    """The server (or the driver) is in an inconsistent state: invalid statement or cursor
    id, corrupted catalogue, internal assertion."""


class ProgrammingError(DatabaseError):
    """The statement is wrong: syntax, unknown table or column, missing privilege, wrong
    number of parameters, misuse of a cursor."""


class NotSupportedError(DatabaseError):
    """The server or the database cannot do what was asked (for example transactions in a
    database without logging, or a feature this server version lacks)."""


class ExceptionAttributes:
    """PEP 249's optional extension, the exception classes as attributes of a connection:
    inherited by both drivers' connection classes."""

    Warning = Warning
    Error = Error
    InterfaceError = InterfaceError
    DatabaseError = DatabaseError
    DataError = DataError
    OperationalError = OperationalError
    IntegrityError = IntegrityError
    InternalError = InternalError
    ProgrammingError = ProgrammingError
    NotSupportedError = NotSupportedError


# --------------------------------------------------------------------------------------------
# Choosing class and SQLSTATE
# --------------------------------------------------------------------------------------------

#: Kind letters used by ``_sqlcodes`` -> exception class.
_KIND_CLASSES: dict[str, type[DatabaseError]] = {
    "I": IntegrityError,
    "P": ProgrammingError,
    "O": OperationalError,
    "D": DataError,
    "N": NotSupportedError,
    "X": InternalError,
    "E": DatabaseError,
}

#: SQLSTATE used when neither the server nor the table gives one. The first class found in
#: the MRO wins, so user subclasses inherit the rule of their parent.
_CLASS_SQLSTATES: dict[type, str] = {
    IntegrityError: "23000",
    ProgrammingError: "42000",
    DataError: "22000",
    NotSupportedError: "0A000",
    OperationalError: "HY000",
    InternalError: "HY000",
    DatabaseError: "HY000",
}

#: Unknown sqlcodes still get a sensible class from the block they belong to.
_RANGE_CLASSES: tuple[tuple[int, int, type[DatabaseError]], ...] = (
    (-99, -1, OperationalError),  # host OS errno values: files, permissions, space
    (-1299, -1200, DataError),  # the conversion library: numbers, dates, DATETIME
    (-23199, -23100, OperationalError),  # GLS: locales and code-set conversion
    (-25599, -25500, OperationalError),  # networking and sqlhosts
)

#: ISAM codes that explain a generic DatabaseError ("could not read the row" and friends).
_ISAM_LOCK = frozenset({-107, -113, -143, -144, -154})
_ISAM_RESOURCE = frozenset({-12, -24, -28, -104, -116, -129, -131, -134, -136})
_ISAM_DUPLICATE = -100

# Codes and texts added with register_error_text(); consulted before the built-in table.
_USER_TEXTS: dict[int, tuple[type[DatabaseError] | None, str | None, str]] = {}


def _default_sqlstate(cls: type[DatabaseError]) -> str:
    for klass in cls.__mro__:
        state = _CLASS_SQLSTATES.get(klass)
        if state is not None:
            return state
    return "HY000"


def _refine_by_isam(isamcode: int) -> tuple[type[DatabaseError], str] | None:
    """Class and SQLSTATE implied by the ISAM code of a generic error, if it implies one."""
    if isamcode in _ISAM_LOCK:
        return OperationalError, "40001"
    if isamcode == _ISAM_DUPLICATE:
        return IntegrityError, "23000"
    if isamcode in _ISAM_RESOURCE:
        return OperationalError, "HY000"
    return None


def _lookup(sqlcode: int) -> tuple[type[DatabaseError] | None, str | None, str | None]:
    """(class, sqlstate, template) from the user's entries, then the built-in table."""
    from . import _sqlcodes  # deferred on purpose: the table is only needed once an error occurs

    builtin = _sqlcodes.SQLCODES.get(sqlcode)
    b_cls = _KIND_CLASSES[builtin[0]] if builtin else None
    b_state = (builtin[1] or None) if builtin else None
    b_text = builtin[2] if builtin else None
    user = _USER_TEXTS.get(sqlcode)
    if user is None:
        return b_cls, b_state, b_text
    u_cls, u_state, u_text = user
    if u_cls is None:
        # Only the text changed: keep the built-in class and SQLSTATE.
        return b_cls, u_state or b_state, u_text
    return u_cls, u_state, u_text


def _fill(template: str, value: str) -> str:
    """Put ``value`` into the ``%s`` slot, or drop the slot cleanly when there is no value.

    Plain ``str.replace``, not ``%`` formatting, so a ``%`` in server data cannot break it.
    """
    if value:
        return template.replace("%s", value)
    for hole in (" '%s'", " %s", "'%s'", "%s"):
        template = template.replace(hole, "")
    return template


def _unknown_text(sqlcode: int) -> str:
    """Text for a code we have no entry for. It keeps the number and says where to look."""
    arg = str(-sqlcode) if sqlcode < 0 else f"+{sqlcode}"
    return f"Informix error {sqlcode} (no description in ifxwire; run: finderr {arg})"


def _render(sqlcode: int, template: str | None, near: str, server_text: str) -> tuple[str, bool]:
    """Build the message; also report whether ``near`` was placed inside it."""
    if template is not None:
        near_used = False
        if "%s" in template:
            value = near or server_text
            near_used = bool(near)
            text = _fill(template, value)
            extra = server_text if near else ""
        else:
            text = template
            extra = server_text
        if extra and extra not in text:
            text = f"{text} Server text: {extra}"
        if text.strip():
            return text, near_used
        return f"Informix error {sqlcode} (the server sent no message text)", False
    if server_text:
        return server_text, False
    return _unknown_text(sqlcode), False


def error_from_server(
    sqlcode: int,
    isamcode: int = 0,
    offset: int = 0,
    near: str = "",
    server_text: str = "",
    *,
    sqlstate: str | None = None,
) -> DatabaseError:
    """Build (not raise) the exception for an ``SQ_ERR`` the server sent.

    ``near`` is the parameter the server sent with the error; it fills the ``%s`` of the
    message, or is shown as ``(near '...')`` when the message has no slot. ``server_text`` is
    a complete message some errors carry (user routines, ``-937``); unknown codes use it as
    their message. ``sqlstate`` overrides the derived SQLSTATE, for the messages that carry one
    on the wire.

    Class: user registration, then the built-in table, then the code's range, then
    ``DatabaseError``. A plain ``DatabaseError`` is refined by the ISAM code: lock codes give
    ``OperationalError``/40001, ``-100`` gives ``IntegrityError``/23000, resource codes give
    ``OperationalError``. SQLSTATE: the argument, then the table, then the class default.

    ``isamcode`` is stored negative (Informix writes ISAM codes as negative numbers). ``offset``
    0 and ``near`` "" mean "not sent" and become ``None``.
    """
    cls, state, template = _lookup(sqlcode)
    if cls is None:
        cls = DatabaseError
        for low, high, range_cls in _RANGE_CLASSES:
            if low <= sqlcode <= high:
                cls = range_cls
                break
    isamcode = -abs(isamcode)
    if cls is DatabaseError and isamcode:
        refined = _refine_by_isam(isamcode)
        if refined is not None:
            cls, state = refined
    message, near_used = _render(sqlcode, template, near, server_text)
    err = cls(
        message,
        sqlcode=sqlcode,
        isamcode=isamcode,
        sqlstate=sqlstate or state or _default_sqlstate(cls),
        offset=offset or None,
        near=near or None,
    )
    if near_used:
        err._near_in_message = True
    return err


def _check_sqlstate(sqlstate: str) -> None:
    if not (len(sqlstate) == 5 and sqlstate.isascii() and sqlstate.isalnum()):
        raise ValueError(f"sqlstate must be 5 ASCII letters or digits, not {sqlstate!r}")
    if sqlstate != sqlstate.upper():
        raise ValueError(f"sqlstate must be upper case, not {sqlstate!r}")


def register_error_text(
    code: int,
    text: str,
    cls: type[DatabaseError] | None = None,
    *,
    sqlstate: str | None = None,
) -> None:
    """Add or replace the message (and optionally class and SQLSTATE) for a sqlcode.

    Use it for site-specific codes (``RAISE EXCEPTION`` numbers of your SPL routines), or
    for a text in your own language. ``%s`` in ``text`` receives the server's parameter.

    With ``cls=None`` the built-in class and SQLSTATE of the code are kept; for an unknown
    code that means ``DatabaseError``. When ``cls`` is given and ``sqlstate`` is not, the
    SQLSTATE is derived from ``cls``. Registrations are process-wide and take effect for
    every error built afterwards. Registering the same code again replaces the entry.
    """
    if not isinstance(code, int) or isinstance(code, bool):
        raise TypeError(f"code must be an int, not {type(code).__name__}")
    if not isinstance(text, str) or not text.strip():
        raise ValueError("text must be a non-empty string")
    if cls is not None and not (isinstance(cls, type) and issubclass(cls, DatabaseError)):
        raise TypeError("cls must be DatabaseError or one of its subclasses")
    if sqlstate is not None:
        _check_sqlstate(sqlstate)
    _USER_TEXTS[code] = (cls, sqlstate, text)


def isam_text(isamcode: int) -> str | None:
    """Short description of an ISAM code, or ``None`` if it is not in the table."""
    from . import _sqlcodes

    return _sqlcodes.ISAMCODES.get(-abs(isamcode))


# --------------------------------------------------------------------------------------------
# Errors the driver detects itself (sqlcode None). One constructor per situation keeps the
# class, the SQLSTATE and the wording identical wherever the driver raises them.
# --------------------------------------------------------------------------------------------


def closed_error(what: str = "connection") -> InterfaceError:
    """Operation on a closed connection or cursor (``what`` names it)."""
    return InterfaceError(f"The {what} is closed.")


def connection_lost(detail: str = "") -> OperationalError:
    """The socket failed or the server hung up. SQLSTATE 08006 lets pools discard the
    connection."""
    suffix = f": {detail}" if detail else "."
    return OperationalError(f"The connection to the server was lost{suffix}", sqlstate="08006")


def protocol_error(detail: str) -> OperationalError:
    """The server sent something the driver cannot parse. The session is unusable after this,
    so it is reported like a broken link (08S01) rather than as a statement error."""
    return OperationalError(f"Protocol error: {detail}", sqlstate="08S01")


def wrong_parameter_count(expected: int, given: int) -> ProgrammingError:
    """The statement has ``expected`` placeholders but ``given`` values were passed."""
    return ProgrammingError(
        f"The statement has {expected} parameter(s) but {given} value(s) were supplied.",
        sqlstate="07001",
    )


def no_result_set() -> ProgrammingError:
    """fetch*() was called when the last execute() produced no rows to fetch."""
    return ProgrammingError(
        "No result set: the last statement did not return rows.", sqlstate="24000"
    )


def not_supported(feature: str) -> NotSupportedError:
    """The driver does not implement ``feature``."""
    return NotSupportedError(f"Not supported by ifxwire: {feature}.", sqlstate="0A000")
