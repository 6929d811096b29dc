"""Tests for ifxwire.errors and the ifxwire._sqlcodes table.

Assertions check classes, codes and SQLSTATEs first. Message wording is checked only where
the format itself is the contract (str() layout, slot substitution, unknown codes).
"""

from __future__ import annotations

import copy
import os
import pickle
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import ifxwire.errors as errors
from ifxwire import _sqlcodes
from ifxwire.errors import (
    DatabaseError,
    DataError,
    Error,
    IntegrityError,
    InterfaceError,
    InternalError,
    NotSupportedError,
    OperationalError,
    ProgrammingError,
    Warning,
    error_from_server,
    register_error_text,
)

ALL_DB_CLASSES = [
    DatabaseError,
    DataError,
    OperationalError,
    IntegrityError,
    InternalError,
    ProgrammingError,
    NotSupportedError,
]


@pytest.fixture
def clean_registry(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Give each registration test an empty user table, so tests cannot leak into each other."""
    monkeypatch.setattr(errors, "_USER_TEXTS", {})
    yield


# --- the PEP 249 tree ------------------------------------------------------------------------


def test_pep249_hierarchy() -> None:
    assert issubclass(Warning, Exception)
    assert not issubclass(Warning, Error)
    assert issubclass(Error, Exception)
    assert issubclass(InterfaceError, Error)
    assert issubclass(DatabaseError, Error)
    assert not issubclass(InterfaceError, DatabaseError)
    for cls in ALL_DB_CLASSES[1:]:
        assert cls.__bases__ == (DatabaseError,), cls


def test_database_error_attributes_default_and_keyword_only() -> None:
    err = DatabaseError("boom")
    assert (err.sqlcode, err.isamcode, err.sqlstate, err.offset, err.near) == (
        None,
        0,
        None,
        None,
        None,
    )
    assert err.message == "boom"
    assert str(err) == "boom"
    with pytest.raises(TypeError):
        DatabaseError("boom", -201)  # type: ignore[call-arg]


def test_warning_carries_optional_codes() -> None:
    w = Warning("truncated", sqlcode=0, sqlstate="01004")
    assert (w.sqlcode, w.sqlstate, str(w)) == (0, "01004", "truncated")


# --- class selection ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sqlcode", "cls"),
    [
        # constraint / duplicate / NOT NULL / foreign key
        (-239, IntegrityError),
        (-268, IntegrityError),
        (-391, IntegrityError),
        (-292, IntegrityError),
        (-525, IntegrityError),
        (-530, IntegrityError),
        (-691, IntegrityError),
        (-692, IntegrityError),
        (-703, IntegrityError),
        (-100, IntegrityError),
        # syntax, unknown object, permission, parameter count, cursor misuse
        (-201, ProgrammingError),
        (-206, ProgrammingError),
        (-217, ProgrammingError),
        (-310, ProgrammingError),
        (-272, ProgrammingError),
        (-387, ProgrammingError),
        (-254, ProgrammingError),
        (-236, ProgrammingError),
        (-400, ProgrammingError),
        # connection, login, locks, transaction state, resources
        (-908, OperationalError),
        (-930, OperationalError),
        (-951, OperationalError),
        (-952, OperationalError),
        (-956, OperationalError),
        (-761, OperationalError),
        (-107, OperationalError),
        (-113, OperationalError),
        (-143, OperationalError),
        (-144, OperationalError),
        (-154, OperationalError),
        (-255, OperationalError),
        (-535, OperationalError),
        (-458, OperationalError),
        (-208, OperationalError),
        (-329, OperationalError),
        # conversion, overflow, range, string length
        (-1202, DataError),
        (-1213, DataError),
        (-1215, DataError),
        (-1226, DataError),
        (-1262, DataError),
        (-1279, DataError),
        # unsupported features
        (-256, NotSupportedError),
        (-513, NotSupportedError),
        (-999, NotSupportedError),
        # server-internal inconsistencies
        (-258, InternalError),
        (-392, InternalError),
        # generic, and user-defined
        (-240, DatabaseError),
        (-746, DatabaseError),
    ],
)
def test_class_by_sqlcode(sqlcode: int, cls: type[DatabaseError]) -> None:
    err = error_from_server(sqlcode)
    assert type(err) is cls
    assert err.sqlcode == sqlcode


@pytest.mark.parametrize(
    ("sqlcode", "sqlstate"),
    [
        (-201, "42000"),  # syntax: as the IBM JDBC driver reports -201
        (-206, "42S02"),  # missing table
        (-217, "42S22"),  # missing column
        (-272, "42501"),  # privilege
        (-254, "07001"),  # wrong number of parameters
        (-239, "23000"),
        (-691, "23000"),
        (-1202, "22012"),
        (-1213, "22018"),
        (-1215, "22003"),
        (-1279, "22001"),
        (-1260, "22000"),  # DataError default
        (-908, "08001"),
        (-951, "28000"),
        (-25582, "08006"),
        (-143, "40001"),
        (-154, "40001"),
        (-255, "25000"),
        (-535, "25000"),
        (-256, "0A000"),  # NotSupportedError default
        (-258, "HY000"),  # InternalError default
        (-240, "HY000"),  # DatabaseError default
        (-12345, "HY000"),  # unknown code
    ],
)
def test_sqlstate_by_sqlcode(sqlcode: int, sqlstate: str) -> None:
    assert error_from_server(sqlcode).sqlstate == sqlstate


def test_sqlstate_argument_wins() -> None:
    """-937 carries its own SQLSTATE on the wire; the caller passes it through."""
    err = error_from_server(-937, server_text="bad input", sqlstate="U0001")
    assert err.sqlstate == "U0001"
    assert "bad input" in err.message


@pytest.mark.parametrize(
    ("sqlcode", "isamcode", "cls", "sqlstate"),
    [
        (-244, -107, OperationalError, "40001"),  # read failed: row locked
        (-243, -154, OperationalError, "40001"),  # lock wait timed out
        (-211, -144, OperationalError, "40001"),  # catalog read: key locked
        (-240, -143, OperationalError, "40001"),  # deadlock
        (-346, -100, IntegrityError, "23000"),  # UPDATE hit a unique index
        (-271, -100, IntegrityError, "23000"),  # INSERT hit a unique index
        (-271, -131, OperationalError, "HY000"),  # disk full
        (-244, 0, DatabaseError, "HY000"),  # no ISAM code: stays generic
        (-244, -111, DatabaseError, "HY000"),  # ISAM code that explains nothing
        (-206, -111, ProgrammingError, "42S02"),  # specific classes are never refined
        (-239, -100, IntegrityError, "23000"),
    ],
)
def test_isam_code_refines_generic_errors(
    sqlcode: int, isamcode: int, cls: type[DatabaseError], sqlstate: str
) -> None:
    err = error_from_server(sqlcode, isamcode)
    assert type(err) is cls
    assert err.sqlstate == sqlstate
    assert err.isamcode == isamcode


@pytest.mark.parametrize(
    ("sqlcode", "cls"),
    [
        (-1298, DataError),  # conversion library block
        (-23150, OperationalError),  # GLS block
        (-25599, OperationalError),  # network block
        (-98, OperationalError),  # OS errno block
        (-12345, DatabaseError),
        (-777, DatabaseError),
    ],
)
def test_unknown_codes_fall_back_by_range(sqlcode: int, cls: type[DatabaseError]) -> None:
    assert sqlcode not in _sqlcodes.SQLCODES
    assert type(error_from_server(sqlcode)) is cls


# --- message and str() ----------------------------------------------------------------------


def test_str_full_format() -> None:
    err = error_from_server(-206, isamcode=-111, offset=14, near="missing_tab")
    assert str(err) == (
        "[-206] Table 'missing_tab' is not in the database. (offset 14) "
        "[ISAM -111: no record found] (SQLSTATE 42S02)"
    )


def test_str_syntax_error_shows_near_and_offset() -> None:
    err = error_from_server(-201, offset=9, near="FORM")
    assert str(err) == (
        "[-201] Syntax error in the SQL statement. (near 'FORM', offset 9) (SQLSTATE 42000)"
    )


def test_str_minimal() -> None:
    assert (
        str(error_from_server(-201)) == "[-201] Syntax error in the SQL statement. (SQLSTATE 42000)"
    )


def test_str_unknown_isam_code_shows_number() -> None:
    assert "[ISAM -199]" in str(error_from_server(-244, -199))


def test_near_fills_slot_and_is_not_repeated() -> None:
    err = error_from_server(-391, near="orders.customer_id")
    assert err.message == "Column 'orders.customer_id' does not accept NULL."
    assert str(err).count("orders.customer_id") == 1
    assert err.near == "orders.customer_id"


def test_missing_near_drops_the_slot_cleanly() -> None:
    assert error_from_server(-206).message == "Table is not in the database."
    assert error_from_server(-908).message == "Connection to database server failed."


def test_near_with_percent_sign_is_inserted_verbatim() -> None:
    assert "'100%s%d'" in error_from_server(-206, near="100%s%d").message


def test_near_quotes_are_escaped_in_str() -> None:
    err = error_from_server(-201, near="O'Brien")
    assert '(near "O\'Brien")' in str(err)


def test_raise_exception_text_is_the_message() -> None:
    err = error_from_server(-746, near="customer is blocked")
    assert err.message == "customer is blocked"
    assert str(err) == "[-746] customer is blocked (SQLSTATE HY000)"


def test_template_without_text_still_names_the_code() -> None:
    assert "-746" in error_from_server(-746).message


def test_server_text_is_appended_to_known_texts() -> None:
    err = error_from_server(-745, server_text="audit table full")
    assert err.message.startswith("A trigger action failed.")
    assert "audit table full" in err.message


def test_unknown_code_shows_number() -> None:
    err = error_from_server(-12345)
    assert err.message.startswith("Informix error -12345")
    assert "finderr 12345" in err.message
    assert str(err).startswith("[-12345] Informix error -12345")


def test_unknown_code_uses_server_text_and_keeps_number_in_str() -> None:
    err = error_from_server(-12345, near="tok", server_text="something odd happened")
    assert err.message == "something odd happened"
    assert str(err) == "[-12345] something odd happened (near 'tok') (SQLSTATE HY000)"


def test_normalisation_of_wire_defaults() -> None:
    err = error_from_server(-201, isamcode=111, offset=0, near="")
    assert err.isamcode == -111  # ISAM codes are stored negative
    assert err.offset is None
    assert err.near is None


def test_repr_lists_set_fields() -> None:
    err = error_from_server(-268, -100, near="u_pk")
    assert repr(err) == (
        "IntegrityError(\"Unique constraint 'u_pk' violated.\", sqlcode=-268, "
        "isamcode=-100, sqlstate='23000', near='u_pk')"
    )


def test_isam_text() -> None:
    assert errors.isam_text(-107) == "record is locked"
    assert errors.isam_text(107) == "record is locked"
    assert errors.isam_text(-9999) is None


# --- register_error_text --------------------------------------------------------------------


@pytest.mark.usefixtures("clean_registry")
def test_register_new_code() -> None:
    register_error_text(-30001, "Order %s is on hold.", IntegrityError)
    err = error_from_server(-30001, near="A-17")
    assert type(err) is IntegrityError
    assert err.message == "Order A-17 is on hold."
    assert err.sqlstate == "23000"


@pytest.mark.usefixtures("clean_registry")
def test_register_text_only_keeps_builtin_class_and_sqlstate() -> None:
    register_error_text(-206, "Tabelle '%s' fehlt.")
    err = error_from_server(-206, near="kunde")
    assert type(err) is ProgrammingError
    assert err.sqlstate == "42S02"
    assert err.message == "Tabelle 'kunde' fehlt."


@pytest.mark.usefixtures("clean_registry")
def test_register_unknown_code_without_class_is_database_error() -> None:
    register_error_text(-30002, "Site rule violated.")
    err = error_from_server(-30002)
    assert type(err) is DatabaseError
    assert err.sqlstate == "HY000"


@pytest.mark.usefixtures("clean_registry")
def test_register_with_class_and_sqlstate() -> None:
    register_error_text(-206, "Gone.", OperationalError, sqlstate="HYT00")
    err = error_from_server(-206)
    assert (type(err), err.sqlstate, err.message) == (OperationalError, "HYT00", "Gone.")


@pytest.mark.usefixtures("clean_registry")
def test_register_with_user_subclass_inherits_default_sqlstate() -> None:
    class OrderLocked(OperationalError):
        pass

    register_error_text(-30003, "Order locked.", OrderLocked)
    err = error_from_server(-30003)
    assert isinstance(err, OrderLocked)
    assert err.sqlstate == "HY000"


@pytest.mark.usefixtures("clean_registry")
def test_register_replaces_previous_entry() -> None:
    register_error_text(-30004, "first")
    register_error_text(-30004, "second")
    assert error_from_server(-30004).message == "second"


@pytest.mark.usefixtures("clean_registry")
@pytest.mark.parametrize(
    ("args", "kwargs", "exc"),
    [
        (("-1", "x"), {}, TypeError),
        ((True, "x"), {}, TypeError),
        ((-1, ""), {}, ValueError),
        ((-1, "   "), {}, ValueError),
        ((-1, "x", ValueError), {}, TypeError),
        ((-1, "x", Error), {}, TypeError),
        ((-1, "x"), {"sqlstate": "4200"}, ValueError),
        ((-1, "x"), {"sqlstate": "42s02"}, ValueError),
        ((-1, "x"), {"sqlstate": "42-02"}, ValueError),
    ],
)
def test_register_rejects_bad_arguments(
    args: tuple[object, ...], kwargs: dict[str, object], exc: type[Exception]
) -> None:
    with pytest.raises(exc):
        register_error_text(*args, **kwargs)  # type: ignore[arg-type]
    assert errors._USER_TEXTS == {}


# --- pickling -------------------------------------------------------------------------------


@pytest.mark.parametrize("cls", ALL_DB_CLASSES)
def test_database_errors_pickle_with_attributes(cls: type[DatabaseError]) -> None:
    err = cls("msg", sqlcode=-1, isamcode=-107, sqlstate="HY000", offset=3, near="t")
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        back = pickle.loads(pickle.dumps(err, protocol))
        assert type(back) is cls
        assert (back.sqlcode, back.isamcode, back.sqlstate, back.offset, back.near) == (
            -1,
            -107,
            "HY000",
            3,
            "t",
        )
        assert back.args == err.args
        assert str(back) == str(err)


def test_server_error_pickles_and_copies_identically() -> None:
    err = error_from_server(-206, -111, 14, "missing_tab")
    for back in (pickle.loads(pickle.dumps(err)), copy.copy(err), copy.deepcopy(err)):
        assert type(back) is ProgrammingError
        assert str(back) == str(err)  # includes the "near already shown" flag
        assert repr(back) == repr(err)


@pytest.mark.parametrize("exc", [Error("e"), InterfaceError("closed"), Warning("w", sqlcode=0)])
def test_other_classes_pickle(exc: Exception) -> None:
    back = pickle.loads(pickle.dumps(exc))
    assert type(back) is type(exc)
    assert back.args == exc.args
    assert getattr(back, "sqlcode", None) == getattr(exc, "sqlcode", None)


# --- driver-side constructors ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("err", "cls", "sqlstate"),
    [
        (errors.connection_lost("reset by peer"), OperationalError, "08006"),
        (errors.protocol_error("unexpected message 99"), OperationalError, "08S01"),
        (errors.wrong_parameter_count(2, 3), ProgrammingError, "07001"),
        (errors.no_result_set(), ProgrammingError, "24000"),
        (errors.not_supported("two-phase commit"), NotSupportedError, "0A000"),
    ],
)
def test_client_side_constructors(
    err: DatabaseError, cls: type[DatabaseError], sqlstate: str
) -> None:
    assert type(err) is cls
    assert err.sqlstate == sqlstate
    assert err.sqlcode is None
    assert not str(err).startswith("[")


def test_closed_error_is_interface_error() -> None:
    err = errors.closed_error("cursor")
    assert type(err) is InterfaceError
    assert str(err) == "The cursor is closed."


# --- the table itself -----------------------------------------------------------------------


def test_table_has_at_least_150_entries() -> None:
    assert len(_sqlcodes.SQLCODES) >= 150


def test_table_covers_the_codes_users_meet_most() -> None:
    must_have = {
        -100, -107, -111, -113, -143, -144, -154, -201, -206, -217, -239, -255, -256,
        -267, -268, -271, -272, -285, -329, -346, -349, -387, -391, -458, -535, -691,
        -692, -703, -710, -746, -761, -908, -930, -951, -952, -956, -1213, -1215, -1226,
        -1262, -1279, -23101, -23197,
    }  # fmt: skip
    assert must_have <= _sqlcodes.SQLCODES.keys()


@pytest.mark.parametrize("sqlcode", sorted(_sqlcodes.SQLCODES))
def test_every_table_entry_is_well_formed(sqlcode: int) -> None:
    kind, state, text = _sqlcodes.SQLCODES[sqlcode]
    assert sqlcode < 0
    assert kind in _sqlcodes.KINDS
    assert state == "" or (len(state) == 5 and state.isalnum() and state == state.upper())
    assert text.strip() and text == text.strip()
    assert text.count("%s") <= 1
    assert "%s" not in text or text == "%s" or " %s" in text or " '%s'" in text
    err = error_from_server(sqlcode)
    assert isinstance(err, DatabaseError)
    assert type(err).__name__ == _sqlcodes.KINDS[kind]
    assert err.sqlstate is not None and len(err.sqlstate) == 5
    assert err.message.strip()
    assert "%s" not in err.message
    assert "%s" not in error_from_server(sqlcode, near="x").message


def test_unsure_marks_refer_to_table_entries() -> None:
    assert _sqlcodes.SQLCODES.keys() >= _sqlcodes.UNSURE
    assert _sqlcodes.ISAMCODES.keys() >= _sqlcodes.UNSURE_ISAM


def test_isam_table_is_well_formed() -> None:
    assert {-100, -103, -107, -111, -113, -143, -144, -154} <= _sqlcodes.ISAMCODES.keys()
    for code, text in _sqlcodes.ISAMCODES.items():
        # -1..-199: errno and ISAM proper; -12000..-12999: smart-large-object (sblob) codes,
        # which Informix sends as the ISAM code of -9810 (sblob_en_US.properties, JDBC jar).
        assert -199 <= code <= -1 or -12999 <= code <= -12000
        assert text.strip() and text == text.strip()


def test_duplicate_codes_are_rejected() -> None:
    with pytest.raises(ValueError, match="duplicate"):
        _sqlcodes._parse_sql("-1 E - a\n-1 E - b\n")
    with pytest.raises(ValueError, match="duplicate"):
        _sqlcodes._parse_isam("-1 a\n-1 b\n")


# --- import cost ----------------------------------------------------------------------------


def test_importing_errors_does_not_load_the_table() -> None:
    """The table is parsed on the first error, so ``import ifxwire`` stays cheap."""
    src = str(Path(errors.__file__).resolve().parent.parent)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([src, os.environ.get("PYTHONPATH", "")])}
    code = (
        "import sys, ifxwire.errors as e; a = 'ifxwire._sqlcodes' in sys.modules; "
        "e.error_from_server(-201); b = 'ifxwire._sqlcodes' in sys.modules; print(a, b)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.split() == ["False", "True"]


def test_out_argument_error_is_described_without_the_handle_text() -> None:
    """-9752 has a message of its own; its error text (``database:handle:unique`` for JDBC,
    PROTOCOL.md §10) is only shown as the near text."""
    err = error_from_server(-9752, 0, 0, "stores:0:1")
    assert isinstance(err, ProgrammingError)
    assert "OUT or INOUT argument" in str(err) and "no description" not in str(err)
