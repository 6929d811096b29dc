"""Numbers of the SQLI protocol: message codes, type codes, statement types, capability bits.

Every number here is used on the wire by both the driver and the embedded server, and each has
its evidence recorded in ``docs/PROTOCOL.md`` (the JDBC report, the informix-driver report, or an
interop test). Keeping them in one module means a wrong number is wrong in exactly one place.
"""

from __future__ import annotations

from enum import IntEnum
from functools import lru_cache


class Msg(IntEnum):
    """SQLI message codes (the u16 that starts every message after login)."""

    COMMAND = 1
    PREPARE = 2
    CURNAME = 3
    ID = 4
    BIND = 5
    OPEN = 6
    EXECUTE = 7
    DESCRIBE = 8
    NFETCH = 9
    CLOSE = 10
    RELEASE = 11
    EOT = 12
    ERR = 13
    TUPLE = 14
    DONE = 15
    PUTERR = 18
    CMMTWORK = 19
    RBWORK = 20
    NDESCRIBE = 22
    SFETCH = 23
    SCROLL = 24
    TUPID = 25
    DBLIST = 26
    BEGIN = 35
    DBOPEN = 36
    DBCLOSE = 37
    FETCHBLOB = 38
    BLOB = 39
    FERR = 40
    BBIND = 41
    HOLD = 43
    WANTDONE = 49
    VERSION = 53
    COST = 55
    EXIT = 56
    INFO = 81
    REASSOC = 86
    INSERTDONE = 94
    LODATA = 97
    FILE = 98
    XACTSTAT = 99
    RET_TYPE = 100
    GETROUTINE = 101
    EXFPROUTINE = 102
    FPROUTINE = 103
    FPARAM = 104
    FILE_READ = 106
    FILE_WRITE = 107
    AUTOFREE = 108
    CIDESCRIBE = 124
    IDESCRIBE = 125
    PROTOCOLS = 126
    ACCEPT = 127  # PAM: the login is accepted (docs/PROTOCOL.md §16)
    ACK = 128  # PAM: the client is ready for challenges
    CHALLENGE = 129  # PAM: u16 style, u16 len, prompt + pad
    RESPONSE = 130  # PAM: u16 len, answer + pad
    IFPDESCRIBE = 132  # [B] IfxSqli.receiveIFPDescribe: the answer to SQ_CFPDESCRIBE
    CFPDESCRIBE = 131  # [B] IfxSqli.sendCFPDescribe: describe a fast-path routine's arguments
    SVPT_SET = 137
    SVPT_RELEASE = 138
    SVPT_ROLLBACK = 139
    BATCHSTART = 141
    BATCHEND = 142


class Login(IntEnum):
    """Codes inside the login PDU (the ASF "connection request" and its response)."""

    SLTYPE_CONREQ = 1
    SLTYPE_CONACC = 2
    SLTYPE_CONREJ = 3
    SLTYPE_REDIRECT = 13
    SL_PROT_SQLI_0600 = 60
    #: The SL header's last u16 (its "options") in an accept: what a live 15.0 server sent
    #: (lakeflow's informix_api_doc.md); every client we know skips it (docs/PROTOCOL.md §2).
    SL_ACCEPT_OPTIONS = 0x1000
    PROTOCOL_ID = 61
    ASSOC = 100
    ASCBINARY = 101
    ASCINITRESP = 102
    ASCREDIRECT = 103
    ASCINITREQ = 104
    ASCENV = 106
    ASCPINFO = 107
    ASCBPARMS = 108
    ASCMISC_60 = 116
    ASCEOT = 127
    ASF_XCONNECT = 11
    CAP1_ENHANCED = 316


class InfoType(IntEnum):
    """Sub-codes of SQ_INFO."""

    DONE = 0
    ENV = 6


