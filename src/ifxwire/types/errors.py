"""Exceptions raised by the value codecs.

The codecs are shared by the driver and the embedded server, which report failures differently
(PEP 249 exceptions on one side, Informix sqlcodes on the other). Both layers therefore catch these
classes and translate them; the codecs never raise a protocol- or DB-API-specific error.
"""

from __future__ import annotations

__all__ = ["CodecDataError", "CodecError", "CodecNotSupported"]


class CodecError(ValueError):
    """A value or a byte sequence that a codec cannot handle.

    Raised for malformed wire bytes (the message gives the type and, where known, the offset) and
    for Python values of a type the target Informix type cannot take.
    """


class CodecDataError(CodecError):
    """A value of an acceptable type that does not fit: out of range, too long, NaN, infinite."""


class CodecNotSupported(CodecError):
    """A type the codecs deliberately do not handle yet (BYTE binds, complex types)."""
