"""SQ_BIND bytes for one parameter set, with every failure turned into a PEP 249 error.

The value codecs raise their own ``CodecError`` family (they are shared with the server, which
reports failures as sqlcodes). Here those become DataError (a value that does not fit),
NotSupportedError (a Python type no codec takes) or ProgrammingError, always naming the
parameter, so a user never sees a raw OverflowError or UnicodeError from deep inside a codec.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, cast

from ..errors import DatabaseError, DataError, NotSupportedError, ProgrammingError
from ..protocol.codes import Msg
from ..protocol.messages import put_bbind
from ..protocol.requests import bind_head
from ..protocol.wire import Writer
from ..types.bind import BLOB_BIND_TYPES, blob_param, encode_bind_value
from ..types.bind_compile import RowsEncoder, compile_bind_encoder, compile_rows_encoder
from ..types.blobs import BLOB_DESCRIPTOR_WIDTH
from ..types.errors import CodecDataError, CodecError, CodecNotSupported

if TYPE_CHECKING:
    from ..types.adapters import AdaptersMap

__all__ = ["bind_message", "rows_encoder"]

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


_FastEncoder = Callable[[Sequence[object]], bytes]
#: (type of each value..., encoding) -> compiled encoder, or None when the pattern has none.
_FAST: dict[tuple[object, ...], _FastEncoder | None] = {}
_FAST_MAX = 512
_MISSING = object()


def _compile(key: tuple[object, ...]) -> _FastEncoder | None:
    *types, encoding = key
    fast = None
    # Very wide rows (rare) keep the generic path rather than compiling a huge function.
    if len(types) <= 255:
        pattern = cast("tuple[type, ...]", tuple(types))
        fast = compile_bind_encoder(pattern, cast(str, encoding), _BIND)
    if len(_FAST) >= _FAST_MAX:
        _FAST.clear()
    _FAST[key] = fast
    return fast


def bind_message(
    values: Sequence[object],
    encoding: str,
    adapters: AdaptersMap | None = None,
    blob_width: int = BLOB_DESCRIPTOR_WIDTH,
    *,
    compiled: bool = True,
) -> bytes:
    """``SQ_BIND`` with all parameters (jdbc-protocol.md 3.4): u16 5, u16 count, then each.

    ``adapters`` applies user dumpers; without any, the built-in encoder is called directly,
    through an encoder compiled once per (value types, encoding) pattern when there is one.
    BYTE (bytes-like) and TEXT (:class:`ifxwire.Text`) values bind as descriptors of
    ``blob_width`` bytes, and their data follows as ``SQ_BBIND`` + ``SQ_BLOB`` chunks, so the
    result must come right before EXECUTE or OPEN (JDBC ``sendBind``). Dumpers do not apply to
    them: there is no other way to send such a value. ``compiled=False`` skips the compiled
    encoder's lookup, for executemany's sets that rows_encoder has just looked up and refused
    (the generic path gives the same bytes).
    """
    if compiled and (adapters is None or not adapters.has_user_dumpers):
        key = (*map(type, values), encoding)
        fast = _FAST.get(key, _MISSING)
        if fast is _MISSING:
            fast = _compile(key)
        if fast is not None:
            try:
                return fast(values)  # type: ignore[operator,no-any-return]
            except Exception:
                pass  # the generic path below gives the same bytes or the proper error
    parts = [bind_head(len(values))]
    append = parts.append
    encode = (
        adapters.dump if adapters is not None and adapters.has_user_dumpers else encode_bind_value
    )
    blobs: list[bytes] = []
    for i, value in enumerate(values):
        try:
            if isinstance(value, BLOB_BIND_TYPES):
                item, data = blob_param(value, encoding, blob_width)
                append(item)
                blobs.append(data)
            else:
                append(encode(value, encoding))
        except Exception as exc:  # every codec (and dumper) failure becomes a PEP 249 error
            raise param_error(i, value, exc) from exc
    if blobs:
        w = Writer()
        put_bbind(w, blobs)
        append(bytes(w.buf))
    return b"".join(parts)


#: (type of each value..., encoding) -> (the _FAST encoder it was made for, rows encoder).
_ROWS: dict[tuple[object, ...], tuple[object, RowsEncoder | None]] = {}


def rows_encoder(params: object, encoding: str) -> RowsEncoder | None:
    """executemany's many-rows encoder for parameter sets shaped like ``params`` (a tuple or
    list; None for anything else, or a pattern with no compiled encoder).

    It is the C encoder's ``encode_rows`` when the accelerator is in use, else the generated
    one (types/bind_compile.py compile_rows_encoder): both take the same sets, give the same
    bytes and stop at the same place (tests/unit/test_rows_encoder.py). Built from the pattern's
    bind_message encoder, so both share one cache and one fate.
    """
    if type(params) is not tuple and type(params) is not list:
        return None
    key = (*map(type, params), encoding)
    fast = _FAST.get(key, _MISSING)
    if fast is _MISSING:
        fast = _compile(key)
    if fast is None or not key[:-1]:
        return None
    c_rows: RowsEncoder | None = getattr(fast, "encode_rows", None)
    if c_rows is not None:
        return c_rows
    entry = _ROWS.get(key)
    if entry is not None and entry[0] is fast:
        return entry[1]
    pattern = cast("tuple[type, ...]", key[:-1])
    rows = compile_rows_encoder(pattern, encoding, _BIND)
    if len(_ROWS) >= _FAST_MAX:
        _ROWS.clear()
    _ROWS[key] = (fast, rows)
    return rows