class TypeCode(IntEnum):
    """Informix column type codes (low byte of the DESCRIBE column type)."""

    CHAR = 0
    SMALLINT = 1
    INTEGER = 2
    FLOAT = 3
    SMALLFLOAT = 4
    DECIMAL = 5
    SERIAL = 6
    DATE = 7
    MONEY = 8
    NULL = 9
    DATETIME = 10
    BYTE = 11
    TEXT = 12
    VARCHAR = 13
    INTERVAL = 14
    NCHAR = 15
    NVARCHAR = 16
    INT8 = 17
    SERIAL8 = 18
    SET = 19
    MULTISET = 20
    LIST = 21
    ROW = 22
    COLLECTION = 23
    UDTVAR = 40
    UDTFIXED = 41
    LVARCHAR = 43
    SENDRECV = 44
    BOOLEAN = 45
    BIGINT = 52
    BIGSERIAL = 53
    # Smart large objects: on the wire they are UDTFIXED (41) with xid 10/11; these two codes are
    # what JDBC's IfxTypes and informix-driver's IfxType call them, and what a fast-path reply
    # may carry (JDBC IfxSqli.cleanUpFPTypeInfo maps 102/101 to SENDRECV with xid 10/11).
    CLOB = 101
    BLOB = 102


# Flags carried in the high byte of the 16-bit column type.
TYPE_NOTNULL = 0x0100
TYPE_DISTINCT = 0x0800
TYPE_NAMEDROW = 0x1000
TYPE_BASE_MASK = 0x00FF

# Extended ids (xid) of the built-in UDTs, as Informix describes them.
XID_LVARCHAR = 1
XID_BOOLEAN = 5
XID_BLOB = 10
XID_CLOB = 11


class StmtType(IntEnum):
    """Statement types carried in SQ_DESCRIBE: the ``SQ_*`` numbers of the Informix Client
    SDK header ``sqlstype.h`` (IBM, 1997-2012; a public copy is in the GitHub code index).
    ``SAVEPOINT`` (37) is "for internal use only" there; the SAVEPOINT statement is 159."""

    DATABASE = 1
    SELECT = 2
    UPDATE = 4
    DELETE = 5
    INSERT = 6
    LOCK = 10
    UNLOCK = 11
    CREATE_DATABASE = 12
    DROP_DATABASE = 13
    CREATE_TABLE = 14
    DROP_TABLE = 15
    CREATE_INDEX = 16
    DROP_INDEX = 17
    GRANT = 18
    REVOKE = 19
    RENAME_TABLE = 20
    RENAME_COLUMN = 21
    ALTER = 29
    UPDATE_STATISTICS = 30
    CLOSE_DATABASE = 31
    BEGIN_WORK = 34
    COMMIT_WORK = 35
    ROLLBACK_WORK = 36
    SAVEPOINT = 37
    CREATE_VIEW = 40
    DROP_VIEW = 41
    CREATE_SYNONYM = 43
    DROP_SYNONYM = 44
    CREATE_TEMP_TABLE = 45
    SET_LOCK_MODE = 46
    ALTER_INDEX = 47
    SET_ISOLATION = 48
    SET_LOG = 49
    CREATE_PROCEDURE = 53
    DROP_PROCEDURE = 54
    SET_CONSTRAINTS = 55
    EXECUTE_PROCEDURE = 56
    CREATE_TRIGGER = 70
    DROP_TRIGGER = 71
    UNKNOWN = 72
    CREATE_ROLE = 83
    DROP_ROLE = 84
    SET_ROLE = 85
    RENAME_INDEX = 116
    TRUNCATE = 122
    CREATE_SEQUENCE = 124
    DROP_SEQUENCE = 125
    ALTER_SEQUENCE = 126
    RENAME_SEQUENCE = 127
    MERGE = 128
    SET_SAVEPOINT = 159
    RELEASE_SAVEPOINT = 160
    ROLLBACK_TO_SAVEPOINT = 161


#: Base type codes whose SQ_BIND item and SQ_DESCRIBE column carry a CHARSTR owner and type
#: name: every code above SERIAL8 (18) except BIGINT and BIGSERIAL (52, 53) (PROTOCOL.md §3).
NAMED_IN_BIND = frozenset(range(TypeCode.SERIAL8 + 1, 256)) - {TypeCode.BIGINT, TypeCode.BIGSERIAL}
#: Fast-path values (SQ_FPROUTINE / SQ_FPARAM) name one type more: SERIAL8 itself (JDBC
#: ``receiveFastPath``: ``>= 18``; PROTOCOL.md §10).
NAMED_IN_FAST_PATH = NAMED_IN_BIND | {int(TypeCode.SERIAL8)}


