"""What a referential constraint must reference, checked when it is made.

Guide to SQL: Syntax, "Restrictions on Referential Constraints" (ids_sqs_0302, ids_sqs_0519):
"The referenced column (or set of columns) must have a unique or primary-key constraint";
"The referencing and referenced columns must be the same data type. The only exceptions are
that a referencing column must be an integer data type if the referenced column is a serial
data type" (Database Design, ids_ddi_213: SERIAL and INTEGER, SERIAL8 and INT8, BIGSERIAL
and BIGINT). Codes from IBM's message catalogue [jcat]: -297 "Cannot find unique constraint
or primary key on referenced table (%s).", -356 "Data type of the referencing and
referenced columns do not match." A constraint created DISABLED is not checked: the
Syntax's own example (ids_sqs_0301) adds a disabled one to a column without a unique key.

Before the thirty-third session CREATE TABLE made such a key (its first use then failed
with SQLite's "foreign key mismatch", -999) and ALTER TABLE refused it with -999.
"""

from __future__ import annotations

from collections.abc import Sequence

from ....protocol.codes import TypeCode as T
from ..core import sqlcodes as sc
from ..core.errors import EngineError
from ..core.ifxtypes import IfxType

_SERIAL_TO_INTEGER: dict[int, int] = {T.SERIAL: T.INTEGER, T.SERIAL8: T.INT8, T.BIGSERIAL: T.BIGINT}
_INTEGERS = frozenset((T.SMALLINT, T.INTEGER, T.INT8, T.BIGINT))


def _base(t: IfxType) -> int:
    """The type code a column compares by: a serial as its integer type."""
    return _SERIAL_TO_INTEGER.get(int(t.code), int(t.code))


def compatible(child: IfxType, parent: IfxType) -> bool:
    """Whether a referencing column of type ``child`` may reference one of type ``parent``."""
    if parent.code in _SERIAL_TO_INTEGER:
        # "a referencing column must be an integer data type if the referenced column is a
        # serial data type" (ids_sqs_0519): any of them (Django's SmallAutoField keys are
        # SMALLINT columns referencing a SERIAL)
        return child.code in _INTEGERS
    if child.distinct or parent.distinct:
        return child.key == parent.key
    return _base(child) == _base(parent)


def check(parent_name: str, keys: Sequence[tuple[str, Sequence[str]]],
          referenced: Sequence[str], child_types: Sequence[IfxType],
          parent_types: Sequence[IfxType]) -> None:
    """``keys``: the parent's primary-key and unique constraints, (kind, columns);
    ``referenced``: the columns named (the primary key's when none were)."""
    if not any(sorted(cols) == sorted(referenced) for _, cols in keys):
        raise EngineError(sc.NO_PARENT_KEY, near=parent_name)
    for child, parent in zip(child_types, parent_types, strict=False):
        if not compatible(child, parent):
            raise EngineError(sc.REFERENCE_TYPES)
