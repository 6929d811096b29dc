"""SQ_BIND bytes for one parameter set, with every failure turned into a PEP 249 error.

The value codecs raise their own ``CodecError`` family (they are shared with the server, which
reports failures as sqlcodes). Here those become DataError (a value that does not fit),
NotSupportedError (a Python type no codec takes) or ProgrammingError, always naming the
parameter, so a user never sees a raw OverflowError or UnicodeError from deep inside a codec.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..errors import DatabaseError, DataError, NotSupportedError, ProgrammingError
from ..protocol.codes import Msg
from ..types.bind import encode_bind_value
from ..types.errors import CodecDataError, CodecError, CodecNotSupported

if TYPE_CHECKING:
    from ..types.adapters import AdaptersMap

__all__ = ["bind_message"]

_BIND_HEAD = struct.Struct(">HH")
_BIND = int(Msg.BIND)


def _describe_value(value: object) -> str:
    text = repr(value)
    if len(text) > 60:
        text = text[:57] + "..."
    return f"{type(value).__name__} {text}"


def param_error(index: int, value: object, exc: Exception) -> DatabaseError:
    """The PEP 249 error for parameter ``index`` (0-based) that could not be encoded."""
    where = f"parameter {index + 1} ({_describe_value(value)})"
    if isinstance(exc, CodecNotSupported):
        return NotSupportedError(f"{where}: {exc}", sqlstate="0A000")
    if isinstance(exc, (CodecDataError, OverflowError, UnicodeError)):
        return DataError(f"{where}: {exc}", sqlstate="22000")
    if isinstance(exc, CodecError):
        # A Python type no codec takes, or a value the type cannot carry (tz-aware datetime).
        return ProgrammingError(f"{where}: {exc}", sqlstate="07006")
    return ProgrammingError(
        f"{where}: cannot be sent as a parameter: {type(exc).__name__}: {exc}", sqlstate="07006"
    )


def bind_message(
    values: Sequence[object], encoding: str, adapters: AdaptersMap | None = None
) -> bytes:
    """``SQ_BIND`` with all parameters (jdbc-protocol.md 3.4): u16 5, u16 count, then each.

    ``adapters`` applies user dumpers; without any, the built-in encoder is called directly.
    """
    parts = [_BIND_HEAD.pack(_BIND, len(values))]
    append = parts.append
    encode = (
        adapters.dump if adapters is not None and adapters.has_user_dumpers else encode_bind_value
    )
    for i, value in enumerate(values):
        try:
            append(encode(value, encoding))
        except Exception as exc:  # every codec (and dumper) failure becomes a PEP 249 error
            raise param_error(i, value, exc) from exc
    return b"".join(parts)