# DATETIME / INTERVAL time units as used in qualifiers: (digits << 8) | (start << 4) | end.
class TimeUnit(IntEnum):
    YEAR = 0
    MONTH = 2
    DAY = 4
    HOUR = 6
    MINUTE = 8
    SECOND = 10
    FRACTION1 = 11
    FRACTION2 = 12
    FRACTION3 = 13
    FRACTION4 = 14
    FRACTION5 = 15


# Database flags reported in the warnings field of the SQ_DONE that answers SQ_DBOPEN.
# The bits are SQLWARN's "database opened" fields shifted down by one: 0x01 logged (sqlwarn1),
# 0x02 ANSI (sqlwarn2), 0x04 "the database server is Informix" (sqlwarn3, SQLSTATE 01I04),
# which every Informix server sets (Guide to SQL: Tutorial, "SQLWARN array"); JDBC 4.50.10
# reads 0x04 as IfxSqliConnect.isOnLine() and picks its metadata queries by it.
DBFLAG_LOGGED = 0x0001
DBFLAG_ANSI = 0x0002
DBFLAG_INFORMIX = 0x0004
#: sqlwarn5, "an Informix extension to ANSI SQL": a real server sets it in the SQ_DONE of a
#: DATABASE (SQ_DBOPEN) and JDBC masks it off unless DBANSIWARN is set (docs/PROTOCOL.md §6).
DBFLAG_EXTENSION = 0x0010

# The mask the JDBC report validated with both jars against its mock (jdbc-protocol.md 2.1/5.1),
# plus bit 62: everything optional off.  A fallback: Server(protocols=JDBC_MINIMAL_PROTOCOLS).
JDBC_MINIMAL_PROTOCOLS = bytes.fromhex("fffc7ffc3c00220300")
# The first 8 bytes every real server sent informix-driver (12.10, 14.10 and 15 alike) and the
# ninth byte of 14.10 (peer report 2.3).  Our server answers exactly this, so a client sees the
# same capabilities as from a real 14.10: named parameters (bit 52), savepoints (56), SQ_BATCH
# (61), remove-64K (62) on; PAM (44), private-server (59), large tuples (69), long row ids (70)
# off.  Both JDBC jars and informix-driver pass their interop suites with it.
REAL_PROTOCOLS_1410 = bytes.fromhex("bdbe9ffe7fb7ffeff8")
SERVER_PROTOCOLS = REAL_PROTOCOLS_1410
# What JDBC 15.0.0.1 offers; the driver offers the same bytes.
CLIENT_PROTOCOLS = bytes.fromhex("fffc7ffc3c8caa9706")

# Bit numbering of SQ_PROTOCOLS: feature index = 8 * byte + (7 - bit), i.e. MSB first.
CAP_PAM = 44
CAP_FOUR_BYTE_OFFSETS = 50
CAP_NAMED_PARAMETERS = 52
CAP_BIGINT = 54
CAP_SAVEPOINT = 56
CAP_PRIVATE_SERVER = 59
CAP_SQBATCH = 61
CAP_REMOVE_64K = 62
#: NFETCH's buffer size is an i32 (an i16 when the client did not offer it: nmap's informix.lua).
CAP_TWO_GB_FETCH = 63
CAP_LARGE_TUPLE = 69
CAP_LONG_ROWID = 70


def capability_set(mask: bytes) -> frozenset[int]:
    """Decode an SQ_PROTOCOLS byte string into the set of feature indices it enables."""
    return _capability_set(bytes(mask))


@lru_cache(maxsize=64)
def _capability_set(mask: bytes) -> frozenset[int]:
    # Cached: a connect decodes the same two masks (the client's and the server's) each time.
    return frozenset(
        8 * i + (7 - bit) for i, byte in enumerate(mask) for bit in range(8) if byte & (1 << bit)
    )
