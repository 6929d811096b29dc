"""The optional compiled loops of change data capture (``ifxwire._cdcspeed``) and their switch.

Issue 27's throughput target is bound by two per-event loops: the server rendering captured
changes into CDC records (server/engine/features/cdc/render.py, after parsing its log's JSON
bodies, hub._changes) and ``ifxwire.cdc`` turning records into events (``Decoder._events``).
``_cdcspeed.c`` has them; the Python code stays
complete and is the reference: the compiled loops hand whatever they do not take exactly as
the Python would to the Python itself, so records and events are the same either way
(tests/unit/test_cdc_speed.py). A module of its own, so that the driver's accelerator
(``_accel``, ``_speedups.c``) and this one evolve apart; it follows the same switch:

* :data:`available`: the compiled module imported;
* :data:`accelerated`: it is used, i.e. available and ``IFXWIRE_PURE`` not set to a true
  value (``1``, ``true``, ``yes``, ``on``), read once, here. The ``c_*`` functions ignore
  the switch (the tests use them to compare both paths).
"""

from __future__ import annotations

import codecs
import importlib
import os
from collections.abc import Callable
from types import ModuleType
from typing import Any

_cdcspeed: ModuleType | None
try:
    _cdcspeed = importlib.import_module("ifxwire._cdcspeed")
except ImportError:  # no compiler at install time, or an incompatible build
    _cdcspeed = None

available: bool = _cdcspeed is not None
accelerated: bool = available and os.environ.get("IFXWIRE_PURE", "").strip().lower() not in (
    "1",
    "true",
    "yes",
    "on",
)

# Column kinds of make_renderer; the numbers are the enum in _cdcspeed_renderer.h (a part of
# _cdcspeed.c).
R_CALL = 0
R_INT = 1
R_VARCHAR = 2
R_DECIMAL = 3
# Code sets the renderer encodes text in itself (others: the column's Python encoder).
_CODECS = {"iso8859-1": 1, "utf-8": 2, "ascii": 3}

Render = Callable[[int, tuple[object, ...], int, int], bytes]
#: (kind, index in the stored row, a, b, c, value -> bytes, variable-length?)
RenderColumn = tuple[int, int, int, int, int, Callable[[object], bytes], int]
DecodeData = Callable[..., tuple[list[Any], list[int]]]
ParseChanges = Callable[[str, Any], "list[Any] | None"]


def codec_kind(encoding: str) -> int:
    """The renderer's code for ``encoding`` (0: text goes to the Python encoder)."""
    try:
        return _CODECS.get(codecs.lookup(encoding).name, 0)
    except LookupError:
        return 0


def c_renderer(pure: Render, cols: tuple[RenderColumn, ...], user_data: int) -> Render | None:
    """The compiled twin of the generated renderer ``pure``, or None when the module is not
    built or the plan does not fit it. Ignores IFXWIRE_PURE."""
    if _cdcspeed is None:
        return None
    try:
        render: Render = _cdcspeed.make_renderer(pure, cols, int(user_data))
    except (ValueError, TypeError, OverflowError):
        return None  # the pure renderer raises what it raises for such a table
    return render


def renderer(pure: Render, cols: tuple[RenderColumn, ...], user_data: int) -> Render:
    """The renderer to use: the compiled one when accelerated, else ``pure``."""
    if not accelerated:
        return pure
    return c_renderer(pure, cols, user_data) or pure


def c_decode_data() -> DecodeData | None:
    """The compiled loop over data records (``Decoder._events``), or None. Ignores
    IFXWIRE_PURE."""
    return getattr(_cdcspeed, "decode_data", None)


def decode_data() -> DecodeData | None:
    """The compiled loop when accelerated, else None (the Python loop runs)."""
    return c_decode_data() if accelerated else None


def c_parse_changes() -> ParseChanges | None:
    """The compiled parser of the server's change-log bodies (hub._changes), or None.
    Ignores IFXWIRE_PURE."""
    return getattr(_cdcspeed, "parse_changes", None)


def parse_changes() -> ParseChanges | None:
    """The compiled parser when accelerated, else None (json parses every body)."""
    return c_parse_changes() if accelerated else None
