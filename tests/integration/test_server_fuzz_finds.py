"""Server defects the third hostile-input round's fuzzing found (each test failed first).

Real server, real sockets; the session must answer with an Informix error and go on, never
close for a request it could parse.
"""

from __future__ import annotations

from typing import Any

import pytest

import ifxwire
from ifxwire.server.engine.core.errors import EngineError
from ifxwire.server.engine.features.spl.parser import parse_types


@pytest.mark.parametrize("text", ["foo", "a.b", "a b", "a-b", "informix.x("])
def test_an_unknown_type_name_is_an_informix_error_not_an_internal_one(text: str) -> None:
    """sqlglot's parse_into indexes ``ParseError.errors``, which our IfxParseError left
    empty: any unknown type name raised IndexError (found by the recorded-request fuzz, a
    GETROUTINE signature with a flipped byte). A single name may be a DISTINCT type: it is
    looked up in the database's types (none here: -9628, spl/usertypes.py)."""
    with pytest.raises(EngineError) as err:
        parse_types(text, types={})
    # a syntax error, a type we do not support, or no such type
    assert err.value.sqlcode in (-201, -999, -9628)


def test_a_fast_path_signature_with_an_unknown_type_keeps_the_session(
    connect_kwargs: dict[str, Any], dbname: str
) -> None:
    with ifxwire.connect(**connect_kwargs, database=dbname, autocommit=True) as conn:
        with pytest.raises(ifxwire.DatabaseError) as err:
            conn.call_function("function no_such_routine(no_such_type)", 1)
        assert err.value.sqlcode == -674  # the routine cannot be resolved
        assert conn.execute("SELECT 1 FROM systables WHERE tabid = 1").fetchone() == (1,)
