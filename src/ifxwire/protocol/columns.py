"""Column and parameter descriptors, as carried by SQ_DESCRIBE and SQ_IDESCRIBE.

The same record describes a result column (DESCRIBE), a statement parameter (IDESCRIBE) and the
shape a row codec is built for, so client, server and the type layer share one definition.
"""

from __future__ import annotations

from dataclasses import dataclass

from .codes import TYPE_BASE_MASK, TYPE_DISTINCT, TYPE_NOTNULL


@dataclass(frozen=True, slots=True)
class ColumnDesc:
    """One described column or parameter.

    ``type`` is the raw 16-bit type word (flags included); ``enclen`` the encoded length (for
    DECIMAL ``(p << 8) | s``, for DATETIME/INTERVAL the qualifier, for character types the
    maximum length, for fixed types the wire width).
    """

    name: str
    type: int
    enclen: int
    xid: int = 0
    owner: str = ""
    type_name: str = ""
    start: int = 0
    reference: int = 0
    alignment: int = 0
    source_type: int = 0
    #: Codec detail the description does not carry on the wire: the server sets the
    #: ``types.complextype.ComplexType`` of a ROW/collection column here for its encoder.
    detail: object = None

    @property
    def base(self) -> int:
        """The type code without flag bits."""
        return self.type & TYPE_BASE_MASK

    @property
    def nullable(self) -> bool:
        return not self.type & TYPE_NOTNULL

    @property
    def distinct(self) -> bool:
        return bool(self.type & TYPE_DISTINCT)
