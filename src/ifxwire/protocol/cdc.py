"""Change Data Capture records: the byte layout of what a CDC session's smart large object reads.

Layouts from IBM/HCL's "Change Data Capture API Programmer's Guide" ("Format of CDC records" and
one page per record) and IBM JDBC 15.0.0.1 ``com.informix.jdbc.stream.cdc`` (the record
numbers of ``Constants``, the fields each record class reads); docs/CDC_SERVER.md "Records"
lists them. Every integer is big-endian. One shared codec: the server writes records with
it, ``ifxwire.cdc`` reads them, and tests/unit/test_cdc_records.py pins the bytes.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

#: syscdcpacketschemes: the only packetization scheme, CDC_PKTSCHEME_LRECBINARY.
PKTSCHEME_LRECBINARY = 66
#: header size, payload size, packet scheme, record number
COMMON = struct.Struct(">iiii")
COMMON_SIZE = COMMON.size

# syscdcrectypes.recnum (JDBC Constants; the guide's record names)
BEGINTX = 1
COMMTX = 2
RBTX = 3
INSERT = 40
DELETE = 41
UPDBEF = 42
UPDAFT = 43
DISCARD = 62
TRUNCATE = 119
TABSCHEMA = 200
TIMEOUT = 201
ERROR = 202

NAMES = {BEGINTX: "CDC_REC_BEGINTX", COMMTX: "CDC_REC_COMMTX", RBTX: "CDC_REC_RBTX",
         INSERT: "CDC_REC_INSERT", DELETE: "CDC_REC_DELETE", UPDBEF: "CDC_REC_UPDBEF",
         UPDAFT: "CDC_REC_UPDAFT", DISCARD: "CDC_REC_DISCARD", TRUNCATE: "CDC_REC_TRUNCATE",
         TABSCHEMA: "CDC_REC_TABSCHEMA", TIMEOUT: "CDC_REC_TIMEOUT", ERROR: "CDC_REC_ERROR"}

DATA_RECORDS = frozenset((INSERT, DELETE, UPDBEF, UPDAFT))

# The record-specific header after the common one.
_BEGIN = struct.Struct(">qiqi")  # sequence, transaction, start time (time_t), user id
_COMMIT = struct.Struct(">qiq")  # sequence, transaction, commit time (time_t)
_SEQ_TX = struct.Struct(">qi")  # RBTX, DISCARD: sequence, transaction
_DATA = struct.Struct(">qiii")  # sequence, transaction, user data, flags; then var sizes
_TRUNC = struct.Struct(">qii")  # sequence, transaction, user data
_SCHEMA = struct.Struct(">iiiii")  # user data, flags, fixed size, fixed columns, var columns
_TIMEOUT = struct.Struct(">q")  # sequence
_ERROR = struct.Struct(">ii")  # flags (0x1: the session is no longer valid), error code

#: CDC_REC_ERROR flags bit: only cdc_closesess() remains valid.
ERROR_SESSION_INVALID = 0x1


class RecordError(ValueError):
    """Bytes that are not a CDC record (wrong scheme, unknown number, sizes that disagree)."""


@dataclass(slots=True)
class Record:
    """One decoded record; fields a record type does not carry stay 0/empty."""

    recnum: int
    sequence: int = 0
    transaction: int = 0
    time: int = 0  # BEGINTX start time / COMMTX commit time, seconds since the epoch (UTC)
    user_id: int = 0  # BEGINTX: the OS user id
    user_data: int = 0  # the table identifier given to cdc_startcapture()
    flags: int = 0
    error: int = 0  # ERROR: the error code
    fixed_size: int = 0  # TABSCHEMA
    fixed_columns: int = 0
    var_columns: int = 0
    var_sizes: tuple[int, ...] = ()  # data records: one size per variable-length column
    payload: bytes = field(default=b"", repr=False)

    @property
    def name(self) -> str:
        return NAMES.get(self.recnum, str(self.recnum))


def _frame(recnum: int, specific: bytes, payload: bytes = b"") -> bytes:
    return COMMON.pack(COMMON_SIZE + len(specific), len(payload), PKTSCHEME_LRECBINARY,
                       recnum) + specific + payload


def begin(sequence: int, transaction: int, start: int, user_id: int) -> bytes:
    return _frame(BEGINTX, _BEGIN.pack(sequence, transaction, start, user_id))


def commit(sequence: int, transaction: int, when: int) -> bytes:
    return _frame(COMMTX, _COMMIT.pack(sequence, transaction, when))


def rollback(sequence: int, transaction: int) -> bytes:
    return _frame(RBTX, _SEQ_TX.pack(sequence, transaction))


def discard(sequence: int, transaction: int) -> bytes:
    return _frame(DISCARD, _SEQ_TX.pack(sequence, transaction))


def data(recnum: int, sequence: int, transaction: int, user_data: int,
         var_sizes: tuple[int, ...] | list[int], payload: bytes) -> bytes:
    """INSERT/DELETE/UPDBEF/UPDAFT: the header size counts the variable-length size fields,
    the payload size the column data (fixed-length columns first, then variable-length)."""
    if recnum not in DATA_RECORDS:
        raise RecordError(f"record {recnum} carries no row")
    sizes = struct.pack(f">{len(var_sizes)}i", *var_sizes)
    return _frame(recnum, _DATA.pack(sequence, transaction, user_data, 0) + sizes, payload)


def truncate(sequence: int, transaction: int, user_data: int) -> bytes:
    return _frame(TRUNCATE, _TRUNC.pack(sequence, transaction, user_data))


def tabschema(user_data: int, fixed_size: int, fixed_columns: int, var_columns: int,
              columns: str) -> bytes:
    """The captured columns as a CREATE TABLE column list, UTF-8, fixed-length ones first."""
    return _frame(TABSCHEMA, _SCHEMA.pack(user_data, 0, fixed_size, fixed_columns, var_columns),
                  columns.encode("utf-8"))


def timeout(sequence: int) -> bytes:
    return _frame(TIMEOUT, _TIMEOUT.pack(sequence))


def error(flags: int, code: int) -> bytes:
    return _frame(ERROR, _ERROR.pack(flags, code))


def record_size(buf: bytes | bytearray | memoryview, offset: int = 0) -> int | None:
    """The whole size of the record starting at ``offset``, or None while its common header
    is incomplete (a read may end inside a record: the guide says the client merges)."""
    if len(buf) - offset < COMMON_SIZE:
        return None
    hsize, psize, scheme, _ = COMMON.unpack_from(buf, offset)
    if scheme != PKTSCHEME_LRECBINARY or hsize < COMMON_SIZE or psize < 0:
        raise RecordError(f"not a CDC record: header {hsize}, payload {psize}, scheme {scheme}")
    return int(hsize + psize)


def decode(buf: bytes | bytearray | memoryview, offset: int = 0) -> tuple[Record, int] | None:
    """The record at ``offset`` and the offset after it; None if it is not all there yet."""
    size = record_size(buf, offset)
    if size is None or len(buf) - offset < size:
        return None
    hsize, psize, _, recnum = COMMON.unpack_from(buf, offset)
    spec = offset + COMMON_SIZE
    end_head = offset + hsize
    rec = Record(recnum)
    try:
        if recnum == BEGINTX:
            rec.sequence, rec.transaction, rec.time, rec.user_id = _BEGIN.unpack_from(buf, spec)
        elif recnum == COMMTX:
            rec.sequence, rec.transaction, rec.time = _COMMIT.unpack_from(buf, spec)
        elif recnum in (RBTX, DISCARD):
            rec.sequence, rec.transaction = _SEQ_TX.unpack_from(buf, spec)
        elif recnum in DATA_RECORDS:
            rec.sequence, rec.transaction, rec.user_data, rec.flags = _DATA.unpack_from(buf, spec)
            nvar = (hsize - COMMON_SIZE - _DATA.size) // 4
            if nvar < 0 or COMMON_SIZE + _DATA.size + 4 * nvar != hsize:
                raise RecordError(f"{NAMES[recnum]} header size {hsize}")
            rec.var_sizes = struct.unpack_from(f">{nvar}i", buf, spec + _DATA.size)
        elif recnum == TRUNCATE:
            rec.sequence, rec.transaction, rec.user_data = _TRUNC.unpack_from(buf, spec)
        elif recnum == TABSCHEMA:
            (rec.user_data, rec.flags, rec.fixed_size, rec.fixed_columns,
             rec.var_columns) = _SCHEMA.unpack_from(buf, spec)
        elif recnum == TIMEOUT:
            (rec.sequence,) = _TIMEOUT.unpack_from(buf, spec)
        elif recnum == ERROR:
            rec.flags, rec.error = _ERROR.unpack_from(buf, spec)
        else:
            raise RecordError(f"unknown CDC record number {recnum}")
    except struct.error as e:
        raise RecordError(f"{rec.name}: header of {hsize} bytes is too short") from e
    rec.payload = bytes(buf[end_head:end_head + psize])
    return rec, offset + hsize + psize


def split_columns(text: str) -> list[tuple[str, str]]:
    """A TABSCHEMA column list, ``"id integer, price decimal(8,2)"`` -> [(name, type)]:
    commas inside parentheses belong to the type."""
    out: list[tuple[str, str]] = []
    depth = 0
    start = 0
    for i, ch in enumerate(text + ","):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "," and depth == 0:
            part = text[start:i].strip()
            start = i + 1
            if part:
                name, _, typ = part.partition(" ")
                out.append((name.strip(), typ.strip()))
    return out
