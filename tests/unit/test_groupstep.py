"""The compiled one-step path's module, ``ifxwire._groupstep`` (issue 26, eleventh round).

Its message codes are compiled in: they must be the protocol's, or server/onestep.py leaves
the module unused and every cached query takes the pure path without saying so. Where the
accelerator is in use (not IFXWIRE_PURE) and the module built, the server uses it. The
behaviour of both paths is tested over real sockets in
tests/integration/test_query_group_compiled.py and test_query_group_cache.py.
"""

from __future__ import annotations

import importlib

import pytest

from ifxwire import _accel
from ifxwire.protocol.codes import Msg
from ifxwire.server import onestep


def _module() -> object:
    try:
        return importlib.import_module("ifxwire._groupstep")
    except ImportError:
        pytest.skip("ifxwire._groupstep not built (no compiler): the pure path")


def test_compiled_message_codes_are_the_protocols() -> None:
    mod = _module()
    assert mod.message_codes() == (  # type: ignore[attr-defined]
        int(Msg.ID), int(Msg.CURNAME), int(Msg.BIND), int(Msg.OPEN), int(Msg.EOT))


def test_the_server_uses_it_when_accelerated() -> None:
    mod = _module()
    if _accel.accelerated:
        assert onestep.serve_compiled is mod.serve  # type: ignore[attr-defined]
    else:
        assert onestep.serve_compiled is None  # IFXWIRE_PURE: the pure path only


def test_serve_takes_nothing_it_does_not_know() -> None:
    """A session object with nothing received: False, and nothing set on it."""
    mod = _module()
    if onestep.serve_compiled is None:
        pytest.skip("IFXWIRE_PURE: the module is not configured")

    class Bare:
        buf = bytearray(64)
        start = 0
        end = 0

    bare = Bare()
    assert mod.serve(bare) is False  # type: ignore[attr-defined]
    assert vars(bare) == {}
    bare.end = 12  # an SQ_EOT group, not a query's
    bare.buf[:2] = b"\x00\x0c"
    assert mod.serve(bare) is False  # type: ignore[attr-defined]
    assert vars(bare) == {"end": 12}


def test_setup_builds_it() -> None:
    """setup.py lists the module (an optional extension: without this line the server
    would quietly run the pure path everywhere)."""
    from pathlib import Path

    setup = (Path(__file__).resolve().parents[2] / "setup.py").read_text()
    assert '"ifxwire._groupstep"' in setup and '"src/ifxwire/_groupstep.c"' in setup


def test_statement_fields_are_read_at_their_slots() -> None:
    """Statement is a slots dataclass and the module reads its fields (and Writer.buf) at
    their slots (issue 26, twelfth round): were a field renamed, or Statement no longer
    slotted, serve would quietly go back to attribute calls."""
    from ifxwire.server.statements import Statement

    mod = _module()
    if onestep.serve_compiled is None:
        pytest.skip("IFXWIRE_PURE: the module is not configured")
    assert mod.fields() == (True, True)  # type: ignore[attr-defined]
    assert "__slots__" in vars(Statement)
    st = Statement(prepared=None)  # type: ignore[arg-type]
    with pytest.raises(AttributeError):
        st.undeclared = 1  # type: ignore[attr-defined]
