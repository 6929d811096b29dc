"""File-like objects the driver reads values from: one error for a read that failed, one for a
source whose size changed after the driver announced it, and how many bytes one has left.

Both are DataError with SQLSTATE 22000 (data exception), whatever the object raised (its
exception is the ``__cause__``), and name the object: a file's name when it has one.
"""

from __future__ import annotations

import io
import os
from typing import Any

from ..errors import DataError

__all__ = ["SourceChanged", "remaining", "source_error", "source_label"]


def source_label(source: Any) -> str:
    """How an error names a file-like object: ``file 'path'`` when it has a str/bytes name."""
    name = getattr(source, "name", None)
    if isinstance(name, os.PathLike):
        name = os.fspath(name)
    if isinstance(name, bytes):
        name = name.decode(errors="replace")
    if isinstance(name, str) and name:
        return f"file {name!r}"
    return f"the {type(source).__name__} object"


def source_error(exc: BaseException, source: Any = None) -> DataError:
    """Reading a file-like object failed (``raise source_error(exc) from exc``)."""
    what = "the file-like object" if source is None else source_label(source)
    return DataError(f"reading {what} failed: {type(exc).__name__}: {exc}", sqlstate="22000")


class SourceChanged(DataError):
    """A source gave fewer or more bytes than the size the driver announced for it before
    sending (a file that shrank or grew meanwhile). Raised once the request was brought to an
    end that runs nothing, so the connection stays usable."""

    def __init__(self, label: str, announced: int, sent: int, more: bool = False) -> None:
        if more:
            text = (f"{label} holds more than the {announced} bytes announced for it: it grew "
                    "while it was being sent; nothing was stored")
        else:
            text = (f"{label} ended {announced - sent} bytes short of the {announced} bytes "
                    f"announced for it ({sent} sent): it shrank while it was being sent; "
                    "nothing was stored")
        super().__init__(text, sqlstate="22000")
        self.label = label
        self.announced = announced
        self.sent = sent


def remaining(source: Any) -> int | None:
    """Bytes left in a seekable object, without reading them."""
    try:
        if not source.seekable():
            return None
        here = source.tell()
        end = source.seek(0, io.SEEK_END)
        source.seek(here)
        return int(end - here)
    except (AttributeError, OSError, ValueError):
        return None
